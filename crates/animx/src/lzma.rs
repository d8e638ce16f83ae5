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
//! The dictionary size given to the decoder is capped at the output size (no match can reach
//! further back than the output), so a header claiming a 4 GiB dictionary allocates nothing
//! large.
//!
//! Two codecs do the LZMA1 work: liblzma through xz2 (the feature `xz2`, on by default,
//! [`liblzma`]) and the pure-Rust lzma-rust2 (the feature `lzma-rust2`, used only when `xz2`
//! is off, as in the WebAssembly build, where liblzma's C does not build; [`pure`]). The
//! tests below read every LZMA file of the fixtures and corpus with both, and check that
//! each reads what the other writes.

use animbin_core::io::read_from_slice;
use animbin_core::{Endian, Error, ErrorKind};
use binrw::binrw;

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
    decompress_container_with::<Native>(data, base, limit)
}

/// [`decompress_container`] through the codec `C`.
fn decompress_container_with<C: Codec>(data: &[u8], base: u64, limit: u64) -> Result<Vec<u8>, Error> {
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
    let lzma_err = |offset: u64, what: String| at(offset, ErrorKind::invalid("valid LZMA1 data", what));
    match C::decode(props, dict, body, size) {
        Ok(mut out) => {
            out.truncate(size);
            Ok(out)
        }
        Err(Failure::Invalid { at: pos, what }) => Err(lzma_err(HEADER_SIZE as u64 + pos, what)),
        Err(Failure::EndMarker { at: pos, decoded }) => Err(lzma_err(
            HEADER_SIZE as u64 + pos,
            format!("an end marker after {decoded} of {size} bytes"),
        )),
        Err(Failure::Eof { decoded }) => Err(at(
            data.len() as u64,
            ErrorKind::UnexpectedEof {
                expected: format!("more LZMA data: {decoded} of {size} bytes decoded"),
            },
        )),
    }
}

/// Wraps `plain` in an LZMAHelper container (properties, both sizes, raw LZMA1 data).
pub fn compress_container(plain: &[u8]) -> Result<Vec<u8>, Error> {
    compress_container_with::<Native>(plain)
}

/// [`compress_container`] through the codec `C`.
fn compress_container_with<C: Codec>(plain: &[u8]) -> Result<Vec<u8>, Error> {
    let raw =
        C::encode(plain).map_err(|e| Error::new(FORMAT, 0, ErrorKind::Unencodable(format!("LZMA encoder: {e}"))))?;
    let mut out = Vec::with_capacity(HEADER_SIZE + raw.len());
    out.extend_from_slice(&ELEMENTS_PROPERTIES);
    out.extend_from_slice(&(plain.len() as u64).to_le_bytes());
    out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    out.extend_from_slice(&raw);
    Ok(out)
}

/// Why an LZMA1 codec could not decode a container's data.
#[derive(Debug)]
enum Failure {
    /// The data is not valid LZMA1 at about byte `at` of the data.
    Invalid { at: u64, what: String },
    /// The data ends with an end marker at about byte `at` before `decoded` reached the
    /// declared size.
    EndMarker { at: u64, decoded: usize },
    /// The data ran out after `decoded` bytes.
    Eof { decoded: usize },
}

/// An LZMA1 codec over raw data (no header): liblzma through xz2 natively, lzma-rust2 where
/// liblzma does not build (WebAssembly). Both write [`ELEMENTS_PROPERTIES`] (lc 3, lp 0,
/// pb 2, 2 MiB dictionary, preset 6) with an end marker, and read data with or without one,
/// stopping at the declared size.
trait Codec {
    /// Decodes `body` (raw LZMA1 data with the properties byte `props` and dictionary `dict`)
    /// until `size` bytes are out.
    fn decode(props: u8, dict: u32, body: &[u8], size: usize) -> Result<Vec<u8>, Failure>;
    /// Encodes `plain` as raw LZMA1 data with [`ELEMENTS_PROPERTIES`] and an end marker.
    fn encode(plain: &[u8]) -> Result<Vec<u8>, String>;
}

#[cfg(feature = "xz2")]
mod liblzma;
#[cfg(any(feature = "lzma-rust2", test))]
// With both codecs on (the workspace builds the WebAssembly crate natively too), liblzma is
// the one used and the pure codec is compiled for nothing but its tests.
#[cfg_attr(all(feature = "xz2", not(test)), allow(dead_code))]
mod pure;

/// The codec of this build: liblzma where the `xz2` feature is on (the default), else the
/// pure-Rust one.
#[cfg(feature = "xz2")]
type Native = liblzma::Liblzma;
#[cfg(all(not(feature = "xz2"), feature = "lzma-rust2"))]
type Native = pure::LzmaRust2;
#[cfg(not(any(feature = "xz2", feature = "lzma-rust2")))]
compile_error!("animbin-animx needs an LZMA codec: the feature `xz2` (native) or `lzma-rust2` (pure Rust)");

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

    /// Every LZMA container of the fixtures (`testdata/`) and the shared corpus, with the
    /// offset it starts at in its file.
    fn lzma_containers() -> Vec<(std::path::PathBuf, Vec<u8>, usize)> {
        let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut found = Vec::new();
        let mut paths: Vec<_> = std::fs::read_dir(&testdata)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        for path in paths {
            let bytes = std::fs::read(&path).unwrap();
            if let Ok((header, at)) = crate::layout::read_header(&bytes) {
                if header.encoding == crate::Encoding::Lzma {
                    found.push((path, bytes, at));
                }
            }
        }
        assert!(!found.is_empty(), "testdata/ holds no LZMA AnimX file");
        if let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "animx") {
            let path = dir.join("redx-neos-lzmahelper-container.7zbson");
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            found.push((path, bytes, 0));
        }
        found
    }

    #[test]
    fn both_codecs_read_and_write_every_lzma_fixture_and_corpus_file_alike() {
        use super::liblzma::Liblzma;
        use super::pure::LzmaRust2;
        use super::{compress_container_with, decompress_container_with};

        for (path, bytes, at) in lzma_containers() {
            let name = path.display();
            let container = &bytes[at..];
            let native = decompress_container_with::<Liblzma>(container, at as u64, 1 << 30).unwrap();
            let pure = decompress_container_with::<LzmaRust2>(container, at as u64, 1 << 30)
                .unwrap_or_else(|e| panic!("{name}: lzma-rust2: {e}"));
            assert_eq!(native, pure, "{name}: the codecs read different bytes");
            // An unchanged file is written back with its stored container, which both
            // codecs read as the same plain bytes: the same file in either build.
            if at > 0 {
                let document = crate::AnimXDocument::read(&bytes).unwrap();
                assert_eq!(document.to_bytes().unwrap(), bytes, "{name}: not rewritten exactly");
            }
            // What each codec writes, both read back as the plain bytes.
            let by_native = compress_container_with::<Liblzma>(&native).unwrap();
            let by_pure = compress_container_with::<LzmaRust2>(&native).unwrap();
            assert_eq!(by_native[..21 - 8], by_pure[..21 - 8], "{name}: the headers differ");
            for written in [&by_native, &by_pure] {
                assert_eq!(
                    decompress_container_with::<Liblzma>(written, 0, 1 << 30).unwrap(),
                    native,
                    "{name}"
                );
                assert_eq!(
                    decompress_container_with::<LzmaRust2>(written, 0, 1 << 30).unwrap(),
                    native,
                    "{name}"
                );
            }
            // Every truncation of the container is an error with either codec, never a panic.
            let step = (container.len() / 200).max(1);
            for end in (0..container.len()).step_by(step) {
                assert!(decompress_container_with::<Liblzma>(&container[..end], 0, 1 << 30).is_err());
                assert!(decompress_container_with::<LzmaRust2>(&container[..end], 0, 1 << 30).is_err());
            }
        }
    }

    #[test]
    fn the_pure_codec_reports_what_liblzma_reports() {
        use super::pure::LzmaRust2;
        use super::{compress_container_with, decompress_container_with};

        let plain: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 13) as u8).collect();
        let container = compress_container_with::<LzmaRust2>(&plain).unwrap();
        let mut shorter = container.clone();
        shorter[5..13].copy_from_slice(&4000u64.to_le_bytes());
        assert_eq!(
            decompress_container_with::<LzmaRust2>(&shorter, 0, 1 << 20).unwrap(),
            &plain[..4000]
        );
        let mut longer = container.clone();
        longer[5..13].copy_from_slice(&6000u64.to_le_bytes());
        let err = decompress_container_with::<LzmaRust2>(&longer, 0, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("end marker"), "{err}");
        // Garbage data is invalid LZMA1 data, and a cut container runs out.
        let mut garbage = container.clone();
        for b in &mut garbage[21..] {
            *b = 0xFF;
        }
        assert!(decompress_container_with::<LzmaRust2>(&garbage, 0, 1 << 20).is_err());
        let mut cut = container[..container.len() - 10].to_vec();
        let data_size = cut.len() as u64 - 21;
        cut[13..21].copy_from_slice(&data_size.to_le_bytes());
        let err = decompress_container_with::<LzmaRust2>(&cut, 0, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("more LZMA data"), "{err}");
    }
}
