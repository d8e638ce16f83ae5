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
