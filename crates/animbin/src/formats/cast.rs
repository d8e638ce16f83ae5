//! Cast through `animbin-cast`. A file read and written again is identical byte for byte; a
//! Cast built from a scene follows the reference writer's layout.

use std::io::Write;

use animbin_cast::{CastFile, NodeKind, View};
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

    /// The view checks exactly what the reader does (reading is the view's walk and a copy
    /// of each payload), so both accept the same files; only node headers are counted.
    fn info_of(bytes: &[u8]) -> Option<Result<Info>> {
        let summary = |view: View<'_>| {
            let mut counts = [0usize; 6];
            let kinds = [
                NodeKind::Model,
                NodeKind::Mesh,
                NodeKind::Bone,
                NodeKind::Animation,
                NodeKind::Curve,
                NodeKind::Material,
            ];
            for node in view.nodes() {
                if let Some(k) = kinds.iter().position(|&kind| kind.id() == node.id()) {
                    counts[k] += 1;
                }
            }
            let [
                model_count,
                mesh_count,
                bone_count,
                animation_count,
                curve_count,
                material_count,
            ] = counts;
            Info::Cast(CastInfo {
                root_count: view.header().root_count as usize,
                node_count: view.node_count(),
                model_count,
                mesh_count,
                bone_count,
                animation_count,
                curve_count,
                material_count,
                flags: view.flags(),
            })
        };
        Some(View::parse(bytes).map(summary).map_err(Into::into))
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
