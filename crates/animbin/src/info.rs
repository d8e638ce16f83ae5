//! [`Info`]: a summary of a document, typed per format, as `animbin info --json` prints it.

use serde::{Deserialize, Serialize};

/// A summary of a document: counts and header fields, without the bulk data.
///
/// Serialised (serde) it is one JSON object whose `format` member names the format,
/// followed by that format's fields, exactly what `animbin info --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Info {
    /// An SEAnim file.
    SeAnim(SeAnimInfo),
    /// An SEModel file.
    SeModel(SeModelInfo),
    /// An AnimX or AnimJ file.
    AnimX(AnimXInfo),
    /// A Shining Force III x8an file.
    Sf3(Sf3Info),
    /// A DMF file.
    Dmf(DmfInfo),
    /// A glTF file.
    Gltf(GltfInfo),
    /// A Cast file.
    Cast(CastInfo),
}

/// The summary of an SEAnim file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeAnimInfo {
    /// The header's `frameCount`; `None` when the keys need more frames than it can count.
    pub frame_count: Option<u32>,
    /// Frames per second (`None` for NaN or infinity, which JSON cannot hold).
    pub framerate: Option<f64>,
    /// Bones with keys.
    pub bone_count: usize,
    /// Notes.
    pub note_count: usize,
    /// Key values are `f64` (`SEANIM_PRECISION_HIGH`).
    pub high_precision: bool,
    /// `"absolute"`, `"additive"`, `"relative"` or `"delta"`.
    pub anim_type: String,
    /// The animation loops.
    pub looped: bool,
    /// Bones whose animation type is overridden.
    pub modifier_count: usize,
    /// The width of frame indices in bytes (1, 2 or 4).
    pub frame_width: Option<u64>,
    /// Bytes of the custom data block.
    pub custom_size: usize,
    /// `"none"`, `"seblend"` or `"unknown"`.
    pub trailer: String,
    /// Shapes of an SEBlend trailer.
    pub blend_shape_count: usize,
}

/// The summary of an SEModel file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeModelInfo {
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

/// The summary of an AnimX or AnimJ file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnimXInfo {
    /// The format version (0 or 1).
    pub version: i32,
    /// `"plain"`, `"lz4"` or `"lzma"`.
    pub encoding: String,
    /// Tracks.
    pub track_count: usize,
    /// Keyframes (or raw values) of all tracks.
    pub keyframe_count: u64,
    /// The global duration in seconds.
    pub duration: f32,
    /// The animation's name.
    pub name: String,
}

/// The summary of a Shining Force III x8an file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sf3Info {
    /// Segments (one animation each).
    pub segment_count: usize,
    /// Slots of all segments (one bone each).
    pub slot_count: u64,
    /// Translation keys of all slots.
    pub translation_key_count: u64,
    /// Rotation keys of all slots.
    pub rotation_key_count: u64,
    /// Scale keys of all slots.
    pub scale_key_count: u64,
    /// All keys.
    pub key_count: u64,
    /// Zero words between and after segments.
    pub padding_words: u64,
    /// The file ends with the `0xFFFFFFFF` end marker.
    pub end_marker: bool,
}

/// The summary of a DMF file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DmfInfo {
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

/// The summary of a glTF file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GltfInfo {
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

/// The summary of a Cast file. Counts are by node id wherever the node sits (under an
/// unknown node or a wrong parent too), so they are defined for every file that reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CastInfo {
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
