//! Zero-copy views: every key array is a borrowed big-endian slice of the input, checked
//! once against the bounds of its segment.

use std::io::{Seek, SeekFrom};
use std::ops::Range;

use animbin_core::io::{SliceReader, first_overlap, read_from_slice, slice_at};
use animbin_core::{Endian, Error, ErrorKind, Fixed16, Quat, Result, Rot14, Vec3};
use binrw::BinRead;
use zerocopy::byteorder::big_endian::{I16, I32, U16};
use zerocopy::{FromBytes, Immutable, Unaligned};

use crate::FORMAT;
use crate::layout::{ArrayKind, Channel, END_MARKER, SLOT_ENTRY_SIZE, SegmentHeader, SlotEntry};
use crate::model::{Ending, Key, MAX_PADDING_WORDS, Segment, Sf3File, Slot};
use crate::summary::{Counts, Summary};

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

/// The byte range (relative to the table's base) of each of an entry's 13 arrays, in
/// entry order, once checked against the data section.
type Ranges = [(u64, u64); 13];

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
    let mut slots = Vec::with_capacity(entry_count(base, table_offset));
    let mut placed = Vec::new();
    let end = walk_slot_table(base, table_offset, data, &mut placed, |entry, ranges| {
        slots.push(slot_view(base, entry, ranges)?);
        Ok(())
    })?;
    Ok(SlotTable { slots, end })
}

/// How many entries come before the first `0xFFFFFFFF` word at an entry's place (bounded by
/// the input), so that vectors of slots are allocated once.
fn entry_count(base: &[u8], table_offset: usize) -> usize {
    base.get(table_offset..)
        .unwrap_or_default()
        .chunks(SLOT_ENTRY_SIZE)
        .take_while(|chunk| chunk.get(..4).is_some_and(|w| w != [0xFF; 4]))
        .count()
}

/// The checks of [`parse_slot_table`], calling `visit` with each entry and its arrays'
/// checked ranges, in table order; returns where the table ends.
/// `placed` is scratch space for the overlap check, reused between tables.
///
/// This walk is what every reader shares ([`parse_slot_table`], [`View::parse`], [`crate::read`],
/// [`Summary::parse`]), so they accept exactly the same inputs and report the same errors.
fn walk_slot_table(
    base: &[u8],
    table_offset: usize,
    data: Range<usize>,
    placed: &mut Vec<Placed>,
    mut visit: impl FnMut(SlotEntry, &Ranges) -> Result<()>,
) -> Result<usize> {
    let len = base.len() as u64;
    let data = data.start as u64..data.end as u64;
    placed.clear();
    let mut pos = table_offset as u64;
    let mut slot = 0;
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
            check_overlaps(placed)?;
            return Ok((pos + 4) as usize);
        }
        let entry = entry_at(base, pos)?;
        let ranges = check_entry(pos, slot, &entry, &data, placed)?;
        visit(entry, &ranges)?;
        slot += 1;
        pos += SLOT_ENTRY_SIZE as u64;
    }
}

fn word_at(bytes: &[u8], pos: u64) -> Option<u32> {
    let pos = usize::try_from(pos).ok()?;
    let word = bytes.get(pos..pos.checked_add(4)?)?;
    Some(u32::from_be_bytes(word.try_into().ok()?))
}

/// The entry at `pos`: its 16 big-endian words read in place, or the reader's error for an
/// entry that the input cuts short.
fn entry_at(base: &[u8], pos: u64) -> Result<SlotEntry> {
    let whole = usize::try_from(pos)
        .ok()
        .and_then(|p| base.get(p..p.checked_add(SLOT_ENTRY_SIZE)?));
    if let Some(bytes) = whole {
        let mut words = [0u32; 16];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(4)) {
            *word = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        let [t, r, s, offsets @ ..] = words;
        return Ok(SlotEntry::new([t, r, s], offsets));
    }
    let mut reader = SliceReader::new(base);
    reader
        .seek(SeekFrom::Start(pos))
        .map_err(|e| Error::new(FORMAT, pos, ErrorKind::Io(e)))?;
    SlotEntry::read_options(&mut reader, Endian::Big, ()).map_err(|e| reader.error(FORMAT, e))
}

/// Checks one entry's counts and offsets against `data`, remembers its arrays in `placed`
/// for the overlap check, and gives their ranges.
fn check_entry(
    entry_pos: u64,
    slot: usize,
    entry: &SlotEntry,
    data: &Range<u64>,
    placed: &mut Vec<Placed>,
) -> Result<Ranges> {
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
    let offsets = entry.offsets();
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
        let start = u64::from(offsets[array.index()]);
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
    Ok(ranges)
}

/// Copies out the keys of an entry whose ranges [`check_entry`] gave (every range lies
/// inside `base` and holds its channel's count of elements): each channel's arrays are cast
/// in place, then its keys built in one loop into a vector of their exact length.
fn decode_slot(base: &[u8], entry: &SlotEntry, ranges: &Ranges) -> Slot {
    use ArrayKind as A;
    fn array<'a, T: FromBytes + Immutable + Unaligned>(base: &'a [u8], ranges: &Ranges, a: ArrayKind) -> &'a [T] {
        let (start, end) = ranges[a.index()];
        <[T]>::ref_from_bytes(&base[start as usize..end as usize]).unwrap_or_default()
    }
    let vec3 = |[times, x, y, z]: [ArrayKind; 4]| -> Vec<Key<Vec3<Fixed16>>> {
        let times: &[U16] = array(base, ranges, times);
        let n = times.len();
        let [x, y, z] = [x, y, z].map(|a| array::<I32>(base, ranges, a).get(..n).unwrap_or_default());
        (0..n.min(x.len()).min(y.len()).min(z.len()))
            .map(|i| {
                let value = Vec3::new(Fixed16(x[i].get()), Fixed16(y[i].get()), Fixed16(z[i].get()));
                Key::new(times[i].get(), value)
            })
            .collect()
    };
    let times: &[U16] = array(base, ranges, A::RotationTimes);
    let n = times.len();
    let [x, y, z, w] = [A::RotationX, A::RotationY, A::RotationZ, A::RotationW]
        .map(|a| array::<I16>(base, ranges, a).get(..n).unwrap_or_default());
    let rotation = (0..n.min(x.len()).min(y.len()).min(z.len()).min(w.len()))
        .map(|i| {
            let value = Quat::new(
                Rot14(x[i].get()),
                Rot14(y[i].get()),
                Rot14(z[i].get()),
                Rot14(w[i].get()),
            );
            Key::new(times[i].get(), value)
        })
        .collect();
    debug_assert_eq!(n, entry.rotation_keys as usize, "the ranges hold the entry's counts");
    Slot {
        translation: vec3([A::TranslationTimes, A::TranslationX, A::TranslationY, A::TranslationZ]),
        rotation,
        scale: vec3([A::ScaleTimes, A::ScaleX, A::ScaleY, A::ScaleZ]),
    }
}

/// Borrows the arrays of an entry whose ranges [`check_entry`] gave (each holds its
/// channel's count of elements, so no cast fails).
fn slot_view<'a>(base: &'a [u8], entry: SlotEntry, ranges: &Ranges) -> Result<SlotView<'a>> {
    use ArrayKind as A;
    // One array: its elements' type is the field's.
    macro_rules! array {
        ($array:expr) => {
            slice_at(
                FORMAT,
                base,
                ranges[$array.index()].0,
                u64::from(entry.keys($array.channel())),
                $array.name(),
            )?
        };
    }
    Ok(SlotView {
        translation_times: array!(A::TranslationTimes),
        rotation_times: array!(A::RotationTimes),
        scale_times: array!(A::ScaleTimes),
        translation: [
            array!(A::TranslationX),
            array!(A::TranslationY),
            array!(A::TranslationZ),
        ],
        rotation: [
            array!(A::RotationX),
            array!(A::RotationY),
            array!(A::RotationZ),
            array!(A::RotationW),
        ],
        scale: [array!(A::ScaleX), array!(A::ScaleY), array!(A::ScaleZ)],
        entry,
    })
}

/// Refuses arrays that share bytes; the error names both and sits at the later one's offset field.
fn check_overlaps(placed: &mut [Placed]) -> Result<()> {
    // Arrays placed one after another in entry order (the canonical layout, and the game's)
    // cannot overlap: one pass proves it without sorting.
    if placed.windows(2).all(|w| w[0].range.end <= w[1].range.start) {
        return Ok(());
    }
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

/// Checks the segment at the start of `base` as [`SegmentView::parse`] does, calling
/// `visit` for each slot entry; gives the slot table offset and the segment's length.
fn walk_segment(
    base: &[u8],
    placed: &mut Vec<Placed>,
    visit: impl FnMut(SlotEntry, &Ranges) -> Result<()>,
) -> Result<(u32, usize)> {
    let header: SegmentHeader = match base.get(..4) {
        Some(word) => SegmentHeader {
            slot_table_offset: u32::from_be_bytes([word[0], word[1], word[2], word[3]]),
        },
        None => read_from_slice(FORMAT, base, Endian::Big)?,
    };
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
    let end = walk_slot_table(base, offset as usize, 4..offset as usize, placed, visit)?;
    Ok((offset, end))
}

impl<'a> SegmentView<'a> {
    /// Parses the segment at the start of `base` (bytes after it are ignored); error
    /// offsets are relative to `base`.
    pub fn parse(base: &'a [u8]) -> Result<Self> {
        Self::parse_with(base, &mut Vec::new())
    }

    fn parse_with(base: &'a [u8], placed: &mut Vec<Placed>) -> Result<Self> {
        let mut slots = Vec::new();
        let (slot_table_offset, end) = walk_segment(base, placed, |entry, ranges| {
            slots.push(slot_view(base, entry, ranges)?);
            Ok(())
        })?;
        Ok(Self {
            bytes: &base[..end],
            slot_table_offset,
            slots,
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

/// What [`walk_file`] found around the segments.
struct FileEnd<'a> {
    /// Zero words after the last segment.
    padding_words: u32,
    /// The bytes after the end marker, when there is one.
    after_end_marker: Option<&'a [u8]>,
}

/// The checks of [`View::parse`]: zero words, segments and the end, calling `segment` with
/// the padding words before each segment, its file offset and the input from there on;
/// `segment` checks the segment (errors relative to its start) and gives its length.
fn walk_file<'a>(
    bytes: &'a [u8],
    mut segment: impl FnMut(u32, usize, &'a [u8]) -> Result<usize>,
) -> Result<FileEnd<'a>> {
    let mut pos = 0usize;
    let mut padding = 0u32;
    let mut segments = 0usize;
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
        let len = segment(padding, pos, rest).map_err(|e| shift(e, pos))?;
        segments += 1;
        padding = 0;
        pos += len;
    };
    if segments == 0 {
        return Err(Error::new(
            FORMAT,
            pos as u64,
            ErrorKind::invalid("at least one segment", "none"),
        ));
    }
    Ok(FileEnd {
        padding_words: padding,
        after_end_marker,
    })
}

impl<'a> View<'a> {
    /// Parses a whole file: segments separated by zero words, ended by the end of the input
    /// or a `0xFFFFFFFF` word. A file needs at least one segment.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut segments = Vec::new();
        let mut placed = Vec::new();
        let end = walk_file(bytes, |padding_words, offset, rest| {
            let segment = SegmentView::parse_with(rest, &mut placed)?;
            let len = segment.bytes.len();
            segments.push(PlacedSegment {
                padding_words,
                offset,
                segment,
            });
            Ok(len)
        })?;
        Ok(Self {
            segments,
            padding_words: end.padding_words,
            after_end_marker: end.after_end_marker,
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
            ending: ending(self.after_end_marker),
        }
    }
}

fn ending(after_end_marker: Option<&[u8]>) -> Ending {
    match after_end_marker {
        None => Ending::Eof,
        Some(trailing) => Ending::EndMarker {
            trailing: trailing.to_vec(),
        },
    }
}

/// Reads a whole file into the owned model, with the checks of [`View::parse`] but without
/// keeping a view of every slot on the way: each slot is copied out as its entry is checked.
pub(crate) fn read_file(bytes: &[u8]) -> Result<Sf3File> {
    let mut segments = Vec::new();
    let mut placed = Vec::new();
    let end = walk_file(bytes, |padding_words, _, base| {
        // The table's entries counted up to its terminator (bounded by the input), so that
        // the slots are allocated once; walk_segment checks the offset itself.
        let table = word_at(base, 0).map_or(0, |offset| offset as usize);
        let mut slots = Vec::with_capacity(entry_count(base, table));
        let (_, len) = walk_segment(base, &mut placed, |entry, ranges| {
            slots.push(decode_slot(base, &entry, ranges));
            Ok(())
        })?;
        segments.push(Segment { padding_words, slots });
        Ok(len)
    })?;
    Ok(Sf3File {
        segments,
        padding_words: end.padding_words,
        ending: ending(end.after_end_marker),
    })
}

/// The count-only walk: [`Summary::parse`].
impl Summary {
    /// The summary of `bytes`, found by the checks of [`View::parse`] (the same inputs are
    /// accepted, with the same errors) without keeping anything per slot.
    ///
    /// x8an files have no header: how many segments there are, and where each one starts,
    /// is known only by reading each segment's slot table up to its terminator (the next
    /// segment follows it), and the key counts are in the table entries. So the cost grows
    /// with the number of slots (64 bytes of table each), not with the number of keys; the
    /// key data between the tables is never read.
    ///
    /// ```
    /// use animbin_sf3::{Summary, to_bytes};
    ///
    /// let bytes = to_bytes(&animbin_sf3::Sf3File {
    ///     segments: vec![Default::default()],
    ///     ..Default::default()
    /// })?;
    /// let summary = Summary::parse(&bytes)?;
    /// assert_eq!((summary.segment_count, summary.slot_count), (1, 0));
    /// # Ok::<(), animbin_sf3::Error>(())
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        let mut counts = Counts::default();
        let mut placed = Vec::new();
        let end = walk_file(bytes, |padding_words, _, base| {
            counts.segments += 1;
            counts.padding_words += u64::from(padding_words);
            let (_, len) = walk_segment(base, &mut placed, |entry, _| {
                counts.slots += 1;
                counts.add_keys(&entry);
                Ok(())
            })?;
            Ok(len)
        })?;
        counts.padding_words += u64::from(end.padding_words);
        Ok(counts.summary(end.after_end_marker.is_some()))
    }
}

impl View<'_> {
    /// The summary of the viewed file: its counts, from the slot entries (no key is read).
    pub fn summary(&self) -> Summary {
        let mut counts = Counts {
            segments: self.segments.len(),
            padding_words: u64::from(self.padding_words),
            ..Counts::default()
        };
        for placed in &self.segments {
            counts.padding_words += u64::from(placed.padding_words);
            for slot in &placed.segment.slots {
                counts.slots += 1;
                counts.add_keys(&slot.entry);
            }
        }
        counts.summary(self.after_end_marker.is_some())
    }
}

/// Moves an error found inside a sub-slice to its offset in the whole input.
fn shift(mut err: Error, by: usize) -> Error {
    err.offset += by as u64;
    err
}
