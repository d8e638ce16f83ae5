//! SEAnim to Cast and back (the table is in the module docs of `se_cast`).

use std::collections::{HashMap, HashSet};

use animbin_cast::{CastFile, Node, NodeKind, Property, Value};
use animbin_core::Endian;
use animbin_core::io::{read_whole, write_to_vec};
use animbin_core::math::Vec4;
use animbin_seanim::{
    AnimFlags, AnimType, Bone, Key, Modifier, Note, PresenceFlags, PropertyFlags, Quat, SeAnim, SeBlend, StrayCounts,
    Trailer, Vec3, narrow, widen,
};

use super::{
    Hashes, array_of, byte, bytes, indices_of, integers, only_child, push_unless_empty, push_unless_zero, same_file,
};

/// The bits of a skeleton Bone's `se.keys`: which curves follow for the bone.
const ROTATION: u8 = 1;
const LOCATION: u8 = 2;
const SCALE: u8 = 4;

/// The Cast mode of an SEAnim type (`delta` has none: `relative` is the nearest).
fn mode(kind: AnimType) -> &'static str {
    match kind {
        AnimType::Absolute => "absolute",
        AnimType::Additive => "additive",
        AnimType::Relative | AnimType::Delta => "relative",
    }
}

/// The SEAnim type of a name (`AnimType::name`).
fn anim_type(name: &str) -> Option<AnimType> {
    [
        AnimType::Absolute,
        AnimType::Additive,
        AnimType::Relative,
        AnimType::Delta,
    ]
    .into_iter()
    .find(|t| t.name() == name)
}

/// The channels of `bone` that have keys, as `se.keys` bits.
fn keys_mask(bone: &Bone) -> u8 {
    let mut mask = 0;
    for (keyed, bit) in [
        (!bone.rotation.is_empty(), ROTATION),
        (!bone.location.is_empty(), LOCATION),
        (!bone.scale.is_empty(), SCALE),
    ] {
        if keyed {
            mask |= bit;
        }
    }
    mask
}

/// The presence flags the keys, notes and custom block call for.
fn derived_presence(bones: &[Bone], notes: &[Note], custom: &[u8]) -> PresenceFlags {
    let mut flags = PresenceFlags::empty();
    for (present, flag) in [
        (bones.iter().any(|b| !b.location.is_empty()), PresenceFlags::LOC),
        (bones.iter().any(|b| !b.rotation.is_empty()), PresenceFlags::ROT),
        (bones.iter().any(|b| !b.scale.is_empty()), PresenceFlags::SCALE),
        (!notes.is_empty(), PresenceFlags::NOTE),
        (!custom.is_empty(), PresenceFlags::CUSTOM),
    ] {
        if present {
            flags |= flag;
        }
    }
    flags
}

/// Whether the curves alone cannot give back the bones: a bone without keys, a name used
/// twice, or bone flags.
fn needs_skeleton(bones: &[Bone]) -> bool {
    let mut names = HashSet::new();
    bones
        .iter()
        .any(|b| keys_mask(b) == 0 || b.flags != 0 || !names.insert(b.name.as_str()))
}

/// The notes as notification tracks: each name (in order of first appearance) with its
/// frames in file order, and each note's track.
fn note_tracks(notes: &[Note]) -> (Vec<(&str, Vec<u32>)>, Vec<u32>) {
    let mut tracks: Vec<(&str, Vec<u32>)> = Vec::new();
    let mut which = Vec::with_capacity(notes.len());
    // Looked up by name: a file may hold many notes of many names.
    let mut track_of: HashMap<&str, usize> = HashMap::new();
    for note in notes {
        let t = *track_of.entry(&note.name).or_insert_with(|| {
            tracks.push((&note.name, Vec::new()));
            tracks.len() - 1
        });
        tracks[t].1.push(note.frame);
        which.push(t as u32);
    }
    (tracks, which)
}

/// The notes that tracks give without `se.noteOrder`, as (frame, track) pairs: every key of
/// every track, in frame order, then track order, then the order within the track.
fn merged(tracks: &[(&str, Vec<u32>)]) -> Vec<(u32, u32)> {
    let mut all: Vec<(u32, u32)> = tracks
        .iter()
        .enumerate()
        .flat_map(|(t, (_, frames))| frames.iter().map(move |&f| (f, t as u32)))
        .collect();
    all.sort_by_key(|&(frame, _)| frame);
    all
}

/// The trailer's bytes as the SEAnim writer writes them; `None` without one (or for an
/// SEBlend trailer the writer refuses, which the round trip check then reports).
fn trailer_bytes(trailer: &Trailer<SeBlend>) -> Option<Vec<u8>> {
    match trailer {
        Trailer::None => None,
        Trailer::SeBlend(blend) => write_to_vec(animbin_seanim::FORMAT, blend, Endian::Little).ok(),
        Trailer::Unknown(bytes) => Some(bytes.clone()),
    }
}

/// An SEAnim value as Cast's `f32`; clears `exact` when the `f32` does not give it back.
fn to_f32(x: f64, exact: &mut bool) -> f32 {
    let y = narrow(x).unwrap_or(x as f32);
    if widen(y).to_bits() != x.to_bits() {
        *exact = false;
    }
    y
}

/// A curve of one channel of one bone.
fn curve(
    hashes: &mut Hashes,
    bone: &str,
    kp: &'static str,
    frames: &[u32],
    values: Value,
    exact: &[f64],
    mode: &'static str,
) -> Node {
    let mut curve = hashes.curve(bone, kp, frames, values, mode);
    if !exact.is_empty() {
        curve.push(Property::new("se.kv", Value::Double(exact.to_vec())));
    }
    curve
}

/// The curves of one bone: `rq`, then `tx` `ty` `tz`, then `sx` `sy` `sz`, each when the
/// bone has keys in that channel.
fn bone_curves(hashes: &mut Hashes, bone: &Bone, mode: &'static str, out: &mut Vec<Node>) {
    if !bone.rotation.is_empty() {
        let frames: Vec<u32> = bone.rotation.iter().map(|k| k.frame).collect();
        let mut exact = true;
        let values = bone
            .rotation
            .iter()
            .map(|k| {
                let q = k.value;
                Vec4::new(
                    to_f32(q.x, &mut exact),
                    to_f32(q.y, &mut exact),
                    to_f32(q.z, &mut exact),
                    to_f32(q.w, &mut exact),
                )
            })
            .collect();
        let wide: Vec<f64> = if exact {
            Vec::new()
        } else {
            bone.rotation
                .iter()
                .flat_map(|k| [k.value.x, k.value.y, k.value.z, k.value.w])
                .collect()
        };
        out.push(curve(
            hashes,
            &bone.name,
            "rq",
            &frames,
            Value::Vec4(values),
            &wide,
            mode,
        ));
    }
    for (keys, names) in [(&bone.location, ["tx", "ty", "tz"]), (&bone.scale, ["sx", "sy", "sz"])] {
        if keys.is_empty() {
            continue;
        }
        let frames: Vec<u32> = keys.iter().map(|k| k.frame).collect();
        for (axis, kp) in names.into_iter().enumerate() {
            let component = |v: Vec3<f64>| [v.x, v.y, v.z][axis];
            let mut exact = true;
            let values = keys.iter().map(|k| to_f32(component(k.value), &mut exact)).collect();
            let wide: Vec<f64> = if exact {
                Vec::new()
            } else {
                keys.iter().map(|k| component(k.value)).collect()
            };
            out.push(curve(
                hashes,
                &bone.name,
                kp,
                &frames,
                Value::Float(values),
                &wide,
                mode,
            ));
        }
    }
}

/// The CurveModeOverride of one modifier: all three channels of the bone's subtree.
fn override_node(hashes: &mut Hashes, anim: &SeAnim, modifier: &Modifier) -> Node {
    let index = modifier.bone as usize;
    let name = anim.bones.get(index).map_or("", |b| b.name.as_str());
    let mut cmov = hashes.node(NodeKind::CurveModeOverride);
    cmov.push(Property::string("nn", name.to_owned()));
    cmov.push(Property::string("m", mode(modifier.anim_type)));
    for flag in ["ot", "or", "os"] {
        cmov.push(Property::boolean(flag, true));
    }
    if modifier.anim_type == AnimType::Delta {
        cmov.push(Property::string("se.animType", AnimType::Delta.name()));
    }
    if anim.bones.iter().position(|b| b.name == name) != Some(index) {
        cmov.push(integers("se.bone", &[modifier.bone]));
    }
    cmov
}

/// Everything an SEAnim holds, as a Cast file: one Root holding one Animation (see the module
/// docs for where each field goes). [`cast_to_seanim`] gives the SEAnim back.
pub fn seanim_to_cast(anim: &SeAnim) -> CastFile {
    let mut hashes = Hashes::new();
    let mut root = hashes.node(NodeKind::Root);
    let mut node = hashes.node(NodeKind::Animation);
    node.push(Property::new("fr", Value::Float(vec![anim.framerate])));
    node.push(Property::boolean("lo", anim.looped()));
    let keyed = anim.bones.iter().any(|b| keys_mask(b) != 0);
    if anim.anim_type == AnimType::Delta || (!keyed && anim.anim_type != AnimType::Absolute) {
        node.push(Property::string("se.animType", anim.anim_type.name()));
    }
    if anim.anim_flags.difference(AnimFlags::LOOPED).bits() != 0 {
        node.push(byte("se.animFlags", anim.anim_flags.bits()));
    }
    if anim.data_presence_flags != derived_presence(&anim.bones, &anim.notes, &anim.custom) {
        node.push(byte("se.dataPresenceFlags", anim.data_presence_flags.bits()));
    }
    if anim.data_property_flags.bits() != 0 {
        node.push(byte("se.dataPropertyFlags", anim.data_property_flags.bits()));
    }
    push_unless_zero(&mut node, "se.reserved1", &anim.reserved1);
    push_unless_zero(&mut node, "se.reserved2", &anim.reserved2);
    if let Some(count) = anim.fixed_frame_count {
        node.push(integers("se.frameCount", &[count]));
    }
    push_unless_empty(&mut node, "se.headerExtra", &anim.header_extra);
    let stray = anim.stray_counts;
    if !stray.is_empty() {
        let counts = [
            stray.bone_count,
            u32::from(stray.bone_anim_modifier_count),
            stray.note_count,
        ];
        node.push(integers("se.strayCounts", &counts));
    }
    let (tracks, which) = note_tracks(&anim.notes);
    let in_order = merged(&tracks)
        .into_iter()
        .eq(anim.notes.iter().zip(&which).map(|(n, &t)| (n.frame, t)));
    if !in_order {
        node.push(Property::new("se.noteOrder", Value::narrowest(&which)));
    }
    push_unless_empty(&mut node, "se.custom", &anim.custom);
    if let Some(trailer) = trailer_bytes(&anim.trailer) {
        node.push(bytes("se.trailer", &trailer));
    }

    if needs_skeleton(&anim.bones) {
        let mut skeleton = hashes.node(NodeKind::Skeleton);
        for bone in &anim.bones {
            let mut b = hashes.node(NodeKind::Bone);
            b.push(Property::string("n", bone.name.clone()));
            if bone.flags != 0 {
                b.push(byte("se.flags", bone.flags));
            }
            b.push(byte("se.keys", keys_mask(bone)));
            skeleton.children.push(b);
        }
        node.children.push(skeleton);
    }
    // Modifiers in bone order go each before its bone's curves, so that the curves' order
    // stays the bones' for readers that gather a bone's override and curves as they come;
    // any other list goes whole before the curves, in its order. The order of the
    // overrides in the file is the list's either way.
    let in_bone_order = anim.modifiers.windows(2).all(|pair| pair[0].bone < pair[1].bone)
        && anim
            .modifiers
            .last()
            .is_none_or(|m| (m.bone as usize) < anim.bones.len());
    let mut modifiers = anim.modifiers.iter().peekable();
    if !in_bone_order {
        for modifier in modifiers.by_ref() {
            node.children.push(override_node(&mut hashes, anim, modifier));
        }
    }
    let mode = mode(anim.anim_type);
    for (index, bone) in anim.bones.iter().enumerate() {
        while let Some(modifier) = modifiers.next_if(|m| m.bone as usize == index) {
            node.children.push(override_node(&mut hashes, anim, modifier));
        }
        bone_curves(&mut hashes, bone, mode, &mut node.children);
    }
    for (name, frames) in tracks {
        let mut track = hashes.node(NodeKind::NotificationTrack);
        track.push(Property::string("n", name.to_owned()));
        track.push(Property::new("kb", Value::narrowest(&frames)));
        node.children.push(track);
    }
    root.children.push(node);
    CastFile {
        flags: 0,
        roots: vec![root],
    }
}

/// The SEAnim that [`seanim_to_cast`] made `file` from, when it made exactly this file
/// (the same bytes); `None` for any other Cast file, which holds something an SEAnim cannot
/// (convert such a file through the scene model, which reports what does not carry over).
pub fn cast_to_seanim(file: &CastFile) -> Option<SeAnim> {
    let anim = seanim_from_cast_unchecked(file)?;
    same_file(&seanim_to_cast(&anim), file).then_some(anim)
}

/// The curves of an animation, read in order.
struct Curves<'a> {
    list: Vec<&'a Node>,
    at: usize,
}

impl<'a> Curves<'a> {
    fn is(&self, at: usize, name: &str, kp: &str) -> bool {
        self.list
            .get(at)
            .is_some_and(|c| c.str_value("nn") == Some(name) && c.str_value("kp") == Some(kp))
    }

    /// The channels whose curves follow for the bone `name`, in the order the writer puts
    /// them.
    fn mask_at(&self, name: &str) -> u8 {
        let mut at = self.at;
        let mut mask = 0;
        if self.is(at, name, "rq") {
            mask |= ROTATION;
            at += 1;
        }
        if self.is(at, name, "tx") {
            mask |= LOCATION;
            at += 3;
        }
        if self.is(at, name, "sx") {
            mask |= SCALE;
        }
        mask
    }

    fn take(&mut self, name: &str, kp: &str) -> Option<&'a Node> {
        let curve = self.is(self.at, name, kp).then(|| self.list[self.at])?;
        self.at += 1;
        Some(curve)
    }

    /// The bone `name` with the curves of the channels in `mask`.
    fn bone(&mut self, name: &str, flags: u8, mask: u8) -> Option<Bone> {
        if mask & !(ROTATION | LOCATION | SCALE) != 0 {
            return None;
        }
        let mut bone = Bone::new(name);
        bone.flags = flags;
        if mask & ROTATION != 0 {
            let (frames, values) = keys(self.take(name, "rq")?, 4)?;
            let quat = |q: &[f64]| Quat::new(q[0], q[1], q[2], q[3]);
            bone.rotation = match values {
                // `f32` values in `f32` keys: what a single-precision writer narrows to.
                Values::Single(v) => {
                    let quat = |q: &[f32]| Quat::new(q[0], q[1], q[2], q[3]);
                    let keys = frames.iter().zip(v.chunks_exact(4));
                    keys.map(|(&f, q)| Key::new(f, quat(q))).collect::<Vec<_>>().into()
                }
                Values::Double(v) => {
                    let keys = frames.iter().zip(v.chunks_exact(4));
                    keys.map(|(&f, q)| Key::new(f, quat(q))).collect::<Vec<_>>().into()
                }
            };
        }
        for (bit, names) in [(LOCATION, ["tx", "ty", "tz"]), (SCALE, ["sx", "sy", "sz"])] {
            if mask & bit == 0 {
                continue;
            }
            let [x, y, z] = names.map(|kp| self.take(name, kp).and_then(|c| keys(c, 1)));
            let ((frames, x), (fy, y), (fz, z)) = (x?, y?, z?);
            if fy != frames || fz != frames {
                return None;
            }
            let out = match (x, y, z) {
                (Values::Single(x), Values::Single(y), Values::Single(z)) => (0..frames.len())
                    .map(|k| Key::new(frames[k], Vec3::new(x[k], y[k], z[k])))
                    .collect::<Vec<_>>()
                    .into(),
                (x, y, z) => {
                    let (x, y, z) = (x.widened(), y.widened(), z.widened());
                    (0..frames.len())
                        .map(|k| Key::new(frames[k], Vec3::new(x[k], y[k], z[k])))
                        .collect::<Vec<_>>()
                        .into()
                }
            };
            if bit == LOCATION {
                bone.location = out;
            } else {
                bone.scale = out;
            }
        }
        Some(bone)
    }
}

/// A curve's values: the `f32`s of `kv`, or the exact `f64`s of `se.kv` when it is there.
enum Values {
    Single(Vec<f32>),
    Double(Vec<f64>),
}

impl Values {
    fn widened(self) -> Vec<f64> {
        match self {
            Self::Single(v) => v.into_iter().map(widen).collect(),
            Self::Double(v) => v,
        }
    }
}

/// A curve's frames and its values (`width` per key), exact from `se.kv` when it is there.
fn keys(curve: &Node, width: usize) -> Option<(Vec<u32>, Values)> {
    let frames = indices_of(curve, "kb")?;
    let len = match (width, curve.value("kv")?) {
        (4, Value::Vec4(v)) => v.len() * 4,
        (1, Value::Float(v)) => v.len(),
        _ => return None,
    };
    if len != frames.len() * width {
        return None;
    }
    let values = match curve.value("se.kv") {
        None => Values::Single(match curve.value("kv")? {
            Value::Vec4(v) => v.iter().flat_map(|q| [q.x, q.y, q.z, q.w]).collect(),
            Value::Float(v) => v.clone(),
            _ => return None,
        }),
        Some(Value::Double(d)) if d.len() == len => Values::Double(d.clone()),
        Some(_) => return None,
    };
    Some((frames, values))
}

/// Reads the SEAnim the way [`seanim_to_cast`] wrote it, without checking that the file is
/// exactly what it writes.
pub(crate) fn seanim_from_cast_unchecked(file: &CastFile) -> Option<SeAnim> {
    let node = only_child(file, NodeKind::Animation)?;
    let framerate = node.float_value("fr")?;
    let looped = node.bool_value("lo")?;
    let (mut skeleton, mut cmovs, mut curves, mut tracks) = (None, Vec::new(), Vec::new(), Vec::new());
    for child in &node.children {
        match child.kind()? {
            NodeKind::Skeleton if skeleton.is_none() => skeleton = Some(child),
            NodeKind::CurveModeOverride => cmovs.push(child),
            NodeKind::Curve => curves.push(child),
            NodeKind::NotificationTrack => tracks.push(child),
            _ => return None,
        }
    }
    let kind = match node.str_value("se.animType") {
        Some(name) => anim_type(name)?,
        None => match curves.first() {
            Some(c) => anim_type(c.str_value("m")?)?,
            None => AnimType::Absolute,
        },
    };

    let mut cursor = Curves { list: curves, at: 0 };
    let mut bones = Vec::new();
    match skeleton {
        Some(skeleton) => {
            for b in &skeleton.children {
                let name = b.str_value("n")?;
                let flags = b.single::<u8>("se.flags").unwrap_or(0);
                bones.push(cursor.bone(name, flags, b.single::<u8>("se.keys")?)?);
            }
        }
        None => {
            while let Some(first) = cursor.list.get(cursor.at) {
                let name = first.str_value("nn")?;
                let mask = cursor.mask_at(name);
                if mask == 0 {
                    return None;
                }
                bones.push(cursor.bone(name, 0, mask)?);
            }
        }
    }
    if cursor.at != cursor.list.len() {
        return None;
    }

    let mut modifiers = Vec::with_capacity(cmovs.len());
    for cmov in cmovs {
        let bone = match cmov.index_value("se.bone") {
            Some(bone) => bone,
            None => {
                let name = cmov.str_value("nn")?;
                bones.iter().position(|b| b.name == name)? as u32
            }
        };
        let anim_type = anim_type(cmov.str_value("se.animType").or(cmov.str_value("m"))?)?;
        modifiers.push(Modifier { bone, anim_type });
    }

    let tracks: Vec<(&str, Vec<u32>)> = tracks
        .iter()
        .map(|t| Some((t.str_value("n")?, indices_of(t, "kb")?)))
        .collect::<Option<_>>()?;
    let notes = match indices_of(node, "se.noteOrder") {
        None => merged(&tracks)
            .into_iter()
            .map(|(frame, t)| Note {
                frame,
                name: tracks[t as usize].0.to_string(),
            })
            .collect(),
        Some(order) => {
            let mut next = vec![0usize; tracks.len()];
            let mut notes = Vec::with_capacity(order.len());
            for t in order {
                let (name, frames) = tracks.get(t as usize)?;
                let frame = *frames.get(next[t as usize])?;
                next[t as usize] += 1;
                notes.push(Note {
                    frame,
                    name: name.to_string(),
                });
            }
            if next.iter().zip(&tracks).any(|(&n, (_, frames))| n != frames.len()) {
                return None;
            }
            notes
        }
    };

    let custom = node.array::<u8>("se.custom").unwrap_or_default().to_vec();
    let presence = match node.single::<u8>("se.dataPresenceFlags") {
        Some(bits) => PresenceFlags::from_bits_retain(bits),
        None => derived_presence(&bones, &notes, &custom),
    };
    let anim_flags = match node.single::<u8>("se.animFlags") {
        Some(bits) => AnimFlags::from_bits_retain(bits),
        None if looped => AnimFlags::LOOPED,
        None => AnimFlags::empty(),
    };
    let stray_counts = match indices_of(node, "se.strayCounts").as_deref() {
        None => StrayCounts::default(),
        Some(&[bone_count, modifiers, note_count]) => StrayCounts {
            bone_count,
            bone_anim_modifier_count: u8::try_from(modifiers).ok()?,
            note_count,
        },
        Some(_) => return None,
    };
    let trailer = match node.array::<u8>("se.trailer") {
        None => Trailer::None,
        Some(bytes) => match read_whole::<SeBlend>(bytes, Endian::Little, ()) {
            Some(blend) => Trailer::SeBlend(blend),
            None => Trailer::Unknown(bytes.to_vec()),
        },
    };
    let data_property_flags = PropertyFlags::from_bits_retain(node.single::<u8>("se.dataPropertyFlags").unwrap_or(0));
    for bone in &mut bones {
        bone.hold_at(data_property_flags.precision());
    }
    Some(SeAnim {
        anim_type: kind,
        anim_flags,
        data_presence_flags: presence,
        data_property_flags,
        reserved1: array_of(node, "se.reserved1")?,
        framerate,
        reserved2: array_of(node, "se.reserved2")?,
        header_extra: node.array::<u8>("se.headerExtra").unwrap_or_default().to_vec(),
        stray_counts,
        modifiers,
        bones,
        notes,
        custom,
        trailer,
        fixed_frame_count: node.index_value("se.frameCount"),
        ..SeAnim::default()
    })
}
