//! Hair and instances of other scene files through `convert`: Cast and glTF keep them whole, and
//! every format without a place for them says it drops them.

mod read_back;

use read_back::scene_of;

use animbin::core::math::{Quat, Transform, Vec3};
use animbin::core::scene::{Animation, Bone, BoneTrack, Hair, Instance, Key, Material, Scene, Skeleton};
use animbin::{ConvertOptions, Document, Target};

fn groomed() -> Scene {
    Scene {
        skeleton: Skeleton {
            bones: vec![Bone {
                kind: Default::default(),
                name: "head".into(),
                parent: None,
                local: Transform::IDENTITY,
                global: Transform::IDENTITY,
                cosmetic: false,
                scale_compensate: true,
                rest_scale: Vec3::ONE,
            }],
            ..Skeleton::default()
        },
        materials: vec![Material {
            name: "hair_mtl".into(),
            ..Material::default()
        }],
        hairs: vec![Hair {
            name: "fringe".into(),
            segments: vec![2, 1],
            particles: (0..5).map(|i| Vec3::new(i as f32, 1.0, 0.0)).collect(),
            material: Some(0),
        }],
        instances: vec![Instance {
            name: "hat".into(),
            path: "props/hat.cast".into(),
            placement: Transform {
                translation: Vec3::new(0.0, 0.0, 1.5),
                rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
                scale: Vec3::new(2.0, 2.0, 2.0),
            },
        }],
        animations: vec![Animation {
            name: "nod".into(),
            frame_count: 2.0,
            bones: vec![BoneTrack {
                bone: "head".into(),
                translation: vec![
                    Key::new(0.0, Vec3::new(0.0, 0.0, 0.0)),
                    Key::new(1.0, Vec3::new(0.0, 1.0, 0.0)),
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
fn cast_keeps_hair_and_instances_whole() {
    let conversion = animbin::convert_scene(&groomed(), Target::Cast, &ConvertOptions::default()).unwrap();
    assert_eq!(conversion.lost_lines(), Vec::<String>::new());
    let document = Document::parse(&conversion.to_bytes().unwrap(), None).unwrap();
    let Document::Cast(cast) = document else {
        panic!("a Cast document")
    };
    let mut report = animbin::core::scene::ConversionReport::default();
    let scene = cast.to_scene(&Default::default(), &mut report).unwrap();
    assert_eq!((scene.hairs, scene.instances), (groomed().hairs, groomed().instances));
}

#[test]
fn gltf_keeps_hair_and_instances_whole() {
    for target in [Target::Glb, Target::Gltf] {
        let conversion = animbin::convert_scene(&groomed(), target, &ConvertOptions::default()).unwrap();
        let lost = conversion.lost_lines();
        assert!(
            !lost.iter().any(|l| l.contains("hair") || l.contains("instance")),
            "{target:?}: {lost:?}"
        );
        let scene = scene_of(&conversion.to_bytes().unwrap());
        assert_eq!((scene.hairs, scene.instances), (groomed().hairs, groomed().instances));
    }
}

#[test]
fn formats_without_hair_or_instances_report_them() {
    for (target, label) in [
        (Target::SeModel, "SEModel"),
        (Target::SeAnim, "SEAnim"),
        (Target::AnimX, "AnimX"),
        (Target::Dmf, "DMF"),
        (Target::Sf3, "x8an"),
    ] {
        let conversion = animbin::convert_scene(&groomed(), target, &ConvertOptions::default()).unwrap();
        let lost = conversion.report.lost;
        for line in [
            format!("hair (2 strands; {label} has no hair)"),
            format!("1 instances of other scene files ({label} has no instances)"),
        ] {
            assert!(lost.contains(&line), "{target:?}: {line:?} not in {lost:#?}");
        }
    }
}

#[test]
fn hair_and_instances_alone_are_converted_by_cast_and_gltf_and_are_nothing_to_the_others() {
    let scene = Scene {
        hairs: groomed().hairs,
        instances: groomed().instances,
        materials: groomed().materials,
        ..Scene::default()
    };
    // Each of the two formats from a file of the other (not a scene given by hand, which is
    // written even when empty).
    for (from, to) in [(Target::Glb, Target::Cast), (Target::Cast, Target::Glb)] {
        let written = animbin::convert_scene(&scene, from, &ConvertOptions::default()).unwrap();
        let document = Document::parse(&written.to_bytes().unwrap(), None).unwrap();
        let conversion = animbin::convert(&document, to, &ConvertOptions::default()).unwrap();
        assert_eq!(conversion.lost_lines(), Vec::<String>::new(), "{from:?} -> {to:?}");
        let back = scene_of(&conversion.to_bytes().unwrap());
        assert_eq!(back, scene, "{from:?} -> {to:?}");
        // (DMF would hold the material.)
        for target in [Target::SeModel, Target::SeAnim, Target::AnimX] {
            let result = animbin::convert(&document, target, &ConvertOptions::default());
            assert!(
                matches!(result, Err(animbin::Error::NothingToWrite { .. })),
                "{from:?} -> {target:?}: {:?}",
                result.map(|c| c.lost_lines())
            );
        }
    }
}
