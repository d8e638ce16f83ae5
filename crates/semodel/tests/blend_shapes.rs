//! The SEBlend trailer through the scene: per-vertex shape offsets <-> morph targets.

use animbin_core::math::Vec3;
use animbin_core::scene::{ConversionReport, MorphTarget, Scene};
use animbin_semodel::deployed;
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Layout, MeshBlend, SceneOptions, SeModel, Trailer, VertexBlend, read, to_bytes,
};

fn to_scene(model: &SeModel) -> (Scene, Vec<String>) {
    let mut report = ConversionReport::default();
    let scene = model.to_scene(&SceneOptions::default(), &mut report).unwrap();
    (scene, report.lost)
}

fn from_scene(scene: &Scene, layout: Layout) -> (SeModel, Vec<String>) {
    let mut report = ConversionReport::default();
    let model = SeModel::from_scene_in(scene, layout, &SceneOptions::default(), &mut report).unwrap();
    (model, report.lost)
}

fn testdata(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn delta(shape: u32, x: f32, y: f32, z: f32) -> BlendDelta {
    BlendDelta {
        shape,
        delta: Vec3::new(x, y, z),
    }
}

fn vertex(deltas: Vec<BlendDelta>) -> VertexBlend {
    VertexBlend { deltas }
}

/// Two meshes of 3 vertices; shapes "b", "a", "b" (a name twice), the second mesh using
/// only the last shape and the first mesh listing two shapes on one vertex.
fn two_meshes() -> SeModel {
    let mesh = |x: f32| deployed::Mesh {
        positions: vec![Vec3::new(x, 0.0, 0.0), Vec3::new(x, 1.0, 0.0), Vec3::new(x, 0.0, 1.0)],
        faces: vec![[0, 1, 2]],
        ..Default::default()
    };
    SeModel::Deployed(deployed::Model {
        meshes: Block::Present(vec![mesh(0.0), mesh(5.0)]),
        trailer: Trailer::SeBlend(BlendShapes {
            names: vec!["b".into(), "a".into(), "b".into()],
            meshes: vec![
                MeshBlend {
                    vertices: vec![
                        vertex(vec![delta(0, 0.5, 0.0, 0.0), delta(1, 0.0, 0.25, 0.0)]),
                        vertex(vec![]),
                        vertex(vec![delta(1, 0.0, 0.0, -1.0)]),
                    ],
                },
                MeshBlend {
                    vertices: vec![vertex(vec![]), vertex(vec![delta(2, 1.0, 2.0, 3.0)]), vertex(vec![])],
                },
            ],
        }),
        ..Default::default()
    })
}

#[test]
fn every_mesh_gets_one_target_per_shape_with_the_vertices_that_list_it() {
    let (scene, lost) = to_scene(&two_meshes());
    assert_eq!(lost, Vec::<String>::new());
    let target = |name: &str, indices: Vec<u32>, deltas: Vec<Vec3<f32>>| MorphTarget {
        name: name.into(),
        indices,
        position_deltas: deltas,
        ..Default::default()
    };
    assert_eq!(
        scene.meshes[0].morph_targets,
        vec![
            target("b", vec![0], vec![Vec3::new(0.5, 0.0, 0.0)]),
            target(
                "a",
                vec![0, 2],
                vec![Vec3::new(0.0, 0.25, 0.0), Vec3::new(0.0, 0.0, -1.0)]
            ),
            target("b", vec![], vec![]),
        ]
    );
    assert_eq!(
        scene.meshes[1].morph_targets,
        vec![
            target("b", vec![], vec![]),
            target("a", vec![], vec![]),
            target("b", vec![1], vec![Vec3::new(1.0, 2.0, 3.0)]),
        ]
    );
}

#[test]
fn seblend_through_the_scene_is_byte_exact_in_both_layouts() {
    for (name, model) in [
        ("two meshes", two_meshes()),
        (
            "testdata/sample_blend.semodel",
            read(&testdata("sample_blend.semodel")).unwrap(),
        ),
    ] {
        let bytes = to_bytes(&model).unwrap();
        let (scene, lost) = to_scene(&model);
        assert!(!lost.iter().any(|l| l.contains("SEBlend")), "{name}: {lost:?}");
        assert!(
            scene
                .meshes
                .iter()
                .any(|m| m.morph_targets.iter().any(|t| !t.indices.is_empty()))
        );
        let (back, _) = from_scene(&scene, Layout::Deployed);
        let back_bytes = to_bytes(&back).unwrap();
        assert_eq!(back.trailer(), model.trailer(), "{name}");
        // The trailer's bytes come back whole; the rest of the sample differs only where the
        // scene rebuilds other blocks (its bone flags), so the canonical file is compared whole.
        let trailer = bytes.len() - bytes.windows(8).rposition(|w| w == b"SEBlend\n").unwrap();
        assert_eq!(
            back_bytes[back_bytes.len() - trailer..],
            bytes[bytes.len() - trailer..],
            "{name}"
        );
        if name == "two meshes" {
            assert_eq!(back_bytes, bytes, "{name}");
        }
        // The draft carries the same trailer after its own blocks.
        let (draft, _) = from_scene(&scene, Layout::Draft);
        let SeModel::Draft(d) = read(&to_bytes(&draft).unwrap()).unwrap() else {
            panic!("{name}: not a draft")
        };
        assert_eq!(&d.trailer, model.trailer(), "{name}");
    }
}

#[test]
fn targets_built_in_any_order_give_each_vertex_its_offsets_in_target_order() {
    let (mut scene, _) = to_scene(&two_meshes());
    // Mesh 0 lists "a" before "b": the name list follows first appearance.
    scene.meshes[0].morph_targets.swap(0, 1);
    scene.meshes[0].morph_targets.truncate(2);
    scene.meshes[1].morph_targets.clear();
    let (back, lost) = from_scene(&scene, Layout::Deployed);
    assert_eq!(lost, Vec::<String>::new());
    let blend = back.trailer().seblend().unwrap();
    assert_eq!(blend.names, ["a", "b"]);
    assert_eq!(
        blend.meshes[0].vertices[0],
        vertex(vec![delta(0, 0.0, 0.25, 0.0), delta(1, 0.5, 0.0, 0.0)])
    );
    assert_eq!(blend.meshes[1].vertices, vec![VertexBlend::default(); 3]);
}

#[test]
fn what_seblend_cannot_hold_is_reported_and_what_points_nowhere_is_refused() {
    let (mut scene, _) = to_scene(&two_meshes());
    scene.meshes[0].morph_targets[0].normal_deltas = vec![Vec3::new(0.0, 1.0, 0.0)];
    scene.meshes[0].morph_targets[0].max_weight = Some(2.0);
    let (_, lost) = from_scene(&scene, Layout::Deployed);
    assert!(lost.iter().any(|l| l.contains("normal offsets")), "{lost:?}");
    assert!(lost.iter().any(|l| l.contains("maximum weights")), "{lost:?}");
    scene.meshes[0].morph_targets[0].indices = vec![3];
    let mut report = ConversionReport::default();
    let err = SeModel::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap_err();
    assert!(err.to_string().contains("moves vertex 3 of 3"), "{err}");

    // A shape index past the names is refused on the way in.
    let SeModel::Deployed(mut m) = two_meshes() else {
        unreachable!()
    };
    if let Trailer::SeBlend(blend) = &mut m.trailer {
        blend.meshes[1].vertices[0] = vertex(vec![delta(3, 0.0, 0.0, 0.0)]);
    }
    let mut report = ConversionReport::default();
    let err = SeModel::Deployed(m)
        .to_scene(&SceneOptions::default(), &mut report)
        .unwrap_err();
    assert!(
        err.to_string().contains("moves shape 3, past the 3 shape names"),
        "{err}"
    );
}
