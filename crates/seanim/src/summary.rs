//! [`Summary`]: the counts and header fields of an SEAnim file, from the owned model or
//! straight from a [`View`], the same either way.

use serde::{Deserialize, Serialize};

use crate::Trailer;
use crate::keys::Precision;
use crate::layout::{AnimFlags, SeAnim, SeBlend};
use crate::view::View;

/// The summary of an SEAnim file, as `animbin info` shows it: counts and header fields,
/// without the keys.
///
/// Built from the owned model ([`animbin_core::FileFormat::summary`]) or from a zero-copy
/// [`View`] ([`View::summary`]); both give the same summary of the same file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The header's `frameCount`; `None` when the keys need more frames than it can count.
    pub frame_count: Option<u32>,
    /// Frames per second (`None` for NaN or infinity, which JSON cannot hold).
    pub framerate: Option<f64>,
    /// Bones with keys.
    pub bone_count: usize,
    /// Notes.
    pub note_count: usize,
    /// Key values are `f64` (`SEANIM_PRECISION_HIGH`).
    pub high_precision: bool,
    /// `"absolute"`, `"additive"`, `"relative"` or `"delta"`.
    pub anim_type: String,
    /// The animation loops.
    pub looped: bool,
    /// Bones whose animation type is overridden.
    pub modifier_count: usize,
    /// The width of frame indices in bytes (1, 2 or 4).
    pub frame_width: Option<u64>,
    /// Bytes of the custom data block.
    pub custom_size: usize,
    /// `"none"`, `"seblend"` or `"unknown"`.
    pub trailer: String,
    /// Shapes of an SEBlend trailer.
    pub blend_shape_count: usize,
}

/// An `f32` as the `f64` its shortest decimal form reads as (29.97, not 29.969999313354492);
/// `None` for NaN and infinities.
fn shortest_f64(x: f32) -> Option<f64> {
    x.to_string().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn blend_shape_count(trailer: &Trailer<SeBlend>) -> usize {
    trailer.seblend().map_or(0, |blend| blend.shapes.len())
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of(anim: &SeAnim) -> Self {
        Self {
            frame_count: anim.frame_count().ok(),
            framerate: shortest_f64(anim.framerate),
            bone_count: anim.bones.len(),
            note_count: anim.notes.len(),
            high_precision: anim.precision() == Precision::Double,
            anim_type: anim.anim_type.name().to_string(),
            looped: anim.looped(),
            modifier_count: anim.modifiers.len(),
            frame_width: anim.frame_width().ok().map(|w| w.size()),
            custom_size: anim.custom.len(),
            trailer: anim.trailer.kind().to_string(),
            blend_shape_count: blend_shape_count(&anim.trailer),
        }
    }
}

impl View<'_> {
    /// The summary of the file, without building the owned model: the same as the model's
    /// ([`animbin_core::FileFormat::summary`]). Only an SEBlend trailer is parsed (copied).
    pub fn summary(&self) -> Summary {
        let trailer = self.trailer();
        Summary {
            frame_count: Some(self.frame_count()),
            framerate: shortest_f64(self.framerate()),
            bone_count: self.bone_count() as usize,
            note_count: self.note_count() as usize,
            high_precision: self.precision() == Precision::Double,
            anim_type: self.anim_type().name().to_string(),
            looped: self.anim_flags().contains(AnimFlags::LOOPED),
            modifier_count: self.modifiers().len(),
            frame_width: Some(self.frame_width().size()),
            custom_size: self.custom().len(),
            trailer: trailer.kind().to_string(),
            blend_shape_count: blend_shape_count(&trailer),
        }
    }
}
