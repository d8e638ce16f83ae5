//! Reading an input for `animbin.open(path)`: into memory (never mapped, as the library
//! reads), in chunks, with the GIL released while each chunk is read and Python's signal
//! handlers run between chunks, so that Ctrl-C raises `KeyboardInterrupt` in the middle of a
//! long read: a huge file, `/dev/zero`, a pipe (FIFO) that no one writes to.
//!
//! The library's own reader ([`animbin::core::format::read_file`]) reads a file in one call
//! that nothing can interrupt, and a FIFO with no writer blocks in the `open` itself. Here
//! the file is opened without blocking (`O_NONBLOCK`: a FIFO opens at once), and what is
//! not a regular file is read only once `poll` says bytes (or the writer's end) are there,
//! waiting at most [`WAIT`] each time; so the waiting, too, is chunked. At most `limit`
//! bytes are read (`open`'s `max_input_size`, [`animbin::MAX_INPUT_SIZE`] by default): a
//! regular file larger than that
//! is refused before it is read, anything else as soon as it passes it, with the library's
//! [`TooLarge`] error as the reason.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
#[cfg(unix)]
use std::time::Duration;

use animbin::core::format::{FileBuffer, FileBytes, TooLarge};
use pyo3::prelude::*;

/// How much of a file one chunk reads: a few milliseconds from the page cache, so that
/// Ctrl-C is seen at once, and few enough chunks that their cost does not show.
const CHUNK: u64 = 8 << 20;

/// How long one wait for a pipe's bytes lasts before Python's signal handlers run (a signal
/// that reaches this thread ends the wait sooner).
#[cfg(unix)]
const WAIT: Duration = Duration::from_millis(100);

/// Why [`read`] failed: the file (an I/O error, the operating system's or [`TooLarge`]), or
/// a Python exception raised by a signal handler between chunks (`KeyboardInterrupt`).
pub(crate) enum ReadError {
    Io(io::Error),
    Python(PyErr),
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> Self {
        Self::Io(error)
    }
}

/// The bytes of the file at `path`, at most `limit` of them (see the module).
pub(crate) fn read(py: Python<'_>, path: &Path, limit: u64) -> Result<FileBytes, ReadError> {
    let (file, regular, size) = py.detach(|| -> io::Result<_> {
        let file = open(path)?;
        let metadata = file.metadata()?;
        Ok((file, metadata.is_file(), metadata.len()))
    })?;
    if regular && size > limit {
        return Err(too_large(limit).into());
    }
    let mut bytes = Vec::new();
    if regular {
        // One buffer of the size (and the byte that tells whether the file grew), in huge
        // pages where the system has them, as the library reads.
        let mut buffer = py.detach(|| FileBuffer::for_file_of(size))?;
        loop {
            let got = py.detach(|| read_piece(&mut buffer, &file))?;
            if got == Some(0) || buffer.is_full() {
                break;
            }
            py.check_signals().map_err(ReadError::Python)?;
        }
        match buffer.finish() {
            Ok(whole) => return Ok(whole),
            // It grew while it was read: on in chunks, from what was read.
            Err(read) => bytes = read,
        }
    }
    loop {
        let ended = py.detach(|| read_chunk(&file, regular, &mut bytes, limit))?;
        if ended {
            return Ok(bytes.into());
        }
        py.check_signals().map_err(ReadError::Python)?;
    }
}

/// Reads one chunk of a regular file into `buffer`: how many bytes, or `None` when a signal
/// interrupted the read (to be tried again after Python's handlers ran).
fn read_piece(buffer: &mut FileBuffer, file: &File) -> io::Result<Option<usize>> {
    match buffer.read_from(file, CHUNK as usize) {
        Ok(n) => Ok(Some(n)),
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(None),
        Err(e) => Err(e),
    }
}

/// Opens `path` for reading without waiting for a FIFO's writer.
fn open(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    options.open(path)
}

/// Reads one chunk onto `bytes`: `Ok(true)` once the file has ended, `Ok(false)` when there
/// may be more (or a pipe had nothing to give within [`WAIT`]).
fn read_chunk(file: &File, regular: bool, bytes: &mut Vec<u8>, limit: u64) -> io::Result<bool> {
    if !regular && !ready(file)? {
        return Ok(false);
    }
    let want = CHUNK.min(limit.saturating_add(1) - bytes.len() as u64);
    if !regular {
        reserve(bytes, want)?;
    }
    let result = file.take(want).read_to_end(bytes);
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    match result {
        // Fewer bytes than asked for: the end of the file.
        Ok(got) => Ok((got as u64) < want),
        // A pipe with nothing more for now, or a signal: wait again.
        Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether a file that is not a regular one has bytes to read (or has ended): `poll` for at
/// most [`WAIT`]. A FIFO that no writer has opened yet is not ready (Linux reports no
/// hang-up before a first writer), so it is waited for as a blocking read would.
#[cfg(unix)]
fn ready(file: &File) -> io::Result<bool> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(file, PollFlags::IN)];
    let timeout = Timespec {
        tv_sec: 0,
        tv_nsec: WAIT.as_nanos() as _,
    };
    match poll(&mut fds, Some(&timeout)) {
        Ok(n) => Ok(n > 0),
        Err(rustix::io::Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Elsewhere every file is read as it comes, a chunk at a time.
#[cfg(not(unix))]
fn ready(_file: &File) -> io::Result<bool> {
    Ok(true)
}

fn reserve(bytes: &mut Vec<u8>, additional: u64) -> io::Result<()> {
    bytes
        .try_reserve(usize::try_from(additional).unwrap_or(usize::MAX))
        .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))
}

/// The library's refusal of an input larger than `limit`.
fn too_large(limit: u64) -> io::Error {
    io::Error::new(io::ErrorKind::FileTooLarge, TooLarge { limit })
}
