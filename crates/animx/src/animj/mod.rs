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
//!
//! Detection ([`is_animj`]) is here; writing ([`to_value`], [`to_string`]) is in `write`,
//! reading ([`from_str`], [`from_slice`], [`from_value`]) in `read`, which hands each track's
//! `data` and keyframes to `read_data`.
//!
//! [`FloatText::Exact`]: crate::FloatText::Exact

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;

use crate::json::{Key, Member};

mod read;
mod read_data;
mod write;

pub(crate) use read::{FormSeed, Read, content_error};
pub use read::{from_slice, from_str, from_value};
pub(crate) use write::Form;
pub use write::{to_string, to_value, to_value_with, to_writer_pretty};

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
