//! What follows the last block: Greyhound's unflagged SEBlend trailer, or bytes kept as they
//! are ([`Trailer`]). Both readers in the reference tools stop at the material block, so
//! anything here is optional; it is kept so a rewrite is byte-identical.

use std::io::{Read, Seek, Write};

use animbin_core::io::{BoundedArgs, bounded_vec, read_pod_field, read_whole, remaining, write_pod_field};
use animbin_core::seblend::{self, SeBlendHeader, Trailer};
use animbin_core::strings::NulString;
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::{Deserialize, Serialize};

use super::records::BlendDelta;

/// The SEBlend magic, `"SEBlend\n"` read as a little-endian u64.
pub const BLEND_MAGIC: u64 = u64::from_le_bytes(seblend::MAGIC);

/// Greyhound's blend-shape trailer, the body of [`Trailer::SeBlend`]: the SEBlend header
/// (`u64 magic "SEBlend\n"`, `u64 count`, `count` shape names), then for each mesh, for each
/// vertex, `u32 n` and `n` deltas.
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

impl BlendShapes {
    /// Recognises the bytes after the last block: an SEBlend trailer for meshes of these
    /// vertex counts that ends exactly at the end of `bytes` is [`Trailer::SeBlend`]; other
    /// bytes are kept as [`Trailer::Unknown`].
    pub fn parse_trailer(bytes: &[u8], vertex_counts: &[u64]) -> Trailer<Self> {
        if bytes.is_empty() {
            return Trailer::None;
        }
        match read_whole::<Self>(bytes, Endian::Little, (vertex_counts,)) {
            Some(blend) => Trailer::SeBlend(blend),
            None => Trailer::Unknown(bytes.to_vec()),
        }
    }
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
) -> BinResult<Trailer<BlendShapes>> {
    let left = remaining(reader)?;
    let mut bytes = vec![0u8; left as usize];
    reader.read_exact(&mut bytes)?;
    Ok(BlendShapes::parse_trailer(&bytes, &vertex_counts))
}

/// Writes the trailer back.
pub(crate) fn write_trailer<W: Write + Seek>(
    trailer: &Trailer<BlendShapes>,
    writer: &mut W,
    endian: Endian,
    (): (),
) -> BinResult<()> {
    match trailer {
        Trailer::None => Ok(()),
        Trailer::SeBlend(blend) => blend.write_options(writer, endian, ()),
        Trailer::Unknown(bytes) => {
            writer.write_all(bytes)?;
            Ok(())
        }
    }
}
