//! Conversion to and from the neutral scene model.

mod common;

use animbin_core::math::{Quat, Rgba, Transform, Vec2, Vec3};
use animbin_core::scene::{
    Animation as SceneAnimation, Bone as SceneBone, BoneTrack, ConversionReport, Key, Material, Mesh, Note, Scene,
    Skeleton, SkinWeights, Texture,
};
use animbin_dmf::{Dmf, PrsFlags, SceneOptions, Track};
use common::model;

#[test]
fn the_fixture_becomes_a_skinned_mesh_a_skeleton_and_per_bone_channels() {
    let mut report = ConversionReport::default();
    let scene = model().to_scene(&SceneOptions::default(), &mut report).unwrap();
    let names: Vec<&str> = scene.skeleton.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["root", "tip"]);
    assert_eq!(scene.skeleton.bones[1].parent, Some(0));
    assert_eq!(scene.skeleton.bones[1].local.translation, Vec3::new(0.0, 1.0, 0.0));
    assert_eq!(scene.skeleton.bones[1].global.translation, Vec3::new(0.0, 1.0, 0.0));

    assert_eq!(scene.meshes.len(), 1);
    let mesh = &scene.meshes[0];
    assert_eq!(mesh.name, "skin");
    assert_eq!(mesh.materials, [Some(0)]);
    assert_eq!(mesh.faces, [[0, 1, 2]]);
    assert_eq!(mesh.positions[1], Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(mesh.normals, [Vec3::new(0.0, 0.0, 1.0); 3]);
    assert_eq!(
        mesh.uv_layers,
        [vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)]]
    );
    assert_eq!(mesh.colors[2], Rgba::new(0, 0, 255, 128));
    let skin = mesh.skin.as_ref().unwrap();
    assert_eq!(skin.influences, 4);
    assert_eq!(&skin.bones[4..8], [0, 1, 0, 0]);
    assert_eq!(&skin.weights[4..8], [0.5, 0.5, 0.0, 0.0]);

    assert_eq!(scene.materials[0].texture, Some(0));
    assert_eq!(scene.textures[0].name, "checker");
    assert_eq!(scene.textures[0].data.len(), 10);

    let animation = &scene.animations[0];
    assert_eq!(
        (animation.name.as_str(), animation.framerate, animation.frame_count),
        ("wave", 30.0, 30.0)
    );
    assert_eq!(animation.bones.len(), 1);
    let tip = &animation.bones[0];
    assert_eq!(tip.bone, "tip");
    assert_eq!(tip.rotation, [Key::new(0.0, Quat::new(0.0, 0.0, 0.0, 1.0))]);
    assert_eq!(tip.translation, [Key::new(30.0, Vec3::new(0.0, 2.0, 0.0))]);
    assert_eq!(tip.scale, [Key::new(30.0, Vec3::new(2.0, 2.0, 2.0))]);

    assert_eq!(
        report.lost,
        [
            "texture flip_y and wrap modes",
            "material render settings (blending, shader, sides, flags, alpha test, emissive, specular)"
        ]
    );
}

fn transform(x: f64) -> Transform {
    Transform {
        translation: Vec3::new(x, 0.0, 0.0),
        ..Transform::IDENTITY
    }
}

/// A scene in the form DMF -> scene produces, so the trip through DMF gives it back.
fn scene() -> Scene {
    let bone = |name: &str, parent, x| SceneBone {
        kind: Default::default(),
        scale_compensate: false,
        rest_scale: Vec3::ONE,
        name: name.into(),
        parent,
        local: transform(x),
        global: transform(x),
        cosmetic: false,
    };
    let mut skeleton = Skeleton {
        bones: vec![bone("hips", None, 0.0), bone("spine", Some(0), 1.0)],
        ..Default::default()
    };
    skeleton.update_globals();
    Scene {
        placement: Default::default(),
        skeleton,
        meshes: vec![Mesh {
            name: "cloth".into(),
            positions: vec![
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ],
            normals: vec![Vec3::new(0.0, 0.0, 1.0); 3],
            uv_layers: vec![vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)]],
            colors: vec![Rgba::new(10, 20, 30, 40); 3],
            skin: Some(SkinWeights {
                skin: None,
                influences: 4,
                bones: vec![0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0],
                weights: vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.25, 0.75, 0.0, 0.0],
                blend: Default::default(),
            }),
            faces: vec![[0, 1, 2]],
            materials: vec![Some(0)],
            morph_targets: Vec::new(),
            ..Default::default()
        }],
        materials: vec![Material {
            name: "cloth".into(),
            texture: Some(0),
            base_color: Some(Rgba::new(0.5, 0.25, 1.0, 1.0)),
            ..Material::default()
        }],
        textures: vec![Texture {
            name: "pattern".into(),
            data: animbin_dmf::PNG_SIGNATURE.to_vec(),
            mime_type: String::new(),
        }],
        animations: vec![SceneAnimation {
            name: "sway".into(),
            framerate: 30.0,
            frame_count: 45.0,
            bones: vec![BoneTrack {
                bone: "spine".into(),
                translation: vec![
                    Key::new(0.0, Vec3::new(1.0, 0.0, 0.0)),
                    Key::new(7.0, Vec3::new(1.0, 0.5, 0.0)),
                ]
                .into(),
                rotation: vec![
                    Key::new(7.0, Quat::new(0.0, 0.0, 0.0, 1.0)),
                    Key::new(44.0, Quat::new(0.0, 1.0, 0.0, 0.0)),
                ]
                .into(),
                scale: vec![].into(),
                ..BoneTrack::default()
            }],
            ..SceneAnimation::default()
        }],
        ..Default::default()
    }
}

#[test]
fn a_scene_goes_through_dmf_and_comes_back() {
    let mut report = ConversionReport::default();
    let dmf = Dmf::from_scene(&scene(), &SceneOptions::default(), &mut report).unwrap();
    assert!(report.is_lossless(), "{report:?}");
    assert_eq!(animbin_dmf::validate(&dmf), vec![]);
    // Keys of one bone at one frame share a record.
    let flags: Vec<PrsFlags> = dmf.animations[0].tracks.iter().map(Track::flags).collect();
    assert_eq!(
        flags,
        [
            PrsFlags::POSITION,
            PrsFlags::POSITION | PrsFlags::ROTATION,
            PrsFlags::ROTATION
        ]
    );
    assert_eq!(dmf.animations[0].tracks[1].time.get(), 7.0 / 30.0);
    assert_eq!(dmf.animations[0].duration, 1.5);
    assert!(dmf.materials[0].skinning.as_bool().unwrap());
    let bytes = animbin_dmf::to_bytes(&dmf).unwrap();
    let back = animbin_dmf::read(&bytes)
        .unwrap()
        .to_scene(&SceneOptions::default(), &mut report)
        .unwrap();
    assert!(report.is_lossless(), "{report:?}");
    assert_eq!(back, scene());
}

#[test]
fn children_listed_before_their_parents_are_reordered_and_references_follow() {
    let mut scene = scene();
    scene.skeleton.bones.swap(0, 1);
    scene.skeleton.bones[0].parent = Some(1);
    scene.skeleton.bones[1].parent = None;
    // Skin bone indices point at the scene's order: swap them too.
    let skin = scene.meshes[0].skin.as_mut().unwrap();
    let swap = |b: &mut u32| *b = 1 - *b;
    skin.bones.iter_mut().step_by(4).for_each(swap);
    skin.bones.iter_mut().skip(1).step_by(4).for_each(swap);
    let dmf = Dmf::try_from(&scene).unwrap();
    let names: Vec<String> = dmf.bones.iter().map(|b| b.name.to_string()).collect();
    assert_eq!(names, ["hips", "spine"]);
    assert_eq!(dmf.bones[1].parent_id.get(), 0);
    assert_eq!(dmf.vertices[2].skin_index.map(|i| i.get()), [0, 1, 0, 0]);
    assert!(dmf.animations[0].tracks.iter().all(|t| t.bone_id.get() == 1));
    animbin_dmf::to_bytes(&dmf).unwrap();
}

#[test]
fn an_animation_without_a_skeleton_gets_root_bones_and_says_so() {
    let animation = scene().animations.remove(0);
    let only_animation = Scene {
        animations: vec![SceneAnimation {
            notes: vec![Note {
                frame: 1.0,
                name: "step".into(),
            }],
            looping: true,
            ..animation
        }],
        ..Scene::default()
    };
    let mut report = ConversionReport::default();
    let dmf = Dmf::from_scene(&only_animation, &SceneOptions::default(), &mut report).unwrap();
    assert_eq!(dmf.bones.len(), 1);
    assert_eq!(dmf.bones[0].name.as_str().unwrap(), "spine");
    assert_eq!(dmf.bones[0].parent_id.get(), -1);
    assert_eq!(
        report.lost,
        [
            "a skeleton for animated bones (added as roots with an identity bind pose)",
            "notes",
            "the looping flag"
        ]
    );
    animbin_dmf::to_bytes(&dmf).unwrap();
}

#[test]
fn what_dmf_cannot_name_or_count_is_refused() {
    let mut long = scene();
    long.skeleton.bones[0].name = "a bone name that is longer than thirty-one bytes".into();
    let err = Dmf::try_from(&long).unwrap_err();
    assert!(err.to_string().contains("bone 0"), "{err}");
    let mut bad_face = scene();
    bad_face.meshes[0].faces[0][1] = 3;
    let err = Dmf::try_from(&bad_face).unwrap_err();
    assert!(err.to_string().contains("mesh 0 face 0: vertex index 3"), "{err}");
    let mut no_rate = scene();
    no_rate.animations[0].framerate = 0.0;
    assert!(Dmf::try_from(&no_rate).is_err());
}

#[test]
fn meshes_split_by_material_and_corners_split_by_attribute() {
    let mut dmf = model();
    let mut second = dmf.faces[0];
    second.mat_id = 1.into();
    second.colors[0] = Rgba::new(1, 2, 3, 4);
    dmf.faces.push(second);
    let mut material = dmf.materials[0];
    material.id = 1;
    dmf.materials.push(material);
    let scene = Scene::from(&dmf);
    assert_eq!(scene.meshes.len(), 2);
    assert_eq!(scene.meshes[1].materials, [Some(1)]);
    assert_eq!(scene.meshes[1].colors[0], Rgba::new(1, 2, 3, 4));
    // Both meshes have their own copy of the three vertices.
    assert_eq!(scene.meshes[1].positions.len(), 3);
}

/// Within one mesh, a corner takes the vertex of an earlier corner with the same vertex,
/// normal, UV and colour (bits compared: -0.0 is not 0.0), and a new one otherwise, in the
/// order corners first appear.
#[test]
fn corners_of_one_vertex_share_a_scene_vertex_only_when_every_attribute_is_the_same() {
    let mut dmf = model();
    let base = dmf.faces[0];
    let mut turned = base;
    turned.normals[0] = Vec3::new(0.0, 1.0, 0.0).map(Into::into);
    let mut signed = base;
    signed.uvs[1] = Vec2::new(1.0, -0.0).map(Into::into);
    let mut tinted = base;
    tinted.colors[2] = Rgba::new(9, 9, 9, 9);
    dmf.faces = vec![base, turned, base, signed, turned, tinted, signed];
    let scene = Scene::from(&dmf);
    let mesh = &scene.meshes[0];
    assert_eq!(
        mesh.faces,
        [
            [0, 1, 2],
            [3, 1, 2],
            [0, 1, 2],
            [0, 4, 2],
            [3, 1, 2],
            [0, 1, 5],
            [0, 4, 2]
        ]
    );
    let positions: Vec<_> = [0, 1, 2, 0, 1, 2].map(|v| dmf.vertices[v].pos.native()).to_vec();
    assert_eq!(mesh.positions, positions);
    assert_eq!(mesh.normals[3], Vec3::new(0.0, 1.0, 0.0));
    assert_eq!(mesh.uv_layers[0][4].y.to_bits(), (-0.0f32).to_bits());
    assert_eq!(mesh.colors[5], Rgba::new(9, 9, 9, 9));
    assert_eq!(mesh.skin.as_ref().unwrap().bones.len(), 6 * 4);
}

#[test]
fn an_fps_of_0_is_converted_at_the_options_framerate_and_reported() {
    let mut dmf = model();
    dmf.animations[0].fps = 0;
    let mut report = ConversionReport::default();
    let scene = dmf.to_scene(&SceneOptions::default(), &mut report).unwrap();
    assert_eq!(scene.animations[0].framerate, animbin_dmf::DEFAULT_FRAMERATE);
    assert!(
        report
            .lost
            .iter()
            .any(|l| l == "an fps of 0 (converted at 30 frames per second)"),
        "{report:?}"
    );
    let options = SceneOptions {
        framerate: Some(24.0),
        ..SceneOptions::default()
    };
    let mut report = ConversionReport::default();
    let scene = dmf.to_scene(&options, &mut report).unwrap();
    assert_eq!(scene.animations[0].framerate, 24.0);
    assert!(
        report
            .lost
            .iter()
            .any(|l| l == "an fps of 0 (converted at 24 frames per second)"),
        "{report:?}"
    );
}

#[test]
fn a_bone_matrix_with_a_collapsed_axis_keeps_its_translation_and_is_exact_without_rotation() {
    let mut dmf = model();
    dmf.bones[1].matrix[0] = 0.0.into(); // x scale 0, no rotation: still exactly a TRS
    let mut report = ConversionReport::default();
    let scene = dmf.to_scene(&SceneOptions::default(), &mut report).unwrap();
    let sheared = |report: &ConversionReport| report.lost.iter().any(|l| l.contains("bone matrices"));
    assert!(!sheared(&report), "{report:?}");
    let local = scene.skeleton.bones[1].local;
    assert_eq!(local.scale, Vec3::new(0.0, 1.0, 1.0));
    assert_eq!(local.translation, Vec3::new(0.0, 1.0, 0.0));
    // With a rotation too, the rotation cannot be recovered: reported.
    dmf.bones[1].matrix[5] = 0.0.into();
    dmf.bones[1].matrix[6] = 1.0.into();
    dmf.bones[1].matrix[9] = (-1.0).into();
    dmf.bones[1].matrix[10] = 0.0.into();
    let mut report = ConversionReport::default();
    dmf.to_scene(&SceneOptions::default(), &mut report).unwrap();
    assert!(sheared(&report), "{report:?}");
}

/// How long the fastest of five conversions of `small` and of `large` to DMF took, run in
/// turns so that a machine busy with something else slows both alike.
fn fastest_exports(small: &Scene, large: &Scene) -> (std::time::Duration, std::time::Duration) {
    let export = |scene: &Scene| {
        let started = std::time::Instant::now();
        let dmf = Dmf::from_scene(scene, &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
        let spent = started.elapsed();
        assert!(!dmf.animations[0].tracks.is_empty());
        spent
    };
    let mut fastest = (std::time::Duration::MAX, std::time::Duration::MAX);
    for _ in 0..5 {
        fastest.0 = fastest.0.min(export(small));
        fastest.1 = fastest.1.min(export(large));
    }
    fastest
}

/// An animation of `bones` bones (all missing from the skeleton: DMF adds them as roots),
/// each with `keys` rotation keys at frame 0.
fn keys_at_one_frame(bones: usize, keys: usize) -> Scene {
    let keys: Vec<Key<Quat<f64>>> = (0..keys).map(|_| Key::new(0.0, Quat::IDENTITY)).collect();
    Scene {
        animations: vec![SceneAnimation {
            name: "still".into(),
            framerate: 30.0,
            frame_count: 1.0,
            bones: (0..bones)
                .map(|b| BoneTrack {
                    bone: format!("bone{b}"),
                    rotation: keys.clone().into(),
                    ..BoneTrack::default()
                })
                .collect(),
            ..SceneAnimation::default()
        }],
        ..Scene::default()
    }
}

/// Export is linear in keys that share a frame and in bones: four times as many take about
/// four times as long, not sixteen (a search per key and per channel made 400,000 keys at one
/// frame run for minutes). Sizes compared in one run, never against a clock's figure.
#[test]
fn export_is_linear_in_keys_at_one_frame_and_in_bones() {
    for (what, small, large) in [
        (
            "keys at one frame",
            keys_at_one_frame(1, 40_000),
            keys_at_one_frame(1, 160_000),
        ),
        ("bones", keys_at_one_frame(6_000, 1), keys_at_one_frame(24_000, 1)),
    ] {
        let (one, four) = fastest_exports(&small, &large);
        let ratio = four.as_secs_f64() / one.as_secs_f64().max(1e-9);
        // Linear is about 4; a search per key or per channel made it 16 and more.
        assert!(
            ratio < 10.0,
            "{what}: 4 times the input took {ratio:.1} times as long ({one:?}, {four:?})"
        );
    }
    // The keys at one frame each have a record, in order.
    let dmf = Dmf::from_scene(
        &keys_at_one_frame(2, 3),
        &SceneOptions::default(),
        &mut ConversionReport::default(),
    )
    .unwrap();
    let bones: Vec<i16> = dmf.animations[0].tracks.iter().map(|t| t.bone_id.get()).collect();
    assert_eq!(bones, [0, 0, 0, 1, 1, 1]);
    assert!(dmf.animations[0].tracks.iter().all(|t| t.flags() == PrsFlags::ROTATION));
}
