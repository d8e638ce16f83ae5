//! [`Summary`]: an x8an file's counts, as `animbin info` shows them, from the owned model
//! ([`FileFormat::summary`](animbin_core::FileFormat::summary)), from a [`View`] ([`View::summary`])
//! or straight from the bytes by the count-only walk ([`Summary::parse`]), which give the
//! same summary for every file that reads.

use serde::{Deserialize, Serialize};

use crate::layout::SlotEntry;
use crate::model::{Ending, Sf3File};
#[cfg(doc)]
use crate::view::View;

/// The summary of a Shining Force III x8an file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Segments (one animation each).
    pub segment_count: usize,
    /// Slots of all segments (one bone each).
    pub slot_count: u64,
    /// Translation keys of all slots.
    pub translation_key_count: u64,
    /// Rotation keys of all slots.
    pub rotation_key_count: u64,
    /// Scale keys of all slots.
    pub scale_key_count: u64,
    /// All keys.
    pub key_count: u64,
    /// Zero words between and after segments.
    pub padding_words: u64,
    /// The file ends with the `0xFFFFFFFF` end marker.
    pub end_marker: bool,
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of_file(file: &Sf3File) -> Self {
        let [translation, rotation, scale] = file.key_counts().map(|n| n as u64);
        let padding: u64 = file.segments.iter().map(|s| u64::from(s.padding_words)).sum();
        Counts {
            segments: file.segments.len(),
            slots: file.slot_count() as u64,
            keys: [translation, rotation, scale],
            padding_words: padding + u64::from(file.padding_words),
        }
        .summary(matches!(file.ending, Ending::EndMarker { .. }))
    }
}

/// What the walks over the bytes and the view add up, slot entry by slot entry.
#[derive(Default)]
pub(crate) struct Counts {
    /// Segments.
    pub(crate) segments: usize,
    /// Slots.
    pub(crate) slots: u64,
    /// Keys of each channel: translation, rotation, scale.
    pub(crate) keys: [u64; 3],
    /// Zero words before and after the segments.
    pub(crate) padding_words: u64,
}

impl Counts {
    /// Adds the key counts of a slot entry.
    pub(crate) fn add_keys(&mut self, entry: &SlotEntry) {
        self.keys[0] += u64::from(entry.translation_keys);
        self.keys[1] += u64::from(entry.rotation_keys);
        self.keys[2] += u64::from(entry.scale_keys);
    }

    /// The summary of a file with these counts, ending with an end marker or not.
    pub(crate) fn summary(self, end_marker: bool) -> Summary {
        let [translation, rotation, scale] = self.keys;
        Summary {
            segment_count: self.segments,
            slot_count: self.slots,
            translation_key_count: translation,
            rotation_key_count: rotation,
            scale_key_count: scale,
            key_count: translation + rotation + scale,
            padding_words: self.padding_words,
            end_marker,
        }
    }
}
