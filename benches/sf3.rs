//! Shining Force III x8an: reading (owned and zero-copy), validating and writing a
//! synthetic file the size of a character's animations, beside a memcpy of the same bytes.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_core::{Fixed16, Quat, Rot14, Vec3};
use animbin_sf3::{Key, Segment, Sf3File, Slot};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// 50 segments of 22 slots (the seed's x8an00.bin has 50 segments of 20..23 slots), each
/// slot with 12 translation and rotation keys and one scale key.
fn character_file() -> Sf3File {
    let slot = |seed: i32| Slot {
        translation: (0..12)
            .map(|k| {
                Key::new(
                    k * 5,
                    Vec3::new(Fixed16(seed * 997 + i32::from(k)), Fixed16(-seed), Fixed16(0x4_0000)),
                )
            })
            .collect(),
        rotation: (0..12)
            .map(|k| {
                Key::new(
                    k * 5,
                    Quat::new(Rot14(k as i16 * 64), Rot14(0), Rot14(0), Rot14(0x3ff0)),
                )
            })
            .collect(),
        scale: vec![Key::new(0, Vec3::new(Fixed16::ONE, Fixed16::ONE, Fixed16::ONE))],
    };
    Sf3File {
        segments: (0..50)
            .map(|s| Segment {
                padding_words: u32::from(s % 2 == 1),
                slots: (0..22).map(|b| slot(s * 22 + b)).collect(),
            })
            .collect(),
        ..Sf3File::default()
    }
}

fn sf3(c: &mut Criterion) {
    let file = character_file();
    let bytes = animbin_sf3::to_bytes(&file).expect("encodable");
    let mut group = c.benchmark_group("sf3");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| b.iter(|| memcpy_baseline(black_box(&bytes))));
    group.bench_function("view", |b| {
        b.iter(|| animbin_sf3::View::parse(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("read", |b| {
        b.iter(|| animbin_sf3::read(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("write", |b| {
        b.iter(|| animbin_sf3::to_bytes(black_box(&file)).expect("writes"))
    });
    group.bench_function("validate", |b| b.iter(|| animbin_sf3::validate(black_box(&file))));
    group.finish();
}

criterion_group!(benches, sf3);
criterion_main!(benches);
