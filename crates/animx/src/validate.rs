//! The invariants that a file which reads can still break.

use std::fmt;

use animbin_core::{Diagnostic, Location, Severity};

use crate::layout::{Interpolation, TrackData};
use crate::model::Animation;

/// One broken invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The index of the track at fault, or `None` for the header.
    pub track: Option<usize>,
    /// What is wrong (for a track, after its node and property: `Hips/rotation: ...`).
    pub message: String,
}

/// Every rule is an error; the place is the track (`track 3`) or, for the header, the file.
impl Diagnostic for Problem {
    fn severity(&self) -> Severity {
        Severity::Error
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

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.track {
            Some(i) => write!(f, "track {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Lists every broken invariant:
/// - the global duration is finite and not negative;
/// - every track names its node and property;
/// - a Raw track's interval is finite and positive (when it has two values or more), and
///   its last value's time is not past the duration;
/// - Discrete and Curve keyframe times are finite, within [0, duration] and non-decreasing;
/// - a Curve keyframe with Tangent or CubicBezier interpolation has tangents to use.
pub fn validate(animation: &Animation) -> Vec<Problem> {
    let mut problems = Vec::new();
    let duration = animation.global_duration;
    if !(duration.is_finite() && duration >= 0.0) {
        problems.push(Problem {
            track: None,
            message: format!("global duration {duration} is not a finite, non-negative number of seconds"),
        });
    }
    for (i, track) in animation.tracks.iter().enumerate() {
        let mut problem = |message: String| {
            problems.push(Problem {
                track: Some(i),
                message: format!("{}/{}: {message}", track.node, track.property),
            })
        };
        if track.node.is_empty() {
            problem("the node name is empty".into());
        }
        if track.property.is_empty() {
            problem("the property name is empty".into());
        }
        let times = match &track.data {
            TrackData::Raw(raw) => {
                if raw.values.len() >= 2 && !(raw.interval.is_finite() && raw.interval > 0.0) {
                    problem(format!("interval {} is not a positive number of seconds", raw.interval));
                } else if track.end_time() > duration {
                    problem(format!(
                        "the last value is at {} s, after the duration of {duration} s",
                        track.end_time()
                    ));
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
                    problem("Tangent or CubicBezier interpolation without tangents".into());
                }
                &c.keyframes.times
            }
        };
        for (k, &t) in times.iter().enumerate() {
            if !(t.is_finite() && (0.0..=duration).contains(&t)) {
                problem(format!("keyframe {k} at {t} s is outside [0, {duration}] s"));
            } else if k > 0 && times[k - 1] > t {
                problem(format!(
                    "keyframe {k} at {t} s comes before keyframe {} at {} s",
                    k - 1,
                    times[k - 1]
                ));
            }
        }
    }
    problems
}
