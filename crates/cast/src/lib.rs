//! # animbin-cast
//!
//! Reads, writes and views **Cast** files (`.cast`, github.com/dtzxporter/cast), the model
//! and animation format that the SE formats' authors moved to: a tree of typed nodes (root,
//! model, mesh, skeleton, bone, animation, curve, material, ...), each with named, typed
//! property arrays.
//!
//! ## The format in brief
//! - Little-endian, packed. A 16-byte header (`cast`, version 1, `rootCount`, reserved
//!   `flags`), then `rootCount` nodes.
//! - A node: a 24-byte header (`id`, `nodeSize`, `hash`, `propertyCount`, `childCount`),
//!   its properties, then its children, each a whole node. `nodeSize` counts the header, the
//!   properties and every descendant.
//! - A property: `type` (`b h i l f d s 2v 3v 4v`), `nameSize`, `arrayLength`, the UTF-8
//!   name (no NUL), then `arrayLength` packed elements (strings NUL-terminated).
//! - Nodes name each other by hash (a mesh's material, a blend shape's base mesh, a
//!   material's texture files); skin weights and bone parents are indices; curves name bones
//!   by string.
//!
//! ## Readings taken where the format's text is silent
//! - `nodeSize` must equal what the node's contents take, exactly: a size under 24, one that
//!   runs past its parent or the file, or one that leaves unread bytes (padding, counts that
//!   are too small) is a read error, as are bytes after the last root node and a version
//!   other than 1. Unknown property type codes are read errors (their size is unknowable);
//!   unknown node ids are legal and kept.
//! - A string property holds `arrayLength` NUL-terminated strings (every documented one
//!   holds exactly one; anything else is a `validate` problem, not a read error).
//! - Nesting deeper than [`MAX_DEPTH`] levels is refused; the walk never recurses.
//! - Index buffers may be `b`, `h` or `i` whatever their values; a rewrite keeps the width.
//!
//! Every file that reads is written back byte for byte: nodes, properties and their order,
//! duplicated property names, unknown ids, widths, float bits and the header's flags are
//! kept; sizes and counts are derived.
//!
//! ## The pieces
//! - [`read`] / [`write()`] / [`to_bytes`]: the owned [`CastFile`], a tree of [`Node`]s with
//!   their [`Property`] values; typed access per node type through [`Node::as_mesh`],
//!   [`Node::as_curve`] and their siblings ([`Mesh`], [`Curve`], ...).
//! - [`View::parse`]: the same checks, then every node and property in place; arrays are lent
//!   as little-endian slices ([`Values`]), so opening does not depend on their size.
//! - [`Summary`]: the counts and header fields `animbin info` shows, from the model or
//!   straight from the bytes ([`View::summary`]); both give the same summary.
//! - [`validate()`]: the format's rules that a file can break and still read, as [`Problem`]s
//!   (each an error at its node's path and property).
//! - [`CastFile::to_scene`] / [`CastFile::from_scene`]: the neutral [`Scene`] model the
//!   animbin format crates share, with a [`ConversionReport`] of what does not carry over.
//! - [`FileFormat`] for [`CastFile`]: the contract every animbin format crate implements the
//!   same way (name, extensions, [`MAGIC`], what the format [`Holds`], read, write, summary,
//!   validate, dump and scene mapping), which the `animbin` library's table of formats uses.
//!   Cast has one form (`()`); its dump is the model's serde form.
//!
//! ## Blend shapes
//! A BlendShape node (`n`, `b` its base Mesh, `vi` the vertices it moves, `vp` their final
//! positions, `ts` the maximum weight) is a morph target of its base mesh holding offsets
//! from the base (`vp - base`, in `f32`; written back as `base + offset`, which gives `vp`
//! again whenever the subtraction was exact), and a `bs` curve (`nn` the blend shape's name)
//! is a weight track driving every target of that name, as the format author's Blender
//! add-on applies it. Shapes whose base is no mesh of their model, whose `vi` and `vp`
//! differ in length or whose indices point past the base are skipped (reported); normal
//! offsets have no place in Cast (reported).
//!
//! ## SEAnim and SEModel through Cast
//! Converting through the scene model, an SEAnim keeps its frame rate (`fr`), looping
//! (`lo`), kind (each curve's `m`), every bone's keys (`rq`, `tx`/`ty`/`tz`, `sx`/`sy`/`sz`
//! curves at integer frames, the frame width chosen anew), its modifiers (a
//! CurveModeOverride of all three channels before the bone's curves, so bone order holds)
//! and its notes (one notification track per name; order kept within a frame). What does
//! not travel, and is reported: the `delta` kind (Cast has three modes; written as
//! `relative`), key values beyond `f32` (high precision files), a `frameCount` other than
//! the last key's plus one, cosmetic bone flags and bones with neither keys nor a modifier;
//! the custom block, the SEBlend trailer and reserved header bytes do not reach the scene.
//! An SEModel keeps its bones (names, parents, local and world poses, local scale), meshes
//! (positions, normals, every UV layer, colours, weights of any influence count,
//! triangles) and materials (names and the diffuse, normal and specular maps); a mesh whose
//! UV layers name different materials keeps the first (reported). Back from Cast, every
//! field above returns as it was: an SE file comes back as its own trip through the scene
//! gives it (the same bytes for the SEAnim files within these limits). The `animbin` library
//! also maps SE and Cast onto each other directly, keeping what the scene cannot hold in
//! extra properties, so that its SE -> Cast -> SE conversions give back the same bytes.
//!
//! ## Example
//! ```
//! use animbin_cast::{CastFile, Node, NodeKind, Property, Value, View, read, to_bytes, validate};
//!
//! let mut curve = Node::new(NodeKind::Curve, 3);
//! curve.push(Property::string("nn", "tag_origin"));
//! curve.push(Property::string("kp", "tx"));
//! curve.push(Property::new("kb", Value::Byte(vec![0, 10])));
//! curve.push(Property::new("kv", Value::Float(vec![0.0, 5.0])));
//! curve.push(Property::string("m", "absolute"));
//! let mut anim = Node::new(NodeKind::Animation, 2);
//! anim.push(Property::new("fr", Value::Float(vec![30.0])));
//! anim.children.push(curve);
//! let mut root = Node::new(NodeKind::Root, 1);
//! root.children.push(anim);
//! let file = CastFile { flags: 0, roots: vec![root] };
//!
//! let bytes = to_bytes(&file)?;
//! assert_eq!(read(&bytes)?, file);
//! assert!(validate(&file).is_empty());
//!
//! let curve = file.animations().next().and_then(|a| a.curves().next()).expect("a curve");
//! assert_eq!(curve.key_property(), Some("tx"));
//! assert_eq!(curve.key_frames().map(|k| k.to_vec()), Some(vec![0, 10]));
//!
//! let view = View::parse(&bytes)?;
//! assert_eq!(view.node_count(), 3);
//! # Ok::<(), animbin_cast::Error>(())
//! ```

mod format;
mod layout;
mod model;
mod nodes;
mod scene;
mod summary;
mod validate;
mod view;
mod write;

pub use animbin_core::math::{self, Quat, Vec2, Vec3, Vec4};
pub use animbin_core::{
    ConversionReport, Diagnostic, Error, ErrorKind, FileFormat, Holds, Location, Problem, Result, SceneOptions,
    Severity,
    scene::{AnimKind, Scene},
};

pub use layout::{
    FILE_HEADER_SIZE, FileHeader, MAGIC, MAX_DEPTH, NODE_HEADER_SIZE, NodeHeader, NodeId, NodeKind,
    PROPERTY_HEADER_SIZE, PropertyHeader, PropertyType, VERSION,
};
pub use model::{CastFile, Indices, Node, Property, Value};
pub use nodes::{
    Animation, BlendShape, Bone, Color, ColorLayer, Constraint, ConstraintOffset, Curve, CurveModeOverride, Element,
    File, Hair, IkHandle, Instance, MATERIAL_SLOTS, Material, Mesh, Metadata, Model, NotificationTrack, Root, Skeleton,
    is_material_slot,
};
pub use scene::{FIRST_HASH, NodeHashes, PROPERTY_FORMAT};
pub use summary::Summary;
pub use validate::validate;
pub use view::{Children, CurveView, IndexSlice, MeshView, NodeView, PropertyView, Strings, Values, View};
pub use write::{to_bytes, write};

/// The format's short name, as errors and the command line show it.
pub const FORMAT: &str = "cast";

/// Reads a whole Cast file from memory.
///
/// The file is walked once as [`View::parse`] does (see the crate docs for what is refused;
/// errors name the byte offset of the offending field), then every payload is copied once.
pub fn read(bytes: &[u8]) -> Result<CastFile> {
    View::parse(bytes)?.to_file()
}

/// Whether `bytes` start with the magic `cast` ([`MAGIC`]); [`FileFormat::probe`] for
/// [`CastFile`].
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The README's example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
