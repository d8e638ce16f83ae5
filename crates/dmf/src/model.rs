//! The owned model of a DMF file: everything the file holds except where it is placed.
//!
//! The bulk sections (vertices, faces, bones and each animation's tracks) are the on-disk
//! records themselves, so reading them is one copy per section. Textures, materials and
//! animations get their own structs: textures and animations carry their PNG bytes and tracks
//! instead of file offsets and counts (which the writer derives), and materials carry their
//! enums as Rust enums (a value outside the spec's list is a read error).
//!
//! The model keeps every value a file that reads can hold (ids, `u16` booleans other than
//! 0/1, names without a NUL, `nop` bytes, transforms whose prs flag is clear), so
//! [`crate::validate`] sees them, a canonical file is rewritten byte for byte, and the writer
//! refuses what breaks the spec instead of changing it.

use std::mem::offset_of;

use animbin_core::math::Rgba;
use animbin_core::{Error, ErrorKind, Result};
use zerocopy::little_endian::{F32, I16, U16, U32};

use crate::FORMAT;
use crate::layout::{
    AnimationRecord, BlendEquation, BlendFactor, Bone, Bool16, Face, MaterialRecord, Name, ShaderType, Side,
    TextureRecord, Track, Vertex, Wrap,
};

/// A whole DMF 1.5 model: textures, materials, a mesh, a skeleton and animations.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dmf {
    /// Textures with their PNG bytes; materials refer to them by position.
    pub textures: Vec<Texture>,
    /// Materials; faces refer to them by position.
    pub materials: Vec<Material>,
    /// Vertices: positions with skin weights.
    pub vertices: Vec<Vertex>,
    /// Triangles with per-corner colours, normals and UVs.
    pub faces: Vec<Face>,
    /// The skeleton, parents before children.
    pub bones: Vec<Bone>,
    /// Animations with their tracks.
    pub animations: Vec<Animation>,
}

impl Dmf {
    /// The number of tracks over all animations.
    pub fn track_count(&self) -> usize {
        self.animations.iter().map(|a| a.tracks.len()).sum()
    }

    /// Sets every texture, material, bone and animation id to its position, as the writer
    /// requires. Positions past `i16::MAX` cannot be ids; those are left for the writer to refuse.
    pub fn renumber(&mut self) {
        fn id(i: usize) -> Option<i16> {
            i16::try_from(i).ok()
        }
        for (i, t) in self.textures.iter_mut().enumerate() {
            t.id = id(i).unwrap_or(t.id);
        }
        for (i, m) in self.materials.iter_mut().enumerate() {
            m.id = id(i).unwrap_or(m.id);
        }
        for (i, b) in self.bones.iter_mut().enumerate() {
            b.bone_id = id(i).map_or(b.bone_id, I16::new);
        }
        for (i, a) in self.animations.iter_mut().enumerate() {
            a.id = id(i).unwrap_or(a.id);
        }
    }
}

/// A texture: DashTexture_t with its PNG bytes in place of their offset and length.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Texture {
    /// `tex_id`: the texture's position in the list.
    pub id: i16,
    /// The texture's name.
    pub name: Name,
    /// Whether the image is flipped vertically.
    pub flip_y: Bool16,
    /// The image width in pixels.
    pub width: u16,
    /// The image height in pixels.
    pub height: u16,
    /// How S (U) coordinates wrap.
    pub wrap_s: Wrap,
    /// How T (V) coordinates wrap.
    pub wrap_t: Wrap,
    /// The record's 12 unused bytes (zero in a canonical file).
    pub nop: [u8; 12],
    /// The encoded image; the spec says it is always a PNG.
    pub png: Vec<u8>,
}

impl Texture {
    /// The texture of `record`, whose bytes start at file offset `at`, with its image bytes.
    pub fn from_record(record: &TextureRecord, png: Vec<u8>, at: u64) -> Result<Self> {
        let field = |offset: usize| at + offset as u64;
        let wrap = |value: U16, offset: usize| {
            Wrap::try_from(value.get()).map_err(|kind| Error::new(FORMAT, field(offset), kind))
        };
        Ok(Self {
            id: record.tex_id.get(),
            name: record.name,
            flip_y: record.flip_y,
            width: record.img_width.get(),
            height: record.img_height.get(),
            wrap_s: wrap(record.wrap_s, offset_of!(TextureRecord, wrap_s))?,
            wrap_t: wrap(record.wrap_t, offset_of!(TextureRecord, wrap_t))?,
            nop: record.nop,
            png,
        })
    }

    /// The record of this texture with its image at `img_offset`; the length is the PNG's.
    pub(crate) fn to_record(&self, img_offset: u32, img_length: u32) -> TextureRecord {
        TextureRecord {
            name: self.name,
            tex_id: I16::new(self.id),
            flip_y: self.flip_y,
            img_offset: U32::new(img_offset),
            img_length: U32::new(img_length),
            img_width: U16::new(self.width),
            img_height: U16::new(self.height),
            wrap_s: U16::new(self.wrap_s.into()),
            wrap_t: U16::new(self.wrap_t.into()),
            nop: self.nop,
        }
    }
}

/// A material: DashMaterial_t with its enums typed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// `mat_id`: the material's position in the list.
    pub id: i16,
    /// The material's name.
    pub name: Name,
    /// `tex_id`: the texture's position, -1 for none.
    pub texture: i16,
    /// Whether blending is on.
    pub use_blending: Bool16,
    /// How blended colours combine.
    pub blend_equation: BlendEquation,
    /// The source blend factor.
    pub blend_src: BlendFactor,
    /// The destination blend factor.
    pub blend_dst: BlendFactor,
    /// Whether the material is skinned.
    pub skinning: Bool16,
    /// The lighting model.
    pub shader_type: ShaderType,
    /// The faces drawn.
    pub face_side: Side,
    /// The faces that cast shadows.
    pub shadow_side: Side,
    /// Whether lights are ignored.
    pub ignore_lights: Bool16,
    /// Whether the faces' vertex colours are used.
    pub vertex_color: Bool16,
    /// Whether alpha is used.
    pub use_alpha: Bool16,
    /// Whether the material is not drawn.
    pub skip_render: Bool16,
    /// The alpha-test threshold.
    pub alpha_test: f32,
    /// The diffuse colour, RGBA.
    pub diffuse: Rgba<f32>,
    /// The emissive colour (RGB) and its intensity.
    pub emissive: [f32; 4],
    /// The specular colour (RGB) and the shininess.
    pub specular: [f32; 4],
}

impl Default for Material {
    /// An unnamed, untextured, opaque white Lambert material with the usual alpha blend
    /// factors, drawn and shadowed on front faces.
    fn default() -> Self {
        Self {
            id: 0,
            name: Name::default(),
            texture: -1,
            use_blending: Bool16::FALSE,
            blend_equation: BlendEquation::Normal,
            blend_src: BlendFactor::SrcAlpha,
            blend_dst: BlendFactor::OneMinusSrcAlpha,
            skinning: Bool16::FALSE,
            shader_type: ShaderType::Lambert,
            face_side: Side::Front,
            shadow_side: Side::Front,
            ignore_lights: Bool16::FALSE,
            vertex_color: Bool16::FALSE,
            use_alpha: Bool16::FALSE,
            skip_render: Bool16::FALSE,
            alpha_test: 0.0,
            diffuse: Rgba::new(1.0, 1.0, 1.0, 1.0),
            emissive: [0.0; 4],
            specular: [0.0; 4],
        }
    }
}

impl Material {
    /// The material of `record`, whose bytes start at file offset `at`; an enum value outside
    /// its list is an error at that field's offset.
    pub fn from_record(record: &MaterialRecord, at: u64) -> Result<Self> {
        fn field<T: TryFrom<u16, Error = ErrorKind>>(value: U16, at: u64, offset: usize) -> Result<T> {
            T::try_from(value.get()).map_err(|kind| Error::new(FORMAT, at + offset as u64, kind))
        }
        Ok(Self {
            id: record.mat_id.get(),
            name: record.name,
            texture: record.tex_id.get(),
            use_blending: record.use_blending,
            blend_equation: field(record.blend_equation, at, offset_of!(MaterialRecord, blend_equation))?,
            blend_src: field(record.blend_src, at, offset_of!(MaterialRecord, blend_src))?,
            blend_dst: field(record.blend_dst, at, offset_of!(MaterialRecord, blend_dst))?,
            skinning: record.skinning,
            shader_type: field(record.shader_type, at, offset_of!(MaterialRecord, shader_type))?,
            face_side: field(record.face_side, at, offset_of!(MaterialRecord, face_side))?,
            shadow_side: field(record.shadow_side, at, offset_of!(MaterialRecord, shadow_side))?,
            ignore_lights: record.ignore_lights,
            vertex_color: record.vertex_color,
            use_alpha: record.use_alpha,
            skip_render: record.skip_render,
            alpha_test: record.alpha_test.get(),
            diffuse: record.diffuse.native(),
            emissive: record.emissive.map(F32::get),
            specular: record.specular.map(F32::get),
        })
    }

    /// The record of this material.
    pub fn to_record(&self) -> MaterialRecord {
        let u16_of = |v: u16| U16::new(v);
        MaterialRecord {
            name: self.name,
            mat_id: I16::new(self.id),
            tex_id: I16::new(self.texture),
            use_blending: self.use_blending,
            blend_equation: u16_of(self.blend_equation.into()),
            blend_src: u16_of(self.blend_src.into()),
            blend_dst: u16_of(self.blend_dst.into()),
            skinning: self.skinning,
            shader_type: u16_of(self.shader_type.into()),
            face_side: u16_of(self.face_side.into()),
            shadow_side: u16_of(self.shadow_side.into()),
            ignore_lights: self.ignore_lights,
            vertex_color: self.vertex_color,
            use_alpha: self.use_alpha,
            skip_render: self.skip_render,
            alpha_test: F32::new(self.alpha_test),
            diffuse: self.diffuse.map(F32::new),
            emissive: self.emissive.map(F32::new),
            specular: self.specular.map(F32::new),
        }
    }
}

/// An animation: DashAnimation_t with its tracks in place of their offset and count.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Animation {
    /// `anim_id`: the animation's position in the list.
    pub id: i16,
    /// The animation's name.
    pub name: Name,
    /// Frames per second.
    pub fps: u16,
    /// The length in seconds.
    pub duration: f32,
    /// The keys, one bone and time each.
    pub tracks: Vec<Track>,
}

impl Animation {
    /// The animation of `record` with its tracks.
    pub fn from_record(record: &AnimationRecord, tracks: Vec<Track>) -> Self {
        Self {
            id: record.anim_id.get(),
            name: record.name,
            fps: record.fps.get(),
            duration: record.duration.get(),
            tracks,
        }
    }

    /// The record of this animation with its tracks at `track_offset`.
    pub(crate) fn to_record(&self, track_offset: u32, track_count: u32) -> AnimationRecord {
        AnimationRecord {
            name: self.name,
            anim_id: I16::new(self.id),
            fps: U16::new(self.fps),
            track_offset: U32::new(track_offset),
            track_count: U32::new(track_count),
            duration: F32::new(self.duration),
        }
    }
}
