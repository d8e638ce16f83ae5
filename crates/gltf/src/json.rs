//! The subset of glTF 2.0's JSON schema that the writer emits, one struct per schema object.
//!
//! Reading goes through the `gltf` crate's complete schema; writing uses these small
//! structs so that every emitted member is visible here and optional members are left out
//! when unset (the Khronos validator then sees exactly what the writer meant).

use serde::Serialize;
use serde_json::Value;

/// Component type constants (`accessor.componentType`).
pub mod component {
    /// `UNSIGNED_BYTE`.
    pub const U8: u32 = 5121;
    /// `UNSIGNED_SHORT`.
    pub const U16: u32 = 5123;
    /// `UNSIGNED_INT`.
    pub const U32: u32 = 5125;
    /// `FLOAT`.
    pub const F32: u32 = 5126;
}

/// Buffer view targets (`bufferView.target`).
pub mod target {
    /// `ARRAY_BUFFER`: vertex attributes.
    pub const ARRAY_BUFFER: u32 = 34962;
    /// `ELEMENT_ARRAY_BUFFER`: indices.
    pub const ELEMENT_ARRAY_BUFFER: u32 = 34963;
}

/// The `f64` nearest to the shortest decimal that reads back as `x`.
///
/// Numbers are emitted through `serde_json::Value`, which holds `f64`; widening an `f32`
/// directly would print all 17 digits of its binary value (`0.10000000149011612`), while
/// this prints `0.1`, which a reader parses back to the same `f32`.
pub fn short(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The root object.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    /// Metadata.
    pub asset: Asset,
    /// The default scene.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scene: Option<usize>,
    /// Scenes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scenes: Vec<Scene>,
    /// Nodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<Node>,
    /// Meshes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub meshes: Vec<Mesh>,
    /// Skins.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skins: Vec<Skin>,
    /// Materials.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub materials: Vec<Material>,
    /// Textures.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<Texture>,
    /// Images.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Image>,
    /// Animations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub animations: Vec<Animation>,
    /// Accessors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accessors: Vec<Accessor>,
    /// Buffer views.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub buffer_views: Vec<BufferView>,
    /// Buffers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub buffers: Vec<Buffer>,
}

/// `asset`.
#[derive(Debug, Serialize)]
pub struct Asset {
    /// Always `"2.0"`.
    pub version: String,
    /// The tool that wrote the file.
    pub generator: String,
}

impl Default for Asset {
    fn default() -> Self {
        Self {
            version: "2.0".into(),
            generator: concat!("animbin ", env!("CARGO_PKG_VERSION")).into(),
        }
    }
}

/// `scene`.
#[derive(Debug, Serialize)]
pub struct Scene {
    /// The scene's name: the model's ([`animbin_core::scene::Scene::name`]), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The root nodes.
    pub nodes: Vec<usize>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

/// `node`.
#[derive(Debug, Default, Serialize)]
pub struct Node {
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Child nodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<usize>,
    /// The mesh on this node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<usize>,
    /// The skin of that mesh.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skin: Option<usize>,
    /// Translation (x, y, z).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f64; 3]>,
    /// Rotation quaternion (x, y, z, w).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<[f64; 4]>,
    /// Scale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f64; 3]>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

/// `mesh`.
#[derive(Debug, Serialize)]
pub struct Mesh {
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The primitives (animbin writes one).
    pub primitives: Vec<Primitive>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

/// `mesh.primitive`.
#[derive(Debug, Serialize)]
pub struct Primitive {
    /// Attribute name to accessor index.
    pub attributes: std::collections::BTreeMap<String, usize>,
    /// The index accessor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indices: Option<usize>,
    /// The material.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<usize>,
    /// The topology: 0 points, 4 triangles (the default, left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    /// Morph targets: per target, attribute name (`POSITION`, `NORMAL`) to the accessor of
    /// its offsets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<std::collections::BTreeMap<String, usize>>,
}

/// `skin`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Skin {
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The inverse bind matrices accessor (MAT4, one per joint).
    pub inverse_bind_matrices: usize,
    /// The common root of the joints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<usize>,
    /// The joint nodes.
    pub joints: Vec<usize>,
}

/// `material`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Material {
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The metallic-roughness parameters.
    pub pbr_metallic_roughness: PbrMetallicRoughness,
    /// The normal map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal_texture: Option<TextureInfo>,
    /// Whether back faces are drawn too.
    #[serde(skip_serializing_if = "is_false")]
    pub double_sided: bool,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

/// `material.pbrMetallicRoughness`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PbrMetallicRoughness {
    /// The base colour factor (linear RGBA).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_color_factor: Option<[f64; 4]>,
    /// The base colour texture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_color_texture: Option<TextureInfo>,
    /// The metalness factor.
    pub metallic_factor: f64,
}

/// `textureInfo`.
#[derive(Debug, Serialize)]
pub struct TextureInfo {
    /// The texture's index.
    pub index: usize,
}

/// `texture`.
#[derive(Debug, Serialize)]
pub struct Texture {
    /// The image.
    pub source: usize,
}

/// `image`: either a URI or a buffer view with a MIME type.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A relative URI (an external file name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// The buffer view holding the encoded image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_view: Option<usize>,
    /// The MIME type, required with `bufferView`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

/// `animation`. Its members are declared in their names' sorted order, as are those of the
/// other elements of the long arrays (accessors, buffer views): serialised straight, they
/// come out as a `Value` of them would (see `JsonText` in the crate root).
#[derive(Debug, Serialize)]
pub struct Animation {
    /// The channels.
    pub channels: Vec<Channel>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The samplers.
    pub samplers: Vec<Sampler>,
}

/// `animation.channel`.
#[derive(Debug, Serialize)]
pub struct Channel {
    /// The sampler's index.
    pub sampler: usize,
    /// The animated node and property.
    pub target: ChannelTarget,
}

/// `animation.channel.target`.
#[derive(Debug, Serialize)]
pub struct ChannelTarget {
    /// The node.
    pub node: usize,
    /// `translation`, `rotation`, `scale` or `weights`.
    pub path: &'static str,
}

/// `animation.sampler`.
#[derive(Debug, Serialize)]
pub struct Sampler {
    /// Key times in seconds.
    pub input: usize,
    /// `LINEAR` or `STEP`.
    pub interpolation: &'static str,
    /// Key values.
    pub output: usize,
}

/// `accessor`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accessor {
    /// The buffer view; absent for an accessor of zeros (perhaps with sparse values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_view: Option<usize>,
    /// The component type.
    pub component_type: u32,
    /// The number of elements.
    pub count: usize,
    /// Per-component maximum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Vec<f64>>,
    /// Per-component minimum (required for positions and animation inputs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Vec<f64>>,
    /// Whether integers map to [0, 1].
    #[serde(skip_serializing_if = "is_false")]
    pub normalized: bool,
    /// Elements that differ from the buffer view's (or from zero).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sparse: Option<Sparse>,
    /// `SCALAR`, `VEC2`, `VEC3`, `VEC4` or `MAT4`.
    #[serde(rename = "type")]
    pub kind: &'static str,
}

/// `accessor.sparse`: `count` elements replaced, at the indices of `indices`.
#[derive(Debug, Serialize)]
pub struct Sparse {
    /// The number of elements replaced.
    pub count: usize,
    /// Where the element indices (strictly increasing) are.
    pub indices: SparseIndices,
    /// Where the replacing elements are.
    pub values: SparseValues,
}

/// `accessor.sparse.indices`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SparseIndices {
    /// The buffer view of the indices.
    pub buffer_view: usize,
    /// Their component type (unsigned byte, short or int).
    pub component_type: u32,
}

/// `accessor.sparse.values`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SparseValues {
    /// The buffer view of the values, of the accessor's type and component type.
    pub buffer_view: usize,
}

/// `bufferView`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferView {
    /// The buffer.
    pub buffer: usize,
    /// Length in bytes.
    pub byte_length: usize,
    /// Offset into the buffer.
    pub byte_offset: usize,
    /// The intended GPU buffer type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
}

/// `buffer`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Buffer {
    /// Length in bytes.
    pub byte_length: usize,
    /// A `data:` URI (.gltf), or none for the GLB BIN chunk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}
