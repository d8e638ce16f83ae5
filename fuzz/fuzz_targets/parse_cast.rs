//! Any bytes: reading, validating, converting to the scene and walking a view must not
//! panic, hang or allocate beyond the input; the reader and the view accept the same files
//! and refuse the others at the same offset, and summarise the files they read alike.
#![no_main]

use animbin_cast::{ConversionReport, FileFormat, SceneOptions, Values, View, read, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let owned = read(data);
    let view = View::parse(data);
    assert_eq!(
        owned.is_ok(),
        view.is_ok(),
        "the reader and the view disagree on whether the file reads"
    );
    if let (Err(a), Err(b)) = (&owned, &view) {
        assert_eq!(a.offset, b.offset);
        assert!(a.offset <= data.len() as u64);
    }
    if let (Ok(file), Ok(view)) = (&owned, &view) {
        assert_eq!(
            file.summary(),
            view.summary(),
            "the model and the view summarise differently"
        );
    }
    if let Ok(file) = owned {
        let _ = validate(&file);
        let _ = file.to_scene(&SceneOptions::default(), &mut ConversionReport::default());
    }
    if let Ok(view) = view {
        // Every payload lies inside the file; walking every element stays bounded by it.
        let mut elements = 0usize;
        for node in view.nodes() {
            for p in node.properties() {
                assert!(p.payload_offset() + p.payload().len() as u64 <= data.len() as u64);
                elements += match p.values() {
                    Values::String(s) => s.count(),
                    _ => p.len(),
                };
            }
            elements += node.children().count();
        }
        assert!(elements <= data.len());
    }
});
