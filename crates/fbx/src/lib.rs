//! # animbin-fbx
//!
//! Writes binary **FBX** (7.4, and 7.5 with 64-bit offsets) from animbin's scene graph, and
//! reads FBX files back into it through [ufbx](https://github.com/ufbx/ufbx) (the `ufbx`
//! feature, on by default; it builds a C library, which wasm32 cannot, so there FBX files
//! are summarised and validated but not read into a scene).
//!
//! ## What an FBX from animbin holds
//! - `GlobalSettings`: `UpAxis` (Y, or Z with [`WriteOptions::z_up`]), `UnitScaleFactor`
//!   (centimetres per unit: 100 times [`WriteOptions::unit_scale`]), `TimeMode` (and
//!   `CustomFrameRate`) from the first animation's frame rate.
//! - One `Model` per node: `LimbNode` for a bone, `Null` for a plain node, with a
//!   `NodeAttribute` of the same kind, `Lcl Translation`, `Lcl Rotation` (degrees, order XYZ)
//!   and `Lcl Scaling`, and `InheritType` 2 for a bone that does not inherit its parent's
//!   scale (Cast's `ssc`). No leaf bones are added.
//! - One `Geometry` per mesh under a `Model` of its own: `Vertices`, `PolygonVertexIndex`
//!   (triangles), normals by vertex, every UV set (V flipped: FBX's grows upwards) and every
//!   colour layer by polygon vertex, and the material as a layer element.
//! - `Material` (phong, diffuse colour and opacity) with a `Texture` per diffuse, normal and
//!   specular map, and a `Video` whose `Content` is the image where the scene embeds it.
//! - A `Skin` deformer per skinned mesh with one `Cluster` per weighted bone (`Indexes`,
//!   `Weights`, `TransformLink` = the bone's model-space rest matrix, `Transform` = what
//!   takes the mesh into the bone's space: the skin's inverse bind matrix exactly where the
//!   scene has one, `TransformAssociateModel` = the rest matrix of the node holding the
//!   bones), and a `BindPose` of the rest matrices (for a skeleton without a mesh too).
//! - Cameras and lights on `Model`s of their own (`Camera`, `Light`) under the node that
//!   places them, turned from FBX's axes to the scene's by their own rotation.
//! - Morph targets as a `BlendShape` with a `BlendShapeChannel` (`DeformPercent`) and a
//!   `Shape` (`Indexes`, `Vertices`, `Normals` offsets) each.
//! - One `AnimationStack` per animation, named as it, with one `AnimationLayer` and curve
//!   nodes `T`, `R`, `S` (and `DeformPercent` for weights) whose curves are keyed in FBX
//!   ticks (46,186,158,000 a second). Every animation kind is written as the absolute keys
//!   that play. Rotations become Euler keys without flips between keys, with keys added
//!   where linear Euler interpolation would leave the source's slerp by more than 1e-4 rad
//!   ([`euler`]; [`WriteOptions::exact_rotation_keys`] keeps only the source's).
//!
//! ## The pieces
//! - arrays of [`node::COMPRESS_FROM`] bytes or more are zlib streams of Huffman-coded
//!   bytes, written by the crate (old ufbx, in Blender's `wm.fbx_import`, rejects
//!   miniz_oxide's).
//! - [`node`]: the binary container, written by [`node::write_nodes`] and read strictly by
//!   [`node::parse`] (every count checked against the bytes left, nesting bounded, each
//!   compressed array's size checked against what its bytes can inflate to).
//! - [`export`]: scene -> records; [`to_bytes`] and [`to_bytes_with`] write a file.
//! - [`to_scene`]: file -> scene (the `ufbx` feature).
//! - [`FbxFile`] and its [`FileFormat`](animbin_core::FileFormat), which the `animbin`
//!   library's table of formats uses; [`Summary`] and [`validate()`] read only the records.
//!
//! ```
//! use animbin_core::math::{Quat, Transform, Vec3};
//! use animbin_core::scene::{Animation, Bone, BoneTrack, ConversionReport, Key, Keys, Scene};
//!
//! let mut scene = Scene::default();
//! scene.skeleton.bones.push(Bone {
//!     name: "root".into(),
//!     parent: None,
//!     local: Transform::IDENTITY,
//!     global: Transform::IDENTITY,
//!     cosmetic: false,
//!     scale_compensate: false,
//!     rest_scale: Vec3::ONE,
//!     kind: Default::default(),
//! });
//! let mut rotation = Keys::default();
//! rotation.push(Key::new(0.0, Quat::IDENTITY));
//! rotation.push(Key::new(10.0, Quat::new(0.0, 0.0, 1.0, 0.0)));
//! scene.animations.push(Animation {
//!     name: "turn".into(),
//!     frame_count: 11.0,
//!     bones: vec![BoneTrack { bone: "root".into(), rotation, ..BoneTrack::default() }],
//!     ..Animation::default()
//! });
//! let bytes = animbin_fbx::to_bytes(&scene, &mut ConversionReport::default())?;
//! assert!(bytes.starts_with(animbin_fbx::MAGIC));
//! let summary = animbin_fbx::Summary::of(&animbin_fbx::node::parse(&bytes)?);
//! assert_eq!((summary.bone_count, summary.animations.clone()), (1, vec!["turn".to_string()]));
//! # Ok::<(), animbin_fbx::Error>(())
//! ```

mod deflate;
pub mod error;
pub mod euler;
pub mod export;
mod format;
#[cfg(feature = "ufbx")]
mod import;
pub mod node;
mod summary;
mod validate;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

pub use error::{Error, Result};
pub use export::WriteOptions;
pub use node::MAGIC;
pub use summary::Summary;
pub use validate::validate;

/// An FBX file: its bytes, checked to parse as binary FBX records.
///
/// Its [`FileFormat`](animbin_core::FileFormat) implementation is the one the `animbin`
/// library's table of formats uses.
#[derive(Clone, PartialEq, Eq)]
pub struct FbxFile {
    /// The whole file.
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for FbxFile {
    // The bytes can be megabytes: their length says enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FbxFile")
            .field("bytes", &format_args!("[{} bytes]", self.bytes.len()))
            .finish()
    }
}

/// `scene` as a binary FBX 7.4 file with the default [`WriteOptions`], recording in
/// `report` what FBX does not hold of it.
pub fn to_bytes(scene: &Scene, report: &mut ConversionReport) -> Result<Vec<u8>> {
    to_bytes_with(scene, &WriteOptions::default(), report)
}

/// `scene` as a binary FBX file with `options`; a 7.4 file whose offsets would pass 4 GiB
/// is written as 7.5.
pub fn to_bytes_with(scene: &Scene, options: &WriteOptions, report: &mut ConversionReport) -> Result<Vec<u8>> {
    let mut document = export::build(scene, options, report)?;
    match node::write_nodes(&document) {
        Err(_) if document.version < 7500 => {
            document.version = 7500;
            node::write_nodes(&document)
        }
        written => written,
    }
}

/// Reads an FBX file (binary or ASCII, any version ufbx reads) into a scene, converted to
/// the up axis (`z_up`) and unit (`unit_scale`, metres per unit) of `options`, recording in
/// `report` what the scene does not take of it.
#[cfg(feature = "ufbx")]
pub fn to_scene(bytes: &[u8], options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
    import::to_scene(bytes, options, report)
}

/// Without the `ufbx` feature (wasm32), FBX files are not read into a scene: an error that
/// says so.
#[cfg(not(feature = "ufbx"))]
pub fn to_scene(_: &[u8], _: &SceneOptions, _: &mut ConversionReport) -> Result<Scene> {
    Err(Error::new(
        error::FORMAT,
        0,
        animbin_core::ErrorKind::invalid(
            "an FBX reader (this build of animbin has none: the ufbx C library does not build for wasm32), \
             so FBX files are summarised and validated here but not converted",
            "an FBX file",
        ),
    ))
}
