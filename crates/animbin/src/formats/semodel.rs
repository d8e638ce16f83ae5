//! SEModel through `animbin-semodel`, either layout. `Target::SeModel` writes a document in
//! its own layout (so rewriting a file gives back its bytes); `SeModelDeployed` and
//! `SeModelDraft` choose a layout, the other one reached through the scene model.

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_semodel::{BlendShapes, Layout, SeModel, Trailer, View};

use super::{Codec, unsupported};
use crate::info::SeModelInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

/// The SEBlend shapes and the unknown trailing bytes of a trailer.
fn trailer_counts(trailer: &Trailer<BlendShapes>) -> (usize, usize) {
    match trailer {
        Trailer::None => (0, 0),
        Trailer::SeBlend(b) => (b.names.len(), 0),
        Trailer::Unknown(bytes) => (0, bytes.len()),
    }
}

/// The layout `target` asks for; `None` for the document's own.
fn layout_of(target: Target) -> Result<Option<Layout>> {
    match target {
        Target::SeModel => Ok(None),
        Target::SeModelDeployed => Ok(Some(Layout::Deployed)),
        Target::SeModelDraft => Ok(Some(Layout::Draft)),
        other => Err(unsupported(Format::SeModel, other)),
    }
}

impl Codec for SeModel {
    const FORMAT: Format = Format::SeModel;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(animbin_semodel::read(bytes)?)
    }

    fn info(&self) -> Info {
        let (blend_shape_count, trailing_bytes) = trailer_counts(self.trailer());
        Info::SeModel(SeModelInfo {
            layout: self.layout().name().to_string(),
            bone_count: self.bone_count(),
            mesh_count: self.mesh_count(),
            material_count: self.material_count(),
            vertex_count: self.vertex_count(),
            face_count: self.face_count(),
            blend_shape_count,
            trailing_bytes,
        })
    }

    /// The view reads the deployed layout; a draft file is summarised from the owned model.
    fn info_of(bytes: &[u8]) -> Option<Result<Info>> {
        match animbin_semodel::sniff(bytes) {
            Ok(Layout::Deployed) => {}
            Ok(Layout::Draft) => return None,
            Err(e) => return Some(Err(e.into())),
        }
        let summary = |view: View<'_>| {
            let (blend_shape_count, trailing_bytes) = trailer_counts(&view.trailer());
            let (header, meshes) = (view.header(), view.meshes());
            // The header's counts, as the owned model reports them (a count may stand
            // without its block, which validate reports).
            Info::SeModel(SeModelInfo {
                layout: Layout::Deployed.name().to_string(),
                bone_count: u64::from(header.bone_count.get()),
                mesh_count: u64::from(header.mesh_count.get()),
                material_count: u64::from(header.material_count.get()),
                vertex_count: meshes.iter().map(|m| m.vertex_count() as u64).sum(),
                face_count: meshes.iter().map(|m| m.faces().len() as u64).sum(),
                blend_shape_count,
                trailing_bytes,
            })
        };
        Some(View::parse(bytes).map(summary).map_err(Into::into))
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_semodel::validate(self)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(SeModel::to_scene(self, options, report)?)
    }

    fn from_scene(
        scene: &Scene,
        target: Target,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        let layout = layout_of(target)?.unwrap_or(Layout::Deployed);
        Ok(SeModel::from_scene_in(scene, layout, options, report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, report: &mut ConversionReport) -> Result<()> {
        match layout_of(target)? {
            Some(layout) if layout != self.layout() => {
                let model = self.to_layout(layout, &SceneOptions::default(), report)?;
                Ok(animbin_semodel::write(&model, writer)?)
            }
            _ => Ok(animbin_semodel::write(self, writer)?),
        }
    }

    fn into_document(self) -> Document {
        Document::SeModel(self)
    }
}
