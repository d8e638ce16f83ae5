//! Any bytes through the `animbin` library's one door: detecting and reading (as a named
//! x8an file too, since those have no magic), the summary (through a view and from the
//! document, which must agree), validation, the scene, every target of the document's own
//! format and a glTF conversion (of the document borrowed and owned, which must agree) must
//! not panic, hang or allocate beyond the input; a document that writes itself always
//! dumps, and the dump converts back to the same bytes (checked for inputs up to
//! [`DUMP_CHECK_LIMIT`]).
#![no_main]

use std::path::Path;

use animbin::{ConvertOptions, Document, SceneOptions, Target};
use animbin_core::ConversionReport;
use libfuzzer_sys::fuzz_target;

/// The largest input whose dump is written and read back. A dump is many times the size of
/// its file (every byte of an unknown trailer or a PNG is a JSON number of its own): writing
/// and reading it back took two thirds of this target's time at the 64 KiB inputs libFuzzer
/// grows, for no structure that a smaller file does not reach.
const DUMP_CHECK_LIMIT: usize = 8 << 10;

fuzz_target!(|data: &[u8]| {
    for name in [None, Some(Path::new("x8an00.bin"))] {
        // The summary read through a view is the document's, and exists exactly when it does.
        let quick = Document::info_of(data, name, None).ok();
        let Ok(doc) = Document::parse(data, name) else {
            assert_eq!(quick, None, "a view summarised a file the reader refuses");
            continue;
        };
        assert_eq!(
            quick,
            Some(doc.info()),
            "the view's summary differs from the document's"
        );
        let _ = doc.validate();
        let _ = doc.to_scene(&SceneOptions::default(), &mut ConversionReport::default());
        for &target in doc.format().targets() {
            let _ = doc.to_bytes(target);
        }
        let borrowed = animbin::convert(&doc, Target::Glb, &ConvertOptions::default()).map(|c| c.to_bytes());
        // A document converted owned moves its arrays into the scene: the same file, or the
        // same error.
        let owned = animbin::convert_owned(doc.clone(), Target::Glb, &ConvertOptions::default()).map(|c| c.to_bytes());
        match (borrowed, owned) {
            (Ok(Ok(borrowed)), Ok(Ok(owned))) => assert!(borrowed == owned, "an owned conversion wrote another glb"),
            (borrowed, owned) => assert_eq!(
                borrowed
                    .map(|r| r.map_err(|e| e.to_string()))
                    .map_err(|e| e.to_string()),
                owned.map(|r| r.map_err(|e| e.to_string())).map_err(|e| e.to_string()),
            ),
        }
        if data.len() > DUMP_CHECK_LIMIT {
            continue;
        }
        let mut dump = Vec::new();
        let dumped = doc.dump(&mut dump);
        let own = doc.own_target();
        if let Ok(bytes) = doc.to_bytes(own) {
            // Every float and every byte has a JSON form: a document that writes itself
            // always dumps.
            assert!(dumped.is_ok(), "a readable file's dump was refused: {dumped:?}");
            let back = Document::undump(&dump).expect("a dump that was written reads back");
            assert!(
                back.to_bytes(own).ok() == Some(bytes),
                "a dump converts back to other bytes"
            );
        }
    }
});
