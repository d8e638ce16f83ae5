//! A zero-copy view of a plain (or already decompressed) AnimX file.
//!
//! Parsing a view reads the header and walks the tracks once, checking that each one's bytes
//! are inside the input; nothing is copied. Each [`TrackView`] borrows its node and property
//! names and its body, and a Raw track of a fixed-size value type hands out its values as a
//! borrowed slice of little-endian `zerocopy` types ([`RawValues`]). A view accepts exactly
//! the files [`crate::read`] accepts: besides bounds it checks the header, the track, value
//! and interpolation ids and the curve flags (values of fixed-size types have no bytes to
//! refuse), so its cost grows with the tracks, not the keyframes, but for curves with one
//! interpolation byte per keyframe. Tracks of `string` values
//! have no fixed size, so the view parses them to find where they end.

use std::io::{Seek, SeekFrom};

use animbin_core::io::{SliceReader, ViewCursor, slice_at};
use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Rgba8, Vec2, Vec3, Vec4};
use animbin_core::{Endian, Error, ErrorKind};
use binrw::BinRead;
use zerocopy::little_endian::{F32, F64, I16, I32, I64, U16, U32, U64};

use crate::layout::{
    CurveFlags, Encoding, Header, Interpolation, Track, TrackHeader, TrackType, bytes_after_tracks, read_header,
};
use crate::value::ValueType;
use crate::{DECOMPRESSED, FORMAT};

/// A borrowed view of a whole file.
#[derive(Debug, Clone)]
pub struct View<'a> {
    /// The file's header.
    pub header: Header,
    /// The tracks, in file order.
    pub tracks: Vec<TrackView<'a>>,
}

/// One track, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct TrackView<'a> {
    /// The offset of the track's first byte (in the file, or in the decompressed data).
    pub offset: u64,
    /// The kind of track.
    pub track_type: TrackType,
    /// The type of its values.
    pub value_type: ValueType,
    /// The node it animates.
    pub node: &'a str,
    /// The property of the node.
    pub property: &'a str,
    /// The number of keyframes (values, for Raw tracks).
    pub keyframe_count: u32,
    /// The offset of [`TrackView::body`].
    pub body_offset: u64,
    /// The bytes after the keyframe count: the Raw interval and values, the Discrete
    /// keyframes, or the Curve flags, interpolations, keyframes and tangents.
    pub body: &'a [u8],
    /// The whole input the track is in, and its format name for errors.
    input: &'a [u8],
    format: &'static str,
}

/// The values of a Raw track, borrowed from the file: one variant per fixed-size value type.
#[derive(Debug, Clone, Copy)]
pub enum RawValues<'a> {
    /// `bool`: one byte each, non-zero is true.
    Bool(&'a [u8]),
    /// `bool2`: one byte each, x bit 0, y bit 1.
    Bool2(&'a [u8]),
    /// `bool3`: one byte each, bits 0..2.
    Bool3(&'a [u8]),
    /// `bool4`: one byte each, bits 0..3.
    Bool4(&'a [u8]),
    /// `byte`.
    Byte(&'a [u8]),
    /// `ushort`.
    Ushort(&'a [U16]),
    /// `uint`.
    Uint(&'a [U32]),
    /// `ulong`.
    Ulong(&'a [U64]),
    /// `sbyte`.
    Sbyte(&'a [i8]),
    /// `short`.
    Short(&'a [I16]),
    /// `int`.
    Int(&'a [I32]),
    /// `long`.
    Long(&'a [I64]),
    /// `int2`.
    Int2(&'a [Vec2<I32>]),
    /// `int3`.
    Int3(&'a [Vec3<I32>]),
    /// `int4`.
    Int4(&'a [Vec4<I32>]),
    /// `uint2`.
    Uint2(&'a [Vec2<U32>]),
    /// `uint3`.
    Uint3(&'a [Vec3<U32>]),
    /// `uint4`.
    Uint4(&'a [Vec4<U32>]),
    /// `long2`.
    Long2(&'a [Vec2<I64>]),
    /// `long3`.
    Long3(&'a [Vec3<I64>]),
    /// `long4`.
    Long4(&'a [Vec4<I64>]),
    /// `float`.
    Float(&'a [F32]),
    /// `float2`.
    Float2(&'a [Vec2<F32>]),
    /// `float3`.
    Float3(&'a [Vec3<F32>]),
    /// `float4`.
    Float4(&'a [Vec4<F32>]),
    /// `floatQ` (x, y, z, w).
    FloatQ(&'a [Quat<F32>]),
    /// `float2x2` (rows).
    Float2x2(&'a [Mat2<F32>]),
    /// `float3x3` (rows).
    Float3x3(&'a [Mat3<F32>]),
    /// `float4x4` (rows).
    Float4x4(&'a [Mat4<F32>]),
    /// `double`.
    Double(&'a [F64]),
    /// `double2`.
    Double2(&'a [Vec2<F64>]),
    /// `double3`.
    Double3(&'a [Vec3<F64>]),
    /// `double4`.
    Double4(&'a [Vec4<F64>]),
    /// `doubleQ` (x, y, z, w).
    DoubleQ(&'a [Quat<F64>]),
    /// `double2x2` (rows).
    Double2x2(&'a [Mat2<F64>]),
    /// `double3x3` (rows).
    Double3x3(&'a [Mat3<F64>]),
    /// `double4x4` (rows).
    Double4x4(&'a [Mat4<F64>]),
    /// `color` (r, g, b, a).
    Color(&'a [Rgba<F32>]),
    /// `color32` (r, g, b, a).
    Color32(&'a [Rgba8]),
}

impl<'a> View<'a> {
    /// Parses a plain file. A compressed file is an error: decompress it with
    /// [`crate::AnimXFile::tracks_bytes`] and use [`View::from_tracks`].
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let (header, at) = read_header(bytes)?;
        if header.encoding != Encoding::Plain {
            return Err(Error::new(
                FORMAT,
                at as u64 - 1,
                ErrorKind::invalid(
                    "a plain file (decompress LZ4 or LZMA data first)",
                    format!("encoding {}", header.encoding.name()),
                ),
            ));
        }
        let tracks = walk_tracks(bytes, at as u64, &header, FORMAT)?;
        Ok(Self { header, tracks })
    }

    /// Views decompressed track bytes that belong to `header`.
    pub fn from_tracks(header: Header, tracks: &'a [u8]) -> Result<Self, Error> {
        let views = walk_tracks(tracks, 0, &header, DECOMPRESSED)?;
        Ok(Self { header, tracks: views })
    }
}

fn walk_tracks<'a>(
    bytes: &'a [u8],
    start: u64,
    header: &Header,
    format: &'static str,
) -> Result<Vec<TrackView<'a>>, Error> {
    // A track takes at least 4 bytes; refuse a count the input cannot hold before reserving.
    let mut cursor = ViewCursor::new(format, bytes);
    cursor.set_pos(start as usize);
    let count = cursor.check("track", u64::from(header.track_count.0), 4)?;
    let mut tracks = Vec::with_capacity(count);
    let mut at = start;
    for _ in 0..count {
        let track = TrackView::at(bytes, at, header, format)?;
        at = track.end();
        tracks.push(track);
    }
    if at != bytes.len() as u64 {
        return Err(bytes_after_tracks(format, count, at, bytes.len() as u64 - at));
    }
    Ok(tracks)
}

/// Reads a .NET string as a borrowed `&str`.
fn borrowed_string<'a>(reader: &mut SliceReader<'a>) -> binrw::BinResult<&'a str> {
    let start = reader.position();
    let len = animbin_core::strings::read_varint(reader)?;
    let bytes = reader.take_slice(u64::from(len)).ok_or_else(|| {
        ErrorKind::CountTooLarge {
            what: "string byte".into(),
            count: u64::from(len),
            needed: u64::from(len),
            remaining: reader.rest().len() as u64,
        }
        .at(reader.position())
    })?;
    std::str::from_utf8(bytes).map_err(|e| ErrorKind::invalid("a UTF-8 string", e).at(start))
}

impl<'a> TrackView<'a> {
    fn at(bytes: &'a [u8], offset: u64, header: &Header, format: &'static str) -> Result<Self, Error> {
        let mut reader = SliceReader::new(bytes);
        let result = (|| -> binrw::BinResult<Self> {
            reader.seek(SeekFrom::Start(offset))?;
            let th = TrackHeader::read_options(&mut reader, Endian::Little, (header.version,))?;
            let node = borrowed_string(&mut reader)?;
            let property = borrowed_string(&mut reader)?;
            let keyframe_count = animbin_core::strings::read_varint(&mut reader)?;
            let body_at = reader.position();
            let body_len = match th.value_type.fixed_size() {
                Some(size) => fixed_body_len(&mut reader, th.track_type, size as u64, keyframe_count)?,
                None => {
                    // Strings: parse the track to find its end.
                    reader.seek(SeekFrom::Start(offset))?;
                    Track::read_options(&mut reader, Endian::Little, (header.version, header.global_duration))?;
                    reader.position() - body_at
                }
            };
            let body = bytes
                .get(body_at as usize..)
                .and_then(|rest| rest.get(..body_len as usize))
                .ok_or_else(|| {
                    ErrorKind::CountTooLarge {
                        what: format!("{} track body byte", th.track_type.name()),
                        count: body_len,
                        needed: body_len,
                        remaining: (bytes.len() as u64).saturating_sub(body_at),
                    }
                    .at(body_at)
                })?;
            Ok(Self {
                offset,
                track_type: th.track_type,
                value_type: th.value_type,
                node,
                property,
                keyframe_count,
                body_offset: body_at,
                body,
                input: bytes,
                format,
            })
        })();
        result.map_err(|e| reader.error(format, e))
    }

    /// The offset just past the track.
    pub fn end(&self) -> u64 {
        self.body_offset + self.body.len() as u64
    }

    /// A Raw track's interval (seconds between values).
    pub fn interval(&self) -> Option<f32> {
        match (self.track_type, self.body.first_chunk::<4>()) {
            (TrackType::Raw, Some(bytes)) => Some(f32::from_le_bytes(*bytes)),
            _ => None,
        }
    }

    /// A Raw track's values as a borrowed slice; `None` for other kinds and for `string`.
    pub fn raw_values(&self) -> Option<RawValues<'a>> {
        if self.track_type != TrackType::Raw {
            return None;
        }
        let bytes = self.body.get(4..)?;
        let n = u64::from(self.keyframe_count);
        macro_rules! cast {
            ($($variant:ident),*) => {
                match self.value_type {
                    ValueType::String => None,
                    $(ValueType::$variant => slice_at(FORMAT, bytes, 0, n, "value").ok().map(RawValues::$variant),)*
                }
            };
        }
        cast!(
            Bool, Bool2, Bool3, Bool4, Byte, Ushort, Uint, Ulong, Sbyte, Short, Int, Long, Int2, Int3, Int4, Uint2,
            Uint3, Uint4, Long2, Long3, Long4, Float, Float2, Float3, Float4, FloatQ, Float2x2, Float3x3, Float4x4,
            Double, Double2, Double3, Double4, DoubleQ, Double2x2, Double3x3, Double4x4, Color, Color32
        )
    }

    /// Decodes the track into the owned model (every byte checked); `header` is the file's.
    pub fn decode(&self, header: &Header) -> Result<Track, Error> {
        let mut reader = SliceReader::new(self.input);
        let result = reader
            .seek(SeekFrom::Start(self.offset))
            .map_err(binrw::Error::Io)
            .and_then(|_| Track::read_options(&mut reader, Endian::Little, (header.version, header.global_duration)));
        result.map_err(|e| reader.error(self.format, e))
    }
}

/// The size of the body of a track whose values are `size` bytes each.
fn fixed_body_len(reader: &mut SliceReader<'_>, kind: TrackType, size: u64, count: u32) -> binrw::BinResult<u64> {
    let n = u64::from(count);
    Ok(match kind {
        TrackType::Raw => 4 + n * size,
        TrackType::Discrete => n * (4 + size),
        TrackType::Curve => {
            // The flags and interpolation ids are checked as the reader checks them, so that
            // a view exists exactly when the file reads.
            let at = reader.position();
            let flags = CurveFlags::from_byte(u8::read_options(reader, Endian::Little, ())?).map_err(|e| e.at(at))?;
            let interpolations = if flags.contains(CurveFlags::PER_KEYFRAME_INTERPOLATION) {
                n
            } else {
                1
            };
            // One byte per keyframe when they are stored per keyframe: the one walk over
            // keys a fixed-size track needs.
            let ids = reader.take_slice(interpolations).ok_or_else(|| {
                ErrorKind::CountTooLarge {
                    what: "interpolation".into(),
                    count: interpolations,
                    needed: interpolations,
                    remaining: reader.rest().len() as u64,
                }
                .at(reader.position())
            })?;
            if let Some(bad) = ids.iter().position(|&id| Interpolation::from_repr(id).is_none()) {
                return Err(ErrorKind::invalid(
                    "an interpolation 0..=3 (Hold, Linear, Tangent, CubicBezier)",
                    ids[bad],
                )
                .at(at + 1 + bad as u64));
            }
            let tangents = if flags.contains(CurveFlags::TANGENTS) {
                2 * n * size
            } else {
                0
            };
            1 + interpolations + n * (4 + size) + tangents
        }
    })
}
