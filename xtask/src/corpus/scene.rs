//! Seeds of the `scene_builders` fuzz target, which builds a scene from arbitrary bytes
//! (`arbitrary::Unstructured`) and converts it to every target: bytes of a few lengths and
//! patterns, so that the replay in CI starts from empty, small and fuller scenes.

use super::Sample;

/// The fuzz target of the scene builders behind `convert_scene` (Python's `from_scene`).
pub(crate) const TARGET: &str = "scene_builders";

/// `len` bytes of a xorshift stream from `seed`: the same every run.
fn stream(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

pub(crate) fn samples() -> Vec<Sample> {
    let seed = |name, bytes| Sample::seed_only(name, bytes, &[TARGET]);
    vec![
        seed("scene-zeros.bin", vec![0; 64]),
        seed("scene-ones.bin", vec![0xff; 256]),
        seed("scene-counting.bin", (0..=255u8).cycle().take(1024).collect()),
        seed("scene-stream-1.bin", stream(0x9e37_79b9_7f4a_7c15, 256)),
        seed("scene-stream-2.bin", stream(0xdead_beef_cafe_f00d, 1024)),
        seed("scene-stream-3.bin", stream(0x0123_4567_89ab_cdef, 4096)),
    ]
}
