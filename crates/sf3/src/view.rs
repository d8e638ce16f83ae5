//! Zero-copy views: every key array is a borrowed big-endian slice of the input, checked
//! once against the bounds of its segment.

use std::io::{Seek, SeekFrom};
use std::ops::Range;

use animbin_core::io::{SliceReader, first_overlap, read_from_slice, slice_at};
use animbin_core::{Endian, Error, ErrorKind, Fixed16, Quat, Result, Rot14, Vec3};
use binrw::BinRead;
use zerocopy::byteorder::big_endian::{I16, I32, U16};

use crate::FORMAT;
use crate::layout::{ArrayKind, Channel, END_MARKER, SLOT_ENTRY_SIZE, SegmentHeader, SlotEntry};
use crate::model::{Ending, Key, MAX_PADDING_WORDS, Segment, Sf3File, Slot};

/// One slot's entry and the 13 arrays it points at, borrowed from the input.
#[derive(Debug, Clone)]
pub struct SlotView<'a> {
    /// The slot table entry as stored.
    pub entry: SlotEntry,
    /// Translation key times.
    pub translation_times: &'a [U16],
    /// Rotation key times.
    pub rotation_times: &'a [U16],
    /// Scale key times.
    pub scale_times: &'a [U16],
    /// Translation x, y, z values (16.16).
    pub translation: [&'a [I32]; 3],
    /// Rotation x, y, z, w values (i16 / 16384).
    pub rotation: [&'a [I16]; 4],
    /// Scale x, y, z values (16.16).
    pub scale: [&'a [I32]; 3],
}

impl SlotView<'_> {
    /// The slot as an owned value.
    pub fn to_slot(&self) -> Slot {
        let [tx, ty, tz] = self.translation;
        let [rx, ry, rz, rw] = self.rotation;
        let [sx, sy, sz] = self.scale;
        let vec3 = |x: &I32, y: &I32, z: &I32| Vec3::new(Fixed16(x.get()), Fixed16(y.get()), Fixed16(z.get()));
        Slot {
            translation: (self.translation_times.iter().zip(tx).zip(ty).zip(tz))
                .map(|(((t, x), y), z)| Key::new(t.get(), vec3(x, y, z)))
                .collect(),
            rotation: (self.rotation_times.iter().zip(rx).zip(ry).zip(rz).zip(rw))
                .map(|((((t, x), y), z), w)| {
                    Key::new(
                        t.get(),
                        Quat::new(Rot14(x.get()), Rot14(y.get()), Rot14(z.get()), Rot14(w.get())),
                    )
                })
                .collect(),
            scale: (self.scale_times.iter().zip(sx).zip(sy).zip(sz))
                .map(|(((t, x), y), z)| Key::new(t.get(), vec3(x, y, z)))
                .collect(),
        }
    }
}

/// A parsed slot table: its slots and where it ends.
#[derive(Debug, Clone)]
pub struct SlotTable<'a> {
    /// The slots, in table order.
    pub slots: Vec<SlotView<'a>>,
    /// The offset just past the `0xFFFFFFFF` terminator, relative to the base slice.
    pub end: usize,
}

/// A byte range of one array, remembered for the overlap check.
struct Placed {
    range: Range<u64>,
    field: u64,
    slot: usize,
    array: ArrayKind,
}

/// Parses the slot table that starts at `table_offset` in `base`.
///
/// Every offset in the table is relative to the start of `base`, which is the start of a
/// segment in an x8an file, and the start of the animation chunk in an x8pc model file
/// (whose slot tables are laid out the same way). Each key array must lie inside `data`
/// (for a segment, `4..slot_table_offset`), arrays must not overlap, and the table must end
/// with a `0xFFFFFFFF` translation key count before `base` does. Error offsets are relative
/// to `base` too.
///
/// ```
/// use animbin_sf3::parse_slot_table;
///
/// // A chunk with no key data and an empty slot table: just the terminator at offset 4.
/// let chunk = [0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF];
/// let table = parse_slot_table(&chunk, 4, 4..4)?;
/// assert!(table.slots.is_empty());
/// assert_eq!(table.end, 8);
/// # Ok::<(), animbin_sf3::Error>(())
/// ```
pub fn parse_slot_table(base: &[u8], table_offset: usize, data: Range<usize>) -> Result<SlotTable<'_>> {
    let len = base.len() as u64;
    let data = data.start as u64..data.end as u64;
    let mut reader = SliceReader::new(base);
    let mut pos = table_offset as u64;
    // Count the entries first (bounded by the input) so the vectors are allocated once.
    let entries = (0..)
        .map(|i| pos + i * SLOT_ENTRY_SIZE as u64)
        .take_while(|&p| word_at(base, p).is_some_and(|w| w != END_MARKER))
        .count();
    let mut slots = Vec::with_capacity(entries);
    let mut placed = Vec::with_capacity(entries * ArrayKind::ALL.len());
    loop {
        let Some(first) = word_at(base, pos) else {
            return Err(Error::new(
                FORMAT,
                pos.min(len),
                ErrorKind::UnexpectedEof {
                    expected: "a 64-byte slot entry or the 0xFFFFFFFF end of the slot table".into(),
                },
            ));
        };
        if first == END_MARKER {
            let end = pos + 4;
            check_overlaps(&mut placed)?;
            return Ok(SlotTable {
                slots,
                end: end as usize,
            });
        }
        reader
            .seek(SeekFrom::Start(pos))
            .map_err(|e| Error::new(FORMAT, pos, ErrorKind::Io(e)))?;
        let entry = SlotEntry::read_options(&mut reader, Endian::Big, ()).map_err(|e| reader.error(FORMAT, e))?;
        slots.push(slot_view(base, pos, slots.len(), entry, &data, &mut placed)?);
        pos += SLOT_ENTRY_SIZE as u64;
    }
}

fn word_at(bytes: &[u8], pos: u64) -> Option<u32> {
    let pos = usize::try_from(pos).ok()?;
    let word = bytes.get(pos..pos.checked_add(4)?)?;
    Some(u32::from_be_bytes(word.try_into().ok()?))
}

/// Checks one entry's counts and offsets against `data` and borrows its arrays.
fn slot_view<'a>(
    base: &'a [u8],
    entry_pos: u64,
    slot: usize,
    entry: SlotEntry,
    data: &Range<u64>,
    placed: &mut Vec<Placed>,
) -> Result<SlotView<'a>> {
    for channel in [Channel::Rotation, Channel::Scale] {
        let count = entry.keys(channel);
        if count == END_MARKER {
            return Err(Error::new(
                FORMAT,
                entry_pos + channel.count_field_offset(),
                ErrorKind::invalid(
                    format!("a {channel} key count (0xFFFFFFFF ends a table only as the translation count)"),
                    "0xFFFFFFFF",
                ),
            ));
        }
    }
    let data_len = data.end.saturating_sub(data.start);
    let mut ranges = [(0u64, 0u64); 13];
    for array in ArrayKind::ALL {
        let channel = array.channel();
        let count = u64::from(entry.keys(channel));
        let size = count * array.element_size();
        if size > data_len {
            return Err(Error::new(
                FORMAT,
                entry_pos + channel.count_field_offset(),
                ErrorKind::CountTooLarge {
                    what: format!("slot {slot} {channel} key"),
                    count,
                    needed: size,
                    remaining: data_len,
                },
            ));
        }
        let start = u64::from(entry.offset(array));
        let end = start + size;
        if start < data.start || end > data.end {
            return Err(Error::new(
                FORMAT,
                entry_pos + array.field_offset(),
                ErrorKind::invalid(
                    format!(
                        "slot {slot} {} ({size} bytes) inside the data section {:#x}..{:#x}",
                        array.name(),
                        data.start,
                        data.end
                    ),
                    format!("{start:#x}..{end:#x}"),
                ),
            ));
        }
        if size > 0 {
            placed.push(Placed {
                range: start..end,
                field: entry_pos + array.field_offset(),
                slot,
                array,
            });
        }
        ranges[array.index()] = (start, end);
    }
    let u16s = |a: ArrayKind| -> Result<&'a [U16]> { cast(base, ranges[a.index()], a) };
    let i16s = |a: ArrayKind| -> Result<&'a [I16]> { cast(base, ranges[a.index()], a) };
    let i32s = |a: ArrayKind| -> Result<&'a [I32]> { cast(base, ranges[a.index()], a) };
    use ArrayKind as A;
    Ok(SlotView {
        entry,
        translation_times: u16s(A::TranslationTimes)?,
        rotation_times: u16s(A::RotationTimes)?,
        scale_times: u16s(A::ScaleTimes)?,
        translation: [i32s(A::TranslationX)?, i32s(A::TranslationY)?, i32s(A::TranslationZ)?],
        rotation: [
            i16s(A::RotationX)?,
            i16s(A::RotationY)?,
            i16s(A::RotationZ)?,
            i16s(A::RotationW)?,
        ],
        scale: [i32s(A::ScaleX)?, i32s(A::ScaleY)?, i32s(A::ScaleZ)?],
    })
}

fn cast<T>(base: &[u8], (start, end): (u64, u64), array: ArrayKind) -> Result<&[T]>
where
    T: zerocopy::FromBytes + zerocopy::Immutable + zerocopy::KnownLayout + zerocopy::Unaligned,
{
    let count = (end - start) / size_of::<T>() as u64;
    slice_at(FORMAT, base, start, count, array.name())
}

/// Refuses arrays that share bytes; the error names both and sits at the later one's offset field.
fn check_overlaps(placed: &mut [Placed]) -> Result<()> {
    match first_overlap(placed, |p| p.range.clone()) {
        Some((p, prev)) => Err(Error::new(
            FORMAT,
            p.field,
            ErrorKind::invalid(
                format!(
                    "slot {} {} at {:#x}..{:#x} not to overlap other arrays",
                    p.slot,
                    p.array.name(),
                    p.range.start,
                    p.range.end
                ),
                format!(
                    "an overlap with slot {} {} at {:#x}..{:#x}",
                    prev.slot,
                    prev.array.name(),
                    prev.range.start,
                    prev.range.end
                ),
            ),
        )),
        None => Ok(()),
    }
}

/// One segment: its slot table offset and slots, borrowed from the input.
#[derive(Debug, Clone)]
pub struct SegmentView<'a> {
    /// The segment's bytes, from its slot table offset word to its table's terminator.
    pub bytes: &'a [u8],
    /// The first word: where the slot table starts, relative to the segment.
    pub slot_table_offset: u32,
    /// The slots.
    pub slots: Vec<SlotView<'a>>,
}

impl<'a> SegmentView<'a> {
    /// Parses the segment at the start of `base` (bytes after it are ignored); error
    /// offsets are relative to `base`.
    pub fn parse(base: &'a [u8]) -> Result<Self> {
        let header: SegmentHeader = read_from_slice(FORMAT, base, Endian::Big)?;
        let offset = header.slot_table_offset;
        if offset < 4 || offset as usize > base.len() {
            return Err(Error::new(
                FORMAT,
                0,
                ErrorKind::invalid(
                    format!(
                        "a slot table offset between 4 and the {} bytes of the input",
                        base.len()
                    ),
                    format!("{offset:#x}"),
                ),
            ));
        }
        let table = parse_slot_table(base, offset as usize, 4..offset as usize)?;
        Ok(Self {
            bytes: &base[..table.end],
            slot_table_offset: offset,
            slots: table.slots,
        })
    }

    /// The segment as an owned value, with `padding_words` zero words before it.
    pub fn to_segment(&self, padding_words: u32) -> Segment {
        Segment {
            padding_words,
            slots: self.slots.iter().map(SlotView::to_slot).collect(),
        }
    }
}

/// A segment of a file with its place.
#[derive(Debug, Clone)]
pub struct PlacedSegment<'a> {
    /// Zero words before the segment.
    pub padding_words: u32,
    /// The file offset of the segment's first byte.
    pub offset: usize,
    /// The segment.
    pub segment: SegmentView<'a>,
}

/// A whole x8an file, every key array borrowed from the input.
#[derive(Debug, Clone)]
pub struct View<'a> {
    /// The segments in file order.
    pub segments: Vec<PlacedSegment<'a>>,
    /// Zero words after the last segment.
    pub padding_words: u32,
    /// The bytes after the `0xFFFFFFFF` end marker, or `None` when the file has no marker.
    pub after_end_marker: Option<&'a [u8]>,
}

impl<'a> View<'a> {
    /// Parses a whole file: segments separated by zero words, ended by the end of the input
    /// or a `0xFFFFFFFF` word. A file needs at least one segment.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut pos = 0usize;
        let mut padding = 0u32;
        let mut segments = Vec::new();
        let after_end_marker = loop {
            let rest = &bytes[pos..];
            if rest.is_empty() {
                break None;
            }
            let Some(word) = word_at(rest, 0) else {
                return Err(Error::new(
                    FORMAT,
                    pos as u64,
                    ErrorKind::UnexpectedEof {
                        expected: format!(
                            "a 4-byte word (segment, zero padding or end marker), found {} bytes",
                            rest.len()
                        ),
                    },
                ));
            };
            if word == 0 {
                if padding == MAX_PADDING_WORDS {
                    return Err(Error::new(
                        FORMAT,
                        pos as u64,
                        ErrorKind::invalid(
                            format!("at most {MAX_PADDING_WORDS} zero padding words in a row"),
                            "more",
                        ),
                    ));
                }
                padding += 1;
                pos += 4;
                continue;
            }
            if word == END_MARKER {
                break Some(&rest[4..]);
            }
            let segment = SegmentView::parse(rest).map_err(|e| shift(e, pos))?;
            let len = segment.bytes.len();
            segments.push(PlacedSegment {
                padding_words: padding,
                offset: pos,
                segment,
            });
            padding = 0;
            pos += len;
        };
        if segments.is_empty() {
            return Err(Error::new(
                FORMAT,
                pos as u64,
                ErrorKind::invalid("at least one segment", "none"),
            ));
        }
        Ok(Self {
            segments,
            padding_words: padding,
            after_end_marker,
        })
    }

    /// The file as an owned value.
    pub fn to_file(&self) -> Sf3File {
        Sf3File {
            segments: self
                .segments
                .iter()
                .map(|s| s.segment.to_segment(s.padding_words))
                .collect(),
            padding_words: self.padding_words,
            ending: match self.after_end_marker {
                None => Ending::Eof,
                Some(trailing) => Ending::EndMarker {
                    trailing: trailing.to_vec(),
                },
            },
        }
    }
}

/// Moves an error found inside a sub-slice to its offset in the whole input.
fn shift(mut err: Error, by: usize) -> Error {
    err.offset += by as u64;
    err
}
