//! What the command says about JSON and glTF that do not read: the place once, in words.

mod common;

use common::{animbin, code, s, stderr, tempdir, testdata, write};

/// A GLB whose JSON chunk is `json`, padded with spaces as the container asks.
fn glb(json: &[u8]) -> Vec<u8> {
    animbin::gltf::Glb::to_vec(json, None).unwrap()
}

#[test]
fn a_glb_whose_json_does_not_parse_says_gltf_and_its_place_once() {
    let dir = tempdir();
    let path = write(dir.path(), "bad.glb", &glb(br#"{"asset": x}"#));
    let run = animbin(&["info", s(&path)]);
    assert_eq!(code(&run), 1);
    assert_eq!(
        stderr(&run),
        format!(
            "animbin: {}: gltf: JSON at line 1, column 11 (byte 30): expected value\n",
            path.display()
        )
    );
}

#[test]
fn a_dump_that_does_not_parse_names_its_place_in_words() {
    let dir = tempdir();
    let dumped = animbin(&["dump", s(&testdata("sample.seanim"))]);
    assert_eq!(code(&dumped), 0);
    // Something after the dump: no member holds it, and the message says so in words.
    let mut text = dumped.stdout.clone();
    text.extend(b"x\n");
    let lines = text.iter().filter(|&&b| b == b'\n').count();
    let path = write(dir.path(), "walk.json", &text);
    let run = animbin(&["convert", s(&path), s(&dir.path().join("walk.seanim"))]);
    assert_eq!(code(&run), 1);
    assert_eq!(
        stderr(&run),
        format!(
            "animbin: {}: the dump does not parse at the top level (line {lines}, column 1): trailing characters\n",
            path.display()
        )
    );
    // A member whose name does not read: the place is the object that holds it.
    let path = write(dir.path(), "cut.json", br#"{"format": "seanim", "data": {x"#);
    let run = animbin(&["info", s(&path)]);
    assert_eq!(
        stderr(&run),
        format!(
            "animbin: {}: the dump does not parse at data (line 1, column 31): key must be a string\n",
            path.display()
        )
    );
}
