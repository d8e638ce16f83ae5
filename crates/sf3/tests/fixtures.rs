//! Byte-exact fixtures: the seed's worked example, padding and end markers, and the slot
//! table parser on a chunk inside a larger buffer.

mod common;

use animbin_sf3::{ArrayKind, Ending, SLOT_ENTRY_SIZE, SegmentView, Sf3File, View, parse_slot_table, read, to_bytes};
use animbin_testing::hex;
use common::*;

#[test]
fn the_seeds_worked_example_reads_at_the_offsets_it_lists() {
    let bytes = seed_segment_bytes();
    let view = View::parse(&bytes).unwrap();
    let slot = &view.segments[0].segment.slots[1];
    let e = slot.entry;
    assert_eq!((e.translation_keys, e.rotation_keys, e.scale_keys), (5, 7, 1));
    assert_eq!(
        e.offsets(),
        [
            0x80, 0x8a, 0x98, 0x9c, 0xb0, 0xc4, 0xd8, 0xe6, 0xf4, 0x102, 0x110, 0x114, 0x118
        ]
    );
    assert_eq!(slot.translation_times.len(), 5);
    assert_eq!(slot.rotation_times.len(), 7);
    assert_eq!(slot.scale_times.len(), 1);
    // The arrays are the input's own bytes, not copies.
    assert_eq!(slot.translation[0].as_ptr().cast::<u8>(), bytes[0x9c..].as_ptr());
    assert_eq!(slot.rotation[3].as_ptr().cast::<u8>(), bytes[0x102..].as_ptr());
    assert_eq!(slot.rotation[3][0].get(), 0x3c6a);
    assert_eq!(read(&bytes).unwrap(), seed_file());
}

#[test]
fn the_seeds_worked_example_values_decode_as_formats_md_says() {
    let file = read(&seed_segment_bytes()).unwrap();
    let slot = &file.segments[0].slots[1];
    let t = slot.translation[2].value.map(|c| c.to_f64());
    assert_eq!(slot.translation[2].time, 0x14f);
    assert!((t.x - 2.864).abs() < 1e-4 && (t.y + 1.322).abs() < 1e-4 && (t.z - 5.601).abs() < 1e-4);
    // i16 / 16384, x y z w: four times the seed's printed /65536 values, and unit length.
    let r = slot.rotation[0].value.map(|c| c.to_f64());
    assert!((r.x - 4.0 * 0.041).abs() < 1e-4 && (r.w - 4.0 * 0.236).abs() < 1e-4);
    assert!((r.norm() - 1.0).abs() < 0.01, "length {}", r.norm());
    assert_eq!(slot.scale[0].value.x.to_f64(), 1.0);
}

#[test]
fn the_writer_reproduces_the_seed_layout_byte_for_byte() {
    assert_eq!(to_bytes(&seed_file()).unwrap(), seed_segment_bytes());
}

#[test]
fn padding_and_end_marker_are_kept_byte_for_byte() {
    let bytes = hex("
        00 00 00 00 00 00 00 00                # 0x00 two zero words before the first segment
        00 00 00 2c                            # 0x08 segment 0: slot_table_offset
        00 07 00 07 00 07 00 00                #      t-, r-, s-times, padding to 4
        00 01 00 00 ff ff 00 00 7f ff ff ff    #      tx ty tz: 1.0, -1.0, the largest 16.16
        00 00 00 00 00 00 40 00                #      rx ry rz rw: the identity
        00 01 00 00 00 01 00 00 00 01 00 00    #      sx sy sz: 1.0
        00 00 00 01 00 00 00 01 00 00 00 01    # 0x34 key counts
        00 00 00 04 00 00 00 06 00 00 00 08    #      times
        00 00 00 0c 00 00 00 10 00 00 00 14    #      translation
        00 00 00 18 00 00 00 1a 00 00 00 1c 00 00 00 1e  # rotation
        00 00 00 20 00 00 00 24 00 00 00 28    #      scale
        ff ff ff ff                            # 0x74 end of the slot table
        00 00 00 00                            # 0x78 one zero word
        00 00 00 04 ff ff ff ff                # 0x7c segment 1: no key data, no slots
        00 00 00 00 00 00 00 00 00 00 00 00    # 0x84 three zero words
        ff ff ff ff                            # 0x90 end marker
        12 34                                  # 0x94 bytes the game never reads
    ");
    let file = read(&bytes).unwrap();
    assert_eq!(file.segments[0], small_segment(7, 2));
    assert_eq!(file.segments[1].padding_words, 1);
    assert!(file.segments[1].slots.is_empty());
    assert_eq!(file.padding_words, 3);
    assert_eq!(
        file.ending,
        Ending::EndMarker {
            trailing: vec![0x12, 0x34]
        }
    );
    assert_eq!(to_bytes(&file).unwrap(), bytes);
}

#[test]
fn a_file_may_end_at_eof_after_padding() {
    let mut bytes = seed_segment_bytes();
    bytes.extend([0; 8]);
    let file = read(&bytes).unwrap();
    assert_eq!(file.padding_words, 2);
    assert_eq!(file.ending, Ending::Eof);
    assert_eq!(to_bytes(&file).unwrap(), bytes);
}

#[test]
fn slot_tables_read_from_any_base_slice_such_as_an_x8pc_chunk() {
    // An x8pc-like model file: 0x40 bytes of something else, then an animation chunk laid out
    // like a segment, then more bytes; offsets inside the chunk are relative to the chunk.
    let chunk = seed_segment_bytes();
    let mut model = vec![0xAA; 0x40];
    model.extend(&chunk);
    model.extend([0xBB; 16]);
    let base = &model[0x40..];
    let table = parse_slot_table(base, 0x11c, 4..0x11c).unwrap();
    assert_eq!(table.end, chunk.len());
    let slots: Vec<_> = table.slots.iter().map(|s| s.to_slot()).collect();
    assert_eq!(slots, seed_segment().slots);
    let segment = SegmentView::parse(base).unwrap();
    assert_eq!(segment.bytes, &chunk[..]);
    assert_eq!(segment.slot_table_offset, 0x11c);

    // Errors are relative to the base slice: a data range that ends before slot 1's arrays.
    let err = parse_slot_table(base, 0x11c, 4..0x80).unwrap_err();
    assert_eq!(err.offset, SLOT1_ENTRY + ArrayKind::TranslationTimes.field_offset());
    assert_eq!(err.offset, 0x168);
}

#[test]
fn misaligned_and_reordered_arrays_read_and_are_rewritten_canonically() {
    // One slot, one key each, arrays in reverse order and at odd offsets.
    let bytes = hex("
        00 00 00 2d                            # slot_table_offset (odd)
        00                                     # a stray byte
        00 01 00 00  00 01 00 00  00 01 00 00  # 0x05 sz sy sx
        40 00 00 00 00 00 00 00                # 0x11 rw rz ry rx
        00 00 00 03 00 00 00 02 00 00 00 01    # 0x19 tz ty tx
        00 09 00 08 00 07                      # 0x25 s-, r-, t-times
        00 00                                  # 0x2b two unused bytes
        00 00 00 01 00 00 00 01 00 00 00 01    # 0x2d counts
        00 00 00 29 00 00 00 27 00 00 00 25    # times
        00 00 00 21 00 00 00 1d 00 00 00 19    # translation x y z
        00 00 00 17 00 00 00 15 00 00 00 13 00 00 00 11  # rotation x y z w
        00 00 00 0d 00 00 00 09 00 00 00 05    # scale x y z
        ff ff ff ff
    ");
    let file = read(&bytes).unwrap();
    let slot = &file.segments[0].slots[0];
    assert_eq!(slot.translation[0].time, 7);
    assert_eq!(slot.rotation[0].time, 8);
    assert_eq!(slot.scale[0].time, 9);
    assert_eq!(slot.translation[0].value.map(|c| c.0), animbin_core::Vec3::new(1, 2, 3));
    assert_eq!(slot.rotation[0].value.w.0, 0x4000);
    let canonical = to_bytes(&file).unwrap();
    assert_ne!(canonical, bytes);
    assert_eq!(read(&canonical).unwrap(), file);
}

#[test]
fn empty_channels_read_and_write() {
    let file = Sf3File {
        segments: vec![animbin_sf3::Segment {
            padding_words: 0,
            slots: vec![animbin_sf3::Slot::default()],
        }],
        ..Sf3File::default()
    };
    let bytes = to_bytes(&file).unwrap();
    let mut expected = hex("00 00 00 04  00 00 00 00 00 00 00 00 00 00 00 00");
    expected.extend(std::iter::repeat_n([0, 0, 0, 4], 13).flatten());
    expected.extend([0xff; 4]);
    assert_eq!(bytes, expected);
    assert_eq!(bytes.len(), 4 + SLOT_ENTRY_SIZE + 4);
    assert_eq!(read(&bytes).unwrap(), file);
}

#[test]
fn the_testdata_samples_are_valid_and_rewrite_byte_for_byte() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("testdata/ is committed")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("x8an"))
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 2,
        "cargo xtask corpus writes x8an00.bin and x8an01.bin: {files:?}"
    );
    // x8an02.bin, which holds no keys, is a test fixture rather than a sample.
    files.push(dir.join("../tests/fixtures/x8an02.bin"));
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let file = read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(animbin_sf3::validate(&file), [], "{}", path.display());
        assert_eq!(to_bytes(&file).unwrap(), bytes, "{}", path.display());
    }
}
