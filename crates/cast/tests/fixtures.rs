//! Byte-exact fixtures written out in hex, truncation at every offset, bad input refused
//! with the offset of the field that is wrong, nesting depth, and what the writer refuses.

mod common;

use animbin_cast::{
    CastFile, ErrorKind, FileFormat, MAX_DEPTH, Node, NodeId, NodeKind, Property, PropertyType, Value, View, read,
    to_bytes, validate,
};
use animbin_testing::{assert_every_truncation_fails, hex};
use common::assert_summaries_agree;

/// A root holding an animation (`fr` 30) with one curve: `tx` of bone `a`, keys at 0 and 5.
const CURVE_FILE: &str = "
    63 61 73 74             # 0: magic cast
    01 00 00 00             # 4: version 1
    01 00 00 00             # 8: rootCount 1
    00 00 00 00             # 12: flags
    72 6f 6f 74             # 16: root
    9f 00 00 00             # 20: nodeSize 159 (24 + the animation's 135)
    01 00 00 00 00 00 00 00 # 24: hash 1
    00 00 00 00             # 32: propertyCount 0
    01 00 00 00             # 36: childCount 1
    61 6e 69 6d             # 40: anim
    87 00 00 00             # 44: nodeSize 135 (24 + 14 + the curve's 97)
    02 00 00 00 00 00 00 00 # 48: hash 2
    01 00 00 00             # 56: propertyCount 1
    01 00 00 00             # 60: childCount 1
    66 00 02 00 01 00 00 00 # 64: f, nameSize 2, arrayLength 1
    66 72 00 00 f0 41       # 72: fr = 30.0
    63 75 72 76             # 78: curv
    61 00 00 00             # 82: nodeSize 97
    03 00 00 00 00 00 00 00 # 86: hash 3
    05 00 00 00             # 94: propertyCount 5
    00 00 00 00             # 98: childCount 0
    73 00 02 00 01 00 00 00 6e 6e 61 00                # 102: nn = a
    73 00 02 00 01 00 00 00 6b 70 74 78 00             # 114: kp = tx
    62 00 02 00 02 00 00 00 6b 62 00 05                # 127: kb (b) = 0, 5
    66 00 02 00 02 00 00 00 6b 76 00 00 00 00 00 00 80 3f  # 139: kv (f) = 0.0, 1.0
    73 00 01 00 01 00 00 00 6d 61 62 73 6f 6c 75 74 65 00  # 157: m = absolute
";

fn curve_file() -> CastFile {
    let mut curve = Node::new(NodeKind::Curve, 3);
    curve.push(Property::string("nn", "a"));
    curve.push(Property::string("kp", "tx"));
    curve.push(Property::new("kb", Value::Byte(vec![0, 5])));
    curve.push(Property::new("kv", Value::Float(vec![0.0, 1.0])));
    curve.push(Property::string("m", "absolute"));
    let mut anim = Node::new(NodeKind::Animation, 2);
    anim.push(Property::new("fr", Value::Float(vec![30.0])));
    anim.children.push(curve);
    let mut root = Node::new(NodeKind::Root, 1);
    root.children.push(anim);
    CastFile {
        flags: 0,
        roots: vec![root],
    }
}

/// Reads `bytes`, checks that they are written back identically and that the view agrees
/// with the owned model, and returns the model.
fn read_back(bytes: &[u8]) -> CastFile {
    let file = read(bytes).expect("the fixture reads");
    assert_eq!(to_bytes(&file).expect("the fixture writes"), bytes, "rewrite differs");
    let view = View::parse(bytes).expect("the view opens");
    assert_eq!(view.to_file().unwrap(), file);
    assert_eq!(view.node_count(), file.node_count());
    assert_eq!(view.summary(), file.summary());
    file
}

/// The error of reading `bytes`, checked to be the same (offset and text) from the view.
fn read_error(bytes: &[u8]) -> animbin_cast::Error {
    let err = read(bytes).expect_err("the input is refused");
    let view_err = View::parse(bytes).expect_err("the view refuses it too");
    assert_eq!(err.to_string(), view_err.to_string());
    assert_eq!(err.format, "cast");
    err
}

fn patched(at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut file = hex(CURVE_FILE);
    file[at..at + bytes.len()].copy_from_slice(bytes);
    file
}

#[test]
fn the_curve_fixture_is_what_the_writer_makes_and_reads_back() {
    let bytes = hex(CURVE_FILE);
    assert_eq!(bytes.len(), 175);
    assert_eq!(to_bytes(&curve_file()).unwrap(), bytes);
    assert_eq!(read_back(&bytes), curve_file());
    assert!(validate(&curve_file()).is_empty());
    let view = View::parse(&bytes).unwrap();
    let curve = view.nodes().find_map(|n| n.as_curve()).unwrap();
    assert_eq!(curve.node().offset(), 78);
    assert_eq!(curve.node().depth(), 3);
    assert_eq!(curve.key_frames().unwrap().to_vec(), [0, 5]);
    let kv = curve.node().property("kv").unwrap();
    assert_eq!((kv.offset(), kv.payload_offset(), kv.len()), (139, 149, 2));
    assert_eq!(kv.floats().unwrap()[1].get(), 1.0);
    assert_eq!(
        (curve.node_name(), curve.key_property(), curve.mode()),
        (Some("a"), Some("tx"), Some("absolute"))
    );
}

#[test]
fn the_model_and_the_view_give_one_summary_of_the_fixture_and_of_every_damage_to_it() {
    let bytes = hex(CURVE_FILE);
    assert_summaries_agree(&bytes);
    // The fields and their order are what `animbin info --json` prints.
    let summary = CastFile::summary_of(&bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&summary).unwrap(),
        r#"{"root_count":1,"node_count":3,"model_count":0,"mesh_count":0,"bone_count":0,"animation_count":1,"curve_count":1,"material_count":0,"flags":0}"#
    );
}

#[test]
fn a_truncated_file_is_an_error_at_every_offset() {
    let bytes = hex(CURVE_FILE);
    assert_every_truncation_fails(&bytes, read);
    assert_every_truncation_fails(&bytes, |b| View::parse(b).map(|_| ()));
}

#[test]
fn wrong_magic_and_version_are_refused_at_their_offsets() {
    assert_eq!(read_error(&patched(0, b"CAST")).offset, 0);
    assert_eq!(read_error(b"ca").offset, 0);
    assert_eq!(read_error(&[]).offset, 0);
    let err = read_error(&patched(4, &[2, 0, 0, 0]));
    assert_eq!(err.offset, 4);
    assert!(err.to_string().contains("version 1"), "{err}");
}

#[test]
fn a_root_count_the_bytes_cannot_hold_is_refused_before_reading_nodes() {
    let err = read_error(&patched(8, &[7, 0, 0, 0]));
    assert_eq!(err.offset, 8);
    assert!(
        matches!(
            err.kind,
            ErrorKind::CountTooLarge {
                count: 7,
                needed: 168,
                remaining: 159,
                ..
            }
        ),
        "{err}"
    );
    // Two roots fit the count check, but the second is not there.
    let err = read_error(&patched(8, &[2, 0, 0, 0]));
    assert_eq!(err.offset, 175);
    assert!(matches!(err.kind, ErrorKind::UnexpectedEof { .. }), "{err}");
}

#[test]
fn a_node_size_past_the_file_is_refused_at_the_field() {
    let err = read_error(&patched(20, &[0xff, 0xff, 0, 0]));
    assert_eq!(err.offset, 20);
    assert!(err.to_string().contains("nodeSize 65535"), "{err}");
    // A child that would end past its parent's end.
    let err = read_error(&patched(82, &[0x62, 0, 0, 0]));
    assert_eq!(err.offset, 82);
    assert!(err.to_string().contains("the node at byte 40"), "{err}");
}

#[test]
fn a_node_size_under_the_header_is_refused() {
    let err = read_error(&patched(82, &[10, 0, 0, 0]));
    assert_eq!(err.offset, 82);
    assert!(err.to_string().contains("at least 24"), "{err}");
}

#[test]
fn a_node_size_smaller_than_its_properties_is_refused_where_they_overflow() {
    // The curve ends 20 bytes early, at 155, inside kv's payload: kv's arrayLength overflows.
    let err = read_error(&patched(82, &[0x61 - 20, 0, 0, 0]));
    assert_eq!(err.offset, 143, "kv's arrayLength field");
    assert!(
        matches!(
            err.kind,
            ErrorKind::CountTooLarge {
                count: 2,
                needed: 8,
                remaining: 6,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_node_size_larger_than_its_contents_is_refused_where_they_end() {
    let mut bytes = patched(20, &[0xa0, 0, 0, 0]);
    bytes.push(0);
    let err = read_error(&bytes);
    assert_eq!(err.offset, 175, "the root's contents end at 175, its nodeSize says 176");
    assert!(err.to_string().contains("1 more bytes"), "{err}");
}

#[test]
fn an_array_length_of_0xffffffff_over_a_tiny_body_is_refused_before_allocating() {
    let err = read_error(&patched(131, &[0xff; 4]));
    assert_eq!(err.offset, 131);
    assert!(
        matches!(
            err.kind,
            ErrorKind::CountTooLarge {
                count: 0xFFFF_FFFF,
                remaining: 38,
                ..
            }
        ),
        "{err}"
    );
    // The same for a string array: each string takes at least its NUL.
    let err = read_error(&patched(106, &[0xff; 4]));
    assert_eq!(err.offset, 106);
    // And for 8-byte elements, where the product passes 2^32.
    let err = read_error(&patched(139, &[b'l', 0, 2, 0, 0, 0, 0, 0x20]));
    assert_eq!(err.offset, 143);
    assert!(
        matches!(
            err.kind,
            ErrorKind::CountTooLarge {
                needed: 0x1_0000_0000,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn an_unknown_property_type_is_refused_at_the_property() {
    for code in [[b'b', b'b'], [b'v', b'2'], [b'5', b'v'], [0, 0]] {
        let err = read_error(&patched(127, &code));
        assert_eq!(err.offset, 127, "{code:?}");
        assert!(err.to_string().contains("a property type"), "{err}");
    }
}

#[test]
fn a_string_without_its_end_is_refused_where_it_starts() {
    let err = read_error(&patched(174, b"x"));
    assert_eq!(err.offset, 166, "the string \"absolutex\" starts at 166");
    assert!(err.to_string().contains("NUL"), "{err}");
}

#[test]
fn names_and_strings_that_are_not_utf8_are_refused_at_the_bad_byte() {
    let err = read_error(&patched(123, &[0xff]));
    assert_eq!(err.offset, 123, "kp's name");
    let err = read_error(&patched(125, &[0xc3]));
    assert_eq!(err.offset, 125, "kp's string");
}

#[test]
fn child_counts_that_lie_are_refused() {
    // Too many to fit: refused at the field before any child is read.
    let err = read_error(&patched(60, &[5, 0, 0, 0]));
    assert_eq!(err.offset, 60);
    assert!(
        matches!(
            err.kind,
            ErrorKind::CountTooLarge {
                count: 5,
                needed: 120,
                remaining: 97,
                ..
            }
        ),
        "{err}"
    );
    // Fits the count check, but the second child is not inside the node.
    let err = read_error(&patched(60, &[2, 0, 0, 0]));
    assert_eq!(err.offset, 175);
    assert!(err.to_string().contains("childCount"), "{err}");
    // Too few: the node's bytes are not all read.
    let err = read_error(&patched(60, &[0, 0, 0, 0]));
    assert_eq!(err.offset, 78);
    // A property count that is too large.
    let err = read_error(&patched(94, &[0xff, 0, 0, 0]));
    assert_eq!(err.offset, 94);
    let err = read_error(&patched(94, &[6, 0, 0, 0]));
    assert_eq!(err.offset, 175, "a sixth property header would start at the node's end");
}

#[test]
fn bytes_after_the_last_root_are_refused() {
    let mut bytes = hex(CURVE_FILE);
    bytes.extend_from_slice(&[0, 0, 0, 0]);
    let err = read_error(&bytes);
    assert_eq!(err.offset, 175);
    assert!(err.to_string().contains("4 more bytes"), "{err}");
}

/// `depth` nodes of `id`, each the only child of the one before.
fn nested(depth: usize, id: NodeId) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(16 + 24 * depth);
    bytes.extend_from_slice(b"cast");
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    for level in 0..depth {
        bytes.extend_from_slice(&id.0.to_le_bytes());
        bytes.extend_from_slice(&((24 * (depth - level)) as u32).to_le_bytes());
        bytes.extend_from_slice(&(level as u64).to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&u32::from(level + 1 < depth).to_le_bytes());
    }
    bytes
}

#[test]
fn nesting_a_hundred_thousand_levels_deep_is_an_error_not_a_stack_overflow() {
    let bytes = nested(100_000, NodeKind::Root.id());
    assert_eq!(bytes.len(), 16 + 2_400_000);
    let err = read_error(&bytes);
    assert_eq!(err.offset, 16 + 24 * MAX_DEPTH as u64, "the first node past the limit");
    assert!(
        matches!(
            err.kind,
            ErrorKind::LimitExceeded {
                requested: 65,
                limit: 64,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn nesting_up_to_the_limit_reads_and_writes_back_and_past_it_is_refused_by_the_writer() {
    let id = NodeId::from_tag(*b"deep");
    let bytes = nested(MAX_DEPTH, id);
    let file = read_back(&bytes);
    assert_eq!(file.node_count(), MAX_DEPTH);
    assert_summaries_agree(&bytes);
    // The JSON form is flat, so a JSON reader's own nesting limit (128 in serde_json) does
    // not stop it.
    let json = serde_json::to_string(&file).unwrap();
    assert_eq!(serde_json::from_str::<CastFile>(&json).unwrap(), file);
    assert!(read(&nested(MAX_DEPTH + 1, id)).is_err());
    let mut deeper = file.clone();
    let mut leaf = &mut deeper.roots[0];
    while !leaf.children.is_empty() {
        leaf = &mut leaf.children[0];
    }
    leaf.children.push(Node::new(id, 99));
    let err = to_bytes(&deeper).unwrap_err();
    assert!(err.to_string().contains("nesting deeper than 64"), "{err}");
}

#[test]
fn unknown_nodes_undocumented_and_duplicated_properties_flags_and_string_arrays_are_kept() {
    let mut file = curve_file();
    file.flags = 0xDEAD_BEEF;
    let mut unknown = Node::new(NodeId::from_tag(*b"xtra"), u64::MAX);
    unknown.push(Property::new("blob", Value::Double(vec![f64::NAN, -0.0])));
    unknown.children.push(Node::new(NodeKind::Mesh, 0));
    file.roots[0].children.push(unknown);
    let anim = &mut file.roots[0].children[0];
    anim.push(Property::new("fr", Value::Float(vec![24.0])));
    anim.push(Property::new(
        "tags",
        Value::String(vec!["a".into(), String::new().into(), "ü".into()]),
    ));
    anim.push(Property::new("none", Value::String(Vec::new())));
    anim.push(Property::new("n", Value::String(vec!["x".into(), "y".into()])));
    anim.push(Property::new(
        "",
        Value::Vec2(vec![animbin_cast::Vec2::new(1.0, f32::NAN)]),
    ));
    let bytes = to_bytes(&file).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(to_bytes(&back).unwrap(), bytes);
    assert_summaries_agree(&bytes);
    assert_eq!(back.summary().mesh_count, 1, "a mesh under an unknown node counts");
    assert_eq!(back.flags, 0xDEAD_BEEF);
    assert_eq!(back.roots[0].children[1].id.to_string(), "xtra");
    assert_eq!(
        back.roots[0].children[0].value("tags"),
        Some(&Value::String(vec!["a".into(), String::new().into(), "ü".into()]))
    );
    // The rules: a second fr, an n of two strings; nothing inside the unknown node.
    let problems: Vec<String> = validate(&back).iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "root 0 > anim 0 property \"fr\": a second property of this name in one node",
            "root 0 > anim 0 property \"n\": holds one value, not 2",
        ]
    );
}

#[test]
fn every_property_type_round_trips_at_its_size() {
    let values = [
        (Value::Byte(vec![1, 2]), 2),
        (Value::Short(vec![0xFFFF]), 2),
        (Value::Integer(vec![u32::MAX]), 4),
        (Value::Long(vec![u64::MAX, 0]), 16),
        (Value::Float(vec![f32::from_bits(0x7FC0_1234)]), 4),
        (Value::Double(vec![f64::MIN_POSITIVE]), 8),
        (Value::String(vec!["ab".into()]), 3),
        (Value::Vec2(vec![animbin_cast::Vec2::new(1.0, 2.0)]), 8),
        (Value::Vec3(vec![animbin_cast::Vec3::new(1.0, 2.0, 3.0); 2]), 24),
        (Value::Vec4(vec![animbin_cast::Vec4::new(1.0, 2.0, 3.0, 4.0)]), 16),
    ];
    for (value, payload) in values {
        let kind = value.kind();
        let mut node = Node::new(NodeKind::Root, 0);
        node.push(Property::new("v", value));
        let file = CastFile {
            flags: 0,
            roots: vec![node],
        };
        let bytes = to_bytes(&file).unwrap();
        assert_eq!(bytes.len(), 16 + 24 + 8 + 1 + payload, "{kind}");
        assert_eq!(u16::from_le_bytes([bytes[40], bytes[41]]), kind.repr());
        let back = read(&bytes).unwrap();
        assert_eq!(to_bytes(&back).unwrap(), bytes, "{kind}");
        let view = View::parse(&bytes).unwrap();
        assert_summaries_agree(&bytes);
        let p = view.roots().next().unwrap().property("v").unwrap();
        assert_eq!((p.kind(), p.payload().len()), (kind, payload));
    }
    assert_eq!(PropertyType::ALL.len(), 10);
}

#[test]
fn index_widths_are_kept_as_read() {
    let mut file = curve_file();
    let curve = &mut file.roots[0].children[0].children[0];
    curve.properties[2].value = Value::Integer(vec![0, 5]);
    let bytes = to_bytes(&file).unwrap();
    let back = read_back(&bytes);
    assert_eq!(
        back.roots[0].children[0].children[0].value("kb"),
        Some(&Value::Integer(vec![0, 5]))
    );
}

#[test]
fn the_writer_refuses_what_the_format_cannot_encode_naming_the_node_and_property() {
    let mut file = curve_file();
    file.roots[0].children[0].children[0].properties[0].value = Value::String(vec!["a\0b".into()]);
    let err = to_bytes(&file).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)));
    assert_eq!(
        err.to_string(),
        "cast: cannot encode root 0 > anim 0 > curv 0 (\"a\\0b\"): property \"nn\": string 0 contains a NUL byte"
    );
    let mut file = curve_file();
    file.roots[0].push(Property::new("x".repeat(65536), Value::Byte(Vec::new())));
    let err = to_bytes(&file).unwrap_err();
    assert!(
        err.to_string().contains("a name of 65536 bytes overflows nameSize"),
        "{err}"
    );
    // Nothing is written when the writer refuses.
    let mut out = Vec::new();
    assert!(animbin_cast::write(&file, &mut out).is_err());
    assert!(out.is_empty());
}
