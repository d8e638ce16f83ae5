//! A channel's keys, held at the narrowest precision that keeps them exactly.
//!
//! Most files store single-precision keys (SEAnim without its high-precision flag, Cast, AnimX,
//! x8an's translations), and a scene that widened every key to `f64` held twice what the file
//! did. [`Keys`] stores its frames and its values each as `f32`s for as long as every one
//! pushed is exactly an `f32`, and widens that array to `f64` the first time one is not.
//! Reading never rounds: every key comes back as the `f64` it was pushed as, bit for bit.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Key, Precision};
use crate::float::widen_exact;
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

/// `x` as an `f32` when [`widen_exact`] gives `x` back bit for bit. A NaN narrows when its
/// payload fits an `f32`'s (the low 29 bits clear), with its quiet bit as it is: `as` casts
/// may set that bit, so NaNs are moved by their bits.
#[inline]
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

impl KeyValue for f64 {
    type Single = f32;

    #[inline]
    fn narrow(self) -> Option<f32> {
        narrow_scalar(self)
    }

    #[inline]
    fn widen(single: f32) -> Self {
        widen_exact(single)
    }
}

impl KeyValue for Vec3<f64> {
    type Single = Vec3<f32>;

    #[inline]
    fn narrow(self) -> Option<Vec3<f32>> {
        Some(Vec3::new(
            narrow_scalar(self.x)?,
            narrow_scalar(self.y)?,
            narrow_scalar(self.z)?,
        ))
    }

    #[inline]
    fn widen(single: Vec3<f32>) -> Self {
        single.map(widen_exact)
    }
}

impl KeyValue for Quat<f64> {
    type Single = Quat<f32>;

    #[inline]
    fn narrow(self) -> Option<Quat<f32>> {
        Some(Quat::new(
            narrow_scalar(self.x)?,
            narrow_scalar(self.y)?,
            narrow_scalar(self.z)?,
            narrow_scalar(self.w)?,
        ))
    }

    #[inline]
    fn widen(single: Quat<f32>) -> Self {
        single.map(widen_exact)
    }
}

/// One array of a [`Keys`]: `f32`s while every element pushed is exactly an `f32`, `f64`s
/// from the first that is not.
#[derive(Clone)]
enum Column<T: KeyValue> {
    Single(Vec<T::Single>),
    Double(Vec<T>),
}

impl<T: KeyValue> Column<T> {
    fn with_capacity(capacity: usize) -> Self {
        Self::Single(Vec::with_capacity(capacity))
    }

    /// A column of `first` with room for `capacity` elements, single or double as `first`
    /// is: the first element usually tells, and a column that widens allocates twice.
    fn starting_with(first: T, capacity: usize) -> Self {
        match first.narrow() {
            Some(single) => {
                let mut v = Vec::with_capacity(capacity);
                v.push(single);
                Self::Single(v)
            }
            None => {
                let mut v = Vec::with_capacity(capacity);
                v.push(first);
                Self::Double(v)
            }
        }
    }

    /// A column of `values`, single while each is exactly an `f32` (room for `capacity`).
    fn collected(values: impl IntoIterator<Item = T>, capacity: usize) -> Self {
        let mut values = values.into_iter();
        let Some(first) = values.next() else {
            return Self::with_capacity(0);
        };
        let mut column = Self::starting_with(first, capacity.max(1));
        for value in values {
            column.push(value);
        }
        column
    }

    fn len(&self) -> usize {
        match self {
            Self::Single(v) => v.len(),
            Self::Double(v) => v.len(),
        }
    }

    #[inline]
    fn get(&self, index: usize) -> Option<T> {
        match self {
            Self::Single(v) => v.get(index).map(|&s| T::widen(s)),
            Self::Double(v) => v.get(index).copied(),
        }
    }

    #[inline]
    fn push(&mut self, value: T) {
        match self {
            Self::Single(v) => match value.narrow() {
                Some(single) => v.push(single),
                None => {
                    let mut wide: Vec<T> = Vec::with_capacity(v.capacity().max(v.len() + 1));
                    wide.extend(v.iter().map(|&s| T::widen(s)));
                    wide.push(value);
                    *self = Self::Double(wide);
                }
            },
            Self::Double(v) => v.push(value),
        }
    }

    #[inline]
    fn push_single(&mut self, value: T::Single) {
        match self {
            Self::Single(v) => v.push(value),
            Self::Double(v) => v.push(T::widen(value)),
        }
    }

    fn precision(&self) -> Precision {
        match self {
            Self::Single(_) => Precision::Single,
            Self::Double(_) => Precision::Double,
        }
    }

    fn slice(&self) -> KeyColumn<'_, T> {
        match self {
            Self::Single(v) => KeyColumn::Single(v),
            Self::Double(v) => KeyColumn::Double(v),
        }
    }

    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            // Widening is exact, so f32 equality is the f64 equality of the elements read.
            (Self::Single(a), Self::Single(b)) => a == b,
            (Self::Double(a), Self::Double(b)) => a == b,
            _ => self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i)),
        }
    }
}

/// The keys of one channel, in the order they were pushed (a channel's keys are usually in
/// frame order, but nothing here requires it).
///
/// Frames and values are two arrays, each of `f32`s while every element pushed is exactly an
/// `f32` and of `f64`s from the first that is not (or as a double-precision file gave them,
/// [`Keys::from_double`]): a single-precision file's values stay
/// `f32` even where its times become frames an `f32` cannot hold (AnimX's seconds, glTF's).
/// [`Keys::slices`] shows the arrays as they are held; everything else reads keys as
/// [`Key`]s of `f64`, exactly as they were pushed. Two channels are equal when their keys
/// are, whatever precision each is held at.
///
/// ```
/// use animbin_core::math::Vec3;
/// use animbin_core::scene::{Key, KeyColumn, Keys, Precision};
///
/// let mut keys: Keys<Vec3<f64>> = [Key::new(0.0, Vec3::new(1.0, 2.0, 0.5))].into_iter().collect();
/// assert_eq!(keys.precision(), Precision::Single);
///
/// // 0.1 is not an f32: the values widen, and every key reads back as pushed.
/// keys.push(Key::new(1.0, Vec3::new(0.1, 0.0, 0.0)));
/// assert_eq!(keys.precision(), Precision::Double);
/// assert_eq!(keys.get(1), Some(Key::new(1.0, Vec3::new(0.1, 0.0, 0.0))));
/// // The frames are still f32s.
/// assert!(matches!(keys.slices().frames, KeyColumn::Single([0.0, 1.0])));
/// ```
#[derive(Clone)]
pub struct Keys<T: KeyValue> {
    /// As long as `values`.
    frames: Column<f64>,
    values: Column<T>,
}

/// One array of a [`Keys`] as it is held (see [`Keys::slices`]).
#[derive(Debug, Clone, Copy)]
pub enum KeyColumn<'a, T: KeyValue> {
    /// Every element is exactly an `f32`.
    Single(&'a [T::Single]),
    /// At least one element is not exactly an `f32`.
    Double(&'a [T]),
}

/// The frames and values of a [`Keys`] as it holds them (see [`Keys::slices`]).
#[derive(Debug, Clone, Copy)]
pub struct KeySlices<'a, T: KeyValue> {
    /// The frames, one per key.
    pub frames: KeyColumn<'a, f64>,
    /// The values, one per key.
    pub values: KeyColumn<'a, T>,
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
            frames: Column::Single(Vec::new()),
            values: Column::Single(Vec::new()),
        }
    }

    /// No keys, with room for `capacity` single-precision keys.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            frames: Column::with_capacity(capacity),
            values: Column::with_capacity(capacity),
        }
    }

    /// Keys of `f32` frames and values, as a single-precision file holds them (no copy), or
    /// `None` when the two arrays differ in length.
    pub fn from_single(frames: Vec<f32>, values: Vec<T::Single>) -> Option<Self> {
        (frames.len() == values.len()).then_some(Self {
            frames: Column::Single(frames),
            values: Column::Single(values),
        })
    }

    /// Keys of `f64` frames and values held as given (a double-precision file's), or `None`
    /// when the two arrays differ in length. Values that happen to be `f32`s stay `f64`s here:
    /// the file said double.
    pub fn from_double(frames: Vec<f64>, values: Vec<T>) -> Option<Self> {
        (frames.len() == values.len()).then_some(Self {
            frames: Column::Double(frames),
            values: Column::Double(values),
        })
    }

    /// Keys of `frames` beside `f32` values (moved, not copied), or `None` when the two differ
    /// in length. The frames are held as pushed ones are: single while each is exactly an
    /// `f32`. This is the shape of a file that counts `f32` seconds (AnimX): its values are
    /// as stored, its times become frames that an `f32` may not hold.
    pub fn from_single_values(frames: impl IntoIterator<Item = f64>, values: Vec<T::Single>) -> Option<Self> {
        let frames = Column::collected(frames, values.len());
        (frames.len() == values.len()).then_some(Self {
            frames,
            values: Column::Single(values),
        })
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The precision the values are held at: single while every value is exactly an `f32`.
    pub fn precision(&self) -> Precision {
        self.values.precision()
    }

    /// The precision the frames are held at: single while every frame is exactly an `f32`.
    pub fn frame_precision(&self) -> Precision {
        self.frames.precision()
    }

    /// Appends `key`, widening the frames or the values to `f64` if its frame or value is not
    /// exactly an `f32`.
    #[inline]
    pub fn push(&mut self, key: Key<T>) {
        self.frames.push(key.frame);
        self.values.push(key.value);
    }

    /// Appends a key of `f32` frame and value (a single-precision file's own key).
    #[inline]
    pub fn push_single(&mut self, frame: f32, value: T::Single) {
        self.frames.push_single(frame);
        self.values.push_single(value);
    }

    /// Appends a key of an `f32` value (a single-precision file's) at `frame`.
    pub fn push_single_value(&mut self, frame: f64, value: T::Single) {
        self.frames.push(frame);
        self.values.push_single(value);
    }

    /// The key at `index`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<Key<T>> {
        Some(Key::new(self.frames.get(index)?, self.values.get(index)?))
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
        self.frames.get(index)
    }

    /// The keys in order.
    pub fn iter(&self) -> KeysIter<'_, T> {
        KeysIter {
            frames: self.frames.iter(),
            values: self.values.iter(),
        }
    }

    /// The frames in key order.
    pub fn frames(&self) -> impl ExactSizeIterator<Item = f64> + DoubleEndedIterator + Clone + '_ {
        self.frames.iter()
    }

    /// The values in key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = T> + DoubleEndedIterator + Clone + '_ {
        self.values.iter()
    }

    /// The frames and values as they are held, for readers that take `f32` keys as they are.
    pub fn slices(&self) -> KeySlices<'_, T> {
        KeySlices {
            frames: self.frames.slice(),
            values: self.values.slice(),
        }
    }

    /// The keys as a vector of `f64` keys.
    pub fn to_vec(&self) -> Vec<Key<T>> {
        self.iter().collect()
    }

    /// Replaces every key with what `f` makes of it, keeping single what the results allow.
    pub fn map_keys(&mut self, f: impl FnMut(Key<T>) -> Key<T>) {
        *self = self.iter().map(f).collect();
    }

    /// Replaces every value with what `f` makes of it, at the same frames.
    pub fn map_values(&mut self, mut f: impl FnMut(T) -> T) {
        let mut old = self.values.iter();
        let Some(first) = old.next() else {
            return;
        };
        let mut values = Column::starting_with(f(first), self.len());
        for value in old {
            values.push(f(value));
        }
        self.values = values;
    }

    /// Removes every key; both arrays are single again.
    pub fn clear(&mut self) {
        *self = Self::new();
    }
}

/// The elements of a [`Column`], as `f64`s.
#[derive(Clone)]
enum ColumnIter<'a, T: KeyValue> {
    Single(std::slice::Iter<'a, T::Single>),
    Double(std::slice::Iter<'a, T>),
}

impl<T: KeyValue> Iterator for ColumnIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        match self {
            Self::Single(it) => it.next().map(|&s| T::widen(s)),
            Self::Double(it) => it.next().copied(),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Self::Single(it) => it.size_hint(),
            Self::Double(it) => it.size_hint(),
        }
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<T> {
        match self {
            Self::Single(it) => it.nth(n).map(|&s| T::widen(s)),
            Self::Double(it) => it.nth(n).copied(),
        }
    }
}

impl<T: KeyValue> DoubleEndedIterator for ColumnIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        match self {
            Self::Single(it) => it.next_back().map(|&s| T::widen(s)),
            Self::Double(it) => it.next_back().copied(),
        }
    }
}

impl<T: KeyValue> ExactSizeIterator for ColumnIter<'_, T> {}

impl<T: KeyValue> Column<T> {
    #[inline]
    fn iter(&self) -> ColumnIter<'_, T> {
        match self {
            Self::Single(v) => ColumnIter::Single(v.iter()),
            Self::Double(v) => ColumnIter::Double(v.iter()),
        }
    }
}

/// The keys of a [`Keys`], as `f64` [`Key`]s.
#[derive(Clone)]
pub struct KeysIter<'a, T: KeyValue> {
    frames: ColumnIter<'a, f64>,
    values: ColumnIter<'a, T>,
}

impl<T: KeyValue> Iterator for KeysIter<'_, T> {
    type Item = Key<T>;

    #[inline]
    fn next(&mut self) -> Option<Key<T>> {
        Some(Key::new(self.frames.next()?, self.values.next()?))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.frames.size_hint()
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<Key<T>> {
        Some(Key::new(self.frames.nth(n)?, self.values.nth(n)?))
    }
}

impl<T: KeyValue> DoubleEndedIterator for KeysIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<Key<T>> {
        Some(Key::new(self.frames.next_back()?, self.values.next_back()?))
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
        let mut iter = iter.into_iter();
        let Some(first) = iter.next() else {
            return Self::new();
        };
        let capacity = iter.size_hint().0.saturating_add(1);
        let mut keys = Self {
            frames: Column::starting_with(first.frame, capacity),
            values: Column::starting_with(first.value, capacity),
        };
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
        self.frames.eq(&other.frames) && self.values.eq(&other.values)
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
        let frames = vec![0.0, 1.0, 2.0, 3.0, 4.0];
        let values = (0..5)
            .map(|i| Vec3::new(i as f32 * 0.25, -(i as f32) * 0.25, 0.5))
            .collect::<Vec<_>>();
        assert_eq!(Keys::from_single(frames.clone(), values.clone()).as_ref(), Some(&keys));
        assert!(Keys::<Vec3<f64>>::from_single(frames, values[1..].to_vec()).is_none());
        let double = Keys::from_double(keys.frames().collect(), keys.values().collect()).unwrap();
        assert_eq!(
            (double.precision(), double.frame_precision()),
            (Precision::Double, Precision::Double)
        );
        assert_eq!(double, keys);
        assert!(Keys::<f64>::from_double(vec![1.0], vec![]).is_none());
        let seconds = Keys::from_single_values(keys.frames(), values.clone()).unwrap();
        assert_eq!(
            (seconds.precision(), seconds.frame_precision()),
            (Precision::Single, Precision::Single)
        );
        assert_eq!(seconds, keys);
        let thirds = keys.frames().map(|f| f / 3.0);
        let seconds = Keys::<Vec3<f64>>::from_single_values(thirds.clone(), values.clone()).unwrap();
        assert_eq!(
            (seconds.precision(), seconds.frame_precision()),
            (Precision::Single, Precision::Double)
        );
        assert!(seconds.frames().eq(thirds));
        assert!(Keys::<Vec3<f64>>::from_single_values([], values).is_none());
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
        assert_eq!(keys.frame_precision(), Precision::Double);
        // A frame past 2^24 widens the frames alone.
        let frame_only: Keys<f64> = [Key::new(16_777_217.0, 1.0), Key::new(16_777_218.0, 0.5)].into();
        assert_eq!(frame_only.precision(), Precision::Single);
        assert_eq!(frame_only.frame_precision(), Precision::Double);
        assert_eq!(
            frame_only.to_vec(),
            vec![Key::new(16_777_217.0, 1.0), Key::new(16_777_218.0, 0.5)]
        );
        // And a value alone widens the values alone.
        let mut value_only: Keys<f64> = Keys::with_capacity(4);
        value_only.push_single_value(2.0, 0.25);
        value_only.push(Key::new(3.0, 0.1));
        assert_eq!(
            (value_only.precision(), value_only.frame_precision()),
            (Precision::Double, Precision::Single)
        );
        assert!(matches!(value_only.slices().values, KeyColumn::Double([0.25, 0.1])));
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
        let KeyColumn::Single(values) = keys.slices().values else {
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
        let mut wide_frames = single.clone();
        wide_frames.push(Key::new(0.1, Quat::new(0.0, 0.0, 0.0, 1.0)));
        let mut wide_values = single.clone();
        wide_values.push(Key::new(0.5, Quat::new(0.1, 0.0, 0.0, 1.0)));
        assert_ne!(wide_frames, wide_values);
        assert_eq!(wide_frames, wide_frames.to_vec());
        assert_eq!(wide_values, Keys::from(wide_values.to_vec()));
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

/// Where a time falls among a channel's keys (see [`key_span`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KeySpan<V> {
    /// On a key, before the first, after the last, or after a key that shares its time with
    /// the next: that key's value holds.
    Hold(V),
    /// Between two keys: their values and the fraction (above 0, below 1) of the way from the
    /// first to the second.
    Between(V, V, f64),
}

impl<V> KeySpan<V> {
    /// The value a channel plays: `mix(a, b, t)` between keys (`a` with `step`, which holds
    /// each key until the next).
    pub fn value(self, step: bool, mix: impl FnOnce(V, V, f64) -> V) -> V {
        match self {
            Self::Hold(v) | Self::Between(v, _, _) if step => v,
            Self::Hold(v) => v,
            Self::Between(a, b, t) => mix(a, b, t),
        }
    }
}

/// Where `time` falls among `keys` (sorted by time, as `(time, value)`): the one rule by which
/// every resampler of keys (glTF's compensation and morph weights, Cast's axis curves) finds
/// the keys around a time. `None` without keys.
pub fn key_span<K: Copy + Into<f64>, V: Copy>(keys: &[(K, V)], time: f64) -> Option<KeySpan<V>> {
    let after = keys.partition_point(|k| k.0.into() <= time);
    Some(match (after.checked_sub(1).map(|i| keys[i]), keys.get(after)) {
        (Some((k0, v0)), Some(&(k1, v1))) => {
            let (t0, t1) = (k0.into(), k1.into());
            if time > t0 && t1 > t0 {
                KeySpan::Between(v0, v1, (time - t0) / (t1 - t0))
            } else {
                KeySpan::Hold(v0)
            }
        }
        (Some((_, v0)), None) => KeySpan::Hold(v0),
        (None, Some(&(_, v1))) => KeySpan::Hold(v1),
        (None, None) => return None,
    })
}

#[cfg(test)]
mod span_tests {
    use super::*;

    #[test]
    fn a_time_is_held_on_and_outside_keys_and_mixed_between_them() {
        let keys = [(0u32, 1.0f32), (10, 3.0), (10, 5.0), (20, 7.0)];
        assert_eq!(key_span::<u32, f32>(&[], 3.0), None);
        assert_eq!(key_span(&keys, -1.0), Some(KeySpan::Hold(1.0)));
        assert_eq!(key_span(&keys, 0.0), Some(KeySpan::Hold(1.0)));
        assert_eq!(key_span(&keys, 2.5), Some(KeySpan::Between(1.0, 3.0, 0.25)));
        // Two keys at one time: the later one holds from that time on.
        assert_eq!(key_span(&keys, 10.0), Some(KeySpan::Hold(5.0)));
        assert_eq!(key_span(&keys, 15.0), Some(KeySpan::Between(5.0, 7.0, 0.5)));
        assert_eq!(key_span(&keys, 99.0), Some(KeySpan::Hold(7.0)));
        let lerp = |a: f32, b: f32, t: f64| a + (b - a) * t as f32;
        assert_eq!(key_span(&keys, 2.5).unwrap().value(false, lerp), 1.5);
        assert_eq!(key_span(&keys, 2.5).unwrap().value(true, lerp), 1.0);
    }
}
