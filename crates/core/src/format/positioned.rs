//! [`ReadAt`] and [`Positioned`]: a file read by positioned reads of only the byte ranges a
//! caller asks for, for summaries whose fields live in headers and tables
//! ([`super::FileFormat::summary_at`]).
//!
//! Never a map of the file: a file that another program truncates while it is read gives a
//! short read, which is an error here, where a map would end the process with SIGBUS.

use std::io;

/// A source of bytes read at given offsets: a file on disk ([`FileAt`]) or bytes in memory
/// (`&[u8]`, for tests that compare the two paths).
pub trait ReadAt {
    /// The number of bytes of the source, as it was when it was opened.
    fn size(&self) -> u64;
    /// Fills `buf` with the bytes at `offset`: an error (of kind
    /// [`io::ErrorKind::UnexpectedEof`]) when the source ends first, as a file that shrank
    /// since it was opened does.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

impl ReadAt for &[u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let start = usize::try_from(offset).ok().filter(|&s| s <= self.len());
        let bytes = start
            .and_then(|s| self.get(s..s.checked_add(buf.len())?))
            .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
        buf.copy_from_slice(bytes);
        Ok(())
    }
}

#[cfg(feature = "fs")]
/// A regular file read at offsets (`pread` on Unix, `seek_read` on Windows), its size taken
/// when it is opened.
#[derive(Debug)]
pub struct FileAt {
    file: std::fs::File,
    size: u64,
}

#[cfg(feature = "fs")]
impl FileAt {
    /// Opens the file at `path` for positioned reads; `None` (not an error: the caller reads
    /// the input otherwise) when it is not a regular file or holds more than `limit` bytes.
    ///
    /// The path is looked at before it is opened: opening a pipe would wait for its writer,
    /// and take the bytes it writes from the reader that reads the input afterwards.
    pub fn open(path: &std::path::Path, limit: u64) -> io::Result<Option<Self>> {
        if !std::fs::metadata(path)?.is_file() {
            return Ok(None);
        }
        let file = std::fs::File::open(path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() || metadata.len() > limit {
            return Ok(None);
        }
        Ok(Some(Self {
            file,
            size: metadata.len(),
        }))
    }
}

#[cfg(feature = "fs")]
impl ReadAt for FileAt {
    fn size(&self) -> u64 {
        self.size
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        if offset.checked_add(buf.len() as u64).is_none_or(|end| end > self.size) {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
        }
        #[cfg(windows)]
        {
            let (mut buf, mut offset) = (buf, offset);
            while !buf.is_empty() {
                match std::os::windows::fs::FileExt::seek_read(&self.file, buf, offset) {
                    Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                    Ok(n) => {
                        buf = &mut buf[n..];
                        offset += n as u64;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        }
    }
}

/// How many bytes [`Positioned`] reads at once around the place asked for, so that a walk
/// over many small fields costs one read per window rather than one per field.
const WINDOW: usize = 64 << 10;

/// How many bytes [`Positioned`] reads after a jump (a skip past the window).
const SMALL: usize = 4 << 10;

/// A cursor over a [`ReadAt`] source, reading through one window of `WINDOW` bytes: the
/// little a format's summary needs (fields, names, counts) is read where it is, and what it
/// skips (keys, vertices) is never read.
///
/// Any failure (a field past the end, a short read of a file that changed) is an
/// [`io::Error`]: a summary through positioned reads gives up on it and the caller reads the
/// file whole for the format's own error. What it holds is bounded: the window, plus the
/// blocks taken whole with [`Positioned::take`], at most [`Positioned::budget`] bytes each.
pub struct Positioned<'a> {
    source: &'a dyn ReadAt,
    pos: u64,
    window: Vec<u8>,
    window_at: u64,
    /// How many bytes the next read of the window asks for.
    want: usize,
    budget: u64,
}

impl<'a> Positioned<'a> {
    /// A cursor at the start of `source`, taking blocks of at most a quarter of its size
    /// and 32 MiB (the memory `animbin info` may hold besides its own).
    pub fn new(source: &'a dyn ReadAt) -> Self {
        Self {
            source,
            pos: 0,
            window: Vec::new(),
            window_at: 0,
            want: SMALL,
            budget: (source.size() / 4).saturating_add(32 << 20),
        }
    }

    /// The most bytes [`Positioned::take`] copies out in one block.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The size of the source.
    pub fn size(&self) -> u64 {
        self.source.size()
    }

    /// The offset of the next byte.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Moves to `pos`, which may be at most the size of the source.
    pub fn set_pos(&mut self, pos: u64) -> io::Result<()> {
        if pos > self.size() {
            return Err(eof());
        }
        self.pos = pos;
        Ok(())
    }

    /// The bytes left after the cursor.
    pub fn left(&self) -> u64 {
        self.size().saturating_sub(self.pos)
    }

    /// Moves past `count` records of `size` bytes without reading them: an error when they
    /// would pass the end (the count checked with `checked_mul`, as [`crate::io::ViewCursor::records`]).
    pub fn skip(&mut self, count: u64, size: u64) -> io::Result<()> {
        let len = count.checked_mul(size).ok_or_else(eof)?;
        if len > self.left() {
            return Err(eof());
        }
        self.pos += len;
        Ok(())
    }

    /// The bytes the window holds from the cursor on (empty when it is elsewhere).
    fn held(&self) -> &[u8] {
        let end = self.window_at.saturating_add(self.window.len() as u64);
        if self.pos < self.window_at || self.pos >= end {
            return &[];
        }
        &self.window[(self.pos - self.window_at) as usize..]
    }

    /// Reads the window again from the cursor, at least `n` bytes (fewer only at the end):
    /// `SMALL` after a jump, growing to `WINDOW` while the reads follow each other, so
    /// that a walk over a table reads it in large pieces and one over counts between long
    /// runs of keys reads little beside each count.
    fn refill(&mut self, n: usize) -> io::Result<()> {
        let follows = self.pos == self.window_at.saturating_add(self.window.len() as u64);
        self.want = if follows { (self.want * 2).min(WINDOW) } else { SMALL };
        let len = self.left().min(n.max(self.want) as u64) as usize;
        self.window.resize(len, 0);
        if let Err(e) = self.source.read_exact_at(&mut self.window, self.pos) {
            self.window.clear();
            return Err(e);
        }
        self.window_at = self.pos;
        Ok(())
    }

    /// The next `n` bytes (at most `WINDOW`), borrowed from the window.
    pub fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if n > WINDOW || n as u64 > self.left() {
            return Err(eof());
        }
        if self.held().len() < n {
            self.refill(n)?;
        }
        Ok(&self.held()[..n])
    }

    /// Takes the next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.peek(N)?);
        self.pos += N as u64;
        Ok(out)
    }

    /// Takes the next byte.
    pub fn u8(&mut self) -> io::Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// Takes the next `n` bytes as a vector of their own: refused past [`Positioned::budget`].
    pub fn take(&mut self, n: u64) -> io::Result<Vec<u8>> {
        if n > self.budget || n > self.left() {
            return Err(io::Error::other("a block larger than a summary reads"));
        }
        let mut out = vec![0; n as usize];
        self.source.read_exact_at(&mut out, self.pos)?;
        self.pos += n;
        Ok(out)
    }

    /// Takes a NUL-terminated UTF-8 string (as [`crate::io::ViewCursor::cstr`] accepts one),
    /// calling `each` with it, without its NUL; strings longer than `WINDOW` are refused.
    pub fn cstr_with<R>(&mut self, each: impl FnOnce(&str) -> R) -> io::Result<R> {
        let len = loop {
            let held = self.held();
            if let Some(len) = held.iter().position(|&b| b == 0) {
                break len;
            }
            if held.len() >= WINDOW || held.len() as u64 >= self.left() {
                return Err(eof());
            }
            let more = (held.len() * 2).clamp(SMALL, WINDOW);
            self.refill(more)?;
        };
        let text =
            std::str::from_utf8(&self.held()[..len]).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        let result = each(text);
        self.pos += len as u64 + 1;
        Ok(result)
    }

    /// Takes a NUL-terminated UTF-8 string, checked and not kept.
    pub fn cstr(&mut self) -> io::Result<()> {
        self.cstr_with(|_| ())
    }
}

fn eof() -> io::Error {
    io::ErrorKind::UnexpectedEof.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_through_the_window_and_skips_are_checked() {
        let mut bytes = b"ab\0".to_vec();
        bytes.extend(std::iter::repeat_n(7u8, 200_000));
        bytes.extend(b"cd\0\x05");
        let bytes = bytes.as_slice();
        let mut c = Positioned::new(&bytes);
        assert_eq!(c.cstr_with(str::to_string).unwrap(), "ab");
        c.skip(2, 100_000).unwrap();
        assert_eq!(c.cstr_with(str::to_string).unwrap(), "cd");
        assert_eq!(c.u8().unwrap(), 5);
        assert_eq!(c.left(), 0);
        assert!(c.u8().is_err());
        c.set_pos(1).unwrap();
        assert!(c.skip(u64::MAX, 2).is_err());
        assert!(c.skip(1, bytes.len() as u64).is_err());
        assert_eq!(c.take(2).unwrap(), b"b\0");
        assert!(c.take(c.budget() + 1).is_err());
    }

    #[test]
    fn a_string_without_its_nul_or_not_utf8_is_refused() {
        assert!(Positioned::new(&&b"abc"[..]).cstr().is_err());
        assert!(Positioned::new(&&b"\xff\0"[..]).cstr().is_err());
    }
}
