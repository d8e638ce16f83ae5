//! `animbin` on Cast files: detection by magic, `info --json` with the keys CAST.md names,
//! dump -> convert byte for byte for every corpus file, validate, bad input with its byte
//! offset, and conversions between Cast and SEAnim, SEModel and glTF.

mod common;

use std::path::{Path, PathBuf};

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_testing::gltf::{error_lines, khronos_validate, provide_external_images};
use animbin_testing::{corpus_files, shared_corpus};
use serde_json::Value;

use common::{
    animbin, assert_converts_to_itself, assert_dump_rebuilds, code, info_json, read, s, stderr, stdout, tempdir,
    testdata, write,
};

fn cast_corpus() -> Vec<PathBuf> {
    shared_corpus(env!("CARGO_MANIFEST_DIR"), "cast").map_or_else(Vec::new, |dir| corpus_files(&dir, "cast"))
}

fn se_corpus(format: &str) -> Vec<PathBuf> {
    shared_corpus(env!("CARGO_MANIFEST_DIR"), format).map_or_else(Vec::new, |dir| corpus_files(&dir, format))
}

/// `convert IN OUT`, which must succeed; returns the loss lines it printed.
fn convert(input: &Path, output: &Path) -> String {
    let out = animbin(&["convert", s(input), s(output)]);
    assert_eq!(
        code(&out),
        0,
        "{} -> {}: {}",
        input.display(),
        output.display(),
        stderr(&out)
    );
    stderr(&out)
}

fn name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap()
}

#[test]
fn info_json_has_the_keys_cast_md_names_with_the_corpus_counts() {
    // (file, root_count, node_count, model_count, mesh_count, bone_count, animation_count,
    //  curve_count, material_count), from SOURCES-cast.md's descriptions.
    let expected: [(&str, [u64; 8]); 8] = [
        ("ref_animation.cast", [1, 12, 0, 0, 0, 1, 8, 0]),
        ("ref_blendshape.cast", [2, 7, 1, 1, 0, 1, 1, 0]),
        ("ref_curve_mode_override.cast", [1, 4, 0, 0, 0, 1, 1, 0]),
        ("ref_hair_u16faces.cast", [1, 5, 1, 1, 0, 0, 0, 1]),
        ("ref_ik_constraints.cast", [1, 12, 1, 0, 5, 0, 0, 0]),
        ("ref_metadata_instances.cast", [1, 6, 0, 0, 0, 0, 0, 0]),
        ("ref_skeleton_only.cast", [1, 8, 1, 0, 5, 0, 0, 0]),
        ("ref_skinned_model.cast", [1, 11, 1, 1, 3, 0, 0, 1]),
    ];
    let files = cast_corpus();
    if files.is_empty() {
        return;
    }
    assert_eq!(files.len(), expected.len());
    let keys = [
        "root_count",
        "node_count",
        "model_count",
        "mesh_count",
        "bone_count",
        "animation_count",
        "curve_count",
        "material_count",
    ];
    for (file, (expected_name, counts)) in files.iter().zip(expected) {
        assert_eq!(name(file), expected_name);
        let info = info_json(file);
        assert_eq!(info["format"], "cast", "{expected_name}");
        for (key, count) in keys.iter().zip(counts) {
            assert_eq!(info[key], count, "{expected_name}: {key}");
        }
    }
    // Detected by its magic whatever the name.
    let dir = tempdir();
    let renamed = write(dir.path(), "model.bin", &read(&testdata("sample.cast")));
    let info = info_json(&renamed);
    assert_eq!(info["format"], "cast");
    assert_eq!(
        (info["model_count"].as_u64(), info["animation_count"].as_u64()),
        (Some(1), Some(1))
    );
    let text = stdout(&animbin(&["info", s(&renamed)]));
    assert!(
        text.starts_with("format: cast\n") && text.contains("curve_count: 4"),
        "{text}"
    );
}

#[test]
fn dump_and_convert_rebuild_every_corpus_file_byte_for_byte() {
    let mut files = cast_corpus();
    files.push(testdata("sample.cast"));
    for file in files {
        let dir = tempdir();
        let dump = assert_dump_rebuilds(&file, "cast", dir.path(), "rebuilt.cast", &[]);
        assert!(dump["data"]["nodes"].is_array(), "{}", file.display());
        assert_converts_to_itself(&file, dir.path(), "copy.cast", &[]);
        let out = animbin(&["validate", "--strict", s(&file)]);
        assert_eq!(code(&out), 0, "{}: {}", file.display(), stdout(&out));
    }
}

#[test]
fn validate_lists_problems_and_bad_input_names_the_byte_offset() {
    let dir = tempdir();
    let good = read(&testdata("sample.cast"));
    // The sample's mesh: a face index past its vertices is a validate error, not a read error.
    let mut file = animbin_cast::read(&good).unwrap();
    let model = &mut file.roots[0].children[0];
    let mesh = model
        .children
        .iter_mut()
        .find(|c| c.is(animbin_cast::NodeKind::Mesh))
        .unwrap();
    let faces = mesh.properties.iter_mut().find(|p| p.name == "f").unwrap();
    faces.value = animbin_cast::Value::Byte(vec![0, 1, 9, 0, 2, 3]);
    let bad = write(dir.path(), "bad.cast", &animbin_cast::to_bytes(&file).unwrap());
    let out = animbin(&["validate", s(&bad)]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("mesh 2 (\"quad\") property \"f\": entry 2 is 9, not below the 4 vertices"),
        "{}",
        stdout(&out)
    );
    // Converting it refuses the face: an index that points nowhere.
    let out = animbin(&["convert", s(&bad), s(&dir.path().join("bad.glb"))]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("face index 2 is 9"), "{}", stderr(&out));

    let mut cases: Vec<(&str, Vec<u8>, String)> = Vec::new();
    let mut version = good.clone();
    version[4] = 2;
    cases.push(("version", version, "cast at byte 4 ".into()));
    let mut roots = good.clone();
    roots[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(("root_count", roots, "cast at byte 8 ".into()));
    let mut size = good.clone();
    size[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(("node_size", size, "cast at byte 20 ".into()));
    cases.push(("truncated", good[..good.len() / 2].to_vec(), "cast at byte 20 ".into()));
    let mut trailing = good.clone();
    trailing.push(0);
    cases.push(("trailing", trailing, format!("cast at byte {} ", good.len())));
    for (what, bytes, expected) in cases {
        let path = write(dir.path(), &format!("{what}.cast"), &bytes);
        for command in ["info", "dump", "validate"] {
            let out = animbin(&[command, s(&path)]);
            assert_eq!(code(&out), 1, "{what}: {}", stderr(&out));
            assert!(stderr(&out).contains(&expected), "{what}: {}", stderr(&out));
        }
    }
}

fn scene_of(path: &Path) -> Scene {
    let document = animbin::Document::open(path).unwrap();
    document
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .unwrap()
}

/// SEAnim -> Cast -> SEAnim: the same bytes for every file within what the scene and Cast
/// both hold; the delta kind and f64 precision do not travel, and say so.
#[test]
fn seanim_to_cast_and_back_keeps_keys_notes_and_modifiers() {
    let mut files = se_corpus("seanim");
    files.push(testdata("sample.seanim"));
    files.push(testdata("sample_every_block.seanim"));
    for file in files {
        let dir = tempdir();
        let cast = dir.path().join("a.cast");
        let to_cast = convert(&file, &cast);
        let back = dir.path().join("back.seanim");
        let to_seanim = convert(&cast, &back);
        assert_eq!(to_seanim, "", "{}: Cast -> SEAnim loses nothing more", name(&file));
        let (before, after) = (scene_of(&file), scene_of(&back));
        let (a, b) = (&before.animations[0], &after.animations[0]);
        assert_eq!(
            a.bones.iter().map(|t| (&t.bone, t.kind_override)).collect::<Vec<_>>(),
            b.bones.iter().map(|t| (&t.bone, t.kind_override)).collect::<Vec<_>>(),
            "{}: bones and modifiers",
            name(&file)
        );
        assert_eq!(a.notes, b.notes, "{}: notes", name(&file));
        for (x, y) in a.bones.iter().zip(&b.bones) {
            let frames = |t: &animbin_core::scene::BoneTrack| {
                (
                    t.translation.iter().map(|k| k.frame).collect::<Vec<_>>(),
                    t.rotation.iter().map(|k| k.frame).collect::<Vec<_>>(),
                    t.scale.iter().map(|k| k.frame).collect::<Vec<_>>(),
                )
            };
            assert_eq!(frames(x), frames(y), "{}: {} key frames", name(&file), x.bone);
        }
        match name(&file) {
            "ref_delta.seanim" => {
                assert!(to_cast.contains("the delta animation kind"), "{to_cast}");
                assert_eq!(b.kind, animbin_core::scene::AnimKind::Relative);
            }
            "ref_highprec_scale_mods.seanim" => {
                assert!(to_cast.contains("key values beyond f32"), "{to_cast}");
            }
            "sample_every_block.seanim" => {
                // The custom block, the SEBlend trailer, a cosmetic mark, f64 keys.
                assert!(to_cast.contains("custom block"), "{to_cast}");
                assert!(to_cast.contains("seblend"), "{to_cast}");
            }
            other => {
                assert_eq!(to_cast, "", "{other}: SEAnim -> Cast loses nothing");
                assert_eq!(read(&back), read(&file), "{other}: SEAnim -> Cast -> SEAnim");
            }
        }
    }
}

/// SEModel -> Cast -> SEModel gives what SEModel -> scene -> SEModel gives: Cast holds
/// everything the scene takes from an SEModel.
#[test]
fn semodel_to_cast_and_back_is_the_semodel_scene_round_trip() {
    let mut files = se_corpus("semodel");
    files.push(testdata("sample.semodel"));
    files.push(testdata("skeleton.semodel"));
    for file in files {
        let dir = tempdir();
        let cast = dir.path().join("a.cast");
        let lost = convert(&file, &cast);
        let back = dir.path().join("back.semodel");
        assert_eq!(convert(&cast, &back), "", "{}", name(&file));
        let model = animbin_semodel::read(&read(&file)).unwrap();
        let mut report = ConversionReport::default();
        let scene = model.to_scene(&SceneOptions::default(), &mut report).unwrap();
        let direct = animbin_semodel::SeModel::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        // SEModel stores f32 poses too: the world poses the scene derives in f64 round the
        // same way into either format.
        let uv_materials =
            "animbin: cast cannot hold: materials of UV layers after the first (a Cast mesh has one material)";
        for line in lost.lines() {
            assert!(
                [uv_materials, "animbin: cast cannot hold: bind pose digits beyond f32"].contains(&line),
                "{}: {line}",
                name(&file)
            );
        }
        if !lost.contains(uv_materials) {
            assert_eq!(
                read(&back),
                animbin_semodel::to_bytes(&direct).unwrap(),
                "{}: SEModel -> Cast -> SEModel",
                name(&file)
            );
        } else {
            // A Cast mesh has one material; SEModel gives each UV layer one.
            let after = scene_of(&back);
            for (a, b) in scene.meshes.iter().zip(&after.meshes) {
                assert_eq!(
                    (&a.positions, &a.uv_layers, &a.faces, &a.skin),
                    (&b.positions, &b.uv_layers, &b.faces, &b.skin)
                );
                assert_eq!(a.materials[0], b.materials[0]);
            }
            assert_eq!(scene.skeleton, after.skeleton);
            assert_eq!(scene.materials, after.materials);
        }
        let out = animbin(&["validate", s(&cast)]);
        assert_eq!(code(&out), 0, "{}: {}", name(&file), stdout(&out));
    }
}

#[test]
fn cast_to_gltf_passes_the_khronos_validator_and_comes_back_with_its_keys() {
    let dir = tempdir();
    let mut outputs = Vec::new();
    let mut files = cast_corpus();
    files.push(testdata("sample.cast"));
    for file in &files {
        let glb = dir.path().join(format!("{}.glb", name(file)));
        if name(file) == "ref_metadata_instances.cast" {
            // Metadata and instances only: the glTF would hold nothing, so it is asked for.
            let refused = animbin(&["convert", s(file), s(&glb)]);
            assert_eq!(code(&refused), 1, "{}", stderr(&refused));
            assert!(stderr(&refused).contains("--allow-empty"), "{}", stderr(&refused));
            assert!(!glb.exists());
            let out = animbin(&["convert", "--allow-empty", s(file), s(&glb)]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
        } else {
            convert(file, &glb);
        }
        provide_external_images(&glb);
        outputs.push(glb);
    }
    // glTF -> Cast: the sample's keys and notes come back.
    let sample_glb = outputs.last().unwrap().clone();
    let back = dir.path().join("back.cast");
    convert(&sample_glb, &back);
    let (a, b) = (scene_of(&testdata("sample.cast")), scene_of(&back));
    assert_eq!(a.animations[0].notes, b.animations[0].notes);
    for (x, y) in a.animations[0].bones.iter().zip(&b.animations[0].bones) {
        assert_eq!(x.bone, y.bone);
        assert_eq!(x.rotation.len(), y.rotation.len());
        for (k, l) in x.rotation.iter().zip(&y.rotation) {
            assert_eq!(k.frame, l.frame);
            assert!((k.value.y - l.value.y).abs() < 1e-6 && (k.value.w - l.value.w).abs() < 1e-6);
        }
    }
    assert_eq!(a.meshes[0].positions, b.meshes[0].positions);
    assert_eq!(a.meshes[0].skin, b.meshes[0].skin);
    let Some(reports) = khronos_validate(&outputs) else {
        return;
    };
    for report in reports {
        assert_eq!(report.errors, 0, "{}:\n{}", report.file, error_lines(&report));
    }
}

#[test]
fn strict_conversion_names_what_the_target_cannot_hold() {
    let file = cast_corpus()
        .into_iter()
        .find(|f| name(f) == "ref_skinned_model.cast")
        .expect("the shared corpus has ref_skinned_model.cast");
    let dir = tempdir();
    let out = animbin(&["convert", "--strict", s(&file), s(&dir.path().join("a.semodel"))]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("vertex tangents (vt)"), "{err}");
    assert!(err.contains("dual-quaternion skinning"), "{err}");
    assert!(!dir.path().join("a.semodel").exists());
    // An animation into SEModel holds nothing.
    let anim = testdata("sample.seanim");
    let out = animbin(&["convert", s(&anim), s(&dir.path().join("b.cast"))]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let info: Value = info_json(&dir.path().join("b.cast"));
    assert_eq!(
        (info["model_count"].as_u64(), info["animation_count"].as_u64()),
        (Some(0), Some(1))
    );
}
