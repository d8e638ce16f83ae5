//! Dash Model Format: opening the zero-copy view, walking every record of it, reading into the
//! owned model and writing it back, for a generated model of a million vertices and a long
//! animation, beside a memcpy of the same bytes. Reads and memcpy drop their results outside
//! the timed loop (`iter_with_large_drop`): freeing what was read is not reading it.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_dmf::View;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

const VERTICES: u32 = 1_000_000;
const FACES: u32 = 500_000;
/// Two minutes at 60 fps: 64 bones x 7200 keys = 460,800 tracks (22 MB).
const KEYS: u32 = 7_200;

/// Touches every record the view hands out, as a renderer uploading the model would.
fn walk(view: &View<'_>) -> f64 {
    let mut sum = 0.0f64;
    for v in view.vertices() {
        sum += f64::from(v.pos.x.get() + v.skin_weight[0].get());
    }
    for f in view.faces() {
        sum += f64::from(f.indices[2].get()) + f64::from(f.uvs[1].x.get());
    }
    for b in view.bones() {
        sum += f64::from(b.matrix[15].get());
    }
    for (_, tracks) in view.animations_with_tracks() {
        for t in tracks {
            sum += f64::from(t.time.get()) + t.position().map_or(0.0, |p| f64::from(p.x));
        }
    }
    for (_, png) in view.textures_with_png() {
        sum += png.len() as f64;
    }
    sum
}

fn dmf(c: &mut Criterion) {
    let model = animbin_benches::large::dmf::model(VERTICES, FACES, KEYS);
    let bytes = animbin_dmf::to_bytes(&model).expect("encodable");
    let mut group = c.benchmark_group("dmf");
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
        b.iter_with_large_drop(|| animbin_dmf::read(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("write", |b| {
        b.iter(|| animbin_dmf::to_bytes(black_box(&model)).expect("writes"))
    });
    group.finish();
}

criterion_group!(benches, dmf);
criterion_main!(benches);
