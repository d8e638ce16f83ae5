//! SEModel (magic `SEModel`), through `animbin-semodel`.
//!
//! Targets: `semodel` (`.semodel`) writes the document in its own layout, so rewriting a file
//! gives back its bytes, and a model built from a scene uses the deployed layout that every
//! tool reads; `semodel-deployed` and `semodel-draft` choose a layout explicitly (the other
//! layout is reached through the scene model, and what it cannot hold is reported).

use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_semodel::{Layout, SeModel};
use anyhow::{Context, bail};
use serde_json::{Map, Value, json};

use super::{CliResult, Document, Format, SceneOptions, Target, lines, members};

/// SEModel, either layout.
pub(crate) struct SeModelFormat;

impl Format for SeModelFormat {
    fn name(&self) -> &'static str {
        animbin_semodel::FORMAT
    }

    fn targets(&self) -> &'static [Target] {
        const {
            &[
                Target::with_extension("semodel"),
                Target::named("semodel-deployed"),
                Target::named("semodel-draft"),
            ]
        }
    }

    fn detect(&self, bytes: &[u8], _path: &Path) -> bool {
        bytes.starts_with(&animbin_semodel::MAGIC)
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(SeModelDocument {
            model: animbin_semodel::read(bytes)?,
            scene: None,
        }))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        let model: SeModel = serde_json::from_value(data).context("not an SEModel dump")?;
        Ok(Box::new(SeModelDocument { model, scene: None }))
    }

    fn from_scene(
        &self,
        scene: &Scene,
        _options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(SeModelDocument {
            // SEModel converts no units or axes: no option applies.
            model: SeModel::from_scene(scene, &Default::default(), report)?,
            scene: Some(scene.clone()),
        }))
    }
}

/// A model, and the scene it was built from when it was (so another layout starts there).
struct SeModelDocument {
    model: SeModel,
    scene: Option<Scene>,
}

impl SeModelDocument {
    /// The model rebuilt in the other layout (from the scene it was built from, if any),
    /// with losses on stderr.
    fn in_layout(&self, layout: Layout) -> CliResult<SeModel> {
        let mut report = ConversionReport::default();
        let options = Default::default();
        let model = match &self.scene {
            Some(scene) => SeModel::from_scene_in(scene, layout, &options, &mut report)?,
            None => self.model.to_layout(layout, &options, &mut report)?,
        };
        for line in &report.lost {
            crate::warn(format_args!("animbin: semodel-{} cannot hold: {line}", layout.name()));
        }
        Ok(model)
    }
}

impl Document for SeModelDocument {
    fn info(&self) -> Map<String, Value> {
        let m = &self.model;
        let blend_shapes = m.trailer().seblend().map_or(0, |b| b.names.len());
        let trailing = match m.trailer() {
            animbin_semodel::Trailer::Unknown(bytes) => bytes.len(),
            _ => 0,
        };
        members(json!({
            "layout": m.layout().name(),
            "bone_count": m.bone_count(),
            "mesh_count": m.mesh_count(),
            "material_count": m.material_count(),
            "vertex_count": m.vertex_count(),
            "face_count": m.face_count(),
            "blend_shape_count": blend_shapes,
            "trailing_bytes": trailing,
        }))
    }

    fn dump(&self) -> CliResult<Value> {
        Ok(serde_json::to_value(&self.model)?)
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_semodel::validate(&self.model))
    }

    fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(self.model.to_scene(&Default::default(), report)?)
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        let layout = match target {
            "semodel" => self.model.layout(),
            "semodel-deployed" => Layout::Deployed,
            "semodel-draft" => Layout::Draft,
            other => bail!("semodel cannot be written as {other:?}"),
        };
        if layout == self.model.layout() {
            return Ok(animbin_semodel::to_bytes(&self.model)?);
        }
        Ok(animbin_semodel::to_bytes(&self.in_layout(layout)?)?)
    }
}
