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

#[cfg(feature = "fs")]
use std::io::{BufReader, Read};
use std::io::{BufWriter, Write};
#[cfg(feature = "fs")]
use std::{fs::File, path::Path};

use serde::{Deserialize, Serialize};

#[cfg(feature = "fs")]
use crate::files::ReadOptions;
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
    read_bytes(bytes)
}

/// [`read`], for [`open`]'s second reading too.
fn read_bytes(bytes: &[u8]) -> Result<Document> {
    // Tracking the path costs a copy of every member name, a third of the time of a large
    // dump: a dump that parses is read without it, and one that does not is parsed again
    // with it, for the message.
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let dump = match DumpOwned::deserialize(&mut de).and_then(|dump| de.end().map(|()| dump)) {
        Ok(dump) => dump,
        Err(untracked) => return Err(json_error_as::<DumpOwned>("the dump", bytes, &untracked)),
    };
    Document::from_dump(dump)
}

#[cfg(feature = "fs")]
/// Reads the dump in the file at `path` as it reads the file, through a buffer, without the
/// whole JSON in memory: `None` when the file is not a regular file that opens the way
/// animbin writes dumps (`{"format": NAME, "data": ...`, NAME a format animbin knows), which
/// the caller reads whole. A dump that does not parse is read again whole, for the message
/// with the JSON path and line that [`read`] gives (the path tracking costs a third of the
/// time of a parse, so a dump that parses does without it).
pub(crate) fn open(path: &Path, read: &ReadOptions) -> Result<Option<Document>> {
    // Looked at before it is opened: opening a pipe would wait for its writer, and take the
    // bytes it writes from the reader that reads it whole afterwards.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let Ok(file) = File::open(path) else {
        return Ok(None);
    };
    let Ok(metadata) = file.metadata() else {
        return Ok(None);
    };
    if !metadata.is_file() || metadata.len() > read.max_input_size {
        return Ok(None);
    }
    let mut head = Vec::with_capacity(HEAD);
    if (&file).take(HEAD as u64).read_to_end(&mut head).is_err() {
        return Ok(None);
    }
    if crate::document::leading_dump_format(&head).is_none_or(|f| Format::from_name(&f).is_none()) {
        return Ok(None);
    }
    // The reader by value: std reads a `BufReader`'s bytes one at a time from its buffer,
    // where a `&mut BufReader` would pay a call to `read` per byte (a third of the time).
    let reader = BufReader::with_capacity(
        1 << 16,
        std::io::Cursor::new(head).chain((&file).take(read.max_input_size.saturating_sub(HEAD as u64))),
    );
    let mut de = serde_json::Deserializer::from_reader(reader);
    match DumpOwned::deserialize(&mut de).and_then(|dump| de.end().map(|()| dump)) {
        Ok(dump) => Document::from_dump(dump).map(Some),
        Err(_) => {
            let bytes = crate::files::read(path, read)?;
            read_bytes(&bytes).map(Some)
        }
    }
}

#[cfg(feature = "fs")]
/// How much of a file [`open`] reads to tell a dump by its opening members: enough for any
/// format's name.
const HEAD: usize = 256;

/// Where a JSON error is when it is at no member or element: serde_path_to_error's `.`.
const TOP_LEVEL: &str = "the top level";

/// The error `e` that reading `bytes` as a `T` gave, as [`Error::Json`] with the JSON path
/// of its place: `bytes` are read again as a `T` with the path tracked (only for the
/// message, so a text that parses never pays for the tracking). The path is as deep as `T`
/// looks (a member `T` ignores is named, not what is inside it), and is
/// [`the top level`](TOP_LEVEL) for an error at no member: a value of the wrong type at the
/// top, or characters after it.
pub(crate) fn json_error_as<T: serde::de::DeserializeOwned>(what: &str, bytes: &[u8], e: &serde_json::Error) -> Error {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let tracked = serde_path_to_error::deserialize::<_, T>(&mut de).map(|_| de.end());
    match tracked {
        Err(tracked) => in_words(Error::json(what, bytes, tracked)),
        Ok(Err(trailing)) => at_path(what, TOP_LEVEL, bytes, &trailing),
        // The same text and type fail the same way; were it not so, the first error is
        // still the one to show, at no known path.
        Ok(Ok(())) => at_path(what, ".", bytes, e),
    }
}

/// `e`, from reading `bytes`, as [`Error::Json`] at `path`, serde_json's own " at line L
/// column C" left off (the error says where once).
fn at_path(what: &str, path: &str, bytes: &[u8], e: &serde_json::Error) -> Error {
    Error::Json {
        what: what.to_string(),
        path: path.to_string(),
        line: e.line(),
        column: e.column(),
        offset: Some(animbin_core::io::line_column_offset(bytes, e.line(), e.column())),
        message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
    }
}

/// [`Error::Json`] with serde_path_to_error's root path `.` said in words, and without its
/// `?` for a member name that was not read (the error is in the object that holds it).
fn in_words(mut error: Error) -> Error {
    if let Error::Json { path, .. } = &mut error {
        let known = path.trim_end_matches(".?").trim_end_matches('?');
        *path = match known {
            "" | "." => TOP_LEVEL.to_string(),
            known => known.to_string(),
        };
    }
    error
}

fn lossy(format: Format, reason: impl std::fmt::Display) -> Error {
    Error::LossyDump {
        format,
        reason: reason.to_string(),
    }
}
