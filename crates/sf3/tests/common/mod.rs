//! Fixtures shared by the tests.
#![allow(dead_code)]

use animbin_core::{Fixed16, Quat, Rot14, Vec3};
use animbin_sf3::{Key, Segment, Sf3File, Slot};
use animbin_testing::hex;

/// A segment of two slots whose slot 1 is the seed's worked example (x8an00.bin segment 49
/// slot 1): 5 translation, 7 rotation and 1 scale keys at exactly the offsets the seed
/// lists. Slot 0 fills 4..0x80 so that slot 1 starts where the seed says. Values are the
/// seed's (translation 16.16; rotation raw = the seed's printed value * 65536, that is
/// value / 16384 is four times what the seed prints); scale is 1.0 per FORMATS.md.
pub const SEED_SEGMENT: &str = "
00 00 01 1c  # 0x000 slot_table_offset
01 40 01 48 01 50 01 58 01 62  # 0x004 slot 0 translation times
01 40 01 4a 01 54 01 62  # 0x00e slot 0 rotation times
01 40  # 0x016 slot 0 scale times
00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  # 0x018 slot 0 translation x
00 01 00 00 00 02 00 00 00 03 00 00 00 04 00 00 00 05 00 00  # 0x02c slot 0 translation y
ff ff 80 00 ff ff 80 00 ff ff 80 00 ff ff 80 00 ff ff 80 00  # 0x040 slot 0 translation z
00 00 00 00 00 00 00 00  # 0x054 slot 0 rotation x
00 00 00 00 00 00 00 00  # 0x05c slot 0 rotation y
00 00 00 00 00 00 00 00  # 0x064 slot 0 rotation z
40 00 40 00 40 00 40 00  # 0x06c slot 0 rotation w
00 01 00 00  # 0x074 slot 0 scale x
00 01 00 00  # 0x078 slot 0 scale y
00 01 00 00  # 0x07c slot 0 scale z
01 40 01 4b 01 4f 01 59 01 62  # 0x080 slot 1 translation times
01 40 01 4b 01 4d 01 4f 01 59 01 5d 01 62  # 0x08a slot 1 rotation times
01 40  # 0x098 slot 1 scale times
00 00  # 0x09a padding to 4
00 02 dd 2f 00 02 dd 2f 00 02 dd 2f 00 02 dd 2f 00 02 dc ee  # 0x09c slot 1 translation x
ff ff 1a a0 ff ff 1a a0 ff fe ad 91 ff fe ad 91 ff ff 10 e5  # 0x0b0 slot 1 translation y
00 04 5b e7 00 04 5b e7 00 05 99 db 00 05 99 db 00 04 7c 6a  # 0x0c4 slot 1 translation z
0a 7f 0a 7f 0b c7 0d 0e 0d 0e 0c 08 0a c1  # 0x0d8 slot 1 rotation x
12 2d 12 2d 12 2d 12 2d 12 2d 12 2d 12 2d  # 0x0e6 slot 1 rotation y
fc ee fc ee fd 2f fd b2 fd b2 fd 71 fc ee  # 0x0f4 slot 1 rotation z
3c 6a 3c 6a 3c 29 3b e7 3b e7 3c 29 3c 6a  # 0x102 slot 1 rotation w
00 01 00 00  # 0x110 slot 1 scale x
00 01 00 00  # 0x114 slot 1 scale y
00 01 00 00  # 0x118 slot 1 scale z
00 00 00 05 00 00 00 04 00 00 00 01  # 0x11c slot 0 entry: key counts
00 00 00 04 00 00 00 0e 00 00 00 16  # 0x128 slot 0 entry: times offsets
00 00 00 18 00 00 00 2c 00 00 00 40  # 0x134 slot 0 entry: translation offsets
00 00 00 54 00 00 00 5c 00 00 00 64 00 00 00 6c  # 0x140 slot 0 entry: rotation offsets
00 00 00 74 00 00 00 78 00 00 00 7c  # 0x150 slot 0 entry: scale offsets
00 00 00 05 00 00 00 07 00 00 00 01  # 0x15c slot 1 entry: key counts (the seed's 5, 7, 1)
00 00 00 80 00 00 00 8a 00 00 00 98  # 0x168 slot 1 entry: times offsets
00 00 00 9c 00 00 00 b0 00 00 00 c4  # 0x174 slot 1 entry: translation offsets
00 00 00 d8 00 00 00 e6 00 00 00 f4 00 00 01 02  # 0x180 slot 1 entry: rotation offsets
00 00 01 10 00 00 01 14 00 00 01 18  # 0x190 slot 1 entry: scale offsets
ff ff ff ff  # 0x19c end of the slot table
";

/// The file offsets of fields in [`SEED_SEGMENT`].
pub const SLOT1_ENTRY: u64 = 0x15c;
/// The slot table terminator's offset in [`SEED_SEGMENT`].
pub const TERMINATOR: usize = 0x19c;

pub fn seed_segment_bytes() -> Vec<u8> {
    hex(SEED_SEGMENT)
}

fn v3(x: i32, y: i32, z: i32) -> Vec3<Fixed16> {
    Vec3::new(Fixed16(x), Fixed16(y), Fixed16(z))
}

fn q(x: i16, y: i16, z: i16, w: i16) -> Quat<Rot14> {
    Quat::new(Rot14(x), Rot14(y), Rot14(z), Rot14(w))
}

/// The model of [`SEED_SEGMENT`], written out from the seed's numbers.
pub fn seed_segment() -> Segment {
    let one = v3(0x10000, 0x10000, 0x10000);
    let slot0 = Slot {
        translation: [0x140, 0x148, 0x150, 0x158, 0x162]
            .into_iter()
            .zip(1..)
            .map(|(t, i)| Key::new(t, v3(0, 0x10000 * i, -0x8000)))
            .collect(),
        rotation: [0x140, 0x14a, 0x154, 0x162]
            .into_iter()
            .map(|t| Key::new(t, q(0, 0, 0, 0x4000)))
            .collect(),
        scale: vec![Key::new(0x140, one)],
    };
    let tx = [187695, 187695, 187695, 187695, 187630];
    let ty = [-58720, -58720, -86639, -86639, -61211];
    let tz = [285671, 285671, 367067, 367067, 293994];
    let rx = [2687, 2687, 3015, 3342, 3342, 3080, 2753];
    let rz = [-786, -786, -721, -590, -590, -655, -786];
    let rw = [15466, 15466, 15401, 15335, 15335, 15401, 15466];
    let slot1 = Slot {
        translation: [0x140, 0x14b, 0x14f, 0x159, 0x162]
            .into_iter()
            .enumerate()
            .map(|(i, t)| Key::new(t, v3(tx[i], ty[i], tz[i])))
            .collect(),
        rotation: [0x140, 0x14b, 0x14d, 0x14f, 0x159, 0x15d, 0x162]
            .into_iter()
            .enumerate()
            .map(|(i, t)| Key::new(t, q(rx[i], 4653, rz[i], rw[i])))
            .collect(),
        scale: vec![Key::new(0x140, one)],
    };
    Segment {
        padding_words: 0,
        slots: vec![slot0, slot1],
    }
}

/// A one-segment file of [`SEED_SEGMENT`].
pub fn seed_file() -> Sf3File {
    Sf3File {
        segments: vec![seed_segment()],
        ..Sf3File::default()
    }
}

/// A segment with one slot of one key per channel.
pub fn small_segment(time: u16, padding_words: u32) -> Segment {
    Segment {
        padding_words,
        slots: vec![Slot {
            translation: vec![Key::new(time, v3(0x10000, -0x10000, 0x7fff_ffff))],
            rotation: vec![Key::new(time, q(0, 0, 0, 0x4000))],
            scale: vec![Key::new(time, v3(0x10000, 0x10000, 0x10000))],
        }],
    }
}

/// Replaces the big-endian u32 at `at`.
pub fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_be_bytes());
}
