//! How one value of each type is encoded in AnimX: the [`Element`] trait and its impls, plain
//! data copied in bulk, the bit-packed bool vectors ([`PackedBools`]) and `string`'s
//! hasValue byte and .NET string.

use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::ErrorKind;
use animbin_core::io::{check_count, read_pod_vec, write_pod_slice};
use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Rgba8, Vec2, Vec3, Vec4};
use animbin_core::strings::{read_dotnet_string, write_dotnet_string};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde_json::Value as Json;

use super::shape::{FloatText, JsonShape};

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
