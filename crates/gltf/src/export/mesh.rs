//! Meshes: the one primitive of each scene mesh, with its vertex attributes, skin weights
//! and indices.

use std::collections::{BTreeMap, HashSet};

use animbin_core::scene::{ConversionReport, Mesh, Scene};

use super::builder::Builder;
use super::skin::skin_attributes;
use crate::error::{Error, Result};
use crate::json::{self, component, target};

/// The primitive of one scene mesh, or `None` (reported) when it has no vertices.
pub(super) fn mesh_primitive(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    mesh: &Mesh,
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
    let positions: Vec<f32> = mesh.positions.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    let a = b.floats(&positions, "VEC3", 3, Some(target::ARRAY_BUFFER), true, &|| {
        format!("{} positions", label())
    })?;
    attributes.insert("POSITION".to_string(), a);
    if !mesh.normals.is_empty() {
        let mut fixed = 0;
        let normals: Vec<f32> = mesh
            .normals
            .iter()
            .flat_map(|v| {
                let len = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
                if len.is_finite() && len > 1e-12 {
                    [v.x / len, v.y / len, v.z / len]
                } else {
                    fixed += 1;
                    [0.0, 0.0, 1.0]
                }
            })
            .collect();
        if fixed > 0 {
            report.lose(format!(
                "{}: {fixed} zero or non-finite normal(s) replaced by +Z (glTF normals are unit length)",
                label()
            ));
        }
        let a = b.floats(&normals, "VEC3", 3, Some(target::ARRAY_BUFFER), false, &|| {
            format!("{} normals", label())
        })?;
        attributes.insert("NORMAL".to_string(), a);
    }
    for (layer, uvs) in mesh.uv_layers.iter().enumerate() {
        let values: Vec<f32> = uvs.iter().flat_map(|uv| [uv.x, uv.y]).collect();
        let a = b.floats(&values, "VEC2", 2, Some(target::ARRAY_BUFFER), false, &|| {
            format!("{} UV layer {layer}", label())
        })?;
        attributes.insert(format!("TEXCOORD_{layer}"), a);
    }
    if !mesh.colors.is_empty() {
        let layers = std::iter::once(&mesh.colors).chain(&mesh.extra_color_layers);
        for (set, layer) in layers.enumerate() {
            let values: Vec<u32> = layer.iter().flat_map(|c| [c.r, c.g, c.b, c.a].map(u32::from)).collect();
            let a = b.uints(&values, component::U8, "VEC4", 4, Some(target::ARRAY_BUFFER), true);
            attributes.insert(format!("COLOR_{set}"), a);
        }
    }
    if let Some(skin) = &mesh.skin {
        if scene.skeleton.bones.is_empty() {
            report.lose(format!("{}: skin weights but no skeleton: exported unskinned", label()));
        } else {
            let s = skin_attributes(scene, index, mesh, skin, report)?;
            let a = b.uints(&s.joints, s.component, "VEC4", 4, Some(target::ARRAY_BUFFER), false);
            attributes.insert("JOINTS_0".to_string(), a);
            let a = b.floats(&s.weights, "VEC4", 4, Some(target::ARRAY_BUFFER), false, &|| {
                format!("{} weights", label())
            })?;
            attributes.insert("WEIGHTS_0".to_string(), a);
        }
    }
    let (indices, mode) = if mesh.faces.is_empty() {
        report.lose(format!("{}: no faces: exported as points", label()));
        (None, Some(0))
    } else {
        let mut flat = Vec::with_capacity(mesh.faces.len() * 3);
        for (f, face) in mesh.faces.iter().enumerate() {
            for &v in face {
                if v as usize >= n {
                    return Err(Error::Unencodable(format!(
                        "{}: face {f} uses vertex {v}, but there are {n} vertices",
                        label()
                    )));
                }
                flat.push(v);
            }
        }
        // 0xFFFF and 0xFFFFFFFF are primitive restart values, which glTF forbids as indices.
        let component = if n <= 0xFFFF { component::U16 } else { component::U32 };
        let a = b.uints(&flat, component, "SCALAR", 1, Some(target::ELEMENT_ARRAY_BUFFER), false);
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
