//! How values look in AnimJ: [`JsonShape`] writes and reads each element type through serde
//! (numbers, `{x,y,z,w}` objects, `{r,g,b,a}` colours, matrices as arrays of rows, strings or
//! null), with [`FloatText`] saying how the floats JSON numbers cannot hold are written.

use std::fmt;
use std::marker::PhantomData;

use animbin_core::float;
use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Vec2, Vec3, Vec4};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value as Json;

use crate::json::{At, Key, Member, Scalar, scalar, unwrap_value};

/// How a float that JSON numbers cannot hold (NaN, an infinity) is written as JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FloatText {
    /// AnimJ's form, as Json.NET writes it by default: `"NaN"`, `"Infinity"`, `"-Infinity"`.
    /// Every NaN is `"NaN"`: its sign and payload are lost.
    #[default]
    JsonNet,
    /// The animbin dump's form ([`animbin_core::float`]): the same strings, and any NaN but
    /// the canonical quiet one as `"nan:0x"` and its bits, so every bit is kept.
    Exact,
}

/// How a value looks in AnimJ (numbers, `{x,y,z,w}`, `{r,g,b,a}`, arrays of rows), written
/// and read through serde, so that AnimJ and the dump stream.
pub(crate) trait JsonShape: Sized {
    /// Writes the value, floats that JSON numbers cannot hold as `floats` says.
    fn write<S: Serializer>(&self, floats: FloatText, serializer: S) -> Result<S::Ok, S::Error>;

    /// Reads a value at `at`; with `wrapped`, a Raw keyframe's `{"time", "value"}` object too.
    fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error>;

    /// The value as a JSON value.
    fn to_json(&self, floats: FloatText) -> Json {
        self.write(floats, serde_json::value::Serializer).unwrap_or(Json::Null)
    }

    /// The value from a JSON value; the error says what was expected and found.
    fn from_json(json: &Json) -> Result<Self, String> {
        Self::read(json, &At::Value, false).map_err(|e| e.to_string())
    }
}

/// A value and how its floats are written, as serde serialises it.
pub(crate) struct Shaped<'a, T>(pub(crate) &'a T, pub(crate) FloatText);

impl<T: JsonShape> Serialize for Shaped<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.write(self.1, serializer)
    }
}

/// Reads a `T` at `at` as a seed.
pub(crate) struct ShapeSeed<'a, T> {
    at: &'a At<'a>,
    wrapped: bool,
    shape: PhantomData<T>,
}

impl<'a, T> ShapeSeed<'a, T> {
    pub(crate) fn new(at: &'a At<'a>, wrapped: bool) -> Self {
        Self {
            at,
            wrapped,
            shape: PhantomData,
        }
    }
}

impl<'de, T: JsonShape> DeserializeSeed<'de> for ShapeSeed<'_, T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::read(deserializer, self.at, self.wrapped)
    }
}

macro_rules! json_int {
    ($($t:ty),*) => {$(
        impl JsonShape for $t {
            fn write<S: Serializer>(&self, _: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
                self.serialize(serializer)
            }
            fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
                const EXPECTED: &str = concat!("an integer in the range of ", stringify!($t));
                let value = scalar(deserializer, at, EXPECTED, wrapped)?;
                let n = match value {
                    Scalar::U64(n) => <$t>::try_from(n).ok(),
                    Scalar::I64(n) => <$t>::try_from(n).ok(),
                    _ => None,
                };
                n.ok_or_else(|| at.error(EXPECTED, value))
            }
        }
    )*};
}
json_int!(u8, u16, u32, u64, i8, i16, i32, i64);

/// JSON numbers cannot hold NaN or the infinities; AnimJ writes them as the strings that
/// Json.NET uses by default ("NaN", "Infinity", "-Infinity"), the dump as
/// [`animbin_core::float`] says. Both are read.
fn write_special<S: Serializer>(
    value: f64,
    exact: Option<String>,
    floats: FloatText,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match floats {
        FloatText::Exact => serializer.serialize_str(&exact.unwrap_or_default()),
        FloatText::JsonNet if value.is_nan() => serializer.serialize_str("NaN"),
        FloatText::JsonNet if value > 0.0 => serializer.serialize_str("Infinity"),
        FloatText::JsonNet => serializer.serialize_str("-Infinity"),
    }
}

impl JsonShape for f32 {
    fn write<S: Serializer>(&self, floats: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
        // Widened to f64 and written as f64 text (what AnimJ and the dump have always held):
        // it reads back as this f32.
        if self.is_finite() {
            serializer.serialize_f64(f64::from(*self))
        } else {
            write_special(f64::from(*self), float::text_f32(*self), floats, serializer)
        }
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
        let value = scalar(deserializer, at, "a number", wrapped)?;
        match &value {
            Scalar::U64(n) => Ok(*n as f32),
            Scalar::I64(n) => Ok(*n as f32),
            Scalar::F64(x) => Ok(*x as f32),
            Scalar::Str(s) => float::parse_f32(s).ok_or_else(|| at.error("a number", &value)),
            _ => Err(at.error("a number", value)),
        }
    }
}

impl JsonShape for f64 {
    fn write<S: Serializer>(&self, floats: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_finite() {
            serializer.serialize_f64(*self)
        } else {
            write_special(*self, float::text_f64(*self), floats, serializer)
        }
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
        let value = scalar(deserializer, at, "a number", wrapped)?;
        match &value {
            Scalar::U64(n) => Ok(*n as f64),
            Scalar::I64(n) => Ok(*n as f64),
            Scalar::F64(x) => Ok(*x),
            Scalar::Str(s) => float::parse_f64(s).ok_or_else(|| at.error("a number", &value)),
            _ => Err(at.error("a number", value)),
        }
    }
}

impl JsonShape for bool {
    fn write<S: Serializer>(&self, _: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(*self)
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
        match scalar(deserializer, at, "a boolean", wrapped)? {
            Scalar::Bool(b) => Ok(b),
            // Numbers 0 and 1 as well, as some hand-written AnimJ files use them.
            Scalar::U64(0) => Ok(false),
            Scalar::U64(1) => Ok(true),
            other => Err(at.error("a boolean", other)),
        }
    }
}

/// `string`: a string, or null for no value.
impl JsonShape for Option<String> {
    fn write<S: Serializer>(&self, _: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            None => serializer.serialize_unit(),
            Some(s) => serializer.serialize_str(s),
        }
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
        match scalar(deserializer, at, "a string or null", wrapped)? {
            Scalar::Null => Ok(None),
            Scalar::Str(s) => Ok(Some(s.into_owned())),
            other => Err(at.error("a string or null", other)),
        }
    }
}

/// What a value that is not the container a shape needs was, for messages.
fn found_scalar(value: Scalar<'_>) -> String {
    value.to_string()
}

macro_rules! reject_scalars {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Err(self.fail(found_scalar(Scalar::Bool(v))))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Err(self.fail(found_scalar(Scalar::I64(v))))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Err(self.fail(found_scalar(Scalar::U64(v))))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Err(self.fail(found_scalar(Scalar::F64(v))))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Err(self.fail(found_scalar(Scalar::Str(v.into()))))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self.fail("null".into()))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self.fail("null".into()))
        }
    };
}

/// Reads an object whose members are `names` (in any order; others are ignored), or with
/// `wrapped` a Raw keyframe `{"time", "value"}` holding one.
struct ObjectSeed<'a, T, const N: usize> {
    at: &'a At<'a>,
    wrapped: bool,
    names: &'static [&'static str; N],
    shape: PhantomData<T>,
}

impl<T, const N: usize> ObjectSeed<'_, T, N> {
    fn fail<E: de::Error>(&self, found: String) -> E {
        self.at
            .error(format_args!("an object with members {:?}", self.names), found)
    }
}

impl<'de, T: JsonShape, const N: usize> DeserializeSeed<'de> for ObjectSeed<'_, T, N> {
    type Value = [T; N];
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<[T; N], D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: JsonShape, const N: usize> Visitor<'de> for ObjectSeed<'_, T, N> {
    type Value = [T; N];
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with members {:?}", self.names)
    }
    reject_scalars!();
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.fail("an array".into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut slots: [Option<T>; N] = std::array::from_fn(|_| None);
        let mut unwrapped = None;
        while let Some(key) = map.next_key_seed(Member(self.names))? {
            match key {
                Key::Named(k) => {
                    let at = self.at.member(self.names[k]);
                    slots[k] = Some(map.next_value_seed(ShapeSeed::<T>::new(&at, false))?);
                }
                Key::Value if self.wrapped => {
                    let inner = ObjectSeed::<T, N> { wrapped: false, ..self };
                    unwrapped = Some(map.next_value_seed(inner)?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if let Some(value) = unwrapped {
            return Ok(value);
        }
        if let Some(k) = slots.iter().position(Option::is_none) {
            return Err(self.fail(format!("one without {:?}", self.names[k])));
        }
        Ok(slots.map(|slot| slot.expect("every member was checked")))
    }
}

impl<T, const N: usize> Clone for ObjectSeed<'_, T, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const N: usize> Copy for ObjectSeed<'_, T, N> {}

macro_rules! json_struct {
    ($ty:ident [$($field:ident),+]) => {
        impl<T: JsonShape> JsonShape for $ty<T> {
            fn write<S: Serializer>(&self, floats: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
                // Members in name order, as a JSON map of them has always been written.
                let mut map = serializer.serialize_map(Some([$(stringify!($field)),+].len()))?;
                $(map.serialize_entry(stringify!($field), &Shaped(&self.$field, floats))?;)+
                map.end()
            }
            fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
                const NAMES: &[&str; [$(stringify!($field)),+].len()] = &[$(stringify!($field)),+];
                let seed = ObjectSeed::<T, { NAMES.len() }> { at, wrapped, names: NAMES, shape: PhantomData };
                let [$($field),+] = seed.deserialize(deserializer)?;
                Ok(Self { $($field),+ })
            }
        }
    };
}
json_struct!(Vec2[x, y]);
json_struct!(Vec3[x, y, z]);
json_struct!(Vec4[w, x, y, z]);
json_struct!(Quat[w, x, y, z]);
json_struct!(Rgba[a, b, g, r]);

/// Reads an array of `N` rows of `N` values (a matrix), or with `wrapped` a Raw keyframe
/// `{"time", "value"}` holding one.
struct RowsSeed<'a, T, const N: usize> {
    at: &'a At<'a>,
    wrapped: bool,
    shape: PhantomData<T>,
}

impl<T, const N: usize> RowsSeed<'_, T, N> {
    fn fail<E: de::Error>(&self, found: String) -> E {
        self.at
            .error(format_args!("an array of {N} rows of {N} numbers"), found)
    }
}

impl<'de, T: JsonShape + Default + Copy, const N: usize> DeserializeSeed<'de> for RowsSeed<'_, T, N> {
    type Value = [[T; N]; N];
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: JsonShape + Default + Copy, const N: usize> Visitor<'de> for RowsSeed<'_, T, N> {
    type Value = [[T; N]; N];
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of {N} rows of {N} numbers")
    }
    reject_scalars!();
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        if !self.wrapped {
            return Err(self.fail("an object".into()));
        }
        let inner = RowsSeed::<T, N> {
            at: self.at,
            wrapped: false,
            shape: PhantomData,
        };
        unwrap_value(map, self.at, format_args!("an array of {N} rows of {N} numbers"), inner)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = [[T::default(); N]; N];
        for (r, row) in out.iter_mut().enumerate() {
            let at = self.at.index(r);
            let seed = RowSeed::<T, N> { at: &at, out: row };
            if seq.next_element_seed(seed)?.is_none() {
                return Err(self.fail(format!("an array of {r} rows")));
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(self.fail("an array of more rows".into()));
        }
        Ok(out)
    }
}

/// One row of a matrix, read into `out`.
struct RowSeed<'a, 'o, T, const N: usize> {
    at: &'a At<'a>,
    out: &'o mut [T; N],
}

impl<T, const N: usize> RowSeed<'_, '_, T, N> {
    fn fail<E: de::Error>(&self, found: String) -> E {
        self.at.error(format_args!("a row of {N} numbers"), found)
    }
}

impl<'de, T: JsonShape, const N: usize> DeserializeSeed<'de> for RowSeed<'_, '_, T, N> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: JsonShape, const N: usize> Visitor<'de> for RowSeed<'_, '_, T, N> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a row of {N} numbers")
    }
    reject_scalars!();
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.fail("an object".into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for c in 0..N {
            let at = self.at.index(c);
            match seq.next_element_seed(ShapeSeed::<T>::new(&at, false))? {
                Some(value) => self.out[c] = value,
                None => return Err(self.fail(format!("a row of {c}"))),
            }
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(self.fail("a longer row".into()));
        }
        Ok(())
    }
}

macro_rules! json_matrix {
    ($($ty:ident = $n:literal),*) => {$(
        impl<T: JsonShape + Default + Copy> JsonShape for $ty<T> {
            fn write<S: Serializer>(&self, floats: FloatText, serializer: S) -> Result<S::Ok, S::Error> {
                let mut rows = serializer.serialize_seq(Some($n))?;
                for row in &self.rows {
                    rows.serialize_element(&Row(row, floats))?;
                }
                rows.end()
            }
            fn read<'de, D: Deserializer<'de>>(deserializer: D, at: &At<'_>, wrapped: bool) -> Result<Self, D::Error> {
                let seed = RowsSeed::<T, $n> { at, wrapped, shape: PhantomData };
                Ok(Self { rows: seed.deserialize(deserializer)? })
            }
        }
    )*};
}
json_matrix!(Mat2 = 2, Mat3 = 3, Mat4 = 4);

/// One row of a matrix, as serde serialises it.
struct Row<'a, T, const N: usize>(&'a [T; N], FloatText);

impl<T: JsonShape, const N: usize> Serialize for Row<'_, T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut row = serializer.serialize_seq(Some(N))?;
        for cell in self.0 {
            row.serialize_element(&Shaped(cell, self.1))?;
        }
        row.end()
    }
}
