//! The scene graph beside the rig, between the scene and Python: `Scene.mesh_instances`,
//! `skins`, `cameras` and `lights`, and a material's `links` and `surface`, each a plain dict
//! naming nodes, meshes and images by index (as `ik_handles` and `constraints` do); a skin's
//! inverse bind matrices are a (J, 4, 4) `float64` array.

use animbin::core::math::Mat4;
use animbin::core::scene::{
    Camera, ChannelCurves, Curve, Light, LightKind, MeshInstance, Projection, Skin, Surface, Tangents, TextureLink,
    TextureSlot, UvTransform,
};
use numpy::{PyArrayMethods, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::scene::array2;
use crate::scene_rig::{opt, req};

/// The dicts of list `name` of `d` (absent or `None`: none), each named `what[i]` in errors.
fn each<'py, T>(
    d: &Bound<'py, PyDict>,
    what: &str,
    name: &str,
    mut from: impl FnMut(&Bound<'py, PyDict>, &str) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let Some(list) = d.get_item(name)?.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    let list = list
        .cast_into::<PyList>()
        .map_err(|_| PyValueError::new_err(format!("{what}.{name}: expected a list of dicts")))?;
    list.iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("{what}.{name}[{i}]");
            let item = item
                .cast_into::<PyDict>()
                .map_err(|_| PyValueError::new_err(format!("{at}: expected a dict")))?;
            from(&item, &at)
        })
        .collect()
}

/// Sets `mesh_instances`, `skins`, `cameras` and `lights` of the scene dict `d`.
pub(crate) fn graph_to_python(
    d: &Bound<'_, PyDict>,
    mesh_instances: &[MeshInstance],
    skins: &[Skin],
    cameras: &[Camera],
    lights: &[Light],
) -> PyResult<()> {
    let py = d.py();
    let list = PyList::empty(py);
    for instance in mesh_instances {
        let e = PyDict::new(py);
        e.set_item("node", instance.node)?;
        e.set_item("meshes", &instance.meshes)?;
        e.set_item("name", &instance.name)?;
        list.append(e)?;
    }
    d.set_item("mesh_instances", list)?;

    let list = PyList::empty(py);
    for skin in skins {
        let e = PyDict::new(py);
        e.set_item("name", &skin.name)?;
        e.set_item("joints", &skin.joints)?;
        let count = skin.inverse_bind_matrices.len();
        if count == 0 {
            e.set_item("inverse_bind_matrices", py.None())?;
        } else {
            let flat: Vec<f64> = skin
                .inverse_bind_matrices
                .iter()
                .flat_map(|m| m.rows.concat())
                .collect();
            let array = array2(py, flat, count, 16)?.call_method1("reshape", ((count, 4, 4),))?;
            e.set_item("inverse_bind_matrices", array)?;
        }
        e.set_item("skeleton", skin.skeleton)?;
        list.append(e)?;
    }
    d.set_item("skins", list)?;

    let list = PyList::empty(py);
    for camera in cameras {
        let e = PyDict::new(py);
        e.set_item("name", &camera.name)?;
        e.set_item("node", camera.node)?;
        match camera.projection {
            Projection::Perspective {
                yfov,
                aspect_ratio,
                znear,
                zfar,
            } => {
                e.set_item("type", "perspective")?;
                e.set_item("yfov", yfov)?;
                e.set_item("aspect_ratio", aspect_ratio)?;
                e.set_item("znear", znear)?;
                e.set_item("zfar", zfar)?;
            }
            Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            } => {
                e.set_item("type", "orthographic")?;
                e.set_item("xmag", xmag)?;
                e.set_item("ymag", ymag)?;
                e.set_item("znear", znear)?;
                e.set_item("zfar", zfar)?;
            }
        }
        list.append(e)?;
    }
    d.set_item("cameras", list)?;

    let list = PyList::empty(py);
    for light in lights {
        let e = PyDict::new(py);
        e.set_item("name", &light.name)?;
        e.set_item("node", light.node)?;
        let kind = match light.kind {
            LightKind::Directional => "directional",
            LightKind::Point => "point",
            LightKind::Spot {
                inner_cone_angle,
                outer_cone_angle,
            } => {
                e.set_item("inner_cone_angle", inner_cone_angle)?;
                e.set_item("outer_cone_angle", outer_cone_angle)?;
                "spot"
            }
        };
        e.set_item("type", kind)?;
        e.set_item("color", (light.color[0], light.color[1], light.color[2]))?;
        e.set_item("intensity", light.intensity)?;
        e.set_item("range", light.range)?;
        list.append(e)?;
    }
    d.set_item("lights", list)
}

/// The graph lists of the scene dict `d` (`Scene._to_native()`); each is empty where absent.
pub(crate) type Graph = (Vec<MeshInstance>, Vec<Skin>, Vec<Camera>, Vec<Light>);

/// The graph lists a `Scene._to_native()` dict describes, empty where absent.
pub(crate) fn graph_from_python(d: &Bound<'_, PyDict>) -> PyResult<Graph> {
    let mesh_instances = each(d, "Scene", "mesh_instances", |e, at| {
        Ok(MeshInstance {
            node: req(e, at, "node")?,
            meshes: req(e, at, "meshes")?,
            name: opt(e, at, "name")?.unwrap_or_default(),
        })
    })?;
    let skins = each(d, "Scene", "skins", |e, at| {
        let joints: Vec<usize> = req(e, at, "joints")?;
        let inverse_bind_matrices = match e.get_item("inverse_bind_matrices")?.filter(|v| !v.is_none()) {
            None => Vec::new(),
            Some(value) => {
                let array: PyReadonlyArray3<'_, f64> = value.extract().map_err(|err: PyErr| {
                    PyValueError::new_err(format!(
                        "{at}.inverse_bind_matrices: {err} (expected (J, 4, 4) float64)"
                    ))
                })?;
                let shape = array.shape();
                if shape[1] != 4 || shape[2] != 4 || shape[0] != joints.len() {
                    return Err(PyValueError::new_err(format!(
                        "{at}.inverse_bind_matrices: shape {shape:?}, expected ({}, 4, 4), one per joint",
                        joints.len()
                    )));
                }
                let values = array
                    .to_vec()
                    .map_err(|err| PyValueError::new_err(format!("{at}.inverse_bind_matrices: {err}")))?;
                values
                    .chunks_exact(16)
                    .map(|m| Mat4 {
                        rows: [0, 1, 2, 3].map(|r| [m[4 * r], m[4 * r + 1], m[4 * r + 2], m[4 * r + 3]]),
                    })
                    .collect()
            }
        };
        Ok(Skin {
            name: opt(e, at, "name")?.unwrap_or_default(),
            joints,
            inverse_bind_matrices,
            skeleton: opt(e, at, "skeleton")?,
        })
    })?;
    let cameras = each(d, "Scene", "cameras", |e, at| {
        let kind: String = req(e, at, "type")?;
        let projection = match kind.as_str() {
            "perspective" => Projection::Perspective {
                yfov: req(e, at, "yfov")?,
                aspect_ratio: opt(e, at, "aspect_ratio")?,
                znear: req(e, at, "znear")?,
                zfar: opt(e, at, "zfar")?,
            },
            "orthographic" => Projection::Orthographic {
                xmag: req(e, at, "xmag")?,
                ymag: req(e, at, "ymag")?,
                znear: req(e, at, "znear")?,
                zfar: req(e, at, "zfar")?,
            },
            other => {
                return Err(PyValueError::new_err(format!(
                    "{at}.type: {other:?} is neither \"perspective\" nor \"orthographic\""
                )));
            }
        };
        Ok(Camera {
            name: opt(e, at, "name")?.unwrap_or_default(),
            node: req(e, at, "node")?,
            projection,
        })
    })?;
    let lights = each(d, "Scene", "lights", |e, at| {
        let kind: String = req(e, at, "type")?;
        let kind = match kind.as_str() {
            "directional" => LightKind::Directional,
            "point" => LightKind::Point,
            "spot" => LightKind::Spot {
                inner_cone_angle: req(e, at, "inner_cone_angle")?,
                outer_cone_angle: req(e, at, "outer_cone_angle")?,
            },
            other => {
                return Err(PyValueError::new_err(format!(
                    "{at}.type: {other:?} is none of \"directional\", \"point\" and \"spot\""
                )));
            }
        };
        let (r, g, b): (f64, f64, f64) = opt(e, at, "color")?.unwrap_or((1.0, 1.0, 1.0));
        Ok(Light {
            name: opt(e, at, "name")?.unwrap_or_default(),
            node: req(e, at, "node")?,
            kind,
            color: [r, g, b],
            intensity: opt(e, at, "intensity")?.unwrap_or(1.0),
            range: opt(e, at, "range")?,
        })
    })?;
    Ok((mesh_instances, skins, cameras, lights))
}

/// Sets `links` and `surface` of the material dict `d`.
pub(crate) fn material_graph_to_python(
    d: &Bound<'_, PyDict>,
    links: &[TextureLink],
    surface: Option<&Surface>,
) -> PyResult<()> {
    let py = d.py();
    let list = PyList::empty(py);
    for link in links {
        let e = PyDict::new(py);
        e.set_item("slot", link.slot.name())?;
        e.set_item("texture", link.texture)?;
        e.set_item("uv_layer", link.uv_layer)?;
        e.set_item("strength", link.strength)?;
        match &link.transform {
            None => e.set_item("transform", py.None())?,
            Some(t) => {
                let td = PyDict::new(py);
                td.set_item("offset", (t.offset[0], t.offset[1]))?;
                td.set_item("rotation", t.rotation)?;
                td.set_item("scale", (t.scale[0], t.scale[1]))?;
                td.set_item("uv_layer", t.uv_layer)?;
                e.set_item("transform", td)?;
            }
        }
        list.append(e)?;
    }
    d.set_item("links", list)?;
    match surface {
        None => d.set_item("surface", py.None()),
        Some(s) => {
            let e = PyDict::new(py);
            e.set_item("metallic", s.metallic)?;
            e.set_item("roughness", s.roughness)?;
            e.set_item("emissive", (s.emissive[0], s.emissive[1], s.emissive[2]))?;
            e.set_item("double_sided", s.double_sided)?;
            d.set_item("surface", e)
        }
    }
}

/// The `links` and `surface` of a `Material._to_native()` dict, none where absent.
pub(crate) fn material_graph_from_python(
    d: &Bound<'_, PyDict>,
    what: &str,
) -> PyResult<(Vec<TextureLink>, Option<Surface>)> {
    let links = each(d, what, "links", |e, at| {
        let slot: String = req(e, at, "slot")?;
        let slot = TextureSlot::ALL.into_iter().find(|s| s.name() == slot).ok_or_else(|| {
            let names: Vec<&str> = TextureSlot::ALL.iter().map(|s| s.name()).collect();
            PyValueError::new_err(format!("{at}.slot: {slot:?} is none of {}", names.join(", ")))
        })?;
        let transform = match e.get_item("transform")?.filter(|v| !v.is_none()) {
            None => None,
            Some(t) => {
                let t = t
                    .cast_into::<PyDict>()
                    .map_err(|_| PyValueError::new_err(format!("{at}.transform: expected a dict or None")))?;
                let at = format!("{at}.transform");
                let (ou, ov): (f64, f64) = opt(&t, &at, "offset")?.unwrap_or((0.0, 0.0));
                let (su, sv): (f64, f64) = opt(&t, &at, "scale")?.unwrap_or((1.0, 1.0));
                Some(UvTransform {
                    offset: [ou, ov],
                    rotation: opt(&t, &at, "rotation")?.unwrap_or(0.0),
                    scale: [su, sv],
                    uv_layer: opt(&t, &at, "uv_layer")?,
                })
            }
        };
        Ok(TextureLink {
            slot,
            texture: req(e, at, "texture")?,
            uv_layer: opt(e, at, "uv_layer")?.unwrap_or(0),
            strength: opt(e, at, "strength")?,
            transform,
        })
    })?;
    let surface = match d.get_item("surface")?.filter(|v| !v.is_none()) {
        None => None,
        Some(s) => {
            let s = s
                .cast_into::<PyDict>()
                .map_err(|_| PyValueError::new_err(format!("{what}.surface: expected a dict or None")))?;
            let at = format!("{what}.surface");
            let (r, g, b): (f32, f32, f32) = opt(&s, &at, "emissive")?.unwrap_or((0.0, 0.0, 0.0));
            Some(Surface {
                metallic: opt(&s, &at, "metallic")?.unwrap_or(1.0),
                roughness: opt(&s, &at, "roughness")?.unwrap_or(1.0),
                emissive: [r, g, b],
                double_sided: opt(&s, &at, "double_sided")?.unwrap_or(false),
            })
        }
    };
    Ok((links, surface))
}

/// A bone track's `curves`: channel name to `{"type": "linear" | "step"}` or
/// `{"type": "cubic_spline", "incoming": (K, n), "outgoing": (K, n)}` (`float64`, n the
/// channel's components), for the channels joined otherwise than their animation.
pub(crate) fn curves_to_python<'py>(py: Python<'py>, curves: &ChannelCurves) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, curve, n) in [
        ("translation", &curves.translation, 3),
        ("rotation", &curves.rotation, 4),
        ("scale", &curves.scale, 3),
    ] {
        let Some(curve) = curve else { continue };
        let e = PyDict::new(py);
        match curve {
            Curve::Linear => e.set_item("type", "linear")?,
            Curve::Step => e.set_item("type", "step")?,
            Curve::CubicSpline(tangents) => {
                e.set_item("type", "cubic_spline")?;
                for (key, list) in [("incoming", &tangents.incoming), ("outgoing", &tangents.outgoing)] {
                    e.set_item(key, array2(py, list.clone(), list.len() / n, n)?)?;
                }
            }
        }
        d.set_item(name, e)?;
    }
    Ok(d)
}

/// The curves a `BoneTrack._to_native()` dict's `curves` describe (absent: none).
pub(crate) fn curves_from_python(d: &Bound<'_, PyDict>, what: &str) -> PyResult<ChannelCurves> {
    let mut curves = ChannelCurves::default();
    let Some(all) = d.get_item("curves")?.filter(|v| !v.is_none()) else {
        return Ok(curves);
    };
    let all = all
        .cast_into::<PyDict>()
        .map_err(|_| PyValueError::new_err(format!("{what}.curves: expected a dict")))?;
    for (name, value) in all.iter() {
        let name: String = name.extract()?;
        let at = format!("{what}.curves[{name:?}]");
        let (slot, n) = match name.as_str() {
            "translation" => (&mut curves.translation, 3),
            "rotation" => (&mut curves.rotation, 4),
            "scale" => (&mut curves.scale, 3),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "{at}: not a channel (translation, rotation, scale)"
                )));
            }
        };
        let e = value
            .cast_into::<PyDict>()
            .map_err(|_| PyValueError::new_err(format!("{at}: expected a dict")))?;
        let kind: String = req(&e, &at, "type")?;
        *slot = Some(match kind.as_str() {
            "linear" => Curve::Linear,
            "step" => Curve::Step,
            "cubic_spline" => {
                let part = |key: &str| -> PyResult<Vec<f64>> {
                    let array: numpy::PyReadonlyArray2<'_, f64> = req(&e, &at, key)?;
                    if array.shape()[1] != n {
                        return Err(PyValueError::new_err(format!(
                            "{at}.{key}: {} columns, expected {n}",
                            array.shape()[1]
                        )));
                    }
                    array
                        .to_vec()
                        .map_err(|err| PyValueError::new_err(format!("{at}.{key}: {err}")))
                };
                Curve::CubicSpline(Tangents {
                    incoming: part("incoming")?,
                    outgoing: part("outgoing")?,
                })
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "{at}.type: {other:?} is none of \"linear\", \"step\" and \"cubic_spline\""
                )));
            }
        });
    }
    Ok(curves)
}

/// `animbin.transform_matrices`: (N, 4, 4) `float64` matrices of N translations (N, 3),
/// rotations (N, 4, x y z w) and scales (N, 3), each `Transform::to_matrix` of core (rows;
/// translation in `[:3, 3]`), so that Python's matrices are the library's.
#[pyfunction]
#[pyo3(name = "_transform_matrices")]
pub(crate) fn transform_matrices<'py>(
    py: Python<'py>,
    translations: numpy::PyReadonlyArray2<'py, f64>,
    rotations: numpy::PyReadonlyArray2<'py, f64>,
    scales: numpy::PyReadonlyArray2<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (t, r, s) = (translations.as_array(), rotations.as_array(), scales.as_array());
    let n = r.nrows();
    if t.dim() != (n, 3) || r.dim() != (n, 4) || s.dim() != (n, 3) {
        return Err(PyValueError::new_err(format!(
            "translations {:?}, rotations {:?} and scales {:?}: expected (N, 3), (N, 4) and (N, 3)",
            t.dim(),
            r.dim(),
            s.dim()
        )));
    }
    let mut flat: Vec<f64> = Vec::with_capacity(n * 16);
    for i in 0..n {
        let transform = animbin::core::math::Transform {
            translation: animbin::core::math::Vec3::new(t[[i, 0]], t[[i, 1]], t[[i, 2]]),
            rotation: animbin::core::math::Quat::new(r[[i, 0]], r[[i, 1]], r[[i, 2]], r[[i, 3]]),
            scale: animbin::core::math::Vec3::new(s[[i, 0]], s[[i, 1]], s[[i, 2]]),
        };
        flat.extend(transform.to_matrix().rows.iter().flatten());
    }
    Ok(numpy::PyArray1::from_vec(py, flat).reshape([n, 4, 4])?.into_any())
}
