//! Whatever reads and meets the writer's rules must write canonical bytes that read back and
//! rewrite to the same bytes; its JSON form must read back and write the same JSON; the scene
//! trip must convert back to something the writer accepts.
#![no_main]

use animbin_core::ConversionReport;
use animbin_dmf::{Dmf, json, read, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(dmf) = read(data) else { return };
    let Ok(bytes) = to_bytes(&dmf) else {
        // Refused: the model breaks a writer rule, which validate must report.
        assert!(
            !animbin_dmf::validate(&dmf).is_empty(),
            "the writer refused a valid model"
        );
        return;
    };
    let again = read(&bytes).expect("the canonical bytes must read");
    // Compared as bytes: floats may be NaN, which `==` never matches.
    assert_eq!(to_bytes(&again).expect("and write again"), bytes);

    if let Ok(text) = json::to_vec(&dmf) {
        let from_json = read(&text).expect("the JSON form must read back");
        assert_eq!(json::to_vec(&from_json).expect("and write again"), text);
        to_bytes(&from_json).expect("what JSON holds the writer accepts");
    }

    let mut report = ConversionReport::default();
    let options = animbin_dmf::SceneOptions::default();
    let scene = dmf.to_scene(&options, &mut report).expect("DMF -> scene cannot fail");
    if let Ok(back) = Dmf::from_scene(&scene, &options, &mut report) {
        to_bytes(&back).expect("a model made from a scene must write");
    }
});
