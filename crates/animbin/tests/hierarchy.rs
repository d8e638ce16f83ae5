//! Deep hierarchies: a chain of 100,000 bones, each the child of the one before, read from
//! glTF, SEModel and Cast, converted to the others and read back. Every step is linear in
//! the bones and recurses nowhere (a test thread's stack is 2 MiB: a recursion as deep as
//! the chain would overflow it), so these run in a debug build in a few seconds.

use std::fmt::Write as _;

use animbin::cast::{CastFile, Node, NodeKind, Property, Value};
use animbin::semodel::{Block, Bone, BoneFlags, Pose, SeModel, deployed};
use animbin::{ConvertOptions, Document, Scene, SceneOptions, Target};
use animbin_core::math::{Quat, Vec3, Vec4};

/// The bones in each chain.
const BONES: usize = 100_000;

/// A glTF (JSON) chain as another tool might write it, leaf first: node `i` is the bone at
/// depth `BONES - 1 - i` (called `bone_{depth}`), one unit above its parent, and the root is
/// the last node. No skin, so every node is a bone, listed children before parents.
fn gltf_chain_leaf_first() -> Vec<u8> {
    let root = BONES - 1;
    let mut json = format!(r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[{root}]}}],"nodes":["#);
    for i in 0..BONES {
        if i > 0 {
            json.push(',');
        }
        let depth = BONES - 1 - i;
        write!(json, r#"{{"name":"bone_{depth}","translation":[0,1,0]"#).unwrap();
        if i > 0 {
            write!(json, r#","children":[{}]"#, i - 1).unwrap();
        }
        json.push('}');
    }
    json.push_str("]}");
    json.into_bytes()
}

/// An SEModel chain, root first, with both bind poses.
fn semodel_chain() -> Vec<u8> {
    let identity = Quat::new(0.0, 0.0, 0.0, 1.0);
    let bones = (0..BONES)
        .map(|b| Bone {
            name: format!("bone_{b}"),
            parent: b as i32 - 1,
            global: Some(Pose {
                position: Vec3::new(0.0, (b + 1) as f32, 0.0),
                rotation: identity,
            }),
            local: Some(Pose {
                position: Vec3::new(0.0, 1.0, 0.0),
                rotation: identity,
            }),
            ..Default::default()
        })
        .collect();
    let model = SeModel::Deployed(deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX,
        bones: Block::Present(bones),
        ..Default::default()
    });
    animbin::semodel::to_bytes(&model).unwrap()
}

/// A Cast chain, root first, with local poses only (the world ones are computed down the
/// chain when read).
fn cast_chain() -> Vec<u8> {
    let bones = (0..BONES)
        .map(|b| {
            Node::with(
                NodeKind::Bone,
                100 + b as u64,
                vec![
                    Property::string("n", format!("bone_{b}")),
                    Property::new("p", Value::Integer(vec![(b as u32).wrapping_sub(1)])),
                    Property::new("lp", Value::Vec3(vec![Vec3::new(0.0, 1.0, 0.0)])),
                    Property::new("lr", Value::Vec4(vec![Vec4::new(0.0, 0.0, 0.0, 1.0)])),
                ],
                vec![],
            )
        })
        .collect();
    let skeleton = Node::with(NodeKind::Skeleton, 2, vec![], bones);
    let model = Node::with(NodeKind::Model, 1, vec![], vec![skeleton]);
    let file = CastFile {
        flags: 0,
        roots: vec![Node::with(NodeKind::Root, 0, vec![], vec![model])],
    };
    animbin::cast::to_bytes(&file).unwrap()
}

fn scene_of(bytes: &[u8]) -> Scene {
    let document = Document::parse(bytes, None).unwrap();
    document
        .to_scene(&SceneOptions::default(), &mut Default::default())
        .unwrap()
}

/// The claim every chain's scene must meet: bone `k` is `bone_{k}`, the child of bone `k - 1`,
/// one unit above it, so its bind pose in model space is `k + 1` units up.
fn assert_is_the_chain(scene: &Scene) {
    let bones = &scene.skeleton.bones;
    assert_eq!(bones.len(), BONES);
    for (k, bone) in bones.iter().enumerate() {
        assert_eq!(bone.name, format!("bone_{k}"));
        assert_eq!(bone.parent, k.checked_sub(1));
        assert_eq!(bone.local.translation, Vec3::new(0.0, 1.0, 0.0), "bone {k}");
        assert_eq!(bone.global.translation, Vec3::new(0.0, (k + 1) as f64, 0.0), "bone {k}");
    }
}

/// Skeletons compared bone by bone, naming the first that differs (not printing 100,000):
/// whole bones, or with `hierarchy_only` their names, parents and both bind poses (what
/// every format holds; a flag of one format, such as Cast's scale compensation, differs
/// between formats by design).
fn assert_same_skeleton(got: &Scene, expected: &Scene, hierarchy_only: bool, what: &str) {
    let (got, expected) = (&got.skeleton.bones, &expected.skeleton.bones);
    assert_eq!(got.len(), expected.len(), "{what}: bone count");
    let same = |a: &animbin_core::scene::Bone, b: &animbin_core::scene::Bone| {
        if hierarchy_only {
            (&a.name, a.parent, a.local, a.global) == (&b.name, b.parent, b.local, b.global)
        } else {
            a == b
        }
    };
    if let Some(k) = (0..got.len()).find(|&k| !same(&got[k], &expected[k])) {
        panic!("{what}: bone {k} is {:?}, not {:?}", got[k], expected[k]);
    }
}

/// `bytes` converted to `target`, and the bytes written.
fn convert(bytes: &[u8], target: Target) -> Vec<u8> {
    let document = Document::parse(bytes, None).unwrap();
    animbin::convert(&document, target, &ConvertOptions::default())
        .unwrap()
        .to_bytes()
        .unwrap()
}

#[test]
fn a_gltf_chain_listed_leaf_first_reads_root_first_and_converts() {
    let bytes = gltf_chain_leaf_first();
    let scene = scene_of(&bytes);
    assert_is_the_chain(&scene);
    let semodel = convert(&bytes, Target::SeModel);
    assert_same_skeleton(&scene_of(&semodel), &scene, true, "glTF to SEModel");
}

#[test]
fn an_semodel_chain_reads_converts_and_round_trips() {
    let bytes = semodel_chain();
    let scene = scene_of(&bytes);
    assert_is_the_chain(&scene);
    // The glb read back with one import (a Document would import it twice: once to check it).
    let glb = convert(&bytes, Target::Glb);
    let from_glb = animbin::gltf::to_scene(&glb, &SceneOptions::default(), &mut Default::default()).unwrap();
    assert_same_skeleton(&from_glb, &scene, true, "SEModel to glb");
    // Through the scene and back: the same bytes.
    let again = animbin::convert_scene(&scene, Target::SeModel, &ConvertOptions::default()).unwrap();
    assert!(again.to_bytes().unwrap() == bytes);
}

#[test]
fn a_cast_chain_reads_converts_and_round_trips() {
    let bytes = cast_chain();
    let scene = scene_of(&bytes);
    assert_is_the_chain(&scene);
    assert_same_skeleton(
        &scene_of(&convert(&bytes, Target::SeModel)),
        &scene,
        true,
        "Cast to SEModel",
    );
    let again = animbin::convert_scene(&scene, Target::Cast, &ConvertOptions::default()).unwrap();
    let back = scene_of(&again.to_bytes().unwrap());
    assert_same_skeleton(&back, &scene, false, "Cast through the scene");
    let without_bones = |scene: Scene| Scene {
        skeleton: Default::default(),
        ..scene
    };
    assert_eq!(without_bones(back), without_bones(scene));
}

#[test]
fn a_cycle_at_the_end_of_a_long_chain_is_named_by_its_first_node() {
    // The leaf-first chain with the root made a child of the leaf (node 0): every node is
    // on one cycle of 100,000, and node 0 is named.
    let text = String::from_utf8(gltf_chain_leaf_first()).unwrap();
    let leaf = r#""translation":[0,1,0]}"#;
    let text = text.replacen(
        leaf,
        &format!(r#""translation":[0,1,0],"children":[{}]}}"#, BONES - 1),
        1,
    );
    let error = Document::parse(text.as_bytes(), None).unwrap_err().to_string();
    assert!(
        error.contains("/nodes/0") && error.contains("without cycles"),
        "{error}"
    );
}
