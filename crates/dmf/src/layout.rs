//! The on-disk records of DMF 1.5, each declared once, field by field in the spec's order.
//!
//! Every record is a `#[repr(C)]` struct of little-endian field types from
//! `zerocopy::little_endian` (and core math types over them), with its size asserted at
//! compile time. The same declaration serves three uses: a zero-copy `&[Record]` cast over
//! file bytes ([`crate::View`]), a bulk copy into the owned model (one `memcpy` per section),
//! and binrw reading and writing (each record implements `BinRead` and `BinWrite` by copying
//! its bytes; the field types carry the byte order, so binrw's endian argument does not
//! apply: DMF is little-endian only). Flag fields stay raw integers so the records stay
//! castable; [`Track::flags`] reads `prs_flags` as [`PrsFlags`].

use std::borrow::Cow;
use std::fmt;
use std::io::{Read, Seek, Write};

use animbin_core::math::{Mat4, Quat, Rgba, Rgba8, Vec2, Vec3};
use animbin_core::strings::{decode_padded_name, encode_padded_name};
use animbin_core::{ErrorKind, binary_enum};
use binrw::{BinRead, BinResult, BinWrite, Endian};
use zerocopy::little_endian::{F32, I16, U16, U32};
use zerocopy::{FromBytes, FromZeros, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The file magic, `'DASH'` read as a little-endian u32 (the header's `magic` field); its
/// bytes in file order are [`crate::MAGIC`].
pub const MAGIC_WORD: u32 = 0x4853_4144;
/// The major version this crate reads and writes.
pub const MAJOR_VERSION: u16 = 1;
/// The minor version this crate writes (readers accept any minor version of major 1).
pub const MINOR_VERSION: u16 = 5;
/// The number of attribute entries in a 1.5 file.
pub const ATTRIBUTE_COUNT: u32 = 6;
/// Where the canonical layout puts the attribute table: right after the file header.
pub const ATTRIBUTE_TABLE_OFFSET: u32 = 0x10;

pub(crate) use animbin_core::strings::hex;

/// Bytes from a file as a message shows them ([`animbin_core::strings::show_bytes`]), with
/// the trailing NUL padding of a label dropped when what is left is text.
pub(crate) fn show_bytes(bytes: &[u8]) -> String {
    let text = match bytes.iter().rposition(|&b| b != 0) {
        Some(last) => &bytes[..=last],
        None => bytes,
    };
    let shown = animbin_core::strings::show_bytes(text);
    if shown.starts_with('"') {
        shown
    } else {
        animbin_core::strings::show_bytes(bytes)
    }
}

/// A fixed-size on-disk record of DMF: plain little-endian data, readable in place.
///
/// Implemented by every record type of this crate; the constants size and name the spec's
/// record for the view's bounds checks and its messages.
pub trait Record: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned + Copy {
    /// The record's size in bytes (`size_of::<Self>()`, asserted against the spec).
    const SIZE: usize;
    /// The spec's name for the record, for error messages (`"DashVertex_t"`).
    const SPEC_NAME: &'static str;
}

/// Writes `records` in one piece (their bytes are already in file order).
pub(crate) fn write_records<T: Record, W: Write>(writer: &mut W, records: &[T]) -> std::io::Result<()> {
    writer.write_all(records.as_bytes())
}

/// Implements [`Record`], `BinRead` and `BinWrite` for a record type and asserts its size.
macro_rules! record {
    ($t:ty, $size:expr, $spec:literal) => {
        const _: () = assert!(size_of::<$t>() == $size);

        impl Record for $t {
            const SIZE: usize = $size;
            const SPEC_NAME: &'static str = $spec;
        }

        impl BinRead for $t {
            type Args<'a> = ();
            fn read_options<R: Read + Seek>(reader: &mut R, _: Endian, (): ()) -> BinResult<Self> {
                let mut record = Self::new_zeroed();
                reader.read_exact(record.as_mut_bytes())?;
                Ok(record)
            }
        }

        impl BinWrite for $t {
            type Args<'a> = ();
            fn write_options<W: Write + Seek>(&self, writer: &mut W, _: Endian, (): ()) -> BinResult<()> {
                Ok(write_records(writer, std::slice::from_ref(self))?)
            }
        }
    };
}

/// A `char[0x20]` name field as stored: UTF-8, NUL-padded.
///
/// The spec's rule is at most 31 bytes, so that a NUL always ends the name. [`Name::new`] enforces it; a name read from a file is kept as its 32 bytes,
/// whatever they hold, so that [`crate::validate`] can report one without a NUL or not in
/// UTF-8 and the writer can refuse it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(transparent)]
pub struct Name(pub [u8; 32]);

impl Name {
    /// The field's size in bytes.
    pub const SIZE: usize = 32;

    /// Encodes `name`, refusing one of 32 bytes or more or one that holds a NUL.
    pub fn new(name: &str) -> Result<Self, ErrorKind> {
        encode_padded_name::<32>(name).map(Self)
    }

    /// The bytes before the first NUL (all 32 when there is none).
    pub fn bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(Self::SIZE);
        &self.0[..end]
    }

    /// Whether a NUL ends the name inside its 32 bytes, as the spec requires.
    pub fn has_nul(&self) -> bool {
        self.0.contains(&0)
    }

    /// Whether the name is empty (its first byte is a NUL).
    pub fn is_empty(&self) -> bool {
        self.0[0] == 0
    }

    /// The name as text: the bytes before the first NUL, which must be UTF-8.
    pub fn as_str(&self) -> Result<&str, ErrorKind> {
        decode_padded_name(&self.0)
    }

    /// The name as text with invalid UTF-8 replaced (for messages and lossy conversions).
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.bytes())
    }
}

impl TryFrom<&str> for Name {
    type Error = ErrorKind;
    fn try_from(name: &str) -> Result<Self, ErrorKind> {
        Self::new(name)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({:?}", self.to_string_lossy())?;
        if !self.has_nul() {
            f.write_str(", no NUL")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

/// A `u16` boolean as stored: 0 is false, 1 is true.
///
/// Other values read (the spec makes them a `validate` problem, not a read error) and are kept,
/// so a file is never changed behind the caller's back; the JSON form writes them as integers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(transparent)]
pub struct Bool16(pub U16);

impl Bool16 {
    /// False (0).
    pub const FALSE: Self = Self(U16::new(0));
    /// True (1).
    pub const TRUE: Self = Self(U16::new(1));

    /// The stored value.
    pub fn get(self) -> u16 {
        self.0.get()
    }

    /// The boolean, or `None` for a value other than 0 and 1.
    pub fn as_bool(self) -> Option<bool> {
        match self.get() {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl From<bool> for Bool16 {
    fn from(b: bool) -> Self {
        if b { Self::TRUE } else { Self::FALSE }
    }
}

impl fmt::Debug for Bool16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_bool() {
            Some(b) => write!(f, "{b}"),
            None => write!(f, "Bool16({})", self.get()),
        }
    }
}

// The spec's u16 enums, each value with its JSON name (written as the name; read from the
// name or the integer, as the spec allows).

binary_enum! {
    /// How a texture coordinate outside 0..1 is handled (`wrap_s`, `wrap_t`).
    #[derive(Default)]
    pub enum Wrap: u16 {
        /// Clamp to the edge.
        #[default]
        Clamp = 0 => "clamp",
        /// Mirror every other repeat.
        Mirror = 1 => "mirror",
        /// Repeat.
        Repeat = 2 => "repeat",
    }
    serde = names_or_values;
}

binary_enum! {
    /// How a blended material combines with what is behind it (`blend_equation`).
    #[derive(Default)]
    pub enum BlendEquation: u16 {
        /// Normal blending.
        #[default]
        Normal = 0 => "norm",
        /// Additive.
        Additive = 1 => "add",
        /// Subtractive.
        Subtract = 2 => "sub",
        /// Multiplicative.
        Multiply = 3 => "mult",
    }
    serde = names_or_values;
}

binary_enum! {
    /// A blend factor (`blend_src`, `blend_dst`), as in OpenGL's `glBlendFunc`.
    #[derive(Default)]
    pub enum BlendFactor: u16 {
        /// 0.
        #[default]
        Zero = 0 => "zero",
        /// 1.
        One = 1 => "one",
        /// The source colour.
        SrcColor = 2 => "src",
        /// 1 - the source colour.
        OneMinusSrcColor = 3 => "one_minus_src",
        /// The source alpha.
        SrcAlpha = 4 => "src_alpha",
        /// 1 - the source alpha.
        OneMinusSrcAlpha = 5 => "one_minus_src_alpha",
        /// The destination alpha.
        DstAlpha = 6 => "dst_alpha",
        /// 1 - the destination alpha.
        OneMinusDstAlpha = 7 => "one_minus_dst_alpha",
        /// The destination colour.
        DstColor = 8 => "dst",
        /// 1 - the destination colour.
        OneMinusDstColor = 9 => "one_minus_dst",
        /// min(source alpha, 1 - destination alpha) (the JSON name is a **decision** of the spec).
        SrcAlphaSaturate = 10 => "src_alpha_saturate",
    }
    serde = names_or_values;
}

binary_enum! {
    /// The lighting model of a material (`shader_type`).
    #[derive(Default)]
    pub enum ShaderType: u16 {
        /// Unlit.
        #[default]
        Basic = 0 => "basic",
        /// Diffuse lighting.
        Lambert = 1 => "lambert",
        /// Diffuse and specular lighting.
        Phong = 2 => "phong",
    }
    serde = names_or_values;
}

binary_enum! {
    /// Which faces are drawn or cast shadows (`face_side`, `shadow_side`).
    #[derive(Default)]
    pub enum Side: u16 {
        /// Front faces.
        #[default]
        Front = 0 => "front",
        /// Back faces.
        Back = 1 => "back",
        /// Both.
        Double = 2 => "double",
    }
    serde = names_or_values;
}

/// DashMagic_t, the 16-byte file header at offset 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FileHeader {
    /// `'DASH'` ([`MAGIC_WORD`]).
    pub magic: U32,
    /// 1.
    pub major_version: U16,
    /// 5 for DMF 1.5.
    pub minor_version: U16,
    /// The file offset of the attribute table, 0x10 in 1.5.
    pub header_offset: U32,
    /// The number of attribute entries, 6 in 1.5.
    pub header_count: U32,
}
record!(FileHeader, 0x10, "DashMagic_t");

/// DashAttribute_t, one entry of the attribute table: where a section's records are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Attribute {
    /// The section's label, four ASCII bytes (see [`Section::label`]).
    pub label: U32,
    /// Flags: DMF 1.5 defines no bits and writes 0; readers ignore the field (so it stays a
    /// plain integer rather than a flags type with nothing in it).
    pub flags: U32,
    /// The file offset of the section's first record (0 when the section is empty).
    pub offset: U32,
    /// The number of records in the section.
    pub count: U32,
}
record!(Attribute, 0x10, "DashAttribute_t");

/// The six sections of a DMF 1.5 file, in attribute-table (and canonical file) order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// Textures ([`TextureRecord`]), label `"tex\0"`.
    Textures,
    /// Materials ([`MaterialRecord`]), label `"mat\0"`.
    Materials,
    /// Vertices ([`Vertex`]), label `"vert"`.
    Vertices,
    /// Faces ([`Face`]), label `"face"`.
    Faces,
    /// Bones ([`Bone`]), label `"bone"`.
    Bones,
    /// Animations ([`AnimationRecord`]), label `"anim"`.
    Animations,
}

impl Section {
    /// The sections in attribute-table order.
    pub const ALL: [Self; 6] = [
        Self::Textures,
        Self::Materials,
        Self::Vertices,
        Self::Faces,
        Self::Bones,
        Self::Animations,
    ];

    /// The label as stored (four ASCII bytes read as a little-endian u32).
    pub const fn label(self) -> u32 {
        u32::from_le_bytes(*self.label_bytes())
    }

    /// The label's four bytes.
    pub const fn label_bytes(self) -> &'static [u8; 4] {
        match self {
            Self::Textures => b"tex\0",
            Self::Materials => b"mat\0",
            Self::Vertices => b"vert",
            Self::Faces => b"face",
            Self::Bones => b"bone",
            Self::Animations => b"anim",
        }
    }

    /// The size of one record of this section.
    pub const fn record_size(self) -> usize {
        match self {
            Self::Textures => TextureRecord::SIZE,
            Self::Materials => MaterialRecord::SIZE,
            Self::Vertices => Vertex::SIZE,
            Self::Faces => Face::SIZE,
            Self::Bones => Bone::SIZE,
            Self::Animations => AnimationRecord::SIZE,
        }
    }

    /// A plural noun for messages (`"vertices"`).
    pub const fn noun(self) -> &'static str {
        match self {
            Self::Textures => "textures",
            Self::Materials => "materials",
            Self::Vertices => "vertices",
            Self::Faces => "faces",
            Self::Bones => "bones",
            Self::Animations => "animations",
        }
    }
}

/// DashTexture_t, 0x40 bytes: a texture and where its PNG bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TextureRecord {
    /// The texture's name.
    pub name: Name,
    /// Its index in the texture list ("for show": references use the position).
    pub tex_id: I16,
    /// Whether the image is flipped vertically.
    pub flip_y: Bool16,
    /// The file offset of the PNG bytes.
    pub img_offset: U32,
    /// The number of PNG bytes.
    pub img_length: U32,
    /// The image width in pixels.
    pub img_width: U16,
    /// The image height in pixels.
    pub img_height: U16,
    /// How S (U) coordinates wrap ([`Wrap`]).
    pub wrap_s: U16,
    /// How T (V) coordinates wrap ([`Wrap`]).
    pub wrap_t: U16,
    /// Unused, zero.
    pub nop: [u8; 12],
}
record!(TextureRecord, 0x40, "DashTexture_t");

impl TextureRecord {
    /// `wrap_s` as a [`Wrap`] (a value outside the list is an error).
    pub fn wrap_s(&self) -> Result<Wrap, ErrorKind> {
        Wrap::try_from(self.wrap_s.get())
    }

    /// `wrap_t` as a [`Wrap`].
    pub fn wrap_t(&self) -> Result<Wrap, ErrorKind> {
        Wrap::try_from(self.wrap_t.get())
    }
}

/// DashMaterial_t, 0x70 bytes: how a set of faces is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct MaterialRecord {
    /// The material's name.
    pub name: Name,
    /// Its index in the material list ("for show").
    pub mat_id: I16,
    /// The texture's index, -1 for none.
    pub tex_id: I16,
    /// Whether blending is on.
    pub use_blending: Bool16,
    /// [`BlendEquation`].
    pub blend_equation: U16,
    /// [`BlendFactor`] of the source.
    pub blend_src: U16,
    /// [`BlendFactor`] of the destination.
    pub blend_dst: U16,
    /// Whether the material is skinned.
    pub skinning: Bool16,
    /// [`ShaderType`].
    pub shader_type: U16,
    /// [`Side`] of the faces drawn.
    pub face_side: U16,
    /// [`Side`] of the faces that cast shadows.
    pub shadow_side: U16,
    /// Whether lights are ignored.
    pub ignore_lights: Bool16,
    /// Whether the faces' vertex colours are used.
    pub vertex_color: Bool16,
    /// Whether alpha is used.
    pub use_alpha: Bool16,
    /// Whether the material is not drawn.
    pub skip_render: Bool16,
    /// The alpha-test threshold.
    pub alpha_test: F32,
    /// The diffuse colour, RGBA.
    pub diffuse: Rgba<F32>,
    /// The emissive colour (RGB) and its intensity.
    pub emissive: [F32; 4],
    /// The specular colour (RGB) and the shininess.
    pub specular: [F32; 4],
}
record!(MaterialRecord, 0x70, "DashMaterial_t");

/// DashVertex_t, 36 bytes: a position and its skin weights (everything else lives on faces).
#[derive(Debug, Clone, Copy, PartialEq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Vertex {
    /// The position.
    pub pos: Vec3<F32>,
    /// Up to four bone indices; unused slots are 0 (with weight 0), -1 means the bind pose.
    pub skin_index: [I16; 4],
    /// The weight of each bone, summing to 1 when bones exist.
    pub skin_weight: [F32; 4],
}
record!(Vertex, 36, "DashVertex_t");

impl Vertex {
    /// A vertex from native values.
    pub fn new(pos: Vec3<f32>, skin_index: [i16; 4], skin_weight: [f32; 4]) -> Self {
        Self {
            pos: pos.map(F32::new),
            skin_index: skin_index.map(I16::new),
            skin_weight: skin_weight.map(F32::new),
        }
    }
}

/// DashFace_t, 88 bytes: a triangle with its material and per-corner colour, normal and UV.
#[derive(Debug, Clone, Copy, PartialEq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Face {
    /// The material's index.
    pub mat_id: U16,
    /// Unused, zero.
    pub nop: U16,
    /// The vertex indices of corners a, b and c.
    pub indices: [U32; 3],
    /// The colours of corners a, b and c (`aClr`, `bClr`, `cClr`), RGBA bytes.
    pub colors: [Rgba8; 3],
    /// The normals of corners a, b and c (`aNrm`, `bNrm`, `cNrm`).
    pub normals: [Vec3<F32>; 3],
    /// The UVs of corners a, b and c (`aUv`, `bUv`, `cUv`).
    pub uvs: [Vec2<F32>; 3],
}
record!(Face, 88, "DashFace_t");

impl Face {
    /// A face from native values (with `nop` zero).
    pub fn new(
        mat_id: u16,
        indices: [u32; 3],
        colors: [Rgba8; 3],
        normals: [Vec3<f32>; 3],
        uvs: [Vec2<f32>; 3],
    ) -> Self {
        Self {
            mat_id: U16::new(mat_id),
            nop: U16::ZERO,
            indices: indices.map(U32::new),
            colors,
            normals: normals.map(|n| n.map(F32::new)),
            uvs: uvs.map(|uv| uv.map(F32::new)),
        }
    }
}

/// DashBone_t, 112 bytes: a bone, its parent and its local bind matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Bone {
    /// The bone's name, unique and non-empty.
    pub name: Name,
    /// Its index in the bone list ("for show").
    pub bone_id: I16,
    /// The parent's index, -1 for a root; parents come before children.
    pub parent_id: I16,
    /// Unused, zero.
    pub nop: [u8; 12],
    /// The local transform, a 4x4 matrix in column-major order (as OpenGL stores it).
    pub matrix: [F32; 16],
}
record!(Bone, 112, "DashBone_t");

impl Bone {
    /// A bone from native values; `matrix` is column-major.
    pub fn new(name: Name, bone_id: i16, parent_id: i16, matrix: [f32; 16]) -> Self {
        Self {
            name,
            bone_id: I16::new(bone_id),
            parent_id: I16::new(parent_id),
            nop: [0; 12],
            matrix: matrix.map(F32::new),
        }
    }

    /// The parent's index, `None` for -1 (or any negative value).
    pub fn parent(&self) -> Option<usize> {
        usize::try_from(self.parent_id.get()).ok()
    }

    /// The matrix as rows (`rows[r][c]`), turning the file's column-major order around.
    pub fn matrix(&self) -> Mat4<f32> {
        let m = self.matrix.map(F32::get);
        Mat4 {
            rows: std::array::from_fn(|r| std::array::from_fn(|c| m[c * 4 + r])),
        }
    }
}

/// DashAnimation_t, 48 bytes: an animation and where its tracks are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct AnimationRecord {
    /// The animation's name ("run", "walk"), defined and unique.
    pub name: Name,
    /// Its index in the animation list ("for show").
    pub anim_id: I16,
    /// Frames per second.
    pub fps: U16,
    /// The file offset of the first track.
    pub track_offset: U32,
    /// The number of tracks.
    pub track_count: U32,
    /// The length in seconds.
    pub duration: F32,
}
record!(AnimationRecord, 48, "DashAnimation_t");

bitflags::bitflags! {
    /// `prs_flags` of a track: which of its transforms the key sets.
    ///
    /// The spec asks for at least one of the three bits and no other; bits outside them are
    /// kept as read ([`PrsFlags::from_bits_retain`]), so [`crate::validate()`] can report them
    /// and the writer refuse them rather than drop them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct PrsFlags: i16 {
        /// Bit 0: the position is evaluated.
        const POSITION = 1;
        /// Bit 1: the rotation is evaluated.
        const ROTATION = 2;
        /// Bit 2: the scale is evaluated.
        const SCALE = 4;
    }
}

impl PrsFlags {
    /// Whether the flags are what the spec allows: at least one of the three bits, no other.
    pub fn is_valid(self) -> bool {
        !self.is_empty() && Self::all().contains(self)
    }
}

/// DashAnimTrack_t, 48 bytes: one key of one bone, with the transforms that `prs_flags` marks.
#[derive(Debug, Clone, Copy, PartialEq, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Track {
    /// The bone's index.
    pub bone_id: I16,
    /// [`PrsFlags`]: bit 0 position, bit 1 rotation, bit 2 scale; at least one, no other bits.
    /// Read and set it with [`Track::flags`] and [`Track::set_flags`].
    pub prs_flags: I16,
    /// The key's time in seconds.
    pub time: F32,
    /// The position, x y z (evaluated when bit 0 is set).
    pub pos: Vec3<F32>,
    /// The rotation quaternion, x y z w (evaluated when bit 1 is set).
    pub rot: Quat<F32>,
    /// The scale, x y z (evaluated when bit 2 is set).
    pub scl: Vec3<F32>,
}
record!(Track, 48, "DashAnimTrack_t");

impl Track {
    /// A key with the given transforms; the flags follow from which are present and the
    /// absent ones are stored as zeros (the spec's **decision** for the writer).
    pub fn new(
        bone_id: i16,
        time: f32,
        pos: Option<Vec3<f32>>,
        rot: Option<Quat<f32>>,
        scl: Option<Vec3<f32>>,
    ) -> Self {
        let mut flags = PrsFlags::empty();
        flags.set(PrsFlags::POSITION, pos.is_some());
        flags.set(PrsFlags::ROTATION, rot.is_some());
        flags.set(PrsFlags::SCALE, scl.is_some());
        Self {
            bone_id: I16::new(bone_id),
            prs_flags: I16::new(flags.bits()),
            time: F32::new(time),
            pos: pos.unwrap_or_default().map(F32::new),
            rot: rot.unwrap_or_default().map(F32::new),
            scl: scl.unwrap_or_default().map(F32::new),
        }
    }

    /// `prs_flags` as [`PrsFlags`], every bit kept (undefined ones too).
    pub fn flags(&self) -> PrsFlags {
        PrsFlags::from_bits_retain(self.prs_flags.get())
    }

    /// Stores `flags` in `prs_flags`, every bit as given.
    pub fn set_flags(&mut self, flags: PrsFlags) {
        self.prs_flags = I16::new(flags.bits());
    }

    /// The position, when its flag is set.
    pub fn position(&self) -> Option<Vec3<f32>> {
        self.flags().contains(PrsFlags::POSITION).then(|| self.pos.native())
    }

    /// The rotation, when its flag is set.
    pub fn rotation(&self) -> Option<Quat<f32>> {
        self.flags().contains(PrsFlags::ROTATION).then(|| self.rot.native())
    }

    /// The scale, when its flag is set.
    pub fn scale(&self) -> Option<Vec3<f32>> {
        self.flags().contains(PrsFlags::SCALE).then(|| self.scl.native())
    }

    /// Whether `prs_flags` has at least one bit and no bit above bit 2, as the spec requires
    /// ([`PrsFlags::is_valid`]).
    pub fn flags_are_valid(&self) -> bool {
        self.flags().is_valid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use binrw::io::Cursor;

    #[test]
    fn labels_are_the_spec_values() {
        let labels: Vec<u32> = Section::ALL.iter().map(|s| s.label()).collect();
        assert_eq!(
            labels,
            [
                0x0078_6574,
                0x0074_616D,
                0x7472_6576,
                0x6563_6166,
                0x656E_6F62,
                0x6D69_6E61
            ]
        );
        assert_eq!(MAGIC_WORD.to_le_bytes(), *b"DASH");
        assert_eq!(crate::MAGIC, b"DASH");
    }

    #[test]
    fn binrw_reads_and_writes_the_same_bytes_as_the_cast() {
        let track = Track::new(
            3,
            0.5,
            Some(Vec3::new(1.0, 2.0, 3.0)),
            None,
            Some(Vec3::new(1.0, 1.0, 1.0)),
        );
        let mut out = Cursor::new(Vec::new());
        track.write_le(&mut out).unwrap();
        let bytes = out.into_inner();
        assert_eq!(bytes, track.as_bytes());
        assert_eq!(bytes[..4], [3, 0, 5, 0]);
        assert_eq!(Track::read_le(&mut Cursor::new(&bytes)).unwrap(), track);
        assert_eq!(Track::ref_from_bytes(&bytes).unwrap(), &track);
        assert!(Track::read_le(&mut Cursor::new(&bytes[..47])).is_err());
    }

    #[test]
    fn track_accessors_follow_the_flags() {
        let track = Track::new(0, 0.0, None, Some(Quat::new(0.0, 0.0, 0.0, 1.0)), None);
        assert_eq!(track.prs_flags.get(), PrsFlags::ROTATION.bits());
        assert_eq!(track.flags(), PrsFlags::ROTATION);
        assert_eq!(track.position(), None);
        assert_eq!(track.rotation(), Some(Quat::new(0.0, 0.0, 0.0, 1.0)));
        assert!(track.flags_are_valid());
        assert!(!Track::new(0, 0.0, None, None, None).flags_are_valid());
        let mut high = track;
        high.prs_flags = I16::new(0x0A);
        assert!(!high.flags_are_valid());
    }

    #[test]
    fn undefined_prs_bits_survive_the_flags_type_and_a_byte_round_trip() {
        let mut track = Track::new(0, 0.0, Some(Vec3::new(1.0, 2.0, 3.0)), None, None);
        track.prs_flags = I16::new(-0x7FF7); // 0x8009: position, bit 3 and the sign bit
        let flags = track.flags();
        assert!(flags.contains(PrsFlags::POSITION) && !flags.is_valid());
        assert_eq!(flags.bits() as u16, 0x8009);
        let mut copy = Track::default();
        copy.set_flags(flags);
        assert_eq!(copy.prs_flags, track.prs_flags);
        let mut out = Cursor::new(Vec::new());
        track.write_le(&mut out).unwrap();
        let back = Track::read_le(&mut Cursor::new(out.into_inner())).unwrap();
        assert_eq!(back.flags(), flags);
        assert_eq!(back.position(), Some(Vec3::new(1.0, 2.0, 3.0)));
    }

    #[test]
    fn bytes_show_as_quoted_text_or_hex() {
        assert_eq!(show_bytes(b"vert"), "\"vert\"");
        assert_eq!(show_bytes(b"tex\0"), "\"tex\"");
        assert_eq!(show_bytes(b"PK\x03\x04"), "0x504b0304");
        assert_eq!(show_bytes(&[0, 0]), "0x0000");
        assert_eq!(show_bytes(b""), "no bytes");
    }

    #[test]
    fn bone_matrix_is_column_major() {
        let mut m = [0.0f32; 16];
        m[12] = 5.0; // column 3, row 0: the x translation
        let bone = Bone::new(Name::new("root").unwrap(), 0, -1, m);
        assert_eq!(bone.matrix().rows[0][3], 5.0);
        assert_eq!(bone.parent(), None);
    }

    #[test]
    fn names_need_room_for_their_nul() {
        assert!(Name::new(&"a".repeat(31)).is_ok());
        assert!(Name::new(&"a".repeat(32)).is_err());
        assert!(Name::new("a\0b").is_err());
        let full = Name([b'x'; 32]);
        assert!(!full.has_nul());
        assert_eq!(full.bytes().len(), 32);
        assert_eq!(Name::new("hip").unwrap().as_str().unwrap(), "hip");
    }

    #[test]
    fn enums_know_their_numbers_and_names() {
        assert_eq!(BlendFactor::from_repr(10), Some(BlendFactor::SrcAlphaSaturate));
        assert_eq!(BlendFactor::from_repr(11), None);
        assert_eq!(BlendEquation::from_name("mult"), Some(BlendEquation::Multiply));
        assert_eq!(Wrap::Repeat.name(), "repeat");
        assert!(Side::try_from(3).is_err());
        assert_eq!(u16::from(ShaderType::Phong), 2);
    }
}
