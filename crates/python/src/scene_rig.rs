//! IK handles, constraints and the model name between the scene and Python: a skeleton's
//! `ik_handles` and `constraints` are lists of plain dicts (bones by index), the scene's
//! `name` a string.

use animbin::core::math::{Quat, Vec3};
use animbin::core::scene::{Constraint, ConstraintKind, ConstraintOffset, IkHandle, Skeleton};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The name of a constraint kind in Python: `"point"`, `"orient"` or `"scale"`.
fn kind_name(kind: ConstraintKind) -> &'static str {
    match kind {
        ConstraintKind::Point => "point",
        ConstraintKind::Orient => "orient",
        ConstraintKind::Scale => "scale",
    }
}

/// Sets `ik_handles` and `constraints` of the skeleton dict `d`.
pub(crate) fn rig_to_python(d: &Bound<'_, PyDict>, skeleton: &Skeleton) -> PyResult<()> {
    let py = d.py();
    let handles = PyList::empty(py);
    for h in &skeleton.ik_handles {
        let e = PyDict::new(py);
        e.set_item("name", &h.name)?;
        e.set_item("start", h.start)?;
        e.set_item("end", h.end)?;
        e.set_item("target", h.target)?;
        e.set_item("target_offset", h.target_offset.map(|v| (v.x, v.y, v.z)))?;
        e.set_item("pole_vector", h.pole_vector)?;
        e.set_item("pole", h.pole)?;
        e.set_item("use_target_rotation", h.use_target_rotation)?;
        handles.append(e)?;
    }
    d.set_item("ik_handles", handles)?;
    let constraints = PyList::empty(py);
    for c in &skeleton.constraints {
        let e = PyDict::new(py);
        e.set_item("name", &c.name)?;
        e.set_item("kind", kind_name(c.kind))?;
        e.set_item("bone", c.bone)?;
        e.set_item("target", c.target)?;
        e.set_item("maintain_offset", c.maintain_offset)?;
        match c.offset {
            None => e.set_item("offset", py.None())?,
            Some(ConstraintOffset::Vector(v)) => e.set_item("offset", (v.x, v.y, v.z))?,
            Some(ConstraintOffset::Rotation(q)) => e.set_item("offset", (q.x, q.y, q.z, q.w))?,
        }
        e.set_item("weight", c.weight)?;
        e.set_item("skip", (c.skip[0], c.skip[1], c.skip[2]))?;
        constraints.append(e)?;
    }
    d.set_item("constraints", constraints)
}

/// Entry `name` of `e`, `None` when absent or `None`.
pub(crate) fn opt<'py, T: for<'a> FromPyObject<'a, 'py, Error = PyErr>>(
    e: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
) -> PyResult<Option<T>> {
    match e.get_item(name)? {
        Some(v) if !v.is_none() => v
            .extract()
            .map(Some)
            .map_err(|err| PyValueError::new_err(format!("{what}.{name}: {err}"))),
        _ => Ok(None),
    }
}

/// Entry `name` of `e`, required.
pub(crate) fn req<'py, T: for<'a> FromPyObject<'a, 'py, Error = PyErr>>(
    e: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
) -> PyResult<T> {
    opt(e, what, name)?.ok_or_else(|| PyValueError::new_err(format!("{what}.{name}: missing")))
}

/// A bone index below `n`.
fn bone(index: usize, n: usize, what: &str, name: &str) -> PyResult<usize> {
    if index < n {
        Ok(index)
    } else {
        Err(PyValueError::new_err(format!("{what}.{name}: bone {index} of {n}")))
    }
}

/// Reads `ik_handles` and `constraints` of the skeleton dict `d` (absent: none) into
/// `skeleton`, whose bones they index.
pub(crate) fn rig_from_python(d: &Bound<'_, PyDict>, skeleton: &mut Skeleton) -> PyResult<()> {
    let n = skeleton.bones.len();
    if let Some(list) = d.get_item("ik_handles")?.filter(|v| !v.is_none()) {
        for (i, e) in list.try_iter()?.enumerate() {
            let what = format!("Skeleton.ik_handles[{i}]");
            let e = e?
                .cast_into::<PyDict>()
                .map_err(|_| PyValueError::new_err(format!("{what}: expected a dict")))?;
            let opt_bone = |name: &str| -> PyResult<Option<usize>> {
                opt::<usize>(&e, &what, name)?
                    .map(|b| bone(b, n, &what, name))
                    .transpose()
            };
            skeleton.ik_handles.push(IkHandle {
                name: opt(&e, &what, "name")?.unwrap_or_default(),
                start: bone(req(&e, &what, "start")?, n, &what, "start")?,
                end: bone(req(&e, &what, "end")?, n, &what, "end")?,
                target: opt_bone("target")?,
                target_offset: opt::<(f64, f64, f64)>(&e, &what, "target_offset")?.map(|(x, y, z)| Vec3::new(x, y, z)),
                pole_vector: opt_bone("pole_vector")?,
                pole: opt_bone("pole")?,
                use_target_rotation: opt(&e, &what, "use_target_rotation")?.unwrap_or(false),
            });
        }
    }
    if let Some(list) = d.get_item("constraints")?.filter(|v| !v.is_none()) {
        for (i, e) in list.try_iter()?.enumerate() {
            let what = format!("Skeleton.constraints[{i}]");
            let e = e?
                .cast_into::<PyDict>()
                .map_err(|_| PyValueError::new_err(format!("{what}: expected a dict")))?;
            let kind_text: String = req(&e, &what, "kind")?;
            let kind = [ConstraintKind::Point, ConstraintKind::Orient, ConstraintKind::Scale]
                .into_iter()
                .find(|k| kind_name(*k) == kind_text)
                .ok_or_else(|| {
                    PyValueError::new_err(format!("{what}.kind: {kind_text:?} is not point, orient or scale"))
                })?;
            let offset = match opt::<Vec<f64>>(&e, &what, "offset")?.as_deref() {
                None => None,
                Some(&[x, y, z]) if kind != ConstraintKind::Orient => {
                    Some(ConstraintOffset::Vector(Vec3::new(x, y, z)))
                }
                Some(&[x, y, z, w]) if kind == ConstraintKind::Orient => {
                    Some(ConstraintOffset::Rotation(Quat::new(x, y, z, w)))
                }
                Some(_) => {
                    return Err(PyValueError::new_err(format!(
                        "{what}.offset: expected (x, y, z) for point and scale, (x, y, z, w) for orient"
                    )));
                }
            };
            let skip: Option<(bool, bool, bool)> = opt(&e, &what, "skip")?;
            let skip = skip.map_or([false; 3], |(x, y, z)| [x, y, z]);
            skeleton.constraints.push(Constraint {
                name: opt(&e, &what, "name")?.unwrap_or_default(),
                kind,
                bone: bone(req(&e, &what, "bone")?, n, &what, "bone")?,
                target: bone(req(&e, &what, "target")?, n, &what, "target")?,
                maintain_offset: opt(&e, &what, "maintain_offset")?.unwrap_or(false),
                offset,
                weight: opt(&e, &what, "weight")?,
                skip,
            });
        }
    }
    Ok(())
}
