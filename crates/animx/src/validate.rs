//! The invariants that a file which reads can still break.

use std::fmt;

use animbin_core::{Diagnostic, Location, Problem, Severity, non_unit_length};

use crate::layout::{Interpolation, TrackData};
use crate::model::Animation;
use crate::value::Values;

/// One broken invariant (an error), or a legal but suspicious value (a warning); [`validate`]
/// gives it out as a [`Problem`] in its words ([`Problem::from_diagnostic`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// How bad: see [`validate`] for which findings are warnings.
    severity: Severity,
    /// The index of the track at fault, or `None` for the header.
    track: Option<usize>,
    /// What is wrong (for a track, after its node and property: `Hips/rotation: ...`).
    message: String,
}

/// The place is the track (`track 3`) or, for the header, the file.
impl Diagnostic for Finding {
    fn severity(&self) -> Severity {
        self.severity
    }

    fn location(&self) -> Location {
        match self.track {
            Some(i) => Location::Item(format!("track {i}")),
            None => Location::File,
        }
    }

    fn message(&self) -> String {
        self.message.clone()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.track {
            Some(i) => write!(f, "track {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Lists every broken invariant (errors), each a [`Problem`] placed at its track
/// (`track 3`, the message starting with the track's node and property: `Hips/rotation: ...`)
/// or at the file (the header):
/// - the global duration is finite and not negative;
/// - a Raw track's interval is finite and positive (when it has two values or more);
/// - Discrete and Curve keyframe times are finite, within [0, duration] and non-decreasing;
///
/// and what the format allows but no tool means (warnings):
/// - an empty node or property name (the track animates nothing that can be found);
/// - a Raw track whose values run past the duration: a player stops at the duration, so
///   the values after it are never reached (the file still reads and plays; its times are
///   implied by the interval, not stored, so none of them is out of order or out of range);
/// - a Curve keyframe with Tangent or CubicBezier interpolation but no tangents to use;
/// - a `floatQ` or `doubleQ` value (a rotation) that is not a unit quaternion (within
///   [`UNIT_QUATERNION_TOLERANCE`](crate::UNIT_QUATERNION_TOLERANCE)), once per track at the first; tangents are not rotations
///   and are not checked.
pub fn validate(animation: &Animation) -> Vec<Problem> {
    findings(animation).iter().map(Problem::from_diagnostic).collect()
}

/// The findings of [`validate`], in track order.
fn findings(animation: &Animation) -> Vec<Finding> {
    let mut problems = Vec::new();
    let duration = animation.global_duration;
    if !(duration.is_finite() && duration >= 0.0) {
        problems.push(Finding {
            severity: Severity::Error,
            track: None,
            message: format!("global duration {duration} is not a finite, non-negative number of seconds"),
        });
    }
    for (i, track) in animation.tracks.iter().enumerate() {
        let mut found = |severity: Severity, message: String| {
            problems.push(Finding {
                severity,
                track: Some(i),
                message: format!("{}/{}: {message}", track.node, track.property),
            })
        };
        if track.node.is_empty() {
            found(Severity::Warning, "the node name is empty".into());
        }
        if track.property.is_empty() {
            found(Severity::Warning, "the property name is empty".into());
        }
        let values = match &track.data {
            TrackData::Raw(raw) => &raw.values,
            TrackData::Discrete(d) => &d.keyframes.values,
            TrackData::Curve(c) => &c.keyframes.values,
        };
        if let Some((value, length, count)) = non_unit_rotations(values) {
            let more = if count > 1 {
                format!(" ({count} values in all)")
            } else {
                String::new()
            };
            found(
                Severity::Warning,
                format!("value {value} has length {length:.6}, not 1, so it is no rotation{more}"),
            );
        }
        let times = match &track.data {
            TrackData::Raw(raw) => {
                if raw.values.len() >= 2 && !(raw.interval.is_finite() && raw.interval > 0.0) {
                    found(
                        Severity::Error,
                        format!("interval {} is not a positive number of seconds", raw.interval),
                    );
                } else if track.end_time() > duration {
                    // Value k plays at k * interval (as `end_time` computes it): those after
                    // the duration never do.
                    let count = raw.values.len();
                    let reached = (0..count)
                        .position(|k| k as f32 * raw.interval > duration)
                        .unwrap_or(count);
                    let unreached = count - reached;
                    found(
                        Severity::Warning,
                        format!(
                            "the last value is at {} s, after the duration of {duration} s: \
                             {unreached} of {count} values are never reached",
                            track.end_time(),
                        ),
                    );
                }
                continue;
            }
            TrackData::Discrete(d) => &d.keyframes.times,
            TrackData::Curve(c) => {
                // A shared interpolation is every keyframe's, so this covers both storages.
                let needs_tangents = (0..c.keyframes.len()).any(|k| {
                    matches!(
                        c.interpolation.get(k),
                        Some(Interpolation::Tangent | Interpolation::CubicBezier)
                    )
                });
                if needs_tangents && c.tangents.is_none() {
                    found(
                        Severity::Warning,
                        "Tangent or CubicBezier interpolation without tangents".into(),
                    );
                }
                &c.keyframes.times
            }
        };
        for (k, &t) in times.iter().enumerate() {
            if !(t.is_finite() && (0.0..=duration).contains(&t)) {
                found(
                    Severity::Error,
                    format!("keyframe {k} at {t} s is outside [0, {duration}] s"),
                );
            } else if k > 0 && times[k - 1] > t {
                found(
                    Severity::Error,
                    format!(
                        "keyframe {k} at {t} s comes before keyframe {} at {} s",
                        k - 1,
                        times[k - 1]
                    ),
                );
            }
        }
    }
    problems
}

/// The first rotation value that is not a unit quaternion, its length, and how many such
/// values the column holds; `None` for a column of other values or of unit quaternions.
fn non_unit_rotations(values: &Values) -> Option<(usize, f64, usize)> {
    let lengths: Vec<(usize, f64)> = match values {
        Values::FloatQ(v) => v
            .iter()
            .enumerate()
            .filter_map(|(i, q)| non_unit_length(q.map(f64::from)).map(|l| (i, l)))
            .collect(),
        Values::DoubleQ(v) => v
            .iter()
            .enumerate()
            .filter_map(|(i, q)| non_unit_length(*q).map(|l| (i, l)))
            .collect(),
        _ => return None,
    };
    lengths.first().map(|&(i, l)| (i, l, lengths.len()))
}
