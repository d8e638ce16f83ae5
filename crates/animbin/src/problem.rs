//! [`Problem`]: one finding of `validate`, whatever the format.

use std::fmt;

use animbin_core::{Diagnostic, Location, Severity};
use serde::{Deserialize, Serialize};

/// A rule of the format that a document breaks (an error) or a legal but suspicious value
/// (a warning), and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// Where in the file or document.
    pub location: Location,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// The problem a format crate's `validate` reported.
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
