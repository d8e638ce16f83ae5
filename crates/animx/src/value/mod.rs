//! The 40 value types of AnimX (the wiki's "ElementTypesTable") and a typed column of values.
//!
//! Each value type has one Rust element type; a track's values live in one [`Values`] column
//! (a `Vec` of that element type), so fixed-size values are read and written in bulk: one bounds
//! check and one copy ([`animbin_core::io::read_pod_vec`]).
//!
//! The table of types and the [`Values`] column are here; how one element is encoded is in
//! `element` ([`Element`], one impl per Rust element type), how it looks in AnimJ in `shape`
//! (its JSON shape and [`FloatText`]), and the keyframe and tangent runs that interleave
//! times or pairs with the values in `run`.

use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::ErrorKind;
use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Rgba8, Vec2, Vec3, Vec4};
use binrw::BinResult;
use serde::de::Deserializer;
use serde::ser::Serializer;
use serde_json::Value as Json;

use crate::json::At;

mod element;
mod run;
mod shape;

pub use element::Element;
pub use shape::FloatText;
pub(crate) use shape::{JsonShape, ShapeSeed, Shaped};

use run::{read_keyed, read_pairs, write_keyed, write_pairs};

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

#[cfg(test)]
mod tests {
    use super::element::PackedBools;
    use super::*;

    #[test]
    fn keyed_runs_longer_than_a_read_chunk_read_back_in_both_orders() {
        // 1000 keyframes of 16 bytes: the chunked copy takes two passes and a partial third.
        let times: Vec<f32> = (0..1000).map(|k| k as f32 * 0.25).collect();
        let values = Values::Float3((0..1000).map(|k| Vec3::new(k as f32, -(k as f32), 0.5)).collect());
        for time_first in [false, true] {
            let mut bytes = std::io::Cursor::new(Vec::new());
            values.write_keyed(&mut bytes, &times, time_first).unwrap();
            let bytes = bytes.into_inner();
            assert_eq!(bytes.len(), 16_000);
            let mut reader = std::io::Cursor::new(&bytes[..]);
            let (read_times, read_values) =
                Values::read_keyed(&mut reader, ValueType::Float3, 1000, time_first).unwrap();
            assert_eq!((read_times, read_values), (times.clone(), values.clone()));
            assert_eq!(reader.position(), 16_000);
        }
    }

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
