//! Property tests: model -> bytes -> model, bytes -> model -> bytes (also for corrupted
//! bytes that still read), the view against the owned model, and the scene conversion.

use animbin_core::scene::PropertyTrack;
use animbin_core::scene::{
    AnimKind, Animation, BoneTrack, ConversionReport, Interpolation, Key as SceneKey, Note as SceneNote,
};
use animbin_core::{Quat, SceneOptions, Vec3};
use animbin_seanim::{
    Bone, FrameWidthRule, Key, Note, Precision, PresenceFlags, SEBLEND_PROPERTY, SeAnim, Trailer, View, read,
    read_with_layout, to_bytes,
};
use proptest::prelude::*;

/// Finite and infinite floats (NaN is covered byte for byte elsewhere: it is never equal).
fn component(precision: Precision) -> BoxedStrategy<f64> {
    use proptest::num::{f32 as f, f64 as d};
    match precision {
        Precision::Single => (f::NORMAL | f::SUBNORMAL | f::ZERO | f::INFINITE | f::POSITIVE | f::NEGATIVE)
            .prop_filter("not NaN", |x| !x.is_nan())
            .prop_map(f64::from)
            .boxed(),
        Precision::Double => (d::NORMAL | d::SUBNORMAL | d::ZERO | d::INFINITE | d::POSITIVE | d::NEGATIVE)
            .prop_filter("not NaN", |x| !x.is_nan())
            .boxed(),
    }
}

mod strategies;
use strategies::*;

/// A key as its frame and the bit patterns of its components (NaN compares by payload).
fn bits<V: Copy + IntoIterator<Item = f64>>(keys: impl IntoIterator<Item = Key<V>>) -> Vec<(u32, Vec<u64>)> {
    keys.into_iter()
        .map(|k| (k.frame, k.value.into_iter().map(f64::to_bits).collect()))
        .collect()
}

#[derive(Clone, Copy)]
struct Components<V>(V);

impl IntoIterator for Components<Vec3<f64>> {
    type Item = f64;
    type IntoIter = std::array::IntoIter<f64, 3>;
    fn into_iter(self) -> Self::IntoIter {
        [self.0.x, self.0.y, self.0.z].into_iter()
    }
}

impl IntoIterator for Components<Quat<f64>> {
    type Item = f64;
    type IntoIter = std::array::IntoIter<f64, 4>;
    fn into_iter(self) -> Self::IntoIter {
        [self.0.x, self.0.y, self.0.z, self.0.w].into_iter()
    }
}

fn wrap<V>(keys: impl IntoIterator<Item = Key<V>>) -> impl Iterator<Item = Key<Components<V>>> {
    keys.into_iter().map(|k| Key::new(k.frame, Components(k.value)))
}

/// Checks that the view of `bytes` sees what the owned `anim` holds, bit for bit.
fn assert_view_matches(bytes: &[u8], anim: &SeAnim) {
    let view = View::parse(bytes).expect("the view opens what read reads");
    assert_eq!(view.anim_type(), anim.anim_type);
    assert_eq!(view.frame_count(), anim.frame_count().unwrap());
    assert_eq!(view.precision(), anim.precision());
    assert_eq!(view.frame_width_rule(), anim.frame_width_rule);
    assert_eq!(view.header_extra(), anim.header_extra);
    assert_eq!(view.bones().count(), anim.bones.len());
    for (v, b) in view.bones().zip(&anim.bones) {
        assert_eq!((v.name, v.flags), (b.name.as_str(), b.flags));
        assert_eq!(bits(wrap(v.location)), bits(wrap(b.location.iter())));
        assert_eq!(bits(wrap(v.rotation.iter())), bits(wrap(b.rotation.iter())));
        assert_eq!(bits(wrap(v.scale.to_vec())), bits(wrap(b.scale.iter())));
    }
    assert_eq!(
        view.modifiers().iter().collect::<Option<Vec<_>>>(),
        Some(anim.modifiers.clone())
    );
    let notes: Vec<Note> = view.notes().map(|(frame, n)| Note { frame, name: n.into() }).collect();
    assert_eq!(notes, anim.notes);
    assert_eq!(view.custom(), anim.custom);
    // The view's own model writes the same bytes (compared as bytes: NaN is never equal).
    assert_eq!(to_bytes(&view.to_anim()).unwrap(), bytes);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn model_to_bytes_to_model_is_the_same_model(anim in seanim()) {
        let bytes = to_bytes(&anim).unwrap();
        let back = read(&bytes).unwrap();
        prop_assert_eq!(&back, &anim);
        prop_assert_eq!(&read_with_layout(&bytes).unwrap(), &anim);
        assert_view_matches(&bytes, &anim);
    }

    #[test]
    fn canonical_bytes_to_model_to_bytes_are_the_same_bytes(anim in seanim()) {
        let bytes = to_bytes(&anim).unwrap();
        prop_assert_eq!(to_bytes(&read(&bytes).unwrap()).unwrap(), bytes);
    }

    #[test]
    fn any_corruption_that_still_reads_is_written_back_identically(
        anim in seanim(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = to_bytes(&anim).unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        // The view and the layout reader accept the same files; `read` is the view's model,
        // checked below against the layout reader's.
        let layout = read_with_layout(&bytes);
        prop_assert_eq!(View::parse(&bytes).is_ok(), layout.is_ok(), "{:?}", layout.as_ref().err());
        match layout {
            // A corruption can make a file that only the old frame_t rule reads (a frameCount
            // of 256 or 65536); the writer uses the current rule by design, so the rewrite is
            // that same model under the current rule.
            Ok(back) if back.frame_width_rule == FrameWidthRule::Legacy => {
                let rewrite = to_bytes(&back).unwrap();
                let again = read(&rewrite).unwrap();
                prop_assert_eq!(again.frame_width_rule, FrameWidthRule::Current);
                prop_assert_eq!(SeAnim { frame_width_rule: FrameWidthRule::Legacy, ..again }, back);
            }
            Ok(back) => {
                prop_assert_eq!(to_bytes(&back).unwrap(), bytes.clone());
                assert_view_matches(&bytes, &back);
            }
            Err(e) => {
                prop_assert!(e.offset <= bytes.len() as u64);
                prop_assert!(View::parse(&bytes).is_err(), "the view opens what read refuses: {}", e);
            }
        }
    }
}

/// Scene keys at integer frames.
fn scene_vec3_keys() -> impl Strategy<Value = Vec<SceneKey<Vec3<f64>>>> {
    let key = (
        0u32..400,
        -1e9f64..1e9,
        any::<f32>().prop_filter("finite", |f| f.is_finite()),
        -1.0f64..1.0,
    )
        .prop_map(|(f, x, y, z)| SceneKey::new(f64::from(f), Vec3::new(x, f64::from(y), z)));
    prop::collection::vec(key, 0..3)
}

fn scene_quat_keys() -> impl Strategy<Value = Vec<SceneKey<Quat<f64>>>> {
    let key = (0u32..400, prop::array::uniform4(-1.0f32..1.0))
        .prop_map(|(f, [x, y, z, w])| SceneKey::new(f64::from(f), Quat::new(x, y, z, w).map(f64::from)));
    prop::collection::vec(key, 0..3)
}

fn animation() -> impl Strategy<Value = Animation> {
    let kind = prop_oneof![
        Just(AnimKind::Absolute),
        Just(AnimKind::Additive),
        Just(AnimKind::Relative),
        Just(AnimKind::Delta)
    ];
    let track = (
        name(),
        prop::option::of(kind.clone()),
        any::<bool>(),
        scene_vec3_keys(),
        scene_quat_keys(),
        scene_vec3_keys(),
    )
        .prop_map(
            |(bone, kind_override, cosmetic, translation, rotation, scale)| BoneTrack {
                curves: Default::default(),
                channel_overrides: Default::default(),
                channel_kinds: Default::default(),
                bone,
                kind_override,
                cosmetic,
                translation: translation.into(),
                rotation: rotation.into(),
                scale: scale.into(),
            },
        );
    let note = (0u32..400, name()).prop_map(|(f, name)| SceneNote {
        frame: f64::from(f),
        name,
    });
    // Blend keys in their on-disk layout: u32 frame, three finite f32 weights.
    let blend_key = (any::<u32>(), prop::array::uniform3(-1e3f32..1e3)).prop_map(|(frame, values)| {
        let mut bytes = frame.to_le_bytes().to_vec();
        values.iter().for_each(|v| bytes.extend(v.to_le_bytes()));
        bytes
    });
    let shape = (name(), prop::collection::vec(blend_key, 0..3)).prop_map(|(node, keys)| PropertyTrack {
        node,
        property: SEBLEND_PROPERTY.into(),
        format: "seanim".into(),
        data: keys.concat(),
    });
    (
        1.0f32..240.0,
        any::<bool>(),
        kind,
        prop::collection::vec(track, 0..4),
        prop::collection::vec(note, 0..3),
        prop::collection::vec(shape, 0..3),
        prop_oneof![Just(0u32), 1u32..50],
    )
        .prop_map(|(framerate, looping, kind, bones, notes, properties, extra)| {
            let mut anim = Animation {
                name: String::new(),
                framerate: f64::from(framerate),
                frame_count: 0.0,
                looping,
                kind,
                interpolation: Interpolation::Linear,
                bones,
                notes,
                properties,
                weights: Vec::new(),
            };
            let frames = anim
                .bones
                .iter()
                .flat_map(|b| {
                    let t = b.translation.iter().map(|k| k.frame);
                    let r = b.rotation.iter().map(|k| k.frame);
                    let s = b.scale.iter().map(|k| k.frame);
                    t.chain(r).chain(s).collect::<Vec<_>>()
                })
                .chain(anim.notes.iter().map(|n| n.frame));
            let derived = frames
                .fold(None, |m: Option<f64>, f| Some(m.map_or(f, |m| m.max(f))))
                .map_or(0.0, |f| f + 1.0);
            anim.frame_count = derived + f64::from(extra);
            anim
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn scene_to_seanim_to_scene_is_lossless(anim in animation()) {
        let mut report = ConversionReport::default();
        let file = SeAnim::from_animation(&anim, &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        let bytes = to_bytes(&file).unwrap();
        let read_back = read(&bytes).unwrap();
        prop_assert_eq!(&read_back, &file);
        let back = read_back.to_animation(&mut report);
        prop_assert!(report.is_lossless(), "{:?}", report);
        prop_assert_eq!(&back, &anim);
        // And the file survives the trip through the scene unchanged.
        let again = SeAnim::from_animation(&back, &mut report).unwrap();
        prop_assert_eq!(to_bytes(&again).unwrap(), bytes);
    }
}

#[test]
fn nan_values_and_their_payloads_are_written_back_bit_for_bit() {
    let nans = [0x7F80_0001u32, 0xFFC0_1234, 0x7FBF_FFFF];
    let mut bytes = to_bytes(&SeAnim {
        data_presence_flags: PresenceFlags::LOC,
        framerate: 30.0,
        bones: vec![Bone {
            location: vec![Key::new(0, Vec3::new(0.0, 0.0, 0.0))].into(),
            ..Bone::new("a")
        }],
        ..SeAnim::default()
    })
    .unwrap();
    let values = bytes.len() - 12;
    for (i, bits) in nans.iter().enumerate() {
        bytes[values + 4 * i..values + 4 * i + 4].copy_from_slice(&bits.to_le_bytes());
    }
    // A NaN framerate too.
    bytes[16..20].copy_from_slice(&0x7FA0_0000u32.to_le_bytes());
    let anim = read(&bytes).unwrap();
    assert!(anim.bones[0].location.get(0).unwrap().value.x.is_nan());
    assert_eq!(to_bytes(&anim).unwrap(), bytes);
}

#[test]
fn a_scene_without_an_animation_or_with_a_negative_frame_is_refused() {
    let mut report = ConversionReport::default();
    assert!(SeAnim::from_scene(&Default::default(), &SceneOptions::default(), &mut report).is_err());
    let anim = Animation {
        notes: vec![SceneNote {
            frame: -1.0,
            name: "n".into(),
        }],
        ..Animation::default()
    };
    let err = SeAnim::from_animation(&anim, &mut report).unwrap_err();
    assert!(err.to_string().contains("note 0 is at frame -1"), "{err}");
    // A key at u32::MAX leaves no frameCount (found by fuzzing: the file read, but its
    // scene could not be written back).
    let last = Animation {
        bones: vec![BoneTrack {
            bone: "a".into(),
            translation: vec![SceneKey::new(f64::from(u32::MAX), Vec3::new(0.0, 0.0, 0.0))].into(),
            ..BoneTrack::default()
        }],
        ..Animation::default()
    };
    let err = SeAnim::from_animation(&last, &mut report).unwrap_err();
    assert!(
        err.to_string().contains("location key 0 is at frame 4294967295"),
        "{err}"
    );
}

#[test]
fn lossy_conversions_are_reported() {
    let mut report = ConversionReport::default();
    let anim = Animation {
        name: "walk".into(),
        interpolation: Interpolation::Step,
        framerate: 29.97,
        frame_count: 2.5,
        notes: vec![SceneNote {
            frame: 1.5,
            name: "n".into(),
        }],
        ..Animation::default()
    };
    let file = SeAnim::from_animation(&anim, &mut report).unwrap();
    assert_eq!(file.notes[0].frame, 2);
    assert_eq!(
        report.lost,
        [
            "the animation's name",
            "step interpolation (SEAnim keys are linear)",
            "framerate digits beyond f32",
            "fractional frames (rounded to whole frames)",
            "a fractional frame count",
        ]
    );
    // Values that f32 cannot hold make the file double precision.
    let precise = Animation {
        bones: vec![BoneTrack {
            bone: "a".into(),
            translation: vec![SceneKey::new(0.0, Vec3::new(0.1, 0.0, 0.0))].into(),
            ..BoneTrack::default()
        }],
        ..Animation::default()
    };
    let file = SeAnim::from_animation(&precise, &mut ConversionReport::default()).unwrap();
    assert_eq!(file.precision(), Precision::Double);
    assert_eq!(file.bones[0].location.get(0).unwrap().value.x, 0.1);

    let mut report = ConversionReport::default();
    let odd = SeAnim {
        custom: vec![1, 2],
        data_presence_flags: PresenceFlags::NOTE | PresenceFlags::CUSTOM,
        trailer: Trailer::Unknown(vec![0xEE]),
        ..SeAnim::default()
    };
    odd.to_animation(&mut report);
    assert_eq!(
        report.lost,
        [
            "the custom block (2 bytes)",
            "presence flags of empty blocks",
            "1 unknown trailing bytes"
        ]
    );
}
