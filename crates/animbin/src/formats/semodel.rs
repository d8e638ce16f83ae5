//! SEModel through `animbin-semodel`, either layout. `Target::SeModel` writes a document in
//! its own layout (so rewriting a file gives back its bytes); `SeModelDeployed` and
//! `SeModelDraft` choose a layout, the other one reached through the scene model.

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_semodel::{Layout, SeModel, Trailer};

use super::{Codec, unsupported, write_all};
use crate::info::SeModelInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

impl Codec for SeModel {
    const FORMAT: Format = Format::SeModel;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(animbin_semodel::read(bytes)?)
    }

    fn info(&self) -> Info {
        let (blend_shape_count, trailing_bytes) = match self.trailer() {
            Trailer::None => (0, 0),
            Trailer::Blend(b) => (b.names.len(), 0),
            Trailer::Unknown(bytes) => (0, bytes.len()),
        };
        Info::SeModel(SeModelInfo {
            layout: match self.layout() {
                Layout::Deployed => "deployed",
                Layout::Draft => "draft",
            }
            .to_string(),
            bone_count: self.bone_count(),
            mesh_count: self.mesh_count(),
            material_count: self.material_count(),
            vertex_count: self.vertex_count(),
            face_count: self.face_count(),
            blend_shape_count,
            trailing_bytes,
        })
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_semodel::validate(self).iter().map(Problem::legacy).collect()
    }

    fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(SeModel::to_scene(self, report)?)
    }

    fn from_scene(
        scene: &Scene,
        target: Target,
        _options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        let layout = match target {
            Target::SeModelDraft => Layout::Draft,
            _ => Layout::Deployed,
        };
        Ok(SeModel::from_scene(scene, layout, report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, report: &mut ConversionReport) -> Result<()> {
        let layout = match target {
            Target::SeModel => self.layout(),
            Target::SeModelDeployed => Layout::Deployed,
            Target::SeModelDraft => Layout::Draft,
            other => return Err(unsupported(Self::FORMAT, other)),
        };
        if layout == self.layout() {
            return write_all(writer, &animbin_semodel::to_bytes(self)?);
        }
        let scene = SeModel::to_scene(self, report)?;
        let model = SeModel::from_scene(&scene, layout, report)?;
        write_all(writer, &animbin_semodel::to_bytes(&model)?)
    }

    fn into_document(self) -> Document {
        Document::SeModel(self)
    }
}
