//! The header of Greyhound's SEBlend trailer, which SEAnim and SEModel files may both carry,
//! unflagged, after their last block: `u64` magic `"SEBlend\n"`, `u64` shape
//! count, then the shape names, NUL-terminated. What follows the names is each format's own
//! (per-shape keys in SEAnim, per-vertex deltas in SEModel).

use binrw::binrw;
use serde::{Deserialize, Serialize};

use crate::io::{BoundedArgs, bounded_vec};
use crate::strings::NulString;

/// The trailer's first eight bytes, `"SEBlend\n"` (`0x0A646E656C424553` as a little-endian `u64`).
pub const MAGIC: [u8; 8] = *b"SEBlend\n";

/// The magic, the shape count and the shape names that start every SEBlend trailer.
///
/// Reading takes the least number of bytes one shape occupies in the format, counting its
/// name's NUL, so that a count the bytes left cannot hold is refused before allocating.
#[binrw]
#[brw(little, magic = b"SEBlend\n")]
#[br(import(min_shape_size: u64))]
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeBlendHeader {
    /// `u64 count`: the number of shapes.
    #[br(temp)]
    #[bw(try_calc = u64::try_from(names.len()))]
    count: u64,
    /// `string_t name[count]`: the shape names.
    #[br(parse_with = bounded_vec)]
    #[br(args_raw = BoundedArgs { count, min_size: min_shape_size, what: "blend shape", inner: () })]
    pub names: Vec<NulString>,
}

/// What follows the last block of an SE file: nothing, an SEBlend trailer whose body (`T`,
/// each format's own) parses exactly to the end of the file, or other bytes, kept so that a
/// rewrite is byte-identical.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trailer<T> {
    /// The file ends with its last block.
    #[default]
    None,
    /// Greyhound's blend-shape trailer.
    #[serde(rename = "seblend")]
    SeBlend(T),
    /// Bytes that are not an SEBlend trailer ending at the end of the file, kept verbatim.
    Unknown(Vec<u8>),
}

impl<T> Trailer<T> {
    /// The SEBlend body, when the trailer is one.
    pub fn seblend(&self) -> Option<&T> {
        match self {
            Self::SeBlend(body) => Some(body),
            _ => None,
        }
    }

    /// The kind of trailer in a word: `"none"`, `"seblend"` or `"unknown"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::None => "none",
            Self::SeBlend(_) => "seblend",
            Self::Unknown(_) => "unknown",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::SliceReader;
    use binrw::{BinRead, BinWrite, Endian};

    #[test]
    fn the_header_is_the_magic_the_count_and_the_names() {
        let bytes = [b"SEBlend\n".as_slice(), &2u64.to_le_bytes(), b"a\0bc\0"].concat();
        let header = SeBlendHeader {
            names: vec!["a".into(), "bc".into()],
        };
        let mut out = std::io::Cursor::new(Vec::new());
        header.write_options(&mut out, Endian::Little, ()).unwrap();
        assert_eq!(out.into_inner(), bytes);
        let read = SeBlendHeader::read_options(&mut SliceReader::new(&bytes), Endian::Little, (1,)).unwrap();
        assert_eq!(read, header);
        assert_eq!(bytes[..8], MAGIC);
    }

    #[test]
    fn a_count_the_bytes_left_cannot_hold_is_refused_before_allocating() {
        let bytes = [b"SEBlend\n".as_slice(), &u64::MAX.to_le_bytes(), b"a\0"].concat();
        let mut reader = SliceReader::new(&bytes);
        let err = SeBlendHeader::read_options(&mut reader, Endian::Little, (1,)).unwrap_err();
        let err = reader.error("test", err);
        assert_eq!(err.offset, 16);
        // Two names of one byte each fit, but not two shapes of at least 5 bytes.
        let bytes = [b"SEBlend\n".as_slice(), &2u64.to_le_bytes(), b"a\0b\0"].concat();
        assert!(SeBlendHeader::read_options(&mut SliceReader::new(&bytes), Endian::Little, (1,)).is_ok());
        assert!(SeBlendHeader::read_options(&mut SliceReader::new(&bytes), Endian::Little, (5,)).is_err());
    }
}
