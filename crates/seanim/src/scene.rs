//! Conversion between [`SeAnim`] and the neutral scene model.
//!
//! SEAnim holds one animation and no skeleton (bones are named, not arranged), so a file
//! becomes a [`Scene`] with an empty skeleton and one [`Animation`]. Frames become `f64`;
//! modifiers become [`BoneTrack::kind_override`]; bone flag 1 becomes
//! [`BoneTrack::cosmetic`]; an SEBlend trailer becomes one [`PropertyTrack`] per shape
//! (`format` "seanim", `property` "seblend", `data` the shape's on-disk keys). What the scene
//! cannot hold is named in the [`ConversionReport`].

use animbin_core::scene::Precision as ScenePrecision;
use animbin_core::scene::{AnimKind, Animation, BoneTrack, ConversionReport, Interpolation, Note as SceneNote};
use animbin_core::scene::{
    Key as SceneKey, KeyColumn, KeyValue as SceneValue, Keys as SceneKeys, PropertyTrack, Scene,
};
use animbin_core::seblend::Trailer;
use animbin_core::{Error, ErrorKind, Result, SceneOptions, pose};

use crate::keys::{Key, KeyValue, Keys, Precision, narrow, widen};
use crate::layout::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, Modifier, Note, PresenceFlags, PropertyFlags, SeAnim, SeBlend,
    derived_frame_count,
};
use crate::{FORMAT, FrameWidthRule};

/// The `property` of the scene tracks that carry SEBlend shapes.
pub const SEBLEND_PROPERTY: &str = "seblend";

impl From<AnimType> for AnimKind {
    fn from(t: AnimType) -> Self {
        match t {
            AnimType::Absolute => Self::Absolute,
            AnimType::Additive => Self::Additive,
            AnimType::Relative => Self::Relative,
            AnimType::Delta => Self::Delta,
        }
    }
}

impl From<AnimKind> for AnimType {
    fn from(k: AnimKind) -> Self {
        match k {
            AnimKind::Absolute => Self::Absolute,
            AnimKind::Additive => Self::Additive,
            AnimKind::Relative => Self::Relative,
            AnimKind::Delta => Self::Delta,
        }
    }
}

/// A bone's track: its name, cosmetic flag and keys.
fn bone_track(b: &Bone) -> BoneTrack {
    BoneTrack {
        curves: Default::default(),
        channel_overrides: Default::default(),
        channel_kinds: Default::default(),
        bone: b.name.clone(),
        kind_override: None,
        cosmetic: b.is_cosmetic(),
        translation: scene_keys(&b.location),
        rotation: scene_keys(&b.rotation),
        scale: scene_keys(&b.scale),
    }
}

/// A channel's keys as scene keys: a single-precision file's stay `f32`s (unless a frame is
/// past 2^24, which an `f32` cannot count exactly).
fn scene_keys<V: KeyValue + SceneValue<Single = V::Narrow>>(keys: &Keys<V>) -> SceneKeys<V> {
    match keys {
        // Frames an f32 counts exactly (all but past 2^24): two plain copies.
        Keys::Single(keys) if keys.iter().all(|k| k.frame <= 1 << 24) => SceneKeys::from_single(
            keys.iter().map(|k| k.frame as f32).collect(),
            keys.iter().map(|k| k.value).collect(),
        )
        .unwrap_or_default(),
        Keys::Single(keys) => {
            let mut scene = SceneKeys::with_capacity(keys.len());
            for k in keys {
                if k.frame <= 1 << 24 {
                    scene.push_single(k.frame as f32, k.value);
                } else {
                    scene.push(SceneKey::new(f64::from(k.frame), V::from_narrow(k.value)));
                }
            }
            scene
        }
        // A high-precision file's values stay f64, as the file says.
        Keys::Double(keys) => SceneKeys::from_double(
            keys.iter().map(|k| f64::from(k.frame)).collect(),
            keys.iter().map(|k| k.value).collect(),
        )
        .unwrap_or_default(),
    }
}

impl SeAnim {
    /// This file as a scene: an empty skeleton and one animation, recording in `report` what
    /// the scene cannot hold.
    ///
    /// SEAnim stores its own framerate and converts no units or axes, so no option changes
    /// the result; the conversion cannot fail today.
    pub fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(Scene {
            animations: vec![self.to_animation(report)],
            ..Scene::default()
        })
    }

    /// [`SeAnim::to_scene`] of a file no longer needed: each bone's keys are freed as soon
    /// as its track is made, so the file's keys and the scene's are not all held at once.
    /// Bones are made on every core ([`animbin_core::parallel`]).
    pub fn into_scene(mut self, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        let frame_count = self.scene_frame_count();
        // Judged on the keys as read, before they are freed.
        let mut header = ConversionReport::default();
        self.report_header_losses(&mut header);
        let tracks = animbin_core::parallel::map_mut_in_order(&mut self.bones, |bone| {
            let track = bone_track(bone);
            bone.location = Keys::default();
            bone.rotation = Keys::default();
            bone.scale = Keys::default();
            track
        });
        Ok(Scene {
            animations: vec![self.animation_of(tracks, frame_count, header, report)],
            ..Scene::default()
        })
    }

    /// This file as a scene animation, recording in `report` what the scene cannot hold.
    pub fn to_animation(&self, report: &mut ConversionReport) -> Animation {
        let mut header = ConversionReport::default();
        self.report_header_losses(&mut header);
        let tracks = animbin_core::parallel::map_in_order(&self.bones, bone_track);
        self.animation_of(tracks, self.scene_frame_count(), header, report)
    }

    /// The frame count the header states, else the one the keys and notes give.
    fn scene_frame_count(&self) -> f64 {
        self.frame_count()
            .map_or_else(|_| derived_frame_count(&self.bones, &self.notes) as f64, f64::from)
    }

    /// The scene animation of this file with its bones' `tracks` (made by [`bone_track`]);
    /// its header's losses (`header`, judged on the keys as read) are reported after those
    /// of the bones.
    fn animation_of(
        &self,
        mut bones: Vec<BoneTrack>,
        frame_count: f64,
        header: ConversionReport,
        report: &mut ConversionReport,
    ) -> Animation {
        for m in &self.modifiers {
            if let Some(track) = bones.get_mut(m.bone as usize) {
                if track.kind_override.is_some() {
                    report.lose("bone modifiers naming a bone twice (the last one is kept)");
                }
                track.kind_override = Some(m.anim_type.into());
            } else {
                report.lose("bone modifiers naming bones past the bone list");
            }
        }
        let in_bone_order = self.modifiers.windows(2).all(|w| w[0].bone < w[1].bone);
        if !in_bone_order {
            report.lose("the order of bone modifiers (they come back in bone order)");
        }
        if self.bones.iter().any(|b| b.flags > 1) {
            report.lose("bone flags other than 0 (default) and 1 (cosmetic)");
        }
        for line in header.lost {
            report.lose(line);
        }
        let mut properties = Vec::new();
        match &self.trailer {
            Trailer::SeBlend(blend) => properties.extend(blend.shapes.iter().map(blend_track)),
            Trailer::Unknown(bytes) => report.lose(format!("{} unknown trailing bytes", bytes.len())),
            Trailer::None => {}
        }
        Animation {
            name: String::new(),
            framerate: f64::from(self.framerate),
            frame_count,
            looping: self.looped(),
            kind: self.anim_type.into(),
            interpolation: Interpolation::Linear,
            bones,
            notes: self
                .notes
                .iter()
                .map(|n| SceneNote {
                    frame: f64::from(n.frame),
                    name: n.name.clone(),
                })
                .collect(),
            properties,
            weights: Vec::new(),
        }
    }

    fn report_header_losses(&self, report: &mut ConversionReport) {
        if !self.custom.is_empty() || self.data_presence_flags.contains(PresenceFlags::CUSTOM) {
            report.lose(format!("the custom block ({} bytes)", self.custom.len()));
        }
        if !self.header_extra.is_empty() {
            report.lose(format!("{} header bytes past 0x1C", self.header_extra.len()));
        }
        let reserved_bits = self.anim_flags.reserved_bits()
            | self.data_presence_flags.reserved_bits()
            | self.data_property_flags.reserved_bits();
        if reserved_bits != 0 || self.reserved1 != [0; 2] || self.reserved2 != [0; 3] {
            report.lose("reserved header bits and bytes");
        }
        if !self.stray_counts.is_empty() {
            report.lose("header counts of absent blocks");
        }
        if self.frame_width_rule == FrameWidthRule::Legacy {
            report.lose("the old frame_t rule of this file");
        }
        // The custom block and reserved bits are reported above.
        let block_flags = self.data_presence_flags & (PresenceFlags::BONE | PresenceFlags::NOTE);
        if presence_for(&self.bones, !self.notes.is_empty()) != block_flags {
            report.lose("presence flags of empty blocks");
        }
        if self.precision() == Precision::Double && single_exact_keys(&self.bones) {
            report.lose("SEANIM_PRECISION_HIGH on values that single precision holds exactly");
        }
    }

    /// The file a scene's first animation makes, recording in `report` what SEAnim cannot hold.
    ///
    /// Fails when the scene has no animation, when a frame cannot be a `frame_t` (negative,
    /// not finite, or `u32::MAX` and past, which leaves no `frameCount`), or when the framerate
    /// is not a finite `f32`. The animation's own framerate is kept. Three options set what a
    /// scene from a file that states none (a glTF another tool exported) cannot say:
    /// - [`SceneOptions::anim_kind`] writes that anim type, the keys rewritten against the
    ///   scene skeleton's bind pose so that what plays stays the same
    ///   ([`animbin_core::pose::rebase`]; bones the skeleton lacks play over an identity
    ///   pose) and rounded to `f32` again when they all were `f32` before; bone modifiers
    ///   are then dropped (reported);
    /// - [`SceneOptions::looping`] sets or clears `SEANIM_LOOPED`;
    /// - [`SceneOptions::precision`] chooses the key precision: single rounds every finite
    ///   value to the nearest `f32` (reported when that changes one), double sets
    ///   `SEANIM_PRECISION_HIGH` even when single would hold every value.
    pub fn from_scene(scene: &Scene, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        let Some((first, rest)) = scene.animations.split_first() else {
            return Err(unencodable("the scene has no animation to write as SEAnim"));
        };
        if !rest.is_empty() {
            report.lose(format!("{} animations after the first (SEAnim holds one)", rest.len()));
        }
        if !scene.skeleton.bones.is_empty() {
            report.lose("the skeleton (SEAnim names bones but stores no hierarchy or bind pose)");
        }
        if !scene.meshes.is_empty() || !scene.materials.is_empty() || !scene.textures.is_empty() {
            report.lose("meshes, materials and textures");
        }
        // SEBlend keys stay opaque (crate docs): their layout is not confirmed by any writer.
        report.lose_morph_targets(scene, "SEAnim (whose SEBlend key layout is unconfirmed)");
        report.lose_rig_controls(scene, "SEAnim");
        report.lose_hair_and_instances(scene, "SEAnim");
        let rebased;
        let (first, single) = match options.anim_kind {
            Some(kind) if kind != first.kind || first.bones.iter().any(|t| t.kind_override.is_some()) => {
                // Keys that were single precision stay single: the rebase's arithmetic in f64
                // would otherwise make the file double.
                let single = single_exact_tracks(first);
                let mut anim = first.clone();
                if pose::rebase(&mut anim, &scene.skeleton, kind) > 0 {
                    report.lose(format!(
                        "bone modifiers (the anim type {} is given for every bone)",
                        kind.name()
                    ));
                }
                rebased = anim;
                (&rebased, single)
            }
            _ => (first, false),
        };
        let mut file = Self::from_animation(first, report)?;
        if single && options.precision.is_none() {
            round_to_single(&mut file.bones);
            file.data_property_flags.remove(PropertyFlags::PRECISION_HIGH);
        }
        if let Some(looping) = options.looping {
            file.anim_flags.set(AnimFlags::LOOPED, looping);
        }
        match options.precision {
            Some(ScenePrecision::Single) => {
                file.data_property_flags.remove(PropertyFlags::PRECISION_HIGH);
                if round_to_single(&mut file.bones) {
                    report.lose("key values beyond single precision (rounded to f32, as asked)");
                }
            }
            Some(ScenePrecision::Double) => {
                file.data_property_flags.insert(PropertyFlags::PRECISION_HIGH);
                hold_at(&mut file.bones, Precision::Double);
            }
            None => {}
        }
        Ok(file)
    }

    /// The file an animation makes, recording in `report` what SEAnim cannot hold.
    ///
    /// Key values keep single precision when every one of them is exactly an `f32`, and
    /// become `SEANIM_PRECISION_HIGH` otherwise; `frameCount` is derived from the keys
    /// unless the animation is longer.
    pub fn from_animation(anim: &Animation, report: &mut ConversionReport) -> Result<Self> {
        if !anim.name.is_empty() {
            report.lose("the animation's name");
        }
        if anim.interpolation != Interpolation::Linear {
            report.lose("step interpolation (SEAnim keys are linear)");
        }
        let framerate = narrow(anim.framerate)
            .filter(|f| f.is_finite())
            .ok_or_else(|| unencodable(format!("framerate {} is not a finite f32", anim.framerate)))?;
        if widen(framerate) != anim.framerate {
            report.lose("framerate digits beyond f32");
        }

        let mut bones = Vec::with_capacity(anim.bones.len());
        let mut modifiers = Vec::new();
        for (i, track) in anim.bones.iter().enumerate() {
            let what = |channel: &str| format!("bone {:?} {channel} key", track.bone);
            bones.push(Bone {
                name: track.bone.clone(),
                flags: u8::from(track.cosmetic),
                location: file_keys(&track.translation, &what("location"), report)?,
                rotation: file_keys(&track.rotation, &what("rotation"), report)?,
                scale: file_keys(&track.scale, &what("scale"), report)?,
            });
            if let Some(kind) = track.kind_override {
                let bone = u32::try_from(i).map_err(|_| unencodable("a modifier bone index past u32"))?;
                modifiers.push(Modifier {
                    bone,
                    anim_type: kind.into(),
                });
            }
        }
        if modifiers.len() > usize::from(u8::MAX) {
            return Err(unencodable(format!(
                "{} bones override the anim type; boneAnimModifierCount holds 255 at most",
                modifiers.len()
            )));
        }
        let mut notes = Vec::with_capacity(anim.notes.len());
        for (i, n) in anim.notes.iter().enumerate() {
            notes.push(Note {
                frame: file_frame(n.frame, || format!("note {i}"), report)?,
                name: n.name.clone(),
            });
        }

        let mut shapes = Vec::new();
        for p in &anim.properties {
            match blend_shape(p) {
                Some(shape) => shapes.push(shape),
                None => report.lose(format!(
                    "property track {}.{} ({}; SEAnim animates bones)",
                    p.node, p.property, p.format
                )),
            }
        }

        // Channels the scene held as f32 arrive single: a high-precision file holds every
        // channel as f64, as reading it would.
        let precision = if single_exact_keys(&bones) {
            hold_at(&mut bones, Precision::Single);
            PropertyFlags::empty()
        } else {
            hold_at(&mut bones, Precision::Double);
            PropertyFlags::PRECISION_HIGH
        };

        let derived = derived_frame_count(&bones, &notes);
        let fixed_frame_count = if anim.frame_count.fract() != 0.0 || !anim.frame_count.is_finite() {
            report.lose("a fractional frame count");
            None
        } else if anim.frame_count > derived as f64 && anim.frame_count <= f64::from(u32::MAX) {
            Some(anim.frame_count as u32)
        } else {
            if anim.frame_count < derived as f64 {
                report.lose("a frame count shorter than the keys (frameCount covers every key)");
            }
            None
        };

        Ok(Self {
            anim_type: anim.kind.into(),
            anim_flags: if anim.looping {
                AnimFlags::LOOPED
            } else {
                AnimFlags::empty()
            },
            data_presence_flags: presence_for(&bones, !notes.is_empty()),
            data_property_flags: precision,
            framerate,
            fixed_frame_count,
            bones,
            modifiers,
            notes,
            trailer: if shapes.is_empty() {
                Trailer::None
            } else {
                Trailer::SeBlend(SeBlend { shapes })
            },
            ..Self::default()
        })
    }
}

/// The presence flags a writer sets: a channel's flag when any bone has keys in it, LOC alone
/// when there are bones but no keys (so the bones are still written), NOTE with notes.
fn presence_for(bones: &[Bone], has_notes: bool) -> PresenceFlags {
    let loc = bones.iter().any(|b| !b.location.is_empty());
    let rot = bones.iter().any(|b| !b.rotation.is_empty());
    let scale = bones.iter().any(|b| !b.scale.is_empty());
    let has_bones = !bones.is_empty();
    let mut flags = PresenceFlags::empty();
    flags.set(PresenceFlags::LOC, loc || (has_bones && !rot && !scale));
    flags.set(PresenceFlags::ROT, rot);
    flags.set(PresenceFlags::SCALE, scale);
    flags.set(PresenceFlags::NOTE, has_notes);
    flags
}

/// Rounds every finite key value within `f32`'s range to the nearest `f32` (others are left
/// for the writer to refuse); whether any value changed. A channel whose every value is then
/// an `f32` holds them as `f32`s.
fn round_to_single(bones: &mut [Bone]) -> bool {
    let mut changed = false;
    for bone in bones {
        changed |= round_channel(&mut bone.location);
        changed |= round_channel(&mut bone.rotation);
        changed |= round_channel(&mut bone.scale);
    }
    changed
}

fn round_channel<V: KeyValue>(keys: &mut Keys<V>) -> bool {
    let Keys::Double(double) = keys else {
        return false;
    };
    let mut changed = false;
    for key in double.iter_mut() {
        let rounded = key.value.map_components(|c| {
            let r = if c.is_finite() && c.abs() <= f64::from(f32::MAX) {
                f64::from(c as f32)
            } else {
                c
            };
            changed |= r.to_bits() != c.to_bits();
            r
        });
        key.value = rounded;
    }
    if let Some(single) = keys.to_precision(Precision::Single) {
        *keys = single;
    }
    changed
}

/// Holds every channel's values at `precision`, where they survive it exactly.
fn hold_at(bones: &mut [Bone], precision: Precision) {
    for bone in bones {
        bone.hold_at(precision);
    }
}

/// Whether every key value of a scene animation survives single precision.
fn single_exact_tracks(anim: &Animation) -> bool {
    fn exact<V: KeyValue + SceneValue>(keys: &SceneKeys<V>) -> bool {
        keys.precision() == ScenePrecision::Single || keys.iter().all(|k| single_exact(&k.value))
    }
    anim.bones
        .iter()
        .all(|t| exact(&t.translation) && exact(&t.rotation) && exact(&t.scale))
}

/// Whether every key value of `bones` survives single precision (see [`single_exact`]).
fn single_exact_keys(bones: &[Bone]) -> bool {
    bones
        .iter()
        .all(|b| b.location.is_single_exact() && b.rotation.is_single_exact() && b.scale.is_single_exact())
}

/// Whether every component of a value survives a trip through `f32` bit for bit (so NaNs
/// compare by payload).
fn single_exact<V: KeyValue>(value: &V) -> bool {
    value.to_narrow_exact().is_some()
}

fn unencodable(msg: impl Into<String>) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(msg.into()))
}

/// A scene frame as a `frame_t` value: rounded (and reported) when fractional, refused when
/// negative, not finite, or too large for `frameCount` (the last frame plus 1, a `u32`).
fn file_frame(frame: f64, what: impl FnOnce() -> String, report: &mut ConversionReport) -> Result<u32> {
    let rounded = frame.round();
    if !(0.0..f64::from(u32::MAX)).contains(&rounded) {
        return Err(unencodable(format!(
            "{} is at frame {frame}, which no frame_t below a u32 frameCount holds",
            what()
        )));
    }
    if rounded != frame {
        report.lose("fractional frames (rounded to whole frames)");
    }
    Ok(rounded as u32)
}

/// A scene channel as the file's keys, at the precision the scene holds it (the writer's
/// precision is settled afterwards, over every channel).
fn file_keys<V: KeyValue + SceneValue<Single = V::Narrow>>(
    keys: &SceneKeys<V>,
    what: &str,
    report: &mut ConversionReport,
) -> Result<Keys<V>> {
    fn keys_of<T: Copy>(
        frames: impl Iterator<Item = f64>,
        values: &[T],
        what: &str,
        report: &mut ConversionReport,
    ) -> Result<Vec<Key<T>>> {
        let mut keys = Vec::with_capacity(values.len());
        for (i, (frame, &value)) in frames.zip(values).enumerate() {
            keys.push(Key::new(file_frame(frame, || format!("{what} {i}"), report)?, value));
        }
        Ok(keys)
    }
    Ok(match keys.slices().values {
        KeyColumn::Single(values) => Keys::Single(keys_of(keys.frames(), values, what, report)?),
        KeyColumn::Double(values) => Keys::Double(keys_of(keys.frames(), values, what, report)?),
    })
}

/// An SEBlend shape as a scene property track: its keys in their on-disk layout.
fn blend_track(shape: &BlendShape) -> PropertyTrack {
    let mut data = Vec::with_capacity(shape.keys.len() * 16);
    for k in &shape.keys {
        data.extend_from_slice(&k.frame.to_le_bytes());
        for v in k.value {
            data.extend_from_slice(&v.to_le_bytes());
        }
    }
    PropertyTrack {
        node: shape.name.clone(),
        property: SEBLEND_PROPERTY.to_string(),
        format: FORMAT.to_string(),
        data,
    }
}

/// The SEBlend shape a property track carries, if it is one.
fn blend_shape(track: &PropertyTrack) -> Option<BlendShape> {
    if track.format != FORMAT || track.property != SEBLEND_PROPERTY || track.data.len() % 16 != 0 {
        return None;
    }
    let keys = track
        .data
        .chunks_exact(16)
        .map(|c| {
            let c = <[u8; 16]>::try_from(c).ok()?;
            let word = |at: usize| [c[at], c[at + 1], c[at + 2], c[at + 3]];
            Some(BlendKey {
                frame: u32::from_le_bytes(word(0)),
                value: [4, 8, 12].map(|at| f32::from_le_bytes(word(at))),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(BlendShape {
        name: track.node.clone(),
        keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use animbin_core::{Quat, Vec3};

    #[test]
    fn kinds_and_types_map_one_to_one() {
        for t in [
            AnimType::Absolute,
            AnimType::Additive,
            AnimType::Relative,
            AnimType::Delta,
        ] {
            assert_eq!(AnimType::from(AnimKind::from(t)), t);
        }
    }

    #[test]
    fn precision_goes_high_only_for_values_beyond_f32() {
        assert!(single_exact(&Vec3::new(1.5, -2.0, 0.25)));
        assert!(!single_exact(&Vec3::new(0.1, 0.0, 0.0)));
        assert!(single_exact(&Quat::new(f64::NAN, 0.0, 0.0, 1.0)));
    }
}
