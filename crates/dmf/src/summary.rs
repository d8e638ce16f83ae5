//! [`Summary`]: a DMF file's counts, as `animbin info` shows them, from the owned model
//! ([`FileFormat::summary`](animbin_core::FileFormat::summary)) or straight from the bytes
//! through the [`View`] ([`View::summary`]), which give the same summary for every file
//! that reads.

use serde::{Deserialize, Serialize};

use crate::model::Dmf;
use crate::view::View;

/// The summary of a DMF file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Textures (embedded PNGs).
    pub texture_count: usize,
    /// Materials.
    pub material_count: usize,
    /// Vertices.
    pub vertex_count: usize,
    /// Faces.
    pub face_count: usize,
    /// Bones.
    pub bone_count: usize,
    /// Animations.
    pub animation_count: usize,
    /// Tracks of all animations.
    pub track_count: usize,
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of_dmf(dmf: &Dmf) -> Self {
        Self {
            texture_count: dmf.textures.len(),
            material_count: dmf.materials.len(),
            vertex_count: dmf.vertices.len(),
            face_count: dmf.faces.len(),
            bone_count: dmf.bones.len(),
            animation_count: dmf.animations.len(),
            track_count: dmf.track_count(),
        }
    }
}

impl View<'_> {
    /// The summary of the viewed file: the records' counts (nothing is read per record).
    pub fn summary(&self) -> Summary {
        Summary {
            texture_count: self.textures().len(),
            material_count: self.materials().len(),
            vertex_count: self.vertices().len(),
            face_count: self.faces().len(),
            bone_count: self.bones().len(),
            animation_count: self.animations().len(),
            track_count: usize::try_from(self.track_count()).unwrap_or(usize::MAX),
        }
    }
}
