//! Test helpers shared by the animbin crates' tests: hex fixtures, truncation checks, the
//! shared corpus of files from independent tools, AnimX, DMF and SEAnim samples, and the
//! Khronos glTF validator.
//!
//! This crate is a dev-dependency only and is never published, so none of it is part of
//! any public API.
//!
//! Under CI (the environment variable `CI` set to anything but `false` or `0`), what a test
//! needs from outside the repository (the shared corpus, node and the validator) must be
//! there: [`require`] fails the test instead of letting it pass by skipping.

pub mod animx;
pub mod dmf;
pub mod gltf;
pub mod seanim;

use animbin_core::FileFormat;
use std::path::{Path, PathBuf};

/// Asserts that reading every proper prefix of `bytes` fails (and, by returning, that none
/// panicked): a truncated file is always an error.
///
/// `read` should parse a whole file from a slice. Returns the number of prefixes tried.
pub fn assert_every_truncation_fails<T, E: std::fmt::Debug>(
    bytes: &[u8],
    read: impl Fn(&[u8]) -> Result<T, E>,
) -> usize {
    for len in 0..bytes.len() {
        assert!(
            read(&bytes[..len]).is_err(),
            "a file truncated to {len} of {} bytes was read without an error",
            bytes.len()
        );
    }
    bytes.len()
}

/// Whether the tests run under CI, where nothing they need may be missing.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Says that a test cannot run because `what` is missing: under CI that fails the test
/// (a test must not pass by skipping there); elsewhere it says so on the terminal and the
/// caller returns.
///
/// The test harness can mark a test ignored only before it runs, and captures what a test
/// prints with `eprintln!` unless it fails, so the line is written to stderr directly:
/// `cargo test` then shows `skipping: ...` beside the test's `ok` instead of a bare `ok`.
///
/// # Panics
/// Under CI, always.
pub fn require(what: &str) {
    use std::io::Write;
    assert!(
        !in_ci(),
        "CI=true and {what} is missing: this test must not be skipped in CI"
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipping: {what} is missing (it would fail under CI=true)"
    );
}

/// The folder `../shared/corpus/<format>` beside the workspace, found from a crate's
/// `CARGO_MANIFEST_DIR`. When it is absent the test is skipped with a message outside CI
/// ([`require`]) and fails under CI.
pub fn shared_corpus(manifest_dir: &str, format: &str) -> Option<PathBuf> {
    let found = Path::new(manifest_dir)
        .ancestors()
        .map(|dir| dir.join("../shared/corpus").join(format))
        .find(|dir| dir.is_dir());
    if found.is_none() {
        require(&format!("the shared corpus folder ../shared/corpus/{format}"));
    }
    found
}

/// The files of a shared corpus folder with the given extension, sorted by name.
pub fn corpus_files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Parses a hex fixture written with spaces, newlines and `#` comments into bytes.
pub fn hex(text: &str) -> Vec<u8> {
    let digits: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
        .collect();
    assert!(digits.len() % 2 == 0, "odd number of hex digits");
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("hex digits"))
        .collect()
}

/// The files of `extension` in the workspace's `testdata/` and in the shared corpus (when it
/// is there), each with its name and bytes; at least one from `testdata/`.
pub fn samples(manifest_dir: &str, extension: &str) -> Vec<(String, Vec<u8>)> {
    let testdata = Path::new(manifest_dir).join("../../testdata");
    let mut paths = corpus_files(&testdata, extension);
    assert!(!paths.is_empty(), "no .{extension} files in {}", testdata.display());
    if let Some(corpus) = shared_corpus(manifest_dir, extension) {
        paths.extend(corpus_files(&corpus, extension));
    }
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.display().to_string(), bytes)
        })
        .collect()
}

/// Asserts that `summary` is written as a JSON object of exactly `members`, in that order
/// (the order of the fields, as `animbin info --json` prints them), and that it reads back
/// from that JSON as itself; returns the JSON for further checks.
pub fn assert_summary_members<S>(summary: &S, members: &[&str]) -> serde_json::Value
where
    S: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let text = serde_json::to_string(summary).unwrap();
    let at = |member: &str| text.find(&format!("\"{member}\":")).unwrap();
    assert!(members.windows(2).all(|w| at(w[0]) < at(w[1])), "{text}");
    let json = serde_json::to_value(summary).unwrap();
    assert_eq!(json.as_object().unwrap().len(), members.len());
    assert_eq!(&serde_json::from_value::<S>(json.clone()).unwrap(), summary);
    json
}

/// Asserts that a format's summary through its view ([`FileFormat::summary_of`]) is the
/// model's ([`FileFormat::read`], then [`FileFormat::summary`]) for `bytes` (which must
/// summarise), for every prefix of it and, for each mask of `flips`, for every byte flipped
/// by it: both give the same summary, or both refuse the bytes.
pub fn assert_view_summaries<F: FileFormat>(name: &str, bytes: &[u8], flips: &[u8]) {
    assert_summaries_agree(name, bytes, flips, |bytes| {
        (F::summary_of(bytes).ok(), F::read(bytes).ok().map(|f| f.summary()))
    });
}

/// Asserts that a format's summary by positioned reads ([`FileFormat::summary_at`]) is its
/// summary of the bytes in memory ([`FileFormat::summary_of`]) wherever it gives one: for
/// `bytes` (which it must summarise), for every prefix of it and, for each mask of `flips`,
/// for every byte flipped by it. Where it gives none the caller reads the file whole, so it
/// may give none of a file `summary_of` accepts, but never one of a file `summary_of`
/// refuses, nor another summary.
pub fn assert_positioned_summaries<F: FileFormat>(name: &str, bytes: &[u8], flips: &[u8]) {
    assert_summaries_agree(name, bytes, flips, |bytes| {
        let mut file = animbin_core::format::Positioned::new(&bytes);
        let positioned = F::summary_at(&mut file);
        let whole = positioned.as_ref().and_then(|_| F::summary_of(bytes).ok());
        (positioned, whole)
    });
}

/// Asserts that the two summaries `both` gives of some bytes (the quick one through a view,
/// and the one from the whole model) agree, as [`assert_view_summaries`] asserts it for a
/// format: for `bytes` (which must summarise), for every prefix of it and, for each mask of
/// `flips`, for every byte flipped by it.
pub fn assert_summaries_agree<S: PartialEq + std::fmt::Debug>(
    name: &str,
    bytes: &[u8],
    flips: &[u8],
    both: impl Fn(&[u8]) -> (Option<S>, Option<S>),
) {
    let (quick, full) = both(bytes);
    assert!(quick.is_some(), "{name}: a whole file summarises");
    assert_eq!(quick, full, "{name}");
    for len in 0..bytes.len() {
        let (quick, full) = both(&bytes[..len]);
        assert_eq!(quick, full, "{name} cut to {len} bytes");
    }
    let mut flipped = bytes.to_vec();
    for at in 0..bytes.len() {
        for &flip in flips {
            flipped[at] ^= flip;
            let (quick, full) = both(&flipped);
            assert_eq!(quick, full, "{name}: byte {at} ^ {flip:#04x}");
            flipped[at] ^= flip;
        }
    }
}

/// The names in `dir`, sorted: what a test looks at to see that nothing stray (a temporary
/// file) was left.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_ignores_spaces_and_comments() {
        assert_eq!(hex("01 02 # two bytes\n ff"), vec![1, 2, 255]);
    }
}
