//! SEAnim (magic `SEAnim`), through `animbin-seanim`.
//!
//! Target `seanim` (`.seanim`). A file read and written again is identical byte for byte
//! (the crate keeps every field); an SEAnim built from a scene derives its counts, widths,
//! frame count and precision from the keys.

use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_seanim::SeAnim;
use anyhow::{Context, bail};
use serde_json::{Map, Value, json};

use super::{CliResult, Document, Format, SceneOptions, Target, lines, members};

/// SEAnim v1.
pub(crate) struct SeAnimFormat;

impl Format for SeAnimFormat {
    fn name(&self) -> &'static str {
        animbin_seanim::FORMAT
    }

    fn targets(&self) -> &'static [Target] {
        const { &[Target::with_extension("seanim")] }
    }

    fn detect(&self, bytes: &[u8], _path: &Path) -> bool {
        bytes.starts_with(animbin_seanim::MAGIC)
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(SeAnimDocument {
            anim: animbin_seanim::read(bytes)?,
        }))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        let anim: SeAnim = serde_json::from_value(data).context("not an SEAnim dump")?;
        Ok(Box::new(SeAnimDocument { anim }))
    }

    fn from_scene(
        &self,
        scene: &Scene,
        _options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(SeAnimDocument {
            // SEAnim keeps its own framerate and converts no units: no option applies.
            anim: SeAnim::from_scene(scene, &Default::default(), report)?,
        }))
    }
}

/// One SEAnim file.
struct SeAnimDocument {
    anim: SeAnim,
}

/// An `f32` as the JSON number its shortest decimal form reads as (29.97, not
/// 29.969999313354492); `null` for NaN and infinities, which JSON cannot hold.
fn f32_value(x: f32) -> Value {
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

impl Document for SeAnimDocument {
    fn info(&self) -> Map<String, Value> {
        let a = &self.anim;
        let trailer = a.trailer.kind();
        let shapes = a.trailer.seblend().map_or(0, |blend| blend.shapes.len());
        members(json!({
            "frame_count": a.frame_count().ok(),
            "framerate": f32_value(a.framerate),
            "bone_count": a.bones.len(),
            "note_count": a.notes.len(),
            "high_precision": a.precision() == animbin_seanim::Precision::Double,
            "anim_type": a.anim_type.name(),
            "looped": a.looped(),
            "modifier_count": a.modifiers.len(),
            "frame_width": a.frame_width().ok().map(|w| w.size()),
            "custom_size": a.custom.len(),
            "trailer": trailer,
            "blend_shape_count": shapes,
        }))
    }

    fn dump(&self) -> CliResult<Value> {
        Ok(serde_json::to_value(&self.anim)?)
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_seanim::validate(&self.anim))
    }

    fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(self.anim.to_scene(&Default::default(), report)?)
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        match target {
            "seanim" => Ok(animbin_seanim::to_bytes(&self.anim)?),
            other => bail!("seanim cannot be written as {other:?}"),
        }
    }
}
