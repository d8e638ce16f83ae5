//! Cast: reading into the owned model, opening the zero-copy view (alone, and with a walk
//! over every element it lends), and writing, for a generated skinned model of a million
//! vertices and an animation of 300 bones by 2000 frames, each beside a memcpy of the same
//! bytes. Results are dropped outside the timed loop (`iter_with_large_drop`): freeing tens
//! of MB is not reading them.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use animbin_benches::memcpy_baseline;
use animbin_cast::{CastFile, IndexSlice, Node, NodeKind, Property, Value, Values, View};
use animbin_core::math::{Vec2, Vec3, Vec4};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Over 65535 vertices, so the faces take u32 indices; 64 bones, so weights take u8 ones.
const VERTICES: u32 = 1_000_000;
const BONES: u32 = 64;
const INFLUENCES: u32 = 4;
/// The animation: 300 bones, a key on each of 2000 frames in 7 curves (rq, tx/ty/tz, sx/sy/sz).
const ANIM_BONES: u32 = 300;
const FRAMES: u32 = 2000;

/// About 80 MB: per vertex 12 (position) + 12 (normal) + 8 (one UV layer) + 4 (packed colour)
/// + 4 x 5 (weights) bytes, and a u32 triangle per vertex.
fn model() -> CastFile {
    let v = VERTICES as usize;
    let bones = (0..BONES)
        .map(|b| {
            Node::with(
                NodeKind::Bone,
                100 + u64::from(b),
                vec![
                    Property::string("n", format!("j_bone_{b}")),
                    Property::new("p", Value::Integer(vec![b.wrapping_sub(1)])),
                    Property::new("lp", Value::Vec3(vec![Vec3::new(0.0, 1.0, 0.0)])),
                    Property::new("lr", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])),
                ],
                vec![],
            )
        })
        .collect();
    let mesh = Node::with(
        NodeKind::Mesh,
        3,
        vec![
            Property::string("n", "body"),
            Property::new(
                "vp",
                Value::Vec3(
                    (0..VERTICES)
                        .map(|i| Vec3::new(i as f32, (i % 1000) as f32, -(i as f32)))
                        .collect(),
                ),
            ),
            Property::new("vn", Value::Vec3(vec![Vec3::new(0.0, 0.0, 1.0); v])),
            Property::new(
                "u0",
                Value::Vec2(
                    (0..VERTICES)
                        .map(|i| Vec2::new((i % 1024) as f32 / 1024.0, 0.5))
                        .collect(),
                ),
            ),
            Property::new("ul", Value::Byte(vec![1])),
            Property::new("c0", Value::Integer(vec![u32::MAX; v])),
            Property::new("cl", Value::Byte(vec![1])),
            Property::new(
                "wb",
                Value::Byte((0..VERTICES * INFLUENCES).map(|i| (i % BONES) as u8).collect()),
            ),
            Property::new("wv", Value::Float(vec![0.25; v * INFLUENCES as usize])),
            Property::new("mi", Value::Byte(vec![INFLUENCES as u8])),
            Property::new(
                "f",
                Value::Integer((0..VERTICES - 2).flat_map(|i| [i, i + 1, i + 2]).collect()),
            ),
        ],
        vec![],
    );
    let skeleton = Node::with(NodeKind::Skeleton, 2, vec![], bones);
    let model = Node::with(NodeKind::Model, 1, vec![], vec![skeleton, mesh]);
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 0, vec![], vec![model])],
    }
}

/// About 32 MB: 2100 curves of 2000 keys (u16 frames), f32 values, `4v` rotations.
fn animation() -> CastFile {
    let frames = Value::Short((0..FRAMES).map(|f| f as u16).collect());
    let mut curves = Vec::new();
    for b in 0..ANIM_BONES {
        let name = format!("bone_{b:03}");
        let phase = b as f32 * 0.01;
        let curve = |kp: &'static str, kv: Value| {
            Node::with(
                NodeKind::Curve,
                0,
                vec![
                    Property::string("nn", name.clone()),
                    Property::string("kp", kp),
                    Property::new("kb", frames.clone()),
                    Property::new("kv", kv),
                    Property::string("m", "absolute"),
                ],
                vec![],
            )
        };
        let rotations = (0..FRAMES)
            .map(|f| {
                let a = f as f32 * 0.001 + phase;
                Vec4::new(0.0, (a * 0.5).sin(), 0.0, (a * 0.5).cos())
            })
            .collect();
        curves.push(curve("rq", Value::Vec4(rotations)));
        for kp in ["tx", "ty", "tz", "sx", "sy", "sz"] {
            curves.push(curve(
                kp,
                Value::Float((0..FRAMES).map(|f| f as f32 * 0.5 + phase).collect()),
            ));
        }
    }
    let anim = Node::with(
        NodeKind::Animation,
        1,
        vec![Property::new("fr", Value::Float(vec![30.0]))],
        curves,
    );
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 0, vec![], vec![anim])],
    }
}

fn index_sum(indices: Option<IndexSlice<'_>>) -> f64 {
    match indices {
        Some(IndexSlice::U8(v)) => v.iter().map(|&x| f64::from(x)).sum(),
        Some(IndexSlice::U16(v)) => v.iter().map(|x| f64::from(x.get())).sum(),
        Some(IndexSlice::U32(v)) => v.iter().map(|x| f64::from(x.get())).sum(),
        None => 0.0,
    }
}

/// Touches every element the view lends, as a renderer uploading the model or a player
/// sampling every curve would.
fn walk(view: &View<'_>) -> f64 {
    let mut sum = 0.0f64;
    for node in view.nodes() {
        if let Some(mesh) = node.as_mesh() {
            for p in mesh.positions().unwrap_or_default() {
                sum += f64::from(p.x.get() + p.y.get() + p.z.get());
            }
            for n in mesh.normals().unwrap_or_default() {
                sum += f64::from(n.z.get());
            }
            for uv in mesh.uv_layer(0).unwrap_or_default() {
                sum += f64::from(uv.x.get() + uv.y.get());
            }
            if let Some(Values::Integer(colors)) = mesh.color_layer(0) {
                sum += colors.iter().map(|c| f64::from(c.get() & 0xFF)).sum::<f64>();
            }
            sum += index_sum(mesh.weight_bones());
            sum += mesh
                .weight_values()
                .unwrap_or_default()
                .iter()
                .map(|w| f64::from(w.get()))
                .sum::<f64>();
            sum += index_sum(mesh.faces());
        }
        if let Some(curve) = node.as_curve() {
            sum += index_sum(curve.key_frames());
            match curve.key_values() {
                Some(Values::Float(v)) => sum += v.iter().map(|x| f64::from(x.get())).sum::<f64>(),
                Some(Values::Vec4(v)) => sum += v.iter().map(|q| f64::from(q.y.get() + q.w.get())).sum::<f64>(),
                _ => {}
            }
        }
    }
    sum
}

fn group(c: &mut Criterion, name: &str, file: &CastFile) {
    let bytes = animbin_cast::to_bytes(file).expect("encodable");
    let mut group = c.benchmark_group(name);
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("memcpy", |b| {
        b.iter_with_large_drop(|| memcpy_baseline(black_box(&bytes)))
    });
    group.bench_function("read", |b| {
        b.iter_with_large_drop(|| animbin_cast::read(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("view_open", |b| {
        b.iter(|| View::parse(black_box(&bytes)).expect("opens"))
    });
    group.bench_function("view_open_walk", |b| {
        b.iter(|| walk(&View::parse(black_box(&bytes)).expect("opens")))
    });
    group.bench_function("write", |b| {
        b.iter_with_large_drop(|| animbin_cast::to_bytes(black_box(file)).expect("writes"))
    });
    group.finish();
}

fn cast(c: &mut Criterion) {
    group(c, "cast_model", &model());
    group(c, "cast_animation", &animation());
}

criterion_group!(benches, cast);
criterion_main!(benches);
