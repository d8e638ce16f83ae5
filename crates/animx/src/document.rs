//! An animation together with the file it was read from, so that an unchanged compressed
//! file is written back byte for byte, and its lossless JSON dump.

use std::io::Write;

use animbin_core::{Error, ErrorKind};
use serde::de::DeserializeSeed;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value as Json;

use crate::FORMAT;
use crate::animj::{self, looks_like_json};
use crate::format::Form;
use crate::layout::Encoding;
use crate::model::{AnimXFile, Animation, ReadOptions};
use crate::value::FloatText;

/// An [`Animation`] and, when it was read from a compressed AnimX file, that file as stored.
///
/// LZ4 and LZMA compressors differ from tool to tool, so recompressing a file rarely gives
/// its bytes back. A document keeps the stored file and writes it unchanged as long as the
/// animation still encodes to the tracks it holds ([`Animation::encode_keeping`]); after an
/// edit it writes the animation anew. A plain file needs no such copy: the tracks it holds
/// encode back to its bytes.
///
/// Its serde form is the lossless dump: the AnimJ object ([`animj::to_value_with`], floats
/// that JSON numbers cannot hold as [`FloatText::Exact`] strings, so NaN bits survive) with
/// `version` and `encoding` always present, and for a compressed file `stored`, the
/// compressed bytes after the header in base64. Reading a dump back reuses `stored` only
/// when it still decodes to the dumped tracks.
///
/// ```
/// use animbin_animx::{AnimXDocument, Animation, Encoding};
///
/// let anim = Animation { name: "idle".into(), encoding: Encoding::Lz4, ..Animation::default() };
/// let bytes = animbin_animx::to_bytes(&anim)?;
/// let doc = AnimXDocument::read(&bytes)?;
/// assert_eq!(doc.animation, anim);
/// assert_eq!(doc.to_bytes()?, bytes);
///
/// // The dump (also its serde form) keeps the stored bytes; back from JSON, the document
/// // writes the same file.
/// let dump = doc.to_dump();
/// assert_eq!(dump["encoding"], "lz4");
/// assert!(dump["stored"].is_string());
/// let back = AnimXDocument::from_dump(&dump)?;
/// assert_eq!(back.to_bytes()?, bytes);
/// # Ok::<(), animbin_animx::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AnimXDocument {
    /// The animation.
    pub animation: Animation,
    /// The compressed file it was read from (header and stored track bytes), or `None` for
    /// a plain file (whose tracks encode back to its bytes, so keeping them would only
    /// double the memory a read holds), an animation that came from AnimJ or one built in
    /// memory.
    pub stored: Option<AnimXFile>,
    /// The form it was read in: [`Form::AnimJ`] for AnimJ text, else [`Form::AnimX`] (a
    /// file, a dump, an animation built in memory). [`FileFormat::write`] writes this form;
    /// [`AnimXDocument::write`] and [`AnimXDocument::to_bytes`] always write AnimX.
    ///
    /// [`FileFormat::write`]: animbin_core::FileFormat::write
    pub form: Form,
}

impl From<Animation> for AnimXDocument {
    fn from(animation: Animation) -> Self {
        Self {
            animation,
            stored: None,
            form: Form::AnimX,
        }
    }
}

impl AnimXDocument {
    /// Reads an AnimX file (keeping its stored bytes) or AnimJ text (JSON whose first
    /// non-blank byte is `{`), with the default [`ReadOptions`].
    pub fn read(bytes: &[u8]) -> Result<Self, Error> {
        Self::read_with(bytes, &ReadOptions::default())
    }

    /// Reads an AnimX file or AnimJ text, decompressing within `options`.
    pub fn read_with(bytes: &[u8], options: &ReadOptions) -> Result<Self, Error> {
        if looks_like_json(bytes) {
            return Ok(Self {
                form: Form::AnimJ,
                ..animj::from_slice(bytes)?.into()
            });
        }
        let animation = crate::model::read_animation(bytes, options)?;
        // A plain file's tracks encode back to its bytes: only a compressed file is kept.
        let stored = (animation.encoding != Encoding::Plain)
            .then(|| AnimXFile::read(bytes))
            .transpose()?;
        Ok(Self {
            animation,
            stored,
            form: Form::AnimX,
        })
    }

    /// The file to write: the stored one when the animation still encodes to its tracks,
    /// else the animation encoded with its own [`Animation::encoding`].
    pub fn to_file(&self) -> Result<AnimXFile, Error> {
        match &self.stored {
            Some(stored) => self.animation.encode_keeping(stored, &ReadOptions::default()),
            None => self.animation.encode(),
        }
    }

    /// The AnimX bytes (see [`AnimXDocument::to_file`]), whatever [`AnimXDocument::form`].
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        self.to_file()?.to_bytes()
    }

    /// Writes the AnimX bytes (see [`AnimXDocument::to_file`]) into `writer`, whatever
    /// [`AnimXDocument::form`]. An unchanged file is written from its stored bytes as they
    /// are, checked against the animation without encoding its tracks into memory.
    pub fn write(&self, mut writer: impl Write) -> Result<(), Error> {
        let io = |e| Error::new(FORMAT, 0, ErrorKind::Io(e));
        match &self.stored {
            Some(stored) if self.animation.still_encodes_to(stored, &ReadOptions::default())? => {
                writer.write_all(&stored.header_bytes()?).map_err(io)?;
                writer.write_all(&stored.data).map_err(io)
            }
            _ => {
                let file = self.to_file()?;
                writer.write_all(&file.header_bytes()?).map_err(io)?;
                writer.write_all(&file.data).map_err(io)
            }
        }
    }

    /// The animation as pretty-printed AnimJ text ([`animj::to_string`]).
    pub fn to_animj(&self) -> Result<String, Error> {
        animj::to_string(&self.animation)
    }

    /// The lossless dump as a JSON value (what [`Serialize`] writes).
    pub fn to_dump(&self) -> Json {
        serde_json::to_value(self).unwrap_or(Json::Null)
    }

    /// A document from its dump (what [`Deserialize`] reads): the AnimJ members, and the
    /// stored bytes from `stored` when present, under the header the animation is written
    /// with. Errors name the member, as [`animj::from_value`]'s do.
    pub fn from_dump(json: &Json) -> Result<Self, Error> {
        Self::deserialize(json).map_err(|e| animj::content_error(0, &e))
    }

    /// The document from what its dump held.
    fn from_read(read: animj::Read) -> Result<Self, Error> {
        let animation = read.animation;
        let stored = match read.stored {
            None => None,
            Some(data) => Some(AnimXFile {
                header: animation.header()?,
                data,
            }),
        };
        Ok(Self {
            animation,
            stored,
            form: Form::AnimX,
        })
    }
}

/// The dump is written as it is serialised: members straight from the model, the stored
/// bytes encoded to base64 on the way (see [`AnimXDocument`]).
impl Serialize for AnimXDocument {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let stored = self.stored.as_ref().filter(|f| f.header.encoding != Encoding::Plain);
        animj::Form {
            animation: &self.animation,
            floats: FloatText::Exact,
            dump: Some(stored.map(|f| &f.data[..])),
        }
        .serialize(serializer)
    }
}

/// The dump is read straight into the model, member by member (no JSON value of the whole
/// dump is built); errors say where they are, as `tracks[2]: data.keyframes[1].value: ...`.
impl<'de> Deserialize<'de> for AnimXDocument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let read = animj::FormSeed { dump: true }.deserialize(deserializer)?;
        Self::from_read(read).map_err(serde::de::Error::custom)
    }
}
