//! External files: a `.gltf` exported "separate" (Blender's *glTF Separate*, the usual way
//! out of most tools) keeps its buffers in files beside it (`name.bin`) and its images as
//! image files (`tex.png`), named by relative URIs. [`embed_external_files`] reads them
//! through a function the caller gives (this crate reads no files) and puts them into the
//! JSON as `data:` URIs, so that the file reads from then on as the self-contained glTF it
//! stands for.

use std::borrow::Cow;
use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Path, Result};
use crate::glb::Glb;
use crate::import::percent_decode;
use crate::repack::data_uri;

/// The PNG signature: an image file that is a PNG is embedded (the scene holds PNG
/// textures); any other stays a reference by its name.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The members that say whether a file names external files, read without copying the
/// `data:` URIs (which are long and have no escapes, so they borrow).
#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(default, borrow)]
    buffers: Vec<Resource<'a>>,
    #[serde(default, borrow)]
    images: Vec<Resource<'a>>,
}

#[derive(Deserialize)]
struct Resource<'a> {
    #[serde(default, borrow)]
    uri: Option<Cow<'a, str>>,
    #[serde(default, rename = "byteLength")]
    byte_length: Option<u64>,
}

/// A URI that names an external file (not a `data:` URI).
fn is_external(resource: &Resource) -> bool {
    resource.uri.as_deref().is_some_and(|uri| !uri.starts_with("data:"))
}

/// The file a relative URI names, as `/`-separated parts after percent-decoding
/// (`textures/a%20b.png` is `textures/a b.png`), or why it is not read: a URI with a scheme
/// other than `data:` (`http:`, `file:`), an absolute path, or one that climbs out of the
/// glTF file's folder (a `..` part). Backslashes count as separators too (some Windows
/// tools write them), and `.` parts and empty parts are dropped.
///
/// ```
/// use animbin_gltf::external_file_name;
///
/// assert_eq!(external_file_name("textures/a%20b.png").as_deref(), Ok("textures/a b.png"));
/// assert!(external_file_name("../x.bin").unwrap_err().contains("leaves"));
/// assert!(external_file_name("/etc/passwd").unwrap_err().contains("absolute"));
/// assert!(external_file_name("http://example.com/x.bin").unwrap_err().contains("http:"));
/// ```
pub fn external_file_name(uri: &str) -> std::result::Result<String, String> {
    // RFC 3986: a scheme is a letter, then letters, digits, `+`, `-` or `.`, before the first
    // `:` of the first segment. One letter is a Windows drive (`C:/models/x.bin`).
    let head = uri.split(['/', '\\', '?', '#']).next().unwrap_or_default();
    if let Some((scheme, _)) = head.split_once(':') {
        let mut chars = scheme.chars();
        let is_scheme = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if is_scheme && scheme.len() == 1 {
            return Err("an absolute path (a drive letter); only files in the glTF file's folder are read".into());
        }
        if is_scheme {
            return Err(format!(
                "the scheme {scheme}: is not read; only data: URIs and files in the glTF file's folder are"
            ));
        }
    }
    let name = percent_decode(uri);
    if name.starts_with(['/', '\\']) {
        return Err("an absolute path; only files in the glTF file's folder are read".into());
    }
    if name.contains('\0') {
        return Err("a NUL byte in the file name".into());
    }
    let parts: Vec<&str> = name.split(['/', '\\']).filter(|p| !p.is_empty() && *p != ".").collect();
    if parts.contains(&"..") {
        return Err("it leaves the glTF file's folder (a .. part); only files in that folder are read".into());
    }
    if parts.is_empty() {
        return Err("it names no file".into());
    }
    Ok(parts.join("/"))
}

/// `bytes` (a `.gltf` or a `.glb`) with the external files its buffers and images name
/// embedded as `data:` URIs; the bytes themselves, borrowed, when it names none (or when they
/// are not glTF JSON at all: the reader then says what is wrong).
///
/// `read` is given each file's name relative to the glTF file's folder, as
/// [`external_file_name`] makes it (checked not to leave that folder, percent-decoded,
/// `/`-separated), and returns the file's bytes; the `animbin` library reads them from the
/// folder of the file it opened. It is called once per file, however many buffers and
/// images name it.
///
/// - A **buffer** must be read: a URI that is refused, a file that cannot be read or that
///   holds fewer bytes than the buffer's `byteLength` is an [`Error::External`] naming the
///   URI and its JSON pointer (`/buffers/0/uri`).
/// - An **image** is embedded when its file is read and is a PNG, as the same image embedded
///   by the exporter would be: the scene then holds it as a texture. Any other image
///   (another format, a file that is missing, a URI that is refused) stays as it is, a
///   reference by name, which is how a material names a texture file; so a file whose
///   images are missing or elsewhere still reads, as it did.
///
/// The JSON is written back compact with its members in sorted order (a GLB keeps its BIN
/// chunk); the rest of the document is unchanged, but that buffers naming the same file are
/// one buffer (their views point at the first, the buffers after it numbered down). The
/// embedded file holds each external buffer file's bytes once, as base64, a third more than
/// the file.
pub fn embed_external_files<'a>(
    bytes: &'a [u8],
    mut read: impl FnMut(&str) -> std::io::Result<Vec<u8>>,
) -> Result<Cow<'a, [u8]>> {
    let glb = if crate::is_glb(bytes) {
        Some(Glb::parse(bytes)?)
    } else {
        None
    };
    let json = glb.map_or(bytes, |glb| glb.json);
    // Most files name no URI at all (a GLB keeps its buffer in its BIN chunk): a scan for the
    // member's name is cheaper than reading the JSON.
    if !json.windows(5).any(|w| w == b"\"uri\"") {
        return Ok(Cow::Borrowed(bytes));
    }
    let Ok(probe) = serde_json::from_slice::<Probe>(json) else {
        return Ok(Cow::Borrowed(bytes));
    };
    if !probe.buffers.iter().chain(&probe.images).any(is_external) {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut embedded = Vec::new();
    // Each file is read once, however many buffers or images name it: the bytes of one read
    // count once against the caller's limit, and buffers naming one file become one buffer.
    let mut files: HashMap<String, std::io::Result<std::rc::Rc<Vec<u8>>>> = HashMap::new();
    let mut read_once = |name: &str| {
        files
            .entry(name.to_string())
            .or_insert_with(|| read(name).map(std::rc::Rc::new))
            .as_ref()
            .map(std::rc::Rc::clone)
            .map_err(|e| std::io::Error::new(e.kind(), e.to_string()))
    };
    // For each buffer, the earlier buffer naming the same file, if one does.
    let mut same_file: Vec<Option<usize>> = vec![None; probe.buffers.len()];
    let mut buffer_of_name: HashMap<String, usize> = HashMap::new();
    for (index, buffer) in probe.buffers.iter().enumerate() {
        let Some(uri) = buffer.uri.as_deref().filter(|_| is_external(buffer)) else {
            continue;
        };
        let path = Path::item("buffers", index).field("uri");
        let external = |reason: String| Error::External {
            path: path.clone(),
            uri: uri.to_string(),
            reason,
        };
        let name = external_file_name(uri).map_err(external)?;
        let data = read_once(&name).map_err(|e| external(e.to_string()))?;
        let length = buffer.byte_length.unwrap_or(0);
        if (data.len() as u64) < length {
            return Err(external(format!(
                "the file holds {} bytes, fewer than the buffer's byteLength {length}",
                data.len()
            )));
        }
        match buffer_of_name.get(&name) {
            Some(&first) => same_file[index] = Some(first),
            None => {
                buffer_of_name.insert(name, index);
                embedded.push((path, data_uri(&data)));
            }
        }
    }
    for (index, image) in probe.images.iter().enumerate() {
        let Some(uri) = image.uri.as_deref().filter(|_| is_external(image)) else {
            continue;
        };
        let data = external_file_name(uri).ok().and_then(|name| read_once(&name).ok());
        if let Some(png) = data.filter(|d| d.starts_with(PNG)) {
            let uri = format!("data:image/png;base64,{}", BASE64.encode(&*png));
            embedded.push((Path::item("images", index).field("uri"), uri));
        }
    }
    if embedded.is_empty() {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut value: Value = serde_json::from_slice(json).map_err(|e| Error::json(json, 0, &e))?;
    for (path, uri) in embedded {
        if let Some(slot) = value.pointer_mut(&path.0) {
            *slot = Value::String(uri);
        }
    }
    merge_buffers(&mut value, &same_file);
    let json = serde_json::to_vec(&value).map_err(|e| Error::Unencodable(e.to_string()))?;
    Ok(Cow::Owned(match glb {
        Some(glb) => Glb::to_vec(&json, glb.bin)?,
        None => json,
    }))
}

/// Drops each buffer that names the same file as an earlier one (`same_file[i]`, by index)
/// and points its buffer views at the earlier one, numbering the buffers left in order: the
/// embedded file holds each file's bytes once.
fn merge_buffers(value: &mut Value, same_file: &[Option<usize>]) {
    if same_file.iter().all(Option::is_none) {
        return;
    }
    // The new index of each buffer kept, and for a dropped one, of the buffer it joins.
    let mut kept = Vec::with_capacity(same_file.len());
    let mut next = 0u64;
    for same in same_file {
        match same {
            Some(first) => kept.push(kept.get(*first).copied().unwrap_or(0)),
            None => {
                kept.push(next);
                next += 1;
            }
        }
    }
    if let Some(views) = value.get_mut("bufferViews").and_then(Value::as_array_mut) {
        for view in views {
            let new = view
                .get("buffer")
                .and_then(Value::as_u64)
                .and_then(|old| kept.get(usize::try_from(old).ok()?).copied());
            if let (Some(new), Some(slot)) = (new, view.get_mut("buffer")) {
                *slot = Value::from(new);
            }
        }
    }
    if let Some(buffers) = value.get_mut("buffers").and_then(Value::as_array_mut) {
        let mut index = 0;
        buffers.retain(|_| {
            let keep = same_file.get(index).is_none_or(Option::is_none);
            index += 1;
            keep
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 41 buffers naming one `.bin` (and two images naming one PNG): each file is read once,
    /// and the buffers become one, its views pointing at it; a buffer naming another file
    /// keeps its own, numbered down.
    #[test]
    fn a_file_named_many_times_is_read_once_and_embedded_once() {
        let mut buffers = vec![serde_json::json!({"uri": "a.bin", "byteLength": 8}); 41];
        buffers.insert(1, serde_json::json!({"uri": "b.bin", "byteLength": 4}));
        let views: Vec<Value> = (0..42)
            .map(|b| serde_json::json!({"buffer": b, "byteLength": 4}))
            .collect();
        let gltf = serde_json::to_vec(&serde_json::json!({
            "asset": {"version": "2.0"},
            "buffers": buffers,
            "bufferViews": views,
            "images": [{"uri": "t.png"}, {"uri": "t.png"}],
        }))
        .unwrap();
        let mut reads = Vec::new();
        let embedded = embed_external_files(&gltf, |name| {
            reads.push(name.to_string());
            Ok(match name {
                "t.png" => PNG.to_vec(),
                _ => vec![1; 8],
            })
        })
        .unwrap();
        reads.sort();
        assert_eq!(reads, ["a.bin", "b.bin", "t.png"]);
        let value: Value = serde_json::from_slice(&embedded).unwrap();
        let buffers = value["buffers"].as_array().unwrap();
        assert_eq!(buffers.len(), 2);
        assert!(buffers.iter().all(|b| b["uri"].as_str().unwrap().starts_with("data:")));
        let targets: Vec<u64> = value["bufferViews"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["buffer"].as_u64().unwrap())
            .collect();
        let mut expected = vec![0; 42];
        expected[1] = 1;
        assert_eq!(targets, expected);
    }

    #[test]
    fn relative_names_are_decoded_and_anything_that_leaves_the_folder_is_refused() {
        let name = |uri: &str| external_file_name(uri);
        assert_eq!(name("model.bin").as_deref(), Ok("model.bin"));
        assert_eq!(name("./tex/a%20b.png").as_deref(), Ok("tex/a b.png"));
        assert_eq!(name("tex\\skin.png").as_deref(), Ok("tex/skin.png"));
        for (uri, words) in [
            ("../x.bin", "leaves the glTF file's folder"),
            ("tex/../../x.bin", "leaves"),
            ("%2E%2E/x.bin", "leaves"),
            ("/etc/passwd", "an absolute path"),
            ("%2Fetc%2Fpasswd", "an absolute path"),
            ("\\\\server\\share\\x.bin", "an absolute path"),
            ("C:/models/x.bin", "a drive letter"),
            ("http://example.com/x.bin", "the scheme http: is not read"),
            ("file:///etc/passwd", "the scheme file:"),
            ("my:file.bin", "the scheme my:"),
            ("", "names no file"),
            ("a%00b", "NUL"),
        ] {
            let reason = name(uri).unwrap_err();
            assert!(reason.contains(words), "{uri}: {reason}");
        }
    }
}
