//! Typed access to the documented properties of each node type.
//!
//! Each node type has a small borrowing wrapper (`Mesh<'a>`, `Curve<'a>`, ...) made with
//! [`Node::as_mesh`] and its siblings, whose methods return a documented property when it is
//! present with a documented type and shape, and `None` otherwise (`validate` says why).
//! Single-valued properties come back as values, arrays as slices, index buffers as
//! [`Indices`] whatever their width.

use std::borrow::Cow;

use animbin_core::math::{Quat, Vec2, Vec3, Vec4};

use crate::layout::NodeKind;
use crate::model::{CastFile, Indices, Node, Value};

/// A property element type: the values of one [`Value`] variant (`u8` for `b`, `f32` for
/// `f`, [`Vec3<f32>`] for `3v`, `String` for `s`...).
pub trait Element: Sized {
    /// The values, when `value` holds this type.
    fn slice(value: &Value) -> Option<&[Self]>;
}

/// Implements [`Element`] for each type and the [`Value`] variant that holds it.
macro_rules! elements {
    ($($t:ty => $variant:ident,)*) => {
        $(
            impl Element for $t {
                fn slice(value: &Value) -> Option<&[Self]> {
                    match value {
                        Value::$variant(v) => Some(v),
                        _ => None,
                    }
                }
            }
        )*
    };
}

elements! {
    u8 => Byte,
    u16 => Short,
    u32 => Integer,
    u64 => Long,
    f32 => Float,
    f64 => Double,
    Cow<'static, str> => String,
    Vec2<f32> => Vec2,
    Vec3<f32> => Vec3,
    Vec4<f32> => Vec4,
}

impl Value {
    /// The values, when they are of type `T`.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        T::slice(self)
    }
}

/// Single values and arrays of a node's properties by name, for any node type.
impl Node {
    /// The values of the first property called `name`, when they are of type `T`.
    pub fn array<T: Element>(&self, name: &str) -> Option<&[T]> {
        self.value(name)?.as_slice()
    }

    /// The one value of the first property called `name`, when it is of type `T` and has
    /// exactly one element.
    pub fn single<T: Element + Copy>(&self, name: &str) -> Option<T> {
        match self.array(name)? {
            [value] => Some(*value),
            _ => None,
        }
    }

    /// The single string of property `name`.
    pub fn str_value(&self, name: &str) -> Option<&str> {
        self.value(name)?.as_str()
    }

    /// The single hash (`l`) of property `name`.
    pub fn hash_value(&self, name: &str) -> Option<u64> {
        self.single(name)
    }

    /// The single `b` of property `name` as a boolean (any non-zero byte is true).
    pub fn bool_value(&self, name: &str) -> Option<bool> {
        self.single::<u8>(name).map(|b| b != 0)
    }

    /// The single `f` of property `name`.
    pub fn float_value(&self, name: &str) -> Option<f32> {
        self.single(name)
    }

    /// The single index (`b`, `h` or `i`) of property `name`, widened.
    pub fn index_value(&self, name: &str) -> Option<u32> {
        let indices = self.value(name)?.indices()?;
        (indices.len() == 1).then(|| indices.get(0)).flatten()
    }

    /// The single `3v` of property `name`.
    pub fn vec3_value(&self, name: &str) -> Option<Vec3<f32>> {
        self.single(name)
    }

    /// The single `4v` of property `name`.
    pub fn vec4_value(&self, name: &str) -> Option<Vec4<f32>> {
        self.single(name)
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
        self.array(name)
    }

    /// The `i` array of property `name`.
    pub fn integers(&self, name: &str) -> Option<&[u32]> {
        self.array(name)
    }

    /// The `2v` array of property `name`.
    pub fn vec2s(&self, name: &str) -> Option<&[Vec2<f32>]> {
        self.array(name)
    }

    /// The `3v` array of property `name`.
    pub fn vec3s(&self, name: &str) -> Option<&[Vec3<f32>]> {
        self.array(name)
    }

    /// The `4v` array of property `name`.
    pub fn vec4s(&self, name: &str) -> Option<&[Vec4<f32>]> {
        self.array(name)
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

/// Declares accessors that each return one documented property through a [`Node`]
/// helper: `name -> Type = helper("prop");`.
macro_rules! properties {
    ($($(#[$doc:meta])* $fn:ident -> $ret:ty = $get:ident($prop:literal);)*) => {
        $(
            $(#[$doc])*
            pub fn $fn(self) -> Option<$ret> {
                self.0.$get($prop)
            }
        )*
    };
}

/// Declares accessors that each iterate over the children of one node type:
/// `name -> Type;`.
macro_rules! children {
    ($($(#[$doc:meta])* $fn:ident -> $kind:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $fn(self) -> impl Iterator<Item = $kind<'a>> + 'a {
                typed(self.0, $kind::new)
            }
        )*
    };
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
    children! {
        /// The Model children.
        models -> Model;
        /// The Animation children.
        animations -> Animation;
        /// The Instance children.
        instances -> Instance;
        /// The Metadata children (hints come from the first).
        metadata -> Metadata;
    }
}

impl<'a> Model<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `p`: the position of the model in the world.
        position -> Vec3<f32> = vec3_value("p");
        /// `r`: the rotation of the model in the world.
        rotation -> Quat<f32> = quat_value("r");
        /// `s`: the scale of the model in the world.
        scale -> Vec3<f32> = vec3_value("s");
    }

    /// The Skeleton child (the first; a model has at most one).
    pub fn skeleton(self) -> Option<Skeleton<'a>> {
        typed(self.0, Skeleton::new).next()
    }

    children! {
        /// The Mesh children.
        meshes -> Mesh;
        /// The Hair children.
        hairs -> Hair;
        /// The BlendShape children.
        blend_shapes -> BlendShape;
        /// The Material children.
        materials -> Material;
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
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `vp`: vertex positions; their number is the vertex count.
        positions -> &'a [Vec3<f32>] = vec3s("vp");
        /// `vn`: vertex normals.
        normals -> &'a [Vec3<f32>] = vec3s("vn");
        /// `vt`: vertex tangents.
        tangents -> &'a [Vec3<f32>] = vec3s("vt");
        /// `ul`: the number of UV layers.
        uv_layer_count -> u32 = index_value("ul");
    }

    /// `u0`, `u1`, ...: UV layer `layer`.
    pub fn uv_layer(self, layer: u32) -> Option<&'a [Vec2<f32>]> {
        self.0.vec2s(&format!("u{layer}"))
    }

    properties! {
        /// `cl`: the number of colour layers.
        color_layer_count -> u32 = index_value("cl");
    }

    /// `c0`, `c1`, ...: colour layer `layer`, packed (`i`) or float (`4v`).
    pub fn color_layer(self, layer: u32) -> Option<ColorLayer<'a>> {
        match self.0.value(&format!("c{layer}"))? {
            Value::Integer(v) => Some(ColorLayer::Packed(v)),
            Value::Vec4(v) => Some(ColorLayer::Float(v)),
            _ => None,
        }
    }

    properties! {
        /// `vc`: the legacy single colour layer (packed), used when `cl` is absent.
        legacy_colors -> &'a [u32] = integers("vc");
        /// `wb`: the bone of each influence, `max_influence` per vertex, vertex-major; indices
        /// into the Bone children of the model's Skeleton.
        weight_bones -> Indices<'a> = indices("wb");
        /// `wv`: the weight of each influence, laid out as [`Mesh::weight_bones`].
        weight_values -> &'a [f32] = floats("wv");
        /// `mi`: influences per vertex.
        max_influence -> u32 = index_value("mi");
        /// `f`: triangles, three vertex indices each, counter-clockwise.
        faces -> Indices<'a> = indices("f");
        /// `sm`: the skinning method, `linear` (the default) or `quaternion`.
        skinning_method -> &'a str = str_value("sm");
        /// `m`: the hash of a Material of the same model.
        material -> u64 = hash_value("m");
    }
}

impl<'a> Hair<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `se`: segments per strand.
        segments -> Indices<'a> = indices("se");
        /// `pt`: particles, strand after strand (a strand of k segments has k + 1).
        particles -> &'a [Vec3<f32>] = vec3s("pt");
        /// `m`: the hash of a Material of the same model.
        material -> u64 = hash_value("m");
    }
}

impl<'a> BlendShape<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `b`: the hash of the base Mesh in the same model.
        base_shape -> u64 = hash_value("b");
        /// `vi`: the indices of the base vertices the shape moves.
        vertex_indices -> Indices<'a> = indices("vi");
        /// `vp`: the final positions of those vertices (not offsets).
        vertex_positions -> &'a [Vec3<f32>] = vec3s("vp");
        /// `ts`: the maximum weight (upstream writes one value; 1.0 when absent).
        target_weight_scale -> &'a [f32] = floats("ts");
    }
}

impl<'a> Skeleton<'a> {
    children! {
        /// The Bone children; parent indices and skin weights count them in this order.
        bones -> Bone;
        /// The IKHandle children.
        ik_handles -> IkHandle;
        /// The Constraint children.
        constraints -> Constraint;
    }
}

impl<'a> Bone<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
    }

    /// `p`: the parent's index among the skeleton's bones, -1 for none.
    pub fn parent(self) -> Option<i32> {
        match self.0.value("p")? {
            Value::Integer(v) if v.len() == 1 => Some(v[0] as i32),
            _ => None,
        }
    }

    properties! {
        /// `ssc`: segment scale compensate (true when absent).
        segment_scale_compensate -> bool = bool_value("ssc");
        /// `lp`: the position relative to the parent.
        local_position -> Vec3<f32> = vec3_value("lp");
        /// `lr`: the rotation relative to the parent.
        local_rotation -> Quat<f32> = quat_value("lr");
        /// `wp`: the position in the world.
        world_position -> Vec3<f32> = vec3_value("wp");
        /// `wr`: the rotation in the world.
        world_rotation -> Quat<f32> = quat_value("wr");
        /// `s`: the scale (always local).
        scale -> Vec3<f32> = vec3_value("s");
    }
}

impl<'a> IkHandle<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `sb`: the hash of the start bone.
        start_bone -> u64 = hash_value("sb");
        /// `eb`: the hash of the end bone.
        end_bone -> u64 = hash_value("eb");
        /// `tb`: the hash of the target bone.
        target_bone -> u64 = hash_value("tb");
        /// `to`: the target offset.
        target_offset -> Vec3<f32> = vec3_value("to");
        /// `pv`: the hash of the pole vector bone.
        pole_vector_bone -> u64 = hash_value("pv");
        /// `pb`: the hash of the pole (twist) bone.
        pole_bone -> u64 = hash_value("pb");
        /// `tr`: use the target's rotation (false when absent).
        use_target_rotation -> bool = bool_value("tr");
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
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `ct`: the type, `pt` (point), `or` (orient) or `sc` (scale).
        constraint_type -> &'a str = str_value("ct");
        /// `cb`: the hash of the constrained bone.
        constraint_bone -> u64 = hash_value("cb");
        /// `tb`: the hash of the target bone.
        target_bone -> u64 = hash_value("tb");
        /// `mo`: maintain the offset (false when absent).
        maintain_offset -> bool = bool_value("mo");
    }

    /// `co`: the custom offset.
    pub fn custom_offset(self) -> Option<ConstraintOffset> {
        self.0
            .vec3_value("co")
            .map(ConstraintOffset::Vector)
            .or_else(|| self.0.quat_value("co").map(ConstraintOffset::Rotation))
    }

    properties! {
        /// `wt`: the weight.
        weight -> f32 = float_value("wt");
        /// `sx`: skip the x axis (false when absent).
        skip_x -> bool = bool_value("sx");
        /// `sy`: skip the y axis (false when absent).
        skip_y -> bool = bool_value("sy");
        /// `sz`: skip the z axis (false when absent).
        skip_z -> bool = bool_value("sz");
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
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `t`: the type (upstream lists only `pbr`).
        material_type -> &'a str = str_value("t");
    }

    /// The hash in slot `slot` (`albedo`, `normal`, `extra0`, ...): a File or Color child.
    pub fn slot(self, slot: &str) -> Option<u64> {
        self.0.hash_value(slot)
    }

    /// Every slot the material fills, in property order, with its hash.
    pub fn slots(self) -> impl Iterator<Item = (&'a str, u64)> + 'a {
        self.0.properties.iter().filter_map(|p| match &p.value {
            Value::Long(v) if v.len() == 1 && is_material_slot(&p.name) => Some((p.name.as_ref(), v[0])),
            _ => None,
        })
    }

    children! {
        /// The File children.
        files -> File;
        /// The Color children.
        colors -> Color;
    }
}

impl<'a> File<'a> {
    properties! {
        /// `p`: the path (of a texture, or of the scene an Instance references).
        path -> &'a str = str_value("p");
    }
}

impl<'a> Color<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `cs`: the colour space, `srgb` (the default) or `linear`.
        color_space -> &'a str = str_value("cs");
        /// `rgba`: the colour.
        rgba -> Vec4<f32> = vec4_value("rgba");
    }
}

impl<'a> Animation<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `fr`: frames per second.
        framerate -> f32 = float_value("fr");
        /// `lo`: whether it loops.
        looping -> bool = bool_value("lo");
    }

    /// The Skeleton child, if any.
    pub fn skeleton(self) -> Option<Skeleton<'a>> {
        typed(self.0, Skeleton::new).next()
    }

    children! {
        /// The Curve children.
        curves -> Curve;
        /// The CurveModeOverride children.
        curve_mode_overrides -> CurveModeOverride;
        /// The NotificationTrack children.
        notification_tracks -> NotificationTrack;
    }
}

impl<'a> Curve<'a> {
    properties! {
        /// `nn`: the name of the animated node (a bone, or a blend shape for `bs`).
        node_name -> &'a str = str_value("nn");
        /// `kp`: the animated property: `rq`, `tx`, `ty`, `tz`, `sx`, `sy`, `sz`, `bs` or `vb`.
        key_property -> &'a str = str_value("kp");
        /// `kb`: the key frames.
        key_frames -> Indices<'a> = indices("kb");
        /// `kv`: the key values (`4v` for `rq`, `f` for translation, scale and blend-shape
        /// weights, `b`/`h`/`i` for visibility).
        key_values -> &'a Value = value("kv");
        /// `m`: the mode, `additive`, `absolute` or `relative`.
        mode -> &'a str = str_value("m");
        /// `ab`: the additive blend weight.
        additive_blend_weight -> f32 = float_value("ab");
    }
}

impl<'a> CurveModeOverride<'a> {
    properties! {
        /// `nn`: the node whose subtree is overridden.
        node_name -> &'a str = str_value("nn");
        /// `m`: the mode, `additive`, `absolute` or `relative`.
        mode -> &'a str = str_value("m");
        /// `ot`: override translation curves (false when absent).
        override_translation -> bool = bool_value("ot");
        /// `or`: override rotation curves (false when absent).
        override_rotation -> bool = bool_value("or");
        /// `os`: override scale curves (false when absent).
        override_scale -> bool = bool_value("os");
    }
}

impl<'a> NotificationTrack<'a> {
    properties! {
        /// `n`: the event's name.
        name -> &'a str = str_value("n");
        /// `kb`: the frames at which it fires.
        key_frames -> Indices<'a> = indices("kb");
    }
}

impl<'a> Instance<'a> {
    properties! {
        /// `n`: the name.
        name -> &'a str = str_value("n");
        /// `rf`: the hash of the File child naming the referenced scene.
        reference_file -> u64 = hash_value("rf");
        /// `p`: the position.
        position -> Vec3<f32> = vec3_value("p");
        /// `r`: the rotation.
        rotation -> Quat<f32> = quat_value("r");
        /// `s`: the scale.
        scale -> Vec3<f32> = vec3_value("s");
    }

    children! {
        /// The File children.
        files -> File;
    }
}

impl<'a> Metadata<'a> {
    properties! {
        /// `a`: the author.
        author -> &'a str = str_value("a");
        /// `s`: the software.
        software -> &'a str = str_value("s");
        /// `up`: the up axis, `x`, `y` or `z`.
        up_axis -> &'a str = str_value("up");
        /// `sr`: the scene root folder that relative paths start from.
        scene_root -> &'a str = str_value("sr");
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
