//! Bone track keys between the scene and NumPy, at the precision of the file they came from.
//!
//! The scene holds a channel as `f32`s while every key is exactly an `f32` (a
//! single-precision file's keys are). Going out, a single-precision file's values become
//! `float32` arrays: a channel held as `f32` is copied once, as it lies, and a wider one is
//! narrowed once as the array is built (no `float64` array is made and converted again); a
//! double-precision file's values are `float64`. Frames are always `float64` (frame numbers
//! and times in frames, which an `f32` cannot count past 2^24). Coming in, either dtype is
//! read, and an animation whose value arrays are all `float32` asks a format that chooses its
//! precision (SEAnim) for single precision.

use animbin::core::float::widen_exact;
use animbin::core::math::{Quat, Vec3};
use animbin::core::scene::{Animation, BoneTrack, Key, KeyColumn, KeyValue, Keys, Precision};
use animbin::core::zerocopy::{FromBytes, Immutable, IntoBytes};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
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

/// Whether every key value of `track` is exactly an `f32` (frames may not be: they stay
/// `float64`).
fn single_exact(track: &BoneTrack) -> bool {
    fn exact<V: KeyValue>(keys: &Keys<V>, row: impl Fn(V) -> [f64; 4]) -> bool {
        keys.precision() == Precision::Single || keys.iter().all(|k| row(k.value).into_iter().all(exact_f32))
    }
    let vec3 = |v: Vec3<f64>| [v.x, v.y, v.z, 0.0];
    exact(&track.translation, vec3) && exact(&track.scale, vec3) && exact(&track.rotation, |q| [q.x, q.y, q.z, q.w])
}

/// A channel's values as `N` components each, for NumPy.
trait ChannelValue: KeyValue<Single: IntoBytes + Immutable> + IntoBytes + Immutable {
    /// The number of components.
    const N: usize;
    /// The components, in NumPy's column order.
    fn row(self) -> [f64; 4];
}

impl ChannelValue for Vec3<f64> {
    const N: usize = 3;
    fn row(self) -> [f64; 4] {
        [self.x, self.y, self.z, 0.0]
    }
}

impl ChannelValue for Quat<f64> {
    const N: usize = 4;
    fn row(self) -> [f64; 4] {
        [self.x, self.y, self.z, self.w]
    }
}

/// The (K, N) values of `keys` as `float32` (`single`) or `float64`, each filled in one pass
/// into a buffer sized beforehand, which NumPy then owns (no copy after it). A channel held
/// as `f32`s becomes `float32` in one copy of its bytes.
fn values_array<'py, V: ChannelValue>(py: Python<'py>, keys: &Keys<V>, single: bool) -> PyResult<Bound<'py, PyAny>> {
    let (rows, n) = (keys.len(), V::N);
    match (keys.slices().values, single) {
        (KeyColumn::Single(values), true) => {
            // Vec3<f32> and Quat<f32> are plain f32s in order: their bytes are the array's.
            let floats = <[f32]>::ref_from_bytes(values.as_bytes())
                .map_err(|_| PyValueError::new_err("key values are not f32-aligned"))?;
            crate::scene::slice2(py, floats, rows, n)
        }
        (_, true) => {
            let mut flat = Vec::with_capacity(rows * n);
            // The nearest f32: a single-precision file's own value, which the scene widened.
            flat.extend(
                keys.iter()
                    .flat_map(|k| k.value.row().into_iter().take(n).map(|c| c as f32)),
            );
            crate::scene::array2(py, flat, rows, n)
        }
        (KeyColumn::Double(values), false) => {
            // Vec3<f64> and Quat<f64> are plain f64s in order.
            let floats = <[f64]>::ref_from_bytes(values.as_bytes())
                .map_err(|_| PyValueError::new_err("key values are not f64-aligned"))?;
            crate::scene::slice2(py, floats, rows, n)
        }
        (_, false) => {
            let mut flat = Vec::with_capacity(rows * n);
            flat.extend(keys.iter().flat_map(|k| k.value.row().into_iter().take(n)));
            crate::scene::array2(py, flat, rows, n)
        }
    }
}

/// Sets `{name}_frames` ((K,) `float64`) and `{name}s` ((K, N), `float32` when `single`) of
/// the `BoneTrack` fields `d` from `keys`.
fn set_channel<V: ChannelValue>(d: &Bound<'_, PyDict>, name: &str, keys: &Keys<V>, single: bool) -> PyResult<()> {
    let frames: Vec<f64> = match keys.slices().frames {
        KeyColumn::Single(frames) => frames.iter().map(|&f| widen_exact(f)).collect(),
        KeyColumn::Double(frames) => frames.to_vec(),
    };
    d.set_item(format!("{name}_frames"), PyArray1::from_vec(d.py(), frames))?;
    d.set_item(format!("{name}s"), values_array(d.py(), keys, single)?)
}

/// Sets `{rotation,translation,scale}_frames` and `{rotation,translation,scale}s` of the
/// `BoneTrack` fields `d` from `track`, the values `float32` when `single`.
pub(crate) fn set_keys(d: &Bound<'_, PyDict>, track: &BoneTrack, single: bool) -> PyResult<()> {
    set_channel(d, "rotation", &track.rotation, single)?;
    set_channel(d, "translation", &track.translation, single)?;
    set_channel(d, "scale", &track.scale, single)
}

/// The keys of the channel `name` (`"rotation"`: the arrays `rotation_frames` (K,) `float64`
/// and `rotations` (K, `cols`) `float32` or `float64`) of the `BoneTrack` fields `d`, each
/// value row made by `make`.
pub(crate) fn keys_from_python<V: KeyValue>(
    d: &Bound<'_, PyDict>,
    name: &str,
    make: impl Fn(&[f64]) -> V,
    cols: usize,
) -> PyResult<Keys<V>> {
    let what = "BoneTrack";
    let frames_name = format!("{name}_frames");
    let values_name = format!("{name}s");
    let error = |field: &str, e: &dyn std::fmt::Display| PyValueError::new_err(format!("{what}.{field}: {e}"));
    let frames: PyReadonlyArray1<'_, f64> = crate::scene::get(d, what, &frames_name)?;
    let frames = frames.as_slice().map_err(|e| error(&frames_name, &e))?;
    let values = crate::scene::field(d, what, &values_name)?;
    let mut row = [0.0f64; 4];
    let mut keys = Keys::with_capacity(frames.len());
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
pub(crate) type Channels = (Keys<Vec3<f64>>, Keys<Quat<f64>>, Keys<Vec3<f64>>);

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
