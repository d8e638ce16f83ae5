//! The table of formats: one entry per format, from which [`Format`], [`Target`],
//! [`Document`], [`Info`], the dump's tagged forms, detection and the metadata of
//! [`crate::formats`] are generated. Everything a format does is its crate's
//! [`FileFormat`] implementation; an entry only names the format, its root type and the
//! targets it is written as.

use std::io::Write;
use std::path::Path;

use animbin_core::format::FileFormat;
use animbin_core::images::ImageFiles;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_core::{Problem, SceneOptions};
use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// Counts identifiers, for the length of a generated array.
macro_rules! count {
    () => { 0 };
    ($head:ident $($tail:ident)*) => { 1 + count!($($tail)*) };
}

/// Generates the library's format-dependent types and dispatch from the table below.
macro_rules! format_table {
    (
        detection order: [$($detect:ident),+ $(,)?];
        $(
            $(#[$format_doc:meta])*
            $format:ident($root:ty) = $name:literal {
                $(
                    $(#[$target_doc:meta])*
                    $target:ident = $target_name:literal,
                        selected by $selects:expr, written as $writes:literal, form $form:expr;
                )+
            }
        )+
    ) => {
        /// A file format that animbin reads and writes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum Format {
            $($(#[$format_doc])* #[serde(rename = $name)] $format,)+
        }

        impl Format {
            /// Every format, in detection order: formats with magic before the one
            /// recognised by its file name.
            pub const ALL: [Format; count!($($detect)+)] = [$(Format::$detect),+];

            /// The short name used by `--format`, `info --json` and dumps: `"seanim"`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$format => $name,)+
                }
            }

            /// The name people know the format by: `"SEAnim"`.
            pub const fn label(self) -> &'static str {
                match self {
                    $(Self::$format => <$root as FileFormat>::LABEL,)+
                }
            }

            /// The extensions of the format's files, without the dot, the usual one first.
            pub const fn extensions(self) -> &'static [&'static str] {
                match self {
                    $(Self::$format => <$root as FileFormat>::EXTENSIONS,)+
                }
            }

            /// The extensions of the format's files in its own JSON form (`animj`).
            pub const fn json_extensions(self) -> &'static [&'static str] {
                match self {
                    $(Self::$format => <$root as FileFormat>::JSON_EXTENSIONS,)+
                }
            }

            /// The format's targets, in the order [`Target::ALL`] lists them.
            pub fn targets(self) -> &'static [Target] {
                match self {
                    $(Self::$format => &[$(Target::$target),+],)+
                }
            }

            /// What a front end needs to know of the format (see [`FormatInfo`]).
            pub fn info(self) -> FormatInfo {
                match self {
                    $(Self::$format => FormatInfo::of::<$root>(self),)+
                }
            }

            /// The format of a binary file judged by its magic bytes or, for a format
            /// without magic (x8an), by `name`. JSON inputs are told apart by
            /// [`Format::detect_json`].
            pub fn detect(bytes: &[u8], name: Option<&Path>) -> Option<Self> {
                Self::ALL.into_iter().find(|format| match format {
                    $(Self::$format => <$root as FileFormat>::probe(bytes)
                        || name.is_some_and(<$root as FileFormat>::probe_name),)+
                })
            }

            /// The format whose own JSON form `bytes` are (AnimJ, DMF JSON, glTF).
            pub fn detect_json(bytes: &[u8]) -> Option<Self> {
                Self::ALL.into_iter().find(|format| match format {
                    $(Self::$format => <$root as FileFormat>::probe_json(bytes),)+
                })
            }
        }

        /// A way to write a document: a format and the form it takes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum Target {
            $($($(#[$target_doc])* #[serde(rename = $target_name)] $target,)+)+
            /// An animbin dump (`.json`): the whole document as JSON, converted back byte
            /// for byte.
            #[serde(rename = "json")]
            Dump,
        }

        impl Target {
            /// Every target.
            pub const ALL: [Target; count!($($($target)+)+ Dump)] = [$($(Target::$target,)+)+ Target::Dump];

            /// The name given to `--to`: `"seanim"`, `"semodel-draft"`, `"json"` for a dump.
            pub const fn name(self) -> &'static str {
                match self {
                    $($(Self::$target => $target_name,)+)+
                    Self::Dump => "json",
                }
            }

            /// The output file extension (without the dot) that selects this target, if
            /// any.
            pub const fn extension(self) -> Option<&'static str> {
                match self {
                    $($(Self::$target => $selects,)+)+
                    Self::Dump => Some("json"),
                }
            }

            /// The extension of the files written as this target when no name is given
            /// (batch conversion): [`Target::extension`] where it has one.
            pub const fn output_extension(self) -> &'static str {
                match self {
                    $($(Self::$target => $writes,)+)+
                    Self::Dump => "json",
                }
            }

            /// The format a document takes when written as this target; `None` for a
            /// dump, which keeps the source's format.
            pub const fn format(self) -> Option<Format> {
                match self {
                    $($(Self::$target)|+ => Some(Format::$format),)+
                    Self::Dump => None,
                }
            }
        }

        /// A file of any supported format, read into memory.
        ///
        /// Each variant holds the format crate's own model, so a caller who needs every
        /// field of one format matches on it; everything else ([`Document::info`],
        /// [`Document::validate`], [`Document::to_scene`], [`Document::write`], dumps)
        /// works the same for every format, through the crate's [`FileFormat`].
        #[derive(Debug, Clone)]
        #[non_exhaustive]
        pub enum Document {
            $($(#[$format_doc])* $format($root),)+
        }

        impl Document {
            /// The document's format.
            pub fn format(&self) -> Format {
                match self {
                    $(Self::$format(_) => Format::$format,)+
                }
            }

            /// Reads `bytes` as `format` (its binary form or its own JSON form).
            pub(crate) fn read_as(format: Format, bytes: &[u8]) -> Result<Self> {
                Ok(match format {
                    $(Format::$format => Self::$format(<$root as FileFormat>::read(bytes)?),)+
                })
            }

            /// The summary of `bytes` as `format`, through the format's view where it has
            /// one.
            pub(crate) fn summary_as(format: Format, bytes: &[u8]) -> Result<Info> {
                Ok(match format {
                    $(Format::$format => Info::$format(<$root as FileFormat>::summary_of(bytes)?),)+
                })
            }

            /// A summary: counts and header fields.
            pub fn info(&self) -> Info {
                match self {
                    $(Self::$format(d) => Info::$format(d.summary()),)+
                }
            }

            /// Every rule of the format the document breaks, and every legal but
            /// suspicious value.
            pub fn validate(&self) -> Vec<Problem> {
                match self {
                    $(Self::$format(d) => d.validate(),)+
                }
            }

            /// The document as a scene, the neutral model conversions go through,
            /// recording in `report` what the scene cannot hold.
            pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
                Ok(match self {
                    $(Self::$format(d) => d.to_scene(options, report)?,)+
                })
            }

            /// [`Document::to_scene`] of a document no longer needed, which moves the
            /// arrays its model holds as the scene does ([`FileFormat::into_scene`]).
            pub fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
                Ok(match self {
                    $(Self::$format(d) => d.into_scene(options, report)?,)+
                })
            }

            /// The width of the document's key values where its format states one
            /// ([`FileFormat::key_precision`]): `None` where only the values can tell (glTF).
            pub fn key_precision(&self) -> Option<animbin_core::scene::Precision> {
                match self {
                    $(Self::$format(d) => d.key_precision(),)+
                }
            }

            /// The target that writes the document back in the form it was read in.
            pub fn own_target(&self) -> Target {
                match self {
                    $(Self::$format(d) => {
                        let form = d.form();
                        let forms: &[(Target, Option<<$root as FileFormat>::Form>)] = &[$((Target::$target, $form)),+];
                        forms
                            .iter()
                            .find(|(_, f)| f.is_none_or(|f| f == form))
                            .map_or(Target::Dump, |&(target, _)| target)
                    })+
                }
            }

            /// Whether writing the document as `target` (one of its format's) is a change
            /// of form that can lose part of it, which a conversion reaches through the
            /// scene model so that the losses are reported before anything is written.
            pub(crate) fn form_change_loses(&self, target: Target) -> bool {
                match self {
                    $(Self::$format(d) => {
                        let forms: &[(Target, Option<<$root as FileFormat>::Form>)] = &[$((Target::$target, $form)),+];
                        <$root as FileFormat>::FORM_CHANGE_LOSES
                            && form_for(forms, target).flatten().is_some_and(|f| f != d.form())
                    })+
                }
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
                match self {
                    $(Self::$format(d) => {
                        let forms: &[(Target, Option<<$root as FileFormat>::Form>)] = &[$((Target::$target, $form)),+];
                        let form = form_for(forms, target).ok_or_else(unsupported)?;
                        Ok(d.write_as(form.unwrap_or_else(|| d.form()), writer, report)?)
                    })+
                }
            }

            /// Builds a document for `target` from a scene with the texture files found
            /// for it (see [`FileFormat::from_scene`]). A target that keeps the form read
            /// (SEModel's own layout) builds the format's first form.
            pub(crate) fn build(
                scene: &Scene,
                target: Target,
                options: &SceneOptions,
                images: &ImageFiles,
                report: &mut ConversionReport,
            ) -> Result<Self> {
                match target.format() {
                    $(Some(Format::$format) => {
                        let forms: &[(Target, Option<<$root as FileFormat>::Form>)] = &[$((Target::$target, $form)),+];
                        let form = form_for(forms, target)
                            .flatten()
                            .or_else(|| forms.iter().find_map(|&(_, f)| f))
                            .expect("every format has a target of a given form");
                        Ok(Self::$format(<$root as FileFormat>::from_scene(scene, form, options, images, report)?))
                    })+
                    None => Err(Error::Unsupported { format: Format::Gltf, target }),
                }
            }
        }

        /// What a conversion asks of a target's format.
        impl Target {
            /// Why the target could hold nothing of `scene`, if it could not.
            pub(crate) fn holds_nothing(self, scene: &Scene) -> Option<String> {
                match self.format()? {
                    $(Format::$format => <$root as FileFormat>::holds_nothing(scene),)+
                }
            }

            /// What a loss line names as unable to hold it ([`crate::loss_line`]): the
            /// format, or the target where the format's forms hold different things.
            pub(crate) fn holder(self) -> &'static str {
                match self.format() {
                    $(Some(Format::$format) => {
                        let forms: &[(Target, Option<<$root as FileFormat>::Form>)] = &[$((Target::$target, $form)),+];
                        let own_form = form_for(forms, self).flatten().is_some();
                        if <$root as FileFormat>::FORM_CHANGE_LOSES && own_form { self.name() } else { $name }
                    })+
                    None => "a dump",
                }
            }

            /// Whether the target embeds the texture files a conversion finds.
            pub(crate) fn embeds_image_files(self) -> bool {
                match self.format() {
                    $(Some(Format::$format) => <$root as FileFormat>::EMBEDS_IMAGE_FILES,)+
                    None => false,
                }
            }

            /// Whether unnamed animations take their file's name in the target.
            pub(crate) fn names_from_files(self) -> bool {
                match self.format() {
                    $(Some(Format::$format) => <$root as FileFormat>::NAMES_FROM_FILES,)+
                    None => false,
                }
            }

            /// Whether the target restates an animation header that [`SceneOptions`] can
            /// set (kind, looping, precision): the formats whose writer chooses its
            /// precision (SEAnim), so that a same-format conversion with those options
            /// rebuilds the file.
            pub(crate) fn restates_header(self) -> bool {
                match self.format() {
                    $(Some(Format::$format) => <$root as FileFormat>::CHOOSES_PRECISION,)+
                    None => false,
                }
            }
        }

        /// A summary of a document: counts and header fields, without the bulk data.
        ///
        /// Serialised (serde) it is one JSON object whose `format` member names the
        /// format, followed by that format's fields (its crate's `Summary`), exactly what
        /// `animbin info --json` prints.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "format")]
        #[non_exhaustive]
        pub enum Info {
            $($(#[$format_doc])* #[serde(rename = $name)] $format(<$root as FileFormat>::Summary),)+
        }

        /// A dump as written: the format's name, then its data.
        #[derive(Serialize)]
        #[serde(tag = "format", content = "data")]
        pub(crate) enum DumpRef<'a> {
            $(#[serde(rename = $name)] $format(<$root as FileFormat>::Dump<'a>),)+
        }

        /// A dump as read back.
        #[derive(Deserialize)]
        #[serde(tag = "format", content = "data")]
        pub(crate) enum DumpOwned {
            $(#[serde(rename = $name)] $format(<$root as FileFormat>::Undump),)+
        }

        impl Document {
            /// The document's dump data, tagged with its format.
            pub(crate) fn dump_ref(&self) -> Result<DumpRef<'_>> {
                Ok(match self {
                    $(Self::$format(d) => DumpRef::$format(d.dump()?),)+
                })
            }

            /// The document a dump describes.
            pub(crate) fn from_dump(dump: DumpOwned) -> Result<Self> {
                Ok(match dump {
                    $(DumpOwned::$format(data) => Self::$format(<$root as FileFormat>::undump(data)?),)+
                })
            }
        }

        #[cfg(test)]
        mod generated {
            use super::*;

            #[test]
            fn each_entry_names_its_crate_s_format() {
                $(assert_eq!(Format::$format.name(), <$root as FileFormat>::NAME);)+
            }
        }
    };
}

/// The form `target` writes among a format's `(target, form)` pairs: `None` when it is not
/// one of the format's targets, `Some(None)` for a target that keeps the form read.
fn form_for<F: Copy>(forms: &[(Target, Option<F>)], target: Target) -> Option<Option<F>> {
    forms.iter().find(|(t, _)| *t == target).map(|&(_, form)| form)
}

format_table! {
    detection order: [AnimX, Gltf, Fbx, Dmf, Cast, SeAnim, SeModel, Sf3];

    /// SEAnim v1 (`.seanim`), magic `SEAnim`.
    SeAnim(animbin_seanim::SeAnim) = "seanim" {
        /// SEAnim (`.seanim`).
        SeAnim = "seanim", selected by Some("seanim"), written as "seanim", form Some(());
    }
    /// SEModel v1 (`.semodel`), magic `SEModel`, either layout.
    SeModel(animbin_semodel::SeModel) = "semodel" {
        /// SEModel in the layout the document was read in, or the deployed layout for a
        /// model built from a scene (`.semodel`).
        SeModel = "semodel", selected by Some("semodel"), written as "semodel", form None;
        /// SEModel in the deployed layout that every tool reads.
        SeModelDeployed = "semodel-deployed", selected by None, written as "semodel",
            form Some(animbin_semodel::Layout::Deployed);
        /// SEModel in the seed's draft layout.
        SeModelDraft = "semodel-draft", selected by None, written as "semodel",
            form Some(animbin_semodel::Layout::Draft);
    }
    /// Resonite AnimX (`.animx`, magic `\x05AnimX`) and its JSON twin AnimJ (`.animj`).
    AnimX(animbin_animx::AnimXDocument) = "animx" {
        /// AnimX binary (`.animx`).
        AnimX = "animx", selected by Some("animx"), written as "animx", form Some(animbin_animx::Form::AnimX);
        /// AnimJ, AnimX's JSON twin (`.animj`).
        AnimJ = "animj", selected by Some("animj"), written as "animj", form Some(animbin_animx::Form::AnimJ);
    }
    /// Shining Force III battle animations (`x8an*.bin`): no magic, recognised by name.
    Sf3(animbin_sf3::Sf3File) = "sf3" {
        /// A Shining Force III x8an file (no extension selects it: every x8an file is a
        /// `.bin`).
        Sf3 = "sf3", selected by None, written as "bin", form Some(());
    }
    /// The Dash Model Format 1.5 (`.dmf`, magic `DASH`) and its JSON form.
    Dmf(animbin_dmf::Dmf) = "dmf" {
        /// DMF binary (`.dmf`).
        Dmf = "dmf", selected by Some("dmf"), written as "dmf", form Some(animbin_dmf::Form::Binary);
        /// DMF's JSON form (no extension selects it: `.json` is an animbin dump).
        DmfJson = "dmf-json", selected by None, written as "json", form Some(animbin_dmf::Form::Json);
    }
    /// glTF 2.0 (`.gltf` JSON, `.glb` binary with magic `glTF`).
    Gltf(animbin_gltf::GltfFile) = "gltf" {
        /// glTF JSON with the buffer embedded (`.gltf`).
        Gltf = "gltf", selected by Some("gltf"), written as "gltf", form Some(animbin_gltf::Container::Gltf);
        /// Binary glTF (`.glb`).
        Glb = "glb", selected by Some("glb"), written as "glb", form Some(animbin_gltf::Container::Glb);
    }
    /// Cast (`.cast`), magic `cast`.
    Cast(animbin_cast::CastFile) = "cast" {
        /// Cast (`.cast`).
        Cast = "cast", selected by Some("cast"), written as "cast", form Some(());
    }
    /// Binary FBX 7.4 / 7.5 (`.fbx`), magic `Kaydara FBX Binary`.
    Fbx(animbin_fbx::FbxFile) = "fbx" {
        /// Binary FBX 7.4 (`.fbx`).
        Fbx = "fbx", selected by Some("fbx"), written as "fbx", form Some(());
    }
}

/// What a front end needs to know of a format to offer it: its names, file extensions,
/// what it holds and the targets it is written as. [`crate::formats`] lists every format's;
/// the Python module's `animbin.formats()` and the Blender extension's menus are built
/// from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormatInfo {
    /// The short name (`"seanim"`), as [`Format::name`].
    pub name: &'static str,
    /// The name people know it by (`"SEAnim"`).
    pub label: &'static str,
    /// Its files' extensions without the dot, the usual one first.
    pub extensions: &'static [&'static str],
    /// Whether its files start with magic bytes (an x8an file is known by its name only).
    pub has_magic: bool,
    /// The parts of a scene it holds: `"bones"`, `"meshes"`, `"materials"`, `"textures"`,
    /// `"animations"`.
    pub holds: Vec<&'static str>,
    /// Whether it stores a frame rate (when not, a reader or importer asks for one).
    pub stores_framerate: bool,
    /// The animation kinds it can state: `"absolute"`, `"relative"`, `"delta"`,
    /// `"additive"`.
    pub animation_kinds: Vec<&'static str>,
    /// Whether it stores animations' names (an SEAnim is named by its file).
    pub names_animations: bool,
    /// Whether it stores meshes' names.
    pub names_meshes: bool,
    /// Whether one file holds several animations.
    pub several_animations: bool,
    /// Whether an animation's length ends on its last key rather than a frame past it.
    pub length_ends_on_last_key: bool,
    /// Whether a writer chooses the width of its key values (`precision`).
    pub chooses_precision: bool,
    /// The names of the targets it is written as ([`Target::name`]).
    pub targets: Vec<&'static str>,
}

impl FormatInfo {
    fn of<F: FileFormat>(format: Format) -> Self {
        Self {
            name: format.name(),
            label: format.label(),
            extensions: format.extensions(),
            has_magic: !F::MAGIC.is_empty(),
            holds: F::HOLDS.names(),
            stores_framerate: F::STORES_FRAMERATE,
            animation_kinds: F::ANIMATION_KINDS.iter().map(|kind| kind.name()).collect(),
            names_animations: F::NAMES_ANIMATIONS,
            names_meshes: F::NAMES_MESHES,
            several_animations: F::SEVERAL_ANIMATIONS,
            length_ends_on_last_key: F::LENGTH_ENDS_ON_LAST_KEY,
            chooses_precision: F::CHOOSES_PRECISION,
            targets: format.targets().iter().map(|t| t.name()).collect(),
        }
    }
}

/// Every format's [`FormatInfo`], in the order of [`Format::ALL`].
pub fn formats() -> Vec<FormatInfo> {
    Format::ALL.into_iter().map(Format::info).collect()
}
