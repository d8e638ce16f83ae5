//! The summary of an AnimX file through its zero-copy view (plain files where they lie,
//! compressed ones once decompressed): the document's own, for every testdata file and every
//! prefix and corruption of them.

mod common;

use animbin::{Format, Info};
use animbin_testing::animx::binary_samples;
use animbin_testing::assert_summaries_agree;

use common::summaries;

#[test]
fn the_view_summary_is_the_documents_for_every_file_prefix_and_flipped_byte() {
    for (name, bytes) in binary_samples(env!("CARGO_MANIFEST_DIR")) {
        // Every byte, flipped two ways: ids, flags, counts, padded varints and compressed data
        // are refused by both or by neither.
        assert_summaries_agree(&name, &bytes, &[0x55, 0x80], |bytes| summaries(bytes, Format::AnimX));
        let (Some(Info::AnimX(info)), _) = summaries(&bytes, Format::AnimX) else {
            panic!("an AnimX summary")
        };
        let anim = animbin::animx::read(&bytes).unwrap();
        assert_eq!(info.track_count, anim.tracks.len());
        assert_eq!(info.keyframe_count, anim.keyframe_count() as u64);
    }
}
