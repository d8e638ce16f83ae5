//! The summary by the count-only walk and through the view is the model's own, for every
//! testdata file and every prefix and corruption of them.

use animbin_sf3::{FileFormat, Sf3File, Summary, View};
use animbin_testing::assert_summary_members;

fn x8an_files() -> Vec<(String, Vec<u8>)> {
    // x8an02.bin, which holds no keys, is a test fixture rather than a sample.
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    ["x8an00.bin", "x8an01.bin", "../tests/fixtures/x8an02.bin"]
        .iter()
        .map(|name| (name.to_string(), std::fs::read(testdata.join(name)).unwrap()))
        .collect()
}

/// The walk's, the view's and the model's summaries: all present and equal, or all absent.
fn summaries(bytes: &[u8]) -> [Option<Summary>; 3] {
    [
        Sf3File::summary_of(bytes).ok(),
        View::parse(bytes).ok().map(|v| v.summary()),
        animbin_sf3::read(bytes).ok().map(|f| f.summary()),
    ]
}

fn assert_one_summary(bytes: &[u8], what: &str) {
    let [walk, view, model] = summaries(bytes);
    assert_eq!(walk, model, "{what}: the walk's summary");
    assert_eq!(view, model, "{what}: the view's summary");
}

#[test]
fn the_walk_and_the_view_summarise_as_the_model_every_file_prefix_and_flipped_byte() {
    for (name, bytes) in x8an_files() {
        let [walk, ..] = summaries(&bytes);
        assert!(walk.is_some(), "{name}: a whole file summarises");
        assert_one_summary(&bytes, &name);
        for len in 0..bytes.len() {
            assert_one_summary(&bytes[..len], &format!("{name} cut to {len} bytes"));
        }
        for at in 0..bytes.len() {
            for flip in [0x55, 0x80, 0xff] {
                let mut flipped = bytes.clone();
                flipped[at] ^= flip;
                assert_one_summary(&flipped, &format!("{name}: byte {at} ^ {flip:#04x}"));
            }
        }
    }
}

#[test]
fn the_summary_is_the_one_animbin_info_prints() {
    let (_, bytes) = &x8an_files()[0];
    let summary = Sf3File::summary_of(bytes).unwrap();
    // The members in the order of the fields, as `animbin info --json` has always printed them.
    assert_summary_members(
        &summary,
        &[
            "segment_count",
            "slot_count",
            "translation_key_count",
            "rotation_key_count",
            "scale_key_count",
            "key_count",
            "padding_words",
            "end_marker",
        ],
    );
}
