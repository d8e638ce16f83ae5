//! Blend shapes through `convert`: Cast and SEModel into glb keep their morph targets and
//! weights (within f32, which both sides hold), and formats without blend shapes say so.

mod read_back;

use read_back::scene_of;

use animbin::core::math::Vec3;
use animbin::core::scene::{Animation, Key, Mesh, MorphTarget, Scene, WeightTrack};
use animbin::{ConvertOptions, Document, Target};

fn face() -> Scene {
    let v = Vec3::new;
    Scene {
        meshes: vec![Mesh {
            name: "face".into(),
            positions: vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(1.0, 1.0, 0.0), v(0.0, 1.0, 0.0)],
            faces: vec![[0, 1, 2], [0, 2, 3]],
            morph_targets: vec![
                MorphTarget {
                    name: "smile".into(),
                    indices: vec![2, 3],
                    position_deltas: vec![v(0.5, 0.25, 0.5), v(-0.5, 0.0, 0.1)],
                    ..MorphTarget::default()
                },
                MorphTarget {
                    name: "blink".into(),
                    indices: vec![0],
                    position_deltas: vec![v(0.0, 0.0, -1.0)],
                    ..MorphTarget::default()
                },
            ],
            ..Mesh::default()
        }],
        animations: vec![Animation {
            name: "talk".into(),
            frame_count: 21.0,
            weights: ["smile", "blink"]
                .into_iter()
                .zip([[0.0, 1.0, 0.3], [0.7, 0.2, 0.0]])
                .map(|(target, w)| WeightTrack {
                    target: target.into(),
                    keys: [0.0, 10.0, 20.0]
                        .into_iter()
                        .zip(w)
                        .map(|(f, w)| Key::new(f, w))
                        .collect(),
                })
                .collect(),
            ..Animation::default()
        }],
        ..Scene::default()
    }
}

fn glb_of(document: &Document) -> (Vec<u8>, Vec<String>) {
    let conversion = animbin::convert(document, Target::Glb, &ConvertOptions::default()).unwrap();
    (conversion.to_bytes().unwrap(), conversion.lost_lines())
}

#[test]
fn cast_to_glb_keeps_the_targets_and_their_weights() {
    let cast = animbin::convert_scene(&face(), Target::Cast, &ConvertOptions::default())
        .unwrap()
        .to_bytes()
        .unwrap();
    let document = Document::parse(&cast, None).unwrap();
    let (glb, lost) = glb_of(&document);
    assert!(
        !lost.iter().any(|l| l.contains("morph") || l.contains("blend")),
        "{lost:?}"
    );
    let back = scene_of(&glb);
    assert_eq!(back.meshes[0].morph_targets, face().meshes[0].morph_targets);
    // Weights are f32 in both files: the nearest f32 of each.
    let mut expected = face().animations[0].weights.clone();
    for track in &mut expected {
        track.keys.map_values(|v| f64::from(v as f32));
    }
    assert_eq!(back.animations[0].weights, expected);
}

#[test]
fn an_seblend_semodel_to_glb_keeps_its_shapes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample_blend.semodel");
    let document = Document::open(&path).unwrap();
    let source = scene_of(&std::fs::read(&path).unwrap());
    let (glb, _) = glb_of(&document);
    let back = scene_of(&glb);
    assert_eq!(back.meshes[0].morph_targets, source.meshes[0].morph_targets);
    assert_eq!(back.meshes[0].morph_targets[0].name, "stretch");
}

#[test]
fn formats_without_blend_shapes_report_them() {
    for target in [Target::SeAnim, Target::AnimX, Target::Dmf, Target::Sf3] {
        let conversion = animbin::convert_scene(&face(), target, &ConvertOptions::default()).unwrap();
        let lost = conversion.lost_lines();
        assert!(
            lost.iter().any(|l| l.contains("morph target weight tracks")),
            "{target:?}: {lost:?}"
        );
        if target == Target::Dmf {
            assert!(lost.iter().any(|l| l.contains("2 morph targets")), "{lost:?}");
        }
    }
}
