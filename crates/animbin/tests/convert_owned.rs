//! `convert_owned` moves a document's arrays into the scene and writes a glb from that scene
//! rather than copying: every file it writes, and every loss it reports, must be `convert`'s.

use std::path::Path;

use animbin::{ConvertOptions, Document, SceneOptions, convert, convert_owned, writable_targets};

#[test]
fn an_owned_conversion_writes_what_a_borrowed_one_does() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files: Vec<_> = std::fs::read_dir(&testdata)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file() && Document::open(path).is_ok())
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut conversions = 0;
    for path in &files {
        let options = ConvertOptions::for_input(path);
        let document = Document::open(path).unwrap();
        for target in writable_targets(&document, &SceneOptions::default()) {
            let what = format!("{} -> {target:?}", path.display());
            let borrowed = convert(&document, target, &options);
            let owned = convert_owned(Document::open(path).unwrap(), target, &options);
            match (borrowed, owned) {
                (Ok(borrowed), Ok(owned)) => {
                    assert_eq!(owned.to_bytes().unwrap(), borrowed.to_bytes().unwrap(), "{what}");
                    assert_eq!(owned.lost_lines(), borrowed.lost_lines(), "{what}");
                    conversions += 1;
                }
                (borrowed, owned) => assert_eq!(
                    owned.err().map(|e| e.to_string()),
                    borrowed.err().map(|e| e.to_string()),
                    "{what}"
                ),
            }
        }
    }
    assert!(conversions >= 50, "{conversions} conversions");
}
