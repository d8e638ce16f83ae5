//! Rules of glTF 2.0 that a file can break and still be read.

use std::fmt;

use animbin_core::scene::ConversionReport;
use animbin_core::{Diagnostic, Location, Problem, SceneOptions, Severity};
use gltf::animation::Property;
use gltf::mesh::Semantic;

use crate::accessor;
use crate::error::Path;
use crate::import;

/// One broken rule: where, and what; [`validate`] gives it out as a [`Problem`] in its words
/// ([`Problem::from_diagnostic`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// A JSON pointer to the offending object.
    path: Path,
    /// What is wrong.
    message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Diagnostic for Finding {
    /// [`Severity::Error`]: every rule here is one glTF 2.0 states.
    fn severity(&self) -> Severity {
        Severity::Error
    }

    /// The JSON pointer as an item (`/skins/0/joints`; `/` for the whole document): a rule
    /// about the document has no one byte offset.
    fn location(&self) -> Location {
        Location::Item(self.path.to_string())
    }

    fn message(&self) -> String {
        self.message.clone()
    }
}

fn problem(path: Path, message: impl Into<String>) -> Finding {
    Finding {
        path,
        message: message.into(),
    }
}

/// How far a unit quaternion or a weight sum may stray from 1 (the Khronos validator's
/// order of tolerance for f32 data).
const UNIT_TOLERANCE: f32 = 5e-4;

/// Lists what breaks glTF 2.0's rules in `bytes`: first anything that stops the file from
/// being read at all (then nothing else), else key times that do not strictly increase,
/// rotations that are not unit length, skin weights that do not sum to 1 or are negative,
/// a joint used twice by one vertex, a joint listed twice in a skin, and POSITION accessors
/// without bounds.
///
/// Every problem is a [`Severity::Error`] (each rule is one glTF 2.0 states) at a
/// [`Location::Item`]: the JSON pointer of the offending object (`/skins/0/joints`; `/` for
/// the whole document, where a file that cannot be read is reported).
pub fn validate(bytes: &[u8]) -> Vec<Problem> {
    findings(bytes).iter().map(Problem::from_diagnostic).collect()
}

/// The rules `bytes` break, in the order [`validate`] lists them.
fn findings(bytes: &[u8]) -> Vec<Finding> {
    let mut report = ConversionReport::default();
    if let Err(e) = import::import(bytes, &SceneOptions::default(), &mut report) {
        return vec![problem(Path::default(), e.to_string())];
    }
    let Ok((document, bin)) = import::parse(bytes) else {
        return Vec::new();
    };
    let Ok(buffers) = import::load_buffers(&document, bin) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    // A buffer longer than it says (a .bin beside the file with more in it): its bytes past
    // byteLength are in no view, yet are carried along. A GLB's BIN chunk may be padded to
    // 4 bytes; anything more is reported.
    for buffer in document.buffers() {
        let Some(data) = buffers.buffer(buffer.index()) else {
            continue;
        };
        if data.len() > buffer.length() + 3 {
            problems.push(problem(
                Path::item("buffers", buffer.index()).field("byteLength"),
                format!(
                    "byteLength {} but the buffer holds {} bytes (a glTF buffer is as long as it says)",
                    buffer.length(),
                    data.len()
                ),
            ));
        }
    }
    for node in document.nodes() {
        if let gltf::scene::Transform::Decomposed { rotation: r, .. } = node.transform() {
            let n = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]).sqrt();
            if (n - 1.0).abs() > UNIT_TOLERANCE {
                problems.push(problem(
                    Path::item("nodes", node.index()).field("rotation"),
                    format!("rotation of length {n} (glTF rotations are unit quaternions)"),
                ));
            }
        }
    }
    for skin in document.skins() {
        let mut joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
        joints.sort_unstable();
        if joints.windows(2).any(|w| w[0] == w[1]) {
            problems.push(problem(
                Path::item("skins", skin.index()).field("joints"),
                "a node listed twice as a joint",
            ));
        }
    }
    for animation in document.animations() {
        for sampler in animation.samplers() {
            let path = Path::item("animations", animation.index())
                .field("samplers")
                .index(sampler.index());
            if let Ok((times, _)) = accessor::floats(&sampler.input(), &buffers, &[1], "key times") {
                if let Some(i) = times.windows(2).position(|w| w[1] <= w[0]) {
                    problems.push(problem(
                        path.field("input"),
                        format!(
                            "key time {} at key {} does not increase on {}",
                            times[i + 1],
                            i + 1,
                            times[i]
                        ),
                    ));
                }
                if times.first().is_some_and(|&t| t < 0.0) {
                    problems.push(problem(path.field("input"), "a negative key time"));
                }
            }
        }
        for channel in animation.channels() {
            if channel.target().property() != Property::Rotation {
                continue;
            }
            let sampler = channel.sampler();
            if let Ok((values, _)) = accessor::floats(&sampler.output(), &buffers, &[4], "rotations") {
                if let Some(k) = values.chunks_exact(4).position(|q| {
                    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
                    (n - 1.0).abs() > UNIT_TOLERANCE
                }) {
                    problems.push(problem(
                        Path::item("animations", animation.index())
                            .field("samplers")
                            .index(sampler.index())
                            .field("output"),
                        format!("rotation key {k} is not unit length"),
                    ));
                }
            }
        }
    }
    for mesh in document.meshes() {
        for primitive in mesh.primitives() {
            let path = Path::item("meshes", mesh.index())
                .field("primitives")
                .index(primitive.index());
            if let Some(p) = primitive.get(&Semantic::Positions) {
                if p.min().is_none() || p.max().is_none() {
                    problems.push(problem(
                        path.field("attributes").field("POSITION"),
                        "an accessor without min and max",
                    ));
                }
            }
            let mut sets = Vec::new();
            let mut set = 0;
            while let (Some(j), Some(w)) = (
                primitive.get(&Semantic::Joints(set)),
                primitive.get(&Semantic::Weights(set)),
            ) {
                match (
                    accessor::uints(&j, &buffers, 4, "joints"),
                    accessor::floats(&w, &buffers, &[4], "weights"),
                ) {
                    (Ok(j), Ok((w, _))) => sets.push((j, w)),
                    _ => break,
                }
                set += 1;
            }
            let vertices = sets.first().map_or(0, |(j, _)| j.len() / 4);
            let (mut bad_sum, mut negative, mut duplicate) = (0, 0, 0);
            for v in 0..vertices {
                let mut sum = 0.0f32;
                let mut used: Vec<u32> = Vec::new();
                for (j, w) in &sets {
                    for s in v * 4..v * 4 + 4 {
                        let (joint, weight) = (j.get(s).copied().unwrap_or(0), w.get(s).copied().unwrap_or(0.0));
                        if weight < 0.0 {
                            negative += 1;
                        }
                        if weight > 0.0 {
                            used.push(joint);
                        }
                        sum += weight;
                    }
                }
                // Each influence on a joint the vertex already uses: sorted, not searched,
                // since a primitive may have any number of JOINTS sets.
                used.sort_unstable();
                duplicate += used.windows(2).filter(|pair| pair[0] == pair[1]).count();
                if (sum - 1.0).abs() > UNIT_TOLERANCE {
                    bad_sum += 1;
                }
            }
            if bad_sum > 0 {
                problems.push(problem(
                    path.field("attributes"),
                    format!("{bad_sum} vertices whose weights do not sum to 1"),
                ));
            }
            if negative > 0 {
                problems.push(problem(
                    path.field("attributes"),
                    format!("{negative} negative weights"),
                ));
            }
            if duplicate > 0 {
                problems.push(problem(
                    path.field("attributes"),
                    format!("{duplicate} influences on a joint that the same vertex already uses"),
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_a_diagnostic_at_its_json_pointer() {
        let p = problem(Path::item("skins", 0).field("joints"), "a node listed twice as a joint");
        assert_eq!(p.severity(), Severity::Error);
        assert_eq!(p.location(), Location::Item("/skins/0/joints".into()));
        assert_eq!(Diagnostic::message(&p), "a node listed twice as a joint");
        assert_eq!(p.to_string(), "/skins/0/joints: a node listed twice as a joint");
        assert_eq!(problem(Path::default(), "x").location(), Location::Item("/".into()));
        assert_eq!(
            Problem::from_diagnostic(&p),
            Problem::new(
                Severity::Error,
                Location::Item("/skins/0/joints".into()),
                "a node listed twice as a joint"
            )
        );
    }

    #[test]
    fn a_file_that_does_not_read_is_one_problem_about_the_whole_document() {
        assert_eq!(
            validate(b"{}"),
            [Problem::new(
                Severity::Error,
                Location::Item("/".into()),
                "JSON at line 1, column 2 (byte 1): missing field `asset`"
            )]
        );
    }
}
