//! The zero-copy view, and the one walk over a file's bytes that both readers use.
//!
//! [`View::parse`] walks the node tree once, without recursion: it checks every header,
//! count, size, type code, name and string against the bytes left (in the file, and in the
//! node that holds them) and notes where each node and property lies. Property payloads are
//! not touched, except strings (their NULs must be found and their UTF-8 checked), so opening
//! costs time in the number of nodes and properties, not in the size of the arrays; the
//! arrays are then lent in place as little-endian `zerocopy` slices ([`Values`]).
//! [`crate::read`] is this walk followed by one copy of each payload.

use std::borrow::Cow;
use std::ops::Range;

use animbin_core::io::{SliceReader, read_pod_vec, slice_at};
use animbin_core::math::{Vec2, Vec3, Vec4};
use animbin_core::{Endian, Error, ErrorKind, Result};
use zerocopy::byteorder::little_endian::{F32, F64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::FORMAT;
use crate::layout::{
    FILE_HEADER_SIZE, FileHeader, MAGIC, MAX_DEPTH, NODE_HEADER_SIZE, NodeHeader, NodeId, NodeKind,
    PROPERTY_HEADER_SIZE, PropertyHeader, PropertyType, VERSION, unknown_type,
};
use crate::model::{CastFile, Node, Property, Value};

/// A [`FileHeader`] as it lies in the file.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct FileHeaderRecord {
    magic: [u8; 4],
    version: U32,
    root_count: U32,
    flags: U32,
}
const _: () = assert!(size_of::<FileHeaderRecord>() as u64 == FILE_HEADER_SIZE);

/// A [`NodeHeader`] as it lies in the file.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct NodeHeaderRecord {
    id: U32,
    node_size: U32,
    hash: U64,
    property_count: U32,
    child_count: U32,
}
const _: () = assert!(size_of::<NodeHeaderRecord>() as u64 == NODE_HEADER_SIZE);

/// A [`PropertyHeader`] as it lies in the file.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct PropertyHeaderRecord {
    kind: U16,
    name_size: U16,
    array_length: U32,
}
const _: () = assert!(size_of::<PropertyHeaderRecord>() as u64 == PROPERTY_HEADER_SIZE);

/// Offsets of the header fields inside a node header and a property header.
mod field {
    pub const NODE_SIZE: usize = 4;
    pub const PROPERTY_COUNT: usize = 16;
    pub const CHILD_COUNT: usize = 20;
    pub const NAME_SIZE: usize = 2;
    pub const ARRAY_LENGTH: usize = 4;
}

/// Where a node lies and what its header says.
#[derive(Debug, Clone, Copy)]
struct NodeEntry {
    offset: usize,
    header: NodeHeader,
    depth: usize,
    /// The index of its first property in [`View::properties`].
    first_property: usize,
    /// The index (in [`View::nodes`], which is in file order) after its last descendant.
    end: usize,
}

/// Where a property lies and what its header says.
#[derive(Debug, Clone, Copy)]
struct PropertyEntry<'a> {
    offset: usize,
    kind: PropertyType,
    name: &'a str,
    array_length: u32,
    payload: &'a [u8],
}

/// A Cast file opened in place: every node and property located and checked, nothing copied.
///
/// ```
/// use animbin_cast::{CastFile, Node, NodeKind, Property, Value, View, to_bytes};
/// use animbin_cast::math::Vec3;
///
/// let mut mesh = Node::new(NodeKind::Mesh, 3);
/// mesh.push(Property::new("vp", Value::Vec3(vec![Vec3::new(1.0, 2.0, 3.0); 3])));
/// mesh.push(Property::new("f", Value::Byte(vec![0, 1, 2])));
/// let mut model = Node::new(NodeKind::Model, 2);
/// model.children.push(mesh);
/// let mut root = Node::new(NodeKind::Root, 1);
/// root.children.push(model);
/// let bytes = to_bytes(&CastFile { flags: 0, roots: vec![root] })?;
///
/// let view = View::parse(&bytes)?;
/// let mesh = view.nodes().find(|n| n.kind() == Some(NodeKind::Mesh)).expect("a mesh");
/// let positions = mesh.property("vp").and_then(|p| p.vec3s()).expect("positions");
/// assert_eq!(positions[2].native(), Vec3::new(1.0, 2.0, 3.0));
/// assert_eq!(mesh.property("f").and_then(|p| p.indices()).map(|f| f.to_vec()), Some(vec![0, 1, 2]));
/// # Ok::<(), animbin_cast::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct View<'a> {
    bytes: &'a [u8],
    header: FileHeader,
    nodes: Vec<NodeEntry>,
    properties: Vec<PropertyEntry<'a>>,
}

fn err(at: usize, kind: ErrorKind) -> Error {
    Error::new(FORMAT, at as u64, kind)
}

fn eof(at: usize, expected: impl Into<String>) -> Error {
    err(
        at,
        ErrorKind::UnexpectedEof {
            expected: expected.into(),
        },
    )
}

fn too_many(at: usize, what: &str, count: u64, min_size: u64, remaining: usize) -> Error {
    err(
        at,
        ErrorKind::CountTooLarge {
            what: what.to_string(),
            count,
            needed: count.saturating_mul(min_size),
            remaining: remaining as u64,
        },
    )
}

/// The node being read: its bytes end at `end`, and `children_left` children remain.
struct Open {
    entry: usize,
    end: usize,
    children_left: u32,
}

impl<'a> View<'a> {
    /// Opens `bytes` as a Cast file, checking it all once (see the crate docs for what is
    /// refused); errors name the byte offset of the field that is wrong.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let header = file_header(bytes)?;
        let mut view = Self {
            bytes,
            header,
            nodes: Vec::new(),
            properties: Vec::new(),
        };
        view.walk()?;
        Ok(view)
    }

    /// Reads every node and property in file order, keeping the open nodes on a stack.
    fn walk(&mut self) -> Result<()> {
        let len = self.bytes.len();
        let mut pos = FILE_HEADER_SIZE as usize;
        let mut roots_left = self.header.root_count;
        let mut stack: Vec<Open> = Vec::new();
        loop {
            let limit = match stack.last_mut() {
                Some(open) if open.children_left == 0 => {
                    if pos != open.end {
                        let at = self.nodes[open.entry].offset;
                        return Err(err(
                            pos,
                            ErrorKind::invalid(
                                format!("the node at byte {at} to end here, where its properties and children end"),
                                format!(
                                    "{} more bytes before the end its nodeSize gives (byte {}): a propertyCount or childCount that is too small, or padding",
                                    open.end - pos,
                                    open.end
                                ),
                            ),
                        ));
                    }
                    let done = stack.pop().map_or(0, |o| o.entry);
                    self.nodes[done].end = self.nodes.len();
                    continue;
                }
                Some(open) => {
                    open.children_left -= 1;
                    open.end
                }
                None if roots_left == 0 => {
                    if pos != len {
                        return Err(err(
                            pos,
                            ErrorKind::invalid(
                                "the end of the file after the last root node",
                                format!("{} more bytes", len - pos),
                            ),
                        ));
                    }
                    return Ok(());
                }
                None => {
                    roots_left -= 1;
                    len
                }
            };
            let parent = stack.last().map(|o| self.nodes[o.entry].offset);
            let (open, children_at) = self.node(pos, limit, parent, stack.len() + 1)?;
            pos = children_at;
            stack.push(open);
        }
    }

    /// Reads the node header at `pos` and its properties; the node must end by `limit` (its
    /// parent's end, or the file's). Returns the open node and where its children start.
    fn node(&mut self, pos: usize, limit: usize, parent: Option<usize>, depth: usize) -> Result<(Open, usize)> {
        let left = limit - pos;
        let what_holds = |parent: Option<usize>| match parent {
            Some(at) => format!("the node at byte {at}"),
            None => "the file".to_string(),
        };
        if left < NODE_HEADER_SIZE as usize {
            return Err(match parent {
                None => eof(pos, "a node header (24 bytes)"),
                Some(at) => err(
                    pos,
                    ErrorKind::invalid(
                        format!(
                            "a child node header (24 bytes) inside {}, which ends at byte {limit}",
                            what_holds(Some(at))
                        ),
                        format!("{left} bytes left in it (a childCount that is too large)"),
                    ),
                ),
            });
        }
        if depth > MAX_DEPTH {
            return Err(err(
                pos,
                ErrorKind::LimitExceeded {
                    what: "node nesting (levels)".into(),
                    requested: depth as u64,
                    limit: MAX_DEPTH as u64,
                },
            ));
        }
        let (record, _) =
            NodeHeaderRecord::ref_from_prefix(&self.bytes[pos..]).map_err(|_| eof(pos, "a node header (24 bytes)"))?;
        let header = NodeHeader {
            id: NodeId(record.id.get()),
            node_size: record.node_size.get(),
            hash: record.hash.get(),
            property_count: record.property_count.get(),
            child_count: record.child_count.get(),
        };
        let size = header.node_size as usize;
        if (size as u64) < NODE_HEADER_SIZE {
            return Err(err(
                pos + field::NODE_SIZE,
                ErrorKind::invalid("a nodeSize of at least 24 (the node header counts)", size),
            ));
        }
        if size > left {
            return Err(err(
                pos + field::NODE_SIZE,
                ErrorKind::invalid(
                    format!(
                        "a nodeSize that ends inside {}, at most {left} from here",
                        what_holds(parent)
                    ),
                    format!("nodeSize {size}, which would end at byte {}", pos as u64 + size as u64),
                ),
            ));
        }
        let end = pos + size;
        let mut at = pos + NODE_HEADER_SIZE as usize;
        let count = u64::from(header.property_count);
        if count * PROPERTY_HEADER_SIZE > (end - at) as u64 {
            return Err(too_many(
                pos + field::PROPERTY_COUNT,
                "property",
                count,
                PROPERTY_HEADER_SIZE,
                end - at,
            ));
        }
        let entry = self.nodes.len();
        self.nodes.push(NodeEntry {
            offset: pos,
            header,
            depth,
            first_property: self.properties.len(),
            end: entry + 1,
        });
        for _ in 0..header.property_count {
            at = self.property(at, pos, end)?;
        }
        let children = u64::from(header.child_count);
        if children * NODE_HEADER_SIZE > (end - at) as u64 {
            return Err(too_many(
                pos + field::CHILD_COUNT,
                "child node",
                children,
                NODE_HEADER_SIZE,
                end - at,
            ));
        }
        Ok((
            Open {
                entry,
                end,
                children_left: header.child_count,
            },
            at,
        ))
    }

    /// Reads the property at `pos` of the node at `node`, which ends at `end`; returns where
    /// the next one starts.
    fn property(&mut self, pos: usize, node: usize, end: usize) -> Result<usize> {
        let inside = |what: &str, at: usize, left: usize| {
            err(
                at,
                ErrorKind::invalid(
                    format!("{what} inside the node at byte {node}, which ends at byte {end} (its nodeSize)"),
                    format!("{left} bytes left in it"),
                ),
            )
        };
        if end - pos < PROPERTY_HEADER_SIZE as usize {
            return Err(inside("a property header (8 bytes)", pos, end - pos));
        }
        let (record, _) = PropertyHeaderRecord::ref_from_prefix(&self.bytes[pos..])
            .map_err(|_| eof(pos, "a property header (8 bytes)"))?;
        let code = record.kind.get();
        let kind = PropertyType::from_repr(code).ok_or_else(|| err(pos, unknown_type(code)))?;
        let name_size = usize::from(record.name_size.get());
        let array_length = record.array_length.get();
        let name_at = pos + PROPERTY_HEADER_SIZE as usize;
        if name_size > end - name_at {
            return Err(inside(
                &format!("a property name of {name_size} bytes (nameSize)"),
                pos + field::NAME_SIZE,
                end - name_at,
            ));
        }
        let name = std::str::from_utf8(&self.bytes[name_at..name_at + name_size]).map_err(|e| {
            err(
                name_at + e.valid_up_to(),
                ErrorKind::invalid("a UTF-8 property name", "bytes that are not UTF-8"),
            )
        })?;
        let payload_at = name_at + name_size;
        let left = end - payload_at;
        let needed = u64::from(array_length) * kind.min_element_size();
        if needed > left as u64 {
            return Err(too_many(
                pos + field::ARRAY_LENGTH,
                &format!("{kind} element of property {name:?}"),
                u64::from(array_length),
                kind.min_element_size(),
                left,
            ));
        }
        let payload_end = match kind.element_size() {
            Some(_) => payload_at + needed as usize,
            None => self.strings_end(payload_at, end, array_length, name, node)?,
        };
        self.properties.push(PropertyEntry {
            offset: pos,
            kind,
            name,
            array_length,
            payload: &self.bytes[payload_at..payload_end],
        });
        Ok(payload_end)
    }

    /// Finds the end of `count` NUL-terminated UTF-8 strings from `pos`, inside the node at
    /// `node` (ending at `end`).
    fn strings_end(&self, pos: usize, end: usize, count: u32, name: &str, node: usize) -> Result<usize> {
        let mut at = pos;
        for i in 0..count {
            let nul = self.bytes[at..end].iter().position(|&b| b == 0).ok_or_else(|| {
                err(
                    at,
                    ErrorKind::invalid(
                        format!(
                            "string {i} of property {name:?} to end with a NUL inside the node at byte {node}, which ends at byte {end}"
                        ),
                        "no NUL before the node's end",
                    ),
                )
            })?;
            at += nul + 1;
        }
        std::str::from_utf8(&self.bytes[pos..at]).map_err(|e| {
            err(
                pos + e.valid_up_to(),
                ErrorKind::invalid(
                    format!("UTF-8 strings in property {name:?}"),
                    "bytes that are not UTF-8",
                ),
            )
        })?;
        Ok(at)
    }

    /// The file header.
    pub fn header(&self) -> FileHeader {
        self.header
    }

    /// The header's reserved `flags`.
    pub fn flags(&self) -> u32 {
        self.header.flags
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The top-level nodes.
    pub fn roots(&self) -> Children<'_, 'a> {
        Children {
            view: self,
            next: 0,
            end: self.nodes.len(),
        }
    }

    /// Every node at any depth, in file order (parents before their children).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = NodeView<'_, 'a>> + '_ {
        (0..self.nodes.len()).map(|index| NodeView { view: self, index })
    }

    /// The number of nodes at any depth.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The number of nodes of type `kind`, wherever they sit.
    pub fn count(&self, kind: NodeKind) -> usize {
        self.nodes.iter().filter(|n| n.header.id == kind.id()).count()
    }

    /// The owned model of the file: every payload copied once.
    ///
    /// Fails only when memory for a payload cannot be allocated.
    pub fn to_file(&self) -> Result<CastFile> {
        Ok(CastFile {
            flags: self.header.flags,
            roots: self.build(0..self.nodes.len())?,
        })
    }

    /// The owned nodes of `range`, a run of whole subtrees in [`View::nodes`], without
    /// recursion: each node is finished when the walk passes its last descendant.
    fn build(&self, range: Range<usize>) -> Result<Vec<Node>> {
        let mut done = Vec::new();
        let mut open: Vec<(Node, usize)> = Vec::new();
        let close = |open: &mut Vec<(Node, usize)>, done: &mut Vec<Node>| {
            if let Some((node, _)) = open.pop() {
                match open.last_mut() {
                    Some((parent, _)) => parent.children.push(node),
                    None => done.push(node),
                }
            }
        };
        for index in range {
            while open.last().is_some_and(|(_, end)| *end <= index) {
                close(&mut open, &mut done);
            }
            let entry = &self.nodes[index];
            let properties = self.entries(entry).map(to_property).collect::<Result<Vec<_>>>()?;
            let node = Node {
                id: entry.header.id,
                hash: entry.header.hash,
                properties,
                children: Vec::with_capacity(entry.header.child_count as usize),
            };
            open.push((node, entry.end));
        }
        while !open.is_empty() {
            close(&mut open, &mut done);
        }
        Ok(done)
    }

    fn entries(&self, node: &NodeEntry) -> std::slice::Iter<'_, PropertyEntry<'a>> {
        let start = node.first_property;
        self.properties[start..start + node.header.property_count as usize].iter()
    }
}

/// Checks the file header: the magic, the version, and a rootCount the bytes can hold.
fn file_header(bytes: &[u8]) -> Result<FileHeader> {
    if !bytes.starts_with(MAGIC) {
        let found = &bytes[..bytes.len().min(MAGIC.len())];
        return Err(if MAGIC.starts_with(found) {
            eof(0, "the magic bytes \"cast\"")
        } else {
            err(
                0,
                ErrorKind::invalid("the magic bytes \"cast\"", animbin_core::strings::show_bytes(found)),
            )
        });
    }
    let (record, _) = FileHeaderRecord::ref_from_prefix(bytes).map_err(|_| eof(0, "the file header (16 bytes)"))?;
    let header = FileHeader {
        magic: record.magic,
        version: record.version.get(),
        root_count: record.root_count.get(),
        flags: record.flags.get(),
    };
    if header.version != VERSION {
        return Err(err(4, ErrorKind::invalid("version 1", header.version)));
    }
    let left = bytes.len() - FILE_HEADER_SIZE as usize;
    let count = u64::from(header.root_count);
    if count * NODE_HEADER_SIZE > left as u64 {
        return Err(too_many(8, "root node", count, NODE_HEADER_SIZE, left));
    }
    Ok(header)
}

/// Copies one payload into an owned property.
fn to_property(entry: &PropertyEntry<'_>) -> Result<Property> {
    fn pod<T: animbin_core::io::Pod>(payload: &[u8]) -> Result<Vec<T>> {
        let count = (payload.len() / size_of::<T>()) as u64;
        let mut reader = SliceReader::new(payload);
        read_pod_vec(&mut reader, Endian::Little, count, "property element").map_err(|e| reader.error(FORMAT, e))
    }
    let p = entry.payload;
    let value = match entry.kind {
        PropertyType::Byte => Value::Byte(p.to_vec()),
        PropertyType::Short => Value::Short(pod(p)?),
        PropertyType::Integer => Value::Integer(pod(p)?),
        PropertyType::Long => Value::Long(pod(p)?),
        PropertyType::Float => Value::Float(pod(p)?),
        PropertyType::Double => Value::Double(pod(p)?),
        PropertyType::String => Value::String(strings(p).map(|s| Cow::Owned(s.to_owned())).collect()),
        PropertyType::Vec2 => Value::Vec2(pod(p)?),
        PropertyType::Vec3 => Value::Vec3(pod(p)?),
        PropertyType::Vec4 => Value::Vec4(pod(p)?),
    };
    Ok(Property {
        name: entry.name.to_string().into(),
        value,
    })
}

/// The strings of a string payload the walk has checked (UTF-8, NUL after each).
fn strings(payload: &[u8]) -> Strings<'_> {
    Strings {
        inner: std::str::from_utf8(payload).unwrap_or_default().split_terminator('\0'),
    }
}

/// One node of a [`View`].
#[derive(Debug, Clone, Copy)]
pub struct NodeView<'v, 'a> {
    view: &'v View<'a>,
    index: usize,
}

impl<'v, 'a> NodeView<'v, 'a> {
    fn entry(&self) -> &'v NodeEntry {
        &self.view.nodes[self.index]
    }

    /// The byte offset of the node header.
    pub fn offset(&self) -> u64 {
        self.entry().offset as u64
    }

    /// The node header as stored.
    pub fn header(&self) -> NodeHeader {
        self.entry().header
    }

    /// The node type.
    pub fn id(&self) -> NodeId {
        self.entry().header.id
    }

    /// The known node type, if the id is one.
    pub fn kind(&self) -> Option<NodeKind> {
        self.id().kind()
    }

    /// The hash.
    pub fn hash(&self) -> u64 {
        self.entry().header.hash
    }

    /// The nesting level: 1 for a top-level node.
    pub fn depth(&self) -> usize {
        self.entry().depth
    }

    /// The properties, in file order.
    pub fn properties(&self) -> impl ExactSizeIterator<Item = PropertyView<'a>> + 'v {
        self.view.entries(self.entry()).map(|&entry| PropertyView { entry })
    }

    /// The first property called `name`.
    pub fn property(&self, name: &str) -> Option<PropertyView<'a>> {
        self.properties().find(|p| p.name() == name)
    }

    /// The direct children, in file order.
    pub fn children(&self) -> Children<'v, 'a> {
        Children {
            view: self.view,
            next: self.index + 1,
            end: self.entry().end,
        }
    }

    /// The node as a mesh, for its arrays in place, when it is a Mesh.
    pub fn as_mesh(&self) -> Option<MeshView<'v, 'a>> {
        (self.kind() == Some(NodeKind::Mesh)).then_some(MeshView(*self))
    }

    /// The node as a curve, for its keys in place, when it is a Curve.
    pub fn as_curve(&self) -> Option<CurveView<'v, 'a>> {
        (self.kind() == Some(NodeKind::Curve)).then_some(CurveView(*self))
    }

    /// The node and its subtree copied into the owned model.
    ///
    /// Fails only when memory for a payload cannot be allocated.
    pub fn to_node(&self) -> Result<Node> {
        let mut nodes = self.view.build(self.index..self.entry().end)?;
        Ok(nodes.pop().unwrap_or_default())
    }
}

/// The direct children of a node (or the top-level nodes) of a [`View`].
#[derive(Debug, Clone)]
pub struct Children<'v, 'a> {
    view: &'v View<'a>,
    next: usize,
    end: usize,
}

impl<'v, 'a> Iterator for Children<'v, 'a> {
    type Item = NodeView<'v, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let node = NodeView {
            view: self.view,
            index: self.next,
        };
        self.next = self.view.nodes[self.next].end;
        Some(node)
    }
}

/// One property of a [`View`], its payload borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct PropertyView<'a> {
    entry: PropertyEntry<'a>,
}

/// A property's values in place, by type: little-endian `zerocopy` slices (call `.get()` or
/// `.native()` on an element), or the strings.
#[derive(Debug, Clone)]
pub enum Values<'a> {
    /// `b`.
    Byte(&'a [u8]),
    /// `h`.
    Short(&'a [U16]),
    /// `i`.
    Integer(&'a [U32]),
    /// `l`.
    Long(&'a [U64]),
    /// `f`.
    Float(&'a [F32]),
    /// `d`.
    Double(&'a [F64]),
    /// `s`.
    String(Strings<'a>),
    /// `2v`.
    Vec2(&'a [Vec2<F32>]),
    /// `3v`.
    Vec3(&'a [Vec3<F32>]),
    /// `4v`.
    Vec4(&'a [Vec4<F32>]),
}

/// The strings of a string property, borrowed.
#[derive(Debug, Clone)]
pub struct Strings<'a> {
    inner: std::str::SplitTerminator<'a, char>,
}

impl<'a> Iterator for Strings<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.inner.next()
    }
}

/// An index buffer (`b`, `h` or `i`) in place: little-endian values borrowed from the file,
/// as core's [`animbin_core::index::IndexSlice`] lends them (`u8`, little-endian `U16` and
/// `U32`); every value reads widened to `u32`.
pub type IndexSlice<'a> = animbin_core::index::IndexSlice<'a>;

/// A payload the walk has sized as a whole number of `T` elements, lent in place.
fn cast<T: FromBytes + KnownLayout + Immutable + Unaligned>(payload: &[u8]) -> &[T] {
    let count = (payload.len() / size_of::<T>()) as u64;
    slice_at(FORMAT, payload, 0, count, "property element").unwrap_or_default()
}

impl<'a> PropertyView<'a> {
    /// The byte offset of the property header.
    pub fn offset(&self) -> u64 {
        self.entry.offset as u64
    }

    /// The header as stored.
    pub fn header(&self) -> PropertyHeader {
        PropertyHeader {
            kind: self.entry.kind,
            name_size: self.entry.name.len() as u16,
            array_length: self.entry.array_length,
        }
    }

    /// The element type.
    pub fn kind(&self) -> PropertyType {
        self.entry.kind
    }

    /// The name.
    pub fn name(&self) -> &'a str {
        self.entry.name
    }

    /// The number of elements (`arrayLength`).
    pub fn len(&self) -> usize {
        self.entry.array_length as usize
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The payload bytes.
    pub fn payload(&self) -> &'a [u8] {
        self.entry.payload
    }

    /// The byte offset of the payload (after the header and the name).
    pub fn payload_offset(&self) -> u64 {
        self.offset() + PROPERTY_HEADER_SIZE + self.entry.name.len() as u64
    }

    /// The values in place.
    pub fn values(&self) -> Values<'a> {
        let p = self.entry.payload;
        // The walk sized every payload as a whole number of elements, so each cast holds.
        match self.entry.kind {
            PropertyType::Byte => Values::Byte(p),
            PropertyType::Short => Values::Short(cast(p)),
            PropertyType::Integer => Values::Integer(cast(p)),
            PropertyType::Long => Values::Long(cast(p)),
            PropertyType::Float => Values::Float(cast(p)),
            PropertyType::Double => Values::Double(cast(p)),
            PropertyType::String => Values::String(strings(p)),
            PropertyType::Vec2 => Values::Vec2(cast(p)),
            PropertyType::Vec3 => Values::Vec3(cast(p)),
            PropertyType::Vec4 => Values::Vec4(cast(p)),
        }
    }

    /// The values of an index type (`b`, `h`, `i`).
    pub fn indices(&self) -> Option<IndexSlice<'a>> {
        match self.values() {
            Values::Byte(v) => Some(IndexSlice::U8(v)),
            Values::Short(v) => Some(IndexSlice::U16(v)),
            Values::Integer(v) => Some(IndexSlice::U32(v)),
            _ => None,
        }
    }

    /// The values of an `f` property.
    pub fn floats(&self) -> Option<&'a [F32]> {
        match self.values() {
            Values::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The values of an `l` property.
    pub fn longs(&self) -> Option<&'a [U64]> {
        match self.values() {
            Values::Long(v) => Some(v),
            _ => None,
        }
    }

    /// The values of a `2v` property.
    pub fn vec2s(&self) -> Option<&'a [Vec2<F32>]> {
        match self.values() {
            Values::Vec2(v) => Some(v),
            _ => None,
        }
    }

    /// The values of a `3v` property.
    pub fn vec3s(&self) -> Option<&'a [Vec3<F32>]> {
        match self.values() {
            Values::Vec3(v) => Some(v),
            _ => None,
        }
    }

    /// The values of a `4v` property.
    pub fn vec4s(&self) -> Option<&'a [Vec4<F32>]> {
        match self.values() {
            Values::Vec4(v) => Some(v),
            _ => None,
        }
    }

    /// The strings of an `s` property.
    pub fn strings(&self) -> Option<Strings<'a>> {
        match self.values() {
            Values::String(s) => Some(s),
            _ => None,
        }
    }

    /// The single string of a one-string property.
    pub fn as_str(&self) -> Option<&'a str> {
        let mut strings = self.strings()?;
        let first = strings.next()?;
        strings.next().is_none().then_some(first)
    }

    /// The values copied into the owned model.
    pub fn to_property(&self) -> Result<Property> {
        to_property(&self.entry)
    }
}

/// A Mesh node of a [`View`]: its arrays in place.
#[derive(Debug, Clone, Copy)]
pub struct MeshView<'v, 'a>(NodeView<'v, 'a>);

impl<'v, 'a> MeshView<'v, 'a> {
    /// The node.
    pub fn node(&self) -> NodeView<'v, 'a> {
        self.0
    }

    /// `vp`: vertex positions.
    pub fn positions(&self) -> Option<&'a [Vec3<F32>]> {
        self.0.property("vp")?.vec3s()
    }

    /// `vn`: vertex normals.
    pub fn normals(&self) -> Option<&'a [Vec3<F32>]> {
        self.0.property("vn")?.vec3s()
    }

    /// `vt`: vertex tangents.
    pub fn tangents(&self) -> Option<&'a [Vec3<F32>]> {
        self.0.property("vt")?.vec3s()
    }

    /// `u0`, `u1`, ...: UV layer `layer`.
    pub fn uv_layer(&self, layer: u32) -> Option<&'a [Vec2<F32>]> {
        self.0.property(&format!("u{layer}"))?.vec2s()
    }

    /// `c0`, `c1`, ...: colour layer `layer`, packed (`i`) or float (`4v`).
    pub fn color_layer(&self, layer: u32) -> Option<Values<'a>> {
        Some(self.0.property(&format!("c{layer}"))?.values())
    }

    /// `f`: triangles, three indices each.
    pub fn faces(&self) -> Option<IndexSlice<'a>> {
        self.0.property("f")?.indices()
    }

    /// `wb`: the bone of each influence.
    pub fn weight_bones(&self) -> Option<IndexSlice<'a>> {
        self.0.property("wb")?.indices()
    }

    /// `wv`: the weight of each influence.
    pub fn weight_values(&self) -> Option<&'a [F32]> {
        self.0.property("wv")?.floats()
    }

    /// `mi`: influences per vertex.
    pub fn max_influence(&self) -> Option<u32> {
        let mi = self.0.property("mi")?.indices()?;
        (mi.len() == 1).then(|| mi.get(0)).flatten()
    }
}

/// A Curve node of a [`View`]: its keys in place.
#[derive(Debug, Clone, Copy)]
pub struct CurveView<'v, 'a>(NodeView<'v, 'a>);

impl<'v, 'a> CurveView<'v, 'a> {
    /// The node.
    pub fn node(&self) -> NodeView<'v, 'a> {
        self.0
    }

    /// `nn`: the animated node's name.
    pub fn node_name(&self) -> Option<&'a str> {
        self.0.property("nn")?.as_str()
    }

    /// `kp`: the animated property.
    pub fn key_property(&self) -> Option<&'a str> {
        self.0.property("kp")?.as_str()
    }

    /// `m`: the mode.
    pub fn mode(&self) -> Option<&'a str> {
        self.0.property("m")?.as_str()
    }

    /// `kb`: the key frames.
    pub fn key_frames(&self) -> Option<IndexSlice<'a>> {
        self.0.property("kb")?.indices()
    }

    /// `kv`: the key values.
    pub fn key_values(&self) -> Option<Values<'a>> {
        Some(self.0.property("kv")?.values())
    }
}
