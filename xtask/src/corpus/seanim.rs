//! SEAnim samples, written by `animbin-seanim`'s own writer: `sample.seanim` (a looping
//! two-bone walk with notes, for the README), `sample_every_block.seanim` (high precision,
//! scale keys, a modifier, a custom block, extra header bytes and an SEBlend trailer), and
//! fuzz-only seeds at the `frame_t` / `bone_t` width boundaries (frameCount 255 / 256 /
//! 65535 / 65536, boneCount 255 / 256) and in the old frame rule.

use animbin_core::{Quat, Vec3};
use animbin_seanim::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, FrameWidthRule, Key, Modifier, Note, PresenceFlags, PropertyFlags,
    SeAnim, SeBlend, Trailer, to_bytes,
};

use super::Sample;

const TARGETS: &[&str] = &["parse_seanim", "roundtrip_seanim", "model_seanim"];

fn bytes(anim: &SeAnim) -> Vec<u8> {
    to_bytes(anim).expect("the sample is encodable")
}

/// A rotation of `degrees` about the y axis.
fn yaw(degrees: f32) -> Quat<f64> {
    let half = degrees.to_radians() / 2.0;
    Quat::new(0.0, half.sin(), 0.0, half.cos()).map(f64::from)
}

/// A looping walk: the root moves forward 10 units a frame and bobs, the spine sways; notes
/// mark the footsteps. Values are f32-exact, so the file keeps single precision.
fn sample() -> SeAnim {
    let root = Bone {
        location: (0..=10u8)
            .map(|f| {
                let bob = if f % 5 == 0 { 0.0 } else { 1.5 };
                Key::new(u32::from(f), Vec3::new(0.0, f64::from(f) * 10.0, bob))
            })
            .collect(),
        rotation: vec![Key::new(0, yaw(0.0))].into(),
        ..Bone::new("tag_origin")
    };
    let spine = Bone {
        location: vec![Key::new(0, Vec3::new(0.0, 0.0, 40.0))].into(),
        rotation: [0u8, 5, 10]
            .iter()
            .map(|&f| Key::new(u32::from(f), yaw(if f == 5 { 8.0 } else { -8.0 })))
            .collect(),
        ..Bone::new("j_spine")
    };
    SeAnim {
        anim_type: AnimType::Relative,
        anim_flags: AnimFlags::LOOPED,
        data_presence_flags: PresenceFlags::LOC | PresenceFlags::ROT | PresenceFlags::NOTE,
        framerate: 30.0,
        bones: vec![root, spine],
        notes: vec![
            Note {
                frame: 0,
                name: "footstep_left".into(),
            },
            Note {
                frame: 5,
                name: "footstep_right".into(),
            },
        ],
        ..SeAnim::default()
    }
}

/// Every optional part of the format in one small file.
fn every_block() -> SeAnim {
    SeAnim {
        anim_type: AnimType::Absolute,
        data_presence_flags: PresenceFlags::all(),
        data_property_flags: PropertyFlags::PRECISION_HIGH,
        framerate: 60.0,
        header_extra: vec![0, 0],
        bones: vec![
            Bone {
                location: vec![Key::new(0, Vec3::new(0.1, 0.2, 0.3))].into(),
                rotation: vec![Key::new(0, Quat::new(0.0, 0.0, 0.0, 1.0))].into(),
                scale: vec![
                    Key::new(0, Vec3::new(1.0, 1.0, 1.0)),
                    Key::new(3, Vec3::new(2.0, 2.0, 2.0)),
                ]
                .into(),
                ..Bone::new("root")
            },
            Bone {
                flags: Bone::COSMETIC,
                rotation: vec![Key::new(2, Quat::new(0.5, 0.5, 0.5, 0.5))].into(),
                ..Bone::new("j_cosmetic")
            },
        ],
        modifiers: vec![Modifier {
            bone: 1,
            anim_type: AnimType::Additive,
        }],
        notes: vec![Note {
            frame: 3,
            name: "end".into(),
        }],
        custom: b"animbin".to_vec(),
        trailer: Trailer::SeBlend(SeBlend {
            shapes: vec![BlendShape {
                name: "blink".into(),
                keys: vec![
                    BlendKey {
                        frame: 0,
                        value: [0.0, 0.0, 0.0],
                    },
                    BlendKey {
                        frame: 2,
                        value: [1.0, 0.0, 0.0],
                    },
                ],
            }],
        }),
        ..SeAnim::default()
    }
}

/// One bone with location keys at frame 0 and `last`: frameCount `last + 1`.
fn frames_up_to(last: u32) -> SeAnim {
    SeAnim {
        data_presence_flags: PresenceFlags::LOC,
        framerate: 30.0,
        bones: vec![Bone {
            location: vec![
                Key::new(0, Vec3::new(0.0, 0.0, 0.0)),
                Key::new(last, Vec3::new(1.0, 2.0, 3.0)),
            ]
            .into(),
            ..Bone::new("a")
        }],
        ..SeAnim::default()
    }
}

/// [`frames_up_to`]`(255)` (frameCount 256) as the pre-2017 rule lays it out, with a u8
/// `frame_t`. The writer always uses the current rule (u16 here), so the u16 key count and
/// frames of its file are narrowed by hand.
fn old_rule_frame_count_256() -> Vec<u8> {
    let current = bytes(&frames_up_to(255));
    // The 36-byte header, the name "a\0" and the bone's flags byte stay as they are.
    let (head, mut rest) = current.split_at(39);
    let mut out = head.to_vec();
    out.push(rest[0]);
    rest = &rest[2..];
    while let Some((key, tail)) = rest.split_at_checked(14) {
        out.push(key[0]);
        out.extend_from_slice(&key[2..]);
        rest = tail;
    }
    let anim = animbin_seanim::read(&out).expect("the old-rule sample reads");
    assert_eq!(anim.frame_width_rule, FrameWidthRule::Legacy);
    out
}

/// `count` bones with rotation keys and a modifier on the last bone: bone_t from `count`.
fn bones(count: u32) -> SeAnim {
    SeAnim {
        data_presence_flags: PresenceFlags::ROT,
        framerate: 30.0,
        bones: (0..count)
            .map(|i| Bone {
                rotation: vec![Key::new(0, Quat::new(0.0, 0.0, 0.0, 1.0))].into(),
                ..Bone::new(format!("b{i}"))
            })
            .collect(),
        modifiers: vec![Modifier {
            bone: count - 1,
            anim_type: AnimType::Delta,
        }],
        ..SeAnim::default()
    }
}

/// Every SEAnim sample.
pub(crate) fn samples() -> Vec<Sample> {
    let file = |name, anim: &SeAnim, testdata| Sample::new(name, bytes(anim), TARGETS, testdata);
    vec![
        file("sample.seanim", &sample(), true),
        file("sample_every_block.seanim", &every_block(), true),
        file("seanim_framecount_255.seanim", &frames_up_to(254), false),
        file("seanim_framecount_256.seanim", &frames_up_to(255), false),
        Sample::new(
            "seanim_framecount_256_old_rule.seanim",
            old_rule_frame_count_256(),
            TARGETS,
            false,
        ),
        file("seanim_framecount_65535.seanim", &frames_up_to(65534), false),
        file("seanim_framecount_65536.seanim", &frames_up_to(65535), false),
        file("seanim_bonecount_255.seanim", &bones(255), false),
        file("seanim_bonecount_256.seanim", &bones(256), false),
    ]
}
