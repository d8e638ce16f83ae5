//! JSON that does not parse is named by its JSON path in words ("the top level" rather than
//! `.`), and a glTF error says "gltf" once and its place once.

use animbin::{Document, Error};

fn error_of(text: &str) -> Error {
    Document::parse(text.as_bytes(), None).unwrap_err()
}

/// A dump of the SEAnim sample, as text.
fn dump() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sample.seanim");
    let mut text = Vec::new();
    Document::open(path).unwrap().dump(&mut text).unwrap();
    String::from_utf8(text).unwrap()
}

#[test]
fn a_dump_that_does_not_parse_names_the_member_in_words() {
    let error = error_of(r#"{"format": "seanim", "data": {"header": [1, }}"#);
    assert_eq!(
        error.to_string(),
        "the dump does not parse at data.header (line 1, column 45): expected value"
    );
    // A member name that does not read: the place is the object that holds it.
    let error = error_of(r#"{"format": "seanim", "data": {x"#);
    assert_eq!(
        error.to_string(),
        "the dump does not parse at data (line 1, column 31): key must be a string"
    );
    // Characters after the dump: no member holds them.
    let text = format!("{} x", dump().trim_end());
    let lines = text.lines().count();
    let column = text.lines().last().unwrap().len();
    assert_eq!(
        error_of(&text).to_string(),
        format!("the dump does not parse at the top level (line {lines}, column {column}): trailing characters")
    );
}

/// A GLB whose JSON chunk is `json`, padded with spaces as the container asks.
fn glb(json: &[u8]) -> Vec<u8> {
    animbin::gltf::Glb::to_vec(json, None).unwrap()
}

#[test]
fn a_gltf_error_says_gltf_once_and_its_place_once() {
    let error = Document::parse(&glb(br#"{"asset": x}"#), None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "gltf: JSON at line 1, column 11 (byte 30): expected value"
    );
    let error = error_of(r#"{"asset": {"version": "2.0"}, "nodes": 5}"#);
    assert_eq!(
        error.to_string(),
        "gltf: JSON at line 1, column 40 (byte 39): invalid type: integer `5`, expected a sequence"
    );
    let error = error_of(r#"{"asset": {"version": "2.0"}, "skins": [{"joints": []}], "nodes": [{}]}"#);
    assert_eq!(
        error.to_string(),
        "gltf: /skins/0/joints: expected at least one joint, found none"
    );
}

#[test]
fn json_errors_carry_the_byte_offset_and_the_member_in_words() {
    // Found by the probe of a JSON input: AnimJ, DMF JSON or glTF with a syntax error.
    let text = r#"{"version": 1, "tracks": [x"#;
    let error = error_of(text);
    assert_eq!(
        error.to_string(),
        "the JSON input does not parse at tracks (line 1, column 27): expected value"
    );
    assert_eq!(error.offset(), Some(26));
    assert_eq!(&text[26..], "x");
    let error = error_of(r#"{"a": 1"#);
    assert_eq!(
        error.to_string(),
        "the JSON input does not parse at the top level (line 1, column 7): EOF while parsing an object"
    );
    assert_eq!(error.offset(), Some(6));
    // A dump, and glTF's own JSON (in a GLB, counted from the file's first byte).
    let text = "{\"format\": \"seanim\",\n \"data\": {\"header\": [1, }}";
    let error = error_of(text);
    assert_eq!(
        error.to_string(),
        "the dump does not parse at data.header (line 2, column 25): expected value"
    );
    assert_eq!(error.offset(), Some(45));
    assert_eq!(&text[45..46], "}");
    assert_eq!(
        Document::parse(&glb(br#"{"asset": x}"#), None).unwrap_err().offset(),
        Some(30)
    );
}
