//! Texture files that a caller found for the map names a scene's materials give: a writer
//! that can embed them (glTF) does, so the file shows its textures wherever it is opened.
//! Finding the files is the caller's part (format crates read no files).

use std::collections::{BTreeSet, HashMap};

use crate::scene::Scene;

/// The texture files found for the map names of a scene's materials (see
/// [`texture_names`]), given to a writer that embeds them (glTF's `to_bytes_with_images`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageFiles {
    /// Whether the names were looked for. When they were, a name missing from
    /// [`ImageFiles::found`] is reported as not found (and keeps its URI); when they were
    /// not (the caller knows no folder to look in), names keep their URIs silently.
    pub searched: bool,
    /// The file found for a map name, keyed by the name exactly as the material gives it.
    pub found: HashMap<String, ImageFile>,
}

/// One texture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageFile {
    /// The file's bytes when it is an image glTF 2.0 holds (PNG or JPEG, see
    /// [`image_mime_type`]), which the writer embeds; `None` for anything else (DDS, TGA),
    /// which is referred to by [`ImageFile::uri`] (bytes of another format are treated the
    /// same way).
    pub bytes: Option<Vec<u8>>,
    /// A URI for the file relative to where the glTF will be written, used when the bytes
    /// cannot be embedded.
    pub uri: String,
}

/// The map names the writer refers to: each material's diffuse map (unless an embedded
/// texture takes its place) and normal map, once each, in name order. The specular map is
/// not among them (glTF 2.0 has no slot for it).
pub fn texture_names(scene: &Scene) -> Vec<String> {
    let mut names = BTreeSet::new();
    for material in &scene.materials {
        let embedded = material
            .texture
            .and_then(|t| scene.textures.get(t))
            .is_some_and(|t| image_mime_type(&t.data) == Some("image/png"));
        if !embedded {
            names.extend(material.diffuse_map.iter().filter(|n| !n.is_empty()).cloned());
        }
        names.extend(material.normal_map.iter().filter(|n| !n.is_empty()).cloned());
    }
    names.into_iter().collect()
}

/// The MIME type of an image glTF 2.0 can embed, judged by its first bytes (8 are enough):
/// `image/png` or `image/jpeg`.
pub fn image_mime_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}
