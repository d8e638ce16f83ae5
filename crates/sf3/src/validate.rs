//! Invariants that a file which reads can still break.

use std::fmt;

use animbin_core::{Diagnostic, Location, Problem, Rot14, Severity, non_unit_length};

use crate::layout::Channel;
use crate::model::{Ending, Sf3File};

/// How far a stored rotation's length may be from 1 before [`validate`] warns: the shared
/// [`UNIT_QUATERNION_TOLERANCE`](crate::UNIT_QUATERNION_TOLERANCE), 0.01. The i16 / 16384
/// rounding alone moves a unit quaternion's length by at most 2 / 32768 (about 6e-5), and
/// the game's own data by about 0.001; the fixed-point extremes (-2.0, just under 2.0) and a
/// zero quaternion are far outside.
pub const ROTATION_LENGTH_TOLERANCE: f64 = animbin_core::UNIT_QUATERNION_TOLERANCE;

/// One broken invariant, or a legal but suspicious value; [`validate`] gives it out as a
/// [`Problem`] in its words ([`Problem::from_diagnostic`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Finding {
    /// A key time smaller than the one before it in the same channel.
    TimeGoesBackwards {
        /// The segment index.
        segment: usize,
        /// The slot index within the segment.
        slot: usize,
        /// The channel.
        channel: Channel,
        /// The index of the key whose time is smaller than its predecessor's.
        key: usize,
        /// The previous key's time.
        previous: u16,
        /// This key's time.
        time: u16,
    },
    /// A warning: a rotation whose length is not 1 (within [`ROTATION_LENGTH_TOLERANCE`]),
    /// so it is not a rotation quaternion.
    RotationNotUnit {
        /// The segment index.
        segment: usize,
        /// The slot index within the segment.
        slot: usize,
        /// The rotation key index.
        key: usize,
        /// The length of the stored quaternion.
        length: f64,
    },
    /// A warning: bytes after the `0xFFFFFFFF` end marker, which the game never reads (kept,
    /// so a rewrite is byte-identical).
    BytesAfterEndMarker {
        /// How many.
        count: usize,
    },
}

impl fmt::Display for Finding {
    /// The whole line: the place (when it is a slot), then the message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location() {
            Location::Item(place) => write!(f, "{place}: {}", self.message()),
            _ => f.write_str(&self.message()),
        }
    }
}

/// Key times that go backwards are the one error; rotations that are not unit length and
/// bytes after the end marker are legal, and warnings. The place is the slot (`segment 0
/// slot 2`), or the file for the bytes after the end marker (the model keeps no offsets).
impl Diagnostic for Finding {
    fn severity(&self) -> Severity {
        match self {
            Self::TimeGoesBackwards { .. } => Severity::Error,
            Self::RotationNotUnit { .. } | Self::BytesAfterEndMarker { .. } => Severity::Warning,
        }
    }

    fn location(&self) -> Location {
        match self {
            Self::TimeGoesBackwards { segment, slot, .. } | Self::RotationNotUnit { segment, slot, .. } => {
                Location::Item(format!("segment {segment} slot {slot}"))
            }
            Self::BytesAfterEndMarker { .. } => Location::File,
        }
    }

    fn message(&self) -> String {
        match self {
            Self::TimeGoesBackwards {
                channel,
                key,
                previous,
                time,
                ..
            } => format!("{channel} key {key} at time {time} comes after time {previous}"),
            Self::RotationNotUnit { key, length, .. } => {
                format!("rotation key {key} has length {length:.6}, not 1, so it is no rotation")
            }
            Self::BytesAfterEndMarker { count } => format!("{count} bytes after the end marker"),
        }
    }
}

/// Every broken invariant of `file` (key times that go backwards: errors) and what is legal
/// but suspicious (rotations that are not unit length, bytes after the end marker:
/// warnings), in file order; empty when it is valid. Each is placed at its slot
/// (`segment 0 slot 2`), or at the file for the bytes after the end marker (the model keeps
/// no offsets).
pub fn validate(file: &Sf3File) -> Vec<Problem> {
    findings(file).iter().map(Problem::from_diagnostic).collect()
}

/// The findings of [`validate`], in file order.
fn findings(file: &Sf3File) -> Vec<Finding> {
    let mut problems = Vec::new();
    for (segment_index, segment) in file.segments.iter().enumerate() {
        for (slot_index, slot) in segment.slots.iter().enumerate() {
            for channel in [Channel::Translation, Channel::Rotation, Channel::Scale] {
                let times = slot.times(channel);
                for (key, pair) in times.windows(2).enumerate() {
                    if pair[1] < pair[0] {
                        problems.push(Finding::TimeGoesBackwards {
                            segment: segment_index,
                            slot: slot_index,
                            channel,
                            key: key + 1,
                            previous: pair[0],
                            time: pair[1],
                        });
                    }
                }
            }
            for (key, k) in slot.rotation.iter().enumerate() {
                if let Some(length) = non_unit_length(k.value.map(Rot14::to_f64)) {
                    problems.push(Finding::RotationNotUnit {
                        segment: segment_index,
                        slot: slot_index,
                        key,
                        length,
                    });
                }
            }
        }
    }
    if let Ending::EndMarker { trailing } = &file.ending {
        if !trailing.is_empty() {
            problems.push(Finding::BytesAfterEndMarker { count: trailing.len() });
        }
    }
    problems
}
