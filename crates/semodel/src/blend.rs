//! What follows the last block: Greyhound's unflagged SEBlend trailer, or bytes kept as they are.

use std::io::{Read, Seek, Write};

use animbin_core::io::{BoundedArgs, bounded_vec, read_pod_field, read_whole, remaining, write_pod_field};
use animbin_core::seblend::{self, SeBlendHeader};
use animbin_core::strings::NulString;
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::{Deserialize, Serialize};

use crate::records::BlendDelta;

/// The SEBlend magic, `"SEBlend\n"` read as a little-endian u64.
pub const BLEND_MAGIC: u64 = u64::from_le_bytes(seblend::MAGIC);

/// The bytes after the last data block. Both readers in the reference tools stop at the
/// material block, so anything here is optional; it is kept so a rewrite is byte-identical.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trailer {
    /// The file ends with the last block.
    #[default]
    None,
    /// A blend-shape trailer that parses exactly to the end of the file.
    Blend(BlendShapes),
    /// Bytes that are not an SEBlend trailer ending at the end of the file, kept verbatim.
    Unknown(Vec<u8>),
}

impl Trailer {
    /// The blend shapes, when the trailer is one.
    pub fn blend(&self) -> Option<&BlendShapes> {
        match self {
            Self::Blend(b) => Some(b),
            _ => None,
        }
    }

    /// Recognises a trailer: an SEBlend block for meshes of these vertex counts that ends
    /// exactly at the end of `bytes` becomes [`Trailer::Blend`]; anything else is kept.
    pub fn parse(bytes: &[u8], vertex_counts: &[u64]) -> Self {
        if bytes.is_empty() {
            return Self::None;
        }
        match read_whole::<BlendShapes>(bytes, Endian::Little, (vertex_counts,)) {
            Some(blend) => Self::Blend(blend),
            None => Self::Unknown(bytes.to_vec()),
        }
    }
}

/// Greyhound's blend-shape trailer: the SEBlend header (`u64 magic "SEBlend\n"`, `u64 count`,
/// `count` shape names), then for each mesh, for each vertex, `u32 n` and `n` deltas.
#[binrw]
#[brw(little)]
#[br(import(vertex_counts: &[u64]))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BlendShapes {
    /// The magic, `u64 count` and the names, moved into [`BlendShapes::names`]. A name takes
    /// at least its NUL.
    #[br(temp, args(1))]
    #[bw(calc = SeBlendHeader { names: names.iter().map(|n| NulString(n.clone())).collect() })]
    header: SeBlendHeader,
    /// The shape names, NUL-terminated.
    #[br(calc = header.names.into_iter().map(|n| n.0).collect())]
    #[bw(ignore)]
    pub names: Vec<String>,
    /// One entry per mesh of the mesh block, in order.
    #[br(parse_with = read_meshes, args(vertex_counts))]
    pub meshes: Vec<MeshBlend>,
}

/// The deltas of one mesh's vertices.
#[binrw]
#[brw(little)]
#[br(import(vertex_count: u64))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MeshBlend {
    /// One entry per vertex of the mesh.
    #[br(parse_with = bounded_vec, args_raw = BoundedArgs { count: vertex_count, min_size: 4, what: "blend vertex", inner: () })]
    pub vertices: Vec<VertexBlend>,
}

/// The deltas of one vertex: `u32 n`, then `n` times `(u32 shapeIndex, f32 delta[3])`.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VertexBlend {
    /// The number of deltas.
    #[br(temp)]
    #[bw(try_calc = u32::try_from(deltas.len()))]
    count: u32,
    /// The deltas, one per shape that moves this vertex.
    #[br(parse_with = read_pod_field, args(u64::from(count), "blend delta"))]
    #[bw(write_with = write_pod_field)]
    pub deltas: Vec<BlendDelta>,
}

fn read_meshes<R: Read + Seek>(reader: &mut R, endian: Endian, (counts,): (&[u64],)) -> BinResult<Vec<MeshBlend>> {
    // One entry per mesh of the mesh block, which has already been read: no bound needed.
    counts
        .iter()
        .map(|&count| MeshBlend::read_options(reader, endian, (count,)))
        .collect()
}

/// Reads everything left as the trailer.
pub(crate) fn read_trailer<R: Read + Seek>(
    reader: &mut R,
    _: Endian,
    (vertex_counts,): (Vec<u64>,),
) -> BinResult<Trailer> {
    let left = remaining(reader)?;
    let mut bytes = vec![0u8; left as usize];
    reader.read_exact(&mut bytes)?;
    Ok(Trailer::parse(&bytes, &vertex_counts))
}

/// Writes the trailer back.
pub(crate) fn write_trailer<W: Write + Seek>(
    trailer: &Trailer,
    writer: &mut W,
    endian: Endian,
    (): (),
) -> BinResult<()> {
    match trailer {
        Trailer::None => Ok(()),
        Trailer::Blend(blend) => blend.write_options(writer, endian, ()),
        Trailer::Unknown(bytes) => {
            writer.write_all(bytes)?;
            Ok(())
        }
    }
}
