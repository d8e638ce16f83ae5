//! Shining Force III x8an: reading (owned and zero-copy), validating and writing a
//! synthetic file the size of a character's animations, beside a memcpy of the same bytes.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

fn sf3(c: &mut Criterion) {
    let file = animbin_benches::large::sf3::file(50);
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
