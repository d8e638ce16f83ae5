//! Fixed-size records: the owned element types of the vertex arrays, the little-endian
//! records a [`crate::View`] borrows from the file, and the bulk codecs that move between them.
//!
//! Every run is read with one bounds check and one copy ([`read_pod_vec`]); only the narrow
//! index widths (u8 / u16 faces and weight bones) take a second, vectorisable pass to widen.

use std::io::{Read, Seek, Write};

use animbin_core::index::IndexRecord;
use animbin_core::io::{Pod, check_count, read_pod_vec, write_pod_slice};
use animbin_core::math::Vec3;
use animbin_core::{ErrorKind, IndexWidth};
use binrw::{BinResult, Endian};
use serde::{Deserialize, Serialize};
use zerocopy::little_endian::{F32, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// One bone influence of a vertex: `(bone_t index, f32 weight)` on disk; unused slots are
/// `(0, 0.0)`.
#[derive(
    Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, FromBytes, IntoBytes, Immutable, KnownLayout,
)]
#[repr(C)]
pub struct Influence {
    /// The bone's index in the bone block.
    pub bone: u32,
    /// The weight, 0..=1; a vertex's weights sum to 1.
    #[serde(with = "animbin_core::float::dump")]
    pub weight: f32,
}

impl Pod for Influence {
    const SCALAR_SIZE: usize = 4;
}

/// One SEBlend delta: `(u32 shapeIndex, f32 delta[3])`.
#[derive(
    Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, FromBytes, IntoBytes, Immutable, KnownLayout,
)]
#[repr(C)]
pub struct BlendDelta {
    /// The shape's index in the trailer's name list.
    pub shape: u32,
    /// The vertex's offset from its base position in that shape.
    pub delta: Vec3<f32>,
}

impl Pod for BlendDelta {
    const SCALAR_SIZE: usize = 4;
}

/// A triangle as it lies in the file: three indices of one width (`u8`, [`U16`] or [`U32`],
/// little-endian), chosen by the mesh's vertex count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, Immutable, KnownLayout, Unaligned)]
#[repr(C)]
pub struct FaceRecord<I> {
    /// The three vertex indices.
    pub indices: [I; 3],
}

/// A triangle with u8 indices (meshes of at most 255 vertices).
pub type Face8 = FaceRecord<u8>;
/// A triangle with u16 indices (meshes of 256..=65535 vertices).
pub type Face16 = FaceRecord<U16>;
/// A triangle with u32 indices (larger meshes).
pub type Face32 = FaceRecord<U32>;

/// An influence as it lies in the deployed layout: a `bone_t` index of the width the bone
/// count gives, then a little-endian f32 weight.
#[derive(Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, Immutable, KnownLayout, Unaligned)]
#[repr(C)]
pub struct InfluenceRecord<I> {
    /// The bone index.
    pub bone: I,
    /// The weight.
    pub weight: F32,
}

/// An influence with a u8 bone index (at most 255 bones).
pub type Influence8 = InfluenceRecord<u8>;
/// An influence with a u16 bone index (256..=65535 bones).
pub type Influence16 = InfluenceRecord<U16>;
/// An influence with a u32 bone index (more bones).
pub type Influence32 = InfluenceRecord<U32>;

// The little-endian records hold byte arrays only: nothing to swap on a big-endian machine.
macro_rules! byte_pod {
    ($($t:ty),*) => {$( impl Pod for $t { const SCALAR_SIZE: usize = 1; } )*};
}
byte_pod!(Face8, Face16, Face32, Influence8, Influence16, Influence32);

/// An index type of a record (`u8`, [`U16`] or [`U32`]): core's
/// [`IndexField`](animbin_core::IndexField), which widens to u32 and narrows back with a check.
pub use animbin_core::IndexField as RecordIndex;

impl<I: RecordIndex> FaceRecord<I> {
    /// The indices widened to u32.
    pub fn get(&self) -> [u32; 3] {
        self.indices.map(RecordIndex::get)
    }
}

impl<I: RecordIndex> InfluenceRecord<I> {
    /// The influence with native values.
    pub fn get(&self) -> Influence {
        Influence {
            bone: self.bone.get(),
            weight: self.weight.get(),
        }
    }
}

/// A triangle in place reads as its three indices, widened ([`FaceRecord::get`]).
impl<I: RecordIndex> IndexRecord for FaceRecord<I> {
    type Item = [u32; 3];
    #[inline]
    fn value(&self) -> [u32; 3] {
        self.get()
    }
}

/// An influence in place reads as the [`Influence`] it holds ([`InfluenceRecord::get`]).
impl<I: RecordIndex> IndexRecord for InfluenceRecord<I> {
    type Item = Influence;
    #[inline]
    fn value(&self) -> Influence {
        self.get()
    }
}

/// Reads `count` byte-order-free records and widens each with `f`, through a small buffer:
/// one bounds check up front, then the records stream into the final vector (no copy of the
/// whole narrow run is ever allocated).
fn read_widened<T, U, R>(reader: &mut R, count: u64, what: &str, f: fn(&T) -> U) -> BinResult<Vec<U>>
where
    T: Pod,
    R: Read + Seek,
{
    // Records of single bytes and little-endian wrappers: nothing to swap on any machine.
    const { assert!(T::SCALAR_SIZE == 1) };
    const CHUNK: usize = 4096;
    let n = check_count(reader, what, count, size_of::<T>() as u64)?;
    let mut out = Vec::with_capacity(n);
    let mut buffer = T::new_vec_zeroed(CHUNK.min(n)).map_err(|_| {
        binrw::Error::Io(std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            "allocation failed",
        ))
    })?;
    let mut left = n;
    while left > 0 {
        let chunk = &mut buffer[..left.min(CHUNK)];
        reader.read_exact(chunk.as_mut_bytes())?;
        out.extend(chunk.iter().map(f));
        left -= chunk.len();
    }
    Ok(out)
}

/// Reads `count` triangles whose indices have the given width.
pub(crate) fn read_faces<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (count, width): (u64, IndexWidth),
) -> BinResult<Vec<[u32; 3]>> {
    match width {
        IndexWidth::U32 => read_pod_vec(reader, endian, count, "face"),
        IndexWidth::U16 => read_widened::<Face16, _, _>(reader, count, "face", Face16::get),
        IndexWidth::U8 => read_widened::<Face8, _, _>(reader, count, "face", Face8::get),
    }
}

fn narrow_all<I: RecordIndex, W: Write + Seek>(
    writer: &mut W,
    values: impl Iterator<Item = u32>,
    what: &str,
    record_size: u64,
    per_record: u64,
    mut push: impl FnMut(I),
) -> BinResult<()> {
    for (i, value) in values.enumerate() {
        let Some(field) = I::try_new(value) else {
            let at = writer.stream_position()? + (i as u64 / per_record) * record_size;
            return Err(ErrorKind::Unencodable(format!(
                "{what} index {value} does not fit the {}-byte field that the count gives",
                I::WIDTH.size()
            ))
            .at(at));
        };
        push(field);
    }
    Ok(())
}

/// Writes triangles at the given index width, refusing an index the width cannot hold.
#[allow(clippy::ptr_arg)]
pub(crate) fn write_faces<W: Write + Seek>(
    faces: &Vec<[u32; 3]>,
    writer: &mut W,
    endian: Endian,
    width: IndexWidth,
) -> BinResult<()> {
    fn narrowed<I: RecordIndex, W: Write + Seek>(faces: &[[u32; 3]], writer: &mut W) -> BinResult<Vec<FaceRecord<I>>> {
        let mut flat = Vec::with_capacity(faces.len() * 3);
        let size = 3 * I::WIDTH.size();
        narrow_all::<I, W>(writer, faces.iter().flatten().copied(), "face", size, 3, |i| {
            flat.push(i)
        })?;
        Ok(flat
            .chunks_exact(3)
            .map(|c| FaceRecord {
                indices: [c[0], c[1], c[2]],
            })
            .collect())
    }
    match width {
        IndexWidth::U32 => write_pod_slice(writer, endian, faces),
        IndexWidth::U16 => {
            let records = narrowed::<U16, W>(faces, writer)?;
            write_pod_slice(writer, endian, &records)
        }
        IndexWidth::U8 => {
            let records = narrowed::<u8, W>(faces, writer)?;
            write_pod_slice(writer, endian, &records)
        }
    }
}

/// Reads `count` influences whose bone indices have the given width.
pub(crate) fn read_influences<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (count, width): (u64, IndexWidth),
) -> BinResult<Vec<Influence>> {
    match width {
        IndexWidth::U32 => read_pod_vec(reader, endian, count, "weight"),
        IndexWidth::U16 => read_widened::<Influence16, _, _>(reader, count, "weight", Influence16::get),
        IndexWidth::U8 => read_widened::<Influence8, _, _>(reader, count, "weight", Influence8::get),
    }
}

/// Writes influences at the given bone index width, refusing an index the width cannot hold.
#[allow(clippy::ptr_arg)]
pub(crate) fn write_influences<W: Write + Seek>(
    influences: &Vec<Influence>,
    writer: &mut W,
    endian: Endian,
    width: IndexWidth,
) -> BinResult<()> {
    fn narrowed<I: RecordIndex, W: Write + Seek>(
        influences: &[Influence],
        writer: &mut W,
    ) -> BinResult<Vec<InfluenceRecord<I>>> {
        let mut bones = Vec::with_capacity(influences.len());
        let size = I::WIDTH.size() + 4;
        narrow_all::<I, W>(writer, influences.iter().map(|i| i.bone), "weight bone", size, 1, |b| {
            bones.push(b)
        })?;
        Ok(bones
            .into_iter()
            .zip(influences)
            .map(|(bone, i)| InfluenceRecord {
                bone,
                weight: F32::new(i.weight),
            })
            .collect())
    }
    match width {
        IndexWidth::U32 => write_pod_slice(writer, endian, influences),
        IndexWidth::U16 => {
            let records = narrowed::<U16, W>(influences, writer)?;
            write_pod_slice(writer, endian, &records)
        }
        IndexWidth::U8 => {
            let records = narrowed::<u8, W>(influences, writer)?;
            write_pod_slice(writer, endian, &records)
        }
    }
}
