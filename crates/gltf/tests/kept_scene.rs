//! `encode_owned` writes the arrays of the scene it keeps from the scene itself: the file must
//! be the one `encode` makes from a borrowed scene, byte for byte, whichever arrays are
//! kept (large ones) or copied (small ones, non-unit normals, a scaled scene).

mod common;

use animbin_core::SceneOptions;
use animbin_core::images::ImageFiles;
use animbin_core::math::{Quat, Rgba, Vec2, Vec3};
use animbin_core::scene::{AnimKind, Animation, BoneTrack, ConversionReport, Key, Mesh, Scene, SkinWeights, Texture};
use animbin_gltf::{Container, encode, encode_owned};

/// A mesh of `n` vertices on a grid, with unit normals (or not), two UV layers, two colour
/// sets and skin weights; `n` over 65,535 takes `u32` indices.
fn grid(n: u32, unit_normals: bool) -> Mesh {
    let side = (f64::from(n).sqrt().ceil() as u32).max(2);
    let position = |i: u32| Vec3::new((i % side) as f32 * 0.5, (i / side) as f32 * 0.25, (i % 7) as f32);
    let normal = |i: u32| {
        let v = Vec3::new((i % 5) as f32 - 2.0, 1.0, (i % 3) as f32);
        if unit_normals {
            let len = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
            Vec3::new(v.x / len, v.y / len, v.z / len)
        } else {
            v
        }
    };
    let faces = (0..n - 2).map(|i| [i, i + 1, i + 2]).collect();
    Mesh {
        name: format!("grid{n}"),
        positions: (0..n).map(position).collect(),
        normals: (0..n).map(normal).collect(),
        uv_layers: vec![
            (0..n).map(|i| Vec2::new(i as f32 / n as f32, 0.5)).collect(),
            (0..n).map(|i| Vec2::new(0.25, (i % 11) as f32 * 0.125)).collect(),
        ],
        colors: (0..n).map(|i| Rgba::new(i as u8, (i >> 8) as u8, 7, 255)).collect(),
        extra_color_layers: vec![(0..n).map(|i| Rgba::new(1, 2, i as u8, 4)).collect()],
        skin: Some(SkinWeights {
            skin: None,
            influences: 2,
            bones: (0..n * 2).map(|k| k % 3).collect(),
            weights: (0..n).flat_map(|_| [0.75, 0.25]).collect(),
            blend: Default::default(),
        }),
        faces,
        materials: vec![Some(0)],
        ..Default::default()
    }
}

/// An animation of `keys` keys a channel on the skeleton's bones: in order (made when
/// written), out of order, with a repeated time, and relative (applied to the rest pose).
fn long_animation(keys: usize, kind: AnimKind) -> Animation {
    let frames = |k: usize| (0..k).map(|i| i as f64 * 0.5);
    let v = |f: f64| Vec3::new(f.sin(), f * 0.25, 1.0 + f.cos());
    let q = |f: f64| Quat::new(0.1 * f.sin(), 0.2, 0.0, 1.0);
    let in_order = |bone: &str| BoneTrack {
        bone: bone.into(),
        translation: frames(keys).map(|f| Key::new(f, v(f))).collect(),
        rotation: frames(keys).map(|f| Key::new(f, q(f))).collect(),
        scale: frames(keys).map(|f| Key::new(f, v(f + 1.0))).collect(),
        ..BoneTrack::default()
    };
    let mut shuffled = in_order("j_head");
    shuffled.translation = shuffled.translation.iter().rev().collect();
    let mut repeated = in_order("j_gun");
    let mut rotation = repeated.rotation.to_vec();
    rotation[keys / 2].frame = rotation[keys / 2 - 1].frame;
    repeated.rotation = rotation.into();
    Animation {
        name: format!("long {kind:?}"),
        framerate: 30.0,
        frame_count: keys as f64 * 0.5,
        kind,
        bones: vec![in_order("j_spine"), shuffled, repeated, in_order("not_a_bone")],
        ..Animation::default()
    }
}

/// The full scene with large meshes (kept) beside the small one (copied), a PNG of 200 KiB
/// and long animations (made when written).
fn large_scene() -> Scene {
    let mut scene = common::full_scene();
    scene.animations.push(long_animation(6000, AnimKind::Absolute));
    scene.animations.push(long_animation(5000, AnimKind::Relative));
    scene.animations.push(long_animation(5000, AnimKind::Additive));
    scene.meshes.push(grid(70_000, true));
    scene.meshes.push(grid(20_000, true));
    scene.meshes.push(grid(30_000, false));
    let mut png = common::PNG.to_vec();
    png.resize(200 * 1024, 0x5a);
    scene.textures.push(Texture {
        name: "large.png".into(),
        data: png,
        mime_type: String::new(),
    });
    scene
}

fn encoded_both_ways(scene: &Scene, container: Container, options: &SceneOptions) -> (Vec<u8>, Vec<u8>) {
    let mut report = ConversionReport::default();
    let borrowed = encode(scene, container, options, &ImageFiles::default(), &mut report).unwrap();
    let mut owned_report = ConversionReport::default();
    let owned = encode_owned(
        scene.clone(),
        container,
        options,
        &ImageFiles::default(),
        &mut owned_report,
    )
    .unwrap();
    assert_eq!(report, owned_report);
    let mut streamed = Vec::new();
    owned.write(&mut streamed).unwrap();
    assert_eq!(streamed, owned.to_bytes());
    assert_eq!(streamed.len(), owned.len());
    (borrowed.into_bytes(), streamed)
}

#[test]
fn a_kept_scene_encodes_the_same_file_as_a_borrowed_one() {
    let scene = large_scene();
    for container in [Container::Glb, Container::Gltf] {
        for options in common::axis_and_scale_options() {
            let (borrowed, owned) = encoded_both_ways(&scene, container, &options);
            assert!(borrowed == owned, "{container:?} {options:?}: the files differ");
        }
    }
}

#[test]
fn a_kept_scene_reads_back_as_the_scene() {
    let scene = large_scene();
    let (_, owned) = encoded_both_ways(&scene, Container::Glb, &SceneOptions::default());
    let back = animbin_gltf::to_scene(&owned, &SceneOptions::default(), &mut ConversionReport::default()).unwrap();
    for (i, (read, made)) in back.meshes.iter().zip(&scene.meshes).enumerate().skip(1) {
        assert_eq!(read.positions, made.positions, "mesh {i}");
        assert_eq!(read.uv_layers, made.uv_layers, "mesh {i}");
        assert_eq!(read.colors, made.colors, "mesh {i}");
        assert_eq!(read.extra_color_layers, made.extra_color_layers, "mesh {i}");
        assert_eq!(read.faces, made.faces, "mesh {i}");
    }
    // Normals come back made unit (those of length 1 to f32's rounding, as they were).
    let unit = |v: &Vec3<f32>| {
        let len = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
        if (len - 1.0).abs() <= 1e-5 {
            return *v;
        }
        Vec3::new(v.x / len, v.y / len, v.z / len)
    };
    for i in 1..4 {
        let made: Vec<_> = scene.meshes[i].normals.iter().map(unit).collect();
        assert_eq!(back.meshes[i].normals, made, "mesh {i}");
    }
    assert_ne!(back.meshes[3].normals, scene.meshes[3].normals);
    assert_eq!(back.textures[1].data, scene.textures[1].data);
    // The long animations' keys come back at f32 precision.
    let made = &scene.animations[2].bones[0];
    let read = back.animations[2].bones.iter().find(|t| t.bone == "j_spine").unwrap();
    assert_eq!(read.rotation.len(), made.rotation.len());
    for (r, m) in read.translation.iter().zip(&made.translation) {
        assert_eq!(r.frame, m.frame);
        assert_eq!(r.value.map(|c| c as f32), m.value.map(|c| c as f32));
    }
}

/// An animation of `tracks` tracks of `keys` keys on each channel: its channels fill several
/// of the batches the export makes side by side.
fn many_tracks(tracks: usize, keys: usize) -> Animation {
    let mut animation = long_animation(keys, AnimKind::Relative);
    let track = animation.bones[0].clone();
    animation.bones = (0..tracks)
        .map(|t| BoneTrack {
            // Every third a bone of the skeleton (its rest pose applies), the others extra nodes.
            bone: if t % 3 == 0 {
                track.bone.clone()
            } else {
                format!("extra{t}")
            },
            ..track.clone()
        })
        .collect();
    animation
}

/// The borrowed and the owned encoding's files, or the error.
type Files = Result<(Vec<u8>, Vec<u8>), String>;

/// `encode` and `encode_owned` of `scene` on a pool of `threads` threads: the files (or the
/// error) and the report.
fn encoded_on(threads: usize, scene: &Scene) -> (Files, ConversionReport) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut report = ConversionReport::default();
        let options = SceneOptions::default();
        let files = encode(scene, Container::Glb, &options, &ImageFiles::default(), &mut report)
            .and_then(|borrowed| {
                let owned = encode_owned(
                    scene.clone(),
                    Container::Glb,
                    &options,
                    &ImageFiles::default(),
                    &mut ConversionReport::default(),
                )?;
                Ok((borrowed.into_bytes(), owned.to_bytes()))
            })
            .map_err(|e| e.to_string());
        (files, report)
    })
}

/// The error of an encoding that must fail (the files are not printed: they are large).
fn refusal(encoded: Files) -> String {
    match encoded {
        Ok(_) => panic!("the scene encodes"),
        Err(e) => e,
    }
}

#[test]
fn the_file_is_the_same_on_one_thread_and_on_several() {
    let mut scene = common::full_scene();
    // 40 tracks of 3 channels of 4,000 keys: 480,000 keys, two batches and a part.
    scene.animations.push(many_tracks(40, 4000));
    let (one, one_report) = encoded_on(1, &scene);
    let (one, owned_one) = one.expect("the scene encodes");
    assert!(one == owned_one, "the borrowed and owned files differ");
    for threads in [2, 3] {
        let (several, report) = encoded_on(threads, &scene);
        let (several, owned) = several.expect("the scene encodes");
        assert!(one == several && one == owned, "{threads} threads: the files differ");
        assert_eq!(report, one_report);
    }
    // With bad keys in two channels (a late batch's, then an early one's too), every pool
    // names the first in track order, as one thread making them in order does.
    let last = scene.animations.len() - 1;
    let bad = Vec3::new(f64::NAN, 0.0, 0.0);
    scene.animations[last].bones[37].scale = vec![Key::new(0.0, bad)].into();
    let late = refusal(encoded_on(1, &scene).0);
    assert!(late.contains("track 37"), "{late}");
    scene.animations[last].bones[5].translation = vec![Key::new(0.0, bad)].into();
    let first = refusal(encoded_on(1, &scene).0);
    assert!(first.contains("track 5 "), "{first}");
    for threads in [2, 3] {
        assert_eq!(refusal(encoded_on(threads, &scene).0), first);
    }
}
