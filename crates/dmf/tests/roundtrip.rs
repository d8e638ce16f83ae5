//! Round trips: model -> bytes -> model, canonical bytes -> model -> bytes, and the same
//! through the JSON form, over generated models.

use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_dmf::{
    Animation, BlendEquation, BlendFactor, Bone, Bool16, Dmf, Face, Material, Name, PrsFlags, ShaderType, Side,
    Texture, Track, Vertex, View, Wrap,
};
use proptest::prelude::*;
use zerocopy::little_endian::{F32, I16, U16};

/// What a generated model may hold: anything the writer accepts, or only what JSON can hold
/// too (finite floats, zero `nop` bytes and zero unset transforms).
#[derive(Debug, Clone, Copy)]
enum Kind {
    Binary,
    Json,
}

fn name() -> impl Strategy<Value = Name> {
    prop_oneof![
        "[a-z_][a-z0-9_.]{0,30}",
        "\\PC{0,7}", // any printable text; 7 chars of up to 4 bytes fit 31 bytes
    ]
    .prop_filter_map("fits 31 bytes", |s| Name::new(&s).ok())
}

/// A float: any bit pattern for binary models (NaN payloads included), finite for JSON.
fn float(kind: Kind) -> BoxedStrategy<f32> {
    match kind {
        Kind::Binary => any::<u32>().prop_map(f32::from_bits).boxed(),
        Kind::Json => prop_oneof![
            any::<u32>()
                .prop_map(f32::from_bits)
                .prop_filter("finite", |f| f.is_finite()),
            Just(0.0f32),
            Just(-0.0f32),
            Just(1.0f32),
            Just(f32::MIN_POSITIVE / 2.0),
        ]
        .boxed(),
    }
}

fn floats<const N: usize>(kind: Kind) -> impl Strategy<Value = [f32; N]> {
    prop::collection::vec(float(kind), N).prop_map(|v| std::array::from_fn(|i| v[i]))
}

fn bool16() -> impl Strategy<Value = Bool16> {
    prop_oneof![4 => any::<bool>().prop_map(Bool16::from), 1 => any::<u16>().prop_map(|v| Bool16(U16::new(v)))]
}

fn nop(kind: Kind) -> BoxedStrategy<[u8; 12]> {
    match kind {
        Kind::Binary => any::<[u8; 12]>().boxed(),
        Kind::Json => Just([0u8; 12]).boxed(),
    }
}

fn pick<T: Copy + std::fmt::Debug + 'static>(all: &'static [T]) -> impl Strategy<Value = T> {
    prop::sample::select(all)
}

fn texture(kind: Kind) -> impl Strategy<Value = Texture> {
    (
        name(),
        bool16(),
        any::<(u16, u16)>(),
        pick(Wrap::ALL),
        pick(Wrap::ALL),
        nop(kind),
        prop::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(name, flip_y, (width, height), wrap_s, wrap_t, nop, png)| Texture {
            id: 0,
            name,
            flip_y,
            width,
            height,
            wrap_s,
            wrap_t,
            nop,
            png,
        })
}

fn material(kind: Kind) -> impl Strategy<Value = Material> {
    (
        (name(), any::<i16>(), prop::collection::vec(bool16(), 6)),
        (
            pick(BlendEquation::ALL),
            pick(BlendFactor::ALL),
            pick(BlendFactor::ALL),
            pick(ShaderType::ALL),
            pick(Side::ALL),
            pick(Side::ALL),
        ),
        (float(kind), floats::<4>(kind), floats::<4>(kind), floats::<4>(kind)),
    )
        .prop_map(
            |(
                (name, texture, bools),
                (blend_equation, blend_src, blend_dst, shader_type, face_side, shadow_side),
                (alpha_test, [r, g, b, a], emissive, specular),
            )| Material {
                id: 0,
                name,
                texture,
                use_blending: bools[0],
                blend_equation,
                blend_src,
                blend_dst,
                skinning: bools[1],
                shader_type,
                face_side,
                shadow_side,
                ignore_lights: bools[2],
                vertex_color: bools[3],
                use_alpha: bools[4],
                skip_render: bools[5],
                alpha_test,
                diffuse: Rgba::new(r, g, b, a),
                emissive,
                specular,
            },
        )
}

fn vertex(kind: Kind) -> impl Strategy<Value = Vertex> {
    (floats::<3>(kind), any::<[i16; 4]>(), floats::<4>(kind))
        .prop_map(|([x, y, z], index, weight)| Vertex::new(Vec3::new(x, y, z), index, weight))
}

fn face(kind: Kind) -> impl Strategy<Value = Face> {
    (
        any::<u16>(),
        any::<[u32; 3]>(),
        any::<[[u8; 4]; 3]>(),
        floats::<9>(kind),
        floats::<6>(kind),
        any::<u16>(),
    )
        .prop_map(move |(mat, indices, colors, n, uv, nop)| {
            let mut face = Face::new(
                mat,
                indices,
                colors.map(|[r, g, b, a]| Rgba::new(r, g, b, a)),
                std::array::from_fn(|c| Vec3::new(n[c * 3], n[c * 3 + 1], n[c * 3 + 2])),
                std::array::from_fn(|c| Vec2::new(uv[c * 2], uv[c * 2 + 1])),
            );
            if matches!(kind, Kind::Binary) {
                face.nop = U16::new(nop);
            }
            face
        })
}

/// A skeleton whose parents come before their children.
fn bones(kind: Kind) -> impl Strategy<Value = Vec<Bone>> {
    (0..6usize).prop_flat_map(move |n| {
        (0..n)
            .map(|i| {
                (name(), -1..i as i16, floats::<16>(kind), nop(kind)).prop_map(|(name, parent, matrix, nop)| {
                    let mut bone = Bone::new(name, 0, parent, matrix);
                    bone.nop = nop;
                    bone
                })
            })
            .collect::<Vec<_>>()
    })
}

fn track(kind: Kind) -> impl Strategy<Value = Track> {
    (
        any::<i16>(),
        1..=7i16,
        float(kind),
        floats::<3>(kind),
        floats::<4>(kind),
        floats::<3>(kind),
    )
        .prop_map(move |(bone, flags, time, p, r, s)| {
            let flags = PrsFlags::from_bits_retain(flags);
            let pos = flags.contains(PrsFlags::POSITION).then(|| Vec3::new(p[0], p[1], p[2]));
            let rot = flags
                .contains(PrsFlags::ROTATION)
                .then(|| Quat::new(r[0], r[1], r[2], r[3]));
            let scl = flags.contains(PrsFlags::SCALE).then(|| Vec3::new(s[0], s[1], s[2]));
            let mut track = Track::new(bone, time, pos, rot, scl);
            if matches!(kind, Kind::Binary) {
                // A binary model keeps whatever an unset transform holds.
                track.pos = Vec3::new(p[0], p[1], p[2]).map(F32::new);
                track.rot = Quat::new(r[0], r[1], r[2], r[3]).map(F32::new);
                track.scl = Vec3::new(s[0], s[1], s[2]).map(F32::new);
            }
            track
        })
}

fn animation(kind: Kind) -> impl Strategy<Value = Animation> {
    (
        name(),
        any::<u16>(),
        float(kind),
        prop::collection::vec(track(kind), 0..8),
    )
        .prop_map(|(name, fps, duration, tracks)| Animation {
            id: 0,
            name,
            fps,
            duration,
            tracks,
        })
}

fn model(kind: Kind) -> impl Strategy<Value = Dmf> {
    (
        prop::collection::vec(texture(kind), 0..3),
        prop::collection::vec(material(kind), 0..3),
        prop::collection::vec(vertex(kind), 0..12),
        prop::collection::vec(face(kind), 0..6),
        bones(kind),
        prop::collection::vec(animation(kind), 0..3),
    )
        .prop_map(|(textures, materials, vertices, faces, bones, animations)| {
            let mut dmf = Dmf {
                textures,
                materials,
                vertices,
                faces,
                bones,
                animations,
            };
            dmf.renumber();
            dmf
        })
}

/// Compares models by their canonical bytes where NaN floats make `==` useless.
fn same_bytes(a: &Dmf, b: &Dmf) -> bool {
    animbin_dmf::to_bytes(a).unwrap() == animbin_dmf::to_bytes(b).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn binary_model_bytes_model(dmf in model(Kind::Binary)) {
        let bytes = animbin_dmf::to_bytes(&dmf).unwrap();
        let back = animbin_dmf::read(&bytes).unwrap();
        // Records compare bit for bit; the few native floats may be NaN, so compare bytes too.
        prop_assert_eq!(&back.vertices, &dmf.vertices);
        prop_assert_eq!(&back.faces, &dmf.faces);
        prop_assert_eq!(&back.bones, &dmf.bones);
        prop_assert!(same_bytes(&back, &dmf));
    }

    #[test]
    fn binary_model_bytes_model_is_equal_for_finite_floats(dmf in model(Kind::Json)) {
        let bytes = animbin_dmf::to_bytes(&dmf).unwrap();
        prop_assert_eq!(animbin_dmf::read(&bytes).unwrap(), dmf);
    }

    #[test]
    fn canonical_bytes_model_bytes(dmf in model(Kind::Binary)) {
        let bytes = animbin_dmf::to_bytes(&dmf).unwrap();
        let again = animbin_dmf::to_bytes(&animbin_dmf::read(&bytes).unwrap()).unwrap();
        prop_assert_eq!(again, bytes);
    }

    #[test]
    fn the_view_sees_what_the_writer_wrote(dmf in model(Kind::Binary)) {
        let bytes = animbin_dmf::to_bytes(&dmf).unwrap();
        let view = View::parse(&bytes).unwrap();
        prop_assert_eq!(view.vertices(), &dmf.vertices[..]);
        prop_assert_eq!(view.faces(), &dmf.faces[..]);
        prop_assert_eq!(view.bones(), &dmf.bones[..]);
        prop_assert_eq!(view.textures().len(), dmf.textures.len());
        for (i, texture) in dmf.textures.iter().enumerate() {
            prop_assert_eq!(view.png(i).unwrap(), &texture.png[..]);
        }
        for (i, animation) in dmf.animations.iter().enumerate() {
            prop_assert_eq!(view.tracks(i).unwrap(), &animation.tracks[..]);
        }
        prop_assert_eq!(view.track_count(), dmf.track_count() as u64);
        // Canonical: every section on a 4-byte boundary, the file ends with its last section.
        for attribute in view.attributes() {
            prop_assert_eq!(attribute.offset.get() % 4, 0);
            prop_assert_eq!(attribute.offset.get() == 0, attribute.count.get() == 0);
        }
    }

    #[test]
    fn json_model_json_model(dmf in model(Kind::Json)) {
        let json = animbin_dmf::json::to_vec(&dmf).unwrap();
        prop_assert_eq!(animbin_dmf::json::read(&json).unwrap(), dmf.clone());
        // Through a serde_json::Value too (the path of `animbin dump`).
        let value = animbin_dmf::json::to_value(&dmf).unwrap();
        prop_assert_eq!(animbin_dmf::json::from_value(&value).unwrap(), dmf);
    }

    #[test]
    fn any_model_dump_value_model(dmf in model(Kind::Binary)) {
        // The dump's value keeps what the specified form has no place for: NaN payloads,
        // `nop` bytes and the transforms a track's flags leave unset.
        let value = animbin_dmf::json::to_value(&dmf).unwrap();
        let back = animbin_dmf::json::from_value(&value).unwrap();
        // As above: records bit for bit, and the native floats (maybe NaN) through the bytes.
        prop_assert_eq!(&back.vertices, &dmf.vertices);
        prop_assert_eq!(&back.faces, &dmf.faces);
        prop_assert_eq!(&back.bones, &dmf.bones);
        prop_assert!(same_bytes(&back, &dmf));
    }

    #[test]
    fn canonical_bytes_json_bytes(dmf in model(Kind::Json)) {
        let bytes = animbin_dmf::to_bytes(&dmf).unwrap();
        let json = animbin_dmf::json::to_vec(&animbin_dmf::read(&bytes).unwrap()).unwrap();
        // `read` takes a file without the DASH magic as JSON.
        let again = animbin_dmf::to_bytes(&animbin_dmf::read(&json).unwrap()).unwrap();
        prop_assert_eq!(again, bytes);
    }

    #[test]
    fn any_bytes_read_or_fail_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let mut with_magic = b"DASH\x01\x00\x05\x00\x10\x00\x00\x00\x06\x00\x00\x00".to_vec();
        with_magic.extend_from_slice(&bytes);
        for input in [&bytes, &with_magic] {
            if let Ok(dmf) = animbin_dmf::read(input) {
                let _ = animbin_dmf::validate(&dmf);
            }
        }
    }
}

#[test]
fn floats_that_an_f64_round_trip_would_change_survive_the_json_form() {
    // 0x15ae43fd is written "7.038531e-26"; that text's nearest f64, rounded to f32, is not
    // 0x15ae43fd. Both the text and the serde_json::Value path must keep it.
    let bits = [0x15ae_43fd_u32, 0x0000_0001, 0x7f7f_ffff, 0x8000_0000, 0x3dcc_cccd];
    let dmf = Dmf {
        vertices: bits
            .iter()
            .map(|&b| {
                let f = f32::from_bits(b);
                Vertex::new(Vec3::new(f, f, f), [0; 4], [f; 4])
            })
            .collect(),
        ..Dmf::default()
    };
    let json = animbin_dmf::json::to_vec(&dmf).unwrap();
    assert!(String::from_utf8_lossy(&json).contains("7.038531e-26"));
    assert_eq!(animbin_dmf::json::read(&json).unwrap(), dmf);
    let value = animbin_dmf::json::to_value(&dmf).unwrap();
    let back = animbin_dmf::json::from_value(&value).unwrap();
    let got: Vec<u32> = back.vertices.iter().map(|v| v.pos.x.get().to_bits()).collect();
    assert_eq!(got, bits);
}

#[test]
fn an_id_that_does_not_fit_i16_cannot_match_its_position() {
    let mut dmf = Dmf {
        bones: (0..32_769)
            .map(|i| {
                let parent = if i == 0 { -1 } else { 0 };
                Bone::new(Name::new(&format!("b{i}")).unwrap(), 0, parent, [0.0; 16])
            })
            .collect(),
        ..Dmf::default()
    };
    dmf.renumber();
    assert_eq!(dmf.bones[32_767].bone_id.get(), 32_767);
    assert_eq!(dmf.bones[32_768].bone_id, I16::new(0), "left for the writer to refuse");
    let err = animbin_dmf::to_bytes(&dmf).unwrap_err();
    assert!(err.to_string().contains("bone 32768 has id 0"), "{err}");
}
