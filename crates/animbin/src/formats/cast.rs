//! Cast through `animbin-cast`. A file read and written again is identical byte for byte; a
//! Cast built from a scene follows the reference writer's layout.

use std::io::Write;

use animbin_cast::{CastFile, NodeKind};
use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

use super::{Codec, unsupported};
use crate::info::CastInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

impl Codec for CastFile {
    const FORMAT: Format = Format::Cast;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(animbin_cast::read(bytes)?)
    }

    fn info(&self) -> Info {
        Info::Cast(CastInfo {
            root_count: self.roots.len(),
            node_count: self.node_count(),
            model_count: self.count(NodeKind::Model),
            mesh_count: self.count(NodeKind::Mesh),
            bone_count: self.count(NodeKind::Bone),
            animation_count: self.count(NodeKind::Animation),
            curve_count: self.count(NodeKind::Curve),
            material_count: self.count(NodeKind::Material),
            flags: self.flags,
        })
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_cast::validate(self)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(CastFile::to_scene(self, options, report)?)
    }

    fn from_scene(scene: &Scene, _: Target, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(CastFile::from_scene(scene, options, report)?)
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::Cast => Ok(animbin_cast::write(self, writer)?),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::Cast(self)
    }
}
