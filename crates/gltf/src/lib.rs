//! # animbin-gltf
//!
//! glTF 2.0 in and out for the animbin scene model ([`animbin_core::scene`]), so that any
//! file animbin reads (SEAnim, SEModel, AnimX, Shining Force III x8an, DMF) can be looked at
//! in Blender, three.js or a game engine, and animations made there can come back.
//!
//! ## Writing ([`to_gltf`], [`to_glb`])
//! - **Container**: `.gltf` is JSON with the one binary buffer embedded as a base64 `data:`
//!   URI; `.glb` is the binary container with that buffer as its BIN chunk. The JSON is
//!   compact with members in sorted order.
//! - **Skeleton**: one node per bone (node *i* is bone *i*), holding the bone's local bind
//!   pose as its rest TRS and its children. Bones with a parent out of range, or in a parent
//!   cycle, become roots (reported).
//! - **Meshes**: one glTF mesh with one primitive per scene mesh: `POSITION` (with bounds),
//!   `NORMAL` (normalised; zero normals become +Z, reported), `TEXCOORD_n` for every UV layer
//!   (values as they are: V runs down, as in glTF and DirectX), `COLOR_0` (RGBA8, normalised),
//!   and triangle indices (u16 up to 65535 vertices, else u32). A mesh without faces is
//!   written as points.
//! - **Skin**: one skin whose joints are all the bones; inverse bind matrices are the exact
//!   inverses of each bone's global bind pose ([`animbin_core::scene::Bone::global`]).
//!   `JOINTS_0`/`WEIGHTS_0` hold each vertex's 4 strongest influences (duplicate bones merged,
//!   non-positive weights and bones past the skeleton dropped) in their source order,
//!   renormalised to sum to 1; a vertex left with none is bound to bone 0 (reported).
//! - **Materials**: name, `baseColorFactor` (clamped to 0..1), metalness 0 (these are diffuse
//!   game textures), the diffuse map as `baseColorTexture` and the normal map as
//!   `normalTexture`. An embedded texture (DMF's PNGs) becomes an image in the buffer; a
//!   texture file name becomes an image with that relative URI (percent-encoded, `\` as `/`),
//!   which a viewer loads from beside the glTF file. The exact names, and the specular map that
//!   glTF 2.0 has no slot for, are kept in the material's extras.
//! - **Animations**: one glTF animation per scene animation; per track, a `translation`,
//!   `rotation` and `scale` channel for each kind of key it has, with times
//!   `frame / framerate` seconds and `LINEAR` or `STEP` interpolation as the scene says.
//!   SEAnim's relative, delta and additive kinds (and per-bone overrides) are applied against
//!   the bind pose, so that what plays is what the source means; the rules are in [`pose`].
//!   Tracks whose bone is not in the skeleton get a node of their own (reported); a scene with
//!   no skeleton (an SEAnim alone) gets one node per track name. Keys repeating a time are
//!   dropped (reported); negative or non-finite times are refused.
//! - **What glTF cannot say** is kept in `extras.animbin` (see [`extras`]): framerate, frame
//!   count, looping, the kind, track order, notes, cosmetic flags and property tracks, so a
//!   trip SEAnim -> glTF -> SEAnim keeps all of it. Other tools ignore these members.
//! - **Refused** ([`Error::Unencodable`]): non-finite values, a skin of more than 65536 joints,
//!   attribute arrays whose lengths disagree, face indices past the vertex count, a
//!   framerate that is not positive. Everything else that glTF cannot hold is reported in
//!   the [`ConversionReport`], one line per kind of loss.
//!
//! ## Axes and units
//! glTF is right-handed, Y up, in metres. The scene model keeps the source's axes and units
//! (SEAnim and SEModel: Z up, centimetres or game units), and **by default nothing is
//! converted**: a Z-up model opens lying on its back. [`ExportOptions::z_up`] and
//! [`ExportOptions::unit_scale`] fix that without touching any value: they put the whole
//! scene under one root node (`animbin_root`, marked in its extras) that rotates -90 degrees
//! about X and scales. The same node is added when a skin has several root bones, as glTF
//! asks the joints of a skin to share one root. The reader drops that node again, so the
//! values come back exactly. For files from other tools, [`ImportOptions`] converts Y-up to
//! Z-up and scales lengths explicitly.
//!
//! ## Reading ([`from_slice`])
//! `.glb` or `.gltf` with embedded (`data:`) buffers; external files are refused with their
//! name. The `gltf` crate parses and validates the JSON; the GLB container and every accessor
//! are read here with every length checked, so bad input is an [`Error`] naming the JSON
//! path or byte offset, never a panic.
//! - **Bones** are the joints of every skin plus every animated node; a file without skins
//!   takes every node that holds no mesh or camera. A bone's parent is its nearest ancestor
//!   that is a bone; bones are ordered parents first. `local` is the node's rest TRS; `global`
//!   is the inverse of the joint's inverse bind matrix (the pose the mesh was bound in), else
//!   the product of the locals. Non-bone nodes above the skeleton (an "Armature" object) are
//!   not applied.
//! - **Meshes**: every primitive of every mesh (triangles, strips and fans as triangles,
//!   points without faces; lines are skipped and reported), with its material; all
//!   `JOINTS_n`/`WEIGHTS_n` sets become `4 * n` influences (or the count animbin wrote).
//!   Vertices stay in mesh space: an unskinned mesh's node transform is not applied (reported).
//! - **Animations**: keys at the source's key times, `frame = seconds * framerate`, snapped to
//!   the nearest integer frame when within float rounding. The framerate comes from animbin's
//!   extras, else the first of 30, 24, 25, 60, 50, 120 fps on whose grid every key falls,
//!   else 30. Cubic spline keys keep their values (tangents reported as lost). With animbin's
//!   extras the kind is restored: the rest pose is taken off the keys again.
//! - **Errors**: invalid JSON or schema, a version other than 2.x, a skin without joints, a
//!   channel on a missing node (index out of range) or twice on one node and property, key
//!   times that go backwards, accessors that run past their buffer, counts that disagree.
//!
//! ```
//! use animbin_core::math::{Quat, Vec3};
//! use animbin_core::scene::{Animation, BoneTrack, ConversionReport, Key, Scene};
//! use animbin_gltf::{ExportOptions, ImportOptions};
//!
//! let mut scene = Scene::default();
//! scene.animations.push(Animation {
//!     name: "wave".into(),
//!     framerate: 30.0,
//!     frame_count: 11.0,
//!     bones: vec![BoneTrack {
//!         bone: "hand".into(),
//!         translation: vec![Key::new(0.0, Vec3::ZERO), Key::new(10.0, Vec3::new(0.0, 0.0, 5.0))],
//!         rotation: vec![Key::new(10.0, Quat::IDENTITY)],
//!         ..BoneTrack::default()
//!     }],
//!     ..Animation::default()
//! });
//! let mut report = ConversionReport::default();
//! let glb = animbin_gltf::to_glb(&scene, &ExportOptions { z_up: true, ..ExportOptions::default() }, &mut report)?;
//! assert!(glb.starts_with(b"glTF") && report.is_lossless());
//!
//! let back = animbin_gltf::from_slice(&glb, &ImportOptions::default(), &mut report)?;
//! let track = &back.animations[0].bones[0];
//! assert_eq!(track.bone, "hand");
//! assert_eq!(track.translation[1].frame, 10.0);
//! assert_eq!(track.translation[1].value, Vec3::new(0.0, 0.0, 5.0));
//! # Ok::<(), animbin_gltf::Error>(())
//! ```

mod accessor;
mod error;
mod export;
pub mod extras;
mod glb;
mod import;
mod json;
pub mod pose;
mod repack;
mod validate;
mod xform;

use animbin_core::scene::{ConversionReport, Scene};

pub use error::{Error, Path, Result};
pub use export::{ExportOptions, uri_from_name};
pub use glb::Glb;
pub use import::{ImportOptions, percent_decode};
pub use repack::{Container, join, repack, split};
pub use validate::{Problem, validate};

/// Whether `bytes` start like a GLB file.
pub fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(glb::MAGIC)
}

/// Writes `scene` as a `.gltf`: JSON with the buffer embedded as a base64 `data:` URI.
pub fn to_gltf(scene: &Scene, options: &ExportOptions, report: &mut ConversionReport) -> Result<Vec<u8>> {
    let out = export::build(scene, options, report)?;
    let mut root = out.root;
    if !out.bin.is_empty() {
        root.buffers.push(json::Buffer {
            byte_length: out.bin.len(),
            uri: Some(repack::data_uri(&out.bin)),
        });
    }
    serialize(&root)
}

/// Writes `scene` as a `.glb`: the JSON chunk and the buffer as the BIN chunk.
pub fn to_glb(scene: &Scene, options: &ExportOptions, report: &mut ConversionReport) -> Result<Vec<u8>> {
    let out = export::build(scene, options, report)?;
    let mut root = out.root;
    let bin = (!out.bin.is_empty()).then_some(out.bin);
    if let Some(bin) = &bin {
        root.buffers.push(json::Buffer {
            byte_length: bin.len(),
            uri: None,
        });
    }
    Glb::to_vec(&serialize(&root)?, bin.as_deref())
}

/// Writes `scene` in the given container.
pub fn write(
    scene: &Scene,
    container: Container,
    options: &ExportOptions,
    report: &mut ConversionReport,
) -> Result<Vec<u8>> {
    match container {
        Container::Gltf => to_gltf(scene, options, report),
        Container::Glb => to_glb(scene, options, report),
    }
}

/// Reads a `.glb` or a `.gltf` (with embedded buffers) into a scene, recording in `report`
/// what the scene cannot hold.
pub fn from_slice(bytes: &[u8], options: &ImportOptions, report: &mut ConversionReport) -> Result<Scene> {
    import::import(bytes, options, report)
}

/// The JSON text: through `serde_json::Value`, so members come out in sorted order, which a
/// re-serialised `Value` of the same document reproduces byte for byte.
fn serialize(root: &json::Root) -> Result<Vec<u8>> {
    let value = serde_json::to_value(root).map_err(|e| Error::Unencodable(e.to_string()))?;
    serde_json::to_vec(&value).map_err(|e| Error::Unencodable(e.to_string()))
}
