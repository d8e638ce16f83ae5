//! AnimX fixtures shared by the AnimX crate's tests and the front ends' (`animbin`, the
//! command).

use std::path::Path;

use animbin_animx::{
    Animation, CurveTrack, Encoding, Interpolation, Interpolations, Keyframes, RawTrack, Track, TrackData, Values,
};
use animbin_core::math::{Quat, Vec3};

/// A small animation in `encoding`: "walk", one second long, with a linear rotation curve
/// on `Hips` and a raw colour track on `Light`.
pub fn sample(encoding: Encoding) -> Animation {
    Animation {
        name: "walk".into(),
        global_duration: 1.0,
        encoding,
        tracks: vec![
            Track {
                node: "Hips".into(),
                property: "rotation".into(),
                data: TrackData::Curve(CurveTrack::new(
                    Keyframes {
                        times: vec![0.0, 0.5, 1.0],
                        values: Values::FloatQ(vec![Quat::new(0.0, 0.0, 0.0, 1.0); 3]),
                    },
                    vec![Interpolation::Linear; 3],
                    None,
                )),
            },
            Track {
                node: "Light".into(),
                property: "Color".into(),
                data: TrackData::Raw(RawTrack {
                    interval: 0.5,
                    values: Values::Float3(vec![Vec3::new(1.0, 0.5, 0.25), Vec3::new(0.0, 0.0, 0.0)]),
                }),
            },
        ],
        ..Animation::default()
    }
}

/// The binary AnimX files of the workspace's `testdata/` (plain, LZ4, LZMA and version 0),
/// each with its name and bytes, found from a crate's `CARGO_MANIFEST_DIR`; then the plain
/// one rewritten with one interpolation byte per keyframe on its curves, which a view checks
/// key by key (named `per-keyframe`).
pub fn binary_samples(manifest_dir: &str) -> Vec<(String, Vec<u8>)> {
    let testdata = Path::new(manifest_dir).join("../../testdata");
    let mut files: Vec<(String, Vec<u8>)> = [
        "sample.animx",
        "sample-lz4.animx",
        "sample-lzma.animx",
        "sample-v0.animx",
    ]
    .iter()
    .map(|name| (name.to_string(), std::fs::read(testdata.join(name)).unwrap()))
    .collect();
    let mut anim = animbin_animx::read(&files[0].1).unwrap();
    for track in &mut anim.tracks {
        if let TrackData::Curve(c) = &mut track.data {
            let n = c.keyframes.len();
            c.interpolation = Interpolations::PerKeyframe((0..n).map(|i| Interpolation::ALL[i % 4]).collect());
        }
    }
    files.push(("per-keyframe".into(), animbin_animx::to_bytes(&anim).unwrap()));
    files
}
