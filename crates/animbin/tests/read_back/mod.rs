//! What the conversion tests share: the scene a written file reads back as.

use animbin::Document;
use animbin::core::scene::{ConversionReport, Scene};

/// The scene of the file `bytes` (any format, detected), with the default options.
pub fn scene_of(bytes: &[u8]) -> Scene {
    Document::parse(bytes, None)
        .unwrap()
        .to_scene(&Default::default(), &mut ConversionReport::default())
        .unwrap()
}
