//! Deep hierarchies: a chain of 10,000 and of 100,000 bones (each the child of the one
//! before) as a glTF another tool wrote (read, which builds its scene, and summarised), an
//! SEModel and a Cast (read, then mapped to the scene), and each converted to glb.
//! Throughput is in bones: time linear in the bones reads as the same elements per second
//! at both sizes (about ten times the time for ten times the bones).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::fmt::Write as _;

use animbin::{ConvertOptions, Document, Format, Target};
use animbin_cast::{CastFile, Node, NodeKind, Property, Value};
use animbin_core::SceneOptions;
use animbin_core::math::{Quat, Vec3, Vec4};
use animbin_core::scene::ConversionReport;
use animbin_semodel::deployed;
use animbin_semodel::{Block, Bone, BoneFlags, Pose, SeModel};
use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};

/// The chain lengths measured.
const BONES: [usize; 2] = [10_000, 100_000];

/// A glTF (JSON) as a modelling tool writes a skeleton: one node per bone, each the only
/// child of the one before and one unit above it, and a skin whose joints are the bones.
fn gltf_chain(bones: usize) -> Vec<u8> {
    let mut json = String::from(
        r#"{"asset":{"version":"2.0","generator":"animbin hierarchy bench"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":["#,
    );
    for b in 0..bones {
        if b > 0 {
            json.push(',');
        }
        write!(json, r#"{{"name":"bone_{b}","translation":[0,1,0]"#).expect("a String takes any text");
        if b + 1 < bones {
            write!(json, r#","children":[{}]"#, b + 1).expect("a String takes any text");
        }
        json.push('}');
    }
    json.push_str(r#"],"skins":[{"joints":["#);
    for b in 0..bones {
        if b > 0 {
            json.push(',');
        }
        write!(json, "{b}").expect("a String takes any text");
    }
    json.push_str("]}]}");
    json.into_bytes()
}

/// An SEModel of a chain with both bind poses, as SE tools export a skeleton.
fn semodel_chain(bones: usize) -> Vec<u8> {
    let identity = Quat::new(0.0, 0.0, 0.0, 1.0);
    let bones = (0..bones)
        .map(|b| Bone {
            name: format!("bone_{b}"),
            parent: b as i32 - 1,
            global: Some(Pose {
                position: Vec3::new(0.0, b as f32, 0.0),
                rotation: identity,
            }),
            local: Some(Pose {
                position: Vec3::new(0.0, 1.0, 0.0),
                rotation: identity,
            }),
            ..Default::default()
        })
        .collect();
    let model = SeModel::Deployed(deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX,
        bones: Block::Present(bones),
        ..Default::default()
    });
    animbin_semodel::to_bytes(&model).expect("a chain encodes")
}

/// A Cast file of a chain (Root > Model > Skeleton > bones), with local and world poses.
fn cast_chain(bones: usize) -> Vec<u8> {
    let identity = Vec4::new(0.0, 0.0, 0.0, 1.0);
    let bones = (0..bones)
        .map(|b| {
            Node::with(
                NodeKind::Bone,
                100 + b as u64,
                vec![
                    Property::string("n", format!("bone_{b}")),
                    Property::new("p", Value::Integer(vec![(b as u32).wrapping_sub(1)])),
                    Property::new("lp", Value::Vec3(vec![Vec3::new(0.0, 1.0, 0.0)])),
                    Property::new("lr", Value::Vec4(vec![identity])),
                    Property::new("wp", Value::Vec3(vec![Vec3::new(0.0, b as f32, 0.0)])),
                    Property::new("wr", Value::Vec4(vec![identity])),
                ],
                vec![],
            )
        })
        .collect();
    let skeleton = Node::with(NodeKind::Skeleton, 2, vec![], bones);
    let model = Node::with(NodeKind::Model, 1, vec![], vec![skeleton]);
    let file = CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 0, vec![], vec![model])],
    };
    animbin_cast::to_bytes(&file).expect("a chain encodes")
}

/// Reads a file and converts it to glb bytes, as `animbin convert IN out.glb` does.
fn to_glb(bytes: &[u8], format: Format) -> Vec<u8> {
    let document = Document::parse_as(bytes, None, Some(format)).expect("reads");
    animbin::convert(&document, Target::Glb, &ConvertOptions::default())
        .expect("converts")
        .to_bytes()
        .expect("writes")
}

/// One chain length in each format.
struct Chain {
    bones: usize,
    gltf: Vec<u8>,
    semodel: Vec<u8>,
    cast: Vec<u8>,
}

fn hierarchy(c: &mut Criterion) {
    let chains: Vec<Chain> = BONES
        .iter()
        .map(|&bones| Chain {
            bones,
            gltf: gltf_chain(bones),
            semodel: semodel_chain(bones),
            cast: cast_chain(bones),
        })
        .collect();
    let options = SceneOptions::default();

    let mut group = c.benchmark_group("hierarchy_gltf_read_info");
    group.sample_size(10);
    for chain in &chains {
        group.throughput(Throughput::Elements(chain.bones as u64));
        group.bench_with_input(BenchmarkId::from_parameter(chain.bones), &chain.gltf, |b, bytes| {
            b.iter(|| Document::info_of(black_box(bytes), None, None).expect("reads"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("hierarchy_semodel_read_to_scene");
    group.sample_size(10);
    for chain in &chains {
        group.throughput(Throughput::Elements(chain.bones as u64));
        group.bench_with_input(BenchmarkId::from_parameter(chain.bones), &chain.semodel, |b, bytes| {
            b.iter_with_large_drop(|| {
                let model = animbin_semodel::read(black_box(bytes)).expect("reads");
                model
                    .to_scene(&options, &mut ConversionReport::default())
                    .expect("maps")
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("hierarchy_cast_read_to_scene");
    group.sample_size(10);
    for chain in &chains {
        group.throughput(Throughput::Elements(chain.bones as u64));
        group.bench_with_input(BenchmarkId::from_parameter(chain.bones), &chain.cast, |b, bytes| {
            b.iter_with_large_drop(|| {
                let file = animbin_cast::read(black_box(bytes)).expect("reads");
                file.to_scene(&options, &mut ConversionReport::default()).expect("maps")
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("hierarchy_convert_to_glb");
    group.sample_size(10);
    for chain in &chains {
        group.throughput(Throughput::Elements(chain.bones as u64));
        for (name, bytes, format) in [
            ("gltf", &chain.gltf, Format::Gltf),
            ("semodel", &chain.semodel, Format::SeModel),
            ("cast", &chain.cast, Format::Cast),
        ] {
            group.bench_with_input(BenchmarkId::new(name, chain.bones), bytes, |b, bytes| {
                b.iter_with_large_drop(|| to_glb(black_box(bytes), format))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, hierarchy);
criterion_main!(benches);
