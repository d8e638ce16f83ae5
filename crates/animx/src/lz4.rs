//! Encoding 1: lz4net's `LZ4Stream` chunk format (not the LZ4 frame format), FORMATS.md.
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
//! is an error (tested in `tests/fixtures.rs`), and the block must fill the buffer exactly.

use animbin_core::io::SliceReader;
use animbin_core::strings::{read_varint, write_varint};
use animbin_core::{Error, ErrorKind};

use crate::FORMAT;

/// The largest chunk lz4net writes (its default block size), and the size [`compress`] uses.
pub const CHUNK_SIZE: usize = 1 << 20;

/// Chunk flag bit 0: the chunk holds an LZ4 block.
pub const FLAG_COMPRESSED: u32 = 1;
/// Chunk flag bit 1: the block was made by the high-compression encoder (read the same way).
pub const FLAG_HIGH_COMPRESSION: u32 = 2;

/// The most an LZ4 block can expand: each extra match-length byte adds at most 255 bytes.
const MAX_RATIO: u64 = 255;

/// Decodes the chunks in `data` (which starts at file offset `base`) into the plain bytes,
/// refusing to produce more than `limit` bytes.
pub fn decompress(data: &[u8], base: u64, limit: u64) -> Result<Vec<u8>, Error> {
    let mut reader = SliceReader::new(data);
    let mut out = Vec::new();
    let err = |at: u64, kind: ErrorKind| Error::new(FORMAT, base + at, kind);
    while !reader.rest().is_empty() {
        let chunk_at = reader.position();
        let flags = chunk_varint(&mut reader, base, "flags")?;
        if flags & !(FLAG_COMPRESSED | FLAG_HIGH_COMPRESSION) != 0 {
            return Err(err(
                chunk_at,
                ErrorKind::invalid("LZ4 chunk flags with only bits 0 and 1 set", format!("{flags:#x}")),
            ));
        }
        let length_at = reader.position();
        let original = u64::from(chunk_varint(&mut reader, base, "originalLength")?);
        let compressed = if flags & FLAG_COMPRESSED != 0 {
            Some(u64::from(chunk_varint(&mut reader, base, "compressedLength")?))
        } else {
            None
        };
        let total = out.len() as u64 + original;
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
        match compressed {
            None => out.extend_from_slice(bytes),
            Some(size) => {
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
                let start = out.len();
                out.resize(start + original as usize, 0);
                let decoded = lz4_flex::block::decompress_into(bytes, &mut out[start..])
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
    }
    Ok(out)
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
            let _ = write_varint(&mut out, FLAG_COMPRESSED);
            let _ = write_varint(&mut out, chunk.len() as u32);
            let _ = write_varint(&mut out, block.len() as u32);
            out.extend_from_slice(&block);
        } else {
            let _ = write_varint(&mut out, 0);
            let _ = write_varint(&mut out, chunk.len() as u32);
            out.extend_from_slice(chunk);
        }
    }
    out
}
