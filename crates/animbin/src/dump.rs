//! Dumps: a whole document as JSON, `{"format": NAME, "data": ...}`, that converts back to
//! the same bytes.
//!
//! Each format's `data` is what its crate's [`animbin_core::FileFormat::dump`] gives: its owned
//! model as serde writes it (SEAnim, SEModel, x8an, Cast), its own JSON form (DMF JSON; AnimJ
//! plus the version, the encoding and, for a compressed file, the stored bytes in base64) or,
//! for glTF, the JSON and the BIN chunk in base64 (or, for a GLB whose container holds more
//! than those two chunks, the whole file in base64). The tagged enums are the format table's. Floats
//! that JSON numbers cannot hold are strings in every one of them ([`animbin_core::float`]:
//! `"NaN"`, `"Infinity"`, `"-Infinity"`, `"nan:0x7fc00001"`), so every file dumps.

mod layout;

use std::io::{BufWriter, Write};

use serde::{Deserialize, Serialize};

use crate::table::DumpOwned;
use crate::{Document, Error, Format, Result};

/// Writes the dump of `doc` to `writer` as it is serialised, through a buffer: no copy of
/// the whole dump is held.
///
/// Lossless by construction: every model's serde form has every field, every float has a
/// JSON form ([`animbin_core::float`]) and every byte a member (DMF's dump-only members, a
/// GLB kept whole). The tests and the `parse_any` fuzz target check that each dump converts
/// back to the same bytes, rather than each dump being rebuilt here.
pub(crate) fn write(doc: &Document, writer: impl Write) -> Result<()> {
    let data = doc.dump_ref()?;
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
    Document::from_dump(dump)
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
