//! The Dash Model Format 1.5 through `animbin-dmf`: the binary form (`Target::Dmf`) and the
//! JSON form (`Target::DmfJson`) read into one document.

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_dmf::{Dmf, View, json};

use super::{Codec, unsupported, write_all};
use crate::info::DmfInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

impl Codec for Dmf {
    const FORMAT: Format = Format::Dmf;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(animbin_dmf::read(bytes)?)
    }

    fn info(&self) -> Info {
        Info::Dmf(DmfInfo {
            texture_count: self.textures.len(),
            material_count: self.materials.len(),
            vertex_count: self.vertices.len(),
            face_count: self.faces.len(),
            bone_count: self.bones.len(),
            animation_count: self.animations.len(),
            track_count: self.track_count(),
        })
    }

    fn info_of(bytes: &[u8]) -> Option<Result<Info>> {
        // The binary form only: the JSON form has no view.
        if !animbin_dmf::has_magic(bytes) {
            return None;
        }
        let summary = |view: View<'_>| {
            view.check_records()?;
            Ok(Info::Dmf(DmfInfo {
                texture_count: view.textures().len(),
                material_count: view.materials().len(),
                vertex_count: view.vertices().len(),
                face_count: view.faces().len(),
                bone_count: view.bones().len(),
                animation_count: view.animations().len(),
                track_count: usize::try_from(view.track_count()).unwrap_or(usize::MAX),
            }))
        };
        Some(View::parse(bytes).and_then(summary).map_err(Into::into))
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_dmf::validate(self)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(Dmf::to_scene(self, options, report)?)
    }

    fn from_scene(scene: &Scene, _: Target, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(Dmf::from_scene(scene, options, report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::Dmf => Ok(animbin_dmf::write(self, writer)?),
            Target::DmfJson => write_all(writer, &json::to_vec(self)?),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::Dmf(self)
    }
}
