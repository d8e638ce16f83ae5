//! The bone block, identical in both layouts: every bone's name first, then every bone's
//! record (`SEModel_BoneData`).

use std::io::{Read, Seek, Write};

use animbin_core::io::check_count;
use animbin_core::math::{Quat, Vec3};
use animbin_core::strings::{read_cstring, write_cstring};
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::{Deserialize, Serialize};

use super::block::Block;
use super::flags::BoneFlags;

/// A position and rotation pair (`vec3 position; quat_t rotation`, 28 bytes).
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// The position.
    pub position: Vec3<f32>,
    /// The rotation, x y z w.
    pub rotation: Quat<f32>,
}

/// The origin with no rotation (the identity quaternion, not four zeros, which are no
/// rotation and which `validate` warns about).
impl Default for Pose {
    fn default() -> Self {
        Self {
            position: Vec3::default(),
            rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
        }
    }
}

/// One bone: its name (from the block's name list) and its record.
#[binrw]
#[brw(little, import(presence: BoneFlags))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Bone {
    /// The bone's name. On disk all names precede all records; the block reader pairs them.
    #[brw(ignore)]
    pub name: String,
    /// `flags`: 0 in every file the known tools write (no bit is defined).
    pub flags: u8,
    /// `boneParent`: the parent's index, or -1 for a root.
    pub parent: i32,
    /// Model-space position and rotation, present when `boneFlags` has GLOBAL_MATRIX.
    #[brw(if(presence.contains(BoneFlags::GLOBAL_MATRIX)))]
    pub global: Option<Pose>,
    /// Parent-space position and rotation, present when `boneFlags` has LOCAL_MATRIX.
    #[brw(if(presence.contains(BoneFlags::LOCAL_MATRIX)))]
    pub local: Option<Pose>,
    /// Scale (1.0 is the default), present when `boneFlags` has SCALES.
    #[brw(if(presence.contains(BoneFlags::SCALES)))]
    pub scale: Option<Vec3<f32>>,
}

impl Bone {
    /// The bone's parent index, or `None` for a root (-1) or any other negative value.
    pub fn parent_index(&self) -> Option<usize> {
        usize::try_from(self.parent).ok()
    }
}

/// Reads the bone block: `count` names, then `count` records.
pub(crate) fn read_bones<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (present, count, presence): (bool, u32, BoneFlags),
) -> BinResult<Block<Bone>> {
    if !present {
        return Ok(Block::Absent { count });
    }
    // A bone takes at least its name's NUL and its record.
    let n = check_count(reader, "bone", u64::from(count), 1 + presence.record_size())?;
    let mut names = Vec::with_capacity(n);
    for _ in 0..n {
        names.push(read_cstring(reader)?);
    }
    check_count(reader, "bone record", u64::from(count), presence.record_size())?;
    let mut bones = Vec::with_capacity(n);
    for name in names {
        let mut bone = Bone::read_options(reader, endian, (presence,))?;
        bone.name = name;
        bones.push(bone);
    }
    Ok(Block::Present(bones))
}

/// Writes the bone block: every name, then every record.
pub(crate) fn write_bones<W: Write + Seek>(
    bones: &Block<Bone>,
    writer: &mut W,
    endian: Endian,
    (presence,): (BoneFlags,),
) -> BinResult<()> {
    for bone in bones.items() {
        write_cstring(writer, &bone.name)?;
    }
    for bone in bones.items() {
        bone.write_options(writer, endian, (presence,))?;
    }
    Ok(())
}
