//! The summary from the zero-copy view is the summary of the owned model: on every sample
//! in `testdata/` and in the shared corpus, and on every prefix and every flipped byte of
//! the small ones, `summary_of` accepts exactly what `read` does and gives the same summary.

use animbin_core::format::Positioned;
use animbin_semodel::{FileFormat, Layout, SeModel, View, read, sniff};
use animbin_testing::{assert_positioned_summaries, assert_view_summaries, samples};

#[test]
fn the_view_summarises_every_sample_as_the_model_does() {
    let mut layouts = Vec::new();
    for (name, bytes) in samples(env!("CARGO_MANIFEST_DIR"), "semodel") {
        let model = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(SeModel::summary_of(&bytes).unwrap(), model.summary(), "{name}");
        // The view opens the deployed layout only; a draft is summarised by reading it.
        match sniff(&bytes).unwrap() {
            Layout::Deployed => assert_eq!(View::parse(&bytes).unwrap().summary(), model.summary()),
            Layout::Draft => assert!(View::parse(&bytes).is_err()),
        }
        layouts.push(model.layout());
    }
    assert!(
        layouts.contains(&Layout::Deployed) && layouts.contains(&Layout::Draft),
        "{layouts:?}"
    );
}

#[test]
fn every_prefix_and_flipped_byte_summarises_both_ways_or_neither() {
    // The 300-vertex corpus files add little but time.
    for (name, bytes) in samples(env!("CARGO_MANIFEST_DIR"), "semodel") {
        if bytes.len() <= 4096 {
            assert_view_summaries::<SeModel>(&name, &bytes, &[0x01, 0x80, 0xff]);
        }
    }
}

#[test]
fn positioned_reads_summarise_every_deployed_sample_prefix_and_flipped_byte_as_the_view_does() {
    for (name, bytes) in samples(env!("CARGO_MANIFEST_DIR"), "semodel") {
        let slice = bytes.as_slice();
        let positioned = SeModel::summary_at(&mut Positioned::new(&slice));
        // A draft is read whole: its vertex records are walked by the reader.
        match sniff(&bytes).unwrap() {
            Layout::Deployed => assert_eq!(positioned, SeModel::summary_of(&bytes).ok(), "{name}"),
            Layout::Draft => assert_eq!(positioned, None, "{name}"),
        }
        if bytes.len() <= 4096 && sniff(&bytes).unwrap() == Layout::Deployed {
            assert_positioned_summaries::<SeModel>(&name, &bytes, &[0x01, 0x80, 0xff]);
        }
    }
}
