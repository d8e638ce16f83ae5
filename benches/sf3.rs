//! Shining Force III x8an: reading (owned, zero-copy and the count-only summary),
//! validating and writing a synthetic file the size of a character's animations, and
//! reading a large file (about 48 MiB, the size the whole-command benchmark uses), each
//! beside a memcpy of the same bytes. Reads and memcpy drop their results outside the timed
//! loop (`iter_with_large_drop`): freeing what was read is not reading it (`read_and_drop`
//! times both).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::time::Duration;

use animbin_benches::memcpy_baseline;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// One group over a file of `segments` segments: memcpy, summary, read and write, and for
/// the small file (criterion's default sampling) the view and validation as well.
fn group(c: &mut Criterion, name: &str, segments: i32) {
    let file = animbin_benches::large::sf3::file(segments);
    let bytes = animbin_sf3::to_bytes(&file).expect("encodable");
    let large = bytes.len() > 1 << 20;
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    if large {
        group.sample_size(10).measurement_time(Duration::from_secs(5));
    }
    group.bench_function("memcpy", |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
    });
    if !large {
        group.bench_function("view", |b| {
            b.iter(|| animbin_sf3::View::parse(black_box(&bytes)).expect("reads"))
        });
    }
    group.bench_function("summary", |b| {
        b.iter(|| animbin_sf3::Summary::parse(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_sf3::read(black_box(&bytes)).expect("reads"))
    });
    // x8an's model is three small vectors per slot: freeing them costs about what reading
    // them does, so this shows the two together.
    group.bench_function("read_and_drop", |b| {
        b.iter(|| animbin_sf3::read(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("write", |b| {
        b.iter(|| animbin_sf3::to_bytes(black_box(&file)).expect("writes"))
    });
    if !large {
        group.bench_function("validate", |b| b.iter(|| animbin_sf3::validate(black_box(&file))));
    }
    group.finish();
}

fn sf3(c: &mut Criterion) {
    group(c, "sf3", 50);
}

/// About 48 MiB: 6,200 segments of 22 slots, as `cargo xtask bench-command` generates.
fn sf3_large(c: &mut Criterion) {
    group(c, "sf3-large", 6200);
}

criterion_group!(benches, sf3, sf3_large);
criterion_main!(benches);
