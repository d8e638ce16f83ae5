//! Resonite AnimX (binary) and AnimJ (its JSON twin) through `animbin-animx`, whose
//! [`AnimXDocument`] keeps a compressed file's stored bytes, so writing it unchanged gives
//! back the input. Scenes count frames at [`SceneOptions::framerate`] (60 by default),
//! since AnimX counts seconds.

use std::io::Write;

use animbin_animx::{AnimXDocument, Animation, Encoding, ReadOptions, View};
use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

use super::{Codec, unsupported, write_all};
use crate::info::AnimXInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

impl Codec for AnimXDocument {
    const FORMAT: Format = Format::AnimX;

    fn read(bytes: &[u8]) -> Result<Self> {
        Ok(AnimXDocument::read(bytes)?)
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

    fn info_of(bytes: &[u8]) -> Option<Result<Info>> {
        // AnimJ has no view; the document reads it.
        if !bytes.starts_with(animbin_animx::MAGIC) {
            return None;
        }
        let summary = || -> animbin_animx::Result<Info> {
            // A plain file is viewed where it lies; a compressed one once decompressed, with
            // the reader's limit.
            let (header, tracks) = animbin_animx::tracks_of(bytes, &ReadOptions::default())?;
            let view = match header.encoding {
                Encoding::Plain => View::parse(bytes)?,
                _ => View::from_tracks(header, &tracks)?,
            };
            let header = &view.header;
            Ok(Info::AnimX(AnimXInfo {
                version: header.version,
                encoding: header.encoding.name().to_string(),
                track_count: view.tracks.len(),
                keyframe_count: view.tracks.iter().map(|t| u64::from(t.keyframe_count)).sum(),
                duration: header.global_duration,
                name: header.name.0.clone(),
            }))
        };
        Some(summary().map_err(Into::into))
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_animx::validate(&self.animation)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(self.animation.to_scene(options, report)?)
    }

    fn from_scene(scene: &Scene, _: Target, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Ok(Animation::from_scene(scene, options, report)?.into())
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        match target {
            Target::AnimX => Ok(AnimXDocument::write(self, writer)?),
            Target::AnimJ => write_all(writer, self.to_animj()?.as_bytes()),
            other => Err(unsupported(Self::FORMAT, other)),
        }
    }

    fn into_document(self) -> Document {
        Document::AnimX(self)
    }
}
