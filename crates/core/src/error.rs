//! The one error type of animbin: which format, at which byte, and what was expected.

use std::fmt;
use std::io;

/// What went wrong, without the where (that is [`Error::offset`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before a value could be read.
    #[error("unexpected end of input: expected {expected}")]
    UnexpectedEof {
        /// What the reader was about to read.
        expected: String,
    },
    /// A count that the remaining bytes cannot hold; refused before allocating.
    #[error("{what} count {count} needs at least {needed} bytes, but only {remaining} remain")]
    CountTooLarge {
        /// What was being counted.
        what: String,
        /// The count as read from the file.
        count: u64,
        /// The smallest number of bytes that many elements occupy.
        needed: u64,
        /// The bytes left in the input.
        remaining: u64,
    },
    /// A value the format does not allow here.
    #[error("expected {expected}, found {found}")]
    Invalid {
        /// What the format allows.
        expected: String,
        /// What the file holds.
        found: String,
    },
    /// A writer was given something its format cannot encode; the text names the field.
    #[error("cannot encode {0}")]
    Unencodable(String),
    /// A caller-set limit (such as a decompression limit) would be exceeded.
    #[error("{what} of {requested} bytes exceeds the limit of {limit} bytes")]
    LimitExceeded {
        /// What would exceed the limit.
        what: String,
        /// The size the input asks for.
        requested: u64,
        /// The limit in force.
        limit: u64,
    },
    /// An I/O error from the underlying reader or writer.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
}

impl ErrorKind {
    /// An [`ErrorKind::Invalid`] from anything printable.
    pub fn invalid(expected: impl Into<String>, found: impl fmt::Display) -> Self {
        Self::Invalid {
            expected: expected.into(),
            found: found.to_string(),
        }
    }

    /// Wraps this kind as a binrw error at `pos`, so parse functions can raise it.
    pub fn at(self, pos: u64) -> binrw::Error {
        binrw::Error::Custom {
            pos,
            err: Box::new(self),
        }
    }
}

/// An error from reading or writing a file: the format, the byte offset and what was expected.
#[derive(Debug)]
pub struct Error {
    /// The format's short name, such as `"seanim"`.
    pub format: &'static str,
    /// The byte offset in the input (or output) at which the problem was found.
    pub offset: u64,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A writer refuses most values before it writes a byte: offset 0 says nothing
        // there, so the message names only the field (which the kind's text carries).
        if matches!(self.kind, ErrorKind::Unencodable(_)) && self.offset == 0 {
            return write!(f, "{}: {}", self.format, self.kind);
        }
        write!(
            f,
            "{} at byte {} ({:#x}): {}",
            self.format, self.offset, self.offset, self.kind
        )
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl Error {
    /// An error of `format` at `offset`.
    pub fn new(format: &'static str, offset: u64, kind: ErrorKind) -> Self {
        Self { format, offset, kind }
    }

    /// Converts a binrw error into ours.
    ///
    /// `eof_offset` is where the input ended (or where a short read happened, see
    /// [`crate::io::SliceReader::short_read_at`]); binrw's I/O errors carry no position.
    pub fn from_binrw(format: &'static str, err: binrw::Error, eof_offset: u64) -> Self {
        let (root, context) = split_backtrace(err);
        let (offset, kind) = match root {
            binrw::Error::Custom { pos, err } => match err.downcast::<ErrorKind>() {
                Ok(kind) => (pos, *kind),
                Err(other) => (pos, ErrorKind::invalid(context_or(&context, "a valid value"), other)),
            },
            binrw::Error::BadMagic { pos, found } => (
                pos,
                ErrorKind::invalid(context_or(&context, "the magic bytes"), format!("{found:?}")),
            ),
            binrw::Error::AssertFail { pos, message } => {
                (pos, ErrorKind::invalid(message, context_or(&context, "something else")))
            }
            binrw::Error::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => (
                eof_offset,
                ErrorKind::UnexpectedEof {
                    expected: context_or(&context, "more bytes"),
                },
            ),
            binrw::Error::Io(e) => (eof_offset, ErrorKind::Io(e)),
            binrw::Error::NoVariantMatch { pos } => (
                pos,
                ErrorKind::invalid(context_or(&context, "a known variant"), "none matched"),
            ),
            binrw::Error::EnumErrors { pos, variant_errors } => (
                pos,
                ErrorKind::invalid(
                    context_or(&context, "a known variant"),
                    variant_errors
                        .iter()
                        .map(|(name, e)| format!("{name}: {e}"))
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
            ),
            binrw::Error::Backtrace(_) => unreachable!("split_backtrace removes every backtrace"),
            other => (
                eof_offset,
                ErrorKind::invalid(context_or(&context, "valid input"), other),
            ),
        };
        Self::new(format, offset, kind)
    }
}

/// Separates binrw's context frames from the root error; the innermost frame names the field.
fn split_backtrace(err: binrw::Error) -> (binrw::Error, Option<String>) {
    match err {
        binrw::Error::Backtrace(bt) => {
            let context = bt.frames.first().map(|frame| match frame {
                binrw::error::BacktraceFrame::Full { message, .. } | binrw::error::BacktraceFrame::Message(message) => {
                    message.to_string()
                }
                binrw::error::BacktraceFrame::Custom(c) => c.to_string(),
            });
            let (root, inner) = split_backtrace(*bt.error);
            (root, inner.or(context))
        }
        other => (other, None),
    }
}

fn context_or(context: &Option<String>, fallback: &str) -> String {
    match context {
        Some(c) => c.trim_start_matches("While parsing ").to_string(),
        None => fallback.to_string(),
    }
}

/// The result type of animbin.
pub type Result<T, E = Error> = std::result::Result<T, E>;
