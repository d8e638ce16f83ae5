//! The pose suite's rig (`testdata/poses/`, read by `tests/blender/test_pose.py`): Cast files
//! of one rotated and scaled rig, each with one animation that plays the same motion through
//! a different use of Cast's curve modes, written node by node through the cast crate's
//! model so that every stored value is the one chosen here.
//!
//! The rig: six bones with rotated rest poses, uniform and non-uniform rest scales, segment
//! scale compensation (`ssc`) on for some bones and off for others, a Model placement
//! (`p`, `r`, `s`) and a mesh skinned to every bone. Compensating bones have parents whose
//! posed matrix holds no shear, so their axes without scale are plain; `head` compensates
//! under `spine`, which does not, under a scaled `pelvis`: it inherits no scale from any
//! ancestor (Blender's inherit-scale None), not merely none of its parent's own.
//!
//! The motion is stated as what it does over the rest pose (a rotation applied after the
//! rest rotation, an offset added to the rest position, a factor on the rest scale); each
//! file turns it into keys for the mode its curves state (or an override imposes):
//! `absolute` keys are the local values themselves, `relative` and `additive` keys the
//! rotation, offset and factor. So every file plays the same pose at every frame, which the
//! suite also checks of its own reading of the rules.

use animbin_cast::{CastFile, Node, NodeHashes, NodeKind, Property, Value, to_bytes};
use animbin_core::math::{Quat, Vec3, Vec4};

use super::Sample;

const TARGETS: &[&str] = &["parse_cast", "roundtrip_cast"];

/// Frames per second of every animation (a whole number: Blender's glTF importer places
/// keys at seconds times the scene's rate).
const FRAMERATE: f32 = 30.0;

/// One bone of the rig at rest.
struct RigBone {
    name: &'static str,
    parent: Option<usize>,
    /// Segment scale compensation.
    ssc: bool,
    /// `lp`.
    position: [f32; 3],
    /// `lr` as an axis and an angle in degrees.
    rotation: ([f64; 3], f64),
    /// `s`.
    scale: [f32; 3],
}

const RIG: [RigBone; 6] = [
    RigBone {
        name: "root",
        parent: None,
        ssc: true,
        position: [0.1, 0.2, 0.0],
        rotation: ([0.0, 0.0, 1.0], 90.0),
        scale: [1.0, 1.0, 1.0],
    },
    RigBone {
        name: "pelvis",
        parent: Some(0),
        ssc: true,
        position: [0.0, 0.0, 1.0],
        rotation: ([1.0, 0.0, 0.0], 30.0),
        scale: [1.5, 1.5, 1.5],
    },
    RigBone {
        name: "spine",
        parent: Some(1),
        ssc: false,
        position: [0.0, 0.8, 0.1],
        rotation: ([1.0, 1.0, 0.0], 20.0),
        scale: [1.0, 1.25, 0.8],
    },
    RigBone {
        name: "head",
        parent: Some(2),
        ssc: true,
        position: [0.0, 0.6, 0.0],
        rotation: ([0.0, 1.0, 0.0], 45.0),
        scale: [0.5, 0.5, 0.5],
    },
    RigBone {
        name: "arm",
        parent: Some(2),
        ssc: false,
        position: [0.3, 0.5, 0.0],
        rotation: ([0.0, 0.0, 1.0], 70.0),
        scale: [1.0, 1.0, 2.0],
    },
    RigBone {
        name: "hand",
        parent: Some(4),
        ssc: false,
        position: [0.0, 0.7, 0.0],
        rotation: ([1.0, 0.0, 0.0], 10.0),
        scale: [0.9, 1.1, 1.0],
    },
];

/// A unit quaternion turning `degrees` about `axis`.
fn turn(axis: [f64; 3], degrees: f64) -> Quat<f64> {
    let length = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let half = degrees.to_radians() / 2.0;
    let s = half.sin() / length;
    Quat::new(axis[0] * s, axis[1] * s, axis[2] * s, half.cos())
}

fn rest_rotation(bone: &RigBone) -> Quat<f64> {
    turn(bone.rotation.0, bone.rotation.1)
}

/// What one channel of one bone does over the rest pose.
enum Motion {
    /// Rotations about one axis applied after the rest rotation: (frame, degrees).
    Rotation([f64; 3], &'static [(u32, f64)]),
    /// Offsets from the rest position along one axis (0, 1, 2): (frame, offset).
    Translation(usize, &'static [(u32, f32)]),
    /// Factors on the rest scale along one axis: (frame, factor).
    Scale(usize, &'static [(u32, f32)]),
}

/// The motion: (bone index, channel). Rotations of neighbouring keys stay within 90 degrees
/// of each other, so both quaternion signs interpolate the same way.
const MOTION: &[(usize, Motion)] = &[
    (0, Motion::Translation(0, &[(0, 0.0), (10, 0.5), (20, 1.0)])),
    (0, Motion::Translation(1, &[(0, 0.0), (20, -0.4)])),
    (0, Motion::Translation(2, &[(0, 0.0), (5, 0.3), (20, 0.1)])),
    (
        0,
        Motion::Rotation([0.0, 0.0, 1.0], &[(0, 0.0), (10, 30.0), (20, 60.0)]),
    ),
    (0, Motion::Scale(0, &[(0, 1.0), (10, 1.2), (20, 1.0)])),
    (0, Motion::Scale(1, &[(0, 1.0), (10, 1.2), (20, 1.0)])),
    (0, Motion::Scale(2, &[(0, 1.0), (10, 1.2), (20, 1.0)])),
    (
        1,
        Motion::Rotation([1.0, 0.5, 0.2], &[(0, 0.0), (10, 40.0), (20, 80.0)]),
    ),
    (1, Motion::Scale(0, &[(0, 1.0), (10, 1.5), (20, 0.8)])),
    (1, Motion::Scale(1, &[(0, 1.0), (10, 1.5), (20, 0.8)])),
    (1, Motion::Scale(2, &[(0, 1.0), (10, 1.5), (20, 0.8)])),
    (2, Motion::Translation(1, &[(0, 0.0), (5, 0.2), (20, -0.1)])),
    (
        2,
        Motion::Rotation([0.0, 0.0, 1.0], &[(0, 0.0), (10, -25.0), (20, -50.0)]),
    ),
    (2, Motion::Scale(0, &[(0, 1.0), (10, 1.4), (20, 1.0)])),
    (2, Motion::Scale(1, &[(0, 1.0), (20, 0.7)])),
    (
        3,
        Motion::Rotation([0.0, 1.0, 0.3], &[(0, 0.0), (10, 30.0), (20, 60.0)]),
    ),
    (3, Motion::Translation(2, &[(0, 0.0), (10, 0.2), (20, 0.0)])),
    (3, Motion::Scale(0, &[(0, 1.0), (20, 2.0)])),
    (3, Motion::Scale(1, &[(0, 1.0), (20, 2.0)])),
    (3, Motion::Scale(2, &[(0, 1.0), (20, 2.0)])),
    (
        4,
        Motion::Rotation([0.2, 0.1, 1.0], &[(0, 0.0), (10, 45.0), (20, 90.0)]),
    ),
    (4, Motion::Scale(2, &[(0, 1.0), (10, 1.5)])),
    (4, Motion::Translation(0, &[(0, 0.0), (20, 0.3)])),
    (
        5,
        Motion::Rotation([1.0, 0.0, 0.0], &[(0, 0.0), (5, -30.0), (20, -60.0)]),
    ),
];

/// The kind of channel a curve mode applies to, as CurveModeOverride's `ot`, `or`, `os` name them.
#[derive(Clone, Copy, PartialEq)]
enum Channel {
    Translation,
    Rotation,
    Scale,
}

impl Motion {
    fn channel(&self) -> Channel {
        match self {
            Motion::Rotation(..) => Channel::Rotation,
            Motion::Translation(..) => Channel::Translation,
            Motion::Scale(..) => Channel::Scale,
        }
    }

    /// The axis a translation or scale curve keys (0 for a rotation).
    fn axis(&self) -> usize {
        match self {
            Motion::Rotation(..) => 0,
            Motion::Translation(axis, _) | Motion::Scale(axis, _) => *axis,
        }
    }
}

/// How a file states the modes of its curves.
struct Modes {
    /// The mode each curve's keys are written for: (bone, channel, axis) -> mode (axis 0
    /// for rotations).
    keys: fn(usize, Channel, usize) -> &'static str,
    /// The mode each curve's `m` says (differs from `keys` where an override decides).
    stated: fn(usize, Channel, usize) -> &'static str,
    /// CurveModeOverride nodes: (bone, mode, translation, rotation, scale).
    overrides: &'static [(usize, &'static str, bool, bool, bool)],
}

/// The keys of `motion` on `bone` for `mode`, as a curve's `kp` and values.
fn keys(bone: &RigBone, motion: &Motion, mode: &str) -> Vec<(&'static str, Vec<u32>, Value)> {
    let absolute = mode == "absolute";
    match motion {
        Motion::Rotation(axis, keys) => {
            let rest = rest_rotation(bone);
            let values = keys
                .iter()
                .map(|&(_, degrees)| {
                    let delta = turn(*axis, degrees);
                    let q = if absolute { rest * delta } else { delta };
                    Vec4::new(q.x as f32, q.y as f32, q.z as f32, q.w as f32)
                })
                .collect();
            vec![("rq", keys.iter().map(|k| k.0).collect(), Value::Vec4(values))]
        }
        Motion::Translation(axis, keys) => {
            let base = if absolute { bone.position[*axis] } else { 0.0 };
            let values = keys.iter().map(|&(_, offset)| base + offset).collect();
            vec![(
                ["tx", "ty", "tz"][*axis],
                keys.iter().map(|k| k.0).collect(),
                Value::Float(values),
            )]
        }
        Motion::Scale(axis, keys) => {
            let base = if absolute { bone.scale[*axis] } else { 1.0 };
            let values = keys.iter().map(|&(_, factor)| base * factor).collect();
            vec![(
                ["sx", "sy", "sz"][*axis],
                keys.iter().map(|k| k.0).collect(),
                Value::Float(values),
            )]
        }
    }
}

fn v3(v: [f32; 3]) -> Value {
    Value::Vec3(vec![Vec3::new(v[0], v[1], v[2])])
}

fn q4(q: Quat<f64>) -> Value {
    Value::Vec4(vec![Vec4::new(q.x as f32, q.y as f32, q.z as f32, q.w as f32)])
}

/// The Model: the rig's skeleton, its placement and a mesh of two vertices per bone, each
/// skinned to two bones.
fn model(hashes: &mut NodeHashes) -> Node {
    let mut model = hashes.node(NodeKind::Model);
    model.push(Property::string("n", "pose_rig"));
    model.push(Property::new("p", v3([0.5, -1.0, 0.25])));
    model.push(Property::new("r", q4(turn([0.0, 0.0, 1.0], 30.0))));
    model.push(Property::new("s", v3([1.25, 1.25, 1.25])));
    let mut skeleton = hashes.node(NodeKind::Skeleton);
    for bone in &RIG {
        let mut node = hashes.node(NodeKind::Bone);
        node.push(Property::string("n", bone.name));
        let parent = bone.parent.map_or(u32::MAX, |p| p as u32);
        node.push(Property::new("p", Value::Integer(vec![parent])));
        node.push(Property::boolean("ssc", bone.ssc));
        node.push(Property::new("lp", v3(bone.position)));
        node.push(Property::new("lr", q4(rest_rotation(bone))));
        node.push(Property::new("s", v3(bone.scale)));
        skeleton.children.push(node);
    }
    let count = RIG.len();
    let positions = (0..2 * count)
        .map(|v| {
            let v = v as f32;
            Vec3::new(0.3 * (v % 3.0) - 0.3, 0.25 * v - 1.0, 0.2 * v)
        })
        .collect();
    let mut bones = Vec::new();
    let mut weights = Vec::new();
    for (i, bone) in RIG.iter().enumerate() {
        bones.extend([i as u32, ((i + 1) % count) as u32]);
        weights.extend([0.75, 0.25]);
        bones.extend([i as u32, bone.parent.unwrap_or(count - 1) as u32]);
        weights.extend([0.5, 0.5]);
    }
    let vertices = 2 * count as u32;
    let faces: Vec<u32> = (0..count as u32)
        .flat_map(|i| [2 * i, 2 * i + 1, (2 * i + 2) % vertices])
        .collect();
    let mut mesh = hashes.node(NodeKind::Mesh);
    mesh.push(Property::string("n", "skin"));
    mesh.push(Property::new("vp", Value::Vec3(positions)));
    mesh.push(Property::new("wb", Value::narrowest(&bones)));
    mesh.push(Property::new("wv", Value::Float(weights)));
    mesh.push(Property::new("mi", Value::Byte(vec![2])));
    mesh.push(Property::new("f", Value::narrowest(&faces)));
    model.children.extend([skeleton, mesh]);
    model
}

/// The animation `name`, its curves' modes as `modes` says.
fn animation(hashes: &mut NodeHashes, name: &str, modes: &Modes) -> Node {
    let mut anim = hashes.node(NodeKind::Animation);
    anim.push(Property::string("n", name.to_owned()));
    anim.push(Property::new("fr", Value::Float(vec![FRAMERATE])));
    anim.push(Property::boolean("lo", false));
    for &(bone, mode, translation, rotation, scale) in modes.overrides {
        let mut node = hashes.node(NodeKind::CurveModeOverride);
        node.push(Property::string("nn", RIG[bone].name));
        node.push(Property::string("m", mode));
        node.push(Property::boolean("ot", translation));
        node.push(Property::boolean("or", rotation));
        node.push(Property::boolean("os", scale));
        anim.children.push(node);
    }
    for (bone, motion) in MOTION {
        let (channel, axis) = (motion.channel(), motion.axis());
        for (kp, frames, values) in keys(&RIG[*bone], motion, (modes.keys)(*bone, channel, axis)) {
            let curve = hashes.curve(
                RIG[*bone].name,
                kp,
                &frames,
                values,
                (modes.stated)(*bone, channel, axis),
            );
            anim.children.push(curve);
        }
    }
    anim
}

/// One file: a Root with the rig, the animation and, when `up` is given, a Metadata node
/// naming that up axis.
fn file(name: &str, modes: &Modes, up: Option<&str>) -> Vec<u8> {
    let mut hashes = NodeHashes::new();
    let mut root = hashes.node(NodeKind::Root);
    root.children.push(model(&mut hashes));
    root.children.push(animation(&mut hashes, name, modes));
    if let Some(up) = up {
        let mut meta = hashes.node(NodeKind::Metadata);
        meta.push(Property::string("a", "animbin"));
        meta.push(Property::string("s", "cargo xtask corpus"));
        meta.push(Property::string("up", up.to_owned()));
        root.children.push(meta);
    }
    let file = CastFile {
        flags: 0,
        roots: vec![root],
    };
    to_bytes(&file).expect("the pose rig is encodable")
}

/// Every curve in one mode.
fn all(mode: &'static str) -> fn(usize, Channel, usize) -> &'static str {
    match mode {
        "absolute" => |_, _, _| "absolute",
        "relative" => |_, _, _| "relative",
        _ => |_, _, _| "additive",
    }
}

const MODES: [&str; 3] = ["absolute", "relative", "additive"];

/// Per-curve modes: each bone and channel its own (the axes of one channel alike).
fn mixed(bone: usize, channel: Channel, _axis: usize) -> &'static str {
    MODES[(bone + channel as usize) % 3]
}

/// Per-curve modes down to the axis: the axes of one bone's translation or scale in
/// different modes where it keys more than one.
fn mixed_axes(bone: usize, channel: Channel, axis: usize) -> &'static str {
    MODES[(bone + channel as usize + axis) % 3]
}

/// The modes the override file's keys are written for: the override's in the subtrees it
/// covers (`arm` and `hand` every channel relative, `head` rotation absolute), the curve's
/// own mode elsewhere.
fn overridden_keys(bone: usize, channel: Channel, axis: usize) -> &'static str {
    match (bone, channel) {
        (4 | 5, _) => "relative",
        (3, Channel::Rotation) => "absolute",
        _ => overridden_stated(bone, channel, axis),
    }
}

/// The modes the override file's curves state: the overridden ones differ from the
/// override's.
fn overridden_stated(bone: usize, channel: Channel, _axis: usize) -> &'static str {
    match (bone, channel) {
        (4 | 5, _) => "absolute",
        (3, _) => "relative",
        (0, Channel::Scale) | (2, Channel::Rotation) => "absolute",
        (1, _) => "relative",
        _ => "additive",
    }
}

/// Overrides of the override file: `arm` (and `hand` below it) relative in every channel,
/// `head` absolute in rotation only.
const OVERRIDES: &[(usize, &str, bool, bool, bool)] =
    &[(4, "relative", true, true, true), (3, "absolute", false, true, false)];

/// The pose suite's files.
pub(crate) fn samples() -> Vec<Sample> {
    let same = |mode| Modes {
        keys: all(mode),
        stated: all(mode),
        overrides: &[],
    };
    let file = |name: &'static str, bytes| Sample::new(name, bytes, TARGETS, true);
    vec![
        file(
            "poses/rig_absolute.cast",
            self::file("absolute", &same("absolute"), None),
        ),
        file(
            "poses/rig_relative.cast",
            self::file("relative", &same("relative"), None),
        ),
        file(
            "poses/rig_additive.cast",
            self::file("additive", &same("additive"), None),
        ),
        file(
            "poses/rig_mixed.cast",
            self::file(
                "mixed",
                &Modes {
                    keys: mixed,
                    stated: mixed,
                    overrides: &[],
                },
                None,
            ),
        ),
        file(
            "poses/rig_mixed_axes.cast",
            self::file(
                "mixed_axes",
                &Modes {
                    keys: mixed_axes,
                    stated: mixed_axes,
                    overrides: &[],
                },
                None,
            ),
        ),
        file(
            "poses/rig_override.cast",
            self::file(
                "override",
                &Modes {
                    keys: overridden_keys,
                    stated: overridden_stated,
                    overrides: OVERRIDES,
                },
                None,
            ),
        ),
        file("poses/rig_y_up.cast", self::file("y_up", &same("absolute"), Some("y"))),
    ]
}
