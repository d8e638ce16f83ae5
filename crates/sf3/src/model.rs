//! The owned model of an x8an file: segments of slots of keyed channels, in the file's own
//! fixed-point units, plus the padding and end marker that make a rewrite byte-identical.

use animbin_core::{Fixed16, Quat, Rot14, Vec3};
use serde::{Deserialize, Serialize};

/// The most zero words a run of padding may hold (256 KiB of zeros), in a file and in the
/// model: far more than sector alignment needs, and it keeps a small dump from asking the
/// writer for gigabytes.
pub const MAX_PADDING_WORDS: u32 = u16::MAX as u32;

/// A whole x8an file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Sf3File {
    /// The segments, in file order (at least one).
    pub segments: Vec<Segment>,
    /// Zero words after the last segment, before the end marker or the end of the file
    /// (at most [`MAX_PADDING_WORDS`]).
    pub padding_words: u32,
    /// How the file ends.
    pub ending: Ending,
}

/// How an x8an file ends after its last segment and padding.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The file simply ends.
    #[default]
    Eof,
    /// A word `0xFFFFFFFF` where the next segment would start, and then whatever bytes
    /// follow it (the game stops reading at the marker; they are kept so a rewrite is
    /// byte-identical).
    EndMarker {
        /// The bytes after the marker.
        trailing: Vec<u8>,
    },
}

/// One segment: a data section and a slot table, one slot per bone.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Segment {
    /// Zero words before this segment (at most [`MAX_PADDING_WORDS`]).
    pub padding_words: u32,
    /// The slots, in slot table order.
    pub slots: Vec<Slot>,
}

/// One slot: the keys of one bone.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Slot {
    /// Translation keys (SGL `POINT`: 16.16 x, y, z).
    pub translation: Vec<Key<Vec3<Fixed16>>>,
    /// Rotation keys (quaternion x, y, z, w of i16 / 16384).
    pub rotation: Vec<Key<Quat<Rot14>>>,
    /// Scale keys (16.16 x, y, z; normally one key of 1.0).
    pub scale: Vec<Key<Vec3<Fixed16>>>,
}

/// One key: a time and a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Key<T> {
    /// The time in ticks (frames; the file states no rate).
    pub time: u16,
    /// The value.
    pub value: T,
}

impl<T> Key<T> {
    /// A key at `time` with `value`.
    pub const fn new(time: u16, value: T) -> Self {
        Self { time, value }
    }
}

impl Sf3File {
    /// The number of slots over all segments.
    pub fn slot_count(&self) -> usize {
        self.segments.iter().map(|s| s.slots.len()).sum()
    }

    /// The number of keys of each channel (translation, rotation, scale) over all slots.
    pub fn key_counts(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for slot in self.segments.iter().flat_map(|s| &s.slots) {
            counts[0] += slot.translation.len();
            counts[1] += slot.rotation.len();
            counts[2] += slot.scale.len();
        }
        counts
    }
}

impl Slot {
    /// The times of one channel, in key order.
    pub fn times(&self, channel: crate::Channel) -> Vec<u16> {
        match channel {
            crate::Channel::Translation => self.translation.iter().map(|k| k.time).collect(),
            crate::Channel::Rotation => self.rotation.iter().map(|k| k.time).collect(),
            crate::Channel::Scale => self.scale.iter().map(|k| k.time).collect(),
        }
    }
}
