//! AnimXDocument: an animation with the file it came from, its lossless dump, and AnimJ
//! detection.

use animbin_animx::{AnimXDocument, AnimXFile, Animation, Encoding, ReadOptions, TrackData, Values, animj};
use animbin_testing::animx::sample;
use serde_json::{Value, json};

/// The dump as the `animbin` command wrote it before the document moved into this crate.
fn old_dump(animation: &Animation, stored: Option<&AnimXFile>) -> Value {
    use base64::Engine;
    let mut value = animj::to_value(animation);
    if let Value::Object(map) = &mut value {
        map.insert("version".into(), json!(animation.version));
        map.insert("encoding".into(), json!(animation.encoding.name()));
        if let Some(file) = stored.filter(|f| f.header.encoding != Encoding::Plain) {
            map.insert(
                "stored".into(),
                json!(base64::engine::general_purpose::STANDARD.encode(&file.data)),
            );
        }
    }
    value
}

/// A compressed stream that another tool could have written: the tracks in one stored
/// (uncompressed) LZ4 chunk, which this crate's compressor would not produce.
fn foreign_lz4() -> Vec<u8> {
    let anim = sample(Encoding::Plain);
    let plain = animbin_animx::to_bytes(&anim).unwrap();
    let header = AnimXFile::read(&plain).unwrap().header_size() as usize;
    let tracks = &plain[header..];
    let mut bytes = plain[..header - 1].to_vec();
    bytes.push(1); // encoding LZ4
    bytes.push(0); // chunk flags: stored
    let mut n = tracks.len();
    while n >= 0x80 {
        bytes.push((n as u8) | 0x80);
        n >>= 7;
    }
    bytes.push(n as u8);
    bytes.extend_from_slice(tracks);
    bytes
}

#[test]
fn a_compressed_file_is_written_back_byte_for_byte() {
    let bytes = foreign_lz4();
    let doc = AnimXDocument::read(&bytes).unwrap();
    assert_eq!(doc.animation.encoding, Encoding::Lz4);
    assert_eq!(doc.to_bytes().unwrap(), bytes);
    // Our compressor would store it differently: the stored bytes are what keep it.
    assert_ne!(animbin_animx::to_bytes(&doc.animation).unwrap(), bytes);
    let mut out = Vec::new();
    doc.write(&mut out).unwrap();
    assert_eq!(out, bytes);
}

#[test]
fn an_edited_animation_is_encoded_anew() {
    let mut doc = AnimXDocument::read(&foreign_lz4()).unwrap();
    doc.animation.name = "run".into();
    let bytes = doc.to_bytes().unwrap();
    assert_eq!(bytes, animbin_animx::to_bytes(&doc.animation).unwrap());
    assert_eq!(animbin_animx::read(&bytes).unwrap(), doc.animation);
}

/// The bytes `write` gives.
fn written(doc: &AnimXDocument) -> Result<Vec<u8>, animbin_core::Error> {
    let mut out = Vec::new();
    doc.write(&mut out)?;
    Ok(out)
}

#[test]
fn write_keeps_the_stored_bytes_only_while_every_track_encodes_to_them() {
    let plain = animbin_animx::to_bytes(&sample(Encoding::Plain)).unwrap();
    for bytes in [plain, foreign_lz4()] {
        let doc = AnimXDocument::read(&bytes).unwrap();
        // A plain file is not kept: its tracks encode back to its bytes. The checks below
        // hold for it against the file as a compressed one would be kept.
        let kept = AnimXFile::read(&bytes).unwrap();
        assert_eq!(doc.stored.is_some(), doc.animation.encoding != Encoding::Plain);
        let stored = doc.stored.as_ref().unwrap_or(&kept);
        assert!(doc.animation.still_encodes_to(stored, &ReadOptions::default()).unwrap());
        assert_eq!(written(&doc).unwrap(), bytes);
        // One value of the last track, the last bytes of the stored tracks, changed.
        let mut edited = doc.clone();
        let TrackData::Raw(raw) = &mut edited.animation.tracks[1].data else {
            panic!("the sample's second track is raw")
        };
        let Values::Float3(values) = &mut raw.values else {
            panic!("the sample's raw track holds Float3 values")
        };
        values[1].z = 2.0;
        assert!(
            !edited
                .animation
                .still_encodes_to(stored, &ReadOptions::default())
                .unwrap()
        );
        let out = written(&edited).unwrap();
        assert_eq!(out, animbin_animx::to_bytes(&edited.animation).unwrap());
        assert_eq!(animbin_animx::read(&out).unwrap(), edited.animation);
        // A track fewer: every byte written matches, but the stored tracks go on.
        let mut shorter = doc.clone();
        shorter.animation.tracks.pop();
        assert!(
            !shorter
                .animation
                .still_encodes_to(stored, &ReadOptions::default())
                .unwrap()
        );
        assert_eq!(
            written(&shorter).unwrap(),
            animbin_animx::to_bytes(&shorter.animation).unwrap()
        );
    }
}

#[test]
fn write_refuses_a_track_that_cannot_be_encoded_as_to_bytes_does() {
    let mut doc = AnimXDocument::read(&foreign_lz4()).unwrap();
    let TrackData::Curve(curve) = &mut doc.animation.tracks[0].data else {
        panic!("the sample's first track is a curve")
    };
    curve.keyframes.times.push(2.0);
    let stored = doc.stored.as_ref().unwrap();
    assert!(!doc.animation.still_encodes_to(stored, &ReadOptions::default()).unwrap());
    let expected = doc.to_bytes().unwrap_err().to_string();
    assert!(expected.contains("keyframe times for"), "{expected}");
    assert_eq!(written(&doc).unwrap_err().to_string(), expected);
}

#[test]
fn the_dump_is_the_one_the_command_wrote() {
    let files = [
        animbin_animx::to_bytes(&sample(Encoding::Plain)).unwrap(),
        animbin_animx::to_bytes(&sample(Encoding::Lz4)).unwrap(),
        animbin_animx::to_bytes(&sample(Encoding::Lzma)).unwrap(),
        foreign_lz4(),
    ];
    for bytes in files {
        let doc = AnimXDocument::read(&bytes).unwrap();
        let dump = serde_json::to_value(&doc).unwrap();
        assert_eq!(dump, old_dump(&doc.animation, doc.stored.as_ref()));
        assert_eq!(dump, doc.to_dump());
        assert_eq!(dump["version"], 1);
        assert_eq!(dump.get("stored").is_some(), doc.animation.encoding != Encoding::Plain);
        // Back from the dump, the same bytes.
        let back: AnimXDocument = serde_json::from_value(dump).unwrap();
        assert_eq!(back.animation, doc.animation);
        assert_eq!(back.to_bytes().unwrap(), bytes);
    }
    // An animation from AnimJ has no stored bytes: its dump names the encoding only.
    let text = animj::to_string(&sample(Encoding::Lz4)).unwrap();
    let doc = AnimXDocument::read(text.as_bytes()).unwrap();
    assert!(doc.stored.is_none());
    let dump = serde_json::to_value(&doc).unwrap();
    assert_eq!(dump, old_dump(&doc.animation, None));
    assert_eq!(dump["encoding"], "lz4");
}

#[test]
fn stored_bytes_are_reused_only_while_they_decode_to_the_dumped_tracks() {
    let bytes = foreign_lz4();
    let mut dump = AnimXDocument::read(&bytes).unwrap().to_dump();
    dump["tracks"][1]["data"]["interval"] = json!(0.25);
    let doc = AnimXDocument::from_dump(&dump).unwrap();
    assert!(doc.stored.is_some());
    let out = doc.to_bytes().unwrap();
    assert_ne!(out, bytes);
    assert_eq!(out, animbin_animx::to_bytes(&doc.animation).unwrap());
}

#[test]
fn a_bad_stored_member_names_it() {
    let mut dump = AnimXDocument::read(&foreign_lz4()).unwrap().to_dump();
    dump["stored"] = json!("not base64!");
    let err = AnimXDocument::from_dump(&dump).unwrap_err();
    assert!(err.to_string().contains("stored: a base64 string"), "{err}");
    dump["stored"] = json!(12);
    let err = serde_json::from_value::<AnimXDocument>(dump).unwrap_err();
    assert!(err.to_string().contains("stored: a base64 string, found 12"), "{err}");
}

#[test]
fn read_takes_animj_text_and_honours_the_decompression_limit() {
    let text = format!("\n  {}", animj::to_string(&sample(Encoding::Plain)).unwrap());
    let doc = AnimXDocument::read(text.as_bytes()).unwrap();
    assert_eq!(doc.animation, sample(Encoding::Plain));
    assert_eq!(doc.to_animj().unwrap(), animj::to_string(&doc.animation).unwrap());
    let lz4 = animbin_animx::to_bytes(&sample(Encoding::Lz4)).unwrap();
    let strict = ReadOptions {
        max_decompressed_size: 10,
    };
    assert!(AnimXDocument::read_with(&lz4, &strict).is_err());
    assert_eq!(
        AnimXDocument::from(sample(Encoding::Plain)).to_bytes().unwrap(),
        animbin_animx::to_bytes(&sample(Encoding::Plain)).unwrap()
    );
}

#[test]
fn animj_is_recognised_by_its_tracks() {
    let text = animj::to_string(&sample(Encoding::Plain)).unwrap();
    assert!(animj::is_animj(text.as_bytes()));
    assert!(animj::is_animj(br#" {"globalDuration": 0, "tracks": []}"#));
    for not in [
        &br#"{"tracks": []}"#[..],
        br#"{"tracks": [{"trackType": "Raw"}]}"#,
        br#"{"format": "animx", "data": {}}"#,
        br#"[{"tracks": []}]"#,
        br#"{"tracks": "#,
        b"\x05AnimX",
    ] {
        assert!(!animj::is_animj(not), "{}", String::from_utf8_lossy(not));
    }
    assert!(animj::is_animj_value(
        &json!({"tracks": [{"trackType": "Curve", "valueType": "float"}]})
    ));
    assert!(!animj::is_animj_value(&json!({"tracks": [{}], "globalDuration": 1})));
}
