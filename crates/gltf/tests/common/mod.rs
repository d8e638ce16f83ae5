//! Scenes shared by the tests.
#![allow(dead_code)]

use animbin_core::SceneOptions;
use animbin_core::math::{Quat, Rgba, Transform, Vec2, Vec3};
use animbin_core::scene::{
    AnimKind, Animation, Bone, BoneTrack, Interpolation, Key, Material, Mesh, Note, PropertyTrack, Scene, Skeleton,
    SkinWeights, Texture,
};

/// A 1x1 RGBA PNG.
pub use animbin_testing::gltf::PNG_1X1 as PNG;

pub fn bone(name: &str, parent: Option<usize>, t: [f64; 3], r: [f64; 4]) -> Bone {
    Bone {
        kind: Default::default(),
        scale_compensate: false,
        rest_scale: Vec3::ONE,
        name: name.into(),
        parent,
        local: Transform {
            translation: Vec3::new(t[0], t[1], t[2]),
            rotation: Quat::new(r[0], r[1], r[2], r[3]).normalized(),
            scale: Vec3::ONE,
        },
        global: Transform::IDENTITY,
        cosmetic: false,
    }
}

pub fn skeleton() -> Skeleton {
    let mut s = Skeleton {
        bones: vec![
            bone("tag_origin", None, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
            bone("j_spine", Some(0), [0.0, 0.0, 40.0], [0.0, 0.0, 0.38268343, 0.92387953]),
            bone("j_head", Some(1), [0.0, 0.0, 20.0], [0.1, 0.0, 0.0, 0.99]),
            bone("j_gun", None, [10.0, 5.0, 30.0], [0.0, 0.0, 0.0, 1.0]),
            bone("j_mag", Some(3), [0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        ],
        ..Default::default()
    };
    s.update_globals();
    s
}

/// A skinned quad with every attribute, on the skeleton above.
pub fn mesh() -> Mesh {
    Mesh {
        name: "body".into(),
        positions: vec![
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 60.0),
            Vec3::new(-1.0, 0.0, 60.0),
        ],
        normals: vec![Vec3::new(0.0, -1.0, 0.0); 4],
        uv_layers: vec![
            vec![
                Vec2::new(0.0, 1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 0.0),
            ],
            vec![Vec2::new(0.5, 0.5); 4],
        ],
        colors: vec![
            Rgba::new(255, 0, 0, 255),
            Rgba::new(0, 255, 0, 255),
            Rgba::new(0, 0, 255, 128),
            Rgba::new(1, 2, 3, 4),
        ],
        skin: Some(SkinWeights {
            skin: None,
            influences: 3,
            bones: vec![0, 1, 0, 1, 0, 0, 2, 1, 0, 2, 0, 0],
            weights: vec![0.75, 0.25, 0.0, 1.0, 0.0, 0.0, 0.5, 0.3, 0.2, 1.0, 0.0, 0.0],
            blend: Default::default(),
        }),
        faces: vec![[0, 1, 2], [0, 2, 3]],
        materials: vec![Some(0), Some(1)],
        morph_targets: Vec::new(),
        ..Default::default()
    }
}

pub fn materials() -> (Vec<Material>, Vec<Texture>) {
    (
        vec![
            Material {
                links: Vec::new(),
                surface: None,
                name: "skin".into(),
                diffuse_map: Some("textures\\body col.png".into()),
                normal_map: Some("body_n.png".into()),
                specular_map: Some("body_s.png".into()),
                texture: None,
                base_color: None,
            },
            Material {
                name: "embedded".into(),
                texture: Some(0),
                base_color: Some(Rgba::new(0.5, 0.25, 1.0, 1.0)),
                ..Material::default()
            },
        ],
        vec![Texture {
            name: "dot.png".into(),
            data: PNG.to_vec(),
            mime_type: String::new(),
        }],
    )
}

fn keys3(frames: &[f64], f: impl Fn(f64) -> [f64; 3]) -> Vec<Key<Vec3<f64>>> {
    frames
        .iter()
        .map(|&t| {
            let v = f(t);
            Key::new(t, Vec3::new(v[0], v[1], v[2]))
        })
        .collect()
}

fn quat_keys(frames: &[f64]) -> Vec<Key<Quat<f64>>> {
    frames
        .iter()
        .map(|&t| Key::new(t, Quat::new(0.0, 0.0, (t * 0.05).sin(), (t * 0.05).cos()).normalized()))
        .collect()
}

/// A relative animation with a modifier override, notes, a property track, a cosmetic track,
/// a track without keys and a track for a bone that is not in the skeleton.
pub fn animation() -> Animation {
    Animation {
        name: "walk".into(),
        framerate: 30.0,
        frame_count: 21.0,
        looping: true,
        kind: AnimKind::Relative,
        interpolation: Interpolation::Linear,
        bones: vec![
            BoneTrack {
                bone: "tag_origin".into(),
                translation: keys3(&[0.0, 10.0, 20.0], |t| [t, 0.0, 0.0]).into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "j_spine".into(),
                rotation: quat_keys(&[0.0, 5.0, 20.0]).into(),
                scale: keys3(&[0.0, 20.0], |t| [1.0 + t / 100.0; 3]).into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "j_gun".into(),
                kind_override: Some(AnimKind::Additive),
                translation: keys3(&[0.0, 20.0], |t| [0.0, t / 10.0, 0.0]).into(),
                rotation: quat_keys(&[0.0, 20.0]).into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "j_mag".into(),
                cosmetic: true,
                translation: keys3(&[3.0], |_| [0.0, -1.0, 0.5]).into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "j_head".into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "tag_flash".into(),
                rotation: quat_keys(&[0.0, 1.0]).into(),
                ..BoneTrack::default()
            },
        ],
        notes: vec![
            Note {
                frame: 4.0,
                name: "step_left".into(),
            },
            Note {
                frame: 14.0,
                name: "step_right".into(),
            },
        ],
        properties: vec![PropertyTrack {
            node: "light".into(),
            property: "Intensity".into(),
            format: "animx".into(),
            data: vec![1, 2, 3, 250],
        }],
        weights: Vec::new(),
    }
}

pub fn step_animation() -> Animation {
    Animation {
        name: "blink".into(),
        framerate: 24.0,
        frame_count: 7.0,
        interpolation: Interpolation::Step,
        bones: vec![BoneTrack {
            bone: "j_head".into(),
            rotation: quat_keys(&[0.0, 3.0, 6.0]).into(),
            translation: keys3(&[1.0, 2.0], |t| [t, t, t]).into(),
            ..BoneTrack::default()
        }],
        ..Animation::default()
    }
}

/// A model with everything the scene model holds, and two animations.
pub fn full_scene() -> Scene {
    let (materials, textures) = materials();
    Scene {
        placement: Default::default(),
        skeleton: skeleton(),
        meshes: vec![mesh()],
        materials,
        textures,
        animations: vec![animation(), step_animation()],
        ..Default::default()
    }
}

/// An SEAnim-like scene: one animation and nothing else.
pub fn animation_only() -> Scene {
    let mut anim = animation();
    anim.kind = AnimKind::Absolute;
    for t in &mut anim.bones {
        t.kind_override = None;
    }
    Scene {
        animations: vec![anim],
        ..Scene::default()
    }
}

/// The full scene with two hairs (one of three strands with a material, one of strands
/// without segments) and two instances of other scene files, with values as Cast stores them
/// (`f32`).
pub fn groomed_scene() -> Scene {
    use animbin_core::scene::{Hair, Instance};
    let strand = |x: f32, n: usize| (0..n).map(move |j| Vec3::new(x, j as f32 * 0.25, 1.5));
    let half = f64::from(std::f32::consts::FRAC_1_SQRT_2);
    Scene {
        hairs: vec![
            Hair {
                name: "fringe".into(),
                segments: vec![2, 1, 3],
                particles: strand(0.0, 3).chain(strand(1.0, 2)).chain(strand(2.0, 4)).collect(),
                material: Some(1),
            },
            Hair {
                name: "stubble".into(),
                segments: vec![0, 0],
                particles: vec![Vec3::new(0.5, 0.5, 0.5), Vec3::new(-0.5, 0.5, 0.5)],
                material: None,
            },
        ],
        instances: vec![
            Instance {
                name: "hat".into(),
                path: "props/hat.cast".into(),
                placement: Transform {
                    translation: Vec3::new(0.0, 0.25, 1.75),
                    rotation: Quat::new(0.0, 0.0, half, half),
                    scale: Vec3::new(2.0, 2.0, 2.0),
                },
            },
            Instance {
                name: String::new(),
                path: "C:/scenes/ëxample/tree.cast".into(),
                placement: Transform::IDENTITY,
            },
        ],
        ..full_scene()
    }
}

/// The options round trips are tried with: none, and the axis node with a unit scale of 0.5
/// (a power of two scales `f32` values exactly, so they read back bit for bit).
pub fn axis_and_scale_options() -> [SceneOptions; 2] {
    [
        SceneOptions::default(),
        SceneOptions {
            z_up: true,
            unit_scale: 0.5,
            ..SceneOptions::default()
        },
    ]
}
