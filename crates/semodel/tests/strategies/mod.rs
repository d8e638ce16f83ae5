//! Strategies for any SEModel the writers accept, both layouts, shared by this crate's round
//! trip tests and the library's SE <-> Cast ones (which include this file by path).

// Each including test file uses its own part of these.
#![allow(dead_code)]

use animbin_core::IndexWidth;
use animbin_core::half::f16;
use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::draft::{self, Vertices, material_index_width};
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone, BoneFlags, DataFlags, Influence, MeshBlend, MeshFlags, Pose, Trailer,
    VertexBlend,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// Floats: finite values for model comparisons, any bits for byte comparisons.
#[derive(Debug, Clone, Copy)]
pub enum Floats {
    Finite,
    AnyBits,
}

pub fn float(f: Floats) -> BoxedStrategy<f32> {
    match f {
        Floats::Finite => (-1.0e6f32..1.0e6).boxed(),
        Floats::AnyBits => any::<u32>().prop_map(f32::from_bits).boxed(),
    }
}

pub fn half(f: Floats) -> BoxedStrategy<f16> {
    match f {
        Floats::Finite => (-1000.0f32..1000.0).prop_map(f16::from_f32).boxed(),
        Floats::AnyBits => any::<u16>().prop_map(f16::from_bits).boxed(),
    }
}

pub fn vec3(f: Floats) -> impl Strategy<Value = Vec3<f32>> {
    (float(f), float(f), float(f)).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

pub fn vec2(f: Floats) -> impl Strategy<Value = Vec2<f32>> {
    (float(f), float(f)).prop_map(|(x, y)| Vec2::new(x, y))
}

pub fn pose(f: Floats) -> impl Strategy<Value = Pose> {
    (vec3(f), float(f), float(f), float(f), float(f)).prop_map(|(position, x, y, z, w)| Pose {
        position,
        rotation: Quat::new(x, y, z, w),
    })
}

/// `Some` of the strategy's value exactly when `present`.
pub fn maybe<T: std::fmt::Debug + Clone + 'static>(
    present: bool,
    s: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    if present {
        s.prop_map(Some).boxed()
    } else {
        Just(None).boxed()
    }
}

pub fn color() -> impl Strategy<Value = Rgba8> {
    any::<[u8; 4]>().prop_map(|[r, g, b, a]| Rgba8::new(r, g, b, a))
}

pub fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_ .é]{0,8}"
}

pub fn bone(flags: BoneFlags, f: Floats) -> impl Strategy<Value = Bone> {
    let has = |b| flags.contains(b);
    (
        name(),
        any::<u8>(),
        -2i32..6,
        maybe(has(BoneFlags::GLOBAL_MATRIX), pose(f)),
        maybe(has(BoneFlags::LOCAL_MATRIX), pose(f)),
        maybe(has(BoneFlags::SCALES), vec3(f)),
    )
        .prop_map(|(name, flags, parent, global, local, scale)| Bone {
            name,
            flags,
            parent,
            global,
            local,
            scale,
        })
}

/// A block of up to `max` items, or an absent block with a count kept (sometimes non-zero,
/// which validate reports but the format carries).
pub fn block<T: std::fmt::Debug + Clone + 'static>(
    item: impl Strategy<Value = T> + 'static,
    max: usize,
) -> BoxedStrategy<Block<T>> {
    prop_oneof![
        3 => vec(item, 0..=max).prop_map(Block::Present),
        1 => prop_oneof![Just(0u32), 0u32..400, any::<u32>()].prop_map(|count| Block::Absent { count }),
    ]
    .boxed()
}

/// An index that fits `width`, usually a small one.
pub fn index(width: IndexWidth) -> impl Strategy<Value = u32> {
    prop_oneof![3 => 0u32..8, 1 => 0..=width.max()]
}

pub fn faces(vertex_count: usize) -> impl Strategy<Value = Vec<[u32; 3]>> {
    let width = IndexWidth::for_count(vertex_count as u64);
    vec([index(width), index(width), index(width)], 0..5)
}

/// The arrays of a deployed mesh, in the order of its fields.
pub type MeshArrays = (
    Vec<Vec3<f32>>,
    Vec<Vec2<f32>>,
    Vec<Vec3<f32>>,
    Vec<Rgba8>,
    Vec<Influence>,
    Vec<[u32; 3]>,
    Vec<i32>,
);

/// A deployed mesh of `flags` and `max_influence` holding `arrays`.
pub fn mesh_of(flags: u8, max_influence: u8, arrays: MeshArrays) -> deployed::Mesh {
    let (positions, uvs, normals, colors, weights, faces, material_indices) = arrays;
    deployed::Mesh {
        flags,
        max_influence,
        positions,
        uvs,
        normals,
        colors,
        weights,
        faces,
        material_indices,
    }
}

pub fn deployed_mesh(flags: MeshFlags, bone_index: IndexWidth, f: Floats) -> impl Strategy<Value = deployed::Mesh> {
    let has = move |b| flags.contains(b);
    // Mostly tiny meshes, sometimes one past the u8 face index width.
    (
        prop_oneof![4 => 0usize..6, 1 => Just(256usize)],
        0usize..3,
        0u8..3,
        any::<u8>(),
    )
        .prop_flat_map(move |(v, layers, max_influence, mesh_flags)| {
            let n = |flag, count: usize| if has(flag) { count } else { 0 };
            (
                vec(vec3(f), v),
                vec(vec2(f), n(MeshFlags::UV_SET, v * layers)),
                vec(vec3(f), n(MeshFlags::NORMALS, v)),
                vec(color(), n(MeshFlags::COLOR, v)),
                vec(
                    (index(bone_index), float(f)).prop_map(|(bone, weight)| Influence { bone, weight }),
                    n(MeshFlags::WEIGHTS, v * usize::from(max_influence)),
                ),
                faces(v),
                vec(prop_oneof![Just(-1), -3i32..4], layers),
            )
                .prop_map(move |arrays| mesh_of(mesh_flags, max_influence, arrays))
        })
}

pub fn material() -> impl Strategy<Value = Material> {
    (name(), proptest::option::of((name(), name(), name()))).prop_map(|(name, maps)| Material {
        name,
        maps: maps.map(|(diffuse, normal, specular)| MaterialMaps {
            diffuse,
            normal,
            specular,
        }),
    })
}

/// A trailer for meshes of these vertex counts: none, SEBlend, or bytes that are not SEBlend.
pub fn trailer(vertex_counts: Vec<usize>, f: Floats) -> BoxedStrategy<Trailer<BlendShapes>> {
    let delta = (0u32..4, vec3(f))
        .prop_map(|(shape, delta)| BlendDelta { shape, delta })
        .boxed();
    let meshes: Vec<_> = vertex_counts
        .into_iter()
        .map(|v| {
            vec(vec(delta.clone(), 0..3).prop_map(|deltas| VertexBlend { deltas }), v)
                .prop_map(|vertices| MeshBlend { vertices })
        })
        .collect();
    prop_oneof![
        Just(Trailer::None),
        (vec(name(), 0..3), meshes).prop_map(|(names, meshes)| Trailer::SeBlend(BlendShapes { names, meshes })),
        // Not starting with "S", so never mistaken for SEBlend.
        (0u8..0x53, vec(any::<u8>(), 0..12)).prop_map(|(first, rest)| {
            let mut bytes = vec![first];
            bytes.extend(rest);
            Trailer::Unknown(bytes)
        }),
    ]
    .boxed()
}

pub fn flag_bits(known: u8) -> impl Strategy<Value = u8> {
    prop_oneof![4 => 0..=known, 1 => any::<u8>()]
}

pub fn deployed_model(f: Floats) -> impl Strategy<Value = deployed::Model> {
    (
        flag_bits(7),
        flag_bits(15),
        prop_oneof![3 => Just(0u8), 1 => prop_oneof![Just(0x08u8), Just(0x80)]],
        any::<[u8; 3]>(),
    )
        .prop_flat_map(move |(bone_flags, mesh_flags, other, reserved)| {
            let bone_flags = BoneFlags::from_bits_retain(bone_flags);
            let mesh_flags = MeshFlags::from_bits_retain(mesh_flags);
            block(bone(bone_flags, f), 4).prop_flat_map(move |bones| {
                let bone_index = IndexWidth::for_count(bones.header_count());
                (
                    block(deployed_mesh(mesh_flags, bone_index, f), 3),
                    block(material(), 3),
                    Just(bones),
                )
                    .prop_flat_map(move |(meshes, materials, bones)| {
                        let counts = meshes.items().iter().map(|m| m.positions.len()).collect();
                        trailer(counts, f).prop_map(move |trailer| deployed::Model {
                            other_data_flags: DataFlags::from_bits_retain(other),
                            bone_flags,
                            mesh_flags,
                            reserved,
                            bones: bones.clone(),
                            meshes: meshes.clone(),
                            materials: materials.clone(),
                            trailer,
                        })
                    })
            })
        })
}

#[derive(Debug, Clone, Copy)]
pub struct DraftHeader {
    presence: MeshFlags,
    bone_index: IndexWidth,
    material_index: IndexWidth,
    influences: u8,
}

pub fn draft_mesh(h: DraftHeader, f: Floats) -> impl Strategy<Value = draft::Mesh> {
    let has = move |b| h.presence.contains(b);
    (0usize..5, 0u8..3, any::<u8>()).prop_flat_map(move |(v, layers, mesh_flags)| {
        let layers_used = if has(MeshFlags::UV_SET) { usize::from(layers) } else { 0 };
        let influences = if has(MeshFlags::WEIGHTS) {
            usize::from(h.influences)
        } else {
            0
        };
        let n = |flag, count: usize| if has(flag) { count } else { 0 };
        (
            vec(vec3(f), v),
            vec(vec2(f), v * layers_used),
            vec(index(h.material_index), v * layers_used),
            vec(
                (half(f), half(f), half(f)).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
                n(MeshFlags::NORMALS, v),
            ),
            vec(color(), n(MeshFlags::COLOR, v)),
            vec(index(h.bone_index), v * influences),
            vec(half(f), v * influences),
            vec((0u32..8, any::<u32>(), 0u32..8).prop_map(|(a, b, c)| [a, b, c]), 0..4),
        )
            .prop_map(
                move |(positions, uvs, uv_materials, normals, colors, bone_indices, bone_weights, faces)| draft::Mesh {
                    flags: mesh_flags,
                    uv_set_count: layers,
                    vertices: Vertices {
                        positions,
                        uvs,
                        uv_materials,
                        normals,
                        colors,
                        bone_indices,
                        bone_weights,
                    },
                    faces,
                },
            )
    })
}

pub fn draft_model(f: Floats) -> impl Strategy<Value = draft::Model> {
    (
        (
            any::<u8>(),
            any::<u16>(),
            prop_oneof![Just(0u8), Just(0x04), Just(0x08), Just(0xF0)],
        ),
        (flag_bits(7), flag_bits(15), any::<[u8; 2]>(), any::<[u8; 3]>()),
        (
            any::<u32>(),
            prop_oneof![0u32..4, Just(255), Just(256), any::<u32>()],
            0u8..3,
        ),
    )
        .prop_flat_map(
            move |(
                (model_type, model_flags, other),
                (bone_flags, mesh_flags, reserved1, reserved2),
                (collision_count, material_count, influences),
            )| {
                let bone_flags = BoneFlags::from_bits_retain(bone_flags);
                block(bone(bone_flags, f), 3).prop_flat_map(move |bones| {
                    let h = DraftHeader {
                        presence: MeshFlags::from_bits_retain(mesh_flags),
                        bone_index: IndexWidth::for_count(bones.header_count()),
                        material_index: material_index_width(u64::from(material_count)),
                        influences,
                    };
                    block(draft_mesh(h, f), 3).prop_flat_map(move |meshes| {
                        let counts = meshes.items().iter().map(|m| m.vertices.positions.len()).collect();
                        let bones = bones.clone();
                        trailer(counts, f).prop_map(move |trailer| draft::Model {
                            model_type,
                            model_flags,
                            other_data_flags: DataFlags::from_bits_retain(other),
                            bone_flags,
                            mesh_flags: MeshFlags::from_bits_retain(mesh_flags),
                            reserved1,
                            collision_count,
                            material_count,
                            max_skin_influence: influences,
                            reserved2,
                            bones: bones.clone(),
                            meshes: meshes.clone(),
                            trailer,
                        })
                    })
                })
            },
        )
}
