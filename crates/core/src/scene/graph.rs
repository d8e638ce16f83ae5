//! What a node of the scene graph carries besides its transform: the meshes it places, the
//! skins that bind meshes to nodes, cameras and lights, and the texture links of materials.
//!
//! The nodes themselves are [`Skeleton::bones`](super::Skeleton::bones): a bone is a node
//! whose [`NodeKind`] is [`NodeKind::Bone`], and a graph format (glTF) adds plain nodes
//! ([`NodeKind::Plain`]) beside them, an empty, an `Armature` object or the node of a camera.
//! Everything here names nodes by their index in that list.

use serde::{Deserialize, Serialize};

use crate::math::Mat4;

/// What a node of [`Skeleton::bones`](super::Skeleton::bones) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A bone of the skeleton: what every game format's nodes are, and a joint of a glTF
    /// skin.
    #[default]
    Bone,
    /// A node that is not a bone: an empty, the object above an armature, or the node that
    /// places a mesh, a camera or a light (glTF nodes that are no skin's joint).
    Plain,
}

impl NodeKind {
    /// Whether this is [`NodeKind::Bone`], the default.
    pub fn is_bone(&self) -> bool {
        *self == Self::Bone
    }
}

/// Meshes drawn where a node is (a glTF node's `mesh`).
///
/// A mesh that no instance places is in model space, as every game format keeps its meshes;
/// a mesh placed by an instance is in its node's space, unless it is skinned (its vertices are
/// then in the space its skin binds them in, and the node only says where it is listed).
/// Two instances of the same meshes draw them twice.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MeshInstance {
    /// The node, an index into [`Skeleton::bones`](super::Skeleton::bones).
    pub node: usize,
    /// The meshes, indices into [`Scene::meshes`](super::Scene::meshes): the primitives of
    /// one glTF mesh.
    pub meshes: Vec<usize>,
    /// The name of the group of meshes (a glTF mesh's name); empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// A skin: the nodes a mesh's weights name, and the exact inverse bind matrix of each (a glTF
/// skin).
///
/// A mesh's [`SkinWeights`](super::SkinWeights) name nodes directly; a skin says how they
/// were bound. Without one, each bone's [`Bone::global`](super::Bone::global) is its bind
/// pose, which is what the game formats store.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Skin {
    /// The skin's name; empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The joints, indices into [`Skeleton::bones`](super::Skeleton::bones).
    pub joints: Vec<usize>,
    /// One matrix per joint, as the file holds it (scale and shear included): it takes a
    /// bound vertex into the joint's space. Empty where the file gives none (each is the
    /// identity).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inverse_bind_matrices: Vec<Mat4<f64>>,
    /// The node the skin's joints hang from, where the file names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<usize>,
}

/// A camera placed by a node, looking down the node's -Z with +Y up (glTF's convention).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// The camera's name; empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The node that places it, an index into [`Skeleton::bones`](super::Skeleton::bones).
    pub node: usize,
    /// How it projects.
    pub projection: Projection,
}

/// How a [`Camera`] projects the scene.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Projection {
    /// A perspective projection.
    Perspective {
        /// The vertical field of view, in radians.
        yfov: f64,
        /// Width over height; `None` leaves it to the viewport.
        aspect_ratio: Option<f64>,
        /// The near clipping distance.
        znear: f64,
        /// The far clipping distance; `None` for an infinite projection.
        zfar: Option<f64>,
    },
    /// An orthographic projection.
    Orthographic {
        /// Half the view's width.
        xmag: f64,
        /// Half the view's height.
        ymag: f64,
        /// The near clipping distance.
        znear: f64,
        /// The far clipping distance.
        zfar: f64,
    },
}

/// A light placed by a node, shining down the node's -Z (glTF's `KHR_lights_punctual`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// The light's name; empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The node that places it, an index into [`Skeleton::bones`](super::Skeleton::bones).
    pub node: usize,
    /// What kind of light it is.
    pub kind: LightKind,
    /// Linear RGB.
    pub color: [f64; 3],
    /// Candela for point and spot lights, lux for directional ones.
    pub intensity: f64,
    /// How far the light reaches; `None` for no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<f64>,
}

/// The kinds of [`Light`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LightKind {
    /// Parallel rays, as from the sun.
    Directional,
    /// Every direction from a point.
    Point,
    /// A cone from a point.
    Spot {
        /// Where the fall-off starts, in radians from the axis.
        inner_cone_angle: f64,
        /// Where the light ends, in radians from the axis.
        outer_cone_angle: f64,
    },
}

/// The texture slots of a physically based material (glTF's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureSlot {
    /// The base (albedo) colour.
    BaseColor,
    /// The tangent-space normal map.
    Normal,
    /// Metalness in blue, roughness in green.
    MetallicRoughness,
    /// Ambient occlusion in red.
    Occlusion,
    /// Emitted light.
    Emissive,
}

impl TextureSlot {
    /// Every slot, in glTF's order.
    pub const ALL: [Self; 5] = [
        Self::BaseColor,
        Self::Normal,
        Self::MetallicRoughness,
        Self::Occlusion,
        Self::Emissive,
    ];

    /// The slot's name as reports and the Python package say it: `"base_color"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::BaseColor => "base_color",
            Self::Normal => "normal",
            Self::MetallicRoughness => "metallic_roughness",
            Self::Occlusion => "occlusion",
            Self::Emissive => "emissive",
        }
    }
}

/// An image used in a material's slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextureLink {
    /// The slot.
    pub slot: TextureSlot,
    /// The image, an index into [`Scene::textures`](super::Scene::textures).
    pub texture: usize,
    /// The UV layer it reads (glTF's `texCoord`).
    #[serde(default)]
    pub uv_layer: u32,
    /// The normal map's scale or the occlusion's strength; `None` where the source states none
    /// (1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<f64>,
    /// An offset, rotation and scale of the UVs (`KHR_texture_transform`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<UvTransform>,
}

/// How a texture's UVs are moved before it is sampled (`KHR_texture_transform`): scaled,
/// then rotated, then offset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UvTransform {
    /// Added to the UVs last.
    pub offset: [f64; 2],
    /// Counter-clockwise, in radians.
    pub rotation: f64,
    /// Multiplies the UVs first.
    pub scale: [f64; 2],
    /// The UV layer used instead of the link's, where the extension names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uv_layer: Option<u32>,
}
