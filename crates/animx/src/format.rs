//! AnimX's side of the contract every format crate implements: [`FileFormat`] for
//! [`AnimXDocument`], in two [`Form`]s, the binary AnimX and its JSON twin AnimJ.

use std::io::Write;

use animbin_core::format::{FileFormat, Holds};
use animbin_core::images::ImageFiles;
use animbin_core::scene::{AnimKind, ConversionReport, Precision, Scene};
use animbin_core::{Error, Problem, SceneOptions};

use crate::animj;
use crate::document::AnimXDocument;
use crate::layout::Encoding;
use crate::model::{Animation, ReadOptions, tracks_of};
use crate::summary::Summary;
use crate::view::View;
use crate::{FORMAT, MAGIC};

/// The encodings of an AnimX document: what [`AnimXDocument::form`] records it was read
/// from, and what [`FileFormat::write_as`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Form {
    /// The binary file (`.animx`), plain, LZ4 or LZMA as [`crate::Animation::encoding`] says.
    #[default]
    AnimX,
    /// AnimJ, the JSON twin (`.animj`), pretty-printed ([`animj::to_string`]).
    AnimJ,
}

impl Form {
    /// The form's name, as a target and a summary give it: `"animx"` or `"animj"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::AnimX => "animx",
            Self::AnimJ => "animj",
        }
    }
}

/// AnimX: the binary file (magic `\x05AnimX`) or AnimJ text, read into one
/// [`AnimXDocument`] that remembers which ([`Form`]); the summary is read through the
/// [`View`] (plain files in place, compressed ones once decompressed); the dump is the
/// document's serde form. AnimX counts seconds: a scene's frame rate is the caller's
/// ([`SceneOptions::framerate`], 60 by default).
impl FileFormat for AnimXDocument {
    const NAME: &'static str = FORMAT;
    const LABEL: &'static str = "AnimX";
    const EXTENSIONS: &'static [&'static str] = &["animx", "animj"];
    const JSON_EXTENSIONS: &'static [&'static str] = &["animj"];
    const MAGIC: &'static [u8] = MAGIC;
    const HOLDS: Holds = Holds::ANIMATIONS;
    const STORES_FRAMERATE: bool = false;
    const ANIMATION_KINDS: &'static [AnimKind] = &[AnimKind::Absolute];
    const NAMES_ANIMATIONS: bool = true;
    const SEVERAL_ANIMATIONS: bool = false;
    /// The header's `globalDuration` is the time of the last key.
    const LENGTH_ENDS_ON_LAST_KEY: bool = true;
    const CHOOSES_PRECISION: bool = false;

    type Form = Form;
    type Summary = Summary;
    type Error = Error;

    /// AnimJ: JSON whose `tracks` are AnimJ tracks ([`animj::is_animj`]).
    fn probe_json(bytes: &[u8]) -> bool {
        animj::is_animj(bytes)
    }

    /// [`AnimXDocument::read`]: an AnimX file, or AnimJ text.
    fn read(bytes: &[u8]) -> Result<Self, Error> {
        AnimXDocument::read(bytes)
    }

    fn form(&self) -> Form {
        self.form
    }

    fn write_as(&self, form: Form, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<(), Error> {
        match form {
            Form::AnimX => AnimXDocument::write(self, writer),
            // Written as it is serialised: the text, many times the animation's size, is
            // never held whole (it was: 582 MiB for a 4.8 KB LZMA file).
            Form::AnimJ => crate::animj::to_writer_pretty(&self.animation, writer),
        }
    }

    /// Key values are `f32`.
    fn key_precision(&self) -> Option<Precision> {
        Some(Precision::Single)
    }

    fn summary(&self) -> Summary {
        Summary::of_animation(&self.animation, self.form)
    }

    /// Through the [`View`]: a plain file where it lies, a compressed one once decompressed
    /// (within the default [`ReadOptions`]); AnimJ, which has no view, is read.
    fn summary_of(bytes: &[u8]) -> Result<Summary, Error> {
        if !bytes.starts_with(MAGIC) {
            return Ok(Self::read(bytes)?.summary());
        }
        let (header, tracks) = tracks_of(bytes, &ReadOptions::default())?;
        let view = match header.encoding {
            Encoding::Plain => View::parse(bytes)?,
            _ => View::from_tracks(header, &tracks)?,
        };
        Ok(view.summary())
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(&self.animation)
    }

    animbin_core::dump_the_model!();

    /// [`Animation::to_scene`].
    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        self.animation.to_scene(options, report)
    }

    /// [`Animation::to_scene`], with a compressed file's stored bytes freed first: a scene is
    /// never written back from them.
    fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        let Self { animation, stored, .. } = self;
        drop(stored);
        animation.to_scene(options, report)
    }

    /// [`Animation::from_scene`], to be written as `form`; AnimX embeds no texture, so
    /// `images` are not used.
    fn from_scene(
        scene: &Scene,
        form: Form,
        options: &SceneOptions,
        _images: &ImageFiles,
        report: &mut ConversionReport,
    ) -> Result<Self, Error> {
        let mut document = AnimXDocument::from(Animation::from_scene(scene, options, report)?);
        document.form = form;
        Ok(document)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_without_animations_is_refused_in_the_facade_s_words() {
        assert_eq!(
            AnimXDocument::holds_nothing(&Scene::default()).as_deref(),
            Some("it holds animations and the input has none")
        );
    }

    #[test]
    fn the_magic_and_animj_are_probed() {
        assert!(AnimXDocument::probe(b"\x05AnimX\x01\0\0\0"));
        assert!(!AnimXDocument::probe(b"\x05Anim"));
        let animj = animj::to_string(&Animation::default()).unwrap();
        assert!(AnimXDocument::probe_json(animj.as_bytes()));
        assert!(!AnimXDocument::probe_json(br#"{"format": "DASH", "version": "1.5"}"#));
    }

    #[test]
    fn a_document_is_written_back_in_the_form_it_was_read_in() {
        let animation = Animation {
            name: "idle".into(),
            global_duration: 1.0,
            ..Animation::default()
        };
        let binary = crate::to_bytes(&animation).unwrap();
        let text = animj::to_string(&animation).unwrap();
        let from_binary = <AnimXDocument as FileFormat>::read(&binary).unwrap();
        let from_text = <AnimXDocument as FileFormat>::read(text.as_bytes()).unwrap();
        assert_eq!((from_binary.form(), from_text.form()), (Form::AnimX, Form::AnimJ));
        assert_eq!(FileFormat::to_bytes(&from_binary).unwrap(), binary);
        assert_eq!(FileFormat::to_bytes(&from_text).unwrap(), text.as_bytes());
        let mut out = Vec::new();
        from_text
            .write_as(Form::AnimX, &mut out, &mut ConversionReport::default())
            .unwrap();
        assert_eq!(out, binary);
    }
}
