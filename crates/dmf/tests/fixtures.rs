//! A small model written out byte by byte: every section, a texture image with padding after
//! it, two bones and an animation whose tracks set different prs flags.

mod common;

use animbin_core::math::{Rgba, Vec3};
use animbin_dmf::{Dmf, Section, View, Wrap};
use animbin_testing::{assert_every_truncation_fails, hex};
use common::{fixture, model};

#[test]
fn the_fixture_reads_as_the_model() {
    assert_eq!(animbin_dmf::read(&fixture()).unwrap(), model());
}

#[test]
fn the_writer_produces_the_fixture_byte_for_byte() {
    let bytes = animbin_dmf::to_bytes(&model()).unwrap();
    assert_eq!(bytes.len(), 0x360);
    assert_eq!(bytes, fixture());
    let mut out = std::io::Cursor::new(Vec::new());
    animbin_dmf::write(&model(), &mut out).unwrap();
    assert_eq!(out.into_inner(), fixture());
}

#[test]
fn the_fixture_is_valid() {
    assert_eq!(animbin_dmf::validate(&model()), vec![]);
}

#[test]
fn the_view_borrows_every_record_in_place() {
    let bytes = fixture();
    let view = View::parse(&bytes).unwrap();
    let offsets: Vec<u32> = view.attributes().iter().map(|a| a.offset.get()).collect();
    assert_eq!(offsets, [0x70, 0xbc, 0x12c, 0x198, 0x1f0, 0x2d0]);
    let labels: Vec<u32> = view.attributes().iter().map(|a| a.label.get()).collect();
    assert_eq!(labels, Section::ALL.map(Section::label));
    assert_eq!(view.header().minor_version.get(), 5);
    assert_eq!(view.textures()[0].name.as_str().unwrap(), "checker");
    assert_eq!(view.textures()[0].wrap_s().unwrap(), Wrap::Repeat);
    assert_eq!(view.png(0).unwrap(), &bytes[0xb0..0xba]);
    assert_eq!(view.png(1), None);
    assert_eq!(view.materials()[0].blend_src.get(), 4);
    assert_eq!(view.vertices()[1].skin_weight[1].get(), 0.5);
    assert_eq!(view.faces()[0].colors[2], Rgba::new(0, 0, 255, 128));
    assert_eq!(view.bones()[1].parent(), Some(0));
    assert_eq!(view.bones()[1].matrix().rows[1][3], 1.0);
    let tracks = view.tracks(0).unwrap();
    assert_eq!(tracks.len(), 2);
    assert_eq!(tracks[1].position(), Some(Vec3::new(0.0, 2.0, 0.0)));
    assert_eq!(tracks[1].rotation(), None);
    assert_eq!(view.track_count(), 2);
    // Borrowed, not copied: the slices point into the input.
    let vertices = view.vertices().as_ptr() as usize;
    assert_eq!(vertices, bytes.as_ptr() as usize + 0x12c);
    let tracks_at = view.tracks(0).unwrap().as_ptr() as usize;
    assert_eq!(tracks_at, bytes.as_ptr() as usize + 0x300);
}

#[test]
fn a_truncated_fixture_is_an_error_at_every_offset() {
    let bytes = fixture();
    assert_eq!(assert_every_truncation_fails(&bytes, animbin_dmf::read), 0x360);
    assert_every_truncation_fails(&bytes, |b| View::parse(b).map(|v| v.vertices().len()));
}

#[test]
fn truncation_errors_name_an_offset_inside_the_file() {
    let bytes = fixture();
    for len in 0..bytes.len() {
        let err = View::parse(&bytes[..len]).unwrap_err();
        assert!(err.offset <= len as u64, "{len}: {err}");
    }
    let err = View::parse(&bytes[..0x35f]).unwrap_err();
    // The track list of animation 0 no longer fits: the error sits at its track_offset field.
    assert_eq!(err.offset, 0x2d0 + 0x24, "{err}");
    assert!(err.to_string().contains("1 whole records and 47 bytes"), "{err}");
}

#[test]
fn an_empty_model_is_the_header_and_table_with_zero_entries() {
    let bytes = animbin_dmf::to_bytes(&Dmf::default()).unwrap();
    let expected = hex("
        44 41 53 48 01 00 05 00 10 00 00 00 06 00 00 00  # header
        74 65 78 00 00 00 00 00 00 00 00 00 00 00 00 00  # tex: offset 0, count 0
        6d 61 74 00 00 00 00 00 00 00 00 00 00 00 00 00  # mat
        76 65 72 74 00 00 00 00 00 00 00 00 00 00 00 00  # vert
        66 61 63 65 00 00 00 00 00 00 00 00 00 00 00 00  # face
        62 6f 6e 65 00 00 00 00 00 00 00 00 00 00 00 00  # bone
        61 6e 69 6d 00 00 00 00 00 00 00 00 00 00 00 00  # anim
    ");
    assert_eq!(bytes, expected);
    assert_eq!(animbin_dmf::read(&bytes).unwrap(), Dmf::default());
    assert_every_truncation_fails(&bytes, animbin_dmf::read);
}

#[test]
fn the_writer_needs_no_seek() {
    // A `Vec<u8>` is `Write` but not `Seek`.
    let mut out: Vec<u8> = Vec::new();
    animbin_dmf::write(&model(), &mut out).unwrap();
    assert_eq!(out, fixture());
}
