//! Morph targets and `weights` channels: a primitive's targets become the scene mesh's
//! [`MorphTarget`]s, named from `mesh.extras.targetNames` (as Blender and three.js write and
//! read them; `target_k` where absent) and holding the vertices whose offset is not zero;
//! each `weights` channel becomes one [`WeightTrack`] per target of its node's mesh.

use animbin_core::math::Vec3;
use animbin_core::scene::{ConversionReport, Key, MorphTarget, WeightTrack};
use gltf::animation::Interpolation;

use crate::accessor::{self, Buffers};
use crate::error::{Error, Path, Result};

/// The target names of a glTF mesh: `extras.targetNames` where it is a list of `count`
/// strings, else `target_0`, `target_1`, ...
pub(super) fn target_names(mesh: &gltf::Mesh, count: usize) -> Vec<String> {
    let listed: Option<Vec<String>> = mesh
        .extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|v| serde_json::from_value(v.get("targetNames")?.clone()).ok())
        .filter(|names: &Vec<String>| names.len() == count);
    listed.unwrap_or_else(|| (0..count).map(|k| format!("target_{k}")).collect())
}

/// The morph targets of one primitive of `mesh` whose vertex count is `n`; normal offsets
/// are kept when `has_normals` (the scene mesh has normals) and the target has them.
pub(super) fn targets(
    primitive: &gltf::Primitive,
    mesh: &gltf::Mesh,
    n: usize,
    has_normals: bool,
    path: &Path,
    buffers: &Buffers,
    report: &mut ConversionReport,
) -> Result<Vec<MorphTarget>> {
    let count = primitive.morph_targets().len();
    if count == 0 {
        return Ok(Vec::new());
    }
    let names = target_names(mesh, count);
    let mut out = Vec::with_capacity(count);
    for (k, (target, name)) in primitive.morph_targets().zip(names).enumerate() {
        let read = |a: Option<gltf::Accessor>, what: &str| -> Result<Option<Vec<f32>>> {
            let Some(a) = a else { return Ok(None) };
            if a.count() != n {
                return Err(Error::invalid(
                    path.field("targets").index(k).field(what),
                    format!("{n} elements, as POSITION has"),
                    a.count(),
                ));
            }
            Ok(Some(accessor::floats(&a, buffers, &[3], "morph target offsets")?.0))
        };
        let positions = read(target.positions(), "POSITION")?;
        let normals = if has_normals {
            read(target.normals(), "NORMAL")?
        } else {
            None
        };
        if target.tangents().is_some() {
            report.lose(format!(
                "{path}: morph target tangent offsets (the scene has no tangents): skipped"
            ));
        }
        let at = |values: &Option<Vec<f32>>, v: usize| match values {
            Some(values) => Vec3::new(values[v * 3], values[v * 3 + 1], values[v * 3 + 2]),
            None => Vec3::new(0.0, 0.0, 0.0),
        };
        let zero = |d: Vec3<f32>| d.x == 0.0 && d.y == 0.0 && d.z == 0.0;
        let mut t = MorphTarget {
            name,
            ..MorphTarget::default()
        };
        for v in 0..n {
            let (p, nm) = (at(&positions, v), at(&normals, v));
            if !zero(p) || !zero(nm) {
                t.indices.push(v as u32);
                t.position_deltas.push(p);
                t.normal_deltas.push(nm);
            }
        }
        if normals.is_none() {
            t.normal_deltas.clear();
        }
        out.push(t);
    }
    Ok(out)
}

/// A `weights` channel read but not yet on frames: the target names of its node's mesh, the
/// key times in seconds and the weights, one per target per key.
pub(super) struct WeightChannel {
    names: Vec<String>,
    times: Vec<f32>,
    values: Vec<f32>,
    interpolation: Interpolation,
}

/// Reads a `weights` channel; `None` (reported) when its node shows no mesh with targets.
pub(super) fn read_channel(
    channel: &gltf::animation::Channel,
    buffers: &Buffers,
    path: &Path,
    label: &dyn Fn() -> String,
    report: &mut ConversionReport,
) -> Result<Option<WeightChannel>> {
    let node = channel.target().node();
    let Some(mesh) = node.mesh() else {
        report.lose(format!("{}: weights on a node without a mesh: skipped", label()));
        return Ok(None);
    };
    let count = mesh.primitives().next().map_or(0, |p| p.morph_targets().len());
    if count == 0 {
        report.lose(format!("{}: weights on a mesh without morph targets: skipped", label()));
        return Ok(None);
    }
    let sampler = channel.sampler();
    let spath = path.field("samplers").index(sampler.index());
    let times = super::animation::key_times(&sampler, buffers, &spath)?;
    let (values, _) = accessor::floats(&sampler.output(), buffers, &[1], "weights")?;
    let interpolation = sampler.interpolation();
    let per_key = if interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    };
    if values.len() != times.len() * count * per_key {
        return Err(Error::invalid(
            spath.field("output"),
            format!("{} weights, {count} per key time", times.len() * count * per_key),
            values.len(),
        ));
    }
    Ok(Some(WeightChannel {
        names: target_names(&mesh, count),
        times,
        values,
        interpolation,
    }))
}

/// The weight tracks of an animation's `weights` channels, frames from seconds by
/// `framerate` and `snap`; one track per target name (a name that several meshes share with
/// other keys keeps the first mesh's, reported). Returns the tracks, the last frame and
/// whether any channel was a step or cubic spline one.
pub(super) fn weight_tracks(
    channels: Vec<WeightChannel>,
    framerate: f64,
    snap: fn(f64) -> f64,
    label: &dyn Fn() -> String,
    report: &mut ConversionReport,
) -> (Vec<WeightTrack>, f64, Vec<Interpolation>) {
    let mut tracks: Vec<WeightTrack> = Vec::new();
    let mut last = f64::NEG_INFINITY;
    let mut interpolations = Vec::new();
    for c in channels {
        let count = c.names.len();
        let cubic = c.interpolation == Interpolation::CubicSpline;
        interpolations.push(c.interpolation);
        let stride = if cubic { 3 * count } else { count };
        let skip = if cubic { count } else { 0 };
        let frames: Vec<f64> = c.times.iter().map(|&t| snap(f64::from(t) * framerate)).collect();
        last = frames.iter().copied().fold(last, f64::max);
        for (k, name) in c.names.into_iter().enumerate() {
            let keys: Vec<Key<f64>> = frames
                .iter()
                .enumerate()
                .map(|(i, &f)| Key::new(f, f64::from(c.values[i * stride + skip + k])))
                .collect();
            match tracks.iter().find(|t| t.target == name) {
                Some(t) if t.keys == keys => {}
                Some(_) => report.lose(format!(
                    "{}: different weights for targets of one name ({name:?}) on several meshes (the scene keys targets by name): the first kept",
                    label()
                )),
                None => tracks.push(WeightTrack { target: name, keys: keys.into() }),
            }
        }
    }
    (tracks, last, interpolations)
}

/// The tracks animbin's extras name, in that order: a `weights` channel holds every target of
/// its mesh, and the targets the scene had no track for are left out again.
pub(super) fn keep_named(mut tracks: Vec<WeightTrack>, names: &[String]) -> Vec<WeightTrack> {
    names
        .iter()
        .filter_map(|name| {
            let i = tracks.iter().position(|t| t.target == *name)?;
            Some(tracks.swap_remove(i))
        })
        .collect()
}
