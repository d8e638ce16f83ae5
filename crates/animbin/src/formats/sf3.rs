//! Shining Force III battle animations through `animbin-sf3`. The files store no rate:
//! [`SceneOptions::framerate`] sets the rate of key ticks both ways (30 by default).

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_sf3::{Ending, Sf3File, Summary};

use super::{Codec, unsupported};
use crate::info::Sf3Info;
use crate::{Document, Format, Info, Problem, Result, Target};

impl Codec for Sf3File {
    const FORMAT: Format = Format::Sf3;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(animbin_sf3::read(bytes)?)
    }

    fn info(&self) -> Info {
        let [translation, rotation, scale] = self.key_counts();
        let padding_words =
            self.segments.iter().map(|s| u64::from(s.padding_words)).sum::<u64>() + u64::from(self.padding_words);
        Info::Sf3(Sf3Info {
            segment_count: self.segments.len(),
            slot_count: self.slot_count() as u64,
            translation_key_count: translation as u64,
            rotation_key_count: rotation as u64,
            scale_key_count: scale as u64,
            key_count: (translation + rotation + scale) as u64,
            padding_words,
            end_marker: matches!(self.ending, Ending::EndMarker { .. }),
        })
    }

    /// Through [`Summary`]: the slot tables are walked (x8an files have no header, so the
    /// segments are found only that way) but no key is read and nothing is kept per slot.
    fn info_of(bytes: &[u8]) -> Option<Result<Info>> {
        let info = |s: Summary| {
            let [translation, rotation, scale] = s.keys;
            Info::Sf3(Sf3Info {
                segment_count: s.segments as usize,
                slot_count: s.slots,
                translation_key_count: translation,
                rotation_key_count: rotation,
                scale_key_count: scale,
                key_count: translation + rotation + scale,
                padding_words: s.padding_words,
                end_marker: s.end_marker,
            })
        };
        Some(Summary::parse(bytes).map(info).map_err(Into::into))
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_sf3::validate(self)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(Sf3File::to_scene(self, options, report)?)
    }

    fn from_scene(scene: &Scene, _: Target, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(Sf3File::from_scene(scene, options, report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::Sf3 => Ok(animbin_sf3::write(self, writer)?),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::Sf3(self)
    }
}
