//! `info` reads SEAnim, SEModel and x8an through their views, `validate` and `convert` through
//! their readers: for every prefix and flipped byte of the samples, both give the same
//! summary, or the same error in the same words at the same byte.

mod common;

use animbin::Format;
use animbin_testing::assert_summaries_agree;

use common::summaries;

#[test]
fn info_and_a_read_agree_on_every_prefix_and_flipped_byte() {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    for (file, format) in [
        ("sample.seanim", Format::SeAnim),
        ("sample_every_block.seanim", Format::SeAnim),
        ("sample.semodel", Format::SeModel),
        ("skeleton.semodel", Format::SeModel),
        ("x8an00.bin", Format::Sf3),
    ] {
        let bytes = std::fs::read(testdata.join(file)).unwrap();
        assert_summaries_agree(file, &bytes, &[0x55, 0x80], |bytes| summaries(bytes, format));
    }
}
