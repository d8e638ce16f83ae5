//! Byte-exact fixtures written out in hex, truncation at every offset, and bad inputs with
//! the offsets their errors must name.

use animbin_animx::{
    AnimXFile, Animation, CurveTrack, DiscreteTrack, Encoding, Interpolation, Interpolations, Keyframes, Location,
    Problem, RawTrack, ReadOptions, Severity, Tangents, Track, TrackData, Values, View, animj,
};
use animbin_core::ErrorKind;
use animbin_core::math::{Quat, Vec2, Vec3, Vec4};
use animbin_testing::{assert_every_truncation_fails, corpus_files, hex, shared_corpus};

/// The header redx's test expects, then its three Discrete tracks (bool, int, string).
const REDX: &str = "
05 41 6e 69 6d 58   # magic: .NET string \"AnimX\"
01 00 00 00         # version 1 (i32)
03                  # 3 tracks
00 00 80 40         # global duration 4.0
04 74 65 73 74      # name \"test\"
00                  # encoding: plain
# track 0: Discrete (01) bool (00), node \"testNode\", property \"testProperty\", 4 keyframes
01 00 08 74 65 73 74 4e 6f 64 65 0c 74 65 73 74 50 72 6f 70 65 72 74 79 04
00 00 00 00 00   00 00 80 3f 01   00 00 00 40 00   00 00 40 40 01   # (time, value)
# track 1: Discrete int (0a)
01 0a 08 74 65 73 74 4e 6f 64 65 0c 74 65 73 74 50 72 6f 70 65 72 74 79 04
00 00 00 00 00 00 00 00   00 00 80 3f 02 00 00 00   00 00 00 40 04 00 00 00   00 00 40 40 06 00 00 00
# track 2: Discrete string (27): hasValue 01, then a .NET string
01 27 08 74 65 73 74 4e 6f 64 65 0c 74 65 73 74 50 72 6f 70 65 72 74 79 04
00 00 00 00 01 04 7a 65 72 6f   00 00 80 3f 01 03 6f 6e 65   00 00 00 40 01 03 74 77 6f   00 00 40 40 01 03 6c 65 6c
";

fn discrete(node: &str, property: &str, times: Vec<f32>, values: Values) -> Track {
    Track {
        node: node.into(),
        property: property.into(),
        data: TrackData::Discrete(DiscreteTrack {
            keyframes: Keyframes { times, values },
        }),
    }
}

fn redx_model() -> Animation {
    let t = || vec![0.0, 1.0, 2.0, 3.0];
    let s = |x: &str| Some(x.to_string());
    Animation {
        name: "test".into(),
        global_duration: 4.0,
        tracks: vec![
            discrete(
                "testNode",
                "testProperty",
                t(),
                Values::Bool(vec![false, true, false, true]),
            ),
            discrete("testNode", "testProperty", t(), Values::Int(vec![0, 2, 4, 6])),
            discrete(
                "testNode",
                "testProperty",
                t(),
                Values::String(vec![s("zero"), s("one"), s("two"), s("lel")]),
            ),
        ],
        ..Animation::default()
    }
}

#[test]
fn redx_fixture_reads_and_writes_byte_for_byte() {
    let bytes = hex(REDX);
    assert_eq!(bytes.len(), 185);
    assert_eq!(animbin_animx::read(&bytes).unwrap(), redx_model());
    assert_eq!(animbin_animx::to_bytes(&redx_model()).unwrap(), bytes);
    assert_every_truncation_fails(&bytes, animbin_animx::read);
    assert_every_truncation_fails(&bytes, |b| View::parse(b).map(|v| v.tracks.len()));
}

#[test]
fn corpus_animj_reads_and_becomes_the_redx_bytes() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "animx") else {
        return;
    };
    let files = corpus_files(&dir, "animj");
    assert!(!files.is_empty());
    for file in files {
        let anim = animj::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(anim, redx_model(), "{}", file.display());
        assert_eq!(animbin_animx::to_bytes(&anim).unwrap(), hex(REDX));
        assert!(animbin_animx::validate(&anim).is_empty());
    }
}

/// Every track kind, per-keyframe interpolation with tangents, bit-packed bools, null strings.
const KITCHEN: &str = "
05 41 6e 69 6d 58 01 00 00 00
04                  # 4 tracks
00 00 00 40         # 2.0 s
01 6b               # name \"k\"
00                  # plain
# Raw (00) float3 (17), \"Hips\" \"position\", 2 values, interval 0.5
00 17 04 48 69 70 73 08 70 6f 73 69 74 69 6f 6e 02
00 00 00 3f
00 00 80 3f 00 00 00 40 00 00 40 40   # (1, 2, 3)
00 00 00 00 00 00 00 00 00 00 80 bf   # (0, 0, -1)
# Curve (02) floatQ (19), \"Hips\" \"rotation\", 2 keyframes
02 19 04 48 69 70 73 08 72 6f 74 61 74 69 6f 6e 02
03                  # flags: per-keyframe interpolation, tangents
01 02               # Linear, Tangent
00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f   00 00 00 00   # value (0,0,0,1), time 0
00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00   00 00 80 3f   # value (1,0,0,0), time 1
# tangent pairs, right then left
00 00 00 3f 00 00 00 00 00 00 00 00 00 00 00 00   00 00 00 00 00 00 00 3f 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 3f 00 00 00 00   00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 3f
# Discrete (01) bool4 (03), \"n\" \"b\", 2 keyframes: x|z = 05, y|w = 0a
01 03 01 6e 01 62 02
00 00 00 00 05   00 00 80 3f 0a
# Discrete string (27), \"n\" \"s\": null, then \"hi\"
01 27 01 6e 01 73 02
00 00 00 00 00   00 00 00 40 01 02 68 69
";

fn kitchen_model() -> Animation {
    let q = Quat::new;
    Animation {
        name: "k".into(),
        global_duration: 2.0,
        tracks: vec![
            Track {
                node: "Hips".into(),
                property: "position".into(),
                data: TrackData::Raw(RawTrack {
                    interval: 0.5,
                    values: Values::Float3(vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.0, -1.0)]),
                }),
            },
            Track {
                node: "Hips".into(),
                property: "rotation".into(),
                data: TrackData::Curve(CurveTrack {
                    interpolation: Interpolations::PerKeyframe(vec![Interpolation::Linear, Interpolation::Tangent]),
                    keyframes: Keyframes {
                        times: vec![0.0, 1.0],
                        values: Values::FloatQ(vec![q(0.0, 0.0, 0.0, 1.0), q(1.0, 0.0, 0.0, 0.0)]),
                    },
                    tangents: Some(Tangents {
                        right: Values::FloatQ(vec![q(0.5, 0.0, 0.0, 0.0), q(0.0, 0.0, 0.5, 0.0)]),
                        left: Values::FloatQ(vec![q(0.0, 0.5, 0.0, 0.0), q(0.0, 0.0, 0.0, 0.5)]),
                    }),
                }),
            },
            discrete(
                "n",
                "b",
                vec![0.0, 1.0],
                Values::Bool4(vec![
                    Vec4::new(true, false, true, false),
                    Vec4::new(false, true, false, true),
                ]),
            ),
            discrete("n", "s", vec![0.0, 2.0], Values::String(vec![None, Some("hi".into())])),
        ],
        ..Animation::default()
    }
}

#[test]
fn kitchen_fixture_covers_every_kind_byte_for_byte() {
    let bytes = hex(KITCHEN);
    assert_eq!(animbin_animx::read(&bytes).unwrap(), kitchen_model());
    assert_eq!(animbin_animx::to_bytes(&kitchen_model()).unwrap(), bytes);
    assert_every_truncation_fails(&bytes, animbin_animx::read);
    assert_every_truncation_fails(&bytes, |b| View::parse(b).map(|v| v.tracks.len()));
    // AnimJ holds the same.
    let json = animj::to_value(&kitchen_model());
    assert_eq!(json["tracks"][1]["data"]["keyframes"][1]["interpolation"], "Tangent");
    assert_eq!(json["tracks"][1]["data"]["keyframes"][0]["rightTangent"]["x"], 0.5);
    assert_eq!(
        json["tracks"][2]["data"]["keyframes"][1]["value"],
        serde_json::json!({"x": false, "y": true, "z": false, "w": true})
    );
    assert_eq!(
        json["tracks"][3]["data"]["keyframes"][0]["value"],
        serde_json::Value::Null
    );
    assert_eq!(json["tracks"][0]["data"]["interval"], 0.5);
    assert_eq!(
        json["tracks"][0]["data"]["keyframes"][1],
        serde_json::json!({"x": 0.0, "y": 0.0, "z": -1.0})
    );
    assert_eq!(animj::from_value(&json).unwrap(), kitchen_model());
}

#[test]
fn raw_view_borrows_the_values_in_place() {
    let bytes = hex(KITCHEN);
    let view = View::parse(&bytes).unwrap();
    let raw = &view.tracks[0];
    assert_eq!(raw.offset, 18);
    assert_eq!(raw.interval(), Some(0.5));
    let Some(animbin_animx::RawValues::Float3(values)) = raw.raw_values() else {
        panic!("a float3 slice");
    };
    assert_eq!(values[1].native(), Vec3::new(0.0, 0.0, -1.0));
    // The slice points into the file: no copy was made.
    let at = values.as_ptr() as usize - bytes.as_ptr() as usize;
    assert_eq!(at, 18 + 2 + 5 + 9 + 1 + 4);
    assert!(view.tracks[1].raw_values().is_none());
}

/// Version 0: one byte per track header (bit 0 = Curve, value type in bits 1..7).
const VERSION_0: &str = "
05 41 6e 69 6d 58 00 00 00 00 02 00 00 80 3f 00 00
2a 01 61 01 66 01 00 00 00 00 00 00 80 3f   # Raw float (21 << 1 = 0x2a), interval 0, value 1.0
2f 01 61 01 70 01 00 00                   # Curve float3 (23 << 1 | 1), flags 0, shared Hold
00 00 00 00 00 00 80 3f 00 00 80 3f 00 00 00 3f   # value (0, 1, 1), time 0.5
";

#[test]
fn version_0_track_headers_pack_kind_and_value_type_in_one_byte() {
    let bytes = hex(VERSION_0);
    let anim = animbin_animx::read(&bytes).unwrap();
    assert_eq!(anim.version, 0);
    assert_eq!(anim.tracks[0].value_type(), animbin_animx::ValueType::Float);
    assert_eq!(anim.tracks[1].track_type(), animbin_animx::TrackType::Curve);
    let TrackData::Curve(curve) = &anim.tracks[1].data else {
        panic!("a curve")
    };
    assert_eq!(curve.interpolation, Interpolations::Shared(Interpolation::Hold));
    assert_eq!(curve.keyframes.times, vec![0.5]);
    assert_eq!(curve.keyframes.values, Values::Float3(vec![Vec3::new(0.0, 1.0, 1.0)]));
    assert_eq!(animbin_animx::to_bytes(&anim).unwrap(), bytes);
    assert_every_truncation_fails(&bytes, animbin_animx::read);
    // Version 0 has no Discrete tracks: writing one is refused.
    let mut bad = anim.clone();
    bad.tracks.push(discrete("a", "b", vec![], Values::Int(vec![])));
    let err = animbin_animx::to_bytes(&bad).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)), "{err}");
}

#[test]
fn curve_keyframes_in_time_value_order_are_read_by_the_fallback() {
    // (time, value) keyframes and (left, right) tangents, as a third-party writer stores them:
    // read in the seed's order the times would be 2.0 and -1.0, not in [0, 2] and not sorted.
    let bytes = hex("
        05 41 6e 69 6d 58 01 00 00 00 01 00 00 00 40 00 00
        02 15 01 6e 01 70 02 02 01
        00 00 00 00 00 00 00 40     # time 0, value 2.0
        00 00 80 3f 00 00 80 bf     # time 1, value -1.0
        00 00 80 3f 00 00 00 40     # left 1, right 2
        00 00 40 40 00 00 80 40     # left 3, right 4
    ");
    let anim = animbin_animx::read(&bytes).unwrap();
    let TrackData::Curve(curve) = &anim.tracks[0].data else {
        panic!("a curve")
    };
    assert_eq!(curve.keyframes.times, vec![0.0, 1.0]);
    assert_eq!(curve.keyframes.values, Values::Float(vec![2.0, -1.0]));
    let tangents = curve.tangents.as_ref().unwrap();
    assert_eq!(tangents.left, Values::Float(vec![1.0, 3.0]));
    assert_eq!(tangents.right, Values::Float(vec![2.0, 4.0]));
    // Written back in the seed's order: (value, time) and (right, left).
    let out = animbin_animx::to_bytes(&anim).unwrap();
    assert_eq!(
        &out[26..],
        &hex("00 00 00 40 00 00 00 00  00 00 80 bf 00 00 80 3f  00 00 00 40 00 00 80 3f  00 00 80 40 00 00 40 40")[..]
    );
}

#[test]
fn lz4_fixture_with_a_stored_chunk() {
    let plain = hex(KITCHEN);
    let tracks = &plain[18..];
    // lz4net stores a chunk that LZ4 cannot shrink: flags 0, originalLength, the bytes.
    let mut bytes = plain[..17].to_vec();
    bytes.push(0x01);
    bytes.extend_from_slice(&hex("00 ce 01")); // flags 0, originalLength 206 (varint ce 01)
    assert_eq!(tracks.len(), 206);
    bytes.extend_from_slice(tracks);
    let anim = animbin_animx::read(&bytes).unwrap();
    assert_eq!(
        anim,
        Animation {
            encoding: Encoding::Lz4,
            ..kitchen_model()
        }
    );
    let file = AnimXFile::read(&bytes).unwrap();
    assert_eq!(file.to_bytes().unwrap(), bytes);
    assert_eq!(
        anim.encode_keeping(&file, &ReadOptions::default())
            .unwrap()
            .to_bytes()
            .unwrap(),
        bytes
    );
    assert_every_truncation_fails(&bytes, animbin_animx::read);
}

#[test]
fn lzma_container_is_written_exactly() {
    let anim = Animation {
        encoding: Encoding::Lzma,
        ..kitchen_model()
    };
    let bytes = animbin_animx::to_bytes(&anim).unwrap();
    let plain = hex(KITCHEN);
    assert_eq!(&bytes[..17], &plain[..17]);
    assert_eq!(bytes[17], 2);
    let container = &bytes[18..];
    assert_eq!(&container[..5], &[0x5D, 0x00, 0x00, 0x20, 0x00]);
    assert_eq!(u64::from_le_bytes(container[5..13].try_into().unwrap()), 206);
    assert_eq!(
        u64::from_le_bytes(container[13..21].try_into().unwrap()),
        container.len() as u64 - 21
    );
    assert_eq!(animbin_animx::read(&bytes).unwrap(), anim);
    assert_every_truncation_fails(&bytes, animbin_animx::read);
}

/// Reads `hex`, expecting an error at `offset` whose message contains `needle`.
fn assert_error(text: &str, offset: u64, needle: &str) {
    let err = animbin_animx::read(&hex(text)).unwrap_err();
    assert_eq!(err.offset, offset, "{err}");
    assert!(err.to_string().contains(needle), "{err:?} lacks {needle:?}");
}

const HEAD: &str = "05 41 6e 69 6d 58 01 00 00 00";

#[test]
fn bad_headers_name_their_offsets() {
    assert_error("05 41 6e 69 6d 59 01 00 00 00 00 00 00 00 00 00 00", 0, "magic");
    assert_error(
        "05 41 6e 69 6d 58 02 00 00 00 00 00 00 00 00 00 00",
        6,
        "version 0 or 1",
    );
    // A varint of six bytes in the track count.
    assert_error(&format!("{HEAD} 80 80 80 80 80 01 00 00 00 00 00 00"), 10, "7-bit");
    // A name whose length runs past the end.
    assert_error(&format!("{HEAD} 00 00 00 00 00 7f 61 62"), 16, "string byte count 127");
    assert_error(&format!("{HEAD} 00 00 00 00 00 00 03"), 16, "encoding");
    // A track count the bytes cannot hold is refused before reserving anything.
    assert_error(
        &format!("{HEAD} ff ff ff ff 07 00 00 00 00 00 00"),
        21,
        "track count 2147483647",
    );
}

#[test]
fn bad_tracks_name_their_offsets() {
    let file = |tracks: &str, count: u8| format!("{HEAD} {count:02x} 00 00 80 3f 00 00 {tracks}");
    // Track header at 17.
    assert_error(&file("03 15 00 00 00", 1), 17, "Bezier");
    assert_error(&file("07 15 00 00 00", 1), 17, "track type 0..=2");
    assert_error(&file("00 28 00 00 00 00 00 00 00", 1), 18, "value type id 0..=39");
    // Curve flags and interpolation.
    assert_error(&file("02 15 00 00 01 04 00", 1), 22, "curve flags");
    assert_error(&file("02 15 00 00 01 00 04", 1), 23, "interpolation 0..=3");
    // Per-keyframe interpolations (read in one copy): the bad one's own offset.
    assert_error(&file("02 15 00 00 03 01 01 02 04", 1), 25, "interpolation 0..=3");
    // A string value's hasValue byte.
    assert_error(&file("01 27 00 00 01 00 00 00 00 02", 1), 26, "hasValue");
    // A keyframe count the bytes cannot hold.
    assert_error(
        &file("00 1c 00 00 ff ff 03 00 00 00 00", 1),
        28,
        "float4x4 value count 65535",
    );
    // Bytes after the last track.
    assert_error(&file("00 15 00 00 00 00 00 00 00 ff", 1), 26, "end of the data");
    // A node name that is not UTF-8.
    assert_error(&file("00 15 02 ff fe 00 00 00 00 00 00", 1), 19, "UTF-8");
}

#[test]
fn unknown_enum_values_are_refused_in_the_words_of_each_list() {
    let file = |tracks: &str| format!("{HEAD} 01 00 00 80 3f 00 00 {tracks}");
    let cases = [
        (
            format!("{HEAD} 00 00 00 00 00 00 03"),
            "animx at byte 16 (0x10): expected an encoding 0 (plain), 1 (LZ4) or 2 (LZMA), found 3",
        ),
        (
            file("07 15 00 00 00"),
            "animx at byte 17 (0x11): expected a track type 0..=2 (Raw, Discrete, Curve), found 7",
        ),
        (
            file("02 15 00 00 01 00 04"),
            "animx at byte 23 (0x17): expected an interpolation 0..=3 (Hold, Linear, Tangent, CubicBezier), found 4",
        ),
    ];
    for (text, message) in cases {
        let bytes = hex(&text);
        assert_eq!(animbin_animx::read(&bytes).unwrap_err().to_string(), message);
        assert_eq!(View::parse(&bytes).unwrap_err().to_string(), message);
    }
}

#[test]
fn bad_compressed_data_names_its_offsets() {
    let lz4 = |chunks: &str| format!("{HEAD} 00 00 00 00 00 00 01 {chunks}");
    // A stored chunk that claims more bytes than follow.
    assert_error(&lz4("00 e8 07 01 02 03"), 20, "LZ4 chunk byte count 1000");
    // A compressed chunk whose originalLength no block of its size can reach.
    assert_error(&lz4("01 a0 8d 06 02 00 00"), 18, "originalLength");
    // Unknown flag bits.
    assert_error(&lz4("04 00"), 17, "flags");
    // A chunk over the decompression limit.
    assert_error(&lz4("00 ff ff ff ff 0f"), 18, "exceeds the limit");
    // LZMA sizes in the gigabytes: refused before allocating, at the decompressedSize field.
    let lzma = format!(
        "{HEAD} 00 00 00 00 00 00 02 5d 00 00 20 00 00 00 00 00 02 00 00 00 05 00 00 00 00 00 00 00 00 00 00 00 00"
    );
    assert_error(&lzma, 22, "exceeds the limit");
    // A compressedSize past the end, at its field.
    let lzma = format!("{HEAD} 00 00 00 00 00 00 02 5d 00 00 20 00 10 00 00 00 00 00 00 00 ff 00 00 00 00 00 00 00 00");
    assert_error(&lzma, 30, "LZMA compressed byte count 255");
    // An impossible properties byte.
    let lzma = format!("{HEAD} 00 00 00 00 00 00 02 e1 00 00 20 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
    assert_error(&lzma, 17, "properties");
    // A limit the caller raises lets a bigger file through; one it lowers stops a small one.
    let small = animbin_animx::to_bytes(&Animation {
        encoding: Encoding::Lz4,
        ..kitchen_model()
    })
    .unwrap();
    let strict = ReadOptions {
        max_decompressed_size: 100,
    };
    let err = animbin_animx::read_with(&small, &strict).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::LimitExceeded { limit: 100, .. }), "{err}");
}

#[test]
fn errors_inside_decompressed_data_say_so() {
    // The kitchen tracks in one stored LZ4 chunk, with the first track's type broken.
    let plain = hex(KITCHEN);
    let mut bytes = plain[..17].to_vec();
    bytes.extend_from_slice(&hex("01 00 ce 01"));
    bytes.extend_from_slice(&plain[18..]);
    bytes[21] = 9;
    let err = animbin_animx::read(&bytes).unwrap_err();
    assert_eq!(err.format, animbin_animx::DECOMPRESSED);
    assert_eq!(err.offset, 0);
}

/// A problem placed at track `track`.
fn at_track(severity: Severity, track: usize, message: &str) -> Problem {
    Problem::new(severity, Location::Item(format!("track {track}")), message)
}

#[test]
fn validate_lists_broken_invariants() {
    assert!(animbin_animx::validate(&kitchen_model()).is_empty());
    let mut anim = kitchen_model();
    anim.global_duration = 0.75;
    if let TrackData::Curve(c) = &mut anim.tracks[1].data {
        c.tangents = None;
    }
    anim.tracks[3].property.clear();
    assert_eq!(
        animbin_animx::validate(&anim),
        [
            at_track(
                Severity::Warning,
                1,
                "Hips/rotation: Tangent or CubicBezier interpolation without tangents"
            ),
            at_track(
                Severity::Error,
                1,
                "Hips/rotation: keyframe 1 at 1 s is outside [0, 0.75] s"
            ),
            at_track(Severity::Error, 2, "n/b: keyframe 1 at 1 s is outside [0, 0.75] s"),
            at_track(Severity::Warning, 3, "n/: the property name is empty"),
            at_track(Severity::Error, 3, "n/: keyframe 1 at 2 s is outside [0, 0.75] s"),
        ]
    );
    let _ = Vec2::new(0, 0);
}

/// A Raw track longer than the animation plays until the duration and no further: the
/// values after it are never reached, which is worth a warning, but the file is sound (it
/// reads and writes back as it is).
#[test]
fn raw_values_past_the_duration_are_a_warning_not_an_error() {
    let raw = |count: usize| {
        TrackData::Raw(RawTrack {
            interval: 0.5,
            values: Values::Float3((0..count).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect()),
        })
    };
    let mut anim = kitchen_model();
    assert_eq!(anim.global_duration, 2.0);
    anim.tracks[0].data = raw(7); // values at 0, 0.5, ... 3 s
    assert_eq!(
        animbin_animx::validate(&anim),
        [at_track(
            Severity::Warning,
            0,
            "Hips/position: the last value is at 3 s, after the duration of 2 s: 2 of 7 values are never reached"
        )]
    );
    let bytes = animbin_animx::to_bytes(&anim).unwrap();
    assert_eq!(animbin_animx::read(&bytes).unwrap(), anim);
    // Ending exactly at the duration, every value plays.
    anim.tracks[0].data = raw(5);
    assert_eq!(animbin_animx::validate(&anim), []);
}

#[test]
fn animj_writes_non_finite_floats_as_json_net_strings() {
    let anim = Animation {
        global_duration: 1.0,
        tracks: vec![discrete(
            "n",
            "p",
            vec![0.0, 0.5, 1.0],
            Values::Double(vec![f64::INFINITY, f64::NEG_INFINITY, f64::NAN]),
        )],
        ..Animation::default()
    };
    let json = animj::to_value(&anim);
    assert_eq!(
        json["tracks"][0]["data"]["keyframes"],
        serde_json::json!([
            {"time": 0.0, "value": "Infinity"}, {"time": 0.5, "value": "-Infinity"}, {"time": 1.0, "value": "NaN"}
        ])
    );
    let back = animj::from_value(&json).unwrap();
    let TrackData::Discrete(d) = &back.tracks[0].data else {
        panic!("discrete")
    };
    let Values::Double(v) = &d.keyframes.values else {
        panic!("doubles")
    };
    assert_eq!((v[0], v[1]), (f64::INFINITY, f64::NEG_INFINITY));
    assert!(v[2].is_nan());
}

#[test]
fn animj_errors_name_the_json_path_or_the_byte() {
    let err = animj::from_str(
        r#"{"name": "x", "tracks": [{"trackType": "Discrete", "valueType": "byte",
        "data": {"node": "n", "property": "p", "keyframes": [{"time": 0, "value": 300}]}}]}"#,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("tracks[0]: data.keyframes[0].value: an integer in the range of u8"),
        "{err}"
    );
    let err =
        animj::from_str(r#"{"tracks": [{"trackType": "Bezier", "valueType": "float", "data": {}}]}"#).unwrap_err();
    assert!(err.to_string().contains("Bezier tracks are not supported"), "{err}");
    let err = animj::from_str("{\"name\": \"x\",\n \"tracks\": [,]}").unwrap_err();
    assert_eq!(err.offset, 26, "{err}"); // the comma
    // Raw keyframes may be {time, value} objects too.
    let anim = animj::from_str(r#"{"globalDuration": 1, "tracks": [{"trackType": "Raw", "valueType": "float3",
        "data": {"node": "n", "property": "p", "interval": 0.5, "keyframes": [{"time": 0, "value": {"x": 1, "y": 2, "z": 3}}, {"x": 0, "y": 0, "z": 0}]}}]}"#)
    .unwrap();
    assert_eq!(anim.tracks[0].keyframe_count(), 2);
}

#[test]
fn padded_varints_in_the_header_are_refused_so_headers_write_back_exactly() {
    // Track count 0 written as two bytes (80 00) instead of one.
    assert_error(&format!("{HEAD} 80 00 00 00 00 00 00 00"), 10, "minimal 7-bit");
}

#[test]
fn a_wrong_magic_shows_the_bytes_in_hex() {
    assert_error(
        "05 41 6e 69 6d 59 01 00 00 00 00 00 00 00 00 00 00",
        0,
        "found 0x05416e696d59",
    );
    assert_error("53 45 41 6e 69 6d", 0, "the magic 0x05416e696d58");
}

#[test]
fn unencodable_tracks_are_named_by_index_node_and_property() {
    let mut anim = kitchen_model();
    if let TrackData::Discrete(d) = &mut anim.tracks[2].data {
        d.keyframes.times.push(9.0);
    }
    let err = animbin_animx::to_bytes(&anim).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)), "{err}");
    assert!(
        err.to_string()
            .contains(r#"track 2 ("n", "b"): 3 keyframe times for 2 values"#),
        "{err}"
    );
    let version_0 = Animation {
        version: 0,
        ..redx_model()
    };
    let err = animbin_animx::to_bytes(&version_0).unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"track 0 ("testNode", "testProperty"): a Discrete track in a version 0 file"#),
        "{err}"
    );
}

#[test]
fn problems_are_placed_at_their_track_or_at_the_file_for_the_header() {
    let mut anim = kitchen_model();
    anim.global_duration = -1.0;
    anim.tracks[3].property.clear();
    let problems = animbin_animx::validate(&anim);
    let header = &problems[0];
    assert_eq!(
        *header,
        Problem::new(
            Severity::Error,
            Location::File,
            "global duration -1 is not a finite, non-negative number of seconds"
        )
    );
    assert_eq!(header.to_string(), header.message);
    let track = problems
        .iter()
        .find(|p| p.location == Location::Item("track 3".into()))
        .unwrap();
    assert_eq!(*track, at_track(Severity::Warning, 3, "n/: the property name is empty"));
    assert_eq!(track.to_string(), "warning: track 3: n/: the property name is empty");
}

#[test]
fn scenes_use_the_framerate_option_or_60() {
    use animbin_animx::{ConversionReport, DEFAULT_FRAMERATE, SceneOptions};
    let anim = kitchen_model();
    let mut report = ConversionReport::default();
    let scene = anim.to_scene(&SceneOptions::default(), &mut report).unwrap();
    assert_eq!(DEFAULT_FRAMERATE, 60.0);
    assert_eq!(scene.animations[0].framerate, 60.0);
    assert_eq!(scene.animations[0].frame_count, 120.0); // 2 s
    let options = SceneOptions {
        framerate: Some(24.0),
        ..SceneOptions::default()
    };
    let scene = anim.to_scene(&options, &mut report).unwrap();
    assert_eq!(scene.animations[0].framerate, 24.0);
    assert_eq!(scene.animations[0].frame_count, 48.0);
    assert!(report.is_lossless());
    // The scene states its rate: converting back needs no option to find the seconds.
    let back = Animation::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(back.global_duration, anim.global_duration);
    let zero = SceneOptions {
        framerate: Some(0.0),
        ..SceneOptions::default()
    };
    let err = anim.to_scene(&zero, &mut report).unwrap_err();
    assert!(err.to_string().contains("a framerate of 0"), "{err}");
}

#[test]
fn curve_flags_follow_the_interpolations_and_tangents() {
    use animbin_animx::CurveFlags;
    let TrackData::Curve(curve) = &kitchen_model().tracks[1].data else {
        panic!("a curve")
    };
    let flags = CurveFlags::of(&curve.interpolation, &curve.tangents);
    assert_eq!(flags, CurveFlags::PER_KEYFRAME_INTERPOLATION | CurveFlags::TANGENTS);
    assert_eq!(flags.bits(), 3);
    assert_eq!(
        CurveFlags::of(&Interpolations::Shared(Interpolation::Linear), &None),
        CurveFlags::empty()
    );
    assert_eq!(CurveFlags::from_byte(2).unwrap(), CurveFlags::TANGENTS);
    let err = CurveFlags::from_byte(0x84).unwrap_err();
    assert!(err.to_string().contains("found 0x84"), "{err}");
}

#[test]
fn empty_names_missing_tangents_and_rotations_off_unit_length_are_warnings() {
    let mut anim = kitchen_model();
    if let TrackData::Curve(c) = &mut anim.tracks[1].data {
        c.tangents = None;
    }
    anim.tracks[3].property.clear();
    let half = std::f32::consts::FRAC_1_SQRT_2;
    anim.tracks.push(Track {
        node: String::new(),
        property: "rotation".into(),
        data: TrackData::Discrete(DiscreteTrack {
            keyframes: Keyframes {
                times: vec![0.0, 0.5, 1.0],
                values: Values::FloatQ(vec![
                    Quat::new(half, 0.0, 0.0, half),
                    Quat::new(0.0, 0.0, 0.0, 0.0),
                    Quat::new(0.0, 0.0, 0.0, 2.0),
                ]),
            },
        }),
    });
    anim.tracks.push(Track {
        node: "n".into(),
        property: "r".into(),
        data: TrackData::Raw(RawTrack {
            interval: 0.5,
            values: Values::DoubleQ(vec![Quat::new(0.0, 0.0, 0.0, 1.0), Quat::new(0.0, f64::NAN, 0.0, 1.0)]),
        }),
    });
    let warning = |track, message| at_track(Severity::Warning, track, message);
    assert_eq!(
        animbin_animx::validate(&anim),
        [
            warning(
                1,
                "Hips/rotation: Tangent or CubicBezier interpolation without tangents"
            ),
            warning(3, "n/: the property name is empty"),
            warning(4, "/rotation: the node name is empty"),
            warning(
                4,
                "/rotation: value 1 has length 0.000000, not 1, so it is no rotation (2 values in all)"
            ),
            warning(5, "n/r: value 1 has length NaN, not 1, so it is no rotation"),
        ]
    );
}
