//! Bone track keys between the scene and NumPy, at the precision of the file they came from.
//!
//! The scene holds key values as `f64` whatever the file held. Going out, a single-precision
//! file's values become `float32` arrays (each value narrowed once, as the array is built:
//! no `float64` array is made and converted again) and a double-precision file's `float64`;
//! frames stay `float64` (frame numbers and times in frames, which an `f32` cannot count past
//! 2^24). Coming in, either dtype is read, and an animation whose value arrays are all
//! `float32` asks a format that chooses its precision (SEAnim) for single precision.

use animbin::core::math::{Quat, Vec3};
use animbin::core::scene::{Animation, BoneTrack, Key, Precision};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The dtype an animation's key values take in Python.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyDtype {
    /// `float32`: the file stores single-precision values (SEAnim without
    /// `SEANIM_PRECISION_HIGH`, Cast, AnimX, DMF).
    Single,
    /// `float64`: the file stores double precision (SEAnim's high precision), or values the
    /// scene computes from fixed point (x8an's rotations), which an `f32` would round.
    Double,
    /// The format does not say: `float32` when every value of the animation is exactly an
    /// `f32`. glTF holds `f32` accessors, but animbin's extras may state that the source
    /// was double, and its import then keeps the wider values it computes.
    ByValues,
}

impl KeyDtype {
    /// The dtype of the key values of `document`'s animations: its format's own width, or
    /// judged by the values where the format states none.
    pub(crate) fn of_document(document: &animbin::Document) -> Self {
        match document.key_precision() {
            Some(Precision::Single) => Self::Single,
            Some(Precision::Double) => Self::Double,
            None => Self::ByValues,
        }
    }

    /// The dtype for animations from documents of dtypes `self` and `other`: the wider when
    /// they differ, so that no value is rounded.
    pub(crate) fn join(self, other: Self) -> Self {
        match (self, other) {
            (a, b) if a == b => a,
            (Self::Double, _) | (_, Self::Double) => Self::Double,
            _ => Self::ByValues,
        }
    }

    /// Whether `animation`'s values become `float32`.
    pub(crate) fn single_for(self, animation: &Animation) -> bool {
        match self {
            Self::Single => true,
            Self::Double => false,
            Self::ByValues => animation.bones.iter().all(single_exact),
        }
    }
}

/// Whether `value` is exactly an `f32` (NaN is: it stays NaN).
fn exact_f32(value: f64) -> bool {
    f64::from(value as f32) == value || value.is_nan()
}

/// Whether every key value of `track` is exactly an `f32`.
fn single_exact(track: &BoneTrack) -> bool {
    [&track.translation, &track.scale]
        .into_iter()
        .flatten()
        .all(|k| [k.value.x, k.value.y, k.value.z].into_iter().all(exact_f32))
        && track
            .rotation
            .iter()
            .all(|k| [k.value.x, k.value.y, k.value.z, k.value.w].into_iter().all(exact_f32))
}

/// Scalars NumPy can hold that an `f64` key value narrows to (`f32`) or stays (`f64`).
trait KeyScalar: numpy::Element + Copy + Default {
    fn from_f64(value: f64) -> Self;
}

impl KeyScalar for f32 {
    fn from_f64(value: f64) -> Self {
        // The nearest f32: a single-precision file's own value, which the scene widened.
        value as f32
    }
}

impl KeyScalar for f64 {
    fn from_f64(value: f64) -> Self {
        value
    }
}

/// The (K,) `float64` frames and (K, N) values of one channel, filled in one pass over the
/// keys into two buffers sized beforehand, which NumPy then owns (no copy after it).
fn channel_arrays<'py, V, S: KeyScalar, const N: usize>(
    py: Python<'py>,
    keys: &[Key<V>],
    row: impl Fn(&V) -> [f64; N],
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let mut frames = vec![0.0f64; keys.len()];
    let mut values = vec![S::default(); keys.len() * N];
    for ((key, frame), out) in keys.iter().zip(&mut frames).zip(values.chunks_exact_mut(N)) {
        *frame = key.frame;
        for (to, from) in out.iter_mut().zip(row(&key.value)) {
            *to = S::from_f64(from);
        }
    }
    let values = PyArray1::from_vec(py, values).reshape([keys.len(), N])?.into_any();
    Ok((PyArray1::from_vec(py, frames).into_any(), values))
}

/// Sets `{name}_frames` and `{name}s` of the `BoneTrack` fields `d` from `keys`, the values
/// `float32` when `single`.
fn set_channel<V, const N: usize>(
    d: &Bound<'_, PyDict>,
    name: &str,
    keys: &[Key<V>],
    single: bool,
    row: impl Fn(&V) -> [f64; N],
) -> PyResult<()> {
    let (frames, values) = if single {
        channel_arrays::<V, f32, N>(d.py(), keys, row)?
    } else {
        channel_arrays::<V, f64, N>(d.py(), keys, row)?
    };
    d.set_item(format!("{name}_frames"), frames)?;
    d.set_item(format!("{name}s"), values)
}

/// Sets `{rotation,translation,scale}_frames` and `{rotation,translation,scale}s` of the
/// `BoneTrack` fields `d` from `track`, the values `float32` when `single`.
pub(crate) fn set_keys(d: &Bound<'_, PyDict>, track: &BoneTrack, single: bool) -> PyResult<()> {
    let vec3 = |v: &Vec3<f64>| [v.x, v.y, v.z];
    set_channel(d, "rotation", &track.rotation, single, |q| [q.x, q.y, q.z, q.w])?;
    set_channel(d, "translation", &track.translation, single, vec3)?;
    set_channel(d, "scale", &track.scale, single, vec3)
}

/// The keys of the channel `name` (`"rotation"`: the arrays `rotation_frames` (K,) `float64`
/// and `rotations` (K, `cols`) `float32` or `float64`) of the `BoneTrack` fields `d`, each
/// value row made by `make`.
pub(crate) fn keys_from_python<V>(
    d: &Bound<'_, PyDict>,
    name: &str,
    make: impl Fn(&[f64]) -> V,
    cols: usize,
) -> PyResult<Vec<Key<V>>> {
    let what = "BoneTrack";
    let frames_name = format!("{name}_frames");
    let values_name = format!("{name}s");
    let error = |field: &str, e: &dyn std::fmt::Display| PyValueError::new_err(format!("{what}.{field}: {e}"));
    let frames: PyReadonlyArray1<'_, f64> = crate::scene::get(d, what, &frames_name)?;
    let frames = frames.as_slice().map_err(|e| error(&frames_name, &e))?;
    let values = crate::scene::field(d, what, &values_name)?;
    let mut row = [0.0f64; 4];
    let mut keys = Vec::with_capacity(frames.len());
    let check = |shape: &[usize]| -> PyResult<()> {
        if shape[1] != cols {
            return Err(error(
                &values_name,
                &format_args!("expected {cols} columns, got {}", shape[1]),
            ));
        }
        crate::scene::expect_len(
            what,
            &values_name,
            shape[0],
            frames.len(),
            &format!("the number of {frames_name}"),
        )
    };
    if let Ok(single) = values.extract::<PyReadonlyArray2<'_, f32>>() {
        check(single.shape())?;
        let flat = single.as_slice().map_err(|e| error(&values_name, &e))?;
        for (&frame, values) in frames.iter().zip(flat.chunks_exact(cols)) {
            for (to, &from) in row.iter_mut().zip(values) {
                *to = f64::from(from);
            }
            keys.push(Key::new(frame, make(&row[..cols])));
        }
    } else {
        let double: PyReadonlyArray2<'_, f64> = crate::scene::get(d, what, &values_name)?;
        check(double.shape())?;
        let flat = double.as_slice().map_err(|e| error(&values_name, &e))?;
        keys.extend(
            frames
                .iter()
                .zip(flat.chunks_exact(cols))
                .map(|(&frame, values)| Key::new(frame, make(values))),
        );
    }
    Ok(keys)
}

/// The channels of a `BoneTrack`'s fields as the scene's keys: translations, rotations and
/// scales.
pub(crate) type Channels = (Vec<Key<Vec3<f64>>>, Vec<Key<Quat<f64>>>, Vec<Key<Vec3<f64>>>);

/// The translation, rotation and scale keys of the `BoneTrack` fields `d`.
pub(crate) fn channels_from_python(d: &Bound<'_, PyDict>) -> PyResult<Channels> {
    let vec3 = |v: &[f64]| Vec3::new(v[0], v[1], v[2]);
    Ok((
        keys_from_python(d, "translation", vec3, 3)?,
        keys_from_python(d, "rotation", |v| Quat::new(v[0], v[1], v[2], v[3]), 4)?,
        keys_from_python(d, "scale", vec3, 3)?,
    ))
}

/// The precision the key values of a `Scene._to_native()` dict imply: single when every
/// non-empty value array of every track is `float32` (as `Document.scene()` gives them for a
/// single-precision file), else `None` (the writer chooses, as for `float64` arrays: single
/// when every value is exactly an `f32`).
pub(crate) fn implied_precision(scene: &Bound<'_, PyDict>) -> PyResult<Option<Precision>> {
    let mut any = false;
    let Some(animations) = scene.get_item("animations")? else {
        return Ok(None);
    };
    for animation in animations.cast_into::<PyList>()?.iter() {
        let Some(tracks) = animation.cast_into::<PyDict>()?.get_item("tracks")? else {
            continue;
        };
        for track in tracks.cast_into::<PyList>()?.iter() {
            let track = track.cast_into::<PyDict>()?;
            for name in ["rotations", "translations", "scales"] {
                let Some(values) = track.get_item(name)? else {
                    continue;
                };
                if values.extract::<PyReadonlyArray2<'_, f32>>().is_ok() {
                    any |= values.len()? > 0;
                } else if values.len()? > 0 {
                    return Ok(None);
                }
            }
        }
    }
    Ok(any.then_some(Precision::Single))
}
