//! The JSON form: its exact shape, the spellings and integer enums it accepts, and what it
//! refuses.

mod common;

use animbin_core::ErrorKind;
use animbin_core::math::Vec3;
use animbin_dmf::{BlendFactor, Bool16, Dmf, Name, PrsFlags, Side, Wrap, json};
use animbin_testing::assert_every_truncation_fails;
use common::{fixture, model};
use serde_json::json;
use zerocopy::little_endian::{F32, I16, U16};

#[test]
fn the_fixture_as_json_is_the_spec_shape() {
    let text = json::to_vec(&model()).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let identity = json!([
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0
    ]);
    let tip = json!([
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0
    ]);
    let expected = json!({
        "format": "DASH",
        "version": "1.5",
        "textures": [{
            "id": 0, "name": "checker", "flip_y": true,
            "img": "data:image/png;base64,iVBORw0KGgqquw==",
            "width": 2, "height": 2, "wrap_s": "repeat", "wrap_t": "mirror"
        }],
        "materials": [{
            "id": 0, "name": "skin", "texture": 0, "use_blending": false, "blend_equation": "norm",
            "blend_src": "src_alpha", "blend_dst": "one_minus_src_alpha", "skinning": true,
            "shader_type": "lambert", "face_side": "front", "shadow_side": "double",
            "ignore_lights": false, "vertex_color": true, "use_alpha": false, "skip_render": false,
            "alpha_test": 0.5, "diffuse": [1.0, 1.0, 1.0, 1.0], "emissive": [0.0, 0.0, 0.0, 0.0],
            "specular": [0.5, 0.5, 0.5, 16.0]
        }],
        "vertices": [
            {"pos": [0.0, 0.0, 0.0], "skin_index": [0, 0, 0, 0], "skin_weight": [1.0, 0.0, 0.0, 0.0]},
            {"pos": [1.0, 0.0, 0.0], "skin_index": [0, 1, 0, 0], "skin_weight": [0.5, 0.5, 0.0, 0.0]},
            {"pos": [0.0, 1.0, 0.0], "skin_index": [1, 0, 0, 0], "skin_weight": [1.0, 0.0, 0.0, 0.0]}
        ],
        "faces": [{
            "material": 0, "indices": [0, 1, 2],
            "vertex_color": ["rgba(255, 0, 0, 1)", "rgba(0, 255, 0, 1)", "rgba(0, 0, 255, 0.502)"],
            "normals": [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
            "diffuse_uv": [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
        }],
        "skeleton": [
            {"name": "root", "id": 0, "parent_id": -1, "matrix": identity},
            {"name": "tip", "id": 1, "parent_id": 0, "matrix": tip}
        ],
        "animations": [{
            "id": 0, "name": "wave", "fps": 30, "duration": 1.0,
            "tracks": [
                {"bone_id": 1, "time": 0.0, "rot": [0.0, 0.0, 0.0, 1.0]},
                {"bone_id": 1, "time": 1.0, "pos": [0.0, 2.0, 0.0], "scl": [2.0, 2.0, 2.0]}
            ]
        }]
    });
    assert_eq!(value, expected);
    // Member order is the spec's, and the text has no trailing newline.
    let text = String::from_utf8(text).unwrap();
    let order: Vec<usize> = [
        "\"format\"",
        "\"version\"",
        "\"textures\"",
        "\"materials\"",
        "\"vertices\"",
        "\"faces\"",
        "\"skeleton\"",
        "\"animations\"",
    ]
    .iter()
    .map(|k| text.find(k).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(text.ends_with('}'));
}

#[test]
fn the_fixture_goes_to_json_and_back_to_the_same_bytes() {
    let text = json::to_vec(&animbin_dmf::read(&fixture()).unwrap()).unwrap();
    assert_eq!(
        animbin_dmf::to_bytes(&animbin_dmf::read(&text).unwrap()).unwrap(),
        fixture()
    );
}

#[test]
fn the_documentation_spellings_integer_enums_and_missing_arrays_read() {
    let text = br#"{
        "format": "DASH", "version": "1.5",
        "textures": [{"id": 0, "name": "t", "flip_y": 0, "img": "data:image/png;base64,AAEC",
                      "width": 1, "height": 1, "wrap_s": 2, "wrap_t": "clamp"}],
        "materials": [{"id": 0, "name": "m", "texture": -1, "use_blending": true, "blend_equation": 3,
                       "blend_src": "src_alpha_saturate", "blend_dst": 0, "skinning": false,
                       "shader_type": "phong", "face_side": 2, "shadow_side": "back",
                       "ignore_lights": false, "vertex_color": false, "use_alpha": 7, "skip_render": false,
                       "alpha_test": 0, "diffuse": [1, 0.5, 0.25, 1], "emissive": [0, 0, 0, 1],
                       "specular": [0, 0, 0, 1]}],
        "verterices": [{"pos": [1, 2, 3], "skin_index": [-1, 0, 0, 0], "skin_weight": [1, 0, 0, 0]}],
        "faces": [{"material": 0, "indices": [0, 0, 0],
                   "verex_color": ["rgba(1, 2, 3, 0)", "rgb(4, 5, 6)", "rgba( 7 ,8,9 , 1.0 )"],
                   "normals": [[0, 0, 1], [0, 0, 1], [0, 0, 1]], "diffuse_uv": [[0, 0], [0, 0], [0, 0]]}]
    }"#;
    let dmf = animbin_dmf::read(text).unwrap();
    assert_eq!(dmf.textures[0].png, [0, 1, 2]);
    assert_eq!(dmf.textures[0].wrap_s, Wrap::Repeat);
    assert_eq!(dmf.materials[0].blend_src, BlendFactor::SrcAlphaSaturate);
    assert_eq!(dmf.materials[0].blend_dst, BlendFactor::Zero);
    assert_eq!(dmf.materials[0].face_side, Side::Double);
    assert_eq!(dmf.materials[0].use_alpha, Bool16(U16::new(7)));
    assert_eq!(dmf.vertices[0].pos.native(), Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(dmf.vertices[0].skin_index[0], I16::new(-1));
    let colors: Vec<[u8; 4]> = dmf.faces[0].colors.iter().map(|c| [c.r, c.g, c.b, c.a]).collect();
    assert_eq!(colors, [[1, 2, 3, 0], [4, 5, 6, 255], [7, 8, 9, 255]]);
    assert!(dmf.bones.is_empty() && dmf.animations.is_empty());
    // A u16 boolean other than 0/1 is written back as its integer.
    let again = String::from_utf8(json::to_vec(&dmf).unwrap()).unwrap();
    assert!(again.contains("\"use_alpha\": 7"), "{again}");
}

fn json_error(text: &str) -> animbin_core::Error {
    animbin_dmf::read(text.as_bytes()).unwrap_err()
}

#[test]
fn json_errors_carry_the_byte_offset_of_the_bad_value() {
    let text = r#"{"format": "DASH", "version": "1.5", "textures": [{"id": 0, "name": "t", "flip_y": false, "img": "data:image/png;base64,", "width": 1, "height": 1, "wrap_s": "tile", "wrap_t": "clamp"}]}"#;
    let err = json_error(text);
    let at = text.find("\"tile\"").unwrap() as u64;
    assert!((at..=at + 6).contains(&err.offset), "{err} vs {at}");
    assert!(err.to_string().contains("Wrap"), "{err}");
    for (bad, needle) in [
        (r#""wrap_s": 3"#, "Wrap"),
        (
            r#""name": "this name is far too long for its 32 bytes""#,
            "under 32 bytes",
        ),
        (r#""img": "iVBORw0KGgo=""#, "data:image/png;base64"),
        (r#""img": "data:image/png;base64,%%%""#, "base64"),
        (r#""width": 70000"#, "70000"),
    ] {
        let key = bad.split(':').next().unwrap();
        let good = text
            .split(", ")
            .find(|part| part.contains(key))
            .unwrap()
            .trim_start_matches("\"textures\": [{");
        let broken = text.replacen(good, bad, 1);
        let err = json_error(&broken);
        assert!(err.to_string().contains(needle), "{bad}: {err}");
        let at = broken.find(bad).unwrap() as u64;
        assert!(err.offset >= at && err.offset <= at + bad.len() as u64, "{bad}: {err}");
    }
}

#[test]
fn the_wrong_format_or_major_version_is_refused() {
    let err = json_error(r#"{"format": "DMF", "version": "1.5"}"#);
    assert!(err.to_string().contains("\"format\": \"DASH\""), "{err}");
    let err = json_error(r#"{"format": "DASH", "version": "2.0"}"#);
    assert!(err.to_string().contains("major version 1"), "{err}");
    assert_eq!(
        animbin_dmf::read(br#"{"format": "DASH", "version": "1.6"}"#).unwrap(),
        Dmf::default()
    );
    let err = json_error(r#"{"version": "1.5"}"#);
    assert!(err.to_string().contains("format"), "{err}");
}

#[test]
fn bad_colour_strings_are_refused() {
    let face = |color: &str| {
        format!(
            r#"{{"format": "DASH", "version": "1.5", "faces": [{{"material": 0, "indices": [0, 0, 0], "vertex_color": ["{color}", "rgb(0, 0, 0)", "rgb(0, 0, 0)"], "normals": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "diffuse_uv": [[0, 0], [0, 0], [0, 0]]}}]}}"#
        )
    };
    assert!(animbin_dmf::read(face("rgba(0, 0, 0, 0.5)").as_bytes()).is_ok());
    for bad in ["rgba(0, 0, 0, 2)", "rgba(0, 0, 300, 1)", "red"] {
        let err = json_error(&face(bad));
        assert!(err.to_string().contains("rgba(R, G, B, A)"), "{bad}: {err}");
    }
}

#[test]
fn what_json_cannot_hold_is_refused_naming_the_record() {
    let mut dmf = model();
    dmf.vertices[1].pos.y = F32::new(f32::NAN);
    let err = json::to_vec(&dmf).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)), "{err}");
    assert!(
        err.to_string()
            .contains("vertex 1: NaN is a float that JSON cannot hold"),
        "{err}"
    );
    assert!(err.offset > 0);

    let mut dmf = model();
    dmf.animations[0].tracks[1].prs_flags = I16::new(PrsFlags::POSITION.bits() | 16);
    let err = json::to_vec(&dmf).unwrap_err();
    assert!(
        err.to_string()
            .contains("animation 0: track 1: prs_flags 0x11 has bits above bit 2"),
        "{err}"
    );

    let mut dmf = model();
    dmf.bones[0].name = Name([b'n'; 32]);
    let err = json::to_vec(&dmf).unwrap_err();
    assert!(err.to_string().contains("bone 0: name"), "{err}");
}

#[test]
fn a_dump_keeps_every_byte_the_form_has_no_place_for() {
    let mut dmf = model();
    let mut after_nul = Name::new("hip").unwrap();
    after_nul.0[20] = 0xAA;
    let mut not_utf8 = Name::default();
    not_utf8.0[..3].copy_from_slice(&[0xFF, 0xFE, b'x']);
    dmf.bones[0].name = Name([b'n'; 32]);
    dmf.bones[1].name = after_nul;
    dmf.materials[0].name = not_utf8;
    dmf.bones[0].nop = [7; 12];
    dmf.faces[0].nop = U16::new(0x0102);
    let track = &mut dmf.animations[0].tracks[1];
    track.prs_flags = I16::new(PrsFlags::POSITION.bits() | 0x40);
    track.scl = Vec3::new(f32::from_bits(0x7fc0_0001), 2.0, -0.0).map(F32::new);

    let value = json::to_value(&dmf).unwrap();
    assert_eq!(json::from_value(&value).unwrap(), dmf);
    // Only what needs it takes the long forms.
    assert_eq!(value["skeleton"][0]["name"]["bytes"], "6e".repeat(32), "{value}");
    assert_eq!(value["skeleton"][0]["nop"], "07".repeat(12));
    assert_eq!(
        value["skeleton"][1]["name"]["bytes"],
        format!("686970{}aa{}", "00".repeat(17), "00".repeat(11))
    );
    assert!(
        value["materials"][0]["name"]["bytes"]
            .as_str()
            .unwrap()
            .starts_with("fffe78")
    );
    assert_eq!(value["faces"][0]["nop"], "0201");
    assert!(value["faces"][1].get("nop").is_none());
    let exact = &value["animations"][0]["tracks"][1];
    assert_eq!(exact["prs_flags"], 0x41);
    assert_eq!(exact["scl"], json!(["nan:0x7fc00001", 2.0, -0.0]));
    assert!(value["animations"][0]["tracks"][0].get("prs_flags").is_none());
    // The specified form still refuses the flags (its readers would misread them).
    assert!(json::to_vec(&dmf).is_err());
}

#[test]
fn unset_transforms_and_nop_bytes_are_not_part_of_the_form() {
    let mut dmf = model();
    dmf.animations[0].tracks[0].pos = Vec3::new(9.0, 9.0, 9.0).map(F32::new);
    dmf.bones[0].nop = [1; 12];
    let back = animbin_dmf::read(&json::to_vec(&dmf).unwrap()).unwrap();
    assert_eq!(back, model());
}

#[test]
fn a_truncated_json_file_is_an_error_at_every_offset() {
    let text = json::to_vec(&model()).unwrap();
    assert_every_truncation_fails(&text, animbin_dmf::read);
    let err = animbin_dmf::read(&text[..text.len() - 1]).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::UnexpectedEof { .. }), "{err}");
    assert_eq!(err.offset, text.len() as u64 - 1);
}

#[test]
fn neither_magic_nor_json_is_an_error_at_0() {
    let err = animbin_dmf::read(b"PK\x03\x04").unwrap_err();
    assert_eq!(err.offset, 0);
    assert!(err.to_string().contains("DASH"), "{err}");
}

#[test]
fn unknown_bytes_are_shown_as_hex_and_a_wrong_format_as_plain_text() {
    let err = animbin_dmf::read(b"PK\x03\x04").unwrap_err();
    assert!(err.to_string().contains("0x504b0304"), "{err}");
    let err = animbin_dmf::read(br#"{"format": "DOSH", "version": "1.5"}"#).unwrap_err();
    assert!(err.to_string().contains(r#"found "DOSH""#), "{err}");
}
