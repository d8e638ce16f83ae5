//! Helpers shared by the criterion benchmarks in this folder.

/// The memcpy baseline: copies `bytes` into a fresh buffer, the least any reader must do.
pub fn memcpy_baseline(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(bytes);
    out
}

/// Generated files of any size, for the criterion benchmarks and `cargo xtask bench-command`:
/// each function builds a model that grows with its count arguments.
pub mod large {
    /// SEAnim.
    pub mod seanim {
        use animbin_core::{Quat, Vec3};
        use animbin_seanim::{Bone, Key, Precision, PresenceFlags, PropertyFlags, SeAnim};

        /// `bones` bones with a location, rotation and scale key on every one of `frames` frames.
        pub fn anim(bones: u32, frames: u32, high_precision: bool) -> SeAnim {
            let bones = (0..bones)
                .map(|b| {
                    let phase = f64::from(b) * 0.01;
                    Bone {
                        location: (0..frames)
                            .map(|f| Key::new(f, Vec3::new(f64::from(f) * 0.5, phase, -1.25)))
                            .collect(),
                        rotation: (0..frames)
                            .map(|f| {
                                let a = f64::from(f) * 0.001 + phase;
                                Key::new(f, Quat::new(0.0, (a * 0.5).sin(), 0.0, (a * 0.5).cos()))
                            })
                            .collect(),
                        scale: (0..frames)
                            .map(|f| Key::new(f, Vec3::new(1.0, 1.0, 1.0 + f64::from(f % 3))))
                            .collect(),
                        ..Bone::new(format!("bone_{b:03}"))
                    }
                })
                .collect();
            let mut anim = SeAnim {
                framerate: 30.0,
                data_presence_flags: PresenceFlags::LOC | PresenceFlags::ROT | PresenceFlags::SCALE,
                bones,
                ..SeAnim::default()
            };
            if high_precision {
                anim.data_property_flags = PropertyFlags::PRECISION_HIGH;
            } else {
                // Each value rounded to the nearest f32 (as the writer would), so both files hold
                // the same animation, held as f32 values as reading the file holds them.
                let round = |c: f64| f64::from(c as f32);
                for bone in &mut anim.bones {
                    for k in bone.location.to_double_mut() {
                        k.value = k.value.map(round);
                    }
                    for k in bone.rotation.to_double_mut() {
                        k.value = k.value.map(round);
                    }
                    bone.hold_at(Precision::Single);
                }
            }
            anim
        }
    }

    /// SEModel.
    pub mod semodel {
        use animbin_core::math::{Quat, Rgba8, Vec2, Vec3};
        use animbin_semodel::deployed::{self, Material, MaterialMaps};
        use animbin_semodel::{Block, Bone, BoneFlags, Influence, MeshFlags, Pose, SeModel};

        const BONES: u32 = 64;
        const INFLUENCES: u8 = 4;

        /// A skinned model of `vertices` vertices, 80 bytes each: 12 (position) + 8 (one UV layer)
        /// + 12 (normal) + 4 (colour) + 4 x 5 (weights), and a u32 triangle per vertex; 64 bones.
        pub fn model(vertices: u32) -> SeModel {
            let v = vertices as usize;
            let bones = (0..BONES)
                .map(|b| Bone {
                    name: format!("j_bone_{b}"),
                    parent: b as i32 - 1,
                    global: Some(Pose {
                        position: Vec3::new(0.0, b as f32, 0.0),
                        rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
                    }),
                    local: Some(Pose {
                        position: Vec3::new(0.0, 1.0, 0.0),
                        rotation: Quat::new(0.0, 0.0, 0.0, 1.0),
                    }),
                    ..Default::default()
                })
                .collect();
            let mesh = deployed::Mesh {
                max_influence: INFLUENCES,
                positions: (0..vertices)
                    .map(|i| Vec3::new(i as f32, (i % 1000) as f32, -(i as f32)))
                    .collect(),
                uvs: (0..vertices)
                    .map(|i| Vec2::new((i % 1024) as f32 / 1024.0, 0.5))
                    .collect(),
                normals: vec![Vec3::new(0.0, 0.0, 1.0); v],
                colors: vec![Rgba8::new(255, 255, 255, 255); v],
                weights: (0..vertices)
                    .flat_map(|i| {
                        (0..u32::from(INFLUENCES)).map(move |k| Influence {
                            bone: (i + k) % BONES,
                            weight: 0.25,
                        })
                    })
                    .collect(),
                faces: (0..vertices - 2).map(|i| [i, i + 1, i + 2]).collect(),
                material_indices: vec![0],
                ..Default::default()
            };
            SeModel::Deployed(deployed::Model {
                bone_flags: BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX,
                mesh_flags: MeshFlags::UV_SET | MeshFlags::NORMALS | MeshFlags::COLOR | MeshFlags::WEIGHTS,
                bones: Block::Present(bones),
                meshes: Block::Present(vec![mesh]),
                materials: Block::Present(vec![Material {
                    name: "body".into(),
                    maps: Some(MaterialMaps {
                        diffuse: "body_c.png".into(),
                        ..Default::default()
                    }),
                }]),
                ..Default::default()
            })
        }
    }

    /// AnimX.
    pub mod animx {
        use animbin_animx::{
            Animation, CurveTrack, Encoding, Interpolation, Keyframes, RawTrack, Track, TrackData, Values,
        };
        use animbin_core::math::{Quat, Vec3};

        /// `bones` bones, each with a 600-keyframe position and rotation curve and a 2000-value raw
        /// scale track (60 bones make about 4 MB plain), motion-capture-like (smooth, so it compresses).
        pub fn animation(bones: u32, encoding: Encoding) -> Animation {
            let mut tracks = Vec::new();
            for bone in 0..bones {
                let node = format!("Bone{bone:02}");
                let times: Vec<f32> = (0..600).map(|k| k as f32 / 60.0).collect();
                let phase = bone as f32 * 0.1;
                tracks.push(Track {
                    node: node.clone(),
                    property: "position".into(),
                    data: TrackData::Curve(CurveTrack::new(
                        Keyframes {
                            times: times.clone(),
                            values: Values::Float3(
                                times
                                    .iter()
                                    .map(|t| Vec3::new((t + phase).sin(), 1.0, (t * 0.5).cos()))
                                    .collect(),
                            ),
                        },
                        vec![Interpolation::Linear; 600],
                        None,
                    )),
                });
                tracks.push(Track {
                    node: node.clone(),
                    property: "rotation".into(),
                    data: TrackData::Curve(CurveTrack::new(
                        Keyframes {
                            values: Values::FloatQ(
                                times
                                    .iter()
                                    .map(|t| {
                                        let a = (t + phase) * 0.5;
                                        Quat::new(0.0, a.sin(), 0.0, a.cos())
                                    })
                                    .collect(),
                            ),
                            times,
                        },
                        vec![Interpolation::Linear; 600],
                        None,
                    )),
                });
                tracks.push(Track {
                    node,
                    property: "scale".into(),
                    data: TrackData::Raw(RawTrack {
                        interval: 1.0 / 200.0,
                        values: Values::Float3(
                            (0..2000)
                                .map(|k| Vec3::new(1.0, 1.0 + (k as f32 * 0.01).sin() * 0.1, 1.0))
                                .collect(),
                        ),
                    }),
                });
            }
            Animation {
                name: "mocap".into(),
                global_duration: 10.0,
                encoding,
                tracks,
                ..Animation::default()
            }
        }
    }

    /// Shining Force III x8an.
    pub mod sf3 {
        use animbin_core::{Fixed16, Quat, Rot14, Vec3};
        use animbin_sf3::{Key, Segment, Sf3File, Slot};

        /// `segments` segments of 22 slots (the seed's x8an00.bin has 50 segments of 20..23
        /// slots), each slot with 12 translation and rotation keys and one scale key.
        pub fn file(segments: i32) -> Sf3File {
            let slot = |seed: i32| Slot {
                translation: (0..12)
                    .map(|k| {
                        Key::new(
                            k * 5,
                            Vec3::new(Fixed16(seed * 997 + i32::from(k)), Fixed16(-seed), Fixed16(0x4_0000)),
                        )
                    })
                    .collect(),
                rotation: (0..12)
                    .map(|k| {
                        Key::new(
                            k * 5,
                            Quat::new(Rot14(k as i16 * 64), Rot14(0), Rot14(0), Rot14(0x3ff0)),
                        )
                    })
                    .collect(),
                scale: vec![Key::new(0, Vec3::new(Fixed16::ONE, Fixed16::ONE, Fixed16::ONE))],
            };
            Sf3File {
                segments: (0..segments)
                    .map(|s| Segment {
                        padding_words: u32::from(s % 2 == 1),
                        slots: (0..22).map(|b| slot(s * 22 + b)).collect(),
                    })
                    .collect(),
                ..Sf3File::default()
            }
        }
    }

    /// Dash Model Format.
    pub mod dmf {
        use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
        use animbin_dmf::{Animation, Bone, Dmf, Face, Material, Name, Texture, Track, Vertex};

        const BONES: i16 = 64;

        /// A model of `vertices` vertices (36 bytes each), `faces` faces (88 bytes each), 64 bones
        /// with `keys` tracks each (48 bytes each), and a few small records.
        pub fn model(vertices: u32, faces: u32, keys: u32) -> Dmf {
            let identity = [
                1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ];
            let name = |s: String| Name::new(&s).expect("short name");
            let mut dmf = Dmf {
                textures: vec![Texture {
                    name: name("skin".into()),
                    png: animbin_dmf::PNG_SIGNATURE.repeat(512),
                    ..Texture::default()
                }],
                materials: vec![Material {
                    name: name("skin".into()),
                    texture: 0,
                    ..Material::default()
                }],
                vertices: (0..vertices)
                    .map(|i| {
                        let f = i as f32;
                        let bone = (i % BONES as u32) as i16;
                        Vertex::new(Vec3::new(f, f * 0.5, -f), [bone, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
                    })
                    .collect(),
                faces: (0..faces)
                    .map(|i| {
                        let a = (i * 2) % (vertices - 2);
                        Face::new(
                            0,
                            [a, a + 1, a + 2],
                            [Rgba::new(255, 255, 255, 255); 3],
                            [Vec3::new(0.0, 0.0, 1.0); 3],
                            [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)],
                        )
                    })
                    .collect(),
                bones: (0..BONES)
                    .map(|b| Bone::new(name(format!("bone{b}")), 0, b - 1, identity))
                    .collect(),
                animations: vec![Animation {
                    name: name("long".into()),
                    fps: 60,
                    duration: keys as f32 / 60.0,
                    tracks: (0..keys)
                        .flat_map(|k| {
                            (0..BONES).map(move |b| {
                                let t = k as f32 / 60.0;
                                Track::new(
                                    b,
                                    t,
                                    Some(Vec3::new(t, 0.0, 0.0)),
                                    Some(Quat::new(0.0, 0.0, 0.0, 1.0)),
                                    None,
                                )
                            })
                        })
                        .collect(),
                    ..Animation::default()
                }],
            };
            dmf.renumber();
            dmf
        }
    }
}
