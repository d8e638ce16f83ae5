//! Images, textures and materials: a scene's embedded PNGs and the texture files its
//! materials name (embedded when the caller found them and glTF holds their format, else
//! referred to by URI), and one glTF material per scene material.

use std::collections::HashMap;

use animbin_core::images::{self, ImageFile, ImageFiles};
use animbin_core::scene::{ConversionReport, Scene};

use super::builder::Builder;
use super::{name_list, uri_from_name};
use crate::extras::{self, ImageExtras, MaterialExtras};
use crate::glb::SceneArray;
use crate::json::{self, short};

/// A found texture file's bytes and MIME type, when glTF can embed it.
fn embeddable(file: &ImageFile) -> Option<(&[u8], &'static str)> {
    let bytes = file.bytes.as_deref()?;
    Some((bytes, images::image_mime_type(bytes)?))
}

/// The images, textures and materials of `scene`: its embedded PNGs first, in texture order,
/// then the texture files its materials name, as found in `images`, and one material per
/// scene material; what glTF cannot hold is reported.
pub(super) fn materials(b: &mut Builder, scene: &Scene, images: &ImageFiles, report: &mut ConversionReport) {
    // Images: embedded PNGs first, in texture order.
    let mut embedded = Vec::with_capacity(scene.textures.len());
    for (i, texture) in scene.textures.iter().enumerate() {
        if texture.png.starts_with(b"\x89PNG\r\n\x1a\n") {
            let buffer_view = match b.kept_bytes(scene, SceneArray::Texture { index: i }) {
                Some(png) => b.kept_view(png, SceneArray::Texture { index: i }, None),
                None => b.view(&texture.png, None),
            };
            b.root.images.push(json::Image {
                name: Some(texture.name.clone()),
                uri: None,
                buffer_view: Some(buffer_view),
                mime_type: Some("image/png".into()),
                extras: None,
            });
            embedded.push(Some(b.root.images.len() - 1));
        } else {
            report.lose(format!(
                "texture {i} ({:?}) is not a PNG (no PNG signature): not embedded",
                texture.name
            ));
            embedded.push(None);
        }
    }
    let mut textures_by_image: HashMap<usize, usize> = HashMap::new();
    let mut images_by_name: HashMap<String, usize> = HashMap::new();
    let mut texture_for_image = |b: &mut Builder, image: usize| {
        *textures_by_image.entry(image).or_insert_with(|| {
            b.root.textures.push(json::Texture { source: image });
            b.root.textures.len() - 1
        })
    };
    let mut not_found: Vec<String> = Vec::new();
    let mut by_uri: Vec<String> = Vec::new();
    let mut image_for_name = |b: &mut Builder, name: &str| -> Option<usize> {
        if let Some(&image) = images_by_name.get(name) {
            return Some(image);
        }
        let found = images.found.get(name);
        let image = match found.map(|f| (f, embeddable(f))) {
            Some((_, Some((bytes, mime)))) => {
                let buffer_view = b.view(bytes, None);
                json::Image {
                    name: Some(name.to_string()),
                    uri: None,
                    buffer_view: Some(buffer_view),
                    mime_type: Some(mime.into()),
                    extras: extras::wrap(&ImageExtras { file: name.to_string() }),
                }
            }
            Some((file, None)) => {
                by_uri.push(name.to_string());
                json::Image {
                    name: Some(name.to_string()),
                    uri: Some(file.uri.clone()),
                    buffer_view: None,
                    mime_type: None,
                    extras: None,
                }
            }
            None => {
                let uri = uri_from_name(name)?;
                if images.searched {
                    not_found.push(name.to_string());
                }
                json::Image {
                    name: Some(name.to_string()),
                    uri: Some(uri),
                    buffer_view: None,
                    mime_type: None,
                    extras: None,
                }
            }
        };
        b.root.images.push(image);
        let index = b.root.images.len() - 1;
        images_by_name.insert(name.to_string(), index);
        Some(index)
    };

    // Materials.
    let mut clamped = Vec::new();
    for material in &scene.materials {
        let embedded_image = material.texture.and_then(|t| embedded.get(t).copied().flatten());
        let base_image = match embedded_image {
            Some(image) => Some(image),
            None => material.diffuse_map.as_deref().and_then(|n| image_for_name(b, n)),
        };
        let base_color_texture = base_image.map(|image| json::TextureInfo {
            index: texture_for_image(b, image),
        });
        let normal_texture = material
            .normal_map
            .as_deref()
            .and_then(|n| image_for_name(b, n))
            .map(|image| json::TextureInfo {
                index: texture_for_image(b, image),
            });
        let base_color_factor = match material.base_color {
            Some(c) => {
                let raw = [c.r, c.g, c.b, c.a];
                let fixed = raw.map(|v| if v.is_finite() { v.clamp(0.0, 1.0) } else { 1.0 });
                if fixed != raw {
                    clamped.push(material.name.clone());
                }
                Some(fixed.map(short))
            }
            None => None,
        };
        b.root.materials.push(json::Material {
            name: Some(material.name.clone()),
            pbr_metallic_roughness: json::PbrMetallicRoughness {
                base_color_factor,
                base_color_texture,
                // Game textures here are diffuse albedo: glTF's default metalness of 1 would
                // render them dark.
                metallic_factor: 0.0,
            },
            normal_texture,
            double_sided: false,
            extras: extras::wrap(&MaterialExtras {
                diffuse_map: material.diffuse_map.clone(),
                normal_map: material.normal_map.clone(),
                specular_map: material.specular_map.clone(),
                has_base_color: material.base_color.is_some(),
            }),
        });
    }
    if !not_found.is_empty() {
        report.lose(format!(
            "{} texture file(s) not found beside the input ({}): kept as URIs relative to the glTF file",
            not_found.len(),
            name_list(&not_found)
        ));
    }
    if !by_uri.is_empty() {
        report.lose(format!(
            "{} texture file(s) that are neither PNG nor JPEG ({}), the image formats glTF holds: referred to by URI, not embedded",
            by_uri.len(),
            name_list(&by_uri)
        ));
    }
    if !clamped.is_empty() {
        report.lose(format!(
            "base colours outside 0..1 clamped (glTF's range) in {} material(s) ({})",
            clamped.len(),
            name_list(&clamped)
        ));
    }
}
