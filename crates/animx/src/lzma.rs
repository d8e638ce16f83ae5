//! Encoding 2: the LZMAHelper container of Elements.Core (Resonite's base library).
//!
//! | offset | type | field |
//! |---|---|---|
//! | 0 | `u8[5]` | LZMA1 properties: `lc + 9 * (lp + 5 * pb)`, then the dictionary size (u32) |
//! | 5 | `u64` | decompressedSize |
//! | 13 | `u64` | compressedSize |
//! | 21 | bytes | compressedSize bytes of raw LZMA1 data |
//!
//! Elements writes the data with no end marker; [`decompress_container`] accepts it with or
//! without one and stops once decompressedSize bytes are out. [`compress_container`] writes
//! properties `5D 00 00 20 00` (lc 3, lp 0, pb 2, 2 MiB dictionary, as Elements does), both
//! sizes and the data, which liblzma ends with an end marker (xz2 exposes no LZMA1 encoder
//! that omits it; readers stop at decompressedSize either way).
//!
//! The data is decoded with xz2's `.lzma` ("LZMA_Alone") decoder behind a synthetic 13-byte
//! header that declares an unknown size, so the end marker is optional, and whose dictionary
//! size is capped at the output size (no match can reach further back than the output), so
//! a header claiming a 4 GiB dictionary allocates nothing large.

use animbin_core::io::read_from_slice;
use animbin_core::{Endian, Error, ErrorKind};
use binrw::binrw;
use xz2::stream::{Action, LzmaOptions, Status, Stream};

use crate::FORMAT;

/// The container's 21-byte header.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContainerHeader {
    /// LZMA1 properties: the lc/lp/pb byte, then the dictionary size (u32).
    pub properties: [u8; 5],
    /// The size of the data once decompressed.
    pub decompressed_size: u64,
    /// The size of the raw LZMA1 data that follows.
    pub compressed_size: u64,
}

/// The size of [`ContainerHeader`].
pub const HEADER_SIZE: usize = 21;

/// The properties Elements writes: lc 3, lp 0, pb 2 (0x5D) and a 2 MiB dictionary.
pub const ELEMENTS_PROPERTIES: [u8; 5] = [0x5D, 0x00, 0x00, 0x20, 0x00];

/// Decodes a container starting at file offset `base`, refusing a decompressedSize over `limit`.
pub fn decompress_container(data: &[u8], base: u64, limit: u64) -> Result<Vec<u8>, Error> {
    let at = |offset: u64, kind: ErrorKind| Error::new(FORMAT, base + offset, kind);
    let header: ContainerHeader = read_from_slice(FORMAT, data, Endian::Little).map_err(|mut e| {
        e.offset += base;
        if let ErrorKind::UnexpectedEof { expected } = &mut e.kind {
            *expected = "the 21-byte LZMA container header".into();
        }
        e
    })?;
    let props = header.properties[0];
    if props >= 9 * 5 * 5 {
        return Err(at(
            0,
            ErrorKind::invalid("LZMA properties byte under 225 (lc + 9 * (lp + 5 * pb))", props),
        ));
    }
    if header.decompressed_size > limit {
        return Err(at(
            5,
            ErrorKind::LimitExceeded {
                what: "LZMA decompressedSize".into(),
                requested: header.decompressed_size,
                limit,
            },
        ));
    }
    let body = &data[HEADER_SIZE..];
    if header.compressed_size != body.len() as u64 {
        let kind = if header.compressed_size > body.len() as u64 {
            ErrorKind::CountTooLarge {
                what: "LZMA compressed byte".into(),
                count: header.compressed_size,
                needed: header.compressed_size,
                remaining: body.len() as u64,
            }
        } else {
            ErrorKind::invalid(
                "a compressedSize that reaches the end of the file",
                format!(
                    "{} bytes, with {} bytes after the header",
                    header.compressed_size,
                    body.len()
                ),
            )
        };
        return Err(at(13, kind));
    }
    let size = header.decompressed_size as usize;
    // A dictionary larger than the output is never used: cap it (at least 4 KiB, liblzma's minimum).
    let dict = u32::from_le_bytes([
        header.properties[1],
        header.properties[2],
        header.properties[3],
        header.properties[4],
    ])
    .min(u32::try_from(size.max(4096)).unwrap_or(u32::MAX))
    .max(4096);
    let mut alone = [0xFFu8; 13];
    alone[0] = props;
    alone[1..5].copy_from_slice(&dict.to_le_bytes());

    let lzma_err = |offset: u64, what: String| at(offset, ErrorKind::invalid("valid LZMA1 data", what));
    let mut stream = Stream::new_lzma_decoder(u64::from(dict) + (64 << 20))
        .map_err(|e| lzma_err(0, format!("decoder setup failed: {e}")))?;
    let mut out = Vec::with_capacity(size);
    stream
        .process_vec(&alone, &mut out, Action::Run)
        .map_err(|e| lzma_err(0, e.to_string()))?;
    let mut input = body;
    while out.len() < size {
        let before_in = stream.total_in();
        let before_out = out.len();
        let status = stream.process_vec(input, &mut out, Action::Run);
        let consumed = (stream.total_in() - before_in) as usize;
        let data_pos = (stream.total_in() - 13).min(body.len() as u64);
        let status = status.map_err(|e| lzma_err(HEADER_SIZE as u64 + data_pos, e.to_string()))?;
        input = &input[consumed.min(input.len())..];
        if out.len() >= size {
            break;
        }
        if status == Status::StreamEnd {
            return Err(lzma_err(
                HEADER_SIZE as u64 + data_pos,
                format!("an end marker after {} of {size} bytes", out.len()),
            ));
        }
        if consumed == 0 && out.len() == before_out {
            return Err(at(
                data.len() as u64,
                ErrorKind::UnexpectedEof {
                    expected: format!("more LZMA data: {} of {size} bytes decoded", out.len()),
                },
            ));
        }
    }
    out.truncate(size);
    Ok(out)
}

/// Wraps `plain` in an LZMAHelper container (properties, both sizes, raw LZMA1 data).
pub fn compress_container(plain: &[u8]) -> Result<Vec<u8>, Error> {
    let fail = |e: xz2::stream::Error| Error::new(FORMAT, 0, ErrorKind::Unencodable(format!("LZMA encoder: {e}")));
    let mut options = LzmaOptions::new_preset(6).map_err(fail)?;
    options
        .dict_size(2 << 20)
        .literal_context_bits(3)
        .literal_position_bits(0)
        .position_bits(2);
    let mut stream = Stream::new_lzma_encoder(&options).map_err(fail)?;
    let mut alone = Vec::with_capacity(plain.len() / 3 + 64);
    let mut input = plain;
    loop {
        if alone.capacity() - alone.len() < 4096 {
            alone.reserve(alone.capacity().max(4096));
        }
        let before = stream.total_in();
        let status = stream.process_vec(input, &mut alone, Action::Finish).map_err(fail)?;
        input = &input[(stream.total_in() - before) as usize..];
        if status == Status::StreamEnd {
            break;
        }
    }
    // The .lzma header: 5 property bytes, then the size (unknown, all ones); then the data.
    let raw = alone.get(13..).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER_SIZE + raw.len());
    out.extend_from_slice(alone.get(..5).unwrap_or(&ELEMENTS_PROPERTIES));
    out.extend_from_slice(&(plain.len() as u64).to_le_bytes());
    out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    out.extend_from_slice(raw);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use animbin_core::ErrorKind;
    use animbin_testing::shared_corpus;

    use super::{compress_container, decompress_container};

    #[test]
    fn lzma_data_without_an_end_marker_stops_at_the_decompressed_size() {
        // Elements writes no end marker. Decoding the corpus container proves the no-marker
        // path; here: our data (which has one) still decodes when the container is cut so it
        // declares fewer bytes than are encoded.
        let plain: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 13) as u8).collect();
        let container = compress_container(&plain).unwrap();
        assert_eq!(decompress_container(&container, 0, 1 << 20).unwrap(), plain);
        let mut shorter = container.clone();
        shorter[5..13].copy_from_slice(&4000u64.to_le_bytes());
        assert_eq!(decompress_container(&shorter, 0, 1 << 20).unwrap(), &plain[..4000]);
        // Claiming more than is encoded runs into the end marker: an error.
        let mut longer = container.clone();
        longer[5..13].copy_from_slice(&6000u64.to_le_bytes());
        assert!(decompress_container(&longer, 0, 1 << 20).is_err());
    }

    #[test]
    fn corpus_lzmahelper_container_decodes_to_111579_bytes() {
        let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "animx") else {
            return;
        };
        let path = dir.join("redx-neos-lzmahelper-container.7zbson");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let plain = decompress_container(&bytes, 0, 1 << 20).unwrap();
        assert_eq!(plain.len(), 111_579);
        // The payload is a BSON document: its first four bytes are its own length.
        assert_eq!(u32::from_le_bytes(plain[..4].try_into().unwrap()) as usize, plain.len());
        // Under a lower limit the header alone is refused, at the decompressedSize field.
        let err = decompress_container(&bytes, 0, 100_000).unwrap_err();
        assert_eq!(err.offset, 5);
        assert!(
            matches!(err.kind, ErrorKind::LimitExceeded { requested: 111_579, .. }),
            "{err}"
        );
    }
}
