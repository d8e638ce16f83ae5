//! The header's presence flags. Each is kept as the raw byte so that bits this crate does
//! not know (reserved ones) survive a rewrite; `validate` reports them.

use binrw::binrw;
use serde::{Deserialize, Serialize};

/// `dataPresenceFlags`: which data blocks follow the header.
///
/// The deployed layout and the draft disagree on bit 2 (FORMATS.md): deployed files use it
/// for materials, the draft for collision (with materials on bit 3).
pub mod data {
    /// The bone block (names, then one record per bone). Both layouts.
    pub const BONE: u8 = 1 << 0;
    /// The mesh block. Both layouts.
    pub const MESH: u8 = 1 << 1;
    /// Deployed layout: the material block.
    pub const MATERIALS: u8 = 1 << 2;
    /// Draft layout: collision data (the draft leaves its block "TODO", so no bytes follow).
    pub const DRAFT_COLLISION: u8 = 1 << 2;
    /// Draft layout: materials (the draft leaves its block "TODO", so no bytes follow).
    pub const DRAFT_MATERIALS: u8 = 1 << 3;
    /// Deployed layout: the bits that announce a block this crate reads.
    pub const DEPLOYED_BLOCKS: u8 = BONE | MESH | MATERIALS;
    /// Draft layout: the bits that announce a block with bytes on disk.
    pub const DRAFT_BLOCKS: u8 = BONE | MESH;
    /// Deployed layout: every bit with a meaning (the rest are reserved).
    pub const DEPLOYED_KNOWN: u8 = DEPLOYED_BLOCKS;
    /// Draft layout: every bit with a meaning (the rest are reserved).
    pub const DRAFT_KNOWN: u8 = BONE | MESH | DRAFT_COLLISION | DRAFT_MATERIALS;
}

/// `boneDataPresenceFlags`: which parts every bone record carries.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BoneFlags(pub u8);

impl BoneFlags {
    /// Bones carry a model-space position and rotation.
    pub const GLOBAL_MATRIX: Self = Self(1 << 0);
    /// Bones carry a parent-space position and rotation.
    pub const LOCAL_MATRIX: Self = Self(1 << 1);
    /// Bones carry a scale.
    pub const SCALES: Self = Self(1 << 2);
    /// Every bit with a meaning; the others are reserved.
    pub const KNOWN: Self = Self(0b111);

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The flags with `other`'s bits set as well.
    #[must_use]
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The size in bytes of one bone record under these flags: `u8 flags`, `i32 parent`,
    /// then 28 bytes per matrix and 12 for the scale.
    pub const fn record_size(self) -> u64 {
        5 + if self.contains(Self::GLOBAL_MATRIX) { 28 } else { 0 }
            + if self.contains(Self::LOCAL_MATRIX) { 28 } else { 0 }
            + if self.contains(Self::SCALES) { 12 } else { 0 }
    }
}

/// `meshDataPresenceFlags`: which per-vertex arrays every mesh carries.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MeshFlags(pub u8);

impl MeshFlags {
    /// UV coordinates (`layerCount` per vertex).
    pub const UV_SET: Self = Self(1 << 0);
    /// Vertex normals.
    pub const NORMALS: Self = Self(1 << 1);
    /// RGBA vertex colours.
    pub const COLOR: Self = Self(1 << 2);
    /// Skin weights (`maxInfluence` per vertex).
    pub const WEIGHTS: Self = Self(1 << 3);
    /// Every bit with a meaning; the others are reserved.
    pub const KNOWN: Self = Self(0b1111);

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The flags with `other`'s bits set as well.
    #[must_use]
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}
