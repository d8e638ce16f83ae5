//! Whatever reads must write back to exactly the same bytes (SEAnim keeps reserved bytes,
//! extra header bytes, stray counts, a non-derived frameCount and trailing bytes for that),
//! except a file that only the old frame rule reads, which is rewritten with the current
//! rule and reads back under it; the view and the layout reader accept the same files and
//! give models that write the same bytes; and the file converted through the scene must
//! write and read back.
#![no_main]

use animbin_core::{ConversionReport, SceneOptions};
use animbin_seanim::{FrameWidthRule, SeAnim, View, read, read_with_layout, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // `read` is the view's model; the layout reader must accept exactly what the view does.
    assert!(
        View::parse(data).is_ok() == read_with_layout(data).is_ok(),
        "the view and the layout reader disagree on whether the file reads"
    );
    let Ok(anim) = read(data) else { return };
    assert!(
        to_bytes(&read_with_layout(data).expect("the layout reader reads it")).expect("writes")
            == to_bytes(&anim).expect("writes"),
        "the layout reader's model differs"
    );
    let bytes = to_bytes(&anim).expect("every file that reads writes");
    let again = read(&bytes).expect("the rewrite reads");
    if anim.frame_width_rule == FrameWidthRule::Legacy {
        // Rewritten with the current rule on purpose: the same data, read by that rule.
        assert!(again.frame_width_rule == FrameWidthRule::Current);
        let as_read = SeAnim {
            frame_width_rule: FrameWidthRule::Legacy,
            ..again.clone()
        };
        assert!(to_bytes(&as_read).expect("writes") == bytes);
        assert!(bytes != data, "the old rule is not kept");
    } else {
        assert!(bytes == data, "a file that reads is rewritten byte for byte");
    }
    // Compared as bytes: floats may be NaN, which `==` never matches.
    assert!(to_bytes(&again).expect("and writes again") == bytes);
    let view = View::parse(data).expect("the view opens what the reader reads");
    assert!(
        to_bytes(&view.to_anim()).expect("the view's model writes") == bytes,
        "the view and the reader disagree"
    );

    let mut report = ConversionReport::default();
    let scene = anim
        .to_scene(&SceneOptions::default(), &mut report)
        .expect("every file that reads converts");
    // A NaN framerate or a frame past u32 has no SEAnim form; everything else converts back.
    let Ok(back) = SeAnim::from_scene(&scene, &SceneOptions::default(), &mut report) else {
        return;
    };
    let bytes = to_bytes(&back).expect("a file made from a scene writes");
    let again = read(&bytes).expect("and reads back");
    assert!(to_bytes(&again).expect("and writes again") == bytes);
});
