//! The 40 value types of AnimX (the wiki's "ElementTypesTable") and a typed column of values.
//!
//! Each value type has one Rust element type; a track's values live in one [`Values`] column
//! (a `Vec` of that element type), so fixed-size values are read and written in bulk: one bounds
//! check and one copy ([`animbin_core::io::read_pod_vec`]).

use std::fmt;
use std::io::{Read, Seek, Write};
use std::marker::PhantomData;

use animbin_core::io::{check_count, read_pod_vec, write_pod_slice};
use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Rgba8, Vec2, Vec3, Vec4};
use animbin_core::strings::{read_dotnet_string, write_dotnet_string};
use animbin_core::{ErrorKind, float};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value as Json;

use crate::json::{At, Key, Member, Scalar, scalar, unwrap_value};

/// One element of a value column: how it is read, written and shown in AnimJ.
pub trait Element: Sized + Clone + PartialEq + fmt::Debug {
    /// The smallest encoded size in bytes (the exact size for every type but `string`).
    const MIN_SIZE: u64;

    /// Whether every value has the size [`Element::MIN_SIZE`] (all types but `string`).
    const FIXED: bool = true;

    /// Reads one value.
    fn read_one<R: Read + Seek>(reader: &mut R) -> BinResult<Self>;

    /// Writes one value.
    fn write_one<W: Write + Seek>(&self, writer: &mut W) -> BinResult<()>;

    /// One value from exactly its encoded bytes, for plain data on a little-endian machine
    /// (a field copy); `None` where [`Element::read_one`] must decode.
    fn from_le_bytes(_bytes: &[u8]) -> Option<Self> {
        None
    }

    /// Reads `count` consecutive values, refusing a count the bytes left cannot hold first.
    fn read_run<R: Read + Seek>(reader: &mut R, count: u32, what: &str) -> BinResult<Vec<Self>> {
        let count = check_count(reader, what, u64::from(count), Self::MIN_SIZE)?;
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            out.push(Self::read_one(reader)?);
        }
        Ok(out)
    }

    /// Writes consecutive values.
    fn write_run<W: Write + Seek>(values: &[Self], writer: &mut W) -> BinResult<()> {
        values.iter().try_for_each(|v| v.write_one(writer))
    }

    /// The value as AnimJ shows it.
    fn to_json(&self) -> Json;

    /// The value as AnimJ shows it, with floats JSON numbers cannot hold written as `floats`
    /// says (for every type without floats, the same as [`Element::to_json`]).
    fn to_json_with(&self, floats: FloatText) -> Json {
        let _ = floats;
        self.to_json()
    }

    /// The value from its AnimJ form; the error says what was expected.
    fn from_json(json: &Json) -> Result<Self, String>;
}

/// Fixed-size plain data: bulk reads and writes with one copy.
macro_rules! pod_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const MIN_SIZE: u64 = size_of::<$t>() as u64;
            fn read_one<R: Read + Seek>(reader: &mut R) -> BinResult<Self> {
                <$t>::read_options(reader, Endian::Little, ())
            }
            fn write_one<W: Write + Seek>(&self, writer: &mut W) -> BinResult<()> {
                self.write_options(writer, Endian::Little, ())
            }
            fn from_le_bytes(bytes: &[u8]) -> Option<Self> {
                if cfg!(target_endian = "little") {
                    zerocopy::FromBytes::read_from_bytes(bytes).ok()
                } else {
                    None
                }
            }
            fn read_run<R: Read + Seek>(reader: &mut R, count: u32, what: &str) -> BinResult<Vec<Self>> {
                read_pod_vec(reader, Endian::Little, u64::from(count), what)
            }
            fn write_run<W: Write + Seek>(values: &[Self], writer: &mut W) -> BinResult<()> {
                write_pod_slice(writer, Endian::Little, values)
            }
            fn to_json(&self) -> Json {
                JsonShape::to_json(self, FloatText::JsonNet)
            }
            fn to_json_with(&self, floats: FloatText) -> Json {
                JsonShape::to_json(self, floats)
            }
            fn from_json(json: &Json) -> Result<Self, String> {
                JsonShape::from_json(json)
            }
        }
    )*};
}

pod_element!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);
pod_element!(
    Vec2<i32>,
    Vec3<i32>,
    Vec4<i32>,
    Vec2<u32>,
    Vec3<u32>,
    Vec4<u32>,
    Vec2<i64>,
    Vec3<i64>,
    Vec4<i64>
);
pod_element!(
    Vec2<f32>,
    Vec3<f32>,
    Vec4<f32>,
    Quat<f32>,
    Mat2<f32>,
    Mat3<f32>,
    Mat4<f32>
);
pod_element!(
    Vec2<f64>,
    Vec3<f64>,
    Vec4<f64>,
    Quat<f64>,
    Mat2<f64>,
    Mat3<f64>,
    Mat4<f64>
);
pod_element!(Rgba<f32>, Rgba8);

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

/// `bool`: one byte; any non-zero byte reads as true (as .NET's `ReadBoolean` does), true writes 1.
impl Element for bool {
    const MIN_SIZE: u64 = 1;
    fn read_one<R: Read + Seek>(reader: &mut R) -> BinResult<Self> {
        Ok(u8::read_options(reader, Endian::Little, ())? != 0)
    }
    fn write_one<W: Write + Seek>(&self, writer: &mut W) -> BinResult<()> {
        u8::from(*self).write_options(writer, Endian::Little, ())
    }
    fn read_run<R: Read + Seek>(reader: &mut R, count: u32, what: &str) -> BinResult<Vec<Self>> {
        let bytes: Vec<u8> = read_pod_vec(reader, Endian::Little, u64::from(count), what)?;
        Ok(bytes.into_iter().map(|b| b != 0).collect())
    }
    fn to_json(&self) -> Json {
        JsonShape::to_json(self, FloatText::JsonNet)
    }
    fn from_json(json: &Json) -> Result<Self, String> {
        JsonShape::from_json(json)
    }
}

/// bool2/bool3/bool4: one byte, x in bit 0, y in bit 1, z in bit 2, w in bit 3; the other
/// bits are ignored on reading and written as 0.
macro_rules! packed_bools {
    ($($ty:ident [$($field:ident = $bit:literal),+]),*) => {$(
        impl Element for $ty<bool> {
            const MIN_SIZE: u64 = 1;
            fn read_one<R: Read + Seek>(reader: &mut R) -> BinResult<Self> {
                let byte = u8::read_options(reader, Endian::Little, ())?;
                Ok(Self::unpack(byte))
            }
            fn write_one<W: Write + Seek>(&self, writer: &mut W) -> BinResult<()> {
                self.pack().write_options(writer, Endian::Little, ())
            }
            fn read_run<R: Read + Seek>(reader: &mut R, count: u32, what: &str) -> BinResult<Vec<Self>> {
                let bytes: Vec<u8> = read_pod_vec(reader, Endian::Little, u64::from(count), what)?;
                Ok(bytes.into_iter().map(Self::unpack).collect())
            }
            fn to_json(&self) -> Json {
                JsonShape::to_json(self, FloatText::JsonNet)
            }
            fn from_json(json: &Json) -> Result<Self, String> {
                JsonShape::from_json(json)
            }
        }

        impl PackedBools for $ty<bool> {
            fn unpack(byte: u8) -> Self {
                Self { $($field: byte & (1 << $bit) != 0),+ }
            }
            fn pack(&self) -> u8 {
                0 $(| (u8::from(self.$field) << $bit))+
            }
        }
    )*};
}

/// The bit packing of bool2, bool3 and bool4.
pub trait PackedBools {
    /// The vector from its byte (unused bits ignored).
    fn unpack(byte: u8) -> Self;
    /// The byte of the vector (unused bits 0).
    fn pack(&self) -> u8;
}

packed_bools!(Vec2[x = 0, y = 1], Vec3[x = 0, y = 1, z = 2], Vec4[x = 0, y = 1, z = 2, w = 3]);

/// `string`: a `u8` hasValue (0 = null, 1 = present) and, when 1, a .NET string.
impl Element for Option<String> {
    const MIN_SIZE: u64 = 1;
    const FIXED: bool = false;
    fn read_one<R: Read + Seek>(reader: &mut R) -> BinResult<Self> {
        let pos = reader.stream_position()?;
        match u8::read_options(reader, Endian::Little, ())? {
            0 => Ok(None),
            1 => read_dotnet_string(reader).map(Some),
            other => Err(ErrorKind::invalid("a string's hasValue byte 0 or 1", format!("{other:#04x}")).at(pos)),
        }
    }
    fn write_one<W: Write + Seek>(&self, writer: &mut W) -> BinResult<()> {
        match self {
            None => 0u8.write_options(writer, Endian::Little, ()),
            Some(s) => {
                1u8.write_options(writer, Endian::Little, ())?;
                write_dotnet_string(writer, s)
            }
        }
    }
    fn to_json(&self) -> Json {
        JsonShape::to_json(self, FloatText::JsonNet)
    }
    fn from_json(json: &Json) -> Result<Self, String> {
        JsonShape::from_json(json)
    }
}

/// Declares [`ValueType`] and [`Values`] from one table: variant, id, AnimJ name, element type.
macro_rules! value_types {
    ($($(#[$doc:meta])* $variant:ident = $id:literal, $name:literal, $ty:ty;)*) => {
        /// A value type id (the wiki's ElementTypesTable: bool 0 ... string 39).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum ValueType {
            $($(#[$doc])* $variant = $id,)*
        }

        /// The values of one track (or its tangents), one `Vec` of the value type's element type.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Values {
            $($(#[$doc])* $variant(Vec<$ty>),)*
        }

        impl ValueType {
            /// Every value type in id order.
            pub const ALL: [ValueType; 40] = [$(ValueType::$variant),*];

            /// The type with id `id`, if there is one.
            pub fn from_id(id: u8) -> Option<Self> {
                match id {
                    $($id => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// The name AnimJ uses (`"float3"`, `"floatQ"`, `"color32"`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)*
                }
            }

            /// The type AnimJ calls `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $($name => Some(Self::$variant),)*
                    _ => None,
                }
            }

            /// The encoded size of one value, or `None` for `string` (variable).
            pub fn fixed_size(self) -> Option<usize> {
                match self {
                    $(Self::$variant => <$ty as Element>::FIXED.then_some(<$ty as Element>::MIN_SIZE as usize),)*
                }
            }

            /// An empty column of this type.
            pub fn empty_values(self) -> Values {
                match self {
                    $(Self::$variant => Values::$variant(Vec::new()),)*
                }
            }
        }

        impl Values {
            /// The value type of the column.
            pub fn value_type(&self) -> ValueType {
                match self {
                    $(Self::$variant(_) => ValueType::$variant,)*
                }
            }

            /// The number of values.
            pub fn len(&self) -> usize {
                match self {
                    $(Self::$variant(v) => v.len(),)*
                }
            }

            /// Whether there are no values.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// Reads `count` consecutive values of `value_type` (a Raw track's run).
            pub fn read_run<R: Read + Seek>(
                reader: &mut R,
                value_type: ValueType,
                count: u32,
            ) -> BinResult<Self> {
                Ok(match value_type {
                    $(ValueType::$variant => Self::$variant(<$ty>::read_run(reader, count, concat!($name, " value"))?),)*
                })
            }

            /// Writes the values one after another.
            pub fn write_run<W: Write + Seek>(&self, writer: &mut W) -> BinResult<()> {
                match self {
                    $(Self::$variant(v) => <$ty>::write_run(v, writer),)*
                }
            }

            /// Reads `count` (time, value) or (value, time) pairs into times and values.
            pub(crate) fn read_keyed<R: Read + Seek>(
                reader: &mut R,
                value_type: ValueType,
                count: u32,
                time_first: bool,
            ) -> BinResult<(Vec<f32>, Self)> {
                Ok(match value_type {
                    $(ValueType::$variant => {
                        let (times, values) = read_keyed::<$ty, R>(reader, count, time_first)?;
                        (times, Self::$variant(values))
                    })*
                })
            }

            /// Writes (time, value) or (value, time) pairs; `times` has one entry per value.
            pub(crate) fn write_keyed<W: Write + Seek>(
                &self,
                writer: &mut W,
                times: &[f32],
                time_first: bool,
            ) -> BinResult<()> {
                match self {
                    $(Self::$variant(v) => write_keyed(writer, times, v, time_first),)*
                }
            }

            /// Reads `count` tangent pairs; returns (first of each pair, second of each pair).
            pub(crate) fn read_pairs<R: Read + Seek>(
                reader: &mut R,
                value_type: ValueType,
                count: u32,
            ) -> BinResult<(Self, Self)> {
                Ok(match value_type {
                    $(ValueType::$variant => {
                        let (a, b) = read_pairs::<$ty, R>(reader, count)?;
                        (Self::$variant(a), Self::$variant(b))
                    })*
                })
            }

            /// Writes pairs (self[i], second[i]); both columns have one type and length.
            pub(crate) fn write_pairs<W: Write + Seek>(&self, second: &Self, writer: &mut W) -> BinResult<()> {
                match (self, second) {
                    $((Self::$variant(a), Self::$variant(b)) => write_pairs(writer, a, b),)*
                    _ => Err(ErrorKind::Unencodable(format!(
                        "tangents of type {} beside values of type {}",
                        second.value_type().name(),
                        self.value_type().name()
                    )).at(writer.stream_position()?)),
                }
            }

            /// The value at `index` in AnimJ form.
            pub fn to_json(&self, index: usize) -> Option<Json> {
                self.to_json_with(index, FloatText::JsonNet)
            }

            /// The value at `index` in AnimJ form, floats JSON numbers cannot hold written
            /// as `floats` says.
            pub fn to_json_with(&self, index: usize, floats: FloatText) -> Option<Json> {
                match self {
                    $(Self::$variant(v) => v.get(index).map(|x| <$ty as Element>::to_json_with(x, floats)),)*
                }
            }

            /// Appends a value given in AnimJ form.
            pub fn push_json(&mut self, json: &Json) -> Result<(), String> {
                match self {
                    $(Self::$variant(v) => v.push(<$ty as Element>::from_json(json)?),)*
                }
                Ok(())
            }

            /// Writes the value at `index` in AnimJ form (`null` past the end).
            pub(crate) fn write_json<S: Serializer>(
                &self,
                index: usize,
                floats: FloatText,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                match self {
                    $(Self::$variant(v) => match v.get(index) {
                        Some(value) => JsonShape::write(value, floats, serializer),
                        None => serializer.serialize_unit(),
                    },)*
                }
            }

            /// Reads a value in AnimJ form at `at` and appends it; with `wrapped`, a Raw
            /// keyframe's `{"time", "value"}` object too.
            pub(crate) fn push_read<'de, D: Deserializer<'de>>(
                &mut self,
                deserializer: D,
                at: &At<'_>,
                wrapped: bool,
            ) -> Result<(), D::Error> {
                match self {
                    $(Self::$variant(v) => v.push(<$ty as JsonShape>::read(deserializer, at, wrapped)?),)*
                }
                Ok(())
            }
        }
    };
}

value_types! {
    /// `bool`: one byte.
    Bool = 0, "bool", bool;
    /// `bool2`: one byte, x bit 0, y bit 1.
    Bool2 = 1, "bool2", Vec2<bool>;
    /// `bool3`: one byte, x bit 0, y bit 1, z bit 2.
    Bool3 = 2, "bool3", Vec3<bool>;
    /// `bool4`: one byte, x bit 0, y bit 1, z bit 2, w bit 3.
    Bool4 = 3, "bool4", Vec4<bool>;
    /// `byte`: u8.
    Byte = 4, "byte", u8;
    /// `ushort`: u16.
    Ushort = 5, "ushort", u16;
    /// `uint`: u32.
    Uint = 6, "uint", u32;
    /// `ulong`: u64.
    Ulong = 7, "ulong", u64;
    /// `sbyte`: i8.
    Sbyte = 8, "sbyte", i8;
    /// `short`: i16.
    Short = 9, "short", i16;
    /// `int`: i32.
    Int = 10, "int", i32;
    /// `long`: i64.
    Long = 11, "long", i64;
    /// `int2`: 2 x i32.
    Int2 = 12, "int2", Vec2<i32>;
    /// `int3`: 3 x i32.
    Int3 = 13, "int3", Vec3<i32>;
    /// `int4`: 4 x i32.
    Int4 = 14, "int4", Vec4<i32>;
    /// `uint2`: 2 x u32.
    Uint2 = 15, "uint2", Vec2<u32>;
    /// `uint3`: 3 x u32.
    Uint3 = 16, "uint3", Vec3<u32>;
    /// `uint4`: 4 x u32.
    Uint4 = 17, "uint4", Vec4<u32>;
    /// `long2`: 2 x i64.
    Long2 = 18, "long2", Vec2<i64>;
    /// `long3`: 3 x i64.
    Long3 = 19, "long3", Vec3<i64>;
    /// `long4`: 4 x i64.
    Long4 = 20, "long4", Vec4<i64>;
    /// `float`: f32.
    Float = 21, "float", f32;
    /// `float2`: 2 x f32.
    Float2 = 22, "float2", Vec2<f32>;
    /// `float3`: 3 x f32.
    Float3 = 23, "float3", Vec3<f32>;
    /// `float4`: 4 x f32.
    Float4 = 24, "float4", Vec4<f32>;
    /// `floatQ`: quaternion x, y, z, w as f32.
    FloatQ = 25, "floatQ", Quat<f32>;
    /// `float2x2`: 4 x f32, row by row.
    Float2x2 = 26, "float2x2", Mat2<f32>;
    /// `float3x3`: 9 x f32, row by row.
    Float3x3 = 27, "float3x3", Mat3<f32>;
    /// `float4x4`: 16 x f32, row by row.
    Float4x4 = 28, "float4x4", Mat4<f32>;
    /// `double`: f64.
    Double = 29, "double", f64;
    /// `double2`: 2 x f64.
    Double2 = 30, "double2", Vec2<f64>;
    /// `double3`: 3 x f64.
    Double3 = 31, "double3", Vec3<f64>;
    /// `double4`: 4 x f64.
    Double4 = 32, "double4", Vec4<f64>;
    /// `doubleQ`: quaternion x, y, z, w as f64 (32 bytes; the wiki's "40" is a slip).
    DoubleQ = 33, "doubleQ", Quat<f64>;
    /// `double2x2`: 4 x f64, row by row.
    Double2x2 = 34, "double2x2", Mat2<f64>;
    /// `double3x3`: 9 x f64, row by row.
    Double3x3 = 35, "double3x3", Mat3<f64>;
    /// `double4x4`: 16 x f64, row by row.
    Double4x4 = 36, "double4x4", Mat4<f64>;
    /// `color`: 4 x f32, r, g, b, a.
    Color = 37, "color", Rgba<f32>;
    /// `color32`: 4 x u8, r, g, b, a.
    Color32 = 38, "color32", Rgba8;
    /// `string`: u8 hasValue, then a .NET string when 1 (null otherwise).
    String = 39, "string", Option<String>;
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The next four bytes of an in-memory run whose length was checked.
fn read4(records: &mut std::io::Cursor<&[u8]>) -> [u8; 4] {
    let at = records.position() as usize;
    let bytes: [u8; 4] = records.get_ref()[at..at + 4]
        .try_into()
        .expect("the run holds every record");
    records.set_position(at as u64 + 4);
    bytes
}

fn read_keyed<T: Element, R: Read + Seek>(
    reader: &mut R,
    count: u32,
    time_first: bool,
) -> BinResult<(Vec<f32>, Vec<T>)> {
    let count = check_count(reader, "keyframe", u64::from(count), 4 + T::MIN_SIZE)?;
    let mut times = Vec::with_capacity(count);
    let mut values = Vec::with_capacity(count);
    if T::FIXED {
        // One copy of the whole run, then each record decoded from memory: reading record
        // by record through the file's reader cost more than the decoding. A value that does
        // not decode is read again below, through the reader, for an error at its offset.
        let start = reader.stream_position()?;
        let mut block = vec![0u8; count * (4 + T::MIN_SIZE as usize)];
        reader.read_exact(&mut block)?;
        let size = T::MIN_SIZE as usize;
        // Plain data is copied field by field (the first record tells whether `T` is plain).
        if count == 0 || T::from_le_bytes(&block[..size]).is_some() {
            for record in block.chunks_exact(4 + size) {
                let (time, value) = if time_first {
                    (&record[..4], &record[4..])
                } else {
                    (&record[size..], &record[..size])
                };
                times.push(f32::from_le_bytes(time.try_into().expect("four bytes")));
                values.push(T::from_le_bytes(value).expect("a plain value of its size"));
            }
            return Ok((times, values));
        }
        let mut records = std::io::Cursor::new(&block[..]);
        let decoded: BinResult<()> = (0..count).try_for_each(|_| {
            if time_first {
                times.push(f32::from_le_bytes(read4(&mut records)));
                values.push(T::read_one(&mut records)?);
            } else {
                values.push(T::read_one(&mut records)?);
                times.push(f32::from_le_bytes(read4(&mut records)));
            }
            Ok(())
        });
        if decoded.is_ok() {
            return Ok((times, values));
        }
        reader.seek(std::io::SeekFrom::Start(start))?;
        times.clear();
        values.clear();
    }
    for _ in 0..count {
        if time_first {
            times.push(f32::read_options(reader, Endian::Little, ())?);
            values.push(T::read_one(reader)?);
        } else {
            values.push(T::read_one(reader)?);
            times.push(f32::read_options(reader, Endian::Little, ())?);
        }
    }
    Ok((times, values))
}

fn write_keyed<T: Element, W: Write + Seek>(
    writer: &mut W,
    times: &[f32],
    values: &[T],
    time_first: bool,
) -> BinResult<()> {
    if times.len() != values.len() {
        return Err(
            ErrorKind::Unencodable(format!("{} keyframe times for {} values", times.len(), values.len()))
                .at(writer.stream_position()?),
        );
    }
    for (time, value) in times.iter().zip(values) {
        if time_first {
            time.write_options(writer, Endian::Little, ())?;
            value.write_one(writer)?;
        } else {
            value.write_one(writer)?;
            time.write_options(writer, Endian::Little, ())?;
        }
    }
    Ok(())
}

fn read_pairs<T: Element, R: Read + Seek>(reader: &mut R, count: u32) -> BinResult<(Vec<T>, Vec<T>)> {
    let count = check_count(reader, "tangent pair", u64::from(count), 2 * T::MIN_SIZE)?;
    let mut first = Vec::with_capacity(count);
    let mut second = Vec::with_capacity(count);
    for _ in 0..count {
        first.push(T::read_one(reader)?);
        second.push(T::read_one(reader)?);
    }
    Ok((first, second))
}

fn write_pairs<T: Element, W: Write + Seek>(writer: &mut W, first: &[T], second: &[T]) -> BinResult<()> {
    if first.len() != second.len() {
        return Err(ErrorKind::Unencodable(format!(
            "{} left tangents for {} right tangents",
            second.len(),
            first.len()
        ))
        .at(writer.stream_position()?));
    }
    for (a, b) in first.iter().zip(second) {
        a.write_one(writer)?;
        b.write_one(writer)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_names_one_type_and_sizes_follow_formats_md() {
        for (id, ty) in ValueType::ALL.iter().enumerate() {
            assert_eq!(*ty as u8, id as u8);
            assert_eq!(ValueType::from_id(id as u8), Some(*ty));
            assert_eq!(ValueType::from_name(ty.name()), Some(*ty));
        }
        assert_eq!(ValueType::from_id(40), None);
        assert_eq!(ValueType::DoubleQ.fixed_size(), Some(32));
        assert_eq!(ValueType::Double4x4.fixed_size(), Some(128));
        assert_eq!(ValueType::Float3x3.fixed_size(), Some(36));
        assert_eq!(ValueType::Color32.fixed_size(), Some(4));
        assert_eq!(ValueType::Bool4.fixed_size(), Some(1));
        assert_eq!(ValueType::String.fixed_size(), None);
    }

    #[test]
    fn bool_vectors_pack_into_the_low_bits() {
        assert_eq!(Vec4::new(true, false, true, true).pack(), 0b1101);
        assert_eq!(Vec2::<bool>::unpack(0xFE), Vec2::new(false, true));
        assert_eq!(Vec3::new(true, true, true).pack(), 0b111);
    }
}
