//! A zero-copy view of an SEAnim file: walks bones, keys and notes in place.
//!
//! [`View::parse`] checks the whole file once (every count against the bytes left, every name's
//! NUL and UTF-8, every anim type) and records where each block starts; after that, walking
//! bones and keys copies nothing and cannot fail. Key runs are borrowed as slices of
//! [`KeyRecord`](crate::KeyRecord)s with little-endian fields, since `frame_t` and the
//! precision are fixed for the whole file.

use animbin_core::index::{IndexRecord, IndexSlice};
use animbin_core::io::ViewCursor;
use animbin_core::seblend::Trailer;
use animbin_core::{Error, ErrorKind, IndexField, IndexWidth, Quat, Result, Vec3};
use zerocopy::little_endian::{F32, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::keys::{KeyRun, KeyValue, Precision};
use crate::layout::{
    self, AnimFlags, AnimType, Bone, FrameWidthRule, HEADER_SIZE, Note, PresenceFlags, PropertyFlags, SeAnim,
    StrayCounts,
};
use crate::{FORMAT, Modifier, SeBlend};

/// The fixed part of the header as stored at offsets 8..36 (`SEAnim_Header` in the specification).
#[derive(Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct HeaderRecord {
    /// `uint16_t headerSize`, counting itself: 0x1C or more.
    pub header_size: U16,
    /// `uint8_t animType`.
    pub anim_type: u8,
    /// `uint8_t animFlags`.
    pub anim_flags: u8,
    /// `uint8_t dataPresenceFlags`.
    pub data_presence_flags: u8,
    /// `uint8_t dataPropertyFlags`.
    pub data_property_flags: u8,
    /// `uint8_t reserved1[2]`.
    pub reserved1: [u8; 2],
    /// `float framerate`.
    pub framerate: F32,
    /// `uint32_t frameCount`.
    pub frame_count: U32,
    /// `uint32_t boneCount`.
    pub bone_count: U32,
    /// `uint8_t boneAnimModifierCount`.
    pub bone_anim_modifier_count: u8,
    /// `uint8_t reserved2[3]`.
    pub reserved2: [u8; 3],
    /// `uint32_t noteCount`.
    pub note_count: U32,
}

const _: () = assert!(size_of::<HeaderRecord>() == HEADER_SIZE as usize);

/// One `SEAnim_BoneAnimModifier` as stored: `bone_t index` (`B` is `u8`, [`U16`] or [`U32`])
/// and `uint8_t animTypeOverride`.
#[derive(Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ModifierRecord<B> {
    /// `bone_t index`.
    pub bone: B,
    /// `uint8_t animTypeOverride` (checked to be 0..3 when the view opened).
    pub anim_type: u8,
}

impl<B: IndexField> ModifierRecord<B> {
    /// The modifier, or `None` when the override is not an anim type (a view has checked
    /// every record of its file).
    pub fn modifier(&self) -> Option<Modifier> {
        AnimType::from_repr(self.anim_type).map(|anim_type| Modifier {
            bone: self.bone.get(),
            anim_type,
        })
    }
}

/// A modifier record reads as its [`Modifier`], or `None` when the override is not an anim
/// type (a view has checked every record of its file).
impl<B: IndexField> IndexRecord for ModifierRecord<B> {
    type Item = Option<Modifier>;
    #[inline]
    fn value(&self) -> Option<Modifier> {
        self.modifier()
    }
}

/// The modifier records of a file, at its `bone_t` width: core's [`IndexSlice`] of
/// [`ModifierRecord`]s, each read as `Option<Modifier>` (`None` only for an override that
/// is not an anim type, which a view refuses when it opens).
pub type ModifierRun<'a> = IndexSlice<'a, ModifierRecord<u8>, ModifierRecord<U16>, ModifierRecord<U32>>;

/// One bone as the view sees it: its name, flags and borrowed key runs.
#[derive(Debug, Clone, Copy)]
pub struct BoneView<'a> {
    /// The name.
    pub name: &'a str,
    /// `uint8_t flags` (0 default, 1 cosmetic).
    pub flags: u8,
    /// Location keys (empty without `SEANIM_BONE_LOC`).
    pub location: KeyRun<'a, Vec3<f64>>,
    /// Rotation keys, x y z w (empty without `SEANIM_BONE_ROT`).
    pub rotation: KeyRun<'a, Quat<f64>>,
    /// Scale keys (empty without `SEANIM_BONE_SCALE`).
    pub scale: KeyRun<'a, Vec3<f64>>,
}

/// A zero-copy view of a whole SEAnim file.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    header: &'a HeaderRecord,
    anim_type: AnimType,
    frame_width_rule: FrameWidthRule,
    header_extra: &'a [u8],
    names: &'a [u8],
    modifiers: ModifierRun<'a>,
    bone_data: &'a [u8],
    notes: &'a [u8],
    custom: &'a [u8],
    trailer: &'a [u8],
}

/// Reads a little-endian `frame_t` or `bone_t` index of the given width.
fn index(c: &mut ViewCursor<'_>, width: IndexWidth, what: &str) -> Result<u32> {
    Ok(match width {
        IndexWidth::U8 => u32::from(c.u8(what)?),
        IndexWidth::U16 => u32::from(c.array(what).map(u16::from_le_bytes)?),
        IndexWidth::U32 => c.array(what).map(u32::from_le_bytes)?,
    })
}

/// Borrows a key run (its `frame_t` count, then the records), or an empty one when absent.
fn run<'a, V: KeyValue>(
    c: &mut ViewCursor<'a>,
    present: bool,
    frame: IndexWidth,
    precision: Precision,
    what: &str,
) -> Result<KeyRun<'a, V>> {
    if !present {
        return Ok(KeyRun::empty());
    }
    let count = index(c, frame, what)?;
    KeyRun::take(c, u64::from(count), frame, precision, what)
}

/// Borrows one bone's `SEAnim_BoneData`: its flags and key runs.
fn bone<'a>(
    c: &mut ViewCursor<'a>,
    name: &'a str,
    presence: PresenceFlags,
    frame: IndexWidth,
    precision: Precision,
) -> Result<BoneView<'a>> {
    let flags = c.u8("bone flags")?;
    let location = run(
        c,
        presence.contains(PresenceFlags::LOC),
        frame,
        precision,
        "location key",
    )?;
    let rotation = run(
        c,
        presence.contains(PresenceFlags::ROT),
        frame,
        precision,
        "rotation key",
    )?;
    let scale = run(
        c,
        presence.contains(PresenceFlags::SCALE),
        frame,
        precision,
        "scale key",
    )?;
    Ok(BoneView {
        name,
        flags,
        location,
        rotation,
        scale,
    })
}

impl<'a> View<'a> {
    /// Opens a view of `bytes`, checking the whole file once.
    ///
    /// Like [`crate::read`], a file whose `frameCount` is 256 or 65536 and that does not parse
    /// to its end under the current `frame_t` rule is retried under the old one.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let current = Self::parse_with_rule(bytes, FrameWidthRule::Current);
        if crate::frame_count_is_a_rule_boundary(bytes) && !current.as_ref().is_ok_and(View::parses_to_end) {
            if let Ok(legacy) = Self::parse_with_rule(bytes, FrameWidthRule::Legacy) {
                if legacy.parses_to_end() {
                    return Ok(legacy);
                }
            }
        }
        current
    }

    /// Whether nothing but an SEBlend trailer (or nothing) follows the last block.
    fn parses_to_end(&self) -> bool {
        !matches!(layout::parse_trailer(self.trailer.to_vec()), Trailer::Unknown(_))
    }

    /// Opens a view with a given `frame_t` rule and no fallback to the other one.
    pub fn parse_with_rule(bytes: &'a [u8], rule: FrameWidthRule) -> Result<Self> {
        let mut c = ViewCursor::new(FORMAT, bytes);
        let magic = c.take(6, "the magic \"SEAnim\"")?;
        if magic != layout::MAGIC {
            let found = layout::shown(magic);
            return Err(Error::new(FORMAT, 0, ErrorKind::invalid("the magic \"SEAnim\"", found)));
        }
        let version_at = c.pos() as u64;
        let version = index(&mut c, IndexWidth::U16, "the version")?;
        if version != 1 {
            return Err(Error::new(FORMAT, version_at, ErrorKind::invalid("version 1", version)));
        }
        let header_at = c.pos();
        let header_size = u16::from_le_bytes(c.array("headerSize")?);
        if header_size < HEADER_SIZE {
            return Err(Error::new(
                FORMAT,
                header_at as u64,
                ErrorKind::invalid(
                    "a headerSize of at least 0x1C (it counts its own two bytes)",
                    format!("{header_size:#x}"),
                ),
            ));
        }
        c.set_pos(header_at);
        let header_bytes = c.take(HEADER_SIZE as usize, "the 0x1C-byte header")?;
        let header = HeaderRecord::ref_from_bytes(header_bytes)
            .map_err(|_| Error::new(FORMAT, header_at as u64, ErrorKind::invalid("a header", "a misfit")))?;
        let anim_type = AnimType::try_from(header.anim_type)
            .map_err(|kind| Error::new(FORMAT, layout::offsets::ANIM_TYPE, kind))?;
        let header_extra = c.records(u64::from(header_size - HEADER_SIZE), 1, "extra header byte")?;

        let presence = PresenceFlags::from_bits_retain(header.data_presence_flags);
        let precision = PropertyFlags::from_bits_retain(header.data_property_flags).precision();
        let frame_width = rule.width(header.frame_count.get());
        let bone_count = header.bone_count.get();
        let bone_width = IndexWidth::for_count(u64::from(bone_count));

        let (mut names, mut modifiers, mut bone_data) = (&bytes[..0], ModifierRun::default(), &bytes[..0]);
        if presence.has_bones() {
            // Each name is at least its NUL.
            let names_at = c.pos();
            c.records(u64::from(bone_count), 1, "bone name")?;
            c.set_pos(names_at);
            for _ in 0..bone_count {
                c.cstr("bone name")?;
            }
            names = &bytes[names_at..c.pos()];

            let modifiers_at = c.pos();
            let count = u64::from(header.bone_anim_modifier_count);
            modifiers = ModifierRun::take(&mut c, bone_width, count, "bone modifier")?;
            if let Some(i) = modifiers.iter().position(|m| m.is_none()) {
                // The override is the last byte of the record.
                let record = bone_width.size() + 1;
                let pos = modifiers_at as u64 + (i as u64 + 1) * record - 1;
                let found = bytes.get(pos as usize).copied().unwrap_or_default();
                return Err(Error::new(FORMAT, pos, ErrorKind::invalid(AnimType::expected(), found)));
            }

            let data_at = c.pos();
            let mut name_cursor = ViewCursor::new(FORMAT, names);
            for _ in 0..bone_count {
                let name = name_cursor.cstr("bone name")?;
                bone(&mut c, name, presence, frame_width, precision)?;
            }
            bone_data = &bytes[data_at..c.pos()];
        }

        let notes_at = c.pos();
        if presence.contains(PresenceFlags::NOTE) {
            let count = u64::from(header.note_count.get());
            c.records(count, frame_width.size() + 1, "note")?;
            c.set_pos(notes_at);
            for _ in 0..count {
                index(&mut c, frame_width, "note frame")?;
                c.cstr("note name")?;
            }
        }
        let notes = &bytes[notes_at..c.pos()];

        let mut custom = &bytes[..0];
        if presence.contains(PresenceFlags::CUSTOM) {
            let size = c.array("the custom block size").map(u32::from_le_bytes)?;
            custom = c.records(u64::from(size), 1, "custom block byte")?;
        }
        let trailer = bytes.get(c.pos()..).unwrap_or_default();

        Ok(Self {
            header,
            anim_type,
            frame_width_rule: rule,
            header_extra,
            names,
            modifiers,
            bone_data,
            notes,
            custom,
            trailer,
        })
    }

    /// The header as stored.
    pub fn header(&self) -> &'a HeaderRecord {
        self.header
    }

    /// `animType`.
    pub fn anim_type(&self) -> AnimType {
        self.anim_type
    }

    /// `animFlags`.
    pub fn anim_flags(&self) -> AnimFlags {
        AnimFlags::from_bits_retain(self.header.anim_flags)
    }

    /// `dataPresenceFlags`.
    pub fn data_presence_flags(&self) -> PresenceFlags {
        PresenceFlags::from_bits_retain(self.header.data_presence_flags)
    }

    /// `dataPropertyFlags`.
    pub fn data_property_flags(&self) -> PropertyFlags {
        PropertyFlags::from_bits_retain(self.header.data_property_flags)
    }

    /// `framerate`.
    pub fn framerate(&self) -> f32 {
        self.header.framerate.get()
    }

    /// `frameCount`.
    pub fn frame_count(&self) -> u32 {
        self.header.frame_count.get()
    }

    /// The number of bones (0 without a bone block).
    pub fn bone_count(&self) -> u32 {
        if self.data_presence_flags().has_bones() {
            self.header.bone_count.get()
        } else {
            0
        }
    }

    /// The number of notes (0 without a note block).
    pub fn note_count(&self) -> u32 {
        if self.data_presence_flags().contains(PresenceFlags::NOTE) {
            self.header.note_count.get()
        } else {
            0
        }
    }

    /// The rule that chose `frame_t`.
    pub fn frame_width_rule(&self) -> FrameWidthRule {
        self.frame_width_rule
    }

    /// The width of `frame_t`.
    pub fn frame_width(&self) -> IndexWidth {
        self.frame_width_rule.width(self.frame_count())
    }

    /// The precision of key values.
    pub fn precision(&self) -> Precision {
        self.data_property_flags().precision()
    }

    /// Header bytes past 0x1C.
    pub fn header_extra(&self) -> &'a [u8] {
        self.header_extra
    }

    /// The bone modifiers.
    pub fn modifiers(&self) -> ModifierRun<'a> {
        self.modifiers
    }

    /// The bones in file order.
    pub fn bones(&self) -> Bones<'a> {
        Bones {
            names: ViewCursor::new(FORMAT, self.names),
            data: ViewCursor::new(FORMAT, self.bone_data),
            presence: self.data_presence_flags(),
            frame: self.frame_width(),
            precision: self.precision(),
        }
    }

    /// The notes in file order, as `(frame, name)`.
    pub fn notes(&self) -> Notes<'a> {
        Notes {
            cursor: ViewCursor::new(FORMAT, self.notes),
            frame: self.frame_width(),
        }
    }

    /// The custom block's bytes (empty without one).
    pub fn custom(&self) -> &'a [u8] {
        self.custom
    }

    /// The bytes after the last block (an SEBlend trailer or unknown bytes).
    pub fn trailer_bytes(&self) -> &'a [u8] {
        self.trailer
    }

    /// What follows the last block, parsed as the owned model holds it (this copies the
    /// trailer's bytes).
    pub fn trailer(&self) -> Trailer<SeBlend> {
        layout::parse_trailer(self.trailer.to_vec())
    }

    /// The owned model of the file, the same as [`crate::read`] gives. The bones' keys are
    /// decoded side by side ([`animbin_core::parallel`]): finding each bone's runs is a walk
    /// over the counts, decoding them is the work.
    pub fn to_anim(&self) -> SeAnim {
        let header = self.header;
        let views: Vec<BoneView<'_>> = self.bones().collect();
        let bones: Vec<Bone> = animbin_core::parallel::map_in_order(&views, |b| Bone {
            name: b.name.to_string(),
            flags: b.flags,
            location: b.location.to_keys(),
            rotation: b.rotation.to_keys(),
            scale: b.scale.to_keys(),
        });
        let notes: Vec<Note> = self
            .notes()
            .map(|(frame, name)| Note {
                frame,
                name: name.to_string(),
            })
            .collect();
        SeAnim {
            anim_type: self.anim_type,
            anim_flags: self.anim_flags(),
            data_presence_flags: self.data_presence_flags(),
            data_property_flags: self.data_property_flags(),
            reserved1: header.reserved1,
            framerate: self.framerate(),
            reserved2: header.reserved2,
            header_extra: self.header_extra.to_vec(),
            frame_width_rule: self.frame_width_rule,
            stray_counts: StrayCounts::from_header(
                self.data_presence_flags(),
                header.bone_count.get(),
                header.bone_anim_modifier_count,
                header.note_count.get(),
            ),
            modifiers: self.modifiers.iter().flatten().collect(),
            fixed_frame_count: layout::fixed_frame_count(self.frame_count(), &bones, &notes),
            bones,
            notes,
            custom: self.custom.to_vec(),
            trailer: layout::parse_trailer(self.trailer.to_vec()),
        }
    }
}

/// An iterator over a view's bones.
#[derive(Debug, Clone)]
pub struct Bones<'a> {
    names: ViewCursor<'a>,
    data: ViewCursor<'a>,
    presence: PresenceFlags,
    frame: IndexWidth,
    precision: Precision,
}

impl<'a> Iterator for Bones<'a> {
    type Item = BoneView<'a>;
    fn next(&mut self) -> Option<BoneView<'a>> {
        // The view checked every bone when it opened; these reads cannot fail.
        let name = self.names.cstr("bone name").ok()?;
        bone(&mut self.data, name, self.presence, self.frame, self.precision).ok()
    }
}

/// An iterator over a view's notes.
#[derive(Debug, Clone)]
pub struct Notes<'a> {
    cursor: ViewCursor<'a>,
    frame: IndexWidth,
}

impl<'a> Iterator for Notes<'a> {
    type Item = (u32, &'a str);
    fn next(&mut self) -> Option<(u32, &'a str)> {
        if self.cursor.left() == 0 {
            return None;
        }
        // Checked when the view opened; these reads cannot fail.
        let frame = index(&mut self.cursor, self.frame, "note frame").ok()?;
        let name = self.cursor.cstr("note name").ok()?;
        Some((frame, name))
    }
}
