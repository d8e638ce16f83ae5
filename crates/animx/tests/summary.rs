//! The summary through the zero-copy view (plain files where they lie, compressed ones once
//! decompressed) is the model's own, for every testdata file and every prefix and corruption
//! of them.

use animbin_animx::{AnimXDocument, FileFormat};
use animbin_testing::animx::binary_samples;
use animbin_testing::{assert_summary_members, assert_view_summaries};

/// The binary samples, and the AnimJ one.
fn animx_files() -> Vec<(String, Vec<u8>)> {
    let mut files = binary_samples(env!("CARGO_MANIFEST_DIR"));
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    files.push((
        "sample.animj".into(),
        std::fs::read(testdata.join("sample.animj")).unwrap(),
    ));
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
    let json = assert_summary_members(
        &summary,
        &[
            "form",
            "version",
            "encoding",
            "track_count",
            "keyframe_count",
            "duration",
            "name",
        ],
    );
    assert_eq!(json["encoding"], "lz4");
    assert_eq!(json["form"], "animx");

    // The same animation as AnimJ says so: the format is AnimX's, the form its JSON twin's.
    let animj = std::fs::read(testdata.join("sample.animj")).unwrap();
    let summary = AnimXDocument::summary_of(&animj).unwrap();
    assert_eq!(summary.form, "animj");
    assert_eq!(
        AnimXDocument::summary_of(&std::fs::read(testdata.join("sample.animx")).unwrap()).unwrap(),
        animbin_animx::Summary {
            form: "animx".into(),
            ..summary
        }
    );
}
