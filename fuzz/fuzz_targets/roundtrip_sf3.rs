//! Whatever reads must write, read back as the same model, and rewrite to the same bytes;
//! the scene trip must give the same model back (less padding and end marker).
#![no_main]

use animbin_core::ConversionReport;
use animbin_sf3::{Ending, SceneOptions, Sf3File, read, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = read(data) else { return };
    let bytes = to_bytes(&file).expect("a file that reads must write");
    let again = read(&bytes).expect("the canonical bytes must read");
    assert_eq!(again, file);
    assert_eq!(to_bytes(&again).expect("and write again"), bytes);

    let scene = file
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .expect("a file that reads converts");
    let mut report = ConversionReport::default();
    let back = Sf3File::from_scene(&scene, &SceneOptions::default(), &mut report).expect("the scene must convert back");
    assert!(report.is_lossless(), "{:?}", report.lost);
    let mut expected = file;
    expected.padding_words = 0;
    expected.ending = Ending::Eof;
    expected.segments.iter_mut().for_each(|s| s.padding_words = 0);
    assert_eq!(back, expected);
});
