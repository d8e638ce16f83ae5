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

use animbin_core::io::line_column_offset;
use animbin_core::{Error, ErrorKind};
use serde_json::{Map, Value as Json};

use crate::layout::{
    CurveTrack, DiscreteTrack, Encoding, Interpolation, Interpolations, Keyframes, RawTrack, Tangents, Track,
    TrackData, TrackType,
};
use crate::model::Animation;
use crate::value::{Element, FloatText, ValueType, Values};

/// The format name of AnimJ errors.
pub const FORMAT: &str = "animj";

/// Whether `bytes` are AnimJ text: a JSON object (see [`is_animj_value`]). Cheap for
/// binary input: anything whose first non-blank byte is not `{` is refused unparsed.
pub fn is_animj(bytes: &[u8]) -> bool {
    looks_like_json(bytes) && serde_json::from_slice::<Json>(bytes).is_ok_and(|json| is_animj_value(&json))
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
    let num_f32 = |value: f32| value.to_json_with(floats);
    let mut root = Map::new();
    root.insert("name".into(), Json::from(animation.name.as_str()));
    root.insert("globalDuration".into(), num_f32(animation.global_duration));
    if animation.version != 1 {
        root.insert("version".into(), Json::from(animation.version));
    }
    if animation.encoding != Encoding::Plain {
        root.insert("encoding".into(), Json::from(animation.encoding.name()));
    }
    let tracks = animation.tracks.iter().map(|t| track_to_json(t, floats)).collect();
    root.insert("tracks".into(), Json::Array(tracks));
    Json::Object(root)
}

/// The animation as pretty-printed AnimJ text.
pub fn to_string(animation: &Animation) -> Result<String, Error> {
    serde_json::to_string_pretty(&to_value(animation))
        .map_err(|e| Error::new(FORMAT, 0, ErrorKind::Unencodable(e.to_string())))
}

fn values_json(values: &Values, floats: FloatText) -> impl Iterator<Item = Json> + '_ {
    (0..values.len()).map(move |i| values.to_json_with(i, floats).unwrap_or(Json::Null))
}

fn track_to_json(track: &Track, floats: FloatText) -> Json {
    let num_f32 = |value: f32| value.to_json_with(floats);
    let mut data = Map::new();
    data.insert("node".into(), Json::from(track.node.as_str()));
    data.insert("property".into(), Json::from(track.property.as_str()));
    let keyframes: Vec<Json> = match &track.data {
        TrackData::Raw(raw) => {
            data.insert("interval".into(), num_f32(raw.interval));
            values_json(&raw.values, floats).collect()
        }
        TrackData::Discrete(d) => d
            .keyframes
            .times
            .iter()
            .zip(values_json(&d.keyframes.values, floats))
            .map(|(&time, value)| {
                let mut key = Map::new();
                key.insert("time".into(), num_f32(time));
                key.insert("value".into(), value);
                Json::Object(key)
            })
            .collect(),
        TrackData::Curve(c) => {
            let n = c.keyframes.len();
            match &c.interpolation {
                Interpolations::PerKeyframe(all) if Interpolations::canonical(all.clone()) != c.interpolation => {
                    data.insert("perKeyframeInterpolation".into(), Json::Bool(true));
                }
                Interpolations::Shared(i) if n == 0 && *i != Interpolation::Hold => {
                    data.insert("sharedInterpolation".into(), Json::from(i.name()));
                }
                _ => {}
            }
            if n == 0 && c.tangents.is_some() {
                data.insert("tangents".into(), Json::Bool(true));
            }
            let mut left = c.tangents.as_ref().map(|t| values_json(&t.left, floats));
            let mut right = c.tangents.as_ref().map(|t| values_json(&t.right, floats));
            c.keyframes
                .times
                .iter()
                .zip(values_json(&c.keyframes.values, floats))
                .enumerate()
                .map(|(i, (&time, value))| {
                    let mut key = Map::new();
                    key.insert("time".into(), num_f32(time));
                    key.insert("value".into(), value);
                    let interpolation = c.interpolation.get(i).unwrap_or_default();
                    key.insert("interpolation".into(), Json::from(interpolation.name()));
                    if let (Some(l), Some(r)) = (left.as_mut(), right.as_mut()) {
                        key.insert("leftTangent".into(), l.next().unwrap_or(Json::Null));
                        key.insert("rightTangent".into(), r.next().unwrap_or(Json::Null));
                    }
                    Json::Object(key)
                })
                .collect()
        }
    };
    data.insert("keyframes".into(), Json::Array(keyframes));
    let mut out = Map::new();
    out.insert("trackType".into(), Json::from(track.track_type().name()));
    out.insert("valueType".into(), Json::from(track.value_type().name()));
    out.insert("data".into(), Json::Object(data));
    Json::Object(out)
}

/// Reads AnimJ text. Syntax errors give the byte offset; errors in the content name the
/// JSON path (`tracks[2].data.keyframes[1].value`) and have offset 0.
pub fn from_str(text: &str) -> Result<Animation, Error> {
    from_slice(text.as_bytes())
}

/// Reads AnimJ bytes (UTF-8 JSON).
pub fn from_slice(bytes: &[u8]) -> Result<Animation, Error> {
    let json: Json = serde_json::from_slice(bytes).map_err(|e| {
        let offset = line_column_offset(bytes, e.line(), e.column());
        Error::new(FORMAT, offset, ErrorKind::invalid("AnimJ (JSON)", e))
    })?;
    from_value(&json)
}

/// Reads an AnimJ JSON value.
pub fn from_value(json: &Json) -> Result<Animation, Error> {
    let fail = |path: &str, why: String| {
        let (expected, found) = why.split_once(", found ").unwrap_or((&why, "something else"));
        Error::new(FORMAT, 0, ErrorKind::invalid(format!("{path}: {expected}"), found))
    };
    let root = json
        .as_object()
        .ok_or_else(|| fail("$", "an object with name, globalDuration and tracks".into()))?;
    let name = match root.get("name") {
        None | Some(Json::Null) => String::new(),
        Some(Json::String(s)) => s.clone(),
        Some(other) => return Err(fail("name", format!("a string, found {other}"))),
    };
    let version = match root.get("version") {
        None => 1,
        Some(v) => v
            .as_i64()
            .and_then(|v| i32::try_from(v).ok())
            .filter(|v| *v == 0 || *v == 1)
            .ok_or_else(|| fail("version", format!("0 or 1, found {v}")))?,
    };
    let encoding = match root.get("encoding") {
        None => Encoding::Plain,
        Some(e) => e
            .as_str()
            .and_then(Encoding::from_name)
            .ok_or_else(|| fail("encoding", format!("\"plain\", \"lz4\" or \"lzma\", found {e}")))?,
    };
    let tracks_json = root
        .get("tracks")
        .and_then(Json::as_array)
        .ok_or_else(|| fail("tracks", "an array".into()))?;
    let mut tracks = Vec::with_capacity(tracks_json.len());
    for (i, t) in tracks_json.iter().enumerate() {
        let path = format!("tracks[{i}]");
        tracks.push(track_from_json(t).map_err(|why| fail(&path, why))?);
    }
    let global_duration = match root.get("globalDuration") {
        Some(d) => f32::from_json(d).map_err(|why| fail("globalDuration", why))?,
        None => tracks.iter().map(Track::end_time).fold(0.0, f32::max),
    };
    Ok(Animation {
        version,
        name,
        global_duration,
        encoding,
        tracks,
    })
}

fn track_from_json(json: &Json) -> Result<Track, String> {
    let member = |obj: &Map<String, Json>, key: &str| obj.get(key).cloned().ok_or(format!("a member {key:?}"));
    let obj = json.as_object().ok_or("an object with trackType, valueType and data")?;
    let track_type_json = member(obj, "trackType")?;
    let track_type =
        track_type_json
            .as_str()
            .and_then(TrackType::from_name)
            .ok_or_else(|| match track_type_json.as_str() {
                Some("Bezier") => "trackType Raw, Discrete or Curve (Bezier tracks are not supported)".to_string(),
                _ => format!("trackType Raw, Discrete or Curve, found {track_type_json}"),
            })?;
    let value_type_json = member(obj, "valueType")?;
    let value_type = value_type_json
        .as_str()
        .and_then(ValueType::from_name)
        .ok_or_else(|| format!("a valueType such as \"float3\", found {value_type_json}"))?;
    let data = obj
        .get("data")
        .and_then(Json::as_object)
        .ok_or("a member \"data\" that is an object")?;
    let string = |key: &str| match data.get(key) {
        None | Some(Json::Null) => Ok(String::new()),
        Some(Json::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("data.{key}: a string, found {other}")),
    };
    let node = string("node")?;
    let property = string("property")?;
    let keys = data
        .get("keyframes")
        .and_then(Json::as_array)
        .ok_or("data.keyframes: an array")?;
    let value_at = |values: &mut Values, i: usize, v: &Json| {
        values
            .push_json(v)
            .map_err(|why| format!("data.keyframes[{i}].value: {why}"))
    };
    let time_at = |i: usize, key: &Map<String, Json>| {
        key.get("time")
            .ok_or_else(|| format!("data.keyframes[{i}].time: a number"))
            .and_then(|t| f32::from_json(t).map_err(|why| format!("data.keyframes[{i}].time: {why}")))
    };
    let key_object = |i: usize, k: &'_ Json| -> Result<Map<String, Json>, String> {
        k.as_object()
            .cloned()
            .ok_or_else(|| format!("data.keyframes[{i}]: an object with time and value"))
    };
    let data = match track_type {
        TrackType::Raw => {
            let interval = match data.get("interval") {
                Some(i) => f32::from_json(i).map_err(|why| format!("data.interval: {why}"))?,
                None => return Err("data.interval: a number".into()),
            };
            let mut values = value_type.empty_values();
            for (i, k) in keys.iter().enumerate() {
                let v = match k.as_object().and_then(|o| o.get("value")) {
                    Some(v) => v,
                    None => k,
                };
                value_at(&mut values, i, v)?;
            }
            TrackData::Raw(RawTrack { interval, values })
        }
        TrackType::Discrete => {
            let mut times = Vec::with_capacity(keys.len());
            let mut values = value_type.empty_values();
            for (i, k) in keys.iter().enumerate() {
                let key = key_object(i, k)?;
                times.push(time_at(i, &key)?);
                value_at(&mut values, i, key.get("value").unwrap_or(&Json::Null))?;
            }
            TrackData::Discrete(DiscreteTrack {
                keyframes: Keyframes { times, values },
            })
        }
        TrackType::Curve => {
            let mut times = Vec::with_capacity(keys.len());
            let mut values = value_type.empty_values();
            let mut interpolations = Vec::with_capacity(keys.len());
            let mut left = value_type.empty_values();
            let mut right = value_type.empty_values();
            let mut with_tangents = 0;
            for (i, k) in keys.iter().enumerate() {
                let key = key_object(i, k)?;
                times.push(time_at(i, &key)?);
                value_at(&mut values, i, key.get("value").unwrap_or(&Json::Null))?;
                let interpolation = key
                    .get("interpolation")
                    .and_then(Json::as_str)
                    .and_then(Interpolation::from_name)
                    .ok_or_else(|| {
                        format!("data.keyframes[{i}].interpolation: Hold, Linear, Tangent or CubicBezier")
                    })?;
                interpolations.push(interpolation);
                match (key.get("leftTangent"), key.get("rightTangent")) {
                    (None, None) => {}
                    (Some(l), Some(r)) => {
                        left.push_json(l)
                            .map_err(|why| format!("data.keyframes[{i}].leftTangent: {why}"))?;
                        right
                            .push_json(r)
                            .map_err(|why| format!("data.keyframes[{i}].rightTangent: {why}"))?;
                        with_tangents += 1;
                    }
                    _ => {
                        return Err(format!(
                            "data.keyframes[{i}]: both leftTangent and rightTangent, or neither"
                        ));
                    }
                }
            }
            if with_tangents != 0 && with_tangents != keys.len() {
                return Err(format!(
                    "data.keyframes: tangents on every keyframe or on none ({with_tangents} of {} have them)",
                    keys.len()
                ));
            }
            let flag = |key: &str| data.get(key).and_then(Json::as_bool).unwrap_or(false);
            let mut interpolation = Interpolations::canonical(interpolations.clone());
            if flag("perKeyframeInterpolation") {
                interpolation = Interpolations::PerKeyframe(interpolations);
            } else if let Some(shared) = data.get("sharedInterpolation") {
                if keys.is_empty() {
                    interpolation = Interpolations::Shared(
                        shared
                            .as_str()
                            .and_then(Interpolation::from_name)
                            .ok_or("data.sharedInterpolation: Hold, Linear, Tangent or CubicBezier")?,
                    );
                }
            }
            let tangents = (with_tangents > 0 || flag("tangents")).then_some(Tangents { left, right });
            TrackData::Curve(CurveTrack {
                interpolation,
                keyframes: Keyframes { times, values },
                tangents,
            })
        }
    };
    Ok(Track { node, property, data })
}
