//! Rotations as FBX keys them: Euler angles in degrees, order XYZ (the X turn applied
//! first: `R = Rz * Ry * Rx`), interpolated linearly angle by angle.
//!
//! The scene's rotation keys are quaternions interpolated by slerp. [`euler_keys`] turns
//! them into Euler keys that never flip between two keys (each is the equivalent of its
//! quaternion nearest the key before it), and adds keys between two where linear Euler
//! interpolation would leave the slerp by more than [`TOLERANCE`] radians, which is
//! [`TOLERANCE`] of a bone's length at the bone's tip.

use std::f64::consts::PI;

use animbin_core::math::Quat;

/// The largest angle (radians) by which the Euler curve may leave the slerp between keys.
pub const TOLERANCE: f64 = 1e-4;

/// How many times an interval between two source keys is halved at most: 2^12 keys
/// between two keys is far past what any real rotation needs.
pub const MAX_SPLITS: u32 = 12;

/// How many keys may be added per source key, over a whole curve.
pub const ADDED_PER_KEY: usize = 64;

/// The Euler angles (radians, XYZ order) of the unit quaternion `q`, with the third angle
/// taken as `z_hint` where the second is at ±90° (gimbal lock: only a sum or a difference
/// of the first and third is determined).
pub fn to_euler(q: Quat<f64>, z_hint: f64) -> [f64; 3] {
    let q = q.normalized();
    let Quat { x, y, z, w } = q;
    let m00 = 1.0 - 2.0 * (y * y + z * z);
    let m01 = 2.0 * (x * y - z * w);
    let m10 = 2.0 * (x * y + z * w);
    let m11 = 1.0 - 2.0 * (x * x + z * z);
    let m20 = 2.0 * (x * z - y * w);
    let m21 = 2.0 * (y * z + x * w);
    let m22 = 1.0 - 2.0 * (x * x + y * y);
    let b = (-m20).clamp(-1.0, 1.0).asin();
    if m20.abs() < 1.0 - 1e-12 {
        [m21.atan2(m22), b, m10.atan2(m00)]
    } else if m20 < 0.0 {
        // b = +90°: a - c = atan2(m01, m11).
        [z_hint + m01.atan2(m11), b, z_hint]
    } else {
        // b = -90°: a + c = atan2(-m01, m11).
        [(-m01).atan2(m11) - z_hint, b, z_hint]
    }
}

/// The quaternion of Euler angles (radians, XYZ order).
pub fn from_euler(e: [f64; 3]) -> Quat<f64> {
    let axis = |i: usize, angle: f64| {
        let (s, c) = (angle / 2.0).sin_cos();
        let mut v = [0.0; 3];
        v[i] = s;
        Quat::new(v[0], v[1], v[2], c)
    };
    axis(2, e[2]) * axis(1, e[1]) * axis(0, e[0])
}

/// `angle` moved by whole turns to lie within half a turn of `near`.
fn nearest_turn(angle: f64, near: f64) -> f64 {
    angle + ((near - angle) / (2.0 * PI)).round() * 2.0 * PI
}

/// The Euler triple equivalent to `e` nearest `previous`: each angle moved by whole turns,
/// and of the two families of equivalents (`(a, b, c)` and `(a + π, π - b, c + π)`) the
/// closer one.
pub fn unwrap(e: [f64; 3], previous: [f64; 3]) -> [f64; 3] {
    let shift = |e: [f64; 3]| [0, 1, 2].map(|i| nearest_turn(e[i], previous[i]));
    let first = shift(e);
    let second = shift([e[0] + PI, PI - e[1], e[2] + PI]);
    let distance = |e: [f64; 3]| (0..3).map(|i| (e[i] - previous[i]).powi(2)).sum::<f64>();
    if distance(second) < distance(first) {
        second
    } else {
        first
    }
}

/// The angle (radians) between two unit quaternions' rotations.
pub fn angle_between(a: Quat<f64>, b: Quat<f64>) -> f64 {
    // From the difference rotation's vector part and real part: exact near zero, where
    // `acos` of a dot product near 1 loses half the digits.
    let d = a.normalized().conjugate() * b.normalized();
    let sin = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
    2.0 * sin.atan2(d.w.abs())
}

/// Spherical interpolation from `a` to `b` (the shorter way) at `t` in 0..=1.
pub fn slerp(a: Quat<f64>, b: Quat<f64>, t: f64) -> Quat<f64> {
    let mut dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    let b = if dot < 0.0 {
        dot = -dot;
        Quat::new(-b.x, -b.y, -b.z, -b.w)
    } else {
        b
    };
    let (wa, wb) = if dot > 1.0 - 1e-12 {
        (1.0 - t, t)
    } else {
        let theta = dot.min(1.0).acos();
        let s = theta.sin();
        (((1.0 - t) * theta).sin() / s, (t * theta).sin() / s)
    };
    Quat::new(
        wa * a.x + wb * b.x,
        wa * a.y + wb * b.y,
        wa * a.z + wb * b.z,
        wa * a.w + wb * b.w,
    )
    .normalized()
}

fn lerp3(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * t)
}

/// The Euler keys (frame, radians) of quaternion keys `keys` (frame, rotation) in frame
/// order: each unwrapped to the one before, and with keys added where linear Euler
/// interpolation would leave the slerp between two keys by more than [`TOLERANCE`] (unless
/// `exact_keys`, which keeps only the source's keys, or `step`, which holds each value).
///
/// The keys added are at most [`ADDED_PER_KEY`] per source key on the whole (and
/// 2^[`MAX_SPLITS`] between two keys), so that no input, however wild its rotations,
/// makes the curve grow past a fixed factor of its keys.
pub fn euler_keys(keys: &[(f64, Quat<f64>)], exact_keys: bool, step: bool) -> Vec<(f64, [f64; 3])> {
    let mut out: Vec<(f64, [f64; 3])> = Vec::with_capacity(keys.len());
    let mut previous: Option<(f64, Quat<f64>, [f64; 3])> = None;
    let mut budget = keys.len().saturating_mul(ADDED_PER_KEY);
    for &(frame, q) in keys {
        let q = q.normalized();
        let euler = match previous {
            None => to_euler(q, 0.0),
            Some((_, _, before)) => unwrap(to_euler(q, before[2]), before),
        };
        if let Some((f0, q0, e0)) = previous.filter(|_| !(exact_keys || step)) {
            refine(&mut out, (f0, q0, e0), (frame, q, euler), 0, &mut budget);
        }
        out.push((frame, euler));
        previous = Some((frame, q, euler));
    }
    out
}

/// Adds to `out` the keys strictly between `a` and `b` that bring the Euler curve within
/// [`TOLERANCE`] of the slerp, halving the interval up to [`MAX_SPLITS`] times.
fn refine(
    out: &mut Vec<(f64, [f64; 3])>,
    a: (f64, Quat<f64>, [f64; 3]),
    b: (f64, Quat<f64>, [f64; 3]),
    depth: u32,
    budget: &mut usize,
) {
    let worst = [0.25, 0.5, 0.75]
        .into_iter()
        .map(|t| angle_between(from_euler(lerp3(a.2, b.2, t)), slerp(a.1, b.1, t)))
        .fold(
            0.0,
            |m: f64, x| if m.is_nan() || x.is_nan() { f64::NAN } else { m.max(x) },
        );
    // A NaN anywhere makes `worst` NaN: nothing to refine.
    let needed = worst.is_finite() && worst > TOLERANCE && (b.0 - a.0).is_finite() && b.0 > a.0;
    if !needed || depth >= MAX_SPLITS || *budget == 0 {
        return;
    }
    *budget -= 1;
    let frame = (a.0 + b.0) / 2.0;
    let q = slerp(a.1, b.1, 0.5);
    let euler = unwrap(to_euler(q, a.2[2]), lerp3(a.2, b.2, 0.5));
    let mid = (frame, q, euler);
    refine(out, a, mid, depth + 1, budget);
    out.push((frame, euler));
    refine(out, mid, b, depth + 1, budget);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_angles_give_back_their_quaternion() {
        for e in [
            [0.1, 0.2, 0.3],
            [-2.0, 1.0, 3.0],
            [0.5, PI / 2.0, 0.2],
            [0.5, -PI / 2.0, -0.7],
        ] {
            let q = from_euler(e);
            let back = from_euler(to_euler(q, e[2]));
            assert!(angle_between(q, back) < 1e-9, "{e:?}");
        }
    }

    #[test]
    fn a_half_turn_and_more_does_not_flip_between_keys() {
        let keys: Vec<(f64, Quat<f64>)> = (0..=40)
            .map(|f| (f64::from(f), from_euler([0.0, 0.0, f64::from(f) * 0.2])))
            .collect();
        let euler = euler_keys(&keys, true, false);
        for pair in euler.windows(2) {
            assert!((pair[1].1[2] - pair[0].1[2] - 0.2).abs() < 1e-9, "{pair:?}");
        }
    }

    #[test]
    fn keys_are_added_where_euler_lerp_leaves_the_slerp() {
        let a = from_euler([0.0, 0.0, 0.0]);
        let b = from_euler([1.2, 0.9, -0.4]);
        let keys = euler_keys(&[(0.0, a), (10.0, b)], false, false);
        assert!(keys.len() > 2);
        for pair in keys.windows(2) {
            let (fa, ea) = pair[0];
            let (fb, eb) = pair[1];
            for t in [0.25, 0.5, 0.75] {
                let frame = fa + (fb - fa) * t;
                let expected = slerp(a, b, frame / 10.0);
                assert!(angle_between(from_euler(lerp3(ea, eb, t)), expected) < 2.0 * TOLERANCE);
            }
        }
        assert_eq!(euler_keys(&[(0.0, a), (10.0, b)], true, false).len(), 2);
    }
}
