//! Where everything of a model lies in its file. SEModel has no offsets or padding: the
//! layout follows from the flags and counts, so the offsets can be recomputed from a model.
//! [`crate::validate()`] uses them to name the byte of each problem, and [`check`] to refuse
//! (before writing) a model whose arrays disagree with its flags and counts.

use animbin_core::{Error, ErrorKind, IndexWidth};

use crate::blend::Trailer;
use crate::block::Block;
use crate::bone::Bone;
use crate::draft::{self, VertexLayout};
use crate::flags::{BoneFlags, MeshFlags, data};
use crate::{FORMAT, Layout, SeModel, deployed};

/// The bone block's place.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoneSpans {
    /// Where the first record starts.
    pub records: u64,
    /// The size of one record.
    pub record_size: u64,
}

impl BoneSpans {
    /// The offset of bone `i`'s record.
    pub fn record(&self, i: usize) -> u64 {
        self.records + i as u64 * self.record_size
    }
}

/// One mesh's place. For the draft layout `positions` is where the interleaved records
/// start and `stride` their size; the other array offsets are the deployed layout's.
#[derive(Debug, Clone, Default)]
pub(crate) struct MeshSpans {
    pub start: u64,
    pub positions: u64,
    pub uvs: u64,
    pub normals: u64,
    pub colors: u64,
    pub weights: u64,
    pub faces: u64,
    pub material_indices: u64,
    /// Bytes per face record.
    pub face_size: u64,
    /// Bytes per weight record (deployed) or per vertex record (draft).
    pub stride: u64,
}

/// Every block's place in a file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Spans {
    pub bones: BoneSpans,
    pub meshes: Vec<MeshSpans>,
    pub trailer: u64,
}

fn bone_spans(mut at: u64, bones: &Block<Bone>, flags: BoneFlags) -> (BoneSpans, u64) {
    at += bones.items().iter().map(|b| b.name.len() as u64 + 1).sum::<u64>();
    let spans = BoneSpans {
        records: at,
        record_size: flags.record_size(),
    };
    (spans.clone(), at + bones.items().len() as u64 * spans.record_size)
}

/// The offsets of a deployed model, from the lengths of its arrays as they would be written.
pub(crate) fn deployed_spans(m: &deployed::Model) -> Spans {
    let (bones, mut at) = bone_spans(Layout::Deployed.header_end(), &m.bones, m.bone_flags);
    let bone_index = m.bone_index_width().size();
    let mut meshes = Vec::with_capacity(m.meshes.items().len());
    for mesh in m.meshes.items() {
        let has = |f| m.mesh_flags.contains(f);
        let mut s = MeshSpans {
            start: at,
            face_size: 3 * IndexWidth::for_count(mesh.positions.len() as u64).size(),
            stride: bone_index + 4,
            ..MeshSpans::default()
        };
        at += deployed::MESH_HEADER_SIZE;
        s.positions = at;
        at += 12 * mesh.positions.len() as u64;
        s.uvs = at;
        if has(MeshFlags::UV_SET) {
            at += 8 * mesh.uvs.len() as u64;
        }
        s.normals = at;
        if has(MeshFlags::NORMALS) {
            at += 12 * mesh.normals.len() as u64;
        }
        s.colors = at;
        if has(MeshFlags::COLOR) {
            at += 4 * mesh.colors.len() as u64;
        }
        s.weights = at;
        if has(MeshFlags::WEIGHTS) {
            at += s.stride * mesh.weights.len() as u64;
        }
        s.faces = at;
        at += s.face_size * mesh.faces.len() as u64;
        s.material_indices = at;
        at += 4 * mesh.material_indices.len() as u64;
        meshes.push(s);
    }
    for material in m.materials.items() {
        at += material.name.len() as u64 + 2;
        if let Some(maps) = &material.maps {
            at += (maps.diffuse.len() + maps.normal.len() + maps.specular.len()) as u64 + 3;
        }
    }
    Spans {
        bones,
        meshes,
        trailer: at,
    }
}

/// The offsets of a draft model.
pub(crate) fn draft_spans(m: &draft::Model) -> Spans {
    let (bones, mut at) = bone_spans(Layout::Draft.header_end(), &m.bones, m.bone_flags);
    let args = m.mesh_args();
    let mut meshes = Vec::with_capacity(m.meshes.items().len());
    for mesh in m.meshes.items() {
        let layout = VertexLayout {
            mesh: args,
            layers: mesh.uv_set_count,
        };
        let mut s = MeshSpans {
            start: at,
            face_size: 12,
            stride: layout.record_size(),
            ..MeshSpans::default()
        };
        at += draft::MESH_HEADER_SIZE;
        s.positions = at;
        at += s.stride * mesh.vertices.positions.len() as u64;
        s.faces = at;
        at += 12 * mesh.faces.len() as u64;
        s.material_indices = at;
        meshes.push(s);
    }
    Spans {
        bones,
        meshes,
        trailer: at,
    }
}

/// The offsets of either layout.
pub(crate) fn spans(model: &SeModel) -> Spans {
    match model {
        SeModel::Deployed(m) => deployed_spans(m),
        SeModel::Draft(m) => draft_spans(m),
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
                        "bone {i} ({:?}) {state} a {part}, which boneFlags {:#04x} says every bone {}",
                        bone.name,
                        flags.0,
                        if has { "lacks" } else { "has" }
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_blend(trailer: &Trailer, vertex_counts: &[usize], at: u64) -> Result<(), Error> {
    let Some(blend) = trailer.blend() else {
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
fn check_other_data_flags(other: u8, blocks: u8, at: u64) -> Result<(), Error> {
    if other & blocks != 0 {
        return Err(refuse(
            at,
            format!("other_data_flags {other:#04x} overlaps the block flags, which come from the blocks"),
        ));
    }
    Ok(())
}

/// Refuses a model whose arrays disagree with its flags and counts, naming the output offset.
pub(crate) fn check(model: &SeModel) -> Result<(), Error> {
    let spans = spans(model);
    match model {
        SeModel::Deployed(m) => {
            check_other_data_flags(m.other_data_flags, data::DEPLOYED_BLOCKS, 11)?;
            check_bones(&m.bones, m.bone_flags, &spans.bones)?;
            let has = |f| m.mesh_flags.contains(f);
            for (i, (mesh, s)) in m.meshes.items().iter().zip(&spans.meshes).enumerate() {
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
            }
            let counts: Vec<usize> = m.meshes.items().iter().map(|m| m.positions.len()).collect();
            check_blend(&m.trailer, &counts, spans.trailer)
        }
        SeModel::Draft(m) => {
            check_other_data_flags(m.other_data_flags, data::DRAFT_BLOCKS, 14)?;
            check_bones(&m.bones, m.bone_flags, &spans.bones)?;
            let args = m.mesh_args();
            for (i, (mesh, s)) in m.meshes.items().iter().zip(&spans.meshes).enumerate() {
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
                                "mesh {i}: {what} index {} does not fit the {width:?} field the header's count gives",
                                values[bad]
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
