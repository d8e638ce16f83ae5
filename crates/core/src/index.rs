//! Variable-width indices: the SE formats store frame and bone indices as u8, u16 or u32
//! depending on how many there are.

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::{Deserialize, Serialize};
use zerocopy::byteorder::{ByteOrder, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::ErrorKind;

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
