//! The summary from the zero-copy view is the summary of the owned model: on every sample
//! in `testdata/` and in the shared corpus, and on every prefix and every flipped byte of
//! the small ones, `summary_of` accepts exactly what `read` does and gives the same summary.

use std::path::{Path, PathBuf};

use animbin_semodel::{FileFormat, Layout, SeModel, Summary, View, read, sniff};
use animbin_testing::{corpus_files, shared_corpus};

/// The `.semodel` samples of the workspace's `testdata/` and of the shared corpus.
fn samples() -> Vec<PathBuf> {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files = corpus_files(&testdata, "semodel");
    assert!(!files.is_empty(), "no .semodel files in {}", testdata.display());
    if let Some(corpus) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") {
        files.extend(corpus_files(&corpus, "semodel"));
    }
    files
}

/// The samples small enough to cut and flip at every byte (the 300-bone and 300-vertex corpus files add
/// little but time).
fn small_samples() -> Vec<(PathBuf, Vec<u8>)> {
    samples()
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .filter(|(_, bytes)| bytes.len() <= 4096)
        .collect()
}

/// The summary through the view and through the model: both present and equal, or both absent.
fn both(bytes: &[u8]) -> (Option<Summary>, Option<Summary>) {
    let quick = SeModel::summary_of(bytes).ok();
    let full = read(bytes).ok().map(|model| model.summary());
    (quick, full)
}

#[test]
fn the_view_summarises_every_sample_as_the_model_does() {
    let mut layouts = Vec::new();
    for path in samples() {
        let bytes = std::fs::read(&path).unwrap();
        let model = read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            SeModel::summary_of(&bytes).unwrap(),
            model.summary(),
            "{}",
            path.display()
        );
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
fn every_prefix_summarises_both_ways_or_neither() {
    for (path, bytes) in small_samples() {
        for len in 0..bytes.len() {
            let (quick, full) = both(&bytes[..len]);
            assert_eq!(quick, full, "{} cut to {len} bytes", path.display());
        }
    }
}

#[test]
fn every_flipped_byte_summarises_both_ways_or_neither() {
    for (path, bytes) in small_samples() {
        for at in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut changed = bytes.clone();
                changed[at] ^= flip;
                let (quick, full) = both(&changed);
                assert_eq!(quick, full, "{} with byte {at} ^ {flip:#04x}", path.display());
            }
        }
    }
}
