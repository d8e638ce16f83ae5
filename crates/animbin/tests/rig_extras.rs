//! IK handles, constraints and the model name through `convert`: Cast keeps them whole, and
//! every other format says it drops them.

mod read_back;

use read_back::scene_of;

use animbin::core::math::{Transform, Vec3};
use animbin::core::scene::{
    Animation, Bone, BoneTrack, Constraint, ConstraintKind, ConstraintOffset, IkHandle, Key, Scene, Skeleton,
};
use animbin::{ConvertOptions, Target};

fn arm() -> Scene {
    let bone = |name: &str, parent: Option<usize>, x: f64| Bone {
        kind: Default::default(),
        name: name.into(),
        parent,
        local: Transform {
            translation: Vec3::new(x, 0.0, 0.0),
            ..Transform::IDENTITY
        },
        global: Transform::IDENTITY,
        cosmetic: false,
        scale_compensate: true,
        rest_scale: Vec3::ONE,
    };
    let mut skeleton = Skeleton {
        bones: vec![
            bone("shoulder", None, 0.0),
            bone("elbow", Some(0), 1.0),
            bone("wrist", Some(1), 1.0),
            bone("hand_target", None, 2.0),
        ],
        ik_handles: vec![IkHandle {
            name: "arm_ik".into(),
            start: 0,
            end: 2,
            target: Some(3),
            use_target_rotation: true,
            ..IkHandle::default()
        }],
        constraints: vec![
            Constraint {
                kind: ConstraintKind::Orient,
                bone: 2,
                target: 3,
                weight: Some(0.25),
                skip: [false, true, false],
                ..Constraint::default()
            },
            Constraint {
                name: "scale_follow".into(),
                kind: ConstraintKind::Scale,
                bone: 1,
                target: 3,
                maintain_offset: true,
                offset: Some(ConstraintOffset::Vector(Vec3::new(2.0, 2.0, 2.0))),
                ..Constraint::default()
            },
        ],
    };
    skeleton.update_globals();
    Scene {
        name: "arm_rig".into(),
        skeleton,
        animations: vec![Animation {
            name: "reach".into(),
            frame_count: 2.0,
            bones: vec![BoneTrack {
                bone: "hand_target".into(),
                translation: vec![
                    Key::new(0.0, Vec3::new(2.0, 0.0, 0.0)),
                    Key::new(1.0, Vec3::new(1.5, 1.0, 0.0)),
                ]
                .into(),
                ..BoneTrack::default()
            }],
            ..Animation::default()
        }],
        ..Scene::default()
    }
}

#[test]
fn cast_keeps_the_ik_handles_constraints_and_name() {
    let conversion = animbin::convert_scene(&arm(), Target::Cast, &ConvertOptions::default()).unwrap();
    assert!(
        !conversion
            .lost_lines()
            .iter()
            .any(|l| l.contains("IK") || l.contains("constraint") || l.contains("name")),
        "{:?}",
        conversion.lost_lines()
    );
    let back = scene_of(&conversion.to_bytes().unwrap());
    let want = arm();
    assert_eq!(back.name, want.name);
    assert_eq!(back.skeleton.ik_handles, want.skeleton.ik_handles);
    assert_eq!(back.skeleton.constraints, want.skeleton.constraints);
}

#[test]
fn gltf_keeps_the_model_name_as_its_scene_name() {
    for target in [Target::Glb, Target::Gltf] {
        let conversion = animbin::convert_scene(&arm(), target, &ConvertOptions::default()).unwrap();
        assert!(
            !conversion.lost_lines().iter().any(|l| l.contains("name")),
            "{target:?}: {:?}",
            conversion.lost_lines()
        );
        let back = scene_of(&conversion.to_bytes().unwrap());
        assert_eq!(back.name, "arm_rig", "{target:?}");
    }
}

#[test]
fn formats_without_ik_or_constraints_report_them() {
    for target in [
        Target::Glb,
        Target::Gltf,
        Target::SeModel,
        Target::SeAnim,
        Target::AnimX,
        Target::Dmf,
        Target::Sf3,
    ] {
        let conversion = animbin::convert_scene(&arm(), target, &ConvertOptions::default()).unwrap();
        let lost = conversion.lost_lines();
        assert!(
            lost.iter().any(|l| l.contains(": 1 IK handles (")),
            "{target:?}: {lost:?}"
        );
        assert!(
            lost.iter().any(|l| l.contains(": 2 bone constraints (")),
            "{target:?}: {lost:?}"
        );
        if matches!(target, Target::SeModel | Target::Dmf) {
            assert!(lost.iter().any(|l| l.contains("model name")), "{target:?}: {lost:?}");
        }
    }
}

fn painted() -> Scene {
    use animbin::core::math::Rgba8;
    use animbin::core::scene::Mesh;
    let v = |x: f32, y: f32| animbin::core::math::Vec3::new(x, y, 0.0);
    let layer = |k: u8| (0..3).map(|i| Rgba8::new(k, 10 * i, 255 - k, 255)).collect::<Vec<_>>();
    Scene {
        meshes: vec![Mesh {
            name: "tri".into(),
            positions: vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)],
            faces: vec![[0, 1, 2]],
            colors: layer(0),
            extra_color_layers: vec![layer(100), layer(200)],
            ..Mesh::default()
        }],
        ..Scene::default()
    }
}

#[test]
fn every_colour_layer_reaches_glb_and_cast_and_comes_back() {
    for target in [Target::Glb, Target::Cast] {
        let conversion = animbin::convert_scene(&painted(), target, &ConvertOptions::default()).unwrap();
        assert!(
            !conversion.lost_lines().iter().any(|l| l.contains("colour")),
            "{target:?}: {:?}",
            conversion.lost_lines()
        );
        let back = scene_of(&conversion.to_bytes().unwrap());
        let want = &painted().meshes[0];
        assert_eq!(back.meshes[0].colors, want.colors, "{target:?}");
        assert_eq!(back.meshes[0].extra_color_layers, want.extra_color_layers, "{target:?}");
    }
}

#[test]
fn formats_with_one_colour_layer_report_the_others() {
    for target in [Target::SeModel, Target::Dmf] {
        let conversion = animbin::convert_scene(&painted(), target, &ConvertOptions::default()).unwrap();
        let lost = conversion.lost_lines();
        assert!(
            lost.iter().any(|l| l.contains("2 colour layers after the first")),
            "{target:?}: {lost:?}"
        );
    }
}
