//! `animbin` on Dash Model Format files: detection by magic and by the JSON form's `format`,
//! info, dump, convert (binary, JSON form, dump), validate, and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_dmf::{Animation, Bone, Dmf, Face, Material, Name, Texture, Track, Vertex};
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

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

fn sample() -> Dmf {
    let name = |s: &str| Name::new(s).unwrap();
    let mut dmf = Dmf {
        textures: vec![Texture {
            name: name("tex"),
            png: animbin_dmf::PNG_SIGNATURE.to_vec(),
            ..Texture::default()
        }],
        materials: vec![Material {
            name: name("mat"),
            texture: 0,
            ..Material::default()
        }],
        vertices: (0..3)
            .map(|i| Vertex::new(Vec3::new(i as f32, 0.0, 0.5), [0, 1, 0, 0], [0.75, 0.25, 0.0, 0.0]))
            .collect(),
        faces: vec![Face::new(
            0,
            [0, 1, 2],
            [Rgba::new(255, 255, 255, 255); 3],
            [Vec3::new(0.0, 0.0, 1.0); 3],
            [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.1, 0.7)],
        )],
        bones: vec![
            Bone::new(name("root"), 0, -1, IDENTITY),
            Bone::new(name("arm"), 0, 0, IDENTITY),
        ],
        animations: vec![
            Animation {
                name: name("wave"),
                fps: 30,
                duration: 1.0,
                tracks: vec![
                    Track::new(1, 0.0, None, Some(Quat::new(0.0, 0.0, 0.0, 1.0)), None),
                    Track::new(1, 0.5, Some(Vec3::new(0.1, 0.2, 0.3)), None, None),
                ],
                ..Animation::default()
            },
            Animation {
                name: name("still"),
                fps: 60,
                duration: 0.0,
                tracks: vec![Track::new(0, 0.0, None, None, Some(Vec3::new(1.0, 1.0, 1.0)))],
                ..Animation::default()
            },
        ],
    };
    dmf.renumber();
    dmf
}

fn write_sample(dir: &Path) -> (PathBuf, Vec<u8>) {
    let bytes = animbin_dmf::to_bytes(&sample()).unwrap();
    let path = dir.join("sample.dmf");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

#[test]
fn info_json_has_every_count() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_sample(dir.path());
    let out = animbin(&["info", "--json", s(&path)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        info,
        serde_json::json!({
            "format": "dmf",
            "texture_count": 1,
            "material_count": 1,
            "vertex_count": 3,
            "face_count": 1,
            "bone_count": 2,
            "animation_count": 2,
            "track_count": 3,
        })
    );
    let out = animbin(&["info", s(&path)]);
    assert!(stdout(&out).contains("track_count: 3"), "{}", stdout(&out));
}

#[test]
fn dump_then_convert_rebuilds_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = write_sample(dir.path());
    let out = animbin(&["dump", s(&path)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let dump: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(dump["format"], "dmf");
    assert_eq!(dump["data"]["format"], "DASH");
    assert_eq!(dump["data"]["faces"][0]["diffuse_uv"][2], serde_json::json!([0.1, 0.7]));
    let dump_path = dir.path().join("dump.json");
    std::fs::write(&dump_path, &out.stdout).unwrap();
    let rebuilt = dir.path().join("rebuilt.dmf");
    let out = animbin(&["convert", s(&dump_path), s(&rebuilt)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read(&rebuilt).unwrap(), bytes);
    // convert to .json writes the same dump.
    let again = dir.path().join("again.json");
    assert_eq!(code(&animbin(&["convert", s(&path), s(&again)])), 0);
    let again: Value = serde_json::from_slice(&std::fs::read(&again).unwrap()).unwrap();
    assert_eq!(again, dump);
}

#[test]
fn the_json_form_is_written_with_to_dmf_json_and_read_back_by_its_format_member() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = write_sample(dir.path());
    let form = dir.path().join("model.dmf-json");
    let out = animbin(&["convert", "--to", "dmf-json", s(&path), s(&form)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = std::fs::read(&form).unwrap();
    assert_eq!(text, animbin_dmf::json::to_vec(&sample()).unwrap());
    // Named .json, the JSON form is still detected by its "format": "DASH".
    let named_json = dir.path().join("model.json");
    std::fs::write(&named_json, &text).unwrap();
    let out = animbin(&["info", "--json", s(&named_json)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["format"], "dmf");
    assert_eq!(info["vertex_count"], 3);
    let back = dir.path().join("back.dmf");
    let out = animbin(&["convert", s(&named_json), s(&back)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read(&back).unwrap(), bytes);
    // Same-format conversion of a canonical file is byte-identical.
    let copy = dir.path().join("copy.dmf");
    assert_eq!(code(&animbin(&["convert", s(&path), s(&copy)])), 0);
    assert_eq!(std::fs::read(&copy).unwrap(), bytes);
}

#[test]
fn validate_is_quiet_on_a_good_file_and_lists_problems_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_sample(dir.path());
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).is_empty());

    let mut bad = sample();
    bad.faces[0].indices[1] = 7.into();
    bad.animations[0].tracks[0].bone_id = 9.into();
    let bad_path = dir.path().join("bad.dmf");
    std::fs::write(&bad_path, animbin_dmf::to_bytes(&bad).unwrap()).unwrap();
    let out = animbin(&["validate", s(&path), s(&bad_path)]);
    assert_eq!(code(&out), 1);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        [
            format!(
                "{}: face 0: vertex index b = 7 is out of range (3 vertices)",
                s(&bad_path)
            ),
            format!(
                "{}: animation 0 track 0: bone_id 9 is out of range (2 bones)",
                s(&bad_path)
            ),
        ]
    );
}

#[test]
fn bad_files_exit_1_naming_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = write_sample(dir.path());
    // The faces section moved back into the vertices: an overlap, reported at the faces'
    // offset field (attribute entry 3 at 0x40, its offset at 0x48).
    let mut overlapping = bytes.clone();
    let faces_at = u32::from_le_bytes(overlapping[0x48..0x4c].try_into().unwrap());
    overlapping[0x48..0x4c].copy_from_slice(&(faces_at - 4).to_le_bytes());
    let path = dir.path().join("overlap.dmf");
    std::fs::write(&path, &overlapping).unwrap();
    for command in ["info", "dump", "validate"] {
        let out = animbin(&[command, s(&path)]);
        assert_eq!(code(&out), 1, "{command}");
        let text = format!("{}{}", stderr(&out), stdout(&out));
        assert!(
            text.contains("dmf at byte 72 (0x48)") && text.contains("overlap"),
            "{command}: {text}"
        );
    }
    // A bad enum value.
    let mut bad_enum = bytes.clone();
    let materials_at = u32::from_le_bytes(bad_enum[0x28..0x2c].try_into().unwrap()) as usize;
    bad_enum[materials_at + 0x2e] = 9; // shader_type
    let path = dir.path().join("enum.dmf");
    std::fs::write(&path, &bad_enum).unwrap();
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    let at = materials_at + 0x2e;
    assert!(
        stderr(&out).contains(&format!("at byte {at} ({at:#x})")),
        "{}",
        stderr(&out)
    );
    // Truncated.
    let path = dir.path().join("short.dmf");
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("dmf at byte"), "{}", stderr(&out));
    // A broken JSON form names its offset too.
    let path = dir.path().join("broken.json");
    std::fs::write(
        &path,
        br#"{"format": "DASH", "version": "1.5", "skeleton": [{"name": 5}]}"#,
    )
    .unwrap();
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("dmf at byte"), "{}", stderr(&out));
}

#[test]
fn a_model_that_breaks_the_writer_rules_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from_utf8(animbin_dmf::json::to_vec(&sample()).unwrap()).unwrap();
    text = text.replacen("\"parent_id\": 0", "\"parent_id\": 1", 1);
    let path = dir.path().join("cycle.json");
    std::fs::write(&path, text).unwrap();
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("bone 1: parent_id 1 comes at or after its child"));
    let out = animbin(&["convert", s(&path), s(&dir.path().join("out.dmf"))]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("parents must come before"), "{}", stderr(&out));
}

#[test]
fn an_unknown_target_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_sample(dir.path());
    let out = animbin(&["convert", "--to", "dmf-yaml", s(&path), s(&dir.path().join("x"))]);
    assert_eq!(code(&out), 2);
}
