//! Any bytes: reading, validating, converting to the scene and walking a view must not
//! panic, hang or allocate beyond the input; the reader and the view accept the same files
//! and summarise them alike.
#![no_main]

use animbin_seanim::{FileFormat, SeAnim, View, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (owned, view) = animbin_fuzz::read_and_view(data, read, View::parse);
    if let (Err(a), Err(b)) = (&owned, &view) {
        assert!(a.offset <= data.len() as u64 && b.offset <= data.len() as u64);
    }
    assert_eq!(
        SeAnim::summary_of(data).ok(),
        owned.as_ref().ok().map(SeAnim::summary),
        "the view's summary and the reader's disagree"
    );
    if let Ok(anim) = owned {
        animbin_fuzz::validate_and_convert(&anim);
    }
    if let Ok(view) = view {
        let mut keys = 0usize;
        for bone in view.bones() {
            keys += bone.location.iter().count() + bone.rotation.iter().count() + bone.scale.iter().count();
        }
        let notes = view.notes().count();
        let modifiers = view.modifiers().iter().count();
        assert!(keys + notes + modifiers <= data.len());
    }
});
