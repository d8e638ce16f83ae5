//! Writers proven from the model side: a random AnimX animation (either version, any
//! encoding, Raw / Discrete / Curve tracks of any of the 40 value types with any bits,
//! shared or per-keyframe interpolation, tangents or none) is either refused by the writer
//! with an `Unencodable` error, or written to bytes that read back to the same animation,
//! bit for bit (compared through the dump's exact AnimJ form), and rewrite to the same bytes.
#![no_main]

use std::io::Cursor;

use animbin_animx::{
    Animation, CurveTrack, DiscreteTrack, Encoding, FloatText, Interpolation, Interpolations, Keyframes, RawTrack,
    Tangents, Track, TrackData, ValueType, Values, animj, read, to_bytes,
};
use animbin_fuzz::{list, name};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// `count` values of `value_type` from arbitrary bytes (read as the format reads them).
fn values(u: &mut Unstructured, value_type: ValueType, count: u32) -> Result<Values> {
    let size = value_type.fixed_size().unwrap_or(8) * count as usize;
    let bytes = u.bytes(size.min(u.len()))?;
    Ok(Values::read_run(&mut Cursor::new(bytes), value_type, count).unwrap_or_else(|_| value_type.empty_values()))
}

fn interpolation(u: &mut Unstructured) -> Result<Interpolation> {
    Ok(*u.choose(&[
        Interpolation::Hold,
        Interpolation::Linear,
        Interpolation::Tangent,
        Interpolation::CubicBezier,
    ])?)
}

/// Times within [0, duration] and non-decreasing, as files have them; sometimes any bits.
fn times(u: &mut Unstructured, count: usize, duration: f32) -> Result<Vec<f32>> {
    if u.ratio(1, 8)? {
        return (0..count).map(|_| Ok(f32::from_bits(u.arbitrary()?))).collect();
    }
    let mut times: Vec<f32> = (0..count)
        .map(|_| Ok(f32::from(u.arbitrary::<u8>()?) / 255.0 * duration))
        .collect::<Result<_>>()?;
    times.sort_by(f32::total_cmp);
    Ok(times)
}

fn track(u: &mut Unstructured, duration: f32) -> Result<Track> {
    let value_type = *u.choose(&ValueType::ALL)?;
    let count = u.int_in_range(0..=4u32)?;
    let data = match u.int_in_range(0..=2u8)? {
        0 => TrackData::Raw(RawTrack {
            interval: if u.ratio(1, 8)? {
                f32::from_bits(u.arbitrary()?)
            } else {
                f32::from(u.int_in_range(1..=8u8)?) / 8.0
            },
            values: values(u, value_type, count)?,
        }),
        1 => TrackData::Discrete(DiscreteTrack {
            keyframes: Keyframes {
                times: times(u, count as usize, duration)?,
                values: values(u, value_type, count)?,
            },
        }),
        _ => {
            let keyframes = Keyframes {
                times: times(u, count as usize, duration)?,
                values: values(u, value_type, count)?,
            };
            let interpolation = if u.arbitrary()? {
                Interpolations::Shared(interpolation(u)?)
            } else {
                Interpolations::PerKeyframe((0..count).map(|_| interpolation(u)).collect::<Result<_>>()?)
            };
            let tangents = if u.arbitrary()? {
                Some(Tangents {
                    left: values(u, value_type, count)?,
                    right: values(u, value_type, count)?,
                })
            } else {
                None
            };
            let mut curve = CurveTrack::new(keyframes, Vec::new(), tangents);
            curve.interpolation = interpolation;
            TrackData::Curve(curve)
        }
    };
    Ok(Track {
        node: name(u)?,
        property: name(u)?,
        data,
    })
}

/// Mostly plain, else LZ4; LZMA one time in sixteen: each LZMA write sets up and frees
/// liblzma's encoder with its 2 MiB dictionary (tens of MiB of tables), which at one in four
/// took half of this target's time whatever the animation's size. Input that has run out
/// reads as 0: plain.
fn encoding(u: &mut Unstructured) -> Result<Encoding> {
    Ok(match u.int_in_range(0..=15u8)? {
        15 => Encoding::Lzma,
        10..=14 => Encoding::Lz4,
        _ => Encoding::Plain,
    })
}

fn animation(u: &mut Unstructured) -> Result<Animation> {
    let global_duration = if u.ratio(1, 8)? {
        f32::from_bits(u.arbitrary()?)
    } else {
        f32::from(u.int_in_range(0..=16u8)?) / 4.0
    };
    let tracks = list(u, 4, |u| track(u, global_duration))?;
    Ok(Animation {
        version: *u.choose(&[1, 1, 1, 0, -1, 2])?,
        name: name(u)?,
        global_duration,
        encoding: encoding(u)?,
        tracks,
    })
}

/// The animation as the dump writes it: every float bit for bit, the storage details too.
fn exact(animation: &Animation) -> String {
    animj::to_value_with(animation, FloatText::Exact).to_string()
}

/// Whether some keyframe times are not non-decreasing within [0, duration]: the one case
/// where reading may take a curve's keyframes in the other (time, value) order, by design.
fn times_are_ambiguous(animation: &Animation) -> bool {
    let duration = animation.global_duration;
    animation.tracks.iter().any(|t| match &t.data {
        TrackData::Curve(c) => {
            let times = &c.keyframes.times;
            times.iter().any(|t| !(0.0..=duration).contains(t)) || times.windows(2).any(|w| !(w[0] <= w[1]))
        }
        _ => false,
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((animation, bytes, back)) = animbin_fuzz::written_and_read(data, animation, to_bytes, read) else {
        return;
    };
    if exact(&back) != exact(&animation) {
        // Read in the other key order, by design; the writer then writes the seed's order
        // of what it read, so neither the model nor the bytes come back.
        assert!(times_are_ambiguous(&animation), "the animation read back differs");
        return;
    }
    assert!(to_bytes(&back).expect("and writes again") == bytes);
});
