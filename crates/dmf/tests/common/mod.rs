//! The shared fixture: a small model written out byte by byte, and the model it holds.
#![allow(dead_code)]

use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_dmf::{
    Animation, BlendEquation, BlendFactor, Bone, Bool16, Dmf, Face, Material, Name, ShaderType, Side, Texture, Track,
    Vertex, Wrap,
};
use animbin_testing::hex;

/// The fixture, in the canonical layout (the writer's output must match it byte for byte).
pub fn fixture() -> Vec<u8> {
    hex(r#"
    44 41 53 48                                      # 0x0000 magic "DASH"
    01 00 05 00                                      # 0x0004 version 1.5
    10 00 00 00 06 00 00 00                          # 0x0008 attribute table at 0x10, 6 entries
    74 65 78 00 00 00 00 00 70 00 00 00 01 00 00 00  # 0x0010 tex: 1 at 0x70
    6d 61 74 00 00 00 00 00 bc 00 00 00 01 00 00 00  # 0x0020 mat: 1 at 0xbc
    76 65 72 74 00 00 00 00 2c 01 00 00 03 00 00 00  # 0x0030 vert: 3 at 0x12c
    66 61 63 65 00 00 00 00 98 01 00 00 01 00 00 00  # 0x0040 face: 1 at 0x198
    62 6f 6e 65 00 00 00 00 f0 01 00 00 02 00 00 00  # 0x0050 bone: 2 at 0x1f0
    61 6e 69 6d 00 00 00 00 d0 02 00 00 01 00 00 00  # 0x0060 anim: 1 at 0x2d0
    63 68 65 63 6b 65 72 00 00 00 00 00 00 00 00 00  # 0x0070 texture 0: name "checker"
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 01 00                                      # 0x0090 tex_id 0, flip_y 1
    b0 00 00 00 0a 00 00 00                          # 0x0094 img_offset 0xb0, img_length 10
    02 00 02 00 02 00 01 00                          # 0x009c 2 x 2 pixels, wrap_s repeat, wrap_t mirror
    00 00 00 00 00 00 00 00 00 00 00 00              # 0x00a4 nop
    89 50 4e 47 0d 0a 1a 0a aa bb                    # 0x00b0 texture 0 image: PNG signature + 2 bytes
    00 00                                            # 0x00ba padding to 4
    73 6b 69 6e 00 00 00 00 00 00 00 00 00 00 00 00  # 0x00bc material 0: name "skin"
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 00 00                                      # 0x00dc mat_id 0, tex_id 0
    00 00 00 00 04 00 05 00                          # 0x00e0 use_blending 0, blend norm, src_alpha, one_minus_src_alpha
    01 00 01 00 00 00 02 00                          # 0x00e8 skinning 1, lambert, face front, shadow double
    00 00 01 00 00 00 00 00                          # 0x00f0 ignore_lights 0, vertex_color 1, use_alpha 0, skip_render 0
    00 00 00 3f                                      # 0x00f8 alpha_test 0.5
    00 00 80 3f 00 00 80 3f 00 00 80 3f 00 00 80 3f  # 0x00fc diffuse
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  # 0x010c emissive
    00 00 00 3f 00 00 00 3f 00 00 00 3f 00 00 80 41  # 0x011c specular
    00 00 00 00 00 00 00 00 00 00 00 00              # 0x012c vertex 0: pos (0, 0, 0)
    00 00 00 00 00 00 00 00                          # 0x0138 skin_index (0, 0, 0, 0)
    00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00  # 0x0140 skin_weight (1, 0, 0, 0)
    00 00 80 3f 00 00 00 00 00 00 00 00              # 0x0150 vertex 1: pos (1, 0, 0)
    00 00 01 00 00 00 00 00                          # 0x015c skin_index (0, 1, 0, 0)
    00 00 00 3f 00 00 00 3f 00 00 00 00 00 00 00 00  # 0x0164 skin_weight (0.5, 0.5, 0, 0)
    00 00 00 00 00 00 80 3f 00 00 00 00              # 0x0174 vertex 2: pos (0, 1, 0)
    01 00 00 00 00 00 00 00                          # 0x0180 skin_index (1, 0, 0, 0)
    00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00  # 0x0188 skin_weight (1, 0, 0, 0)
    00 00 00 00                                      # 0x0198 face 0: mat_id 0, nop
    00 00 00 00 01 00 00 00 02 00 00 00              # 0x019c a b c = 0 1 2
    ff 00 00 ff 00 ff 00 ff 00 00 ff 80              # 0x01a8 colours: red, green, blue at alpha 128
    00 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 00  # 0x01b4 normals +z
    00 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00
    00 00 80 3f
    00 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 00  # 0x01d8 uvs
    00 00 00 00 00 00 80 3f
    72 6f 6f 74 00 00 00 00 00 00 00 00 00 00 00 00  # 0x01f0 bone 0: name "root"
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 ff ff                                      # 0x0210 bone_id 0, parent_id -1
    00 00 00 00 00 00 00 00 00 00 00 00              # 0x0214 nop
    00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00  # 0x0220 matrix: identity (column-major)
    00 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00
    00 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 00
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f
    74 69 70 00 00 00 00 00 00 00 00 00 00 00 00 00  # 0x0260 bone 1: name "tip"
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    01 00 00 00                                      # 0x0280 bone_id 1, parent_id 0
    00 00 00 00 00 00 00 00 00 00 00 00              # 0x0284 nop
    00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00  # 0x0290 matrix: translate y 1 (column 3)
    00 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00
    00 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 00
    00 00 00 00 00 00 80 3f 00 00 00 00 00 00 80 3f
    77 61 76 65 00 00 00 00 00 00 00 00 00 00 00 00  # 0x02d0 animation 0: name "wave"
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    00 00 1e 00                                      # 0x02f0 anim_id 0, fps 30
    00 03 00 00 02 00 00 00                          # 0x02f4 track_offset 0x300, track_count 2
    00 00 80 3f                                      # 0x02fc duration 1 s
    01 00 02 00                                      # 0x0300 track 0: bone 1, prs rotation
    00 00 00 00                                      # 0x0304 time 0
    00 00 00 00 00 00 00 00 00 00 00 00              # 0x0308 pos (unset)
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f  # 0x0314 rot identity
    00 00 00 00 00 00 00 00 00 00 00 00              # 0x0324 scl (unset)
    01 00 05 00                                      # 0x0330 track 1: bone 1, prs position + scale
    00 00 80 3f                                      # 0x0334 time 1
    00 00 00 00 00 00 00 40 00 00 00 00              # 0x0338 pos
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  # 0x0344 rot (unset)
    00 00 00 40 00 00 00 40 00 00 00 40              # 0x0354 scl
    "#)
}

pub fn name(s: &str) -> Name {
    Name::new(s).unwrap()
}

/// The model the fixture holds.
pub fn model() -> Dmf {
    let png = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0xaa, 0xbb];
    let identity = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let mut tip = identity;
    tip[13] = 1.0;
    Dmf {
        textures: vec![Texture {
            id: 0,
            name: name("checker"),
            flip_y: Bool16::TRUE,
            width: 2,
            height: 2,
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Mirror,
            nop: [0; 12],
            png,
        }],
        materials: vec![Material {
            id: 0,
            name: name("skin"),
            texture: 0,
            use_blending: Bool16::FALSE,
            blend_equation: BlendEquation::Normal,
            blend_src: BlendFactor::SrcAlpha,
            blend_dst: BlendFactor::OneMinusSrcAlpha,
            skinning: Bool16::TRUE,
            shader_type: ShaderType::Lambert,
            face_side: Side::Front,
            shadow_side: Side::Double,
            ignore_lights: Bool16::FALSE,
            vertex_color: Bool16::TRUE,
            use_alpha: Bool16::FALSE,
            skip_render: Bool16::FALSE,
            alpha_test: 0.5,
            diffuse: Rgba::new(1.0, 1.0, 1.0, 1.0),
            emissive: [0.0; 4],
            specular: [0.5, 0.5, 0.5, 16.0],
        }],
        vertices: vec![
            Vertex::new(Vec3::new(0.0, 0.0, 0.0), [0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
            Vertex::new(Vec3::new(1.0, 0.0, 0.0), [0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]),
            Vertex::new(Vec3::new(0.0, 1.0, 0.0), [1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ],
        faces: vec![Face::new(
            0,
            [0, 1, 2],
            [
                Rgba::new(255, 0, 0, 255),
                Rgba::new(0, 255, 0, 255),
                Rgba::new(0, 0, 255, 128),
            ],
            [Vec3::new(0.0, 0.0, 1.0); 3],
            [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)],
        )],
        bones: vec![
            Bone::new(name("root"), 0, -1, identity),
            Bone::new(name("tip"), 1, 0, tip),
        ],
        animations: vec![Animation {
            id: 0,
            name: name("wave"),
            fps: 30,
            duration: 1.0,
            tracks: vec![
                Track::new(1, 0.0, None, Some(Quat::new(0.0, 0.0, 0.0, 1.0)), None),
                Track::new(
                    1,
                    1.0,
                    Some(Vec3::new(0.0, 2.0, 0.0)),
                    None,
                    Some(Vec3::new(2.0, 2.0, 2.0)),
                ),
            ],
        }],
    }
}
