//! The committed samples (`testdata/`, written by `cargo xtask corpus` with this crate's
//! writers) and, when present, the shared corpus beside the project (none exists for DMF yet:
//! the test then only checks what is committed).

use std::path::Path;

fn testdata(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask corpus`)", path.display()))
}

#[test]
fn the_committed_sample_is_canonical_valid_and_matches_its_json_form() {
    let binary = testdata("sample.dmf");
    let json = testdata("sample.dmf.json");
    let from_binary = animbin_dmf::read(&binary).unwrap();
    let from_json = animbin_dmf::read(&json).unwrap();
    assert_eq!(from_binary, from_json);
    assert_eq!(animbin_dmf::validate(&from_binary), vec![]);
    assert_eq!(animbin_dmf::to_bytes(&from_binary).unwrap(), binary);
    assert_eq!(animbin_dmf::json::to_vec(&from_binary).unwrap(), json);
    // The embedded PNG is a real one: signature, IHDR of 2 x 2 (checked by validate above).
    assert_eq!(animbin_dmf::png_size(&from_binary.textures[0].png), Some((2, 2)));
}
