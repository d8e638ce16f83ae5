//! # animbin-gltf
//!
//! glTF 2.0 in and out for the animbin scene model ([`Scene`], from `animbin-core`), so that
//! any file animbin reads (SEAnim, SEModel, AnimX, Shining Force III x8an, DMF) can be looked
//! at in Blender, three.js or a game engine, and animations made there can come back. This
//! crate is a bridge, not a model of its own: [`from_scene`] writes a scene as glTF and
//! [`to_scene`] reads glTF into a scene, both with [`SceneOptions`] and a
//! [`ConversionReport`] of what the other side cannot hold.
//!
//! ## Writing ([`from_scene`] for `.glb`, [`write()`] and [`to_bytes`] for either container)
//! - **Container**: `.gltf` is JSON with the one binary buffer embedded as a base64 `data:`
//!   URI; `.glb` is the binary container with that buffer as its BIN chunk. The JSON is
//!   compact with members in sorted order.
//! - **Streaming**: [`encode`] checks and lays out the whole file before a byte is written
//!   (the JSON measured, not kept), then [`Encoded::write`] writes the JSON as it is made and
//!   the buffer's pieces in order, never joined.
//!   [`encode_owned`] keeps the scene it is given: views that hold a scene array as it is
//!   (large `f32` positions and UVs, normals of unit length, `u32` indices, RGBA8 colours,
//!   PNGs) are written from the scene's own vectors, and the values of long animation
//!   channels whose keys are in order are computed again from the scene's keys as they are
//!   written, so the buffer is never held beside the scene. Both give the same bytes.
//! - **Nodes**: one glTF node per scene node, bones and plain nodes alike (node *i* is node
//!   *i*), holding its local rest TRS and its children. Nodes with a parent out of range, or
//!   in a parent cycle, become roots (reported). A node's [`scene::MeshInstance`] puts the
//!   glTF mesh of its meshes (one glTF mesh per group of meshes, however many nodes show it)
//!   on the node; cameras go on their node and lights on theirs (`KHR_lights_punctual`); a
//!   node that already holds one of a kind gets a child node for the next.
//! - **Meshes**: one primitive per scene mesh, in the glTF mesh of each group that lists it
//!   (a mesh no instance lists gets a glTF mesh and a node of its own at the top), with the
//!   targets' default weights as `mesh.weights`: `POSITION` (with bounds),
//!   `NORMAL` (made unit where they are not unit to f32's rounding; zero normals become +Z, reported), `TEXCOORD_n` for every UV layer
//!   (values as they are: V runs down, as in glTF and DirectX), `COLOR_0` (RGBA8, normalised),
//!   and triangle indices (u16 up to 65535 vertices, else u32). A mesh without faces is
//!   written as points.
//! - **Hair** ([`Scene::hairs`]): a mesh per hair, beside the meshes (under the placement
//!   node with them), whose one primitive is `LINES` (`POINTS` when no strand has a segment):
//!   `POSITION` the particles, u16 or u32 indices joining consecutive particles of each
//!   strand, the hair's material (with a `TEXCOORD_0` of zeros when that material is
//!   textured, which glTF asks of a textured primitive), and the segments in
//!   `mesh.extras.animbin.hair` ([`HairExtras`]). A hair without particles is reported and
//!   left out; particles that are not the count the segments call for are refused.
//! - **Instances** ([`Scene::instances`], other scene files placed in this one): a node
//!   without a mesh, named, with the placement as its TRS and the path in
//!   `node.extras.animbin.instance` ([`InstanceExtras`]), in the world beside the model
//!   (not under its placement). A placement the node's unit `f32` rotation and `f32`
//!   translation and scale do not hold exactly is reported.
//! - **Morph targets**: each scene morph target is a primitive target: `POSITION` offsets
//!   (and `NORMAL` offsets where the mesh has normals and a target moves them), written sparse
//!   (the moved vertices over zeros) or dense when most vertices move; the names go in
//!   `mesh.extras.targetNames`, where Blender's importer and three.js read them. Each
//!   animation's weight tracks become one `weights` channel per mesh node with targets, on the
//!   union of its tracks' key times (each target's weight sampled from its track, 0 for a
//!   target without one); animbin's extras list the tracks so a reader leaves the others out.
//!   Maximum weights (Cast's `ts`) have no place (reported).
//! - **Skins**: the scene's own skins ([`Scene::skins`]) first, with their joints and their
//!   inverse bind matrices as the scene holds them (marked in their extras, [`SkinExtras`]),
//!   and a mesh bound by one names its joints through it. Then, for a rig, one skin whose
//!   joints are all the bones (joint *i* is bone *i*; every node when a mesh without a skin
//!   of its own is bound by it, so that `JOINTS_0` holds node indices), then the
//!   nodes of tracks without a bone; inverse bind matrices are the exact inverses of each
//!   bone's global bind pose ([`scene::Bone::global`]) and the identity for those nodes. It
//!   is written whenever there are bones or animated nodes, even with no mesh bound to it,
//!   because that is what makes Blender's importer build an armature (nodes that are no
//!   skin's joints arrive as empties). `JOINTS_0`/`WEIGHTS_0` hold each vertex's 4 strongest influences (duplicate bones merged,
//!   non-positive weights and bones past the skeleton dropped) in their source order,
//!   renormalised to sum to 1; a vertex left with none is bound to bone 0 (reported).
//! - **Materials** with texture links ([`scene::TextureLink`]): every slot on its UV set with
//!   its `KHR_texture_transform`, images of every type the scene holds (WebP through
//!   `EXT_texture_webp`), and the surface's factors ([`scene::Surface`]). Game materials:
//!   name, `baseColorFactor` (clamped to 0..1), metalness 0 (these are diffuse
//!   game textures), the diffuse map as `baseColorTexture` and the normal map as
//!   `normalTexture`. An embedded texture (DMF's PNGs) becomes an image in the buffer. A
//!   texture file name becomes, when the caller found the file ([`to_bytes_with_images`],
//!   [`ImageFiles`]), an image in the buffer (PNG and JPEG) or an image with the URI the
//!   caller gives (other formats); otherwise an image with the name as a relative URI
//!   ([`uri_from_name`]), which a viewer loads from beside the glTF file, reported when the
//!   caller looked for the file and did not find it. The exact names, and the specular map
//!   that glTF 2.0 has no slot for, are kept in the material's extras.
//! - **Animations**: one glTF animation per scene animation; per track, a `translation`,
//!   `rotation` and `scale` channel for each kind of key it has, with times
//!   `frame / framerate` seconds and `LINEAR` or `STEP` interpolation as the scene says.
//!   SEAnim's relative, delta and additive kinds (and per-bone overrides) are applied against
//!   the bind pose, so that what plays is what the source means (see *Animation kinds*).
//!   Tracks whose bone is not in the skeleton get a node of their own (reported); a scene with
//!   no skeleton (an SEAnim alone) gets one node per track name. Keys repeating a time are
//!   dropped (reported); negative or non-finite times are refused. Key values are `f32`:
//!   an animation whose values are not all exactly `f32` is reported, and the precision is
//!   recorded in its extras so that a single-precision animation reads back single.
//! - **What glTF cannot say** is kept in `extras.animbin` ([`EXTRAS_KEY`]; the shapes are
//!   [`AnimationExtras`], [`MaterialExtras`], [`MeshExtras`], [`InstanceExtras`] and
//!   [`WrapperExtras`]):
//!   framerate, frame count, looping, the kind, track order, notes, cosmetic flags and
//!   property tracks, so a trip SEAnim -> glTF -> SEAnim keeps all of it. Other tools ignore
//!   these members (Blender shows them as custom properties).
//! - **Refused** ([`Error::Unencodable`]): non-finite values, a skin of more than 65536 joints,
//!   attribute arrays whose lengths disagree, face indices past the vertex count, a
//!   framerate that is not positive. Everything else that glTF cannot hold is reported in
//!   the [`ConversionReport`], one line per kind of loss.
//!
//! ## Axes and units ([`SceneOptions`])
//! glTF is right-handed, Y up, in metres. The scene model keeps the source's axes and units
//! (SEAnim and SEModel: Z up, centimetres or game units), and **by default nothing is
//! converted**: a Z-up model opens lying on its back. [`SceneOptions::z_up`] says the scene
//! is Z-up, and [`SceneOptions::unit_scale`] says what a scene length is in metres (0.01 for
//! centimetres), in both directions:
//! - writing, `unit_scale` multiplies the data: mesh positions, bone and key translations,
//!   and so the inverse bind matrices (a negative scale is a point reflection that flips
//!   normals and face winding so that surfaces still face out). A tool that imports the file
//!   sees lengths in metres with no scaled node above them. The scale is recorded in the
//!   scene's extras ([`SceneExtras`]). `z_up` puts the whole scene under one root node
//!   (`animbin_root`, marked in its extras) that rotates -90 degrees about X, without
//!   touching any value. The same node is added when the skin has several roots, as glTF
//!   asks the joints of a skin to share one root;
//! - reading, animbin's root node is dropped again and the lengths are divided by the
//!   recorded scale, whatever the options say: values come back exactly when the scale is
//!   1 or a power of two, and otherwise to within one `f32` rounding (the writer reports
//!   how many lengths do not come back bit for bit). A file from another tool is converted:
//!   Y-up becomes Z-up (+90 degrees about X on root bones, their root-level keys and mesh
//!   vertices) and lengths are divided by `unit_scale`.
//!
//! `framerate` is used when reading animations without animbin's extras (see below);
//! `normalize_rotations` does not apply (glTF rotations are floats).
//!
//! ## Reading ([`to_scene`])
//! `.glb` or `.gltf` with embedded (`data:`) buffers. A `.gltf` exported "separate" (buffers
//! in `name.bin`, images in `tex.png` beside it) is read once [`embed_external_files`] has
//! put those files into it, read through a function the caller gives (this crate reads no
//! files; the `animbin` library gives one that reads the file's folder): URIs that leave the
//! folder (`..`, absolute paths) or name a scheme other than `data:` are refused with their
//! name, and so is an external buffer that [`to_scene`] is given without it. The `gltf` crate
//! parses and validates the JSON; the GLB container and every accessor
//! are read here with every length checked, so bad input is an [`Error`] naming the JSON
//! path or byte offset, never a panic. Each buffer (buffers with the same `data:` URI are
//! one), each image's bytes (images on the same view or URI are one texture) and each
//! accessor is decoded once, however many places refer to it; what all accessor reads give
//! is bounded by a budget, [`default_max_accessor_values`] of the buffers' bytes unless the
//! caller sets another ([`with_max_accessor_values`]), and a file past it is refused naming
//! the accessor and the budget.
//! - **Nodes** are the scene's nodes ([`scene::Skeleton::bones`]): every node of the file but
//!   the ones animbin's writer adds around bones (below), instances, and a *loose mesh node*
//!   (a leaf at the top, at rest, not animated, named as its mesh or not at all: every writer
//!   makes one for a mesh in model space, and the mesh stays in model space). Joints of a skin
//!   are bones ([`scene::NodeKind::Bone`]), every other node a plain node
//!   ([`scene::NodeKind::Plain`]: an empty, an `Armature` object, the node of a mesh, camera
//!   or light), with its transform: nothing above the skeleton is dropped. Nodes are ordered
//!   parents first; a name given to an earlier node too gets a numbered suffix (reported),
//!   since tracks find nodes by name. `local` is the node's rest TRS; `global` is the inverse
//!   of the joint's inverse bind matrix (the pose the mesh was bound in), else the product of
//!   the locals. A node animbin marked as an instance is a scene instance (name, TRS as
//!   written, path). The nodes animbin's writer adds are read as what they stand for: its
//!   model placement node is [`Scene::placement`], and a bone below compensation nodes does
//!   not inherit its parent's scale ([`scene::Bone::scale_compensate`]), with the outer node's
//!   translation (and its translation channel) as the bone's.
//! - **The graph around the nodes**: a node's mesh is a [`scene::MeshInstance`] (a mesh shown
//!   by several nodes is read once and placed by each); every skin of another writer's file is
//!   a [`scene::Skin`] with its inverse bind matrices exactly as the file holds them (animbin's
//!   own skin over a rig's bones is read as the bones' bind poses); cameras are
//!   [`scene::Camera`]s and `KHR_lights_punctual` lights [`scene::Light`]s on their nodes;
//!   `mesh.weights` are the targets' [`scene::MorphTarget::default_weight`]; a node's own
//!   morph weights that differ from its mesh's are reported. Materials keep every texture
//!   slot (base colour, normal with its scale, metallic-roughness, occlusion with its
//!   strength, emissive), its UV set and `KHR_texture_transform` ([`scene::TextureLink`]),
//!   and metalness, roughness, emission and double-sidedness ([`scene::Surface`]); a blended
//!   or masked alpha mode is reported. Images of any type (PNG, JPEG, WebP) are kept as their
//!   bytes with their MIME type. A file that *requires* an extension other than
//!   `KHR_lights_punctual` and `KHR_texture_transform` (mesh compression, say) is refused
//!   with the extension's name.
//! - **Meshes**: every primitive of every mesh (triangles, strips and fans as triangles,
//!   points without faces; lines are skipped and reported, except a mesh animbin marked as
//!   hair, which is a scene hair again, exactly), with its material; all
//!   `JOINTS_n`/`WEIGHTS_n` sets become `4 * n` influences (or the count animbin wrote, and
//!   the skin blend it kept in `mesh.extras.animbin.skin_blend`: glTF skins linearly).
//!   Vertices stay in mesh space: the node that places a mesh says where it is.
//!   Morph targets keep the vertices whose offset is not zero, named from
//!   `extras.targetNames` (else `target_k`); a `weights` channel becomes one weight track per
//!   target name of its mesh (a name on several meshes with other keys keeps the first,
//!   reported).
//! - **Animations**: keys at the source's key times, `frame = seconds * framerate`, snapped to
//!   the nearest integer frame when within float rounding. The framerate comes from animbin's
//!   extras, else [`SceneOptions::framerate`], else the first of 30, 24, 25, 60, 50, 120 fps
//!   on whose grid every key falls, else [`DEFAULT_FRAMERATE`]. Cubic spline keys keep their
//!   values (tangents reported as lost). With animbin's extras the kind is restored (the rest
//!   pose is taken off the keys again). Key values end as the nearest `f32` once the rest
//!   pose, the unit scale and the axes are applied (glTF holds `f32`, so a single-precision
//!   animation comes back single), except in an animation animbin recorded as double.
//! - **Errors**: invalid JSON or schema, a version other than 2.x, a skin without joints, a
//!   channel on a missing node (index out of range) or twice on one node and property, key
//!   times that go backwards, accessors that run past their buffer, counts that disagree.
//!
//! ## Animation kinds
//! glTF channels hold the local translation, rotation and scale of a node, so a kind other
//! than absolute is applied against the bone's bind pose (its local rest transform, which is
//! also the glTF node's rest TRS). Relative and additive follow SETools, the Maya plugin by
//! the SEAnim format's co-author; delta follows the format author's Blender add-on
//! (io_anim_seanim), which offsets a delta bone from its rest pose along the bone's own rest
//! axes:
//!
//! | kind     | translation                    | rotation                      | scale |
//! |----------|--------------------------------|-------------------------------|-------|
//! | absolute | key                            | key                           | key   |
//! | relative | rest + key                     | key                           | key   |
//! | delta    | rest + rest rotation * key     | key                           | key   |
//! | additive | rest + key                     | rest * key (key applied first)| key   |
//!
//! A bone's kind is the override of the nearest bone among itself and its ancestors whose
//! track carries one (SEAnim modifier bones apply "to the bone and its children,
//! recursively"), else the animation's kind ([`effective_kinds`]). Additive animations are
//! meant to be layered over whatever plays; glTF has no layering, so they play over the bind
//! pose. [`apply_translation`] and [`apply_rotation`] apply the table, [`remove_translation`]
//! and [`remove_rotation`] undo it.
//!
//! ## Checking and repacking
//! [`validate`] lists what breaks glTF 2.0's rules but still reads, each an error
//! [`Problem`] at its JSON pointer. [`split`], [`join`] and [`repack`] move a file between
//! the two containers without going through the scene, keeping its JSON as it is.
//!
//! ## The file as a format ([`GltfFile`])
//! [`GltfFile`] holds a file's bytes (checked to read as a scene) and its [`Container`]; it
//! implements [`FileFormat`], the contract every animbin format crate implements the same
//! way, which the `animbin` library's table of formats uses: [`MAGIC`] (`glTF`, the GLB
//! header; a `.gltf` is told by its top-level `asset` member), the two containers as its
//! forms, the [`Summary`] `animbin info` shows (counts from the JSON, the GLB BIN chunk's
//! size), [`validate`], the dump ([`GltfDump`]: the JSON as a value or as its text, the BIN
//! chunk in base64, or a GLB that neither can say whole in base64) and the scene mapping
//! above, embedding the [`ImageFiles`] a caller found.
//!
//! ```
//! use animbin_gltf::math::{Quat, Vec3};
//! use animbin_gltf::scene::{Animation, BoneTrack, Key, Scene};
//! use animbin_gltf::{ConversionReport, SceneOptions};
//!
//! let mut scene = Scene::default();
//! scene.animations.push(Animation {
//!     name: "wave".into(),
//!     framerate: 30.0,
//!     frame_count: 11.0,
//!     bones: vec![BoneTrack {
//!         bone: "hand".into(),
//!         translation: vec![Key::new(0.0, Vec3::ZERO), Key::new(10.0, Vec3::new(0.0, 0.0, 5.0))].into(),
//!         rotation: vec![Key::new(10.0, Quat::IDENTITY)].into(),
//!         ..BoneTrack::default()
//!     }],
//!     ..Animation::default()
//! });
//! let mut report = ConversionReport::default();
//! let z_up = SceneOptions { z_up: true, ..SceneOptions::default() };
//! let glb = animbin_gltf::from_scene(&scene, &z_up, &mut report)?;
//! assert!(glb.starts_with(b"glTF") && report.is_lossless());
//!
//! // animbin's root node is dropped again: the values come back as they were.
//! let back = animbin_gltf::to_scene(&glb, &z_up, &mut report)?;
//! let track = &back.animations[0].bones[0];
//! assert_eq!(track.bone, "hand");
//! assert_eq!(track.translation.frame(1), Some(10.0));
//! assert_eq!(track.translation.get(1).map(|k| k.value), Some(Vec3::new(0.0, 0.0, 5.0)));
//! # Ok::<(), animbin_gltf::Error>(())
//! ```

mod accessor;
mod dump;
mod error;
mod export;
mod external;
mod extras;
mod file;
mod format;
mod glb;
mod import;
mod json;
mod repack;
mod summary;
mod validate;
mod xform;

use std::io::Write;
use std::sync::Arc;

pub use accessor::{
    ACCESSOR_VALUES_PER_BUFFER_BYTE, MIN_ACCESSOR_VALUES, default_max_accessor_values, with_max_accessor_values,
};
pub use animbin_core::images::{ImageFile, ImageFiles, image_mime_type, texture_names};
pub use animbin_core::pose::{apply_rotation, apply_translation, effective_kinds, remove_rotation, remove_translation};
pub use animbin_core::scene::Scene;
pub use animbin_core::{
    ConversionReport, Diagnostic, FileFormat, Holds, Location, Problem, SceneOptions, Severity, math, scene,
};
pub use dump::GltfDump;
pub use error::{Error, Path, Result};
pub use export::uri_from_name;
pub use external::{embed_external_files, external_file_name};
pub use extras::{
    AnimationExtras, HairExtras, ImageExtras, InstanceExtras, KEY as EXTRAS_KEY, KindOverride, MaterialExtras,
    MeshExtras, NoteExtra, PropertyExtra, SceneExtras, SkinExtras, WrapperExtras,
};
pub use file::GltfFile;
pub use glb::{BinPieces, Glb};
pub use import::{DEFAULT_FRAMERATE, percent_decode};
pub use repack::{Container, join, repack, split};
pub use summary::Summary;
pub use validate::validate;

/// The magic at the start of every GLB file (a `.gltf` is JSON and has none).
pub const MAGIC: &[u8] = b"glTF";

/// The README's example, compiled and run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// Whether `bytes` start like a GLB file ([`MAGIC`]); [`FileFormat::probe`] for
/// [`GltfFile`].
pub fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a `.glb` or a `.gltf` (with embedded buffers: see [`embed_external_files`] for one
/// whose buffers are files beside it) into a scene, recording in `report`
/// what the scene cannot hold. A file from another tool is placed by `options` (Y-up to Z-up,
/// lengths divided by `unit_scale`, `framerate` for animations without animbin's extras); a
/// file animbin wrote comes back as it was, whatever they say.
pub fn to_scene(bytes: &[u8], options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
    import::import(bytes, options, report)
}

/// Writes `scene` as a `.glb`: the JSON chunk and the buffer as the BIN chunk. `options`
/// place the scene in glTF's frame (Z-up and unit scale, on one root node).
pub fn from_scene(scene: &Scene, options: &SceneOptions, report: &mut ConversionReport) -> Result<Vec<u8>> {
    to_bytes(scene, Container::Glb, options, report)
}

/// Writes `scene` in the given container into a new byte vector: [`Container::Gltf`] is JSON
/// with the buffer embedded as a base64 `data:` URI, [`Container::Glb`] the binary container.
pub fn to_bytes(
    scene: &Scene,
    container: Container,
    options: &SceneOptions,
    report: &mut ConversionReport,
) -> Result<Vec<u8>> {
    to_bytes_with_images(scene, container, options, &ImageFiles::default(), report)
}

/// [`to_bytes`], embedding the texture files a caller found for the materials' map names
/// (see [`ImageFiles`] and [`texture_names`]): PNG and JPEG files become images in the
/// buffer, other files are referred to by their [`ImageFile::uri`], and when the names were
/// searched for, each one not found keeps its name as a URI and is reported.
pub fn to_bytes_with_images(
    scene: &Scene,
    container: Container,
    options: &SceneOptions,
    images: &ImageFiles,
    report: &mut ConversionReport,
) -> Result<Vec<u8>> {
    Ok(encode(scene, container, options, images, report)?.into_bytes())
}

/// Encodes `scene` in the given container (as [`to_bytes_with_images`]) without joining the
/// file: the JSON text and the binary buffer's pieces, which [`Encoded::write`] streams.
/// Everything that can fail but the output is checked here.
pub fn encode(
    scene: &Scene,
    container: Container,
    options: &SceneOptions,
    images: &ImageFiles,
    report: &mut ConversionReport,
) -> Result<Encoded> {
    encode_kept(scene, None, container, options, images, report)
}

/// [`encode`] of a scene the encoding keeps: the arrays glTF stores as the scene holds them
/// (`f32` positions and UVs, normals already of unit length, `u32` indices, RGBA8 colours,
/// PNG textures) are written from the scene when the file is written, not copied into the
/// buffer's pieces, so a conversion holds its data once. The file is the one [`encode`]
/// makes, byte for byte.
pub fn encode_owned(
    scene: Scene,
    container: Container,
    options: &SceneOptions,
    images: &ImageFiles,
    report: &mut ConversionReport,
) -> Result<Encoded> {
    let scene = Arc::new(scene);
    encode_kept(&scene, Some(Arc::clone(&scene)), container, options, images, report)
}

fn encode_kept(
    scene: &Scene,
    kept: Option<Arc<Scene>>,
    container: Container,
    options: &SceneOptions,
    images: &ImageFiles,
    report: &mut ConversionReport,
) -> Result<Encoded> {
    report.lose_rig_controls(scene, "glTF");
    // Kept in the mesh's extras for animbin, but what other tools show.
    report.lose_dual_quaternion_skinning(scene, "glTF");
    let out = export::build(scene, options, images, report, kept)?;
    let mut root = out.root;
    match container {
        Container::Gltf => {
            if !out.bin.is_empty() {
                let bin = out.bin.into_vec()?;
                root.buffers.push(json::Buffer {
                    byte_length: bin.len(),
                    uri: Some(repack::data_uri(&bin)),
                });
            }
            Ok(Encoded {
                json: JsonText::of(root)?,
                bin: None,
                container,
            })
        }
        Container::Glb => {
            let bin = (!out.bin.is_empty()).then_some(out.bin);
            if let Some(bin) = &bin {
                root.buffers.push(json::Buffer {
                    byte_length: bin.len(),
                    uri: None,
                });
            }
            let json = JsonText::of(root)?;
            Glb::file_size(json.len, bin.as_ref().map(BinPieces::len))?;
            Ok(Encoded { json, bin, container })
        }
    }
}

/// A scene encoded as glTF ([`encode`]) and not yet written: the glTF document, measured,
/// and in a `.glb` the BIN chunk's pieces. Writing streams the JSON text as it is made, then
/// the pieces in order, so neither the text nor the file is ever held whole.
pub struct Encoded {
    json: JsonText,
    bin: Option<BinPieces>,
    container: Container,
}

impl Encoded {
    /// The container it is written in.
    pub fn container(&self) -> Container {
        self.container
    }

    /// The size of the file it writes, in bytes.
    pub fn len(&self) -> usize {
        match self.container {
            Container::Gltf => self.json.len,
            // Checked by `encode`.
            Container::Glb => Glb::file_size(self.json.len, self.bin.as_ref().map(BinPieces::len)).unwrap_or(0),
        }
    }

    /// Whether it writes no bytes (never: a file has at least its JSON).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the file into `writer`, piece by piece.
    pub fn write(&self, mut writer: impl Write) -> Result<()> {
        match self.container {
            Container::Gltf => self.json.write_measured(&mut writer)?,
            Container::Glb => Glb::write_streamed(
                self.json.len,
                |w| self.json.write_measured(w),
                self.bin.as_ref(),
                writer,
            )?,
        }
        Ok(())
    }

    /// The file's bytes, copied from the pieces.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        // Writing into a vector fails only where the sizes did, which `encode` checked.
        let _ = self.write(&mut out);
        out
    }

    /// The file's bytes, each piece freed once copied.
    pub fn into_bytes(self) -> Vec<u8> {
        match self.container {
            Container::Gltf => self.to_bytes(),
            Container::Glb => {
                let mut json = Vec::with_capacity(self.json.len);
                // Writing into a vector fails only where the sizes did, which `encode` checked.
                let _ = self.json.write(&mut json);
                drop(self.json);
                Glb::join(&json, self.bin).unwrap_or_default()
            }
        }
    }
}

impl std::fmt::Debug for Encoded {
    // The JSON and the buffer can be megabytes: their lengths say enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoded")
            .field("json", &format_args!("[{} bytes]", self.json.len))
            .field("bin", &self.bin)
            .field("container", &self.container)
            .finish()
    }
}

/// [`to_bytes`] into `writer`, streamed: the file is encoded first (so nothing is written
/// when the scene cannot be encoded), then written piece by piece ([`Encoded::write`]).
pub fn write(
    scene: &Scene,
    container: Container,
    options: &SceneOptions,
    report: &mut ConversionReport,
    writer: impl Write,
) -> Result<()> {
    encode(scene, container, options, &ImageFiles::default(), report)?.write(writer)
}

/// A glTF document as its JSON text will be written, and that text's length: compact,
/// members in sorted order, as a `serde_json::Value` of the whole root would print it (so a
/// re-serialised `Value` of the same document reproduces it byte for byte).
///
/// The text is not kept: it is measured once when the file is encoded and made again as it
/// is written ([`JsonText::write`]), so a conversion never holds it beside the document (an
/// x8an file of 48 MiB has 400,000 accessors and a 95 MB JSON chunk). The long arrays
/// (accessors, animations, buffer views) are serialised straight, one element at a time:
/// their types declare their members in sorted order, and a `Value` tree of them took 2 GB.
struct JsonText {
    /// The root's members in sorted order, the long ones as `null` placeholders.
    members: Vec<(String, serde_json::Value)>,
    accessors: Vec<json::Accessor>,
    animations: Vec<json::Animation>,
    buffer_views: Vec<json::BufferView>,
    /// The length of the text in bytes.
    len: usize,
}

impl JsonText {
    /// The document `root`, measured.
    fn of(mut root: json::Root) -> Result<Self> {
        let error = |e: serde_json::Error| Error::Unencodable(e.to_string());
        let accessors = std::mem::take(&mut root.accessors);
        let animations = std::mem::take(&mut root.animations);
        let buffer_views = std::mem::take(&mut root.buffer_views);
        let serde_json::Value::Object(mut members) = serde_json::to_value(&root).map_err(error)? else {
            return Err(Error::Unencodable("the glTF root is not a JSON object".into()));
        };
        // Placeholders keep the long members' places in the sorted order.
        for (name, empty) in [
            ("accessors", accessors.is_empty()),
            ("animations", animations.is_empty()),
            ("bufferViews", buffer_views.is_empty()),
        ] {
            if !empty {
                members.insert(name.into(), serde_json::Value::Null);
            }
        }
        let mut members: Vec<_> = members.into_iter().collect();
        members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut text = Self {
            members,
            accessors,
            animations,
            buffer_views,
            len: 0,
        };
        let mut measured = Counted::new(std::io::sink());
        text.write(&mut measured)?;
        text.len = measured.count;
        Ok(text)
    }

    /// Writes the text into `out`.
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(b"{")?;
        for (i, (name, value)) in self.members.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, name)?;
            out.write_all(b":")?;
            match name.as_str() {
                "accessors" => elements(out, &self.accessors)?,
                "animations" => elements(out, &self.animations)?,
                "bufferViews" => elements(out, &self.buffer_views)?,
                _ => serde_json::to_writer(&mut *out, value)?,
            }
        }
        out.write_all(b"}")
    }

    /// [`JsonText::write`], an error when the text comes out at another length than the one
    /// measured (the header that states its length is already written).
    fn write_measured(&self, out: &mut impl Write) -> Result<()> {
        let mut counted = Counted::new(out);
        self.write(&mut counted)?;
        if counted.count == self.len {
            Ok(())
        } else {
            Err(Error::Unencodable(format!(
                "the JSON came out {} bytes long, not the {} measured",
                counted.count, self.len
            )))
        }
    }
}

/// A writer that counts the bytes it passes on (into `W`, which may be
/// [`std::io::sink`] to measure what a writer would write).
struct Counted<W> {
    inner: W,
    /// The bytes written so far.
    count: usize,
}

impl<W> Counted<W> {
    fn new(inner: W) -> Self {
        Self { inner, count: 0 }
    }
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n;
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.inner.write_all(buf)?;
        self.count += buf.len();
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A JSON array of `items`, serialised straight: their types declare their members in
/// sorted order, so each comes out as its `Value` would, without building one.
fn elements<T: serde::Serialize>(out: &mut impl Write, items: &[T]) -> std::io::Result<()> {
    out.write_all(b"[")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, item)?;
    }
    out.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use animbin_core::math::{Vec2, Vec3};
    use animbin_core::scene::{Mesh, Texture};

    use super::*;
    use crate::glb::SceneArray;

    /// A mesh of `n` vertices whose arrays are large enough to be kept.
    fn mesh(n: u32, normal: Vec3<f32>) -> Mesh {
        Mesh {
            positions: (0..n).map(|i| Vec3::new(i as f32, 0.0, 1.0)).collect(),
            normals: vec![normal; n as usize],
            uv_layers: vec![vec![Vec2::new(0.5, 0.25); n as usize]],
            colors: vec![animbin_core::math::Rgba::new(1, 2, 3, 4); n as usize],
            faces: (0..n - 2).map(|i| [i, i + 1, i + 2]).collect(),
            ..Mesh::default()
        }
    }

    fn encoded(scene: Scene, options: &SceneOptions) -> Encoded {
        encode_owned(
            scene,
            Container::Glb,
            options,
            &ImageFiles::default(),
            &mut ConversionReport::default(),
        )
        .unwrap()
    }

    fn kept_arrays(scene: Scene, options: &SceneOptions) -> Vec<SceneArray> {
        let encoded = encoded(scene, options);
        encoded.bin.as_ref().map(BinPieces::scene_pieces).unwrap_or_default()
    }

    /// The elements `JsonText` writes straight are written as their `Value`s would be: their
    /// members in sorted order, every optional member present and absent.
    #[test]
    fn long_array_elements_serialise_as_their_values_do() {
        fn same<T: serde::Serialize>(item: &T) {
            let value = serde_json::to_vec(&serde_json::to_value(item).unwrap()).unwrap();
            let straight = serde_json::to_vec(item).unwrap();
            assert_eq!(String::from_utf8(straight).unwrap(), String::from_utf8(value).unwrap());
        }
        let sparse = json::Sparse {
            count: 2,
            indices: json::SparseIndices {
                buffer_view: 3,
                component_type: json::component::U16,
            },
            values: json::SparseValues { buffer_view: 4 },
        };
        for (full, sparse) in [(true, Some(sparse)), (false, None)] {
            same(&json::Accessor {
                buffer_view: full.then_some(1),
                component_type: json::component::F32,
                count: 7,
                max: full.then(|| vec![1.5, 2.0, -0.25]),
                min: full.then(|| vec![-1.5, 0.0, 1e-30]),
                normalized: full,
                sparse,
                kind: "VEC3",
            });
            same(&json::BufferView {
                buffer: 0,
                byte_length: 12,
                byte_offset: 40,
                target: full.then_some(json::target::ARRAY_BUFFER),
            });
            same(&json::Animation {
                channels: vec![json::Channel {
                    sampler: 0,
                    target: json::ChannelTarget {
                        node: 2,
                        path: "rotation",
                    },
                }],
                extras: full.then(|| serde_json::json!({"animbin": {"framerate": 30.0, "kind": "relative"}})),
                name: full.then(|| "walk".into()),
                samplers: vec![json::Sampler {
                    input: 1,
                    interpolation: "LINEAR",
                    output: 2,
                }],
            });
        }
    }

    /// The JSON is measured when the file is encoded and made again as it is written: every
    /// way of taking the file gives the same bytes, as long as `len` says, and the JSON is
    /// the compact, sorted text of a `Value` of the whole document.
    #[test]
    fn the_json_written_as_it_is_made_is_the_text_measured() {
        use animbin_core::math::Quat;
        use animbin_core::scene::{Animation, BoneTrack, Key, PropertyTrack};
        let keys = |n: usize| (0..n).map(|i| Key::new(i as f64, Quat::new(0.0, 0.0, 0.6, 0.8)));
        let scene = Scene {
            meshes: vec![mesh(300, Vec3::new(0.0, 0.0, 1.0))],
            animations: vec![Animation {
                name: "walk \"fast\" \u{e9}".into(),
                framerate: 30.0,
                bones: vec![BoneTrack {
                    bone: "b".into(),
                    rotation: keys(9000).collect(),
                    ..BoneTrack::default()
                }],
                properties: vec![PropertyTrack {
                    node: "n".into(),
                    property: "p".into(),
                    format: "animx".into(),
                    data: (0..=255).collect(),
                }],
                ..Animation::default()
            }],
            ..Scene::default()
        };
        for container in [Container::Glb, Container::Gltf] {
            let options = SceneOptions::default();
            let encoded = encode_owned(
                scene.clone(),
                container,
                &options,
                &ImageFiles::default(),
                &mut ConversionReport::default(),
            )
            .unwrap();
            let mut written = Vec::new();
            encoded.write(&mut written).unwrap();
            assert_eq!(written.len(), encoded.len(), "{container:?}");
            assert_eq!(encoded.to_bytes(), written, "{container:?}");
            let json = match container {
                Container::Glb => Glb::parse(&written).unwrap().json.to_vec(),
                Container::Gltf => written.clone(),
            };
            let padded = match container {
                Container::Glb => encoded.json.len.next_multiple_of(4),
                Container::Gltf => encoded.json.len,
            };
            assert_eq!(json.len(), padded, "{container:?}");
            let text = String::from_utf8(json).unwrap();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(text.trim_end(), serde_json::to_string(&value).unwrap(), "{container:?}");
            let borrowed = to_bytes(&scene, container, &options, &mut ConversionReport::default()).unwrap();
            assert_eq!(encoded.into_bytes(), written, "{container:?}");
            assert_eq!(borrowed, written, "{container:?}");
        }
    }

    #[test]
    fn values_of_long_channels_in_order_are_made_when_written() {
        use animbin_core::math::Quat;
        use animbin_core::scene::{Animation, BoneTrack, Key};
        let track = |bone: &str, keys: usize| BoneTrack {
            bone: bone.into(),
            translation: (0..keys)
                .map(|i| Key::new(i as f64, Vec3::new(1.0, 2.0, 3.0)))
                .collect(),
            rotation: (0..keys)
                .map(|i| Key::new(i as f64, Quat::new(0.0, 0.0, 0.0, 1.0)))
                .collect(),
            scale: Vec::new().into(),
            ..BoneTrack::default()
        };
        let mut reversed = track("b", 8000);
        reversed.rotation = reversed.rotation.iter().rev().collect();
        let scene = Scene {
            animations: vec![Animation {
                framerate: 30.0,
                // 8000 keys take 96,000 and 128,000 bytes; 100 keys share a piece.
                bones: vec![track("a", 8000), reversed, track("c", 100)],
                ..Animation::default()
            }],
            ..Scene::default()
        };
        let encoded = encoded(scene, &SceneOptions::default());
        let produced = encoded.bin.as_ref().map(BinPieces::produced_pieces).unwrap_or_default();
        assert_eq!(produced, [8000 * 12, 8000 * 16, 8000 * 12]);
    }

    #[test]
    fn large_arrays_glb_stores_as_they_are_are_written_from_the_kept_scene() {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.resize(100_000, 1);
        let scene = Scene {
            // u16 indices are narrowed, so only the first mesh's faces are kept; the second
            // mesh's normals are not unit length, so they are made so.
            meshes: vec![
                mesh(70_000, Vec3::new(0.0, 0.0, 1.0)),
                mesh(30_000, Vec3::new(0.0, 2.0, 0.0)),
            ],
            textures: vec![Texture {
                name: "t.png".into(),
                data: png,
                mime_type: String::new(),
            }],
            ..Scene::default()
        };
        let arrays = kept_arrays(scene.clone(), &SceneOptions::default());
        let expected = [
            SceneArray::Texture { index: 0 },
            SceneArray::Positions { mesh: 0 },
            SceneArray::Normals { mesh: 0 },
            SceneArray::Uvs { mesh: 0, layer: 0 },
            SceneArray::Colors { mesh: 0, set: 0 },
            SceneArray::Faces { mesh: 0 },
            SceneArray::Positions { mesh: 1 },
            SceneArray::Uvs { mesh: 1, layer: 0 },
            SceneArray::Colors { mesh: 1, set: 0 },
        ];
        assert_eq!(arrays, expected);
        // A scaled scene is a copy: nothing of it is kept but what scaling leaves alone.
        let scaled = SceneOptions {
            unit_scale: 2.0,
            ..SceneOptions::default()
        };
        assert!(kept_arrays(scene, &scaled).is_empty());
    }
}
