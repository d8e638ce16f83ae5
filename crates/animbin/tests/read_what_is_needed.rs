//! `info` of a large file reads only the byte ranges its summary needs, and a dump is parsed
//! as it is read: either way the result, and the error of a file that does not read, are
//! those of the whole file read into memory.

use animbin::{Document, Format};
use animbin_testing::seanim::big_seanim;

/// `info` of the file holding `bytes` (named `name`) and of `bytes` in memory agree: the
/// same summary, or errors in the same words.
fn assert_info_agrees(dir: &std::path::Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let from_file = Document::info_of_file(&path, None).map_err(|e| e.to_string());
    let in_memory = Document::info_of(bytes, Some(&path), None).map_err(|e| e.to_string());
    assert_eq!(from_file, in_memory, "{name}");
}

#[test]
fn info_of_a_large_file_is_that_of_its_bytes_whole_truncated_or_broken() {
    let dir = tempfile::tempdir().unwrap();
    // 10 bones of 3,000 keyed frames in f64: about 2.6 MB, past the 1 MiB read by parts.
    let bytes = big_seanim(10, 3_000);
    assert!(bytes.len() > 2 << 20);
    assert_info_agrees(dir.path(), "whole.seanim", &bytes);
    let info = Document::info_of_file(dir.path().join("whole.seanim"), None).unwrap();
    assert!(matches!(info, animbin::Info::SeAnim(_)), "{info:?}");
    // Cut inside the last bone's keys, and in the middle of the bone data.
    for cut in [bytes.len() - 10, bytes.len() / 2] {
        assert_info_agrees(dir.path(), "cut.seanim", &bytes[..cut]);
    }
    // The first bone's location count (after the 36-byte header and the names), made to
    // run past the end of the file.
    let names: usize = (0..10).map(|b| format!("bone_{b:03}").len() + 1).sum();
    let mut broken = bytes.clone();
    let count_at = 36 + names + 1;
    broken[count_at..count_at + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    assert_info_agrees(dir.path(), "broken.seanim", &broken);
    // Forced to another format, and not an SEAnim at all.
    let path = dir.path().join("whole.seanim");
    assert_eq!(
        Document::info_of_file(&path, Some(Format::Cast)).map_err(|e| e.to_string()),
        Document::info_of(&bytes, Some(&path), Some(Format::Cast)).map_err(|e| e.to_string())
    );
    let mut other = bytes;
    other[..6].copy_from_slice(b"SEAnum");
    assert_info_agrees(dir.path(), "other.seanim", &other);
}

#[test]
fn a_dump_read_as_it_is_read_is_the_dump_read_whole_and_fails_in_the_same_words() {
    let dir = tempfile::tempdir().unwrap();
    let doc = Document::parse(&big_seanim(4, 500), None).unwrap();
    let mut dump = Vec::new();
    doc.dump(&mut dump).unwrap();
    let path = dir.path().join("anim.json");
    std::fs::write(&path, &dump).unwrap();
    let streamed = Document::open(&path).unwrap();
    assert_eq!(
        streamed.to_bytes(animbin::Target::SeAnim).unwrap(),
        doc.to_bytes(animbin::Target::SeAnim).unwrap()
    );
    // A key edited into a string, and the dump cut short: the same JSON path and line.
    let text = String::from_utf8(dump).unwrap();
    let at = text.find("\"location\"").unwrap();
    let edited = format!(
        "{}\"location\": \"x\", \"was\"{}",
        &text[..at],
        &text[at + "\"location\"".len()..]
    );
    for (name, bad) in [
        ("edited.json", edited.as_bytes()),
        ("cut.json", &text.as_bytes()[..text.len() / 2]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bad).unwrap();
        let streamed = Document::open(&path).map(|_| ()).map_err(|e| e.to_string());
        let whole = Document::parse(bad, Some(&path)).map(|_| ()).map_err(|e| e.to_string());
        assert!(streamed.is_err(), "{name}");
        assert_eq!(streamed, whole, "{name}");
    }
}
