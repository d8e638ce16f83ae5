//! Dumps: a whole document as JSON, `{"format": NAME, "data": ...}`, that converts back to
//! the same bytes.
//!
//! Each format's `data` is its owned model as serde writes it (SEAnim, SEModel, x8an, Cast), its
//! own JSON form (DMF JSON; AnimJ plus the version, the encoding and, for a compressed file,
//! the stored bytes in base64) or, for glTF, the JSON and the BIN chunk in base64 (or, for a
//! GLB whose container holds more than those two chunks, the whole file in base64). Floats
//! that JSON numbers cannot hold are strings in every one of them ([`animbin_core::float`]:
//! `"NaN"`, `"Infinity"`, `"-Infinity"`, `"nan:0x7fc00001"`), so every file dumps.

mod layout;

use std::io::{BufWriter, Write};

use animbin_animx::AnimXDocument;
use animbin_cast::CastFile;
use animbin_dmf::json as dmf_json;
use animbin_gltf::Container;
use animbin_seanim::SeAnim;
use animbin_semodel::SeModel;
use animbin_sf3::Sf3File;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::formats::Codec;
use crate::formats::gltf::GltfFile;
use crate::{Document, Error, Format, Result};

/// A dump as written: the format's tag, then its data.
#[derive(Serialize)]
#[serde(tag = "format", content = "data", rename_all = "lowercase")]
enum DumpRef<'a> {
    SeAnim(&'a SeAnim),
    SeModel(&'a SeModel),
    AnimX(&'a AnimXDocument),
    Sf3(&'a Sf3File),
    Dmf(dmf_json::Dumped<'a>),
    Gltf(Value),
    Cast(&'a CastFile),
}

/// A dump as read back.
#[derive(Deserialize)]
#[serde(tag = "format", content = "data", rename_all = "lowercase")]
enum DumpOwned {
    SeAnim(SeAnim),
    SeModel(SeModel),
    AnimX(AnimXDocument),
    Sf3(Sf3File),
    Dmf(dmf_json::Undumped),
    Gltf(GltfDump),
    Cast(CastFile),
}

/// The `data` of a glTF dump.
#[derive(Deserialize)]
struct GltfDump {
    /// `"gltf"` or `"glb"`.
    container: String,
    /// The JSON as a value, written back compact.
    json: Option<Value>,
    /// The JSON exactly as another tool laid it out.
    json_text: Option<String>,
    /// The BIN chunk in base64.
    bin: Option<String>,
    /// The whole file in base64, for a GLB whose container holds what the two chunks cannot
    /// (bytes past its declared length, chunks of unknown types, padding that is not spaces).
    base64: Option<String>,
}

/// Writes the dump of `doc` to `writer` as it is serialised, through a buffer: no copy of
/// the whole dump is held.
///
/// Lossless by construction: every model's serde form has every field, every float has a
/// JSON form ([`animbin_core::float`]) and every byte a member (DMF's dump-only members, a
/// GLB kept whole). The tests and the `parse_any` fuzz target check that each dump converts
/// back to the same bytes, rather than each dump being rebuilt here.
pub(crate) fn write(doc: &Document, writer: impl Write) -> Result<()> {
    let data = dump_ref(doc)?;
    let mut out = BufWriter::with_capacity(1 << 16, writer);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, layout::DumpFormatter::default());
    data.serialize(&mut serializer).map_err(|e| {
        if e.is_io() {
            Error::Write(e.into())
        } else {
            lossy(doc.format(), e)
        }
    })?;
    out.write_all(b"\n").map_err(Error::Write)?;
    out.flush().map_err(Error::Write)
}

/// Reads a dump, naming the JSON path and line of anything that does not parse.
pub(crate) fn read(bytes: &[u8]) -> Result<Document> {
    // Tracking the path costs a copy of every member name, a third of the time of a large
    // dump: a dump that parses is read without it, and one that does not is parsed again
    // with it, for the message.
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let dump = match DumpOwned::deserialize(&mut de).and_then(|dump| de.end().map(|()| dump)) {
        Ok(dump) => dump,
        Err(untracked) => {
            let mut de = serde_json::Deserializer::from_slice(bytes);
            serde_path_to_error::deserialize::<_, DumpOwned>(&mut de).map_err(|e| Error::json("the dump", e))?;
            de.end().map_err(|e| json_error("the dump", &e))?;
            return Err(json_error("the dump", &untracked));
        }
    };
    Ok(match dump {
        DumpOwned::SeAnim(anim) => Document::SeAnim(anim),
        DumpOwned::SeModel(model) => Document::SeModel(model),
        DumpOwned::Sf3(file) => Document::Sf3(file),
        DumpOwned::AnimX(animx) => Document::AnimX(animx),
        DumpOwned::Dmf(data) => Document::Dmf(data.into_dmf()?),
        DumpOwned::Gltf(data) => Document::Gltf(gltf_undump(data)?),
        DumpOwned::Cast(file) => Document::Cast(file),
    })
}

/// A serde_json error without a path (a syntax error) as [`Error::Json`].
pub(crate) fn json_error(what: &str, e: &serde_json::Error) -> Error {
    Error::Json {
        what: what.to_string(),
        path: ".".to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
    }
}

fn lossy(format: Format, reason: impl std::fmt::Display) -> Error {
    Error::LossyDump {
        format,
        reason: reason.to_string(),
    }
}

fn dump_ref(doc: &Document) -> Result<DumpRef<'_>> {
    Ok(match doc {
        Document::SeAnim(anim) => DumpRef::SeAnim(anim),
        Document::SeModel(model) => DumpRef::SeModel(model),
        Document::Sf3(file) => DumpRef::Sf3(file),
        Document::AnimX(animx) => DumpRef::AnimX(animx),
        Document::Dmf(dmf) => DumpRef::Dmf(dmf_json::Dumped(dmf)),
        Document::Gltf(gltf) => DumpRef::Gltf(gltf_dump(gltf)?),
        Document::Cast(file) => DumpRef::Cast(file),
    })
}

fn bad_member(format: &str, member: &str, expected: &str) -> Error {
    Error::Json {
        what: format!("the {format} dump"),
        path: format!("data.{member}"),
        line: 0,
        column: 0,
        message: format!("expected {expected}"),
    }
}

fn container_name(container: Container) -> &'static str {
    match container {
        Container::Gltf => "gltf",
        Container::Glb => "glb",
    }
}

fn gltf_dump(file: &GltfFile) -> Result<Value> {
    let (json, bin) = animbin_gltf::split(&file.bytes)?;
    let container = container_name(file.container);
    // The JSON as a value reads best; files whose JSON text another tool laid out
    // (pretty-printed, members in another order) keep that text instead.
    if animbin_gltf::join(json.clone(), bin.clone(), file.container)? == file.bytes {
        return Ok(json!({ "container": container, "json": json, "bin": bin.map(|b| BASE64.encode(b)) }));
    }
    let (text, bin) = match file.container {
        Container::Gltf => (&file.bytes[..], None),
        Container::Glb => {
            let glb = animbin_gltf::Glb::parse(&file.bytes)?;
            (glb.json, glb.bin)
        }
    };
    if let Ok(text) = std::str::from_utf8(text) {
        let rebuilt = match file.container {
            Container::Gltf => None,
            Container::Glb => Some(animbin_gltf::Glb::to_vec(text.as_bytes(), bin)?),
        };
        if rebuilt.is_none_or(|bytes| bytes == file.bytes) {
            return Ok(json!({ "container": container, "json_text": text, "bin": bin.map(|b| BASE64.encode(b)) }));
        }
    }
    // What neither JSON form can say still dumps: the file as it is.
    Ok(json!({ "container": container, "base64": BASE64.encode(&file.bytes) }))
}

fn gltf_undump(data: GltfDump) -> Result<GltfFile> {
    let container = match data.container.as_str() {
        "gltf" => Container::Gltf,
        "glb" => Container::Glb,
        _ => return Err(bad_member("gltf", "container", "\"gltf\" or \"glb\"")),
    };
    let bin = match data.bin {
        None => None,
        Some(text) => Some(
            BASE64
                .decode(text)
                .map_err(|_| bad_member("gltf", "bin", "a base64 string"))?,
        ),
    };
    let bytes = match (data.base64, data.json_text, data.json) {
        (Some(whole), _, _) => BASE64
            .decode(whole)
            .map_err(|_| bad_member("gltf", "base64", "the whole file in base64"))?,
        (None, Some(text), _) => match container {
            Container::Gltf if bin.is_none() => text.into_bytes(),
            Container::Gltf => return Err(bad_member("gltf", "bin", "null beside `json_text` in a .gltf dump")),
            Container::Glb => animbin_gltf::Glb::to_vec(text.as_bytes(), bin.as_deref())?,
        },
        (None, None, Some(json)) => animbin_gltf::join(json, bin, container)?,
        (None, None, None) => return Err(bad_member("gltf", "json", "the glTF JSON (`json` or `json_text`)")),
    };
    GltfFile::read(&bytes)
}
