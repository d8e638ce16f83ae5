//! Dash Model Format samples: synthetic (no public DMF file exists), written by
//! `animbin-dmf`'s own writers, binary and JSON.

use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_dmf::{Animation, Bone, Bool16, Dmf, Face, Material, Name, ShaderType, Texture, Track, Vertex, Wrap};

use super::Sample;

const TARGETS: &[&str] = &["parse_dmf", "roundtrip_dmf", "model_dmf"];

/// A 2 x 2 RGBA checker PNG.
fn checker_png() -> Vec<u8> {
    let (light, dark) = ([0xF0, 0xF0, 0xF0, 0xFF], [0x20, 0x40, 0x80, 0xFF]);
    super::png::rgba(2, 2, &[light, dark, dark, light])
}

fn name(text: &str) -> Name {
    Name::new(text).expect("sample names fit")
}

/// Column-major translation matrix.
fn translate(x: f32, y: f32, z: f32) -> [f32; 16] {
    [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, z, 1.0]
}

/// A textured, skinned quad on a two-bone arm that waves: the README's sample.
fn sample() -> Dmf {
    let white = Rgba::new(255, 255, 255, 255);
    let up = Vec3::new(0.0, 0.0, 1.0);
    let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 2.0), (0.0, 2.0)];
    let vertices = corners
        .iter()
        .map(|&(x, y)| {
            let upper = y / 2.0;
            Vertex::new(Vec3::new(x, y, 0.0), [0, 1, 0, 0], [1.0 - upper, upper, 0.0, 0.0])
        })
        .collect();
    let uv = |i: usize| Vec2::new(corners[i].0, corners[i].1 / 2.0);
    let face = |[a, b, c]: [usize; 3]| {
        Face::new(
            0,
            [a as u32, b as u32, c as u32],
            [white; 3],
            [up; 3],
            [uv(a), uv(b), uv(c)],
        )
    };
    let half_turn = |t: f32| Quat::new(0.0, 0.0, (t * 0.5).sin(), (t * 0.5).cos());
    let mut dmf = Dmf {
        textures: vec![Texture {
            name: name("checker"),
            width: 2,
            height: 2,
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Repeat,
            png: checker_png(),
            ..Texture::default()
        }],
        materials: vec![Material {
            name: name("cloth"),
            texture: 0,
            skinning: Bool16::TRUE,
            shader_type: ShaderType::Lambert,
            ..Material::default()
        }],
        vertices,
        faces: vec![face([0, 1, 2]), face([0, 2, 3])],
        bones: vec![
            Bone::new(name("shoulder"), 0, -1, translate(0.0, 0.0, 0.0)),
            Bone::new(name("elbow"), 0, 0, translate(0.0, 1.0, 0.0)),
        ],
        animations: vec![Animation {
            name: name("wave"),
            fps: 30,
            duration: 1.0,
            tracks: (0..=4)
                .map(|k| {
                    let t = k as f32 * 0.25;
                    let angle = (t * std::f32::consts::TAU).sin() * 0.5;
                    let pos = (k == 0).then_some(Vec3::new(0.0, 1.0, 0.0));
                    Track::new(1, t, pos, Some(half_turn(angle)), None)
                })
                .collect(),
            ..Animation::default()
        }],
    };
    dmf.renumber();
    dmf
}

/// A skeleton of five bones and two animations, no mesh: animation-only data.
fn rig() -> Dmf {
    let mut dmf = Dmf {
        bones: (0..5)
            .map(|i| {
                let parent = i16::try_from(i).unwrap_or(0) - 1;
                Bone::new(name(&format!("joint{i}")), 0, parent, translate(0.0, 0.5, 0.0))
            })
            .collect(),
        animations: ["idle", "bend"]
            .iter()
            .enumerate()
            .map(|(a, anim)| Animation {
                name: name(anim),
                fps: 60,
                duration: 0.5,
                tracks: (0..5i16)
                    .flat_map(|bone| {
                        (0..3).map(move |k| {
                            let t = k as f32 * 0.25;
                            let scale = 1.0 + 0.1 * a as f32 * k as f32;
                            Track::new(bone, t, None, None, Some(Vec3::new(scale, scale, scale)))
                        })
                    })
                    .collect(),
                ..Animation::default()
            })
            .collect(),
        ..Dmf::default()
    };
    dmf.renumber();
    dmf
}

fn binary(dmf: &Dmf) -> Vec<u8> {
    animbin_dmf::to_bytes(dmf).expect("the samples are encodable")
}

pub(crate) fn samples() -> Vec<Sample> {
    let sample = sample();
    debug_assert!(animbin_dmf::validate(&sample).is_empty());
    vec![
        Sample::new("sample.dmf", binary(&sample), TARGETS, true),
        Sample::new(
            "sample.dmf.json",
            animbin_dmf::json::to_vec(&sample).expect("the sample is JSON-encodable"),
            TARGETS,
            true,
        ),
        Sample::new("rig.dmf", binary(&rig()), TARGETS, false),
        Sample::new("empty.dmf", binary(&Dmf::default()), TARGETS, false),
    ]
}
