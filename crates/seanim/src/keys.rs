//! Keys: the owned [`Key`], the on-disk key records as zerocopy structs, and bulk reading
//! and writing of key runs.
//!
//! A bone's location, rotation and scale keys are each stored as a `frame_t` count followed
//! by that many `(frame_t frame, value)` records. `frame_t` and the value precision are fixed
//! for the whole file, so a run is a plain array of fixed-size records: it is read with one
//! bounds check and one copy, and a [`crate::View`] borrows it in place as a [`KeyRun`].

use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::io::{ViewCursor, check_count};
use animbin_core::{ErrorKind, IndexField, IndexWidth, Quat, Result, Vec3};
use binrw::BinResult;
use serde::{Deserialize, Serialize};
use zerocopy::little_endian::{F32, F64, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::FORMAT;

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
    animbin_core::float::widen_exact(x)
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
/// `f32` form ([`KeyValue::Narrow`], what a single-precision channel holds) and its on-disk
/// layouts at both precisions.
pub trait KeyValue: Copy + PartialEq + fmt::Debug + Serialize + for<'de> Deserialize<'de> + 'static {
    /// The value with `f32` components: `Vec3<f32>` or `Quat<f32>`.
    type Narrow: Copy + PartialEq + fmt::Debug + Serialize + for<'de> Deserialize<'de> + 'static;
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
    /// The `f32` value of a single-precision record (a plain copy).
    fn narrow_from_single(v: Self::Single) -> Self::Narrow;
    /// The single-precision layout of an `f32` value (a plain copy).
    fn narrow_to_single(v: Self::Narrow) -> Self::Single;
    /// An `f32` value widened, NaN payloads kept ([`widen`]).
    fn from_narrow(v: Self::Narrow) -> Self;
    /// The nearest `f32` value ([`narrow`] on every component), or `None` when a finite
    /// component is beyond `f32`'s range.
    fn to_narrow(self) -> Option<Self::Narrow>;
    /// The value with `f` applied to every component.
    fn map_components(self, f: impl FnMut(f64) -> f64) -> Self;
    /// The `f32` value made by `f` from each component and its index (0 = x), or the index
    /// of the first component `f` refuses.
    fn narrow_with(self, f: impl FnMut(usize, f64) -> Option<f32>) -> Result<Self::Narrow, usize>;
    /// The value as a dump reads it before the file's precision is known.
    #[doc(hidden)]
    type Dumped: for<'de> Deserialize<'de>;
    /// The `f64` value of a [`KeyValue::Dumped`].
    #[doc(hidden)]
    fn from_dumped(v: Self::Dumped) -> Self;
    /// The `f32` value when it gives this value back bit for bit, else `None`.
    fn to_narrow_exact(self) -> Option<Self::Narrow> {
        self.to_narrow()
            .filter(|n| Self::from_narrow(*n).to_double().as_bytes() == self.to_double().as_bytes())
    }
}

/// Implements [`KeyValue`] for core math types of `f64` components, component by component.
macro_rules! key_value {
    ($($ty:ident: $components:literal),*) => {$(
        impl KeyValue for $ty<f64> {
            type Narrow = $ty<f32>;
            type Single = $ty<F32>;
            type Double = $ty<F64>;
            type Dumped = $ty<crate::dump::DumpedF64>;
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
                self.to_narrow().map(Self::narrow_to_single)
            }
            #[inline]
            fn to_double(self) -> Self::Double {
                self.map(F64::new)
            }
            #[inline]
            fn narrow_from_single(v: Self::Single) -> Self::Narrow {
                v.map(F32::get)
            }
            #[inline]
            fn narrow_to_single(v: Self::Narrow) -> Self::Single {
                v.map(F32::new)
            }
            #[inline]
            fn from_narrow(v: Self::Narrow) -> Self {
                v.map(widen)
            }
            #[inline]
            fn to_narrow(self) -> Option<Self::Narrow> {
                let mut fits = true;
                let single = self.map(|c| {
                    let narrowed = narrow(c);
                    fits &= narrowed.is_some();
                    narrowed.unwrap_or_default()
                });
                fits.then_some(single)
            }
            #[inline]
            fn map_components(self, f: impl FnMut(f64) -> f64) -> Self {
                self.map(f)
            }
            #[inline]
            fn narrow_with(self, mut f: impl FnMut(usize, f64) -> Option<f32>) -> Result<Self::Narrow, usize> {
                let mut index = 0;
                let mut refused = None;
                let narrowed = self.map(|c| {
                    let n = f(index, c);
                    if n.is_none() && refused.is_none() {
                        refused = Some(index);
                    }
                    index += 1;
                    n.unwrap_or_default()
                });
                refused.map_or(Ok(narrowed), Err)
            }
            #[inline]
            fn from_dumped(v: Self::Dumped) -> Self {
                v.map(|c| c.0)
            }
        }
    )*};
}

key_value!(Vec3: 3, Quat: 4);

/// The keys of one bone channel, held at the file's precision: `f32` values
/// ([`Keys::Single`]) for a file without `SEANIM_PRECISION_HIGH`, `f64` values
/// ([`Keys::Double`]) with it. `V` is the `f64` value type ([`Vec3<f64>`] or [`Quat<f64>`]).
///
/// Reading gives the file's precision; the writer takes either (an `f32` widens exactly, an
/// `f64` narrows to the nearest `f32`, refused beyond `f32`'s range). Two channels are equal
/// when their frames are and their values widened to `f64` are (so two empty channels are
/// equal whatever their precision). [`Keys::iter`] gives every key widened to `f64`.
#[derive(Debug, Clone)]
pub enum Keys<V: KeyValue> {
    /// `f32` values, as a single-precision file stores them.
    Single(Vec<Key<V::Narrow>>),
    /// `f64` values, as a `SEANIM_PRECISION_HIGH` file stores them.
    Double(Vec<Key<V>>),
}

impl<V: KeyValue> Default for Keys<V> {
    /// No keys (single precision).
    fn default() -> Self {
        Self::Single(Vec::new())
    }
}

impl<V: KeyValue> PartialEq for Keys<V> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Single(a), Self::Single(b)) => a == b,
            (Self::Double(a), Self::Double(b)) => a == b,
            _ => self.len() == other.len() && self.iter().eq(other.iter()),
        }
    }
}

/// A list of `f64` keys equals a channel holding the same values at either precision.
impl<V: KeyValue> PartialEq<Vec<Key<V>>> for Keys<V> {
    fn eq(&self, other: &Vec<Key<V>>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

/// A list of `f64` keys equals a channel holding the same values at either precision.
impl<V: KeyValue> PartialEq<Keys<V>> for Vec<Key<V>> {
    fn eq(&self, other: &Keys<V>) -> bool {
        other == self
    }
}

/// `f64` keys make a double-precision channel.
impl<V: KeyValue> FromIterator<Key<V>> for Keys<V> {
    fn from_iter<I: IntoIterator<Item = Key<V>>>(iter: I) -> Self {
        Self::Double(iter.into_iter().collect())
    }
}

impl From<Vec<Key<Vec3<f32>>>> for Keys<Vec3<f64>> {
    fn from(keys: Vec<Key<Vec3<f32>>>) -> Self {
        Self::Single(keys)
    }
}

impl From<Vec<Key<Vec3<f64>>>> for Keys<Vec3<f64>> {
    fn from(keys: Vec<Key<Vec3<f64>>>) -> Self {
        Self::Double(keys)
    }
}

impl From<Vec<Key<Quat<f32>>>> for Keys<Quat<f64>> {
    fn from(keys: Vec<Key<Quat<f32>>>) -> Self {
        Self::Single(keys)
    }
}

impl From<Vec<Key<Quat<f64>>>> for Keys<Quat<f64>> {
    fn from(keys: Vec<Key<Quat<f64>>>) -> Self {
        Self::Double(keys)
    }
}

impl<V: KeyValue> Keys<V> {
    /// The number of keys.
    pub fn len(&self) -> usize {
        match self {
            Self::Single(k) => k.len(),
            Self::Double(k) => k.len(),
        }
    }

    /// Whether the channel has no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The precision the values are held at.
    pub fn precision(&self) -> Precision {
        match self {
            Self::Single(_) => Precision::Single,
            Self::Double(_) => Precision::Double,
        }
    }

    /// The key at `index`, its value widened to `f64`.
    pub fn get(&self, index: usize) -> Option<Key<V>> {
        match self {
            Self::Single(k) => k.get(index).map(|k| Key::new(k.frame, V::from_narrow(k.value))),
            Self::Double(k) => k.get(index).copied(),
        }
    }

    /// The first key, widened.
    pub fn first(&self) -> Option<Key<V>> {
        self.get(0)
    }

    /// The last key, widened.
    pub fn last(&self) -> Option<Key<V>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The frame of the key at `index`.
    pub fn frame(&self, index: usize) -> Option<u32> {
        match self {
            Self::Single(k) => k.get(index).map(|k| k.frame),
            Self::Double(k) => k.get(index).map(|k| k.frame),
        }
    }

    /// The frames in order.
    pub fn frames(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.frame(i).unwrap_or_default())
    }

    /// The largest frame, `None` without keys.
    pub fn max_frame(&self) -> Option<u32> {
        match self {
            Self::Single(k) => k.iter().map(|k| k.frame).max(),
            Self::Double(k) => k.iter().map(|k| k.frame).max(),
        }
    }

    /// The keys in order, their values widened to `f64` (exactly, NaN payloads kept).
    pub fn iter(&self) -> KeysIter<'_, V> {
        KeysIter { keys: self, next: 0 }
    }

    /// The `f32` keys of a single-precision channel.
    pub fn as_single(&self) -> Option<&[Key<V::Narrow>]> {
        match self {
            Self::Single(k) => Some(k),
            Self::Double(_) => None,
        }
    }

    /// The `f64` keys of a double-precision channel.
    pub fn as_double(&self) -> Option<&[Key<V>]> {
        match self {
            Self::Double(k) => Some(k),
            Self::Single(_) => None,
        }
    }

    /// The keys as `f64` values to edit in place: a single-precision channel is widened
    /// first (exactly), and stays double precision.
    pub fn to_double_mut(&mut self) -> &mut Vec<Key<V>> {
        if let Self::Single(k) = self {
            *self = Self::Double(k.iter().map(|k| Key::new(k.frame, V::from_narrow(k.value))).collect());
        }
        match self {
            Self::Double(k) => k,
            Self::Single(_) => unreachable!("widened above"),
        }
    }

    /// The keys widened to `f64`.
    pub fn to_double(&self) -> Vec<Key<V>> {
        self.iter().collect()
    }

    /// The channel at `precision`, or `None` when a value does not survive it bit for bit
    /// (an `f64` that no `f32` equals). Widening always succeeds.
    pub fn to_precision(&self, precision: Precision) -> Option<Self> {
        match (self, precision) {
            (Self::Single(_), Precision::Single) | (Self::Double(_), Precision::Double) => Some(self.clone()),
            (Self::Single(_), Precision::Double) => Some(Self::Double(self.to_double())),
            (Self::Double(k), Precision::Single) => k
                .iter()
                .map(|k| Some(Key::new(k.frame, k.value.to_narrow_exact()?)))
                .collect::<Option<Vec<_>>>()
                .map(Self::Single),
        }
    }

    /// Whether every value survives single precision bit for bit.
    pub fn is_single_exact(&self) -> bool {
        match self {
            Self::Single(_) => true,
            Self::Double(k) => k.iter().all(|k| k.value.to_narrow_exact().is_some()),
        }
    }
}

impl<'a, V: KeyValue> IntoIterator for &'a Keys<V> {
    type Item = Key<V>;
    type IntoIter = KeysIter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// An iterator over the keys of a [`Keys`] channel, widened to `f64`.
#[derive(Debug, Clone)]
pub struct KeysIter<'a, V: KeyValue> {
    keys: &'a Keys<V>,
    next: usize,
}

impl<V: KeyValue> Iterator for KeysIter<'_, V> {
    type Item = Key<V>;
    fn next(&mut self) -> Option<Key<V>> {
        let key = self.keys.get(self.next)?;
        self.next += 1;
        Some(key)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.keys.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl<V: KeyValue> ExactSizeIterator for KeysIter<'_, V> {}

/// A channel is written as the list of its keys, each value at the channel's precision (an
/// `f32` channel's numbers are `f32`s' shortest texts).
impl<V: KeyValue> Serialize for Keys<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Single(k) => k.serialize(serializer),
            Self::Double(k) => k.serialize(serializer),
        }
    }
}

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

impl<'a, V: KeyValue> KeyRun<'a, V> {
    /// Takes `count` records of the given layout from `cursor`, with
    /// [`ViewCursor::slice`]'s checks and errors (`what` names the records).
    pub fn take(
        cursor: &mut ViewCursor<'a>,
        count: u64,
        frame: IndexWidth,
        precision: Precision,
        what: &str,
    ) -> Result<Self> {
        Ok(match (frame, precision) {
            (IndexWidth::U8, Precision::Single) => Self::U8Single(cursor.slice(count, what)?),
            (IndexWidth::U16, Precision::Single) => Self::U16Single(cursor.slice(count, what)?),
            (IndexWidth::U32, Precision::Single) => Self::U32Single(cursor.slice(count, what)?),
            (IndexWidth::U8, Precision::Double) => Self::U8Double(cursor.slice(count, what)?),
            (IndexWidth::U16, Precision::Double) => Self::U16Double(cursor.slice(count, what)?),
            (IndexWidth::U32, Precision::Double) => Self::U32Double(cursor.slice(count, what)?),
        })
    }

    /// Borrows `bytes` as records of the given layout; `None` unless `bytes` holds a whole
    /// number of records.
    pub fn from_bytes(bytes: &'a [u8], frame: IndexWidth, precision: Precision) -> Option<Self> {
        let size = record_size::<V>(frame, precision);
        let len = bytes.len() as u64;
        if len % size != 0 {
            return None;
        }
        let mut cursor = ViewCursor::new(FORMAT, bytes);
        Self::take(&mut cursor, len / size, frame, precision, "key").ok()
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

    /// The keys as an owned channel at the file's precision (`f32` values for a
    /// single-precision file), as [`crate::read`] holds them.
    pub fn to_keys(&self) -> Keys<V> {
        match *self {
            Self::U8Single(s) => Keys::Single(s.iter().map(|r| r.key(V::narrow_from_single)).collect()),
            Self::U16Single(s) => Keys::Single(s.iter().map(|r| r.key(V::narrow_from_single)).collect()),
            Self::U32Single(s) => Keys::Single(s.iter().map(|r| r.key(V::narrow_from_single)).collect()),
            Self::U8Double(_) | Self::U16Double(_) | Self::U32Double(_) => Keys::Double(self.to_vec()),
        }
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

/// Reads a key run's records (the count has been read) at the file's precision, with one
/// bounds check, then plain copies in cache-sized chunks, each decoded in one tight loop.
pub(crate) fn read_run<V: KeyValue, R: Read + Seek>(
    reader: &mut R,
    count: u32,
    frame: IndexWidth,
    precision: Precision,
    what: &str,
) -> BinResult<Keys<V>> {
    Ok(match (frame, precision) {
        (IndexWidth::U8, Precision::Single) => Keys::Single(decode::<u8, V::Single, _, _>(
            reader,
            count,
            what,
            V::narrow_from_single,
        )?),
        (IndexWidth::U16, Precision::Single) => Keys::Single(decode::<U16, V::Single, _, _>(
            reader,
            count,
            what,
            V::narrow_from_single,
        )?),
        (IndexWidth::U32, Precision::Single) => Keys::Single(decode::<U32, V::Single, _, _>(
            reader,
            count,
            what,
            V::narrow_from_single,
        )?),
        (IndexWidth::U8, Precision::Double) => {
            Keys::Double(decode::<u8, V::Double, _, _>(reader, count, what, V::from_double)?)
        }
        (IndexWidth::U16, Precision::Double) => {
            Keys::Double(decode::<U16, V::Double, _, _>(reader, count, what, V::from_double)?)
        }
        (IndexWidth::U32, Precision::Double) => {
            Keys::Double(decode::<U32, V::Double, _, _>(reader, count, what, V::from_double)?)
        }
    })
}

/// Reads `count` records of one layout, turning each value into `T` with `conv`.
fn decode<F, S, T, R>(reader: &mut R, count: u32, what: &str, conv: impl Fn(S) -> T) -> BinResult<Vec<Key<T>>>
where
    F: IndexField,
    S: FromBytes + KnownLayout + Immutable + Unaligned + Copy,
    R: Read + Seek,
{
    let size = size_of::<KeyRecord<F, S>>();
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
        let records = <[KeyRecord<F, S>]>::ref_from_bytes(bytes)
            .map_err(|_| ErrorKind::invalid(format!("whole {what} records"), "a partial record").at(pos))?;
        keys.extend(records.iter().map(|r| Key::new(r.frame.get(), conv(r.value))));
        left -= n;
    }
    Ok(keys)
}

/// How many records [`write_run`] encodes before handing them to the writer.
const WRITE_CHUNK: usize = 1024;

/// Writes a key run's records (not its count) in bulk at the file's precision, refusing a
/// frame that does not fit `frame_t` or an `f64` value that does not fit single precision
/// (`f32` values widen exactly).
pub(crate) fn write_run<V: KeyValue, W: Write + Seek>(
    writer: &mut W,
    keys: &Keys<V>,
    frame: IndexWidth,
    precision: Precision,
    what: &str,
) -> BinResult<()> {
    let widen = |v: V::Narrow| Some(V::from_narrow(v).to_double());
    let single = |v: V::Narrow| Some(V::narrow_to_single(v));
    let double = |v: V| Some(V::to_double(v));
    match (keys, frame, precision) {
        (Keys::Single(k), IndexWidth::U8, Precision::Single) => encode::<u8, _, _, _>(writer, k, single, what),
        (Keys::Single(k), IndexWidth::U16, Precision::Single) => encode::<U16, _, _, _>(writer, k, single, what),
        (Keys::Single(k), IndexWidth::U32, Precision::Single) => encode::<U32, _, _, _>(writer, k, single, what),
        (Keys::Single(k), IndexWidth::U8, Precision::Double) => encode::<u8, _, _, _>(writer, k, widen, what),
        (Keys::Single(k), IndexWidth::U16, Precision::Double) => encode::<U16, _, _, _>(writer, k, widen, what),
        (Keys::Single(k), IndexWidth::U32, Precision::Double) => encode::<U32, _, _, _>(writer, k, widen, what),
        (Keys::Double(k), IndexWidth::U8, Precision::Single) => encode::<u8, _, _, _>(writer, k, V::to_single, what),
        (Keys::Double(k), IndexWidth::U16, Precision::Single) => encode::<U16, _, _, _>(writer, k, V::to_single, what),
        (Keys::Double(k), IndexWidth::U32, Precision::Single) => encode::<U32, _, _, _>(writer, k, V::to_single, what),
        (Keys::Double(k), IndexWidth::U8, Precision::Double) => encode::<u8, _, _, _>(writer, k, double, what),
        (Keys::Double(k), IndexWidth::U16, Precision::Double) => encode::<U16, _, _, _>(writer, k, double, what),
        (Keys::Double(k), IndexWidth::U32, Precision::Double) => encode::<U32, _, _, _>(writer, k, double, what),
    }
}

fn encode<F, S, V, W>(writer: &mut W, keys: &[Key<V>], conv: impl Fn(V) -> Option<S>, what: &str) -> BinResult<()>
where
    F: IndexField,
    S: IntoBytes + Immutable + Unaligned + Copy,
    V: Copy + fmt::Debug,
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
