//! The table of formats: one entry per format. From it the macro below generates the lists
//! and nothing else: the enums [`Format`], [`Target`], [`Document`] and [`Info`] (and the
//! dump's tagged forms), each with one variant per entry; each root type's `Entry` (its
//! variant and its targets' forms); and two arm lists, `with_format!` and `with_variant!`,
//! through which the plain methods below and in `document.rs` reach a format's
//! [`FileFormat`]. Everything a format does is its crate's `FileFormat` implementation;
//! an entry only names the format, its root type and the targets it is written as.

use std::path::Path;

use animbin_core::format::{FileFormat, Keeps};
use animbin_core::scene::Scene;
use serde::{Deserialize, Serialize};

/// Counts identifiers, for the length of a generated array.
macro_rules! count {
    () => { 0 };
    ($head:ident $($tail:ident)*) => { 1 + count!($($tail)*) };
}

/// Generates the lists of the table below (see the module's documentation). `$d` is a `$`
/// token, passed in so that the two macros generated here can name their own arguments.
macro_rules! format_table {
    (
        $d:tt
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
        }

        /// Each target's row of the table, in the order of [`Target`]'s variants.
        const TARGET_ROWS: [TargetRow; count!($($($target)+)+ Dump)] = [
            $($(TargetRow {
                name: $target_name,
                extension: $selects,
                output_extension: $writes,
                format: Some(Format::$format),
            },)+)+
            TargetRow { name: "json", extension: Some("json"), output_extension: "json", format: None },
        ];

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

        $(impl Entry for $root {
            const FORMAT: Format = Format::$format;
            const TARGETS: &'static [Target] = &[$(Target::$target),+];
            const FORMS: &'static [(Target, Option<Self::Form>)] = &[$((Target::$target, $form)),+];

            fn into_document(self) -> Document {
                Document::$format(self)
            }

            fn into_info(summary: Self::Summary) -> Info {
                Info::$format(summary)
            }

            fn into_dump(dump: Self::Dump<'_>) -> DumpRef<'_> {
                DumpRef::$format(dump)
            }
        })+

        /// Evaluates `$body` with `$root` naming the root type of `$format` (a [`Format`]):
        /// `with_format!(format, |F| F::LABEL)`.
        macro_rules! with_format {
            ($d format:expr, |$d root:ident| $d body:expr) => {
                match $d format {
                    $(Format::$format => {
                        #[allow(dead_code)]
                        type $d root = $root;
                        $d body
                    })+
                }
            };
        }
        pub(crate) use with_format;

        /// Evaluates `$body` with `$inner` bound to what the variant of `$value` holds and
        /// `$root` naming the format's root type. `$enum` is any of the table's enums with a
        /// variant per format ([`Document`], [`Info`], `DumpOwned`):
        /// `with_variant!(document, Document, |model: F| model.validate())`.
        macro_rules! with_variant {
            ($d value:expr, $d enum:ident, |$d inner:ident: $d root:ident| $d body:expr) => {
                match $d value {
                    $($d enum::$format($d inner) => {
                        #[allow(dead_code)]
                        type $d root = $root;
                        $d body
                    })+
                }
            };
        }
        pub(crate) use with_variant;

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

/// What the table knows of a format's root type beyond its [`FileFormat`]: its variant in
/// each of the table's enums, and the form each of its targets writes.
pub(crate) trait Entry: FileFormat {
    /// The format.
    const FORMAT: Format;
    /// The format's targets, in the order [`Target::ALL`] lists them.
    const TARGETS: &'static [Target];
    /// The format's targets, each with the form it writes (`None`: the form the document
    /// was read in).
    const FORMS: &'static [(Target, Option<Self::Form>)];
    /// The document holding `self`.
    fn into_document(self) -> Document;
    /// The summary as an [`Info`].
    fn into_info(summary: Self::Summary) -> Info;
    /// The dump data tagged with the format.
    fn into_dump(dump: Self::Dump<'_>) -> DumpRef<'_>;

    /// The form `target` writes: `None` when it is not one of the format's targets,
    /// `Some(None)` for a target that keeps the form read.
    fn form_of(target: Target) -> Option<Option<Self::Form>> {
        Self::FORMS.iter().find(|(t, _)| *t == target).map(|&(_, form)| form)
    }

    /// The target that writes `self` back in the form it was read in (a dump where none
    /// does).
    fn own_target(&self) -> Target {
        let form = self.form();
        Self::FORMS
            .iter()
            .find(|(_, f)| f.is_none_or(|f| f == form))
            .map_or(Target::Dump, |&(target, _)| target)
    }

    /// The form a document built from a scene for `target` takes: the target's, or for a
    /// target that keeps the form read (SEModel's own layout) the format's first form.
    fn built_form(target: Target) -> Self::Form {
        Self::form_of(target)
            .flatten()
            .or_else(|| Self::FORMS.iter().find_map(|&(_, form)| form))
            .expect("every format has a target of a given form")
    }

    /// Whether writing `self` as `target` changes its form in a way that can lose part of it.
    fn form_change_loses(&self, target: Target) -> bool {
        Self::FORM_CHANGE_LOSES && Self::form_of(target).flatten().is_some_and(|f| f != self.form())
    }
}

/// A target's row: its names and the format it writes.
struct TargetRow {
    name: &'static str,
    extension: Option<&'static str>,
    output_extension: &'static str,
    format: Option<Format>,
}

format_table! {
    $
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

impl Format {
    /// The short name used by `--format`, `info --json` and dumps: `"seanim"`.
    pub const fn name(self) -> &'static str {
        with_format!(self, |F| F::NAME)
    }

    /// The name people know the format by: `"SEAnim"`.
    pub const fn label(self) -> &'static str {
        with_format!(self, |F| F::LABEL)
    }

    /// The extensions of the format's files, without the dot, the usual one first.
    pub const fn extensions(self) -> &'static [&'static str] {
        with_format!(self, |F| F::EXTENSIONS)
    }

    /// The extensions of the format's files in its own JSON form (`animj`).
    pub const fn json_extensions(self) -> &'static [&'static str] {
        with_format!(self, |F| F::JSON_EXTENSIONS)
    }

    /// The format's targets, in the order [`Target::ALL`] lists them.
    pub fn targets(self) -> &'static [Target] {
        with_format!(self, |F| F::TARGETS)
    }

    /// What a front end needs to know of the format (see [`FormatInfo`]).
    pub fn info(self) -> FormatInfo {
        with_format!(self, |F| FormatInfo::of::<F>(self))
    }

    /// The format of a binary file judged by its magic bytes or, for a format without
    /// magic (x8an), by `name`. JSON inputs are told apart by [`Format::detect_json`].
    pub fn detect(bytes: &[u8], name: Option<&Path>) -> Option<Self> {
        Self::ALL.into_iter().find(|&format| {
            with_format!(format, |F| <F as FileFormat>::probe(bytes)
                || name.is_some_and(<F as FileFormat>::probe_name))
        })
    }

    /// The format whose own JSON form `bytes` are (AnimJ, DMF JSON, glTF).
    pub fn detect_json(bytes: &[u8]) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|&format| with_format!(format, |F| <F as FileFormat>::probe_json(bytes)))
    }
}

impl Target {
    const fn row(self) -> &'static TargetRow {
        &TARGET_ROWS[self as usize]
    }

    /// The name given to `--to`: `"seanim"`, `"semodel-draft"`, `"json"` for a dump.
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    /// The output file extension (without the dot) that selects this target, if any.
    pub const fn extension(self) -> Option<&'static str> {
        self.row().extension
    }

    /// The extension of the files written as this target when no name is given (batch
    /// conversion): [`Target::extension`] where it has one.
    pub const fn output_extension(self) -> &'static str {
        self.row().output_extension
    }

    /// The format a document takes when written as this target; `None` for a dump, which
    /// keeps the source's format.
    pub const fn format(self) -> Option<Format> {
        self.row().format
    }

    /// Why the target could hold nothing of `scene`, if it could not.
    pub(crate) fn holds_nothing(self, scene: &Scene) -> Option<String> {
        with_format!(self.format()?, |F| <F as FileFormat>::holds_nothing(scene))
    }

    /// What a loss line names as unable to hold it ([`crate::loss_line`]): the format, or
    /// the target where the format's forms hold different things.
    pub(crate) fn holder(self) -> &'static str {
        let Some(format) = self.format() else {
            return "a dump";
        };
        with_format!(format, |F| {
            let own_form = F::form_of(self).flatten().is_some();
            if F::FORM_CHANGE_LOSES && own_form {
                self.name()
            } else {
                F::NAME
            }
        })
    }

    /// What the target keeps of a scene's structure beyond its parts; nothing for a dump,
    /// which is not written from a scene.
    pub(crate) fn keeps(self) -> Keeps {
        self.format()
            .map_or(Keeps::empty(), |format| with_format!(format, |F| F::KEEPS))
    }

    /// Whether the target embeds the texture files a conversion finds.
    pub(crate) fn embeds_image_files(self) -> bool {
        self.format()
            .is_some_and(|format| with_format!(format, |F| F::EMBEDS_IMAGE_FILES))
    }

    /// Whether unnamed animations take their file's name in the target.
    pub(crate) fn names_from_files(self) -> bool {
        self.format()
            .is_some_and(|format| with_format!(format, |F| F::NAMES_FROM_FILES))
    }

    /// Whether the target restates an animation header that [`animbin_core::SceneOptions`]
    /// can set (kind, looping, precision): the formats whose writer chooses its precision
    /// (SEAnim), so that a same-format conversion with those options rebuilds the file.
    pub(crate) fn restates_header(self) -> bool {
        self.format()
            .is_some_and(|format| with_format!(format, |F| F::CHOOSES_PRECISION))
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
    /// Whether 3D tools read and write it themselves (glTF, FBX), so that a front end inside
    /// one leaves its files to the tool ([`FileFormat::INTERCHANGE`]).
    pub interchange: bool,
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
            interchange: F::INTERCHANGE,
            targets: format.targets().iter().map(|t| t.name()).collect(),
        }
    }
}

/// Every format's [`FormatInfo`], in the order of [`Format::ALL`].
pub fn formats() -> Vec<FormatInfo> {
    Format::ALL.into_iter().map(Format::info).collect()
}
