//! Property tests: for both layouts, model -> bytes -> model gives the same model, and the
//! bytes the writer produces (arbitrary float bits included) survive bytes -> model -> bytes;
//! the view agrees with the reader; a scene-shaped model survives model -> scene -> model.

use animbin_core::IndexWidth;
use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_core::scene::ConversionReport;
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::draft::{self, Vertices, material_index_width};
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone, BoneFlags, DataFlags, Influence, MeshBlend, MeshFlags, Pose, SceneOptions,
    SeModel, Trailer, VertexBlend, View, read, to_bytes,
};
use half::f16;
use proptest::collection::vec;
use proptest::prelude::*;

/// Floats: finite values for model comparisons, any bits for byte comparisons.
#[derive(Debug, Clone, Copy)]
enum Floats {
    Finite,
    AnyBits,
}

fn float(f: Floats) -> BoxedStrategy<f32> {
    match f {
        Floats::Finite => (-1.0e6f32..1.0e6).boxed(),
        Floats::AnyBits => any::<u32>().prop_map(f32::from_bits).boxed(),
    }
}

fn half(f: Floats) -> BoxedStrategy<f16> {
    match f {
        Floats::Finite => (-1000.0f32..1000.0).prop_map(f16::from_f32).boxed(),
        Floats::AnyBits => any::<u16>().prop_map(f16::from_bits).boxed(),
    }
}

fn vec3(f: Floats) -> impl Strategy<Value = Vec3<f32>> {
    (float(f), float(f), float(f)).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn vec2(f: Floats) -> impl Strategy<Value = Vec2<f32>> {
    (float(f), float(f)).prop_map(|(x, y)| Vec2::new(x, y))
}

fn pose(f: Floats) -> impl Strategy<Value = Pose> {
    (vec3(f), float(f), float(f), float(f), float(f)).prop_map(|(position, x, y, z, w)| Pose {
        position,
        rotation: Quat::new(x, y, z, w),
    })
}

/// `Some` of the strategy's value exactly when `present`.
fn maybe<T: std::fmt::Debug + Clone + 'static>(
    present: bool,
    s: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    if present {
        s.prop_map(Some).boxed()
    } else {
        Just(None).boxed()
    }
}

fn color() -> impl Strategy<Value = Rgba8> {
    any::<[u8; 4]>().prop_map(|[r, g, b, a]| Rgba8::new(r, g, b, a))
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_ .é]{0,8}"
}

fn bone(flags: BoneFlags, f: Floats) -> impl Strategy<Value = Bone> {
    let has = |b| flags.contains(b);
    (
        name(),
        any::<u8>(),
        -2i32..6,
        maybe(has(BoneFlags::GLOBAL_MATRIX), pose(f)),
        maybe(has(BoneFlags::LOCAL_MATRIX), pose(f)),
        maybe(has(BoneFlags::SCALES), vec3(f)),
    )
        .prop_map(|(name, flags, parent, global, local, scale)| Bone {
            name,
            flags,
            parent,
            global,
            local,
            scale,
        })
}

/// A block of up to `max` items, or an absent block with a count kept (sometimes non-zero,
/// which validate reports but the format carries).
fn block<T: std::fmt::Debug + Clone + 'static>(
    item: impl Strategy<Value = T> + 'static,
    max: usize,
) -> BoxedStrategy<Block<T>> {
    prop_oneof![
        3 => vec(item, 0..=max).prop_map(Block::Present),
        1 => prop_oneof![Just(0u32), 0u32..400, any::<u32>()].prop_map(|count| Block::Absent { count }),
    ]
    .boxed()
}

/// An index that fits `width`, usually a small one.
fn index(width: IndexWidth) -> impl Strategy<Value = u32> {
    prop_oneof![3 => 0u32..8, 1 => 0..=width.max()]
}

fn faces(vertex_count: usize) -> impl Strategy<Value = Vec<[u32; 3]>> {
    let width = IndexWidth::for_count(vertex_count as u64);
    vec([index(width), index(width), index(width)], 0..5)
}

fn deployed_mesh(flags: MeshFlags, bone_index: IndexWidth, f: Floats) -> impl Strategy<Value = deployed::Mesh> {
    let has = move |b| flags.contains(b);
    // Mostly tiny meshes, sometimes one past the u8 face index width.
    (
        prop_oneof![4 => 0usize..6, 1 => Just(256usize)],
        0usize..3,
        0u8..3,
        any::<u8>(),
    )
        .prop_flat_map(move |(v, layers, max_influence, mesh_flags)| {
            let n = |flag, count: usize| if has(flag) { count } else { 0 };
            (
                vec(vec3(f), v),
                vec(vec2(f), n(MeshFlags::UV_SET, v * layers)),
                vec(vec3(f), n(MeshFlags::NORMALS, v)),
                vec(color(), n(MeshFlags::COLOR, v)),
                vec(
                    (index(bone_index), float(f)).prop_map(|(bone, weight)| Influence { bone, weight }),
                    n(MeshFlags::WEIGHTS, v * usize::from(max_influence)),
                ),
                faces(v),
                vec(prop_oneof![Just(-1), -3i32..4], layers),
            )
                .prop_map(
                    move |(positions, uvs, normals, colors, weights, faces, material_indices)| deployed::Mesh {
                        flags: mesh_flags,
                        max_influence,
                        positions,
                        uvs,
                        normals,
                        colors,
                        weights,
                        faces,
                        material_indices,
                    },
                )
        })
}

fn material() -> impl Strategy<Value = Material> {
    (name(), proptest::option::of((name(), name(), name()))).prop_map(|(name, maps)| Material {
        name,
        maps: maps.map(|(diffuse, normal, specular)| MaterialMaps {
            diffuse,
            normal,
            specular,
        }),
    })
}

/// A trailer for meshes of these vertex counts: none, SEBlend, or bytes that are not SEBlend.
fn trailer(vertex_counts: Vec<usize>, f: Floats) -> BoxedStrategy<Trailer<BlendShapes>> {
    let delta = (0u32..4, vec3(f))
        .prop_map(|(shape, delta)| BlendDelta { shape, delta })
        .boxed();
    let meshes: Vec<_> = vertex_counts
        .into_iter()
        .map(|v| {
            vec(vec(delta.clone(), 0..3).prop_map(|deltas| VertexBlend { deltas }), v)
                .prop_map(|vertices| MeshBlend { vertices })
        })
        .collect();
    prop_oneof![
        Just(Trailer::None),
        (vec(name(), 0..3), meshes).prop_map(|(names, meshes)| Trailer::SeBlend(BlendShapes { names, meshes })),
        // Not starting with "S", so never mistaken for SEBlend.
        (0u8..0x53, vec(any::<u8>(), 0..12)).prop_map(|(first, rest)| {
            let mut bytes = vec![first];
            bytes.extend(rest);
            Trailer::Unknown(bytes)
        }),
    ]
    .boxed()
}

fn flag_bits(known: u8) -> impl Strategy<Value = u8> {
    prop_oneof![4 => 0..=known, 1 => any::<u8>()]
}

fn deployed_model(f: Floats) -> impl Strategy<Value = deployed::Model> {
    (
        flag_bits(7),
        flag_bits(15),
        prop_oneof![3 => Just(0u8), 1 => prop_oneof![Just(0x08u8), Just(0x80)]],
        any::<[u8; 3]>(),
    )
        .prop_flat_map(move |(bone_flags, mesh_flags, other, reserved)| {
            let bone_flags = BoneFlags::from_bits_retain(bone_flags);
            let mesh_flags = MeshFlags::from_bits_retain(mesh_flags);
            block(bone(bone_flags, f), 4).prop_flat_map(move |bones| {
                let bone_index = IndexWidth::for_count(bones.header_count());
                (
                    block(deployed_mesh(mesh_flags, bone_index, f), 3),
                    block(material(), 3),
                    Just(bones),
                )
                    .prop_flat_map(move |(meshes, materials, bones)| {
                        let counts = meshes.items().iter().map(|m| m.positions.len()).collect();
                        trailer(counts, f).prop_map(move |trailer| deployed::Model {
                            other_data_flags: DataFlags::from_bits_retain(other),
                            bone_flags,
                            mesh_flags,
                            reserved,
                            bones: bones.clone(),
                            meshes: meshes.clone(),
                            materials: materials.clone(),
                            trailer,
                        })
                    })
            })
        })
}

#[derive(Debug, Clone, Copy)]
struct DraftHeader {
    presence: MeshFlags,
    bone_index: IndexWidth,
    material_index: IndexWidth,
    influences: u8,
}

fn draft_mesh(h: DraftHeader, f: Floats) -> impl Strategy<Value = draft::Mesh> {
    let has = move |b| h.presence.contains(b);
    (0usize..5, 0u8..3, any::<u8>()).prop_flat_map(move |(v, layers, mesh_flags)| {
        let layers_used = if has(MeshFlags::UV_SET) { usize::from(layers) } else { 0 };
        let influences = if has(MeshFlags::WEIGHTS) {
            usize::from(h.influences)
        } else {
            0
        };
        let n = |flag, count: usize| if has(flag) { count } else { 0 };
        (
            vec(vec3(f), v),
            vec(vec2(f), v * layers_used),
            vec(index(h.material_index), v * layers_used),
            vec(
                (half(f), half(f), half(f)).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
                n(MeshFlags::NORMALS, v),
            ),
            vec(color(), n(MeshFlags::COLOR, v)),
            vec(index(h.bone_index), v * influences),
            vec(half(f), v * influences),
            vec((0u32..8, any::<u32>(), 0u32..8).prop_map(|(a, b, c)| [a, b, c]), 0..4),
        )
            .prop_map(
                move |(positions, uvs, uv_materials, normals, colors, bone_indices, bone_weights, faces)| draft::Mesh {
                    flags: mesh_flags,
                    uv_set_count: layers,
                    vertices: Vertices {
                        positions,
                        uvs,
                        uv_materials,
                        normals,
                        colors,
                        bone_indices,
                        bone_weights,
                    },
                    faces,
                },
            )
    })
}

fn draft_model(f: Floats) -> impl Strategy<Value = draft::Model> {
    (
        (
            any::<u8>(),
            any::<u16>(),
            prop_oneof![Just(0u8), Just(0x04), Just(0x08), Just(0xF0)],
        ),
        (flag_bits(7), flag_bits(15), any::<[u8; 2]>(), any::<[u8; 3]>()),
        (
            any::<u32>(),
            prop_oneof![0u32..4, Just(255), Just(256), any::<u32>()],
            0u8..3,
        ),
    )
        .prop_flat_map(
            move |(
                (model_type, model_flags, other),
                (bone_flags, mesh_flags, reserved1, reserved2),
                (collision_count, material_count, influences),
            )| {
                let bone_flags = BoneFlags::from_bits_retain(bone_flags);
                block(bone(bone_flags, f), 3).prop_flat_map(move |bones| {
                    let h = DraftHeader {
                        presence: MeshFlags::from_bits_retain(mesh_flags),
                        bone_index: IndexWidth::for_count(bones.header_count()),
                        material_index: material_index_width(u64::from(material_count)),
                        influences,
                    };
                    block(draft_mesh(h, f), 3).prop_flat_map(move |meshes| {
                        let counts = meshes.items().iter().map(|m| m.vertices.positions.len()).collect();
                        let bones = bones.clone();
                        trailer(counts, f).prop_map(move |trailer| draft::Model {
                            model_type,
                            model_flags,
                            other_data_flags: DataFlags::from_bits_retain(other),
                            bone_flags,
                            mesh_flags: MeshFlags::from_bits_retain(mesh_flags),
                            reserved1,
                            collision_count,
                            material_count,
                            max_skin_influence: influences,
                            reserved2,
                            bones: bones.clone(),
                            meshes: meshes.clone(),
                            trailer,
                        })
                    })
                })
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn deployed_model_bytes_model(m in deployed_model(Floats::Finite)) {
        let model = SeModel::Deployed(m);
        let bytes = to_bytes(&model).unwrap();
        prop_assert_eq!(read(&bytes).unwrap(), model.clone());
        let SeModel::Deployed(m) = &model else { unreachable!() };
        prop_assert_eq!(&View::parse(&bytes).unwrap().to_model(), m);
    }

    #[test]
    fn deployed_bytes_model_bytes(m in deployed_model(Floats::AnyBits)) {
        let bytes = to_bytes(&SeModel::Deployed(m)).unwrap();
        prop_assert_eq!(to_bytes(&read(&bytes).unwrap()).unwrap(), bytes.clone());
        let view = View::parse(&bytes).unwrap();
        prop_assert_eq!(to_bytes(&SeModel::Deployed(view.to_model())).unwrap(), bytes);
    }

    #[test]
    fn draft_model_bytes_model(m in draft_model(Floats::Finite)) {
        let model = SeModel::Draft(m);
        let bytes = to_bytes(&model).unwrap();
        prop_assert_eq!(&bytes[9..11], &[0x1E, 0]);
        prop_assert_eq!(read(&bytes).unwrap(), model);
    }

    #[test]
    fn draft_bytes_model_bytes(m in draft_model(Floats::AnyBits)) {
        let bytes = to_bytes(&SeModel::Draft(m)).unwrap();
        prop_assert_eq!(to_bytes(&read(&bytes).unwrap()).unwrap(), bytes);
    }

    #[test]
    fn any_prefix_or_corruption_of_a_file_is_an_error_or_a_model_never_a_panic(
        m in deployed_model(Floats::AnyBits),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = to_bytes(&SeModel::Deployed(m)).unwrap();
        let at = flip.index(bytes.len());
        bytes[at] = byte;
        let bytes = &bytes[..cut.index(bytes.len() + 1)];
        // The view fails exactly when the reader fails, and at the same byte.
        match (read(bytes), View::parse(bytes)) {
            // Compared as bytes: the floats may be NaN. Every model that reads also writes.
            (Ok(SeModel::Deployed(m)), Ok(view)) => {
                let read_back = to_bytes(&SeModel::Deployed(m)).unwrap();
                prop_assert!(read_back == bytes, "a file that reads is rewritten as it was");
                prop_assert!(to_bytes(&SeModel::Deployed(view.to_model())).unwrap() == read_back);
            }
            (Ok(m @ SeModel::Draft(_)), Err(_)) => prop_assert!(to_bytes(&m).unwrap() == bytes),
            (Err(a), Err(b)) => prop_assert_eq!(a.offset, b.offset, "{} / {}", a, b),
            (a, b) => prop_assert!(false, "read {:?} but view {:?}", a.map(|_| ()), b.map(|_| ())),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_prefix_or_corruption_of_a_draft_file_is_an_error_or_a_model_never_a_panic(
        m in draft_model(Floats::AnyBits),
        cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = to_bytes(&SeModel::Draft(m)).unwrap();
        let at = flip.index(bytes.len());
        bytes[at] = byte;
        let bytes = &bytes[..cut.index(bytes.len() + 1)];
        if let Ok(model) = read(bytes) {
            prop_assert!(to_bytes(&model).unwrap() == bytes, "a file that reads is rewritten as it was");
        }
    }
}

// ---- model -> scene -> model, for models in the shape the scene conversion produces ----

fn scene_shaped_bones() -> impl Strategy<Value = (Vec<Bone>, BoneFlags)> {
    (0usize..5, any::<bool>()).prop_flat_map(|(n, scaled)| {
        let bones: Vec<_> = (0..n)
            .map(|i| {
                (
                    name(),
                    if i == 0 {
                        Just(-1).boxed()
                    } else {
                        (-1..i as i32).boxed()
                    },
                    pose(Floats::Finite),
                    pose(Floats::Finite),
                    maybe(scaled, vec3(Floats::Finite)),
                )
                    .prop_map(|(name, parent, global, local, scale)| Bone {
                        name,
                        flags: 0,
                        parent,
                        global: Some(global),
                        local: Some(local),
                        scale,
                    })
            })
            .collect();
        bones.prop_map(move |mut bones| {
            // The scene writes SCALES only when some scale differs from 1.
            let scaled = scaled && bones.iter().any(|b| b.scale != Some(Vec3::new(1.0, 1.0, 1.0)));
            if !scaled {
                bones.iter_mut().for_each(|b| b.scale = None);
            }
            let mut flags = BoneFlags::from_bits_retain(0);
            if !bones.is_empty() {
                flags = BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX;
                if scaled {
                    flags |= BoneFlags::SCALES;
                }
            }
            (bones, flags)
        })
    })
}

fn scene_shaped_model() -> impl Strategy<Value = deployed::Model> {
    (scene_shaped_bones(), 0usize..3, any::<[bool; 4]>())
        .prop_flat_map(|((bones, bone_flags), materials, has)| {
            let bone_count = bones.len() as u32;
            let mesh = (1usize..6, 0usize..3, 1u8..3).prop_flat_map(move |(v, layers, influences)| {
                let layers = if has[0] { layers } else { 0 };
                let skinned = has[3] && bone_count > 0;
                (
                    vec(vec3(Floats::Finite), v),
                    vec(vec2(Floats::Finite), v * layers),
                    vec(vec3(Floats::Finite), if has[1] { v } else { 0 }),
                    vec(color(), if has[2] { v } else { 0 }),
                    vec(
                        (0..bone_count.max(1), float(Floats::Finite))
                            .prop_map(|(bone, weight)| Influence { bone, weight }),
                        if skinned { v * usize::from(influences) } else { 0 },
                    ),
                    vec([0..v as u32, 0..v as u32, 0..v as u32], 0..4),
                    vec(-1..materials as i32, layers),
                )
                    .prop_map(
                        move |(positions, uvs, normals, colors, weights, faces, material_indices)| deployed::Mesh {
                            flags: 0,
                            max_influence: if skinned { influences } else { 0 },
                            positions,
                            uvs,
                            normals,
                            colors,
                            weights,
                            faces,
                            material_indices,
                        },
                    )
            });
            (vec(mesh, 0..3), vec(material(), materials), Just((bones, bone_flags)))
        })
        .prop_map(|(meshes, materials, (bones, bone_flags))| {
            let mut model = deployed::Model {
                bone_flags,
                bones: if bones.is_empty() {
                    Block::default()
                } else {
                    Block::Present(bones)
                },
                meshes: if meshes.is_empty() {
                    Block::default()
                } else {
                    Block::Present(meshes)
                },
                materials: if materials.is_empty() {
                    Block::default()
                } else {
                    Block::Present(materials)
                },
                ..Default::default()
            };
            // The flags the scene conversion derives: a part any mesh has.
            let bone_flags = model.bone_flags;
            model.set_flags_from_data();
            model.bone_flags = bone_flags;
            model
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn deployed_model_scene_model(m in scene_shaped_model()) {
        let model = SeModel::Deployed(m);
        let mut report = ConversionReport::default();
        let scene = model.to_scene(&SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        let back = SeModel::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        prop_assert!(report.is_lossless(), "{:?}", report);
        prop_assert_eq!(back, model);
    }
}
