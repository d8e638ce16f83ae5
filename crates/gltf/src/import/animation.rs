//! Animations: one scene animation per glTF animation, its channels turned into bone tracks
//! with frames on the animation's frame rate (animbin's extras, the options, or a guess from
//! the key times), and the kinds animbin applied against the rest pose taken off again.

use std::collections::{HashMap, HashSet};

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{
    AnimKind, Animation, BoneTrack, ConversionReport, Curve, Interpolation, Key, Note, Precision, Skeleton, Tangents,
};
use gltf::animation::Property;

use crate::accessor::{self, Buffers};
use crate::error::{Error, Path, Result};
use crate::extras::{self, AnimationExtras};

/// The frame rate of animations without animbin's extras whose keys fall on the frame grid
/// of none of 30, 24, 25, 60, 50 and 120 fps, when the options give none.
pub const DEFAULT_FRAMERATE: f64 = 30.0;

/// Frame rates tried, in order, for files without animbin's extras: the first on whose
/// frame grid every key falls is used.
const COMMON_RATES: [f64; 6] = [30.0, 24.0, 25.0, 60.0, 50.0, 120.0];

/// The multiple of `step` that `frame` (computed from f32 seconds) is within float rounding of.
fn near_multiple(frame: f64, step: f64) -> Option<f64> {
    let r = (frame / step).round() * step;
    ((frame - r).abs() <= 1e-4 + 1e-7 * frame.abs()).then_some(r)
}

fn near_integer(frame: f64) -> Option<f64> {
    near_multiple(frame, 1.0)
}

/// Snaps a frame computed from f32 seconds back to the value it was written from when that
/// was a whole frame or a thousandth of one (f32 seconds carry about 7 digits).
fn snap(frame: f64) -> f64 {
    near_integer(frame)
        .or_else(|| near_multiple(frame, 0.001))
        .unwrap_or(frame)
}

struct Sampled {
    bone: usize,
    property: Property,
    times: Vec<f32>,
    values: Vec<f32>,
    dims: usize,
    interpolation: gltf::animation::Interpolation,
}

/// A sampler's key times (its input), refused unless they are finite and do not decrease.
pub(super) fn key_times(sampler: &gltf::animation::Sampler, buffers: &Buffers, spath: &Path) -> Result<Vec<f32>> {
    let (times, _) = accessor::floats(&sampler.input(), buffers, &[1], "key times")?;
    if let Some(i) = times.iter().position(|t| !t.is_finite()) {
        return Err(Error::invalid(
            spath.field("input"),
            "finite key times",
            format!("{} at key {i}", times[i]),
        ));
    }
    if let Some(i) = times.windows(2).position(|w| w[1] < w[0]) {
        return Err(Error::invalid(
            spath.field("input"),
            "key times that do not decrease",
            format!("{} after {} at key {}", times[i + 1], times[i], i + 1),
        ));
    }
    Ok(times)
}

pub(super) fn import_animation(
    animation: &gltf::Animation,
    buffers: &Buffers,
    skeleton: &Skeleton,
    bone_of_node: &HashMap<usize, usize>,
    structural: &super::StructuralNodes<'_>,
    framerate: Option<f64>,
    report: &mut ConversionReport,
) -> Result<(Animation, Option<Precision>)> {
    let path = Path::item("animations", animation.index());
    let label = || format!("animation {} ({:?})", animation.index(), animation.name().unwrap_or(""));
    let extras: Option<AnimationExtras> = extras::unwrap(animation.extras());
    let mut sampled = Vec::new();
    let mut weight_channels = Vec::new();
    let mut seen = HashSet::new();
    for channel in animation.channels() {
        let cpath = path.field("channels").index(channel.index());
        let target = channel.target();
        let node = target.node().index();
        let property = target.property();
        if property == Property::MorphTargetWeights {
            if !seen.insert((node, property as u8)) {
                return Err(Error::invalid(
                    cpath,
                    "one channel per node and property",
                    format!("a second {property:?} channel on node {node}"),
                ));
            }
            weight_channels.extend(super::morph::read_channel(&channel, buffers, &path, &label, report)?);
            continue;
        }
        if structural.wrapper.get(node).copied().unwrap_or(false) {
            report.lose(format!("{}: keys on animbin's root node: skipped", label()));
            continue;
        }
        // A compensation node's translation is its bone's; its rotation and scale undo the
        // parent's scale, which the bone's flag already says.
        let node = if structural.compensation.get(node).copied().unwrap_or(false) {
            match (property, structural.translation_carriers.get(&node)) {
                (Property::Translation, Some(&bone_node)) => bone_node,
                _ => continue,
            }
        } else {
            node
        };
        if !seen.insert((node, property as u8)) {
            return Err(Error::invalid(
                cpath,
                "one channel per node and property",
                format!("a second {property:?} channel on node {node}"),
            ));
        }
        let Some(&bone) = bone_of_node.get(&node) else {
            return Err(Error::invalid(cpath.field("target"), "a node that is a bone", node));
        };
        let sampler = channel.sampler();
        let spath = path.field("samplers").index(sampler.index());
        let times = key_times(&sampler, buffers, &spath)?;
        let dims = if property == Property::Rotation { 4 } else { 3 };
        let (values, _) = accessor::floats(&sampler.output(), buffers, &[dims], "key values")?;
        let interpolation = sampler.interpolation();
        let per_key = if interpolation == gltf::animation::Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if values.len() != times.len() * dims * per_key {
            return Err(Error::invalid(
                spath.field("output"),
                format!("{} values, {per_key} per key time", times.len() * per_key),
                values.len() / dims,
            ));
        }
        sampled.push(Sampled {
            bone,
            property,
            times,
            values,
            dims,
            interpolation,
        });
    }

    let framerate = match (&extras, framerate) {
        (Some(e), _) if e.framerate.is_finite() && e.framerate > 0.0 => e.framerate,
        (_, Some(rate)) => rate,
        _ => COMMON_RATES
            .into_iter()
            .find(|&rate| {
                sampled
                    .iter()
                    .all(|s| s.times.iter().all(|&t| near_integer(f64::from(t) * rate).is_some()))
            })
            .unwrap_or(DEFAULT_FRAMERATE),
    };

    // Tracks in the order animbin wrote them, then in channel order.
    let mut anim = Animation {
        name: animation.name().unwrap_or("").to_string(),
        framerate,
        ..Animation::default()
    };
    let mut track_of: HashMap<String, usize> = HashMap::new();
    if let Some(e) = &extras {
        for name in &e.tracks {
            if !track_of.contains_key(name) {
                track_of.insert(name.clone(), anim.bones.len());
                anim.bones.push(BoneTrack {
                    bone: name.clone(),
                    ..BoneTrack::default()
                });
            }
        }
    }
    // Each bone channel's own sampler interpolation (and a cubic spline's tangents), set as
    // the channel's curve where it is not the animation's, once that is decided.
    let mut own_curves: Vec<(usize, Property, Curve)> = Vec::new();
    let mut last_frame = f64::NEG_INFINITY;
    for s in &sampled {
        let name = &skeleton.bones[s.bone].name;
        let t = match track_of.get(name) {
            Some(&t) => t,
            None => {
                track_of.insert(name.clone(), anim.bones.len());
                anim.bones.push(BoneTrack {
                    bone: name.clone(),
                    ..BoneTrack::default()
                });
                anim.bones.len() - 1
            }
        };
        let cubic_spline = s.interpolation == gltf::animation::Interpolation::CubicSpline;
        let stride = if cubic_spline { 3 * s.dims } else { s.dims };
        // Cubic spline keys are (in-tangent, value, out-tangent): the value is the middle one.
        let skip = if cubic_spline { s.dims } else { 0 };
        own_curves.push((
            t,
            s.property,
            match s.interpolation {
                gltf::animation::Interpolation::Step => Curve::Step,
                gltf::animation::Interpolation::Linear => Curve::Linear,
                gltf::animation::Interpolation::CubicSpline => {
                    let part = |at: usize| -> Vec<f64> {
                        (0..s.times.len())
                            .flat_map(|k| &s.values[k * stride + at..k * stride + at + s.dims])
                            .map(|&c| f64::from(c))
                            .collect()
                    };
                    Curve::CubicSpline(Tangents {
                        incoming: part(0),
                        outgoing: part(2 * s.dims),
                    })
                }
            },
        ));
        let track = &mut anim.bones[t];
        for (k, &time) in s.times.iter().enumerate() {
            let frame = snap(f64::from(time) * framerate);
            last_frame = last_frame.max(frame);
            let v = &s.values[k * stride + skip..k * stride + skip + s.dims];
            let v: Vec<f64> = v.iter().map(|&c| f64::from(c)).collect();
            match s.property {
                Property::Translation => track.translation.push(Key::new(frame, Vec3::new(v[0], v[1], v[2]))),
                Property::Rotation => {
                    track
                        .rotation
                        .push(Key::new(frame, Quat::new(v[0], v[1], v[2], v[3]).normalized()));
                }
                Property::Scale => track.scale.push(Key::new(frame, Vec3::new(v[0], v[1], v[2]))),
                Property::MorphTargetWeights => {}
            }
        }
    }
    let (weights, weights_last, weight_interpolations) =
        super::morph::weight_tracks(weight_channels, framerate, snap, &label, report);
    anim.weights = match extras.as_ref().and_then(|e| e.weight_tracks.as_ref()) {
        Some(names) => super::morph::keep_named(weights, names),
        None => weights,
    };
    last_frame = last_frame.max(weights_last);
    // The animation steps where every sampler that is not a cubic spline steps; a bone
    // channel joined otherwise keeps its own curve.
    let plain: Vec<gltf::animation::Interpolation> = own_curves
        .iter()
        .filter_map(|(_, _, c)| match c {
            Curve::Step => Some(gltf::animation::Interpolation::Step),
            Curve::Linear => Some(gltf::animation::Interpolation::Linear),
            Curve::CubicSpline(_) => None,
        })
        .chain(weight_interpolations.iter().copied())
        .filter(|&i| i != gltf::animation::Interpolation::CubicSpline)
        .collect();
    anim.interpolation = match &extras {
        Some(e) => e.interpolation,
        None if !plain.is_empty() && plain.iter().all(|&i| i == gltf::animation::Interpolation::Step) => {
            Interpolation::Step
        }
        None => Interpolation::Linear,
    };
    for (t, property, curve) in own_curves {
        let own = match (&curve, anim.interpolation) {
            (Curve::Linear, Interpolation::Linear) | (Curve::Step, Interpolation::Step) => continue,
            _ => Some(curve),
        };
        let curves = &mut anim.bones[t].curves;
        match property {
            Property::Translation => curves.translation = own,
            Property::Rotation => curves.rotation = own,
            Property::Scale => curves.scale = own,
            Property::MorphTargetWeights => {}
        }
    }
    // Weight tracks have no curve of their own: the animation's interpolation joins them.
    if weight_interpolations.contains(&gltf::animation::Interpolation::CubicSpline) {
        report.lose(format!(
            "{}: cubic spline tangents of morph target weights (weights take the animation's interpolation): dropped",
            label()
        ));
    }
    let step = anim.interpolation == Interpolation::Step;
    if weight_interpolations.iter().any(|&i| {
        (i == gltf::animation::Interpolation::Step) != step && i != gltf::animation::Interpolation::CubicSpline
    }) {
        report.lose(format!(
            "{}: morph target weights joined otherwise than the animation (weights take its interpolation): read as {}",
            label(),
            if step { "STEP" } else { "LINEAR" }
        ));
    }
    let precision = extras.as_ref().and_then(|e| e.precision);
    match extras {
        Some(e) => {
            anim.frame_count = e.frame_count;
            anim.looping = e.looping;
            anim.kind = e.kind;
            for o in e.kind_overrides {
                if let Some(&t) = track_of.get(&o.bone) {
                    anim.bones[t].kind_override = Some(o.kind);
                }
            }
            for c in e.cosmetic {
                if let Some(&t) = track_of.get(&c) {
                    anim.bones[t].cosmetic = true;
                }
            }
            anim.notes = e.notes.into_iter().map(Note::from).collect();
            for p in &e.properties {
                match p.to_track() {
                    Some(track) => anim.properties.push(track),
                    None => report.lose(format!(
                        "{}: a property track whose data is not base64: skipped",
                        label()
                    )),
                }
            }
            // The channels hold the kinds applied against the rest pose: take it off again.
            let kinds = pose::effective_kinds(&anim, skeleton);
            let bone_of = skeleton.indices_by_name();
            for (track, kind) in anim.bones.iter_mut().zip(kinds) {
                if kind == AnimKind::Absolute {
                    continue;
                }
                let rest = bone_of
                    .get(track.bone.as_str())
                    .map_or(Transform::IDENTITY, |&b| skeleton.bones[b].local);
                track
                    .translation
                    .map_values(|value| pose::remove_translation(kind, &rest, value));
                track
                    .rotation
                    .map_values(|value| pose::remove_rotation(kind, &rest, value));
            }
        }
        None => {
            anim.frame_count = if last_frame.is_finite() { last_frame + 1.0 } else { 0.0 };
        }
    }
    Ok((anim, precision))
}
