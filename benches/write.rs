//! Writing large outputs: a glb from the scene of a large SEModel and of a large SEAnim, and a
//! Cast file of each, each beside a memcpy of as many bytes as the output holds. `to_bytes`
//! encodes into a new vector (dropped outside the timed loop: `iter_with_large_drop`);
//! `write` encodes into a `Write` that is a vector kept from one run to the next (cleared,
//! its pages already mapped), as writing to a file copies each byte once into the page
//! cache: what a streamed writer costs beyond that copy. `write_from_kept_scene` is `write`
//! as `animbin convert` does it: the glb keeps the scene (a copy made outside the timed
//! loop) and writes its arrays, and its long channels' values, from it.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin::gltf::Container;
use animbin::{ConvertOptions, Document, Target};
use animbin_benches::{large, memcpy_baseline};
use animbin_cast::CastFile;
use animbin_core::SceneOptions;
use animbin_core::images::ImageFiles;
use animbin_core::scene::{ConversionReport, Scene};
use criterion::{BatchSize, Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Vertices of the SEModel (about 40 MiB as an SEModel).
const VERTICES: u32 = 500_000;
/// The SEAnim: 300 bones with a location, rotation and scale key on each of these frames
/// (about 48 MiB in single precision).
const FRAMES: u32 = 7_000;

/// The scene of a file's bytes, as a conversion builds it.
fn scene_of(bytes: &[u8]) -> Scene {
    let document = Document::parse(bytes, None).expect("reads");
    document
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .expect("maps to the scene")
}

fn glb_group(c: &mut Criterion, name: &str, scene: &Scene) {
    let options = ConvertOptions::default();
    let encode = || animbin::convert_scene(scene, Target::Glb, &options).expect("converts");
    let bytes = encode().to_bytes().expect("encodes");
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
    });
    group.bench_function("to_bytes", |b| {
        b.iter_with_large_drop(|| encode().to_bytes().expect("encodes"))
    });
    let mut out = Vec::with_capacity(bytes.len());
    group.bench_function("write", |b| {
        b.iter(|| {
            out.clear();
            encode().write(&mut out).expect("writes");
        })
    });
    group.bench_function("write_from_kept_scene", |b| {
        b.iter_batched(
            || scene.clone(),
            |scene| {
                out.clear();
                let report = &mut ConversionReport::default();
                let encoded = animbin::gltf::encode_owned(
                    scene,
                    Container::Glb,
                    &SceneOptions::default(),
                    &ImageFiles::default(),
                    report,
                );
                encoded.expect("encodes").write(&mut out).expect("writes");
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn cast_group(c: &mut Criterion, name: &str, file: &CastFile) {
    let bytes = animbin_cast::to_bytes(file).expect("encodes");
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
    });
    group.bench_function("to_bytes", |b| {
        b.iter_with_large_drop(|| animbin_cast::to_bytes(black_box(file)).expect("encodes"))
    });
    let mut out = Vec::with_capacity(bytes.len());
    group.bench_function("write", |b| {
        b.iter(|| {
            out.clear();
            animbin_cast::write(black_box(file), &mut out).expect("writes");
        })
    });
    group.finish();
}

fn write(c: &mut Criterion) {
    let model = large::semodel::model(VERTICES);
    let anim = large::seanim::anim(300, FRAMES, false);
    glb_group(
        c,
        "write_glb_semodel",
        &scene_of(&animbin_semodel::to_bytes(&model).expect("writes")),
    );
    glb_group(
        c,
        "write_glb_seanim",
        &scene_of(&animbin_seanim::to_bytes(&anim).expect("writes")),
    );
    cast_group(c, "write_cast_semodel", &animbin::se_cast::semodel_to_cast(&model));
    cast_group(c, "write_cast_seanim", &animbin::se_cast::seanim_to_cast(&anim));
}

criterion_group!(benches, write);
criterion_main!(benches);
