//! Morph targets and their weights: each scene [`MorphTarget`] is a primitive target whose
//! `POSITION` (and, where the mesh has normals and a target moves them, `NORMAL`) accessor
//! holds its offsets, the names go in `mesh.extras.targetNames` (where Blender's importer and
//! three.js look for them), and each animation's weight tracks become one `weights` channel
//! per mesh node with targets.
//!
//! Offsets are written as the smaller of two accessors: sparse (the moved vertices' indices
//! and offsets over zeros; one zero at vertex 0 for a target that moves nothing), or dense
//! (one offset per vertex) when most vertices move.

use std::collections::BTreeMap;

use animbin_core::math::Vec3;
use animbin_core::scene::{Animation, ConversionReport, Interpolation, Mesh, WeightTrack, key_span};
use serde_json::Value;

use super::builder::{Builder, Floats};
use crate::error::{Error, Result};
use crate::json::{self, component, short, target};

/// The targets of a mesh's primitive; `has_normals` says whether the primitive has a
/// `NORMAL` attribute, which normal offsets need.
pub(super) fn targets(
    b: &mut Builder,
    mesh: &Mesh,
    label: &dyn Fn() -> String,
    has_normals: bool,
    report: &mut ConversionReport,
) -> Result<Vec<BTreeMap<String, usize>>> {
    let n = mesh.positions.len();
    let with_normals = mesh.morph_targets.iter().any(|t| !t.normal_deltas.is_empty());
    if with_normals && !has_normals {
        report.lose(format!(
            "{}: morph target normal offsets on a mesh without normals: left out",
            label()
        ));
    }
    if mesh.morph_targets.iter().any(|t| t.max_weight.is_some()) {
        report.lose(format!("{}: morph target maximum weights (glTF has none)", label()));
    }
    let mut out = Vec::with_capacity(mesh.morph_targets.len());
    for (k, t) in mesh.morph_targets.iter().enumerate() {
        let what = || format!("{} morph target {k} ({:?})", label(), t.name);
        if t.indices.len() != t.position_deltas.len()
            || (!t.normal_deltas.is_empty() && t.normal_deltas.len() != t.indices.len())
        {
            return Err(Error::Unencodable(format!(
                "{}: {} indices, {} position and {} normal offsets",
                what(),
                t.indices.len(),
                t.position_deltas.len(),
                t.normal_deltas.len()
            )));
        }
        if let Some(&v) = t.indices.iter().find(|&&v| v as usize >= n) {
            return Err(Error::Unencodable(format!("{}: moves vertex {v} of {n}", what())));
        }
        let mut attributes = BTreeMap::new();
        let a = offsets(b, n, &t.indices, &t.position_deltas, true, &what)?;
        attributes.insert("POSITION".to_string(), a);
        if with_normals && has_normals {
            let a = offsets(b, n, &t.indices, &t.normal_deltas, false, &what)?;
            attributes.insert("NORMAL".to_string(), a);
        }
        out.push(attributes);
    }
    Ok(out)
}

/// A VEC3 accessor of `n` offsets, zero but at `indices` (an empty `values` is all zeros).
/// A vertex listed twice takes its last offset, as applying the list in order would.
fn offsets(
    b: &mut Builder,
    n: usize,
    indices: &[u32],
    values: &[Vec3<f32>],
    bounds: bool,
    what: &dyn Fn() -> String,
) -> Result<usize> {
    let mut moved: BTreeMap<u32, Vec3<f32>> = BTreeMap::new();
    for (&i, &v) in indices.iter().zip(values) {
        if ![v.x, v.y, v.z].iter().all(|c| c.is_finite()) {
            return Err(Error::Unencodable(format!(
                "{}: the offset of vertex {i} is not finite",
                what()
            )));
        }
        moved.insert(i, v);
    }
    let index_size = if n <= 0x100 {
        1
    } else if n <= 0x1_0000 {
        2
    } else {
        4
    };
    // Dense when the sparse form would not be smaller.
    if !moved.is_empty() && moved.len() * (12 + index_size) >= n * 12 {
        let mut dense = vec![0.0f32; n * 3];
        for (&i, v) in &moved {
            dense[i as usize * 3..i as usize * 3 + 3].copy_from_slice(&[v.x, v.y, v.z]);
        }
        return b.floats(
            Floats::Owned(dense),
            "VEC3",
            3,
            Some(target::ARRAY_BUFFER),
            bounds,
            what,
        );
    }
    let (min, max) = if bounds {
        // The bounds count the zeros of the vertices that do not move.
        let mut min = [0.0f32; 3];
        let mut max = [0.0f32; 3];
        for v in moved.values() {
            for (c, x) in [v.x, v.y, v.z].into_iter().enumerate() {
                min[c] = min[c].min(x);
                max[c] = max[c].max(x);
            }
        }
        (Some(min.map(short).to_vec()), Some(max.map(short).to_vec()))
    } else {
        (None, None)
    };
    // A target that moves nothing still lists one zero: readers such as the `gltf` crate
    // want a buffer view or sparse values on every accessor.
    if moved.is_empty() {
        moved.insert(0, Vec3::new(0.0, 0.0, 0.0));
    }
    let sparse = {
        let (component_type, index_bytes): (u32, Vec<u8>) = match index_size {
            1 => (component::U8, moved.keys().map(|&i| i as u8).collect()),
            2 => (
                component::U16,
                moved.keys().flat_map(|&i| (i as u16).to_le_bytes()).collect(),
            ),
            _ => (component::U32, moved.keys().flat_map(|&i| i.to_le_bytes()).collect()),
        };
        let indices = b.view(&index_bytes, None);
        let value_bytes: Vec<u8> = moved
            .values()
            .flat_map(|v| [v.x, v.y, v.z])
            .flat_map(f32::to_le_bytes)
            .collect();
        let values = b.view(&value_bytes, None);
        Some(json::Sparse {
            count: moved.len(),
            indices: json::SparseIndices {
                buffer_view: indices,
                component_type,
            },
            values: json::SparseValues { buffer_view: values },
        })
    };
    b.root.accessors.push(json::Accessor {
        buffer_view: None,
        component_type: component::F32,
        normalized: false,
        count: n,
        kind: "VEC3",
        min,
        max,
        sparse,
    });
    Ok(b.root.accessors.len() - 1)
}

/// The mesh's extras with `targetNames` beside animbin's own (`None` when both are absent).
pub(super) fn with_target_names(extras: Option<Value>, mesh: &Mesh) -> Option<Value> {
    if mesh.morph_targets.is_empty() {
        return extras;
    }
    let mut map = match extras {
        Some(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let names = mesh
        .morph_targets
        .iter()
        .map(|t| Value::String(t.name.clone()))
        .collect();
    map.insert("targetNames".into(), Value::Array(names));
    Some(Value::Object(map))
}

/// The value of a weight track at `frame`: linear (or held, for step interpolation) between
/// keys, held before the first and after the last; 0 without keys.
fn sample(keys: &[(f64, f64)], frame: f64, step: bool) -> f64 {
    key_span(keys, frame).map_or(0.0, |span| span.value(step, |a, b, t| a + (b - a) * t))
}

/// Adds one `weights` channel per mesh node whose targets the animation's weight tracks
/// drive: on the union of those tracks' key times, each target's weight sampled from its
/// track (0 for a target no track drives).
pub(super) fn weight_channels(
    b: &mut Builder,
    anim: &Animation,
    label: &dyn Fn() -> String,
    interpolation: &'static str,
    out: &mut json::Animation,
    report: &mut ConversionReport,
) -> Result<()> {
    if anim.weights.is_empty() {
        return Ok(());
    }
    let sorted: Vec<(&WeightTrack, Vec<(f64, f64)>)> = anim
        .weights
        .iter()
        .map(|t| {
            let mut keys: Vec<(f64, f64)> = t.keys.iter().map(|k| (k.frame, k.value)).collect();
            keys.sort_by(|a, b| a.0.total_cmp(&b.0));
            (t, keys)
        })
        .collect();
    let step = anim.interpolation == Interpolation::Step;
    let mut driven = vec![false; sorted.len()];
    let nodes = b.morph_nodes.clone();
    for (node, names) in &nodes {
        let tracks: Vec<Option<usize>> = names
            .iter()
            .map(|name| sorted.iter().position(|(t, _)| t.target == *name))
            .collect();
        if tracks.iter().all(Option::is_none) {
            continue;
        }
        let mut frames: Vec<f64> = tracks
            .iter()
            .flatten()
            .flat_map(|&t| sorted[t].1.iter().map(|k| k.0))
            .collect();
        if let Some(f) = frames.iter().find(|f| !(f.is_finite() && **f >= 0.0)) {
            return Err(Error::Unencodable(format!(
                "{}: a weight key at frame {f} (glTF times are finite and not negative)",
                label()
            )));
        }
        frames.sort_by(f64::total_cmp);
        let mut times: Vec<f32> = Vec::with_capacity(frames.len());
        let mut kept = Vec::with_capacity(frames.len());
        for f in frames {
            let t = (f / anim.framerate) as f32;
            if times.last().is_none_or(|&last| t > last) {
                times.push(t);
                kept.push(f);
            }
        }
        let mut values = Vec::with_capacity(kept.len() * names.len());
        for &f in &kept {
            for t in &tracks {
                let w = t.map_or(0.0, |t| sample(&sorted[t].1, f, step)) as f32;
                values.push(w);
            }
        }
        for t in tracks.iter().flatten() {
            driven[*t] = true;
        }
        let what = || format!("{} weights of node {node}", label());
        b.channel(
            out,
            *node,
            "weights",
            interpolation,
            (times, Floats::Owned(values)),
            ("SCALAR", 1),
            &what,
        )?;
    }
    let orphans: Vec<String> = sorted
        .iter()
        .zip(&driven)
        .filter(|(_, d)| !**d)
        .map(|((t, _), _)| t.target.clone())
        .collect();
    if !orphans.is_empty() {
        report.lose(format!(
            "{}: {} weight track(s) naming no morph target of an exported mesh ({}): dropped",
            label(),
            orphans.len(),
            super::name_list(&orphans)
        ));
    }
    Ok(())
}
