//! The writer: [`write()`] and [`to_bytes`], and the checks that refuse, before a byte is
//! written, a model the layout cannot hold (naming the item and its output offset).

use std::io::{Cursor, Seek, Write};

use animbin_core::seblend::Trailer;
use animbin_core::{Endian, Error, ErrorKind, IndexWidth, Result};
use binrw::io::NoSeek;

use crate::FORMAT;
use crate::layout::blend::BlendShapes;
use crate::layout::block::Block;
use crate::layout::bone::Bone;
use crate::layout::deployed;
use crate::layout::draft::VertexLayout;
use crate::layout::flags::{BoneFlags, DataFlags, MeshFlags};
use crate::model::SeModel;
use crate::spans::{BoneSpans, MeshSpans, Spans, spans};

/// Writes `model` in its layout.
///
/// Refuses (with [`ErrorKind::Unencodable`] and the output offset) a model it cannot encode
/// faithfully: arrays whose lengths disagree with the flags and counts, a bone whose parts
/// disagree with `boneFlags`, an index wider than its field, a count over `u32`, more than
/// 255 UV layers, a blend trailer whose meshes do not match the mesh block, a name with a
/// NUL. These are checked before anything is written.
///
/// The writer only moves forward, so any [`Write`] will do (wrap a file in a
/// `std::io::BufWriter`).
pub fn write(model: &SeModel, writer: impl Write) -> Result<()> {
    encode(model, &mut NoSeek::new(writer))
}

/// Encodes `model` into a new byte vector (see [`write()`]).
pub fn to_bytes(model: &SeModel) -> Result<Vec<u8>> {
    let mut out = Cursor::new(Vec::new());
    encode(model, &mut out)?;
    Ok(out.into_inner())
}

fn encode<W: Write + Seek>(model: &SeModel, writer: &mut W) -> Result<()> {
    let start = writer
        .stream_position()
        .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Io(e)))?;
    check(model).map_err(|mut e| {
        e.offset += start;
        e
    })?;
    match model {
        SeModel::Deployed(m) => animbin_core::io::write_to(FORMAT, m, Endian::Little, writer),
        SeModel::Draft(m) => animbin_core::io::write_to(FORMAT, m, Endian::Little, writer),
    }
}

fn refuse(at: u64, message: String) -> Error {
    Error::new(FORMAT, at, ErrorKind::Unencodable(message))
}

fn check_len(at: u64, what: &str, mesh: usize, len: usize, expected: u64, why: &str) -> Result<(), Error> {
    if len as u64 == expected {
        Ok(())
    } else {
        Err(refuse(
            at,
            format!("mesh {mesh} has {len} {what} where {why} needs {expected}"),
        ))
    }
}

fn check_bones(bones: &Block<Bone>, flags: BoneFlags, spans: &BoneSpans) -> Result<(), Error> {
    for (i, bone) in bones.items().iter().enumerate() {
        for (part, has, flag) in [
            ("global matrix", bone.global.is_some(), BoneFlags::GLOBAL_MATRIX),
            ("local matrix", bone.local.is_some(), BoneFlags::LOCAL_MATRIX),
            ("scale", bone.scale.is_some(), BoneFlags::SCALES),
        ] {
            if has != flags.contains(flag) {
                let state = if has { "has" } else { "lacks" };
                return Err(refuse(
                    spans.record(i),
                    format!(
                        "bone {i} (\"{}\") {state} a {part}, which boneFlags {:#04x} says every bone {}",
                        bone.name,
                        flags.bits(),
                        if has { "lacks" } else { "has" }
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_blend(trailer: &Trailer<BlendShapes>, vertex_counts: &[usize], at: u64) -> Result<(), Error> {
    let Some(blend) = trailer.seblend() else {
        return Ok(());
    };
    if blend.meshes.len() != vertex_counts.len() {
        return Err(refuse(
            at,
            format!(
                "the SEBlend trailer has {} meshes where the mesh block has {}",
                blend.meshes.len(),
                vertex_counts.len()
            ),
        ));
    }
    for (i, (mesh, &count)) in blend.meshes.iter().zip(vertex_counts).enumerate() {
        if mesh.vertices.len() != count {
            return Err(refuse(
                at,
                format!(
                    "the SEBlend trailer has {} vertices for mesh {i}, which has {count}",
                    mesh.vertices.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses `other_data_flags` with a block's bit (`dataFlags` is at `at`): the blocks set those.
fn check_other_data_flags(other: DataFlags, blocks: DataFlags, at: u64) -> Result<(), Error> {
    if other.intersects(blocks) {
        return Err(refuse(
            at,
            format!(
                "other_data_flags {:#04x} overlaps the block flags, which come from the blocks",
                other.bits()
            ),
        ));
    }
    Ok(())
}

/// Refuses a name with a NUL in it, naming its item, at the name's offset (binrw's string
/// writer could only say "a string").
fn check_name(name: &str, at: u64, item: impl FnOnce() -> String) -> Result<(), Error> {
    if name.contains('\0') {
        return Err(refuse(at, format!("{}: contains a NUL byte", item())));
    }
    Ok(())
}

/// Refuses a NUL in bone names (all names precede the records), in the deployed layout's
/// material and map names, and in SEBlend shape names.
fn check_names(
    bones: &Block<Bone>,
    materials: &[deployed::Material],
    trailer: &Trailer<BlendShapes>,
    spans: &Spans,
) -> Result<(), Error> {
    let mut at = spans.bones.names;
    for (i, bone) in bones.items().iter().enumerate() {
        check_name(&bone.name, at, || format!("bone {i} name"))?;
        at += bone.name.len() as u64 + 1;
    }
    let mut at = spans.materials;
    for (i, material) in materials.iter().enumerate() {
        check_name(&material.name, at, || format!("material {i} name"))?;
        at += material.name.len() as u64 + 2;
        if let Some(maps) = &material.maps {
            for (map, name) in [
                ("diffuse", &maps.diffuse),
                ("normal", &maps.normal),
                ("specular", &maps.specular),
            ] {
                check_name(name, at, || format!("material {i} {map} map"))?;
                at += name.len() as u64 + 1;
            }
        }
    }
    if let Some(blend) = trailer.seblend() {
        // The names follow the 8-byte magic and the u64 count.
        let mut at = spans.trailer + 16;
        for (i, name) in blend.names.iter().enumerate() {
            check_name(name, at, || format!("SEBlend shape {i} name"))?;
            at += name.len() as u64 + 1;
        }
    }
    Ok(())
}

/// Refuses a mesh whose vertex or face count does not fit its u32 field (`vertexCount` is at
/// `at`, `faceCount` right after it).
fn check_mesh_counts(i: usize, vertices: usize, faces: usize, at: u64) -> Result<(), Error> {
    for (field, n, at) in [("vertexCount", vertices, at), ("faceCount", faces, at + 4)] {
        if u32::try_from(n).is_err() {
            return Err(refuse(at, format!("mesh {i} {field}: {n} does not fit a u32")));
        }
    }
    Ok(())
}

/// Refuses a deployed face index or weight bone index wider than its field, naming the mesh
/// and the face or weight.
fn check_index_widths(i: usize, mesh: &deployed::Mesh, bone_width: IndexWidth, s: &MeshSpans) -> Result<(), Error> {
    let v = mesh.positions.len();
    let face_width = IndexWidth::for_count(v as u64);
    if let Some((j, &x)) = mesh
        .faces
        .iter()
        .enumerate()
        .find_map(|(j, f)| f.iter().find(|&&x| x > face_width.max()).map(|x| (j, x)))
    {
        return Err(refuse(
            s.faces + j as u64 * s.face_size,
            format!(
                "mesh {i} face {j}: index {x} does not fit the {}-byte face index that {v} vertices give",
                face_width.size()
            ),
        ));
    }
    if let Some((k, w)) = mesh.weights.iter().enumerate().find(|(_, w)| w.bone > bone_width.max()) {
        return Err(refuse(
            s.weights + k as u64 * s.stride,
            format!(
                "mesh {i} weight {k}: bone {} does not fit the {}-byte bone_t that the bone count gives",
                w.bone,
                bone_width.size()
            ),
        ));
    }
    Ok(())
}

/// Refuses a model whose arrays disagree with its flags and counts, or whose names or indices
/// do not fit their fields, naming the item and the output offset.
fn check(model: &SeModel) -> Result<(), Error> {
    let spans = spans(model);
    match model {
        SeModel::Deployed(m) => {
            check_other_data_flags(m.other_data_flags, DataFlags::DEPLOYED_BLOCKS, 11)?;
            check_names(&m.bones, m.materials.items(), &m.trailer, &spans)?;
            check_bones(&m.bones, m.bone_flags, &spans.bones)?;
            let has = |f| m.mesh_flags.contains(f);
            for (i, (mesh, s)) in m.meshes.items().iter().zip(&spans.meshes).enumerate() {
                check_mesh_counts(i, mesh.positions.len(), mesh.faces.len(), s.start + 3)?;
                let v = mesh.positions.len() as u64;
                if mesh.material_indices.len() > 255 {
                    return Err(refuse(
                        s.start + 1,
                        format!(
                            "mesh {i} has {} UV layers; layerCount holds at most 255",
                            mesh.material_indices.len()
                        ),
                    ));
                }
                let layers = mesh.material_indices.len() as u64;
                let expect = |flag, n: u64| if has(flag) { n } else { 0 };
                check_len(
                    s.uvs,
                    "UV coordinates",
                    i,
                    mesh.uvs.len(),
                    expect(MeshFlags::UV_SET, v * layers),
                    "vertexCount x layerCount (material_indices.len()) under the UV_SET flag",
                )?;
                check_len(
                    s.normals,
                    "normals",
                    i,
                    mesh.normals.len(),
                    expect(MeshFlags::NORMALS, v),
                    "the NORMALS flag",
                )?;
                check_len(
                    s.colors,
                    "colours",
                    i,
                    mesh.colors.len(),
                    expect(MeshFlags::COLOR, v),
                    "the COLOR flag",
                )?;
                check_len(
                    s.weights,
                    "weights",
                    i,
                    mesh.weights.len(),
                    expect(MeshFlags::WEIGHTS, v * u64::from(mesh.max_influence)),
                    "vertexCount x maxInfluence under the WEIGHTS flag",
                )?;
                check_index_widths(i, mesh, m.bone_index_width(), s)?;
            }
            let counts: Vec<usize> = m.meshes.items().iter().map(|m| m.positions.len()).collect();
            check_blend(&m.trailer, &counts, spans.trailer)
        }
        SeModel::Draft(m) => {
            check_other_data_flags(m.other_data_flags, DataFlags::DRAFT_BLOCKS, 14)?;
            check_names(&m.bones, &[], &m.trailer, &spans)?;
            check_bones(&m.bones, m.bone_flags, &spans.bones)?;
            let args = m.mesh_args();
            for (i, (mesh, s)) in m.meshes.items().iter().zip(&spans.meshes).enumerate() {
                check_mesh_counts(i, mesh.vertices.positions.len(), mesh.faces.len(), s.start + 2)?;
                let layout = VertexLayout {
                    mesh: args,
                    layers: mesh.uv_set_count,
                };
                let v = mesh.vertices.positions.len() as u64;
                let has = |f| args.presence.contains(f);
                let at = s.positions;
                let vx = &mesh.vertices;
                check_len(
                    at,
                    "UV coordinates",
                    i,
                    vx.uvs.len(),
                    v * layout.uv_layers(),
                    "vertexCount x uvSetCount under the UV_SET flag",
                )?;
                check_len(
                    at,
                    "UV material indices",
                    i,
                    vx.uv_materials.len(),
                    v * layout.uv_layers(),
                    "vertexCount x uvSetCount under the UV_SET flag",
                )?;
                check_len(
                    at,
                    "normals",
                    i,
                    vx.normals.len(),
                    if has(MeshFlags::NORMALS) { v } else { 0 },
                    "the NORMALS flag",
                )?;
                check_len(
                    at,
                    "colours",
                    i,
                    vx.colors.len(),
                    if has(MeshFlags::COLOR) { v } else { 0 },
                    "the COLOR flag",
                )?;
                check_len(
                    at,
                    "bone indices",
                    i,
                    vx.bone_indices.len(),
                    v * layout.influences(),
                    "vertexCount x maxSkinInfluence under the WEIGHTS flag",
                )?;
                check_len(
                    at,
                    "bone weights",
                    i,
                    vx.bone_weights.len(),
                    v * layout.influences(),
                    "vertexCount x maxSkinInfluence under the WEIGHTS flag",
                )?;
                for (what, values, width) in [
                    ("UV material", &vx.uv_materials, args.material_index),
                    ("weight bone", &vx.bone_indices, args.bone_index),
                ] {
                    if let Some(bad) = values.iter().position(|&x| x > width.max()) {
                        return Err(refuse(
                            at,
                            format!(
                                "mesh {i}: {what} index {} does not fit the {}-byte field the header's count gives",
                                values[bad],
                                width.size()
                            ),
                        ));
                    }
                }
            }
            let counts: Vec<usize> = m.meshes.items().iter().map(|m| m.vertices.positions.len()).collect();
            check_blend(&m.trailer, &counts, spans.trailer)
        }
    }
}
