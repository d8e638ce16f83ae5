//! Images and materials: embedded PNG images become scene textures, and each glTF
//! material a scene material, its texture file names taken from animbin's extras or decoded
//! from the images' relative URIs ([`percent_decode`]).

use std::collections::HashMap;

use animbin_core::images::image_mime_type;
use animbin_core::math::Rgba;
use animbin_core::scene::{ConversionReport, Material, Scene, Surface, Texture, TextureLink, TextureSlot, UvTransform};
use serde_json::Value;

use super::decode_data_uri;
use crate::accessor::Buffers;
use crate::error::{Error, Path, Result};
use crate::extras::{self, ImageExtras, MaterialExtras};

/// Reads the embedded images of `document` into the textures of `scene`, whatever their
/// type, and its materials into the scene's materials, with every texture slot.
pub(super) fn images_and_materials(
    document: &gltf::Document,
    buffers: &Buffers,
    scene: &mut Scene,
    report: &mut ConversionReport,
) -> Result<()> {
    let mut texture_of_image: HashMap<usize, usize> = HashMap::new();
    // Images with the same bytes behind them (one buffer view, or the same data: URI) are
    // one texture: a file whose 150 images shared one 1 MiB view held it 150 times.
    let mut texture_of_source: HashMap<Source, usize> = HashMap::new();
    let mut merged: Vec<String> = Vec::new();
    for image in document.images() {
        let source = match image.source() {
            gltf::image::Source::View { view, .. } => Some(Source::View(view.index())),
            gltf::image::Source::Uri { uri, .. } if uri.starts_with("data:") => Some(Source::Uri(uri)),
            gltf::image::Source::Uri { .. } => None,
        };
        // An image animbin embedded from a texture file stands for the material's map name.
        let from_file = extras::unwrap::<ImageExtras>(image.extras()).is_some();
        let (Some(source), false) = (source, from_file) else {
            continue;
        };
        if let Some(&texture) = texture_of_source.get(&source) {
            texture_of_image.insert(image.index(), texture);
            merged.push(
                image
                    .name()
                    .map_or_else(|| format!("image{}", image.index()), str::to_string),
            );
            continue;
        }
        let bytes: Vec<u8> = match image.source() {
            gltf::image::Source::View { view, .. } => {
                let buffer = buffers.buffer(view.buffer().index());
                let end = view.offset().checked_add(view.length());
                let bytes = end.and_then(|end| buffer.and_then(|b| b.get(view.offset()..end)));
                bytes
                    .ok_or_else(|| {
                        Error::invalid(
                            Path::item("bufferViews", view.index()),
                            "a range inside its buffer",
                            format!(
                                "bytes {}..{}",
                                view.offset(),
                                view.offset() as u128 + view.length() as u128
                            ),
                        )
                    })?
                    .to_vec()
            }
            gltf::image::Source::Uri { uri, .. } => decode_data_uri(uri).ok_or_else(|| {
                Error::invalid(
                    Path::item("images", image.index()).field("uri"),
                    "a base64 data URI",
                    "a malformed one",
                )
            })?,
        };
        let mime_type = match image.source() {
            gltf::image::Source::View { mime_type, .. } => Some(mime_type.to_string()),
            gltf::image::Source::Uri { mime_type, .. } => mime_type.map(str::to_string),
        };
        // Left empty where the bytes say it (as every format but glTF leaves it).
        let mime_type = mime_type
            .filter(|m| image_mime_type(&bytes) != Some(m.as_str()))
            .unwrap_or_default();
        texture_of_image.insert(image.index(), scene.textures.len());
        texture_of_source.insert(source, scene.textures.len());
        scene.textures.push(Texture {
            name: image
                .name()
                .map_or_else(|| format!("image{}", image.index()), str::to_string),
            data: bytes,
            mime_type,
        });
    }
    if !merged.is_empty() {
        report.lose(format!(
            "the names of {} image(s) that share the bytes of an earlier image, which they are read as ({})",
            merged.len(),
            merged.join(", ")
        ));
    }
    let uri_name = |image: gltf::Image| match image.source() {
        gltf::image::Source::Uri { uri, .. } if !uri.starts_with("data:") => Some(percent_decode(uri)),
        _ => None,
    };
    let mut blended: Vec<String> = Vec::new();
    for material in document.materials() {
        let extras: Option<MaterialExtras> = extras::unwrap(material.extras());
        let extras_given = extras.clone();
        let pbr = material.pbr_metallic_roughness();
        let base_image = pbr.base_color_texture().map(|info| info.texture().source());
        let texture = base_image
            .as_ref()
            .and_then(|i| texture_of_image.get(&i.index()).copied());
        let factor = pbr.base_color_factor();
        let base_color = match &extras {
            Some(e) => e.has_base_color,
            None => factor != [1.0; 4],
        }
        .then(|| Rgba::new(factor[0], factor[1], factor[2], factor[3]));
        let (diffuse_map, normal_map, specular_map) = match extras {
            Some(e) => (e.diffuse_map, e.normal_map, e.specular_map),
            None => (
                base_image.and_then(uri_name),
                material.normal_texture().and_then(|n| uri_name(n.texture().source())),
                None,
            ),
        };
        let links = texture_links(&material, &texture_of_image);
        let surface = Surface {
            metallic: pbr.metallic_factor(),
            roughness: pbr.roughness_factor(),
            emissive: material.emissive_factor(),
            double_sided: material.double_sided(),
        };
        // A material animbin wrote says whether the factors are the scene's or the writer's.
        let surface = extras_given.is_none_or(|e| e.has_surface).then_some(surface);
        if material.alpha_mode() != gltf::material::AlphaMode::Opaque {
            blended.push(material.name().unwrap_or("").to_string());
        }
        scene.materials.push(Material {
            links,
            surface,
            name: material.name().unwrap_or("").to_string(),
            diffuse_map,
            normal_map,
            specular_map,
            texture,
            base_color,
        });
    }
    if !blended.is_empty() {
        report.lose(format!(
            "the alpha mode (blend or mask) of {} material(s) ({}): drawn opaque",
            blended.len(),
            blended.join(", ")
        ));
    }
    Ok(())
}

/// Where an embedded image's bytes are: a buffer view (by index) or a `data:` URI.
#[derive(PartialEq, Eq, Hash)]
enum Source<'d> {
    View(usize),
    Uri(&'d str),
}

/// The embedded images `material` uses, slot by slot, with their UV layer, strength and
/// `KHR_texture_transform`.
fn texture_links(material: &gltf::Material, texture_of_image: &HashMap<usize, usize>) -> Vec<TextureLink> {
    let pbr = material.pbr_metallic_roughness();
    let mut links = Vec::new();
    let mut link =
        |slot, texture: gltf::Texture, uv_layer: u32, strength: Option<f32>, transform: Option<UvTransform>| {
            if let Some(&texture) = texture_of_image.get(&texture.source().index()) {
                links.push(TextureLink {
                    slot,
                    texture,
                    uv_layer,
                    strength: strength.map(f64::from),
                    transform,
                });
            }
        };
    // A base colour on the first UV layer as it is is the material's `texture` alone.
    if let Some(info) = pbr.base_color_texture() {
        let transform = info.texture_transform().map(|t| typed_uv_transform(&t));
        if info.tex_coord() != 0 || transform.is_some() {
            link(
                TextureSlot::BaseColor,
                info.texture(),
                info.tex_coord(),
                None,
                transform,
            );
        }
    }
    // The normal and occlusion infos keep the extension as JSON (gltf types it on the others).
    if let Some(info) = material.normal_texture() {
        let transform = info.extension_value(TEXTURE_TRANSFORM).map(uv_transform);
        let scale = Some(info.scale()).filter(|&s| s != 1.0);
        link(TextureSlot::Normal, info.texture(), info.tex_coord(), scale, transform);
    }
    if let Some(info) = pbr.metallic_roughness_texture() {
        let transform = info.texture_transform().map(|t| typed_uv_transform(&t));
        link(
            TextureSlot::MetallicRoughness,
            info.texture(),
            info.tex_coord(),
            None,
            transform,
        );
    }
    if let Some(info) = material.occlusion_texture() {
        let transform = info.extension_value(TEXTURE_TRANSFORM).map(uv_transform);
        let strength = Some(info.strength()).filter(|&s| s != 1.0);
        link(
            TextureSlot::Occlusion,
            info.texture(),
            info.tex_coord(),
            strength,
            transform,
        );
    }
    if let Some(info) = material.emissive_texture() {
        let transform = info.texture_transform().map(|t| typed_uv_transform(&t));
        link(TextureSlot::Emissive, info.texture(), info.tex_coord(), None, transform);
    }
    links
}

/// The extension that moves a texture's UVs.
const TEXTURE_TRANSFORM: &str = "KHR_texture_transform";

/// A `KHR_texture_transform` as the scene holds it, from gltf's typed reading.
fn typed_uv_transform(t: &gltf::texture::TextureTransform) -> UvTransform {
    UvTransform {
        offset: t.offset().map(f64::from),
        rotation: f64::from(t.rotation()),
        scale: t.scale().map(f64::from),
        uv_layer: t.tex_coord(),
    }
}

/// A `KHR_texture_transform` object as the scene holds it (glTF's defaults where a member is
/// missing).
fn uv_transform(value: &Value) -> UvTransform {
    let pair = |name: &str, default: f64| {
        value
            .get(name)
            .and_then(Value::as_array)
            .filter(|a| a.len() == 2)
            .map_or([default; 2], |a| [0, 1].map(|i| a[i].as_f64().unwrap_or(default)))
    };
    UvTransform {
        offset: pair("offset", 0.0),
        rotation: value.get("rotation").and_then(Value::as_f64).unwrap_or(0.0),
        scale: pair("scale", 1.0),
        uv_layer: value
            .get("texCoord")
            .and_then(Value::as_u64)
            .and_then(|t| u32::try_from(t).ok()),
    }
}

/// The file name a relative image URI stands for, the inverse of [`crate::uri_from_name`]:
/// `%XX` escapes are decoded (malformed ones are kept as they are) and bytes that are not
/// UTF-8 become U+FFFD. A caller that loads an image from beside a `.gltf` file joins this to
/// the file's folder.
pub fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if let Some(v) = uri.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
