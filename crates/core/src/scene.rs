//! The neutral scene model that every conversion goes through.
//!
//! Conventions, which every format crate converts to and from:
//! - times are in **frames** (`f64`), with the animation's `framerate` in frames per second,
//!   so integer-frame formats round-trip exactly and second-based formats multiply;
//! - quaternions are x, y, z, w, unit length, rotating column vectors;
//! - transforms are local to the parent bone unless a field says global;
//! - the coordinate system is the source's: no axis or handedness change happens here
//!   (each format crate's docs state its own axes, and conversions say what they change);
//! - key values are read as `f64` but held as the file held them: a channel whose keys are
//!   all exactly `f32`s costs what the file's keys cost (see [`Keys`]).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::math::{Quat, Rgba, Rgba8, Transform, Vec2, Vec3};

mod curves;
mod graph;
mod keys;
mod rig;
pub use curves::{ChannelCurves, Curve, Tangents};
pub use graph::{
    Camera, Light, LightKind, MeshInstance, NodeKind, Projection, Skin, TextureLink, TextureSlot, UvTransform,
};
pub use keys::{KeyColumn, KeySlices, KeySpan, KeyValue, Keys, KeysIter, key_span};

/// A whole scene: a graph of nodes (bones among them) that place meshes, cameras and lights,
/// with skins, materials, images, animations of any node and of morph weights, and (from
/// Cast) hair and instances of other scene files.
///
/// The game formats see a rig: [`Scene::skeleton`] is their bones, their meshes are in model
/// space (no [`Scene::mesh_instances`]) and bound by each bone's global bind pose (no
/// [`Scene::skins`]), and their animations are bone tracks. A graph format (glTF) fills in
/// the rest: plain nodes ([`NodeKind::Plain`]) beside the bones in the same list, meshes
/// placed by nodes, skins with exact inverse bind matrices, cameras and lights. The rig is a
/// view of the graph, not a second model: a bone track animates the node of its name,
/// whatever its kind.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Scene {
    /// The nodes (bones, and plain nodes from graph formats), parents before children where
    /// the source allows it.
    pub skeleton: Skeleton,
    /// Meshes placed by nodes; a mesh no instance lists is in model space.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mesh_instances: Vec<MeshInstance>,
    /// Skins with the exact inverse bind matrices of their joints, which meshes name in
    /// [`SkinWeights::skin`]; a mesh without one is bound by the bones' global bind poses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skins: Vec<Skin>,
    /// Cameras, each placed by a node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cameras: Vec<Camera>,
    /// Lights, each placed by a node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lights: Vec<Light>,
    /// Triangle meshes.
    pub meshes: Vec<Mesh>,
    /// Materials, referred to by index from meshes.
    pub materials: Vec<Material>,
    /// Embedded images (DMF carries PNGs, glTF PNG, JPEG or WebP), referred to by index from
    /// materials.
    pub textures: Vec<Texture>,
    /// Animations, whose bone tracks name bones of this or another skeleton.
    pub animations: Vec<Animation>,
    /// Where the whole model sits in the world: the skeleton's roots and the meshes are placed
    /// by this transform (Cast: a Model node's `p`, `r`, `s`). Identity for formats that have
    /// no model node.
    #[serde(default)]
    pub placement: Transform,
    /// The model's name where the source has one (Cast: a Model node's `n`); empty otherwise.
    /// Tools name what they build from the model after it (the Blender extension's armature
    /// and meshes) rather than after the file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Hair: strands of line segments through particles (Cast's Hair nodes), beside the
    /// meshes and placed with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hairs: Vec<Hair>,
    /// Other scene files placed in this one (Cast's Instance nodes), kept as references: the
    /// referenced files are not read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<Instance>,
}

impl Scene {
    /// Per mesh, whether its vertices are in a node's space: the mesh is placed by an
    /// instance and not skinned (a skinned mesh's vertices are in the space its skin binds
    /// them in, whatever node lists it).
    pub fn meshes_in_node_space(&self) -> Vec<bool> {
        let mut placed = vec![false; self.meshes.len()];
        for instance in &self.mesh_instances {
            for &m in &instance.meshes {
                if let Some(mesh) = self.meshes.get(m) {
                    placed[m] = mesh.skin.is_none();
                }
            }
        }
        placed
    }
}

/// A bone hierarchy.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Skeleton {
    /// The bones; `parent` indices point into this list.
    pub bones: Vec<Bone>,
    /// Inverse-kinematics chains (Cast's IKHandle nodes), naming bones by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ik_handles: Vec<IkHandle>,
    /// Bones that follow other bones' translation, rotation or scale (Cast's Constraint
    /// nodes), naming bones by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<Constraint>,
}

/// An inverse-kinematics chain from a start bone down to an end bone, which a solver turns so
/// that the end bone reaches a target (Cast's IKHandle; Blender's IK constraint on the end
/// bone, with the chain's length). Bone fields are indices into [`Skeleton::bones`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct IkHandle {
    /// The handle's name; empty where the source has none.
    #[serde(default)]
    pub name: String,
    /// The first (top) bone of the chain.
    pub start: usize,
    /// The last bone of the chain, which reaches for the target; a descendant of `start`.
    pub end: usize,
    /// The bone the chain reaches for.
    #[serde(default)]
    pub target: Option<usize>,
    /// An offset from the target (Cast's `to`); `None` where the source states none.
    #[serde(default)]
    pub target_offset: Option<Vec3<f64>>,
    /// The bone the chain's bend points towards (a pole vector).
    #[serde(default)]
    pub pole_vector: Option<usize>,
    /// The bone whose rotation twists the chain about its axis (Cast's `pb`).
    #[serde(default)]
    pub pole: Option<usize>,
    /// The end bone also takes the target's rotation.
    #[serde(default)]
    pub use_target_rotation: bool,
}

/// What a [`Constraint`] copies from its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintKind {
    /// The translation (Cast `pt`, Maya's point constraint, Blender's copy location).
    #[default]
    Point,
    /// The rotation (Cast `or`, Maya's orient constraint, Blender's copy rotation).
    Orient,
    /// The scale (Cast `sc`, Blender's copy scale).
    Scale,
}

impl ConstraintKind {
    /// Cast's `ct` name: `"pt"`, `"or"` or `"sc"`.
    pub const fn cast_name(self) -> &'static str {
        match self {
            Self::Point => "pt",
            Self::Orient => "or",
            Self::Scale => "sc",
        }
    }

    /// The kind of Cast's `ct` name, or `None` for another string.
    pub fn from_cast_name(name: &str) -> Option<Self> {
        [Self::Point, Self::Orient, Self::Scale]
            .into_iter()
            .find(|k| k.cast_name() == name)
    }
}

/// A constraint's fixed offset from its target: a vector for point and scale constraints, a
/// rotation for orient constraints (Cast's `co`, `3v` or `4v`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintOffset {
    /// A translation (point) or a scale factor (scale).
    Vector(Vec3<f64>),
    /// A rotation, x, y, z, w (orient).
    Rotation(Quat<f64>),
}

/// A bone that copies its target bone's translation, rotation or scale (Cast's Constraint).
/// Bone fields are indices into [`Skeleton::bones`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Constraint {
    /// The constraint's name; empty where the source has none.
    #[serde(default)]
    pub name: String,
    /// What it copies.
    pub kind: ConstraintKind,
    /// The constrained bone, which follows.
    pub bone: usize,
    /// The bone it follows.
    pub target: usize,
    /// Keep the offset between the two bones in the bind pose.
    #[serde(default)]
    pub maintain_offset: bool,
    /// A fixed offset added to what is copied; `None` where the source states none (zero,
    /// identity, or a scale of one).
    #[serde(default)]
    pub offset: Option<ConstraintOffset>,
    /// How much of the target's value is taken, 0 to 1; `None` where the source states none
    /// (1).
    #[serde(default)]
    pub weight: Option<f64>,
    /// Axes left alone: x, y, z.
    #[serde(default)]
    pub skip: [bool; 3],
}

/// One bone of a skeleton with its bind pose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bone {
    /// The bone's name, which animations use to find it.
    pub name: String,
    /// The parent's index in [`Skeleton::bones`], or `None` for a root.
    pub parent: Option<usize>,
    /// The bind pose relative to the parent.
    pub local: Transform,
    /// The bind pose in model space.
    pub global: Transform,
    /// A cosmetic bone (SE formats flag these: attachments that a game may skip).
    pub cosmetic: bool,
    /// The bone does not inherit its parent's scale (Cast's `ssc`, Maya's segment scale
    /// compensate, Blender's inherit-scale `NONE`): the parent's scale still moves the bone's
    /// position (its translation is in the parent's scaled space), but not its rotation or
    /// scale. `false` is full inheritance, what SEModel and glTF do.
    #[serde(default)]
    pub scale_compensate: bool,
    /// The scale that absolute scale keys are measured against (Cast's `s`; (1, 1, 1) for
    /// every other format): not part of the rest pose (`local` and `global` carry no part of
    /// it, so it never stretches children's offsets), but an absolute scale key equal to it
    /// leaves the bone as at rest. Kept as the file has it, with the keys as the file has
    /// them; a pose divides absolute scale keys by it ([`crate::pose::apply_scale`]), and a
    /// target without the concept gets it folded into the keys
    /// ([`crate::pose::fold_rest_scales`]).
    #[serde(default = "unit_scale")]
    pub rest_scale: Vec3<f64>,
    /// Whether the node is a bone or a plain node (an empty, the node of a mesh, camera or
    /// light); every node of a game format is a bone.
    #[serde(default, skip_serializing_if = "NodeKind::is_bone")]
    pub kind: NodeKind,
}

/// (1, 1, 1), the rest scale of a bone whose format has none.
fn unit_scale() -> Vec3<f64> {
    Vec3::ONE
}

impl Skeleton {
    /// The index of the bone called `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// Recomputes every bone's global transform from the local ones, parents first.
    ///
    /// Parents that point past the list, at the bone itself or into a cycle are treated as
    /// roots, so this never loops.
    pub fn update_globals(&mut self) {
        for i in self.resolve_order() {
            let global = match self.bones[i].parent.filter(|&p| p < self.bones.len() && p != i) {
                Some(p) => crate::math::compose(
                    self.bones[p].global,
                    self.bones[i].local,
                    self.bones[i].scale_compensate,
                ),
                None => self.bones[i].local,
            };
            self.bones[i].global = global;
        }
    }

    /// Recomputes every bone's local transform from the global ones.
    pub fn update_locals(&mut self) {
        for i in 0..self.bones.len() {
            let local = match self.bones[i].parent.filter(|&p| p < self.bones.len() && p != i) {
                Some(p) => crate::math::decompose(
                    self.bones[p].global,
                    self.bones[i].global,
                    self.bones[i].scale_compensate,
                ),
                None => self.bones[i].global,
            };
            self.bones[i].local = local;
        }
    }

    /// Bone indices ordered so that each valid parent comes before its children; bones
    /// caught in a cycle come last, in index order. Linear in the bones, however deep the
    /// hierarchy ([`crate::hierarchy::parents_first`] gives the exact order).
    pub fn resolve_order(&self) -> Vec<usize> {
        crate::hierarchy::parents_first(&self.parents())
    }

    /// Each bone's parent index, as [`crate::hierarchy`] takes it.
    pub fn parents(&self) -> Vec<Option<usize>> {
        self.bones.iter().map(|b| b.parent).collect()
    }

    /// Each bone name's index: the first bone of that name, as [`Skeleton::find`] finds it,
    /// for callers that look up many names (one per animation track).
    pub fn indices_by_name(&self) -> std::collections::HashMap<&str, usize> {
        let mut by_name = std::collections::HashMap::with_capacity(self.bones.len());
        for (i, bone) in self.bones.iter().enumerate() {
            by_name.entry(bone.name.as_str()).or_insert(i);
        }
        by_name
    }
}

/// A triangle mesh with struct-of-arrays vertex data.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Mesh {
    /// A name, where the source has one.
    pub name: String,
    /// Vertex positions.
    pub positions: Vec<Vec3<f32>>,
    /// Vertex normals: empty, or one per vertex.
    pub normals: Vec<Vec3<f32>>,
    /// UV layers, each with one coordinate per vertex.
    pub uv_layers: Vec<Vec<Vec2<f32>>>,
    /// Vertex colours: empty, or one per vertex. The first colour layer; more are in
    /// [`Mesh::extra_color_layers`].
    pub colors: Vec<Rgba8>,
    /// Colour layers after the first (Cast's `c1`, `c2`, ..., glTF's `COLOR_1`, ...), each
    /// with one colour per vertex; empty when `colors` is the only layer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_color_layers: Vec<Vec<Rgba8>>,
    /// Skin weights, when the mesh is skinned.
    pub skin: Option<SkinWeights>,
    /// Triangles as vertex indices.
    pub faces: Vec<[u32; 3]>,
    /// The material of each UV layer (SEModel) or of the whole mesh (one entry).
    pub materials: Vec<Option<usize>>,
    /// Morph targets (blend shapes, shape keys): named sets of vertex offsets that an
    /// animation's [`WeightTrack`]s blend in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub morph_targets: Vec<MorphTarget>,
}

/// One morph target of a mesh: the offsets of the vertices it moves, at full weight.
///
/// Sparse, so its memory follows the data: a target that moves 10 vertices of 100,000 holds
/// 10 entries. A vertex not listed does not move. Cast and Blender store final positions, and
/// glTF and SEModel offsets; the scene holds offsets (`f32`, as every format stores them), so
/// a final position `p` of base `b` becomes `p - b` and back `b + (p - b)`, which gives `p`
/// again whenever the subtraction is exact in `f32` (always when `p` and `b` are within a
/// factor of two of each other, and for most real meshes).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MorphTarget {
    /// The target's name, which weight tracks use to find it.
    pub name: String,
    /// The vertices it moves, as indices into the mesh's vertices, each listed once.
    pub indices: Vec<u32>,
    /// The position offset of each vertex in `indices`, at weight 1.
    pub position_deltas: Vec<Vec3<f32>>,
    /// Normal offsets: empty, or one per entry of `indices`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub normal_deltas: Vec<Vec3<f32>>,
    /// The largest weight the target is meant to reach (Cast's `ts`); `None` where the source
    /// states none (1.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_weight: Option<f32>,
    /// The weight when no animation drives the target (glTF's `mesh.weights`, a Blender shape
    /// key's value).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub default_weight: f32,
}

/// Whether a weight is zero, the default.
fn is_zero(weight: &f32) -> bool {
    *weight == 0.0
}

/// Per-vertex bone influences, a fixed number per vertex.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SkinWeights {
    /// Influences per vertex; `bones` and `weights` hold this many entries per vertex.
    pub influences: usize,
    /// Bone indices into the skeleton, vertex-major.
    pub bones: Vec<u32>,
    /// Weights, vertex-major; unused slots are 0.
    pub weights: Vec<f32>,
    /// How the influences blend the bones' transforms (Cast's `sm`, Blender's "preserve
    /// volume").
    #[serde(default, skip_serializing_if = "SkinBlend::is_linear")]
    pub blend: SkinBlend,
    /// The skin (an index into [`Scene::skins`]) whose inverse bind matrices bound the mesh;
    /// `None` where each bone's [`Bone::global`] is its bind pose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<usize>,
}

/// How a skinned vertex blends the transforms of the bones that influence it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkinBlend {
    /// The weighted sum of the bones' matrices (linear blend skinning), what every format
    /// and glTF do.
    #[default]
    Linear,
    /// The weighted sum of the bones' dual quaternions, which keeps a joint's volume where
    /// linear blending pinches it (Cast's `sm` `quaternion`, Blender's "preserve volume").
    DualQuaternion,
}

impl SkinBlend {
    /// Whether this is [`SkinBlend::Linear`], the default.
    pub fn is_linear(&self) -> bool {
        *self == Self::Linear
    }

    /// The name the Python package and glTF extras use: `"linear"` or `"dual_quaternion"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Linear => "linear",
            Self::DualQuaternion => "dual_quaternion",
        }
    }
}

impl std::str::FromStr for SkinBlend {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        [Self::Linear, Self::DualQuaternion]
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| format!("unknown skin blend \"{name}\"; valid names: linear, dual_quaternion"))
    }
}

/// A material: its name, texture map names and colour.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Material {
    /// The material's name.
    pub name: String,
    /// The diffuse (albedo) map's file name.
    pub diffuse_map: Option<String>,
    /// The normal map's file name.
    pub normal_map: Option<String>,
    /// The specular map's file name.
    pub specular_map: Option<String>,
    /// An embedded texture used as the diffuse map: an index into [`Scene::textures`]. Where
    /// [`Material::links`] has a base colour link, this is its texture.
    pub texture: Option<usize>,
    /// The base colour, linear RGBA.
    pub base_color: Option<Rgba<f32>>,
    /// The embedded images in each texture slot, with their UV layer and transform (glTF's
    /// texture infos); the game formats name their maps by file instead. A base colour image
    /// read from the first UV layer as it is is [`Material::texture`] alone, without a link.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<TextureLink>,
    /// Metalness, roughness and emission; `None` where the source states none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<Surface>,
}

/// The factors of a physically based surface (glTF's material), beside its texture links.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Surface {
    /// Metalness, 0 to 1.
    pub metallic: f32,
    /// Roughness, 0 to 1.
    pub roughness: f32,
    /// Emitted colour, linear RGB.
    pub emissive: [f32; 3],
    /// Both faces of a triangle are drawn.
    pub double_sided: bool,
}

/// Hair: strands, each a polyline through consecutive particles (Cast's Hair node).
///
/// The particles are in the model's space as the file stores them (Cast says world space),
/// placed by [`Scene::placement`] like the meshes. A strand of `k` segments has `k + 1`
/// particles, so `particles.len()` is the sum of `segments[i] + 1` ([`Scene::check`] says
/// so).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Hair {
    /// The hair's name; empty where the source has none.
    #[serde(default)]
    pub name: String,
    /// The number of segments of each strand, strand after strand.
    pub segments: Vec<u32>,
    /// The particles, strand after strand: `segments[0] + 1` for the first strand, then the
    /// next strand's.
    pub particles: Vec<Vec3<f32>>,
    /// The hair's material: an index into [`Scene::materials`].
    #[serde(default)]
    pub material: Option<usize>,
}

impl Hair {
    /// The number of particles the segments call for: the sum of `segments[i] + 1` (in
    /// `u64`, which no count of `u32` segments overflows).
    pub fn particle_count(&self) -> u64 {
        self.segments.iter().map(|&s| u64::from(s) + 1).sum()
    }
}

/// Another scene file placed in this one (Cast's Instance node): a reference by path, not a
/// copy of the file's contents.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Instance {
    /// The instance's name; empty where the source has none.
    #[serde(default)]
    pub name: String,
    /// The referenced scene's path as the file states it (Cast: the `p` of the File the
    /// instance's `rf` names), relative paths unresolved; empty where the source names none.
    #[serde(default)]
    pub path: String,
    /// Where the referenced scene sits in this one (Cast's `p`, `r`, `s`).
    #[serde(default)]
    pub placement: Transform,
}

/// An embedded image, kept encoded as the file holds it (never decoded).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Texture {
    /// The texture's name.
    pub name: String,
    /// The encoded image: PNG, JPEG, WebP or whatever [`Texture::mime_type`] says.
    #[serde(alias = "png")]
    pub data: Vec<u8>,
    /// The image's MIME type (`image/webp`); empty where the bytes say it, as a PNG's and a
    /// JPEG's do ([`crate::images::image_mime_type`]), or where the source states none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mime_type: String,
}

/// How an animation's values combine with the pose it plays over (SEAnim's anim types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnimKind {
    /// Values replace the bind pose: translations and rotations are local and complete.
    #[default]
    Absolute,
    /// Values are added to whatever pose is playing.
    Additive,
    /// Values are offsets from the bind pose.
    Relative,
    /// The first bone carries the motion of the whole model (a root-motion delta).
    Delta,
}

/// How values between keys are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Interpolation {
    /// Linear (spherical for rotations).
    #[default]
    Linear,
    /// Hold each key's value until the next key.
    Step,
}

/// One key: a time in frames and a value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Key<T> {
    /// The time, in frames of the animation's framerate.
    pub frame: f64,
    /// The value at that time.
    pub value: T,
}

impl<T> Key<T> {
    /// A key at `frame` with `value`.
    pub const fn new(frame: f64, value: T) -> Self {
        Self { frame, value }
    }
}

/// One animation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Animation {
    /// The animation's name.
    pub name: String,
    /// Frames per second.
    pub framerate: f64,
    /// The length in frames as the source states it (SEAnim: last key + 1).
    pub frame_count: f64,
    /// Whether it loops.
    pub looping: bool,
    /// How its values combine with the pose.
    pub kind: AnimKind,
    /// How values between keys are found.
    pub interpolation: Interpolation,
    /// Per-bone channels.
    pub bones: Vec<BoneTrack>,
    /// Named events at frames.
    pub notes: Vec<Note>,
    /// Tracks that animate something other than a bone transform, kept in their source
    /// format's encoding so a trip through the scene keeps them.
    pub properties: Vec<PropertyTrack>,
    /// Morph target weight tracks (Cast `bs` curves, glTF `weights` channels, SEAnim SEBlend
    /// keys).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<WeightTrack>,
}

impl Default for Animation {
    fn default() -> Self {
        Self {
            name: String::new(),
            framerate: 30.0,
            frame_count: 0.0,
            looping: false,
            kind: AnimKind::Absolute,
            interpolation: Interpolation::Linear,
            bones: Vec::new(),
            notes: Vec::new(),
            properties: Vec::new(),
            weights: Vec::new(),
        }
    }
}

/// The keys of one bone.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BoneTrack {
    /// The bone's name.
    pub bone: String,
    /// A kind that overrides the animation's for this bone and its children (SEAnim modifiers,
    /// a Cast CurveModeOverride of all three channels).
    pub kind_override: Option<AnimKind>,
    /// Per-channel overrides for this bone and its children (a Cast CurveModeOverride of some
    /// channels); for a channel set here they win over `kind_override`.
    #[serde(default, skip_serializing_if = "ChannelKinds::is_empty")]
    pub channel_overrides: ChannelKinds,
    /// The kinds of this bone's own keys, per channel, where they are not the animation's
    /// (Cast stores a mode on every curve); overrides of this bone or an ancestor win.
    #[serde(default, skip_serializing_if = "ChannelKinds::is_empty")]
    pub channel_kinds: ChannelKinds,
    /// A cosmetic bone.
    pub cosmetic: bool,
    /// Translation keys, local to the parent.
    pub translation: Keys<Vec3<f64>>,
    /// Rotation keys, local to the parent.
    pub rotation: Keys<Quat<f64>>,
    /// Scale keys.
    pub scale: Keys<Vec3<f64>>,
    /// How each channel's keys are joined where it is not the animation's
    /// [`Animation::interpolation`] (a glTF sampler of its own: STEP in a LINEAR animation,
    /// a cubic spline with its tangents).
    #[serde(default, skip_serializing_if = "ChannelCurves::is_empty")]
    pub curves: ChannelCurves,
}

/// The weight keys of the morph targets of one name.
///
/// Tracks name targets as bone tracks name bones: by name, so one track drives the target of
/// that name on every mesh that has one (Cast's `bs` curves work so, naming the blend shape and
/// not its mesh).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WeightTrack {
    /// The [`MorphTarget::name`] the keys drive.
    pub target: String,
    /// The weights, 0 for the base mesh and 1 for the whole offset; values outside 0..=1 are
    /// allowed (they extrapolate).
    pub keys: Keys<f64>,
}

/// An animation kind for each transform channel of a bone; `None` where the channel takes its
/// kind from elsewhere (see [`crate::pose::channel_kinds`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ChannelKinds {
    /// The translation keys' kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translation: Option<AnimKind>,
    /// The rotation keys' kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<AnimKind>,
    /// The scale keys' kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<AnimKind>,
}

impl ChannelKinds {
    /// No channel set.
    pub const NONE: Self = Self {
        translation: None,
        rotation: None,
        scale: None,
    };

    /// The same kind on every channel.
    pub const fn all(kind: AnimKind) -> Self {
        Self {
            translation: Some(kind),
            rotation: Some(kind),
            scale: Some(kind),
        }
    }

    /// True when no channel is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::NONE
    }
}

/// A named event at a frame (a notetrack entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// The frame.
    pub frame: f64,
    /// The event's name.
    pub name: String,
}

/// A track that animates a property other than a bone transform, kept opaque.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PropertyTrack {
    /// The node (object) the track animates.
    pub node: String,
    /// The property on that node.
    pub property: String,
    /// The source format's short name, such as `"animx"`.
    pub format: String,
    /// The track in the source format's own encoding.
    pub data: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone(name: &str, parent: Option<usize>, x: f64) -> Bone {
        Bone {
            kind: Default::default(),
            name: name.into(),
            parent,
            local: Transform {
                translation: Vec3::new(x, 0.0, 0.0),
                ..Transform::IDENTITY
            },
            global: Transform::IDENTITY,
            cosmetic: false,
            scale_compensate: false,
            rest_scale: Vec3::ONE,
        }
    }

    #[test]
    fn globals_accumulate_down_the_chain_even_when_children_come_first() {
        let mut skeleton = Skeleton {
            bones: vec![bone("child", Some(1), 2.0), bone("root", None, 1.0)],
            ..Skeleton::default()
        };
        skeleton.update_globals();
        assert_eq!(skeleton.bones[0].global.translation, Vec3::new(3.0, 0.0, 0.0));
        skeleton.update_locals();
        assert_eq!(skeleton.bones[0].local.translation, Vec3::new(2.0, 0.0, 0.0));
    }

    #[test]
    fn parent_cycles_do_not_hang() {
        let skeleton = Skeleton {
            bones: vec![
                bone("a", Some(1), 0.0),
                bone("b", Some(0), 0.0),
                bone("c", Some(9), 0.0),
            ],
            ..Skeleton::default()
        };
        assert_eq!(skeleton.resolve_order(), vec![2, 0, 1]);
    }
}

/// What a conversion could not carry over, one line per kind of loss.
///
/// Conversions into a format that cannot hold everything in the scene push a line here
/// instead of failing; a caller that wants no loss (`animbin convert --strict`) checks
/// [`ConversionReport::is_lossless`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ConversionReport {
    /// One human-readable line per kind of loss, such as `"3 notes (DMF has no notes)"`.
    pub lost: Vec<String>,
    /// The lines of `lost` already recorded, found by hashing: a file of many animations can
    /// lose a line for each, and searching the list for every new line was quadratic.
    #[serde(skip)]
    recorded: HashSet<String>,
    /// How many lines of `lost` `recorded` holds: lines pushed onto `lost` directly are taken
    /// in at the next [`ConversionReport::lose`], and a shorter `lost` is indexed again.
    #[serde(skip)]
    indexed: usize,
    /// What the user should know that is not a loss of the target, one line each: a texture
    /// file the input names but that is not beside it (the output names it all the same).
    /// Front ends show these lines without "cannot hold", and `--strict` does not refuse them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Reports are equal when they lost the same lines and hold the same notes (the index is
/// only how lost lines are found).
impl PartialEq for ConversionReport {
    fn eq(&self, other: &Self) -> bool {
        self.lost == other.lost && self.notes == other.notes
    }
}

impl Eq for ConversionReport {}

impl ConversionReport {
    /// Records a loss; the same line is recorded once.
    pub fn lose(&mut self, what: impl Into<String>) {
        let what = what.into();
        if self.indexed > self.lost.len() {
            // Lines were taken out of `lost` directly: index it again.
            self.recorded.clear();
            self.indexed = 0;
        }
        for line in &self.lost[self.indexed..] {
            self.recorded.insert(line.clone());
        }
        self.indexed = self.lost.len();
        if self.recorded.insert(what.clone()) {
            self.lost.push(what);
            self.indexed += 1;
        }
    }

    /// Records a note (see [`ConversionReport::notes`]); the same line is recorded once.
    pub fn note(&mut self, line: impl Into<String>) {
        let line = line.into();
        if !self.notes.contains(&line) {
            self.notes.push(line);
        }
    }

    /// True when nothing was lost (notes are not losses).
    pub fn is_lossless(&self) -> bool {
        self.lost.is_empty()
    }

    /// Records the scene's IK handles and constraints as lost, for a format (`label`) that
    /// holds no rig controls.
    pub fn lose_rig_controls(&mut self, scene: &Scene, label: &str) {
        let handles = scene.skeleton.ik_handles.len();
        let constraints = scene.skeleton.constraints.len();
        if handles > 0 {
            self.lose(format!("{handles} IK handles ({label} has no IK)"));
        }
        if constraints > 0 {
            self.lose(format!("{constraints} bone constraints ({label} has no constraints)"));
        }
    }

    /// Records the scene's colour layers after the first as lost, for a format (`label`) that
    /// holds one colour per vertex.
    pub fn lose_extra_color_layers(&mut self, scene: &Scene, label: &str) {
        let layers: usize = scene.meshes.iter().map(|m| m.extra_color_layers.len()).sum();
        if layers > 0 {
            self.lose(format!("{layers} colour layers after the first ({label} holds one)"));
        }
    }

    /// Records the meshes skinned by dual quaternions as lost, for a format (`label`) whose
    /// skins blend linearly.
    pub fn lose_dual_quaternion_skinning(&mut self, scene: &Scene, label: &str) {
        let meshes = scene
            .meshes
            .iter()
            .filter(|m| m.skin.as_ref().is_some_and(|s| s.blend == SkinBlend::DualQuaternion))
            .count();
        if meshes > 0 {
            self.lose(format!(
                "dual-quaternion skinning of {meshes} mesh(es) ({label} skins linearly)"
            ));
        }
    }

    /// Records the scene's hair and instances of other scene files as lost, for a format
    /// (`label`) that holds neither.
    pub fn lose_hair_and_instances(&mut self, scene: &Scene, label: &str) {
        let strands: usize = scene.hairs.iter().map(|h| h.segments.len()).sum();
        if !scene.hairs.is_empty() {
            self.lose(format!("hair ({strands} strands; {label} has no hair)"));
        }
        if !scene.instances.is_empty() {
            self.lose(format!(
                "{} instances of other scene files ({label} has no instances)",
                scene.instances.len()
            ));
        }
    }

    /// Records the scene's model name as lost, for a format (`label`) that stores none.
    pub fn lose_model_name(&mut self, scene: &Scene, label: &str) {
        if !scene.name.is_empty() {
            self.lose(format!("the model name ({label} stores none)"));
        }
    }

    /// Records the scene's morph targets and weight tracks as lost, for a format (`label`)
    /// that holds no blend shapes.
    pub fn lose_morph_targets(&mut self, scene: &Scene, label: &str) {
        let targets: usize = scene.meshes.iter().map(|m| m.morph_targets.len()).sum();
        let tracks: usize = scene.animations.iter().map(|a| a.weights.len()).sum();
        if targets > 0 {
            self.lose(format!("{targets} morph targets ({label} has no blend shapes)"));
        }
        if tracks > 0 {
            self.lose(format!(
                "{tracks} morph target weight tracks ({label} has no blend shapes)"
            ));
        }
    }
}

/// How a file becomes a scene and a scene becomes a file: the options every format crate's
/// `to_scene` and `from_scene` take, each used by the formats it concerns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneOptions {
    /// Frames per second for formats that store no rate of their own (x8an key ticks, and
    /// AnimX, which counts seconds); `None` uses the format's default.
    pub framerate: Option<f64>,
    /// The non-glTF side of a conversion is Z-up (the SE formats and most game data);
    /// glTF is Y-up.
    pub z_up: bool,
    /// Lengths times this are glTF metres (0.01 for centimetres); 1.0 changes nothing.
    pub unit_scale: f64,
    /// Scale rotations read from a format that rounds them (x8an's i16 components) to unit
    /// length. Off by default, so a scene holds exactly what the file holds.
    pub normalize_rotations: bool,
    /// The kind of the animation written to a format that stores one (SEAnim), with its keys
    /// rewritten so that what plays over the bind pose stays the same
    /// ([`crate::pose::rebase`]); `None` keeps the scene's. For files that state no kind,
    /// such as a glTF another tool exported.
    pub anim_kind: Option<AnimKind>,
    /// Whether the animation written to a format that stores it (SEAnim) loops; `None` keeps
    /// the scene's.
    pub looping: Option<bool>,
    /// The precision of the key values written to a format that offers a choice (SEAnim);
    /// `None` lets the writer choose (single when every value is exactly an `f32`).
    pub precision: Option<Precision>,
}

/// The width of the floating-point key values a format writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// 32-bit floats.
    Single,
    /// 64-bit floats.
    Double,
}

impl Precision {
    /// The name used on the command line and in glTF extras: `"single"` or `"double"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Single => "single",
            Self::Double => "double",
        }
    }
}

impl std::str::FromStr for Precision {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "single" | "f32" => Ok(Self::Single),
            "double" | "f64" => Ok(Self::Double),
            other => Err(format!("unknown precision \"{other}\"; valid names: single, double")),
        }
    }
}

impl AnimKind {
    /// The kind's name, as SEAnim's tools and `info --json` say it: `"absolute"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Absolute => "absolute",
            Self::Additive => "additive",
            Self::Relative => "relative",
            Self::Delta => "delta",
        }
    }
}

impl std::str::FromStr for AnimKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        [Self::Absolute, Self::Additive, Self::Relative, Self::Delta]
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                format!("unknown animation kind \"{name}\"; valid names: absolute, additive, relative, delta")
            })
    }
}

impl Default for SceneOptions {
    fn default() -> Self {
        Self {
            framerate: None,
            z_up: false,
            unit_scale: 1.0,
            normalize_rotations: false,
            anim_kind: None,
            looping: None,
            precision: None,
        }
    }
}

impl SceneOptions {
    /// The frame rate to use: [`SceneOptions::framerate`] or, when unset, `default`.
    pub fn framerate_or(&self, default: f64) -> f64 {
        self.framerate.unwrap_or(default)
    }
}

#[cfg(test)]
mod report_tests {
    use super::ConversionReport;

    #[test]
    fn a_line_is_recorded_once_however_it_came() {
        let mut report = ConversionReport::default();
        for i in 0..20_000 {
            report.lose(format!("animation {}", i % 10_000));
        }
        assert_eq!(report.lost.len(), 10_000);
        assert_eq!(report.lost[9_999], "animation 9999");
        // Lines pushed onto the list directly count as recorded.
        report.lost.push("pushed".into());
        report.lose("pushed");
        report.lose("new");
        assert_eq!(report.lost[10_000..], ["pushed", "new"]);
        // Lines taken out directly can be recorded again.
        report.lost.clear();
        report.lose("animation 5");
        assert_eq!(report.lost, ["animation 5"]);
        // Equality is the lines alone.
        let mut other = ConversionReport::default();
        other.lost.push("animation 5".into());
        assert_eq!(report, other);
    }
}
