//! `from_scene` with the options that say what a scene from a file that states no SEAnim
//! header (a glTF another tool exported) cannot: the anim type, looping and the precision.

use animbin_core::math::Transform;
use animbin_core::scene::{
    AnimKind, Animation, Bone, BoneTrack, ConversionReport, Key, Precision as ScenePrecision, Scene, Skeleton,
};
use animbin_core::{Quat, SceneOptions, Vec3};
use animbin_seanim::{AnimType, Precision, SeAnim, read, to_bytes};

const H: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// What every scene with a skeleton loses in SEAnim.
const SKELETON: &str = "the skeleton (SEAnim names bones but stores no hierarchy or bind pose)";

/// A bone 10 units along X, turned 90 degrees about Z (its rest X axis is the parent's Y),
/// and an absolute animation that moves it 2 units further along the parent's Y.
fn scene() -> Scene {
    let rest = Transform {
        translation: Vec3::new(10.0, 0.0, 0.0),
        rotation: Quat::new(0.0, 0.0, H, H),
        scale: Vec3::ONE,
    };
    Scene {
        skeleton: Skeleton {
            bones: vec![Bone {
                kind: Default::default(),
                scale_compensate: false,
                rest_scale: Vec3::ONE,
                name: "j_gun".into(),
                parent: None,
                local: rest,
                global: rest,
                cosmetic: false,
            }],
            ..Default::default()
        },
        animations: vec![Animation {
            framerate: 30.0,
            frame_count: 2.0,
            bones: vec![BoneTrack {
                bone: "j_gun".into(),
                translation: vec![
                    Key::new(0.0, Vec3::new(10.0, 0.0, 0.0)),
                    Key::new(1.0, Vec3::new(10.0, 2.0, 0.0)),
                ]
                .into(),
                rotation: vec![Key::new(0.0, Quat::new(0.0, 0.0, 0.0, 1.0))].into(),
                ..BoneTrack::default()
            }],
            ..Animation::default()
        }],
        ..Scene::default()
    }
}

fn close(a: Vec3<f64>, b: Vec3<f64>) -> bool {
    (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9 && (a.z - b.z).abs() < 1e-9
}

#[test]
fn without_options_the_scene_says_everything() {
    let file = SeAnim::from_scene(&scene(), &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
    assert_eq!(file.anim_type, AnimType::Absolute);
    assert!(!file.looped());
    assert_eq!(file.precision(), Precision::Single);
    assert_eq!(file.bones[0].location.get(1).unwrap().value, Vec3::new(10.0, 2.0, 0.0));
}

#[test]
fn an_anim_type_rewrites_the_keys_against_the_bind_pose() {
    let mut report = ConversionReport::default();
    let options = |kind| SceneOptions {
        anim_kind: Some(kind),
        ..SceneOptions::default()
    };
    // Delta, as the format author's Blender add-on plays it: offsets along the bone's rest
    // axes, so moving along the parent's Y is moving along the bone's own X.
    let delta = SeAnim::from_scene(&scene(), &options(AnimKind::Delta), &mut report).unwrap();
    assert_eq!(delta.anim_type, AnimType::Delta);
    // The keys were single precision and stay so, though the rest rotation is not an f32.
    assert_eq!(delta.precision(), Precision::Single);
    assert!(close(
        delta.bones[0].location.get(0).unwrap().value,
        Vec3::new(0.0, 0.0, 0.0)
    ));
    assert!(
        close(delta.bones[0].location.get(1).unwrap().value, Vec3::new(2.0, 0.0, 0.0)),
        "{:?}",
        delta.bones[0].location
    );
    // Relative offsets stay in the parent's axes.
    let relative = SeAnim::from_scene(&scene(), &options(AnimKind::Relative), &mut report).unwrap();
    assert_eq!(relative.anim_type, AnimType::Relative);
    assert!(close(
        relative.bones[0].location.get(1).unwrap().value,
        Vec3::new(0.0, 2.0, 0.0)
    ));
    assert_eq!(
        relative.bones[0].rotation.get(0).unwrap().value,
        Quat::new(0.0, 0.0, 0.0, 1.0)
    );
    assert_eq!(report.lost, [SKELETON]);

    // Modifiers give way to the one kind asked for, and that is said.
    let mut with_override = scene();
    with_override.animations[0].bones[0].kind_override = Some(AnimKind::Relative);
    let mut report = ConversionReport::default();
    let file = SeAnim::from_scene(&with_override, &options(AnimKind::Absolute), &mut report).unwrap();
    assert!(file.modifiers.is_empty());
    assert_eq!(
        report.lost,
        [
            SKELETON,
            "bone modifiers (the anim type absolute is given for every bone)"
        ]
    );
    // The relative keys played over the rest pose: written absolute, that pose is added.
    assert!(close(
        file.bones[0].location.get(1).unwrap().value,
        Vec3::new(20.0, 2.0, 0.0)
    ));
}

#[test]
fn looping_is_set_or_cleared() {
    let looped = SceneOptions {
        looping: Some(true),
        ..SceneOptions::default()
    };
    let file = SeAnim::from_scene(&scene(), &looped, &mut ConversionReport::default()).unwrap();
    assert!(file.looped());
    let mut scene = scene();
    scene.animations[0].looping = true;
    let not = SceneOptions {
        looping: Some(false),
        ..SceneOptions::default()
    };
    assert!(
        !SeAnim::from_scene(&scene, &not, &mut ConversionReport::default())
            .unwrap()
            .looped()
    );
}

#[test]
fn precision_is_chosen_and_single_rounds_what_it_must() {
    let double = SceneOptions {
        precision: Some(ScenePrecision::Double),
        ..SceneOptions::default()
    };
    let mut report = ConversionReport::default();
    let file = SeAnim::from_scene(&scene(), &double, &mut report).unwrap();
    assert_eq!(file.precision(), Precision::Double);
    assert_eq!(read(&to_bytes(&file).unwrap()).unwrap().precision(), Precision::Double);
    assert_eq!(report.lost, [SKELETON]);

    let mut fine = scene();
    let mut keys = fine.animations[0].bones[0].translation.to_vec();
    keys[1].value.y = 0.1;
    fine.animations[0].bones[0].translation = keys.into();
    let single = SceneOptions {
        precision: Some(ScenePrecision::Single),
        ..SceneOptions::default()
    };
    // Without the option, a value beyond f32 makes the file double.
    let auto = SeAnim::from_scene(&fine, &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
    assert_eq!(auto.precision(), Precision::Double);
    let mut report = ConversionReport::default();
    let file = SeAnim::from_scene(&fine, &single, &mut report).unwrap();
    assert_eq!(file.precision(), Precision::Single);
    assert_eq!(file.bones[0].location.get(1).unwrap().value.y, f64::from(0.1f32));
    assert_eq!(
        report.lost,
        [
            SKELETON,
            "key values beyond single precision (rounded to f32, as asked)"
        ]
    );
    // And the file writes (a single-precision writer refuses values beyond f32).
    let back = read(&to_bytes(&file).unwrap()).unwrap();
    assert_eq!(back.bones[0].location.get(1).unwrap().value.y, f64::from(0.1f32));
}

/// A file no longer needed frees its keys bone by bone on the way to the scene: the scene
/// and the report are [`SeAnim::to_scene`]'s, for every sample and corpus file.
#[test]
fn into_scene_gives_the_scene_to_scene_gives() {
    let options = SceneOptions::default();
    for (name, bytes) in animbin_testing::samples(env!("CARGO_MANIFEST_DIR"), "seanim") {
        let anim = read(&bytes).unwrap();
        let mut report = ConversionReport::default();
        let scene = anim.to_scene(&options, &mut report).unwrap();
        let mut moved_report = ConversionReport::default();
        let moved = anim.into_scene(&options, &mut moved_report).unwrap();
        assert_eq!(moved, scene, "{name}");
        assert_eq!(moved_report, report, "{name}");
    }
}
