//! Input that must be refused with an error at the right byte, never a panic, a hang or a
//! large allocation.

mod common;

use animbin_core::ErrorKind;
use animbin_sf3::{
    ArrayKind, Channel, FileFormat, MAX_PADDING_WORDS, SLOT_ENTRY_SIZE, Sf3File, Summary, View, read, to_bytes,
};
use animbin_testing::hex;
use common::*;

fn err_at(bytes: &[u8]) -> (u64, String) {
    let err = read(bytes).expect_err("the input must be refused");
    (err.offset, err.to_string())
}

#[test]
fn an_array_leaving_the_data_section_is_an_error_at_its_offset_field() {
    let mut bytes = seed_segment_bytes();
    let field = SLOT1_ENTRY + ArrayKind::TranslationX.field_offset();
    // Five i32 at 0x110 would run to 0x124, past the slot table offset 0x11c.
    put_u32(&mut bytes, field as usize, 0x110);
    let (at, msg) = err_at(&bytes);
    assert_eq!(at, field);
    assert!(msg.contains("translation_x") && msg.contains("0x110..0x124"), "{msg}");

    // Below offset 4 is the slot table offset word, not key data.
    let mut bytes = seed_segment_bytes();
    let field = SLOT1_ENTRY + ArrayKind::ScaleTimes.field_offset();
    put_u32(&mut bytes, field as usize, 2);
    assert_eq!(err_at(&bytes).0, field);

    // Far past the end, where offset + size would overflow a u32.
    let mut bytes = seed_segment_bytes();
    let field = SLOT1_ENTRY + ArrayKind::RotationW.field_offset();
    put_u32(&mut bytes, field as usize, 0xFFFF_FFFE);
    assert_eq!(err_at(&bytes).0, field);
}

#[test]
fn a_count_the_data_section_cannot_hold_is_an_error_at_the_count() {
    let mut bytes = seed_segment_bytes();
    let field = SLOT1_ENTRY + Channel::Rotation.count_field_offset();
    put_u32(&mut bytes, field as usize, 0x7FFF_FFFF);
    let err = read(&bytes).unwrap_err();
    assert_eq!(err.offset, field);
    assert!(
        matches!(err.kind, ErrorKind::CountTooLarge { count: 0x7FFF_FFFF, .. }),
        "{err}"
    );
}

#[test]
fn key_counts_of_0xffffffff_other_than_the_terminator_are_errors() {
    for channel in [Channel::Rotation, Channel::Scale] {
        let mut bytes = seed_segment_bytes();
        let field = SLOT1_ENTRY + channel.count_field_offset();
        put_u32(&mut bytes, field as usize, 0xFFFF_FFFF);
        let (at, msg) = err_at(&bytes);
        assert_eq!(at, field, "{msg}");
        assert!(msg.contains(channel.name()), "{msg}");
    }
}

#[test]
fn overlapping_arrays_are_an_error_naming_both() {
    // Slot 1's rotation y points at its rotation x.
    let mut bytes = seed_segment_bytes();
    let field = SLOT1_ENTRY + ArrayKind::RotationY.field_offset();
    put_u32(&mut bytes, field as usize, 0xd8);
    let (at, msg) = err_at(&bytes);
    assert_eq!(at, field);
    assert!(msg.contains("rotation_y") && msg.contains("rotation_x"), "{msg}");

    // A partial overlap across slots: slot 1's translation times start inside slot 0's
    // scale z (0x7c..0x80).
    let mut bytes = seed_segment_bytes();
    let field = SLOT1_ENTRY + ArrayKind::TranslationTimes.field_offset();
    put_u32(&mut bytes, field as usize, 0x7e);
    let (at, msg) = err_at(&bytes);
    assert_eq!(at, field);
    assert!(msg.contains("slot 0 scale_z"), "{msg}");
}

#[test]
fn a_missing_terminator_is_an_error_at_the_end_of_the_table() {
    let bytes = seed_segment_bytes();
    let (at, msg) = err_at(&bytes[..TERMINATOR]);
    assert_eq!(at, TERMINATOR as u64);
    assert!(msg.contains("0xFFFFFFFF"), "{msg}");

    // A non-terminator word where the terminator belongs, with too few bytes for an entry.
    let mut bytes = seed_segment_bytes();
    put_u32(&mut bytes, TERMINATOR, 0);
    let (at, _) = err_at(&bytes);
    assert!(at >= TERMINATOR as u64 && at <= bytes.len() as u64, "{at}");
}

#[test]
fn a_segment_that_never_terminates_is_an_error_not_a_hang() {
    // 1 MiB of slot entries with zero counts and no terminator.
    let mut bytes = hex("00 00 00 04");
    let entry: Vec<u8> = [0u32, 0, 0]
        .into_iter()
        .chain([4; 13])
        .flat_map(u32::to_be_bytes)
        .collect();
    for _ in 0..(1 << 14) {
        bytes.extend(&entry);
    }
    let (at, _) = err_at(&bytes);
    assert_eq!(at, bytes.len() as u64);
}

#[test]
fn a_slot_table_offset_below_4_or_past_the_end_is_an_error_at_the_segment_start() {
    for offset in [1u32, 3, 0x1000] {
        let mut bytes = hex("00 00 00 00");
        bytes.extend(seed_segment_bytes());
        put_u32(&mut bytes, 4, offset);
        let (at, msg) = err_at(&bytes);
        assert_eq!(at, 4, "{msg}");
    }
}

#[test]
fn errors_in_later_segments_carry_file_offsets() {
    let seg = seed_segment_bytes();
    let mut bytes = seg.clone();
    bytes.extend([0; 4]);
    let second = bytes.len();
    bytes.extend(&seg);
    let field = second + (SLOT1_ENTRY + ArrayKind::ScaleZ.field_offset()) as usize;
    put_u32(&mut bytes, field, 0x11a);
    assert_eq!(err_at(&bytes).0, field as u64);
}

#[test]
fn a_file_with_no_segment_is_an_error() {
    assert_eq!(err_at(&[]).0, 0);
    assert_eq!(err_at(&[0; 8]).0, 8);
    assert_eq!(err_at(&hex("00 00 00 00 ff ff ff ff")).0, 4);
    assert!(to_bytes(&Sf3File::default()).is_err());
}

#[test]
fn a_partial_word_at_the_end_is_an_error() {
    let mut bytes = seed_segment_bytes();
    bytes.extend([0, 0]);
    assert_eq!(err_at(&bytes).0, TERMINATOR as u64 + 4);
}

#[test]
fn padding_runs_are_limited_when_reading_and_writing() {
    let mut file = seed_file();
    file.segments[0].padding_words = MAX_PADDING_WORDS;
    let bytes = to_bytes(&file).unwrap();
    assert_eq!(read(&bytes).unwrap(), file);

    let mut longer = vec![0; 4];
    longer.extend(&bytes);
    assert_eq!(err_at(&longer).0, 4 * u64::from(MAX_PADDING_WORDS));

    file.segments[0].padding_words = MAX_PADDING_WORDS + 1;
    assert!(to_bytes(&file).is_err());
    file.segments[0].padding_words = 0;
    file.padding_words = u32::MAX;
    assert!(to_bytes(&file).is_err());
}

/// A truncated file is an error unless it stops exactly where a whole file could: at the
/// end of a segment or of a padding word, or after the end marker; then it reads as the
/// leading segments and rewrites to the same prefix.
fn assert_truncations_fail_or_read_a_prefix(bytes: &[u8]) -> usize {
    let whole = read(bytes).unwrap();
    for len in 0..bytes.len() {
        match read(&bytes[..len]) {
            Err(e) => assert!(e.offset <= len as u64, "error past the end: {e}"),
            Ok(file) => {
                // Only whole words before the end marker; any bytes after it.
                if file.ending == animbin_sf3::Ending::Eof {
                    assert!(len % 4 == 0, "a prefix of {len} bytes read");
                }
                let n = file.segments.len();
                assert_eq!(file.segments, whole.segments[..n], "a prefix of {len} bytes");
                assert_eq!(to_bytes(&file).unwrap(), &bytes[..len]);
            }
        }
    }
    bytes.len()
}

#[test]
fn truncation_at_every_offset_of_the_seed_segment_is_an_error() {
    animbin_testing::assert_every_truncation_fails(&seed_segment_bytes(), read);
}

#[test]
fn truncation_at_every_offset_of_a_padded_file_fails_or_reads_a_prefix() {
    let mut file = seed_file();
    file.segments.push(small_segment(3, 2));
    file.segments[0].padding_words = 1;
    file.padding_words = 2;
    file.ending = animbin_sf3::Ending::EndMarker {
        trailing: vec![1, 2, 3],
    };
    let bytes = to_bytes(&file).unwrap();
    assert_truncations_fail_or_read_a_prefix(&bytes);
    // Inside a segment, every truncation fails.
    let first = 4..4 + seed_segment_bytes().len();
    for len in first.clone() {
        assert!(read(&bytes[..len]).is_err() || len == first.start, "{len}");
    }
}

#[test]
fn unencodable_padding_names_its_field() {
    let mut file = seed_file();
    file.segments[0].padding_words = MAX_PADDING_WORDS + 1;
    let err = to_bytes(&file).unwrap_err();
    assert!(err.to_string().contains("segment 0 padding_words 65536"), "{err}");
    file.segments[0].padding_words = 0;
    file.padding_words = u32::MAX;
    let err = to_bytes(&file).unwrap_err();
    assert!(
        err.to_string().contains("padding_words after the last segment"),
        "{err}"
    );
    let err = to_bytes(&Sf3File::default()).unwrap_err();
    assert!(err.to_string().contains("no segment"), "{err}");
}

#[test]
fn write_needs_no_seek() {
    struct Sink(Vec<u8>);
    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut sink = Sink(Vec::new());
    animbin_sf3::write(&seed_file(), &mut sink).unwrap();
    assert_eq!(sink.0, to_bytes(&seed_file()).unwrap());
}

/// `read`, `View::parse` and `Summary::parse` share one walk: they must accept the same
/// inputs, refuse the others with the same error, and count what `read` holds (the model's,
/// the view's and the walk's summaries are one).
fn assert_readers_agree(bytes: &[u8]) {
    let owned = read(bytes);
    let view = View::parse(bytes);
    let viewed = view.as_ref().map(|v| v.to_file());
    let summary = Summary::parse(bytes);
    match (&owned, &viewed, &summary) {
        (Ok(file), Ok(from_view), Ok(summary)) => {
            assert_eq!(file, from_view);
            assert_eq!(*summary, file.summary());
            assert_eq!(view.as_ref().unwrap().summary(), file.summary());
            let [translation, rotation, scale] = file.key_counts().map(|n| n as u64);
            assert_eq!(
                [
                    summary.translation_key_count,
                    summary.rotation_key_count,
                    summary.scale_key_count
                ],
                [translation, rotation, scale]
            );
            assert_eq!(summary.key_count, translation + rotation + scale);
            assert_eq!(summary.slot_count, file.slot_count() as u64);
            assert_eq!(summary.segment_count, file.segments.len());
            let padding: u64 = file.segments.iter().map(|s| u64::from(s.padding_words)).sum();
            assert_eq!(summary.padding_words, padding + u64::from(file.padding_words));
            match &file.ending {
                animbin_sf3::Ending::Eof => assert!(!summary.end_marker),
                animbin_sf3::Ending::EndMarker { .. } => assert!(summary.end_marker),
            }
        }
        (Err(a), Err(b), Err(c)) => {
            assert_eq!((a.offset, a.to_string()), (b.offset, b.to_string()));
            assert_eq!((a.offset, a.to_string()), (c.offset, c.to_string()));
        }
        _ => panic!(
            "the readers disagree: read {:?}, view {:?}, summary {:?}",
            owned.map(|_| ()),
            viewed.map(|_| ()),
            summary.map(|_| ())
        ),
    }
}

#[test]
fn the_summary_and_the_view_accept_and_refuse_what_read_does() {
    let mut file = seed_file();
    file.segments.push(small_segment(3, 2));
    file.padding_words = 1;
    file.ending = animbin_sf3::Ending::EndMarker { trailing: vec![7; 5] };
    let bytes = to_bytes(&file).unwrap();
    for len in 0..=bytes.len() {
        assert_readers_agree(&bytes[..len]);
    }
    // Every word of every slot entry of the seed segment, replaced by values that break a
    // count, an offset, the terminator or the placement of an array.
    let seed = seed_segment_bytes();
    let table = u32::from_be_bytes(seed[..4].try_into().unwrap()) as usize;
    for at in (table..seed.len()).step_by(4) {
        for value in [0, 1, 2, 4, 0x10, 0x110, 0x7FFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFFF] {
            let mut bytes = seed.clone();
            put_u32(&mut bytes, at, value);
            assert_readers_agree(&bytes);
        }
    }
    assert!(seed.len() > table + 2 * SLOT_ENTRY_SIZE);
}

#[test]
fn write_refuses_before_writing_anything() {
    let mut file = seed_file();
    file.segments.push(small_segment(3, MAX_PADDING_WORDS + 1));
    let mut out = Vec::new();
    let err = animbin_sf3::write(&file, &mut out).unwrap_err();
    assert_eq!(err.to_string(), to_bytes(&file).unwrap_err().to_string());
    assert_eq!(err.offset, to_bytes(&seed_file()).unwrap().len() as u64);
    assert!(out.is_empty(), "{} bytes written before the error", out.len());
}
