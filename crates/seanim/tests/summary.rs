//! The summary from the zero-copy view is the summary of the owned model: on every sample
//! in `testdata/` and in the shared corpus, and on every prefix and every flipped byte of
//! the small ones, `summary_of` accepts exactly what `read` does and gives the same summary.

use animbin_core::format::{Positioned, ReadAt};
use animbin_seanim::{FileFormat, SeAnim, View, read};
use animbin_testing::{assert_positioned_summaries, assert_view_summaries, samples};

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

#[test]
fn positioned_reads_summarise_every_sample_prefix_and_flipped_byte_as_the_view_does() {
    for (name, bytes) in samples(env!("CARGO_MANIFEST_DIR"), "seanim") {
        let slice = bytes.as_slice();
        let mut file = Positioned::new(&slice);
        assert_eq!(SeAnim::summary_at(&mut file), SeAnim::summary_of(&bytes).ok(), "{name}");
        if bytes.len() <= 4096 {
            assert_positioned_summaries::<SeAnim>(&name, &bytes, &[0x01, 0x80, 0xff]);
        }
    }
}

/// A [`ReadAt`] over bytes in memory that counts the bytes read from it.
struct Counting<'a> {
    bytes: &'a [u8],
    read: std::cell::Cell<u64>,
}

impl ReadAt for Counting<'_> {
    fn size(&self) -> u64 {
        self.bytes.size()
    }

    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        self.read.set(self.read.get() + buf.len() as u64);
        self.bytes.read_exact_at(buf, offset)
    }
}

#[test]
fn positioned_reads_skip_the_keys_so_four_times_the_frames_read_no_more() {
    // 40 bones of 4,000 and 16,000 keyed frames (about 14 and 58 MB): each run's count is
    // 4 bytes at a known place, and the keys between them are never read.
    let read = |frames| {
        let bytes = animbin_testing::seanim::big_seanim(40, frames);
        let file = Counting {
            bytes: &bytes,
            read: 0.into(),
        };
        let summary = SeAnim::summary_at(&mut Positioned::new(&file));
        assert_eq!(summary, SeAnim::summary_of(&bytes).ok());
        (file.read.get(), bytes.len() as u64)
    };
    let (small, small_size) = read(4_000);
    let (large, large_size) = read(16_000);
    assert!(large_size > 3 * small_size);
    // The header and names, then a small read at each of the 120 counts.
    assert!(large <= small + (4 << 10), "{small} then {large} bytes read");
    assert!(large < 1 << 20, "{large} of {large_size} bytes read");
}
