//! SEAnim and SEModel through Cast and back, straight between the two formats: every SE
//! corpus file and every SE testdata fixture comes back byte for byte, through the library's
//! `convert` and through the `se_cast` functions; the Cast files are valid and show Cast
//! readers what both formats hold; Cast files the mapping did not make go through the scene.

use std::path::{Path, PathBuf};

use animbin::cast::{CastFile, NodeKind, Value};
use animbin::se_cast::{cast_to_seanim, cast_to_semodel, seanim_to_cast, semodel_to_cast};
use animbin::{ConvertOptions, Document, Severity, Target};
use animbin_testing::{corpus_files, shared_corpus};

fn testdata(extension: &str) -> Vec<PathBuf> {
    corpus_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"), extension)
}

/// Every SE file to round trip: the shared corpus's and the testdata fixtures.
fn se_files(format: &str) -> Vec<PathBuf> {
    let mut files =
        shared_corpus(env!("CARGO_MANIFEST_DIR"), format).map_or_else(Vec::new, |dir| corpus_files(&dir, format));
    files.extend(testdata(format));
    files
}

fn name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or_default()
}

/// Converts `document` to `target` with the library's default options.
fn convert(document: &Document, target: Target) -> (Vec<u8>, Vec<String>) {
    let conversion = animbin::convert(document, target, &ConvertOptions::default()).unwrap();
    (conversion.to_bytes().unwrap(), conversion.report.lost.clone())
}

/// The Cast bytes of `file`, converted and read back, with the losses reported; checks that
/// the Cast file has no validation error.
fn to_cast(file: &Path) -> (Vec<u8>, Vec<String>) {
    let document = Document::open(file).unwrap();
    let (cast, lost) = convert(&document, Target::Cast);
    let back = Document::parse(&cast, None).unwrap();
    let errors: Vec<_> = back
        .validate()
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    assert_eq!(errors, [], "{}: the Cast file breaks no rule", name(file));
    (cast, lost)
}

#[test]
fn every_seanim_comes_back_from_cast_byte_for_byte() {
    let files = se_files("seanim");
    assert!(files.len() >= 9, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let (cast, lost) = to_cast(&file);
        let has_seblend = animbin::seanim::read(&bytes).unwrap().trailer.seblend().is_some();
        let expected: &[&str] = if has_seblend {
            &[
                "SEBlend blend shapes as Cast blend shapes (the trailer travels as the bytes of se.trailer, which Cast readers skip)",
            ]
        } else {
            &[]
        };
        assert_eq!(lost, expected, "{}: SEAnim -> Cast", name(&file));
        let (back, lost) = convert(&Document::parse(&cast, None).unwrap(), Target::SeAnim);
        assert_eq!(lost, Vec::<String>::new(), "{}: Cast -> SEAnim", name(&file));
        assert!(
            back == bytes,
            "{}: SEAnim -> Cast -> SEAnim gives other bytes",
            name(&file)
        );

        // The functions on their own.
        let anim = animbin::seanim::read(&bytes).unwrap();
        let file_again = animbin::cast::read(&cast).unwrap();
        assert_eq!(animbin::cast::to_bytes(&seanim_to_cast(&anim)).unwrap(), cast);
        let anim_again = cast_to_seanim(&file_again).expect("the mapping's own Cast file");
        assert_eq!(
            animbin::seanim::to_bytes(&anim_again).unwrap(),
            bytes,
            "{}",
            name(&file)
        );
    }
}

#[test]
fn every_semodel_comes_back_from_cast_byte_for_byte() {
    let files = se_files("semodel");
    assert!(files.len() >= 8, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let model = animbin::semodel::read(&bytes).unwrap();
        let (cast, lost) = to_cast(&file);
        // SEBlend shapes are BlendShape nodes too: nothing is lost.
        assert_eq!(lost, Vec::<String>::new(), "{}: SEModel -> Cast", name(&file));
        let shapes = animbin::cast::read(&cast)
            .unwrap()
            .models()
            .map(|m| m.blend_shapes().count())
            .sum::<usize>();
        let moved = model.trailer().seblend().map_or(0, |b| {
            b.meshes
                .iter()
                .map(|m| {
                    let mut used: Vec<u32> = m
                        .vertices
                        .iter()
                        .flat_map(|v| v.deltas.iter().map(|d| d.shape))
                        .collect();
                    used.sort_unstable();
                    used.dedup();
                    used.len()
                })
                .sum::<usize>()
        });
        assert_eq!(
            shapes,
            moved,
            "{}: a BlendShape per shape and mesh it moves",
            name(&file)
        );
        let (back, lost) = convert(&Document::parse(&cast, None).unwrap(), Target::SeModel);
        assert_eq!(lost, Vec::<String>::new(), "{}: Cast -> SEModel", name(&file));
        assert!(
            back == bytes,
            "{}: SEModel -> Cast -> SEModel gives other bytes",
            name(&file)
        );

        let file_again = animbin::cast::read(&cast).unwrap();
        assert_eq!(animbin::cast::to_bytes(&semodel_to_cast(&model)).unwrap(), cast);
        let model_again = cast_to_semodel(&file_again).expect("the mapping's own Cast file");
        assert_eq!(
            animbin::semodel::to_bytes(&model_again).unwrap(),
            bytes,
            "{}",
            name(&file)
        );
    }
}

/// The Animation of a Cast file made from an SEAnim.
fn animation(file: &CastFile) -> &animbin::cast::Node {
    &file.roots[0].children[0]
}

#[test]
fn cast_readers_see_an_seanims_keys_notes_and_modifiers_where_cast_keeps_them() {
    let dir = shared_corpus(env!("CARGO_MANIFEST_DIR"), "seanim");
    let Some(dir) = dir else { return };
    let anim = animbin::seanim::read(&std::fs::read(dir.join("ref_basic_u8frames.seanim")).unwrap()).unwrap();
    let file = seanim_to_cast(&anim);
    let node = animation(&file);
    let typed = node.as_animation().unwrap();
    assert_eq!(typed.framerate(), Some(30.0));
    assert_eq!(typed.looping(), Some(true));
    // Bone after bone, rq then tx ty tz (this file has no scale keys), each on its keys.
    let mut expected: Vec<(&str, &str, Vec<u32>, Value)> = Vec::new();
    for bone in &anim.bones {
        if !bone.rotation.is_empty() {
            let frames = bone.rotation.iter().map(|k| k.frame).collect();
            let values = bone
                .rotation
                .iter()
                .map(|k| animbin::core::Vec4::new(k.value.x, k.value.y, k.value.z, k.value.w).map(|c| c as f32))
                .collect();
            expected.push((&bone.name, "rq", frames, Value::Vec4(values)));
        }
        for (axis, kp) in ["tx", "ty", "tz"].into_iter().enumerate() {
            if !bone.location.is_empty() {
                let frames = bone.location.iter().map(|k| k.frame).collect();
                let values = bone
                    .location
                    .iter()
                    .map(|k| [k.value.x, k.value.y, k.value.z][axis] as f32)
                    .collect();
                expected.push((&bone.name, kp, frames, Value::Float(values)));
            }
        }
    }
    let curves: Vec<(&str, &str, Vec<u32>, Value)> = typed
        .curves()
        .map(|c| {
            assert_eq!(c.mode(), Some("relative"));
            let frames = c.key_frames().unwrap().to_vec();
            (
                c.node_name().unwrap(),
                c.key_property().unwrap(),
                frames,
                c.key_values().unwrap().clone(),
            )
        })
        .collect();
    assert!(curves.len() >= 5, "{curves:?}");
    assert_eq!(curves, expected);
    let tracks: Vec<_> = typed.notification_tracks().collect();
    let notes: Vec<(String, Vec<u32>)> = tracks
        .iter()
        .map(|t| (t.name().unwrap().to_string(), t.key_frames().unwrap().to_vec()))
        .collect();
    let mut expected: Vec<(String, Vec<u32>)> = Vec::new();
    for note in &anim.notes {
        match expected.iter_mut().find(|(n, _)| *n == note.name) {
            Some((_, frames)) => frames.push(note.frame),
            None => expected.push((note.name.clone(), vec![note.frame])),
        }
    }
    assert_eq!(notes, expected);
    // Nothing here needs an `se.` property: the Cast file is what any Cast writer would make.
    let mut extras = Vec::new();
    file.walk(|n, _| {
        extras.extend(
            n.properties
                .iter()
                .filter(|p| p.name.starts_with("se."))
                .map(|p| p.name.clone()),
        )
    });
    assert_eq!(extras, Vec::<String>::new());

    // The modifiers of ref_300bones_u16bone_t are CurveModeOverrides naming their bones.
    let anim = animbin::seanim::read(&std::fs::read(dir.join("ref_300bones_u16bone_t.seanim")).unwrap()).unwrap();
    let file = seanim_to_cast(&anim);
    let overrides: Vec<(String, String)> = animation(&file)
        .as_animation()
        .unwrap()
        .curve_mode_overrides()
        .map(|c| (c.node_name().unwrap().to_string(), c.mode().unwrap().to_string()))
        .collect();
    let expected: Vec<(String, String)> = anim
        .modifiers
        .iter()
        .map(|m| (anim.bones[m.bone as usize].name.clone(), m.anim_type.name().to_string()))
        .collect();
    assert_eq!(overrides, expected);
}

#[test]
fn high_precision_keys_and_the_delta_type_travel_in_se_properties() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "seanim") else {
        return;
    };
    let anim = animbin::seanim::read(&std::fs::read(dir.join("ref_highprec_scale_mods.seanim")).unwrap()).unwrap();
    let file = seanim_to_cast(&anim);
    let node = animation(&file);
    assert_eq!(node.value("se.dataPropertyFlags"), Some(&Value::Byte(vec![1])));
    // Curves whose values f32 does not hold carry them whole as f64.
    let exact = node
        .children
        .iter()
        .filter(|c| c.is(NodeKind::Curve) && c.property("se.kv").is_some())
        .count();
    assert!(exact > 0);

    let anim = animbin::seanim::read(&std::fs::read(dir.join("ref_delta.seanim")).unwrap()).unwrap();
    let file = seanim_to_cast(&anim);
    let node = animation(&file);
    assert_eq!(node.str_value("se.animType"), Some("delta"));
    let curve = node.as_animation().unwrap().curves().next().unwrap();
    assert_eq!(curve.mode(), Some("relative"), "Cast's nearest mode");
}

#[test]
fn cast_readers_see_an_semodels_bones_meshes_and_materials_where_cast_keeps_them() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") else {
        return;
    };
    let bytes = std::fs::read(dir.join("ref_skinned_quad_2uv_colors.semodel")).unwrap();
    let model = animbin::semodel::read(&bytes).unwrap();
    let animbin::semodel::SeModel::Deployed(se) = &model else {
        panic!("deployed")
    };
    let file = semodel_to_cast(&model);
    let node = &file.roots[0].children[0];
    let cast = node.as_model().unwrap();
    let bones: Vec<_> = cast.skeleton().unwrap().bones().collect();
    assert_eq!(bones.len(), se.bones.items().len());
    for (b, s) in bones.iter().zip(se.bones.items()) {
        assert_eq!(b.name(), Some(s.name.as_str()));
        assert_eq!(b.parent(), Some(s.parent));
        assert_eq!(b.world_position(), s.global.map(|p| p.position));
        assert_eq!(b.local_rotation(), s.local.map(|p| p.rotation));
        assert_eq!(b.scale(), s.scale);
    }
    let mesh = cast.meshes().next().unwrap();
    let se_mesh = &se.meshes.items()[0];
    assert_eq!(mesh.positions(), Some(&se_mesh.positions[..]));
    assert_eq!(mesh.uv_layer_count(), Some(2));
    assert_eq!(mesh.uv_layer(1).map(<[_]>::to_vec), Some(se_mesh.uv_layer(1)));
    assert_eq!(mesh.max_influence(), Some(u32::from(se_mesh.max_influence)));
    let faces: Vec<u32> = se_mesh.faces.iter().flatten().copied().collect();
    assert_eq!(mesh.faces().map(|f| f.to_vec()), Some(faces));
    let materials: Vec<_> = cast.materials().collect();
    assert_eq!(mesh.material(), Some(materials[0].node().hash));
    assert_eq!(materials.len(), se.materials.items().len());
    for (m, s) in materials.iter().zip(se.materials.items()) {
        assert_eq!(m.name(), Some(s.name.as_str()));
        let diffuse = m
            .slot("diffuse")
            .and_then(|h| m.node().child_by_hash(h))
            .and_then(|f| f.str_value("p"));
        assert_eq!(
            diffuse,
            s.maps
                .as_ref()
                .map(|maps| maps.diffuse.as_str())
                .filter(|d| !d.is_empty())
        );
    }
}

#[test]
fn cast_files_the_mapping_did_not_make_go_through_the_scene() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast") else {
        return;
    };
    for file in corpus_files(&dir, "cast") {
        let cast = animbin::cast::read(&std::fs::read(&file).unwrap()).unwrap();
        assert!(cast_to_seanim(&cast).is_none(), "{}", name(&file));
        assert!(cast_to_semodel(&cast).is_none(), "{}", name(&file));
    }
    // An edited key is still an SEAnim's: it travels.
    let seanim = dir.join("../seanim/ref_basic_u8frames.seanim");
    let mut cast = seanim_to_cast(&animbin::seanim::read(&std::fs::read(&seanim).unwrap()).unwrap());
    let curve = cast.roots[0].children[0]
        .children
        .iter_mut()
        .find(|c| c.str_value("kp") == Some("tx"))
        .unwrap();
    let kv = curve.properties.iter_mut().find(|p| p.name == "kv").unwrap();
    let Value::Float(values) = &mut kv.value else {
        panic!("{kv:?}")
    };
    values[0] = 42.5;
    let edited = cast_to_seanim(&cast).expect("an edited key value is an SEAnim's");
    let bone = edited.bones.iter().find(|b| !b.location.is_empty()).unwrap();
    assert_eq!(bone.location.get(0).unwrap().value.x, 42.5);

    // Another node (a visibility curve) is not: the file takes the scene's path, and the
    // `se.` properties that the scene has no place for are reported, not dropped silently.
    let seanim = dir.join("../seanim/ref_highprec_scale_mods.seanim");
    let mut cast = seanim_to_cast(&animbin::seanim::read(&std::fs::read(seanim).unwrap()).unwrap());
    let mut visibility = animbin::cast::Node::new(NodeKind::Curve, 7);
    visibility.push(animbin::cast::Property::string("nn", "tag_origin"));
    visibility.push(animbin::cast::Property::string("kp", "vb"));
    visibility.push(animbin::cast::Property::new("kb", Value::Byte(vec![0])));
    visibility.push(animbin::cast::Property::new("kv", Value::Byte(vec![1])));
    visibility.push(animbin::cast::Property::string("m", "absolute"));
    cast.roots[0].children[0].children.push(visibility);
    assert!(cast_to_seanim(&cast).is_none());
    let document = Document::Cast(cast);
    let (_, lost) = convert(&document, Target::SeAnim);
    assert!(lost.iter().any(|l| l.contains("se.")), "{lost:?}");
}

#[test]
fn a_cast_file_that_asks_for_more_than_an_semodel_holds_is_not_read_as_one() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") else {
        return;
    };
    let bytes = std::fs::read(dir.join("ref_static_triangle.semodel")).unwrap();
    let mut cast = semodel_to_cast(&animbin::semodel::read(&bytes).unwrap());
    assert!(cast_to_semodel(&cast).is_some());
    // layerCount is a u8: 4294967295 UV layers are refused before anything is sized by them.
    let mesh = cast.roots[0].children[0]
        .children
        .iter_mut()
        .find(|c| c.is(NodeKind::Mesh))
        .unwrap();
    let ul = mesh.properties.iter_mut().find(|p| p.name == "ul").unwrap();
    ul.value = Value::Integer(vec![u32::MAX]);
    assert!(cast_to_semodel(&cast).is_none());
}
