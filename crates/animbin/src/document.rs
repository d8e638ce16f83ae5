//! [`Document`]: any file animbin reads, opened through one door. The enum is the format
//! table's ([`crate::table`]); its methods are here: what each format does, reached through
//! its crate's [`FileFormat`] by the table's `with_variant!` and `with_format!`, then what is
//! the same for every format: detection, JSON inputs, dumps and files.

use std::io::Write;
use std::path::Path;

use animbin_core::format::FileFormat;
#[cfg(feature = "fs")]
use animbin_core::format::{FileAt, Positioned, ReadAt};
use animbin_core::images::ImageFiles;
use animbin_core::scene::{ConversionReport, Precision, Scene};
use animbin_core::{Problem, SceneOptions};
use serde::Deserialize;
use serde::de::IgnoredAny;

#[cfg(feature = "fs")]
use crate::files::{self, ReadOptions};
use crate::table::{DumpOwned, DumpRef, Entry, with_format, with_variant};
use crate::{Document, Error, Format, Info, Result, Target, dump};

/// The members of a JSON input that tell a dump from a format's own JSON form, read
/// without keeping values (each format tells its own form: [`FileFormat::probe_json`]).
#[derive(Deserialize)]
struct JsonProbe {
    format: Option<String>,
    data: Option<IgnoredAny>,
}

#[cfg(feature = "fs")]
/// The size from which [`Document::info_of_file`] reads a file by positioned reads of the
/// byte ranges its summary needs rather than whole: 1 MiB, which one read takes in about
/// 0.1 ms from the page cache.
const POSITIONED_FROM: u64 = 1 << 20;

/// Whether the input is JSON text (an object) rather than a binary file.
pub(crate) fn looks_like_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// The format named by a JSON object that opens with `"format": NAME, "data":`, as dumps
/// do; `None` for any other opening.
pub(crate) fn leading_dump_format(bytes: &[u8]) -> Option<String> {
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

/// What each format does, through its crate's [`FileFormat`].
impl Document {
    /// The document's format.
    pub fn format(&self) -> Format {
        with_variant!(self, Document, |_model: F| F::FORMAT)
    }

    /// Reads `bytes` as `format` (its binary form or its own JSON form).
    pub(crate) fn read_as(format: Format, bytes: &[u8]) -> Result<Self> {
        with_format!(format, |F| Ok(<F as FileFormat>::read(bytes)?.into_document()))
    }

    /// The summary of `bytes` as `format`, through the format's view where it has one.
    pub(crate) fn summary_as(format: Format, bytes: &[u8]) -> Result<Info> {
        with_format!(format, |F| Ok(F::into_info(<F as FileFormat>::summary_of(bytes)?)))
    }

    /// A summary: counts and header fields.
    pub fn info(&self) -> Info {
        with_variant!(self, Document, |model: F| F::into_info(model.summary()))
    }

    /// Every rule of the format the document breaks, and every legal but suspicious value.
    pub fn validate(&self) -> Vec<Problem> {
        with_variant!(self, Document, |model: F| model.validate())
    }

    /// The document as a scene, the neutral model conversions go through, recording in
    /// `report` what the scene cannot hold.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        with_variant!(self, Document, |model: F| Ok(model.to_scene(options, report)?))
    }

    /// [`Document::to_scene`] of a document no longer needed, which moves the arrays its
    /// model holds as the scene does ([`FileFormat::into_scene`]).
    pub fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        with_variant!(self, Document, |model: F| Ok(model.into_scene(options, report)?))
    }

    /// The width of the document's key values where its format states one
    /// ([`FileFormat::key_precision`]): `None` where only the values can tell (glTF).
    pub fn key_precision(&self) -> Option<Precision> {
        with_variant!(self, Document, |model: F| model.key_precision())
    }

    /// The target that writes the document back in the form it was read in.
    pub fn own_target(&self) -> Target {
        with_variant!(self, Document, |model: F| model.own_target())
    }

    /// Whether writing the document as `target` (one of its format's) is a change of form
    /// that can lose part of it, which a conversion reaches through the scene model so that
    /// the losses are reported before anything is written.
    pub(crate) fn form_change_loses(&self, target: Target) -> bool {
        with_variant!(self, Document, |model: F| model.form_change_loses(target))
    }

    /// Encodes the document as `target`, one of its format's targets.
    pub(crate) fn write_target(
        &self,
        target: Target,
        writer: &mut dyn Write,
        report: &mut ConversionReport,
    ) -> Result<()> {
        let unsupported = || Error::Unsupported {
            format: self.format(),
            target,
        };
        with_variant!(self, Document, |model: F| {
            let form = F::form_of(target).ok_or_else(unsupported)?;
            Ok(model.write_as(form.unwrap_or_else(|| model.form()), writer, report)?)
        })
    }

    /// Builds a document for `target` from a scene with the texture files found for it (see
    /// [`FileFormat::from_scene`]). A target that keeps the form read (SEModel's own
    /// layout) builds the format's first form.
    pub(crate) fn build(
        scene: &Scene,
        target: Target,
        options: &SceneOptions,
        images: &ImageFiles,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        let Some(format) = target.format() else {
            return Err(Error::Unsupported {
                format: Format::Gltf,
                target,
            });
        };
        with_format!(format, |F| {
            let model = <F as FileFormat>::from_scene(scene, F::built_form(target), options, images, report)?;
            Ok(model.into_document())
        })
    }

    /// The document's dump data, tagged with its format.
    pub(crate) fn dump_ref(&self) -> Result<DumpRef<'_>> {
        with_variant!(self, Document, |model: F| Ok(F::into_dump(model.dump()?)))
    }

    /// The document a dump describes.
    pub(crate) fn from_dump(dump: DumpOwned) -> Result<Self> {
        with_variant!(dump, DumpOwned, |data: F| Ok(
            <F as FileFormat>::undump(data)?.into_document()
        ))
    }
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

    #[cfg(feature = "fs")]
    /// Reads the file at `path` into memory and parses it as [`Document::parse`]. The file
    /// is read, never memory-mapped, so a file that another program truncates or rewrites
    /// meanwhile gives an error (or some version of its bytes), never a crash; inputs that
    /// are not regular files (pipes, devices) are read up to [`crate::MAX_INPUT_SIZE`], as is
    /// every input ([`Document::open_with`] takes another limit).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_as(path, None)
    }

    #[cfg(feature = "fs")]
    /// Opens the file at `path` as `format`, or detects its format as [`Document::parse`].
    pub fn open_as(path: impl AsRef<Path>, format: Option<Format>) -> Result<Self> {
        Self::open_with(path, format, &ReadOptions::default())
    }

    #[cfg(feature = "fs")]
    /// [`Document::open_as`], reading the file as `read` says (a limit other than
    /// [`crate::MAX_INPUT_SIZE`]).
    pub fn open_with(path: impl AsRef<Path>, format: Option<Format>, read: &ReadOptions) -> Result<Self> {
        let path = path.as_ref();
        // A dump is parsed as it is read (a glTF's name or format asks for its files beside it).
        let gltf = format == Some(Format::Gltf) || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
        if !gltf {
            if let Some(doc) = read.scope(|| dump::open(path, read))? {
                return Ok(doc);
            }
        }
        Self::parse_file_with(&files::read(path, read)?, path, format, read)
    }

    #[cfg(feature = "fs")]
    /// Reads `bytes`, already read from the file at `path` by the caller (Python reads in
    /// chunks it can interrupt), as [`Document::open_as`] reads the file: a glTF that names
    /// external buffers and images by URI gets them from the file's folder.
    pub fn parse_file(bytes: &[u8], path: &Path, format: Option<Format>) -> Result<Self> {
        Self::parse_file_with(bytes, path, format, &ReadOptions::default())
    }

    #[cfg(feature = "fs")]
    /// [`Document::parse_file`], the files a glTF names beside it read under `read`'s limit
    /// together with `bytes`: every byte read for one input counts.
    pub fn parse_file_with(bytes: &[u8], path: &Path, format: Option<Format>, read: &ReadOptions) -> Result<Self> {
        let bytes = crate::resources::with_external_files(bytes, path, format, read.max_input_size)?;
        // Under `read`'s accessor budget: the glTF reader takes no options of its own.
        read.scope(|| Self::parse_as(&bytes, Some(path), format))
    }

    /// The summary of a file, as [`Document::parse_as`] then [`Document::info`] give it, but
    /// read through the format's zero-copy view where it has one (SEAnim, deployed SEModel,
    /// Cast, x8an, AnimX: compressed files once decompressed), so that its cost does not
    /// grow with the keys or vertices: only the bytes it needs are looked at.
    pub fn info_of(bytes: &[u8], name: Option<&Path>, format: Option<Format>) -> Result<Info> {
        if !bytes.is_empty() && !looks_like_json(bytes) {
            if let Some(format) = format.or_else(|| Format::detect(bytes, name)) {
                // A file the view cannot summarise is read whole for its error, so that
                // `info` names the fault in the words and at the byte `validate` and
                // `convert` do (a view stops at the first field it needs, a reader at the
                // first it reads: a truncated name was once "string" to one and
                // "NUL-terminated bone name" to the other).
                return Self::summary_as(format, bytes).or_else(|_| Ok(Self::read_as(format, bytes)?.info()));
            }
        }
        Ok(Self::parse_as(bytes, name, format)?.info())
    }

    #[cfg(feature = "fs")]
    /// [`Document::info_of`] the file at `path`. A regular file of 1 MiB or more in a format
    /// whose summary lives in its headers and tables ([`FileFormat::summary_at`]: SEAnim...)
    /// is read by positioned reads of those byte ranges alone, the keys and vertices skipped;
    /// any other input, and any file that path does not accept, is read into memory whole as
    /// [`Document::open`] reads it, so that an error names the fault in the words `open`
    /// gives. Never through a memory map, which would end the process with SIGBUS when another
    /// program truncates the file meanwhile: a file that changes while it is read gives an
    /// error or some version of its summary.
    pub fn info_of_file(path: impl AsRef<Path>, format: Option<Format>) -> Result<Info> {
        Self::info_of_file_with(path, format, &ReadOptions::default())
    }

    #[cfg(feature = "fs")]
    /// [`Document::info_of_file`], reading the file as `read` says.
    pub fn info_of_file_with(path: impl AsRef<Path>, format: Option<Format>, read: &ReadOptions) -> Result<Info> {
        let path = path.as_ref();
        if let Some(info) = Self::info_by_positioned_reads(path, format, read) {
            return Ok(info);
        }
        let bytes = files::read(path, read)?;
        let bytes = crate::resources::with_external_files(&bytes, path, format, read.max_input_size)?;
        read.scope(|| Self::info_of(&bytes, Some(path), format))
    }

    #[cfg(feature = "fs")]
    /// The summary of the regular file at `path` through its format's positioned reads
    /// ([`FileFormat::summary_at`]), when it has them and they accept the file: `None` for
    /// anything to read whole instead. Below [`POSITIONED_FROM`] bytes one read of the whole
    /// file costs less than the walk; text (JSON) is read whole, as the formats' own JSON
    /// forms and dumps need.
    fn info_by_positioned_reads(path: &Path, format: Option<Format>, read: &ReadOptions) -> Option<Info> {
        let file = FileAt::open(path, read.max_input_size).ok()??;
        if file.size() < POSITIONED_FROM {
            return None;
        }
        // Every format's probe looks at its magic, the first few bytes.
        let mut head = [0; 64];
        file.read_exact_at(&mut head, 0).ok()?;
        if head.iter().all(u8::is_ascii_whitespace) || looks_like_json(&head) {
            return None;
        }
        let format = format.or_else(|| Format::detect(&head, Some(path)))?;
        let mut cursor = Positioned::new(&file);
        with_format!(format, |F| <F as FileFormat>::summary_at(&mut cursor).map(F::into_info))
    }

    /// A dump, or a format's own JSON form: AnimJ, DMF JSON or glTF.
    fn parse_json(bytes: &[u8], forced: Option<Format>) -> Result<Self> {
        // Dumps as animbin writes them open with their format's name and data: they are told
        // from the first bytes, so a large dump is parsed once, not probed in a pass of its
        // own. (DMF's JSON form opens with a "format" too, but its value names no format.)
        if leading_dump_format(bytes).is_some_and(|f| Format::from_name(&f).is_some()) {
            return dump::read(bytes);
        }
        if let Some(format) = forced.or_else(|| Format::detect_json(bytes)) {
            return Self::read_as(format, bytes);
        }
        let probe: JsonProbe =
            serde_json::from_slice(bytes).map_err(|e| dump::json_error_as::<JsonProbe>("the JSON input", bytes, &e))?;
        if probe.data.is_some() && probe.format.is_some() {
            // A dump in another member order, or of a format animbin does not know: its
            // reader says which.
            return dump::read(bytes);
        }
        Err(Error::UnknownJson)
    }

    /// Reads an animbin dump (see [`Document::dump`]); an edit that does not parse is
    /// reported with its JSON path and line.
    pub fn undump(bytes: &[u8]) -> Result<Self> {
        dump::read(bytes)
    }

    /// Builds a document for `target` from a scene, recording in `report` what the target
    /// cannot hold. The scene must pass [`Scene::check`] ([`Error::Scene`] names the field
    /// that does not). A dump is not a target here: dump the document instead.
    pub fn from_scene(
        scene: &Scene,
        target: Target,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        scene.check()?;
        crate::options::check(options)?;
        Self::build(scene, target, options, &ImageFiles::default(), report)
    }

    /// Encodes the document as `target`, which must be one of its format's targets (see
    /// [`Format::targets`]) or [`Target::Dump`]; [`crate::convert`] reaches the others.
    /// What a change of layout loses (SEModel's draft layout) goes to `report`.
    pub fn write(&self, target: Target, mut writer: impl Write, report: &mut ConversionReport) -> Result<()> {
        if target == Target::Dump {
            return self.dump(writer);
        }
        self.write_target(target, &mut writer, report)
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
