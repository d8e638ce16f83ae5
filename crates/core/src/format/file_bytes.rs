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
#[cfg(target_os = "linux")]
const HUGE_PAGE_READ_MIN: u64 = 4 << 20;

/// Reads a regular file of `size` bytes whole into anonymous memory with huge pages asked
/// for, or `None` when it is too small to gain from them. `Some(Err(bytes))` gives what was
/// read of a file that grew past `size` while it was read, for the caller to go on with.
#[cfg(target_os = "linux")]
pub(super) fn read_into_huge_pages(file: &File, size: u64) -> Option<io::Result<Result<FileBytes, Vec<u8>>>> {
    use io::Read;
    if size < HUGE_PAGE_READ_MIN {
        return None;
    }
    // One byte past the size tells whether the file grew.
    let capacity = usize::try_from(size).ok()?.checked_add(1)?;
    let mut map = match memmap2::MmapOptions::new().len(capacity).map_anon() {
        Ok(map) => map,
        Err(error) => return Some(Err(error)),
    };
    // A hint: without huge pages the read is as fast as into a vector.
    let _ = map.advise(memmap2::Advice::HugePage);
    let mut len = 0;
    while len < capacity {
        match (&*file).read(&mut map[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Some(Err(error)),
        }
    }
    Some(Ok(if len < capacity {
        Ok(FileBytes {
            held: Held::Anonymous { map, len },
        })
    } else {
        Err(map[..len].to_vec())
    }))
}

/// Other systems read every file into a vector.
#[cfg(not(target_os = "linux"))]
pub(super) fn read_into_huge_pages(_: &File, _: u64) -> Option<io::Result<Result<FileBytes, Vec<u8>>>> {
    None
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

    /// A file that grows or shrinks between its size being taken and its read gives back
    /// what was read: past the size, for the caller to go on with; short of it, as it is.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_changed_size_while_read_gives_what_was_read() {
        let (file, bytes) = file_of(6 << 20);
        let open = || File::open(file.path()).unwrap();
        let grown = read_into_huge_pages(&open(), 5 << 20).unwrap().unwrap();
        assert_eq!(grown.unwrap_err(), &bytes[..(5 << 20) + 1]);
        let shrunk = read_into_huge_pages(&open(), 7 << 20).unwrap().unwrap();
        assert_eq!(&shrunk.unwrap()[..], &bytes[..]);
        assert!(read_into_huge_pages(&open(), 1 << 20).is_none());
    }
}
