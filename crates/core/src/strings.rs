//! The two string encodings in these formats: NUL-terminated UTF-8 (the SE formats) and
//! .NET `BinaryWriter` strings, a 7-bit varint byte length then UTF-8 (AnimX).

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::{Deserialize, Serialize};

use crate::error::ErrorKind;
use crate::io::check_count;

/// Reads a NUL-terminated UTF-8 string (the NUL is consumed, not returned).
pub fn read_cstring<R: Read + Seek>(reader: &mut R) -> BinResult<String> {
    let start = reader.stream_position()?;
    let mut bytes = Vec::new();
    let mut byte = [0u8];
    loop {
        if reader.read(&mut byte)? == 0 {
            return Err(ErrorKind::UnexpectedEof {
                expected: "a NUL-terminated string".into(),
            }
            .at(start));
        }
        if byte[0] == 0 {
            break;
        }
        bytes.push(byte[0]);
    }
    String::from_utf8(bytes).map_err(|e| ErrorKind::invalid("a UTF-8 string", e).at(start))
}

/// Writes `s` and a terminating NUL; a string with a NUL inside cannot be encoded.
pub fn write_cstring<W: Write + Seek>(writer: &mut W, s: &str) -> BinResult<()> {
    if s.contains('\0') {
        let pos = writer.stream_position()?;
        return Err(ErrorKind::Unencodable(format!("string {s:?} contains a NUL byte")).at(pos));
    }
    writer.write_all(s.as_bytes())?;
    writer.write_all(&[0])?;
    Ok(())
}

/// [`read_cstring`] as a binrw `parse_with` function for `String` fields:
/// `#[br(parse_with = read_cstring_field)]`.
pub fn read_cstring_field<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<String> {
    read_cstring(reader)
}

/// [`write_cstring`] as a binrw `write_with` function for `String` fields:
/// `#[bw(write_with = write_cstring_field)]`.
// binrw hands `write_with` functions a reference to the field's own type.
#[allow(clippy::ptr_arg)]
pub fn write_cstring_field<W: Write + Seek>(value: &String, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
    write_cstring(writer, value)
}

/// A NUL-terminated UTF-8 string as a binrw type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NulString(pub String);

impl BinRead for NulString {
    type Args<'a> = ();
    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<Self> {
        read_cstring(reader).map(NulString)
    }
}

impl BinWrite for NulString {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
        write_cstring(writer, &self.0)
    }
}

impl From<&str> for NulString {
    fn from(s: &str) -> Self {
        Self(s.to_string())
    }
}

impl From<String> for NulString {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl std::ops::Deref for NulString {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// Reads a .NET 7-bit encoded integer: at most 5 bytes, the fifth holding only 4 bits.
pub fn read_varint<R: Read + Seek>(reader: &mut R) -> BinResult<u32> {
    let start = reader.stream_position()?;
    let mut value = 0u32;
    for i in 0..5 {
        let byte = u8::read_options(reader, Endian::Little, ())?;
        if i == 4 && byte > 0x0F {
            return Err(ErrorKind::invalid(
                "a 7-bit encoded int of at most 5 bytes (32 bits)",
                format!("fifth byte {byte:#04x}"),
            )
            .at(start));
        }
        value |= u32::from(byte & 0x7F) << (7 * i);
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    unreachable!("the fifth byte either ends the varint or is refused above")
}

/// Writes a .NET 7-bit encoded integer.
pub fn write_varint<W: Write>(writer: &mut W, mut value: u32) -> BinResult<()> {
    let mut buf = [0u8; 5];
    let mut n = 0;
    while value >= 0x80 {
        buf[n] = (value as u8) | 0x80;
        value >>= 7;
        n += 1;
    }
    buf[n] = value as u8;
    writer.write_all(&buf[..=n])?;
    Ok(())
}

/// A .NET 7-bit encoded integer as a binrw type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VarInt(pub u32);

impl BinRead for VarInt {
    type Args<'a> = ();
    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<Self> {
        read_varint(reader).map(VarInt)
    }
}

impl BinWrite for VarInt {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
        write_varint(writer, self.0)
    }
}

/// Reads a .NET `BinaryWriter` string: varint byte length, then that many UTF-8 bytes.
pub fn read_dotnet_string<R: Read + Seek>(reader: &mut R) -> BinResult<String> {
    let start = reader.stream_position()?;
    let len = read_varint(reader)?;
    let len = check_count(reader, "string byte", u64::from(len), 1)?;
    let mut bytes = vec![0u8; len];
    reader.read_exact(&mut bytes)?;
    String::from_utf8(bytes).map_err(|e| ErrorKind::invalid("a UTF-8 string", e).at(start))
}

/// Writes a .NET `BinaryWriter` string.
pub fn write_dotnet_string<W: Write + Seek>(writer: &mut W, s: &str) -> BinResult<()> {
    let len = u32::try_from(s.len()).ok().filter(|&n| n <= i32::MAX as u32);
    let Some(len) = len else {
        let pos = writer.stream_position()?;
        return Err(
            ErrorKind::Unencodable(format!("a string of {} bytes is too long for a .NET string", s.len())).at(pos),
        );
    };
    write_varint(writer, len)?;
    writer.write_all(s.as_bytes())?;
    Ok(())
}

/// A .NET `BinaryWriter` string as a binrw type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DotNetString(pub String);

impl BinRead for DotNetString {
    type Args<'a> = ();
    fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<Self> {
        read_dotnet_string(reader).map(DotNetString)
    }
}

impl BinWrite for DotNetString {
    type Args<'a> = ();
    fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
        write_dotnet_string(writer, &self.0)
    }
}

impl std::ops::Deref for DotNetString {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// A fixed-size, NUL-padded name field (DMF's `char name[0x20]`), decoded up to the first NUL.
pub fn decode_padded_name(bytes: &[u8]) -> Result<&str, ErrorKind> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[..end]).map_err(|e| ErrorKind::invalid("a UTF-8 name", e))
}

/// Encodes `name` into a NUL-padded field of `N` bytes, keeping at least one NUL.
pub fn encode_padded_name<const N: usize>(name: &str) -> Result<[u8; N], ErrorKind> {
    if name.len() >= N || name.contains('\0') {
        return Err(ErrorKind::Unencodable(format!(
            "name {name:?} must be under {N} bytes with no NUL inside"
        )));
    }
    let mut out = [0u8; N];
    out[..name.len()].copy_from_slice(name.as_bytes());
    Ok(out)
}

/// Bytes as lowercase hex digits, two per byte, with no prefix.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// Bytes from a file as a message shows them: quoted text when they are printable ASCII
/// with no `"` in them (`"SEAnim"`), else hex after `0x` (`0x504b0304`), and `no bytes`
/// for none.
pub fn show_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "no bytes".into()
    } else if bytes.iter().all(|b| (0x20..0x7f).contains(b) && *b != b'"') {
        format!("\"{}\"", String::from_utf8_lossy(bytes))
    } else {
        format!("0x{}", hex(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use binrw::io::Cursor;

    #[test]
    fn varint_round_trips_at_every_length() {
        for (value, len) in [(0u32, 1), (0x7F, 1), (0x80, 2), (0x3FFF, 2), (0x4000, 3), (u32::MAX, 5)] {
            let mut out = Cursor::new(Vec::new());
            write_varint(&mut out, value).unwrap();
            assert_eq!(out.get_ref().len(), len, "{value:#x}");
            assert_eq!(read_varint(&mut Cursor::new(out.into_inner())).unwrap(), value);
        }
    }

    #[test]
    fn varint_longer_than_five_bytes_is_an_error() {
        assert!(read_varint(&mut Cursor::new([0x80, 0x80, 0x80, 0x80, 0x80, 0x01])).is_err());
        assert!(read_varint(&mut Cursor::new([0xFF, 0xFF, 0xFF, 0xFF, 0x10])).is_err());
    }

    #[test]
    fn dotnet_string_length_past_the_end_is_refused_before_allocating() {
        let err = read_dotnet_string(&mut Cursor::new([0xFF, 0xFF, 0xFF, 0xFF, 0x07, b'a'])).unwrap_err();
        assert!(err.to_string().contains("count"), "{err}");
        let mut out = Cursor::new(Vec::new());
        write_dotnet_string(&mut out, "test").unwrap();
        assert_eq!(out.get_ref(), b"\x04test");
    }

    #[test]
    fn cstring_needs_its_nul_and_utf8() {
        assert_eq!(read_cstring(&mut Cursor::new(b"bone\0x")).unwrap(), "bone");
        assert!(read_cstring(&mut Cursor::new(b"bone")).is_err());
        assert!(read_cstring(&mut Cursor::new(b"\xff\0")).is_err());
        assert!(write_cstring(&mut Cursor::new(Vec::new()), "a\0b").is_err());
    }

    #[test]
    fn padded_names_keep_a_nul() {
        assert_eq!(&encode_padded_name::<4>("abc").unwrap(), b"abc\0");
        assert!(encode_padded_name::<4>("abcd").is_err());
        assert_eq!(decode_padded_name(b"ab\0\0").unwrap(), "ab");
    }
}
