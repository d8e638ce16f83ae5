//! Resonite AnimX (binary) and AnimJ (its JSON twin) through `animbin-animx`. A compressed
//! file keeps its stored bytes, so writing it unchanged gives back the input. Scenes count
//! frames at [`SceneOptions::framerate`] (60 by default), since AnimX counts seconds.

use std::io::Write;

use animbin_animx::{AnimXFile, Animation, ReadOptions, animj, scene as animx_scene};
use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

use super::{Codec, unsupported, write_all};
use crate::info::AnimXInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

/// An AnimX animation and, when it was read from a binary file, that file (whose stored,
/// possibly compressed, bytes a rewrite of the unchanged animation keeps).
#[derive(Debug, Clone, PartialEq)]
pub struct AnimXDocument {
    /// The decoded animation.
    pub animation: Animation,
    /// The file as read, when it was binary AnimX.
    pub stored: Option<AnimXFile>,
}

impl Codec for AnimXDocument {
    const FORMAT: Format = Format::AnimX;

    fn read(bytes: &[u8]) -> Result<Self> {
        if crate::document::looks_like_json(bytes) {
            return Ok(Self {
                animation: animj::from_slice(bytes)?,
                stored: None,
            });
        }
        let file = AnimXFile::read(bytes)?;
        let animation = file.decode(&ReadOptions::default())?;
        Ok(Self {
            animation,
            stored: Some(file),
        })
    }

    fn info(&self) -> Info {
        let a = &self.animation;
        Info::AnimX(AnimXInfo {
            version: a.version,
            encoding: a.encoding.name().to_string(),
            track_count: a.tracks.len(),
            keyframe_count: a.keyframe_count() as u64,
            duration: a.global_duration,
            name: a.name.clone(),
        })
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_animx::validate(&self.animation)
            .iter()
            .map(Problem::legacy)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, _report: &mut ConversionReport) -> Result<Scene> {
        Ok(animx_scene::to_scene(
            &self.animation,
            options.framerate_or(animx_scene::DEFAULT_FRAMERATE),
        )?)
    }

    fn from_scene(scene: &Scene, _: Target, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(Self {
            animation: animx_scene::from_scene(scene, report)?,
            stored: None,
        })
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::AnimX => {
                let file = match &self.stored {
                    Some(stored) => self.animation.encode_keeping(stored, &ReadOptions::default())?,
                    None => self.animation.encode()?,
                };
                write_all(writer, &file.to_bytes()?)
            }
            Target::AnimJ => write_all(writer, animj::to_string(&self.animation)?.as_bytes()),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::AnimX(self)
    }
}
