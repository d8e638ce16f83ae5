//! Shining Force III x8an samples: synthetic (no game file may be shipped), written by
//! `animbin-sf3`'s own writer.

use animbin_core::{Fixed16, Quat, Rot14, Vec3};
use animbin_sf3::{Ending, Key, Segment, Sf3File, Slot};

use super::Sample;

const TARGETS: &[&str] = &["parse_sf3", "roundtrip_sf3", "model_sf3"];

/// A slot that swings about one axis: `keys` translation and rotation keys from `start`
/// to `end`, one scale key of 1.0 (as in the game's files).
fn swinging_slot(bone: usize, start: u16, end: u16, keys: u16) -> Slot {
    let step = (end - start) / keys.max(2).saturating_sub(1).max(1);
    let times: Vec<u16> = (0..keys).map(|k| (start + k * step).min(end)).collect();
    let fixed = |v: f64| Fixed16::from_f64(v).unwrap_or_default();
    let rot = |v: f64| Rot14::from_f64(v).unwrap_or_default();
    Slot {
        translation: times
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let x = 0.25 * bone as f64 + 0.01 * k as f64;
                Key::new(t, Vec3::new(fixed(x), fixed(-1.5 + 0.1 * k as f64), fixed(4.25)))
            })
            .collect(),
        rotation: times
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let half = 0.05 * (k as f64 + bone as f64);
                Key::new(t, Quat::new(rot(half.sin()), rot(0.0), rot(0.0), rot(half.cos())))
            })
            .collect(),
        scale: vec![Key::new(start, Vec3::new(Fixed16::ONE, Fixed16::ONE, Fixed16::ONE))],
    }
}

fn segment(slots: usize, start: u16, end: u16, keys: u16, padding_words: u32) -> Segment {
    Segment {
        padding_words,
        slots: (0..slots).map(|b| swinging_slot(b, start, end, keys)).collect(),
    }
}

fn write(file: &Sf3File) -> Vec<u8> {
    animbin_sf3::to_bytes(file).expect("the samples are encodable")
}

pub(crate) fn samples() -> Vec<Sample> {
    // The README sample: two parts of one battle animation (ticks 35..85 and 133..150, as in
    // the seed's table), four bones, zero padding between segments and the end marker.
    let readme = Sf3File {
        segments: vec![segment(4, 35, 85, 6, 0), segment(4, 133, 150, 3, 1)],
        padding_words: 2,
        ending: Ending::EndMarker { trailing: vec![] },
    };
    // The smallest useful file: one bone, one key per channel, ended by EOF.
    let minimal = Sf3File {
        segments: vec![segment(1, 0, 0, 1, 0)],
        ..Sf3File::default()
    };
    // A segment with no slots, then a slot with empty channels: nothing to convert, so a test
    // fixture rather than a sample.
    let empty = Sf3File {
        segments: vec![
            Segment::default(),
            Segment {
                padding_words: 0,
                slots: vec![Slot::default()],
            },
        ],
        padding_words: 0,
        ending: Ending::EndMarker { trailing: vec![] },
    };
    // The size of a character's file: 13 segments of 22 bones, then the end marker and
    // bytes the game never reads (fuzz seed only).
    let large = Sf3File {
        segments: (0..13u16)
            .map(|i| segment(22, 35 + 10 * i, 85 + 20 * i, 4 + i % 5, u32::from(i % 2)))
            .collect(),
        padding_words: 0,
        ending: Ending::EndMarker {
            trailing: vec![0x5A; 6],
        },
    };
    vec![
        Sample::new("x8an00.bin", write(&readme), TARGETS, true),
        Sample::new("x8an01.bin", write(&minimal), TARGETS, true),
        Sample::fixture("x8an02.bin", write(&empty), TARGETS),
        Sample::new("x8an-large.bin", write(&large), TARGETS, false),
    ]
}
