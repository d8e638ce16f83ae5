//! Bad glTF is a clear error, never a panic.

mod common;

use animbin_core::scene::ConversionReport;
use animbin_gltf::{Error, SceneOptions};
use proptest::prelude::*;
use serde_json::{Value, json};

fn read(bytes: &[u8]) -> Result<animbin_core::scene::Scene, Error> {
    animbin_gltf::to_scene(bytes, &SceneOptions::default(), &mut ConversionReport::default())
}

fn exported(glb: bool) -> Vec<u8> {
    let mut report = ConversionReport::default();
    let scene = common::full_scene();
    if glb {
        animbin_gltf::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap()
    } else {
        animbin_gltf::to_bytes(
            &scene,
            animbin_gltf::Container::Gltf,
            &SceneOptions::default(),
            &mut report,
        )
        .unwrap()
    }
}

fn exported_json() -> Value {
    serde_json::from_slice(&exported(false)).unwrap()
}

/// The path of an [`Error::Invalid`], or a panic naming what came instead.
fn invalid_path(value: &Value) -> String {
    match read(&serde_json::to_vec(value).unwrap()) {
        Err(Error::Invalid { path, .. }) => path.0,
        other => panic!("expected an invalid-document error, got {other:?}"),
    }
}

#[test]
fn the_exported_fixture_reads() {
    read(&exported(true)).unwrap();
    read(&exported(false)).unwrap();
}

/// `extras` nested 1,000 deep read nowhere (a `.glb` copy of the file failed in serde_json's
/// recursion limit while a `.gltf` one and `validate` passed): every reading refuses it at
/// the bracket past the limit, and a brace in a string is no nesting.
#[test]
fn json_nested_too_deep_is_refused_at_the_same_byte_by_every_reading() {
    let text = String::from_utf8(exported(false)).unwrap();
    let deep = format!("{}0{}", "[".repeat(1000), "]".repeat(1000));
    let bytes = format!(
        "{},\"extras\":{{\"deep\":{deep},\"text\":\"[[[{{\"}}}}",
        &text[..text.len() - 1]
    )
    .into_bytes();
    let expected_at = (text.len() - 1 + r#","extras":{"deep":"#.len() + 98) as u64;
    match read(&bytes) {
        Err(e @ Error::Json { offset, .. }) => {
            assert_eq!(offset, expected_at, "{e}");
            assert!(e.to_string().contains("nested deeper than 100 levels"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    let problems = animbin_gltf::validate(&bytes);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].message.contains("nested deeper than 100 levels"),
        "{problems:?}"
    );
    // 100 levels (the document, extras and 98 arrays), with brackets in strings, read.
    let shallow = format!("{}0{}", "[".repeat(98), "]".repeat(98));
    let bytes = format!(
        "{},\"extras\":{{\"deep\":{shallow},\"text\":\"[[[{{\"}}}}",
        &text[..text.len() - 1]
    )
    .into_bytes();
    read(&bytes).unwrap();
}

/// A small glTF cannot expand without bound: 8 primitives sharing one sparse accessor of
/// 5,000,000 zero positions (no bytes behind them) decoded it 8 times, 600 MiB and more from
/// a file of under 1 KB; what all reads give is bounded by the buffers' size (the accessor
/// is decoded once, but each primitive's copy is the scene's).
#[test]
fn what_accessors_decode_to_is_bounded_by_the_buffers() {
    use base64::Engine;
    let mut bytes = 0u32.to_le_bytes().to_vec();
    bytes.extend([1.0f32, 2.0, 3.0].iter().flat_map(|v| v.to_le_bytes()));
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let file = |primitives: usize| {
        json!({
            "asset": {"version": "2.0"},
            "buffers": [{"uri": uri, "byteLength": 16}],
            "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}],
            "accessors": [{
                "componentType": 5126, "count": 5_000_000, "type": "VEC3",
                "min": [0.0, 0.0, 0.0], "max": [1.0, 2.0, 3.0],
                "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}
            }],
            "meshes": [{"primitives": vec![json!({"attributes": {"POSITION": 0}}); primitives]}],
            "nodes": [{"mesh": 0}],
            "scenes": [{"nodes": [0]}],
            "scene": 0
        })
    };
    match read(&serde_json::to_vec(&file(8)).unwrap()) {
        Err(e @ Error::Invalid { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("/accessors/0") && text.contains("accessor values in all"),
                "{text}"
            );
        }
        other => panic!("expected the decoding budget, got {other:?}"),
    }
    // One use of it is within the budget.
    read(&serde_json::to_vec(&file(1)).unwrap()).unwrap();
}

#[test]
fn every_truncation_of_a_glb_is_an_error() {
    let bytes = exported(true);
    for len in 0..bytes.len() {
        assert!(read(&bytes[..len]).is_err(), "length {len}");
    }
}

#[test]
fn truncated_json_is_an_error_with_its_line_and_column() {
    let bytes = exported(false);
    for len in (0..bytes.len()).step_by(97) {
        match read(&bytes[..len]) {
            Err(Error::Json { line, column, .. }) => assert!(line >= 1 && column <= len + 1),
            other => panic!("length {len}: {other:?}"),
        }
    }
}

#[test]
fn a_skin_without_joints_is_an_error() {
    let mut v = exported_json();
    v["skins"][0]["joints"] = json!([]);
    assert_eq!(invalid_path(&v), "/skins/0/joints");
}

#[test]
fn a_channel_on_a_missing_node_is_an_error() {
    let mut v = exported_json();
    v["animations"][0]["channels"][0]["target"]["node"] = json!(999);
    assert!(invalid_path(&v).starts_with("/animations/0/channels/0/target/node"));
}

#[test]
fn two_channels_on_one_node_and_property_are_an_error() {
    let mut v = exported_json();
    let first = v["animations"][0]["channels"][0].clone();
    v["animations"][0]["channels"].as_array_mut().unwrap().push(first);
    assert!(invalid_path(&v).starts_with("/animations/0/channels/"));
}

#[test]
fn key_times_that_go_backwards_are_an_error() {
    let mut v = exported_json();
    // Point the first sampler's input at a descending accessor: reuse the POSITION accessor's
    // slot by giving a new scalar accessor over the first view, whose bytes are not sorted
    // times. Simpler: swap min/max does not matter to the reader, so build the case from a
    // view of two floats 1.0, 0.0.
    let bin = base64_decode(v["buffers"][0]["uri"].as_str().unwrap());
    let mut bytes = bin.clone();
    let at = bytes.len();
    bytes.extend_from_slice(&1.0f32.to_le_bytes());
    bytes.extend_from_slice(&0.0f32.to_le_bytes());
    v["buffers"][0]["uri"] = json!(data_uri(&bytes));
    v["buffers"][0]["byteLength"] = json!(bytes.len());
    let views = v["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": at, "byteLength": 8}));
    let view = views.len() - 1;
    let accessors = v["accessors"].as_array_mut().unwrap();
    accessors.push(
        json!({"bufferView": view, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]}),
    );
    let accessor = accessors.len() - 1;
    // The sampler's output must have two keys too: give it a matching two-key output.
    let sampler = v["animations"][0]["channels"][0]["sampler"].as_u64().unwrap() as usize;
    v["animations"][0]["samplers"][sampler]["input"] = json!(accessor);
    let path = match read(&serde_json::to_vec(&v).unwrap()) {
        Err(Error::Invalid { path, expected, .. }) => {
            assert!(expected.contains("do not decrease"), "{expected}");
            path.0
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(path, format!("/animations/0/samplers/{sampler}/input"));
}

#[test]
fn an_accessor_past_its_view_is_an_error_naming_the_accessor() {
    let mut v = exported_json();
    v["accessors"][0]["count"] = json!(1_000_000);
    assert_eq!(invalid_path(&v), "/accessors/0");
}

#[test]
fn a_view_past_its_buffer_is_an_error() {
    let mut v = exported_json();
    v["bufferViews"][0]["byteOffset"] = json!(1u64 << 40);
    let path = invalid_path(&v);
    assert!(
        path.starts_with("/bufferViews/0") || path.starts_with("/buffers"),
        "{path}"
    );
}

#[test]
fn a_node_cycle_is_an_error() {
    let mut v = exported_json();
    v["nodes"][2]["children"] = json!([0]);
    assert!(invalid_path(&v).starts_with("/nodes/"));
}

#[test]
fn an_external_buffer_is_refused_with_its_name() {
    let mut v = exported_json();
    v["buffers"][0]["uri"] = json!("model.bin");
    match read(&serde_json::to_vec(&v).unwrap()) {
        Err(Error::Invalid { path, found, .. }) => {
            assert_eq!(path.0, "/buffers/0/uri");
            assert!(found.contains("model.bin"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_version_other_than_2_is_an_error() {
    let mut v = exported_json();
    v["asset"]["version"] = json!("1.0");
    assert_eq!(invalid_path(&v), "/asset/version");
}

#[test]
fn a_buffer_longer_than_its_data_is_an_error() {
    let mut v = exported_json();
    let len = v["buffers"][0]["byteLength"].as_u64().unwrap();
    v["buffers"][0]["byteLength"] = json!(len + 4);
    assert_eq!(invalid_path(&v), "/buffers/0/byteLength");
}

#[test]
fn joints_past_the_skin_are_an_error() {
    let mut v = exported_json();
    v["skins"][0]["joints"] = json!([0]);
    v["skins"][0]["inverseBindMatrices"] = Value::Null;
    v["skins"][0].as_object_mut().unwrap().remove("inverseBindMatrices");
    assert!(invalid_path(&v).starts_with("/meshes/0/primitives/0/attributes"));
}

#[test]
fn a_glb_whose_json_chunk_is_not_first_names_the_offset() {
    let mut bytes = exported(true);
    bytes[16..20].copy_from_slice(b"BIN\0");
    match read(&bytes) {
        Err(Error::Glb { offset, .. }) => assert_eq!(offset, 16),
        other => panic!("{other:?}"),
    }
}

fn base64_decode(uri: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(uri.split_once(',').unwrap().1)
        .unwrap()
}

fn data_uri(bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any byte changed anywhere in a GLB: an error or a scene, never a panic; and the
    /// validator over the same bytes does not panic either.
    #[test]
    fn flipped_bytes_never_panic(flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = exported(true);
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        let _ = read(&bytes);
        let _ = animbin_gltf::validate(&bytes);
    }

    /// Numbers in the JSON replaced by arbitrary ones (counts, offsets, strides, indices).
    #[test]
    fn arbitrary_numbers_in_the_json_never_panic(picks in proptest::collection::vec((any::<prop::sample::Index>(), prop_oneof![Just(0u64), Just(1), Just(3), Just(255), Just(65535), Just(u32::MAX as u64), any::<u64>()]), 1..4)) {
        let mut v = exported_json();
        let mut pointers = Vec::new();
        collect_numbers(&v, String::new(), &mut pointers);
        for (at, n) in picks {
            let p = &pointers[at.index(pointers.len())];
            *v.pointer_mut(p).unwrap() = json!(n);
        }
        let bytes = serde_json::to_vec(&v).unwrap();
        let _ = read(&bytes);
        let _ = animbin_gltf::validate(&bytes);
    }
}

fn collect_numbers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| collect_numbers(x, format!("{at}/{i}"), out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| collect_numbers(x, format!("{at}/{k}"), out)),
        _ => {}
    }
}
