//! The scene model as the Python classes of `animbin._scene`, and back.
//!
//! Going out, every array is built once from the scene's vectors and handed to NumPy,
//! which owns it from then on (so it outlives the document). Coming in, the Python side
//! has already checked shapes and converted dtypes (`_to_native`); this side checks them
//! again, so that a hand-made dict can never index past an array.

use animbin::core::math::{Quat, Rgba, Transform, Vec2, Vec3};
use animbin::core::scene::{
    AnimKind, Animation, Bone, BoneTrack, ChannelKinds, ConversionReport, Interpolation, Material, Mesh, NodeKind,
    Note, PropertyTrack, Scene, Skeleton, SkinBlend, SkinWeights, Texture,
};
use numpy::{Element, PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use zerocopy::{FromBytes, Immutable, IntoBytes};

use crate::scene_keys::KeyDtype;

/// The Python classes, imported once.
struct Classes {
    scene: Py<PyAny>,
    skeleton: Py<PyAny>,
    mesh: Py<PyAny>,
    material: Py<PyAny>,
    texture: Py<PyAny>,
    animation: Py<PyAny>,
    bone_track: Py<PyAny>,
    property_track: Py<PyAny>,
    morph_target: Py<PyAny>,
    weight_track: Py<PyAny>,
    hair: Py<PyAny>,
    instance: Py<PyAny>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get_or_try_init(py, || {
        let module = py.import("animbin._scene")?;
        let get = |name: &str| -> PyResult<Py<PyAny>> { Ok(module.getattr(name)?.unbind()) };
        Ok(Classes {
            scene: get("Scene")?,
            skeleton: get("Skeleton")?,
            mesh: get("Mesh")?,
            material: get("Material")?,
            texture: get("Texture")?,
            animation: get("Animation")?,
            bone_track: get("BoneTrack")?,
            property_track: get("PropertyTrack")?,
            morph_target: get("MorphTarget")?,
            weight_track: get("WeightTrack")?,
            hair: get("Hair")?,
            instance: get("Instance")?,
        })
    })
}

/// `cls._from_native(fields)`.
pub(crate) fn make<'py>(cls: &Py<PyAny>, fields: Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
    cls.bind(fields.py()).call_method1("_from_native", (fields,))
}

/// A `rows` x `cols` array owning `flat` (no copy: NumPy takes the vector).
pub(crate) fn array2<'py, T: Element>(
    py: Python<'py>,
    flat: Vec<T>,
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, flat).reshape([rows, cols])?.into_any())
}

/// A `rows` x `cols` array copied from `flat` in one go.
pub(crate) fn slice2<'py, T: Element>(
    py: Python<'py>,
    flat: &[T],
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_slice(py, flat).reshape([rows, cols])?.into_any())
}

/// The scalars of `rows` in one vector, allocated once.
fn flatten<T, const N: usize>(rows: impl ExactSizeIterator<Item = [T; N]>) -> Vec<T> {
    let mut flat = Vec::with_capacity(rows.len() * N);
    for row in rows {
        flat.extend(row);
    }
    flat
}

/// An (n, `cols`) array of the scalars `S` of a `#[repr(C)]` vector type `V` (`Vec3<f32>`,
/// `Rgba<u8>`), copied as one block; `row` lists a vector's scalars for the copy made one by
/// one, should the vectors ever not view as scalars (a layout the math types rule out).
fn vectors<'py, V, S>(
    py: Python<'py>,
    values: &[V],
    cols: usize,
    row: impl Fn(&V) -> Vec<S>,
) -> PyResult<Bound<'py, PyAny>>
where
    V: IntoBytes + Immutable,
    S: Element + FromBytes + Immutable,
{
    match <[S]>::ref_from_bytes(values.as_bytes()) {
        Ok(flat) if flat.len() == values.len() * cols => slice2(py, flat, values.len(), cols),
        _ => array2(py, values.iter().flat_map(row).collect(), values.len(), cols),
    }
}

/// `d[name]`: the list of what `to_python` makes of each of `items`.
fn set_list<'py, T>(
    d: &Bound<'py, PyDict>,
    name: &str,
    items: impl IntoIterator<Item = T>,
    to_python: impl FnMut(T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let list = items.into_iter().map(to_python).collect::<PyResult<Vec<_>>>()?;
    d.set_item(name, list)
}

pub(crate) fn vec3s_f32<'py>(py: Python<'py>, values: &[Vec3<f32>]) -> PyResult<Bound<'py, PyAny>> {
    vectors(py, values, 3, |v| vec![v.x, v.y, v.z])
}

/// The scene as an `animbin.Scene`, with `lost` from `report` and key values of the dtype
/// `keys` says (`scene_keys`). The scene is consumed: its vectors of plain scalars (faces,
/// skin weights) become NumPy's without a copy.
pub(crate) fn to_python<'py>(
    py: Python<'py>,
    scene: Scene,
    report: &ConversionReport,
    keys: KeyDtype,
) -> PyResult<Bound<'py, PyAny>> {
    let classes = classes(py)?;
    let fields = PyDict::new(py);
    let skeleton = if scene.skeleton.bones.is_empty() {
        py.None().into_bound(py)
    } else {
        skeleton_to_python(py, classes, &scene.skeleton)?
    };
    fields.set_item("skeleton", skeleton)?;
    set_list(&fields, "meshes", scene.meshes, |m| mesh_to_python(py, classes, m))?;
    set_list(&fields, "materials", &scene.materials, |m| {
        material_to_python(py, classes, m)
    })?;
    set_list(&fields, "textures", &scene.textures, |t| {
        let d = PyDict::new(py);
        d.set_item("name", &t.name)?;
        d.set_item("png", PyBytes::new(py, &t.data))?;
        d.set_item("mime_type", &t.mime_type)?;
        make(&classes.texture, d)
    })?;
    set_list(&fields, "animations", scene.animations, |a| {
        animation_to_python(py, classes, a, keys)
    })?;
    set_list(&fields, "hairs", scene.hairs, |h| {
        crate::scene_hair::hair_to_python(py, &classes.hair, h)
    })?;
    set_list(&fields, "instances", scene.instances, |i| {
        crate::scene_hair::instance_to_python(py, &classes.instance, i)
    })?;
    crate::scene_graph::graph_to_python(
        &fields,
        &scene.mesh_instances,
        &scene.skins,
        &scene.cameras,
        &scene.lights,
    )?;
    fields.set_item("placement", placement_to_python(py, scene.placement)?)?;
    fields.set_item("name", &scene.name)?;
    fields.set_item("lost", &report.lost)?;
    make(&classes.scene, fields)
}

/// A placement as the (translation (3,), rotation (4,) x y z w, scale (3,)) `f64` arrays of
/// `Scene.placement` and `Instance.placement`.
pub(crate) fn placement_to_python(py: Python<'_>, p: Transform) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(
        py,
        [
            PyArray1::from_vec(py, vec![p.translation.x, p.translation.y, p.translation.z]),
            PyArray1::from_vec(py, vec![p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w]),
            PyArray1::from_vec(py, vec![p.scale.x, p.scale.y, p.scale.z]),
        ],
    )
}

/// The placement a `_placement()` tuple describes; `what` names the field in errors.
pub(crate) fn placement_from_python(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Transform> {
    let (t, r, s): (Vec<f64>, Vec<f64>, Vec<f64>) = value
        .extract()
        .map_err(|e: PyErr| PyValueError::new_err(format!("{what}: {e}")))?;
    match (&t[..], &r[..], &s[..]) {
        (&[tx, ty, tz], &[rx, ry, rz, rw], &[sx, sy, sz]) => Ok(Transform {
            translation: Vec3::new(tx, ty, tz),
            rotation: Quat::new(rx, ry, rz, rw),
            scale: Vec3::new(sx, sy, sz),
        }),
        _ => Err(PyValueError::new_err(format!(
            "{what}: expected (translation (3,), rotation (4,) x y z w, scale (3,))"
        ))),
    }
}

/// Translations, rotations and scales of transforms as (N, 3), (N, 4) and (N, 3) `f32`.
fn transforms_to_python<'py>(
    py: Python<'py>,
    transforms: impl ExactSizeIterator<Item = Transform> + Clone,
    n: usize,
) -> PyResult<[Bound<'py, PyAny>; 3]> {
    let t = flatten(
        transforms
            .clone()
            .map(|t| [t.translation.x, t.translation.y, t.translation.z].map(|v| v as f32)),
    );
    let r = flatten(
        transforms
            .clone()
            .map(|t| [t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w].map(|v| v as f32)),
    );
    let s = flatten(transforms.map(|t| [t.scale.x, t.scale.y, t.scale.z].map(|v| v as f32)));
    Ok([array2(py, t, n, 3)?, array2(py, r, n, 4)?, array2(py, s, n, 3)?])
}

fn skeleton_to_python<'py>(py: Python<'py>, classes: &Classes, skeleton: &Skeleton) -> PyResult<Bound<'py, PyAny>> {
    let bones = &skeleton.bones;
    let n = bones.len();
    let d = PyDict::new(py);
    let names: Vec<&str> = bones.iter().map(|b| b.name.as_str()).collect();
    d.set_item("names", names)?;
    // A parent past i32 (impossible for a list that fits in memory) reads as a root.
    let parents: Vec<i32> = bones
        .iter()
        .map(|b| b.parent.and_then(|p| i32::try_from(p).ok()).unwrap_or(-1))
        .collect();
    d.set_item("parents", PyArray1::from_vec(py, parents))?;
    // The local bind poses, then the global ones, under the names `transforms_from_python` reads.
    for (prefix, global) in [("", false), ("global_", true)] {
        let transforms = bones.iter().map(|b| if global { b.global } else { b.local });
        let arrays = transforms_to_python(py, transforms, n)?;
        for (name, array) in ["translations", "rotations", "scales"].into_iter().zip(arrays) {
            d.set_item(format!("{prefix}{name}"), array)?;
        }
    }
    let cosmetic: Vec<bool> = bones.iter().map(|b| b.cosmetic).collect();
    d.set_item("cosmetic", PyArray1::from_vec(py, cosmetic))?;
    let plain: Vec<bool> = bones.iter().map(|b| !b.kind.is_bone()).collect();
    d.set_item("plain", PyArray1::from_vec(py, plain))?;
    let compensate: Vec<bool> = bones.iter().map(|b| b.scale_compensate).collect();
    d.set_item("scale_compensate", PyArray1::from_vec(py, compensate))?;
    let rest_scale = flatten(bones.iter().map(|b| [b.rest_scale.x, b.rest_scale.y, b.rest_scale.z]));
    d.set_item("rest_scale", array2(py, rest_scale, n, 3)?)?;
    crate::scene_rig::rig_to_python(&d, skeleton)?;
    make(&classes.skeleton, d)
}

fn mesh_to_python<'py>(py: Python<'py>, classes: &Classes, mesh: Mesh) -> PyResult<Bound<'py, PyAny>> {
    // Each vector is freed as soon as its copy is made, so the next copy can reuse its memory.
    let Mesh {
        name,
        positions,
        normals,
        uv_layers,
        colors,
        extra_color_layers,
        skin,
        faces,
        materials,
        morph_targets,
    } = mesh;
    let d = PyDict::new(py);
    let v = positions.len();
    d.set_item("name", &name)?;
    d.set_item("positions", vec3s_f32(py, &positions)?)?;
    drop(positions);
    let normals = if normals.is_empty() {
        py.None().into_bound(py)
    } else {
        vec3s_f32(py, &normals)?
    };
    d.set_item("normals", normals)?;
    let mut layers = Vec::with_capacity(uv_layers.len());
    for layer in uv_layers {
        layers.push(vectors(py, &layer, 2, |uv| vec![uv.x, uv.y])?);
    }
    d.set_item("uv_layers", layers)?;
    let mut color_layers = Vec::with_capacity(1 + extra_color_layers.len());
    if !colors.is_empty() {
        color_layers.push(vectors(py, &colors, 4, |c| vec![c.r, c.g, c.b, c.a])?);
    }
    drop(colors);
    for layer in extra_color_layers {
        color_layers.push(vectors(py, &layer, 4, |c| vec![c.r, c.g, c.b, c.a])?);
    }
    d.set_item("color_layers", color_layers)?;
    let face_count = faces.len();
    d.set_item("faces", array2(py, faces.into_flattened(), face_count, 3)?)?;
    match skin {
        Some(skin) => {
            // The scene holds `influences` entries per vertex; anything else is a reader's
            // bug, reported rather than padded (padding could allocate far past the file).
            let k = skin.influences;
            if skin.bones.len() != v.saturating_mul(k) || skin.weights.len() != skin.bones.len() {
                return Err(crate::errors::raise(
                    py,
                    format!(
                        "mesh {:?}: the scene's skin holds {} bone indices and {} weights for {v} vertices of {k} influences",
                        name,
                        skin.bones.len(),
                        skin.weights.len()
                    ),
                    None,
                    None,
                    None,
                ));
            }
            d.set_item("bone_indices", array2(py, skin.bones, v, k)?)?;
            d.set_item("bone_weights", array2(py, skin.weights, v, k)?)?;
            d.set_item("skin_blend", skin.blend.name())?;
            d.set_item("skin", skin.skin)?;
        }
        None => {
            d.set_item("bone_indices", py.None())?;
            d.set_item("bone_weights", py.None())?;
            d.set_item("skin_blend", SkinBlend::Linear.name())?;
            d.set_item("skin", py.None())?;
        }
    }
    d.set_item("materials", materials)?;
    set_list(&d, "morph_targets", morph_targets, |t| {
        crate::scene_morph::target_to_python(py, &classes.morph_target, t)
    })?;
    make(&classes.mesh, d)
}

fn material_to_python<'py>(py: Python<'py>, classes: &Classes, material: &Material) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("name", &material.name)?;
    let textures = PyDict::new(py);
    for (slot, map) in [
        ("diffuse", &material.diffuse_map),
        ("normal", &material.normal_map),
        ("specular", &material.specular_map),
    ] {
        if let Some(map) = map {
            textures.set_item(slot, map)?;
        }
    }
    d.set_item("textures", textures)?;
    d.set_item("texture", material.texture)?;
    let color = material.base_color.map(|c| (c.r, c.g, c.b, c.a));
    d.set_item("base_color", color)?;
    crate::scene_graph::material_graph_to_python(&d, &material.links, material.surface.as_ref())?;
    make(&classes.material, d)
}

/// An `animbin.Animation`; each track's keys are freed as soon as their arrays are made, so
/// the allocator hands that memory to the next track's arrays instead of asking the kernel
/// for fresh pages.
fn animation_to_python<'py>(
    py: Python<'py>,
    classes: &Classes,
    animation: Animation,
    keys: KeyDtype,
) -> PyResult<Bound<'py, PyAny>> {
    let single = keys.single_for(&animation);
    let d = PyDict::new(py);
    d.set_item("name", &animation.name)?;
    d.set_item("framerate", animation.framerate)?;
    d.set_item("frame_count", animation.frame_count)?;
    d.set_item("looping", animation.looping)?;
    d.set_item("kind", animation.kind.name())?;
    d.set_item(
        "interpolation",
        match animation.interpolation {
            Interpolation::Linear => "linear",
            Interpolation::Step => "step",
        },
    )?;
    let notes: Vec<(f64, &str)> = animation.notes.iter().map(|n| (n.frame, n.name.as_str())).collect();
    d.set_item("notes", notes)?;
    set_list(&d, "tracks", animation.bones, |t| {
        track_to_python(py, classes, t, single)
    })?;
    set_list(&d, "properties", &animation.properties, |p| {
        let pd = PyDict::new(py);
        pd.set_item("node", &p.node)?;
        pd.set_item("property", &p.property)?;
        pd.set_item("format", &p.format)?;
        pd.set_item("data", PyBytes::new(py, &p.data))?;
        make(&classes.property_track, pd)
    })?;
    set_list(&d, "weights", animation.weights, |t| {
        crate::scene_morph::weights_to_python(py, &classes.weight_track, t)
    })?;
    make(&classes.animation, d)
}

/// Per-channel kinds as a dict of the channels that have one: `{"rotation": "additive"}`.
fn channel_kinds_to_python<'py>(py: Python<'py>, kinds: &ChannelKinds) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, kind) in [
        ("translation", kinds.translation),
        ("rotation", kinds.rotation),
        ("scale", kinds.scale),
    ] {
        if let Some(kind) = kind {
            d.set_item(name, kind.name())?;
        }
    }
    Ok(d)
}

/// The inverse of [`channel_kinds_to_python`]; `what` names the field in errors.
fn channel_kinds_from_python(d: &Bound<'_, PyDict>, what: &str) -> PyResult<ChannelKinds> {
    let mut kinds = ChannelKinds::NONE;
    for (key, value) in d.iter() {
        let key: String = key.extract()?;
        let value: String = value.extract()?;
        let kind: AnimKind = value
            .parse()
            .map_err(|e: String| PyValueError::new_err(format!("{what}[{key:?}]: {e}")))?;
        let slot = match key.as_str() {
            "translation" => &mut kinds.translation,
            "rotation" => &mut kinds.rotation,
            "scale" => &mut kinds.scale,
            other => {
                return Err(PyValueError::new_err(format!(
                    "{what}: unknown channel {other:?}; the channels are translation, rotation, scale"
                )));
            }
        };
        *slot = Some(kind);
    }
    Ok(kinds)
}

/// An `animbin.BoneTrack`, its key values `float32` when `single`.
fn track_to_python<'py>(
    py: Python<'py>,
    classes: &Classes,
    track: BoneTrack,
    single: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("bone", &track.bone)?;
    d.set_item("kind", track.kind_override.map(AnimKind::name))?;
    d.set_item("channel_kinds", channel_kinds_to_python(py, &track.channel_kinds)?)?;
    d.set_item(
        "channel_overrides",
        channel_kinds_to_python(py, &track.channel_overrides)?,
    )?;
    d.set_item("cosmetic", track.cosmetic)?;
    d.set_item("curves", crate::scene_graph::curves_to_python(py, &track.curves)?)?;
    crate::scene_keys::set_keys(&d, &track, single)?;
    make(&classes.bone_track, d)
}

// ---------------------------------------------------------------------------------------
// Python to Rust.

/// A field of a `_to_native` dict; a missing one is a `ValueError` naming it.
pub(crate) fn field<'py>(d: &Bound<'py, PyDict>, what: &str, name: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(name)?
        .ok_or_else(|| PyValueError::new_err(format!("{what}: the field {name} is missing")))
}

pub(crate) fn get<'py, T: for<'a> FromPyObject<'a, 'py, Error = PyErr>>(
    d: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
) -> PyResult<T> {
    field(d, what, name)?
        .extract()
        .map_err(|e: PyErr| PyValueError::new_err(format!("{what}.{name}: {e}")))
}

/// A `bytes` field as a vector (one copy, not an element-by-element extraction).
fn bytes(d: &Bound<'_, PyDict>, what: &str, name: &str) -> PyResult<Vec<u8>> {
    let value = field(d, what, name)?;
    let bytes = value
        .cast::<PyBytes>()
        .map_err(|_| PyValueError::new_err(format!("{what}.{name}: expected bytes")))?;
    Ok(bytes.as_bytes().to_vec())
}

/// A list field.
fn list<'py>(d: &Bound<'py, PyDict>, what: &str, name: &str) -> PyResult<Bound<'py, PyList>> {
    field(d, what, name)?
        .cast_into::<PyList>()
        .map_err(|_| PyValueError::new_err(format!("{what}.{name}: expected a list")))
}

fn dicts<'py>(d: &Bound<'py, PyDict>, what: &str, name: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
    list(d, what, name)?
        .iter()
        .map(|item| {
            item.cast_into::<PyDict>()
                .map_err(|_| PyValueError::new_err(format!("{what}.{name}: expected a list of dicts")))
        })
        .collect()
}

/// What `from_python` makes of each dict of the list field `name`.
fn list_from<'py, T>(
    d: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
    from_python: impl FnMut(&Bound<'py, PyDict>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    dicts(d, what, name)?.iter().map(from_python).collect()
}

/// A C-contiguous (n, cols) array of `T` as its rows, read through `row`.
fn rows_of<T: Element, R>(
    array: &PyReadonlyArray2<'_, T>,
    what: &str,
    name: &str,
    cols: usize,
    row: impl Fn(&[T]) -> R,
) -> PyResult<Vec<R>> {
    let shape = array.shape();
    if shape[1] != cols {
        return Err(PyValueError::new_err(format!(
            "{what}.{name}: expected {cols} columns, got {}",
            shape[1]
        )));
    }
    let flat = array
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("{what}.{name}: {e}")))?;
    Ok(flat.chunks_exact(cols).map(row).collect())
}

/// The field `name` of `d`, read as [`rows_of`] reads an array.
pub(crate) fn rows<'py, T: Element + 'static, R>(
    d: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
    cols: usize,
    row: impl Fn(&[T]) -> R,
) -> PyResult<Vec<R>> {
    rows_of(&get::<PyReadonlyArray2<'py, T>>(d, what, name)?, what, name, cols, row)
}

/// Each array of the list field `name`, read as [`rows_of`] reads an array.
fn layers<'py, T: Element + 'static, R>(
    d: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
    cols: usize,
    row: impl Fn(&[T]) -> R + Copy,
) -> PyResult<Vec<Vec<R>>> {
    list(d, what, name)?
        .iter()
        .map(|item| {
            let array: PyReadonlyArray2<'py, T> = item
                .extract()
                .map_err(|e: PyErr| PyValueError::new_err(format!("{what}.{name}: {e}")))?;
            rows_of(&array, what, name, cols, row)
        })
        .collect()
}

/// A C-contiguous 1-D array of `T` as a vector.
pub(crate) fn vector<'py, T: Element + Copy + 'static>(
    d: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
) -> PyResult<Vec<T>> {
    let array: PyReadonlyArray1<'py, T> = get(d, what, name)?;
    Ok(array
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("{what}.{name}: {e}")))?
        .to_vec())
}

pub(crate) fn expect_len(what: &str, name: &str, got: usize, want: usize, of: &str) -> PyResult<()> {
    if got == want {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{what}.{name}: {got} rows, but {of} is {want}"
        )))
    }
}

/// The scene a `Scene._to_native()` dict describes.
pub(crate) fn from_python(d: &Bound<'_, PyDict>) -> PyResult<Scene> {
    let skeleton = match field(d, "Scene", "skeleton")? {
        s if s.is_none() => Skeleton::default(),
        s => skeleton_from_python(
            &s.cast_into::<PyDict>()
                .map_err(|_| PyValueError::new_err("Scene.skeleton: expected a dict"))?,
        )?,
    };
    let meshes = list_from(d, "Scene", "meshes", mesh_from_python)?;
    let materials = list_from(d, "Scene", "materials", material_from_python)?;
    let textures = list_from(d, "Scene", "textures", |t| {
        Ok(Texture {
            name: get(t, "Texture", "name")?,
            data: bytes(t, "Texture", "png")?,
            mime_type: crate::scene_rig::opt(t, "Texture", "mime_type")?.unwrap_or_default(),
        })
    })?;
    let animations = list_from(d, "Scene", "animations", animation_from_python)?;
    let placement = placement_from_python(&field(d, "Scene", "placement")?, "Scene.placement")?;
    let hairs = list_from(d, "Scene", "hairs", crate::scene_hair::hair_from_python)?;
    let instances = list_from(d, "Scene", "instances", crate::scene_hair::instance_from_python)?;
    let (mesh_instances, skins, cameras, lights) = crate::scene_graph::graph_from_python(d)?;
    Ok(Scene {
        cameras,
        lights,
        mesh_instances,
        skins,
        placement,
        skeleton,
        meshes,
        materials,
        textures,
        animations,
        name: match d.get_item("name")? {
            Some(name) if !name.is_none() => name
                .extract()
                .map_err(|e| PyValueError::new_err(format!("Scene.name: {e}")))?,
            _ => String::new(),
        },
        hairs,
        instances,
    })
}

/// Transforms from the (n, 3), (n, 4) and (n, 3) `f32` arrays `{prefix}translations`,
/// `{prefix}rotations` and `{prefix}scales` of `d`.
fn transforms_from_python(d: &Bound<'_, PyDict>, prefix: &str, n: usize) -> PyResult<Vec<Transform>> {
    let names = ["translations", "rotations", "scales"].map(|name| format!("{prefix}{name}"));
    let [t, r, s] = [&names[0], &names[1], &names[2]].map(|name| get::<PyReadonlyArray2<'_, f32>>(d, "Skeleton", name));
    transforms_from_arrays(&t?, &r?, &s?, &names, n)
}

/// Transforms from (n, 3) translations, (n, 4) rotations and (n, 3) scales, named by
/// `names` in errors.
fn transforms_from_arrays(
    t: &PyReadonlyArray2<'_, f32>,
    r: &PyReadonlyArray2<'_, f32>,
    s: &PyReadonlyArray2<'_, f32>,
    names: &[String; 3],
    n: usize,
) -> PyResult<Vec<Transform>> {
    let what = "Skeleton";
    let vec3 = |r: &[f32]| Vec3::new(f64::from(r[0]), f64::from(r[1]), f64::from(r[2]));
    let t = rows_of(t, what, &names[0], 3, vec3)?;
    let r = rows_of(r, what, &names[1], 4, |r: &[f32]| {
        Quat::new(f64::from(r[0]), f64::from(r[1]), f64::from(r[2]), f64::from(r[3]))
    })?;
    let s = rows_of(s, what, &names[2], 3, vec3)?;
    for (name, len) in names.iter().zip([t.len(), r.len(), s.len()]) {
        expect_len(what, name, len, n, "the bone count")?;
    }
    Ok(t.into_iter()
        .zip(r)
        .zip(s)
        .map(|((translation, rotation), scale)| Transform {
            translation,
            rotation,
            scale,
        })
        .collect())
}

fn skeleton_from_python(d: &Bound<'_, PyDict>) -> PyResult<Skeleton> {
    let what = "Skeleton";
    let names: Vec<String> = get(d, what, "names")?;
    let n = names.len();
    let parents: Vec<i32> = vector(d, what, "parents")?;
    expect_len(what, "parents", parents.len(), n, "the bone count")?;
    let cosmetic: Vec<bool> = vector(d, what, "cosmetic")?;
    expect_len(what, "cosmetic", cosmetic.len(), n, "the bone count")?;
    let compensate: Vec<bool> = vector(d, what, "scale_compensate")?;
    expect_len(what, "scale_compensate", compensate.len(), n, "the bone count")?;
    // Absent or None: every node is a bone (what every game format holds).
    let plain: Vec<bool> = match d.get_item("plain")?.filter(|v| !v.is_none()) {
        None => vec![false; n],
        Some(_) => vector(d, what, "plain")?,
    };
    expect_len(what, "plain", plain.len(), n, "the bone count")?;
    let local = transforms_from_python(d, "", n)?;
    let global = transforms_from_python(d, "global_", n)?;
    // Absent or None: every bone's rest scale is 1 (what every format but Cast has).
    let rest_scale = match d.get_item("rest_scale")?.filter(|v| !v.is_none()) {
        None => vec![Vec3::ONE; n],
        Some(value) => {
            let array: PyReadonlyArray2<'_, f64> = value
                .extract()
                .map_err(|e: PyErr| PyValueError::new_err(format!("{what}.rest_scale: {e}")))?;
            let rows = rows_of(&array, what, "rest_scale", 3, |r: &[f64]| Vec3::new(r[0], r[1], r[2]))?;
            expect_len(what, "rest_scale", rows.len(), n, "the bone count")?;
            rows
        }
    };
    let bones = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let parent = match parents[i] {
                -1 => None,
                p => Some(usize::try_from(p).map_err(|_| {
                    PyValueError::new_err(format!("Skeleton.parents[{i}]: {p} is neither a bone index nor -1"))
                })?),
            };
            Ok(Bone {
                kind: if plain[i] { NodeKind::Plain } else { NodeKind::Bone },
                scale_compensate: compensate[i],
                rest_scale: rest_scale[i],
                name,
                parent,
                local: local[i],
                global: global[i],
                cosmetic: cosmetic[i],
            })
        })
        .collect::<PyResult<_>>()?;
    let mut skeleton = Skeleton {
        bones,
        ..Default::default()
    };
    crate::scene_rig::rig_from_python(d, &mut skeleton)?;
    Ok(skeleton)
}

fn mesh_from_python(d: &Bound<'_, PyDict>) -> PyResult<Mesh> {
    let what = "Mesh";
    let positions = rows(d, what, "positions", 3, |r: &[f32]| Vec3::new(r[0], r[1], r[2]))?;
    let v = positions.len();
    let normals = if field(d, what, "normals")?.is_none() {
        Vec::new()
    } else {
        let normals = rows(d, what, "normals", 3, |r: &[f32]| Vec3::new(r[0], r[1], r[2]))?;
        expect_len(what, "normals", normals.len(), v, "the vertex count")?;
        normals
    };
    let uv_layers = layers(d, what, "uv_layers", 2, |r: &[f32]| Vec2::new(r[0], r[1]))?;
    for uvs in &uv_layers {
        expect_len(what, "uv_layers", uvs.len(), v, "the vertex count")?;
    }
    let color_layers = layers(d, what, "color_layers", 4, |r: &[u8]| Rgba::new(r[0], r[1], r[2], r[3]))?;
    for colors in &color_layers {
        expect_len(what, "color_layers", colors.len(), v, "the vertex count")?;
    }
    let mut color_layers = color_layers.into_iter();
    let colors = color_layers.next().unwrap_or_default();
    let extra_color_layers: Vec<_> = color_layers.collect();
    let faces = rows(d, what, "faces", 3, |r: &[u32]| [r[0], r[1], r[2]])?;
    let blend_name: String = get(d, what, "skin_blend")?;
    let blend: SkinBlend = blend_name
        .parse()
        .map_err(|e: String| PyValueError::new_err(format!("Mesh.skin_blend: {e}")))?;
    let skin = if field(d, what, "bone_indices")?.is_none() {
        None
    } else {
        let indices: PyReadonlyArray2<'_, u32> = get(d, what, "bone_indices")?;
        let weights: PyReadonlyArray2<'_, f32> = get(d, what, "bone_weights")?;
        let (shape, weight_shape) = (indices.shape(), weights.shape());
        if shape != weight_shape {
            return Err(PyValueError::new_err(format!(
                "Mesh.bone_weights: shape {weight_shape:?} differs from bone_indices' {shape:?}"
            )));
        }
        expect_len(what, "bone_indices", shape[0], v, "the vertex count")?;
        let slice_error = |e: numpy::AsSliceError| PyValueError::new_err(format!("Mesh.bone_indices: {e}"));
        Some(SkinWeights {
            skin: crate::scene_rig::opt(d, what, "skin")?,
            influences: shape[1],
            bones: indices.as_slice().map_err(slice_error)?.to_vec(),
            weights: weights.as_slice().map_err(slice_error)?.to_vec(),
            blend,
        })
    };
    Ok(Mesh {
        name: get(d, what, "name")?,
        positions,
        normals,
        uv_layers,
        colors,
        extra_color_layers,
        skin,
        faces,
        materials: get(d, what, "materials")?,
        morph_targets: list_from(d, what, "morph_targets", crate::scene_morph::target_from_python)?,
    })
}

fn material_from_python(d: &Bound<'_, PyDict>) -> PyResult<Material> {
    let what = "Material";
    let textures = field(d, what, "textures")?;
    let textures = textures
        .cast::<PyDict>()
        .map_err(|_| PyValueError::new_err("Material.textures: expected a dict"))?;
    let slot = |name: &str| -> PyResult<Option<String>> {
        textures
            .get_item(name)?
            .map(|v| v.extract::<String>())
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("Material.textures[{name:?}]: {e}")))
    };
    let base_color: Option<(f32, f32, f32, f32)> = get(d, what, "base_color")?;
    let (links, surface) = crate::scene_graph::material_graph_from_python(d, what)?;
    Ok(Material {
        links,
        surface,
        name: get(d, what, "name")?,
        diffuse_map: slot("diffuse")?,
        normal_map: slot("normal")?,
        specular_map: slot("specular")?,
        texture: get(d, what, "texture")?,
        base_color: base_color.map(|(r, g, b, a)| Rgba::new(r, g, b, a)),
    })
}

fn animation_from_python(d: &Bound<'_, PyDict>) -> PyResult<Animation> {
    let what = "Animation";
    let kind: String = get(d, what, "kind")?;
    let interpolation: String = get(d, what, "interpolation")?;
    let notes: Vec<(f64, String)> = get(d, what, "notes")?;
    let bones = list_from(d, what, "tracks", track_from_python)?;
    let properties = list_from(d, what, "properties", |p| {
        Ok(PropertyTrack {
            node: get(p, "PropertyTrack", "node")?,
            property: get(p, "PropertyTrack", "property")?,
            format: get(p, "PropertyTrack", "format")?,
            data: bytes(p, "PropertyTrack", "data")?,
        })
    })?;
    Ok(Animation {
        name: get(d, what, "name")?,
        framerate: get(d, what, "framerate")?,
        frame_count: get(d, what, "frame_count")?,
        looping: get(d, what, "looping")?,
        kind: kind.parse().map_err(PyValueError::new_err)?,
        interpolation: match interpolation.as_str() {
            "linear" => Interpolation::Linear,
            "step" => Interpolation::Step,
            other => {
                return Err(PyValueError::new_err(format!(
                    "Animation.interpolation: unknown {other:?}; valid names: linear, step"
                )));
            }
        },
        bones,
        notes: notes.into_iter().map(|(frame, name)| Note { frame, name }).collect(),
        properties,
        weights: list_from(d, what, "weights", crate::scene_morph::weights_from_python)?,
    })
}

fn track_from_python(d: &Bound<'_, PyDict>) -> PyResult<BoneTrack> {
    let what = "BoneTrack";
    let kind: Option<String> = get(d, what, "kind")?;
    // Values arrive as float32 or float64 (`scene_keys`).
    let (translation, rotation, scale) = crate::scene_keys::channels_from_python(d)?;
    let channels = |name: &str| -> PyResult<ChannelKinds> {
        let dict = field(d, what, name)?
            .cast_into::<PyDict>()
            .map_err(|_| PyValueError::new_err(format!("{what}.{name}: expected a dict")))?;
        channel_kinds_from_python(&dict, &format!("{what}.{name}"))
    };
    Ok(BoneTrack {
        curves: crate::scene_graph::curves_from_python(d, what)?,
        channel_overrides: channels("channel_overrides")?,
        channel_kinds: channels("channel_kinds")?,
        bone: get(d, what, "bone")?,
        kind_override: kind.map(|k| k.parse()).transpose().map_err(PyValueError::new_err)?,
        cosmetic: get(d, what, "cosmetic")?,
        translation,
        rotation,
        scale,
    })
}

/// The other side of a skeleton's bind pose: the globals from the locals, or (with
/// `from_global`) the locals from the globals, through the hierarchy as animbin's
/// conversions compute them.
#[pyfunction]
#[pyo3(name = "_other_side")]
pub(crate) fn other_side<'py>(
    py: Python<'py>,
    parents: PyReadonlyArray1<'py, i32>,
    translations: PyReadonlyArray2<'py, f32>,
    rotations: PyReadonlyArray2<'py, f32>,
    scales: PyReadonlyArray2<'py, f32>,
    from_global: bool,
    scale_compensate: PyReadonlyArray1<'py, bool>,
) -> PyResult<Bound<'py, PyTuple>> {
    let n = parents.len();
    let names = ["translations", "rotations", "scales"].map(String::from);
    let given = transforms_from_arrays(&translations, &rotations, &scales, &names, n)?;
    let parents = parents
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("Skeleton.parents: {e}")))?;
    let compensate = scale_compensate
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("Skeleton.scale_compensate: {e}")))?;
    expect_len("Skeleton", "scale_compensate", compensate.len(), n, "the bone count")?;
    let mut skeleton = Skeleton {
        bones: given
            .into_iter()
            .zip(parents)
            .zip(compensate)
            .map(|((transform, &p), &scale_compensate)| Bone {
                kind: NodeKind::Bone,
                scale_compensate,
                // Rest scales play no part in the bind pose.
                rest_scale: Vec3::ONE,
                name: String::new(),
                // Negative parents other than -1 are refused when the scene is written;
                // here they are roots.
                parent: usize::try_from(p).ok(),
                local: transform,
                global: transform,
                cosmetic: false,
            })
            .collect(),
        ..Default::default()
    };
    let computed: Vec<Transform> = if from_global {
        skeleton.update_locals();
        skeleton.bones.iter().map(|b| b.local).collect()
    } else {
        skeleton.update_globals();
        skeleton.bones.iter().map(|b| b.global).collect()
    };
    let [t, r, s] = transforms_to_python(py, computed.into_iter(), n)?;
    PyTuple::new(py, [t, r, s])
}
