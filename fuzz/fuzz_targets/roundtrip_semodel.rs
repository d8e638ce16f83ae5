//! Whatever reads must write back to exactly the same bytes (SEModel keeps flags, counts,
//! reserved bytes and trailers for that); a view of it must agree; and a model converted
//! through the scene, in either layout, must write and read back.
#![no_main]

use animbin_core::{ConversionReport, SceneOptions};
use animbin_semodel::{Layout, SeModel, View, read, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(model) = read(data) else { return };
    let bytes = to_bytes(&model).expect("every model that reads writes");
    assert!(bytes == data, "a file that reads is rewritten byte for byte");
    if let Ok(view) = View::parse(data) {
        // Compared as bytes: floats may be NaN, which `==` never matches.
        let from_view = to_bytes(&SeModel::Deployed(view.to_model())).expect("the view's model writes");
        assert!(from_view == data, "the view and the reader disagree");
    }
    let mut report = ConversionReport::default();
    let Ok(scene) = model.to_scene(&SceneOptions::default(), &mut report) else {
        return;
    };
    for layout in [Layout::Deployed, Layout::Draft] {
        let Ok(back) = SeModel::from_scene_in(&scene, layout, &SceneOptions::default(), &mut report) else {
            continue;
        };
        let bytes = to_bytes(&back).expect("a model made from a scene writes");
        let again = read(&bytes).expect("and reads back");
        assert!(to_bytes(&again).expect("and writes again") == bytes);
    }
});
