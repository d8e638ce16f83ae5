//! # animbin-semodel
//!
//! Reads, writes and views **SEModel v1** files, the model half of the SE formats that
//! Call of Duty and other game-asset exporters (Greyhound, Cast.NET, porter-lib, the
//! author's SETools and SELib) use, and converts them to and from the animbin scene model.
//!
//! ## Two layouts
//!
//! The original specification of SEModel is a *draft* that no tool writes. Every existing
//! tool reads and writes another layout, which this crate calls the **deployed** layout and
//! uses by default. `headerSize` tells them apart when reading, and [`SeModel`]'s variant
//! (or [`Layout`] when converting from a scene, see [`SeModel::from_scene_in`] and
//! [`SeModel::to_layout`]) chooses one when writing:
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
//!   9..39). Only 0x14 and 0x1E are accepted: the first draft writer in SELib
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
//! - SEBlend shapes are the scene meshes' morph targets (one per shape on every mesh, offsets
//!   as stored) and back, byte for byte for files whose vertices list their shapes in order.
//!   Known (`../shared/FORMATS.md`, Greyhound's public export code, the only writer): the
//!   per-vertex layout below and that the values are offsets from the base position; not
//!   confirmed by any reader of the format's own tools, which stop at the material block.
//! - Bytes after the last block are kept: Greyhound's SEBlend blend-shape trailer is parsed
//!   ([`BlendShapes`]) when it runs exactly to the end of the file, anything else is kept
//!   verbatim ([`Trailer::Unknown`]), so every file that reads is rewritten byte for byte.
//! - The deployed layout stores `materialIndex[layerCount]` whatever the UV flag says (as
//!   SELib reads it); the Python reference reader instead treats `layerCount` as 0 when the
//!   UV flag is clear. Real writers keep the two consistent; [`validate()`] reports when not.
//! - Where the deployed layout differs from the draft: MATERIALS is dataFlags bit 2 (the
//!   draft's COLLISION); the header has no modelType, modelFlags, colCount or
//!   maxSkinInfluence; `maxInfluence` and `layerCount` are per mesh; vertex data is
//!   struct-of-arrays with f32 normals and f32 weights; faces are sized by the vertex count;
//!   material indices are per mesh and layer; a material block exists.
//!
//! Reading never panics and never allocates far beyond the input: every count is checked
//! against the bytes left before anything is allocated, and errors name the byte offset.
//! The vertex arrays of the deployed layout are read in bulk (one bounds check and one copy
//! each), and a [`View`] gives borrowed, typed slices of them with no copy at all. Files
//! that read but break the format's rules (indices out of range, parent cycles, counts or
//! sizes set against their flags) are reported by [`validate()`] as errors, and what is legal
//! but suspicious (weights that do not sum to 1, bone rotations that are not unit
//! quaternions) as warnings, each a core [`Problem`] at its byte offset. The writer refuses
//! what it cannot encode, naming the item and the output offset.
//!
//! [`SeModel`] implements [`FileFormat`], the contract of every animbin format crate (name
//! `"semodel"`, [`MAGIC`] `"SEModel"`, its form the [`Layout`]): reading, writing in either
//! layout, the [`Summary`] of counts (from the model, or from a deployed file's [`View`]
//! without copying its arrays, [`View::summary`]), validation, the dump and the scene, the
//! same way for every format.
//!
//! ## Example
//!
//! ```
//! use animbin_semodel::{Block, ConversionReport, MeshFlags, SceneOptions, SeModel, Vec3, deployed};
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
//! let bytes = animbin_semodel::to_bytes(&model)?;
//! assert_eq!(&bytes[..11], b"SEModel\x01\x00\x14\x00");
//! // Three vertices: the face indices are single bytes.
//! assert_eq!(bytes.len(), 29 + 11 + 3 * 12 + 3 * 12 + 3);
//! assert_eq!(animbin_semodel::read(&bytes)?, model);
//! assert!(animbin_semodel::validate(&model).is_empty());
//!
//! // Zero-copy access to the same bytes.
//! let view = animbin_semodel::View::parse(&bytes)?;
//! assert_eq!(view.meshes()[0].positions()[1].native(), Vec3::new(1.0, 0.0, 0.0));
//!
//! // Through the neutral scene model, and into the draft layout.
//! let mut report = ConversionReport::default();
//! let scene = model.to_scene(&SceneOptions::default(), &mut report)?;
//! assert_eq!(scene.meshes[0].faces, vec![[0, 1, 2]]);
//! let draft = model.to_layout(animbin_semodel::Layout::Draft, &SceneOptions::default(), &mut report)?;
//! assert_eq!(draft.vertex_count(), 3);
//! assert_eq!(report.lost, ["normal precision (the draft layout stores half floats)"]);
//! # Ok::<(), animbin_semodel::Error>(())
//! ```

mod format;
mod layout;
mod model;
mod scene;
mod scene_blend;
mod spans;
mod summary;
mod validate;
mod view;
mod write;

use animbin_core::Endian;
use animbin_core::io::read_from_slice;
use binrw::BinRead;

pub use animbin_core::seblend::Trailer;
pub use animbin_core::{
    ConversionReport, Error, ErrorKind, FileFormat, IndexWidth, Location, Problem, Quat, Result, Rgba8, SceneOptions,
    Severity, UNIT_QUATERNION_TOLERANCE, Vec2, Vec3, scene::Scene,
};

pub use layout::blend::{BLEND_MAGIC, BlendShapes, MeshBlend, VertexBlend};
pub use layout::block::Block;
pub use layout::bone::{Bone, Pose};
pub use layout::deployed::{Material, MaterialMaps};
pub use layout::flags::{BoneFlags, DataFlags, MeshFlags};
pub use layout::records::{
    BlendDelta, Face8, Face16, Face32, FaceRecord, Influence, Influence8, Influence16, Influence32, InfluenceRecord,
    RecordIndex,
};
pub use layout::{Layout, MAGIC, VERSION};
pub use model::SeModel;
pub use summary::Summary;
pub use validate::{WEIGHT_SUM_TOLERANCE, validate};
pub use view::{
    BoneHead, BoneView, FaceSlice, HeaderRecord, MaterialView, MeshHeaderRecord, MeshView, PoseRecord, View,
    WeightSlice,
};
pub use write::{to_bytes, write};

/// The deployed layout's own types (`headerSize` 0x14).
///
/// A namespace rather than names at the crate root because both layouts have a `Model`, a
/// `Mesh`, a `HEADER_SIZE` and a `MESH_HEADER_SIZE`, in the format's own words.
pub mod deployed {
    pub use crate::layout::deployed::{HEADER_SIZE, MESH_HEADER_SIZE, Material, MaterialMaps, Mesh, Model};
}

/// The draft layout's own types (`headerSize` 0x1E).
///
/// A namespace rather than names at the crate root because both layouts have a `Model`, a
/// `Mesh`, a `HEADER_SIZE` and a `MESH_HEADER_SIZE`, in the format's own words.
pub mod draft {
    pub use crate::layout::draft::{
        HEADER_SIZE, MESH_HEADER_SIZE, Mesh, MeshArgs, Model, VertexLayout, VertexRecord, Vertices,
        material_index_width,
    };
}

/// The format's short name in errors and on the command line.
pub const FORMAT: &str = "semodel";

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
            ErrorKind::invalid("the magic \"SEModel\"", shown(magic)),
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

pub(crate) use animbin_core::strings::show_bytes as shown;

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
