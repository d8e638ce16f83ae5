//! Runs of records that interleave values with something else: keyframes, a `f32` time
//! before or after each value, and tangent pairs, read and written for any [`Element`].

use std::io::{Read, Seek, Write};

use animbin_core::ErrorKind;
use animbin_core::io::check_count;
use binrw::{BinRead, BinResult, BinWrite, Endian};

use super::Element;

/// The next four bytes of an in-memory run whose length was checked.
fn read4(records: &mut std::io::Cursor<&[u8]>) -> [u8; 4] {
    let at = records.position() as usize;
    let bytes: [u8; 4] = records.get_ref()[at..at + 4]
        .try_into()
        .expect("the run holds every record");
    records.set_position(at as u64 + 4);
    bytes
}

/// The bytes of records [`read_keyed`] copies and decodes at a time: small enough to stay in
/// the L1 cache, large enough that each copy is a bulk one.
const KEYED_CHUNK: usize = 8 * 1024;

/// The largest plain value [`read_keyed`] decodes in chunks (a `float4x4` of `f64`s).
const MAX_PLAIN_SIZE: usize = 128;

pub(super) fn read_keyed<T: Element, R: Read + Seek>(
    reader: &mut R,
    count: u32,
    time_first: bool,
) -> BinResult<(Vec<f32>, Vec<T>)> {
    let count = check_count(reader, "keyframe", u64::from(count), 4 + T::MIN_SIZE)?;
    let mut times = Vec::with_capacity(count);
    let mut values = Vec::with_capacity(count);
    let size = T::MIN_SIZE as usize;
    // Plain data (a value copied field by field; any bytes of its size decode) is copied in
    // cache-sized chunks, each decoded in two tight loops, one per column.
    let plain = T::FIXED && size <= MAX_PLAIN_SIZE && T::from_le_bytes(&[0; MAX_PLAIN_SIZE][..size]).is_some();
    if plain {
        let record = 4 + size;
        let (time_at, value_at) = if time_first { (0, 4) } else { (size, 0) };
        let per_chunk = KEYED_CHUNK / record;
        let mut chunk = [0u8; KEYED_CHUNK];
        let mut left = count;
        while left > 0 {
            let n = left.min(per_chunk);
            let bytes = &mut chunk[..n * record];
            reader.read_exact(bytes)?;
            times.extend(
                bytes
                    .chunks_exact(record)
                    .map(|r| f32::from_le_bytes(r[time_at..time_at + 4].try_into().expect("four bytes"))),
            );
            values.extend(
                bytes
                    .chunks_exact(record)
                    .map(|r| T::from_le_bytes(&r[value_at..value_at + size]).expect("a plain value of its size")),
            );
            left -= n;
        }
        return Ok((times, values));
    }
    if T::FIXED {
        // One copy of the whole run, then each record decoded from memory: reading record
        // by record through the file's reader cost more than the decoding. A value that does
        // not decode is read again below, through the reader, for an error at its offset.
        let start = reader.stream_position()?;
        let mut block = vec![0u8; count * (4 + size)];
        reader.read_exact(&mut block)?;
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

pub(super) fn write_keyed<T: Element, W: Write + Seek>(
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

pub(super) fn read_pairs<T: Element, R: Read + Seek>(reader: &mut R, count: u32) -> BinResult<(Vec<T>, Vec<T>)> {
    let count = check_count(reader, "tangent pair", u64::from(count), 2 * T::MIN_SIZE)?;
    let mut first = Vec::with_capacity(count);
    let mut second = Vec::with_capacity(count);
    for _ in 0..count {
        first.push(T::read_one(reader)?);
        second.push(T::read_one(reader)?);
    }
    Ok((first, second))
}

pub(super) fn write_pairs<T: Element, W: Write + Seek>(writer: &mut W, first: &[T], second: &[T]) -> BinResult<()> {
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
