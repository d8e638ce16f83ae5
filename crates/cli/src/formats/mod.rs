//! The formats `animbin` knows. Each format is one module with one [`Format`] value;
//! adding a format is adding its module and one line to [`FORMATS`].

pub(crate) mod animx;
pub(crate) mod dmf;
pub(crate) mod gltf;
pub(crate) mod seanim;
pub(crate) mod semodel;
pub(crate) mod sf3;

use std::fmt::Display;
use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use anyhow::{anyhow, bail};
use serde_json::{Map, Value, json};

/// What a failed command reports: a message, and whether the input was at fault (exit 1)
/// or the request was (exit 2).
pub type CliResult<T> = anyhow::Result<T>;

/// Options that change how a scene is built from a document and a document from a scene.
#[derive(Debug, Clone, Default)]
pub struct SceneOptions {
    /// Frames per second to use where the target format has none of its own (SF3).
    pub framerate: Option<f64>,
    /// The non-glTF side of a conversion is Z-up (glTF is Y-up): `--z-up`.
    pub z_up: bool,
    /// Lengths times this are glTF metres (`--scale 0.01` for centimetres): `--scale`.
    pub unit_scale: Option<f64>,
}

/// A way to write a document: a name for `--to` and the file extension that selects it.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The name given to `--to`.
    pub name: &'static str,
    /// The output file extension (without the dot) that selects this target.
    pub extension: Option<&'static str>,
}

impl Target {
    /// A target chosen by `--to NAME` or by the output extension `.NAME`.
    pub const fn with_extension(name: &'static str) -> Self {
        Target {
            name,
            extension: Some(name),
        }
    }

    /// A target chosen by `--to NAME` only.
    pub const fn named(name: &'static str) -> Self {
        Target { name, extension: None }
    }
}

/// One file format as the command line sees it.
pub trait Format: Sync {
    /// The short name used in `--format`, `info --json` and dumps (`"seanim"`).
    fn name(&self) -> &'static str;
    /// The ways this format can be written; the first is the default binary form.
    fn targets(&self) -> &'static [Target];
    /// Whether `bytes` (read from `path`) are in this format, judged by magic bytes or,
    /// for formats without magic, by the file name.
    fn detect(&self, bytes: &[u8], path: &Path) -> bool;
    /// Whether a JSON input is this format's own JSON form (AnimJ, DMF JSON).
    fn detect_json(&self, _json: &Value) -> bool {
        false
    }
    /// Reads a file of this format (binary, or its own JSON form when `detect_json` said so).
    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>>;
    /// Rebuilds a document from the `data` member of an `animbin dump`.
    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>>;
    /// Builds a document from a scene, recording what the format cannot hold.
    // `self` is the format (a factory), not a value being converted.
    #[allow(clippy::wrong_self_convention)]
    fn from_scene(
        &self,
        scene: &Scene,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>>;
}

/// A file read into memory.
pub trait Document {
    /// The `info --json` fields after `format`.
    fn info(&self) -> Map<String, Value>;
    /// The whole document as JSON (the `data` member of a dump); [`dump`] checks that it is
    /// lossless.
    fn dump(&self) -> CliResult<Value>;
    /// One line per broken spec invariant; empty when the file is valid.
    fn validate(&self) -> Vec<String>;
    /// The document as a scene, recording what the scene cannot hold. The options matter
    /// to formats without a rate of their own (SF3) and to glTF's axes.
    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene>;
    /// Encodes the document as one of its format's targets.
    fn write(&self, target: &str) -> CliResult<Vec<u8>>;
    /// The target that writes the document back in the form it was read from, when that is
    /// not the format's first target (a glTF document's own container).
    fn own_target(&self) -> Option<&'static str> {
        None
    }
}

/// The `animbin dump` of a document: `{"format": NAME, "data": ...}`, refused (bad input)
/// unless converting it back rebuilds the bytes that converting the document itself gives,
/// so every dump is lossless whatever the format.
pub fn dump(format: &dyn Format, doc: &dyn Document) -> CliResult<Value> {
    let data = doc.dump()?;
    if let Some(target) = doc.own_target().or_else(|| format.targets().first().map(|t| t.name)) {
        check_rebuilds(format, doc, target, &data)?;
    }
    Ok(json!({ "format": format.name(), "data": data }))
}

/// Refuses `data` unless, undumped and written as `target`, it gives what `doc` gives.
fn check_rebuilds(format: &dyn Format, doc: &dyn Document, target: &str, data: &Value) -> CliResult<()> {
    // A document that cannot be written has no bytes to keep: converting its dump fails
    // the way converting the document does.
    let Ok(original) = doc.write(target) else {
        return Ok(());
    };
    let name = format.name();
    let limits = "JSON has no NaN or infinity, so a dump cannot keep such floats";
    let rebuilt = format
        .undump(data.clone())
        .and_then(|back| back.write(target))
        .map_err(|e| anyhow!("{name}: a dump cannot hold this file ({limits}): {}", e.root_cause()))?;
    if rebuilt != original {
        bail!("{name}: a dump of this file would not convert back to the same bytes ({limits})");
    }
    Ok(())
}

/// The members of a `json!({...})` object: how `Document::info` builds its fields.
fn members(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// One line per problem that a format crate's `validate` found.
fn lines<P: Display>(problems: impl IntoIterator<Item = P>) -> Vec<String> {
    problems.into_iter().map(|p| p.to_string()).collect()
}

/// Every format, in detection order (formats with magic bytes before name-detected ones).
pub static FORMATS: &[&dyn Format] = &[
    &animx::AnimX,
    &gltf::Gltf,
    &dmf::Dmf,
    &seanim::SeAnimFormat,
    &semodel::SeModelFormat,
    // Formats without magic, detected by file name, come last.
    &sf3::Sf3,
];

/// The format called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Format> {
    FORMATS.iter().copied().find(|f| f.name() == name)
}

/// The format and target that `--to NAME` or an output extension selects.
pub fn target_by_name_or_extension(
    name: Option<&str>,
    extension: Option<&str>,
) -> Option<(&'static dyn Format, &'static str)> {
    FORMATS.iter().copied().find_map(|f| {
        f.targets().iter().find_map(|t| {
            let hit = match name {
                Some(n) => t.name == n,
                None => extension.is_some_and(|e| t.extension.is_some_and(|te| te.eq_ignore_ascii_case(e))),
            };
            hit.then_some((f, t.name))
        })
    })
}
