//! `animbin` on SEModel files: detection by magic, info, dump -> convert byte for byte, layout
//! conversion, validate with byte offsets, and exit codes.

mod common;

use animbin_core::math::{Vec2, Vec3};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::{Block, Bone, BoneFlags, Influence, MeshFlags, Pose, SceneOptions, SeModel, to_bytes};
use animbin_testing::{corpus_files, shared_corpus};

use common::{
    animbin, assert_converts_to_itself, assert_dump_keeps_special_floats, assert_dump_rebuilds, code, info_json, read,
    s, stderr, stdout, tempdir, write,
};

fn sample() -> SeModel {
    SeModel::Deployed(deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX,
        mesh_flags: MeshFlags::UV_SET | MeshFlags::NORMALS | MeshFlags::WEIGHTS,
        bones: Block::Present(vec![
            Bone {
                name: "root".into(),
                parent: -1,
                global: Some(Pose::default()),
                local: Some(Pose::default()),
                ..Default::default()
            },
            Bone {
                name: "arm".into(),
                parent: 0,
                global: Some(Pose::default()),
                local: Some(Pose::default()),
                ..Default::default()
            },
        ]),
        meshes: Block::Present(vec![deployed::Mesh {
            max_influence: 1,
            positions: vec![
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ],
            uvs: vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)],
            normals: vec![Vec3::new(0.0, 0.0, 1.0); 3],
            weights: vec![Influence { bone: 1, weight: 1.0 }; 3],
            faces: vec![[0, 1, 2]],
            material_indices: vec![0],
            ..Default::default()
        }]),
        materials: Block::Present(vec![Material {
            name: "skin".into(),
            maps: Some(MaterialMaps {
                diffuse: "skin_c.png".into(),
                ..Default::default()
            }),
        }]),
        ..Default::default()
    })
}

#[test]
fn info_json_names_the_format_and_sums_vertices_and_faces() {
    let dir = tempdir();
    let path = write(dir.path(), "model.bin", &to_bytes(&sample()).unwrap());
    let info = info_json(&path);
    assert_eq!(info["format"], "semodel", "detected by its magic, whatever the name");
    assert_eq!(info["layout"], "deployed");
    assert_eq!(info["bone_count"], 2);
    assert_eq!(info["mesh_count"], 1);
    assert_eq!(info["material_count"], 1);
    assert_eq!(info["vertex_count"], 3);
    assert_eq!(info["face_count"], 1);
}

#[test]
fn dump_then_convert_rebuilds_the_same_bytes() {
    let dir = tempdir();
    let mut files = vec![write(dir.path(), "sample.semodel", &to_bytes(&sample()).unwrap())];
    let mut report = Default::default();
    let scene = sample().to_scene(&SceneOptions::default(), &mut report).unwrap();
    let draft = SeModel::from_scene_in(
        &scene,
        animbin_semodel::Layout::Draft,
        &SceneOptions::default(),
        &mut report,
    )
    .unwrap();
    files.push(write(dir.path(), "draft.semodel", &to_bytes(&draft).unwrap()));
    if let Some(corpus) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") {
        files.extend(corpus_files(&corpus, "semodel"));
    }
    for file in files {
        assert_dump_rebuilds(&file, "semodel", dir.path(), "rebuilt.semodel", &[]);
        // Same-format conversion of the file itself is byte-identical too.
        assert_converts_to_itself(&file, dir.path(), "copy.semodel", &[]);
    }
}

#[test]
fn the_layouts_convert_into_each_other_with_losses_on_stderr() {
    let dir = tempdir();
    let path = write(dir.path(), "sample.semodel", &to_bytes(&sample()).unwrap());
    let draft = dir.path().join("draft.semodel");
    let out = animbin(&["convert", "--to", "semodel-draft", s(&path), s(&draft)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("semodel-draft cannot hold: material definitions"),
        "{}",
        stderr(&out)
    );
    assert_eq!(&read(&draft)[9..11], &[0x1E, 0]);
    let info_draft = info_json(&draft);
    assert_eq!(info_draft["layout"], "draft");
    assert_eq!(info_draft["vertex_count"], 3);
    let back = dir.path().join("back.semodel");
    let out = animbin(&["convert", "--to", "semodel-deployed", s(&draft), s(&back)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let info_back = info_json(&back);
    assert_eq!(info_back["layout"], "deployed");
    assert_eq!(info_back["face_count"], 1);
    assert_eq!(code(&animbin(&["validate", s(&draft), s(&back)])), 0);
}

#[test]
fn validate_lists_each_problem_with_its_byte_and_exits_1() {
    let dir = tempdir();
    let mut bytes = to_bytes(&sample()).unwrap();
    let good = write(dir.path(), "good.semodel", &bytes);
    let out = animbin(&["validate", s(&good)]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
    // Header 29, names "root\0arm\0" 9, two 61-byte bone records, mesh header 11, positions
    // 36, UVs 24, normals 36, weights 15: the face is at 312; make its last index 5.
    let face = 29 + 9 + 122 + 11 + 36 + 24 + 36 + 15;
    assert_eq!(&bytes[face..face + 3], &[0, 1, 2]);
    bytes[face + 2] = 5;
    let bad = write(dir.path(), "bad.semodel", &bytes);
    let out = animbin(&["validate", s(&good), s(&bad)]);
    assert_eq!(code(&out), 1);
    let lines = stdout(&out);
    assert_eq!(lines.lines().count(), 1, "{lines}");
    assert!(
        lines.contains(&format!("byte {face}")) && lines.contains("past vertexCount 3"),
        "{lines}"
    );
    assert!(lines.starts_with(s(&bad)), "{lines}");
}

#[test]
fn bad_input_exits_1_with_the_byte_offset() {
    let dir = tempdir();
    let bytes = to_bytes(&sample()).unwrap();
    let mut header = bytes.clone();
    header[9] = 0x20;
    let cases = [
        ("header.semodel", header, "at byte 9"),
        ("short.semodel", bytes[..40].to_vec(), "at byte 29"),
    ];
    for (name, bytes, expected) in cases {
        let path = write(dir.path(), name, &bytes);
        for command in [&["info", s(&path)][..], &["dump", s(&path)], &["validate", s(&path)]] {
            let out = animbin(command);
            assert_eq!(code(&out), 1, "{command:?}");
            let message = stderr(&out) + &stdout(&out);
            assert!(message.contains(expected), "{command:?}: {message}");
        }
    }
}

/// NaN, the infinities and NaN payloads in positions, normals, UVs, weights and bone poses
/// dump as strings and convert back byte for byte.
#[test]
fn a_dump_keeps_nan_infinities_and_nan_payloads_bit_for_bit() {
    let dir = tempdir();
    let mut model = sample();
    let SeModel::Deployed(m) = &mut model else {
        unreachable!()
    };
    let mesh = &mut m.meshes.items_mut()[0];
    mesh.normals[0].x = f32::NAN;
    mesh.positions[1].y = f32::INFINITY;
    mesh.uvs[2].x = f32::from_bits(0x7fc0_0001);
    mesh.weights[0].weight = f32::from_bits(0xff80_0001);
    let bone = &mut m.bones.items_mut()[1];
    bone.global.as_mut().unwrap().rotation.w = f32::NEG_INFINITY;
    bone.local.as_mut().unwrap().position.z = f32::from_bits(0xffc0_0000);
    let path = write(dir.path(), "nan.semodel", &to_bytes(&model).unwrap());
    let texts = [
        "NaN",
        "Infinity",
        "-Infinity",
        "nan:0x7fc00001",
        "nan:0xff800001",
        "nan:0xffc00000",
    ];
    assert_dump_keeps_special_floats(&path, "semodel", dir.path(), "copy.semodel", &texts);
}

#[test]
fn an_unknown_target_is_a_usage_error() {
    let dir = tempdir();
    let path = write(dir.path(), "sample.semodel", &to_bytes(&sample()).unwrap());
    let out = animbin(&["convert", "--to", "semodel-v2", s(&path), s(&dir.path().join("x"))]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}
