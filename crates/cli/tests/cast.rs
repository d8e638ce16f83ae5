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

/// The bone tracks with keys of the scene's first animation: name, kind override and the
/// frames of each channel; and the notes in frame order.
/// A track's bone, the override it sets per channel (translation, rotation, scale: a
/// whole-track override in SEAnim, a CurveModeOverride's flagged channels in Cast) and its
/// key frames per channel.
type Keyed = (String, [Option<animbin_core::scene::AnimKind>; 3], [Vec<f64>; 3]);

/// `skeleton` with each bone's local scale moved into its rest scale (their product), and
/// its global scale set to 1, so that a scale held in either place compares equal.
fn with_scales_as_rest_scales(skeleton: &animbin_core::scene::Skeleton) -> animbin_core::scene::Skeleton {
    let mut skeleton = skeleton.clone();
    for bone in &mut skeleton.bones {
        bone.rest_scale = bone.rest_scale * bone.local.scale;
        bone.local.scale = animbin_core::math::Vec3::ONE;
        // The global pose follows from the local one (and then holds no rest scale either).
        bone.global.scale = animbin_core::math::Vec3::ONE;
    }
    skeleton
}

fn keyed_tracks_and_notes(scene: &Scene) -> (Vec<Keyed>, Vec<(f64, String)>) {
    let anim = &scene.animations[0];
    let frames = |keys: &mut dyn Iterator<Item = f64>| keys.collect::<Vec<f64>>();
    let tracks = anim
        .bones
        .iter()
        .filter(|t| !(t.translation.is_empty() && t.rotation.is_empty() && t.scale.is_empty()))
        .map(|t| {
            (
                t.bone.clone(),
                [
                    t.channel_overrides.translation.or(t.kind_override),
                    t.channel_overrides.rotation.or(t.kind_override),
                    t.channel_overrides.scale.or(t.kind_override),
                ],
                [
                    frames(&mut t.translation.iter().map(|k| k.frame)),
                    frames(&mut t.rotation.iter().map(|k| k.frame)),
                    frames(&mut t.scale.iter().map(|k| k.frame)),
                ],
            )
        })
        .collect();
    let mut notes: Vec<(f64, String)> = anim.notes.iter().map(|n| (n.frame, n.name.clone())).collect();
    notes.sort_by(|a, b| a.0.total_cmp(&b.0));
    (tracks, notes)
}

/// SEAnim -> Cast -> SEAnim gives back the same bytes for every file: what Cast has no
/// place for (the delta type, f64 keys, bone flags, the custom block...) travels in `se.`
/// properties. An SEBlend trailer travels only as bytes that Cast readers skip, and says so.
/// Cast readers see the keys, modifiers and notes.
#[test]
fn seanim_to_cast_and_back_gives_the_same_bytes() {
    let mut files = se_corpus("seanim");
    files.push(testdata("sample.seanim"));
    files.push(testdata("sample_every_block.seanim"));
    for file in files {
        let dir = tempdir();
        let cast = dir.path().join("a.cast");
        let to_cast = convert(&file, &cast);
        let back = dir.path().join("back.seanim");
        let to_seanim = convert(&cast, &back);
        assert_eq!(to_seanim, "", "{}: Cast -> SEAnim loses nothing", name(&file));
        assert!(read(&back) == read(&file), "{}: SEAnim -> Cast -> SEAnim", name(&file));
        let anim = animbin_seanim::read(&read(&file)).unwrap();
        if anim.trailer.seblend().is_some() {
            assert!(
                to_cast.contains("SEBlend blend shapes as Cast blend shapes"),
                "{to_cast}"
            );
            assert_eq!(to_cast.lines().count(), 1, "{to_cast}");
        } else {
            assert_eq!(to_cast, "", "{}: SEAnim -> Cast loses nothing", name(&file));
        }
        let (se_tracks, se_notes) = keyed_tracks_and_notes(&scene_of(&file));
        let (cast_tracks, cast_notes) = keyed_tracks_and_notes(&scene_of(&cast));
        assert_eq!(cast_tracks, se_tracks, "{}: keys and modifiers", name(&file));
        assert_eq!(cast_notes, se_notes, "{}: notes", name(&file));
        let out = animbin(&["validate", s(&cast)]);
        assert_eq!(code(&out), 0, "{}: {}", name(&file), stdout(&out));
    }
}

/// SEModel -> Cast -> SEModel gives back the same bytes for every file, either layout: each
/// UV layer's material, flags and reserved bytes travel in `se.` properties. Cast readers
/// see the bones, meshes and materials as the SEModel's own scene has them.
#[test]
fn semodel_to_cast_and_back_gives_the_same_bytes() {
    let mut files = se_corpus("semodel");
    for fixture in [
        "sample.semodel",
        "skeleton.semodel",
        "sample_draft.semodel",
        "sample_blend.semodel",
    ] {
        files.push(testdata(fixture));
    }
    for file in files {
        let dir = tempdir();
        let cast = dir.path().join("a.cast");
        let lost = convert(&file, &cast);
        let back = dir.path().join("back.semodel");
        assert_eq!(convert(&cast, &back), "", "{}", name(&file));
        assert!(
            read(&back) == read(&file),
            "{}: SEModel -> Cast -> SEModel",
            name(&file)
        );
        let model = animbin_semodel::read(&read(&file)).unwrap();
        // SEBlend shapes are BlendShape nodes as well as se.trailer's bytes.
        assert_eq!(lost, "", "{}: SEModel -> Cast loses nothing", name(&file));
        let (se, from_cast) = (scene_of(&file), scene_of(&cast));
        // SEModel's bone scale is part of its rest pose; Cast's `s` is the bone's rest
        // scale, which is not (Bone::rest_scale): the same numbers, held in two places.
        assert_eq!(
            with_scales_as_rest_scales(&se.skeleton),
            with_scales_as_rest_scales(&from_cast.skeleton),
            "{}",
            name(&file)
        );
        // An empty map name names no file: Cast keeps no File for it.
        let named = |materials: &[animbin_core::scene::Material]| {
            let mut materials = materials.to_vec();
            for m in &mut materials {
                for map in [&mut m.diffuse_map, &mut m.normal_map, &mut m.specular_map] {
                    map.take_if(|p| p.is_empty());
                }
            }
            materials
        };
        // The draft layout defines no materials (its scene names placeholders for the
        // indices its vertices hold, which travel in se.uvMaterials): Cast has none.
        let draft = model.layout() == animbin_semodel::Layout::Draft;
        if draft {
            assert_eq!(from_cast.materials, [], "{}", name(&file));
        } else {
            assert_eq!(named(&se.materials), named(&from_cast.materials), "{}", name(&file));
        }
        assert_eq!(se.meshes.len(), from_cast.meshes.len(), "{}", name(&file));
        for (a, b) in se.meshes.iter().zip(&from_cast.meshes) {
            assert_eq!(
                (&a.positions, &a.normals, &a.uv_layers, &a.colors, &a.skin, &a.faces),
                (&b.positions, &b.normals, &b.uv_layers, &b.colors, &b.skin, &b.faces),
                "{}",
                name(&file)
            );
            // Cast has a BlendShape for each shape a mesh's vertices use; the SEModel scene
            // gives every mesh every shape.
            let moving = |m: &animbin_core::scene::Mesh| {
                m.morph_targets
                    .iter()
                    .filter(|t| !t.indices.is_empty())
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(moving(a), moving(b), "{}: blend shapes", name(&file));
            let first = |m: &animbin_core::scene::Mesh| m.materials.first().copied().flatten();
            if !draft {
                assert_eq!(first(a), first(b), "{}", name(&file));
            }
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
        convert(file, &glb);
        if name(file) == "ref_metadata_instances.cast" {
            // Metadata and instances only: the instances are nodes of the glTF, and come back.
            assert_eq!(scene_of(&glb).instances, scene_of(file).instances);
            assert_eq!(scene_of(&glb).instances.len(), 2);
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
