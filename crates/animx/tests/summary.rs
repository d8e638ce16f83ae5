//! The summary through the zero-copy view (plain files where they lie, compressed ones once
//! decompressed) is the model's own, for every testdata file and every prefix and corruption
//! of them.

use animbin_animx::{AnimXDocument, FileFormat, Interpolation, Interpolations, Summary, TrackData};
use animbin_testing::assert_view_summaries;

fn animx_files() -> Vec<(String, Vec<u8>)> {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files: Vec<(String, Vec<u8>)> = [
        "sample.animx",
        "sample-lz4.animx",
        "sample-lzma.animx",
        "sample-v0.animx",
        "sample.animj",
    ]
    .iter()
    .map(|name| (name.to_string(), std::fs::read(testdata.join(name)).unwrap()))
    .collect();
    // A curve with one interpolation byte per keyframe, which the view checks key by key.
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

#[test]
fn the_view_summary_is_the_model_s_for_every_file_prefix_and_flipped_byte() {
    for (name, bytes) in animx_files() {
        let summary = AnimXDocument::summary_of(&bytes).unwrap();
        let anim = AnimXDocument::read(&bytes).unwrap().animation;
        assert_eq!(summary.track_count, anim.tracks.len());
        assert_eq!(summary.keyframe_count, anim.keyframe_count() as u64);
        // Every byte, flipped two ways: ids, flags, counts, padded varints and compressed data
        // are refused by both or by neither.
        assert_view_summaries::<AnimXDocument>(&name, &bytes, &[0x55, 0x80]);
    }
}

#[test]
fn the_summary_is_the_one_animbin_info_prints() {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let bytes = std::fs::read(testdata.join("sample-lz4.animx")).unwrap();
    let summary = AnimXDocument::summary_of(&bytes).unwrap();
    // The members in the order of the fields, as `animbin info --json` has always printed them.
    let text = serde_json::to_string(&summary).unwrap();
    let at = |member: &str| text.find(&format!("\"{member}\":")).unwrap();
    let members = [
        "version",
        "encoding",
        "track_count",
        "keyframe_count",
        "duration",
        "name",
    ];
    assert!(members.windows(2).all(|w| at(w[0]) < at(w[1])), "{text}");
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json.as_object().unwrap().len(), members.len());
    assert_eq!(json["encoding"], "lz4");
    assert_eq!(serde_json::from_value::<Summary>(json).unwrap(), summary);
}
