//! The SEBlend trailer <-> the scene meshes' morph targets.
//!
//! What is known of the SEModel trailer (`../shared/FORMATS.md`, and Greyhound's public
//! SEModel export code, the only writer of it): after the material block, unflagged, `u64`
//! magic `"SEBlend\n"`, `u64` shape count, the shape names (NUL-terminated, one list for the
//! whole model), then for each mesh, for each vertex, `u32 n` and `n` times
//! `(u32 shapeIndex, f32 delta[3])`: offsets from the base position, not final positions.
//! No reader of the format's own tools parses it (they stop at the material block); that the
//! deltas are in the mesh's units and axes, like the positions, is read from Greyhound's code
//! and not confirmed by a file another tool reads back.
//!
//! In the scene every mesh holds one [`MorphTarget`] per shape name, in the trailer's order,
//! with the vertices that list that shape (a target that moves none of a mesh's vertices is
//! kept, empty, so that the name list comes back whole). Writing walks the meshes' targets:
//! each new name (counting repeats, so a list with a name twice comes back so) joins the
//! list, and each vertex lists its offsets in target order. A file whose vertices list their
//! shapes in ascending order, as Greyhound writes them, comes back byte for byte.

use animbin_core::scene::{self, ConversionReport, MorphTarget};
use animbin_core::seblend::Trailer;
use animbin_core::{Error, ErrorKind, Result};

use crate::FORMAT;
use crate::layout::blend::{BlendShapes, MeshBlend, VertexBlend};
use crate::layout::records::BlendDelta;

fn refuse(message: String) -> Error {
    Error::new(
        FORMAT,
        0,
        ErrorKind::invalid("blend shape indices that point inside the model", message),
    )
}

/// The morph targets of mesh `mesh` of the trailer: one per shape name.
///
/// Fails on a shape index past the name list.
pub(crate) fn targets(blend: &BlendShapes, mesh: usize) -> Result<Vec<MorphTarget>> {
    let mut targets: Vec<MorphTarget> = blend
        .names
        .iter()
        .map(|name| MorphTarget {
            name: name.clone(),
            ..MorphTarget::default()
        })
        .collect();
    let Some(vertices) = blend.meshes.get(mesh) else {
        return Ok(targets);
    };
    for (v, vertex) in vertices.vertices.iter().enumerate() {
        for delta in &vertex.deltas {
            let target = targets.get_mut(delta.shape as usize).ok_or_else(|| {
                refuse(format!(
                    "SEBlend: mesh {mesh} vertex {v} moves shape {}, past the {} shape names",
                    delta.shape,
                    blend.names.len()
                ))
            })?;
            target.indices.push(v as u32);
            target.position_deltas.push(delta.delta);
        }
    }
    Ok(targets)
}

/// Reports what the scene does not keep of a trailer with no shapes at all.
pub(crate) fn lose_empty(blend: &BlendShapes, report: &mut ConversionReport) {
    if blend.names.is_empty() {
        report.lose("an SEBlend trailer with no shapes");
    }
}

/// The SEBlend trailer of a scene's meshes; [`Trailer::None`] when no mesh has a target.
///
/// Fails on a target whose indices and offsets differ in length or whose indices point past
/// its mesh. Normal offsets and maximum weights are reported (SEBlend holds neither).
pub(crate) fn trailer(meshes: &[scene::Mesh], report: &mut ConversionReport) -> Result<Trailer<BlendShapes>> {
    if meshes.iter().all(|m| m.morph_targets.is_empty()) {
        return Ok(Trailer::None);
    }
    let mut names: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(meshes.len());
    for (i, mesh) in meshes.iter().enumerate() {
        let v = mesh.positions.len();
        let mut vertices = vec![VertexBlend::default(); v];
        // The k-th target of one name on this mesh is the k-th shape of that name.
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for target in &mesh.morph_targets {
            if target.indices.len() != target.position_deltas.len() {
                return Err(refuse(format!(
                    "mesh {i}: morph target {:?} has {} indices and {} offsets",
                    target.name,
                    target.indices.len(),
                    target.position_deltas.len()
                )));
            }
            if !target.normal_deltas.is_empty() {
                report.lose("morph target normal offsets (SEBlend holds position offsets only)");
            }
            if target.max_weight.is_some() {
                report.lose("morph target maximum weights (SEBlend has none)");
            }
            let nth = match seen.iter_mut().find(|(n, _)| *n == target.name) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    seen.push((&target.name, 0));
                    0
                }
            };
            let shape = match names.iter().enumerate().filter(|(_, n)| **n == target.name).nth(nth) {
                Some((s, _)) => s,
                None => {
                    names.push(target.name.clone());
                    names.len() - 1
                }
            };
            let shape = u32::try_from(shape).map_err(|_| refuse(format!("shape {shape} does not fit a u32")))?;
            for (&k, &delta) in target.indices.iter().zip(&target.position_deltas) {
                let vertex = vertices.get_mut(k as usize).ok_or_else(|| {
                    refuse(format!(
                        "mesh {i}: morph target {:?} moves vertex {k} of {v}",
                        target.name
                    ))
                })?;
                vertex.deltas.push(BlendDelta { shape, delta });
            }
        }
        out.push(MeshBlend { vertices });
    }
    Ok(Trailer::SeBlend(BlendShapes { names, meshes: out }))
}
