//! A `.gltf` exported "separate" (Blender's *glTF Separate*: the buffer in `name.bin`, the
//! images in image files beside it) reads as the embedded file it stands for, once
//! `embed_external_files` has put the files in; URIs that leave the folder or name a scheme
//! other than `data:` are refused, named.

mod common;

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::{Container, Error, SceneOptions};
use base64::Engine;
use serde_json::{Value, json};

fn scene_of(bytes: &[u8]) -> Scene {
    animbin_gltf::to_scene(bytes, &SceneOptions::default(), &mut ConversionReport::default()).unwrap()
}

/// Files by their name relative to the glTF file's folder, as a reader function.
fn reader(files: &HashMap<String, Vec<u8>>) -> impl FnMut(&str) -> io::Result<Vec<u8>> + '_ {
    |name| files.get(name).cloned().ok_or_else(|| io::ErrorKind::NotFound.into())
}

/// A file split apart as a "separate" exporter writes it: the BIN chunk in `model.bin`, each
/// image held in a buffer view written to `image<i>.png`; the JSON names them by URI.
fn separate(glb: &[u8]) -> (Vec<u8>, HashMap<String, Vec<u8>>) {
    let (mut json, bin) = animbin_gltf::split(glb).unwrap();
    let bin = bin.unwrap();
    let mut files = HashMap::new();
    let views = json["bufferViews"].clone();
    for (i, image) in json["images"].as_array_mut().unwrap().iter_mut().enumerate() {
        let Some(view) = image.get("bufferView").and_then(Value::as_u64) else {
            continue;
        };
        let view = &views[view as usize];
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let end = start + view["byteLength"].as_u64().unwrap() as usize;
        let name = format!("image{i}.png");
        files.insert(name.clone(), bin[start..end].to_vec());
        let image = image.as_object_mut().unwrap();
        image.remove("bufferView");
        image.remove("mimeType");
        image.insert("uri".into(), json!(name));
    }
    json["buffers"][0]["uri"] = json!("model.bin");
    files.insert("model.bin".into(), bin);
    (serde_json::to_vec_pretty(&json).unwrap(), files)
}

#[test]
fn a_separate_export_reads_as_the_embedded_file() {
    let mut report = ConversionReport::default();
    let glb = animbin_gltf::from_scene(&common::full_scene(), &SceneOptions::default(), &mut report).unwrap();
    let (gltf, files) = separate(&glb);
    assert_eq!(files.len(), 2, "the buffer and the one embedded texture");
    let read = RefCell::new(Vec::new());
    let embedded = animbin_gltf::embed_external_files(&gltf, |name: &str| {
        read.borrow_mut().push(name.to_string());
        reader(&files)(name)
    })
    .unwrap();
    // The texture files the materials name are not there: they stay references, as before.
    assert_eq!(
        read.into_inner(),
        ["model.bin", "image0.png", "textures/body col.png", "body_n.png"]
    );
    let scene = scene_of(&embedded);
    assert_eq!(scene, scene_of(&glb));
    assert_eq!(scene.textures.len(), 1);
    assert_eq!(
        scene.materials[0].diffuse_map.as_deref(),
        Some("textures\\body col.png")
    );
    // Without its files the same JSON is refused at the buffer's URI.
    match animbin_gltf::to_scene(&gltf, &SceneOptions::default(), &mut report) {
        Err(e @ Error::Invalid { .. }) => assert_eq!(
            e.to_string(),
            "/buffers/0/uri: expected an embedded buffer (a .glb, a .gltf with data: URIs, or a .gltf \
             opened from its path, whose files beside it are read), found the external file \"model.bin\""
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_glb_may_name_external_files_too() {
    let mut report = ConversionReport::default();
    let glb = animbin_gltf::from_scene(&common::full_scene(), &SceneOptions::default(), &mut report).unwrap();
    let (gltf, files) = separate(&glb);
    let (json, _) = animbin_gltf::split(&gltf).unwrap();
    let with_uris = animbin_gltf::join(json, None, Container::Glb).unwrap();
    assert!(with_uris.starts_with(b"glTF"));
    let embedded = animbin_gltf::embed_external_files(&with_uris, reader(&files)).unwrap();
    assert!(embedded.starts_with(b"glTF"));
    assert_eq!(scene_of(&embedded), scene_of(&glb));
}

/// A triangle in a glTF from another tool: no animbin extras, its material's base colour
/// from `image`.
fn triangle(buffer: Value, image: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "asset": {"version": "2.0", "generator": "Khronos glTF Blender I/O"},
        "buffers": [buffer],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]}],
        "images": [image],
        "textures": [{"source": 0}],
        "materials": [{"name": "skin", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
        "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
    }))
    .unwrap()
}

fn triangle_bytes() -> Vec<u8> {
    [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

fn png() -> Vec<u8> {
    let mut report = ConversionReport::default();
    let glb = animbin_gltf::from_scene(&common::full_scene(), &SceneOptions::default(), &mut report).unwrap();
    separate(&glb).1.remove("image0.png").unwrap()
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

#[test]
fn an_image_file_beside_a_gltf_from_another_tool_becomes_its_texture() {
    let files = HashMap::from([
        ("tri.bin".to_string(), triangle_bytes()),
        ("tex/skin col.png".to_string(), png()),
    ]);
    let gltf = triangle(
        json!({"byteLength": 36, "uri": "tri.bin"}),
        json!({"name": "skin col", "uri": "tex/skin%20col.png"}),
    );
    let embedded = triangle(
        json!({"byteLength": 36, "uri": data_uri("application/octet-stream", &triangle_bytes())}),
        json!({"name": "skin col", "uri": data_uri("image/png", &png())}),
    );
    let scene = scene_of(&animbin_gltf::embed_external_files(&gltf, reader(&files)).unwrap());
    assert_eq!(scene, scene_of(&embedded));
    assert_eq!(scene.textures[0].data, png());
    assert_eq!(scene.materials[0].texture, Some(0));
}

#[test]
fn images_that_are_not_read_stay_references_by_name() {
    // Missing, outside the folder, on the web, or not a PNG (the scene holds PNG textures):
    // each stays the name the material gives, as a glTF with embedded buffers reads today.
    let files = HashMap::from([
        ("tri.bin".to_string(), triangle_bytes()),
        ("skin.jpg".to_string(), b"\xff\xd8\xff\xe0 a JPEG".to_vec()),
        ("../skin.png".to_string(), png()),
    ]);
    for uri in ["missing.png", "../skin.png", "http://example.com/skin.png", "skin.jpg"] {
        let gltf = triangle(json!({"byteLength": 36, "uri": "tri.bin"}), json!({"uri": uri}));
        let embedded = animbin_gltf::embed_external_files(&gltf, reader(&files)).unwrap();
        let json: Value = serde_json::from_slice(&embedded).unwrap();
        assert_eq!(json["images"][0]["uri"], json!(uri));
        let scene = scene_of(&embedded);
        assert!(scene.textures.is_empty(), "{uri}");
        assert_eq!(scene.materials[0].diffuse_map.as_deref(), Some(uri));
    }
}

#[test]
fn buffer_uris_that_leave_the_folder_or_name_a_scheme_are_refused_with_their_uri() {
    let files = HashMap::from([("tri.bin".to_string(), triangle_bytes())]);
    for (uri, reason) in [
        (
            "../x.bin",
            "it leaves the glTF file's folder (a .. part); only files in that folder are read",
        ),
        (
            "/etc/passwd",
            "an absolute path; only files in the glTF file's folder are read",
        ),
        (
            "http://example.com/x.bin",
            "the scheme http: is not read; only data: URIs and files in the glTF file's folder are",
        ),
    ] {
        let gltf = triangle(json!({"byteLength": 36, "uri": uri}), json!({"uri": "a.png"}));
        let mut asked = Vec::new();
        let result = animbin_gltf::embed_external_files(&gltf, |name: &str| {
            asked.push(name.to_string());
            reader(&files)(name)
        });
        let error = result.err().unwrap_or_else(|| panic!("{uri} was read"));
        assert_eq!(
            error.to_string(),
            format!("/buffers/0/uri: cannot read {uri:?}: {reason}")
        );
        assert!(matches!(&error, Error::External { uri: u, .. } if u == uri));
        assert!(asked.is_empty(), "{uri}: the reader was asked for {asked:?}");
    }
}

#[test]
fn a_buffer_file_that_cannot_be_read_or_is_short_is_an_error_naming_it() {
    let gltf = triangle(json!({"byteLength": 36, "uri": "tri%20a.bin"}), json!({"uri": "a.png"}));
    let none = HashMap::new();
    let error = animbin_gltf::embed_external_files(&gltf, reader(&none)).err().unwrap();
    assert_eq!(
        error.to_string(),
        format!(
            "/buffers/0/uri: cannot read \"tri%20a.bin\": {}",
            io::Error::from(io::ErrorKind::NotFound)
        )
    );
    let short = HashMap::from([("tri a.bin".to_string(), vec![0; 35])]);
    let error = animbin_gltf::embed_external_files(&gltf, reader(&short)).err().unwrap();
    assert_eq!(
        error.to_string(),
        "/buffers/0/uri: cannot read \"tri%20a.bin\": the file holds 35 bytes, fewer than the buffer's byteLength 36"
    );
}

#[test]
fn a_file_that_names_no_external_file_is_given_back_as_it_is() {
    let mut report = ConversionReport::default();
    let scene = common::full_scene();
    let embedded = animbin_gltf::to_bytes(&scene, Container::Gltf, &SceneOptions::default(), &mut report).unwrap();
    let json: Value = serde_json::from_slice(&embedded).unwrap();
    // Its texture files are named by URI: their absence changes nothing.
    assert!(json["images"].as_array().unwrap().len() > 1);
    let glb = animbin_gltf::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    let none = HashMap::new();
    for bytes in [&embedded[..], &glb[..], &b"{ not json"[..], &b""[..]] {
        let out = animbin_gltf::embed_external_files(bytes, reader(&none)).unwrap();
        assert!(matches!(out, Cow::Borrowed(b) if b.as_ptr() == bytes.as_ptr()));
    }
}
