//! Any bytes: reading, validating, converting to the scene and walking a view must not
//! panic, hang or allocate beyond the input; the reader and the view accept the same files
//! and refuse the others at the same offset, and summarise the files they read alike.
#![no_main]

use animbin_cast::{FileFormat, Values, View, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (owned, view) = animbin_fuzz::read_and_view(data, read, View::parse);
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
        animbin_fuzz::validate_and_convert(&file);
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
