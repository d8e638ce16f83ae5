//! `validate`: a file that uses every node type breaks no rule; each change below breaks
//! exactly one, reported at its node and property.

use animbin_cast::{
    CastFile, Location, Node, NodeId, NodeKind, Problem, Property, Severity, Value, Vec2, Vec3, Vec4, validate,
};

fn s(name: &'static str, value: &str) -> Property {
    Property::string(name, value.to_owned())
}

fn v(name: &'static str, value: Value) -> Property {
    Property::new(name, value)
}

const MATERIAL: u64 = 20;
const TEXTURE: u64 = 21;
const MESH: u64 = 30;
const BONES: [u64; 3] = [11, 12, 13];

/// A valid file with every node type: the model in root 0, the rest beside it.
fn every_node() -> CastFile {
    let bone = |i: usize, parent: i32| {
        Node::with(
            NodeKind::Bone,
            BONES[i],
            vec![
                s("n", &format!("b{i}")),
                v("p", Value::Integer(vec![parent as u32])),
                v("ssc", Value::Byte(vec![1])),
                v("lp", Value::Vec3(vec![Vec3::new(0.0, 1.0, 0.0)])),
                v("lr", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])),
                v("s", Value::Vec3(vec![Vec3::new(1.0, 1.0, 1.0)])),
            ],
            vec![],
        )
    };
    let ik = Node::with(
        NodeKind::IkHandle,
        14,
        vec![
            Property::hash("sb", BONES[0]),
            Property::hash("eb", BONES[2]),
            v("to", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0)])),
            Property::boolean("tr", false),
        ],
        vec![],
    );
    let constraint = Node::with(
        NodeKind::Constraint,
        15,
        vec![
            s("ct", "or"),
            Property::hash("cb", BONES[1]),
            Property::hash("tb", BONES[0]),
            v("co", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])),
            v("wt", Value::Float(vec![1.0])),
        ],
        vec![],
    );
    let skeleton = Node::with(
        NodeKind::Skeleton,
        10,
        vec![],
        vec![bone(0, -1), bone(1, 0), bone(2, 1), ik, constraint],
    );
    let texture = Node::with(NodeKind::File, TEXTURE, vec![s("p", "body.png")], vec![]);
    let tint = Node::with(
        NodeKind::Color,
        22,
        vec![
            s("cs", "srgb"),
            v("rgba", Value::Vec4(vec![Vec4::new(1.0, 1.0, 1.0, 1.0)])),
        ],
        vec![],
    );
    let material = Node::with(
        NodeKind::Material,
        MATERIAL,
        vec![
            s("n", "body"),
            s("t", "pbr"),
            Property::hash("albedo", TEXTURE),
            Property::hash("extra0", 22),
        ],
        vec![texture, tint],
    );
    let mesh = Node::with(
        NodeKind::Mesh,
        MESH,
        vec![
            s("n", "tri"),
            v("vp", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 3])),
            v("vn", Value::Vec3(vec![Vec3::new(0.0, 0.0, 1.0); 3])),
            v("u0", Value::Vec2(vec![Vec2::new(0.0, 0.0); 3])),
            v("ul", Value::Byte(vec![1])),
            v("c0", Value::Integer(vec![u32::MAX; 3])),
            v("cl", Value::Byte(vec![1])),
            v("wb", Value::Byte(vec![0, 1, 2, 2, 1, 0])),
            v("wv", Value::Float(vec![0.5; 6])),
            v("mi", Value::Byte(vec![2])),
            v("f", Value::Short(vec![0, 1, 2])),
            s("sm", "linear"),
            Property::hash("m", MATERIAL),
        ],
        vec![],
    );
    let shape = Node::with(
        NodeKind::BlendShape,
        31,
        vec![
            s("n", "smile"),
            Property::hash("b", MESH),
            v("vi", Value::Byte(vec![2])),
            v("vp", Value::Vec3(vec![Vec3::new(1.0, 1.0, 1.0)])),
            v("ts", Value::Float(vec![1.0])),
        ],
        vec![],
    );
    let hair = Node::with(
        NodeKind::Hair,
        32,
        vec![
            v("se", Value::Byte(vec![1, 2])),
            v("pt", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 5])),
            Property::hash("m", MATERIAL),
        ],
        vec![],
    );
    let model = Node::with(
        NodeKind::Model,
        2,
        vec![s("n", "body"), v("p", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0)]))],
        vec![skeleton, material, mesh, shape, hair],
    );
    let curve = Node::with(
        NodeKind::Curve,
        41,
        vec![
            s("nn", "b0"),
            s("kp", "rq"),
            v("kb", Value::Byte(vec![0, 1])),
            v("kv", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0); 2])),
            s("m", "absolute"),
        ],
        vec![],
    );
    let visibility = Node::with(
        NodeKind::Curve,
        42,
        vec![
            s("nn", "b1"),
            s("kp", "vb"),
            v("kb", Value::Byte(vec![0])),
            v("kv", Value::Byte(vec![1])),
            s("m", "absolute"),
        ],
        vec![],
    );
    let cmov = Node::with(
        NodeKind::CurveModeOverride,
        43,
        vec![s("nn", "b1"), s("m", "additive"), Property::boolean("or", true)],
        vec![],
    );
    let notes = Node::with(
        NodeKind::NotificationTrack,
        44,
        vec![s("n", "step"), v("kb", Value::Byte(vec![1]))],
        vec![],
    );
    let anim = Node::with(
        NodeKind::Animation,
        3,
        vec![v("fr", Value::Float(vec![30.0])), Property::boolean("lo", true)],
        vec![curve, visibility, cmov, notes],
    );
    let file = Node::with(NodeKind::File, 51, vec![s("p", "crate.cast")], vec![]);
    let instance = Node::with(
        NodeKind::Instance,
        4,
        vec![
            Property::hash("rf", 51),
            v("p", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0)])),
            v("r", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])),
            v("s", Value::Vec3(vec![Vec3::new(1.0, 1.0, 1.0)])),
        ],
        vec![file],
    );
    let meta = Node::with(NodeKind::Metadata, 5, vec![s("up", "z")], vec![]);
    CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 1, vec![], vec![model, anim, instance, meta])],
    }
}

fn model(file: &mut CastFile) -> &mut Node {
    &mut file.roots[0].children[0]
}

fn child<'a>(file: &'a mut CastFile, path: &[usize]) -> &'a mut Node {
    let mut at = &mut file.roots[0];
    for &i in path {
        at = &mut at.children[i];
    }
    at
}

fn set(node: &mut Node, name: &'static str, value: Value) {
    match node.properties.iter_mut().find(|p| p.name == name) {
        Some(p) => p.value = value,
        None => node.push(Property::new(name, value)),
    }
}

fn remove(node: &mut Node, name: &str) {
    node.properties.retain(|p| p.name != name);
}

/// The one problem `change` makes.
fn one_problem(change: impl FnOnce(&mut CastFile)) -> Problem {
    let mut file = every_node();
    change(&mut file);
    let problems = validate(&file);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    problems.into_iter().next().unwrap()
}

fn line(change: impl FnOnce(&mut CastFile)) -> String {
    one_problem(change).to_string()
}

/// An error at `node` (its path), about `property` when one is given, saying `message`:
/// every rule `validate` checks is an error.
fn error(node: &str, property: Option<&str>, message: &str) -> Problem {
    let location = match property {
        Some(p) => format!("{node} property {p:?}"),
        None => node.to_string(),
    };
    Problem::new(Severity::Error, Location::Item(location), message)
}

const MODEL: &str = "root 0 > modl 0 (\"body\")";
const SKELETON: &str = "root 0 > modl 0 (\"body\") > skel 0";
const MESH_NODE: &str = "root 0 > modl 0 (\"body\") > mesh 2 (\"tri\")";
const SHAPE: &str = "root 0 > modl 0 (\"body\") > blsh 3 (\"smile\")";
const ROTATION_CURVE: &str = "root 0 > anim 1 > curv 0 (\"b0\")";

fn bone_path(i: usize) -> String {
    format!("{SKELETON} > bone {i} (\"b{i}\")")
}

#[test]
fn a_file_with_every_node_type_breaks_no_rule() {
    let file = every_node();
    assert_eq!(validate(&file), vec![]);
    for kind in NodeKind::ALL {
        assert!(file.count(kind) > 0, "{kind} is in the test file");
    }
}

#[test]
fn places_are_checked() {
    assert_eq!(
        one_problem(|f| f.roots.push(Node::new(NodeKind::Model, 9))),
        error("modl 1", None, "a top-level node must be a Root (root), not modl")
    );
    assert_eq!(
        line(|f| model(f).children.push(Node::new(NodeKind::Metadata, 9))),
        "root 0 > modl 0 (\"body\") > meta 5: a Metadata cannot be a child of a Model"
    );
    assert_eq!(
        line(|f| model(f).children.push(Node::new(NodeKind::Skeleton, 9))),
        "root 0 > modl 0 (\"body\") > skel 5: a second Skeleton in one Model"
    );
    assert_eq!(
        one_problem(|f| f.roots[0].children.push(Node::new(NodeKind::Metadata, 3))),
        error(
            "root 0 > meta 4",
            None,
            "hash 0x0000000000000003 is also the hash of root 0 > anim 1, in the same Root"
        )
    );
    // Inside an unknown node nothing is checked, and unknown ids are allowed anywhere.
    let mut file = every_node();
    let mut unknown = Node::new(NodeId::from_tag(*b"xtra"), 3);
    unknown.children.push(Node::new(NodeKind::Mesh, 1));
    model(&mut file).children.push(unknown);
    assert_eq!(validate(&file), vec![]);
}

#[test]
fn property_types_shapes_values_and_presence_are_checked() {
    assert_eq!(
        line(|f| set(child(f, &[0, 2]), "vp", Value::Vec2(vec![Vec2::new(0.0, 0.0); 3]))),
        "root 0 > modl 0 (\"body\") > mesh 2 (\"tri\") property \"vp\": type 2v is not 3v"
    );
    assert_eq!(
        line(|f| set(child(f, &[0, 2]), "mi", Value::Float(vec![2.0]))),
        "root 0 > modl 0 (\"body\") > mesh 2 (\"tri\") property \"mi\": type f is not b, h or i"
    );
    let p = one_problem(|f| {
        set(
            child(f, &[0, 0, 0]),
            "lp",
            Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 2]),
        )
    });
    assert_eq!(p, error(&bone_path(0), Some("lp"), "holds one value, not 2"));
    assert_eq!(
        one_problem(|f| remove(child(f, &[0, 2]), "f")),
        error(MESH_NODE, Some("f"), "is required and missing")
    );
    let modes = "additive, absolute, relative";
    for (path, node, name, value, allowed) in [
        (&[0, 2][..], MESH_NODE, "sm", "cubic", "linear, quaternion"),
        (&[1, 0], ROTATION_CURVE, "m", "blend", modes),
        (
            &[1, 0],
            ROTATION_CURVE,
            "kp",
            "qx",
            "rq, tx, ty, tz, sx, sy, sz, bs, vb",
        ),
        (&[1, 2], "root 0 > anim 1 > CMOV 2 (\"b1\")", "m", "", modes),
        (&[3], "root 0 > meta 3", "up", "w", "x, y, z"),
        (
            &[0, 1, 1],
            "root 0 > modl 0 (\"body\") > matl 1 (\"body\") > colr 1",
            "cs",
            "hsv",
            "srgb, linear",
        ),
        (
            &[0, 0, 4],
            "root 0 > modl 0 (\"body\") > skel 0 > cnst 4",
            "ct",
            "aim",
            "pt, or, sc",
        ),
    ] {
        let p = one_problem(|f| set(child(f, path), name, Value::String(vec![value.into()])));
        assert_eq!(
            p,
            error(node, Some(name), &format!("is {value:?}, not one of {allowed}"))
        );
    }
    let p = one_problem(|f| remove(child(f, &[0, 2]), "ul"));
    assert_eq!(
        p.to_string(),
        "root 0 > modl 0 (\"body\") > mesh 2 (\"tri\") property \"ul\": is missing, though u0 is present"
    );
    assert_eq!(
        one_problem(|f| remove(child(f, &[0, 2]), "mi")),
        error(MESH_NODE, Some("mi"), "is missing, though wb is present")
    );
}

#[test]
fn hashes_must_name_a_node_of_the_right_type_in_their_scope() {
    let p = one_problem(|f| set(child(f, &[0, 2]), "m", Value::Long(vec![99])));
    assert_eq!(
        p.to_string(),
        "root 0 > modl 0 (\"body\") > mesh 2 (\"tri\") property \"m\": names hash 0x0000000000000063, which no child of the same Model has"
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 3]), "b", Value::Long(vec![MATERIAL]))),
        error(
            SHAPE,
            Some("b"),
            "names hash 0x0000000000000014, a matl node, not a Mesh"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 0, 3]), "eb", Value::Long(vec![14]))),
        error(
            &format!("{SKELETON} > ikhd 3"),
            Some("eb"),
            "names hash 0x000000000000000e, a ikhd node, not a Bone"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 0, 4]), "tb", Value::Long(vec![MESH]))),
        error(
            &format!("{SKELETON} > cnst 4"),
            Some("tb"),
            "names hash 0x000000000000001e, which no child of the same Skeleton has"
        ),
        "a mesh is not in the skeleton"
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 1]), "normal", Value::Long(vec![MESH]))),
        error(
            &format!("{MODEL} > matl 1 (\"body\")"),
            Some("normal"),
            "names hash 0x000000000000001e, which no child of this node has"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[2]), "rf", Value::Long(vec![4]))),
        error(
            "root 0 > inst 2",
            Some("rf"),
            "names hash 0x0000000000000004, which no child of this node has"
        )
    );
}

#[test]
fn arrays_must_agree_with_the_vertex_count_and_each_other() {
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 2]), "vn", Value::Vec3(vec![Vec3::new(0.0, 0.0, 1.0); 2]))),
        error(MESH_NODE, Some("vn"), "has 2 elements, not 3 (the vertex count)")
    );
    let p = one_problem(|f| {
        set(
            child(f, &[0, 2]),
            "c0",
            Value::Vec4(vec![Vec4::new(1.0, 1.0, 1.0, 1.0); 4]),
        )
    });
    assert_eq!(
        p,
        error(MESH_NODE, Some("c0"), "has 4 elements, not 3 (the vertex count)")
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 2]), "wv", Value::Float(vec![1.0; 3]))),
        error(
            MESH_NODE,
            Some("wv"),
            "has 3 elements, not 6 (3 vertices times 2 influences)"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 2]), "ul", Value::Byte(vec![2]))),
        error(MESH_NODE, Some("u1"), "is missing, though the layer count is 2")
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 4]), "pt", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0); 4]))),
        error(
            &format!("{MODEL} > hair 4"),
            Some("pt"),
            "has 4 elements, not 5 (the strands' segments plus one each)"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 3]), "vi", Value::Byte(vec![0, 1]))),
        error(SHAPE, Some("vp"), "has 1 elements, not 2 (the length of vi)")
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[1, 0]), "kb", Value::Byte(vec![0, 1, 2]))),
        error(ROTATION_CURVE, Some("kv"), "has 2 elements, not 3 (the length of kb)")
    );
}

#[test]
fn indices_must_stay_inside_their_arrays() {
    let p = one_problem(|f| set(child(f, &[0, 2]), "f", Value::Short(vec![0, 1, 2, 0, 3, 4])));
    assert_eq!(
        p.to_string(),
        "root 0 > modl 0 (\"body\") > mesh 2 (\"tri\") property \"f\": entry 4 is 3, not below the 3 vertices (and 1 more entries)"
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 2]), "f", Value::Short(vec![0, 1]))),
        error(MESH_NODE, Some("f"), "has 2 indices, not a multiple of 3")
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 2]), "wb", Value::Byte(vec![0, 1, 2, 3, 1, 0]))),
        error(
            MESH_NODE,
            Some("wb"),
            "entry 3 is 3, not below the 3 bones of the model's skeleton"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 3]), "vi", Value::Byte(vec![3]))),
        error(
            SHAPE,
            Some("vi"),
            "entry 0 is 3, not below the 3 vertices of the base mesh"
        )
    );
    // Weights in a model without a skeleton name no bone at all.
    let mut file = every_node();
    model(&mut file).children.remove(0);
    assert_eq!(
        validate(&file),
        [error(
            &format!("{MODEL} > mesh 1 (\"tri\")"),
            Some("wb"),
            "entry 0 is 0, not below the 0 bones of the model's skeleton (and 5 more entries)"
        )]
    );
}

#[test]
fn bone_parents_must_be_in_range_and_free_of_cycles() {
    let parent =
        |value: i32| move |f: &mut CastFile| set(child(f, &[0, 0, 1]), "p", Value::Integer(vec![value as u32]));
    assert_eq!(
        one_problem(parent(3)),
        error(
            &bone_path(1),
            Some("p"),
            "parent 3 is neither -1 nor one of the 3 bones"
        )
    );
    assert_eq!(
        one_problem(parent(-2)),
        error(
            &bone_path(1),
            Some("p"),
            "parent -2 is neither -1 nor one of the 3 bones"
        )
    );
    assert_eq!(
        one_problem(parent(1)),
        error(&bone_path(1), Some("p"), "the bone is its own parent")
    );
    // A parent listed after its child is fine; a cycle is not (every bone of it is named).
    let mut file = every_node();
    set(child(&mut file, &[0, 0, 0]), "p", Value::Integer(vec![2]));
    set(child(&mut file, &[0, 0, 2]), "p", Value::Integer(vec![u32::MAX]));
    assert_eq!(validate(&file), vec![]);
    set(child(&mut file, &[0, 0, 2]), "p", Value::Integer(vec![1]));
    let cycle: Vec<Problem> = (0..3)
        .map(|i| {
            error(
                &bone_path(i),
                Some("p"),
                "the bone is its own ancestor (a parent cycle)",
            )
        })
        .collect();
    assert_eq!(validate(&file), cycle);
    // A conversion refuses it at the first bone's `p`, which validate names first, whether
    // it reads the file or takes its arrays (it was byte 0); a parent out of range too.
    let at_first_p = |file: &CastFile| {
        let bytes = animbin_cast::to_bytes(file).unwrap();
        let view = animbin_cast::View::parse(&bytes).unwrap();
        let bone = view.nodes().find(|n| n.kind() == Some(NodeKind::Bone)).unwrap();
        bone.property("p").unwrap().offset()
    };
    let refused_at = |file: &CastFile| {
        let options = animbin_cast::SceneOptions::default();
        let borrowed = file.to_scene(&options, &mut Default::default()).unwrap_err();
        let owned = file.clone().into_scene(&options, &mut Default::default()).unwrap_err();
        assert_eq!(borrowed.to_string(), owned.to_string());
        (borrowed.offset, borrowed.to_string())
    };
    let (offset, message) = refused_at(&file);
    assert_eq!(offset, at_first_p(&file), "{message}");
    assert!(
        message.ends_with("found bone 0 (\"b0\") is its own ancestor (a parent cycle)"),
        "{message}"
    );
    let mut file = every_node();
    set(child(&mut file, &[0, 0, 0]), "p", Value::Integer(vec![7]));
    assert_eq!(refused_at(&file).0, at_first_p(&file));
}

#[test]
fn offsets_and_key_values_must_have_the_type_their_kind_needs() {
    assert_eq!(
        one_problem(|f| set(child(f, &[0, 0, 4]), "co", Value::Vec3(vec![Vec3::new(0.0, 0.0, 0.0)]))),
        error(
            &format!("{SKELETON} > cnst 4"),
            Some("co"),
            "type 3v is not 4v (for ct \"or\")"
        )
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[1, 0]), "kv", Value::Float(vec![0.0, 1.0]))),
        error(ROTATION_CURVE, Some("kv"), "type f is not 4v (for kp \"rq\")")
    );
    assert_eq!(
        one_problem(|f| set(child(f, &[1, 1]), "kv", Value::Float(vec![1.0]))),
        error(
            "root 0 > anim 1 > curv 1 (\"b1\")",
            Some("kv"),
            "type f is not b, h or i (for kp \"vb\")"
        )
    );
}
