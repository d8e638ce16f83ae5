//! [`FileBytes`]: an input file's bytes in memory, as [`super::read_file`] reads them.

use std::fmt;
use std::fs::File;
use std::io;
use std::ops::Deref;

/// A file's bytes, read into memory by [`super::read_file`].
///
/// On Linux a large regular file is read into anonymous memory that asks for transparent
/// huge pages. A fresh buffer costs the kernel a page fault per 4 KiB page it touches, so
/// reading a 50 MB file into a `Vec` took as long as `cp` copying it (25 ms, most of it
/// faults); in 2 MiB pages it takes about 5 ms. The memory is this process's own, never a
/// map of the file, so a file that changes while it is read cannot fault the reader. A
/// system that gives no huge page (or another system) gets the same bytes in plain pages.
pub struct FileBytes {
    held: Held,
}

enum Held {
    Heap(Vec<u8>),
    #[cfg(target_os = "linux")]
    Anonymous {
        map: memmap2::MmapMut,
        len: usize,
    },
}

impl FileBytes {
    /// The bytes as a vector (a copy when they are not held in one).
    pub fn into_vec(self) -> Vec<u8> {
        match self.held {
            Held::Heap(bytes) => bytes,
            #[cfg(target_os = "linux")]
            Held::Anonymous { map, len } => map[..len].to_vec(),
        }
    }
}

impl From<Vec<u8>> for FileBytes {
    fn from(bytes: Vec<u8>) -> Self {
        Self {
            held: Held::Heap(bytes),
        }
    }
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &self.held {
            Held::Heap(bytes) => bytes,
            #[cfg(target_os = "linux")]
            Held::Anonymous { map, len } => &map[..*len],
        }
    }
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl PartialEq for FileBytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for FileBytes {}

impl fmt::Debug for FileBytes {
    // A file can be megabytes: its length says enough.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FileBytes([{} bytes])", self.len())
    }
}

/// The smallest file read into huge pages: a mapping costs system calls of its own, which a
/// small file's few page faults do not repay.
const HUGE_PAGE_READ_MIN: u64 = 4 << 20;

/// Memory for a regular file's bytes, filled by the caller in as many reads as it likes
/// ([`FileBuffer::read_from`]; Python reads a file in pieces between its signal checks),
/// then taken as [`FileBytes`]. It holds the file's size and one byte more, which tells
/// whether the file grew while it was read.
pub struct FileBuffer {
    held: Held,
    /// The bytes read so far.
    len: usize,
}

impl FileBuffer {
    /// Room for a regular file of `size` bytes (and the byte that tells it grew): on Linux,
    /// anonymous memory with huge pages asked for when the file is 4 MiB or more, else a
    /// vector. An error when no memory of that size can be had.
    pub fn for_file_of(size: u64) -> io::Result<Self> {
        let capacity =
            usize::try_from(size.saturating_add(1)).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE_READ_MIN {
            let map = memmap2::MmapOptions::new().len(capacity).map_anon()?;
            // A hint: without huge pages the reads are as fast as into a vector.
            let _ = map.advise(memmap2::Advice::HugePage);
            return Ok(Self {
                held: Held::Anonymous { map, len: capacity },
                len: 0,
            });
        }
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(capacity)
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        bytes.resize(capacity, 0);
        Ok(Self {
            held: Held::Heap(bytes),
            len: 0,
        })
    }

    /// Reads at most `at_most` bytes of `file` after those read so far (fewer when the
    /// buffer fills): how many, 0 at the file's end or when [`FileBuffer::is_full`].
    pub fn read_from(&mut self, mut file: &File, at_most: usize) -> io::Result<usize> {
        use io::Read;
        let end = self.capacity().min(self.len.saturating_add(at_most));
        let room = match &mut self.held {
            Held::Heap(bytes) => &mut bytes[self.len..end],
            #[cfg(target_os = "linux")]
            Held::Anonymous { map, .. } => &mut map[self.len..end],
        };
        let n = file.read(room)?;
        self.len += n;
        Ok(n)
    }

    /// Reads `file` until it ends or the buffer is full, going past interrupted reads.
    pub(super) fn fill_from(&mut self, file: &File) -> io::Result<()> {
        while !self.is_full() {
            match self.read_from(file, usize::MAX) {
                Ok(0) => break,
                Ok(_) => {}
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Whether the file has given more bytes than the size it was opened with.
    pub fn is_full(&self) -> bool {
        self.len == self.capacity()
    }

    /// The bytes read: `Ok` for a file that ended within its size, `Err` with what was read
    /// of one that grew past it, for the caller to go on reading.
    pub fn finish(self) -> Result<FileBytes, Vec<u8>> {
        let full = self.is_full();
        let len = self.len;
        let bytes = match self.held {
            Held::Heap(mut bytes) => {
                bytes.truncate(len);
                FileBytes {
                    held: Held::Heap(bytes),
                }
            }
            #[cfg(target_os = "linux")]
            Held::Anonymous { map, .. } => FileBytes {
                held: Held::Anonymous { map, len },
            },
        };
        if full { Err(bytes.into_vec()) } else { Ok(bytes) }
    }

    fn capacity(&self) -> usize {
        match &self.held {
            Held::Heap(bytes) => bytes.len(),
            #[cfg(target_os = "linux")]
            Held::Anonymous { len, .. } => *len,
        }
    }
}

impl fmt::Debug for FileBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FileBuffer([{} of {} bytes])", self.len, self.capacity())
    }
}

/// Whether a regular file of `size` bytes is read into huge pages (Linux, 4 MiB or more).
pub(super) fn gains_from_huge_pages(size: u64) -> bool {
    cfg!(target_os = "linux") && size >= HUGE_PAGE_READ_MIN
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A file of `len` bytes that no two offsets 4 KiB apart share.
    fn file_of(len: usize) -> (tempfile::NamedTempFile, Vec<u8>) {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + i / 4099) as u8).collect();
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&bytes).unwrap();
        (file, bytes)
    }

    #[test]
    fn a_large_file_reads_whole_and_a_small_one_as_any_other() {
        for len in [0, 100, (4 << 20) - 1, 4 << 20, (5 << 20) + 3] {
            let (file, bytes) = file_of(len);
            let read = super::super::read_file(file.path(), u64::MAX).unwrap();
            assert_eq!(&read[..], &bytes[..], "{len}");
            assert_eq!(format!("{read:?}"), format!("FileBytes([{len} bytes])"));
            assert_eq!(read.into_vec(), bytes, "{len}");
        }
    }

    /// A buffer filled in pieces holds the file; one opened for a smaller size fills up
    /// and gives back what it read, one byte past that size.
    #[test]
    fn a_buffer_filled_in_pieces_holds_the_file() {
        for len in [0, 10, (4 << 20) + 5] {
            let (file, bytes) = file_of(len);
            let open = || File::open(file.path()).unwrap();
            let mut buffer = FileBuffer::for_file_of(len as u64).unwrap();
            let input = open();
            while buffer.read_from(&input, 1 << 20).unwrap() > 0 {}
            assert!(!buffer.is_full(), "{len}");
            assert_eq!(
                format!("{buffer:?}"),
                format!("FileBuffer([{len} of {} bytes])", len + 1)
            );
            assert_eq!(&buffer.finish().unwrap()[..], &bytes[..], "{len}");
            if len > 0 {
                let mut buffer = FileBuffer::for_file_of(len as u64 - 1).unwrap();
                let input = open();
                while buffer.read_from(&input, 3000).unwrap() > 0 {}
                assert!(buffer.is_full());
                assert_eq!(buffer.finish().unwrap_err(), bytes, "{len}");
            }
        }
    }

    /// A file that grows or shrinks between its size being taken and its read gives back
    /// what was read: past the size, for the caller to go on with; short of it, as it is.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_changed_size_while_read_gives_what_was_read() {
        let (file, bytes) = file_of(6 << 20);
        let read_as_of = |size: u64| {
            let mut buffer = FileBuffer::for_file_of(size).unwrap();
            buffer.fill_from(&File::open(file.path()).unwrap()).unwrap();
            buffer.finish()
        };
        assert_eq!(read_as_of(5 << 20).unwrap_err(), &bytes[..(5 << 20) + 1]);
        assert_eq!(&read_as_of(7 << 20).unwrap()[..], &bytes[..]);
        assert!(gains_from_huge_pages(5 << 20) && !gains_from_huge_pages(1 << 20));
    }
}
