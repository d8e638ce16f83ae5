//! DMF's side of the contract every format crate implements: [`FileFormat`] for [`Dmf`],
//! in two [`Form`]s, the binary file and the JSON form.

use std::io::Write;

use animbin_core::format::{FileFormat, Holds};
use animbin_core::scene::{AnimKind, ConversionReport, Precision};
use animbin_core::{Error, ErrorKind, Problem};
use serde::Deserialize;

use crate::json::{self, Dumped, JSON_FORMAT, Undumped};
use crate::model::Dmf;
use crate::summary::Summary;
use crate::view::View;
use crate::{FORMAT, MAGIC};

/// The encodings of a DMF file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Form {
    /// The binary file (`.dmf`, magic `DASH`), in the canonical layout ([`crate::write()`]).
    #[default]
    Binary,
    /// The spec's JSON form (`{"format": "DASH", ...}`), pretty-printed ([`json::write`]).
    Json,
}

/// The top-level member of a JSON text that names the DMF JSON form.
#[derive(Deserialize)]
struct JsonProbe {
    format: Option<String>,
}

/// DMF: the binary file or the JSON form, read into one [`Dmf`] (the model is the same
/// whichever form it came from, so [`FileFormat::form`] is always [`Form::Binary`]: a DMF
/// is written back as a binary file unless the JSON form is asked for); the summary is read
/// through the [`View`]; the dump is the JSON form with what only the binary form can hold
/// ([`json::Dumped`]).
impl FileFormat for Dmf {
    const NAME: &'static str = FORMAT;
    const LABEL: &'static str = "DMF";
    const EXTENSIONS: &'static [&'static str] = &["dmf"];
    const MAGIC: &'static [u8] = MAGIC;
    const HOLDS: Holds = Holds::all();
    /// Each animation's `fps`.
    const STORES_FRAMERATE: bool = true;
    const ANIMATION_KINDS: &'static [AnimKind] = &[AnimKind::Absolute];
    const NAMES_ANIMATIONS: bool = true;
    const SEVERAL_ANIMATIONS: bool = true;
    /// An animation's `duration` is the time of its last key.
    const LENGTH_ENDS_ON_LAST_KEY: bool = true;
    const CHOOSES_PRECISION: bool = false;

    type Form = Form;
    type Summary = Summary;
    type Error = Error;
    type Dump<'a> = Dumped<'a>;
    type Undump = Undumped;

    /// [`crate::has_magic`].
    fn probe(bytes: &[u8]) -> bool {
        crate::has_magic(bytes)
    }

    /// The JSON form: an object whose `format` member is `"DASH"` ([`json::JSON_FORMAT`]).
    fn probe_json(bytes: &[u8]) -> bool {
        bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
            && serde_json::from_slice::<JsonProbe>(bytes).is_ok_and(|p| p.format.as_deref() == Some(JSON_FORMAT))
    }

    /// [`crate::read`]: either form.
    fn read(bytes: &[u8]) -> Result<Self, Error> {
        crate::read(bytes)
    }

    fn form(&self) -> Form {
        Form::Binary
    }

    /// The JSON form is encoded whole before it is written, so an encoding error writes
    /// nothing.
    fn write_as(&self, form: Form, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<(), Error> {
        match form {
            Form::Binary => crate::write(self, writer),
            Form::Json => writer
                .write_all(&json::to_vec(self)?)
                .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Io(e))),
        }
    }

    /// Key values are `f32`.
    fn key_precision(&self) -> Option<Precision> {
        Some(Precision::Single)
    }

    fn summary(&self) -> Summary {
        Summary::of_dmf(self)
    }

    /// Through the [`View`] for the binary form, with the enum fields checked as the reader
    /// checks them ([`View::check_records`]); the JSON form, which has no view, is read.
    fn summary_of(bytes: &[u8]) -> Result<Summary, Error> {
        if !Self::probe(bytes) {
            return Ok(Self::read(bytes)?.summary());
        }
        let view = View::parse(bytes)?;
        view.check_records()?;
        Ok(view.summary())
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(self)
    }

    fn dump(&self) -> Result<Dumped<'_>, Error> {
        Ok(Dumped(self))
    }

    /// [`Undumped::into_dmf`].
    fn undump(data: Undumped) -> Result<Self, Error> {
        data.into_dmf()
    }

    // Either form holds the same model; DMF embeds its textures' PNG bytes from the scene's
    // own textures, not texture files.
    animbin_core::scene_through_the_model!();
}

#[cfg(test)]
mod tests {
    use animbin_core::scene::Scene;

    use super::*;

    #[test]
    fn a_scene_with_nothing_dmf_holds_is_refused_in_the_facade_s_words() {
        assert_eq!(
            Dmf::holds_nothing(&Scene::default()).as_deref(),
            Some("the input holds no bones, meshes, materials, textures or animations")
        );
        let mut scene = Scene::default();
        scene.textures.push(Default::default());
        assert_eq!(Dmf::holds_nothing(&scene), None);
    }

    #[test]
    fn the_magic_and_the_json_form_are_probed() {
        assert_eq!(MAGIC, b"DASH");
        let bytes = crate::to_bytes(&Dmf::default()).unwrap();
        assert!(Dmf::probe(&bytes));
        assert!(!Dmf::probe(b"DAS"));
        let text = json::to_vec(&Dmf::default()).unwrap();
        assert!(Dmf::probe_json(&text));
        assert!(Dmf::probe_json(br#" {"version": "1.5", "format": "DASH"}"#));
        for not in [
            &br#"{"format": "dmf", "data": {}}"#[..],
            br#"{"format": "dash"}"#,
            br#"{"tracks": [], "globalDuration": 0}"#,
            br#"["DASH"]"#,
            br#"{"format": "DASH""#,
            b"DASH",
        ] {
            assert!(!Dmf::probe_json(not), "{}", String::from_utf8_lossy(not));
        }
    }

    #[test]
    fn both_forms_write_the_same_model() {
        let dmf = Dmf::default();
        let binary = FileFormat::to_bytes(&dmf).unwrap();
        assert_eq!(binary, crate::to_bytes(&dmf).unwrap());
        let mut text = Vec::new();
        dmf.write_as(Form::Json, &mut text, &mut ConversionReport::default())
            .unwrap();
        assert_eq!(text, json::to_vec(&dmf).unwrap());
        assert_eq!(<Dmf as FileFormat>::read(&text).unwrap().form(), Form::Binary);
    }
}
