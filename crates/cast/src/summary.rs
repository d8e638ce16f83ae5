//! [`Summary`]: a Cast file's counts and header fields, as `animbin info` shows them, from
//! the owned model ([`FileFormat::summary`](animbin_core::FileFormat::summary)) or straight
//! from the bytes ([`View::summary`]), which give the same summary for every file that reads.

use serde::{Deserialize, Serialize};

use crate::layout::NodeKind;
use crate::model::CastFile;
use crate::view::View;

/// The summary of a Cast file. Counts are by node id wherever the node sits (under an
/// unknown node or a wrong parent too), so they are defined for every file that reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Top-level nodes (the header's `rootCount`).
    pub root_count: usize,
    /// Nodes at any depth, known ids or not.
    pub node_count: usize,
    /// Model nodes.
    pub model_count: usize,
    /// Mesh nodes.
    pub mesh_count: usize,
    /// Bone nodes (the bones of animation skeletons included).
    pub bone_count: usize,
    /// Animation nodes.
    pub animation_count: usize,
    /// Curve nodes.
    pub curve_count: usize,
    /// Material nodes.
    pub material_count: usize,
    /// The header's reserved `flags`.
    pub flags: u32,
}

/// The node types a [`Summary`] counts, in the order of its fields.
const COUNTED: [NodeKind; 6] = [
    NodeKind::Model,
    NodeKind::Mesh,
    NodeKind::Bone,
    NodeKind::Animation,
    NodeKind::Curve,
    NodeKind::Material,
];

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of_file(file: &CastFile) -> Self {
        Self::from_counts(
            file.roots.len(),
            file.node_count(),
            COUNTED.map(|kind| file.count(kind)),
            file.flags,
        )
    }

    fn from_counts(root_count: usize, node_count: usize, counts: [usize; 6], flags: u32) -> Self {
        let [
            model_count,
            mesh_count,
            bone_count,
            animation_count,
            curve_count,
            material_count,
        ] = counts;
        Self {
            root_count,
            node_count,
            model_count,
            mesh_count,
            bone_count,
            animation_count,
            curve_count,
            material_count,
            flags,
        }
    }
}

impl View<'_> {
    /// The file's [`Summary`], from the node headers alone (one pass over them, no payload
    /// read). The view checks exactly what the reader does (reading is the view's walk and a
    /// copy of each payload), so this is the summary of the model [`crate::read`] gives.
    pub fn summary(&self) -> Summary {
        let mut counts = [0usize; 6];
        for node in self.nodes() {
            if let Some(k) = COUNTED.iter().position(|&kind| kind.id() == node.id()) {
                counts[k] += 1;
            }
        }
        Summary::from_counts(
            self.header().root_count as usize,
            self.node_count(),
            counts,
            self.flags(),
        )
    }
}
