//! Blend shapes both ways: BlendShape nodes <-> [`MorphTarget`]s of the scene's meshes, and
//! `bs` curves <-> [`WeightTrack`]s.
//!
//! - A BlendShape (`n`, `b` the base Mesh's hash, `vi` vertex indices, `vp` the final
//!   positions of those vertices, `ts` the maximum weight) becomes a morph target of its base
//!   mesh: the same indices, offsets `vp - base` (in `f32`) and `ts`'s first value. Writing
//!   gives the final positions back as `base + offset`, so a position comes back bit for bit
//!   whenever its offset was exact in `f32` (see [`MorphTarget`]).
//! - A `bs` curve (`nn` the blend shape's name, `kb` frames, `kv` `f` weights) becomes a
//!   weight track for every target of that name, as the format author's Blender add-on applies
//!   it to every mesh's shape key of that name. Weights are values, not offsets: a `bs` curve
//!   in `relative` mode (added to the rest weight, 0) reads the same as `absolute`; `additive`
//!   curves are read as weights too and reported. Curves are written in the animation's mode.

use std::collections::HashMap;

use animbin_core::math::Vec3;
use animbin_core::scene::{self, ConversionReport, Key, MorphTarget, WeightTrack};
use animbin_core::{Error, ErrorKind, Result};

use super::hashes::NodeHashes;
use crate::FORMAT;
use crate::layout::NodeKind;
use crate::model::{Node, Property, Value};
use crate::nodes;

/// The `kp` of blend-shape weight curves.
pub(super) const WEIGHT_PROPERTY: &str = "bs";

/// Adds the model's BlendShape nodes to the meshes they deform as morph targets.
///
/// `meshes_by_hash` maps a Mesh node's hash (first of its scope) to its index in `meshes`.
/// A blend shape whose base is not a mesh of the model, whose `vi` and `vp` differ in length,
/// or whose indices point past the base mesh is skipped and reported.
pub(super) fn import_blend_shapes(
    model: nodes::Model<'_>,
    meshes_by_hash: &HashMap<u64, usize>,
    meshes: &mut [scene::Mesh],
    report: &mut ConversionReport,
) {
    for shape in model.blend_shapes() {
        let name = shape.name().unwrap_or_default();
        let skip = |report: &mut ConversionReport, why: &str| {
            report.lose(format!("blend shapes {why} (such as {name:?}; skipped)"));
        };
        let Some(&mesh) = shape.base_shape().and_then(|hash| meshes_by_hash.get(&hash)) else {
            skip(report, "whose base is not a mesh of their model");
            continue;
        };
        let base = &mut meshes[mesh];
        let indices: Vec<u32> = shape.vertex_indices().map(|i| i.iter().collect()).unwrap_or_default();
        let positions = shape.vertex_positions().unwrap_or_default();
        if indices.len() != positions.len() {
            skip(report, "whose vi and vp differ in length");
            continue;
        }
        let v = base.positions.len();
        if indices.iter().any(|&i| i as usize >= v) {
            skip(report, "with vertex indices past their base mesh");
            continue;
        }
        let position_deltas = indices
            .iter()
            .zip(positions)
            .map(|(&i, &p)| offset(base.positions[i as usize], p))
            .collect();
        let max_weight = match shape.target_weight_scale() {
            None | Some([]) => None,
            Some([ts]) => Some(*ts),
            Some([ts, ..]) => {
                report.lose("blend shape ts values after the first (the scene keeps one maximum weight)");
                Some(*ts)
            }
        };
        for p in &shape.node().properties {
            if !["n", "b", "vi", "vp", "ts"].contains(&p.name.as_ref()) {
                report.lose(format!(
                    "undocumented properties of BlendShape nodes (such as {:?})",
                    p.name
                ));
            }
        }
        if !shape.node().children.is_empty() {
            report.lose("children of BlendShape nodes");
        }
        base.morph_targets.push(MorphTarget {
            default_weight: 0.0,
            name: name.to_string(),
            indices,
            position_deltas,
            normal_deltas: Vec::new(),
            max_weight,
        });
    }
}

/// A `bs` curve as a weight track; `None` when it does not decode as one (no name, frames
/// and values of different lengths, values that are not `f`), so it travels whole instead.
pub(super) fn weight_track(curve: nodes::Curve<'_>, report: &mut ConversionReport) -> Option<WeightTrack> {
    let (Some(name), Some(frames), Some(Value::Float(values))) =
        (curve.node_name(), curve.key_frames(), curve.key_values())
    else {
        return None;
    };
    if frames.len() != values.len() {
        return None;
    }
    if curve.mode() == Some("additive") {
        report.lose("additive blend-shape weight curves (read as weights)");
    }
    if curve.additive_blend_weight().is_some() {
        report.lose("additive blend weights (ab)");
    }
    Some(WeightTrack {
        target: name.to_string(),
        keys: frames
            .iter()
            .zip(values)
            .map(|(f, &w)| Key::new(f64::from(f), f64::from(w)))
            .collect(),
    })
}

/// The offset from `base` to `position`, in `f32` as both are stored.
pub(crate) fn offset(base: Vec3<f32>, position: Vec3<f32>) -> Vec3<f32> {
    Vec3::new(position.x - base.x, position.y - base.y, position.z - base.z)
}

/// `base` moved by `delta`, in `f32`.
pub(crate) fn moved(base: Vec3<f32>, delta: Vec3<f32>) -> Vec3<f32> {
    Vec3::new(base.x + delta.x, base.y + delta.y, base.z + delta.z)
}

fn refuse(message: String) -> Error {
    Error::new(
        FORMAT,
        0,
        ErrorKind::invalid("morph targets that point inside their mesh", message),
    )
}

/// The BlendShape nodes of a scene mesh, whose Mesh node has hash `base`.
///
/// Fails on a target whose offsets do not match its indices or whose indices point past the
/// mesh. Normal offsets are reported (Cast's blend shapes move positions only).
pub(super) fn blend_shape_nodes(
    i: usize,
    mesh: &scene::Mesh,
    base: u64,
    hashes: &mut NodeHashes,
    report: &mut ConversionReport,
) -> Result<Vec<Node>> {
    let v = mesh.positions.len();
    let mut out = Vec::with_capacity(mesh.morph_targets.len());
    for target in &mesh.morph_targets {
        if target.indices.len() != target.position_deltas.len() {
            return Err(refuse(format!(
                "mesh {i}: morph target {:?} has {} indices and {} offsets",
                target.name,
                target.indices.len(),
                target.position_deltas.len()
            )));
        }
        if let Some(&k) = target.indices.iter().find(|&&k| k as usize >= v) {
            return Err(refuse(format!(
                "mesh {i}: morph target {:?} moves vertex {k} of {v}",
                target.name
            )));
        }
        if !target.normal_deltas.is_empty() {
            report.lose("morph target normal offsets (Cast blend shapes move positions only)");
        }
        let positions: Vec<Vec3<f32>> = target
            .indices
            .iter()
            .zip(&target.position_deltas)
            .map(|(&k, &d)| moved(mesh.positions[k as usize], d))
            .collect();
        let mut node = hashes.node(NodeKind::BlendShape);
        node.push(Property::string("n", target.name.clone()));
        node.push(Property::hash("b", base));
        node.push(Property::new("vi", Value::narrowest(&target.indices)));
        node.push(Property::new("vp", Value::Vec3(positions)));
        if let Some(ts) = target.max_weight {
            node.push(Property::new("ts", Value::Float(vec![ts])));
        }
        out.push(node);
    }
    Ok(out)
}

/// Turns one part of a scene key (its frame or its value) into the file's, given the key's
/// description for an error.
pub(super) type KeyPart<'a, T> = dyn FnMut(f64, &dyn Fn() -> String) -> Result<T> + 'a;

/// The `bs` curves of an animation's weight tracks, in `mode`; `frame` turns a scene frame
/// into a key frame (refusing what no `u32` holds) and `value` a weight into the file's
/// `f32`, each naming the key for its error. Returns the curves and their last frame.
pub(super) fn weight_curves(
    anim: &scene::Animation,
    mode: &'static str,
    hashes: &mut NodeHashes,
    frame: &mut KeyPart<'_, u32>,
    value: &mut KeyPart<'_, f32>,
) -> Result<(Vec<Node>, Option<u32>)> {
    let mut curves = Vec::with_capacity(anim.weights.len());
    let mut last = None;
    for track in &anim.weights {
        let name = track.target.as_str();
        let mut kb = Vec::with_capacity(track.keys.len());
        let mut kv = Vec::with_capacity(track.keys.len());
        for (k, key) in track.keys.iter().enumerate() {
            let what = || format!("blend shape {name:?} weight key {k}");
            kb.push(frame(key.frame, &what)?);
            kv.push(value(key.value, &what)?);
        }
        last = last.max(kb.iter().copied().max());
        curves.push(hashes.curve(name, WEIGHT_PROPERTY, &kb, Value::Float(kv), mode));
    }
    Ok((curves, last))
}
