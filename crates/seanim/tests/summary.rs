//! The summary from the zero-copy view is the summary of the owned model: on every sample
//! in `testdata/` and in the shared corpus, and on every prefix and every flipped byte of
//! the small ones, `summary_of` accepts exactly what `read` does and gives the same summary.

use animbin_seanim::{FileFormat, SeAnim, View, read};
use animbin_testing::{assert_view_summaries, samples};

#[test]
fn the_view_summarises_every_sample_as_the_model_does() {
    for (name, bytes) in samples(env!("CARGO_MANIFEST_DIR"), "seanim") {
        let anim = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(View::parse(&bytes).unwrap().summary(), anim.summary(), "{name}");
        assert_eq!(SeAnim::summary_of(&bytes).unwrap(), anim.summary(), "{name}");
    }
}

#[test]
fn every_prefix_and_flipped_byte_summarises_both_ways_or_neither() {
    // The 300-bone corpus files add little but time.
    for (name, bytes) in samples(env!("CARGO_MANIFEST_DIR"), "seanim") {
        if bytes.len() <= 4096 {
            assert_view_summaries::<SeAnim>(&name, &bytes, &[0x01, 0x80, 0xff]);
        }
    }
}
