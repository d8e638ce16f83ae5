//! Shining Force III battle animations (`x8anNN.bin`), through `animbin-sf3`.
//!
//! The files have no magic: they are recognised by the name `x8an*.bin` (any case) or by
//! `--format sf3`. They store no framerate: `--framerate` sets the rate of key ticks when
//! converting a scene into SF3 and reading SF3 into a scene (default 30).

use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_sf3::{Ending, Sf3File};
use serde_json::{Map, Value, json};

use super::{CliResult, Document, Format, SceneOptions, Target, lines, members};

/// The SF3 format.
pub(crate) struct Sf3;

impl Format for Sf3 {
    fn name(&self) -> &'static str {
        animbin_sf3::FORMAT
    }

    fn targets(&self) -> &'static [Target] {
        // No extension selects it (every x8an file is a ".bin"); `--to sf3` does.
        const { &[Target::named("sf3")] }
    }

    fn detect(&self, _bytes: &[u8], path: &Path) -> bool {
        is_x8an_name(path)
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(Sf3Document(animbin_sf3::read(bytes)?)))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(Sf3Document(serde_json::from_value(data)?)))
    }

    fn from_scene(
        &self,
        scene: &Scene,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(Sf3Document(Sf3File::from_scene(
            scene,
            &sf3_options(options),
            report,
        )?)))
    }
}

/// The command's options as the SF3 crate takes them: the key tick rate from `--framerate`
/// (the crate's default, 30 fps, when unset).
fn sf3_options(options: &SceneOptions) -> animbin_core::SceneOptions {
    animbin_core::SceneOptions {
        framerate: options.framerate,
        z_up: options.z_up,
        unit_scale: options.unit_scale.unwrap_or(1.0),
        ..animbin_core::SceneOptions::default()
    }
}

/// `x8an*.bin`, in any case: the only sign of an SF3 file.
fn is_x8an_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_ascii_lowercase)
        .is_some_and(|n| n.starts_with("x8an") && n.ends_with(".bin"))
}

struct Sf3Document(Sf3File);

impl Document for Sf3Document {
    fn info(&self) -> Map<String, Value> {
        let file = &self.0;
        let [translation, rotation, scale] = file.key_counts();
        let padding: u64 =
            file.segments.iter().map(|s| u64::from(s.padding_words)).sum::<u64>() + u64::from(file.padding_words);
        members(json!({
            "segment_count": file.segments.len(),
            "slot_count": file.slot_count(),
            "translation_key_count": translation,
            "rotation_key_count": rotation,
            "scale_key_count": scale,
            "key_count": translation + rotation + scale,
            "padding_words": padding,
            "end_marker": matches!(file.ending, Ending::EndMarker { .. }),
        }))
    }

    fn dump(&self) -> CliResult<Value> {
        Ok(serde_json::to_value(&self.0)?)
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_sf3::validate(&self.0))
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(self.0.to_scene(&sf3_options(options), report)?)
    }

    fn write(&self, _target: &str) -> CliResult<Vec<u8>> {
        Ok(animbin_sf3::to_bytes(&self.0)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_x8an_bin_names_are_detected() {
        for name in ["x8an00.bin", "X8AN12.BIN", "dir/x8an.bin", "x8anxx.Bin"] {
            assert!(is_x8an_name(Path::new(name)), "{name}");
        }
        for name in [
            "x8pc00.bin",
            "x8an00.bin.json",
            "ax8an00.bin",
            "x8an00",
            "x8an00.seanim",
        ] {
            assert!(!is_x8an_name(Path::new(name)), "{name}");
        }
    }
}
