//! FBX's errors are animbin's one error type ([`animbin_core::Error`]) with the format
//! `"fbx"`, the byte offset and what was expected; these build them.

use std::fmt::Display;

use animbin_core::ErrorKind;

/// The error of reading or writing FBX: [`animbin_core::Error`] with format `"fbx"`.
pub type Error = animbin_core::Error;

/// A result whose error is [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// The format's name in errors.
pub(crate) const FORMAT: &str = "fbx";

/// A value the format does not allow at `offset`.
pub(crate) fn at(offset: usize, expected: impl Into<String>, found: impl Display) -> Error {
    Error::new(FORMAT, offset as u64, ErrorKind::invalid(expected, found))
}

/// The input ended at `offset` where `expected` was to be read.
pub(crate) fn eof(offset: usize, expected: &str) -> Error {
    Error::new(
        FORMAT,
        offset as u64,
        ErrorKind::UnexpectedEof {
            expected: expected.to_string(),
        },
    )
}

/// Something the writer cannot encode; the text names it.
pub(crate) fn unencodable(what: impl Into<String>) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(what.into()))
}

/// An I/O error of the writer.
pub(crate) fn io(error: std::io::Error) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Io(error))
}
