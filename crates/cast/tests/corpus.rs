//! The files in `../shared/corpus/cast`, written by the format's own Python library
//! (SOURCES-cast.md): each is read, checked against its description, walked by the view,
//! validated clean, converted to a scene and back, and written back byte for byte. Skipped
//! when the folder is absent (and failing under CI=true).

mod common;

use std::path::{Path, PathBuf};

use animbin_cast::{
    CastFile, ColorLayer, ConstraintOffset, ConversionReport, FIRST_HASH, FileFormat, Indices, NodeKind, PropertyType,
    SceneOptions, Value, Vec3, Vec4, View, read, to_bytes, validate,
};
use animbin_core::scene::ChannelKinds;
use animbin_testing::{assert_every_truncation_fails, corpus_files, shared_corpus};
use common::assert_summaries_agree;

fn corpus() -> Option<PathBuf> {
    shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast")
}

fn open(dir: &Path, name: &str) -> CastFile {
    let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_corpus_file_reads_validates_and_writes_back_byte_for_byte() {
    let Some(dir) = corpus() else { return };
    let files = corpus_files(&dir, "cast");
    assert_eq!(files.len(), 8, "SOURCES-cast.md lists eight files");
    let mut total = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        total += bytes.len();
        let name = path.display();
        let file = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            to_bytes(&file).unwrap(),
            bytes,
            "{name} is not written back identically"
        );
        assert_every_truncation_fails(&bytes, read);
        assert_eq!(validate(&file), vec![], "{name}");
        assert_eq!(file.flags, 0, "{name}: the reference writer puts 0");

        // The view sees the same tree and lends the same payload bytes.
        let view = View::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(view.node_count(), file.node_count(), "{name}");
        assert_eq!(view.summary(), file.summary(), "{name}");
        assert_eq!(view.to_file().unwrap(), file, "{name}");
        for node in view.nodes() {
            for p in node.properties() {
                assert!(p.payload_offset() + p.payload().len() as u64 <= bytes.len() as u64);
                assert_eq!(p.to_property().unwrap().value.len(), p.len(), "{name}");
            }
        }

        // Through the scene and back: a file that reads again and breaks no rule.
        let mut report = ConversionReport::default();
        let scene = file
            .to_scene(&SceneOptions::default(), &mut report)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = CastFile::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        let back = read(&to_bytes(&back).unwrap()).unwrap();
        assert_eq!(validate(&back), vec![], "{name}");
        assert_eq!(back.to_scene(&SceneOptions::default(), &mut report).unwrap(), {
            // A second trip changes nothing more.
            let again =
                CastFile::from_scene(&scene, &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
            again
                .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
                .unwrap()
        });
    }
    assert_eq!(total, 12_870, "SOURCES-cast.md: total size 12,870 bytes");
}

#[test]
fn the_model_and_the_view_give_one_summary_of_every_corpus_file_and_of_every_damage_to_it() {
    let Some(dir) = corpus() else { return };
    for path in corpus_files(&dir, "cast") {
        assert_summaries_agree(&std::fs::read(&path).unwrap());
    }
}

#[test]
fn ref_skinned_model_has_every_mesh_buffer_and_material_slot() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_skinned_model.cast");
    assert_eq!(file.roots.len(), 1);
    assert_eq!(file.roots[0].hash, FIRST_HASH, "the reference writer's first hash");
    let model = file.models().next().unwrap();
    assert_eq!(model.name(), Some("skinned_quad"));

    let bones: Vec<_> = model.skeleton().unwrap().bones().collect();
    assert_eq!(bones.len(), 3);
    assert_eq!(
        bones.iter().map(|b| b.parent()).collect::<Vec<_>>(),
        [Some(-1), Some(0), Some(1)]
    );
    assert_eq!(
        bones.iter().map(|b| b.name().unwrap()).collect::<Vec<_>>(),
        ["root", "spine", "head"]
    );
    assert_eq!(bones[2].world_position(), Some(Vec3::new(0.0, 0.0, 3.0)));
    assert!(
        bones
            .iter()
            .all(|b| b.local_rotation().is_some() && b.world_rotation().is_some())
    );

    let material = model.materials().next().unwrap();
    assert_eq!(
        (material.name(), material.material_type()),
        (Some("skin_mtl"), Some("pbr"))
    );
    let slots: Vec<&str> = material.slots().map(|(s, _)| s).collect();
    assert_eq!(slots, ["albedo", "normal", "extra0"]);
    assert_eq!(material.files().count(), 2);
    let albedo = material.node().child_by_hash(material.slot("albedo").unwrap()).unwrap();
    assert_eq!(albedo.as_file().unwrap().path(), Some("textures/skin_albedo.png"));
    let tint = material.node().child_by_hash(material.slot("extra0").unwrap()).unwrap();
    let tint = tint.as_color().unwrap();
    assert_eq!(tint.color_space(), Some("linear"));
    assert_eq!(tint.rgba(), Some(Vec4::new(1.0, 0.5, 0.25, 1.0)));

    let mesh = model.meshes().next().unwrap();
    assert_eq!(mesh.name(), Some("quad"));
    assert_eq!(mesh.positions().unwrap().len(), 4);
    assert_eq!(mesh.normals().unwrap().len(), 4);
    assert_eq!(mesh.tangents().unwrap().len(), 4);
    assert_eq!((mesh.uv_layer_count(), mesh.color_layer_count()), (Some(2), Some(2)));
    assert_eq!(mesh.uv_layer(1).unwrap()[1].x, 0.75);
    let Some(ColorLayer::Packed(c0)) = mesh.color_layer(0) else {
        panic!("c0 is packed")
    };
    // Alpha 0.5 became 127: the reference library truncates 127.5.
    assert_eq!(c0[3].to_le_bytes(), [255, 255, 255, 127], "byte 0 is red, byte 3 alpha");
    assert_eq!(c0[0].to_le_bytes(), [255, 0, 0, 255]);
    assert!(matches!(mesh.color_layer(1), Some(ColorLayer::Float(c)) if c[0] == Vec4::new(0.25, 0.5, 0.75, 1.0)));
    assert_eq!(mesh.max_influence(), Some(2));
    assert!(matches!(mesh.weight_bones(), Some(Indices::U8(b)) if b == [0, 1, 0, 1, 1, 2, 2, 1]));
    assert_eq!(mesh.weight_values().unwrap()[2], 0.75);
    assert_eq!(mesh.skinning_method(), Some("quaternion"));
    assert!(matches!(mesh.faces(), Some(Indices::U8(f)) if f == [0, 1, 2, 0, 2, 3]));
    assert_eq!(mesh.material(), Some(material.node().hash));
}

#[test]
fn ref_skeleton_only_has_a_placed_chain_of_five_with_utf8_names() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_skeleton_only.cast");
    let model = file.models().next().unwrap();
    assert_eq!(model.name(), Some("rig_only"));
    assert_eq!(model.position(), Some(Vec3::new(1.0, 2.0, 3.0)));
    assert!(model.rotation().is_some() && model.scale().is_some());
    let bones: Vec<_> = model.skeleton().unwrap().bones().collect();
    assert_eq!(bones.len(), 5);
    assert_eq!(bones[4].name(), Some("bøne_ü"));
    for (i, bone) in bones.iter().enumerate() {
        assert_eq!(bone.parent(), Some(i as i32 - 1), "a chain");
        assert_eq!(bone.segment_scale_compensate(), Some(i % 2 == 0));
        assert_eq!(bone.scale(), Some(Vec3::new(1.0, 1.0, 1.0 + i as f32 / 8.0)));
        assert!(bone.local_position().is_some() && bone.local_rotation().is_some());
        assert!(bone.world_position().is_none());
    }
}

#[test]
fn ref_animation_has_every_curve_kind_and_two_notification_tracks() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_animation.cast");
    let anim = file.animations().next().unwrap();
    assert_eq!(
        (anim.name(), anim.framerate(), anim.looping()),
        (Some("walk"), Some(30.0), Some(true))
    );
    let curves: Vec<_> = anim.curves().collect();
    let kps: Vec<&str> = curves.iter().map(|c| c.key_property().unwrap()).collect();
    assert_eq!(kps, ["rq", "tx", "ty", "tz", "sx", "sy", "sz", "vb"]);
    assert!(matches!(curves[0].key_frames(), Some(Indices::U8(f)) if f == [0, 10, 20]));
    assert_eq!(curves[0].key_values().map(Value::kind), Some(PropertyType::Vec4));
    assert!(matches!(curves[1].key_frames(), Some(Indices::U16(f)) if f == [0, 300]));
    assert_eq!(curves[1].mode(), Some("relative"));
    assert_eq!(curves[0].mode(), Some("absolute"));
    assert_eq!(curves[7].key_values(), Some(&Value::Byte(vec![1, 0])));
    let tracks: Vec<_> = anim.notification_tracks().collect();
    assert_eq!(tracks[0].name(), Some("footstep"));
    assert!(matches!(tracks[0].key_frames(), Some(Indices::U8(f)) if f == [4, 19]));
    assert_eq!(tracks[1].name(), Some("end"));
    assert!(matches!(tracks[1].key_frames(), Some(Indices::U32(f)) if f == [70000]));

    // As a scene: the first transform curve's mode, joined translation keys, sorted notes,
    // and the visibility curve carried whole.
    let mut report = ConversionReport::default();
    let scene = file.to_scene(&SceneOptions::default(), &mut report).unwrap();
    let a = &scene.animations[0];
    assert_eq!(a.kind, animbin_cast::AnimKind::Absolute);
    assert_eq!(a.frame_count, 70001.0);
    let origin = a.bones.iter().find(|t| t.bone == "tag_origin").unwrap();
    assert_eq!(origin.translation.len(), 2);
    assert_eq!(origin.translation.get(1).unwrap().frame, 300.0);
    assert_eq!(origin.translation.get(1).unwrap().value, Vec3::new(1.5, -2.0, 3.0));
    let notes: Vec<(f64, &str)> = a.notes.iter().map(|n| (n.frame, n.name.as_str())).collect();
    assert_eq!(notes, [(4.0, "footstep"), (19.0, "footstep"), (70000.0, "end")]);
    assert_eq!(a.properties.len(), 1);
    assert_eq!(
        (a.properties[0].node.as_str(), a.properties[0].property.as_str()),
        ("j_ankle_le", "vb")
    );
    // The relative translation curves keep their mode on their own channel.
    assert_eq!(
        origin.channel_kinds,
        ChannelKinds {
            translation: Some(animbin_cast::AnimKind::Relative),
            ..ChannelKinds::NONE
        }
    );
    assert_eq!(report.lost, Vec::<String>::new());
}

#[test]
fn ref_curve_mode_override_overrides_rotation_only() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_curve_mode_override.cast");
    let anim = file.animations().next().unwrap();
    assert_eq!(
        (anim.name(), anim.framerate(), anim.looping()),
        (Some("lean_additive"), Some(60.0), Some(false))
    );
    let cmov = anim.curve_mode_overrides().next().unwrap();
    assert_eq!((cmov.node_name(), cmov.mode()), (Some("j_spine"), Some("additive")));
    assert_eq!(
        (
            cmov.override_translation(),
            cmov.override_rotation(),
            cmov.override_scale()
        ),
        (Some(false), Some(true), Some(false))
    );
    let curve = anim.curves().next().unwrap();
    assert_eq!(
        (curve.mode(), curve.additive_blend_weight()),
        (Some("additive"), Some(0.5))
    );
}

#[test]
fn ref_blendshape_has_two_roots_and_a_weight_curve() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_blendshape.cast");
    assert_eq!(file.roots.len(), 2);
    let model = file.models().next().unwrap();
    assert_eq!(model.name(), Some("face"));
    let mesh = model.meshes().next().unwrap();
    let shape = model.blend_shapes().next().unwrap();
    assert_eq!(shape.name(), Some("smile"));
    assert_eq!(shape.base_shape(), Some(mesh.node().hash));
    assert!(matches!(shape.vertex_indices(), Some(Indices::U8(v)) if v == [1, 2]));
    assert_eq!(shape.vertex_positions().unwrap().len(), 2);
    assert_eq!(shape.target_weight_scale(), Some(&[1.0][..]));
    let anim = file.animations().next().unwrap();
    assert_eq!((anim.name(), anim.framerate()), (None, Some(24.0)));
    let curve = anim.curves().next().unwrap();
    assert_eq!((curve.node_name(), curve.key_property()), (Some("smile"), Some("bs")));
}

#[test]
fn ref_ik_constraints_names_bones_by_hash() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_ik_constraints.cast");
    let skeleton = file.models().next().unwrap().skeleton().unwrap();
    let bones: Vec<u64> = skeleton.bones().map(|b| b.node().hash).collect();
    assert_eq!(bones.len(), 5);
    let ik = skeleton.ik_handles().next().unwrap();
    assert_eq!(ik.name(), Some("leg_ik"));
    assert_eq!(
        (ik.start_bone(), ik.end_bone(), ik.target_bone(), ik.pole_vector_bone()),
        (Some(bones[0]), Some(bones[2]), Some(bones[3]), Some(bones[4]))
    );
    assert_eq!(
        (ik.target_offset(), ik.use_target_rotation()),
        (Some(Vec3::new(0.0, 0.1, 0.0)), Some(true))
    );
    let constraints: Vec<_> = skeleton.constraints().collect();
    let types: Vec<&str> = constraints.iter().map(|c| c.constraint_type().unwrap()).collect();
    assert_eq!(types, ["pt", "or", "sc"]);
    assert!(matches!(
        constraints[0].custom_offset(),
        Some(ConstraintOffset::Vector(_))
    ));
    assert!(matches!(
        constraints[1].custom_offset(),
        Some(ConstraintOffset::Rotation(_))
    ));
    for c in &constraints {
        assert_eq!((c.constraint_bone(), c.weight()), (Some(bones[2]), Some(0.75)));
        assert!(c.maintain_offset().is_some() && c.skip_x().is_some() && c.skip_z().is_some());
    }
    assert_eq!(constraints[1].skip_y(), Some(true));
}

#[test]
fn ref_metadata_instances_reference_their_own_files() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_metadata_instances.cast");
    let root = file.roots[0].as_root().unwrap();
    let meta = root.metadata().next().unwrap();
    assert_eq!((meta.author(), meta.up_axis()), (Some("holdout corpus"), Some("z")));
    assert_eq!(meta.scene_root(), Some("C:/scenes/ëxample"));
    let instances: Vec<_> = root.instances().collect();
    assert_eq!(instances.len(), 2);
    for (i, inst) in instances.iter().enumerate() {
        let file = inst.node().child_by_hash(inst.reference_file().unwrap()).unwrap();
        assert_eq!(file.as_file().unwrap().path(), Some("models/crate.cast"));
        assert_eq!(inst.position(), Some(Vec3::new(2.0 * i as f32, 0.0, 0.0)));
    }
}

#[test]
fn ref_hair_u16faces_has_strands_and_a_grid_with_u16_faces() {
    let Some(dir) = corpus() else { return };
    let file = open(&dir, "ref_hair_u16faces.cast");
    let model = file.models().next().unwrap();
    assert_eq!(model.name(), Some("hair_and_grid"));
    let material = model.materials().next().unwrap();
    assert_eq!((material.name(), material.slots().count()), (Some("hair_mtl"), 0));
    let hair = model.hairs().next().unwrap();
    assert!(matches!(hair.segments(), Some(Indices::U8(s)) if s == [2, 1, 3]));
    assert_eq!(hair.particles().unwrap().len(), 9);
    assert_eq!(hair.material(), Some(material.node().hash));
    let grid = model.meshes().next().unwrap();
    assert_eq!(grid.name(), Some("grid_17x17"));
    assert_eq!(grid.positions().unwrap().len(), 289);
    let Some(Indices::U16(faces)) = grid.faces() else {
        panic!("u16 faces")
    };
    assert_eq!(faces.len(), 512 * 3);
    assert_eq!(grid.material(), Some(material.node().hash));
    assert_eq!(file.count(NodeKind::Mesh), 1);
}
