//! Conversion between a [`CastFile`] and the neutral scene model: what each node becomes is
//! documented on [`CastFile::to_scene`] and [`CastFile::from_scene`].

use std::collections::HashMap;

use animbin_core::math::{Quat, Rgba, Rgba8, Transform, Vec2, Vec3, Vec4};
use animbin_core::scene::{
    self, AnimKind, BoneTrack, ConversionReport, Interpolation, Key, Note, PropertyTrack, Scene, SkinWeights,
};
use animbin_core::{Error, ErrorKind, Result, SceneOptions};

use crate::layout::NodeKind;
use crate::model::{CastFile, Node, Property, Value};
use crate::nodes::{self, ColorLayer, is_material_slot};
use crate::validate::in_cycles;
use crate::{FORMAT, to_bytes};

/// The first hash the reference writer hands out; it counts up from there.
pub const FIRST_HASH: u64 = 0x534E_4957_5254_5250;

/// The `format` of the scene property tracks that carry whole Cast curves.
pub const PROPERTY_FORMAT: &str = FORMAT;

fn refuse(message: String) -> Error {
    Error::new(
        FORMAT,
        0,
        ErrorKind::invalid("indices that point inside the file", message),
    )
}

fn unencodable(message: String) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(message))
}

/// The documented property names of each node type that the scene uses or reports.
fn documented(kind: NodeKind, name: &str) -> bool {
    let fixed: &[&str] = match kind {
        NodeKind::Model => &["n", "p", "r", "s"],
        NodeKind::Mesh => &[
            "n", "vp", "vn", "vt", "ul", "cl", "vc", "wb", "wv", "mi", "f", "sm", "m",
        ],
        NodeKind::Bone => &["n", "p", "ssc", "lp", "lr", "wp", "wr", "s"],
        NodeKind::Material => &["n", "t"],
        NodeKind::File => &["p"],
        NodeKind::Color => &["n", "cs", "rgba"],
        NodeKind::Animation => &["n", "fr", "lo"],
        NodeKind::Curve => &["nn", "kp", "kb", "kv", "m", "ab"],
        NodeKind::CurveModeOverride => &["nn", "m", "ot", "or", "os"],
        NodeKind::NotificationTrack => &["n", "kb"],
        _ => return true,
    };
    let layer = |prefix: char| name.strip_prefix(prefix).and_then(crate::nodes::layer_number).is_some();
    fixed.contains(&name)
        || (kind == NodeKind::Mesh && (layer('u') || layer('c')))
        || (kind == NodeKind::Material && is_material_slot(name))
}

/// Reports undocumented properties of `node` (which the scene has no place for) and
/// repeated ones (of which the first is used).
fn lose_undocumented(node: &Node, kind: NodeKind, report: &mut ConversionReport) {
    for (i, p) in node.properties.iter().enumerate() {
        if node.properties[..i].iter().any(|q| q.name == p.name) {
            report.lose(format!(
                "second properties of one name in {kind} nodes (such as {:?}; the first is used)",
                p.name
            ));
        }
        if !documented(kind, &p.name) {
            report.lose(format!(
                "undocumented properties of {kind} nodes (such as {:?})",
                p.name
            ));
        }
    }
}

fn lose_count(count: usize, what: &str, report: &mut ConversionReport) {
    if count > 0 {
        report.lose(format!("{what} ({count}; the scene model has none)"));
    }
}

fn widen3(v: Vec3<f32>) -> Vec3<f64> {
    v.map(f64::from)
}

fn widen_quat(q: Quat<f32>) -> Quat<f64> {
    q.map(f64::from)
}

fn mode_kind(mode: Option<&str>, report: &mut ConversionReport) -> AnimKind {
    match mode {
        Some("absolute") => AnimKind::Absolute,
        Some("additive") => AnimKind::Additive,
        Some("relative") => AnimKind::Relative,
        Some(other) => {
            report.lose(format!("curve mode {other:?} (read as absolute)"));
            AnimKind::Absolute
        }
        None => AnimKind::Absolute,
    }
}

/// What the scene is built into, across models.
struct Builder<'r> {
    scene: Scene,
    report: &'r mut ConversionReport,
    unknown_nodes: usize,
    blend_shapes: usize,
    hairs: usize,
    ik_handles: usize,
    constraints: usize,
    instances: usize,
    metadata: usize,
    animation_skeletons: usize,
}

impl CastFile {
    /// The file as a scene, recording in `report` what the scene cannot hold.
    ///
    /// Every Model under a Root adds its bones, materials and meshes to the scene's one
    /// skeleton, material list and mesh list (bone and material indices offset by what
    /// earlier models added); every Animation becomes a scene animation.
    /// - Bones: name, parent, local (`lp`, `lr`, `s`) and world (`wp`, `wr`) bind poses; a
    ///   side that is absent is computed from the other.
    /// - Meshes: name, positions, normals, every UV layer (`ul` of them, else `u0`, `u1`, ...
    ///   as present), the first colour layer (`c0`, or the legacy `vc`; float colours rounded
    ///   to 8 bits), skin weights of any influence count (`mi`, `wb`, `wv`), triangles and the
    ///   material. Per-vertex arrays of the wrong length are skipped (as the format says
    ///   consumers do) and reported.
    /// - Materials: name; the `diffuse` slot (else `albedo`) as the diffuse map, `normal` and
    ///   `specular` as maps, a Color in `albedo` or `diffuse` as the base colour (decoded to
    ///   linear when it is sRGB).
    /// - Animations: name, frame rate, looping; the mode of the first transform curve is the
    ///   animation's kind; `rq` curves are rotation keys; `tx`/`ty`/`tz` and `sx`/`sy`/`sz`
    ///   curves are joined into translation and scale keys (on the union of their frames,
    ///   linearly interpolated, when they differ; a missing axis takes the bind pose's value
    ///   in absolute mode, else 0, and 1 for scale); a CurveModeOverride is its bone's
    ///   `kind_override`; notification tracks are notes, sorted by frame (tracks in file
    ///   order within a frame); the frame count is the last key's frame plus one. Blend-shape
    ///   weight (`bs`), visibility (`vb`) and any other curve is kept whole as a
    ///   [`PropertyTrack`] (`format` [`PROPERTY_FORMAT`], `property` its `kp`, `data` a Cast
    ///   file holding just that curve), so it comes back when the scene is written as Cast.
    ///
    /// What the scene cannot hold is one line each in `report`: model names and placement,
    /// tangents, colour layers after the first, float colours that 8 bits do not hold, the
    /// skinning method, segment scale compensation, blend shapes, hair, IK handles,
    /// constraints, instances, metadata, material slots other than the four, additive blend
    /// weights, curve modes that differ from the animation's, overrides of only some
    /// channels, skeletons inside animations, unknown nodes, undocumented and repeated
    /// properties.
    ///
    /// Cast stores its own frame rate, units and axes are the source's, so only
    /// [`SceneOptions::framerate`] matters, for an animation without `fr`. Fails on bone
    /// parents out of range or in a cycle, triangles that are not whole or name a vertex past
    /// the mesh, and skin weights naming a bone past the skeleton.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        let mut b = Builder {
            scene: Scene::default(),
            report,
            unknown_nodes: 0,
            blend_shapes: 0,
            hairs: 0,
            ik_handles: 0,
            constraints: 0,
            instances: 0,
            metadata: 0,
            animation_skeletons: 0,
        };
        let mut animations = Vec::new();
        for top in &self.roots {
            if !top.is(NodeKind::Root) {
                b.report.lose("top-level nodes that are not Root nodes");
                continue;
            }
            for child in &top.children {
                if let Some(model) = child.as_model() {
                    b.model(model)?;
                } else if let Some(anim) = child.as_animation() {
                    animations.push(anim);
                } else if child.is(NodeKind::Instance) {
                    b.instances += 1;
                } else if child.is(NodeKind::Metadata) {
                    b.metadata += 1;
                } else {
                    b.unknown_nodes += 1;
                }
            }
            lose_undocumented(top, NodeKind::Root, b.report);
        }
        for anim in animations {
            let animation = b.animation(anim, options)?;
            b.scene.animations.push(animation);
        }
        lose_count(b.blend_shapes, "blend shapes", b.report);
        lose_count(b.hairs, "hair", b.report);
        lose_count(b.ik_handles, "IK handles", b.report);
        lose_count(b.constraints, "constraints", b.report);
        lose_count(b.instances, "instances of other scene files", b.report);
        lose_count(
            b.metadata,
            "metadata nodes (author, software, up axis, scene root)",
            b.report,
        );
        if b.animation_skeletons > 0 {
            b.report.lose(format!(
                "{} skeletons inside animations (the scene's skeleton comes from models)",
                b.animation_skeletons
            ));
        }
        if b.unknown_nodes > 0 {
            b.report
                .lose(format!("{} nodes of unknown or misplaced types", b.unknown_nodes));
        }
        Ok(b.scene)
    }
}

impl Builder<'_> {
    fn model(&mut self, typed: nodes::Model<'_>) -> Result<()> {
        let model = typed.node();
        lose_undocumented(model, NodeKind::Model, self.report);
        if typed.name().is_some_and(|n| !n.is_empty()) {
            self.report.lose("model names (the scene has no model node)");
        }
        let placed = typed.position().is_some_and(|p| p != Vec3::new(0.0, 0.0, 0.0))
            || typed.rotation().is_some_and(|r| r != Quat::new(0.0, 0.0, 0.0, 1.0))
            || typed.scale().is_some_and(|s| s != Vec3::new(1.0, 1.0, 1.0));
        if placed {
            self.report
                .lose("model placement (p, r, s: the scene has no model node)");
        }
        let bone_offset = self.scene.skeleton.bones.len();
        let mut bone_count = 0;
        let mut materials: HashMap<u64, usize> = HashMap::new();
        let mut seen_skeleton = false;
        for child in &model.children {
            if let Some(skeleton) = child.as_skeleton() {
                if seen_skeleton {
                    self.report.lose("second skeletons of a model");
                } else {
                    seen_skeleton = true;
                    bone_count = self.skeleton(skeleton)?;
                }
            } else if let Some(material) = child.as_material() {
                let index = self.scene.materials.len();
                let material = self.material(material);
                self.scene.materials.push(material);
                materials.entry(child.hash).or_insert(index);
            } else if !child.is(NodeKind::Mesh) && !child.is(NodeKind::Hair) && !child.is(NodeKind::BlendShape) {
                self.unknown_nodes += 1;
            }
        }
        for child in &model.children {
            if let Some(mesh) = child.as_mesh() {
                let mesh = self.mesh(mesh, bone_offset, bone_count, model, &materials)?;
                self.scene.meshes.push(mesh);
            } else if child.is(NodeKind::Hair) {
                self.hairs += 1;
            } else if child.is(NodeKind::BlendShape) {
                self.blend_shapes += 1;
            }
        }
        Ok(())
    }

    /// Adds the skeleton's bones; returns how many.
    fn skeleton(&mut self, skeleton: nodes::Skeleton<'_>) -> Result<usize> {
        let offset = self.scene.skeleton.bones.len();
        let bones: Vec<nodes::Bone<'_>> = skeleton.bones().collect();
        let n = bones.len();
        let mut parents = Vec::with_capacity(n);
        for (i, typed) in bones.iter().enumerate() {
            parents.push(match typed.parent() {
                None | Some(-1) => None,
                Some(p) if p >= 0 && (p as usize) < n && p as usize != i => Some(p as usize),
                Some(p) => {
                    return Err(refuse(format!(
                        "bone {i} ({:?}) has parent {p} among {n} bones",
                        typed.name().unwrap_or_default()
                    )));
                }
            });
        }
        if let Some(&i) = in_cycles(&parents).first() {
            return Err(refuse(format!("bone {i} is its own ancestor (a parent cycle)")));
        }
        let has = |a: &str, b: &str| {
            bones
                .iter()
                .any(|bone| bone.node().property(a).is_some() || bone.node().property(b).is_some())
        };
        let has_local = has("lp", "lr");
        let has_world = has("wp", "wr");
        let mut skeleton_out = scene::Skeleton::default();
        let mut compensate_off = false;
        for (typed, parent) in bones.iter().zip(&parents) {
            lose_undocumented(typed.node(), NodeKind::Bone, self.report);
            compensate_off |= typed.segment_scale_compensate() == Some(false);
            let pose = |p: Option<Vec3<f32>>, r: Option<Quat<f32>>| Transform {
                translation: p.map_or(Vec3::new(0.0, 0.0, 0.0), widen3),
                rotation: r.map_or(Quat::new(0.0, 0.0, 0.0, 1.0), widen_quat),
                scale: Vec3::ONE,
            };
            skeleton_out.bones.push(scene::Bone {
                name: typed.name().unwrap_or_default().to_string(),
                parent: *parent,
                local: pose(typed.local_position(), typed.local_rotation()),
                global: pose(typed.world_position(), typed.world_rotation()),
                cosmetic: false,
            });
        }
        if compensate_off {
            self.report
                .lose("segment scale compensation turned off (ssc 0; the scene has no such flag)");
        }
        if has_world && !has_local {
            skeleton_out.update_locals();
        }
        for (out, bone) in skeleton_out.bones.iter_mut().zip(&bones) {
            out.local.scale = bone.scale().map_or(Vec3::ONE, widen3);
        }
        if has_world {
            // The world side is stored; its scale is the product of the local ones.
            for i in skeleton_out.resolve_order() {
                let parent_scale = skeleton_out.bones[i]
                    .parent
                    .map_or(Vec3::ONE, |p| skeleton_out.bones[p].global.scale);
                skeleton_out.bones[i].global.scale = parent_scale * skeleton_out.bones[i].local.scale;
            }
        } else {
            skeleton_out.update_globals();
        }
        for child in &skeleton.node().children {
            match child.kind() {
                Some(NodeKind::Bone) => {}
                Some(NodeKind::IkHandle) => self.ik_handles += 1,
                Some(NodeKind::Constraint) => self.constraints += 1,
                _ => self.unknown_nodes += 1,
            }
        }
        self.scene
            .skeleton
            .bones
            .extend(skeleton_out.bones.into_iter().map(|mut b| {
                b.parent = b.parent.map(|p| p + offset);
                b
            }));
        Ok(n)
    }

    fn material(&mut self, material: nodes::Material<'_>) -> scene::Material {
        let node = material.node();
        lose_undocumented(node, NodeKind::Material, self.report);
        let mut out = scene::Material {
            name: material.name().unwrap_or_default().to_string(),
            ..scene::Material::default()
        };
        let file = |hash: u64| {
            node.child_by_hash(hash)
                .and_then(|c| c.as_file())
                .and_then(|f| f.path())
        };
        let color = |hash: u64| node.child_by_hash(hash).and_then(|c| c.as_color());
        let diffuse_file = material.slot("diffuse").and_then(file);
        for (slot, hash) in material.slots() {
            match slot {
                "diffuse" | "albedo" => {
                    if let Some(c) = color(hash) {
                        if out.base_color.is_none() {
                            out.base_color = c.rgba().map(|rgba| linear_color(rgba, c.color_space()));
                            continue;
                        }
                    } else if let Some(path) = file(hash) {
                        if slot == "diffuse" || diffuse_file.is_none() {
                            out.diffuse_map = Some(path.to_string());
                            continue;
                        }
                    }
                    self.report
                        .lose(format!("material slot {slot:?} beside another diffuse map or colour"));
                }
                "normal" | "specular" if file(hash).is_some() => {
                    let path = file(hash).map(str::to_string);
                    if slot == "normal" {
                        out.normal_map = path;
                    } else {
                        out.specular_map = path;
                    }
                }
                other => self.report.lose(format!(
                    "material slots other than albedo, diffuse, normal and specular files (such as {other:?})"
                )),
            }
        }
        for child in &node.children {
            if !child.is(NodeKind::File) && !child.is(NodeKind::Color) {
                self.unknown_nodes += 1;
            }
        }
        out
    }

    fn mesh(
        &mut self,
        mesh: nodes::Mesh<'_>,
        bone_offset: usize,
        bone_count: usize,
        model: &Node,
        materials: &HashMap<u64, usize>,
    ) -> Result<scene::Mesh> {
        let node = mesh.node();
        lose_undocumented(node, NodeKind::Mesh, self.report);
        let name = mesh.name().unwrap_or_default().to_string();
        let label = if name.is_empty() {
            "a mesh".to_string()
        } else {
            format!("mesh {name:?}")
        };
        let positions = mesh.positions().unwrap_or_default().to_vec();
        let v = positions.len();
        let skip = |report: &mut ConversionReport, what: &str, len: usize| {
            let fits = len == v;
            if !fits {
                report.lose(format!(
                    "per-vertex arrays of the wrong length ({label}: {what} has {len} for {v} vertices; skipped)"
                ));
            }
            fits
        };
        let normals = match mesh.normals() {
            Some(n) if skip(self.report, "vn", n.len()) => n.to_vec(),
            _ => Vec::new(),
        };
        let layers = mesh
            .uv_layer_count()
            .unwrap_or_else(|| (0..).take_while(|&l| mesh.uv_layer(l).is_some()).count() as u32);
        let mut uv_layers: Vec<Vec<Vec2<f32>>> = Vec::new();
        for l in 0..layers {
            match mesh.uv_layer(l) {
                Some(uv) if skip(self.report, &format!("u{l}"), uv.len()) => uv_layers.push(uv.to_vec()),
                _ => break,
            }
        }
        let color_layers = mesh.color_layer_count();
        let first_colors = match color_layers {
            Some(0) => None,
            Some(_) => mesh.color_layer(0),
            None => mesh.legacy_colors().map(ColorLayer::Packed),
        };
        let colors = match first_colors {
            Some(layer) if skip(self.report, "the first colour layer", layer.len()) => self.colors(layer),
            _ => Vec::new(),
        };
        if color_layers.is_some_and(|n| n > 1) {
            self.report
                .lose("colour layers after the first (the scene holds one per mesh)");
        }
        let all_uv_layers = node
            .properties
            .iter()
            .filter(|p| p.name.strip_prefix('u').and_then(crate::nodes::layer_number).is_some())
            .count();
        if all_uv_layers > uv_layers.len() {
            self.report.lose("UV layers past ul or after a missing layer");
        }
        if mesh.tangents().is_some() {
            self.report.lose("vertex tangents (vt)");
        }
        if mesh.skinning_method().is_some_and(|m| m != "linear") {
            self.report
                .lose("dual-quaternion skinning (sm \"quaternion\"; the scene skins linearly)");
        }
        let skin = self.skin(&mesh, v, bone_offset, bone_count, &label)?;
        let faces = match mesh.faces() {
            None => Vec::new(),
            Some(f) if f.len() % 3 != 0 => {
                return Err(refuse(format!(
                    "{label}: {} face indices are not whole triangles",
                    f.len()
                )));
            }
            Some(f) => {
                let flat = f.to_vec();
                if let Some((k, &x)) = flat.iter().enumerate().find(|&(_, &x)| x as usize >= v) {
                    return Err(refuse(format!("{label}: face index {k} is {x}, past its {v} vertices")));
                }
                flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
            }
        };
        let material = match mesh.material() {
            None => Vec::new(),
            Some(hash) => match model.child_by_hash(hash).filter(|c| c.is(NodeKind::Material)) {
                Some(m) => vec![materials.get(&m.hash).copied()],
                None => {
                    self.report.lose("mesh material hashes that name no material");
                    Vec::new()
                }
            },
        };
        Ok(scene::Mesh {
            name,
            positions,
            normals,
            uv_layers,
            colors,
            skin,
            faces,
            materials: material,
        })
    }

    fn colors(&mut self, layer: ColorLayer<'_>) -> Vec<Rgba8> {
        match layer {
            ColorLayer::Packed(values) => values
                .iter()
                .map(|&c| {
                    let [r, g, b, a] = c.to_le_bytes();
                    Rgba8::new(r, g, b, a)
                })
                .collect(),
            ColorLayer::Float(values) => {
                let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
                let out: Vec<Rgba8> = values
                    .iter()
                    .map(|c| Rgba8::new(byte(c.x), byte(c.y), byte(c.z), byte(c.w)))
                    .collect();
                let exact = values.iter().zip(&out).all(|(c, o)| {
                    [(c.x, o.r), (c.y, o.g), (c.z, o.b), (c.w, o.a)]
                        .iter()
                        .all(|&(x, b)| f32::from(b) / 255.0 == x)
                });
                if !exact {
                    self.report.lose("float vertex colours (rounded to 8 bits per channel)");
                }
                out
            }
        }
    }

    fn skin(
        &mut self,
        mesh: &nodes::Mesh<'_>,
        v: usize,
        bone_offset: usize,
        bone_count: usize,
        label: &str,
    ) -> Result<Option<SkinWeights>> {
        let (Some(influences), Some(bones), Some(weights)) =
            (mesh.max_influence(), mesh.weight_bones(), mesh.weight_values())
        else {
            if mesh.weight_bones().is_some() || mesh.weight_values().is_some() {
                self.report
                    .lose(format!("skin weights without mi, wb or wv ({label}; skipped)"));
            }
            return Ok(None);
        };
        if influences == 0 {
            return Ok(None);
        }
        let n = v as u64 * u64::from(influences);
        if bones.len() as u64 != n || weights.len() as u64 != n {
            self.report.lose(format!(
                "skin weights of the wrong length ({label}: {} bones and {} weights for {v} vertices of {influences}; skipped)",
                bones.len(),
                weights.len()
            ));
            return Ok(None);
        }
        let bones = bones.to_vec();
        if let Some((k, &b)) = bones.iter().enumerate().find(|&(_, &b)| b as usize >= bone_count) {
            return Err(refuse(format!(
                "{label}: weight {k} names bone {b}, past the model's {bone_count} bones"
            )));
        }
        Ok(Some(SkinWeights {
            influences: influences as usize,
            bones: bones.into_iter().map(|b| b + bone_offset as u32).collect(),
            weights: weights.to_vec(),
        }))
    }

    fn animation(&mut self, anim: nodes::Animation<'_>, options: &SceneOptions) -> Result<scene::Animation> {
        let node = anim.node();
        lose_undocumented(node, NodeKind::Animation, self.report);
        let transform = |kp: Option<&str>| matches!(kp, Some("rq" | "tx" | "ty" | "tz" | "sx" | "sy" | "sz"));
        let first_mode = anim
            .curves()
            .find(|c| transform(c.key_property()))
            .and_then(|c| c.mode());
        let kind = mode_kind(first_mode, self.report);
        let mut tracks = Tracks::default();
        let mut properties = Vec::new();
        let mut last_frame: Option<u32> = None;
        let mut notes = Vec::new();
        for child in &node.children {
            if let Some(curve) = child.as_curve() {
                if let Some(frames) = curve.key_frames() {
                    last_frame = last_frame.max(frames.iter().max());
                }
                let kept = transform(curve.key_property()) && self.curve(curve, kind, &mut tracks);
                if !kept {
                    properties.push(PropertyTrack {
                        node: curve.node_name().unwrap_or_default().to_string(),
                        property: curve.key_property().unwrap_or_default().to_string(),
                        format: PROPERTY_FORMAT.to_string(),
                        data: to_bytes(&CastFile {
                            flags: 0,
                            roots: vec![child.clone()],
                        })?,
                    });
                }
            } else if let Some(cmov) = child.as_curve_mode_override() {
                lose_undocumented(child, NodeKind::CurveModeOverride, self.report);
                let all = [
                    cmov.override_translation(),
                    cmov.override_rotation(),
                    cmov.override_scale(),
                ]
                .iter()
                .all(|&o| o == Some(true));
                if !all {
                    self.report.lose(
                            "curve mode overrides of only some of translation, rotation and scale (the scene's override covers all three)",
                        );
                }
                let mode = mode_kind(cmov.mode(), self.report);
                let track = tracks.get(cmov.node_name().unwrap_or_default());
                if track.track.kind_override.is_some() {
                    self.report.lose("a second curve mode override of one node");
                }
                track.track.kind_override = Some(mode);
            } else if let Some(track) = child.as_notification_track() {
                lose_undocumented(child, NodeKind::NotificationTrack, self.report);
                let name = track.name().unwrap_or_default();
                for frame in track.key_frames().iter().flat_map(|k| k.iter()) {
                    last_frame = last_frame.max(Some(frame));
                    notes.push(Note {
                        frame: f64::from(frame),
                        name: name.to_string(),
                    });
                }
            } else if child.is(NodeKind::Skeleton) {
                self.animation_skeletons += 1;
            } else {
                self.unknown_nodes += 1;
            }
        }
        // Notes come back in frame order; tracks of one frame keep their file order.
        notes.sort_by(|a, b| a.frame.total_cmp(&b.frame));
        let skeleton = &self.scene.skeleton;
        let bones = tracks
            .list
            .into_iter()
            .map(|t| t.finish(kind, skeleton, self.report))
            .collect();
        Ok(scene::Animation {
            name: anim.name().unwrap_or_default().to_string(),
            framerate: anim.framerate().map_or_else(|| options.framerate_or(30.0), f64::from),
            frame_count: last_frame.map_or(0.0, |f| f64::from(f) + 1.0),
            looping: anim.looping().unwrap_or(false),
            kind,
            interpolation: Interpolation::Linear,
            bones,
            notes,
            properties,
        })
    }

    /// Takes a transform curve into its bone's track; `false` (the curve then travels
    /// whole) when it does not decode as its property or repeats one.
    fn curve<'a>(&mut self, curve: nodes::Curve<'a>, kind: AnimKind, tracks: &mut Tracks<'a>) -> bool {
        let node = curve.node();
        let (Some(name), Some(kp), Some(frames), Some(values)) = (
            curve.node_name(),
            curve.key_property(),
            curve.key_frames(),
            curve.key_values(),
        ) else {
            return false;
        };
        if frames.len() != values.len() {
            return false;
        }
        let axis = |kp: &str| match kp {
            "tx" | "sx" => 0,
            "ty" | "sy" => 1,
            _ => 2,
        };
        let track = tracks.get(name);
        let taken = match (kp, values) {
            ("rq", Value::Vec4(v)) if track.rotation.is_none() => {
                track.rotation = Some((frames.to_vec(), &v[..]));
                true
            }
            ("tx" | "ty" | "tz", Value::Float(v)) if track.translation[axis(kp)].is_none() => {
                track.translation[axis(kp)] = Some((frames.to_vec(), &v[..]));
                true
            }
            ("sx" | "sy" | "sz", Value::Float(v)) if track.scale[axis(kp)].is_none() => {
                track.scale[axis(kp)] = Some((frames.to_vec(), &v[..]));
                true
            }
            _ => false,
        };
        if taken {
            lose_undocumented(node, NodeKind::Curve, self.report);
            if mode_kind(curve.mode(), self.report) != kind {
                self.report
                    .lose("curve modes that differ from the animation's first (the scene has one mode per animation)");
            }
            if curve.additive_blend_weight().is_some() {
                self.report.lose("additive blend weights (ab)");
            }
        }
        taken
    }
}

/// Converts a Cast colour to the scene's linear RGBA.
fn linear_color(rgba: Vec4<f32>, space: Option<&str>) -> Rgba<f32> {
    let decode = |c: f32| {
        if space == Some("linear") {
            c
        } else if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    Rgba::new(decode(rgba.x), decode(rgba.y), decode(rgba.z), rgba.w)
}

/// One axis curve: its frames and values.
type Axis<'a> = Option<(Vec<u32>, &'a [f32])>;

/// The curves of one bone, gathered before the axes are joined.
struct TrackCurves<'a> {
    track: BoneTrack,
    rotation: Option<(Vec<u32>, &'a [Vec4<f32>])>,
    translation: [Axis<'a>; 3],
    scale: [Axis<'a>; 3],
}

/// The bone tracks of an animation, in the order their nodes first appear.
#[derive(Default)]
struct Tracks<'a> {
    list: Vec<TrackCurves<'a>>,
    by_name: HashMap<String, usize>,
}

impl<'a> Tracks<'a> {
    fn get(&mut self, name: &str) -> &mut TrackCurves<'a> {
        let index = *self.by_name.entry(name.to_string()).or_insert_with(|| {
            self.list.push(TrackCurves {
                track: BoneTrack {
                    bone: name.to_string(),
                    ..BoneTrack::default()
                },
                rotation: None,
                translation: [None, None, None],
                scale: [None, None, None],
            });
            self.list.len() - 1
        });
        &mut self.list[index]
    }
}

impl TrackCurves<'_> {
    fn finish(self, kind: AnimKind, skeleton: &scene::Skeleton, report: &mut ConversionReport) -> BoneTrack {
        let mut track = self.track;
        if let Some((frames, values)) = self.rotation {
            track.rotation = frames
                .iter()
                .zip(values)
                .map(|(&f, q)| Key::new(f64::from(f), Quat::new(q.x, q.y, q.z, q.w).map(f64::from)))
                .collect();
        }
        let bind = skeleton.find(&track.bone).map(|b| skeleton.bones[b].local);
        let rest = match (kind, bind) {
            (AnimKind::Absolute, Some(local)) => local.translation,
            _ => Vec3::new(0.0, 0.0, 0.0),
        };
        track.translation = join_axes(&self.translation, rest, report);
        track.scale = join_axes(&self.scale, Vec3::ONE, report);
        track
    }
}

/// The value of an axis curve at `frame`: linear between keys, held before the first and
/// after the last.
fn sample(keys: &[(u32, f32)], frame: u32) -> f64 {
    let after = keys.partition_point(|&(f, _)| f <= frame);
    match (after.checked_sub(1).map(|i| keys[i]), keys.get(after)) {
        (Some((f0, v0)), _) if f0 == frame => f64::from(v0),
        (Some((f0, v0)), Some(&(f1, v1))) => {
            let t = f64::from(frame - f0) / f64::from(f1 - f0);
            f64::from(v0) + (f64::from(v1) - f64::from(v0)) * t
        }
        (Some((_, v0)), None) => f64::from(v0),
        (None, Some(&(_, v1))) => f64::from(v1),
        (None, None) => 0.0,
    }
}

/// Joins three axis curves into vector keys; `rest` fills an axis without a curve.
fn join_axes(axes: &[Axis<'_>; 3], rest: Vec3<f64>, report: &mut ConversionReport) -> Vec<Key<Vec3<f64>>> {
    let present: Vec<&(Vec<u32>, &[f32])> = axes.iter().flatten().collect();
    let Some(first) = present.first() else {
        return Vec::new();
    };
    let same_frames = present.iter().all(|(frames, _)| *frames == first.0);
    if present.len() < 3 {
        report.lose(
            "translation or scale curves without all three axes (a missing axis takes the bind pose, or 1 for scale)",
        );
    }
    let rest = [rest.x, rest.y, rest.z];
    if same_frames {
        return (0..first.0.len())
            .map(|k| {
                let c = |axis: usize| axes[axis].as_ref().map_or(rest[axis], |(_, v)| f64::from(v[k]));
                Key::new(f64::from(first.0[k]), Vec3::new(c(0), c(1), c(2)))
            })
            .collect();
    }
    report.lose(
        "translation or scale axes keyed on different frames (joined on the union of their frames, linearly interpolated)",
    );
    let sorted: Vec<Option<Vec<(u32, f32)>>> = axes
        .iter()
        .map(|a| {
            a.as_ref().map(|(frames, values)| {
                let mut keys: Vec<(u32, f32)> = frames.iter().copied().zip(values.iter().copied()).collect();
                keys.sort_by_key(|&(f, _)| f);
                keys
            })
        })
        .collect();
    let mut frames: Vec<u32> = present.iter().flat_map(|(f, _)| f.iter().copied()).collect();
    frames.sort_unstable();
    frames.dedup();
    frames
        .into_iter()
        .map(|f| {
            let c = |axis: usize| sorted[axis].as_ref().map_or(rest[axis], |keys| sample(keys, f));
            Key::new(f64::from(f), Vec3::new(c(0), c(1), c(2)))
        })
        .collect()
}

/// Hands out node hashes as the reference writer does: counting up from [`FIRST_HASH`], one
/// per node in the order the nodes are made.
///
/// ```
/// use animbin_cast::{FIRST_HASH, NodeHashes, NodeKind, Value};
///
/// let mut hashes = NodeHashes::new();
/// assert_eq!(hashes.node(NodeKind::Root).hash, FIRST_HASH);
/// let curve = hashes.curve("tag_origin", "tx", &[0, 10], Value::Float(vec![0.0, 1.0]), "absolute");
/// assert_eq!(curve.hash, FIRST_HASH + 1);
/// ```
#[derive(Debug, Clone)]
pub struct NodeHashes(u64);

impl Default for NodeHashes {
    fn default() -> Self {
        Self::new()
    }
}

impl NodeHashes {
    /// Hashes from [`FIRST_HASH`] on.
    pub fn new() -> Self {
        Self(FIRST_HASH)
    }

    /// A new node of `kind` with the next hash.
    pub fn node(&mut self, kind: NodeKind) -> Node {
        let node = Node::new(kind, self.0);
        self.0 = self.0.wrapping_add(1);
        node
    }

    /// A curve node for channel `kp` of `bone`: the key frames (`kb`, in the narrowest
    /// integer width), the values (`kv`) and the mode (`m`).
    pub fn curve(&mut self, bone: &str, kp: &str, frames: &[u32], values: Value, mode: &str) -> Node {
        let mut curve = self.node(NodeKind::Curve);
        curve.push(Property::string("nn", bone));
        curve.push(Property::string("kp", kp));
        curve.push(Property::new("kb", Value::narrowest(frames)));
        curve.push(Property::new("kv", values));
        curve.push(Property::string("m", mode));
        curve
    }
}

/// An `f64` as the `f32` the file stores, noting when digits are lost.
fn narrow(x: f64, lost: &mut bool) -> f32 {
    let y = x as f32;
    if f64::from(y).to_bits() != x.to_bits() && !(x.is_nan() && y.is_nan()) {
        *lost = true;
    }
    y
}

fn narrow3(v: Vec3<f64>, lost: &mut bool) -> Vec3<f32> {
    v.map(|x| narrow(x, lost))
}

fn narrow4(q: Quat<f64>, lost: &mut bool) -> Vec4<f32> {
    Vec4::new(
        narrow(q.x, lost),
        narrow(q.y, lost),
        narrow(q.z, lost),
        narrow(q.w, lost),
    )
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
    /// One Root; a Model (no name) holding the skeleton (bones with `n`, `p`, `lp`, `lr`,
    /// `wp`, `wr`, and `s` when the scale is not 1), the materials (`n`, `t` "pbr", the
    /// base colour as a linear Color in `albedo`, the diffuse, normal and specular maps as
    /// Files in their slots) and the meshes (`n` when named, `vp`, `vn`, `u0`... and `ul`,
    /// colours packed in `c0` with `cl` 1, `wb`/`wv`/`mi`, `f`, `m`) when the scene has any;
    /// an Animation per scene animation (`n`, `fr`, `lo`; per bone a CurveModeOverride of all
    /// three channels for a `kind_override`, then `rq`, `tx`/`ty`/`tz` and `sx`/`sy`/`sz`
    /// curves in the animation's mode; Cast property tracks as their curves; notes as one
    /// notification track per name). Properties follow the reference writer's order, index
    /// buffers take the narrowest width, hashes count up from [`FIRST_HASH`].
    ///
    /// Key values and bind poses are `f32` in Cast: values that lose digits are reported, as
    /// are fractional frames (rounded), the `delta` kind (written as `relative`), the kind of
    /// an animation without keys, step interpolation, a frame count other than the last
    /// key's plus one, note orders that a frame sort cannot give back, cosmetic marks, bone
    /// tracks without keys, embedded textures, mesh materials after the first and property
    /// tracks of other formats. No option changes the result.
    ///
    /// Fails on frames that are negative or past u32, key values past `f32`'s range, bone
    /// parents out of range or in a cycle, and meshes whose arrays disagree with their
    /// vertex count or whose indices point past their arrays.
    pub fn from_scene(scene: &Scene, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        let mut hashes = NodeHashes::new();
        let mut root = hashes.node(NodeKind::Root);
        let has_model = !scene.skeleton.bones.is_empty() || !scene.meshes.is_empty() || !scene.materials.is_empty();
        if has_model {
            let mut model = hashes.node(NodeKind::Model);
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
            for (i, mesh) in scene.meshes.iter().enumerate() {
                model
                    .children
                    .push(mesh_node(i, mesh, scene, &material_hashes, &mut hashes, report)?);
            }
            root.children.push(model);
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
    for bone in &skeleton.bones {
        let mut b = hashes.node(NodeKind::Bone);
        b.push(Property::string("n", bone.name.clone()));
        let parent = match bone.parent {
            None => u32::MAX,
            Some(p) => u32::try_from(p)
                .ok()
                .filter(|&p| p < i32::MAX as u32)
                .ok_or_else(|| unencodable(format!("bone parent index {p} does not fit the i32 p")))?,
        };
        b.push(Property::new("p", Value::Integer(vec![parent])));
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
        if bone.local.scale != Vec3::ONE {
            b.push(Property::new(
                "s",
                Value::Vec3(vec![narrow3(bone.local.scale, &mut lost)]),
            ));
        }
        node.children.push(b);
    }
    if lost {
        report.lose("bind pose digits beyond f32");
    }
    if skeleton.bones.iter().any(|b| b.cosmetic) {
        report.lose("cosmetic bone marks");
    }
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
        let packed = mesh
            .colors
            .iter()
            .map(|c| u32::from_le_bytes([c.r, c.g, c.b, c.a]))
            .collect();
        node.push(Property::new("c0", Value::Integer(packed)));
        node.push(Property::new("cl", Value::Byte(vec![1])));
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
        if track.translation.is_empty()
            && track.rotation.is_empty()
            && track.scale.is_empty()
            && track.kind_override.is_none()
        {
            report.lose("bone tracks without keys (Cast curves name only animated nodes)");
        }
        if let Some(kind) = track.kind_override {
            let mut cmov = hashes.node(NodeKind::CurveModeOverride);
            cmov.push(Property::string("nn", bone));
            cmov.push(Property::string("m", mode_name(kind, report)));
            for flag in ["ot", "or", "os"] {
                cmov.push(Property::boolean(flag, true));
            }
            node.children.push(cmov);
        }
        let frames = |keys: &mut dyn Iterator<Item = f64>, channel: &str, report: &mut ConversionReport| {
            keys.enumerate()
                .map(|(k, f)| key_frame(f, &|| format!("bone {bone:?} {channel} key {k}"), report))
                .collect::<Result<Vec<u32>>>()
        };
        if !track.rotation.is_empty() {
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
            node.children.push(hashes.curve(bone, "rq", &kb, Value::Vec4(kv), mode));
        }
        for (keys, names, channel) in [
            (&track.translation, ["tx", "ty", "tz"], "translation"),
            (&track.scale, ["sx", "sy", "sz"], "scale"),
        ] {
            if keys.is_empty() {
                continue;
            }
            let kb = frames(&mut keys.iter().map(|k| k.frame), channel, report)?;
            last_frame = last_frame.max(kb.iter().copied().max());
            for (axis, kp) in names.into_iter().enumerate() {
                let mut kv = Vec::with_capacity(kb.len());
                for (k, key) in keys.iter().enumerate() {
                    let what = || format!("bone {bone:?} {channel} key {k}");
                    let x = [key.value.x, key.value.y, key.value.z][axis];
                    kv.push(key_value(x, &mut values_lost, &what)?);
                }
                node.children.push(hashes.curve(bone, kp, &kb, Value::Float(kv), mode));
            }
        }
    }
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
    for (i, note) in anim.notes.iter().enumerate() {
        let frame = key_frame(note.frame, &|| format!("note {i} ({:?})", note.name), report)?;
        *last_frame = (*last_frame).max(Some(frame));
        match names.iter().position(|&n| n == note.name) {
            Some(k) => frames[k].push(frame),
            None => {
                names.push(&note.name);
                frames.push(vec![frame]);
            }
        }
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
        track.push(Property::string("n", name));
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
    for pair in notes.windows(2) {
        let (a, b) = (index[pair[0].name.as_str()], index[pair[1].name.as_str()]);
        if a != b && pair[0].frame.round() == pair[1].frame.round() && !after[a].contains(&b) {
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

    #[test]
    fn sampling_is_linear_and_held_at_the_ends() {
        let keys = [(0, 0.0), (10, 10.0), (20, 0.0)];
        assert_eq!(sample(&keys, 5), 5.0);
        assert_eq!(sample(&keys, 15), 5.0);
        assert_eq!(sample(&keys, 30), 0.0);
        assert_eq!(sample(&[(4, 2.0)], 0), 2.0);
    }

    #[test]
    fn srgb_colours_are_decoded() {
        let c = linear_color(Vec4::new(1.0, 0.5, 0.0, 0.25), None);
        assert!((c.g - 0.214).abs() < 1e-3 && c.r == 1.0 && c.b == 0.0 && c.a == 0.25);
        assert_eq!(linear_color(Vec4::new(0.5, 0.5, 0.5, 1.0), Some("linear")).r, 0.5);
    }
}
