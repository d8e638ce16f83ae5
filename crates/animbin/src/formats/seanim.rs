//! SEAnim v1 through `animbin-seanim`. A file read and written again is identical byte for
//! byte; an SEAnim built from a scene derives its counts, widths and precision from the keys.

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_seanim::{AnimFlags, Precision, SeAnim, SeBlend, Trailer, View};

use super::{Codec, unsupported};
use crate::info::SeAnimInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

/// An `f32` as the `f64` its shortest decimal form reads as (29.97, not 29.969999313354492);
/// `None` for NaN and infinities.
fn shortest_f64(x: f32) -> Option<f64> {
    x.to_string().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn blend_shape_count(trailer: &Trailer<SeBlend>) -> usize {
    trailer.seblend().map_or(0, |blend| blend.shapes.len())
}

impl Codec for SeAnim {
    const FORMAT: Format = Format::SeAnim;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(animbin_seanim::read(bytes)?)
    }

    fn info(&self) -> Info {
        Info::SeAnim(SeAnimInfo {
            frame_count: self.frame_count().ok(),
            framerate: shortest_f64(self.framerate),
            bone_count: self.bones.len(),
            note_count: self.notes.len(),
            high_precision: self.precision() == Precision::Double,
            anim_type: self.anim_type.name().to_string(),
            looped: self.looped(),
            modifier_count: self.modifiers.len(),
            frame_width: self.frame_width().ok().map(|w| w.size()),
            custom_size: self.custom.len(),
            trailer: self.trailer.kind().to_string(),
            blend_shape_count: blend_shape_count(&self.trailer),
        })
    }

    fn info_of(bytes: &[u8]) -> Option<Result<Info>> {
        let summary = |view: View<'_>| {
            let trailer = view.trailer();
            Info::SeAnim(SeAnimInfo {
                frame_count: Some(view.frame_count()),
                framerate: shortest_f64(view.framerate()),
                bone_count: view.bone_count() as usize,
                note_count: view.note_count() as usize,
                high_precision: view.precision() == Precision::Double,
                anim_type: view.anim_type().name().to_string(),
                looped: view.anim_flags().contains(AnimFlags::LOOPED),
                modifier_count: view.modifiers().len(),
                frame_width: Some(view.frame_width().size()),
                custom_size: view.custom().len(),
                trailer: trailer.kind().to_string(),
                blend_shape_count: blend_shape_count(&trailer),
            })
        };
        Some(View::parse(bytes).map(summary).map_err(Into::into))
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_seanim::validate(self)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(SeAnim::to_scene(self, options, report)?)
    }

    fn from_scene(scene: &Scene, _: Target, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(SeAnim::from_scene(scene, options, report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::SeAnim => Ok(animbin_seanim::write(self, writer)?),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::SeAnim(self)
    }
}
