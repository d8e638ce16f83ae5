//! # animbin-dmf: the Dash Model Format 1.5
//!
//! DMF is Kion's model format made only of fixed-size records, meant to be easy to read in a
//! hex editor and easy to parse: a 16-byte header (`'DASH'`, version 1.5), a table of six
//! attribute entries `{label, flags, offset, count}` (textures, materials, vertices, faces,
//! bones, animations), and the record lists they point at. Textures embed PNG bytes, faces
//! carry per-corner colours, normals and UVs, bones carry a local matrix, and each animation
//! points at a list of tracks: one key of one bone, with prs flags telling which of position,
//! rotation and scale it sets. The spec also defines a JSON form (`{"format": "DASH", ...}`).
//!
//! ## Conventions
//! - Little-endian throughout; every record is fixed-size ([`Record`]), so a file is read in
//!   place with [`View`] and copied into the owned [`Dmf`] one section at a time.
//! - Units as stored: positions in model units, bone matrices are 4x4 **column-major** local
//!   transforms (as OpenGL stores them), quaternions are **x, y, z, w**, animation times and
//!   durations are in **seconds** with an `fps` beside them. No axis convention is imposed.
//! - Names are `char[0x20]`, UTF-8, NUL-padded, at most 31 bytes, so a NUL always ends them.
//! - ids are "for show": positions are what references use; the writer requires
//!   id = position ([`Dmf::renumber`] sets them).
//! - A track's `prs_flags` is [`PrsFlags`] (bit 0 position, bit 1 rotation, bit 2 scale),
//!   read with [`Track::flags`]; undefined bits are kept, reported and refused by the writer.
//!
//! ## What the spec leaves open, and what this crate does
//! The DMF 1.5 specification fixes the records, the enums' values and JSON names, and the JSON
//! form. It also lets a writer place the sections anywhere: readers here accept any placement
//! that stays inside the file and does not overlap, and the writer produces one canonical
//! layout ([`write()`]). The JSON form is written with the spellings `vertices` and
//! `vertex_color`; the misspellings `verterices` and `verex_color` that the format's
//! documentation once used are read too. A transform whose prs flag is clear is kept as read
//! and written as zeros from JSON. No public DMF files exist: every fixture here is synthetic.
//!
//! ## Reading, checking, writing
//! - [`View::parse`] checks the header, the table, that every section, image and track list
//!   lies inside the file without overlapping another, and every enum, then borrows
//!   `&[Record]` slices; [`View::to_dmf`] copies them into the owned [`Dmf`].
//! - [`read`] takes either form of a file: the binary form when the bytes start with `DASH`
//!   (through [`View::parse`]), the JSON form when they start with `{` (through
//!   [`json::read`]). To accept only one form, call [`View::parse`] or [`json::read`].
//! - [`validate()`] lists what breaks the spec but still reads (ids, ranges, parents,
//!   booleans, prs flags, names, PNG bytes), each a [`Problem`] placed at its record.
//! - [`write()`] / [`to_bytes`] write the binary form and refuse what the spec forbids;
//!   [`json`] reads and writes the JSON form; [`Dmf::to_scene`] and [`Dmf::from_scene`]
//!   convert to and from the neutral [`Scene`] of `animbin-core`.
//! - [`Dmf`] implements [`FileFormat`], the contract every animbin format crate implements
//!   the same way, in two [`Form`]s (binary and JSON); its [`Summary`] (the counts `animbin
//!   info` shows) comes from the model ([`FileFormat::summary`]) or through the view
//!   ([`View::summary`], what [`FileFormat::summary_of`] uses), the same for every file.
//!
//! ```
//! use animbin_dmf::{Animation, Bone, Dmf, Name, Quat, Track, Vec3, View};
//!
//! let identity = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
//! let mut model = Dmf::default();
//! model.bones.push(Bone::new(Name::new("root")?, 0, -1, identity));
//! model.animations.push(Animation {
//!     id: 0,
//!     name: Name::new("idle")?,
//!     fps: 30,
//!     duration: 1.0,
//!     tracks: vec![Track::new(0, 0.5, Some(Vec3::new(0.0, 1.0, 0.0)), Some(Quat::new(0.0, 0.0, 0.0, 1.0)), None)],
//! });
//! let bytes = animbin_dmf::to_bytes(&model)?;
//!
//! // Zero-copy: the view borrows the records in place.
//! let view = View::parse(&bytes)?;
//! assert_eq!(view.bones()[0].name.as_str()?, "root");
//! assert_eq!(view.tracks(0).unwrap()[0].position(), Some(Vec3::new(0.0, 1.0, 0.0)));
//!
//! // The owned model, the JSON form, and back to the same bytes.
//! assert_eq!(animbin_dmf::read(&bytes)?, model);
//! let json = animbin_dmf::json::to_vec(&model)?;
//! assert_eq!(animbin_dmf::to_bytes(&animbin_dmf::read(&json)?)?, bytes);
//! assert!(animbin_dmf::validate(&model).is_empty());
//!
//! // The neutral scene, and what the trip lost (nothing here).
//! let mut report = animbin_dmf::ConversionReport::default();
//! let scene = model.to_scene(&animbin_dmf::SceneOptions::default(), &mut report)?;
//! assert_eq!(scene.animations[0].bones[0].bone, "root");
//! assert!(report.is_lossless());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod format;
/// The JSON form: a public module because it is a second format beside the binary one, with
/// its own `read`, `write` and `to_vec`, and callers choose it by name (`json::read`).
pub mod json;
mod layout;
mod model;
mod scene;
mod summary;
mod validate;
mod view;
mod write;

pub use animbin_core::math::{Mat4, Quat, Rgba, Rgba8, Vec2, Vec3};
pub use animbin_core::scene::Scene;
pub use animbin_core::{
    ConversionReport, Diagnostic, Error, ErrorKind, FileFormat, Location, Problem, Result, SceneOptions, Severity,
    UNIT_QUATERNION_TOLERANCE,
};
pub use format::Form;
pub use layout::{
    ATTRIBUTE_COUNT, ATTRIBUTE_TABLE_OFFSET, AnimationRecord, Attribute, BlendEquation, BlendFactor, Bone, Bool16,
    Face, FileHeader, MAGIC_WORD, MAJOR_VERSION, MINOR_VERSION, MaterialRecord, Name, PrsFlags, Record, Section,
    ShaderType, Side, TextureRecord, Track, Vertex, Wrap,
};
pub use model::{Animation, Dmf, Material, Texture};
pub use scene::DEFAULT_FRAMERATE;
pub use summary::Summary;
pub use validate::{PNG_SIGNATURE, png_size, validate};
pub use view::View;
pub use write::{to_bytes, write};

/// The README's example, compiled and run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// The format's short name in errors and in `animbin`.
pub const FORMAT: &str = "dmf";

/// The bytes every binary DMF file starts with: `DASH`, the header's `magic`
/// ([`MAGIC_WORD`]) in file order.
pub const MAGIC: &[u8] = &MAGIC_WORD.to_le_bytes();

/// Whether `bytes` start with the DMF magic `DASH` ([`MAGIC`]).
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a DMF file, in either form, into the owned model.
///
/// The binary form when `bytes` start with `DASH` ([`View::parse`], then one copy per
/// section); else the JSON form when the first character that is not whitespace is `{`
/// ([`json::read`]); else an error at offset 0 that shows the first bytes.
pub fn read(bytes: &[u8]) -> Result<Dmf> {
    if has_magic(bytes) {
        View::parse(bytes)?.to_dmf()
    } else if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        json::read(bytes)
    } else {
        Err(Error::new(
            FORMAT,
            0,
            ErrorKind::invalid(
                "the magic \"DASH\" or a DMF JSON object",
                layout::show_bytes(&bytes[..bytes.len().min(4)]),
            ),
        ))
    }
}
