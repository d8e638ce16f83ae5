//! SEAnim (magic `SEAnim`), through `animbin-seanim`.
//!
//! Target `seanim` (`.seanim`). A file read and written again is identical byte for byte
//! (the crate keeps every field); an SEAnim built from a scene derives its counts, widths,
//! frame count and precision from the keys.

use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_seanim::{SeAnim, Trailer};
use anyhow::{Context, bail};
use serde_json::{Map, Value};

use super::{CliResult, Document, Format, SceneOptions, Target};

/// SEAnim v1.
pub(crate) struct SeAnimFormat;

impl Format for SeAnimFormat {
    fn name(&self) -> &'static str {
        animbin_seanim::FORMAT
    }

    fn targets(&self) -> &'static [Target] {
        &[Target {
            name: "seanim",
            extension: Some("seanim"),
        }]
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
            anim: SeAnim::from_scene(scene, report)?,
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
        let mut info = Map::new();
        info.insert("frame_count".into(), a.frame_count().map_or(Value::Null, Value::from));
        info.insert("framerate".into(), f32_value(a.framerate));
        info.insert("bone_count".into(), a.bones.len().into());
        info.insert("note_count".into(), a.notes.len().into());
        info.insert(
            "high_precision".into(),
            (a.precision() == animbin_seanim::Precision::Double).into(),
        );
        info.insert("anim_type".into(), a.anim_type.name().into());
        info.insert("looped".into(), a.looped().into());
        info.insert("modifier_count".into(), a.modifiers.len().into());
        info.insert(
            "frame_width".into(),
            a.frame_width().map_or(Value::Null, |w| w.size().into()),
        );
        info.insert("custom_size".into(), a.custom.len().into());
        let (trailer, shapes) = match &a.trailer {
            None => ("none", 0),
            Some(Trailer::SeBlend(blend)) => ("seblend", blend.shapes.len()),
            Some(Trailer::Unknown(_)) => ("unknown", 0),
        };
        info.insert("trailer".into(), trailer.into());
        info.insert("blend_shape_count".into(), shapes.into());
        info
    }

    fn dump(&self) -> CliResult<Value> {
        let value = serde_json::to_value(&self.anim)?;
        // JSON has no NaN or infinity: refuse a dump that would not rebuild the same bytes.
        let back: SeAnim = serde_json::from_value(value.clone())
            .context("this file holds NaN or infinite floats, which a JSON dump cannot keep")?;
        if animbin_seanim::to_bytes(&back)? != animbin_seanim::to_bytes(&self.anim)? {
            bail!("this file holds floats that a JSON dump cannot keep exactly (NaN payloads or infinities)");
        }
        Ok(value)
    }

    fn validate(&self) -> Vec<String> {
        animbin_seanim::validate(&self.anim)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(self.anim.to_scene(report))
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        match target {
            "seanim" => Ok(animbin_seanim::to_bytes(&self.anim)?),
            other => bail!("seanim cannot be written as {other:?}"),
        }
    }
}
