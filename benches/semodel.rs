//! SEModel: reading into the owned model, opening the zero-copy view (alone, and with a walk
//! over every element it lends), and writing, for a generated skinned model of a million
//! vertices, beside a memcpy of the same bytes.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::{Block, Bone, BoneFlags, Influence, MeshFlags, Pose, SeModel, View};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Over 65535 vertices, so the faces take u32 indices; 64 bones, so weights take u8 ones.
const VERTICES: u32 = 1_000_000;
const BONES: u32 = 64;
const INFLUENCES: u8 = 4;

/// About 80 MB: per vertex 12 (position) + 8 (one UV layer) + 12 (normal) + 4 (colour)
/// + 4 x 5 (weights) bytes, and two u32 triangles per vertex pair.
fn model() -> SeModel {
    let v = VERTICES as usize;
    let bones = (0..BONES)
        .map(|b| Bone {
            name: format!("j_bone_{b}"),
            parent: b as i32 - 1,
            global: Some(Pose {
                position: Vec3::new(0.0, b as f32, 0.0),
                rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
            }),
            local: Some(Pose {
                position: Vec3::new(0.0, 1.0, 0.0),
                rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
            }),
            ..Default::default()
        })
        .collect();
    let mesh = deployed::Mesh {
        max_influence: INFLUENCES,
        positions: (0..VERTICES)
            .map(|i| Vec3::new(i as f32, (i % 1000) as f32, -(i as f32)))
            .collect(),
        uvs: (0..VERTICES)
            .map(|i| Vec2::new((i % 1024) as f32 / 1024.0, 0.5))
            .collect(),
        normals: vec![Vec3::new(0.0, 0.0, 1.0); v],
        colors: vec![Rgba8::new(255, 255, 255, 255); v],
        weights: (0..VERTICES)
            .flat_map(|i| {
                (0..u32::from(INFLUENCES)).map(move |k| Influence {
                    bone: (i + k) % BONES,
                    weight: 0.25,
                })
            })
            .collect(),
        faces: (0..VERTICES - 2).map(|i| [i, i + 1, i + 2]).collect(),
        material_indices: vec![0],
        ..Default::default()
    };
    SeModel::Deployed(deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX,
        mesh_flags: MeshFlags::UV_SET | MeshFlags::NORMALS | MeshFlags::COLOR | MeshFlags::WEIGHTS,
        bones: Block::Present(bones),
        meshes: Block::Present(vec![mesh]),
        materials: Block::Present(vec![Material {
            name: "body".into(),
            maps: Some(MaterialMaps {
                diffuse: "body_c.png".into(),
                ..Default::default()
            }),
        }]),
        ..Default::default()
    })
}

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
    let model = model();
    let bytes = animbin_semodel::to_bytes(&model).expect("encodable");
    let mut group = c.benchmark_group("semodel");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| b.iter(|| memcpy_baseline(black_box(&bytes))));
    group.bench_function("read", |b| {
        b.iter(|| animbin_semodel::read(black_box(&bytes)).expect("reads"))
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
