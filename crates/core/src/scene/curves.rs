//! How a channel's keys are joined where it is not its animation's way ([`Curve`]): a glTF
//! keeps an interpolation per sampler (`LINEAR`, `STEP`, `CUBICSPLINE` with tangents), the
//! game formats one per animation or none. [`Animation::bake_curves`] turns a track's own
//! curves into keys that the animation's interpolation plays.

use serde::{Deserialize, Serialize};

use super::{Animation, ConversionReport, Interpolation, Key, KeyValue, Keys};
use crate::math::{Quat, Vec3};

/// How one channel's keys are joined.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Curve {
    /// Straight between keys (spherical for rotations).
    Linear,
    /// Each key's value held until the next key.
    Step,
    /// A cubic Hermite spline through the keys, with the tangents of each (glTF's
    /// `CUBICSPLINE`).
    CubicSpline(Tangents),
}

/// The tangents of a cubic spline channel, key after key: for each key the channel's
/// components (3 for translation and scale, 4 for rotation, x y z w) of the tangent arriving
/// at it and of the one leaving it, per second (glTF's units: a segment of `d` seconds scales
/// them by `d`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Tangents {
    /// The tangents arriving at each key.
    pub incoming: Vec<f64>,
    /// The tangents leaving each key.
    pub outgoing: Vec<f64>,
}

/// The [`Curve`] of each channel of a bone track; `None` where the channel is joined as its
/// animation's [`Interpolation`] says.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChannelCurves {
    /// The translation keys' curve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translation: Option<Curve>,
    /// The rotation keys' curve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<Curve>,
    /// The scale keys' curve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<Curve>,
}

impl ChannelCurves {
    /// Whether every channel is joined as its animation says.
    pub fn is_empty(&self) -> bool {
        self.translation.is_none() && self.rotation.is_none() && self.scale.is_none()
    }
}

/// A channel value a cubic spline moves: its components as `f64`s and back.
trait Spline: KeyValue {
    const COMPONENTS: usize;
    fn components(self) -> [f64; 4];
    fn from_components(c: [f64; 4]) -> Self;
}

impl Spline for Vec3<f64> {
    const COMPONENTS: usize = 3;
    fn components(self) -> [f64; 4] {
        [self.x, self.y, self.z, 0.0]
    }
    fn from_components(c: [f64; 4]) -> Self {
        Vec3::new(c[0], c[1], c[2])
    }
}

impl Spline for Quat<f64> {
    const COMPONENTS: usize = 4;
    fn components(self) -> [f64; 4] {
        [self.x, self.y, self.z, self.w]
    }
    fn from_components(c: [f64; 4]) -> Self {
        // glTF normalises an interpolated rotation.
        Quat::new(c[0], c[1], c[2], c[3]).normalized()
    }
}

/// The most keys a segment of a cubic spline is sampled at: a longer one is sampled every
/// n-th frame.
const SEGMENT_SAMPLES: usize = 256;

/// The keys of a cubic spline channel at every whole frame from its first key to its last
/// (and at each key), or `None` when its tangents do not fit its keys.
fn sample_spline<T: Spline>(keys: &Keys<T>, tangents: &Tangents, framerate: f64) -> Option<Keys<T>> {
    let n = T::COMPONENTS;
    if tangents.incoming.len() != keys.len() * n || tangents.outgoing.len() != keys.len() * n {
        return None;
    }
    let tangent = |list: &[f64], k: usize| {
        let mut c = [0.0; 4];
        c[..n].copy_from_slice(&list[k * n..k * n + n]);
        c
    };
    let all: Vec<Key<T>> = keys.iter().collect();
    let mut out = Keys::with_capacity(all.len());
    for (k, pair) in all.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        out.push(a);
        let span = b.frame - a.frame;
        // Also a NaN span: a segment with nothing to sample.
        if span.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            continue;
        }
        let seconds = span / framerate;
        let (va, vb) = (a.value.components(), b.value.components());
        let (out_a, in_b) = (tangent(&tangents.outgoing, k), tangent(&tangents.incoming, k + 1));
        // Every whole frame strictly between the two keys, or every n-th in a segment longer
        // than SEGMENT_SAMPLES frames: what a file of two keys far apart expands to is
        // bounded, and so is the loop (a step too small to move a huge frame cannot spin).
        if !seconds.is_finite() {
            continue;
        }
        let stride = (span / SEGMENT_SAMPLES as f64).ceil().max(1.0);
        let mut last = a.frame;
        for i in 1..=SEGMENT_SAMPLES {
            let frame = a.frame.floor() + i as f64 * stride;
            if frame >= b.frame {
                break;
            }
            if frame <= last {
                continue; // rounded onto the frame before it
            }
            last = frame;
            let s = (frame - a.frame) / span;
            let (s2, s3) = (s * s, s * s * s);
            let (h00, h10, h01, h11) = (
                2.0 * s3 - 3.0 * s2 + 1.0,
                s3 - 2.0 * s2 + s,
                -2.0 * s3 + 3.0 * s2,
                s3 - s2,
            );
            let mut c = [0.0; 4];
            for i in 0..n {
                c[i] = h00 * va[i] + h10 * seconds * out_a[i] + h01 * vb[i] + h11 * seconds * in_b[i];
            }
            out.push(Key::new(frame, T::from_components(c)));
        }
    }
    if let Some(&last) = all.last() {
        out.push(last);
    }
    Some(out)
}

/// Holds each key of a step channel until the next: a copy of its value one frame before
/// the next key (where that is after it), so that a linear animation plays the same at every
/// whole frame.
fn hold_steps<T: KeyValue>(keys: &Keys<T>) -> Keys<T> {
    let all: Vec<Key<T>> = keys.iter().collect();
    let mut out = Keys::with_capacity(all.len() * 2);
    for pair in all.windows(2) {
        out.push(pair[0]);
        let held = pair[1].frame - 1.0;
        if held > pair[0].frame {
            out.push(Key::new(held, pair[0].value));
        }
    }
    if let Some(&last) = all.last() {
        out.push(last);
    }
    out
}

/// What baking did to a channel, for the report.
#[derive(Default)]
struct Baked {
    sampled: usize,
    held: usize,
    stepped: usize,
    unfit: usize,
}

/// Bakes one channel's curve into its keys under an animation of `interpolation`.
fn bake_channel<T: Spline>(
    keys: &mut Keys<T>,
    curve: Option<Curve>,
    interpolation: Interpolation,
    framerate: f64,
    baked: &mut Baked,
) {
    match (curve, interpolation) {
        (None, _) | (Some(Curve::Linear), Interpolation::Linear) | (Some(Curve::Step), Interpolation::Step) => {}
        (Some(Curve::CubicSpline(tangents)), _) => match sample_spline(keys, &tangents, framerate) {
            Some(sampled) => {
                *keys = sampled;
                baked.sampled += 1;
            }
            None => baked.unfit += 1,
        },
        (Some(Curve::Step), Interpolation::Linear) => {
            *keys = hold_steps(keys);
            baked.held += 1;
        }
        (Some(Curve::Linear), Interpolation::Step) => baked.stepped += 1,
    }
}

impl Animation {
    /// Turns each track's own [`Curve`]s into keys that the animation's interpolation
    /// plays, for a format with one interpolation per animation: a cubic spline is sampled at
    /// every whole frame between its keys (exact there, linear between; a segment longer than
    /// 256 frames at 256 evenly spaced whole frames), a step channel of a
    /// linear animation gets a key one frame before each change holding the value before it
    /// (exact at whole frames), and a linear channel of a step animation is named, as it
    /// then steps. Every change is recorded in `report`.
    pub fn bake_curves(&mut self, report: &mut ConversionReport) {
        let mut baked = Baked::default();
        let (interpolation, framerate) = (self.interpolation, self.framerate);
        for track in &mut self.bones {
            let curves = std::mem::take(&mut track.curves);
            bake_channel(
                &mut track.translation,
                curves.translation,
                interpolation,
                framerate,
                &mut baked,
            );
            bake_channel(
                &mut track.rotation,
                curves.rotation,
                interpolation,
                framerate,
                &mut baked,
            );
            bake_channel(&mut track.scale, curves.scale, interpolation, framerate, &mut baked);
        }
        let name = &self.name;
        if baked.sampled > 0 {
            report.lose(format!(
                "animation {name:?}: {} cubic spline channel(s): sampled at every whole frame (exact there, linear between; every n-th frame in a segment over {SEGMENT_SAMPLES} frames)",
                baked.sampled
            ));
        }
        if baked.held > 0 {
            report.lose(format!(
                "animation {name:?}: {} STEP channel(s) in a LINEAR animation: held by a key one frame before each change (exact at whole frames)",
                baked.held
            ));
        }
        if baked.stepped > 0 {
            report.lose(format!(
                "animation {name:?}: {} LINEAR channel(s) in a STEP animation: read as STEP",
                baked.stepped
            ));
        }
        if baked.unfit > 0 {
            report.lose(format!(
                "animation {name:?}: {} cubic spline channel(s) whose tangents do not fit their keys: read as the animation's interpolation",
                baked.unfit
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::BoneTrack;

    fn track(curve: Curve, keys: &[(f64, f64)]) -> BoneTrack {
        let mut translation = Keys::new();
        for &(frame, x) in keys {
            translation.push(Key::new(frame, Vec3::new(x, 0.0, 0.0)));
        }
        BoneTrack {
            bone: "b".into(),
            translation,
            curves: ChannelCurves {
                translation: Some(curve),
                ..ChannelCurves::default()
            },
            ..BoneTrack::default()
        }
    }

    fn xs(keys: &Keys<Vec3<f64>>) -> Vec<(f64, f64)> {
        keys.iter().map(|k| (k.frame, k.value.x)).collect()
    }

    #[test]
    fn a_cubic_spline_is_sampled_at_whole_frames_by_the_hermite_basis() {
        // From 0 to 1 over 4 frames at 4 fps (one second), leaving with slope 3 and arriving
        // with slope 0: p(s) = 3s - 5s^3 + ... as the Hermite basis gives.
        let tangents = Tangents {
            incoming: vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            outgoing: vec![3.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        };
        let mut animation = Animation {
            framerate: 4.0,
            bones: vec![track(Curve::CubicSpline(tangents), &[(0.0, 0.0), (4.0, 1.0)])],
            ..Animation::default()
        };
        let mut report = ConversionReport::default();
        animation.bake_curves(&mut report);
        let hermite = |s: f64| (-2.0 * s.powi(3) + 3.0 * s * s) + 3.0 * (s.powi(3) - 2.0 * s * s + s);
        let expected: Vec<(f64, f64)> = (0..=4).map(|f| (f as f64, hermite(f as f64 / 4.0))).collect();
        let got = xs(&animation.bones[0].translation);
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.0, e.0);
            assert!((g.1 - e.1).abs() < 1e-12, "{got:?} against {expected:?}");
        }
        assert!(animation.bones[0].curves.is_empty());
        assert_eq!(report.lost.len(), 1, "{:?}", report.lost);
        assert!(report.lost[0].contains("cubic spline"));
    }

    #[test]
    fn a_step_channel_in_a_linear_animation_holds_its_values_until_each_change() {
        let mut animation = Animation {
            bones: vec![track(Curve::Step, &[(0.0, 1.0), (5.0, 2.0), (6.0, 3.0)])],
            ..Animation::default()
        };
        let mut report = ConversionReport::default();
        animation.bake_curves(&mut report);
        assert_eq!(
            xs(&animation.bones[0].translation),
            vec![(0.0, 1.0), (4.0, 1.0), (5.0, 2.0), (6.0, 3.0)]
        );
        assert!(report.lost[0].contains("STEP channel"));
    }

    #[test]
    fn a_long_segment_is_sampled_at_a_bounded_number_of_frames() {
        let tangents = Tangents {
            incoming: vec![0.0; 6],
            outgoing: vec![0.0; 6],
        };
        let mut animation = Animation {
            bones: vec![track(Curve::CubicSpline(tangents), &[(0.0, 0.0), (1e12, 1.0)])],
            ..Animation::default()
        };
        animation.bake_curves(&mut ConversionReport::default());
        let keys = xs(&animation.bones[0].translation);
        assert!(keys.len() <= SEGMENT_SAMPLES + 2, "{} keys", keys.len());
        assert!(keys.windows(2).all(|w| w[0].0 < w[1].0));
        // A frame too large for a step of one to move it: still bounded, still in order.
        let tangents = Tangents {
            incoming: vec![0.0; 6],
            outgoing: vec![0.0; 6],
        };
        let mut animation = Animation {
            bones: vec![track(Curve::CubicSpline(tangents), &[(1e17, 0.0), (1e17 + 64.0, 1.0)])],
            ..Animation::default()
        };
        animation.bake_curves(&mut ConversionReport::default());
        let keys = xs(&animation.bones[0].translation);
        assert!(keys.len() <= SEGMENT_SAMPLES + 2);
        assert!(keys.windows(2).all(|w| w[0].0 < w[1].0), "{keys:?}");
    }

    #[test]
    fn tangents_that_do_not_fit_are_named_and_the_keys_kept() {
        let tangents = Tangents {
            incoming: vec![0.0; 2],
            outgoing: vec![0.0; 6],
        };
        let mut animation = Animation {
            bones: vec![track(Curve::CubicSpline(tangents), &[(0.0, 0.0), (4.0, 1.0)])],
            ..Animation::default()
        };
        let mut report = ConversionReport::default();
        animation.bake_curves(&mut report);
        assert_eq!(xs(&animation.bones[0].translation), vec![(0.0, 0.0), (4.0, 1.0)]);
        assert!(report.lost[0].contains("do not fit"));
    }

    #[test]
    fn a_curve_that_is_the_animations_own_changes_nothing() {
        let mut animation = Animation {
            bones: vec![track(Curve::Linear, &[(0.0, 0.0), (4.0, 1.0)])],
            ..Animation::default()
        };
        let before = animation.bones[0].translation.clone();
        let mut report = ConversionReport::default();
        animation.bake_curves(&mut report);
        assert_eq!(animation.bones[0].translation, before);
        assert!(report.lost.is_empty());
    }
}
