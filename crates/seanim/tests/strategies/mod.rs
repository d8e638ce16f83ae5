//! Strategies for any SEAnim the writer accepts, shared by this crate's round trip tests and
//! the library's SE <-> Cast ones (which include this file by path). The including file
//! defines `component(Precision) -> BoxedStrategy<f64>`: which float bits the keys take.

use animbin_core::{IndexWidth, Quat, Vec3};
use animbin_seanim::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, Key, KeyValue, Keys, Modifier, Note, Precision, PresenceFlags,
    PropertyFlags, SeAnim, SeBlend, StrayCounts, Trailer,
};
use proptest::prelude::*;

use super::component;

pub fn any_anim_type() -> impl Strategy<Value = AnimType> {
    prop_oneof![
        Just(AnimType::Absolute),
        Just(AnimType::Additive),
        Just(AnimType::Relative),
        Just(AnimType::Delta)
    ]
}

pub fn vec3_keys(present: bool, max_frame: u32, p: Precision) -> BoxedStrategy<Vec<Key<Vec3<f64>>>> {
    if !present {
        return Just(Vec::new()).boxed();
    }
    let key = (0..=max_frame, component(p), component(p), component(p))
        .prop_map(|(f, x, y, z)| Key::new(f, Vec3::new(x, y, z)));
    prop::collection::vec(key, 0..4).boxed()
}

pub fn quat_keys(present: bool, max_frame: u32, p: Precision) -> BoxedStrategy<Vec<Key<Quat<f64>>>> {
    if !present {
        return Just(Vec::new()).boxed();
    }
    let key = (0..=max_frame, component(p), component(p), component(p), component(p))
        .prop_map(|(f, x, y, z, w)| Key::new(f, Quat::new(x, y, z, w)));
    prop::collection::vec(key, 0..4).boxed()
}

/// The keys at the file's precision, as reading the file holds them (f64 keys when some
/// value is not an f32).
pub fn held<V: KeyValue>(keys: Vec<Key<V>>, p: Precision) -> Keys<V> {
    let keys = Keys::Double(keys);
    keys.to_precision(p).unwrap_or(keys)
}

pub fn name() -> impl Strategy<Value = String> {
    "[^\0]{0,6}"
}

pub fn bone(presence: PresenceFlags, max_frame: u32, p: Precision) -> impl Strategy<Value = Bone> {
    (
        name(),
        prop_oneof![Just(0u8), Just(1u8), any::<u8>()],
        vec3_keys(presence.contains(PresenceFlags::LOC), max_frame, p),
        quat_keys(presence.contains(PresenceFlags::ROT), max_frame, p),
        vec3_keys(presence.contains(PresenceFlags::SCALE), max_frame, p),
    )
        .prop_map(move |(name, flags, location, rotation, scale)| Bone {
            name,
            flags,
            location: held(location, p),
            rotation: held(rotation, p),
            scale: held(scale, p),
        })
}

pub fn trailer() -> impl Strategy<Value = Trailer<SeBlend>> {
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
pub fn seanim() -> impl Strategy<Value = SeAnim> {
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
                any::<f32>().prop_filter("not NaN", |f| !f.is_nan()),
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
