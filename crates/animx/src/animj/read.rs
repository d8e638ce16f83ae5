//! Reading AnimJ: [`from_str`], [`from_slice`] and [`from_value`], and the serde seeds of the
//! top-level object ([`FormSeed`], the dump too) and of each track's `trackType` and
//! `valueType`; a track's `data` is read in `read_data`.

use std::fmt;

use animbin_core::io::line_column_offset;
use animbin_core::{Error, ErrorKind};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;

use super::FORMAT;
use super::read_data::DataSeed;
use crate::json::{At, Key, Member, Scalar, ScalarSeed, next_named};
use crate::layout::{Encoding, Track, TrackData, TrackType};
use crate::model::Animation;
use crate::value::{ShapeSeed, ValueType};

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
