//! What every format crate's `validate` reports: problems with a severity and a place.
//!
//! A file that reads may still break a rule of its format (an index past its array, a key
//! after the last frame): that is an [`Severity::Error`]. A file may also be legal but
//! suspicious (an empty name, a rotation that is not unit length): a [`Severity::Warning`].
//! Every format crate's `validate` returns [`Problem`]s; a crate words its findings through
//! [`Diagnostic`] (its rules, each with the fields it needs) and turns each into a
//! [`Problem`] with [`Problem::from_diagnostic`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::math::Quat;

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

/// A rule of its format that a file breaks (an error) or a legal but suspicious value (a
/// warning), and where: what every format crate's `validate` returns.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// Where in the file or document.
    pub location: Location,
    /// What is wrong, without the place.
    pub message: String,
}

impl Problem {
    /// A problem from its parts.
    pub fn new(severity: Severity, location: Location, message: impl Into<String>) -> Self {
        Self {
            severity,
            location,
            message: message.into(),
        }
    }

    /// The problem a crate's rule reported, in its words.
    pub fn from_diagnostic(problem: &impl Diagnostic) -> Self {
        Self {
            severity: problem.severity(),
            location: problem.location(),
            message: problem.message(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.severity, &self.location) {
            (Severity::Error, Location::File) => write!(f, "{}", self.message),
            (Severity::Error, location) => write!(f, "{location}: {}", self.message),
            (Severity::Warning, Location::File) => write!(f, "warning: {}", self.message),
            (Severity::Warning, location) => write!(f, "warning: {location}: {}", self.message),
        }
    }
}

/// How far a rotation quaternion's length may be from 1 before a format's `validate` warns
/// that it is not a rotation.
///
/// 0.01: a quaternion that an exporter normalised and stored as `f32` is within about 1e-7
/// of unit length, but fixed-point data is coarser (Shining Force III's i16 / 16384
/// components: the seed's own x8an example has a key of length 1.0011), and a rotation off
/// by 1% scales what it rotates by 2% at most, which no one sees. What was never a rotation
/// is far outside: a zero quaternion, a fixed-point extreme such as -2.0, mixed-up fields.
pub const UNIT_QUATERNION_TOLERANCE: f64 = 0.01;

/// The length of `rotation` when it is not within [`UNIT_QUATERNION_TOLERANCE`] of 1 (NaN and
/// infinite components included), `None` for a unit quaternion.
pub fn non_unit_length(rotation: Quat<f64>) -> Option<f64> {
    let length = rotation.norm();
    if (length - 1.0).abs() <= UNIT_QUATERNION_TOLERANCE {
        None
    } else {
        Some(length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_quaternions_pass_and_others_give_their_length() {
        assert_eq!(non_unit_length(Quat::new(0.0, 0.0, 0.0, 1.0)), None);
        let half = std::f64::consts::FRAC_1_SQRT_2;
        assert_eq!(non_unit_length(Quat::new(half, 0.0, 0.0, half)), None);
        assert_eq!(non_unit_length(Quat::new(0.0, 0.0, 0.0, 1.0005)), None);
        assert_eq!(non_unit_length(Quat::new(0.0, 0.0, 0.0, 0.0)), Some(0.0));
        assert_eq!(non_unit_length(Quat::new(0.0, 0.0, 0.0, -2.0)), Some(2.0));
        assert!(non_unit_length(Quat::new(f64::NAN, 0.0, 0.0, 1.0)).is_some_and(f64::is_nan));
        assert_eq!(
            non_unit_length(Quat::new(f64::INFINITY, 0.0, 0.0, 1.0)),
            Some(f64::INFINITY)
        );
    }
}
