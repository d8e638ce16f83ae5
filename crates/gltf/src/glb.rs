//! The GLB container: a 12-byte header, a JSON chunk and an optional BIN chunk.
//!
//! Parsed here rather than by the `gltf` crate so that every length is checked with the
//! byte offset of the field that broke (a header length under 12, a chunk running past the
//! end), and nothing can underflow.

use crate::MAGIC;
use crate::error::{Error, Result};
use animbin_core::strings::show_bytes;

/// Chunk type of the JSON chunk ("JSON").
const CHUNK_JSON: u32 = 0x4E4F_534A;
/// Chunk type of the binary chunk ("BIN\0").
const CHUNK_BIN: u32 = 0x004E_4942;

/// The chunks of a GLB file, borrowed from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glb<'a> {
    /// The JSON chunk's bytes (trailing space padding included).
    pub json: &'a [u8],
    /// The BIN chunk's bytes (trailing zero padding included), when present.
    pub bin: Option<&'a [u8]>,
}

fn u32_at(bytes: &[u8], offset: usize, what: &str) -> Result<u32> {
    bytes
        .get(offset..offset + 4)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
        .ok_or_else(|| Error::glb(offset as u64, format!("the 4-byte {what}"), "the end of the file"))
}

impl<'a> Glb<'a> {
    /// Where the JSON chunk's data starts in a GLB file: after the 12-byte header and the
    /// chunk's own 8-byte header (the JSON chunk must come first).
    pub const JSON_START: u64 = 20;

    /// Splits a GLB file into its chunks.
    ///
    /// Chunks after the BIN chunk are skipped, as the specification asks of readers
    /// (unknown chunk types), but each must still fit in the file.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        if !bytes.starts_with(MAGIC) {
            return Err(Error::glb(
                0,
                "the magic \"glTF\"",
                show_bytes(bytes.get(..4).unwrap_or(bytes)),
            ));
        }
        let version = u32_at(bytes, 4, "version")?;
        if version != 2 {
            return Err(Error::glb(4, "version 2", version));
        }
        let length = u32_at(bytes, 8, "length")? as usize;
        if length < 12 || length > bytes.len() {
            return Err(Error::glb(
                8,
                format!("a total length between 12 and the file size {}", bytes.len()),
                length,
            ));
        }
        let bytes = &bytes[..length];
        let mut offset = 12;
        let mut json = None;
        let mut bin = None;
        let mut index = 0;
        while offset < bytes.len() {
            let chunk_length = u32_at(bytes, offset, "chunk length")? as usize;
            let chunk_type = u32_at(bytes, offset + 4, "chunk type")?;
            let start = offset + 8;
            let end = start
                .checked_add(chunk_length)
                .filter(|&end| end <= bytes.len())
                .ok_or_else(|| {
                    Error::glb(
                        offset as u64,
                        format!("a chunk length that fits in the {} bytes left", bytes.len() - start),
                        chunk_length,
                    )
                })?;
            let data = &bytes[start..end];
            match (index, chunk_type) {
                (0, CHUNK_JSON) => json = Some(data),
                (0, other) => {
                    return Err(Error::glb(
                        offset as u64 + 4,
                        "the JSON chunk first",
                        format!("chunk type {other:#010x}"),
                    ));
                }
                (1, CHUNK_BIN) => bin = Some(data),
                (_, CHUNK_JSON) => {
                    return Err(Error::glb(offset as u64 + 4, "one JSON chunk", "a second one"));
                }
                (_, CHUNK_BIN) => {
                    return Err(Error::glb(
                        offset as u64 + 4,
                        "the BIN chunk right after the JSON chunk",
                        "a later one",
                    ));
                }
                _ => {}
            }
            index += 1;
            offset = end;
        }
        let json = json.ok_or_else(|| Error::glb(12, "a JSON chunk", "the end of the file"))?;
        Ok(Self { json, bin })
    }

    /// Writes a GLB file: the JSON padded with spaces and the BIN chunk padded with zeros,
    /// each to a multiple of 4 bytes.
    pub fn to_vec(json: &[u8], bin: Option<&[u8]>) -> Result<Vec<u8>> {
        let head = Self::head(json, bin.map(<[u8]>::len))?;
        let mut out = Vec::with_capacity(head.len() + bin.map_or(0, |b| b.len().div_ceil(4) * 4));
        out.extend_from_slice(&head);
        if let Some(bin) = bin {
            out.extend_from_slice(bin);
            out.resize(out.len().next_multiple_of(4), 0);
        }
        Ok(out)
    }

    /// [`Glb::to_vec`] built in the BIN chunk's own buffer: the bytes before it are moved in
    /// front of it, so a large buffer is never held twice.
    pub fn from_bin(json: &[u8], bin: Option<Vec<u8>>) -> Result<Vec<u8>> {
        let Some(mut bin) = bin else {
            return Self::to_vec(json, None);
        };
        let head = Self::head(json, Some(bin.len()))?;
        bin.resize(bin.len().next_multiple_of(4), 0);
        // Grows the allocation in place where the allocator can (large blocks are remapped),
        // then shifts the bytes up once.
        bin.splice(0..0, head);
        Ok(bin)
    }

    /// The file header, the JSON chunk and the BIN chunk's header when it has `bin_len`
    /// bytes before padding.
    fn head(json: &[u8], bin_len: Option<usize>) -> Result<Vec<u8>> {
        let padded = |n: usize| n.div_ceil(4) * 4;
        let json_len = padded(json.len());
        let bin_len = bin_len.map(padded);
        let total = 12 + 8 + json_len + bin_len.map_or(0, |n| 8 + n);
        let total32 = u32::try_from(total)
            .map_err(|_| Error::Unencodable(format!("a GLB file of {total} bytes (the limit is 4 GiB)")))?;
        let mut out = Vec::with_capacity(20 + json_len + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&total32.to_le_bytes());
        out.extend_from_slice(&(json_len as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
        out.extend_from_slice(json);
        out.resize(20 + json_len, b' ');
        if let Some(bin_len) = bin_len {
            out.extend_from_slice(&(bin_len as u32).to_le_bytes());
            out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_the_bin_buffer_is_the_same_file() {
        for bin in [
            None,
            Some(&b""[..]),
            Some(&b"abc"[..]),
            Some(&b"abcd"[..]),
            Some(&[7u8; 1001][..]),
        ] {
            for json in [&b"{}"[..], b"{\"a\":1}"] {
                assert_eq!(
                    Glb::from_bin(json, bin.map(<[u8]>::to_vec)).unwrap(),
                    Glb::to_vec(json, bin).unwrap()
                );
            }
        }
    }

    #[test]
    fn written_glb_parses_back_with_padding() {
        let bytes = Glb::to_vec(b"{}", Some(&[1, 2, 3, 4, 5])).unwrap();
        assert_eq!(bytes.len(), 12 + 8 + 4 + 8 + 8);
        let glb = Glb::parse(&bytes).unwrap();
        assert_eq!(glb.json, b"{}  ");
        assert_eq!(glb.bin, Some(&[1, 2, 3, 4, 5, 0, 0, 0][..]));
    }

    #[test]
    fn header_length_under_12_is_an_error_at_byte_8() {
        let mut bytes = Glb::to_vec(b"{}", None).unwrap();
        bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
        match Glb::parse(&bytes) {
            Err(Error::Glb { offset: 8, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunk_running_past_the_end_names_its_header_offset() {
        let mut bytes = Glb::to_vec(b"{}", Some(&[0; 8])).unwrap();
        let at = 12 + 8 + 4;
        bytes[at..at + 4].copy_from_slice(&1000u32.to_le_bytes());
        match Glb::parse(&bytes) {
            Err(Error::Glb { offset, .. }) => assert_eq!(offset, at as u64),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_wrong_magic_is_shown_as_text_or_hex() {
        let err = Glb::parse(b"PK\x03\x04").unwrap_err().to_string();
        assert!(err.contains("found 0x504b0304"), "{err}");
        let err = Glb::parse(b"glTX").unwrap_err().to_string();
        assert!(err.contains("found \"glTX\""), "{err}");
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = Glb::to_vec(b"{\"asset\":{}}", Some(&[7; 12])).unwrap();
        for len in 0..bytes.len() {
            assert!(Glb::parse(&bytes[..len]).is_err(), "length {len}");
        }
    }
}
