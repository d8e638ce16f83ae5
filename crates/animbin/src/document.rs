//! [`Document`]: any file animbin reads, opened through one door.

use std::io::Write;
use std::path::Path;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::formats::Codec;
use crate::formats::gltf::GltfFile;
use crate::{Error, Format, Info, Problem, Result, Target, dump, files};
use animbin_animx::AnimXDocument;

/// A file of any supported format, read into memory.
///
/// Each variant holds the format crate's own model, so a caller who needs every field of
/// one format matches on it; everything else ([`Document::info`], [`Document::validate`],
/// [`Document::to_scene`], [`Document::write`], dumps) works the same for every format.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Document {
    /// An SEAnim animation.
    SeAnim(animbin_seanim::SeAnim),
    /// An SEModel model, in either layout.
    SeModel(animbin_semodel::SeModel),
    /// An AnimX animation, read from AnimX or AnimJ.
    AnimX(AnimXDocument),
    /// A Shining Force III battle animation file.
    Sf3(animbin_sf3::Sf3File),
    /// A Dash Model Format model, read from its binary or JSON form.
    Dmf(animbin_dmf::Dmf),
    /// A glTF 2.0 file.
    Gltf(GltfFile),
    /// A Cast file.
    Cast(animbin_cast::CastFile),
}

/// Calls the same [`Codec`] method on whichever format a document holds.
macro_rules! each {
    ($doc:expr, $inner:ident => $body:expr) => {
        match $doc {
            Document::SeAnim($inner) => $body,
            Document::SeModel($inner) => $body,
            Document::AnimX($inner) => $body,
            Document::Sf3($inner) => $body,
            Document::Dmf($inner) => $body,
            Document::Gltf($inner) => $body,
            Document::Cast($inner) => $body,
        }
    };
}

/// The members of a JSON input that tell a dump, DMF JSON and glTF apart, read without
/// keeping values (AnimJ is AnimX's own rule, [`animbin_animx::animj::is_animj`]).
#[derive(Deserialize)]
struct JsonProbe {
    format: Option<String>,
    data: Option<IgnoredAny>,
    asset: Option<IgnoredAny>,
}

/// Whether the input is JSON text (an object) rather than a binary file.
pub(crate) fn looks_like_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// The format named by a JSON object that opens with `"format": NAME, "data":`, as dumps
/// do; `None` for any other opening.
fn leading_dump_format(bytes: &[u8]) -> Option<String> {
    fn skip_space(bytes: &[u8], at: usize) -> usize {
        at + bytes[at.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    }
    fn expect(bytes: &[u8], at: usize, token: &[u8]) -> Option<usize> {
        let at = skip_space(bytes, at);
        bytes.get(at..)?.starts_with(token).then_some(at + token.len())
    }
    let at = expect(bytes, 0, b"{")?;
    let at = expect(bytes, at, b"\"format\"")?;
    let at = skip_space(bytes, expect(bytes, at, b":")?);
    let mut strings = serde_json::Deserializer::from_slice(&bytes[at..]).into_iter::<String>();
    let format = strings.next()?.ok()?;
    let at = expect(bytes, at + strings.byte_offset(), b",")?;
    expect(bytes, at, b"\"data\"")?;
    Some(format)
}

impl Document {
    /// Reads a file of any supported format from its bytes. `name` (the file's path or
    /// name) is needed only for x8an files, which have no magic and are recognised by the
    /// name `x8an*.bin`. JSON inputs may be an animbin dump, AnimJ, DMF JSON or glTF.
    pub fn parse(bytes: &[u8], name: Option<&Path>) -> Result<Self> {
        Self::parse_as(bytes, name, None)
    }

    /// Reads `bytes` as `format` when it is given (the only way to read an x8an file whose
    /// name does not say so), else as [`Document::parse`] does.
    pub fn parse_as(bytes: &[u8], name: Option<&Path>, format: Option<Format>) -> Result<Self> {
        if bytes.is_empty() {
            return Err(Error::Empty);
        }
        if looks_like_json(bytes) {
            return Self::parse_json(bytes, format);
        }
        let format = format
            .or_else(|| Format::detect(bytes, name))
            .ok_or_else(|| Error::UnknownFormat {
                start: hex_start(bytes),
                hint: "; x8an files are recognised by the name x8an*.bin or read with the format sf3",
            })?;
        Self::read_as(format, bytes)
    }

    /// Opens the file at `path` (through a memory map) and reads it as [`Document::parse`].
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_as(path, None)
    }

    /// Opens the file at `path` as `format`, or detects its format as [`Document::parse`].
    pub fn open_as(path: impl AsRef<Path>, format: Option<Format>) -> Result<Self> {
        let path = path.as_ref();
        let bytes = files::Input::open(path)?;
        Self::parse_as(&bytes, Some(path), format)
    }

    /// The summary of a file, as [`Document::parse_as`] then [`Document::info`] give it, but
    /// read through the format's zero-copy view where it has one (SEAnim, deployed SEModel,
    /// Cast, x8an, AnimX: compressed files once decompressed), so that it costs the same for a file of any size: only the bytes it needs are
    /// touched, which for a file opened through a memory map ([`Document::info_of_file`])
    /// means only those pages are read from disk.
    pub fn info_of(bytes: &[u8], name: Option<&Path>, format: Option<Format>) -> Result<Info> {
        if !bytes.is_empty() && !looks_like_json(bytes) {
            let quick = match format.or_else(|| Format::detect(bytes, name)) {
                Some(Format::SeAnim) => animbin_seanim::SeAnim::info_of(bytes),
                Some(Format::SeModel) => animbin_semodel::SeModel::info_of(bytes),
                Some(Format::Cast) => animbin_cast::CastFile::info_of(bytes),
                Some(Format::AnimX) => AnimXDocument::info_of(bytes),
                Some(Format::Sf3) => animbin_sf3::Sf3File::info_of(bytes),
                Some(Format::Dmf) => animbin_dmf::Dmf::info_of(bytes),
                Some(Format::Gltf) => GltfFile::info_of(bytes),
                None => None,
            };
            if let Some(info) = quick {
                return info;
            }
        }
        Ok(Self::parse_as(bytes, name, format)?.info())
    }

    /// [`Document::info_of`] the file at `path`, opened through a memory map.
    pub fn info_of_file(path: impl AsRef<Path>, format: Option<Format>) -> Result<Info> {
        let path = path.as_ref();
        let bytes = files::Input::open(path)?;
        Self::info_of(&bytes, Some(path), format)
    }

    fn read_as(format: Format, bytes: &[u8]) -> Result<Self> {
        Ok(match format {
            Format::SeAnim => Document::SeAnim(Codec::read(bytes)?),
            Format::SeModel => Document::SeModel(Codec::read(bytes)?),
            Format::AnimX => Document::AnimX(Codec::read(bytes)?),
            Format::Sf3 => Document::Sf3(Codec::read(bytes)?),
            Format::Dmf => Document::Dmf(Codec::read(bytes)?),
            Format::Gltf => Document::Gltf(Codec::read(bytes)?),
            Format::Cast => Document::Cast(Codec::read(bytes)?),
        })
    }

    /// A dump, or a format's own JSON form: AnimJ, DMF JSON or glTF.
    fn parse_json(bytes: &[u8], forced: Option<Format>) -> Result<Self> {
        // Dumps as animbin writes them open with their format and data: they are told from
        // the first bytes, so a large dump is parsed once, not probed in a pass of its own.
        if leading_dump_format(bytes).is_some_and(|f| f != animbin_dmf::json::JSON_FORMAT) {
            return dump::read(bytes);
        }
        let probe: JsonProbe = serde_json::from_slice(bytes).map_err(|e| dump::json_error("the JSON input", &e))?;
        if probe.data.is_some()
            && probe
                .format
                .as_deref()
                .is_some_and(|f| f != animbin_dmf::json::JSON_FORMAT)
        {
            return dump::read(bytes);
        }
        let format = forced
            .or_else(|| {
                if probe.format.as_deref() == Some(animbin_dmf::json::JSON_FORMAT) {
                    Some(Format::Dmf)
                } else if probe.asset.is_some() {
                    Some(Format::Gltf)
                } else if animbin_animx::animj::is_animj(bytes) {
                    Some(Format::AnimX)
                } else {
                    None
                }
            })
            .ok_or(Error::UnknownJson)?;
        Self::read_as(format, bytes)
    }

    /// Reads an animbin dump (see [`Document::dump`]); an edit that does not parse is
    /// reported with its JSON path and line.
    pub fn undump(bytes: &[u8]) -> Result<Self> {
        dump::read(bytes)
    }

    /// Builds a document for `target` from a scene, recording in `report` what the target
    /// cannot hold. A dump is not a target here: dump the document instead.
    pub fn from_scene(
        scene: &Scene,
        target: Target,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        fn build<T: Codec>(
            scene: &Scene,
            target: Target,
            options: &SceneOptions,
            report: &mut ConversionReport,
        ) -> Result<Document> {
            Ok(T::from_scene(scene, target, options, report)?.into_document())
        }
        match target.format() {
            Some(Format::SeAnim) => build::<animbin_seanim::SeAnim>(scene, target, options, report),
            Some(Format::SeModel) => build::<animbin_semodel::SeModel>(scene, target, options, report),
            Some(Format::AnimX) => build::<AnimXDocument>(scene, target, options, report),
            Some(Format::Sf3) => build::<animbin_sf3::Sf3File>(scene, target, options, report),
            Some(Format::Dmf) => build::<animbin_dmf::Dmf>(scene, target, options, report),
            Some(Format::Gltf) => build::<GltfFile>(scene, target, options, report),
            Some(Format::Cast) => build::<animbin_cast::CastFile>(scene, target, options, report),
            None => Err(Error::Unsupported {
                format: Format::Gltf,
                target,
            }),
        }
    }

    /// The document's format.
    pub fn format(&self) -> Format {
        match self {
            Document::SeAnim(_) => Format::SeAnim,
            Document::SeModel(_) => Format::SeModel,
            Document::AnimX(_) => Format::AnimX,
            Document::Sf3(_) => Format::Sf3,
            Document::Dmf(_) => Format::Dmf,
            Document::Gltf(_) => Format::Gltf,
            Document::Cast(_) => Format::Cast,
        }
    }

    /// The target that writes the document back as it was read (a glTF's own container).
    pub fn own_target(&self) -> Target {
        each!(self, d => Codec::own_target(d))
    }

    /// A summary: counts and header fields.
    pub fn info(&self) -> Info {
        each!(self, d => Codec::info(d))
    }

    /// Every rule of the format the document breaks, and every legal but suspicious value.
    pub fn validate(&self) -> Vec<Problem> {
        each!(self, d => Codec::validate(d))
    }

    /// The document as a scene, the neutral model conversions go through, recording in
    /// `report` what the scene cannot hold.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        each!(self, d => Codec::to_scene(d, options, report))
    }

    /// Encodes the document as `target`, which must be one of its format's targets (see
    /// [`Format::targets`]) or [`Target::Dump`]; [`crate::convert`] reaches the others.
    /// What a change of layout loses (SEModel's draft layout) goes to `report`.
    pub fn write(&self, target: Target, mut writer: impl Write, report: &mut ConversionReport) -> Result<()> {
        if target == Target::Dump {
            return self.dump(writer);
        }
        each!(self, d => Codec::write(d, target, &mut writer, report))
    }

    /// The document encoded as `target` in memory (see [`Document::write`]); losses of a
    /// change of layout are not reported.
    pub fn to_bytes(&self, target: Target) -> Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.write(target, &mut bytes, &mut ConversionReport::default())?;
        Ok(bytes)
    }

    /// Writes the whole document as JSON, `{"format": NAME, "data": ...}`, which
    /// [`Document::undump`] turns back into the same bytes. Floats JSON numbers cannot hold
    /// are strings (`"NaN"`, `"Infinity"`, `"-Infinity"`, `"nan:0x7fc00001"`; see the crate
    /// docs), so every document that reads dumps. The dump streams to `writer` through a
    /// buffer (objects one member per line, arrays of numbers on one line); a model that
    /// its serde form refuses would be [`Error::LossyDump`], a bug.
    pub fn dump(&self, writer: impl Write) -> Result<()> {
        dump::write(self, writer)
    }
}

/// The first bytes of an input, as `0x..` hex and, when they are text, quoted.
fn hex_start(bytes: &[u8]) -> String {
    let start = &bytes[..bytes.len().min(8)];
    let hex = animbin_core::strings::hex(start);
    match animbin_core::strings::show_bytes(start) {
        text if text.starts_with('"') => format!("0x{hex} {text}"),
        _ => format!("0x{hex}"),
    }
}

#[cfg(test)]
mod tests {
    use super::leading_dump_format;

    #[test]
    fn a_dump_is_told_by_its_opening_members() {
        assert_eq!(
            leading_dump_format(b" {\n  \"format\" : \"seanim\",\n \"data\": {}}").as_deref(),
            Some("seanim")
        );
        assert_eq!(
            leading_dump_format(br#"{"format":"a\"b","data":1}"#).as_deref(),
            Some("a\"b")
        );
        for other in [
            &br#"{"data": {}, "format": "seanim"}"#[..],
            br#"{"format": "seanim"}"#,
            br#"{"format": 3, "data": {}}"#,
            br#"{"format": "seanim", "date": {}}"#,
            br#"{"asset": {"version": "2.0"}}"#,
            br#"{"format": "sean"#,
            b"",
            b"{",
        ] {
            assert_eq!(leading_dump_format(other), None, "{}", String::from_utf8_lossy(other));
        }
    }
}
