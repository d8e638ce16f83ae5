//! What each format adds to the library: one module per format, each implementing
//! [`Codec`] for the document type that [`crate::Document`] holds for it.

pub(crate) mod animx;
pub(crate) mod cast;
pub(crate) mod dmf;
pub(crate) mod gltf;
pub(crate) mod seanim;
pub(crate) mod semodel;
pub(crate) mod sf3;

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

use crate::{Document, Error, Format, Info, Problem, Result, Target};

/// One format's side of [`Document`]: every method has the same meaning for each format.
pub(crate) trait Codec: Sized {
    /// The format.
    const FORMAT: Format;
    /// Reads a file of this format: its binary form, or its own JSON form where it has one.
    fn read(bytes: &[u8]) -> Result<Self>;
    /// The summary.
    fn info(&self) -> Info;
    /// The summary of a file read through the format's zero-copy view, without building the
    /// owned model, so its cost does not grow with the keys or vertices; `None` where the
    /// format (or this file's layout) has no view that both holds every field and accepts
    /// exactly the files [`Codec::read`] does.
    fn info_of(_bytes: &[u8]) -> Option<Result<Info>> {
        None
    }
    /// Every broken rule and suspicious value.
    fn validate(&self) -> Vec<Problem>;
    /// The document as a scene, recording what the scene cannot hold.
    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene>;
    /// A document of this format built from a scene, for `target` (one of this format's).
    fn from_scene(scene: &Scene, target: Target, options: &SceneOptions, report: &mut ConversionReport)
    -> Result<Self>;
    /// Encodes the document as `target` (one of this format's), recording what a change of
    /// layout loses.
    fn write(&self, target: Target, writer: &mut dyn Write, report: &mut ConversionReport) -> Result<()>;
    /// The target that writes the document back in the form it was read from.
    fn own_target(&self) -> Target {
        Self::FORMAT.targets()[0]
    }
    /// Wraps the document.
    fn into_document(self) -> Document;
}

/// Writes bytes a format crate encoded into memory.
pub(crate) fn write_all(writer: &mut dyn Write, bytes: &[u8]) -> Result<()> {
    writer.write_all(bytes).map_err(Error::Write)
}

/// The error for a target that is not one of the document's format's.
pub(crate) fn unsupported(format: Format, target: Target) -> Error {
    Error::Unsupported { format, target }
}
