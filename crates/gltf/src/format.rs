//! glTF's side of the contract every format crate implements: [`FileFormat`] for
//! [`GltfFile`].

use std::io::Write;

use animbin_core::format::{FileFormat, Holds, Keeps};
use animbin_core::images::ImageFiles;
use animbin_core::scene::{AnimKind, ConversionReport, Scene};
use animbin_core::{Problem, SceneOptions};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::dump::{self, GltfDump};
use crate::error::{Error, Result};
use crate::file::GltfFile;
use crate::repack::{Container, repack};
use crate::summary::Summary;

/// Reads a `.glb` or a `.gltf`: the whole file is read into a scene once (so a bad file
/// fails here, not later), and its bytes are kept; the container is [`Container::Glb`] when
/// they start with [`crate::MAGIC`].
pub(crate) fn read(bytes: &[u8]) -> Result<GltfFile> {
    crate::to_scene(bytes, &SceneOptions::default(), &mut ConversionReport::default())?;
    let container = if crate::is_glb(bytes) {
        Container::Glb
    } else {
        Container::Gltf
    };
    Ok(GltfFile {
        bytes: bytes.to_vec(),
        container,
    })
}

/// The members of a JSON input that tell glTF, read without keeping values.
#[derive(Deserialize)]
struct JsonProbe {
    asset: Option<IgnoredAny>,
}

/// glTF 2.0: two forms, the JSON `.gltf` (buffer embedded) and the binary `.glb`, between
/// which a file moves without its JSON being touched; a file keeps its bytes, so writing it
/// in its own form gives them back. Animations are written as the keys that play (kinds are
/// applied against the bind pose, and recorded in animbin's extras); times are seconds, and
/// the frame rate of a file from another tool is the caller's choice or guessed.
impl FileFormat for GltfFile {
    const NAME: &'static str = "gltf";
    const LABEL: &'static str = "glTF";
    const EXTENSIONS: &'static [&'static str] = &["glb", "gltf"];
    /// A `.gltf` is the JSON form; a `.glb` is binary.
    const JSON_EXTENSIONS: &'static [&'static str] = &["gltf"];
    const MAGIC: &'static [u8] = crate::MAGIC;
    /// Bones, meshes, materials, embedded (PNG) textures and animations: each is written and
    /// read back.
    const HOLDS: Holds = Holds::all();
    /// A node graph, a sampler per channel with its own interpolation, and a root node
    /// with compensation nodes for placement and per-channel kinds.
    const KEEPS: Keeps = Keeps::all();
    const INTERCHANGE: bool = true;
    const STORES_FRAMERATE: bool = false;
    const ANIMATION_KINDS: &'static [AnimKind] = &[AnimKind::Absolute];
    const NAMES_ANIMATIONS: bool = true;
    const SEVERAL_ANIMATIONS: bool = true;
    const LENGTH_ENDS_ON_LAST_KEY: bool = false;
    const CHOOSES_PRECISION: bool = false;
    const EMBEDS_IMAGE_FILES: bool = true;
    /// A 3D tool makes an action of each glTF animation: one without a name is named after
    /// the file it came from.
    const NAMES_FROM_FILES: bool = true;

    type Form = Container;
    type Summary = Summary;
    type Error = Error;
    type Dump<'a> = Value;
    type Undump = GltfDump;

    /// Whether `bytes` start like a GLB file ([`crate::is_glb`]).
    fn probe(bytes: &[u8]) -> bool {
        crate::is_glb(bytes)
    }

    /// Whether the JSON is an object with a top-level `asset` member, which glTF requires.
    fn probe_json(bytes: &[u8]) -> bool {
        serde_json::from_slice::<JsonProbe>(bytes).is_ok_and(|probe| probe.asset.is_some())
    }

    fn read(bytes: &[u8]) -> Result<Self> {
        read(bytes)
    }

    fn form(&self) -> Container {
        self.container
    }

    /// The file's own bytes in its own container; else [`repack`]ed, its JSON kept as it is.
    fn write_as(&self, form: Container, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        if form == self.container {
            writer.write_all(&self.bytes)?;
        } else {
            writer.write_all(&repack(&self.bytes, form)?)?;
        }
        Ok(())
    }

    fn summary(&self) -> Summary {
        Summary::of_file(self)
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(&self.bytes)
    }

    fn dump(&self) -> Result<Value> {
        dump::dump(self)
    }

    fn undump(data: GltfDump) -> Result<Self> {
        dump::undump(data)
    }

    /// [`crate::to_scene`] of the file's bytes.
    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        crate::to_scene(&self.bytes, options, report)
    }

    /// [`crate::to_bytes_with_images`] in `form`, embedding the texture files found.
    fn from_scene(
        scene: &Scene,
        form: Container,
        options: &SceneOptions,
        images: &ImageFiles,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        let bytes = crate::to_bytes_with_images(scene, form, options, images, report)?;
        Ok(Self { bytes, container: form })
    }

    /// The writer makes a node for each bone, each mesh or hair with vertices, each instance
    /// and each animated track, and an animation for each animation with keys: a scene with none of them would
    /// give a glTF with no node and no animation.
    fn holds_nothing(scene: &Scene) -> Option<String> {
        let no_keys = scene
            .animations
            .iter()
            .flat_map(|a| &a.bones)
            .all(|t| t.translation.is_empty() && t.rotation.is_empty() && t.scale.is_empty());
        let no_vertices = scene.meshes.iter().all(|m| m.positions.is_empty())
            && scene.hairs.iter().all(|h| h.particles.is_empty())
            && scene.instances.is_empty();
        (scene.skeleton.bones.is_empty() && no_vertices && no_keys).then(|| {
            "the input holds no bones, vertices or animation keys, so the glTF would hold no node and no animation"
                .to_string()
        })
    }
}
