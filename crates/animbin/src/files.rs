//! Files on disk: inputs read through a memory map, outputs written whole or not at all.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::Deref;
use std::path::Path;

use animbin_core::format::save_atomically;
use memmap2::Mmap;

use crate::{Error, Result};

/// The bytes of an input file: mapped when it is a regular file, read otherwise (pipes,
/// devices, empty files, which cannot be mapped).
pub(crate) enum Input {
    Mapped(Mmap),
    Read(Vec<u8>),
}

impl Input {
    /// Opens `path` for reading.
    pub(crate) fn open(path: &Path) -> Result<Self> {
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if metadata.is_file() && metadata.len() > 0 {
            // The one `unsafe` of animbin. Safety: the map is read-only and lives only while
            // a document is parsed (every document owns its data, so nothing borrows the map
            // afterwards), and animbin never writes a file it reads: an output that is an
            // input is refused, and outputs replace their target by renaming a new file over
            // it, which leaves the mapped pages of the old file intact. What no process can
            // rule out is another program truncating the file during that parse, which ends
            // the process with SIGBUS, as it would for any mapped reader.
            #[allow(unsafe_code)]
            let map = unsafe { Mmap::map(&file) }.map_err(io)?;
            return Ok(Self::Mapped(map));
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        Ok(Self::Read(bytes))
    }
}

impl Deref for Input {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Self::Mapped(map) => map,
            Self::Read(bytes) => bytes,
        }
    }
}

/// Whether two paths name the same file (the same device and inode, so a symlink or a hard
/// link to a file is that file). `false` when either does not exist.
pub fn is_same_file(a: impl AsRef<Path>, b: impl AsRef<Path>) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// Writes a file whole or not at all: `write` fills a new temporary file in `path`'s folder,
/// which is flushed to disk and renamed over `path` only when `write` succeeded (see
/// [`animbin_core::format::save_atomically`]). On any error the temporary file is removed
/// and whatever was at `path` is untouched.
pub fn save(path: impl AsRef<Path>, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let path = path.as_ref();
    // The error of `write` itself is kept as it is; only I/O on the file names the path.
    let mut failure = None;
    let saved = save_atomically(path, |writer| {
        write(writer).map_err(|e| match e {
            Error::Write(source) => source,
            other => {
                failure = Some(other);
                io::Error::other("the output could not be encoded")
            }
        })
    });
    match (saved, failure) {
        (_, Some(error)) => Err(error),
        (Err(source), None) => Err(Error::Io {
            path: path.to_path_buf(),
            source,
        }),
        (Ok(()), None) => Ok(()),
    }
}
