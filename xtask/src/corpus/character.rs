//! The character of `testdata/character/`: a small skinned figure and the animations made
//! for it, one scene written by every format that can hold it, so that a model and an
//! animation opened together look as they should.
//!
//! The figure stands on the ground at the origin, Z up, in metres, facing -Y with its left
//! side at +X, as the SE formats' games and Blender have it (a glTF output of the game
//! formats takes `--z-up`; `character.glb` and `character.fbx` are written so). Its 24 bones
//! rest without rotation, each at its joint, so a key is the joint's turn. Two meshes of boxes
//! and tapered eight-sided cylinders, each part bound whole to one bone: `body` in the
//! clothes texture (shirt, trousers, shoes) and `skin` in the skin texture (head with a face
//! and hair, neck, hands). Two animations at 30 frames per second, keyed on every frame and on
//! every bone: `walk` (one loop of two steps in place, 30 frames; the hips ride on the lower
//! foot, whose sole stays flat on the ground) and `wave` (the right arm lifts, waves three
//! times and comes down, 60 frames). Every value is an `f32`, as every format stores them,
//! so a file read back gives the scene's values exactly.

use std::f64::consts::PI;

use animbin::{ConvertOptions, Target};
use animbin_core::SceneOptions;
use animbin_core::math::{Quat, Transform, Vec2, Vec3};
use animbin_core::scene::{
    AnimKind, Animation, Bone, BoneTrack, Interpolation, Key, KeyValue, Keys, Material, Mesh, NodeKind, Scene,
    Skeleton, SkinBlend, SkinWeights, Texture,
};

use super::Sample;

/// The skin texture's file name (face, hair, plain skin).
pub(crate) const SKIN_TEXTURE: &str = "character_skin.png";
/// The clothes texture's file name (shirt, trousers, shoes).
pub(crate) const CLOTHES_TEXTURE: &str = "character_clothes.png";

/// Frames per second of both animations.
const FRAMERATE: f64 = 30.0;
/// The walk's loop: two steps.
const WALK_FRAMES: u32 = 30;
/// The wave: lift (12 frames), three waves (36), lower (12).
const WAVE_FRAMES: u32 = 60;

/// The bones: name, parent, the joint's offset from the parent's joint.
const BONES: [(&str, Option<&str>, [f64; 3]); 24] = [
    ("root", None, [0.0, 0.0, 0.0]),
    ("hips", Some("root"), [0.0, 0.0, 0.95]),
    ("spine", Some("hips"), [0.0, 0.0, 0.10]),
    ("chest", Some("spine"), [0.0, 0.0, 0.20]),
    ("neck", Some("chest"), [0.0, 0.0, 0.25]),
    ("head", Some("neck"), [0.0, 0.0, 0.10]),
    ("shoulder_l", Some("chest"), [0.08, 0.0, 0.20]),
    ("upper_arm_l", Some("shoulder_l"), [0.17, 0.0, 0.0]),
    ("forearm_l", Some("upper_arm_l"), [0.0, 0.0, -0.28]),
    ("hand_l", Some("forearm_l"), [0.0, 0.0, -0.25]),
    ("fingers_l", Some("hand_l"), [0.0, 0.0, -0.09]),
    ("shoulder_r", Some("chest"), [-0.08, 0.0, 0.20]),
    ("upper_arm_r", Some("shoulder_r"), [-0.17, 0.0, 0.0]),
    ("forearm_r", Some("upper_arm_r"), [0.0, 0.0, -0.28]),
    ("hand_r", Some("forearm_r"), [0.0, 0.0, -0.25]),
    ("fingers_r", Some("hand_r"), [0.0, 0.0, -0.09]),
    ("thigh_l", Some("hips"), [0.10, 0.0, -0.03]),
    ("shin_l", Some("thigh_l"), [0.0, 0.0, -0.42]),
    ("foot_l", Some("shin_l"), [0.0, 0.0, -0.42]),
    ("toe_l", Some("foot_l"), [0.0, -0.13, -0.05]),
    ("thigh_r", Some("hips"), [-0.10, 0.0, -0.03]),
    ("shin_r", Some("thigh_r"), [0.0, 0.0, -0.42]),
    ("foot_r", Some("shin_r"), [0.0, 0.0, -0.42]),
    ("toe_r", Some("foot_r"), [0.0, -0.13, -0.05]),
];

/// The thigh's and the shin's length: hip to knee, knee to ankle.
const LEG_SEGMENT: f64 = 0.42;
/// The ankle's height above the ground when the sole is flat.
const ANKLE_HEIGHT: f64 = 0.08;
/// The hip joints' offset below the hips bone.
const HIP_DROP: f64 = 0.03;

/// A place in a texture, as glTF counts it: `u` from the left, `v` from the top.
#[derive(Clone, Copy)]
struct Region {
    u: [f32; 2],
    v: [f32; 2],
}

impl Region {
    /// The region `u0..u1`, `v0..v1` of a 64-pixel texture, inset by one pixel so that a
    /// filtered sample never reads a neighbour.
    const fn inset(u0: f32, u1: f32, v0: f32, v1: f32) -> Self {
        const PIXEL: f32 = 1.0 / 64.0;
        Self {
            u: [u0 + PIXEL, u1 - PIXEL],
            v: [v0 + PIXEL, v1 - PIXEL],
        }
    }

    fn at(&self, s: f32, t: f32) -> Vec2<f32> {
        Vec2::new(
            self.u[0] + s * (self.u[1] - self.u[0]),
            self.v[0] + t * (self.v[1] - self.v[0]),
        )
    }
}

// The clothes texture: the shirt over the top half, trousers bottom left, shoes bottom right.
const SHIRT: Region = Region::inset(0.0, 1.0, 0.0, 0.5);
const TROUSERS: Region = Region::inset(0.0, 0.5, 0.5, 1.0);
const SHOES: Region = Region::inset(0.5, 1.0, 0.5, 1.0);
// The skin texture: the face top left, hair top right, plain skin along the bottom half.
const FACE: Region = Region::inset(0.0, 0.5, 0.0, 0.5);
const HAIR: Region = Region::inset(0.5, 1.0, 0.0, 0.5);
const SKIN: Region = Region::inset(0.0, 1.0, 0.5, 1.0);

/// A mesh being built: rigid parts, each bound whole to one bone.
#[derive(Default)]
struct Part {
    positions: Vec<Vec3<f32>>,
    normals: Vec<Vec3<f32>>,
    uvs: Vec<Vec2<f32>>,
    bones: Vec<u32>,
    faces: Vec<[u32; 3]>,
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let length = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    [a[0] / length, a[1] / length, a[2] / length]
}

fn vec3(a: [f64; 3]) -> Vec3<f32> {
    Vec3::new(a[0] as f32, a[1] as f32, a[2] as f32)
}

impl Part {
    fn vertex(&mut self, bone: usize, position: [f64; 3], normal: [f64; 3], uv: Vec2<f32>) -> u32 {
        self.positions.push(vec3(position));
        self.normals.push(vec3(normal));
        self.uvs.push(uv);
        self.bones.push(bone as u32);
        (self.positions.len() - 1) as u32
    }

    /// A flat quad whose texture's top left is at `origin`, its top edge along `u` and its
    /// left edge along `v`; it faces `v x u`, and its triangles turn counter-clockwise seen
    /// from there.
    fn quad(&mut self, bone: usize, origin: [f64; 3], u: [f64; 3], v: [f64; 3], region: Region) {
        let normal = unit(cross(v, u));
        let corner = |s: f64, t: f64| {
            [
                origin[0] + s * u[0] + t * v[0],
                origin[1] + s * u[1] + t * v[1],
                origin[2] + s * u[2] + t * v[2],
            ]
        };
        let [a, b, c, d] = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .map(|(s, t)| self.vertex(bone, corner(s, t), normal, region.at(s as f32, t as f32)));
        self.faces.extend([[a, d, c], [a, c, b]]);
    }

    /// A box from `min` to `max`; `front` is the region of its -Y face (where the figure
    /// looks), `top` of its +Z and back faces, `rest` of the others.
    fn cuboid(&mut self, bone: usize, min: [f64; 3], max: [f64; 3], front: Region, top: Region, rest: Region) {
        let [x0, y0, z0] = min;
        let [x1, y1, z1] = max;
        let (dx, dy, dz) = (x1 - x0, y1 - y0, z1 - z0);
        self.quad(bone, [x0, y0, z1], [dx, 0.0, 0.0], [0.0, 0.0, -dz], front);
        self.quad(bone, [x1, y1, z1], [-dx, 0.0, 0.0], [0.0, 0.0, -dz], top);
        self.quad(bone, [x1, y0, z1], [0.0, dy, 0.0], [0.0, 0.0, -dz], rest);
        self.quad(bone, [x0, y1, z1], [0.0, -dy, 0.0], [0.0, 0.0, -dz], rest);
        self.quad(bone, [x0, y1, z1], [dx, 0.0, 0.0], [0.0, -dy, 0.0], top);
        self.quad(bone, [x0, y0, z0], [dx, 0.0, 0.0], [0.0, dy, 0.0], rest);
    }

    /// A box in one region.
    fn block(&mut self, bone: usize, min: [f64; 3], max: [f64; 3], region: Region) {
        self.cuboid(bone, min, max, region, region, region);
    }

    /// An eight-sided cylinder standing on the Z axis through `(x, y)`, from `top` (radius
    /// `top_radius`) down to `bottom`, with both ends closed; the side's texture wraps round
    /// from the front.
    fn cylinder(
        &mut self,
        bone: usize,
        (x, y): (f64, f64),
        [top, bottom]: [f64; 2],
        [top_radius, bottom_radius]: [f64; 2],
        region: Region,
    ) {
        const SIDES: usize = 8;
        let direction = |i: usize| {
            let angle = 2.0 * PI * i as f64 / SIDES as f64;
            [angle.sin(), -angle.cos(), 0.0]
        };
        let ring = |i: usize, z: f64, radius: f64| {
            let d = direction(i);
            [x + radius * d[0], y + radius * d[1], z]
        };
        let first = self.positions.len() as u32;
        for i in 0..=SIDES {
            let s = i as f32 / SIDES as f32;
            self.vertex(bone, ring(i, top, top_radius), direction(i), region.at(s, 0.0));
            self.vertex(bone, ring(i, bottom, bottom_radius), direction(i), region.at(s, 1.0));
        }
        for i in 0..SIDES as u32 {
            let (t0, b0, t1, b1) = (first + 2 * i, first + 2 * i + 1, first + 2 * i + 2, first + 2 * i + 3);
            self.faces.extend([[t0, b0, b1], [t0, b1, t1]]);
        }
        for (z, radius, up) in [(top, top_radius, 1.0), (bottom, bottom_radius, -1.0)] {
            let normal = [0.0, 0.0, up];
            let centre = self.vertex(bone, [x, y, z], normal, region.at(0.5, 0.5));
            let rim: Vec<u32> = (0..SIDES)
                .map(|i| {
                    let d = direction(i);
                    let uv = region.at(0.5 + 0.5 * d[0] as f32, 0.5 + 0.5 * d[1] as f32);
                    self.vertex(bone, ring(i, z, radius), normal, uv)
                })
                .collect();
            for i in 0..SIDES {
                let (a, b) = (rim[i], rim[(i + 1) % SIDES]);
                self.faces.push(if up > 0.0 { [centre, a, b] } else { [centre, b, a] });
            }
        }
    }

    fn into_mesh(self, name: &str, material: usize) -> Mesh {
        Mesh {
            name: name.into(),
            positions: self.positions,
            normals: self.normals,
            uv_layers: vec![self.uvs],
            skin: Some(SkinWeights {
                influences: 1,
                weights: vec![1.0; self.bones.len()],
                bones: self.bones,
                blend: SkinBlend::Linear,
                skin: None,
            }),
            faces: self.faces,
            materials: vec![Some(material)],
            ..Mesh::default()
        }
    }
}

/// The index of the bone called `name`.
fn bone(name: &str) -> usize {
    BONES
        .iter()
        .position(|(n, ..)| *n == name)
        .unwrap_or_else(|| panic!("no bone {name}"))
}

/// The skeleton at rest: every bone unturned at its joint.
fn skeleton() -> Skeleton {
    let mut skeleton = Skeleton {
        bones: BONES
            .iter()
            .map(|&(name, parent, [x, y, z])| Bone {
                name: name.into(),
                parent: parent.map(bone),
                local: Transform {
                    translation: Vec3::new(x, y, z).map(|v| f64::from(v as f32)),
                    ..Transform::IDENTITY
                },
                global: Transform::IDENTITY,
                cosmetic: false,
                scale_compensate: false,
                rest_scale: Vec3::ONE,
                kind: NodeKind::Bone,
            })
            .collect(),
        ..Skeleton::default()
    };
    skeleton.update_globals();
    // The formats that store both poses store f32s; the sums above are f64s.
    for bone in &mut skeleton.bones {
        bone.global.translation = bone.global.translation.map(single);
    }
    skeleton
}

/// The two meshes at rest, in model space: `body` (material 0, clothes) and `skin`
/// (material 1).
fn meshes() -> Vec<Mesh> {
    let mut body = Part::default();
    body.block(bone("hips"), [-0.16, -0.10, 0.84], [0.16, 0.10, 1.04], TROUSERS);
    body.block(bone("spine"), [-0.15, -0.09, 1.02], [0.15, 0.09, 1.27], SHIRT);
    body.block(bone("chest"), [-0.19, -0.11, 1.25], [0.19, 0.11, 1.52], SHIRT);
    for (side, x) in [("l", 1.0), ("r", -1.0)] {
        let limb = |name: &str| bone(&format!("{name}_{side}"));
        body.cylinder(limb("upper_arm"), (0.25 * x, 0.0), [1.49, 1.15], [0.05, 0.042], SHIRT);
        body.cylinder(limb("forearm"), (0.25 * x, 0.0), [1.19, 0.93], [0.042, 0.034], SHIRT);
        body.cylinder(limb("thigh"), (0.10 * x, 0.0), [0.96, 0.48], [0.078, 0.056], TROUSERS);
        body.cylinder(limb("shin"), (0.10 * x, 0.0), [0.52, 0.09], [0.056, 0.042], TROUSERS);
        let foot = [0.10 * x - 0.05, 0.10 * x + 0.05];
        body.block(limb("foot"), [foot[0], -0.14, 0.0], [foot[1], 0.06, 0.10], SHOES);
        body.block(limb("toe"), [foot[0], -0.22, 0.0], [foot[1], -0.13, 0.06], SHOES);
    }
    let mut skin = Part::default();
    skin.cylinder(bone("neck"), (0.0, 0.0), [1.60, 1.48], [0.05, 0.055], SKIN);
    skin.cuboid(bone("head"), [-0.10, -0.11, 1.57], [0.10, 0.11, 1.83], FACE, HAIR, SKIN);
    for (side, x) in [("l", 1.0), ("r", -1.0)] {
        let limb = |name: &str| bone(&format!("{name}_{side}"));
        skin.block(
            limb("hand"),
            [0.25 * x - 0.025, -0.045, 0.83],
            [0.25 * x + 0.025, 0.045, 0.93],
            SKIN,
        );
        skin.block(
            limb("fingers"),
            [0.25 * x - 0.022, -0.042, 0.76],
            [0.25 * x + 0.022, 0.042, 0.84],
            SKIN,
        );
    }
    vec![body.into_mesh("body", 0), skin.into_mesh("skin", 1)]
}

fn materials() -> Vec<Material> {
    [("clothes", CLOTHES_TEXTURE), ("skin", SKIN_TEXTURE)]
        .map(|(name, texture)| Material {
            name: name.into(),
            diffuse_map: Some(texture.into()),
            ..Material::default()
        })
        .to_vec()
}

/// A turn of `degrees` about `axis` (0 = X, 1 = Y, 2 = Z).
fn turn(axis: usize, degrees: f64) -> Quat<f64> {
    let half = degrees.to_radians() / 2.0;
    let mut xyz = [0.0; 3];
    xyz[axis] = half.sin();
    Quat::new(xyz[0], xyz[1], xyz[2], half.cos())
}

/// A pose: each bone's turn, and the hips' height.
struct Pose {
    turns: Vec<Quat<f64>>,
    hips_height: f64,
}

impl Pose {
    fn rest() -> Self {
        Self {
            turns: vec![Quat::IDENTITY; BONES.len()],
            hips_height: BONES[bone("hips")].2[2],
        }
    }

    /// Turns bone `name` by `turn` after the turns it has.
    fn turn(&mut self, name: &str, turn: Quat<f64>) {
        let i = bone(name);
        self.turns[i] = turn * self.turns[i];
    }
}

/// How far below the hip joint a leg's ankle is, with the thigh swung `thigh` degrees
/// (forward is negative) and the knee bent `knee` degrees.
fn reach(thigh: f64, knee: f64) -> f64 {
    LEG_SEGMENT * thigh.to_radians().cos() + LEG_SEGMENT * (thigh + knee).to_radians().cos()
}

/// The walk at `frame`: the legs swing 25 degrees each way, the knee of the swinging leg
/// bends to lift its foot, each foot is kept level, and the hips sit on the lower leg so that
/// its sole is on the ground; arms swing against the legs, the shoulders turn against the
/// hips, and the head looks straight ahead.
fn walk(frame: u32) -> Pose {
    let phase = 2.0 * PI * f64::from(frame) / f64::from(WALK_FRAMES);
    let (sin, cos) = phase.sin_cos();
    let mut pose = Pose::rest();
    // The left leg swings forward while cos > 0 (its angle falls), the right one while cos < 0.
    let legs = [("l", -25.0 * sin, cos), ("r", 25.0 * sin, -cos)];
    let mut lowest = 0.0f64;
    for (side, thigh, swinging) in legs {
        let knee = 5.0 + 45.0 * swinging.max(0.0).powi(2);
        pose.turn(&format!("thigh_{side}"), turn(0, thigh));
        pose.turn(&format!("shin_{side}"), turn(0, knee));
        pose.turn(&format!("foot_{side}"), turn(0, -(thigh + knee)));
        lowest = lowest.max(reach(thigh, knee));
    }
    pose.hips_height = ANKLE_HEIGHT + HIP_DROP + lowest;
    pose.turn("hips", turn(2, -6.0 * sin));
    pose.turn("spine", turn(0, 3.0));
    pose.turn("spine", turn(2, 3.0 * sin));
    pose.turn("chest", turn(2, 6.0 * sin));
    pose.turn("neck", turn(2, -3.0 * sin));
    pose.turn("head", turn(0, -3.0));
    for (side, sign) in [("l", 1.0), ("r", -1.0)] {
        pose.turn(&format!("upper_arm_{side}"), turn(0, 20.0 * sign * sin));
        pose.turn(&format!("upper_arm_{side}"), turn(1, -6.0 * sign));
        pose.turn(&format!("forearm_{side}"), turn(0, -20.0 + 10.0 * sign * sin));
    }
    pose
}

/// `0` at `from`, `1` at `to`, easing in and out between.
fn ease(x: f64, from: f64, to: f64) -> f64 {
    let t = ((x - from) / (to - from)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The wave at `frame`: the right arm lifts up and out over 12 frames, the forearm waves
/// three times across the vertical, and the arm comes down again; the head tilts towards
/// it and the chest breathes.
fn wave(frame: u32) -> Pose {
    let f = f64::from(frame);
    let end = f64::from(WAVE_FRAMES);
    let lifted = ease(f, 0.0, 12.0) * (1.0 - ease(f, end - 12.0, end));
    let waving = if (12.0..end - 12.0).contains(&f) {
        (2.0 * PI * (f - 12.0) / 12.0).sin()
    } else {
        0.0
    };
    let mut pose = Pose::rest();
    pose.turn("upper_arm_r", turn(1, 6.0 + 144.0 * lifted));
    pose.turn("forearm_r", turn(1, 30.0 * lifted + 25.0 * waving));
    pose.turn("hand_r", turn(1, 10.0 * waving));
    pose.turn("upper_arm_l", turn(1, -6.0));
    pose.turn("forearm_l", turn(0, -10.0));
    pose.turn("head", turn(1, -8.0 * lifted));
    pose.turn("chest", turn(0, -1.5 * (2.0 * PI * f / 30.0).sin()));
    for side in ["l", "r"] {
        pose.turn(&format!("shin_{side}"), turn(0, 3.0));
        pose.turn(&format!("thigh_{side}"), turn(0, -1.5));
        pose.turn(&format!("foot_{side}"), turn(0, -1.5));
    }
    pose.hips_height = ANKLE_HEIGHT + HIP_DROP + reach(-1.5, 3.0);
    pose
}

/// A value as the formats store it: an `f32`.
fn single(value: f64) -> f64 {
    f64::from(value as f32)
}

/// Keys of `(frame, value)` pairs.
fn keyed<T: KeyValue>(values: Vec<(f64, T)>) -> Keys<T> {
    values
        .into_iter()
        .map(|(frame, value)| Key::new(frame, value))
        .collect()
}

/// Frames between keys: the motion is smooth, and linear interpolation over two frames keeps
/// its shape.
const KEY_STEP: usize = 2;

/// The animation `name` of `frames` frames, keyed every [`KEY_STEP`] frames from 0 to
/// `frames` (the last key is the first again for a loop): every bone's turn, and the hips'
/// place; a bone that does not move has one key, its rest.
fn animation(name: &str, frames: u32, looping: bool, pose_at: fn(u32) -> Pose) -> Animation {
    let key_frames: Vec<u32> = (0..=frames).step_by(KEY_STEP).collect();
    let poses: Vec<Pose> = key_frames.iter().map(|&f| pose_at(f)).collect();
    let bones = BONES
        .iter()
        .enumerate()
        .map(|(i, &(name, _, [x, y, _]))| {
            let mut turns: Vec<(f64, Quat<f64>)> = key_frames
                .iter()
                .zip(&poses)
                .map(|(&frame, pose)| {
                    let q = pose.turns[i];
                    (
                        f64::from(frame),
                        Quat::new(single(q.x), single(q.y), single(q.z), single(q.w)),
                    )
                })
                .collect();
            if turns.iter().all(|(_, q)| *q == Quat::IDENTITY) {
                turns.truncate(1);
            }
            let places: Vec<(f64, Vec3<f64>)> = if i == bone("hips") {
                key_frames
                    .iter()
                    .zip(&poses)
                    .map(|(&frame, pose)| {
                        (
                            f64::from(frame),
                            Vec3::new(single(x), single(y), single(pose.hips_height)),
                        )
                    })
                    .collect()
            } else {
                Vec::new()
            };
            BoneTrack {
                bone: name.into(),
                translation: keyed(places),
                rotation: keyed(turns),
                ..BoneTrack::default()
            }
        })
        .collect();
    Animation {
        name: name.into(),
        framerate: FRAMERATE,
        frame_count: f64::from(frames + 1),
        looping,
        kind: AnimKind::Absolute,
        interpolation: Interpolation::Linear,
        bones,
        ..Animation::default()
    }
}

/// The character: its skeleton, meshes and materials, and the walk and the wave.
pub(crate) fn scene() -> Scene {
    Scene {
        skeleton: skeleton(),
        meshes: meshes(),
        materials: materials(),
        animations: vec![
            animation("walk", WALK_FRAMES, true, walk),
            animation("wave", WAVE_FRAMES, false, wave),
        ],
        name: "character".into(),
        ..Scene::default()
    }
}

/// A texture of 64 x 64 pixels, each pixel `colour(x, y)` (from the top left).
fn texture(colour: impl Fn(usize, usize) -> [u8; 3]) -> Vec<u8> {
    let pixels: Vec<[u8; 4]> = (0..64 * 64)
        .map(|i| {
            let [r, g, b] = colour(i % 64, i / 64);
            [r, g, b, 0xFF]
        })
        .collect();
    super::png::rgba(64, 64, &pixels)
}

/// Whether `(x, y)` lies in the rectangle from `(x0, y0)` to `(x1, y1)`, both included.
fn inside((x, y): (usize, usize), (x0, y0): (usize, usize), (x1, y1): (usize, usize)) -> bool {
    (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
}

/// The skin texture: a face over the top left quarter (hair along its top, brows, eyes,
/// nose and mouth), hair over the top right, plain skin below.
fn skin_texture() -> Vec<u8> {
    const SKIN: [u8; 3] = [0xE8, 0xB8, 0x90];
    const HAIR: [u8; 3] = [0x4A, 0x2C, 0x18];
    texture(|x, y| {
        let p = (x, y);
        if y >= 32 {
            return SKIN;
        }
        if x >= 32 {
            return HAIR;
        }
        // The face, 32 x 32 pixels: its left is the figure's right.
        let fringe = y < 6 || (y < 9 && !(6..=25).contains(&x));
        let brows = inside(p, (7, 10), (12, 11)) || inside(p, (19, 10), (24, 11));
        if fringe || brows {
            HAIR
        } else if inside(p, (9, 13), (10, 15)) || inside(p, (21, 13), (22, 15)) {
            [0x20, 0x30, 0x50] // pupils
        } else if inside(p, (7, 13), (12, 15)) || inside(p, (19, 13), (24, 15)) {
            [0xF8, 0xF8, 0xF8] // eyes
        } else if inside(p, (15, 15), (16, 19)) {
            [0xD0, 0x98, 0x74] // nose
        } else if inside(p, (11, 23), (20, 24)) {
            [0xB0, 0x40, 0x40] // mouth
        } else {
            SKIN
        }
    })
}

/// The clothes texture: a teal shirt with a light band over the top half, blue trousers with
/// a seam bottom left, brown shoes with a grey sole bottom right.
fn clothes_texture() -> Vec<u8> {
    texture(|x, y| match (x, y) {
        (_, 0..=31) if (14..=18).contains(&y) => [0xE0, 0xE0, 0xC8],
        (_, 0..=31) => [0x28, 0x8C, 0x96],
        (0..=31, _) if x == 15 || x == 16 => [0x20, 0x2A, 0x50],
        (0..=31, _) => [0x30, 0x3C, 0x70],
        (_, 56..) => [0x90, 0x90, 0x90],
        _ => [0x60, 0x38, 0x20],
    })
}

/// The textures of the other model samples, which name them (`sample.semodel`'s body maps,
/// `sample.cast`'s paint), shipped in `testdata/textures/` where a conversion looks for them:
/// a warm checker, a flat normal map, a grey specular map and a striped paint.
pub(crate) fn sample_textures() -> Vec<Sample> {
    let image = |colour: &dyn Fn(usize, usize) -> [u8; 4]| {
        let pixels: Vec<[u8; 4]> = (0..16 * 16).map(|i| colour(i % 16, i / 16)).collect();
        super::png::rgba(16, 16, &pixels)
    };
    let file = Sample::file;
    vec![
        file(
            "textures/body_c.png",
            image(&|x, y| {
                if (x / 4 + y / 4) % 2 == 0 {
                    [0xD8, 0x90, 0x50, 0xFF]
                } else {
                    [0x90, 0x50, 0x30, 0xFF]
                }
            }),
        ),
        file("textures/body_n.png", image(&|_, _| [0x80, 0x80, 0xFF, 0xFF])),
        file("textures/body_s.png", image(&|_, _| [0x40, 0x40, 0x40, 0xFF])),
        file(
            "textures/paint_c.png",
            image(&|_, y| {
                if y % 4 < 2 {
                    [0xC0, 0x30, 0x30, 0xFF]
                } else {
                    [0xF0, 0xF0, 0xF0, 0xFF]
                }
            }),
        ),
    ]
}

/// The character's textures: `(file name, PNG bytes)`.
pub(crate) fn textures() -> Vec<(String, Vec<u8>)> {
    vec![
        (CLOTHES_TEXTURE.to_string(), clothes_texture()),
        (SKIN_TEXTURE.to_string(), skin_texture()),
    ]
}

/// `scene` as `target`, with the textures given so that the formats that embed them do;
/// Z up for the graph formats, whose readers expect Y up. What a target cannot hold (the
/// model's name in SEModel, the looping flag in FBX...) is left out as a conversion leaves it
/// out; the tests below list it.
pub(crate) fn write(scene: &Scene, target: Target) -> Vec<u8> {
    let graph = matches!(target, Target::Glb | Target::Gltf | Target::Fbx);
    let options = ConvertOptions {
        scene: SceneOptions {
            z_up: graph,
            ..SceneOptions::default()
        },
        textures: textures(),
        ..ConvertOptions::default()
    };
    let conversion = animbin::convert_scene(scene, target, &options)
        .unwrap_or_else(|e| panic!("the character converts to {}: {e}", target.name()));
    conversion
        .to_bytes()
        .unwrap_or_else(|e| panic!("the character writes as {}: {e}", target.name()))
}

/// The character with only the animations called `animations` and, for `model`, its
/// meshes and materials.
pub(crate) fn part(scene: &Scene, model: bool, animations: &[&str]) -> Scene {
    let mut part = scene.clone();
    part.animations.retain(|a| animations.contains(&a.name.as_str()));
    if !model {
        part.meshes.clear();
        part.materials.clear();
    }
    part
}

/// The character with its textures embedded and its materials naming no file, for DMF,
/// which holds images rather than file names.
pub(crate) fn embedded(mut scene: Scene) -> Scene {
    let textures = textures();
    for material in &mut scene.materials {
        let name = material.diffuse_map.take();
        material.texture = textures.iter().position(|(n, _)| Some(n) == name.as_ref());
    }
    scene.textures = textures
        .into_iter()
        .map(|(name, data)| Texture {
            name,
            data,
            mime_type: String::new(),
        })
        .collect();
    scene
}

/// Each file of the character: its path under `testdata/`, the part of the scene it holds
/// (model, animation) and its target.
pub(crate) const FILES: [(&str, bool, &[&str], Target); 9] = [
    ("character/character.semodel", true, &[], Target::SeModel),
    ("character/character_walk.seanim", false, &["walk"], Target::SeAnim),
    ("character/character_wave.seanim", false, &["wave"], Target::SeAnim),
    ("character/character.cast", true, &["walk", "wave"], Target::Cast),
    ("character/character.dmf", true, &["walk", "wave"], Target::Dmf),
    ("character/character_walk.animx", false, &["walk"], Target::AnimX),
    ("character/character_walk.animj", false, &["walk"], Target::AnimJ),
    ("character/character.glb", true, &["walk", "wave"], Target::Glb),
    ("character/character.fbx", true, &["walk", "wave"], Target::Fbx),
];

pub(crate) fn samples() -> Vec<Sample> {
    let scene = scene();
    let mut samples: Vec<Sample> = FILES
        .iter()
        .map(|&(name, model, animations, target)| {
            let targets: &'static [&'static str] = match target {
                Target::SeModel => &["parse_semodel"],
                Target::SeAnim => &["parse_seanim"],
                Target::Cast => &["parse_cast"],
                Target::Dmf => &["parse_dmf"],
                Target::AnimX | Target::AnimJ => &["parse_animx"],
                Target::Glb => &["parse_gltf"],
                _ => &["parse_fbx"],
            };
            let mut part = part(&scene, model, animations);
            if target == Target::Dmf {
                part = embedded(part);
            }
            Sample::new(name, write(&part, target), targets, true)
        })
        .collect();
    samples.push(Sample::file("character/character_clothes.png", clothes_texture()));
    samples.push(Sample::file("character/character_skin.png", skin_texture()));
    samples
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use animbin::{Document, writable_targets};
    use animbin_core::math::Rgba;
    use animbin_core::scene::ConversionReport;
    use serde_json::{Map, Value, json};

    use super::*;

    fn testdata() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata")
    }

    /// A scene value as JSON.
    macro_rules! value {
        ($v:expr) => {
            serde_json::to_value($v).expect("scene values serialise")
        };
    }

    /// A scene as values that mean the same whatever order a format keeps: bones by name
    /// with their parent's name, each mesh as its sorted triangles (each corner's position,
    /// normal, UV and bone weights by bone name, the corners turned to start at the least
    /// and so keeping the winding), tracks by bone name with keys in seconds, a channel
    /// holding only its bone's rest left out (it plays as no keys).
    fn canonical(scene: &Scene) -> Value {
        let bones = &scene.skeleton.bones;
        let bone_name = |i: usize| bones.get(i).map_or(String::new(), |b| b.name.clone());
        let skeleton: Map<String, Value> = bones
            .iter()
            .map(|b| {
                let parent = b.parent.map(bone_name);
                (
                    b.name.clone(),
                    json!({"parent": parent, "local": value!(b.local), "global": value!(b.global)}),
                )
            })
            .collect();
        let meshes: Vec<Value> = scene
            .meshes
            .iter()
            .map(|mesh| {
                let corner = |v: u32| {
                    let v = v as usize;
                    let weights: Vec<Value> = mesh.skin.as_ref().map_or(Vec::new(), |skin| {
                        let range = v * skin.influences..(v + 1) * skin.influences;
                        skin.bones[range.clone()]
                            .iter()
                            .zip(&skin.weights[range])
                            .filter(|(_, w)| **w > 0.0)
                            .map(|(&b, w)| json!([bone_name(b as usize), w]))
                            .collect()
                    });
                    let uvs: Vec<Value> = mesh.uv_layers.iter().map(|layer| value!(layer[v])).collect();
                    json!([value!(mesh.positions[v]), value!(mesh.normals.get(v)), uvs, weights])
                };
                let mut triangles: Vec<Value> = mesh
                    .faces
                    .iter()
                    .map(|face| {
                        let mut corners: Vec<Value> = face.iter().map(|&v| corner(v)).collect();
                        let texts: Vec<String> = corners.iter().map(Value::to_string).collect();
                        let least = (0..3).min_by_key(|&i| &texts[i]).unwrap_or(0);
                        corners.rotate_left(least);
                        Value::Array(corners)
                    })
                    .collect();
                triangles.sort_by_key(Value::to_string);
                let materials: Vec<Value> = mesh
                    .materials
                    .iter()
                    .map(|m| value!(m.and_then(|m| scene.materials.get(m)).map(|m| &m.name)))
                    .collect();
                json!({"name": mesh.name, "materials": materials, "triangles": triangles})
            })
            .collect();
        let animations: Vec<Value> = scene
            .animations
            .iter()
            .map(|animation| {
                let seconds = |frame: f64| frame / animation.framerate;
                let tracks: Map<String, Value> = animation
                    .bones
                    .iter()
                    .filter_map(|track| {
                        let rest = scene.skeleton.find(&track.bone).map(|b| bones[b].local);
                        let mut channels = Map::new();
                        let translation: Vec<_> = track.translation.iter().collect();
                        let rotation: Vec<_> = track.rotation.iter().collect();
                        let at_rest_t =
                            rest.is_some_and(|r| translation.len() == 1 && translation[0].value == r.translation);
                        let at_rest_r = rest.is_some_and(|r| rotation.len() == 1 && rotation[0].value == r.rotation);
                        if !translation.is_empty() && !at_rest_t {
                            let keys: Vec<Value> = translation
                                .iter()
                                .map(|k| json!([seconds(k.frame), value!(k.value)]))
                                .collect();
                            channels.insert("translation".into(), Value::Array(keys));
                        }
                        if !rotation.is_empty() && !at_rest_r {
                            let keys: Vec<Value> = rotation
                                .iter()
                                .map(|k| json!([seconds(k.frame), value!(k.value)]))
                                .collect();
                            channels.insert("rotation".into(), Value::Array(keys));
                        }
                        assert!(track.scale.is_empty(), "{}: the character scales no bone", track.bone);
                        (!channels.is_empty()).then(|| (track.bone.clone(), Value::Object(channels)))
                    })
                    .collect();
                json!({
                    "name": animation.name,
                    "seconds": seconds(animation.frame_count),
                    "looping": animation.looping,
                    "kind": value!(animation.kind),
                    "interpolation": value!(animation.interpolation),
                    "tracks": tracks,
                })
            })
            .collect();
        json!({
            "name": scene.name,
            "skeleton": skeleton,
            "meshes": meshes,
            "materials": value!(&scene.materials),
            "textures": value!(&scene.textures),
            "animations": animations,
        })
    }

    /// `got` is `want`, numbers within `tolerance` of `want`'s (relative past 1); `at` says
    /// where the two part.
    fn assert_close(got: &Value, want: &Value, tolerance: f64, at: &str) {
        match (got, want) {
            (Value::Number(g), Value::Number(w)) => {
                let (g, w) = (g.as_f64().unwrap_or(f64::NAN), w.as_f64().unwrap_or(f64::NAN));
                assert!(
                    (g - w).abs() <= tolerance * w.abs().max(1.0),
                    "{at}: {g} where {w} was written"
                );
            }
            (Value::Array(g), Value::Array(w)) => {
                assert_eq!(
                    g.len(),
                    w.len(),
                    "{at}: {} entries where {} were written",
                    g.len(),
                    w.len()
                );
                for (i, (g, w)) in g.iter().zip(w).enumerate() {
                    assert_close(g, w, tolerance, &format!("{at}[{i}]"));
                }
            }
            (Value::Object(g), Value::Object(w)) => {
                let keys = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
                assert_eq!(keys(g), keys(w), "{at}: the fields read and written");
                for (key, w) in w {
                    assert_close(&g[key], w, tolerance, &format!("{at}.{key}"));
                }
            }
            _ => assert_eq!(got, want, "{at}"),
        }
    }

    /// What the character's file of `target` holds of `want` (the part written to it): the
    /// scene less what the format cannot hold, as its crate documents it.
    fn held_by(target: Target, mut want: Scene) -> Scene {
        let no_loop = |scene: &mut Scene| scene.animations.iter_mut().for_each(|a| a.looping = false);
        match target {
            // SEModel stores no model or mesh name, and always the three map names.
            Target::SeModel => {
                want.name.clear();
                for mesh in &mut want.meshes {
                    mesh.name.clear();
                }
                for material in &mut want.materials {
                    material.normal_map = Some(String::new());
                    material.specular_map = Some(String::new());
                }
            }
            // SEAnim names bones but stores no skeleton, and no animation name (the file's
            // stem names it).
            Target::SeAnim => {
                want.skeleton = Skeleton::default();
                want.name.clear();
                want.animations.iter_mut().for_each(|a| a.name.clear());
            }
            // DMF names no model or mesh (a mesh takes its material's name), gives every
            // material a colour, and has no looping flag.
            Target::Dmf => {
                want.name.clear();
                for (mesh, name) in want.meshes.iter_mut().zip(["clothes", "skin"]) {
                    mesh.name = name.into();
                }
                for material in &mut want.materials {
                    material.base_color = Some(Rgba::new(1.0, 1.0, 1.0, 1.0));
                }
                no_loop(&mut want);
            }
            // AnimX holds tracks alone, in seconds (read at its 60 frames per second), with
            // no looping flag.
            Target::AnimX | Target::AnimJ => {
                want.skeleton = Skeleton::default();
                want.name.clear();
                no_loop(&mut want);
            }
            // FBX has no looping flag; the model's name is not read back (nor reported lost by
            // the writer: left to the FBX crate).
            Target::Fbx => {
                want.name.clear();
                no_loop(&mut want);
            }
            _ => {}
        }
        want
    }

    /// Each file of the character reads back as the part of the scene written to it, whole:
    /// every bone, vertex, triangle, material, texture and key, exactly where the format
    /// stores the `f32`s given (SEModel, SEAnim, Cast, glTF) and to 1e-6 where it stores
    /// matrices, Euler angles or seconds (DMF, FBX, AnimX).
    #[test]
    fn every_file_of_the_character_reads_back_as_the_scene_written_to_it() {
        let scene = scene();
        for (name, model, animations, target) in FILES {
            let bytes = std::fs::read(testdata().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let document = Document::parse(&bytes, Some(Path::new(name))).unwrap_or_else(|e| panic!("{name}: {e}"));
            let options = SceneOptions {
                z_up: matches!(target, Target::Glb | Target::Fbx),
                ..SceneOptions::default()
            };
            let mut report = ConversionReport::default();
            let got = document
                .to_scene(&options, &mut report)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(report.lost, Vec::<String>::new(), "{name}: read whole");
            let mut written = part(&scene, model, animations);
            if target == Target::Dmf {
                written = embedded(written);
            }
            let want = held_by(target, written);
            let tolerance = match target {
                Target::Dmf | Target::Fbx | Target::AnimX | Target::AnimJ => 1e-6,
                _ => 0.0,
            };
            assert_close(&canonical(&got), &canonical(&want), tolerance, name);
        }
    }

    /// What converting the character may lose, each for a reason of the target's format
    /// (what it cannot hold) or of the source's (FBX keeps rotations as Euler angles, read back
    /// as f64 quaternions; AnimX keeps f32 seconds, read back at 60 frames per second).
    const LOSSES: &[&str] = &[
        // The target holds less than the character.
        "the model name (",
        "mesh names",
        "the looping flag",
        "looping (FBX animation stacks do not loop)",
        "the animation's name",
        "animations after the first (",
        "animations (SEModel holds a model only)",
        "the skeleton (",
        "skeleton and meshes (AnimX holds animation tracks only)",
        "materials and textures (AnimX holds animation tracks only)",
        "meshes, materials and textures",
        "texture maps by file name (DMF embeds its textures)",
        "embedded textures",
        "material base colours and embedded texture links",
        "material links to embedded textures",
        "a skeleton for animated bones (added as roots with an identity bind pose)",
        "animated bones that the input has no skeleton for",
        "animation names (segments are numbered)",
        "bone names (slots are numbered)",
        "translation and scale precision finer than 1/65536",
        "rotation precision finer than 1/16384",
        "material definitions (the draft layout has no material block",
        "normal precision (the draft layout stores half floats)",
        "weight precision (the draft layout stores half floats)",
        // The source holds more digits or other frames than the target.
        "precision of times or values that f32 cannot hold exactly",
        "fractional frames (rounded to whole frames)",
        "a fractional frame count",
        "(Cast derives the length from the last key",
        "bind pose digits beyond f32",
        "key values beyond f32",
        "key values beyond single precision",
    ];

    /// The targets each file of the character converts to with no loss at all.
    const LOSSLESS: &[(&str, &[Target])] = &[
        (
            "character.semodel",
            &[Target::SeModel, Target::Glb, Target::Gltf, Target::Cast, Target::Fbx],
        ),
        (
            "character_walk.seanim",
            &[Target::SeAnim, Target::Glb, Target::Gltf, Target::Cast],
        ),
        (
            "character_wave.seanim",
            &[Target::SeAnim, Target::Glb, Target::Gltf, Target::Cast],
        ),
        ("character.cast", &[Target::Cast, Target::Glb, Target::Gltf]),
        (
            "character.dmf",
            &[Target::Dmf, Target::DmfJson, Target::Glb, Target::Gltf, Target::Fbx],
        ),
        (
            "character_walk.animx",
            &[Target::AnimX, Target::AnimJ, Target::Glb, Target::Gltf],
        ),
        (
            "character_walk.animj",
            &[Target::AnimX, Target::AnimJ, Target::Glb, Target::Gltf],
        ),
        ("character.glb", &[Target::Glb, Target::Gltf, Target::Cast]),
        ("character.fbx", &[Target::Fbx]),
    ];

    /// Every file of `testdata/character/` converts to every target that can hold part of
    /// it, as the command converts it (textures looked for beside it), losing only what the
    /// target's format cannot hold; the richest targets lose nothing.
    #[test]
    fn the_character_converts_to_every_target_losing_only_what_the_target_cannot_hold() {
        let mut conversions = 0;
        for (file, lossless) in LOSSLESS {
            let path = testdata().join("character").join(file);
            let document = Document::open(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
            let targets = writable_targets(&document, &SceneOptions::default());
            for target in lossless.iter() {
                assert!(targets.contains(target), "{file} can be written as {}", target.name());
            }
            for target in targets {
                let conversion = animbin::convert(&document, target, &ConvertOptions::for_input(&path))
                    .unwrap_or_else(|e| panic!("{file} -> {}: {e}", target.name()));
                let lost = conversion.lost_lines();
                if lossless.contains(&target) {
                    assert_eq!(lost, Vec::<String>::new(), "{file} -> {}", target.name());
                }
                for line in lost {
                    assert!(
                        LOSSES.iter().any(|expected| line.contains(expected)),
                        "{file} -> {}: {line}",
                        target.name()
                    );
                }
                conversion
                    .to_bytes()
                    .unwrap_or_else(|e| panic!("{file} -> {}: {e}", target.name()));
                conversions += 1;
            }
        }
        // 9 files, each to 7 to 13 targets.
        assert!(conversions >= 90, "{conversions} conversions");
    }

    /// Every file the character's table names is a sample, and the folder holds nothing else
    /// but its two textures.
    #[test]
    fn the_character_folder_holds_the_listed_files_and_its_textures() {
        let mut on_disk: Vec<String> = std::fs::read_dir(testdata().join("character"))
            .expect("testdata/character/ is committed")
            .map(|e| e.expect("a folder entry").file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = FILES
            .iter()
            .map(|(name, ..)| name.trim_start_matches("character/").to_string())
            .chain([CLOTHES_TEXTURE.to_string(), SKIN_TEXTURE.to_string()])
            .collect();
        listed.sort();
        assert_eq!(on_disk, listed);
        let lossless: Vec<&str> = LOSSLESS.iter().map(|(file, _)| *file).collect();
        for (name, ..) in FILES {
            assert!(lossless.contains(&name.trim_start_matches("character/")), "{name}");
        }
    }
}
