//! Property tests: model -> bytes -> model, bytes -> model -> bytes (also for corrupted
//! bytes that still read), the view against the owned model, and the scene conversion both
//! ways.

use animbin_cast::{
    AnimKind, CastFile, ConversionReport, Node, NodeId, NodeKind, Property, Quat, SceneOptions, Value, Vec2, Vec3,
    Vec4, View, read, to_bytes, validate,
};
use animbin_core::math::{Rgba, Rgba8, Transform};
use animbin_core::scene::{self, Animation, BoneTrack, ChannelKinds, Interpolation, Key, Note, Scene, SkinWeights};
use proptest::prelude::*;

/// Finite and infinite floats, no NaN (never equal to itself; NaN is covered by bytes).
fn float() -> impl Strategy<Value = f32> {
    use proptest::num::f32 as f;
    (f::NORMAL | f::SUBNORMAL | f::ZERO | f::INFINITE | f::POSITIVE | f::NEGATIVE)
        .prop_filter("not NaN", |x| !x.is_nan())
}

fn any_float(nan: bool) -> BoxedStrategy<f32> {
    if nan {
        any::<u32>().prop_map(f32::from_bits).boxed()
    } else {
        float().boxed()
    }
}

fn value(nan: bool) -> impl Strategy<Value = Value> {
    let n = 0..4usize;
    let f = move || any_float(nan);
    prop_oneof![
        prop::collection::vec(any::<u8>(), n.clone()).prop_map(Value::Byte),
        prop::collection::vec(any::<u16>(), n.clone()).prop_map(Value::Short),
        prop::collection::vec(any::<u32>(), n.clone()).prop_map(Value::Integer),
        prop::collection::vec(any::<u64>(), n.clone()).prop_map(Value::Long),
        prop::collection::vec(f(), n.clone()).prop_map(Value::Float),
        prop::collection::vec(any::<u64>().prop_map(f64::from_bits), n.clone()).prop_map(move |v| Value::Double(
            v.into_iter()
                .map(|x| if nan || !x.is_nan() { x } else { 0.0 })
                .collect()
        )),
        prop::collection::vec("[^\0]{0,4}", n.clone())
            .prop_map(|v| Value::String(v.into_iter().map(std::borrow::Cow::Owned).collect())),
        prop::collection::vec((f(), f()).prop_map(|(x, y)| Vec2::new(x, y)), n.clone()).prop_map(Value::Vec2),
        prop::collection::vec((f(), f(), f()).prop_map(|(x, y, z)| Vec3::new(x, y, z)), n.clone())
            .prop_map(Value::Vec3),
        prop::collection::vec((f(), f(), f(), f()).prop_map(|(x, y, z, w)| Vec4::new(x, y, z, w)), n)
            .prop_map(Value::Vec4),
    ]
}

fn node_id() -> impl Strategy<Value = NodeId> {
    prop_oneof![
        prop::sample::select(NodeKind::ALL.to_vec()).prop_map(NodeKind::id),
        any::<u32>().prop_map(NodeId),
    ]
}

fn property(nan: bool) -> impl Strategy<Value = Property> {
    let name = prop_oneof![
        prop::sample::select(vec!["n", "vp", "f", "kb", "kv", "p", "m", "u0", "ul"]).prop_map(String::from),
        ".{0,3}",
    ];
    (name, value(nan)).prop_map(|(name, value)| Property {
        name: name.into(),
        value,
    })
}

/// Any tree of nodes, up to four levels deep.
fn tree(nan: bool) -> impl Strategy<Value = Node> {
    let leaf =
        (node_id(), any::<u64>(), prop::collection::vec(property(nan), 0..4)).prop_map(|(id, hash, properties)| Node {
            id,
            hash,
            properties,
            children: Vec::new(),
        });
    leaf.prop_recursive(3, 24, 4, move |inner| {
        (
            node_id(),
            any::<u64>(),
            prop::collection::vec(property(nan), 0..3),
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|(id, hash, properties, children)| Node {
                id,
                hash,
                properties,
                children,
            })
    })
}

fn file(nan: bool) -> impl Strategy<Value = CastFile> {
    (any::<u32>(), prop::collection::vec(tree(nan), 0..3)).prop_map(|(flags, roots)| CastFile { flags, roots })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn model_to_bytes_to_model_is_the_same_model(file in file(false)) {
        let bytes = to_bytes(&file).unwrap();
        prop_assert_eq!(read(&bytes).unwrap(), file.clone());
        let view = View::parse(&bytes).unwrap();
        prop_assert_eq!(view.node_count(), file.node_count());
        prop_assert_eq!(view.to_file().unwrap(), file);
    }

    #[test]
    fn bytes_to_model_to_bytes_keeps_every_bit(file in file(true)) {
        let bytes = to_bytes(&file).unwrap();
        let back = read(&bytes).unwrap();
        prop_assert_eq!(to_bytes(&back).unwrap(), bytes);
    }

    #[test]
    fn corrupted_files_that_still_read_write_back_identically(
        file in file(true),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = to_bytes(&file).unwrap();
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let owned = read(&bytes);
        let view = View::parse(&bytes);
        prop_assert_eq!(owned.is_ok(), view.is_ok());
        match (owned, view) {
            (Ok(owned), Ok(view)) => {
                prop_assert_eq!(to_bytes(&owned).unwrap(), bytes.clone());
                prop_assert_eq!(to_bytes(&view.to_file().unwrap()).unwrap(), bytes);
                // Whatever reads can be validated and converted without panicking.
                let _ = validate(&owned);
                let _ = owned.to_scene(&SceneOptions::default(), &mut ConversionReport::default());
            }
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.offset, b.offset);
                prop_assert!(a.offset <= bytes.len() as u64);
            }
            _ => unreachable!(),
        }
    }
}

/// An `f32` value as the scene's `f64`: exactly representable in the file.
fn exact() -> impl Strategy<Value = f64> {
    (-1000i32..1000).prop_map(|x| f64::from(x) / 8.0)
}

fn vec3() -> impl Strategy<Value = Vec3<f64>> {
    (exact(), exact(), exact()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn quat() -> impl Strategy<Value = Quat<f64>> {
    (exact(), exact(), exact(), exact()).prop_map(|(x, y, z, w)| Quat::new(x, y, z, w))
}

fn skeleton() -> impl Strategy<Value = scene::Skeleton> {
    prop::collection::vec(
        (
            any::<prop::sample::Index>(),
            any::<bool>(),
            vec3(),
            quat(),
            vec3(),
            quat(),
            any::<bool>(),
            // Cast's `s`, kept apart from the rest pose: mostly 1, as in most files.
            prop_oneof![Just(Vec3::ONE), vec3()],
        ),
        0..5,
    )
    .prop_map(|bones| scene::Skeleton {
        bones: bones
            .into_iter()
            .enumerate()
            .map(
                |(i, (parent, root, lt, lr, gt, gr, scale_compensate, rest_scale))| scene::Bone {
                    kind: Default::default(),
                    scale_compensate,
                    rest_scale,
                    name: format!("bone{i}"),
                    parent: (i > 0 && !root).then(|| parent.index(i)),
                    local: Transform {
                        translation: lt,
                        rotation: lr,
                        scale: Vec3::ONE,
                    },
                    global: Transform {
                        translation: gt,
                        rotation: gr,
                        scale: Vec3::ONE,
                    },
                    cosmetic: false,
                },
            )
            .collect(),
        ..Default::default()
    })
}

fn mesh(bones: usize, materials: usize) -> impl Strategy<Value = scene::Mesh> {
    (1..6usize).prop_flat_map(move |v| {
        let f32s = || (-100i16..100).prop_map(|x| f32::from(x) / 4.0);
        let v3 = move || (f32s(), f32s(), f32s()).prop_map(|(x, y, z)| Vec3::new(x, y, z));
        let face = prop::array::uniform3(0..v as u32);
        let skin = (1..4usize).prop_flat_map(move |influences| {
            (
                prop::collection::vec(0..bones.max(1) as u32, v * influences),
                prop::collection::vec(f32s(), v * influences),
            )
                .prop_map(move |(bones, weights)| SkinWeights {
                    skin: None,
                    influences,
                    bones,
                    weights,
                    blend: Default::default(),
                })
        });
        (
            "[a-z]{0,5}",
            prop::collection::vec(v3(), v),
            prop::option::of(prop::collection::vec(v3(), v)),
            prop::collection::vec(
                prop::collection::vec((f32s(), f32s()).prop_map(|(x, y)| Vec2::new(x, y)), v),
                0..3,
            ),
            prop::option::of(prop::collection::vec(
                any::<[u8; 4]>().prop_map(|[r, g, b, a]| Rgba8::new(r, g, b, a)),
                v,
            )),
            prop::option::of(skin).prop_map(move |s| s.filter(|_| bones > 0)),
            prop::collection::vec(face, 0..4),
            prop::option::of(0..materials.max(1)).prop_map(move |m| m.filter(|_| materials > 0)),
        )
            .prop_map(
                |(name, positions, normals, uv_layers, colors, skin, faces, material)| scene::Mesh {
                    name,
                    positions,
                    normals: normals.unwrap_or_default(),
                    uv_layers,
                    colors: colors.unwrap_or_default(),
                    skin,
                    faces,
                    materials: material.map(Some).into_iter().collect(),
                    morph_targets: Vec::new(),
                    ..Default::default()
                },
            )
    })
}

fn material() -> impl Strategy<Value = scene::Material> {
    let map = prop::option::of("[a-z/._]{0,8}");
    let color = prop::option::of(prop::array::uniform4(0u8..=16).prop_map(|[r, g, b, a]| {
        let c = |x: u8| f32::from(x) / 16.0;
        Rgba::new(c(r), c(g), c(b), c(a))
    }));
    ("[a-z]{0,6}", map.clone(), map.clone(), map, color).prop_map(|(name, diffuse, normal, specular, color)| {
        scene::Material {
            links: Vec::new(),
            surface: None,
            name,
            diffuse_map: diffuse,
            normal_map: normal,
            specular_map: specular,
            texture: None,
            base_color: color,
        }
    })
}

/// A kind a Cast channel can come back as: Cast's three modes, except that a relative
/// rotation is the scene's additive rotation rule (rest rotation times key).
fn channel(rotation: bool) -> impl Strategy<Value = AnimKind> {
    let kinds = if rotation {
        vec![AnimKind::Absolute, AnimKind::Additive]
    } else {
        vec![AnimKind::Absolute, AnimKind::Additive, AnimKind::Relative]
    };
    prop::sample::select(kinds)
}

/// A track and the kind of each of its channels (translation, rotation, scale); the
/// animation turns the kinds into `channel_kinds` once its own kind is known.
fn track(i: usize) -> impl Strategy<Value = (BoneTrack, [AnimKind; 3])> {
    let frames = || prop::collection::btree_set(0u32..70_000, 0..4);
    let kinds = (channel(false), channel(true), channel(false)).prop_map(|(t, r, s)| [t, r, s]);
    let overrides = (
        prop::option::of(channel(false)),
        prop::option::of(channel(true)),
        prop::option::of(channel(false)),
    )
        .prop_map(|(translation, rotation, scale)| ChannelKinds {
            translation,
            rotation,
            scale,
        });
    (
        overrides,
        kinds,
        frames().prop_flat_map(|f| {
            let n = f.len();
            (Just(f), prop::collection::vec(vec3(), n))
        }),
        frames().prop_flat_map(|f| {
            let n = f.len();
            (Just(f), prop::collection::vec(quat(), n))
        }),
        frames().prop_flat_map(|f| {
            let n = f.len();
            (Just(f), prop::collection::vec(vec3(), n))
        }),
    )
        .prop_map(move |(channel_overrides, kinds, (tf, tv), (rf, rv), (sf, sv))| {
            let keys = |frames: std::collections::BTreeSet<u32>| frames.into_iter().map(f64::from).collect::<Vec<_>>();
            let track = BoneTrack {
                curves: Default::default(),
                bone: format!("j_{i}"),
                kind_override: None,
                channel_overrides,
                channel_kinds: ChannelKinds::NONE,
                cosmetic: false,
                translation: keys(tf).into_iter().zip(tv).map(|(f, v)| Key::new(f, v)).collect(),
                rotation: keys(rf).into_iter().zip(rv).map(|(f, v)| Key::new(f, v)).collect(),
                scale: keys(sf).into_iter().zip(sv).map(|(f, v)| Key::new(f, v)).collect(),
            };
            (track, kinds)
        })
        .prop_filter("a track with something to write", |(t, _)| {
            !t.channel_overrides.is_empty()
                || !t.translation.is_empty()
                || !t.rotation.is_empty()
                || !t.scale.is_empty()
        })
}

fn animation() -> impl Strategy<Value = Animation> {
    let tracks = (0..4usize).prop_flat_map(|n| (0..n).map(track).collect::<Vec<_>>());
    let notes = prop::collection::vec((0u32..300, prop::sample::select(vec!["step", "fire", "end"])), 0..5);
    ("[a-z]{0,6}", 1u8..=120, any::<bool>(), tracks, notes).prop_map(|(name, fps, looping, tracks, mut notes)| {
        notes.sort_by_key(|&(f, _)| f);
        let notes: Vec<Note> = notes
            .into_iter()
            .map(|(f, name)| Note {
                frame: f64::from(f),
                name: name.into(),
            })
            .collect();
        // Cast keeps a mode on each curve; the animation's kind is what the first curve
        // (rq, then tx, then sx of the first keyed track) says, and the channels of other
        // kinds carry theirs: a relative rotation beside relative translations is
        // written `relative`, which reads back as the kind Relative.
        let first = tracks.iter().find_map(|(t, [tk, rk, sk])| {
            if !t.rotation.is_empty() {
                Some(match rk {
                    AnimKind::Additive if *tk == AnimKind::Relative => AnimKind::Relative,
                    other => *other,
                })
            } else if !t.translation.is_empty() {
                Some(*tk)
            } else if !t.scale.is_empty() {
                Some(*sk)
            } else {
                None
            }
        });
        let kind = first.unwrap_or(AnimKind::Absolute);
        let bones: Vec<BoneTrack> = tracks
            .into_iter()
            .map(|(mut t, [tk, rk, sk])| {
                let own = |keyed: bool, k: AnimKind| (keyed && k != kind).then_some(k);
                t.channel_kinds = ChannelKinds {
                    translation: own(!t.translation.is_empty(), tk),
                    rotation: own(!t.rotation.is_empty(), rk),
                    scale: own(!t.scale.is_empty(), sk),
                };
                t
            })
            .collect();
        let last = bones
            .iter()
            .flat_map(|t: &BoneTrack| {
                let t_frames = t.translation.iter().map(|k| k.frame);
                t_frames
                    .chain(t.rotation.iter().map(|k| k.frame))
                    .chain(t.scale.iter().map(|k| k.frame))
            })
            .chain(notes.iter().map(|n| n.frame))
            .fold(None, |m: Option<f64>, f| Some(m.map_or(f, |m| m.max(f))));
        Animation {
            name,
            framerate: f64::from(fps),
            frame_count: last.map_or(0.0, |f| f + 1.0),
            looping,
            kind,
            interpolation: Interpolation::Linear,
            bones,
            notes,
            properties: Vec::new(),
            weights: Vec::new(),
        }
    })
}

fn scene() -> impl Strategy<Value = Scene> {
    (skeleton(), prop::collection::vec(material(), 0..3)).prop_flat_map(|(skeleton, materials)| {
        let (b, m) = (skeleton.bones.len(), materials.len());
        (
            Just(skeleton),
            Just(materials),
            prop::collection::vec(mesh(b, m), 0..3),
            prop::collection::vec(animation(), 0..3),
            prop::option::of((vec3(), quat(), vec3())),
        )
            .prop_map(|(skeleton, materials, meshes, animations, placed)| {
                // A Model node carries the placement: a scene without one has none.
                let has_model = !skeleton.bones.is_empty() || !meshes.is_empty() || !materials.is_empty();
                let placement =
                    placed
                        .filter(|_| has_model)
                        .map_or(Transform::IDENTITY, |(translation, rotation, scale)| Transform {
                            translation,
                            rotation,
                            scale,
                        });
                Scene {
                    placement,
                    skeleton,
                    meshes,
                    materials,
                    textures: Vec::new(),
                    animations,
                    ..Default::default()
                }
            })
    })
}

/// Notes of different names on one frame, whose order Cast keeps only through the order of
/// its notification tracks: orders that contradict each other (a before b on one frame, b
/// before a on another) cannot all be kept.
fn notes_tie(anim: &Animation) -> bool {
    anim.notes
        .windows(2)
        .any(|w| w[0].frame == w[1].frame && w[0].name != w[1].name)
}

const NOTE_ORDER: &str = "the order of notes (they come back sorted by frame)";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_scene_within_casts_reach_comes_back_whole(scene in scene()) {
        let mut report = ConversionReport::default();
        let file = CastFile::from_scene(&scene, &SceneOptions::default(), &mut report).unwrap();
        let bytes = to_bytes(&file).unwrap();
        let file = read(&bytes).unwrap();
        prop_assert_eq!(validate(&file), vec![]);
        if report.lost == [NOTE_ORDER] && scene.animations.iter().any(notes_tie) {
            return Ok(());
        }
        prop_assert!(report.is_lossless(), "{:?}", report.lost);
        let mut back_report = ConversionReport::default();
        let back = file.to_scene(&SceneOptions::default(), &mut back_report).unwrap();
        prop_assert_eq!(back, scene);
        prop_assert!(back_report.is_lossless(), "{:?}", back_report.lost);
    }

    #[test]
    fn any_file_that_converts_to_a_scene_converts_back_and_reads(file in file(true)) {
        let mut report = ConversionReport::default();
        if let Ok(scene) = file.to_scene(&SceneOptions::default(), &mut report) {
            if let Ok(back) = CastFile::from_scene(&scene, &SceneOptions::default(), &mut report) {
                let bytes = to_bytes(&back).unwrap();
                prop_assert_eq!(to_bytes(&read(&bytes).unwrap()).unwrap(), bytes);
            }
        }
    }
}
