//! `animbin` on AnimX and AnimJ files: detection, info, dump, convert, validate, exit codes.

mod common;

use animbin_animx::{
    Animation, CurveTrack, Encoding, Interpolation, Keyframes, RawTrack, Tangents, Track, TrackData, Values,
};
use animbin_core::math::{Quat, Vec3};
use animbin_testing::animx::sample;
use serde_json::Value;

use common::{
    animbin, assert_converts_to_itself, assert_dump_keeps_special_floats, assert_dump_rebuilds, code, info_json, read,
    s, stderr, stdout, tempdir, write,
};

#[test]
fn info_json_reports_the_header_and_counts_for_every_encoding() {
    let dir = tempdir();
    for encoding in [Encoding::Plain, Encoding::Lz4, Encoding::Lzma] {
        let path = write(
            dir.path(),
            "a.animx",
            &animbin_animx::to_bytes(&sample(encoding)).unwrap(),
        );
        let info = info_json(&path);
        assert_eq!(info["format"], "animx");
        assert_eq!(info["version"], 1);
        assert_eq!(info["encoding"], encoding.name());
        assert_eq!(info["track_count"], 2);
        assert_eq!(info["keyframe_count"], 5);
        assert_eq!(info["duration"], 1.0);
        assert_eq!(info["name"], "walk");
    }
}

#[test]
fn dump_then_convert_rebuilds_the_same_bytes_in_every_encoding() {
    let dir = tempdir();
    for encoding in [Encoding::Plain, Encoding::Lz4, Encoding::Lzma] {
        let bytes = animbin_animx::to_bytes(&sample(encoding)).unwrap();
        let path = write(dir.path(), &format!("in-{}.animx", encoding.name()), &bytes);
        assert_dump_rebuilds(&path, "animx", dir.path(), "back.animx", &[]);
        // Same-format conversion of the file itself is byte-identical too.
        assert_converts_to_itself(&path, dir.path(), "copy.animx", &[]);
    }
}

#[test]
fn animx_to_animj_and_back_is_lossless() {
    let dir = tempdir();
    let bytes = animbin_animx::to_bytes(&sample(Encoding::Plain)).unwrap();
    let path = write(dir.path(), "in.animx", &bytes);
    let json = dir.path().join("out.animj");
    assert_eq!(code(&animbin(&["convert", s(&path), s(&json)])), 0);
    let text: Value = serde_json::from_slice(&read(&json)).unwrap();
    assert_eq!(text["tracks"][0]["trackType"], "Curve");
    assert_eq!(text["tracks"][1]["data"]["interval"], 0.5);
    let back = dir.path().join("back.animx");
    let out = animbin(&["convert", s(&json), s(&back)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&back), bytes);
    assert_eq!(info_json(&json)["format"], "animx");
}

#[test]
fn corpus_animj_converts_to_the_bytes_redx_expects() {
    let Some(dir) = animbin_testing::shared_corpus(env!("CARGO_MANIFEST_DIR"), "animx") else {
        return;
    };
    let tmp = tempdir();
    let input = dir.join("redx-discrete-bool-int-string.animj");
    let out_path = tmp.path().join("redx.animx");
    let out = animbin(&["convert", s(&input), s(&out_path)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bytes = read(&out_path);
    assert_eq!(
        &bytes[..20],
        &animbin_testing::hex("05 41 6e 69 6d 58 01 00 00 00 03 00 00 80 40 04 74 65 73 74")[..]
    );
    assert_eq!(code(&animbin(&["validate", s(&input)])), 0);
}

#[test]
fn bad_input_exits_1_naming_the_offset() {
    let dir = tempdir();
    let bytes = animbin_animx::to_bytes(&sample(Encoding::Plain)).unwrap();
    let path = write(dir.path(), "cut.animx", &bytes[..30]);
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("animx at byte 29"), "{}", stderr(&out));
    let mut bad = bytes.clone();
    bad[21] = 3; // the first track's type: Bezier
    let path = write(dir.path(), "bezier.animx", &bad);
    let out = animbin(&["dump", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("at byte 21") && stderr(&out).contains("Bezier"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn validate_reports_problems_and_exits_1() {
    let dir = tempdir();
    let mut anim = sample(Encoding::Plain);
    anim.tracks[1].data = TrackData::Raw(RawTrack {
        interval: 1.5,
        values: Values::Float3(vec![Vec3::new(1.0, 0.5, 0.25); 2]),
    });
    anim.tracks[0].node.clear();
    let path = write(dir.path(), "late.animx", &animbin_animx::to_bytes(&anim).unwrap());
    // Raw values past the duration are never reached: a warning, which fails only --strict.
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.contains("warning: track 0: /rotation: the node name is empty"),
        "{text}"
    );
    assert!(
        text.contains(
            "warning: track 1: Light/Color: the last value is at 1.5 s, after the duration of 1 s: \
             1 of 2 values are never reached"
        ),
        "{text}"
    );
    assert_eq!(code(&animbin(&["validate", "--strict", s(&path)])), 1);
    // A Raw interval that puts every value at 0 s is an error.
    if let TrackData::Raw(raw) = &mut anim.tracks[1].data {
        raw.interval = 0.0;
    }
    let path = write(dir.path(), "still.animx", &animbin_animx::to_bytes(&anim).unwrap());
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains("still.animx: track 1: Light/Color: interval 0 is not a positive number of seconds"),
        "{text}"
    );
    let good = write(
        dir.path(),
        "good.animx",
        &animbin_animx::to_bytes(&sample(Encoding::Lz4)).unwrap(),
    );
    assert_eq!(code(&animbin(&["validate", s(&good)])), 0);
}

/// NaN, the infinities and NaN payloads in times, values and tangents: the dump keeps their
/// bits as strings and converts back byte for byte (compressed files keep their stored
/// bytes too); AnimJ, a format of its own, writes Json.NET's `"NaN"` for every NaN.
#[test]
fn a_dump_keeps_nan_infinities_and_nan_payloads_bit_for_bit() {
    let dir = tempdir();
    let mut anim = sample(Encoding::Plain);
    anim.global_duration = f32::INFINITY;
    let payload = f32::from_bits(0x7fc0_0001);
    anim.tracks[0].data = TrackData::Curve(CurveTrack::new(
        Keyframes {
            times: vec![0.0, f32::NAN, 1.0],
            values: Values::FloatQ(vec![
                Quat::new(payload, 0.0, 0.0, 1.0),
                Quat::new(0.0, f32::NEG_INFINITY, 0.0, 1.0),
                Quat::new(0.0, 0.0, f32::from_bits(0xffc0_0000), 1.0),
            ]),
        },
        vec![Interpolation::Tangent; 3],
        Some(Tangents {
            left: Values::FloatQ(vec![Quat::new(f32::from_bits(0x7f80_0001), 0.0, 0.0, 0.0); 3]),
            right: Values::FloatQ(vec![Quat::new(0.0, 0.0, 0.0, 0.0); 3]),
        }),
    ));
    anim.tracks.push(Track {
        node: "Light".into(),
        property: "Intensity".into(),
        data: TrackData::Raw(RawTrack {
            interval: 0.5,
            values: Values::Double(vec![f64::from_bits(0x7ff0_0000_0000_0001), f64::NAN]),
        }),
    });
    let texts = [
        "NaN",
        "Infinity",
        "-Infinity",
        "nan:0x7fc00001",
        "nan:0xffc00000",
        "nan:0x7f800001",
        "nan:0x7ff0000000000001",
    ];
    for encoding in [Encoding::Plain, Encoding::Lz4] {
        let anim = Animation {
            encoding,
            ..anim.clone()
        };
        let path = write(dir.path(), "special.animx", &animbin_animx::to_bytes(&anim).unwrap());
        assert_dump_keeps_special_floats(&path, "animx", dir.path(), "copy.animx", &texts);
    }
    let animj = dir.path().join("special.animj");
    let path = dir.path().join("special.animx");
    let out = animbin(&["convert", s(&path), s(&animj)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = String::from_utf8(read(&animj)).unwrap();
    assert!(text.contains("\"NaN\"") && !text.contains("nan:0x"), "{text}");
}

#[test]
fn warnings_print_warning_and_exit_0_unless_strict() {
    let dir = tempdir();
    let mut anim = sample(Encoding::Plain);
    anim.tracks[0].node.clear();
    anim.tracks[1].property.clear();
    let path = write(dir.path(), "names.animx", &animbin_animx::to_bytes(&anim).unwrap());
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let at = |line: &str| format!("{}: warning: {line}", path.display());
    assert_eq!(
        lines,
        [
            at("track 0: /rotation: the node name is empty"),
            at("track 1: Light/: the property name is empty"),
        ]
    );
    let strict = animbin(&["validate", "--strict", s(&path)]);
    assert_eq!(code(&strict), 1);
    assert_eq!(stdout(&strict), text);
    // A rotation of length 2 and tangent interpolation without tangents: warnings too.
    let mut anim = sample(Encoding::Lz4);
    anim.tracks[0].data = TrackData::Curve(CurveTrack::new(
        Keyframes {
            times: vec![0.0, 1.0],
            values: Values::FloatQ(vec![Quat::new(0.0, 0.0, 0.0, 1.0), Quat::new(0.0, 0.0, 0.0, 2.0)]),
        },
        vec![Interpolation::Tangent; 2],
        None,
    ));
    let path = write(dir.path(), "curve.animx", &animbin_animx::to_bytes(&anim).unwrap());
    let out = animbin(&["validate", s(&path)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(
        stdout(&out).matches(": warning: track 0: Hips/rotation: ").count(),
        2,
        "{}",
        stdout(&out)
    );
    assert_eq!(code(&animbin(&["validate", "--strict", s(&path)])), 1);
}

#[test]
fn unknown_output_format_is_a_usage_error() {
    let dir = tempdir();
    let path = write(
        dir.path(),
        "a.animx",
        &animbin_animx::to_bytes(&sample(Encoding::Plain)).unwrap(),
    );
    let out = animbin(&["convert", "--to", "nope", s(&path), s(&dir.path().join("x"))]);
    assert_eq!(code(&out), 2);
}

/// AnimX -> AnimJ is written as it is serialised: a 1 KB LZMA file of 400,000 keys (78 MB
/// of AnimJ) converts under a 96 MiB address-space limit. The whole text was held first
/// (a 128 MiB buffer, and an abort under that limit).
#[cfg(unix)]
#[test]
fn animj_is_written_as_it_streams_in_bounded_memory() {
    let dir = tempdir();
    let key = r#"{"interpolation":"Linear","time":0.0,"value":{"x":0.0,"y":1.0,"z":0.0}}"#;
    let keys = vec![key; 400_000].join(",");
    let dump = format!(
        r#"{{"format":"animx","data":{{"encoding":"lzma","globalDuration":1.0,"name":"still","tracks":[{{"trackType":"Curve","valueType":"float3","data":{{"keyframes":[{keys}],"node":"Hips","property":"position"}}}}]}}}}"#
    );
    let json = write(dir.path(), "still.json", dump.as_bytes());
    let animx = dir.path().join("still.animx");
    let out = animbin(&["convert", s(&json), s(&animx)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(read(&animx).len() < 4096);
    let animj = dir.path().join("still.animj");
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 98304 && exec \"$0\" convert \"$1\" \"$2\"")
        .arg(env!("CARGO_BIN_EXE_animbin"))
        .arg(&animx)
        .arg(&animj)
        .output()
        .unwrap();
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let text = read(&animj);
    assert!(text.len() > 70_000_000, "{}", text.len());
    let back: Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(
        back["tracks"][0]["data"]["keyframes"].as_array().unwrap().len(),
        400_000
    );
}
