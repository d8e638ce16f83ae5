//! [`Summary`]: the counts of an SEModel file, from the owned model or straight from a
//! deployed-layout [`View`], the same either way.

use animbin_core::seblend::Trailer;
use serde::{Deserialize, Serialize};

use crate::layout::Layout;
use crate::layout::blend::BlendShapes;
use crate::model::SeModel;
use crate::view::View;

/// The summary of an SEModel file, as `animbin info` shows it: its layout and counts,
/// without the bulk data.
///
/// Built from the owned model ([`animbin_core::FileFormat::summary`]) or from a zero-copy
/// [`View`] of a deployed-layout file ([`View::summary`]); both give the same summary of the
/// same file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// `"deployed"` (what every tool writes) or `"draft"` (the seed's layout).
    pub layout: String,
    /// Bones.
    pub bone_count: u64,
    /// Meshes.
    pub mesh_count: u64,
    /// Materials.
    pub material_count: u64,
    /// Vertices of all meshes.
    pub vertex_count: u64,
    /// Faces of all meshes.
    pub face_count: u64,
    /// Shapes of an SEBlend trailer.
    pub blend_shape_count: usize,
    /// Bytes after the last block that are not an SEBlend trailer.
    pub trailing_bytes: usize,
}

/// The SEBlend shapes and the unknown trailing bytes of a trailer.
fn trailer_counts(trailer: &Trailer<BlendShapes>) -> (usize, usize) {
    match trailer {
        Trailer::None => (0, 0),
        Trailer::SeBlend(b) => (b.names.len(), 0),
        Trailer::Unknown(bytes) => (0, bytes.len()),
    }
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of(model: &SeModel) -> Self {
        let (blend_shape_count, trailing_bytes) = trailer_counts(model.trailer());
        Self {
            layout: model.layout().name().to_string(),
            bone_count: model.bone_count(),
            mesh_count: model.mesh_count(),
            material_count: model.material_count(),
            vertex_count: model.vertex_count(),
            face_count: model.face_count(),
            blend_shape_count,
            trailing_bytes,
        }
    }
}

impl View<'_> {
    /// The summary of the file, without copying its vertex data: the same as the model's
    /// ([`animbin_core::FileFormat::summary`]). Only an SEBlend trailer is parsed.
    pub fn summary(&self) -> Summary {
        let (blend_shape_count, trailing_bytes) = trailer_counts(&self.trailer());
        let (header, meshes) = (self.header(), self.meshes());
        // The header's counts, as the owned model reports them (a count may stand without
        // its block, which validate reports).
        Summary {
            layout: Layout::Deployed.name().to_string(),
            bone_count: u64::from(header.bone_count.get()),
            mesh_count: u64::from(header.mesh_count.get()),
            material_count: u64::from(header.material_count.get()),
            vertex_count: meshes.iter().map(|m| m.vertex_count() as u64).sum(),
            face_count: meshes.iter().map(|m| m.faces().len() as u64).sum(),
            blend_shape_count,
            trailing_bytes,
        }
    }
}
