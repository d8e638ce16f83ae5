//! What every command-line test needs: running `animbin`, reading what it printed, the
//! `testdata/` fixtures, scratch files, and the dump and same-format round trips.
// Each test file is a crate of its own and uses only some of these.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tempfile::TempDir;

/// The `animbin` binary of this build, not yet started.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_animbin"))
}

/// Runs `animbin ARGS...` to the end.
pub fn animbin(args: &[&str]) -> Output {
    command().args(args).output().expect("the binary runs")
}

/// The exit code; a run ended by a signal fails the test.
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("an exit code, not a signal")
}

/// What the run printed on stdout.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the run printed on stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The repository's `testdata/` folder: a few files written by each format's own writer.
pub fn testdata_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The file `name` in `testdata/`.
pub fn testdata(name: &str) -> PathBuf {
    testdata_dir().join(name)
}

/// The file `name` in `tests/fixtures/`: files the tests need that are no sample (such as
/// an x8an file that holds nothing to convert), written by `cargo xtask corpus` too.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

/// A new temporary folder, removed with everything in it when dropped.
pub fn tempdir() -> TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// Writes `bytes` to `dir/name` and gives its path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("the file is written");
    path
}

/// The bytes of a file that must exist.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `info --json FILE`, which must succeed, as JSON.
pub fn info_json(path: &Path) -> Value {
    let out = animbin(&["info", "--json", s(path)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("info --json prints JSON")
}

/// `dump INPUT` names `format`, `convert INPUT dir/again.json` writes the same dump, and
/// `convert [ARGS...] DUMP dir/REBUILT` gives back INPUT's bytes (all must succeed). Returns
/// the dump.
pub fn assert_dump_rebuilds(input: &Path, format: &str, dir: &Path, rebuilt: &str, args: &[&str]) -> Value {
    let original = read(input);
    let out = animbin(&["dump", s(input)]);
    assert_eq!(code(&out), 0, "{}: {}", input.display(), stderr(&out));
    let dump: Value = serde_json::from_slice(&out.stdout).expect("dump prints JSON");
    assert_eq!(dump["format"], format, "{}", input.display());
    let dump_path = write(dir, "dump.json", &out.stdout);
    let rebuilt = dir.join(rebuilt);
    let out = animbin(&[&["convert"], args, &[s(&dump_path), s(&rebuilt)]].concat());
    assert_eq!(code(&out), 0, "{}: {}", input.display(), stderr(&out));
    assert_eq!(read(&rebuilt), original, "dump -> convert changed {}", input.display());
    let again = dir.join("again.json");
    let out = animbin(&["convert", s(input), s(&again)]);
    assert_eq!(code(&out), 0, "{}: {}", input.display(), stderr(&out));
    let again: Value = serde_json::from_slice(&read(&again)).expect("convert to .json writes JSON");
    assert_eq!(again, dump, "convert to .json and dump differ for {}", input.display());
    dump
}

/// `convert [ARGS...] INPUT dir/COPY` (to INPUT's own format) gives back INPUT's bytes.
pub fn assert_converts_to_itself(input: &Path, dir: &Path, copy: &str, args: &[&str]) {
    let copy = dir.join(copy);
    let out = animbin(&[&["convert"], args, &[s(input), s(&copy)]].concat());
    assert_eq!(code(&out), 0, "{}: {}", input.display(), stderr(&out));
    assert_eq!(read(&copy), read(input), "convert changed {}", input.display());
}

/// A file whose floats JSON numbers cannot hold (NaN, infinities, NaN payloads) dumps all
/// the same: the dump has each of `texts` as a string, and converts back to INPUT's bytes
/// (see [`assert_dump_rebuilds`]), as INPUT converts to itself.
pub fn assert_dump_keeps_special_floats(input: &Path, format: &str, dir: &Path, copy: &str, texts: &[&str]) {
    let dump = assert_dump_rebuilds(input, format, dir, copy, &[]);
    let mut strings = Vec::new();
    collect_strings(&dump, &mut strings);
    for text in texts {
        assert!(
            strings.iter().any(|s| s == text),
            "the dump of {} has no string {text:?}",
            input.display()
        );
    }
    assert_converts_to_itself(input, dir, copy, &[]);
}

fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// `convert --out OUT --to TO [ARGS...] INPUTS...`.
pub fn batch(inputs: &[&Path], out: &Path, to: &str, args: &[&str]) -> Output {
    let mut all = vec!["convert", "--out", s(out), "--to", to];
    all.extend_from_slice(args);
    all.extend(inputs.iter().map(|p| s(p)));
    animbin(&all)
}

/// Copies `testdata/NAME` to `dir/AS` (folders made as needed) and gives its path.
pub fn copy(name: &str, dir: &Path, to: &str) -> PathBuf {
    let path = dir.join(to);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::copy(testdata(name), &path).unwrap();
    path
}

/// Every file below `dir`, relative to it, in name order.
pub fn files_below(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else {
                out.push(path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}
