//! The library's one door: every testdata file opens, summarises, dumps, converts and saves
//! through `animbin` alone.

use std::path::{Path, PathBuf};

use animbin::{
    AnimationSource, ConvertOptions, Document, Error, Format, Info, Location, SceneOptions, Severity, Target,
};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// Every testdata file with the format it holds, judged by its name.
fn samples() -> Vec<(PathBuf, Format)> {
    let mut files: Vec<(PathBuf, Format)> = std::fs::read_dir(testdata())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            let format = match name.rsplit('.').next().unwrap() {
                "seanim" => Format::SeAnim,
                "semodel" => Format::SeModel,
                "animx" | "animj" => Format::AnimX,
                "bin" => Format::Sf3,
                "dmf" | "json" => Format::Dmf,
                "cast" => Format::Cast,
                other => panic!("a testdata file of unknown kind: {other}"),
            };
            (path, format)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(files.len() >= 10, "{files:?}");
    files
}

#[test]
fn every_testdata_file_opens_as_its_format_from_a_path_or_bytes() {
    for (path, format) in samples() {
        let opened = Document::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(opened.format(), format, "{}", path.display());
        let bytes = std::fs::read(&path).unwrap();
        let parsed = Document::parse(&bytes, Some(&path)).unwrap();
        assert_eq!(parsed.info(), opened.info(), "{}", path.display());
        // The summary is one JSON object whose `format` names the format.
        let info = serde_json::to_value(opened.info()).unwrap();
        assert_eq!(info["format"], format.name(), "{}", path.display());
        // Valid samples have no problem of either severity.
        assert_eq!(opened.validate(), [], "{}", path.display());
    }
}

#[test]
fn a_document_written_as_its_own_target_gives_back_its_bytes() {
    for (path, _) in samples() {
        let doc = Document::open(&path).unwrap();
        let conversion = animbin::convert(&doc, doc.own_target(), &ConvertOptions::default()).unwrap();
        assert!(conversion.is_lossless());
        let bytes = std::fs::read(&path).unwrap();
        // The JSON forms (AnimJ, DMF JSON) are read into the binary format's document.
        if !path.extension().is_some_and(|e| e == "animj" || e == "json") {
            assert_eq!(conversion.to_bytes().unwrap(), bytes, "{}", path.display());
        }
    }
}

#[test]
fn every_dump_reads_back_to_the_same_bytes() {
    for (path, _) in samples() {
        let doc = Document::open(&path).unwrap();
        let mut dump = Vec::new();
        doc.dump(&mut dump).unwrap();
        let back = Document::undump(&dump).unwrap();
        assert_eq!(back.format(), doc.format());
        let own = doc.own_target();
        assert_eq!(
            back.to_bytes(own).unwrap(),
            doc.to_bytes(own).unwrap(),
            "{}",
            path.display()
        );
        // A dump is also what `parse` recognises among JSON inputs. It reads into AnimX's
        // binary form whatever form its document was in (`AnimXDocument::form`), so an
        // AnimJ file's dump summarises as AnimX.
        let mut expected = doc.info();
        if let animbin::Info::AnimX(summary) = &mut expected {
            summary.form = "animx".into();
        }
        assert_eq!(Document::parse(&dump, None).unwrap().info(), expected);
    }
}

#[test]
fn json_inputs_are_told_apart() {
    let animj = std::fs::read(testdata().join("sample.animj")).unwrap();
    assert_eq!(Document::parse(&animj, None).unwrap().format(), Format::AnimX);
    let dmf_json = std::fs::read(testdata().join("sample.dmf.json")).unwrap();
    assert_eq!(Document::parse(&dmf_json, None).unwrap().format(), Format::Dmf);
    let seanim = Document::open(testdata().join("sample.seanim")).unwrap();
    let gltf = animbin::convert(&seanim, Target::Gltf, &ConvertOptions::default())
        .unwrap()
        .to_bytes()
        .unwrap();
    assert_eq!(Document::parse(&gltf, None).unwrap().format(), Format::Gltf);
    let err = Document::parse(br#"{"tracks": 3, "colour": "blue"}"#, None).unwrap_err();
    assert!(matches!(err, Error::UnknownJson), "{err}");
    let err = Document::parse(b"{ not json", None).unwrap_err();
    assert!(matches!(err, Error::Json { line: 1, .. }), "{err}");
}

#[test]
fn x8an_files_need_their_name_or_the_format() {
    let bytes = std::fs::read(testdata().join("x8an00.bin")).unwrap();
    let err = Document::parse(&bytes, None).unwrap_err();
    assert!(matches!(err, Error::UnknownFormat { .. }), "{err}");
    assert_eq!(err.offset(), Some(0));
    assert!(err.to_string().contains("x8an*.bin"), "{err}");
    let named = Document::parse(&bytes, Some(Path::new("dir/X8AN07.BIN"))).unwrap();
    let forced = Document::parse_as(&bytes, None, Some(Format::Sf3)).unwrap();
    assert_eq!(named.info(), forced.info());
}

#[test]
fn an_empty_input_is_its_own_error() {
    let err = Document::parse(b"", Some(Path::new("x8an00.bin"))).unwrap_err();
    assert!(matches!(err, Error::Empty));
    assert_eq!(err.to_string(), "the file is empty (0 bytes)");
    let err = Document::parse(b"\x00\x01\x02", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown format at byte 0 (the file starts with 0x000102; no known magic); x8an files are recognised by the name x8an*.bin or read with the format sf3"
    );
}

#[test]
fn targets_that_can_hold_nothing_of_the_input_are_refused() {
    let model = Document::open(testdata().join("sample.semodel")).unwrap();
    let anim = Document::open(testdata().join("sample.seanim")).unwrap();
    for (doc, target) in [
        (&model, Target::SeAnim),
        (&model, Target::AnimX),
        (&model, Target::Sf3),
        (&anim, Target::SeModel),
    ] {
        let err = animbin::convert(doc, target, &ConvertOptions::default()).unwrap_err();
        assert!(
            matches!(err, Error::NothingToWrite { target: t, .. } if t == target),
            "{target}: {err}"
        );
    }
    // The same model with an animation joined converts to SEAnim.
    let options = ConvertOptions {
        anims: vec![AnimationSource {
            name: "sample.seanim".into(),
            document: anim.clone(),
        }],
        ..ConvertOptions::default()
    };
    let conversion = animbin::convert(&model, Target::SeAnim, &options).unwrap();
    assert_eq!(conversion.document().format(), Format::SeAnim);
}

#[test]
fn joined_animations_report_tracks_for_missing_bones_and_strict_refuses_them() {
    let model = Document::open(testdata().join("sample.dmf")).unwrap();
    let animx = Document::open(testdata().join("sample.animx")).unwrap();
    let source = AnimationSource {
        name: "sample.animx".into(),
        document: animx,
    };
    let mut options = ConvertOptions {
        anims: vec![source],
        ..ConvertOptions::default()
    };
    let conversion = animbin::convert(&model, Target::Glb, &options).unwrap();
    assert_eq!(conversion.unmatched.len(), 1, "{:?}", conversion.unmatched);
    let unmatched = &conversion.unmatched[0];
    assert_eq!(unmatched.source, "sample.animx");
    assert!(!unmatched.bones.is_empty());
    assert!(unmatched.to_string().contains("name bones the input does not have"));
    options.strict = true;
    let err = animbin::convert(&model, Target::Glb, &options).unwrap_err();
    let Error::Lossy { lost } = err else { panic!("{err}") };
    assert!(
        lost.iter().any(|l| l.starts_with("sample.animx: animation")),
        "{lost:?}"
    );
    // A source without animations is an error naming it.
    options.anims[0].document = Document::open(testdata().join("skeleton.semodel")).unwrap();
    let err = animbin::convert(&model, Target::Glb, &options).unwrap_err();
    assert_eq!(err.to_string(), "sample.animx: holds no animation");
}

#[test]
fn validate_gives_each_problem_a_severity_and_a_place() {
    let mut doc = Document::open(testdata().join("sample.seanim")).unwrap();
    let Document::SeAnim(anim) = &mut doc else {
        panic!("an SEAnim")
    };
    anim.modifiers.push(animbin::seanim::Modifier {
        bone: 200,
        anim_type: animbin::seanim::AnimType::Delta,
    });
    let problems = doc.validate();
    let last = problems.last().expect("a problem");
    assert_eq!(last.severity, Severity::Error);
    assert!(
        matches!(&last.location, Location::Item(item) if item.starts_with("bone modifier")),
        "{last}"
    );
    assert!(last.to_string().contains("names bone 200"), "{last}");
}

#[test]
fn save_writes_whole_or_leaves_what_was_there() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.seanim");
    std::fs::write(&path, b"old").unwrap();
    let err = animbin::save(&path, |w| {
        w.write_all(b"half of a file").map_err(Error::Write)?;
        Err(Error::Empty)
    })
    .unwrap_err();
    assert!(matches!(err, Error::Empty));
    assert_eq!(std::fs::read(&path).unwrap(), b"old");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    animbin::save(&path, |w| w.write_all(b"new").map_err(Error::Write)).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    assert!(animbin::is_same_file(&path, dir.path().join(".").join("out.seanim")));
    assert!(!animbin::is_same_file(&path, dir.path().join("missing")));
}

#[test]
fn scene_options_reach_the_formats_that_use_them() {
    let sf3 = Document::open(testdata().join("x8an00.bin")).unwrap();
    let at = |framerate| {
        let options = SceneOptions {
            framerate,
            ..SceneOptions::default()
        };
        sf3.to_scene(&options, &mut animbin::ConversionReport::default())
            .unwrap()
            .animations[0]
            .framerate
    };
    assert_eq!(at(None), 30.0);
    assert_eq!(at(Some(24.0)), 24.0);
}

#[test]
fn info_is_typed_per_format() {
    let Info::SeModel(info) = Document::open(testdata().join("sample.semodel")).unwrap().info() else {
        panic!("an SEModel summary")
    };
    assert_eq!(info.layout, "deployed");
    assert!(info.vertex_count > 0 && info.mesh_count > 0);
}

#[test]
fn info_from_a_view_is_the_info_of_the_document() {
    for (path, _) in samples() {
        let bytes = std::fs::read(&path).unwrap();
        let document = Document::parse(&bytes, Some(&path)).unwrap();
        assert_eq!(
            Document::info_of(&bytes, Some(&path), None).unwrap(),
            document.info(),
            "{}",
            path.display()
        );
        assert_eq!(Document::info_of_file(&path, None).unwrap(), document.info());
        // Every prefix reads both ways or neither, with the same summary (the views accept
        // exactly what the readers do; a view may stop at the start of a record where the
        // reader stops inside it, so the offsets of the errors may differ).
        for len in 0..bytes.len() {
            let quick = Document::info_of(&bytes[..len], Some(&path), None).ok();
            let full = Document::parse(&bytes[..len], Some(&path)).ok().map(|d| d.info());
            assert_eq!(quick, full, "{} cut to {len} bytes", path.display());
        }
    }
}

#[test]
fn a_glb_with_more_than_two_chunks_dumps_as_its_bytes() {
    let seanim = Document::open(testdata().join("sample.seanim")).unwrap();
    let glb = animbin::convert(&seanim, Target::Glb, &ConvertOptions::default())
        .unwrap()
        .to_bytes()
        .unwrap();
    // Bytes past the header's length and a chunk of an unknown type: readers skip both, and
    // a dump must keep them.
    let past_the_end = [glb.clone(), b"tail".to_vec()].concat();
    let mut unknown_chunk = glb.clone();
    unknown_chunk.extend_from_slice(&4u32.to_le_bytes());
    unknown_chunk.extend_from_slice(b"XTRA1234");
    let total = unknown_chunk.len() as u32;
    unknown_chunk[8..12].copy_from_slice(&total.to_le_bytes());
    // Four tabs after the JSON: the laid-out text travels as `json_text`, no bytes needed.
    let json_end = 20 + u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut tab_padded = [&glb[..json_end], b"\t\t\t\t", &glb[json_end..]].concat();
    for (at, grow) in [(8, 4), (12, 4)] {
        let field = u32::from_le_bytes(tab_padded[at..at + 4].try_into().unwrap()) + grow;
        tab_padded[at..at + 4].copy_from_slice(&field.to_le_bytes());
    }
    let json_text_form = tab_padded.clone();
    for bytes in [past_the_end, unknown_chunk, tab_padded] {
        let doc = Document::parse(&bytes, None).unwrap();
        let mut dump = Vec::new();
        doc.dump(&mut dump).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&dump).unwrap();
        let back = Document::undump(&dump).unwrap();
        assert_eq!(back.to_bytes(Target::Glb).unwrap(), bytes, "{value}");
        let whole = value["data"]["base64"].is_string();
        assert_eq!(whole, bytes != json_text_form, "{value}");
    }
}

#[test]
fn a_dmf_summary_refuses_the_enum_values_the_reader_refuses() {
    let bytes = std::fs::read(testdata().join("sample.dmf")).unwrap();
    for (at, broken) in animbin_testing::dmf::enum_corruptions(&bytes) {
        let full = Document::parse(&broken, None).unwrap_err();
        let quick = Document::info_of(&broken, None, None).unwrap_err();
        assert_eq!(quick.to_string(), full.to_string());
        assert!(
            full.to_string().contains(&format!("{at:#x}")) || full.to_string().contains(&at.to_string()),
            "{full}"
        );
    }
}
