//! AnimJ: the JSON form of an animation, as Resonite tools write it.
//!
//! ```json
//! {"name": "test", "globalDuration": 4, "tracks": [
//!   {"trackType": "Discrete", "valueType": "int",
//!    "data": {"node": "n", "property": "p", "keyframes": [{"time": 0, "value": 0}]}}]}
//! ```
//!
//! - Raw tracks: `data.interval` and `data.keyframes: [v0, v1, ...]` (objects `{time, value}`
//!   are accepted too, and their time ignored).
//! - Discrete keyframes: `{time, value}`. Curve keyframes: `{time, value, interpolation,
//!   leftTangent?, rightTangent?}` with the interpolation by name.
//! - Values: numbers and booleans; vectors and quaternions `{x, y, z, w}` (bool2/3/4 too);
//!   `color`/`color32` `{r, g, b, a}`; matrices arrays of rows; strings a string or null.
//!   NaN and the infinities, which JSON numbers cannot hold, are the strings `"NaN"`,
//!   `"Infinity"` and `"-Infinity"` (Json.NET's default). The reader also takes the
//!   `"nan:0x7fc00001"` strings of animbin's dump ([`FloatText::Exact`]), which keep a NaN's
//!   bits.
//!
//! AnimJ -> AnimX stores one interpolation per keyframe only when they differ, and tangents
//! when the keyframes carry them. So that AnimX -> AnimJ loses nothing, the few things that
//! rule cannot recover are written as extra members, and only when present: top-level
//! `version` (when not 1) and `encoding` (when not `"plain"`), and in a Curve track's `data`
//! `perKeyframeInterpolation: true` (per-keyframe bytes that are all equal),
//! `sharedInterpolation` (the shared byte of a curve with no keyframes, when not Hold) and
//! `tangents: true` (the tangent flag on a curve with no keyframes). Canonical files never
//! need them. The bit patterns of NaNs are not kept in AnimJ ([`to_value`]), only in the dump
//! form ([`to_value_with`] and [`FloatText::Exact`]).

use std::fmt;
use std::io::Write;

use animbin_core::io::line_column_offset;
use animbin_core::{Error, ErrorKind};
use base64::Engine;
use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;

use crate::json::{At, Key, Member, Scalar, ScalarSeed, next_named};
use crate::layout::{
    CurveTrack, DiscreteTrack, Encoding, Interpolation, Interpolations, Keyframes, RawTrack, Tangents, Track,
    TrackData, TrackType,
};
use crate::model::Animation;
use crate::value::{FloatText, ShapeSeed, Shaped, ValueType, Values};

/// The format name of AnimJ errors.
pub const FORMAT: &str = "animj";

/// Whether `bytes` are AnimJ text: a JSON object (see [`is_animj_value`]). Cheap for
/// binary input: anything whose first non-blank byte is not `{` is refused unparsed; JSON is
/// read without keeping its values.
pub fn is_animj(bytes: &[u8]) -> bool {
    looks_like_json(bytes) && serde_json::from_slice::<Probe>(bytes).is_ok_and(|probe| probe.is_animj())
}

/// The members of a JSON object that [`is_animj`] looks at.
#[derive(serde::Deserialize)]
struct Probe {
    tracks: Option<TracksProbe>,
    #[serde(rename = "globalDuration")]
    global_duration: Option<IgnoredAny>,
}

impl Probe {
    fn is_animj(&self) -> bool {
        match &self.tracks {
            Some(TracksProbe::Array { first: Some(typed) }) => *typed,
            Some(TracksProbe::Array { first: None }) => self.global_duration.is_some(),
            _ => false,
        }
    }
}

/// `tracks`: an array, and whether its first item has `trackType` and `valueType`.
enum TracksProbe {
    Array { first: Option<bool> },
    Other,
}

impl<'de> Deserialize<'de> for TracksProbe {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TracksProbeVisitor { item: false })
    }
}

/// Reads a `tracks` array (`item` false) or its first item (`item` true: `Other` unless an
/// object with both types), skipping everything else.
struct TracksProbeVisitor {
    item: bool,
}

impl<'de> DeserializeSeed<'de> for TracksProbeVisitor {
    type Value = TracksProbe;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<TracksProbe, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TracksProbeVisitor {
    type Value = TracksProbe;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TracksProbe, A::Error> {
        if self.item {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(TracksProbe::Other);
        }
        let first = seq.next_element_seed(TracksProbeVisitor { item: true })?;
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(TracksProbe::Array {
            first: first.map(|item| matches!(item, TracksProbe::Array { .. })),
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TracksProbe, A::Error> {
        let mut seen = [false; 2];
        while let Some(key) = map.next_key_seed(Member(&["trackType", "valueType"]))? {
            if let Key::Named(k) = key {
                seen[k] = true;
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(if self.item && seen == [true, true] {
            TracksProbe::Array { first: None }
        } else {
            TracksProbe::Other
        })
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<TracksProbe, E> {
        Ok(TracksProbe::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<TracksProbe, E> {
        Ok(TracksProbe::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<TracksProbe, E> {
        Ok(TracksProbe::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<TracksProbe, E> {
        Ok(TracksProbe::Other)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<TracksProbe, E> {
        Ok(TracksProbe::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<TracksProbe, E> {
        Ok(TracksProbe::Other)
    }
}

/// Whether parsed JSON is AnimJ: an object with an array `tracks` whose first track has
/// `trackType` and `valueType`, or with no tracks and a `globalDuration`.
pub fn is_animj_value(json: &Json) -> bool {
    let Some(obj) = json.as_object() else {
        return false;
    };
    let Some(tracks) = obj.get("tracks").and_then(Json::as_array) else {
        return false;
    };
    match tracks.first() {
        Some(track) => track.get("trackType").is_some() && track.get("valueType").is_some(),
        None => obj.contains_key("globalDuration"),
    }
}

/// Whether the first byte that is not whitespace is `{` (an AnimX file starts with 0x05).
pub(crate) fn looks_like_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

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

/// Reads AnimJ text. Syntax errors give the byte offset; errors in the content name the
/// JSON path (`tracks[2].data.keyframes[1].value`) and give the offset just past the value.
pub fn from_str(text: &str) -> Result<Animation, Error> {
    from_slice(text.as_bytes())
}

/// Reads AnimJ bytes (UTF-8 JSON), straight into the model (no JSON value of the whole text
/// is built).
pub fn from_slice(bytes: &[u8]) -> Result<Animation, Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = FormSeed { dump: false }
        .deserialize(&mut de)
        .and_then(|read| de.end().map(|()| read));
    read.map(|read| read.animation).map_err(|e| {
        let offset = line_column_offset(bytes, e.line(), e.column());
        if e.is_data() {
            content_error(offset, &e)
        } else {
            Error::new(FORMAT, offset, ErrorKind::invalid("AnimJ (JSON)", e))
        }
    })
}

/// Reads an AnimJ JSON value.
pub fn from_value(json: &Json) -> Result<Animation, Error> {
    FormSeed { dump: false }
        .deserialize(json)
        .map(|read| read.animation)
        .map_err(|e| content_error(0, &e))
}

/// An error in the content (not the syntax): "where: expected, found what" as an [`Error`].
pub(crate) fn content_error(offset: u64, e: &serde_json::Error) -> Error {
    let message = e.to_string();
    let message = match message.rfind(" at line ") {
        Some(at) if e.line() > 0 => &message[..at],
        _ => &message[..],
    };
    let (expected, found) = message.split_once(", found ").unwrap_or((message, "something else"));
    Error::new(FORMAT, offset, ErrorKind::invalid(expected, found))
}

/// What a JSON form holds: the animation and, in a dump, the stored bytes (decoded).
pub(crate) struct Read {
    pub(crate) animation: Animation,
    pub(crate) stored: Option<Vec<u8>>,
}

/// Reads an animation's JSON form, AnimJ or (with `dump`) the dump, whose `stored` it
/// decodes; members may come in any order.
#[derive(Clone, Copy)]
pub(crate) struct FormSeed {
    pub(crate) dump: bool,
}

impl<'de> DeserializeSeed<'de> for FormSeed {
    type Value = Read;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Read, D::Error> {
        deserializer.deserialize_any(self)
    }
}

const ROOT: At<'static> = At::Root;
const ROOT_EXPECTED: &str = "an object with name, globalDuration and tracks";

impl<'de> Visitor<'de> for FormSeed {
    type Value = Read;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(ROOT_EXPECTED)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Read, A::Error> {
        Err(ROOT.error(ROOT_EXPECTED, "an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        const NAMES: &[&str] = &["name", "version", "encoding", "globalDuration", "tracks", "stored"];
        let mut name = None;
        let mut version = None;
        let mut encoding = None;
        let mut duration = None;
        let mut tracks = None;
        let mut stored = None;
        while let Some(k) = next_named(&mut map, NAMES)? {
            let at = ROOT.member(NAMES[k]);
            let twice = match k {
                0 => name.is_some(),
                1 => version.is_some(),
                2 => encoding.is_some(),
                3 => duration.is_some(),
                4 => tracks.is_some(),
                _ => stored.is_some(),
            };
            if twice {
                return Err(at.error("one such member", "two"));
            }
            match k {
                0 => {
                    name = Some(
                        match map.next_value_seed(ScalarSeed {
                            at: &at,
                            expected: "a string",
                        })? {
                            Scalar::Null => String::new(),
                            Scalar::Str(s) => s.into_owned(),
                            other => return Err(at.error("a string", other)),
                        },
                    )
                }
                1 => {
                    let value = map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: "0 or 1",
                    })?;
                    version = Some(match value {
                        Scalar::U64(v @ (0 | 1)) => v as i32,
                        other => return Err(at.error("0 or 1", other)),
                    });
                }
                2 => {
                    const EXPECTED: &str = "\"plain\", \"lz4\" or \"lzma\"";
                    let value = map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: EXPECTED,
                    })?;
                    encoding = Some(match &value {
                        Scalar::Str(s) => Encoding::from_name(s).ok_or_else(|| at.error(EXPECTED, &value))?,
                        _ => return Err(at.error(EXPECTED, value)),
                    });
                }
                3 => duration = Some(map.next_value_seed(ShapeSeed::<f32>::new(&at, false))?),
                4 => tracks = Some(map.next_value_seed(TracksSeed)?),
                _ if self.dump => {
                    const EXPECTED: &str = "a base64 string";
                    let value = map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: EXPECTED,
                    })?;
                    let Scalar::Str(text) = value else {
                        return Err(at.error(EXPECTED, value));
                    };
                    let bytes = BASE64
                        .decode(text.as_bytes())
                        .map_err(|e| at.error(EXPECTED, format_args!("text that is not base64 ({e})")))?;
                    stored = Some(bytes);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    stored = Some(Vec::new());
                }
            }
        }
        let tracks: Vec<Track> = tracks.ok_or_else(|| ROOT.member("tracks").error("an array", "none"))?;
        let global_duration = duration.unwrap_or_else(|| tracks.iter().map(Track::end_time).fold(0.0, f32::max));
        let animation = Animation {
            version: version.unwrap_or(1),
            name: name.unwrap_or_default(),
            global_duration,
            encoding: encoding.unwrap_or_default(),
            tracks,
        };
        Ok(Read {
            animation,
            stored: stored.filter(|_| self.dump),
        })
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Read, E> {
        Err(ROOT.error(ROOT_EXPECTED, v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Read, E> {
        Err(ROOT.error(ROOT_EXPECTED, v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Read, E> {
        Err(ROOT.error(ROOT_EXPECTED, v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Read, E> {
        Err(ROOT.error(ROOT_EXPECTED, v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Read, E> {
        Err(ROOT.error(ROOT_EXPECTED, format_args!("{v:?}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Read, E> {
        Err(ROOT.error(ROOT_EXPECTED, "null"))
    }
}

/// The `tracks` array.
struct TracksSeed;

impl<'de> DeserializeSeed<'de> for TracksSeed {
    type Value = Vec<Track>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Track>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TracksSeed {
    type Value = Vec<Track>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Track>, A::Error> {
        let mut tracks = Vec::new();
        while let Some(track) = seq.next_element_seed(TrackSeed { index: tracks.len() })? {
            tracks.push(track);
        }
        Ok(tracks)
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Vec<Track>, A::Error> {
        Err(ROOT.member("tracks").error("an array", "an object"))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Vec<Track>, E> {
        Err(ROOT.member("tracks").error("an array", v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Vec<Track>, E> {
        Err(ROOT.member("tracks").error("an array", v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Vec<Track>, E> {
        Err(ROOT.member("tracks").error("an array", v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Vec<Track>, E> {
        Err(ROOT.member("tracks").error("an array", v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<Track>, E> {
        Err(ROOT.member("tracks").error("an array", format_args!("{v:?}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Vec<Track>, E> {
        Err(ROOT.member("tracks").error("an array", "null"))
    }
}

/// One track: `trackType`, `valueType` and `data`. The writer puts the types first; a
/// `data` met before them (AnimJ from other tools, dumps of earlier versions) is held as a
/// JSON value until they are known.
struct TrackSeed {
    index: usize,
}

impl<'de> DeserializeSeed<'de> for TrackSeed {
    type Value = Track;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Track, D::Error> {
        deserializer.deserialize_any(self)
    }
}

const TRACK_EXPECTED: &str = "an object with trackType, valueType and data";

impl<'de> Visitor<'de> for TrackSeed {
    type Value = Track;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(TRACK_EXPECTED)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Track, A::Error> {
        const NAMES: &[&str] = &["trackType", "valueType", "data"];
        let at = At::Track(self.index);
        let mut track_type = None;
        let mut value_type = None;
        let mut data: Option<(String, String, TrackData)> = None;
        let mut early: Option<Json> = None;
        while let Some(key) = map.next_key_seed(Member(NAMES))? {
            match key {
                Key::Named(0) => {
                    const EXPECTED: &str = "trackType Raw, Discrete or Curve";
                    let value = map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: EXPECTED,
                    })?;
                    track_type = Some(match &value {
                        Scalar::Str(s) if s == "Bezier" => {
                            return Err(at.error(
                                "trackType Raw, Discrete or Curve (Bezier tracks are not supported)",
                                &value,
                            ));
                        }
                        Scalar::Str(s) => TrackType::from_name(s).ok_or_else(|| at.error(EXPECTED, &value))?,
                        _ => return Err(at.error(EXPECTED, value)),
                    });
                }
                Key::Named(1) => {
                    const EXPECTED: &str = "a valueType such as \"float3\"";
                    let value = map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: EXPECTED,
                    })?;
                    value_type = Some(match &value {
                        Scalar::Str(s) => ValueType::from_name(s).ok_or_else(|| at.error(EXPECTED, &value))?,
                        _ => return Err(at.error(EXPECTED, value)),
                    });
                }
                Key::Named(_) if data.is_some() || early.is_some() => {
                    return Err(at.error("one member \"data\"", "two"));
                }
                Key::Named(_) => match (track_type, value_type) {
                    (Some(kind), Some(value_type)) => {
                        data = Some(map.next_value_seed(DataSeed {
                            at: &at,
                            kind,
                            value_type,
                        })?);
                    }
                    _ => early = Some(map.next_value()?),
                },
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let kind = track_type.ok_or_else(|| at.error("a member \"trackType\"", "none"))?;
        let value_type = value_type.ok_or_else(|| at.error("a member \"valueType\"", "none"))?;
        let (node, property, data) = match (data, early) {
            (Some(data), _) => data,
            (None, Some(json)) => DataSeed {
                at: &at,
                kind,
                value_type,
            }
            .deserialize(&json)
            .map_err(de::Error::custom)?,
            (None, None) => return Err(at.error("a member \"data\" that is an object", "none")),
        };
        Ok(Track { node, property, data })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Track, A::Error> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, "an array"))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Track, E> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Track, E> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Track, E> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Track, E> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Track, E> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, format_args!("{v:?}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Track, E> {
        Err(At::Track(self.index).error(TRACK_EXPECTED, "null"))
    }
}

/// A track's `data`, once its kind and value type are known: node, property and body.
struct DataSeed<'a> {
    at: &'a At<'a>,
    kind: TrackType,
    value_type: ValueType,
}

impl<'de> DeserializeSeed<'de> for DataSeed<'_> {
    type Value = (String, String, TrackData);
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DataSeed<'_> {
    type Value = (String, String, TrackData);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member \"data\" that is an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        const NAMES: &[&str] = &[
            "node",
            "property",
            "interval",
            "keyframes",
            "perKeyframeInterpolation",
            "sharedInterpolation",
            "tangents",
        ];
        const PATHS: &[&str] = &[
            "data.node",
            "data.property",
            "data.interval",
            "data.keyframes",
            "data.perKeyframeInterpolation",
            "data.sharedInterpolation",
            "data.tangents",
        ];
        let mut node = String::new();
        let mut property = String::new();
        let mut interval = None;
        let mut keys = None;
        let mut per_key = false;
        let mut shared = None;
        let mut tangents = false;
        while let Some(k) = next_named(&mut map, NAMES)? {
            let at = self.at.member(PATHS[k]);
            match k {
                0 | 1 => {
                    let text = match map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: "a string",
                    })? {
                        Scalar::Null => String::new(),
                        Scalar::Str(s) => s.into_owned(),
                        other => return Err(at.error("a string", other)),
                    };
                    if k == 0 { node = text } else { property = text }
                }
                2 => interval = Some(map.next_value_seed(ShapeSeed::<f32>::new(&at, false))?),
                3 if keys.is_some() => return Err(at.error("one member \"keyframes\"", "two")),
                3 => {
                    keys = Some(map.next_value_seed(KeysSeed {
                        at: &at,
                        kind: self.kind,
                        value_type: self.value_type,
                    })?)
                }
                4 => per_key = map.next_value::<Json>()?.as_bool().unwrap_or(false),
                5 => shared = Some(map.next_value::<Json>()?),
                _ => tangents = map.next_value::<Json>()?.as_bool().unwrap_or(false),
            }
        }
        let keys_at = self.at.member("data.keyframes");
        let keys = keys.ok_or_else(|| keys_at.error("an array", "none"))?;
        let data = match self.kind {
            TrackType::Raw => {
                let interval = interval.ok_or_else(|| self.at.member("data.interval").error("a number", "none"))?;
                TrackData::Raw(RawTrack {
                    interval,
                    values: keys.values,
                })
            }
            TrackType::Discrete => TrackData::Discrete(DiscreteTrack {
                keyframes: Keyframes {
                    times: keys.times,
                    values: keys.values,
                },
            }),
            TrackType::Curve => {
                let n = keys.times.len();
                if keys.with_tangents != 0 && keys.with_tangents != n {
                    return Err(keys_at.error(
                        "tangents on every keyframe or on none",
                        format_args!("{} of {n} with them", keys.with_tangents),
                    ));
                }
                let mut interpolation = Interpolations::canonical(keys.interpolations.clone());
                if per_key {
                    interpolation = Interpolations::PerKeyframe(keys.interpolations);
                } else if let Some(shared) = shared.filter(|_| n == 0) {
                    const EXPECTED: &str = "Hold, Linear, Tangent or CubicBezier";
                    let at = self.at.member("data.sharedInterpolation");
                    let i = shared
                        .as_str()
                        .and_then(Interpolation::from_name)
                        .ok_or_else(|| at.error(EXPECTED, &shared))?;
                    interpolation = Interpolations::Shared(i);
                }
                let tangents = (keys.with_tangents > 0 || tangents).then_some(Tangents {
                    left: keys.left,
                    right: keys.right,
                });
                TrackData::Curve(CurveTrack {
                    interpolation,
                    keyframes: Keyframes {
                        times: keys.times,
                        values: keys.values,
                    },
                    tangents,
                })
            }
        };
        Ok((node, property, data))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.at.error("a member \"data\" that is an object", "an array"))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Err(self.at.error("a member \"data\" that is an object", v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Err(self.at.error("a member \"data\" that is an object", v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Err(self.at.error("a member \"data\" that is an object", v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Err(self.at.error("a member \"data\" that is an object", v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Err(self
            .at
            .error("a member \"data\" that is an object", format_args!("{v:?}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self.at.error("a member \"data\" that is an object", "null"))
    }
}

/// The columns a track's `keyframes` fill.
struct Keys {
    times: Vec<f32>,
    values: Values,
    interpolations: Vec<Interpolation>,
    left: Values,
    right: Values,
    /// How many keyframes had tangents.
    with_tangents: usize,
}

/// A track's `keyframes` array, read into columns of its value type.
struct KeysSeed<'a> {
    at: &'a At<'a>,
    kind: TrackType,
    value_type: ValueType,
}

impl<'de> DeserializeSeed<'de> for KeysSeed<'_> {
    type Value = Keys;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Keys, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeysSeed<'_> {
    type Value = Keys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Keys, A::Error> {
        let mut keys = Keys {
            times: Vec::new(),
            values: self.value_type.empty_values(),
            interpolations: Vec::new(),
            left: self.value_type.empty_values(),
            right: self.value_type.empty_values(),
            with_tangents: 0,
        };
        for i in 0.. {
            let at = self.at.index(i);
            let more = match self.kind {
                TrackType::Raw => {
                    let value_at = at.member("value");
                    let seed = Push {
                        column: &mut keys.values,
                        at: &value_at,
                        wrapped: true,
                    };
                    seq.next_element_seed(seed)?
                }
                kind => seq.next_element_seed(KeySeed {
                    at: &at,
                    curve: kind == TrackType::Curve,
                    keys: &mut keys,
                })?,
            };
            if more.is_none() {
                break;
            }
        }
        Ok(keys)
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Keys, A::Error> {
        Err(self.at.error("an array", "an object"))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Keys, E> {
        Err(self.at.error("an array", v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Keys, E> {
        Err(self.at.error("an array", v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Keys, E> {
        Err(self.at.error("an array", v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Keys, E> {
        Err(self.at.error("an array", v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Keys, E> {
        Err(self.at.error("an array", format_args!("{v:?}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Keys, E> {
        Err(self.at.error("an array", "null"))
    }
}

/// Reads one value and appends it to a column.
struct Push<'c, 'a> {
    column: &'c mut Values,
    at: &'a At<'a>,
    wrapped: bool,
}

impl<'de> DeserializeSeed<'de> for Push<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.column.push_read(deserializer, self.at, self.wrapped)
    }
}

/// One `{time, value}` keyframe of a Discrete track, or of a Curve track with
/// `interpolation` and optional `leftTangent` and `rightTangent`.
struct KeySeed<'a, 'k> {
    at: &'a At<'a>,
    curve: bool,
    keys: &'k mut Keys,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

const KEY_EXPECTED: &str = "an object with time and value";

impl<'de> Visitor<'de> for KeySeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(KEY_EXPECTED)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        const NAMES: &[&str] = &["time", "value", "interpolation", "leftTangent", "rightTangent"];
        let keys = self.keys;
        let mut seen = [false; 5];
        while let Some(key) = map.next_key_seed(Member(NAMES))? {
            let k = match key {
                Key::Named(k) if k < 2 || self.curve => k,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let at = self.at.member(NAMES[k]);
            if std::mem::replace(&mut seen[k], true) {
                return Err(at.error("one such member", "two"));
            }
            match k {
                0 => keys.times.push(map.next_value_seed(ShapeSeed::<f32>::new(&at, false))?),
                1 => map.next_value_seed(Push {
                    column: &mut keys.values,
                    at: &at,
                    wrapped: false,
                })?,
                2 => {
                    const EXPECTED: &str = "Hold, Linear, Tangent or CubicBezier";
                    let value = map.next_value_seed(ScalarSeed {
                        at: &at,
                        expected: EXPECTED,
                    })?;
                    let interpolation = match &value {
                        Scalar::Str(s) => Interpolation::from_name(s),
                        _ => None,
                    };
                    keys.interpolations
                        .push(interpolation.ok_or_else(|| at.error(EXPECTED, &value))?);
                }
                3 => map.next_value_seed(Push {
                    column: &mut keys.left,
                    at: &at,
                    wrapped: false,
                })?,
                _ => map.next_value_seed(Push {
                    column: &mut keys.right,
                    at: &at,
                    wrapped: false,
                })?,
            }
        }
        if !seen[0] {
            return Err(self.at.member("time").error("a number", "none"));
        }
        if !seen[1] {
            // A missing value is null: a `string` track's "no value", an error for the others.
            let at = self.at.member("value");
            keys.values
                .push_read(&Json::Null, &at, false)
                .map_err(de::Error::custom)?;
        }
        if self.curve {
            if !seen[2] {
                let at = self.at.member("interpolation");
                return Err(at.error("Hold, Linear, Tangent or CubicBezier", "none"));
            }
            match (seen[3], seen[4]) {
                (false, false) => {}
                (true, true) => keys.with_tangents += 1,
                _ => return Err(self.at.error("both leftTangent and rightTangent, or neither", "one")),
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.at.error(KEY_EXPECTED, "an array"))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        Err(self.at.error(KEY_EXPECTED, v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        Err(self.at.error(KEY_EXPECTED, v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        Err(self.at.error(KEY_EXPECTED, v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        Err(self.at.error(KEY_EXPECTED, v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        Err(self.at.error(KEY_EXPECTED, format_args!("{v:?}")))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(self.at.error(KEY_EXPECTED, "null"))
    }
}
