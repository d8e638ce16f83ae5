//! The scene builders behind `from_scene` (Python's `animbin.from_scene`, `convert_scene`):
//! a random scene (a skeleton with parents in and out of range or in cycles, bones that do
//! and do not inherit their parent's scale, with rest scales, meshes whose
//! arrays mostly match their vertex count with faces, skin and materials mostly in range,
//! materials, textures, animations whose keys are mostly in increasing frames, hairs whose
//! particles mostly match their segments, instances of other files, and the graph around
//! the nodes (plain nodes, placed meshes, skins, cameras, lights, texture links); names
//! anything, values mostly plain and sometimes NaN, infinite, huge or any bits) goes to
//! every target (of a format's binary and text forms, one picked by the input; glTF for
//! every other input). Neither the check nor a builder may panic; a conversion that succeeds
//! was given a scene that passes `Scene::check`, and what it writes (unless the writer
//! refuses it as unencodable) reads back as its target's format. A glb encoded from the
//! scene kept is the one encoded from it borrowed.
#![no_main]

use animbin::{ConvertOptions, Document, Target};
use animbin_core::ErrorKind;
use animbin_core::math::{Quat, Rgba, Transform, Vec2, Vec3};
use animbin_core::scene::{
    AnimKind, Animation, Bone, BoneTrack, Camera, ChannelCurves, Curve, Hair, Instance, Interpolation, Key, Light,
    LightKind, Material, Mesh, MeshInstance, MorphTarget, NodeKind, Note, Projection, PropertyTrack, Scene, Skeleton,
    Skin, SkinBlend, SkinWeights, Tangents, Texture, TextureLink, TextureSlot, UvTransform, WeightTrack,
};
use animbin_fuzz::{list, name};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// A value: mostly a small plain one, sometimes one no file can hold (NaN, infinite, past
/// `f32`, subnormal) or any bits.
fn f64v(u: &mut Unstructured) -> Result<f64> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => *u.choose(&[
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            -1e300,
            f64::from(f32::MAX) * 2.0,
            f64::MIN_POSITIVE / 2.0,
            -0.0,
        ])?,
        1 => f64::from_bits(u.arbitrary()?),
        2 => f64::from(f32::from_bits(u.arbitrary()?)),
        _ => f64::from(u.arbitrary::<i8>()?) / 16.0,
    })
}

fn f32v(u: &mut Unstructured) -> Result<f32> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => *u.choose(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -0.0, 1e-45])?,
        1 => f32::from_bits(u.arbitrary()?),
        _ => f32::from(u.arbitrary::<i8>()?) / 16.0,
    })
}

fn vec3(u: &mut Unstructured) -> Result<Vec3<f64>> {
    Ok(Vec3::new(f64v(u)?, f64v(u)?, f64v(u)?))
}

fn vec3f(u: &mut Unstructured) -> Result<Vec3<f32>> {
    Ok(Vec3::new(f32v(u)?, f32v(u)?, f32v(u)?))
}

/// A rotation: mostly the identity or a unit quaternion, sometimes any four values.
fn quat(u: &mut Unstructured) -> Result<Quat<f64>> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => Quat::IDENTITY,
        1 => Quat::new(f64v(u)?, f64v(u)?, f64v(u)?, f64v(u)?),
        _ => {
            let [x, y, z, w] = [0; 4].map(|_| f64::from(u.arbitrary::<i8>().unwrap_or(0)));
            let n = (x * x + y * y + z * z + w * w).sqrt();
            if n == 0.0 {
                Quat::IDENTITY
            } else {
                Quat::new(x / n, y / n, z / n, w / n)
            }
        }
    })
}

fn scale(u: &mut Unstructured) -> Result<Vec3<f64>> {
    Ok(if u.ratio(3, 4)? {
        Vec3::new(1.0, 1.0, 1.0)
    } else {
        vec3(u)?
    })
}

fn transform(u: &mut Unstructured) -> Result<Transform> {
    Ok(Transform {
        translation: vec3(u)?,
        rotation: quat(u)?,
        scale: scale(u)?,
    })
}

/// An index below `len` mostly; sometimes `len` itself or anything.
fn index(u: &mut Unstructured, len: usize) -> Result<usize> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => len,
        1 => u.arbitrary::<u32>()? as usize,
        _ if len == 0 => 0,
        _ => u.int_in_range(0..=len - 1)?,
    })
}

/// `n` items, or (rarely) a count that does not match.
fn many<T>(u: &mut Unstructured, n: usize, mut item: impl FnMut(&mut Unstructured) -> Result<T>) -> Result<Vec<T>> {
    let n = if u.ratio(1, 16)? {
        u.int_in_range(0..=6usize)?
    } else {
        n
    };
    (0..n).map(|_| item(u)).collect()
}

fn skeleton(u: &mut Unstructured) -> Result<Skeleton> {
    let n = u.int_in_range(0..=6usize)?;
    let mut bones = Vec::with_capacity(n);
    for i in 0..n {
        let parent = match u.int_in_range(0..=15u8)? {
            0 => Some(index(u, n)?),
            1..=5 => None,
            _ if i == 0 => None,
            _ => Some(u.int_in_range(0..=i - 1)?),
        };
        bones.push(Bone {
            kind: Default::default(),
            name: name(u)?,
            parent,
            local: transform(u)?,
            global: Transform::IDENTITY,
            cosmetic: u.ratio(1, 8)?,
            // Compensating bones under scaled (and sheared) parents take the glTF writer's
            // compensation nodes; rest scales other than 1 are folded into keys.
            scale_compensate: u.ratio(1, 3)?,
            rest_scale: if u.ratio(1, 4)? { vec3(u)? } else { Vec3::ONE },
        });
    }
    let mut skeleton = Skeleton {
        bones,
        ..Default::default()
    };
    if u.ratio(3, 4)? {
        skeleton.update_globals();
    } else {
        for bone in &mut skeleton.bones {
            bone.global = transform(u)?;
        }
    }
    Ok(skeleton)
}

fn mesh(u: &mut Unstructured, bones: usize, materials: usize) -> Result<Mesh> {
    let v = u.int_in_range(0..=5usize)?;
    let layers = u.int_in_range(0..=2usize)?;
    let skin = if u.ratio(1, 2)? {
        let influences = u.int_in_range(0..=3usize)?;
        Some(SkinWeights {
            skin: None,
            influences,
            bones: many(u, v * influences, |u| Ok(index(u, bones.max(1))? as u32))?,
            weights: many(u, v * influences, f32v)?,
            blend: if u.ratio(1, 4)? {
                SkinBlend::DualQuaternion
            } else {
                SkinBlend::Linear
            },
        })
    } else {
        None
    };
    let faces = list(u, 4, |u| Ok([0; 3].map(|_| index(u, v).unwrap_or(0) as u32)))?;
    let material_count = if layers > 0 {
        layers
    } else {
        usize::from(u.arbitrary::<bool>()?)
    };
    Ok(Mesh {
        name: name(u)?,
        positions: (0..v).map(|_| vec3f(u)).collect::<Result<_>>()?,
        normals: if u.arbitrary()? { many(u, v, vec3f)? } else { Vec::new() },
        uv_layers: (0..layers)
            .map(|_| many(u, v, |u| Ok(Vec2::new(f32v(u)?, f32v(u)?))))
            .collect::<Result<_>>()?,
        colors: if u.arbitrary()? {
            many(u, v, |u| {
                Ok(Rgba::new(
                    u.arbitrary()?,
                    u.arbitrary()?,
                    u.arbitrary()?,
                    u.arbitrary()?,
                ))
            })?
        } else {
            Vec::new()
        },
        skin,
        faces,
        materials: (0..material_count)
            .map(|_| {
                Ok(if u.ratio(1, 4)? {
                    None
                } else {
                    Some(index(u, materials)?)
                })
            })
            .collect::<Result<_>>()?,
        morph_targets: list(u, 2, |u| morph_target(u, v))?,
        ..Default::default()
    })
}

fn map_name(u: &mut Unstructured) -> Result<Option<String>> {
    Ok(if u.arbitrary()? {
        Some(format!("{}.png", name(u)?))
    } else {
        None
    })
}

fn material(u: &mut Unstructured, textures: usize) -> Result<Material> {
    Ok(Material {
        links: Vec::new(),
        surface: None,
        name: name(u)?,
        diffuse_map: map_name(u)?,
        normal_map: map_name(u)?,
        specular_map: map_name(u)?,
        texture: if u.arbitrary()? {
            Some(index(u, textures)?)
        } else {
            None
        },
        base_color: if u.arbitrary()? {
            Some(Rgba::new(f32v(u)?, f32v(u)?, f32v(u)?, f32v(u)?))
        } else {
            None
        },
    })
}

fn texture(u: &mut Unstructured) -> Result<Texture> {
    let mut png = if u.ratio(3, 4)? {
        b"\x89PNG\r\n\x1a\n".to_vec()
    } else {
        Vec::new()
    };
    let extra = u.int_in_range(0..=16usize)?;
    png.extend_from_slice(u.bytes(extra)?);
    Ok(Texture {
        name: name(u)?,
        data: png,
        mime_type: String::new(),
    })
}

/// Key frames: mostly strictly increasing (whole frames, sometimes fractional or past the
/// 8-, 16- and 32-bit frame widths), sometimes any values in any order.
fn frames(u: &mut Unstructured, n: usize) -> Result<Vec<f64>> {
    if u.ratio(1, 8)? {
        return (0..n).map(|_| f64v(u)).collect();
    }
    let mut frame = match u.int_in_range(0..=7u8)? {
        0 => *u.choose(&[254.0, 65534.0, 4_294_967_294.0, -3.0, 0.5])?,
        _ => 0.0,
    };
    let fractional = u.ratio(1, 8)?;
    (0..n)
        .map(|_| {
            let f = frame;
            let step = f64::from(u.int_in_range(1..=4u8)?);
            frame += if fractional { step / 4.0 } else { step };
            Ok(f)
        })
        .collect()
}

fn keys<T>(u: &mut Unstructured, mut value: impl FnMut(&mut Unstructured) -> Result<T>) -> Result<Vec<Key<T>>> {
    let n = u.int_in_range(0..=4usize)?;
    let frames = frames(u, n)?;
    frames.into_iter().map(|f| Ok(Key::new(f, value(u)?))).collect()
}

/// A morph target name: mostly one of two, so that weight tracks find their targets.
fn target_name(u: &mut Unstructured) -> Result<String> {
    if u.ratio(3, 4)? {
        Ok((*u.choose(&["smile", "blink"])?).to_string())
    } else {
        name(u)
    }
}

/// A morph target of a mesh of `v` vertices: indices mostly inside it, offsets per index
/// (rarely a count that does not match), normal offsets sometimes.
fn morph_target(u: &mut Unstructured, v: usize) -> Result<MorphTarget> {
    let k = u.int_in_range(0..=v.min(3))?;
    let indices = (0..k).map(|_| Ok(index(u, v)? as u32)).collect::<Result<Vec<u32>>>()?;
    Ok(MorphTarget {
        default_weight: 0.0,
        name: target_name(u)?,
        position_deltas: many(u, k, vec3f)?,
        normal_deltas: if u.ratio(1, 4)? { many(u, k, vec3f)? } else { Vec::new() },
        max_weight: if u.ratio(1, 4)? { Some(f32v(u)?) } else { None },
        indices,
    })
}

/// A channel's own curve, or none: linear, step, or a cubic spline whose tangents fit
/// `keys` keys of `n` components, or sometimes not.
fn curve(u: &mut Unstructured, keys: usize, n: usize) -> Result<Option<Curve>> {
    Ok(match u.int_in_range(0..=5u8)? {
        0 => Some(Curve::Linear),
        1 => Some(Curve::Step),
        2 => {
            let count = if u.ratio(7, 8)? {
                keys * n
            } else {
                u.int_in_range(0..=8)?
            };
            Some(Curve::CubicSpline(Tangents {
                incoming: many(u, count, f64v)?,
                outgoing: many(u, count, f64v)?,
            }))
        }
        _ => None,
    })
}

fn kind(u: &mut Unstructured) -> Result<AnimKind> {
    Ok(*u.choose(&[
        AnimKind::Absolute,
        AnimKind::Additive,
        AnimKind::Relative,
        AnimKind::Delta,
    ])?)
}

fn animation(u: &mut Unstructured, skeleton: &Skeleton) -> Result<Animation> {
    let framerate = match u.int_in_range(0..=7u8)? {
        0 => f64v(u)?,
        1 => f64::from(u.arbitrary::<u8>()?),
        _ => *u.choose(&[30.0, 24.0, 60.0, 29.97])?,
    };
    let bones = list(u, 4, |u| {
        let bone = if !skeleton.bones.is_empty() && u.ratio(3, 4)? {
            u.choose(&skeleton.bones)?.name.clone()
        } else {
            name(u)?
        };
        let mut track = BoneTrack {
            bone,
            kind_override: if u.ratio(1, 4)? { Some(kind(u)?) } else { None },
            cosmetic: u.ratio(1, 8)?,
            translation: keys(u, vec3)?.into(),
            rotation: keys(u, quat)?.into(),
            scale: keys(u, scale)?.into(),
            ..BoneTrack::default()
        };
        // Channels joined their own way (a glTF sampler each): tangents that mostly fit
        // their keys, of any value.
        track.curves = ChannelCurves {
            translation: curve(u, track.translation.len(), 3)?,
            rotation: curve(u, track.rotation.len(), 4)?,
            scale: curve(u, track.scale.len(), 3)?,
        };
        Ok(track)
    })?;
    let last = bones
        .iter()
        .flat_map(|t| {
            let frames = t.translation.iter().map(|k| k.frame);
            frames
                .chain(t.rotation.iter().map(|k| k.frame))
                .chain(t.scale.iter().map(|k| k.frame))
        })
        .fold(0.0, f64::max);
    let frame_count = match u.int_in_range(0..=7u8)? {
        0 => f64v(u)?,
        1 => 0.0,
        _ => last + 1.0,
    };
    Ok(Animation {
        name: name(u)?,
        framerate,
        frame_count,
        looping: u.arbitrary()?,
        kind: kind(u)?,
        interpolation: if u.arbitrary()? {
            Interpolation::Linear
        } else {
            Interpolation::Step
        },
        bones,
        notes: list(u, 3, |u| {
            let frame = if u.ratio(1, 8)? {
                f64v(u)?
            } else {
                f64::from(u.arbitrary::<u8>()?)
            };
            Ok(Note { frame, name: name(u)? })
        })?,
        properties: list(u, 2, |u| {
            Ok(PropertyTrack {
                node: name(u)?,
                property: name(u)?,
                format: if u.ratio(3, 4)? { "animx".into() } else { name(u)? },
                data: u.arbitrary()?,
            })
        })?,
        weights: list(u, 2, |u| {
            Ok(WeightTrack {
                target: target_name(u)?,
                keys: keys(u, f64v)?.into(),
            })
        })?,
    })
}

/// A hair: strands of a few segments, particles mostly as many as they call for, a material
/// mostly in range or none.
fn hair(u: &mut Unstructured, materials: usize) -> Result<Hair> {
    let segments = list(u, 3, |u| u.int_in_range(0..=3u32))?;
    let count = segments.iter().map(|&s| s as usize + 1).sum();
    Ok(Hair {
        name: name(u)?,
        segments,
        particles: many(u, count, vec3f)?,
        material: if u.ratio(1, 2)? {
            Some(index(u, materials)?)
        } else {
            None
        },
    })
}

fn instance(u: &mut Unstructured) -> Result<Instance> {
    Ok(Instance {
        name: name(u)?,
        path: name(u)?,
        placement: transform(u)?,
    })
}

fn scene(u: &mut Unstructured) -> Result<Scene> {
    let skeleton = skeleton(u)?;
    let texture_count = u.int_in_range(0..=2usize)?;
    let material_count = u.int_in_range(0..=2usize)?;
    let bones = skeleton.bones.len();
    let meshes = list(u, 2, |u| mesh(u, bones, material_count))?;
    let materials = (0..material_count)
        .map(|_| material(u, texture_count))
        .collect::<Result<_>>()?;
    let textures = (0..texture_count).map(|_| texture(u)).collect::<Result<_>>()?;
    let animations = list(u, 2, |u| animation(u, &skeleton))?;
    // After the rest, so that the inputs of scenes without them build the same scenes.
    let hairs = list(u, 2, |u| hair(u, material_count))?;
    let instances = list(u, 2, instance)?;
    let mut scene = Scene {
        skeleton,
        meshes,
        materials,
        textures,
        animations,
        hairs,
        instances,
        placement: Transform::IDENTITY,
        ..Default::default()
    };
    graph(u, &mut scene)?;
    Ok(scene)
}

/// The graph around the nodes, last so that inputs without it build the same rigs: plain
/// nodes, meshes placed (and instanced) by nodes, skins with matrices of any value bound to
/// meshes, cameras and lights, with indices mostly in range.
fn graph(u: &mut Unstructured, scene: &mut Scene) -> Result<()> {
    if !u.ratio(1, 2)? {
        return Ok(());
    }
    let nodes = scene.skeleton.bones.len();
    for bone in &mut scene.skeleton.bones {
        if u.ratio(1, 3)? {
            bone.kind = NodeKind::Plain;
        }
    }
    let meshes = scene.meshes.len();
    scene.mesh_instances = list(u, 3, |u| {
        Ok(MeshInstance {
            node: index(u, nodes)?,
            meshes: list(u, 2, |u| index(u, meshes))?,
            name: name(u)?,
        })
    })?;
    scene.skins = list(u, 2, |u| {
        let joints = list(u, 4, |u| index(u, nodes))?;
        let count = joints.len();
        Ok(Skin {
            name: name(u)?,
            inverse_bind_matrices: many(u, count, |u| {
                let t = transform(u)?;
                let mut m = t.to_matrix();
                if u.ratio(1, 8)? {
                    m.rows[0][1] += f64v(u)?;
                }
                Ok(m)
            })?,
            joints,
            skeleton: if u.ratio(1, 2)? { Some(index(u, nodes)?) } else { None },
        })
    })?;
    let skins = scene.skins.len();
    for mesh in &mut scene.meshes {
        if let Some(weights) = &mut mesh.skin {
            weights.skin = if u.ratio(1, 2)? { Some(index(u, skins)?) } else { None };
        }
        for target in &mut mesh.morph_targets {
            target.default_weight = f32v(u)?;
        }
    }
    scene.cameras = list(u, 2, |u| {
        let projection = if u.arbitrary()? {
            Projection::Perspective {
                yfov: f64v(u)?,
                aspect_ratio: if u.arbitrary()? { Some(f64v(u)?) } else { None },
                znear: f64v(u)?,
                zfar: if u.arbitrary()? { Some(f64v(u)?) } else { None },
            }
        } else {
            Projection::Orthographic {
                xmag: f64v(u)?,
                ymag: f64v(u)?,
                znear: f64v(u)?,
                zfar: f64v(u)?,
            }
        };
        Ok(Camera {
            name: name(u)?,
            node: index(u, nodes)?,
            projection,
        })
    })?;
    scene.lights = list(u, 2, |u| {
        let kind = match u.int_in_range(0..=2u8)? {
            0 => LightKind::Directional,
            1 => LightKind::Point,
            _ => LightKind::Spot {
                inner_cone_angle: f64v(u)?,
                outer_cone_angle: f64v(u)?,
            },
        };
        Ok(Light {
            name: name(u)?,
            node: index(u, nodes)?,
            kind,
            color: [f64v(u)?, f64v(u)?, f64v(u)?],
            intensity: f64v(u)?,
            range: if u.arbitrary()? { Some(f64v(u)?) } else { None },
        })
    })?;
    let textures = scene.textures.len();
    for material in &mut scene.materials {
        material.links = list(u, 3, |u| {
            Ok(TextureLink {
                slot: TextureSlot::ALL[u.int_in_range(0..=4usize)?],
                texture: index(u, textures)?,
                uv_layer: u.int_in_range(0..=2u32)?,
                strength: if u.arbitrary()? { Some(f64v(u)?) } else { None },
                transform: if u.arbitrary()? {
                    Some(UvTransform {
                        offset: [f64v(u)?, f64v(u)?],
                        rotation: f64v(u)?,
                        scale: [f64v(u)?, f64v(u)?],
                        uv_layer: None,
                    })
                } else {
                    None
                },
            })
        })?;
    }
    Ok(())
}

/// A glb encoded from a scene it keeps (its arrays written from the scene, its channels'
/// values made as it is written; every view of any length, with the `small-pieces` feature)
/// is the one encoded from the scene borrowed, with the same report, or the same error.
fn kept_scene_encodes_as_borrowed(scene: &Scene) {
    use animbin_core::images::ImageFiles;
    use animbin_core::scene::ConversionReport;
    use animbin_gltf::Container;
    let options = animbin_core::SceneOptions::default();
    let mut report = ConversionReport::default();
    let borrowed = animbin_gltf::encode(scene, Container::Glb, &options, &ImageFiles::default(), &mut report);
    let mut kept_report = ConversionReport::default();
    let kept = animbin_gltf::encode_owned(
        scene.clone(),
        Container::Glb,
        &options,
        &ImageFiles::default(),
        &mut kept_report,
    );
    match (borrowed, kept) {
        (Ok(borrowed), Ok(kept)) => {
            let mut streamed = Vec::new();
            kept.write(&mut streamed).expect("a kept scene's glb writes");
            assert!(streamed == borrowed.to_bytes(), "a kept scene encoded another glb");
            assert_eq!(kept_report, report);
        }
        (borrowed, kept) => assert_eq!(
            borrowed.map(|_| ()).map_err(|e| e.to_string()),
            kept.map(|_| ()).map_err(|e| e.to_string())
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    // Of the two forms one builder makes (glTF and GLB, DMF and its JSON, AnimX and AnimJ),
    // one per input, picked by its first byte: writing and reading back the JSON forms took
    // most of the time of an input whose scene converts, and the binary forms share their
    // builder.
    let Ok(forms) = u.arbitrary::<u8>() else { return };
    let pairs = [
        (Target::Glb, Target::Gltf),
        (Target::Dmf, Target::DmfJson),
        (Target::AnimX, Target::AnimJ),
    ];
    let mut skipped: Vec<Target> = (pairs.iter().enumerate())
        .map(|(i, &(binary, text))| if forms >> i & 1 == 0 { text } else { binary })
        .collect();
    // glTF's builder and reader, even in one form, were a third of the time: every other input.
    if forms & 8 != 0 {
        skipped.extend([Target::Glb, Target::Gltf]);
    }
    let Ok(scene) = scene(&mut u) else {
        return;
    };
    let checked = scene.check();
    if !skipped.contains(&Target::Glb) {
        kept_scene_encodes_as_borrowed(&scene);
    }
    for target in Target::ALL.into_iter().filter(|t| !skipped.contains(t)) {
        let Ok(conversion) = animbin::convert_scene(&scene, target, &ConvertOptions::default()) else {
            continue;
        };
        assert!(
            checked.is_ok(),
            "{target:?}: a scene that fails the check converted: {checked:?}"
        );
        let bytes = match conversion.to_bytes() {
            Ok(bytes) => bytes,
            // A writer may refuse what its format cannot encode (a name with a NUL), as documented.
            Err(animbin::Error::Format(e)) if matches!(e.kind, ErrorKind::Unencodable(_)) => continue,
            Err(e) => panic!("{target:?}: a built document does not write: {e}"),
        };
        let format = target.format().expect("every target but a dump has a format");
        if let Err(e) = Document::parse_as(&bytes, None, Some(format)) {
            panic!("{target:?}: what the builder wrote does not read back: {e}");
        }
    }
});
