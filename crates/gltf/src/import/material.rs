//! Images and materials: embedded PNG images become scene textures, and each glTF
//! material a scene material, its texture file names taken from animbin's extras or decoded
//! from the images' relative URIs ([`percent_decode`]).

use std::collections::HashMap;

use animbin_core::math::Rgba;
use animbin_core::scene::{ConversionReport, Material, Scene, Texture};

use super::decode_data_uri;
use crate::accessor::Buffers;
use crate::error::{Error, Path, Result};
use crate::extras::{self, ImageExtras, MaterialExtras};

/// Reads the images of `document` into the textures of `scene` (embedded PNGs; other
/// embedded images are reported and skipped) and its materials into the scene's materials.
pub(super) fn images_and_materials(
    document: &gltf::Document,
    buffers: &Buffers,
    scene: &mut Scene,
    report: &mut ConversionReport,
) -> Result<()> {
    let mut texture_of_image: HashMap<usize, usize> = HashMap::new();
    for image in document.images() {
        let bytes: Option<Vec<u8>> = match image.source() {
            gltf::image::Source::View { view, .. } => {
                let buffer = buffers.data.get(view.buffer().index());
                let end = view.offset().checked_add(view.length());
                let bytes = end.and_then(|end| buffer.and_then(|b| b.get(view.offset()..end)));
                Some(
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
                        .to_vec(),
                )
            }
            gltf::image::Source::Uri { uri, .. } if uri.starts_with("data:") => {
                Some(decode_data_uri(uri).ok_or_else(|| {
                    Error::invalid(
                        Path::item("images", image.index()).field("uri"),
                        "a base64 data URI",
                        "a malformed one",
                    )
                })?)
            }
            gltf::image::Source::Uri { .. } => None,
        };
        // An image animbin embedded from a texture file stands for the material's map name.
        let from_file = extras::unwrap::<ImageExtras>(image.extras()).is_some();
        if let (Some(bytes), false) = (bytes, from_file) {
            if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
                texture_of_image.insert(image.index(), scene.textures.len());
                scene.textures.push(Texture {
                    name: image
                        .name()
                        .map_or_else(|| format!("image{}", image.index()), str::to_string),
                    png: bytes,
                });
            } else {
                report.lose(format!(
                    "image {} ({:?}) is not a PNG (the scene holds PNG textures): skipped",
                    image.index(),
                    image.name().unwrap_or("")
                ));
            }
        }
    }
    let uri_name = |image: gltf::Image| match image.source() {
        gltf::image::Source::Uri { uri, .. } if !uri.starts_with("data:") => Some(percent_decode(uri)),
        _ => None,
    };
    for material in document.materials() {
        let extras: Option<MaterialExtras> = extras::unwrap(material.extras());
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
        scene.materials.push(Material {
            name: material.name().unwrap_or("").to_string(),
            diffuse_map,
            normal_map,
            specular_map,
            texture,
            base_color,
        });
    }
    Ok(())
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
