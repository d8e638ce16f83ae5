//! SEAnim fixtures shared by the SEAnim crate's tests and the command's.

/// An SEAnim file, in hex for [`hex`](crate::hex), that only the pre-2017 `frame_t` rule
/// reads: frameCount 256 with u8 frames (the current rule, u16, runs out of bytes).
pub const OLD_RULE_256: &str = "
    53 45 41 6e 69 6d 01 00 1c 00   # magic, version, headerSize
    00 00 01 00 00 00               # absolute, no flags, LOC, single, reserved1
    00 00 f0 41                     # framerate 30.0
    00 01 00 00                     # frameCount 256, written with the old rule: u8 frame_t
    01 00 00 00 00 00 00 00 00 00 00 00   # boneCount 1, no modifiers, reserved2, noteCount 0
    61 00 00                        # bone name a, flags
    02                              # locKeyCount (u8)
    00 00 00 80 3f 00 00 00 40 00 00 40 40    # frame 0: (1, 2, 3)
    ff 00 00 00 00 00 00 00 00 00 00 00 00    # frame 255: (0, 0, 0)
";

/// An SEAnim of `bones` bones keyed on each of `frames` frames, in double precision (about
/// 90 bytes a bone a frame): a large input for the tests of what happens mid-read or
/// mid-write.
pub fn big_seanim(bones: u32, frames: u32) -> Vec<u8> {
    use animbin_core::{Quat, Vec3};
    use animbin_seanim::{Bone, Key, PresenceFlags, PropertyFlags, SeAnim};
    let bones = (0..bones)
        .map(|b| Bone {
            location: (0..frames)
                .map(|f| Key::new(f, Vec3::new(f64::from(f), f64::from(b), 0.5)))
                .collect(),
            rotation: (0..frames)
                .map(|f| Key::new(f, Quat::new(0.0, 0.0, (f64::from(f) * 0.01).sin(), 1.0)))
                .collect(),
            scale: (0..frames).map(|f| Key::new(f, Vec3::new(1.0, 1.0, 1.0))).collect(),
            ..Bone::new(format!("bone_{b:03}"))
        })
        .collect();
    let anim = SeAnim {
        framerate: 30.0,
        data_presence_flags: PresenceFlags::LOC | PresenceFlags::ROT | PresenceFlags::SCALE,
        data_property_flags: PropertyFlags::PRECISION_HIGH,
        bones,
        ..SeAnim::default()
    };
    animbin_seanim::to_bytes(&anim).expect("a valid SEAnim")
}
