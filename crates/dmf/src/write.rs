//! The writer: the canonical layout, after checking the spec's rules.
//!
//! Layout: the header at 0, the attribute table at 0x10, then the sections in attribute order
//! (textures, materials, vertices, faces, bones, animations), each on a 4-byte boundary; each
//! texture's PNG bytes follow the texture records in texture order, each 4-aligned; each
//! animation's tracks follow the animation records in animation order. An empty section, an
//! animation without tracks and a texture without image bytes have offset 0 and count 0.
//! Padding bytes are zero and the file ends where its last section (or image) ends.

use std::io::Write;
use std::mem::offset_of;

use animbin_core::{Error, ErrorKind, Result};
use zerocopy::IntoBytes;
use zerocopy::little_endian::{U16, U32};

use crate::FORMAT;
use crate::layout::{
    ATTRIBUTE_COUNT, ATTRIBUTE_TABLE_OFFSET, AnimationRecord, Attribute, Bone, Face, FileHeader, MAGIC_WORD,
    MAJOR_VERSION, MINOR_VERSION, MaterialRecord, Name, Record, Section, TextureRecord, Track, Vertex, write_records,
};
use crate::model::Dmf;

/// Where everything goes in the canonical layout.
struct Layout {
    /// (offset, count) of each section, in [`Section::ALL`] order.
    sections: [(u32, u32); 6],
    /// The offset of each texture's PNG bytes (0 for none).
    png_offsets: Vec<u32>,
    /// The offset of each animation's tracks (0 for none).
    track_offsets: Vec<u32>,
    /// The file's length.
    len: u64,
}

fn unencodable(at: u64, what: String) -> Error {
    Error::new(FORMAT, at, ErrorKind::Unencodable(what))
}

fn align4(n: u64) -> u64 {
    n.div_ceil(4) * 4
}

fn to_u32(value: u64, at: u64, what: &str) -> Result<u32> {
    u32::try_from(value).map_err(|_| unencodable(at, format!("{what} {value:#x} does not fit the u32 field")))
}

impl Layout {
    fn of(dmf: &Dmf) -> Result<Self> {
        let counts = [
            dmf.textures.len(),
            dmf.materials.len(),
            dmf.vertices.len(),
            dmf.faces.len(),
            dmf.bones.len(),
            dmf.animations.len(),
        ];
        let mut pos = u64::from(ATTRIBUTE_TABLE_OFFSET) + u64::from(ATTRIBUTE_COUNT) * Attribute::SIZE as u64;
        let mut sections = [(0u32, 0u32); 6];
        let mut png_offsets = Vec::with_capacity(dmf.textures.len());
        let mut track_offsets = Vec::with_capacity(dmf.animations.len());
        for (i, section) in Section::ALL.into_iter().enumerate() {
            let count = counts[i] as u64;
            if count == 0 {
                continue;
            }
            pos = align4(pos);
            let what = format!("the offset of the {} section", section.noun());
            sections[i] = (
                to_u32(pos, pos, &what)?,
                to_u32(count, pos, &format!("the number of {}", section.noun()))?,
            );
            pos += count * section.record_size() as u64;
            match section {
                Section::Textures => {
                    for (t, texture) in dmf.textures.iter().enumerate() {
                        let length = texture.png.len() as u64;
                        if length == 0 {
                            png_offsets.push(0);
                            continue;
                        }
                        pos = align4(pos);
                        png_offsets.push(to_u32(pos, pos, &format!("the image offset of texture {t}"))?);
                        to_u32(length, pos, &format!("the image length of texture {t}"))?;
                        pos += length;
                    }
                }
                Section::Animations => {
                    for (a, animation) in dmf.animations.iter().enumerate() {
                        let count = animation.tracks.len() as u64;
                        if count == 0 {
                            track_offsets.push(0);
                            continue;
                        }
                        track_offsets.push(to_u32(pos, pos, &format!("the track offset of animation {a}"))?);
                        to_u32(count, pos, &format!("the track count of animation {a}"))?;
                        pos += count * Track::SIZE as u64;
                    }
                }
                _ => {}
            }
        }
        Ok(Self {
            sections,
            png_offsets,
            track_offsets,
            len: pos,
        })
    }

    fn record_at(&self, section: Section, index: usize) -> u64 {
        u64::from(self.sections[section as usize].0) + (index * section.record_size()) as u64
    }
}

/// Refuses a name that breaks the spec's rule: UTF-8, at most 31 bytes, ended by a NUL.
fn check_name(name: &Name, at: u64, whose: &str) -> Result<()> {
    if !name.has_nul() {
        return Err(unencodable(
            at,
            format!("the name of {whose} fills all 32 bytes; it needs a NUL"),
        ));
    }
    name.as_str()
        .map(|_| ())
        .map_err(|e| unencodable(at, format!("the name of {whose} is not UTF-8 ({e})")))
}

fn check_id(id: i16, index: usize, at: u64, whose: &str) -> Result<()> {
    if usize::try_from(id).ok() != Some(index) {
        return Err(unencodable(
            at,
            format!("{whose} has id {id}, but ids must match positions (expected {index})"),
        ));
    }
    Ok(())
}

/// Checks the rules the writer enforces, with the offset each record would be written at.
fn check(dmf: &Dmf, layout: &Layout) -> Result<()> {
    for (i, t) in dmf.textures.iter().enumerate() {
        let at = layout.record_at(Section::Textures, i);
        let whose = format!("texture {i}");
        check_name(&t.name, at, &whose)?;
        check_id(t.id, i, at + offset_of!(TextureRecord, tex_id) as u64, &whose)?;
    }
    for (i, m) in dmf.materials.iter().enumerate() {
        let at = layout.record_at(Section::Materials, i);
        let whose = format!("material {i}");
        check_name(&m.name, at, &whose)?;
        check_id(m.id, i, at + offset_of!(MaterialRecord, mat_id) as u64, &whose)?;
    }
    for (i, b) in dmf.bones.iter().enumerate() {
        let at = layout.record_at(Section::Bones, i);
        let whose = format!("bone {i}");
        check_name(&b.name, at, &whose)?;
        check_id(b.bone_id.get(), i, at + offset_of!(Bone, bone_id) as u64, &whose)?;
        let parent = b.parent_id.get();
        let before = usize::try_from(parent).is_ok_and(|p| p < i);
        if parent != -1 && !before {
            return Err(unencodable(
                at + offset_of!(Bone, parent_id) as u64,
                format!("bone {i} has parent_id {parent}: parents must come before their children (or be -1)"),
            ));
        }
    }
    for (a, animation) in dmf.animations.iter().enumerate() {
        let at = layout.record_at(Section::Animations, a);
        let whose = format!("animation {a}");
        check_name(&animation.name, at, &whose)?;
        check_id(
            animation.id,
            a,
            at + offset_of!(AnimationRecord, anim_id) as u64,
            &whose,
        )?;
        let tracks_at = u64::from(layout.track_offsets.get(a).copied().unwrap_or(0));
        for (t, track) in animation.tracks.iter().enumerate() {
            if !track.flags_are_valid() {
                return Err(unencodable(
                    tracks_at + (t * Track::SIZE + offset_of!(Track, prs_flags)) as u64,
                    format!(
                        "track {t} of animation {a} has prs_flags {:#x}: it needs at least one of bits 0..2 and no other",
                        track.prs_flags.get()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Counts the bytes written: the binary writer pads without seeking, and both writers say
/// where their output stopped when a write fails.
pub(crate) struct Counting<W> {
    pub(crate) inner: W,
    pub(crate) pos: u64,
}

impl<W: Write> Counting<W> {
    fn pad_to(&mut self, target: u64) -> std::io::Result<()> {
        const ZEROS: [u8; 4] = [0; 4];
        let gap = target.saturating_sub(self.pos) as usize;
        self.write_all(&ZEROS[..gap.min(4)])
    }
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.pos += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes the file front to back: every record's bytes are already in file order, so no
/// seeking is needed.
fn write_layout<W: Write>(dmf: &Dmf, layout: &Layout, w: &mut Counting<W>) -> std::io::Result<()> {
    let header = FileHeader {
        magic: U32::new(MAGIC_WORD),
        major_version: U16::new(MAJOR_VERSION),
        minor_version: U16::new(MINOR_VERSION),
        header_offset: U32::new(ATTRIBUTE_TABLE_OFFSET),
        header_count: U32::new(ATTRIBUTE_COUNT),
    };
    w.write_all(header.as_bytes())?;
    for (section, &(offset, count)) in Section::ALL.into_iter().zip(&layout.sections) {
        let attribute = Attribute {
            label: U32::new(section.label()),
            flags: U32::ZERO,
            offset: U32::new(offset),
            count: U32::new(count),
        };
        w.write_all(attribute.as_bytes())?;
    }
    let pad_to_section = |w: &mut Counting<W>, section: Section| w.pad_to(layout.sections[section as usize].0.into());

    pad_to_section(w, Section::Textures)?;
    for (texture, &offset) in dmf.textures.iter().zip(&layout.png_offsets) {
        // Lengths were checked to fit when the layout was made.
        w.write_all(texture.to_record(offset, texture.png.len() as u32).as_bytes())?;
    }
    for (texture, &offset) in dmf.textures.iter().zip(&layout.png_offsets) {
        if !texture.png.is_empty() {
            w.pad_to(offset.into())?;
            w.write_all(&texture.png)?;
        }
    }
    if !dmf.materials.is_empty() {
        pad_to_section(w, Section::Materials)?;
        let records: Vec<MaterialRecord> = dmf.materials.iter().map(|m| m.to_record()).collect();
        write_records(w, &records)?;
    }
    pad_to_section(w, Section::Vertices)?;
    write_records::<Vertex, _>(w, &dmf.vertices)?;
    pad_to_section(w, Section::Faces)?;
    write_records::<Face, _>(w, &dmf.faces)?;
    pad_to_section(w, Section::Bones)?;
    write_records::<Bone, _>(w, &dmf.bones)?;
    pad_to_section(w, Section::Animations)?;
    for (animation, &offset) in dmf.animations.iter().zip(&layout.track_offsets) {
        w.write_all(animation.to_record(offset, animation.tracks.len() as u32).as_bytes())?;
    }
    for animation in &dmf.animations {
        write_records::<Track, _>(w, &animation.tracks)?;
    }
    Ok(())
}

/// Writes `dmf` in the canonical layout to `writer`, front to back (no seeking; wrap a file
/// in a `BufWriter`, as every record is a separate write).
///
/// The layout: the 16-byte header, the attribute table at 0x10, then the sections in table
/// order (textures, materials, vertices, faces, bones, animations), each on a 4-byte
/// boundary; each texture's PNG bytes follow the texture records, in texture order, each
/// 4-aligned; each animation's tracks follow the animation records, in animation order. An
/// empty section, an animation without tracks and a texture without image bytes have offset
/// 0 and count 0. Padding bytes are zero.
///
/// Refused with [`ErrorKind::Unencodable`], at the offset the record would be written at: a
/// name without room for its NUL or not UTF-8, an id that is not the record's position, a
/// bone whose parent is not -1 or an earlier bone, a track whose `prs_flags` has no bit or
/// a bit above bit 2, and any count, offset or length that does not fit its field. Enum
/// values are in range by construction.
pub fn write(dmf: &Dmf, writer: impl Write) -> Result<()> {
    let layout = plan(dmf)?;
    write_planned(dmf, &layout, writer).map(drop)
}

/// [`write()`] into a new byte vector, allocated once at the file's final size.
pub fn to_bytes(dmf: &Dmf) -> Result<Vec<u8>> {
    let layout = plan(dmf)?;
    let capacity = usize::try_from(layout.len).map_err(|_| unencodable(0, "a file this large".into()))?;
    write_planned(dmf, &layout, Vec::with_capacity(capacity))
}

/// The canonical layout of `dmf`, once the rules the writer enforces hold.
fn plan(dmf: &Dmf) -> Result<Layout> {
    let layout = Layout::of(dmf)?;
    check(dmf, &layout)?;
    Ok(layout)
}

/// Writes `dmf` in its planned layout and hands the writer back.
fn write_planned<W: Write>(dmf: &Dmf, layout: &Layout, writer: W) -> Result<W> {
    let mut w = Counting { inner: writer, pos: 0 };
    write_layout(dmf, layout, &mut w).map_err(|e| Error::new(FORMAT, w.pos, ErrorKind::Io(e)))?;
    debug_assert_eq!(w.pos, layout.len);
    Ok(w.inner)
}
