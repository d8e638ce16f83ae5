//! SEAnim: reading (owned, and the zero-copy view opening and walking every key) and writing
//! a generated file of 300 bones by 2000 frames with location, rotation and scale keys on
//! every frame, at both precisions, beside a memcpy of the same bytes. Results are dropped
//! outside the timed loop (`iter_with_large_drop`): freeing tens of MB is not reading them.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_core::{Quat, Vec3};
use animbin_seanim::{Bone, Key, PresenceFlags, PropertyFlags, SeAnim, View};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

const BONES: u32 = 300;
const FRAMES: u32 = 2000;

/// 300 bones with a location, rotation and scale key on each of 2000 frames (u16 frame_t).
fn big_anim(high_precision: bool) -> SeAnim {
    let bones = (0..BONES)
        .map(|b| {
            let phase = f64::from(b) * 0.01;
            Bone {
                location: (0..FRAMES)
                    .map(|f| Key::new(f, Vec3::new(f64::from(f) * 0.5, phase, -1.25)))
                    .collect(),
                rotation: (0..FRAMES)
                    .map(|f| {
                        let a = f64::from(f) * 0.001 + phase;
                        Key::new(f, Quat::new(0.0, (a * 0.5).sin(), 0.0, (a * 0.5).cos()))
                    })
                    .collect(),
                scale: (0..FRAMES)
                    .map(|f| Key::new(f, Vec3::new(1.0, 1.0, 1.0 + f64::from(f % 3))))
                    .collect(),
                ..Bone::new(format!("bone_{b:03}"))
            }
        })
        .collect();
    let mut anim = SeAnim {
        framerate: 30.0,
        data_presence_flags: PresenceFlags::LOC | PresenceFlags::ROT | PresenceFlags::SCALE,
        bones,
        ..SeAnim::default()
    };
    if high_precision {
        anim.data_property_flags = PropertyFlags::PRECISION_HIGH;
    } else {
        // Values an f32 holds exactly, so both files hold the same animation.
        for bone in &mut anim.bones {
            for k in &mut bone.rotation {
                k.value = k.value.map(|c| f64::from(c as f32));
            }
        }
    }
    anim
}

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
        let anim = big_anim(high);
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
