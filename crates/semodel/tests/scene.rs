//! Conversion to and from the scene model: what is derived, what is refused, what is reported.

use animbin_core::math::{Quat, Transform, Vec2, Vec3};
use animbin_core::scene::{
    Bone as SceneBone, ConversionReport, Material as SceneMaterial, Mesh, Scene, Skeleton, SkinWeights,
};
use animbin_semodel::deployed;
use animbin_semodel::{
    BlendShapes, Block, Bone, BoneFlags, Layout, MeshBlend, MeshFlags, Pose, SceneOptions, SeModel, Trailer,
    VertexBlend, read, to_bytes, validate,
};
use half::f16;

fn at(x: f32, y: f32, z: f32) -> Pose {
    Pose {
        position: Vec3::new(x, y, z),
        rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
    }
}

fn skeleton_model(flags: BoneFlags, bones: Vec<Bone>) -> SeModel {
    SeModel::Deployed(deployed::Model {
        bone_flags: flags,
        bones: Block::Present(bones),
        ..Default::default()
    })
}

fn triangle() -> Mesh {
    Mesh {
        positions: vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ],
        faces: vec![[0, 1, 2]],
        ..Default::default()
    }
}

fn scene_with(mesh: Mesh) -> Scene {
    Scene {
        meshes: vec![mesh],
        ..Default::default()
    }
}

fn refused(scene: &Scene, text: &str) {
    for layout in [Layout::Deployed, Layout::Draft] {
        let err = SeModel::from_scene_in(
            scene,
            layout,
            &SceneOptions::default(),
            &mut ConversionReport::default(),
        )
        .expect_err("converted");
        assert!(err.to_string().contains(text), "{layout:?}: {err}");
    }
}

#[test]
fn a_skeleton_with_only_global_matrices_gets_its_local_ones() {
    let model = skeleton_model(
        BoneFlags::GLOBAL_MATRIX,
        vec![
            Bone {
                name: "root".into(),
                parent: -1,
                global: Some(at(1.0, 0.0, 0.0)),
                ..Default::default()
            },
            Bone {
                name: "child".into(),
                parent: 0,
                global: Some(at(1.0, 2.0, 0.0)),
                ..Default::default()
            },
        ],
    );
    let scene = Scene::try_from(&model).unwrap();
    let child = &scene.skeleton.bones[1];
    assert_eq!(child.parent, Some(0));
    assert_eq!(child.local.translation, Vec3::new(0.0, 2.0, 0.0));
    assert_eq!(child.global.translation, Vec3::new(1.0, 2.0, 0.0));
}

#[test]
fn a_skeleton_with_only_local_matrices_and_scales_gets_global_ones() {
    let model = skeleton_model(
        BoneFlags::LOCAL_MATRIX | BoneFlags::SCALES,
        vec![
            Bone {
                name: "root".into(),
                parent: -1,
                local: Some(at(1.0, 0.0, 0.0)),
                scale: Some(Vec3::new(2.0, 2.0, 2.0)),
                ..Default::default()
            },
            Bone {
                name: "child".into(),
                parent: 0,
                local: Some(at(0.0, 1.0, 0.0)),
                scale: Some(Vec3::new(1.0, 1.0, 1.0)),
                ..Default::default()
            },
        ],
    );
    let scene = Scene::try_from(&model).unwrap();
    let child = &scene.skeleton.bones[1];
    assert_eq!(child.global.translation, Vec3::new(1.0, 2.0, 0.0));
    assert_eq!(child.global.scale, Vec3::new(2.0, 2.0, 2.0));
    assert_eq!(scene.skeleton.bones[0].local.scale, Vec3::new(2.0, 2.0, 2.0));
}

#[test]
fn a_parent_cycle_or_a_parent_out_of_range_is_refused() {
    for parents in [[1, 0], [-1, 2], [-1, 1], [-1, -2]] {
        let bones = parents
            .iter()
            .map(|&parent| Bone {
                parent,
                local: Some(Pose::default()),
                ..Default::default()
            })
            .collect();
        let model = skeleton_model(BoneFlags::LOCAL_MATRIX, bones);
        assert!(
            model
                .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
                .is_err(),
            "{parents:?}"
        );
    }
    let mut scene = Scene::default();
    scene.skeleton.bones = vec![
        SceneBone {
            kind: Default::default(),
            scale_compensate: false,
            rest_scale: Vec3::ONE,
            name: "a".into(),
            parent: Some(1),
            local: Transform::IDENTITY,
            global: Transform::IDENTITY,
            cosmetic: false,
        };
        2
    ];
    scene.skeleton.bones[1].parent = Some(0);
    refused(&scene, "cycle");
}

#[test]
fn a_mesh_with_more_than_255_uv_layers_is_refused() {
    let mut mesh = triangle();
    mesh.uv_layers = vec![vec![Vec2::new(0.0, 0.0); 3]; 256];
    refused(&scene_with(mesh), "256 UV layers");
}

#[test]
fn indices_that_point_nowhere_are_refused() {
    let mut mesh = triangle();
    mesh.faces = vec![[0, 1, 3]];
    refused(&scene_with(mesh), "points past its 3 vertices");

    let mut mesh = triangle();
    mesh.skin = Some(SkinWeights {
        skin: None,
        influences: 1,
        bones: vec![0, 0, 1],
        weights: vec![1.0; 3],
        blend: Default::default(),
    });
    refused(&scene_with(mesh), "names bone");

    let mut mesh = triangle();
    mesh.uv_layers = vec![vec![Vec2::new(0.0, 0.0); 3]];
    mesh.materials = vec![Some(0)];
    refused(&scene_with(mesh), "material 0 of 0");

    let mut mesh = triangle();
    mesh.normals = vec![Vec3::new(0.0, 0.0, 1.0); 2];
    refused(&scene_with(mesh), "2 normals for 3 vertices");
}

#[test]
fn indices_that_point_nowhere_in_a_file_are_refused_too() {
    let mut mesh = deployed::Mesh {
        positions: vec![Vec3::default(); 3],
        faces: vec![[0, 1, 9]],
        ..Default::default()
    };
    let model = |mesh: deployed::Mesh| {
        SeModel::Deployed(deployed::Model {
            meshes: Block::Present(vec![mesh]),
            ..Default::default()
        })
    };
    assert!(
        model(mesh.clone())
            .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
            .is_err()
    );
    mesh.faces = vec![[0, 1, 2]];
    mesh.material_indices = vec![0];
    assert!(
        model(mesh)
            .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
            .is_err()
    );
}

fn skinned_scene() -> Scene {
    let mut a = triangle();
    a.normals = vec![Vec3::new(0.0, 0.0, 1.0); 3];
    a.uv_layers = vec![vec![Vec2::new(0.5, 0.25); 3]];
    a.materials = vec![Some(0)];
    a.skin = Some(SkinWeights {
        skin: None,
        influences: 2,
        bones: vec![0, 1, 0, 1, 1, 0],
        weights: vec![0.5, 0.5, 0.25, 0.75, 1.0, 0.0],
        blend: Default::default(),
    });
    let mut b = triangle();
    b.skin = Some(SkinWeights {
        skin: None,
        influences: 1,
        bones: vec![1; 3],
        weights: vec![1.0; 3],
        blend: Default::default(),
    });
    Scene {
        skeleton: Skeleton {
            bones: vec![
                SceneBone {
                    kind: Default::default(),
                    scale_compensate: false,
                    rest_scale: Vec3::ONE,
                    name: "root".into(),
                    parent: None,
                    local: Transform::IDENTITY,
                    global: Transform::IDENTITY,
                    cosmetic: false,
                },
                SceneBone {
                    kind: Default::default(),
                    scale_compensate: false,
                    rest_scale: Vec3::ONE,
                    name: "arm".into(),
                    parent: Some(0),
                    local: Transform::IDENTITY,
                    global: Transform::IDENTITY,
                    cosmetic: false,
                },
            ],
            ..Default::default()
        },
        meshes: vec![a, b],
        materials: vec![SceneMaterial {
            name: "skin".into(),
            diffuse_map: Some("skin.png".into()),
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[test]
fn a_scene_becomes_a_deployed_model_that_reads_back_and_validates() {
    let scene = skinned_scene();
    let mut report = ConversionReport::default();
    let model = SeModel::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    // Mesh b has no normals while mesh a has: SEModel's flags apply to every mesh.
    assert_eq!(report.lost.len(), 1, "{report:?}");
    assert!(report.lost[0].contains("normals on mesh 1"));
    let SeModel::Deployed(m) = &model else { unreachable!() };
    assert_eq!(
        m.mesh_flags,
        MeshFlags::UV_SET | MeshFlags::NORMALS | MeshFlags::WEIGHTS
    );
    assert_eq!(m.meshes.items()[1].max_influence, 1);
    assert_eq!(m.meshes.items()[1].material_indices, Vec::<i32>::new());
    let bytes = to_bytes(&model).unwrap();
    assert_eq!(read(&bytes).unwrap(), model);
    assert_eq!(validate(&model), vec![]);
    let back = model
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .unwrap();
    assert_eq!(back.meshes[0].skin, scene.meshes[0].skin);
    assert_eq!(back.meshes[0].uv_layers, scene.meshes[0].uv_layers);
    assert_eq!(back.materials[0].diffuse_map.as_deref(), Some("skin.png"));
    assert_eq!(back.materials[0].normal_map.as_deref(), Some(""));
    assert!(SeModel::try_from(&scene).is_err(), "TryFrom refuses a lossy conversion");
}

#[test]
fn a_scene_becomes_a_draft_model_with_padded_influences_and_half_floats() {
    let scene = skinned_scene();
    let mut report = ConversionReport::default();
    let model = SeModel::from_scene_in(&scene, Layout::Draft, &SceneOptions::default(), &mut report).unwrap();
    assert!(report.lost.iter().any(|l| l.contains("half floats")), "{report:?}");
    assert!(
        report.lost.iter().any(|l| l.contains("material definitions")),
        "{report:?}"
    );
    let SeModel::Draft(m) = &model else { unreachable!() };
    assert_eq!(m.max_skin_influence, 2);
    assert_eq!(m.material_count, 1);
    let b = &m.meshes.items()[1].vertices;
    assert_eq!(b.bone_indices, vec![1, 0, 1, 0, 1, 0], "unused slots are (0, 0.0)");
    assert_eq!(b.bone_weights[1], f16::from_f32(0.0));
    assert_eq!(m.meshes.items()[0].vertices.uv_materials, vec![0; 3]);
    let bytes = to_bytes(&model).unwrap();
    assert_eq!(&bytes[9..11], &[0x1E, 0]);
    assert_eq!(read(&bytes).unwrap(), model);
    assert_eq!(validate(&model), vec![]);
    let mut report = ConversionReport::default();
    let back = model.to_scene(&SceneOptions::default(), &mut report).unwrap();
    assert_eq!(
        back.meshes[0].skin, scene.meshes[0].skin,
        "these weights are exact in half floats"
    );
    assert_eq!(back.meshes[0].materials, vec![Some(0)]);
    assert_eq!(back.materials[0].name, "material0");
}

#[test]
fn other_scene_content_is_reported_not_dropped_silently() {
    let mut scene = scene_with(triangle());
    scene.meshes[0].name = "body".into();
    scene.animations.push(Default::default());
    let mut report = ConversionReport::default();
    SeModel::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    assert!(report.lost.iter().any(|l| l.contains("1 animations")), "{report:?}");
    assert!(report.lost.iter().any(|l| l.contains("mesh names")), "{report:?}");
}

#[test]
fn to_layout_rebuilds_through_the_scene_and_reports_what_is_lost() {
    let mut report = ConversionReport::default();
    let deployed = SeModel::from_scene(&skinned_scene(), &SceneOptions::default(), &mut report).unwrap();
    let SeModel::Deployed(mut m) = deployed.clone() else {
        unreachable!()
    };
    m.trailer = Trailer::SeBlend(BlendShapes {
        names: vec!["smile".into()],
        meshes: m
            .meshes
            .items()
            .iter()
            .map(|mesh| MeshBlend {
                vertices: vec![VertexBlend::default(); mesh.positions.len()],
            })
            .collect(),
    });
    let with_blend = SeModel::Deployed(m);

    // The same layout is the same model: nothing is lost, the bytes do not change.
    let mut report = ConversionReport::default();
    let same = with_blend
        .to_layout(Layout::Deployed, &SceneOptions::default(), &mut report)
        .unwrap();
    assert_eq!(same, with_blend);
    assert!(report.is_lossless(), "{report:?}");

    // The other layout goes through the scene, which keeps the blend shapes as morph targets;
    // the draft loses the material definitions and the precision of normals and weights.
    let mut report = ConversionReport::default();
    let draft = with_blend
        .to_layout(Layout::Draft, &SceneOptions::default(), &mut report)
        .unwrap();
    assert_eq!(draft.layout(), Layout::Draft);
    assert_eq!(draft.vertex_count(), with_blend.vertex_count());
    assert_eq!(draft.face_count(), with_blend.face_count());
    let SeModel::Draft(d) = &draft else { unreachable!() };
    assert_eq!(d.trailer, with_blend.trailer().clone());
    for lost in [
        "material definitions (the draft layout has no material block; only the count is kept)",
        "normal precision (the draft layout stores half floats)",
        "weight precision (the draft layout stores half floats)",
    ] {
        assert!(report.lost.iter().any(|l| l == lost), "{lost}: {report:?}");
    }
    assert_eq!(read(&to_bytes(&draft).unwrap()).unwrap(), draft);

    // And back: the draft's placeholders stand in for the material definitions.
    let mut report = ConversionReport::default();
    let back = draft
        .to_layout(Layout::Deployed, &SceneOptions::default(), &mut report)
        .unwrap();
    assert_eq!(back.layout(), Layout::Deployed);
    assert!(
        report
            .lost
            .iter()
            .any(|l| l.starts_with("material definitions (the draft layout has none")),
        "{report:?}"
    );
    assert_eq!(back.mesh_count(), deployed.mesh_count());
}

/// A model no longer needed moves its arrays into the scene: the scene (or the error) and the
/// report are [`SeModel::to_scene`]'s, in both layouts, for every sample and corpus file.
#[test]
fn into_scene_gives_the_scene_to_scene_gives() {
    let options = SceneOptions::default();
    for (name, bytes) in animbin_testing::samples(env!("CARGO_MANIFEST_DIR"), "semodel") {
        let deployed = read(&bytes).unwrap();
        let draft = deployed
            .to_layout(Layout::Draft, &options, &mut ConversionReport::default())
            .unwrap();
        for (k, model) in [deployed, draft].into_iter().enumerate() {
            let mut report = ConversionReport::default();
            let scene = model.to_scene(&options, &mut report);
            // Every file as read has a scene (the draft made from it may refuse one).
            assert!(k == 1 || scene.is_ok(), "{name}: {scene:?}");
            let mut moved_report = ConversionReport::default();
            let moved = model.into_scene(&options, &mut moved_report);
            match (moved, scene) {
                (Ok(moved), Ok(scene)) => assert_eq!(moved, scene, "{name}"),
                (moved, scene) => assert_eq!(moved.unwrap_err().to_string(), scene.unwrap_err().to_string(), "{name}"),
            }
            assert_eq!(moved_report, report, "{name}");
        }
    }
}
