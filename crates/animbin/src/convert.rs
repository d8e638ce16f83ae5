//! Conversion of any document to any target, through the scene model where the formats
//! differ, with animations from other files joined by bone name.

use std::borrow::Cow;
use std::fmt;
use std::io::Write;
use std::path::Path;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};

use crate::{Document, Error, Format, Result, Target};

/// How [`convert`] works.
#[derive(Debug, Clone, Default)]
pub struct ConvertOptions {
    /// Frame rate, axes and units (see [`SceneOptions`]).
    pub scene: SceneOptions,
    /// Fail with [`Error::Lossy`] instead of reporting what the target cannot hold or which
    /// animation tracks name bones the input lacks.
    pub strict: bool,
    /// Animations from other files to join to the input's (an animation onto its model).
    pub anims: Vec<AnimationSource>,
}

/// A document whose animations [`convert`] joins to the input's.
#[derive(Debug, Clone)]
pub struct AnimationSource {
    /// How messages name it (the command uses its path).
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
    /// The animation's name.
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
    document: Cow<'a, Document>,
    target: Target,
    /// What the target (or the scene model on the way) cannot hold, one line per kind.
    pub report: ConversionReport,
    /// Tracks of [`ConvertOptions::anims`] that name bones the input lacks.
    pub unmatched: Vec<UnmatchedTracks>,
}

impl Conversion<'_> {
    /// The document in the target's format (the input itself when no change was needed).
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Whether nothing was lost and every track found its bone.
    pub fn is_lossless(&self) -> bool {
        self.report.is_lossless() && self.unmatched.is_empty()
    }

    /// Encodes the result to `writer`.
    pub fn write(&self, writer: impl Write) -> Result<()> {
        self.document
            .write(self.target, writer, &mut ConversionReport::default())
    }

    /// Encodes the result into memory.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.document.to_bytes(self.target)
    }

    /// Writes the result to `path` whole or not at all (see [`crate::save`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        crate::save(path, |writer| self.write(writer))
    }
}

/// Converts `document` to `target`.
///
/// A dump, or another target of the document's own format, writes the document as it is
/// (a same-format conversion of a file is byte-identical). Anything else goes through the
/// scene model: the document becomes a scene, the animations of `options.anims` join it,
/// and the target's format is built from it. A target that could hold nothing of the input
/// (a model into SEAnim, an animation into SEModel) is [`Error::NothingToWrite`].
pub fn convert<'a>(document: &'a Document, target: Target, options: &ConvertOptions) -> Result<Conversion<'a>> {
    if options.anims.is_empty() && writes_directly(document, target) {
        return Ok(Conversion {
            document: Cow::Borrowed(document),
            target,
            report: ConversionReport::default(),
            unmatched: Vec::new(),
        });
    }
    let mut report = ConversionReport::default();
    let mut scene = document.to_scene(&options.scene, &mut report)?;
    let unmatched = join_animations(&mut scene, &options.anims, &options.scene, &mut report)?;
    if let Some(reason) = holds_nothing(&scene, target) {
        return Err(Error::NothingToWrite {
            format: document.format(),
            target,
            reason,
        });
    }
    let built = Document::from_scene(&scene, target, &options.scene, &mut report)?;
    let conversion = Conversion {
        document: Cow::Owned(built),
        target,
        report,
        unmatched,
    };
    if options.strict && !conversion.is_lossless() {
        let lost = conversion
            .report
            .lost
            .iter()
            .map(|l| format!("{target} cannot hold {l}"));
        let unmatched = conversion.unmatched.iter().map(ToString::to_string);
        return Err(Error::Lossy {
            lost: lost.chain(unmatched).collect(),
        });
    }
    Ok(conversion)
}

/// Whether `document` is written as `target` without going through the scene model: a
/// dump, or a target of its own format (other than another SEModel layout, whose losses
/// the scene path reports before anything is written).
fn writes_directly(document: &Document, target: Target) -> bool {
    match (document, target) {
        (_, Target::Dump) => true,
        (Document::SeModel(model), Target::SeModelDeployed) => model.layout() == animbin_semodel::Layout::Deployed,
        (Document::SeModel(model), Target::SeModelDraft) => model.layout() == animbin_semodel::Layout::Draft,
        (document, target) => target.format() == Some(document.format()),
    }
}

/// Why `target` could hold nothing of `scene`, if it could not.
fn holds_nothing(scene: &Scene, target: Target) -> Option<&'static str> {
    let no_animation = scene.animations.is_empty();
    let no_model = scene.skeleton.bones.is_empty() && scene.meshes.is_empty();
    match target.format()? {
        Format::SeAnim | Format::AnimX | Format::Sf3 if no_animation => {
            Some("it holds animations and the input has none")
        }
        Format::SeModel if no_model => Some("it holds bones and meshes and the input has neither"),
        Format::Dmf if no_animation && no_model && scene.materials.is_empty() && scene.textures.is_empty() => {
            Some("the input holds no bones, meshes, materials, textures or animations")
        }
        Format::Cast if no_animation && no_model && scene.materials.is_empty() => {
            Some("the input holds no bones, meshes, materials or animations")
        }
        _ => None,
    }
}

/// Adds the animations of each source to `scene`, matching tracks to the scene's bones by
/// name; returns the tracks that name bones the scene lacks (when it has bones at all).
fn join_animations(
    scene: &mut Scene,
    sources: &[AnimationSource],
    options: &SceneOptions,
    report: &mut ConversionReport,
) -> Result<Vec<UnmatchedTracks>> {
    let mut unmatched = Vec::new();
    for source in sources {
        let extra = source.document.to_scene(options, report)?;
        if extra.animations.is_empty() {
            return Err(Error::NoAnimation {
                name: source.name.clone(),
            });
        }
        for animation in extra.animations {
            if !scene.skeleton.bones.is_empty() {
                let bones: Vec<String> = animation
                    .bones
                    .iter()
                    .filter(|track| scene.skeleton.find(&track.bone).is_none())
                    .map(|track| track.bone.clone())
                    .collect();
                if !bones.is_empty() {
                    unmatched.push(UnmatchedTracks {
                        source: source.name.clone(),
                        animation: animation.name.clone(),
                        bones,
                    });
                }
            }
            scene.animations.push(animation);
        }
    }
    Ok(unmatched)
}
