//! The header's presence flags. Each is a newtype over the raw byte, so binrw reads and writes
//! the byte as it is and serde dumps it as a plain number; `bitflags` gives the named bits.
//! Bits without a name (reserved ones) survive a rewrite, and `validate` reports them.

use binrw::binrw;
use bitflags::bitflags;
use serde::{Deserialize, Serialize};

/// `dataFlags` (`dataPresenceFlags` in the draft): which data blocks follow the header.
///
/// The deployed layout and the draft disagree on bit 2: deployed files use it for materials,
/// the draft for collision (with materials on bit 3). [`DataFlags::DEPLOYED_KNOWN`] and
/// [`DataFlags::DRAFT_KNOWN`] are each layout's named bits; the rest are reserved.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DataFlags(u8);

bitflags! {
    impl DataFlags: u8 {
        /// The bone block (names, then one record per bone). Both layouts.
        const BONE = 1 << 0;
        /// The mesh block. Both layouts.
        const MESH = 1 << 1;
        /// Deployed layout: the material block.
        const MATERIALS = 1 << 2;
        /// Draft layout: collision data (the draft leaves its block "TODO", so no bytes follow).
        const DRAFT_COLLISION = 1 << 2;
        /// Draft layout: materials (the draft leaves its block "TODO", so no bytes follow).
        const DRAFT_MATERIALS = 1 << 3;
    }
}

impl DataFlags {
    /// Deployed layout: the bits that announce a block this crate reads.
    pub const DEPLOYED_BLOCKS: Self = Self::BONE.union(Self::MESH).union(Self::MATERIALS);
    /// Draft layout: the bits that announce a block with bytes on disk.
    pub const DRAFT_BLOCKS: Self = Self::BONE.union(Self::MESH);
    /// Deployed layout: every bit with a meaning (the rest are reserved).
    pub const DEPLOYED_KNOWN: Self = Self::DEPLOYED_BLOCKS;
    /// Draft layout: every bit with a meaning (the rest are reserved).
    pub const DRAFT_KNOWN: Self = Self::DRAFT_BLOCKS
        .union(Self::DRAFT_COLLISION)
        .union(Self::DRAFT_MATERIALS);
}

/// `boneFlags` (`boneDataPresenceFlags` in the draft): which parts every bone record carries.
/// Bits 3..7 are reserved.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BoneFlags(u8);

bitflags! {
    impl BoneFlags: u8 {
        /// Bones carry a model-space position and rotation.
        const GLOBAL_MATRIX = 1 << 0;
        /// Bones carry a parent-space position and rotation.
        const LOCAL_MATRIX = 1 << 1;
        /// Bones carry a scale.
        const SCALES = 1 << 2;
    }
}

impl BoneFlags {
    /// The size in bytes of one bone record under these flags: `u8 flags`, `i32 parent`,
    /// then 28 bytes per matrix and 12 for the scale.
    pub const fn record_size(self) -> u64 {
        5 + if self.contains(Self::GLOBAL_MATRIX) { 28 } else { 0 }
            + if self.contains(Self::LOCAL_MATRIX) { 28 } else { 0 }
            + if self.contains(Self::SCALES) { 12 } else { 0 }
    }
}

/// `meshFlags` (`meshDataPresenceFlags` in the draft): which per-vertex arrays every mesh
/// carries. Bits 4..7 are reserved.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MeshFlags(u8);

bitflags! {
    impl MeshFlags: u8 {
        /// UV coordinates (`layerCount` per vertex).
        const UV_SET = 1 << 0;
        /// Vertex normals.
        const NORMALS = 1 << 1;
        /// RGBA vertex colours.
        const COLOR = 1 << 2;
        /// Skin weights (`maxInfluence` per vertex).
        const WEIGHTS = 1 << 3;
    }
}

animbin_core::reserved_bits!(BoneFlags, MeshFlags);

impl DataFlags {
    /// The bits that are reserved in `layout`, where set.
    pub const fn reserved_bits(self, layout: crate::Layout) -> u8 {
        let known = match layout {
            crate::Layout::Deployed => Self::DEPLOYED_KNOWN,
            crate::Layout::Draft => Self::DRAFT_KNOWN,
        };
        self.bits() & !known.bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

    #[test]
    fn reserved_bits_are_the_bits_without_a_name_in_the_layout() {
        assert_eq!(BoneFlags::from_bits_retain(0xff).reserved_bits(), 0xf8);
        assert_eq!(MeshFlags::from_bits_retain(0xff).reserved_bits(), 0xf0);
        let data = DataFlags::from_bits_retain(0x0f);
        assert_eq!(data.reserved_bits(Layout::Deployed), 0x08);
        assert_eq!(data.reserved_bits(Layout::Draft), 0);
        assert_eq!(BoneFlags::all().record_size(), 5 + 28 + 28 + 12);
    }
}
