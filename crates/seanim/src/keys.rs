//! Keys: the owned [`Key`], the on-disk key records as zerocopy structs, and bulk reading
//! and writing of key runs.
//!
//! A bone's location, rotation and scale keys are each stored as a `frame_t` count followed
//! by that many `(frame_t frame, value)` records. `frame_t` and the value precision are fixed
//! for the whole file, so a run is a plain array of fixed-size records: it is read with one
//! bounds check and one copy, and a [`crate::View`] borrows it in place as a [`KeyRun`].

use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::io::check_count;
use animbin_core::{ErrorKind, IndexField, IndexWidth, Quat, Vec3};
use binrw::BinResult;
use serde::{Deserialize, Serialize};
use zerocopy::little_endian::{F32, F64, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The precision of key values, `SEANIM_PRECISION_HIGH` in `dataPropertyFlags`.
///
/// Only key values change width: the header's `framerate` is an `f32` either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// `float` components (the flag is clear).
    #[default]
    Single,
    /// `double` components (`SEANIM_PRECISION_HIGH`).
    Double,
}

impl Precision {
    /// The size of one component in bytes.
    pub const fn size(self) -> u64 {
        match self {
            Self::Single => 4,
            Self::Double => 8,
        }
    }
}

/// One key of a bone channel: an integer frame and a value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Key<V> {
    /// The frame, stored as `frame_t`.
    pub frame: u32,
    /// The value: a location or scale ([`Vec3`]) or a rotation ([`Quat`], x y z w).
    pub value: V,
}

impl<V> Key<V> {
    /// A key at `frame` with `value`.
    pub const fn new(frame: u32, value: V) -> Self {
        Self { frame, value }
    }
}

/// One on-disk key record, `BoneLocData` / `BoneRotData` / `BoneScaleData` in the specification:
/// `frame_t frame` then the value, packed, little-endian. `F` is `u8`, [`U16`] or [`U32`];
/// `V` is the value's layout at the file's precision (`Vec3<F32>`, `Quat<F64>`...).
#[derive(Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct KeyRecord<F, V> {
    /// `frame_t frame`.
    pub frame: F,
    /// `vec3_t` or `quat_t` at the file's precision.
    pub value: V,
}

impl<F: IndexField, R: Copy> KeyRecord<F, R> {
    /// The key, its value turned into `V` by `conv`.
    #[inline]
    fn key<V>(&self, conv: impl Fn(R) -> V) -> Key<V> {
        Key::new(self.frame.get(), conv(self.value))
    }
}

const _: () = assert!(size_of::<KeyRecord<u8, Vec3<F32>>>() == 13);
const _: () = assert!(size_of::<KeyRecord<U16, Quat<F32>>>() == 18);
const _: () = assert!(size_of::<KeyRecord<U32, Quat<F64>>>() == 36);

/// A `frame_t` field in a record (`u8`, [`U16`] or [`U32`], little-endian): core's
/// [`IndexField`] under its SEAnim name.
pub use animbin_core::IndexField as FrameField;

/// Widens an `f32` to `f64` keeping NaN payloads bit for bit (a plain `as` cast may set the
/// quiet bit), so that [`narrow`] gives back the exact `f32`.
#[inline]
pub fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let bits = u64::from(x.to_bits());
        let sign = (bits & 0x8000_0000) << 32;
        let payload = (bits & 0x007F_FFFF) << 29;
        f64::from_bits(sign | 0x7FF0_0000_0000_0000 | payload)
    } else {
        f64::from(x)
    }
}

/// Narrows an `f64` to the nearest `f32`; `None` when a finite value is beyond `f32`'s range.
/// NaN payloads made by [`widen`] come back bit for bit.
#[inline]
pub fn narrow(x: f64) -> Option<f32> {
    if x.is_nan() {
        let bits = x.to_bits();
        let sign = ((bits >> 32) & 0x8000_0000) as u32;
        let payload = match ((bits >> 29) & 0x007F_FFFF) as u32 {
            0 => 0x0040_0000,
            p => p,
        };
        Some(f32::from_bits(sign | 0x7F80_0000 | payload))
    } else {
        let y = x as f32;
        (y.is_finite() || x.is_infinite()).then_some(y)
    }
}

/// A key value type: [`Vec3<f64>`] (location, scale) or [`Quat<f64>`] (rotation), with its
/// on-disk layouts at both precisions.
pub trait KeyValue: Copy + PartialEq + fmt::Debug + 'static {
    /// The value's layout with `float` components.
    type Single: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned + Copy + fmt::Debug;
    /// The value's layout with `double` components.
    type Double: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned + Copy + fmt::Debug;
    /// The number of components (3 or 4).
    const COMPONENTS: u64;
    /// The value of a single-precision record.
    fn from_single(v: Self::Single) -> Self;
    /// The value of a double-precision record.
    fn from_double(v: Self::Double) -> Self;
    /// The single-precision layout, or `None` when a finite component is beyond `f32`'s range.
    fn to_single(self) -> Option<Self::Single>;
    /// The double-precision layout.
    fn to_double(self) -> Self::Double;
}

/// Implements [`KeyValue`] for core math types of `f64` components, component by component.
macro_rules! key_value {
    ($($ty:ident: $components:literal),*) => {$(
        impl KeyValue for $ty<f64> {
            type Single = $ty<F32>;
            type Double = $ty<F64>;
            const COMPONENTS: u64 = $components;
            #[inline]
            fn from_single(v: Self::Single) -> Self {
                v.map(|c| widen(c.get()))
            }
            #[inline]
            fn from_double(v: Self::Double) -> Self {
                v.map(F64::get)
            }
            #[inline]
            fn to_single(self) -> Option<Self::Single> {
                let mut fits = true;
                let single = self.map(|c| {
                    let narrowed = narrow(c);
                    fits &= narrowed.is_some();
                    F32::new(narrowed.unwrap_or_default())
                });
                fits.then_some(single)
            }
            #[inline]
            fn to_double(self) -> Self::Double {
                self.map(F64::new)
            }
        }
    )*};
}

key_value!(Vec3: 3, Quat: 4);

/// The size in bytes of one key record for values `V` at the given widths.
pub const fn record_size<V: KeyValue>(frame: IndexWidth, precision: Precision) -> u64 {
    frame.size() + V::COMPONENTS * precision.size()
}

/// A run of key records borrowed from the file, in whichever of the six layouts
/// (`frame_t` width times precision) the file uses.
#[derive(Debug)]
pub enum KeyRun<'a, V: KeyValue> {
    /// u8 frames, `float` values.
    U8Single(&'a [KeyRecord<u8, V::Single>]),
    /// u16 frames, `float` values.
    U16Single(&'a [KeyRecord<U16, V::Single>]),
    /// u32 frames, `float` values.
    U32Single(&'a [KeyRecord<U32, V::Single>]),
    /// u8 frames, `double` values.
    U8Double(&'a [KeyRecord<u8, V::Double>]),
    /// u16 frames, `double` values.
    U16Double(&'a [KeyRecord<U16, V::Double>]),
    /// u32 frames, `double` values.
    U32Double(&'a [KeyRecord<U32, V::Double>]),
}

impl<V: KeyValue> Clone for KeyRun<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: KeyValue> Copy for KeyRun<'_, V> {}

/// Runs `$body` with `$s` bound to the run's slice, whatever its layout, and `$conv` to the
/// function that turns one of its values into `V`.
macro_rules! with_run {
    ($run:expr, |$s:ident, $conv:ident| $body:expr) => {
        match $run {
            KeyRun::U8Single($s) => {
                let $conv = V::from_single;
                $body
            }
            KeyRun::U16Single($s) => {
                let $conv = V::from_single;
                $body
            }
            KeyRun::U32Single($s) => {
                let $conv = V::from_single;
                $body
            }
            KeyRun::U8Double($s) => {
                let $conv = V::from_double;
                $body
            }
            KeyRun::U16Double($s) => {
                let $conv = V::from_double;
                $body
            }
            KeyRun::U32Double($s) => {
                let $conv = V::from_double;
                $body
            }
        }
    };
}

fn cast<T: FromBytes + KnownLayout + Immutable + Unaligned>(bytes: &[u8]) -> Option<&[T]> {
    <[T]>::ref_from_bytes(bytes).ok()
}

impl<'a, V: KeyValue> KeyRun<'a, V> {
    /// Borrows `bytes` as records of the given layout; `None` unless `bytes` holds a whole
    /// number of records.
    pub fn from_bytes(bytes: &'a [u8], frame: IndexWidth, precision: Precision) -> Option<Self> {
        Some(match (frame, precision) {
            (IndexWidth::U8, Precision::Single) => Self::U8Single(cast(bytes)?),
            (IndexWidth::U16, Precision::Single) => Self::U16Single(cast(bytes)?),
            (IndexWidth::U32, Precision::Single) => Self::U32Single(cast(bytes)?),
            (IndexWidth::U8, Precision::Double) => Self::U8Double(cast(bytes)?),
            (IndexWidth::U16, Precision::Double) => Self::U16Double(cast(bytes)?),
            (IndexWidth::U32, Precision::Double) => Self::U32Double(cast(bytes)?),
        })
    }

    /// An empty run.
    pub fn empty() -> Self {
        Self::U8Single(&[])
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        with_run!(self, |s, _c| s.len())
    }

    /// Whether the run has no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The run's records as they are in the file.
    pub fn as_bytes(&self) -> &'a [u8] {
        with_run!(*self, |s, _c| s.as_bytes())
    }

    /// The key at `index`.
    pub fn get(&self, index: usize) -> Option<Key<V>> {
        with_run!(self, |s, conv| s.get(index).map(|r| r.key(conv)))
    }

    /// The frame of the key at `index`, without decoding its value.
    pub fn frame(&self, index: usize) -> Option<u32> {
        with_run!(self, |s, _c| s.get(index).map(|r| IndexField::get(r.frame)))
    }

    /// The keys in file order.
    pub fn iter(&self) -> KeyRunIter<'a, V> {
        KeyRunIter { run: *self, next: 0 }
    }

    /// Decodes every key into an owned vector (one tight loop per layout).
    pub fn to_vec(&self) -> Vec<Key<V>> {
        let mut out = Vec::with_capacity(self.len());
        self.extend_into(&mut out);
        out
    }

    /// Appends every key to `out`.
    pub fn extend_into(&self, out: &mut Vec<Key<V>>) {
        with_run!(self, |s, conv| out.extend(s.iter().map(|r| r.key(conv))))
    }
}

impl<'a, V: KeyValue> IntoIterator for KeyRun<'a, V> {
    type Item = Key<V>;
    type IntoIter = KeyRunIter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// An iterator over the keys of a [`KeyRun`].
#[derive(Debug, Clone)]
pub struct KeyRunIter<'a, V: KeyValue> {
    run: KeyRun<'a, V>,
    next: usize,
}

impl<V: KeyValue> Iterator for KeyRunIter<'_, V> {
    type Item = Key<V>;
    fn next(&mut self) -> Option<Key<V>> {
        let key = self.run.get(self.next)?;
        self.next += 1;
        Some(key)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.run.len().saturating_sub(self.next);
        (left, Some(left))
    }

    /// Chooses the layout once, then runs a tight loop over the records (`sum`, `for_each`,
    /// `collect` and friends go through here).
    fn fold<B, F: FnMut(B, Key<V>) -> B>(self, init: B, mut f: F) -> B {
        let start = self.next;
        with_run!(self.run, |s, conv| s
            .get(start..)
            .unwrap_or_default()
            .iter()
            .fold(init, |acc, r| f(acc, r.key(conv))))
    }
}

impl<V: KeyValue> ExactSizeIterator for KeyRunIter<'_, V> {}

/// The bytes of records [`read_run`] copies and decodes at a time: small enough to stay in
/// the L1 cache, large enough that each copy is a bulk one.
const READ_CHUNK: usize = 8 * 1024;

/// Reads a key run's records (the count has been read) with one bounds check, decoding them
/// in cache-sized chunks of plain copies.
pub(crate) fn read_run<V: KeyValue, R: Read + Seek>(
    reader: &mut R,
    count: u32,
    frame: IndexWidth,
    precision: Precision,
    what: &str,
) -> BinResult<Vec<Key<V>>> {
    let size = record_size::<V>(frame, precision) as usize;
    let count = check_count(reader, what, u64::from(count), size as u64)?;
    let mut keys = Vec::with_capacity(count);
    let mut chunk = [0u8; READ_CHUNK];
    let per_chunk = READ_CHUNK / size;
    let mut left = count;
    while left > 0 {
        let n = left.min(per_chunk);
        let pos = reader.stream_position()?;
        let bytes = &mut chunk[..n * size];
        reader.read_exact(bytes)?;
        let run = KeyRun::<V>::from_bytes(bytes, frame, precision)
            .ok_or_else(|| ErrorKind::invalid(format!("whole {what} records"), "a partial record").at(pos))?;
        run.extend_into(&mut keys);
        left -= n;
    }
    Ok(keys)
}

/// How many records [`write_run`] encodes before handing them to the writer.
const WRITE_CHUNK: usize = 1024;

/// Writes a key run's records (not its count) in bulk, refusing a frame that does not fit
/// `frame_t` or a value that does not fit the precision.
pub(crate) fn write_run<V: KeyValue, W: Write + Seek>(
    writer: &mut W,
    keys: &[Key<V>],
    frame: IndexWidth,
    precision: Precision,
    what: &str,
) -> BinResult<()> {
    match (frame, precision) {
        (IndexWidth::U8, Precision::Single) => encode::<u8, _, _, _>(writer, keys, V::to_single, what),
        (IndexWidth::U16, Precision::Single) => encode::<U16, _, _, _>(writer, keys, V::to_single, what),
        (IndexWidth::U32, Precision::Single) => encode::<U32, _, _, _>(writer, keys, V::to_single, what),
        (IndexWidth::U8, Precision::Double) => encode::<u8, _, _, _>(writer, keys, |v| Some(V::to_double(v)), what),
        (IndexWidth::U16, Precision::Double) => encode::<U16, _, _, _>(writer, keys, |v| Some(V::to_double(v)), what),
        (IndexWidth::U32, Precision::Double) => encode::<U32, _, _, _>(writer, keys, |v| Some(V::to_double(v)), what),
    }
}

fn encode<F, S, V, W>(writer: &mut W, keys: &[Key<V>], conv: impl Fn(V) -> Option<S>, what: &str) -> BinResult<()>
where
    F: IndexField,
    S: IntoBytes + Immutable + Unaligned + Copy,
    V: KeyValue,
    W: Write + Seek,
{
    let start = writer.stream_position()?;
    let record = size_of::<KeyRecord<F, S>>() as u64;
    let mut buf: Vec<KeyRecord<F, S>> = Vec::with_capacity(keys.len().min(WRITE_CHUNK));
    for (chunk_index, chunk) in keys.chunks(WRITE_CHUNK).enumerate() {
        buf.clear();
        for (i, key) in chunk.iter().enumerate() {
            let index = chunk_index * WRITE_CHUNK + i;
            let at = start + index as u64 * record;
            let frame = F::try_new(key.frame).ok_or_else(|| {
                ErrorKind::Unencodable(format!(
                    "{what} {index} is at frame {}, past the {}-byte frame_t of this file",
                    key.frame,
                    size_of::<F>()
                ))
                .at(at)
            })?;
            let value = conv(key.value).ok_or_else(|| {
                ErrorKind::Unencodable(format!(
                    "{what} {index} has a value beyond single precision ({:?}); set SEANIM_PRECISION_HIGH",
                    key.value
                ))
                .at(at)
            })?;
            buf.push(KeyRecord { frame, value });
        }
        writer.write_all(buf.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widen_then_narrow_keeps_every_nan_payload() {
        for bits in [
            0x7F80_0001u32,
            0xFF80_0001,
            0x7FC0_0000,
            0x7FBF_FFFF,
            0xFFFF_FFFF,
            0x7F80_1234,
        ] {
            let x = f32::from_bits(bits);
            assert_eq!(narrow(widen(x)).map(f32::to_bits), Some(bits));
        }
        for x in [0.0f32, -0.0, 1.5, f32::MAX, f32::MIN_POSITIVE, 1e-45, f32::INFINITY] {
            assert_eq!(narrow(widen(x)).map(f32::to_bits), Some(x.to_bits()));
        }
    }

    #[test]
    fn narrow_refuses_finite_values_beyond_f32() {
        assert_eq!(narrow(1e300), None);
        assert_eq!(narrow(-1e39), None);
        assert_eq!(narrow(f64::INFINITY), Some(f32::INFINITY));
        assert!(narrow(f64::from_bits(0x7FF0_0000_0000_0001)).is_some_and(f32::is_nan));
    }

    #[test]
    fn a_run_borrows_records_in_place() {
        // Two u16-frame single-precision location records.
        let bytes = [
            0x01, 0x00, 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, //
            0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xBF,
        ];
        let run = KeyRun::<Vec3<f64>>::from_bytes(&bytes, IndexWidth::U16, Precision::Single).unwrap();
        assert_eq!(run.len(), 2);
        assert_eq!(run.get(0), Some(Key::new(1, Vec3::new(1.0, 2.0, 3.0))));
        assert_eq!(run.frame(1), Some(256));
        assert_eq!(run.to_vec()[1], Key::new(256, Vec3::new(0.0, 0.0, -1.0)));
        assert_eq!(run.iter().count(), 2);
        assert!(KeyRun::<Vec3<f64>>::from_bytes(&bytes[..27], IndexWidth::U16, Precision::Single).is_none());
    }
}
