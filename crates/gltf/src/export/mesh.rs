//! Meshes: the one primitive of each scene mesh, with its vertex attributes, skin weights
//! and indices.

use std::collections::{BTreeMap, HashMap, HashSet};

use animbin_core::scene::{ConversionReport, Mesh, Scene};

use animbin_core::math::Vec3;
use zerocopy::IntoBytes;

use super::builder::{Builder, Floats};
use super::skin::skin_attributes;
use crate::error::{Error, Result};
use crate::glb::SceneArray;
use crate::json::{self, component, target};

/// The primitive of one scene mesh, or `None` (reported) when it has no vertices.
///
/// `joints` maps a node to its joint in the mesh's skin, when the skin is one of the scene's
/// own ([`animbin_core::scene::Scene::skins`]); without it joint `i` is node `i`.
pub(super) fn mesh_primitive(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    mesh: &Mesh,
    joints: Option<&HashMap<usize, u32>>,
    report: &mut ConversionReport,
) -> Result<Option<json::Primitive>> {
    let label = || format!("mesh {index} ({:?})", mesh.name);
    let n = mesh.positions.len();
    if n == 0 {
        report.lose(format!(
            "{}: no vertices (glTF accessors need at least one): not exported",
            label()
        ));
        return Ok(None);
    }
    let count_check = |what: &str, len: usize| -> Result<()> {
        if len == 0 || len == n {
            Ok(())
        } else {
            Err(Error::Unencodable(format!(
                "{}: {len} {what} for {n} vertices",
                label()
            )))
        }
    };
    count_check("normals", mesh.normals.len())?;
    count_check("colours", mesh.colors.len())?;
    for layer in &mesh.extra_color_layers {
        count_check("colours", layer.len())?;
    }
    for layer in &mesh.uv_layers {
        if layer.len() != n {
            return Err(Error::Unencodable(format!(
                "{}: a UV layer of {} coordinates for {n} vertices",
                label(),
                layer.len()
            )));
        }
    }
    let mut attributes = BTreeMap::new();
    let positions = b
        .kept(scene, SceneArray::Positions { mesh: index })
        .unwrap_or_else(|| Floats::Owned(mesh.positions.iter().flat_map(|p| [p.x, p.y, p.z]).collect()));
    let a = b.floats(positions, "VEC3", 3, Some(target::ARRAY_BUFFER), true, &|| {
        format!("{} positions", label())
    })?;
    attributes.insert("POSITION".to_string(), a);
    if !mesh.normals.is_empty() {
        let a = normals(b, scene, index, mesh, report, &label)?;
        attributes.insert("NORMAL".to_string(), a);
    }
    for (layer, uvs) in mesh.uv_layers.iter().enumerate() {
        let values = b
            .kept(scene, SceneArray::Uvs { mesh: index, layer })
            .unwrap_or_else(|| Floats::Owned(uvs.iter().flat_map(|uv| [uv.x, uv.y]).collect()));
        let a = b.floats(values, "VEC2", 2, Some(target::ARRAY_BUFFER), false, &|| {
            format!("{} UV layer {layer}", label())
        })?;
        attributes.insert(format!("TEXCOORD_{layer}"), a);
    }
    if !mesh.colors.is_empty() {
        let layers = std::iter::once(&mesh.colors).chain(&mesh.extra_color_layers);
        for (set, layer) in layers.enumerate() {
            let array = SceneArray::Colors { mesh: index, set };
            let view = match b.kept_bytes(scene, array) {
                Some(bytes) => b.kept_view(bytes, array, Some(target::ARRAY_BUFFER)),
                None => b.view(layer.as_bytes(), Some(target::ARRAY_BUFFER)),
            };
            let a = b.accessor(view, component::U8, true, layer.len(), "VEC4", (None, None));
            attributes.insert(format!("COLOR_{set}"), a);
        }
    }
    if let Some(skin) = &mesh.skin {
        if scene.skeleton.bones.is_empty() {
            report.lose(format!("{}: skin weights but no skeleton: exported unskinned", label()));
        } else {
            let mut s = skin_attributes(scene, index, mesh, skin, report)?;
            if let Some(map) = joints {
                for (joint, &w) in s.joints.iter_mut().zip(&s.weights) {
                    if w == 0.0 {
                        *joint = 0;
                        continue;
                    }
                    *joint = *map.get(&(*joint as usize)).ok_or_else(|| {
                        Error::Unencodable(format!(
                            "{}: weights on node {joint}, which the mesh's skin does not list as a joint",
                            label()
                        ))
                    })?;
                }
                s.component = if map.len() <= 0x100 {
                    component::U8
                } else {
                    component::U16
                };
            }
            let a = b.uints(&s.joints, s.component, "VEC4", 4, Some(target::ARRAY_BUFFER), false);
            attributes.insert("JOINTS_0".to_string(), a);
            let a = b.floats(
                Floats::Owned(s.weights),
                "VEC4",
                4,
                Some(target::ARRAY_BUFFER),
                false,
                &|| format!("{} weights", label()),
            )?;
            attributes.insert("WEIGHTS_0".to_string(), a);
        }
    }
    let (indices, mode) = if mesh.faces.is_empty() {
        report.lose(format!("{}: no faces: exported as points", label()));
        (None, Some(0))
    } else {
        if let Some((f, v)) = mesh
            .faces
            .iter()
            .enumerate()
            .find_map(|(f, face)| face.iter().find(|&&v| v as usize >= n).map(|&v| (f, v)))
        {
            return Err(Error::Unencodable(format!(
                "{}: face {f} uses vertex {v}, but there are {n} vertices",
                label()
            )));
        }
        // 0xFFFF and 0xFFFFFFFF are primitive restart values, which glTF forbids as indices.
        let target = Some(target::ELEMENT_ARRAY_BUFFER);
        let component = if n <= 0xFFFF { component::U16 } else { component::U32 };
        let array = SceneArray::Faces { mesh: index };
        let a = match b.kept_bytes(scene, array).filter(|_| component == component::U32) {
            Some(bytes) => {
                let view = b.kept_view(bytes, array, target);
                b.accessor(view, component, false, mesh.faces.len() * 3, "SCALAR", (None, None))
            }
            None => b.uints(mesh.faces.as_flattened(), component, "SCALAR", 1, target, false),
        };
        (Some(a), None)
    };
    let material = mesh
        .materials
        .iter()
        .flatten()
        .copied()
        .find(|&m| m < scene.materials.len());
    let distinct: HashSet<_> = mesh.materials.iter().flatten().collect();
    if distinct.len() > 1 {
        report.lose(format!(
            "{}: {} materials (one per UV layer); a glTF primitive shows one, the first (all are kept in extras)",
            label(),
            distinct.len()
        ));
    }
    if mesh.materials.iter().flatten().any(|&m| m >= scene.materials.len()) {
        report.lose(format!(
            "{}: a material index past the material list: left out",
            label()
        ));
    }
    let has_normals = attributes.contains_key("NORMAL");
    let targets = super::morph::targets(b, mesh, &label, has_normals, report)?;
    Ok(Some(json::Primitive {
        attributes,
        indices,
        material,
        mode,
        targets,
    }))
}

/// The NORMAL accessor: unit normals as they are (from the kept scene when they can be),
/// others made unit, and zero or non-finite ones replaced by +Z (reported).
fn normals(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    mesh: &Mesh,
    report: &mut ConversionReport,
    label: &dyn Fn() -> String,
) -> Result<usize> {
    // A normal unit to f32's rounding stays as it is (dividing it by its length again would
    // move its last bits, and again on every trip); the validator allows far more.
    let unit = |v: Vec3<f32>| {
        let len = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
        if (len - 1.0).abs() <= 1e-5 {
            return Some([v.x, v.y, v.z]);
        }
        (len.is_finite() && len > 1e-12).then(|| [v.x / len, v.y / len, v.z / len])
    };
    // Written from the scene only when making them unit changes no bit.
    let kept = b
        .kept(scene, SceneArray::Normals { mesh: index })
        .filter(|_| mesh.normals.iter().all(|&v| unit(v) == Some([v.x, v.y, v.z])));
    let values = match kept {
        Some(kept) => kept,
        None => {
            let mut fixed = 0;
            let normals = mesh
                .normals
                .iter()
                .flat_map(|&v| {
                    unit(v).unwrap_or_else(|| {
                        fixed += 1;
                        [0.0, 0.0, 1.0]
                    })
                })
                .collect();
            if fixed > 0 {
                report.lose(format!(
                    "{}: {fixed} zero or non-finite normal(s) replaced by +Z (glTF normals are unit length)",
                    label()
                ));
            }
            Floats::Owned(normals)
        }
    };
    b.floats(values, "VEC3", 3, Some(target::ARRAY_BUFFER), false, &|| {
        format!("{} normals", label())
    })
}
