//! Reading the JSON form of the model back (serde), where the file's precision decides what
//! a key value's number means.
//!
//! A channel is written at its own precision: an `f32` channel as `f32` texts (the shortest
//! that read back as the same `f32`, `"nan:0x"` and 8 hex digits), an `f64` channel as `f64`
//! texts. A channel does not say which it is, and the precision flag may come after the bones,
//! so every channel is read as `f64` values first ([`DumpedF64`] also takes an `f32`'s NaN
//! text, widened) and then, in a file without `SEANIM_PRECISION_HIGH`, turned into `f32`
//! values: a number into the `f32` whose text it is (an `f32` widened, as older dumps hold
//! them, into itself), a NaN only when an `f32` holds its payload. A finite number beyond
//! `f32`'s range, or such a NaN, is refused, naming its place in the file's JSON.

use std::fmt;

use animbin_core::float::{DumpScalar, f32_from_f64, parse_f32, parse_f64};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serializer};

use crate::keys::{Key, KeyValue, Keys, Precision, narrow, widen};
use crate::layout::{Channel, SeAnim};

/// A key component as a dump holds it: a number, or the text of any `f32` or `f64` NaN or
/// infinity (an `f32` NaN widened with its payload).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(transparent)]
pub struct DumpedF64(pub f64);

struct DumpedVisitor;

impl Visitor<'_> for DumpedVisitor {
    type Value = DumpedF64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key value: a number, \"NaN\", \"Infinity\", \"-Infinity\" or \"nan:0x\" and the bits in hex")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<DumpedF64, E> {
        Ok(DumpedF64(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<DumpedF64, E> {
        Ok(DumpedF64(v as f64))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<DumpedF64, E> {
        Ok(DumpedF64(v as f64))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<DumpedF64, E> {
        parse_f64(v)
            .or_else(|| parse_f32(v).map(widen))
            .map(DumpedF64)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

impl DumpScalar for DumpedF64 {
    fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_dump(serializer)
    }

    fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DumpedVisitor)
    }
}

/// A channel reads as `f64` values; [`SeAnim`] then holds them at the file's precision.
impl<'de, V: KeyValue> Deserialize<'de> for Keys<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let keys = Vec::<Key<V::Dumped>>::deserialize(deserializer)?;
        Ok(Self::Double(
            keys.into_iter()
                .map(|k| Key::new(k.frame, V::from_dumped(k.value)))
                .collect(),
        ))
    }
}

/// The `f32` a single-precision dump's component means; `None` for a finite value beyond
/// `f32`'s range or a NaN whose payload no `f32` holds.
fn dumped_single(x: f64) -> Option<f32> {
    if x.is_nan() {
        narrow(x).filter(|n| widen(*n).to_bits() == x.to_bits())
    } else {
        let y = f32_from_f64(x);
        (y.is_finite() || x.is_infinite()).then_some(y)
    }
}

/// Holds the channel's values as `f32`s, as the dump of a single-precision file means them.
fn to_single<V: KeyValue>(keys: &mut Keys<V>, bone: usize, channel: Channel) -> Result<(), String> {
    let Keys::Double(double) = keys else {
        return Ok(());
    };
    let mut single = Vec::with_capacity(double.len());
    for (index, key) in double.iter().enumerate() {
        let mut refused = None;
        let narrowed = key.value.narrow_with(|_, c| {
            let n = dumped_single(c);
            if n.is_none() {
                refused = refused.or(Some(c));
            }
            n
        });
        let value = narrowed.map_err(|axis| {
            let refused = refused.unwrap_or(f64::NAN);
            let what = if refused.is_nan() {
                format!("the NaN {:#018x} has a payload no f32 holds", refused.to_bits())
            } else {
                format!("{refused:e} is beyond f32's range")
            };
            format!(
                "bones[{bone}].{channel}[{index}].value.{}: {what}, and SEANIM_PRECISION_HIGH is clear \
                 (key values are f32)",
                ["x", "y", "z", "w"][axis]
            )
        })?;
        single.push(Key::new(key.frame, value));
    }
    *keys = Keys::Single(single);
    Ok(())
}

/// Holds every channel read from a dump at the file's precision.
pub(crate) fn to_file_precision(anim: &mut SeAnim) -> Result<(), String> {
    if anim.precision() == Precision::Double {
        return Ok(());
    }
    for (b, bone) in anim.bones.iter_mut().enumerate() {
        to_single(&mut bone.location, b, Channel::Location)?;
        to_single(&mut bone.rotation, b, Channel::Rotation)?;
        to_single(&mut bone.scale, b, Channel::Scale)?;
    }
    Ok(())
}
