//! `.gltf` <-> `.glb` without going through the scene: the JSON is kept as it is, only the
//! first buffer moves between a `data:` URI and the GLB BIN chunk.

use base64::Engine;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::glb::Glb;
use crate::import::decode_data_uri;

/// The two ways to store glTF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// JSON text (`.gltf`), buffers as `data:` URIs.
    Gltf,
    /// The binary container (`.glb`).
    Glb,
}

impl Container {
    /// `"gltf"` or `"glb"`: the file extension, and the name summaries and dumps use.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Gltf => "gltf",
            Self::Glb => "glb",
        }
    }

    /// The container called `name` ([`Container::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "gltf" => Some(Self::Gltf),
            "glb" => Some(Self::Glb),
            _ => None,
        }
    }
}

/// A base64 `data:` URI of `bytes`.
pub(crate) fn data_uri(bytes: &[u8]) -> String {
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Splits a `.gltf` or `.glb` file into its JSON value and its BIN chunk (padding included),
/// for a caller that reads or edits the JSON itself; [`join`] puts them back together.
pub fn split(bytes: &[u8]) -> Result<(Value, Option<Vec<u8>>)> {
    let (json, bin, base) = if crate::is_glb(bytes) {
        let glb = Glb::parse(bytes)?;
        (glb.json, glb.bin, Glb::JSON_START)
    } else {
        (bytes, None, 0)
    };
    let value: Value = serde_json::from_slice(json).map_err(|e| Error::json(json, base, &e))?;
    if !value.is_object() {
        return Err(Error::invalid("/", "a JSON object", "another JSON value"));
    }
    Ok((value, bin.map(<[u8]>::to_vec)))
}

/// Joins a JSON value and a BIN chunk into a file of `container`: for `.gltf` a BIN chunk
/// becomes the first buffer's `data:` URI; for `.glb` a first buffer held in a `data:` URI
/// becomes the BIN chunk. Other buffers and images stay where they are.
pub fn join(mut value: Value, bin: Option<Vec<u8>>, container: Container) -> Result<Vec<u8>> {
    let first = value.pointer_mut("/buffers/0").and_then(Value::as_object_mut);
    match container {
        Container::Gltf => {
            if let Some(bin) = &bin {
                let buffer = first.ok_or_else(|| Error::invalid("/buffers", "a buffer for the BIN chunk", "none"))?;
                if buffer.contains_key("uri") {
                    return Err(Error::invalid(
                        "/buffers/0/uri",
                        "no uri for the BIN chunk's buffer",
                        "a uri",
                    ));
                }
                let length = buffer
                    .get("byteLength")
                    .and_then(Value::as_u64)
                    .unwrap_or(bin.len() as u64);
                let length = usize::try_from(length).unwrap_or(usize::MAX).min(bin.len());
                buffer.insert("uri".into(), Value::String(data_uri(&bin[..length])));
            }
            serde_json::to_vec(&value).map_err(|e| Error::Unencodable(e.to_string()))
        }
        Container::Glb => {
            let mut bin = bin;
            if bin.is_none() {
                if let Some(buffer) = first {
                    let decoded = buffer
                        .get("uri")
                        .and_then(Value::as_str)
                        .filter(|u| u.starts_with("data:"))
                        .map(|u| {
                            decode_data_uri(u)
                                .ok_or_else(|| Error::invalid("/buffers/0/uri", "a base64 data URI", "a malformed one"))
                        })
                        .transpose()?;
                    if let Some(bytes) = decoded {
                        buffer.remove("uri");
                        bin = Some(bytes);
                    }
                }
            }
            let json = serde_json::to_vec(&value).map_err(|e| Error::Unencodable(e.to_string()))?;
            Glb::to_vec(&json, bin.as_deref())
        }
    }
}

/// Rewrites a glTF file in the other container, keeping its JSON as it is.
pub fn repack(bytes: &[u8], container: Container) -> Result<Vec<u8>> {
    let (value, bin) = split(bytes)?;
    join(value, bin, container)
}
