//! The on-disk layout: the file header, the node header and the property header as binrw
//! types, field by field in file order, and the codes that name node and property types.
//!
//! Everything is little-endian and packed (no alignment, no padding). A file is the 16-byte
//! [`FileHeader`] and `rootCount` nodes; a node is the 24-byte [`NodeHeader`], its
//! properties (each an 8-byte [`PropertyHeader`], the name, the payload), then its children,
//! each a whole node.

use std::fmt;

use animbin_core::{ErrorKind, binary_enum};
use binrw::binrw;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The file's first four bytes: `cast` (0x74736163 as a little-endian u32).
pub const MAGIC: &[u8] = &HEADER_MAGIC;

/// [`MAGIC`] as the header's `magic` field holds it.
pub(crate) const HEADER_MAGIC: [u8; 4] = *b"cast";

/// The only version: 1.
pub const VERSION: u32 = 1;

/// The size of the [`FileHeader`] in bytes.
pub const FILE_HEADER_SIZE: u64 = 16;

/// The size of a [`NodeHeader`] in bytes.
pub const NODE_HEADER_SIZE: u64 = 24;

/// The size of a [`PropertyHeader`] in bytes.
pub const PROPERTY_HEADER_SIZE: u64 = 8;

/// The deepest nesting read or written: a top-level node is level 1, its children level 2.
///
/// Real files nest four levels (root, model, material, file); the format sets no limit, so
/// readers pick one. A deeper file is refused with an error at the node that goes too deep,
/// never read by recursion that the file could drive further.
pub const MAX_DEPTH: usize = 64;

/// The file header, 16 bytes at offset 0.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileHeader {
    /// `magic`: the bytes `cast` ([`MAGIC`]).
    pub magic: [u8; 4],
    /// `version`: 1 ([`VERSION`]); readers refuse any other value, whose layout is unknown.
    pub version: u32,
    /// `rootCount`: the number of top-level nodes that follow.
    pub root_count: u32,
    /// `flags`: reserved ("flags or padding" upstream); the reference writer puts 0. Any value
    /// reads and is written back as read.
    pub flags: u32,
}

/// A node header, 24 bytes at the start of every node.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NodeHeader {
    /// `id`: the node type ([`NodeKind`]); unknown ids are legal.
    pub id: NodeId,
    /// `nodeSize`: the byte length of the whole node, these 24 bytes, every property and
    /// every descendant included (not only the data "following" the header, as upstream's
    /// comment has it: every writer counts the header).
    pub node_size: u32,
    /// `hash`: the node's identity for references from other nodes.
    pub hash: u64,
    /// `propertyCount`: properties that follow the header.
    pub property_count: u32,
    /// `childCount`: direct children that follow the properties.
    pub child_count: u32,
}

/// A property header, 8 bytes, followed by `nameSize` bytes of name and then the payload.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PropertyHeader {
    /// `type`: the element type; a code outside [`PropertyType`] is a read error, since the
    /// payload's size could not be known.
    // Not the enum's own read: an unknown code is shown by its two bytes, as the view shows it.
    #[br(try_map = |code: u16| PropertyType::from_repr(code).ok_or_else(|| unknown_type(code)))]
    pub kind: PropertyType,
    /// `nameSize`: bytes of the UTF-8 name (no NUL).
    pub name_size: u16,
    /// `arrayLength`: elements in the payload (a vector counts as one; a string array holds
    /// this many NUL-terminated strings).
    pub array_length: u32,
}

/// The node type in a [`NodeHeader`]: four ASCII bytes read as a little-endian u32.
///
/// Known ids have [`NodeKind`]s; any other value is legal and kept. In JSON (dumps) an id
/// whose four bytes are ASCII letters or digits is its tag (`"mesh"`), any other a number.
#[binrw]
#[brw(little)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The id whose four bytes on disk are `tag`.
    pub const fn from_tag(tag: [u8; 4]) -> Self {
        Self(u32::from_le_bytes(tag))
    }

    /// The four bytes on disk.
    pub const fn tag(self) -> [u8; 4] {
        self.0.to_le_bytes()
    }

    /// The known node type, if the id is one.
    pub const fn kind(self) -> Option<NodeKind> {
        NodeKind::from_id(self)
    }

    /// The tag as text when its four bytes are ASCII letters or digits.
    fn tag_text(self) -> Option<String> {
        let tag = self.tag();
        tag.iter()
            .all(u8::is_ascii_alphanumeric)
            .then(|| tag.iter().map(|&b| char::from(b)).collect())
    }
}

impl fmt::Debug for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NodeId({self})")
    }
}

/// The tag (`mesh`) when it is ASCII letters or digits, else the number in hex.
impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tag_text() {
            Some(tag) => f.write_str(&tag),
            None => write!(f, "{:#010x}", self.0),
        }
    }
}

impl From<NodeKind> for NodeId {
    fn from(kind: NodeKind) -> Self {
        kind.id()
    }
}

impl Serialize for NodeId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.tag_text() {
            Some(tag) => serializer.serialize_str(&tag),
            None => serializer.serialize_u32(self.0),
        }
    }
}

impl<'de> Deserialize<'de> for NodeId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Number(u32),
            Tag(String),
        }
        match Repr::deserialize(deserializer)? {
            Repr::Number(n) => Ok(Self(n)),
            Repr::Tag(tag) => <[u8; 4]>::try_from(tag.as_bytes())
                .ok()
                .filter(|t| t.iter().all(u8::is_ascii_alphanumeric))
                .map(Self::from_tag)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!("a node id is 4 ASCII letters or digits, not {tag:?}"))
                }),
        }
    }
}

/// The node types the format defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// `root`: a top-level node holding models, animations, instances and metadata.
    Root,
    /// `modl`: a model (skeleton, meshes, hair, blend shapes, materials).
    Model,
    /// `mesh`: a triangle mesh.
    Mesh,
    /// `hair`: hair strands.
    Hair,
    /// `blsh`: a blend shape (morph target) of a mesh.
    BlendShape,
    /// `skel`: a skeleton (bones, IK handles, constraints).
    Skeleton,
    /// `bone`: a bone.
    Bone,
    /// `ikhd`: an IK handle.
    IkHandle,
    /// `cnst`: a constraint between two bones.
    Constraint,
    /// `anim`: an animation.
    Animation,
    /// `curv`: one animated property of one node.
    Curve,
    /// `CMOV`: a curve mode override for a node's subtree.
    CurveModeOverride,
    /// `ntif`: a notification (event) track.
    NotificationTrack,
    /// `matl`: a material.
    Material,
    /// `file`: a file path (a texture, or an instanced scene).
    File,
    /// `colr`: a colour.
    Color,
    /// `inst`: an instance of another scene file.
    Instance,
    /// `meta`: metadata (author, software, up axis, scene root).
    Metadata,
}

impl NodeKind {
    /// Every node type, in the order the format's table lists them.
    pub const ALL: [NodeKind; 18] = [
        Self::Root,
        Self::Model,
        Self::Mesh,
        Self::Hair,
        Self::BlendShape,
        Self::Skeleton,
        Self::Bone,
        Self::IkHandle,
        Self::Constraint,
        Self::Animation,
        Self::Curve,
        Self::CurveModeOverride,
        Self::NotificationTrack,
        Self::Material,
        Self::File,
        Self::Color,
        Self::Instance,
        Self::Metadata,
    ];

    /// The four bytes on disk.
    pub const fn tag(self) -> [u8; 4] {
        *match self {
            Self::Root => b"root",
            Self::Model => b"modl",
            Self::Mesh => b"mesh",
            Self::Hair => b"hair",
            Self::BlendShape => b"blsh",
            Self::Skeleton => b"skel",
            Self::Bone => b"bone",
            Self::IkHandle => b"ikhd",
            Self::Constraint => b"cnst",
            Self::Animation => b"anim",
            Self::Curve => b"curv",
            Self::CurveModeOverride => b"CMOV",
            Self::NotificationTrack => b"ntif",
            Self::Material => b"matl",
            Self::File => b"file",
            Self::Color => b"colr",
            Self::Instance => b"inst",
            Self::Metadata => b"meta",
        }
    }

    /// The id in a node header.
    pub const fn id(self) -> NodeId {
        NodeId::from_tag(self.tag())
    }

    /// The node type of `id`, if it is a known one.
    pub const fn from_id(id: NodeId) -> Option<Self> {
        let mut i = 0;
        while i < Self::ALL.len() {
            if Self::ALL[i].id().0 == id.0 {
                return Some(Self::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// The name the format's documentation uses (`"Mesh"`, `"CurveModeOverride"`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Root => "Root",
            Self::Model => "Model",
            Self::Mesh => "Mesh",
            Self::Hair => "Hair",
            Self::BlendShape => "BlendShape",
            Self::Skeleton => "Skeleton",
            Self::Bone => "Bone",
            Self::IkHandle => "IKHandle",
            Self::Constraint => "Constraint",
            Self::Animation => "Animation",
            Self::Curve => "Curve",
            Self::CurveModeOverride => "CurveModeOverride",
            Self::NotificationTrack => "NotificationTrack",
            Self::Material => "Material",
            Self::File => "File",
            Self::Color => "Color",
            Self::Instance => "Instance",
            Self::Metadata => "Metadata",
        }
    }

    /// The node types a node of this type may hold as children.
    pub const fn children(self) -> &'static [NodeKind] {
        match self {
            Self::Root => &[Self::Model, Self::Animation, Self::Instance, Self::Metadata],
            Self::Model => &[Self::Skeleton, Self::Mesh, Self::Hair, Self::BlendShape, Self::Material],
            Self::Skeleton => &[Self::Bone, Self::IkHandle, Self::Constraint],
            Self::Animation => &[
                Self::Skeleton,
                Self::Curve,
                Self::CurveModeOverride,
                Self::NotificationTrack,
            ],
            Self::Material => &[Self::File, Self::Color],
            Self::Instance => &[Self::File],
            _ => &[],
        }
    }
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

binary_enum! {
    /// A property's element type: the `type` of a [`PropertyHeader`].
    ///
    /// On disk the u16 is two ASCII bytes: a letter and a zero byte (`b\0`), or a digit and
    /// `v` for vectors (`2v`, which the format's text writes as the C literal `'v2'`). The
    /// name (`"b"`, `"2v"`) is the format's, in JSON and messages.
    #[derive(PartialOrd, Ord)]
    pub enum PropertyType: u16 {
        /// `b`: u8.
        Byte = u16::from_le_bytes(*b"b\0") => "b",
        /// `h`: u16.
        Short = u16::from_le_bytes(*b"h\0") => "h",
        /// `i`: u32.
        Integer = u16::from_le_bytes(*b"i\0") => "i",
        /// `l`: u64.
        Long = u16::from_le_bytes(*b"l\0") => "l",
        /// `f`: f32.
        Float = u16::from_le_bytes(*b"f\0") => "f",
        /// `d`: f64.
        Double = u16::from_le_bytes(*b"d\0") => "d",
        /// `s`: a NUL-terminated UTF-8 string.
        String = u16::from_le_bytes(*b"s\0") => "s",
        /// `2v`: two f32 (x, y).
        Vec2 = u16::from_le_bytes(*b"2v") => "2v",
        /// `3v`: three f32 (x, y, z).
        Vec3 = u16::from_le_bytes(*b"3v") => "3v",
        /// `4v`: four f32 (x, y, z, w).
        Vec4 = u16::from_le_bytes(*b"4v") => "4v",
    }
    expected = "a property type (b, h, i, l, f, d, s, 2v, 3v or 4v)";
    serde = names;
}

impl PropertyType {
    /// The bytes of one element; `None` for strings, whose size is their text plus a NUL.
    pub const fn element_size(self) -> Option<u64> {
        Some(match self {
            Self::Byte => 1,
            Self::Short => 2,
            Self::Integer | Self::Float => 4,
            Self::Long | Self::Double | Self::Vec2 => 8,
            Self::Vec3 => 12,
            Self::Vec4 => 16,
            Self::String => return None,
        })
    }

    /// The fewest bytes one element takes (1 for a string: its NUL).
    pub const fn min_element_size(self) -> u64 {
        match self.element_size() {
            Some(n) => n,
            None => 1,
        }
    }
}

/// The error for a type code that is none of the ten, showing the code and its two bytes
/// (a code is two ASCII characters, so its bytes say more than its value).
pub(crate) fn unknown_type(code: u16) -> ErrorKind {
    let [a, b] = code.to_le_bytes();
    ErrorKind::invalid(
        PropertyType::expected(),
        format!("{code:#06x} (bytes {a:#04x} {b:#04x})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_their_four_bytes_little_endian() {
        assert_eq!(NodeKind::Root.id(), NodeId(0x746F_6F72));
        assert_eq!(NodeKind::CurveModeOverride.id(), NodeId(0x564F_4D43));
        assert_eq!(NodeKind::Metadata.id(), NodeId(0x6174_656D));
        for kind in NodeKind::ALL {
            assert_eq!(NodeKind::from_id(kind.id()), Some(kind));
        }
        assert_eq!(NodeId(7).kind(), None);
        assert_eq!(NodeId(7).to_string(), "0x00000007");
        assert_eq!(NodeKind::Mesh.id().to_string(), "mesh");
    }

    #[test]
    fn vector_codes_are_digit_then_v() {
        assert_eq!(PropertyType::Vec2.repr(), 0x7632);
        assert_eq!(PropertyType::Vec4.repr(), 0x7634);
        assert_eq!(PropertyType::Byte.repr(), 0x0062);
        assert_eq!(PropertyType::from_repr(0x3276), None, "v2 in the other byte order");
        for &t in PropertyType::ALL {
            assert_eq!(PropertyType::from_repr(t.repr()), Some(t));
        }
    }

    #[test]
    fn an_unknown_type_code_is_shown_by_its_bytes_and_names_are_the_format_s() {
        let bytes = [0x55, 0x78, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00];
        let err = animbin_core::io::read_from_slice::<PropertyHeader>("cast", &bytes, animbin_core::Endian::Little)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cast at byte 0 (0x0): expected a property type (b, h, i, l, f, d, s, 2v, 3v or 4v), found 0x7855 (bytes 0x55 0x78)"
        );
        assert_eq!(PropertyType::Vec3.to_string(), "3v");
        assert_eq!(serde_json::to_string(&PropertyType::Short).unwrap(), r#""h""#);
        assert_eq!(
            serde_json::from_str::<PropertyType>(r#""4v""#).unwrap(),
            PropertyType::Vec4
        );
    }

    #[test]
    fn node_ids_serialize_as_tags_or_numbers() {
        let json = serde_json::to_string(&[NodeKind::Curve.id(), NodeId(1)]).unwrap();
        assert_eq!(json, r#"["curv",1]"#);
        let back: Vec<NodeId> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, [NodeKind::Curve.id(), NodeId(1)]);
        assert!(serde_json::from_str::<NodeId>(r#""curve""#).is_err());
    }
}
