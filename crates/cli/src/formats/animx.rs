//! Resonite AnimX (binary, magic `05 "AnimX"`) and AnimJ (its JSON twin), through `animbin-animx`.
//!
//! Both read into one [`AnimXDocument`]; the targets are `animx` (`.animx`) and `animj` (`.animj`).
//! A compressed file keeps its stored bytes, so writing it unchanged gives back the input;
//! its dump carries them (`stored`, base64) beside the tracks, and they are reused only
//! when they still decode to the dumped tracks. Scenes use 60 frames per second
//! ([`animbin_animx::DEFAULT_FRAMERATE`]) unless `--framerate` says otherwise, since AnimX
//! counts seconds.

use std::path::Path;

use animbin_animx::{AnimXDocument, Animation, animj};
use animbin_core::scene::{ConversionReport, Scene};
use anyhow::bail;
use serde_json::{Map, Value, json};

use super::{CliResult, Document, Format, SceneOptions, Target, lines, members};

/// AnimX and AnimJ.
pub(crate) struct AnimX;

impl Format for AnimX {
    fn name(&self) -> &'static str {
        animbin_animx::FORMAT
    }

    fn targets(&self) -> &'static [Target] {
        const { &[Target::with_extension("animx"), Target::with_extension("animj")] }
    }

    fn detect(&self, bytes: &[u8], _path: &Path) -> bool {
        bytes.starts_with(animbin_animx::MAGIC)
    }

    fn detect_json(&self, json: &Value) -> bool {
        animj::is_animj_value(json)
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(AnimXDoc(AnimXDocument::read(bytes)?)))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(AnimXDoc(AnimXDocument::from_dump(&data)?)))
    }

    fn from_scene(
        &self,
        scene: &Scene,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        let animation = Animation::from_scene(scene, &scene_options(options), report)?;
        Ok(Box::new(AnimXDoc(animation.into())))
    }
}

/// The command's options as the format crate takes them.
fn scene_options(options: &SceneOptions) -> animbin_core::SceneOptions {
    animbin_core::SceneOptions {
        framerate: options.framerate,
        z_up: options.z_up,
        unit_scale: options.unit_scale.unwrap_or(1.0),
        ..animbin_core::SceneOptions::default()
    }
}

/// An animation, and the file it was read from (for byte-exact rewrites of compressed data).
struct AnimXDoc(AnimXDocument);

impl Document for AnimXDoc {
    fn info(&self) -> Map<String, Value> {
        let a = &self.0.animation;
        members(json!({
            "version": a.version,
            "encoding": a.encoding.name(),
            "track_count": a.tracks.len(),
            "keyframe_count": a.keyframe_count(),
            "duration": a.global_duration,
            "name": a.name,
        }))
    }

    fn dump(&self) -> CliResult<Value> {
        Ok(self.0.to_dump())
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_animx::validate(&self.0.animation))
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(self.0.animation.to_scene(&scene_options(options), report)?)
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        match target {
            "animx" => Ok(self.0.to_bytes()?),
            "animj" => Ok(self.0.to_animj()?.into_bytes()),
            other => bail!("animx cannot be written as {other:?}"),
        }
    }
}
