//! # animbin-core
//!
//! The pieces every animbin format crate shares, so that each is written once:
//!
//! - [`math`]: `Vec2`/`Vec3`/`Vec4`/`Quat`/`Mat4`/`Rgba`, generic over their scalar (`f32`,
//!   `f64`, [`half::f16`], or `zerocopy::byteorder` types for zero-copy views), readable and
//!   writable with binrw in either byte order;
//! - [`fixed`]: the Saturn's 16.16 `FIXED` and the i16 / 16384 rotation component;
//! - [`float`]: every `f32` / `f64` in JSON, NaN, infinities and NaN payloads included
//!   (the dumps' form);
//! - [`index`]: u8 / u16 / u32 indices whose width depends on a count (the SE formats);
//! - [`strings`]: NUL-terminated and .NET (7-bit varint length) strings;
//! - [`io`]: a slice reader and a view cursor, bounds checks that refuse impossible counts
//!   *before* allocating, and bulk reads of plain data with one copy;
//! - [`error`]: one [`Error`] that names the format, the byte offset and what was expected;
//! - [`scene`]: the neutral model that conversions between formats go through, its keys held
//!   at the precision the file gave them ([`scene::Keys`]);
//! - [`check`]: what a scene a caller built must be before a file is written from it;
//! - [`hierarchy`]: parent lists in linear time without recursion: parents-first order,
//!   cycles, what a bone takes from its nearest ancestor;
//! - [`pose`]: how an animation's kind (absolute, relative, delta, additive) plays over a
//!   bone's bind pose, and back;
//! - [`seblend`]: the SEBlend trailer that both SE formats may carry;
//! - [`validate`]: the [`Problem`]s a format's `validate` finds, with their severity and place;
//! - [`format`](mod@format): [`FileFormat`], the contract every format crate implements the same way,
//!   and files on disk: inputs read whole into memory (huge pages for large ones,
//!   [`format::FileBytes`]), outputs saved whole or not at all;
//! - [`images`]: texture files found for a scene's materials, for writers that embed them;
//!
//! ```
//! use animbin_core::{io::read_from_slice, math::Vec3, Endian};
//!
//! let bytes = [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40];
//! let v: Vec3<f32> = read_from_slice("example", &bytes, Endian::Little)?;
//! assert_eq!(v, Vec3::new(1.0, 2.0, 3.0));
//!
//! // A count that the remaining bytes cannot hold is an error, not an allocation.
//! let err = read_from_slice::<Vec3<f32>>("example", &bytes[..5], Endian::Little).unwrap_err();
//! assert_eq!(err.offset, 0);
//! # Ok::<(), animbin_core::Error>(())
//! ```

pub mod check;
mod enums;
pub mod error;
pub mod fixed;
pub mod float;
pub mod format;
pub mod hierarchy;
pub mod images;
pub mod index;
pub mod io;
pub mod math;
pub mod parallel;
pub mod pose;
pub mod scene;
pub mod seblend;
pub mod strings;
pub mod validate;

pub use binrw::Endian;
pub use check::SceneError;
pub use error::{Error, ErrorKind, Result};
pub use fixed::{Fixed16, Rot14};
pub use format::{FileError, FileFormat, Holds, Keeps};
pub use index::{Index, IndexField, IndexWidth};
pub use math::{Mat2, Mat3, Mat4, Native, Quat, Rgba, Rgba8, Transform, Vec2, Vec3, Vec4};
pub use scene::{ConversionReport, SceneOptions};
pub use validate::{Diagnostic, Location, Problem, Severity, UNIT_QUATERNION_TOLERANCE, non_unit_length};

/// Gives `bitflags` types over a `u8` (the flag bytes of the SE formats) `reserved_bits()`:
/// the set bits that have no name, which readers keep and `validate` reports.
#[macro_export]
macro_rules! reserved_bits {
    ($($name:ident),* $(,)?) => {$(
        impl $name {
            /// The reserved bits that are set: every bit without a name.
            pub const fn reserved_bits(self) -> u8 {
                self.bits() & !Self::all().bits()
            }
        }
    )*};
}

/// Re-exported so format crates and users name one version of each.
pub use {binrw, half, zerocopy};
