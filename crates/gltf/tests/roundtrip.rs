//! Scene -> glTF -> scene keeps everything, to f32 precision.

mod common;

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::{AnimKind, Animation, BoneTrack, ConversionReport, Interpolation, Key, Scene};
use animbin_gltf::{Container, SceneOptions};
use animbin_testing::gltf::image_named;
use proptest::prelude::*;

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(scale)
}

fn assert_vec(a: Vec3<f64>, b: Vec3<f64>, scale: f64, what: &str) {
    assert!(
        close(a.x, b.x, scale) && close(a.y, b.y, scale) && close(a.z, b.z, scale),
        "{what}: {a:?} != {b:?}"
    );
}

/// Quaternions q and -q are the same rotation.
fn assert_quat(a: Quat<f64>, b: Quat<f64>, what: &str) {
    let s = if a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0.0 {
        -1.0
    } else {
        1.0
    };
    assert!(
        close(a.x, s * b.x, 1.0) && close(a.y, s * b.y, 1.0) && close(a.z, s * b.z, 1.0) && close(a.w, s * b.w, 1.0),
        "{what}: {a:?} != {b:?}"
    );
}

fn assert_transform(a: &Transform, b: &Transform, what: &str) {
    assert_vec(a.translation, b.translation, 1.0, &format!("{what} translation"));
    assert_quat(a.rotation, b.rotation, &format!("{what} rotation"));
    assert_vec(a.scale, b.scale, 1.0, &format!("{what} scale"));
}

/// Every key of `a` is in `b` at the same frame with the same value.
pub fn assert_animation(a: &Animation, b: &Animation) {
    assert_eq!(a.name, b.name);
    assert_eq!(a.framerate, b.framerate);
    assert_eq!(a.frame_count, b.frame_count);
    assert_eq!(a.looping, b.looping);
    assert_eq!(a.kind, b.kind);
    assert_eq!(a.interpolation, b.interpolation);
    assert_eq!(a.notes, b.notes);
    assert_eq!(a.properties, b.properties);
    assert_eq!(a.bones.len(), b.bones.len(), "tracks");
    for (ta, tb) in a.bones.iter().zip(&b.bones) {
        assert_eq!(ta.bone, tb.bone);
        assert_eq!(ta.kind_override, tb.kind_override, "{}", ta.bone);
        assert_eq!(ta.cosmetic, tb.cosmetic, "{}", ta.bone);
        assert_eq!(
            ta.translation.len(),
            tb.translation.len(),
            "{} translation keys",
            ta.bone
        );
        for (ka, kb) in ta.translation.iter().zip(&tb.translation) {
            assert_eq!(ka.frame, kb.frame);
            // Relative keys come back as (rest + key) - rest in f32: compare at the rest's scale.
            assert_vec(
                ka.value,
                kb.value,
                100.0,
                &format!("{} translation at {}", ta.bone, ka.frame),
            );
        }
        assert_eq!(ta.rotation.len(), tb.rotation.len(), "{} rotation keys", ta.bone);
        for (ka, kb) in ta.rotation.iter().zip(&tb.rotation) {
            assert_eq!(ka.frame, kb.frame);
            assert_quat(ka.value, kb.value, &format!("{} rotation at {}", ta.bone, ka.frame));
        }
        assert_eq!(ta.scale.len(), tb.scale.len(), "{} scale keys", ta.bone);
        for (ka, kb) in ta.scale.iter().zip(&tb.scale) {
            assert_eq!(ka.frame, kb.frame);
            assert_vec(ka.value, kb.value, 1.0, &format!("{} scale at {}", ta.bone, ka.frame));
        }
    }
}

fn round_trip(scene: &Scene, container: Container, options: &SceneOptions) -> (Scene, ConversionReport) {
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(scene, container, options, &mut report).unwrap();
    let back = animbin_gltf::to_scene(&bytes, &SceneOptions::default(), &mut report).unwrap();
    (back, report)
}

#[test]
fn a_full_scene_survives_both_containers_and_the_axis_node() {
    let scene = common::full_scene();
    for container in [Container::Gltf, Container::Glb] {
        for options in common::axis_and_scale_options() {
            let (back, report) = round_trip(&scene, container, &options);
            // The losses: the second material of the mesh, the track of a bone that is not in
            // the skeleton, and the keys of both animations (sines and hundredths) that f32
            // rounds.
            assert_eq!(report.lost.len(), 3, "{:?}", report.lost);
            assert!(
                report.lost[0].contains("2 materials (one per UV layer)"),
                "{:?}",
                report.lost
            );
            assert!(report.lost[1].contains("\"tag_flash\""), "{:?}", report.lost);
            assert!(
                report.lost[2].contains("beyond single precision in 2 animation(s) (\"walk\", \"blink\")"),
                "{:?}",
                report.lost
            );

            // The skeleton, plus the animated node of the missing bone.
            let n = scene.skeleton.bones.len();
            assert_eq!(back.skeleton.bones.len(), n + 1);
            assert_eq!(back.skeleton.bones[n].name, "tag_flash");
            for (a, b) in scene.skeleton.bones.iter().zip(&back.skeleton.bones) {
                assert_eq!(a.name, b.name);
                assert_eq!(a.parent, b.parent);
                assert_transform(&a.local, &b.local, &a.name);
                assert_transform(&a.global, &b.global, &a.name);
            }

            let (a, b) = (&scene.meshes[0], &back.meshes[0]);
            assert_eq!(a.name, b.name);
            assert_eq!(a.positions, b.positions);
            assert_eq!(a.normals, b.normals);
            assert_eq!(a.uv_layers, b.uv_layers);
            assert_eq!(a.colors, b.colors);
            assert_eq!(a.faces, b.faces);
            assert_eq!(a.materials, b.materials);
            let (sa, sb) = (a.skin.as_ref().unwrap(), b.skin.as_ref().unwrap());
            assert_eq!(sa.influences, sb.influences);
            assert_eq!(sa.bones, sb.bones);
            for (wa, wb) in sa.weights.iter().zip(&sb.weights) {
                assert!((wa - wb).abs() < 1e-6, "{:?} {:?}", sa.weights, sb.weights);
            }
            assert_eq!(scene.materials, back.materials);
            assert_eq!(scene.textures, back.textures);
            assert_eq!(scene.animations.len(), back.animations.len());
            for (a, b) in scene.animations.iter().zip(&back.animations) {
                assert_animation(a, b);
            }
        }
    }
}

#[test]
fn the_unit_scale_goes_into_the_data_and_is_divided_out_again() {
    let scene = common::full_scene();
    let options = SceneOptions {
        unit_scale: 0.01,
        ..SceneOptions::default()
    };
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(&scene, Container::Gltf, &options, &mut report).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    // No node scales the scene: the bind pose and the positions are in metres themselves.
    assert!(
        json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n.get("scale").is_none()),
        "{json}"
    );
    assert_eq!(json["scenes"][0]["extras"]["animbin"]["unit_scale"], 0.01);
    let spine = &json["nodes"][1];
    assert_eq!(spine["name"], "j_spine");
    assert_eq!(spine["translation"], serde_json::json!([0.0, 0.0, 0.4]));
    let position = &json["accessors"][json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize];
    assert_eq!(position["max"], serde_json::json!([0.01, 0.0, 0.6]));
    // 0.01 is not a power of two: what does not come back bit for bit is said.
    assert!(
        report.lost[0].starts_with("3 position(s) or translation(s) that do not read back bit for bit"),
        "{:?}",
        report.lost
    );

    // Read back, the lengths are divided by the recorded scale whatever the options say,
    // to within one f32 rounding.
    let other = SceneOptions {
        unit_scale: 2.0,
        z_up: true,
        ..SceneOptions::default()
    };
    let back = animbin_gltf::to_scene(&bytes, &other, &mut ConversionReport::default()).unwrap();
    for (a, b) in scene.skeleton.bones.iter().zip(&back.skeleton.bones) {
        assert_transform(&a.local, &b.local, &a.name);
        assert_transform(&a.global, &b.global, &a.name);
    }
    for (a, b) in scene.meshes[0].positions.iter().zip(&back.meshes[0].positions) {
        assert_vec(a.map(f64::from), b.map(f64::from), 1.0, "position");
    }
    for (a, b) in scene.animations.iter().zip(&back.animations) {
        assert_animation(a, b);
    }

    // A negative scale mirrors through the data: a point reflection, read back as it was.
    let mirror = SceneOptions {
        unit_scale: -1.0,
        ..SceneOptions::default()
    };
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(&scene, Container::Glb, &mirror, &mut report).unwrap();
    let back = animbin_gltf::to_scene(&bytes, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(back.meshes[0].positions, scene.meshes[0].positions);
    assert_eq!(back.meshes[0].normals, scene.meshes[0].normals);
    assert_eq!(back.meshes[0].faces, scene.meshes[0].faces);
    assert_eq!(
        back.skeleton.bones[1].local.translation,
        scene.skeleton.bones[1].local.translation
    );
}

#[test]
fn an_animation_without_a_skeleton_becomes_one_node_per_track() {
    let scene = common::animation_only();
    let (back, report) = round_trip(&scene, Container::Glb, &SceneOptions::default());
    // The one loss: the keys' sines and hundredths, which f32 rounds.
    assert_eq!(
        report.lost,
        ["key values beyond single precision in 1 animation(s) (\"walk\"): rounded to f32 (glTF holds f32)"]
    );
    let names: Vec<_> = back.skeleton.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["tag_origin", "j_spine", "j_gun", "j_mag", "tag_flash"]);
    assert!(
        back.skeleton
            .bones
            .iter()
            .all(|b| b.parent.is_none() && b.local == Transform::IDENTITY)
    );
    assert_animation(&scene.animations[0], &back.animations[0]);
}

#[test]
fn relative_keys_play_over_the_rest_pose_and_come_back() {
    let scene = common::full_scene();
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(
        &scene,
        animbin_gltf::Container::Gltf,
        &SceneOptions::default(),
        &mut report,
    )
    .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    // The first channel is tag_origin's translation; its rest is zero, its keys are x = frame.
    // j_gun's translation (additive override): rest (10, 5, 30) + key (0, t / 10, 0).
    let anim = &json["animations"][0];
    let gun = anim["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["target"]["node"] == 3 && c["target"]["path"] == "translation")
        .unwrap();
    let sampler = &anim["samplers"][gun["sampler"].as_u64().unwrap() as usize];
    let glb = animbin_gltf::repack(&bytes, Container::Glb).unwrap();
    let chunk = animbin_gltf::Glb::parse(&glb).unwrap();
    let output = &json["accessors"][sampler["output"].as_u64().unwrap() as usize];
    let view = &json["bufferViews"][output["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let bin = chunk.bin.unwrap();
    let f = |i: usize| f32::from_le_bytes(bin[start + 4 * i..start + 4 * i + 4].try_into().unwrap());
    assert_eq!([f(0), f(1), f(2)], [10.0, 5.0, 30.0]);
    assert_eq!([f(3), f(4), f(5)], [10.0, 7.0, 30.0]);
    assert_eq!(anim["extras"]["animbin"]["kind"], "relative");
}

#[test]
fn repack_moves_the_buffer_between_containers_and_back_byte_for_byte() {
    let scene = common::full_scene();
    let mut report = ConversionReport::default();
    let gltf = animbin_gltf::to_bytes(
        &scene,
        animbin_gltf::Container::Gltf,
        &SceneOptions::default(),
        &mut report,
    )
    .unwrap();
    let glb = animbin_gltf::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(animbin_gltf::repack(&gltf, Container::Glb).unwrap(), glb);
    assert_eq!(animbin_gltf::repack(&glb, Container::Gltf).unwrap(), gltf);
    assert_eq!(animbin_gltf::repack(&glb, Container::Glb).unwrap(), glb);
}

#[test]
fn step_interpolation_and_fractional_frames_survive() {
    let mut anim = common::step_animation();
    anim.bones[0].translation.push(Key::new(2.5, Vec3::new(1.0, 2.0, 3.0)));
    let scene = Scene {
        animations: vec![anim.clone()],
        ..Scene::default()
    };
    let (back, _) = round_trip(&scene, Container::Gltf, &SceneOptions::default());
    assert_eq!(back.animations[0].interpolation, Interpolation::Step);
    assert_animation(&anim, &back.animations[0]);
}

fn arb_vec() -> impl Strategy<Value = Vec3<f64>> {
    (-1000.0..1000.0f64, -1000.0..1000.0f64, -1000.0..1000.0f64).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn arb_quat() -> impl Strategy<Value = Quat<f64>> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, 0.1..1.0f64).prop_map(|(x, y, z, w)| Quat::new(x, y, z, w).normalized())
}

fn arb_keys<T: std::fmt::Debug + Clone>(value: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<Key<T>>> {
    proptest::collection::btree_map(0u32..500, value, 0..6)
        .prop_map(|m| m.into_iter().map(|(f, v)| Key::new(f64::from(f), v)).collect())
}

fn arb_kind() -> impl Strategy<Value = AnimKind> {
    prop_oneof![
        Just(AnimKind::Absolute),
        Just(AnimKind::Relative),
        Just(AnimKind::Additive),
        Just(AnimKind::Delta)
    ]
}

prop_compose! {
    fn arb_track(name: String)(
        translation in arb_keys(arb_vec()),
        rotation in arb_keys(arb_quat()),
        scale in arb_keys(arb_vec()),
        kind_override in proptest::option::of(arb_kind()),
        cosmetic in any::<bool>(),
    ) -> BoneTrack {
        BoneTrack {
            bone: name.clone(),
            kind_override,
            cosmetic,
            translation: translation.into(),
            rotation: rotation.into(),
            scale: scale.into(),
            ..BoneTrack::default()
        }
    }
}

prop_compose! {
    fn arb_animation()(
        tracks in proptest::collection::vec(0usize..5, 1..5)
            .prop_flat_map(|ids| {
                let mut names: Vec<String> = ids.iter().map(|i| format!("bone{i}")).collect();
                names.sort();
                names.dedup();
                names.into_iter().map(arb_track).collect::<Vec<_>>()
            }),
        framerate in prop_oneof![Just(30.0), Just(24.0), Just(60.0), Just(15.0), Just(29.97)],
        kind in arb_kind(),
        step in any::<bool>(),
        looping in any::<bool>(),
    ) -> Animation {
        let last = tracks.iter().flat_map(|t| {
            t.translation.iter().map(|k| k.frame).chain(t.rotation.iter().map(|k| k.frame)).chain(t.scale.iter().map(|k| k.frame))
        }).fold(0.0, f64::max);
        Animation {
            name: "prop".into(),
            framerate,
            frame_count: last + 1.0,
            looping,
            kind,
            interpolation: if step { Interpolation::Step } else { Interpolation::Linear },
            bones: tracks,
            ..Animation::default()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Keys at the same frames with the same values, over a skeleton (so the kinds are
    /// applied against a real rest pose) and without one.
    #[test]
    fn animations_round_trip(anim in arb_animation(), rests in proptest::collection::vec((arb_vec(), arb_quat()), 5), glb in any::<bool>()) {
        let mut skeleton = animbin_core::scene::Skeleton::default();
        for (i, (t, r)) in rests.into_iter().enumerate() {
            skeleton.bones.push(animbin_core::scene::Bone { kind: Default::default(),
                scale_compensate: false,
                rest_scale: Vec3::ONE,
                name: format!("bone{i}"),
                parent: i.checked_sub(1),
                local: Transform { translation: t, rotation: r, scale: Vec3::ONE },
                global: Transform::IDENTITY,
                cosmetic: false,
            });
        }
        skeleton.update_globals();
        let container = if glb { Container::Glb } else { Container::Gltf };
        let has_keys = anim.bones.iter().any(|t| !t.translation.is_empty() || !t.rotation.is_empty() || !t.scale.is_empty());
        for skeleton in [skeleton, animbin_core::scene::Skeleton::default()] {
            let scene = Scene { skeleton, animations: vec![anim.clone()], ..Scene::default() };
            let (back, _) = round_trip(&scene, container, &SceneOptions::default());
            if has_keys {
                assert_animation(&anim, &back.animations[0]);
            } else {
                prop_assert!(back.animations.is_empty());
            }
        }
    }
}

/// A scene with one animated bone, written by animbin without its animation extras: what a
/// file from another tool looks like to the reader.
fn foreign_glb() -> Vec<u8> {
    let scene = Scene {
        animations: vec![Animation {
            name: "move".into(),
            framerate: 30.0,
            frame_count: 11.0,
            bones: vec![BoneTrack {
                bone: "hand".into(),
                translation: vec![Key::new(0.0, Vec3::ZERO), Key::new(10.0, Vec3::new(0.0, 0.05, 0.0))].into(),
                ..BoneTrack::default()
            }],
            ..Animation::default()
        }],
        ..Scene::default()
    };
    let glb = animbin_gltf::from_scene(&scene, &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
    let (mut json, bin) = animbin_gltf::split(&glb).unwrap();
    json["animations"][0].as_object_mut().unwrap().remove("extras");
    animbin_gltf::join(json, bin, Container::Glb).unwrap()
}

#[test]
fn reading_a_foreign_file_divides_lengths_by_the_unit_scale_and_uses_the_options_framerate() {
    let glb = foreign_glb();
    let mut report = ConversionReport::default();
    let plain = animbin_gltf::to_scene(&glb, &SceneOptions::default(), &mut report).unwrap();
    let key = &plain.animations[0].bones[0].translation.get(1).unwrap();
    assert_eq!((plain.animations[0].framerate, key.frame), (30.0, 10.0));
    assert!(close(key.value.y, 0.05, 1.0), "{key:?}");

    let options = SceneOptions {
        framerate: Some(60.0),
        unit_scale: 0.01,
        ..SceneOptions::default()
    };
    let scene = animbin_gltf::to_scene(&glb, &options, &mut report).unwrap();
    let key = &scene.animations[0].bones[0].translation.get(1).unwrap();
    assert_eq!((scene.animations[0].framerate, key.frame), (60.0, 20.0));
    // 0.05 m in centimetres.
    assert!(close(key.value.y, 5.0, 1.0), "{key:?}");

    let bad = SceneOptions {
        framerate: Some(0.0),
        ..SceneOptions::default()
    };
    assert!(animbin_gltf::to_scene(&glb, &bad, &mut report).is_err());
}

#[test]
fn write_puts_the_same_bytes_as_to_bytes_into_any_writer() {
    let scene = common::full_scene();
    for container in [Container::Gltf, Container::Glb] {
        let options = SceneOptions::default();
        let bytes = animbin_gltf::to_bytes(&scene, container, &options, &mut ConversionReport::default()).unwrap();
        let mut out: Vec<u8> = Vec::new();
        animbin_gltf::write(&scene, container, &options, &mut ConversionReport::default(), &mut out).unwrap();
        assert_eq!(out, bytes);
    }
}

/// The f32 values of accessor `index` of a `.gltf` animbin wrote (tightly packed).
fn accessor_values(bytes: &[u8], index: usize) -> Vec<f32> {
    let json: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let glb = animbin_gltf::repack(bytes, Container::Glb).unwrap();
    let bin = animbin_gltf::Glb::parse(&glb).unwrap().bin.unwrap().to_vec();
    let accessor = &json["accessors"][index];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    bin[start..start + len]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn a_skeleton_without_meshes_is_the_joints_of_a_skin() {
    let scene = Scene {
        skeleton: common::skeleton(),
        ..Scene::default()
    };
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(&scene, Container::Gltf, &SceneOptions::default(), &mut report).unwrap();
    assert!(report.is_lossless(), "{:?}", report.lost);
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json.get("meshes"), None);
    let skin = &json["skins"][0];
    assert_eq!(skin["joints"], serde_json::json!([0, 1, 2, 3, 4]));
    // Two root bones: one common root above them, which Blender makes the armature.
    let root = skin["skeleton"].as_u64().unwrap() as usize;
    assert_eq!(json["nodes"][root]["name"], "animbin_root");
    let matrices = accessor_values(&bytes, skin["inverseBindMatrices"].as_u64().unwrap() as usize);
    assert_eq!(matrices.len(), 5 * 16);
    // j_spine sits 40 up: its inverse bind matrix moves 40 down (column-major, last column).
    assert_eq!(&matrices[16 + 12..16 + 15], &[0.0, 0.0, -40.0]);
    let back = animbin_gltf::to_scene(&bytes, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(back.skeleton.bones.len(), 5);
    for (a, b) in scene.skeleton.bones.iter().zip(&back.skeleton.bones) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.parent, b.parent);
        assert_transform(&a.global, &b.global, &a.name);
    }
}

#[test]
fn texture_files_found_are_embedded_and_the_rest_reported() {
    let (materials, textures) = common::materials();
    let scene = Scene {
        materials,
        textures,
        ..Scene::default()
    };
    // The embedded texture takes the place of no name; the specular map has no slot.
    assert_eq!(
        animbin_gltf::texture_names(&scene),
        ["body_n.png", "textures\\body col.png"]
    );
    let mut images = animbin_gltf::ImageFiles {
        searched: true,
        ..Default::default()
    };
    images.found.insert(
        "body_n.png".into(),
        animbin_gltf::ImageFile {
            bytes: Some(common::PNG.to_vec()),
            uri: "maps/body_n.png".into(),
        },
    );
    let mut report = ConversionReport::default();
    let bytes =
        animbin_gltf::to_bytes_with_images(&scene, Container::Gltf, &SceneOptions::default(), &images, &mut report)
            .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let normal = image_named(&json, "body_n.png");
    assert_eq!(normal["mimeType"], "image/png");
    assert_eq!(normal["extras"]["animbin"]["file"], "body_n.png");
    let png = view_bytes(&bytes, normal["bufferView"].as_u64().unwrap() as usize);
    assert_eq!(png, common::PNG);
    assert_eq!(
        image_named(&json, "textures\\body col.png")["uri"],
        "textures/body%20col.png"
    );
    assert!(report.is_lossless(), "{:?}", report.lost);
    assert_eq!(
        report.notes,
        [
            "1 texture file(s) not found beside the input (\"textures\\\\body col.png\"): named by URIs relative to the glTF file"
        ]
    );
    // Read back, the embedded file is not a scene texture: the material's name stands for it.
    let back = animbin_gltf::to_scene(&bytes, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(back.textures, scene.textures);
    assert_eq!(back.materials, scene.materials);

    // A file glTF cannot embed is referred to by the URI the caller gives.
    images.found.get_mut("body_n.png").unwrap().bytes = None;
    let mut report = ConversionReport::default();
    let bytes =
        animbin_gltf::to_bytes_with_images(&scene, Container::Glb, &SceneOptions::default(), &images, &mut report)
            .unwrap();
    let (json, _) = animbin_gltf::split(&bytes).unwrap();
    assert_eq!(image_named(&json, "body_n.png")["uri"], "maps/body_n.png");
    assert!(
        report.lost[0].contains("neither PNG nor JPEG (\"body_n.png\")"),
        "{:?}",
        report.lost
    );
    assert_eq!(
        animbin_gltf::image_mime_type(&[0xFF, 0xD8, 0xFF, 0xE0]),
        Some("image/jpeg")
    );
    assert_eq!(animbin_gltf::image_mime_type(b"DDS "), None);
}

/// The bytes of buffer view `index` of a `.gltf` animbin wrote.
fn view_bytes(bytes: &[u8], index: usize) -> Vec<u8> {
    let json: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let glb = animbin_gltf::repack(bytes, Container::Glb).unwrap();
    let bin = animbin_gltf::Glb::parse(&glb).unwrap().bin.unwrap().to_vec();
    let view = &json["bufferViews"][index];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    bin[start..start + view["byteLength"].as_u64().unwrap() as usize].to_vec()
}

#[test]
fn delta_translations_run_along_the_bones_rest_axes() {
    // j_spine rests turned 45 degrees about Z, 40 up; a delta key of 2 along its own X.
    let mut scene = Scene {
        skeleton: common::skeleton(),
        ..Scene::default()
    };
    scene.animations.push(Animation {
        name: "delta".into(),
        framerate: 30.0,
        frame_count: 1.0,
        kind: AnimKind::Delta,
        bones: vec![BoneTrack {
            bone: "j_spine".into(),
            translation: vec![Key::new(0.0, Vec3::new(2.0, 0.0, 0.0))].into(),
            ..BoneTrack::default()
        }],
        ..Animation::default()
    });
    let mut report = ConversionReport::default();
    let bytes = animbin_gltf::to_bytes(&scene, Container::Gltf, &SceneOptions::default(), &mut report).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let output = json["animations"][0]["samplers"][0]["output"].as_u64().unwrap() as usize;
    let played = accessor_values(&bytes, output);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let expected = [2.0 * h, 2.0 * h, 40.0];
    for (a, b) in played.iter().zip(expected) {
        assert!((a - b).abs() < 1e-5, "{played:?}");
    }
    let back = animbin_gltf::to_scene(&bytes, &SceneOptions::default(), &mut report).unwrap();
    let key = back.animations[0].bones[0].translation.get(0).unwrap().value;
    assert_vec(key, Vec3::new(2.0, 0.0, 0.0), 1.0, "the delta key read back");
}
