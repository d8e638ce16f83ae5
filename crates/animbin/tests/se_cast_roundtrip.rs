//! Property tests of the SE <-> Cast mapping: every SEAnim and SEModel file the writers
//! make (any flag, reserved byte, width, block, trailer and float bits, both SEModel layouts)
//! comes back from Cast byte for byte.
//!
//! The generators are those of the SEAnim and SEModel crates' own round trip tests, with
//! any float bits in the keys.

use animbin::cast;
use animbin::se_cast::{cast_to_seanim, cast_to_semodel, seanim_to_cast, semodel_to_cast};
use animbin_core::IndexWidth;
use animbin_core::half::f16;
use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
use animbin_seanim::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, Key, Modifier, Note, Precision, PresenceFlags, PropertyFlags,
    SeAnim, SeBlend, StrayCounts, Trailer, narrow, widen,
};
use animbin_semodel::deployed::{self, Material, MaterialMaps};
use animbin_semodel::draft::{self, Vertices, material_index_width};
use animbin_semodel::{
    BlendDelta, BlendShapes, Block, Bone as ModelBone, BoneFlags, DataFlags, Influence, MeshBlend, MeshFlags, Pose,
    SeModel, VertexBlend,
};
use proptest::collection::vec;
use proptest::prelude::*;

fn any_anim_type() -> impl Strategy<Value = AnimType> {
    prop_oneof![
        Just(AnimType::Absolute),
        Just(AnimType::Additive),
        Just(AnimType::Relative),
        Just(AnimType::Delta)
    ]
}

/// Any float bits a file can hold, NaN payloads included (files are compared as bytes).
fn component(precision: Precision) -> BoxedStrategy<f64> {
    match precision {
        Precision::Single => any::<u32>().prop_map(|b| widen(f32::from_bits(b))).boxed(),
        Precision::Double => prop_oneof![
            any::<u32>().prop_map(|b| widen(f32::from_bits(b))),
            any::<u64>()
                .prop_map(f64::from_bits)
                .prop_filter("within f32's range", |x| narrow(*x).is_some()),
        ]
        .boxed(),
    }
}

fn vec3_keys(present: bool, max_frame: u32, p: Precision) -> BoxedStrategy<Vec<Key<Vec3<f64>>>> {
    if !present {
        return Just(Vec::new()).boxed();
    }
    let key = (0..=max_frame, component(p), component(p), component(p))
        .prop_map(|(f, x, y, z)| Key::new(f, Vec3::new(x, y, z)));
    prop::collection::vec(key, 0..4).boxed()
}

fn quat_keys(present: bool, max_frame: u32, p: Precision) -> BoxedStrategy<Vec<Key<Quat<f64>>>> {
    if !present {
        return Just(Vec::new()).boxed();
    }
    let key = (0..=max_frame, component(p), component(p), component(p), component(p))
        .prop_map(|(f, x, y, z, w)| Key::new(f, Quat::new(x, y, z, w)));
    prop::collection::vec(key, 0..4).boxed()
}

fn name() -> impl Strategy<Value = String> {
    "[^\0]{0,6}"
}

fn bone(presence: PresenceFlags, max_frame: u32, p: Precision) -> impl Strategy<Value = Bone> {
    (
        name(),
        prop_oneof![Just(0u8), Just(1u8), any::<u8>()],
        vec3_keys(presence.contains(PresenceFlags::LOC), max_frame, p),
        quat_keys(presence.contains(PresenceFlags::ROT), max_frame, p),
        vec3_keys(presence.contains(PresenceFlags::SCALE), max_frame, p),
    )
        .prop_map(|(name, flags, location, rotation, scale)| Bone {
            name,
            flags,
            location,
            rotation,
            scale,
        })
}

fn trailer() -> impl Strategy<Value = Trailer<SeBlend>> {
    let key = (any::<u32>(), prop::array::uniform3(-1e6f32..1e6)).prop_map(|(frame, value)| BlendKey { frame, value });
    let shape = (name(), prop::collection::vec(key, 0..3)).prop_map(|(name, keys)| BlendShape { name, keys });
    prop_oneof![
        2 => Just(Trailer::None),
        1 => prop::collection::vec(shape, 0..3).prop_map(|shapes| Trailer::SeBlend(SeBlend { shapes })),
        // Unknown bytes never start like an SEBlend trailer.
        1 => prop::collection::vec(any::<u8>(), 0..6).prop_map(|mut b| {
            b.insert(0, 0xEE);
            Trailer::Unknown(b)
        }),
    ]
}

/// Any SEAnim the writer accepts: every flag, reserved bit and byte, width and block.
fn seanim() -> impl Strategy<Value = SeAnim> {
    let header = (
        any_anim_type(),
        any::<u8>(),
        any::<u8>(),
        any::<bool>(),
        any::<u8>(),
        any::<[u8; 2]>(),
        any::<[u8; 3]>(),
        prop_oneof![
            Just(10u32),
            Just(254),
            Just(255),
            Just(256),
            Just(65534),
            Just(65535),
            Just(100_000)
        ],
    );
    header.prop_flat_map(
        |(anim_type, anim_flags, presence, high, property, reserved1, reserved2, max_frame)| {
            let presence = PresenceFlags::from_bits_retain(presence);
            let precision = if high { Precision::Double } else { Precision::Single };
            let has_bones = presence.has_bones();
            let has_notes = presence.contains(PresenceFlags::NOTE);
            let bones = if has_bones {
                prop::collection::vec(bone(presence, max_frame, precision), 0..4).boxed()
            } else {
                Just(Vec::new()).boxed()
            };
            let notes = if has_notes {
                prop::collection::vec(
                    (0..=max_frame, name()).prop_map(|(frame, name)| Note { frame, name }),
                    0..3,
                )
                .boxed()
            } else {
                Just(Vec::new()).boxed()
            };
            let custom = if presence.contains(PresenceFlags::CUSTOM) {
                prop::collection::vec(any::<u8>(), 0..5).boxed()
            } else {
                Just(Vec::new()).boxed()
            };
            let stray = (any::<u32>(), any::<u8>(), any::<u32>()).prop_map(move |(b, m, n)| StrayCounts {
                bone_count: if has_bones { 0 } else { b },
                bone_anim_modifier_count: if has_bones { 0 } else { m },
                note_count: if has_notes { 0 } else { n },
            });
            (
                bones,
                notes,
                custom,
                stray,
                prop::collection::vec(any::<u8>(), 0..4),
                any::<u32>().prop_map(f32::from_bits),
                prop_oneof![Just(None), (1u32..300).prop_map(Some)],
                trailer(),
                prop::collection::vec((any::<u32>(), any_anim_type()), 0..4),
            )
                .prop_map(
                    move |(
                        bones,
                        notes,
                        custom,
                        stray_counts,
                        header_extra,
                        framerate,
                        extra_frames,
                        trailer,
                        mods,
                    )| {
                        let mut anim = SeAnim {
                            anim_type,
                            anim_flags: AnimFlags::from_bits_retain(anim_flags),
                            data_presence_flags: presence,
                            data_property_flags: PropertyFlags::from_bits_retain((property & !1) | u8::from(high)),
                            reserved1,
                            framerate,
                            reserved2,
                            header_extra,
                            stray_counts,
                            bones,
                            notes,
                            custom,
                            trailer,
                            ..SeAnim::default()
                        };
                        if has_bones {
                            let width = IndexWidth::for_count(anim.bones.len() as u64);
                            anim.modifiers = mods
                                .into_iter()
                                .map(|(bone, anim_type)| Modifier {
                                    bone: bone % (width.max().min(anim.bones.len() as u32 + 2) + 1),
                                    anim_type,
                                })
                                .collect();
                        }
                        if let Some(extra) = extra_frames {
                            anim.fixed_frame_count = Some(anim.frame_count().unwrap() + extra);
                        }
                        anim
                    },
                )
        },
    )
}

/// Floats: any bits (files are compared as bytes).
#[derive(Debug, Clone, Copy)]
enum Floats {
    AnyBits,
}

fn float(f: Floats) -> BoxedStrategy<f32> {
    match f {
        Floats::AnyBits => any::<u32>().prop_map(f32::from_bits).boxed(),
    }
}

fn half(f: Floats) -> BoxedStrategy<f16> {
    match f {
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

fn model_name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_ .é]{0,8}"
}

fn model_bone(flags: BoneFlags, f: Floats) -> impl Strategy<Value = ModelBone> {
    let has = |b| flags.contains(b);
    (
        model_name(),
        any::<u8>(),
        -2i32..6,
        maybe(has(BoneFlags::GLOBAL_MATRIX), pose(f)),
        maybe(has(BoneFlags::LOCAL_MATRIX), pose(f)),
        maybe(has(BoneFlags::SCALES), vec3(f)),
    )
        .prop_map(|(name, flags, parent, global, local, scale)| ModelBone {
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
    (model_name(), proptest::option::of((model_name(), model_name(), name()))).prop_map(|(name, maps)| Material {
        name,
        maps: maps.map(|(diffuse, normal, specular)| MaterialMaps {
            diffuse,
            normal,
            specular,
        }),
    })
}

/// A trailer for meshes of these vertex counts: none, SEBlend, or bytes that are not SEBlend.
fn model_trailer(vertex_counts: Vec<usize>, f: Floats) -> BoxedStrategy<animbin_semodel::Trailer<BlendShapes>> {
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
        (vec(model_name(), 0..3), meshes).prop_map(|(names, meshes)| Trailer::SeBlend(BlendShapes { names, meshes })),
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
            block(model_bone(bone_flags, f), 4).prop_flat_map(move |bones| {
                let bone_index = IndexWidth::for_count(bones.header_count());
                (
                    block(deployed_mesh(mesh_flags, bone_index, f), 3),
                    block(material(), 3),
                    Just(bones),
                )
                    .prop_flat_map(move |(meshes, materials, bones)| {
                        let counts = meshes.items().iter().map(|m| m.positions.len()).collect();
                        model_trailer(counts, f).prop_map(move |trailer| deployed::Model {
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
                block(model_bone(bone_flags, f), 3).prop_flat_map(move |bones| {
                    let h = DraftHeader {
                        presence: MeshFlags::from_bits_retain(mesh_flags),
                        bone_index: IndexWidth::for_count(bones.header_count()),
                        material_index: material_index_width(u64::from(material_count)),
                        influences,
                    };
                    block(draft_mesh(h, f), 3).prop_flat_map(move |meshes| {
                        let counts = meshes.items().iter().map(|m| m.vertices.positions.len()).collect();
                        let bones = bones.clone();
                        model_trailer(counts, f).prop_map(move |trailer| draft::Model {
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

/// An SE file's bytes through Cast and back: the Cast file writes and reads, and the mapping
/// gives back the same bytes.
fn through_cast<T>(
    bytes: &[u8],
    to_cast: impl Fn(&T) -> cast::CastFile,
    from_cast: impl Fn(&cast::CastFile) -> Option<T>,
    read: impl Fn(&[u8]) -> animbin::core::Result<T>,
    write: impl Fn(&T) -> animbin::core::Result<Vec<u8>>,
) -> Result<(), TestCaseError> {
    let model = read(bytes).unwrap();
    let cast_bytes = cast::to_bytes(&to_cast(&model)).unwrap();
    let back = from_cast(&cast::read(&cast_bytes).unwrap());
    prop_assert!(back.is_some(), "the mapping reads its own Cast file");
    prop_assert!(
        write(&back.unwrap()).unwrap() == bytes,
        "SE -> Cast -> SE gives other bytes"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_seanim_comes_back_from_cast(anim in seanim()) {
        let bytes = animbin_seanim::to_bytes(&anim).unwrap();
        through_cast(&bytes, seanim_to_cast, cast_to_seanim, animbin_seanim::read, animbin_seanim::to_bytes)?;
    }

    #[test]
    fn every_deployed_semodel_comes_back_from_cast(m in deployed_model(Floats::AnyBits)) {
        let bytes = animbin_semodel::to_bytes(&SeModel::Deployed(m)).unwrap();
        through_cast(&bytes, semodel_to_cast, cast_to_semodel, animbin_semodel::read, animbin_semodel::to_bytes)?;
    }

    #[test]
    fn every_draft_semodel_comes_back_from_cast(m in draft_model(Floats::AnyBits)) {
        let bytes = animbin_semodel::to_bytes(&SeModel::Draft(m)).unwrap();
        through_cast(&bytes, semodel_to_cast, cast_to_semodel, animbin_semodel::read, animbin_semodel::to_bytes)?;
    }
}
