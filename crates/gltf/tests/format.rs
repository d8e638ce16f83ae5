//! `GltfFile` as a [`FileFormat`]: a file keeps its bytes and container, moves between the
//! containers with its JSON untouched, summarises, dumps back to the same bytes, and says
//! when a scene would give an empty glTF in the words the command prints.

mod common;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::{Container, FileFormat, GltfDump, GltfFile, ImageFiles, SceneOptions, repack};

fn build(scene: &Scene, container: Container) -> GltfFile {
    let options = SceneOptions::default();
    let mut report = ConversionReport::default();
    GltfFile::from_scene(scene, container, &options, &ImageFiles::default(), &mut report).unwrap()
}

fn written_as(file: &GltfFile, form: Container) -> Vec<u8> {
    let mut out = Vec::new();
    file.write_as(form, &mut out, &mut ConversionReport::default()).unwrap();
    out
}

fn undump_json(data: serde_json::Value) -> Result<GltfFile, animbin_gltf::Error> {
    GltfFile::undump(serde_json::from_value::<GltfDump>(data).unwrap())
}

#[test]
fn a_file_keeps_its_bytes_and_container_and_changes_container_without_touching_its_json() {
    let scene = common::full_scene();
    for container in [Container::Glb, Container::Gltf] {
        let file = build(&scene, container);
        let options = SceneOptions::default();
        let bytes = animbin_gltf::to_bytes(&scene, container, &options, &mut ConversionReport::default()).unwrap();
        assert_eq!(file.bytes, bytes, "from_scene writes what to_bytes writes");
        let read = GltfFile::read(&file.bytes).unwrap();
        assert_eq!(read, file);
        assert_eq!(read.form(), container);
        assert_eq!(read.to_bytes().unwrap(), file.bytes);
        let other = match container {
            Container::Glb => Container::Gltf,
            Container::Gltf => Container::Glb,
        };
        let moved = written_as(&read, other);
        assert_eq!(moved, repack(&file.bytes, other).unwrap());
        assert_eq!(GltfFile::read(&moved).unwrap().form(), other);
        assert_eq!(GltfFile::probe(&file.bytes), container == Container::Glb);
        assert_eq!(GltfFile::probe_json(&file.bytes), container == Container::Gltf);
    }
    assert!(
        GltfFile::read(b"{}").is_err(),
        "a file that does not read as a scene is refused"
    );
}

#[test]
fn json_with_a_top_level_asset_is_gltf() {
    assert!(GltfFile::probe_json(br#"{"asset": {"version": "2.0"}, "nodes": []}"#));
    assert!(!GltfFile::probe_json(br#"{"nodes": [{"asset": 1}]}"#));
    assert!(!GltfFile::probe_json(br#"{"asset": null}"#));
    assert!(!GltfFile::probe_json(br#"{"format": "seanim", "data": {}}"#));
    assert!(!GltfFile::probe_json(b"glTF"));
    assert_eq!(GltfFile::MAGIC, b"glTF");
    assert_eq!(GltfFile::EXTENSIONS, ["glb", "gltf"]);
    assert_eq!(GltfFile::JSON_EXTENSIONS, ["gltf"]);
}

#[test]
fn the_summary_counts_the_json_and_has_the_fields_info_prints() {
    let file = build(&common::full_scene(), Container::Glb);
    let summary = file.summary();
    assert_eq!(GltfFile::summary_of(&file.bytes).unwrap(), summary);
    let (json, bin) = animbin_gltf::split(&file.bytes).unwrap();
    assert_eq!(summary.container, "glb");
    assert_eq!(summary.version.as_deref(), Some("2.0"));
    assert_eq!(summary.node_count, json["nodes"].as_array().unwrap().len());
    assert_eq!(summary.animation_count, 2);
    assert_eq!(summary.bin_bytes, bin.unwrap().len());
    // The fields and their order are what `animbin info --json` prints.
    let s = &summary;
    assert_eq!(
        serde_json::to_string(s).unwrap(),
        format!(
            r#"{{"container":"glb","version":"2.0","generator":{},"node_count":{},"mesh_count":{},"primitive_count":{},"skin_count":{},"joint_count":{},"material_count":{},"image_count":{},"animation_count":2,"channel_count":{},"bin_bytes":{}}}"#,
            serde_json::to_string(&s.generator).unwrap(),
            s.node_count,
            s.mesh_count,
            s.primitive_count,
            s.skin_count,
            s.joint_count,
            s.material_count,
            s.image_count,
            s.channel_count,
            s.bin_bytes
        )
    );
    assert_eq!((s.mesh_count, s.primitive_count, s.skin_count), (1, 1, 1));
    let gltf = build(&common::animation_only(), Container::Gltf);
    assert_eq!(
        (gltf.summary().container.as_str(), gltf.summary().bin_bytes),
        ("gltf", 0)
    );
}

#[test]
fn every_form_of_dump_gives_back_the_same_file() {
    let glb = build(&common::full_scene(), Container::Glb);
    let gltf = build(&common::animation_only(), Container::Gltf);
    for file in [&glb, &gltf] {
        let data = file.dump().unwrap();
        assert!(data["json"].is_object(), "animbin's own JSON dumps as a value");
        assert_eq!(undump_json(data).unwrap(), *file);
    }
    // JSON laid out by another tool keeps its text.
    let (json, _) = animbin_gltf::split(&gltf.bytes).unwrap();
    let pretty = GltfFile::read(serde_json::to_string_pretty(&json).unwrap().as_bytes()).unwrap();
    let data = pretty.dump().unwrap();
    assert!(data["json_text"].is_string() && data.get("json").is_none(), "{data}");
    assert_eq!(undump_json(data).unwrap(), pretty);
    // A GLB with bytes past its declared length dumps whole.
    let mut tail = glb.clone();
    tail.bytes.extend_from_slice(b"tail");
    let tail = GltfFile::read(&tail.bytes).unwrap();
    let data = tail.dump().unwrap();
    assert!(data["base64"].is_string(), "{data}");
    assert_eq!(undump_json(data).unwrap(), tail);
}

#[test]
fn a_dump_member_that_is_wrong_is_named_as_a_dump_that_does_not_parse() {
    let cases = [
        (
            serde_json::json!({"container": "obj", "json": {}}),
            "container",
            "\"gltf\" or \"glb\"",
        ),
        (
            serde_json::json!({"container": "glb", "json": {}, "bin": "%%"}),
            "bin",
            "a base64 string",
        ),
        (
            serde_json::json!({"container": "glb", "base64": "%%"}),
            "base64",
            "the whole file in base64",
        ),
        (
            serde_json::json!({"container": "gltf", "json_text": "{}", "bin": ""}),
            "bin",
            "null beside `json_text` in a .gltf dump",
        ),
        (
            serde_json::json!({"container": "gltf"}),
            "json",
            "the glTF JSON (`json` or `json_text`)",
        ),
    ];
    for (data, member, expected) in cases {
        let err = undump_json(data).unwrap_err();
        assert!(
            matches!(err, animbin_gltf::Error::DumpMember { member: m, expected: e } if m == member && e == expected),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!("the gltf dump does not parse at data.{member} (line 0, column 0): expected {expected}")
        );
    }
}

#[test]
fn a_scene_without_bones_vertices_or_keys_would_give_an_empty_gltf() {
    let nothing =
        "the input holds no bones, vertices or animation keys, so the glTF would hold no node and no animation";
    assert_eq!(GltfFile::holds_nothing(&Scene::default()).as_deref(), Some(nothing));
    let (materials, textures) = common::materials();
    let mut scene = Scene {
        materials,
        textures,
        ..Scene::default()
    };
    assert_eq!(
        GltfFile::holds_nothing(&scene).as_deref(),
        Some(nothing),
        "materials alone make no node"
    );
    let mut mesh = common::mesh();
    mesh.positions.clear();
    scene.meshes.push(mesh);
    let mut animation = common::animation();
    for track in &mut animation.bones {
        track.translation.clear();
        track.rotation.clear();
        track.scale.clear();
    }
    scene.animations.push(animation);
    assert_eq!(
        GltfFile::holds_nothing(&scene).as_deref(),
        Some(nothing),
        "nor a mesh without vertices or an animation without keys"
    );
    assert_eq!(GltfFile::holds_nothing(&common::animation_only()), None);
    scene.skeleton = common::skeleton();
    assert_eq!(GltfFile::holds_nothing(&scene), None);
}
