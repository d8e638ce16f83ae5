//! The fixed-size records of an x8an file, as binrw derive structs in file order.
//!
//! Everything is big-endian (the Saturn's SH-2). The key arrays that these records point at
//! have no fixed place; [`crate::view`] reads them as zero-copy slices.

use binrw::binrw;

/// The word `0xFFFFFFFF`: as a slot entry's translation key count it ends the slot table,
/// and in place of a segment's slot table offset it ends the file.
pub const END_MARKER: u32 = 0xFFFF_FFFF;

/// The size of one [`SlotEntry`] in bytes.
pub const SLOT_ENTRY_SIZE: usize = 64;

/// The first word of a segment (the description's "Data Section").
#[binrw]
#[brw(big)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegmentHeader {
    /// Where the slot table starts, relative to the segment start: the size of the data
    /// section including this word, so at least 4.
    pub slot_table_offset: u32,
}

/// One entry of a slot table (the description's "AnimationSlotEntry"): 16 big-endian u32, three key
/// counts and then 13 offsets relative to the start of the segment (or of whatever chunk
/// holds the table, such as an x8pc model's animation chunk).
///
/// The counts are per channel, not per component: the three translation arrays and the
/// translation times all hold `translation_keys` values, the four rotation arrays and the
/// rotation times `rotation_keys`, the three scale arrays and the scale times `scale_keys`.
#[binrw]
#[brw(big)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SlotEntry {
    /// Number of translation keys; [`END_MARKER`] here ends the table instead.
    pub translation_keys: u32,
    /// Number of rotation keys.
    pub rotation_keys: u32,
    /// Number of scale keys.
    pub scale_keys: u32,
    /// Offset of the translation key times (`u16` each).
    pub translation_times: u32,
    /// Offset of the rotation key times (`u16` each).
    pub rotation_times: u32,
    /// Offset of the scale key times (`u16` each).
    pub scale_times: u32,
    /// Offset of the translation x values (`i32` 16.16 each).
    pub translation_x: u32,
    /// Offset of the translation y values (`i32` 16.16 each).
    pub translation_y: u32,
    /// Offset of the translation z values (`i32` 16.16 each).
    pub translation_z: u32,
    /// Offset of the rotation x values (`i16` / 16384 each). The community's description
    /// calls this the "real part"; the values show it is x.
    pub rotation_x: u32,
    /// Offset of the rotation y values (`i16` / 16384 each; the description's "i").
    pub rotation_y: u32,
    /// Offset of the rotation z values (`i16` / 16384 each; the description's "j").
    pub rotation_z: u32,
    /// Offset of the rotation w values (`i16` / 16384 each; the description's "k").
    pub rotation_w: u32,
    /// Offset of the scale x values (`i32` 16.16 each).
    pub scale_x: u32,
    /// Offset of the scale y values (`i32` 16.16 each).
    pub scale_y: u32,
    /// Offset of the scale z values (`i32` 16.16 each).
    pub scale_z: u32,
}

/// The 13 arrays a [`SlotEntry`] points at, in the order of its offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayKind {
    /// Translation key times.
    TranslationTimes,
    /// Rotation key times.
    RotationTimes,
    /// Scale key times.
    ScaleTimes,
    /// Translation x.
    TranslationX,
    /// Translation y.
    TranslationY,
    /// Translation z.
    TranslationZ,
    /// Rotation x.
    RotationX,
    /// Rotation y.
    RotationY,
    /// Rotation z.
    RotationZ,
    /// Rotation w.
    RotationW,
    /// Scale x.
    ScaleX,
    /// Scale y.
    ScaleY,
    /// Scale z.
    ScaleZ,
}

impl ArrayKind {
    /// All 13, in the order of the offsets in a [`SlotEntry`].
    pub const ALL: [Self; 13] = [
        Self::TranslationTimes,
        Self::RotationTimes,
        Self::ScaleTimes,
        Self::TranslationX,
        Self::TranslationY,
        Self::TranslationZ,
        Self::RotationX,
        Self::RotationY,
        Self::RotationZ,
        Self::RotationW,
        Self::ScaleX,
        Self::ScaleY,
        Self::ScaleZ,
    ];

    /// The field's name in [`SlotEntry`].
    pub fn name(self) -> &'static str {
        match self {
            Self::TranslationTimes => "translation_times",
            Self::RotationTimes => "rotation_times",
            Self::ScaleTimes => "scale_times",
            Self::TranslationX => "translation_x",
            Self::TranslationY => "translation_y",
            Self::TranslationZ => "translation_z",
            Self::RotationX => "rotation_x",
            Self::RotationY => "rotation_y",
            Self::RotationZ => "rotation_z",
            Self::RotationW => "rotation_w",
            Self::ScaleX => "scale_x",
            Self::ScaleY => "scale_y",
            Self::ScaleZ => "scale_z",
        }
    }

    /// The size of one element: 2 for times and rotations, 4 for translations and scales.
    pub fn element_size(self) -> u64 {
        match self {
            Self::TranslationTimes | Self::RotationTimes | Self::ScaleTimes => 2,
            Self::RotationX | Self::RotationY | Self::RotationZ | Self::RotationW => 2,
            _ => 4,
        }
    }

    /// Which key count gives this array's length: 0 translation, 1 rotation, 2 scale.
    pub fn channel(self) -> Channel {
        match self {
            Self::TranslationTimes | Self::TranslationX | Self::TranslationY | Self::TranslationZ => {
                Channel::Translation
            }
            Self::RotationTimes | Self::RotationX | Self::RotationY | Self::RotationZ | Self::RotationW => {
                Channel::Rotation
            }
            Self::ScaleTimes | Self::ScaleX | Self::ScaleY | Self::ScaleZ => Channel::Scale,
        }
    }

    /// The index of this array's offset among the 13 (0 = `translation_times`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The byte offset of this array's offset field inside a [`SlotEntry`].
    pub fn field_offset(self) -> u64 {
        12 + 4 * self.index() as u64
    }
}

/// The three channels of a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// Translation: SGL `POINT`, three 16.16 values.
    Translation,
    /// Rotation: a quaternion x, y, z, w of i16 / 16384.
    Rotation,
    /// Scale: three 16.16 values.
    Scale,
}

impl Channel {
    /// The byte offset of this channel's key count inside a [`SlotEntry`].
    pub fn count_field_offset(self) -> u64 {
        4 * self as u64
    }

    /// The channel's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Translation => "translation",
            Self::Rotation => "rotation",
            Self::Scale => "scale",
        }
    }
}

impl std::fmt::Display for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl SlotEntry {
    /// The key count of `channel`.
    pub fn keys(&self, channel: Channel) -> u32 {
        match channel {
            Channel::Translation => self.translation_keys,
            Channel::Rotation => self.rotation_keys,
            Channel::Scale => self.scale_keys,
        }
    }

    /// The offset of `array`.
    pub fn offset(&self, array: ArrayKind) -> u32 {
        self.offsets()[array.index()]
    }

    /// The 13 offsets in entry order.
    pub fn offsets(&self) -> [u32; 13] {
        [
            self.translation_times,
            self.rotation_times,
            self.scale_times,
            self.translation_x,
            self.translation_y,
            self.translation_z,
            self.rotation_x,
            self.rotation_y,
            self.rotation_z,
            self.rotation_w,
            self.scale_x,
            self.scale_y,
            self.scale_z,
        ]
    }

    /// An entry with the given counts and offsets (in entry order).
    pub fn new(keys: [u32; 3], offsets: [u32; 13]) -> Self {
        let [translation_keys, rotation_keys, scale_keys] = keys;
        let [
            translation_times,
            rotation_times,
            scale_times,
            translation_x,
            translation_y,
            translation_z,
            rotation_x,
            rotation_y,
            rotation_z,
            rotation_w,
            scale_x,
            scale_y,
            scale_z,
        ] = offsets;
        Self {
            translation_keys,
            rotation_keys,
            scale_keys,
            translation_times,
            rotation_times,
            scale_times,
            translation_x,
            translation_y,
            translation_z,
            rotation_x,
            rotation_y,
            rotation_z,
            rotation_w,
            scale_x,
            scale_y,
            scale_z,
        }
    }
}
