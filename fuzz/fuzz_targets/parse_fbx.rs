//! Any bytes as FBX: the strict reader of the binary records, the summary, validation and
//! ufbx's read into the scene must not panic, hang or allocate beyond the input's limits;
//! records that read are written back as records that read alike, and a file whose records
//! read is one ufbx reads or refuses, never a crash.
#![no_main]

use animbin_core::ConversionReport;
use animbin_fbx::node::{parse, write_nodes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(document) = parse(data) {
        let _ = animbin_fbx::Summary::of(&document);
        let _ = animbin_fbx::validate(&document);
        let bytes = write_nodes(&document).expect("records that read write");
        let again = parse(&bytes).expect("and read back");
        // Compared as bytes: a NaN in an array is not equal to itself.
        assert!(write_nodes(&again).expect("and write again") == bytes);
    }
    let _ = animbin_fbx::to_scene(data, &Default::default(), &mut ConversionReport::default());
});
