//! The on-disk layout, record by record, in file order.
//!
//! ```text
//! 05 "AnimX"        magic: a .NET string
//! i32 version       0 or 1
//! varint tracks     7-bit encoded int
//! f32 duration      seconds
//! string name       .NET string (varint length, UTF-8)
//! u8 encoding       0 plain, 1 LZ4, 2 LZMA; the rest of the file is stored this way:
//! track * tracks
//! ```
//!
//! Every track is a header (track type and value type), the node and property strings, a
//! keyframe count (7-bit varint) and a body that depends on the type:
//!
//! | kind | body |
//! |---|---|
//! | Raw | `f32 interval`, then `count` values |
//! | Discrete | `count` times (`f32 time`, value) |
//! | Curve | `u8 flags` ([`CurveFlags`]), interpolation byte(s), `count` times (value, `f32 time`), then `count` tangent pairs (right, left) when flag bit 1 is set |
//!
//! The track records double as the owned model ([`Track`] and its bodies): each field is
//! listed once, here.

use std::io::{Read, Seek, SeekFrom, Write};

use animbin_core::io::{SliceReader, check_count, read_pod_vec, write_to_vec};
use animbin_core::strings::{DotNetString, VarInt, read_dotnet_string, write_dotnet_string};
use animbin_core::{Error, ErrorKind, binary_enum};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};

use crate::value::{ValueType, Values};
use crate::{FORMAT, MAGIC};

binary_enum! {
    /// How the track data after the header is stored (the header's last byte).
    #[derive(Default)]
    pub enum Encoding: u8 {
        /// The tracks follow as they are.
        #[default]
        Plain = 0 => "plain",
        /// lz4net `LZ4Stream` chunks: each chunk is a varint flags word (bit 0: compressed),
        /// the varint original length, the varint compressed length when compressed, and then
        /// a raw LZ4 block or the stored bytes.
        Lz4 = 1 => "lz4",
        /// An Elements LZMAHelper container: five LZMA1 property bytes, `u64` decompressed size,
        /// `u64` compressed size, then raw LZMA1 data.
        Lzma = 2 => "lzma",
    }
    expected = "an encoding 0 (plain), 1 (LZ4) or 2 (LZMA)";
}

/// The header, in file order (the wiki's "Binary structure").
#[binrw]
#[brw(little, magic = b"\x05AnimX")]
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The file version, an `i32` (every known writer stores four bytes; the wiki's "Byte"
    /// is wrong); 0 or 1.
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
    pub encoding: Encoding,
}

/// Reads the header at the start of `bytes` (refusing padded 7-bit ints, which would not
/// write back the same); returns it and its size.
pub(crate) fn read_header(bytes: &[u8]) -> Result<(Header, usize), Error> {
    // Checked here rather than by binrw, whose error shows the bytes as a Rust array.
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if !MAGIC.starts_with(start) {
        let hex = animbin_core::strings::hex(start);
        return Err(Error::new(
            FORMAT,
            0,
            ErrorKind::invalid(
                "the magic 0x05416e696d58 (\"AnimX\" as a .NET string)",
                format!("0x{hex}"),
            ),
        ));
    }
    let mut reader = SliceReader::new(bytes);
    let header = Header::read_options(&mut reader, Endian::Little, ()).map_err(|e| reader.error(FORMAT, e))?;
    let at = reader.position() as usize;
    // The header's 7-bit ints must be minimal, as .NET's `Write7BitEncodedInt` writes them,
    // so that the header writes back to the same bytes.
    let canonical = write_to_vec(FORMAT, &header, Endian::Little)?;
    if canonical[..] != bytes[..at] {
        let first = canonical.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(0);
        return Err(Error::new(
            FORMAT,
            first as u64,
            ErrorKind::invalid("a minimal 7-bit encoded int (as .NET writes them)", "a padded one"),
        ));
    }
    Ok((header, at))
}

/// Reads `header.track_count` tracks that fill `bytes`, which start at offset `base` of the
/// input that errors name (`format`).
pub(crate) fn read_tracks(bytes: &[u8], base: u64, header: &Header, format: &'static str) -> Result<Vec<Track>, Error> {
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

binary_enum! {
    /// The kind of a track (the wiki's `TrackType`), with the name AnimJ uses. Bezier (3) has
    /// no known layout and is refused.
    pub enum TrackType: u8 {
        /// Evenly spaced values with no times.
        Raw = 0 => "Raw",
        /// Values at times, held until the next.
        Discrete = 1 => "Discrete",
        /// Values at times with an interpolation each, and optional tangents.
        Curve = 2 => "Curve",
    }
    expected = "a track type 0..=2 (Raw, Discrete, Curve)";
}

binary_enum! {
    /// How a curve goes from one keyframe to the next (`KeyframeInterpolation`), with the
    /// name AnimJ uses.
    #[derive(Default)]
    pub enum Interpolation: u8 {
        /// Keep the keyframe's value until the next keyframe.
        #[default]
        Hold = 0 => "Hold",
        /// Straight line to the next keyframe.
        Linear = 1 => "Linear",
        /// Hermite curve through the keyframes' tangents.
        Tangent = 2 => "Tangent",
        /// Cubic Bézier with the tangents as control points.
        CubicBezier = 3 => "CubicBezier",
    }
    expected = "an interpolation 0..=3 (Hold, Linear, Tangent, CubicBezier)";
}

/// A track's first byte(s): its type and its value type.
///
/// Version 1 stores two bytes (`u8 trackType`, `u8 valueType`); version 0 stores one byte `b`
/// with trackType = Curve if `b & 1` else Raw, and valueType = `b >> 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackHeader {
    /// The file version the header is stored for (0 or 1).
    pub version: i32,
    /// The kind of track.
    pub track_type: TrackType,
    /// The type of its values.
    pub value_type: ValueType,
}

impl BinRead for TrackHeader {
    type Args<'a> = (i32,);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (version,): (i32,)) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        let first = u8::read_options(reader, endian, ())?;
        let (track_type, value_id) = if version == 0 {
            let kind = if first & 1 != 0 {
                TrackType::Curve
            } else {
                TrackType::Raw
            };
            (kind, first >> 1)
        } else {
            let kind = match first {
                3 => {
                    return Err(ErrorKind::invalid(
                        "a Raw, Discrete or Curve track (Bezier tracks, type 3, have no known layout and are not supported)",
                        "track type 3 (Bezier)",
                    )
                    .at(pos));
                }
                other => TrackType::try_from(other).map_err(|kind| kind.at(pos))?,
            };
            (kind, u8::read_options(reader, endian, ())?)
        };
        let value_pos = if version == 0 { pos } else { pos + 1 };
        let value_type = ValueType::from_id(value_id)
            .ok_or_else(|| ErrorKind::invalid("a value type id 0..=39", value_id).at(value_pos))?;
        Ok(Self {
            version,
            track_type,
            value_type,
        })
    }
}

impl BinWrite for TrackHeader {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, (): ()) -> BinResult<()> {
        if self.version == 0 {
            let curve = match self.track_type {
                TrackType::Raw => 0,
                TrackType::Curve => 1,
                TrackType::Discrete => {
                    return Err(ErrorKind::Unencodable(
                        "a Discrete track in a version 0 file (version 0 has only Raw and Curve)".into(),
                    )
                    .at(writer.stream_position()?));
                }
            };
            ((self.value_type as u8) << 1 | curve).write_options(writer, endian, ())
        } else {
            self.track_type.write_options(writer, endian, ())?;
            (self.value_type as u8).write_options(writer, endian, ())
        }
    }
}

/// One track of the owned model.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The node (object) the track animates.
    pub node: String,
    /// The property of that node.
    pub property: String,
    /// The keyframes, by kind.
    pub data: TrackData,
}

/// The body of a track, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum TrackData {
    /// Evenly spaced values.
    Raw(RawTrack),
    /// Values at times.
    Discrete(DiscreteTrack),
    /// Interpolated values at times.
    Curve(CurveTrack),
}

/// A Raw track's body: `f32 interval`, then the values back to back.
#[binrw]
#[br(little, import(value_type: ValueType, count: u32))]
#[bw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct RawTrack {
    /// Seconds between two consecutive values (the first is at time 0).
    pub interval: f32,
    /// `count` values of the track's value type.
    #[br(parse_with = parse_run, args(value_type, count))]
    #[bw(write_with = write_run)]
    pub values: Values,
}

/// A Discrete track's body: `count` times (`f32 time`, value).
#[binrw]
#[br(little, import(value_type: ValueType, count: u32))]
#[bw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct DiscreteTrack {
    /// The keyframes, each stored time first.
    #[br(args(value_type, count, KeyOrder::TimeFirst))]
    #[bw(args(KeyOrder::TimeFirst))]
    pub keyframes: Keyframes,
}

/// A Curve track's body.
#[binrw]
#[br(little, import(value_type: ValueType, count: u32, duration: f32))]
#[bw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct CurveTrack {
    /// Which optional parts follow ([`CurveFlags`]); derived from the track when writing.
    #[br(temp, try_map = CurveFlags::from_byte)]
    #[bw(calc = CurveFlags::of(interpolation, tangents), map = |f: CurveFlags| f.bits())]
    flags: CurveFlags,
    /// One interpolation per keyframe (flag bit 0) or one for all of them.
    #[br(args(flags.contains(CurveFlags::PER_KEYFRAME_INTERPOLATION), count))]
    pub interpolation: Interpolations,
    /// The keyframes and the order they were found in (see [`Keyframes::read_curve`]).
    #[br(temp, parse_with = Keyframes::read_curve, args(value_type, count, duration))]
    #[bw(ignore)]
    read_keys: (Keyframes, KeyOrder),
    /// The keyframes, written (value, time) as the wiki orders them.
    #[br(calc = read_keys.0)]
    #[bw(args(KeyOrder::ValueFirst))]
    pub keyframes: Keyframes,
    /// One (left, right) tangent per keyframe when flag bit 1 is set; stored (right, left).
    #[br(if(flags.contains(CurveFlags::TANGENTS)), args(value_type, count, read_keys.1))]
    pub tangents: Option<Tangents>,
}

bitflags::bitflags! {
    /// A Curve track's flags byte. No writer sets the other bits and their meaning is
    /// unknown, so a byte with any of them is refused when reading rather than kept; the
    /// model holds no flags (they follow from [`CurveTrack::interpolation`] and
    /// [`CurveTrack::tangents`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct CurveFlags: u8 {
        /// One interpolation byte per keyframe (else one shared byte).
        const PER_KEYFRAME_INTERPOLATION = 1;
        /// Tangent pairs follow the keyframes.
        const TANGENTS = 2;
    }
}

impl CurveFlags {
    /// The flags of a stored byte; a byte with other bits set is an error.
    pub fn from_byte(byte: u8) -> Result<Self, ErrorKind> {
        Self::from_bits(byte)
            .ok_or_else(|| ErrorKind::invalid("curve flags with only bits 0 and 1 used", format!("{byte:#04x}")))
    }

    /// The flags a curve with these interpolations and tangents is written with.
    pub fn of(interpolation: &Interpolations, tangents: &Option<Tangents>) -> Self {
        let mut flags = Self::empty();
        flags.set(
            Self::PER_KEYFRAME_INTERPOLATION,
            matches!(interpolation, Interpolations::PerKeyframe(_)),
        );
        flags.set(Self::TANGENTS, tangents.is_some());
        flags
    }
}

impl CurveTrack {
    /// A curve track with the given keyframes, per-keyframe interpolation only when the
    /// interpolations differ (the rule for AnimJ -> AnimX).
    pub fn new(keyframes: Keyframes, interpolations: Vec<Interpolation>, tangents: Option<Tangents>) -> Self {
        Self {
            interpolation: Interpolations::canonical(interpolations),
            keyframes,
            tangents,
        }
    }
}

/// Where a curve's interpolation is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interpolations {
    /// One byte for every keyframe (flag bit 0 clear).
    Shared(Interpolation),
    /// One byte per keyframe (flag bit 0 set).
    PerKeyframe(Vec<Interpolation>),
}

impl Interpolations {
    /// `Shared` when every entry is the same (`Hold` when there are none), else `PerKeyframe`.
    pub fn canonical(interpolations: Vec<Interpolation>) -> Self {
        match interpolations.first() {
            None => Self::Shared(Interpolation::Hold),
            Some(&first) if interpolations.iter().all(|&i| i == first) => Self::Shared(first),
            Some(_) => Self::PerKeyframe(interpolations),
        }
    }

    /// The interpolation of keyframe `index`.
    pub fn get(&self, index: usize) -> Option<Interpolation> {
        match self {
            Self::Shared(i) => Some(*i),
            Self::PerKeyframe(all) => all.get(index).copied(),
        }
    }
}

impl BinRead for Interpolations {
    type Args<'a> = (bool, u32);
    fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (per_key, count): (bool, u32)) -> BinResult<Self> {
        if per_key {
            // One copy of the bytes, then each checked, an error at its own offset.
            let pos = reader.stream_position()?;
            let bytes: Vec<u8> = read_pod_vec(reader, endian, u64::from(count), "interpolation")?;
            let all = bytes
                .iter()
                .enumerate()
                .map(|(i, &b)| Interpolation::try_from(b).map_err(|kind| kind.at(pos + i as u64)))
                .collect::<BinResult<Vec<_>>>()?;
            Ok(Self::PerKeyframe(all))
        } else {
            Interpolation::read_options(reader, endian, ()).map(Self::Shared)
        }
    }
}

impl BinWrite for Interpolations {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, (): ()) -> BinResult<()> {
        match self {
            Self::Shared(i) => i.write_options(writer, endian, ()),
            Self::PerKeyframe(all) => all.write_options(writer, endian, ()),
        }
    }
}

/// The order of time and value inside a keyframe (and of the tangents inside a pair).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyOrder {
    /// (time, value): every Discrete track; Curve tracks of one third-party writer, whose
    /// tangent pairs are then (left, right).
    TimeFirst,
    /// (value, time): Curve tracks as the wiki describes them, tangent pairs (right, left).
    ValueFirst,
}

/// Keyframe times (seconds) and values, one of each per keyframe.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyframes {
    /// The time of each keyframe, in seconds.
    pub times: Vec<f32>,
    /// The value of each keyframe.
    pub values: Values,
}

impl Keyframes {
    /// The number of keyframes (the number of times).
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Reads a Curve track's keyframes in the wiki's (value, time) order; when that gives
    /// times that are not non-decreasing within [0, duration] and (time, value) does,
    /// takes the latter (one third-party writer's order). Returns the order used, which the
    /// tangents follow.
    pub fn read_curve<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (value_type, count, duration): (ValueType, u32, f32),
    ) -> BinResult<(Self, KeyOrder)> {
        let start = reader.stream_position()?;
        let seed = Self::read_options(reader, endian, (value_type, count, KeyOrder::ValueFirst));
        if let Ok(keys) = &seed {
            if times_in_order(&keys.times, duration) {
                return seed.map(|k| (k, KeyOrder::ValueFirst));
            }
        }
        let seed_end = reader.stream_position()?;
        reader.seek(SeekFrom::Start(start))?;
        if let Ok(other) = Self::read_options(reader, endian, (value_type, count, KeyOrder::TimeFirst)) {
            if times_in_order(&other.times, duration) {
                return Ok((other, KeyOrder::TimeFirst));
            }
        }
        reader.seek(SeekFrom::Start(seed_end))?;
        seed.map(|k| (k, KeyOrder::ValueFirst))
    }
}

/// Whether every time is finite, inside [0, duration] and not before the previous one.
pub(crate) fn times_in_order(times: &[f32], duration: f32) -> bool {
    times.iter().all(|&t| (0.0..=duration).contains(&t)) && times.windows(2).all(|w| w[0] <= w[1])
}

impl BinRead for Keyframes {
    type Args<'a> = (ValueType, u32, KeyOrder);
    fn read_options<R: Read + Seek>(
        reader: &mut R,
        _: Endian,
        (value_type, count, order): (ValueType, u32, KeyOrder),
    ) -> BinResult<Self> {
        let (times, values) = Values::read_keyed(reader, value_type, count, order == KeyOrder::TimeFirst)?;
        Ok(Self { times, values })
    }
}

impl BinWrite for Keyframes {
    type Args<'a> = (KeyOrder,);
    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (order,): (KeyOrder,)) -> BinResult<()> {
        self.values
            .write_keyed(writer, &self.times, order == KeyOrder::TimeFirst)
    }
}

/// The tangents of a curve's keyframes, one left and one right per keyframe.
#[derive(Debug, Clone, PartialEq)]
pub struct Tangents {
    /// The incoming tangent of each keyframe.
    pub left: Values,
    /// The outgoing tangent of each keyframe.
    pub right: Values,
}

impl BinRead for Tangents {
    type Args<'a> = (ValueType, u32, KeyOrder);
    fn read_options<R: Read + Seek>(
        reader: &mut R,
        _: Endian,
        (value_type, count, order): (ValueType, u32, KeyOrder),
    ) -> BinResult<Self> {
        let (first, second) = Values::read_pairs(reader, value_type, count)?;
        Ok(match order {
            KeyOrder::ValueFirst => Self {
                right: first,
                left: second,
            },
            KeyOrder::TimeFirst => Self {
                left: first,
                right: second,
            },
        })
    }
}

impl BinWrite for Tangents {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
        // The wiki's order: right, then left.
        self.right.write_pairs(&self.left, writer)
    }
}

#[binrw::parser(reader)]
fn parse_run(value_type: ValueType, count: u32) -> BinResult<Values> {
    Values::read_run(reader, value_type, count)
}

#[binrw::writer(writer)]
fn write_run(values: &Values) -> BinResult<()> {
    values.write_run(writer)
}

impl Track {
    /// The track's kind.
    pub fn track_type(&self) -> TrackType {
        match self.data {
            TrackData::Raw(_) => TrackType::Raw,
            TrackData::Discrete(_) => TrackType::Discrete,
            TrackData::Curve(_) => TrackType::Curve,
        }
    }

    /// The values of its keyframes (of a Raw track, its values).
    fn values(&self) -> &Values {
        match &self.data {
            TrackData::Raw(raw) => &raw.values,
            TrackData::Discrete(d) => &d.keyframes.values,
            TrackData::Curve(c) => &c.keyframes.values,
        }
    }

    /// The type of its values.
    pub fn value_type(&self) -> ValueType {
        self.values().value_type()
    }

    /// The number of keyframes (values, for a Raw track).
    pub fn keyframe_count(&self) -> usize {
        self.values().len()
    }

    /// The time of the last keyframe (of the last value, for a Raw track), in seconds.
    pub fn end_time(&self) -> f32 {
        match &self.data {
            TrackData::Raw(raw) => raw.values.len().saturating_sub(1) as f32 * raw.interval,
            TrackData::Discrete(d) => d.keyframes.times.last().copied().unwrap_or(0.0),
            TrackData::Curve(c) => c.keyframes.times.last().copied().unwrap_or(0.0),
        }
    }

    /// The node and property, quoted: `("Hips", "rotation")`, to name the track in messages.
    pub fn label(&self) -> String {
        format!("(\"{}\", \"{}\")", self.node, self.property)
    }

    /// Why this track cannot be written as it is (columns of different lengths or types), if so.
    pub fn check_encodable(&self) -> Result<(), String> {
        let value_type = self.value_type();
        let n = self.keyframe_count();
        let keys = |k: &Keyframes| {
            if k.times.len() == k.values.len() {
                Ok(())
            } else {
                Err(format!(
                    "{} keyframe times for {} values",
                    k.times.len(),
                    k.values.len()
                ))
            }
        };
        match &self.data {
            TrackData::Raw(_) => Ok(()),
            TrackData::Discrete(d) => keys(&d.keyframes),
            TrackData::Curve(c) => {
                keys(&c.keyframes)?;
                if let Interpolations::PerKeyframe(all) = &c.interpolation {
                    if all.len() != n {
                        return Err(format!("{} interpolations for {n} keyframes", all.len()));
                    }
                }
                if let Some(t) = &c.tangents {
                    for (side, column) in [("left", &t.left), ("right", &t.right)] {
                        if column.value_type() != value_type || column.len() != n {
                            return Err(format!(
                                "{} {side} tangents of type {} for {n} keyframes of type {value_type}",
                                column.len(),
                                column.value_type()
                            ));
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

impl BinRead for Track {
    type Args<'a> = (i32, f32);
    fn read_options<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        (version, duration): (i32, f32),
    ) -> BinResult<Self> {
        let header = TrackHeader::read_options(reader, endian, (version,))?;
        let node = read_dotnet_string(reader)?;
        let property = read_dotnet_string(reader)?;
        let count = VarInt::read_options(reader, endian, ())?.0;
        let value_type = header.value_type;
        let data = match header.track_type {
            TrackType::Raw => TrackData::Raw(RawTrack::read_options(reader, endian, (value_type, count))?),
            TrackType::Discrete => {
                TrackData::Discrete(DiscreteTrack::read_options(reader, endian, (value_type, count))?)
            }
            TrackType::Curve => {
                TrackData::Curve(CurveTrack::read_options(reader, endian, (value_type, count, duration))?)
            }
        };
        Ok(Self { node, property, data })
    }
}

impl BinWrite for Track {
    type Args<'a> = (i32,);
    fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, (version,): (i32,)) -> BinResult<()> {
        let pos = writer.stream_position()?;
        // The errors say what cannot be encoded; the caller adds which track it is
        // ([`Track::label`]).
        self.check_encodable()
            .map_err(|why| ErrorKind::Unencodable(why).at(pos))?;
        let count = u32::try_from(self.keyframe_count())
            .ok()
            .filter(|&n| n <= i32::MAX as u32)
            .ok_or_else(|| {
                ErrorKind::Unencodable(format!(
                    "keyframe count {} (a 7-bit int holds at most {})",
                    self.keyframe_count(),
                    i32::MAX
                ))
                .at(pos)
            })?;
        TrackHeader {
            version,
            track_type: self.track_type(),
            value_type: self.value_type(),
        }
        .write_options(writer, endian, ())?;
        write_dotnet_string(writer, &self.node)?;
        write_dotnet_string(writer, &self.property)?;
        VarInt(count).write_options(writer, endian, ())?;
        match &self.data {
            TrackData::Raw(raw) => raw.write_options(writer, endian, ()),
            TrackData::Discrete(d) => d.write_options(writer, endian, ()),
            TrackData::Curve(c) => c.write_options(writer, endian, ()),
        }
    }
}
