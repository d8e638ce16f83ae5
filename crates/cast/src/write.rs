//! The writer: [`write()`] and [`to_bytes`].
//!
//! Sizes and counts are derived, never stored: one pass over the tree computes every
//! `nodeSize` (and refuses what the format cannot encode, naming the node and property), a
//! second writes the bytes. Both passes recurse at most [`MAX_DEPTH`] levels: a deeper tree
//! is refused, as the reader refuses a deeper file.

use std::io::{Seek, Write};

use animbin_core::io::write_pod_slice;
use animbin_core::{Endian, Error, ErrorKind, Result};
use binrw::BinWrite;
use binrw::io::NoSeek;

use crate::FORMAT;
use crate::layout::{
    FILE_HEADER_SIZE, FileHeader, HEADER_MAGIC, MAX_DEPTH, NODE_HEADER_SIZE, NodeHeader, PROPERTY_HEADER_SIZE,
    PropertyHeader, VERSION,
};
use crate::model::{CastFile, Node, Property, Value};

/// Writes `file` to `writer`: the header with `flags` as given, every node and property in
/// order, counts and sizes derived.
///
/// Refuses (naming the node and property) a tree deeper than [`MAX_DEPTH`], a node larger
/// than a u32 `nodeSize` holds, a name longer than 65535 bytes, more elements than a u32
/// `arrayLength` counts, and a string with a NUL inside. Nothing is written when it refuses.
/// The writer only moves forward, so any [`Write`] will do (wrap a file in a
/// `std::io::BufWriter`).
pub fn write(file: &CastFile, writer: impl Write) -> Result<()> {
    let sizes = sizes(file)?;
    encode(file, &sizes, &mut NoSeek::new(writer))
}

/// Encodes `file` as the bytes of a Cast file (see [`write()`] for what it refuses).
pub fn to_bytes(file: &CastFile) -> Result<Vec<u8>> {
    let sizes = sizes(file)?;
    let capacity = FILE_HEADER_SIZE as usize + sizes.top.iter().map(|&s| s as usize).sum::<usize>();
    let mut out = std::io::Cursor::new(Vec::with_capacity(capacity));
    encode(file, &sizes, &mut out)?;
    Ok(out.into_inner())
}

/// Every node's `nodeSize`, in file order, and the top-level ones.
struct Sizes {
    all: Vec<u32>,
    top: Vec<u32>,
}

/// The nodes from a root down to the one being sized, each with its position among its
/// siblings: labelled only when an error names them.
type NodePath<'a> = Vec<(usize, &'a Node)>;

fn unencodable(path: &[(usize, &Node)], what: String) -> Error {
    let place = if path.is_empty() {
        String::new()
    } else {
        let labels: Vec<String> = path.iter().map(|&(i, node)| label(i, node)).collect();
        format!("{}: ", labels.join(" > "))
    };
    Error::new(FORMAT, 0, ErrorKind::Unencodable(format!("{place}{what}")))
}

/// How an error names a node: its position among its siblings, its type and its name.
pub(crate) fn label(index: usize, node: &Node) -> String {
    match node.str_value("n").or_else(|| node.str_value("nn")) {
        Some(name) => format!("{} {index} ({name:?})", node.id),
        None => format!("{} {index}", node.id),
    }
}

fn sizes(file: &CastFile) -> Result<Sizes> {
    if u32::try_from(file.roots.len()).is_err() {
        return Err(unencodable(
            &[],
            format!("{} top-level nodes overflow rootCount", file.roots.len()),
        ));
    }
    let mut all = Vec::new();
    let mut path = NodePath::new();
    let mut top = Vec::with_capacity(file.roots.len());
    for (i, root) in file.roots.iter().enumerate() {
        path.push((i, root));
        top.push(node_size(root, 1, &mut path, &mut all)?);
        path.pop();
    }
    Ok(Sizes { all, top })
}

/// The `nodeSize` of `node` at nesting level `depth`, pushing it and then its descendants'
/// onto `all` in file order.
fn node_size<'a>(node: &'a Node, depth: usize, path: &mut NodePath<'a>, all: &mut Vec<u32>) -> Result<u32> {
    if depth > MAX_DEPTH {
        return Err(unencodable(
            path,
            format!("nesting deeper than {MAX_DEPTH} levels (no reader of this crate would open it)"),
        ));
    }
    for (count, what) in [
        (node.properties.len(), "propertyCount"),
        (node.children.len(), "childCount"),
    ] {
        if u32::try_from(count).is_err() {
            return Err(unencodable(path, format!("{count} entries overflow {what}")));
        }
    }
    let at = all.len();
    all.push(0);
    let mut size = NODE_HEADER_SIZE;
    for property in &node.properties {
        size += property_size(property)
            .map_err(|what| unencodable(path, format!("property {:?}: {what}", property.name)))?;
    }
    for (i, child) in node.children.iter().enumerate() {
        path.push((i, child));
        size += u64::from(node_size(child, depth + 1, path, all)?);
        path.pop();
    }
    let size = u32::try_from(size).map_err(|_| {
        unencodable(
            path,
            format!("the node takes {size} bytes, more than a u32 nodeSize holds"),
        )
    })?;
    all[at] = size;
    Ok(size)
}

/// The bytes `property` takes, or what cannot be encoded.
fn property_size(property: &Property) -> Result<u64, String> {
    if u16::try_from(property.name.len()).is_err() {
        return Err(format!("a name of {} bytes overflows nameSize", property.name.len()));
    }
    if u32::try_from(property.value.len()).is_err() {
        return Err(format!("{} elements overflow arrayLength", property.value.len()));
    }
    if let Value::String(strings) = &property.value {
        if let Some(i) = strings.iter().position(|s| s.contains('\0')) {
            return Err(format!("string {i} contains a NUL byte"));
        }
    }
    Ok(PROPERTY_HEADER_SIZE + property.name.len() as u64 + property.value.payload_size())
}

fn io_error<W: Seek>(writer: &mut W, e: binrw::Error) -> Error {
    let at = writer.stream_position().unwrap_or(0);
    Error::from_binrw(FORMAT, e, at)
}

fn encode<W: Write + Seek>(file: &CastFile, sizes: &Sizes, writer: &mut W) -> Result<()> {
    let header = FileHeader {
        magic: HEADER_MAGIC,
        version: VERSION,
        root_count: file.roots.len() as u32,
        flags: file.flags,
    };
    header.write(writer).map_err(|e| io_error(writer, e))?;
    let mut next = sizes.all.iter().copied();
    for root in &file.roots {
        emit(root, &mut next, writer)?;
    }
    Ok(())
}

/// Writes `node` and its subtree, taking sizes from `sizes` in file order. The size pass
/// has bounded the depth.
fn emit<W: Write + Seek>(node: &Node, sizes: &mut impl Iterator<Item = u32>, writer: &mut W) -> Result<()> {
    let header = NodeHeader {
        id: node.id,
        node_size: sizes.next().unwrap_or_default(),
        hash: node.hash,
        property_count: node.properties.len() as u32,
        child_count: node.children.len() as u32,
    };
    header.write(writer).map_err(|e| io_error(writer, e))?;
    for property in &node.properties {
        let header = PropertyHeader {
            kind: property.value.kind(),
            name_size: property.name.len() as u16,
            array_length: property.value.len() as u32,
        };
        header.write(writer).map_err(|e| io_error(writer, e))?;
        writer
            .write_all(property.name.as_bytes())
            .map_err(|e| io_error(writer, e.into()))?;
        payload(&property.value, writer).map_err(|e| io_error(writer, e))?;
    }
    for child in &node.children {
        emit(child, sizes, writer)?;
    }
    Ok(())
}

fn payload<W: Write>(value: &Value, writer: &mut W) -> binrw::BinResult<()> {
    let le = Endian::Little;
    match value {
        Value::Byte(v) => writer.write_all(v)?,
        Value::Short(v) => write_pod_slice(writer, le, v)?,
        Value::Integer(v) => write_pod_slice(writer, le, v)?,
        Value::Long(v) => write_pod_slice(writer, le, v)?,
        Value::Float(v) => write_pod_slice(writer, le, v)?,
        Value::Double(v) => write_pod_slice(writer, le, v)?,
        Value::String(v) => {
            for s in v {
                writer.write_all(s.as_bytes())?;
                writer.write_all(&[0])?;
            }
        }
        Value::Vec2(v) => write_pod_slice(writer, le, v)?,
        Value::Vec3(v) => write_pod_slice(writer, le, v)?,
        Value::Vec4(v) => write_pod_slice(writer, le, v)?,
    }
    Ok(())
}
