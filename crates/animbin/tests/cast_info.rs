//! The summary of a Cast file through its zero-copy view: the document's own, for every
//! corpus file, the SE files' Cast forms, and every prefix and corruption of them.

mod common;

use animbin::{Document, Format, Info};
use animbin_testing::{corpus_files, shared_corpus};

use common::summaries;

fn cast_files() -> Vec<Vec<u8>> {
    let mut files: Vec<Vec<u8>> = shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast")
        .map_or_else(Vec::new, |dir| corpus_files(&dir, "cast"))
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    files.push(std::fs::read(testdata.join("sample.cast")).unwrap());
    for se in ["sample.seanim", "sample.semodel", "sample_draft.semodel"] {
        let document = Document::open(testdata.join(se)).unwrap();
        let cast = animbin::convert(&document, animbin::Target::Cast, &Default::default()).unwrap();
        files.push(cast.to_bytes().unwrap());
    }
    files
}

#[test]
fn the_view_summary_is_the_documents_for_every_file_prefix_and_flipped_byte() {
    let files = cast_files();
    assert!(files.len() >= 12);
    for bytes in &files {
        let (quick, full) = summaries(bytes, Format::Cast);
        assert!(quick.is_some(), "a whole file summarises");
        assert_eq!(quick, full);
        let Some(Info::Cast(info)) = quick else {
            panic!("a Cast summary")
        };
        let file = animbin::cast::read(bytes).unwrap();
        assert_eq!(info.node_count, file.node_count());
        assert_eq!(info.curve_count, file.count(animbin::cast::NodeKind::Curve));
        for len in 0..bytes.len() {
            let (quick, full) = summaries(&bytes[..len], Format::Cast);
            assert_eq!(quick, full, "cut to {len} bytes");
        }
        // Header fields and ids: a flipped node id moves a node between counts, a flipped
        // size or count breaks the file for both.
        for at in (0..bytes.len()).step_by(7) {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x55;
            let (quick, full) = summaries(&flipped, Format::Cast);
            assert_eq!(quick, full, "byte {at} flipped");
        }
    }
}
