//! Which AnimX tracks become bone channels of the scene: the first usable curve of a node and
//! channel claims it, by name, whatever the number of tracks, and the scene gives every
//! track back (channels or property tracks) in the same order for any number of threads.

use animbin_animx::{
    Animation, CurveTrack, Interpolation, Interpolations, Keyframes, Quat, Track, TrackData, Values, Vec3,
};
use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

fn curve(node: &str, property: &str, times: &[f32], values: Values, interpolation: Interpolation) -> Track {
    Track {
        node: node.into(),
        property: property.into(),
        data: TrackData::Curve(CurveTrack {
            interpolation: Interpolations::Shared(interpolation),
            keyframes: Keyframes {
                times: times.to_vec(),
                values,
            },
            tangents: None,
        }),
    }
}

fn vectors(n: usize, x: f32) -> Values {
    Values::Float3((0..n).map(|i| Vec3::new(x, i as f32, 0.5)).collect())
}

fn scene_of(tracks: Vec<Track>) -> Scene {
    let animation = Animation {
        name: "a".into(),
        global_duration: 1.0,
        tracks,
        ..Animation::default()
    };
    animation
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .expect("converts")
}

#[test]
fn the_first_usable_curve_of_a_node_and_channel_claims_it() {
    let linear = Interpolation::Linear;
    let rotation = Values::FloatQ(vec![Quat::new(0.0, 0.0, 0.0, 1.0); 2]);
    let scene = scene_of(vec![
        curve("A", "position", &[0.0, 0.5], vectors(2, 1.0), linear),
        // A second position of A: a property track.
        curve("A", "position", &[0.0], vectors(1, 2.0), linear),
        curve("B", "rotation", &[0.0, 1.0], rotation.clone(), linear),
        curve("C", "scale", &[0.25], vectors(1, 4.0), linear),
        curve("C", "scale", &[0.5], vectors(1, 3.0), linear),
        // Another interpolation than the first channel's: a property track.
        curve("B", "scale", &[0.0], vectors(1, 5.0), Interpolation::Hold),
        curve("A", "rotation", &[0.0, 1.0], rotation, linear),
    ]);
    let animation = &scene.animations[0];
    let names: Vec<&str> = animation.bones.iter().map(|b| b.bone.as_str()).collect();
    assert_eq!(names, ["A", "B", "C"]);
    let [a, b, c] = &animation.bones[..] else {
        unreachable!()
    };
    assert_eq!(a.translation.len(), 2);
    assert_eq!(a.rotation.len(), 2);
    assert_eq!(b.rotation.len(), 2);
    assert!(b.scale.is_empty() && a.scale.is_empty() && c.translation.is_empty());
    assert_eq!(c.scale.len(), 1);
    assert_eq!(c.scale.get(0).map(|k| (k.frame, k.value.x)), Some((15.0, 4.0)));
    let properties: Vec<(&str, &str)> = animation
        .properties
        .iter()
        .map(|p| (p.node.as_str(), p.property.as_str()))
        .collect();
    assert_eq!(properties, [("A", "position"), ("C", "scale"), ("B", "scale")]);
}

#[test]
fn a_curve_whose_times_and_values_differ_in_length_is_an_error_not_a_loss() {
    let animation = Animation {
        tracks: vec![curve("C", "scale", &[0.0, 0.5], vectors(1, 3.0), Interpolation::Linear)],
        ..Animation::default()
    };
    let error = animation
        .to_scene(&SceneOptions::default(), &mut ConversionReport::default())
        .expect_err("the track cannot be given back");
    let message = error.to_string();
    assert!(
        message.contains("(\"C\", \"scale\")") && message.contains("2 keyframe times for 1 values"),
        "{message}"
    );
}

#[test]
fn many_nodes_keep_their_order_on_any_number_of_threads() {
    // 30,000 nodes, each with a position (every seventh with two: the second is a property).
    let tracks: Vec<Track> = (0..30_000)
        .flat_map(|i| {
            let node = format!("n{i}");
            let first = curve(
                &node,
                "position",
                &[0.0, 0.5],
                vectors(2, i as f32),
                Interpolation::Linear,
            );
            let second = (i % 7 == 0).then(|| curve(&node, "position", &[1.0], vectors(1, 0.0), Interpolation::Linear));
            std::iter::once(first).chain(second)
        })
        .collect();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| scene_of(tracks.clone()))
    };
    let one = on(1);
    let animation = &one.animations[0];
    assert_eq!(animation.bones.len(), 30_000);
    assert_eq!(animation.properties.len(), 30_000usize.div_ceil(7));
    for (i, bone) in animation.bones.iter().enumerate() {
        assert_eq!(bone.bone, format!("n{i}"));
        assert_eq!(bone.translation.get(0).map(|k| k.value.x), Some(i as f64 as f32 as f64));
    }
    assert_eq!(on(2), one);
}
