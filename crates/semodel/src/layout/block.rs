//! A data block that a header flag announces and a header count sizes.

use std::io::{Read, Seek, Write};

use animbin_core::ErrorKind;
use animbin_core::io::{BoundedArgs, bounded_vec};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::{Deserialize, Serialize};

/// One of the header's data blocks (bones, meshes, materials): its presence flag, its count
/// and its items, stored once.
///
/// With the flag set, the header's count is the number of items (real writers set the flag
/// on empty blocks too, and that is kept). With the flag clear no bytes follow, and the
/// header's count should be 0; a file that says otherwise still reads, keeps its count so a
/// rewrite is byte-identical, and [`crate::validate()`] reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Block<T> {
    /// The flag is set and these are the block's items.
    Present(Vec<T>),
    /// The flag is clear: no bytes follow. `count` is the header's count (0 when valid).
    Absent {
        /// The header's count for this block.
        count: u32,
    },
}

impl<T> Default for Block<T> {
    fn default() -> Self {
        Self::Absent { count: 0 }
    }
}

impl<T> From<Vec<T>> for Block<T> {
    fn from(items: Vec<T>) -> Self {
        Self::Present(items)
    }
}

impl<T> Block<T> {
    /// The items (none when the block is absent).
    pub fn items(&self) -> &[T] {
        match self {
            Self::Present(items) => items,
            Self::Absent { .. } => &[],
        }
    }

    /// The items, mutably (none when the block is absent).
    pub fn items_mut(&mut self) -> &mut [T] {
        match self {
            Self::Present(items) => items,
            Self::Absent { .. } => &mut [],
        }
    }

    /// Whether the header flag is set.
    pub fn is_present(&self) -> bool {
        matches!(self, Self::Present(_))
    }

    /// The count the header holds: the number of items, or the kept count of an absent block.
    pub fn header_count(&self) -> u64 {
        match self {
            Self::Present(items) => items.len() as u64,
            Self::Absent { count } => u64::from(*count),
        }
    }

    /// The header count as the u32 the header stores, or an error when it does not fit.
    pub(crate) fn count_field(&self, what: &str) -> Result<u32, ErrorKind> {
        u32::try_from(self.header_count())
            .map_err(|_| ErrorKind::Unencodable(format!("{} {what}s do not fit a u32 count", self.header_count())))
    }
}

/// Arguments of [`read_block`]: the flag, the header's count, the smallest encoded size of an
/// item (for the bound check), a name for messages, and each item's own arguments.
#[derive(Debug, Clone)]
pub(crate) struct BlockArgs<A> {
    pub present: bool,
    pub count: u32,
    pub min_size: u64,
    pub what: &'static str,
    pub inner: A,
}

/// Reads a block: nothing when the flag is clear, else `count` items after checking that
/// the bytes left can hold them.
pub(crate) fn read_block<T, R, A>(reader: &mut R, endian: Endian, args: BlockArgs<A>) -> BinResult<Block<T>>
where
    R: Read + Seek,
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    if !args.present {
        return Ok(Block::Absent { count: args.count });
    }
    let items = bounded_vec(
        reader,
        endian,
        BoundedArgs {
            count: u64::from(args.count),
            min_size: args.min_size,
            what: args.what,
            inner: args.inner,
        },
    )?;
    Ok(Block::Present(items))
}

/// Writes a block's items (nothing for an absent block).
pub(crate) fn write_block<T, W, A>(block: &Block<T>, writer: &mut W, endian: Endian, inner: A) -> BinResult<()>
where
    W: Write + Seek,
    A: Clone,
    T: for<'a> BinWrite<Args<'a> = A>,
{
    for item in block.items() {
        item.write_options(writer, endian, inner.clone())?;
    }
    Ok(())
}
