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

use std::fmt::Debug;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::images::ImageFiles;
use crate::scene::{AnimKind, ConversionReport, Scene, SceneOptions};
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
    /// Whether one file can hold several animations.
    const SEVERAL_ANIMATIONS: bool;
    /// Whether an animation's length ends on its last key (AnimX and DMF state a
    /// duration), rather than one frame past it (frames 0 to n - 1 in n frames).
    const LENGTH_ENDS_ON_LAST_KEY: bool;
    /// Whether the format lets a writer choose the width of its key values
    /// ([`crate::scene::Precision`], SEAnim).
    const CHOOSES_PRECISION: bool;
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
    /// Reads the file at `path` (read into memory, never mapped, so a file that changes
    /// while it is read cannot crash the reader).
    fn from_file(path: impl AsRef<Path>) -> Result<Self, FileError<Self::Error>> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| FileError::io(path, source))?;
        Self::read(&bytes).map_err(|error| FileError::Format {
            path: path.to_path_buf(),
            error,
        })
    }
    /// Writes the file to `path` in the form it was read in, whole or not at all (see
    /// [`save_atomically`]).
    fn save(&self, path: impl AsRef<Path>) -> Result<(), FileError<Self::Error>> {
        let path = path.as_ref();
        let mut failure = None;
        let saved = save_atomically(path, |writer| {
            self.write(writer).map_err(|error| {
                failure = Some(error);
                std::io::Error::other("the file could not be encoded")
            })
        });
        match (saved, failure) {
            (_, Some(error)) => Err(FileError::Format {
                path: path.to_path_buf(),
                error,
            }),
            (Err(source), None) => Err(FileError::io(path, source)),
            (Ok(()), None) => Ok(()),
        }
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
    /// Every rule of the format the file breaks, and every legal but suspicious value.
    fn validate(&self) -> Vec<Problem>;

    /// The dump's `data` member.
    fn dump(&self) -> Result<Self::Dump<'_>, Self::Error>;
    /// The file a dump's `data` member describes.
    fn undump(data: Self::Undump) -> Result<Self, Self::Error>;

    /// The file as a scene, recording what the scene cannot hold.
    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Self::Error>;
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
        if Holds::of(scene).intersects(Self::HOLDS) {
            return None;
        }
        let names = Self::HOLDS.names();
        Some(match names.as_slice() {
            [one] => format!("it holds {one} and the input has none"),
            [a, b] => format!("it holds {a} and {b} and the input has neither"),
            _ => format!("the input holds no {}", Self::HOLDS.describe()),
        })
    }
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

impl<E: std::error::Error + 'static> FileError<E> {
    fn io(path: &Path, source: io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Writes a file whole or not at all: `write` fills a new temporary file in `path`'s folder
/// (named `.NAME.XXXXXX.partial`), which is flushed to disk and renamed over `path` only
/// when `write` succeeded. On any error the temporary file is removed and whatever was at
/// `path` is untouched. A file that `path` replaces keeps its permissions; a new one gets
/// the usual ones (0666 less the umask).
pub fn save_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    // The temporary file's errors name its path, which is gone once this returns.
    let plain = |source: io::Error| source.raw_os_error().map_or(source, io::Error::from_raw_os_error);
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("output");
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".partial");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let temp = builder.tempfile_in(folder).map_err(plain)?;
    let mut writer = BufWriter::new(temp);
    write(&mut writer).map_err(plain)?;
    let temp = writer.into_inner().map_err(|e| plain(e.into_error()))?;
    temp.as_file().sync_all().map_err(plain)?;
    if let Ok(existing) = std::fs::metadata(path) {
        temp.as_file().set_permissions(existing.permissions()).map_err(plain)?;
    }
    temp.persist(path).map_err(|e| plain(e.error))?;
    Ok(())
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
