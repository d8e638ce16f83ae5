//! `ReadOptions::max_accessor_values` holds for the reads that take the options
//! (`Document::open_with`, `parse_file_with`, `info_of_file_with`) without a caller's
//! `ReadOptions::scope`: 8 primitives sharing a sparse accessor of 1,000 positions give
//! 24,004 values, read under a budget of 24,004 and refused under 24,003.

use std::path::Path;

use animbin::{Document, ReadOptions};

#[test]
fn the_reads_that_take_read_options_hold_its_accessor_budget() {
    let sparse = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fuzz/regressions/parse_gltf/gltf-8-primitives-share-a-sparse-accessor-of-5000000"),
    )
    .unwrap()
    .replace("\"count\": 5000000", "\"count\": 1000");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.gltf");
    std::fs::write(&path, &sparse).unwrap();
    let with = |budget: u64| ReadOptions {
        max_accessor_values: Some(budget),
        ..ReadOptions::default()
    };
    let enough = with(24_004);
    assert!(Document::open_with(&path, None, &enough).is_ok());
    assert!(Document::info_of_file_with(&path, None, &enough).is_ok());
    assert!(Document::parse_file_with(sparse.as_bytes(), &path, None, &enough).is_ok());
    let short = with(24_003);
    let refusals = [
        Document::open_with(&path, None, &short).map(drop),
        Document::info_of_file_with(&path, None, &short).map(drop),
        Document::parse_file_with(sparse.as_bytes(), &path, None, &short).map(drop),
    ];
    for refused in refusals {
        let message = refused.expect_err("refused under 24,003 values").to_string();
        assert!(
            message.contains("expected at most 24003 accessor values in all"),
            "{message}"
        );
    }
}
