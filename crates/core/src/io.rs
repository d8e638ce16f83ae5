//! Reading whole files from memory, and the bounds checks that keep counts honest.
//!
//! binrw 0.15's own `count` reserves space for the count before reading a single element,
//! so a 6-byte file that claims 0xFFFFFFFF elements asks for gigabytes. Every count in
//! animbin goes through [`check_count`] (or a helper built on it) first.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;

use binrw::{BinRead, BinResult, BinWrite, Endian};
use zerocopy::{FromBytes, Immutable, IntoBytes};

use crate::error::{Error, ErrorKind};

/// A `Read + Seek` cursor over a byte slice that remembers where a read first ran short.
///
/// binrw reports end-of-input as a bare I/O error with no position; this reader supplies
/// the offset that [`Error::from_binrw`] puts in the message.
#[derive(Debug, Clone)]
pub struct SliceReader<'a> {
    bytes: &'a [u8],
    pos: u64,
    short_read_at: Option<u64>,
}

impl<'a> SliceReader<'a> {
    /// A reader positioned at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            pos: 0,
            short_read_at: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Where the first read that ran past the end started, if one did.
    pub fn short_read_at(&self) -> Option<u64> {
        self.short_read_at
    }

    /// The bytes not yet read.
    pub fn rest(&self) -> &'a [u8] {
        let start = (self.pos as usize).min(self.bytes.len());
        &self.bytes[start..]
    }

    /// The whole input.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Borrows the next `n` bytes and moves past them; `None`, moving nowhere, when fewer are left.
    pub fn take_slice(&mut self, n: u64) -> Option<&'a [u8]> {
        let taken = self.rest().get(..usize::try_from(n).ok()?)?;
        self.pos += n;
        Some(taken)
    }

    /// Converts a binrw error raised while reading this input into an [`Error`] of `format`:
    /// an end of input is placed where the first short read started (the end of the input
    /// when none did).
    pub fn error(&self, format: &'static str, err: binrw::Error) -> Error {
        let eof = self.short_read_at.unwrap_or(self.bytes.len() as u64);
        Error::from_binrw(format, err, eof)
    }
}

impl Read for SliceReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = self.rest();
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n as u64;
        Ok(n)
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let rest = self.rest();
        if rest.len() < buf.len() {
            self.short_read_at.get_or_insert(self.pos);
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{} bytes wanted, {} left", buf.len(), rest.len()),
            ));
        }
        buf.copy_from_slice(&rest[..buf.len()]);
        self.pos += buf.len() as u64;
        Ok(())
    }
}

impl Seek for SliceReader<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => (self.bytes.len() as u64).checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        match target {
            Some(n) => {
                self.pos = n;
                Ok(n)
            }
            None => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start of the input",
            )),
        }
    }

    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.pos)
    }
}

/// Reads a `T` from the start of `bytes`, mapping every failure to an [`Error`] of `format`.
pub fn read_from_slice<T>(format: &'static str, bytes: &[u8], endian: Endian) -> Result<T, Error>
where
    T: for<'a> BinRead<Args<'a> = ()>,
{
    let mut reader = SliceReader::new(bytes);
    T::read_options(&mut reader, endian, ()).map_err(|e| reader.error(format, e))
}

/// Reads a `T` that takes up all of `bytes`: `None` when it does not parse or leaves bytes
/// over. For optional trailers, which are kept as plain bytes when they are not one.
pub fn read_whole<'a, T: BinRead>(bytes: &[u8], endian: Endian, args: T::Args<'a>) -> Option<T> {
    let mut reader = SliceReader::new(bytes);
    let value = T::read_options(&mut reader, endian, args).ok()?;
    (reader.position() == bytes.len() as u64).then_some(value)
}

/// Writes `value` into a new byte vector, mapping failures to an [`Error`] of `format`.
pub fn write_to_vec<T>(format: &'static str, value: &T, endian: Endian) -> Result<Vec<u8>, Error>
where
    T: for<'a> BinWrite<Args<'a> = ()>,
{
    let mut out = io::Cursor::new(Vec::new());
    value
        .write_options(&mut out, endian, ())
        .map_err(|e| Error::from_binrw(format, e, out.position()))?;
    Ok(out.into_inner())
}

/// Writes `value` into `writer`, mapping failures to an [`Error`] of `format`.
pub fn write_to<T, W>(format: &'static str, value: &T, endian: Endian, mut writer: W) -> Result<(), Error>
where
    T: for<'a> BinWrite<Args<'a> = ()>,
    W: Write + Seek,
{
    value.write_options(&mut writer, endian, ()).map_err(|e| {
        let at = writer.stream_position().unwrap_or(0);
        Error::from_binrw(format, e, at)
    })
}

/// The bytes between the reader's position and the end of its input.
pub fn remaining<R: Seek>(reader: &mut R) -> BinResult<u64> {
    let pos = reader.stream_position()?;
    let end = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(pos))?;
    Ok(end.saturating_sub(pos))
}

/// Checks that `count` elements of at least `min_size` bytes each fit in what is left of
/// the input, before anything is allocated; returns the count as a `usize`.
pub fn check_count<R: Seek>(reader: &mut R, what: &str, count: u64, min_size: u64) -> BinResult<usize> {
    let pos = reader.stream_position()?;
    let left = remaining(reader)?;
    let needed = count.saturating_mul(min_size);
    if needed > left || usize::try_from(count).is_err() {
        return Err(ErrorKind::CountTooLarge {
            what: what.to_string(),
            count,
            needed,
            remaining: left,
        }
        .at(pos));
    }
    Ok(count as usize)
}

/// Arguments of [`bounded_vec`]: how many elements, the least bytes each occupies, what
/// they are (for the error message) and the arguments each element takes.
#[derive(Debug, Clone)]
pub struct BoundedArgs<A> {
    /// The element count as read from the file.
    pub count: u64,
    /// The smallest encoded size of one element, in bytes (at least 1 for a real bound).
    pub min_size: u64,
    /// What the elements are, for the error message.
    pub what: &'static str,
    /// The arguments passed to each element's reader.
    pub inner: A,
}

/// Reads `args.count` elements after checking that they can fit in the bytes left.
///
/// Use as `#[br(parse_with = bounded_vec, args(BoundedArgs { .. }))]`-style or call directly.
pub fn bounded_vec<T, R, A>(reader: &mut R, endian: Endian, args: BoundedArgs<A>) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    let count = check_count(reader, args.what, args.count, args.min_size)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(T::read_options(reader, endian, args.inner.clone())?);
    }
    Ok(out)
}

/// Plain-old-data element types that can be read in bulk: one bounds check, one copy,
/// then a byte swap of each `SCALAR_SIZE`-byte scalar when the file's byte order differs
/// from the machine's.
pub trait Pod: FromBytes + IntoBytes + Immutable + Copy {
    /// The size of each scalar inside the type (all scalars in a `Pod` have one size).
    const SCALAR_SIZE: usize;
}

macro_rules! pod_scalar {
    ($($t:ty),*) => {$( impl Pod for $t { const SCALAR_SIZE: usize = size_of::<$t>(); } )*};
}
pod_scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64, half::f16);

impl<T: Pod, const N: usize> Pod for [T; N] {
    const SCALAR_SIZE: usize = T::SCALAR_SIZE;
}

fn swap_scalars(bytes: &mut [u8], scalar: usize) {
    if scalar > 1 {
        bytes.chunks_exact_mut(scalar).for_each(<[u8]>::reverse);
    }
}

/// Reads `count` [`Pod`] values with one bounds check and one copy.
pub fn read_pod_vec<T: Pod, R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    count: u64,
    what: &str,
) -> BinResult<Vec<T>> {
    let count = check_count(reader, what, count, size_of::<T>() as u64)?;
    let mut out = T::new_vec_zeroed(count)
        .map_err(|_| binrw::Error::Io(io::Error::new(io::ErrorKind::OutOfMemory, "allocation failed")))?;
    reader.read_exact(out.as_mut_bytes())?;
    if endian != Endian::NATIVE {
        swap_scalars(out.as_mut_bytes(), T::SCALAR_SIZE);
    }
    Ok(out)
}

/// [`read_pod_vec`] as a binrw `parse_with` function for `Vec` fields:
/// `#[br(parse_with = read_pod_field, args(count, "what"))]`.
pub fn read_pod_field<T: Pod, R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (count, what): (u64, &'static str),
) -> BinResult<Vec<T>> {
    read_pod_vec(reader, endian, count, what)
}

/// [`write_pod_slice`] as a binrw `write_with` function for `Vec` fields:
/// `#[bw(write_with = write_pod_field)]`.
// binrw hands `write_with` functions a reference to the field's own type.
#[allow(clippy::ptr_arg)]
pub fn write_pod_field<T: Pod, W: Write + Seek>(
    values: &Vec<T>,
    writer: &mut W,
    endian: Endian,
    (): (),
) -> BinResult<()> {
    write_pod_slice(writer, endian, values)
}

/// Writes [`Pod`] values in bulk in the given byte order.
pub fn write_pod_slice<T: Pod, W: Write>(writer: &mut W, endian: Endian, values: &[T]) -> BinResult<()> {
    if endian == Endian::NATIVE || T::SCALAR_SIZE == 1 {
        writer.write_all(values.as_bytes())?;
    } else {
        let mut bytes = values.as_bytes().to_vec();
        swap_scalars(&mut bytes, T::SCALAR_SIZE);
        writer.write_all(&bytes)?;
    }
    Ok(())
}

/// Casts `count` fixed-size records at `offset` in `bytes` to a borrowed slice, checking
/// the range once with overflow-safe arithmetic. `T` must be `Unaligned`.
pub fn slice_at<'a, T>(
    format: &'static str,
    bytes: &'a [u8],
    offset: u64,
    count: u64,
    what: &str,
) -> Result<&'a [T], Error>
where
    T: FromBytes + Immutable + zerocopy::KnownLayout + zerocopy::Unaligned,
{
    let size = size_of::<T>() as u64;
    let len = bytes.len() as u64;
    let end = count.checked_mul(size).and_then(|n| n.checked_add(offset));
    match end {
        Some(end) if end <= len => {
            let range = &bytes[offset as usize..end as usize];
            <[T]>::ref_from_bytes_with_elems(range, count as usize).map_err(|_| {
                Error::new(
                    format,
                    offset,
                    ErrorKind::invalid(format!("{what} records"), "a misaligned run"),
                )
            })
        }
        _ => Err(Error::new(
            format,
            offset.min(len),
            ErrorKind::CountTooLarge {
                what: what.to_string(),
                count,
                needed: count.saturating_mul(size),
                remaining: len.saturating_sub(offset),
            },
        )),
    }
}

/// A read position in a borrowed input, for zero-copy views that walk variable-length data
/// (NUL-terminated names, counted runs of records) once when they open. Every step checks
/// its bounds and fails with an [`Error`] of the cursor's format at the offset where it
/// stood; nothing is copied.
#[derive(Debug, Clone, Copy)]
pub struct ViewCursor<'a> {
    format: &'static str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> ViewCursor<'a> {
    /// A cursor at the start of `bytes`, whose errors name `format`.
    #[inline]
    pub fn new(format: &'static str, bytes: &'a [u8]) -> Self {
        Self { format, bytes, pos: 0 }
    }

    /// The whole input.
    #[inline]
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The current position.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves to `pos` (a later step past the end of the input fails).
    #[inline]
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// The bytes left after the position.
    #[inline]
    pub fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    #[cold]
    fn error(&self, at: usize, kind: ErrorKind) -> Error {
        Error::new(self.format, at as u64, kind)
    }

    /// Takes the next `n` bytes; [`ErrorKind::UnexpectedEof`] expecting `what` when fewer are left.
    #[inline]
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        let end = self.pos.checked_add(n).filter(|&end| end <= self.bytes.len());
        let slice = end.and_then(|end| self.bytes.get(self.pos..end)).ok_or_else(|| {
            self.error(
                self.pos,
                ErrorKind::UnexpectedEof {
                    expected: what.to_string(),
                },
            )
        })?;
        self.pos += n;
        Ok(slice)
    }

    /// Takes the next `N` bytes as an array (see [`ViewCursor::take`]).
    #[inline]
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// Takes the next byte (see [`ViewCursor::take`]).
    #[inline]
    pub fn u8(&mut self, what: &str) -> Result<u8, Error> {
        let [b] = self.array(what)?;
        Ok(b)
    }

    /// Refuses `count` items of at least `min_size` bytes each that the bytes left cannot
    /// hold ([`ErrorKind::CountTooLarge`] at the position), before anything is allocated.
    #[inline]
    pub fn check(&self, what: &str, count: u64, min_size: u64) -> Result<usize, Error> {
        let left = self.left() as u64;
        let needed = count.saturating_mul(min_size);
        if needed > left {
            return Err(self.error(
                self.pos,
                ErrorKind::CountTooLarge {
                    what: what.to_string(),
                    count,
                    needed,
                    remaining: left,
                },
            ));
        }
        Ok(count as usize)
    }

    /// Takes `count` records of `size` bytes as bytes, after [`ViewCursor::check`].
    #[inline]
    pub fn records(&mut self, count: u64, size: u64, what: &str) -> Result<&'a [u8], Error> {
        self.check(what, count, size)?;
        self.take((count * size) as usize, what)
    }

    /// Takes `count` records of `T` as a slice ([`slice_at`]'s checks and errors).
    #[inline]
    pub fn slice<T>(&mut self, count: u64, what: &str) -> Result<&'a [T], Error>
    where
        T: FromBytes + Immutable + zerocopy::KnownLayout + zerocopy::Unaligned,
    {
        let records = slice_at::<T>(self.format, self.bytes, self.pos as u64, count, what)?;
        self.pos += size_of_val(records);
        Ok(records)
    }

    /// Takes one `T` (see [`ViewCursor::slice`]).
    #[inline]
    pub fn one<T>(&mut self, what: &str) -> Result<&'a T, Error>
    where
        T: FromBytes + Immutable + zerocopy::KnownLayout + zerocopy::Unaligned,
    {
        let at = self.pos;
        self.slice::<T>(1, what)?.first().ok_or_else(|| {
            self.error(
                at,
                ErrorKind::UnexpectedEof {
                    expected: what.to_string(),
                },
            )
        })
    }

    /// Takes a NUL-terminated UTF-8 `what` (the NUL is consumed, not returned); an error at
    /// its first byte when the NUL is missing or the bytes are not UTF-8.
    #[inline]
    pub fn cstr(&mut self, what: &str) -> Result<&'a str, Error> {
        let start = self.pos;
        let rest = self.bytes.get(start..).unwrap_or_default();
        let len = rest.iter().position(|&b| b == 0).ok_or_else(|| {
            self.error(
                start,
                ErrorKind::UnexpectedEof {
                    expected: format!("a NUL-terminated {what}"),
                },
            )
        })?;
        let s = std::str::from_utf8(&rest[..len])
            .map_err(|e| self.error(start, ErrorKind::invalid(format!("a UTF-8 {what}"), e)))?;
        self.pos += len + 1;
        Ok(s)
    }
}

/// The first two of `items` whose byte ranges share a byte, as `(later, earlier)`: the items
/// are sorted by range start (then end), and each must begin at or after the furthest end
/// seen before it; `earlier` is the item that reaches that end. `None` when no two overlap.
///
/// For formats that place arrays by offset (DMF sections, x8an key arrays), where two
/// arrays over the same bytes are an error.
pub fn first_overlap<'a, T>(items: &'a mut [T], range: impl Fn(&T) -> Range<u64>) -> Option<(&'a T, &'a T)> {
    items.sort_by_key(|item| {
        let r = range(item);
        (r.start, r.end)
    });
    let items: &'a [T] = items;
    let mut furthest: Option<&'a T> = None;
    for item in items {
        let r = range(item);
        if let Some(prev) = furthest {
            let reach = range(prev).end;
            if r.start < reach {
                return Some((item, prev));
            }
            if r.end <= reach {
                continue;
            }
        }
        furthest = Some(item);
    }
    None
}

/// The byte offset in `text` of a 1-based line and column (how JSON parsers such as
/// serde_json place an error), at most the end of the text.
pub fn line_column_offset(text: &[u8], line: usize, column: usize) -> u64 {
    let line_start: usize = text
        .split_inclusive(|&b| b == b'\n')
        .take(line.saturating_sub(1))
        .map(<[u8]>::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len()) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_read_is_an_error_where_the_read_started() {
        let bytes = [1, 2, 3, 4, 5];
        let mut reader = SliceReader::new(&bytes);
        reader.seek(SeekFrom::Start(3)).unwrap();
        let err = u32::read_options(&mut reader, Endian::Little, ()).unwrap_err();
        let err = reader.error("test", err);
        assert_eq!(err.offset, 3);
        assert!(matches!(err.kind, ErrorKind::UnexpectedEof { .. }), "{err}");
    }

    #[test]
    fn take_borrows_what_is_there_or_moves_nowhere() {
        let mut reader = SliceReader::new(&[1, 2, 3]);
        assert_eq!(reader.take_slice(2), Some(&[1, 2][..]));
        assert_eq!(reader.take_slice(2), None);
        assert_eq!(reader.position(), 2);
        assert_eq!(reader.take_slice(1), Some(&[3][..]));
        assert_eq!(reader.take_slice(0), Some(&[][..]));
    }

    #[test]
    fn a_whole_read_uses_every_byte() {
        assert_eq!(read_whole::<u16>(&[1, 2], Endian::Little, ()), Some(0x0201));
        assert_eq!(read_whole::<u16>(&[1, 2, 3], Endian::Little, ()), None);
        assert_eq!(read_whole::<u16>(&[1], Endian::Little, ()), None);
    }

    #[test]
    fn a_view_cursor_fails_where_it_stands() {
        let bytes = b"ab\0\xff\0\x01\x02\x03";
        let mut c = ViewCursor::new("test", bytes);
        assert_eq!(c.cstr("name").unwrap(), "ab");
        let err = c.cstr("name").unwrap_err();
        assert_eq!((err.offset, err.to_string().contains("a UTF-8 name")), (3, true));
        c.set_pos(5);
        assert_eq!(c.left(), 3);
        let err = c.check("record", 2, 2).unwrap_err();
        assert_eq!(err.offset, 5);
        assert!(
            err.to_string()
                .contains("record count 2 needs at least 4 bytes, but only 3 remain"),
            "{err}"
        );
        assert_eq!(c.records(1, 2, "record").unwrap(), [1, 2]);
        assert_eq!(*c.one::<u8>("byte").unwrap(), 3);
        let err = c.u8("byte").unwrap_err();
        assert_eq!(err.offset, 8);
        assert!(matches!(err.kind, ErrorKind::UnexpectedEof { .. }));
        let err = c.cstr("name").unwrap_err();
        assert!(err.to_string().contains("a NUL-terminated name"), "{err}");
        c.set_pos(100);
        assert!(c.take(0, "nothing").is_err() && c.left() == 0);
    }

    #[test]
    fn the_first_overlap_is_found_against_the_furthest_end() {
        let mut ranges = [10..20, 0..4, 4..30, 25..26];
        let (later, earlier) = first_overlap(&mut ranges, |r| r.clone()).unwrap();
        assert_eq!((later.clone(), earlier.clone()), (10..20, 4..30));
        // Touching ranges and empty ones between them do not overlap.
        let mut ranges = [4..8, 0..4, 8..8, 8..9];
        assert!(first_overlap(&mut ranges, |r| r.clone()).is_none());
        // A range inside an earlier, longer one overlaps that one, not its neighbour.
        let mut ranges = [0..100, 10..20, 30..40];
        let (later, earlier) = first_overlap(&mut ranges, |r| r.clone()).unwrap();
        assert_eq!((later.clone(), earlier.clone()), (10..20, 0..100));
    }

    #[test]
    fn line_and_column_offsets_follow_the_lines() {
        let text = b"{\n  \"a\": 1,\n  \"b\": x\n}";
        assert_eq!(line_column_offset(text, 3, 8), 19);
        assert_eq!(text[19], b'x');
        assert_eq!(line_column_offset(text, 1, 1), 0);
        assert_eq!(line_column_offset(text, 0, 0), 0);
        assert_eq!(line_column_offset(text, 9, 1), text.len() as u64);
        assert_eq!(line_column_offset(text, 2, 99), text.len() as u64);
    }
}

/// A [`Write`] that keeps nothing and checks that what is written is `expected`, from its
/// start, refusing the first bytes that differ (or run past its end): it tells whether an
/// encoding equals bytes already held without making a second copy of them.
#[derive(Debug)]
pub struct MatchingWriter<'a> {
    expected: &'a [u8],
    at: usize,
}

impl<'a> MatchingWriter<'a> {
    /// A writer that expects `expected`, from its first byte.
    pub fn new(expected: &'a [u8]) -> Self {
        Self { expected, at: 0 }
    }

    /// Whether what was written so far is the whole of `expected` (every write having matched).
    pub fn matched_all(&self) -> bool {
        self.at == self.expected.len()
    }
}

impl Write for MatchingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.expected[self.at..].starts_with(buf) {
            self.at += buf.len();
            Ok(buf.len())
        } else {
            Err(io::Error::other("the bytes differ from the expected ones"))
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
