//! A channel's keys, held at the narrowest precision that keeps them exactly.
//!
//! Most files store single-precision keys (SEAnim without its high-precision flag, Cast, AnimX,
//! x8an's translations), and a scene that widened every key to `f64` held twice what the file
//! did. [`Keys`] stores frames and values as `f32` for as long as every key pushed is exactly
//! an `f32`, and widens the whole channel to `f64` the first time one is not. Reading never
//! rounds: every key comes back as the `f64` it was pushed as, bit for bit.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Key, Precision};
use crate::math::{Quat, Vec3};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for crate::math::Vec3<f64> {}
    impl Sealed for crate::math::Quat<f64> {}
}

/// A value a key holds (`f64`, `Vec3<f64>`, `Quat<f64>`), with the single-precision form it is
/// stored in when every component is exactly an `f32`.
pub trait KeyValue: Copy + PartialEq + fmt::Debug + sealed::Sealed {
    /// The value with `f32` components.
    type Single: Copy + PartialEq + fmt::Debug;

    /// The value as `f32`s, when that keeps it bit for bit.
    fn narrow(self) -> Option<Self::Single>;

    /// The value as `f64`s (exact).
    fn widen(single: Self::Single) -> Self;
}

/// `x` as an `f32` when [`widen_scalar`] gives `x` back bit for bit. A NaN narrows when its
/// payload fits an `f32`'s (the low 29 bits clear), with its quiet bit as it is: `as` casts
/// may set that bit, so NaNs are moved by their bits.
fn narrow_scalar(x: f64) -> Option<f32> {
    if x.is_nan() {
        let bits = x.to_bits();
        if bits & ((1 << 29) - 1) != 0 {
            return None;
        }
        let sign = ((bits >> 32) & 0x8000_0000) as u32;
        let payload = ((bits >> 29) & 0x007F_FFFF) as u32;
        return Some(f32::from_bits(sign | 0x7F80_0000 | payload));
    }
    let single = x as f32;
    (f64::from(single).to_bits() == x.to_bits()).then_some(single)
}

/// `x` as an `f64`, exactly; NaN payloads (and a signalling NaN's clear quiet bit) kept.
fn widen_scalar(x: f32) -> f64 {
    if x.is_nan() {
        let bits = u64::from(x.to_bits());
        let sign = (bits & 0x8000_0000) << 32;
        let payload = (bits & 0x007F_FFFF) << 29;
        f64::from_bits(sign | 0x7FF0_0000_0000_0000 | payload)
    } else {
        f64::from(x)
    }
}

impl KeyValue for f64 {
    type Single = f32;

    fn narrow(self) -> Option<f32> {
        narrow_scalar(self)
    }

    fn widen(single: f32) -> Self {
        widen_scalar(single)
    }
}

impl KeyValue for Vec3<f64> {
    type Single = Vec3<f32>;

    fn narrow(self) -> Option<Vec3<f32>> {
        Some(Vec3::new(
            narrow_scalar(self.x)?,
            narrow_scalar(self.y)?,
            narrow_scalar(self.z)?,
        ))
    }

    fn widen(single: Vec3<f32>) -> Self {
        single.map(widen_scalar)
    }
}

impl KeyValue for Quat<f64> {
    type Single = Quat<f32>;

    fn narrow(self) -> Option<Quat<f32>> {
        Some(Quat::new(
            narrow_scalar(self.x)?,
            narrow_scalar(self.y)?,
            narrow_scalar(self.z)?,
            narrow_scalar(self.w)?,
        ))
    }

    fn widen(single: Quat<f32>) -> Self {
        single.map(widen_scalar)
    }
}

/// The keys of one channel, in the order they were pushed (a channel's keys are usually in
/// frame order, but nothing here requires it).
///
/// Frames and values are two arrays, `f32` while every key is exactly an `f32` and `f64`
/// from the first that is not; [`Keys::slices`] shows them as they are held, and everything
/// else reads keys as [`Key`]s of `f64`, exactly as they were pushed. Two channels are equal
/// when their keys are, whatever precision each is held at.
///
/// ```
/// use animbin_core::math::Vec3;
/// use animbin_core::scene::{Key, KeySlices, Keys, Precision};
///
/// let mut keys: Keys<Vec3<f64>> = [Key::new(0.0, Vec3::new(1.0, 2.0, 0.5))].into_iter().collect();
/// assert_eq!(keys.precision(), Precision::Single);
///
/// // 0.1 is not an f32: the channel widens, and every key reads back as pushed.
/// keys.push(Key::new(1.0, Vec3::new(0.1, 0.0, 0.0)));
/// assert_eq!(keys.precision(), Precision::Double);
/// assert_eq!(keys.get(1), Some(Key::new(1.0, Vec3::new(0.1, 0.0, 0.0))));
/// assert!(matches!(keys.slices(), KeySlices::Double { frames: [0.0, 1.0], .. }));
/// ```
#[derive(Clone)]
pub struct Keys<T: KeyValue> {
    held: Held<T>,
}

/// How a [`Keys`] holds its keys; frames and values always have the same length.
#[derive(Clone)]
enum Held<T: KeyValue> {
    Single { frames: Vec<f32>, values: Vec<T::Single> },
    Double { frames: Vec<f64>, values: Vec<T> },
}

/// The frames and values of a [`Keys`] as it holds them (see [`Keys::slices`]).
#[derive(Debug, Clone, Copy)]
pub enum KeySlices<'a, T: KeyValue> {
    /// Every key is exactly an `f32`.
    Single {
        /// The frames, one per key.
        frames: &'a [f32],
        /// The values, one per key.
        values: &'a [T::Single],
    },
    /// At least one key is not exactly an `f32`.
    Double {
        /// The frames, one per key.
        frames: &'a [f64],
        /// The values, one per key.
        values: &'a [T],
    },
}

impl<T: KeyValue> Default for Keys<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: KeyValue> Keys<T> {
    /// No keys.
    pub const fn new() -> Self {
        Self {
            held: Held::Single {
                frames: Vec::new(),
                values: Vec::new(),
            },
        }
    }

    /// No keys, with room for `capacity` single-precision keys.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            held: Held::Single {
                frames: Vec::with_capacity(capacity),
                values: Vec::with_capacity(capacity),
            },
        }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        match &self.held {
            Held::Single { frames, .. } => frames.len(),
            Held::Double { frames, .. } => frames.len(),
        }
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The precision the keys are held at: single while every key is exactly an `f32`.
    pub fn precision(&self) -> Precision {
        match self.held {
            Held::Single { .. } => Precision::Single,
            Held::Double { .. } => Precision::Double,
        }
    }

    /// Appends `key`, widening the channel to `f64` if `key` is not exactly an `f32`.
    pub fn push(&mut self, key: Key<T>) {
        if let Held::Single { frames, values } = &mut self.held {
            if let (Some(frame), Some(value)) = (narrow_scalar(key.frame), key.value.narrow()) {
                frames.push(frame);
                values.push(value);
                return;
            }
            self.widen();
        }
        let Held::Double { frames, values } = &mut self.held else {
            unreachable!("widened above")
        };
        frames.push(key.frame);
        values.push(key.value);
    }

    /// Appends a key of `f32` frame and value (a single-precision file's own key).
    pub fn push_single(&mut self, frame: f32, value: T::Single) {
        match &mut self.held {
            Held::Single { frames, values } => {
                frames.push(frame);
                values.push(value);
            }
            Held::Double { frames, values } => {
                frames.push(widen_scalar(frame));
                values.push(T::widen(value));
            }
        }
    }

    /// Holds every key as `f64` from now on.
    fn widen(&mut self) {
        if let Held::Single { frames, values } = &mut self.held {
            let frames = std::mem::take(frames).into_iter().map(widen_scalar).collect();
            let values = std::mem::take(values).into_iter().map(T::widen).collect();
            self.held = Held::Double { frames, values };
        }
    }

    /// The key at `index`.
    pub fn get(&self, index: usize) -> Option<Key<T>> {
        match &self.held {
            Held::Single { frames, values } => Some(Key::new(
                widen_scalar(*frames.get(index)?),
                T::widen(*values.get(index)?),
            )),
            Held::Double { frames, values } => Some(Key::new(*frames.get(index)?, *values.get(index)?)),
        }
    }

    /// The first key.
    pub fn first(&self) -> Option<Key<T>> {
        self.get(0)
    }

    /// The last key.
    pub fn last(&self) -> Option<Key<T>> {
        self.get(self.len().checked_sub(1)?)
    }

    /// The frame of the key at `index`.
    pub fn frame(&self, index: usize) -> Option<f64> {
        match &self.held {
            Held::Single { frames, .. } => frames.get(index).map(|&f| widen_scalar(f)),
            Held::Double { frames, .. } => frames.get(index).copied(),
        }
    }

    /// The keys in order.
    pub fn iter(&self) -> KeysIter<'_, T> {
        KeysIter {
            keys: self,
            front: 0,
            back: self.len(),
        }
    }

    /// The frames in key order.
    pub fn frames(&self) -> impl ExactSizeIterator<Item = f64> + DoubleEndedIterator + '_ {
        (0..self.len()).map(|i| match &self.held {
            Held::Single { frames, .. } => widen_scalar(frames[i]),
            Held::Double { frames, .. } => frames[i],
        })
    }

    /// The frames and values as they are held, for readers that take `f32` keys as they are.
    pub fn slices(&self) -> KeySlices<'_, T> {
        match &self.held {
            Held::Single { frames, values } => KeySlices::Single { frames, values },
            Held::Double { frames, values } => KeySlices::Double { frames, values },
        }
    }

    /// The keys as a vector of `f64` keys.
    pub fn to_vec(&self) -> Vec<Key<T>> {
        self.iter().collect()
    }

    /// Replaces every key with what `f` makes of it, keeping the channel single where the
    /// results allow.
    pub fn map_keys(&mut self, f: impl FnMut(Key<T>) -> Key<T>) {
        *self = self.iter().map(f).collect();
    }

    /// Replaces every value with what `f` makes of it, at the same frames.
    pub fn map_values(&mut self, mut f: impl FnMut(T) -> T) {
        self.map_keys(|key| Key::new(key.frame, f(key.value)));
    }

    /// Removes every key; the channel is single again.
    pub fn clear(&mut self) {
        *self = Self::new();
    }
}

/// The keys of a [`Keys`], as `f64` [`Key`]s.
#[derive(Clone)]
pub struct KeysIter<'a, T: KeyValue> {
    keys: &'a Keys<T>,
    front: usize,
    back: usize,
}

impl<T: KeyValue> Iterator for KeysIter<'_, T> {
    type Item = Key<T>;

    fn next(&mut self) -> Option<Key<T>> {
        if self.front == self.back {
            return None;
        }
        let key = self.keys.get(self.front);
        self.front += 1;
        key
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.back - self.front;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<Key<T>> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl<T: KeyValue> DoubleEndedIterator for KeysIter<'_, T> {
    fn next_back(&mut self) -> Option<Key<T>> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        self.keys.get(self.back)
    }
}

impl<T: KeyValue> ExactSizeIterator for KeysIter<'_, T> {}

impl<'a, T: KeyValue> IntoIterator for &'a Keys<T> {
    type Item = Key<T>;
    type IntoIter = KeysIter<'a, T>;

    fn into_iter(self) -> KeysIter<'a, T> {
        self.iter()
    }
}

impl<T: KeyValue> FromIterator<Key<T>> for Keys<T> {
    fn from_iter<I: IntoIterator<Item = Key<T>>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut keys = Self::with_capacity(iter.size_hint().0);
        keys.extend(iter);
        keys
    }
}

impl<T: KeyValue> Extend<Key<T>> for Keys<T> {
    fn extend<I: IntoIterator<Item = Key<T>>>(&mut self, iter: I) {
        for key in iter {
            self.push(key);
        }
    }
}

impl<T: KeyValue> From<Vec<Key<T>>> for Keys<T> {
    fn from(keys: Vec<Key<T>>) -> Self {
        keys.into_iter().collect()
    }
}

impl<T: KeyValue, const N: usize> From<[Key<T>; N]> for Keys<T> {
    fn from(keys: [Key<T>; N]) -> Self {
        keys.into_iter().collect()
    }
}

impl<T: KeyValue> PartialEq for Keys<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.held, &other.held) {
            // Widening is exact, so f32 equality is the f64 equality of the keys read.
            (Held::Single { frames: fa, values: va }, Held::Single { frames: fb, values: vb }) => fa == fb && va == vb,
            _ => self.len() == other.len() && self.iter().eq(other.iter()),
        }
    }
}

impl<T: KeyValue> PartialEq<[Key<T>]> for Keys<T> {
    fn eq(&self, other: &[Key<T>]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl<T: KeyValue> PartialEq<Vec<Key<T>>> for Keys<T> {
    fn eq(&self, other: &Vec<Key<T>>) -> bool {
        *self == other[..]
    }
}

impl<T: KeyValue, const N: usize> PartialEq<[Key<T>; N]> for Keys<T> {
    fn eq(&self, other: &[Key<T>; N]) -> bool {
        *self == other[..]
    }
}

impl<T: KeyValue> fmt::Debug for Keys<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: KeyValue + Serialize> Serialize for Keys<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: KeyValue + Deserialize<'de>> Deserialize<'de> for Keys<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<Key<T>>::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64) -> Vec3<f64> {
        Vec3::new(x, -x, 0.5)
    }

    #[test]
    fn single_keys_stay_single_and_read_back_as_pushed() {
        let pushed: Vec<Key<Vec3<f64>>> = (0..5).map(|i| Key::new(f64::from(i), v(f64::from(i) * 0.25))).collect();
        let keys = Keys::from(pushed.clone());
        assert_eq!(keys.precision(), Precision::Single);
        assert_eq!(keys.to_vec(), pushed);
        assert_eq!(
            keys.iter().rev().collect::<Vec<_>>(),
            pushed.iter().rev().copied().collect::<Vec<_>>()
        );
        assert_eq!(keys.frames().collect::<Vec<_>>(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(keys.last(), pushed.last().copied());
        assert_eq!(keys.get(5), None);
        assert_eq!(keys.iter().nth(3), Some(pushed[3]));
    }

    #[test]
    fn one_wide_key_widens_the_channel_without_rounding_any() {
        let mut keys = Keys::new();
        keys.push(Key::new(0.0, v(1.0)));
        keys.push(Key::new(0.5, v(0.1)));
        keys.push(Key::new(16_777_217.0, v(2.0)));
        assert_eq!(keys.precision(), Precision::Double);
        assert_eq!(
            keys.to_vec(),
            vec![
                Key::new(0.0, v(1.0)),
                Key::new(0.5, v(0.1)),
                Key::new(16_777_217.0, v(2.0))
            ]
        );
        // A frame past 2^24 alone widens too.
        let frame_only: Keys<f64> = [Key::new(16_777_217.0, 1.0)].into();
        assert_eq!(frame_only.precision(), Precision::Double);
        keys.push_single(3.0, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(keys.last(), Some(Key::new(3.0, Vec3::new(1.0, 2.0, 3.0))));
    }

    #[test]
    fn nan_payloads_and_signed_zeros_are_kept_bit_for_bit() {
        let payload = f64::from_bits(0x7ff8_0000_2000_0000);
        let signalling = f64::from_bits(0xfff0_0000_2000_0000);
        let odd_payload = f64::from_bits(0x7ff8_0000_0000_0001);
        for x in [payload, signalling, odd_payload, -0.0, f64::INFINITY, f64::MIN_POSITIVE] {
            let keys: Keys<f64> = [Key::new(-0.0, x)].into();
            let back = keys.get(0).unwrap();
            assert_eq!(back.value.to_bits(), x.to_bits());
            assert_eq!(back.frame.to_bits(), (-0.0f64).to_bits());
        }
        let held = |x: f64| Keys::from([Key::new(0.0, x)]).precision();
        assert_eq!(held(signalling), Precision::Single);
        let keys = Keys::<f64>::from([Key::new(0.0, signalling)]);
        let KeySlices::Single { values, .. } = keys.slices() else {
            panic!("held single")
        };
        assert_eq!(values[0].to_bits(), 0xff80_0001, "a signalling NaN stays signalling");
        // f64::MIN_POSITIVE and the odd payload are not f32s.
        assert_eq!(held(f64::MIN_POSITIVE), Precision::Double);
        assert_eq!(held(odd_payload), Precision::Double);
    }

    #[test]
    fn equality_is_of_the_keys_whatever_the_precision() {
        let single: Keys<Quat<f64>> = [Key::new(1.0, Quat::new(0.0, 0.0, 0.0, 1.0))].into();
        let mut double = Keys::new();
        double.push(Key::new(0.5, Quat::new(0.1, 0.0, 0.0, 1.0)));
        double.clear();
        assert_eq!(double, Keys::new());
        double.push(Key::new(0.1, Quat::new(0.0, 0.0, 0.0, 1.0)));
        double.map_keys(|k| Key::new(1.0, k.value));
        assert_eq!(double.precision(), Precision::Single);
        assert_eq!(single, double);
        let mut other = single.clone();
        other.push(Key::new(0.1, Quat::new(0.0, 0.0, 0.0, 1.0)));
        assert_ne!(single, other);
        let nan: Keys<f64> = [Key::new(0.0, f64::NAN)].into();
        assert_ne!(nan, nan.clone(), "NaN keys compare as the f64 keys do");
    }

    #[test]
    fn serde_form_is_a_list_of_keys() {
        let keys: Keys<f64> = [Key::new(0.0, 1.5), Key::new(2.0, 0.1)].into();
        let json = serde_json::to_string(&keys).unwrap();
        assert_eq!(json, serde_json::to_string(&keys.to_vec()).unwrap());
        let back: Keys<f64> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, keys);
    }
}
