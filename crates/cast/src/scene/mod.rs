//! Conversion between a [`CastFile`](crate::CastFile) and the neutral scene model: Cast ->
//! Scene in `import` ([`CastFile::to_scene`](crate::CastFile::to_scene)), Scene -> Cast in
//! `export` ([`CastFile::from_scene`](crate::CastFile::from_scene)); what each node becomes is
//! documented on those two.

use animbin_core::{Error, ErrorKind};

use crate::FORMAT;

mod blend;
mod export;
mod hair;
mod hashes;
mod import;
mod properties;
mod rig;

pub use hashes::{FIRST_HASH, NodeHashes};

/// The `format` of the scene property tracks that carry whole Cast curves.
pub const PROPERTY_FORMAT: &str = FORMAT;

fn refuse(message: String) -> Error {
    refuse_at(0, message)
}

/// [`refuse`] at the byte `offset` of the file, where validate names the same problem.
fn refuse_at(offset: u64, message: String) -> Error {
    Error::new(
        FORMAT,
        offset,
        ErrorKind::invalid("indices that point inside the file", message),
    )
}
