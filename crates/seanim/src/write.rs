//! The writer: [`write()`] and [`to_bytes`], and what the binrw layout cannot say about an
//! error by itself (which header field, which named item).

use std::io::{Seek, Write};

use animbin_core::seblend::Trailer;
use animbin_core::{Error, ErrorKind, Result};
use binrw::io::NoSeek;
use binrw::{BinWrite, Endian};

use crate::FORMAT;
use crate::layout::{HeaderFieldError, SeAnim, offsets};

/// Writes `anim` to `writer`, deriving every count and width; see [`SeAnim`] for what it
/// refuses.
///
/// The writer only moves forward, so any [`Write`] will do (wrap a file in a
/// `std::io::BufWriter`). Errors name the byte offset in the output and the field or item
/// that cannot be encoded; what was written before the error stays written.
pub fn write(anim: &SeAnim, writer: impl Write) -> Result<()> {
    encode(anim, &mut NoSeek::new(writer))
}

/// Encodes `anim` as the bytes of an SEAnim file.
pub fn to_bytes(anim: &SeAnim) -> Result<Vec<u8>> {
    let mut out = std::io::Cursor::new(Vec::with_capacity(size_hint(anim)));
    encode(anim, &mut out)?;
    Ok(out.into_inner())
}

fn encode<W: Write + Seek>(anim: &SeAnim, writer: &mut W) -> Result<()> {
    let start = writer
        .stream_position()
        .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Io(e)))?;
    check_bone_names(anim).map_err(|mut e| {
        e.offset += start;
        e
    })?;
    anim.write_options(writer, Endian::Little, ())
        .map_err(|e| match header_field_error(&e) {
            Some((at, message)) => Error::new(FORMAT, at, ErrorKind::Unencodable(message)),
            None => {
                let at = writer.stream_position().unwrap_or(0);
                Error::from_binrw(FORMAT, e, at)
            }
        })
}

/// Refuses a bone name with a NUL in it, naming the bone, at the name's offset (the names
/// follow the header; binrw's string writer could only say "a string").
fn check_bone_names(anim: &SeAnim) -> Result<()> {
    if !anim.data_presence_flags.has_bones() {
        return Ok(());
    }
    let mut at = offsets::HEADER_END + anim.header_extra.len() as u64;
    for (i, bone) in anim.bones.iter().enumerate() {
        if bone.name.contains('\0') {
            return Err(Error::new(
                FORMAT,
                at,
                ErrorKind::Unencodable(format!("bone {i} name: contains a NUL byte")),
            ));
        }
        at += bone.name.len() as u64 + 1;
    }
    Ok(())
}

/// The offset and message of a [`HeaderFieldError`] inside a binrw error.
fn header_field_error(err: &binrw::Error) -> Option<(u64, String)> {
    match err {
        binrw::Error::Backtrace(bt) => header_field_error(&bt.error),
        binrw::Error::Custom { pos, err } => err
            .downcast_ref::<HeaderFieldError>()
            .map(|e| (pos + e.offset, e.message.clone())),
        _ => None,
    }
}

/// About how many bytes the file takes (at least as many as the writer produces); a
/// capacity hint for [`to_bytes`].
fn size_hint(anim: &SeAnim) -> usize {
    let frame = anim.written_frame_width().map_or(4, |w| w.size() as usize);
    let bone = anim.bone_width().map_or(4, |w| w.size() as usize);
    let value = anim.precision().size() as usize;
    let bones: usize = anim
        .bones
        .iter()
        .map(|b| {
            let runs = b.location.len() + b.scale.len();
            b.name.len() + 2 + 3 * frame + runs * (frame + 3 * value) + b.rotation.len() * (frame + 4 * value)
        })
        .sum();
    let notes: usize = anim.notes.iter().map(|n| frame + n.name.len() + 1).sum();
    let trailer = match &anim.trailer {
        Trailer::None => 0,
        Trailer::Unknown(bytes) => bytes.len(),
        Trailer::SeBlend(blend) => {
            16 + blend
                .shapes
                .iter()
                .map(|s| s.name.len() + 5 + 16 * s.keys.len())
                .sum::<usize>()
        }
    };
    offsets::HEADER_END as usize
        + anim.header_extra.len()
        + bones
        + anim.modifiers.len() * (bone + 1)
        + notes
        + 4
        + anim.custom.len()
        + trailer
}
