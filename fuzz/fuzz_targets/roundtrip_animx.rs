//! Whatever reads writes back and reads again to the same thing: AnimX -> model -> AnimX
//! (plain and LZ4), AnimJ, and the scene.
#![no_main]

use animbin_animx::{Animation, ConversionReport, Encoding, ReadOptions, SceneOptions, animj};
use libfuzzer_sys::fuzz_target;

const OPTIONS: ReadOptions = ReadOptions {
    max_decompressed_size: 1 << 22,
};

fuzz_target!(|data: &[u8]| {
    let Ok(anim) = animbin_animx::read_with(data, &OPTIONS) else {
        return;
    };
    // Compare bytes, not models: NaN values never equal themselves.
    for encoding in [Encoding::Plain, Encoding::Lz4] {
        let anim = animbin_animx::Animation {
            encoding,
            ..anim.clone()
        };
        let bytes = animbin_animx::to_bytes(&anim).expect("what reads writes");
        let again = animbin_animx::read_with(&bytes, &OPTIONS).expect("what we write reads");
        assert_eq!(animbin_animx::to_bytes(&again).expect("writes again"), bytes);
    }
    // AnimJ keeps everything but NaN payloads: after one trip it is stable.
    let once = animj::from_str(&animj::to_string(&anim).expect("AnimJ text")).expect("our AnimJ reads");
    let twice = animj::from_str(&animj::to_string(&once).expect("AnimJ text")).expect("our AnimJ reads");
    let plain = |a: &animbin_animx::Animation| {
        animbin_animx::to_bytes(&animbin_animx::Animation {
            encoding: Encoding::Plain,
            ..a.clone()
        })
    };
    assert_eq!(plain(&once).expect("writes"), plain(&twice).expect("writes"));
    // The scene gives back every track (bone tracks first).
    let mut report = ConversionReport::default();
    if let Ok(scene) = anim.to_scene(&SceneOptions::default(), &mut report) {
        let back =
            Animation::from_scene(&scene, &SceneOptions::default(), &mut report).expect("our scene converts back");
        assert_eq!(back.tracks.len(), anim.tracks.len());
    }
});
