//! Behaviour of the `animbin` command that does not belong to one format.

use std::io::Read;
use std::process::{Command, Stdio};

fn animbin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_animbin"))
}

fn testdata(name: &str) -> String {
    format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_command_is_a_usage_error() {
    let out = animbin().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn unknown_format_name_is_a_usage_error() {
    let out = animbin()
        .args(["info", "--format", "nope", &testdata("sample.seanim")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown format \"nope\""));
}

#[test]
fn unknown_output_extension_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = animbin()
        .arg("convert")
        .arg(testdata("sample.seanim"))
        .arg(dir.path().join("out.xyz"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn file_without_known_magic_is_bad_input_at_byte_0() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mystery.bin");
    std::fs::write(&path, b"NOTAFORMAT").unwrap();
    let out = animbin().arg("info").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at byte 0"));
}

#[test]
fn missing_file_is_bad_input() {
    let out = animbin()
        .args(["info", "/nonexistent/animbin/file.seanim"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn closed_stdout_ends_quietly_without_a_panic() {
    let mut child = animbin()
        .args(["dump", &testdata("sample.semodel")])
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
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.seanim");
    std::fs::write(&bad, b"SEAnim\x01\x00").unwrap();
    let out = animbin()
        .arg("validate")
        .arg(testdata("sample.seanim"))
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("bad.seanim"), "{stdout}");
    assert!(!stdout.contains("sample.seanim"), "a valid file reported: {stdout}");
}
