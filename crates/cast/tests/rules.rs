//! Cast's rules for what a rig poses (issue 21, the facts sheet and the format author's
//! Blender add-on where the sheet is silent), checked on small files: each bone's world
//! matrix at each key, computed here with plain 4x4 matrices from the rules, against the
//! scene the file becomes (posed with the library's own rules, `animbin_core::pose`).
//!
//! The rules: a bone's rest frame is its parent's times `T(lp) R(lr)`, its `s` in none of it;
//! keys (each curve's `m`, unless a CurveModeOverride on the bone or an ancestor covers the
//! channel): absolute is the value (a scale relative to `s`), relative and additive are
//! `lp + key`, `lr * key` and a factor of the rest scale; an axis without a curve keeps its
//! rest value; a bone with `ssc` (the default) takes its parent's position and axes but not
//! its scale (Blender's inherit-scale NONE: the parent's scale still stretches its offset),
//! one with `ssc` 0 inherits all of it; the Model's `p`, `r`, `s` place everything.

use animbin_cast::{CastFile, ConversionReport, Node, NodeKind, Property, SceneOptions, Value, Vec3, Vec4};
use animbin_core::math::Transform;
use animbin_core::pose;
use animbin_core::scene::{Animation, Scene};

type Mat = [[f64; 4]; 4];

fn mul(a: Mat, b: Mat) -> Mat {
    let mut m = [[0.0; 4]; 4];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = (0..4).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    m
}

fn translate(t: [f64; 3]) -> Mat {
    let mut m = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    for i in 0..3 {
        m[i][3] = t[i];
    }
    m
}

fn rotate(q: [f64; 4]) -> Mat {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    let [x, y, z, w] = q.map(|c| c / n);
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
            0.0,
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
            0.0,
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
            0.0,
        ],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

fn scale(s: [f64; 3]) -> Mat {
    let mut m = translate([0.0; 3]);
    for i in 0..3 {
        m[i][i] = s[i];
    }
    m
}

fn qmul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// A quaternion turning `angle` radians about axis 0, 1 or 2.
fn turn(axis: usize, angle: f64) -> [f64; 4] {
    let mut q = [0.0, 0.0, 0.0, (angle / 2.0).cos()];
    q[axis] = (angle / 2.0).sin();
    q
}

/// The parent's axes without their scale (columns normalised), as Blender's NONE keeps them.
fn unscaled(p: Mat) -> Mat {
    let mut m = p;
    for c in 0..3 {
        let n = (0..3).map(|r| p[r][c] * p[r][c]).sum::<f64>().sqrt();
        for row in m.iter_mut().take(3) {
            row[c] /= n;
        }
    }
    for row in m.iter_mut().take(3) {
        row[3] = 0.0;
    }
    m
}

/// One bone of the test rigs.
struct RigBone {
    name: &'static str,
    parent: i32,
    lp: [f64; 3],
    lr: [f64; 4],
    s: [f64; 3],
    ssc: Option<bool>,
}

/// One curve: bone, kp, mode, keys (frame, values).
struct RigCurve {
    bone: &'static str,
    kp: &'static str,
    mode: &'static str,
    keys: Vec<(u32, Vec<f64>)>,
}

/// A CurveModeOverride: node, mode, ot/or/os.
struct RigOverride {
    bone: &'static str,
    mode: &'static str,
    channels: [bool; 3],
}

fn f32s(v: [f64; 3]) -> Vec3 {
    Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

fn quat32(q: [f64; 4]) -> Vec4 {
    Vec4::new(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32)
}

/// Values as the file stores them (f32), so the expectation reads what the file holds.
fn stored(v: f64) -> f64 {
    f64::from(v as f32)
}

const PLACEMENT: ([f64; 3], f64, f64) = ([0.5, -1.0, 0.25], 0.26, 1.25);

fn rig() -> Vec<RigBone> {
    vec![
        RigBone {
            name: "root",
            parent: -1,
            lp: [0.1, 0.2, 0.0],
            lr: turn(2, std::f64::consts::FRAC_PI_2),
            s: [2.0, 2.0, 2.0],
            ssc: None,
        },
        RigBone {
            name: "knee",
            parent: 0,
            lp: [0.0, 3.0, 0.0],
            lr: turn(0, 0.5),
            s: [1.0, 1.0, 1.0],
            ssc: None,
        },
        RigBone {
            name: "foot",
            parent: 1,
            lp: [0.0, 2.0, 0.5],
            lr: turn(1, 0.35),
            s: [0.5, 0.5, 0.5],
            ssc: Some(false),
        },
    ]
}

fn cast_file(bones: &[RigBone], curves: &[RigCurve], overrides: &[RigOverride]) -> CastFile {
    let mut hash = 10;
    let mut next = || {
        hash += 1;
        hash
    };
    let bone_nodes = bones
        .iter()
        .map(|b| {
            let mut props = vec![
                Property::string("n", b.name),
                Property::new("p", Value::Integer(vec![b.parent as u32])),
            ];
            if let Some(ssc) = b.ssc {
                props.push(Property::boolean("ssc", ssc));
            }
            props.push(Property::new("lp", Value::Vec3(vec![f32s(b.lp)])));
            props.push(Property::new("lr", Value::Vec4(vec![quat32(b.lr)])));
            props.push(Property::new("s", Value::Vec3(vec![f32s(b.s)])));
            Node::with(NodeKind::Bone, next(), props, vec![])
        })
        .collect();
    let skeleton = Node::with(NodeKind::Skeleton, next(), vec![], bone_nodes);
    let (p, angle, s) = PLACEMENT;
    let model = Node::with(
        NodeKind::Model,
        next(),
        vec![
            Property::new("p", Value::Vec3(vec![f32s(p)])),
            Property::new("r", Value::Vec4(vec![quat32(turn(2, angle))])),
            Property::new("s", Value::Vec3(vec![f32s([s, s, s])])),
        ],
        vec![skeleton],
    );
    let mut children = Vec::new();
    for o in overrides {
        let mut props = vec![Property::string("nn", o.bone), Property::string("m", o.mode)];
        for (flag, on) in ["ot", "or", "os"].into_iter().zip(o.channels) {
            props.push(Property::boolean(flag, on));
        }
        children.push(Node::with(NodeKind::CurveModeOverride, next(), props, vec![]));
    }
    for c in curves {
        let frames: Vec<u32> = c.keys.iter().map(|(f, _)| *f).collect();
        let values = if c.kp == "rq" {
            Value::Vec4(c.keys.iter().map(|(_, v)| quat32([v[0], v[1], v[2], v[3]])).collect())
        } else {
            Value::Float(c.keys.iter().map(|(_, v)| v[0] as f32).collect())
        };
        children.push(Node::with(
            NodeKind::Curve,
            next(),
            vec![
                Property::string("nn", c.bone),
                Property::string("kp", c.kp),
                Property::new("kb", Value::narrowest(&frames)),
                Property::new("kv", values),
                Property::string("m", c.mode),
            ],
            vec![],
        ));
    }
    let animation = Node::with(
        NodeKind::Animation,
        next(),
        vec![Property::new("fr", Value::Float(vec![30.0]))],
        children,
    );
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![model, animation])],
    }
}

/// Each bone's world matrix at `frame` by the rules above (keys are read only at their own
/// frames: every curve of these rigs is keyed at each frame asked).
fn expected(bones: &[RigBone], curves: &[RigCurve], overrides: &[RigOverride], frame: u32) -> Vec<Mat> {
    let value = |bone: &str, kp: &str| {
        curves
            .iter()
            .find(|c| c.bone == bone && c.kp == kp)
            .map(|c| (c.mode, c.keys.iter().find(|k| k.0 == frame).unwrap().1.clone()))
    };
    // The override covering channel `ch` of bone `i`: its own or its nearest ancestor's.
    let overridden = |i: usize, ch: usize| {
        let mut at = Some(i);
        while let Some(b) = at {
            if let Some(o) = overrides.iter().find(|o| o.bone == bones[b].name && o.channels[ch]) {
                return Some(o.mode);
            }
            at = usize::try_from(bones[b].parent).ok();
        }
        None
    };
    let stored3 = |v: [f64; 3]| v.map(stored);
    let mut world: Vec<Mat> = Vec::new();
    for (i, b) in bones.iter().enumerate() {
        let (lp, s) = (stored3(b.lp), stored3(b.s));
        let lr = b.lr.map(stored);
        let mut t = lp;
        let mut factor = [1.0; 3];
        for (axis, (tk, sk)) in [("tx", "sx"), ("ty", "sy"), ("tz", "sz")].into_iter().enumerate() {
            if let Some((mode, v)) = value(b.name, tk) {
                let mode = overridden(i, 0).unwrap_or(mode);
                t[axis] = if mode == "absolute" {
                    stored(v[0])
                } else {
                    lp[axis] + stored(v[0])
                };
            }
            if let Some((mode, v)) = value(b.name, sk) {
                let mode = overridden(i, 2).unwrap_or(mode);
                factor[axis] = if mode == "absolute" {
                    stored(v[0]) / s[axis]
                } else {
                    stored(v[0])
                };
            }
        }
        let q = match value(b.name, "rq") {
            Some((mode, v)) => {
                let key = [v[0], v[1], v[2], v[3]].map(stored);
                if overridden(i, 1).unwrap_or(mode) == "absolute" {
                    key
                } else {
                    qmul(lr, key)
                }
            }
            None => lr,
        };
        let own = mul(rotate(q), scale(factor));
        let m = match usize::try_from(b.parent).ok() {
            None => mul(translate(t), own),
            Some(p) if b.ssc.unwrap_or(true) => {
                let parent = world[p];
                let at: Vec<f64> = (0..3)
                    .map(|r| (0..3).map(|c| parent[r][c] * t[c]).sum::<f64>() + parent[r][3])
                    .collect();
                mul(mul(translate([at[0], at[1], at[2]]), unscaled(parent)), own)
            }
            Some(p) => mul(world[p], mul(translate(t), own)),
        };
        world.push(m);
    }
    let (p, angle, s) = PLACEMENT;
    let placement = mul(
        mul(translate(stored3(p)), rotate(turn(2, angle).map(stored))),
        scale([stored(s); 3]),
    );
    world.into_iter().map(|w| mul(placement, w)).collect()
}

/// Each bone's world matrix at `frame` in the scene the file becomes, posed by the library.
fn scene_pose(scene: &Scene, anim: &Animation, frame: f64) -> Vec<Mat> {
    let kinds = pose::channel_kinds(anim, &scene.skeleton);
    let bones = &scene.skeleton.bones;
    let mut local: Vec<Transform> = bones.iter().map(|b| b.local).collect();
    for (track, kind) in anim.bones.iter().zip(kinds) {
        let i = scene.skeleton.find(&track.bone).unwrap();
        let rest = bones[i].local;
        if let Some(k) = track.translation.iter().find(|k| k.frame == frame) {
            local[i].translation = pose::apply_translation(kind.translation, &rest, k.value);
        }
        if let Some(k) = track.rotation.iter().find(|k| k.frame == frame) {
            local[i].rotation = pose::apply_rotation(kind.rotation, &rest, k.value);
        }
        if let Some(k) = track.scale.iter().find(|k| k.frame == frame) {
            local[i].scale = pose::apply_scale(kind.scale, bones[i].rest_scale, k.value);
        }
    }
    let mut world = vec![Transform::IDENTITY; bones.len()];
    for i in scene.skeleton.resolve_order() {
        world[i] = match bones[i].parent {
            Some(p) => pose::compose(world[p], local[i], bones[i].scale_compensate),
            None => local[i],
        };
    }
    world
        .into_iter()
        .map(|w| scene.placement.then(w).to_matrix().rows)
        .collect()
}

fn check(curves: &[RigCurve], overrides: &[RigOverride], frames: &[u32]) {
    let bones = rig();
    let file = cast_file(&bones, curves, overrides);
    let mut report = ConversionReport::default();
    let scene = file.to_scene(&SceneOptions::default(), &mut report).unwrap();
    // What the scene reports of these files changes no pose: the axes it fills from the
    // rest pose.
    assert!(
        report
            .lost
            .iter()
            .all(|l| l.starts_with("translation or scale curves without all three")),
        "{:?}",
        report.lost
    );
    check_scene(&scene, curves, overrides, frames);
}

/// `scene` (of the rig) posed at each of `frames` as the rules pose `curves` and `overrides`.
fn check_scene(scene: &Scene, curves: &[RigCurve], overrides: &[RigOverride], frames: &[u32]) {
    let bones = rig();
    for &frame in frames {
        let want = expected(&bones, curves, overrides, frame);
        let got = scene_pose(scene, &scene.animations[0], f64::from(frame));
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            let off = (0..3)
                .flat_map(|r| (0..4).map(move |c| (r, c)))
                .map(|(r, c)| (w[r][c] - g[r][c]).abs())
                .fold(0.0, f64::max);
            // f32 quaternions are unit only to about 1e-7, which the library does not
            // renormalise everywhere; the rules' differences are orders larger.
            assert!(off < 1e-6, "frame {frame}: bone {} off by {off}", bones[i].name);
        }
    }
}

fn axes(bone: &'static str, prefix: char, mode: &'static str, keys: &[(u32, [f64; 3])]) -> Vec<RigCurve> {
    (0..3)
        .map(|axis| RigCurve {
            bone,
            kp: ["tx", "ty", "tz", "sx", "sy", "sz"][axis + if prefix == 's' { 3 } else { 0 }],
            mode,
            keys: keys.iter().map(|(f, v)| (*f, vec![v[axis]])).collect(),
        })
        .collect()
}

fn rq(bone: &'static str, mode: &'static str, keys: &[(u32, [f64; 4])]) -> RigCurve {
    RigCurve {
        bone,
        kp: "rq",
        mode,
        keys: keys.iter().map(|(f, q)| (*f, q.to_vec())).collect(),
    }
}

#[test]
fn rest_scales_stretch_no_offset_and_the_placement_moves_everything() {
    // No keys: every bone at rest, the root's s of 2 in no child's offset.
    check(&[], &[], &[0]);
}

#[test]
fn absolute_scale_keys_are_relative_to_s_and_compensating_bones_keep_their_own_scale() {
    // root: keys 4 and 1 against s 2 (factors 2 and 0.5); knee (ssc on) does not take them,
    // foot (ssc 0) takes knee's.
    let mut curves = axes("root", 's', "absolute", &[(0, [4.0, 4.0, 4.0]), (10, [1.0, 1.0, 1.0])]);
    curves.extend(axes(
        "knee",
        's',
        "absolute",
        &[(0, [1.0, 1.0, 1.0]), (10, [3.0, 3.0, 3.0])],
    ));
    curves.extend(axes(
        "foot",
        's',
        "absolute",
        &[(0, [0.5, 0.5, 0.5]), (10, [1.5, 1.5, 1.5])],
    ));
    curves.push(rq("knee", "absolute", &[(0, turn(0, 0.2)), (10, turn(2, -0.4))]));
    check(&curves, &[], &[0, 10]);
}

#[test]
fn an_animation_file_without_a_skeleton_joined_onto_one_measures_absolute_scales_against_s() {
    // The rig's file split in two, as `convert --anim` joins them: the skeleton (with the
    // root's s 2 and the foot's 0.5) in one file (the knee's keys uniform: the foot inherits
    // its scale, and a non-uniform one under a turn would shear, which no TRS holds), the curves alone in another. The
    // animation's scene knows no `s`, so its keys stay as written; joined onto the skeleton,
    // which carries the rest scales, they play as in the one file.
    let mut curves = axes("root", 's', "absolute", &[(0, [4.0, 2.0, 2.0]), (10, [1.0, 1.0, 2.0])]);
    curves.extend(axes(
        "foot",
        's',
        "absolute",
        &[(0, [0.5, 0.5, 0.5]), (10, [1.5, 0.5, 1.0])],
    ));
    curves.extend(axes(
        "knee",
        's',
        "absolute",
        &[(0, [1.25, 1.25, 1.25]), (10, [1.0, 1.0, 1.0])],
    ));
    let whole = cast_file(&rig(), &curves, &[]);
    let [model, animation] = <[Node; 2]>::try_from(whole.roots[0].children.clone()).unwrap();
    let part = |node: Node| CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![node])],
    };
    let options = SceneOptions::default();
    let mut report = ConversionReport::default();
    let mut scene = part(model).to_scene(&options, &mut report).unwrap();
    let keys = part(animation).to_scene(&options, &mut report).unwrap();
    assert!(report.is_lossless(), "{:?}", report.lost);
    let s: Vec<[f64; 3]> = scene
        .skeleton
        .bones
        .iter()
        .map(|b| [b.rest_scale.x, b.rest_scale.y, b.rest_scale.z])
        .collect();
    assert_eq!(s, [[2.0; 3], [1.0; 3], [0.5; 3]]);
    // The keys as the file has them: the root's first key is 4, 2, 2 (not divided by 2).
    let root_keys = &keys.animations[0]
        .bones
        .iter()
        .find(|t| t.bone == "root")
        .unwrap()
        .scale;
    assert_eq!(
        [
            root_keys.get(0).unwrap().value.x,
            root_keys.get(0).unwrap().value.y,
            root_keys.get(0).unwrap().value.z
        ],
        [4.0, 2.0, 2.0]
    );
    scene.animations = keys.animations;
    check_scene(&scene, &curves, &[], &[0, 10]);
    // And written back as one Cast file, the rest scales and keys are as they were.
    let mut report = ConversionReport::default();
    let back = CastFile::from_scene(&scene, &options, &mut report)
        .unwrap()
        .to_scene(&options, &mut report)
        .unwrap();
    // (The world poses computed from `lp` and `lr` hold more digits than f32.)
    assert_eq!(report.lost, ["bind pose digits beyond f32"]);
    let rest_scales = |scene: &Scene| scene.skeleton.bones.iter().map(|b| b.rest_scale).collect::<Vec<_>>();
    assert_eq!(rest_scales(&back), rest_scales(&scene));
    assert_eq!(back.animations[0].bones, scene.animations[0].bones);
}

#[test]
fn relative_rotation_keys_come_after_the_rest_rotation() {
    let curves = vec![
        rq("knee", "relative", &[(0, turn(1, 0.3)), (10, turn(0, -0.7))]),
        rq("foot", "additive", &[(0, turn(2, 0.25)), (10, turn(1, 0.5))]),
    ];
    check(&curves, &[], &[0, 10]);
}

#[test]
fn each_curve_and_each_axis_keeps_its_own_mode() {
    let mut curves = vec![
        RigCurve {
            bone: "knee",
            kp: "tx",
            mode: "relative",
            keys: vec![(0, vec![0.25]), (10, vec![-0.5])],
        },
        RigCurve {
            bone: "knee",
            kp: "ty",
            mode: "absolute",
            keys: vec![(0, vec![2.5]), (10, vec![3.5])],
        },
        rq("knee", "absolute", &[(0, turn(0, 0.1)), (10, turn(0, 0.9))]),
        rq("foot", "relative", &[(0, turn(2, 0.4)), (10, turn(2, -0.4))]),
    ];
    curves.extend(axes(
        "root",
        's',
        "relative",
        &[(0, [1.5, 1.5, 1.5]), (10, [0.75, 0.75, 0.75])],
    ));
    curves.push(RigCurve {
        bone: "foot",
        kp: "sx",
        mode: "absolute",
        keys: vec![(0, vec![1.0]), (10, vec![0.25])],
    });
    curves.push(RigCurve {
        bone: "foot",
        kp: "sy",
        mode: "relative",
        keys: vec![(0, vec![2.0]), (10, vec![1.0])],
    });
    check(&curves, &[], &[0, 10]);
}

#[test]
fn an_override_covers_its_node_and_children_for_the_channels_it_selects() {
    // Rotation made absolute on knee and foot; knee's relative translation stays relative.
    let curves = vec![
        rq("knee", "relative", &[(0, turn(1, 0.3)), (10, turn(0, -0.7))]),
        rq("foot", "relative", &[(0, turn(2, 0.25)), (10, turn(1, 0.5))]),
        RigCurve {
            bone: "knee",
            kp: "tx",
            mode: "relative",
            keys: vec![(0, vec![0.25]), (10, vec![-0.5])],
        },
    ];
    let overrides = [RigOverride {
        bone: "knee",
        mode: "absolute",
        channels: [false, true, false],
    }];
    check(&curves, &overrides, &[0, 10]);
}
