//! Conversion to and from the core scene model ([`animbin_core::scene`]).
//!
//! **AnimX -> scene.** A track becomes a bone channel when the scene can give it back
//! unchanged: a Curve track whose property is `position` or `scale` (of `float3` values) or
//! `rotation` (`floatQ`), with one shared interpolation, no tangents, as many times as values,
//! and the first such track for its node and channel. The first of them sets the animation's interpolation (Linear,
//! or Hold as [`Interpolation::Step`]); a later one with the other interpolation stays a
//! property track. The node's name is the bone's name. Every other track is kept as a
//! [`PropertyTrack`] of format `"animx"` whose data is the track's own AnimX encoding
//! (version 1 header), so AnimX -> scene -> AnimX keeps every track (bone tracks come first).
//!
//! Times: AnimX counts `f32` seconds, the scene frames. The conversion uses
//! [`SceneOptions::framerate`], or [`DEFAULT_FRAMERATE`] (60 frames per second) when it is
//! unset; f32 seconds times 60
//! as f64 and back divide exactly enough to give the same f32. `frame_count` is the global
//! duration in frames; a scene without one (`frame_count` 0) gets the last key's time.
//!
//! **Scene -> AnimX.** The first animation: each bone's translation, rotation and scale keys
//! become Curve tracks (`position` float3, `rotation` floatQ, `scale` float3) with the
//! animation's interpolation shared, at `frame / framerate` seconds; then the `"animx"`
//! property tracks, decoded. Frames become seconds at each animation's own framerate (the
//! options' framerate is not used: the scene states its rate). What AnimX cannot hold
//! (other animations, notes, anim kinds, looping, bone flags, property tracks of other
//! formats, skeletons and meshes, values that f32 rounds) is recorded in the
//! [`ConversionReport`].
//!
//! AnimX -> scene loses nothing a scene can be asked for; the file version and encoding are
//! how the file is stored, not what it holds, and are not reported.

use std::collections::HashMap;

use animbin_core::io::SliceReader;
use animbin_core::math::{Quat, Vec3};
use animbin_core::scene::{self, AnimKind, BoneTrack, ConversionReport, Interpolation, Keys, PropertyTrack, Scene};
use animbin_core::{Endian, Error, ErrorKind, SceneOptions};
use binrw::{BinRead, BinWrite};

use crate::FORMAT;
use crate::layout::{self as track, CurveTrack, Encoding, Interpolations, Keyframes, Track, TrackData};
use crate::model::Animation;
use crate::value::Values;

/// The frames per second of scenes made from AnimX files (AnimX itself counts seconds).
pub const DEFAULT_FRAMERATE: f64 = 60.0;

/// The bone channel properties.
const POSITION: &str = "position";
const ROTATION: &str = "rotation";
const SCALE: &str = "scale";

/// One track's AnimX encoding (version 1 header), the data of a [`PropertyTrack`].
fn encode_track(track: &Track) -> Result<Vec<u8>, Error> {
    let mut out = std::io::Cursor::new(Vec::new());
    track.write_options(&mut out, Endian::Little, (1,)).map_err(|e| {
        let mut e = Error::from_binrw(FORMAT, e, out.position());
        if let ErrorKind::Unencodable(why) = &mut e.kind {
            *why = format!("track {}: {why}", track.label());
        }
        e
    })?;
    Ok(out.into_inner())
}

/// Decodes a [`PropertyTrack`]'s data (one version 1 track, nothing after it).
fn decode_track(data: &[u8]) -> Result<Track, Error> {
    let mut reader = SliceReader::new(data);
    // No duration is known here: it only picks the curve keyframe order, and a track this
    // crate encoded is always in the seed's order, which an infinite duration accepts.
    let track =
        Track::read_options(&mut reader, Endian::Little, (1, f32::INFINITY)).map_err(|e| reader.error(FORMAT, e))?;
    if reader.position() != data.len() as u64 {
        return Err(Error::new(
            FORMAT,
            reader.position(),
            ErrorKind::invalid("the end of a property track's data", "more bytes"),
        ));
    }
    Ok(track)
}

/// Which bone channel a track can become, if any.
fn channel(track: &Track) -> Option<(usize, track::Interpolation)> {
    let TrackData::Curve(curve) = &track.data else {
        return None;
    };
    let Interpolations::Shared(interpolation) = curve.interpolation else {
        return None;
    };
    if curve.tangents.is_some() {
        return None;
    }
    match (track.property.as_str(), &curve.keyframes.values) {
        (POSITION, Values::Float3(_)) => Some((0, interpolation)),
        (ROTATION, Values::FloatQ(_)) => Some((1, interpolation)),
        (SCALE, Values::Float3(_)) => Some((2, interpolation)),
        _ => None,
    }
}

fn scene_interpolation(i: track::Interpolation) -> Option<Interpolation> {
    match i {
        track::Interpolation::Linear => Some(Interpolation::Linear),
        track::Interpolation::Hold => Some(Interpolation::Step),
        _ => None,
    }
}

/// The animation as a scene animation at `framerate` frames per second.
/// Where one track goes in the scene: a bone's channel, or a property track.
#[derive(Clone, Copy)]
enum Place {
    /// Channel `slot` (0 translation, 1 rotation, 2 scale) of bone track `bone`.
    Channel {
        bone: usize,
        slot: usize,
    },
    Property,
}

/// What one track becomes, made on its own (side by side with the others).
enum Made {
    Vectors(Keys<Vec3<f64>>),
    Rotations(Keys<Quat<f64>>),
    Property(PropertyTrack),
    /// A channel whose values are not of its kind (never the case for a track that
    /// [`channel`] maps).
    Nothing,
}

fn to_scene_animation(animation: &Animation, framerate: f64) -> Result<scene::Animation, Error> {
    let mut out = scene::Animation {
        name: animation.name.clone(),
        framerate,
        frame_count: f64::from(animation.global_duration) * framerate,
        ..scene::Animation::default()
    };
    // Where each track goes, in one pass in track order: the first channel track of a node
    // and channel claims it, looked up by name (tracks are many in large files).
    let mut shared: Option<track::Interpolation> = None;
    let mut names: Vec<&str> = Vec::new();
    let mut bone_of: HashMap<&str, usize> = HashMap::new();
    // Which channels of each bone a track has claimed.
    let mut claimed: Vec<[bool; 3]> = Vec::new();
    let places: Vec<Place> = animation
        .tracks
        .iter()
        .map(|track| {
            let node = track.node.as_str();
            let mapped = channel(track).filter(|&(slot, interp)| {
                let same = shared.is_none_or(|s| s == interp);
                let free = bone_of.get(node).is_none_or(|&b| !claimed[b][slot]);
                // An empty track cannot claim a channel: the scene would not give it back. Nor
                // can one whose times and values differ in length (built by a program, never
                // read): as a property track its encoding names the fault, where a channel
                // would drop it.
                scene_interpolation(interp).is_some()
                    && same
                    && free
                    && track.keyframe_count() > 0
                    && track.check_encodable().is_ok()
            });
            let Some((slot, interp)) = mapped else {
                return Place::Property;
            };
            shared = Some(interp);
            let bone = *bone_of.entry(node).or_insert_with(|| {
                names.push(node);
                claimed.push([false; 3]);
                names.len() - 1
            });
            claimed[bone][slot] = true;
            Place::Channel { bone, slot }
        })
        .collect();
    let tracks: Vec<(&Track, Place)> = animation.tracks.iter().zip(places).collect();
    let made = animbin_core::parallel::map_in_order(&tracks, |&(track, place)| made(track, place, framerate));
    let mut bones: Vec<BoneTrack> = names
        .into_iter()
        .map(|name| BoneTrack {
            bone: name.to_string(),
            ..BoneTrack::default()
        })
        .collect();
    for ((_, place), made) in tracks.into_iter().zip(made) {
        match (place, made?) {
            (Place::Channel { bone, slot: 0 }, Made::Vectors(keys)) => bones[bone].translation = keys,
            (Place::Channel { bone, .. }, Made::Vectors(keys)) => bones[bone].scale = keys,
            (Place::Channel { bone, .. }, Made::Rotations(keys)) => bones[bone].rotation = keys,
            (_, Made::Property(property)) => out.properties.push(property),
            _ => {}
        }
    }
    out.bones = bones;
    out.interpolation = shared.and_then(scene_interpolation).unwrap_or_default();
    Ok(out)
}

/// What `track` becomes at `place`: its keys, as frames at `framerate`, or its property track.
fn made(track: &Track, place: Place, framerate: f64) -> Result<Made, Error> {
    if let Place::Property = place {
        return Ok(Made::Property(PropertyTrack {
            node: track.node.clone(),
            property: track.property.clone(),
            format: FORMAT.to_string(),
            data: encode_track(track)?,
        }));
    }
    let TrackData::Curve(curve) = &track.data else {
        return Ok(Made::Nothing);
    };
    // Seconds times the rate are frames an f32 may not hold; the values are copied as they
    // are stored.
    let frames = curve.keyframes.times.iter().map(|&t| f64::from(t) * framerate);
    Ok(match &curve.keyframes.values {
        Values::Float3(values) => Made::Vectors(Keys::from_single_values(frames, values.clone()).unwrap_or_default()),
        Values::FloatQ(values) => Made::Rotations(Keys::from_single_values(frames, values.clone()).unwrap_or_default()),
        _ => Made::Nothing,
    })
}

impl Animation {
    /// The animation as a scene of one animation (no skeleton: AnimX names nodes, it does
    /// not define them), at `options.framerate_or(DEFAULT_FRAMERATE)` frames per second.
    ///
    /// A framerate that is not positive and finite is an error, and so is a track that
    /// cannot be encoded (a program's model whose columns differ in length: a read file
    /// has none); nothing else is lost (see the module documentation), so `report` is left
    /// as it is.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene, Error> {
        // Every track reaches the scene (as a bone channel or a property track): no loss to report.
        let _ = report;
        let framerate = options.framerate_or(DEFAULT_FRAMERATE);
        if !(framerate.is_finite() && framerate > 0.0) {
            return Err(Error::new(
                FORMAT,
                0,
                ErrorKind::Unencodable(format!(
                    "a framerate of {framerate} (a scene needs a positive framerate)"
                )),
            ));
        }
        Ok(Scene {
            animations: vec![to_scene_animation(self, framerate)?],
            ..Scene::default()
        })
    }

    /// Builds an animation from the scene's first animation, recording what AnimX cannot
    /// hold in `report`. Key frames become seconds at the animation's own framerate, which
    /// must be positive; `options` are not used (AnimX stores seconds).
    pub fn from_scene(scene: &Scene, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self, Error> {
        // The scene's frames carry their own rate; the options' framerate is for formats
        // that count ticks.
        let _ = options;
        from_scene(scene, report)
    }
}

impl TryFrom<&Animation> for Scene {
    type Error = Error;
    /// [`Animation::to_scene`] at [`DEFAULT_FRAMERATE`].
    fn try_from(animation: &Animation) -> Result<Self, Error> {
        animation.to_scene(&SceneOptions::default(), &mut ConversionReport::default())
    }
}

fn to_f32(value: f64, rounded: &mut bool) -> f32 {
    let out = value as f32;
    if f64::from(out) != value && !value.is_nan() {
        *rounded = true;
    }
    out
}

/// [`Animation::from_scene`].
fn from_scene(scene: &Scene, report: &mut ConversionReport) -> Result<Animation, Error> {
    if !scene.meshes.is_empty() || !scene.skeleton.bones.is_empty() {
        report.lose("skeleton and meshes (AnimX holds animation tracks only)");
    }
    if !scene.materials.is_empty() || !scene.textures.is_empty() {
        report.lose("materials and textures (AnimX holds animation tracks only)");
    }
    report.lose_morph_targets(scene, "AnimX");
    report.lose_rig_controls(scene, "AnimX");
    report.lose_hair_and_instances(scene, "AnimX");
    if scene.animations.len() > 1 {
        report.lose(format!(
            "{} animations after the first (AnimX holds one)",
            scene.animations.len() - 1
        ));
    }
    let Some(anim) = scene.animations.first() else {
        return Ok(Animation::default());
    };
    let fps = anim.framerate;
    if !(fps.is_finite() && fps > 0.0) {
        return Err(Error::new(
            FORMAT,
            0,
            ErrorKind::Unencodable(format!(
                "a framerate of {fps} (AnimX needs seconds, so a positive framerate)"
            )),
        ));
    }
    if !anim.notes.is_empty() {
        report.lose(format!("{} notes (AnimX has no notes)", anim.notes.len()));
    }
    if anim.kind != AnimKind::Absolute {
        report.lose("the animation kind (AnimX values are absolute)");
    }
    if anim.looping {
        report.lose("the looping flag (AnimX has none)");
    }
    let interpolation = match anim.interpolation {
        Interpolation::Linear => track::Interpolation::Linear,
        Interpolation::Step => track::Interpolation::Hold,
    };
    let mut rounded = false;
    let mut last_time = 0.0f32;
    let mut tracks = Vec::new();
    let curve = |node: &str, property: &str, times: Vec<f32>, values: Values| Track {
        node: node.to_string(),
        property: property.to_string(),
        data: TrackData::Curve(CurveTrack {
            interpolation: Interpolations::Shared(interpolation),
            keyframes: Keyframes { times, values },
            tangents: None,
        }),
    };
    for bone in &anim.bones {
        if bone.kind_override.is_some() || bone.cosmetic {
            report.lose("bone modifiers and cosmetic flags (AnimX has none)");
        }
        if !bone.translation.is_empty() {
            let t = seconds(
                bone.translation.iter().map(|k| k.frame),
                fps,
                &mut rounded,
                &mut last_time,
            );
            let v = bone.translation.iter().map(|k| vec3(k.value, &mut rounded)).collect();
            tracks.push(curve(&bone.bone, POSITION, t, Values::Float3(v)));
        }
        if !bone.rotation.is_empty() {
            let t = seconds(bone.rotation.iter().map(|k| k.frame), fps, &mut rounded, &mut last_time);
            let v = bone.rotation.iter().map(|k| quat(k.value, &mut rounded)).collect();
            tracks.push(curve(&bone.bone, ROTATION, t, Values::FloatQ(v)));
        }
        if !bone.scale.is_empty() {
            let t = seconds(bone.scale.iter().map(|k| k.frame), fps, &mut rounded, &mut last_time);
            let v = bone.scale.iter().map(|k| vec3(k.value, &mut rounded)).collect();
            tracks.push(curve(&bone.bone, SCALE, t, Values::Float3(v)));
        }
    }
    for property in &anim.properties {
        if property.format == FORMAT {
            let track = decode_track(&property.data)?;
            last_time = last_time.max(track.end_time());
            tracks.push(track);
        } else {
            report.lose(format!("property tracks of format {:?}", property.format));
        }
    }
    if rounded {
        report.lose("precision of times or values that f32 cannot hold exactly");
    }
    // The scene's length when it has one (AnimX -> scene -> AnimX keeps it exactly), else
    // the last key's time.
    let global_duration = if anim.frame_count > 0.0 {
        to_f32(anim.frame_count / fps, &mut false)
    } else {
        last_time
    };
    Ok(Animation {
        version: 1,
        name: anim.name.clone(),
        global_duration,
        encoding: Encoding::Plain,
        tracks,
    })
}

/// Frames to f32 seconds, noting rounding and the latest time.
fn seconds(frames: impl Iterator<Item = f64>, fps: f64, rounded: &mut bool, last: &mut f32) -> Vec<f32> {
    frames
        .map(|f| {
            let t = to_f32(f / fps, rounded);
            *last = last.max(t);
            t
        })
        .collect()
}

fn vec3(v: Vec3<f64>, rounded: &mut bool) -> Vec3<f32> {
    v.map(|c| to_f32(c, rounded))
}

fn quat(q: Quat<f64>, rounded: &mut bool) -> Quat<f32> {
    q.map(|c| to_f32(c, rounded))
}

impl TryFrom<&Scene> for Animation {
    type Error = Error;
    /// Converts, ignoring what AnimX cannot hold (use [`Animation::from_scene`] to see it).
    fn try_from(scene: &Scene) -> Result<Self, Error> {
        from_scene(scene, &mut ConversionReport::default())
    }
}
