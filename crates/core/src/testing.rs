//! Helpers for the format crates' tests (public so every crate's tests share one copy).

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

/// The folder `../shared/corpus/<format>` beside the workspace, found from a crate's
/// `CARGO_MANIFEST_DIR`; `None` when it is absent (tests that use it then skip).
pub fn shared_corpus(manifest_dir: &str, format: &str) -> Option<PathBuf> {
    Path::new(manifest_dir)
        .ancestors()
        .map(|dir| dir.join("../shared/corpus").join(format))
        .find(|dir| dir.is_dir())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_ignores_spaces_and_comments() {
        assert_eq!(hex("01 02 # two bytes\n ff"), vec![1, 2, 255]);
    }
}
