//! One way to declare an enum stored as an integer: [`binary_enum!`](crate::binary_enum).

/// Declares an enum stored in a file as an integer (`u8`, `u16` or `u32`), each variant with
/// its value and its name (the name JSON forms, dumps and messages use), listed once.
///
/// ```
/// animbin_core::binary_enum! {
///     /// How a texture coordinate outside 0..1 is handled.
///     #[derive(Default)]
///     pub enum Wrap: u16 {
///         /// Clamp to the edge.
///         #[default]
///         Clamp = 0 => "clamp",
///         /// Mirror every other repeat.
///         Mirror = 1 => "mirror",
///         /// Repeat.
///         Repeat = 2 => "repeat",
///     }
///     serde = names_or_values;
/// }
///
/// assert_eq!(Wrap::ALL, [Wrap::Clamp, Wrap::Mirror, Wrap::Repeat]);
/// assert_eq!(Wrap::from_repr(2), Some(Wrap::Repeat));
/// assert_eq!(Wrap::Mirror.repr(), 1);
/// assert_eq!(Wrap::from_name("mirror"), Some(Wrap::Mirror));
/// assert_eq!(Wrap::Repeat.to_string(), "repeat");
/// assert_eq!(Wrap::expected(), "a Wrap value: 0 (clamp), 1 (mirror), 2 (repeat)");
///
/// // binrw reads the integer in the caller's byte order and refuses a value not listed.
/// use animbin_core::binrw::{BinRead, BinWrite, Endian, io::Cursor};
/// let wrap = Wrap::read_options(&mut Cursor::new([2, 0]), Endian::Little, ()).unwrap();
/// assert_eq!(wrap, Wrap::Repeat);
/// let err = Wrap::read_options(&mut Cursor::new([9, 0]), Endian::Little, ()).unwrap_err();
/// let err = animbin_core::Error::from_binrw("example", err, 2);
/// assert_eq!(err.to_string(), "example at byte 0 (0x0): expected a Wrap value: 0 (clamp), 1 (mirror), 2 (repeat), found 9");
/// let mut bytes = Cursor::new(Vec::new());
/// Wrap::Mirror.write_options(&mut bytes, Endian::Big, ()).unwrap();
/// assert_eq!(bytes.into_inner(), [0, 1]);
///
/// // `serde = names_or_values`: written as the name, read from the name or the value.
/// assert_eq!(serde_json::to_string(&Wrap::Mirror).unwrap(), r#""mirror""#);
/// assert_eq!(serde_json::from_str::<Wrap>("1").unwrap(), Wrap::Mirror);
/// assert!(serde_json::from_str::<Wrap>(r#""tile""#).is_err());
///
/// animbin_core::binary_enum! {
///     /// How the data after the header is stored.
///     pub enum Encoding: u8 {
///         /// As it is.
///         Plain = 0 => "plain",
///         /// LZ4 chunks.
///         Lz4 = 1 => "lz4",
///     }
///     expected = "an encoding 0 (plain) or 1 (LZ4)";
/// }
/// assert_eq!(Encoding::expected(), "an encoding 0 (plain) or 1 (LZ4)");
/// assert_eq!(Encoding::try_from(7).unwrap_err().to_string(), "expected an encoding 0 (plain) or 1 (LZ4), found 7");
/// ```
///
/// The enum gets the attributes and doc comments written on it and on its variants, and
/// always `#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]` and `#[repr(..)]` of its
/// integer type. It gets:
///
/// - `ALL`, every variant in the order listed, and `NAMES`, their names;
/// - `from_repr(value) -> Option<Self>` and `repr(self)`, the stored integer (also as
///   `TryFrom<integer>`, whose error is [`ErrorKind::Invalid`](crate::ErrorKind::Invalid)
///   with `expected()`, and `From<Enum> for integer`);
/// - `name(self)` and `from_name(&str) -> Option<Self>`; `Display` writes the name;
/// - `expected() -> String`, what the format allows, for messages: by default `a NAME value:`
///   and every `value (name)`; the optional `expected = "...";` after the variants replaces it;
/// - binrw `BinRead` and `BinWrite` of the integer in the caller's byte order; reading a
///   value that is not listed is an [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) at the
///   value's offset: `expected {expected()}, found {value}`, the value shown as the optional
///   `found = |value| ...;` (after `expected`) shows it, else in decimal.
///
/// With the optional `serde = ...;` (last; the calling crate then depends on `serde`), it
/// implements serde's `Serialize` as the name and `Deserialize`:
///
/// - `serde = names;` from the name only, as `#[derive(Deserialize)]` reads the same enum
///   with its variants renamed to the names (through `deserialize_enum`, so with the same
///   messages: an unknown name is serde's "unknown variant" error listing the names);
/// - `serde = names_or_values;` from the name or the integer value; anything else is
///   serde's "invalid value" error with `expected()`.
#[macro_export]
macro_rules! binary_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $repr:ident {
            $($(#[$vmeta:meta])* $variant:ident = $value:expr => $text:literal),+ $(,)?
        }
        $(expected = $expected:expr;)?
        $(found = $found:expr;)?
        $(serde = $serde:ident;)?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr($repr)]
        $vis enum $name {
            $($(#[$vmeta])* $variant = $value),+
        }

        impl $name {
            /// Every value, in the order the format lists them.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// Every value's name, in the order of [`Self::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The value stored as `value`, or `None` for a value the format does not list.
            pub const fn from_repr(value: $repr) -> Option<Self> {
                $(if value == Self::$variant as $repr {
                    return Some(Self::$variant);
                })+
                None
            }

            /// The integer stored in the file.
            pub const fn repr(self) -> $repr {
                self as $repr
            }

            /// The name JSON forms and messages use.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }

            /// The value called `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $($text => Some(Self::$variant),)+
                    _ => None,
                }
            }

            /// What the format allows, for error messages.
            pub fn expected() -> String {
                $crate::binary_enum!(@expected $name $(, $expected)?)
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::core::convert::From<$name> for $repr {
            fn from(value: $name) -> $repr {
                value.repr()
            }
        }

        impl ::core::convert::TryFrom<$repr> for $name {
            type Error = $crate::ErrorKind;
            fn try_from(value: $repr) -> ::core::result::Result<Self, $crate::ErrorKind> {
                Self::from_repr(value).ok_or_else(|| {
                    $crate::ErrorKind::invalid(Self::expected(), $crate::binary_enum!(@found value $(, $found)?))
                })
            }
        }

        impl $crate::binrw::BinRead for $name {
            type Args<'a> = ();
            fn read_options<R: $crate::binrw::io::Read + $crate::binrw::io::Seek>(
                reader: &mut R,
                endian: $crate::binrw::Endian,
                (): (),
            ) -> $crate::binrw::BinResult<Self> {
                let pos = reader.stream_position()?;
                let value = <$repr as $crate::binrw::BinRead>::read_options(reader, endian, ())?;
                Self::try_from(value).map_err(|kind| kind.at(pos))
            }
        }

        impl $crate::binrw::BinWrite for $name {
            type Args<'a> = ();
            fn write_options<W: $crate::binrw::io::Write + $crate::binrw::io::Seek>(
                &self,
                writer: &mut W,
                endian: $crate::binrw::Endian,
                (): (),
            ) -> $crate::binrw::BinResult<()> {
                $crate::binrw::BinWrite::write_options(&self.repr(), writer, endian, ())
            }
        }

        $($crate::binary_enum!(@serde $serde $name $repr);)?
    };

    (@expected $name:ident) => {{
        let listed: ::std::vec::Vec<::std::string::String> = Self::ALL
            .iter()
            .map(|v| ::std::format!("{} ({})", v.repr(), v.name()))
            .collect();
        ::std::format!("a {} value: {}", ::core::stringify!($name), listed.join(", "))
    }};
    (@expected $name:ident, $expected:expr) => {
        ::std::string::String::from($expected)
    };

    (@found $value:ident) => {
        $value
    };
    (@found $value:ident, $found:expr) => {
        ($found)($value)
    };

    (@serde names $name:ident $repr:ident) => {
        $crate::binary_enum!(@serialize $name);

        // Read as `#[derive(Deserialize)]` reads a unit-variant enum (through
        // `deserialize_enum` and a variant identifier), so that its messages stay the same.
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                use ::serde::de::{EnumAccess, Error, Unexpected, VariantAccess, Visitor};
                struct Variant($name);
                struct VariantVisitor;
                impl Visitor<'_> for VariantVisitor {
                    type Value = Variant;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str("variant identifier")
                    }
                    fn visit_u64<E: Error>(self, n: u64) -> ::core::result::Result<Variant, E> {
                        usize::try_from(n)
                            .ok()
                            .and_then(|i| $name::ALL.get(i))
                            .map(|&v| Variant(v))
                            .ok_or_else(|| {
                                let range = ::std::format!("variant index 0 <= i < {}", $name::ALL.len());
                                E::invalid_value(Unexpected::Unsigned(n), &range.as_str())
                            })
                    }
                    fn visit_str<E: Error>(self, s: &str) -> ::core::result::Result<Variant, E> {
                        $name::from_name(s)
                            .map(Variant)
                            .ok_or_else(|| E::unknown_variant(s, $name::NAMES))
                    }
                    fn visit_bytes<E: Error>(self, b: &[u8]) -> ::core::result::Result<Variant, E> {
                        let s = ::std::string::String::from_utf8_lossy(b);
                        self.visit_str(&s)
                    }
                }
                impl<'de> ::serde::Deserialize<'de> for Variant {
                    fn deserialize<D: ::serde::Deserializer<'de>>(
                        deserializer: D,
                    ) -> ::core::result::Result<Self, D::Error> {
                        deserializer.deserialize_identifier(VariantVisitor)
                    }
                }
                struct Names;
                impl<'de> Visitor<'de> for Names {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        ::core::write!(f, "enum {}", ::core::stringify!($name))
                    }
                    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> ::core::result::Result<$name, A::Error> {
                        let (Variant(value), variant) = data.variant::<Variant>()?;
                        variant.unit_variant()?;
                        Ok(value)
                    }
                }
                deserializer.deserialize_enum(::core::stringify!($name), $name::NAMES, Names)
            }
        }
    };
    (@serde names_or_values $name:ident $repr:ident) => {
        $crate::binary_enum!(@serialize $name);

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                use ::serde::de::{Error, Unexpected};
                struct NamesOrValues;
                impl ::serde::de::Visitor<'_> for NamesOrValues {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(&$name::expected())
                    }
                    fn visit_str<E: Error>(self, s: &str) -> ::core::result::Result<$name, E> {
                        $name::from_name(s).ok_or_else(|| E::invalid_value(Unexpected::Str(s), &self))
                    }
                    fn visit_u64<E: Error>(self, n: u64) -> ::core::result::Result<$name, E> {
                        <$repr>::try_from(n)
                            .ok()
                            .and_then($name::from_repr)
                            .ok_or_else(|| E::invalid_value(Unexpected::Unsigned(n), &self))
                    }
                    fn visit_i64<E: Error>(self, n: i64) -> ::core::result::Result<$name, E> {
                        <$repr>::try_from(n)
                            .ok()
                            .and_then($name::from_repr)
                            .ok_or_else(|| E::invalid_value(Unexpected::Signed(n), &self))
                    }
                }
                deserializer.deserialize_any(NamesOrValues)
            }
        }
    };
    (@serialize $name:ident) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use binrw::io::Cursor;
    use binrw::{BinRead, Endian};

    crate::binary_enum! {
        /// A sample with named-only serde and values that are not 0, 1, 2.
        pub enum Kind: u32 {
            /// The first.
            First = 0x10 => "first",
            /// The second.
            Second = 0x2000 => "second",
        }
        serde = names;
    }

    #[test]
    fn values_need_not_count_from_zero() {
        assert_eq!(Kind::from_repr(0x2000), Some(Kind::Second));
        assert_eq!(Kind::from_repr(1), None);
        assert_eq!(u32::from(Kind::First), 0x10);
        assert_eq!(Kind::NAMES, ["first", "second"]);
        assert_eq!(Kind::expected(), "a Kind value: 16 (first), 8192 (second)");
        let read = Kind::read_options(&mut Cursor::new([0, 0x20, 0, 0]), Endian::Little, ()).unwrap();
        assert_eq!(read, Kind::Second);
        let read = Kind::read_options(&mut Cursor::new([0, 0, 0x20, 0]), Endian::Big, ()).unwrap();
        assert_eq!(read, Kind::Second);
    }

    #[test]
    fn an_unknown_value_is_refused_where_it_starts() {
        let mut reader = Cursor::new([0xff, 5, 0, 0, 0]);
        reader.set_position(1);
        let err = Kind::read_options(&mut reader, Endian::Little, ()).unwrap_err();
        let err = crate::Error::from_binrw("sample", err, 5);
        assert_eq!(err.offset, 1);
        assert_eq!(
            err.kind.to_string(),
            "expected a Kind value: 16 (first), 8192 (second), found 5"
        );
    }

    crate::binary_enum! {
        /// A sample whose message shows the bytes of an unknown value.
        pub enum Code: u16 {
            /// `b\0`.
            Byte = 0x0062 => "b",
            /// `2v`.
            Vec2 = 0x7632 => "2v",
        }
        expected = "a type (b or 2v)";
        found = |code: u16| {
            let [a, b] = code.to_le_bytes();
            format!("{code:#06x} (bytes {a:#04x} {b:#04x})")
        };
    }

    #[test]
    fn a_message_may_show_the_value_its_own_way() {
        assert_eq!(Code::from_repr(u16::from_le_bytes(*b"2v")), Some(Code::Vec2));
        let err = Code::read_options(&mut Cursor::new(*b"v2"), Endian::Little, ()).unwrap_err();
        assert_eq!(
            crate::Error::from_binrw("sample", err, 2).kind.to_string(),
            "expected a type (b or 2v), found 0x3276 (bytes 0x76 0x32)"
        );
    }

    #[test]
    fn named_serde_reads_names_only_and_says_which_are_known() {
        assert_eq!(serde_json::to_string(&Kind::Second).unwrap(), r#""second""#);
        assert_eq!(serde_json::from_str::<Kind>(r#""first""#).unwrap(), Kind::First);
        let err = serde_json::from_str::<Kind>(r#""third""#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variant `third`, expected `first` or `second` at line 1 column 7"
        );
        assert!(serde_json::from_str::<Kind>("16").is_err());
    }

    /// `Kind` as `#[derive(Deserialize)]` reads it.
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    #[serde(rename = "Kind", rename_all = "lowercase")]
    enum Derived {
        First,
        Second,
    }

    #[test]
    fn named_serde_refuses_what_the_derive_refuses_in_its_words() {
        let texts = [
            r#""first""#,
            r#""third""#,
            "16",
            "null",
            r#"{"second": null}"#,
            r#"{"first": 1}"#,
            r#"{"third": null}"#,
            "[1]",
        ];
        for text in texts {
            let ours = serde_json::from_str::<Kind>(text).map(|v| format!("{v:?}"));
            let derived = serde_json::from_str::<Derived>(text).map(|v| format!("{v:?}"));
            let shown = |r: serde_json::Result<String>| r.map_err(|e| e.to_string());
            assert_eq!(shown(ours), shown(derived), "{text}");
        }
        let value = serde_json::json!({"second": null});
        assert_eq!(serde_json::from_value::<Kind>(value).unwrap(), Kind::Second);
    }
}
