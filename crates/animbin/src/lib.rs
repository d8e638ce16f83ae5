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
//! use animbin::{ConvertOptions, Document, Target};
//!
//! let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! for entry in std::fs::read_dir(folder)? {
//!     let path = entry?.path();
//!     if !path.is_file() {
//!         continue; // testdata/character/, poses/ and textures/
//!     }
//!     let document = Document::open(&path)?;
//!     // Textures beside the file are embedded; unnamed animations take the file's stem.
//!     let options = ConvertOptions::for_input(&path);
//!     let glb = animbin::convert(&document, Target::Glb, &options)?;
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
//! A caller done with the document converts it owned ([`convert_owned`], as the command
//! does): arrays its model holds as the scene does move into the scene instead of being
//! copied, the document is freed before the output is made, and a glb writes its large
//! arrays (positions, UVs, unit normals, `u32` indices, colours, PNGs) straight from that
//! scene, and its long animation channels' values from the scene's keys, as the file is
//! written ([`animbin_gltf::encode_owned`]). The output is the same; the data is held once.
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
//! ## How it is built
//!
//! Every format is its own crate, and every format crate implements the same contract,
//! [`FileFormat`] (in `animbin-core`): its root type reads, writes in each of its forms,
//! summarises (from the model and from its zero-copy view, one `Summary` type), validates
//! (into [`Problem`]s), dumps, and maps to and from the [`Scene`]; its constants say what a
//! front end needs (label, extensions, magic, what it holds, whether it stores a frame rate).
//! This crate holds one table of formats ([`table`]): one entry per format naming its
//! variant, its root type, its short name and the targets it is written as. [`Format`],
//! [`Target`], [`Document`], [`Info`], the dump's tagged forms and format detection are
//! generated from it, and [`formats`] gives each format's metadata to front ends. What is
//! the same for every format (detection of JSON inputs and dumps, conversion through the
//! scene with joined animations, the loss report, texture search, atomic writes, batches)
//! is written once here. The command, the Python module and the Blender extension only
//! translate: they know no format by name.
//!
//! ## Adding a format
//!
//! A new format touches three places:
//!
//! 1. **Its crate**, `crates/<name>`, depending on `animbin-core` only: a root type that
//!    implements [`FileFormat`] (read, forms, write, summary and `summary_of` through its
//!    view, validate, dump and undump, to_scene and from_scene, and the constants), a
//!    `Summary`, a `View` with `View::parse`, tests, a fuzz target.
//! 2. **One entry** in the table in `crates/animbin/src/table.rs`: the variant, the root
//!    type, the name, each target with the extension that selects it, the extension its
//!    files are written with and its form; and its place in the `detection order` line at
//!    the top of the table (formats recognised by name alone go last).
//! 3. **Its `Cargo.toml` lines**: the crate in the workspace's `[workspace.dependencies]`
//!    and in `crates/animbin/Cargo.toml`.
//!
//! Nothing else changes: the command's `--to` and `--format`, `info --json`, dumps, batch
//! conversion, Python's `animbin.formats()` and the Blender extension's import and export
//! entries all come from the table.
//!
//! Each format's own crate is re-exported ([`seanim`], [`semodel`], [`cast`], [`animx`],
//! [`sf3`], [`dmf`], [`gltf`]) for the callers who need every field of one format, its zero-copy
//! view, or its writer's options.

#[cfg(feature = "fs")]
pub mod batch;
mod convert;
mod document;
mod dump;
mod error;
#[cfg(feature = "fs")]
mod files;
mod format;
pub mod options;
#[cfg(feature = "fs")]
mod resources;
pub mod se_cast;
pub mod table;
mod textures;

pub use animbin_animx::AnimXDocument;
pub use animbin_core::scene::{ConversionReport, Scene};
pub use animbin_core::{FileFormat, Location, Problem, SceneOptions, Severity};
pub use animbin_gltf::GltfFile;
pub use animbin_sf3::is_x8an_name;
pub use convert::{
    AnimationSource, Conversion, ConvertOptions, MAX_FILE_NAME, SceneWith, UnmatchedTracks, convert, convert_owned,
    convert_scene, convert_split, file_name, loss_line, split_file_names, writable_targets,
};
pub use error::{Error, Result};
#[cfg(feature = "fs")]
pub use files::{MAX_INPUT_SIZE, ReadOptions, SaveOptions, is_same_file, save, save_with};
pub use format::UnknownName;
pub use options::InvalidOption;
pub use table::{Document, Format, FormatInfo, Info, Target, formats};
pub use textures::{find_texture, find_textures, given_textures};

/// The format crates, for every field of one format.
pub use {
    animbin_animx as animx, animbin_cast as cast, animbin_core as core, animbin_dmf as dmf, animbin_fbx as fbx,
    animbin_gltf as gltf, animbin_seanim as seanim, animbin_semodel as semodel, animbin_sf3 as sf3,
};
