//! Property tests: for both layouts, model -> bytes -> model gives the same model, and the
//! bytes the writer produces (arbitrary float bits included) survive bytes -> model -> bytes;
//! the view agrees with the reader; a scene-shaped model survives model -> scene -> model.

use animbin_core::math::Vec3;
use animbin_core::scene::ConversionReport;
use animbin_semodel::deployed::{self};
use animbin_semodel::{Block, Bone, BoneFlags, Influence, SceneOptions, SeModel, View, read, to_bytes};
use proptest::collection::vec;
use proptest::prelude::*;

mod strategies;
use strategies::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn deployed_model_bytes_model(m in deployed_model(Floats::Finite)) {
        let model = SeModel::Deployed(m);
        let bytes = to_bytes(&model).unwrap();
        prop_assert_eq!(read(&bytes).unwrap(), model.clone());
        let SeModel::Deployed(m) = &model else { unreachable!() };
        prop_assert_eq!(&View::parse(&bytes).unwrap().to_model(), m);
    }

    #[test]
    fn deployed_bytes_model_bytes(m in deployed_model(Floats::AnyBits)) {
        let bytes = to_bytes(&SeModel::Deployed(m)).unwrap();
        prop_assert_eq!(to_bytes(&read(&bytes).unwrap()).unwrap(), bytes.clone());
        let view = View::parse(&bytes).unwrap();
        prop_assert_eq!(to_bytes(&SeModel::Deployed(view.to_model())).unwrap(), bytes);
    }

    #[test]
    fn draft_model_bytes_model(m in draft_model(Floats::Finite)) {
        let model = SeModel::Draft(m);
        let bytes = to_bytes(&model).unwrap();
        prop_assert_eq!(&bytes[9..11], &[0x1E, 0]);
        prop_assert_eq!(read(&bytes).unwrap(), model);
    }

    #[test]
    fn draft_bytes_model_bytes(m in draft_model(Floats::AnyBits)) {
        let bytes = to_bytes(&SeModel::Draft(m)).unwrap();
        prop_assert_eq!(to_bytes(&read(&bytes).unwrap()).unwrap(), bytes);
    }

    #[test]
    fn any_prefix_or_corruption_of_a_file_is_an_error_or_a_model_never_a_panic(
        m in deployed_model(Floats::AnyBits),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = to_bytes(&SeModel::Deployed(m)).unwrap();
        let at = flip.index(bytes.len());
        bytes[at] = byte;
        let bytes = &bytes[..cut.index(bytes.len() + 1)];
        // The view fails exactly when the reader fails, and at the same byte.
        match (read(bytes), View::parse(bytes)) {
            // Compared as bytes: the floats may be NaN. Every model that reads also writes.
            (Ok(SeModel::Deployed(m)), Ok(view)) => {
                let read_back = to_bytes(&SeModel::Deployed(m)).unwrap();
                prop_assert!(read_back == bytes, "a file that reads is rewritten as it was");
                prop_assert!(to_bytes(&SeModel::Deployed(view.to_model())).unwrap() == read_back);
            }
            (Ok(m @ SeModel::Draft(_)), Err(_)) => prop_assert!(to_bytes(&m).unwrap() == bytes),
            (Err(a), Err(b)) => prop_assert_eq!(a.offset, b.offset, "{} / {}", a, b),
            (a, b) => prop_assert!(false, "read {:?} but view {:?}", a.map(|_| ()), b.map(|_| ())),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_prefix_or_corruption_of_a_draft_file_is_an_error_or_a_model_never_a_panic(
        m in draft_model(Floats::AnyBits),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = to_bytes(&SeModel::Draft(m)).unwrap();
        let at = flip.index(bytes.len());
        bytes[at] = byte;
        let bytes = &bytes[..cut.index(bytes.len() + 1)];
        if let Ok(model) = read(bytes) {
            prop_assert!(to_bytes(&model).unwrap() == bytes, "a file that reads is rewritten as it was");
        }
    }
}

// ---- model -> scene -> model, for models in the shape the scene conversion produces ----

fn scene_shaped_bones() -> impl Strategy<Value = (Vec<Bone>, BoneFlags)> {
    (0usize..5, any::<bool>()).prop_flat_map(|(n, scaled)| {
        let bones: Vec<_> = (0..n)
            .map(|i| {
                (
                    name(),
                    if i == 0 {
                        Just(-1).boxed()
                    } else {
                        (-1..i as i32).boxed()
                    },
                    pose(Floats::Finite),
                    pose(Floats::Finite),
                    maybe(scaled, vec3(Floats::Finite)),
                )
                    .prop_map(|(name, parent, global, local, scale)| Bone {
                        name,
                        flags: 0,
                        parent,
                        global: Some(global),
                        local: Some(local),
                        scale,
                    })
            })
            .collect();
        bones.prop_map(move |mut bones| {
            // The scene writes SCALES only when some scale differs from 1.
            let scaled = scaled && bones.iter().any(|b| b.scale != Some(Vec3::new(1.0, 1.0, 1.0)));
            if !scaled {
                bones.iter_mut().for_each(|b| b.scale = None);
            }
            let mut flags = BoneFlags::from_bits_retain(0);
            if !bones.is_empty() {
                flags = BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX;
                if scaled {
                    flags |= BoneFlags::SCALES;
                }
            }
            (bones, flags)
        })
    })
}

fn scene_shaped_model() -> impl Strategy<Value = deployed::Model> {
    (scene_shaped_bones(), 0usize..3, any::<[bool; 4]>())
        .prop_flat_map(|((bones, bone_flags), materials, has)| {
            let bone_count = bones.len() as u32;
            let mesh = (1usize..6, 0usize..3, 1u8..3).prop_flat_map(move |(v, layers, influences)| {
                let layers = if has[0] { layers } else { 0 };
                let skinned = has[3] && bone_count > 0;
                (
                    vec(vec3(Floats::Finite), v),
                    vec(vec2(Floats::Finite), v * layers),
                    vec(vec3(Floats::Finite), if has[1] { v } else { 0 }),
                    vec(color(), if has[2] { v } else { 0 }),
                    vec(
                        (0..bone_count.max(1), float(Floats::Finite))
                            .prop_map(|(bone, weight)| Influence { bone, weight }),
                        if skinned { v * usize::from(influences) } else { 0 },
                    ),
                    vec([0..v as u32, 0..v as u32, 0..v as u32], 0..4),
                    vec(-1..materials as i32, layers),
                )
                    .prop_map(move |arrays| mesh_of(0, if skinned { influences } else { 0 }, arrays))
            });
            (vec(mesh, 0..3), vec(material(), materials), Just((bones, bone_flags)))
        })
        .prop_map(|(meshes, materials, (bones, bone_flags))| {
            let mut model = deployed::Model {
                bone_flags,
                bones: if bones.is_empty() {
                    Block::default()
                } else {
                    Block::Present(bones)
                },
                meshes: if meshes.is_empty() {
                    Block::default()
                } else {
                    Block::Present(meshes)
                },
                materials: if materials.is_empty() {
                    Block::default()
                } else {
                    Block::Present(materials)
                },
                ..Default::default()
            };
            // The flags the scene conversion derives: a part any mesh has.
            let bone_flags = model.bone_flags;
            model.set_flags_from_data();
            model.bone_flags = bone_flags;
            model
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn deployed_model_scene_model(m in scene_shaped_model()) {
        let model = SeModel::Deployed(m);
        let mut report = ConversionReport::default();
        let scene = model.to_scene(&SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        let back = SeModel::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        prop_assert_eq!(back, model);
    }
}
