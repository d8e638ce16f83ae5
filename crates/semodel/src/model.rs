//! The owned model: a file in either layout.

use animbin_core::seblend::Trailer;
use serde::{Deserialize, Serialize};

use crate::layout::blend::BlendShapes;
use crate::layout::bone::Bone;
use crate::layout::{Layout, deployed, draft};

/// An SEModel file in either layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "layout", content = "model", rename_all = "snake_case")]
pub enum SeModel {
    /// The deployed layout (`headerSize` 0x14).
    Deployed(deployed::Model),
    /// The draft layout of the original specification (`headerSize` 0x1E).
    Draft(draft::Model),
}

impl Default for SeModel {
    fn default() -> Self {
        Self::Deployed(deployed::Model::default())
    }
}

impl SeModel {
    /// The file's layout.
    pub fn layout(&self) -> Layout {
        match self {
            Self::Deployed(_) => Layout::Deployed,
            Self::Draft(_) => Layout::Draft,
        }
    }

    /// The bones (none when the bone block is absent).
    pub fn bones(&self) -> &[Bone] {
        match self {
            Self::Deployed(m) => m.bones.items(),
            Self::Draft(m) => m.bones.items(),
        }
    }

    /// The header's `boneCount`.
    pub fn bone_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.bones.header_count(),
            Self::Draft(m) => m.bones.header_count(),
        }
    }

    /// The header's `meshCount`.
    pub fn mesh_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.meshes.header_count(),
            Self::Draft(m) => m.meshes.header_count(),
        }
    }

    /// The header's `matCount`.
    pub fn material_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.materials.header_count(),
            Self::Draft(m) => u64::from(m.material_count),
        }
    }

    /// The number of vertices over all meshes.
    pub fn vertex_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.meshes.items().iter().map(|m| m.positions.len() as u64).sum(),
            Self::Draft(m) => m.meshes.items().iter().map(|m| m.vertices.positions.len() as u64).sum(),
        }
    }

    /// The number of triangles over all meshes.
    pub fn face_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.meshes.items().iter().map(|m| m.faces.len() as u64).sum(),
            Self::Draft(m) => m.meshes.items().iter().map(|m| m.faces.len() as u64).sum(),
        }
    }

    /// What follows the last block.
    pub fn trailer(&self) -> &Trailer<BlendShapes> {
        match self {
            Self::Deployed(m) => &m.trailer,
            Self::Draft(m) => &m.trailer,
        }
    }
}
