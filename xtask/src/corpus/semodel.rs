//! SEModel samples, written by `animbin-semodel`'s own writer: `sample.semodel` (a skinned
//! quad with a skeleton, UVs, normals, colours and materials), the draft layout, an SEBlend
//! trailer, a skeleton alone, and fuzz-only seeds at the u8 / u16 index width boundaries
//! (u32 widths take files larger than the fuzzers' inputs; the crate's tests cover them).

use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone, BoneFlags, Influence, Layout, MeshBlend, MeshFlags, Pose, SceneOptions,
    SeModel, Trailer, VertexBlend, to_bytes,
};

use super::Sample;

const TARGETS: &[&str] = &["parse_semodel", "roundtrip_semodel", "model_semodel"];

fn pose(x: f32, y: f32, z: f32) -> Pose {
    Pose {
        position: Vec3::new(x, y, z),
        rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
    }
}

/// A 2 x 1 quad skinned to a two-bone chain, as Greyhound would export it.
fn sample() -> deployed::Model {
    let positions = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 2.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    ];
    let uv = |u, v| Vec2::new(u, v);
    deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX | BoneFlags::SCALES,
        mesh_flags: MeshFlags::UV_SET | MeshFlags::NORMALS | MeshFlags::COLOR | MeshFlags::WEIGHTS,
        bones: Block::Present(vec![
            Bone {
                name: "tag_origin".into(),
                parent: -1,
                global: Some(pose(0.0, 0.0, 0.0)),
                local: Some(pose(0.0, 0.0, 0.0)),
                scale: Some(Vec3::new(1.0, 1.0, 1.0)),
                ..Default::default()
            },
            Bone {
                name: "j_spine".into(),
                parent: 0,
                global: Some(pose(0.0, 1.0, 0.0)),
                local: Some(pose(0.0, 1.0, 0.0)),
                scale: Some(Vec3::new(1.0, 1.0, 1.0)),
                ..Default::default()
            },
        ]),
        meshes: Block::Present(vec![deployed::Mesh {
            max_influence: 2,
            positions,
            // Two layers per vertex: the base map, then a detail map at twice the scale.
            uvs: vec![
                uv(0.0, 1.0),
                uv(0.0, 2.0),
                uv(1.0, 1.0),
                uv(2.0, 2.0),
                uv(1.0, 0.0),
                uv(2.0, 0.0),
                uv(0.0, 0.0),
                uv(0.0, 0.0),
            ],
            normals: vec![Vec3::new(0.0, 0.0, 1.0); 4],
            colors: vec![
                Rgba8::new(255, 255, 255, 255),
                Rgba8::new(255, 255, 255, 255),
                Rgba8::new(255, 200, 200, 255),
                Rgba8::new(255, 200, 200, 255),
            ],
            weights: [
                (0, 1.0),
                (1, 0.0),
                (0, 1.0),
                (1, 0.0),
                (1, 0.75),
                (0, 0.25),
                (1, 0.75),
                (0, 0.25),
            ]
            .map(|(bone, weight)| Influence { bone, weight })
            .to_vec(),
            faces: vec![[0, 1, 2], [0, 2, 3]],
            material_indices: vec![0, 1],
            ..Default::default()
        }]),
        materials: Block::Present(vec![
            Material {
                name: "body".into(),
                maps: Some(MaterialMaps {
                    diffuse: "body_c.png".into(),
                    normal: "body_n.png".into(),
                    specular: "body_s.png".into(),
                }),
            },
            Material {
                name: "detail".into(),
                maps: None,
            },
        ]),
        ..Default::default()
    }
}

fn with_blend(mut model: deployed::Model) -> deployed::Model {
    let moved = VertexBlend {
        deltas: vec![BlendDelta {
            shape: 0,
            delta: Vec3::new(0.0, 0.25, 0.1),
        }],
    };
    model.trailer = Trailer::SeBlend(BlendShapes {
        names: vec!["stretch".into()],
        meshes: vec![MeshBlend {
            vertices: vec![VertexBlend::default(), VertexBlend::default(), moved.clone(), moved],
        }],
    });
    model
}

/// One mesh of `count` vertices in a fan, so its face indices use the width `count` gives.
fn fan(count: u32) -> deployed::Model {
    deployed::Model {
        meshes: Block::Present(vec![deployed::Mesh {
            positions: (0..count).map(|i| Vec3::new(i as f32, (i % 7) as f32, 0.0)).collect(),
            faces: (1..count.saturating_sub(1))
                .step_by(97)
                .map(|i| [0, i, i + 1])
                .collect(),
            ..Default::default()
        }]),
        ..Default::default()
    }
}

/// `count` bones in a chain and one vertex weighted to the last, so `bone_t` has the width
/// `count` gives.
fn chain(count: u32) -> deployed::Model {
    deployed::Model {
        bone_flags: BoneFlags::LOCAL_MATRIX,
        mesh_flags: MeshFlags::WEIGHTS,
        bones: Block::Present(
            (0..count)
                .map(|i| Bone {
                    name: format!("b{i}"),
                    parent: i as i32 - 1,
                    local: Some(pose(0.0, 1.0, 0.0)),
                    ..Default::default()
                })
                .collect(),
        ),
        meshes: Block::Present(vec![deployed::Mesh {
            max_influence: 1,
            positions: vec![Vec3::new(0.0, 0.0, 0.0)],
            weights: vec![Influence {
                bone: count - 1,
                weight: 1.0,
            }],
            ..Default::default()
        }]),
        ..Default::default()
    }
}

fn bytes(model: &SeModel) -> Vec<u8> {
    to_bytes(model).expect("the samples are encodable")
}

pub(crate) fn samples() -> Vec<Sample> {
    let sample = sample();
    let mut report = Default::default();
    let scene = SeModel::Deployed(sample.clone())
        .to_scene(&SceneOptions::default(), &mut report)
        .expect("the sample converts");
    let draft = SeModel::from_scene_in(&scene, Layout::Draft, &SceneOptions::default(), &mut report)
        .expect("and back, as a draft");
    let skeleton = deployed::Model {
        meshes: Block::default(),
        materials: Block::default(),
        mesh_flags: MeshFlags::from_bits_retain(0),
        ..sample.clone()
    };
    let file =
        |name, model: deployed::Model, testdata| Sample::new(name, bytes(&SeModel::Deployed(model)), TARGETS, testdata);
    vec![
        file("sample.semodel", sample.clone(), true),
        Sample::new("sample_draft.semodel", bytes(&draft), TARGETS, true),
        file("sample_blend.semodel", with_blend(sample), true),
        file("skeleton.semodel", skeleton, true),
        file("fan_255.semodel", fan(255), false),
        file("fan_256.semodel", fan(256), false),
        file("chain_256.semodel", chain(256), false),
    ]
}
