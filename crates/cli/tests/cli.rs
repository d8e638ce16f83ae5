//! Behaviour of the `animbin` command that does not belong to one format.

mod common;

use std::io::Read;
use std::process::Stdio;

use common::{animbin, assert_dump_rebuilds, code, command, s, stderr, stdout, tempdir, testdata, testdata_dir, write};

#[test]
fn no_command_is_a_usage_error() {
    let out = animbin(&[]);
    assert_eq!(code(&out), 2);
}

#[test]
fn unknown_format_name_is_a_usage_error() {
    let out = animbin(&["info", "--format", "nope", s(&testdata("sample.seanim"))]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("unknown format \"nope\""));
}

#[test]
fn unknown_output_extension_is_a_usage_error() {
    let dir = tempdir();
    let out = animbin(&["convert", s(&testdata("sample.seanim")), s(&dir.path().join("out.xyz"))]);
    assert_eq!(code(&out), 2);
}

#[test]
fn file_without_known_magic_is_bad_input_at_byte_0() {
    let dir = tempdir();
    let path = write(dir.path(), "mystery.bin", b"NOTAFORMAT");
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("at byte 0"));
}

#[test]
fn missing_file_is_bad_input() {
    let out = animbin(&["info", "/nonexistent/animbin/file.seanim"]);
    assert_eq!(code(&out), 1);
}

#[test]
fn closed_stdout_ends_quietly_without_a_panic() {
    let mut child = command()
        .args(["dump", s(&testdata("sample.semodel"))])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
}

#[test]
fn validate_reports_every_file_and_fails_when_one_is_bad() {
    let dir = tempdir();
    let bad = write(dir.path(), "bad.seanim", b"SEAnim\x01\x00");
    let out = animbin(&["validate", s(&testdata("sample.seanim")), s(&bad)]);
    assert_eq!(code(&out), 1);
    // A file that does not read is an error (stderr), named once on its line.
    let stderr = stderr(&out);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(stderr.matches("bad.seanim").count(), 1, "{stderr}");
    assert!(stderr.contains("seanim at byte 8"), "{stderr}");
    assert_eq!(stdout(&out), "", "a valid file reported");
}

#[test]
fn every_testdata_file_dumps_and_its_dump_converts_back_byte_for_byte() {
    let dir = tempdir();
    let mut checked = 0;
    for entry in std::fs::read_dir(testdata_dir()).expect("testdata/ exists") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        // The formats whose files the output name does not select.
        let (format, args): (&str, &[&str]) = match path.extension().and_then(|e| e.to_str()) {
            Some("bin") => ("sf3", &["--to", "sf3"]),
            Some("json") => ("dmf", &["--to", "dmf-json"]),
            Some("animj") => ("animx", &[]),
            Some(other) => (other, &[]),
            None => continue,
        };
        assert_dump_rebuilds(&path, format, dir.path(), &name, args);
        checked += 1;
    }
    assert!(checked >= 6, "{checked} files");
}

#[test]
fn an_unknown_output_format_lists_the_valid_names() {
    let dir = tempdir();
    let out = animbin(&[
        "convert",
        "--to",
        "obj",
        s(&testdata("sample.seanim")),
        s(&dir.path().join("o")),
    ]);
    assert_eq!(code(&out), 2);
    let text = stderr(&out);
    assert!(
        text.contains("unknown output format \"obj\"; valid names: seanim, semodel"),
        "{text}"
    );
    assert!(text.contains("glb") && text.contains("dmf-json"), "{text}");
    let out = animbin(&["convert", s(&testdata("sample.seanim")), s(&dir.path().join("out.obj"))]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("use --to with one of: seanim,"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_edited_dump_that_does_not_parse_names_the_json_path_and_line() {
    let dir = tempdir();
    let out = animbin(&["dump", s(&testdata("sample.seanim"))]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    // Make the first bone's name a number: a type error deep inside the data.
    let edited = text.replacen("\"name\": \"", "\"name\": 12, \"x\": \"", 1);
    let line = edited.lines().position(|l| l.contains("\"name\": 12")).unwrap() + 1;
    let path = write(dir.path(), "edited.json", edited.as_bytes());
    let out = animbin(&["convert", s(&path), s(&dir.path().join("out.seanim"))]);
    assert_eq!(code(&out), 1);
    let message = stderr(&out);
    assert!(message.contains("data.bones[0].name"), "{message}");
    assert!(message.contains(&format!("line {line}")), "{message}");
    assert!(!dir.path().join("out.seanim").exists());
}

#[test]
fn the_help_names_gltf_and_glb() {
    let out = animbin(&["--help"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("glTF/glb"), "{}", stdout(&out));
    let out = animbin(&["convert", "--help"]);
    assert!(stdout(&out).contains("gltf, glb"), "{}", stdout(&out));
}

#[test]
fn a_negative_scale_is_a_value_not_an_option() {
    let dir = tempdir();
    let output = dir.path().join("mirrored.glb");
    let out = animbin(&["convert", "--scale", "-1", s(&testdata("sample.semodel")), s(&output)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The mirror is in the data (a point reflection), recorded in the scene's extras; no
    // node is scaled.
    let (json, _) = animbin_gltf::split(&std::fs::read(&output).unwrap()).unwrap();
    assert!(
        json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|node| node.get("scale").is_none()),
        "{json}"
    );
    assert_eq!(json["scenes"][0]["extras"]["animbin"]["unit_scale"], -1.0, "{json}");
    let plain_output = dir.path().join("plain.glb");
    let out = animbin(&["convert", s(&testdata("sample.semodel")), s(&plain_output)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let (plain, _) = animbin_gltf::split(&std::fs::read(&plain_output).unwrap()).unwrap();
    let bound = |json: &serde_json::Value, which: &str| -> Vec<f64> {
        let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
            .as_u64()
            .unwrap() as usize;
        json["accessors"][position][which]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let negated: Vec<f64> = bound(&plain, "max").iter().map(|v| -v).collect();
    assert_eq!(bound(&json, "min"), negated);
}
