//! Resonite AnimX (binary, magic `05 "AnimX"`) and AnimJ (its JSON twin), through `animbin-animx`.
//!
//! Both read into one document; the targets are `animx` (`.animx`) and `animj` (`.animj`).
//! A compressed file keeps its stored bytes, so writing it unchanged gives back the input;
//! its dump carries them (`stored`, base64) beside the tracks, and they are reused only
//! when they still decode to the dumped tracks. Scenes use 60 frames per second
//! ([`animbin_animx::scene::DEFAULT_FRAMERATE`]), since AnimX counts seconds.

use std::path::Path;

use animbin_animx::{AnimXFile, Animation, Encoding, ReadOptions, animj, scene as animx_scene};
use animbin_core::scene::{ConversionReport, Scene};
use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
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
        let Some(obj) = json.as_object() else {
            return false;
        };
        let Some(tracks) = obj.get("tracks").and_then(Value::as_array) else {
            return false;
        };
        match tracks.first() {
            Some(track) => track.get("trackType").is_some() && track.get("valueType").is_some(),
            None => obj.contains_key("globalDuration"),
        }
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        if crate::looks_like_json(bytes) {
            return Ok(Box::new(AnimXDocument {
                stored: None,
                animation: animj::from_slice(bytes)?,
            }));
        }
        let file = AnimXFile::read(bytes)?;
        let animation = file.decode(&ReadOptions::default())?;
        Ok(Box::new(AnimXDocument {
            stored: Some(file),
            animation,
        }))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        let animation = animj::from_value(&data)?;
        let stored = match data.get("stored") {
            None => None,
            Some(text) => {
                let text = text.as_str().context("`stored` must be a base64 string")?;
                let bytes = BASE64.decode(text).context("`stored` is not valid base64")?;
                Some(AnimXFile {
                    header: animation.header()?,
                    data: bytes,
                })
            }
        };
        Ok(Box::new(AnimXDocument { stored, animation }))
    }

    fn from_scene(
        &self,
        scene: &Scene,
        _options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        Ok(Box::new(AnimXDocument {
            stored: None,
            animation: animx_scene::from_scene(scene, report)?,
        }))
    }
}

/// An animation, and the file it was read from (for byte-exact rewrites of compressed data).
struct AnimXDocument {
    stored: Option<AnimXFile>,
    animation: Animation,
}

impl Document for AnimXDocument {
    fn info(&self) -> Map<String, Value> {
        let a = &self.animation;
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
        let mut value = animj::to_value(&self.animation);
        if let Value::Object(map) = &mut value {
            map.insert("version".into(), json!(self.animation.version));
            map.insert("encoding".into(), json!(self.animation.encoding.name()));
            if let Some(file) = self.stored.as_ref().filter(|f| f.header.encoding != Encoding::Plain) {
                map.insert("stored".into(), json!(BASE64.encode(&file.data)));
            }
        }
        Ok(value)
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_animx::validate(&self.animation))
    }

    fn to_scene(&self, _options: &SceneOptions, _report: &mut ConversionReport) -> CliResult<Scene> {
        Ok(animx_scene::to_scene(&self.animation, animx_scene::DEFAULT_FRAMERATE)?)
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        match target {
            "animx" => {
                let file = match &self.stored {
                    Some(stored) => self.animation.encode_keeping(stored, &ReadOptions::default())?,
                    None => self.animation.encode()?,
                };
                Ok(file.to_bytes()?)
            }
            "animj" => Ok(animj::to_string(&self.animation)?.into_bytes()),
            other => bail!("animx cannot be written as {other:?}"),
        }
    }
}
