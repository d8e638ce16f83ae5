//! [`Summary`]: an FBX file's counts, as `animbin info` shows them, read from its records
//! (no scene is built, so it is the same with or without the ufbx reader).

use serde::{Deserialize, Serialize};

use crate::node::{Document, Node};

/// The summary of an FBX file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The version from the header (7400 for FBX 7.4).
    pub version: u32,
    /// The `Creator` record, where the file has one.
    pub creator: Option<String>,
    /// `Model` objects (every node: bones, empties, meshes' models).
    pub node_count: usize,
    /// `Model` objects of sub-class `LimbNode` (bones).
    pub bone_count: usize,
    /// `Geometry` objects of sub-class `Mesh`.
    pub mesh_count: usize,
    /// `Material` objects.
    pub material_count: usize,
    /// `Video` objects that embed their image (`Content`).
    pub embedded_image_count: usize,
    /// `Deformer` objects of sub-class `Skin`.
    pub skin_count: usize,
    /// `Deformer` objects of sub-class `BlendShapeChannel`.
    pub blend_shape_channel_count: usize,
    /// `AnimationStack` objects.
    pub animation_count: usize,
    /// The animation stacks' names, in file order.
    pub animations: Vec<String>,
    /// `AnimationCurve` objects.
    pub curve_count: usize,
}

/// The name of an object record (`name\0\x01Class` in binary files): the part before the
/// separator.
pub(crate) fn object_name(node: &Node) -> String {
    let full = node.properties.get(1).and_then(|p| p.as_str()).unwrap_or("");
    full.split("\0\u{1}").next().unwrap_or("").to_string()
}

/// The sub-class of an object record (its third property: `LimbNode`, `Mesh`...).
pub(crate) fn subclass(node: &Node) -> &str {
    node.properties.get(2).and_then(|p| p.as_str()).unwrap_or("")
}

impl Summary {
    /// The summary of a file's records.
    pub fn of(document: &Document) -> Self {
        let objects: &[Node] = document.node("Objects").map_or(&[], |o| &o.children);
        let count = |record: &str, class: Option<&str>| {
            objects
                .iter()
                .filter(|n| n.name == record && class.is_none_or(|c| subclass(n) == c))
                .count()
        };
        let animations = objects
            .iter()
            .filter(|n| n.name == "AnimationStack")
            .map(object_name)
            .collect::<Vec<_>>();
        Self {
            version: document.version,
            creator: document
                .node("Creator")
                .and_then(|n| n.properties.first())
                .and_then(|p| p.as_str())
                .map(str::to_string),
            node_count: count("Model", None),
            bone_count: count("Model", Some("LimbNode")),
            mesh_count: count("Geometry", Some("Mesh")),
            material_count: count("Material", None),
            embedded_image_count: objects
                .iter()
                .filter(|n| n.name == "Video" && n.child("Content").is_some_and(|c| !c.properties.is_empty()))
                .count(),
            skin_count: count("Deformer", Some("Skin")),
            blend_shape_channel_count: count("Deformer", Some("BlendShapeChannel")),
            animation_count: animations.len(),
            animations,
            curve_count: count("AnimationCurve", None),
        }
    }
}
