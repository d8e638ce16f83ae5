//! Writing: the header and track bytes of an [`Animation`], compressed with its encoding,
//! and the stored bytes of an [`AnimXFile`].

use std::io::Write;

use animbin_core::io::{MatchingWriter, write_to_vec};
use animbin_core::strings::{DotNetString, VarInt};
use animbin_core::{Endian, Error, ErrorKind};
use binrw::BinWrite;
use binrw::io::NoSeek;

use crate::layout::{Encoding, Header};
use crate::model::{AnimXFile, Animation, ReadOptions};
use crate::{FORMAT, lz4, lzma};

/// Encodes `animation` (with its own [`Animation::encoding`]) into `writer`.
pub fn write(animation: &Animation, mut writer: impl Write) -> Result<(), Error> {
    let bytes = to_bytes(animation)?;
    writer
        .write_all(&bytes)
        .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Io(e)))
}

/// Encodes `animation` (with its own [`Animation::encoding`]) into a new byte vector.
pub fn to_bytes(animation: &Animation) -> Result<Vec<u8>, Error> {
    animation.encode()?.to_bytes()
}

impl AnimXFile {
    /// The file's bytes: the header, then the stored data as it is.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = self.header_bytes()?;
        out.extend_from_slice(&self.data);
        Ok(out)
    }

    /// The header's bytes (what comes before [`AnimXFile::data`]).
    pub fn header_bytes(&self) -> Result<Vec<u8>, Error> {
        write_to_vec(FORMAT, &self.header, Endian::Little)
    }
}

impl Animation {
    /// The tracks' plain bytes (what follows the header of a plain file).
    ///
    /// A track that cannot be encoded is an error that names it: `track 2 ("Hips",
    /// "rotation"): 3 keyframe times for 2 values`, at its offset in the plain track bytes.
    pub fn tracks_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = std::io::Cursor::new(Vec::new());
        for (index, track) in self.tracks.iter().enumerate() {
            track
                .write_options(&mut out, Endian::Little, (self.version,))
                .map_err(|e| {
                    let mut e = Error::from_binrw(FORMAT, e, out.position());
                    if let ErrorKind::Unencodable(why) = &mut e.kind {
                        *why = format!("track {index} {}: {why}", track.label());
                    }
                    e
                })?;
        }
        Ok(out.into_inner())
    }

    /// The header this animation is written with.
    pub fn header(&self) -> Result<Header, Error> {
        if self.version != 0 && self.version != 1 {
            return Err(Error::new(
                FORMAT,
                6,
                ErrorKind::Unencodable(format!("version {} (only 0 and 1 exist)", self.version)),
            ));
        }
        let track_count = u32::try_from(self.tracks.len())
            .ok()
            .filter(|&n| n <= i32::MAX as u32)
            .ok_or_else(|| {
                Error::new(
                    FORMAT,
                    10,
                    ErrorKind::Unencodable(format!(
                        "track count {} (a 7-bit int holds at most {})",
                        self.tracks.len(),
                        i32::MAX
                    )),
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

    /// Whether writing this animation keeping `original` ([`Animation::encode_keeping`])
    /// gives `original` back: the same header, and tracks that encode to its plain track
    /// bytes. The tracks are encoded into a comparison, not into memory, and the comparison
    /// stops at the first byte that differs. A track that cannot be encoded is not an error
    /// here: it gives `false`, and encoding it reports it.
    pub fn still_encodes_to(&self, original: &AnimXFile, options: &ReadOptions) -> Result<bool, Error> {
        let Ok(header) = self.header() else {
            return Ok(false);
        };
        // Headers compared as bytes: a NaN duration never equals itself.
        let same_header =
            header == original.header || write_to_vec(FORMAT, &header, Endian::Little)? == original.header_bytes()?;
        if !same_header {
            return Ok(false);
        }
        let Ok(stored) = original.tracks_bytes(options) else {
            return Ok(false);
        };
        let mut matches = NoSeek::new(MatchingWriter::new(&stored));
        for track in &self.tracks {
            if track
                .write_options(&mut matches, Endian::Little, (self.version,))
                .is_err()
            {
                return Ok(false);
            }
        }
        Ok(matches.into_inner().matched_all())
    }

    /// Encodes like [`Animation::encode`], but gives back `original` itself when it holds
    /// exactly this animation, so an unchanged compressed file keeps its bytes.
    pub fn encode_keeping(&self, original: &AnimXFile, options: &ReadOptions) -> Result<AnimXFile, Error> {
        let header = self.header()?;
        let plain = self.tracks_bytes()?;
        // Headers compared as bytes: a NaN duration never equals itself.
        let same_header = header == original.header
            || write_to_vec(FORMAT, &header, Endian::Little)?
                == write_to_vec(FORMAT, &original.header, Endian::Little)?;
        if same_header && original.tracks_bytes(options).is_ok_and(|stored| *stored == *plain) {
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
}
