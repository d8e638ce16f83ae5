//! What reaches glb of the rules Cast brought into the scene: bones that do not inherit
//! their parent's scale, the model placement and a kind per channel. The glb's node tree,
//! evaluated at each key time, must give every bone the world transform the library's pose
//! maths gives it (`animbin_core::pose`), and nothing extra is written when no parent is
//! scaled.

mod common;

use std::collections::HashMap;

use animbin_core::SceneOptions;
use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{
    AnimKind, Animation, Bone, BoneTrack, ChannelKinds, ConversionReport, Key, KeyValue, Keys, Scene, Skeleton,
};

/// [`common::bone`] that does or does not inherit its parent's scale.
fn bone(name: &str, parent: Option<usize>, t: [f64; 3], r: [f64; 4], compensate: bool) -> Bone {
    Bone {
        scale_compensate: compensate,
        ..common::bone(name, parent, t, r)
    }
}

fn uniform(s: f64) -> Vec3<f64> {
    Vec3::new(s, s, s)
}

/// A turned rig: root (scale keys) <- pelvis (compensates) <- spine (inherits, scale keys)
/// <- head (compensates) and arm (inherits) <- hand (compensates).
fn rig() -> Skeleton {
    let mut skeleton = Skeleton {
        bones: vec![
            bone(
                "root",
                None,
                [0.1, 0.2, 0.0],
                [
                    0.0,
                    0.0,
                    std::f64::consts::FRAC_1_SQRT_2,
                    std::f64::consts::FRAC_1_SQRT_2,
                ],
                false,
            ),
            bone("pelvis", Some(0), [0.0, 0.0, 1.0], [0.2588, 0.0, 0.0, 0.9659], true),
            bone("spine", Some(1), [0.0, 0.8, 0.1], [0.12, 0.12, 0.0, 0.98], false),
            bone("head", Some(2), [0.0, 0.6, 0.0], [0.0, 0.3827, 0.0, 0.9239], true),
            bone("arm", Some(2), [0.3, 0.5, 0.0], [0.0, 0.0, 0.5736, 0.8192], false),
            bone("hand", Some(4), [0.0, 0.7, 0.0], [0.0872, 0.0, 0.0, 0.9962], true),
        ],
        ..Skeleton::default()
    };
    skeleton.update_globals();
    skeleton
}

fn animation() -> Animation {
    let track = |name: &str| BoneTrack {
        bone: name.into(),
        ..BoneTrack::default()
    };
    Animation {
        name: "rules".into(),
        framerate: 10.0,
        frame_count: 21.0,
        kind: AnimKind::Absolute,
        bones: vec![
            BoneTrack {
                scale: vec![
                    Key::new(0.0, uniform(2.0)),
                    Key::new(10.0, uniform(0.5)),
                    Key::new(20.0, uniform(1.0)),
                ]
                .into(),
                ..track("root")
            },
            BoneTrack {
                // Relative translations on this bone and its children.
                channel_overrides: ChannelKinds {
                    translation: Some(AnimKind::Relative),
                    ..ChannelKinds::NONE
                },
                // Uniform: arm inherits it, turned, and a non-uniform scale would shear arm,
                // which a translation, rotation and scale (the scene's pose) cannot hold.
                scale: vec![Key::new(0.0, uniform(1.5)), Key::new(20.0, uniform(1.25))].into(),
                translation: vec![Key::new(5.0, Vec3::new(0.0, 0.1, 0.0))].into(),
                ..track("spine")
            },
            BoneTrack {
                // A rotation key applied after the rest rotation (Cast's relative rotation).
                channel_kinds: ChannelKinds {
                    rotation: Some(AnimKind::Additive),
                    ..ChannelKinds::NONE
                },
                rotation: vec![
                    Key::new(0.0, Quat::new(0.0, 0.0, 0.0, 1.0)),
                    Key::new(10.0, Quat::new(0.3, 0.0, 0.1, 0.95).normalized()),
                ]
                .into(),
                translation: vec![
                    Key::new(0.0, Vec3::new(0.0, 0.0, 0.0)),
                    Key::new(20.0, Vec3::new(0.1, 0.2, 0.0)),
                ]
                .into(),
                ..track("head")
            },
            BoneTrack {
                // Non-uniform: only hand hangs below, and it does not inherit it.
                scale: vec![Key::new(0.0, uniform(1.0)), Key::new(10.0, Vec3::new(1.0, 2.0, 3.0))].into(),
                ..track("arm")
            },
        ],
        ..Animation::default()
    }
}

fn placement() -> Transform {
    Transform {
        translation: Vec3::new(0.5, -1.0, 0.25),
        rotation: Quat::new(0.0, 0.0, 0.2588, 0.9659).normalized(),
        scale: uniform(1.25),
    }
}

/// A key channel's value at `frame`: linear between keys, held outside them (the tests
/// only ask at frames where every channel has a key or holds).
fn at<T: KeyValue>(keys: &Keys<T>, frame: f64, lerp: impl Fn(T, T, f64) -> T) -> Option<T> {
    let keys = keys.to_vec();
    let Some(i) = keys.iter().position(|k| k.frame >= frame) else {
        return keys.last().map(|k| k.value);
    };
    if keys[i].frame == frame || i == 0 {
        return Some(keys[i].value);
    }
    let (a, b) = (keys[i - 1], keys[i]);
    Some(lerp(a.value, b.value, (frame - a.frame) / (b.frame - a.frame)))
}

/// Every bone's world transform at `frame` by the library's rules: each channel's kind
/// applied over the rest pose, composed down the hierarchy as each bone inherits scale,
/// under the placement.
fn library_pose(scene: &Scene, anim: &Animation, frame: f64) -> Vec<Transform> {
    let kinds = pose::channel_kinds(anim, &scene.skeleton);
    let bones = &scene.skeleton.bones;
    let mut local: Vec<Transform> = bones.iter().map(|b| b.local).collect();
    for (track, kind) in anim.bones.iter().zip(kinds) {
        let i = scene.skeleton.find(&track.bone).unwrap();
        let rest = bones[i].local;
        let lerp3 = |a: Vec3<f64>, b: Vec3<f64>, t: f64| a + (b - a) * uniform(t);
        if let Some(v) = at(&track.translation, frame, lerp3) {
            local[i].translation = pose::apply_translation(kind.translation, &rest, v);
        }
        let nlerp = |a: Quat<f64>, b: Quat<f64>, t: f64| {
            Quat::new(
                a.x + (b.x - a.x) * t,
                a.y + (b.y - a.y) * t,
                a.z + (b.z - a.z) * t,
                a.w + (b.w - a.w) * t,
            )
            .normalized()
        };
        if let Some(q) = at(&track.rotation, frame, nlerp) {
            local[i].rotation = pose::apply_rotation(kind.rotation, &rest, q);
        }
        if let Some(s) = at(&track.scale, frame, lerp3) {
            local[i].scale = s;
        }
    }
    let mut world = vec![Transform::IDENTITY; bones.len()];
    for i in scene.skeleton.resolve_order() {
        world[i] = match bones[i].parent {
            Some(p) => pose::compose(world[p], local[i], bones[i].scale_compensate),
            None => local[i],
        };
    }
    world.into_iter().map(|w| scene.placement.then(w)).collect()
}

/// The JSON chunk and the BIN chunk of a glb.
fn chunks(glb: &[u8]) -> (serde_json::Value, &[u8]) {
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = word(12);
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    (json, &glb[bin_at + 8..bin_at + 8 + word(bin_at)])
}

/// The f32 elements of accessor `index`, `width` to an element (tightly packed views, as
/// animbin writes them).
fn floats(json: &serde_json::Value, bin: &[u8], index: usize, width: usize) -> Vec<Vec<f32>> {
    let accessor = &json["accessors"][index];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start =
        view["byteOffset"].as_u64().unwrap_or(0) as usize + accessor["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = accessor["count"].as_u64().unwrap() as usize;
    (0..count)
        .map(|e| {
            (0..width)
                .map(|c| {
                    let at = start + (e * width + c) * 4;
                    f32::from_le_bytes(bin[at..at + 4].try_into().unwrap())
                })
                .collect()
        })
        .collect()
}

/// Every named node's world matrix in the glb at `time` seconds (channels sampled at their
/// keys, linearly between them).
fn glb_pose(glb: &[u8], time: f32) -> HashMap<String, [[f64; 4]; 4]> {
    let (json, bin) = chunks(glb);
    let nodes = json["nodes"].as_array().unwrap();
    let list = |v: &serde_json::Value, default: &[f64]| -> Vec<f64> {
        v.as_array()
            .map_or_else(|| default.to_vec(), |a| a.iter().map(|x| x.as_f64().unwrap()).collect())
    };
    let mut trs: Vec<[Vec<f64>; 3]> = nodes
        .iter()
        .map(|n| {
            [
                list(&n["translation"], &[0.0; 3]),
                list(&n["rotation"], &[0.0, 0.0, 0.0, 1.0]),
                list(&n["scale"], &[1.0; 3]),
            ]
        })
        .collect();
    if let Some(animation) = json["animations"].get(0) {
        for channel in animation["channels"].as_array().unwrap() {
            let sampler = &animation["samplers"][channel["sampler"].as_u64().unwrap() as usize];
            let times: Vec<f32> = floats(&json, bin, sampler["input"].as_u64().unwrap() as usize, 1)
                .into_iter()
                .map(|t| t[0])
                .collect();
            let (slot, width) = match channel["target"]["path"].as_str().unwrap() {
                "translation" => (0, 3),
                "rotation" => (1, 4),
                "scale" => (2, 3),
                _ => continue,
            };
            let values = floats(&json, bin, sampler["output"].as_u64().unwrap() as usize, width);
            let k = times.iter().position(|&t| t >= time).unwrap_or(times.len() - 1);
            let value: Vec<f64> = if k > 0 && times[k] > time {
                let f = (time - times[k - 1]) / (times[k] - times[k - 1]);
                values[k - 1]
                    .iter()
                    .zip(&values[k])
                    .map(|(a, b)| f64::from(a + (b - a) * f))
                    .collect()
            } else {
                values[k].iter().map(|&x| f64::from(x)).collect()
            };
            trs[channel["target"]["node"].as_u64().unwrap() as usize][slot] = value;
        }
    }
    let mut parent = vec![None; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for c in n["children"].as_array().into_iter().flatten() {
            parent[c.as_u64().unwrap() as usize] = Some(i);
        }
    }
    let local = |i: usize| {
        let [t, r, s] = &trs[i];
        Transform {
            translation: Vec3::new(t[0], t[1], t[2]),
            rotation: Quat::new(r[0], r[1], r[2], r[3]).normalized(),
            scale: Vec3::new(s[0], s[1], s[2]),
        }
        .to_matrix()
        .rows
    };
    let mul = |a: [[f64; 4]; 4], b: [[f64; 4]; 4]| {
        let mut m = [[0.0; 4]; 4];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, x) in row.iter_mut().enumerate() {
                *x = (0..4).map(|k| a[r][k] * b[k][c]).sum();
            }
        }
        m
    };
    let mut out = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let mut m = local(i);
        let mut at = parent[i];
        while let Some(p) = at {
            m = mul(local(p), m);
            at = parent[p];
        }
        if let Some(name) = n["name"].as_str() {
            out.insert(name.to_string(), m);
        }
    }
    out
}

fn export(scene: &Scene) -> Vec<u8> {
    let mut report = ConversionReport::default();
    animbin_gltf::from_scene(scene, &SceneOptions::default(), &mut report).unwrap()
}

#[test]
fn every_bone_sits_in_the_glb_where_the_library_poses_it_at_each_key() {
    let scene = Scene {
        skeleton: rig(),
        animations: vec![animation()],
        placement: placement(),
        ..Scene::default()
    };
    let glb = export(&scene);
    let anim = &scene.animations[0];
    let mut checked = 0;
    for frame in [0.0, 5.0, 10.0, 20.0] {
        let expected = library_pose(&scene, anim, frame);
        let got = glb_pose(&glb, (frame / anim.framerate) as f32);
        for (bone, world) in scene.skeleton.bones.iter().zip(&expected) {
            let m = world.to_matrix().rows;
            let g = got[&bone.name];
            let off = (0..3)
                .flat_map(|r| (0..4).map(move |c| (r, c)))
                .map(|(r, c)| (m[r][c] - g[r][c]).abs())
                .fold(0.0, f64::max);
            assert!(off < 1e-5, "frame {frame}: bone {} off by {off}", bone.name);
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}

#[test]
fn compensating_bones_under_unscaled_parents_write_nothing_extra() {
    // The same rig and keys without any scale: the flags change no pose, so the glb is the
    // one full inheritance gives, byte for byte.
    let mut anim = animation();
    for track in &mut anim.bones {
        track.scale.clear();
    }
    let compensating = Scene {
        skeleton: rig(),
        animations: vec![anim],
        ..Scene::default()
    };
    let mut inheriting = compensating.clone();
    for bone in &mut inheriting.skeleton.bones {
        bone.scale_compensate = false;
    }
    assert!(pose::compensated_under_scaled_parents(&compensating).is_empty());
    assert_eq!(export(&compensating), export(&inheriting));
}

#[test]
fn a_scaled_parent_gets_one_compensation_node_per_compensating_child() {
    let scene = Scene {
        skeleton: rig(),
        animations: vec![animation()],
        ..Scene::default()
    };
    let glb = export(&scene);
    let (json, _) = chunks(&glb);
    let mut names: Vec<String> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str().filter(|n| n.ends_with(".ssc")).map(str::to_string))
        .collect();
    names.sort();
    // pelvis under the scaled root, head under spine (scale keys of its own), hand under arm
    // (scale keys, and spine's scale that it inherits).
    assert_eq!(names, ["hand.ssc", "head.ssc", "pelvis.ssc"]);
}

/// A 4x4 matrix product, rows of column-vector matrices.
fn mul4(a: [[f64; 4]; 4], b: [[f64; 4]; 4]) -> [[f64; 4]; 4] {
    let mut m = [[0.0; 4]; 4];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = (0..4).map(|k| a[r][k] * b[k][c]).sum();
        }
    }
    m
}

/// The axes of a matrix made unit length and square to each other as Blender's
/// inherit-scale None does: Y kept, X and Z made square to it and then turned towards each
/// other's square by equal angles.
fn blender_axes(m: &[[f64; 4]; 4]) -> [Vec3<f64>; 3] {
    let column = |c: usize| Vec3::new(m[0][c], m[1][c], m[2][c]);
    let unit = |v: Vec3<f64>| v * uniform(1.0 / v.dot(v).sqrt());
    let y = unit(column(1));
    let x = unit(column(0) - y * uniform(column(0).dot(y)));
    let z = unit(column(2) - y * uniform(column(2).dot(y)));
    let (middle, apart) = (unit(x + z), unit(x - z));
    let h = uniform(std::f64::consts::FRAC_1_SQRT_2);
    [(middle + apart) * h, y, (middle - apart) * h]
}

#[test]
fn a_compensating_bone_under_a_sheared_parent_sits_where_blender_puts_it() {
    // knee scales non-uniformly under a turn, ankle inherits that and turns (its matrix is
    // sheared), toe does not inherit scale: it must see ankle's axes without scale or shear.
    let mut skeleton = Skeleton {
        bones: vec![
            bone("hip", None, [0.0, 0.0, 1.0], [0.0, 0.0, 0.2588, 0.9659], false),
            bone("knee", Some(0), [0.0, -0.5, 0.0], [0.3827, 0.0, 0.0, 0.9239], false),
            bone("ankle", Some(1), [0.1, -0.4, 0.0], [0.0, 0.2588, 0.1, 0.9659], false),
            bone("toe", Some(2), [0.0, -0.1, 0.2], [0.1, 0.0, 0.0, 0.995], true),
        ],
        ..Skeleton::default()
    };
    skeleton.bones[1].local.scale = Vec3::new(1.25, 1.25, 1.0);
    skeleton.update_globals();
    let anim = Animation {
        name: "shear".into(),
        framerate: 10.0,
        frame_count: 11.0,
        bones: vec![
            BoneTrack {
                bone: "knee".into(),
                scale: vec![
                    Key::new(0.0, Vec3::new(1.25, 1.25, 1.0)),
                    Key::new(10.0, Vec3::new(0.8, 1.5, 2.0)),
                ]
                .into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "ankle".into(),
                rotation: vec![
                    Key::new(0.0, Quat::new(0.0, 0.2588, 0.1, 0.9659).normalized()),
                    Key::new(10.0, Quat::new(0.3, -0.2, 0.4, 0.8).normalized()),
                ]
                .into(),
                ..BoneTrack::default()
            },
        ],
        ..Animation::default()
    };
    let scene = Scene {
        skeleton,
        animations: vec![anim],
        ..Scene::default()
    };
    let mut report = ConversionReport::default();
    let glb = animbin_gltf::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    assert!(
        report.lost.iter().all(|l| !l.contains("not exact")),
        "{:?}",
        report.lost
    );
    let (json, _) = chunks(&glb);
    let names: Vec<&str> = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str())
        .filter(|n| n.contains(".ssc"))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.contains(&"toe.ssc") && names.contains(&"toe.ssc.turn"),
        "{names:?}"
    );
    let bones = &scene.skeleton.bones;
    // At the keys (between them glTF's slerp and `glb_pose`'s lerp of quaternions differ).
    for (key, frame) in [0.0, 10.0].into_iter().enumerate() {
        let track = &scene.animations[0].bones;
        let mut local: Vec<Transform> = bones.iter().map(|b| b.local).collect();
        local[1].scale = track[0].scale.get(key).unwrap().value;
        local[2].rotation = track[1].rotation.get(key).unwrap().value;
        let mut world: Vec<[[f64; 4]; 4]> = Vec::new();
        for (i, b) in bones.iter().enumerate() {
            let own = local[i].to_matrix().rows;
            let m = match b.parent {
                None => own,
                Some(p) if b.scale_compensate => {
                    let axes = blender_axes(&world[p]);
                    let mut turned = [[0.0; 4]; 4];
                    for r in 0..3 {
                        for c in 0..3 {
                            turned[r][c] = (0..3).map(|k| [axes[k].x, axes[k].y, axes[k].z][r] * own[k][c]).sum();
                        }
                    }
                    let t = local[i].translation;
                    let offset = mul4(
                        world[p],
                        [
                            [0.0, 0.0, 0.0, t.x],
                            [0.0, 0.0, 0.0, t.y],
                            [0.0, 0.0, 0.0, t.z],
                            [0.0, 0.0, 0.0, 1.0],
                        ],
                    );
                    for (r, row) in turned.iter_mut().enumerate().take(3) {
                        row[3] = offset[r][3];
                    }
                    turned[3][3] = 1.0;
                    turned
                }
                Some(p) => mul4(world[p], own),
            };
            world.push(m);
        }
        let got = glb_pose(&glb, (frame / 10.0) as f32);
        for (i, b) in bones.iter().enumerate() {
            let g = got[&b.name];
            let off = (0..3)
                .flat_map(|r| (0..4).map(move |c| (r, c)))
                .map(|(r, c)| (world[i][r][c] - g[r][c]).abs())
                .fold(0.0, f64::max);
            assert!(off < 1e-5, "frame {frame}: bone {} off by {off}", b.name);
        }
    }
}

#[test]
fn compensation_and_placement_nodes_read_back_as_the_flag_and_the_placement() {
    let scene = Scene {
        skeleton: rig(),
        animations: vec![animation()],
        placement: placement(),
        ..Scene::default()
    };
    let read = |glb: &[u8]| {
        let mut report = ConversionReport::default();
        let back = animbin_gltf::to_scene(glb, &SceneOptions::default(), &mut report).unwrap();
        (back, report.lost)
    };
    let (back, lost) = read(&export(&scene));
    // The same scene without the flags writes neither kind of node, and reads back with
    // the same values: so the nodes give back exactly what they stand for.
    let mut plain = scene.clone();
    for bone in &mut plain.skeleton.bones {
        bone.scale_compensate = false;
    }
    plain.placement = Transform::IDENTITY;
    let (mut expected, expected_lost) = read(&export(&plain));
    for name in ["pelvis", "head", "hand"] {
        let i = expected.skeleton.find(name).unwrap();
        expected.skeleton.bones[i].scale_compensate = true;
    }
    // The placement is f32 in the glb.
    let round = |v: f64| f64::from(v as f32);
    let p = placement();
    expected.placement = Transform {
        translation: p.translation.map(round),
        // Unit to f32's rounding, so read as the file has it.
        rotation: Quat::new(
            round(p.rotation.x),
            round(p.rotation.y),
            round(p.rotation.z),
            round(p.rotation.w),
        ),
        scale: p.scale.map(round),
    };
    let names = |s: &Scene| s.skeleton.bones.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&back), names(&scene));
    assert_eq!(lost, expected_lost);
    // Globals come from the inverse bind matrices, which the flags and placement change.
    let mut back = back;
    for (b, e) in back.skeleton.bones.iter_mut().zip(&expected.skeleton.bones) {
        b.global = e.global;
    }
    assert_eq!(back, expected);
}
