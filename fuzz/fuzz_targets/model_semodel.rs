//! Writers proven from the model side: a random SEModel in either layout (any flags,
//! reserved bits and bytes, bones with any poses, meshes whose arrays mostly match their
//! counts, materials, an SEBlend or unknown trailer; floats with any bits) is either
//! refused by the writer with an `Unencodable` error, or written to bytes that read back to
//! the same model, bit for bit (compared through the dump's exact JSON form), and rewrite to
//! the same bytes; through Cast and back (`animbin::se_cast`) they are the same bytes too.
#![no_main]

use animbin_core::Rgba8;
use animbin_core::half::f16;
use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_fuzz::{exact, name};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone, BoneFlags, DataFlags, Influence, MeshBlend, MeshFlags, Pose, SeModel,
    Trailer, VertexBlend, draft, read, to_bytes,
};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

fn f(u: &mut Unstructured) -> Result<f32> {
    Ok(f32::from_bits(u.arbitrary()?))
}

fn v2(u: &mut Unstructured) -> Result<Vec2<f32>> {
    Ok(Vec2::new(f(u)?, f(u)?))
}

fn v3(u: &mut Unstructured) -> Result<Vec3<f32>> {
    Ok(Vec3::new(f(u)?, f(u)?, f(u)?))
}

fn rgba(u: &mut Unstructured) -> Result<Rgba8> {
    Ok(Rgba::new(
        u.arbitrary()?,
        u.arbitrary()?,
        u.arbitrary()?,
        u.arbitrary()?,
    ))
}

/// `n` items, or (rarely) a count that does not match.
fn many<T>(u: &mut Unstructured, n: usize, mut item: impl FnMut(&mut Unstructured) -> Result<T>) -> Result<Vec<T>> {
    let n = if u.ratio(1, 16)? {
        u.int_in_range(0..=4usize)?
    } else {
        n
    };
    (0..n).map(|_| item(u)).collect()
}

fn block<T>(u: &mut Unstructured, max: usize, item: impl FnMut(&mut Unstructured) -> Result<T>) -> Result<Block<T>> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => Block::Absent { count: 0 },
        1 => Block::Absent { count: u.arbitrary()? },
        _ => {
            let n = u.int_in_range(0..=max)?;
            Block::Present(many(u, n, item)?)
        }
    })
}

fn bones(u: &mut Unstructured, flags: BoneFlags) -> Result<Block<Bone>> {
    let pose = |u: &mut Unstructured| -> Result<Pose> {
        Ok(Pose {
            position: v3(u)?,
            rotation: Quat::new(f(u)?, f(u)?, f(u)?, f(u)?),
        })
    };
    block(u, 4, |u| {
        Ok(Bone {
            name: name(u)?,
            flags: if u.ratio(1, 8)? { u.arbitrary()? } else { 0 },
            parent: u.int_in_range(-2..=4)?,
            global: if flags.contains(BoneFlags::GLOBAL_MATRIX) {
                Some(pose(u)?)
            } else {
                None
            },
            local: if flags.contains(BoneFlags::LOCAL_MATRIX) {
                Some(pose(u)?)
            } else {
                None
            },
            scale: if flags.contains(BoneFlags::SCALES) {
                Some(v3(u)?)
            } else {
                None
            },
        })
    })
}

fn faces(u: &mut Unstructured, vertices: usize) -> Result<Vec<[u32; 3]>> {
    let n = u.int_in_range(0..=3usize)?;
    let index = |u: &mut Unstructured| -> Result<u32> {
        if u.ratio(1, 8)? {
            u.arbitrary()
        } else {
            u.int_in_range(0..=vertices as u32)
        }
    };
    (0..n).map(|_| Ok([index(u)?, index(u)?, index(u)?])).collect()
}

/// An SEBlend trailer for meshes of these vertex counts (mostly), unknown bytes, or none.
fn trailer(u: &mut Unstructured, vertex_counts: &[usize]) -> Result<Trailer<BlendShapes>> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => {
            let count = u.int_in_range(0..=2usize)?;
            let names = many(u, count, name)?;
            let meshes = vertex_counts
                .iter()
                .map(|&n| {
                    Ok(MeshBlend {
                        vertices: many(u, n, |u| {
                            let count = u.int_in_range(0..=2usize)?;
                            Ok(VertexBlend {
                                deltas: many(u, count, |u| {
                                    Ok(BlendDelta {
                                        shape: u.int_in_range(0..=2)?,
                                        delta: v3(u)?,
                                    })
                                })?,
                            })
                        })?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Trailer::SeBlend(BlendShapes { names, meshes })
        }
        // Unknown bytes that cannot start an SEBlend trailer.
        1 => Trailer::Unknown(animbin_fuzz::unknown_trailer(u)?),
        _ => Trailer::None,
    })
}

fn deployed_model(u: &mut Unstructured) -> Result<SeModel> {
    let bone_flags = BoneFlags::from_bits_retain(u.arbitrary()?);
    let mesh_flags = MeshFlags::from_bits_retain(u.arbitrary()?);
    let has = |flag| mesh_flags.contains(flag);
    let bones = bones(u, bone_flags)?;
    let meshes = block(u, 2, |u| {
        let v = u.int_in_range(0..=4usize)?;
        let layers = if has(MeshFlags::UV_SET) {
            u.int_in_range(0..=2usize)?
        } else {
            0
        };
        let influences = if has(MeshFlags::WEIGHTS) {
            u.int_in_range(0..=2u8)?
        } else {
            0
        };
        Ok(deployed::Mesh {
            flags: if u.ratio(1, 8)? { u.arbitrary()? } else { 0 },
            max_influence: influences,
            positions: (0..v).map(|_| v3(u)).collect::<Result<_>>()?,
            uvs: many(u, v * layers, v2)?,
            normals: many(u, if has(MeshFlags::NORMALS) { v } else { 0 }, v3)?,
            colors: many(u, if has(MeshFlags::COLOR) { v } else { 0 }, rgba)?,
            weights: many(u, v * usize::from(influences), |u| {
                Ok(Influence {
                    bone: if u.ratio(1, 8)? {
                        u.arbitrary()?
                    } else {
                        u.int_in_range(0..=4)?
                    },
                    weight: f(u)?,
                })
            })?,
            faces: faces(u, v)?,
            material_indices: (0..layers).map(|_| u.int_in_range(-2..=2)).collect::<Result<_>>()?,
        })
    })?;
    let materials = block(u, 2, |u| {
        Ok(Material {
            name: name(u)?,
            maps: if u.arbitrary()? {
                Some(MaterialMaps {
                    diffuse: name(u)?,
                    normal: name(u)?,
                    specular: name(u)?,
                })
            } else {
                None
            },
        })
    })?;
    let vertex_counts: Vec<usize> = meshes.items().iter().map(|m| m.positions.len()).collect();
    Ok(SeModel::Deployed(deployed::Model {
        other_data_flags: DataFlags::from_bits_retain(if u.ratio(1, 8)? { u.arbitrary()? } else { 0 }),
        bone_flags,
        mesh_flags,
        reserved: if u.ratio(1, 8)? { u.arbitrary()? } else { [0; 3] },
        bones,
        meshes,
        materials,
        trailer: trailer(u, &vertex_counts)?,
    }))
}

fn draft_model(u: &mut Unstructured) -> Result<SeModel> {
    let bone_flags = BoneFlags::from_bits_retain(u.arbitrary()?);
    let mesh_flags = MeshFlags::from_bits_retain(u.arbitrary()?);
    let has = |flag| mesh_flags.contains(flag);
    let influences = if has(MeshFlags::WEIGHTS) {
        u.int_in_range(0..=2u8)?
    } else {
        0
    };
    let material_count = if u.ratio(1, 8)? {
        u.arbitrary()?
    } else {
        u.int_in_range(0..=3)?
    };
    let bones = bones(u, bone_flags)?;
    let half = |u: &mut Unstructured| -> Result<f16> { Ok(f16::from_bits(u.arbitrary()?)) };
    let meshes = block(u, 2, |u| {
        let v = u.int_in_range(0..=4usize)?;
        let layers = if has(MeshFlags::UV_SET) {
            u.int_in_range(0..=2u8)?
        } else {
            0
        };
        let per_vertex = |n: usize| v * n;
        Ok(draft::Mesh {
            flags: if u.ratio(1, 8)? { u.arbitrary()? } else { 0 },
            uv_set_count: layers,
            vertices: draft::Vertices {
                positions: (0..v).map(|_| v3(u)).collect::<Result<_>>()?,
                uvs: many(u, per_vertex(layers.into()), v2)?,
                uv_materials: many(u, per_vertex(layers.into()), |u| u.int_in_range(0..=3))?,
                normals: many(u, if has(MeshFlags::NORMALS) { v } else { 0 }, |u| {
                    Ok(Vec3::new(half(u)?, half(u)?, half(u)?))
                })?,
                colors: many(u, if has(MeshFlags::COLOR) { v } else { 0 }, rgba)?,
                bone_indices: many(u, per_vertex(influences.into()), |u| u.int_in_range(0..=4))?,
                bone_weights: many(u, per_vertex(influences.into()), half)?,
            },
            faces: faces(u, v)?,
        })
    })?;
    let vertex_counts: Vec<usize> = meshes.items().iter().map(|m| m.vertices.positions.len()).collect();
    Ok(SeModel::Draft(draft::Model {
        model_type: u.arbitrary()?,
        model_flags: u.arbitrary()?,
        other_data_flags: DataFlags::from_bits_retain(u.arbitrary::<u8>()? & !3),
        bone_flags,
        mesh_flags,
        reserved1: if u.ratio(1, 8)? { u.arbitrary()? } else { [0; 2] },
        collision_count: u.int_in_range(0..=2)?,
        material_count,
        max_skin_influence: influences,
        reserved2: if u.ratio(1, 8)? { u.arbitrary()? } else { [0; 3] },
        bones,
        meshes,
        trailer: trailer(u, &vertex_counts)?,
    }))
}

/// A draft model one time in four, else a deployed one.
fn model(u: &mut Unstructured) -> Result<SeModel> {
    if u.ratio(1, 4).unwrap_or(false) {
        draft_model(u)
    } else {
        deployed_model(u)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((model, bytes, back)) = animbin_fuzz::written_and_read(data, model, to_bytes, read) else {
        return;
    };
    // Again, and into Cast and back, field by field: the same bytes.
    animbin_fuzz::assert_rewrites_through_cast(&back, &bytes);
    if exact(&back) != exact(&model) {
        // By design: an SEBlend trailer that does not match the meshes is kept as bytes.
        let trailer = |m: &SeModel| match m {
            SeModel::Deployed(m) => m.trailer.clone(),
            SeModel::Draft(m) => m.trailer.clone(),
        };
        assert!(
            matches!(
                (trailer(&model), trailer(&back)),
                (Trailer::SeBlend(_), Trailer::Unknown(_))
            ),
            "the model read back differs"
        );
    }
});
