//! The summary of an AnimX file through its zero-copy view (plain files where they lie,
//! compressed ones once decompressed): the document's own, for every testdata file and every
//! prefix and corruption of them.

use animbin::{Document, Format, Info};

fn animx_files() -> Vec<(String, Vec<u8>)> {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files: Vec<(String, Vec<u8>)> = [
        "sample.animx",
        "sample-lz4.animx",
        "sample-lzma.animx",
        "sample-v0.animx",
    ]
    .iter()
    .map(|name| (name.to_string(), std::fs::read(testdata.join(name)).unwrap()))
    .collect();
    // A curve with one interpolation byte per keyframe, which the view checks key by key.
    let mut anim = animbin::animx::read(&files[0].1).unwrap();
    for track in &mut anim.tracks {
        if let animbin::animx::TrackData::Curve(c) = &mut track.data {
            let n = c.keyframes.len();
            c.interpolation = animbin::animx::Interpolations::PerKeyframe(
                (0..n).map(|i| animbin::animx::Interpolation::ALL[i % 4]).collect(),
            );
        }
    }
    files.push(("per-keyframe".into(), animbin::animx::to_bytes(&anim).unwrap()));
    files
}

/// The view's summary and the document's: both present and equal, or both absent.
fn summaries(bytes: &[u8]) -> (Option<Info>, Option<Info>) {
    let quick = Document::info_of(bytes, None, Some(Format::AnimX)).ok();
    let full = Document::parse_as(bytes, None, Some(Format::AnimX))
        .ok()
        .map(|d| d.info());
    (quick, full)
}

#[test]
fn the_view_summary_is_the_documents_for_every_file_prefix_and_flipped_byte() {
    for (name, bytes) in animx_files() {
        let (quick, full) = summaries(&bytes);
        assert!(quick.is_some(), "{name}: a whole file summarises");
        assert_eq!(quick, full, "{name}");
        let Some(Info::AnimX(info)) = quick else {
            panic!("an AnimX summary")
        };
        let anim = animbin::animx::read(&bytes).unwrap();
        assert_eq!(info.track_count, anim.tracks.len());
        assert_eq!(info.keyframe_count, anim.keyframe_count() as u64);
        for len in 0..bytes.len() {
            let (quick, full) = summaries(&bytes[..len]);
            assert_eq!(quick, full, "{name} cut to {len} bytes");
        }
        // Every byte, flipped two ways: ids, flags, counts, padded varints and compressed data
        // are refused by both or by neither.
        for at in 0..bytes.len() {
            for flip in [0x55, 0x80] {
                let mut flipped = bytes.clone();
                flipped[at] ^= flip;
                let (quick, full) = summaries(&flipped);
                assert_eq!(quick, full, "{name}: byte {at} ^ {flip:#04x}");
            }
        }
    }
}
