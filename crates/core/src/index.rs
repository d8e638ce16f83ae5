//! Variable-width indices: the SE formats store frame and bone indices as u8, u16 or u32
//! depending on how many there are, and a zero-copy view lends runs of them (or of records
//! holding them) as an [`IndexSlice`].

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::{Deserialize, Serialize};
use zerocopy::byteorder::{ByteOrder, LittleEndian, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{Error, ErrorKind};
use crate::io::ViewCursor;

/// The byte width of a variable-width index field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum IndexWidth {
    /// One byte.
    #[default]
    U8,
    /// Two bytes.
    U16,
    /// Four bytes.
    U32,
}

impl IndexWidth {
    /// The SE rule: a count up to 0xFF gives u8, up to 0xFFFF gives u16, otherwise u32.
    pub fn for_count(count: u64) -> Self {
        match count {
            0..=0xFF => Self::U8,
            0x100..=0xFFFF => Self::U16,
            _ => Self::U32,
        }
    }

    /// The width in bytes.
    pub const fn size(self) -> u64 {
        match self {
            Self::U8 => 1,
            Self::U16 => 2,
            Self::U32 => 4,
        }
    }

    /// The largest value the width holds.
    pub const fn max(self) -> u32 {
        match self {
            Self::U8 => 0xFF,
            Self::U16 => 0xFFFF,
            Self::U32 => u32::MAX,
        }
    }

    /// Reads one index of this width.
    pub fn read<R: Read + Seek>(self, reader: &mut R, endian: Endian) -> BinResult<u32> {
        Ok(match self {
            Self::U8 => u32::from(u8::read_options(reader, endian, ())?),
            Self::U16 => u32::from(u16::read_options(reader, endian, ())?),
            Self::U32 => u32::read_options(reader, endian, ())?,
        })
    }

    /// Writes `value` at this width, or fails (never truncates) when it does not fit.
    pub fn write<W: Write + Seek>(self, value: u32, writer: &mut W, endian: Endian) -> BinResult<()> {
        if value > self.max() {
            let pos = writer.stream_position()?;
            return Err(ErrorKind::Unencodable(format!("index {value} does not fit a {self:?} field")).at(pos));
        }
        match self {
            Self::U8 => (value as u8).write_options(writer, endian, ()),
            Self::U16 => (value as u16).write_options(writer, endian, ()),
            Self::U32 => value.write_options(writer, endian, ()),
        }
    }
}

/// A variable-width index as it lies in a fixed-layout record read in place: `u8`, or a
/// `zerocopy` [`U16`] / [`U32`] of either byte order. Zero-copy views and bulk codecs pick
/// the record type by [`IndexWidth`] once and then read each index through this trait.
pub trait IndexField: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned + Copy + std::fmt::Debug {
    /// The field's width.
    const WIDTH: IndexWidth;
    /// The index.
    fn get(self) -> u32;
    /// The field holding `value`, or `None` when [`IndexField::WIDTH`] cannot hold it.
    fn try_new(value: u32) -> Option<Self>;
}

impl IndexField for u8 {
    const WIDTH: IndexWidth = IndexWidth::U8;
    #[inline]
    fn get(self) -> u32 {
        u32::from(self)
    }
    #[inline]
    fn try_new(value: u32) -> Option<Self> {
        u8::try_from(value).ok()
    }
}

impl<O: ByteOrder> IndexField for U16<O> {
    const WIDTH: IndexWidth = IndexWidth::U16;
    #[inline]
    fn get(self) -> u32 {
        u32::from(U16::get(self))
    }
    #[inline]
    fn try_new(value: u32) -> Option<Self> {
        u16::try_from(value).ok().map(U16::new)
    }
}

impl<O: ByteOrder> IndexField for U32<O> {
    const WIDTH: IndexWidth = IndexWidth::U32;
    #[inline]
    fn get(self) -> u32 {
        U32::get(self)
    }
    #[inline]
    fn try_new(value: u32) -> Option<Self> {
        Some(U32::new(value))
    }
}

/// A record whose indices lie at one of the three widths, read as one value whatever the
/// width: a lone index (`u8`, `u16`, `u32`, or a `zerocopy` [`U16`] / [`U32`]) reads as its
/// `u32`; a format's own records (a triangle, a bone influence) read as what they hold.
/// [`IndexSlice`] borrows runs of them.
pub trait IndexRecord: Copy {
    /// The record's value, its indices widened.
    type Item;
    /// The record's value.
    fn value(&self) -> Self::Item;
}

/// Implements [`IndexRecord`] for lone indices, which read as their `u32`.
macro_rules! index_record {
    ($($ty:ty),*) => {$(
        impl IndexRecord for $ty {
            type Item = u32;
            #[inline]
            fn value(&self) -> u32 {
                u32::from(*self)
            }
        }
    )*};
}
index_record!(u8, u16, u32);

impl<O: ByteOrder> IndexRecord for U16<O> {
    type Item = u32;
    #[inline]
    fn value(&self) -> u32 {
        u32::from(self.get())
    }
}

impl<O: ByteOrder> IndexRecord for U32<O> {
    type Item = u32;
    #[inline]
    fn value(&self) -> u32 {
        self.get()
    }
}

/// A borrowed run of records whose indices have one of the three widths, the width chosen
/// by a count (the SE formats' `bone_t` and face indices) or by a type tag (Cast's `b`, `h`,
/// `i`): `A`, `B` and `C` are the records at u8, u16 and u32 width. By default they are lone
/// little-endian indices, as a zero-copy view lends them; a format names its own records
/// (`IndexSlice<'a, Face8, Face16, Face32>`) or native ones for an owned model.
///
/// Every record reads as its [`IndexRecord::value`], whatever the width.
#[derive(Debug, PartialEq, Eq)]
pub enum IndexSlice<'a, A = u8, B = U16<LittleEndian>, C = U32<LittleEndian>> {
    /// Records with u8 indices.
    U8(&'a [A]),
    /// Records with u16 indices.
    U16(&'a [B]),
    /// Records with u32 indices.
    U32(&'a [C]),
}

impl<A, B, C> Clone for IndexSlice<'_, A, B, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A, B, C> Copy for IndexSlice<'_, A, B, C> {}

impl<A, B, C> Default for IndexSlice<'_, A, B, C> {
    /// No records (u8 width).
    fn default() -> Self {
        Self::U8(&[])
    }
}

impl<'a, A, B, C> IndexSlice<'a, A, B, C> {
    /// The number of records.
    pub fn len(&self) -> usize {
        match self {
            Self::U8(s) => s.len(),
            Self::U16(s) => s.len(),
            Self::U32(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index width.
    pub fn width(&self) -> IndexWidth {
        match self {
            Self::U8(_) => IndexWidth::U8,
            Self::U16(_) => IndexWidth::U16,
            Self::U32(_) => IndexWidth::U32,
        }
    }

    /// Takes `count` records at `width` from `cursor`, with [`ViewCursor::slice`]'s checks
    /// and errors.
    pub fn take(cursor: &mut ViewCursor<'a>, width: IndexWidth, count: u64, what: &str) -> Result<Self, Error>
    where
        A: FromBytes + KnownLayout + Immutable + Unaligned,
        B: FromBytes + KnownLayout + Immutable + Unaligned,
        C: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        Ok(match width {
            IndexWidth::U8 => Self::U8(cursor.slice(count, what)?),
            IndexWidth::U16 => Self::U16(cursor.slice(count, what)?),
            IndexWidth::U32 => Self::U32(cursor.slice(count, what)?),
        })
    }
}

impl<'a, A, B, C> IndexSlice<'a, A, B, C>
where
    A: IndexRecord,
    B: IndexRecord<Item = A::Item>,
    C: IndexRecord<Item = A::Item>,
{
    /// The value of the record at `index`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<A::Item> {
        match self {
            Self::U8(s) => s.get(index).map(A::value),
            Self::U16(s) => s.get(index).map(B::value),
            Self::U32(s) => s.get(index).map(C::value),
        }
    }

    /// The values of the records in order (one tight loop over the run's width).
    pub fn iter(&self) -> impl Iterator<Item = A::Item> + use<'a, A, B, C> {
        let (a, b, c): (&'a [A], &'a [B], &'a [C]) = match *self {
            Self::U8(s) => (s, &[], &[]),
            Self::U16(s) => (&[], s, &[]),
            Self::U32(s) => (&[], &[], s),
        };
        a.iter()
            .map(A::value)
            .chain(b.iter().map(B::value))
            .chain(c.iter().map(C::value))
    }

    /// The values of the records in a new vector.
    pub fn to_vec(&self) -> Vec<A::Item> {
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.iter());
        out
    }
}

/// A `u32` stored at a width given as a binrw argument: `#[brw(args(width))] frame: Index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Index(pub u32);

impl BinRead for Index {
    type Args<'a> = IndexWidth;
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, width: IndexWidth) -> BinResult<Self> {
        width.read(reader, endian).map(Index)
    }
}

impl BinWrite for Index {
    type Args<'a> = IndexWidth;
    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, width: IndexWidth) -> BinResult<()> {
        width.write(self.0, writer, endian)
    }
}

impl From<u32> for Index {
    fn from(v: u32) -> Self {
        Self(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use binrw::io::Cursor;

    #[test]
    fn width_switches_at_the_se_thresholds() {
        assert_eq!(IndexWidth::for_count(0), IndexWidth::U8);
        assert_eq!(IndexWidth::for_count(255), IndexWidth::U8);
        assert_eq!(IndexWidth::for_count(256), IndexWidth::U16);
        assert_eq!(IndexWidth::for_count(65535), IndexWidth::U16);
        assert_eq!(IndexWidth::for_count(65536), IndexWidth::U32);
    }

    #[test]
    fn index_fields_hold_exactly_what_their_width_holds() {
        use zerocopy::{BigEndian, LittleEndian};
        fn check<F: IndexField>() {
            let max = F::WIDTH.max();
            assert_eq!(F::try_new(max).map(F::get), Some(max));
            assert_eq!(F::try_new(0).map(F::get), Some(0));
            if max < u32::MAX {
                assert!(F::try_new(max + 1).is_none());
            }
            assert_eq!(size_of::<F>() as u64, F::WIDTH.size());
        }
        check::<u8>();
        check::<U16<LittleEndian>>();
        check::<U32<LittleEndian>>();
        check::<U16<BigEndian>>();
        assert_eq!(U16::<BigEndian>::try_new(0x1234).unwrap().as_bytes(), &[0x12, 0x34]);
    }

    #[test]
    fn an_index_slice_reads_every_width_as_u32() {
        let bytes = [1, 0, 2, 0, 0xff, 0xff];
        let mut cursor = ViewCursor::new("test", &bytes);
        let slice: IndexSlice<'_> = IndexSlice::take(&mut cursor, IndexWidth::U16, 3, "index").unwrap();
        assert_eq!(slice.width(), IndexWidth::U16);
        assert_eq!((slice.len(), slice.get(2), slice.get(3)), (3, Some(0xffff), None));
        assert_eq!(slice.to_vec(), [1, 2, 0xffff]);
        let narrow: IndexSlice<'_> = IndexSlice::U8(&bytes[..2]);
        assert_eq!(narrow.iter().collect::<Vec<_>>(), [1, 0]);
        let owned: IndexSlice<'_, u8, u16, u32> = IndexSlice::U32(&[7, 8]);
        assert_eq!(owned.to_vec(), [7, 8]);
        let mut short = ViewCursor::new("test", &bytes);
        let refused: Result<IndexSlice<'_>, _> = IndexSlice::take(&mut short, IndexWidth::U32, 2, "index");
        let err = refused.unwrap_err();
        assert!(
            matches!(
                err.kind,
                ErrorKind::CountTooLarge {
                    count: 2,
                    needed: 8,
                    remaining: 6,
                    ..
                }
            ),
            "{err}"
        );
        let empty: IndexSlice<'_> = IndexSlice::default();
        assert!(empty.is_empty());
    }

    #[test]
    fn index_refuses_values_wider_than_its_field() {
        let mut out = Cursor::new(Vec::new());
        assert!(
            Index(256)
                .write_options(&mut out, Endian::Little, IndexWidth::U8)
                .is_err()
        );
        Index(0x1234)
            .write_options(&mut out, Endian::Little, IndexWidth::U16)
            .unwrap();
        assert_eq!(out.get_ref(), &[0x34, 0x12]);
        let back = Index::read_options(&mut Cursor::new(out.into_inner()), Endian::Little, IndexWidth::U16).unwrap();
        assert_eq!(back, Index(0x1234));
    }
}
