//! Byte-exact fixtures written out in hex: the `frame_t` and `bone_t` width boundaries, the
//! old frame rule, every optional block, trailers, bad input with its offset, and what the
//! writer refuses.

use animbin_core::{IndexWidth, Quat, Vec3};
use animbin_seanim::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, FileFormat, FrameWidthRule, Key, Location, Modifier, Note,
    Precision, PresenceFlags, Problem, PropertyFlags, SeAnim, SeBlend, Severity, StrayCounts, Trailer, View, read,
    read_with_layout, to_bytes, validate,
};
use animbin_testing::seanim::OLD_RULE_256 as LEGACY_256;
use animbin_testing::{assert_every_truncation_fails, hex};

/// Reads `bytes`, checks that they are written back identically and that the view agrees
/// with the owned model, and returns the model.
fn read_back(bytes: &[u8]) -> SeAnim {
    let anim = read_and_view(bytes);
    assert_eq!(to_bytes(&anim).expect("the fixture writes"), bytes, "rewrite differs");
    anim
}

/// Reads a file that only the old frame rule reads, checks that the view agrees, and that
/// the rewrite uses the current rule and reads back (under it) with the same keys and notes.
/// Returns the model and the rewrite.
fn read_legacy(bytes: &[u8]) -> (SeAnim, Vec<u8>) {
    let anim = read_and_view(bytes);
    assert_eq!(anim.frame_width_rule, FrameWidthRule::Legacy);
    assert!(View::parse_with_rule(bytes, FrameWidthRule::Current).is_err());
    let rewrite = to_bytes(&anim).expect("the fixture writes");
    assert_ne!(rewrite, bytes, "the rewrite keeps the old rule");
    assert!(View::parse_with_rule(&rewrite, FrameWidthRule::Current).is_ok());
    let again = read(&rewrite).expect("the rewrite reads");
    assert_eq!(again.frame_width_rule, FrameWidthRule::Current);
    assert_eq!(again.frame_width().unwrap(), anim.written_frame_width().unwrap());
    let as_read = SeAnim {
        frame_width_rule: FrameWidthRule::Legacy,
        ..again
    };
    assert_eq!(as_read, anim, "the rewrite holds other data");
    (anim, rewrite)
}

/// Reads `bytes` with the layout reader and checks that the view agrees with its model.
fn read_and_view(bytes: &[u8]) -> SeAnim {
    let anim = read_with_layout(bytes).expect("the fixture reads");
    assert_eq!(read(bytes).expect("and reads through the view"), anim);
    let view = View::parse(bytes).expect("the view opens");
    assert_eq!(view.frame_width_rule(), anim.frame_width_rule);
    assert_eq!(view.bones().count(), anim.bones.len());
    for (v, b) in view.bones().zip(&anim.bones) {
        assert_eq!(v.name, b.name);
        assert_eq!(v.flags, b.flags);
        assert_eq!(v.location.to_vec(), b.location);
        assert_eq!(v.rotation.to_vec(), b.rotation);
        assert_eq!(v.scale.to_vec(), b.scale);
    }
    assert_eq!(
        view.modifiers().iter().collect::<Option<Vec<_>>>(),
        Some(anim.modifiers.clone())
    );
    let notes: Vec<Note> = view
        .notes()
        .map(|(frame, name)| Note {
            frame,
            name: name.into(),
        })
        .collect();
    assert_eq!(notes, anim.notes);
    assert_eq!(view.custom(), anim.custom);
    assert_eq!(view.to_anim(), anim);
    assert_eq!(view.summary(), anim.summary(), "the view's summary and the model's");
    anim
}

/// The error of reading `bytes`, checked to be the same (offset and text) from the view.
fn read_error(bytes: &[u8]) -> animbin_core::Error {
    let err = read(bytes).expect_err("the input is refused");
    let view_err = View::parse(bytes).expect_err("the view refuses it too");
    assert_eq!(err.offset, view_err.offset, "read: {err}; view: {view_err}");
    err
}

fn assert_truncations_fail(bytes: &[u8]) {
    assert_every_truncation_fails(bytes, read);
    assert_every_truncation_fails(bytes, read_with_layout);
    assert_every_truncation_fails(bytes, |b| View::parse(b).map(|_| ()));
}

/// At `frameCount` 256 and 65536 a truncated file can be a whole file under the old
/// `frame_t` rule (one byte less per frame field); exactly the prefixes `legacy_lengths` read,
/// and they read under that rule, to their end, and are rewritten under the current one.
fn assert_truncations_fail_or_read_legacy(bytes: &[u8], legacy_lengths: &[usize]) {
    let mut read_lengths = Vec::new();
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        match read(prefix) {
            Ok(anim) => {
                assert_eq!(anim.frame_width_rule, FrameWidthRule::Legacy, "prefix of {len} bytes");
                assert_eq!(anim.trailer, Trailer::None, "prefix of {len} bytes");
                read_legacy(prefix);
                read_lengths.push(len);
            }
            Err(_) => assert!(View::parse(prefix).is_err(), "the view opens a prefix of {len} bytes"),
        }
    }
    assert_eq!(read_lengths, legacy_lengths);
}

fn loc_bone(name: &str, keys: &[(u32, [f64; 3])]) -> Bone {
    Bone {
        location: keys
            .iter()
            .map(|&(f, [x, y, z])| Key::new(f, Vec3::new(x, y, z)))
            .collect(),
        ..Bone::new(name)
    }
}

fn loc_anim(bones: Vec<Bone>) -> SeAnim {
    SeAnim {
        framerate: 30.0,
        data_presence_flags: PresenceFlags::LOC,
        bones,
        ..SeAnim::default()
    }
}

const FRAMECOUNT_255: &str = "
    53 45 41 6e 69 6d      # magic SEAnim
    01 00                  # version 1
    1c 00                  # headerSize 0x1C (counts itself)
    00                     # animType absolute
    00                     # animFlags
    01                     # dataPresenceFlags: LOC
    00                     # dataPropertyFlags: single precision
    00 00                  # reserved1
    00 00 f0 41            # framerate 30.0
    ff 00 00 00            # frameCount 255 -> u8 frame_t
    01 00 00 00            # boneCount 1
    00                     # boneAnimModifierCount
    00 00 00               # reserved2
    00 00 00 00            # noteCount
    61 00                  # bone name a
    00                     # bone flags
    02                     # locKeyCount (u8)
    00 00 00 80 3f 00 00 00 40 00 00 40 40    # frame 0: (1, 2, 3)
    fe 00 00 00 00 00 00 00 00 00 00 00 00    # frame 254: (0, 0, 0)
";

#[test]
fn frame_width_is_u8_up_to_frame_count_255() {
    let bytes = hex(FRAMECOUNT_255);
    let anim = read_back(&bytes);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U8);
    assert_eq!(anim.fixed_frame_count, None);
    let made = loc_anim(vec![loc_bone("a", &[(0, [1.0, 2.0, 3.0]), (254, [0.0; 3])])]);
    assert_eq!(anim, made);
    assert_eq!(to_bytes(&made).unwrap(), bytes);
    assert_truncations_fail(&bytes);
}

const FRAMECOUNT_256: &str = "
    53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
    00 00 01 00 00 00               # absolute, no flags, LOC, single, reserved1
    00 00 f0 41                     # framerate 30.0
    00 01 00 00                     # frameCount 256 -> u16 frame_t
    01 00 00 00 00 00 00 00 00 00 00 00   # boneCount 1, no modifiers, reserved2, noteCount 0
    61 00                           # bone name a
    00                              # bone flags
    02 00                           # locKeyCount (u16)
    00 00 00 00 80 3f 00 00 00 40 00 00 40 40    # frame 0: (1, 2, 3)
    ff 00 00 00 00 00 00 00 00 00 00 00 00 00    # frame 255: (0, 0, 0)
";

#[test]
fn frame_width_switches_to_u16_at_frame_count_256() {
    let bytes = hex(FRAMECOUNT_256);
    let anim = read_back(&bytes);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U16);
    assert_eq!(anim.frame_width_rule, FrameWidthRule::Current);
    let made = loc_anim(vec![loc_bone("a", &[(0, [1.0, 2.0, 3.0]), (255, [0.0; 3])])]);
    assert_eq!(anim, made);
    assert_eq!(to_bytes(&made).unwrap(), bytes);
    // Three bytes short, the file is a whole old-rule file: a u8 count and two u8 frames.
    assert_truncations_fail_or_read_legacy(&bytes, &[bytes.len() - 3]);
}

const FRAMECOUNT_65535: &str = "
    53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
    00 00 01 00 00 00               # absolute, no flags, LOC, single, reserved1
    00 00 f0 41                     # framerate 30.0
    ff ff 00 00                     # frameCount 65535 -> u16 frame_t
    01 00 00 00 00 00 00 00 00 00 00 00   # boneCount 1, no modifiers, reserved2, noteCount 0
    61 00 00                        # bone name a, flags
    01 00                           # locKeyCount (u16)
    fe ff 00 00 80 3f 00 00 80 3f 00 00 80 3f    # frame 65534: (1, 1, 1)
";

#[test]
fn frame_width_is_u16_up_to_frame_count_65535() {
    let bytes = hex(FRAMECOUNT_65535);
    let anim = read_back(&bytes);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U16);
    let made = loc_anim(vec![loc_bone("a", &[(65534, [1.0; 3])])]);
    assert_eq!(to_bytes(&made).unwrap(), bytes);
    assert_truncations_fail(&bytes);
}

const FRAMECOUNT_65536: &str = "
    53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
    00 00 01 00 00 00               # absolute, no flags, LOC, single, reserved1
    00 00 f0 41                     # framerate 30.0
    00 00 01 00                     # frameCount 65536 -> u32 frame_t
    01 00 00 00 00 00 00 00 00 00 00 00   # boneCount 1, no modifiers, reserved2, noteCount 0
    61 00 00                        # bone name a, flags
    01 00 00 00                     # locKeyCount (u32)
    ff ff 00 00 00 00 80 3f 00 00 80 3f 00 00 80 3f    # frame 65535: (1, 1, 1)
";

#[test]
fn frame_width_switches_to_u32_at_frame_count_65536() {
    let bytes = hex(FRAMECOUNT_65536);
    let anim = read_back(&bytes);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U32);
    let made = loc_anim(vec![loc_bone("a", &[(65535, [1.0; 3])])]);
    assert_eq!(to_bytes(&made).unwrap(), bytes);
    // Four bytes short, the file is a whole old-rule file: a u16 count and a u16 frame.
    assert_truncations_fail_or_read_legacy(&bytes, &[bytes.len() - 4]);
}

/// A bone block of `n` bones with empty names and no rotation keys, and one modifier.
fn many_bones(bone_count: &str, n: usize, modifier: &str) -> Vec<u8> {
    let text = format!(
        "53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
         01 00 02 00 00 00               # additive, no flags, ROT, single, reserved1
         00 00 f0 41                     # framerate 30.0
         00 00 00 00                     # frameCount 0 (no keys)
         {bone_count}                    # boneCount
         01 00 00 00                     # one modifier, reserved2
         00 00 00 00                     # noteCount 0
         {names}                         # empty names
         {modifier}                      # the modifier record
         {data}                          # per bone: flags 0, rotKeyCount 0 (u8)
        ",
        names = "00 ".repeat(n),
        data = "00 00 ".repeat(n),
    );
    hex(&text)
}

fn many_bones_anim(n: usize, modifier: u32) -> SeAnim {
    SeAnim {
        anim_type: AnimType::Additive,
        framerate: 30.0,
        data_presence_flags: PresenceFlags::ROT,
        bones: vec![Bone::new(""); n],
        modifiers: vec![Modifier {
            bone: modifier,
            anim_type: AnimType::Delta,
        }],
        ..SeAnim::default()
    }
}

#[test]
fn bone_width_is_u8_up_to_bone_count_255() {
    let bytes = many_bones("ff 00 00 00", 255, "fe 03  # bone 254 (u8) -> delta");
    let anim = read_back(&bytes);
    assert_eq!(anim.bone_width().unwrap(), IndexWidth::U8);
    assert_eq!(anim, many_bones_anim(255, 254));
    assert_eq!(to_bytes(&many_bones_anim(255, 254)).unwrap(), bytes);
    assert_eq!(anim.bone_anim_type(254), AnimType::Delta);
    assert_eq!(anim.bone_anim_type(0), AnimType::Additive);
    assert_truncations_fail(&bytes);
}

#[test]
fn bone_width_switches_to_u16_at_bone_count_256() {
    let bytes = many_bones("00 01 00 00", 256, "ff 00 03  # bone 255 (u16) -> delta");
    let anim = read_back(&bytes);
    assert_eq!(anim.bone_width().unwrap(), IndexWidth::U16);
    assert_eq!(to_bytes(&many_bones_anim(256, 255)).unwrap(), bytes);
    assert_truncations_fail(&bytes);
}

#[test]
fn old_frame_rule_reads_frame_count_256_with_u8_frames_and_rewrites_it_with_the_current_rule() {
    let bytes = hex(LEGACY_256);
    // The current rule (u16) runs out of bytes; the old rule reads the whole file.
    let (anim, rewrite) = read_legacy(&bytes);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U8);
    assert_eq!(anim.written_frame_width().unwrap(), IndexWidth::U16);
    assert_eq!(anim.bones[0].location.get(1).unwrap().frame, 255);
    // The rewrite is the current rule's file of the same keys, with u16 frames.
    assert_eq!(rewrite, hex(FRAMECOUNT_256));
    let current = SeAnim {
        frame_width_rule: FrameWidthRule::Current,
        ..anim
    };
    assert_eq!(to_bytes(&current).unwrap(), rewrite);
    assert_truncations_fail(&bytes);
}

const LEGACY_65536: &str = "
    53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
    00 00 01 00 00 00               # absolute, no flags, LOC, single, reserved1
    00 00 f0 41                     # framerate 30.0
    00 00 01 00                     # frameCount 65536, written with the old rule: u16 frame_t
    01 00 00 00 00 00 00 00 00 00 00 00   # boneCount 1, no modifiers, reserved2, noteCount 0
    61 00 00                        # bone name a, flags
    02 00                           # locKeyCount (u16)
    00 00 00 00 80 3f 00 00 80 3f 00 00 80 3f    # frame 0: (1, 1, 1)
    ff ff 00 00 80 3f 00 00 80 3f 00 00 80 3f    # frame 65535: (1, 1, 1)
";

#[test]
fn old_frame_rule_reads_frame_count_65536_with_u16_frames_and_rewrites_them_as_u32() {
    let bytes = hex(LEGACY_65536);
    let (anim, rewrite) = read_legacy(&bytes);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U16);
    assert_eq!(anim.written_frame_width().unwrap(), IndexWidth::U32);
    // A u32 key count and two u32 frames: six bytes more than the old rule's u16s.
    assert_eq!(rewrite.len(), bytes.len() + 6);
    assert_eq!(read(&rewrite).unwrap().bones[0].location, anim.bones[0].location);
    assert_truncations_fail(&bytes);
}

const EVERY_BLOCK: &str = "
    53 45 41 6e 69 6d 01 00         # magic, version
    1e 00                           # headerSize 0x1E: two bytes past the seed's header
    03                              # animType delta
    01                              # animFlags: LOOPED
    c7                              # dataPresenceFlags: LOC ROT SCALE NOTE CUSTOM
    01                              # dataPropertyFlags: PRECISION_HIGH
    00 00                           # reserved1
    00 00 70 42                     # framerate 60.0 (a float even in high precision)
    05 00 00 00                     # frameCount 5
    02 00 00 00                     # boneCount 2
    01                              # boneAnimModifierCount 1
    00 00 00                        # reserved2
    01 00 00 00                     # noteCount 1
    aa bb                           # the extra header bytes
    72 6f 6f 74 00                  # bone name root
    6a 00                           # bone name j
    01 01                           # modifier: bone 1 (u8 bone_t) -> additive
    00                              # root flags
    01 00 00 00 00 00 00 00 f0 3f 00 00 00 00 00 00 00 40 00 00 00 00 00 00 00 00   # loc: frame 0 (1, 2, 0)
    01 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 f0 3f  # rot: frame 4 (0, 0, 0, 1)
    00                              # no scale keys
    01                              # j flags: cosmetic
    00 00 00                        # no loc, rot or scale keys
    03 65 76 00                     # note: frame 3 ev
    03 00 00 00 01 02 03            # custom block: size 3, bytes
    53 45 42 6c 65 6e 64 0a         # SEBlend trailer magic
    01 00 00 00 00 00 00 00         # one shape
    73 00                           # shape name s
    01 00 00 00                     # one key
    02 00 00 00 00 00 00 3f 00 00 80 3f 00 00 00 00   # frame 2: (0.5, 1, 0)
";

fn every_block_anim() -> SeAnim {
    SeAnim {
        anim_type: AnimType::Delta,
        anim_flags: AnimFlags::LOOPED,
        data_presence_flags: PresenceFlags::all(),
        data_property_flags: PropertyFlags::PRECISION_HIGH,
        framerate: 60.0,
        header_extra: vec![0xaa, 0xbb],
        bones: vec![
            Bone {
                location: vec![Key::new(0, Vec3::new(1.0, 2.0, 0.0))].into(),
                rotation: vec![Key::new(4, Quat::new(0.0, 0.0, 0.0, 1.0))].into(),
                ..Bone::new("root")
            },
            Bone {
                flags: Bone::COSMETIC,
                ..Bone::new("j")
            },
        ],
        modifiers: vec![Modifier {
            bone: 1,
            anim_type: AnimType::Additive,
        }],
        notes: vec![Note {
            frame: 3,
            name: "ev".into(),
        }],
        custom: vec![1, 2, 3],
        trailer: Trailer::SeBlend(SeBlend {
            shapes: vec![BlendShape {
                name: "s".into(),
                keys: vec![BlendKey {
                    frame: 2,
                    value: [0.5, 1.0, 0.0],
                }],
            }],
        }),
        ..SeAnim::default()
    }
}

#[test]
fn every_block_and_the_seblend_trailer_read_and_write_back() {
    let bytes = hex(EVERY_BLOCK);
    let anim = read_back(&bytes);
    assert_eq!(anim, every_block_anim());
    assert_eq!(anim.precision(), Precision::Double);
    assert!(anim.looped());
    assert_eq!(to_bytes(&every_block_anim()).unwrap(), bytes);
    assert!(validate(&anim).is_empty(), "{:?}", validate(&anim));
    // Truncated inside the blocks it is an error; inside the trailer it reads as unknown bytes.
    let blocks_end = bytes.len() - 38;
    assert_truncations_fail(&bytes[..blocks_end]);
    let cut = read(&bytes[..bytes.len() - 1]).unwrap();
    assert_eq!(
        cut.trailer,
        Trailer::Unknown(bytes[blocks_end..bytes.len() - 1].to_vec())
    );
    assert_eq!(to_bytes(&cut).unwrap(), &bytes[..bytes.len() - 1]);
}

#[test]
fn unknown_trailing_bytes_are_kept() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes.extend(hex("de ad be ef"));
    let anim = read_back(&bytes);
    assert_eq!(anim.trailer, Trailer::Unknown(vec![0xde, 0xad, 0xbe, 0xef]));
    assert_eq!(View::parse(&bytes).unwrap().trailer_bytes(), hex("de ad be ef"));
    assert_eq!(
        View::parse(&bytes).unwrap().trailer(),
        Trailer::Unknown(hex("de ad be ef"))
    );
}

const STRAY_COUNTS: &str = "
    53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
    02 00                           # relative, no flags
    40                              # dataPresenceFlags: NOTE only
    00 00 00                        # single, reserved1
    00 00 f0 41                     # framerate 30.0
    08 00 00 00                     # frameCount 8: past the last note, kept as stored
    05 00 00 00                     # boneCount 5 without a bone flag
    02                              # boneAnimModifierCount 2 without a bone flag
    00 07 00                        # reserved2: a byte set
    01 00 00 00                     # noteCount 1
    02 65 00                        # note: frame 2 e
";

#[test]
fn counts_of_absent_blocks_and_reserved_bytes_are_kept_and_reported() {
    let bytes = hex(STRAY_COUNTS);
    let anim = read_back(&bytes);
    assert_eq!(
        anim.stray_counts,
        StrayCounts {
            bone_count: 5,
            bone_anim_modifier_count: 2,
            note_count: 0
        }
    );
    assert_eq!(anim.fixed_frame_count, Some(8));
    assert_eq!(anim.reserved2, [0, 7, 0]);
    let problems = validate(&anim);
    assert_eq!(
        problems,
        vec![
            error(
                Location::Offset(24),
                "boneCount is 5, but the LOC/ROT/SCALE flag is clear"
            ),
            error(
                Location::Offset(28),
                "boneAnimModifierCount is 2, but the LOC/ROT/SCALE flag is clear"
            ),
            error(Location::Offset(29), "reserved2 is 0x00 0x07 0x00, not zero"),
        ]
    );
    assert_truncations_fail(&bytes);
}

#[test]
fn validate_reports_frames_past_the_end_modifiers_past_the_bones_and_bad_flags() {
    let mut anim = loc_anim(vec![loc_bone("a", &[(3, [0.0; 3])])]);
    anim.fixed_frame_count = Some(2);
    anim.bones[0].flags = 2;
    anim.modifiers.push(Modifier {
        bone: 1,
        anim_type: AnimType::Absolute,
    });
    anim.data_presence_flags = anim.data_presence_flags | PresenceFlags::NOTE | PresenceFlags::from_bits_retain(0x08);
    anim.notes.push(Note {
        frame: 2,
        name: "n".into(),
    });
    anim.anim_flags = AnimFlags::from_bits_retain(0x81);
    let back = read(&to_bytes(&anim).unwrap()).unwrap();
    let item = |item: &str| Location::Item(item.into());
    assert_eq!(
        validate(&back),
        [
            error(item("bone 0 location key 0"), "frame 3 is not below frameCount 2"),
            error(item("note 0"), "frame 2 is not below frameCount 2"),
            error(item("bone modifier 0"), "names bone 1, but there are 1 bones"),
            error(Location::Offset(11), "animFlags has reserved bits 0x80 set"),
            error(Location::Offset(12), "dataPresenceFlags has reserved bits 0x08 set"),
            error(item("bone 0"), "flags 2 are neither 0 (default) nor 1 (cosmetic)"),
        ]
    );
    let lines: Vec<String> = validate(&back).iter().map(ToString::to_string).collect();
    assert_eq!(lines[0], "bone 0 location key 0: frame 3 is not below frameCount 2");
    assert_eq!(lines[3], "byte 11 (0xb): animFlags has reserved bits 0x80 set");
    let empty = SeAnim::default();
    assert_eq!(
        validate(&read(&to_bytes(&empty).unwrap()).unwrap()),
        vec![error(
            Location::Offset(12),
            "no bone or note block: the file has no data block"
        )]
    );
}

/// An error `validate` reports.
fn error(location: Location, message: &str) -> Problem {
    Problem::new(Severity::Error, location, message)
}

/// A warning `validate` reports.
fn warning(location: Location, message: &str) -> Problem {
    Problem::new(Severity::Warning, location, message)
}

// ---------------------------------------------------------------------------------------
// Bad input: every error names the byte where it was found.

fn assert_error_at(bytes: &[u8], offset: u64, text: &str) {
    let err = read_error(bytes);
    assert_eq!(err.offset, offset, "{err}");
    assert!(err.to_string().contains(text), "{err:?} does not mention {text:?}");
}

#[test]
fn wrong_magic_is_an_error_at_byte_0() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[5] = b'X';
    assert_error_at(&bytes, 0, "expected the magic \"SEAnim\", found \"SEAniX\"");
}

#[test]
fn a_version_other_than_1_is_an_error_at_byte_6() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[6] = 2;
    assert_error_at(&bytes, 6, "expected version 1, found 2");
}

#[test]
fn a_header_size_under_0x1c_is_an_error_at_byte_8() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[8] = 0x1a;
    assert_error_at(&bytes, 8, "headerSize of at least 0x1C");
}

#[test]
fn a_header_size_past_the_end_is_an_error() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[8] = 0xff;
    bytes[9] = 0xff;
    assert_error_at(&bytes, 36, "extra header byte count 65507");
}

#[test]
fn an_anim_type_past_3_is_an_error_at_byte_10() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[10] = 4;
    assert_error_at(&bytes, 10, "anim type from 0 (absolute) to 3 (delta), found 4");
}

#[test]
fn a_huge_bone_count_over_a_tiny_body_is_refused_before_allocating() {
    let bytes = hex("
        53 45 41 6e 69 6d 01 00 1c 00 00 00 01 00 00 00 00 00 f0 41 01 00 00 00
        ff ff ff ff                     # boneCount 0xFFFFFFFF
        00 00 00 00 00 00 00 00
        61 00                           # one name, nothing else
    ");
    assert_error_at(&bytes, 36, "bone name count 4294967295");
}

#[test]
fn a_huge_note_count_is_refused_at_the_note_block() {
    let bytes = hex("
        53 45 41 6e 69 6d 01 00 1c 00 00 00 40 00 00 00 00 00 f0 41 01 00 00 00
        00 00 00 00 00 00 00 00
        ff ff ff ff                     # noteCount 0xFFFFFFFF
        00 61 00
    ");
    assert_error_at(&bytes, 36, "note count 4294967295");
}

#[test]
fn a_huge_custom_size_is_refused_after_the_size() {
    let bytes = hex("
        53 45 41 6e 69 6d 01 00 1c 00 00 00 80 00 00 00 00 00 f0 41 00 00 00 00
        00 00 00 00 00 00 00 00 00 00 00 00
        ff ff ff ff                     # custom size 0xFFFFFFFF
        01 02
    ");
    assert_error_at(&bytes, 40, "custom block byte count 4294967295");
}

#[test]
fn a_huge_key_count_is_refused_at_the_key_run() {
    let bytes = hex("
        53 45 41 6e 69 6d 01 00 1c 00 00 00 01 00 00 00 00 00 f0 41
        70 11 01 00                     # frameCount 70000 -> u32 frame_t
        01 00 00 00 00 00 00 00 00 00 00 00
        61 00 00                        # bone a, flags
        ff ff ff ff                     # locKeyCount 0xFFFFFFFF
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
    ");
    assert_error_at(&bytes, 43, "count 4294967295");
}

#[test]
fn a_huge_modifier_count_is_refused_at_the_modifiers() {
    let bytes = hex("
        53 45 41 6e 69 6d 01 00 1c 00 00 00 01 00 00 00 00 00 f0 41 00 00 00 00
        01 00 00 00
        ff                              # boneAnimModifierCount 255
        00 00 00 00 00 00 00
        61 00                           # bone a
        00 00                           # one modifier record, nothing else
    ");
    assert_error_at(&bytes, 38, "bone modifier count 255");
}

#[test]
fn frame_t_wider_than_the_data_is_an_error_at_the_key_run() {
    // frameCount 300 asks for u16 frames, but the keys were written with u8 frames: the u16
    // count (2) then leaves too few bytes for two 14-byte records.
    let bytes = hex("
        53 45 41 6e 69 6d 01 00 1c 00 00 00 01 00 00 00 00 00 f0 41
        2c 01 00 00                     # frameCount 300 -> u16 frame_t
        01 00 00 00 00 00 00 00 00 00 00 00
        61 00 00                        # bone a, flags
        02                              # locKeyCount as a u8
        00 00 00 80 3f 00 00 00 40 00 00 40 40
        09 00 00 00 00 00 00 00 00 00 00 00 00
    ");
    assert_error_at(&bytes, 41, "key count 2 needs at least 28 bytes, but only 25 remain");
}

#[test]
fn a_modifier_override_past_3_is_an_error_at_its_byte() {
    let mut bytes = many_bones("ff 00 00 00", 255, "fe 03");
    let at = 36 + 255 + 1;
    bytes[at] = 9;
    assert_error_at(&bytes, at as u64, "anim type from 0 (absolute) to 3 (delta), found 9");
}

#[test]
fn a_bone_name_that_is_not_utf8_is_an_error_at_the_name() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[36] = 0xff;
    assert_error_at(&bytes, 36, "UTF-8");
}

// ---------------------------------------------------------------------------------------
// The writer refuses what it cannot encode.

fn write_error(anim: &SeAnim) -> animbin_core::Error {
    to_bytes(anim).expect_err("the writer refuses")
}

#[test]
fn the_writer_refuses_256_modifiers() {
    let mut anim = many_bones_anim(300, 0);
    anim.modifiers = (0..256)
        .map(|bone| Modifier {
            bone,
            anim_type: AnimType::Absolute,
        })
        .collect();
    let err = write_error(&anim);
    assert_eq!(err.offset, 28, "{err}");
    assert!(err.to_string().contains("256 bone modifiers"), "{err}");
    anim.modifiers.pop();
    assert!(to_bytes(&anim).is_ok());
}

#[test]
fn the_writer_refuses_a_frame_past_frame_t() {
    let mut anim = loc_anim(vec![loc_bone("a", &[(0, [0.0; 3]), (300, [0.0; 3])])]);
    anim.fixed_frame_count = Some(10);
    let err = write_error(&anim);
    assert_eq!(err.offset, 38 + 1 + 1 + 13, "{err}");
    assert!(err.to_string().contains("frame 300"), "{err}");
}

#[test]
fn the_writer_refuses_a_key_count_past_frame_t() {
    let mut anim = loc_anim(vec![loc_bone("a", &[(0, [0.0; 3]); 256])]);
    anim.fixed_frame_count = Some(1);
    assert!(write_error(&anim).to_string().contains("256 location keys"));
}

#[test]
fn the_writer_refuses_a_modifier_past_bone_t() {
    let mut anim = many_bones_anim(3, 256);
    anim.modifiers[0].bone = 256;
    let err = write_error(&anim);
    assert_eq!(err.offset, 36 + 3, "{err}");
}

#[test]
fn the_writer_keeps_the_consistency_rules() {
    let bones_without_flags = SeAnim {
        bones: vec![Bone::new("a")],
        ..SeAnim::default()
    };
    assert!(
        write_error(&bones_without_flags)
            .to_string()
            .contains("no LOC, ROT or SCALE flag")
    );

    let notes_without_flag = SeAnim {
        notes: vec![Note {
            frame: 0,
            name: "n".into(),
        }],
        ..SeAnim::default()
    };
    assert!(
        write_error(&notes_without_flag)
            .to_string()
            .contains("NOTE flag is clear")
    );

    let mut keys_without_flag = loc_anim(vec![loc_bone("a", &[(0, [0.0; 3])])]);
    keys_without_flag.bones[0]
        .scale
        .to_double_mut()
        .push(Key::new(0, Vec3::new(1.0, 1.0, 1.0)));
    let err = write_error(&keys_without_flag).to_string();
    assert!(
        err.contains("bone 0 has 1 scale keys, but the scale presence flag is clear"),
        "{err}"
    );

    let custom_without_flag = SeAnim {
        custom: vec![1],
        ..loc_anim(vec![])
    };
    assert!(
        write_error(&custom_without_flag)
            .to_string()
            .contains("CUSTOM flag is clear")
    );

    let stray_with_flag = SeAnim {
        stray_counts: StrayCounts {
            note_count: 1,
            ..StrayCounts::default()
        },
        data_presence_flags: PresenceFlags::NOTE,
        ..SeAnim::default()
    };
    assert!(write_error(&stray_with_flag).to_string().contains("stray note count"));
}

#[test]
fn the_writer_refuses_values_beyond_single_precision_and_names_with_nul() {
    let too_big = loc_anim(vec![loc_bone("a", &[(0, [1e300, 0.0, 0.0])])]);
    assert!(write_error(&too_big).to_string().contains("beyond single precision"));
    let high = SeAnim {
        data_property_flags: PropertyFlags::PRECISION_HIGH,
        ..too_big
    };
    assert!(to_bytes(&high).is_ok());
    let nul = loc_anim(vec![Bone::new("a\0b")]);
    assert!(write_error(&nul).to_string().contains("NUL"));
}

#[test]
fn the_writer_names_the_item_whose_name_holds_a_nul() {
    // The bone names start at 36: "a\0" then the bad one.
    let bone = loc_anim(vec![Bone::new("a"), Bone::new("b\0c")]);
    let err = write_error(&bone);
    assert_eq!(err.offset, 38, "{err}");
    assert!(err.to_string().contains("bone 1 name: contains a NUL byte"), "{err}");

    let mut note = loc_anim(vec![loc_bone("a", &[(0, [0.0; 3])])]);
    note.data_presence_flags |= PresenceFlags::NOTE;
    note.notes.push(Note {
        frame: 0,
        name: "n\0".into(),
    });
    let err = write_error(&note);
    // Header, "a\0", flags, a u8 key count and one 13-byte key, then the note's u8 frame.
    assert_eq!(err.offset, 36 + 2 + 1 + 1 + 13 + 1, "{err}");
    assert!(err.to_string().contains("note 0 name: contains a NUL byte"), "{err}");

    let shape = SeAnim {
        trailer: Trailer::SeBlend(SeBlend {
            shapes: vec![BlendShape {
                name: "\0".into(),
                keys: Vec::new(),
            }],
        }),
        ..loc_anim(vec![])
    };
    let err = write_error(&shape);
    // An empty bone block under LOC, then the magic and the u64 count.
    assert_eq!(err.offset, 36 + 16, "{err}");
    assert!(
        err.to_string().contains("SEBlend shape 0 name: contains a NUL byte"),
        "{err}"
    );
}

#[test]
fn the_writer_names_a_note_past_frame_t() {
    let mut anim = SeAnim {
        data_presence_flags: PresenceFlags::NOTE,
        fixed_frame_count: Some(3),
        ..SeAnim::default()
    };
    anim.notes.push(Note {
        frame: 300,
        name: "n".into(),
    });
    let err = write_error(&anim);
    assert_eq!(err.offset, 36, "{err}");
    assert!(
        err.to_string()
            .contains("note 0 is at frame 300, past the 1-byte frame_t"),
        "{err}"
    );
}

#[test]
fn the_writer_names_a_modifier_past_bone_t() {
    let mut anim = many_bones_anim(3, 256);
    anim.modifiers[0].bone = 256;
    let err = write_error(&anim).to_string();
    assert!(
        err.contains("bone modifier 0 names bone 256, past the 1-byte bone_t"),
        "{err}"
    );
}

#[test]
fn write_needs_no_seek_and_gives_the_bytes_to_bytes_gives() {
    for fixture in [FRAMECOUNT_255, EVERY_BLOCK, STRAY_COUNTS] {
        let anim = read(&hex(fixture)).unwrap();
        let mut out = Vec::new(); // `Vec<u8>` is `Write` but not `Seek`
        animbin_seanim::write(&anim, &mut out).unwrap();
        assert_eq!(out, to_bytes(&anim).unwrap());
    }
}

#[test]
fn reserved_flag_bits_survive_a_round_trip_and_dump_as_numbers() {
    let mut bytes = hex(FRAMECOUNT_255);
    bytes[11] = 0xff; // animFlags: LOOPED and every reserved bit
    bytes[12] = 0x39; // dataPresenceFlags: LOC and the three reserved bits
    bytes[13] = 0xfe; // dataPropertyFlags: every reserved bit, single precision
    let anim = read_back(&bytes);
    assert!(anim.looped());
    assert_eq!(anim.anim_flags.bits(), 0xff);
    assert_eq!(anim.anim_flags.reserved_bits(), 0xfe);
    assert_eq!(anim.data_presence_flags.reserved_bits(), 0x38);
    assert_eq!(anim.data_property_flags.reserved_bits(), 0xfe);
    assert_eq!(anim.precision(), Precision::Single);
    let dump = serde_json::to_value(&anim).unwrap();
    assert_eq!(dump["anim_flags"], 0xff);
    assert_eq!(dump["data_presence_flags"], 0x39);
    let undumped: SeAnim = serde_json::from_value(dump).unwrap();
    assert_eq!(to_bytes(&undumped).unwrap(), bytes);
}

#[test]
fn problems_are_diagnostics_with_a_place() {
    let mut anim = loc_anim(vec![loc_bone("a", &[(3, [0.0; 3])])]);
    anim.fixed_frame_count = Some(2);
    anim.reserved1 = [1, 0];
    anim.stray_counts.note_count = 4;
    anim.data_property_flags = PropertyFlags::from_bits_retain(0x80);
    assert_eq!(
        validate(&anim),
        [
            error(
                Location::Item("bone 0 location key 0".into()),
                "frame 3 is not below frameCount 2"
            ),
            error(Location::Offset(32), "noteCount is 4, but the NOTE flag is clear"),
            error(Location::Offset(13), "dataPropertyFlags has reserved bits 0x80 set"),
            error(Location::Offset(14), "reserved1 is 0x01 0x00, not zero"),
        ]
    );
    assert_eq!(
        validate(&SeAnim::default()),
        [error(
            Location::Offset(12),
            "no bone or note block: the file has no data block"
        )],
        "no data block: dataPresenceFlags"
    );
}

#[test]
fn rotations_that_are_not_unit_quaternions_are_one_warning_per_bone() {
    let mut anim = loc_anim(vec![loc_bone("a", &[(0, [0.0; 3])]), loc_bone("b", &[(0, [0.0; 3])])]);
    anim.data_presence_flags |= PresenceFlags::ROT;
    let q = |x, y, z, w| Quat::new(x, y, z, w);
    anim.bones[0].rotation = vec![
        Key::new(0, q(0.0, 0.0, 0.0, 1.0)),
        Key::new(1, q(0.0, 0.0, 0.0, 2.0)),
        Key::new(2, q(0.0, 0.0, 0.0, 0.0)),
    ]
    .into();
    // Within the tolerance: an f32-normalised quaternion, and one off by 0.0005.
    let half = std::f64::consts::FRAC_1_SQRT_2;
    anim.bones[1].rotation = vec![
        Key::new(0, q(half, 0.0, 0.0, half)),
        Key::new(1, q(0.0, 0.0, 0.0, 1.0005)),
    ]
    .into();
    let problems = validate(&anim);
    assert_eq!(
        problems,
        [warning(
            Location::Item("bone 0 rotation key 1".into()),
            "the quaternion has length 2.000000, not 1, so it is no rotation \
             (2 of the bone's rotation keys in all)"
        )]
    );
    assert_eq!(
        problems[0].to_string(),
        "warning: bone 0 rotation key 1: the quaternion has length 2.000000, not 1, so it is no rotation \
         (2 of the bone's rotation keys in all)"
    );
    const { assert!(animbin_core::UNIT_QUATERNION_TOLERANCE > 0.0005) };
}

#[test]
fn a_file_only_the_old_frame_rule_reads_is_a_warning_and_its_rewrite_is_valid() {
    for (fixture, frame_count) in [(LEGACY_256, 256), (LEGACY_65536, 65536)] {
        let (anim, rewrite) = read_legacy(&hex(fixture));
        let problems = validate(&anim);
        let message = format!(
            "frame_t follows the pre-2017 rule at frameCount {frame_count} (one byte narrower than every \
             tool since reads); a rewrite uses the current rule"
        );
        assert_eq!(problems, [warning(Location::Offset(20), &message)], "frameCount");
        assert_eq!(validate(&read(&rewrite).unwrap()), []);
    }
    // The same frameCount under the current rule is no warning.
    assert_eq!(validate(&read(&hex(FRAMECOUNT_256)).unwrap()), []);
}
