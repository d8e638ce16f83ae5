//! Images, textures and materials: a scene's embedded PNGs and the texture files its
//! materials name (embedded when the caller found them and glTF holds their format, else
//! referred to by URI), and one glTF material per scene material.

use std::collections::{HashMap, HashSet};

use animbin_core::images::{self, ImageFile, ImageFiles};
use animbin_core::scene::{ConversionReport, Scene, Surface, TextureLink, TextureSlot};

use super::builder::Builder;
use super::{name_list, uri_from_name};
use crate::extras::{self, ImageExtras, MaterialExtras};
use crate::glb::SceneArray;
use crate::json::{self, short};

/// The extension that makes a WebP image a texture's source.
const WEBP: &str = "EXT_texture_webp";

/// The extension that moves a texture's UVs.
const TEXTURE_TRANSFORM: &str = "KHR_texture_transform";

/// A found texture file's bytes and MIME type, when glTF can embed it.
fn embeddable(file: &ImageFile) -> Option<(&[u8], &'static str)> {
    let bytes = file.bytes.as_deref()?;
    Some((bytes, images::image_mime_type(bytes)?))
}

/// The images, textures and materials of `scene`: its embedded PNGs first, in texture order,
/// then the texture files its materials name, as found in `images`, and one material per
/// scene material; what glTF cannot hold is reported.
pub(super) fn materials(b: &mut Builder, scene: &Scene, images: &ImageFiles, report: &mut ConversionReport) {
    // Images: the scene's embedded ones first, in texture order, as they are encoded.
    let mut embedded = Vec::with_capacity(scene.textures.len());
    let mut webp = HashSet::new();
    let mut unknown = Vec::new();
    for (i, texture) in scene.textures.iter().enumerate() {
        let mime_type = match texture.mime_type.as_str() {
            "" => images::image_mime_type(&texture.data),
            known => Some(known),
        };
        let Some(mime_type @ ("image/png" | "image/jpeg" | "image/webp")) = mime_type else {
            unknown.push(texture.name.clone());
            embedded.push(None);
            continue;
        };
        let buffer_view = match b.kept_bytes(scene, SceneArray::Texture { index: i }) {
            Some(bytes) => b.kept_view(bytes, SceneArray::Texture { index: i }, None),
            None => b.view(&texture.data, None),
        };
        b.root.images.push(json::Image {
            name: Some(texture.name.clone()),
            uri: None,
            buffer_view: Some(buffer_view),
            mime_type: Some(mime_type.into()),
            extras: None,
        });
        let image = b.root.images.len() - 1;
        if mime_type == "image/webp" {
            webp.insert(image);
        }
        embedded.push(Some(image));
    }
    if !unknown.is_empty() {
        report.lose(format!(
            "{} texture(s) of an image type glTF does not hold (PNG, JPEG, WebP) ({}): not embedded",
            unknown.len(),
            name_list(&unknown)
        ));
    }
    let mut textures_by_image: HashMap<usize, usize> = HashMap::new();
    let mut images_by_name: HashMap<String, usize> = HashMap::new();
    // One texture per image. A WebP image is the source of EXT_texture_webp, which a reader
    // must then know.
    let texture_for_image = |b: &mut Builder, textures_by_image: &mut HashMap<usize, usize>, image: usize| {
        *textures_by_image.entry(image).or_insert_with(|| {
            let texture = if webp.contains(&image) {
                b.root.use_extension(WEBP, true);
                json::Texture {
                    source: None,
                    extensions: Some(serde_json::json!({ WEBP: { "source": image } })),
                }
            } else {
                json::Texture {
                    source: Some(image),
                    extensions: None,
                }
            };
            b.root.textures.push(texture);
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
    let info_of =
        |b: &mut Builder, textures: &mut HashMap<usize, usize>, link: &TextureLink| -> Option<json::TextureInfo> {
            let image = embedded.get(link.texture).copied().flatten()?;
            let mut info = json::TextureInfo::of(texture_for_image(b, textures, image));
            info.tex_coord = (link.uv_layer != 0).then_some(link.uv_layer);
            if let Some(t) = &link.transform {
                b.root.use_extension(TEXTURE_TRANSFORM, false);
                let mut value = serde_json::json!({
                    "offset": t.offset,
                    "rotation": t.rotation,
                    "scale": t.scale,
                });
                if let Some(layer) = t.uv_layer {
                    value["texCoord"] = layer.into();
                }
                info.extensions = Some(serde_json::json!({ TEXTURE_TRANSFORM: value }));
            }
            Some(info)
        };
    for material in &scene.materials {
        let link = |slot| material.links.iter().find(|l| l.slot == slot);
        let base_color_texture = match link(TextureSlot::BaseColor) {
            Some(l) => info_of(b, &mut textures_by_image, l),
            None => {
                let embedded_image = material.texture.and_then(|t| embedded.get(t).copied().flatten());
                let base_image = match embedded_image {
                    Some(image) => Some(image),
                    None => material.diffuse_map.as_deref().and_then(|n| image_for_name(b, n)),
                };
                base_image.map(|image| json::TextureInfo::of(texture_for_image(b, &mut textures_by_image, image)))
            }
        };
        let normal_texture = match link(TextureSlot::Normal) {
            Some(l) => info_of(b, &mut textures_by_image, l).map(|mut info| {
                info.scale = l.strength;
                info
            }),
            None => material
                .normal_map
                .as_deref()
                .and_then(|n| image_for_name(b, n))
                .map(|image| json::TextureInfo::of(texture_for_image(b, &mut textures_by_image, image))),
        };
        let metallic_roughness_texture =
            link(TextureSlot::MetallicRoughness).and_then(|l| info_of(b, &mut textures_by_image, l));
        let occlusion_texture = link(TextureSlot::Occlusion).and_then(|l| {
            info_of(b, &mut textures_by_image, l).map(|mut info| {
                info.strength = l.strength;
                info
            })
        });
        let emissive_texture = link(TextureSlot::Emissive).and_then(|l| info_of(b, &mut textures_by_image, l));
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
        // Game textures here are diffuse albedo: glTF's default metalness of 1 would render
        // them dark, so a material without a surface of its own is not metallic.
        let surface = material.surface.unwrap_or(Surface {
            metallic: 0.0,
            roughness: 1.0,
            emissive: [0.0; 3],
            double_sided: false,
        });
        b.root.materials.push(json::Material {
            name: Some(material.name.clone()),
            pbr_metallic_roughness: json::PbrMetallicRoughness {
                base_color_factor,
                base_color_texture,
                metallic_factor: short(surface.metallic),
                roughness_factor: (surface.roughness != 1.0).then(|| short(surface.roughness)),
                metallic_roughness_texture,
            },
            normal_texture,
            occlusion_texture,
            emissive_texture,
            emissive_factor: (surface.emissive != [0.0; 3]).then(|| surface.emissive.map(short)),
            double_sided: surface.double_sided,
            extras: extras::wrap(&MaterialExtras {
                diffuse_map: material.diffuse_map.clone(),
                normal_map: material.normal_map.clone(),
                specular_map: material.specular_map.clone(),
                has_base_color: material.base_color.is_some(),
                has_surface: material.surface.is_some(),
            }),
        });
    }
    if !not_found.is_empty() {
        // Not a loss of glTF's: the file is missing from the input's folder, and the output
        // names it just as the input does.
        report.note(format!(
            "{} texture file(s) not found beside the input ({}): named by URIs relative to the glTF file",
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
