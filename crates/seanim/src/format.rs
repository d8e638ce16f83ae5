//! [`SeAnim`]'s side of the contract every animbin format crate implements:
//! [`FileFormat`].

use std::io::Write;

use animbin_core::format::{FileFormat, Holds, Positioned};
use animbin_core::scene::{AnimKind, ConversionReport, Precision, Scene, SceneOptions};
use animbin_core::{Error, Problem};

use crate::layout::SeAnim;
use crate::summary::Summary;
use crate::view::View;

/// SEAnim v1: one animation of per-bone keys, with the frame rate and the anim type it
/// states, in one form. A file read and written again is identical byte for byte; an
/// SEAnim built from a scene derives its counts, widths and precision from the keys.
impl FileFormat for SeAnim {
    const NAME: &'static str = crate::FORMAT;
    const LABEL: &'static str = "SEAnim";
    const EXTENSIONS: &'static [&'static str] = &["seanim"];
    const MAGIC: &'static [u8] = crate::MAGIC;
    const HOLDS: Holds = Holds::ANIMATIONS;
    const STORES_FRAMERATE: bool = true;
    const ANIMATION_KINDS: &'static [AnimKind] = &[
        AnimKind::Absolute,
        AnimKind::Relative,
        AnimKind::Delta,
        AnimKind::Additive,
    ];
    /// An SEAnim is named by its file.
    const NAMES_ANIMATIONS: bool = false;
    const SEVERAL_ANIMATIONS: bool = false;
    /// `frameCount` is the last key's frame plus 1.
    const LENGTH_ENDS_ON_LAST_KEY: bool = false;
    /// `SEANIM_PRECISION_HIGH` chooses `f64` key values.
    const CHOOSES_PRECISION: bool = true;

    type Form = ();
    type Summary = Summary;
    type Error = Error;

    fn read(bytes: &[u8]) -> Result<Self, Error> {
        crate::read(bytes)
    }

    fn form(&self) {}

    fn write_as(&self, (): (), writer: &mut dyn Write, _: &mut ConversionReport) -> Result<(), Error> {
        crate::write(self, writer)
    }

    fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        crate::to_bytes(self)
    }

    /// The header's precision flag.
    fn key_precision(&self) -> Option<Precision> {
        Some(match self.precision() {
            crate::Precision::Single => Precision::Single,
            crate::Precision::Double => Precision::Double,
        })
    }

    fn summary(&self) -> Summary {
        Summary::of(self)
    }

    /// Through the [`View`], which accepts exactly the files [`crate::read`] does.
    fn summary_of(bytes: &[u8]) -> Result<Summary, Error> {
        View::parse(bytes).map(|view| view.summary())
    }

    /// The header, the names and every key run's count, the keys skipped.
    fn summary_at(file: &mut Positioned<'_>) -> Option<Summary> {
        Summary::at(file)
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(self)
    }

    animbin_core::dump_the_model!();

    animbin_core::scene_through_the_model!();

    fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        SeAnim::into_scene(self, options, report)
    }
}
