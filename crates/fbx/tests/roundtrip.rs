//! Scene -> FBX -> scene: bones, meshes, skin weights, morph targets and animations come back
//! as they went in (weights and transforms to 1e-4, rotations as the slerp they played).

use animbin_core::math::{Quat, Rgba, Transform, Vec2, Vec3};
use animbin_core::scene::{
    Animation, Bone, BoneTrack, ConversionReport, Interpolation, Key, Keys, Material, Mesh, MorphTarget, NodeKind,
    Scene, SkinWeights, WeightTrack,
};
use animbin_fbx::euler::{angle_between, slerp};

fn bone(name: &str, parent: Option<usize>, translation: Vec3<f64>, rotation: Quat<f64>) -> Bone {
    let local = Transform {
        translation,
        rotation: rotation.normalized(),
        scale: Vec3::ONE,
    };
    Bone {
        name: name.into(),
        parent,
        local,
        global: local,
        cosmetic: false,
        scale_compensate: false,
        rest_scale: Vec3::ONE,
        kind: NodeKind::Bone,
    }
}

/// A three-bone arm under a plain node, a skinned quad with two UV sets, colours, a morph
/// target and a material, and an animation that turns the arm past a half turn.
fn arm() -> Scene {
    let mut scene = Scene::default();
    let mut rig = bone("Armature", None, Vec3::ZERO, Quat::IDENTITY);
    rig.kind = NodeKind::Plain;
    scene.skeleton.bones = vec![
        rig,
        bone(
            "root",
            Some(0),
            Vec3::new(0.0, 1.0, 0.0),
            Quat::new(0.0, 0.0, 0.3, 0.95),
        ),
        bone(
            "upper",
            Some(1),
            Vec3::new(0.0, 2.0, 0.0),
            Quat::new(0.2, 0.0, 0.0, 0.98),
        ),
        bone("lower", Some(2), Vec3::new(0.0, 1.5, 0.0), Quat::IDENTITY),
    ];
    scene.skeleton.update_globals();
    let positions = vec![
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 4.0, 0.0),
        Vec3::new(-1.0, 4.0, 0.0),
    ];
    scene.meshes.push(Mesh {
        name: "quad".into(),
        normals: vec![Vec3::new(0.0, 0.0, 1.0); 4],
        uv_layers: vec![
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 0.25),
            ],
            vec![Vec2::new(0.5, 0.5); 4],
        ],
        colors: vec![
            Rgba::new(255, 0, 0, 255),
            Rgba::new(0, 255, 0, 128),
            Rgba::new(0, 0, 255, 0),
            Rgba::new(9, 9, 9, 9),
        ],
        skin: Some(SkinWeights {
            influences: 2,
            bones: vec![1, 2, 1, 2, 2, 3, 3, 2],
            weights: vec![0.75, 0.25, 0.5, 0.5, 0.6, 0.4, 1.0, 0.0],
            ..SkinWeights::default()
        }),
        faces: vec![[0, 1, 2], [0, 2, 3]],
        materials: vec![Some(0)],
        morph_targets: vec![MorphTarget {
            name: "bulge".into(),
            indices: vec![2, 3],
            position_deltas: vec![Vec3::new(0.5, 0.0, 0.0), Vec3::new(-0.5, 0.0, 0.0)],
            default_weight: 0.25,
            ..MorphTarget::default()
        }],
        positions,
        ..Mesh::default()
    });
    scene.materials.push(Material {
        name: "skin".into(),
        diffuse_map: Some("skin.png".into()),
        base_color: Some(Rgba::new(0.5, 0.25, 1.0, 1.0)),
        ..Material::default()
    });
    let mut rotation = Keys::default();
    for frame in 0..=20 {
        let angle = f64::from(frame) * 0.2;
        let (s, c) = (angle / 2.0).sin_cos();
        rotation.push(Key::new(f64::from(frame), Quat::new(s * 0.6, 0.0, s * 0.8, c)));
    }
    let mut translation = Keys::default();
    translation.push(Key::new(0.0, Vec3::new(0.0, 2.0, 0.0)));
    translation.push(Key::new(20.0, Vec3::new(1.0, 2.0, -3.0)));
    let mut weights = Keys::default();
    weights.push(Key::new(0.0, 0.0));
    weights.push(Key::new(10.0, 1.0));
    scene.animations.push(Animation {
        name: "wave".into(),
        framerate: 30.0,
        frame_count: 21.0,
        interpolation: Interpolation::Linear,
        bones: vec![BoneTrack {
            bone: "upper".into(),
            rotation,
            translation,
            ..BoneTrack::default()
        }],
        weights: vec![WeightTrack {
            target: "bulge".into(),
            keys: weights,
        }],
        ..Animation::default()
    });
    scene
}

fn close3(a: Vec3<f64>, b: Vec3<f64>) -> bool {
    (a - b).dot(a - b).sqrt() < 1e-4
}

#[test]
fn bones_meshes_weights_and_animations_come_back() {
    let scene = arm();
    let mut report = ConversionReport::default();
    let bytes = animbin_fbx::to_bytes(&scene, &mut report).unwrap();
    assert!(report.is_lossless(), "{:?}", report.lost);
    let back = animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).unwrap();

    // Nodes: names, parents, kinds and rest transforms.
    let names: Vec<&str> = back.skeleton.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Armature", "root", "upper", "lower"]);
    for (a, b) in scene.skeleton.bones.iter().zip(&back.skeleton.bones) {
        assert_eq!(a.parent, b.parent, "{}", a.name);
        assert_eq!(a.kind, b.kind, "{}", a.name);
        assert!(close3(a.local.translation, b.local.translation), "{}", a.name);
        assert!(angle_between(a.local.rotation, b.local.rotation) < 1e-6, "{}", a.name);
        assert!(close3(a.local.scale, b.local.scale), "{}", a.name);
    }

    // The mesh: vertices in order, faces, normals, UVs, colours, weights, morph target.
    assert_eq!(back.meshes.len(), 1);
    let (a, b) = (&scene.meshes[0], &back.meshes[0]);
    assert_eq!(b.name, "quad");
    assert_eq!(a.positions, b.positions);
    assert_eq!(a.faces, b.faces);
    assert_eq!(a.normals, b.normals);
    assert_eq!(a.uv_layers, b.uv_layers);
    assert_eq!(a.colors, b.colors);
    assert!(
        back.skins.is_empty(),
        "a skin bound at the rest pose needs no matrices: {:?} {:?}",
        back.skins,
        back.skeleton
            .bones
            .iter()
            .map(|b| b.global.to_matrix())
            .collect::<Vec<_>>()
    );
    let (wa, wb) = (a.skin.as_ref().unwrap(), b.skin.as_ref().unwrap());
    for v in 0..4 {
        let weight_of = |s: &SkinWeights, bone: u32| -> f32 {
            (0..s.influences)
                .filter(|&k| s.bones[v * s.influences + k] == bone)
                .map(|k| s.weights[v * s.influences + k])
                .sum()
        };
        for bone in 0..4 {
            assert!(
                (weight_of(wa, bone) - weight_of(wb, bone)).abs() < 1e-4,
                "vertex {v} bone {bone}"
            );
        }
    }
    assert_eq!(b.morph_targets.len(), 1);
    assert_eq!(b.morph_targets[0].name, "bulge");
    assert_eq!(b.morph_targets[0].indices, [2, 3]);
    assert_eq!(b.morph_targets[0].position_deltas, a.morph_targets[0].position_deltas);
    assert!((b.morph_targets[0].default_weight - 0.25).abs() < 1e-6);
    assert_eq!(back.materials[0].name, "skin");
    assert_eq!(back.materials[0].diffuse_map.as_deref(), Some("skin.png"));
    assert_eq!(b.materials, [Some(0)]);

    // The animation: its name, rate, length, and what plays at every frame and between.
    assert_eq!(back.animations.len(), 1);
    let (x, y) = (&scene.animations[0], &back.animations[0]);
    assert_eq!(y.name, "wave");
    assert_eq!(y.framerate, 30.0);
    assert_eq!(y.frame_count, 21.0);
    let track = y
        .bones
        .iter()
        .find(|t| t.bone == "upper")
        .expect("the upper arm's track");
    assert!(
        y.bones.iter().all(|t| t.bone == "upper"),
        "only the animated node has keys"
    );
    let source = &x.bones[0];
    let source_keys: Vec<_> = source.rotation.iter().collect();
    for k in track.rotation.iter() {
        let i = (k.frame.floor() as usize).min(19);
        let t = k.frame - i as f64;
        let expected = slerp(source_keys[i].value, source_keys[i + 1].value, t);
        assert!(angle_between(expected, k.value) < 1e-4, "frame {}", k.frame);
    }
    assert!(track.rotation.len() >= 21);
    assert_eq!(track.translation.len(), 2);
    assert!(close3(
        track.translation.last().unwrap().value,
        Vec3::new(1.0, 2.0, -3.0)
    ));
    let weights = &y.weights[0];
    assert_eq!(weights.target, "bulge");
    assert_eq!(
        weights.keys.iter().map(|k| (k.frame, k.value)).collect::<Vec<_>>(),
        [(0.0, 0.0), (10.0, 1.0)]
    );
}

#[test]
fn a_truncated_file_is_an_error_at_every_offset() {
    let bytes = animbin_fbx::to_bytes(&arm(), &mut ConversionReport::default()).unwrap();
    animbin_testing::assert_every_truncation_fails(&bytes, animbin_fbx::node::parse);
    // ufbx itself, on a sample of cuts (each a whole load): an error or a scene, never a crash.
    for len in (0..bytes.len()).step_by(97) {
        let _ = animbin_fbx::to_scene(&bytes[..len], &Default::default(), &mut ConversionReport::default());
    }
}

#[test]
fn the_records_read_back_as_written() {
    let bytes = animbin_fbx::to_bytes(&arm(), &mut ConversionReport::default()).unwrap();
    let document = animbin_fbx::node::parse(&bytes).unwrap();
    assert_eq!(animbin_fbx::node::write_nodes(&document).unwrap(), bytes);
    let summary = animbin_fbx::Summary::of(&document);
    assert_eq!(
        (
            summary.bone_count,
            summary.node_count,
            summary.mesh_count,
            summary.skin_count
        ),
        (3, 5, 1, 1)
    );
    assert_eq!(summary.animations, ["wave"]);
    assert!(animbin_fbx::validate(&document).is_empty());
}

#[test]
fn a_z_up_file_in_centimetres_reads_back_in_its_own_axes_and_unit() {
    let scene = arm();
    let write = animbin_fbx::WriteOptions {
        z_up: true,
        unit_scale: 0.01,
        ..animbin_fbx::WriteOptions::default()
    };
    let bytes = animbin_fbx::to_bytes_with(&scene, &write, &mut ConversionReport::default()).unwrap();
    let same = animbin_core::SceneOptions {
        z_up: true,
        unit_scale: 0.01,
        ..animbin_core::SceneOptions::default()
    };
    let back = animbin_fbx::to_scene(&bytes, &same, &mut ConversionReport::default()).unwrap();
    for (a, b) in scene.skeleton.bones.iter().zip(&back.skeleton.bones) {
        assert!(close3(a.local.translation, b.local.translation), "{}", a.name);
        assert!(angle_between(a.local.rotation, b.local.rotation) < 1e-6, "{}", a.name);
    }
    assert_eq!(back.meshes[0].positions, scene.meshes[0].positions);
    // Read as Y-up metres, the same file is turned (Z up becomes Y up) and scaled by 1/100:
    // each node where it was, in the new axes.
    let gltf_like = animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).unwrap();
    for (a, b) in scene.skeleton.bones.iter().zip(&gltf_like.skeleton.bones) {
        let p = a.global.translation;
        let expected = Vec3::new(p.x, p.z, -p.y).scale(0.01);
        assert!(
            close3(b.global.translation, expected),
            "{}: {:?} {expected:?}",
            a.name,
            b.global.translation
        );
    }
}

/// The cluster records of `document`'s objects, with the named matrix of each.
fn cluster_matrices(document: &animbin_fbx::node::Document, name: &str) -> Vec<[f64; 16]> {
    let objects = document.node("Objects").expect("Objects");
    objects
        .children_named("Deformer")
        .filter(|d| d.properties.get(2).and_then(|p| p.as_str()) == Some("Cluster"))
        .map(|cluster| match &cluster.child(name).expect(name).properties[0] {
            animbin_fbx::node::Property::F64Array(values) => values.as_slice().try_into().expect("16 values"),
            other => panic!("{name}: {other:?}"),
        })
        .collect()
}

#[test]
fn a_cluster_names_the_rest_matrix_of_the_node_holding_its_bones() {
    // The arm's plain parent moved, turned and scaled: Blender makes it the armature and
    // places the skinned mesh by TransformLink * Transform relative to this matrix.
    let mut scene = arm();
    scene.skeleton.bones[0].local = Transform {
        translation: Vec3::new(1.0, 0.5, 2.0),
        rotation: Quat::new(0.17, 0.3, -0.05, 0.94).normalized(),
        scale: Vec3::new(0.5, 0.5, 0.5),
    };
    scene.skeleton.update_globals();
    let bytes = animbin_fbx::to_bytes(&scene, &mut ConversionReport::default()).unwrap();
    let document = animbin_fbx::node::parse(&bytes).unwrap();
    let armature = scene.skeleton.bones[0].global.to_matrix();
    let expected: Vec<f64> = (0..4).flat_map(|c| (0..4).map(move |r| armature.rows[r][c])).collect();
    let associated = cluster_matrices(&document, "TransformAssociateModel");
    assert_eq!(associated.len(), 3, "one cluster per weighted bone");
    for matrix in associated {
        assert!(
            matrix.iter().zip(&expected).all(|(a, b)| (a - b).abs() < 1e-12),
            "{matrix:?} != {expected:?}"
        );
    }
}

#[test]
fn cameras_and_lights_come_back_on_their_nodes() {
    use animbin_core::scene::{Camera, Light, LightKind, Projection};
    let mut scene = arm();
    scene.cameras = vec![
        Camera {
            name: "lens".into(),
            node: 0,
            projection: Projection::Perspective {
                yfov: 0.6,
                aspect_ratio: Some(16.0 / 9.0),
                znear: 0.1,
                zfar: Some(100.0),
            },
        },
        Camera {
            name: "flat".into(),
            node: 2,
            projection: Projection::Orthographic {
                xmag: 3.0,
                ymag: 1.5,
                znear: 0.5,
                zfar: 50.0,
            },
        },
    ];
    scene.lights = vec![
        Light {
            name: "bulb".into(),
            node: 1,
            kind: LightKind::Point,
            color: [1.0, 0.8, 0.6],
            intensity: 500.0,
            range: Some(20.0),
        },
        Light {
            name: "beam".into(),
            node: 3,
            kind: LightKind::Spot {
                inner_cone_angle: 0.3,
                outer_cone_angle: 0.5,
            },
            color: [1.0, 1.0, 1.0],
            intensity: 2000.0,
            range: None,
        },
    ];
    let mut report = ConversionReport::default();
    let bytes = animbin_fbx::to_bytes(&scene, &mut report).unwrap();
    assert!(
        report.lost.iter().any(|l| l.contains("photometric units of 2 lights")),
        "{:?}",
        report.lost
    );
    let back = animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).unwrap();
    // The Models holding them are folded back into their nodes: the same nodes, no more.
    assert_eq!(back.skeleton.bones.len(), scene.skeleton.bones.len());
    assert_eq!(back.cameras.len(), 2);
    assert_eq!(back.lights.len(), 2);
    let near = |a: f64, b: f64| (a - b).abs() < 1e-6 * (1.0 + a.abs());
    for (a, b) in scene.cameras.iter().zip(&back.cameras) {
        assert_eq!((a.name.as_str(), a.node), (b.name.as_str(), b.node));
        match (a.projection, b.projection) {
            (
                Projection::Perspective {
                    yfov,
                    aspect_ratio,
                    znear,
                    zfar,
                },
                Projection::Perspective {
                    yfov: y2,
                    aspect_ratio: a2,
                    znear: n2,
                    zfar: f2,
                },
            ) => {
                assert!(near(yfov, y2) && near(aspect_ratio.unwrap(), a2.unwrap()), "{b:?}");
                assert!(near(znear, n2) && near(zfar.unwrap(), f2.unwrap()), "{b:?}");
            }
            (
                Projection::Orthographic {
                    xmag,
                    ymag,
                    znear,
                    zfar,
                },
                Projection::Orthographic {
                    xmag: x2,
                    ymag: y2,
                    znear: n2,
                    zfar: f2,
                },
            ) => {
                assert!(
                    near(xmag, x2) && near(ymag, y2) && near(znear, n2) && near(zfar, f2),
                    "{b:?}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
    for (a, b) in scene.lights.iter().zip(&back.lights) {
        assert_eq!((a.name.as_str(), a.node), (b.name.as_str(), b.node));
        assert!(near(a.intensity, b.intensity), "{b:?}");
        assert!(a.color.iter().zip(&b.color).all(|(x, y)| near(*x, *y)), "{b:?}");
        assert_eq!(a.range.is_some(), b.range.is_some(), "{b:?}");
        if let (
            LightKind::Spot {
                inner_cone_angle,
                outer_cone_angle,
            },
            LightKind::Spot {
                inner_cone_angle: i2,
                outer_cone_angle: o2,
            },
        ) = (a.kind, b.kind)
        {
            assert!(near(inner_cone_angle, i2) && near(outer_cone_angle, o2), "{b:?}");
        } else {
            assert_eq!(a.kind, b.kind);
        }
    }
}

#[test]
fn a_stack_ends_at_its_last_key_when_only_a_note_reaches_further() {
    // A Cast file's "end" note far past the keys gave its animation a length of 70,001
    // frames: FBX holds no notes, so the stack would play nothing for 39 minutes.
    let mut scene = arm();
    let animation = &mut scene.animations[0];
    animation.notes.push(animbin_core::scene::Note {
        frame: 70_000.0,
        name: "end".into(),
    });
    animation.frame_count = 70_001.0;
    let mut report = ConversionReport::default();
    let bytes = animbin_fbx::to_bytes(&scene, &mut report).unwrap();
    assert!(report.lost.iter().any(|l| l.contains("notes")), "{:?}", report.lost);
    let back = animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).unwrap();
    assert_eq!(back.animations[0].frame_count, 21.0);

    // A length the format states past the keys (an SEAnim's frame count) is kept.
    let mut scene = arm();
    scene.animations[0].frame_count = 40.0;
    let bytes = animbin_fbx::to_bytes(&scene, &mut ConversionReport::default()).unwrap();
    let back = animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).unwrap();
    assert_eq!(back.animations[0].frame_count, 40.0);
}

#[test]
fn the_scene_placement_is_a_null_above_everything() {
    // A Cast Model node's p, r and s: glTF holds it as a root node, FBX as a Null.
    let mut scene = arm();
    scene.name = "hero".into();
    scene.placement = Transform {
        translation: Vec3::new(1.0, 2.0, 3.0),
        rotation: Quat::new(
            0.0,
            0.0,
            std::f64::consts::FRAC_1_SQRT_2,
            std::f64::consts::FRAC_1_SQRT_2,
        ),
        scale: Vec3::new(2.0, 2.0, 2.0),
    };
    let mut report = ConversionReport::default();
    let bytes = animbin_fbx::to_bytes(&scene, &mut report).unwrap();
    assert!(report.is_lossless(), "{:?}", report.lost);
    let back = animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).unwrap();
    let names: Vec<&str> = back.skeleton.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["hero", "Armature", "root", "upper", "lower"]);
    let placed = &back.skeleton.bones[0];
    assert_eq!(placed.parent, None);
    assert!(close3(placed.local.translation, scene.placement.translation));
    assert!(close3(placed.local.scale, scene.placement.scale));
    // Every node sits where the placement puts it: its world is the placement's times its own.
    let mut source = scene.skeleton.clone();
    source.update_globals();
    let mut read = back.skeleton.clone();
    read.update_globals();
    for (a, b) in source.bones.iter().zip(&read.bones[1..]) {
        let expected = scene.placement.to_matrix().multiply(&a.global.to_matrix());
        assert!(b.global.to_matrix().close_to(&expected, 1e-9), "{}", a.name);
    }
}
