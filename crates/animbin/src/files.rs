//! Files on disk: inputs read into memory (never mapped), outputs written whole or not at
//! all.

use std::io::Write;
use std::path::Path;

use animbin_core::format::{FileBytes, SaveError, read_file, save_atomically_with};
pub use animbin_core::format::{MAX_INPUT_SIZE, SaveOptions};

use crate::{Error, Result};

/// How an input file is read ([`crate::Document::open_with`], [`crate::batch::convert_one_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// The most bytes read of one input: a regular file larger than this is refused before
    /// it is read, a pipe or a device as soon as it passes it. [`MAX_INPUT_SIZE`] (4 GiB) by
    /// default; front ends let the user raise it (the command's `--max-input-size`, Python's
    /// `max_input_size=`) for a larger file, or lower it to bound the memory a read takes.
    pub max_input_size: u64,
    /// The most values a glTF's accessors may give in all ([`crate::options`]'s
    /// `max_accessor_values`, the command's `--max-accessor-values`): `None` allows 16 per
    /// byte of the file's buffers, at least 16,777,216
    /// ([`animbin_gltf::default_max_accessor_values`]). A file past it is refused naming the
    /// accessor and the budget. [`crate::Document::open_with`],
    /// [`crate::Document::parse_file_with`] and [`crate::Document::info_of_file_with`] read under
    /// it; a read that takes no options ([`crate::Document::parse`]) does inside
    /// [`ReadOptions::scope`].
    pub max_accessor_values: Option<u64>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            max_input_size: MAX_INPUT_SIZE,
            max_accessor_values: None,
        }
    }
}

impl ReadOptions {
    /// Runs `read` (an open, a parse or a summary of an input) with these options' accessor
    /// budget for the glTF reads it makes on this thread ([`animbin_gltf::with_max_accessor_values`]).
    pub fn scope<R>(&self, read: impl FnOnce() -> R) -> R {
        animbin_gltf::with_max_accessor_values(self.max_accessor_values, read)
    }
}

/// The bytes of the input at `path`, read into memory: at most
/// [`ReadOptions::max_input_size`] of them (a larger regular file is refused before it is
/// read, a pipe or a device as soon as it passes the limit), as an [`Error::Io`] naming the
/// file whose source is of kind [`std::io::ErrorKind::FileTooLarge`] (its inner error an
/// [`animbin_core::format::TooLarge`] naming the limit).
///
/// Never mapped: a map ends the process with SIGBUS when another program truncates the file
/// while it is parsed, and nothing here can prove that a file keeps its size. A read of a
/// file that changes gives some version of its bytes, which parse or fail as any input does.
/// A large file is read into huge pages where the system has them ([`FileBytes`]).
pub(crate) fn read(path: &Path, options: &ReadOptions) -> Result<FileBytes> {
    read_file(path, options.max_input_size).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Whether two paths name the same file (the same device and inode, so a symlink or a hard
/// link to a file is that file). `false` when either does not exist.
pub fn is_same_file(a: impl AsRef<Path>, b: impl AsRef<Path>) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// [`save_with`] the default [`SaveOptions`]: a read-only destination is refused.
pub fn save(path: impl AsRef<Path>, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    save_with(path, SaveOptions::default(), write)
}

/// Writes a file whole or not at all: `write` fills a new temporary file beside the file
/// `path` names, which is flushed to disk and put in its place only when `write` succeeded
/// (see [`animbin_core::format::save_atomically_with`]). On any error the temporary file is
/// removed and whatever was at `path` is untouched.
///
/// A symbolic link is written through: its target is replaced and the link kept. A read-only
/// destination is refused, as an [`Error::Io`] of kind
/// [`std::io::ErrorKind::PermissionDenied`] whose source is
/// [`animbin_core::format::ReadOnly`], unless `options` say [`SaveOptions::force`]. A
/// failure of the output (a full disk, `ulimit -f`, a folder that cannot be written) is an
/// [`Error::Io`] naming `path`, with the operating system's reason, never a format's error or
/// an offset, whatever `write` made of it; an error of `write` itself (a model that its
/// format cannot encode) is returned as it is.
pub fn save_with(
    path: impl AsRef<Path>,
    options: SaveOptions,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let path = path.as_ref();
    let output_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    save_atomically_with(path, options, write).map_err(|error| match error {
        SaveError::Io(source) | SaveError::Encode(Error::Write(source)) => output_error(source),
        SaveError::Encode(other) => other,
    })
}
