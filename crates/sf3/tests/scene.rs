//! Conversion to and from the neutral scene model.

mod common;

use animbin_core::scene::{AnimKind, Animation, BoneTrack, Key as SceneKey, Note, Scene};
use animbin_core::{ConversionReport, ErrorKind, Quat, Vec3};
use animbin_sf3::{DEFAULT_FRAMERATE, SceneOptions, Sf3File};
use common::*;

fn one_track_scene(track: BoneTrack) -> Scene {
    Scene {
        animations: vec![Animation {
            name: "segment0".into(),
            bones: vec![track],
            ..Animation::default()
        }],
        ..Scene::default()
    }
}

fn refuse(track: BoneTrack) -> String {
    let err = Sf3File::from_scene(
        &one_track_scene(track),
        &SceneOptions::default(),
        &mut ConversionReport::default(),
    )
    .expect_err("must be refused");
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)), "{err}");
    err.to_string()
}

#[test]
fn segments_become_animations_and_slots_bone_tracks() {
    let scene = seed_file()
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .unwrap();
    let anim = &scene.animations[0];
    assert_eq!(anim.name, "segment0");
    assert_eq!(anim.framerate, DEFAULT_FRAMERATE);
    assert_eq!(anim.frame_count, f64::from(0x162 + 1));
    assert_eq!(anim.bones.len(), 2);
    assert_eq!(anim.bones[1].bone, "slot1");
    assert_eq!(anim.bones[1].rotation.len(), 7);
    assert_eq!(anim.bones[1].rotation.get(1).unwrap().frame, f64::from(0x14b));
    assert_eq!(
        anim.bones[0].translation.get(4).unwrap().value,
        Vec3::new(0.0, 5.0, -0.5)
    );
    assert_eq!(
        anim.bones[0].rotation.get(0).unwrap().value,
        Quat::new(0.0, 0.0, 0.0, 1.0)
    );
    assert!(scene.skeleton.bones.is_empty() && scene.meshes.is_empty());
}

#[test]
fn the_framerate_option_labels_the_ticks() {
    let options = SceneOptions {
        framerate: Some(60.0),
        ..SceneOptions::default()
    };
    let scene = seed_file()
        .to_scene(&options, &mut ConversionReport::default())
        .unwrap();
    assert_eq!(scene.animations[0].framerate, 60.0);
    assert_eq!(
        scene.animations[0].bones[1].translation.get(0).unwrap().frame,
        f64::from(0x140)
    );
}

#[test]
fn rotations_are_normalised_only_when_asked() {
    let raw = seed_file()
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .unwrap();
    let q = raw.animations[0].bones[1].rotation.get(0).unwrap().value;
    assert_eq!(q.w, 15466.0 / 16384.0);
    assert!((q.norm() - 1.0).abs() > 1e-6);
    let options = SceneOptions {
        normalize_rotations: true,
        ..SceneOptions::default()
    };
    let unit = seed_file()
        .to_scene(&options, &mut ConversionReport::default())
        .unwrap();
    let n = unit.animations[0].bones[1].rotation.get(0).unwrap().value;
    assert!((n.norm() - 1.0).abs() < 1e-12);
    assert_eq!(n, q.normalized());
}

#[test]
fn out_of_range_values_are_refused_not_wrapped() {
    let t = |v: f64| BoneTrack {
        bone: "slot0".into(),
        translation: vec![SceneKey::new(0.0, Vec3::new(0.0, v, 0.0))].into(),
        ..BoneTrack::default()
    };
    assert!(refuse(t(32768.0)).contains("32768"));
    assert!(refuse(t(-32768.5)).contains("range"));
    assert!(refuse(t(f64::NAN)).contains("range"));
    let r = |w: f64| BoneTrack {
        bone: "slot0".into(),
        rotation: vec![SceneKey::new(0.0, Quat::new(0.0, 0.0, 0.0, w))].into(),
        ..BoneTrack::default()
    };
    assert!(refuse(r(2.0)).contains("[-2, 2)"));
    assert!(refuse(r(-2.01)).contains("rotation key 0"));
    let s = BoneTrack {
        bone: "slot0".into(),
        scale: vec![SceneKey::new(0.0, Vec3::new(40000.0, 1.0, 1.0))].into(),
        ..BoneTrack::default()
    };
    assert!(refuse(s).contains("scale key 0"));
    // The largest values that fit are kept.
    let fits = BoneTrack {
        rotation: vec![SceneKey::new(0.0, Quat::new(-2.0, 1.99993896484375, 0.0, 1.0))].into(),
        ..t(-32768.0)
    };
    let file = Sf3File::from_scene(
        &one_track_scene(fits),
        &SceneOptions::default(),
        &mut ConversionReport::default(),
    )
    .unwrap();
    let slot = &file.segments[0].slots[0];
    assert_eq!(slot.translation[0].value.y.0, i32::MIN);
    assert_eq!(slot.rotation[0].value.x.0, i16::MIN);
    assert_eq!(slot.rotation[0].value.y.0, i16::MAX);
}

#[test]
fn times_outside_u16_ticks_are_refused() {
    for frame in [-1.0, 65535.6, 1e12, f64::INFINITY] {
        let track = BoneTrack {
            bone: "slot0".into(),
            scale: vec![SceneKey::new(frame, Vec3::ONE)].into(),
            ..BoneTrack::default()
        };
        assert!(refuse(track).contains("65535"), "{frame}");
    }
}

#[test]
fn bad_framerates_and_empty_scenes_are_refused() {
    let mut report = ConversionReport::default();
    assert!(Sf3File::from_scene(&Scene::default(), &SceneOptions::default(), &mut report).is_err());
    let zero = SceneOptions {
        framerate: Some(0.0),
        ..SceneOptions::default()
    };
    assert!(Sf3File::from_scene(&one_track_scene(BoneTrack::default()), &zero, &mut report).is_err());
    let mut scene = one_track_scene(BoneTrack::default());
    scene.animations[0].framerate = f64::NAN;
    assert!(Sf3File::from_scene(&scene, &SceneOptions::default(), &mut report).is_err());
}

#[test]
fn what_the_format_cannot_hold_is_reported() {
    let mut scene = one_track_scene(BoneTrack {
        bone: "pelvis".into(),
        cosmetic: true,
        kind_override: Some(AnimKind::Additive),
        ..BoneTrack::default()
    });
    let anim = &mut scene.animations[0];
    anim.name = "attack".into();
    anim.looping = true;
    anim.kind = AnimKind::Relative;
    anim.frame_count = 100.0;
    anim.notes.push(Note {
        frame: 1.0,
        name: "hit".into(),
    });
    let mut report = ConversionReport::default();
    let file = Sf3File::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(file.segments[0].slots.len(), 1);
    for lost in [
        "animation names (segments are numbered)",
        "bone names (slots are numbered)",
        "notes",
        "the looping flag",
        "animation kinds other than absolute",
        "per-bone animation kinds",
        "cosmetic bone flags",
        "animation lengths past the last key",
    ] {
        assert!(
            report.lost.iter().any(|l| l == lost),
            "{lost} missing from {:?}",
            report.lost
        );
    }
}

#[test]
fn values_finer_than_the_fixed_point_fields_are_reported_as_rounded() {
    let track = |translation: f64, rotation_x: f64| BoneTrack {
        bone: "slot0".into(),
        translation: vec![SceneKey::new(0.0, Vec3::new(translation, 0.0, 0.0))].into(),
        rotation: vec![SceneKey::new(0.0, Quat::new(rotation_x, 0.0, 0.0, 1.0))].into(),
        ..BoneTrack::default()
    };
    let lengths = "translation and scale precision finer than 1/65536 (16.16 fixed point, rounded)";
    let rotations = "rotation precision finer than 1/16384 (i16 components, rounded)";
    let report_of = |track: BoneTrack| {
        let mut report = ConversionReport::default();
        Sf3File::from_scene(&one_track_scene(track), &SceneOptions::default(), &mut report).unwrap();
        report.lost
    };
    // 1.5 and 0.25 are exact in both fields: nothing to report.
    let exact = report_of(track(1.5, 0.25));
    assert!(!exact.iter().any(|l| l == lengths || l == rotations), "{exact:?}");
    let fine = report_of(track(0.1, 0.1));
    assert!(fine.iter().any(|l| l == lengths), "{fine:?}");
    assert!(fine.iter().any(|l| l == rotations), "{fine:?}");
}

#[test]
fn padding_and_the_end_marker_are_reported_as_lost() {
    const LOST: &str = "the padding words and end marker of the SF3 file";
    let lost = |file: &animbin_sf3::Sf3File| {
        let mut report = ConversionReport::default();
        file.to_scene(&SceneOptions::default(), &mut report).unwrap();
        report.lost
    };
    let file = seed_file();
    assert_eq!(lost(&file), Vec::<String>::new());
    let mut padded = file.clone();
    padded.segments[0].padding_words = 2;
    assert_eq!(lost(&padded), [LOST]);
    let mut padded = file.clone();
    padded.padding_words = 1;
    assert_eq!(lost(&padded), [LOST]);
    let mut ended = file.clone();
    ended.ending = animbin_sf3::Ending::EndMarker { trailing: vec![] };
    assert_eq!(lost(&ended), [LOST]);
    // The scene itself is the same: only the report differs.
    assert_eq!(
        ended
            .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
            .unwrap(),
        Scene::from(&file)
    );
}

#[test]
fn a_framerate_that_is_not_positive_is_refused_both_ways() {
    for rate in [0.0, -30.0, f64::NAN] {
        let options = SceneOptions {
            framerate: Some(rate),
            ..SceneOptions::default()
        };
        let err = seed_file()
            .to_scene(&options, &mut ConversionReport::default())
            .unwrap_err();
        assert!(err.to_string().contains("framerate"), "{err}");
    }
}
