//! Files Blender made (`testdata/graph`, written by its own glTF exporter through
//! `tests/blender/make_graph_assets.py`) keep their graph through the scene: the nodes above
//! the skeleton, skins with their exact matrices, instances, cameras, lights, default morph
//! weights and every texture slot, read the same from what animbin writes back, which the
//! Khronos validator accepts.

use std::path::PathBuf;

use animbin_core::math::Vec3;
use animbin_core::scene::{LightKind, NodeKind, Projection, Scene, TextureSlot};
use animbin_gltf::{ConversionReport, SceneOptions};
use animbin_testing::gltf::{error_lines, khronos_validate};

fn asset(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/graph")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(bytes: &[u8]) -> (Scene, Vec<String>) {
    let mut report = ConversionReport::default();
    let scene = animbin_gltf::to_scene(bytes, &SceneOptions::default(), &mut report).unwrap();
    (scene, report.lost)
}

fn write(scene: &Scene) -> (Vec<u8>, Vec<String>) {
    let mut report = ConversionReport::default();
    let glb = animbin_gltf::from_scene(scene, &SceneOptions::default(), &mut report).unwrap();
    (glb, report.lost)
}

const ASSETS: [&str; 10] = [
    "armature_under_empty.glb",
    "bind_scale_100.glb",
    "cameras.glb",
    "cameras_light.glb",
    "instanced.glb",
    "pbr_textures.glb",
    "shape_keys.glb",
    "step_cubic.glb",
    "unskinned_animated.glb",
    "z_up_root.glb",
];

/// Blender's files, read, written and read again, give the same scene: whole values, so
/// nothing of the graph is lost on the way (the first reading is already f32, which a glb
/// holds exactly).
#[test]
fn every_blender_asset_reads_back_the_same_scene_from_what_animbin_writes() {
    for name in ASSETS {
        let (scene, _) = read(&asset(name));
        let (glb, lost) = write(&scene);
        assert_eq!(lost, Vec::<String>::new(), "{name}");
        let (back, _) = read(&glb);
        assert_eq!(back, scene, "{name}");
    }
}

#[test]
fn nodes_above_the_skeleton_stay_plain_nodes_with_their_transforms() {
    let (scene, lost) = read(&asset("armature_under_empty.glb"));
    // Blender writes its bones' scale channels as STEP beside LINEAR ones: each keeps its own.
    assert_eq!(lost, Vec::<String>::new());
    let animation = &scene.animations[0];
    assert_eq!(animation.interpolation, animbin_core::scene::Interpolation::Linear);
    assert!(
        animation
            .bones
            .iter()
            .filter(|t| !t.scale.is_empty())
            .all(|t| t.curves.scale == Some(animbin_core::scene::Curve::Step)),
        "{:?}",
        animation.bones.iter().map(|t| (&t.bone, &t.curves)).collect::<Vec<_>>()
    );
    let bones = &scene.skeleton.bones;
    let placement = bones.iter().position(|b| b.name == "Placement").unwrap();
    let rig = bones.iter().position(|b| b.name == "Rig").unwrap();
    assert_eq!(bones[placement].kind, NodeKind::Plain);
    assert_eq!(bones[rig].kind, NodeKind::Plain);
    assert_eq!(bones[rig].parent, Some(placement));
    assert!((bones[placement].local.scale.x - 0.5).abs() < 1e-6);
    let root = bones.iter().position(|b| b.name == "Root").unwrap();
    assert_eq!(bones[root].kind, NodeKind::Bone);
    assert_eq!(bones[root].parent, Some(rig));
    // The skinned mesh is placed by its node under the rig, bound by the file's skin.
    let skin = &scene.skins[0];
    assert_eq!(skin.joints.len(), 4);
    assert_eq!(scene.mesh_instances.len(), 1);
    assert_eq!(scene.meshes[0].skin.as_ref().unwrap().skin, Some(0));
}

#[test]
fn inverse_bind_matrices_keep_their_scale_exactly() {
    let bytes = asset("bind_scale_100.glb");
    let (scene, _) = read(&bytes);
    // The matrices are the file's f32 values, widened.
    let json = animbin_gltf::split(&bytes).unwrap().0;
    let accessor = json["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    assert_eq!(json["accessors"][accessor]["count"], scene.skins[0].joints.len());
    for m in &scene.skins[0].inverse_bind_matrices {
        let column = Vec3::new(m.rows[0][0], m.rows[1][0], m.rows[2][0]);
        assert!((column.dot(column).sqrt() - 100.0).abs() < 1e-3, "{m:?}");
    }
}

#[test]
fn instances_cameras_and_lights_keep_their_nodes() {
    let (scene, _) = read(&asset("instanced.glb"));
    assert_eq!(scene.meshes.len(), 1);
    assert_eq!(scene.mesh_instances.len(), 3);
    assert!(scene.mesh_instances.iter().all(|i| i.meshes == [0]));
    let (glb, _) = write(&scene);
    let json = animbin_gltf::split(&glb).unwrap().0;
    assert_eq!(json["meshes"].as_array().unwrap().len(), 1);
    let placed = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["mesh"] == 0)
        .count();
    assert_eq!(placed, 3);

    let (scene, _) = read(&asset("cameras_light.glb"));
    let kinds: Vec<bool> = scene
        .cameras
        .iter()
        .map(|c| matches!(c.projection, Projection::Perspective { .. }))
        .collect();
    assert_eq!(kinds, [true, false]);
    assert_eq!(scene.lights.len(), 2);
    assert!(scene.lights.iter().any(|l| matches!(l.kind, LightKind::Spot { .. })));
    assert!(scene.lights.iter().any(|l| l.kind == LightKind::Point));
    let nodes: std::collections::HashSet<usize> = scene
        .cameras
        .iter()
        .map(|c| c.node)
        .chain(scene.lights.iter().map(|l| l.node))
        .collect();
    assert_eq!(nodes.len(), 4);
}

#[test]
fn default_morph_weights_and_every_texture_slot_are_kept() {
    let (scene, _) = read(&asset("shape_keys.glb"));
    let still = scene.meshes.iter().find(|m| m.name.starts_with("SheetStill")).unwrap();
    let weights: Vec<f32> = still.morph_targets.iter().map(|t| t.default_weight).collect();
    assert!(
        (weights[0] - 0.3).abs() < 1e-6 && (weights[1] - 0.7).abs() < 1e-6,
        "{weights:?}"
    );

    let (scene, lost) = read(&asset("pbr_textures.glb"));
    assert_eq!(lost, Vec::<String>::new());
    let material = &scene.materials[0];
    let mut slots: Vec<TextureSlot> = material.links.iter().map(|l| l.slot).collect();
    slots.sort_by_key(|s| s.name());
    assert_eq!(
        slots,
        [
            TextureSlot::Emissive,
            TextureSlot::MetallicRoughness,
            TextureSlot::Normal,
            TextureSlot::Occlusion
        ]
    );
    assert!(material.texture.is_some());
    let occlusion = material
        .links
        .iter()
        .find(|l| l.slot == TextureSlot::Occlusion)
        .unwrap();
    assert_eq!(occlusion.uv_layer, 1);
    let emissive = material.links.iter().find(|l| l.slot == TextureSlot::Emissive).unwrap();
    assert!(
        scene.textures[emissive.texture].data.starts_with(&[0xFF, 0xD8, 0xFF]),
        "a JPEG"
    );
}

#[test]
fn a_file_that_requires_an_unread_extension_is_refused_by_its_name() {
    let gltf = br#"{"asset":{"version":"2.0"},"extensionsUsed":["KHR_draco_mesh_compression"],
        "extensionsRequired":["KHR_draco_mesh_compression"]}"#;
    let mut report = ConversionReport::default();
    let error = animbin_gltf::to_scene(gltf, &SceneOptions::default(), &mut report).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("/extensionsRequired/0") && message.contains("KHR_draco_mesh_compression"),
        "{message}"
    );
}

#[test]
fn what_animbin_writes_from_the_blender_assets_passes_the_khronos_validator() {
    let dir = std::env::temp_dir().join(format!("animbin-gltf-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for name in ASSETS {
        let (scene, _) = read(&asset(name));
        let path = dir.join(name);
        std::fs::write(&path, write(&scene).0).unwrap();
        files.push(path);
    }
    let Some(reports) = khronos_validate(&files) else {
        return;
    };
    for report in reports {
        assert_eq!(report.errors, 0, "{}:\n{}", report.file, error_lines(&report));
    }
    std::fs::remove_dir_all(&dir).ok();
}
