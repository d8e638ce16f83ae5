//! Zero-copy access to a deployed-layout file: borrowed, typed slices of its arrays.
//!
//! [`View::parse`] checks the whole structure once (every count against the bytes that hold
//! it, every name's NUL and UTF-8) and copies nothing. Its cost depends on the number of
//! bones, meshes and materials, never on the number of vertices or faces: each vertex array
//! is one checked slice cast. The element types use `zerocopy::little_endian` scalars, so a
//! view reads correctly on any machine; `.native()` / `.get()` turn elements into values.
//!
//! The draft layout interleaves each vertex's fields in one record of mixed widths, so it
//! has no per-attribute slices to lend; [`View::parse`] refuses it (read it with
//! [`crate::read`]).

use animbin_core::index::IndexSlice;
use animbin_core::io::ViewCursor;
use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_core::{Error, ErrorKind, IndexWidth, Result};
use zerocopy::little_endian::{F32, I32, U16, U32};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use animbin_core::seblend::Trailer;

use crate::layout::blend::BlendShapes;
use crate::layout::block::Block;
use crate::layout::bone::{Bone, Pose};
use crate::layout::deployed::{self, MaterialMaps};
use crate::layout::flags::{BoneFlags, DataFlags, MeshFlags};
use crate::layout::records::{Face8, Face16, Face32, Influence8, Influence16, Influence32};
use crate::{FORMAT, Layout, sniff};

/// The deployed header as it lies at the start of the file (29 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct HeaderRecord {
    /// `"SEModel"`.
    pub magic: [u8; 7],
    /// `version`, 1.
    pub version: U16,
    /// `headerSize`, 0x14.
    pub header_size: U16,
    /// `dataFlags`.
    pub data_flags: u8,
    /// `boneFlags`.
    pub bone_flags: u8,
    /// `meshFlags`.
    pub mesh_flags: u8,
    /// `boneCount`.
    pub bone_count: U32,
    /// `meshCount`.
    pub mesh_count: U32,
    /// `matCount`.
    pub material_count: U32,
    /// `reserved[3]`.
    pub reserved: [u8; 3],
}
const _: () = assert!(size_of::<HeaderRecord>() == 29);

/// The fixed start of a bone record: `u8 flags; i32 parent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BoneHead {
    /// `flags`.
    pub flags: u8,
    /// `boneParent`, -1 for a root.
    pub parent: I32,
}
const _: () = assert!(size_of::<BoneHead>() == 5);

/// A position and rotation as they lie in a bone record (28 bytes).
#[derive(Debug, Clone, Copy, PartialEq, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PoseRecord {
    /// The position.
    pub position: Vec3<F32>,
    /// The rotation, x y z w.
    pub rotation: Quat<F32>,
}
const _: () = assert!(size_of::<PoseRecord>() == 28);

impl PoseRecord {
    /// The pose with native values.
    pub fn native(&self) -> Pose {
        Pose {
            position: self.position.native(),
            rotation: self.rotation.native(),
        }
    }
}

/// A mesh's header: `u8 flags, u8 layerCount, u8 maxInfluence, u32 vertexCount, u32 faceCount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct MeshHeaderRecord {
    /// `flags`.
    pub flags: u8,
    /// `layerCount`.
    pub layer_count: u8,
    /// `maxInfluence`.
    pub max_influence: u8,
    /// `vertexCount`.
    pub vertex_count: U32,
    /// `faceCount`.
    pub face_count: U32,
}
const _: () = assert!(size_of::<MeshHeaderRecord>() == 11);

/// One bone, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct BoneView<'a> {
    /// The bone's name.
    pub name: &'a str,
    /// Its flags and parent.
    pub head: &'a BoneHead,
    /// Model-space pose, with the GLOBAL_MATRIX flag.
    pub global: Option<&'a PoseRecord>,
    /// Parent-space pose, with the LOCAL_MATRIX flag.
    pub local: Option<&'a PoseRecord>,
    /// Scale, with the SCALES flag.
    pub scale: Option<&'a Vec3<F32>>,
}

impl BoneView<'_> {
    /// The bone as an owned value.
    pub fn to_bone(&self) -> Bone {
        Bone {
            name: self.name.to_string(),
            flags: self.head.flags,
            parent: self.head.parent.get(),
            global: self.global.map(PoseRecord::native),
            local: self.local.map(PoseRecord::native),
            scale: self.scale.map(|s| s.native()),
        }
    }
}

/// A mesh's influences, borrowed at the width the bone count gives: core's [`IndexSlice`]
/// of [`InfluenceRecord`](crate::InfluenceRecord)s, each read as an
/// [`Influence`](crate::Influence) (`vertexCount x maxInfluence` of them).
pub type WeightSlice<'a> = IndexSlice<'a, Influence8, Influence16, Influence32>;

/// A mesh's triangles, borrowed at the width its vertex count gives: core's [`IndexSlice`]
/// of [`FaceRecord`](crate::FaceRecord)s, each read as its three indices.
pub type FaceSlice<'a> = IndexSlice<'a, Face8, Face16, Face32>;

/// One mesh, borrowed: its header and a slice per array.
#[derive(Debug, Clone, Copy)]
pub struct MeshView<'a> {
    offset: u64,
    header: &'a MeshHeaderRecord,
    positions: &'a [Vec3<F32>],
    uvs: &'a [Vec2<F32>],
    normals: &'a [Vec3<F32>],
    colors: &'a [Rgba8],
    weights: WeightSlice<'a>,
    faces: FaceSlice<'a>,
    material_indices: &'a [I32],
}

impl<'a> MeshView<'a> {
    /// Where the mesh starts in the file.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The mesh's header.
    pub fn header(&self) -> &'a MeshHeaderRecord {
        self.header
    }

    /// `vertexCount`.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// `layerCount`.
    pub fn layer_count(&self) -> usize {
        self.material_indices.len()
    }

    /// One position per vertex.
    pub fn positions(&self) -> &'a [Vec3<F32>] {
        self.positions
    }

    /// `layerCount` UV coordinates per vertex, vertex-major (empty without the UV flag).
    pub fn uvs(&self) -> &'a [Vec2<F32>] {
        self.uvs
    }

    /// One normal per vertex (empty without the NORMALS flag).
    pub fn normals(&self) -> &'a [Vec3<F32>] {
        self.normals
    }

    /// One colour per vertex (empty without the COLOR flag).
    pub fn colors(&self) -> &'a [Rgba8] {
        self.colors
    }

    /// `maxInfluence` influences per vertex (empty without the WEIGHTS flag).
    pub fn weights(&self) -> WeightSlice<'a> {
        self.weights
    }

    /// The triangles.
    pub fn faces(&self) -> FaceSlice<'a> {
        self.faces
    }

    /// The material of each UV layer, -1 for none.
    pub fn material_indices(&self) -> &'a [I32] {
        self.material_indices
    }

    /// The mesh as an owned value (copies every array).
    pub fn to_mesh(&self) -> deployed::Mesh {
        deployed::Mesh {
            flags: self.header.flags,
            max_influence: self.header.max_influence,
            positions: self.positions.iter().map(|p| p.native()).collect(),
            uvs: self.uvs.iter().map(|p| p.native()).collect(),
            normals: self.normals.iter().map(|p| p.native()).collect(),
            colors: self.colors.to_vec(),
            weights: self.weights.iter().collect(),
            faces: self.faces.iter().collect(),
            material_indices: self.material_indices.iter().map(|i| i.get()).collect(),
        }
    }
}

/// One material, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaterialView<'a> {
    /// The name.
    pub name: &'a str,
    /// Diffuse, normal and specular map names of a simple material.
    pub maps: Option<[&'a str; 3]>,
}

/// A deployed-layout file, borrowed: typed slices of its arrays, copied nowhere.
///
/// [`View::parse`] checks the whole structure once (every count against the bytes that hold
/// it, every name's NUL and UTF-8). Its cost depends on the number of bones, meshes and
/// materials, never on the number of vertices or faces: each vertex array is one checked
/// slice cast. The element types use `zerocopy::little_endian` scalars, so a view reads
/// correctly on any machine; `.native()` / `.get()` turn elements into values.
///
/// The draft layout interleaves each vertex's fields in one record of mixed widths, so it
/// has no per-attribute slices to lend; [`View::parse`] refuses it (read it with
/// [`crate::read`]).
#[derive(Debug, Clone)]
pub struct View<'a> {
    bytes: &'a [u8],
    header: &'a HeaderRecord,
    bones: Vec<BoneView<'a>>,
    meshes: Vec<MeshView<'a>>,
    materials: Vec<MaterialView<'a>>,
    trailer_offset: usize,
}

impl<'a> View<'a> {
    /// Checks the structure of a deployed-layout file and borrows its parts.
    ///
    /// Fails, with the byte offset, wherever [`crate::read`] fails on the same bytes, and on a
    /// draft-layout file.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        if sniff(bytes)? == Layout::Draft {
            return Err(Error::new(
                FORMAT,
                9,
                ErrorKind::invalid(
                    "the deployed layout (headerSize 0x14): a view needs its per-attribute arrays",
                    "the draft layout (headerSize 0x1E), whose vertex records are interleaved; use read()",
                ),
            ));
        }
        // A header cut short fails at the field it cuts, as the reader does (it reads the
        // reserved bytes one by one, so that field fails where the input ends).
        cut_field(
            bytes.len() as u64,
            11,
            &[
                (1, "dataFlags"),
                (1, "boneFlags"),
                (1, "meshFlags"),
                (4, "boneCount"),
                (4, "meshCount"),
                (4, "matCount"),
                (3, "reserved"),
            ],
        )?;
        let mut c = ViewCursor::new(FORMAT, bytes);
        let header: &HeaderRecord = c.one("the header")?;
        let data_flags = DataFlags::from_bits_retain(header.data_flags);
        let bone_flags = BoneFlags::from_bits_retain(header.bone_flags);
        let mesh_flags = MeshFlags::from_bits_retain(header.mesh_flags);
        let bone_count = u64::from(header.bone_count.get());

        let mut bones = Vec::new();
        if data_flags.contains(DataFlags::BONE) {
            let record = bone_flags.record_size();
            let n = c.check("bone", bone_count, 1 + record)?;
            let mut names = Vec::with_capacity(n);
            for _ in 0..n {
                names.push(c.cstr("string")?);
            }
            let records: &[u8] = c.slice(bone_count * record, "bone record")?;
            bones.reserve_exact(n);
            for (name, mut r) in names.into_iter().zip(records.chunks_exact(record as usize)) {
                let (head, rest) = BoneHead::ref_from_prefix(r).map_err(|_| short(c.pos() as u64, "a bone record"))?;
                r = rest;
                let mut take = |flag: BoneFlags| -> Option<&'a PoseRecord> {
                    if !bone_flags.contains(flag) {
                        return None;
                    }
                    let (pose, rest) = PoseRecord::ref_from_prefix(r).ok()?;
                    r = rest;
                    Some(pose)
                };
                let global = take(BoneFlags::GLOBAL_MATRIX);
                let local = take(BoneFlags::LOCAL_MATRIX);
                let scale = if bone_flags.contains(BoneFlags::SCALES) {
                    Vec3::<F32>::ref_from_prefix(r).ok().map(|(s, _)| s)
                } else {
                    None
                };
                bones.push(BoneView {
                    name,
                    head,
                    global,
                    local,
                    scale,
                });
            }
        }

        let mut meshes = Vec::new();
        if data_flags.contains(DataFlags::MESH) {
            let count = u64::from(header.mesh_count.get());
            let n = c.check("mesh", count, deployed::MESH_HEADER_SIZE)?;
            meshes.reserve_exact(n);
            let bone_index = IndexWidth::for_count(bone_count);
            for _ in 0..n {
                let offset = c.pos() as u64;
                cut_field(
                    bytes.len() as u64,
                    offset,
                    &[
                        (1, "flags"),
                        (1, "layerCount"),
                        (1, "maxInfluence"),
                        (4, "vertexCount"),
                        (4, "faceCount"),
                    ],
                )?;
                let h: &MeshHeaderRecord = c.one("a mesh header")?;
                let v = u64::from(h.vertex_count.get());
                let layers = u64::from(h.layer_count);
                let has = |f| mesh_flags.contains(f);
                let positions = c.slice(v, "vertex position")?;
                let uvs = if has(MeshFlags::UV_SET) {
                    c.slice(v * layers, "uv")?
                } else {
                    &[]
                };
                let normals = if has(MeshFlags::NORMALS) {
                    c.slice(v, "normal")?
                } else {
                    &[]
                };
                let colors = if has(MeshFlags::COLOR) {
                    c.slice(v, "colour")?
                } else {
                    &[]
                };
                let influences = if has(MeshFlags::WEIGHTS) {
                    v * u64::from(h.max_influence)
                } else {
                    0
                };
                let weights = WeightSlice::take(&mut c, bone_index, influences, "weight")?;
                let f = u64::from(h.face_count.get());
                let faces = FaceSlice::take(&mut c, IndexWidth::for_count(v), f, "face")?;
                let material_indices = c.slice(layers, "material index")?;
                meshes.push(MeshView {
                    offset,
                    header: h,
                    positions,
                    uvs,
                    normals,
                    colors,
                    weights,
                    faces,
                    material_indices,
                });
            }
        }

        let mut materials = Vec::new();
        if data_flags.contains(DataFlags::MATERIALS) {
            let count = u64::from(header.material_count.get());
            let n = c.check("material", count, 2)?;
            materials.reserve_exact(n);
            for _ in 0..n {
                let name = c.cstr("string")?;
                let at = c.pos() as u64;
                let maps = match *c.one::<u8>("isSimple")? {
                    0 => None,
                    1 => Some([c.cstr("string")?, c.cstr("string")?, c.cstr("string")?]),
                    other => return Err(Error::new(FORMAT, at, ErrorKind::invalid("isSimple 0 or 1", other))),
                };
                materials.push(MaterialView { name, maps });
            }
        }

        Ok(Self {
            bytes,
            header,
            bones,
            meshes,
            materials,
            trailer_offset: c.pos(),
        })
    }

    /// The header.
    pub fn header(&self) -> &'a HeaderRecord {
        self.header
    }

    /// The bones (none without the BONE flag).
    pub fn bones(&self) -> &[BoneView<'a>] {
        &self.bones
    }

    /// The meshes (none without the MESH flag).
    pub fn meshes(&self) -> &[MeshView<'a>] {
        &self.meshes
    }

    /// The materials (none without the MATERIALS flag).
    pub fn materials(&self) -> &[MaterialView<'a>] {
        &self.materials
    }

    /// The bytes after the last block.
    pub fn trailer_bytes(&self) -> &'a [u8] {
        self.bytes.get(self.trailer_offset..).unwrap_or_default()
    }

    /// The trailer, parsed now (an SEBlend trailer is per-vertex work, so it is not parsed
    /// when the view opens).
    pub fn trailer(&self) -> Trailer<BlendShapes> {
        let counts: Vec<u64> = self.meshes.iter().map(|m| m.vertex_count() as u64).collect();
        BlendShapes::parse_trailer(self.trailer_bytes(), &counts)
    }

    /// The whole file as an owned model (copies everything; equals [`crate::read`]'s result).
    pub fn to_model(&self) -> deployed::Model {
        let h = self.header;
        let data_flags = DataFlags::from_bits_retain(h.data_flags);
        let block = |flag: DataFlags, count: u32| -> Option<u32> { (!data_flags.contains(flag)).then_some(count) };
        fn make<T>(absent: Option<u32>, items: Vec<T>) -> Block<T> {
            match absent {
                Some(count) => Block::Absent { count },
                None => Block::Present(items),
            }
        }
        deployed::Model {
            other_data_flags: data_flags.difference(DataFlags::DEPLOYED_BLOCKS),
            bone_flags: BoneFlags::from_bits_retain(h.bone_flags),
            mesh_flags: MeshFlags::from_bits_retain(h.mesh_flags),
            reserved: h.reserved,
            bones: make(
                block(DataFlags::BONE, h.bone_count.get()),
                self.bones.iter().map(BoneView::to_bone).collect(),
            ),
            meshes: make(
                block(DataFlags::MESH, h.mesh_count.get()),
                self.meshes.iter().map(MeshView::to_mesh).collect(),
            ),
            materials: make(
                block(DataFlags::MATERIALS, h.material_count.get()),
                self.materials
                    .iter()
                    .map(|m| deployed::Material {
                        name: m.name.to_string(),
                        maps: m.maps.map(|[diffuse, normal, specular]| MaterialMaps {
                            diffuse: diffuse.to_string(),
                            normal: normal.to_string(),
                            specular: specular.to_string(),
                        }),
                    })
                    .collect(),
            ),
            trailer: self.trailer(),
        }
    }
}

/// Fails at the first of these consecutive fields (starting at `at`) that does not fit in
/// `len` bytes, where binrw's reader fails: at a scalar's start, or at the end of the input
/// inside a byte array (which it reads byte by byte).
fn cut_field(len: u64, mut at: u64, fields: &[(u64, &str)]) -> Result<()> {
    for &(size, name) in fields {
        if at + size > len {
            let at = if size == 3 { len } else { at };
            return Err(short(at, name));
        }
        at += size;
    }
    Ok(())
}

fn short(at: u64, what: &str) -> Error {
    Error::new(FORMAT, at, ErrorKind::UnexpectedEof { expected: what.into() })
}
