//! Byte-exact fixtures written out in hex: each one reads to the model beside it, that model
//! writes back to the same bytes, and every truncation of it is an error.

use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::draft::{self, Vertices};
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone, BoneFlags, DataFlags, FileFormat, Influence, Location, MeshBlend, MeshFlags,
    Pose, Problem, SeModel, Severity, Trailer, VertexBlend, View, read, to_bytes, validate,
};
use animbin_testing::{assert_every_truncation_fails, hex};
use half::f16;

const IDENTITY: Pose = Pose {
    position: Vec3::new(0.0, 0.0, 0.0),
    rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
};

/// Reads `bytes`, compares with `expected`, writes it back, and truncates it everywhere:
/// inside the blocks (the first `blocks_end` bytes) every truncation is an error; inside a
/// trailer, which is optional, a truncated file reads with the rest kept as unknown bytes.
/// The summary through the view (or, for a draft, the reader) is the model's throughout.
fn check_fixture(bytes: &[u8], blocks_end: usize, expected: &SeModel) {
    let model = read(bytes).expect("the fixture reads");
    assert_eq!(&model, expected);
    assert_eq!(to_bytes(expected).expect("the model writes"), bytes);
    assert_eq!(SeModel::summary_of(bytes).unwrap(), model.summary());
    assert_every_truncation_fails(&bytes[..blocks_end], read);
    for len in blocks_end..bytes.len() {
        let cut = read(&bytes[..len]).expect("a cut trailer still reads");
        let kept = &bytes[blocks_end..len];
        let expected = if kept.is_empty() {
            Trailer::None
        } else {
            Trailer::Unknown(kept.to_vec())
        };
        assert_eq!(cut.trailer(), &expected, "cut at {len}");
        assert_eq!(to_bytes(&cut).unwrap(), &bytes[..len]);
        assert_eq!(
            SeModel::summary_of(&bytes[..len]).unwrap(),
            cut.summary(),
            "cut at {len}"
        );
    }
    if let SeModel::Deployed(m) = expected {
        let view = View::parse(bytes).expect("the view opens");
        assert_eq!(&view.to_model(), m);
        assert_eq!(view.summary(), model.summary());
        assert_every_truncation_fails(&bytes[..blocks_end], |b| View::parse(b).map(|v| v.to_model()));
    }
}

fn v3(x: f32, y: f32, z: f32) -> Vec3<f32> {
    Vec3::new(x, y, z)
}

#[test]
fn static_triangle_with_a_simple_material() {
    let bytes = hex("53 45 4d 6f 64 65 6c      # SEModel
         01 00                     # version 1
         14 00                     # headerSize 0x14
         06                        # dataFlags: MESH | MATERIALS
         00                        # boneFlags
         03                        # meshFlags: UV_SET | NORMALS
         00 00 00 00               # boneCount 0
         01 00 00 00               # meshCount 1
         01 00 00 00               # matCount 1
         00 00 00                  # reserved
         # mesh 0
         00                        # flags
         01                        # layerCount 1
         00                        # maxInfluence 0
         03 00 00 00               # vertexCount 3
         01 00 00 00               # faceCount 1
         00 00 00 00 00 00 00 00 00 00 00 00   # position (0, 0, 0)
         00 00 80 3f 00 00 00 00 00 00 00 00   # position (1, 0, 0)
         00 00 00 00 00 00 80 3f 00 00 00 00   # position (0, 1, 0)
         00 00 00 00 00 00 00 00               # uv (0, 0)
         00 00 80 3f 00 00 00 00               # uv (1, 0)
         00 00 00 00 00 00 80 3f               # uv (0, 1)
         00 00 00 00 00 00 00 00 00 00 80 3f   # normal (0, 0, 1)
         00 00 00 00 00 00 00 00 00 00 80 3f
         00 00 00 00 00 00 00 00 00 00 80 3f
         00 01 02                  # face: u8 indices (3 vertices)
         00 00 00 00               # materialIndex[0] = 0
         # material 0
         6d 00                     # name \"m\"
         01                        # isSimple
         64 2e 70 6e 67 00         # diffuse \"d.png\"
         00                        # normal \"\"
         00                        # specular \"\"");
    let expected = SeModel::Deployed(deployed::Model {
        mesh_flags: MeshFlags::UV_SET | MeshFlags::NORMALS,
        meshes: Block::Present(vec![deployed::Mesh {
            positions: vec![v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.0, 1.0, 0.0)],
            uvs: vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)],
            normals: vec![v3(0.0, 0.0, 1.0); 3],
            faces: vec![[0, 1, 2]],
            material_indices: vec![0],
            ..Default::default()
        }]),
        materials: Block::Present(vec![Material {
            name: "m".into(),
            maps: Some(MaterialMaps {
                diffuse: "d.png".into(),
                ..Default::default()
            }),
        }]),
        ..Default::default()
    });
    check_fixture(&bytes, bytes.len(), &expected);
    assert!(validate(&expected).is_empty());
}

#[test]
fn skinned_model_with_every_flag_and_a_blend_trailer() {
    let bytes = hex("53 45 4d 6f 64 65 6c 01 00 14 00
         07                        # dataFlags: BONE | MESH | MATERIALS
         07                        # boneFlags: GLOBAL | LOCAL | SCALES
         0f                        # meshFlags: UV_SET | NORMALS | COLOR | WEIGHTS
         02 00 00 00               # boneCount 2
         01 00 00 00               # meshCount 1
         01 00 00 00               # matCount 1
         00 00 00                  # reserved
         72 00                     # bone name \"r\"
         63 00                     # bone name \"c\"
         # bone 0: flags, parent -1, global, local, scale (1, 1, 1)
         00 ff ff ff ff
         00 00 00 00 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f
         00 00 00 00 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f
         00 00 80 3f 00 00 80 3f 00 00 80 3f
         # bone 1: parent 0, at (0, 1, 0) in both spaces, scale (2, 2, 2)
         00 00 00 00 00
         00 00 00 00 00 00 80 3f 00 00 00 00  00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f
         00 00 00 00 00 00 80 3f 00 00 00 00  00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f
         00 00 00 40 00 00 00 40 00 00 00 40
         # mesh 0
         00 01 02                  # flags, layerCount 1, maxInfluence 2
         03 00 00 00 01 00 00 00   # vertexCount 3, faceCount 1
         00 00 00 00 00 00 00 00 00 00 00 00
         00 00 80 3f 00 00 00 00 00 00 00 00
         00 00 00 00 00 00 80 3f 00 00 00 00
         00 00 00 00 00 00 00 00  00 00 80 3f 00 00 00 00  00 00 00 00 00 00 80 3f   # uvs
         00 00 00 00 00 00 00 00 00 00 80 3f                                           # normals
         00 00 00 00 00 00 00 00 00 00 80 3f
         00 00 00 00 00 00 00 00 00 00 80 3f
         ff 00 00 ff  00 ff 00 ff  00 00 ff ff                                         # colours
         00 00 00 80 3f  01 00 00 00 00     # vertex 0: (bone 0, 1.0), (bone 1, 0.0): u8 bone_t
         00 00 00 00 3f  01 00 00 00 3f     # vertex 1: (0, 0.5), (1, 0.5)
         01 00 00 80 3f  00 00 00 00 00     # vertex 2: (1, 1.0), unused slot (0, 0.0)
         00 01 02                  # face
         ff ff ff ff               # materialIndex[0] = -1
         6e 00 00                  # material \"n\", not simple
         # SEBlend trailer
         53 45 42 6c 65 6e 64 0a   # \"SEBlend\\n\"
         01 00 00 00 00 00 00 00   # one shape
         73 6d 69 6c 65 00         # \"smile\"
         00 00 00 00               # vertex 0: no deltas
         01 00 00 00  00 00 00 00  00 00 00 00 00 00 00 3f 00 00 00 00   # vertex 1: shape 0, (0, 0.5, 0)
         00 00 00 00               # vertex 2: no deltas");
    let at_y = Pose {
        position: v3(0.0, 1.0, 0.0),
        ..IDENTITY
    };
    let expected = SeModel::Deployed(deployed::Model {
        bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX | BoneFlags::SCALES,
        mesh_flags: MeshFlags::from_bits_retain(0x0f),
        bones: Block::Present(vec![
            Bone {
                name: "r".into(),
                parent: -1,
                global: Some(IDENTITY),
                local: Some(IDENTITY),
                scale: Some(v3(1.0, 1.0, 1.0)),
                ..Default::default()
            },
            Bone {
                name: "c".into(),
                parent: 0,
                global: Some(at_y),
                local: Some(at_y),
                scale: Some(v3(2.0, 2.0, 2.0)),
                ..Default::default()
            },
        ]),
        meshes: Block::Present(vec![deployed::Mesh {
            max_influence: 2,
            positions: vec![v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.0, 1.0, 0.0)],
            uvs: vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)],
            normals: vec![v3(0.0, 0.0, 1.0); 3],
            colors: vec![
                Rgba8::new(255, 0, 0, 255),
                Rgba8::new(0, 255, 0, 255),
                Rgba8::new(0, 0, 255, 255),
            ],
            weights: [(0, 1.0), (1, 0.0), (0, 0.5), (1, 0.5), (1, 1.0), (0, 0.0)]
                .map(|(bone, weight)| Influence { bone, weight })
                .to_vec(),
            faces: vec![[0, 1, 2]],
            material_indices: vec![-1],
            ..Default::default()
        }]),
        materials: Block::Present(vec![Material {
            name: "n".into(),
            maps: None,
        }]),
        trailer: Trailer::SeBlend(BlendShapes {
            names: vec!["smile".into()],
            meshes: vec![MeshBlend {
                vertices: vec![
                    VertexBlend::default(),
                    VertexBlend {
                        deltas: vec![BlendDelta {
                            shape: 0,
                            delta: v3(0.0, 0.5, 0.0),
                        }],
                    },
                    VertexBlend::default(),
                ],
            }],
        }),
        ..Default::default()
    });
    // The SEBlend trailer is the last 50 bytes.
    check_fixture(&bytes, bytes.len() - 50, &expected);
    assert!(validate(&expected).is_empty(), "{:?}", validate(&expected));
}

#[test]
fn draft_layout_with_interleaved_half_float_records() {
    let bytes = hex("53 45 4d 6f 64 65 6c 01 00
         1e 00                     # headerSize 0x1E: the draft layout
         01                        # modelType: dynamic
         00 00                     # modelFlags
         0b                        # dataPresenceFlags: BONE | MESH | MATERIALS (bit 3 in the draft)
         02                        # boneDataPresenceFlags: LOCAL
         0f                        # meshDataPresenceFlags: all four
         00 00                     # reserved1
         01 00 00 00               # boneCount 1
         01 00 00 00               # meshCount 1
         00 00 00 00               # colCount 0
         01 00 00 00               # matCount 1 (mat_t is u8)
         01                        # maxSkinInfluence 1
         00 00 00                  # reserved2
         72 00                     # bone name \"r\"
         00 ff ff ff ff            # flags, parent -1
         00 00 00 00 00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f   # local
         # mesh 0
         00                        # flags
         01                        # uvSetCount 1
         02 00 00 00               # vertexCount 2
         01 00 00 00               # faceCount 1
         # vertex 0
         00 00 00 00 00 00 00 00 00 00 00 00   # position (0, 0, 0)
         00 00 00 00 00 00 80 3f               # uv (0, 1)
         00                                    # uv material 0 (mat_t u8)
         00 00 00 00 00 3c                     # normal (0, 0, 1) in half floats
         ff ff ff ff                           # colour
         00                                    # bone 0 (bone_t u8)
         00 3c                                 # weight 1.0 (half)
         # vertex 1
         00 00 80 3f 00 00 00 00 00 00 00 00   # position (1, 0, 0)
         00 00 80 3f 00 00 80 3f               # uv (1, 1)
         00
         00 00 00 3c 00 00                     # normal (0, 1, 0)
         80 80 80 ff
         00
         00 38                                 # weight 0.5 (sums are validate's business)
         00 00 00 00 01 00 00 00 01 00 00 00   # face: u32 indices, always");
    let h = f16::from_f32;
    let expected = SeModel::Draft(draft::Model {
        model_type: 1,
        other_data_flags: DataFlags::DRAFT_MATERIALS,
        bone_flags: BoneFlags::LOCAL_MATRIX,
        mesh_flags: MeshFlags::from_bits_retain(0x0f),
        material_count: 1,
        max_skin_influence: 1,
        bones: Block::Present(vec![Bone {
            name: "r".into(),
            parent: -1,
            local: Some(IDENTITY),
            ..Default::default()
        }]),
        meshes: Block::Present(vec![draft::Mesh {
            flags: 0,
            uv_set_count: 1,
            vertices: Vertices {
                positions: vec![v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)],
                uvs: vec![Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0)],
                uv_materials: vec![0, 0],
                normals: vec![Vec3::new(h(0.0), h(0.0), h(1.0)), Vec3::new(h(0.0), h(1.0), h(0.0))],
                colors: vec![Rgba8::new(255, 255, 255, 255), Rgba8::new(128, 128, 128, 255)],
                bone_indices: vec![0, 0],
                bone_weights: vec![h(1.0), h(0.5)],
            },
            faces: vec![[0, 1, 1]],
        }]),
        ..Default::default()
    });
    check_fixture(&bytes, bytes.len(), &expected);
    // Header 39, name 2, one 33-byte bone record, mesh header 10, vertex 0's 34-byte record;
    // vertex 1's weight lies 32 bytes into its record.
    assert_eq!(
        validate(&expected),
        [Problem::new(
            Severity::Warning,
            Location::Offset(39 + 2 + 33 + 10 + 34 + 32),
            "mesh 0: vertex 1's weights sum to 0.5, not 1"
        )]
    );
    assert!(View::parse(&bytes).is_err(), "a view covers the deployed layout only");
}

/// A deployed file with one mesh of `vertex_count` zero positions and one face, built from
/// hex for everything but the positions.
fn one_mesh(vertex_count_hex: &str, vertex_count: usize, face_hex: &str) -> Vec<u8> {
    let mut bytes = hex(&format!(
        "53 45 4d 6f 64 65 6c 01 00 14 00
         02 00 00                  # dataFlags MESH, no bone or mesh flags
         00 00 00 00 01 00 00 00 00 00 00 00 00 00 00
         00 00 00                  # mesh flags, layerCount, maxInfluence
         {vertex_count_hex}        # vertexCount
         01 00 00 00               # faceCount 1"
    ));
    bytes.resize(bytes.len() + 12 * vertex_count, 0);
    bytes.extend(hex(face_hex));
    bytes
}

fn mesh_model(vertex_count: usize, face: [u32; 3]) -> SeModel {
    SeModel::Deployed(deployed::Model {
        meshes: Block::Present(vec![deployed::Mesh {
            positions: vec![Vec3::default(); vertex_count],
            faces: vec![face],
            ..Default::default()
        }]),
        ..Default::default()
    })
}

#[test]
fn face_index_width_switches_at_256_and_65536_vertices() {
    for (count_hex, count, face_hex, face) in [
        ("ff 00 00 00", 255, "fe 00 7f", [254, 0, 127]),
        ("00 01 00 00", 256, "ff 00 00 00 fe 00", [255, 0, 254]),
        ("ff ff 00 00", 65535, "fe ff 00 01 01 00", [65534, 256, 1]),
        (
            "00 00 01 00",
            65536,
            "ff ff 00 00 00 00 00 00 01 00 00 00",
            [65535, 0, 1],
        ),
    ] {
        let bytes = one_mesh(count_hex, count, face_hex);
        let expected = mesh_model(count, face);
        assert_eq!(read(&bytes).unwrap(), expected, "{count} vertices");
        assert_eq!(to_bytes(&expected).unwrap(), bytes, "{count} vertices");
        let view = View::parse(&bytes).unwrap();
        assert_eq!(view.meshes()[0].faces().get(0), Some(face));
        assert_every_truncation_fails(&bytes, read);
    }
}

#[test]
fn a_face_index_past_its_width_is_refused_by_the_writer() {
    let Err(err) = to_bytes(&mesh_model(255, [0, 1, 256])) else {
        panic!("index 256 in a u8 field was written")
    };
    // Header 29 + mesh header 11 + 255 positions: the face starts at 805.
    assert_eq!(err.offset, 29 + 11 + 255 * 12);
    assert!(err.to_string().contains("does not fit"), "{err}");
}

/// A deployed file with `bone_count` bones and one one-vertex mesh whose single weight names
/// a bone, with the weight record given in hex.
fn skinned(bone_count: usize, bone_count_hex: &str, weight_hex: &str) -> Vec<u8> {
    let mut bytes = hex(&format!(
        "53 45 4d 6f 64 65 6c 01 00 14 00
         03 00 08                  # dataFlags BONE | MESH, boneFlags 0, meshFlags WEIGHTS
         {bone_count_hex}          # boneCount
         01 00 00 00 00 00 00 00 00 00 00"
    ));
    for _ in 0..bone_count {
        bytes.extend(hex("62 00")); // name "b"
    }
    for _ in 0..bone_count {
        bytes.extend(hex("00 ff ff ff ff")); // flags 0, parent -1
    }
    bytes.extend(hex("00 00 01   01 00 00 00   00 00 00 00")); // one influence, one vertex, no faces
    bytes.extend([0; 12]);
    bytes.extend(hex(weight_hex));
    bytes
}

#[test]
fn weight_bone_index_width_switches_at_256_bones() {
    for (count, count_hex, weight_hex, bone) in [
        (255, "ff 00 00 00", "fe   00 00 80 3f", 254),
        (256, "00 01 00 00", "ff 00   00 00 80 3f", 255),
    ] {
        let bytes = skinned(count, count_hex, weight_hex);
        let model = read(&bytes).unwrap();
        let SeModel::Deployed(m) = &model else {
            panic!("deployed")
        };
        assert_eq!(m.bones.items().len(), count);
        assert_eq!(m.meshes.items()[0].weights, vec![Influence { bone, weight: 1.0 }]);
        assert_eq!(to_bytes(&model).unwrap(), bytes);
        assert!(validate(&model).is_empty(), "{:?}", validate(&model));
        let view = View::parse(&bytes).unwrap();
        assert_eq!(view.meshes()[0].weights().get(0), Some(Influence { bone, weight: 1.0 }));
        assert_every_truncation_fails(&bytes, read);
    }
}

#[test]
fn empty_blocks_keep_their_flags_the_way_greyhound_writes_them() {
    // Greyhound: MATERIALS set with no materials, every mesh flag set, maxInfluence 0.
    let bytes = hex("53 45 4d 6f 64 65 6c 01 00 14 00
         06 03 0f                  # MESH | MATERIALS, GLOBAL | LOCAL, all mesh flags
         00 00 00 00 01 00 00 00 00 00 00 00 00 00 00
         00 00 00 00 00 00 00 00 00 00 00   # an empty mesh: no layers, no influences, no vertices");
    let model = read(&bytes).unwrap();
    let SeModel::Deployed(m) = &model else {
        panic!("deployed")
    };
    assert_eq!(m.materials, Block::Present(vec![]));
    assert_eq!(m.bones, Block::Absent { count: 0 });
    assert_eq!(m.bone_flags, BoneFlags::from_bits_retain(3));
    assert_eq!(to_bytes(&model).unwrap(), bytes);
    assert_every_truncation_fails(&bytes, read);
}
