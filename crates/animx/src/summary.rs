//! [`Summary`]: an AnimX file's header fields and counts, as `animbin info` shows them, from
//! the owned model ([`FileFormat::summary`](animbin_core::FileFormat::summary)) or straight
//! from the bytes through the [`View`] ([`View::summary`]), which give the same summary for
//! every file that reads.

use serde::{Deserialize, Serialize};

use crate::format::Form;
use crate::model::Animation;
use crate::view::View;

/// The summary of an AnimX or AnimJ file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The form the file is in: `"animx"` (binary) or `"animj"` (its JSON twin), so that a
    /// summary of an AnimJ file does not read as one of an AnimX file.
    pub form: String,
    /// The format version (0 or 1).
    pub version: i32,
    /// `"plain"`, `"lz4"` or `"lzma"`.
    pub encoding: String,
    /// Tracks.
    pub track_count: usize,
    /// Keyframes (or raw values) of all tracks.
    pub keyframe_count: u64,
    /// The global duration in seconds.
    pub duration: f32,
    /// The animation's name.
    pub name: String,
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of_animation(animation: &Animation, form: Form) -> Self {
        Self {
            form: form.name().to_string(),
            version: animation.version,
            encoding: animation.encoding.name().to_string(),
            track_count: animation.tracks.len(),
            keyframe_count: animation.keyframe_count() as u64,
            duration: animation.global_duration,
            name: animation.name.clone(),
        }
    }
}

impl View<'_> {
    /// The summary of the viewed file: its header and each track's keyframe count, no value
    /// read.
    pub fn summary(&self) -> Summary {
        let header = &self.header;
        Summary {
            form: Form::AnimX.name().to_string(),
            version: header.version,
            encoding: header.encoding.name().to_string(),
            track_count: self.tracks.len(),
            keyframe_count: self.tracks.iter().map(|t| u64::from(t.keyframe_count)).sum(),
            duration: header.global_duration,
            name: header.name.0.clone(),
        }
    }
}
