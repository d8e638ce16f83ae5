//! Any bytes as a `.gltf` or `.glb`: reading into a scene, validating, and what the command
//! line does with a glTF it reads (splitting off the JSON and the BIN chunk, moving the
//! buffer to either container) must not panic, hang or allocate beyond the input.
#![no_main]

use animbin_core::ConversionReport;
use animbin_gltf::{Container, SceneOptions, repack, split, to_scene, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let read = to_scene(data, &SceneOptions::default(), &mut ConversionReport::default());
    let problems = validate(data);
    // validate reads the file first and reports a read error as its one problem.
    if read.is_err() {
        assert_eq!(
            problems.len(),
            1,
            "a file that does not read is one problem: {problems:?}"
        );
    }
    if split(data).is_ok() {
        let _ = repack(data, Container::Gltf);
        let _ = repack(data, Container::Glb);
    }
});
