//! The spec invariants that a file can break and still read.
//!
//! Each rule is a [`Finding`], worded through [`Diagnostic`] and handed out as a core
//! [`Problem`].

use std::fmt;

use animbin_core::{Diagnostic, Location, Problem, Severity, non_unit_length};

use crate::layout::{Channel, FrameWidthRule, PresenceFlags, SeAnim, offsets};

/// One broken invariant of an SEAnim file (an error), or a legal but suspicious value (a
/// warning: [`Finding::RotationNotUnit`], [`Finding::OldFrameRule`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Finding {
    /// A key at or past `frameCount`.
    KeyPastFrameCount {
        /// The bone's index.
        bone: usize,
        /// The key's channel.
        channel: Channel,
        /// The key's index in its run.
        key: usize,
        /// The key's frame.
        frame: u32,
        /// The header's `frameCount`.
        frame_count: u32,
    },
    /// A note at or past `frameCount`.
    NotePastFrameCount {
        /// The note's index.
        note: usize,
        /// The note's frame.
        frame: u32,
        /// The header's `frameCount`.
        frame_count: u32,
    },
    /// A modifier naming a bone index at or past `boneCount`.
    ModifierBoneOutOfRange {
        /// The modifier's index.
        modifier: usize,
        /// The bone index it names.
        bone: u32,
        /// The number of bones.
        bone_count: usize,
    },
    /// Neither a bone block nor a note block (the specification asks for at least one data block
    /// besides the custom block).
    NoDataBlock,
    /// A header count that is not zero while the flag of its block is clear.
    CountWithoutFlag {
        /// The header field (`"boneCount"`, `"boneAnimModifierCount"`, `"noteCount"`).
        count: &'static str,
        /// Its value.
        value: u32,
        /// The flag that is clear.
        flag: &'static str,
    },
    /// Reserved ("always false") bits set in a flags byte.
    ReservedBits {
        /// The header field.
        field: &'static str,
        /// The reserved bits that are set.
        bits: u8,
    },
    /// Reserved bytes that are not zero.
    ReservedBytes {
        /// The header field (`"reserved1"` or `"reserved2"`).
        field: &'static str,
        /// The bytes as stored.
        bytes: Vec<u8>,
    },
    /// A bone `flags` byte other than 0 (default) or 1 (cosmetic).
    BoneFlags {
        /// The bone's index.
        bone: usize,
        /// The flags.
        flags: u8,
    },
    /// A warning: rotation keys whose quaternion is not unit length (within
    /// [`UNIT_QUATERNION_TOLERANCE`](crate::UNIT_QUATERNION_TOLERANCE)), so they are no rotation; one per bone, at the first.
    RotationNotUnit {
        /// The bone's index.
        bone: usize,
        /// The first such key's index in the bone's rotation run.
        key: usize,
        /// That key's length.
        length: f64,
        /// How many of the bone's rotation keys are not unit length.
        count: usize,
    },
    /// A warning: the file reads only under the pre-2017 `frame_t` rule (`frameCount - 1`),
    /// which every tool since has dropped; they misread it, and the writer rewrites it with
    /// the current rule.
    OldFrameRule {
        /// The header's `frameCount` (256 or 65536, where the rules differ).
        frame_count: u32,
    },
}

/// The offset of a header field by its name in the specification.
fn header_offset(field: &str) -> Option<u64> {
    Some(match field {
        "animFlags" => offsets::ANIM_FLAGS,
        "dataPresenceFlags" => offsets::DATA_PRESENCE_FLAGS,
        "dataPropertyFlags" => offsets::DATA_PROPERTY_FLAGS,
        "reserved1" => offsets::RESERVED1,
        "boneCount" => offsets::BONE_COUNT,
        "boneAnimModifierCount" => offsets::MODIFIER_COUNT,
        "reserved2" => offsets::RESERVED2,
        "noteCount" => offsets::NOTE_COUNT,
        _ => return None,
    })
}

impl Diagnostic for Finding {
    /// [`Finding::RotationNotUnit`] and [`Finding::OldFrameRule`] are warnings (the file is
    /// legal); every other problem breaks a rule and is an error.
    fn severity(&self) -> Severity {
        match self {
            Self::RotationNotUnit { .. } | Self::OldFrameRule { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// A header field's byte offset (a header never moves); a bone, key, note or modifier by
    /// its index, since where those lie depends on everything before them.
    fn location(&self) -> Location {
        match self {
            Self::KeyPastFrameCount { bone, channel, key, .. } => {
                Location::Item(format!("bone {bone} {channel} key {key}"))
            }
            Self::NotePastFrameCount { note, .. } => Location::Item(format!("note {note}")),
            Self::ModifierBoneOutOfRange { modifier, .. } => Location::Item(format!("bone modifier {modifier}")),
            Self::BoneFlags { bone, .. } => Location::Item(format!("bone {bone}")),
            Self::RotationNotUnit { bone, key, .. } => Location::Item(format!("bone {bone} rotation key {key}")),
            Self::OldFrameRule { .. } => Location::Offset(offsets::FRAME_COUNT),
            Self::NoDataBlock => Location::Offset(offsets::DATA_PRESENCE_FLAGS),
            Self::CountWithoutFlag { count: field, .. }
            | Self::ReservedBits { field, .. }
            | Self::ReservedBytes { field, .. } => header_offset(field).map_or(Location::File, Location::Offset),
        }
    }

    fn message(&self) -> String {
        match self {
            Self::KeyPastFrameCount { frame, frame_count, .. }
            | Self::NotePastFrameCount { frame, frame_count, .. } => {
                format!("frame {frame} is not below frameCount {frame_count}")
            }
            Self::ModifierBoneOutOfRange { bone, bone_count, .. } => {
                format!("names bone {bone}, but there are {bone_count} bones")
            }
            Self::NoDataBlock => "no bone or note block: the file has no data block".into(),
            Self::CountWithoutFlag { count, value, flag } => {
                format!("{count} is {value}, but the {flag} flag is clear")
            }
            Self::ReservedBits { field, bits } => format!("{field} has reserved bits {bits:#04x} set"),
            Self::ReservedBytes { field, bytes } => {
                let hex: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
                format!("{field} is {}, not zero", hex.join(" "))
            }
            Self::BoneFlags { flags, .. } => format!("flags {flags} are neither 0 (default) nor 1 (cosmetic)"),
            Self::RotationNotUnit { length, count, .. } => {
                let more = if *count > 1 {
                    format!(" ({count} of the bone's rotation keys in all)")
                } else {
                    String::new()
                };
                format!("the quaternion has length {length:.6}, not 1, so it is no rotation{more}")
            }
            Self::OldFrameRule { frame_count } => format!(
                "frame_t follows the pre-2017 rule at frameCount {frame_count} (one byte narrower \
                 than every tool since reads); a rewrite uses the current rule"
            ),
        }
    }
}

/// The whole line: the item and what is wrong with it, or, for the header, the field and
/// what is wrong with it (the field names itself; its offset is in [`Diagnostic::location`]).
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location() {
            Location::Item(item) => write!(f, "{item}: {}", self.message()),
            _ => f.write_str(&self.message()),
        }
    }
}

/// Lists every invariant `anim` breaks (errors), then what is legal but suspicious
/// (warnings), as [`Problem`]s; empty for a valid file.
///
/// A header field's problem is placed at its byte offset (a header never moves); a bone,
/// key, note or modifier by its index (`bone 0 location key 3`), since where those lie
/// depends on everything before them.
///
/// Errors: keys and notes below `frameCount`, modifier bones below `boneCount`, at least one
/// data block, no count without its flag, no reserved bit or byte set, bone flags 0 or 1.
/// Warnings: rotation keys that are not unit quaternions (within
/// [`UNIT_QUATERNION_TOLERANCE`](crate::UNIT_QUATERNION_TOLERANCE)), a file that only the old `frame_t` rule reads
/// ([`SeAnim::frame_width_rule`]).
pub fn validate(anim: &SeAnim) -> Vec<Problem> {
    findings(anim).iter().map(Problem::from_diagnostic).collect()
}

/// The findings of [`validate`], in its order.
fn findings(anim: &SeAnim) -> Vec<Finding> {
    let mut problems = Vec::new();
    if let Ok(frame_count) = anim.frame_count() {
        for (b, bone) in anim.bones.iter().enumerate() {
            let mut past = |channel: Channel, frames: &mut dyn Iterator<Item = u32>| {
                for (key, frame) in frames.enumerate().filter(|&(_, f)| f >= frame_count) {
                    problems.push(Finding::KeyPastFrameCount {
                        bone: b,
                        channel,
                        key,
                        frame,
                        frame_count,
                    });
                }
            };
            past(Channel::Location, &mut bone.location.iter().map(|k| k.frame));
            past(Channel::Rotation, &mut bone.rotation.iter().map(|k| k.frame));
            past(Channel::Scale, &mut bone.scale.iter().map(|k| k.frame));
        }
        for (note, n) in anim.notes.iter().enumerate().filter(|(_, n)| n.frame >= frame_count) {
            problems.push(Finding::NotePastFrameCount {
                note,
                frame: n.frame,
                frame_count,
            });
        }
    }
    for (modifier, m) in anim.modifiers.iter().enumerate() {
        if m.bone as usize >= anim.bones.len() {
            problems.push(Finding::ModifierBoneOutOfRange {
                modifier,
                bone: m.bone,
                bone_count: anim.bones.len(),
            });
        }
    }
    let presence = anim.data_presence_flags;
    if !presence.has_bones() && !presence.contains(PresenceFlags::NOTE) {
        problems.push(Finding::NoDataBlock);
    }
    let stray = anim.stray_counts;
    let counts = [
        ("boneCount", stray.bone_count, "LOC/ROT/SCALE"),
        (
            "boneAnimModifierCount",
            u32::from(stray.bone_anim_modifier_count),
            "LOC/ROT/SCALE",
        ),
        ("noteCount", stray.note_count, "NOTE"),
    ];
    for (count, value, flag) in counts {
        if value != 0 {
            problems.push(Finding::CountWithoutFlag { count, value, flag });
        }
    }
    let bits = [
        ("animFlags", anim.anim_flags.reserved_bits()),
        ("dataPresenceFlags", anim.data_presence_flags.reserved_bits()),
        ("dataPropertyFlags", anim.data_property_flags.reserved_bits()),
    ];
    for (field, bits) in bits {
        if bits != 0 {
            problems.push(Finding::ReservedBits { field, bits });
        }
    }
    if anim.reserved1 != [0; 2] {
        problems.push(Finding::ReservedBytes {
            field: "reserved1",
            bytes: anim.reserved1.to_vec(),
        });
    }
    if anim.reserved2 != [0; 3] {
        problems.push(Finding::ReservedBytes {
            field: "reserved2",
            bytes: anim.reserved2.to_vec(),
        });
    }
    for (bone, b) in anim.bones.iter().enumerate() {
        if b.flags > 1 {
            problems.push(Finding::BoneFlags { bone, flags: b.flags });
        }
    }
    for (bone, b) in anim.bones.iter().enumerate() {
        let mut bad = b
            .rotation
            .iter()
            .enumerate()
            .filter_map(|(key, k)| non_unit_length(k.value).map(|length| (key, length)));
        if let Some((key, length)) = bad.next() {
            problems.push(Finding::RotationNotUnit {
                bone,
                key,
                length,
                count: 1 + bad.count(),
            });
        }
    }
    if anim.frame_width_rule == FrameWidthRule::Legacy {
        if let Ok(frame_count) = anim.frame_count() {
            problems.push(Finding::OldFrameRule { frame_count });
        }
    }
    problems
}
