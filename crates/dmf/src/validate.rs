//! The spec's invariants that a file can break and still read.

use std::collections::HashMap;
use std::fmt;

use animbin_core::{Diagnostic, Location, Problem, Severity, non_unit_length};

use crate::layout::{Bool16, Name};
use crate::model::Dmf;

/// The eight bytes every PNG starts with.
pub const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1A, b'\n'];

/// Where a [`Finding`] is: its [`Location`] is this record, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Place {
    /// Texture `n`.
    Texture(usize),
    /// Material `n`.
    Material(usize),
    /// Vertex `n`.
    Vertex(usize),
    /// Face `n`.
    Face(usize),
    /// Bone `n`.
    Bone(usize),
    /// Animation `n`.
    Animation(usize),
    /// Track `track` of animation `animation`.
    Track {
        /// The animation's index.
        animation: usize,
        /// The track's index within the animation.
        track: usize,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Texture(i) => write!(f, "texture {i}"),
            Self::Material(i) => write!(f, "material {i}"),
            Self::Vertex(i) => write!(f, "vertex {i}"),
            Self::Face(i) => write!(f, "face {i}"),
            Self::Bone(i) => write!(f, "bone {i}"),
            Self::Animation(i) => write!(f, "animation {i}"),
            Self::Track { animation, track } => write!(f, "animation {animation} track {track}"),
        }
    }
}

/// One broken invariant (an error) or legal but suspicious value (a warning): where, and
/// what is wrong; [`validate`] gives it out as a [`Problem`] in its words
/// ([`Problem::from_diagnostic`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// [`Severity::Error`] for a rule of the spec; [`Severity::Warning`] for a track rotation
    /// that is not a unit quaternion.
    severity: Severity,
    /// The record at fault.
    place: Place,
    /// What is wrong, naming the field and its value.
    message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

impl Diagnostic for Finding {
    fn severity(&self) -> Severity {
        self.severity
    }

    /// The record as an item (`"bone 3"`, `"animation 0 track 2"`): problems are found in the
    /// owned model, which has no file offsets.
    fn location(&self) -> Location {
        Location::Item(self.place.to_string())
    }

    fn message(&self) -> String {
        self.message.clone()
    }
}

struct Problems(Vec<Finding>);

impl Problems {
    fn push(&mut self, place: Place, message: String) {
        self.0.push(Finding {
            severity: Severity::Error,
            place,
            message,
        });
    }

    fn warn(&mut self, place: Place, message: String) {
        self.0.push(Finding {
            severity: Severity::Warning,
            place,
            message,
        });
    }

    fn name(&mut self, place: Place, name: &Name) {
        if !name.has_nul() {
            self.push(place, format!("name {name:?} has no NUL in its 32 bytes"));
        }
        if let Err(e) = name.as_str() {
            self.push(place, format!("name {name:?} is not UTF-8: {e}"));
        }
    }

    fn id(&mut self, place: Place, id: i16, index: usize) {
        if usize::try_from(id).ok() != Some(index) {
            self.push(place, format!("id {id} does not match its position {index}"));
        }
    }

    fn boolean(&mut self, place: Place, field: &str, value: Bool16) {
        if value.as_bool().is_none() {
            self.push(place, format!("{field} is {}, not a boolean 0 or 1", value.get()));
        }
    }

    fn unique_names<'a>(&mut self, what: &str, names: impl Iterator<Item = (Place, &'a Name)>) {
        let mut seen: HashMap<&[u8], Place> = HashMap::new();
        for (place, name) in names {
            if name.is_empty() {
                self.push(place, format!("the {what} name is empty"));
            } else if let Some(first) = seen.insert(name.bytes(), place) {
                self.push(place, format!("the {what} name {name:?} is also the name of {first}"));
            }
        }
    }
}

/// Every invariant of the spec that `dmf` breaks, one [`Problem`] each, in file order, placed
/// at its record as an item (`"bone 3"`, `"animation 0 track 2"`: the owned model has no
/// file offsets).
///
/// Reported (none of these stops a file from reading): a boolean other than 0/1; `prs_flags`
/// 0 or with bits above bit 2; a texture index, face material or vertex index, skin index,
/// track bone index or parent out of range (-1 is allowed for a material's texture, a skin
/// index and a parent; a skin slot of index 0 and weight 0 is an unused slot; a face's
/// `mat_id` is only checked when the model has materials); a parent at or after its child; ids
/// that do not match positions; empty or duplicate bone names and animation names
/// (which the spec asks to be "defined and unique"); names without a NUL or not UTF-8; an image whose bytes are not a
/// PNG, or whose PNG header gives another size than the record; a track time outside
/// `0..=duration`. These are errors.
///
/// Warned about: a track rotation (prs flag bit 1) that is not a unit quaternion (within
/// [`UNIT_QUATERNION_TOLERANCE`](crate::UNIT_QUATERNION_TOLERANCE)).
pub fn validate(dmf: &Dmf) -> Vec<Problem> {
    findings(dmf).iter().map(Problem::from_diagnostic).collect()
}

/// The findings of [`validate`], in file order.
fn findings(dmf: &Dmf) -> Vec<Finding> {
    let mut p = Problems(Vec::new());
    let bone_count = dmf.bones.len();
    for (i, t) in dmf.textures.iter().enumerate() {
        let place = Place::Texture(i);
        p.id(place, t.id, i);
        p.name(place, &t.name);
        p.boolean(place, "flip_y", t.flip_y);
        if !t.png.starts_with(&PNG_SIGNATURE) {
            p.push(place, "the image bytes are not a PNG (no PNG signature)".into());
        } else if let Some((width, height)) = png_size(&t.png) {
            if (width, height) != (t.width.into(), t.height.into()) {
                p.push(
                    place,
                    format!(
                        "img_width x img_height is {} x {}, but the PNG is {width} x {height}",
                        t.width, t.height
                    ),
                );
            }
        }
    }
    for (i, m) in dmf.materials.iter().enumerate() {
        let place = Place::Material(i);
        p.id(place, m.id, i);
        p.name(place, &m.name);
        if m.texture < -1 || usize::try_from(m.texture).is_ok_and(|t| t >= dmf.textures.len()) {
            p.push(
                place,
                format!("tex_id {} is out of range ({} textures)", m.texture, dmf.textures.len()),
            );
        }
        for (field, value) in [
            ("use_blending", m.use_blending),
            ("skinning", m.skinning),
            ("ignore_lights", m.ignore_lights),
            ("vertex_color", m.vertex_color),
            ("use_alpha", m.use_alpha),
            ("skip_render", m.skip_render),
        ] {
            p.boolean(place, field, value);
        }
    }
    for (i, v) in dmf.vertices.iter().enumerate() {
        for (slot, (index, weight)) in v.skin_index.iter().zip(&v.skin_weight).enumerate() {
            let index = index.get();
            let unused = index == 0 && weight.get() == 0.0;
            let in_range = index == -1 || usize::try_from(index).is_ok_and(|b| b < bone_count);
            if !unused && !in_range {
                p.push(
                    Place::Vertex(i),
                    format!("skin_index[{slot}] {index} is out of range ({bone_count} bones)"),
                );
            }
        }
    }
    let vertex_count = dmf.vertices.len() as u64;
    for (i, f) in dmf.faces.iter().enumerate() {
        let mat = usize::from(f.mat_id.get());
        if !dmf.materials.is_empty() && mat >= dmf.materials.len() {
            p.push(
                Place::Face(i),
                format!("mat_id {mat} is out of range ({} materials)", dmf.materials.len()),
            );
        }
        for (corner, index) in ["a", "b", "c"].iter().zip(&f.indices) {
            if u64::from(index.get()) >= vertex_count {
                p.push(
                    Place::Face(i),
                    format!(
                        "vertex index {corner} = {} is out of range ({vertex_count} vertices)",
                        index.get()
                    ),
                );
            }
        }
    }
    for (i, b) in dmf.bones.iter().enumerate() {
        let place = Place::Bone(i);
        p.id(place, b.bone_id.get(), i);
        p.name(place, &b.name);
        let parent = b.parent_id.get();
        match usize::try_from(parent) {
            Err(_) if parent == -1 => {}
            Ok(q) if q < i => {}
            Ok(q) if q < bone_count => p.push(place, format!("parent_id {q} comes at or after its child")),
            _ => p.push(
                place,
                format!("parent_id {parent} is out of range ({bone_count} bones)"),
            ),
        }
    }
    p.unique_names(
        "bone",
        dmf.bones.iter().enumerate().map(|(i, b)| (Place::Bone(i), &b.name)),
    );
    for (a, animation) in dmf.animations.iter().enumerate() {
        let place = Place::Animation(a);
        p.id(place, animation.id, a);
        p.name(place, &animation.name);
        for (t, track) in animation.tracks.iter().enumerate() {
            let place = Place::Track { animation: a, track: t };
            if !track.flags_are_valid() {
                p.push(
                    place,
                    format!(
                        "prs_flags {:#x} must have at least one of bits 0..2 and no other",
                        track.prs_flags.get()
                    ),
                );
            }
            let bone = track.bone_id.get();
            if !usize::try_from(bone).is_ok_and(|b| b < bone_count) {
                p.push(place, format!("bone_id {bone} is out of range ({bone_count} bones)"));
            }
            let time = track.time.get();
            if !(0.0..=animation.duration).contains(&time) {
                p.push(
                    place,
                    format!("time {time} s is outside the animation's 0..={} s", animation.duration),
                );
            }
            if let Some(length) = track.rotation().and_then(|r| non_unit_length(r.map(f64::from))) {
                p.warn(
                    place,
                    format!("the rotation has length {length:.6}, not 1, so it is no rotation"),
                );
            }
        }
    }
    p.unique_names(
        "animation",
        dmf.animations
            .iter()
            .enumerate()
            .map(|(i, a)| (Place::Animation(i), &a.name)),
    );
    p.0
}

/// The width and height in a PNG's IHDR chunk, when the bytes hold one where it must be.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    let ihdr = png.get(8..24)?;
    if ihdr.get(4..8)? != b"IHDR" {
        return None;
    }
    let be = |range: std::ops::Range<usize>| Some(u32::from_be_bytes(ihdr.get(range)?.try_into().ok()?));
    Some((be(8..12)?, be(12..16)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_is_a_diagnostic_at_its_record() {
        let problem = Finding {
            severity: Severity::Error,
            place: Place::Track { animation: 1, track: 4 },
            message: "bone_id 9 is out of range (2 bones)".into(),
        };
        assert_eq!(problem.severity(), Severity::Error);
        assert_eq!(problem.location(), Location::Item("animation 1 track 4".into()));
        assert_eq!(Diagnostic::message(&problem), "bone_id 9 is out of range (2 bones)");
        assert_eq!(
            problem.to_string(),
            "animation 1 track 4: bone_id 9 is out of range (2 bones)"
        );
        assert_eq!(Problem::from_diagnostic(&problem).to_string(), problem.to_string());
    }
}
