//! The Dash Model Format 1.5 (binary, magic `DASH`) and its JSON form, through `animbin-dmf`.
//!
//! Both read into one document; the targets are `dmf` (`.dmf`) and `dmf-json` (no extension:
//! `.json` means an animbin dump, so the JSON form is asked for with `--to dmf-json`). The
//! dump's `data` is the JSON form itself, so dump -> convert rebuilds a canonical file byte
//! for byte.

use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_dmf::json;
use anyhow::bail;
use serde_json::{Map, Value};

use super::{CliResult, Document, Format, SceneOptions, Target, lines, members};

/// DMF, binary and JSON.
pub(crate) struct Dmf;

impl Format for Dmf {
    fn name(&self) -> &'static str {
        animbin_dmf::FORMAT
    }

    fn targets(&self) -> &'static [Target] {
        const { &[Target::with_extension("dmf"), Target::named("dmf-json")] }
    }

    fn detect(&self, bytes: &[u8], _path: &Path) -> bool {
        animbin_dmf::has_magic(bytes)
    }

    fn detect_json(&self, json: &Value) -> bool {
        json.get("format").and_then(Value::as_str) == Some(json::JSON_FORMAT)
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(DmfDocument(animbin_dmf::read(bytes)?)))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(DmfDocument(json::from_value(&data)?)))
    }

    fn from_scene(
        &self,
        scene: &Scene,
        _options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(DmfDocument(animbin_dmf::Dmf::from_scene(
            scene,
            &animbin_dmf::SceneOptions::default(),
            report,
        )?)))
    }
}

/// A DMF model read from either form.
struct DmfDocument(animbin_dmf::Dmf);

impl Document for DmfDocument {
    fn info(&self) -> Map<String, Value> {
        let dmf = &self.0;
        members(serde_json::json!({
            "texture_count": dmf.textures.len(),
            "material_count": dmf.materials.len(),
            "vertex_count": dmf.vertices.len(),
            "face_count": dmf.faces.len(),
            "bone_count": dmf.bones.len(),
            "animation_count": dmf.animations.len(),
            "track_count": dmf.track_count(),
        }))
    }

    fn dump(&self) -> CliResult<Value> {
        Ok(json::to_value(&self.0)?)
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_dmf::validate(&self.0))
    }

    fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(self.0.to_scene(&animbin_dmf::SceneOptions::default(), report)?)
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        match target {
            "dmf" => Ok(animbin_dmf::to_bytes(&self.0)?),
            "dmf-json" => Ok(json::to_vec(&self.0)?),
            other => bail!("dmf cannot be written as {other:?}"),
        }
    }
}
