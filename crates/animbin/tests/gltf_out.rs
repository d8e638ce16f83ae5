//! glTF out as a Blender user expects it: textures found beside the input are embedded,
//! animations are named after their files, a skeleton comes with a skin, an empty glTF is
//! refused, and SEAnim keeps its header (precision, kind, looping) through glTF and back.

use std::path::{Path, PathBuf};

use animbin::core::scene::{AnimKind, Precision};
use animbin::{AnimationSource, ConvertOptions, Document, Error, SceneOptions, Target};
use animbin_testing::gltf::PNG_1X1 as PNG;
use animbin_testing::gltf::{animation_names, image_named, strip_extras};
use serde_json::Value;

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
}

/// The glTF JSON of a converted document.
fn json_of(doc: &Document) -> Value {
    let bytes = doc.to_bytes(doc.own_target()).unwrap();
    animbin::gltf::split(&bytes).unwrap().0
}

fn seanim_of(doc: &Document) -> &animbin::seanim::SeAnim {
    match doc {
        Document::SeAnim(anim) => anim,
        other => panic!("an SEAnim, not {:?}", other.format()),
    }
}

#[test]
fn textures_beside_the_input_are_embedded_and_missing_ones_reported() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in/model.semodel");
    std::fs::create_dir_all(dir.path().join("in/_images")).unwrap();
    std::fs::copy(testdata("sample.semodel"), &input).unwrap();
    // sample.semodel's material "body" names body_c.png (diffuse) and body_n.png (normal).
    std::fs::write(dir.path().join("in/_images/body_c.png"), PNG).unwrap();
    let doc = Document::open(&input).unwrap();

    let glb = animbin::convert(&doc, Target::Glb, &ConvertOptions::for_input(&input)).unwrap();
    let json = json_of(glb.document());
    let diffuse = image_named(&json, "body_c.png");
    assert!(diffuse["bufferView"].is_u64(), "{diffuse}");
    assert_eq!(diffuse["mimeType"], "image/png");
    assert_eq!(image_named(&json, "body_n.png")["uri"], "body_n.png");
    // (The mesh's second material, one per UV layer, is the sample's other loss.)
    // A missing file is a note, not a loss of glTF's.
    assert_eq!(
        glb.report.notes,
        ["1 texture file(s) not found beside the input (\"body_n.png\"): named by URIs relative to the glTF file"]
    );
    assert_eq!(glb.report.lost.len(), 1, "{:?}", glb.report.lost);
    assert!(
        glb.lost_lines().contains(&glb.report.notes[0]),
        "{:?}",
        glb.lost_lines()
    );
    // The embedded bytes are the file's.
    let bytes = glb.to_bytes().unwrap();
    let (_, bin) = animbin::gltf::split(&bytes).unwrap();
    let view = &json["bufferViews"][diffuse["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    assert_eq!(&bin.unwrap()[start..start + PNG.len()], &PNG[..]);
    // Read back, the material keeps its map names and no texture is added to the model.
    let scene = |doc: &Document| doc.to_scene(&SceneOptions::default(), &mut Default::default()).unwrap();
    let back = scene(&Document::parse(&bytes, None).unwrap());
    assert_eq!(back.materials, scene(&doc).materials);
    assert_eq!(back.textures, []);

    // A texture found in textures/ that glTF cannot embed (a DDS) is referred to by a URI
    // relative to where the output goes; without an input path nothing is looked for.
    std::fs::create_dir_all(dir.path().join("in/textures")).unwrap();
    std::fs::write(dir.path().join("in/textures/body_n.png"), b"DDS \x7c\0\0\0").unwrap();
    std::fs::create_dir_all(dir.path().join("out")).unwrap();
    let options = ConvertOptions {
        output_dir: Some(dir.path().join("out")),
        ..ConvertOptions::for_input(&input)
    };
    let gltf = animbin::convert(&doc, Target::Gltf, &options).unwrap();
    let json = json_of(gltf.document());
    assert_eq!(image_named(&json, "body_n.png")["uri"], "../in/textures/body_n.png");
    assert!(
        gltf.report.lost[0].contains("neither PNG nor JPEG (\"body_n.png\")"),
        "{:?}",
        gltf.report.lost
    );
    let plain = animbin::convert(&doc, Target::Glb, &ConvertOptions::default()).unwrap();
    assert!(
        !plain.report.lost.iter().any(|l| l.contains("texture")),
        "{:?}",
        plain.report.lost
    );
    assert!(
        json_of(plain.document())["images"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["uri"].is_string())
    );
}

/// The sample model and two SEAnim files in `dir`, `walk.seanim` and `run.seanim` (copies
/// of the samples), with the options that join them to the model (named by their paths).
fn model_with_walk_and_run(dir: &Path) -> (Document, ConvertOptions, [PathBuf; 2]) {
    let (walk, run) = (dir.join("walk.seanim"), dir.join("run.seanim"));
    std::fs::copy(testdata("sample.seanim"), &walk).unwrap();
    std::fs::copy(testdata("sample_every_block.seanim"), &run).unwrap();
    let model = Document::open(testdata("sample.semodel")).unwrap();
    let options = ConvertOptions {
        anims: [&walk, &run]
            .map(|path| AnimationSource {
                name: path.display().to_string(),
                document: Document::open(path).unwrap(),
            })
            .to_vec(),
        ..ConvertOptions::for_input(testdata("sample.semodel"))
    };
    (model, options, [walk, run])
}

#[test]
fn animations_are_named_after_their_files_where_the_format_stores_no_name() {
    let dir = tempfile::tempdir().unwrap();
    let (model, options, [walk, _]) = model_with_walk_and_run(dir.path());
    let glb = animbin::convert(&model, Target::Glb, &options).unwrap();
    let json = json_of(glb.document());
    assert_eq!(animation_names(&json), ["walk", "run"]);
    // An SEAnim alone takes its own file's stem; a format's own names stay.
    let alone = Document::open(&walk).unwrap();
    let glb = animbin::convert(&alone, Target::Glb, &ConvertOptions::for_input(&walk)).unwrap();
    assert_eq!(json_of(glb.document())["animations"][0]["name"], "walk");
    let sf3 = Document::open(testdata("x8an00.bin")).unwrap();
    let glb = animbin::convert(&sf3, Target::Glb, &ConvertOptions::for_input(testdata("x8an00.bin"))).unwrap();
    assert_eq!(json_of(glb.document())["animations"][0]["name"], "segment0");
    // Targets that store no names are not given any (nothing to report as lost).
    let seanim = animbin::convert(&model, Target::SeAnim, &options).unwrap();
    assert!(
        !seanim.report.lost.iter().any(|l| l.contains("the animation's name")),
        "{:?}",
        seanim.report.lost
    );
}

#[test]
fn one_animation_is_picked_by_name_or_each_converted_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (model, mut options, [walk, run]) = model_with_walk_and_run(dir.path());
    let glb = animbin::convert(&model, Target::Glb, &options).unwrap();

    // From the glTF (two animations) to SEAnim (one): by name, the file's own header back.
    let both = Document::parse(&glb.to_bytes().unwrap(), None).unwrap();
    let pick = |name: &str| ConvertOptions {
        animation: Some(name.into()),
        ..ConvertOptions::default()
    };
    let run_back = animbin::convert(&both, Target::SeAnim, &pick("run")).unwrap();
    let original = Document::open(&run).unwrap();
    let (a, b) = (seanim_of(run_back.document()), seanim_of(&original));
    assert_eq!(a.framerate, b.framerate);
    assert_eq!(a.anim_type, b.anim_type);
    assert_eq!(a.bones.len(), b.bones.len());
    let err = animbin::convert(&both, Target::SeAnim, &pick("jump")).unwrap_err();
    assert!(matches!(err, Error::NoSuchAnimation { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "no animation is called \"jump\"; the input holds \"walk\", \"run\""
    );

    // --split: one conversion per animation, each named after it.
    let split = animbin::convert_split(&both, Target::SeAnim, &ConvertOptions::default()).unwrap();
    let names: Vec<&str> = split.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["walk", "run"]);
    let walk_back = seanim_of(split[0].1.document());
    assert_eq!(
        walk_back.bones.len(),
        seanim_of(&Document::open(&walk).unwrap()).bones.len()
    );
    // Straight from the model and its joined files too, each with the model.
    options.animation = None;
    let split = animbin::convert_split(&model, Target::Glb, &options).unwrap();
    assert_eq!(split.len(), 2);
    for (name, conversion) in &split {
        let json = json_of(conversion.document());
        assert_eq!(json["animations"].as_array().unwrap().len(), 1);
        assert_eq!(json["animations"][0]["name"], name.as_str());
        assert_eq!(json["meshes"].as_array().unwrap().len(), 1);
    }
    let err = animbin::convert_split(&model, Target::SeAnim, &ConvertOptions::default()).unwrap_err();
    assert!(matches!(err, Error::NothingToWrite { .. }), "{err}");
}

#[test]
fn a_skeleton_without_meshes_has_a_skin_and_an_empty_gltf_is_refused() {
    let skeleton = Document::open(testdata("skeleton.semodel")).unwrap();
    let glb = animbin::convert(&skeleton, Target::Glb, &ConvertOptions::default()).unwrap();
    let json = json_of(glb.document());
    assert_eq!(json.get("meshes"), None);
    assert_eq!(json["skins"].as_array().unwrap().len(), 1);
    assert_eq!(json["skins"][0]["joints"], serde_json::json!([0, 1]));
    // An animation alone: its nodes are the skin's joints, under one common root.
    let anim = Document::open(testdata("sample.seanim")).unwrap();
    let json = json_of(
        animbin::convert(&anim, Target::Glb, &ConvertOptions::default())
            .unwrap()
            .document(),
    );
    let joints = json["skins"][0]["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 2);
    let root = json["skins"][0]["skeleton"].as_u64().unwrap() as usize;
    assert_eq!(json["nodes"][root]["name"], "animbin_root");

    // Two segments, one slot, no keys: a test fixture, not a sample.
    let empty = Document::open(testdata("../tests/fixtures/x8an02.bin")).unwrap();
    let err = animbin::convert(&empty, Target::Glb, &ConvertOptions::default()).unwrap_err();
    assert!(matches!(err, Error::NothingToWrite { .. }), "{err}");
    let allowed = ConvertOptions {
        allow_empty: true,
        ..ConvertOptions::default()
    };
    assert!(animbin::convert(&empty, Target::Glb, &allowed).is_ok());
}

#[test]
fn seanim_through_gltf_keeps_its_precision() {
    // Single precision, relative keys played over the model's bind pose: the glTF holds
    // rest + key in f32, and reading back takes the rest off and rounds to f32 again.
    let model = Document::open(testdata("sample.semodel")).unwrap();
    let anim = Document::open(testdata("sample.seanim")).unwrap();
    let options = ConvertOptions {
        anims: vec![AnimationSource {
            name: "sample.seanim".into(),
            document: anim.clone(),
        }],
        ..ConvertOptions::default()
    };
    let glb = animbin::convert(&model, Target::Glb, &options).unwrap();
    let json = json_of(glb.document());
    assert_eq!(json["animations"][0]["extras"]["animbin"]["precision"], "single");
    let back = Document::parse(&glb.to_bytes().unwrap(), None).unwrap();
    let seanim = animbin::convert(&back, Target::SeAnim, &ConvertOptions::default()).unwrap();
    let (a, b) = (seanim_of(seanim.document()), seanim_of(&anim));
    assert_eq!(a.precision(), animbin::seanim::Precision::Single);
    assert_eq!(a.bones, b.bones);

    // Double precision: the glTF holds f32 (said), and --precision double writes double.
    let every = Document::open(testdata("sample_every_block.seanim")).unwrap();
    let glb = animbin::convert(&every, Target::Glb, &ConvertOptions::default()).unwrap();
    assert!(
        glb.report.lost.iter().any(|l| l.contains("beyond single precision")),
        "{:?}",
        glb.report.lost
    );
    let back = Document::parse(&glb.to_bytes().unwrap(), None).unwrap();
    let double = ConvertOptions {
        scene: SceneOptions {
            precision: Some(Precision::Double),
            ..SceneOptions::default()
        },
        ..ConvertOptions::default()
    };
    let seanim = animbin::convert(&back, Target::SeAnim, &double).unwrap();
    assert_eq!(
        seanim_of(seanim.document()).precision(),
        animbin::seanim::Precision::Double
    );
}

#[test]
fn a_gltf_from_another_tool_takes_the_seanim_header_from_the_options() {
    // What Blender exports: the same glTF without animbin's extras.
    let anim = Document::open(testdata("sample.seanim")).unwrap();
    let glb = animbin::convert(&anim, Target::Gltf, &ConvertOptions::default()).unwrap();
    let mut json = json_of(glb.document());
    strip_extras(&mut json);
    let foreign = Document::parse(&serde_json::to_vec(&json).unwrap(), None).unwrap();

    let plain = animbin::convert(&foreign, Target::SeAnim, &ConvertOptions::default()).unwrap();
    let file = seanim_of(plain.document());
    assert_eq!(file.anim_type, animbin::seanim::AnimType::Absolute);
    assert!(!file.looped());
    assert_eq!(file.framerate, 30.0);

    let options = ConvertOptions {
        scene: SceneOptions {
            framerate: Some(15.0),
            anim_kind: Some(AnimKind::Relative),
            looping: Some(true),
            precision: Some(Precision::Double),
            ..SceneOptions::default()
        },
        ..ConvertOptions::default()
    };
    let asked = animbin::convert(&foreign, Target::SeAnim, &options).unwrap();
    let file = seanim_of(asked.document());
    assert_eq!(file.anim_type, animbin::seanim::AnimType::Relative);
    assert!(file.looped());
    assert_eq!(file.framerate, 15.0);
    assert_eq!(file.precision(), animbin::seanim::Precision::Double);
    // The keys are read at the rate given: frame n at 30 fps is frame n / 2 at 15.
    let original = seanim_of(&anim);
    let last = |a: &animbin::seanim::SeAnim| a.bones[0].location.last().map(|k| k.frame);
    assert_eq!(last(file).map(|f| f * 2), last(original));
}

#[test]
fn header_options_rewrite_an_seanim_into_an_seanim() {
    let anim = Document::open(testdata("sample.seanim")).unwrap();
    // As it is: the same bytes.
    let same = animbin::convert(&anim, Target::SeAnim, &ConvertOptions::default()).unwrap();
    assert_eq!(
        same.to_bytes().unwrap(),
        std::fs::read(testdata("sample.seanim")).unwrap()
    );
    let options = ConvertOptions {
        scene: SceneOptions {
            precision: Some(Precision::Double),
            looping: Some(false),
            ..SceneOptions::default()
        },
        ..ConvertOptions::default()
    };
    let changed = animbin::convert(&anim, Target::SeAnim, &options).unwrap();
    let file = seanim_of(changed.document());
    assert_eq!(file.precision(), animbin::seanim::Precision::Double);
    assert!(!file.looped());
    assert_eq!(file.bones, seanim_of(&anim).bones);
}
