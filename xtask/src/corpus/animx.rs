//! AnimX samples, written by `animbin-animx`: `sample.animx` (a small walk cycle with a bone
//! rotation curve, a raw position track, a colour and a string track), the same in LZ4 and
//! LZMA, a version 0 file, its AnimJ form, and fuzz seeds with every value type.

use animbin_animx::{
    Animation, CurveTrack, DiscreteTrack, Encoding, Interpolation, Interpolations, Keyframes, RawTrack, Tangents,
    Track, TrackData, ValueType, Values, animj,
};
use animbin_core::math::{Quat, Rgba, Vec3};

use super::Sample;

const TARGETS: &[&str] = &["parse_animx", "roundtrip_animx", "model_animx"];

fn sample() -> Animation {
    let quarter = std::f32::consts::FRAC_1_SQRT_2;
    Animation {
        name: "wave".into(),
        global_duration: 1.0,
        tracks: vec![
            Track {
                node: "RightHand".into(),
                property: "rotation".into(),
                data: TrackData::Curve(CurveTrack::new(
                    Keyframes {
                        times: vec![0.0, 0.5, 1.0],
                        values: Values::FloatQ(vec![
                            Quat::new(0.0, 0.0, 0.0, 1.0),
                            Quat::new(0.0, 0.0, quarter, quarter),
                            Quat::new(0.0, 0.0, 0.0, 1.0),
                        ]),
                    },
                    vec![Interpolation::Linear; 3],
                    None,
                )),
            },
            Track {
                node: "Hips".into(),
                property: "position".into(),
                data: TrackData::Raw(RawTrack {
                    interval: 0.25,
                    values: Values::Float3((0..5).map(|i| Vec3::new(0.0, 1.0 + 0.02 * i as f32, 0.0)).collect()),
                }),
            },
            Track {
                node: "Light".into(),
                property: "Color".into(),
                data: TrackData::Curve(CurveTrack {
                    interpolation: Interpolations::PerKeyframe(vec![Interpolation::Tangent, Interpolation::Hold]),
                    keyframes: Keyframes {
                        times: vec![0.0, 1.0],
                        values: Values::Color(vec![Rgba::new(1.0, 1.0, 1.0, 1.0), Rgba::new(1.0, 0.5, 0.0, 1.0)]),
                    },
                    tangents: Some(Tangents {
                        left: Values::Color(vec![Rgba::new(0.0, 0.0, 0.0, 0.0); 2]),
                        right: Values::Color(vec![Rgba::new(0.0, -0.5, -1.0, 0.0); 2]),
                    }),
                }),
            },
            Track {
                node: "Label".into(),
                property: "Content".into(),
                data: TrackData::Discrete(DiscreteTrack {
                    keyframes: Keyframes {
                        times: vec![0.0, 0.5],
                        values: Values::String(vec![Some("hello".into()), None]),
                    },
                }),
            },
        ],
        ..Animation::default()
    }
}

/// One Raw track of two default values for every value type, then Discrete and Curve ones.
fn every_value_type() -> Animation {
    let mut tracks = Vec::new();
    for vt in ValueType::ALL {
        let mut values = vt.empty_values();
        for json in [default_json(vt), default_json(vt)] {
            values.push_json(&json).expect("a default value of every type");
        }
        let keys = || Keyframes {
            times: vec![0.0, 1.0],
            values: values.clone(),
        };
        tracks.push(Track {
            node: "n".into(),
            property: vt.name().into(),
            data: TrackData::Raw(RawTrack {
                interval: 1.0,
                values: values.clone(),
            }),
        });
        tracks.push(Track {
            node: "n".into(),
            property: vt.name().into(),
            data: TrackData::Discrete(DiscreteTrack { keyframes: keys() }),
        });
        tracks.push(Track {
            node: "n".into(),
            property: vt.name().into(),
            data: TrackData::Curve(CurveTrack::new(keys(), vec![Interpolation::Linear; 2], None)),
        });
    }
    Animation {
        name: "every value type".into(),
        global_duration: 1.0,
        tracks,
        ..Animation::default()
    }
}

/// A JSON value of `vt`'s shape, all zeros (false, 0, "", empty matrices of zeros).
fn default_json(vt: ValueType) -> serde_json::Value {
    use serde_json::json;
    let name = vt.name();
    let scalar = if name.starts_with("bool") {
        json!(false)
    } else {
        json!(0)
    };
    if vt == ValueType::String {
        return json!("");
    }
    if name.starts_with("color") {
        return json!({"r": scalar, "g": scalar, "b": scalar, "a": scalar});
    }
    if let Some(n) = name
        .strip_suffix("x2")
        .map(|_| 2)
        .or(name.strip_suffix("x3").map(|_| 3))
        .or(name.strip_suffix("x4").map(|_| 4))
    {
        return json!(vec![vec![0; n]; n]);
    }
    let fields: &[&str] = match name.chars().last() {
        Some('2') => &["x", "y"],
        Some('3') => &["x", "y", "z"],
        Some('4' | 'Q') => &["x", "y", "z", "w"],
        _ => return scalar,
    };
    serde_json::Value::Object(fields.iter().map(|f| (f.to_string(), scalar.clone())).collect())
}

fn bytes(anim: &Animation) -> Vec<u8> {
    animbin_animx::to_bytes(anim).expect("the samples encode")
}

pub(crate) fn samples() -> Vec<Sample> {
    let plain = sample();
    let lz4 = Animation {
        encoding: Encoding::Lz4,
        ..sample()
    };
    let lzma = Animation {
        encoding: Encoding::Lzma,
        ..sample()
    };
    let mut v0 = sample();
    v0.version = 0;
    v0.tracks.retain(|t| !matches!(t.data, TrackData::Discrete(_)));
    vec![
        Sample::new("sample.animx", bytes(&plain), TARGETS, true),
        Sample::new("sample-lz4.animx", bytes(&lz4), TARGETS, true),
        Sample::new("sample-lzma.animx", bytes(&lzma), TARGETS, true),
        Sample::new("sample-v0.animx", bytes(&v0), TARGETS, true),
        Sample::new(
            "sample.animj",
            animj::to_string(&plain).expect("AnimJ").into_bytes(),
            &["parse_animx"],
            true,
        ),
        Sample::new("every-value-type.animx", bytes(&every_value_type()), TARGETS, false),
        Sample::new(
            "every-value-type-lz4.animx",
            bytes(&Animation {
                encoding: Encoding::Lz4,
                ..every_value_type()
            }),
            TARGETS,
            false,
        ),
    ]
}
