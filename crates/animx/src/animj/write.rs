//! Writing AnimJ: [`to_value`], [`to_string`] and [`to_writer_pretty`], and the serde forms
//! of the animation, its tracks and keyframes that stream it (and, through [`Form`], the
//! lossless dump).

use std::io::Write;

use animbin_core::{Error, ErrorKind};
use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;

use super::FORMAT;
use crate::layout::{CurveTrack, Encoding, Interpolation, Interpolations, Keyframes, Track, TrackData};
use crate::model::Animation;
use crate::value::{FloatText, Shaped, Values};

/// The animation as an AnimJ JSON value.
pub fn to_value(animation: &Animation) -> Json {
    to_value_with(animation, FloatText::JsonNet)
}

/// The animation as an AnimJ JSON value, with the floats JSON numbers cannot hold written as
/// `floats` says ([`FloatText::Exact`] for the lossless dump; finite values are the same
/// either way).
pub fn to_value_with(animation: &Animation, floats: FloatText) -> Json {
    let form = Form {
        animation,
        floats,
        dump: None,
    };
    serde_json::to_value(form).unwrap_or(Json::Null)
}

/// The animation as pretty-printed AnimJ text.
pub fn to_string(animation: &Animation) -> Result<String, Error> {
    let mut out = Vec::new();
    to_writer_pretty(animation, &mut out)?;
    String::from_utf8(out).map_err(|e| Error::new(FORMAT, 0, ErrorKind::Unencodable(e.to_string())))
}

/// Writes the animation as pretty-printed AnimJ text into `writer`, as it is serialised (no
/// copy of the whole text is held; wrap a file in a `BufWriter`).
pub fn to_writer_pretty(animation: &Animation, writer: impl Write) -> Result<(), Error> {
    let form = Form {
        animation,
        floats: FloatText::JsonNet,
        dump: None,
    };
    serde_json::to_writer_pretty(writer, &form).map_err(|e| {
        let kind = if e.is_io() {
            ErrorKind::Io(e.into())
        } else {
            ErrorKind::Unencodable(e.to_string())
        };
        Error::new(FORMAT, 0, kind)
    })
}

/// An animation's JSON form as serde serialises it: AnimJ, or with `dump` the lossless
/// dump (`version` and `encoding` always, and `stored`, the compressed bytes in base64, when
/// there are some). Members are in name order (as a JSON map of them has always been
/// written) but for a track's `trackType` and `valueType`, which come before its `data` so
/// that a reader knows the type of the values it meets.
pub(crate) struct Form<'a> {
    pub(crate) animation: &'a Animation,
    pub(crate) floats: FloatText,
    /// `Some` for the dump, with the stored bytes of a compressed file.
    pub(crate) dump: Option<Option<&'a [u8]>>,
}

impl Serialize for Form<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let a = self.animation;
        let dump = self.dump.is_some();
        let mut map = serializer.serialize_map(None)?;
        if dump || a.encoding != Encoding::Plain {
            map.serialize_entry("encoding", a.encoding.name())?;
        }
        map.serialize_entry("globalDuration", &Shaped(&a.global_duration, self.floats))?;
        map.serialize_entry("name", &a.name)?;
        if let Some(Some(stored)) = self.dump {
            map.serialize_entry("stored", &Base64(stored))?;
        }
        map.serialize_entry("tracks", &Tracks(&a.tracks, self.floats))?;
        if dump || a.version != 1 {
            map.serialize_entry("version", &a.version)?;
        }
        map.end()
    }
}

/// Bytes as a base64 string, encoded as they are written.
struct Base64<'a>(&'a [u8]);

impl Serialize for Base64<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Base64Display::new(self.0, &BASE64))
    }
}

struct Tracks<'a>(&'a [Track], FloatText);

impl Serialize for Tracks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|track| TrackForm(track, self.1)))
    }
}

struct TrackForm<'a>(&'a Track, FloatText);

impl Serialize for TrackForm<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let track = self.0;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("trackType", track.track_type().name())?;
        map.serialize_entry("valueType", track.value_type().name())?;
        map.serialize_entry("data", &DataForm(track, self.1))?;
        map.end()
    }
}

struct DataForm<'a>(&'a Track, FloatText);

impl Serialize for DataForm<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (track, floats) = (self.0, self.1);
        let mut map = serializer.serialize_map(None)?;
        if let TrackData::Raw(raw) = &track.data {
            map.serialize_entry("interval", &Shaped(&raw.interval, floats))?;
        }
        map.serialize_entry("keyframes", &KeysForm(&track.data, floats))?;
        map.serialize_entry("node", &track.node)?;
        if let TrackData::Curve(c) = &track.data {
            if let Interpolations::PerKeyframe(all) = &c.interpolation {
                if Interpolations::canonical(all.clone()) != c.interpolation {
                    map.serialize_entry("perKeyframeInterpolation", &true)?;
                }
            }
        }
        map.serialize_entry("property", &track.property)?;
        if let TrackData::Curve(c) = &track.data {
            let n = c.keyframes.len();
            if let Interpolations::Shared(i) = c.interpolation {
                if n == 0 && i != Interpolation::Hold {
                    map.serialize_entry("sharedInterpolation", i.name())?;
                }
            }
            if n == 0 && c.tangents.is_some() {
                map.serialize_entry("tangents", &true)?;
            }
        }
        map.end()
    }
}

/// A track's keyframes: a Raw track's values, or `{time, value}` objects (and for a Curve
/// `interpolation` and the tangents).
struct KeysForm<'a>(&'a TrackData, FloatText);

impl Serialize for KeysForm<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let floats = self.1;
        match self.0 {
            TrackData::Raw(raw) => {
                let n = raw.values.len();
                serializer.collect_seq((0..n).map(|i| ValueAt(&raw.values, i, floats)))
            }
            TrackData::Discrete(d) => {
                let keys = &d.keyframes;
                let n = keys.times.len().min(keys.values.len());
                serializer.collect_seq((0..n).map(|i| KeyForm {
                    keys,
                    curve: None,
                    i,
                    floats,
                }))
            }
            TrackData::Curve(c) => {
                let keys = &c.keyframes;
                let n = keys.times.len().min(keys.values.len());
                serializer.collect_seq((0..n).map(|i| KeyForm {
                    keys,
                    curve: Some(c),
                    i,
                    floats,
                }))
            }
        }
    }
}

/// Value `i` of a column (`null` past its end).
struct ValueAt<'a>(&'a Values, usize, FloatText);

impl Serialize for ValueAt<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.write_json(self.1, self.2, serializer)
    }
}

/// Keyframe `i` of a Discrete or Curve track.
struct KeyForm<'a> {
    keys: &'a Keyframes,
    curve: Option<&'a CurveTrack>,
    i: usize,
    floats: FloatText,
}

impl Serialize for KeyForm<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (i, floats) = (self.i, self.floats);
        let mut map = serializer.serialize_map(None)?;
        if let Some(c) = self.curve {
            let interpolation = c.interpolation.get(i).unwrap_or_default();
            map.serialize_entry("interpolation", interpolation.name())?;
            if let Some(t) = &c.tangents {
                map.serialize_entry("leftTangent", &ValueAt(&t.left, i, floats))?;
                map.serialize_entry("rightTangent", &ValueAt(&t.right, i, floats))?;
            }
        }
        map.serialize_entry("time", &Shaped(&self.keys.times[i], floats))?;
        map.serialize_entry("value", &ValueAt(&self.keys.values, i, floats))?;
        map.end()
    }
}
