//! Morph targets and weight tracks as `animbin.MorphTarget` and `animbin.WeightTrack`, and
//! back; the rest of the scene is in [`crate::scene`].

use animbin::core::math::Vec3;
use animbin::core::scene::{Key, MorphTarget, WeightTrack};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::scene::{expect_len, field, get, make, rows, vec3s_f32, vector};

/// An `animbin.MorphTarget` (`cls`) holding `target`.
pub(crate) fn target_to_python<'py>(
    py: Python<'py>,
    cls: &Py<PyAny>,
    target: MorphTarget,
) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("name", &target.name)?;
    d.set_item("indices", PyArray1::from_vec(py, target.indices))?;
    d.set_item("deltas", vec3s_f32(py, &target.position_deltas)?)?;
    let normals = if target.normal_deltas.is_empty() {
        py.None().into_bound(py)
    } else {
        vec3s_f32(py, &target.normal_deltas)?
    };
    d.set_item("normal_deltas", normals)?;
    d.set_item("max_weight", target.max_weight)?;
    d.set_item("default_weight", target.default_weight)?;
    make(cls, d)
}

/// The morph target a `MorphTarget._to_native()` dict describes.
pub(crate) fn target_from_python(d: &Bound<'_, PyDict>) -> PyResult<MorphTarget> {
    let what = "MorphTarget";
    let indices: Vec<u32> = vector(d, what, "indices")?;
    let position_deltas = rows(d, what, "deltas", 3, |r: &[f32]| Vec3::new(r[0], r[1], r[2]))?;
    expect_len(
        what,
        "deltas",
        position_deltas.len(),
        indices.len(),
        "the number of indices",
    )?;
    let normal_deltas = if field(d, what, "normal_deltas")?.is_none() {
        Vec::new()
    } else {
        let n = rows(d, what, "normal_deltas", 3, |r: &[f32]| Vec3::new(r[0], r[1], r[2]))?;
        expect_len(what, "normal_deltas", n.len(), indices.len(), "the number of indices")?;
        n
    };
    Ok(MorphTarget {
        default_weight: crate::scene_rig::opt(d, what, "default_weight")?.unwrap_or(0.0),
        name: get(d, what, "name")?,
        indices,
        position_deltas,
        normal_deltas,
        max_weight: get(d, what, "max_weight")?,
    })
}

/// An `animbin.WeightTrack` (`cls`) holding `track`.
pub(crate) fn weights_to_python<'py>(
    py: Python<'py>,
    cls: &Py<PyAny>,
    track: WeightTrack,
) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("target", &track.target)?;
    let frames: Vec<f64> = track.keys.iter().map(|k| k.frame).collect();
    let weights: Vec<f64> = track.keys.iter().map(|k| k.value).collect();
    d.set_item("frames", PyArray1::from_vec(py, frames))?;
    d.set_item("weights", PyArray1::from_vec(py, weights))?;
    make(cls, d)
}

/// The weight track a `WeightTrack._to_native()` dict describes.
pub(crate) fn weights_from_python(d: &Bound<'_, PyDict>) -> PyResult<WeightTrack> {
    let what = "WeightTrack";
    let frames: Vec<f64> = vector(d, what, "frames")?;
    let weights: Vec<f64> = vector(d, what, "weights")?;
    expect_len(what, "weights", weights.len(), frames.len(), "the number of frames")?;
    Ok(WeightTrack {
        target: get(d, what, "target")?,
        keys: frames.into_iter().zip(weights).map(|(f, w)| Key::new(f, w)).collect(),
    })
}
