//! The rules for the conversion options a user types: one set, for every front end.
//!
//! The command (`--framerate 30`, `--scale 0.01`, `--anim-type relative`, `--precision
//! double`) and the Python module (`framerate=30`, `scale=0.01`, `anim_type="relative"`,
//! `precision="double"`) take the same options, and check each value here before anything
//! is read, so that a value no conversion can use is the user's mistake, said with the
//! option's name (the command: a usage error, exit 2; Python: a `ValueError`), never a
//! failure blamed on the input halfway through a conversion.
//!
//! The rules:
//!
//! - **framerate**: frames per second, finite and greater than 0.
//! - **scale**: a finite factor other than 0; a negative one mirrors (lengths times -1),
//!   so it is allowed. 0 would flatten everything to a point, and NaN and the infinities
//!   give no length at all.
//! - **anim_type**: `absolute`, `additive`, `relative` or `delta`.
//! - **precision**: `single` or `double` (`f32` and `f64` are taken too).
//! - **max_input_size**: the most bytes read of one input ([`crate::ReadOptions`]), at least
//!   1: a whole number, or one followed by `K`, `M`, `G` or `T` (binary units, any case, `iB`
//!   allowed after them: `64M` and `64MiB` are 64 MiB, `8G` is 8 GiB).
//! - **max_accessor_values**: the most values a glTF's accessors may give in all
//!   ([`crate::ReadOptions::max_accessor_values`]), at least 1: a whole number, or one
//!   followed by `K`, `M`, `G` or `T` (binary multiples, as for `max_input_size`: `256M` is
//!   268,435,456 values).
//! - **jobs**: how many threads a batch converts on, a whole number from 1 to [`MAX_JOBS`];
//!   a batch starts no more threads than it has files ([`crate::batch::Plan::threads`]).
//!
//! Each error names the option by its Python keyword ([`InvalidOption::option`]); the
//! command's flag is the same name with `--` and hyphens ([`InvalidOption::flag`]).
//! [`check`] applies the numeric rules to a whole [`SceneOptions`], for a caller that fills
//! one in by other means.

use animbin_core::SceneOptions;
use animbin_core::scene::{AnimKind, Precision};

/// The option `framerate`: frames per second for formats that store none.
pub const FRAMERATE: &str = "framerate";
/// The option `scale`: lengths times this are glTF metres.
pub const SCALE: &str = "scale";
/// The option `anim_type`: the kind of the SEAnim written.
pub const ANIM_TYPE: &str = "anim_type";
/// The option `precision`: the width of the SEAnim's key values.
pub const PRECISION: &str = "precision";
/// The option `max_input_size`: the most bytes read of one input.
pub const MAX_INPUT_SIZE: &str = "max_input_size";
/// The option `max_accessor_values`: the most values a glTF's accessors may give in all.
pub const MAX_ACCESSOR_VALUES: &str = "max_accessor_values";
/// The option `z_up`: the non-glTF side of a conversion is Z-up.
pub const Z_UP: &str = "z_up";
/// The option `jobs`: how many threads a batch converts on.
pub const JOBS: &str = "jobs";
/// The most threads a batch may be asked for. Each thread holds one input and its output in
/// memory and a stack of its own, and a conversion runs on the CPU, so beyond the cores a
/// machine has more threads only add memory; a thousand threads already cost a machine
/// seconds to start. Raise it here if a machine ever has more cores than this.
pub const MAX_JOBS: usize = 1024;

/// A value that an option cannot take: which option, and why.
///
/// Displayed as `scale: 0 is not a finite, non-zero factor (...)`; a front end that spells
/// its options otherwise puts its own name before [`InvalidOption::message`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {message}")]
pub struct InvalidOption {
    /// The option, by its keyword: [`FRAMERATE`], [`SCALE`], [`ANIM_TYPE`], [`PRECISION`],
    /// [`MAX_INPUT_SIZE`], [`MAX_ACCESSOR_VALUES`] or [`JOBS`].
    pub option: &'static str,
    /// What is wrong with the value, naming the value (`0 is not a positive number of
    /// frames per second`).
    pub message: String,
}

impl InvalidOption {
    fn new(option: &'static str, message: impl Into<String>) -> Self {
        Self {
            option,
            message: message.into(),
        }
    }

    /// The option as the command spells it: `--anim-type`.
    pub fn flag(&self) -> String {
        format!("--{}", self.option.replace('_', "-"))
    }
}

/// `fps` if it is a frame rate: finite and greater than 0.
pub fn framerate(fps: f64) -> Result<f64, InvalidOption> {
    if fps.is_finite() && fps > 0.0 {
        Ok(fps)
    } else {
        Err(InvalidOption::new(
            FRAMERATE,
            format!("{fps} is not a positive number of frames per second"),
        ))
    }
}

/// `factor` if it is a scale: finite and not 0 (a negative factor mirrors).
pub fn scale(factor: f64) -> Result<f64, InvalidOption> {
    if factor.is_finite() && factor != 0.0 {
        Ok(factor)
    } else {
        Err(InvalidOption::new(
            SCALE,
            format!("{factor} is not a finite, non-zero factor (0.01 for centimetres; a negative one mirrors)"),
        ))
    }
}

/// The animation kind called `name`: `absolute`, `additive`, `relative` or `delta`.
pub fn anim_kind(name: &str) -> Result<AnimKind, InvalidOption> {
    name.parse().map_err(|message| InvalidOption::new(ANIM_TYPE, message))
}

/// The precision called `name`: `single` or `double` (or `f32`, `f64`).
pub fn precision(name: &str) -> Result<Precision, InvalidOption> {
    name.parse().map_err(|message| InvalidOption::new(PRECISION, message))
}

/// The size limit typed as `text` (the command's `--max-input-size`, or Python's
/// `max_input_size=` as text or a whole number): a whole number of bytes, at least 1, or one
/// followed by `K`, `M`, `G` or `T` for KiB, MiB, GiB or TiB (`64M`, `8G`, `8GiB`).
pub fn max_input_size(text: &str) -> Result<u64, InvalidOption> {
    let invalid = || {
        InvalidOption::new(
            MAX_INPUT_SIZE,
            format!("{text:?} is not a size in bytes (a whole number, or one with K, M, G or T: 64M, 8G)"),
        )
    };
    let trimmed = text.trim();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = trimmed.split_at(digits);
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => return Err(invalid()),
    };
    let number: u64 = number.parse().map_err(|_| invalid())?;
    let bytes = number.checked_mul(1 << shift).ok_or_else(|| {
        InvalidOption::new(
            MAX_INPUT_SIZE,
            format!("{text:?} is more bytes than a 64-bit count holds"),
        )
    })?;
    if bytes == 0 {
        return Err(InvalidOption::new(
            MAX_INPUT_SIZE,
            format!("{text:?} is not a positive number of bytes"),
        ));
    }
    Ok(bytes)
}

/// The accessor budget typed as `text` (the command's `--max-accessor-values`, Python's
/// `max_accessor_values=`): a whole number of values, at least 1, or one followed by `K`,
/// `M`, `G` or `T` (binary multiples: `256M` is 268,435,456 values).
pub fn max_accessor_values(text: &str) -> Result<u64, InvalidOption> {
    max_input_size(text).map_err(|e| InvalidOption {
        option: MAX_ACCESSOR_VALUES,
        message: e
            .message
            .replace("bytes", "values")
            .replace("size in values", "number of values"),
    })
}

/// The thread count typed as `text` (the command's `--jobs`): a whole number from 1 to
/// [`MAX_JOBS`]; a larger one is refused naming the limit, before any thread starts.
pub fn jobs(text: &str) -> Result<std::num::NonZeroUsize, InvalidOption> {
    let too_many = || {
        InvalidOption::new(
            JOBS,
            format!("{text:?} is more threads than the limit of {MAX_JOBS} (animbin::options::MAX_JOBS)"),
        )
    };
    match text.trim().parse::<std::num::NonZeroUsize>() {
        Ok(count) if count.get() <= MAX_JOBS => Ok(count),
        Ok(_) => Err(too_many()),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(too_many()),
        Err(_) => Err(InvalidOption::new(
            JOBS,
            format!("{text:?} is not a number of threads from 1 to {MAX_JOBS}"),
        )),
    }
}

/// A number typed for `option` (the command's text), checked by `rule` ([`framerate`] or
/// [`scale`]): text that is not a number is refused with the option named too.
pub fn number(
    option: &'static str,
    text: &str,
    rule: fn(f64) -> Result<f64, InvalidOption>,
) -> Result<f64, InvalidOption> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| InvalidOption::new(option, format!("{text:?} is not a number")))?;
    rule(value)
}

/// Checks the options of `scene` that a user types: [`SceneOptions::framerate`] (when set)
/// by [`framerate`] and [`SceneOptions::unit_scale`] by [`scale`].
pub fn check(scene: &SceneOptions) -> Result<(), InvalidOption> {
    if let Some(fps) = scene.framerate {
        framerate(fps)?;
    }
    scale(scene.unit_scale)?;
    Ok(())
}

/// The first of `scene`'s options that cannot apply to a conversion of a `format` file into
/// its own format: `z_up` and `scale` say how the side of a conversion that is not glTF
/// relates to glTF, and `framerate` gives frames per second to a format that stores none,
/// which writing it again takes back; none of them changes a file converted to its own
/// format, so asking for one is the user's mistake, not a copy made in silence.
pub fn same_format(scene: &SceneOptions, format: &str) -> Result<(), InvalidOption> {
    let both = format!("both sides of this conversion are {format}, so it would change nothing");
    if scene.z_up {
        return Err(InvalidOption::new(
            Z_UP,
            format!("says that the side of a conversion that is not glTF is Z-up; {both}"),
        ));
    }
    if scene.unit_scale != 1.0 {
        return Err(InvalidOption::new(
            SCALE,
            format!(
                "{} says what a length of the side that is not glTF is in glTF metres; {both}",
                scene.unit_scale
            ),
        ));
    }
    if let Some(fps) = scene.framerate {
        return Err(InvalidOption::new(
            FRAMERATE,
            format!(
                "{fps} gives frames per second to a format that stores none, and writing it again takes them back; {both}"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framerates_are_positive_and_finite() {
        assert_eq!(framerate(30.0), Ok(30.0));
        assert_eq!(framerate(0.5), Ok(0.5));
        for bad in [0.0, -0.0, -30.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let e = framerate(bad).unwrap_err();
            assert_eq!(e.option, "framerate");
            assert!(
                e.message.contains("is not a positive number of frames per second"),
                "{e}"
            );
        }
        assert_eq!(
            framerate(0.0).unwrap_err().to_string(),
            "framerate: 0 is not a positive number of frames per second"
        );
    }

    #[test]
    fn accessor_budgets_are_counts_with_the_size_units() {
        assert_eq!(max_accessor_values("1000"), Ok(1000));
        assert_eq!(max_accessor_values("256M"), Ok(256 << 20));
        for bad in ["0", "-1", "1.5G", "lots"] {
            let e = max_accessor_values(bad).unwrap_err();
            assert_eq!(e.flag(), "--max-accessor-values");
            assert!(!e.message.contains("bytes"), "{e}");
        }
    }

    #[test]
    fn jobs_are_whole_numbers_up_to_the_limit() {
        assert_eq!(jobs("4").map(std::num::NonZeroUsize::get), Ok(4));
        assert_eq!(
            jobs(&MAX_JOBS.to_string()).map(std::num::NonZeroUsize::get),
            Ok(MAX_JOBS)
        );
        for over in ["1025", "100000", "99999999999999999999999999"] {
            let e = jobs(over).unwrap_err();
            assert_eq!(e.flag(), "--jobs");
            assert!(e.message.contains("more threads than the limit of 1024"), "{e}");
        }
        for bad in ["0", "-1", "two", ""] {
            assert!(
                jobs(bad)
                    .unwrap_err()
                    .message
                    .contains("is not a number of threads from 1 to 1024")
            );
        }
    }

    #[test]
    fn scales_are_finite_and_not_zero_and_may_mirror() {
        assert_eq!(scale(0.01), Ok(0.01));
        assert_eq!(scale(-1.0), Ok(-1.0));
        for bad in [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let e = scale(bad).unwrap_err();
            assert_eq!((e.option, e.flag()), ("scale", "--scale".to_string()));
            assert!(e.to_string().starts_with("scale: "), "{e}");
        }
        assert!(scale(f64::NAN).unwrap_err().message.starts_with("NaN is not a finite"));
    }

    #[test]
    fn names_and_text_are_checked_with_the_option_named() {
        assert_eq!(anim_kind("relative"), Ok(AnimKind::Relative));
        let e = anim_kind("sideways").unwrap_err();
        assert_eq!(e.flag(), "--anim-type");
        assert!(
            e.to_string()
                .starts_with("anim_type: unknown animation kind \"sideways\""),
            "{e}"
        );
        assert_eq!(precision("f64"), Ok(Precision::Double));
        assert!(precision("half").unwrap_err().message.contains("single, double"));
        assert_eq!(number(SCALE, "-1", scale), Ok(-1.0));
        assert_eq!(
            number(SCALE, "abc", scale).unwrap_err().to_string(),
            "scale: \"abc\" is not a number"
        );
        assert!(number(FRAMERATE, "nan", framerate).is_err());
    }

    #[test]
    fn input_sizes_are_positive_whole_numbers_with_binary_units() {
        assert_eq!(max_input_size("1"), Ok(1));
        assert_eq!(max_input_size("4096"), Ok(4096));
        assert_eq!(max_input_size("64M"), Ok(64 << 20));
        assert_eq!(max_input_size(" 64mib "), Ok(64 << 20));
        assert_eq!(max_input_size("8G"), Ok(8 << 30));
        assert_eq!(max_input_size("1k"), Ok(1024));
        assert_eq!(max_input_size("2TiB"), Ok(2 << 40));
        assert_eq!(max_input_size("16777215T"), Ok(16_777_215 << 40));
        for bad in ["", "M", "-1", "1.5G", "8GB", "8 G", "0x10", "abc", "1e9"] {
            let e = max_input_size(bad).unwrap_err();
            assert_eq!((e.option, e.flag()), ("max_input_size", "--max-input-size".to_string()));
            assert!(e.message.contains("is not a size in bytes"), "{bad:?}: {e}");
        }
        assert_eq!(
            max_input_size("0K").unwrap_err().to_string(),
            "max_input_size: \"0K\" is not a positive number of bytes"
        );
        assert!(
            max_input_size("16777216T")
                .unwrap_err()
                .message
                .contains("more bytes than a 64-bit count")
        );
        assert!(max_input_size("18446744073709551616").is_err());
    }

    #[test]
    fn a_whole_set_of_scene_options_is_checked() {
        assert_eq!(check(&SceneOptions::default()), Ok(()));
        let scene = SceneOptions {
            unit_scale: 0.0,
            ..SceneOptions::default()
        };
        assert_eq!(check(&scene).unwrap_err().option, SCALE);
        let scene = SceneOptions {
            framerate: Some(f64::NAN),
            ..SceneOptions::default()
        };
        assert_eq!(check(&scene).unwrap_err().option, FRAMERATE);
    }
}
