//! Floats in JSON: every `f32` and `f64` bit pattern, NaN and the infinities included.
//!
//! JSON numbers hold finite values only, so a dump that must give back a file's exact bytes
//! writes the others as strings:
//!
//! | value | JSON |
//! | --- | --- |
//! | finite (`-0.0` too) | a number: the shortest text that reads back as the same value |
//! | `+inf` / `-inf` | `"Infinity"` / `"-Infinity"` (the names Json.NET and JavaScript use) |
//! | the canonical quiet NaN (`f32` `0x7fc00000`, `f64` `0x7ff8000000000000`) | `"NaN"` |
//! | any other NaN (a payload, the sign bit, a signalling NaN) | `"nan:0x"` and its bits in hex, 8 digits for `f32`, 16 for `f64`: `"nan:0x7fc00001"` |
//!
//! Reading takes a number or one of those strings, and gives back the same bits.
//!
//! [`text_f32`] / [`parse_f32`] (and their `f64` twins) are the two directions for code that
//! builds JSON by hand; [`dump`] is the serde helper for fields
//! (`#[serde(with = "animbin_core::float::dump")]`) of any [`DumpScalar`]: `f32`, `f64`,
//! the other scalars of [`crate::math`] (written as serde writes them) and arrays of them.
//! The math types' own serde form uses it, so every model made of them dumps exactly.
//!
//! ```
//! use animbin_core::float::{parse_f32, text_f32};
//!
//! assert_eq!(text_f32(1.5), None); // a JSON number
//! assert_eq!(text_f32(f32::NAN).as_deref(), Some("NaN"));
//! assert_eq!(text_f32(f32::NEG_INFINITY).as_deref(), Some("-Infinity"));
//! let payload = f32::from_bits(0x7fc0_0001);
//! assert_eq!(text_f32(payload).as_deref(), Some("nan:0x7fc00001"));
//! assert_eq!(parse_f32("nan:0x7fc00001").map(f32::to_bits), Some(0x7fc0_0001));
//! ```

use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

/// The prefix of a NaN written by its bits.
const NAN_BITS: &str = "nan:0x";

/// The text of `v` when a JSON number cannot hold it, `None` for a finite value.
pub fn text_f32(v: f32) -> Option<String> {
    special(
        v.is_nan(),
        v.is_infinite(),
        v > 0.0,
        v.to_bits() == f32::NAN.to_bits(),
        || format!("{NAN_BITS}{:08x}", v.to_bits()),
    )
}

/// The text of `v` when a JSON number cannot hold it, `None` for a finite value.
pub fn text_f64(v: f64) -> Option<String> {
    special(
        v.is_nan(),
        v.is_infinite(),
        v > 0.0,
        v.to_bits() == f64::NAN.to_bits(),
        || format!("{NAN_BITS}{:016x}", v.to_bits()),
    )
}

fn special(
    nan: bool,
    infinite: bool,
    positive: bool,
    canonical: bool,
    bits: impl FnOnce() -> String,
) -> Option<String> {
    match (nan, infinite) {
        (true, _) if canonical => Some("NaN".into()),
        (true, _) => Some(bits()),
        (false, true) if positive => Some("Infinity".into()),
        (false, true) => Some("-Infinity".into()),
        (false, false) => None,
    }
}

/// The `f32` that `text` names ([`text_f32`]'s strings), or `None` for any other text.
///
/// A `"nan:0x"` string must have exactly 8 hex digits and be the bits of a NaN.
pub fn parse_f32(text: &str) -> Option<f32> {
    match text {
        "NaN" => Some(f32::NAN),
        "Infinity" => Some(f32::INFINITY),
        "-Infinity" => Some(f32::NEG_INFINITY),
        _ => nan_bits(text, 8)
            .and_then(|bits| u32::try_from(bits).ok())
            .map(f32::from_bits)
            .filter(|v| v.is_nan()),
    }
}

/// The `f64` that `text` names ([`text_f64`]'s strings), or `None` for any other text.
///
/// A `"nan:0x"` string must have exactly 16 hex digits and be the bits of a NaN.
pub fn parse_f64(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => nan_bits(text, 16).map(f64::from_bits).filter(|v| v.is_nan()),
    }
}

fn nan_bits(text: &str, digits: usize) -> Option<u64> {
    let hex = text.strip_prefix(NAN_BITS)?;
    if hex.len() != digits || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(hex, 16).ok()
}

/// `x` as an `f64`, exactly, NaN payloads kept bit for bit (and a signalling NaN's clear
/// quiet bit, which an `as` cast may set), so that narrowing by the bits gives `x` back.
#[inline]
pub fn widen_exact(x: f32) -> f64 {
    if x.is_nan() {
        let bits = u64::from(x.to_bits());
        let sign = (bits & 0x8000_0000) << 32;
        let payload = (bits & 0x007F_FFFF) << 29;
        f64::from_bits(sign | 0x7FF0_0000_0000_0000 | payload)
    } else {
        f64::from(x)
    }
}

/// The `f32` a JSON number means when a reader hands it over as an `f64` (`deserialize_any`,
/// a `serde_json::Value`).
///
/// The writer printed the `f32`'s shortest text, and the `f64` nearest that text may round
/// to a neighbour of the `f32` it meant (`0x15ae43fd`, written `7.038531e-26`, is one), so the
/// `f32` whose shortest text reads as `x` wins; a number no `f32` printed rounds to the
/// nearest.
pub fn f32_from_f64(x: f64) -> f32 {
    let nearest = x as f32;
    let n = f64::from(nearest);
    if !nearest.is_finite() || nearest == 0.0 || n == x {
        return nearest;
    }
    // The f32 next to `nearest` on x's side (sign and magnitude: +1 moves away from zero).
    let bits = nearest.to_bits();
    let other = f32::from_bits(if (x > n) == (n > 0.0) { bits + 1 } else { bits - 1 });
    // Only an x within a few f64 steps of the midpoint of the two can be a text meant for
    // `other`; every other x is plainly nearest's (and the text test below is costly).
    let midpoint = (n + f64::from(other)) / 2.0;
    let f64_step = f64::from_bits(x.abs().to_bits() + 1) - x.abs();
    if !other.is_finite() || (x - midpoint).abs() > 4.0 * f64_step {
        return nearest;
    }
    let reads_as_x = |v: f32| v.to_string().parse::<f64>() == Ok(x);
    if reads_as_x(nearest) || !reads_as_x(other) {
        nearest
    } else {
        other
    }
}

/// A value whose serde form the [`dump`] helper writes: floats as this module says, every
/// other scalar as serde writes it, arrays element by element.
pub trait DumpScalar: Sized {
    /// Writes the value.
    fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
    /// Reads the value.
    fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// The serde helper: `#[serde(with = "animbin_core::float::dump")]` on a field of any
/// [`DumpScalar`] type.
pub mod dump {
    use super::DumpScalar;
    use serde::{Deserializer, Serializer};

    /// Writes `value`, its floats in the module's form.
    pub fn serialize<T: DumpScalar, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        value.serialize_dump(serializer)
    }

    /// Reads a value, its floats as numbers or the module's strings.
    pub fn deserialize<'de, T: DumpScalar, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        T::deserialize_dump(deserializer)
    }
}

/// Reads a float from a number, an integer or one of the module's strings.
struct FloatVisitor<F> {
    parse: fn(&str) -> Option<F>,
    /// The float a number means; `None` for a finite number that the type cannot hold (a
    /// dump writes the infinities as strings, so a number that only becomes infinite in an
    /// f32 is a mistake, never what a file held).
    from_f64: fn(f64) -> Option<F>,
    what: &'static str,
}

impl<F> FloatVisitor<F> {
    fn number<E: de::Error>(&self, v: f64) -> Result<F, E> {
        (self.from_f64)(v).ok_or_else(|| E::custom(format_args!("{v:e} is beyond the range of {}", self.what)))
    }
}

impl<F> Visitor<'_> for FloatVisitor<F> {
    type Value = F;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: a number, \"NaN\", \"Infinity\", \"-Infinity\" or \"nan:0x\" and the bits in hex",
            self.what
        )
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<F, E> {
        self.number(v)
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<F, E> {
        // Exact in both targets: f32 -> f64 widens, and f32_from_f64 finds the f32 again.
        self.number(f64::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<F, E> {
        self.number(v as f64)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<F, E> {
        self.number(v as f64)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<F, E> {
        (self.parse)(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

impl DumpScalar for f32 {
    fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match text_f32(*self) {
            Some(text) => serializer.serialize_str(&text),
            None => serializer.serialize_f32(*self),
        }
    }

    fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FloatVisitor {
            parse: parse_f32,
            from_f64: |v| Some(f32_from_f64(v)).filter(|f| f.is_finite() || !v.is_finite()),
            what: "an f32",
        })
    }
}

impl DumpScalar for f64 {
    fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match text_f64(*self) {
            Some(text) => serializer.serialize_str(&text),
            None => serializer.serialize_f64(*self),
        }
    }

    fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FloatVisitor {
            parse: parse_f64,
            from_f64: Some,
            what: "an f64",
        })
    }
}

/// Scalars that serde writes exactly already.
macro_rules! plain_scalar {
    ($($t:ty),*) => {$(
        impl DumpScalar for $t {
            fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.serialize(serializer)
            }
            fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <$t>::deserialize(deserializer)
            }
        }
    )*};
}
plain_scalar!(
    bool,
    u8,
    u16,
    u32,
    u64,
    i8,
    i16,
    i32,
    i64,
    half::f16,
    crate::Fixed16,
    crate::Rot14
);

/// An element of an array, borrowed for writing or owned after reading.
struct Elem<T>(T);

impl<T: DumpScalar> Serialize for Elem<&T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_dump(serializer)
    }
}

impl<'de, T: DumpScalar> Deserialize<'de> for Elem<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize_dump(deserializer).map(Elem)
    }
}

/// Arrays as serde writes them (a tuple of `N` elements), each element in the dump form.
impl<T: DumpScalar, const N: usize> DumpScalar for [T; N] {
    fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(N)?;
        for item in self {
            tuple.serialize_element(&Elem(item))?;
        }
        tuple.end()
    }

    fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ArrayVisitor<T, const N: usize>(std::marker::PhantomData<T>);

        impl<'de, T: DumpScalar, const N: usize> Visitor<'de> for ArrayVisitor<T, N> {
            type Value = [T; N];

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of {N} numbers")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
                let mut items = Vec::with_capacity(N);
                while items.len() < N {
                    match seq.next_element::<Elem<T>>()? {
                        Some(Elem(item)) => items.push(item),
                        None => return Err(de::Error::invalid_length(items.len(), &self)),
                    }
                }
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(N + 1, &self));
                }
                items.try_into().map_err(|_| de::Error::invalid_length(N, &self))
            }
        }

        deserializer.deserialize_tuple(N, ArrayVisitor::<T, N>(std::marker::PhantomData))
    }
}

/// Lists of any length as serde writes them (a sequence), each element in the dump form.
impl<T: DumpScalar> DumpScalar for Vec<T> {
    fn serialize_dump<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(Elem))
    }

    fn deserialize_dump<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<Elem<T>>::deserialize(deserializer).map(|items| items.into_iter().map(|Elem(item)| item).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_every_float_bit_for_bit() {
        #[derive(Serialize, Deserialize)]
        struct List(#[serde(with = "dump")] Vec<f32>);
        let values = vec![1.5, f32::NAN, f32::from_bits(0x7fc0_0001), f32::NEG_INFINITY, -0.0];
        let text = serde_json::to_string(&List(values.clone())).unwrap();
        assert_eq!(text, r#"[1.5,"NaN","nan:0x7fc00001","-Infinity",-0.0]"#);
        let back: List = serde_json::from_str(&text).unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.0), bits(&values));
    }

    #[test]
    fn a_number_beyond_f32s_range_is_refused_not_made_infinite() {
        #[derive(Deserialize)]
        struct One(#[serde(with = "dump")] f32);
        for text in ["1e39", "-1e39", "3.5e38"] {
            let e = serde_json::from_str::<One>(text).err().expect(text);
            assert!(e.to_string().contains("is beyond the range of an f32"), "{text}: {e}");
        }
        // The largest f32, its text and the infinities' texts still read.
        assert_eq!(serde_json::from_str::<One>("3.4028235e38").unwrap().0, f32::MAX);
        assert_eq!(serde_json::from_str::<One>("\"Infinity\"").unwrap().0, f32::INFINITY);
        #[derive(Deserialize)]
        struct Wide(#[serde(with = "dump")] f64);
        assert_eq!(serde_json::from_str::<Wide>("1e39").unwrap().0, 1e39);
    }

    #[test]
    fn every_special_value_has_its_text_and_reads_back_bit_for_bit() {
        let f32s = [
            (f32::NAN.to_bits(), "NaN"),
            (f32::INFINITY.to_bits(), "Infinity"),
            (f32::NEG_INFINITY.to_bits(), "-Infinity"),
            (0x7fc0_0001, "nan:0x7fc00001"),
            (0xffc0_0000, "nan:0xffc00000"),
            (0x7f80_0001, "nan:0x7f800001"),
        ];
        for (bits, text) in f32s {
            assert_eq!(text_f32(f32::from_bits(bits)).as_deref(), Some(text));
            assert_eq!(parse_f32(text).map(f32::to_bits), Some(bits), "{text}");
        }
        let f64s = [
            (f64::NAN.to_bits(), "NaN"),
            (f64::INFINITY.to_bits(), "Infinity"),
            (0x7ff8_0000_2000_0000, "nan:0x7ff8000020000000"),
            (0xfff0_0000_0000_0001, "nan:0xfff0000000000001"),
        ];
        for (bits, text) in f64s {
            assert_eq!(text_f64(f64::from_bits(bits)).as_deref(), Some(text));
            assert_eq!(parse_f64(text).map(f64::to_bits), Some(bits), "{text}");
        }
        for finite in [0.0, -0.0, 1.5, f32::MAX, f32::MIN_POSITIVE] {
            assert_eq!(text_f32(finite), None);
        }
    }

    #[test]
    fn texts_that_are_not_a_nan_or_not_the_width_are_refused() {
        for bad in [
            "nan",
            "nan:0x7f800000",
            "nan:0x7fc0001",
            "nan:0x07fc00001",
            "nan:0x+fc00001",
            "inf",
            "1.0",
        ] {
            assert_eq!(parse_f32(bad).map(f32::to_bits), None, "{bad}");
        }
        assert_eq!(parse_f64("nan:0x7fc00001"), None);
    }

    #[test]
    fn an_f64_read_for_an_f32_finds_the_f32_its_shortest_text_meant() {
        let meant = f32::from_bits(0x15ae_43fd);
        let x: f64 = "7.038531e-26".parse().unwrap();
        assert_eq!(f32_from_f64(x).to_bits(), meant.to_bits());
        for bits in [0x3f80_0000u32, 0x0000_0001, 0x8000_0001, 0x7f7f_ffff, 0x15ae_43fd] {
            let v = f32::from_bits(bits);
            let x: f64 = v.to_string().parse().unwrap();
            assert_eq!(f32_from_f64(x).to_bits(), bits);
        }
        assert_eq!(f32_from_f64(-0.0).to_bits(), (-0.0f32).to_bits());
    }
}
