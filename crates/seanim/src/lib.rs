//! # animbin-seanim
//!
//! Reads, writes and views **SEAnim v1** files, the skeletal animation format of the SE
//! formats family (SETools, Greyhound, the Maya and Blender plug-ins): per-bone location,
//! rotation and scale keys at integer frames, bone anim-type modifiers, notes (notetracks),
//! an opaque custom block, and, after the last block, Greyhound's SEBlend trailer.
//!
//! ## Conventions
//! - Little-endian throughout; strings are NUL-terminated UTF-8.
//! - Time is in **integer frames** (`frame_t`) at [`SeAnim::framerate`] frames per second;
//!   `frameCount` is the largest key or note frame plus 1.
//! - Locations are in centimetres (as the specification says); rotations are quaternions
//!   stored **x, y, z, w**; scale 1.0 is the bind size. No axes are defined: values are as the
//!   exporter had them.
//! - Key values are `f32`, or `f64` under `SEANIM_PRECISION_HIGH`. The owned model holds each
//!   bone channel at the file's precision ([`Keys::Single`] or [`Keys::Double`]), so reading
//!   a run is one bounds check and one copy and the model is no larger than the file.
//!   [`Keys::iter`] widens to `f64` exactly (NaN payloads included, see [`widen`]). The writer
//!   takes either precision: `f32` values widen into a high-precision file, `f64` values
//!   narrow to the nearest `f32` in a single-precision one, where a finite value beyond
//!   `f32`'s range is refused.
//!
//! ## Where this differs from the specification text
//! The [SEAnim specification](https://github.com/SE2Dev/SEAnim-Docs/blob/master/spec.md) is
//! short of what the tools that write SEAnim files do; this crate reads what they write:
//! - `headerSize` **counts its own two bytes**: 0x1C, the header spanning offsets 8..36. A
//!   larger one reads, its extra bytes kept in [`SeAnim::header_extra`]; a smaller one is an
//!   error.
//! - `frame_t` follows the rule every tool has used since 2017 (`frameCount <= 0xFF` u8,
//!   `<= 0xFFFF` u16, else u32), not the first text's `frameCount - 1`. The two differ only at
//!   `frameCount` 256 and 65536; a file there that does not parse to its end under the
//!   current rule is read with the old one ([`FrameWidthRule::Legacy`], recorded in
//!   [`SeAnim::frame_width_rule`] and reported by [`validate()`] as a warning). The writer
//!   always uses the current rule: such a file is **rewritten with the current rule**, so a
//!   rewrite is not byte-identical, on purpose, and every other tool reads it.
//! - Per-bone key counts are `frame_t` too; the framerate stays `f32` under high precision.
//! - Bytes after the last block are legal: an SEBlend trailer that parses exactly to the end
//!   is read as [`Trailer::SeBlend`], anything else is kept as [`Trailer::Unknown`].
//!
//! ## What is known of SEAnim's SEBlend keys, and what is a guess
//! - Known (`../shared/FORMATS.md`; Greyhound's public SEModel export, the only public writer
//!   of any SEBlend trailer): the header both SE formats share, unflagged after the last
//!   block: `u64` magic `"SEBlend\n"`, `u64` shape count, the shape names NUL-terminated
//!   ([`animbin_core::seblend::SeBlendHeader`]). In SEModel the body is per-vertex offsets
//!   (`u32 n`, then `n` times `u32 shapeIndex, f32 delta[3]`), which animbin maps to morph
//!   targets.
//! - A guess: the SEAnim body, for each shape `u32 k` then `k` times `(u32 frame, f32
//!   value[3])` ([`BlendShape`], [`BlendKey`]). No public writer emits it and no file from a
//!   game tool has been seen with it, so neither the key layout nor what the three floats
//!   mean (a weight would take one) is confirmed. A trailer that does not parse exactly to
//!   the end of the file under this layout is kept as unknown bytes, never an error.
//! - So the scene does not read these keys as morph target weights: each shape travels as an
//!   opaque property track ([`SEBLEND_PROPERTY`], its on-disk keys as data) that an SEAnim
//!   written from the scene gets back byte for byte, and a scene's weight tracks written as
//!   SEAnim are reported lost rather than written in a layout no reader is known to share.
//! - Every file that reads is written back byte for byte (but for the old frame rule, above):
//!   reserved bits and bytes, a
//!   `frameCount` that is not the derived one ([`SeAnim::fixed_frame_count`]) and header
//!   counts of absent blocks ([`StrayCounts`]) are kept. Counts, widths and `headerSize` are
//!   not stored: the writer derives them, keeps the format's consistency rules (no bones
//!   without a LOC/ROT/SCALE flag, notes iff NOTE, custom block iff CUSTOM, keys only in
//!   flagged channels) and refuses what it cannot encode (256 modifiers, a frame past
//!   `frame_t`, a modifier past `bone_t`, a key count past `frame_t`, a name with a NUL...),
//!   naming the field or item.
//!
//! ## The pieces
//! - [`read`] / [`write()`] / [`to_bytes`]: the owned [`SeAnim`], declared as binrw types in
//!   file order, its key channels as [`Keys`] at the file's precision.
//! - [`View::parse`]: a zero-copy view that checks the file once, then walks bones and
//!   borrowed key runs ([`KeyRun`], slices of little-endian [`KeyRecord`]s) without allocating.
//! - [`Summary`]: the counts and header fields `animbin info` shows, from the model or
//!   straight from a [`View`] ([`View::summary`]), the same either way.
//! - [`validate()`]: the invariants a file can break and still read, as core [`Problem`]s,
//!   each with its severity and place.
//! - [`SeAnim::to_scene`] / [`SeAnim::from_scene`]: the neutral [`Scene`] model that the
//!   animbin format crates share, with a [`ConversionReport`] of what did not carry over.
//! - [`SeAnim`] implements [`FileFormat`], the contract of every animbin format crate
//!   (name `"seanim"`, one form `()`, [`MAGIC`] `"SEAnim"`): reading, writing, the summary
//!   through the view, validation, the dump and the scene, the same way for every format.
//!
//! ## Example
//! ```
//! use animbin_seanim::{Bone, ConversionReport, Key, Keys, PresenceFlags, Quat, SceneOptions, SeAnim, Vec3, View};
//!
//! let mut anim = SeAnim {
//!     framerate: 30.0,
//!     data_presence_flags: PresenceFlags::LOC | PresenceFlags::ROT,
//!     ..SeAnim::default()
//! };
//! let mut root = Bone::new("tag_origin");
//! // A single-precision file (no PRECISION_HIGH flag): keys of f32 values.
//! root.location = Keys::Single(vec![Key::new(0, Vec3::new(0.0, 0.0, 0.0)), Key::new(10, Vec3::new(0.0, 5.0, 0.0))]);
//! root.rotation = Keys::Single(vec![Key::new(0, Quat::new(0.0, 0.0, 0.0, 1.0))]);
//! anim.bones.push(root);
//!
//! let bytes = animbin_seanim::to_bytes(&anim)?;
//! assert_eq!(animbin_seanim::read(&bytes)?, anim);
//!
//! // The view borrows the key runs in place; frameCount was derived from the last key.
//! let view = View::parse(&bytes)?;
//! assert_eq!(view.frame_count(), 11);
//! let bone = view.bones().next().expect("one bone");
//! assert_eq!(bone.name, "tag_origin");
//! assert_eq!(bone.location.get(1), Some(Key::new(10, Vec3::new(0.0, 5.0, 0.0))));
//! assert!(animbin_seanim::validate(&anim).is_empty());
//!
//! // The neutral scene model: one animation with a track per bone.
//! let mut report = ConversionReport::default();
//! let scene = anim.to_scene(&SceneOptions::default(), &mut report)?;
//! assert_eq!(scene.animations[0].bones[0].bone, "tag_origin");
//! assert!(report.is_lossless());
//! assert_eq!(SeAnim::from_scene(&scene, &SceneOptions::default(), &mut report)?, anim);
//! # Ok::<(), animbin_seanim::Error>(())
//! ```

mod dump;
mod format;
mod keys;
mod layout;
mod scene;
mod summary;
mod validate;
mod view;
mod write;

use animbin_core::io::SliceReader;
use binrw::{BinRead, Endian};

pub use animbin_core::seblend::Trailer;
pub use animbin_core::{
    ConversionReport, Error, ErrorKind, FileFormat, IndexWidth, Location, Problem, Quat, Result, SceneOptions,
    Severity, UNIT_QUATERNION_TOLERANCE, Vec3, scene::Scene,
};

pub use keys::{
    FrameField, Key, KeyRecord, KeyRun, KeyRunIter, KeyValue, Keys, KeysIter, Precision, narrow, record_size, widen,
};
pub use layout::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, Channel, FrameWidthRule, HEADER_SIZE, MAGIC, Modifier, Note,
    PresenceFlags, PropertyFlags, SeAnim, SeBlend, StrayCounts,
};
pub use scene::SEBLEND_PROPERTY;
pub use summary::Summary;
pub use validate::validate;
pub use view::{BoneView, Bones, HeaderRecord, ModifierRecord, ModifierRun, Notes, View};
pub use write::{to_bytes, write};

/// The format's short name, as errors and the command line show it.
pub const FORMAT: &str = "seanim";

fn read_with_rule(bytes: &[u8], rule: FrameWidthRule) -> Result<SeAnim> {
    let mut reader = SliceReader::new(bytes);
    SeAnim::read_options(&mut reader, Endian::Little, (rule,)).map_err(|e| reader.error(FORMAT, e))
}

/// Reads a whole SEAnim file from memory.
///
/// Errors name the byte offset: a wrong magic or version, a `headerSize` under 0x1C, an
/// anim type or modifier override outside 0..3, a name without its NUL or not UTF-8, or a
/// count or key run that the bytes left cannot hold (refused before allocating).
///
/// The file is checked whole through its [`View`] first, and its bones' keys are then
/// decoded side by side on every core ([`View::to_anim`]). The layout reader
/// ([`read_with_layout`]), which accepts exactly the same files, runs only on a file the
/// view refuses, so that the error is its own.
pub fn read(bytes: &[u8]) -> Result<SeAnim> {
    match View::parse(bytes) {
        Ok(view) => Ok(view.to_anim()),
        Err(_) => read_with_layout(bytes),
    }
}

/// [`read`] through the binrw layout alone, one field after another: the same model, or the
/// same error. Tests and fuzzing hold the two to each other.
pub fn read_with_layout(bytes: &[u8]) -> Result<SeAnim> {
    let current = read_with_rule(bytes, FrameWidthRule::Current);
    let parsed_to_end = |r: &Result<SeAnim>| matches!(r, Ok(a) if !matches!(a.trailer, Trailer::Unknown(_)));
    if !parsed_to_end(&current) && frame_count_is_a_rule_boundary(bytes) {
        let legacy = read_with_rule(bytes, FrameWidthRule::Legacy);
        if parsed_to_end(&legacy) {
            return legacy;
        }
    }
    current
}

/// Whether the file's `frameCount` is one of the two values (256, 65536) at which the old
/// `frame_t` rule differs from the current one.
fn frame_count_is_a_rule_boundary(bytes: &[u8]) -> bool {
    let at = layout::offsets::FRAME_COUNT as usize;
    bytes
        .get(at..at + 4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .is_some_and(|b| matches!(u32::from_le_bytes(b), 256 | 65536))
}

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
