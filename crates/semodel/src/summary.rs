//! [`Summary`]: the counts of an SEModel file, from the owned model or straight from a
//! deployed-layout [`View`], the same either way.

use std::io;

use animbin_core::IndexWidth;
use animbin_core::format::Positioned;
use animbin_core::seblend::Trailer;
use serde::{Deserialize, Serialize};
use zerocopy::FromBytes;

use crate::layout::blend::BlendShapes;
use crate::layout::flags::{BoneFlags, DataFlags, MeshFlags};
use crate::layout::records::{Face8, Face16, Face32, Influence8, Influence16, Influence32};
use crate::layout::{Layout, deployed};
use crate::model::SeModel;
use crate::view::{HeaderRecord, View};

/// The summary of an SEModel file, as `animbin info` shows it: its layout and counts,
/// without the bulk data.
///
/// Built from the owned model ([`animbin_core::FileFormat::summary`]) or from a zero-copy
/// [`View`] of a deployed-layout file ([`View::summary`]); both give the same summary of the
/// same file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// `"deployed"` (what every tool writes) or `"draft"` (the seed's layout).
    pub layout: String,
    /// Bones.
    pub bone_count: u64,
    /// Meshes.
    pub mesh_count: u64,
    /// Materials.
    pub material_count: u64,
    /// Vertices of all meshes.
    pub vertex_count: u64,
    /// Faces of all meshes.
    pub face_count: u64,
    /// Shapes of an SEBlend trailer.
    pub blend_shape_count: usize,
    /// Bytes after the last block that are not an SEBlend trailer.
    pub trailing_bytes: usize,
}

/// The SEBlend shapes and the unknown trailing bytes of a trailer.
fn trailer_counts(trailer: &Trailer<BlendShapes>) -> (usize, usize) {
    match trailer {
        Trailer::None => (0, 0),
        Trailer::SeBlend(b) => (b.names.len(), 0),
        Trailer::Unknown(bytes) => (0, bytes.len()),
    }
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of(model: &SeModel) -> Self {
        let (blend_shape_count, trailing_bytes) = trailer_counts(model.trailer());
        Self {
            layout: model.layout().name().to_string(),
            bone_count: model.bone_count(),
            mesh_count: model.mesh_count(),
            material_count: model.material_count(),
            vertex_count: model.vertex_count(),
            face_count: model.face_count(),
            blend_shape_count,
            trailing_bytes,
        }
    }
}

impl Summary {
    /// The summary of a deployed-layout file read by positioned reads
    /// ([`animbin_core::FileFormat::summary_at`]): `None` for a draft-layout file (whose
    /// vertex records the reader walks), where the view would refuse the file, or where the
    /// file could not be read.
    pub(crate) fn at(file: &mut Positioned<'_>) -> Option<Self> {
        // `sniff` looks at the first 11 bytes.
        let len = file.size().min(64) as usize;
        file.set_pos(0).ok()?;
        if crate::sniff(file.peek(len).ok()?).ok()? != Layout::Deployed {
            return None;
        }
        walk(file).ok()
    }
}

/// The size of one weight record whose bone index has `width`.
fn influence_size(width: IndexWidth) -> u64 {
    (match width {
        IndexWidth::U8 => size_of::<Influence8>(),
        IndexWidth::U16 => size_of::<Influence16>(),
        IndexWidth::U32 => size_of::<Influence32>(),
    }) as u64
}

/// The size of one face record whose vertex indices have `width`.
fn face_size(width: IndexWidth) -> u64 {
    (match width {
        IndexWidth::U8 => size_of::<Face8>(),
        IndexWidth::U16 => size_of::<Face16>(),
        IndexWidth::U32 => size_of::<Face32>(),
    }) as u64
}

fn refused() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "not a file the view accepts")
}

/// [`View::parse`]'s walk by positioned reads, accepting exactly the files it does: the
/// header, the bone names, each mesh's header (its arrays skipped by the sizes its counts
/// give), the materials' names and the trailer.
fn walk(file: &mut Positioned<'_>) -> io::Result<Summary> {
    file.set_pos(0)?;
    let header =
        HeaderRecord::read_from_bytes(&file.array::<{ size_of::<HeaderRecord>() }>()?).map_err(|_| refused())?;
    let data_flags = DataFlags::from_bits_retain(header.data_flags);
    let bone_flags = BoneFlags::from_bits_retain(header.bone_flags);
    let mesh_flags = MeshFlags::from_bits_retain(header.mesh_flags);
    let bone_count = u64::from(header.bone_count.get());
    // `check`: at least `size` bytes for each of `count` records.
    let check = |file: &Positioned<'_>, count: u64, size: u64| {
        if count.saturating_mul(size) > file.left() {
            Err(refused())
        } else {
            Ok(())
        }
    };
    if data_flags.contains(DataFlags::BONE) {
        let record = bone_flags.record_size();
        check(file, bone_count, 1 + record)?;
        for _ in 0..bone_count {
            file.cstr()?;
        }
        file.skip(bone_count, record)?;
    }
    let mut vertex_counts = Vec::new();
    let mut face_count = 0;
    if data_flags.contains(DataFlags::MESH) {
        let count = u64::from(header.mesh_count.get());
        check(file, count, deployed::MESH_HEADER_SIZE)?;
        let bone_index = IndexWidth::for_count(bone_count);
        for _ in 0..count {
            let [_flags, layers, max_influence, v0, v1, v2, v3, f0, f1, f2, f3] = file.array::<11>()?;
            let v = u64::from(u32::from_le_bytes([v0, v1, v2, v3]));
            let faces = u64::from(u32::from_le_bytes([f0, f1, f2, f3]));
            let (layers, has) = (u64::from(layers), |f| mesh_flags.contains(f));
            file.skip(v, 12)?;
            if has(MeshFlags::UV_SET) {
                file.skip(v * layers, 8)?;
            }
            if has(MeshFlags::NORMALS) {
                file.skip(v, 12)?;
            }
            if has(MeshFlags::COLOR) {
                file.skip(v, 4)?;
            }
            if has(MeshFlags::WEIGHTS) {
                file.skip(v * u64::from(max_influence), influence_size(bone_index))?;
            }
            file.skip(faces, face_size(IndexWidth::for_count(v)))?;
            file.skip(layers, 4)?;
            vertex_counts.push(v);
            face_count += faces;
        }
    }
    if data_flags.contains(DataFlags::MATERIALS) {
        let count = u64::from(header.material_count.get());
        check(file, count, 2)?;
        for _ in 0..count {
            file.cstr()?;
            match file.u8()? {
                0 => {}
                1 => {
                    for _ in 0..3 {
                        file.cstr()?;
                    }
                }
                _ => return Err(refused()),
            }
        }
    }
    let trailer = BlendShapes::parse_trailer(&file.take(file.left())?, &vertex_counts);
    let (blend_shape_count, trailing_bytes) = trailer_counts(&trailer);
    Ok(Summary {
        layout: Layout::Deployed.name().to_string(),
        bone_count,
        mesh_count: u64::from(header.mesh_count.get()),
        material_count: u64::from(header.material_count.get()),
        vertex_count: vertex_counts.iter().sum(),
        face_count,
        blend_shape_count,
        trailing_bytes,
    })
}

impl View<'_> {
    /// The summary of the file, without copying its vertex data: the same as the model's
    /// ([`animbin_core::FileFormat::summary`]). Only an SEBlend trailer is parsed.
    pub fn summary(&self) -> Summary {
        let (blend_shape_count, trailing_bytes) = trailer_counts(&self.trailer());
        let (header, meshes) = (self.header(), self.meshes());
        // The header's counts, as the owned model reports them (a count may stand without
        // its block, which validate reports).
        Summary {
            layout: Layout::Deployed.name().to_string(),
            bone_count: u64::from(header.bone_count.get()),
            mesh_count: u64::from(header.mesh_count.get()),
            material_count: u64::from(header.material_count.get()),
            vertex_count: meshes.iter().map(|m| m.vertex_count() as u64).sum(),
            face_count: meshes.iter().map(|m| m.faces().len() as u64).sum(),
            blend_shape_count,
            trailing_bytes,
        }
    }
}
