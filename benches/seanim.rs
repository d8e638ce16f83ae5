//! SEAnim: reading (owned, and the zero-copy view opening and walking every key) and writing
//! a generated file of 300 bones by 2000 frames with location, rotation and scale keys on
//! every frame, at both precisions, beside a memcpy of the same bytes. Results are dropped
//! outside the timed loop (`iter_with_large_drop`): freeing tens of MB is not reading them.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_seanim::View;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

const BONES: u32 = 300;
const FRAMES: u32 = 2000;

/// Decodes every key of every bone through the view and folds every component into a number.
fn walk(view: &View<'_>) -> f64 {
    let mut sum = 0.0;
    for bone in view.bones() {
        sum += bone
            .location
            .iter()
            .map(|k| f64::from(k.frame) + k.value.x + k.value.y + k.value.z)
            .sum::<f64>();
        sum += bone
            .rotation
            .iter()
            .map(|k| f64::from(k.frame) + k.value.x + k.value.y + k.value.z + k.value.w)
            .sum::<f64>();
        sum += bone
            .scale
            .iter()
            .map(|k| f64::from(k.frame) + k.value.x + k.value.y + k.value.z)
            .sum::<f64>();
    }
    sum
}

fn seanim(c: &mut Criterion) {
    for (name, high) in [("seanim_single", false), ("seanim_double", true)] {
        let anim = animbin_benches::large::seanim::anim(BONES, FRAMES, high);
        let bytes = animbin_seanim::to_bytes(&anim).expect("encodable");
        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("memcpy", |b| {
            b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
        });
        group.bench_function("view_open", |b| {
            b.iter(|| View::parse(black_box(&bytes)).expect("reads"))
        });
        group.bench_function("view_walk", |b| {
            b.iter(|| walk(&View::parse(black_box(&bytes)).expect("reads")))
        });
        group.bench_function("read", |b| {
            b.iter_with_large_drop(|| animbin_seanim::read(black_box(&bytes)).expect("reads"))
        });
        group.bench_function("write", |b| {
            b.iter_with_large_drop(|| animbin_seanim::to_bytes(black_box(&anim)).expect("writes"))
        });
        group.finish();
    }
}

criterion_group!(benches, seanim);
criterion_main!(benches);
