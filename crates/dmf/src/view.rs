//! A zero-copy view of a DMF file: checked once, then borrowed `&[Record]` slices.

use std::fmt;
use std::mem::offset_of;
use std::ops::Range;

use animbin_core::io::{first_overlap, slice_at};
use animbin_core::{Error, ErrorKind, Result};
use zerocopy::FromBytes;

use crate::layout::{
    ATTRIBUTE_COUNT, AnimationRecord, Attribute, Bone, Face, FileHeader, MAJOR_VERSION, MaterialRecord, Record,
    Section, TextureRecord, Track, Vertex, show_bytes,
};
use crate::model::{Dmf, Material, Texture};
use crate::{FORMAT, MAGIC};

/// A DMF file borrowed in place.
///
/// [`View::parse`] checks the header, the attribute table, that every section, image and track
/// list lies inside the file without overlapping another, and every enum value; afterwards
/// every accessor is a plain borrow. Parsing does work per texture, material and animation
/// (their images, enums and track lists) but none per vertex, face, bone or track.
#[derive(Clone, Copy)]
pub struct View<'a> {
    bytes: &'a [u8],
    header: &'a FileHeader,
    attributes: &'a [Attribute],
    textures: &'a [TextureRecord],
    materials: &'a [MaterialRecord],
    vertices: &'a [Vertex],
    faces: &'a [Face],
    bones: &'a [Bone],
    animations: &'a [AnimationRecord],
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("len", &self.bytes.len())
            .field("textures", &self.textures.len())
            .field("materials", &self.materials.len())
            .field("vertices", &self.vertices.len())
            .field("faces", &self.faces.len())
            .field("bones", &self.bones.len())
            .field("animations", &self.animations.len())
            .finish()
    }
}

/// What a [`Region`] holds, named only when an error needs it (parsing allocates no text).
#[derive(Clone, Copy)]
enum Holds {
    Header,
    Table,
    Section(Section),
    Image(usize),
    Tracks(usize),
}

impl fmt::Display for Holds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Header => f.write_str("the file header"),
            Self::Table => f.write_str("the attribute table"),
            Self::Section(section) => write!(f, "the {} section", section.noun()),
            Self::Image(i) => write!(f, "the image of texture {i}"),
            Self::Tracks(i) => write!(f, "the tracks of animation {i}"),
        }
    }
}

/// A byte range of the file that holds something, for the overlap check.
struct Region {
    range: Range<u64>,
    what: Holds,
    /// Where the offset that placed it is stored (the error's offset).
    field_at: u64,
}

fn invalid(at: u64, expected: impl Into<String>, found: impl fmt::Display) -> Error {
    Error::new(FORMAT, at, ErrorKind::invalid(expected, found))
}

/// The range of `count` items of `size` bytes at `offset`, which must lie inside a file of
/// `len` bytes; the error names `what` and sits at `field_at`, where the offset is stored.
fn checked_range(len: u64, offset: u64, count: u64, size: u64, what: Holds, field_at: u64) -> Result<Range<u64>> {
    let bytes = count.checked_mul(size);
    let end = bytes.and_then(|b| b.checked_add(offset));
    match end {
        Some(end) if end <= len => Ok(offset..end),
        _ => {
            let span = match end {
                Some(end) => format!("{offset:#x}..{end:#x}"),
                None => format!("{offset:#x}.. (past 2^64)"),
            };
            let how = if size > 1 && offset < len && len - offset < bytes.unwrap_or(u64::MAX) {
                let inside = len - offset;
                format!(
                    "; the file ends after {} whole records and {} bytes of the next",
                    inside / size,
                    inside % size
                )
            } else {
                String::new()
            };
            Err(invalid(
                field_at,
                format!("{what} inside the file ({len:#x} bytes)"),
                format!("{count} x {size} bytes at {span}{how}"),
            ))
        }
    }
}

impl<'a> View<'a> {
    /// Checks `bytes` as a DMF file and borrows its records.
    ///
    /// Errors (with the offset of the field at fault): a file shorter than its header, a wrong
    /// magic, a major version other than 1, a header count other than 6, a wrong label, a
    /// section, image or track list that leaves the file (offset + count * size computed without
    /// overflow) or overlaps the header, the attribute table or another, and an enum value
    /// outside its list.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let len = bytes.len() as u64;
        // A wrong magic is named as such even in a file too short for the header.
        if !bytes.starts_with(MAGIC) && !MAGIC.starts_with(bytes) {
            let found = &bytes[..bytes.len().min(4)];
            return Err(invalid(0, "the magic \"DASH\"", show_bytes(found)));
        }
        let (header, _) = FileHeader::ref_from_prefix(bytes).map_err(|_| {
            Error::new(
                FORMAT,
                len,
                ErrorKind::UnexpectedEof {
                    expected: "the 16-byte DMF file header".into(),
                },
            )
        })?;
        if header.major_version.get() != MAJOR_VERSION {
            let at = offset_of!(FileHeader, major_version) as u64;
            return Err(invalid(at, "major version 1", header.major_version.get()));
        }
        if header.header_count.get() != ATTRIBUTE_COUNT {
            let at = offset_of!(FileHeader, header_count) as u64;
            return Err(invalid(at, "6 attribute entries (DMF 1.5)", header.header_count.get()));
        }

        let mut regions = vec![Region {
            range: 0..FileHeader::SIZE as u64,
            what: Holds::Header,
            field_at: 0,
        }];
        let table_field = offset_of!(FileHeader, header_offset) as u64;
        let table_at = u64::from(header.header_offset.get());
        let table = checked_range(
            len,
            table_at,
            ATTRIBUTE_COUNT.into(),
            Attribute::SIZE as u64,
            Holds::Table,
            table_field,
        )?;
        regions.push(Region {
            range: table.clone(),
            what: Holds::Table,
            field_at: table_field,
        });
        // The ranges are checked: the casts below cannot fail.
        let attributes: &[Attribute] =
            slice_at(FORMAT, bytes, table.start, ATTRIBUTE_COUNT.into(), Attribute::SPEC_NAME)?;

        let mut sections: [Range<u64>; 6] = Default::default();
        for ((i, attribute), section) in attributes.iter().enumerate().zip(Section::ALL) {
            let entry_at = table_at + (i * Attribute::SIZE) as u64;
            if attribute.label.get() != section.label() {
                return Err(invalid(
                    entry_at,
                    format!("the label {} of attribute entry {i}", show_bytes(section.label_bytes())),
                    show_bytes(&attribute.label.get().to_le_bytes()),
                ));
            }
            let count = u64::from(attribute.count.get());
            if count == 0 {
                continue;
            }
            let field_at = entry_at + offset_of!(Attribute, offset) as u64;
            let range = checked_range(
                len,
                attribute.offset.get().into(),
                count,
                section.record_size() as u64,
                Holds::Section(section),
                field_at,
            )?;
            regions.push(Region {
                range: range.clone(),
                what: Holds::Section(section),
                field_at,
            });
            sections[i] = range;
        }
        let count = |i: usize| u64::from(attributes[i].count.get());
        let [tex, mat, vert, face, bone, anim] = &sections;
        let view = Self {
            bytes,
            header,
            attributes,
            textures: slice_at(FORMAT, bytes, tex.start, count(0), TextureRecord::SPEC_NAME)?,
            materials: slice_at(FORMAT, bytes, mat.start, count(1), MaterialRecord::SPEC_NAME)?,
            vertices: slice_at(FORMAT, bytes, vert.start, count(2), Vertex::SPEC_NAME)?,
            faces: slice_at(FORMAT, bytes, face.start, count(3), Face::SPEC_NAME)?,
            bones: slice_at(FORMAT, bytes, bone.start, count(4), Bone::SPEC_NAME)?,
            animations: slice_at(FORMAT, bytes, anim.start, count(5), AnimationRecord::SPEC_NAME)?,
        };

        for (i, texture) in view.textures.iter().enumerate() {
            let at = tex.start + (i * TextureRecord::SIZE) as u64;
            // The enums; the PNG bytes are not needed for the check.
            Texture::from_record(texture, Vec::new(), at)?;
            if texture.img_length.get() > 0 {
                let field_at = at + offset_of!(TextureRecord, img_offset) as u64;
                let what = Holds::Image(i);
                let range = checked_range(
                    len,
                    texture.img_offset.get().into(),
                    texture.img_length.get().into(),
                    1,
                    what,
                    field_at,
                )?;
                regions.push(Region { range, what, field_at });
            }
        }
        for (i, material) in view.materials.iter().enumerate() {
            Material::from_record(material, mat.start + (i * MaterialRecord::SIZE) as u64)?;
        }
        for (i, animation) in view.animations.iter().enumerate() {
            if animation.track_count.get() > 0 {
                let at = anim.start + (i * AnimationRecord::SIZE) as u64;
                let field_at = at + offset_of!(AnimationRecord, track_offset) as u64;
                let what = Holds::Tracks(i);
                let range = checked_range(
                    len,
                    animation.track_offset.get().into(),
                    animation.track_count.get().into(),
                    Track::SIZE as u64,
                    what,
                    field_at,
                )?;
                regions.push(Region { range, what, field_at });
            }
        }
        check_overlaps(regions)?;
        Ok(view)
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The file header.
    pub fn header(&self) -> &'a FileHeader {
        self.header
    }

    /// The six attribute entries, in [`Section::ALL`] order.
    pub fn attributes(&self) -> &'a [Attribute] {
        self.attributes
    }

    /// The texture records.
    pub fn textures(&self) -> &'a [TextureRecord] {
        self.textures
    }

    /// The material records.
    pub fn materials(&self) -> &'a [MaterialRecord] {
        self.materials
    }

    /// The vertices.
    pub fn vertices(&self) -> &'a [Vertex] {
        self.vertices
    }

    /// The faces.
    pub fn faces(&self) -> &'a [Face] {
        self.faces
    }

    /// The bones.
    pub fn bones(&self) -> &'a [Bone] {
        self.bones
    }

    /// The animation records.
    pub fn animations(&self) -> &'a [AnimationRecord] {
        self.animations
    }

    /// The PNG bytes of texture `index` (`None` past the last texture).
    pub fn png(&self, index: usize) -> Option<&'a [u8]> {
        let texture = self.textures.get(index)?;
        let length = texture.img_length.get() as usize;
        if length == 0 {
            return Some(&[]);
        }
        let start = texture.img_offset.get() as usize;
        self.bytes.get(start..start.checked_add(length)?)
    }

    /// The tracks of animation `index` (`None` past the last animation).
    pub fn tracks(&self, index: usize) -> Option<&'a [Track]> {
        let animation = self.animations.get(index)?;
        let count = animation.track_count.get() as usize;
        if count == 0 {
            return Some(&[]);
        }
        let start = animation.track_offset.get() as usize;
        let end = count.checked_mul(Track::SIZE)?.checked_add(start)?;
        <[Track]>::ref_from_bytes(self.bytes.get(start..end)?).ok()
    }

    /// Every texture record with its PNG bytes.
    pub fn textures_with_png(&self) -> impl Iterator<Item = (&'a TextureRecord, &'a [u8])> + '_ {
        self.textures
            .iter()
            .enumerate()
            .filter_map(|(i, t)| Some((t, self.png(i)?)))
    }

    /// Every animation record with its tracks.
    pub fn animations_with_tracks(&self) -> impl Iterator<Item = (&'a AnimationRecord, &'a [Track])> + '_ {
        self.animations
            .iter()
            .enumerate()
            .filter_map(|(i, a)| Some((a, self.tracks(i)?)))
    }

    /// The number of tracks over all animations.
    pub fn track_count(&self) -> u64 {
        self.animations.iter().map(|a| u64::from(a.track_count.get())).sum()
    }

    /// Checks what [`View::to_dmf`] checks beyond [`View::parse`]: the enum fields of the
    /// textures and materials (a value outside the spec's list is a read error). Costs one
    /// look per texture and material, nothing per vertex, face or track, so a summary from
    /// the view accepts exactly the files [`crate::read`] does.
    pub fn check_records(&self) -> Result<()> {
        // The images are not copied: only the records' fields are checked.
        for texture in self.typed_textures(|_| Vec::new()) {
            texture?;
        }
        for material in self.typed_materials() {
            material?;
        }
        Ok(())
    }

    /// The textures as the model holds them, each with the image `image` makes of its PNG
    /// bytes; a wrap mode outside the spec's list is an error at its field.
    fn typed_textures<'s>(
        &'s self,
        image: impl Fn(&'a [u8]) -> Vec<u8> + 's,
    ) -> impl Iterator<Item = Result<Texture>> + 's {
        let start = u64::from(self.attributes[0].offset.get());
        self.textures_with_png().enumerate().map(move |(i, (record, png))| {
            Texture::from_record(record, image(png), start + (i * TextureRecord::SIZE) as u64)
        })
    }

    /// The materials as the model holds them; an enum value outside the spec's list is an
    /// error at its field.
    fn typed_materials(&self) -> impl Iterator<Item = Result<Material>> + '_ {
        let start = u64::from(self.attributes[1].offset.get());
        self.materials
            .iter()
            .enumerate()
            .map(move |(i, record)| Material::from_record(record, start + (i * MaterialRecord::SIZE) as u64))
    }

    /// Copies the file into the owned model: one copy per section, image and track list.
    pub fn to_dmf(&self) -> Result<Dmf> {
        let textures = self.typed_textures(<[u8]>::to_vec).collect::<Result<Vec<_>>>()?;
        let materials = self.typed_materials().collect::<Result<Vec<_>>>()?;
        let animations = self
            .animations_with_tracks()
            .map(|(record, tracks)| crate::model::Animation::from_record(record, tracks.to_vec()))
            .collect();
        Ok(Dmf {
            textures,
            materials,
            vertices: self.vertices.to_vec(),
            faces: self.faces.to_vec(),
            bones: self.bones.to_vec(),
            animations,
        })
    }
}

/// Refuses any two regions that share a byte, at the offset field of the later one.
fn check_overlaps(mut regions: Vec<Region>) -> Result<()> {
    match first_overlap(&mut regions, |r| r.range.clone()) {
        Some((region, prev)) => Err(invalid(
            region.field_at,
            format!(
                "{} not to overlap {} ({:#x}..{:#x})",
                region.what, prev.what, prev.range.start, prev.range.end
            ),
            format!("{:#x}..{:#x}", region.range.start, region.range.end),
        )),
        None => Ok(()),
    }
}
