//! `animbin` on SEModel files: detection by magic, info, dump -> convert byte for byte, layout
//! conversion, validate with byte offsets, and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use animbin_core::math::{Vec2, Vec3};
use animbin_core::testing::{corpus_files, shared_corpus};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::flags::{BoneFlags, MeshFlags};
use animbin_semodel::{Block, Bone, Influence, Pose, SeModel, to_bytes};
use serde_json::Value;

fn animbin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_animbin"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("an exit code, not a signal")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn sample() -> SeModel {
    SeModel::Deployed(deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX.with(BoneFlags::LOCAL_MATRIX),
        mesh_flags: MeshFlags::UV_SET.with(MeshFlags::NORMALS).with(MeshFlags::WEIGHTS),
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

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn info(path: &Path) -> Value {
    let out = animbin(&["info", "--json", s(path)]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn info_json_names_the_format_and_sums_vertices_and_faces() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "model.bin", &to_bytes(&sample()).unwrap());
    let info = info(&path);
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
    let dir = tempfile::tempdir().unwrap();
    let mut files = vec![write(dir.path(), "sample.semodel", &to_bytes(&sample()).unwrap())];
    let mut report = Default::default();
    let scene = sample().to_scene(&mut report).unwrap();
    let draft = SeModel::from_scene(&scene, animbin_semodel::Layout::Draft, &mut report).unwrap();
    files.push(write(dir.path(), "draft.semodel", &to_bytes(&draft).unwrap()));
    if let Some(corpus) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") {
        files.extend(corpus_files(&corpus, "semodel"));
    }
    for file in files {
        let original = std::fs::read(&file).unwrap();
        let dump = animbin(&["dump", s(&file)]);
        assert_eq!(code(&dump), 0, "{}", text(&dump.stderr));
        let json: Value = serde_json::from_slice(&dump.stdout).unwrap();
        assert_eq!(json["format"], "semodel");
        let dump_path = write(dir.path(), "dump.json", &dump.stdout);
        let rebuilt = dir.path().join("rebuilt.semodel");
        let out = animbin(&["convert", s(&dump_path), s(&rebuilt)]);
        assert_eq!(code(&out), 0, "{}", text(&out.stderr));
        assert_eq!(std::fs::read(&rebuilt).unwrap(), original, "{}", file.display());
        // Same-format conversion of the file itself is byte-identical too.
        let copy = dir.path().join("copy.semodel");
        assert_eq!(code(&animbin(&["convert", s(&file), s(&copy)])), 0);
        assert_eq!(std::fs::read(&copy).unwrap(), original, "{}", file.display());
    }
}

#[test]
fn the_layouts_convert_into_each_other_with_losses_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "sample.semodel", &to_bytes(&sample()).unwrap());
    let draft = dir.path().join("draft.semodel");
    let out = animbin(&["convert", "--to", "semodel-draft", s(&path), s(&draft)]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("semodel-draft cannot hold: material definitions"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(&std::fs::read(&draft).unwrap()[9..11], &[0x1E, 0]);
    let info_draft = info(&draft);
    assert_eq!(info_draft["layout"], "draft");
    assert_eq!(info_draft["vertex_count"], 3);
    let back = dir.path().join("back.semodel");
    let out = animbin(&["convert", "--to", "semodel-deployed", s(&draft), s(&back)]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let info_back = info(&back);
    assert_eq!(info_back["layout"], "deployed");
    assert_eq!(info_back["face_count"], 1);
    assert_eq!(code(&animbin(&["validate", s(&draft), s(&back)])), 0);
}

#[test]
fn validate_lists_each_problem_with_its_byte_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = to_bytes(&sample()).unwrap();
    let good = write(dir.path(), "good.semodel", &bytes);
    let out = animbin(&["validate", s(&good)]);
    assert_eq!((code(&out), text(&out.stdout)), (0, String::new()));
    // Header 29, names "root\0arm\0" 9, two 61-byte bone records, mesh header 11, positions
    // 36, UVs 24, normals 36, weights 15: the face is at 312; make its last index 5.
    let face = 29 + 9 + 122 + 11 + 36 + 24 + 36 + 15;
    assert_eq!(&bytes[face..face + 3], &[0, 1, 2]);
    bytes[face + 2] = 5;
    let bad = write(dir.path(), "bad.semodel", &bytes);
    let out = animbin(&["validate", s(&good), s(&bad)]);
    assert_eq!(code(&out), 1);
    let lines = text(&out.stdout);
    assert_eq!(lines.lines().count(), 1, "{lines}");
    assert!(
        lines.contains(&format!("byte {face}")) && lines.contains("past vertexCount 3"),
        "{lines}"
    );
    assert!(lines.starts_with(s(&bad)), "{lines}");
}

#[test]
fn bad_input_exits_1_with_the_byte_offset() {
    let dir = tempfile::tempdir().unwrap();
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
            let message = text(&out.stderr) + &text(&out.stdout);
            assert!(message.contains(expected), "{command:?}: {message}");
        }
    }
}

#[test]
fn a_dump_refuses_floats_json_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let mut model = sample();
    let SeModel::Deployed(m) = &mut model else {
        unreachable!()
    };
    m.meshes.items_mut()[0].normals[0].x = f32::NAN;
    let path = write(dir.path(), "nan.semodel", &to_bytes(&model).unwrap());
    let out = animbin(&["dump", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(text(&out.stderr).contains("NaN"), "{}", text(&out.stderr));
    // The file itself is fine otherwise: it converts to itself byte for byte.
    let copy = dir.path().join("copy.semodel");
    assert_eq!(code(&animbin(&["convert", s(&path), s(&copy)])), 0);
    assert_eq!(std::fs::read(copy).unwrap(), std::fs::read(path).unwrap());
}

#[test]
fn an_unknown_target_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "sample.semodel", &to_bytes(&sample()).unwrap());
    let out = animbin(&["convert", "--to", "semodel-v2", s(&path), s(&dir.path().join("x"))]);
    assert_eq!(code(&out), 2, "{}", text(&out.stderr));
}
