//! Strategies shared by the property tests.
#![allow(dead_code)]

use animbin_animx::{
    Animation, CurveTrack, DiscreteTrack, Encoding, Interpolation, Interpolations, Keyframes, RawTrack, Tangents,
    Track, TrackData, ValueType, Values,
};
use animbin_core::math::{Mat2, Mat3, Mat4, Quat, Rgba, Vec2, Vec3, Vec4};
use proptest::prelude::*;

pub fn f32s() -> impl Strategy<Value = f32> + Clone {
    any::<f32>().prop_filter("NaN never equals itself", |f| !f.is_nan())
}

pub fn f64s() -> impl Strategy<Value = f64> + Clone {
    any::<f64>().prop_filter("NaN never equals itself", |f| !f.is_nan())
}

fn v2<T: std::fmt::Debug + Clone>(s: impl Strategy<Value = T> + Clone) -> impl Strategy<Value = Vec2<T>> + Clone {
    (s.clone(), s).prop_map(|(x, y)| Vec2::new(x, y))
}
fn v3<T: std::fmt::Debug + Clone>(s: impl Strategy<Value = T> + Clone) -> impl Strategy<Value = Vec3<T>> + Clone {
    (s.clone(), s.clone(), s).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}
fn v4<T: std::fmt::Debug + Clone>(s: impl Strategy<Value = T> + Clone) -> impl Strategy<Value = Vec4<T>> + Clone {
    (s.clone(), s.clone(), s.clone(), s).prop_map(|(x, y, z, w)| Vec4::new(x, y, z, w))
}
fn q<T: std::fmt::Debug + Clone>(s: impl Strategy<Value = T> + Clone) -> impl Strategy<Value = Quat<T>> + Clone {
    v4(s).prop_map(|v| Quat::new(v.x, v.y, v.z, v.w))
}
fn rgba<T: std::fmt::Debug + Clone>(s: impl Strategy<Value = T> + Clone) -> impl Strategy<Value = Rgba<T>> + Clone {
    v4(s).prop_map(|v| Rgba::new(v.x, v.y, v.z, v.w))
}
fn m2<T: std::fmt::Debug + Clone + Copy>(
    s: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Mat2<T>> + Clone {
    prop::array::uniform2(prop::array::uniform2(s)).prop_map(|rows| Mat2 { rows })
}
fn m3<T: std::fmt::Debug + Clone + Copy>(
    s: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Mat3<T>> + Clone {
    prop::array::uniform3(prop::array::uniform3(s)).prop_map(|rows| Mat3 { rows })
}
fn m4<T: std::fmt::Debug + Clone + Copy>(
    s: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Mat4<T>> + Clone {
    prop::array::uniform4(prop::array::uniform4(s)).prop_map(|rows| Mat4 { rows })
}

/// `n` values of type `vt`.
pub fn values(vt: ValueType, n: usize) -> BoxedStrategy<Values> {
    macro_rules! col {
        ($variant:ident, $s:expr) => {
            prop::collection::vec($s, n).prop_map(Values::$variant).boxed()
        };
    }
    let b = any::<bool>;
    match vt {
        ValueType::Bool => col!(Bool, b()),
        ValueType::Bool2 => col!(Bool2, v2(b())),
        ValueType::Bool3 => col!(Bool3, v3(b())),
        ValueType::Bool4 => col!(Bool4, v4(b())),
        ValueType::Byte => col!(Byte, any::<u8>()),
        ValueType::Ushort => col!(Ushort, any::<u16>()),
        ValueType::Uint => col!(Uint, any::<u32>()),
        ValueType::Ulong => col!(Ulong, any::<u64>()),
        ValueType::Sbyte => col!(Sbyte, any::<i8>()),
        ValueType::Short => col!(Short, any::<i16>()),
        ValueType::Int => col!(Int, any::<i32>()),
        ValueType::Long => col!(Long, any::<i64>()),
        ValueType::Int2 => col!(Int2, v2(any::<i32>())),
        ValueType::Int3 => col!(Int3, v3(any::<i32>())),
        ValueType::Int4 => col!(Int4, v4(any::<i32>())),
        ValueType::Uint2 => col!(Uint2, v2(any::<u32>())),
        ValueType::Uint3 => col!(Uint3, v3(any::<u32>())),
        ValueType::Uint4 => col!(Uint4, v4(any::<u32>())),
        ValueType::Long2 => col!(Long2, v2(any::<i64>())),
        ValueType::Long3 => col!(Long3, v3(any::<i64>())),
        ValueType::Long4 => col!(Long4, v4(any::<i64>())),
        ValueType::Float => col!(Float, f32s()),
        ValueType::Float2 => col!(Float2, v2(f32s())),
        ValueType::Float3 => col!(Float3, v3(f32s())),
        ValueType::Float4 => col!(Float4, v4(f32s())),
        ValueType::FloatQ => col!(FloatQ, q(f32s())),
        ValueType::Float2x2 => col!(Float2x2, m2(f32s())),
        ValueType::Float3x3 => col!(Float3x3, m3(f32s())),
        ValueType::Float4x4 => col!(Float4x4, m4(f32s())),
        ValueType::Double => col!(Double, f64s()),
        ValueType::Double2 => col!(Double2, v2(f64s())),
        ValueType::Double3 => col!(Double3, v3(f64s())),
        ValueType::Double4 => col!(Double4, v4(f64s())),
        ValueType::DoubleQ => col!(DoubleQ, q(f64s())),
        ValueType::Double2x2 => col!(Double2x2, m2(f64s())),
        ValueType::Double3x3 => col!(Double3x3, m3(f64s())),
        ValueType::Double4x4 => col!(Double4x4, m4(f64s())),
        ValueType::Color => col!(Color, rgba(f32s())),
        ValueType::Color32 => col!(Color32, rgba(any::<u8>())),
        ValueType::String => col!(String, prop::option::of("\\PC{0,12}")),
    }
}

pub fn value_type() -> impl Strategy<Value = ValueType> {
    (0u8..40).prop_map(|id| ValueType::from_id(id).expect("ids 0..40 exist"))
}

pub fn interpolation() -> impl Strategy<Value = Interpolation> {
    (0u8..4).prop_map(|id| Interpolation::from_repr(id).expect("ids 0..4 exist"))
}

/// Times that the seed's curve order reads back without the fallback: sorted in [0, duration].
fn sorted_times(n: usize, duration: f32) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(0.0f32..=1.0, n).prop_map(move |mut t| {
        t.iter_mut().for_each(|x| *x *= duration);
        t.sort_by(f32::total_cmp);
        t
    })
}

/// A track of the given kind (0 Raw, 1 Discrete, 2 Curve), value type and length.
pub fn track(kind: u8, vt: ValueType, n: usize, duration: f32) -> BoxedStrategy<Track> {
    let names = ("\\PC{0,8}", "\\PC{0,8}");
    match kind {
        0 => (names, f32s(), values(vt, n))
            .prop_map(|((node, property), interval, values)| Track {
                node,
                property,
                data: TrackData::Raw(RawTrack { interval, values }),
            })
            .boxed(),
        1 => (names, prop::collection::vec(f32s(), n), values(vt, n))
            .prop_map(|((node, property), times, values)| Track {
                node,
                property,
                data: TrackData::Discrete(DiscreteTrack {
                    keyframes: Keyframes { times, values },
                }),
            })
            .boxed(),
        _ => (
            names,
            sorted_times(n, duration),
            values(vt, n),
            prop::option::of((values(vt, n), values(vt, n))),
            prop_oneof![
                interpolation().prop_map(Interpolations::Shared),
                prop::collection::vec(interpolation(), n).prop_map(Interpolations::PerKeyframe),
            ],
        )
            .prop_map(|((node, property), times, values, tangents, interpolation)| Track {
                node,
                property,
                data: TrackData::Curve(CurveTrack {
                    interpolation,
                    keyframes: Keyframes { times, values },
                    tangents: tangents.map(|(left, right)| Tangents { left, right }),
                }),
            })
            .boxed(),
    }
}

pub fn any_track(duration: f32, version: i32) -> BoxedStrategy<Track> {
    let kinds: Vec<u8> = if version == 0 { vec![0, 2] } else { vec![0, 1, 2] };
    (prop::sample::select(kinds), value_type(), 0usize..6)
        .prop_flat_map(move |(kind, vt, n)| track(kind, vt, n, duration))
        .boxed()
}

pub fn encoding() -> impl Strategy<Value = Encoding> {
    prop_oneof![Just(Encoding::Plain), Just(Encoding::Lz4), Just(Encoding::Lzma)]
}

pub fn animation() -> impl Strategy<Value = Animation> {
    (
        prop_oneof![3 => Just(1), 1 => Just(0)],
        0.0f32..100.0,
        "\\PC{0,10}",
        encoding(),
    )
        .prop_flat_map(|(version, duration, name, encoding)| {
            prop::collection::vec(any_track(duration, version), 0..5).prop_map(move |tracks| Animation {
                version,
                name: name.clone(),
                global_duration: duration,
                encoding,
                tracks,
            })
        })
}
