//! Morph targets and weights: scene -> glTF -> scene, and the Khronos validator's word on
//! the files (sparse, dense and empty target accessors, `weights` channels).

mod common;

use animbin_core::math::Vec3;
use animbin_core::scene::{Animation, ConversionReport, Key, MorphTarget, Scene, WeightTrack};
use animbin_gltf::{Container, SceneOptions};
use animbin_testing::gltf::{error_lines, khronos_validate};

fn v(x: f32, y: f32, z: f32) -> Vec3<f32> {
    Vec3::new(x, y, z)
}

/// The full scene with three targets on its quad (one vertex moved with its normal, every
/// vertex moved, none moved) and an animation of two of their weights.
fn scene_with_targets() -> Scene {
    let mut scene = common::full_scene();
    scene.meshes[0].morph_targets = vec![
        MorphTarget {
            default_weight: 0.0,
            name: "smile".into(),
            indices: vec![2],
            position_deltas: vec![v(0.5, 0.0, -1.25)],
            normal_deltas: vec![v(0.0, 0.25, 0.0)],
            max_weight: None,
        },
        MorphTarget {
            default_weight: 0.0,
            name: "grow".into(),
            indices: vec![0, 1, 2, 3],
            position_deltas: vec![v(-0.1, 0.0, 0.0), v(0.1, 0.0, 0.0), v(0.1, 0.0, 1.0), v(-0.1, 0.0, 1.0)],
            normal_deltas: vec![v(0.0, 0.0, 0.0); 4],
            max_weight: None,
        },
        MorphTarget {
            name: "unused".into(),
            ..MorphTarget::default()
        },
    ];
    let keys = |values: [f64; 3]| {
        [0.0, 10.0, 20.0]
            .into_iter()
            .zip(values)
            .map(|(f, w)| Key::new(f, w))
            .collect()
    };
    scene.animations[0].weights = vec![
        WeightTrack {
            target: "smile".into(),
            keys: keys([0.0, 1.0, 0.3]),
        },
        WeightTrack {
            target: "grow".into(),
            keys: keys([0.5, 0.25, 1.5]),
        },
    ];
    scene
}

fn round_trip(scene: &Scene, options: &SceneOptions) -> (Scene, Vec<String>) {
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(scene, Container::Glb, options, &mut report).unwrap();
    let mut back_report = ConversionReport::default();
    let back = animbin_gltf::to_scene(&bytes, options, &mut back_report).unwrap();
    report.lost.extend(back_report.lost);
    (back, report.lost)
}

/// The weights as the file holds them: the nearest f32 of each.
fn single(tracks: &[WeightTrack]) -> Vec<WeightTrack> {
    let mut tracks = tracks.to_vec();
    for t in &mut tracks {
        t.keys.map_values(|v| f64::from(v as f32));
    }
    tracks
}

#[test]
fn targets_and_weights_come_back_from_a_glb() {
    let scene = scene_with_targets();
    let (back, lost) = round_trip(&scene, &SceneOptions::default());
    assert!(
        !lost.iter().any(|l| l.contains("morph") || l.contains("weight")),
        "{lost:?}"
    );
    // Offsets come back exactly (f32 both sides); normal offsets of 0 are not kept apart from
    // the vertices a target moves.
    let mut expected = scene.meshes[0].morph_targets.clone();
    expected[1].normal_deltas = vec![v(0.0, 0.0, 0.0); 4];
    assert_eq!(back.meshes[0].morph_targets, expected);
    assert_eq!(back.animations[0].weights, single(&scene.animations[0].weights));
    assert!(back.animations[1].weights.is_empty());
}

#[test]
fn unit_scale_and_z_up_scale_and_turn_the_offsets_and_undo_it_on_reading() {
    let scene = scene_with_targets();
    let options = SceneOptions {
        z_up: true,
        unit_scale: 0.5,
        ..SceneOptions::default()
    };
    let (back, _) = round_trip(&scene, &options);
    assert_eq!(
        back.meshes[0].morph_targets[0].position_deltas,
        vec![v(0.5, 0.0, -1.25)]
    );
    assert_eq!(
        back.meshes[0].morph_targets[1].position_deltas,
        scene.meshes[0].morph_targets[1].position_deltas
    );
}

#[test]
fn weight_tracks_on_different_frames_are_sampled_on_the_union_of_their_frames() {
    let mut scene = scene_with_targets();
    scene.animations[0].weights[1].keys = vec![Key::new(5.0, 1.0), Key::new(15.0, 0.0)].into();
    let (back, _) = round_trip(&scene, &SceneOptions::default());
    let at = |track: &WeightTrack, frame: f64| track.keys.iter().find(|k| k.frame == frame).map(|k| k.value);
    let smile = &back.animations[0].weights[0];
    let grow = &back.animations[0].weights[1];
    let frames: Vec<f64> = smile.keys.iter().map(|k| k.frame).collect();
    assert_eq!(frames, [0.0, 5.0, 10.0, 15.0, 20.0]);
    // smile between its keys, grow held before its first key and after its last.
    assert_eq!(at(smile, 5.0), Some(0.5));
    assert_eq!(at(grow, 0.0), Some(1.0));
    assert_eq!(at(grow, 10.0), Some(0.5));
    assert_eq!(at(grow, 20.0), Some(0.0));
}

#[test]
fn an_animation_of_weights_alone_is_exported_and_orphan_tracks_are_reported() {
    let mut scene = scene_with_targets();
    let weights = scene.animations[0].weights.clone();
    scene.animations = vec![Animation {
        name: "faces".into(),
        weights: [
            weights,
            vec![WeightTrack {
                target: "nobody".into(),
                keys: vec![Key::new(0.0, 1.0)].into(),
            }],
        ]
        .concat(),
        frame_count: 21.0,
        ..Animation::default()
    }];
    let (back, lost) = round_trip(&scene, &SceneOptions::default());
    assert!(
        lost.iter()
            .any(|l| l.contains("naming no morph target") && l.contains("nobody")),
        "{lost:?}"
    );
    assert_eq!(back.animations.len(), 1);
    assert_eq!(back.animations[0].weights, single(&scene.animations[0].weights[..2]));
}

#[test]
fn files_with_morph_targets_have_no_validator_errors() {
    let dir = std::env::temp_dir().join(format!("animbin-gltf-morph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Many vertices, so that one target is sparse with u16 indices and another dense.
    let mut big = scene_with_targets();
    let n = 300;
    let mesh = &mut big.meshes[0];
    mesh.positions = (0..n).map(|i| v(i as f32, 0.0, 0.0)).collect();
    mesh.normals = vec![v(0.0, 1.0, 0.0); n];
    mesh.uv_layers.clear();
    mesh.colors.clear();
    mesh.skin = None;
    mesh.materials.clear();
    mesh.faces = (0..n as u32 - 2).map(|i| [i, i + 1, i + 2]).collect();
    mesh.morph_targets[0].indices = vec![299];
    mesh.morph_targets[1].indices = (0..n as u32).collect();
    mesh.morph_targets[1].position_deltas = vec![v(0.0, 1.0, 0.0); n];
    mesh.morph_targets[1].normal_deltas.clear();
    let mut files = Vec::new();
    for (name, scene) in [("targets", scene_with_targets()), ("big", big)] {
        for (container, ext) in [(Container::Gltf, "gltf"), (Container::Glb, "glb")] {
            let mut report = ConversionReport::default();
            let bytes = animbin_gltf::to_bytes(&scene, container, &SceneOptions::default(), &mut report).unwrap();
            let path = dir.join(format!("{name}.{ext}"));
            std::fs::write(&path, bytes).unwrap();
            animbin_testing::gltf::provide_external_images(&path);
            files.push(path);
        }
    }
    let Some(reports) = khronos_validate(&files) else {
        return;
    };
    for report in reports {
        assert_eq!(report.errors, 0, "{}:\n{}", report.file, error_lines(&report));
    }
    std::fs::remove_dir_all(&dir).ok();
}
