//! The draft layout of the original specification (`headerSize` 0x1E), which no known tool
//! writes in this form.
//!
//! ```text
//! "SEModel" u16 version=1 u16 headerSize=0x1E
//! u8 modelType u16 modelFlags u8 dataFlags u8 boneFlags u8 meshFlags u8 reserved1[2]
//! u32 boneCount u32 meshCount u32 colCount u32 matCount u8 maxSkinInfluence u8 reserved2[3]
//! bones as in the deployed layout                                if dataFlags & BONE
//! per mesh: u8 flags, u8 uvSetCount, u32 vertexCount, u32 faceCount,
//!           interleaved vertex records, u32 face[faceCount][3]  if dataFlags & MESH
//! (collision and material blocks: "TODO" in the draft, so no bytes follow their flags)
//! ```
//!
//! The vertex arrays are kept struct-of-arrays in memory ([`Vertices`]); [`VertexRecord`]
//! is the on-disk record they are read from and written to, one vertex at a time.

use std::io::{Read, Seek, Write};

use animbin_core::io::{check_count, read_pod_field, write_pod_field};
use animbin_core::math::{Rgba8, Vec2, Vec3};
use animbin_core::seblend::Trailer;
use animbin_core::{ErrorKind, Index, IndexWidth};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use half::f16;
use serde::{Deserialize, Serialize};

use super::blend::{BlendShapes, read_trailer, write_trailer};
use super::block::{Block, BlockArgs, read_block, write_block};
use super::bone::{Bone, read_bones, write_bones};
use super::flags::{BoneFlags, DataFlags, MeshFlags};
use super::{VERSION, compose_data_flags, count_u32};

/// `headerSize` of the draft layout: the draft's header fields add up to 0x1E bytes.
pub const HEADER_SIZE: u16 = 0x1E;

/// The size of a mesh's header: flags, uvSetCount, vertexCount, faceCount.
pub const MESH_HEADER_SIZE: u64 = 10;

/// The width of a `mat_t` material index: u8 for at most 255 materials, else u16 (the draft
/// has no u32 case).
pub fn material_index_width(material_count: u64) -> IndexWidth {
    if material_count <= 0xFF {
        IndexWidth::U8
    } else {
        IndexWidth::U16
    }
}

/// A whole file in the draft layout.
#[binrw]
#[brw(little, magic = b"SEModel")]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Model {
    /// `version`: always 1.
    #[br(temp, assert(version == VERSION, ErrorKind::invalid("SEModel version 1", version)))]
    #[bw(calc = VERSION)]
    version: u16,
    /// `headerSize`: 0x1E in this layout.
    #[br(temp, assert(header_size == HEADER_SIZE, ErrorKind::invalid("headerSize 0x1E", header_size)))]
    #[bw(calc = HEADER_SIZE)]
    header_size: u16,
    /// `modelType`: 0 static, 1 dynamic, 2 collision ("implementation defined").
    pub model_type: u8,
    /// `modelFlags`: implementation defined.
    pub model_flags: u16,
    /// `dataPresenceFlags`: BONE and MESH come from the blocks, the rest from `other_data_flags`.
    #[br(temp)]
    #[bw(try_calc = compose_data_flags(*other_data_flags, DataFlags::DRAFT_BLOCKS, &[
        (DataFlags::BONE, bones.is_present()),
        (DataFlags::MESH, meshes.is_present()),
    ]))]
    data_flags: DataFlags,
    /// The bits of `dataPresenceFlags` other than BONE and MESH: COLLISION (4) and MATERIALS
    /// (8), whose blocks the draft leaves undefined, and reserved bits.
    #[br(calc = data_flags.difference(DataFlags::DRAFT_BLOCKS))]
    #[bw(ignore)]
    pub other_data_flags: DataFlags,
    /// `boneDataPresenceFlags`.
    pub bone_flags: BoneFlags,
    /// `meshDataPresenceFlags`.
    pub mesh_flags: MeshFlags,
    /// `reserved1`, 0 when valid.
    pub reserved1: [u8; 2],
    /// `boneCount`; it also sizes the vertices' bone indices (`bone_t`).
    #[br(temp)]
    #[bw(try_calc = bones.count_field("bone"))]
    bone_count: u32,
    /// `meshCount`.
    #[br(temp)]
    #[bw(try_calc = meshes.count_field("mesh"))]
    mesh_count: u32,
    /// `colCount`: collision objects (no block follows in the draft).
    pub collision_count: u32,
    /// `matCount`: it sizes the vertices' UV material indices (`mat_t`).
    pub material_count: u32,
    /// `maxSkinInfluence`: weights per vertex, for every mesh.
    pub max_skin_influence: u8,
    /// `reserved2`, 0 when valid.
    pub reserved2: [u8; 3],
    /// The bones, present when `dataPresenceFlags` has BONE.
    #[br(parse_with = read_bones, args(data_flags.contains(DataFlags::BONE), bone_count, bone_flags))]
    #[bw(write_with = write_bones, args(*bone_flags))]
    pub bones: Block<Bone>,
    /// The meshes, present when `dataPresenceFlags` has MESH.
    #[br(parse_with = read_block, args_raw = BlockArgs {
        present: data_flags.contains(DataFlags::MESH),
        count: mesh_count,
        min_size: MESH_HEADER_SIZE,
        what: "mesh",
        inner: MeshArgs {
            presence: mesh_flags,
            bone_index: IndexWidth::for_count(u64::from(bone_count)),
            material_index: material_index_width(u64::from(material_count)),
            influences: max_skin_influence,
        },
    })]
    #[bw(write_with = write_block, args_raw = MeshArgs {
        presence: *mesh_flags,
        bone_index: IndexWidth::for_count(u64::from(bone_count)),
        material_index: material_index_width(u64::from(*material_count)),
        influences: *max_skin_influence,
    })]
    pub meshes: Block<Mesh>,
    /// Whatever follows the meshes.
    #[br(parse_with = read_trailer, args(meshes.items().iter().map(|m| m.vertices.positions.len() as u64).collect()))]
    #[bw(write_with = write_trailer)]
    pub trailer: Trailer<BlendShapes>,
}

/// What a mesh needs from the header to read its vertex records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeshArgs {
    /// `meshDataPresenceFlags`.
    pub presence: MeshFlags,
    /// The width of `bone_t`, from `boneCount`.
    pub bone_index: IndexWidth,
    /// The width of `mat_t`, from `matCount`.
    pub material_index: IndexWidth,
    /// `maxSkinInfluence`.
    pub influences: u8,
}

impl MeshArgs {
    fn vertex_layout(self, layers: u8) -> VertexLayout {
        VertexLayout { mesh: self, layers }
    }
}

/// What a vertex record's layout depends on: the header's arguments and the mesh's
/// `uvSetCount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VertexLayout {
    /// The header's part.
    pub mesh: MeshArgs,
    /// `uvSetCount`.
    pub layers: u8,
}

impl VertexLayout {
    fn has(self, flag: MeshFlags) -> bool {
        self.mesh.presence.contains(flag)
    }

    /// The UV layers each record carries (0 without the UV_SET flag).
    pub fn uv_layers(self) -> u64 {
        if self.has(MeshFlags::UV_SET) {
            u64::from(self.layers)
        } else {
            0
        }
    }

    /// The influences each record carries (0 without the WEIGHTS flag).
    pub fn influences(self) -> u64 {
        if self.has(MeshFlags::WEIGHTS) {
            u64::from(self.mesh.influences)
        } else {
            0
        }
    }

    /// The size in bytes of one record.
    pub fn record_size(self) -> u64 {
        12 + self.uv_layers() * (8 + self.mesh.material_index.size())
            + if self.has(MeshFlags::NORMALS) { 6 } else { 0 }
            + if self.has(MeshFlags::COLOR) { 4 } else { 0 }
            + self.influences() * (self.mesh.bone_index.size() + 2)
    }
}

/// One mesh: its header, interleaved vertex records and u32 faces.
#[binrw]
#[brw(little, import_raw(args: MeshArgs))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Mesh {
    /// `flags`: 0 (no bit is defined).
    pub flags: u8,
    /// `uvSetCount`: UV layers per vertex (0 when the UV_SET flag is clear).
    pub uv_set_count: u8,
    /// `vertexCount`.
    #[br(temp)]
    #[bw(try_calc = count_u32(vertices.positions.len(), "vertices"))]
    vertex_count: u32,
    /// `faceCount`.
    #[br(temp)]
    #[bw(try_calc = count_u32(faces.len(), "faces"))]
    face_count: u32,
    /// `SEModel_VertexData[vertexCount]`, kept struct-of-arrays.
    #[br(parse_with = read_vertices, args(u64::from(vertex_count), args.vertex_layout(uv_set_count)))]
    #[bw(write_with = write_vertices, args_raw = args.vertex_layout(*uv_set_count))]
    pub vertices: Vertices,
    /// `uint32_t Indicies[faceCount][3]`.
    #[br(parse_with = read_pod_field, args(u64::from(face_count), "face"))]
    #[bw(write_with = write_pod_field)]
    pub faces: Vec<[u32; 3]>,
}

/// A draft mesh's vertex data, one array per field of [`VertexRecord`]; arrays whose flag
/// is clear are empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Vertices {
    /// One position per vertex.
    pub positions: Vec<Vec3<f32>>,
    /// `uvSetCount` coordinates per vertex, vertex-major.
    pub uvs: Vec<Vec2<f32>>,
    /// `uvSetCount` material indices (`mat_t`) per vertex, vertex-major.
    pub uv_materials: Vec<u32>,
    /// One half-float normal per vertex.
    pub normals: Vec<Vec3<f16>>,
    /// One RGBA colour per vertex.
    pub colors: Vec<Rgba8>,
    /// `maxSkinInfluence` bone indices (`bone_t`) per vertex, vertex-major.
    pub bone_indices: Vec<u32>,
    /// `maxSkinInfluence` half-float weights per vertex, vertex-major.
    pub bone_weights: Vec<f16>,
}

/// `SEModel_VertexData`: one interleaved vertex record as the draft lays it out.
#[binrw]
#[brw(little, import_raw(layout: VertexLayout))]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VertexRecord {
    /// `vec3 position`.
    pub position: Vec3<f32>,
    /// `vec2 uvCoords[uvSetCount]`, when the UV_SET flag is set.
    #[brw(if(layout.has(MeshFlags::UV_SET)))]
    #[br(parse_with = read_pod_field, args(u64::from(layout.layers), "uv"))]
    #[bw(write_with = write_pod_field)]
    pub uvs: Vec<Vec2<f32>>,
    /// `mat_t uvMaterialIndicies[uvSetCount]`, when the UV_SET flag is set.
    #[brw(if(layout.has(MeshFlags::UV_SET)))]
    #[br(count = layout.layers, args { inner: layout.mesh.material_index })]
    #[bw(args_raw = layout.mesh.material_index)]
    pub uv_materials: Vec<Index>,
    /// `vec3_h normal`, when the NORMALS flag is set.
    #[brw(if(layout.has(MeshFlags::NORMALS)))]
    pub normal: Vec3<f16>,
    /// `vec4_b color`, when the COLOR flag is set.
    #[brw(if(layout.has(MeshFlags::COLOR)))]
    pub color: Rgba8,
    /// `bone_t boneIndex[maxSkinInfluence]`, when the WEIGHTS flag is set.
    #[brw(if(layout.has(MeshFlags::WEIGHTS)))]
    #[br(count = layout.mesh.influences, args { inner: layout.mesh.bone_index })]
    #[bw(args_raw = layout.mesh.bone_index)]
    pub bone_indices: Vec<Index>,
    /// `half_t boneWeight[maxSkinInfluence]`, when the WEIGHTS flag is set.
    #[brw(if(layout.has(MeshFlags::WEIGHTS)))]
    #[br(parse_with = read_pod_field, args(u64::from(layout.mesh.influences), "bone weight"))]
    #[bw(write_with = write_pod_field)]
    pub bone_weights: Vec<f16>,
}

fn read_vertices<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (count, layout): (u64, VertexLayout),
) -> BinResult<Vertices> {
    let n = check_count(reader, "vertex record", count, layout.record_size())?;
    let layers = layout.uv_layers() as usize;
    let influences = layout.influences() as usize;
    let has = |flag| layout.has(flag);
    let mut v = Vertices {
        positions: Vec::with_capacity(n),
        uvs: Vec::with_capacity(n * layers),
        uv_materials: Vec::with_capacity(n * layers),
        normals: Vec::with_capacity(if has(MeshFlags::NORMALS) { n } else { 0 }),
        colors: Vec::with_capacity(if has(MeshFlags::COLOR) { n } else { 0 }),
        bone_indices: Vec::with_capacity(n * influences),
        bone_weights: Vec::with_capacity(n * influences),
    };
    for _ in 0..n {
        let record = VertexRecord::read_options(reader, endian, layout)?;
        v.positions.push(record.position);
        v.uvs.extend_from_slice(&record.uvs);
        v.uv_materials.extend(record.uv_materials.iter().map(|i| i.0));
        if has(MeshFlags::NORMALS) {
            v.normals.push(record.normal);
        }
        if has(MeshFlags::COLOR) {
            v.colors.push(record.color);
        }
        v.bone_indices.extend(record.bone_indices.iter().map(|i| i.0));
        v.bone_weights.extend_from_slice(&record.bone_weights);
    }
    Ok(v)
}

fn write_vertices<W: Write + Seek>(
    v: &Vertices,
    writer: &mut W,
    endian: Endian,
    layout: VertexLayout,
) -> BinResult<()> {
    let layers = layout.uv_layers() as usize;
    let influences = layout.influences() as usize;
    for (i, &position) in v.positions.iter().enumerate() {
        // The lengths were checked against the layout before writing began (crate::check).
        let run = |len: usize| i * len..(i + 1) * len;
        let record = VertexRecord {
            position,
            uvs: v.uvs.get(run(layers)).unwrap_or_default().to_vec(),
            uv_materials: v
                .uv_materials
                .get(run(layers))
                .unwrap_or_default()
                .iter()
                .map(|&m| Index(m))
                .collect(),
            normal: v.normals.get(i).copied().unwrap_or_default(),
            color: v.colors.get(i).copied().unwrap_or_default(),
            bone_indices: v
                .bone_indices
                .get(run(influences))
                .unwrap_or_default()
                .iter()
                .map(|&b| Index(b))
                .collect(),
            bone_weights: v.bone_weights.get(run(influences)).unwrap_or_default().to_vec(),
        };
        record.write_options(writer, endian, layout)?;
    }
    Ok(())
}

impl Model {
    /// Reads a draft-layout file, refusing the deployed one (see [`crate::read`] for either
    /// layout).
    pub fn read(bytes: &[u8]) -> animbin_core::Result<Self> {
        crate::read_layout(bytes)
    }

    /// The arguments every mesh is read and written with.
    pub fn mesh_args(&self) -> MeshArgs {
        MeshArgs {
            presence: self.mesh_flags,
            bone_index: IndexWidth::for_count(self.bones.header_count()),
            material_index: material_index_width(u64::from(self.material_count)),
            influences: self.max_skin_influence,
        }
    }
}
