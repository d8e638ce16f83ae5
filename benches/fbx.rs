//! FBX: writing a skinned model of 200,000 vertices and an animation of 100 bones by 1000
//! frames (every rotation key turned into Euler keys, with keys added where Euler
//! interpolation leaves the slerp) from the scene, and reading the files back into the
//! scene through ufbx, each beside a memcpy of the same FBX bytes. Results are dropped
//! outside the timed loop (`iter_with_large_drop`).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::large;
use animbin_benches::memcpy_baseline;
use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

fn group(c: &mut Criterion, name: &str, scene: &Scene) {
    let bytes = animbin_fbx::to_bytes(scene, &mut ConversionReport::default()).expect("the scene writes");
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
    });
    group.bench_function("write", |b| {
        b.iter_with_large_drop(|| animbin_fbx::to_bytes(black_box(scene), &mut ConversionReport::default()))
    });
    group.bench_function("parse_records", |b| {
        b.iter_with_large_drop(|| animbin_fbx::node::parse(black_box(&bytes)))
    });
    group.bench_function("read_scene", |b| {
        b.iter_with_large_drop(|| {
            animbin_fbx::to_scene(
                black_box(&bytes),
                &SceneOptions::default(),
                &mut ConversionReport::default(),
            )
        })
    });
    group.finish();
}

fn fbx(c: &mut Criterion) {
    let options = SceneOptions::default();
    let model = large::semodel::model(200_000)
        .to_scene(&options, &mut ConversionReport::default())
        .expect("the model converts");
    let animation = large::seanim::anim(100, 1000, false)
        .to_scene(&options, &mut ConversionReport::default())
        .expect("the animation converts");
    group(c, "fbx_model", &model);
    group(c, "fbx_animation", &animation);
}

criterion_group!(benches, fbx);
criterion_main!(benches);
