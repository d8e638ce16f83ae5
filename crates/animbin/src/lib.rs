//! # animbin
//!
//! One entry point for game animation and model files: SEAnim, SEModel, Cast, Resonite's
//! AnimX (and its JSON twin AnimJ), Shining Force III x8an battle animations, the Dash Model
//! Format 1.5 and glTF 2.0. Open any of them into a [`Document`], then ask it for a
//! summary ([`Document::info`]), its problems ([`Document::validate`]), a lossless JSON dump
//! ([`Document::dump`]), a scene ([`Document::to_scene`]), or convert it to any other format
//! that can hold its content ([`convert`]), with a report of what the target cannot hold.
//!
//! ```
//! use animbin::{ConvertOptions, Document, Error, Target};
//!
//! let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! for entry in std::fs::read_dir(folder)? {
//!     let path = entry?.path();
//!     let document = Document::open(&path)?;
//!     // Textures beside the file are embedded; unnamed animations take the file's stem.
//!     let options = ConvertOptions::for_input(&path);
//!     let glb = match animbin::convert(&document, Target::Glb, &options) {
//!         Ok(glb) => glb,
//!         // Its two segments hold no keys: the glTF would hold nothing.
//!         Err(Error::NothingToWrite { .. }) if path.ends_with("x8an02.bin") => continue,
//!         Err(e) => return Err(e.into()),
//!     };
//!     for line in &glb.report.lost {
//!         eprintln!("{}: glTF cannot hold {line}", path.display());
//!     }
//!     assert!(glb.to_bytes()?.starts_with(b"glTF"));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Formats are told apart by their magic bytes; x8an files have none and are recognised by
//! the name `x8an*.bin` (pass the path to [`Document::parse`], or the format to
//! [`Document::parse_as`]). JSON inputs may be an animbin dump, AnimJ, DMF JSON or glTF.
//!
//! Nothing is lost silently: a same-format conversion of a file gives back its bytes, a
//! conversion through the scene model records each kind of loss in
//! [`Conversion::report`], and [`ConvertOptions::strict`] makes any loss an error. Files are
//! written whole or not at all ([`save`]). SEAnim and SEModel go to Cast and back without
//! the scene model ([`se_cast`]): an SE file comes back byte for byte.
//!
//! Many files and folders convert into one folder through [`batch`]: [`batch::plan`]
//! refuses outputs that collide or overwrite an input before anything is written, and
//! [`batch::convert_one`] converts each file on whatever thread the caller chooses.
//!
//! ## Dumps
//!
//! [`Document::dump`] writes `{"format": NAME, "data": ...}`, and [`Document::undump`] (or a
//! conversion of the `.json`) gives back the file's bytes. Every float is kept exactly: a
//! finite value is a JSON number, and what JSON numbers cannot hold is a string, `"NaN"`
//! (the canonical quiet NaN), `"Infinity"`, `"-Infinity"`, or `"nan:0x"` and the bits in
//! hex for any other NaN (`"nan:0x7fc00001"` for an `f32`, 16 digits for an `f64`), as
//! [`animbin_core::float`] writes them. AnimJ and DMF JSON files keep their own forms: the
//! `nan:0x` strings appear only in dumps.
//!
//! Each format's own crate is re-exported ([`seanim`], [`semodel`], [`cast`], [`animx`],
//! [`sf3`], [`dmf`], [`gltf`]) for the callers who need every field of one format, its zero-copy
//! view, or its writer's options.

pub mod batch;
mod convert;
mod document;
mod dump;
mod error;
mod files;
mod format;
mod formats;
mod info;
mod problem;
pub mod se_cast;
mod textures;

pub use animbin_animx::AnimXDocument;
pub use animbin_core::scene::{ConversionReport, Scene};
pub use animbin_core::{Location, SceneOptions, Severity};
pub use convert::{AnimationSource, Conversion, ConvertOptions, UnmatchedTracks, convert, convert_split};
pub use document::Document;
pub use error::{Error, Result};
pub use files::{is_same_file, save};
pub use format::{Format, Target, UnknownName, is_x8an_name};
pub use formats::gltf::GltfFile;
pub use info::{AnimXInfo, CastInfo, DmfInfo, GltfInfo, Info, SeAnimInfo, SeModelInfo, Sf3Info};
pub use problem::Problem;

/// The format crates, for every field of one format.
pub use {
    animbin_animx as animx, animbin_cast as cast, animbin_core as core, animbin_dmf as dmf, animbin_gltf as gltf,
    animbin_seanim as seanim, animbin_semodel as semodel, animbin_sf3 as sf3,
};
