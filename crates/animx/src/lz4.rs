//! Encoding 1: lz4net's `LZ4Stream` chunk format (not the LZ4 frame format).
//!
//! The compressed region is a run of chunks up to the end of the file. Each chunk is
//!
//! | field | type | meaning |
//! |---|---|---|
//! | flags | 7-bit varint | bit 0: compressed; bit 1: high compression was used; other bits 0 |
//! | originalLength | 7-bit varint | the bytes the chunk decodes to |
//! | compressedLength | 7-bit varint | only when compressed: the size of the LZ4 block |
//! | data | bytes | a raw LZ4 block of compressedLength bytes, or originalLength stored bytes |
//!
//! lz4net writes chunks of at most 1 MiB ([`CHUNK_SIZE`]) and stores a chunk uncompressed
//! when LZ4 does not make it smaller; [`compress`] does the same. Blocks are decoded by
//! `lz4_flex::block`'s safe decoder into a buffer of exactly originalLength bytes that starts
//! at the chunk's first byte, so a match offset of 0 or one reaching before the chunk's start
//! is an error (tested below), and the block must fill the buffer exactly.

use animbin_core::io::SliceReader;
use animbin_core::strings::{read_varint, write_varint};
use animbin_core::{Error, ErrorKind};

use crate::FORMAT;

/// The largest chunk lz4net writes (its default block size), and the size [`compress`] uses.
pub const CHUNK_SIZE: usize = 1 << 20;

bitflags::bitflags! {
    /// A chunk's flags (a varint). No writer sets the other bits and their meaning is
    /// unknown, so a chunk with any of them is refused.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct ChunkFlags: u32 {
        /// The chunk holds an LZ4 block.
        const COMPRESSED = 1;
        /// The block was made by the high-compression encoder (read the same way).
        const HIGH_COMPRESSION = 2;
    }
}

/// The most an LZ4 block can expand: each extra match-length byte adds at most 255 bytes.
const MAX_RATIO: u64 = 255;

/// Decodes the chunks in `data` (which starts at file offset `base`) into the plain bytes,
/// refusing to produce more than `limit` bytes.
///
/// The output is allocated once, at the size the chunk headers add up to ([`plain_size`]),
/// and each block decodes straight into its place in it.
pub fn decompress(data: &[u8], base: u64, limit: u64) -> Result<Vec<u8>, Error> {
    let mut reader = SliceReader::new(data);
    // Zeroed, so that every block decodes into initialised bytes; for a large output the
    // zero pages come from the system untouched, so this costs no pass over the memory.
    let mut out = vec![0u8; plain_size(data, limit)];
    let mut len = 0usize;
    let err = |at: u64, kind: ErrorKind| Error::new(FORMAT, base + at, kind);
    while !reader.rest().is_empty() {
        let chunk_at = reader.position();
        let bits = chunk_varint(&mut reader, base, "flags")?;
        let Some(flags) = ChunkFlags::from_bits(bits) else {
            return Err(err(
                chunk_at,
                ErrorKind::invalid("LZ4 chunk flags with only bits 0 and 1 set", format!("{bits:#x}")),
            ));
        };
        let length_at = reader.position();
        let original = u64::from(chunk_varint(&mut reader, base, "originalLength")?);
        let compressed = if flags.contains(ChunkFlags::COMPRESSED) {
            Some(u64::from(chunk_varint(&mut reader, base, "compressedLength")?))
        } else {
            None
        };
        let total = len as u64 + original;
        if total > limit {
            return Err(err(
                length_at,
                ErrorKind::LimitExceeded {
                    what: "LZ4 decompressed data".into(),
                    requested: total,
                    limit,
                },
            ));
        }
        let data_at = reader.position();
        let stored = compressed.unwrap_or(original);
        let Some(bytes) = reader.take_slice(stored) else {
            return Err(err(
                data_at,
                ErrorKind::CountTooLarge {
                    what: "LZ4 chunk byte".into(),
                    count: stored,
                    needed: stored,
                    remaining: reader.rest().len() as u64,
                },
            ));
        };
        if let Some(size) = compressed {
            if original > size.saturating_mul(MAX_RATIO) {
                return Err(err(
                    length_at,
                    ErrorKind::invalid(
                        format!(
                            "an originalLength an LZ4 block of {size} bytes can hold (at most {})",
                            size * MAX_RATIO
                        ),
                        original,
                    ),
                ));
            }
        }
        // The size pass saw the same headers, so this holds; growing keeps it safe regardless.
        let end = len + original as usize;
        if end > out.len() {
            out.resize(end, 0);
        }
        let place = &mut out[len..end];
        match compressed {
            None => place.copy_from_slice(bytes),
            Some(_) => {
                let decoded = lz4_flex::block::decompress_into(bytes, place)
                    .map_err(|e| err(data_at, ErrorKind::invalid("a valid LZ4 block", e)))?;
                if decoded as u64 != original {
                    return Err(err(
                        data_at,
                        ErrorKind::invalid(
                            format!("an LZ4 block that decodes to originalLength = {original} bytes"),
                            format!("{decoded} bytes"),
                        ),
                    ));
                }
            }
        }
        len = end;
    }
    out.truncate(len);
    Ok(out)
}

/// The plain size that the chunk headers of `data` add up to, walking them as
/// [`decompress`] does and stopping before the first chunk it would refuse, so that the
/// output holds no more than the checked chunks give (at most `limit`, and at most
/// [`MAX_RATIO`] times the input).
fn plain_size(data: &[u8], limit: u64) -> usize {
    let mut reader = SliceReader::new(data);
    let mut total = 0u64;
    while !reader.rest().is_empty() {
        let Some(flags) = read_varint(&mut reader).ok().and_then(ChunkFlags::from_bits) else {
            break;
        };
        let Ok(original) = read_varint(&mut reader).map(u64::from) else {
            break;
        };
        let compressed = if flags.contains(ChunkFlags::COMPRESSED) {
            match read_varint(&mut reader) {
                Ok(size) => Some(u64::from(size)),
                Err(_) => break,
            }
        } else {
            None
        };
        let stored = compressed.unwrap_or(original);
        let fits = total + original <= limit
            && compressed.is_none_or(|size| original <= size.saturating_mul(MAX_RATIO))
            && reader.take_slice(stored).is_some();
        if !fits {
            break;
        }
        total += original;
    }
    total as usize
}

/// Reads one of a chunk's varints, naming it in the error.
fn chunk_varint(reader: &mut SliceReader<'_>, base: u64, what: &str) -> Result<u32, Error> {
    let at = reader.position();
    read_varint(reader).map_err(|e| {
        let mut e = reader.error(FORMAT, e);
        if matches!(e.kind, ErrorKind::UnexpectedEof { .. }) {
            e.kind = ErrorKind::UnexpectedEof {
                expected: format!("an LZ4 chunk's {what}"),
            };
        } else {
            e.offset = at;
        }
        e.offset += base;
        e
    })
}

/// Encodes `plain` as `LZ4Stream` chunks of at most [`CHUNK_SIZE`] bytes, storing a chunk
/// uncompressed when LZ4 does not shrink it (as lz4net does).
pub fn compress(plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(plain.len() / 2 + 16);
    for chunk in plain.chunks(CHUNK_SIZE) {
        let block = lz4_flex::block::compress(chunk);
        // Writing into a Vec cannot fail.
        if block.len() < chunk.len() {
            let _ = write_varint(&mut out, ChunkFlags::COMPRESSED.bits());
            let _ = write_varint(&mut out, chunk.len() as u32);
            let _ = write_varint(&mut out, block.len() as u32);
            out.extend_from_slice(&block);
        } else {
            let _ = write_varint(&mut out, ChunkFlags::empty().bits());
            let _ = write_varint(&mut out, chunk.len() as u32);
            out.extend_from_slice(chunk);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use animbin_core::ErrorKind;
    use animbin_testing::hex;

    use super::{compress, decompress, plain_size};

    #[test]
    fn lz4_compressed_chunk_decodes_to_exactly_its_original_length() {
        // One block: literal 'a', then a match of 15 at offset 1, then 5 literal 'b's.
        let block = hex("1b 61 01 00 50 62 62 62 62 62");
        let mut data = hex("01 15 0a"); // compressed, originalLength 21, compressedLength 10
        data.extend_from_slice(&block);
        let plain = decompress(&data, 100, 1 << 20).unwrap();
        assert_eq!(plain, [&[b'a'; 16][..], &[b'b'; 5][..]].concat());
        // An originalLength the block does not fill exactly is an error at the block.
        let mut short = hex("01 16 0a");
        short.extend_from_slice(&block);
        let err = decompress(&short, 100, 1 << 20).unwrap_err();
        assert_eq!(err.offset, 103, "{err}");
        let mut long = hex("01 14 0a");
        long.extend_from_slice(&block);
        assert_eq!(decompress(&long, 100, 1 << 20).unwrap_err().offset, 103);
    }

    #[test]
    fn lz4_match_offsets_of_zero_or_before_the_chunk_are_errors() {
        // Offset 0 (slow path: the block is short).
        let mut data = hex("01 15 0a 1b 61 00 00 50 62 62 62 62 62");
        let err = decompress(&data, 0, 1 << 20).unwrap_err();
        assert_eq!(err.offset, 3, "{err}");
        // Offset 2 with one byte out.
        data = hex("01 15 0a 1b 61 02 00 50 62 62 62 62 62");
        assert_eq!(decompress(&data, 0, 1 << 20).unwrap_err().offset, 3);
        // A second chunk whose match reaches back into the first chunk is refused too: chunks
        // decode independently. First chunk: stored 'a'; second: a match at offset 1 with no literal.
        data = hex("00 01 61   01 13 07 0f 01 00 50 62 62 62 62 62");
        let err = decompress(&data, 0, 1 << 20).unwrap_err();
        assert_eq!(err.offset, 6, "{err}");
        // lz4_flex's fast path (taken while 18+ input bytes and 34+ output bytes remain) checks
        // offsets too: a long block whose first sequence has offset 255, then one with offset 0.
        for offset in ["ff 00", "00 00"] {
            let mut block = hex(&format!("40 61 62 63 64 {offset}"));
            block.extend_from_slice(&[0x11; 40]);
            let mut data = hex("01 64"); // compressed, originalLength 100
            data.push(block.len() as u8);
            data.extend_from_slice(&block);
            let err = decompress(&data, 0, 1 << 20).unwrap_err();
            assert_eq!(err.offset, 3, "{err}");
            assert!(err.to_string().contains("offset"), "{err}");
        }
    }

    #[test]
    fn lz4_round_trip_splits_into_one_mib_chunks() {
        let plain: Vec<u8> = (0..(2 << 20) + 1000)
            .map(|i: u32| (i % 251) as u8 ^ (i >> 12) as u8)
            .collect();
        let packed = compress(&plain);
        assert_eq!(decompress(&packed, 0, 8 << 20).unwrap(), plain);
        assert_eq!(packed[0], 1, "the first chunk is compressed");
        // varint 0x100000 = 80 80 40
        assert_eq!(&packed[1..4], &[0x80, 0x80, 0x40]);
        // The limit holds across chunks.
        let err = decompress(&packed, 0, 1 << 20).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::LimitExceeded { .. }), "{err}");
    }

    #[test]
    fn the_output_is_sized_by_the_chunks_decompress_would_accept() {
        let plain: Vec<u8> = (0..(2 << 20) + 1000).map(|i: u32| (i % 7) as u8).collect();
        let packed = compress(&plain);
        assert_eq!(plain_size(&packed, 8 << 20), plain.len());
        // Under the limit of two chunks, or with the last chunk cut short, the walk stops
        // before the chunk decompress refuses.
        assert_eq!(plain_size(&packed, 2 << 20), 2 << 20);
        assert_eq!(plain_size(&packed[..packed.len() - 1], 8 << 20), 2 << 20);
        // A claimed length no block of its size can hold counts for nothing.
        assert_eq!(plain_size(&hex("01 ff ff 03 01 00"), 8 << 20), 0);
        assert!(decompress(&hex("01 ff ff 03 01 00"), 0, 8 << 20).is_err());
    }
}
