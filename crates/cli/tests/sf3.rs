//! `animbin` on Shining Force III x8an files: detection by name, info, dump, convert,
//! validate, and exit codes.

mod common;

use animbin_core::{Fixed16, Quat, Rot14, Vec3};
use animbin_sf3::{Ending, Key, Segment, Sf3File, Slot};

use common::{
    animbin, assert_converts_to_itself, assert_dump_rebuilds, code, info_json, read, s, stderr, stdout, tempdir, write,
};

fn sample() -> Sf3File {
    let v3 = |x, y, z| Vec3::new(Fixed16(x), Fixed16(y), Fixed16(z));
    let slot = |n: u16| Slot {
        translation: (0..n)
            .map(|t| Key::new(t * 2, v3(i32::from(t) << 16, 0, -0x8000)))
            .collect(),
        rotation: vec![
            Key::new(0, Quat::new(Rot14(0), Rot14(0), Rot14(0), Rot14::ONE)),
            Key::new(9, Quat::new(Rot14(0x4000), Rot14(0), Rot14(0), Rot14(0))),
        ],
        scale: vec![Key::new(0, v3(0x10000, 0x10000, 0x10000))],
    };
    Sf3File {
        segments: vec![
            Segment {
                padding_words: 0,
                slots: vec![slot(3), slot(5)],
            },
            Segment {
                padding_words: 2,
                slots: vec![slot(1)],
            },
        ],
        padding_words: 1,
        ending: Ending::EndMarker { trailing: vec![] },
    }
}

#[test]
fn info_json_gives_segment_slot_and_key_counts() {
    let dir = tempdir();
    let path = write(dir.path(), "x8an00.bin", &animbin_sf3::to_bytes(&sample()).unwrap());
    let info = info_json(&path);
    assert_eq!(info["format"], "sf3");
    assert_eq!(info["segment_count"], 2);
    assert_eq!(info["slot_count"], 3);
    assert_eq!(info["translation_key_count"], 9);
    assert_eq!(info["rotation_key_count"], 6);
    assert_eq!(info["scale_key_count"], 3);
    assert_eq!(info["key_count"], 18);
    assert_eq!(info["padding_words"], 3);
    assert_eq!(info["end_marker"], true);
}

#[test]
fn detection_is_by_the_x8an_name_or_format_option() {
    let dir = tempdir();
    let bytes = animbin_sf3::to_bytes(&sample()).unwrap();
    let upper = write(dir.path(), "X8AN07.BIN", &bytes);
    assert_eq!(code(&animbin(&["info", s(&upper)])), 0);

    let other = write(dir.path(), "battle.bin", &bytes);
    let out = animbin(&["info", s(&other)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("byte 0"), "{}", stderr(&out));
    let out = animbin(&["info", "--json", "--format", "sf3", s(&other)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let out = animbin(&["info", "--format", "nosuch", s(&other)]);
    assert_eq!(code(&out), 2);
}

#[test]
fn dump_then_convert_rebuilds_the_same_bytes() {
    let dir = tempdir();
    let path = write(dir.path(), "x8an00.bin", &animbin_sf3::to_bytes(&sample()).unwrap());
    let dump = assert_dump_rebuilds(&path, "sf3", dir.path(), "x8an01.bin", &["--to", "sf3"]);
    assert_eq!(dump["data"]["segments"][1]["padding_words"], 2);
}

#[test]
fn same_format_conversion_is_byte_identical() {
    let dir = tempdir();
    let path = write(dir.path(), "x8an00.bin", &animbin_sf3::to_bytes(&sample()).unwrap());
    assert_converts_to_itself(&path, dir.path(), "x8an02.bin", &["--to", "sf3"]);

    // ".bin" names no format: a usage error.
    let out = animbin(&["convert", s(&path), s(&dir.path().join("out.bin"))]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn bad_input_exits_1_naming_the_offset() {
    let dir = tempdir();
    let mut bytes = animbin_sf3::to_bytes(&sample()).unwrap();
    // Segment 0 slot 1's translation x offset (entry at slot_table_offset + 64, field 0x18).
    let table = u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize;
    let field = table + 64 + 0x18;
    bytes[field..field + 4].copy_from_slice(&0xFFFF_0000u32.to_be_bytes());
    let path = write(dir.path(), "x8an03.bin", &bytes);
    let out = animbin(&["info", s(&path)]);
    assert_eq!(code(&out), 1);
    let msg = stderr(&out);
    assert!(msg.contains(&format!("sf3 at byte {field} ({field:#x})")), "{msg}");
    assert!(msg.contains("translation_x"), "{msg}");

    let truncated = write(
        dir.path(),
        "x8an04.bin",
        &animbin_sf3::to_bytes(&sample()).unwrap()[..50],
    );
    let out = animbin(&["validate", s(&truncated)]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("sf3 at byte"), "{}", stderr(&out));
}

#[test]
fn validate_lists_backwards_key_times_and_exits_1() {
    let dir = tempdir();
    let good = write(dir.path(), "x8an05.bin", &animbin_sf3::to_bytes(&sample()).unwrap());
    let out = animbin(&["validate", s(&good)]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(out.stdout.is_empty());

    let mut file = sample();
    file.segments[1].slots[0].rotation[0].time = 10;
    file.segments[0].slots[0].translation.swap(0, 2);
    let bad = write(dir.path(), "x8an06.bin", &animbin_sf3::to_bytes(&file).unwrap());
    let out = animbin(&["validate", s(&bad)]);
    assert_eq!(code(&out), 1);
    let stdout = stdout(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].ends_with("segment 0 slot 0: translation key 1 at time 2 comes after time 4"));
    assert!(
        lines[1].ends_with("segment 0 slot 0: translation key 2 at time 0 comes after time 2"),
        "{stdout}"
    );
    assert!(lines[2].ends_with("segment 1 slot 0: rotation key 1 at time 9 comes after time 10"));
}

#[test]
fn framerate_sets_the_tick_rate_of_a_scene_converted_to_sf3() {
    // SF3 -> DMF (a scene at 30 fps, SF3's default) -> SF3 at 30 and at 60 ticks per second.
    let dir = tempdir();
    let mut file = sample();
    file.segments.truncate(1);
    file.padding_words = 0;
    file.ending = Ending::Eof;
    let bytes = animbin_sf3::to_bytes(&file).unwrap();
    let path = write(dir.path(), "x8an00.bin", &bytes);
    let dmf = dir.path().join("battle.dmf");
    let out = animbin(&["convert", s(&path), s(&dmf)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let times = |rate: Option<&str>| -> Vec<u16> {
        let back = dir.path().join("x8an10.bin");
        let mut args = vec!["convert", "--to", "sf3"];
        args.extend(rate.map(|r| ["--framerate", r]).into_iter().flatten());
        args.extend([s(&dmf), s(&back)]);
        let out = animbin(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let file = animbin_sf3::read(&read(&back)).unwrap();
        file.segments[0].slots[1].translation.iter().map(|k| k.time).collect()
    };
    assert_eq!(times(None), [0, 2, 4, 6, 8]);
    assert_eq!(times(Some("60")), [0, 4, 8, 12, 16]);
    assert_eq!(times(Some("15")), [0, 1, 2, 3, 4]);
}
