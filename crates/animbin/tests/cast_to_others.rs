//! Cast into AnimX and DMF: for every Cast corpus file and the testdata sample, the written
//! file holds the Cast file's bones, keys, vertices and faces, and every kind of thing that
//! the target has no place for is a report line, not silence.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use animbin::cast::{CastFile, Node, NodeKind, Quat, Value, Vec3};
use animbin::dmf::PrsFlags;
use animbin::{ConvertOptions, Document, Error, Target};
use animbin_testing::{corpus_files, shared_corpus};

fn cast_files() -> Vec<PathBuf> {
    let mut files =
        shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast").map_or_else(Vec::new, |d| corpus_files(&d, "cast"));
    files.push(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample.cast"));
    files
}

fn name(path: &std::path::Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn nodes(file: &CastFile, kind: NodeKind) -> Vec<&Node> {
    let mut out = Vec::new();
    file.walk(|n, _| {
        if n.is(kind) {
            out.push(n);
        }
    });
    out
}

/// Each animated bone's key count per channel (rotation, translation, scale) in one Cast
/// animation: a channel's keys are the union of its axis curves' frames.
fn cast_keys(animation: &Node) -> BTreeMap<String, [usize; 3]> {
    let mut frames: BTreeMap<String, [BTreeSet<u32>; 3]> = BTreeMap::new();
    for curve in animation.children.iter().filter_map(Node::as_curve) {
        let channel = match curve.key_property() {
            Some("rq") => 0,
            Some("tx" | "ty" | "tz") => 1,
            Some("sx" | "sy" | "sz") => 2,
            _ => continue,
        };
        let bone = curve.node_name().unwrap().to_string();
        frames.entry(bone).or_default()[channel].extend(curve.key_frames().unwrap().iter());
    }
    frames
        .into_iter()
        .map(|(bone, f)| (bone, [f[0].len(), f[1].len(), f[2].len()]))
        .collect()
}

/// Whether a bone that does not inherit its parent's scale (`ssc` absent or on) has a parent
/// with scale curves that move it off its rest scale (absolute keys other than its `s`,
/// relative or additive keys other than 1).
fn scaled_parent_of_compensating_bone(file: &CastFile) -> bool {
    let mut scaled: BTreeSet<String> = BTreeSet::new();
    let rest: BTreeMap<String, Vec3> = nodes(file, NodeKind::Bone)
        .iter()
        .filter_map(|b| b.as_bone())
        .map(|b| {
            (
                b.name().unwrap_or_default().to_string(),
                b.scale().unwrap_or(Vec3::new(1.0, 1.0, 1.0)),
            )
        })
        .collect();
    for curve in nodes(file, NodeKind::Curve).iter().filter_map(|c| c.as_curve()) {
        let (Some(bone), Some(kp @ ("sx" | "sy" | "sz")), Some(Value::Float(values))) =
            (curve.node_name(), curve.key_property(), curve.key_values())
        else {
            continue;
        };
        let s = rest.get(bone).copied().unwrap_or(Vec3::new(1.0, 1.0, 1.0));
        let at_rest = match (curve.mode(), kp) {
            (Some("absolute") | None, "sx") => s.x,
            (Some("absolute") | None, "sy") => s.y,
            (Some("absolute") | None, _) => s.z,
            _ => 1.0,
        };
        if values.iter().any(|&v| v != at_rest) {
            scaled.insert(bone.to_string());
        }
    }
    nodes(file, NodeKind::Skeleton)
        .iter()
        .filter_map(|s| s.as_skeleton())
        .any(|skeleton| {
            let bones: Vec<_> = skeleton.bones().collect();
            bones.iter().any(|b| {
                b.segment_scale_compensate() != Some(false)
                    && b.parent()
                        .and_then(|p| usize::try_from(p).ok())
                        .and_then(|p| bones.get(p))
                        .is_some_and(|p| scaled.contains(p.name().unwrap_or_default()))
            })
        })
}

/// What the Cast file holds that the target has no place for, each with a word its report
/// line must contain.
fn expected_losses(file: &CastFile, target: Target) -> Vec<(&'static str, &'static str)> {
    let animations = nodes(file, NodeKind::Animation);
    let curves = nodes(file, NodeKind::Curve);
    let has = |kind| !nodes(file, kind).is_empty();
    let curve_kp = |kp: &[&str]| {
        curves
            .iter()
            .any(|c| c.str_value("kp").is_some_and(|k| kp.contains(&k)))
    };
    let mut losses = vec![
        (has(NodeKind::NotificationTrack), "notes", "notes"),
        (
            animations.iter().any(|a| a.bool_value("lo") == Some(true)),
            "looping",
            "looping",
        ),
        (
            curve_kp(&["bs"]),
            "blend-shape weight curves",
            "morph target weight tracks",
        ),
        (curve_kp(&["vb"]), "visibility curves", "property tracks"),
        (has(NodeKind::Hair), "hair", "hair"),
        (has(NodeKind::Instance), "instances", "instances of other scene files"),
        (has(NodeKind::BlendShape), "blend shapes", "blend shapes"),
        (has(NodeKind::IkHandle), "IK handles", "IK handles"),
        (has(NodeKind::Constraint), "constraints", "constraints"),
        (
            // The first transform curve's mode is the animation's kind; curves and overrides
            // of other modes are rewritten as keys of that kind, which play the same.
            animations.iter().any(|a| {
                a.children
                    .iter()
                    .filter_map(Node::as_curve)
                    .find(|c| matches!(c.key_property(), Some("rq" | "tx" | "ty" | "tz" | "sx" | "sy" | "sz")))
                    .is_some_and(|c| c.mode() != Some("absolute"))
            }),
            "an animation kind other than absolute",
            "kind",
        ),
        (
            // glTF keeps the name as its scene's; animation-only targets drop the whole model
            // (reported as such); the model formats say they store no name.
            matches!(target, Target::SeModel | Target::Dmf)
                && nodes(file, NodeKind::Model)
                    .iter()
                    .any(|m| m.str_value("n").is_some_and(|n| !n.is_empty())),
            "model names",
            "model name",
        ),
        (
            // Cast's default (ssc absent or 1) does not inherit a parent's scale; the other
            // targets always do, which matters only under a parent with scale keys.
            scaled_parent_of_compensating_bone(file),
            "segment scale compensation",
            "segment scale compensation",
        ),
        (
            nodes(file, NodeKind::Model)
                .iter()
                .filter_map(|m| m.as_model())
                .any(|m| {
                    m.position().is_some_and(|p| p != Vec3::new(0.0, 0.0, 0.0))
                        || m.rotation().is_some_and(|r| r != Quat::new(0.0, 0.0, 0.0, 1.0))
                        || m.scale().is_some_and(|s| s != Vec3::new(1.0, 1.0, 1.0))
                }),
            "model placement",
            "placement",
        ),
        (
            nodes(file, NodeKind::Mesh).iter().any(|m| m.property("vt").is_some()),
            "tangents",
            "tangents",
        ),
    ];
    match target {
        Target::AnimX => {
            losses.push((has(NodeKind::Model), "the model", "skeleton and meshes"));
            losses.push((has(NodeKind::Material), "materials", "materials"));
            losses.push((
                animations.len() > 1,
                "animations after the first",
                "animations after the first",
            ));
        }
        _ => {
            let named_maps = nodes(file, NodeKind::Material).iter().any(|m| {
                ["diffuse", "albedo", "normal", "specular"]
                    .iter()
                    .any(|s| m.property(s).is_some())
            });
            losses.push((named_maps, "texture files", "texture"));
        }
    }
    losses
        .into_iter()
        .filter(|(present, _, _)| *present)
        .map(|(_, what, word)| (what, word))
        .collect()
}

fn check_losses(file: &str, cast: &CastFile, target: Target, lost: &[String]) {
    for (what, word) in expected_losses(cast, target) {
        assert!(
            lost.iter().any(|l| l.contains(word)),
            "{file} -> {target}: {what} lost without a report line ({word:?} in none of {lost:#?})"
        );
    }
}

#[test]
fn cast_to_animx_keeps_every_bone_channels_keys_and_reports_the_rest() {
    let files = cast_files();
    assert!(files.len() >= 9);
    let mut converted = 0;
    for path in files {
        let file = name(&path);
        let document = Document::open(&path).unwrap();
        let Document::Cast(cast) = &document else {
            panic!("{file}: a Cast document")
        };
        let animations = nodes(cast, NodeKind::Animation);
        let result = animbin::convert(&document, Target::AnimX, &ConvertOptions::default());
        let Some(first) = animations.first() else {
            assert!(
                matches!(result, Err(Error::NothingToWrite { .. })),
                "{file}: {result:?}"
            );
            continue;
        };
        let conversion = result.unwrap_or_else(|e| panic!("{file}: {e}"));
        let Document::AnimX(animx) = Document::parse(&conversion.to_bytes().unwrap(), None).unwrap() else {
            panic!("{file}: an AnimX file")
        };
        // Each bone channel with keys is a track of the node's name with as many keys.
        let mut tracks: BTreeMap<String, [usize; 3]> = BTreeMap::new();
        for track in &animx.animation.tracks {
            let channel = match track.property.as_str() {
                "rotation" => 0,
                "position" => 1,
                "scale" => 2,
                _ => continue,
            };
            tracks.entry(track.node.clone()).or_default()[channel] = track.keyframe_count();
        }
        assert_eq!(tracks, cast_keys(first), "{file}: bones and key counts");
        let framerate = first.float_value("fr").unwrap();
        let last_frame = first
            .children
            .iter()
            .filter_map(|c| c.indices("kb"))
            .flat_map(|kb| kb.to_vec())
            .max()
            .unwrap_or(0);
        // The animation lasts through its last frame: (last + 1) frames.
        let duration = animx.animation.global_duration;
        assert!(
            (f64::from(duration) - f64::from(last_frame + 1) / f64::from(framerate)).abs() < 1e-3,
            "{file}: duration {duration}"
        );
        check_losses(&file, cast, Target::AnimX, &conversion.report.lost);
        converted += 1;
    }
    assert!(converted >= 4, "{converted} Cast files hold animations");
}

#[test]
fn cast_to_dmf_keeps_bones_vertices_faces_and_keys_and_reports_the_rest() {
    let mut converted = 0;
    for path in cast_files() {
        let file = name(&path);
        let document = Document::open(&path).unwrap();
        let Document::Cast(cast) = &document else {
            panic!("{file}: a Cast document")
        };
        let meshes = nodes(cast, NodeKind::Mesh);
        let animations = nodes(cast, NodeKind::Animation);
        let skeleton_bones: Vec<&str> = cast
            .models()
            .filter_map(|m| m.skeleton())
            .flat_map(|s| s.bones())
            .map(|b| b.name().unwrap())
            .collect();
        let result = animbin::convert(&document, Target::Dmf, &ConvertOptions::default());
        if meshes.is_empty() && animations.is_empty() && skeleton_bones.is_empty() {
            assert!(
                matches!(result, Err(Error::NothingToWrite { .. })),
                "{file}: {result:?}"
            );
            continue;
        }
        let conversion = result.unwrap_or_else(|e| panic!("{file}: {e}"));
        let Document::Dmf(dmf) = Document::parse(&conversion.to_bytes().unwrap(), None).unwrap() else {
            panic!("{file}: a DMF file")
        };
        let bone_names: Vec<&str> = dmf.bones.iter().map(|b| b.name.as_str().unwrap()).collect();
        let named: BTreeSet<&str> = bone_names.iter().copied().collect();
        assert!(
            skeleton_bones.iter().all(|b| named.contains(b)),
            "{file}: {skeleton_bones:?} in {bone_names:?}"
        );
        let vertices: usize = meshes
            .iter()
            .map(|m| m.as_mesh().unwrap().positions().unwrap().len())
            .sum();
        let faces: usize = meshes
            .iter()
            .map(|m| m.as_mesh().unwrap().faces().unwrap().len() / 3)
            .sum();
        assert_eq!(
            (dmf.vertices.len(), dmf.faces.len()),
            (vertices, faces),
            "{file}: vertices and faces"
        );
        assert_eq!(dmf.animations.len(), animations.len(), "{file}: animations");
        for (animation, cast_animation) in dmf.animations.iter().zip(&animations) {
            // Per bone, as many records carry each channel as the Cast curves have keys.
            let mut keys: BTreeMap<String, [usize; 3]> = BTreeMap::new();
            for track in &animation.tracks {
                let bone = bone_names[track.bone_id.get() as usize].to_string();
                let counts = keys.entry(bone).or_default();
                for (channel, flag) in [PrsFlags::ROTATION, PrsFlags::POSITION, PrsFlags::SCALE]
                    .into_iter()
                    .enumerate()
                {
                    counts[channel] += usize::from(track.flags().contains(flag));
                }
            }
            assert_eq!(keys, cast_keys(cast_animation), "{file}: bones and key counts");
            let animated_only = keys.keys().any(|b| !skeleton_bones.contains(&b.as_str()));
            if animated_only {
                let line = "a skeleton for animated bones";
                assert!(conversion.report.lost.iter().any(|l| l.contains(line)), "{file}");
            }
        }
        check_losses(&file, cast, Target::Dmf, &conversion.report.lost);
        converted += 1;
    }
    assert!(converted >= 7, "{converted}");
}
