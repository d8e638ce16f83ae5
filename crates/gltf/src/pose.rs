//! How SEAnim's animation kinds become plain local transforms, and back.
//!
//! glTF channels hold the local translation, rotation and scale of a node, so a kind other
//! than absolute is applied against the bone's bind pose (its local rest transform, which is
//! also the glTF node's rest TRS). The rules follow SETools, the Maya plugin by the format's
//! co-author (the one reference implementation that handles every kind):
//!
//! | kind     | translation            | rotation                      | scale |
//! |----------|------------------------|-------------------------------|-------|
//! | absolute | key                    | key                           | key   |
//! | relative | rest + key             | key                           | key   |
//! | delta    | rest + key             | key                           | key   |
//! | additive | rest + key             | rest * key (key applied first)| key   |
//!
//! A bone's kind is the override of the nearest bone among itself and its ancestors whose
//! track carries one (SEAnim modifier bones apply "to the bone and its children,
//! recursively"), else the animation's kind. Additive animations are meant to be layered
//! over whatever plays; glTF has no layering, so they play over the bind pose.

use std::collections::HashMap;

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::{AnimKind, Animation, Skeleton};

/// The kind that applies to each track of `anim`, in track order.
pub fn effective_kinds(anim: &Animation, skeleton: &Skeleton) -> Vec<AnimKind> {
    let overrides: HashMap<&str, AnimKind> = anim
        .bones
        .iter()
        .filter_map(|t| t.kind_override.map(|k| (t.bone.as_str(), k)))
        .collect();
    anim.bones
        .iter()
        .map(|track| {
            if let Some(k) = track.kind_override {
                return k;
            }
            let mut at = skeleton.find(&track.bone);
            // At most one step per bone: a parent cycle cannot loop forever.
            for _ in 0..skeleton.bones.len() {
                let Some(i) = at else { break };
                if let Some(&k) = overrides.get(skeleton.bones[i].name.as_str()) {
                    return k;
                }
                at = skeleton.bones[i].parent.filter(|&p| p < skeleton.bones.len() && p != i);
            }
            anim.kind
        })
        .collect()
}

/// The local translation that plays for a key of `kind` over the rest pose `rest`.
pub fn apply_translation(kind: AnimKind, rest: &Transform, key: Vec3<f64>) -> Vec3<f64> {
    match kind {
        AnimKind::Absolute => key,
        AnimKind::Relative | AnimKind::Delta | AnimKind::Additive => rest.translation + key,
    }
}

/// The inverse of [`apply_translation`].
pub fn remove_translation(kind: AnimKind, rest: &Transform, value: Vec3<f64>) -> Vec3<f64> {
    match kind {
        AnimKind::Absolute => value,
        AnimKind::Relative | AnimKind::Delta | AnimKind::Additive => value - rest.translation,
    }
}

/// The local rotation that plays for a key of `kind` over the rest pose `rest`.
pub fn apply_rotation(kind: AnimKind, rest: &Transform, key: Quat<f64>) -> Quat<f64> {
    match kind {
        AnimKind::Additive => (rest.rotation * key).normalized(),
        AnimKind::Absolute | AnimKind::Relative | AnimKind::Delta => key,
    }
}

/// The inverse of [`apply_rotation`].
pub fn remove_rotation(kind: AnimKind, rest: &Transform, value: Quat<f64>) -> Quat<f64> {
    match kind {
        AnimKind::Additive => (rest.rotation.conjugate() * value).normalized(),
        AnimKind::Absolute | AnimKind::Relative | AnimKind::Delta => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animbin_core::scene::{Bone, BoneTrack};

    fn bone(name: &str, parent: Option<usize>) -> Bone {
        Bone {
            name: name.into(),
            parent,
            local: Transform::IDENTITY,
            global: Transform::IDENTITY,
            cosmetic: false,
        }
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
}
