//! Compensation nodes: a glTF node always inherits its parent's scale, a bone that does not
//! ([`animbin_core::scene::Bone::scale_compensate`], Cast's `ssc`) hangs from nodes that undo it.
//!
//! What the bone must see of its parent is what Blender's inherit-scale `NONE` gives (the
//! rule the pose suite checks, and [`animbin_core::pose::compose`] for parents without
//! shear): the parent's model-space axes made unit length and square to each other
//! ([`orthonormal_axes`]), while its offset is still stretched by the parent's whole matrix.
//! So the nodes between parent and bone hold the bone's translation and `W⁻¹ · A`, where `W`
//! is the parent's model-space matrix and `A` its orthonormal axes.
//!
//! - When every bone that passes scale down to the parent scales uniformly, `W⁻¹ · A` is a
//!   scale, `1 / s` per axis of the parent's model-space scale: one node holds it.
//! - Otherwise a non-uniform scale above a turned bone shears what it passes down, and
//!   `W⁻¹ · A` is a general matrix, which no one translation, rotation and scale node holds:
//!   two do, from its singular value decomposition `U · Σ · Vᵀ` (the outer node turns by `U`
//!   and scales by `Σ`, the inner turns by `Vᵀ`).
//!
//! The one node is keyed at every scale key of the bones that pass scale down, the two at
//! every key of the bones above; both at every whole frame between as well. They are exact
//! there; between them no glTF interpolation gives `1 / s` of a lerped `s`.

use std::collections::HashMap;

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{Animation, ConversionReport, Interpolation, Key, KeyValue, Keys, Skeleton, key_span};

use super::AnimatedBones;
use super::builder::{Builder, Floats, finite3, unit_quat};
use crate::error::Result;
use crate::json;

/// A 3x3 matrix, row by row, for column vectors.
type M3 = [[f64; 3]; 3];

const IDENTITY: M3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

fn mul(a: &M3, b: &M3) -> M3 {
    let mut m = [[0.0; 3]; 3];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, value) in row.iter_mut().enumerate() {
            *value = (0..3).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    m
}

fn mul_v(a: &M3, v: Vec3<f64>) -> Vec3<f64> {
    let v = [v.x, v.y, v.z];
    let row = |r: usize| (0..3).map(|k| a[r][k] * v[k]).sum::<f64>();
    Vec3::new(row(0), row(1), row(2))
}

fn transpose(a: &M3) -> M3 {
    let mut t = [[0.0; 3]; 3];
    for (r, row) in a.iter().enumerate() {
        for (c, &value) in row.iter().enumerate() {
            t[c][r] = value;
        }
    }
    t
}

fn column(a: &M3, c: usize) -> Vec3<f64> {
    Vec3::new(a[0][c], a[1][c], a[2][c])
}

/// Negates column `c` of `a`.
fn negate_column(a: &mut M3, c: usize) {
    for row in a.iter_mut() {
        row[c] = -row[c];
    }
}

fn set_column(a: &mut M3, c: usize, v: Vec3<f64>) {
    a[0][c] = v.x;
    a[1][c] = v.y;
    a[2][c] = v.z;
}

fn det(a: &M3) -> f64 {
    column(a, 0).dot(column(a, 1).cross(column(a, 2)))
}

fn inverse(a: &M3) -> Option<M3> {
    let d = det(a);
    if !(d.is_finite() && d.abs() > 1e-300) {
        return None;
    }
    let (x, y, z) = (column(a, 0), column(a, 1), column(a, 2));
    // The rows of the inverse are the cross products of the columns, over the determinant.
    let rows = [y.cross(z), z.cross(x), x.cross(y)];
    Some(rows.map(|r| [r.x / d, r.y / d, r.z / d]))
}

/// The linear part of `t` (rotation times scale).
fn linear(t: &Transform) -> M3 {
    let m = t.to_matrix().rows;
    [
        [m[0][0], m[0][1], m[0][2]],
        [m[1][0], m[1][1], m[1][2]],
        [m[2][0], m[2][1], m[2][2]],
    ]
}

fn normalize(v: Vec3<f64>) -> Vec3<f64> {
    let n = v.dot(v).sqrt();
    if n > 0.0 { v.scale(1.0 / n) } else { v }
}

/// The axes of `m` made unit length and square to each other as Blender's inherit-scale
/// `NONE` does: Y kept, X and Z made square to it and then turned towards each other's
/// square by equal angles. For a matrix without shear these are its axes, normalised.
pub(super) fn orthonormal_axes(m: &M3) -> M3 {
    let y = normalize(column(m, 1));
    let x = normalize(column(m, 0) - y.scale(column(m, 0).dot(y)));
    let z = normalize(column(m, 2) - y.scale(column(m, 2).dot(y)));
    let middle = normalize(x + z);
    let apart = normalize(x - z);
    let half = std::f64::consts::FRAC_1_SQRT_2;
    let mut axes = [[0.0; 3]; 3];
    set_column(&mut axes, 0, (middle + apart).scale(half));
    set_column(&mut axes, 1, y);
    set_column(&mut axes, 2, (middle - apart).scale(half));
    axes
}

/// The eigenvalues and eigenvectors (columns) of a symmetric matrix, by Jacobi rotations.
fn symmetric_eigen(mut a: M3) -> ([f64; 3], M3) {
    let mut v = IDENTITY;
    for _ in 0..64 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        let diagonal = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if off <= diagonal * 1e-32 || off == 0.0 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            let mut j = IDENTITY;
            j[p][p] = c;
            j[q][q] = c;
            j[p][q] = s;
            j[q][p] = -s;
            a = mul(&transpose(&j), &mul(&a, &j));
            v = mul(&v, &j);
        }
    }
    ([a[0][0], a[1][1], a[2][2]], v)
}

/// `m` as `U · Σ · Vᵀ` with `U` and `V` rotations (`Σ` takes a mirror's sign), the columns of
/// `V` turned to agree with `previous` where one is given (so that keys in a row interpolate
/// smoothly). `None` for a matrix that collapses an axis.
fn decompose(m: &M3, previous: Option<&M3>) -> Option<(M3, Vec3<f64>, M3)> {
    let (values, vectors) = symmetric_eigen(mul(&transpose(m), m));
    let mut order = [0, 1, 2];
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut v = [[0.0; 3]; 3];
    let mut sigma = [0.0; 3];
    for (k, &from) in order.iter().enumerate() {
        set_column(&mut v, k, column(&vectors, from));
        sigma[k] = values[from].max(0.0).sqrt();
    }
    if !(sigma[2] > sigma[0] * 1e-9 && sigma.iter().all(|s| s.is_finite())) {
        return None;
    }
    if det(&v) < 0.0 {
        negate_column(&mut v, 2);
    }
    if let Some(previous) = previous {
        // Two columns at a time, so that V stays a rotation.
        let flipped: Vec<usize> = (0..3)
            .filter(|&k| column(&v, k).dot(column(previous, k)) < 0.0)
            .collect();
        if flipped.len() == 2 {
            for k in flipped {
                negate_column(&mut v, k);
            }
        }
    }
    let mut u = [[0.0; 3]; 3];
    for (k, s) in sigma.iter().enumerate() {
        set_column(&mut u, k, mul_v(m, column(&v, k)).scale(1.0 / s));
    }
    if det(&u) < 0.0 {
        negate_column(&mut u, 2);
        sigma[2] = -sigma[2];
    }
    Some((u, Vec3::new(sigma[0], sigma[1], sigma[2]), v))
}

fn quat_of(m: &M3) -> Quat<f64> {
    Quat::from_rotation_rows(*m).normalized()
}

/// The two nodes' transforms (outer, inner) that take a parent at `world` to what a
/// compensating child sees of it; the outer node's translation is left at 0 (it holds the
/// bone's own). `None` when the parent collapses an axis.
fn two_nodes(world: &M3, previous: Option<&M3>) -> Option<(Transform, Quat<f64>, M3)> {
    let compensation = mul(&inverse(world)?, &orthonormal_axes(world));
    let (u, sigma, v) = decompose(&compensation, previous)?;
    let outer = Transform {
        translation: Vec3::ZERO,
        rotation: quat_of(&u),
        scale: sigma,
    };
    Some((outer, quat_of(&transpose(&v)), v))
}

/// The compensating bones whose parents may pass down a shear: some bone that passes scale
/// down to the parent (above it in [`super::scale_chain`]) scales non-uniformly, at rest or
/// in an animation. They get two nodes.
pub(super) fn sheared(
    skeleton: &Skeleton,
    animations: &[Animation],
    parents: &[Option<usize>],
    compensated: &[usize],
) -> Vec<bool> {
    let bones = &skeleton.bones;
    let uniform = |v: Vec3<f64>| v.x == v.y && v.y == v.z;
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, bone) in bones.iter().enumerate() {
        by_name.entry(bone.name.as_str()).or_default().push(i);
    }
    let mut non_uniform: Vec<bool> = bones.iter().map(|b| !uniform(b.local.scale)).collect();
    for anim in animations {
        for track in &anim.bones {
            if track.scale.iter().any(|k| !uniform(k.value)) {
                if let Some(&i) = by_name.get(track.bone.as_str()).and_then(|v| v.first()) {
                    non_uniform[i] = true;
                }
            }
        }
    }
    let mut out = vec![false; bones.len()];
    for &i in compensated {
        if let Some(p) = parents[i] {
            out[i] = super::scale_chain(bones, parents, p)[1..]
                .iter()
                .any(|&c| non_uniform[c]);
        }
    }
    out
}

/// The rest values of the two nodes of bone `i`, whose parent is at rest: the outer node's
/// transform (with the bone's translation) and the inner node's rotation.
pub(super) fn rest_nodes(skeleton: &Skeleton, parents: &[Option<usize>], i: usize) -> Option<(Transform, Quat<f64>)> {
    let p = parents[i]?;
    let world = WorldMatrices::new(skeleton, parents).linear_of(p, &|b| skeleton.bones[b].local);
    let (mut outer, inner, _) = two_nodes(&world, None)?;
    outer.translation = skeleton.bones[i].local.translation;
    Some((outer, inner))
}

/// Model-space linear parts of bones, under Blender's rule for bones that do not inherit
/// scale.
struct WorldMatrices<'a> {
    skeleton: &'a Skeleton,
    parents: &'a [Option<usize>],
}

impl<'a> WorldMatrices<'a> {
    fn new(skeleton: &'a Skeleton, parents: &'a [Option<usize>]) -> Self {
        Self { skeleton, parents }
    }

    /// The model-space linear part of bone `i`, from each bone's local transform `local`.
    fn linear_of(&self, i: usize, local: &dyn Fn(usize) -> Transform) -> M3 {
        // The path from the root down to `i` (tree parents have no cycles; the bound only
        // keeps this from looping if they did).
        let mut path = vec![i];
        let mut at = i;
        while let Some(p) = self.parents[at] {
            if path.len() > self.parents.len() {
                break;
            }
            path.push(p);
            at = p;
        }
        let mut world = IDENTITY;
        for &b in path.iter().rev() {
            let own = linear(&local(b));
            world = if self.parents[b].is_some() && self.skeleton.bones[b].scale_compensate {
                mul(&orthonormal_axes(&world), &own)
            } else {
                mul(&world, &own)
            };
        }
        world
    }
}

/// Each bone's played local channels in one animation: what its glTF channels hold, keys
/// sorted by frame (the first track of a bone, as the channels take it).
struct PlayedChannels {
    translation: HashMap<usize, Vec<(f64, Vec3<f64>)>>,
    rotation: HashMap<usize, Vec<(f64, Quat<f64>)>>,
    scale: HashMap<usize, Vec<(f64, Vec3<f64>)>>,
    step: bool,
}

impl PlayedChannels {
    fn new(anim: &Animation, skeleton: &Skeleton, by_name: &HashMap<&str, usize>) -> Self {
        let kinds = pose::channel_kinds(anim, skeleton);
        let mut played = Self {
            translation: HashMap::new(),
            rotation: HashMap::new(),
            scale: HashMap::new(),
            step: anim.interpolation == Interpolation::Step,
        };
        for (t, track) in anim.bones.iter().enumerate() {
            let Some(&i) = by_name.get(track.bone.as_str()) else {
                continue;
            };
            let rest = skeleton.bones[i].local;
            let kind = kinds[t];
            if !track.translation.is_empty() && !played.translation.contains_key(&i) {
                let keys = sorted(&track.translation, |v| {
                    pose::apply_translation(kind.translation, &rest, v)
                });
                played.translation.insert(i, keys);
            }
            if !track.rotation.is_empty() && !played.rotation.contains_key(&i) {
                let keys = sorted(&track.rotation, |q| pose::apply_rotation(kind.rotation, &rest, q));
                played.rotation.insert(i, keys);
            }
            if !track.scale.is_empty() && !played.scale.contains_key(&i) {
                played.scale.insert(i, sorted(&track.scale, |v| v));
            }
        }
        played
    }

    /// Bone `i`'s local transform at `frame`, as glTF interpolates its channels (`rest` where
    /// it has none).
    fn local(&self, i: usize, rest: Transform, frame: f64) -> Transform {
        let lerp3 = |a: Vec3<f64>, b: Vec3<f64>, t: f64| a + (b - a).scale(t);
        Transform {
            translation: self
                .translation
                .get(&i)
                .and_then(|k| sample(k, frame, self.step, lerp3))
                .unwrap_or(rest.translation),
            rotation: self
                .rotation
                .get(&i)
                .and_then(|k| sample(k, frame, self.step, Quat::slerp))
                .unwrap_or(rest.rotation),
            scale: self
                .scale
                .get(&i)
                .and_then(|k| sample(k, frame, self.step, lerp3))
                .unwrap_or(rest.scale),
        }
    }

    /// The frames of every key of bone `i`.
    fn frames_of(&self, i: usize, into: &mut Vec<f64>) {
        if let Some(keys) = self.translation.get(&i) {
            into.extend(keys.iter().map(|k| k.0));
        }
        if let Some(keys) = self.rotation.get(&i) {
            into.extend(keys.iter().map(|k| k.0));
        }
        if let Some(keys) = self.scale.get(&i) {
            into.extend(keys.iter().map(|k| k.0));
        }
    }
}

fn sorted<T: KeyValue, U>(keys: &Keys<T>, apply: impl Fn(T) -> U) -> Vec<(f64, U)> {
    let mut out: Vec<(f64, U)> = keys.iter().map(|k| (k.frame, apply(k.value))).collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// A channel's value at `frame` (keys sorted by frame), as glTF plays it: interpolated
/// between keys (held with `step`), held outside them; `None` without keys.
fn sample<T: Copy>(keys: &[(f64, T)], frame: f64, step: bool, mix: impl FnOnce(T, T, f64) -> T) -> Option<T> {
    Some(key_span(keys, frame)?.value(step, mix))
}

/// The union of `frames` and every whole frame between the first and the last, unless that
/// would be far more than the keys (a file's key count bounds what it costs).
fn with_whole_frames(mut frames: Vec<f64>) -> Vec<f64> {
    frames.sort_by(f64::total_cmp);
    frames.dedup();
    if let (Some(&first), Some(&last)) = (frames.first(), frames.last()) {
        if last - first <= (64 * frames.len()) as f64 {
            frames.extend((first.ceil() as i64..=last.floor() as i64).map(|f| f as f64));
            frames.sort_by(f64::total_cmp);
            frames.dedup();
        }
    }
    frames
}

/// Adds the scale (one node) or the rotation and scale (two nodes) channels of the
/// compensation nodes to `out`, for one animation.
#[allow(clippy::too_many_arguments)]
pub(super) fn compensation_channels(
    b: &mut Builder,
    anim: &Animation,
    skeleton: &Skeleton,
    animated: &AnimatedBones<'_>,
    interpolation: &'static str,
    out: &mut json::Animation,
    label: &dyn Fn() -> String,
    report: &mut ConversionReport,
) -> Result<()> {
    let bones = &skeleton.bones;
    if !animated.compensation.iter().any(Option::is_some) {
        return Ok(());
    }
    let played = PlayedChannels::new(anim, skeleton, animated.by_name);
    let worlds = WorldMatrices::new(skeleton, animated.parents);
    let mut channel = |b: &mut Builder, node: usize, path: &'static str, keys: Channel, what: &dyn Fn() -> String| {
        let (times, values, kind, dims) = match keys {
            Channel::Vec3(keys) => {
                let (t, v) = super::animation::channel_keys(
                    keys.iter().map(|k| k.frame),
                    keys.iter().copied(),
                    anim.framerate,
                    &|v| finite3(v, what),
                    what,
                    &mut 0,
                )?;
                (t, v, "VEC3", 3)
            }
            Channel::Quat(keys) => {
                let (t, v) = super::animation::channel_keys(
                    keys.iter().map(|k| k.frame),
                    keys.iter().copied(),
                    anim.framerate,
                    &|q| unit_quat(q, what),
                    what,
                    &mut 0,
                )?;
                (t, v, "VEC4", 4)
            }
        };
        b.channel(
            out,
            node,
            path,
            interpolation,
            (times, Floats::Owned(values)),
            (kind, dims),
            what,
        )
    };
    for (i, node) in animated.compensation.iter().enumerate() {
        let (Some(node), Some(parent)) = (*node, animated.parents[i]) else {
            continue;
        };
        let what = || format!("{}: the compensation of bone {i} ({:?})", label(), bones[i].name);
        let local = |b: usize, f: f64| played.local(b, bones[b].local, f);
        if let Some(turn) = animated.turns[i] {
            // Every bone above the parent shapes its matrix.
            let mut frames = Vec::new();
            let mut at = Some(parent);
            let mut steps = 0;
            while let Some(a) = at {
                played.frames_of(a, &mut frames);
                at = animated.parents[a].filter(|_| steps < bones.len());
                steps += 1;
            }
            if frames.is_empty() {
                continue;
            }
            let frames = with_whole_frames(frames);
            let (mut outer_rotation, mut outer_scale, mut inner_rotation) = (Vec::new(), Vec::new(), Vec::new());
            let mut previous: Option<M3> = None;
            let mut collapsed = 0usize;
            for f in frames {
                let world = worlds.linear_of(parent, &|b| local(b, f));
                let Some((outer, inner, v)) = two_nodes(&world, previous.as_ref()) else {
                    collapsed += 1;
                    continue;
                };
                previous = Some(v);
                let continuous = |keys: &Vec<Key<Quat<f64>>>, q: Quat<f64>| match keys.last() {
                    Some(k) if k.value.x * q.x + k.value.y * q.y + k.value.z * q.z + k.value.w * q.w < 0.0 => {
                        Quat::new(-q.x, -q.y, -q.z, -q.w)
                    }
                    _ => q,
                };
                let q = continuous(&outer_rotation, outer.rotation);
                outer_rotation.push(Key::new(f, q));
                outer_scale.push(Key::new(f, outer.scale));
                let q = continuous(&inner_rotation, inner);
                inner_rotation.push(Key::new(f, q));
            }
            if collapsed > 0 {
                report.lose(format!(
                    "{}: bone {i} ({:?}) does not inherit its parent's scale, and its parent collapses an axis at {collapsed} \
                     frame(s): its compensation holds the nearest frames' values there, which is close but not exact",
                    label(),
                    bones[i].name
                ));
            }
            if outer_scale.is_empty() {
                continue;
            }
            channel(b, node, "rotation", Channel::Quat(outer_rotation), &what)?;
            channel(b, node, "scale", Channel::Vec3(outer_scale), &what)?;
            channel(b, turn, "rotation", Channel::Quat(inner_rotation), &what)?;
            continue;
        }
        // One node: the parent's model-space scale per axis, from the bones that pass it down.
        let chain = super::scale_chain(bones, animated.parents, parent);
        let mut frames = Vec::new();
        for &c in &chain {
            if let Some(keys) = played.scale.get(&c) {
                frames.extend(keys.iter().map(|k| k.0));
            }
        }
        if frames.is_empty() {
            continue;
        }
        let keys: Vec<Key<Vec3<f64>>> = with_whole_frames(frames)
            .into_iter()
            .map(|f| {
                let world = chain.iter().fold(Vec3::ONE, |acc, &c| acc * local(c, f).scale);
                Key::new(f, super::inverse_scale(world))
            })
            .collect();
        channel(b, node, "scale", Channel::Vec3(keys), &what)?;
    }
    Ok(())
}

/// The keys of one compensation channel.
enum Channel {
    Vec3(Vec<Key<Vec3<f64>>>),
    Quat(Vec<Key<Quat<f64>>>),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rotation_matrix(q: Quat<f64>) -> M3 {
        linear(&Transform {
            rotation: q,
            ..Transform::IDENTITY
        })
    }

    fn close(a: &M3, b: &M3) -> bool {
        (0..3).all(|r| (0..3).all(|c| (a[r][c] - b[r][c]).abs() < 1e-12))
    }

    fn diagonal(s: Vec3<f64>) -> M3 {
        [[s.x, 0.0, 0.0], [0.0, s.y, 0.0], [0.0, 0.0, s.z]]
    }

    #[test]
    fn a_sheared_matrix_splits_into_turn_scale_turn() {
        // A parent scaled (1.25, 1.25, 1) under a turn, below a bone scaled (1, 2, 0.5):
        // the product shears.
        let turn = Quat::new(0.3, -0.2, 0.5, 0.8).normalized();
        let m = mul(
            &diagonal(Vec3::new(1.0, 2.0, 0.5)),
            &mul(&rotation_matrix(turn), &diagonal(Vec3::new(1.25, 1.25, 1.0))),
        );
        let (u, sigma, v) = decompose(&m, None).unwrap();
        assert!(close(&mul(&u, &mul(&diagonal(sigma), &transpose(&v))), &m));
        assert!(close(&mul(&u, &transpose(&u)), &IDENTITY));
        assert!(close(&mul(&v, &transpose(&v)), &IDENTITY));
        assert!(det(&u) > 0.0 && det(&v) > 0.0);
        // A mirror keeps both turns proper and puts the sign on a scale.
        let mirrored = mul(&m, &diagonal(Vec3::new(-1.0, 1.0, 1.0)));
        let (u, sigma, v) = decompose(&mirrored, None).unwrap();
        assert!(close(&mul(&u, &mul(&diagonal(sigma), &transpose(&v))), &mirrored));
        assert!(det(&u) > 0.0 && det(&v) > 0.0 && sigma.z < 0.0);
        // An axis collapsed has no decomposition.
        assert!(decompose(&mul(&m, &diagonal(Vec3::new(1.0, 0.0, 1.0))), None).is_none());
    }

    #[test]
    fn the_two_nodes_give_the_parent_s_axes_without_scale_or_shear() {
        let turn = Quat::new(0.1, 0.7, -0.3, 0.6).normalized();
        let world = mul(
            &mul(&rotation_matrix(turn), &diagonal(Vec3::new(1.0, 3.0, 0.5))),
            &mul(
                &rotation_matrix(Quat::new(0.2, 0.1, 0.4, 0.9).normalized()),
                &diagonal(Vec3::new(2.0, 1.0, 1.5)),
            ),
        );
        let (outer, inner, _) = two_nodes(&world, None).unwrap();
        let nodes = mul(&linear(&outer), &rotation_matrix(inner));
        let seen = mul(&world, &nodes);
        let axes = orthonormal_axes(&world);
        assert!(close(&seen, &axes), "{seen:?} != {axes:?}");
        assert!(close(&mul(&axes, &transpose(&axes)), &IDENTITY));
        // Without shear the axes are the normalised columns, the rotation of the parent.
        let plain = mul(&rotation_matrix(turn), &diagonal(Vec3::new(2.0, 3.0, 4.0)));
        assert!(close(&orthonormal_axes(&plain), &rotation_matrix(turn)));
    }

    #[test]
    fn channels_sample_as_gltf_plays_them() {
        let keys = [(0.0, Vec3::new(0.0, 0.0, 0.0)), (10.0, Vec3::new(10.0, 20.0, 30.0))];
        let lerp3 = |a: Vec3<f64>, b: Vec3<f64>, t: f64| a + (b - a).scale(t);
        assert_eq!(sample(&keys, 2.5, false, lerp3), Some(Vec3::new(2.5, 5.0, 7.5)));
        assert_eq!(sample(&keys, 2.5, true, lerp3), Some(Vec3::ZERO));
        assert_eq!(sample(&keys, -1.0, false, lerp3), Some(Vec3::ZERO));
        assert_eq!(sample(&keys, 11.0, false, lerp3), Some(Vec3::new(10.0, 20.0, 30.0)));
        assert_eq!(sample(&[], 1.0, false, lerp3), None);
        let half = Quat::IDENTITY.slerp(Quat::new(0.0, 0.0, 1.0, 0.0), 0.5);
        let s = std::f64::consts::FRAC_1_SQRT_2;
        assert!((half.z - s).abs() < 1e-12 && (half.w - s).abs() < 1e-12);
        assert_eq!(with_whole_frames(vec![0.5, 3.0]), vec![0.5, 1.0, 2.0, 3.0]);
    }
}
