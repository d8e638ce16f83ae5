//! The JSON form of DMF 1.5 (`{"format": "DASH", "version": "1.5", ...}`), read and written.
//!
//! One object per file with the arrays `textures`, `materials`, `vertices`, `faces`,
//! `skeleton` and `animations`, as the DMF 1.5 specification describes them: textures carry their PNG as a
//! `data:image/png;base64,` URI, enums are written by their spec names (an integer is read
//! too), face colours are `"rgba(R, G, B, A)"` strings with A the alpha byte / 255, and an
//! animation track has `pos`, `rot` and `scl` exactly when its prs flag is set.
//!
//! Decisions, from the spec: the writer spells `vertices` and `vertex_color`; the reader also
//! accepts the documentation's `verterices` and `verex_color`. Floats are written in their
//! shortest form that reads back to the same `f32`, so a canonical binary file goes to JSON and
//! back byte for byte.
//!
//! What the specified form cannot hold is refused when writing, with the record named: a NaN
//! or infinite float, a name without a NUL or not in UTF-8, `prs_flags` with bits above bit
//! 2. It also has no place for the records' `nop` bytes, for bytes after a name's NUL, nor for
//! the values of a transform whose prs flag is clear: [`write()`] leaves them out (they read
//! back as zero, which is what the canonical layout holds there). A `u16` boolean other than
//! 0/1 is written as its integer (and read back).
//!
//! The dump's value ([`to_value`](crate::json::to_value)) keeps every byte instead, with
//! members only a dump has, written only where needed: such floats as strings (`"NaN"`,
//! `"Infinity"`, `"-Infinity"`, `"nan:0x"` and the bits of any other NaN); a name that is
//! more than its text as `{"bytes": "<64 hex digits>"}`; nonzero unused bytes as a `nop`
//! member in hex; and a track whose flags or unset transforms the form cannot say with
//! `prs_flags` and all three transforms. The reader takes all of them in either form.

use std::fmt;
use std::io::Write;
use std::marker::PhantomData;

use animbin_core::float::DumpScalar;
use animbin_core::io::line_column_offset;
use animbin_core::math::{Quat, Rgba, Rgba8, Vec2, Vec3};
use animbin_core::{Error, ErrorKind, Result};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::ser::{self, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use zerocopy::IntoBytes;
use zerocopy::little_endian::{F32, I16, U16, U32};

use crate::FORMAT;
use crate::layout::{
    BlendEquation, BlendFactor, Bone, Bool16, Face, Name, PrsFlags, ShaderType, Side, Track, Vertex, Wrap, hex,
};
use crate::model::{Animation, Dmf, Material, Texture};
use crate::write::Counting;

/// The `format` member's value.
pub const JSON_FORMAT: &str = "DASH";
/// The `version` member the writer puts.
pub const JSON_VERSION: &str = "1.5";
/// The prefix of a texture's `img` data URI.
pub const PNG_DATA_URI: &str = "data:image/png;base64,";

/// Which JSON form is written: the specified one, or animbin's dump, which also keeps what
/// the specified form has no place for.
trait Form {
    /// Whether every byte of the model is kept: names that are more than their text, `nop`
    /// bytes, `prs_flags` bits above bit 2 and the transforms those flags leave unset.
    const KEEPS_EVERY_BYTE: bool;

    /// Writes `value`, which is not finite.
    fn non_finite<S: Serializer>(value: f32, serializer: S) -> Result<S::Ok, S::Error>;
}

/// The specified JSON form: such a float is refused, since JSON has none.
struct Spec;

impl Form for Spec {
    const KEEPS_EVERY_BYTE: bool = false;

    fn non_finite<S: Serializer>(value: f32, _: S) -> Result<S::Ok, S::Error> {
        Err(ser::Error::custom(format!("{value} is a float that JSON cannot hold")))
    }
}

/// animbin's dump: such a float is a string ([`animbin_core::float`]), so the dump keeps it.
struct Dump;

impl Form for Dump {
    const KEEPS_EVERY_BYTE: bool = true;

    fn non_finite<S: Serializer>(value: f32, serializer: S) -> Result<S::Ok, S::Error> {
        value.serialize_dump(serializer)
    }
}

/// An `f32` of the JSON form, written as its form `F` says. Reading takes a number or one of
/// [`animbin_core::float`]'s strings, whatever `F` is.
struct J32<F = Spec>(f32, PhantomData<F>);

impl<F> J32<F> {
    fn new(value: f32) -> Self {
        Self(value, PhantomData)
    }
}

impl<F: Form> Serialize for J32<F> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            serializer.serialize_f32(self.0)
        } else {
            F::non_finite(self.0, serializer)
        }
    }
}

impl<'de, F> Deserialize<'de> for J32<F> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f32::deserialize_dump(deserializer).map(J32::new)
    }
}

fn j32s<F, const N: usize>(values: [F32; N]) -> [J32<F>; N] {
    values.map(|v| J32::new(v.get()))
}

fn f32s<F, const N: usize>(values: [J32<F>; N]) -> [F32; N] {
    values.map(|v| F32::new(v.0))
}

/// A name of the JSON form: its text. In a dump, a name whose 32 bytes are more than its text
/// padded with NULs (no NUL, not UTF-8, bytes after the NUL) is `{"bytes": "<64 hex digits>"}`
/// instead; reading takes either, whatever `F` is.
struct JName<F = Spec>(Name, PhantomData<F>);

impl<F> JName<F> {
    fn new(name: Name) -> Self {
        Self(name, PhantomData)
    }
}

impl<F: Form> Serialize for JName<F> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let as_text = self.0.as_str().ok().and_then(|text| Name::new(text).ok());
        if F::KEEPS_EVERY_BYTE && as_text != Some(self.0) {
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry("bytes", &hex(&self.0.0))?;
            return map.end();
        }
        self.0.serialize(serializer)
    }
}

impl<'de, F> Deserialize<'de> for JName<F> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a name (or {\"bytes\": its 32 bytes in hex})")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Name, E> {
                Name::new(s).map_err(E::custom)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Name, A::Error> {
                let mut bytes = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key != "bytes" {
                        return Err(de::Error::unknown_field(&key, &["bytes"]));
                    }
                    let text = map.next_value::<std::borrow::Cow<'de, str>>()?;
                    bytes = Some(
                        unhex::<32>(&text)
                            .ok_or_else(|| de::Error::invalid_value(Unexpected::Str(&text), &"64 hex digits"))?,
                    );
                }
                bytes.map(Name).ok_or_else(|| de::Error::missing_field("bytes"))
            }
        }
        deserializer.deserialize_any(V).map(JName::new)
    }
}

/// Exactly `N` bytes from `2 * N` hex digits.
fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let digits = text.as_bytes();
    if digits.len() != 2 * N || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut out = [0; N];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// A record's unused bytes, in a dump only and only when not all zero, as hex digits.
#[derive(Clone, Copy)]
struct Nop<const N: usize>([u8; N]);

impl<const N: usize> Nop<N> {
    /// The bytes a form `F` writes: `None` (the member left out) unless a dump needs them.
    fn kept<F: Form>(bytes: [u8; N]) -> Option<Self> {
        (F::KEEPS_EVERY_BYTE && bytes != [0; N]).then_some(Self(bytes))
    }

    /// The stored bytes of a member that may be absent (zeros, as the canonical layout has).
    fn bytes(nop: Option<Self>) -> [u8; N] {
        nop.map_or([0; N], |n| n.0)
    }
}

impl<const N: usize> Serialize for Nop<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&hex(&self.0))
    }
}

impl<'de, const N: usize> Deserialize<'de> for Nop<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        unhex::<N>(&text)
            .map(Nop)
            .ok_or_else(|| de::Error::invalid_value(Unexpected::Str(&text), &"the unused bytes in hex"))
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.has_nul() {
            return Err(ser::Error::custom(format!("name {self:?} has no NUL in its 32 bytes")));
        }
        serializer.serialize_str(self.as_str().map_err(ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Name::new(&s).map_err(de::Error::custom)
    }
}

impl Serialize for Bool16 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_bool() {
            Some(b) => serializer.serialize_bool(b),
            None => serializer.serialize_u16(self.get()),
        }
    }
}

impl<'de> Deserialize<'de> for Bool16 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Bool16;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a boolean (or its u16 value)")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Bool16, E> {
                Ok(b.into())
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Bool16, E> {
                u16::try_from(n)
                    .map(|v| Bool16(U16::new(v)))
                    .map_err(|_| E::invalid_value(Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Bool16, E> {
                u16::try_from(n)
                    .map(|v| Bool16(U16::new(v)))
                    .map_err(|_| E::invalid_value(Unexpected::Signed(n), &self))
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// A face corner's colour as the spec's `"rgba(R, G, B, A)"` string.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CssRgba(Rgba8);

impl CssRgba {
    /// The alpha byte / 255 with three decimals (trailing zeros dropped), which is enough for
    /// `round(A * 255)` to give the byte back: the decimals move it by at most 0.0005 * 255.
    fn alpha_text(alpha: u8) -> String {
        let text = format!("{:.3}", f64::from(alpha) / 255.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        text.to_string()
    }

    fn parse(text: &str) -> Option<Rgba8> {
        let text = text.trim();
        let (inner, has_alpha) = if let Some(rest) = text.strip_prefix("rgba(") {
            (rest.strip_suffix(')')?, true)
        } else {
            (text.strip_prefix("rgb(")?.strip_suffix(')')?, false)
        };
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        let channel = |s: &str| s.parse::<u8>().ok();
        match (parts.as_slice(), has_alpha) {
            ([r, g, b, a], true) => {
                let a: f64 = a.parse().ok()?;
                if !(0.0..=1.0).contains(&a) {
                    return None;
                }
                Some(Rgba::new(
                    channel(r)?,
                    channel(g)?,
                    channel(b)?,
                    (a * 255.0).round() as u8,
                ))
            }
            ([r, g, b], false) => Some(Rgba::new(channel(r)?, channel(g)?, channel(b)?, 255)),
            _ => None,
        }
    }
}

impl Serialize for CssRgba {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Rgba { r, g, b, a } = self.0;
        serializer.collect_str(&format_args!("rgba({r}, {g}, {b}, {})", Self::alpha_text(a)))
    }
}

impl<'de> Deserialize<'de> for CssRgba {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Self::parse(&s).map(CssRgba).ok_or_else(|| {
            de::Error::invalid_value(
                Unexpected::Str(&s),
                &"\"rgba(R, G, B, A)\" with bytes R G B and A in 0..=1",
            )
        })
    }
}

/// A texture's PNG as a base64 data URI.
#[derive(Debug, Clone, PartialEq)]
struct DataUri(Vec<u8>);

impl Serialize for DataUri {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut uri = String::with_capacity(PNG_DATA_URI.len() + self.0.len().div_ceil(3) * 4);
        uri.push_str(PNG_DATA_URI);
        BASE64.encode_string(&self.0, &mut uri);
        serializer.serialize_str(&uri)
    }
}

impl<'de> Deserialize<'de> for DataUri {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        // Any media type reads; the spec says images are always PNG and `validate` checks the bytes.
        let data = s
            .strip_prefix("data:")
            .and_then(|rest| rest.split_once(";base64,"))
            .map(|(_, data)| data)
            .ok_or_else(|| de::Error::invalid_value(Unexpected::Str(&s), &"a \"data:image/png;base64,...\" URI"))?;
        BASE64
            .decode(data)
            .map(DataUri)
            .map_err(|e| de::Error::custom(format!("the image's base64 is invalid: {e}")))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "F: Form")]
struct JsonTexture<F = Spec> {
    id: i16,
    name: JName<F>,
    flip_y: Bool16,
    img: DataUri,
    width: u16,
    height: u16,
    wrap_s: Wrap,
    wrap_t: Wrap,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nop: Option<Nop<12>>,
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "F: Form")]
struct JsonMaterial<F = Spec> {
    id: i16,
    name: JName<F>,
    texture: i16,
    use_blending: Bool16,
    blend_equation: BlendEquation,
    blend_src: BlendFactor,
    blend_dst: BlendFactor,
    skinning: Bool16,
    shader_type: ShaderType,
    face_side: Side,
    shadow_side: Side,
    ignore_lights: Bool16,
    vertex_color: Bool16,
    use_alpha: Bool16,
    skip_render: Bool16,
    alpha_test: J32<F>,
    diffuse: [J32<F>; 4],
    emissive: [J32<F>; 4],
    specular: [J32<F>; 4],
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "F: Form")]
struct JsonVertex<F = Spec> {
    pos: [J32<F>; 3],
    skin_index: [i16; 4],
    skin_weight: [J32<F>; 4],
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "F: Form")]
struct JsonFace<F = Spec> {
    material: u16,
    indices: [u32; 3],
    #[serde(alias = "verex_color")]
    vertex_color: [CssRgba; 3],
    normals: [[J32<F>; 3]; 3],
    diffuse_uv: [[J32<F>; 2]; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nop: Option<Nop<2>>,
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "F: Form")]
struct JsonBone<F = Spec> {
    name: JName<F>,
    id: i16,
    parent_id: i16,
    matrix: [J32<F>; 16],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nop: Option<Nop<12>>,
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "F: Form")]
struct JsonTrack<F = Spec> {
    bone_id: i16,
    /// In a dump only, for a track whose flags have bits above bit 2 or whose unset
    /// transforms hold more than zeros: then every transform is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    prs_flags: Option<i16>,
    time: J32<F>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pos: Option<[J32<F>; 3]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rot: Option<[J32<F>; 4]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scl: Option<[J32<F>; 3]>,
}

#[derive(Deserialize)]
struct JsonAnimation {
    id: i16,
    name: JName,
    fps: u16,
    duration: J32,
    #[serde(default)]
    tracks: Vec<JsonTrack>,
}

/// The top level as read; every array may be missing (empty).
#[derive(Deserialize)]
struct JsonFile {
    format: String,
    version: String,
    #[serde(default)]
    textures: Vec<JsonTexture>,
    #[serde(default)]
    materials: Vec<JsonMaterial>,
    #[serde(default, alias = "verterices")]
    vertices: Vec<JsonVertex>,
    #[serde(default)]
    faces: Vec<JsonFace>,
    #[serde(default)]
    skeleton: Vec<JsonBone>,
    #[serde(default)]
    animations: Vec<JsonAnimation>,
}

impl<F: Form> From<&Texture> for JsonTexture<F> {
    fn from(t: &Texture) -> Self {
        Self {
            id: t.id,
            name: JName::new(t.name),
            flip_y: t.flip_y,
            img: DataUri(t.png.clone()),
            width: t.width,
            height: t.height,
            wrap_s: t.wrap_s,
            wrap_t: t.wrap_t,
            nop: Nop::kept::<F>(t.nop),
        }
    }
}

impl<F> From<JsonTexture<F>> for Texture {
    fn from(t: JsonTexture<F>) -> Self {
        Self {
            id: t.id,
            name: t.name.0,
            flip_y: t.flip_y,
            width: t.width,
            height: t.height,
            wrap_s: t.wrap_s,
            wrap_t: t.wrap_t,
            nop: Nop::bytes(t.nop),
            png: t.img.0,
        }
    }
}

impl<F> From<&Material> for JsonMaterial<F> {
    fn from(m: &Material) -> Self {
        let j = |v: [f32; 4]| v.map(J32::new);
        Self {
            id: m.id,
            name: JName::new(m.name),
            texture: m.texture,
            use_blending: m.use_blending,
            blend_equation: m.blend_equation,
            blend_src: m.blend_src,
            blend_dst: m.blend_dst,
            skinning: m.skinning,
            shader_type: m.shader_type,
            face_side: m.face_side,
            shadow_side: m.shadow_side,
            ignore_lights: m.ignore_lights,
            vertex_color: m.vertex_color,
            use_alpha: m.use_alpha,
            skip_render: m.skip_render,
            alpha_test: J32::new(m.alpha_test),
            diffuse: j([m.diffuse.r, m.diffuse.g, m.diffuse.b, m.diffuse.a]),
            emissive: j(m.emissive),
            specular: j(m.specular),
        }
    }
}

impl<F> From<JsonMaterial<F>> for Material {
    fn from(m: JsonMaterial<F>) -> Self {
        let f = |v: [J32<F>; 4]| v.map(|x| x.0);
        let [r, g, b, a] = f(m.diffuse);
        Self {
            id: m.id,
            name: m.name.0,
            texture: m.texture,
            use_blending: m.use_blending,
            blend_equation: m.blend_equation,
            blend_src: m.blend_src,
            blend_dst: m.blend_dst,
            skinning: m.skinning,
            shader_type: m.shader_type,
            face_side: m.face_side,
            shadow_side: m.shadow_side,
            ignore_lights: m.ignore_lights,
            vertex_color: m.vertex_color,
            use_alpha: m.use_alpha,
            skip_render: m.skip_render,
            alpha_test: m.alpha_test.0,
            diffuse: Rgba::new(r, g, b, a),
            emissive: f(m.emissive),
            specular: f(m.specular),
        }
    }
}

impl<F> From<&Vertex> for JsonVertex<F> {
    fn from(v: &Vertex) -> Self {
        Self {
            pos: j32s([v.pos.x, v.pos.y, v.pos.z]),
            skin_index: v.skin_index.map(I16::get),
            skin_weight: j32s(v.skin_weight),
        }
    }
}

impl<F> From<JsonVertex<F>> for Vertex {
    fn from(v: JsonVertex<F>) -> Self {
        let [x, y, z] = f32s(v.pos);
        Self {
            pos: Vec3::new(x, y, z),
            skin_index: v.skin_index.map(I16::new),
            skin_weight: f32s(v.skin_weight),
        }
    }
}

impl<F: Form> From<&Face> for JsonFace<F> {
    fn from(f: &Face) -> Self {
        Self {
            material: f.mat_id.get(),
            indices: f.indices.map(U32::get),
            vertex_color: f.colors.map(CssRgba),
            normals: f.normals.map(|n| j32s([n.x, n.y, n.z])),
            diffuse_uv: f.uvs.map(|uv| j32s([uv.x, uv.y])),
            nop: Nop::kept::<F>(f.nop.to_bytes()),
        }
    }
}

impl<F> From<JsonFace<F>> for Face {
    fn from(f: JsonFace<F>) -> Self {
        Self {
            mat_id: U16::new(f.material),
            nop: U16::from_bytes(Nop::bytes(f.nop)),
            indices: f.indices.map(U32::new),
            colors: f.vertex_color.map(|c| c.0),
            normals: f.normals.map(|n| {
                let [x, y, z] = f32s(n);
                Vec3::new(x, y, z)
            }),
            uvs: f.diffuse_uv.map(|uv| {
                let [x, y] = f32s(uv);
                Vec2::new(x, y)
            }),
        }
    }
}

impl<F: Form> From<&Bone> for JsonBone<F> {
    fn from(b: &Bone) -> Self {
        Self {
            name: JName::new(b.name),
            id: b.bone_id.get(),
            parent_id: b.parent_id.get(),
            matrix: j32s(b.matrix),
            nop: Nop::kept::<F>(b.nop),
        }
    }
}

impl<F> From<JsonBone<F>> for Bone {
    fn from(b: JsonBone<F>) -> Self {
        Self {
            name: b.name.0,
            bone_id: I16::new(b.id),
            parent_id: I16::new(b.parent_id),
            nop: Nop::bytes(b.nop),
            matrix: f32s(b.matrix),
        }
    }
}

impl<F: Form> JsonTrack<F> {
    fn from_track<E: ser::Error>(t: &Track) -> Result<Self, E> {
        let flags = t.prs_flags.get();
        let canonical = Track {
            time: t.time,
            ..Track::new(t.bone_id.get(), 0.0, t.position(), t.rotation(), t.scale())
        };
        if F::KEEPS_EVERY_BYTE && canonical.as_bytes() != t.as_bytes() {
            let v3 = |v: Vec3<F32>| [v.x, v.y, v.z].map(|c| J32::new(c.get()));
            return Ok(Self {
                bone_id: t.bone_id.get(),
                prs_flags: Some(flags),
                time: J32::new(t.time.get()),
                pos: Some(v3(t.pos)),
                rot: Some([t.rot.x, t.rot.y, t.rot.z, t.rot.w].map(|c| J32::new(c.get()))),
                scl: Some(v3(t.scl)),
            });
        }
        if !PrsFlags::all().contains(t.flags()) {
            return Err(E::custom(format!(
                "prs_flags {flags:#x} has bits above bit 2, which JSON cannot hold"
            )));
        }
        Ok(Self {
            bone_id: t.bone_id.get(),
            prs_flags: None,
            time: J32::new(t.time.get()),
            pos: t.position().map(|p| [p.x, p.y, p.z].map(J32::new)),
            rot: t.rotation().map(|r| [r.x, r.y, r.z, r.w].map(J32::new)),
            scl: t.scale().map(|s| [s.x, s.y, s.z].map(J32::new)),
        })
    }
}

impl<F> From<JsonTrack<F>> for Track {
    fn from(t: JsonTrack<F>) -> Self {
        let v3 = |v: [J32<F>; 3]| Vec3::new(v[0].0, v[1].0, v[2].0);
        if let Some(flags) = t.prs_flags {
            // A dump's exact track: every transform as stored, unset ones too.
            let f32s3 = |v: Option<[J32<F>; 3]>| v.map_or(Vec3::default(), v3).map(F32::new);
            return Track {
                bone_id: I16::new(t.bone_id),
                prs_flags: I16::new(flags),
                time: F32::new(t.time.0),
                pos: f32s3(t.pos),
                rot: t
                    .rot
                    .map_or(Quat::default(), |r| Quat::new(r[0].0, r[1].0, r[2].0, r[3].0))
                    .map(F32::new),
                scl: f32s3(t.scl),
            };
        }
        Track::new(
            t.bone_id,
            t.time.0,
            t.pos.map(v3),
            t.rot.map(|r| Quat::new(r[0].0, r[1].0, r[2].0, r[3].0)),
            t.scl.map(v3),
        )
    }
}

/// Serializes `items` as a JSON array, naming the item (`"vertex 12: ..."`) in any error.
fn seq<'a, S, T, J>(
    serializer: S,
    items: &'a [T],
    noun: &str,
    to_json: impl Fn(&'a T) -> Result<J, S::Error>,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    J: Serialize,
{
    let mut seq = serializer.serialize_seq(Some(items.len()))?;
    for (i, item) in items.iter().enumerate() {
        let json = to_json(item).map_err(|e| ser::Error::custom(format!("{noun} {i}: {e}")))?;
        seq.serialize_element(&json)
            .map_err(|e| ser::Error::custom(format!("{noun} {i}: {e}")))?;
    }
    seq.end()
}

/// Serializes a slice with a conversion per item, without collecting the converted items.
struct Items<'a, T, J> {
    items: &'a [T],
    noun: &'static str,
    to_json: fn(&'a T) -> J,
}

impl<'a, T, J: Serialize> Serialize for Items<'a, T, J> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        seq(serializer, self.items, self.noun, |item: &'a T| {
            Ok((self.to_json)(item))
        })
    }
}

struct Tracks<'a, F>(&'a [Track], PhantomData<F>);

impl<F: Form> Serialize for Tracks<'_, F> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        seq(serializer, self.0, "track", JsonTrack::<F>::from_track)
    }
}

#[derive(Serialize)]
#[serde(bound = "F: Form")]
struct JsonAnimationOut<'a, F> {
    id: i16,
    name: JName<F>,
    fps: u16,
    duration: J32<F>,
    tracks: Tracks<'a, F>,
}

/// A borrowed [`Dmf`] in the JSON form's member order, its floats written as `F` says.
struct JsonDmf<'a, F>(&'a Dmf, PhantomData<F>);

impl<F: Form> Serialize for JsonDmf<'_, F> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let dmf = self.0;
        let mut s = serializer.serialize_struct("Dmf", 8)?;
        s.serialize_field("format", JSON_FORMAT)?;
        s.serialize_field("version", JSON_VERSION)?;
        s.serialize_field(
            "textures",
            &Items {
                items: &dmf.textures,
                noun: "texture",
                to_json: JsonTexture::<F>::from,
            },
        )?;
        s.serialize_field(
            "materials",
            &Items {
                items: &dmf.materials,
                noun: "material",
                to_json: JsonMaterial::<F>::from,
            },
        )?;
        s.serialize_field(
            "vertices",
            &Items {
                items: &dmf.vertices,
                noun: "vertex",
                to_json: JsonVertex::<F>::from,
            },
        )?;
        s.serialize_field(
            "faces",
            &Items {
                items: &dmf.faces,
                noun: "face",
                to_json: JsonFace::<F>::from,
            },
        )?;
        s.serialize_field(
            "skeleton",
            &Items {
                items: &dmf.bones,
                noun: "bone",
                to_json: JsonBone::<F>::from,
            },
        )?;
        s.serialize_field(
            "animations",
            &Items {
                items: &dmf.animations,
                noun: "animation",
                to_json: |a: &Animation| JsonAnimationOut::<F> {
                    id: a.id,
                    name: JName::new(a.name),
                    fps: a.fps,
                    duration: J32::new(a.duration),
                    tracks: Tracks(&a.tracks, PhantomData),
                },
            },
        )?;
        s.end()
    }
}

impl From<JsonFile> for Dmf {
    fn from(file: JsonFile) -> Self {
        Self {
            textures: file.textures.into_iter().map(Texture::from).collect(),
            materials: file.materials.into_iter().map(Material::from).collect(),
            vertices: file.vertices.into_iter().map(Vertex::from).collect(),
            faces: file.faces.into_iter().map(Face::from).collect(),
            bones: file.skeleton.into_iter().map(Bone::from).collect(),
            animations: file
                .animations
                .into_iter()
                .map(|a| Animation {
                    id: a.id,
                    name: a.name.0,
                    fps: a.fps,
                    duration: a.duration.0,
                    tracks: a.tracks.into_iter().map(Track::from).collect(),
                })
                .collect(),
        }
    }
}

/// Writes `dmf` as pretty-printed JSON (two-space indent, no trailing newline).
///
/// An error's offset is where the JSON output stopped; its message names the record.
pub fn write<W: Write>(dmf: &Dmf, writer: W) -> Result<()> {
    write_form::<Spec, W>(dmf, writer)
}

fn write_form<F: Form, W: Write>(dmf: &Dmf, writer: W) -> Result<()> {
    let mut out = Counting { inner: writer, pos: 0 };
    let result = serde_json::to_writer_pretty(&mut out, &JsonDmf::<F>(dmf, PhantomData));
    result.map_err(|e| {
        let kind = if e.is_io() {
            ErrorKind::Io(e.into())
        } else {
            ErrorKind::Unencodable(e.to_string())
        };
        Error::new(FORMAT, out.pos, kind)
    })
}

/// [`write()`] into a new byte vector.
pub fn to_vec(dmf: &Dmf) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write(dmf, &mut out)?;
    Ok(out)
}

/// The JSON form as a [`serde_json::Value`], as `animbin dump` prints it: the form
/// [`write()`] writes, except that a float JSON numbers cannot hold (NaN, an infinity) is
/// the string [`animbin_core::float`] gives it (`"NaN"`, `"Infinity"`, `"nan:0x7fc00001"`)
/// instead of refused, so every file dumps. [`read`] and [`from_value`] take those strings.
///
/// Made from the JSON text, so each float is the `f64` nearest to its short `f32` text and
/// prints back as that text (not as the `f32`'s exact, longer, decimal expansion).
pub fn to_value(dmf: &Dmf) -> Result<serde_json::Value> {
    let mut text = Vec::new();
    write_form::<Dump, _>(dmf, &mut text)?;
    serde_json::from_slice(&text).map_err(|e| Error::new(FORMAT, 0, ErrorKind::invalid("JSON", e)))
}

/// A [`Dmf`] in the dump's form, for serialising inside another document (as `animbin dump`
/// does) without building a [`serde_json::Value`]: the form [`to_value`] gives.
#[derive(Debug, Clone, Copy)]
pub struct Dumped<'a>(pub &'a Dmf);

impl Serialize for Dumped<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        JsonDmf::<Dump>(self.0, PhantomData).serialize(serializer)
    }
}

/// The JSON form (either one) as read from inside another document; [`Undumped::into_dmf`]
/// checks its `format` and `version` members and gives the model.
pub struct Undumped(JsonFile);

impl<'de> Deserialize<'de> for Undumped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JsonFile::deserialize(deserializer).map(Undumped)
    }
}

impl Undumped {
    /// The model, once `format` is `"DASH"` and `version`'s major version is 1.
    pub fn into_dmf(self) -> Result<Dmf> {
        from_file(self.0, 0)
    }
}

fn from_file(file: JsonFile, at: u64) -> Result<Dmf> {
    if file.format != JSON_FORMAT {
        return Err(Error::new(
            FORMAT,
            at,
            ErrorKind::invalid("\"format\": \"DASH\"", format!("\"{}\"", file.format)),
        ));
    }
    let major = file.version.split('.').next().unwrap_or("");
    if major != "1" {
        return Err(Error::new(
            FORMAT,
            at,
            ErrorKind::invalid(
                "a \"version\" of major version 1 (\"1.5\")",
                format!("\"{}\"", file.version),
            ),
        ));
    }
    Ok(file.into())
}

/// Reads the JSON form. Errors carry the byte offset serde_json stopped at.
pub fn read(bytes: &[u8]) -> Result<Dmf> {
    let file: JsonFile = serde_json::from_slice(bytes).map_err(|e| {
        let at = line_column_offset(bytes, e.line(), e.column());
        let kind = if e.is_eof() {
            ErrorKind::UnexpectedEof {
                expected: format!("the rest of the DMF JSON ({e})"),
            }
        } else {
            ErrorKind::invalid("the DMF JSON form", e)
        };
        Error::new(FORMAT, at, kind)
    })?;
    from_file(file, 0)
}

/// Reads the JSON form from a [`serde_json::Value`] (an `animbin dump`'s `data`).
///
/// A value holds its numbers as `f64`, and rounding such an `f64` to `f32` can miss the `f32`
/// its text meant (f32 `0x15ae43fd`, written `7.038531e-26`, is one), so the value is printed
/// again (an `f64` prints back as the same short text) and read as text, where serde_json
/// parses floats for `f32` fields in single precision. Error offsets are in that text.
pub fn from_value(value: &serde_json::Value) -> Result<Dmf> {
    let text = serde_json::to_vec(value).map_err(|e| Error::new(FORMAT, 0, ErrorKind::invalid("JSON", e)))?;
    read(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alpha_byte_survives_its_text() {
        for a in 0..=255u8 {
            let text = format!("rgba(1, 2, 3, {})", CssRgba::alpha_text(a));
            assert_eq!(CssRgba::parse(&text), Some(Rgba::new(1, 2, 3, a)), "{text}");
        }
        assert_eq!(CssRgba::alpha_text(255), "1");
        assert_eq!(CssRgba::alpha_text(0), "0");
        assert_eq!(CssRgba::alpha_text(128), "0.502");
    }

    #[test]
    fn colour_strings_outside_the_form_are_refused() {
        for bad in [
            "rgba(256, 0, 0, 1)",
            "rgba(0, 0, 0, 1.5)",
            "rgba(0, 0, 0)",
            "#ffffff",
            "rgb(1, 2, 3, 4)",
        ] {
            assert_eq!(CssRgba::parse(bad), None, "{bad}");
        }
        assert_eq!(CssRgba::parse("rgb(1,2,3)"), Some(Rgba::new(1, 2, 3, 255)));
    }
}
