//! # animbin-animx
//!
//! Resonite's (FrooxEngine's) animation format **AnimX** and its JSON twin **AnimJ**.
//!
//! An AnimX file is a header, then tracks, each animating one property of one node with
//! keyframes of one of 40 value types (bool to string, vectors, quaternions, matrices,
//! colours). Everything after the header may be stored plain, LZ4-compressed (lz4net's
//! `LZ4Stream` chunks) or LZMA-compressed (Elements' LZMAHelper container).
//!
//! ```text
//! 05 "AnimX"        magic: a .NET string
//! i32 version       0 or 1
//! varint tracks     7-bit encoded int
//! f32 duration      seconds
//! string name       .NET string (varint length, UTF-8)
//! u8 encoding       0 plain, 1 LZ4, 2 LZMA; the rest of the file is stored this way:
//! track * tracks    header, node, property, varint count, body (see [`Track`])
//! ```
//!
//! ## Conventions
//! - Little-endian throughout; strings are .NET `BinaryWriter` strings (a 7-bit varint byte
//!   length, at most 5 bytes, then UTF-8).
//! - Times are `f32` seconds. Raw tracks store one `interval` and values at 0, interval, 2 × interval...
//! - Quaternions (`floatQ`, `doubleQ`) are x, y, z, w. Matrices are stored row by row
//!   ([`animbin_core::Mat4::rows`]). `color` is four `f32` r, g, b, a; `color32` four bytes.
//! - Axes and units are Resonite's (left-handed, Y up, metres); nothing here converts them.
//!
//! ## Where this differs from the published description
//! The format is described on the [Resonite wiki](https://wiki.resonite.com/AnimX) ("the
//! wiki" in these docs); real files and the tools that write them differ from it here:
//! - The version is an `i32`, not a byte (every known writer; redx's test shows `01 00 00 00`).
//! - `doubleQ` is 32 bytes (four doubles), not 40.
//! - The value type ids are the wiki's table (bool 0 ... string 39). resonite-core *reads*
//!   ids in another order (byte 0, ushort 1, ulong 2 ...) while its writer uses the wiki's;
//!   no real file settles it, so the wiki wins.
//! - Curve keyframes are written (value, time) and tangent pairs (right, left) as the wiki
//!   says. A third-party writer uses (time, value) and (left, right): when reading, that order
//!   is taken if the wiki's gives times that are not non-decreasing within [0, duration] and
//!   the other does ([`Keyframes::read_curve`]).
//! - Bezier tracks (type 3) have no layout anywhere and are refused with an error, as are
//!   unknown track, value and interpolation ids.
//! - A `bool` byte reads as true when non-zero (like .NET's `ReadBoolean`); the unused bits
//!   of `bool2`/`bool3`/`bool4` bytes are ignored. Both are written canonically (0/1, unused bits 0).
//! - The LZMA container's data is written with an end marker (liblzma's LZMA1 encoder always
//!   adds one); Elements omits it. Readers, Elements' and ours, stop at decompressedSize.
//! - Bytes after the last track are an error (no writer produces them).
//!
//! ## Layers
//! - [`AnimXFile`]: the [`Header`] and the stored bytes after it, compressed or not, so an
//!   unchanged file is written back byte for byte without recompressing.
//! - [`Animation`]: the owned model ([`Track`]s with typed value columns, [`Values`]);
//!   [`AnimXFile::decode`] and [`Animation::encode`] are the explicit steps between them.
//!   Decompression is bounded by [`ReadOptions::max_decompressed_size`] (256 MiB by default).
//! - [`AnimXDocument`]: an animation and the file it came from, read from AnimX or AnimJ,
//!   written back byte for byte when unchanged; its serde form is a lossless JSON dump. It
//!   implements [`FileFormat`], the contract every animbin format crate implements the
//!   same way, in two [`Form`]s (AnimX and AnimJ, the one it was read in written back).
//! - [`Summary`]: the header fields and counts `animbin info` shows, from the model
//!   ([`FileFormat::summary`]) or through the view ([`View::summary`], what
//!   [`FileFormat::summary_of`] uses), the same for every file.
//! - [`View`]: a zero-copy view of a plain (or already decompressed) file: tracks with
//!   borrowed names, and borrowed little-endian value slices for Raw tracks of fixed-size types.
//! - [`animj`]: AnimJ, the JSON form (serde_json), which round-trips with AnimX losslessly.
//! - [`Animation::to_scene`] and [`Animation::from_scene`]: conversion to and from the
//!   neutral [`Scene`]. Tracks named `position`, `rotation` and `scale` become bone
//!   channels, all other tracks property tracks; times in seconds become frames at
//!   [`SceneOptions::framerate`], by default [`DEFAULT_FRAMERATE`] (60 per second).
//! - [`validate`](validate()): the invariants a file that reads can still break, as
//!   [`Problem`]s placed at their track.
//!
//! ## Example
//! ```
//! use animbin_animx::{
//!     Animation, ConversionReport, CurveTrack, Encoding, Interpolation, Keyframes, SceneOptions, Track, TrackData,
//!     Values, Vec3,
//! };
//!
//! let anim = Animation {
//!     name: "wave".into(),
//!     global_duration: 1.0,
//!     encoding: Encoding::Lz4,
//!     tracks: vec![Track {
//!         node: "Hand".into(),
//!         property: "position".into(),
//!         data: TrackData::Curve(CurveTrack::new(
//!             Keyframes {
//!                 times: vec![0.0, 1.0],
//!                 values: Values::Float3(vec![Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)]),
//!             },
//!             vec![Interpolation::Linear; 2],
//!             None,
//!         )),
//!     }],
//!     ..Animation::default()
//! };
//! let bytes = animbin_animx::to_bytes(&anim)?;
//! assert_eq!(&bytes[..6], b"\x05AnimX");
//! assert_eq!(animbin_animx::read(&bytes)?, anim);
//!
//! // AnimJ, the JSON form, holds the same animation.
//! let json = animbin_animx::animj::to_string(&anim)?;
//! assert_eq!(animbin_animx::animj::from_str(&json)?, anim);
//!
//! // A scene at 60 frames per second: the position track is the bone "Hand".
//! let mut report = ConversionReport::default();
//! let scene = anim.to_scene(&SceneOptions::default(), &mut report)?;
//! assert_eq!(scene.animations[0].bones[0].translation.frame(1), Some(60.0));
//! assert!(report.is_lossless());
//! # Ok::<(), animbin_animx::Error>(())
//! ```

// AnimJ is the format's JSON twin, with its own format name and entry points
// (`animj::from_str`, `animj::to_string`...): a public namespace so that they do not clash
// with the AnimX ones at the root.
pub mod animj;
mod document;
mod format;
mod json;
mod layout;
mod lz4;
mod lzma;
mod model;
mod scene;
mod summary;
mod validate;
mod value;
mod view;
mod write;

pub use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Rgba8, Vec2, Vec3, Vec4};
pub use animbin_core::scene::Scene;
pub use animbin_core::{
    ConversionReport, Diagnostic, Error, ErrorKind, FileFormat, Location, Problem, Result, SceneOptions, Severity,
    UNIT_QUATERNION_TOLERANCE,
};
pub use document::AnimXDocument;
pub use format::Form;
pub use layout::{
    CurveFlags, CurveTrack, DiscreteTrack, Encoding, Header, Interpolation, Interpolations, KeyOrder, Keyframes,
    RawTrack, Tangents, Track, TrackData, TrackHeader, TrackType,
};
pub use model::{AnimXFile, Animation, DEFAULT_DECOMPRESSION_LIMIT, ReadOptions, tracks_of};
pub use scene::DEFAULT_FRAMERATE;
pub use summary::Summary;
pub use validate::validate;
pub use value::{FloatText, ValueType, Values};
pub use view::{RawValues, TrackView, View};
pub use write::{to_bytes, write};

/// The format's short name in errors.
pub const FORMAT: &str = "animx";

/// The format name of errors inside decompressed track data (offsets count decompressed bytes).
pub const DECOMPRESSED: &str = "animx (decompressed)";

/// The magic: the .NET string "AnimX" (length byte 5, then the letters).
pub const MAGIC: &[u8] = b"\x05AnimX";

/// Reads and decodes a whole file with the default [`ReadOptions`].
pub fn read(bytes: &[u8]) -> Result<Animation> {
    read_with(bytes, &ReadOptions::default())
}

/// Reads and decodes a whole file, decompressing within `options`.
pub fn read_with(bytes: &[u8], options: &ReadOptions) -> Result<Animation> {
    model::read_animation(bytes, options)
}
