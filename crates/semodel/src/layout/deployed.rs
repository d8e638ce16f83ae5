//! The deployed SEModel v1 layout (`headerSize` 0x14): what every existing tool writes.
//!
//! ```text
//! "SEModel" u16 version=1 u16 headerSize=0x14
//! u8 dataFlags u8 boneFlags u8 meshFlags u32 boneCount u32 meshCount u32 matCount u8[3] reserved
//! cstring boneName[boneCount]                                   if dataFlags & BONE
//! per bone: u8 flags, i32 parent, [pos, quat] global, [pos, quat] local, [scale]
//! per mesh: u8 flags, u8 layerCount, u8 maxInfluence, u32 vertexCount, u32 faceCount,
//!           then struct-of-arrays vertex data, faces, i32 materialIndex[layerCount]
//! per material: cstring name, u8 isSimple, [cstring diffuse, normal, specular]
//! [SEBlend trailer or other bytes]
//! ```

use std::io::{Read, Seek};

use animbin_core::io::{read_pod_field, write_pod_field};
use animbin_core::math::{Rgba8, Vec2, Vec3};
use animbin_core::seblend::Trailer;
use animbin_core::strings::{read_cstring_field, write_cstring_field};
use animbin_core::{ErrorKind, IndexWidth};
use binrw::{BinRead, BinResult, Endian, binrw};
use serde::{Deserialize, Serialize};

use super::blend::{BlendShapes, read_trailer, write_trailer};
use super::block::{Block, BlockArgs, read_block, write_block};
use super::bone::{Bone, read_bones, write_bones};
use super::flags::{BoneFlags, DataFlags, MeshFlags};
use super::records::{Influence, read_faces, read_influences, write_faces, write_influences};
use super::{VERSION, compose_data_flags, count_u32};

/// `headerSize` of this layout; it counts its own two bytes, so the header ends at byte 29.
pub const HEADER_SIZE: u16 = 0x14;

/// The size of a mesh's header: flags, layerCount, maxInfluence, vertexCount, faceCount.
pub const MESH_HEADER_SIZE: u64 = 11;

/// A whole file in the deployed layout.
#[binrw]
#[brw(little, magic = b"SEModel")]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Model {
    /// `version`: always 1.
    #[br(temp, assert(version == VERSION, ErrorKind::invalid("SEModel version 1", version)))]
    #[bw(calc = VERSION)]
    version: u16,
    /// `headerSize`: 0x14 in this layout.
    #[br(temp, assert(header_size == HEADER_SIZE, ErrorKind::invalid("headerSize 0x14", header_size)))]
    #[bw(calc = HEADER_SIZE)]
    header_size: u16,
    /// `dataFlags`: the block bits come from the blocks, the others from `other_data_flags`.
    #[br(temp)]
    #[bw(try_calc = compose_data_flags(*other_data_flags, DataFlags::DEPLOYED_BLOCKS, &[
        (DataFlags::BONE, bones.is_present()),
        (DataFlags::MESH, meshes.is_present()),
        (DataFlags::MATERIALS, materials.is_present()),
    ]))]
    data_flags: DataFlags,
    /// The bits of `dataFlags` other than BONE, MESH and MATERIALS: reserved, empty when valid.
    #[br(calc = data_flags.difference(DataFlags::DEPLOYED_BLOCKS))]
    #[bw(ignore)]
    pub other_data_flags: DataFlags,
    /// `boneFlags`: which parts every bone record carries.
    pub bone_flags: BoneFlags,
    /// `meshFlags`: which vertex arrays every mesh carries.
    pub mesh_flags: MeshFlags,
    /// `boneCount`; it also sizes the weights' bone indices (`bone_t`).
    #[br(temp)]
    #[bw(try_calc = bones.count_field("bone"))]
    bone_count: u32,
    /// `meshCount`.
    #[br(temp)]
    #[bw(try_calc = meshes.count_field("mesh"))]
    mesh_count: u32,
    /// `matCount`.
    #[br(temp)]
    #[bw(try_calc = materials.count_field("material"))]
    material_count: u32,
    /// Three reserved bytes, 0 when valid.
    pub reserved: [u8; 3],
    /// The bones, present when `dataFlags` has BONE.
    #[br(parse_with = read_bones, args(data_flags.contains(DataFlags::BONE), bone_count, bone_flags))]
    #[bw(write_with = write_bones, args(*bone_flags))]
    pub bones: Block<Bone>,
    /// The meshes, present when `dataFlags` has MESH.
    #[br(parse_with = read_block, args_raw = BlockArgs {
        present: data_flags.contains(DataFlags::MESH),
        count: mesh_count,
        min_size: MESH_HEADER_SIZE,
        what: "mesh",
        inner: MeshBinReadArgs {
            presence: mesh_flags,
            bone_index: IndexWidth::for_count(u64::from(bone_count)),
        },
    })]
    #[bw(write_with = write_block, args_raw = MeshBinWriteArgs {
        presence: *mesh_flags,
        bone_index: IndexWidth::for_count(u64::from(bone_count)),
    })]
    pub meshes: Block<Mesh>,
    /// The materials, present when `dataFlags` has MATERIALS.
    #[br(parse_with = read_block, args_raw = BlockArgs {
        present: data_flags.contains(DataFlags::MATERIALS),
        count: material_count,
        min_size: 2,
        what: "material",
        inner: (),
    })]
    #[bw(write_with = write_block, args_raw = ())]
    pub materials: Block<Material>,
    /// Whatever follows the materials.
    #[br(parse_with = read_trailer, args(meshes.items().iter().map(|m| m.positions.len() as u64).collect()))]
    #[bw(write_with = write_trailer)]
    pub trailer: Trailer<BlendShapes>,
}

/// One mesh: its header, then struct-of-arrays vertex data, faces and material indices.
///
/// Read and written with the header's `meshFlags` (`presence`) and the width of `bone_t`
/// (`bone_index`, from `boneCount`) as named arguments.
#[binrw]
#[brw(little, import { presence: MeshFlags, bone_index: IndexWidth })]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Mesh {
    /// `flags`: 0 in every file the known tools write (no bit is defined).
    pub flags: u8,
    /// `layerCount`: UV layers per vertex, and material indices; from `material_indices`.
    #[br(temp)]
    #[bw(try_calc = layer_count_field(material_indices))]
    layer_count: u8,
    /// `maxInfluence`: weights per vertex (0 when the WEIGHTS flag is clear).
    pub max_influence: u8,
    /// `vertexCount`; it also sizes the face indices.
    #[br(temp)]
    #[bw(try_calc = count_u32(positions.len(), "vertices"))]
    vertex_count: u32,
    /// `faceCount`.
    #[br(temp)]
    #[bw(try_calc = count_u32(faces.len(), "faces"))]
    face_count: u32,
    /// `vec3 position[vertexCount]`.
    #[br(parse_with = read_pod_field, args(u64::from(vertex_count), "vertex position"))]
    #[bw(write_with = write_pod_field)]
    pub positions: Vec<Vec3<f32>>,
    /// `vec2 uv[vertexCount][layerCount]`, vertex-major, when `meshFlags` has UV_SET.
    #[brw(if(presence.contains(MeshFlags::UV_SET)))]
    #[br(parse_with = read_pod_field, args(u64::from(vertex_count) * u64::from(layer_count), "uv"))]
    #[bw(write_with = write_pod_field)]
    pub uvs: Vec<Vec2<f32>>,
    /// `vec3 normal[vertexCount]` (f32), when `meshFlags` has NORMALS.
    #[brw(if(presence.contains(MeshFlags::NORMALS)))]
    #[br(parse_with = read_pod_field, args(u64::from(vertex_count), "normal"))]
    #[bw(write_with = write_pod_field)]
    pub normals: Vec<Vec3<f32>>,
    /// `u8 rgba[vertexCount][4]`, when `meshFlags` has COLOR.
    #[brw(if(presence.contains(MeshFlags::COLOR)))]
    #[br(parse_with = read_pod_field, args(u64::from(vertex_count), "colour"))]
    #[bw(write_with = write_pod_field)]
    pub colors: Vec<Rgba8>,
    /// `(bone_t, f32)[vertexCount][maxInfluence]`, vertex-major, when `meshFlags` has WEIGHTS.
    #[brw(if(presence.contains(MeshFlags::WEIGHTS)))]
    #[br(parse_with = read_influences, args(u64::from(vertex_count) * u64::from(max_influence), bone_index))]
    #[bw(write_with = write_influences, args_raw = bone_index)]
    pub weights: Vec<Influence>,
    /// `idx_t face[faceCount][3]`, the index width given by this mesh's `vertexCount`.
    #[br(parse_with = read_faces, args(u64::from(face_count), IndexWidth::for_count(u64::from(vertex_count))))]
    #[bw(write_with = write_faces, args_raw = IndexWidth::for_count(u64::from(vertex_count)))]
    pub faces: Vec<[u32; 3]>,
    /// `i32 materialIndex[layerCount]`: the material of each UV layer, -1 for none.
    #[br(parse_with = read_pod_field, args(u64::from(layer_count), "material index"))]
    #[bw(write_with = write_pod_field)]
    pub material_indices: Vec<i32>,
}

impl Mesh {
    /// The number of UV layers (`layerCount`).
    pub fn layer_count(&self) -> usize {
        self.material_indices.len()
    }

    /// The UV coordinates of layer `layer`, one per vertex (empty when the mesh has none).
    pub fn uv_layer(&self, layer: usize) -> Vec<Vec2<f32>> {
        let layers = self.layer_count();
        if layer >= layers {
            return Vec::new();
        }
        self.uvs.iter().skip(layer).step_by(layers).copied().collect()
    }
}

/// A material: a name and, for a simple material, three texture file names.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Material {
    /// The material's name.
    #[br(parse_with = read_cstring_field)]
    #[bw(write_with = write_cstring_field)]
    pub name: String,
    /// `isSimple`: 1 when the three map names follow, 0 when nothing does.
    #[br(temp, parse_with = is_simple)]
    #[bw(calc = u8::from(maps.is_some()))]
    is_simple: u8,
    /// The map names of a simple material.
    #[br(if(is_simple == 1))]
    pub maps: Option<MaterialMaps>,
}

/// The texture file names of a simple material (empty names are allowed and kept).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MaterialMaps {
    /// The diffuse (albedo) map.
    #[br(parse_with = read_cstring_field)]
    #[bw(write_with = write_cstring_field)]
    pub diffuse: String,
    /// The normal map.
    #[br(parse_with = read_cstring_field)]
    #[bw(write_with = write_cstring_field)]
    pub normal: String,
    /// The specular map.
    #[br(parse_with = read_cstring_field)]
    #[bw(write_with = write_cstring_field)]
    pub specular: String,
}

/// `layerCount` from the material indices, refusing more than 255.
fn layer_count_field(material_indices: &[i32]) -> Result<u8, ErrorKind> {
    u8::try_from(material_indices.len())
        .map_err(|_| ErrorKind::Unencodable(format!("{} UV layers (at most 255)", material_indices.len())))
}

/// Reads `isSimple`, refusing anything but 0 and 1 (at the byte's own offset).
fn is_simple<R: Read + Seek>(reader: &mut R, endian: Endian, (): ()) -> BinResult<u8> {
    let pos = reader.stream_position()?;
    let value = u8::read_options(reader, endian, ())?;
    if value > 1 {
        return Err(ErrorKind::invalid("isSimple 0 or 1", value).at(pos));
    }
    Ok(value)
}

impl Model {
    /// Reads a deployed-layout file, refusing the draft (see [`crate::read`] for either layout).
    pub fn read(bytes: &[u8]) -> animbin_core::Result<Self> {
        crate::read_layout(bytes)
    }

    /// The header's `boneCount` (the width of the weights' bone indices depends on it).
    pub fn bone_count(&self) -> u64 {
        self.bones.header_count()
    }

    /// The byte width of the weights' bone indices.
    pub fn bone_index_width(&self) -> IndexWidth {
        IndexWidth::for_count(self.bone_count())
    }

    /// Sets `bone_flags` and `mesh_flags` to what the bones and meshes carry (a part that any
    /// bone or mesh has sets its flag), for models built by hand.
    pub fn set_flags_from_data(&mut self) {
        // A part that any bone or mesh has sets its flag.
        let mut bone = BoneFlags::empty();
        for b in self.bones.items() {
            for (flag, has) in [
                (BoneFlags::GLOBAL_MATRIX, b.global.is_some()),
                (BoneFlags::LOCAL_MATRIX, b.local.is_some()),
                (BoneFlags::SCALES, b.scale.is_some()),
            ] {
                if has {
                    bone |= flag;
                }
            }
        }
        let mut mesh = MeshFlags::empty();
        for m in self.meshes.items() {
            for (flag, has) in [
                (MeshFlags::UV_SET, !m.uvs.is_empty() || m.layer_count() > 0),
                (MeshFlags::NORMALS, !m.normals.is_empty()),
                (MeshFlags::COLOR, !m.colors.is_empty()),
                (MeshFlags::WEIGHTS, m.max_influence > 0),
            ] {
                if has {
                    mesh |= flag;
                }
            }
        }
        self.bone_flags = bone;
        self.mesh_flags = mesh;
    }
}
