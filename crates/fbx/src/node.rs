//! The binary FBX container: a tree of named node records, each with a list of typed
//! properties, written by [`write_nodes`] and read strictly by [`parse`].
//!
//! The layout (FBX 7.x binary, all little-endian):
//! - a 27-byte header: `Kaydara FBX Binary  \0`, `0x1A 0x00`, the version as `u32` (7400);
//! - node records until a null record; each record is its end offset (absolute, in the
//!   file), its property count and the byte length of its property list (`u32` each before
//!   7.5, `u64` from 7500 on), the name's length (`u8`) and the name, the properties, then
//!   the nested records closed by a null record (13 zero bytes, 25 from 7.5);
//! - a property is a type code and its value: `C` bool (1 byte), `Y` `i16`, `I` `i32`, `L`
//!   `i64`, `F` `f32`, `D` `f64`, `S` string and `R` raw bytes (a `u32` length, then the
//!   bytes), or an array `f d l i b` (a `u32` element count, a `u32` encoding, 0 plain or 1
//!   zlib, and the `u32` byte length of what follows);
//! - a footer: 16 bytes of the writer's id, zeros to a 16-byte boundary, the version again,
//!   120 zero bytes and 16 fixed bytes ([`FOOTER_MAGIC`]).
//!
//! The reader checks every count against the bytes left before it allocates, each end
//! offset and property length against what was read, nesting to [`MAX_DEPTH`] levels, and
//! each compressed array's size against what its bytes can inflate to.

use std::io::Read;

use flate2::read::ZlibDecoder;
use serde::{Deserialize, Serialize};

use crate::error::{self, Result};

/// The bytes every binary FBX file starts with, before its version.
pub const MAGIC: &[u8] = b"Kaydara FBX Binary  \0\x1a\0";

/// The 16 bytes that end every binary FBX file.
pub const FOOTER_MAGIC: [u8; 16] = [
    0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b,
];

/// The footer id written after the last record: the one the FBX SDK checks against the
/// `FileId` and `CreationTime` that [`crate::export`] writes (a fixed, well-known triple).
pub const FOOTER_ID: [u8; 16] = [
    0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e,
];

/// The deepest nesting of records the reader follows (files of every known writer nest
/// six or seven levels).
pub const MAX_DEPTH: usize = 64;

/// How far zlib can inflate: no stream inflates more than about 1032 times its size.
const MAX_INFLATION: u64 = 1100;

/// Arrays at least this many bytes long are written zlib-compressed.
pub const COMPRESS_FROM: usize = 256;

/// One value of a node's property list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Property {
    /// `C`: a boolean (one byte; its lowest bit).
    Bool(bool),
    /// `Y`: a 16-bit integer.
    I16(i16),
    /// `I`: a 32-bit integer.
    I32(i32),
    /// `L`: a 64-bit integer (object ids, times in ticks).
    I64(i64),
    /// `F`: a 32-bit float.
    F32(f32),
    /// `D`: a 64-bit float.
    F64(f64),
    /// `S`: a string; invalid UTF-8 is read as U+FFFD. Object names hold `name\0\x01Class`.
    String(String),
    /// `R`: raw bytes (an embedded image's `Content`, the `FileId`).
    Raw(Vec<u8>),
    /// `f`: an array of 32-bit floats.
    F32Array(Vec<f32>),
    /// `d`: an array of 64-bit floats.
    F64Array(Vec<f64>),
    /// `l`: an array of 64-bit integers.
    I64Array(Vec<i64>),
    /// `i`: an array of 32-bit integers.
    I32Array(Vec<i32>),
    /// `b`: an array of booleans (one byte each).
    BoolArray(Vec<bool>),
}

impl Property {
    /// The property's type code.
    pub fn code(&self) -> u8 {
        match self {
            Self::Bool(_) => b'C',
            Self::I16(_) => b'Y',
            Self::I32(_) => b'I',
            Self::I64(_) => b'L',
            Self::F32(_) => b'F',
            Self::F64(_) => b'D',
            Self::String(_) => b'S',
            Self::Raw(_) => b'R',
            Self::F32Array(_) => b'f',
            Self::F64Array(_) => b'd',
            Self::I64Array(_) => b'l',
            Self::I32Array(_) => b'i',
            Self::BoolArray(_) => b'b',
        }
    }

    /// The value as a string, for `S` properties.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as an integer, for `Y`, `I` and `L` properties.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Self::I16(v) => Some(v.into()),
            Self::I32(v) => Some(v.into()),
            Self::I64(v) => Some(v),
            _ => None,
        }
    }

    /// The value as a float, for `F` and `D` properties.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Self::F32(v) => Some(v.into()),
            Self::F64(v) => Some(v),
            _ => None,
        }
    }
}

/// A node record: its name, its properties and the records nested in it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Node {
    /// The record's name (`Model`, `Vertices`, `P`...).
    pub name: String,
    /// Its property list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<Property>,
    /// The records nested in it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

impl Node {
    /// A record named `name` with `properties` and no children.
    pub fn new(name: &str, properties: Vec<Property>) -> Self {
        Self {
            name: name.to_string(),
            properties,
            children: Vec::new(),
        }
    }

    /// This record with `child` nested in it.
    pub fn with(mut self, child: Node) -> Self {
        self.children.push(child);
        self
    }

    /// The first nested record named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The nested records named `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }
}

/// A whole binary FBX file as a tree: its version and its top-level records.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Document {
    /// The version from the header: 7400 for FBX 7.4, 7500 for 7.5 (64-bit offsets).
    pub version: u32,
    /// The top-level records.
    pub nodes: Vec<Node>,
}

impl Document {
    /// The first top-level record named `name`.
    pub fn node(&self, name: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.name == name)
    }
}

/// Whether offsets and counts of `version` are 64-bit (FBX 7.5 and later).
fn wide(version: u32) -> bool {
    version >= 7500
}

/// Writes `document` as a binary FBX file: its records, the null record and the footer.
///
/// Arrays of [`COMPRESS_FROM`] bytes or more are zlib-compressed. A file of version 7400
/// whose offsets would pass `u32::MAX` is refused (`ErrorKind::Unencodable`); write it as 7500.
pub fn write_nodes(document: &Document) -> Result<Vec<u8>> {
    let version = document.version;
    let mut out = Vec::with_capacity(1 << 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    // The bytes of one array at a time, before they are compressed into `out`.
    let mut scratch = Vec::new();
    for node in &document.nodes {
        write_node(&mut out, &mut scratch, node, version)?;
    }
    out.extend(std::iter::repeat_n(0, null_record_len(version)));
    out.extend_from_slice(&FOOTER_ID);
    out.extend_from_slice(&[0; 4]);
    // Zeros to the next 16-byte boundary (16 when already on one), as the SDK writes them.
    let pad = 16 - out.len() % 16;
    out.extend(std::iter::repeat_n(0, pad));
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&[0; 120]);
    out.extend_from_slice(&FOOTER_MAGIC);
    Ok(out)
}

/// The length of a null record (the header of a record whose fields are all zero).
fn null_record_len(version: u32) -> usize {
    if wide(version) { 25 } else { 13 }
}

/// Writes `value` as the header field width of `version`, refusing what does not fit.
fn put_field(out: &mut [u8], at: usize, value: usize, version: u32, what: &str) -> Result<()> {
    if wide(version) {
        out[at..at + 8].copy_from_slice(&(value as u64).to_le_bytes());
    } else {
        let value = u32::try_from(value)
            .map_err(|_| error::unencodable(format!("{what} {value} (FBX 7.4 offsets are 32-bit; write 7.5)")))?;
        out[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }
    Ok(())
}

fn write_node(out: &mut Vec<u8>, scratch: &mut Vec<u8>, node: &Node, version: u32) -> Result<()> {
    let name = node.name.as_bytes();
    let name_len = u8::try_from(name.len())
        .map_err(|_| error::unencodable(format!("a record name of {} bytes (at most 255)", name.len())))?;
    let start = out.len();
    let field = if wide(version) { 8 } else { 4 };
    out.extend(std::iter::repeat_n(0, 3 * field));
    out.push(name_len);
    out.extend_from_slice(name);
    let properties_start = out.len();
    for property in &node.properties {
        write_property(out, scratch, property)?;
    }
    let properties_len = out.len() - properties_start;
    // A record with nested records, or with nothing at all, ends with a null record.
    let sentinel = !node.children.is_empty() || node.properties.is_empty();
    for child in &node.children {
        write_node(out, scratch, child, version)?;
    }
    if sentinel {
        out.extend(std::iter::repeat_n(0, null_record_len(version)));
    }
    let end = out.len();
    put_field(out, start, end, version, "an end offset")?;
    put_field(out, start + field, node.properties.len(), version, "a property count")?;
    put_field(
        out,
        start + 2 * field,
        properties_len,
        version,
        "a property list length",
    )?;
    Ok(())
}

/// A length as the `u32` that strings, raw data and arrays store.
fn length_u32(len: usize, what: &str) -> Result<u32> {
    u32::try_from(len).map_err(|_| error::unencodable(format!("{what} of {len} entries (at most 2^32 - 1)")))
}

fn write_property(out: &mut Vec<u8>, scratch: &mut Vec<u8>, property: &Property) -> Result<()> {
    out.push(property.code());
    match property {
        Property::Bool(v) => out.push(u8::from(*v)),
        Property::I16(v) => out.extend_from_slice(&v.to_le_bytes()),
        Property::I32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Property::I64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Property::F32(v) => out.extend_from_slice(&v.to_le_bytes()),
        Property::F64(v) => out.extend_from_slice(&v.to_le_bytes()),
        Property::String(s) => {
            out.extend_from_slice(&length_u32(s.len(), "a string")?.to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        Property::Raw(bytes) => {
            out.extend_from_slice(&length_u32(bytes.len(), "raw data")?.to_le_bytes());
            out.extend_from_slice(bytes);
        }
        Property::F32Array(v) => write_array(out, scratch, v.len(), |b| {
            v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()))
        })?,
        Property::F64Array(v) => write_array(out, scratch, v.len(), |b| {
            v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()))
        })?,
        Property::I64Array(v) => write_array(out, scratch, v.len(), |b| {
            v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()))
        })?,
        Property::I32Array(v) => write_array(out, scratch, v.len(), |b| {
            v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()))
        })?,
        Property::BoolArray(v) => write_array(out, scratch, v.len(), |b| b.extend(v.iter().map(|&x| u8::from(x))))?,
    }
    Ok(())
}

/// Writes an array's header and its bytes (put into `scratch` by `fill`), compressed
/// ([`crate::deflate`]) when long.
fn write_array(out: &mut Vec<u8>, scratch: &mut Vec<u8>, count: usize, fill: impl FnOnce(&mut Vec<u8>)) -> Result<()> {
    out.extend_from_slice(&length_u32(count, "an array")?.to_le_bytes());
    scratch.clear();
    fill(scratch);
    if scratch.len() >= COMPRESS_FROM {
        out.extend_from_slice(&1u32.to_le_bytes());
        // The compressed length is filled in once the stream is written.
        let length = out.len();
        out.extend_from_slice(&[0; 4]);
        crate::deflate::zlib(scratch, out);
        let stored = out.len() - length - 4;
        out[length..length + 4].copy_from_slice(&length_u32(stored, "a compressed array")?.to_le_bytes());
    } else {
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&length_u32(scratch.len(), "an array")?.to_le_bytes());
        out.extend_from_slice(scratch);
    }
    Ok(())
}

/// Reads a binary FBX file into its tree of records, strictly: the header, every record's
/// end offset and property length, the null records and the footer must be as the layout
/// says, and nothing may follow the footer.
pub fn parse(bytes: &[u8]) -> Result<Document> {
    let mut reader = Reader { bytes, pos: 0 };
    let magic = reader.take(MAGIC.len(), "the FBX binary magic")?;
    if magic != MAGIC {
        return Err(error::at(
            0,
            "the FBX binary magic \"Kaydara FBX Binary  \\0\\x1a\\0\"",
            "other bytes",
        ));
    }
    let version = reader.u32("the FBX version")?;
    if !(7000..8000).contains(&version) {
        return Err(error::at(23, "an FBX 7 version (7000 to 7999)", version));
    }
    let mut nodes = Vec::new();
    while let Some(node) = reader.node(version, 0, bytes.len())? {
        nodes.push(node);
    }
    reader.footer(version)?;
    Ok(Document { version, nodes })
}

/// A cursor over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(len).filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(error::eof(self.bytes.len(), what));
        };
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let slice = self.take(N, what)?;
        let mut out = [0; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// A header field: `u32` before 7.5, `u64` from it.
    fn field(&mut self, version: u32, what: &str) -> Result<u64> {
        if wide(version) {
            Ok(u64::from_le_bytes(self.array(what)?))
        } else {
            Ok(self.u32(what)?.into())
        }
    }

    /// One record (or `None` for a null record) that must end by `limit`.
    fn node(&mut self, version: u32, depth: usize, limit: usize) -> Result<Option<Node>> {
        let start = self.pos;
        let end = self.field(version, "a record's end offset")?;
        let count = self.field(version, "a record's property count")?;
        let list_len = self.field(version, "a record's property list length")?;
        let name_len = self.u8("a record's name length")?;
        if end == 0 && count == 0 && list_len == 0 && name_len == 0 {
            return Ok(None);
        }
        if depth >= MAX_DEPTH {
            return Err(error::at(
                start,
                format!("records nested at most {MAX_DEPTH} deep"),
                "deeper nesting",
            ));
        }
        let end = usize::try_from(end).ok().filter(|&e| e > start && e <= limit);
        let Some(end) = end else {
            return Err(error::at(
                start,
                format!("a record end offset within {start}..={limit}"),
                "one outside",
            ));
        };
        let name = self.take(name_len.into(), "a record's name")?;
        let name = String::from_utf8_lossy(name).into_owned();
        let properties_start = self.pos;
        let list_end = usize::try_from(list_len)
            .ok()
            .and_then(|len| properties_start.checked_add(len))
            .filter(|&e| e <= end);
        let Some(list_end) = list_end else {
            return Err(error::at(start, "a property list within its record", "a longer one"));
        };
        // Every property takes at least two bytes (its code and a value byte).
        if count > (list_end - properties_start) as u64 / 2 {
            return Err(error::at(start + 4, "a property count its list can hold", count));
        }
        let mut properties = Vec::with_capacity(count as usize);
        let mut sub = Reader {
            bytes: &self.bytes[..list_end],
            pos: properties_start,
        };
        for _ in 0..count {
            properties.push(sub.property()?);
        }
        if sub.pos != list_end {
            return Err(error::at(sub.pos, "the end of the property list", "more bytes"));
        }
        self.pos = list_end;
        let mut children = Vec::new();
        if self.pos < end {
            while let Some(child) = self.node(version, depth + 1, end)? {
                children.push(child);
                if self.pos >= end {
                    return Err(error::at(
                        end,
                        "a null record closing the nested records",
                        "the record's end",
                    ));
                }
            }
        }
        if self.pos != end {
            return Err(error::at(self.pos, format!("the record's end at byte {end}"), self.pos));
        }
        Ok(Some(Node {
            name,
            properties,
            children,
        }))
    }

    fn property(&mut self) -> Result<Property> {
        let at = self.pos;
        let code = self.u8("a property type code")?;
        Ok(match code {
            b'C' => Property::Bool(self.u8("a boolean")? & 1 != 0),
            b'Y' => Property::I16(i16::from_le_bytes(self.array("an i16")?)),
            b'I' => Property::I32(i32::from_le_bytes(self.array("an i32")?)),
            b'L' => Property::I64(i64::from_le_bytes(self.array("an i64")?)),
            b'F' => Property::F32(f32::from_le_bytes(self.array("an f32")?)),
            b'D' => Property::F64(f64::from_le_bytes(self.array("an f64")?)),
            b'S' => {
                let len = self.u32("a string length")? as usize;
                Property::String(String::from_utf8_lossy(self.take(len, "a string")?).into_owned())
            }
            b'R' => {
                let len = self.u32("a raw data length")? as usize;
                Property::Raw(self.take(len, "raw data")?.to_vec())
            }
            b'f' => Property::F32Array(self.array_of(4, |b| f32::from_le_bytes(b.try_into().unwrap_or_default()))?),
            b'd' => Property::F64Array(self.array_of(8, |b| f64::from_le_bytes(b.try_into().unwrap_or_default()))?),
            b'l' => Property::I64Array(self.array_of(8, |b| i64::from_le_bytes(b.try_into().unwrap_or_default()))?),
            b'i' => Property::I32Array(self.array_of(4, |b| i32::from_le_bytes(b.try_into().unwrap_or_default()))?),
            b'b' => Property::BoolArray(self.array_of(1, |b| b[0] != 0)?),
            other => {
                return Err(error::at(
                    at,
                    "a property type code (C Y I L F D S R f d l i b)",
                    format!("{:?}", other as char),
                ));
            }
        })
    }

    /// An array property's elements of `size` bytes each, inflated when compressed.
    fn array_of<T>(&mut self, size: usize, element: impl Fn(&[u8]) -> T) -> Result<Vec<T>> {
        let at = self.pos;
        let count = self.u32("an array's length")? as usize;
        let encoding = self.u32("an array's encoding")?;
        let stored = self.u32("an array's byte length")? as usize;
        let data = self.take(stored, "an array's bytes")?;
        let needed = count as u64 * size as u64;
        let raw = match encoding {
            0 => {
                if needed != stored as u64 {
                    return Err(error::at(at, format!("{needed} bytes for {count} elements"), stored));
                }
                std::borrow::Cow::Borrowed(data)
            }
            1 => {
                // Refused before inflating: no zlib stream grows past MAX_INFLATION times.
                if needed > stored as u64 * MAX_INFLATION {
                    return Err(error::at(
                        at,
                        format!("a compressed array whose {stored} bytes can hold {count} elements"),
                        "one too short",
                    ));
                }
                let mut inflated = Vec::with_capacity(needed as usize);
                let read = ZlibDecoder::new(data)
                    .take(needed + 1)
                    .read_to_end(&mut inflated)
                    .map_err(|e| error::at(at, "a valid zlib stream", e))?;
                if read as u64 != needed {
                    return Err(error::at(
                        at,
                        format!("{needed} inflated bytes for {count} elements"),
                        read,
                    ));
                }
                std::borrow::Cow::Owned(inflated)
            }
            other => return Err(error::at(at + 4, "array encoding 0 (plain) or 1 (zlib)", other)),
        };
        Ok(raw.chunks_exact(size).map(element).collect())
    }

    /// The footer: the writer's 16-byte id, zero padding, the version, 120 zeros and
    /// [`FOOTER_MAGIC`], which ends the file.
    fn footer(&mut self, version: u32) -> Result<()> {
        let tail = 4 + 120 + FOOTER_MAGIC.len();
        let rest = &self.bytes[self.pos..];
        let footer_start = self.pos;
        if rest.len() < 16 + tail {
            return Err(error::eof(self.bytes.len(), "the FBX footer"));
        }
        let padding = &rest[16..rest.len() - tail];
        if padding.len() > 32 || padding.iter().any(|&b| b != 0) {
            return Err(error::at(
                footer_start + 16,
                "at most 32 zero bytes of footer padding",
                "other bytes",
            ));
        }
        let end = &rest[rest.len() - tail..];
        if end[..4] != version.to_le_bytes() {
            return Err(error::at(
                self.bytes.len() - tail,
                format!("the version {version} again in the footer"),
                "another",
            ));
        }
        if end[4..124].iter().any(|&b| b != 0) || end[124..] != FOOTER_MAGIC {
            return Err(error::at(
                self.bytes.len() - 136,
                "120 zero bytes and the FBX footer magic",
                "other bytes",
            ));
        }
        self.pos = self.bytes.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_tree_reads_back_in_both_versions() {
        for version in [7400, 7500] {
            let document = Document {
                version,
                nodes: vec![
                    Node::new("Empty", vec![]),
                    Node::new("A", vec![Property::I32(7), Property::String("x\0\x01Model".into())])
                        .with(Node::new(
                            "B",
                            vec![Property::F64Array((0..100).map(f64::from).collect())],
                        ))
                        .with(Node::new("C", vec![Property::Raw(vec![1, 2, 3]), Property::Bool(true)])),
                ],
            };
            let bytes = write_nodes(&document).unwrap();
            assert_eq!(parse(&bytes).unwrap(), document);
        }
    }
}
