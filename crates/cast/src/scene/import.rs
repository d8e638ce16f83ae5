//! Cast -> Scene: [`CastFile::to_scene`].

use std::collections::{HashMap, HashSet};

use animbin_core::math::{Quat, Rgba, Rgba8, Transform, Vec2, Vec3, Vec4};
use animbin_core::pose::{self, TrackKinds};
use animbin_core::scene::{
    self, AnimKind, BoneTrack, ChannelKinds, ConversionReport, Interpolation, Key, KeySpan, Note, PropertyTrack, Scene,
    SkinBlend, SkinWeights, key_span,
};
use animbin_core::{Result, SceneOptions};

use super::properties::lose_undocumented;
use super::{PROPERTY_FORMAT, blend, hair, refuse, refuse_at, rig};
use crate::layout::{FILE_HEADER_SIZE, NODE_HEADER_SIZE, NodeKind, PROPERTY_HEADER_SIZE};
use crate::model::{CastFile, Node, Value};
use crate::nodes::{self, ColorLayer};
use crate::to_bytes;
use crate::validate::in_cycles;

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
    metadata: usize,
    animation_skeletons: usize,
    /// Models read so far (the first places the scene).
    models: usize,
    /// Arrays moved out of the file's mesh nodes ([`CastFile::into_scene`]), by the address
    /// of their node.
    taken: HashMap<usize, MeshArrays>,
    /// The file's top-level nodes, to find where a node is in it ([`Builder::offset_of`]).
    roots: &'r [Node],
    /// The payload bytes moved out of each mesh node with [`Builder::taken`], by its address,
    /// which the file's layout still counts.
    taken_bytes: HashMap<usize, u64>,
}

/// The arrays of a mesh node that the scene holds as the file does, moved out of a file that
/// is no longer needed: `vp`, `vn` and the UV layers by number (the first property of each
/// name, when it has the type a reader takes).
#[derive(Default)]
struct MeshArrays {
    positions: Option<Vec<Vec3<f32>>>,
    normals: Option<Vec<Vec3<f32>>>,
    uv_layers: HashMap<u32, Vec<Vec2<f32>>>,
}

impl MeshArrays {
    /// The payload bytes of the arrays in the file (`f32` components).
    fn payload_size(&self) -> u64 {
        let vec3 = |v: &Option<Vec<Vec3<f32>>>| v.as_ref().map_or(0, |v| v.len() as u64 * 12);
        vec3(&self.positions) + vec3(&self.normals) + self.uv_layers.values().map(|v| v.len() as u64 * 8).sum::<u64>()
    }

    fn take_from(node: &mut Node) -> Self {
        let mut arrays = Self::default();
        let mut seen = HashSet::new();
        for property in &mut node.properties {
            if !seen.insert(property.name.clone()) {
                continue;
            }
            match (property.name.as_ref(), &mut property.value) {
                ("vp", Value::Vec3(values)) => arrays.positions = Some(std::mem::take(values)),
                ("vn", Value::Vec3(values)) => arrays.normals = Some(std::mem::take(values)),
                (name, Value::Vec2(values)) => {
                    if let Some(layer) = name.strip_prefix('u').and_then(crate::nodes::layer_number) {
                        arrays.uv_layers.insert(layer, std::mem::take(values));
                    }
                }
                _ => {}
            }
        }
        arrays
    }
}

/// The key of a node in [`Builder::taken`]: its address, which does not change while the
/// file is read (nothing is moved after the arrays are taken).
fn node_key(node: &Node) -> usize {
    std::ptr::from_ref(node) as usize
}

/// The bytes a property takes in the file: its header, its name and its values.
fn property_size(property: &crate::model::Property) -> u64 {
    PROPERTY_HEADER_SIZE + property.name.len() as u64 + property.value.payload_size()
}

/// An array moved out of the file, else the file's own, copied.
fn owned<T: Clone>(taken: Option<Vec<T>>, in_file: Option<&[T]>) -> Option<Vec<T>> {
    taken.or_else(|| in_file.map(<[T]>::to_vec))
}

impl CastFile {
    /// The file as a scene, recording in `report` what the scene cannot hold.
    ///
    /// Every Model under a Root adds its bones, materials and meshes to the scene's one
    /// skeleton, material list and mesh list (bone and material indices offset by what
    /// earlier models added); every Animation becomes a scene animation.
    /// - The first Model's `p`, `r` and `s` are the scene's [`Scene::placement`], the first
    ///   model name (`n`) its [`Scene::name`].
    /// - IKHandle and Constraint nodes of a skeleton are [`scene::Skeleton::ik_handles`] and
    ///   [`scene::Skeleton::constraints`], their bone hashes resolved to bone indices (a
    ///   handle or constraint naming no bone of its skeleton is skipped and reported).
    /// - Bones: name, parent, local (`lp`, `lr`) and world (`wp`, `wr`) bind poses (a side
    ///   that is absent is computed from the other), `ssc` (default on) as
    ///   [`scene::Bone::scale_compensate`]. A bone's scale `s` is not part of its rest pose
    ///   (Cast's consumers build rest matrices from position and rotation, so a parent's `s`
    ///   never stretches its children's offsets): it is [`scene::Bone::rest_scale`], which
    ///   the bone's absolute scale keys (kept as the file has them) are measured against.
    /// - Meshes: name, positions, normals, every UV layer (`ul` of them, else `u0`, `u1`, ...
    ///   as present), the first colour layer (`c0`, or the legacy `vc`; float colours rounded
    ///   to 8 bits), skin weights of any influence count (`mi`, `wb`, `wv`) and how they blend (`sm`), triangles and the
    ///   material. Per-vertex arrays of the wrong length are skipped (as the format says
    ///   consumers do) and reported.
    /// - Hair: every Hair of a model is a [`scene::Hair`]: name, segments (`se`), particles
    ///   (`pt`, as the file stores them) and the material (`m`, resolved to its scene index;
    ///   a hash naming no material of the model is read as none and reported). A hair whose
    ///   particle count is not the sum of `se[i] + 1` is skipped and reported.
    /// - Instances: every Instance under a Root is a [`scene::Instance`]: name, the path (`p`)
    ///   of the File child its `rf` names (empty, and reported, when it names none) and its
    ///   placement (`p`, `r`, `s`). The referenced file is not read.
    /// - Materials: name; the `diffuse` slot (else `albedo`) as the diffuse map, `normal` and
    ///   `specular` as maps, a Color in `albedo` or `diffuse` as the base colour (decoded to
    ///   linear when it is sRGB).
    /// - Animations: name, frame rate, looping; the mode of the first transform curve is the
    ///   animation's kind, and a channel of a bone whose curves have another mode has it as
    ///   [`BoneTrack::channel_kinds`] (Cast's `relative` is the scene's `Relative` for
    ///   translation and scale and `Additive` for rotation: rest rotation times key); `rq`
    ///   curves are rotation keys; `tx`/`ty`/`tz` and `sx`/`sy`/`sz`
    ///   curves are joined into translation and scale keys (on the union of their frames,
    ///   linearly interpolated, when they differ; a missing axis takes the bind pose's value
    ///   in absolute mode, else 0, and 1 for scale); a CurveModeOverride sets its node's
    ///   [`BoneTrack::channel_overrides`] for the channels its `ot`, `or`, `os` flags select
    ///   (the node and all its children); notification tracks are notes, sorted by frame (tracks in file
    ///   order within a frame); the frame count is the last key's frame plus one; blend-shape
    ///   weight (`bs`) curves are weight tracks. Visibility (`vb`) and any other curve is kept
    ///   whole as a
    ///   [`PropertyTrack`] (`format` [`PROPERTY_FORMAT`], `property` its `kp`, `data` a Cast
    ///   file holding just that curve), so it comes back when the scene is written as Cast.
    ///
    /// What the scene cannot hold is one line each in `report`: model names after the first, placements of
    /// later models that differ from the first's, bone scales other than 1,
    /// tangents, colour layers past a missing one, float colours that 8 bits do not hold, an
    /// unknown skinning method (`sm` `quaternion` is [`SkinBlend::DualQuaternion`]), metadata,
    /// material slots
    /// other than the four, additive blend weights, axes of one channel in different modes,
    /// skeletons inside animations, unknown nodes, undocumented and repeated properties.
    ///
    /// Cast stores its own frame rate, units and axes are the source's, so only
    /// [`SceneOptions::framerate`] matters, for an animation without `fr`. Fails on bone
    /// parents out of range or in a cycle, triangles that are not whole or name a vertex past
    /// the mesh, and skin weights naming a bone past the skeleton.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        self.scene_with(HashMap::new(), options, report)
    }

    /// [`CastFile::to_scene`] of a file no longer needed: the positions, normals and UV
    /// layers of its models' meshes move into the scene rather than being copied.
    pub fn into_scene(mut self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        let mut taken = HashMap::new();
        let models = self.roots.iter_mut().filter(|top| top.is(NodeKind::Root));
        for model in models
            .flat_map(|top| &mut top.children)
            .filter(|c| c.is(NodeKind::Model))
        {
            for mesh in model.children.iter_mut().filter(|c| c.is(NodeKind::Mesh)) {
                let arrays = MeshArrays::take_from(mesh);
                taken.insert(node_key(mesh), arrays);
            }
        }
        self.scene_with(taken, options, report)
    }

    /// The scene, with the mesh arrays already `taken` out of the file.
    fn scene_with(
        &self,
        taken: HashMap<usize, MeshArrays>,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Scene> {
        let mut b = Builder {
            scene: Scene::default(),
            report,
            unknown_nodes: 0,
            metadata: 0,
            animation_skeletons: 0,
            models: 0,
            taken_bytes: taken
                .iter()
                .map(|(&node, arrays)| (node, arrays.payload_size()))
                .collect(),
            taken,
            roots: &self.roots,
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
                } else if let Some(instance) = child.as_instance() {
                    let instance = hair::import_instance(instance, b.report, &mut b.unknown_nodes);
                    b.scene.instances.push(instance);
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
    /// The byte offset in the file of `node`'s first property called `name` (of the node's
    /// header when it has none), as the file is laid out: a Cast file's layout follows from
    /// its nodes, since every size in it is checked when it is read. 0 when the node is not
    /// in the file.
    fn offset_of(&self, node: &Node, name: &str) -> u64 {
        let mut at = FILE_HEADER_SIZE;
        for root in self.roots {
            if let Some(found) = self.find(root, node, at) {
                let properties = node.properties.iter().take_while(|p| p.name != name);
                return found + NODE_HEADER_SIZE + properties.map(property_size).sum::<u64>();
            }
            at += self.node_size(root);
        }
        0
    }

    /// The offset of `target` when it is `node` (at `at`) or below it.
    fn find(&self, node: &Node, target: &Node, at: u64) -> Option<u64> {
        if std::ptr::eq(node, target) {
            return Some(at);
        }
        let mut child_at = at + NODE_HEADER_SIZE + node.properties.iter().map(property_size).sum::<u64>();
        child_at += self.taken_bytes.get(&node_key(node)).copied().unwrap_or(0);
        for child in &node.children {
            if let Some(found) = self.find(child, target, child_at) {
                return Some(found);
            }
            child_at += self.node_size(child);
        }
        None
    }

    /// The bytes `node` takes in the file, its children's included.
    fn node_size(&self, node: &Node) -> u64 {
        NODE_HEADER_SIZE
            + node.properties.iter().map(property_size).sum::<u64>()
            + self.taken_bytes.get(&node_key(node)).copied().unwrap_or(0)
            + node.children.iter().map(|child| self.node_size(child)).sum::<u64>()
    }

    fn model(&mut self, typed: nodes::Model<'_>) -> Result<()> {
        let model = typed.node();
        lose_undocumented(model, NodeKind::Model, self.report);
        if let Some(name) = typed.name().filter(|n| !n.is_empty()) {
            if self.scene.name.is_empty() {
                self.scene.name = name.to_string();
            } else if self.scene.name != name {
                self.report.lose("model names after the first (the scene has one name)");
            }
        }
        let placement = Transform {
            translation: typed.position().map_or(Vec3::ZERO, widen3),
            rotation: typed.rotation().map_or(Quat::IDENTITY, widen_quat),
            scale: typed.scale().map_or(Vec3::ONE, widen3),
        };
        if self.models == 0 {
            self.scene.placement = placement;
        } else if placement != self.scene.placement {
            self.report
                .lose("model placements (p, r, s) that differ from the first model's (the scene has one placement)");
        }
        self.models += 1;
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
        let mut meshes_by_hash: HashMap<u64, usize> = HashMap::new();
        for child in &model.children {
            if let Some(mesh) = child.as_mesh() {
                let mesh = self.mesh(mesh, bone_offset, bone_count, model, &materials)?;
                meshes_by_hash.entry(child.hash).or_insert(self.scene.meshes.len());
                self.scene.meshes.push(mesh);
            } else if let Some(typed) = child.as_hair() {
                if let Some(hair) = hair::import_hair(typed, &materials, self.report) {
                    self.scene.hairs.push(hair);
                }
            }
        }
        blend::import_blend_shapes(typed, &meshes_by_hash, &mut self.scene.meshes, self.report);
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
                    return Err(refuse_at(
                        self.offset_of(typed.node(), "p"),
                        format!(
                            "bone {i} ({:?}) has parent {p} among {n} bones",
                            typed.name().unwrap_or_default()
                        ),
                    ));
                }
            });
        }
        // Named at the bone's `p`, where validate names it (the first bone on the cycle).
        if let Some(&i) = in_cycles(&parents).first() {
            return Err(refuse_at(
                self.offset_of(bones[i].node(), "p"),
                format!(
                    "bone {i} ({:?}) is its own ancestor (a parent cycle)",
                    bones[i].name().unwrap_or_default()
                ),
            ));
        }
        let has = |a: &str, b: &str| {
            bones
                .iter()
                .any(|bone| bone.node().property(a).is_some() || bone.node().property(b).is_some())
        };
        let has_local = has("lp", "lr");
        let has_world = has("wp", "wr");
        let mut skeleton_out = scene::Skeleton::default();
        for (typed, parent) in bones.iter().zip(&parents) {
            lose_undocumented(typed.node(), NodeKind::Bone, self.report);
            let pose = |p: Option<Vec3<f32>>, r: Option<Quat<f32>>| Transform {
                translation: p.map_or(Vec3::ZERO, widen3),
                rotation: r.map_or(Quat::IDENTITY, widen_quat),
                scale: Vec3::ONE,
            };
            skeleton_out.bones.push(scene::Bone {
                kind: Default::default(),
                name: typed.name().unwrap_or_default().to_string(),
                parent: *parent,
                local: pose(typed.local_position(), typed.local_rotation()),
                global: pose(typed.world_position(), typed.world_rotation()),
                cosmetic: false,
                // Cast's default is on (the format author's add-on: inherit-scale NONE).
                scale_compensate: typed.segment_scale_compensate().unwrap_or(true),
                // A bone's `s` is not part of the rest pose: Cast's consumers (the format
                // author's Blender add-on) build rest matrices from position and rotation
                // alone, so a parent's `s` never stretches its children's offsets, and they
                // read absolute scale keys relative to `s` (a key equal to `s` leaves the
                // skinned mesh as bound). The scene keeps it as the bone's rest scale and the
                // keys as the file has them; a pose divides by it.
                rest_scale: typed.scale().map_or(Vec3::ONE, widen3),
            });
        }
        if has_world && !has_local {
            skeleton_out.update_locals();
        } else if !has_world {
            skeleton_out.update_globals();
        }
        for child in &skeleton.node().children {
            match child.kind() {
                Some(NodeKind::Bone | NodeKind::IkHandle | NodeKind::Constraint) => {}
                _ => self.unknown_nodes += 1,
            }
        }
        rig::import_rig(skeleton, offset, &mut self.scene.skeleton, self.report);
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
        // In a map: a material may name any number of slots.
        let children = node.child_indices_by_hash();
        let child = |hash: u64| children.get(&hash).map(|&i| &node.children[i]);
        let file = |hash: u64| child(hash).and_then(|c| c.as_file()).and_then(|f| f.path());
        let color = |hash: u64| child(hash).and_then(|c| c.as_color());
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
        let mut taken = self.taken.remove(&node_key(node)).unwrap_or_default();
        let positions = owned(taken.positions, mesh.positions()).unwrap_or_default();
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
        let normals = match owned(taken.normals, mesh.normals()) {
            Some(n) if skip(self.report, "vn", n.len()) => n,
            _ => Vec::new(),
        };
        let layers = mesh
            .uv_layer_count()
            .unwrap_or_else(|| (0..).take_while(|&l| mesh.uv_layer(l).is_some()).count() as u32);
        let mut uv_layers: Vec<Vec<Vec2<f32>>> = Vec::new();
        for l in 0..layers {
            match owned(taken.uv_layers.remove(&l), mesh.uv_layer(l)) {
                Some(uv) if skip(self.report, &format!("u{l}"), uv.len()) => uv_layers.push(uv),
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
        // c1 ... c(cl-1), while each is present and whole (after a skipped first layer, none:
        // the scene's first layer is `colors`).
        let mut extra_color_layers = Vec::new();
        for l in 1..color_layers.unwrap_or(0) {
            if colors.is_empty() {
                self.report.lose("colour layers after a skipped first layer");
                break;
            }
            match mesh.color_layer(l) {
                Some(layer) if skip(self.report, &format!("c{l}"), layer.len()) => {
                    extra_color_layers.push(self.colors(layer));
                }
                _ => {
                    self.report.lose("colour layers past a missing one");
                    break;
                }
            }
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
        let blend = match mesh.skinning_method() {
            None | Some("linear") => SkinBlend::Linear,
            Some("quaternion") => SkinBlend::DualQuaternion,
            Some(other) => {
                self.report
                    .lose(format!("an unknown skinning method (sm {other:?}; skinned linearly)"));
                SkinBlend::Linear
            }
        };
        let skin = self
            .skin(&mesh, v, bone_offset, bone_count, &label)?
            .map(|skin| SkinWeights { blend, ..skin });
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
            extra_color_layers,
            skin,
            faces,
            materials: material,
            morph_targets: Vec::new(),
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
            skin: None,
            influences: influences as usize,
            bones: bones.into_iter().map(|b| b + bone_offset as u32).collect(),
            weights: weights.to_vec(),
            blend: Default::default(),
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
        let mut weights = Vec::new();
        for child in &node.children {
            if let Some(curve) = child.as_curve() {
                if let Some(frames) = curve.key_frames() {
                    last_frame = last_frame.max(frames.iter().max());
                }
                if curve.key_property() == Some(blend::WEIGHT_PROPERTY) {
                    if let Some(track) = blend::weight_track(curve, self.report) {
                        weights.push(track);
                        continue;
                    }
                }
                let kept = transform(curve.key_property()) && self.curve(curve, &mut tracks);
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
                // Each flag (default off) selects a channel the override covers, for the
                // named node and all of its children.
                let mode = mode_kind(cmov.mode(), self.report);
                let overrides = &mut tracks.get(cmov.node_name().unwrap_or_default()).track.channel_overrides;
                let mut second = false;
                for (flag, slot, rotation) in [
                    (cmov.override_translation(), &mut overrides.translation, false),
                    (cmov.override_rotation(), &mut overrides.rotation, true),
                    (cmov.override_scale(), &mut overrides.scale, false),
                ] {
                    if flag == Some(true) {
                        second |= slot.is_some();
                        *slot = Some(channel_kind(mode, rotation));
                    }
                }
                if second {
                    self.report
                        .lose("second curve mode overrides of one node and channel (the last is used)");
                }
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
        let mut out = scene::Animation {
            name: anim.name().unwrap_or_default().to_string(),
            framerate: anim.framerate().map_or_else(|| options.framerate_or(30.0), f64::from),
            frame_count: last_frame.map_or(0.0, |f| f64::from(f) + 1.0),
            looping: anim.looping().unwrap_or(false),
            kind,
            interpolation: Interpolation::Linear,
            bones: Vec::new(),
            notes,
            properties,
            weights,
        };
        // Each channel's own kind is its curves' mode; what a key means also depends on the
        // overrides above it, so the keys are read once every track's kinds are known.
        for t in &mut tracks.list {
            let [translation, rotation, scale] = t.modes;
            let own =
                |mode: Option<AnimKind>, rotation: bool| mode.map(|m| channel_kind(m, rotation)).filter(|&k| k != kind);
            t.track.channel_kinds = ChannelKinds {
                translation: own(translation, false),
                rotation: own(rotation, true),
                scale: own(scale, false),
            };
        }
        out.bones = tracks.list.iter().map(|t| t.track.clone()).collect();
        let effective = pose::channel_kinds(&out, &self.scene.skeleton);
        // Which channels an override covers: resolved again without the curves' own modes
        // and with a kind no Cast mode gives (delta), whatever resolves to another kind is
        // an override's.
        let overrides_only = scene::Animation {
            kind: AnimKind::Delta,
            bones: out
                .bones
                .iter()
                .map(|t| BoneTrack {
                    bone: t.bone.clone(),
                    channel_overrides: t.channel_overrides,
                    ..BoneTrack::default()
                })
                .collect(),
            ..scene::Animation::default()
        };
        let overridden = pose::channel_kinds(&overrides_only, &self.scene.skeleton);
        // Each track's bone, found by name in a map: a search of the bones per track was
        // quadratic.
        let skeleton = &self.scene.skeleton;
        let bone_of = skeleton.indices_by_name();
        out.bones = tracks
            .list
            .into_iter()
            .zip(effective)
            .zip(overridden)
            .map(|((t, kinds), over)| {
                let overridden = [over.translation, over.scale].map(|k| k != AnimKind::Delta);
                let bone = bone_of.get(t.track.bone.as_str()).copied();
                t.finish(kinds, overridden, (skeleton, bone), self.report)
            })
            .collect();
        Ok(out)
    }

    /// Takes a transform curve into its bone's track; `false` (the curve then travels
    /// whole) when it does not decode as its property or repeats one.
    fn curve<'a>(&mut self, curve: nodes::Curve<'a>, tracks: &mut Tracks<'a>) -> bool {
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
            let channel = match kp {
                "rq" => 1,
                "tx" | "ty" | "tz" => 0,
                _ => 2,
            };
            let mode = mode_kind(curve.mode(), self.report);
            // The first curve of a channel gives its kind; an axis in another mode is
            // rewritten into it once the rest pose is known (`TrackCurves::finish`).
            track.modes[channel].get_or_insert(mode);
            if channel != 1 {
                track.axis_modes[channel / 2][axis(kp)] = Some(mode);
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
    /// The Cast mode of the first curve of each channel: translation, rotation, scale.
    modes: [Option<AnimKind>; 3],
    /// The Cast mode of each axis curve of translation and of scale.
    axis_modes: [[Option<AnimKind>; 3]; 2],
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
                modes: [None; 3],
                axis_modes: [[None; 3]; 2],
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
    /// The track with its keys, read under the kinds that apply to it (`kinds`): a missing
    /// translation axis takes the bind pose's value when absolute, else 0; a missing scale
    /// axis is 1 (absolute: the bone's rest scale `s`); absolute scale keys stay as the file
    /// has them, measured against the bone's [`scene::Bone::rest_scale`]. `bone` is the
    /// track's bone in `skeleton`, if it has one.
    fn finish(
        self,
        kinds: TrackKinds,
        overridden: [bool; 2],
        (skeleton, bone): (&scene::Skeleton, Option<usize>),
        report: &mut ConversionReport,
    ) -> BoneTrack {
        let mut track = self.track;
        if let Some((frames, values)) = self.rotation {
            track.rotation = frames
                .iter()
                .zip(values)
                .map(|(&f, q)| Key::new(f64::from(f), Quat::new(q.x, q.y, q.z, q.w).map(f64::from)))
                .collect();
        }
        let rest = match (kinds.translation, bone) {
            (AnimKind::Absolute, Some(b)) => skeleton.bones[b].local.translation,
            _ => Vec3::ZERO,
        };
        track.translation = join_axes(&self.translation, rest, report).into();
        let lp = bone.map_or(Vec3::ZERO, |b| skeleton.bones[b].local.translation);
        let s = bone.map_or(Vec3::ONE, |b| skeleton.bones[b].rest_scale);
        let rest_scale = match (kinds.scale, bone) {
            (AnimKind::Absolute, Some(_)) => s,
            _ => Vec3::ONE,
        };
        track.scale = join_axes(&self.scale, rest_scale, report).into();
        // An axis whose mode differs from its channel's (the first axis's) is rewritten into
        // the channel's mode, unless an override covers the channel (then no curve's mode
        // counts). Relative and additive read an axis alike: translation rest + key, scale
        // a factor of the rest scale; absolute is the value itself (a scale relative to `s`).
        let absolute = |m: Option<AnimKind>| m == Some(AnimKind::Absolute);
        for (c, keys) in [(0, &mut track.translation), (1, &mut track.scale)] {
            let own = self.modes[if c == 0 { 0 } else { 2 }];
            if overridden[c] || own.is_none() {
                continue;
            }
            for (axis, mode) in self.axis_modes[c].iter().enumerate() {
                if mode.is_none() || absolute(*mode) == absolute(own) {
                    continue;
                }
                let rest = [[lp.x, lp.y, lp.z], [s.x, s.y, s.z]][c][axis];
                // (factor, offset) taking the axis's value into the channel's mode.
                let (factor, offset) = match (c, absolute(own)) {
                    (0, true) => (1.0, rest),
                    (0, false) => (1.0, -rest),
                    (_, true) => (rest, 0.0),
                    (_, false) => (if rest == 0.0 { 0.0 } else { 1.0 / rest }, 0.0),
                };
                keys.map_values(|mut value| {
                    let v = match axis {
                        0 => &mut value.x,
                        1 => &mut value.y,
                        _ => &mut value.z,
                    };
                    *v = *v * factor + offset;
                    value
                });
            }
        }
        track
    }
}

/// The scene kind a Cast mode gives one channel: the same, except that a relative rotation
/// is the rest rotation times the key (the spec: "added to the rest position value", and the
/// format author's add-on), which is the scene's additive rotation rule, not its relative one
/// (SEAnim's, where the key is the rotation).
fn channel_kind(mode: AnimKind, rotation: bool) -> AnimKind {
    match mode {
        AnimKind::Relative if rotation => AnimKind::Additive,
        other => other,
    }
}

/// The value of an axis curve at `frame`: linear between keys, held before the first and
/// after the last; 0 without keys.
fn sample(keys: &[(u32, f32)], frame: u32) -> f64 {
    match key_span(keys, f64::from(frame)) {
        Some(KeySpan::Hold(v)) => f64::from(v),
        Some(KeySpan::Between(a, b, t)) => f64::from(a) + (f64::from(b) - f64::from(a)) * t,
        None => 0.0,
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

#[cfg(test)]
mod tests {
    use super::*;

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
