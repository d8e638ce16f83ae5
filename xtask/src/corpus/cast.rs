//! Cast samples, written by `animbin-cast`'s own writer: `sample.cast` (a skinned quad with
//! a material and a looping animation with notes, built from a scene as any conversion
//! would), and fuzz-only seeds: every node type with every documented property, wide index
//! buffers (u16 and u32, needed or not), and what only the low-level model writes (unknown node ids,
//! string arrays, repeated names, reserved flags, every property type).

use animbin_cast::{CastFile, Node, NodeId, NodeKind, Property, SceneOptions, Value, to_bytes};
use animbin_core::math::{Quat, Rgba8, Transform, Vec2, Vec3, Vec4};
use animbin_core::scene::{
    self, AnimKind, Animation, BoneTrack, ConversionReport, Interpolation, Key, Note, Scene, SkinWeights,
};

use super::Sample;

const TARGETS: &[&str] = &["parse_cast", "roundtrip_cast"];

fn bytes(file: &CastFile) -> Vec<u8> {
    to_bytes(file).expect("the sample is encodable")
}

/// A rotation of `degrees` about the z axis, rounded to f32 as the file stores it.
fn roll(degrees: f32) -> Quat<f64> {
    let half = degrees.to_radians() / 2.0;
    Quat::new(0.0, 0.0, half.sin(), half.cos()).map(f64::from)
}

fn bone(name: &str, parent: Option<usize>, y: f64) -> scene::Bone {
    let at = |y| Transform {
        translation: Vec3::new(0.0, y, 0.0),
        ..Transform::IDENTITY
    };
    scene::Bone {
        kind: Default::default(),
        // Cast's default (ssc on, so the file says nothing); the sample's scales are all 1,
        // where compensation changes nothing.
        scale_compensate: true,
        rest_scale: Vec3::ONE,
        name: name.into(),
        parent,
        local: at(y.min(1.0)),
        global: at(y),
        cosmetic: false,
    }
}

/// A 1 x 2 quad skinned to a two-bone chain, and a looping wave of the upper bone.
fn sample() -> CastFile {
    let quad = scene::Mesh {
        name: "quad".into(),
        positions: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ],
        normals: vec![Vec3::new(0.0, 0.0, 1.0); 4],
        uv_layers: vec![vec![
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 0.0),
        ]],
        colors: vec![Rgba8::new(255, 255, 255, 255); 4],
        skin: Some(SkinWeights {
            skin: None,
            influences: 1,
            bones: vec![0, 0, 1, 1],
            weights: vec![1.0; 4],
            blend: Default::default(),
        }),
        faces: vec![[0, 1, 2], [0, 2, 3]],
        materials: vec![Some(0)],
        morph_targets: Vec::new(),
        ..Default::default()
    };
    let wave = Animation {
        name: "wave".into(),
        framerate: 30.0,
        frame_count: 21.0,
        looping: true,
        kind: AnimKind::Absolute,
        interpolation: Interpolation::Linear,
        bones: vec![
            BoneTrack {
                bone: "tag_origin".into(),
                translation: vec![
                    Key::new(0.0, Vec3::new(0.0, 0.0, 0.0)),
                    Key::new(20.0, Vec3::new(0.0, 0.0, 0.0)),
                ]
                .into(),
                ..BoneTrack::default()
            },
            BoneTrack {
                bone: "j_upper".into(),
                rotation: [(0.0, -30.0), (10.0, 30.0), (20.0, -30.0)]
                    .iter()
                    .map(|&(f, d)| Key::new(f, roll(d)))
                    .collect(),
                ..BoneTrack::default()
            },
        ],
        notes: vec![
            Note {
                frame: 0.0,
                name: "wave_start".into(),
            },
            Note {
                frame: 10.0,
                name: "wave_turn".into(),
            },
        ],
        properties: Vec::new(),
        weights: Vec::new(),
    };
    let scene = Scene {
        placement: Default::default(),
        skeleton: scene::Skeleton {
            bones: vec![bone("tag_origin", None, 0.0), bone("j_upper", Some(0), 1.0)],
            ..Default::default()
        },
        meshes: vec![quad],
        materials: vec![scene::Material {
            name: "paint".into(),
            diffuse_map: Some("paint_c.png".into()),
            ..scene::Material::default()
        }],
        textures: Vec::new(),
        animations: vec![wave],
        ..Default::default()
    };
    let mut report = ConversionReport::default();
    let file = CastFile::from_scene(&scene, &SceneOptions::default(), &mut report).expect("the sample converts");
    assert!(
        report.is_lossless(),
        "the sample is within Cast's reach: {:?}",
        report.lost
    );
    file
}

fn p(name: &'static str, value: Value) -> Property {
    Property::new(name, value)
}

fn s(name: &'static str, value: &str) -> Property {
    Property::string(name, value.to_owned())
}

fn one3(x: f32) -> Value {
    Value::Vec3(vec![Vec3::new(x, x, x)])
}

fn unit_quat() -> Value {
    Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])
}

/// Every node type, every documented property (hashes as the reference writer counts them).
fn every_node() -> CastFile {
    let bones = (0..3)
        .map(|i| {
            Node::with(
                NodeKind::Bone,
                10 + i,
                vec![
                    s("n", &format!("b{i}")),
                    p("p", Value::Integer(vec![(i as u32).wrapping_sub(1)])),
                    Property::boolean("ssc", i != 1),
                    p("lp", one3(0.0)),
                    p("lr", unit_quat()),
                    p("wp", one3(i as f32)),
                    p("wr", unit_quat()),
                    p("s", one3(1.0)),
                ],
                vec![],
            )
        })
        .collect::<Vec<_>>();
    let ik = Node::with(
        NodeKind::IkHandle,
        13,
        vec![
            s("n", "ik"),
            Property::hash("sb", 10),
            Property::hash("eb", 12),
            Property::hash("tb", 11),
            p("to", one3(0.0)),
            Property::hash("pv", 11),
            Property::hash("pb", 10),
            Property::boolean("tr", true),
        ],
        vec![],
    );
    let constraint = Node::with(
        NodeKind::Constraint,
        14,
        vec![
            s("n", "c"),
            s("ct", "sc"),
            Property::hash("cb", 12),
            Property::hash("tb", 10),
            Property::boolean("mo", false),
            p("co", one3(1.0)),
            p("wt", Value::Float(vec![0.5])),
            Property::boolean("sx", false),
            Property::boolean("sy", true),
            Property::boolean("sz", false),
        ],
        vec![],
    );
    let mut skeleton_children = bones;
    skeleton_children.extend([ik, constraint]);
    let skeleton = Node::with(NodeKind::Skeleton, 9, vec![], skeleton_children);
    let material = Node::with(
        NodeKind::Material,
        20,
        vec![
            s("n", "m"),
            s("t", "pbr"),
            Property::hash("albedo", 21),
            Property::hash("roughness", 21),
            Property::hash("extra0", 22),
        ],
        vec![
            Node::with(NodeKind::File, 21, vec![s("p", "a.png")], vec![]),
            Node::with(
                NodeKind::Color,
                22,
                vec![s("n", "tint"), s("cs", "srgb"), p("rgba", unit_quat())],
                vec![],
            ),
        ],
    );
    let mesh = Node::with(
        NodeKind::Mesh,
        30,
        vec![
            s("n", "tri"),
            p("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 3])),
            p("vn", Value::Vec3(vec![Vec3::new(0.0, 0.0, 1.0); 3])),
            p("vt", Value::Vec3(vec![Vec3::new(1.0, 0.0, 0.0); 3])),
            p("u0", Value::Vec2(vec![Vec2::new(0.0, 0.0); 3])),
            p("u1", Value::Vec2(vec![Vec2::new(1.0, 1.0); 3])),
            p("ul", Value::Byte(vec![2])),
            p("c0", Value::Integer(vec![0xFF00_00FF; 3])),
            p("c1", Value::Vec4(vec![Vec4::new(0.0, 1.0, 0.0, 1.0); 3])),
            p("cl", Value::Short(vec![2])),
            p("wb", Value::Byte(vec![0, 1, 1, 2, 2, 0])),
            p("wv", Value::Float(vec![0.5; 6])),
            p("mi", Value::Integer(vec![2])),
            p("f", Value::Byte(vec![0, 1, 2])),
            s("sm", "quaternion"),
            Property::hash("m", 20),
        ],
        vec![],
    );
    let legacy = Node::with(
        NodeKind::Mesh,
        31,
        vec![
            p("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 3])),
            p("vc", Value::Integer(vec![u32::MAX; 3])),
            p("f", Value::Byte(vec![0, 1, 2])),
        ],
        vec![],
    );
    let hair = Node::with(
        NodeKind::Hair,
        32,
        vec![
            s("n", "h"),
            p("se", Value::Byte(vec![1, 2])),
            p("pt", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 5])),
            Property::hash("m", 20),
        ],
        vec![],
    );
    let shape = Node::with(
        NodeKind::BlendShape,
        33,
        vec![
            s("n", "smile"),
            Property::hash("b", 30),
            p("vi", Value::Byte(vec![1, 2])),
            p("vp", Value::Vec3(vec![Vec3::new(1.0, 1.0, 0.0); 2])),
            p("ts", Value::Float(vec![1.0])),
        ],
        vec![],
    );
    let model = Node::with(
        NodeKind::Model,
        2,
        vec![
            s("n", "every"),
            p("p", one3(0.0)),
            p("r", unit_quat()),
            p("s", one3(1.0)),
        ],
        vec![skeleton, material, mesh, legacy, hair, shape],
    );
    let curve = |hash, kp: &str, kv: Value| {
        Node::with(
            NodeKind::Curve,
            hash,
            vec![
                s("nn", if kp == "bs" { "smile" } else { "b1" }),
                s("kp", kp),
                p("kb", Value::Byte(vec![0, 5])),
                p("kv", kv),
                s("m", "relative"),
                p("ab", Value::Float(vec![1.0])),
            ],
            vec![],
        )
    };
    let anim = Node::with(
        NodeKind::Animation,
        3,
        vec![
            s("n", "all"),
            p("fr", Value::Float(vec![24.0])),
            Property::boolean("lo", false),
        ],
        vec![
            Node::with(NodeKind::Skeleton, 40, vec![], vec![]),
            Node::with(
                NodeKind::CurveModeOverride,
                41,
                vec![
                    s("nn", "b1"),
                    s("m", "absolute"),
                    Property::boolean("ot", true),
                    Property::boolean("or", false),
                    Property::boolean("os", true),
                ],
                vec![],
            ),
            curve(42, "rq", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0); 2])),
            curve(43, "tx", Value::Float(vec![0.0, 1.0])),
            curve(44, "sy", Value::Float(vec![1.0, 2.0])),
            curve(45, "bs", Value::Float(vec![0.0, 1.0])),
            curve(46, "vb", Value::Short(vec![1, 0])),
            Node::with(
                NodeKind::NotificationTrack,
                47,
                vec![s("n", "hit"), p("kb", Value::Byte(vec![3]))],
                vec![],
            ),
        ],
    );
    let instance = Node::with(
        NodeKind::Instance,
        4,
        vec![
            s("n", "crate"),
            Property::hash("rf", 50),
            p("p", one3(0.0)),
            p("r", unit_quat()),
            p("s", one3(1.0)),
        ],
        vec![Node::with(NodeKind::File, 50, vec![s("p", "crate.cast")], vec![])],
    );
    let meta = Node::with(
        NodeKind::Metadata,
        5,
        vec![s("a", "animbin"), s("s", "xtask"), s("up", "y"), s("sr", "C:/")],
        vec![],
    );
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![model, anim, instance, meta])],
    }
}

/// Index buffers at every width: u16 faces that 300 vertices need, u32 faces that small
/// values do not need (any width that holds the values is legal, and kept), and u32 frames.
fn wide() -> CastFile {
    let grid = Node::with(
        NodeKind::Mesh,
        3,
        vec![
            p("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 300])),
            p("f", Value::narrowest(&[0, 1, 299])),
        ],
        vec![],
    );
    let wide = Node::with(
        NodeKind::Mesh,
        4,
        vec![
            p("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 3])),
            p("f", Value::Integer(vec![0, 1, 2])),
        ],
        vec![],
    );
    let model = Node::with(NodeKind::Model, 2, vec![], vec![grid, wide]);
    let anim = Node::with(
        NodeKind::Animation,
        5,
        vec![p("fr", Value::Float(vec![30.0]))],
        vec![Node::with(
            NodeKind::NotificationTrack,
            6,
            vec![s("n", "far"), p("kb", Value::narrowest(&[70_000]))],
            vec![],
        )],
    );
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![model, anim])],
    }
}

/// What only the low-level model writes: unknown ids (nested), string arrays, repeated
/// names, every property type, reserved flags.
fn unusual() -> CastFile {
    let values = vec![
        p("b", Value::Byte(vec![0, 255])),
        p("h", Value::Short(vec![0xFFFF])),
        p("i", Value::Integer(vec![])),
        p("l", Value::Long(vec![u64::MAX])),
        p("f", Value::Float(vec![f32::NAN, f32::INFINITY])),
        p("d", Value::Double(vec![-0.0])),
        p(
            "s",
            Value::String(vec!["one".into(), String::new().into(), "three".into()]),
        ),
        p("s", Value::String(vec![])),
        p("2v", Value::Vec2(vec![Vec2::new(1.0, 2.0)])),
        p("", Value::Vec3(vec![])),
        p("ünï", Value::Vec4(vec![Vec4::new(1.0, 2.0, 3.0, 4.0)])),
    ];
    let inner = Node {
        id: NodeId::from_tag(*b"in\0\x01"),
        hash: 0,
        properties: Vec::new(),
        children: vec![Node::with(NodeKind::Mesh, 0, vec![], vec![])],
    };
    let outer = Node {
        id: NodeId::from_tag(*b"xtra"),
        hash: u64::MAX,
        properties: values,
        children: vec![inner],
    };
    CastFile {
        flags: 0xFFFF_FFFF,
        roots: vec![
            Node::with(NodeKind::Root, 1, vec![s("n", "a"), s("n", "b")], vec![outer]),
            Node {
                id: NodeKind::Model.id(),
                hash: 1,
                properties: Vec::new(),
                children: Vec::new(),
            },
        ],
    }
}

/// Every Cast sample.
pub(crate) fn samples() -> Vec<Sample> {
    let file = |name, cast: &CastFile, testdata| Sample::new(name, bytes(cast), TARGETS, testdata);
    vec![
        file("sample.cast", &sample(), true),
        file("cast_every_node.cast", &every_node(), false),
        file("cast_wide_indices.cast", &wide(), false),
        file("cast_unusual.cast", &unusual(), false),
    ]
}
