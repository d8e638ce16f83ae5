//! The on-disk layout of an SEModel v1 file as binrw types, field by field.
//!
//! Both layouts share the magic, the version, the bone block ([`bone`]), the block and flags
//! bookkeeping ([`block`], [`flags`]), the fixed-size records ([`records`]) and the SEBlend
//! trailer ([`blend`]); [`deployed`] and [`draft`] are each layout's header and meshes.

pub(crate) mod blend;
pub(crate) mod block;
pub(crate) mod bone;
pub(crate) mod deployed;
pub(crate) mod draft;
pub(crate) mod flags;
pub(crate) mod records;

use animbin_core::ErrorKind;
use serde::{Deserialize, Serialize};

use flags::DataFlags;

/// The seven magic bytes that open every SEModel file, `"SEModel"`.
pub const MAGIC: &[u8] = b"SEModel";

/// The only version there is.
pub const VERSION: u16 = 1;

/// Which of the two layouts a file uses; `headerSize` records it on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// What every existing tool reads and writes (`headerSize` 0x14); the default.
    #[default]
    Deployed,
    /// The draft of the original specification (`headerSize` 0x1E).
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

    /// The layout's name in a word: `"deployed"` or `"draft"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Deployed => "deployed",
            Self::Draft => "draft",
        }
    }
}

/// `dataFlags` from the block bits and the other bits; the other bits may not overlap the
/// blocks' own.
pub(crate) fn compose_data_flags(
    other: DataFlags,
    blocks: DataFlags,
    present: &[(DataFlags, bool)],
) -> Result<DataFlags, ErrorKind> {
    if other.intersects(blocks) {
        return Err(ErrorKind::Unencodable(format!(
            "other_data_flags {:#04x} overlaps the block flags {:#04x}, which the blocks set",
            other.bits(),
            blocks.bits()
        )));
    }
    Ok(present
        .iter()
        .filter(|(_, p)| *p)
        .fold(other, |flags, (bit, _)| flags | *bit))
}

/// A length as a u32 count field, or an error naming it.
pub(crate) fn count_u32(len: usize, what: &str) -> Result<u32, ErrorKind> {
    u32::try_from(len).map_err(|_| ErrorKind::Unencodable(format!("{len} {what} do not fit a u32 count")))
}
