//! `animbin` with glTF: every fixture exported to `.gltf` and `.glb` and checked by the
//! Khronos validator (when node and `gltf-validator` are installed), glTF -> format -> glTF
//! keeping keys and weights, `--anim`, `--strict`, `--z-up`, info, dump and exit codes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::SceneOptions;
use animbin_testing::gltf::{animation_names, error_lines, khronos_validate, provide_external_images, strip_extras};
use serde_json::Value;

use common::{
    animbin, assert_converts_to_itself, assert_dump_rebuilds, code, fixture, info_json, read, s, stderr, tempdir,
    testdata, testdata_dir, write,
};

/// Every fixture in `testdata/` (written by each format's own writer).
fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(testdata_dir())
        .expect("testdata/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// `testdata/sample.dmf` (a skinned, animated model) converted to `dir/a.glb`.
fn sample_glb(dir: &Path) -> PathBuf {
    let glb = dir.join("a.glb");
    let out = animbin(&["convert", s(&testdata("sample.dmf")), s(&glb)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    glb
}

fn scene_of(path: &Path) -> Scene {
    animbin_gltf::to_scene(&read(path), &SceneOptions::default(), &mut ConversionReport::default()).unwrap()
}

#[test]
fn every_fixture_exports_to_gltf_and_glb_with_no_validator_errors() {
    let dir = tempdir();
    let mut outputs = Vec::new();
    for fixture in fixtures() {
        let name = fixture.file_name().unwrap().to_str().unwrap().to_string();
        for ext in ["gltf", "glb"] {
            let out = dir.path().join(format!("{name}.{ext}"));
            let run = animbin(&["convert", s(&fixture), s(&out)]);
            assert_eq!(code(&run), 0, "{name} -> {ext}: {}", stderr(&run));
            // The glTF reads back.
            scene_of(&out);
            provide_external_images(&out);
            outputs.push(out);
        }
    }
    assert!(outputs.len() >= 2, "testdata/ has fixtures");
    let Some(reports) = khronos_validate(&outputs) else {
        return;
    };
    for report in reports {
        assert_eq!(report.errors, 0, "{}:\n{}", report.file, error_lines(&report));
    }
}

/// The output formats animbin can write from a scene, by `--to` name.
const TARGETS: [&str; 5] = ["seanim", "semodel", "animx", "sf3", "dmf"];

/// Converts with `--to`, or `None` when this build of animbin has no such format yet.
fn convert_to(input: &Path, output: &Path, to: &str, extra: &[&str]) -> Output {
    let mut args = vec!["convert", "--to", to];
    args.extend_from_slice(extra);
    args.extend([s(input), s(output)]);
    animbin(&args)
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * a.abs().max(b.abs()).max(1.0)
}

/// Keys at the same times (seconds) with the same values. Tracks are matched by name,
/// or by position when `by_position` (SF3 has no bone names).
fn assert_same_keys(a: &Scene, b: &Scene, tolerance: f64, by_position: bool, what: &str) {
    assert_eq!(a.animations.len(), b.animations.len(), "{what}: animations");
    for (x, y) in a.animations.iter().zip(&b.animations) {
        let keyed = |s: &animbin_core::scene::Animation| {
            s.bones
                .iter()
                .filter(|t| !t.translation.is_empty() || !t.rotation.is_empty() || !t.scale.is_empty())
                .cloned()
                .collect::<Vec<_>>()
        };
        let (tx, ty) = (keyed(x), keyed(y));
        assert_eq!(tx.len(), ty.len(), "{what}: keyed tracks of {:?}", x.name);
        for (i, ta) in tx.iter().enumerate() {
            let tb = if by_position {
                &ty[i]
            } else {
                ty.iter().find(|t| t.bone == ta.bone).expect("the bone's track")
            };
            let secs = |f: f64, anim: &animbin_core::scene::Animation| f / anim.framerate;
            assert_eq!(
                ta.translation.len(),
                tb.translation.len(),
                "{what}: {} translation keys",
                ta.bone
            );
            for (ka, kb) in ta.translation.iter().zip(&tb.translation) {
                assert!(
                    close(secs(ka.frame, x), secs(kb.frame, y), 1e-5),
                    "{what}: {} time",
                    ta.bone
                );
                let (va, vb) = (ka.value, kb.value);
                assert!(
                    close(va.x, vb.x, tolerance) && close(va.y, vb.y, tolerance) && close(va.z, vb.z, tolerance),
                    "{what}: {} translation {va:?} != {vb:?}",
                    ta.bone
                );
            }
            assert_eq!(
                ta.rotation.len(),
                tb.rotation.len(),
                "{what}: {} rotation keys",
                ta.bone
            );
            for (ka, kb) in ta.rotation.iter().zip(&tb.rotation) {
                assert!(
                    close(secs(ka.frame, x), secs(kb.frame, y), 1e-5),
                    "{what}: {} time",
                    ta.bone
                );
                let (qa, qb) = (ka.value, kb.value);
                let sign = if qa.x * qb.x + qa.y * qb.y + qa.z * qb.z + qa.w * qb.w < 0.0 {
                    -1.0
                } else {
                    1.0
                };
                assert!(
                    close(qa.x, sign * qb.x, tolerance)
                        && close(qa.y, sign * qb.y, tolerance)
                        && close(qa.z, sign * qb.z, tolerance)
                        && close(qa.w, sign * qb.w, tolerance),
                    "{what}: {} rotation {qa:?} != {qb:?}",
                    ta.bone
                );
            }
            assert_eq!(ta.scale.len(), tb.scale.len(), "{what}: {} scale keys", ta.bone);
            for (ka, kb) in ta.scale.iter().zip(&tb.scale) {
                let (va, vb) = (ka.value, kb.value);
                assert!(
                    close(va.x, vb.x, tolerance) && close(va.y, vb.y, tolerance) && close(va.z, vb.z, tolerance),
                    "{what}: {} scale {va:?} != {vb:?}",
                    ta.bone
                );
            }
        }
    }
}

fn assert_same_weights(a: &Scene, b: &Scene, what: &str) {
    assert_eq!(a.meshes.len(), b.meshes.len(), "{what}: meshes");
    for (x, y) in a.meshes.iter().zip(&b.meshes) {
        assert_eq!(x.positions, y.positions, "{what}: positions");
        assert_eq!(x.faces, y.faces, "{what}: faces");
        let (sx, sy) = (x.skin.as_ref(), y.skin.as_ref());
        assert_eq!(sx.is_some(), sy.is_some(), "{what}: skinned");
        let (Some(sx), Some(sy)) = (sx, sy) else { continue };
        // Compare per vertex as (bone name, weight) sets: a format may reorder slots.
        let per_vertex = |scene: &Scene, s: &animbin_core::scene::SkinWeights, v: usize| {
            let mut w: Vec<(String, i64)> = (0..s.influences)
                .map(|k| (s.bones[v * s.influences + k], s.weights[v * s.influences + k]))
                .filter(|(_, w)| *w > 0.0)
                .map(|(b, w)| {
                    (
                        scene.skeleton.bones[b as usize].name.clone(),
                        (f64::from(w) * 1e5).round() as i64,
                    )
                })
                .collect();
            w.sort();
            w
        };
        for v in 0..x.positions.len() {
            assert_eq!(
                per_vertex(a, sx, v),
                per_vertex(b, sy, v),
                "{what}: weights of vertex {v}"
            );
        }
    }
}

#[test]
fn gltf_to_each_format_and_back_keeps_keys_and_weights() {
    let dir = tempdir();
    // A model with an animation (DMF), and an animation alone (AnimX), as glTF.
    let model = dir.path().join("model.glb");
    assert_eq!(code(&animbin(&["convert", s(&testdata("sample.dmf")), s(&model)])), 0);
    let anim = dir.path().join("anim.glb");
    assert_eq!(code(&animbin(&["convert", s(&testdata("sample.animx")), s(&anim)])), 0);
    let mut checked = 0;
    for to in TARGETS {
        // The DMF sample has keys between frames (0.25 s at 30 fps), which SEAnim and SF3
        // round (and report): they get the AnimX sample only, whose keys are on whole frames.
        let sources: &[&PathBuf] = match to {
            "semodel" => &[&model],
            "seanim" | "sf3" => &[&anim],
            _ => &[&model, &anim],
        };
        for &source in sources {
            let stem = source.file_stem().unwrap().to_str().unwrap();
            let middle = dir
                .path()
                .join(format!("{stem}-{to}.{}", if to == "sf3" { "bin" } else { to }));
            // SF3 stores no framerate: say the source's both ways.
            let rate = scene_of(source)
                .animations
                .first()
                .map_or(30.0, |a| a.framerate)
                .to_string();
            let out = convert_to(source, &middle, to, &["--framerate", &rate]);
            assert_eq!(code(&out), 0, "{stem}.glb -> {to}: {}", stderr(&out));
            let back = dir.path().join(format!("{stem}-{to}-back.glb"));
            let out = animbin(&["convert", "--format", to, "--framerate", &rate, s(&middle), s(&back)]);
            assert_eq!(code(&out), 0, "{to} -> glb: {}", stderr(&out));
            let (a, b) = (scene_of(source), scene_of(&back));
            let what = format!("{stem}.glb -> {to} -> glb");
            if to == "semodel" {
                assert_same_weights(&a, &b, &what);
            } else {
                // SF3 stores rotations as i16 / 16384 and lengths as 16.16 fixed point.
                let tolerance = if to == "sf3" { 2e-4 } else { 1e-5 };
                assert_same_keys(&a, &b, tolerance, to == "sf3", &what);
                if to == "dmf" && source == &model {
                    assert_same_weights(&a, &b, &what);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "at least animx, sf3 and dmf are built in");
}

#[test]
fn anim_files_join_the_model_and_unmatched_bones_are_reported() {
    let dir = tempdir();
    let out = dir.path().join("both.glb");
    let model = testdata("sample.dmf");
    let anim = testdata("sample.animx");
    let run = animbin(&["convert", s(&model), s(&out), "--anim", s(&anim), "--anim", s(&anim)]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let scene = scene_of(&out);
    let dmf_animations = { info_json(&model)["animation_count"].as_u64().unwrap() as usize };
    assert_eq!(scene.animations.len(), dmf_animations + 2);
    // The AnimX sample animates nodes that the DMF model does not have: said on stderr.
    assert!(
        stderr(&run).contains("name bones the input does not have"),
        "{}",
        stderr(&run)
    );
    let strict = animbin(&["convert", "--strict", s(&model), s(&out), "--anim", s(&anim)]);
    assert_eq!(code(&strict), 1);
    assert!(stderr(&strict).contains("--strict"), "{}", stderr(&strict));
    // A missing --anim file is bad input.
    let missing = animbin(&["convert", s(&model), s(&out), "--anim", "/nonexistent.seanim"]);
    assert_eq!(code(&missing), 1);
}

#[test]
fn strict_turns_loss_lines_into_an_error() {
    let dir = tempdir();
    let out = dir.path().join("x.glb");
    let sf3 = testdata("x8an00.bin");
    let lossy = animbin(&["convert", s(&sf3), s(&out)]);
    assert_eq!(code(&lossy), 0);
    assert!(stderr(&lossy).contains("gltf cannot hold"), "{}", stderr(&lossy));
    let strict = animbin(&["convert", "--strict", s(&sf3), s(&out)]);
    assert_eq!(code(&strict), 1, "{}", stderr(&strict));
}

#[test]
fn gltf_and_glb_convert_into_each_other_byte_for_byte_and_dump_rebuilds_them() {
    let dir = tempdir();
    let glb = sample_glb(dir.path());
    let gltf = dir.path().join("a.gltf");
    assert_eq!(code(&animbin(&["convert", s(&glb), s(&gltf)])), 0);
    let glb2 = dir.path().join("b.glb");
    assert_eq!(code(&animbin(&["convert", s(&gltf), s(&glb2)])), 0);
    assert_eq!(read(&glb), read(&glb2));
    // An unchanged document writes its own bytes back.
    assert_converts_to_itself(&glb, dir.path(), "same.glb", &[]);
    for original in [&glb, &gltf] {
        let dump = dir.path().join("dump.json");
        assert_eq!(code(&animbin(&["convert", s(original), s(&dump)])), 0);
        let rebuilt = dir
            .path()
            .join(format!("rebuilt.{}", original.extension().unwrap().to_str().unwrap()));
        let run = animbin(&["convert", s(&dump), s(&rebuilt)]);
        assert_eq!(code(&run), 0, "{}", stderr(&run));
        assert_eq!(read(original), read(&rebuilt));
    }
}

#[test]
fn a_dump_keeps_json_text_laid_out_by_other_tools() {
    let dir = tempdir();
    let gltf = dir.path().join("a.gltf");
    assert_eq!(code(&animbin(&["convert", s(&sample_glb(dir.path())), s(&gltf)])), 0);
    // The compact form that animbin writes dumps as a JSON value.
    let dump = assert_dump_rebuilds(&gltf, "gltf", dir.path(), "compact.gltf", &[]);
    assert!(dump["data"]["json"].is_object(), "{dump}");
    // The same document pretty-printed, as other tools write glTF, keeps its text exactly,
    // in both containers.
    let value: Value = serde_json::from_slice(&read(&gltf)).unwrap();
    let pretty_json = serde_json::to_vec_pretty(&value).unwrap();
    let pretty = write(dir.path(), "pretty.gltf", &pretty_json);
    let dump = assert_dump_rebuilds(&pretty, "gltf", dir.path(), "pretty-again.gltf", &[]);
    assert_eq!(
        dump["data"]["json_text"].as_str().map(str::as_bytes),
        Some(&pretty_json[..])
    );
    let pretty_glb = write(
        dir.path(),
        "pretty.glb",
        &animbin_gltf::Glb::to_vec(&pretty_json, None).unwrap(),
    );
    let dump = assert_dump_rebuilds(&pretty_glb, "gltf", dir.path(), "pretty-again.glb", &[]);
    assert!(dump["data"]["json_text"].is_string(), "{dump}");
}

#[test]
fn info_json_names_the_counts() {
    let dir = tempdir();
    let glb = sample_glb(dir.path());
    let info = info_json(&glb);
    assert_eq!(info["format"], "gltf");
    assert_eq!(info["container"], "glb");
    assert_eq!(info["version"], "2.0");
    for key in [
        "node_count",
        "mesh_count",
        "skin_count",
        "joint_count",
        "animation_count",
        "channel_count",
        "material_count",
        "image_count",
    ] {
        assert!(info[key].is_u64(), "{key}: {info}");
    }
    assert_eq!(info["skin_count"], 1);
    assert_eq!(info["mesh_count"], 1);
    assert_eq!(code(&animbin(&["validate", s(&glb)])), 0);
}

#[test]
fn bad_gltf_is_exit_1_with_the_place() {
    let dir = tempdir();
    let glb = sample_glb(dir.path());
    let mut bytes = read(&glb);
    bytes[8..12].copy_from_slice(&3u32.to_le_bytes());
    let bad = write(dir.path(), "bad.glb", &bytes);
    let run = animbin(&["info", s(&bad)]);
    assert_eq!(code(&run), 1);
    assert!(stderr(&run).contains("glb at byte 8"), "{}", stderr(&run));

    let json = write(
        dir.path(),
        "bad.gltf",
        br#"{"asset": {"version": "2.0"}, "skins": [{"joints": []}]}"#,
    );
    let run = animbin(&["convert", s(&json), s(&dir.path().join("out.dmf"))]);
    assert_eq!(code(&run), 1);
    assert!(stderr(&run).contains("/skins/0/joints"), "{}", stderr(&run));

    let out = dir.path().join("out.dmf");
    // A scale of 0 is a usage error (exit 2) naming the option, not the input's fault.
    let run = animbin(&["convert", s(&glb), s(&out), "--scale", "0"]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(stderr(&run).contains("--scale"), "{}", stderr(&run));
}

#[test]
fn z_up_goes_on_a_root_node_and_comes_back_off() {
    let dir = tempdir();
    let plain = dir.path().join("plain.glb");
    let z_up = dir.path().join("z.glb");
    let dmf = testdata("sample.dmf");
    assert_eq!(code(&animbin(&["convert", s(&dmf), s(&plain)])), 0);
    // A power of two scales f32 values exactly.
    assert_eq!(
        code(&animbin(&["convert", "--z-up", "--scale", "0.5", s(&dmf), s(&z_up)])),
        0
    );
    let (json, _) = animbin_gltf::split(&read(&z_up)).unwrap();
    let root = json["scenes"][0]["nodes"][0].as_u64().unwrap() as usize;
    assert_eq!(json["nodes"][root]["name"], "animbin_root");
    assert!(json["nodes"][root]["rotation"].is_array(), "{json}");
    // The scale is in the data, not on the root node.
    assert_eq!(json["nodes"][root].get("scale"), None, "{json}");
    assert_eq!(json["scenes"][0]["extras"]["animbin"]["unit_scale"], 0.5);
    // Read back, the scene is the same as without the options.
    let (a, b) = (scene_of(&plain), scene_of(&z_up));
    assert_eq!(a, b);
}

#[test]
fn scale_multiplies_the_data_and_reads_back_within_f32_rounding() {
    let dir = tempdir();
    let plain = dir.path().join("plain.glb");
    let metres = dir.path().join("m.glb");
    let dmf = testdata("sample.dmf");
    assert_eq!(code(&animbin(&["convert", s(&dmf), s(&plain)])), 0);
    let run = animbin(&["convert", "--scale", "0.01", s(&dmf), s(&metres)]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let (json, _) = animbin_gltf::split(&read(&metres)).unwrap();
    let (plain_json, _) = animbin_gltf::split(&read(&plain)).unwrap();
    // No node scales: the positions themselves are a hundredth.
    assert!(
        json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n.get("scale").is_none()),
        "{json}"
    );
    let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    for (m, cm) in json["accessors"][position]["max"]
        .as_array()
        .unwrap()
        .iter()
        .zip(plain_json["accessors"][position]["max"].as_array().unwrap())
    {
        assert!(
            close(m.as_f64().unwrap(), cm.as_f64().unwrap() / 100.0, 1e-6),
            "{m} {cm}"
        );
    }
    // Read back with no options, the lengths are divided by the recorded 0.01 again.
    let (a, b) = (scene_of(&plain), scene_of(&metres));
    assert_eq!(a.meshes.len(), b.meshes.len());
    for (ma, mb) in a.meshes.iter().zip(&b.meshes) {
        for (pa, pb) in ma.positions.iter().zip(&mb.positions) {
            for (x, y) in [(pa.x, pb.x), (pa.y, pb.y), (pa.z, pb.z)] {
                assert!(close(f64::from(x), f64::from(y), 1e-6), "{pa:?} {pb:?}");
            }
        }
    }
    assert_same_keys(&a, &b, 1e-6, false, "--scale 0.01 and back");
}

#[test]
fn a_gltf_with_nothing_in_it_is_refused_unless_asked_for() {
    let dir = tempdir();
    let out = dir.path().join("empty.glb");
    // x8an02.bin: two segments, one slot, no keys.
    let empty = fixture("x8an02.bin");
    let run = animbin(&["convert", s(&empty), s(&out)]);
    assert_eq!(code(&run), 1, "{}", stderr(&run));
    assert!(stderr(&run).contains("no node and no animation"), "{}", stderr(&run));
    assert!(stderr(&run).contains("--allow-empty"), "{}", stderr(&run));
    assert!(!out.exists());
    let run = animbin(&["convert", "--allow-empty", s(&empty), s(&out)]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let (json, _) = animbin_gltf::split(&read(&out)).unwrap();
    assert_eq!(json.get("nodes"), None, "{json}");
    assert_eq!(json.get("animations"), None, "{json}");
}

/// `model.glb` in `dir`: sample.semodel with walk.seanim and run.seanim (copies of the
/// samples) joined.
fn walk_and_run(dir: &Path) -> PathBuf {
    let walk = dir.join("walk.seanim");
    let run = dir.join("run.seanim");
    std::fs::copy(testdata("sample.seanim"), &walk).unwrap();
    std::fs::copy(testdata("sample_every_block.seanim"), &run).unwrap();
    let glb = dir.join("model.glb");
    let out = animbin(&[
        "convert",
        s(&testdata("sample.semodel")),
        s(&glb),
        "--anim",
        s(&walk),
        "--anim",
        s(&run),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    glb
}

#[test]
fn anim_files_become_actions_named_after_them_and_split_writes_one_file_each() {
    let dir = tempdir();
    let glb = walk_and_run(dir.path());
    let (json, _) = animbin_gltf::split(&read(&glb)).unwrap();
    assert_eq!(animation_names(&json), ["walk", "run"]);

    // One of them by name; a name the file lacks is bad input that lists the names.
    let one = dir.path().join("one.seanim");
    let out = animbin(&["convert", "--animation", "run", s(&glb), s(&one)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        info_json(&one)["framerate"],
        info_json(&testdata("sample_every_block.seanim"))["framerate"]
    );
    let out = animbin(&["convert", "--animation", "jump", s(&glb), s(&one)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("\"walk\", \"run\""), "{}", stderr(&out));

    // Each into a folder, named after it.
    let folder = dir.path().join("split");
    let out = animbin(&["convert", "--split", "--to", "seanim", s(&glb), s(&folder)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for (name, original) in [("walk", "sample.seanim"), ("run", "sample_every_block.seanim")] {
        let file = folder.join(format!("{name}.seanim"));
        let (a, b) = (info_json(&file), info_json(&testdata(original)));
        for key in [
            "anim_type",
            "bone_count",
            "frame_count",
            "framerate",
            "looped",
            "note_count",
        ] {
            assert_eq!(a[key], b[key], "{name}: {key}");
        }
    }
    // --split needs --to (a folder has no extension).
    let out = animbin(&["convert", "--split", s(&glb), s(&folder)]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

/// Names that clean to the same file name (`a/b`, `a:b`, `a_b`, `..`, `" "`), a name in
/// another case and one longer than a file name can be each get a file of their own, and
/// none is written over another.
#[test]
fn split_gives_every_animation_a_file_of_its_own_whatever_its_name() {
    let dir = tempdir();
    let gltf = dir.path().join("model.gltf");
    let out = animbin(&["convert", s(&testdata("sample.seanim")), s(&gltf)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut json: Value = serde_json::from_slice(&read(&gltf)).unwrap();
    let long = "n".repeat(300);
    let names = ["a/b", "a:b", "a_b", "A_B", "..", " ", long.as_str(), "animation"];
    let first = json["animations"][0].clone();
    json["animations"] = names
        .iter()
        .map(|name| {
            let mut animation = first.clone();
            animation["name"] = Value::from(*name);
            animation
        })
        .collect();
    let many = write(dir.path(), "many.gltf", &serde_json::to_vec(&json).unwrap());
    let folder = dir.path().join("split");
    let out = animbin(&["convert", "--split", "--to", "seanim", s(&many), s(&folder)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files.len(), names.len(), "{files:?}");
    let cut = format!("{}.seanim", "n".repeat(animbin::MAX_FILE_NAME - ".seanim".len()));
    for name in [
        "a_b.seanim",
        "a_b_2.seanim",
        "a_b_3.seanim",
        "A_B_4.seanim",
        "animation.seanim",
    ] {
        assert!(files.iter().any(|f| f == name), "{name} not in {files:?}");
    }
    assert!(files.contains(&cut), "{files:?}");
    for file in &files {
        assert_eq!(
            info_json(&folder.join(file))["bone_count"],
            info_json(&testdata("sample.seanim"))["bone_count"]
        );
    }
}

#[test]
fn a_gltf_without_extras_takes_the_seanim_header_from_the_flags() {
    let dir = tempdir();
    let gltf = dir.path().join("a.gltf");
    assert_eq!(code(&animbin(&["convert", s(&testdata("sample.seanim")), s(&gltf)])), 0);
    // Blender's export keeps no extras.
    let mut json: Value = serde_json::from_slice(&read(&gltf)).unwrap();
    strip_extras(&mut json);
    let foreign = write(dir.path(), "blender.gltf", &serde_json::to_vec(&json).unwrap());
    let out = dir.path().join("out.seanim");
    let run = animbin(&[
        "convert",
        "--anim-type",
        "delta",
        "--looped",
        "--precision",
        "double",
        "--framerate",
        "60",
        s(&foreign),
        s(&out),
    ]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let info = info_json(&out);
    assert_eq!(info["anim_type"], "delta");
    assert_eq!(info["looped"], true);
    assert_eq!(info["high_precision"], true);
    assert_eq!(info["framerate"], 60.0);
    // Without the flags: absolute, not looped, single, and the frame grid's own rate.
    let run = animbin(&["convert", s(&foreign), s(&out)]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let info = info_json(&out);
    assert_eq!(info["anim_type"], "absolute");
    assert_eq!(info["looped"], false);
    assert_eq!(info["high_precision"], false);
    assert_eq!(info["framerate"], 30.0);
    let bad = animbin(&["convert", "--anim-type", "sideways", s(&foreign), s(&out)]);
    assert_eq!(code(&bad), 2);
}

mod any_to_any {
    //! A -> B -> A through the command line for every pair of animation formats (SEAnim,
    //! AnimX, SF3, DMF) and SEModel <-> DMF for models: the A files before and after the trip
    //! hold keys at the same times with the same values (floats to 1e-5 relative; SF3's fixed
    //! point to 2e-4), and weights on the same bones.

    use super::*;
    use animbin_core::math::{Quat, Transform, Vec2, Vec3};
    use animbin_core::scene::{Animation, Bone, BoneTrack, Key, Mesh, Skeleton, SkinWeights};
    use animbin_gltf::SceneOptions;
    use proptest::prelude::*;

    const ANIMATION_FORMATS: [&str; 4] = ["seanim", "animx", "sf3", "dmf"];

    fn file_name(stem: &str, format: &str) -> String {
        match format {
            "sf3" => format!("x8an{stem}.bin"),
            other => format!("{stem}.{other}"),
        }
    }

    /// `convert` between files, or `None` when this build lacks one of the formats.
    fn run(input: &Path, output: &Path, to: &str) -> Option<Output> {
        let out = animbin(&["convert", "--to", to, "--framerate", "30", s(input), s(output)]);
        if code(&out) == 2 && stderr(&out).contains("unknown output format") {
            return None;
        }
        assert_eq!(code(&out), 0, "{} -> {to}: {}", input.display(), stderr(&out));
        Some(out)
    }

    fn scene_via_glb(path: &Path, dir: &Path) -> Scene {
        let glb = dir.join(format!("{}.glb", path.file_name().unwrap().to_str().unwrap()));
        let out = animbin(&["convert", "--framerate", "30", s(path), s(&glb)]);
        assert_eq!(code(&out), 0, "{}: {}", path.display(), stderr(&out));
        scene_of(&glb)
    }

    /// A -> B -> A for one scene; `None` when a format is missing from this build.
    fn trip(scene: &Scene, a: &str, b: &str, dir: &Path) -> Option<(Scene, Scene, String)> {
        let bytes =
            animbin_gltf::from_scene(scene, &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
        let source = write(dir, "source.glb", &bytes);
        let first = dir.join(file_name("00", a));
        run(&source, &first, a)?;
        let middle = dir.join(file_name("01", b));
        let losses = stderr(&run(&first, &middle, b)?);
        let again = dir.join(file_name("02", a));
        run(&middle, &again, a)?;
        Some((scene_via_glb(&first, dir), scene_via_glb(&again, dir), losses))
    }

    fn arb_animation(bones: usize) -> impl Strategy<Value = Animation> {
        let key_frames = proptest::collection::btree_set(0u32..60, 1..5);
        let track = (
            key_frames.clone(),
            proptest::collection::vec((-100i32..100, -100i32..100, -100i32..100), 5),
            key_frames,
            proptest::collection::vec((-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, 0.2..1.0f64), 5),
        )
            .prop_map(|(tf, tv, rf, rv)| {
                (
                    tf.into_iter()
                        .zip(tv)
                        .map(|(f, (x, y, z))| {
                            // Multiples of 1/64: exact in f32 and in SF3's 16.16 fixed point.
                            Key::new(
                                f64::from(f),
                                Vec3::new(f64::from(x) / 64.0, f64::from(y) / 64.0, f64::from(z) / 64.0),
                            )
                        })
                        .collect::<Vec<_>>(),
                    rf.into_iter()
                        .zip(rv)
                        .map(|(f, (x, y, z, w))| Key::new(f64::from(f), Quat::new(x, y, z, w).normalized()))
                        .collect::<Vec<_>>(),
                )
            });
        proptest::collection::vec(track, bones).prop_map(|tracks| Animation {
            name: "trip".into(),
            framerate: 30.0,
            frame_count: 60.0,
            bones: tracks
                .into_iter()
                .enumerate()
                .map(|(i, (translation, rotation))| BoneTrack {
                    bone: format!("bone{i}"),
                    translation: translation.into(),
                    rotation: rotation.into(),
                    ..BoneTrack::default()
                })
                .collect(),
            ..Animation::default()
        })
    }

    fn skeleton(n: usize) -> Skeleton {
        let mut skeleton = Skeleton {
            bones: (0..n)
                .map(|i| Bone {
                    kind: Default::default(),
                    scale_compensate: false,
                    rest_scale: Vec3::ONE,
                    name: format!("bone{i}"),
                    parent: i.checked_sub(1),
                    local: Transform {
                        translation: Vec3::new(0.0, 0.0, 8.0),
                        ..Transform::IDENTITY
                    },
                    global: Transform::IDENTITY,
                    cosmetic: false,
                })
                .collect(),
            ..Default::default()
        };
        skeleton.update_globals();
        skeleton
    }

    fn arb_model() -> impl Strategy<Value = Scene> {
        proptest::collection::vec(((-50i32..50, -50i32..50, -50i32..50), (0u32..3, 1u32..64)), 3..12).prop_map(
            |vertices| {
                let n = vertices.len();
                let positions = vertices
                    .iter()
                    .map(|((x, y, z), _)| Vec3::new(*x as f32 / 4.0, *y as f32 / 4.0, *z as f32 / 4.0))
                    .collect();
                // Two influences: a bone and the next with weights w/64 and 1 - w/64.
                let mut bones = Vec::new();
                let mut weights = Vec::new();
                for (_, (b, w)) in &vertices {
                    bones.extend([*b, b + 1]);
                    weights.extend([*w as f32 / 64.0, 1.0 - *w as f32 / 64.0]);
                }
                Scene {
                    skeleton: skeleton(4),
                    meshes: vec![Mesh {
                        name: "mesh".into(),
                        positions,
                        normals: vec![Vec3::new(0.0, 0.0, 1.0); n],
                        uv_layers: vec![vec![Vec2::new(0.25, 0.5); n]],
                        skin: Some(SkinWeights {
                            skin: None,
                            influences: 2,
                            bones,
                            weights,
                            blend: Default::default(),
                        }),
                        faces: (0..n as u32 - 2).map(|i| [0, i + 1, i + 2]).collect(),
                        ..Mesh::default()
                    }],
                    ..Scene::default()
                }
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(6))]

        #[test]
        fn animations_survive_a_trip_through_every_other_format(anim in arb_animation(3)) {
            let dir = tempdir();
            let scene = Scene { skeleton: skeleton(3), animations: vec![anim], ..Scene::default() };
            let mut checked = 0;
            for a in ANIMATION_FORMATS {
                for b in ANIMATION_FORMATS {
                    if a == b {
                        continue;
                    }
                    let Some((first, again, _)) = trip(&scene, a, b, dir.path()) else { continue };
                    let sf3 = a == "sf3" || b == "sf3";
                    assert_same_keys(&first, &again, if sf3 { 2e-4 } else { 1e-5 }, sf3, &format!("{a} -> {b} -> {a}"));
                    prop_assert!(!first.animations.is_empty());
                    checked += 1;
                }
            }
            // AnimX, SF3 and DMF are always built in: six ordered pairs at least.
            prop_assert!(checked >= 6, "{checked} pairs");
        }

        #[test]
        fn models_survive_semodel_to_dmf_and_back(model in arb_model()) {
            let dir = tempdir();
            for (a, b) in [("semodel", "dmf"), ("dmf", "semodel")] {
                let Some((first, again, _)) = trip(&model, a, b, dir.path()) else { continue };
                assert_same_weights(&first, &again, &format!("{a} -> {b} -> {a}"));
                prop_assert_eq!(&first.meshes[0].uv_layers, &again.meshes[0].uv_layers);
                prop_assert_eq!(&first.meshes[0].normals, &again.meshes[0].normals);
                prop_assert_eq!(first.skeleton.bones.len(), again.skeleton.bones.len());
            }
        }
    }
}

/// An option that says how the side of a conversion that is not glTF relates to glTF (or gives
/// a frame rate that writing takes back) does nothing when both sides are one format: it is
/// refused by name (exit 2) and nothing is written, rather than a copy made in silence.
#[test]
fn same_format_options_that_cannot_apply_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let glb = sample_glb(dir.path());
    let (semodel, animx) = (testdata("sample.semodel"), testdata("sample.animx"));
    let cases: [(&Path, &str, &[&str], &str); 3] = [
        (&glb, "again.glb", &["--scale", "2"], "--scale"),
        (&semodel, "again.semodel", &["--z-up"], "--z-up"),
        (&animx, "again.animx", &["--framerate", "24"], "--framerate"),
    ];
    for (input, name, extra, flag) in cases {
        let output = dir.path().join(name);
        let mut args = vec!["convert"];
        args.extend_from_slice(extra);
        args.extend([s(input), s(&output)]);
        let out = animbin(&args);
        let stderr = stderr(&out);
        assert_eq!(code(&out), 2, "{name}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains("would change nothing"),
            "{stderr}"
        );
        assert!(!output.exists(), "{name} was written");
    }
}
