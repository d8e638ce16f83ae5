//! # animbin-sf3
//!
//! Shining Force III (Sega Saturn) battle animations, the `x8anNN.bin` files: one per
//! character, keyframed, read and written byte for byte.
//!
//! ## The format
//! There is **no magic**: "x8an" is only the start of the file name. Every value is
//! **big-endian**. A file is a run of *segments*, with any number of zero `u32` words
//! between them, ended by the end of the file or by a `0xFFFFFFFF` word where the next
//! segment would start. A segment is
//!
//! ```text
//! u32 slot_table_offset            relative to the segment start (= size of the data section)
//! key data                         offsets 4 .. slot_table_offset
//! slot table                       64-byte SlotEntry records, one per slot (bone)
//! u32 0xFFFFFFFF                   as the next entry's translation key count
//! ```
//!
//! A [`SlotEntry`] holds three key counts (translation, rotation, scale) and 13 offsets,
//! relative to the segment start: the times of each channel (`u16`), translation x, y, z
//! (`i32` SGL `FIXED` 16.16), rotation x, y, z, w (`i16`, value / 16384) and scale x, y, z
//! (16.16). **The counts are per channel**: the worked example of the community's
//! description (5 translation, 7 rotation, 1 scale keys) gives the x, y and z arrays of a
//! channel the length of its times array, so there are separate arrays per component but no
//! per-component counts.
//!
//! Units and conventions: key times are ticks (frames) with no rate in the file; the scene
//! conversion calls them frames at 30 fps unless told otherwise ([`SceneOptions::framerate`]).
//! Translations are in the model's units (SGL `POINT`), quaternions are x, y, z, w.
//! Scale is normally one key of 1.0.
//!
//! ## Where this differs from the community's description of the format
//! - Rotation components are i16 / **16384** (the game shifts them left by 2 into 16.16),
//!   in the order **x, y, z, w**. The description's "real part first" labels and its /65536
//!   example are wrong: its example quaternion has length 0.25, four times that is a unit
//!   quaternion with w last.
//! - A `0xFFFFFFFF` word in place of a segment ends the file (the description only knows
//!   EOF); zero words may also come before the first segment.
//! - The description reads the scale value `0x00000001` as "1"; in 16.16 1.0 is `0x00010000`.
//!
//! ## Reading, writing, checking
//! [`read`] parses a whole file; [`View::parse`] does the same without copying the key
//! arrays (zero-copy big-endian slices, each checked once against its segment's data
//! section). Any placement of the arrays inside the data section reads, misaligned ones too;
//! an array leaving the data section, two arrays sharing bytes, a count of `0xFFFFFFFF`
//! other than the terminator, a slot table with no terminator or a truncated file are
//! errors that give the byte offset. [`Summary::parse`] makes the same checks and keeps only
//! the counts (no key is read: a file has no header, so its slot tables are walked to find
//! the segments): the [`Summary`] `animbin info` shows, the same as the model's
//! ([`FileFormat::summary`]) and the view's ([`View::summary`]). [`parse_slot_table`] reads a slot table inside any
//! slice, such as the identically laid out animation chunks of x8pc model files.
//!
//! [`to_bytes`] writes the canonical layout (slot after slot from offset 4:
//! t-times, r-times, s-times, zero padding to 4, tx, ty, tz, rx, ry, rz, rw, sx, sy, sz),
//! and keeps the padding words and the end marker of the model, so a canonical file is
//! rewritten byte for byte. Files with another placement read, and are rewritten canonically.
//! [`validate`] lists what a readable file can still get wrong (key times going backwards
//! within a channel, an error) and what is legal but suspicious (rotations that are not unit
//! length, bytes after the end marker: warnings), each a [`Problem`] placed at its slot.
//!
//! [`Sf3File`] implements [`FileFormat`], the contract every animbin format crate implements
//! the same way: one form, no [`MAGIC`] (files are known by their name, [`is_x8an_name`]),
//! the count-only [`Summary`], [`Problem`]s, the model's serde form as its dump, the scene.
//!
//! ## Decisions where no description says
//! - A file holds at least one segment: an empty file, or one of padding and an end marker
//!   only, is an error (and the writer refuses an [`Sf3File`] with no segment).
//! - Padding is whole words: 1 to 3 bytes left at the end of a file are an error. A run of
//!   padding holds at most [`MAX_PADDING_WORDS`] words, when reading and when writing.
//! - Arrays may not share bytes (the described example packs them one after another); an
//!   empty array's offset must still lie in `4..=slot_table_offset`.
//! - Key times are kept in file order; times that go backwards read, and [`validate`]
//!   reports them.
//!
//! [`Sf3File::to_scene`] and [`Sf3File::from_scene`] convert to and from the neutral
//! [`Scene`]: one animation per segment, one bone track per slot.
//!
//! ```
//! use animbin_sf3::{ConversionReport, Ending, Fixed16, Key, Quat, Rot14, SceneOptions, Segment, Sf3File, Slot, Vec3};
//!
//! let slot = Slot {
//!     translation: vec![Key::new(0, Vec3::new(Fixed16::ONE, Fixed16(0), Fixed16(-0x8000)))],
//!     rotation: vec![Key::new(0, Quat::new(Rot14(0), Rot14(0), Rot14(0), Rot14::ONE))],
//!     scale: vec![Key::new(0, Vec3::new(Fixed16::ONE, Fixed16::ONE, Fixed16::ONE))],
//! };
//! let file = Sf3File {
//!     segments: vec![Segment { padding_words: 0, slots: vec![slot] }],
//!     padding_words: 1,
//!     ending: Ending::EndMarker { trailing: vec![] },
//! };
//! let bytes = animbin_sf3::to_bytes(&file)?;
//! assert_eq!(&bytes[..4], &[0, 0, 0, 0x2c]); // the slot table follows 40 bytes of keys
//! assert_eq!(animbin_sf3::read(&bytes)?, file);
//! assert!(animbin_sf3::validate(&file).is_empty());
//!
//! let mut report = ConversionReport::default();
//! let scene = file.to_scene(&SceneOptions::default(), &mut report)?;
//! assert_eq!(scene.animations[0].bones[0].translation.first().map(|k| k.value.z), Some(-0.5));
//! assert_eq!(scene.animations[0].framerate, 30.0);
//! // A scene has no place for the padding word and the end marker.
//! assert_eq!(report.lost, ["the padding words and end marker of the SF3 file"]);
//! # Ok::<(), animbin_sf3::Error>(())
//! ```

mod format;
mod layout;
mod model;
mod scene;
mod summary;
mod validate;
mod view;
mod write;

pub use animbin_core::scene::Scene;
pub use animbin_core::{
    ConversionReport, Diagnostic, Error, ErrorKind, FileFormat, Fixed16, Location, Problem, Quat, Result, Rot14,
    SceneOptions, Severity, UNIT_QUATERNION_TOLERANCE, Vec3,
};
pub use format::is_x8an_name;
pub use layout::{ArrayKind, Channel, END_MARKER, SLOT_ENTRY_SIZE, SegmentHeader, SlotEntry};
pub use model::{Ending, Key, MAX_PADDING_WORDS, Segment, Sf3File, Slot};
pub use scene::DEFAULT_FRAMERATE;
pub use summary::Summary;
pub use validate::{ROTATION_LENGTH_TOLERANCE, validate};
pub use view::{PlacedSegment, SegmentView, SlotTable, SlotView, View, parse_slot_table};
pub use write::{to_bytes, write};

/// The format's short name in errors and on the command line.
pub const FORMAT: &str = "sf3";

/// The bytes every x8an file starts with: none. "x8an" is only the start of the file name
/// ([`is_x8an_name`]).
pub const MAGIC: &[u8] = b"";

/// Reads a whole x8an file.
pub fn read(bytes: &[u8]) -> Result<Sf3File> {
    view::read_file(bytes)
}
