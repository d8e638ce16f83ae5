//! A file to a scene and back with the default options, each with the report's lines: what
//! the scene tests of several files go through.

use animbin_cast::{CastFile, ConversionReport, SceneOptions};
use animbin_core::scene::Scene;

/// `file` as a scene, and the lines of what the scene could not hold.
pub fn to_scene(file: &CastFile) -> (Scene, Vec<String>) {
    let mut report = ConversionReport::default();
    let scene = file.to_scene(&SceneOptions::default(), &mut report).unwrap();
    (scene, report.lost)
}

/// `scene` as a Cast file, and the lines of what Cast could not hold.
pub fn from_scene(scene: &Scene) -> (CastFile, Vec<String>) {
    let mut report = ConversionReport::default();
    let file = CastFile::from_scene(scene, &SceneOptions::default(), &mut report).unwrap();
    (file, report.lost)
}
