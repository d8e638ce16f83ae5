//! How an animation's kind ([`AnimKind`]) plays over a bone's bind pose, and back.
//!
//! A format that stores plain local transforms (glTF channels, a DCC tool's pose bones)
//! needs the kind applied against the bone's rest pose (its local bind transform); a format
//! that stores the kind (SEAnim) takes it off again. The rules:
//!
//! | kind     | translation                         | rotation                       | scale |
//! |----------|-------------------------------------|--------------------------------|-------|
//! | absolute | key                                 | key                            | key   |
//! | relative | rest + key                          | key                            | key   |
//! | delta    | rest + key along the rest axes      | key                            | key   |
//! | additive | rest + key                          | rest * key (key applied first) | key   |
//!
//! Relative and additive follow SETools, the Maya plugin by the SEAnim format's co-author.
//! Delta follows the format author's Blender add-on (io_anim_seanim), which sets a delta
//! key as the pose bone's offset from its rest pose: the offset is measured along the
//! bone's rest axes, so the parent-space translation is `rest.translation +
//! rest.rotation * key`. With an identity rest rotation (the usual root bone) delta and
//! relative agree.
//!
//! A bone's kind is the override of the nearest bone among itself and its ancestors whose
//! track carries one (SEAnim modifier bones apply "to the bone and its children,
//! recursively"), else the animation's kind ([`effective_kinds`]). Additive animations are
//! meant to be layered over whatever plays; a format without layering plays them over the
//! bind pose. Kinds may differ per channel ([`channel_kinds`]): a track's own
//! [`BoneTrack::channel_kinds`], overridden for the channels an ancestor's
//! [`BoneTrack::channel_overrides`] (or `kind_override`) names.
//!
//! # What a key means, per format, and how it reaches glTF and Blender
//!
//! `rest` is the bone's local bind transform in the scene (`lp`/`lr` for Cast), `s` a Cast
//! bone's scale. Each row is what the file's key becomes as the bone's parent-space
//! transform (the scene's kinds are the rules in the table above).
//!
//! | format | kind (scene kind per channel) | translation | rotation | scale |
//! |---|---|---|---|---|
//! | SEAnim | absolute (Absolute) | key | key | key |
//! | SEAnim | relative (Relative) | rest + key | key | key |
//! | SEAnim | additive (Additive) | rest + key | rest * key | key |
//! | SEAnim | delta (Delta) | rest + rest rotation * key | key | key |
//! | Cast | absolute, per curve `m` (Absolute) | key; a missing axis: rest | key | key / `s` (the bone's rest scale) |
//! | Cast | relative (Relative; rotation: Additive) | rest + key | rest * key | key (a factor of `s`) |
//! | Cast | additive (Additive) | rest + key | rest * key | key (a factor of `s`) |
//! | Cast | delta | - (no such mode) | - | - |
//! | glTF | absolute only (Absolute; animbin's extras restore the source's kind) | key | key | key |
//! | AnimX, DMF, x8an | absolute only (Absolute) | key | key | key |
//! | SEModel | no animations | - | - | - |
//!
//! Scale keys mean the same in every kind (the key is the scale), except that absolute scale
//! keys are measured against the bone's rest scale ([`Bone::rest_scale`], Cast's `s`; 1 in
//! every other format): `key / s` plays ([`apply_scale`]). The rest scale is not part of the
//! rest pose (a parent's `s` does not stretch its children's offsets); the scene keeps it
//! and the keys as the file has them, so Cast -> scene -> Cast keeps both; a pose divides
//! (glTF export, the Blender importer, [`compensated_under_scaled_parents`]), and a target
//! without the concept gets the division folded into its keys ([`fold_rest_scales`]).
//! Cast's relative and additive rotations are `rest * key` (the facts sheet: "added to the
//! rest position value"), which is the scene's additive rotation rule, not SEAnim's relative
//! one; a Cast relative curve therefore gives the scene kind Relative for its translation
//! and scale and Additive for its rotation. Cast keeps a mode per curve, down to the axis: an
//! axis whose mode differs from its channel's is rewritten into the channel's mode (exact:
//! translation `rest + key`, scale a factor of `s`). A CurveModeOverride covers its node and
//! all of its children for the channels its `ot`, `or`, `os` select.
//!
//! Writing: a target that stores one kind per animation or bone (SEAnim) or none (AnimX, DMF,
//! x8an) gets the per-channel kinds rewritten as keys of the animation's kind
//! ([`flatten_channel_kinds`]); Cast writes each channel's mode on its curves and the
//! overrides as CurveModeOverride nodes.
//!
//! **glTF** (export): every channel holds the local transform that plays, `apply_*` of the
//! key's kind over `rest` (scale: [`apply_scale`]), in the scene's units and axes; a bone that does
//! not inherit its parent's scale ([`Bone::scale_compensate`], Cast's `ssc`) under a parent
//! whose model-space scale is not 1 hangs from a compensation node that holds its
//! translation and `1 / parent scale` (keyed at every scale key of the parents and every
//! whole frame between: exact there; `1 / s` between frames is not linear, which no glTF
//! interpolation gives; nothing extra when every such parent's scale is 1). Where a
//! non-uniform scale above a turned parent shears what the parent passes down, two nodes
//! (a turn and scale, then a turn: the singular value decomposition of what undoes the
//! parent's scale and shear, keyed at every key of the bones above and every whole frame
//! between) give the bone the parent's axes made unit and square as Blender's
//! inherit-scale `NONE` makes them; the scene's placement (a Cast Model's `p`, `r`, `s`) is
//! one root node above the model.
//!
//! **Blender** (the extension's import; its export inverts it): a bone's rest matrix is its
//! model-space bind pose without scale; a pose bone's channels are `rest^-1 * played`:
//! location `rr^-1 * (played - tr)`, rotation `rr^-1 * played`, scale as it plays (an
//! absolute key divided by the bone's rest scale, which the armature keeps per bone as the
//! custom property `animbin_rest_scale`, so an animation imported later divides by it too,
//! and the exporter writes it back as `s`); a
//! compensating bone is inherit-scale `NONE` (which still stretches its offset by the
//! parent's scale, as [`compose`] does), any other `FULL`; the placement is the armature
//! object's transform (inside the up-axis turn). Each channel is read with its own kind
//! (`animbin.pose.channel_kinds`).

use std::collections::{HashMap, HashSet};

use crate::math::{Quat, Transform, Vec3};
#[cfg(doc)]
use crate::scene::Bone;
use crate::scene::{AnimKind, Animation, BoneTrack, ChannelKinds, ConversionReport, Scene, Skeleton};

/// How a bone's transform composes with its parent's: in [`crate::math`], which the scene's
/// skeleton uses too, and here where the rules of poses are.
pub use crate::math::{compose, decompose};

/// The bones whose parent's model-space scale is not 1 at rest or at some scale key (of a
/// track naming the parent or an ancestor it inherits scale from, in any animation) and that
/// do not inherit it ([`Bone::scale_compensate`]): the only bones for which the flag changes
/// a pose, so the only ones a target without the flag must compensate or report. Scale keys
/// are read as they play ([`apply_scale`]: an absolute key over the bone's rest scale).
pub fn compensated_under_scaled_parents(scene: &Scene) -> Vec<usize> {
    let bones = &scene.skeleton.bones;
    let bone_of = scene.skeleton.indices_by_name();
    // The bones named by a scale key that plays other than 1, gathered once (not searched
    // per bone).
    let mut scale_keyed: HashSet<&str> = HashSet::new();
    for anim in &scene.animations {
        let kinds = channel_kinds(anim, &scene.skeleton);
        for (t, kinds) in anim.bones.iter().zip(kinds) {
            let rest_scale = bone_of.get(t.bone.as_str()).map_or(Vec3::ONE, |&b| bones[b].rest_scale);
            if t.scale
                .iter()
                .any(|k| apply_scale(kinds.scale, rest_scale, k.value) != Vec3::ONE)
            {
                scale_keyed.insert(t.bone.as_str());
            }
        }
    }
    let mut scaled: Vec<bool> = bones
        .iter()
        .map(|b| b.local.scale != Vec3::ONE || scale_keyed.contains(b.name.as_str()))
        .collect();
    // What counts is the parent's scale in model space: a bone that inherits its parent's
    // scale carries it on to its own children.
    for i in scene.skeleton.resolve_order() {
        if let Some(p) = bones[i].parent.filter(|&p| p < bones.len() && p != i) {
            scaled[i] |= !bones[i].scale_compensate && scaled[p];
        }
    }
    (0..bones.len())
        .filter(|&i| {
            bones[i].scale_compensate && bones[i].parent.is_some_and(|p| p < bones.len() && p != i && scaled[p])
        })
        .collect()
}

/// Records the scene's placement as lost, for a target that has no model transform.
pub fn lose_placement(scene: &Scene, report: &mut ConversionReport) {
    if scene.placement != Transform::IDENTITY {
        report.lose("the model placement (the target has no model transform)");
    }
}

/// Records as lost the scale compensation of bones under scaled parents, for a target whose
/// bones always inherit their parents' scale.
pub fn lose_compensation(scene: &Scene, report: &mut ConversionReport) {
    let bones = compensated_under_scaled_parents(scene);
    if !bones.is_empty() {
        report.lose(format!(
            "segment scale compensation of {} bones under scaled parents (the target's bones inherit their parents' scale)",
            bones.len()
        ));
    }
}

/// Rewrites the animations of `scene` that have per-channel kinds or overrides
/// ([`BoneTrack::channel_kinds`], [`BoneTrack::channel_overrides`]) as keys of the
/// animation's own kind ([`rebase`]), for a target that stores one kind per animation or per
/// bone (every format but Cast and glTF); what plays over the bind pose stays the same.
pub fn flatten_channel_kinds(scene: &mut Scene) {
    for anim in &mut scene.animations {
        if anim
            .bones
            .iter()
            .any(|t| !t.channel_kinds.is_empty() || !t.channel_overrides.is_empty())
        {
            let kind = anim.kind;
            rebase(anim, &scene.skeleton, kind);
        }
    }
}

/// The kinds that apply to one track's translation, rotation and scale keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TrackKinds {
    /// The kind of the translation keys.
    pub translation: AnimKind,
    /// The kind of the rotation keys.
    pub rotation: AnimKind,
    /// The kind of the scale keys.
    pub scale: AnimKind,
}

impl TrackKinds {
    /// The same kind on every channel.
    pub const fn all(kind: AnimKind) -> Self {
        Self {
            translation: kind,
            rotation: kind,
            scale: kind,
        }
    }
}

/// The override a track sets for one channel of its bone and the bone's children.
fn channel_override(track: &BoneTrack, channel: fn(&ChannelKinds) -> Option<AnimKind>) -> Option<AnimKind> {
    channel(&track.channel_overrides).or(track.kind_override)
}

/// The kinds that apply to each track of `anim`, channel by channel, in track order.
///
/// For each channel: the override of the nearest bone among the track's bone and its
/// ancestors whose track sets one for that channel ([`BoneTrack::channel_overrides`], else
/// [`BoneTrack::kind_override`]); else the track's own kind for the channel
/// ([`BoneTrack::channel_kinds`]); else `anim.kind`. A track whose bone is not in the
/// skeleton sees only its own overrides. Parent cycles end the walk (one step per bone).
/// The time is linear in the bones and tracks, however deep the hierarchy.
pub fn channel_kinds(anim: &Animation, skeleton: &Skeleton) -> Vec<TrackKinds> {
    let by_name: HashMap<&str, &BoneTrack> = anim.bones.iter().rev().map(|t| (t.bone.as_str(), t)).collect();
    let bones = &skeleton.bones;
    let n = bones.len();
    let bone_of = skeleton.indices_by_name();
    let parents = skeleton.parents();
    let any_override = anim
        .bones
        .iter()
        .any(|t| t.kind_override.is_some() || !t.channel_overrides.is_empty());
    // Per bone, the override it inherits for a channel: that of the nearest of its ancestors
    // (from its parent up) whose track sets one; with no override anywhere, none.
    let inherited = |channel: fn(&ChannelKinds) -> Option<AnimKind>| -> Vec<Option<AnimKind>> {
        if !any_override {
            return vec![None; n];
        }
        let own = |i: usize| {
            by_name
                .get(bones[i].name.as_str())
                .and_then(|t| channel_override(t, channel))
        };
        let nearest = crate::hierarchy::nearest(&parents, own);
        (0..n)
            .map(|b| match bones[b].parent {
                // A bone that is its own parent is the one bone the walk up from it meets.
                Some(p) if p == b => own(b),
                Some(p) if p < n => nearest[p],
                _ => None,
            })
            .collect()
    };
    let inherited = [
        inherited(|c| c.translation),
        inherited(|c| c.rotation),
        inherited(|c| c.scale),
    ];
    let resolve =
        |track: &BoneTrack, channel: fn(&ChannelKinds) -> Option<AnimKind>, inherited: &[Option<AnimKind>]| {
            channel_override(track, channel)
                .or_else(|| bone_of.get(track.bone.as_str()).and_then(|&b| inherited[b]))
                .or(channel(&track.channel_kinds))
                .unwrap_or(anim.kind)
        };
    anim.bones
        .iter()
        .map(|track| TrackKinds {
            translation: resolve(track, |c| c.translation, &inherited[0]),
            rotation: resolve(track, |c| c.rotation, &inherited[1]),
            scale: resolve(track, |c| c.scale, &inherited[2]),
        })
        .collect()
}

/// The kind that applies to each track of `anim`, in track order.
///
/// A track's own override wins; else its bone (the first of that name in `skeleton`)
/// takes the kind [`bone_kinds`] gives it, with each bone's override the one of the track
/// naming it; a track whose bone is not in the skeleton plays `anim.kind`.
pub fn effective_kinds(anim: &Animation, skeleton: &Skeleton) -> Vec<AnimKind> {
    let by_name: HashMap<&str, AnimKind> = anim
        .bones
        .iter()
        .filter_map(|t| t.kind_override.map(|k| (t.bone.as_str(), k)))
        .collect();
    let parents: Vec<Option<usize>> = skeleton.bones.iter().map(|b| b.parent).collect();
    let overrides: Vec<Option<AnimKind>> = skeleton
        .bones
        .iter()
        .map(|b| by_name.get(b.name.as_str()).copied())
        .collect();
    let kinds = bone_kinds(&parents, &overrides, anim.kind);
    let bone_of = skeleton.indices_by_name();
    anim.bones
        .iter()
        .map(|track| {
            track
                .kind_override
                .or_else(|| bone_of.get(track.bone.as_str()).map(|&i| kinds[i]))
                .unwrap_or(anim.kind)
        })
        .collect()
}

/// The kind that applies to each bone of a hierarchy given as plain slices: the override
/// of the nearest bone among itself and its ancestors that has one, else `default`.
///
/// `parents[i]` is bone `i`'s parent (`None` for a root) and `overrides[i]` its override;
/// both slices are indexed by bone, and a bone past the end of `overrides` has none.
/// Parents past the end of `parents` or at the bone itself end the walk, and a parent
/// cycle cannot loop forever; the time is linear in the bones however deep the hierarchy
/// ([`crate::hierarchy::nearest`]). [`effective_kinds`] is this function over a skeleton and
/// an animation's tracks.
pub fn bone_kinds(parents: &[Option<usize>], overrides: &[Option<AnimKind>], default: AnimKind) -> Vec<AnimKind> {
    crate::hierarchy::nearest(parents, |i| overrides.get(i).copied().flatten())
        .into_iter()
        .map(|kind| kind.unwrap_or(default))
        .collect()
}

/// The local translation that plays for a key of `kind` over the rest pose `rest`.
pub fn apply_translation(kind: AnimKind, rest: &Transform, key: Vec3<f64>) -> Vec3<f64> {
    match kind {
        AnimKind::Absolute => key,
        AnimKind::Relative | AnimKind::Additive => rest.translation + key,
        AnimKind::Delta => rest.translation + rest.rotation.normalized().rotate(key),
    }
}

/// The inverse of [`apply_translation`].
pub fn remove_translation(kind: AnimKind, rest: &Transform, value: Vec3<f64>) -> Vec3<f64> {
    match kind {
        AnimKind::Absolute => value,
        AnimKind::Relative | AnimKind::Additive => value - rest.translation,
        AnimKind::Delta => rest.rotation.normalized().conjugate().rotate(value - rest.translation),
    }
}

/// The local rotation that plays for a key of `kind` over the rest pose `rest`.
pub fn apply_rotation(kind: AnimKind, rest: &Transform, key: Quat<f64>) -> Quat<f64> {
    match kind {
        AnimKind::Additive => (rest.rotation * key).normalized(),
        AnimKind::Absolute | AnimKind::Relative | AnimKind::Delta => key,
    }
}

/// The local scale that plays for a key of `kind` of a bone whose rest scale is
/// `rest_scale` ([`Bone::rest_scale`]): an absolute key is measured against the rest scale
/// (`key / rest_scale` per axis, so a key equal to it plays 1); any other kind's key is the
/// scale itself. An axis whose rest scale is 0 takes the key as it is.
pub fn apply_scale(kind: AnimKind, rest_scale: Vec3<f64>, key: Vec3<f64>) -> Vec3<f64> {
    let divide = |k: f64, s: f64| if s == 0.0 { k } else { k / s };
    match kind {
        AnimKind::Absolute if rest_scale != Vec3::ONE => Vec3::new(
            divide(key.x, rest_scale.x),
            divide(key.y, rest_scale.y),
            divide(key.z, rest_scale.z),
        ),
        _ => key,
    }
}

/// The inverse of [`apply_scale`].
pub fn remove_scale(kind: AnimKind, rest_scale: Vec3<f64>, value: Vec3<f64>) -> Vec3<f64> {
    let multiply = |v: f64, s: f64| if s == 0.0 { v } else { v * s };
    match kind {
        AnimKind::Absolute if rest_scale != Vec3::ONE => Vec3::new(
            multiply(value.x, rest_scale.x),
            multiply(value.y, rest_scale.y),
            multiply(value.z, rest_scale.z),
        ),
        _ => value,
    }
}

/// Folds every bone's rest scale ([`Bone::rest_scale`]) into the absolute scale keys that
/// are measured against it (each becomes what plays, [`apply_scale`]) and sets the rest
/// scales to 1, for a target without the concept (every format but Cast); what plays stays
/// the same. Returns whether every folded key comes back exactly when multiplied by its
/// rest scale again (`true` when there was nothing to fold).
pub fn fold_rest_scales(scene: &mut Scene) -> bool {
    let skeleton = &scene.skeleton;
    if skeleton.bones.iter().all(|b| b.rest_scale == Vec3::ONE) {
        return true;
    }
    let bone_of = skeleton.indices_by_name();
    let mut exact = true;
    for anim in &mut scene.animations {
        let kinds = channel_kinds(anim, skeleton);
        for (track, kinds) in anim.bones.iter_mut().zip(kinds) {
            let Some(&b) = bone_of.get(track.bone.as_str()) else {
                continue;
            };
            let rest_scale = skeleton.bones[b].rest_scale;
            track.scale.map_values(|value| {
                let played = apply_scale(kinds.scale, rest_scale, value);
                exact &= remove_scale(kinds.scale, rest_scale, played) == value;
                played
            });
        }
    }
    for bone in &mut scene.skeleton.bones {
        bone.rest_scale = Vec3::ONE;
    }
    exact
}

/// The inverse of [`apply_rotation`].
pub fn remove_rotation(kind: AnimKind, rest: &Transform, value: Quat<f64>) -> Quat<f64> {
    match kind {
        AnimKind::Additive => (rest.rotation.conjugate() * value).normalized(),
        AnimKind::Absolute | AnimKind::Relative | AnimKind::Delta => value,
    }
}

/// Rewrites every track of `anim` as keys of `kind`, so that what plays over `skeleton`'s
/// bind pose stays the same: each channel's keys are applied with its kind (see
/// [`channel_kinds`]) and taken off with `kind`. Kind overrides and per-channel kinds are
/// cleared and the animation's kind becomes `kind`. Tracks whose bone is not in the skeleton
/// play over an identity rest pose. Returns how many tracks carried an override.
pub fn rebase(anim: &mut Animation, skeleton: &Skeleton, kind: AnimKind) -> usize {
    let kinds = channel_kinds(anim, skeleton);
    let bone_of = skeleton.indices_by_name();
    let mut overrides = 0;
    for (track, from) in anim.bones.iter_mut().zip(kinds) {
        let had_override = track.kind_override.take().is_some() || !track.channel_overrides.is_empty();
        overrides += usize::from(had_override);
        track.channel_overrides = ChannelKinds::NONE;
        track.channel_kinds = ChannelKinds::NONE;
        let rest = bone_of
            .get(track.bone.as_str())
            .map_or(Transform::IDENTITY, |&b| skeleton.bones[b].local);
        let rest_scale = bone_of
            .get(track.bone.as_str())
            .map_or(Vec3::ONE, |&b| skeleton.bones[b].rest_scale);
        if from.scale != kind {
            track
                .scale
                .map_values(|v| remove_scale(kind, rest_scale, apply_scale(from.scale, rest_scale, v)));
        }
        if from.translation != kind {
            track
                .translation
                .map_values(|v| remove_translation(kind, &rest, apply_translation(from.translation, &rest, v)));
        }
        if from.rotation != kind {
            track
                .rotation
                .map_values(|v| remove_rotation(kind, &rest, apply_rotation(from.rotation, &rest, v)));
        }
    }
    anim.kind = kind;
    overrides
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Bone, Key};

    fn bone(name: &str, parent: Option<usize>) -> Bone {
        Bone {
            kind: Default::default(),
            name: name.into(),
            parent,
            local: Transform::IDENTITY,
            global: Transform::IDENTITY,
            cosmetic: false,
            scale_compensate: false,
            rest_scale: Vec3::ONE,
        }
    }

    fn close(a: Vec3<f64>, b: Vec3<f64>) -> bool {
        (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12 && (a.z - b.z).abs() < 1e-12
    }

    #[test]
    fn overrides_reach_children_and_the_nearest_wins() {
        let skeleton = Skeleton {
            bones: vec![
                bone("root", None),
                bone("gun", Some(0)),
                bone("mag", Some(1)),
                bone("arm", Some(0)),
            ],
            ..Default::default()
        };
        let track = |name: &str, k: Option<AnimKind>| BoneTrack {
            bone: name.into(),
            kind_override: k,
            ..BoneTrack::default()
        };
        let anim = Animation {
            kind: AnimKind::Absolute,
            bones: vec![
                track("root", None),
                track("gun", Some(AnimKind::Relative)),
                track("mag", None),
                track("arm", None),
                track("elsewhere", None),
            ],
            ..Animation::default()
        };
        assert_eq!(
            effective_kinds(&anim, &skeleton),
            vec![
                AnimKind::Absolute,
                AnimKind::Relative,
                AnimKind::Relative,
                AnimKind::Absolute,
                AnimKind::Absolute
            ]
        );
    }

    #[test]
    fn bone_kinds_walk_plain_parents_and_survive_bad_ones() {
        use AnimKind::{Absolute, Additive, Delta, Relative};
        // 0 <- 1 <- 2; 3 and 4 a cycle; 5 its own parent; 6 a parent past the end.
        let parents = [None, Some(0), Some(1), Some(4), Some(3), Some(5), Some(99)];
        let overrides = [None, Some(Delta), None, None, None, None];
        assert_eq!(
            bone_kinds(&parents, &overrides, Absolute),
            vec![Absolute, Delta, Delta, Absolute, Absolute, Absolute, Absolute]
        );
        let overrides = [Some(Relative), None, Some(Additive), Some(Additive)];
        assert_eq!(
            bone_kinds(&parents, &overrides, Absolute),
            vec![Relative, Relative, Additive, Additive, Additive, Absolute, Absolute]
        );
        assert!(bone_kinds(&[], &[], Absolute).is_empty());
    }

    #[test]
    fn additive_rotation_is_undone_exactly_enough() {
        let rest = Transform {
            translation: Vec3::new(1.0, 2.0, 3.0),
            rotation: Quat::new(0.1, 0.7, -0.2, 0.6).normalized(),
            scale: Vec3::ONE,
        };
        let key = Quat::new(-0.3, 0.1, 0.4, 0.8).normalized();
        let back = remove_rotation(
            AnimKind::Additive,
            &rest,
            apply_rotation(AnimKind::Additive, &rest, key),
        );
        for (a, b) in [(back.x, key.x), (back.y, key.y), (back.z, key.z), (back.w, key.w)] {
            assert!((a - b).abs() < 1e-12);
        }
        let t = Vec3::new(0.5, -4.0, 2.0);
        assert_eq!(
            apply_translation(AnimKind::Relative, &rest, t),
            Vec3::new(1.5, -2.0, 5.0)
        );
        assert_eq!(apply_translation(AnimKind::Absolute, &rest, t), t);
        assert_eq!(apply_rotation(AnimKind::Delta, &rest, key), key);
    }

    #[test]
    fn delta_offsets_run_along_the_rest_axes() {
        // A bone turned 90 degrees about Z: its rest X axis is the parent's Y axis.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let rest = Transform {
            translation: Vec3::new(10.0, 0.0, 0.0),
            rotation: Quat::new(0.0, 0.0, h, h),
            scale: Vec3::ONE,
        };
        let key = Vec3::new(2.0, 0.0, 0.0);
        let played = apply_translation(AnimKind::Delta, &rest, key);
        assert!(close(played, Vec3::new(10.0, 2.0, 0.0)), "{played:?}");
        assert!(close(remove_translation(AnimKind::Delta, &rest, played), key));
        // Relative offsets stay in the parent's axes.
        assert_eq!(
            apply_translation(AnimKind::Relative, &rest, key),
            Vec3::new(12.0, 0.0, 0.0)
        );
    }

    #[test]
    fn rebase_keeps_what_plays() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let mut skeleton = Skeleton {
            bones: vec![bone("root", None), bone("arm", Some(0))],
            ..Default::default()
        };
        skeleton.bones[1].local = Transform {
            translation: Vec3::new(0.0, 5.0, 0.0),
            rotation: Quat::new(h, 0.0, 0.0, h),
            scale: Vec3::ONE,
        };
        let mut anim = Animation {
            bones: vec![BoneTrack {
                bone: "arm".into(),
                kind_override: Some(AnimKind::Relative),
                translation: vec![Key::new(0.0, Vec3::new(1.0, 2.0, 3.0))].into(),
                rotation: vec![Key::new(0.0, Quat::new(0.0, h, 0.0, h))].into(),
                ..BoneTrack::default()
            }],
            ..Animation::default()
        };
        let rest = skeleton.bones[1].local;
        let before = apply_translation(
            AnimKind::Relative,
            &rest,
            anim.bones[0].translation.get(0).unwrap().value,
        );
        assert_eq!(rebase(&mut anim, &skeleton, AnimKind::Delta), 1);
        assert_eq!(anim.kind, AnimKind::Delta);
        assert_eq!(anim.bones[0].kind_override, None);
        let after = apply_translation(AnimKind::Delta, &rest, anim.bones[0].translation.get(0).unwrap().value);
        assert!(close(before, after), "{before:?} {after:?}");
        assert!(!close(
            anim.bones[0].translation.get(0).unwrap().value,
            Vec3::new(1.0, 2.0, 3.0)
        ));
    }
}
