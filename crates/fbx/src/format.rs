//! FBX's side of the contract every format crate implements: [`FileFormat`] for
//! [`FbxFile`].

use std::io::Write;

use animbin_core::format::{FileFormat, Holds, Keeps};
use animbin_core::images::ImageFiles;
use animbin_core::scene::{AnimKind, ConversionReport, Scene};
use animbin_core::{Problem, SceneOptions};

use crate::FbxFile;
use crate::error::{self, Error, Result};
use crate::export::WriteOptions;
use crate::node::{self, Document};
use crate::summary::Summary;

/// Binary FBX 7.4 / 7.5: one form. A file keeps its bytes, so writing it gives them back;
/// a scene is written with [`crate::to_bytes_with`]'s defaults and the up axis and unit of
/// the [`SceneOptions`]. Reading into a scene needs the `ufbx` feature.
impl FileFormat for FbxFile {
    const NAME: &'static str = "fbx";
    const LABEL: &'static str = "FBX";
    const EXTENSIONS: &'static [&'static str] = &["fbx"];
    const MAGIC: &'static [u8] = node::MAGIC;
    /// Nodes and bones, meshes, materials, embedded images and animations.
    const HOLDS: Holds = Holds::all();
    /// A node graph of Models, the placement as a Null above it, and inherit type 2 for bones
    /// that do not inherit scale; curves and per-channel kinds are baked.
    const KEEPS: Keeps = Keeps::GRAPH.union(Keeps::PLACEMENT).union(Keeps::SCALE_COMPENSATION);
    const INTERCHANGE: bool = true;
    /// `GlobalSettings` `TimeMode` (and `CustomFrameRate`).
    const STORES_FRAMERATE: bool = true;
    const ANIMATION_KINDS: &'static [AnimKind] = &[AnimKind::Absolute];
    const NAMES_ANIMATIONS: bool = true;
    const SEVERAL_ANIMATIONS: bool = true;
    const LENGTH_ENDS_ON_LAST_KEY: bool = false;
    const CHOOSES_PRECISION: bool = false;
    /// A 3D tool makes an action (a take) of each animation stack: one without a name is
    /// named after the file it came from.
    const NAMES_FROM_FILES: bool = true;

    type Form = ();
    type Summary = Summary;
    type Error = Error;
    type Dump<'a> = Document;
    type Undump = Document;

    /// Reads the records strictly ([`node::parse`]); the bytes are kept.
    fn read(bytes: &[u8]) -> Result<Self> {
        node::parse(bytes)?;
        Ok(Self { bytes: bytes.to_vec() })
    }

    fn form(&self) {}

    fn write_as(&self, _: (), writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        writer.write_all(&self.bytes).map_err(error::io)
    }

    fn summary(&self) -> Summary {
        node::parse(&self.bytes).map_or_else(|_| Summary::of(&Document::default()), |d| Summary::of(&d))
    }

    fn summary_of(bytes: &[u8]) -> Result<Summary> {
        Ok(Summary::of(&node::parse(bytes)?))
    }

    fn validate(&self) -> Vec<Problem> {
        match node::parse(&self.bytes) {
            Ok(document) => crate::validate::validate(&document),
            Err(e) => vec![Problem::new(
                animbin_core::Severity::Error,
                animbin_core::Location::Offset(e.offset),
                e.kind.to_string(),
            )],
        }
    }

    /// The tree of records, arrays inflated.
    fn dump(&self) -> Result<Document> {
        node::parse(&self.bytes)
    }

    /// The records written again (arrays compressed as this writer compresses them).
    fn undump(data: Document) -> Result<Self> {
        Ok(Self {
            bytes: node::write_nodes(&data)?,
        })
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        crate::to_scene(&self.bytes, options, report)
    }

    fn from_scene(
        scene: &Scene,
        _: (),
        options: &SceneOptions,
        _: &ImageFiles,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        let bytes = crate::to_bytes_with(scene, &WriteOptions::from_scene_options(options), report)?;
        Ok(Self { bytes })
    }
}
