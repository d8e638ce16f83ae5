//! Typed access to the documented properties of each node type.
//!
//! Each node type has a small borrowing wrapper (`Mesh<'a>`, `Curve<'a>`, ...) made with
//! [`Node::as_mesh`] and its siblings, whose methods return a documented property when it is
//! present with a documented type and shape, and `None` otherwise (`validate` says why).
//! Single-valued properties come back as values, arrays as slices, index buffers as
//! [`Indices`] whatever their width.

use animbin_core::math::{Quat, Vec2, Vec3, Vec4};

use crate::layout::NodeKind;
use crate::model::{CastFile, Indices, Node, Value};

/// Single values and arrays of a node's properties by name, for any node type.
impl Node {
    /// The single string of property `name`.
    pub fn str_value(&self, name: &str) -> Option<&str> {
        self.value(name)?.as_str()
    }

    /// The single hash (`l`) of property `name`.
    pub fn hash_value(&self, name: &str) -> Option<u64> {
        match self.value(name)? {
            Value::Long(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    /// The single `b` of property `name` as a boolean (any non-zero byte is true).
    pub fn bool_value(&self, name: &str) -> Option<bool> {
        match self.value(name)? {
            Value::Byte(v) if v.len() == 1 => Some(v[0] != 0),
            _ => None,
        }
    }

    /// The single `f` of property `name`.
    pub fn float_value(&self, name: &str) -> Option<f32> {
        match self.value(name)? {
            Value::Float(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    /// The single index (`b`, `h` or `i`) of property `name`, widened.
    pub fn index_value(&self, name: &str) -> Option<u32> {
        let indices = self.value(name)?.indices()?;
        (indices.len() == 1).then(|| indices.get(0)).flatten()
    }

    /// The single `3v` of property `name`.
    pub fn vec3_value(&self, name: &str) -> Option<Vec3<f32>> {
        match self.value(name)? {
            Value::Vec3(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    /// The single `4v` of property `name`.
    pub fn vec4_value(&self, name: &str) -> Option<Vec4<f32>> {
        match self.value(name)? {
            Value::Vec4(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }

    /// The single `4v` of property `name` as a quaternion (x, y, z, w).
    pub fn quat_value(&self, name: &str) -> Option<Quat<f32>> {
        self.vec4_value(name).map(|v| Quat::new(v.x, v.y, v.z, v.w))
    }

    /// The index buffer (`b`, `h` or `i`) of property `name`.
    pub fn indices(&self, name: &str) -> Option<Indices<'_>> {
        self.value(name)?.indices()
    }

    /// The `f` array of property `name`.
    pub fn floats(&self, name: &str) -> Option<&[f32]> {
        match self.value(name)? {
            Value::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The `i` array of property `name`.
    pub fn integers(&self, name: &str) -> Option<&[u32]> {
        match self.value(name)? {
            Value::Integer(v) => Some(v),
            _ => None,
        }
    }

    /// The `2v` array of property `name`.
    pub fn vec2s(&self, name: &str) -> Option<&[Vec2<f32>]> {
        match self.value(name)? {
            Value::Vec2(v) => Some(v),
            _ => None,
        }
    }

    /// The `3v` array of property `name`.
    pub fn vec3s(&self, name: &str) -> Option<&[Vec3<f32>]> {
        match self.value(name)? {
            Value::Vec3(v) => Some(v),
            _ => None,
        }
    }

    /// The `4v` array of property `name`.
    pub fn vec4s(&self, name: &str) -> Option<&[Vec4<f32>]> {
        match self.value(name)? {
            Value::Vec4(v) => Some(v),
            _ => None,
        }
    }
}

/// Declares the borrowing wrapper of one node type and its `Node::as_..` constructor.
macro_rules! typed_node {
    ($($(#[$meta:meta])* $name:ident = $kind:ident, $as:ident;)*) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $name<'a>(&'a Node);

            impl<'a> $name<'a> {
                /// The node as this type, when it has this type's id.
                pub fn new(node: &'a Node) -> Option<Self> {
                    node.is(NodeKind::$kind).then_some(Self(node))
                }

                /// The node itself (its hash, every property, every child).
                pub fn node(self) -> &'a Node {
                    self.0
                }
            }
        )*

        impl Node {
            $(
                #[doc = concat!("This node as a [`", stringify!($name), "`], when it is one.")]
                pub fn $as(&self) -> Option<$name<'_>> {
                    $name::new(self)
                }
            )*
        }
    };
}

typed_node! {
    /// A Root node (`root`): models, animations, instances and metadata.
    Root = Root, as_root;
    /// A Model node (`modl`): `n`, `p`, `r`, `s`; a skeleton, meshes, hair, blend shapes,
    /// materials.
    Model = Model, as_model;
    /// A Mesh node (`mesh`).
    Mesh = Mesh, as_mesh;
    /// A Hair node (`hair`).
    Hair = Hair, as_hair;
    /// A BlendShape node (`blsh`).
    BlendShape = BlendShape, as_blend_shape;
    /// A Skeleton node (`skel`): bones, IK handles and constraints.
    Skeleton = Skeleton, as_skeleton;
    /// A Bone node (`bone`).
    Bone = Bone, as_bone;
    /// An IKHandle node (`ikhd`).
    IkHandle = IkHandle, as_ik_handle;
    /// A Constraint node (`cnst`).
    Constraint = Constraint, as_constraint;
    /// An Animation node (`anim`).
    Animation = Animation, as_animation;
    /// A Curve node (`curv`).
    Curve = Curve, as_curve;
    /// A CurveModeOverride node (`CMOV`).
    CurveModeOverride = CurveModeOverride, as_curve_mode_override;
    /// A NotificationTrack node (`ntif`).
    NotificationTrack = NotificationTrack, as_notification_track;
    /// A Material node (`matl`).
    Material = Material, as_material;
    /// A File node (`file`).
    File = File, as_file;
    /// A Color node (`colr`).
    Color = Color, as_color;
    /// An Instance node (`inst`).
    Instance = Instance, as_instance;
    /// A Metadata node (`meta`).
    Metadata = Metadata, as_metadata;
}

/// The children of `node` that `wrap` accepts.
fn typed<'a, T: 'a>(node: &'a Node, wrap: fn(&'a Node) -> Option<T>) -> impl Iterator<Item = T> + 'a {
    node.children.iter().filter_map(wrap)
}

impl CastFile {
    /// Every Model under a top-level Root, in file order.
    pub fn models(&self) -> impl Iterator<Item = Model<'_>> + '_ {
        self.roots.iter().filter_map(Node::as_root).flat_map(|r| r.models())
    }

    /// Every Animation under a top-level Root, in file order.
    pub fn animations(&self) -> impl Iterator<Item = Animation<'_>> + '_ {
        self.roots.iter().filter_map(Node::as_root).flat_map(|r| r.animations())
    }
}

impl<'a> Root<'a> {
    /// The Model children.
    pub fn models(self) -> impl Iterator<Item = Model<'a>> + 'a {
        typed(self.0, Model::new)
    }

    /// The Animation children.
    pub fn animations(self) -> impl Iterator<Item = Animation<'a>> + 'a {
        typed(self.0, Animation::new)
    }

    /// The Instance children.
    pub fn instances(self) -> impl Iterator<Item = Instance<'a>> + 'a {
        typed(self.0, Instance::new)
    }

    /// The Metadata children (hints come from the first).
    pub fn metadata(self) -> impl Iterator<Item = Metadata<'a>> + 'a {
        typed(self.0, Metadata::new)
    }
}

impl<'a> Model<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `p`: the position of the model in the world.
    pub fn position(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("p")
    }

    /// `r`: the rotation of the model in the world.
    pub fn rotation(self) -> Option<Quat<f32>> {
        self.0.quat_value("r")
    }

    /// `s`: the scale of the model in the world.
    pub fn scale(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("s")
    }

    /// The Skeleton child (the first; a model has at most one).
    pub fn skeleton(self) -> Option<Skeleton<'a>> {
        typed(self.0, Skeleton::new).next()
    }

    /// The Mesh children.
    pub fn meshes(self) -> impl Iterator<Item = Mesh<'a>> + 'a {
        typed(self.0, Mesh::new)
    }

    /// The Hair children.
    pub fn hairs(self) -> impl Iterator<Item = Hair<'a>> + 'a {
        typed(self.0, Hair::new)
    }

    /// The BlendShape children.
    pub fn blend_shapes(self) -> impl Iterator<Item = BlendShape<'a>> + 'a {
        typed(self.0, BlendShape::new)
    }

    /// The Material children.
    pub fn materials(self) -> impl Iterator<Item = Material<'a>> + 'a {
        typed(self.0, Material::new)
    }
}

/// A colour layer of a mesh: packed RGBA8 or float RGBA.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColorLayer<'a> {
    /// `i`: byte 0 red ... byte 3 alpha, read as a little-endian u32.
    Packed(&'a [u32]),
    /// `4v`: float red, green, blue, alpha.
    Float(&'a [Vec4<f32>]),
}

impl ColorLayer<'_> {
    /// The number of colours.
    pub fn len(&self) -> usize {
        match self {
            Self::Packed(v) => v.len(),
            Self::Float(v) => v.len(),
        }
    }

    /// Whether there are no colours.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'a> Mesh<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `vp`: vertex positions; their number is the vertex count.
    pub fn positions(self) -> Option<&'a [Vec3<f32>]> {
        self.0.vec3s("vp")
    }

    /// `vn`: vertex normals.
    pub fn normals(self) -> Option<&'a [Vec3<f32>]> {
        self.0.vec3s("vn")
    }

    /// `vt`: vertex tangents.
    pub fn tangents(self) -> Option<&'a [Vec3<f32>]> {
        self.0.vec3s("vt")
    }

    /// `ul`: the number of UV layers.
    pub fn uv_layer_count(self) -> Option<u32> {
        self.0.index_value("ul")
    }

    /// `u0`, `u1`, ...: UV layer `layer`.
    pub fn uv_layer(self, layer: u32) -> Option<&'a [Vec2<f32>]> {
        self.0.vec2s(&format!("u{layer}"))
    }

    /// `cl`: the number of colour layers.
    pub fn color_layer_count(self) -> Option<u32> {
        self.0.index_value("cl")
    }

    /// `c0`, `c1`, ...: colour layer `layer`, packed (`i`) or float (`4v`).
    pub fn color_layer(self, layer: u32) -> Option<ColorLayer<'a>> {
        match self.0.value(&format!("c{layer}"))? {
            Value::Integer(v) => Some(ColorLayer::Packed(v)),
            Value::Vec4(v) => Some(ColorLayer::Float(v)),
            _ => None,
        }
    }

    /// `vc`: the legacy single colour layer (packed), used when `cl` is absent.
    pub fn legacy_colors(self) -> Option<&'a [u32]> {
        self.0.integers("vc")
    }

    /// `wb`: the bone of each influence, `max_influence` per vertex, vertex-major; indices
    /// into the Bone children of the model's Skeleton.
    pub fn weight_bones(self) -> Option<Indices<'a>> {
        self.0.indices("wb")
    }

    /// `wv`: the weight of each influence, laid out as [`Mesh::weight_bones`].
    pub fn weight_values(self) -> Option<&'a [f32]> {
        self.0.floats("wv")
    }

    /// `mi`: influences per vertex.
    pub fn max_influence(self) -> Option<u32> {
        self.0.index_value("mi")
    }

    /// `f`: triangles, three vertex indices each, counter-clockwise.
    pub fn faces(self) -> Option<Indices<'a>> {
        self.0.indices("f")
    }

    /// `sm`: the skinning method, `linear` (the default) or `quaternion`.
    pub fn skinning_method(self) -> Option<&'a str> {
        self.0.str_value("sm")
    }

    /// `m`: the hash of a Material of the same model.
    pub fn material(self) -> Option<u64> {
        self.0.hash_value("m")
    }
}

impl<'a> Hair<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `se`: segments per strand.
    pub fn segments(self) -> Option<Indices<'a>> {
        self.0.indices("se")
    }

    /// `pt`: particles, strand after strand (a strand of k segments has k + 1).
    pub fn particles(self) -> Option<&'a [Vec3<f32>]> {
        self.0.vec3s("pt")
    }

    /// `m`: the hash of a Material of the same model.
    pub fn material(self) -> Option<u64> {
        self.0.hash_value("m")
    }
}

impl<'a> BlendShape<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `b`: the hash of the base Mesh in the same model.
    pub fn base_shape(self) -> Option<u64> {
        self.0.hash_value("b")
    }

    /// `vi`: the indices of the base vertices the shape moves.
    pub fn vertex_indices(self) -> Option<Indices<'a>> {
        self.0.indices("vi")
    }

    /// `vp`: the final positions of those vertices (not offsets).
    pub fn vertex_positions(self) -> Option<&'a [Vec3<f32>]> {
        self.0.vec3s("vp")
    }

    /// `ts`: the maximum weight (upstream writes one value; 1.0 when absent).
    pub fn target_weight_scale(self) -> Option<&'a [f32]> {
        self.0.floats("ts")
    }
}

impl<'a> Skeleton<'a> {
    /// The Bone children; parent indices and skin weights count them in this order.
    pub fn bones(self) -> impl Iterator<Item = Bone<'a>> + 'a {
        typed(self.0, Bone::new)
    }

    /// The IKHandle children.
    pub fn ik_handles(self) -> impl Iterator<Item = IkHandle<'a>> + 'a {
        typed(self.0, IkHandle::new)
    }

    /// The Constraint children.
    pub fn constraints(self) -> impl Iterator<Item = Constraint<'a>> + 'a {
        typed(self.0, Constraint::new)
    }
}

impl<'a> Bone<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `p`: the parent's index among the skeleton's bones, -1 for none.
    pub fn parent(self) -> Option<i32> {
        match self.0.value("p")? {
            Value::Integer(v) if v.len() == 1 => Some(v[0] as i32),
            _ => None,
        }
    }

    /// `ssc`: segment scale compensate (true when absent).
    pub fn segment_scale_compensate(self) -> Option<bool> {
        self.0.bool_value("ssc")
    }

    /// `lp`: the position relative to the parent.
    pub fn local_position(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("lp")
    }

    /// `lr`: the rotation relative to the parent.
    pub fn local_rotation(self) -> Option<Quat<f32>> {
        self.0.quat_value("lr")
    }

    /// `wp`: the position in the world.
    pub fn world_position(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("wp")
    }

    /// `wr`: the rotation in the world.
    pub fn world_rotation(self) -> Option<Quat<f32>> {
        self.0.quat_value("wr")
    }

    /// `s`: the scale (always local).
    pub fn scale(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("s")
    }
}

impl<'a> IkHandle<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `sb`: the hash of the start bone.
    pub fn start_bone(self) -> Option<u64> {
        self.0.hash_value("sb")
    }

    /// `eb`: the hash of the end bone.
    pub fn end_bone(self) -> Option<u64> {
        self.0.hash_value("eb")
    }

    /// `tb`: the hash of the target bone.
    pub fn target_bone(self) -> Option<u64> {
        self.0.hash_value("tb")
    }

    /// `to`: the target offset.
    pub fn target_offset(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("to")
    }

    /// `pv`: the hash of the pole vector bone.
    pub fn pole_vector_bone(self) -> Option<u64> {
        self.0.hash_value("pv")
    }

    /// `pb`: the hash of the pole (twist) bone.
    pub fn pole_bone(self) -> Option<u64> {
        self.0.hash_value("pb")
    }

    /// `tr`: use the target's rotation (false when absent).
    pub fn use_target_rotation(self) -> Option<bool> {
        self.0.bool_value("tr")
    }
}

/// A constraint's custom offset: a vector for point and scale constraints, a quaternion for
/// orient constraints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConstraintOffset {
    /// `3v`: a translation (`pt`) or a scale (`sc`).
    Vector(Vec3<f32>),
    /// `4v`: a rotation (`or`).
    Rotation(Quat<f32>),
}

impl<'a> Constraint<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `ct`: the type, `pt` (point), `or` (orient) or `sc` (scale).
    pub fn constraint_type(self) -> Option<&'a str> {
        self.0.str_value("ct")
    }

    /// `cb`: the hash of the constrained bone.
    pub fn constraint_bone(self) -> Option<u64> {
        self.0.hash_value("cb")
    }

    /// `tb`: the hash of the target bone.
    pub fn target_bone(self) -> Option<u64> {
        self.0.hash_value("tb")
    }

    /// `mo`: maintain the offset (false when absent).
    pub fn maintain_offset(self) -> Option<bool> {
        self.0.bool_value("mo")
    }

    /// `co`: the custom offset.
    pub fn custom_offset(self) -> Option<ConstraintOffset> {
        self.0
            .vec3_value("co")
            .map(ConstraintOffset::Vector)
            .or_else(|| self.0.quat_value("co").map(ConstraintOffset::Rotation))
    }

    /// `wt`: the weight.
    pub fn weight(self) -> Option<f32> {
        self.0.float_value("wt")
    }

    /// `sx`: skip the x axis (false when absent).
    pub fn skip_x(self) -> Option<bool> {
        self.0.bool_value("sx")
    }

    /// `sy`: skip the y axis (false when absent).
    pub fn skip_y(self) -> Option<bool> {
        self.0.bool_value("sy")
    }

    /// `sz`: skip the z axis (false when absent).
    pub fn skip_z(self) -> Option<bool> {
        self.0.bool_value("sz")
    }
}

/// The slot names of a Material, besides `extra0`, `extra1`, ... (`extra%d`).
pub const MATERIAL_SLOTS: [&str; 11] = [
    "albedo",
    "diffuse",
    "normal",
    "specular",
    "gloss",
    "roughness",
    "emissive",
    "emask",
    "ao",
    "cavity",
    "aniso",
];

/// Whether `name` is a material slot: one of [`MATERIAL_SLOTS`] or `extra` and a number.
pub fn is_material_slot(name: &str) -> bool {
    MATERIAL_SLOTS.contains(&name) || name.strip_prefix("extra").and_then(layer_number).is_some()
}

/// The number in `u3`, `c0`, `extra12`: decimal digits without a leading zero (as `%d`
/// writes them), or `None`.
pub(crate) fn layer_number(digits: &str) -> Option<u32> {
    let leading_zero = digits.len() > 1 && digits.starts_with('0');
    if digits.is_empty() || leading_zero || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

impl<'a> Material<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `t`: the type (upstream lists only `pbr`).
    pub fn material_type(self) -> Option<&'a str> {
        self.0.str_value("t")
    }

    /// The hash in slot `slot` (`albedo`, `normal`, `extra0`, ...): a File or Color child.
    pub fn slot(self, slot: &str) -> Option<u64> {
        self.0.hash_value(slot)
    }

    /// Every slot the material fills, in property order, with its hash.
    pub fn slots(self) -> impl Iterator<Item = (&'a str, u64)> + 'a {
        self.0.properties.iter().filter_map(|p| match &p.value {
            Value::Long(v) if v.len() == 1 && is_material_slot(&p.name) => Some((p.name.as_str(), v[0])),
            _ => None,
        })
    }

    /// The File children.
    pub fn files(self) -> impl Iterator<Item = File<'a>> + 'a {
        typed(self.0, File::new)
    }

    /// The Color children.
    pub fn colors(self) -> impl Iterator<Item = Color<'a>> + 'a {
        typed(self.0, Color::new)
    }
}

impl<'a> File<'a> {
    /// `p`: the path (of a texture, or of the scene an Instance references).
    pub fn path(self) -> Option<&'a str> {
        self.0.str_value("p")
    }
}

impl<'a> Color<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `cs`: the colour space, `srgb` (the default) or `linear`.
    pub fn color_space(self) -> Option<&'a str> {
        self.0.str_value("cs")
    }

    /// `rgba`: the colour.
    pub fn rgba(self) -> Option<Vec4<f32>> {
        self.0.vec4_value("rgba")
    }
}

impl<'a> Animation<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `fr`: frames per second.
    pub fn framerate(self) -> Option<f32> {
        self.0.float_value("fr")
    }

    /// `lo`: whether it loops.
    pub fn looping(self) -> Option<bool> {
        self.0.bool_value("lo")
    }

    /// The Skeleton child, if any.
    pub fn skeleton(self) -> Option<Skeleton<'a>> {
        typed(self.0, Skeleton::new).next()
    }

    /// The Curve children.
    pub fn curves(self) -> impl Iterator<Item = Curve<'a>> + 'a {
        typed(self.0, Curve::new)
    }

    /// The CurveModeOverride children.
    pub fn curve_mode_overrides(self) -> impl Iterator<Item = CurveModeOverride<'a>> + 'a {
        typed(self.0, CurveModeOverride::new)
    }

    /// The NotificationTrack children.
    pub fn notification_tracks(self) -> impl Iterator<Item = NotificationTrack<'a>> + 'a {
        typed(self.0, NotificationTrack::new)
    }
}

impl<'a> Curve<'a> {
    /// `nn`: the name of the animated node (a bone, or a blend shape for `bs`).
    pub fn node_name(self) -> Option<&'a str> {
        self.0.str_value("nn")
    }

    /// `kp`: the animated property: `rq`, `tx`, `ty`, `tz`, `sx`, `sy`, `sz`, `bs` or `vb`.
    pub fn key_property(self) -> Option<&'a str> {
        self.0.str_value("kp")
    }

    /// `kb`: the key frames.
    pub fn key_frames(self) -> Option<Indices<'a>> {
        self.0.indices("kb")
    }

    /// `kv`: the key values (`4v` for `rq`, `f` for translation, scale and blend-shape
    /// weights, `b`/`h`/`i` for visibility).
    pub fn key_values(self) -> Option<&'a Value> {
        self.0.value("kv")
    }

    /// `m`: the mode, `additive`, `absolute` or `relative`.
    pub fn mode(self) -> Option<&'a str> {
        self.0.str_value("m")
    }

    /// `ab`: the additive blend weight.
    pub fn additive_blend_weight(self) -> Option<f32> {
        self.0.float_value("ab")
    }
}

impl<'a> CurveModeOverride<'a> {
    /// `nn`: the node whose subtree is overridden.
    pub fn node_name(self) -> Option<&'a str> {
        self.0.str_value("nn")
    }

    /// `m`: the mode, `additive`, `absolute` or `relative`.
    pub fn mode(self) -> Option<&'a str> {
        self.0.str_value("m")
    }

    /// `ot`: override translation curves (false when absent).
    pub fn override_translation(self) -> Option<bool> {
        self.0.bool_value("ot")
    }

    /// `or`: override rotation curves (false when absent).
    pub fn override_rotation(self) -> Option<bool> {
        self.0.bool_value("or")
    }

    /// `os`: override scale curves (false when absent).
    pub fn override_scale(self) -> Option<bool> {
        self.0.bool_value("os")
    }
}

impl<'a> NotificationTrack<'a> {
    /// `n`: the event's name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `kb`: the frames at which it fires.
    pub fn key_frames(self) -> Option<Indices<'a>> {
        self.0.indices("kb")
    }
}

impl<'a> Instance<'a> {
    /// `n`: the name.
    pub fn name(self) -> Option<&'a str> {
        self.0.str_value("n")
    }

    /// `rf`: the hash of the File child naming the referenced scene.
    pub fn reference_file(self) -> Option<u64> {
        self.0.hash_value("rf")
    }

    /// `p`: the position.
    pub fn position(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("p")
    }

    /// `r`: the rotation.
    pub fn rotation(self) -> Option<Quat<f32>> {
        self.0.quat_value("r")
    }

    /// `s`: the scale.
    pub fn scale(self) -> Option<Vec3<f32>> {
        self.0.vec3_value("s")
    }

    /// The File children.
    pub fn files(self) -> impl Iterator<Item = File<'a>> + 'a {
        typed(self.0, File::new)
    }
}

impl<'a> Metadata<'a> {
    /// `a`: the author.
    pub fn author(self) -> Option<&'a str> {
        self.0.str_value("a")
    }

    /// `s`: the software.
    pub fn software(self) -> Option<&'a str> {
        self.0.str_value("s")
    }

    /// `up`: the up axis, `x`, `y` or `z`.
    pub fn up_axis(self) -> Option<&'a str> {
        self.0.str_value("up")
    }

    /// `sr`: the scene root folder that relative paths start from.
    pub fn scene_root(self) -> Option<&'a str> {
        self.0.str_value("sr")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_numbers_are_plain_decimal() {
        assert_eq!(layer_number("0"), Some(0));
        assert_eq!(layer_number("12"), Some(12));
        assert_eq!(layer_number("01"), None);
        assert_eq!(layer_number(""), None);
        assert_eq!(layer_number("l"), None);
        assert!(is_material_slot("extra3") && is_material_slot("emask"));
        assert!(!is_material_slot("extra") && !is_material_slot("n"));
    }
}
