//! The owned model: a [`CastFile`] is a tree of [`Node`]s, each with its [`Property`]s in
//! file order, known node types and unknown ones alike, so that every file that reads is
//! written back byte for byte.
//!
//! Not stored, because the writer derives them: `rootCount`, `nodeSize`, `propertyCount`,
//! `childCount`, `nameSize`, `arrayLength` and the version (1).

use std::borrow::Cow;

use animbin_core::index::IndexSlice;
use animbin_core::math::{Vec2, Vec3, Vec4};
use serde::{Deserialize, Serialize};

use crate::layout::{MAX_DEPTH, NodeId, NodeKind, PropertyType};

/// A whole Cast file.
///
/// In JSON (dumps) the tree is flat, `{"flags": 0, "nodes": [...]}`, each node in file order
/// with its `depth` (1 for a top-level node), so that no JSON reader needs to nest as deep
/// as the file does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CastFile {
    /// The header's `flags` (reserved; 0 from every known writer), kept as read.
    pub flags: u32,
    /// The top-level nodes, Root nodes in a valid file.
    pub roots: Vec<Node>,
}

/// One node: its type, its hash, its properties and its children, in file order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Node {
    /// The node type ([`NodeId::kind`] for known ones).
    pub id: NodeId,
    /// The node's identity for references from other nodes (any u64).
    pub hash: u64,
    /// The properties, in file order (duplicated names included).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<Property>,
    /// The children, in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

/// One property: a name and an array of values of one type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Property {
    /// The name, UTF-8 without NUL terminator on disk (upstream names are short lowercase
    /// ASCII such as `vp`). Borrowed when it is a name known in advance, as every name a
    /// scene export writes is: a Cast curve is a node of five properties, and naming each in
    /// an allocation of its own took a large part of an export's time.
    pub name: Cow<'static, str>,
    /// The values; their type is the property's type and their number its `arrayLength`.
    #[serde(flatten)]
    pub value: Value,
}

/// A property's values, by type.
///
/// In JSON (dumps) `{"type": "3v", "values": [...]}`, beside the property's `name`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "values")]
pub enum Value {
    /// `b`: u8 values (also booleans, 0 / 1).
    #[serde(rename = "b")]
    Byte(Vec<u8>),
    /// `h`: u16 values.
    #[serde(rename = "h")]
    Short(Vec<u16>),
    /// `i`: u32 values (a bone parent of -1 is 0xFFFFFFFF).
    #[serde(rename = "i")]
    Integer(Vec<u32>),
    /// `l`: u64 values (hashes).
    #[serde(rename = "l")]
    Long(Vec<u64>),
    /// `f`: f32 values.
    #[serde(rename = "f")]
    Float(#[serde(with = "animbin_core::float::dump")] Vec<f32>),
    /// `d`: f64 values.
    #[serde(rename = "d")]
    Double(#[serde(with = "animbin_core::float::dump")] Vec<f64>),
    /// `s`: strings; documented string properties hold exactly one. Borrowed when known in
    /// advance (a curve's key property and mode), so a scene export allocates only the
    /// names that come from the scene.
    #[serde(rename = "s")]
    String(Vec<Cow<'static, str>>),
    /// `2v`: two-component vectors.
    #[serde(rename = "2v")]
    Vec2(Vec<Vec2<f32>>),
    /// `3v`: three-component vectors.
    #[serde(rename = "3v")]
    Vec3(Vec<Vec3<f32>>),
    /// `4v`: four-component vectors (quaternions x, y, z, w; colours r, g, b, a).
    #[serde(rename = "4v")]
    Vec4(Vec<Vec4<f32>>),
}

impl Value {
    /// The property type these values have.
    pub fn kind(&self) -> PropertyType {
        match self {
            Self::Byte(_) => PropertyType::Byte,
            Self::Short(_) => PropertyType::Short,
            Self::Integer(_) => PropertyType::Integer,
            Self::Long(_) => PropertyType::Long,
            Self::Float(_) => PropertyType::Float,
            Self::Double(_) => PropertyType::Double,
            Self::String(_) => PropertyType::String,
            Self::Vec2(_) => PropertyType::Vec2,
            Self::Vec3(_) => PropertyType::Vec3,
            Self::Vec4(_) => PropertyType::Vec4,
        }
    }

    /// The number of elements (the `arrayLength`).
    pub fn len(&self) -> usize {
        match self {
            Self::Byte(v) => v.len(),
            Self::Short(v) => v.len(),
            Self::Integer(v) => v.len(),
            Self::Long(v) => v.len(),
            Self::Float(v) => v.len(),
            Self::Double(v) => v.len(),
            Self::String(v) => v.len(),
            Self::Vec2(v) => v.len(),
            Self::Vec3(v) => v.len(),
            Self::Vec4(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The payload's size in bytes (for strings, their UTF-8 bytes plus one NUL each).
    pub fn payload_size(&self) -> u64 {
        match (self, self.kind().element_size()) {
            (Self::String(v), _) => v.iter().map(|s| s.len() as u64 + 1).sum(),
            (_, Some(size)) => self.len() as u64 * size,
            (_, None) => 0,
        }
    }

    /// Integer values of the index types (`b`, `h`, `i`), widened; `None` for other types.
    pub fn indices(&self) -> Option<Indices<'_>> {
        match self {
            Self::Byte(v) => Some(Indices::U8(v)),
            Self::Short(v) => Some(Indices::U16(v)),
            Self::Integer(v) => Some(Indices::U32(v)),
            _ => None,
        }
    }

    /// Index values (`b`, `h` or `i`) at the narrowest width that holds the largest, as the
    /// reference writer picks it (`b` for an empty list).
    pub fn narrowest(values: &[u32]) -> Self {
        match values.iter().copied().max().unwrap_or(0) {
            0..=0xFF => Self::Byte(values.iter().map(|&v| v as u8).collect()),
            0x100..=0xFFFF => Self::Short(values.iter().map(|&v| v as u16).collect()),
            _ => Self::Integer(values.to_vec()),
        }
    }

    /// The single string, when these are the values of a one-string property.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(v) if v.len() == 1 => Some(&v[0]),
            _ => None,
        }
    }
}

/// Index values (`b`, `h` or `i`) of the owned model, borrowed at their width (native `u8`,
/// `u16` and `u32`); a view lends them in place as [`crate::IndexSlice`]. Every value reads
/// widened to `u32` ([`IndexSlice::get`], [`IndexSlice::iter`], [`IndexSlice::to_vec`]).
pub type Indices<'a> = IndexSlice<'a, u8, u16, u32>;

impl Property {
    /// A property called `name` holding `value`.
    pub fn new(name: impl Into<Cow<'static, str>>, value: Value) -> Self {
        Self {
            name: name.into(),
            value,
        }
    }

    /// A one-string property.
    pub fn string(name: impl Into<Cow<'static, str>>, value: impl Into<Cow<'static, str>>) -> Self {
        Self::new(name, Value::String(vec![value.into()]))
    }

    /// A one-hash (`l`) property.
    pub fn hash(name: impl Into<Cow<'static, str>>, hash: u64) -> Self {
        Self::new(name, Value::Long(vec![hash]))
    }

    /// A boolean (`b`, 0 or 1) property.
    pub fn boolean(name: impl Into<Cow<'static, str>>, value: bool) -> Self {
        Self::new(name, Value::Byte(vec![u8::from(value)]))
    }
}

impl Node {
    /// A node of type `id` with `hash` and nothing in it.
    pub fn new(id: impl Into<NodeId>, hash: u64) -> Self {
        Self {
            id: id.into(),
            hash,
            properties: Vec::new(),
            children: Vec::new(),
        }
    }

    /// A node of type `kind` with `hash`, its properties and its children, built whole.
    pub fn with(kind: NodeKind, hash: u64, properties: Vec<Property>, children: Vec<Node>) -> Self {
        Self {
            id: kind.id(),
            hash,
            properties,
            children,
        }
    }

    /// The known node type, if the id is one.
    pub fn kind(&self) -> Option<NodeKind> {
        self.id.kind()
    }

    /// Whether the node has the id of `kind`.
    pub fn is(&self, kind: NodeKind) -> bool {
        self.id == kind.id()
    }

    /// The first property called `name`.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }

    /// The values of the first property called `name`.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.property(name).map(|p| &p.value)
    }

    /// Adds a property at the end.
    pub fn push(&mut self, property: Property) {
        self.properties.push(property);
    }

    /// The children of type `kind`, in order.
    pub fn children_of(&self, kind: NodeKind) -> impl Iterator<Item = &Node> + '_ {
        self.children.iter().filter(move |c| c.is(kind))
    }

    /// The first child whose hash is `hash` (how references resolve: the caller checks its
    /// type).
    pub fn child_by_hash(&self, hash: u64) -> Option<&Node> {
        self.children.iter().find(|c| c.hash == hash)
    }

    /// Each hash's child, as its index: the first child of that hash, as
    /// [`Node::child_by_hash`] finds it, for callers that resolve many references into this
    /// node (a search per reference grows with the square of the children).
    pub fn child_indices_by_hash(&self) -> std::collections::HashMap<u64, usize> {
        let mut by_hash = std::collections::HashMap::with_capacity(self.children.len());
        for (i, child) in self.children.iter().enumerate() {
            by_hash.entry(child.hash).or_insert(i);
        }
        by_hash
    }

    /// The number of nodes in this subtree, this one included.
    pub fn node_count(&self) -> usize {
        let mut count = 0;
        self.walk(&mut |_, _| count += 1);
        count
    }

    /// Calls `f` with every node of this subtree and its depth (this node at 0), parents
    /// before children, without recursion.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Node, usize)) {
        let mut stack = vec![(self, 0usize)];
        while let Some((node, depth)) = stack.pop() {
            f(node, depth);
            stack.extend(node.children.iter().rev().map(|c| (c, depth + 1)));
        }
    }
}

impl CastFile {
    /// Calls `f` with every node of the file and its depth (a top-level node at 1), in file
    /// order, without recursion.
    pub fn walk<'a>(&'a self, mut f: impl FnMut(&'a Node, usize)) {
        for root in &self.roots {
            root.walk(&mut |node, depth| f(node, depth + 1));
        }
    }

    /// The number of nodes at any depth, known ids or not.
    pub fn node_count(&self) -> usize {
        let mut count = 0;
        self.walk(|_, _| count += 1);
        count
    }

    /// The number of nodes of type `kind` at any depth, wherever they sit.
    pub fn count(&self, kind: NodeKind) -> usize {
        let mut count = 0;
        self.walk(|node, _| count += usize::from(node.is(kind)));
        count
    }
}

/// A node as the flat JSON form writes it: its depth, header and properties.
#[derive(Serialize)]
struct FlatNodeRef<'a> {
    depth: usize,
    id: NodeId,
    hash: u64,
    #[serde(skip_serializing_if = "<[Property]>::is_empty")]
    properties: &'a [Property],
}

/// A node as the flat JSON form reads it.
#[derive(Deserialize)]
struct FlatNode {
    depth: usize,
    id: NodeId,
    hash: u64,
    #[serde(default)]
    properties: Vec<Property>,
}

/// The flat JSON form of a file as read.
#[derive(Deserialize)]
struct FlatFile {
    #[serde(default)]
    flags: u32,
    #[serde(default)]
    nodes: Vec<FlatNode>,
}

impl Serialize for CastFile {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut nodes = Vec::with_capacity(self.node_count());
        self.walk(|node, depth| {
            nodes.push(FlatNodeRef {
                depth,
                id: node.id,
                hash: node.hash,
                properties: &node.properties,
            })
        });
        let mut out = serializer.serialize_struct("CastFile", 2)?;
        out.serialize_field("flags", &self.flags)?;
        out.serialize_field("nodes", &nodes)?;
        out.end()
    }
}

impl<'de> Deserialize<'de> for CastFile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let flat = FlatFile::deserialize(deserializer)?;
        let mut roots = Vec::new();
        let mut open: Vec<Node> = Vec::new();
        let close = |open: &mut Vec<Node>, roots: &mut Vec<Node>| {
            if let Some(node) = open.pop() {
                match open.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => roots.push(node),
                }
            }
        };
        for (i, node) in flat.nodes.into_iter().enumerate() {
            if node.depth == 0 || node.depth > open.len() + 1 || node.depth > MAX_DEPTH {
                return Err(serde::de::Error::custom(format!(
                    "node {i} has depth {}: a node's depth is 1 at the top, at most one more than the node before it, and at most {MAX_DEPTH}",
                    node.depth
                )));
            }
            while open.len() >= node.depth {
                close(&mut open, &mut roots);
            }
            open.push(Node {
                id: node.id,
                hash: node.hash,
                properties: node.properties,
                children: Vec::new(),
            });
        }
        while !open.is_empty() {
            close(&mut open, &mut roots);
        }
        Ok(Self {
            flags: flat.flags,
            roots,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_and_in_place_index_buffers_read_the_same_values() {
        use zerocopy::FromBytes;
        use zerocopy::byteorder::little_endian::U16;
        let shorts = [1u16, 300, 65535];
        let bytes: Vec<u8> = shorts.iter().flat_map(|v| v.to_le_bytes()).collect();
        let native = Indices::U16(&shorts);
        let in_place: crate::IndexSlice<'_> = IndexSlice::U16(<[U16]>::ref_from_bytes(&bytes).unwrap());
        assert_eq!(native.to_vec(), [1, 300, 65535]);
        assert_eq!(in_place.to_vec(), native.to_vec());
        assert_eq!((in_place.get(1), in_place.get(3), in_place.len()), (Some(300), None, 3));
        assert_eq!(Indices::U32(&[7, 8]).iter().collect::<Vec<_>>(), [7, 8]);
        assert!(Indices::U8(&[]).is_empty());
    }

    #[test]
    fn the_json_form_is_flat_and_reads_back() {
        let mut root = Node::new(NodeKind::Root, 1);
        let mut model = Node::new(NodeKind::Model, 2);
        model.push(Property::string("n", "m"));
        model.children.push(Node::new(NodeKind::Mesh, 3));
        root.children.extend([model, Node::new(NodeKind::Animation, 4)]);
        let file = CastFile {
            flags: 7,
            roots: vec![root, Node::new(NodeId(9), 5)],
        };
        let json = serde_json::to_value(&file).unwrap();
        let depths: Vec<u64> = json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["depth"].as_u64().unwrap())
            .collect();
        assert_eq!(depths, [1, 2, 3, 2, 1]);
        assert_eq!(
            json["nodes"][1]["properties"][0],
            serde_json::json!({"name": "n", "type": "s", "values": ["m"]})
        );
        assert_eq!(serde_json::from_value::<CastFile>(json).unwrap(), file);
        let skip = serde_json::json!({"nodes": [{"depth": 2, "id": "root", "hash": 0}]});
        assert!(serde_json::from_value::<CastFile>(skip).is_err());
    }
}
