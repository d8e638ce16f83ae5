//! Scene conversion: what each node becomes, how curves are joined into keys, and every
//! loss and refusal named.

use animbin_cast::{
    AnimKind, CastFile, ConversionReport, ErrorKind, Node, NodeKind, PROPERTY_FORMAT, Property, SceneOptions, Value,
    Vec2, Vec3, Vec4, read, to_bytes,
};
use animbin_core::math::{Quat, Rgba8, Transform};
use animbin_core::scene::{
    self, Animation, BoneTrack, ChannelKinds, Interpolation, Key, Keys, Note, PropertyTrack, Scene,
};

fn file(children: Vec<Node>) -> CastFile {
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], children)],
    }
}

mod scene_io;

use scene_io::{from_scene, to_scene};

fn curve(bone: &str, kp: &str, frames: Value, values: Value, mode: &str) -> Node {
    Node::with(
        NodeKind::Curve,
        0,
        vec![
            Property::string("nn", bone.to_owned()),
            Property::string("kp", kp.to_owned()),
            Property::new("kb", frames),
            Property::new("kv", values),
            Property::string("m", mode.to_owned()),
        ],
        vec![],
    )
}

fn bone(name: &str, parent: i32, lp: Vec3<f32>) -> Node {
    Node::with(
        NodeKind::Bone,
        0,
        vec![
            Property::string("n", name.to_owned()),
            Property::new("p", Value::Integer(vec![parent as u32])),
            Property::new("lp", Value::Vec3(vec![lp])),
        ],
        vec![],
    )
}

fn anim(fr: f32, children: Vec<Node>) -> Node {
    Node::with(
        NodeKind::Animation,
        2,
        vec![Property::new("fr", Value::Float(vec![fr]))],
        children,
    )
}

#[test]
fn translation_axes_on_different_frames_are_joined_and_a_missing_axis_takes_the_bind_pose() {
    let skeleton = Node::with(
        NodeKind::Skeleton,
        3,
        vec![],
        vec![bone("hip", -1, Vec3::new(7.0, 8.0, 9.0))],
    );
    let model = Node::with(NodeKind::Model, 4, vec![], vec![skeleton]);
    let animation = anim(
        30.0,
        vec![
            curve(
                "hip",
                "tx",
                Value::Byte(vec![0, 10]),
                Value::Float(vec![0.0, 10.0]),
                "absolute",
            ),
            curve(
                "hip",
                "ty",
                Value::Byte(vec![0, 4, 10]),
                Value::Float(vec![1.0, 2.0, 3.0]),
                "absolute",
            ),
            curve("hip", "sz", Value::Byte(vec![5]), Value::Float(vec![2.0]), "absolute"),
        ],
    );
    let (scene, lost) = to_scene(&file(vec![model, animation]));
    let track = &scene.animations[0].bones[0];
    let t: Vec<(f64, Vec3<f64>)> = track.translation.iter().map(|k| (k.frame, k.value)).collect();
    assert_eq!(
        t,
        [
            (0.0, Vec3::new(0.0, 1.0, 9.0)),
            (4.0, Vec3::new(4.0, 2.0, 9.0)),
            (10.0, Vec3::new(10.0, 3.0, 9.0))
        ]
    );
    assert_eq!(track.scale, [Key::new(5.0, Vec3::new(1.0, 1.0, 2.0))]);
    assert_eq!(scene.animations[0].frame_count, 11.0);
    assert!(
        lost.iter()
            .any(|l| l.starts_with("translation or scale axes keyed on different frames")),
        "{lost:?}"
    );
    assert!(
        lost.iter()
            .any(|l| l.starts_with("translation or scale curves without all three axes")),
        "{lost:?}"
    );
}

#[test]
fn relative_translation_fills_a_missing_axis_with_zero() {
    let animation = anim(
        30.0,
        vec![curve(
            "hip",
            "tz",
            Value::Byte(vec![3]),
            Value::Float(vec![5.0]),
            "relative",
        )],
    );
    let (scene, _) = to_scene(&file(vec![animation]));
    assert_eq!(scene.animations[0].kind, AnimKind::Relative);
    assert_eq!(
        scene.animations[0].bones[0].translation,
        [Key::new(3.0, Vec3::new(0.0, 0.0, 5.0))]
    );
}

#[test]
fn overrides_of_every_channel_come_back_as_one_override_node() {
    let cmov = Node::with(
        NodeKind::CurveModeOverride,
        5,
        vec![
            Property::string("nn", "spine"),
            Property::string("m", "additive"),
            Property::boolean("ot", true),
            Property::boolean("or", true),
            Property::boolean("os", true),
        ],
        vec![],
    );
    let rq = curve(
        "spine",
        "rq",
        Value::Byte(vec![0]),
        Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)]),
        "absolute",
    );
    let (scene, lost) = to_scene(&file(vec![anim(30.0, vec![cmov, rq])]));
    assert_eq!(lost, Vec::<String>::new());
    let track = &scene.animations[0].bones[0];
    assert_eq!(
        (track.bone.as_str(), track.kind_override, track.channel_overrides),
        ("spine", None, ChannelKinds::all(AnimKind::Additive))
    );
    let (back, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let anim = back.animations().next().unwrap();
    let cmov = anim.curve_mode_overrides().next().unwrap();
    assert_eq!(cmov.mode(), Some("additive"));
    assert_eq!(
        (
            cmov.override_translation(),
            cmov.override_rotation(),
            cmov.override_scale()
        ),
        (Some(true), Some(true), Some(true))
    );
    assert_eq!(
        back.animations().next().unwrap().node().children[0].hash,
        animbin_cast::FIRST_HASH + 2
    );
}

fn track(name: &str) -> BoneTrack {
    BoneTrack {
        bone: name.into(),
        rotation: vec![Key::new(0.0, Quat::new(0.0, 0.0, 0.0, 1.0))].into(),
        ..BoneTrack::default()
    }
}

fn animation(bones: Vec<BoneTrack>) -> Animation {
    Animation {
        framerate: 30.0,
        frame_count: 1.0,
        bones,
        ..Animation::default()
    }
}

fn scene_with(anim: Animation) -> Scene {
    Scene {
        animations: vec![anim],
        ..Scene::default()
    }
}

#[test]
fn curves_are_written_in_the_reference_order_with_the_narrowest_frames() {
    let mut t = track("j");
    t.translation = vec![
        Key::new(0.0, Vec3::new(1.0, 2.0, 3.0)),
        Key::new(300.0, Vec3::new(4.0, 5.0, 6.0)),
    ]
    .into();
    t.scale = vec![Key::new(2.0, Vec3::ONE)].into();
    let mut a = animation(vec![t]);
    a.frame_count = 301.0;
    a.name = "walk".into();
    a.looping = true;
    a.notes = vec![Note {
        frame: 70000.0,
        name: "end".into(),
    }];
    a.frame_count = 70001.0;
    let (file, lost) = from_scene(&scene_with(a.clone()));
    assert_eq!(lost, Vec::<String>::new());
    let anim = file.animations().next().unwrap();
    let names: Vec<&str> = anim.node().properties.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(names, ["n", "fr", "lo"]);
    let kps: Vec<&str> = anim.curves().map(|c| c.key_property().unwrap()).collect();
    assert_eq!(kps, ["rq", "tx", "ty", "tz", "sx", "sy", "sz"]);
    let tx = anim.curves().nth(1).unwrap();
    assert_eq!(
        tx.node().properties.iter().map(|p| p.name.as_ref()).collect::<Vec<_>>(),
        ["nn", "kp", "kb", "kv", "m"]
    );
    assert_eq!(
        tx.key_frames().map(|k| matches!(k, animbin_cast::Indices::U16(_))),
        Some(true)
    );
    assert_eq!(tx.key_values(), Some(&Value::Float(vec![1.0, 4.0])));
    let end = anim.notification_tracks().next().unwrap();
    assert_eq!(end.node().value("kb"), Some(&Value::Integer(vec![70000])));
    let (back, lost) = to_scene(&read(&to_bytes(&file).unwrap()).unwrap());
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(back.animations[0], a);
}

#[test]
fn what_cast_cannot_hold_is_reported_and_what_it_cannot_encode_is_refused() {
    let mut a = animation(vec![
        track("j"),
        BoneTrack {
            bone: "empty".into(),
            cosmetic: true,
            ..BoneTrack::default()
        },
    ]);
    a.kind = AnimKind::Delta;
    a.interpolation = Interpolation::Step;
    a.bones[0].rotation.map_keys(|mut k| {
        k.value.x = 0.1;
        k
    });
    a.bones[0].rotation.push(Key::new(2.5, Quat::new(0.0, 0.0, 0.0, 1.0)));
    a.frame_count = 10.0;
    a.properties.push(PropertyTrack {
        node: "smile".into(),
        property: "seblend".into(),
        format: "seanim".into(),
        data: vec![],
    });
    let (_, lost) = from_scene(&scene_with(a.clone()));
    for expected in [
        "step interpolation (Cast curves are linear, rotations spherical)",
        "the delta animation kind (Cast has none; written as relative)",
        "cosmetic bone marks",
        "bone tracks without keys (Cast curves name only animated nodes)",
        "fractional frames (rounded to whole frames)",
        "key values beyond f32 (Cast curves store f32)",
        "property track smile.seblend (seanim; Cast keeps its own curves only)",
        "the frame count 10 (Cast derives the length from the last key: 4)",
    ] {
        assert!(lost.iter().any(|l| l == expected), "{expected:?} not in {lost:#?}");
    }
    let set_key = |keys: &mut Keys<Quat<f64>>, i: usize, key: Key<Quat<f64>>| {
        let mut all = keys.to_vec();
        all[i] = key;
        *keys = all.into();
    };
    let second = a.bones[0].rotation.get(1).unwrap();
    set_key(&mut a.bones[0].rotation, 1, Key::new(-1.0, second.value));
    let err = CastFile::from_scene(
        &scene_with(a.clone()),
        &SceneOptions::default(),
        &mut ConversionReport::default(),
    )
    .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)));
    assert!(
        err.to_string().contains("bone \"j\" rotation key 1 is at frame -1"),
        "{err}"
    );
    set_key(
        &mut a.bones[0].rotation,
        1,
        Key::new(
            1.0,
            Quat {
                w: 1e300,
                ..second.value
            },
        ),
    );
    let err = CastFile::from_scene(
        &scene_with(a),
        &SceneOptions::default(),
        &mut ConversionReport::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("past f32's range"), "{err}");
}

#[test]
fn visibility_curves_travel_whole_through_the_scene_beside_blend_shape_weights() {
    let bs = curve(
        "smile",
        "bs",
        Value::Byte(vec![0, 12]),
        Value::Float(vec![0.0, 1.0]),
        "absolute",
    );
    let mut vb = curve(
        "hat",
        "vb",
        Value::Short(vec![0, 1000]),
        Value::Byte(vec![1, 0]),
        "absolute",
    );
    vb.hash = 77;
    let (scene, lost) = to_scene(&file(vec![anim(24.0, vec![bs, vb.clone()])]));
    assert_eq!(lost, Vec::<String>::new());
    let properties = &scene.animations[0].properties;
    assert_eq!(properties.len(), 1);
    assert_eq!(
        (properties[0].format.as_str(), properties[0].property.as_str()),
        (PROPERTY_FORMAT, "vb")
    );
    assert_eq!(scene.animations[0].weights[0].target, "smile");
    assert_eq!(scene.animations[0].frame_count, 1001.0);
    let (back, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let curves: Vec<&Node> = back.animations().next().unwrap().curves().map(|c| c.node()).collect();
    assert_eq!(curves[1], &vb, "the curve comes back as it was, hash included");
    assert_eq!(curves[0].str_value("kp"), Some("bs"));
}

#[test]
fn models_join_one_skeleton_and_meshes_keep_every_uv_layer_and_their_weights() {
    let mesh = |bone_count: u8| {
        Node::with(
            NodeKind::Mesh,
            10,
            vec![
                Property::new("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 3])),
                Property::new("u0", Value::Vec2(vec![Vec2::new(0.0, 1.0); 3])),
                Property::new("u1", Value::Vec2(vec![Vec2::new(0.5, 0.5); 3])),
                Property::new("u2", Value::Vec2(vec![Vec2::new(1.0, 0.0); 3])),
                Property::new("ul", Value::Byte(vec![3])),
                Property::new("c0", Value::Vec4(vec![Vec4::new(1.0, 0.5, 0.0, 1.0); 3])),
                Property::new("c1", Value::Integer(vec![0; 3])),
                Property::new("cl", Value::Byte(vec![2])),
                Property::new("wb", Value::Byte((0..15).map(|i| i % bone_count).collect())),
                Property::new("wv", Value::Float(vec![0.2; 15])),
                Property::new("mi", Value::Byte(vec![5])),
                Property::new("f", Value::Byte(vec![0, 1, 2])),
                Property::hash("m", 20),
            ],
            vec![],
        )
    };
    let material = Node::with(
        NodeKind::Material,
        20,
        vec![
            Property::string("n", "skin"),
            Property::string("t", "pbr"),
            Property::hash("albedo", 21),
            Property::hash("normal", 22),
            Property::hash("gloss", 23),
        ],
        vec![
            Node::with(
                NodeKind::Color,
                21,
                vec![Property::new("rgba", Value::Vec4(vec![Vec4::new(1.0, 1.0, 1.0, 1.0)]))],
                vec![],
            ),
            Node::with(NodeKind::File, 22, vec![Property::string("p", "n.png")], vec![]),
            Node::with(NodeKind::File, 23, vec![Property::string("p", "g.png")], vec![]),
        ],
    );
    let skeleton = |names: &[&str]| {
        Node::with(
            NodeKind::Skeleton,
            30,
            vec![],
            names
                .iter()
                .enumerate()
                .map(|(i, n)| bone(n, i as i32 - 1, Vec3::new(0.0, 0.0, 1.0)))
                .collect(),
        )
    };
    let first = Node::with(
        NodeKind::Model,
        3,
        vec![],
        vec![skeleton(&["a", "b"]), material.clone(), mesh(2)],
    );
    let second = Node::with(
        NodeKind::Model,
        4,
        vec![],
        vec![skeleton(&["c", "d", "e"]), material, mesh(3)],
    );
    let (scene, lost) = to_scene(&file(vec![first, second]));
    assert_eq!(scene.skeleton.bones.len(), 5);
    assert_eq!(
        scene.skeleton.bones[3].parent,
        Some(2),
        "the second model's bones are offset"
    );
    assert_eq!(scene.skeleton.bones[4].global.translation, Vec3::new(0.0, 0.0, 3.0));
    assert_eq!(scene.materials.len(), 2);
    assert_eq!(scene.materials[0].normal_map.as_deref(), Some("n.png"));
    assert_eq!(scene.materials[0].base_color.map(|c| c.a), Some(1.0));
    let m = &scene.meshes[1];
    assert_eq!(m.uv_layers.len(), 3);
    assert_eq!(m.colors[0], Rgba8::new(255, 128, 0, 255));
    assert_eq!(
        m.extra_color_layers,
        vec![vec![Rgba8::new(0, 0, 0, 0); 3]],
        "c1, packed"
    );
    let skin = m.skin.as_ref().unwrap();
    assert_eq!(skin.influences, 5);
    assert_eq!(
        &skin.bones[..4],
        [2, 3, 4, 2],
        "indices offset by the first model's bones"
    );
    assert_eq!(m.materials, [Some(1)]);
    for expected in [
        "material slots other than albedo, diffuse, normal and specular files (such as \"gloss\")",
        "float vertex colours (rounded to 8 bits per channel)",
    ] {
        assert!(lost.iter().any(|l| l == expected), "{expected:?} not in {lost:#?}");
    }
}

#[test]
fn wrong_lengths_are_skipped_and_indices_past_their_arrays_are_refused() {
    let mesh = |extra: Vec<Property>| {
        let mut properties = vec![
            Property::new("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 3])),
            Property::new("f", Value::Byte(vec![0, 1, 2])),
        ];
        properties.extend(extra);
        file(vec![Node::with(
            NodeKind::Model,
            3,
            vec![],
            vec![Node::with(NodeKind::Mesh, 4, properties, vec![])],
        )])
    };
    let (scene, lost) = to_scene(&mesh(vec![Property::new(
        "vn",
        Value::Vec3(vec![Vec3::new(1.0, 1.0, 1.0); 2]),
    )]));
    assert!(scene.meshes[0].normals.is_empty());
    assert_eq!(
        lost,
        ["per-vertex arrays of the wrong length (a mesh: vn has 2 for 3 vertices; skipped)"]
    );
    let refused = |extra: Vec<Property>| {
        mesh(extra)
            .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
            .unwrap_err()
            .to_string()
    };
    // The first f is the one that counts; a second one is reported, not used.
    let (_, lost) = to_scene(&mesh(vec![Property::new("f", Value::Byte(vec![0, 1, 3]))]));
    assert_eq!(
        lost,
        ["second properties of one name in Mesh nodes (such as \"f\"; the first is used)"]
    );
    let mut bad = mesh(vec![]);
    bad.roots[0].children[0].children[0].properties[1].value = Value::Byte(vec![0, 1, 3]);
    let err = bad
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .unwrap_err();
    assert!(
        err.to_string().contains("face index 2 is 3, past its 3 vertices"),
        "{err}"
    );
    let weights = refused(vec![
        Property::new("wb", Value::Byte(vec![0, 0, 1])),
        Property::new("wv", Value::Float(vec![1.0; 3])),
        Property::new("mi", Value::Byte(vec![1])),
    ]);
    assert!(
        weights.contains("weight 0 names bone 0, past the model's 0 bones"),
        "{weights}"
    );
}

#[test]
fn a_scene_model_is_written_as_one_model_with_its_materials_files_and_colours() {
    let scene = Scene {
        skeleton: scene::Skeleton {
            bones: vec![scene::Bone {
                kind: Default::default(),
                scale_compensate: false,
                rest_scale: Vec3::ONE,
                name: "root".into(),
                parent: None,
                local: Transform::IDENTITY,
                global: Transform::IDENTITY,
                cosmetic: false,
            }],
            ..Default::default()
        },
        materials: vec![scene::Material {
            name: "m".into(),
            diffuse_map: Some("d.png".into()),
            base_color: Some(animbin_core::math::Rgba::new(0.5, 0.25, 1.0, 1.0)),
            ..scene::Material::default()
        }],
        meshes: vec![scene::Mesh {
            positions: vec![Vec3::new(0.0, 0.0, 0.0); 300],
            faces: vec![[0, 1, 299]],
            materials: vec![Some(0)],
            ..scene::Mesh::default()
        }],
        ..Scene::default()
    };
    let (file, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let model = file.models().next().unwrap();
    let material = model.materials().next().unwrap();
    assert_eq!(
        material.slots().map(|(s, _)| s).collect::<Vec<_>>(),
        ["albedo", "diffuse"]
    );
    assert_eq!(material.colors().next().unwrap().color_space(), Some("linear"));
    let mesh = model.meshes().next().unwrap();
    assert!(
        matches!(mesh.faces(), Some(animbin_cast::Indices::U16(_))),
        "299 needs u16 faces"
    );
    assert_eq!(mesh.material(), Some(material.node().hash));
    assert_eq!(animbin_cast::validate(&file), vec![]);
    let (back, lost) = to_scene(&file);
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(back, scene);
}

/// A file no longer needed moves its meshes' positions, normals and UV layers into the
/// scene: the scene (or the error) and the report are `to_scene`'s, for every sample and
/// corpus file, and for meshes whose arrays are of the wrong length, repeated, of another
/// type or missing a layer.
#[test]
fn into_scene_gives_the_scene_to_scene_gives() {
    let options = SceneOptions::default();
    let mut files: Vec<(String, CastFile)> = animbin_testing::samples(env!("CARGO_MANIFEST_DIR"), "cast")
        .into_iter()
        .map(|(name, bytes)| (name, read(&bytes).unwrap()))
        .collect();
    let odd_mesh = |extra: Vec<Property>| {
        let mut mesh = Node::new(NodeKind::Mesh, 2);
        mesh.push(Property::new("vp", Value::Vec3(vec![Vec3::new(1.0, 2.0, 3.0); 3])));
        for property in extra {
            mesh.push(property);
        }
        mesh.push(Property::new("f", Value::Integer(vec![0, 1, 2])));
        let mut model = Node::new(NodeKind::Model, 1);
        model.children.push(mesh);
        ("odd mesh".to_string(), file(vec![model]))
    };
    let uv = |n: usize| Value::Vec2(vec![Vec2::new(0.5, 0.25); n]);
    files.push(odd_mesh(vec![
        Property::new("vn", Value::Vec3(vec![Vec3::new(0.0, 0.0, 1.0); 2])),
        Property::new("u0", uv(3)),
        Property::new("u1", uv(2)),
        Property::new("u2", uv(3)),
    ]));
    files.push(odd_mesh(vec![
        Property::new("vp", Value::Vec3(vec![Vec3::new(9.0, 9.0, 9.0); 3])),
        Property::new("u0", Value::Float(vec![0.5; 6])),
        Property::new("u0", uv(3)),
        Property::new("u1", uv(3)),
        Property::new("ul", Value::Byte(vec![2])),
    ]));
    files.push(odd_mesh(vec![Property::new("u1", uv(3))]));
    for (name, file) in files {
        let mut report = ConversionReport::default();
        let scene = file.to_scene(&options, &mut report);
        let mut moved_report = ConversionReport::default();
        let moved = file.into_scene(&options, &mut moved_report);
        match (moved, scene) {
            (Ok(moved), Ok(scene)) => {
                assert_eq!(moved, scene, "{name}");
                assert!(name != "odd mesh" || scene.meshes[0].positions.len() == 3, "{name}");
            }
            (moved, scene) => assert_eq!(moved.unwrap_err().to_string(), scene.unwrap_err().to_string(), "{name}"),
        }
        assert_eq!(moved_report, report, "{name}");
    }
}
