//! The errors of glTF reading and writing.
//!
//! glTF is JSON plus binary buffers, so a problem is located either by a byte offset (in a
//! GLB container or inside a buffer) or by a JSON path such as `/skins/0/joints`; each error
//! says which.

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
    #[error("gltf JSON at line {line}, column {column}: {message}")]
    Json {
        /// The line (1-based) in the JSON text.
        line: usize,
        /// The column (1-based) in the JSON text.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The document breaks a rule of glTF 2.0 (or one that animbin needs to read it).
    #[error("gltf {path}: expected {expected}, found {found}")]
    Invalid {
        /// A JSON pointer to the offending value, such as `/skins/0/joints`.
        path: Path,
        /// What glTF requires there.
        expected: String,
        /// What the document holds.
        found: String,
    },
    /// The scene holds something glTF cannot encode (a non-finite value, too many joints...).
    #[error("gltf cannot encode: {0}")]
    Unencodable(String),
    /// Writing the output failed.
    #[error("gltf: writing failed: {0}")]
    Io(#[from] std::io::Error),
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
