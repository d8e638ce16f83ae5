//! Hair and Instance nodes through the scene: Hair <-> scene hairs, Instance <-> scene
//! instances, both ways with the same node values, and what cannot be read or written named.

use animbin_cast::{
    CastFile, ConversionReport, FIRST_HASH, Node, NodeKind, Property, SceneOptions, Value, Vec3, Vec4, read, to_bytes,
};
use animbin_core::math::{Quat, Transform};
use animbin_core::scene::{Hair, Instance, Material, Scene};

mod scene_io;

use scene_io::{from_scene, to_scene};

fn v(x: f32, y: f32, z: f32) -> Vec3<f32> {
    Vec3::new(x, y, z)
}

/// `n` particles along x, from 0.
fn particles(n: usize) -> Vec<Vec3<f32>> {
    (0..n).map(|i| v(i as f32 * 0.5, 1.0, -2.0)).collect()
}

/// A file as the writer makes it: hashes counting up from [`FIRST_HASH`], properties in the
/// reference order, `se` at its narrowest width, instances after the model.
fn canonical() -> CastFile {
    let h = |k: u64| FIRST_HASH + k;
    let material = Node::with(
        NodeKind::Material,
        h(2),
        vec![Property::string("n", "hair_mtl"), Property::string("t", "pbr")],
        vec![],
    );
    let fringe = Node::with(
        NodeKind::Hair,
        h(3),
        vec![
            Property::string("n", "fringe"),
            Property::new("se", Value::Byte(vec![2, 1, 3])),
            Property::new("pt", Value::Vec3(particles(9))),
            Property::hash("m", h(2)),
        ],
        vec![],
    );
    // 300 segments need a 16-bit `se`.
    let long = Node::with(
        NodeKind::Hair,
        h(4),
        vec![
            Property::new("se", Value::Short(vec![300, 0])),
            Property::new("pt", Value::Vec3(particles(302))),
        ],
        vec![],
    );
    let model = Node::with(NodeKind::Model, h(1), vec![], vec![material, fringe, long]);
    let instance = |k: u64, name: Option<&str>, path: &str, p: Vec3<f32>, r: Vec4<f32>, s: Vec3<f32>| {
        let file = Node::with(
            NodeKind::File,
            h(k + 1),
            vec![Property::string("p", path.to_owned())],
            vec![],
        );
        let mut props = Vec::new();
        if let Some(name) = name {
            props.push(Property::string("n", name.to_owned()));
        }
        props.extend([
            Property::hash("rf", h(k + 1)),
            Property::new("p", Value::Vec3(vec![p])),
            Property::new("r", Value::Vec4(vec![r])),
            Property::new("s", Value::Vec3(vec![s])),
        ]);
        Node::with(NodeKind::Instance, h(k), props, vec![file])
    };
    let crate_a = instance(
        5,
        Some("crate_a"),
        "models/crate.cast",
        v(2.0, 0.0, 0.5),
        Vec4::new(0.0, 0.0, 0.707_106_77, 0.707_106_77),
        v(1.0, 2.0, 1.0),
    );
    let unnamed = instance(
        7,
        None,
        "C:/scenes/ëxample/tree.cast",
        v(0.0, 0.0, 0.0),
        Vec4::new(0.0, 0.0, 0.0, 1.0),
        v(1.0, 1.0, 1.0),
    );
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, h(0), vec![], vec![model, crate_a, unnamed])],
    }
}

/// The scene [`canonical`] holds.
fn canonical_scene() -> Scene {
    Scene {
        materials: vec![Material {
            name: "hair_mtl".into(),
            ..Material::default()
        }],
        hairs: vec![
            Hair {
                name: "fringe".into(),
                segments: vec![2, 1, 3],
                particles: particles(9),
                material: Some(0),
            },
            Hair {
                name: String::new(),
                segments: vec![300, 0],
                particles: particles(302),
                material: None,
            },
        ],
        instances: vec![
            Instance {
                name: "crate_a".into(),
                path: "models/crate.cast".into(),
                placement: Transform {
                    translation: Vec3::new(2.0, 0.0, 0.5),
                    rotation: Quat::new(0.0, 0.0, f64::from(0.707_106_77_f32), f64::from(0.707_106_77_f32)),
                    scale: Vec3::new(1.0, 2.0, 1.0),
                },
            },
            Instance {
                name: String::new(),
                path: "C:/scenes/ëxample/tree.cast".into(),
                placement: Transform::IDENTITY,
            },
        ],
        ..Scene::default()
    }
}

#[test]
fn hair_and_instances_become_scene_hairs_and_instances_without_loss() {
    let (scene, lost) = to_scene(&canonical());
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(scene, canonical_scene());
}

#[test]
fn cast_to_scene_to_cast_gives_back_the_same_nodes_and_bytes() {
    let file = canonical();
    let bytes = to_bytes(&file).unwrap();
    let (scene, lost) = to_scene(&read(&bytes).unwrap());
    assert_eq!(lost, Vec::<String>::new());
    let (back, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(back, file);
    assert_eq!(to_bytes(&back).unwrap(), bytes);
}

#[test]
fn hair_materials_are_offset_like_mesh_materials_across_models() {
    let material = |hash: u64, name: &str| {
        Node::with(
            NodeKind::Material,
            hash,
            vec![Property::string("n", name.to_owned()), Property::string("t", "pbr")],
            vec![],
        )
    };
    let hair = |hash: u64, m: u64| {
        Node::with(
            NodeKind::Hair,
            hash,
            vec![
                Property::new("se", Value::Byte(vec![1])),
                Property::new("pt", Value::Vec3(particles(2))),
                Property::hash("m", m),
            ],
            vec![],
        )
    };
    let first = Node::with(NodeKind::Model, 2, vec![], vec![material(10, "a"), hair(11, 10)]);
    // The same hashes in the second model name its own material.
    let second = Node::with(
        NodeKind::Model,
        3,
        vec![],
        vec![material(9, "b"), material(10, "c"), hair(11, 10), hair(12, 9)],
    );
    let file = CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![first, second])],
    };
    let (scene, lost) = to_scene(&file);
    assert_eq!(lost, Vec::<String>::new());
    let materials: Vec<Option<usize>> = scene.hairs.iter().map(|h| h.material).collect();
    assert_eq!(materials, [Some(0), Some(2), Some(1)]);
}

#[test]
fn what_the_scene_cannot_read_is_reported() {
    let h = |k: u64| FIRST_HASH + k;
    let hair = |hash: u64, se: Vec<u8>, pt: usize, m: Option<u64>| {
        let mut props = vec![
            Property::string("n", "h"),
            Property::new("se", Value::Byte(se)),
            Property::new("pt", Value::Vec3(particles(pt))),
        ];
        props.extend(m.map(|m| Property::hash("m", m)));
        Node::with(NodeKind::Hair, hash, props, vec![])
    };
    let model = Node::with(
        NodeKind::Model,
        h(1),
        vec![],
        vec![
            // 2 + 1 particles are called for, 4 given.
            hair(h(2), vec![2], 4, None),
            // The material hash names the hair itself.
            hair(h(3), vec![0], 1, Some(h(3))),
        ],
    );
    // rf names no File child, and a File child is named by nothing.
    let lost_reference = Node::with(
        NodeKind::Instance,
        h(4),
        vec![
            Property::string("n", "lost"),
            Property::hash("rf", h(99)),
            Property::new("p", Value::Vec3(vec![v(1.0, 2.0, 3.0)])),
            Property::string("x", "undocumented"),
        ],
        vec![Node::with(
            NodeKind::File,
            h(5),
            vec![Property::string("p", "other.cast")],
            vec![],
        )],
    );
    let file = CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, h(0), vec![], vec![model, lost_reference])],
    };
    let (scene, lost) = to_scene(&file);
    assert_eq!(
        scene.hairs,
        [Hair {
            name: "h".into(),
            segments: vec![0],
            particles: particles(1),
            material: None,
        }]
    );
    assert_eq!(
        scene.instances,
        [Instance {
            name: "lost".into(),
            path: String::new(),
            placement: Transform {
                translation: Vec3::new(1.0, 2.0, 3.0),
                ..Transform::IDENTITY
            },
        }]
    );
    assert_eq!(
        lost,
        [
            "hair whose particle count is not the sum of se + 1 (such as \"h\": 4 particles for 3; skipped)",
            "hair material hashes that name no material of their model (read as none)",
            "undocumented properties of Instance nodes (such as \"x\")",
            "instances whose rf names no File child (read with an empty path)",
            "File children of instances that rf does not name",
        ]
    );
}

#[test]
fn placements_beyond_f32_are_reported_and_broken_hair_is_refused() {
    let mut scene = canonical_scene();
    scene.instances[1].placement.translation.x = 0.1;
    let (file, lost) = from_scene(&scene);
    assert_eq!(lost, ["instance placement digits beyond f32"]);
    let instance = file.roots[0].children[2].as_instance().unwrap();
    assert_eq!(instance.position(), Some(v(0.1, 0.0, 0.0)));

    let refused = |scene: &Scene| {
        CastFile::from_scene(scene, &SceneOptions::default(), &mut ConversionReport::default())
            .unwrap_err()
            .to_string()
    };
    let mut scene = canonical_scene();
    scene.hairs[0].particles.pop();
    assert!(
        refused(&scene).contains("hair 0 has 8 particles for 3 strands that call for 9"),
        "{}",
        refused(&scene)
    );
    let mut scene = canonical_scene();
    scene.hairs[1].material = Some(1);
    assert!(
        refused(&scene).contains("hair 1: material 1 of 1"),
        "{}",
        refused(&scene)
    );
}

#[test]
fn a_scene_of_hair_alone_is_written_as_a_model() {
    let scene = Scene {
        hairs: vec![Hair {
            name: "stray".into(),
            segments: vec![1],
            particles: particles(2),
            material: None,
        }],
        ..Scene::default()
    };
    let (file, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let expected = Node::with(
        NodeKind::Model,
        FIRST_HASH + 1,
        vec![],
        vec![Node::with(
            NodeKind::Hair,
            FIRST_HASH + 2,
            vec![
                Property::string("n", "stray"),
                Property::new("se", Value::Byte(vec![1])),
                Property::new("pt", Value::Vec3(particles(2))),
            ],
            vec![],
        )],
    );
    assert_eq!(file.roots[0].children, [expected]);
    assert_eq!(to_scene(&file).0, scene);
}

/// A file of `../shared/corpus/cast`, written by the format's own Python library; `None`
/// when the folder is absent (and failing under CI=true).
fn corpus_file(name: &str) -> Option<CastFile> {
    let dir = animbin_testing::shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast")?;
    Some(read(&std::fs::read(dir.join(name)).unwrap()).unwrap())
}

#[test]
fn the_reference_writers_hair_and_instances_are_read_whole() {
    let Some(hair_file) = corpus_file("ref_hair_u16faces.cast") else {
        return;
    };
    let (scene, lost) = to_scene(&hair_file);
    assert_eq!(lost, Vec::<String>::new());
    let strand = |x: f32, n: usize| (0..n).map(move |j| v(x, j as f32, 0.0));
    assert_eq!(
        scene.hairs,
        [Hair {
            name: "strands".into(),
            segments: vec![2, 1, 3],
            particles: strand(0.0, 3).chain(strand(1.0, 2)).chain(strand(2.0, 4)).collect(),
            material: Some(0),
        }]
    );
    assert_eq!(scene.meshes[0].materials, [Some(0)]);

    let Some(instance_file) = corpus_file("ref_metadata_instances.cast") else {
        return;
    };
    let (scene, lost) = to_scene(&instance_file);
    assert_eq!(
        lost,
        ["metadata nodes (author, software, up axis, scene root) (1; the scene model has none)"]
    );
    let crate_at = |i: u32| Instance {
        name: format!("crate_{i}"),
        path: "models/crate.cast".into(),
        placement: Transform {
            translation: Vec3::new(2.0 * f64::from(i), 0.0, 0.0),
            ..Transform::IDENTITY
        },
    };
    assert_eq!(scene.instances, [crate_at(0), crate_at(1)]);
    // Written back, the instances' nodes are the reference writer's, hashes aside.
    let (back, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let without_hashes = |node: &Node| {
        let mut node = node.clone();
        node.hash = 0;
        for child in &mut node.children {
            child.hash = 0;
        }
        node.properties.retain(|p| p.name != "rf");
        node
    };
    let instances = |file: &CastFile| -> Vec<Node> {
        file.roots[0]
            .children
            .iter()
            .filter(|n| n.is(NodeKind::Instance))
            .map(without_hashes)
            .collect()
    };
    assert_eq!(instances(&back), instances(&instance_file));
}
