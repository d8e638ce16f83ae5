//! The errors of the `animbin` crate: a format's own read or write error, or what went
//! wrong around it (a file that cannot be opened, an empty input, a dump that does not parse,
//! a conversion that would write nothing).

use std::io;
use std::path::PathBuf;

use crate::{Format, Target};

/// Why opening, converting or writing a file failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are not a valid file of their format: the format, the byte offset and
    /// what was expected.
    #[error(transparent)]
    Format(#[from] animbin_core::Error),
    /// A glTF file that cannot be read or written.
    #[error("gltf: {0}")]
    Gltf(animbin_gltf::Error),
    /// A file that cannot be read, or an output that cannot be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// An I/O error writing to a caller's writer.
    #[error("cannot write the output: {0}")]
    Write(#[source] io::Error),
    /// The input holds no bytes at all.
    #[error("the file is empty (0 bytes)")]
    Empty,
    /// No format recognises the bytes.
    #[error("unknown format at byte 0 (the file starts with {start}; no known magic){hint}")]
    UnknownFormat {
        /// The first bytes of the input, shown as hex.
        start: String,
        /// A hint about files without magic.
        hint: &'static str,
    },
    /// JSON that is neither an animbin dump nor a format's own JSON form.
    #[error("JSON that is neither an animbin dump nor the JSON form of a known format (AnimJ, DMF JSON, glTF)")]
    UnknownJson,
    /// A dump or a format's JSON form that does not parse: where, by JSON path and line.
    #[error("{what} does not parse at {path} (line {line}, column {column}): {message}")]
    Json {
        /// What was being read ("an seanim dump", "AnimJ").
        what: String,
        /// The JSON path of the offending value, such as `data.bones[2].keys`.
        path: String,
        /// The line, counted from 1.
        line: usize,
        /// The column, counted from 1.
        column: usize,
        /// The byte offset of that line and column in the input; `None` for a member of a
        /// glTF dump that holds the wrong thing (a dump's content, not a place in its text).
        offset: Option<u64>,
        /// What serde said.
        message: String,
    },
    /// A dump whose content cannot be written back to its format.
    #[error("a dump of this {format} file cannot hold it: {reason}")]
    LossyDump {
        /// The file's format.
        format: Format,
        /// Why.
        reason: String,
    },
    /// A scene a caller built that no file can be written from (see
    /// [`animbin_core::scene::Scene::check`]): the field and what is wrong with it.
    #[error("the scene cannot be written: {0}")]
    Scene(#[from] animbin_core::SceneError),
    /// An option whose value the library's rules refuse ([`crate::options`]), named by
    /// its keyword.
    #[error(transparent)]
    Option(#[from] crate::options::InvalidOption),
    /// A target that cannot hold anything of the input;
    /// [`crate::ConvertOptions::allow_empty`] writes it anyway.
    #[error("{target} cannot hold anything of this {format} file: {reason}; nothing was written")]
    NothingToWrite {
        /// The input's format.
        format: Format,
        /// The requested output.
        target: Target,
        /// What the target needs and the input lacks.
        reason: String,
        /// Whether [`crate::ConvertOptions::allow_empty`] would write it anyway (not for a
        /// split conversion of an input without animations).
        overridable: bool,
    },
    /// An animation source given to [`crate::ConvertOptions::anims`] holds no animation.
    #[error("{name}: holds no animation")]
    NoAnimation {
        /// The name the caller gave the source (its path, for the command).
        name: String,
    },
    /// [`crate::ConvertOptions::animation`] names no animation of the input.
    #[error("no animation is called {name:?}; the input holds {}", describe_names(.known))]
    NoSuchAnimation {
        /// The name asked for.
        name: String,
        /// The names the input's animations have.
        known: Vec<String>,
    },
    /// A strict conversion that would lose data.
    #[error("strict: the conversion would lose data ({})", lost.join("; "))]
    Lossy {
        /// One line per kind of loss, and per animation source with unmatched tracks.
        lost: Vec<String>,
    },
    /// The requested target cannot be written from this document.
    #[error("{format} cannot be written as {target}")]
    Unsupported {
        /// The document's format.
        format: Format,
        /// The target asked for.
        target: Target,
    },
}

impl Error {
    /// The byte offset in the input where a format error was found, when there is one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Self::Format(e) => Some(e.offset),
            Self::Gltf(e) => e.offset(),
            Self::Json { offset, .. } => *offset,
            Self::Empty | Self::UnknownFormat { .. } => Some(0),
            _ => None,
        }
    }

    /// The format the error is about, when it names one: the format whose reader or
    /// writer failed (AnimJ and AnimX's decompressed stream are AnimX's), or the format
    /// of the document a conversion could not write.
    pub fn format(&self) -> Option<Format> {
        match self {
            Self::Format(e) => Format::of_reader(e.format),
            Self::Gltf(_) => Some(Format::Gltf),
            Self::LossyDump { format, .. } | Self::NothingToWrite { format, .. } | Self::Unsupported { format, .. } => {
                Some(*format)
            }
            _ => None,
        }
    }

    /// Turns a path-tracking serde_json error reading the JSON text `bytes` into
    /// [`Error::Json`].
    pub(crate) fn json(
        what: impl Into<String>,
        bytes: &[u8],
        err: serde_path_to_error::Error<serde_json::Error>,
    ) -> Self {
        let path = err.path().to_string();
        let inner = err.into_inner();
        Self::Json {
            what: what.into(),
            path,
            line: inner.line(),
            column: inner.column(),
            offset: Some(animbin_core::io::line_column_offset(
                bytes,
                inner.line(),
                inner.column(),
            )),
            message: strip_position(&inner.to_string()),
        }
    }
}

impl From<animbin_gltf::Error> for Error {
    fn from(error: animbin_gltf::Error) -> Self {
        match error {
            // A dump's member is a dump's error, worded as every other format's.
            animbin_gltf::Error::DumpMember { member, expected } => Self::Json {
                what: "the gltf dump".into(),
                path: format!("data.{member}"),
                line: 0,
                column: 0,
                offset: None,
                message: format!("expected {expected}"),
            },
            // The writer's I/O is the output's, not the glTF's.
            animbin_gltf::Error::Io(source) => Self::Write(source),
            other => Self::Gltf(other),
        }
    }
}

/// A list of animation names for a message.
fn describe_names(names: &[String]) -> String {
    if names.is_empty() {
        "no animation".into()
    } else {
        names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
    }
}

/// serde_json appends " at line L column C" to its messages; [`Error::Json`] says it once.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// The result type of the `animbin` crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
