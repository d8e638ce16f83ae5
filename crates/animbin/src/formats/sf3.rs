//! Shining Force III battle animations through `animbin-sf3`. The files store no rate:
//! [`SceneOptions::framerate`] sets the rate of key ticks both ways (30 by default).

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_sf3::{DEFAULT_FRAMERATE, Ending, SceneOptions as Sf3Options, Sf3File};

use super::{Codec, unsupported, write_all};
use crate::info::Sf3Info;
use crate::{Document, Format, Info, Problem, Result, Target};

fn sf3_options(options: &SceneOptions) -> Sf3Options {
    Sf3Options {
        framerate: options.framerate_or(DEFAULT_FRAMERATE),
        normalize_rotations: options.normalize_rotations,
    }
}

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

    fn validate(&self) -> Vec<Problem> {
        animbin_sf3::validate(self).iter().map(Problem::legacy).collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        if self.padding_words != 0 || self.ending != Ending::Eof || self.segments.iter().any(|s| s.padding_words != 0) {
            report.lose("the padding words and end marker of the SF3 file");
        }
        Ok(animbin_sf3::to_scene(self, &sf3_options(options)))
    }

    fn from_scene(scene: &Scene, _: Target, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(animbin_sf3::from_scene(scene, &sf3_options(options), report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::Sf3 => write_all(writer, &animbin_sf3::to_bytes(self)?),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::Sf3(self)
    }
}
