//! Blend shapes: BlendShape nodes <-> morph targets, `bs` curves <-> weight tracks.

use animbin_cast::{CastFile, ConversionReport, Node, NodeKind, Property, SceneOptions, Value, Vec3, read, to_bytes};
use animbin_core::scene::{Key, MorphTarget, WeightTrack};

fn file(children: Vec<Node>) -> CastFile {
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], children)],
    }
}

mod scene_io;

use scene_io::{from_scene, to_scene};

fn v(x: f32, y: f32, z: f32) -> Vec3<f32> {
    Vec3::new(x, y, z)
}

/// A quad mesh (hash 10) with two blend shapes on it and an animation of their weights.
fn quad_with_shapes(mode: &str) -> CastFile {
    let mesh = Node::with(
        NodeKind::Mesh,
        10,
        vec![
            Property::string("n", "face"),
            Property::new(
                "vp",
                Value::Vec3(vec![
                    v(0.0, 0.0, 0.0),
                    v(1.0, 0.0, 0.0),
                    v(1.0, 1.0, 0.0),
                    v(0.0, 1.0, 0.0),
                ]),
            ),
            Property::new("f", Value::Byte(vec![0, 1, 2, 0, 2, 3])),
        ],
        vec![],
    );
    let shape = |hash: u64, name: &str, vi: Value, vp: Vec<Vec3<f32>>, ts: Option<f32>| {
        let mut props = vec![
            Property::string("n", name.to_owned()),
            Property::hash("b", 10),
            Property::new("vi", vi),
            Property::new("vp", Value::Vec3(vp)),
        ];
        if let Some(ts) = ts {
            props.push(Property::new("ts", Value::Float(vec![ts])));
        }
        Node::with(NodeKind::BlendShape, hash, props, vec![])
    };
    let smile = shape(
        11,
        "smile",
        Value::Byte(vec![2, 3]),
        vec![v(1.5, 1.25, 0.5), v(-0.5, 1.0, 0.25)],
        Some(2.0),
    );
    let blink = shape(12, "blink", Value::Byte(vec![0]), vec![v(0.0, 0.0, -1.0)], None);
    let model = Node::with(NodeKind::Model, 2, vec![], vec![mesh, smile, blink]);
    let curve = |name: &str, kb: Vec<u8>, kv: Vec<f32>| {
        Node::with(
            NodeKind::Curve,
            0,
            vec![
                Property::string("nn", name.to_owned()),
                Property::string("kp", "bs"),
                Property::new("kb", Value::Byte(kb)),
                Property::new("kv", Value::Float(kv)),
                Property::string("m", mode.to_owned()),
            ],
            vec![],
        )
    };
    let anim = Node::with(
        NodeKind::Animation,
        3,
        vec![
            Property::new("fr", Value::Float(vec![30.0])),
            Property::boolean("lo", false),
        ],
        vec![
            curve("smile", vec![0, 10, 20], vec![0.0, 1.0, 0.25]),
            curve("blink", vec![5], vec![0.5]),
        ],
    );
    file(vec![model, anim])
}

#[test]
fn blend_shapes_become_morph_targets_of_their_base_mesh_with_offsets_from_it() {
    let (scene, lost) = to_scene(&quad_with_shapes("absolute"));
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(
        scene.meshes[0].morph_targets,
        vec![
            MorphTarget {
                default_weight: 0.0,
                name: "smile".into(),
                indices: vec![2, 3],
                position_deltas: vec![v(0.5, 0.25, 0.5), v(-0.5, 0.0, 0.25)],
                normal_deltas: vec![],
                max_weight: Some(2.0),
            },
            MorphTarget {
                default_weight: 0.0,
                name: "blink".into(),
                indices: vec![0],
                position_deltas: vec![v(0.0, 0.0, -1.0)],
                normal_deltas: vec![],
                max_weight: None,
            },
        ]
    );
    let anim = &scene.animations[0];
    assert_eq!(
        anim.weights,
        vec![
            WeightTrack {
                target: "smile".into(),
                keys: vec![Key::new(0.0, 0.0), Key::new(10.0, 1.0), Key::new(20.0, 0.25)].into(),
            },
            WeightTrack {
                target: "blink".into(),
                keys: vec![Key::new(5.0, 0.5)].into(),
            },
        ]
    );
    assert!(
        anim.properties.is_empty(),
        "bs curves are weight tracks, not opaque curves"
    );
    assert_eq!(anim.frame_count, 21.0);
}

#[test]
fn cast_to_scene_to_cast_gives_the_same_blend_shapes_and_curves() {
    let original = quad_with_shapes("absolute");
    let (scene, _) = to_scene(&original);
    let (back, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let back = read(&to_bytes(&back).unwrap()).unwrap();
    // The same nodes, but for hashes (the writer counts its own) and the `b` link, which
    // names the new mesh's hash.
    let model = |f: &CastFile| f.models().next().unwrap().node().clone();
    let (a, b) = (model(&original), model(&back));
    let shapes = |m: &Node| -> Vec<Node> {
        m.children
            .iter()
            .filter(|c| c.is(NodeKind::BlendShape))
            .cloned()
            .collect()
    };
    let mesh_hash = b.children.iter().find(|c| c.is(NodeKind::Mesh)).unwrap().hash;
    for (x, y) in shapes(&a).iter().zip(shapes(&b)) {
        let mut y = y.clone();
        assert_eq!(
            y.properties.iter().find(|p| p.name == "b").unwrap().value,
            Value::Long(vec![mesh_hash])
        );
        y.hash = x.hash;
        y.properties.iter_mut().find(|p| p.name == "b").unwrap().value = Value::Long(vec![10]);
        assert_eq!(&y, x);
    }
    assert_eq!(shapes(&a).len(), shapes(&b).len());
    let curves = |f: &CastFile| -> Vec<Node> {
        f.animations()
            .next()
            .unwrap()
            .curves()
            .map(|c| {
                let mut n = c.node().clone();
                n.hash = 0;
                n
            })
            .collect()
    };
    assert_eq!(curves(&back), curves(&original));
    // And the scene is a fixed point: the file made from it reads back to the same scene.
    assert_eq!(to_scene(&back).0, scene);
}

#[test]
fn relative_weight_curves_read_as_weights_and_additive_ones_are_reported() {
    let (absolute, _) = to_scene(&quad_with_shapes("absolute"));
    let (relative, lost) = to_scene(&quad_with_shapes("relative"));
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(relative.animations[0].weights, absolute.animations[0].weights);
    let (additive, lost) = to_scene(&quad_with_shapes("additive"));
    assert_eq!(additive.animations[0].weights, absolute.animations[0].weights);
    assert!(
        lost.iter().any(|l| l.contains("additive blend-shape weight curves")),
        "{lost:?}"
    );
}

#[test]
fn blend_shapes_that_point_nowhere_are_skipped_and_reported() {
    let mut f = quad_with_shapes("absolute");
    let model = &mut f.roots[0].children[0];
    // smile's base names no mesh; blink moves vertex 9 of 4.
    model.children[1].properties[1] = Property::hash("b", 99);
    model.children[2].properties[2] = Property::new("vi", Value::Byte(vec![9]));
    let (scene, lost) = to_scene(&f);
    assert!(scene.meshes[0].morph_targets.is_empty());
    assert!(lost.iter().any(|l| l.contains("whose base is not a mesh")), "{lost:?}");
    assert!(
        lost.iter().any(|l| l.contains("vertex indices past their base mesh")),
        "{lost:?}"
    );
}

#[test]
fn normal_offsets_are_reported_and_targets_past_their_mesh_are_refused() {
    let (mut scene, _) = to_scene(&quad_with_shapes("absolute"));
    scene.meshes[0].morph_targets[1].normal_deltas = vec![v(0.0, 1.0, 0.0)];
    let (_, lost) = from_scene(&scene);
    assert!(lost.iter().any(|l| l.contains("normal offsets")), "{lost:?}");
    scene.meshes[0].morph_targets[1].indices = vec![4];
    let mut report = ConversionReport::default();
    let err = CastFile::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap_err();
    assert!(err.to_string().contains("moves vertex 4 of 4"), "{err}");
}

#[test]
fn the_reference_writers_blend_shape_file_gives_the_offsets_and_weights_it_describes() {
    // ref_blendshape.cast, written by the format's own cast.py (SOURCES-cast.md): a 3-vertex
    // mesh, "smile" moving vertices 1 and 2 to (1.25, 0.25, 0) and (0, 1.5, 0.125), ts 1.0,
    // and a bs curve 0, 1, 0 at frames 0, 12, 24.
    let Some(dir) = animbin_testing::shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast") else {
        return;
    };
    let original = read(&std::fs::read(dir.join("ref_blendshape.cast")).unwrap()).unwrap();
    let (scene, lost) = to_scene(&original);
    assert!(!lost.iter().any(|l| l.contains("blend")), "{lost:?}");
    assert_eq!(
        scene.meshes[0].morph_targets,
        vec![MorphTarget {
            default_weight: 0.0,
            name: "smile".into(),
            indices: vec![1, 2],
            position_deltas: vec![v(0.25, 0.25, 0.0), v(0.0, 0.5, 0.125)],
            normal_deltas: vec![],
            max_weight: Some(1.0),
        }]
    );
    assert_eq!(
        scene.animations[0].weights,
        vec![WeightTrack {
            target: "smile".into(),
            keys: vec![Key::new(0.0, 0.0), Key::new(12.0, 1.0), Key::new(24.0, 0.0)].into(),
        }]
    );
    // Written back, the blend shape holds the same final positions.
    let (back, _) = from_scene(&scene);
    let shape = |f: &CastFile| {
        let model = f.models().next().unwrap();
        let shape = model.blend_shapes().next().unwrap();
        (
            shape.name().map(str::to_string),
            shape.vertex_indices().unwrap().iter().collect::<Vec<u32>>(),
            shape.vertex_positions().unwrap().to_vec(),
            shape.target_weight_scale().unwrap().to_vec(),
        )
    };
    assert_eq!(shape(&back), shape(&original));
    assert_eq!(to_scene(&back).0, scene);
}
