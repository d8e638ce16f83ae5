//! The file: its header, the stored (possibly compressed) track bytes, and the owned model.

use std::borrow::Cow;

use animbin_core::io::{SliceReader, check_count, write_to_vec};
use animbin_core::strings::{DotNetString, VarInt};
use animbin_core::{Endian, Error, ErrorKind};
use binrw::{BinRead, BinWrite, binrw};

use crate::track::Track;
use crate::{DECOMPRESSED, FORMAT, lz4, lzma};

/// How the track data after the header is stored (the header's last byte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Encoding {
    /// The tracks follow as they are.
    #[default]
    Plain = 0,
    /// lz4net `LZ4Stream` chunks ([`crate::lz4`]).
    Lz4 = 1,
    /// An Elements LZMAHelper container ([`crate::lzma`]).
    Lzma = 2,
}

impl Encoding {
    /// `"plain"`, `"lz4"` or `"lzma"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Plain => "plain",
            Self::Lz4 => "lz4",
            Self::Lzma => "lzma",
        }
    }

    /// The encoding called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Plain, Self::Lz4, Self::Lzma]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

impl TryFrom<u8> for Encoding {
    type Error = ErrorKind;
    fn try_from(byte: u8) -> Result<Self, ErrorKind> {
        match byte {
            0 => Ok(Self::Plain),
            1 => Ok(Self::Lz4),
            2 => Ok(Self::Lzma),
            other => Err(ErrorKind::invalid("an encoding 0 (plain), 1 (LZ4) or 2 (LZMA)", other)),
        }
    }
}

/// The header, in file order (seed `001` "Binary structure", FORMATS.md).
#[binrw]
#[brw(little, magic = b"\x05AnimX")]
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The file version, an `i32` (FORMATS.md: the seed's "Byte" is wrong); 0 or 1.
    #[br(try_map = |v: i32| if v == 0 || v == 1 { Ok(v) } else {
        Err(ErrorKind::invalid("version 0 or 1", v))
    })]
    pub version: i32,
    /// The number of tracks (7-bit varint).
    pub track_count: VarInt,
    /// The animation's length in seconds.
    pub global_duration: f32,
    /// The animation's name (.NET string).
    pub name: DotNetString,
    /// How everything after this byte is stored.
    #[br(try_map = |b: u8| Encoding::try_from(b))]
    #[bw(map = |e: &Encoding| *e as u8)]
    pub encoding: Encoding,
}

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
        let canonical = write_to_vec(FORMAT, &header, Endian::Little)?;
        if canonical[..] != bytes[..at] {
            let first = canonical.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(0);
            return Err(Error::new(
                FORMAT,
                first as u64,
                ErrorKind::invalid("a minimal 7-bit encoded int (as .NET writes them)", "a padded one"),
            ));
        }
        Ok(Self {
            header,
            data: bytes[at..].to_vec(),
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = write_to_vec(FORMAT, &self.header, Endian::Little)?;
        out.extend_from_slice(&self.data);
        Ok(out)
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
        let base = self.header_size();
        let limit = options.max_decompressed_size;
        Ok(match self.header.encoding {
            Encoding::Plain => Cow::Borrowed(&self.data),
            Encoding::Lz4 => Cow::Owned(lz4::decompress(&self.data, base, limit)?),
            Encoding::Lzma => Cow::Owned(lzma::decompress_container(&self.data, base, limit)?),
        })
    }

    /// Decompresses (when needed) and decodes the tracks into the owned model.
    ///
    /// Errors inside decompressed data give the offset in the decompressed bytes and the
    /// format name `"animx (decompressed)"`; errors in a plain file give file offsets.
    pub fn decode(&self, options: &ReadOptions) -> Result<Animation, Error> {
        let tracks = match self.header.encoding {
            Encoding::Plain => decode_tracks(&self.data, self.header_size(), &self.header, FORMAT)?,
            _ => decode_tracks(&self.tracks_bytes(options)?, 0, &self.header, DECOMPRESSED)?,
        };
        Ok(Animation {
            version: self.header.version,
            name: self.header.name.0.clone(),
            global_duration: self.header.global_duration,
            encoding: self.header.encoding,
            tracks,
        })
    }
}

/// Reads the header at the start of `bytes`; returns it and its size.
pub(crate) fn read_header(bytes: &[u8]) -> Result<(Header, usize), Error> {
    let mut reader = SliceReader::new(bytes);
    let header = Header::read_options(&mut reader, Endian::Little, ()).map_err(|e| reader.error(FORMAT, e))?;
    Ok((header, reader.position() as usize))
}

/// Reads `header.track_count` tracks that fill `bytes`, which start at offset `base` of the
/// input that errors name.
pub(crate) fn decode_tracks(
    bytes: &[u8],
    base: u64,
    header: &Header,
    format: &'static str,
) -> Result<Vec<Track>, Error> {
    let mut reader = SliceReader::new(bytes);
    let result = (|| {
        // A track takes at least 4 bytes: its header, two empty strings and a count.
        let count = check_count(&mut reader, "track", u64::from(header.track_count.0), 4)?;
        let mut tracks = Vec::with_capacity(count);
        for _ in 0..count {
            tracks.push(Track::read_options(
                &mut reader,
                Endian::Little,
                (header.version, header.global_duration),
            )?);
        }
        Ok(tracks)
    })();
    let tracks = result.map_err(|e| {
        let mut e = reader.error(format, e);
        e.offset += base;
        e
    })?;
    let end = reader.position();
    if end != bytes.len() as u64 {
        return Err(bytes_after_tracks(
            format,
            tracks.len(),
            base + end,
            bytes.len() as u64 - end,
        ));
    }
    Ok(tracks)
}

/// The error for `more` bytes at `at`, after the last of `count` tracks (no writer leaves any).
pub(crate) fn bytes_after_tracks(format: &'static str, count: usize, at: u64, more: u64) -> Error {
    Error::new(
        format,
        at,
        ErrorKind::invalid(
            format!("the end of the data after {count} tracks"),
            format!("{more} more bytes"),
        ),
    )
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
    /// The tracks' plain bytes (what follows the header of a plain file).
    pub fn tracks_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = std::io::Cursor::new(Vec::new());
        for track in &self.tracks {
            track
                .write_options(&mut out, Endian::Little, (self.version,))
                .map_err(|e| Error::from_binrw(FORMAT, e, out.position()))?;
        }
        Ok(out.into_inner())
    }

    /// The header this animation is written with.
    pub fn header(&self) -> Result<Header, Error> {
        if self.version != 0 && self.version != 1 {
            return Err(Error::new(
                FORMAT,
                6,
                ErrorKind::Unencodable(format!("version {} (0 and 1 exist)", self.version)),
            ));
        }
        let track_count = u32::try_from(self.tracks.len())
            .ok()
            .filter(|&n| n <= i32::MAX as u32)
            .ok_or_else(|| {
                Error::new(
                    FORMAT,
                    10,
                    ErrorKind::Unencodable(format!("{} tracks", self.tracks.len())),
                )
            })?;
        Ok(Header {
            version: self.version,
            track_count: VarInt(track_count),
            global_duration: self.global_duration,
            name: DotNetString(self.name.clone()),
            encoding: self.encoding,
        })
    }

    /// Encodes the tracks and compresses them with [`Animation::encoding`].
    pub fn encode(&self) -> Result<AnimXFile, Error> {
        self.compress(self.header()?, self.tracks_bytes()?)
    }

    /// Encodes like [`Animation::encode`], but gives back `original` itself when it holds
    /// exactly this animation, so an unchanged compressed file keeps its bytes.
    pub fn encode_keeping(&self, original: &AnimXFile, options: &ReadOptions) -> Result<AnimXFile, Error> {
        let header = self.header()?;
        let plain = self.tracks_bytes()?;
        if header == original.header && original.tracks_bytes(options).is_ok_and(|stored| *stored == *plain) {
            return Ok(original.clone());
        }
        self.compress(header, plain)
    }

    /// The file of `header` and the plain track bytes, stored with [`Animation::encoding`].
    fn compress(&self, header: Header, plain: Vec<u8>) -> Result<AnimXFile, Error> {
        let data = match self.encoding {
            Encoding::Plain => plain,
            Encoding::Lz4 => lz4::compress(&plain),
            Encoding::Lzma => lzma::compress_container(&plain)?,
        };
        Ok(AnimXFile { header, data })
    }

    /// The sum of every track's keyframe count.
    pub fn keyframe_count(&self) -> usize {
        self.tracks.iter().map(Track::keyframe_count).sum()
    }
}
