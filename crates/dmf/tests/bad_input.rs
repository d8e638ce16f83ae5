//! Bad files are errors at the offset of the field at fault; the writer refuses what the spec
//! forbids; `validate` reports what reads but breaks the spec.

mod common;

use animbin_core::ErrorKind;
use animbin_core::math::Vec3;
use animbin_dmf::{Bool16, Dmf, Location, Name, Problem, PrsFlags, Severity, Track, View};
use common::{fixture, model};
use zerocopy::little_endian::{F32, I16, U16, U32};

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn put_u16(bytes: &mut [u8], at: usize, value: u16) {
    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

/// The error of reading `bytes`, checked to be the same through the view and the owned reader.
fn error_of(bytes: &[u8]) -> animbin_core::Error {
    let view_err = View::parse(bytes).unwrap_err();
    let read_err = animbin_dmf::read(bytes).unwrap_err();
    assert_eq!(view_err.offset, read_err.offset);
    assert_eq!(view_err.to_string(), read_err.to_string());
    view_err
}

// The fixture's layout: table entries at 0x10 + 16 * i, their offset field at + 8 and count
// field at + 12; textures at 0x70, the image at 0xb0, materials at 0xbc, vertices at 0x12c,
// faces at 0x198, bones at 0x1f0, animations at 0x2d0, tracks at 0x300, end at 0x360.
const VERT_OFFSET_FIELD: usize = 0x38;
const VERT_COUNT_FIELD: usize = 0x3c;
const FACE_OFFSET_FIELD: usize = 0x48;
const ANIM_COUNT_FIELD: usize = 0x6c;

#[test]
fn a_wrong_magic_is_an_error_at_0() {
    let mut bytes = fixture();
    bytes[3] = b'X';
    let err = View::parse(&bytes).unwrap_err();
    assert_eq!(err.offset, 0);
    assert!(err.to_string().contains("DASH"), "{err}");
    // The owned reader treats a file without the magic as JSON, and says what it wanted.
    let err = animbin_dmf::read(&bytes).unwrap_err();
    assert_eq!(err.offset, 0);
    assert!(err.to_string().contains("JSON"), "{err}");
    // Too short for the header: a wrong magic is still called one, a right one is an EOF.
    let err = View::parse(b"PNG\r").unwrap_err();
    assert!(err.offset == 0 && err.to_string().contains("DASH"), "{err}");
    let err = View::parse(b"DASH\x01\x00").unwrap_err();
    assert!(matches!(err.kind, ErrorKind::UnexpectedEof { .. }), "{err}");
    assert_eq!(err.offset, 6);
}

#[test]
fn another_major_version_is_an_error_at_its_field() {
    let mut bytes = fixture();
    put_u16(&mut bytes, 4, 2);
    let err = error_of(&bytes);
    assert_eq!(err.offset, 4);
    assert!(err.to_string().contains("major version 1"), "{err}");
    // Another minor version reads.
    let mut bytes = fixture();
    put_u16(&mut bytes, 6, 6);
    assert_eq!(animbin_dmf::read(&bytes).unwrap(), model());
}

#[test]
fn a_header_count_other_than_6_is_an_error_at_its_field() {
    let mut bytes = fixture();
    put_u32(&mut bytes, 12, 7);
    assert_eq!(error_of(&bytes).offset, 12);
}

#[test]
fn a_wrong_label_is_an_error_at_its_entry() {
    let mut bytes = fixture();
    bytes[0x30..0x34].copy_from_slice(b"verx");
    let err = error_of(&bytes);
    assert_eq!(err.offset, 0x30);
    assert!(err.to_string().contains("vert"), "{err}");
}

#[test]
fn an_attribute_table_past_the_end_or_over_the_header_is_an_error_at_header_offset() {
    let mut bytes = fixture();
    put_u32(&mut bytes, 8, 0x340);
    assert_eq!(error_of(&bytes).offset, 8);
    let mut bytes = fixture();
    put_u32(&mut bytes, 8, 0);
    let err = error_of(&bytes);
    // A table at 0 has the right labels nowhere, but the header check comes first: the label
    // of entry 0 would be "DASH". Either way the error is at the field or the entry.
    assert!(err.offset == 0 || err.offset == 8, "{err}");
}

#[test]
fn a_section_past_the_end_is_an_error_at_its_offset_field() {
    let mut bytes = fixture();
    put_u32(&mut bytes, VERT_COUNT_FIELD, 1000);
    let err = error_of(&bytes);
    assert_eq!(err.offset, VERT_OFFSET_FIELD as u64);
    let text = err.to_string();
    assert!(
        text.contains("vertices") && text.contains("1000 x 36 bytes at 0x12c"),
        "{text}"
    );
}

#[test]
fn offsets_and_counts_that_overflow_are_errors_not_panics() {
    let mut bytes = fixture();
    put_u32(&mut bytes, VERT_OFFSET_FIELD, u32::MAX);
    put_u32(&mut bytes, VERT_COUNT_FIELD, u32::MAX);
    assert_eq!(error_of(&bytes).offset, VERT_OFFSET_FIELD as u64);
    let mut bytes = fixture();
    put_u32(&mut bytes, 0x2d0 + 0x24, u32::MAX - 10);
    put_u32(&mut bytes, 0x2d0 + 0x28, u32::MAX);
    assert_eq!(error_of(&bytes).offset, 0x2d0 + 0x24);
}

#[test]
fn a_count_one_too_large_runs_into_the_next_section() {
    let mut bytes = fixture();
    put_u32(&mut bytes, VERT_COUNT_FIELD, 4);
    let err = error_of(&bytes);
    // The faces section now starts inside the vertices: the error sits at the faces' offset
    // field and names both ranges.
    assert_eq!(err.offset, FACE_OFFSET_FIELD as u64);
    let text = err.to_string();
    assert!(
        text.contains("overlap") && text.contains("vertices section (0x12c..0x1bc)"),
        "{text}"
    );
}

#[test]
fn a_last_count_one_too_large_ends_partway_into_a_record() {
    let mut bytes = fixture();
    // Two animations where there is one: the second record is the first track, which fits,
    // but then the tracks overlap it.
    put_u32(&mut bytes, ANIM_COUNT_FIELD, 2);
    assert!(error_of(&bytes).to_string().contains("overlap"));
    // The track list with one record more runs 48 bytes past the end.
    let mut bytes = fixture();
    put_u32(&mut bytes, 0x2d0 + 0x28, 3);
    let err = error_of(&bytes);
    assert_eq!(err.offset, 0x2d0 + 0x24);
    assert!(
        err.to_string()
            .contains("the file ends after 2 whole records and 0 bytes"),
        "{err}"
    );
}

#[test]
fn a_misaligned_section_offset_overlaps_its_neighbour() {
    let mut bytes = fixture();
    // Faces moved back by 4 bytes: they start inside the last vertex.
    put_u32(&mut bytes, FACE_OFFSET_FIELD, 0x194);
    let err = error_of(&bytes);
    assert_eq!(err.offset, FACE_OFFSET_FIELD as u64);
    assert!(err.to_string().contains("overlap"), "{err}");
}

#[test]
fn a_section_over_the_header_or_table_overlaps_it() {
    let mut bytes = fixture();
    put_u32(&mut bytes, VERT_OFFSET_FIELD, 0x08);
    let err = error_of(&bytes);
    assert_eq!(err.offset, VERT_OFFSET_FIELD as u64);
    assert!(err.to_string().contains("overlap"), "{err}");
}

#[test]
fn an_image_past_the_end_or_over_a_section_is_an_error_at_img_offset() {
    let img_offset_field = 0x70 + 0x24;
    let mut bytes = fixture();
    put_u32(&mut bytes, img_offset_field + 4, 0x1000);
    assert_eq!(error_of(&bytes).offset, img_offset_field as u64);
    let mut bytes = fixture();
    put_u32(&mut bytes, img_offset_field, 0x130);
    let err = error_of(&bytes);
    assert!(err.to_string().contains("image of texture 0"), "{err}");
    assert!(err.offset == img_offset_field as u64 || err.offset == VERT_OFFSET_FIELD as u64);
}

#[test]
fn a_track_list_over_the_bones_is_an_error() {
    let mut bytes = fixture();
    put_u32(&mut bytes, 0x2d0 + 0x24, 0x1f0);
    let err = error_of(&bytes);
    assert!(err.to_string().contains("tracks of animation 0"), "{err}");
}

#[test]
fn enum_values_outside_their_list_are_errors_at_their_field() {
    // (field offset in the file, the first value outside the list)
    let cases = [
        (0x70 + 0x30, 3u16),   // texture wrap_s
        (0x70 + 0x32, 3),      // texture wrap_t
        (0xbc + 0x26, 4),      // material blend_equation
        (0xbc + 0x28, 11),     // blend_src
        (0xbc + 0x2a, 11),     // blend_dst
        (0xbc + 0x2e, 3),      // shader_type
        (0xbc + 0x30, 3),      // face_side
        (0xbc + 0x32, 0xffff), // shadow_side
    ];
    for (at, value) in cases {
        let mut bytes = fixture();
        put_u16(&mut bytes, at, value);
        let err = error_of(&bytes);
        assert_eq!(err.offset, at as u64, "{err}");
        assert!(matches!(err.kind, ErrorKind::Invalid { .. }), "{err}");
        assert!(err.to_string().contains(&format!("found {value}")), "{err}");
        // The value just inside the list reads.
        put_u16(&mut bytes, at, value - 1);
        if value != 0xffff {
            animbin_dmf::read(&bytes).unwrap();
        }
    }
}

#[test]
fn sections_in_any_order_and_empty_sections_anywhere_read() {
    let mut bytes = fixture();
    // Move the vertices to the end of the file and point an empty section anywhere.
    let vertices = bytes[0x12c..0x198].to_vec();
    let moved = bytes.len() as u32;
    bytes.extend_from_slice(&vertices);
    put_u32(&mut bytes, VERT_OFFSET_FIELD, moved);
    let mut dmf = animbin_dmf::read(&bytes).unwrap();
    assert_eq!(dmf, model());
    dmf.textures.clear();
    let mut bytes = animbin_dmf::to_bytes(&dmf).unwrap();
    put_u32(&mut bytes, 0x18, 0xffff_fff0);
    assert_eq!(animbin_dmf::read(&bytes).unwrap(), dmf);
}

/// An error at the record `place` (`"bone 3"`).
fn error(place: &str, message: &str) -> Problem {
    Problem::new(Severity::Error, Location::Item(place.into()), message)
}

#[test]
fn values_that_validate_reports_still_read_and_are_kept() {
    let mut bytes = fixture();
    put_u16(&mut bytes, 0x70 + 0x22, 2); // texture flip_y = 2
    put_u16(&mut bytes, 0x2d0 + 0x20, 5); // anim_id 5
    put_u16(&mut bytes, 0x300 + 2, 0); // track 0 prs_flags 0
    bytes[0x1f0..0x210].copy_from_slice(&[b'r'; 32]); // bone 0 name without a NUL
    let dmf = animbin_dmf::read(&bytes).unwrap();
    assert_eq!(dmf.textures[0].flip_y.get(), 2);
    assert_eq!(dmf.animations[0].id, 5);
    assert_eq!(
        animbin_dmf::validate(&dmf),
        [
            error("texture 0", "flip_y is 2, not a boolean 0 or 1"),
            error(
                "bone 0",
                "name Name(\"rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr\", no NUL) has no NUL in its 32 bytes"
            ),
            error("animation 0", "id 5 does not match its position 0"),
            error(
                "animation 0 track 0",
                "prs_flags 0x0 must have at least one of bits 0..2 and no other"
            ),
        ]
    );
    // Whatever the model keeps, a layout-identical rewrite reproduces, once the writer's
    // rules hold again.
    let mut fixed = dmf.clone();
    fixed.bones[0].name = Name::new("root").unwrap();
    fixed.animations[0].id = 0;
    fixed.animations[0].tracks[0].prs_flags = I16::new(PrsFlags::ROTATION.bits());
    let mut expected = bytes.clone();
    expected[0x1f0..0x210].copy_from_slice(&fixture()[0x1f0..0x210]);
    put_u16(&mut expected, 0x2d0 + 0x20, 0);
    put_u16(&mut expected, 0x300 + 2, 2);
    assert_eq!(animbin_dmf::to_bytes(&fixed).unwrap(), expected);
}

#[test]
fn validate_reports_every_out_of_range_reference() {
    let mut dmf = model();
    dmf.materials[0].texture = 1;
    dmf.faces[0].indices[2] = U32::new(3);
    dmf.faces[0].mat_id = U16::new(1);
    dmf.vertices[0].skin_index[1] = I16::new(2);
    dmf.vertices[0].skin_weight[1] = F32::new(0.5);
    dmf.vertices[1].skin_index[3] = I16::new(-2);
    dmf.vertices[2].skin_index[0] = I16::new(-1); // the bind pose: allowed
    dmf.bones[1].parent_id = I16::new(1);
    dmf.animations[0].tracks[1].bone_id = I16::new(2);
    dmf.animations[0].tracks[1].time = F32::new(1.5);
    dmf.textures[0].png[1] = b'X';
    assert_eq!(
        animbin_dmf::validate(&dmf),
        [
            error("texture 0", "the image bytes are not a PNG (no PNG signature)"),
            error("material 0", "tex_id 1 is out of range (1 textures)"),
            error("vertex 0", "skin_index[1] 2 is out of range (2 bones)"),
            error("vertex 1", "skin_index[3] -2 is out of range (2 bones)"),
            error("face 0", "mat_id 1 is out of range (1 materials)"),
            error("face 0", "vertex index c = 3 is out of range (3 vertices)"),
            error("bone 1", "parent_id 1 comes at or after its child"),
            error("animation 0 track 1", "bone_id 2 is out of range (2 bones)"),
            error("animation 0 track 1", "time 1.5 s is outside the animation's 0..=1 s"),
        ]
    );
}

#[test]
fn validate_reports_names_and_ids() {
    let mut dmf = model();
    dmf.bones[1].name = dmf.bones[0].name;
    dmf.bones[0].bone_id = I16::new(7);
    dmf.materials[0].id = 3;
    dmf.materials[0].use_alpha = Bool16(U16::new(5));
    dmf.textures[0].name = Name([0xff; 32]);
    dmf.textures[0].name.0[4] = 0;
    dmf.textures[0].width = 3;
    let mut second = dmf.animations[0].clone();
    second.id = 1;
    second.name = Name::default();
    dmf.animations.push(second);
    assert_eq!(
        animbin_dmf::validate(&dmf),
        [
            error(
                "texture 0",
                "name Name(\"\u{fffd}\u{fffd}\u{fffd}\u{fffd}\") is not UTF-8: expected a UTF-8 name, found invalid utf-8 sequence of 1 bytes from index 0"
            ),
            error("material 0", "id 3 does not match its position 0"),
            error("material 0", "use_alpha is 5, not a boolean 0 or 1"),
            error("bone 0", "id 7 does not match its position 0"),
            error("bone 1", "the bone name Name(\"root\") is also the name of bone 0"),
            error("animation 1", "the animation name is empty"),
        ]
    );
    // The fake PNG has no IHDR, so its size is not compared; a real header is.
    let mut png = animbin_dmf::PNG_SIGNATURE.to_vec();
    png.extend_from_slice(&[0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 0, 2, 0, 0, 0, 2]);
    assert_eq!(animbin_dmf::png_size(&png), Some((2, 2)));
    let mut dmf = model();
    dmf.textures[0].png = png;
    dmf.textures[0].height = 4;
    assert_eq!(
        animbin_dmf::validate(&dmf),
        [error(
            "texture 0",
            "img_width x img_height is 2 x 4, but the PNG is 2 x 2"
        )]
    );
}

#[test]
fn faces_of_a_model_without_materials_may_use_material_0() {
    let mut dmf = model();
    dmf.materials.clear();
    assert_eq!(animbin_dmf::validate(&dmf), vec![]);
}

fn unencodable_at(dmf: &Dmf, at: u64, needle: &str) {
    let err = animbin_dmf::to_bytes(dmf).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)), "{err}");
    assert_eq!(err.offset, at, "{err}");
    assert!(err.to_string().contains(needle), "{err}");
    let mut out = std::io::Cursor::new(Vec::new());
    assert!(animbin_dmf::write(dmf, &mut out).is_err());
    assert!(out.into_inner().is_empty(), "nothing is written before the checks pass");
}

#[test]
fn the_writer_refuses_names_without_room_for_their_nul() {
    let mut dmf = model();
    dmf.bones[1].name = Name([b'b'; 32]);
    unencodable_at(&dmf, 0x1f0 + 112, "needs a NUL");
    let mut dmf = model();
    dmf.materials[0].name = Name([0xc3; 32]);
    dmf.materials[0].name.0[31] = 0;
    unencodable_at(&dmf, 0xbc, "not UTF-8");
}

#[test]
fn the_writer_refuses_ids_that_are_not_positions() {
    let mut dmf = model();
    dmf.textures[0].id = 1;
    unencodable_at(&dmf, 0x70 + 0x20, "ids must match positions");
    let mut dmf = model();
    dmf.animations[0].id = -1;
    unencodable_at(&dmf, 0x2d0 + 0x20, "ids must match positions");
    dmf.renumber();
    assert_eq!(dmf, model());
}

#[test]
fn the_writer_refuses_parents_after_their_children() {
    let mut dmf = model();
    dmf.bones[0].parent_id = I16::new(1);
    unencodable_at(&dmf, 0x1f0 + 0x22, "parents must come before");
    let mut dmf = model();
    dmf.bones[1].parent_id = I16::new(-2);
    unencodable_at(&dmf, 0x1f0 + 112 + 0x22, "parent_id -2");
}

#[test]
fn the_writer_refuses_tracks_without_a_prs_flag_or_with_other_bits() {
    let mut dmf = model();
    dmf.animations[0].tracks[1] = Track::new(1, 0.5, None, None, None);
    unencodable_at(&dmf, 0x300 + 48 + 2, "prs_flags 0x0");
    dmf.animations[0].tracks[1] = Track::new(1, 0.5, Some(Vec3::new(0.0, 0.0, 0.0)), None, None);
    dmf.animations[0].tracks[1].prs_flags = I16::new(PrsFlags::POSITION.bits() | 8);
    unencodable_at(&dmf, 0x300 + 48 + 2, "prs_flags 0x9");
}

#[test]
fn random_corruption_never_panics() {
    let original = fixture();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..20_000 {
        let mut bytes = original.clone();
        for _ in 0..4 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let at = (state % bytes.len() as u64) as usize;
            bytes[at] = (state >> 32) as u8;
        }
        if let Ok(dmf) = animbin_dmf::read(&bytes) {
            let _ = animbin_dmf::validate(&dmf);
            let _ = dmf.to_scene(&Default::default(), &mut Default::default());
            // Compared as bytes: a corrupted float may be a NaN.
            if let Ok(again) = animbin_dmf::to_bytes(&dmf) {
                assert_eq!(
                    animbin_dmf::to_bytes(&animbin_dmf::read(&again).unwrap()).unwrap(),
                    again
                );
            }
        }
    }
}

#[test]
fn track_rotations_that_are_not_unit_quaternions_are_warnings() {
    let mut dmf = model();
    assert_eq!(animbin_dmf::validate(&dmf), []);
    let track = &mut dmf.animations[0].tracks[0];
    track.set_flags(track.flags() | PrsFlags::ROTATION);
    track.rot = animbin_core::math::Quat::new(0.0, 0.0, 0.0, 0.0).map(F32::new);
    let problems = animbin_dmf::validate(&dmf);
    assert_eq!(
        problems,
        [Problem::new(
            Severity::Warning,
            Location::Item("animation 0 track 0".into()),
            "the rotation has length 0.000000, not 1, so it is no rotation"
        )]
    );
    assert_eq!(
        problems[0].to_string(),
        "warning: animation 0 track 0: the rotation has length 0.000000, not 1, so it is no rotation"
    );
    // A rotation whose flag is clear is not one: its values are not checked.
    let track = &mut dmf.animations[0].tracks[0];
    track.set_flags((track.flags() - PrsFlags::ROTATION) | PrsFlags::POSITION);
    assert_eq!(animbin_dmf::validate(&dmf), []);
}
