//! Running the Khronos glTF validator over exported files.
//!
//! The validator is the npm package `gltf-validator`, run by `crates/gltf/tests/validator/validate.js`.
//! `.ci/run` installs it with `npm install --prefix crates/gltf/tests/validator`; without
//! node or the package the tests that use it skip outside CI and fail under CI.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

/// What the validator says about one file.
#[derive(Debug, Clone, Deserialize)]
pub struct ValidatorReport {
    /// The file's path.
    pub file: String,
    /// The number of errors.
    pub errors: u64,
    /// The number of warnings.
    pub warnings: u64,
    /// Every message: `code`, `severity` (0 error, 1 warning, 2 info, 3 hint), `pointer`,
    /// `message`.
    pub issues: Vec<serde_json::Value>,
}

/// A 1x1 RGBA PNG.
pub const PNG_1X1: [u8; 70] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xdf, 0xc0, 0xf0, 0x1f, 0x00, 0x06, 0x80, 0x02, 0x7f, 0x10, 0x4c, 0x1b,
    0xe1, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// Puts a 1x1 PNG at every external image path that the glTF `file` names (relative to
/// it), as the texture files a user keeps beside an export, so that the validator, which
/// loads them, checks the rest of the file. Returns how many it wrote.
///
/// # Panics
/// When `file` cannot be read or parsed, or a placeholder cannot be written.
pub fn provide_external_images(file: &Path) -> usize {
    let bytes = std::fs::read(file).expect("the exported file");
    let (json, _) = animbin_gltf::split(&bytes).expect("an exported glTF");
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut written = 0;
    for image in json["images"].as_array().into_iter().flatten() {
        let Some(uri) = image["uri"].as_str().filter(|u| !u.starts_with("data:")) else {
            continue;
        };
        let path = dir.join(animbin_gltf::percent_decode(uri));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("a folder for the placeholder");
        }
        std::fs::write(&path, PNG_1X1).expect("the placeholder image");
        written += 1;
    }
    written
}

/// The validator script shipped in this crate.
pub fn validator_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../gltf/tests/validator/validate.js")
}

/// Whether `node` runs and finds the `gltf-validator` package.
pub fn validator_available() -> bool {
    Command::new("node")
        .arg(validator_script())
        .arg("--check")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs the Khronos validator over `files`: `None` (after [`crate::require`]) when node or
/// the package is not installed, else one report per file.
///
/// # Panics
/// When the validator crashes or prints something that is not its report (a broken test
/// setup, not a finding about the files).
pub fn khronos_validate(files: &[PathBuf]) -> Option<Vec<ValidatorReport>> {
    if !validator_available() {
        crate::require("the Khronos glTF validator (node and `npm install --prefix crates/gltf/tests/validator`)");
        return None;
    }
    let output = Command::new("node")
        .arg(validator_script())
        .args(files)
        .output()
        .expect("node ran a moment ago");
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "the validator failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reports: Vec<ValidatorReport> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("the validator prints one JSON report per line"))
        .collect();
    assert_eq!(reports.len(), files.len(), "one report per file");
    Some(reports)
}

/// The error messages of a report, one line each, for assertion messages.
pub fn error_lines(report: &ValidatorReport) -> String {
    report
        .issues
        .iter()
        .filter(|i| i["severity"] == 0)
        .map(|i| format!("{} {} {}", i["code"], i["pointer"], i["message"]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The image called `name` in a glTF's JSON.
pub fn image_named<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json["images"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap()
}

/// The names of a glTF's animations (its JSON), in order.
pub fn animation_names(json: &serde_json::Value) -> Vec<&str> {
    json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect()
}

/// Removes every `extras` member of a glTF's JSON, as Blender's glTF export does.
pub fn strip_extras(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove("extras");
            map.values_mut().for_each(strip_extras);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_extras),
        _ => {}
    }
}
