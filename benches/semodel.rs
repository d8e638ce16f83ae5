//! SEModel: reading into the owned model, opening the zero-copy view (alone, and with a walk
//! over every element it lends), and writing, for a generated skinned model of a million
//! vertices, beside a memcpy of the same bytes. Reads and memcpy drop their results outside
//! the timed loop (`iter_with_large_drop`): freeing what was read is not reading it.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_semodel::View;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Over 65535 vertices, so the faces take u32 indices; 64 bones, so weights take u8 ones.
const VERTICES: u32 = 1_000_000;

/// Touches every element the view lends, as a renderer uploading the model would.
fn walk(view: &View<'_>) -> f64 {
    let mut sum = 0.0f64;
    for bone in view.bones() {
        sum += f64::from(bone.head.parent.get()) + bone.local.map_or(0.0, |p| f64::from(p.position.y.get()));
    }
    for mesh in view.meshes() {
        for p in mesh.positions() {
            sum += f64::from(p.x.get() + p.y.get() + p.z.get());
        }
        for uv in mesh.uvs() {
            sum += f64::from(uv.x.get() + uv.y.get());
        }
        for n in mesh.normals() {
            sum += f64::from(n.z.get());
        }
        for c in mesh.colors() {
            sum += f64::from(c.r);
        }
        for w in mesh.weights().iter() {
            sum += f64::from(w.bone) + f64::from(w.weight);
        }
        for f in mesh.faces().iter() {
            sum += f64::from(f[0] ^ f[2]);
        }
    }
    sum
}

fn semodel(c: &mut Criterion) {
    let model = animbin_benches::large::semodel::model(VERTICES);
    let bytes = animbin_semodel::to_bytes(&model).expect("encodable");
    let mut group = c.benchmark_group("semodel");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
    });
    group.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_semodel::read(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("view_open", |b| {
        b.iter(|| View::parse(black_box(&bytes)).expect("opens"))
    });
    group.bench_function("view_open_walk", |b| {
        b.iter(|| walk(&View::parse(black_box(&bytes)).expect("opens")))
    });
    group.bench_function("write", |b| {
        b.iter(|| animbin_semodel::to_bytes(black_box(&model)).expect("writes"))
    });
    group.finish();
}

criterion_group!(benches, semodel);
criterion_main!(benches);
