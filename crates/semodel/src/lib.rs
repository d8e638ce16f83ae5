//! # animbin-semodel
//!
//! Reads, writes and views **SEModel v1** files, the model half of the SE formats that
//! Call of Duty and other game-asset exporters (Greyhound, Cast.NET, porter-lib, the
//! author's SETools and SELib) use, and converts them to and from the animbin scene model.
//!
//! ## Two layouts
//!
//! The seed document (`002_e7df4a8dad3225ea.txt`) is a *draft* that no tool writes. Every
//! existing tool reads and writes another layout, recorded in the project's FORMATS.md; this
//! crate calls it the **deployed** layout and uses it by default. `headerSize` tells them
//! apart when reading, and [`SeModel`]'s variant (or [`Layout`] when converting from a
//! scene) chooses one when writing:
//!
//! | | deployed ([`deployed::Model`]) | draft ([`draft::Model`]) |
//! |---|---|---|
//! | `headerSize` | 0x14 | 0x1E |
//! | header | flags, three counts | + modelType, modelFlags, colCount, maxSkinInfluence |
//! | vertex data | struct of arrays per mesh | one interleaved record per vertex |
//! | UV materials | `i32 materialIndex[layerCount]` per mesh (-1 none) | `mat_t` per vertex and layer |
//! | normals | f32 | half float |
//! | weights | `(bone_t, f32)` per influence, `maxInfluence` per mesh | `bone_t[]` then `half[]` |
//! | faces | u8 / u16 / u32 by the mesh's vertex count | u32 |
//! | materials | name, `isSimple`, three map names | none ("TODO" in the draft) |
//! | dataFlags bit 2 | MATERIALS | COLLISION (MATERIALS is bit 3) |
//!
//! ## Conventions
//!
//! - Little-endian throughout; strings are NUL-terminated UTF-8.
//! - `headerSize` counts its own two bytes (the deployed header spans bytes 9..29, the draft's
//!   9..39). Only 0x14 and 0x1E are accepted (FORMATS.md): the first draft writer in SELib
//!   (dtzxporter/SELibDotNet commit 44eb810) wrote the draft's fields under 0x1C, which is
//!   neither, and no later tool wrote that layout.
//! - Quaternions are x, y, z, w. SEModel defines neither axes nor units: values are the
//!   exporter's, and nothing here converts them. Bone scale 1.0 is the identity.
//! - `bone_t` (weights' bone index) is u8 for a header `boneCount` up to 0xFF, u16 up to
//!   0xFFFF, else u32; deployed face indices use the same rule on each mesh's `vertexCount`;
//!   the draft's `mat_t` is u8 up to 0xFF materials, else u16.
//! - Flags whose blocks are empty (Greyhound sets every mesh flag, SELib GLOBAL|LOCAL) are
//!   read, kept and written back as they were. A header count whose flag is clear is kept
//!   too (see [`Block`]), and so are unknown flag bits and reserved bytes.
//! - Bytes after the last block are kept: Greyhound's SEBlend blend-shape trailer is parsed
//!   ([`blend::BlendShapes`]) when it runs exactly to the end of the file, anything else is
//!   kept verbatim ([`Trailer::Unknown`]), so every file that reads is rewritten byte for byte.
//! - The deployed layout stores `materialIndex[layerCount]` whatever the UV flag says (as
//!   SELib reads it); the Python reference reader instead treats `layerCount` as 0 when the
//!   UV flag is clear. Real writers keep the two consistent; [`validate()`] reports when not.
//! - Where the deployed layout differs from the seed (FORMATS.md, "SEModel v1"): MATERIALS is
//!   dataFlags bit 2 (the seed's COLLISION); the header has no modelType, modelFlags,
//!   colCount or maxSkinInfluence; `maxInfluence` and `layerCount` are per mesh; vertex data
//!   is struct-of-arrays with f32 normals and f32 weights; faces are sized by the vertex
//!   count; material indices are per mesh and layer; a material block exists.
//!
//! Reading never panics and never allocates far beyond the input: every count is checked
//! against the bytes left before anything is allocated, and errors name the byte offset.
//! The vertex arrays of the deployed layout are read in bulk (one bounds check and one copy
//! each), and a [`View`] gives borrowed, typed slices of them with no copy at all. Files
//! that read but break the spec (indices out of range, parent cycles, weights that do not
//! sum to 1, counts or sizes set against their flags) are reported by [`validate()`], each
//! problem with its byte offset.
//!
//! ## Example
//!
//! ```
//! use animbin_semodel::{Block, SeModel, deployed, read, to_bytes, validate};
//! use animbin_semodel::flags::MeshFlags;
//! use animbin_core::math::Vec3;
//!
//! let mesh = deployed::Mesh {
//!     positions: vec![Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)],
//!     normals: vec![Vec3::new(0.0, 0.0, 1.0); 3],
//!     faces: vec![[0, 1, 2]],
//!     ..Default::default()
//! };
//! let model = SeModel::Deployed(deployed::Model {
//!     mesh_flags: MeshFlags::NORMALS,
//!     meshes: Block::Present(vec![mesh]),
//!     ..Default::default()
//! });
//! let bytes = to_bytes(&model)?;
//! assert_eq!(&bytes[..11], b"SEModel\x01\x00\x14\x00");
//! // Three vertices: the face indices are single bytes.
//! assert_eq!(bytes.len(), 29 + 11 + 3 * 12 + 3 * 12 + 3);
//! assert_eq!(read(&bytes)?, model);
//! assert!(validate(&model).is_empty());
//!
//! // Zero-copy access to the same bytes.
//! let view = animbin_semodel::View::open(&bytes)?;
//! assert_eq!(view.meshes()[0].positions()[1].native(), Vec3::new(1.0, 0.0, 0.0));
//! # Ok::<(), animbin_core::Error>(())
//! ```

pub mod blend;
pub mod block;
pub mod bone;
pub mod deployed;
pub mod draft;
pub mod flags;
pub mod records;
pub mod scene;
mod spans;
pub mod validate;
pub mod view;

use std::io::{Cursor, Seek, Write};

use animbin_core::io::read_from_slice;
use animbin_core::{Endian, Error, ErrorKind, Result};
use binrw::BinRead;
use serde::{Deserialize, Serialize};

pub use blend::Trailer;
pub use block::Block;
pub use bone::{Bone, Pose};
pub use records::Influence;
pub use validate::{Problem, validate};
pub use view::View;

/// The format's short name in errors and on the command line.
pub const FORMAT: &str = "semodel";

/// The seven magic bytes that open every SEModel file.
pub const MAGIC: [u8; 7] = *b"SEModel";

/// The only version there is.
pub const VERSION: u16 = 1;

/// Which of the two layouts a file uses; `headerSize` records it on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// What every existing tool reads and writes (`headerSize` 0x14); the default.
    #[default]
    Deployed,
    /// The seed's draft (`headerSize` 0x1E).
    Draft,
}

impl Layout {
    /// The layout's `headerSize`.
    pub const fn header_size(self) -> u16 {
        match self {
            Self::Deployed => deployed::HEADER_SIZE,
            Self::Draft => draft::HEADER_SIZE,
        }
    }

    /// The layout a `headerSize` names, if any.
    pub const fn from_header_size(size: u16) -> Option<Self> {
        match size {
            deployed::HEADER_SIZE => Some(Self::Deployed),
            draft::HEADER_SIZE => Some(Self::Draft),
            _ => None,
        }
    }

    /// The file offset where the data blocks start (magic, version, then the header).
    pub const fn header_end(self) -> u64 {
        9 + self.header_size() as u64
    }
}

/// An SEModel file in either layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "layout", content = "model", rename_all = "snake_case")]
pub enum SeModel {
    /// The deployed layout (`headerSize` 0x14).
    Deployed(deployed::Model),
    /// The seed's draft layout (`headerSize` 0x1E).
    Draft(draft::Model),
}

impl Default for SeModel {
    fn default() -> Self {
        Self::Deployed(deployed::Model::default())
    }
}

impl SeModel {
    /// The file's layout.
    pub fn layout(&self) -> Layout {
        match self {
            Self::Deployed(_) => Layout::Deployed,
            Self::Draft(_) => Layout::Draft,
        }
    }

    /// The bones (none when the bone block is absent).
    pub fn bones(&self) -> &[Bone] {
        match self {
            Self::Deployed(m) => m.bones.items(),
            Self::Draft(m) => m.bones.items(),
        }
    }

    /// The header's `boneCount`.
    pub fn bone_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.bones.header_count(),
            Self::Draft(m) => m.bones.header_count(),
        }
    }

    /// The header's `meshCount`.
    pub fn mesh_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.meshes.header_count(),
            Self::Draft(m) => m.meshes.header_count(),
        }
    }

    /// The header's `matCount`.
    pub fn material_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.materials.header_count(),
            Self::Draft(m) => u64::from(m.material_count),
        }
    }

    /// The number of vertices over all meshes.
    pub fn vertex_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.meshes.items().iter().map(|m| m.positions.len() as u64).sum(),
            Self::Draft(m) => m.meshes.items().iter().map(|m| m.vertices.positions.len() as u64).sum(),
        }
    }

    /// The number of triangles over all meshes.
    pub fn face_count(&self) -> u64 {
        match self {
            Self::Deployed(m) => m.meshes.items().iter().map(|m| m.faces.len() as u64).sum(),
            Self::Draft(m) => m.meshes.items().iter().map(|m| m.faces.len() as u64).sum(),
        }
    }

    /// What follows the last block.
    pub fn trailer(&self) -> &Trailer {
        match self {
            Self::Deployed(m) => &m.trailer,
            Self::Draft(m) => &m.trailer,
        }
    }
}

/// Checks the magic, version and `headerSize`, and returns the layout they name.
///
/// Errors name the offending field's offset: 0 for the magic, 7 for the version, 9 for
/// `headerSize` (or the end of a file too short to hold it).
pub fn sniff(bytes: &[u8]) -> Result<Layout> {
    let field = |at: usize, len: usize, what: &str| {
        bytes.get(at..at + len).ok_or_else(|| {
            Error::new(
                FORMAT,
                bytes.len() as u64,
                ErrorKind::UnexpectedEof { expected: what.into() },
            )
        })
    };
    let magic = field(0, 7, "the magic \"SEModel\"")?;
    if magic != MAGIC {
        return Err(Error::new(
            FORMAT,
            0,
            ErrorKind::invalid("the magic \"SEModel\"", format!("{:?}", String::from_utf8_lossy(magic))),
        ));
    }
    let version = field(7, 2, "the version")?;
    let version = u16::from_le_bytes([version[0], version[1]]);
    if version != VERSION {
        return Err(Error::new(FORMAT, 7, ErrorKind::invalid("version 1", version)));
    }
    let size = field(9, 2, "headerSize")?;
    let size = u16::from_le_bytes([size[0], size[1]]);
    Layout::from_header_size(size).ok_or_else(|| {
        Error::new(
            FORMAT,
            9,
            ErrorKind::invalid(
                "headerSize 0x14 (deployed layout) or 0x1E (draft layout)",
                format!("{size:#x}"),
            ),
        )
    })
}

/// Reads an SEModel file of either layout from memory.
pub fn read(bytes: &[u8]) -> Result<SeModel> {
    Ok(match sniff(bytes)? {
        Layout::Deployed => SeModel::Deployed(read_from_slice(FORMAT, bytes, Endian::Little)?),
        Layout::Draft => SeModel::Draft(read_from_slice(FORMAT, bytes, Endian::Little)?),
    })
}

/// Reads one layout's binrw type, after [`sniff`] has given precise errors for the prefix.
pub(crate) fn read_layout<T>(bytes: &[u8]) -> Result<T>
where
    T: for<'a> BinRead<Args<'a> = ()>,
{
    sniff(bytes)?;
    read_from_slice(FORMAT, bytes, Endian::Little)
}

/// Writes `model` in its layout.
///
/// Refuses (with [`ErrorKind::Unencodable`] and the output offset) a model it cannot encode
/// faithfully: arrays whose lengths disagree with the flags and counts, a bone whose parts
/// disagree with `boneFlags`, an index wider than its field, a count over `u32`, more than
/// 255 UV layers, a blend trailer whose meshes do not match the mesh block, a name with a NUL.
pub fn write<W: Write + Seek>(model: &SeModel, mut writer: W) -> Result<()> {
    let start = writer
        .stream_position()
        .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Io(e)))?;
    spans::check(model).map_err(|mut e| {
        e.offset += start;
        e
    })?;
    match model {
        SeModel::Deployed(m) => animbin_core::io::write_to(FORMAT, m, Endian::Little, &mut writer),
        SeModel::Draft(m) => animbin_core::io::write_to(FORMAT, m, Endian::Little, &mut writer),
    }
}

/// Encodes `model` into a new byte vector (see [`write()`]).
pub fn to_bytes(model: &SeModel) -> Result<Vec<u8>> {
    let mut out = Cursor::new(Vec::new());
    write(model, &mut out)?;
    Ok(out.into_inner())
}

/// `dataFlags` from the block bits and the other bits; the other bits may not overlap the
/// blocks' own.
pub(crate) fn compose_data_flags(other: u8, blocks: u8, present: &[(u8, bool)]) -> Result<u8, ErrorKind> {
    if other & blocks != 0 {
        return Err(ErrorKind::Unencodable(format!(
            "other_data_flags {other:#04x} overlaps the block flags {blocks:#04x}, which the blocks set"
        )));
    }
    Ok(present
        .iter()
        .filter(|(_, p)| *p)
        .fold(other, |flags, (bit, _)| flags | bit))
}

/// A length as a u32 count field, or an error naming it.
pub(crate) fn count_u32(len: usize, what: &str) -> Result<u32, ErrorKind> {
    u32::try_from(len).map_err(|_| ErrorKind::Unencodable(format!("{len} {what} do not fit a u32 count")))
}
