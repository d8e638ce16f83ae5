//! How a skin blends (linear or dual-quaternion skinning) through `convert`: Cast states it
//! (`sm`), glTF keeps it in animbin's extras (other tools skin linearly, which is said), and
//! every other format with meshes says it drops it.

mod read_back;

use read_back::scene_of;

use animbin::core::math::{Transform, Vec3};
use animbin::core::scene::{Bone, ConversionReport, Mesh, Scene, Skeleton, SkinBlend, SkinWeights};
use animbin::{ConvertOptions, Document, Target};

/// One bone and a triangle bound to it, skinned with `blend`.
fn skinned(blend: SkinBlend) -> Scene {
    Scene {
        skeleton: Skeleton {
            bones: vec![Bone {
                kind: Default::default(),
                name: "root".into(),
                parent: None,
                local: Transform::IDENTITY,
                global: Transform::IDENTITY,
                cosmetic: false,
                scale_compensate: false,
                rest_scale: Vec3::ONE,
            }],
            ..Skeleton::default()
        },
        meshes: vec![Mesh {
            name: "tri".into(),
            positions: vec![
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ],
            faces: vec![[0, 1, 2]],
            skin: Some(SkinWeights {
                skin: None,
                influences: 1,
                bones: vec![0, 0, 0],
                weights: vec![1.0, 1.0, 1.0],
                blend,
            }),
            ..Mesh::default()
        }],
        ..Scene::default()
    }
}

/// The blend of the first mesh of `bytes` read back, and the `sm` property of a Cast file.
fn read_back(bytes: &[u8]) -> (Option<SkinBlend>, Option<String>) {
    let document = Document::parse(bytes, None).unwrap();
    let sm = match &document {
        Document::Cast(cast) => cast
            .roots
            .iter()
            .flat_map(|root| &root.children)
            .flat_map(|model| &model.children)
            .filter_map(|node| node.as_mesh())
            .find_map(|mesh| mesh.skinning_method().map(str::to_string)),
        _ => None,
    };
    let scene = scene_of(bytes);
    (scene.meshes[0].skin.as_ref().map(|s| s.blend), sm)
}

#[test]
fn cast_states_dual_quaternion_skinning_and_leaves_linear_unsaid() {
    let conversion = animbin::convert_scene(
        &skinned(SkinBlend::DualQuaternion),
        Target::Cast,
        &ConvertOptions::default(),
    )
    .unwrap();
    assert_eq!(conversion.lost_lines(), Vec::<String>::new());
    assert_eq!(
        read_back(&conversion.to_bytes().unwrap()),
        (Some(SkinBlend::DualQuaternion), Some("quaternion".to_string()))
    );
    let conversion =
        animbin::convert_scene(&skinned(SkinBlend::Linear), Target::Cast, &ConvertOptions::default()).unwrap();
    assert_eq!(
        read_back(&conversion.to_bytes().unwrap()),
        (Some(SkinBlend::Linear), None)
    );
}

#[test]
fn gltf_keeps_the_blend_for_animbin_and_says_other_tools_skin_linearly() {
    for target in [Target::Glb, Target::Gltf] {
        let conversion =
            animbin::convert_scene(&skinned(SkinBlend::DualQuaternion), target, &ConvertOptions::default()).unwrap();
        assert_eq!(
            conversion.report.lost,
            ["dual-quaternion skinning of 1 mesh(es) (glTF skins linearly)"],
            "{target:?}"
        );
        assert_eq!(
            read_back(&conversion.to_bytes().unwrap()),
            (Some(SkinBlend::DualQuaternion), None)
        );
        // Linear skinning writes no extras and loses nothing.
        let conversion =
            animbin::convert_scene(&skinned(SkinBlend::Linear), target, &ConvertOptions::default()).unwrap();
        assert_eq!(conversion.report.lost, Vec::<String>::new(), "{target:?}");
        let bytes = conversion.to_bytes().unwrap();
        assert!(!String::from_utf8_lossy(&bytes).contains("skin_blend"), "{target:?}");
    }
}

#[test]
fn formats_that_skin_linearly_report_dual_quaternion_skinning() {
    for (target, label) in [(Target::SeModel, "SEModel"), (Target::Dmf, "DMF")] {
        let conversion =
            animbin::convert_scene(&skinned(SkinBlend::DualQuaternion), target, &ConvertOptions::default()).unwrap();
        let line = format!("dual-quaternion skinning of 1 mesh(es) ({label} skins linearly)");
        assert!(
            conversion.report.lost.contains(&line),
            "{target:?}: {:#?}",
            conversion.report.lost
        );
        let conversion =
            animbin::convert_scene(&skinned(SkinBlend::Linear), target, &ConvertOptions::default()).unwrap();
        assert!(
            !conversion.report.lost.iter().any(|l| l.contains("dual-quaternion")),
            "{target:?}: {:#?}",
            conversion.report.lost
        );
    }
}

#[test]
fn the_format_author_s_skinned_model_is_dual_quaternion_skinned() {
    let Some(dir) = animbin_testing::shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast") else {
        return;
    };
    let bytes = std::fs::read(dir.join("ref_skinned_model.cast")).unwrap();
    let mut report = ConversionReport::default();
    let scene = Document::parse(&bytes, None)
        .unwrap()
        .to_scene(&Default::default(), &mut report)
        .unwrap();
    let blends: Vec<SkinBlend> = scene
        .meshes
        .iter()
        .filter_map(|m| m.skin.as_ref())
        .map(|s| s.blend)
        .collect();
    assert!(
        !blends.is_empty() && blends.iter().all(|&b| b == SkinBlend::DualQuaternion),
        "{blends:?}"
    );
    assert!(
        !report.lost.iter().any(|l| l.contains("skinning")),
        "{:#?}",
        report.lost
    );
}
