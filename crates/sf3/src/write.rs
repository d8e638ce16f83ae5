//! The canonical writer: the key arrays in one fixed order, every offset and alignment computed.

use std::io::{Cursor, Write};

use binrw::BinWrite;

use animbin_core::{Endian, Error, ErrorKind, Result};

use crate::FORMAT;
use crate::layout::{ArrayKind, END_MARKER, SLOT_ENTRY_SIZE, SegmentHeader, SlotEntry};
use crate::model::{Ending, MAX_PADDING_WORDS, Segment, Sf3File, Slot};

/// Encodes `file` in the canonical layout.
///
/// Inside each segment the key data starts at offset 4, slot after slot, each slot as
/// t-times, r-times, s-times (u16, packed), zero padding to 4, tx, ty, tz (i32), rx, ry, rz,
/// rw (i16), sx, sy, sz (i32); the slot table follows at the next offset, then the
/// terminator. Refuses a file with no segment, more than [`MAX_PADDING_WORDS`] padding words
/// in a run, or a segment whose offsets do not fit in a u32; the error names the segment
/// (and slot) and gives the offset in the output.
pub fn to_bytes(file: &Sf3File) -> Result<Vec<u8>> {
    if file.segments.is_empty() {
        return Err(unencodable(
            0,
            "a file with no segment (an x8an file needs at least one)".into(),
        ));
    }
    let mut out = Vec::with_capacity(encoded_size_hint(file));
    for (index, segment) in file.segments.iter().enumerate() {
        padding(&mut out, segment.padding_words, || {
            format!("segment {index} padding_words")
        })?;
        write_segment(&mut out, index, segment)?;
    }
    padding(&mut out, file.padding_words, || {
        "padding_words after the last segment".into()
    })?;
    if let Ending::EndMarker { trailing } = &file.ending {
        out.extend_from_slice(&END_MARKER.to_be_bytes());
        out.extend_from_slice(trailing);
    }
    Ok(out)
}

/// Encodes `file` in the canonical layout into `writer` (see [`to_bytes`]); the writer
/// need not seek.
pub fn write(file: &Sf3File, mut writer: impl Write) -> Result<()> {
    let bytes = to_bytes(file)?;
    writer
        .write_all(&bytes)
        .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Io(e)))
}

fn unencodable(offset: usize, what: String) -> Error {
    Error::new(FORMAT, offset as u64, ErrorKind::Unencodable(what))
}

fn encoded_size_hint(file: &Sf3File) -> usize {
    file.segments
        .iter()
        .flat_map(|s| &s.slots)
        .map(|s| 64 + 4 + 14 * s.translation.len() + 10 * s.rotation.len() + 14 * s.scale.len())
        .fold(0usize, usize::saturating_add)
}

fn padding(out: &mut Vec<u8>, words: u32, field: impl Fn() -> String) -> Result<()> {
    if words > MAX_PADDING_WORDS {
        return Err(unencodable(
            out.len(),
            format!("{} {words} (at most {MAX_PADDING_WORDS} zero words in a row)", field()),
        ));
    }
    out.resize(out.len() + 4 * words as usize, 0);
    Ok(())
}

/// Writes segment `segment_index` at the end of `out`.
fn write_segment(out: &mut Vec<u8>, segment_index: usize, segment: &Segment) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut entries = Vec::with_capacity(segment.slots.len());
    for (index, slot) in segment.slots.iter().enumerate() {
        let place = format!("segment {segment_index} slot {index}");
        entries.push(write_slot_data(out, start, &place, slot)?);
    }
    let header = SegmentHeader {
        slot_table_offset: relative(out, start, &format!("segment {segment_index} slot_table_offset"))?,
    };
    let header = animbin_core::io::write_to_vec(FORMAT, &header, Endian::Big)?;
    out[start..start + 4].copy_from_slice(&header);
    let mut record = [0u8; SLOT_ENTRY_SIZE];
    for entry in &entries {
        entry
            .write_options(&mut Cursor::new(&mut record[..]), Endian::Big, ())
            .map_err(|e| Error::from_binrw(FORMAT, e, out.len() as u64))?;
        out.extend_from_slice(&record);
    }
    out.extend_from_slice(&END_MARKER.to_be_bytes());
    Ok(())
}

/// The current position relative to the segment start, as a u32 offset for `field`.
fn relative(out: &[u8], start: usize, field: &str) -> Result<u32> {
    u32::try_from(out.len() - start).map_err(|_| {
        unencodable(
            out.len(),
            format!("{field} {:#x} does not fit in a u32", out.len() - start),
        )
    })
}

/// Writes one slot's arrays in the canonical order and returns its table entry; `place`
/// names the slot in errors (`segment 0 slot 3`).
fn write_slot_data(out: &mut Vec<u8>, start: usize, place: &str, slot: &Slot) -> Result<SlotEntry> {
    let count = |n: usize, what: &str| -> Result<u32> {
        match u32::try_from(n) {
            Ok(c) if c != END_MARKER => Ok(c),
            _ => Err(unencodable(
                out.len(),
                format!("{place} {what}_keys {n} (a u32 other than 0xFFFFFFFF)"),
            )),
        }
    };
    let keys = [
        count(slot.translation.len(), "translation")?,
        count(slot.rotation.len(), "rotation")?,
        count(slot.scale.len(), "scale")?,
    ];
    let mut offsets = [0u32; 13];
    let mut field = 0;
    let mut mark = |out: &Vec<u8>| -> Result<()> {
        let name = ArrayKind::ALL[field].name();
        offsets[field] = relative(out, start, &format!("{place} {name} offset"))?;
        field += 1;
        Ok(())
    };
    mark(out)?;
    out.extend(slot.translation.iter().flat_map(|k| k.time.to_be_bytes()));
    mark(out)?;
    out.extend(slot.rotation.iter().flat_map(|k| k.time.to_be_bytes()));
    mark(out)?;
    out.extend(slot.scale.iter().flat_map(|k| k.time.to_be_bytes()));
    align4(out, start);
    for axis in 0..3 {
        mark(out)?;
        out.extend(slot.translation.iter().flat_map(|k| {
            let v = k.value;
            [v.x, v.y, v.z][axis].0.to_be_bytes()
        }));
    }
    for axis in 0..4 {
        mark(out)?;
        out.extend(slot.rotation.iter().flat_map(|k| {
            let q = k.value;
            [q.x, q.y, q.z, q.w][axis].0.to_be_bytes()
        }));
    }
    // Four i16 arrays of one length always end 4-aligned; kept for clarity.
    align4(out, start);
    for axis in 0..3 {
        mark(out)?;
        out.extend(slot.scale.iter().flat_map(|k| {
            let v = k.value;
            [v.x, v.y, v.z][axis].0.to_be_bytes()
        }));
    }
    Ok(SlotEntry::new(keys, offsets))
}

fn align4(out: &mut Vec<u8>, start: usize) {
    let rel = out.len() - start;
    out.resize(out.len() + (4 - rel % 4) % 4, 0);
}
