//! Vectors, quaternions, matrices and colours, generic over their scalar.
//!
//! Every type here is `#[repr(C)]` with no padding, so the same declaration serves three
//! uses: owned values (`Vec3<f32>`, `Vec3<f64>`, `Vec3<half::f16>`), binrw fields in either
//! byte order (one bounds check and one copy, see [`crate::io::Pod`]), and zero-copy views
//! over file bytes with `zerocopy::byteorder` scalars (`Vec3<little_endian::F32>`), turned
//! into native values with [`Native::native`].
//!
//! Their serde form writes each component with [`crate::float::dump`], so NaN, the
//! infinities and NaN payloads survive a JSON dump bit for bit.

use std::io::{Read, Seek, Write};

use binrw::{BinRead, BinResult, BinWrite, Endian};
use serde::{Deserialize, Serialize};
use zerocopy::byteorder::{ByteOrder, F32, F64, I16, I32, I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::float::DumpScalar;
use crate::io::Pod;

/// A value stored with an explicit byte order that converts to its native form.
pub trait Native: Copy {
    /// The native type.
    type Out;
    /// The value in native form.
    fn native(self) -> Self::Out;
}

macro_rules! native_scalar {
    ($($wrapper:ident => $t:ty),*) => {$(
        impl<O: ByteOrder> Native for $wrapper<O> {
            type Out = $t;
            fn native(self) -> $t { self.get() }
        }
    )*};
}
native_scalar!(F32 => f32, F64 => f64, I16 => i16, I32 => i32, I64 => i64, U16 => u16, U32 => u32, U64 => u64);

macro_rules! native_plain {
    ($($t:ty),*) => {$( impl Native for $t { type Out = $t; fn native(self) -> $t { self } } )*};
}
native_plain!(u8, i8, f32, f64, half::f16);

/// Makes a generic `#[repr(C)]` type of one scalar kind a [`Pod`] with binrw support in
/// either byte order (one copy, then a byte swap only when the order differs).
macro_rules! pod_io {
    ($($name:ident),*) => {$(
        impl<T: Pod> Pod for $name<T> {
            const SCALAR_SIZE: usize = T::SCALAR_SIZE;
        }

        impl<T: Pod> BinRead for $name<T> {
            type Args<'a> = ();
            fn read_options<R: Read + Seek>(reader: &mut R, endian: Endian, (): ()) -> BinResult<Self> {
                read_pod(reader, endian)
            }
        }

        impl<T: Pod> BinWrite for $name<T> {
            type Args<'a> = ();
            fn write_options<W: Write + Seek>(&self, writer: &mut W, endian: Endian, (): ()) -> BinResult<()> {
                crate::io::write_pod_slice(writer, endian, std::slice::from_ref(self))
            }
        }
    )*};
}

/// Declares a `#[repr(C)]` math type with binrw, zerocopy and [`Native`] support.
macro_rules! math_type {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $field:ident),+ }) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize,
            FromBytes, IntoBytes, Immutable, KnownLayout, Unaligned,
        )]
        #[serde(bound(serialize = "T: DumpScalar", deserialize = "T: DumpScalar"))]
        #[repr(C)]
        pub struct $name<T = f32> {
            $( $(#[$fmeta])* #[serde(with = "crate::float::dump")] pub $field: T, )+
        }

        pod_io!($name);

        impl<T> $name<T> {
            /// Builds the value from its components, in declaration order.
            pub const fn new($($field: T),+) -> Self {
                Self { $($field),+ }
            }

            /// Applies `f` to every component.
            pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> $name<U> {
                $name { $($field: f(self.$field)),+ }
            }
        }

        impl<T: Native> $name<T> {
            /// The value with native scalars (for views over file bytes).
            pub fn native(self) -> $name<T::Out> {
                self.map(Native::native)
            }
        }
    };
}

/// Reads one [`Pod`] value in the given byte order.
pub fn read_pod<T: Pod, R: Read>(reader: &mut R, endian: Endian) -> BinResult<T> {
    let mut value = T::new_zeroed();
    reader.read_exact(value.as_mut_bytes())?;
    if endian != Endian::NATIVE && T::SCALAR_SIZE > 1 {
        value
            .as_mut_bytes()
            .chunks_exact_mut(T::SCALAR_SIZE)
            .for_each(<[u8]>::reverse);
    }
    Ok(value)
}

math_type!(
    /// A 2-component vector (UV coordinates, for one).
    Vec2 {
        /// X (or U).
        x,
        /// Y (or V).
        y
    }
);
math_type!(
    /// A 3-component vector: positions, translations, scales, normals.
    Vec3 {
        /// X.
        x,
        /// Y.
        y,
        /// Z.
        z
    }
);
math_type!(
    /// A 4-component vector.
    Vec4 {
        /// X.
        x,
        /// Y.
        y,
        /// Z.
        z,
        /// W.
        w
    }
);
math_type!(
    /// A rotation quaternion in x, y, z, w order (w is the real part), as every format here stores it.
    Quat {
        /// X (imaginary i).
        x,
        /// Y (imaginary j).
        y,
        /// Z (imaginary k).
        z,
        /// W (real part).
        w
    }
);
math_type!(
    /// A colour in red, green, blue, alpha order.
    Rgba {
        /// Red.
        r,
        /// Green.
        g,
        /// Blue.
        b,
        /// Alpha.
        a
    }
);

/// An 8-bit-per-channel RGBA colour.
pub type Rgba8 = Rgba<u8>;

/// Declares a square matrix type stored row by row.
macro_rules! matrix_type {
    ($(#[$meta:meta])* $name:ident, $n:literal) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize,
            FromBytes, IntoBytes, Immutable, KnownLayout, Unaligned,
        )]
        #[serde(bound(serialize = "T: DumpScalar", deserialize = "T: DumpScalar"))]
        #[repr(C)]
        pub struct $name<T = f32> {
            /// The rows, top to bottom.
            #[serde(with = "crate::float::dump")]
            pub rows: [[T; $n]; $n],
        }

        pod_io!($name);
    };
}

matrix_type!(
    /// A 2x2 matrix stored row by row (`rows[r][c]`).
    Mat2,
    2
);
matrix_type!(
    /// A 3x3 matrix stored row by row (`rows[r][c]`).
    Mat3,
    3
);
matrix_type!(
    /// A 4x4 matrix stored row by row (`rows[r][c]`); transforms column vectors (`M * v`),
    /// so the translation is in the last column.
    Mat4,
    4
);

impl Mat4<f64> {
    /// The identity matrix.
    pub const IDENTITY: Self = Self {
        rows: [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
        ],
    };

    /// Whether `other` agrees with this matrix in every entry to `tolerance` times the size
    /// of this one's largest entry (at least 1): the same transform, to rounding.
    pub fn close_to(&self, other: &Self, tolerance: f64) -> bool {
        let size = self.rows.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
        self.rows
            .iter()
            .flatten()
            .zip(other.rows.iter().flatten())
            .all(|(x, y)| (x - y).abs() <= tolerance * size)
    }

    /// The product `self * other` (`other` applied first).
    pub fn multiply(&self, other: &Self) -> Self {
        let mut rows = [[0.0; 4]; 4];
        for (r, row) in rows.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = (0..4).map(|k| self.rows[r][k] * other.rows[k][c]).sum();
            }
        }
        Self { rows }
    }

    /// The inverse of an affine matrix (last row 0, 0, 0, 1), for any scale and shear, or
    /// `None` when it is singular.
    pub fn inverse_affine(&self) -> Option<Self> {
        let r = &self.rows;
        let a = [
            [r[0][0], r[0][1], r[0][2]],
            [r[1][0], r[1][1], r[1][2]],
            [r[2][0], r[2][1], r[2][2]],
        ];
        let cof = |i: usize, j: usize| {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1]
        };
        let det = a[0][0] * cof(0, 0) + a[0][1] * cof(0, 1) + a[0][2] * cof(0, 2);
        if !det.is_finite() || det.abs() < 1e-300 {
            return None;
        }
        // The inverse's linear part is the adjugate (the transposed cofactors) over det.
        let mut rows = [[0.0; 4]; 4];
        for (i, row) in rows.iter_mut().take(3).enumerate() {
            let linear = [0, 1, 2].map(|j| cof(j, i) / det);
            row[..3].copy_from_slice(&linear);
            row[3] = -(0..3).map(|k| linear[k] * r[k][3]).sum::<f64>();
        }
        rows[3] = [0.0, 0.0, 0.0, 1.0];
        Some(Self { rows })
    }
}

impl std::ops::Add for Vec3<f64> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl std::ops::Sub for Vec3<f64> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

/// Component-wise product (how scales combine).
impl std::ops::Mul for Vec3<f64> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Self::new(self.x * o.x, self.y * o.y, self.z * o.z)
    }
}

/// The Hamilton product `self * o` (apply `o` first, then `self`).
impl std::ops::Mul for Quat<f64> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Self::new(
            self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
            self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
        )
    }
}

impl Vec3<f64> {
    /// The zero vector.
    pub const ZERO: Self = Self::new(0.0, 0.0, 0.0);
    /// The vector of ones (the identity scale).
    pub const ONE: Self = Self::new(1.0, 1.0, 1.0);

    /// Scales every component by `s`.
    pub fn scale(self, s: f64) -> Self {
        Self::new(self.x * s, self.y * s, self.z * s)
    }

    /// The dot product.
    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// The cross product.
    pub fn cross(self, o: Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
}

impl Quat<f64> {
    /// The rotation that does nothing.
    pub const IDENTITY: Self = Self::new(0.0, 0.0, 0.0, 1.0);

    /// The conjugate (the inverse of a unit quaternion).
    pub fn conjugate(self) -> Self {
        Self::new(-self.x, -self.y, -self.z, self.w)
    }

    /// The length.
    pub fn norm(self) -> f64 {
        (self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w).sqrt()
    }

    /// The quaternion scaled to unit length; the identity when its length is zero or not finite.
    pub fn normalized(self) -> Self {
        let n = self.norm();
        if n > 0.0 && n.is_finite() {
            self.map(|c| c / n)
        } else {
            Self::IDENTITY
        }
    }

    /// The rotation of a 3x3 rotation matrix given row by row (`rows[r][c]`), by Shepperd's
    /// method: it divides by the largest of the four components, never by a small one. Not
    /// normalised, so a caller can check the result is finite first.
    pub fn from_rotation_rows(r: [[f64; 3]; 3]) -> Self {
        let trace = r[0][0] + r[1][1] + r[2][2];
        if trace > 0.0 {
            let s = (trace + 1.0).sqrt() * 2.0;
            Self::new(
                (r[2][1] - r[1][2]) / s,
                (r[0][2] - r[2][0]) / s,
                (r[1][0] - r[0][1]) / s,
                0.25 * s,
            )
        } else if r[0][0] > r[1][1] && r[0][0] > r[2][2] {
            let s = (1.0 + r[0][0] - r[1][1] - r[2][2]).sqrt() * 2.0;
            Self::new(
                0.25 * s,
                (r[0][1] + r[1][0]) / s,
                (r[0][2] + r[2][0]) / s,
                (r[2][1] - r[1][2]) / s,
            )
        } else if r[1][1] > r[2][2] {
            let s = (1.0 + r[1][1] - r[0][0] - r[2][2]).sqrt() * 2.0;
            Self::new(
                (r[0][1] + r[1][0]) / s,
                0.25 * s,
                (r[1][2] + r[2][1]) / s,
                (r[0][2] - r[2][0]) / s,
            )
        } else {
            let s = (1.0 + r[2][2] - r[0][0] - r[1][1]).sqrt() * 2.0;
            Self::new(
                (r[0][2] + r[2][0]) / s,
                (r[1][2] + r[2][1]) / s,
                0.25 * s,
                (r[1][0] - r[0][1]) / s,
            )
        }
    }

    /// Spherical interpolation from `self` to `other` along the shorter arc, at `t` (0 gives
    /// `self`, 1 `other`): how glTF's linear rotation channels, Blender and FBX readers play
    /// a rotation between two keys. Both should be unit quaternions; the result is one.
    pub fn slerp(self, other: Self, t: f64) -> Self {
        let dot = self.x * other.x + self.y * other.y + self.z * other.z + self.w * other.w;
        let other = if dot < 0.0 { other.map(|c| -c) } else { other };
        // The angle between them as 2 atan2(|a - b|, |a + b|): exact near zero, where the
        // `acos` of a dot product near 1 loses half the digits.
        let (a, b) = ([self.x, self.y, self.z, self.w], [other.x, other.y, other.z, other.w]);
        let length = |f: &dyn Fn(usize) -> f64| (0..4).map(|i| f(i) * f(i)).sum::<f64>().sqrt();
        let angle = 2.0 * length(&|i| a[i] - b[i]).atan2(length(&|i| a[i] + b[i]));
        let sin = angle.sin();
        let (wa, wb) = if sin < 1e-12 {
            (1.0 - t, t)
        } else {
            (((1.0 - t) * angle).sin() / sin, (t * angle).sin() / sin)
        };
        let [x, y, z, w] = std::array::from_fn(|i| wa * a[i] + wb * b[i]);
        Self::new(x, y, z, w).normalized()
    }

    /// Rotates the vector `v`.
    pub fn rotate(self, v: Vec3<f64>) -> Vec3<f64> {
        let u = Vec3::new(self.x, self.y, self.z);
        let t = u.cross(v).scale(2.0);
        v + t.scale(self.w) + u.cross(t)
    }
}

/// A translation, rotation and scale, applied scale first, then rotation, then translation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    /// Translation.
    pub translation: Vec3<f64>,
    /// Rotation (unit quaternion, x y z w).
    pub rotation: Quat<f64>,
    /// Scale.
    pub scale: Vec3<f64>,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// The transform that does nothing.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// `self` applied after `child` (parent * child): the child's transform in the parent's space.
    pub fn then(self, child: Self) -> Self {
        Self {
            translation: self.translation + self.rotation.rotate(child.translation * self.scale),
            rotation: (self.rotation * child.rotation).normalized(),
            scale: self.scale * child.scale,
        }
    }

    /// The inverse, exact for uniform scale (what skeleton bind poses use).
    pub fn inverse(self) -> Self {
        let inv_scale = self.scale.map(|s| if s == 0.0 { 0.0 } else { 1.0 / s });
        let inv_rot = self.rotation.conjugate();
        Self {
            translation: (inv_rot.rotate(self.translation) * inv_scale).scale(-1.0),
            rotation: inv_rot,
            scale: inv_scale,
        }
    }

    /// Splits an affine matrix (row by row, column vectors, translation in the last column,
    /// as [`Transform::to_matrix`] makes it) into translation, rotation and scale.
    ///
    /// The scale is the length of each of the first three columns; a negative determinant
    /// (a mirror) flips the x scale, so the rotation stays proper. Whatever the matrix holds
    /// beyond that (shear, projection, a last row other than 0 0 0 1) is not in the result:
    /// a caller that must know compares `to_matrix()` of the result with `m`. `None` when a
    /// scale is zero (no rotation follows from a collapsed axis) or a value is not finite.
    pub fn from_matrix(m: &Mat4<f64>) -> Option<Self> {
        let r = &m.rows;
        let column = |c: usize| Vec3::new(r[0][c], r[1][c], r[2][c]);
        let (cx, cy, cz) = (column(0), column(1), column(2));
        let mut scale = Vec3::new(cx.dot(cx).sqrt(), cy.dot(cy).sqrt(), cz.dot(cz).sqrt());
        if cx.dot(cy.cross(cz)) < 0.0 {
            scale.x = -scale.x;
        }
        let usable = |s: f64| s.is_finite() && s != 0.0;
        if !(usable(scale.x) && usable(scale.y) && usable(scale.z)) {
            return None;
        }
        let (x, y, z) = (
            cx.scale(1.0 / scale.x),
            cy.scale(1.0 / scale.y),
            cz.scale(1.0 / scale.z),
        );
        // The rotation matrix has the unit columns x, y, z.
        let rotation = Quat::from_rotation_rows([[x.x, y.x, z.x], [x.y, y.y, z.y], [x.z, y.z, z.z]]);
        let translation = column(3);
        let finite = [
            rotation.x,
            rotation.y,
            rotation.z,
            rotation.w,
            translation.x,
            translation.y,
            translation.z,
        ]
        .iter()
        .all(|v| v.is_finite());
        finite.then(|| Self {
            translation,
            rotation: rotation.normalized(),
            scale,
        })
    }

    /// The 4x4 matrix of this transform (column vectors, translation in the last column).
    pub fn to_matrix(self) -> Mat4<f64> {
        let Quat { x, y, z, w } = self.rotation;
        let s = self.scale;
        let t = self.translation;
        let r = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - z * w),
                2.0 * (x * z + y * w),
            ],
            [
                2.0 * (x * y + z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - x * w),
            ],
            [
                2.0 * (x * z - y * w),
                2.0 * (y * z + x * w),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        Mat4 {
            rows: [
                [r[0][0] * s.x, r[0][1] * s.y, r[0][2] * s.z, t.x],
                [r[1][0] * s.x, r[1][1] * s.y, r[1][2] * s.z, t.y],
                [r[2][0] * s.x, r[2][1] * s.y, r[2][2] * s.z, t.z],
                [0.0, 0.0, 0.0, 1.0],
            ],
        }
    }
}

/// A bone's transform in model space from its parent's (`parent`) and its own local one.
///
/// Full inheritance (`scale_compensate` false) is `parent * local`, as glTF composes nodes.
/// With `scale_compensate` the bone takes its parent's translation and rotation but not its
/// scale, as Blender's inherit-scale `NONE` and Maya's segment scale compensate do: the
/// parent's scale still stretches the bone's offset (its translation is in the parent's
/// scaled space), but not the bone's rotation or scale. (Blender 4.5, checked: a child at
/// (1, 2, 0) under a parent scaled (2, 3, 4) and turned 0.5 rad about Z sits at
/// R(0.5) * (2, 6, 0), has scale 1 and the parent's rotation.)
pub fn compose(parent: Transform, local: Transform, scale_compensate: bool) -> Transform {
    if scale_compensate {
        Transform {
            translation: parent.translation + parent.rotation.rotate(local.translation * parent.scale),
            rotation: (parent.rotation * local.rotation).normalized(),
            scale: local.scale,
        }
    } else {
        parent.then(local)
    }
}

/// The inverse of [`compose`]: the local transform that puts a bone at `global` under a
/// parent at `parent`.
pub fn decompose(parent: Transform, global: Transform, scale_compensate: bool) -> Transform {
    if scale_compensate {
        let offset = parent
            .rotation
            .conjugate()
            .rotate(global.translation - parent.translation);
        Transform {
            // A zero scale collapses the offset; 0 is what `Transform::inverse` takes for it.
            translation: offset * parent.scale.map(|s| if s == 0.0 { 0.0 } else { 1.0 / s }),
            rotation: (parent.rotation.conjugate() * global.rotation).normalized(),
            scale: global.scale,
        }
    } else {
        parent.inverse().then(global)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn slerp_turns_along_the_shorter_arc_at_a_constant_rate() {
        let turn = |angle: f64| Quat::new(0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos());
        let (a, b) = (turn(0.2), turn(1.4));
        for t in [0.0, 0.25, 0.5, 1.0] {
            let q = a.slerp(b, t);
            let expected = turn(0.2 + 1.2 * t);
            assert!(
                (q.z - expected.z).abs() < 1e-12 && (q.w - expected.w).abs() < 1e-12,
                "{t}: {q:?}"
            );
        }
        // The same rotation written negated: still the short way, from a to -b's rotation.
        let q = a.slerp(b.map(|c| -c), 0.5);
        assert!(
            (q.z - turn(0.8).z).abs() < 1e-12 && (q.w - turn(0.8).w).abs() < 1e-12,
            "{q:?}"
        );
        // Keys 1e-9 radians apart: interpolated, not lost to rounding.
        let q = turn(0.0).slerp(turn(1e-9), 0.5);
        assert!((q.z - (0.25e-9f64).sin()).abs() < 1e-18, "{q:?}");
    }

    use super::*;
    use binrw::io::Cursor;

    #[test]
    fn vec3_reads_in_both_byte_orders() {
        let le = [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40];
        let be = [0x3f, 0x80, 0, 0, 0x40, 0, 0, 0, 0x40, 0x40, 0, 0];
        let expected = Vec3::new(1.0f32, 2.0, 3.0);
        assert_eq!(Vec3::<f32>::read_le(&mut Cursor::new(&le)).unwrap(), expected);
        assert_eq!(Vec3::<f32>::read_be(&mut Cursor::new(&be)).unwrap(), expected);
        let mut out = Cursor::new(Vec::new());
        expected.write_be(&mut out).unwrap();
        assert_eq!(out.into_inner(), be);
    }

    #[test]
    fn half_vectors_round_trip() {
        let v = Vec3::new(half::f16::from_f32(0.5), half::f16::from_f32(-2.0), half::f16::ONE);
        let mut out = Cursor::new(Vec::new());
        v.write_le(&mut out).unwrap();
        assert_eq!(out.get_ref(), &[0x00, 0x38, 0x00, 0xc0, 0x00, 0x3c]);
        assert_eq!(
            Vec3::<half::f16>::read_le(&mut Cursor::new(out.into_inner())).unwrap(),
            v
        );
    }

    #[test]
    fn big_endian_view_converts_to_native() {
        let bytes = [0x3f, 0x80, 0, 0, 0x40, 0, 0, 0, 0x40, 0x40, 0, 0];
        let view = Vec3::<F32<zerocopy::BigEndian>>::ref_from_bytes(&bytes).unwrap();
        assert_eq!(view.native(), Vec3::new(1.0, 2.0, 3.0));
    }

    #[test]
    fn rotation_matrices_give_back_their_quaternion_on_every_branch() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        // Identity (trace > 0), then half turns about x, y and z (x, y, z the largest).
        for q in [
            Quat::IDENTITY,
            Quat::new(0.2, 0.3, -0.1, 0.9).normalized(),
            Quat::new(1.0, 0.0, 0.0, 0.0),
            Quat::new(0.0, 1.0, 0.0, 0.0),
            Quat::new(0.0, 0.0, 1.0, 0.0),
            Quat::new(h, h, 0.0, 0.0),
        ] {
            let m = Transform {
                rotation: q,
                ..Transform::IDENTITY
            }
            .to_matrix();
            let rows = std::array::from_fn(|r| std::array::from_fn(|c| m.rows[r][c]));
            let back = Quat::from_rotation_rows(rows);
            let same = [back.x - q.x, back.y - q.y, back.z - q.z, back.w - q.w];
            let opposite = [back.x + q.x, back.y + q.y, back.z + q.z, back.w + q.w];
            let close = |d: [f64; 4]| d.iter().all(|c| c.abs() < 1e-12);
            assert!(close(same) || close(opposite), "{q:?} came back as {back:?}");
        }
    }

    #[test]
    fn from_matrix_undoes_to_matrix() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        for scale in [Vec3::new(2.0, 0.5, 3.0), Vec3::new(-1.5, 1.0, 0.25)] {
            let t = Transform {
                translation: Vec3::new(1.0, -2.0, 3.5),
                rotation: Quat::new(0.3, -0.2, 0.5, 0.78).normalized(),
                scale,
            };
            let back = Transform::from_matrix(&t.to_matrix()).unwrap();
            assert_eq!(back.translation, t.translation);
            assert!(close(back.scale.x, scale.x) && close(back.scale.y, scale.y) && close(back.scale.z, scale.z));
            // q and -q are the same rotation.
            let sign = (back.rotation.w * t.rotation.w).signum();
            let (b, q) = (back.rotation.map(|c| c * sign), t.rotation);
            assert!(
                close(b.x, q.x) && close(b.y, q.y) && close(b.z, q.z) && close(b.w, q.w),
                "{back:?}"
            );
        }
    }

    #[test]
    fn from_matrix_refuses_a_zero_scale_and_non_finite_values() {
        let flat = Transform {
            scale: Vec3::new(1.0, 0.0, 1.0),
            ..Transform::IDENTITY
        };
        assert_eq!(Transform::from_matrix(&flat.to_matrix()), None);
        let mut m = Transform::IDENTITY.to_matrix();
        m.rows[1][3] = f64::NAN;
        assert_eq!(Transform::from_matrix(&m), None);
        m.rows[1][3] = 0.0;
        m.rows[0][0] = f64::INFINITY;
        assert_eq!(Transform::from_matrix(&m), None);
    }

    #[test]
    fn transform_inverse_undoes_transform() {
        let t = Transform {
            translation: Vec3::new(1.0, -2.0, 3.0),
            rotation: Quat::new(0.2, 0.3, -0.1, 0.9).normalized(),
            scale: Vec3::new(2.0, 2.0, 2.0),
        };
        let id = t.then(t.inverse());
        assert!(id.translation.dot(id.translation) < 1e-20);
        assert!((id.rotation.w.abs() - 1.0).abs() < 1e-12);
        assert!((id.scale.x - 1.0).abs() < 1e-12);
    }
}
