//! Hair as line meshes and instances of other scene files as nodes: what the glTF holds,
//! and that the reader gives back the exact scene hairs and instances.

mod common;

use animbin_core::math::{Transform, Vec3};
use animbin_core::scene::{ConversionReport, Hair, Instance, Scene};
use animbin_gltf::{Container, SceneOptions};
use serde_json::json;

fn write(scene: &Scene, container: Container, options: &SceneOptions) -> (Vec<u8>, Vec<String>) {
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(scene, container, options, &mut report).unwrap();
    (bytes, report.lost)
}

fn read(bytes: &[u8]) -> (Scene, Vec<String>) {
    let mut report = ConversionReport::default();
    let scene = animbin_gltf::to_scene(bytes, &SceneOptions::default(), &mut report).unwrap();
    (scene, report.lost)
}

/// The u16 values of accessor `index` of a `.gltf` animbin wrote (tightly packed).
fn u16_values(json: &serde_json::Value, bin: &[u8], index: usize) -> Vec<u16> {
    let accessor = &json["accessors"][index];
    assert_eq!(accessor["componentType"], 5123);
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = accessor["count"].as_u64().unwrap() as usize;
    bin[start..start + count * 2]
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

#[test]
fn hair_and_instances_come_back_exactly_from_both_containers_and_the_axis_node() {
    let scene = common::groomed_scene();
    let (_, plain_lost) = write(&common::full_scene(), Container::Glb, &SceneOptions::default());
    for container in [Container::Gltf, Container::Glb] {
        for options in common::axis_and_scale_options() {
            let (bytes, lost) = write(&scene, container, &options);
            // Nothing lost beyond what the full scene loses without them.
            assert_eq!(lost, plain_lost);
            let (back, _) = read(&bytes);
            assert_eq!(back.hairs, scene.hairs);
            assert_eq!(back.instances, scene.instances);
            // The instance nodes are neither bones nor meshes.
            assert_eq!(back.skeleton.bones.len(), scene.skeleton.bones.len() + 1);
            assert_eq!(back.meshes.len(), scene.meshes.len());
        }
    }
}

#[test]
fn a_hair_is_a_mesh_of_lines_along_each_strand_and_an_instance_a_node_with_its_path() {
    let scene = Scene {
        materials: common::materials().0,
        ..common::groomed_scene()
    };
    let (bytes, _) = write(&scene, Container::Glb, &SceneOptions::default());
    let (json, bin) = animbin_gltf::split(&bytes).unwrap();
    let bin = bin.unwrap();
    let meshes = json["meshes"].as_array().unwrap();
    let fringe = meshes.iter().find(|m| m["name"] == "fringe").unwrap();
    let primitive = &fringe["primitives"][0];
    assert_eq!(fringe["extras"], json!({"animbin": {"hair": {"segments": [2, 1, 3]}}}));
    assert_eq!(fringe["primitives"].as_array().unwrap().len(), 1);
    assert_eq!((&primitive["mode"], &primitive["material"]), (&json!(1), &json!(1)));
    // Material 1 is textured, which glTF allows only with texture coordinates.
    assert_eq!(
        primitive["attributes"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["POSITION", "TEXCOORD_0"]
    );
    let indices = u16_values(&json, &bin, primitive["indices"].as_u64().unwrap() as usize);
    // Strands of 3, 2 and 4 particles: 0-1-2, 3-4, 5-6-7-8.
    assert_eq!(indices, [0, 1, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8]);
    let position = &json["accessors"][primitive["attributes"]["POSITION"].as_u64().unwrap() as usize];
    assert_eq!(
        (&position["count"], &position["min"], &position["max"]),
        (&json!(9), &json!([0.0, 0.0, 1.5]), &json!([2.0, 0.75, 1.5]))
    );
    // Strands without segments: points, no indices, no material.
    let stubble = meshes.iter().find(|m| m["name"] == "stubble").unwrap();
    assert_eq!(
        stubble["primitives"][0].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["attributes", "mode"]
    );
    assert_eq!(stubble["primitives"][0]["mode"], 0);

    let nodes = json["nodes"].as_array().unwrap();
    let hat = nodes.iter().find(|n| n["name"] == "hat").unwrap();
    // The JSON holds the shortest decimal that reads back as the f32.
    let half: f64 = std::f32::consts::FRAC_1_SQRT_2.to_string().parse().unwrap();
    assert_eq!(
        *hat,
        json!({
            "name": "hat",
            "translation": [0.0, 0.25, 1.75],
            "rotation": [0.0, 0.0, half, half],
            "scale": [2.0, 2.0, 2.0],
            "extras": {"animbin": {"instance": "props/hat.cast"}},
        })
    );
    let tree = nodes
        .iter()
        .find(|n| n["extras"]["animbin"]["instance"] == "C:/scenes/ëxample/tree.cast")
        .unwrap();
    assert_eq!(
        *tree,
        json!({"name": "", "extras": {"animbin": {"instance": "C:/scenes/ëxample/tree.cast"}}})
    );
    // In the world beside the model, under animbin's root node (the skin's bones have
    // several roots, which glTF wants under one).
    let hat_index = nodes.iter().position(|n| n == hat).unwrap();
    let parent = nodes
        .iter()
        .position(|n| n["children"].as_array().is_some_and(|c| c.contains(&json!(hat_index))))
        .unwrap();
    assert_eq!(nodes[parent]["name"], "animbin_root");
    assert_eq!(json["scenes"][0]["nodes"][0], parent);
}

#[test]
fn hair_and_instances_alone_make_a_glb_without_bones() {
    let scene = Scene {
        hairs: vec![Hair {
            name: "strand".into(),
            segments: vec![1],
            particles: vec![Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)],
            material: None,
        }],
        instances: vec![Instance {
            name: "rock".into(),
            path: "rock.cast".into(),
            placement: Transform {
                translation: Vec3::new(3.0, 0.0, 0.0),
                ..Transform::IDENTITY
            },
        }],
        ..Scene::default()
    };
    let (bytes, lost) = write(&scene, Container::Glb, &SceneOptions::default());
    assert_eq!(lost, Vec::<String>::new());
    let (back, lost) = read(&bytes);
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(back, scene);
}

#[test]
fn placements_beyond_f32_are_reported_and_broken_hair_is_refused() {
    let mut scene = common::groomed_scene();
    scene.instances[1].placement.translation.x = 0.1;
    let (_, lost) = write(&scene, Container::Glb, &SceneOptions::default());
    assert!(
        lost.contains(
            &"instance placement digits beyond f32 or rotations not of unit length (glTF nodes hold unit f32 rotations)"
                .to_string()
        ),
        "{lost:?}"
    );
    scene.hairs[0].particles.pop();
    let error = animbin_gltf::to_bytes(
        &scene,
        Container::Glb,
        &SceneOptions::default(),
        &mut ConversionReport::default(),
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("hair 0 (\"fringe\"): 8 particles for 3 strands that call for 9"),
        "{error}"
    );
}

#[test]
fn line_meshes_of_other_tools_stay_skipped_and_reported() {
    let scene = Scene {
        hairs: common::groomed_scene().hairs[..1].to_vec(),
        ..Scene::default()
    };
    let (bytes, _) = write(&scene, Container::Glb, &SceneOptions::default());
    let (mut json, bin) = animbin_gltf::split(&bytes).unwrap();
    // Another tool's line strip: the same positions without animbin's extras.
    json["meshes"][0].as_object_mut().unwrap().remove("extras");
    json["meshes"][0]["primitives"][0]["mode"] = json!(3);
    json["meshes"][0]["primitives"][0]
        .as_object_mut()
        .unwrap()
        .remove("indices");
    let foreign = animbin_gltf::join(json, bin, Container::Glb).unwrap();
    let (back, lost) = read(&foreign);
    assert_eq!((back.hairs.len(), back.meshes.len()), (0, 0));
    assert!(
        lost.contains(
            &"/meshes/0/primitives/0: a primitive of LineStrip (the scene holds triangles): skipped".to_string()
        ),
        "{lost:?}"
    );
}

#[test]
fn hair_sits_under_the_model_placement_and_instances_beside_it() {
    let scene = Scene {
        placement: Transform {
            translation: Vec3::new(1.0, 2.0, -3.0),
            rotation: animbin_core::math::Quat::new(0.5, 0.5, 0.5, 0.5),
            scale: Vec3::new(2.0, 2.0, 2.0),
        },
        ..common::groomed_scene()
    };
    for options in common::axis_and_scale_options() {
        let (bytes, _) = write(&scene, Container::Glb, &options);
        let (json, _) = animbin_gltf::split(&bytes).unwrap();
        let nodes = json["nodes"].as_array().unwrap();
        // The parent's name, or "" for a root of the scene.
        let parent_of = |name: &str| {
            let at = nodes.iter().position(|n| n["name"] == name).unwrap();
            nodes
                .iter()
                .find(|n| n["children"].as_array().is_some_and(|c| c.contains(&json!(at))))
                .map_or(String::new(), |p| p["name"].as_str().unwrap().to_string())
        };
        assert_eq!(parent_of("fringe"), "animbin_placement");
        assert_eq!(parent_of("hat"), if options.z_up { "animbin_root" } else { "" });
        let (back, lost) = read(&bytes);
        assert_eq!(back.placement, scene.placement);
        assert_eq!(back.hairs, scene.hairs);
        assert_eq!(back.instances, scene.instances);
        assert!(
            !lost.iter().any(|l| l.contains("placed by a node transform")),
            "{lost:?}"
        );
    }
}
