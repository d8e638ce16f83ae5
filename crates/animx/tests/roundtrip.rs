//! Property tests: model -> bytes -> model, bytes -> model -> bytes, AnimJ and the view.

mod common;

use animbin_animx::{
    AnimXDocument, AnimXFile, Animation, RawTrack, RawValues, ReadOptions, SceneOptions, Track, TrackData, ValueType,
    Values, View, animj,
};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn model_bytes_model_in_every_encoding(anim in common::animation()) {
        let bytes = animbin_animx::to_bytes(&anim).unwrap();
        let back = animbin_animx::read(&bytes).unwrap();
        prop_assert_eq!(&back, &anim);
        // The canonical bytes come back unchanged through the model.
        prop_assert_eq!(animbin_animx::to_bytes(&back).unwrap(), bytes.clone());
        // And the stored form keeps compressed bytes as they are.
        let file = AnimXFile::read(&bytes).unwrap();
        prop_assert_eq!(file.to_bytes().unwrap(), bytes.clone());
        let kept = back.encode_keeping(&file, &ReadOptions::default()).unwrap();
        prop_assert_eq!(kept, file);
    }

    #[test]
    fn every_value_type_and_kind_round_trips(kind in 0u8..3, vt in common::value_type(), anim in common::animation()) {
        let tracks = (0..3usize).map(|n| {
            let mut runner = proptest::test_runner::TestRunner::deterministic();
            common::track(kind, vt, n * 2, anim.global_duration).new_tree(&mut runner).unwrap().current()
        });
        let anim = Animation { version: 1, tracks: tracks.collect(), ..anim };
        let bytes = animbin_animx::to_bytes(&anim).unwrap();
        prop_assert_eq!(animbin_animx::read(&bytes).unwrap(), anim);
    }

    #[test]
    fn animj_round_trips_both_ways(anim in common::animation()) {
        let text = animj::to_string(&anim).unwrap();
        let back = animj::from_str(&text).unwrap();
        prop_assert_eq!(&back, &anim);
        prop_assert_eq!(animj::to_string(&back).unwrap(), text);
    }

    #[test]
    fn the_dump_streams_back_to_the_same_bytes(anim in common::animation(), f32_bits in any::<u32>(), f64_bits in any::<u64>()) {
        // Every bit pattern of a NaN as well, which only the dump's float text keeps.
        let nan32 = f32::from_bits(f32_bits | 0x7f80_0000 | u32::from(f32_bits & 0x007f_ffff == 0));
        let nan64 = f64::from_bits(f64_bits | 0x7ff0_0000_0000_0000 | u64::from(f64_bits & 0x000f_ffff_ffff_ffff == 0));
        let mut anim = anim;
        anim.tracks.push(Track {
            node: "n".into(),
            property: "p".into(),
            data: TrackData::Raw(RawTrack { interval: nan32, values: Values::Double(vec![nan64, 1.5]) }),
        });
        let bytes = animbin_animx::to_bytes(&anim).unwrap();
        let doc = AnimXDocument::read(&bytes).unwrap();
        // Written as it streams, read as it streams.
        let text = serde_json::to_vec(&doc).unwrap();
        let back: AnimXDocument = serde_json::from_slice(&text).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes.clone());
        // The same through a JSON value (members in name order, so each track's data comes
        // before its types: the order of earlier dumps), and through a reader.
        let value = doc.to_dump();
        let old_order = serde_json::to_vec(&value).unwrap();
        let back: AnimXDocument = serde_json::from_slice(&old_order).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes.clone());
        prop_assert_eq!(AnimXDocument::from_dump(&value).unwrap().to_bytes().unwrap(), bytes.clone());
        let back: AnimXDocument = serde_json::from_reader(&text[..]).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
        // The value and the streamed text are the same JSON.
        prop_assert_eq!(serde_json::from_slice::<serde_json::Value>(&text).unwrap(), value);
    }

    #[test]
    fn view_matches_the_decoded_model(anim in common::animation()) {
        let anim = Animation { encoding: animbin_animx::Encoding::Plain, ..anim };
        let bytes = animbin_animx::to_bytes(&anim).unwrap();
        let view = View::parse(&bytes).unwrap();
        prop_assert_eq!(view.tracks.len(), anim.tracks.len());
        for (tv, track) in view.tracks.iter().zip(&anim.tracks) {
            prop_assert_eq!(tv.node, track.node.as_str());
            prop_assert_eq!(tv.property, track.property.as_str());
            prop_assert_eq!(tv.value_type, track.value_type());
            prop_assert_eq!(tv.keyframe_count as usize, track.keyframe_count());
            prop_assert_eq!(&tv.decode(&view.header).unwrap(), track);
            if let TrackData::Raw(raw) = &track.data {
                prop_assert_eq!(tv.interval(), Some(raw.interval));
                let borrowed = tv.raw_values();
                prop_assert_eq!(borrowed.is_some(), track.value_type() != ValueType::String);
                if let (Some(RawValues::Float3(slice)), Values::Float3(owned)) = (borrowed, &raw.values) {
                    let native: Vec<_> = slice.iter().map(|v| v.native()).collect();
                    prop_assert_eq!(&native, owned);
                }
                if let (Some(RawValues::Double4x4(slice)), Values::Double4x4(owned)) = (borrowed, &raw.values) {
                    let native: Vec<_> = slice.iter().map(|m| m.rows.map(|r| r.map(|c| c.get()))).collect();
                    let owned: Vec<_> = owned.iter().map(|m| m.rows).collect();
                    prop_assert_eq!(native, owned);
                }
            }
        }
    }

    #[test]
    fn scene_round_trip_keeps_every_track(anim in common::animation()) {
        let anim = Animation { version: 1, encoding: animbin_animx::Encoding::Plain, ..anim };
        let mut report = animbin_core::ConversionReport::default();
        let scene = anim.to_scene(&SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        let back = Animation::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        prop_assert_eq!(back.global_duration.to_bits(), anim.global_duration.to_bits());
        let key = |t: &animbin_animx::Track| format!("{t:?}");
        let mut expected: Vec<_> = anim.tracks.iter().map(key).collect();
        let mut got: Vec<_> = back.tracks.iter().map(key).collect();
        expected.sort();
        got.sort();
        prop_assert_eq!(got, expected);
    }
}
