//! A glTF file's dump: the `data` member of `{"format": "gltf", "data": ...}`, which gives
//! back the same bytes.
//!
//! The JSON as a value, which reads best, when writing that value back compact gives the
//! file; else the JSON text as another tool laid it out (pretty-printed, members in another
//! order); else, for a GLB whose container holds what the two chunks cannot say, the whole
//! file in base64. The BIN chunk, when there is one, is in base64 beside the JSON.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::file::GltfFile;
use crate::glb::Glb;
use crate::repack::{Container, join, split};

/// The `data` of a glTF dump as read back: one of `json`, `json_text` or `base64` gives
/// the file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GltfDump {
    /// `"gltf"` or `"glb"`.
    pub container: String,
    /// The JSON as a value, written back compact.
    pub json: Option<Value>,
    /// The JSON exactly as another tool laid it out.
    pub json_text: Option<String>,
    /// The BIN chunk in base64.
    pub bin: Option<String>,
    /// The whole file in base64, for a GLB whose container holds what the two chunks cannot
    /// (bytes past its declared length, chunks of unknown types, padding that is not spaces).
    pub base64: Option<String>,
}

fn bad_member(member: &'static str, expected: &'static str) -> Error {
    Error::DumpMember { member, expected }
}

/// The dump's `data` of `file`.
pub(crate) fn dump(file: &GltfFile) -> Result<Value> {
    let container = file.container.name();
    // The JSON as a value reads best; files whose JSON text another tool laid out
    // (pretty-printed, members in another order) keep that text instead. JSON that serde
    // cannot hold as a value (a string of bytes that are not UTF-8 in a member the reader
    // skips) falls through to the forms below.
    if let Ok((json, bin)) = split(&file.bytes) {
        if join(json.clone(), bin.clone(), file.container)? == file.bytes {
            return Ok(json!({ "container": container, "json": json, "bin": bin.map(|b| BASE64.encode(b)) }));
        }
    }
    let (text, bin) = match file.container {
        Container::Gltf => (&file.bytes[..], None),
        Container::Glb => {
            let glb = Glb::parse(&file.bytes)?;
            (glb.json, glb.bin)
        }
    };
    if let Ok(text) = std::str::from_utf8(text) {
        let rebuilt = match file.container {
            Container::Gltf => None,
            Container::Glb => Some(Glb::to_vec(text.as_bytes(), bin)?),
        };
        if rebuilt.is_none_or(|bytes| bytes == file.bytes) {
            return Ok(json!({ "container": container, "json_text": text, "bin": bin.map(|b| BASE64.encode(b)) }));
        }
    }
    // What neither JSON form can say still dumps: the file as it is.
    Ok(json!({ "container": container, "base64": BASE64.encode(&file.bytes) }))
}

/// The file a dump's `data` describes, read as [`FileFormat::read`](animbin_core::FileFormat::read)
/// reads a file.
pub(crate) fn undump(data: GltfDump) -> Result<GltfFile> {
    let container = Container::from_name(&data.container).ok_or(bad_member("container", "\"gltf\" or \"glb\""))?;
    let bin = match data.bin {
        None => None,
        Some(text) => Some(BASE64.decode(text).map_err(|_| bad_member("bin", "a base64 string"))?),
    };
    let bytes = match (data.base64, data.json_text, data.json) {
        (Some(whole), _, _) => BASE64
            .decode(whole)
            .map_err(|_| bad_member("base64", "the whole file in base64"))?,
        (None, Some(text), _) => match container {
            Container::Gltf if bin.is_none() => text.into_bytes(),
            Container::Gltf => return Err(bad_member("bin", "null beside `json_text` in a .gltf dump")),
            Container::Glb => Glb::to_vec(text.as_bytes(), bin.as_deref())?,
        },
        (None, None, Some(json)) => join(json, bin, container)?,
        (None, None, None) => return Err(bad_member("json", "the glTF JSON (`json` or `json_text`)")),
    };
    crate::format::read(&bytes)
}
