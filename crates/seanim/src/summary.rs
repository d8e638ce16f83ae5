//! [`Summary`]: the counts and header fields of an SEAnim file, from the owned model or
//! straight from a [`View`], the same either way.

use std::io;

use animbin_core::format::Positioned;
use animbin_core::{IndexWidth, Quat, Vec3};
use serde::{Deserialize, Serialize};
use zerocopy::FromBytes;

use crate::Trailer;
use crate::keys::{Precision, record_size};
use crate::layout::{
    self, AnimFlags, AnimType, FrameWidthRule, HEADER_SIZE, PresenceFlags, PropertyFlags, SeAnim, SeBlend, offsets,
};
use crate::view::{HeaderRecord, View};

/// The summary of an SEAnim file, as `animbin info` shows it: counts and header fields,
/// without the keys.
///
/// Built from the owned model ([`animbin_core::FileFormat::summary`]) or from a zero-copy
/// [`View`] ([`View::summary`]); both give the same summary of the same file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The header's `frameCount`; `None` when the keys need more frames than it can count.
    pub frame_count: Option<u32>,
    /// Frames per second (`None` for NaN or infinity, which JSON cannot hold).
    pub framerate: Option<f64>,
    /// Bones with keys.
    pub bone_count: usize,
    /// Notes.
    pub note_count: usize,
    /// Key values are `f64` (`SEANIM_PRECISION_HIGH`).
    pub high_precision: bool,
    /// `"absolute"`, `"additive"`, `"relative"` or `"delta"`.
    pub anim_type: String,
    /// The animation loops.
    pub looped: bool,
    /// Bones whose animation type is overridden.
    pub modifier_count: usize,
    /// The width of frame indices in bytes (1, 2 or 4).
    pub frame_width: Option<u64>,
    /// Bytes of the custom data block.
    pub custom_size: usize,
    /// `"none"`, `"seblend"` or `"unknown"`.
    pub trailer: String,
    /// Shapes of an SEBlend trailer.
    pub blend_shape_count: usize,
}

/// An `f32` as the `f64` its shortest decimal form reads as (29.97, not 29.969999313354492);
/// `None` for NaN and infinities.
fn shortest_f64(x: f32) -> Option<f64> {
    x.to_string().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn blend_shape_count(trailer: &Trailer<SeBlend>) -> usize {
    trailer.seblend().map_or(0, |blend| blend.shapes.len())
}

impl Summary {
    /// The summary of the owned model.
    pub(crate) fn of(anim: &SeAnim) -> Self {
        Self {
            frame_count: anim.frame_count().ok(),
            framerate: shortest_f64(anim.framerate),
            bone_count: anim.bones.len(),
            note_count: anim.notes.len(),
            high_precision: anim.precision() == Precision::Double,
            anim_type: anim.anim_type.name().to_string(),
            looped: anim.looped(),
            modifier_count: anim.modifiers.len(),
            frame_width: anim.frame_width().ok().map(|w| w.size()),
            custom_size: anim.custom.len(),
            trailer: anim.trailer.kind().to_string(),
            blend_shape_count: blend_shape_count(&anim.trailer),
        }
    }
}

impl Summary {
    /// The summary of a file from its header and what was found after it, as a view or
    /// positioned reads find them: the bone and note counts count only where the presence
    /// flags say the blocks are there.
    fn from_header(
        header: &HeaderRecord,
        anim_type: AnimType,
        frame_width: IndexWidth,
        modifier_count: usize,
        custom_size: usize,
        trailer: &Trailer<SeBlend>,
    ) -> Self {
        let presence = PresenceFlags::from_bits_retain(header.data_presence_flags);
        let counted = |present: bool, count: u32| if present { count as usize } else { 0 };
        Self {
            frame_count: Some(header.frame_count.get()),
            framerate: shortest_f64(header.framerate.get()),
            bone_count: counted(presence.has_bones(), header.bone_count.get()),
            note_count: counted(presence.contains(PresenceFlags::NOTE), header.note_count.get()),
            high_precision: PropertyFlags::from_bits_retain(header.data_property_flags).precision()
                == Precision::Double,
            anim_type: anim_type.name().to_string(),
            looped: AnimFlags::from_bits_retain(header.anim_flags).contains(AnimFlags::LOOPED),
            modifier_count,
            frame_width: Some(frame_width.size()),
            custom_size,
            trailer: trailer.kind().to_string(),
            blend_shape_count: blend_shape_count(trailer),
        }
    }

    /// The summary of a file read by positioned reads ([`animbin_core::FileFormat::summary_at`]),
    /// with [`View::parse`]'s choice of the `frame_t` rule: `None` where the view would
    /// refuse the file, or the file could not be read.
    pub(crate) fn at(file: &mut Positioned<'_>) -> Option<Self> {
        let current = walk(file, FrameWidthRule::Current);
        let boundary = file.set_pos(offsets::FRAME_COUNT).and_then(|()| file.array::<4>());
        let boundary = boundary.is_ok_and(|count| matches!(u32::from_le_bytes(count), 256 | 65536));
        if boundary && !current.as_ref().is_ok_and(|(_, to_end)| *to_end) {
            if let Ok((legacy, true)) = walk(file, FrameWidthRule::Legacy) {
                return Some(legacy);
            }
        }
        current.ok().map(|(summary, _)| summary)
    }
}

/// Reads a little-endian `frame_t` of the given width.
fn index_at(file: &mut Positioned<'_>, width: IndexWidth) -> io::Result<u32> {
    Ok(match width {
        IndexWidth::U8 => u32::from(file.u8()?),
        IndexWidth::U16 => u32::from(u16::from_le_bytes(file.array()?)),
        IndexWidth::U32 => u32::from_le_bytes(file.array()?),
    })
}

fn refused() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "not a file the view accepts")
}

/// [`View::parse_with_rule`]'s walk by positioned reads, accepting exactly the files it does:
/// the header, the names, the modifiers, every key run's count (the keys themselves are
/// skipped), the notes, the custom block's size and the trailer. Gives the summary and
/// whether nothing but an SEBlend trailer (or nothing) follows the last block.
fn walk(file: &mut Positioned<'_>, rule: FrameWidthRule) -> io::Result<(Summary, bool)> {
    file.set_pos(0)?;
    if file.array::<6>()? != *layout::MAGIC || u16::from_le_bytes(file.array()?) != 1 {
        return Err(refused());
    }
    let header = HeaderRecord::read_from_bytes(&file.array::<{ HEADER_SIZE as usize }>()?).map_err(|_| refused())?;
    let header_size = header.header_size.get();
    if header_size < HEADER_SIZE {
        return Err(refused());
    }
    let anim_type = AnimType::try_from(header.anim_type).map_err(|_| refused())?;
    file.skip(u64::from(header_size - HEADER_SIZE), 1)?;

    let presence = PresenceFlags::from_bits_retain(header.data_presence_flags);
    let precision = PropertyFlags::from_bits_retain(header.data_property_flags).precision();
    let frame_width = rule.width(header.frame_count.get());
    let bone_count = header.bone_count.get();
    let bone_width = IndexWidth::for_count(u64::from(bone_count));
    let mut modifier_count = 0;
    if presence.has_bones() {
        // Each name is at least its NUL.
        if u64::from(bone_count) > file.left() {
            return Err(refused());
        }
        for _ in 0..bone_count {
            file.cstr()?;
        }
        let count = header.bone_anim_modifier_count;
        let modifiers_at = file.pos();
        file.skip(u64::from(count), bone_width.size() + 1)?;
        file.set_pos(modifiers_at)?;
        for _ in 0..count {
            file.skip(1, bone_width.size())?;
            if AnimType::from_repr(file.u8()?).is_none() {
                return Err(refused());
            }
        }
        modifier_count = usize::from(count);
        let runs = [
            (PresenceFlags::LOC, record_size::<Vec3<f64>>(frame_width, precision)),
            (PresenceFlags::ROT, record_size::<Quat<f64>>(frame_width, precision)),
            (PresenceFlags::SCALE, record_size::<Vec3<f64>>(frame_width, precision)),
        ];
        for _ in 0..bone_count {
            file.u8()?;
            for (flag, size) in runs {
                if presence.contains(flag) {
                    let count = index_at(file, frame_width)?;
                    file.skip(u64::from(count), size)?;
                }
            }
        }
    }
    if presence.contains(PresenceFlags::NOTE) {
        let count = u64::from(header.note_count.get());
        let notes_at = file.pos();
        file.skip(count, frame_width.size() + 1)?;
        file.set_pos(notes_at)?;
        for _ in 0..count {
            index_at(file, frame_width)?;
            file.cstr()?;
        }
    }
    let mut custom_size = 0;
    if presence.contains(PresenceFlags::CUSTOM) {
        let size = u32::from_le_bytes(file.array()?);
        file.skip(u64::from(size), 1)?;
        custom_size = size as usize;
    }
    let trailer = layout::parse_trailer(file.take(file.left())?);
    let to_end = !matches!(trailer, Trailer::Unknown(_));
    let summary = Summary::from_header(&header, anim_type, frame_width, modifier_count, custom_size, &trailer);
    Ok((summary, to_end))
}

impl View<'_> {
    /// The summary of the file, without building the owned model: the same as the model's
    /// ([`animbin_core::FileFormat::summary`]). Only an SEBlend trailer is parsed (copied).
    pub fn summary(&self) -> Summary {
        Summary::from_header(
            self.header(),
            self.anim_type(),
            self.frame_width(),
            self.modifiers().len(),
            self.custom().len(),
            &self.trailer(),
        )
    }
}
