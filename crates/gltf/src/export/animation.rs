//! Animations: one glTF animation per scene animation, its channels' keys applied against
//! the rest pose as the animation's kind says, and what glTF cannot say kept in its extras.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use animbin_core::math::{Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{
    AnimKind, Animation, BoneTrack, ConversionReport, Curve, Interpolation, Key, KeyValue, Keys, Precision, Scene,
    Tangents,
};

use super::AnimatedBones;
use super::builder::{Builder, Floats, f32x3, unit_f32x4};
use super::name_list;
use crate::error::{Error, Result};
use crate::extras::{self, AnimationExtras, KindOverride};
use crate::json;

/// Keys sorted by time with the values `apply` makes, times in seconds as f32 and strictly
/// increasing (keys whose time repeats are dropped and counted).
pub(super) fn channel_keys<T: Copy, const N: usize>(
    frames: impl Iterator<Item = f64>,
    keys: impl ExactSizeIterator<Item = Key<T>> + Clone,
    framerate: f64,
    apply: &dyn Fn(T) -> Result<[f32; N]>,
    what: &dyn Fn() -> String,
    dropped: &mut usize,
) -> Result<(Vec<f32>, Vec<f32>)> {
    // One pass over the frames: all usable, and mostly in order already (sorted copies only
    // for those that are not).
    let mut in_order = true;
    let mut previous: Option<f64> = None;
    for frame in frames {
        if !(frame.is_finite() && frame >= 0.0) {
            return Err(Error::Unencodable(format!(
                "{}: a key at frame {frame} (glTF times are finite and not negative)",
                what()
            )));
        }
        in_order &= previous.is_none_or(|p| p.total_cmp(&frame).is_le());
        previous = Some(frame);
    }
    let count = keys.len();
    let mut times = Vec::with_capacity(count);
    let mut values = Vec::with_capacity(count * N);
    let mut take = |key: Key<T>| -> Result<()> {
        let t = (key.frame / framerate) as f32;
        if !t.is_finite() {
            return Err(Error::Unencodable(format!("{}: a key at frame {}", what(), key.frame)));
        }
        if times.last().is_some_and(|&last| t <= last) {
            *dropped += 1;
            return Ok(());
        }
        times.push(t);
        values.extend_from_slice(&apply(key.value)?);
        Ok(())
    };
    // Each order is a loop of its own, so that reading keys is not a call per key.
    if in_order {
        keys.into_iter().try_for_each(&mut take)?;
    } else {
        let mut by_frame: Vec<_> = keys.collect();
        by_frame.sort_by(|a, b| a.frame.total_cmp(&b.frame));
        by_frame.into_iter().try_for_each(&mut take)?;
    }
    Ok((times, values))
}

/// Which channel of a bone track.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Path {
    Translation,
    Rotation,
    Scale,
}

impl Path {
    /// The channel target's `path`.
    fn name(self) -> &'static str {
        match self {
            Self::Translation => "translation",
            Self::Rotation => "rotation",
            Self::Scale => "scale",
        }
    }

    /// The curve of its own that `track` gives this channel, if any.
    fn curve(self, track: &BoneTrack) -> Option<&Curve> {
        match self {
            Self::Translation => track.curves.translation.as_ref(),
            Self::Rotation => track.curves.rotation.as_ref(),
            Self::Scale => track.curves.scale.as_ref(),
        }
    }

    /// The output accessor's type and its components.
    fn accessor(self) -> (&'static str, usize) {
        match self {
            Self::Rotation => ("VEC4", 4),
            Self::Translation | Self::Scale => ("VEC3", 3),
        }
    }
}

/// One channel to export: the keys of `path` of track `track`, played as `kind` over the
/// bone's `rest` transform, moving `node`.
struct ChannelJob {
    track: usize,
    path: Path,
    node: usize,
    kind: AnimKind,
    rest: Transform,
    /// How many keys, to size the batches.
    keys: usize,
}

/// The most keys the channels of one batch hold: their values are made side by side (on
/// every core), then added to the buffer in order, so a batch bounds what is held at once.
const BATCH_KEYS: usize = 1 << 18;

/// The fewest keys a batch holds for its channels to be made side by side (an x8an file's
/// 6,000 animations of 66 channels of a dozen keys each took a quarter longer to export
/// when each animation woke the other cores).
const PARALLEL_KEYS: usize = 1 << 14;

/// `jobs` in consecutive batches of about [`BATCH_KEYS`] keys (a larger channel alone).
fn batches(jobs: &[ChannelJob]) -> impl Iterator<Item = &[ChannelJob]> {
    let mut rest = jobs;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut keys = 0;
        let len = rest
            .iter()
            .position(|job| {
                keys += job.keys;
                keys > BATCH_KEYS
            })
            .map_or(rest.len(), |at| at.max(1));
        let (batch, after) = rest.split_at(len);
        rest = after;
        Some(batch)
    })
}

/// The times and values of `job`'s channel of animation `anim` ([`channel_values`] with the
/// job's transform and encoding).
fn job_values(
    kept: Option<&Arc<Scene>>,
    scene: &Scene,
    anim: usize,
    framerate: f64,
    job: &ChannelJob,
    what: &dyn Fn() -> String,
    dropped: &mut usize,
) -> Result<(Vec<f32>, Floats<'static>)> {
    let (kind, rest) = (job.kind, job.rest);
    let at = (anim, job.track, job.path);
    match job.path {
        Path::Translation => channel_values(
            kept,
            scene,
            at,
            framerate,
            (move |v| pose::apply_translation(kind, &rest, v), f32x3, "is not finite"),
            what,
            dropped,
        ),
        Path::Rotation => channel_values(
            kept,
            scene,
            at,
            framerate,
            (
                move |q| pose::apply_rotation(kind, &rest, q),
                unit_f32x4,
                "is not a rotation",
            ),
            what,
            dropped,
        ),
        // Scale keys are written as the scene holds them, whatever the kind.
        Path::Scale => channel_values(
            kept,
            scene,
            at,
            framerate,
            (|v| v, f32x3, "is not finite"),
            what,
            dropped,
        ),
    }
}

/// The times and (in-tangent, value, out-tangent) triples of a cubic spline channel, or
/// `None` where they cannot be written as they are: the keys are not absolute (tangents are
/// kept as the file gave them, not moved against a rest pose), a time repeats or runs
/// backwards in `f32` seconds, a value or tangent is not finite, or the tangents do not fit.
fn cubic_job_values(
    scene: &Scene,
    anim: usize,
    framerate: f64,
    job: &ChannelJob,
    tangents: &Tangents,
) -> Option<(Vec<f32>, Floats<'static>)> {
    if job.kind != AnimKind::Absolute {
        return None;
    }
    let (times, values) = match job.path {
        Path::Rotation => cubic_keys(
            track_keys(scene, anim, job.track, job.path)?,
            tangents,
            framerate,
            unit_f32x4,
        )?,
        Path::Translation | Path::Scale => cubic_keys(
            track_keys(scene, anim, job.track, job.path)?,
            tangents,
            framerate,
            f32x3,
        )?,
    };
    Some((times, Floats::Owned(values)))
}

/// [`cubic_job_values`] for one value type of `N` components.
fn cubic_keys<T: ChannelValue, const N: usize>(
    keys: &Keys<T>,
    tangents: &Tangents,
    framerate: f64,
    encode: Encode<T, N>,
) -> Option<(Vec<f32>, Vec<f32>)> {
    if tangents.incoming.len() != keys.len() * N || tangents.outgoing.len() != keys.len() * N {
        return None;
    }
    let mut times: Vec<f32> = Vec::with_capacity(keys.len());
    let mut values = Vec::with_capacity(keys.len() * 3 * N);
    for (k, key) in keys.iter().enumerate() {
        let t = (key.frame / framerate) as f32;
        if !(key.frame.is_finite() && key.frame >= 0.0 && t.is_finite()) || times.last().is_some_and(|&last| t <= last)
        {
            return None;
        }
        times.push(t);
        values.extend(tangents.incoming[k * N..k * N + N].iter().map(|&c| c as f32));
        values.extend_from_slice(&encode(key.value)?);
        values.extend(tangents.outgoing[k * N..k * N + N].iter().map(|&c| c as f32));
    }
    values.iter().all(|v| v.is_finite()).then_some((times, values))
}

/// The channel `path` of track `track` of animation `anim` in `scene` (none when the scene
/// has no such track).
fn track_keys<T: ChannelValue>(scene: &Scene, anim: usize, track: usize, path: Path) -> Option<&Keys<T>> {
    scene
        .animations
        .get(anim)
        .and_then(|a| a.bones.get(track))
        .map(|t| T::keys(t, path))
}

/// A value type of bone channels: vectors (translation, scale) and quaternions (rotation).
trait ChannelValue: KeyValue + 'static {
    fn keys(track: &BoneTrack, path: Path) -> &Keys<Self>;
}

impl ChannelValue for Vec3<f64> {
    fn keys(track: &BoneTrack, path: Path) -> &Keys<Self> {
        match path {
            Path::Scale => &track.scale,
            _ => &track.translation,
        }
    }
}

impl ChannelValue for animbin_core::math::Quat<f64> {
    fn keys(track: &BoneTrack, _: Path) -> &Keys<Self> {
        &track.rotation
    }
}

/// A channel of a large track of the kept scene whose keys are in frame order at distinct
/// `f32` times and whose values `apply` all takes: its times, and its values as made again
/// from the scene when the file is written (never held). `None` when any of that fails: the
/// caller then makes the values now, with the same result, or names the fault.
fn produced_channel<T: ChannelValue, const N: usize>(
    kept: Option<&Arc<Scene>>,
    scene: &Scene,
    (anim, track, path): (usize, usize, Path),
    framerate: f64,
    apply: impl Fn(T) -> Option<[f32; N]> + Send + Sync + 'static,
) -> Option<(Vec<f32>, Floats<'static>)> {
    let keys = track_keys::<T>(scene, anim, track, path)?;
    // Small channels share a piece of the buffer: made now.
    if keys.len() * N * 4 < crate::glb::BinPieces::SMALL {
        return None;
    }
    let kept = Arc::clone(kept?);
    let mut times = Vec::with_capacity(keys.len());
    for key in keys {
        let t = (key.frame / framerate) as f32;
        let in_order =
            key.frame.is_finite() && key.frame >= 0.0 && t.is_finite() && times.last().is_none_or(|&last| t > last);
        if !in_order || apply(key.value).is_none() {
            return None;
        }
        times.push(t);
    }
    let produce = move |sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>| {
        let mut chunk = Vec::with_capacity(64 * 1024);
        for key in track_keys::<T>(&kept, anim, track, path).into_iter().flatten() {
            let values = apply(key.value).ok_or_else(|| std::io::Error::other("a key changed after it was checked"))?;
            for v in values {
                chunk.extend_from_slice(&v.to_le_bytes());
            }
            if chunk.len() >= 64 * 1024 - 16 {
                sink(&chunk)?;
                chunk.clear();
            }
        }
        sink(&chunk)
    };
    let len = times.len() * N;
    Some((
        times,
        Floats::Produced {
            len,
            produce: Box::new(produce),
        },
    ))
}

/// A channel value as the `f32`s glTF stores, or `None` when it has none.
type Encode<T, const N: usize> = fn(T) -> Option<[f32; N]>;

/// The times and values of the channel `path` of track `track` of animation `anim`: each
/// key's value made what plays by `transform`, then encoded by `encode` (`None`: not
/// encodable, an error naming `what` and saying `fault`). Values are made as the file is
/// written where [`produced_channel`] can, else now (sorted, repeated times dropped and
/// counted in `dropped`).
fn channel_values<T: ChannelValue + std::fmt::Debug + Send + Sync, const N: usize>(
    kept: Option<&Arc<Scene>>,
    scene: &Scene,
    (anim, track, path): (usize, usize, Path),
    framerate: f64,
    (transform, encode, fault): (impl Fn(T) -> T + Copy + Send + Sync + 'static, Encode<T, N>, &str),
    what: &dyn Fn() -> String,
    dropped: &mut usize,
) -> Result<(Vec<f32>, Floats<'static>)> {
    let at = (anim, track, path);
    if let Some(keys) = produced_channel(kept, scene, at, framerate, move |v| encode(transform(v))) {
        return Ok(keys);
    }
    let checked = |v| {
        let v = transform(v);
        encode(v).ok_or_else(|| Error::Unencodable(format!("{} {fault}: {v:?}", what())))
    };
    let empty = Keys::new();
    let keys = track_keys::<T>(scene, anim, track, path).unwrap_or(&empty);
    let (times, values) = channel_keys(keys.frames(), keys.iter(), framerate, &checked, what, dropped)?;
    Ok((times, Floats::Owned(values)))
}

#[allow(clippy::too_many_arguments)]
pub(super) fn export_animation(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    anim: &Animation,
    precision: Precision,
    animated: &AnimatedBones<'_>,
    extra_by_name: &mut HashMap<String, usize>,
    extra_nodes: &mut Vec<usize>,
    report: &mut ConversionReport,
) -> Result<()> {
    let label = || format!("animation {index} ({:?})", anim.name);
    if !(anim.framerate.is_finite() && anim.framerate > 0.0) {
        return Err(Error::Unencodable(format!(
            "{}: a framerate of {} (times in seconds need a positive one)",
            label(),
            anim.framerate
        )));
    }
    let has_keys = anim
        .bones
        .iter()
        .any(|t| !t.translation.is_empty() || !t.rotation.is_empty() || !t.scale.is_empty())
        || anim.weights.iter().any(|t| !t.keys.is_empty());
    if !has_keys {
        report.lose(format!(
            "{}: no bone or weight keys (a glTF animation needs at least one channel): not exported",
            label()
        ));
        return Ok(());
    }
    let skeleton = &scene.skeleton;
    let by_name = animated.by_name;
    let kinds = pose::channel_kinds(anim, skeleton);
    let absolute = |k: &pose::TrackKinds| *k == pose::TrackKinds::all(AnimKind::Absolute);
    if skeleton.bones.is_empty() && !kinds.iter().all(absolute) {
        report.lose(format!(
            "{}: {} keys with no skeleton to apply them to: played over an identity rest pose",
            label(),
            kind_name(anim.kind)
        ));
    }
    let interpolation = match anim.interpolation {
        Interpolation::Linear => "LINEAR",
        Interpolation::Step => "STEP",
    };
    let mut out = json::Animation {
        name: Some(anim.name.clone()),
        channels: Vec::new(),
        samplers: Vec::new(),
        extras: None,
    };
    let mut seen: HashSet<(usize, Path)> = HashSet::new();
    // The bones tracks name that the skeleton lacks, in order, each once.
    let (mut missing, mut missing_names) = (Vec::new(), HashSet::new());
    let (mut duplicates, mut dropped) = (0usize, 0usize);
    let mut jobs = Vec::new();
    for (t, track) in anim.bones.iter().enumerate() {
        let track_keys = !track.translation.is_empty() || !track.rotation.is_empty() || !track.scale.is_empty();
        if !track_keys {
            continue;
        }
        let bone = by_name.get(track.bone.as_str()).copied();
        let node = match bone {
            Some(i) => i,
            None => {
                if !skeleton.bones.is_empty() && missing_names.insert(track.bone.as_str()) {
                    missing.push(track.bone.clone());
                }
                match extra_by_name.get(&track.bone) {
                    Some(&node) => node,
                    None => {
                        let node = b.node(json::Node {
                            name: Some(track.bone.clone()),
                            ..json::Node::default()
                        });
                        extra_by_name.insert(track.bone.clone(), node);
                        extra_nodes.push(node);
                        node
                    }
                }
            }
        };
        let rest = bone.map_or(Transform::IDENTITY, |i| skeleton.bones[i].local);
        let kinds = kinds[t];
        // A compensated bone's translation is on its compensation node.
        let translation_node = bone.and_then(|i| animated.compensation[i]).unwrap_or(node);
        let channels = [
            (
                Path::Translation,
                translation_node,
                track.translation.len(),
                kinds.translation,
            ),
            (Path::Rotation, node, track.rotation.len(), kinds.rotation),
            (Path::Scale, node, track.scale.len(), kinds.scale),
        ];
        for (path, node, keys, kind) in channels {
            if keys == 0 {
                continue;
            }
            if seen.insert((node, path)) {
                jobs.push(ChannelJob {
                    track: t,
                    path,
                    node,
                    kind,
                    rest,
                    keys,
                });
            } else {
                duplicates += 1;
            }
        }
    }
    let kept = b.kept_scene(scene);
    let what = |job: &ChannelJob| {
        let (track, path) = (job.track, job.path.name());
        move || format!("{} track {track} ({:?}) {path}", label(), anim.bones[track].bone)
    };
    let unfit_tangents = std::sync::atomic::AtomicUsize::new(0);
    for batch in batches(&jobs) {
        let make = |job: &ChannelJob| {
            let mut dropped = 0;
            // A channel with a curve of its own has a sampler of its own; a cubic spline's
            // tangents go with its values where they fit them.
            let curve = job.path.curve(&anim.bones[job.track]);
            if let Some(Curve::CubicSpline(tangents)) = curve {
                match cubic_job_values(scene, index, anim.framerate, job, tangents) {
                    Some(keys) => return (Ok(keys), dropped, "CUBICSPLINE"),
                    None => {
                        unfit_tangents.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            }
            let sampler = match curve {
                Some(Curve::Step) => "STEP",
                Some(Curve::Linear) => "LINEAR",
                _ => interpolation,
            };
            let keys = job_values(
                kept.as_ref(),
                scene,
                index,
                anim.framerate,
                job,
                &what(job),
                &mut dropped,
            );
            (keys, dropped, sampler)
        };
        // Waking the other cores costs more than a few small channels take.
        let made: Vec<_> = if batch.iter().map(|job| job.keys).sum::<usize>() >= PARALLEL_KEYS {
            animbin_core::parallel::map_in_order(batch, make)
        } else {
            batch.iter().map(make).collect()
        };
        for (job, (keys, job_dropped, sampler)) in batch.iter().zip(made) {
            dropped += job_dropped;
            b.channel(
                &mut out,
                job.node,
                job.path.name(),
                sampler,
                keys?,
                job.path.accessor(),
                &what(job),
            )?;
        }
    }
    super::compensation::compensation_channels(b, anim, skeleton, animated, interpolation, &mut out, &label, report)?;
    if !missing.is_empty() {
        report.lose(format!(
            "{}: {} track(s) name bones that are not in the skeleton ({}): exported as extra nodes that move no vertices",
            label(),
            missing.len(),
            name_list(&missing)
        ));
    }
    if duplicates > 0 {
        report.lose(format!(
            "{}: {duplicates} channel(s) on a bone that an earlier track already animates: dropped",
            label()
        ));
    }
    if dropped > 0 {
        report.lose(format!(
            "{}: {dropped} key(s) at a time an earlier key of the same channel has: dropped",
            label()
        ));
    }
    let unfit = unfit_tangents.into_inner();
    if unfit > 0 {
        report.lose(format!(
            "{}: {unfit} cubic spline channel(s) whose tangents do not fit their keys (or keys not absolute, or times that repeat in f32): written with the animation's interpolation",
            label()
        ));
    }
    super::morph::weight_channels(b, anim, &label, interpolation, &mut out, report)?;
    if out.channels.is_empty() {
        report.lose(format!(
            "{}: no channel for a node of the file (weight tracks of no exported target): not exported",
            label()
        ));
        return Ok(());
    }
    out.extras = extras::wrap_animation(AnimationExtras {
        framerate: anim.framerate,
        frame_count: anim.frame_count,
        looping: anim.looping,
        kind: anim.kind,
        interpolation: anim.interpolation,
        tracks: anim.bones.iter().map(|t| t.bone.clone()).collect(),
        kind_overrides: anim
            .bones
            .iter()
            .filter_map(|t| {
                t.kind_override.map(|kind| KindOverride {
                    bone: t.bone.clone(),
                    kind,
                })
            })
            .collect(),
        cosmetic: anim
            .bones
            .iter()
            .filter(|t| t.cosmetic)
            .map(|t| t.bone.clone())
            .collect(),
        notes: anim.notes.iter().map(Into::into).collect(),
        properties: anim.properties.iter().map(Into::into).collect(),
        precision: Some(precision),
        weight_tracks: (!anim.weights.is_empty()).then(|| anim.weights.iter().map(|t| t.target.clone()).collect()),
    });
    b.root.animations.push(out);
    Ok(())
}

/// `Single` when every key value of `anim` is exactly an `f32`, else `Double`.
pub(super) fn key_precision(anim: &Animation) -> Precision {
    let exact = |c: f64| f64::from(c as f32) == c || c.is_nan();
    // Values held as f32s are exact: only wider channels are looked at.
    fn all<T: KeyValue>(keys: &Keys<T>, exact: impl Fn(T) -> bool) -> bool {
        keys.precision() == Precision::Single || keys.values().all(exact)
    }
    let single = anim.bones.iter().all(|t| {
        let exact3 = |v: Vec3<f64>| exact(v.x) && exact(v.y) && exact(v.z);
        all(&t.translation, exact3)
            && all(&t.scale, exact3)
            && all(&t.rotation, |q| exact(q.x) && exact(q.y) && exact(q.z) && exact(q.w))
    });
    if single { Precision::Single } else { Precision::Double }
}

fn kind_name(kind: AnimKind) -> &'static str {
    match kind {
        AnimKind::Absolute => "absolute",
        AnimKind::Additive => "additive",
        AnimKind::Relative => "relative",
        AnimKind::Delta => "delta",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(keys: &[usize]) -> Vec<ChannelJob> {
        keys.iter()
            .enumerate()
            .map(|(track, &keys)| ChannelJob {
                track,
                path: Path::Rotation,
                node: track,
                kind: AnimKind::Absolute,
                rest: Transform::IDENTITY,
                keys,
            })
            .collect()
    }

    /// Each batch's tracks, in order.
    fn tracks(keys: &[usize]) -> Vec<Vec<usize>> {
        let jobs = jobs(keys);
        batches(&jobs).map(|b| b.iter().map(|j| j.track).collect()).collect()
    }

    #[test]
    fn batches_keep_order_and_bound_their_keys() {
        let half = BATCH_KEYS / 2;
        assert_eq!(tracks(&[]), Vec::<Vec<usize>>::new());
        assert_eq!(tracks(&[1, 2, 3]), vec![vec![0, 1, 2]]);
        // Up to BATCH_KEYS in one batch, the next key starts another.
        assert_eq!(tracks(&[half, half, 1]), vec![vec![0, 1], vec![2]]);
        // A channel larger than a batch is a batch of its own.
        assert_eq!(
            tracks(&[1, BATCH_KEYS * 3, half, half + 1]),
            vec![vec![0], vec![1], vec![2], vec![3]]
        );
        assert_eq!(tracks(&[BATCH_KEYS + 1]), vec![vec![0]]);
    }
}
