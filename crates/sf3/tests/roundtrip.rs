//! Property tests: model -> bytes -> model, canonical bytes -> model -> bytes, and the
//! trips through the scene model.

use animbin_core::scene::{Animation, BoneTrack, Key as SceneKey, Scene};
use animbin_core::{ConversionReport, Fixed16, Quat, Rot14, Vec3};
use animbin_sf3::{Ending, FileFormat, Key, SceneOptions, Segment, Sf3File, Slot, read, to_bytes};
use proptest::prelude::*;

fn fixed3() -> impl Strategy<Value = Vec3<Fixed16>> {
    (any::<i32>(), any::<i32>(), any::<i32>()).prop_map(|(x, y, z)| Vec3::new(Fixed16(x), Fixed16(y), Fixed16(z)))
}

fn rot4() -> impl Strategy<Value = Quat<Rot14>> {
    any::<[i16; 4]>().prop_map(|[x, y, z, w]| Quat::new(Rot14(x), Rot14(y), Rot14(z), Rot14(w)))
}

fn slot() -> impl Strategy<Value = Slot> {
    (
        prop::collection::vec((any::<u16>(), fixed3()), 0..6),
        prop::collection::vec((any::<u16>(), rot4()), 0..8),
        prop::collection::vec((any::<u16>(), fixed3()), 0..3),
    )
        .prop_map(|(t, r, s)| Slot {
            translation: t.into_iter().map(|(t, v)| Key::new(t, v)).collect(),
            rotation: r.into_iter().map(|(t, v)| Key::new(t, v)).collect(),
            scale: s.into_iter().map(|(t, v)| Key::new(t, v)).collect(),
        })
}

fn segment() -> impl Strategy<Value = Segment> {
    (0u32..3, prop::collection::vec(slot(), 0..5)).prop_map(|(padding_words, slots)| Segment { padding_words, slots })
}

fn file() -> impl Strategy<Value = Sf3File> {
    (
        prop::collection::vec(segment(), 1..4),
        0u32..3,
        prop::option::of(prop::collection::vec(any::<u8>(), 0..6)),
    )
        .prop_map(|(segments, padding_words, trailing)| Sf3File {
            segments,
            padding_words,
            ending: trailing.map_or(Ending::Eof, |trailing| Ending::EndMarker { trailing }),
        })
}

/// A scene that an x8an file can hold exactly: whole-tick frames, values on the fixed-point
/// grids, numbered names, no padding.
fn exact_scene() -> impl Strategy<Value = Scene> {
    file().prop_map(|mut f| {
        f.padding_words = 0;
        f.ending = Ending::Eof;
        f.segments.iter_mut().for_each(|s| s.padding_words = 0);
        f.to_scene(&SceneOptions::default(), &mut ConversionReport::default())
            .unwrap()
    })
}

proptest! {
    #[test]
    fn model_to_bytes_to_model_is_identity(f in file()) {
        let bytes = to_bytes(&f).unwrap();
        prop_assert_eq!(&read(&bytes).unwrap(), &f);
        // The streaming writer writes the same bytes, one segment at a time.
        let mut streamed = Vec::new();
        animbin_sf3::write(&f, &mut streamed).unwrap();
        prop_assert_eq!(streamed, bytes);
    }

    #[test]
    fn canonical_bytes_to_model_to_bytes_is_identity(f in file()) {
        let bytes = to_bytes(&f).unwrap();
        let again = to_bytes(&read(&bytes).unwrap()).unwrap();
        prop_assert_eq!(again, bytes);
    }

    #[test]
    fn file_to_scene_to_file_keeps_everything_but_padding(f in file()) {
        let scene = f.to_scene(&SceneOptions::default(), &mut ConversionReport::default()).unwrap();
        let mut report = ConversionReport::default();
        let back = Sf3File::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        let mut expected = f;
        expected.padding_words = 0;
        expected.ending = Ending::Eof;
        expected.segments.iter_mut().for_each(|s| s.padding_words = 0);
        prop_assert_eq!(back, expected);
    }

    #[test]
    fn scene_to_file_to_scene_is_identity(scene in exact_scene(), rate in prop::sample::select(vec![24.0, 30.0, 60.0])) {
        let options = SceneOptions { framerate: Some(rate), ..SceneOptions::default() };
        let mut scene = scene;
        scene.animations.iter_mut().for_each(|a| a.framerate = rate);
        let mut report = ConversionReport::default();
        let file = Sf3File::from_scene(&scene, &options, &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        prop_assert_eq!(file.to_scene(&options, &mut ConversionReport::default()).unwrap(), scene);
    }

    #[test]
    fn any_bytes_read_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        // The count-only walk accepts exactly what `read` does.
        let summary = animbin_sf3::Summary::parse(&bytes);
        prop_assert_eq!(summary.is_ok(), read(&bytes).is_ok());
        if let Ok(f) = read(&bytes) {
            prop_assert_eq!(summary.unwrap(), f.summary());
            let canonical = to_bytes(&f).unwrap();
            prop_assert_eq!(read(&canonical).unwrap(), f);
        }
    }
}

#[test]
fn rescaling_frames_between_rates_rounds_and_reports() {
    let track = BoneTrack {
        bone: "slot0".into(),
        translation: vec![
            SceneKey::new(4.0, Vec3::new(0.0, 0.0, 0.0)),
            SceneKey::new(5.0, Vec3::ZERO),
        ]
        .into(),
        ..BoneTrack::default()
    };
    let scene = Scene {
        animations: vec![Animation {
            name: "segment0".into(),
            framerate: 60.0,
            frame_count: 6.0,
            bones: vec![track],
            ..Animation::default()
        }],
        ..Scene::default()
    };
    let mut report = ConversionReport::default();
    let file = Sf3File::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
    let times: Vec<u16> = file.segments[0].slots[0].translation.iter().map(|k| k.time).collect();
    assert_eq!(times, [2, 3]); // 4/60 s = 2 ticks at 30; 5/60 s = 2.5 ticks, rounded up
    assert_eq!(report.lost, ["key times between whole ticks (rounded)"]);
}
