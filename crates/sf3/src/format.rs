//! x8an's side of the contract every format crate implements: [`FileFormat`] for
//! [`Sf3File`].

use std::io::Write;
use std::path::Path;

use animbin_core::format::{FileFormat, Holds};
use animbin_core::scene::{AnimKind, ConversionReport, Precision};
use animbin_core::{Error, Problem};

use crate::model::Sf3File;
use crate::summary::Summary;
use crate::{FORMAT, MAGIC};

/// `x8an*.bin`, in any case: the only sign of a Shining Force III battle animation, whose
/// files have no magic.
///
/// ```
/// use std::path::Path;
///
/// assert!(animbin_sf3::is_x8an_name(Path::new("disc/X8AN00.BIN")));
/// assert!(!animbin_sf3::is_x8an_name(Path::new("x8an00.dat")));
/// ```
pub fn is_x8an_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_ascii_lowercase)
        .is_some_and(|n| n.starts_with("x8an") && n.ends_with(".bin"))
}

/// x8an: one form, read and written back byte for byte; no magic, so a file is known by its
/// name ([`is_x8an_name`]) or by the caller's word; the summary is the count-only walk
/// ([`Summary::parse`]); the dump is the model's serde form. Key times are ticks with no rate
/// in the file: a scene's frame rate is the caller's ([`SceneOptions::framerate`](animbin_core::SceneOptions::framerate), 30 by
/// default).
impl FileFormat for Sf3File {
    const NAME: &'static str = FORMAT;
    const LABEL: &'static str = "Shining Force III x8an";
    const EXTENSIONS: &'static [&'static str] = &["bin"];
    const MAGIC: &'static [u8] = MAGIC;
    const HOLDS: Holds = Holds::ANIMATIONS;
    const STORES_FRAMERATE: bool = false;
    const ANIMATION_KINDS: &'static [AnimKind] = &[AnimKind::Absolute];
    /// Segments are named by their place (`segment0`).
    const NAMES_ANIMATIONS: bool = false;
    /// One animation per segment.
    const SEVERAL_ANIMATIONS: bool = true;
    const LENGTH_ENDS_ON_LAST_KEY: bool = false;
    const CHOOSES_PRECISION: bool = false;

    type Form = ();
    type Summary = Summary;
    type Error = Error;

    /// [`is_x8an_name`].
    fn probe_name(path: &Path) -> bool {
        is_x8an_name(path)
    }

    fn read(bytes: &[u8]) -> Result<Self, Error> {
        crate::read(bytes)
    }

    fn form(&self) {}

    fn write_as(&self, (): (), writer: &mut dyn Write, _: &mut ConversionReport) -> Result<(), Error> {
        crate::write(self, writer)
    }

    /// 16.16 fixed-point translations need more than `f32`'s 24 bits.
    fn key_precision(&self) -> Option<Precision> {
        Some(Precision::Double)
    }

    fn summary(&self) -> Summary {
        Summary::of_file(self)
    }

    /// [`Summary::parse`]: the slot tables are walked (x8an files have no header, so the
    /// segments are found only that way) but no key is read and nothing is kept per slot.
    fn summary_of(bytes: &[u8]) -> Result<Summary, Error> {
        Summary::parse(bytes)
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(self)
    }

    animbin_core::dump_the_model!();

    animbin_core::scene_through_the_model!();
}

#[cfg(test)]
mod tests {
    use animbin_core::scene::Scene;

    use super::*;

    #[test]
    fn a_scene_without_animations_is_refused_in_the_facade_s_words() {
        assert_eq!(
            Sf3File::holds_nothing(&Scene::default()).as_deref(),
            Some("it holds animations and the input has none")
        );
    }

    #[test]
    fn files_are_known_by_their_name_only() {
        assert!(MAGIC.is_empty());
        assert!(!Sf3File::probe(&[0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff]));
        assert!(Sf3File::probe_name(Path::new("x8an01.bin")));
        assert!(Sf3File::probe_name(Path::new("dir/X8an2.BIN")));
        for not in ["x8an01.bin.bak", "x8pc01.bin", "x8an", "x8an01.bin/.."] {
            assert!(!Sf3File::probe_name(Path::new(not)), "{not}");
        }
        assert!(!Sf3File::probe_json(b"{}"));
    }
}
