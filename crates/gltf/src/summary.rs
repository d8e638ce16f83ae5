//! [`Summary`]: a glTF file's counts and header fields, as `animbin info` shows them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::file::GltfFile;
use crate::repack::split;

/// The summary of a glTF file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// `"gltf"` (JSON) or `"glb"` (binary).
    pub container: String,
    /// `asset.version`.
    pub version: Option<String>,
    /// `asset.generator`.
    pub generator: Option<String>,
    /// Nodes.
    pub node_count: usize,
    /// Meshes.
    pub mesh_count: usize,
    /// Primitives of all meshes.
    pub primitive_count: usize,
    /// Skins.
    pub skin_count: usize,
    /// Joints of all skins.
    pub joint_count: usize,
    /// Materials.
    pub material_count: usize,
    /// Images.
    pub image_count: usize,
    /// Animations.
    pub animation_count: usize,
    /// Channels of all animations.
    pub channel_count: usize,
    /// Bytes of the GLB BIN chunk.
    pub bin_bytes: usize,
}

impl Summary {
    /// The summary of a file that reads: its JSON's arrays counted, its `asset` read.
    pub(crate) fn of_file(file: &GltfFile) -> Self {
        let (json, bin) = split(&file.bytes).unwrap_or((Value::Null, None));
        let count = |member: &str| json.get(member).and_then(Value::as_array).map_or(0, Vec::len);
        let sum = |member: &str, inner: &str| {
            json.get(member)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|item| item.get(inner).and_then(Value::as_array).map_or(0, Vec::len))
                .sum::<usize>()
        };
        let asset = |field: &str| json["asset"].get(field).and_then(Value::as_str).map(str::to_string);
        Self {
            container: file.container.name().to_string(),
            version: asset("version"),
            generator: asset("generator"),
            node_count: count("nodes"),
            mesh_count: count("meshes"),
            primitive_count: sum("meshes", "primitives"),
            skin_count: count("skins"),
            joint_count: sum("skins", "joints"),
            material_count: count("materials"),
            image_count: count("images"),
            animation_count: count("animations"),
            channel_count: sum("animations", "channels"),
            bin_bytes: bin.map_or(0, |b| b.len()),
        }
    }
}
