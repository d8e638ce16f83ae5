//! `animbin` on Dash Model Format files: detection by magic and by the JSON form's `format`,
//! info, dump, convert (binary, JSON form, dump), validate, and exit codes.

mod common;

use std::path::{Path, PathBuf};

use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_dmf::{Animation, Bone, Dmf, Face, Material, Name, Texture, Track, Vertex};

use common::{
    animbin, assert_converts_to_itself, assert_dump_keeps_special_floats, assert_dump_rebuilds, code, info_json, read,
    s, stderr, stdout, tempdir, write,
};

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
    (write(dir, "sample.dmf", &bytes), bytes)
}

#[test]
fn info_json_has_every_count() {
    let dir = tempdir();
    let (path, _) = write_sample(dir.path());
    assert_eq!(
        info_json(&path),
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
    let dir = tempdir();
    let (path, _) = write_sample(dir.path());
    let dump = assert_dump_rebuilds(&path, "dmf", dir.path(), "rebuilt.dmf", &[]);
    assert_eq!(dump["data"]["format"], "DASH");
    assert_eq!(dump["data"]["faces"][0]["diffuse_uv"][2], serde_json::json!([0.1, 0.7]));
}

#[test]
fn the_json_form_is_written_with_to_dmf_json_and_read_back_by_its_format_member() {
    let dir = tempdir();
    let (path, bytes) = write_sample(dir.path());
    let form = dir.path().join("model.dmf-json");
    let out = animbin(&["convert", "--to", "dmf-json", s(&path), s(&form)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = read(&form);
    assert_eq!(text, animbin_dmf::json::to_vec(&sample()).unwrap());
    // Named .json, the JSON form is still detected by its "format": "DASH".
    let named_json = write(dir.path(), "model.json", &text);
    let info = info_json(&named_json);
    assert_eq!(info["format"], "dmf");
    assert_eq!(info["vertex_count"], 3);
    let back = dir.path().join("back.dmf");
    let out = animbin(&["convert", s(&named_json), s(&back)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&back), bytes);
    // Same-format conversion of a canonical file is byte-identical.
    assert_converts_to_itself(&path, dir.path(), "copy.dmf", &[]);
}

#[test]
fn validate_is_quiet_on_a_good_file_and_lists_problems_with_exit_1() {
    let dir = tempdir();
    let (path, _) = write_sample(dir.path());
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).is_empty());

    let mut bad = sample();
    bad.faces[0].indices[1] = 7.into();
    bad.animations[0].tracks[0].bone_id = 9.into();
    let bad_path = write(dir.path(), "bad.dmf", &animbin_dmf::to_bytes(&bad).unwrap());
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
    let dir = tempdir();
    let (_, bytes) = write_sample(dir.path());
    // The faces section moved back into the vertices: an overlap, reported at the faces'
    // offset field (attribute entry 3 at 0x40, its offset at 0x48).
    let mut overlapping = bytes.clone();
    let faces_at = u32::from_le_bytes(overlapping[0x48..0x4c].try_into().unwrap());
    overlapping[0x48..0x4c].copy_from_slice(&(faces_at - 4).to_le_bytes());
    let path = write(dir.path(), "overlap.dmf", &overlapping);
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
    let path = write(dir.path(), "enum.dmf", &bad_enum);
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    let at = materials_at + 0x2e;
    assert!(
        stderr(&out).contains(&format!("at byte {at} ({at:#x})")),
        "{}",
        stderr(&out)
    );
    // Truncated.
    let path = write(dir.path(), "short.dmf", &bytes[..bytes.len() - 3]);
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("dmf at byte"), "{}", stderr(&out));
    // A broken JSON form names its offset too.
    let path = write(
        dir.path(),
        "broken.json",
        br#"{"format": "DASH", "version": "1.5", "skeleton": [{"name": 5}]}"#,
    );
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("dmf at byte"), "{}", stderr(&out));
}

#[test]
fn a_model_that_breaks_the_writer_rules_cannot_be_written() {
    let dir = tempdir();
    let mut text = String::from_utf8(animbin_dmf::json::to_vec(&sample()).unwrap()).unwrap();
    text = text.replacen("\"parent_id\": 0", "\"parent_id\": 1", 1);
    let path = write(dir.path(), "cycle.json", text.as_bytes());
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("bone 1: parent_id 1 comes at or after its child"));
    let out = animbin(&["convert", s(&path), s(&dir.path().join("out.dmf"))]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("parents must come before"), "{}", stderr(&out));
}

/// NaN, the infinities and NaN payloads dump as strings and convert back byte for byte,
/// while the DMF JSON form, which the spec defines with JSON numbers only, refuses them.
#[test]
fn a_dump_keeps_nan_infinities_and_nan_payloads_bit_for_bit() {
    let dir = tempdir();
    let mut dmf = sample();
    dmf.vertices[0] = Vertex::new(
        Vec3::new(f32::NAN, f32::INFINITY, f32::from_bits(0x7fc0_0001)),
        [0, 1, 0, 0],
        [f32::NEG_INFINITY, 0.25, 0.0, 0.0],
    );
    let mut matrix = IDENTITY;
    matrix[3] = f32::from_bits(0xff80_0001);
    dmf.bones[1] = Bone::new(Name::new("arm").unwrap(), 1, 0, matrix);
    dmf.materials[0].alpha_test = f32::from_bits(0xffc0_0000);
    dmf.animations[0].tracks[0] = Track::new(1, 0.0, None, Some(Quat::new(f32::NAN, 0.0, 0.0, 1.0)), None);
    let path = write(dir.path(), "special.dmf", &animbin_dmf::to_bytes(&dmf).unwrap());
    let texts = [
        "NaN",
        "Infinity",
        "-Infinity",
        "nan:0x7fc00001",
        "nan:0xff800001",
        "nan:0xffc00000",
    ];
    assert_dump_keeps_special_floats(&path, "dmf", dir.path(), "copy.dmf", &texts);
    let form = dir.path().join("special.dmf-json");
    let out = animbin(&["convert", "--to", "dmf-json", s(&path), s(&form)]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("JSON cannot hold"), "{}", stderr(&out));
}

#[test]
fn an_unknown_target_is_a_usage_error() {
    let dir = tempdir();
    let (path, _) = write_sample(dir.path());
    let out = animbin(&["convert", "--to", "dmf-yaml", s(&path), s(&dir.path().join("x"))]);
    assert_eq!(code(&out), 2);
}
