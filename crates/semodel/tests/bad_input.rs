//! Bad input: read errors name the offending byte, files that read but break the spec are
//! reported by `validate` with the byte of each problem, and the writer refuses what it
//! cannot encode.

use animbin_core::math::{Vec2, Vec3};
use animbin_core::{Error, ErrorKind};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::draft;
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone, BoneFlags, DataFlags, Influence, Location, MeshBlend, MeshFlags, Pose,
    Problem, SeModel, Severity, Trailer, VertexBlend, View, read, to_bytes, validate,
};
use animbin_testing::hex;

/// Reads `bytes` expecting an error, checks that the view fails at the same byte, and
/// returns the error.
fn read_error(bytes: &[u8]) -> Error {
    let err = match read(bytes) {
        Ok(_) => panic!("read without an error"),
        Err(e) => e,
    };
    let view = View::parse(bytes).map(|_| ()).expect_err("the view opened");
    assert_eq!(view.offset, err.offset, "view: {view}; read: {err}");
    assert!(err.to_string().contains(&format!("at byte {}", err.offset)), "{err}");
    err
}

fn count_too_large(err: &Error, what: &str) {
    match &err.kind {
        ErrorKind::CountTooLarge { what: w, .. } => assert!(w.contains(what), "{err}"),
        _ => panic!("expected a count error about {what}: {err}"),
    }
}

/// A skinned deployed model: 2 bones, one mesh of 3 vertices with one UV layer, normals and
/// 2 influences, one material.
fn skinned() -> deployed::Model {
    let pose = Pose::default();
    deployed::Model {
        bone_flags: BoneFlags::LOCAL_MATRIX,
        mesh_flags: MeshFlags::UV_SET | MeshFlags::NORMALS | MeshFlags::WEIGHTS,
        bones: Block::Present(vec![
            Bone {
                name: "root".into(),
                parent: -1,
                local: Some(pose),
                ..Default::default()
            },
            Bone {
                name: "arm".into(),
                parent: 0,
                local: Some(pose),
                ..Default::default()
            },
        ]),
        meshes: Block::Present(vec![deployed::Mesh {
            max_influence: 2,
            positions: vec![Vec3::new(0.0, 0.0, 0.0); 3],
            uvs: vec![Vec2::new(0.0, 0.0); 3],
            normals: vec![Vec3::new(0.0, 0.0, 1.0); 3],
            weights: [Influence { bone: 0, weight: 0.5 }, Influence { bone: 1, weight: 0.5 }].repeat(3),
            faces: vec![[0, 1, 2]],
            material_indices: vec![0],
            ..Default::default()
        }]),
        materials: Block::Present(vec![Material {
            name: "skin".into(),
            maps: None,
        }]),
        ..Default::default()
    }
}

// Offsets in `skinned()`'s file: header 29; names "root\0arm\0" 9; two 33-byte bone records.
const MESH: usize = 29 + 9 + 66;
const POSITIONS: usize = MESH + 11;
const UVS: usize = POSITIONS + 36;
const NORMALS: usize = UVS + 24;
const WEIGHTS: usize = NORMALS + 36;
const FACES: usize = WEIGHTS + 6 * 5;
const MATERIAL_INDICES: usize = FACES + 3;
const MATERIALS: usize = MATERIAL_INDICES + 4;

fn skinned_bytes() -> Vec<u8> {
    let bytes = to_bytes(&SeModel::Deployed(skinned())).unwrap();
    assert_eq!(bytes.len(), MATERIALS + 6, "the offsets above describe this file");
    bytes
}

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn problems(bytes: &[u8]) -> Vec<Problem> {
    let model = read(bytes).expect("the file reads");
    assert_eq!(
        to_bytes(&model).unwrap(),
        bytes,
        "a file that reads is rewritten as it was"
    );
    validate(&model)
}

/// An error `validate` reports at byte `offset`.
fn error(offset: usize, message: &str) -> Problem {
    Problem::new(Severity::Error, Location::Offset(offset as u64), message)
}

/// A warning `validate` reports at byte `offset`.
fn warning(offset: usize, message: &str) -> Problem {
    Problem::new(Severity::Warning, Location::Offset(offset as u64), message)
}

/// Checks that `bytes` read, are rewritten as they were and break exactly one rule: an
/// error at `offset` saying `message`.
fn only_problem(bytes: &[u8], offset: usize, message: &str) {
    assert_eq!(problems(bytes), [error(offset, message)]);
}

/// The byte at which converting `bytes` to the scene fails (a conversion's refusal).
fn conversion_error_at(bytes: &[u8]) -> u64 {
    let model = read(bytes).expect("the file reads");
    let options = animbin_core::SceneOptions::default();
    match model.to_scene(&options, &mut animbin_core::scene::ConversionReport::default()) {
        Ok(_) => panic!("converted without an error"),
        Err(e) => e.offset,
    }
}

#[test]
fn the_skinned_model_is_valid() {
    assert_eq!(problems(&skinned_bytes()), vec![]);
}

#[test]
fn wrong_magic_is_an_error_at_byte_0() {
    let mut bytes = skinned_bytes();
    bytes[0] = b's';
    let err = read_error(&bytes);
    assert_eq!(err.offset, 0);
    assert!(err.to_string().contains("SEModel"), "{err}");
}

#[test]
fn a_version_other_than_1_is_an_error_at_byte_7() {
    let mut bytes = skinned_bytes();
    bytes[7] = 2;
    assert_eq!(read_error(&bytes).offset, 7);
}

#[test]
fn a_header_size_that_is_neither_layout_is_an_error_at_byte_9() {
    // 0x1C is what SELib's first draft writer put there (its fields add up to 0x1E).
    for size in [0x00, 0x13, 0x15, 0x1C, 0x1D, 0x1F, 0xFFFF_u16] {
        let mut bytes = skinned_bytes();
        bytes[9..11].copy_from_slice(&size.to_le_bytes());
        let err = read_error(&bytes);
        assert_eq!(err.offset, 9, "{size:#x}: {err}");
        let text = err.to_string();
        assert!(text.contains("0x14") && text.contains("0x1E"), "{text}");
    }
}

#[test]
fn a_file_shorter_than_its_header_is_an_error_at_the_field_it_cuts() {
    // Up to headerSize the error is at the end; after it, at the start of the cut field
    // (the reserved bytes are read one by one, so there it is the end again).
    for (len, at) in [(0, 0), (6, 6), (8, 8), (10, 10), (11, 11), (16, 14), (27, 27), (28, 28)] {
        let err = read_error(&skinned_bytes()[..len]);
        assert_eq!(err.offset, at, "cut at {len}: {err}");
        assert!(matches!(err.kind, ErrorKind::UnexpectedEof { .. }), "{err}");
    }
}

#[test]
fn counts_past_the_end_are_refused_before_allocating() {
    // Each case: which u32 to set to 0xFFFFFFFF, where the error must point, what it counts.
    for (field, at, what) in [
        (14, 29, "bone"),                  // boneCount: the bone block starts at 29
        (18, MESH, "mesh"),                // meshCount
        (22, MATERIALS, "material"),       // matCount
        (MESH + 3, POSITIONS, "position"), // vertexCount
        (MESH + 7, FACES, "face"),         // faceCount
    ] {
        let mut bytes = skinned_bytes();
        put_u32(&mut bytes, field, u32::MAX);
        let err = read_error(&bytes);
        assert_eq!(err.offset, at as u64, "field at {field}: {err}");
        count_too_large(&err, what);
    }
    // layerCount 255 asks for 3 x 255 UV coordinates and 255 material indices.
    let mut bytes = skinned_bytes();
    bytes[MESH + 1] = 255;
    let err = read_error(&bytes);
    assert_eq!(err.offset, UVS as u64);
    count_too_large(&err, "uv");
    // maxInfluence 255 asks for 3 x 255 weights.
    let mut bytes = skinned_bytes();
    bytes[MESH + 2] = 255;
    let err = read_error(&bytes);
    assert_eq!(err.offset, WEIGHTS as u64);
    count_too_large(&err, "weight");
}

#[test]
fn an_is_simple_other_than_0_or_1_is_an_error_at_its_byte() {
    let mut bytes = skinned_bytes();
    let at = MATERIALS + 5; // after "skin\0"
    assert_eq!(bytes[at], 0);
    bytes[at] = 2;
    let err = read_error(&bytes);
    assert_eq!(err.offset, at as u64);
    assert!(err.to_string().contains("isSimple"), "{err}");
}

#[test]
fn names_need_their_nul_and_utf8() {
    let mut bytes = skinned_bytes();
    bytes[29] = 0xFF; // "root" -> "\xffoot"
    assert_eq!(read_error(&bytes).offset, 29);
    // A file that ends inside the last name.
    let mut bytes = skinned_bytes();
    bytes.truncate(MATERIALS + 3);
    assert_eq!(read_error(&bytes).offset, MATERIALS as u64);
}

#[test]
fn face_indices_out_of_range_are_reported_with_their_offset() {
    let mut bytes = skinned_bytes();
    bytes[FACES + 2] = 7; // face 0 = (0, 1, 7) in a mesh of 3 vertices
    only_problem(&bytes, FACES, "mesh 0: face 0 has index 7, past vertexCount 3");
}

#[test]
fn a_max_influence_without_the_weights_flag_reads_and_is_reported() {
    let mut model = skinned();
    model.mesh_flags = MeshFlags::UV_SET | MeshFlags::NORMALS;
    model.meshes.items_mut()[0].weights.clear();
    let bytes = to_bytes(&SeModel::Deployed(model)).unwrap();
    // No weights follow: the 2 in maxInfluence is kept, reported, and written back.
    only_problem(
        &bytes,
        MESH + 2,
        "mesh 0: maxInfluence is 2 while the WEIGHTS flag is clear",
    );
}

#[test]
fn a_layer_count_without_the_uv_flag_keeps_its_material_indices_and_is_reported() {
    let mut model = skinned();
    model.mesh_flags = MeshFlags::NORMALS | MeshFlags::WEIGHTS;
    model.meshes.items_mut()[0].uvs.clear();
    let bytes = to_bytes(&SeModel::Deployed(model)).unwrap();
    only_problem(
        &bytes,
        MESH + 1,
        "mesh 0: layerCount is 1 while the UV_SET flag is clear",
    );
    let SeModel::Deployed(m) = read(&bytes).unwrap() else {
        unreachable!()
    };
    assert_eq!(m.meshes.items()[0].material_indices, vec![0]);
}

#[test]
fn a_count_with_its_flag_clear_is_kept_and_reported() {
    let mut bytes = skinned_bytes();
    bytes[11] &= !4; // clear MATERIALS: the material block becomes trailing bytes
    let model = read(&bytes).unwrap();
    let SeModel::Deployed(m) = &model else { unreachable!() };
    assert_eq!(m.materials, Block::Absent { count: 1 });
    assert!(matches!(m.trailer, Trailer::Unknown(_)));
    // Its material index now points past matCount... which is still 1: no other problem.
    only_problem(&bytes, 22, "matCount is 1 while the MATERIALS data flag is clear");
}

#[test]
fn bad_parents_are_reported_at_the_parent_field() {
    let parent = |bone: usize| 29 + 9 + 33 * bone + 1;
    let mut bytes = skinned_bytes();
    put_u32(&mut bytes, parent(1), 2);
    only_problem(
        &bytes,
        parent(1),
        "bone 1 (\"arm\") has parent 2, past the bone count 2",
    );
    // A conversion refuses each at the byte validate names (it said byte 0).
    assert_eq!(conversion_error_at(&bytes), parent(1) as u64);
    put_u32(&mut bytes, parent(1), 1);
    only_problem(&bytes, parent(1), "bone 1 (\"arm\") is its own parent");
    assert_eq!(conversion_error_at(&bytes), parent(1) as u64);
    put_u32(&mut bytes, parent(1), (-5_i32) as u32);
    only_problem(&bytes, parent(1), "bone 1 (\"arm\") has parent -5; roots use -1");
    assert_eq!(conversion_error_at(&bytes), parent(1) as u64);
    put_u32(&mut bytes, parent(1), 0);
    put_u32(&mut bytes, parent(0), 1);
    only_problem(&bytes, parent(0), "bones 0 -> 1 form a parent cycle");
    assert_eq!(conversion_error_at(&bytes), parent(0) as u64);
}

#[test]
fn weights_that_do_not_sum_to_one_and_unknown_bones_are_reported() {
    let mut model = skinned();
    model.meshes.items_mut()[0].weights[3].weight = 0.25; // vertex 1: 0.5 + 0.25
    model.meshes.items_mut()[0].weights[4].bone = 9; // vertex 2's first influence
    let bytes = to_bytes(&SeModel::Deployed(model)).unwrap();
    assert_eq!(
        problems(&bytes),
        [
            error(WEIGHTS + 4 * 5, "mesh 0: weight 4 names bone 9, past boneCount 2"),
            warning(WEIGHTS + 2 * 5, "mesh 0: vertex 1's weights sum to 0.75, not 1"),
        ]
    );
}

#[test]
fn material_indices_past_the_material_count_are_reported() {
    let mut bytes = skinned_bytes();
    put_u32(&mut bytes, MATERIAL_INDICES, 1);
    only_problem(
        &bytes,
        MATERIAL_INDICES,
        "mesh 0: UV layer 0's material index 1 is neither -1 nor below matCount 1",
    );
    put_u32(&mut bytes, MATERIAL_INDICES, (-2_i32) as u32);
    only_problem(
        &bytes,
        MATERIAL_INDICES,
        "mesh 0: UV layer 0's material index -2 is neither -1 nor below matCount 1",
    );
}

#[test]
fn reserved_bits_and_a_file_with_no_block_are_reported() {
    let mut bytes = skinned_bytes();
    bytes[12] |= 0x80;
    only_problem(&bytes, 12, "boneFlags has reserved bits or bytes set (0x80)");
    let mut bytes = skinned_bytes();
    bytes[27] = 1;
    only_problem(
        &bytes,
        26,
        "the header's reserved[3] has reserved bits or bytes set (0x100)",
    );
    let empty = SeModel::Deployed(deployed::Model::default());
    assert_eq!(
        validate(&empty),
        [error(
            11,
            "no data block: dataFlags has none of BONE, MESH and MATERIALS"
        )]
    );
}

#[test]
fn a_blend_trailer_that_does_not_fit_is_kept_as_bytes_and_a_bad_shape_index_is_reported() {
    let mut model = skinned();
    let mut vertices = vec![VertexBlend::default(); 3];
    vertices[2].deltas.push(BlendDelta {
        shape: 1,
        delta: Vec3::new(0.0, 1.0, 0.0),
    });
    model.trailer = Trailer::SeBlend(BlendShapes {
        names: vec!["a".into()],
        meshes: vec![MeshBlend { vertices }],
    });
    let bytes = to_bytes(&SeModel::Deployed(model)).unwrap();
    let trailer = MATERIALS + 6;
    // magic 8, count 8, "a\0" 2, vertices 0 and 1: 4 each, vertex 2's count 4.
    only_problem(
        &bytes,
        trailer + 18 + 12,
        "SEBlend: mesh 0 vertex 2 moves shape 1, past the 1 shape names",
    );
    // A shape count no file could hold: not an error, the bytes are kept.
    let mut bad = bytes.clone();
    bad[trailer + 8..trailer + 16].copy_from_slice(&u64::MAX.to_le_bytes());
    let model = read(&bad).unwrap();
    assert_eq!(model.trailer(), &Trailer::Unknown(bad[trailer..].to_vec()));
    assert_eq!(to_bytes(&model).unwrap(), bad);
    // So is an SEBlend trailer followed by anything.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(read(&longer).unwrap().trailer(), Trailer::Unknown(_)));
}

#[test]
fn draft_counts_past_the_end_and_problems_name_their_bytes() {
    let model = SeModel::Draft(draft::Model {
        mesh_flags: MeshFlags::NORMALS,
        meshes: Block::Present(vec![draft::Mesh {
            vertices: draft::Vertices {
                positions: vec![Vec3::default(); 2],
                normals: vec![Vec3::default(); 2],
                ..Default::default()
            },
            faces: vec![[0, 1, 2]],
            ..Default::default()
        }]),
        max_skin_influence: 3,
        ..Default::default()
    });
    let bytes = to_bytes(&model).unwrap();
    // Header 39, mesh header 10, two 18-byte records: the face is at 85.
    assert_eq!(
        problems(&bytes),
        [
            error(35, "maxSkinInfluence is 3 while the WEIGHTS flag is clear"),
            error(39 + 10 + 36, "mesh 0: face 0 has index 2, past vertexCount 2"),
        ]
    );
    let mut huge = bytes.clone();
    put_u32(&mut huge, 39 + 2, u32::MAX); // vertexCount
    let err = read(&huge).map(|_| ()).unwrap_err();
    assert_eq!(err.offset, 39 + 10);
    count_too_large(&err, "vertex record");
    let mut huge = bytes;
    put_u32(&mut huge, 23, u32::MAX); // meshCount
    assert_eq!(read(&huge).map(|_| ()).unwrap_err().offset, 39);
}

fn refused(model: deployed::Model, text: &str) -> Error {
    let err = to_bytes(&SeModel::Deployed(model))
        .map(|_| ())
        .expect_err("the writer accepted it");
    assert!(matches!(err.kind, ErrorKind::Unencodable(_)), "{err}");
    assert!(err.to_string().contains(text), "{err}");
    err
}

#[test]
fn the_writer_refuses_what_it_cannot_encode() {
    let mut m = skinned();
    m.meshes.items_mut()[0].material_indices = vec![-1; 256];
    assert_eq!(refused(m, "256 UV layers").offset, MESH as u64 + 1);

    let mut m = skinned();
    m.meshes.items_mut()[0].normals.pop();
    assert_eq!(refused(m, "2 normals").offset, NORMALS as u64);

    let mut m = skinned();
    m.meshes.items_mut()[0].weights.pop();
    assert_eq!(refused(m, "5 weights").offset, WEIGHTS as u64);

    let mut m = skinned();
    m.mesh_flags = MeshFlags::NORMALS | MeshFlags::WEIGHTS; // UVs present, flag clear
    assert_eq!(refused(m, "3 UV coordinates").offset, UVS as u64);

    let mut m = skinned();
    m.bones.items_mut()[1].global = Some(Pose::default());
    assert_eq!(refused(m, "bone 1").offset, 29 + 9 + 33);

    let mut m = skinned();
    m.bones.items_mut()[0].name = "a\0b".into();
    refused(m, "NUL");

    let mut m = skinned();
    m.other_data_flags = DataFlags::BONE;
    refused(m, "overlaps the block flags");

    let mut m = skinned();
    m.trailer = Trailer::SeBlend(BlendShapes::default());
    refused(m, "the SEBlend trailer has 0 meshes");

    // A weight naming bone 256 does not fit the u8 bone_t that 2 bones give.
    let mut m = skinned();
    m.meshes.items_mut()[0].weights[1].bone = 256;
    assert_eq!(refused(m, "does not fit").offset, WEIGHTS as u64 + 5);
}

#[test]
fn a_draft_index_wider_than_its_field_is_refused() {
    let model = SeModel::Draft(draft::Model {
        mesh_flags: MeshFlags::UV_SET,
        meshes: Block::Present(vec![draft::Mesh {
            uv_set_count: 1,
            vertices: draft::Vertices {
                positions: vec![Vec3::default()],
                uvs: vec![Vec2::default()],
                uv_materials: vec![300], // matCount 0: mat_t is u8
                ..Default::default()
            },
            ..Default::default()
        }]),
        ..Default::default()
    });
    let err = to_bytes(&model).map(|_| ()).unwrap_err();
    assert!(err.to_string().contains("does not fit"), "{err}");
    assert_eq!(err.offset, 39 + 10);
}

#[test]
fn hex_prefixes_of_other_formats_are_not_semodel() {
    // An SEAnim file's first bytes: "SEAnim" then version and headerSize 0x1C.
    let err = read(&hex("53 45 41 6e 69 6d 01 00 1c 00 00 00"))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(err.offset, 0);
}

#[test]
fn the_writer_names_the_item_whose_name_holds_a_nul() {
    let mut m = skinned();
    m.bones.items_mut()[1].name = "a\0".into();
    let err = refused(m, "bone 1 name: contains a NUL byte");
    assert_eq!(err.offset, 29 + 5, "after \"root\\0\"");

    let mut m = skinned();
    m.materials = Block::Present(vec![
        Material {
            name: "skin".into(),
            maps: Some(MaterialMaps {
                diffuse: "d".into(),
                normal: "n\0".into(),
                specular: String::new(),
            }),
        },
        Material {
            name: String::new(),
            maps: None,
        },
    ]);
    let err = refused(m.clone(), "material 0 normal map: contains a NUL byte");
    assert_eq!(
        err.offset,
        MATERIALS as u64 + 6 + 2,
        "after \"skin\\0\", isSimple and \"d\\0\""
    );
    m.materials.items_mut()[0].maps.as_mut().unwrap().normal = "n".into();
    m.materials.items_mut()[1].name = "\0".into();
    let err = refused(m, "material 1 name: contains a NUL byte");
    assert_eq!(err.offset, MATERIALS as u64 + 6 + 2 + 2 + 1);

    let mut m = skinned();
    m.trailer = Trailer::SeBlend(BlendShapes {
        names: vec!["ok".into(), "b\0d".into()],
        meshes: vec![MeshBlend {
            vertices: vec![VertexBlend::default(); 3],
        }],
    });
    let err = refused(m, "SEBlend shape 1 name: contains a NUL byte");
    assert_eq!(
        err.offset,
        MATERIALS as u64 + 6 + 16 + 3,
        "after the magic, the count and \"ok\\0\""
    );
}

#[test]
fn the_writer_names_the_mesh_and_face_whose_index_does_not_fit() {
    // Three vertices: u8 face indices.
    let mut m = skinned();
    m.meshes.items_mut()[0].faces = vec![[0, 1, 2], [2, 1, 256]];
    let err = refused(
        m,
        "mesh 0 face 1: index 256 does not fit the 1-byte face index that 3 vertices give",
    );
    assert_eq!(err.offset, FACES as u64 + 3);

    let mut m = skinned();
    m.meshes.items_mut()[0].weights[1].bone = 256;
    refused(m, "mesh 0 weight 1: bone 256 does not fit the 1-byte bone_t");
}

#[test]
fn write_needs_no_seek_and_gives_the_bytes_to_bytes_gives() {
    let model = SeModel::Deployed(skinned());
    let mut out = Vec::new(); // `Vec<u8>` is `Write` but not `Seek`
    animbin_semodel::write(&model, &mut out).unwrap();
    assert_eq!(out, skinned_bytes());
    // A refusal is found before anything is written.
    let mut bad = skinned();
    bad.meshes.items_mut()[0].normals.pop();
    let mut out = Vec::new();
    assert!(animbin_semodel::write(&SeModel::Deployed(bad), &mut out).is_err());
    assert!(out.is_empty());
}

#[test]
fn reserved_flag_bits_survive_a_round_trip_and_dump_as_numbers() {
    let mut bytes = skinned_bytes();
    bytes[11] |= 0xf0; // dataFlags: reserved bits beside BONE | MESH | MATERIALS
    bytes[12] |= 0xf8; // boneFlags
    bytes[13] |= 0xf0; // meshFlags
    let model = read(&bytes).unwrap();
    assert_eq!(to_bytes(&model).unwrap(), bytes);
    let SeModel::Deployed(m) = &model else {
        panic!("deployed")
    };
    assert_eq!(m.other_data_flags.bits(), 0xf0);
    assert_eq!(m.bone_flags.reserved_bits(), 0xf8);
    assert!(m.mesh_flags.contains(MeshFlags::WEIGHTS));
    let dump = serde_json::to_value(&model).unwrap();
    assert_eq!(dump["model"]["bone_flags"], 0xfa);
    assert_eq!(dump["model"]["other_data_flags"], 0xf0);
    let undumped: SeModel = serde_json::from_value(dump).unwrap();
    assert_eq!(to_bytes(&undumped).unwrap(), bytes);
    assert_eq!(
        validate(&model),
        [
            error(11, "dataFlags has reserved bits or bytes set (0xf0)"),
            error(12, "boneFlags has reserved bits or bytes set (0xf8)"),
            error(13, "meshFlags has reserved bits or bytes set (0xf0)"),
        ]
    );
}

#[test]
fn rotations_that_are_not_unit_and_weights_that_do_not_sum_to_one_are_warnings() {
    let mut model = skinned();
    model.bones.items_mut()[1].local = Some(Pose {
        rotation: animbin_core::math::Quat::new(0.0, 0.0, 0.0, 2.0),
        ..Pose::default()
    });
    model.meshes.items_mut()[0].weights[3].weight = 0.25; // vertex 1: 0.5 + 0.25
    // Bone 1's record, past its flags byte, its parent and the local position.
    assert_eq!(
        problems(&to_bytes(&SeModel::Deployed(model)).unwrap()),
        [
            warning(
                29 + 9 + 33 + 5 + 12,
                "bone 1 (\"arm\"): the local rotation has length 2.000000, not 1, so it is no rotation"
            ),
            warning(WEIGHTS + 2 * 5, "mesh 0: vertex 1's weights sum to 0.75, not 1"),
        ]
    );
}
