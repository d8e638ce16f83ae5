//! [`SeModel`]'s side of the contract every animbin format crate implements:
//! [`FileFormat`].

use std::io::Write;

use animbin_core::format::{FileFormat, Holds, Positioned};
use animbin_core::images::ImageFiles;
use animbin_core::scene::{AnimKind, ConversionReport, Precision, Scene, SceneOptions};
use animbin_core::{Error, Problem};

use crate::layout::Layout;
use crate::model::SeModel;
use crate::summary::Summary;
use crate::view::View;

/// SEModel v1: a skeleton, meshes and materials, in one of two [`Layout`]s (the form). A
/// file is written back in the layout it was read in, byte for byte; writing it in the
/// other layout goes through the scene model ([`SeModel::to_layout`]) and reports what that
/// layout cannot hold.
impl FileFormat for SeModel {
    const NAME: &'static str = crate::FORMAT;
    const LABEL: &'static str = "SEModel";
    const EXTENSIONS: &'static [&'static str] = &["semodel"];
    const MAGIC: &'static [u8] = crate::MAGIC;
    const HOLDS: Holds = Holds::BONES.union(Holds::MESHES);
    /// An SEModel holds no animation, so it has no frame rate to store.
    const STORES_FRAMERATE: bool = false;
    const ANIMATION_KINDS: &'static [AnimKind] = &[];
    const NAMES_ANIMATIONS: bool = false;
    const NAMES_MESHES: bool = false;
    const SEVERAL_ANIMATIONS: bool = false;
    const LENGTH_ENDS_ON_LAST_KEY: bool = false;
    const CHOOSES_PRECISION: bool = false;
    /// The layouts hold different fields (the draft's half-float normals, the deployed
    /// layout's materials).
    const FORM_CHANGE_LOSES: bool = true;

    type Form = Layout;
    type Summary = Summary;
    type Error = Error;

    fn read(bytes: &[u8]) -> Result<Self, Error> {
        crate::read(bytes)
    }

    fn form(&self) -> Layout {
        self.layout()
    }

    /// In the model's own layout, the model as it is; in the other, the model rebuilt through
    /// the scene ([`SeModel::to_layout`]), with what is lost on the way in `report`.
    fn write_as(&self, form: Layout, writer: &mut dyn Write, report: &mut ConversionReport) -> Result<(), Error> {
        if form == self.layout() {
            return crate::write(self, writer);
        }
        let model = self.to_layout(form, &SceneOptions::default(), report)?;
        crate::write(&model, writer)
    }

    fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        crate::to_bytes(self)
    }

    /// Bind poses are `f32`.
    fn key_precision(&self) -> Option<Precision> {
        Some(Precision::Single)
    }

    fn summary(&self) -> Summary {
        Summary::of(self)
    }

    /// Through the [`View`] for the deployed layout; a draft file, which the view does not
    /// open, is summarised from the owned model.
    fn summary_of(bytes: &[u8]) -> Result<Summary, Error> {
        match crate::sniff(bytes)? {
            Layout::Deployed => View::parse(bytes).map(|view| view.summary()),
            Layout::Draft => Ok(crate::read(bytes)?.summary()),
        }
    }

    /// A deployed-layout file's header, names and mesh headers, the vertex data skipped.
    fn summary_at(file: &mut Positioned<'_>) -> Option<Summary> {
        Summary::at(file)
    }

    fn validate(&self) -> Vec<Problem> {
        crate::validate(self)
    }

    animbin_core::dump_the_model!();

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        SeModel::to_scene(self, options, report)
    }

    fn into_scene(self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        SeModel::into_scene(self, options, report)
    }

    /// [`SeModel::from_scene_in`] the layout `form`; an SEModel names its textures and embeds
    /// none, so `images` are not used.
    fn from_scene(
        scene: &Scene,
        form: Layout,
        options: &SceneOptions,
        _images: &ImageFiles,
        report: &mut ConversionReport,
    ) -> Result<Self, Error> {
        SeModel::from_scene_in(scene, form, options, report)
    }
}
