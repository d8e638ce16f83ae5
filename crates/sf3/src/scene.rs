//! Conversion to and from the neutral scene model of `animbin-core`.
//!
//! Each segment is one [`Animation`] (named `segment0`, `segment1`, ...), each slot one
//! [`BoneTrack`] (bone `slot0`, `slot1`, ...). x8an key times are whole ticks with no rate in
//! the file; they become frames at [`SceneOptions::framerate`] ([`DEFAULT_FRAMERATE`], 30,
//! when unset), unchanged in value. Going back, frames of an animation at another rate are
//! rescaled to that rate.

use std::cell::Cell;

use animbin_core::scene::{AnimKind, Animation, BoneTrack, Interpolation, Key as SceneKey, Scene};
use animbin_core::{ConversionReport, Error, ErrorKind, Fixed16, Quat, Result, Rot14, SceneOptions, Vec3};

use crate::FORMAT;
use crate::model::{Ending, Key, Segment, Sf3File, Slot};

/// The rate used when a caller states none: the files carry no rate, and 30 frames per
/// second is the usual rate of Saturn games.
pub const DEFAULT_FRAMERATE: f64 = 30.0;

/// How ticks become frames and whether rotations are scaled to unit length: the parts of
/// [`SceneOptions`] that x8an files use.
#[derive(Clone, Copy)]
struct Ticks {
    framerate: f64,
    normalize_rotations: bool,
}

impl Ticks {
    /// The options' framerate (or [`DEFAULT_FRAMERATE`]), refused unless positive.
    fn new(options: &SceneOptions) -> Result<Self> {
        let framerate = options.framerate_or(DEFAULT_FRAMERATE);
        if !(framerate.is_finite() && framerate > 0.0) {
            return Err(unencodable(format!("a framerate of {framerate} (it must be positive)")));
        }
        Ok(Self {
            framerate,
            normalize_rotations: options.normalize_rotations,
        })
    }
}

impl Sf3File {
    /// The scene of this file: one animation per segment, one bone track per slot, key
    /// ticks as frames at `options.framerate_or(DEFAULT_FRAMERATE)`, rotations scaled to
    /// unit length when `options.normalize_rotations` is set.
    ///
    /// A scene has no place for the padding words and the end marker: a file with any is
    /// reported in `report` ("the padding words and end marker of the SF3 file"). A
    /// framerate that is not positive is an error.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        let ticks = Ticks::new(options)?;
        if self.padding_words != 0 || self.ending != Ending::Eof || self.segments.iter().any(|s| s.padding_words != 0) {
            report.lose("the padding words and end marker of the SF3 file");
        }
        Ok(to_scene(self, ticks))
    }

    /// An x8an file holding `scene`'s animations: one segment per animation, one slot per
    /// bone track in track order, no padding and no end marker.
    ///
    /// Times are rescaled from each animation's rate to `options.framerate_or(DEFAULT_FRAMERATE)`
    /// and rounded to whole ticks (rounding is reported). What the format has no place for
    /// (skeleton, meshes, materials, textures, notes, property tracks, names that are not
    /// `segmentN` / `slotN`, looping, animation kinds other than absolute, step
    /// interpolation, cosmetic flags, precision the fixed-point fields round) is recorded in
    /// `report`. Refused with an error: a scene with no animation, a rate that is not
    /// positive, a time outside 0..=65535 ticks, a translation or scale outside
    /// [-32768, 32768) or a rotation component outside [-2, 2) (never wrapped).
    pub fn from_scene(scene: &Scene, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        from_scene(scene, Ticks::new(options)?, report)
    }
}

fn to_scene(file: &Sf3File, ticks: Ticks) -> Scene {
    Scene {
        animations: file
            .segments
            .iter()
            .enumerate()
            .map(|(i, segment)| segment_to_animation(i, segment, ticks))
            .collect(),
        ..Scene::default()
    }
}

impl From<&Sf3File> for Scene {
    /// [`Sf3File::to_scene`] with the default options (30 fps, rotations as stored), without
    /// the report.
    fn from(file: &Sf3File) -> Self {
        to_scene(
            file,
            Ticks {
                framerate: DEFAULT_FRAMERATE,
                normalize_rotations: false,
            },
        )
    }
}

fn segment_to_animation(index: usize, segment: &Segment, options: Ticks) -> Animation {
    let last = segment
        .slots
        .iter()
        .flat_map(|s| {
            let t = s.translation.iter().map(|k| k.time);
            let r = s.rotation.iter().map(|k| k.time);
            t.chain(r).chain(s.scale.iter().map(|k| k.time))
        })
        .max();
    Animation {
        name: format!("segment{index}"),
        framerate: options.framerate,
        frame_count: last.map_or(0.0, |t| f64::from(t) + 1.0),
        looping: false,
        kind: AnimKind::Absolute,
        interpolation: Interpolation::Linear,
        bones: segment
            .slots
            .iter()
            .enumerate()
            .map(|(i, slot)| slot_to_track(i, slot, options))
            .collect(),
        notes: Vec::new(),
        properties: Vec::new(),
        weights: Vec::new(),
    }
}

fn slot_to_track(index: usize, slot: &Slot, options: Ticks) -> BoneTrack {
    let vec3 = |k: &Key<Vec3<Fixed16>>| SceneKey::new(f64::from(k.time), k.value.map(Fixed16::to_f64));
    BoneTrack {
        curves: Default::default(),
        channel_overrides: Default::default(),
        channel_kinds: Default::default(),
        bone: format!("slot{index}"),
        kind_override: None,
        cosmetic: false,
        translation: slot.translation.iter().map(vec3).collect(),
        rotation: slot
            .rotation
            .iter()
            .map(|k| {
                let q = k.value.map(Rot14::to_f64);
                SceneKey::new(
                    f64::from(k.time),
                    if options.normalize_rotations { q.normalized() } else { q },
                )
            })
            .collect(),
        scale: slot.scale.iter().map(vec3).collect(),
    }
}

/// [`Sf3File::from_scene`], with the framerate checked.
fn from_scene(scene: &Scene, options: Ticks, report: &mut ConversionReport) -> Result<Sf3File> {
    if scene.animations.is_empty() {
        return Err(unencodable(
            "a scene with no animation (an x8an file needs a segment)".into(),
        ));
    }
    if !scene.skeleton.bones.is_empty() {
        report.lose("the skeleton (x8an files hold animations only)");
    }
    if !scene.meshes.is_empty() || !scene.materials.is_empty() || !scene.textures.is_empty() {
        report.lose("meshes, materials and textures (x8an files hold animations only)");
    }
    report.lose_morph_targets(scene, "x8an");
    report.lose_rig_controls(scene, "x8an");
    report.lose_hair_and_instances(scene, "x8an");
    let segments = scene
        .animations
        .iter()
        .enumerate()
        .map(|(i, anim)| animation_to_segment(i, anim, options, report))
        .collect::<Result<_>>()?;
    Ok(Sf3File {
        segments,
        ..Sf3File::default()
    })
}

fn unencodable(what: String) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(what))
}

fn animation_to_segment(
    index: usize,
    anim: &Animation,
    options: Ticks,
    report: &mut ConversionReport,
) -> Result<Segment> {
    if !(anim.framerate.is_finite() && anim.framerate > 0.0) {
        return Err(unencodable(format!(
            "animation \"{}\" has a framerate of {} (it must be positive)",
            anim.name, anim.framerate
        )));
    }
    if anim.name != format!("segment{index}") {
        report.lose("animation names (segments are numbered)");
    }
    if !anim.notes.is_empty() {
        report.lose("notes");
    }
    if !anim.properties.is_empty() {
        report.lose("property tracks");
    }
    if anim.looping {
        report.lose("the looping flag");
    }
    if anim.kind != AnimKind::Absolute {
        report.lose("animation kinds other than absolute");
    }
    if anim.interpolation != Interpolation::Linear {
        report.lose("step interpolation");
    }
    let ratio = options.framerate / anim.framerate;
    let mut slots = Vec::with_capacity(anim.bones.len());
    let mut last_tick = None::<u16>;
    for (i, track) in anim.bones.iter().enumerate() {
        if track.bone != format!("slot{i}") {
            report.lose("bone names (slots are numbered)");
        }
        if track.kind_override.is_some() {
            report.lose("per-bone animation kinds");
        }
        if track.cosmetic {
            report.lose("cosmetic bone flags");
        }
        let at =
            |what: &str, key: usize| format!("animation \"{}\" bone \"{}\" {what} key {key}", anim.name, track.bone);
        // Values that the fixed-point fields hold only approximately, reported once below.
        let (lengths_rounded, rotations_rounded) = (Cell::new(false), Cell::new(false));
        let mut tick = |frame: f64, what: &str, key: usize| -> Result<u16> {
            let t = frame * ratio;
            let rounded = t.round();
            if !(0.0..=f64::from(u16::MAX)).contains(&rounded) {
                return Err(unencodable(format!(
                    "{}: frame {frame} is {t} ticks, outside 0..=65535",
                    at(what, key)
                )));
            }
            if (t - rounded).abs() > 1e-6 {
                report.lose("key times between whole ticks (rounded)");
            }
            let tick = rounded as u16;
            last_tick = Some(last_tick.map_or(tick, |l| l.max(tick)));
            Ok(tick)
        };
        let fixed = |v: f64, what: &str, key: usize| {
            let f = Fixed16::from_f64(v).map_err(|e| unencodable(format!("{}: {e}", at(what, key))))?;
            lengths_rounded.set(lengths_rounded.get() || f.to_f64() != v);
            Ok(f)
        };
        let fixed3 = |v: Vec3<f64>, what: &str, key: usize| -> Result<Vec3<Fixed16>> {
            Ok(Vec3::new(
                fixed(v.x, what, key)?,
                fixed(v.y, what, key)?,
                fixed(v.z, what, key)?,
            ))
        };
        let rot = |v: f64, key: usize| {
            let r = Rot14::from_f64(v).map_err(|e| unencodable(format!("{}: {e}", at("rotation", key))))?;
            rotations_rounded.set(rotations_rounded.get() || r.to_f64() != v);
            Ok(r)
        };
        let mut slot = Slot::default();
        for (k, key) in track.translation.iter().enumerate() {
            let value = fixed3(key.value, "translation", k)?;
            slot.translation
                .push(Key::new(tick(key.frame, "translation", k)?, value));
        }
        for (k, key) in track.rotation.iter().enumerate() {
            let q = key.value;
            let value = Quat::new(rot(q.x, k)?, rot(q.y, k)?, rot(q.z, k)?, rot(q.w, k)?);
            slot.rotation.push(Key::new(tick(key.frame, "rotation", k)?, value));
        }
        for (k, key) in track.scale.iter().enumerate() {
            let value = fixed3(key.value, "scale", k)?;
            slot.scale.push(Key::new(tick(key.frame, "scale", k)?, value));
        }
        slots.push(slot);
        if lengths_rounded.get() {
            report.lose("translation and scale precision finer than 1/65536 (16.16 fixed point, rounded)");
        }
        if rotations_rounded.get() {
            report.lose("rotation precision finer than 1/16384 (i16 components, rounded)");
        }
    }
    let length = last_tick.map_or(0.0, |t| f64::from(t) + 1.0);
    if (anim.frame_count * ratio - length).abs() > 1e-6 && anim.frame_count * ratio > length {
        report.lose("animation lengths past the last key");
    }
    Ok(Segment {
        padding_words: 0,
        slots,
    })
}
