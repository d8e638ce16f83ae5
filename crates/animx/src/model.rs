//! The owned model: an [`Animation`], and an [`AnimXFile`] that keeps a file's stored
//! (possibly compressed) bytes; decoding one into the other is an explicit step.

use std::borrow::Cow;

use animbin_core::Error;

use crate::layout::{Encoding, Header, Track, read_header, read_tracks};
use crate::{DECOMPRESSED, FORMAT, lz4, lzma};

/// Options for reading: how much decompressed data a file may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// The most bytes the LZ4 or LZMA data may decompress to; more is an error, not an allocation.
    pub max_decompressed_size: u64,
}

/// The default [`ReadOptions::max_decompressed_size`]: 256 MiB.
pub const DEFAULT_DECOMPRESSION_LIMIT: u64 = 256 << 20;

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            max_decompressed_size: DEFAULT_DECOMPRESSION_LIMIT,
        }
    }
}

/// A file as stored: the header and the bytes after it, still compressed for LZ4 and LZMA,
/// so an unchanged file is written back byte for byte. [`AnimXFile::decode`] is the separate,
/// explicit step to the owned [`Animation`].
#[derive(Debug, Clone, PartialEq)]
pub struct AnimXFile {
    /// The header.
    pub header: Header,
    /// Everything after the encoding byte: the tracks (plain) or their compressed form.
    pub data: Vec<u8>,
}

impl AnimXFile {
    /// Reads the header and keeps the rest of the bytes as they are.
    ///
    /// The header's 7-bit ints must be minimal, as .NET's `Write7BitEncodedInt` writes them,
    /// so that the header writes back to the same bytes (an error names the first byte that
    /// would differ).
    pub fn read(bytes: &[u8]) -> Result<Self, Error> {
        let (header, at) = read_header(bytes)?;
        Ok(Self {
            header,
            data: bytes[at..].to_vec(),
        })
    }

    /// The size of the header in bytes (the file offset of [`AnimXFile::data`]).
    pub fn header_size(&self) -> u64 {
        // The magic (6), version (4), the varint, duration (4), the name and the encoding byte.
        let varint = |n: u32| (1..5).find(|&k| n < 1 << (7 * k)).unwrap_or(5);
        let name_len = self.header.name.len() as u32;
        (6 + 4 + varint(self.header.track_count.0) + 4 + varint(name_len) + name_len + 1) as u64
    }

    /// The plain track bytes: the data itself, or its decompressed form.
    pub fn tracks_bytes(&self, options: &ReadOptions) -> Result<Cow<'_, [u8]>, Error> {
        plain_tracks(self.header.encoding, &self.data, self.header_size(), options)
    }

    /// Decompresses (when needed) and decodes the tracks into the owned model.
    ///
    /// Errors inside decompressed data give the offset in the decompressed bytes and the
    /// format name `"animx (decompressed)"`; errors in a plain file give file offsets.
    pub fn decode(&self, options: &ReadOptions) -> Result<Animation, Error> {
        decode(&self.header, &self.data, self.header_size(), options)
    }
}

/// Reads and decodes a whole file: the header, then the tracks straight from `bytes` (plain)
/// or from their one decompressed copy, without keeping the stored bytes.
pub(crate) fn read_animation(bytes: &[u8], options: &ReadOptions) -> Result<Animation, Error> {
    let (header, at) = read_header(bytes)?;
    decode(&header, &bytes[at..], at as u64, options)
}

/// Decodes the tracks stored in `data` (at file offset `base`) under `header`.
fn decode(header: &Header, data: &[u8], base: u64, options: &ReadOptions) -> Result<Animation, Error> {
    let tracks = match header.encoding {
        Encoding::Plain => read_tracks(data, base, header, FORMAT)?,
        _ => read_tracks(
            &plain_tracks(header.encoding, data, base, options)?,
            0,
            header,
            DECOMPRESSED,
        )?,
    };
    Ok(Animation {
        version: header.version,
        name: header.name.0.clone(),
        global_duration: header.global_duration,
        encoding: header.encoding,
        tracks,
    })
}

/// The header of a file and its plain track bytes: borrowed from `bytes` for a plain file,
/// decompressed (within `options`) for LZ4 and LZMA. The reader's first step without the
/// copy of the stored bytes; with [`crate::View::from_tracks`] it summarises a compressed
/// file in the time of its decompression.
pub fn tracks_of<'a>(bytes: &'a [u8], options: &ReadOptions) -> Result<(Header, Cow<'a, [u8]>), Error> {
    let (header, at) = read_header(bytes)?;
    let tracks = plain_tracks(header.encoding, &bytes[at..], at as u64, options)?;
    Ok((header, tracks))
}

/// `data` (at offset `base` of the file) as plain track bytes.
fn plain_tracks<'a>(
    encoding: Encoding,
    data: &'a [u8],
    base: u64,
    options: &ReadOptions,
) -> Result<Cow<'a, [u8]>, Error> {
    let limit = options.max_decompressed_size;
    Ok(match encoding {
        Encoding::Plain => Cow::Borrowed(data),
        Encoding::Lz4 => Cow::Owned(lz4::decompress(data, base, limit)?),
        Encoding::Lzma => Cow::Owned(lzma::decompress_container(data, base, limit)?),
    })
}

/// An animation: the owned model of an AnimX (or AnimJ) file.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// The file version: 1 (current) or 0 (one-byte track headers, no Discrete tracks).
    pub version: i32,
    /// The animation's name.
    pub name: String,
    /// The length in seconds.
    pub global_duration: f32,
    /// How [`Animation::encode`] stores the tracks.
    pub encoding: Encoding,
    /// The tracks.
    pub tracks: Vec<Track>,
}

impl Default for Animation {
    fn default() -> Self {
        Self {
            version: 1,
            name: String::new(),
            global_duration: 0.0,
            encoding: Encoding::Plain,
            tracks: Vec::new(),
        }
    }
}

impl Animation {
    /// The sum of every track's keyframe count.
    pub fn keyframe_count(&self) -> usize {
        self.tracks.iter().map(Track::keyframe_count).sum()
    }
}
