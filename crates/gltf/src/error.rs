//! The errors of glTF reading and writing.
//!
//! glTF is JSON plus binary buffers, so a problem is located either by a byte offset (in a
//! GLB container or inside a buffer) or by a JSON path such as `/skins/0/joints`; each error
//! says which, once.
//!
//! The messages do not name glTF: a caller says whose error it is (the `animbin` library
//! shows them as `gltf: /skins/0/joints: expected at least one joint, found none`), as
//! every format's errors are shown.

use std::fmt;

/// What went wrong while reading or writing glTF.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The GLB container (header and chunks) is malformed.
    #[error("glb at byte {offset} ({offset:#x}): expected {expected}, found {found}")]
    Glb {
        /// The byte offset in the GLB file.
        offset: u64,
        /// What the container format requires there.
        expected: String,
        /// What the file holds.
        found: String,
    },
    /// The JSON is not well-formed or does not have glTF's shape.
    #[error("JSON at line {line}, column {column} (byte {offset}): {message}")]
    Json {
        /// The line (1-based) in the JSON text.
        line: usize,
        /// The column (1-based) in the JSON text.
        column: usize,
        /// The byte offset of that line and column in the file (in a GLB, counted from the
        /// start of the container, not of its JSON chunk).
        offset: u64,
        /// What the parser expected, without its position (which the fields above give).
        message: String,
    },
    /// The document breaks a rule of glTF 2.0 (or one that animbin needs to read it).
    #[error("{path}: expected {expected}, found {found}")]
    Invalid {
        /// A JSON pointer to the offending value, such as `/skins/0/joints`.
        path: Path,
        /// What glTF requires there.
        expected: String,
        /// What the document holds.
        found: String,
    },
    /// The scene holds something glTF cannot encode (a non-finite value, too many joints...).
    #[error("cannot encode: {0}")]
    Unencodable(String),
    /// Writing the output failed.
    #[error("writing failed: {0}")]
    Io(#[from] std::io::Error),
    /// An external file that a buffer's URI names (a `.gltf` exported "separate", with
    /// `name.bin` beside it) which is refused or cannot be read: see
    /// [`crate::embed_external_files`].
    #[error("{path}: cannot read {uri:?}: {reason}")]
    External {
        /// The JSON pointer of the URI, such as `/buffers/0/uri`.
        path: Path,
        /// The URI as the file has it.
        uri: String,
        /// Why: the URI leaves the file's folder, names a scheme other than `data:`, or the
        /// file cannot be read (what the operating system said).
        reason: String,
    },
    /// A member of a glTF dump's `data` ([`crate::GltfDump`]) that does not hold what it
    /// must: worded as a dump that does not parse, at `data.<member>`.
    #[error("the gltf dump does not parse at data.{member} (line 0, column 0): expected {expected}")]
    DumpMember {
        /// The member of `data`: `container`, `bin`, `base64` or `json`.
        member: &'static str,
        /// What it must hold.
        expected: &'static str,
    },
}

impl Error {
    /// The byte offset in the file where the error was found, for the errors that have one
    /// ([`Error::Glb`] and [`Error::Json`]; the others name a JSON pointer or none).
    pub fn offset(&self) -> Option<u64> {
        match self {
            Self::Glb { offset, .. } | Self::Json { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// An [`Error::Json`] for `error`, which serde_json raised reading `json`, the JSON text
    /// found at byte `base` of the file (0 for a `.gltf`, the JSON chunk's start in a GLB).
    /// serde_json ends its messages with " at line L column C": the error says where once,
    /// in its own fields.
    pub(crate) fn json(json: &[u8], base: u64, error: &serde_json::Error) -> Self {
        let message = error.to_string();
        let message = match message.rfind(" at line ") {
            Some(at) if error.line() > 0 => message[..at].to_string(),
            _ => message,
        };
        Self::Json {
            line: error.line(),
            column: error.column(),
            offset: base + animbin_core::io::line_column_offset(json, error.line(), error.column()),
            message,
        }
    }

    /// An [`Error::Invalid`] at `path`.
    pub fn invalid(path: impl Into<Path>, expected: impl Into<String>, found: impl fmt::Display) -> Self {
        Self::Invalid {
            path: path.into(),
            expected: expected.into(),
            found: found.to_string(),
        }
    }

    /// An [`Error::Glb`] at `offset`.
    pub(crate) fn glb(offset: u64, expected: impl Into<String>, found: impl fmt::Display) -> Self {
        Self::Glb {
            offset,
            expected: expected.into(),
            found: found.to_string(),
        }
    }
}

/// A JSON pointer into a glTF document, such as `/animations/0/channels/2`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Path(pub String);

impl Path {
    /// The pointer `/<collection>/<index>`.
    pub fn item(collection: &str, index: usize) -> Self {
        Self(format!("/{collection}/{index}"))
    }

    /// This pointer extended by one member name.
    pub fn field(&self, name: &str) -> Self {
        Self(format!("{}/{name}", self.0))
    }

    /// This pointer extended by one array index.
    pub fn index(&self, index: usize) -> Self {
        Self(format!("{}/{index}", self.0))
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("/")
        } else {
            f.write_str(&self.0)
        }
    }
}

impl From<&str> for Path {
    fn from(s: &str) -> Self {
        Self(s.to_string())
    }
}

impl From<String> for Path {
    fn from(s: String) -> Self {
        Self(s)
    }
}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
