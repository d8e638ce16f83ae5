//! The on-disk layout of an SEAnim v1 file as binrw types, in file order.
//!
//! Counts, `frame_t` / `bone_t` widths and `headerSize` are not stored in the model: they are
//! derived from the data when writing (`#[bw(try_calc)]`), so they cannot disagree with it.
//!
//! The header, its flags and the whole file ([`SeAnim`]) are here; the bone block (modifiers,
//! bones and their key runs) and the notes are in `records`, and the SEBlend trailer that may
//! follow the last block in `trailer`.

use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::io::{BoundedArgs, bounded_vec, read_pod_field};
use animbin_core::seblend::Trailer;
use animbin_core::strings::NulString;
use animbin_core::{ErrorKind, IndexWidth};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use bitflags::bitflags;
use serde::{Deserialize, Serialize};

use crate::keys::Precision;

mod records;
mod trailer;

pub use records::{Bone, Channel, Modifier, Note};
pub(crate) use trailer::parse_trailer;
pub use trailer::{BlendKey, BlendShape, SeBlend};

use records::{read_bones, write_bones, write_modifiers, write_notes};
use trailer::{read_trailer, write_trailer};

/// Byte offsets of the header fields (the header starts after the 6-byte magic and the
/// 2-byte version, and spans offsets 8..36).
pub(crate) mod offsets {
    /// `headerSize`.
    pub const HEADER_SIZE: u64 = 8;
    /// `animType`.
    pub const ANIM_TYPE: u64 = 10;
    /// `animFlags`.
    pub const ANIM_FLAGS: u64 = 11;
    /// `dataPresenceFlags`.
    pub const DATA_PRESENCE_FLAGS: u64 = 12;
    /// `dataPropertyFlags`.
    pub const DATA_PROPERTY_FLAGS: u64 = 13;
    /// `reserved1`.
    pub const RESERVED1: u64 = 14;
    /// `frameCount`.
    pub const FRAME_COUNT: u64 = 20;
    /// `boneCount`.
    pub const BONE_COUNT: u64 = 24;
    /// `boneAnimModifierCount`.
    pub const MODIFIER_COUNT: u64 = 28;
    /// `reserved2`.
    pub const RESERVED2: u64 = 29;
    /// `noteCount`.
    pub const NOTE_COUNT: u64 = 32;
    /// The end of the 0x1C-byte header, where its extra bytes (if any) and then the blocks start.
    pub const HEADER_END: u64 = 36;
}

/// The file's first six bytes, `"SEAnim"`.
pub const MAGIC: &[u8] = &MAGIC_BYTES;

/// [`MAGIC`] as the array the header's `magic` field holds.
const MAGIC_BYTES: [u8; 6] = *b"SEAnim";

/// The smallest `headerSize`: the header's 0x1C bytes, counting `headerSize` itself.
pub const HEADER_SIZE: u16 = 0x1C;

animbin_core::binary_enum! {
    /// `SEANIM_TYPE`: how the keys combine with the pose the animation plays over.
    #[derive(Default)]
    pub enum AnimType: u8 {
        /// `SEANIM_TYPE_ABSOLUTE` (0): keys are complete local transforms.
        #[default]
        Absolute = 0 => "absolute",
        /// `SEANIM_TYPE_ADDITIVE` (1): keys add to whatever is playing.
        Additive = 1 => "additive",
        /// `SEANIM_TYPE_RELATIVE` (2): keys are offsets from the bind pose.
        Relative = 2 => "relative",
        /// `SEANIM_TYPE_DELTA` (3): the first bone carries the whole model's motion.
        Delta = 3 => "delta",
    }
    expected = "an anim type from 0 (absolute) to 3 (delta)";
    serde = names;
}

// The three header flag bytes. Each is a newtype over the raw `u8`, so binrw reads and writes
// the byte as it is and serde dumps it as a plain number; `bitflags` gives the named bits.
// Bits the specification reserves ("always false") have no name: they are kept as read, and
// `reserved_bits` lists the ones that are set.

/// `SEANIM_FLAGS`, the header's `animFlags`; bits 1..7 are reserved.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AnimFlags(u8);

bitflags! {
    impl AnimFlags: u8 {
        /// `SEANIM_LOOPED`: the animation loops.
        const LOOPED = 1;
    }
}

/// `SEANIM_PRESENCE_FLAGS`, the header's `dataPresenceFlags`: which blocks the file has;
/// bits 3..5 are reserved.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PresenceFlags(u8);

bitflags! {
    impl PresenceFlags: u8 {
        /// `SEANIM_BONE_LOC`: every bone has a location key run.
        const LOC = 1;
        /// `SEANIM_BONE_ROT`: every bone has a rotation key run.
        const ROT = 2;
        /// `SEANIM_BONE_SCALE`: every bone has a scale key run.
        const SCALE = 4;
        /// `SEANIM_PRESENCE_BONE`: any of the three; the bone block is present.
        const BONE = 7;
        /// `SEANIM_PRESENCE_NOTE`: the note block is present.
        const NOTE = 0x40;
        /// `SEANIM_PRESENCE_CUSTOM`: the custom block is present.
        const CUSTOM = 0x80;
    }
}

/// `SEANIM_PROPERTY_FLAGS`, the header's `dataPropertyFlags`; bits 1..7 are reserved.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PropertyFlags(u8);

bitflags! {
    impl PropertyFlags: u8 {
        /// `SEANIM_PRECISION_HIGH`: key values are `double`s (the framerate stays a `float`).
        const PRECISION_HIGH = 1;
    }
}

animbin_core::reserved_bits!(AnimFlags, PresenceFlags, PropertyFlags);

impl PresenceFlags {
    /// Whether the bone block (names, modifiers, bone data) is present.
    pub const fn has_bones(self) -> bool {
        self.intersects(Self::BONE)
    }
}

impl PropertyFlags {
    /// The precision of key values.
    pub const fn precision(self) -> Precision {
        if self.contains(Self::PRECISION_HIGH) {
            Precision::Double
        } else {
            Precision::Single
        }
    }
}

/// Which rule chose `frame_t` from `frameCount`.
///
/// Every tool since 2017 uses [`FrameWidthRule::Current`]; the first specification text shows the older
/// rule, which differs only at `frameCount` 256 and 65536. Reading tries the
/// older rule only there, and only when the current one does not parse to the end; writing
/// always uses the current rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FrameWidthRule {
    /// `frameCount <= 0xFF` gives u8, `<= 0xFFFF` u16, else u32.
    #[default]
    Current,
    /// `frameCount - 1 <= 0xFF` gives u8, `<= 0xFFFF` u16, else u32 (the first specification text).
    Legacy,
}

impl FrameWidthRule {
    /// The width of `frame_t` for `frame_count`.
    pub fn width(self, frame_count: u32) -> IndexWidth {
        match self {
            Self::Current => IndexWidth::for_count(u64::from(frame_count)),
            Self::Legacy => IndexWidth::for_count(u64::from(frame_count.saturating_sub(1))),
        }
    }
}

/// Header counts whose block is absent (its presence flag is clear), kept so that such a file
/// is rewritten byte for byte. The format's consistency rules make them zero: our writer keeps
/// them only as read, refuses them next to a present block, and `validate` reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct StrayCounts {
    /// `boneCount` while no LOC / ROT / SCALE flag is set.
    pub bone_count: u32,
    /// `boneAnimModifierCount` while no LOC / ROT / SCALE flag is set.
    pub bone_anim_modifier_count: u8,
    /// `noteCount` while the NOTE flag is clear.
    pub note_count: u32,
}

impl StrayCounts {
    pub(crate) fn from_header(presence: PresenceFlags, bones: u32, modifiers: u8, notes: u32) -> Self {
        let bones_absent = !presence.has_bones();
        Self {
            bone_count: if bones_absent { bones } else { 0 },
            bone_anim_modifier_count: if bones_absent { modifiers } else { 0 },
            note_count: if presence.contains(PresenceFlags::NOTE) {
                0
            } else {
                notes
            },
        }
    }

    /// Whether every count is zero.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A whole SEAnim v1 file (`SEAnim_File` in the specification), every field kept so that a file that reads is
/// written back byte for byte.
///
/// Not stored, because the writer derives them: `version` (1), `headerSize` (0x1C plus
/// [`SeAnim::header_extra`]), `frameCount` (unless [`SeAnim::fixed_frame_count`]), `boneCount`,
/// `boneAnimModifierCount`, `noteCount`, every key count, the custom block's size, the
/// `frame_t` / `bone_t` widths and the precision of key values (from
/// [`SeAnim::data_property_flags`]).
#[binrw]
#[brw(little)]
#[br(import(rule: FrameWidthRule))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(try_from = "SeAnimFields")]
pub struct SeAnim {
    /// `char magic[6]`: `"SEAnim"`.
    #[br(temp, parse_with = read_magic)]
    #[bw(calc = MAGIC_BYTES)]
    magic: [u8; 6],

    /// `uint16_t version`: 1, the only version.
    #[br(temp, parse_with = read_version)]
    #[bw(calc = 1)]
    version: u16,

    /// `uint16_t headerSize`: the header's size in bytes counting these two; 0x1C, or more
    /// when [`SeAnim::header_extra`] holds bytes.
    #[br(temp, parse_with = read_header_size)]
    #[bw(try_calc = header_size_for(header_extra).map_err(at_field(offsets::HEADER_SIZE)))]
    header_size: u16,

    /// `uint8_t animType`: the default [`AnimType`] of every bone.
    pub anim_type: AnimType,

    /// `uint8_t animFlags`: [`AnimFlags::LOOPED`]; reserved bits kept.
    pub anim_flags: AnimFlags,

    /// `uint8_t dataPresenceFlags`: which blocks are present; reserved bits kept.
    pub data_presence_flags: PresenceFlags,

    /// `uint8_t dataPropertyFlags`: [`PropertyFlags::PRECISION_HIGH`] chooses `double` key
    /// values; reserved bits kept.
    pub data_property_flags: PropertyFlags,

    /// `uint8_t reserved1[2]`: zero in files of every known writer; kept as read.
    pub reserved1: [u8; 2],

    /// `float framerate`: frames per second.
    #[serde(with = "animbin_core::float::dump")]
    pub framerate: f32,

    /// `uint32_t frameCount`: [`SeAnim::fixed_frame_count`], or the largest key or note frame
    /// plus 1.
    #[br(temp)]
    #[bw(try_calc = self.frame_count().map_err(at_field(offsets::FRAME_COUNT)))]
    frame_count: u32,

    /// `uint32_t boneCount`: the number of [`SeAnim::bones`].
    #[br(temp)]
    #[bw(try_calc = self.bone_count().map_err(at_field(offsets::BONE_COUNT)))]
    bone_count: u32,

    /// `uint8_t boneAnimModifierCount`: the number of [`SeAnim::modifiers`].
    #[br(temp)]
    #[bw(try_calc = self.modifier_count().map_err(at_field(offsets::MODIFIER_COUNT)))]
    bone_anim_modifier_count: u8,

    /// `uint8_t reserved2[3]`: zero in files of every known writer; kept as read.
    pub reserved2: [u8; 3],

    /// `uint32_t noteCount`: the number of [`SeAnim::notes`].
    #[br(temp)]
    #[bw(try_calc = self.note_count().map_err(at_field(offsets::NOTE_COUNT)))]
    note_count: u32,

    /// Header bytes past the 0x1C the specification defines (`headerSize` > 0x1C); readers skip them,
    /// we keep them.
    #[br(parse_with = read_pod_field, args(u64::from(header_size - HEADER_SIZE), "extra header byte"))]
    pub header_extra: Vec<u8>,

    /// The rule that chose `frame_t` when the file was read (see [`FrameWidthRule`]):
    /// `Legacy` only for a file that needed the old rule to read, which `validate` warns
    /// about. The writer ignores it and always uses [`FrameWidthRule::Current`], so every
    /// tool reads the rewrite.
    #[br(calc = rule)]
    #[bw(ignore)]
    pub frame_width_rule: FrameWidthRule,

    /// Counts the header holds for absent blocks (see [`StrayCounts`]).
    #[br(calc = StrayCounts::from_header(data_presence_flags, bone_count, bone_anim_modifier_count, note_count))]
    #[bw(ignore)]
    pub stray_counts: StrayCounts,

    /// `string_t bone[boneCount]`: the bone names, moved into [`SeAnim::bones`].
    #[br(temp, if(data_presence_flags.has_bones()), parse_with = bounded_vec)]
    #[br(args_raw = BoundedArgs { count: u64::from(bone_count), min_size: 1, what: "bone name", inner: () })]
    #[bw(if(data_presence_flags.has_bones()), calc = bones.iter().map(|b| NulString(b.name.clone())).collect())]
    bone_names: Vec<NulString>,

    /// `SEAnim_BoneAnimModifier[boneAnimModifierCount]`: bones whose anim type (and their
    /// children's) overrides [`SeAnim::anim_type`], in file order.
    #[br(if(data_presence_flags.has_bones()), parse_with = bounded_vec)]
    #[br(args_raw = BoundedArgs {
        count: u64::from(bone_anim_modifier_count),
        min_size: IndexWidth::for_count(u64::from(bone_count)).size() + 1,
        what: "bone modifier",
        inner: IndexWidth::for_count(u64::from(bone_count)),
    })]
    #[bw(if(data_presence_flags.has_bones()), write_with = write_modifiers)]
    #[bw(args(IndexWidth::for_count(u64::from(bone_count))))]
    pub modifiers: Vec<Modifier>,

    /// `SEAnim_BoneData[boneCount]`, each with its name: the bones' key runs.
    #[br(if(data_presence_flags.has_bones()), parse_with = read_bones)]
    #[br(args(&bone_names, data_presence_flags, frame_width_rule.width(frame_count), data_property_flags.precision()))]
    #[bw(if(data_presence_flags.has_bones()), write_with = write_bones)]
    #[bw(args(*data_presence_flags, FrameWidthRule::Current.width(frame_count), data_property_flags.precision()))]
    pub bones: Vec<Bone>,

    /// `SEAnim_Note notes[noteCount]`, present with the NOTE flag.
    #[br(if(data_presence_flags.contains(PresenceFlags::NOTE)), parse_with = bounded_vec)]
    #[br(args_raw = BoundedArgs {
        count: u64::from(note_count),
        min_size: frame_width_rule.width(frame_count).size() + 1,
        what: "note",
        inner: frame_width_rule.width(frame_count),
    })]
    #[bw(if(data_presence_flags.contains(PresenceFlags::NOTE)), write_with = write_notes)]
    #[bw(args(FrameWidthRule::Current.width(frame_count)))]
    pub notes: Vec<Note>,

    /// `uint32_t size` of the custom block, present with the CUSTOM flag.
    #[br(temp, if(data_presence_flags.contains(PresenceFlags::CUSTOM)))]
    #[bw(ignore)] // written with the bytes, by `write_custom`
    custom_size: u32,

    /// `uint8_t data[size]`: the custom block's bytes, present with the CUSTOM flag.
    #[br(if(data_presence_flags.contains(PresenceFlags::CUSTOM)), parse_with = read_pod_field)]
    #[br(args(u64::from(custom_size), "custom block byte"))]
    #[bw(write_with = write_custom, args(data_presence_flags.contains(PresenceFlags::CUSTOM)))]
    pub custom: Vec<u8>,

    /// Whatever follows the last block: nothing, an SEBlend trailer when one parses exactly
    /// to the end of the file, otherwise the bytes as they are.
    #[br(parse_with = read_trailer)]
    #[bw(write_with = write_trailer)]
    pub trailer: Trailer<SeBlend>,

    /// `frameCount` as stored when it is not the derived value (largest key or note frame
    /// plus 1, or 0 without keys and notes); `None` lets the writer derive it.
    #[br(calc = fixed_frame_count(frame_count, &bones, &notes))]
    #[bw(ignore)]
    pub fixed_frame_count: Option<u32>,
}

/// [`SeAnim`]'s fields as its serde form reads them, key values as `f64`s until the
/// precision flag (which may come after the bones) says what they are.
#[derive(Deserialize)]
struct SeAnimFields {
    anim_type: AnimType,
    anim_flags: AnimFlags,
    data_presence_flags: PresenceFlags,
    data_property_flags: PropertyFlags,
    reserved1: [u8; 2],
    #[serde(with = "animbin_core::float::dump")]
    framerate: f32,
    reserved2: [u8; 3],
    header_extra: Vec<u8>,
    frame_width_rule: FrameWidthRule,
    stray_counts: StrayCounts,
    modifiers: Vec<Modifier>,
    bones: Vec<Bone>,
    notes: Vec<Note>,
    custom: Vec<u8>,
    trailer: Trailer<SeBlend>,
    fixed_frame_count: Option<u32>,
}

impl TryFrom<SeAnimFields> for SeAnim {
    type Error = String;

    /// Holds the key values at the precision of the file (see the crate's `dump` module).
    fn try_from(f: SeAnimFields) -> Result<Self, String> {
        let mut anim = Self {
            anim_type: f.anim_type,
            anim_flags: f.anim_flags,
            data_presence_flags: f.data_presence_flags,
            data_property_flags: f.data_property_flags,
            reserved1: f.reserved1,
            framerate: f.framerate,
            reserved2: f.reserved2,
            header_extra: f.header_extra,
            frame_width_rule: f.frame_width_rule,
            stray_counts: f.stray_counts,
            modifiers: f.modifiers,
            bones: f.bones,
            notes: f.notes,
            custom: f.custom,
            trailer: f.trailer,
            fixed_frame_count: f.fixed_frame_count,
        };
        crate::dump::to_file_precision(&mut anim)?;
        Ok(anim)
    }
}

fn header_size_for(extra: &[u8]) -> Result<u16, ErrorKind> {
    u16::try_from(extra.len())
        .ok()
        .and_then(|n| n.checked_add(HEADER_SIZE))
        .ok_or_else(|| {
            ErrorKind::Unencodable(format!(
                "{} extra header bytes do not fit the u16 headerSize",
                extra.len()
            ))
        })
}

pub(crate) fn fixed_frame_count(stored: u32, bones: &[Bone], notes: &[Note]) -> Option<u32> {
    (u64::from(stored) != derived_frame_count(bones, notes)).then_some(stored)
}

/// The largest key or note frame plus 1, or 0 without keys and notes (as a u64: a frame of
/// `u32::MAX` gives a count that `frameCount` cannot hold).
pub(crate) fn derived_frame_count(bones: &[Bone], notes: &[Note]) -> u64 {
    let keys = bones
        .iter()
        .flat_map(|b| [b.location.max_frame(), b.rotation.max_frame(), b.scale.max_frame()]);
    let notes = notes.iter().map(|n| Some(n.frame));
    keys.chain(notes).flatten().max().map_or(0, |f| u64::from(f) + 1)
}

impl SeAnim {
    /// The `frameCount` the writer stores: [`SeAnim::fixed_frame_count`] or the derived one.
    pub fn frame_count(&self) -> Result<u32, ErrorKind> {
        if let Some(n) = self.fixed_frame_count {
            return Ok(n);
        }
        u32::try_from(derived_frame_count(&self.bones, &self.notes)).map_err(|_| {
            ErrorKind::Unencodable("a key or note at frame 4294967295 leaves no room for frameCount".into())
        })
    }

    /// The width of `frame_t` in the file this model was read from (under
    /// [`SeAnim::frame_width_rule`]); see [`SeAnim::written_frame_width`] for the writer's.
    pub fn frame_width(&self) -> Result<IndexWidth, ErrorKind> {
        Ok(self.frame_width_rule.width(self.frame_count()?))
    }

    /// The width of `frame_t` that the writer uses: the current rule's, whatever rule read
    /// the file.
    pub fn written_frame_width(&self) -> Result<IndexWidth, ErrorKind> {
        Ok(FrameWidthRule::Current.width(self.frame_count()?))
    }

    /// The width of `bone_t` (modifier bone indices) in this file.
    pub fn bone_width(&self) -> Result<IndexWidth, ErrorKind> {
        Ok(IndexWidth::for_count(u64::from(self.bone_count()?)))
    }

    /// The precision of key values.
    pub fn precision(&self) -> Precision {
        self.data_property_flags.precision()
    }

    /// Whether [`AnimFlags::LOOPED`] is set.
    pub fn looped(&self) -> bool {
        self.anim_flags.contains(AnimFlags::LOOPED)
    }

    /// The `boneCount` the writer stores.
    pub fn bone_count(&self) -> Result<u32, ErrorKind> {
        if self.data_presence_flags.has_bones() {
            if self.stray_counts.bone_count != 0 || self.stray_counts.bone_anim_modifier_count != 0 {
                return Err(ErrorKind::Unencodable(
                    "stray bone counts are for files without a bone block, but LOC, ROT or SCALE is set".into(),
                ));
            }
            u32::try_from(self.bones.len())
                .map_err(|_| ErrorKind::Unencodable(format!("{} bones overflow boneCount", self.bones.len())))
        } else if !self.bones.is_empty() || !self.modifiers.is_empty() {
            Err(ErrorKind::Unencodable(format!(
                "{} bones and {} modifiers, but no LOC, ROT or SCALE flag to write them under",
                self.bones.len(),
                self.modifiers.len()
            )))
        } else {
            Ok(self.stray_counts.bone_count)
        }
    }

    /// The `boneAnimModifierCount` the writer stores.
    pub fn modifier_count(&self) -> Result<u8, ErrorKind> {
        if self.data_presence_flags.has_bones() {
            u8::try_from(self.modifiers.len()).map_err(|_| {
                ErrorKind::Unencodable(format!(
                    "{} bone modifiers overflow the u8 boneAnimModifierCount (255 at most)",
                    self.modifiers.len()
                ))
            })
        } else {
            Ok(self.stray_counts.bone_anim_modifier_count)
        }
    }

    /// The `noteCount` the writer stores.
    pub fn note_count(&self) -> Result<u32, ErrorKind> {
        if self.data_presence_flags.contains(PresenceFlags::NOTE) {
            if self.stray_counts.note_count != 0 {
                return Err(ErrorKind::Unencodable(
                    "a stray note count is for files without a note block, but NOTE is set".into(),
                ));
            }
            u32::try_from(self.notes.len())
                .map_err(|_| ErrorKind::Unencodable(format!("{} notes overflow noteCount", self.notes.len())))
        } else if !self.notes.is_empty() {
            Err(ErrorKind::Unencodable(format!(
                "{} notes, but the NOTE flag is clear",
                self.notes.len()
            )))
        } else {
            Ok(self.stray_counts.note_count)
        }
    }

    /// The anim type of the bone at `index`: the last modifier naming it, or the file's.
    ///
    /// This is the bone's own override; children of a modifier bone inherit it through a
    /// hierarchy that SEAnim does not store.
    pub fn bone_anim_type(&self, index: usize) -> AnimType {
        self.modifiers
            .iter()
            .rev()
            .find(|m| m.bone as usize == index)
            .map_or(self.anim_type, |m| m.anim_type)
    }
}

// ---------------------------------------------------------------------------------------
// The custom parse and write functions the derives above name.

pub(crate) use animbin_core::strings::show_bytes as shown;

fn read_magic<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<[u8; 6]> {
    let pos = reader.stream_position()?;
    let mut magic = [0; 6];
    reader.read_exact(&mut magic)?;
    if magic != MAGIC_BYTES {
        return Err(ErrorKind::invalid("the magic \"SEAnim\"", shown(&magic)).at(pos));
    }
    Ok(magic)
}

fn read_version<R: Read + Seek>(reader: &mut R, endian: Endian, (): ()) -> BinResult<u16> {
    let pos = reader.stream_position()?;
    match u16::read_options(reader, endian, ())? {
        1 => Ok(1),
        other => Err(ErrorKind::invalid("version 1", other).at(pos)),
    }
}

fn read_header_size<R: Read + Seek>(reader: &mut R, endian: Endian, (): ()) -> BinResult<u16> {
    let pos = reader.stream_position()?;
    let size = u16::read_options(reader, endian, ())?;
    if size < HEADER_SIZE {
        return Err(ErrorKind::invalid(
            "a headerSize of at least 0x1C (it counts its own two bytes)",
            format!("{size:#x}"),
        )
        .at(pos));
    }
    Ok(size)
}

#[allow(clippy::ptr_arg)] // binrw's `write_with` passes `&Vec<u8>`.
fn write_custom<W: Write + Seek>(
    bytes: &Vec<u8>,
    writer: &mut W,
    endian: Endian,
    (present,): (bool,),
) -> BinResult<()> {
    let pos = writer.stream_position()?;
    if present {
        let size = u32::try_from(bytes.len()).map_err(|_| {
            ErrorKind::Unencodable(format!(
                "a custom block of {} bytes overflows its u32 size",
                bytes.len()
            ))
            .at(pos)
        })?;
        size.write_options(writer, endian, ())?;
        writer.write_all(bytes)?;
    } else if !bytes.is_empty() {
        return Err(ErrorKind::Unencodable(format!(
            "a custom block of {} bytes, but the CUSTOM flag is clear",
            bytes.len()
        ))
        .at(pos));
    }
    Ok(())
}

/// A header value the writer cannot encode, with the field's offset from the start of the
/// file: binrw reports a `try_calc` error at the start of the struct, so the writer adds
/// this offset to it.
#[derive(Debug)]
pub(crate) struct HeaderFieldError {
    /// The field's offset from the start of the file.
    pub offset: u64,
    /// What cannot be encoded.
    pub message: String,
}

impl fmt::Display for HeaderFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Turns a header field's [`ErrorKind`] into a [`HeaderFieldError`] at `offset`.
pub(crate) fn at_field(offset: u64) -> impl Fn(ErrorKind) -> HeaderFieldError {
    move |kind| HeaderFieldError {
        offset,
        message: match kind {
            ErrorKind::Unencodable(message) => message,
            other => other.to_string(),
        },
    }
}
