//! Conversion of any document to any target, through the scene model where the formats
//! differ, with animations from other files joined by bone name.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use animbin_core::images::ImageFiles;
use animbin_core::scene::{Animation, ConversionReport, Scene};
use animbin_core::{Keeps, SceneOptions};
use animbin_gltf::{Container, GltfFile};

use crate::{Document, Error, Format, Result, Target, textures};

/// How [`convert`] works.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// Frame rate, axes and units, and what a target states that the input may not (see
    /// [`SceneOptions`]).
    pub scene: SceneOptions,
    /// Fail with [`Error::Lossy`] instead of reporting what the target cannot hold or which
    /// animation tracks name bones the input lacks.
    pub strict: bool,
    /// Animations from other files to join to the input's (an animation onto its model).
    pub anims: Vec<AnimationSource>,
    /// The input file's path, when it came from one ([`ConvertOptions::for_input`] sets it).
    /// A glTF target looks for the texture files the materials name relative to its folder,
    /// and in that folder's `_images/` and `textures/`, and embeds them; and the file's stem
    /// names the input's animations that its format stores no name for (an SEAnim's).
    pub input: Option<PathBuf>,
    /// The folder the output will be written to, when known: texture files that a glTF
    /// cannot embed (neither PNG nor JPEG) are referred to by a URI relative to it (else
    /// relative to the input's folder).
    pub output_dir: Option<PathBuf>,
    /// Keep only the animation of this name (as [`convert_split`] names them), for targets
    /// that hold one; [`Error::NoSuchAnimation`] when none is called that.
    pub animation: Option<String>,
    /// Write a glTF even when it would hold nothing (no node and no animation); without
    /// this, such a conversion is [`Error::NothingToWrite`].
    pub allow_empty: bool,
    /// Texture files given by the caller, as `(file name, bytes)`, for a caller with no
    /// folder to look in (a browser): when any are given, a target that embeds textures
    /// takes them instead of looking beside [`ConvertOptions::input`], matching each map
    /// name to a file by its file name ([`crate::given_textures`]).
    pub textures: Vec<(String, Vec<u8>)>,
    /// The most bytes read for one input ([`crate::options::MAX_INPUT_SIZE`]'s option, the
    /// command's `--max-input-size`): the texture files found beside the input count
    /// against it together with the input file, and one that would take the total past it
    /// is an [`Error::Io`] naming it, of [`animbin_core::format::TooLarge`]. `None`:
    /// [`animbin_core::format::MAX_INPUT_SIZE`] (4 GiB).
    pub max_input_size: Option<u64>,
    /// The most values a glTF input's accessors may give in all when the conversion reads
    /// its scene (as [`crate::ReadOptions::max_accessor_values`], which should say the same);
    /// `None`: 16 per byte of its buffers, at least 16,777,216.
    pub max_accessor_values: Option<u64>,
}

impl ConvertOptions {
    /// The default options for converting the file at `path` (what [`crate::Document::open`]
    /// read): textures are looked for beside it and its stem names unnamed animations.
    pub fn for_input(path: impl Into<PathBuf>) -> Self {
        Self {
            input: Some(path.into()),
            ..Self::default()
        }
    }

    /// Sets [`ConvertOptions::output_dir`] to the folder of the output file `path` (`.`
    /// for a bare file name).
    pub fn writing_to(mut self, path: &Path) -> Self {
        self.output_dir = Some(folder_of(path));
        self
    }
}

/// One line of what a conversion to `target` lost: `"gltf cannot hold: 3 notes"`. The
/// holder is the target's format, or the target itself where the format's forms hold
/// different things (`"semodel-draft cannot hold: ..."`); a dump loses nothing.
pub fn loss_line(target: Target, lost: &str) -> String {
    format!("{} cannot hold: {lost}", target.holder())
}

/// An animation's (or any) name as a file name: characters that file systems refuse (path
/// separators, `:*?"<>|`, control characters) become `_`, and leading dots and surrounding
/// spaces go, so a name never leaves its folder or hides its file; `"animation"` for a name
/// left empty.
pub fn file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>|".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = cleaned.trim().trim_start_matches('.').trim();
    if trimmed.is_empty() {
        "animation".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The longest file name, in bytes and with its extension, that [`split_file_names`] gives.
/// File systems take 255 (bytes on Linux and macOS, UTF-16 units on Windows); a save's
/// temporary file adds 16 bytes to the name (`.NAME.XXXXXX.partial`), and the rest is room.
pub const MAX_FILE_NAME: usize = 200;

/// The names of the files `--split` writes into one folder, one per name of `names` (the
/// names [`convert_split`] returns), in order, each ending in `.extension`: the name as
/// [`file_name`] cleans it, without trailing dots (which Windows drops), a name Windows
/// keeps for a device (`CON`, `nul.txt`...) after a `_`, cut at a character boundary to at
/// most [`MAX_FILE_NAME`] bytes, and then unique, with case ignored as macOS and Windows
/// ignore it: a name taken by an earlier one gets `_2`, `_3`... before its extension,
/// cut further to make room. So `a/b`, `a:b`, `a_b` and `A_B` become `a_b`, `a_b_2`,
/// `a_b_3` and `A_B_4`, and every name is known before the first file is written.
pub fn split_file_names<'a>(names: impl IntoIterator<Item = &'a str>, extension: &str) -> Vec<String> {
    let mut taken = HashSet::new();
    names
        .into_iter()
        .map(|name| {
            let mut stem = file_name(name).trim_end_matches(['.', ' ']).to_string();
            if stem.is_empty() {
                stem = "animation".to_string();
            }
            if is_device_name(&stem) {
                stem.insert(0, '_');
            }
            // Each n gives another name, and only finitely many are taken: this ends.
            let mut n = 1u64;
            loop {
                let suffix = if n == 1 { String::new() } else { format!("_{n}") };
                let room = MAX_FILE_NAME.saturating_sub(suffix.len() + 1 + extension.len());
                let cut = floor_char_boundary(&stem, room).trim_end_matches(['.', ' ']);
                let candidate = format!("{cut}{suffix}.{extension}");
                if taken.insert(candidate.to_lowercase()) {
                    return candidate;
                }
                n += 1;
            }
        })
        .collect()
}

/// Whether Windows reads `stem` (up to its first dot) as a device: `CON`, `PRN`, `AUX`,
/// `NUL`, `COM1`-`COM9`, `LPT1`-`LPT9`, in any case.
fn is_device_name(stem: &str) -> bool {
    let head = stem.split('.').next().unwrap_or(stem).trim_end().to_ascii_uppercase();
    matches!(head.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (head.len() == 4
            && (head.starts_with("COM") || head.starts_with("LPT"))
            && head.as_bytes()[3].is_ascii_digit()
            && head.as_bytes()[3] != b'0')
}

/// The longest start of `text` of at most `max` bytes that ends at a character boundary.
fn floor_char_boundary(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let end = (0..=max).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    &text[..end]
}

/// A document as a scene with the animations of [`ConvertOptions::anims`] joined by bone
/// name, as [`Document::scene_with`] gives it.
#[derive(Debug)]
pub struct SceneWith {
    /// The scene.
    pub scene: Scene,
    /// Each animation's name: its own, else its file's stem (see [`convert`]).
    pub names: Vec<String>,
    /// What the scene model cannot hold, one line per kind.
    pub report: ConversionReport,
    /// Tracks of [`ConvertOptions::anims`] that name bones the input lacks.
    pub unmatched: Vec<UnmatchedTracks>,
}

impl Document {
    /// The document as a scene, as a conversion sees it: the animations of
    /// [`ConvertOptions::anims`] joined and matched by bone name, only
    /// [`ConvertOptions::animation`] kept when it is set, each animation named, and under
    /// [`ConvertOptions::strict`] an [`Error::Lossy`] for anything the scene cannot hold or
    /// any track that finds no bone.
    pub fn scene_with(&self, options: &ConvertOptions) -> Result<SceneWith> {
        let Prepared {
            scene,
            names,
            report,
            unmatched,
        } = animbin_gltf::with_max_accessor_values(options.max_accessor_values, || {
            prepare(Cow::Borrowed(self), options)
        })?;
        if options.strict && !(report.is_lossless() && unmatched.is_empty()) {
            let lost = report.lost.iter().map(|l| format!("the scene model cannot hold: {l}"));
            return Err(Error::Lossy {
                lost: lost.chain(unmatched.iter().map(ToString::to_string)).collect(),
            });
        }
        Ok(SceneWith {
            scene,
            names,
            report,
            unmatched,
        })
    }
}

/// A document for `target` built from `scene` (a scene a caller made, such as Python's
/// `animbin.from_scene`), which must pass [`Scene::check`] (an [`Error::Scene`] names the
/// field that does not): texture files are looked for beside [`ConvertOptions::input`] for
/// a target that embeds them, what the target cannot hold is reported, and under
/// [`ConvertOptions::strict`] is an error. Unlike [`convert`] it writes a target that holds
/// nothing of the scene: the caller built it.
pub fn convert_scene(scene: &Scene, target: Target, options: &ConvertOptions) -> Result<Conversion<'static>> {
    if target == Target::Dump {
        return Err(Error::Unsupported {
            format: Format::Gltf,
            target,
        });
    }
    scene.check()?;
    crate::options::check(&options.scene)?;
    let options = ConvertOptions {
        allow_empty: true,
        ..options.clone()
    };
    build(
        Format::Gltf,
        Cow::Borrowed(scene),
        target,
        &options,
        ConversionReport::default(),
        Vec::new(),
    )
}

/// A document whose animations [`convert`] joins to the input's.
#[derive(Debug, Clone)]
pub struct AnimationSource {
    /// How messages name it (the command uses its path). Its file stem (`walk` for
    /// `anims/walk.seanim`) names the animations its format stores no name for.
    pub name: String,
    /// The document; it must hold at least one animation.
    pub document: Document,
}

/// Animation tracks that name bones the input does not have. They are kept (the target
/// says what it does with them) and reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnmatchedTracks {
    /// The [`AnimationSource::name`].
    pub source: String,
    /// The animation's name (its own, else its file's stem, as [`convert`] names them).
    pub animation: String,
    /// The bones that the input lacks.
    pub bones: Vec<String>,
}

impl fmt::Display for UnmatchedTracks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: animation {:?}: {} track(s) name bones the input does not have: {}",
            self.source,
            self.animation,
            self.bones.len(),
            self.bones.join(", ")
        )
    }
}

/// The result of [`convert`]: the document to write, what it lost and which tracks found
/// no bone.
#[derive(Debug)]
pub struct Conversion<'a> {
    output: Output<'a>,
    target: Target,
    /// What the target (or the scene model on the way) cannot hold, one line per kind.
    pub report: ConversionReport,
    /// Tracks of [`ConvertOptions::anims`] that name bones the input lacks.
    pub unmatched: Vec<UnmatchedTracks>,
}

/// What a conversion writes.
#[derive(Debug)]
enum Output<'a> {
    /// A document in the target's format (the input itself when no change was needed).
    Document(Cow<'a, Document>),
    /// A glb encoded from the scene and not joined: writing streams its JSON and its buffer's
    /// pieces ([`animbin_gltf::Encoded::write`]), so the file is never held whole beside them.
    /// Its document is made when asked for.
    Glb {
        encoded: animbin_gltf::Encoded,
        document: OnceLock<Document>,
    },
}

impl Output<'_> {
    fn document(document: Document) -> Self {
        Self::Document(Cow::Owned(document))
    }
}

/// The document of a glb encoded from a scene: the file's bytes, joined.
fn glb_document(bytes: Vec<u8>) -> Document {
    Document::Gltf(GltfFile {
        bytes,
        container: Container::Glb,
    })
}

impl Conversion<'_> {
    /// The document in the target's format (the input itself when no change was needed).
    /// A glb converted from a scene is written without being joined in memory: asking for its
    /// document joins it (once).
    pub fn document(&self) -> &Document {
        match &self.output {
            Output::Document(document) => document,
            Output::Glb { encoded, document } => document.get_or_init(|| glb_document(encoded.to_bytes())),
        }
    }

    /// The document in the target's format, owned.
    pub fn into_document(self) -> Document {
        match self.output {
            Output::Document(document) => document.into_owned(),
            Output::Glb { encoded, document } => document
                .into_inner()
                .unwrap_or_else(|| glb_document(encoded.into_bytes())),
        }
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Whether nothing was lost and every track found its bone.
    pub fn is_lossless(&self) -> bool {
        self.report.is_lossless() && self.unmatched.is_empty()
    }

    /// What was lost ([`loss_line`]), which tracks found no bone and the report's notes, one
    /// line each: everything a front end shows the user of the conversion.
    pub fn lost_lines(&self) -> Vec<String> {
        let lost = self.report.lost.iter().map(|l| loss_line(self.target, l));
        let unmatched = self.unmatched.iter().map(ToString::to_string);
        lost.chain(unmatched).chain(self.report.notes.iter().cloned()).collect()
    }

    /// Encodes the result to `writer`; a glb converted from a scene is streamed.
    pub fn write(&self, writer: impl Write) -> Result<()> {
        match &self.output {
            Output::Document(document) => document.write(self.target, writer, &mut ConversionReport::default()),
            Output::Glb { encoded, .. } => Ok(encoded.write(writer)?),
        }
    }

    /// Encodes the result into memory.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        match &self.output {
            Output::Document(document) => document.to_bytes(self.target),
            Output::Glb { encoded, .. } => Ok(encoded.to_bytes()),
        }
    }

    #[cfg(feature = "fs")]
    /// Writes the result to `path` whole or not at all (see [`crate::save`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        crate::save(path, |writer| self.write(writer))
    }
}

/// Converts `document` to `target`.
///
/// A dump, or another target of the document's own format, writes the document as it is
/// (a same-format conversion of a file is byte-identical), unless the options ask for an
/// SEAnim header of their own ([`SceneOptions::anim_kind`], [`SceneOptions::looping`],
/// [`SceneOptions::precision`]). An SEAnim or SEModel into Cast, and back from a Cast file
/// made that way, maps field by field ([`crate::se_cast`]), so that the round trip gives back
/// the same bytes. Anything else goes through the scene model: the document
/// becomes a scene, the animations of `options.anims` join it, and the target's format is
/// built from it. A target that could hold nothing of the input
/// (a model into SEAnim, an animation into SEModel, a glTF with no node and no animation
/// unless [`ConvertOptions::allow_empty`]) is [`Error::NothingToWrite`].
///
/// Animations are named for a glTF target (where they become Blender's actions) and for
/// [`ConvertOptions::animation`]: by the name their format stores, else by their file's
/// stem ([`ConvertOptions::input`], [`AnimationSource::name`]), with `_1`, `_2`... when one
/// file holds several unnamed ones.
pub fn convert<'a>(document: &'a Document, target: Target, options: &ConvertOptions) -> Result<Conversion<'a>> {
    convert_cow(Cow::Borrowed(document), target, options)
}

/// [`convert`] of a document that is no longer needed: the arrays its model holds as the
/// scene does move into the scene ([`Document::into_scene`]) rather than being copied, and
/// a glb is written from that scene, so the conversion holds its data once. The result is
/// the same.
pub fn convert_owned(document: Document, target: Target, options: &ConvertOptions) -> Result<Conversion<'static>> {
    convert_cow(Cow::Owned(document), target, options)
}

fn convert_cow<'a>(document: Cow<'a, Document>, target: Target, options: &ConvertOptions) -> Result<Conversion<'a>> {
    animbin_gltf::with_max_accessor_values(options.max_accessor_values, || {
        convert_within_budget(document, target, options)
    })
}

fn convert_within_budget<'a>(
    document: Cow<'a, Document>,
    target: Target,
    options: &ConvertOptions,
) -> Result<Conversion<'a>> {
    crate::options::check(&options.scene)?;
    // Options that change an SEAnim's header take the scene path even from an SEAnim.
    let header = &options.scene;
    let new_header = target.restates_header()
        && (header.anim_kind.is_some() || header.looping.is_some() || header.precision.is_some());
    // Options that would do nothing to a file converted to its own format are refused by
    // name; rounding x8an's rotations to unit length takes the scene path.
    let same_format = target.format() == Some(document.format());
    if same_format {
        crate::options::same_format(&options.scene, &document.format().to_string())?;
    }
    let renormalized = same_format && options.scene.normalize_rotations;
    let whole = options.anims.is_empty() && options.animation.is_none() && !new_header && !renormalized;
    if whole && writes_directly(&document, target) {
        return Ok(Conversion {
            output: Output::Document(document),
            target,
            report: ConversionReport::default(),
            unmatched: Vec::new(),
        });
    }
    // SE and Cast map onto each other field by field, past what the scene holds.
    if let Some((converted, report)) = whole.then(|| crate::se_cast::convert(&document, target)).flatten() {
        return strict_checked(
            Conversion {
                output: Output::document(converted),
                target,
                report,
                unmatched: Vec::new(),
            },
            options,
        );
    }
    let format = document.format();
    let mut prepared = prepare(document, options)?;
    if target.names_from_files() {
        for (animation, name) in prepared.scene.animations.iter_mut().zip(&prepared.names) {
            animation.name.clone_from(name);
        }
    }
    let conversion = build(
        format,
        Cow::Owned(prepared.scene),
        target,
        options,
        prepared.report,
        prepared.unmatched,
    )?;
    Ok(conversion)
}

/// Converts each animation on its own, for a target that holds one (`--split`): one
/// conversion per animation, each with the input's model (its skeleton, meshes and
/// materials, where the target holds them), named as [`convert`] names animations, made
/// unique with `_2`, `_3`... and `animation` plus its position when it has no name. Every
/// conversion is made before any is returned, so nothing needs writing when one fails;
/// [`split_file_names`] gives the files to write them to, all of them before the first.
/// [`ConvertOptions::animation`] keeps one, as for [`convert`].
pub fn convert_split(
    document: &Document,
    target: Target,
    options: &ConvertOptions,
) -> Result<Vec<(String, Conversion<'static>)>> {
    let prepared = prepare(Cow::Borrowed(document), options)?;
    if prepared.scene.animations.is_empty() {
        return Err(Error::NothingToWrite {
            format: document.format(),
            target,
            reason: "splitting writes one file per animation and the input has none".into(),
            overridable: false,
        });
    }
    let mut model = prepared.scene;
    let animations = std::mem::take(&mut model.animations);
    let mut used = HashSet::new();
    let mut out = Vec::with_capacity(animations.len());
    for (index, (mut animation, name)) in animations.into_iter().zip(prepared.names).enumerate() {
        let unmatched = prepared
            .unmatched
            .iter()
            .filter(|u| u.animation == name)
            .cloned()
            .collect();
        let base = if name.is_empty() {
            format!("animation{index}")
        } else {
            name
        };
        let mut unique = base.clone();
        for n in 2.. {
            if used.insert(unique.clone()) {
                break;
            }
            unique = format!("{base}_{n}");
        }
        if target.names_from_files() {
            animation.name.clone_from(&unique);
        }
        model.animations = vec![animation];
        let conversion = build(
            document.format(),
            Cow::Borrowed(&model),
            target,
            options,
            prepared.report.clone(),
            unmatched,
        )?;
        out.push((unique, conversion));
    }
    Ok(out)
}

/// The input as a scene with the joined animations, and each animation's name.
struct Prepared {
    scene: Scene,
    /// The name of each animation of `scene`: its own, else from its file's stem.
    names: Vec<String>,
    report: ConversionReport,
    unmatched: Vec<UnmatchedTracks>,
}

fn prepare(document: Cow<'_, Document>, options: &ConvertOptions) -> Result<Prepared> {
    crate::options::check(&options.scene)?;
    let mut report = ConversionReport::default();
    let mut scene = match document {
        Cow::Borrowed(document) => document.to_scene(&options.scene, &mut report)?,
        Cow::Owned(document) => document.into_scene(&options.scene, &mut report)?,
    };
    let stem = options.input.as_deref().and_then(file_stem);
    let mut names = animation_names(&scene.animations, stem.as_deref());
    let unmatched = join_animations(&mut scene, &mut names, &options.anims, &options.scene, &mut report)?;
    if let Some(wanted) = &options.animation {
        let Some(keep) = names.iter().position(|n| n == wanted) else {
            return Err(Error::NoSuchAnimation {
                name: wanted.clone(),
                known: names,
            });
        };
        let animation = scene.animations.swap_remove(keep);
        scene.animations = vec![animation];
        names = vec![wanted.clone()];
    }
    Ok(Prepared {
        scene,
        names,
        report,
        unmatched,
    })
}

/// The targets `document` can be written as, in the order of [`Target::ALL`]: its own
/// format's, each other whose format can hold part of it (not a model into SEAnim, nor an
/// animation into SEModel), and a dump. A document whose scene cannot be made (with
/// `options`) is offered its own format's targets and a dump.
pub fn writable_targets(document: &Document, options: &SceneOptions) -> Vec<Target> {
    let own = document.format().targets();
    let scene = document.to_scene(options, &mut ConversionReport::default()).ok();
    Target::ALL
        .into_iter()
        .filter(|target| {
            *target == Target::Dump
                || own.contains(target)
                || scene
                    .as_ref()
                    .is_some_and(|scene| target.holds_nothing(scene).is_none())
        })
        .collect()
}

/// The target's document built from `scene`, checked against `options.strict`. A glb keeps
/// an owned scene and writes its arrays from it ([`animbin_gltf::encode_owned`]).
fn build(
    format: Format,
    mut scene: Cow<'_, Scene>,
    target: Target,
    options: &ConvertOptions,
    mut report: ConversionReport,
    unmatched: Vec<UnmatchedTracks>,
) -> Result<Conversion<'static>> {
    if let Some(reason) = target.holds_nothing(&scene).filter(|_| !options.allow_empty) {
        return Err(Error::NothingToWrite {
            format,
            target,
            reason,
            overridable: true,
        });
    }
    let images = match &options.input {
        // Texture files the caller gave are embedded.
        _ if target.embeds_image_files() && !options.textures.is_empty() => {
            textures::given_textures(&scene, &options.textures)
        }
        // Texture files beside the input are embedded.
        Some(input) if target.embeds_image_files() => {
            let folder = folder_of(input);
            let output_folder = match &options.output_dir {
                Some(dir) if !dir.as_os_str().is_empty() => dir.clone(),
                _ => folder.clone(),
            };
            let limit = options.max_input_size.unwrap_or(animbin_core::format::MAX_INPUT_SIZE);
            textures::find_textures_within(&scene, &folder, &output_folder, input, limit)?
        }
        _ => ImageFiles::default(),
    };
    let keeps = target.keeps();
    if !keeps.contains(Keeps::GRAPH) {
        // The game formats hold a rig: a graph (a glTF's plain nodes, placed meshes, skins,
        // cameras) is baked into one, and what a rig cannot say is named.
        if scene.has_graph() {
            scene.to_mut().bake_to_rig(&mut report);
        }
    }
    if !keeps.contains(Keeps::CURVES) {
        // The others play keys that the animation's interpolation joins.
        if scene
            .animations
            .iter()
            .any(|a| a.bones.iter().any(|t| !t.curves.is_empty()))
        {
            for animation in &mut scene.to_mut().animations {
                animation.bake_curves(&mut report);
            }
        }
    }
    if !keeps.contains(Keeps::PLACEMENT) {
        animbin_core::pose::lose_placement(&scene, &mut report);
    }
    if !keeps.contains(Keeps::SCALE_COMPENSATION) {
        animbin_core::pose::lose_compensation(&scene, &mut report);
    }
    if !keeps.contains(Keeps::CHANNEL_KINDS) {
        // The others get one kind per animation (or bone) with keys that play the same.
        let per_channel =
            |t: &animbin_core::scene::BoneTrack| !t.channel_kinds.is_empty() || !t.channel_overrides.is_empty();
        if scene.animations.iter().any(|a| a.bones.iter().any(per_channel)) {
            animbin_core::pose::flatten_channel_kinds(scene.to_mut());
        }
        // Absolute scale keys measured against a bone's rest scale (Cast's `s`) become what
        // plays, as the target reads them.
        if scene
            .skeleton
            .bones
            .iter()
            .any(|b| b.rest_scale != animbin_core::math::Vec3::ONE)
            && !animbin_core::pose::fold_rest_scales(scene.to_mut())
        {
            report.lose("scale key digits when divided by bone rest scales (Cast's s)");
        }
    }
    let output = if target == Target::Glb {
        // What `Document::build` makes for a glb (`GltfFile::from_scene`), left unjoined.
        let encoded = match scene {
            Cow::Owned(scene) => {
                animbin_gltf::encode_owned(scene, Container::Glb, &options.scene, &images, &mut report)?
            }
            Cow::Borrowed(scene) => animbin_gltf::encode(scene, Container::Glb, &options.scene, &images, &mut report)?,
        };
        Output::Glb {
            encoded,
            document: OnceLock::new(),
        }
    } else {
        Output::document(Document::build(&scene, target, &options.scene, &images, &mut report)?)
    };
    let conversion = Conversion {
        output,
        target,
        report,
        unmatched,
    };
    strict_checked(conversion, options)
}

/// The conversion, or under [`ConvertOptions::strict`] the error that names its losses.
fn strict_checked<'a>(conversion: Conversion<'a>, options: &ConvertOptions) -> Result<Conversion<'a>> {
    if options.strict && !conversion.is_lossless() {
        return Err(Error::Lossy {
            lost: conversion.lost_lines(),
        });
    }
    Ok(conversion)
}

/// The folder of a file's path (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A path's file stem (`walk` for `anims/walk.seanim`), when it has one.
fn file_stem(path: &Path) -> Option<String> {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
}

/// Each animation's name: its own, else `stem` (with `_1`, `_2`... when several have none),
/// else empty.
fn animation_names(animations: &[Animation], stem: Option<&str>) -> Vec<String> {
    let unnamed = animations.iter().filter(|a| a.name.is_empty()).count();
    let mut k = 0;
    animations
        .iter()
        .map(|a| match stem {
            _ if !a.name.is_empty() => a.name.clone(),
            Some(stem) if unnamed == 1 => stem.to_string(),
            Some(stem) => {
                k += 1;
                format!("{stem}_{k}")
            }
            None => String::new(),
        })
        .collect()
}

/// Whether `document` is written as `target` without going through the scene model: a
/// dump, or a target of its own format (other than a change of form that can lose part of
/// it, SEModel's other layout, whose losses the scene path reports before anything is
/// written).
fn writes_directly(document: &Document, target: Target) -> bool {
    target == Target::Dump || (target.format() == Some(document.format()) && !document.form_change_loses(target))
}

/// Adds the animations of each source to `scene` and their names to `names` (see
/// [`animation_names`]), matching tracks to the scene's bones by name; returns the tracks
/// that name bones the scene lacks (when it has bones at all).
fn join_animations(
    scene: &mut Scene,
    names: &mut Vec<String>,
    sources: &[AnimationSource],
    options: &SceneOptions,
    report: &mut ConversionReport,
) -> Result<Vec<UnmatchedTracks>> {
    let mut unmatched = Vec::new();
    // The skeleton does not change here: its names are indexed once, not searched per track.
    let bone_names = scene.skeleton.indices_by_name();
    for source in sources {
        let extra = source.document.to_scene(options, report)?;
        if extra.animations.is_empty() {
            return Err(Error::NoAnimation {
                name: source.name.clone(),
            });
        }
        let stem = file_stem(Path::new(&source.name));
        let extra_names = animation_names(&extra.animations, stem.as_deref());
        for (animation, name) in extra.animations.into_iter().zip(extra_names) {
            if !scene.skeleton.bones.is_empty() {
                let bones: Vec<String> = animation
                    .bones
                    .iter()
                    .filter(|track| !bone_names.contains_key(track.bone.as_str()))
                    .map(|track| track.bone.clone())
                    .collect();
                if !bones.is_empty() {
                    unmatched.push(UnmatchedTracks {
                        source: source.name.clone(),
                        animation: name.clone(),
                        bones,
                    });
                }
            }
            scene.animations.push(animation);
            names.push(name);
        }
    }
    Ok(unmatched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unnamed_animations_take_the_stem_and_named_ones_keep_theirs() {
        let named = |name: &str| Animation {
            name: name.into(),
            ..Animation::default()
        };
        assert_eq!(animation_names(&[named("")], Some("walk")), ["walk"]);
        assert_eq!(
            animation_names(&[named(""), named("idle"), named("")], Some("x")),
            ["x_1", "idle", "x_2"]
        );
        assert_eq!(animation_names(&[named("")], None), [""]);
        assert_eq!(file_stem(Path::new("anims/run.seanim")).as_deref(), Some("run"));
        assert_eq!(folder_of(Path::new("a.seanim")), Path::new("."));
    }

    #[test]
    fn split_names_that_clean_alike_stay_apart() {
        let long = "x".repeat(300);
        let names = ["a/b", "a:b", "a_b", "A_B", "..", " ", "", "con", "a.", &long, &long];
        let files = split_file_names(names, "seanim");
        let cut = format!("{}.seanim", "x".repeat(MAX_FILE_NAME - ".seanim".len()));
        let cut_2 = format!("{}_2.seanim", "x".repeat(MAX_FILE_NAME - "_2.seanim".len()));
        assert_eq!(
            files,
            [
                "a_b.seanim",
                "a_b_2.seanim",
                "a_b_3.seanim",
                "A_B_4.seanim",
                "animation.seanim",
                "animation_2.seanim",
                "animation_3.seanim",
                "_con.seanim",
                "a.seanim",
                &cut,
                &cut_2,
            ]
        );
        // Cut at a character boundary.
        let wide = split_file_names(["\u{e9}".repeat(150).as_str()], "glb");
        assert!(
            wide[0].len() <= MAX_FILE_NAME && wide[0].ends_with("\u{e9}.glb"),
            "{wide:?}"
        );
    }

    proptest::proptest! {
        /// Whatever the names, the files are as many, unique with case ignored, short
        /// enough, plain names in the folder (no separator, no leading dot, not empty).
        #[test]
        fn split_file_names_are_unique_short_and_plain(names in proptest::collection::vec(".{0,260}", 0..24)) {
            let files = split_file_names(names.iter().map(String::as_str), "seanim");
            proptest::prop_assert_eq!(files.len(), names.len());
            let mut seen = HashSet::new();
            for file in &files {
                proptest::prop_assert!(seen.insert(file.to_lowercase()), "{file:?} twice in {files:?}");
                proptest::prop_assert!(file.len() <= MAX_FILE_NAME, "{file:?}");
                proptest::prop_assert!(file.ends_with(".seanim") && file.len() > ".seanim".len(), "{file:?}");
                proptest::prop_assert!(!file.starts_with('.') && !file.starts_with(' '), "{file:?}");
                proptest::prop_assert!(!file.contains(['/', '\\', ':', '\0']), "{file:?}");
                proptest::prop_assert_eq!(std::path::Path::new(file).file_name().and_then(|f| f.to_str()), Some(file.as_str()));
            }
        }

        /// Names that clean alike (separators, case) still give as many files.
        #[test]
        fn names_alike_after_cleaning_give_distinct_files(stem in "[a-c]{1,3}", count in 1usize..40) {
            let names: Vec<String> = (0..count)
                .map(|i| match i % 4 {
                    0 => stem.clone(),
                    1 => stem.replace('a', "/"),
                    2 => stem.to_uppercase(),
                    _ => format!("{stem}_2"),
                })
                .collect();
            let files = split_file_names(names.iter().map(String::as_str), "cast");
            let unique: HashSet<String> = files.iter().map(|f| f.to_lowercase()).collect();
            proptest::prop_assert_eq!(unique.len(), count);
        }
    }
}
