//! What may follow the last block: Greyhound's SEBlend blend-shape trailer ([`SeBlend`],
//! [`BlendShape`], [`BlendKey`]) when one parses exactly to the end of the file, otherwise
//! the bytes as they are, and the functions that read, write and classify it.

use std::io::{Read, Seek, Write};

use animbin_core::ErrorKind;
use animbin_core::io::{BoundedArgs, bounded_vec, read_whole};
use animbin_core::seblend::{SeBlendHeader, Trailer};
use animbin_core::strings::NulString;
use binrw::{BinRead, BinResult, BinWrite, Endian, binrw};
use serde::{Deserialize, Serialize};

/// Greyhound's unflagged blend-shape trailer, the body of [`Trailer::SeBlend`]: the SEBlend
/// header (`u64` magic `"SEBlend\n"`, `u64` shape count, the shape names), then each shape's
/// weight keys.
///
/// The per-key layout is not confirmed by any public writer; a trailer that does not parse
/// exactly to the end of the file is kept as [`Trailer::Unknown`] instead.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SeBlend {
    /// The magic, `u64 count` and `string_t name[count]`; each name moves into its shape. A
    /// shape takes at least its name's NUL and its `u32` key count.
    #[br(temp, args(5))]
    #[bw(calc = SeBlendHeader { names: shapes.iter().map(|s| NulString(s.name.clone())).collect() })]
    header: SeBlendHeader,

    /// Each shape with its keys.
    #[br(parse_with = read_shapes, args(&header.names))]
    pub shapes: Vec<BlendShape>,
}

/// One blend shape of an SEBlend trailer: its name and `u32 k; (u32 frame, f32 value[3])[k]`.
#[binrw]
#[brw(little)]
#[br(import(name: String))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BlendShape {
    /// The shape's name, from the trailer's name list.
    #[br(calc = name)]
    #[bw(ignore)]
    pub name: String,

    /// `u32 k`: the number of keys.
    #[br(temp)]
    #[bw(try_calc = u32::try_from(keys.len()))]
    key_count: u32,

    /// The keys.
    #[br(parse_with = bounded_vec, args_raw = BoundedArgs { count: u64::from(key_count), min_size: 16, what: "blend key", inner: () })]
    pub keys: Vec<BlendKey>,
}

/// One key of a blend shape.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct BlendKey {
    /// `u32 frame`.
    pub frame: u32,
    /// `f32 value[3]`.
    #[serde(with = "animbin_core::float::dump")]
    pub value: [f32; 3],
}

// ---------------------------------------------------------------------------------------
// The custom parse and write functions the derives above name.

fn read_shapes<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (names,): (&Vec<NulString>,),
) -> BinResult<Vec<BlendShape>> {
    let mut shapes = Vec::with_capacity(names.len());
    for name in names {
        shapes.push(BlendShape::read_options(reader, endian, (name.0.clone(),))?);
    }
    Ok(shapes)
}

/// Reads everything after the last block: an SEBlend trailer if one parses exactly to the
/// end, otherwise the bytes themselves.
pub(super) fn read_trailer<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<Trailer<SeBlend>> {
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest)?;
    Ok(parse_trailer(rest))
}

/// Writes the trailer back as it was read (or made).
pub(super) fn write_trailer<W: Write + Seek>(
    trailer: &Trailer<SeBlend>,
    writer: &mut W,
    endian: Endian,
    (): (),
) -> BinResult<()> {
    match trailer {
        Trailer::None => Ok(()),
        Trailer::SeBlend(blend) => {
            // The names follow the 8-byte magic and the u64 count.
            let mut at = writer.stream_position()? + 16;
            for (i, shape) in blend.shapes.iter().enumerate() {
                if shape.name.contains('\0') {
                    let message = format!("SEBlend shape {i} name: contains a NUL byte");
                    return Err(ErrorKind::Unencodable(message).at(at));
                }
                at += shape.name.len() as u64 + 1;
            }
            blend.write_options(writer, endian, ())
        }
        Trailer::Unknown(bytes) => Ok(writer.write_all(bytes)?),
    }
}

/// Classifies the bytes after the last block.
pub(crate) fn parse_trailer(rest: Vec<u8>) -> Trailer<SeBlend> {
    if rest.is_empty() {
        return Trailer::None;
    }
    match read_whole::<SeBlend>(&rest, Endian::Little, ()) {
        Some(blend) => Trailer::SeBlend(blend),
        None => Trailer::Unknown(rest),
    }
}
