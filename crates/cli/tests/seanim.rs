//! `animbin` on SEAnim files: detection by magic, `info --json`, convert and dump -> convert
//! byte for byte (the shared corpus too), validate, byte offsets in errors, and exit codes.

mod common;

use std::path::{Path, PathBuf};

use animbin_core::{Quat, Vec3};
use animbin_seanim::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, Key, Modifier, Note, PresenceFlags, PropertyFlags, SeAnim,
    SeBlend, Trailer, to_bytes, widen,
};
use animbin_testing::seanim::OLD_RULE_256;
use animbin_testing::{corpus_files, shared_corpus};
use serde_json::Value;

use common::{
    animbin, assert_converts_to_itself, assert_dump_keeps_special_floats, assert_dump_rebuilds, code, info_json, s,
    stderr, stdout, tempdir, testdata, write,
};

/// Every optional part: high precision, a modifier, notes, a custom block, extra header
/// bytes and an SEBlend trailer.
fn sample() -> SeAnim {
    SeAnim {
        anim_type: AnimType::Additive,
        anim_flags: AnimFlags::LOOPED,
        data_presence_flags: PresenceFlags::all(),
        data_property_flags: PropertyFlags::PRECISION_HIGH,
        framerate: 29.97,
        header_extra: vec![7, 7],
        bones: vec![
            Bone {
                location: vec![
                    Key::new(0, Vec3::new(0.1, 0.2, 0.3)),
                    Key::new(300, Vec3::new(1.0, 2.0, 3.0)),
                ]
                .into(),
                rotation: vec![Key::new(0, Quat::new(0.0, 0.0, 0.0, 1.0))].into(),
                scale: vec![Key::new(10, Vec3::new(1.0, 1.0, 1.0))].into(),
                ..Bone::new("tag_origin")
            },
            Bone {
                flags: Bone::COSMETIC,
                ..Bone::new("j_gun")
            },
        ],
        modifiers: vec![Modifier {
            bone: 1,
            anim_type: AnimType::Absolute,
        }],
        notes: vec![Note {
            frame: 12,
            name: "fire".into(),
        }],
        custom: b"meta".to_vec(),
        trailer: Trailer::SeBlend(SeBlend {
            shapes: vec![BlendShape {
                name: "blink".into(),
                keys: vec![BlendKey {
                    frame: 3,
                    value: [0.5, 0.0, 0.0],
                }],
            }],
        }),
        ..SeAnim::default()
    }
}

fn write_sample(dir: &Path, name: &str, anim: &SeAnim) -> PathBuf {
    write(dir, name, &to_bytes(anim).expect("encodable"))
}

/// `convert IN OUT.seanim` and `dump IN` -> `convert DUMP OUT.seanim` both give back IN's bytes.
fn assert_convert_and_dump_are_identical(input: &Path, dir: &Path) {
    assert_converts_to_itself(input, dir, "copy.seanim", &[]);
    assert_dump_rebuilds(input, "seanim", dir, "rebuilt.seanim", &[]);
}

#[test]
fn info_json_has_the_seanim_fields() {
    let dir = tempdir();
    // Detection is by magic, not by extension.
    let path = write_sample(dir.path(), "sample.bin", &sample());
    let info = info_json(&path);
    assert_eq!(info["format"], "seanim");
    assert_eq!(info["frame_count"], 301);
    assert_eq!(info["framerate"], 29.97);
    assert_eq!(info["bone_count"], 2);
    assert_eq!(info["note_count"], 1);
    assert_eq!(info["high_precision"], true);
    assert_eq!(info["anim_type"], "additive");
    assert_eq!(info["looped"], true);
    assert_eq!(info["modifier_count"], 1);
    assert_eq!(info["frame_width"], 2);
    assert_eq!(info["trailer"], "seblend");

    let plain = SeAnim {
        anim_type: AnimType::Delta,
        data_presence_flags: PresenceFlags::ROT,
        framerate: 60.0,
        bones: vec![Bone::new("a")],
        ..SeAnim::default()
    };
    let info = info_json(&write_sample(dir.path(), "plain.seanim", &plain));
    assert_eq!(info["anim_type"], "delta");
    assert_eq!(info["looped"], false);
    assert_eq!(info["high_precision"], false);
    assert_eq!(info["frame_count"], 0);
}

#[test]
fn every_anim_type_has_its_name() {
    let dir = tempdir();
    for (t, name) in [
        (AnimType::Absolute, "absolute"),
        (AnimType::Additive, "additive"),
        (AnimType::Relative, "relative"),
        (AnimType::Delta, "delta"),
    ] {
        let anim = SeAnim {
            anim_type: t,
            data_presence_flags: PresenceFlags::NOTE,
            ..SeAnim::default()
        };
        assert_eq!(
            info_json(&write_sample(dir.path(), "t.seanim", &anim))["anim_type"],
            name
        );
    }
}

#[test]
fn convert_and_dump_rebuild_the_sample_byte_for_byte() {
    let dir = tempdir();
    let path = write_sample(dir.path(), "sample.seanim", &sample());
    assert_convert_and_dump_are_identical(&path, dir.path());
}

#[test]
fn convert_and_dump_rebuild_every_corpus_file_byte_for_byte() {
    let Some(corpus) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "seanim") else {
        return;
    };
    let dir = tempdir();
    let files = corpus_files(&corpus, "seanim");
    assert!(!files.is_empty());
    for file in files {
        assert_convert_and_dump_are_identical(&file, dir.path());
        let out = animbin(&["validate", s(&file)]);
        assert_eq!(code(&out), 0, "{}: {}", file.display(), stdout(&out));
    }
}

#[test]
fn corpus_info_matches_sources_se() {
    let Some(corpus) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "seanim") else {
        return;
    };
    let basic = info_json(&corpus.join("ref_basic_u8frames.seanim"));
    assert_eq!(
        (
            basic["anim_type"].as_str(),
            basic["looped"].as_bool(),
            basic["frame_count"].as_u64()
        ),
        (Some("relative"), Some(true), Some(11))
    );
    assert_eq!(
        (basic["bone_count"].as_u64(), basic["note_count"].as_u64()),
        (Some(2), Some(2))
    );
    let high = info_json(&corpus.join("ref_highprec_scale_mods.seanim"));
    assert_eq!(high["high_precision"], true);
    assert_eq!(high["framerate"], 60.0);
    let wide = info_json(&corpus.join("ref_framecount_u32.seanim"));
    assert_eq!(
        (wide["frame_count"].as_u64(), wide["frame_width"].as_u64()),
        (Some(70001), Some(4))
    );
}

#[test]
fn validate_lists_problems_and_exits_1() {
    let dir = tempdir();
    let mut anim = SeAnim {
        data_presence_flags: PresenceFlags::LOC,
        fixed_frame_count: Some(2),
        bones: vec![Bone {
            location: vec![Key::new(5, Vec3::new(0.0, 0.0, 0.0))].into(),
            ..Bone::new("a")
        }],
        ..SeAnim::default()
    };
    anim.modifiers.push(Modifier {
        bone: 3,
        anim_type: AnimType::Delta,
    });
    let bad = write_sample(dir.path(), "bad.seanim", &anim);
    let good = write_sample(dir.path(), "good.seanim", &sample());
    let out = animbin(&["validate", s(&good), s(&bad)]);
    assert_eq!(code(&out), 1);
    let stdout = stdout(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].ends_with("bone 0 location key 0: frame 5 is not below frameCount 2"),
        "{stdout}"
    );
    assert!(
        lines[1].ends_with("bone modifier 0: names bone 3, but there are 1 bones"),
        "{stdout}"
    );
    assert_eq!(code(&animbin(&["validate", s(&good)])), 0);
}

#[test]
fn warnings_print_warning_and_exit_0_unless_strict() {
    let dir = tempdir();
    let mut anim = sample();
    anim.bones[0].rotation.to_double_mut()[0].value = Quat::new(0.0, 0.0, 0.0, 2.0);
    let rotation = write_sample(dir.path(), "rotation.seanim", &anim);
    let old_rule = write(dir.path(), "old_rule.seanim", &animbin_testing::hex(OLD_RULE_256));
    for (path, warning) in [
        (
            &rotation,
            "warning: bone 0 rotation key 0: the quaternion has length 2.000000, not 1, so it is no rotation",
        ),
        (
            &old_rule,
            "warning: byte 20 (0x14): frame_t follows the pre-2017 rule at frameCount 256",
        ),
    ] {
        let out = animbin(&["validate", s(path)]);
        assert_eq!(code(&out), 0, "{}", stdout(&out));
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with(&format!("{}: {warning}", path.display())), "{text}");
        let strict = animbin(&["validate", "--strict", s(path)]);
        assert_eq!(code(&strict), 1);
        assert_eq!(stdout(&strict), text);
    }
    // The old-rule file converts to the current rule, which validates clean, with the same keys.
    let rewritten = dir.path().join("rewritten.seanim");
    let out = animbin(&["convert", s(&old_rule), s(&rewritten)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = animbin(&["validate", "--strict", s(&rewritten)]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
    let before = animbin_seanim::read(&std::fs::read(&old_rule).unwrap()).unwrap();
    let after = animbin_seanim::read(&std::fs::read(&rewritten).unwrap()).unwrap();
    assert_eq!(after.bones, before.bones);
    assert_eq!(info_json(&rewritten)["frame_width"], 2);
}

#[test]
fn bad_input_exits_1_naming_the_byte_offset() {
    let dir = tempdir();
    let good = to_bytes(&sample()).unwrap();
    let mut cases: Vec<(&str, Vec<u8>, &str)> = Vec::new();
    let mut header_size = good.clone();
    header_size[8] = 0x1a;
    cases.push(("header_size", header_size, "seanim at byte 8"));
    let mut version = good.clone();
    version[6] = 9;
    cases.push(("version", version, "seanim at byte 6"));
    let mut bones = good.clone();
    bones[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(("bone_count", bones, "seanim at byte 38"));
    cases.push(("truncated", good[..good.len() / 2].to_vec(), "seanim at byte"));
    for (name, bytes, expected) in cases {
        let path = write(dir.path(), &format!("{name}.seanim"), &bytes);
        for command in ["info", "dump"] {
            let out = animbin(&[command, s(&path)]);
            assert_eq!(code(&out), 1, "{name}: {}", stderr(&out));
            assert!(stderr(&out).contains(expected), "{name}: {}", stderr(&out));
        }
        // validate: a file that does not read is an error, on stderr.
        let out = animbin(&["validate", s(&path)]);
        assert_eq!(code(&out), 1);
        assert!(stderr(&out).contains(expected), "{name}: {}", stderr(&out));
    }
    // A wrong magic is not detected as SEAnim at all; forced, it is an error at byte 0.
    let mut magic = good;
    magic[0] = b'X';
    let path = write(dir.path(), "magic.seanim", &magic);
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("byte 0"), "{}", stderr(&out));
    let out = animbin(&["info", "--format", "seanim", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("seanim at byte 0"), "{}", stderr(&out));
}

#[test]
fn what_the_writer_cannot_encode_exits_1() {
    let dir = tempdir();
    let path = write_sample(dir.path(), "sample.seanim", &sample());
    let dump = animbin(&["dump", s(&path)]);
    let mut json: Value = serde_json::from_slice(&dump.stdout).unwrap();
    // 256 modifiers do not fit the u8 boneAnimModifierCount.
    let modifier = json["data"]["modifiers"][0].clone();
    json["data"]["modifiers"] = Value::Array(vec![modifier; 256]);
    let edited = write(dir.path(), "edited.json", &serde_json::to_vec(&json).unwrap());
    let out = animbin(&["convert", s(&edited), s(&dir.path().join("out.seanim"))]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("seanim at byte 28"), "{}", stderr(&out));
    assert!(stderr(&out).contains("256 bone modifiers"), "{}", stderr(&out));
}

/// JSON numbers hold no NaN or infinity, so the dump writes them as strings (`"NaN"`,
/// `"Infinity"`, `"-Infinity"`, `"nan:0x..."` for any other NaN bits): a file with them dumps
/// and converts back byte for byte, in single and in double precision.
#[test]
fn a_dump_keeps_nan_infinities_and_nan_payloads_bit_for_bit() {
    let dir = tempdir();
    // Single precision: the model holds f32 values (set here as f64s widened from them,
    // payload bits kept), and the dump writes them as f32s: NaN bits in 8 hex digits.
    let mut single = sample();
    single.data_property_flags = PropertyFlags::empty();
    single.framerate = f32::from_bits(0x7fc0_0123);
    let f = |bits: u32| widen(f32::from_bits(bits));
    single.bones[0].location.to_double_mut()[0].value = Vec3::new(f32::NAN.into(), f(0x7fc0_0001), f(0xff80_0001));
    single.bones[0].location.to_double_mut()[1].value = Vec3::new(f64::INFINITY, f64::NEG_INFINITY, -0.0);
    single.bones[0].rotation.to_double_mut()[0].value = Quat::new(f(0xffc0_0000), 0.0, 0.0, 1.0);
    if let Trailer::SeBlend(blend) = &mut single.trailer {
        blend.shapes[0].keys[0].value = [f32::INFINITY, f32::from_bits(0x7f80_0002), -0.0];
    }
    let path = write_sample(dir.path(), "single.seanim", &single);
    let texts = [
        "NaN",
        "Infinity",
        "-Infinity",
        "nan:0x7fc00123",
        "nan:0x7fc00001",
        "nan:0xff800001",
        "nan:0xffc00000",
        "nan:0x7f800002",
    ];
    assert_dump_keeps_special_floats(&path, "seanim", dir.path(), "single_copy.seanim", &texts);

    // Double precision: any f64 bits, a signalling NaN too.
    let mut double = sample();
    double.bones[0].location.to_double_mut()[0].value =
        Vec3::new(f64::from_bits(0x7ff0_0000_0000_0001), f64::NAN, f64::INFINITY);
    double.bones[0].scale.to_double_mut()[0].value =
        Vec3::new(f64::NEG_INFINITY, f64::from_bits(0xfff8_0000_0000_0007), 1.0);
    let path = write_sample(dir.path(), "double.seanim", &double);
    let texts = [
        "NaN",
        "Infinity",
        "-Infinity",
        "nan:0x7ff0000000000001",
        "nan:0xfff8000000000007",
    ];
    assert_dump_keeps_special_floats(&path, "seanim", dir.path(), "double_copy.seanim", &texts);
}

#[test]
fn usage_mistakes_exit_2() {
    let dir = tempdir();
    let path = write_sample(dir.path(), "sample.seanim", &sample());
    assert_eq!(code(&animbin(&["info"])), 2);
    let out = animbin(&["convert", s(&path), s(&dir.path().join("out.unknown"))]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(code(&animbin(&["info", "--format", "nope", s(&path)])), 2);
}

/// A dump's frame rate that no f32 holds is refused as a key's value is, not read as
/// infinity (a dump writes the infinities as "Infinity").
#[test]
fn a_dumped_framerate_beyond_f32s_range_is_refused_like_a_key() {
    let dir = tempdir();
    let dump = stdout(&animbin(&["dump", s(&testdata("sample.seanim"))]));
    assert!(dump.contains("\"framerate\": 30.0"));
    let bad = write(
        dir.path(),
        "bad.json",
        dump.replacen("\"framerate\": 30.0", "\"framerate\": 1e39", 1)
            .as_bytes(),
    );
    let out = dir.path().join("out.seanim");
    let run = animbin(&["convert", s(&bad), s(&out)]);
    assert_eq!(code(&run), 1, "{}", stderr(&run));
    assert!(
        stderr(&run).contains("1e39 is beyond the range of an f32"),
        "{}",
        stderr(&run)
    );
    assert!(!out.exists());
}
