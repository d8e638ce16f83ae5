//! The container and the document: [`parse`] reads a `.glb` or `.gltf` into a validated
//! [`gltf::Document`], checking first what the `gltf` crate would otherwise unwrap, and
//! [`load_buffers`] resolves its buffers (the GLB BIN chunk or base64 `data:` URIs; external
//! files are embedded before, by [`crate::embed_external_files`]).

use std::borrow::Cow;

use base64::Engine;

use crate::accessor::Buffers;
use crate::error::{Error, Path, Result};
use crate::glb::Glb;

/// Parses the container and the JSON, and validates the document.
/// The glTF extensions whose data animbin reads (any other a file uses is left out, and one
/// it requires is refused by name).
pub const READ_EXTENSIONS: [&str; 2] = ["KHR_lights_punctual", "KHR_texture_transform"];

/// The deepest JSON nesting (arrays and objects in one another) a glTF may have: far past
/// any glTF's own (under 10) and anything a tool puts in `extras`, and below serde_json's
/// recursion limit of 128, which a copy between `.gltf` and `.glb` parses the JSON under.
pub(crate) const MAX_JSON_DEPTH: usize = 100;

/// Refuses JSON nested deeper than [`MAX_JSON_DEPTH`] at the byte that goes past it, before
/// anything parses it, so that every reading of the file (a conversion to either container,
/// `validate`, `info`) gives the same answer.
fn refuse_deep_nesting(json: &[u8], base: u64) -> Result<()> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let (mut line, mut line_start) = (1usize, 0usize);
    for (at, &byte) in json.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'\n' => (line, line_start) = (line + 1, at + 1),
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Err(Error::Json {
                        line,
                        column: at - line_start + 1,
                        offset: base + at as u64,
                        message: format!("arrays and objects nested deeper than {MAX_JSON_DEPTH} levels"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

pub(crate) fn parse(bytes: &[u8]) -> Result<(gltf::Document, Option<&[u8]>)> {
    let (json, bin, base) = if bytes.starts_with(crate::MAGIC) {
        let glb = Glb::parse(bytes)?;
        (glb.json, glb.bin, Glb::JSON_START)
    } else {
        (bytes, None, 0)
    };
    refuse_deep_nesting(json, base)?;
    let root = gltf::json::Root::from_slice(json).map_err(|e| Error::json(json, base, &e))?;
    if !root.asset.version.starts_with("2.") {
        return Err(Error::invalid(
            "/asset/version",
            "glTF 2.x",
            format!("{:?}", root.asset.version),
        ));
    }
    if let Some(min) = &root.asset.min_version {
        if min != "2.0" {
            return Err(Error::invalid("/asset/minVersion", "2.0", format!("{min:?}")));
        }
    }
    // An extension a reader must know and animbin does not read (mesh compression, say)
    // is named, rather than failing later on the data it changes.
    for (i, extension) in root.extensions_required.iter().enumerate() {
        if !READ_EXTENSIONS.contains(&extension.as_str()) {
            return Err(Error::invalid(
                Path::item("extensionsRequired", i),
                format!("only extensions animbin reads ({})", READ_EXTENSIONS.join(", ")),
                format!("{extension:?}, which it does not read"),
            ));
        }
    }
    // gltf-json's validation of an animation checks its samplers but not its channels'
    // targets (node and path), which `gltf` then unwraps: check them here.
    for (a, animation) in root.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            if channel.target.path == gltf::json::validation::Checked::Invalid {
                return Err(Error::invalid(
                    Path::item("animations", a)
                        .field("channels")
                        .index(c)
                        .field("target")
                        .field("path"),
                    "translation, rotation, scale or weights",
                    "another path",
                ));
            }
            if channel.target.node.value() >= root.nodes.len() {
                return Err(Error::invalid(
                    Path::item("animations", a)
                        .field("channels")
                        .index(c)
                        .field("target")
                        .field("node"),
                    format!("a node index below the node count {}", root.nodes.len()),
                    channel.target.node.value(),
                ));
            }
        }
    }
    // `gltf` unwraps an image's MIME type when it has a buffer view, and its URI otherwise.
    for (i, image) in root.images.iter().enumerate() {
        let missing = match (&image.buffer_view, &image.uri) {
            (Some(_), _) if image.mime_type.is_none() => Some(("mimeType", "a MIME type with a bufferView")),
            (None, None) => Some(("uri", "a uri or a bufferView")),
            _ => None,
        };
        if let Some((member, expected)) = missing {
            return Err(Error::invalid(Path::item("images", i).field(member), expected, "none"));
        }
    }
    // Its primitive hook indexes the POSITION accessor before the index is checked.
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            for (semantic, accessor) in &primitive.attributes {
                if accessor.value() >= root.accessors.len() {
                    let name = match semantic {
                        gltf::json::validation::Checked::Valid(s) => s.to_string(),
                        gltf::json::validation::Checked::Invalid => "?".into(),
                    };
                    return Err(Error::invalid(
                        Path::item("meshes", m)
                            .field("primitives")
                            .index(p)
                            .field("attributes")
                            .field(&name),
                        format!("an accessor index below the accessor count {}", root.accessors.len()),
                        accessor.value(),
                    ));
                }
            }
        }
    }
    let document = gltf::Document::from_json(root).map_err(|e| match e {
        gltf::Error::Validation(list) => {
            let (path, first) = list
                .first()
                .map(|(p, e)| (p.to_string(), e.to_string()))
                .unwrap_or_default();
            let more = if list.len() > 1 {
                format!(" (and {} more problems)", list.len() - 1)
            } else {
                String::new()
            };
            let path = if path.starts_with('/') {
                path
            } else {
                format!("/{}", path.replace('.', "/"))
            };
            Error::invalid(path, "a valid glTF 2.0 value", format!("{first}{more}"))
        }
        other => Error::invalid("/", "a valid glTF 2.0 document", other),
    })?;
    Ok((document, bin))
}

/// Decodes a `data:` URI's base64 payload.
pub(crate) fn decode_data_uri(uri: &str) -> Option<Vec<u8>> {
    let rest = uri.strip_prefix("data:")?;
    let (meta, payload) = rest.split_once(',')?;
    if !meta.ends_with(";base64") {
        return None;
    }
    base64::engine::general_purpose::STANDARD.decode(payload.trim()).ok()
}

/// The document's buffers: the GLB BIN chunk, borrowed, or each `data:` URI decoded. Buffers
/// whose URIs are the same text are decoded once and share their bytes (a file whose 41
/// buffers named one 4 MiB file held it 41 times), so they also count once toward the
/// accessors' budget ([`Buffers::new`]).
pub(crate) fn load_buffers<'a>(document: &gltf::Document, bin: Option<&'a [u8]>) -> Result<Buffers<'a>> {
    let mut data: Vec<Cow<'a, [u8]>> = Vec::new();
    let mut of_buffer = Vec::new();
    let mut by_uri: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut bin_at = None;
    for buffer in document.buffers() {
        let path = Path::item("buffers", buffer.index());
        let (at, fresh) = match buffer.source() {
            gltf::buffer::Source::Bin => match bin_at {
                Some(at) => (at, None),
                None => {
                    let bytes = bin.ok_or_else(|| {
                        Error::invalid(path.clone(), "a GLB BIN chunk for a buffer without a uri", "none")
                    })?;
                    bin_at = Some(data.len());
                    (data.len(), Some(Cow::Borrowed(bytes)))
                }
            },
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => match by_uri.get(uri) {
                Some(&at) => (at, None),
                None => {
                    let bytes = decode_data_uri(uri)
                        .ok_or_else(|| Error::invalid(path.field("uri"), "a base64 data URI", "a malformed one"))?;
                    by_uri.insert(uri, data.len());
                    (data.len(), Some(Cow::Owned(bytes)))
                }
            },
            gltf::buffer::Source::Uri(uri) => {
                // Files beside a .gltf are embedded before (embed_external_files): these
                // bytes came without them.
                return Err(Error::invalid(
                    path.field("uri"),
                    "an embedded buffer (a .glb, a .gltf with data: URIs, or a .gltf opened from its \
                     path, whose files beside it are read)",
                    format!("the external file {uri:?}"),
                ));
            }
        };
        if let Some(bytes) = fresh {
            data.push(bytes);
        }
        let held = data[at].len();
        if held < buffer.length() {
            return Err(Error::invalid(
                path.field("byteLength"),
                format!("at most the {held} bytes the buffer holds"),
                buffer.length(),
            ));
        }
        of_buffer.push(at);
    }
    Ok(Buffers::new(document, data, of_buffer))
}
