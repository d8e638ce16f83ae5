//! Hair and instances of other scene files as `animbin.Hair` and `animbin.Instance`, and
//! back; the rest of the scene is in [`crate::scene`].

use animbin::core::scene::{Hair, Instance};
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use animbin::core::math::Vec3;

use crate::scene::{field, get, make, placement_from_python, placement_to_python, rows, vec3s_f32, vector};

/// An `animbin.Hair` (`cls`) holding `hair`.
pub(crate) fn hair_to_python<'py>(py: Python<'py>, cls: &Py<PyAny>, hair: Hair) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("name", &hair.name)?;
    d.set_item("segments", PyArray1::from_vec(py, hair.segments))?;
    d.set_item("particles", vec3s_f32(py, &hair.particles)?)?;
    d.set_item("material", hair.material)?;
    make(cls, d)
}

/// The hair a `Hair._to_native()` dict describes: refused (naming `particles`) when the
/// particle count is not the sum of `segments + 1`.
pub(crate) fn hair_from_python(d: &Bound<'_, PyDict>) -> PyResult<Hair> {
    let what = "Hair";
    let segments: Vec<u32> = vector(d, what, "segments")?;
    let particles = rows(d, what, "particles", 3, |r: &[f32]| Vec3::new(r[0], r[1], r[2]))?;
    let hair = Hair {
        name: get(d, what, "name")?,
        segments,
        particles,
        material: get(d, what, "material")?,
    };
    let expected = hair.particle_count();
    if hair.particles.len() as u64 != expected {
        return Err(PyValueError::new_err(format!(
            "{what}.particles: {} rows, but the segments call for {expected} (the sum of segments + 1)",
            hair.particles.len()
        )));
    }
    Ok(hair)
}

/// An `animbin.Instance` (`cls`) holding `instance`.
pub(crate) fn instance_to_python<'py>(
    py: Python<'py>,
    cls: &Py<PyAny>,
    instance: Instance,
) -> PyResult<Bound<'py, PyAny>> {
    let d = PyDict::new(py);
    d.set_item("name", &instance.name)?;
    d.set_item("path", &instance.path)?;
    d.set_item("placement", placement_to_python(py, instance.placement)?)?;
    make(cls, d)
}

/// The instance an `Instance._to_native()` dict describes.
pub(crate) fn instance_from_python(d: &Bound<'_, PyDict>) -> PyResult<Instance> {
    let what = "Instance";
    Ok(Instance {
        name: get(d, what, "name")?,
        path: get(d, what, "path")?,
        placement: placement_from_python(&field(d, what, "placement")?, "Instance.placement")?,
    })
}
