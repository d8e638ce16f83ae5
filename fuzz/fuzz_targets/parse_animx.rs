//! Any bytes: reading an AnimX file (stored form, decoding, the zero-copy view, validate,
//! the scene conversion) and reading them as AnimJ must return, never panic, hang or
//! allocate past the input and the decompression limit.
#![no_main]

use animbin_animx::{AnimXDocument, AnimXFile, ConversionReport, ReadOptions, SceneOptions, View};
use libfuzzer_sys::fuzz_target;

/// A limit that keeps each run small; the default (256 MiB) is tested in the crate.
const OPTIONS: ReadOptions = ReadOptions {
    max_decompressed_size: 1 << 22,
};

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = AnimXFile::read(data) {
        // The stored form writes back byte for byte.
        assert_eq!(file.to_bytes().expect("a header that read writes"), data);
        let decoded = file.decode(&OPTIONS);
        if let Ok(tracks) = file.tracks_bytes(&OPTIONS) {
            // The view accepts exactly the files that decode (so summaries from it are the
            // reader's).
            let view = View::from_tracks(file.header.clone(), &tracks);
            assert_eq!(view.is_ok(), decoded.is_ok(), "the view and the reader disagree");
            if decoded.is_ok() {
                let view = view.expect("a file that decodes has a view");
                for track in &view.tracks {
                    let _ = track.raw_values();
                    assert!(track.decode(&view.header).is_ok());
                }
            }
        }
        if let Ok(anim) = decoded {
            let _ = animbin_animx::validate(&anim);
            let _ = anim.to_scene(&SceneOptions::default(), &mut ConversionReport::default());
        }
    }
    if let Err(e) = animbin_animx::read_with(data, &OPTIONS) {
        let _ = e.to_string();
    }
    let _ = View::parse(data);
    let _ = animbin_animx::animj::from_slice(data);
    let _ = animbin_animx::animj::is_animj(data);
    if let Ok(doc) = AnimXDocument::read_with(data, &OPTIONS) {
        let _ = doc.to_dump();
    }
});
