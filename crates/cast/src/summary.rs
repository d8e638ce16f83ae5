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
    /// The `up` of the first Metadata node under a Root (`x`, `y` or `z` in a valid file:
    /// the file's up axis), as stored; absent without one (CAST.md: hints come from the
    /// first Metadata node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub up_axis: Option<String>,
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
            up_axis_of(file),
        )
    }

    fn from_counts(
        root_count: usize,
        node_count: usize,
        counts: [usize; 6],
        flags: u32,
        up_axis: Option<String>,
    ) -> Self {
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
            up_axis,
        }
    }
}

/// The `up` string of the first Metadata node under a Root of `file`.
fn up_axis_of(file: &CastFile) -> Option<String> {
    let metadata = file
        .roots
        .iter()
        .filter(|root| root.is(NodeKind::Root))
        .flat_map(|root| root.children_of(NodeKind::Metadata))
        .next()?;
    metadata.value("up")?.as_str().map(str::to_string)
}

impl View<'_> {
    /// The file's [`Summary`], from the node headers (one pass over them; the one payload
    /// read is the first Metadata node's `up`). The view checks exactly what the reader does (reading is the view's walk and a
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
            self.up_axis(),
        )
    }

    /// The `up` string of the first Metadata node under a Root, as [`up_axis_of`] finds it.
    fn up_axis(&self) -> Option<String> {
        let metadata = self
            .roots()
            .filter(|root| root.kind() == Some(NodeKind::Root))
            .flat_map(|root| root.children().filter(|child| child.kind() == Some(NodeKind::Metadata)))
            .next()?;
        metadata.property("up")?.as_str().map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Node, Property};
    use crate::write::to_bytes;

    fn metadata(hash: u64, up: Option<&str>) -> Node {
        let mut properties = vec![Property::string("a", "animbin")];
        properties.extend(up.map(|up| Property::string("up", up.to_owned())));
        Node::with(NodeKind::Metadata, hash, properties, vec![])
    }

    /// The up axis of `roots`' file, from the model and from its bytes (which must agree).
    fn up_axis(roots: Vec<Node>) -> Option<String> {
        let file = CastFile { flags: 0, roots };
        let bytes = to_bytes(&file).unwrap();
        let from_view = View::parse(&bytes).unwrap().summary();
        let from_model = Summary::of_file(&file);
        assert_eq!(from_view, from_model);
        from_model.up_axis
    }

    #[test]
    fn the_up_axis_is_the_first_metadata_nodes() {
        let root = |children| Node::with(NodeKind::Root, 1, vec![], children);
        assert_eq!(up_axis(vec![root(vec![])]), None);
        assert_eq!(
            up_axis(vec![root(vec![metadata(2, Some("y")), metadata(3, Some("z"))])]),
            Some("y".into())
        );
        // The first Metadata node states none: no hint (a later node's is not used).
        assert_eq!(
            up_axis(vec![root(vec![metadata(2, None), metadata(3, Some("z"))])]),
            None
        );
        // Across roots, in file order; stored as written, even when not a documented value.
        assert_eq!(
            up_axis(vec![root(vec![]), root(vec![metadata(2, Some("Up"))])]),
            Some("Up".into())
        );
        // Metadata under a node that is not a Root is misplaced, not a hint.
        let model = Node::with(NodeKind::Model, 2, vec![], vec![metadata(3, Some("x"))]);
        assert_eq!(up_axis(vec![root(vec![model])]), None);
        let odd_top = Node::with(NodeKind::Model, 4, vec![], vec![metadata(5, Some("x"))]);
        assert_eq!(up_axis(vec![odd_top]), None);
    }
}
