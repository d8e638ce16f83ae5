//! Writers proven from the model side: a random `SeAnim` (any flags, reserved bits and bytes,
//! names, keys at any frame with any float bits, modifiers, notes, custom and trailing
//! bytes, SEBlend shapes) is either refused by the writer with an `Unencodable` error
//! naming what it cannot encode, or written to bytes that read back to the same model, bit
//! for bit (compared through the dump's exact JSON form), and rewrite to the same bytes;
//! through Cast and back (`animbin::se_cast`) they are the same bytes too.
#![no_main]

use animbin_core::{Quat, Vec3};
use animbin_fuzz::{exact, list, name};
use animbin_seanim::{
    AnimFlags, AnimType, BlendKey, BlendShape, Bone, FrameWidthRule, Key, KeyValue, Keys, Modifier, Note, Precision,
    PresenceFlags, PropertyFlags, SeAnim, SeBlend, StrayCounts, Trailer, read, to_bytes, widen,
};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// A frame: mostly small, sometimes at the `frame_t` boundaries, sometimes anything.
fn frame(u: &mut Unstructured) -> Result<u32> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => *u.choose(&[255, 256, 65535, 65536, u32::MAX - 1, u32::MAX])?,
        1 => u.arbitrary()?,
        _ => u32::from(u.arbitrary::<u8>()?),
    })
}

/// A key value component: any `f32` bits widened (what a single-precision file holds), or
/// any `f64` bits under high precision.
fn component(u: &mut Unstructured, double: bool) -> Result<f64> {
    Ok(if double {
        f64::from_bits(u.arbitrary()?)
    } else {
        widen(f32::from_bits(u.arbitrary()?))
    })
}

/// Up to four keys, held at the file's precision as reading the file holds them (f32 values
/// for a single-precision file: each component is an f32 widened).
fn keys<V: KeyValue>(
    u: &mut Unstructured,
    double: bool,
    mut value: impl FnMut(&mut Unstructured) -> Result<V>,
) -> Result<Keys<V>> {
    let keys = Keys::Double(list(u, 4, |u| Ok(Key::new(frame(u)?, value(u)?)))?);
    let precision = if double { Precision::Double } else { Precision::Single };
    Ok(keys.to_precision(precision).unwrap_or(keys))
}

fn vec3(u: &mut Unstructured, double: bool) -> Result<Vec3<f64>> {
    Ok(Vec3::new(
        component(u, double)?,
        component(u, double)?,
        component(u, double)?,
    ))
}

fn quat(u: &mut Unstructured, double: bool) -> Result<Quat<f64>> {
    Ok(Quat::new(
        component(u, double)?,
        component(u, double)?,
        component(u, double)?,
        component(u, double)?,
    ))
}

fn anim(u: &mut Unstructured) -> Result<SeAnim> {
    let presence = PresenceFlags::from_bits_retain(u.arbitrary()?);
    let property = PropertyFlags::from_bits_retain(u.arbitrary()?);
    let double = property.contains(PropertyFlags::PRECISION_HIGH);
    // Keys mostly only in the channels whose flag is set, so that most models write.
    let wants = |u: &mut Unstructured, flag| -> Result<bool> { Ok(presence.contains(flag) || u.ratio(1, 16)?) };
    let bone_count = if presence.has_bones() || u.ratio(1, 16)? {
        u.int_in_range(0..=4usize)?
    } else {
        0
    };
    let mut bones = Vec::with_capacity(bone_count);
    for _ in 0..bone_count {
        let mut bone = Bone::new(name(u)?);
        bone.flags = if u.ratio(1, 8)? { u.arbitrary()? } else { 0 };
        if wants(u, PresenceFlags::LOC)? {
            bone.location = keys(u, double, |u| vec3(u, double))?;
        }
        if wants(u, PresenceFlags::ROT)? {
            bone.rotation = keys(u, double, |u| quat(u, double))?;
        }
        if wants(u, PresenceFlags::SCALE)? {
            bone.scale = keys(u, double, |u| vec3(u, double))?;
        }
        bones.push(bone);
    }
    let modifiers = if presence.has_bones() || u.ratio(1, 16)? {
        list(u, 3, |u| {
            Ok(Modifier {
                bone: if u.ratio(1, 8)? {
                    u.arbitrary()?
                } else {
                    u.int_in_range(0..=4)?
                },
                anim_type: AnimType::from_repr(u.int_in_range(0..=3)?).unwrap_or_default(),
            })
        })?
    } else {
        Vec::new()
    };
    let notes = if wants(u, PresenceFlags::NOTE)? {
        list(u, 3, |u| {
            Ok(Note {
                frame: frame(u)?,
                name: name(u)?,
            })
        })?
    } else {
        Vec::new()
    };
    let custom = if wants(u, PresenceFlags::CUSTOM)? {
        u.arbitrary()?
    } else {
        Vec::new()
    };
    let trailer = match u.int_in_range(0..=3u8)? {
        0 => Trailer::SeBlend(SeBlend {
            shapes: list(u, 2, |u| {
                let keys = list(u, 2, |u| {
                    Ok(BlendKey {
                        frame: u.arbitrary()?,
                        value: [0; 3].map(|_| f32::from_bits(u.arbitrary().unwrap_or(0))),
                    })
                })?;
                Ok(BlendShape { name: name(u)?, keys })
            })?,
        }),
        // Unknown bytes that cannot start an SEBlend trailer.
        1 => Trailer::Unknown(animbin_fuzz::unknown_trailer(u)?),
        _ => Trailer::None,
    };
    let stray_counts = if u.ratio(1, 8)? {
        StrayCounts {
            bone_count: u.arbitrary()?,
            bone_anim_modifier_count: u.arbitrary()?,
            note_count: u.arbitrary()?,
        }
    } else {
        StrayCounts::default()
    };
    Ok(SeAnim {
        anim_type: AnimType::from_repr(u.int_in_range(0..=3)?).unwrap_or_default(),
        anim_flags: AnimFlags::from_bits_retain(u.arbitrary()?),
        data_presence_flags: presence,
        data_property_flags: property,
        reserved1: u.arbitrary()?,
        framerate: f32::from_bits(u.arbitrary()?),
        reserved2: u.arbitrary()?,
        header_extra: if u.ratio(1, 8)? { u.arbitrary()? } else { Vec::new() },
        // The writer ignores the rule that read a file: any value writes the current rule.
        frame_width_rule: if u.ratio(1, 4)? {
            FrameWidthRule::Legacy
        } else {
            FrameWidthRule::Current
        },
        stray_counts,
        bones,
        modifiers,
        notes,
        custom,
        trailer,
        fixed_frame_count: if u.ratio(1, 8)? { Some(frame(u)?) } else { None },
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((anim, bytes, back)) = animbin_fuzz::written_and_read(data, anim, to_bytes, read) else {
        return;
    };
    // Again, and into Cast and back, field by field: the same bytes.
    animbin_fuzz::assert_rewrites_through_cast(&back, &bytes);
    // What reading gives back by design: the current rule, and no fixed frameCount where it
    // is the derived one. Trailing bytes after a file at frameCount 256 or 65536 may also
    // make it read under the old rule (the fallback cannot tell); the bytes agree above.
    let mut expected = SeAnim {
        frame_width_rule: FrameWidthRule::Current,
        ..anim
    };
    if expected.fixed_frame_count.is_some() && back.fixed_frame_count.is_none() {
        assert_eq!(expected.frame_count().ok(), back.frame_count().ok());
        expected.fixed_frame_count = None;
    }
    if back.frame_width_rule == FrameWidthRule::Legacy {
        assert!(matches!(expected.trailer, Trailer::Unknown(_)));
        return;
    }
    assert_eq!(exact(&back), exact(&expected), "the model read back differs");
});
