//! Fixed-point numbers of the Sega Saturn: SGL `FIXED` (16.16) and the i16 / 16384
//! rotation component that Shining Force III stores.
//!
//! Conversions from floats are checked: a value outside the range is an error, never a wrap.

use serde::{Deserialize, Serialize};

use crate::error::ErrorKind;

/// SGL `FIXED`: a signed 16.16 fixed-point number stored as an `i32` (value / 65536).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Fixed16(pub i32);

impl Fixed16 {
    /// 1.0.
    pub const ONE: Self = Self(0x0001_0000);
    /// The smallest value, -32768.0.
    pub const MIN: f64 = i32::MIN as f64 / 65536.0;
    /// The largest value, just under 32768.0.
    pub const MAX: f64 = i32::MAX as f64 / 65536.0;

    /// The value as a float (exact in `f64`).
    pub fn to_f64(self) -> f64 {
        f64::from(self.0) / 65536.0
    }

    /// The nearest fixed-point value, or an error when `v` is outside [-32768, 32768) or not finite.
    pub fn from_f64(v: f64) -> Result<Self, ErrorKind> {
        let raw = (v * 65536.0).round();
        if v.is_finite() && raw >= f64::from(i32::MIN) && raw <= f64::from(i32::MAX) {
            Ok(Self(raw as i32))
        } else {
            Err(ErrorKind::Unencodable(format!(
                "{v} is outside the 16.16 fixed-point range [-32768, 32768)"
            )))
        }
    }
}

/// A quaternion component stored as an `i16` scaled by 16384 (so 1.0 is 0x4000).
///
/// Shining Force III shifts these left by 2 into 16.16, which is the same as dividing by 16384.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rot14(pub i16);

impl Rot14 {
    /// 1.0.
    pub const ONE: Self = Self(0x4000);
    /// The smallest value, -2.0.
    pub const MIN: f64 = i16::MIN as f64 / 16384.0;
    /// The largest value, just under 2.0.
    pub const MAX: f64 = i16::MAX as f64 / 16384.0;

    /// The value as a float (exact).
    pub fn to_f64(self) -> f64 {
        f64::from(self.0) / 16384.0
    }

    /// The nearest stored value, or an error when `v` is outside [-2, 2) or not finite.
    pub fn from_f64(v: f64) -> Result<Self, ErrorKind> {
        let raw = (v * 16384.0).round();
        if v.is_finite() && raw >= f64::from(i16::MIN) && raw <= f64::from(i16::MAX) {
            Ok(Self(raw as i16))
        } else {
            Err(ErrorKind::Unencodable(format!(
                "{v} is outside the rotation component range [-2, 2)"
            )))
        }
    }

    /// The value in SGL 16.16 (what the game computes by shifting left by 2).
    pub fn to_fixed16(self) -> Fixed16 {
        Fixed16(i32::from(self.0) << 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed16_converts_exactly() {
        assert_eq!(Fixed16::ONE.to_f64(), 1.0);
        assert_eq!(Fixed16(-0x8000).to_f64(), -0.5);
        assert_eq!(Fixed16::from_f64(1.5).unwrap(), Fixed16(0x18000));
        assert_eq!(Fixed16::from_f64(-32768.0).unwrap(), Fixed16(i32::MIN));
    }

    #[test]
    fn fixed16_refuses_out_of_range() {
        assert!(Fixed16::from_f64(32768.0).is_err());
        assert!(Fixed16::from_f64(-32768.01).is_err());
        assert!(Fixed16::from_f64(f64::NAN).is_err());
    }

    #[test]
    fn rot14_matches_the_games_shift() {
        assert_eq!(Rot14::ONE.to_f64(), 1.0);
        assert_eq!(Rot14(0x2000).to_fixed16(), Fixed16(0x8000));
        assert_eq!(Rot14::from_f64(-2.0).unwrap(), Rot14(i16::MIN));
        assert!(Rot14::from_f64(2.0).is_err());
        assert!(Rot14::from_f64(f64::INFINITY).is_err());
    }
}
