//! What every format crate's `validate` reports: problems with a severity and a place.
//!
//! A file that reads may still break a rule of its format (an index past its array, a key
//! after the last frame): that is an [`Severity::Error`]. A file may also be legal but
//! suspicious (an empty name, a rotation that is not unit length): a [`Severity::Warning`].
//! Each format crate has its own `Problem` type, with the fields its rules need, and
//! implements [`Diagnostic`] for it so that a front end can treat them all alike.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Legal but suspicious: the file is kept as it is, and tools may read it differently.
    Warning,
    /// The file breaks a rule of its format.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Warning => "warning",
            Self::Error => "error",
        })
    }
}

/// Where a problem is: a byte offset in the file, or a part of the document by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Location {
    /// The byte offset of the offending field.
    Offset(u64),
    /// A part of the document, such as `bone 3` or `track 2 ("Root", "Position")`.
    Item(String),
    /// The file as a whole.
    File,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Offset(offset) => write!(f, "byte {offset} ({offset:#x})"),
            Self::Item(item) => f.write_str(item),
            Self::File => f.write_str("file"),
        }
    }
}

/// A problem that `validate` found: its severity, its place and what is wrong.
///
/// `Display` gives the whole line as the format crate words it.
pub trait Diagnostic: fmt::Display {
    /// How bad the problem is.
    fn severity(&self) -> Severity;
    /// Where the problem is.
    fn location(&self) -> Location;
    /// What is wrong, without the place.
    fn message(&self) -> String;
}
