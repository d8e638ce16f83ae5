//! Where everything of a model lies in its file. SEModel has no offsets or padding: the
//! layout follows from the flags and counts, so the offsets can be recomputed from a model.
//! [`crate::validate()`] uses them to name the byte of each problem, and the writer to refuse
//! (before writing) a model whose arrays disagree with its flags and counts, at the byte.

use animbin_core::IndexWidth;

use crate::layout::block::Block;
use crate::layout::bone::Bone;
use crate::layout::draft::{self, VertexLayout};
use crate::layout::flags::{BoneFlags, MeshFlags};
use crate::layout::{Layout, deployed};
use crate::model::SeModel;

/// The bone block's place.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoneSpans {
    /// Where the first name starts.
    pub names: u64,
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
    /// Where the material block starts (deployed layout; the draft has none).
    pub materials: u64,
    pub trailer: u64,
}

fn bone_spans(names: u64, bones: &Block<Bone>, flags: BoneFlags) -> (BoneSpans, u64) {
    let at = names + bones.items().iter().map(|b| b.name.len() as u64 + 1).sum::<u64>();
    let spans = BoneSpans {
        names,
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
    let materials = at;
    for material in m.materials.items() {
        at += material.name.len() as u64 + 2;
        if let Some(maps) = &material.maps {
            at += (maps.diffuse.len() + maps.normal.len() + maps.specular.len()) as u64 + 3;
        }
    }
    Spans {
        bones,
        meshes,
        materials,
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
        materials: at,
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
