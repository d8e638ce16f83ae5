//! Any bytes: reading a DMF file (binary or its JSON form), the zero-copy view and a full walk
//! of it, validate and the scene conversion must return, never panic, hang or over-allocate.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let read = animbin_dmf::read(data);
    if let Err(e) = &read {
        assert!(e.offset <= data.len() as u64, "error offset past the input: {e}");
    }
    let view = animbin_dmf::View::parse(data);
    if animbin_dmf::has_magic(data) {
        // One check decides for both readers.
        animbin_fuzz::assert_reader_and_view_agree(&read, &view);
    }
    if let Ok(view) = view {
        for i in 0..view.textures().len() {
            assert!(view.png(i).is_some(), "a checked image range must slice");
        }
        let mut tracks = 0u64;
        for i in 0..view.animations().len() {
            tracks += view.tracks(i).expect("a checked track range must slice").len() as u64;
        }
        assert_eq!(tracks, view.track_count());
        let _ = view.vertices().iter().map(|v| v.pos.x.get()).sum::<f32>();
        let _ = view.faces().iter().map(|f| u64::from(f.indices[0].get())).sum::<u64>();
    }
    if let Ok(dmf) = read {
        animbin_fuzz::validate_and_convert(&dmf);
    }
});
