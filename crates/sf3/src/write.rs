//! The canonical writer: the key arrays in one fixed order, every offset and alignment computed.

use std::io::Write;

use animbin_core::{Error, ErrorKind, Result};

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
    let size = encoded_size(file);
    let mut out = Vec::with_capacity(size.unwrap_or(0));
    encode(file, &mut out, 0, |_| Ok(()))?;
    debug_assert_eq!(Some(out.len()), size, "the size computed before encoding");
    Ok(out)
}

/// Encodes `file` in the canonical layout into `writer` (see [`to_bytes`]); the writer
/// need not seek. The file goes out one segment at a time, with no copy of the whole file in
/// memory; a file the writer would refuse is refused before anything is written.
pub fn write(file: &Sf3File, mut writer: impl Write) -> Result<()> {
    if encoded_size(file).is_none() {
        // Encoding fails somewhere: the in-memory writer says where, and nothing is written.
        return to_bytes(file).and_then(|bytes| write_out(&mut writer, &bytes, 0));
    }
    let mut out = Vec::new();
    let mut written = 0u64;
    encode(file, &mut out, 0, |out: &mut Vec<u8>| {
        write_out(&mut writer, out, written)?;
        written += out.len() as u64;
        out.clear();
        Ok(())
    })?;
    write_out(&mut writer, &out, written)
}

fn write_out(writer: &mut impl Write, bytes: &[u8], at: u64) -> Result<()> {
    writer
        .write_all(bytes)
        .map_err(|e| Error::new(FORMAT, at, ErrorKind::Io(e)))
}

/// Encodes `file` at the end of `out`, calling `flush` after each segment (which may take
/// the bytes away); `base` is the output offset of `out`'s first byte, for error offsets.
fn encode(
    file: &Sf3File,
    out: &mut Vec<u8>,
    base: u64,
    mut flush: impl FnMut(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    if file.segments.is_empty() {
        return Err(unencodable(
            0,
            "a file with no segment (an x8an file needs at least one)".into(),
        ));
    }
    let mut base = base;
    for (index, segment) in file.segments.iter().enumerate() {
        padding(out, base, segment.padding_words, || {
            format!("segment {index} padding_words")
        })?;
        write_segment(out, base, index, segment)?;
        let len = out.len() as u64;
        flush(out)?;
        base += len - out.len() as u64;
    }
    padding(out, base, file.padding_words, || {
        "padding_words after the last segment".into()
    })?;
    if let Ending::EndMarker { trailing } = &file.ending {
        out.extend_from_slice(&END_MARKER.to_be_bytes());
        out.extend_from_slice(trailing);
    }
    Ok(())
}

fn unencodable(offset: u64, what: String) -> Error {
    Error::new(FORMAT, offset, ErrorKind::Unencodable(what))
}

/// The size of the canonical encoding of one slot's arrays.
fn slot_data_size(slot: &Slot) -> u64 {
    let [t, r, s] = [slot.translation.len(), slot.rotation.len(), slot.scale.len()].map(|n| n as u64);
    (2 * (t + r + s)).next_multiple_of(4) + 12 * t + 8 * r + 12 * s
}

/// The exact size of the canonical encoding of `file`, or `None` when encoding it fails
/// (no segment, a padding run or a key count out of range, a segment past 4 GiB).
fn encoded_size(file: &Sf3File) -> Option<usize> {
    let key_count = |n: usize| u32::try_from(n).is_ok_and(|c| c != END_MARKER);
    let mut total = 0u64;
    if file.segments.is_empty() || file.padding_words > MAX_PADDING_WORDS {
        return None;
    }
    for segment in &file.segments {
        if segment.padding_words > MAX_PADDING_WORDS {
            return None;
        }
        let mut data = 4u64;
        for slot in &segment.slots {
            if ![slot.translation.len(), slot.rotation.len(), slot.scale.len()]
                .into_iter()
                .all(key_count)
            {
                return None;
            }
            data += slot_data_size(slot);
        }
        // Every offset is relative to the segment and at most its data section's size.
        u32::try_from(data).ok()?;
        total += 4 * u64::from(segment.padding_words) + data + (SLOT_ENTRY_SIZE * segment.slots.len() + 4) as u64;
    }
    total += 4 * u64::from(file.padding_words);
    if let Ending::EndMarker { trailing } = &file.ending {
        total += 4 + trailing.len() as u64;
    }
    usize::try_from(total).ok()
}

fn padding(out: &mut Vec<u8>, base: u64, words: u32, field: impl Fn() -> String) -> Result<()> {
    if words > MAX_PADDING_WORDS {
        return Err(unencodable(
            base + out.len() as u64,
            format!("{} {words} (at most {MAX_PADDING_WORDS} zero words in a row)", field()),
        ));
    }
    out.resize(out.len() + 4 * words as usize, 0);
    Ok(())
}

/// Writes segment `segment_index` at the end of `out`.
fn write_segment(out: &mut Vec<u8>, base: u64, segment_index: usize, segment: &Segment) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut entries = Vec::with_capacity(segment.slots.len());
    for (index, slot) in segment.slots.iter().enumerate() {
        let place = || format!("segment {segment_index} slot {index}");
        entries.push(write_slot_data(out, base, start, &place, slot)?);
    }
    let header = SegmentHeader {
        slot_table_offset: relative(out, base, start, || {
            format!("segment {segment_index} slot_table_offset")
        })?,
    };
    out[start..start + 4].copy_from_slice(&header.slot_table_offset.to_be_bytes());
    out.reserve(SLOT_ENTRY_SIZE * entries.len() + 4);
    for entry in &entries {
        let keys = [entry.translation_keys, entry.rotation_keys, entry.scale_keys];
        for word in keys.into_iter().chain(entry.offsets()) {
            out.extend_from_slice(&word.to_be_bytes());
        }
    }
    out.extend_from_slice(&END_MARKER.to_be_bytes());
    Ok(())
}

/// The current position relative to the segment start, as a u32 offset for `field`.
fn relative(out: &[u8], base: u64, start: usize, field: impl Fn() -> String) -> Result<u32> {
    u32::try_from(out.len() - start).map_err(|_| {
        unencodable(
            base + out.len() as u64,
            format!("{} {:#x} does not fit in a u32", field(), out.len() - start),
        )
    })
}

/// Writes one slot's arrays in the canonical order and returns its table entry; `place`
/// names the slot in errors (`segment 0 slot 3`).
fn write_slot_data(
    out: &mut Vec<u8>,
    base: u64,
    start: usize,
    place: &dyn Fn() -> String,
    slot: &Slot,
) -> Result<SlotEntry> {
    let count = |n: usize, what: &str| -> Result<u32> {
        match u32::try_from(n) {
            Ok(c) if c != END_MARKER => Ok(c),
            _ => Err(unencodable(
                base + out.len() as u64,
                format!("{} {what}_keys {n} (a u32 other than 0xFFFFFFFF)", place()),
            )),
        }
    };
    let keys = [
        count(slot.translation.len(), "translation")?,
        count(slot.rotation.len(), "rotation")?,
        count(slot.scale.len(), "scale")?,
    ];
    out.reserve(slot_data_size(slot) as usize);
    let mut offsets = [0u32; 13];
    let mut field = 0;
    let mut mark = |out: &Vec<u8>| -> Result<()> {
        let name = ArrayKind::ALL[field].name();
        offsets[field] = relative(out, base, start, || format!("{} {name} offset", place()))?;
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
