//! `animbin.pose`: what an animation's kind means for a key, the library's rules
//! (`animbin_core::pose`) over NumPy arrays.
//!
//! Every function here only translates: the arrays are checked (float64, their shape) and
//! read row by row into `animbin_core::pose`, with the GIL released for large arrays.

use animbin::core::math::{Quat, Transform, Vec3};
use animbin::core::pose;
use animbin::core::scene::AnimKind;
use numpy::ndarray::{Array2, ArrayView1, ArrayView2, Ix1, Ix2};
use numpy::{IntoPyArray, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// Rows from which the GIL is released while the keys are computed: below it, releasing
/// and taking it back again costs more than the loop.
const DETACH_ROWS: usize = 4096;

/// The kinds by name, in the order `animbin.pose.KINDS` lists them.
const KINDS: [AnimKind; 4] = [
    AnimKind::Absolute,
    AnimKind::Additive,
    AnimKind::Relative,
    AnimKind::Delta,
];

/// Adds the submodule `pose` (`animbin.pose` once the package's `__init__` has named it
/// in `sys.modules`) to the native module.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    let m = PyModule::new(py, "animbin.pose")?;
    m.add(
        "__doc__",
        "What an animation's kind means for a key: animbin's rules (animbin_core::pose) over NumPy arrays.",
    )?;
    m.add("KINDS", PyTuple::new(py, KINDS.map(AnimKind::name))?)?;
    m.add_function(wrap_pyfunction!(apply_translation, &m)?)?;
    m.add_function(wrap_pyfunction!(remove_translation, &m)?)?;
    m.add_function(wrap_pyfunction!(apply_rotation, &m)?)?;
    m.add_function(wrap_pyfunction!(remove_rotation, &m)?)?;
    m.add_function(wrap_pyfunction!(effective_kinds, &m)?)?;
    m.add_function(wrap_pyfunction!(channel_kinds, &m)?)?;
    parent.add("pose", m)
}

/// The kind named `name`; an unknown name is a `ValueError` listing the valid ones.
fn kind_of(function: &str, argument: &str, name: &str) -> PyResult<AnimKind> {
    name.parse()
        .map_err(|e: String| PyValueError::new_err(format!("{function}: {argument}: {e}")))
}

/// `(5, 3)` as Python prints a shape.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// `obj` as a float64 array (a float32 one widened) of `ndim` dimensions whose last one is
/// `width` (and, for one dimension, is the whole shape); anything else is an error naming
/// `argument`.
fn float64<'py>(
    function: &str,
    argument: &str,
    obj: &Bound<'py, PyAny>,
    ndim: usize,
    width: usize,
) -> PyResult<numpy::PyReadonlyArrayDyn<'py, f64>> {
    let wanted = if ndim == 1 {
        format!("({width},)")
    } else {
        format!("(N, {width})")
    };
    let Ok(untyped) = obj.cast::<PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "{function}: {argument}: expected a NumPy float64 array of shape {wanted}, got {}",
            obj.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
        )));
    };
    // A scene of a single-precision file hands out float32 keys: they are widened once here
    // (exactly), so its arrays go straight in. Other dtypes are refused rather than guessed.
    let widened;
    let array = if let Ok(array) = obj.cast::<PyArrayDyn<f64>>() {
        array
    } else if obj.cast::<PyArrayDyn<f32>>().is_ok() {
        widened = obj.call_method1("astype", ("float64",))?;
        widened.cast::<PyArrayDyn<f64>>()?
    } else {
        return Err(PyValueError::new_err(format!(
            "{function}: {argument}: expected dtype float64 or float32, got {} (convert with numpy.asarray(..., dtype=numpy.float64))",
            untyped.dtype()
        )));
    };
    let shape = untyped.shape();
    if shape.len() != ndim || shape.last() != Some(&width) {
        return Err(PyValueError::new_err(format!(
            "{function}: {argument}: expected shape {wanted}, got {}",
            shape_text(shape)
        )));
    }
    array
        .try_readonly()
        .map_err(|e| PyValueError::new_err(format!("{function}: {argument}: {e}")))
}

/// The rest pose of one bone from its (3,) translation and (4,) x y z w rotation.
fn rest_of(function: &str, translation: &Bound<'_, PyAny>, rotation: &Bound<'_, PyAny>) -> PyResult<Transform> {
    let t = float64(function, "rest_translation", translation, 1, 3)?;
    let r = float64(function, "rest_rotation", rotation, 1, 4)?;
    let as_1d = |a: &numpy::PyReadonlyArrayDyn<'_, f64>| -> Vec<f64> {
        let view: ArrayView1<'_, f64> = a
            .as_array()
            .into_dimensionality::<Ix1>()
            .expect("checked: one dimension");
        view.to_vec()
    };
    let (t, r) = (as_1d(&t), as_1d(&r));
    Ok(Transform {
        translation: Vec3::new(t[0], t[1], t[2]),
        rotation: Quat::new(r[0], r[1], r[2], r[3]),
        scale: Vec3::ONE,
    })
}

/// Each row of `keys` (N, I) through `f`, as an (N, O) array; the GIL is released for
/// large arrays.
fn map_rows<'py, const I: usize, const O: usize>(
    py: Python<'py>,
    keys: &numpy::PyReadonlyArrayDyn<'py, f64>,
    f: impl Fn([f64; I]) -> [f64; O] + Send + Sync,
) -> Bound<'py, PyArray2<f64>> {
    let view: ArrayView2<'_, f64> = keys
        .as_array()
        .into_dimensionality::<Ix2>()
        .expect("checked: two dimensions");
    let rows = view.nrows();
    let run = || {
        let mut out = Vec::with_capacity(rows * O);
        for row in view.rows() {
            let mut key = [0.0; I];
            for (k, v) in key.iter_mut().zip(row.iter()) {
                *k = *v;
            }
            out.extend_from_slice(&f(key));
        }
        Array2::from_shape_vec((rows, O), out).expect("rows * O values")
    };
    let out = if rows >= DETACH_ROWS { py.detach(run) } else { run() };
    out.into_pyarray(py)
}

/// A key as a row of its NumPy array: a translation (x, y, z) or a rotation (x, y, z, w).
trait Row<const N: usize>: Sized {
    fn from_row(row: [f64; N]) -> Self;
    fn to_row(self) -> [f64; N];
}

impl Row<3> for Vec3<f64> {
    fn from_row([x, y, z]: [f64; 3]) -> Self {
        Vec3::new(x, y, z)
    }

    fn to_row(self) -> [f64; 3] {
        [self.x, self.y, self.z]
    }
}

impl Row<4> for Quat<f64> {
    fn from_row([x, y, z, w]: [f64; 4]) -> Self {
        Quat::new(x, y, z, w)
    }

    fn to_row(self) -> [f64; 4] {
        [self.x, self.y, self.z, self.w]
    }
}

/// The keys (N, 3) or (N, 4) of the Python function `function` through `rule` over the
/// rest pose, its arguments checked in order (`kind`, the rest pose, `keys`).
fn keys_through<'py, const N: usize, K: Row<N>>(
    py: Python<'py>,
    function: &str,
    kind: &str,
    rest_translation: &Bound<'py, PyAny>,
    rest_rotation: &Bound<'py, PyAny>,
    keys: &Bound<'py, PyAny>,
    rule: fn(AnimKind, &Transform, K) -> K,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let kind = kind_of(function, "kind", kind)?;
    let rest = rest_of(function, rest_translation, rest_rotation)?;
    let keys = float64(function, "keys", keys, 2, N)?;
    Ok(map_rows(py, &keys, move |row: [f64; N]| {
        rule(kind, &rest, K::from_row(row)).to_row()
    }))
}

/// The Python function `name(kind, rest_translation, rest_rotation, keys)`, documented by
/// the attributes given: [`keys_through`] the pose rule `rule`. The four functions take the
/// same arguments, so that a caller passes a bone's rest pose alike to each.
macro_rules! pose_function {
    ($(#[$doc:meta])* $name:ident => $rule:path) => {
        $(#[$doc])*
        #[pyfunction]
        fn $name<'py>(
            py: Python<'py>,
            kind: &str,
            rest_translation: &Bound<'py, PyAny>,
            rest_rotation: &Bound<'py, PyAny>,
            keys: &Bound<'py, PyAny>,
        ) -> PyResult<Bound<'py, PyArray2<f64>>> {
            keys_through(py, stringify!($name), kind, rest_translation, rest_rotation, keys, $rule)
        }
    };
}

pose_function! {
    /// The parent-space translations that play for translation keys of ``kind`` over a bone's
    /// rest pose (its local bind transform):
    ///
    /// - ``absolute``: the key;
    /// - ``relative``, ``additive``: ``rest_translation + key``;
    /// - ``delta``: ``rest_translation + rest_rotation * key`` (an offset along the bone's
    ///   rest axes; the rotation is normalised first).
    ///
    /// ``kind`` is one of ``KINDS``; ``rest_translation`` is a (3,) and ``rest_rotation`` a
    /// (4,) x y z w float64 array; ``keys`` is (N, 3) float64 (N may be 0). Returns a new
    /// (N, 3) float64 array. A wrong dtype or shape is a ``ValueError`` naming the argument,
    /// something other than a NumPy array a ``TypeError``.
    apply_translation => pose::apply_translation
}

pose_function! {
    /// The inverse of ``apply_translation``: translation keys of ``kind`` for the
    /// parent-space translations ``keys`` (N, 3) over the rest pose. Arguments, result and
    /// errors as ``apply_translation``.
    remove_translation => pose::remove_translation
}

pose_function! {
    /// The parent-space rotations that play for rotation keys of ``kind`` over a bone's rest
    /// pose: the key itself, except for ``additive``: ``rest_rotation * key`` (the key applied
    /// first), normalised.
    ///
    /// ``keys`` is (N, 4) x y z w float64 (N may be 0); ``rest_translation`` is not used by
    /// any kind's rotation rule but is checked like the other arguments, so that the four
    /// functions take the same ones. Returns a new (N, 4) float64 array. Errors as
    /// ``apply_translation``.
    apply_rotation => pose::apply_rotation
}

pose_function! {
    /// The inverse of ``apply_rotation``: rotation keys of ``kind`` for the parent-space
    /// rotations ``keys`` (N, 4) x y z w over the rest pose (for ``additive``,
    /// ``rest_rotation^-1 * key``, normalised). Arguments, result and errors as
    /// ``apply_rotation``.
    remove_rotation => pose::remove_rotation
}

/// The `(name, value)` pairs of a mapping's `items()`, with `what` describing the values
/// in the error for anything else.
fn items<'py>(argument: &str, obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<(String, Option<String>)>> {
    let error = || {
        PyTypeError::new_err(format!(
            "effective_kinds: {argument}: expected a mapping of bone name to {what}, got {}",
            obj.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    };
    let items = obj.call_method0("items").map_err(|_| error())?;
    items
        .try_iter()
        .map_err(|_| error())?
        .map(|item| item.and_then(|i| i.extract::<(String, Option<String>)>()))
        .collect::<PyResult<_>>()
        .map_err(|_| error())
}

/// The kind that applies to each track, as animbin decides it for an animation over a
/// skeleton: the override of the nearest bone among the track's own and its ancestors
/// that has one (SEAnim modifier bones apply to the bone and its children, recursively),
/// else ``kind``, the animation's kind.
///
/// ``track_bones``: the tracks' bone names, in track order (an iterable of ``str``);
/// ``overrides``: bone name -> kind (one of ``KINDS``, or ``None`` for none), the
/// overrides the tracks carry; ``parents``: every bone of the skeleton, name -> its
/// parent's name (``None`` for a root; a name that is not a bone of ``parents`` ends the
/// walk too). A track's own override wins even when its bone is not in ``parents``;
/// otherwise a track whose bone is not in ``parents`` plays ``kind``. A parent cycle
/// cannot loop forever. Returns a list of kind names, one per track.
#[pyfunction]
fn effective_kinds<'py>(
    py: Python<'py>,
    kind: &str,
    track_bones: &Bound<'py, PyAny>,
    overrides: &Bound<'py, PyAny>,
    parents: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let default = kind_of("effective_kinds", "kind", kind)?;
    let tracks: Vec<String> = {
        let error = || {
            PyTypeError::new_err(format!(
                "effective_kinds: track_bones: expected an iterable of bone names, got {}",
                track_bones
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        };
        if track_bones.is_instance_of::<PyString>() {
            return Err(error());
        }
        track_bones
            .try_iter()
            .map_err(|_| error())?
            .map(|item| item.and_then(|i| i.extract::<String>()))
            .collect::<PyResult<_>>()
            .map_err(|_| error())?
    };
    let mut by_name = std::collections::HashMap::new();
    for (bone, k) in items("overrides", overrides, "a kind name or None")? {
        if let Some(k) = k {
            by_name.insert(
                bone.clone(),
                kind_of("effective_kinds", &format!("overrides[{bone:?}]"), &k)?,
            );
        }
    }
    let bones = items("parents", parents, "its parent's name or None")?;
    let index: std::collections::HashMap<&str, usize> = bones
        .iter()
        .enumerate()
        .rev()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let parent_indices: Vec<Option<usize>> = bones
        .iter()
        .map(|(_, p)| p.as_deref().and_then(|p| index.get(p).copied()))
        .collect();
    let bone_overrides: Vec<Option<AnimKind>> = bones.iter().map(|(name, _)| by_name.get(name).copied()).collect();
    let kinds = pose::bone_kinds(&parent_indices, &bone_overrides, default);
    let names = tracks.iter().map(|bone| {
        by_name
            .get(bone)
            .copied()
            .or_else(|| index.get(bone.as_str()).map(|&i| kinds[i]))
            .unwrap_or(default)
            .name()
    });
    PyList::new(py, names)
}

/// The kind of each track's translation, rotation and scale keys, as animbin decides them
/// (`animbin_core::pose::channel_kinds`): per channel, the override of the nearest bone
/// among the track's own and its ancestors (``channel_overrides``, else ``kind``); else the
/// track's ``channel_kinds``; else the animation's kind.
///
/// ``animation``: an ``animbin.Animation`` (its ``kind`` and its tracks' ``bone``,
/// ``kind``, ``channel_kinds`` and ``channel_overrides`` are read); ``parents``: every bone
/// of the skeleton, name -> its parent's name (``None`` for a root). Returns one dict per
/// track: ``{"translation": kind, "rotation": kind, "scale": kind}``.
#[pyfunction]
fn channel_kinds<'py>(
    py: Python<'py>,
    animation: &Bound<'py, PyAny>,
    parents: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    use animbin::core::scene::{Animation, Bone, BoneTrack, ChannelKinds, Skeleton};
    let kind_named = |what: &str, name: &str| kind_of("channel_kinds", what, name);
    let channels = |obj: Bound<'py, PyAny>, what: &str| -> PyResult<ChannelKinds> {
        let mut out = ChannelKinds::NONE;
        for (channel, kind) in items(what, &obj, "a kind name")? {
            let Some(kind) = kind else { continue };
            let kind = kind_named(&format!("{what}[{channel:?}]"), &kind)?;
            match channel.as_str() {
                "translation" => out.translation = Some(kind),
                "rotation" => out.rotation = Some(kind),
                "scale" => out.scale = Some(kind),
                other => {
                    return Err(PyValueError::new_err(format!(
                        "channel_kinds: {what}: unknown channel {other:?}"
                    )));
                }
            }
        }
        Ok(out)
    };
    let kind: String = animation.getattr("kind")?.extract()?;
    let mut anim = Animation {
        kind: kind_named("animation.kind", &kind)?,
        ..Animation::default()
    };
    for (i, track) in animation.getattr("tracks")?.try_iter()?.enumerate() {
        let track = track?;
        let own: Option<String> = track.getattr("kind")?.extract()?;
        anim.bones.push(BoneTrack {
            bone: track.getattr("bone")?.extract()?,
            kind_override: own.map(|k| kind_named(&format!("tracks[{i}].kind"), &k)).transpose()?,
            channel_kinds: channels(track.getattr("channel_kinds")?, &format!("tracks[{i}].channel_kinds"))?,
            channel_overrides: channels(
                track.getattr("channel_overrides")?,
                &format!("tracks[{i}].channel_overrides"),
            )?,
            ..BoneTrack::default()
        });
    }
    let bones = items("parents", parents, "its parent's name or None")?;
    let index: std::collections::HashMap<&str, usize> = bones
        .iter()
        .enumerate()
        .rev()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let skeleton = Skeleton {
        bones: bones
            .iter()
            .map(|(name, parent)| Bone {
                kind: Default::default(),
                name: name.clone(),
                parent: parent.as_deref().and_then(|p| index.get(p).copied()),
                local: Transform::IDENTITY,
                global: Transform::IDENTITY,
                cosmetic: false,
                scale_compensate: false,
                rest_scale: Vec3::ONE,
            })
            .collect(),
        ..Default::default()
    };
    let kinds = pose::channel_kinds(&anim, &skeleton);
    let out = PyList::empty(py);
    for k in kinds {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("translation", k.translation.name())?;
        d.set_item("rotation", k.rotation.name())?;
        d.set_item("scale", k.scale.name())?;
        out.append(d)?;
    }
    Ok(out)
}
