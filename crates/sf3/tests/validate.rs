//! `validate`: what a file that reads can still get wrong.

mod common;

use animbin_core::Rot14;
use animbin_sf3::{Ending, Location, Problem, Severity, read, to_bytes, validate};
use common::*;

/// A problem placed at slot `slot` of segment `segment`.
fn at_slot(severity: Severity, segment: usize, slot: usize, message: &str) -> Problem {
    Problem::new(
        severity,
        Location::Item(format!("segment {segment} slot {slot}")),
        message,
    )
}

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
        [at_slot(
            Severity::Error,
            0,
            1,
            "rotation key 2 at time 256 comes after time 331"
        )]
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
    assert_eq!(
        validate(&file),
        [at_slot(
            Severity::Warning,
            0,
            0,
            "rotation key 3 has length 0.500000, not 1, so it is no rotation"
        )]
    );
}

#[test]
fn bytes_after_the_end_marker_are_reported() {
    let mut file = seed_file();
    file.ending = Ending::EndMarker { trailing: vec![0; 3] };
    let file = read(&to_bytes(&file).unwrap()).unwrap();
    assert_eq!(
        validate(&file),
        [Problem::new(
            Severity::Warning,
            Location::File,
            "3 bytes after the end marker"
        )]
    );
}

#[test]
fn an_end_marker_with_nothing_after_it_is_valid() {
    let mut file = seed_file();
    file.ending = Ending::EndMarker { trailing: vec![] };
    assert_eq!(validate(&file), []);
}

#[test]
fn problems_are_placed_at_their_slot_or_at_the_file() {
    let mut file = seed_file();
    file.segments[0].slots[1].rotation[2].time = 0x100;
    file.ending = Ending::EndMarker { trailing: vec![0; 2] };
    let problems = validate(&file);
    assert_eq!(
        problems,
        [
            at_slot(Severity::Error, 0, 1, "rotation key 2 at time 256 comes after time 331"),
            Problem::new(Severity::Warning, Location::File, "2 bytes after the end marker"),
        ]
    );
    assert_eq!(
        problems[0].to_string(),
        "segment 0 slot 1: rotation key 2 at time 256 comes after time 331"
    );
    assert_eq!(problems[1].to_string(), "warning: 2 bytes after the end marker");
}

#[test]
fn fixed_point_extremes_and_off_unit_rotations_are_warnings_and_rounding_is_not() {
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
    // i16::MAX / 16384 is 1.99994 (2 - 2^-14), so four of them make a length of 3.99988.
    let lengths = ["2.000000", "3.999878", "0.000000"];
    let mut expected: Vec<Problem> = (0..times.len())
        .filter(|k| k % 4 != 3)
        .map(|k| {
            let message = format!(
                "rotation key {k} has length {}, not 1, so it is no rotation",
                lengths[k % 4]
            );
            at_slot(Severity::Warning, 0, 0, &message)
        })
        .collect();
    expected.push(Problem::new(
        Severity::Warning,
        Location::File,
        "2 bytes after the end marker",
    ));
    let problems = validate(&file);
    assert_eq!(problems, expected);
    assert_eq!(
        problems[0].to_string(),
        "warning: segment 0 slot 0: rotation key 0 has length 2.000000, not 1, so it is no rotation"
    );
}
