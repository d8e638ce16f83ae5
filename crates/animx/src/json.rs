//! The serde plumbing that AnimJ and the dump share: where a value sits in the document (for
//! messages), scalars read before their type is checked, and member names read without
//! allocating.
//!
//! Reading goes through serde visitors straight into the typed columns of the model, so no
//! `serde_json::Value` of the document is built; the messages say where a value is, as
//! `tracks[2]: data.keyframes[1].value: a number, found "abc"`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Where a value is in an AnimJ document: a track, then the path inside it
/// (`tracks[2]: data.keyframes[1].value`), as AnimJ errors have always named them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum At<'a> {
    /// A value on its own (no path in messages).
    Value,
    /// The whole document (`$`).
    Root,
    /// Track `n`.
    Track(usize),
    /// A member of the value at the first field (a name may hold a dotted path, `data.node`).
    Member(&'a At<'a>, &'static str),
    /// An item of the array at the first field.
    Index(&'a At<'a>, usize),
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Value => Ok(()),
            At::Root => f.write_str("$"),
            At::Track(n) => write!(f, "tracks[{n}]"),
            At::Member(At::Root | At::Value, name) => f.write_str(name),
            At::Member(parent @ At::Track(_), name) => write!(f, "{parent}: {name}"),
            At::Member(parent, name) => write!(f, "{parent}.{name}"),
            At::Index(parent, n) => write!(f, "{parent}[{n}]"),
        }
    }
}

impl<'a> At<'a> {
    /// The member `name` of this value.
    pub(crate) fn member(&'a self, name: &'static str) -> At<'a> {
        At::Member(self, name)
    }

    /// Item `n` of this array.
    pub(crate) fn index(&'a self, n: usize) -> At<'a> {
        At::Index(self, n)
    }

    /// The error for what is here: `expected`, and what was `found` instead.
    pub(crate) fn error<E: de::Error>(&self, expected: impl fmt::Display, found: impl fmt::Display) -> E {
        match self {
            At::Value => E::custom(format_args!("{expected}, found {found}")),
            _ => E::custom(format_args!("{self}: {expected}, found {found}")),
        }
    }
}

/// One JSON scalar, read before its type is checked.
#[derive(Debug)]
pub(crate) enum Scalar<'de> {
    /// A non-negative integer.
    U64(u64),
    /// A negative integer.
    I64(i64),
    /// A number with a fraction or an exponent.
    F64(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// A string, borrowed from the input where it can be.
    Str(Cow<'de, str>),
}

impl fmt::Display for Scalar<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::U64(n) => write!(f, "{n}"),
            Scalar::I64(n) => write!(f, "{n}"),
            Scalar::F64(x) => write!(f, "{x:?}"),
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Null => f.write_str("null"),
            Scalar::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// Reads one scalar at `at`; an array or object is an error saying `expected`. With
/// `wrapped`, an object `{"time": t, "value": v}` gives `v` (a Raw track's keyframe as an
/// object, which AnimJ accepts).
pub(crate) fn scalar<'de, D: Deserializer<'de>>(
    deserializer: D,
    at: &At<'_>,
    expected: &'static str,
    wrapped: bool,
) -> Result<Scalar<'de>, D::Error> {
    deserializer.deserialize_any(ScalarVisitor { at, expected, wrapped })
}

struct ScalarVisitor<'a> {
    at: &'a At<'a>,
    expected: &'static str,
    wrapped: bool,
}

impl<'de> Visitor<'de> for ScalarVisitor<'_> {
    type Value = Scalar<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expected)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(if v >= 0 { Scalar::U64(v as u64) } else { Scalar::I64(v) })
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Scalar::U64(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Scalar::F64(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Scalar::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Scalar::Str(Cow::Borrowed(v)))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Scalar::Str(Cow::Owned(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.at.error(self.expected, "an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        if !self.wrapped {
            return Err(self.at.error(self.expected, "an object"));
        }
        let seed = ScalarSeed {
            at: self.at,
            expected: self.expected,
        };
        unwrap_value(map, self.at, self.expected, seed)
    }
}

/// Reads the `value` member of a Raw keyframe given as an object with `seed`, ignoring the
/// other members.
pub(crate) fn unwrap_value<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    mut map: A,
    at: &At<'_>,
    expected: impl fmt::Display,
    seed: S,
) -> Result<S::Value, A::Error> {
    let mut seed = Some(seed);
    let mut value = None;
    while let Some(member) = map.next_key_seed(Member(&[]))? {
        match (member, seed.take()) {
            (Key::Value, Some(seed)) => value = Some(map.next_value_seed(seed)?),
            (Key::Value, None) => return Err(at.error("one member \"value\"", "two")),
            (_, rest) => {
                seed = rest;
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
    value.ok_or_else(|| at.error(expected, "an object"))
}

/// [`scalar`] as a seed.
pub(crate) struct ScalarSeed<'a> {
    pub(crate) at: &'a At<'a>,
    pub(crate) expected: &'static str,
}

impl<'de> DeserializeSeed<'de> for ScalarSeed<'_> {
    type Value = Scalar<'de>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        scalar(deserializer, self.at, self.expected, false)
    }
}

/// A member name, as [`Member`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    /// The name at this index of the list.
    Named(usize),
    /// `value`, when the list does not have it (a Raw keyframe given as an object).
    Value,
    /// Any other name.
    Other,
}

/// The index in `names` of the map's next member that `names` lists; the values of other
/// members are skipped. `None` at the end of the map.
pub(crate) fn next_named<'de, A: MapAccess<'de>>(
    map: &mut A,
    names: &[&'static str],
) -> Result<Option<usize>, A::Error> {
    while let Some(key) = map.next_key_seed(Member(names))? {
        match key {
            Key::Named(k) => return Ok(Some(k)),
            Key::Value | Key::Other => {
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
    Ok(None)
}

/// Reads an object member's name as a [`Key`] of a list of names, without allocating.
#[derive(Clone, Copy)]
pub(crate) struct Member<'n>(pub(crate) &'n [&'static str]);

impl<'de> DeserializeSeed<'de> for Member<'_> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for Member<'_> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        Ok(match self.0.iter().position(|name| *name == v) {
            Some(k) => Key::Named(k),
            None if v == "value" => Key::Value,
            None => Key::Other,
        })
    }
}
