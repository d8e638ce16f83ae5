//! Scene -> Cast: [`CastFile::from_scene`].

use std::collections::{HashMap, HashSet};

use animbin_core::math::{Transform, Vec3, Vec4};
use animbin_core::scene::{self, AnimKind, ConversionReport, Interpolation, Note, PropertyTrack, Scene, SkinBlend};
use animbin_core::{Error, ErrorKind, Result, SceneOptions};

use super::hashes::NodeHashes;
use super::properties::{narrow, narrow3, narrow4};
use super::{PROPERTY_FORMAT, blend, hair, refuse, rig};
use crate::FORMAT;
use crate::layout::NodeKind;
use crate::model::{CastFile, Node, Property, Value};
use crate::validate::in_cycles;

fn unencodable(message: String) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(message))
}
/// A scene frame as a key frame: rounded (reported) when fractional, refused when negative,
/// not finite or past u32.
fn key_frame(frame: f64, what: &dyn Fn() -> String, report: &mut ConversionReport) -> Result<u32> {
    let rounded = frame.round();
    if !(0.0..=f64::from(u32::MAX)).contains(&rounded) {
        return Err(unencodable(format!(
            "{} is at frame {frame}, which no Cast key frame (a u32) holds",
            what()
        )));
    }
    if rounded != frame {
        report.lose("fractional frames (rounded to whole frames)");
    }
    Ok(rounded as u32)
}

/// A key value as the file's `f32`: refused when a finite value overflows it.
fn key_value(x: f64, lost: &mut bool, what: &dyn Fn() -> String) -> Result<f32> {
    let y = narrow(x, lost);
    if x.is_finite() && y.is_infinite() {
        return Err(unencodable(format!("{}: value {x} is past f32's range", what())));
    }
    Ok(y)
}

/// The Cast mode of one channel's keys of scene kind `kind`. `translation` is the kind of the
/// translation keys beside them, which tells the two Cast modes that share the scene's
/// additive rotation rule (rest rotation times key) apart: `relative` beside relative
/// translations, else `additive`. The scene's relative and delta rotations are the rotation
/// itself, Cast's `absolute`.
fn channel_mode(kind: AnimKind, rotation: bool, translation: AnimKind, report: &mut ConversionReport) -> &'static str {
    match (kind, rotation) {
        (AnimKind::Relative | AnimKind::Delta, true) => "absolute",
        (AnimKind::Additive, true) if translation == AnimKind::Relative => "relative",
        _ => mode_name(kind, report),
    }
}

fn mode_name(kind: AnimKind, report: &mut ConversionReport) -> &'static str {
    match kind {
        AnimKind::Absolute => "absolute",
        AnimKind::Additive => "additive",
        AnimKind::Relative => "relative",
        AnimKind::Delta => {
            report.lose("the delta animation kind (Cast has none; written as relative)");
            "relative"
        }
    }
}

impl CastFile {
    /// A file holding `scene`, recording in `report` what Cast cannot hold.
    ///
    /// One Root; a Model (`n` from [`Scene::name`] when it is not empty; `p`, `r`, `s` from
    /// [`Scene::placement`] when it is not the identity) holding the skeleton (IKHandle and
    /// Constraint nodes after the bones; bones with `n`, `p`, `ssc` 0 for a bone that
    /// inherits its parent's scale, `lp`, `lr`, `wp`, `wr`, and `s` (the bone's rest scale, times its
    /// rest-pose scale where a format has one) when it is not 1), the materials (`n`, `t` "pbr", the
    /// base colour as a linear Color in `albedo`, the diffuse, normal and specular maps as
    /// Files in their slots) and the meshes (`n` when named, `vp`, `vn`, `u0`... and `ul`,
    /// colours packed in `c0` with `cl` 1, `wb`/`wv`/`mi`, `f`, `m`), then the blend shapes,
    /// then the hairs (`n` when named, `se`, `pt`, `m`) when the scene has any of these;
    /// an Animation per scene animation (`n`, `fr`, `lo`; per bone a CurveModeOverride per
    /// mode of its overrides (`kind_override` covers every channel, `channel_overrides` the
    /// channels they set), then `rq`, `tx`/`ty`/`tz` and `sx`/`sy`/`sz` curves, each in the
    /// mode of its channel's kind (`channel_kinds`, else the animation's): a relative or
    /// delta rotation (the key is the rotation) is `absolute`, an additive rotation (rest
    /// times key) is `relative` beside relative translations, else `additive`; Cast property tracks as their curves; notes as one
    /// notification track per name); an Instance per scene instance after the animations (`n`
    /// when named, `rf` naming its File child, whose `p` is the path, then `p`, `r`, `s`).
    /// Properties follow the reference writer's order, index
    /// buffers take the narrowest width, hashes count up from [`FIRST_HASH`](crate::FIRST_HASH).
    ///
    /// Key values, bind poses and placements are `f32` in Cast: values that lose digits are
    /// reported, as are fractional frames (rounded), the `delta` kind (written as
    /// `relative`), the kind of an animation without keys, step interpolation, a frame count other than the last
    /// key's plus one, note orders that a frame sort cannot give back, cosmetic marks, bone
    /// tracks without keys, embedded textures, mesh materials after the first and property
    /// tracks of other formats. No option changes the result.
    ///
    /// Fails on frames that are negative or past u32, key values past `f32`'s range, bone
    /// parents out of range or in a cycle, meshes whose arrays disagree with their
    /// vertex count or whose indices point past their arrays, and hairs whose particles are
    /// not the count their segments call for or whose material is past the scene's.
    pub fn from_scene(scene: &Scene, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        let mut hashes = NodeHashes::new();
        let mut root = hashes.node(NodeKind::Root);
        let has_model = !scene.skeleton.bones.is_empty()
            || !scene.meshes.is_empty()
            || !scene.materials.is_empty()
            || !scene.hairs.is_empty();
        if has_model {
            let mut model = hashes.node(NodeKind::Model);
            if !scene.name.is_empty() {
                model.push(Property::string("n", scene.name.clone()));
            }
            if scene.placement != Transform::IDENTITY {
                let mut lost = false;
                let p = scene.placement;
                model.push(Property::new("p", Value::Vec3(vec![narrow3(p.translation, &mut lost)])));
                model.push(Property::new("r", Value::Vec4(vec![narrow4(p.rotation, &mut lost)])));
                model.push(Property::new("s", Value::Vec3(vec![narrow3(p.scale, &mut lost)])));
                if lost {
                    report.lose("model placement digits beyond f32");
                }
            }
            if !scene.skeleton.bones.is_empty() {
                model
                    .children
                    .push(skeleton_node(&scene.skeleton, &mut hashes, report)?);
            }
            let mut material_hashes = Vec::with_capacity(scene.materials.len());
            for material in &scene.materials {
                let node = material_node(material, &mut hashes, report);
                material_hashes.push(node.hash);
                model.children.push(node);
            }
            let mut mesh_hashes = Vec::with_capacity(scene.meshes.len());
            for (i, mesh) in scene.meshes.iter().enumerate() {
                let node = mesh_node(i, mesh, scene, &material_hashes, &mut hashes, report)?;
                mesh_hashes.push(node.hash);
                model.children.push(node);
            }
            // After every mesh, as the reference writer makes them, so mesh hashes do not
            // depend on the blend shapes.
            for (i, (mesh, &hash)) in scene.meshes.iter().zip(&mesh_hashes).enumerate() {
                model
                    .children
                    .extend(blend::blend_shape_nodes(i, mesh, hash, &mut hashes, report)?);
            }
            // After the blend shapes, so the hashes of files without hair stay as they were.
            for (i, h) in scene.hairs.iter().enumerate() {
                model
                    .children
                    .push(hair::hair_node(i, h, &material_hashes, &mut hashes)?);
            }
            root.children.push(model);
        }
        if !has_model && !scene.name.is_empty() {
            report.lose("the name of a scene without a model (Cast names models)");
        }
        if !has_model && scene.placement != Transform::IDENTITY {
            report.lose("the placement of a scene without a model (Cast places models)");
        }
        if !scene.textures.is_empty() {
            report.lose(format!(
                "{} embedded textures (Cast names texture files)",
                scene.textures.len()
            ));
        }
        for anim in &scene.animations {
            root.children.push(animation_node(anim, &mut hashes, report)?);
        }
        // Last, so the hashes of files without instances stay as they were.
        let mut placement_lost = false;
        for instance in &scene.instances {
            root.children
                .push(hair::instance_node(instance, &mut hashes, &mut placement_lost));
        }
        if placement_lost {
            report.lose("instance placement digits beyond f32");
        }
        Ok(Self {
            flags: 0,
            roots: vec![root],
        })
    }
}

fn skeleton_node(skeleton: &scene::Skeleton, hashes: &mut NodeHashes, report: &mut ConversionReport) -> Result<Node> {
    let n = skeleton.bones.len();
    let mut parents = Vec::with_capacity(n);
    for (i, bone) in skeleton.bones.iter().enumerate() {
        match bone.parent {
            Some(p) if p >= n || p == i => {
                return Err(refuse(format!(
                    "bone {i} ({:?}) has parent {p} among {n} bones",
                    bone.name
                )));
            }
            parent => parents.push(parent),
        }
    }
    if let Some(&i) = in_cycles(&parents).first() {
        return Err(refuse(format!("bone {i} is its own ancestor (a parent cycle)")));
    }
    let mut node = hashes.node(NodeKind::Skeleton);
    let mut lost = false;
    let mut bone_hashes = Vec::with_capacity(n);
    for bone in &skeleton.bones {
        let mut b = hashes.node(NodeKind::Bone);
        bone_hashes.push(b.hash);
        b.push(Property::string("n", bone.name.clone()));
        let parent = match bone.parent {
            None => u32::MAX,
            Some(p) => u32::try_from(p)
                .ok()
                .filter(|&p| p < i32::MAX as u32)
                .ok_or_else(|| unencodable(format!("bone parent index {p} does not fit the i32 p")))?,
        };
        b.push(Property::new("p", Value::Integer(vec![parent])));
        if !bone.scale_compensate {
            // Cast's default is on; full inheritance (SEModel's, glTF's) must be said.
            b.push(Property::boolean("ssc", false));
        }
        b.push(Property::new(
            "lp",
            Value::Vec3(vec![narrow3(bone.local.translation, &mut lost)]),
        ));
        b.push(Property::new(
            "lr",
            Value::Vec4(vec![narrow4(bone.local.rotation, &mut lost)]),
        ));
        b.push(Property::new(
            "wp",
            Value::Vec3(vec![narrow3(bone.global.translation, &mut lost)]),
        ));
        b.push(Property::new(
            "wr",
            Value::Vec4(vec![narrow4(bone.global.rotation, &mut lost)]),
        ));
        // `s` is the rest scale absolute scale keys are measured against (kept as read from
        // Cast); a rest-pose scale from another format has nowhere else to go in Cast.
        let s = bone.rest_scale * bone.local.scale;
        if s != Vec3::ONE {
            b.push(Property::new("s", Value::Vec3(vec![narrow3(s, &mut lost)])));
        }
        node.children.push(b);
    }
    if lost {
        report.lose("bind pose digits beyond f32");
    }
    if skeleton.bones.iter().any(|b| b.cosmetic) {
        report.lose("cosmetic bone marks");
    }
    // After every bone, so bone hashes do not depend on the rig controls.
    node.children
        .extend(rig::rig_nodes(skeleton, &bone_hashes, hashes, report)?);
    Ok(node)
}

fn material_node(material: &scene::Material, hashes: &mut NodeHashes, report: &mut ConversionReport) -> Node {
    let mut node = hashes.node(NodeKind::Material);
    node.push(Property::string("n", material.name.clone()));
    node.push(Property::string("t", "pbr"));
    if let Some(color) = material.base_color {
        let mut c = hashes.node(NodeKind::Color);
        c.push(Property::string("cs", "linear"));
        c.push(Property::new(
            "rgba",
            Value::Vec4(vec![Vec4::new(color.r, color.g, color.b, color.a)]),
        ));
        node.push(Property::hash("albedo", c.hash));
        node.children.push(c);
    }
    for (slot, path) in [
        ("diffuse", &material.diffuse_map),
        ("normal", &material.normal_map),
        ("specular", &material.specular_map),
    ] {
        if let Some(path) = path {
            let mut file = hashes.node(NodeKind::File);
            file.push(Property::string("p", path.clone()));
            node.push(Property::hash(slot, file.hash));
            node.children.push(file);
        }
    }
    if material.texture.is_some() {
        report.lose("material links to embedded textures");
    }
    node
}

fn mesh_node(
    i: usize,
    mesh: &scene::Mesh,
    scene: &Scene,
    materials: &[u64],
    hashes: &mut NodeHashes,
    report: &mut ConversionReport,
) -> Result<Node> {
    let v = mesh.positions.len();
    let wrong = |what: &str, len: usize| refuse(format!("mesh {i} has {len} {what} for {v} vertices"));
    if !mesh.normals.is_empty() && mesh.normals.len() != v {
        return Err(wrong("normals", mesh.normals.len()));
    }
    if !mesh.colors.is_empty() && mesh.colors.len() != v {
        return Err(wrong("colours", mesh.colors.len()));
    }
    if let Some((l, layer)) = mesh.extra_color_layers.iter().enumerate().find(|(_, l)| l.len() != v) {
        return Err(wrong(&format!("colours in colour layer {}", l + 1), layer.len()));
    }
    if let Some((l, layer)) = mesh.uv_layers.iter().enumerate().find(|(_, l)| l.len() != v) {
        return Err(wrong(&format!("coordinates in UV layer {l}"), layer.len()));
    }
    if let Some((k, f)) = mesh
        .faces
        .iter()
        .enumerate()
        .find(|(_, f)| f.iter().any(|&x| x as usize >= v))
    {
        return Err(refuse(format!("mesh {i}: face {k} {f:?} points past its {v} vertices")));
    }
    let mut node = hashes.node(NodeKind::Mesh);
    if !mesh.name.is_empty() {
        node.push(Property::string("n", mesh.name.clone()));
    }
    node.push(Property::new("vp", Value::Vec3(mesh.positions.clone())));
    if !mesh.normals.is_empty() {
        node.push(Property::new("vn", Value::Vec3(mesh.normals.clone())));
    }
    for (l, layer) in mesh.uv_layers.iter().enumerate() {
        node.push(Property::new(format!("u{l}"), Value::Vec2(layer.clone())));
    }
    if !mesh.uv_layers.is_empty() {
        let count =
            u32::try_from(mesh.uv_layers.len()).map_err(|_| unencodable(format!("mesh {i}: UV layer count")))?;
        node.push(Property::new("ul", Value::narrowest(&[count])));
    }
    if !mesh.colors.is_empty() {
        let layers = std::iter::once(&mesh.colors).chain(&mesh.extra_color_layers);
        for (l, layer) in layers.enumerate() {
            let packed = layer.iter().map(|c| u32::from_le_bytes([c.r, c.g, c.b, c.a])).collect();
            node.push(Property::new(format!("c{l}"), Value::Integer(packed)));
        }
        let count = u32::try_from(1 + mesh.extra_color_layers.len())
            .map_err(|_| unencodable(format!("mesh {i}: colour layer count")))?;
        node.push(Property::new("cl", Value::narrowest(&[count])));
    } else if !mesh.extra_color_layers.is_empty() {
        return Err(refuse(format!("mesh {i} has colour layers after an empty first one")));
    }
    if let Some(skin) = mesh.skin.as_ref().filter(|s| s.influences > 0) {
        let n = skin.influences.saturating_mul(v);
        if skin.bones.len() != n || skin.weights.len() != n {
            return Err(refuse(format!(
                "mesh {i}: {} bone indices and {} weights for {v} vertices of {} influences",
                skin.bones.len(),
                skin.weights.len(),
                skin.influences
            )));
        }
        let bones = scene.skeleton.bones.len();
        if let Some((k, b)) = skin.bones.iter().enumerate().find(|&(_, &b)| b as usize >= bones) {
            return Err(refuse(format!("mesh {i}: weight {k} names bone {b} of {bones}")));
        }
        let influences = u32::try_from(skin.influences)
            .map_err(|_| unencodable(format!("mesh {i}: {} influences", skin.influences)))?;
        node.push(Property::new("wb", Value::narrowest(&skin.bones)));
        node.push(Property::new("wv", Value::Float(skin.weights.clone())));
        node.push(Property::new("mi", Value::narrowest(&[influences])));
    }
    let flat: Vec<u32> = mesh.faces.iter().flatten().copied().collect();
    node.push(Property::new("f", Value::narrowest(&flat)));
    // Linear is the default, which the reference writer leaves unsaid.
    if mesh.skin.as_ref().is_some_and(|s| s.blend == SkinBlend::DualQuaternion) {
        node.push(Property::string("sm", "quaternion"));
    }
    let first = mesh.materials.iter().flatten().next();
    if mesh.materials.iter().flatten().count() > 1 || (first.is_some() && mesh.materials[0].is_none()) {
        report.lose("materials of UV layers after the first (a Cast mesh has one material)");
    }
    if let Some(&m) = first {
        let hash = materials
            .get(m)
            .ok_or_else(|| refuse(format!("mesh {i}: material {m} of {}", materials.len())))?;
        node.push(Property::hash("m", *hash));
    }
    Ok(node)
}

fn animation_node(anim: &scene::Animation, hashes: &mut NodeHashes, report: &mut ConversionReport) -> Result<Node> {
    let mut node = hashes.node(NodeKind::Animation);
    if !anim.name.is_empty() {
        node.push(Property::string("n", anim.name.clone()));
    }
    let mut framerate_lost = false;
    node.push(Property::new(
        "fr",
        Value::Float(vec![narrow(anim.framerate, &mut framerate_lost)]),
    ));
    if framerate_lost {
        report.lose("frame rate digits beyond f32");
    }
    node.push(Property::boolean("lo", anim.looping));
    if anim.interpolation != Interpolation::Linear {
        report.lose("step interpolation (Cast curves are linear, rotations spherical)");
    }
    let mode = mode_name(anim.kind, report);
    let mut last_frame: Option<u32> = None;
    let mut values_lost = false;
    for track in &anim.bones {
        let bone = track.bone.as_str();
        if track.cosmetic {
            report.lose("cosmetic bone marks");
        }
        let overrides = [
            track.channel_overrides.translation.or(track.kind_override),
            track.channel_overrides.rotation.or(track.kind_override),
            track.channel_overrides.scale.or(track.kind_override),
        ];
        if track.translation.is_empty()
            && track.rotation.is_empty()
            && track.scale.is_empty()
            && overrides.iter().all(Option::is_none)
        {
            report.lose("bone tracks without keys (Cast curves name only animated nodes)");
        }
        // One CurveModeOverride per mode, flagging the channels it covers.
        let beside = overrides[0].unwrap_or(anim.kind);
        let mut override_modes: Vec<Option<&'static str>> = overrides
            .iter()
            .enumerate()
            .map(|(c, k)| k.map(|k| channel_mode(k, c == 1, beside, report)))
            .collect();
        while let Some(mode) = override_modes.iter().flatten().next().copied() {
            let mut cmov = hashes.node(NodeKind::CurveModeOverride);
            cmov.push(Property::string("nn", bone.to_owned()));
            cmov.push(Property::string("m", mode));
            for (flag, slot) in ["ot", "or", "os"].into_iter().zip(&mut override_modes) {
                let covered = *slot == Some(mode);
                cmov.push(Property::boolean(flag, covered));
                if covered {
                    *slot = None;
                }
            }
            node.children.push(cmov);
        }
        let own = |kind: Option<AnimKind>| kind.unwrap_or(anim.kind);
        let translation_kind = own(track.channel_kinds.translation);
        let rotation_mode = channel_mode(own(track.channel_kinds.rotation), true, translation_kind, report);
        let frames = |keys: &mut dyn Iterator<Item = f64>, channel: &str, report: &mut ConversionReport| {
            keys.enumerate()
                .map(|(k, f)| key_frame(f, &|| format!("bone {bone:?} {channel} key {k}"), report))
                .collect::<Result<Vec<u32>>>()
        };
        let scale_kind = own(track.channel_kinds.scale);
        // A reader takes the animation's kind from the first curve: the channels in the
        // animation's mode go first (else rq, t, s), so the kind comes back.
        let mut order = [
            (!track.rotation.is_empty()).then_some((0, rotation_mode)),
            (!track.translation.is_empty())
                .then(|| (1, channel_mode(translation_kind, false, translation_kind, report))),
            (!track.scale.is_empty()).then(|| (2, channel_mode(scale_kind, false, translation_kind, report))),
        ];
        order.sort_by_key(|c| c.is_none_or(|(_, m)| m != mode));
        for (channel, channel_mode) in order.into_iter().flatten() {
            if channel == 0 {
                let kb = frames(&mut track.rotation.iter().map(|k| k.frame), "rotation", report)?;
                let mut kv = Vec::with_capacity(kb.len());
                for (k, key) in track.rotation.iter().enumerate() {
                    let what = || format!("bone {bone:?} rotation key {k}");
                    let q = key.value;
                    kv.push(Vec4::new(
                        key_value(q.x, &mut values_lost, &what)?,
                        key_value(q.y, &mut values_lost, &what)?,
                        key_value(q.z, &mut values_lost, &what)?,
                        key_value(q.w, &mut values_lost, &what)?,
                    ));
                }
                last_frame = last_frame.max(kb.iter().copied().max());
                node.children
                    .push(hashes.curve(bone, "rq", &kb, Value::Vec4(kv), channel_mode));
                continue;
            }
            let (keys, names, channel) = if channel == 1 {
                (&track.translation, ["tx", "ty", "tz"], "translation")
            } else {
                (&track.scale, ["sx", "sy", "sz"], "scale")
            };
            let kb = frames(&mut keys.iter().map(|k| k.frame), channel, report)?;
            last_frame = last_frame.max(kb.iter().copied().max());
            for (axis, kp) in names.into_iter().enumerate() {
                let mut kv = Vec::with_capacity(kb.len());
                for (k, key) in keys.iter().enumerate() {
                    let what = || format!("bone {bone:?} {channel} key {k}");
                    let x = [key.value.x, key.value.y, key.value.z][axis];
                    kv.push(key_value(x, &mut values_lost, &what)?);
                }
                node.children
                    .push(hashes.curve(bone, kp, &kb, Value::Float(kv), channel_mode));
            }
        }
    }
    let (weight_curves, weight_last) = blend::weight_curves(
        anim,
        mode,
        hashes,
        &mut |f, what| key_frame(f, what, report),
        &mut |x, what| key_value(x, &mut values_lost, what),
    )?;
    node.children.extend(weight_curves);
    last_frame = last_frame.max(weight_last);
    if values_lost {
        report.lose("key values beyond f32 (Cast curves store f32)");
    }
    let has_curves = anim
        .bones
        .iter()
        .any(|t| !t.translation.is_empty() || !t.rotation.is_empty() || !t.scale.is_empty());
    if !has_curves && anim.kind != AnimKind::Absolute {
        report.lose("the kind of an animation without bone keys (Cast keeps the mode on each curve)");
    }
    for p in &anim.properties {
        match property_curve(p) {
            // The curve keeps its hash: hashes need only be distinct among a Root's children.
            Some(curve) => {
                if let Some(frames) = curve.indices("kb") {
                    last_frame = last_frame.max(frames.iter().max());
                }
                node.children.push(curve);
            }
            None => report.lose(format!(
                "property track {}.{} ({}; Cast keeps its own curves only)",
                p.node, p.property, p.format
            )),
        }
    }
    notification_tracks(anim, &mut node, hashes, &mut last_frame, report)?;
    let derived = last_frame.map_or(0.0, |f| f64::from(f) + 1.0);
    if anim.frame_count != derived && !(anim.frame_count == 0.0 && last_frame.is_none()) {
        report.lose(format!(
            "the frame count {} (Cast derives the length from the last key: {derived})",
            anim.frame_count
        ));
    }
    Ok(node)
}

/// The Cast curve a property track carries, if it is one of ours.
fn property_curve(track: &PropertyTrack) -> Option<Node> {
    if track.format != PROPERTY_FORMAT {
        return None;
    }
    let mut file = crate::read(&track.data).ok()?;
    match file.roots.as_slice() {
        [curve] if curve.is(NodeKind::Curve) => file.roots.pop(),
        _ => None,
    }
}

/// The notes as notification tracks, one per name in order of first appearance.
fn notification_tracks(
    anim: &scene::Animation,
    node: &mut Node,
    hashes: &mut NodeHashes,
    last_frame: &mut Option<u32>,
    report: &mut ConversionReport,
) -> Result<()> {
    let mut names: Vec<&str> = Vec::new();
    let mut frames: Vec<Vec<u32>> = Vec::new();
    // Looked up by name: a file may hold many notes of many names.
    let mut track_of: HashMap<&str, usize> = HashMap::new();
    for (i, note) in anim.notes.iter().enumerate() {
        let frame = key_frame(note.frame, &|| format!("note {i} ({:?})", note.name), report)?;
        *last_frame = (*last_frame).max(Some(frame));
        let k = *track_of.entry(&note.name).or_insert_with(|| {
            names.push(&note.name);
            frames.push(Vec::new());
            names.len() - 1
        });
        frames[k].push(frame);
    }
    // Reading gives the notes back sorted by frame, and by track order within a frame: put
    // the tracks in an order that keeps the scene's order of notes on one frame.
    let order = track_order(&names, &anim.notes);
    let names: Vec<&str> = order.iter().map(|&k| names[k]).collect();
    let frames: Vec<Vec<u32>> = order.iter().map(|&k| std::mem::take(&mut frames[k])).collect();
    let mut back: Vec<(u32, &str)> = names
        .iter()
        .zip(&frames)
        .flat_map(|(&name, f)| f.iter().map(move |&f| (f, name)))
        .collect();
    back.sort_by_key(|&(f, _)| f);
    let same = back
        .iter()
        .zip(&anim.notes)
        .all(|(&(f, name), note)| f64::from(f) == note.frame.round() && name == note.name);
    if !same {
        report.lose("the order of notes (they come back sorted by frame)");
    }
    for (name, kb) in names.into_iter().zip(frames) {
        let mut track = hashes.node(NodeKind::NotificationTrack);
        track.push(Property::string("n", name.to_owned()));
        track.push(Property::new("kb", Value::narrowest(&kb)));
        node.children.push(track);
    }
    Ok(())
}

/// An order of the note names (indices into `names`, which lists them by first
/// appearance) in which a name comes before every name that follows it on the same frame;
/// first appearance decides the rest, and a contradiction (a cycle) keeps that order.
fn track_order(names: &[&str], notes: &[Note]) -> Vec<usize> {
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    let mut before_count = vec![0usize; names.len()];
    // Each edge once, found in a set: a list per track would be searched once per note.
    let mut edges: HashSet<(usize, usize)> = HashSet::new();
    for pair in notes.windows(2) {
        let (a, b) = (index[pair[0].name.as_str()], index[pair[1].name.as_str()]);
        if a != b && pair[0].frame.round() == pair[1].frame.round() && edges.insert((a, b)) {
            after[a].push(b);
            before_count[b] += 1;
        }
    }
    let mut order = Vec::with_capacity(names.len());
    let mut ready: std::collections::BTreeSet<usize> = (0..names.len()).filter(|&i| before_count[i] == 0).collect();
    while let Some(next) = ready.pop_first() {
        order.push(next);
        for &b in &after[next] {
            before_count[b] -= 1;
            if before_count[b] == 0 {
                ready.insert(b);
            }
        }
    }
    if order.len() == names.len() {
        order
    } else {
        (0..names.len()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_are_ordered_to_keep_notes_on_one_frame_in_order() {
        let note = |frame: f64, name: &str| Note {
            frame,
            name: name.into(),
        };
        let notes = [note(1.0, "b"), note(2.0, "a"), note(2.0, "b")];
        assert_eq!(track_order(&["b", "a"], &notes), [1, 0]);
        let contradiction = [note(2.0, "a"), note(2.0, "b"), note(2.0, "a")];
        assert_eq!(track_order(&["a", "b"], &contradiction), [0, 1]);
    }
}
