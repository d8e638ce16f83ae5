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
    /// Cameras.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cameras: Vec<Camera>,
    /// The extensions the file uses.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions_used: Vec<String>,
    /// The extensions a reader must know to load the file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions_required: Vec<String>,
    /// The root's extension objects (`KHR_lights_punctual`'s lights).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub extensions: serde_json::Map<String, Value>,
}

impl Root {
    /// Records that the file uses `extension` (once), and that a reader needs it when
    /// `required`.
    pub fn use_extension(&mut self, extension: &str, required: bool) {
        if !self.extensions_used.iter().any(|e| e == extension) {
            self.extensions_used.push(extension.to_string());
        }
        if required && !self.extensions_required.iter().any(|e| e == extension) {
            self.extensions_required.push(extension.to_string());
        }
    }
}

/// `camera`.
#[derive(Debug, Serialize)]
pub struct Camera {
    /// The name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `perspective` or `orthographic`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The perspective projection's parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perspective: Option<Value>,
    /// The orthographic projection's parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orthographic: Option<Value>,
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
    /// The camera on this node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camera: Option<usize>,
    /// Extension objects (`KHR_lights_punctual`'s light).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
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
    /// The primitives.
    pub primitives: Vec<Primitive>,
    /// The morph targets' weights when no animation drives them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<f64>>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
}

/// `mesh.primitive`.
#[derive(Debug, Clone, Serialize)]
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
    /// The inverse bind matrices accessor (MAT4, one per joint); each the identity when
    /// left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inverse_bind_matrices: Option<usize>,
    /// The common root of the joints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<usize>,
    /// The joint nodes.
    pub joints: Vec<usize>,
    /// Application data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<Value>,
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
    /// The occlusion map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occlusion_texture: Option<TextureInfo>,
    /// The emission map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emissive_texture: Option<TextureInfo>,
    /// The emitted colour (linear RGB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emissive_factor: Option<[f64; 3]>,
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
    /// The roughness factor; glTF's default (1) when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roughness_factor: Option<f64>,
    /// The metalness (blue) and roughness (green) map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metallic_roughness_texture: Option<TextureInfo>,
}

/// `textureInfo` (and the normal and occlusion texture infos, with their scale and
/// strength).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextureInfo {
    /// The texture's index.
    pub index: usize,
    /// The UV set it reads; 0 when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tex_coord: Option<u32>,
    /// A normal map's scale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    /// An occlusion map's strength.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<f64>,
    /// Extension objects (`KHR_texture_transform`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
}

impl TextureInfo {
    /// A texture info for texture `index`, reading UV set 0.
    pub fn of(index: usize) -> Self {
        Self {
            index,
            tex_coord: None,
            scale: None,
            strength: None,
            extensions: None,
        }
    }
}

/// `texture`.
#[derive(Debug, Serialize)]
pub struct Texture {
    /// The image, when glTF's core holds its type (PNG or JPEG).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<usize>,
    /// Extension objects (`EXT_texture_webp`'s source).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
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
