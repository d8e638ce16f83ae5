//! Writers proven from the model side: a random x8an file (segments of slots of keys at any
//! time with any fixed-point values, padding runs, an end marker with trailing bytes) is
//! either refused by the writer with an `Unencodable` error, or written to bytes that read
//! back to the same model and rewrite to the same bytes.
#![no_main]

use animbin_core::{Fixed16, Quat, Rot14, Vec3};
use animbin_fuzz::list;
use animbin_sf3::{Ending, Key, MAX_PADDING_WORDS, Segment, Sf3File, Slot, read, to_bytes};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// A run of zero words: mostly none or a few, rarely the most a run may hold (256 KiB, which
/// makes a run slow) or one more, which the writer refuses.
fn padding(u: &mut Unstructured) -> Result<u32> {
    // Input that has run out reads as 0: no padding, so short inputs stay fast.
    Ok(match u.int_in_range(0..=63u8)? {
        63 => *u.choose(&[MAX_PADDING_WORDS, MAX_PADDING_WORDS + 1])?,
        47..=62 => u.int_in_range(1..=16)?,
        _ => 0,
    })
}

fn keys<T>(u: &mut Unstructured, mut value: impl FnMut(&mut Unstructured) -> Result<T>) -> Result<Vec<Key<T>>> {
    list(u, 4, |u| Ok(Key::new(u.arbitrary()?, value(u)?)))
}

fn fixed3(u: &mut Unstructured) -> Result<Vec3<Fixed16>> {
    Ok(Vec3::new(
        Fixed16(u.arbitrary()?),
        Fixed16(u.arbitrary()?),
        Fixed16(u.arbitrary()?),
    ))
}

fn file(u: &mut Unstructured) -> Result<Sf3File> {
    let segments = list(u, 3, |u| {
        let slots = list(u, 4, |u| {
            Ok(Slot {
                translation: keys(u, fixed3)?,
                rotation: keys(u, |u| {
                    Ok(Quat::new(
                        Rot14(u.arbitrary()?),
                        Rot14(u.arbitrary()?),
                        Rot14(u.arbitrary()?),
                        Rot14(u.arbitrary()?),
                    ))
                })?,
                scale: keys(u, fixed3)?,
            })
        })?;
        Ok(Segment {
            padding_words: padding(u)?,
            slots,
        })
    })?;
    Ok(Sf3File {
        segments,
        padding_words: padding(u)?,
        ending: if u.arbitrary()? {
            Ending::EndMarker {
                trailing: u.arbitrary()?,
            }
        } else {
            Ending::Eof
        },
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((file, bytes, back)) = animbin_fuzz::written_and_read(data, file, to_bytes, read) else {
        return;
    };
    assert_eq!(back, file, "the model read back differs");
    assert_eq!(to_bytes(&back).expect("and writes again"), bytes);
});
