//! Cast's side of the contract every format crate implements: [`FileFormat`] for
//! [`CastFile`].

use std::io::Write;

use animbin_core::format::{FileFormat, Holds, Keeps};
use animbin_core::scene::{AnimKind, ConversionReport, Precision, Scene, SceneOptions};
use animbin_core::{Error, Problem};

use crate::model::CastFile;
use crate::summary::Summary;
use crate::view::View;

/// Cast: one form (`.cast`), read and written back byte for byte; the summary is read
/// through the [`View`]; the dump is the model's serde form.
impl FileFormat for CastFile {
    const NAME: &'static str = crate::FORMAT;
    const LABEL: &'static str = "Cast";
    const EXTENSIONS: &'static [&'static str] = &["cast"];
    const MAGIC: &'static [u8] = crate::MAGIC;
    const HOLDS: Holds = Holds::BONES
        .union(Holds::MESHES)
        .union(Holds::MATERIALS)
        .union(Holds::ANIMATIONS);
    /// The Model node's placement, `ssc` and a mode per curve.
    const KEEPS: Keeps = Keeps::CHANNEL_KINDS
        .union(Keeps::PLACEMENT)
        .union(Keeps::SCALE_COMPENSATION);
    const STORES_FRAMERATE: bool = true;
    /// A curve's mode (`m`) is `absolute`, `relative` or `additive`; delta keys are written
    /// as relative (reported).
    const ANIMATION_KINDS: &'static [AnimKind] = &[AnimKind::Absolute, AnimKind::Relative, AnimKind::Additive];
    const NAMES_ANIMATIONS: bool = true;
    const SEVERAL_ANIMATIONS: bool = true;
    const LENGTH_ENDS_ON_LAST_KEY: bool = false;
    const CHOOSES_PRECISION: bool = false;

    type Form = ();
    type Summary = Summary;
    type Error = Error;

    /// Whether `bytes` start with [`crate::MAGIC`] (as [`crate::has_magic`]).
    fn probe(bytes: &[u8]) -> bool {
        crate::has_magic(bytes)
    }

    fn read(bytes: &[u8]) -> Result<Self, Error> {
        crate::read(bytes)
    }

    fn form(&self) {}

    fn write_as(&self, (): (), writer: &mut dyn Write, _: &mut ConversionReport) -> Result<(), Error> {
        crate::write(self, writer)
    }

    /// Curve values and bind poses are `f32`.
    fn key_precision(&self) -> Option<Precision> {
        Some(Precision::Single)
    }

    fn summary(&self) -> Summary {
        Summary::of_file(self)
    }

    /// Through the [`View`], which accepts exactly the files [`crate::read`] does (reading
    /// is its walk and a copy of each payload); only node headers are counted.
    fn summary_of(bytes: &[u8]) -> Result<Summary, Error> {
        View::parse(bytes).map(|view| view.summary())
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(self)
    }

    animbin_core::dump_the_model!();

    // Cast names its texture files and embeds none.
    animbin_core::scene_through_the_model!();

    fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        CastFile::into_scene(self, options, report)
    }

    /// Cast also holds hair and instances of other scene files, which are no part of
    /// [`Holds`]: a scene of those alone is written.
    fn holds_nothing(scene: &Scene) -> Option<String> {
        if !scene.hairs.is_empty() || !scene.instances.is_empty() {
            return None;
        }
        Self::HOLDS.held_nothing_of(scene)
    }
}

#[cfg(test)]
mod tests {
    use animbin_core::scene::Scene;

    use super::*;

    #[test]
    fn a_scene_with_nothing_cast_holds_is_refused_in_the_facade_s_words() {
        assert_eq!(
            CastFile::holds_nothing(&Scene::default()).as_deref(),
            Some("the input holds no bones, meshes, materials or animations")
        );
        let mut scene = Scene::default();
        scene.materials.push(Default::default());
        assert_eq!(CastFile::holds_nothing(&scene), None);
        scene.materials.clear();
        scene.textures.push(Default::default());
        assert_eq!(
            CastFile::holds_nothing(&scene).as_deref(),
            Some("the input holds no bones, meshes, materials or animations"),
            "Cast names texture files and embeds no texture"
        );
        scene.instances.push(Default::default());
        assert_eq!(CastFile::holds_nothing(&scene), None);
        scene.instances.clear();
        scene.hairs.push(Default::default());
        assert_eq!(CastFile::holds_nothing(&scene), None);
    }

    #[test]
    fn the_magic_is_probed() {
        assert!(CastFile::probe(b"cast\x01\0\0\0"));
        assert!(!CastFile::probe(b"cas"));
        assert_eq!(CastFile::MAGIC, b"cast");
    }
}
