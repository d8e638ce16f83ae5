//! Reading a track's `data` once its kind and value type are known: node, property, a Raw
//! track's interval, a Curve track's interpolation and tangents, and the keyframes, read
//! straight into columns of the track's value type.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;

use crate::json::{At, Key, Member, Scalar, ScalarSeed, next_named};
use crate::layout::{
    CurveTrack, DiscreteTrack, Interpolation, Interpolations, Keyframes, RawTrack, Tangents, TrackData, TrackType,
};
use crate::value::{ShapeSeed, ValueType, Values};

/// A track's `data`, once its kind and value type are known: node, property and body.
pub(super) struct DataSeed<'a> {
    pub(super) at: &'a At<'a>,
    pub(super) kind: TrackType,
    pub(super) value_type: ValueType,
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
