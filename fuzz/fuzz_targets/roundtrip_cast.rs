//! Whatever reads must write back to exactly the same bytes (Cast keeps node and property
//! order, unknown ids, index widths, float bits and the header's flags for that); the view's
//! model must write the same bytes; the SE mapping must not panic on it; and the file
//! converted through the scene must write and read back.
#![no_main]

use animbin_cast::{CastFile, ConversionReport, SceneOptions, View, read, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = read(data) else { return };
    let bytes = to_bytes(&file).expect("every file that reads writes");
    assert!(bytes == data, "a file that reads is rewritten byte for byte");
    let view = View::parse(data).expect("the view opens what the reader reads");
    assert!(
        to_bytes(&view.to_file().expect("the view's model")).expect("the view's model writes") == data,
        "the view and the reader disagree"
    );

    // A file the SE mapping reads is its own (it checks): the SE file it gives writes, or
    // is refused as unencodable.
    if let Some(anim) = animbin::se_cast::cast_to_seanim(&file) {
        let _ = animbin_fuzz::written_or_refused(animbin_seanim::to_bytes(&anim));
    }
    if let Some(model) = animbin::se_cast::cast_to_semodel(&file) {
        let _ = animbin_fuzz::written_or_refused(animbin_semodel::to_bytes(&model));
    }

    let mut report = ConversionReport::default();
    // Parents in a cycle and indices past their arrays have no scene form.
    let Ok(scene) = file.to_scene(&SceneOptions::default(), &mut report) else {
        return;
    };
    // Key values past f32 and frames past u32 have no Cast form; everything else converts back.
    let Ok(back) = CastFile::from_scene(&scene, &SceneOptions::default(), &mut report) else {
        return;
    };
    let bytes = to_bytes(&back).expect("a file made from a scene writes");
    let again = read(&bytes).expect("and reads back");
    assert!(to_bytes(&again).expect("and writes again") == bytes);
});
