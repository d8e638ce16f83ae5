//! Error messages say where once: JSON errors by line, column and byte offset (counted from
//! the start of the file, a GLB's header included), without serde_json's own " at line L
//! column C" again, and without naming glTF (the caller says whose error it is).

use animbin_core::scene::ConversionReport;
use animbin_gltf::{Error, SceneOptions};

fn read_error(bytes: &[u8]) -> Error {
    animbin_gltf::to_scene(bytes, &SceneOptions::default(), &mut ConversionReport::default()).unwrap_err()
}

/// A GLB whose JSON chunk is `json`, padded with spaces as the container asks.
fn glb(json: &[u8]) -> Vec<u8> {
    animbin_gltf::Glb::to_vec(json, None).unwrap()
}

#[test]
fn json_that_does_not_parse_names_its_line_column_and_byte_once() {
    let text = br#"{"asset": x}"#;
    let error = read_error(text);
    assert_eq!(error.to_string(), "JSON at line 1, column 11 (byte 10): expected value");
    assert_eq!(error.offset(), Some(10));
    assert_eq!(text[10], b'x');
    // In a GLB the byte counts from the file's start: 20 bytes of headers come first.
    let error = read_error(&glb(text));
    assert_eq!(error.to_string(), "JSON at line 1, column 11 (byte 30): expected value");
    assert_eq!(error.offset(), Some(30));
    assert_eq!(glb(text)[30], b'x');
    // Repacking reads the JSON the same way.
    let error = animbin_gltf::split(&glb(text)).unwrap_err();
    assert_eq!(error.to_string(), "JSON at line 1, column 11 (byte 30): expected value");
}

#[test]
fn json_of_the_wrong_shape_names_the_place_on_its_line() {
    let text = b"{\"asset\": {\"version\": \"2.0\"},\n \"nodes\": 5}";
    let error = read_error(text);
    assert_eq!(
        error.to_string(),
        "JSON at line 2, column 11 (byte 40): invalid type: integer `5`, expected a sequence"
    );
    assert_eq!(text[40], b'5');
    assert!(matches!(
        error,
        Error::Json {
            line: 2,
            column: 11,
            offset: 40,
            ..
        }
    ));
}

#[test]
fn other_errors_say_their_place_once_and_leave_the_name_to_the_caller() {
    let error = read_error(br#"{"asset": {"version": "1.0"}}"#);
    assert_eq!(error.to_string(), "/asset/version: expected glTF 2.x, found \"1.0\"");
    assert_eq!(error.offset(), None);
    let error = read_error(b"glTF\x01\x00\x00\x00");
    assert_eq!(error.to_string(), "glb at byte 4 (0x4): expected version 2, found 1");
    assert_eq!(error.offset(), Some(4));
}
