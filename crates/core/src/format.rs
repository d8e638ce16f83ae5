//! The contract every format crate implements: [`FileFormat`], one trait with the same
//! meaning for SEAnim, SEModel, Cast, AnimX, x8an, DMF and glTF.
//!
//! A format crate's root type (`SeAnim`, `SeModel`, `CastFile`...) implements it, so that a
//! caller, and the `animbin` library's table of formats, treats every format alike: read
//! it, write it (in any of its [forms](FileFormat::Form)), summarise it from the model or
//! straight from the bytes through its zero-copy view, validate it, dump it, and map it to
//! and from the neutral [`Scene`].
//!
//! ```
//! use animbin_core::format::{FileFormat, Holds};
//!
//! /// What a generic front end can say of any format without knowing which.
//! fn describe<F: FileFormat>() -> String {
//!     let frame_rate = if F::STORES_FRAMERATE { "stores its frame rate" } else { "stores no frame rate" };
//!     format!("{} (.{}) {frame_rate}; holds {}", F::LABEL, F::EXTENSIONS[0], F::HOLDS.describe())
//! }
//! # let _ = describe::<Unit>;
//! # #[derive(Clone, Debug)] struct Unit;
//! # impl FileFormat for Unit {
//! #     const NAME: &'static str = "unit"; const LABEL: &'static str = "Unit";
//! #     const EXTENSIONS: &'static [&'static str] = &["unit"]; const MAGIC: &'static [u8] = b"";
//! #     const HOLDS: Holds = Holds::ANIMATIONS; const STORES_FRAMERATE: bool = true;
//! #     const ANIMATION_KINDS: &'static [animbin_core::scene::AnimKind] = &[animbin_core::scene::AnimKind::Absolute];
//! #     const NAMES_ANIMATIONS: bool = true; const SEVERAL_ANIMATIONS: bool = false;
//! #     const LENGTH_ENDS_ON_LAST_KEY: bool = false; const CHOOSES_PRECISION: bool = false;
//! #     type Form = (); type Summary = (); type Error = animbin_core::Error;
//! #     type Dump<'a> = (); type Undump = ();
//! #     fn read(_: &[u8]) -> Result<Self, Self::Error> { Ok(Unit) }
//! #     fn form(&self) {}
//! #     fn write_as(&self, _: (), _: &mut dyn std::io::Write, _: &mut animbin_core::ConversionReport) -> Result<(), Self::Error> { Ok(()) }
//! #     fn summary(&self) {}
//! #     fn validate(&self) -> Vec<animbin_core::Problem> { Vec::new() }
//! #     fn dump(&self) -> Result<(), Self::Error> { Ok(()) }
//! #     fn undump(_: ()) -> Result<Self, Self::Error> { Ok(Unit) }
//! #     fn to_scene(&self, _: &animbin_core::SceneOptions, _: &mut animbin_core::ConversionReport) -> Result<animbin_core::scene::Scene, Self::Error> { Ok(Default::default()) }
//! #     fn from_scene(_: &animbin_core::scene::Scene, _: (), _: &animbin_core::SceneOptions, _: &animbin_core::images::ImageFiles, _: &mut animbin_core::ConversionReport) -> Result<Self, Self::Error> { Ok(Unit) }
//! # }
//! ```

use std::ffi::OsStr;
use std::fmt::Debug;
#[cfg(feature = "fs")]
use std::fs::File;
use std::io::{self, Write};
#[cfg(feature = "fs")]
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};
#[cfg(feature = "fs")]
use std::sync::{Mutex, PoisonError};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::images::ImageFiles;
use crate::scene::{AnimKind, ConversionReport, Precision, Scene, SceneOptions};
use crate::validate::Problem;

bitflags::bitflags! {
    /// What a format can hold, as parts of the [`Scene`] it maps to. A front end offers a
    /// format as an import of models or of animations by it, and a conversion into a format
    /// that holds none of what the input has writes nothing.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct Holds: u8 {
        /// A skeleton: bones with their bind poses.
        const BONES = 1;
        /// Triangle meshes.
        const MESHES = 1 << 1;
        /// Materials.
        const MATERIALS = 1 << 2;
        /// Embedded textures.
        const TEXTURES = 1 << 3;
        /// Animations of bones.
        const ANIMATIONS = 1 << 4;
    }
}

bitflags::bitflags! {
    /// What a format keeps of a scene's structure, beyond the parts it [`Holds`]. A
    /// conversion into a format without one of these bakes it into what the format has,
    /// and names what that changes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct Keeps: u8 {
        /// A node graph: plain nodes above and between bones, placed and instanced meshes,
        /// skins with their own bind matrices, cameras and lights (glTF, FBX). The others
        /// get a rig ([`Scene::bake_to_rig`]).
        const GRAPH = 1;
        /// A channel joined otherwise than its animation (STEP, cubic splines with
        /// tangents: [`crate::scene::BoneTrack::curves`]). The others get keys that play the
        /// same at whole frames ([`crate::scene::Animation::bake_curves`]).
        const CURVES = 1 << 1;
        /// A kind (absolute, relative...) per channel (Cast's curve modes; glTF's plain local
        /// keys). The others get one kind per animation, with keys that play the same.
        const CHANNEL_KINDS = 1 << 2;
        /// The scene's placement ([`Scene::placement`]: Cast's Model node; glTF's root node;
        /// FBX's Null above everything). The others lose it, and say so.
        const PLACEMENT = 1 << 3;
        /// Bones that do not inherit their parent's scale ([`crate::scene::Bone::scale_compensate`]:
        /// Cast's `ssc`, glTF's compensation nodes, FBX's inherit type). The others lose it
        /// where it changes a pose, and say so.
        const SCALE_COMPENSATION = 1 << 4;
    }
}

impl Holds {
    /// The names of the parts, in the order of the flags: `["bones", "meshes"]`.
    pub fn names(self) -> Vec<&'static str> {
        self.iter_names()
            .map(|(name, _)| match name {
                "BONES" => "bones",
                "MESHES" => "meshes",
                "MATERIALS" => "materials",
                "TEXTURES" => "textures",
                _ => "animations",
            })
            .collect()
    }

    /// The parts as a phrase: `"bones, meshes or animations"`.
    pub fn describe(self) -> String {
        match self.names().as_slice() {
            [] => "nothing".to_string(),
            [one] => (*one).to_string(),
            [head @ .., last] => format!("{} or {last}", head.join(", ")),
        }
    }

    /// Why a format that holds these parts would hold nothing of `scene`, if it would: when
    /// the scene has none of them ([`FileFormat::holds_nothing`]'s default).
    pub fn held_nothing_of(self, scene: &Scene) -> Option<String> {
        if Self::of(scene).intersects(self) {
            return None;
        }
        let names = self.names();
        Some(match names.as_slice() {
            [one] => format!("it holds {one} and the input has none"),
            [a, b] => format!("it holds {a} and {b} and the input has neither"),
            _ => format!("the input holds no {}", self.describe()),
        })
    }

    /// The parts of `scene` that are not empty.
    pub fn of(scene: &Scene) -> Self {
        let mut held = Self::empty();
        held.set(Self::BONES, !scene.skeleton.bones.is_empty());
        held.set(Self::MESHES, !scene.meshes.is_empty());
        held.set(Self::MATERIALS, !scene.materials.is_empty());
        held.set(Self::TEXTURES, !scene.textures.is_empty());
        held.set(Self::ANIMATIONS, !scene.animations.is_empty());
        held
    }
}

/// One file format: its root type reads, writes, summarises, validates, dumps and maps to
/// the scene, each with the same meaning for every format.
///
/// The constants describe the format for front ends (a file dialog's filter, whether to
/// ask for a frame rate); the methods are the format's whole surface. A format with more
/// than one encoding (SEModel's two layouts, AnimX's binary and AnimJ, DMF's binary and JSON,
/// glTF's `.gltf` and `.glb`) names them as its [`FileFormat::Form`].
pub trait FileFormat: Sized + Clone + Debug {
    /// The short name used in messages, dumps and `--format`: `"seanim"`.
    const NAME: &'static str;
    /// The name people know the format by: `"SEAnim"`.
    const LABEL: &'static str;
    /// The file extensions (without the dot, lower case) of the format's files, the usual
    /// one first.
    const EXTENSIONS: &'static [&'static str];
    /// The extensions (among [`FileFormat::EXTENSIONS`]) of files in the format's own JSON
    /// form (`animj`, `gltf`); files of other extensions are JSON only as dumps (`.json`).
    const JSON_EXTENSIONS: &'static [&'static str] = &[];
    /// The bytes every file of the format starts with; empty for a format without magic.
    const MAGIC: &'static [u8];
    /// What the format can hold.
    const HOLDS: Holds;
    /// Whether the format stores its own frame rate (x8an counts ticks and AnimX seconds,
    /// so a frame rate is the caller's choice there).
    const STORES_FRAMERATE: bool;
    /// The animation kinds the format can state, [`AnimKind::Absolute`] first; an
    /// animation of another kind is written as absolute keys.
    const ANIMATION_KINDS: &'static [AnimKind];
    /// Whether the format stores an animation's name (an SEAnim is named by its file).
    const NAMES_ANIMATIONS: bool;
    /// Whether the format stores a mesh's name (an SEModel's meshes have none).
    const NAMES_MESHES: bool = true;
    /// Whether one file can hold several animations.
    const SEVERAL_ANIMATIONS: bool;
    /// Whether an animation's length ends on its last key (AnimX and DMF state a
    /// duration), rather than one frame past it (frames 0 to n - 1 in n frames).
    const LENGTH_ENDS_ON_LAST_KEY: bool;
    /// Whether the format lets a writer choose the width of its key values
    /// ([`crate::scene::Precision`], SEAnim).
    const CHOOSES_PRECISION: bool;
    /// What it keeps of a scene's structure beyond its parts (see [`Keeps`]); nothing by
    /// default.
    const KEEPS: Keeps = Keeps::empty();
    /// Whether 3D tools read and write the format themselves (glTF, FBX): a front end that
    /// runs inside one (the Blender extension) leaves its files to the tool's own importer
    /// and exporter.
    const INTERCHANGE: bool = false;
    /// Whether [`FileFormat::from_scene`] embeds the texture files it is given (glTF), so
    /// that a caller looks for them first.
    const EMBEDS_IMAGE_FILES: bool = false;
    /// Whether an animation without a name of its own is named after its file when it is
    /// written in this format (glTF, whose animations become a 3D tool's actions).
    const NAMES_FROM_FILES: bool = false;
    /// Whether writing a file in another [`FileFormat::Form`] can lose part of it (SEModel's
    /// layouts hold different fields); when it cannot, a change of form is a re-encoding.
    const FORM_CHANGE_LOSES: bool = false;

    /// The encodings of the format (`()` for a format with one).
    type Form: Copy + Eq + Debug + Send + Sync + 'static;
    /// The counts and header fields of a file, as `animbin info` shows them.
    type Summary: Serialize + DeserializeOwned + Clone + PartialEq + Debug;
    /// The error of reading or writing.
    type Error: std::error::Error + Send + Sync + 'static;
    /// The dump's `data` member as written: every field, so that [`FileFormat::undump`]
    /// gives back the same bytes.
    type Dump<'a>: Serialize
    where
        Self: 'a;
    /// The dump's `data` member as read back.
    type Undump: DeserializeOwned;

    /// Whether `bytes` are a file of this format, judged by their first bytes.
    fn probe(bytes: &[u8]) -> bool {
        !Self::MAGIC.is_empty() && bytes.starts_with(Self::MAGIC)
    }
    /// Whether a file of this name is of this format, for a format without magic (x8an).
    fn probe_name(_path: &Path) -> bool {
        false
    }
    /// Whether JSON text is the format's own JSON form (AnimJ, DMF JSON, glTF).
    fn probe_json(_bytes: &[u8]) -> bool {
        false
    }

    /// Reads a file: its binary form, or its own JSON form where it has one.
    fn read(bytes: &[u8]) -> Result<Self, Self::Error>;
    /// The form the file was read in; [`FileFormat::write`] writes it back in this form.
    fn form(&self) -> Self::Form;
    /// Encodes the file in `form`, recording in `report` what a change of form loses.
    fn write_as(
        &self,
        form: Self::Form,
        writer: &mut dyn Write,
        report: &mut ConversionReport,
    ) -> Result<(), Self::Error>;
    /// Encodes the file in the form it was read in.
    fn write(&self, mut writer: impl Write) -> Result<(), Self::Error> {
        self.write_as(self.form(), &mut writer, &mut ConversionReport::default())
    }
    /// The file encoded in memory, in the form it was read in.
    fn to_bytes(&self) -> Result<Vec<u8>, Self::Error> {
        let mut bytes = Vec::new();
        self.write(&mut bytes)?;
        Ok(bytes)
    }
    /// Reads the file at `path` into memory, up to [`MAX_INPUT_SIZE`] bytes (see
    /// [`read_file`]: never mapped, so a file that changes while it is read cannot crash the
    /// reader).
    #[cfg(feature = "fs")]
    fn from_file(path: impl AsRef<Path>) -> Result<Self, FileError<Self::Error>> {
        let path = path.as_ref();
        let bytes = read_file(path, MAX_INPUT_SIZE).map_err(|source| FileError::io(path, source))?;
        Self::read(&bytes).map_err(|error| FileError::Format {
            path: path.to_path_buf(),
            error,
        })
    }
    /// Writes the file to `path` in the form it was read in, whole or not at all, through a
    /// symbolic link to its target, refusing a read-only destination (see
    /// [`save_atomically_with`]). A failure of the output itself (a full disk) is
    /// [`FileError::Io`], never the format's error.
    #[cfg(feature = "fs")]
    fn save(&self, path: impl AsRef<Path>) -> Result<(), FileError<Self::Error>> {
        let path = path.as_ref();
        save_atomically_with(path, SaveOptions::default(), |writer| self.write(writer)).map_err(|error| match error {
            SaveError::Io(source) => FileError::io(path, source),
            SaveError::Encode(error) => FileError::Format {
                path: path.to_path_buf(),
                error,
            },
        })
    }

    /// The width of the file's animation key values: [`Precision::Single`] for a file that
    /// stores them as `f32`, [`Precision::Double`] for one whose values need `f64` (SEAnim's
    /// high precision, a fixed point that `f32` does not hold), `None` where the format
    /// does not say (glTF accessors of any width), so a front end that hands keys out at the
    /// file's precision (the Python package's `float32` arrays) judges by the values.
    fn key_precision(&self) -> Option<Precision> {
        None
    }

    /// The summary of the model.
    fn summary(&self) -> Self::Summary;
    /// The summary of a file read through the format's zero-copy view where it has one
    /// (without building the model, so its cost does not grow with the keys or vertices);
    /// else by reading the file. It accepts exactly the files [`FileFormat::read`] does and
    /// gives the same summary.
    fn summary_of(bytes: &[u8]) -> Result<Self::Summary, Self::Error> {
        Ok(Self::read(bytes)?.summary())
    }
    /// The summary of a file read by positioned reads of only the byte ranges it needs (its
    /// header and tables; the keys and vertices are skipped, never read), for a format whose
    /// summary lives there: `animbin info` of a large file reads a few KiB of it. `None` for a
    /// format without one (the default), and for any file it does not accept, a file that
    /// changed while it was read included: the caller then reads the file whole through
    /// [`FileFormat::summary_of`], whose error names the fault. Where it gives a summary, it
    /// is the one [`FileFormat::summary_of`] gives of the same bytes.
    fn summary_at(_file: &mut Positioned<'_>) -> Option<Self::Summary> {
        None
    }
    /// Every rule of the format the file breaks, and every legal but suspicious value.
    fn validate(&self) -> Vec<Problem>;

    /// The dump's `data` member.
    fn dump(&self) -> Result<Self::Dump<'_>, Self::Error>;
    /// The file a dump's `data` member describes.
    fn undump(data: Self::Undump) -> Result<Self, Self::Error>;

    /// The file as a scene, recording what the scene cannot hold.
    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Self::Error>;
    /// [`FileFormat::to_scene`] of a file that is no longer needed: a format whose model
    /// holds arrays as the scene holds them moves them into the scene instead of copying
    /// them, so a conversion does not hold its data twice. The scene is the same; by default
    /// it is [`FileFormat::to_scene`]'s.
    fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Self::Error>
    where
        Self: Sized,
    {
        self.to_scene(options, report)
    }
    /// A file of this format in `form` built from `scene`, recording what it cannot hold.
    /// `images` are the texture files a caller found for the scene's materials, for the
    /// formats that embed them (glTF); the others ignore them.
    fn from_scene(
        scene: &Scene,
        form: Self::Form,
        options: &SceneOptions,
        images: &ImageFiles,
        report: &mut ConversionReport,
    ) -> Result<Self, Self::Error>;
    /// Why a file of this format built from `scene` would hold nothing, if it would: by
    /// default when the scene has none of [`FileFormat::HOLDS`].
    fn holds_nothing(scene: &Scene) -> Option<String> {
        Self::HOLDS.held_nothing_of(scene)
    }
}

/// The [`FileFormat`] items of a format whose dump is its model itself, as serde writes
/// it and reads it back (`Dump<'a> = &'a Self`, `Undump = Self`): every field, so that the
/// dump gives back the same bytes. Used inside the `impl FileFormat for ...` block, in place
/// of the two types and of `dump` and `undump`:
///
/// ```
/// # use animbin_core::format::{FileFormat, Holds};
/// #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
/// struct Unit;
///
/// impl FileFormat for Unit {
///     // The constants, `Form`, `Summary`, `Error` and the other methods as usual...
/// #     const NAME: &'static str = "unit"; const LABEL: &'static str = "Unit";
/// #     const EXTENSIONS: &'static [&'static str] = &["unit"]; const MAGIC: &'static [u8] = b"";
/// #     const HOLDS: Holds = Holds::ANIMATIONS; const STORES_FRAMERATE: bool = true;
/// #     const ANIMATION_KINDS: &'static [animbin_core::scene::AnimKind] = &[animbin_core::scene::AnimKind::Absolute];
/// #     const NAMES_ANIMATIONS: bool = true; const SEVERAL_ANIMATIONS: bool = false;
/// #     const LENGTH_ENDS_ON_LAST_KEY: bool = false; const CHOOSES_PRECISION: bool = false;
/// #     type Form = (); type Summary = (); type Error = animbin_core::Error;
/// #     fn read(_: &[u8]) -> Result<Self, Self::Error> { Ok(Unit) }
/// #     fn form(&self) {}
/// #     fn write_as(&self, _: (), _: &mut dyn std::io::Write, _: &mut animbin_core::ConversionReport) -> Result<(), Self::Error> { Ok(()) }
/// #     fn summary(&self) {}
/// #     fn validate(&self) -> Vec<animbin_core::Problem> { Vec::new() }
/// #     fn to_scene(&self, _: &animbin_core::SceneOptions, _: &mut animbin_core::ConversionReport) -> Result<animbin_core::scene::Scene, Self::Error> { Ok(Default::default()) }
/// #     fn from_scene(_: &animbin_core::scene::Scene, _: (), _: &animbin_core::SceneOptions, _: &animbin_core::images::ImageFiles, _: &mut animbin_core::ConversionReport) -> Result<Self, Self::Error> { Ok(Unit) }
///     animbin_core::dump_the_model!();
/// }
///
/// let unit = Unit;
/// assert!(std::ptr::eq(unit.dump()?, &unit));
/// # Ok::<(), animbin_core::Error>(())
/// ```
#[macro_export]
macro_rules! dump_the_model {
    () => {
        type Dump<'a> = &'a Self;
        type Undump = Self;

        /// The model as serde writes it: every field, so the dump gives back the same bytes.
        fn dump(&self) -> ::core::result::Result<&Self, Self::Error> {
            Ok(self)
        }

        /// The model as serde read it back.
        fn undump(data: Self) -> ::core::result::Result<Self, Self::Error> {
            Ok(data)
        }
    };
}

/// The [`FileFormat`] items `to_scene` and `from_scene` of a format whose root type maps
/// itself to and from the scene with its own (inherent) methods of the same names,
/// `to_scene(&self, options, report)` and `from_scene(scene, options, report)`: the same
/// mapping whatever the [form](FileFormat::Form), and no texture files embedded (the
/// `images` a caller found are not used). Used inside the `impl FileFormat for ...` block,
/// in place of the two methods, like [`dump_the_model!`].
///
/// The root type must have both inherent methods: without its own `to_scene`, the generated
/// one would call itself (which rustc reports as unconditional recursion).
#[macro_export]
macro_rules! scene_through_the_model {
    () => {
        /// The model's own `to_scene`.
        fn to_scene(
            &self,
            options: &$crate::scene::SceneOptions,
            report: &mut $crate::scene::ConversionReport,
        ) -> ::core::result::Result<$crate::scene::Scene, Self::Error> {
            Self::to_scene(self, options, report)
        }

        /// The model's own `from_scene`, whatever the form; the format embeds no texture
        /// files, so `images` are not used.
        fn from_scene(
            scene: &$crate::scene::Scene,
            _form: Self::Form,
            options: &$crate::scene::SceneOptions,
            _images: &$crate::images::ImageFiles,
            report: &mut $crate::scene::ConversionReport,
        ) -> ::core::result::Result<Self, Self::Error> {
            Self::from_scene(scene, options, report)
        }
    };
}

/// A file on disk that could not be read or written: the operating system's reason, or the
/// format's error for its content; either way naming the file.
#[derive(Debug, thiserror::Error)]
pub enum FileError<E: std::error::Error + 'static> {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },
    /// The file's content is not a valid file of its format, or the model cannot be encoded.
    #[error("{}: {error}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// The format's error.
        #[source]
        error: E,
    },
}

#[cfg(feature = "fs")]
impl<E: std::error::Error + 'static> FileError<E> {
    fn io(path: &Path, source: io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

mod positioned;
#[cfg(feature = "fs")]
pub use positioned::FileAt;
pub use positioned::{Positioned, ReadAt};

#[cfg(feature = "fs")]
mod file_bytes;
#[cfg(feature = "fs")]
pub use file_bytes::{FileBuffer, FileBytes};

/// The most bytes animbin reads of one input: 4 GiB, the most a glb (whose header states its
/// length in 32 bits) can hold and far past any animation or model file in use. A regular
/// file larger than this is refused before anything is read; a pipe or a device, which states
/// no size, is read until it ends or passes this (see [`read_file`]).
pub const MAX_INPUT_SIZE: u64 = 4 << 30;

/// The bytes of the file at `path`, read into memory, at most `limit` of them.
///
/// Never through a map of the file: a mapped file that another program truncates ends the
/// reading process with SIGBUS (in Python, the interpreter and Blender with it), where a read
/// simply sees the shorter file, and no reader can prove that a file it does not own keeps
/// its size. A large regular file is read into memory of huge pages where the system has
/// them ([`FileBytes`]).
/// A regular file larger than `limit` is refused before anything is read; anything else (a
/// pipe, `/dev/zero`) is read as its bytes arrive, the memory growing with them, and refused
/// as soon as it passes `limit`. Either refusal is an error of kind
/// [`io::ErrorKind::FileTooLarge`] whose inner error is [`TooLarge`], naming the limit.
#[cfg(feature = "fs")]
pub fn read_file(path: &Path, limit: u64) -> io::Result<FileBytes> {
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    let too_large = || io::Error::new(io::ErrorKind::FileTooLarge, TooLarge { limit });
    if metadata.is_file() && metadata.len() > limit {
        return Err(too_large());
    }
    // A regular file is read in one piece of its size (plus the byte that tells whether it
    // grew); anything else in pieces that double, so that memory follows what arrives.
    let mut want = if metadata.is_file() {
        metadata.len().saturating_add(1)
    } else {
        64 << 10
    };
    let mut bytes = Vec::new();
    if metadata.is_file() && file_bytes::gains_from_huge_pages(metadata.len()) {
        let mut buffer = FileBuffer::for_file_of(metadata.len())?;
        buffer.fill_from(&file)?;
        match buffer.finish() {
            Ok(whole) => return Ok(whole),
            // It grew while it was read: on in pieces, from what was read.
            Err(read) => {
                bytes = read;
                want = bytes.len() as u64;
            }
        }
    }
    loop {
        let want_now = want.min(limit.saturating_add(1) - bytes.len() as u64);
        bytes
            .try_reserve_exact(usize::try_from(want_now).unwrap_or(usize::MAX))
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let got = (&file).take(want_now).read_to_end(&mut bytes)? as u64;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        if got < want_now {
            return Ok(bytes.into());
        }
        want = bytes.len() as u64;
    }
}

/// Why [`read_file`] refused an input: it holds more bytes than the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("larger than the limit of {limit} bytes{} for one input", in_units(*.limit))]
pub struct TooLarge {
    /// The limit in force, in bytes.
    pub limit: u64,
}

/// A size in the largest binary unit that divides it, in parentheses: ` (4 GiB)`.
fn in_units(bytes: u64) -> String {
    [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        .into_iter()
        .find(|(_, size)| bytes >= *size && bytes % size == 0)
        .map_or_else(String::new, |(unit, size)| format!(" ({} {unit})", bytes / size))
}

#[cfg(feature = "fs")]
/// How [`save_atomically_with`] treats the file it would replace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SaveOptions {
    /// Replace a destination that is read-only: one without any write permission (as
    /// `chmod a-w` leaves it) or one the caller may not write. By default such a file is
    /// refused ([`ReadOnly`]) and left as it is; forced, it is replaced, and the new file
    /// takes its permissions as any replaced file does.
    pub force: bool,
}

#[cfg(feature = "fs")]
/// Why [`save_atomically_with`] failed.
#[derive(Debug)]
pub enum SaveError<E> {
    /// The destination could not be written: the operating system's reason (a full disk, a
    /// folder that cannot be written), or [`ReadOnly`]. An error of the output during `write`
    /// is this, whatever `write` made of it, so that a failing disk is never reported as a
    /// fault of the content.
    Io(io::Error),
    /// `write` failed on its own, the output having taken every byte it was given (the content
    /// cannot be encoded).
    Encode(E),
}

#[cfg(feature = "fs")]
/// The error inside the [`io::ErrorKind::PermissionDenied`] error of a save refused because
/// its destination is read-only (see [`SaveOptions::force`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the file is read-only and was left as it is")]
pub struct ReadOnly;

#[cfg(feature = "fs")]
/// The named temporary files of the saves under way in this process (where the file system
/// makes no unnamed ones), and whether [`remove_partial_files`] has run.
struct PartialFiles {
    paths: Vec<PathBuf>,
    ended: bool,
}

#[cfg(feature = "fs")]
static PARTIAL_FILES: Mutex<PartialFiles> = Mutex::new(PartialFiles {
    paths: Vec::new(),
    ended: false,
});

#[cfg(feature = "fs")]
fn partial_files() -> std::sync::MutexGuard<'static, PartialFiles> {
    PARTIAL_FILES.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(feature = "fs")]
/// The error of a save that [`remove_partial_files`] ended.
fn ended() -> io::Error {
    io::Error::new(
        io::ErrorKind::Interrupted,
        "the process is ending, so the output was not written",
    )
}

#[cfg(feature = "fs")]
/// Removes the temporary files of every save under way in this process, and makes each of
/// those saves (and any later one) fail rather than replace its destination: for a front end
/// to call when a signal (SIGINT, SIGTERM, SIGHUP) ends the process, so that no
/// `.NAME.XXXXXX.partial` file outlives it (the `animbin` command does). Where the file system
/// makes unnamed temporary files (Linux's `O_TMPFILE`) there is nothing to remove: such a file
/// has no name until it is complete, and vanishes with the process.
pub fn remove_partial_files() {
    let mut partial = partial_files();
    partial.ended = true;
    for path in partial.paths.drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether `name` has the form [`save_atomically`] gives its named temporary files,
/// `.NAME.XXXXXX.partial`: folder walks skip such files (a save under way, or one that
/// `SIGKILL` ended on a file system without unnamed files).
pub fn is_partial_name(name: &OsStr) -> bool {
    let name = name.as_encoded_bytes();
    name.len() > ".partial".len() + 1 && name.starts_with(b".") && name.ends_with(b".partial")
}

#[cfg(feature = "fs")]
/// [`save_atomically_with`] with the default [`SaveOptions`], for a `write` whose errors are
/// I/O errors.
pub fn save_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    save_atomically_with(path, SaveOptions::default(), write).map_err(|error| match error {
        SaveError::Io(error) | SaveError::Encode(error) => error,
    })
}

#[cfg(feature = "fs")]
/// Writes a file whole or not at all: `write` fills a new temporary file beside the file
/// `path` names, which is flushed to disk and put in that file's place only when `write`
/// succeeded. On any error the temporary file is removed and whatever was at `path` is
/// untouched.
///
/// - A symbolic link is followed: its target is replaced (the new file made beside the
///   target), and the link kept.
/// - A read-only destination is refused ([`ReadOnly`]) unless [`SaveOptions::force`].
/// - A destination that is neither a regular file nor a folder (a device, a pipe) is written
///   straight into: there is nothing there to keep whole.
/// - A file replaced keeps its permissions, and its owner and group where the caller may set
///   them (root); a new file gets the usual permissions (0666 less the umask).
/// - On Linux, where the file system allows it, the temporary file has no name while it is
///   written (`O_TMPFILE`) and is linked in place when complete (`linkat`), so that a process
///   killed mid-write, even by `SIGKILL`, leaves nothing behind. (A file that exists is
///   replaced by a rename, so the complete new file has a temporary name for the instant
///   between the link and the rename; `linkat` cannot replace a file.) Elsewhere the
///   temporary file is named `.NAME.XXXXXX.partial` until it is renamed over the
///   destination, and [`remove_partial_files`] removes it when a signal ends the process.
///   Setting the environment variable `ANIMBIN_NO_TMPFILE` makes named files everywhere (for
///   tests of that path).
/// - An I/O error of the output during `write` is [`SaveError::Io`] even when `write`
///   returns it as an error of its own.
pub fn save_atomically_with<E>(
    path: &Path,
    options: SaveOptions,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), SaveError<E>> {
    // The kernel follows the links here (`/dev/stdout` too, whose target has no path).
    let metadata = std::fs::metadata(path).ok();
    if metadata.as_ref().is_some_and(|m| !m.is_file() && !m.is_dir()) {
        return write_special(path, write);
    }
    let target = follow_links(path).map_err(SaveError::Io)?;
    let existing = metadata.filter(std::fs::Metadata::is_file);
    if let Some(existing) = &existing {
        if !options.force && is_read_only(&target, existing) {
            return Err(SaveError::Io(io::Error::new(io::ErrorKind::PermissionDenied, ReadOnly)));
        }
    }
    let temp = Partial::create(&target).map_err(SaveError::Io)?;
    let Recording { inner, error } = {
        let mut writer = Recording {
            inner: BufWriter::new(temp.file()),
            error: None,
        };
        let written = write(&mut writer);
        if writer.error.is_none() {
            written.map_err(SaveError::Encode)?;
        }
        writer
    };
    if let Some(error) = error {
        return Err(SaveError::Io(error));
    }
    inner.into_inner().map_err(|e| SaveError::Io(e.into_error()))?;
    let file = temp.file();
    if let Some(existing) = &existing {
        keep_owner(file, existing);
        file.set_permissions(existing.permissions()).map_err(SaveError::Io)?;
    }
    file.sync_all().map_err(SaveError::Io)?;
    temp.persist(&target).map_err(SaveError::Io)
}

#[cfg(feature = "fs")]
/// Writes straight into a destination that is neither a regular file nor a folder (a device
/// such as `/dev/full` or `/dev/null`, a pipe): there is no file to replace, and renaming a
/// new file over a device node would replace the device.
fn write_special<E>(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<(), E>) -> Result<(), SaveError<E>> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(SaveError::Io)?;
    let mut writer = Recording {
        inner: BufWriter::new(file),
        error: None,
    };
    let written = write(&mut writer);
    if let Some(error) = writer.error.take() {
        return Err(SaveError::Io(error));
    }
    written.map_err(SaveError::Encode)?;
    writer.flush().map_err(SaveError::Io)
}

#[cfg(feature = "fs")]
/// The file `path` names through any chain of symbolic links (a relative target is taken
/// from the link's folder): `path` itself when it is no link, or names nothing yet.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // As many links as Linux follows in one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(folder) => folder.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

#[cfg(feature = "fs")]
/// Whether a file has no write permission at all, or none for this process.
fn is_read_only(path: &Path, metadata: &std::fs::Metadata) -> bool {
    if metadata.permissions().readonly() {
        return true;
    }
    #[cfg(unix)]
    {
        rustix::fs::access(path, rustix::fs::Access::WRITE_OK) == Err(rustix::io::Errno::ACCESS)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

#[cfg(feature = "fs")]
/// Gives the new file the owner and group of the one it replaces, where the process may
/// (root may; others keep their own, which is what a rename gives anyway).
fn keep_owner(file: &File, existing: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use rustix::fs::{Gid, Uid};
        use std::os::unix::fs::MetadataExt;
        let _ = rustix::fs::fchown(
            file,
            Some(Uid::from_raw(existing.uid())),
            Some(Gid::from_raw(existing.gid())),
        );
    }
    #[cfg(not(unix))]
    let _ = (file, existing);
}

#[cfg(feature = "fs")]
/// The output's writer, keeping its first error (but an interruption, which is retried) so
/// that a failing output is told from content that cannot be encoded, whatever the encoder
/// makes of the error it is handed (a copy).
struct Recording<W> {
    inner: W,
    error: Option<io::Error>,
}

#[cfg(feature = "fs")]
impl<W> Recording<W> {
    fn record<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        result.map_err(|error| {
            if error.kind() == io::ErrorKind::Interrupted {
                return error;
            }
            let copy = match error.raw_os_error() {
                Some(code) => io::Error::from_raw_os_error(code),
                None => io::Error::new(error.kind(), error.to_string()),
            };
            self.error.get_or_insert(error);
            copy
        })
    }
}

#[cfg(feature = "fs")]
impl<W: Write> Write for Recording<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(bytes);
        self.record(result)
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        let result = self.inner.write_all(bytes);
        self.record(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.record(result)
    }
}

#[cfg(feature = "fs")]
/// The temporary file of a save.
enum Partial {
    /// A file without a name (Linux's `O_TMPFILE`), linked in place when complete.
    #[cfg(target_os = "linux")]
    Unnamed { file: File, folder: PathBuf },
    /// A named file, listed for [`remove_partial_files`] while it exists.
    Named(tempfile::NamedTempFile, Listed),
}

#[cfg(feature = "fs")]
/// A path in [`PARTIAL_FILES`], taken off the list when dropped.
struct Listed(PathBuf);

#[cfg(feature = "fs")]
impl Drop for Listed {
    fn drop(&mut self) {
        partial_files().paths.retain(|path| *path != self.0);
    }
}

#[cfg(feature = "fs")]
impl Partial {
    /// A new temporary file in the folder of `target`.
    fn create(target: &Path) -> io::Result<Self> {
        let folder = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        #[cfg(target_os = "linux")]
        if std::env::var_os("ANIMBIN_NO_TMPFILE").is_none() && Path::new("/proc/self/fd").is_dir() {
            // File systems without O_TMPFILE (and kernels before 3.11) refuse it: those get a
            // named file.
            use rustix::fs::{CWD, Mode, OFlags};
            let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
            if let Ok(fd) = rustix::fs::openat(CWD, folder, flags, Mode::from_raw_mode(0o666)) {
                return Ok(Self::Unnamed {
                    file: File::from(fd),
                    folder: folder.to_path_buf(),
                });
            }
        }
        // Made and listed while the list is held, so that remove_partial_files cannot run
        // between the two.
        let mut partial = partial_files();
        if partial.ended {
            return Err(ended());
        }
        let temp = make_partial(target, folder, |path| {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
            options.open(path)
        })?;
        partial.paths.push(temp.path().to_path_buf());
        let listed = Listed(temp.path().to_path_buf());
        Ok(Self::Named(temp, listed))
    }

    fn file(&self) -> &File {
        match self {
            #[cfg(target_os = "linux")]
            Self::Unnamed { file, .. } => file,
            Self::Named(temp, _) => temp.as_file(),
        }
    }

    /// Puts the complete file in the place of `target`, unless [`remove_partial_files`] has
    /// run. The list is held meanwhile, so that a signal's cleanup waits for the rename.
    fn persist(self, target: &Path) -> io::Result<()> {
        match self {
            #[cfg(target_os = "linux")]
            Self::Unnamed { file, folder } => {
                let partial = partial_files();
                if partial.ended {
                    return Err(ended());
                }
                if std::fs::symlink_metadata(target).is_err() {
                    match link(&file, target) {
                        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                        linked => return linked,
                    }
                }
                // linkat cannot replace a file: the new one gets a temporary name, then is
                // renamed over the old one.
                let named = make_partial(target, &folder, |path| link(&file, path))?;
                named.persist(target).map_err(|e| e.error)?;
                drop(partial);
                Ok(())
            }
            Self::Named(temp, listed) => {
                let persisted = {
                    let partial = partial_files();
                    if partial.ended {
                        Err(ended())
                    } else {
                        temp.persist(target).map(drop).map_err(|e| e.error)
                    }
                };
                drop(listed);
                persisted
            }
        }
    }
}

#[cfg(feature = "fs")]
/// A new temporary name `.NAME.XXXXXX.partial` (see [`is_partial_name`]) in `folder` for
/// `target`, whose file `make` makes; a name taken is tried again with other letters.
fn make_partial<R>(
    target: &Path,
    folder: &Path,
    make: impl FnMut(&Path) -> io::Result<R>,
) -> io::Result<tempfile::NamedTempFile<R>> {
    let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("output");
    let prefix = format!(".{name}.");
    tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".partial")
        .make_in(folder, make)
}

/// Gives the unnamed `file` the name `path` (through `/proc/self/fd`, which needs no
/// privilege, unlike `AT_EMPTY_PATH`).
#[cfg(all(feature = "fs", target_os = "linux"))]
fn link(file: &File, path: &Path) -> io::Result<()> {
    use rustix::fs::{AtFlags, CWD};
    use std::os::fd::AsRawFd;
    let name = format!("/proc/self/fd/{}", file.as_raw_fd());
    rustix::fs::linkat(CWD, name.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_are_named_in_flag_order() {
        assert_eq!(
            Holds::all().names(),
            ["bones", "meshes", "materials", "textures", "animations"]
        );
        assert_eq!(
            (Holds::BONES | Holds::MESHES | Holds::MATERIALS | Holds::ANIMATIONS).describe(),
            "bones, meshes, materials or animations"
        );
        assert_eq!(Holds::ANIMATIONS.describe(), "animations");
        assert_eq!(Holds::of(&Scene::default()), Holds::empty());
    }
}
