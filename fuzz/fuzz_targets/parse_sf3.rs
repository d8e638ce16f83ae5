//! Any bytes: reading an x8an file (and the zero-copy view, validate and the scene
//! conversion of whatever reads) must return, never panic, hang or over-allocate.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (file, _view) = animbin_fuzz::read_and_view(data, animbin_sf3::read, animbin_sf3::View::parse);
    if let Err(e) = &file {
        assert!(e.offset <= data.len() as u64, "error offset past the input: {e}");
    }
    if let Ok(file) = file {
        animbin_fuzz::validate_and_convert(&file);
    }
    // The slot table parser on an arbitrary base slice, as for x8pc chunks.
    if data.len() >= 4 {
        let table = u32::from_be_bytes([data[0], data[1], data[2], data[3]]) as usize;
        let _ = animbin_sf3::parse_slot_table(data, table, 4..table.min(data.len()));
    }
});
