//! `validate`: what a file that reads can still get wrong.

mod common;

use animbin_core::Rot14;
use animbin_sf3::{Channel, Ending, Problem, read, to_bytes, validate};
use common::*;

#[test]
fn the_seed_example_is_valid() {
    assert_eq!(validate(&seed_file()), []);
}

#[test]
fn key_times_going_backwards_are_reported_per_channel() {
    let mut bytes = seed_segment_bytes();
    // Slot 1's third rotation time (0x8a + 4) becomes 0x0100, before 0x14b.
    bytes[0x8e..0x90].copy_from_slice(&[0x01, 0x00]);
    let file = read(&bytes).unwrap();
    let problems = validate(&file);
    assert_eq!(
        problems,
        [Problem::TimeGoesBackwards {
            segment: 0,
            slot: 1,
            channel: Channel::Rotation,
            key: 2,
            previous: 0x14b,
            time: 0x100,
        }]
    );
    assert_eq!(
        problems[0].to_string(),
        "segment 0 slot 1: rotation key 2 at time 256 comes after time 331"
    );
}

#[test]
fn repeated_times_are_not_backwards() {
    let mut file = seed_file();
    file.segments[0].slots[0].translation[1].time = 0x140;
    assert_eq!(validate(&file), []);
}

#[test]
fn rotations_that_are_not_unit_length_are_reported() {
    let mut file = seed_file();
    file.segments[0].slots[0].rotation[3].value.w = Rot14(0x2000);
    let problems = validate(&file);
    assert_eq!(problems.len(), 1);
    assert!(matches!(problems[0], Problem::RotationNotUnit { segment: 0, slot: 0, key: 3, length } if length == 0.5));
}

#[test]
fn bytes_after_the_end_marker_are_reported() {
    let mut file = seed_file();
    file.ending = Ending::EndMarker { trailing: vec![0; 3] };
    let file = read(&to_bytes(&file).unwrap()).unwrap();
    assert_eq!(validate(&file), [Problem::BytesAfterEndMarker { count: 3 }]);
}

#[test]
fn an_end_marker_with_nothing_after_it_is_valid() {
    let mut file = seed_file();
    file.ending = Ending::EndMarker { trailing: vec![] };
    assert_eq!(validate(&file), []);
}

#[test]
fn problems_are_diagnostics_placed_at_their_slot() {
    use animbin_sf3::{Diagnostic, Location, Severity};
    let mut file = seed_file();
    file.segments[0].slots[1].rotation[2].time = 0x100;
    file.ending = Ending::EndMarker { trailing: vec![0; 2] };
    let problems = validate(&file);
    assert_eq!(problems.len(), 2);
    let time = &problems[0];
    assert_eq!(time.severity(), Severity::Error);
    assert_eq!(time.location(), Location::Item("segment 0 slot 1".into()));
    assert_eq!(time.message(), "rotation key 2 at time 256 comes after time 331");
    assert_eq!(time.to_string(), format!("segment 0 slot 1: {}", time.message()));
    let trailing = &problems[1];
    assert_eq!(trailing.location(), Location::File);
    assert_eq!(trailing.message(), "2 bytes after the end marker");
    assert_eq!(trailing.to_string(), trailing.message());
}

#[test]
fn fixed_point_extremes_and_off_unit_rotations_are_warnings_and_rounding_is_not() {
    use animbin_sf3::{Diagnostic, Severity};
    let q = |x: i16, y: i16, z: i16, w: i16| animbin_core::Quat::new(Rot14(x), Rot14(y), Rot14(z), Rot14(w));
    let mut file = seed_file();
    let slot = &mut file.segments[0].slots[0];
    let time = |i: usize| slot.rotation[i].time;
    let times: Vec<u16> = (0..slot.rotation.len()).map(time).collect();
    let values = [
        // i16::MIN is -2.0 and i16::MAX just under 2.0: far from unit length.
        q(0, 0, 0, i16::MIN),
        q(i16::MAX, i16::MAX, i16::MAX, i16::MAX),
        q(0, 0, 0, 0),
        // 45 degrees about x, each component rounded to 1/16384: a rotation all the same.
        q(6270, 0, 0, 15137),
    ];
    slot.rotation = times
        .iter()
        .zip(values.iter().cycle())
        .map(|(&t, &v)| animbin_sf3::Key::new(t, v))
        .collect();
    file.ending = Ending::EndMarker { trailing: vec![0; 2] };
    let problems = validate(&file);
    let rotations: Vec<(usize, f64)> = problems
        .iter()
        .filter_map(|p| match p {
            Problem::RotationNotUnit { key, length, .. } => Some((*key, *length)),
            _ => None,
        })
        .collect();
    let bad_keys: Vec<usize> = (0..times.len()).filter(|k| k % 4 != 3).collect();
    assert_eq!(rotations.iter().map(|r| r.0).collect::<Vec<_>>(), bad_keys);
    assert_eq!(rotations[0].1, 2.0);
    assert!(
        problems.iter().all(|p| p.severity() == Severity::Warning),
        "{problems:?}"
    );
    assert_eq!(
        problems[0].to_string(),
        "segment 0 slot 0: rotation key 0 has length 2.000000, not 1, so it is no rotation"
    );
}
