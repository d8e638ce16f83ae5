//! IK handles, constraints and model names: Cast nodes -> scene -> Cast, compared whole, and
//! what is reported where a handle or constraint cannot be kept.

use animbin_cast::{
    CastFile, ConversionReport, Node, NodeKind, Property, SceneOptions, Value, Vec3, Vec4, read, to_bytes,
};
use animbin_core::math::{Quat, Transform};
use animbin_core::scene::{self, Constraint, ConstraintKind, ConstraintOffset, IkHandle, Scene};

mod scene_io;

use scene_io::{from_scene, to_scene};

/// A bone node with a hash of its own, a parent index and a local position.
fn bone(hash: u64, name: &str, parent: i32, x: f32) -> Node {
    Node::with(
        NodeKind::Bone,
        hash,
        vec![
            Property::string("n", name.to_owned()),
            Property::new("p", Value::Integer(vec![parent as u32])),
            Property::new("lp", Value::Vec3(vec![Vec3::new(x, 0.0, 0.0)])),
            Property::new("lr", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])),
        ],
        vec![],
    )
}

/// A leg (hip, knee, ankle), a foot target and a knee pole, one IK handle with every field and
/// three constraints (one per type), under a Model named "soldier".
fn rig_file() -> CastFile {
    let bones = vec![
        bone(100, "hip", -1, 0.0),
        bone(101, "knee", 0, 1.0),
        bone(102, "ankle", 1, 1.0),
        bone(103, "foot_target", -1, 2.0),
        bone(104, "knee_pole", -1, 3.0),
    ];
    let ik = Node::with(
        NodeKind::IkHandle,
        200,
        vec![
            Property::string("n", "leg_ik"),
            Property::hash("sb", 100),
            Property::hash("eb", 102),
            Property::hash("tb", 103),
            Property::new("to", Value::Vec3(vec![Vec3::new(0.0, 0.5, 0.0)])),
            Property::hash("pv", 104),
            Property::hash("pb", 101),
            Property::boolean("tr", true),
        ],
        vec![],
    );
    let point = Node::with(
        NodeKind::Constraint,
        201,
        vec![
            Property::string("n", "follow"),
            Property::string("ct", "pt"),
            Property::hash("cb", 104),
            Property::hash("tb", 103),
            Property::boolean("mo", true),
            Property::new("co", Value::Vec3(vec![Vec3::new(1.0, 2.0, 3.0)])),
            Property::new("wt", Value::Float(vec![0.5])),
            Property::boolean("sy", true),
        ],
        vec![],
    );
    let orient = Node::with(
        NodeKind::Constraint,
        202,
        vec![
            Property::string("ct", "or"),
            Property::hash("cb", 103),
            Property::hash("tb", 100),
            Property::new("co", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.6, 0.8)])),
            Property::boolean("sx", true),
            Property::boolean("sz", true),
        ],
        vec![],
    );
    let scale = Node::with(
        NodeKind::Constraint,
        203,
        vec![
            Property::string("ct", "sc"),
            Property::hash("cb", 101),
            Property::hash("tb", 100),
        ],
        vec![],
    );
    let mut skeleton_children = bones;
    skeleton_children.extend([ik, point, orient, scale]);
    let skeleton = Node::with(NodeKind::Skeleton, 11, vec![], skeleton_children);
    let model = Node::with(
        NodeKind::Model,
        10,
        vec![Property::string("n", "soldier")],
        vec![skeleton],
    );
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![model])],
    }
}

fn expected_rig() -> (Vec<IkHandle>, Vec<Constraint>) {
    let handles = vec![IkHandle {
        name: "leg_ik".into(),
        start: 0,
        end: 2,
        target: Some(3),
        target_offset: Some(animbin_core::math::Vec3::new(0.0, 0.5, 0.0)),
        pole_vector: Some(4),
        pole: Some(1),
        use_target_rotation: true,
    }];
    let constraints = vec![
        Constraint {
            name: "follow".into(),
            kind: ConstraintKind::Point,
            bone: 4,
            target: 3,
            maintain_offset: true,
            offset: Some(ConstraintOffset::Vector(animbin_core::math::Vec3::new(1.0, 2.0, 3.0))),
            weight: Some(0.5),
            skip: [false, true, false],
        },
        Constraint {
            name: String::new(),
            kind: ConstraintKind::Orient,
            bone: 3,
            target: 0,
            maintain_offset: false,
            offset: Some(ConstraintOffset::Rotation(Quat::new(
                0.0,
                0.0,
                f64::from(0.6f32),
                f64::from(0.8f32),
            ))),
            weight: None,
            skip: [true, false, true],
        },
        Constraint {
            name: String::new(),
            kind: ConstraintKind::Scale,
            bone: 1,
            target: 0,
            maintain_offset: false,
            offset: None,
            weight: None,
            skip: [false; 3],
        },
    ];
    (handles, constraints)
}

#[test]
fn ik_handles_constraints_and_the_model_name_reach_the_scene() {
    let (scene, lost) = to_scene(&rig_file());
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(scene.name, "soldier");
    let (handles, constraints) = expected_rig();
    assert_eq!(scene.skeleton.ik_handles, handles);
    assert_eq!(scene.skeleton.constraints, constraints);
}

#[test]
fn cast_scene_cast_keeps_the_rig_and_the_name_whole() {
    let (scene, _) = to_scene(&rig_file());
    let (file, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    // The file the scene writes reads back to the same scene, and writes the same file again.
    let bytes = to_bytes(&file).unwrap();
    let reread = read(&bytes).unwrap();
    let (again, lost) = to_scene(&reread);
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(again, scene);
    assert_eq!(from_scene(&again).0, file);
    // The written model holds the name first and the rig after the bones, naming their hashes.
    let model = &file.roots[0].children[0];
    assert_eq!(model.properties[0], Property::string("n", "soldier"));
    let skeleton = &model.children[0];
    let kinds: Vec<_> = skeleton.children.iter().map(|c| c.kind()).collect();
    let mut want = vec![Some(NodeKind::Bone); 5];
    want.extend([
        Some(NodeKind::IkHandle),
        Some(NodeKind::Constraint),
        Some(NodeKind::Constraint),
        Some(NodeKind::Constraint),
    ]);
    assert_eq!(kinds, want);
    let ik = &skeleton.children[5];
    assert_eq!(
        ik.property("eb").map(|p| &p.value),
        Some(&Value::Long(vec![skeleton.children[2].hash]))
    );
}

#[test]
fn the_rewritten_file_equals_a_reference_ordered_input() {
    // A file laid out as from_scene lays it out comes back equal, node for node.
    let (scene, _) = to_scene(&rig_file());
    let (file, _) = from_scene(&scene);
    let (scene2, _) = to_scene(&file);
    let (file2, _) = from_scene(&scene2);
    assert_eq!(file2, file);
}

#[test]
fn handles_and_constraints_naming_no_bone_are_skipped_and_reported() {
    let mut file = rig_file();
    let skeleton = &mut file.roots[0].children[0].children[0];
    // The IK handle's end bone and the first constraint's target name no bone.
    skeleton.children[5].properties[2] = Property::hash("eb", 999);
    skeleton.children[6].properties[3] = Property::hash("tb", 998);
    skeleton.children[8].properties[0] = Property::string("ct", "aim");
    let (scene, lost) = to_scene(&file);
    assert!(scene.skeleton.ik_handles.is_empty());
    let (_, constraints) = expected_rig();
    assert_eq!(scene.skeleton.constraints, vec![constraints[1].clone()]);
    assert_eq!(
        lost,
        vec![
            "IK handles without start and end bones of their skeleton (skipped)".to_string(),
            "constraints without constrained and target bones of their skeleton (skipped)".to_string(),
            "constraints of a type other than pt, or and sc (skipped)".to_string(),
        ]
    );
}

#[test]
fn a_scene_rig_naming_a_bone_past_the_skeleton_is_refused() {
    let (mut scene, _) = to_scene(&rig_file());
    scene.skeleton.constraints[0].target = 9;
    let mut report = ConversionReport::default();
    assert!(CastFile::from_scene(&scene, &SceneOptions::default(), &mut report).is_err());
}

#[test]
fn a_scene_without_rig_or_name_writes_what_it_wrote_before() {
    let scene = Scene {
        skeleton: scene::Skeleton {
            bones: vec![scene::Bone {
                kind: Default::default(),
                name: "root".into(),
                parent: None,
                local: Transform::IDENTITY,
                global: Transform::IDENTITY,
                cosmetic: false,
                scale_compensate: true,
                rest_scale: Vec3::ONE,
            }],
            ..Default::default()
        },
        ..Default::default()
    };
    let (file, _) = from_scene(&scene);
    let model = &file.roots[0].children[0];
    assert!(model.property("n").is_none());
    assert_eq!(model.children[0].children.len(), 1);
}

#[test]
fn every_colour_layer_goes_to_cast_and_back_whole() {
    use animbin_core::math::Rgba8;
    let v = animbin_core::math::Vec3::new;
    let layer = |k: u8| (0..3).map(|i| Rgba8::new(k, i, 255 - k, 128 + i)).collect::<Vec<_>>();
    let scene = Scene {
        meshes: vec![scene::Mesh {
            positions: vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)],
            faces: vec![[0, 1, 2]],
            colors: layer(0),
            extra_color_layers: vec![layer(1), layer(2)],
            ..Default::default()
        }],
        ..Default::default()
    };
    let (file, lost) = from_scene(&scene);
    assert_eq!(lost, Vec::<String>::new());
    let mesh = &file.roots[0].children[0].children[0];
    assert_eq!(mesh.property("cl").map(|p| &p.value), Some(&Value::Byte(vec![3])));
    assert_eq!(
        mesh.property("c2").map(|p| &p.value),
        Some(&Value::Integer(
            layer(2)
                .iter()
                .map(|c| u32::from_le_bytes([c.r, c.g, c.b, c.a]))
                .collect()
        ))
    );
    let (back, lost) = to_scene(&read(&to_bytes(&file).unwrap()).unwrap());
    assert_eq!(lost, Vec::<String>::new());
    assert_eq!(back, scene);
}

#[test]
fn colour_layers_of_the_wrong_length_are_refused_on_write() {
    let v = animbin_core::math::Vec3::new;
    let scene = Scene {
        meshes: vec![scene::Mesh {
            positions: vec![v(0.0, 0.0, 0.0); 3],
            faces: vec![[0, 1, 2]],
            colors: vec![animbin_core::math::Rgba8::new(1, 2, 3, 4); 3],
            extra_color_layers: vec![vec![animbin_core::math::Rgba8::new(1, 2, 3, 4); 2]],
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut report = ConversionReport::default();
    assert!(CastFile::from_scene(&scene, &SceneOptions::default(), &mut report).is_err());
}
