//! The records of the bone block and the notes: each bone's anim type override
//! ([`Modifier`]), each bone's flags and location, rotation and scale key runs ([`Bone`],
//! [`Channel`]), and the notes ([`Note`]), with the parse and write functions their derives
//! and [`SeAnim`](super::SeAnim)'s name.

use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::io::check_count;
use animbin_core::strings::{NulString, read_cstring_field, write_cstring_field};
use animbin_core::{ErrorKind, IndexWidth, Quat, Vec3};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::{Deserialize, Serialize};

use super::{AnimType, PresenceFlags};
use crate::keys::{KeyValue, Keys, Precision, read_run, write_run};

/// The three key channels of a bone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// Location keys (`SEANIM_BONE_LOC`).
    Location,
    /// Rotation keys (`SEANIM_BONE_ROT`).
    Rotation,
    /// Scale keys (`SEANIM_BONE_SCALE`).
    Scale,
}

impl Channel {
    /// The presence flag of the channel.
    pub const fn flag(self) -> PresenceFlags {
        match self {
            Self::Location => PresenceFlags::LOC,
            Self::Rotation => PresenceFlags::ROT,
            Self::Scale => PresenceFlags::SCALE,
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Location => "location",
            Self::Rotation => "rotation",
            Self::Scale => "scale",
        })
    }
}

/// `SEAnim_BoneAnimModifier`: a bone whose anim type (and its children's) overrides the file's.
#[binrw]
#[brw(little, import_raw(bone_width: IndexWidth))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Modifier {
    /// `bone_t index`: the bone's index in [`SeAnim::bones`](super::SeAnim::bones).
    #[br(parse_with = read_width, args(bone_width))]
    #[bw(write_with = write_width, args(bone_width))]
    pub bone: u32,
    /// `uint8_t animTypeOverride`.
    pub anim_type: AnimType,
}

/// One bone: its name (from the name list) and `SEAnim_BoneData`.
#[binrw]
#[brw(little)]
#[br(import(name: String, index: usize, presence: PresenceFlags, frame: IndexWidth, precision: Precision))]
#[bw(import(index: usize, presence: PresenceFlags, frame: IndexWidth, precision: Precision))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Bone {
    /// The bone's name, `string_t bone[i]` in the name list before the modifiers.
    #[br(calc = name)]
    #[bw(ignore)]
    pub name: String,

    /// `uint8_t flags`: 0 = default, 1 = cosmetic; other values kept (and reported by `validate`).
    pub flags: u8,

    /// `frame_t locKeyCount; BoneLocData loc[locKeyCount]`, present with `SEANIM_BONE_LOC`.
    #[br(parse_with = read_keys, args(KeyArgs { bone: index, channel: Channel::Location, presence, frame, precision }))]
    #[bw(write_with = write_keys, args(KeyArgs { bone: index, channel: Channel::Location, presence, frame, precision }))]
    pub location: Keys<Vec3<f64>>,

    /// `frame_t rotKeyCount; BoneRotData quats[rotKeyCount]` (x, y, z, w), present with `SEANIM_BONE_ROT`.
    #[br(parse_with = read_keys, args(KeyArgs { bone: index, channel: Channel::Rotation, presence, frame, precision }))]
    #[bw(write_with = write_keys, args(KeyArgs { bone: index, channel: Channel::Rotation, presence, frame, precision }))]
    pub rotation: Keys<Quat<f64>>,

    /// `frame_t scaleKeyCount; BoneScaleData scale[scaleKeyCount]`, present with `SEANIM_BONE_SCALE`.
    #[br(parse_with = read_keys, args(KeyArgs { bone: index, channel: Channel::Scale, presence, frame, precision }))]
    #[bw(write_with = write_keys, args(KeyArgs { bone: index, channel: Channel::Scale, presence, frame, precision }))]
    pub scale: Keys<Vec3<f64>>,
}

impl Bone {
    /// `flags` value 1: a cosmetic bone.
    pub const COSMETIC: u8 = 1;

    /// A bone called `name` with no keys.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    /// Holds each channel's values at `precision` where they survive it bit for bit (every
    /// channel can widen; a channel with a value no `f32` equals stays `f64`, which the
    /// writer narrows to the nearest `f32`).
    pub fn hold_at(&mut self, precision: Precision) {
        fn hold<V: KeyValue>(keys: &mut Keys<V>, precision: Precision) {
            if let Some(held) = keys.to_precision(precision) {
                *keys = held;
            }
        }
        hold(&mut self.location, precision);
        hold(&mut self.rotation, precision);
        hold(&mut self.scale, precision);
    }

    /// Whether `flags` is [`Bone::COSMETIC`].
    pub fn is_cosmetic(&self) -> bool {
        self.flags == Self::COSMETIC
    }
}

/// `SEAnim_Note`: a named event at a frame.
#[binrw]
#[brw(little, import_raw(frame_width: IndexWidth))]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Note {
    /// `frame_t frame`.
    #[br(parse_with = read_width, args(frame_width))]
    #[bw(write_with = write_width, args(frame_width))]
    pub frame: u32,
    /// `string_t name`.
    #[br(parse_with = read_cstring_field)]
    #[bw(write_with = write_cstring_field)]
    pub name: String,
}

// ---------------------------------------------------------------------------------------
// The custom parse and write functions the derives above name.

fn read_width<R: Read + Seek>(reader: &mut R, endian: Endian, (width,): (IndexWidth,)) -> BinResult<u32> {
    width.read(reader, endian)
}

fn write_width<W: Write + Seek>(value: &u32, writer: &mut W, endian: Endian, (width,): (IndexWidth,)) -> BinResult<()> {
    width.write(*value, writer, endian)
}

#[allow(clippy::ptr_arg)] // binrw's `write_with` passes `&Vec<Modifier>`.
pub(super) fn write_modifiers<W: Write + Seek>(
    modifiers: &Vec<Modifier>,
    writer: &mut W,
    endian: Endian,
    (width,): (IndexWidth,),
) -> BinResult<()> {
    for (i, m) in modifiers.iter().enumerate() {
        if m.bone > width.max() {
            let pos = writer.stream_position()?;
            return Err(ErrorKind::Unencodable(format!(
                "bone modifier {i} names bone {}, past the {}-byte bone_t of this file",
                m.bone,
                width.size()
            ))
            .at(pos));
        }
        m.write_options(writer, endian, width)?;
    }
    Ok(())
}

#[allow(clippy::ptr_arg)] // binrw's `write_with` passes `&Vec<Note>`.
pub(super) fn write_notes<W: Write + Seek>(
    notes: &Vec<Note>,
    writer: &mut W,
    endian: Endian,
    (width,): (IndexWidth,),
) -> BinResult<()> {
    for (i, note) in notes.iter().enumerate() {
        let pos = writer.stream_position()?;
        if note.frame > width.max() {
            return Err(ErrorKind::Unencodable(format!(
                "note {i} is at frame {}, past the {}-byte frame_t of this file",
                note.frame,
                width.size()
            ))
            .at(pos));
        }
        if note.name.contains('\0') {
            return Err(ErrorKind::Unencodable(format!("note {i} name: contains a NUL byte")).at(pos + width.size()));
        }
        note.write_options(writer, endian, width)?;
    }
    Ok(())
}

pub(super) fn read_bones<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (names, presence, frame, precision): (&Vec<NulString>, PresenceFlags, IndexWidth, Precision),
) -> BinResult<Vec<Bone>> {
    // Each bone holds at least its flags byte and one frame_t count per present channel.
    let channels = u64::from(presence.intersection(PresenceFlags::BONE).bits().count_ones());
    check_count(reader, "bone data", names.len() as u64, 1 + channels * frame.size())?;
    let mut bones = Vec::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        bones.push(Bone::read_options(
            reader,
            endian,
            (name.0.clone(), index, presence, frame, precision),
        )?);
    }
    Ok(bones)
}

#[allow(clippy::ptr_arg)] // binrw's `write_with` passes `&Vec<Bone>`.
pub(super) fn write_bones<W: Write + Seek>(
    bones: &Vec<Bone>,
    writer: &mut W,
    endian: Endian,
    (presence, frame, precision): (PresenceFlags, IndexWidth, Precision),
) -> BinResult<()> {
    for (index, bone) in bones.iter().enumerate() {
        bone.write_options(writer, endian, (index, presence, frame, precision))?;
    }
    Ok(())
}

/// Arguments of one key run: which bone and channel (for messages), the presence flags, and
/// the file's `frame_t` width and precision.
#[derive(Debug, Clone, Copy)]
struct KeyArgs {
    bone: usize,
    channel: Channel,
    presence: PresenceFlags,
    frame: IndexWidth,
    precision: Precision,
}

fn read_keys<V: KeyValue, R: Read + Seek>(reader: &mut R, endian: Endian, (args,): (KeyArgs,)) -> BinResult<Keys<V>> {
    if !args.presence.contains(args.channel.flag()) {
        return Ok(Keys::default());
    }
    let count = args.frame.read(reader, endian)?;
    let what = format!("bone {} {} key", args.bone, args.channel);
    read_run(reader, count, args.frame, args.precision, &what)
}

fn write_keys<V: KeyValue, W: Write + Seek>(
    keys: &Keys<V>,
    writer: &mut W,
    endian: Endian,
    (args,): (KeyArgs,),
) -> BinResult<()> {
    let pos = writer.stream_position()?;
    if !args.presence.contains(args.channel.flag()) {
        if keys.is_empty() {
            return Ok(());
        }
        return Err(ErrorKind::Unencodable(format!(
            "bone {} has {} {} keys, but the {} presence flag is clear",
            args.bone,
            keys.len(),
            args.channel,
            args.channel
        ))
        .at(pos));
    }
    let count = u32::try_from(keys.len()).ok().filter(|&n| n <= args.frame.max());
    let Some(count) = count else {
        return Err(ErrorKind::Unencodable(format!(
            "bone {} has {} {} keys, more than its {}-byte frame_t count holds",
            args.bone,
            keys.len(),
            args.channel,
            args.frame.size()
        ))
        .at(pos));
    };
    args.frame.write(count, writer, endian)?;
    let what = format!("bone {} {} key", args.bone, args.channel);
    write_run(writer, keys, args.frame, args.precision, &what)
}
