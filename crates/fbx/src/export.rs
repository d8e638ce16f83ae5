//! Scene -> FBX: [`build`] makes the tree of records of a binary FBX 7.4 file from a scene.
//!
//! Every node of the scene becomes a `Model` (`LimbNode` for a bone, `Null` for a plain
//! node) with its `Lcl Translation`, `Lcl Rotation` (degrees, order XYZ) and `Lcl Scaling`
//! and a `NodeAttribute` of its kind; each mesh a `Geometry` under a `Model` of its own (at
//! the root when it is skinned or in model space, under the node that places it otherwise);
//! materials, textures and embedded images `Material`, `Texture` and `Video` objects; skin
//! weights a `Skin` deformer with one `Cluster` per weighted bone, and a `BindPose`; morph
//! targets a `BlendShape` with a `BlendShapeChannel` and a `Shape` each; each animation an
//! `AnimationStack` with one `AnimationLayer`, curve nodes `T`, `R`, `S` and
//! `DeformPercent` and their curves. `Connections` tie them together.

use std::collections::BTreeMap;

use animbin_core::math::{Mat4, Quat, Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{
    AnimKind, Animation, Bone, ConversionReport, Interpolation, KeyValue, Keys, LightKind, Mesh, NodeKind, Projection,
    Scene,
};

use crate::error::{self, Result};
use crate::euler;
use crate::node::{Document, Node, Property};

/// FBX time: ticks per second (`KTime`).
pub const TICKS_PER_SECOND: f64 = 46_186_158_000.0;

/// The `FileId` that goes with [`crate::node::FOOTER_ID`] and [`CREATION_TIME`].
const FILE_ID: [u8; 16] = [
    0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1,
];

/// The `CreationTime` that goes with [`FILE_ID`].
const CREATION_TIME: &str = "1970-01-01 10:00:00:000";

/// `KeyAttrFlags` of linear keys (`eInterpolationLinear`).
const LINEAR: i32 = 0x4;
/// `KeyAttrFlags` of keys held until the next (`eInterpolationConstant`).
const CONSTANT: i32 = 0x2;

/// How a scene is written as FBX.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WriteOptions {
    /// The file version: 7400 (32-bit offsets) or 7500 (64-bit offsets, for files past
    /// 4 GiB).
    pub version: u32,
    /// Keep only the source's rotation keys: no keys are added where linear Euler
    /// interpolation leaves the slerp between two keys ([`euler::TOLERANCE`]).
    pub exact_rotation_keys: bool,
    /// The scene is Z-up (`GlobalSettings` `UpAxis` 2, front -Y), else Y-up (front +Z).
    pub z_up: bool,
    /// Metres per scene unit (`UnitScaleFactor` is centimetres per unit: 100 times this).
    pub unit_scale: f64,
}

impl Default for WriteOptions {
    fn default() -> Self {
        Self {
            version: 7400,
            exact_rotation_keys: false,
            z_up: false,
            unit_scale: 1.0,
        }
    }
}

impl WriteOptions {
    /// The options that [`animbin_core::SceneOptions`] give: the up axis and the unit.
    pub fn from_scene_options(options: &animbin_core::SceneOptions) -> Self {
        Self {
            z_up: options.z_up,
            unit_scale: options.unit_scale,
            ..Self::default()
        }
    }
}

/// A property of a `Properties70` list: `P: name, type, label, flags, values...`.
fn p(name: &str, kind: &str, label: &str, flags: &str, values: Vec<Property>) -> Node {
    let mut properties = vec![s(name), s(kind), s(label), s(flags)];
    properties.extend(values);
    Node::new("P", properties)
}

fn s(text: &str) -> Property {
    Property::String(text.to_string())
}

fn i(value: i32) -> Property {
    Property::I32(value)
}

fn d(value: f64) -> Property {
    Property::F64(value)
}

fn properties70(children: Vec<Node>) -> Node {
    Node {
        name: "Properties70".into(),
        properties: Vec::new(),
        children,
    }
}

/// A record with one property.
fn leaf(name: &str, value: Property) -> Node {
    Node::new(name, vec![value])
}

/// A matrix as FBX stores it: 16 doubles, column by column (translation last).
fn matrix(m: &Mat4<f64>) -> Property {
    Property::F64Array((0..4).flat_map(|c| (0..4).map(move |r| m.rows[r][c])).collect())
}

/// An object's name as binary FBX stores it: `name\0\x01Class`.
fn object_name(name: &str, class: &str) -> Property {
    Property::String(format!("{name}\0\x01{class}"))
}

/// A time in frames at `framerate` as FBX ticks.
fn ticks(frame: f64, framerate: f64, what: &dyn Fn() -> String) -> Result<i64> {
    let t = (frame / framerate * TICKS_PER_SECOND).round();
    if !t.is_finite() || t.abs() >= 9.2e18 {
        return Err(error::unencodable(format!("{}: a key at frame {frame}", what())));
    }
    Ok(t as i64)
}

/// The `TimeMode` of a frame rate (`KTime::EMode`), and whether it is the custom one.
fn time_mode(framerate: f64) -> i32 {
    const MODES: [(f64, i32); 13] = [
        (120.0, 1),
        (100.0, 2),
        (60.0, 3),
        (50.0, 4),
        (48.0, 5),
        (30.0, 6),
        (30_000.0 / 1001.0, 9),
        (25.0, 10),
        (24.0, 11),
        (1000.0, 12),
        (24_000.0 / 1001.0, 13),
        (96.0, 15),
        (72.0, 16),
    ];
    MODES
        .iter()
        .find(|(rate, _)| (rate - framerate).abs() < 1e-6)
        .map_or(14, |&(_, mode)| mode)
}

/// The objects and connections being built, and the ids handed out.
struct Objects {
    next_id: i64,
    objects: Vec<Node>,
    connections: Vec<Node>,
    /// How many objects of each record name, for `Definitions`.
    counts: BTreeMap<String, usize>,
}

impl Objects {
    fn id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// Adds an object record `record` (`Model`, `Geometry`...) named `name` of class `class`
    /// and sub-class `subclass`, and returns its id.
    fn add(&mut self, record: &str, name: &str, class: &str, subclass: &str, children: Vec<Node>) -> i64 {
        let id = self.id();
        self.objects.push(Node {
            name: record.to_string(),
            properties: vec![Property::I64(id), object_name(name, class), s(subclass)],
            children,
        });
        *self.counts.entry(record.to_string()).or_default() += 1;
        id
    }

    /// An object-to-object connection: `child` belongs to `parent` (0 is the root).
    fn oo(&mut self, child: i64, parent: i64) {
        self.connections.push(Node::new(
            "C",
            vec![s("OO"), Property::I64(child), Property::I64(parent)],
        ));
    }

    /// An object-to-property connection: `child` drives `parent`'s property `property`.
    fn op(&mut self, child: i64, parent: i64, property: &str) {
        self.connections.push(Node::new(
            "C",
            vec![s("OP"), Property::I64(child), Property::I64(parent), s(property)],
        ));
    }
}

/// The scene's nodes' transforms in model space (through [`pose::compose`], which keeps a
/// bone that does not inherit scale as FBX's `InheritType` 2 does).
fn node_globals(scene: &Scene) -> Vec<Transform> {
    let mut skeleton = scene.skeleton.clone();
    skeleton.update_globals();
    skeleton.bones.into_iter().map(|b| b.global).collect()
}

/// Radians to degrees, per angle.
fn degrees(e: [f64; 3]) -> [f64; 3] {
    e.map(f64::to_degrees)
}

/// The three `Lcl` properties of a local transform, and the rotation's Euler angles.
fn lcl_properties(local: &Transform, inherit: i32) -> Vec<Node> {
    let t = local.translation;
    let r = degrees(euler::to_euler(local.rotation, 0.0));
    let sc = local.scale;
    vec![
        p("InheritType", "enum", "", "", vec![i(inherit)]),
        p("DefaultAttributeIndex", "int", "Integer", "", vec![i(0)]),
        p(
            "Lcl Translation",
            "Lcl Translation",
            "",
            "A",
            vec![d(t.x), d(t.y), d(t.z)],
        ),
        p("Lcl Rotation", "Lcl Rotation", "", "A", vec![d(r[0]), d(r[1]), d(r[2])]),
        p("Lcl Scaling", "Lcl Scaling", "", "A", vec![d(sc.x), d(sc.y), d(sc.z)]),
    ]
}

/// A `Model` record's children.
fn model_children(local: &Transform, inherit: i32) -> Vec<Node> {
    vec![
        leaf("Version", i(232)),
        properties70(lcl_properties(local, inherit)),
        leaf("Shading", Property::Bool(true)),
        leaf("Culling", s("CullingOff")),
    ]
}

/// Builds the FBX document of `scene`, recording in `report` what FBX (or this writer)
/// cannot hold.
pub fn build(scene: &Scene, options: &WriteOptions, report: &mut ConversionReport) -> Result<Document> {
    if !(options.unit_scale.is_finite() && options.unit_scale > 0.0) {
        return Err(error::unencodable(format!(
            "a unit scale of {} (it must be finite and above zero)",
            options.unit_scale
        )));
    }
    lose_what_fbx_cannot_hold(scene, report);
    let with_track_nodes;
    let scene = match track_nodes(scene) {
        None => scene,
        Some(extended) => {
            report.lose(format!(
                "the hierarchy of {} animated bones that the input has no skeleton for (written as root bones \
                 resting at their first keys; give the model too for its skeleton)",
                extended.skeleton.bones.len() - scene.skeleton.bones.len()
            ));
            with_track_nodes = extended;
            &with_track_nodes
        }
    };
    let mut o = Objects {
        next_id: 1_000_000,
        objects: Vec::new(),
        connections: Vec::new(),
        counts: BTreeMap::new(),
    };
    let bones = &scene.skeleton.bones;
    let globals = node_globals(scene);

    // The scene's placement (a Cast Model node's `p`, `r`, `s`): a Null above everything,
    // as glTF's root node holds it, so that what sits at the root sits where it is placed.
    let root = if scene.placement == Transform::IDENTITY {
        0
    } else {
        let name = if scene.name.is_empty() {
            "placement"
        } else {
            scene.name.as_str()
        };
        let id = o.add("Model", name, "Model", "Null", model_children(&scene.placement, 1));
        let attribute = o.add(
            "NodeAttribute",
            name,
            "NodeAttribute",
            "Null",
            vec![leaf("TypeFlags", s("Null"))],
        );
        o.oo(attribute, id);
        o.oo(id, 0);
        id
    };

    // Nodes: a Model and its attribute each, children after their parents' connection.
    let mut node_ids = Vec::with_capacity(bones.len());
    for bone in bones {
        let (class, flags) = if bone.kind.is_bone() {
            ("LimbNode", "Skeleton")
        } else {
            ("Null", "Null")
        };
        let inherit = if bone.scale_compensate { 2 } else { 1 };
        let id = o.add(
            "Model",
            &bone.name,
            "Model",
            class,
            model_children(&bone.local, inherit),
        );
        let attribute = o.add(
            "NodeAttribute",
            &bone.name,
            "NodeAttribute",
            class,
            vec![leaf("TypeFlags", s(flags))],
        );
        o.oo(attribute, id);
        node_ids.push(id);
    }
    for (b, bone) in bones.iter().enumerate() {
        let parent = bone
            .parent
            .filter(|&p| p < bones.len() && p != b)
            .map_or(root, |p| node_ids[p]);
        o.oo(node_ids[b], parent);
    }

    // Cameras and lights, each on a Model of its own under the node that places it.
    cameras_and_lights(scene, &node_ids, &mut o);

    // Materials and their textures.
    let material_ids = materials(scene, &mut o);

    // Meshes.
    let mut pose_nodes: Vec<(i64, Mat4<f64>)> = Vec::new();
    let bind_matrices = bind_matrices(scene, &globals);
    let placement_matrix = scene.placement.to_matrix();
    let mut channels: Vec<(String, i64)> = Vec::new();
    for (m, mesh) in scene.meshes.iter().enumerate() {
        let name = if mesh.name.is_empty() {
            format!("mesh{m}")
        } else {
            mesh.name.clone()
        };
        let geometry = o.add("Geometry", &name, "Geometry", "Mesh", geometry_children(mesh)?);
        // Where the mesh's Model goes: under each node that places it, unless it is skinned
        // (its vertices are then in the space its skin binds them in: the root's).
        let placed: Vec<usize> = scene
            .mesh_instances
            .iter()
            .filter(|instance| instance.meshes.contains(&m) && instance.node < bones.len())
            .map(|instance| instance.node)
            .collect();
        let parents: Vec<i64> = if mesh.skin.is_some() || placed.is_empty() {
            vec![root]
        } else {
            placed.iter().map(|&n| node_ids[n]).collect()
        };
        // A skinned mesh's Model sits where its skin binds it: the rest matrix of a joint
        // times that joint's inverse bind matrix (the identity where the skin binds at the
        // rest pose), so that importers which place the mesh by its Model (Blender's) and
        // those which skin it by the clusters (ufbx) agree.
        let placement = mesh
            .skin
            .as_ref()
            .and_then(|skin| {
                let joint = skin
                    .bones
                    .iter()
                    .zip(&skin.weights)
                    .find(|(b, w)| **w != 0.0 && (**b as usize) < bones.len())?
                    .0;
                let to_bone = bind_matrices.to_bone(skin.skin, *joint as usize)?;
                // In model space: the Model sits under the placement.
                let world = bind_matrices.model_rest(*joint as usize).multiply(&to_bone);
                Transform::from_matrix(&world).filter(|t| close(&t.to_matrix(), &world))
            })
            .unwrap_or(Transform::IDENTITY);
        for parent in parents {
            let model = o.add("Model", &name, "Model", "Mesh", model_children(&placement, 1));
            o.oo(geometry, model);
            o.oo(model, parent);
            if let Some(&material) = mesh
                .materials
                .first()
                .copied()
                .flatten()
                .and_then(|mi| material_ids.get(mi))
            {
                o.oo(material, model);
            }
            if mesh.skin.is_some() {
                pose_nodes.push((model, placement_matrix.multiply(&placement.to_matrix())));
            }
        }
        if let Some(skin) = &mesh.skin {
            let deformer = o.add(
                "Deformer",
                &name,
                "Deformer",
                "Skin",
                vec![
                    leaf("Version", i(101)),
                    leaf("Link_DeformAcuracy", d(50.0)),
                    leaf(
                        "SkinningType",
                        s(if skin.blend.is_linear() {
                            "Linear"
                        } else {
                            "DualQuaternion"
                        }),
                    ),
                ],
            );
            o.oo(deformer, geometry);
            let mut per_bone: BTreeMap<usize, (Vec<i32>, Vec<f64>)> = BTreeMap::new();
            let influences = skin.influences.max(1);
            for (v, (slots, weights)) in skin
                .bones
                .chunks(influences)
                .zip(skin.weights.chunks(influences))
                .enumerate()
                .take(mesh.positions.len())
            {
                for (&bone, &weight) in slots.iter().zip(weights) {
                    if weight != 0.0 && (bone as usize) < bones.len() {
                        let entry = per_bone.entry(bone as usize).or_default();
                        entry.0.push(v as i32);
                        entry.1.push(weight.into());
                    }
                }
            }
            for (bone, (indexes, weights)) in per_bone {
                let link = bind_matrices.rest(bone);
                let Some(to_bone) = bind_matrices.to_bone(skin.skin, bone) else {
                    return Err(error::unencodable(format!(
                        "mesh {name:?}: bone {:?}'s rest matrix, which has no inverse",
                        bones[bone].name
                    )));
                };
                let cluster = o.add(
                    "Deformer",
                    &bones[bone].name,
                    "SubDeformer",
                    "Cluster",
                    vec![
                        leaf("Version", i(100)),
                        Node::new("UserData", vec![s(""), s("")]),
                        leaf("Indexes", Property::I32Array(indexes)),
                        leaf("Weights", Property::F64Array(weights)),
                        leaf("Transform", matrix(&to_bone)),
                        leaf("TransformLink", matrix(&link)),
                        leaf(
                            "TransformAssociateModel",
                            matrix(&armature_rest(bones, &bind_matrices, bone)),
                        ),
                    ],
                );
                o.oo(cluster, deformer);
                o.oo(node_ids[bone], cluster);
            }
        }
        if !mesh.morph_targets.is_empty() {
            let blend = o.add(
                "Deformer",
                &name,
                "Deformer",
                "BlendShape",
                vec![leaf("Version", i(100))],
            );
            o.oo(blend, geometry);
            for target in &mesh.morph_targets {
                let channel = o.add(
                    "Deformer",
                    &target.name,
                    "SubDeformer",
                    "BlendShapeChannel",
                    vec![
                        leaf("Version", i(100)),
                        leaf("DeformPercent", d(f64::from(target.default_weight) * 100.0)),
                        leaf("FullWeights", Property::F64Array(vec![100.0])),
                    ],
                );
                o.oo(channel, blend);
                let mut shape = vec![
                    leaf("Version", i(100)),
                    leaf(
                        "Indexes",
                        Property::I32Array(target.indices.iter().map(|&v| v as i32).collect()),
                    ),
                    leaf("Vertices", vec3s(&target.position_deltas)),
                ];
                if !target.normal_deltas.is_empty() {
                    shape.push(leaf("Normals", vec3s(&target.normal_deltas)));
                }
                let shape = o.add("Geometry", &target.name, "Geometry", "Shape", shape);
                o.oo(shape, channel);
                channels.push((target.name.clone(), channel));
            }
        }
    }

    // The bind pose: every bone's model-space matrix at bind time, and the skinned meshes'.
    // Written for a skeleton without a mesh too: Blender's ufbx-based importer
    // (wm.fbx_import) turns animated root bones into its axes only when a bind pose names them.
    if scene.meshes.iter().any(|m| m.skin.is_some()) || bones.iter().any(|b| b.kind.is_bone()) {
        if root != 0 {
            pose_nodes.push((root, placement_matrix));
        }
        for (b, &id) in node_ids.iter().enumerate() {
            pose_nodes.push((id, bind_matrices.rest(b)));
        }
        let mut children = vec![
            leaf("Type", s("BindPose")),
            leaf("Version", i(100)),
            leaf("NbPoseNodes", i(pose_nodes.len() as i32)),
        ];
        for (id, m) in &pose_nodes {
            children.push(Node {
                name: "PoseNode".into(),
                properties: Vec::new(),
                children: vec![leaf("Node", Property::I64(*id)), leaf("Matrix", matrix(m))],
            });
        }
        o.add("Pose", "BindPose", "Pose", "BindPose", children);
    }

    // Animations.
    let mut takes = Vec::new();
    for animation in &scene.animations {
        takes.push(animation_stack(
            scene, animation, &node_ids, &channels, options, &mut o, report,
        )?);
    }

    Ok(Document {
        version: options.version,
        nodes: document_records(scene, options, o, takes),
    })
}

/// `scene` with a root bone for each track name no node has (an animation without its
/// skeleton: FBX keys nodes, so each track needs one), resting at its first keys where the
/// animation is absolute; `None` when every track finds its node.
fn track_nodes(scene: &Scene) -> Option<Scene> {
    let known = scene.skeleton.indices_by_name();
    let mut added: Vec<Bone> = Vec::new();
    let mut names = std::collections::HashSet::new();
    for animation in &scene.animations {
        let absolute = animation.kind == AnimKind::Absolute;
        for track in &animation.bones {
            if known.contains_key(track.bone.as_str()) || !names.insert(track.bone.as_str()) {
                continue;
            }
            let mut local = Transform::IDENTITY;
            if absolute && track.kind_override.is_none() && track.channel_kinds.is_empty() {
                if let Some(k) = track.translation.first() {
                    local.translation = k.value;
                }
                if let Some(k) = track.rotation.first() {
                    local.rotation = k.value.normalized();
                }
                if let Some(k) = track.scale.first() {
                    local.scale = k.value;
                }
            }
            added.push(Bone {
                name: track.bone.clone(),
                parent: None,
                local,
                global: local,
                cosmetic: track.cosmetic,
                scale_compensate: false,
                rest_scale: Vec3::ONE,
                kind: NodeKind::Bone,
            });
        }
    }
    if added.is_empty() {
        return None;
    }
    let mut extended = scene.clone();
    extended.skeleton.bones.extend(added);
    Some(extended)
}

/// The rest matrix of the node that holds `bone`'s chain of bones (the parent of its topmost
/// bone ancestor; the placement when that bone is a root): a cluster's
/// `TransformAssociateModel`. Blender's importer makes that node the armature and places the
/// skinned mesh by its bind matrix (`TransformLink * Transform`) relative to this one, taking
/// the identity when it is missing: a mesh under an armature below a moved node was then
/// placed twice.
fn armature_rest(bones: &[Bone], bind_matrices: &BindMatrices, bone: usize) -> Mat4<f64> {
    let mut top = bone;
    // Bounded by the bone count: a malformed parent cycle cannot loop forever.
    for _ in 0..bones.len() {
        match bones[top].parent.filter(|&p| p < bones.len() && p != top) {
            Some(parent) if bones[parent].kind.is_bone() => top = parent,
            Some(parent) => return bind_matrices.rest(parent),
            None => break,
        }
    }
    // A root chain hangs from the placement's Null (the identity without one).
    bind_matrices.placement
}

/// Whether two matrices agree to 1e-9 of their size (a transform that gives back its
/// matrix: no shear lost).
fn close(a: &Mat4<f64>, b: &Mat4<f64>) -> bool {
    a.close_to(b, 1e-9)
}

/// The matrices of a skin's clusters: each node's model-space rest matrix, and where a skin
/// gives a joint's inverse bind matrix, that matrix exactly.
struct BindMatrices {
    /// The scene's placement, above every node.
    placement: Mat4<f64>,
    /// Each node's matrix at rest in model space (under the placement).
    globals: Vec<Mat4<f64>>,
    /// Per skin, the inverse bind matrix of each of its joints by node.
    skins: Vec<BTreeMap<usize, Mat4<f64>>>,
}

impl BindMatrices {
    /// Node `node`'s world matrix at rest, the placement included (a cluster's
    /// `TransformLink`, a pose node's `Matrix`).
    fn rest(&self, node: usize) -> Mat4<f64> {
        self.placement.multiply(&self.globals[node])
    }

    /// Node `node`'s matrix at rest in model space, under the placement.
    fn model_rest(&self, node: usize) -> Mat4<f64> {
        self.globals[node]
    }

    /// What takes a vertex of a mesh bound by skin `skin` into node `node`'s space (a
    /// cluster's `Transform`): the skin's inverse bind matrix, else the inverse of the rest
    /// matrix. Blender's importer reads `TransformLink * Transform` as the mesh's bind
    /// matrix, ufbx `Transform` as the mesh-to-bone matrix: both hold.
    fn to_bone(&self, skin: Option<usize>, node: usize) -> Option<Mat4<f64>> {
        skin.and_then(|s| self.skins.get(s))
            .and_then(|joints| joints.get(&node))
            .copied()
            .or_else(|| self.globals[node].inverse_affine())
    }
}

fn bind_matrices(scene: &Scene, globals: &[Transform]) -> BindMatrices {
    let skins = scene
        .skins
        .iter()
        .map(|skin| {
            skin.joints
                .iter()
                .copied()
                .zip(skin.inverse_bind_matrices.iter().copied())
                .collect()
        })
        .collect();
    BindMatrices {
        placement: scene.placement.to_matrix(),
        globals: globals.iter().map(|g| g.to_matrix()).collect(),
        skins,
    }
}

fn vec3s(values: &[Vec3<f32>]) -> Property {
    let mut out = Vec::with_capacity(values.len() * 3);
    for v in values {
        out.extend_from_slice(&[v.x, v.y, v.z].map(f64::from));
    }
    Property::F64Array(out)
}

/// A layer element record with its version, name and mapping, then `data`.
fn layer_element(kind: &str, index: i32, name: &str, mapping: &str, reference: &str, data: Vec<Node>) -> Node {
    let mut children = vec![
        leaf("Version", i(101)),
        leaf("Name", s(name)),
        leaf("MappingInformationType", s(mapping)),
        leaf("ReferenceInformationType", s(reference)),
    ];
    children.extend(data);
    Node {
        name: kind.to_string(),
        properties: vec![i(index)],
        children,
    }
}

/// The children of a mesh's `Geometry`: vertices, polygons and layer elements.
fn geometry_children(mesh: &Mesh) -> Result<Vec<Node>> {
    let vertex_count = mesh.positions.len();
    let mut polygon_vertices = Vec::with_capacity(mesh.faces.len() * 3);
    for face in &mesh.faces {
        if face.iter().any(|&v| v as usize >= vertex_count) || vertex_count > i32::MAX as usize {
            return Err(error::unencodable(format!(
                "mesh {:?}: a face {face:?} of vertices past its {vertex_count}",
                mesh.name
            )));
        }
        // The last vertex of each polygon is stored as its bitwise complement.
        polygon_vertices.extend([face[0] as i32, face[1] as i32, !(face[2] as i32)]);
    }
    let corners: Vec<i32> = mesh.faces.iter().flatten().map(|&v| v as i32).collect();
    let mut children = vec![
        leaf("GeometryVersion", i(124)),
        leaf("Vertices", vec3s(&mesh.positions)),
        leaf("PolygonVertexIndex", Property::I32Array(polygon_vertices)),
    ];
    let mut layers: Vec<Vec<(&str, i32)>> = vec![Vec::new()];
    if mesh.normals.len() == vertex_count && vertex_count > 0 {
        children.push(layer_element(
            "LayerElementNormal",
            0,
            "",
            "ByVertice",
            "Direct",
            vec![leaf("Normals", vec3s(&mesh.normals))],
        ));
        layers[0].push(("LayerElementNormal", 0));
    }
    for (k, uvs) in mesh
        .uv_layers
        .iter()
        .enumerate()
        .filter(|(_, uvs)| uvs.len() == vertex_count)
    {
        let name = if k == 0 {
            "UVMap".to_string()
        } else {
            format!("UVMap{k}")
        };
        // FBX's V grows upwards; the scene's (glTF's, the game formats') downwards.
        let values = uvs
            .iter()
            .flat_map(|uv| [f64::from(uv.x), 1.0 - f64::from(uv.y)])
            .collect();
        children.push(layer_element(
            "LayerElementUV",
            k as i32,
            &name,
            "ByPolygonVertex",
            "IndexToDirect",
            vec![
                leaf("UV", Property::F64Array(values)),
                leaf("UVIndex", Property::I32Array(corners.clone())),
            ],
        ));
        layer(&mut layers, k).push(("LayerElementUV", k as i32));
    }
    let color_layers = std::iter::once(&mesh.colors).chain(&mesh.extra_color_layers);
    for (k, colors) in color_layers
        .enumerate()
        .filter(|(_, c)| c.len() == vertex_count && vertex_count > 0)
    {
        let values = colors
            .iter()
            .flat_map(|c| [c.r, c.g, c.b, c.a].map(|v| f64::from(v) / 255.0))
            .collect();
        children.push(layer_element(
            "LayerElementColor",
            k as i32,
            &format!("Col{k}"),
            "ByPolygonVertex",
            "IndexToDirect",
            vec![
                leaf("Colors", Property::F64Array(values)),
                leaf("ColorIndex", Property::I32Array(corners.clone())),
            ],
        ));
        layer(&mut layers, k).push(("LayerElementColor", k as i32));
    }
    if mesh.materials.first().copied().flatten().is_some() {
        children.push(layer_element(
            "LayerElementMaterial",
            0,
            "",
            "AllSame",
            "IndexToDirect",
            vec![leaf("Materials", Property::I32Array(vec![0]))],
        ));
        layers[0].push(("LayerElementMaterial", 0));
    }
    for (k, elements) in layers.iter().enumerate() {
        let mut layer = Node {
            name: "Layer".into(),
            properties: vec![i(k as i32)],
            children: vec![leaf("Version", i(100))],
        };
        for (kind, index) in elements {
            layer.children.push(Node {
                name: "LayerElement".into(),
                properties: Vec::new(),
                children: vec![leaf("Type", s(kind)), leaf("TypedIndex", i(*index))],
            });
        }
        children.push(layer);
    }
    Ok(children)
}

/// The `k`th layer's element list, made when missing.
fn layer<'a, 'b>(layers: &'b mut Vec<Vec<(&'a str, i32)>>, k: usize) -> &'b mut Vec<(&'a str, i32)> {
    if layers.len() <= k {
        layers.resize(k + 1, Vec::new());
    }
    &mut layers[k]
}

/// The file extension of an embedded image, from its MIME type or its bytes.
fn image_extension(texture: &animbin_core::scene::Texture) -> &'static str {
    let mime = if texture.mime_type.is_empty() {
        animbin_core::images::image_mime_type(&texture.data).unwrap_or("")
    } else {
        texture.mime_type.as_str()
    };
    match mime {
        "image/jpeg" => "jpg",
        "image/webp" => "webp",
        _ => "png",
    }
}

/// A camera's far plane where the scene's is infinite: FBX stores a distance.
pub const INFINITE_FAR: f64 = 1.0e6;

/// Watts per candela of a point or spot light as Blender's glTF importer converts them
/// (4 pi / 683): the unit of FBX's `Intensity` (per cent of a watt) in Blender, Maya and
/// ufbx, so that Blender's FBX import shows the energy its glTF import of the same light does.
pub const WATTS_PER_CANDELA: f64 = 4.0 * std::f64::consts::PI / 683.0;

/// The long side of the film of a written camera, in millimetres (35 mm film, three.js's
/// film gauge): the focal length follows from it and the field of view.
pub const FILM_GAUGE_MM: f64 = 35.0;

/// FBX's `Intensity` of a light (per cent; see [`WATTS_PER_CANDELA`]).
pub fn fbx_intensity(kind: LightKind, intensity: f64) -> f64 {
    match kind {
        LightKind::Directional => intensity * 100.0,
        LightKind::Point | LightKind::Spot { .. } => intensity * WATTS_PER_CANDELA * 100.0,
    }
}

/// The rotation from an FBX camera's axes (looking down +X, +Y up) to a scene camera's
/// (glTF's: looking down -Z, +Y up): a quarter turn about +Y.
pub fn camera_axes() -> Quat<f64> {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    Quat::new(0.0, h, 0.0, h)
}

/// The rotation from an FBX light's axes (shining down -Y) to a scene light's (glTF's:
/// down -Z): a quarter turn about +X.
pub fn light_axes() -> Quat<f64> {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    Quat::new(h, 0.0, 0.0, h)
}

/// The film of a camera of aspect ratio `aspect` (width over height), in inches: the long
/// side [`FILM_GAUGE_MM`].
fn film_inches(aspect: f64) -> (f64, f64) {
    let gauge = FILM_GAUGE_MM / 25.4;
    if aspect >= 1.0 {
        (gauge, gauge / aspect)
    } else {
        (gauge * aspect, gauge)
    }
}

/// Each camera and light as a `Model` of its own (`Camera` / `Light`) under the node that
/// places it, turned from FBX's axes to the scene's ([`camera_axes`], [`light_axes`]) by
/// its `Lcl Rotation`, so that the node, its children and its animation stay as they are.
fn cameras_and_lights(scene: &Scene, node_ids: &[i64], o: &mut Objects) {
    let place = |o: &mut Objects, node: usize, name: &str, class: &str, turn: Quat<f64>, attribute: Vec<Node>| {
        let Some(&parent) = node_ids.get(node) else {
            return;
        };
        let local = Transform {
            rotation: turn,
            ..Transform::IDENTITY
        };
        let model = o.add("Model", name, "Model", class, model_children(&local, 1));
        let id = o.add("NodeAttribute", name, "NodeAttribute", class, attribute);
        o.oo(id, model);
        o.oo(model, parent);
    };
    let node_name = |node: usize| scene.skeleton.bones.get(node).map_or("", |b| b.name.as_str());
    for (k, camera) in scene.cameras.iter().enumerate() {
        let name = match (camera.name.is_empty(), node_name(camera.node)) {
            (false, _) => camera.name.clone(),
            (true, "") => format!("camera{k}"),
            (true, node) => format!("{node}_camera"),
        };
        let mut props = Vec::new();
        let (znear, zfar) = match camera.projection {
            Projection::Perspective {
                yfov,
                aspect_ratio,
                znear,
                zfar,
            } => {
                let aspect = aspect_ratio.filter(|a| a.is_finite() && *a > 0.0).unwrap_or(1.0);
                let (width, height) = film_inches(aspect);
                let focal = height * 25.4 / 2.0 / (yfov / 2.0).tan();
                props.extend([
                    p("CameraProjectionType", "enum", "", "", vec![i(0)]),
                    p("FilmWidth", "double", "Number", "", vec![d(width)]),
                    p("FilmHeight", "double", "Number", "", vec![d(height)]),
                    p("FilmAspectRatio", "double", "Number", "", vec![d(width / height)]),
                    // The vertical field of view is the one the scene (glTF) gives.
                    p("ApertureMode", "enum", "", "", vec![i(2)]),
                    p("FieldOfView", "FieldOfView", "", "A", vec![d(yfov.to_degrees())]),
                    p("FocalLength", "Number", "", "A", vec![d(focal)]),
                ]);
                // Window size (0) leaves the aspect to the viewport, as the scene's `None`.
                let mode = if aspect_ratio.is_some() { 1 } else { 0 };
                props.push(p("AspectRatioMode", "enum", "", "", vec![i(mode)]));
                if aspect_ratio.is_some() {
                    props.push(p("AspectWidth", "double", "Number", "", vec![d(aspect)]));
                    props.push(p("AspectHeight", "double", "Number", "", vec![d(1.0)]));
                }
                (znear, zfar.unwrap_or(INFINITE_FAR))
            }
            Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            } => {
                let aspect = if ymag.abs() > 0.0 { (xmag / ymag).abs() } else { 1.0 };
                props.extend([
                    p("CameraProjectionType", "enum", "", "", vec![i(1)]),
                    p("AspectRatioMode", "enum", "", "", vec![i(1)]),
                    p("AspectWidth", "double", "Number", "", vec![d(aspect)]),
                    p("AspectHeight", "double", "Number", "", vec![d(1.0)]),
                    // The view's larger side, whole, in scene units: what Blender's importers
                    // read (its ortho_scale); readers in Maya's units (ufbx: 30 per unit)
                    // see another size, which the report names.
                    p(
                        "OrthoZoom",
                        "double",
                        "Number",
                        "",
                        vec![d(2.0 * xmag.abs().max(ymag.abs()))],
                    ),
                ]);
                (znear, zfar)
            }
        };
        props.push(p("NearPlane", "double", "Number", "", vec![d(znear)]));
        props.push(p("FarPlane", "double", "Number", "", vec![d(zfar)]));
        let attribute = vec![
            properties70(props),
            leaf("TypeFlags", s("Camera")),
            leaf("GeometryVersion", i(124)),
            Node::new("Position", vec![d(0.0), d(0.0), d(0.0)]),
            Node::new("Up", vec![d(0.0), d(1.0), d(0.0)]),
            Node::new("LookAt", vec![d(1.0), d(0.0), d(0.0)]),
        ];
        place(o, camera.node, &name, "Camera", camera_axes(), attribute);
    }
    for (k, light) in scene.lights.iter().enumerate() {
        let name = match (light.name.is_empty(), node_name(light.node)) {
            (false, _) => light.name.clone(),
            (true, "") => format!("light{k}"),
            (true, node) => format!("{node}_light"),
        };
        let [r, g, b] = light.color;
        let kind = match light.kind {
            LightKind::Point => 0,
            LightKind::Directional => 1,
            LightKind::Spot { .. } => 2,
        };
        let mut props = vec![
            p("LightType", "enum", "", "", vec![i(kind)]),
            p("Color", "Color", "", "A", vec![d(r), d(g), d(b)]),
            p(
                "Intensity",
                "Number",
                "",
                "A",
                vec![d(fbx_intensity(light.kind, light.intensity))],
            ),
            // glTF's punctual lights fall off with the square of the distance.
            p("DecayType", "enum", "", "", vec![i(if kind == 1 { 0 } else { 2 })]),
            p("CastLight", "bool", "", "", vec![i(1)]),
        ];
        if let LightKind::Spot {
            inner_cone_angle,
            outer_cone_angle,
        } = light.kind
        {
            // FBX's angles are the whole cone's, in degrees.
            props.push(p(
                "InnerAngle",
                "Number",
                "",
                "A",
                vec![d(2.0 * inner_cone_angle.to_degrees())],
            ));
            props.push(p(
                "OuterAngle",
                "Number",
                "",
                "A",
                vec![d(2.0 * outer_cone_angle.to_degrees())],
            ));
        }
        if let Some(range) = light.range {
            props.push(p("EnableFarAttenuation", "bool", "", "", vec![i(1)]));
            props.push(p("FarAttenuationEnd", "double", "Number", "", vec![d(range)]));
        }
        let attribute = vec![
            properties70(props),
            leaf("TypeFlags", s("Light")),
            leaf("GeometryVersion", i(124)),
        ];
        place(o, light.node, &name, "Light", light_axes(), attribute);
    }
}

/// One `Material` per scene material, with a `Texture` for its diffuse, normal and specular
/// maps (and a `Video` holding the image where the scene embeds it); returns their ids.
fn materials(scene: &Scene, o: &mut Objects) -> Vec<i64> {
    let mut ids = Vec::with_capacity(scene.materials.len());
    for (k, material) in scene.materials.iter().enumerate() {
        let name = if material.name.is_empty() {
            format!("material{k}")
        } else {
            material.name.clone()
        };
        let mut props = Vec::new();
        if let Some(c) = material.base_color {
            let rgb = [c.r, c.g, c.b].map(|v| d(v.into()));
            props.push(p("DiffuseColor", "Color", "", "A", rgb.to_vec()));
            props.push(p("Opacity", "double", "Number", "", vec![d(c.a.into())]));
        }
        let id = o.add(
            "Material",
            &name,
            "Material",
            "",
            vec![
                leaf("Version", i(102)),
                leaf("ShadingModel", s("phong")),
                leaf("MultiLayer", i(0)),
                properties70(props),
            ],
        );
        ids.push(id);
        let embedded = material.texture.and_then(|t| scene.textures.get(t));
        let maps = [
            ("DiffuseColor", material.diffuse_map.as_deref(), embedded),
            ("NormalMap", material.normal_map.as_deref(), None),
            ("SpecularColor", material.specular_map.as_deref(), None),
        ];
        for (slot, file, image) in maps {
            let file = match (file, image) {
                (Some(file), _) => file.to_string(),
                (None, Some(image)) => {
                    let stem = if image.name.is_empty() { &name } else { &image.name };
                    format!("{stem}.{}", image_extension(image))
                }
                (None, None) => continue,
            };
            let texture = o.add(
                "Texture",
                &file,
                "Texture",
                "",
                vec![
                    leaf("Type", s("TextureVideoClip")),
                    leaf("Version", i(202)),
                    leaf("TextureName", object_name(&file, "Texture")),
                    leaf("Media", object_name(&file, "Video")),
                    leaf("FileName", s(&file)),
                    leaf("RelativeFilename", s(&file)),
                    Node::new("ModelUVTranslation", vec![d(0.0), d(0.0)]),
                    Node::new("ModelUVScaling", vec![d(1.0), d(1.0)]),
                    leaf("Texture_Alpha_Source", s("None")),
                    Node::new("Cropping", vec![i(0), i(0), i(0), i(0)]),
                ],
            );
            o.op(texture, id, slot);
            if let Some(image) = image {
                let video = o.add(
                    "Video",
                    &file,
                    "Video",
                    "Clip",
                    vec![
                        leaf("Type", s("Clip")),
                        properties70(vec![p("Path", "KString", "XRefUrl", "", vec![s(&file)])]),
                        leaf("UseMipMap", i(0)),
                        leaf("Filename", s(&file)),
                        leaf("RelativeFilename", s(&file)),
                        leaf("Content", Property::Raw(image.data.clone())),
                    ],
                );
                o.oo(video, texture);
            }
        }
    }
    ids
}

/// The last frame of an animation's stack: its last frame by its frame count, or its last
/// key where a key lies beyond (AnimX and DMF lengths can end a frame before their last key;
/// a stack must hold every key, or readers that keep to it, such as Assimp, cut it off).
fn last_frame(animation: &Animation) -> f64 {
    let by_count = (animation.frame_count - 1.0).max(0.0);
    let bones = animation.bones.iter().flat_map(|t| {
        let translation = t.translation.iter().map(|k| k.frame);
        let rotation = t.rotation.iter().map(|k| k.frame);
        translation.chain(rotation).chain(t.scale.iter().map(|k| k.frame))
    });
    let weights = animation.weights.iter().flat_map(|t| t.keys.iter().map(|k| k.frame));
    let last_key = bones.chain(weights).filter(|f| f.is_finite()).fold(0.0, f64::max);
    // A length only a note reaches (a Cast file's "end" note far past its keys) is not
    // kept: FBX holds no notes (reported), and the stack would play nothing for that long.
    let last_note = animation
        .notes
        .iter()
        .map(|n| n.frame)
        .filter(|f| f.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    if by_count > last_key && last_note >= by_count {
        last_key
    } else {
        by_count.max(last_key)
    }
}

/// Keys of `keys` sorted by frame, the last of keys at the same frame kept.
fn sorted<T: KeyValue>(keys: &Keys<T>) -> Vec<(f64, T)> {
    let mut out: Vec<(f64, T)> = keys.iter().map(|k| (k.frame, k.value)).collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out.dedup_by(|later, earlier| {
        let same = later.0 == earlier.0;
        if same {
            earlier.1 = later.1;
        }
        same
    });
    out
}

/// An `AnimationCurve` of `keys` (ticks, value) with one interpolation for all; its id.
fn curve(o: &mut Objects, keys: &[(i64, f32)], flags: i32) -> i64 {
    let default = keys.first().map_or(0.0, |k| f64::from(k.1));
    o.add(
        "AnimationCurve",
        "",
        "AnimCurve",
        "",
        vec![
            leaf("Default", d(default)),
            leaf("KeyVer", i(4009)),
            leaf("KeyTime", Property::I64Array(keys.iter().map(|k| k.0).collect())),
            leaf("KeyValueFloat", Property::F32Array(keys.iter().map(|k| k.1).collect())),
            leaf("KeyAttrFlags", Property::I32Array(vec![flags])),
            leaf("KeyAttrDataFloat", Property::F32Array(vec![0.0; 4])),
            leaf("KeyAttrRefCount", Property::I32Array(vec![keys.len() as i32])),
        ],
    )
}

/// A curve node named `name` (`T`, `R`, `S`) driving `property` of `target`, with one
/// curve per component of `values` (`d|X`, `d|Y`, `d|Z`).
#[allow(clippy::too_many_arguments)]
fn curve_node(
    o: &mut Objects,
    layer: i64,
    target: i64,
    name: &str,
    property: &str,
    components: &[&str],
    times: &[i64],
    values: &[Vec<f64>],
    flags: i32,
) {
    let defaults = components
        .iter()
        .zip(values)
        .map(|(c, v)| {
            p(
                &format!("d|{c}"),
                "Number",
                "",
                "A",
                vec![d(v.first().copied().unwrap_or(0.0))],
            )
        })
        .collect();
    let node = o.add(
        "AnimationCurveNode",
        name,
        "AnimCurveNode",
        "",
        vec![properties70(defaults)],
    );
    o.oo(node, layer);
    o.op(node, target, property);
    for (component, component_values) in components.iter().zip(values) {
        let keys: Vec<(i64, f32)> = times
            .iter()
            .zip(component_values)
            .map(|(&t, &v)| (t, v as f32))
            .collect();
        let id = curve(o, &keys, flags);
        o.op(id, node, &format!("d|{component}"));
    }
}

/// One `AnimationStack` with its layer, curve nodes and curves; returns the `Take` record.
fn animation_stack(
    scene: &Scene,
    animation: &Animation,
    node_ids: &[i64],
    channels: &[(String, i64)],
    options: &WriteOptions,
    o: &mut Objects,
    report: &mut ConversionReport,
) -> Result<Node> {
    let framerate = animation.framerate;
    if !(framerate.is_finite() && framerate > 0.0) {
        return Err(error::unencodable(format!(
            "animation {:?}: a frame rate of {framerate}",
            animation.name
        )));
    }
    // FBX keys are what plays: every kind is rewritten as absolute keys over the bind pose.
    let mut absolute;
    let animation = if animation.kind == AnimKind::Absolute
        && animation
            .bones
            .iter()
            .all(|t| t.kind_override.is_none() && t.channel_kinds.is_empty() && t.channel_overrides.is_empty())
    {
        animation
    } else {
        absolute = animation.clone();
        pose::rebase(&mut absolute, &scene.skeleton, AnimKind::Absolute);
        &absolute
    };
    let name = if animation.name.is_empty() {
        "Take 001"
    } else {
        animation.name.as_str()
    };
    let what = || format!("animation {name:?}");
    let start = 0;
    let stop = ticks(last_frame(animation), framerate, &what)?;
    let times = vec![
        p("LocalStart", "KTime", "Time", "", vec![Property::I64(start)]),
        p("LocalStop", "KTime", "Time", "", vec![Property::I64(stop)]),
        p("ReferenceStart", "KTime", "Time", "", vec![Property::I64(start)]),
        p("ReferenceStop", "KTime", "Time", "", vec![Property::I64(stop)]),
    ];
    let stack = o.add("AnimationStack", name, "AnimStack", "", vec![properties70(times)]);
    // Its (empty) property list makes the record a scope: Assimp drops a layer without one,
    // and with it the whole stack.
    let layer = o.add(
        "AnimationLayer",
        "BaseLayer",
        "AnimLayer",
        "",
        vec![properties70(Vec::new())],
    );
    o.oo(layer, stack);
    let flags = match animation.interpolation {
        Interpolation::Linear => LINEAR,
        Interpolation::Step => CONSTANT,
    };
    let by_name = scene.skeleton.indices_by_name();
    let mut unmatched = 0;
    for track in &animation.bones {
        let Some(&node) = by_name.get(track.bone.as_str()) else {
            unmatched += 1;
            continue;
        };
        let target = node_ids[node];
        let what = || format!("animation {name:?}, node {:?}", track.bone);
        for (keys, curve_name, property) in [
            (&track.translation, "T", "Lcl Translation"),
            (&track.scale, "S", "Lcl Scaling"),
        ] {
            let keys = sorted(keys);
            if keys.is_empty() {
                continue;
            }
            let times = keys
                .iter()
                .map(|k| ticks(k.0, framerate, &what))
                .collect::<Result<Vec<_>>>()?;
            let values = [
                keys.iter().map(|k| k.1.x).collect(),
                keys.iter().map(|k| k.1.y).collect(),
                keys.iter().map(|k| k.1.z).collect(),
            ];
            curve_node(
                o,
                layer,
                target,
                curve_name,
                property,
                &["X", "Y", "Z"],
                &times,
                &values,
                flags,
            );
        }
        let rotations: Vec<(f64, Quat<f64>)> = sorted(&track.rotation);
        if !rotations.is_empty() {
            let step = animation.interpolation == Interpolation::Step;
            let keys = euler::euler_keys(&rotations, options.exact_rotation_keys, step);
            let times = keys
                .iter()
                .map(|k| ticks(k.0, framerate, &what))
                .collect::<Result<Vec<_>>>()?;
            let values = [0, 1, 2].map(|c| keys.iter().map(|k| k.1[c].to_degrees()).collect::<Vec<_>>());
            curve_node(
                o,
                layer,
                target,
                "R",
                "Lcl Rotation",
                &["X", "Y", "Z"],
                &times,
                &values,
                flags,
            );
        }
    }
    if unmatched > 0 {
        report.lose(format!(
            "{unmatched} tracks of animation {name:?} that name no node of the scene (FBX animates nodes)"
        ));
    }
    for track in &animation.weights {
        let keys = sorted(&track.keys);
        if keys.is_empty() {
            continue;
        }
        let what = || format!("animation {name:?}, morph target {:?}", track.target);
        let times = keys
            .iter()
            .map(|k| ticks(k.0, framerate, &what))
            .collect::<Result<Vec<_>>>()?;
        let values = vec![keys.iter().map(|k| k.1 * 100.0).collect()];
        let mut found = false;
        for (_, channel) in channels.iter().filter(|(n, _)| *n == track.target) {
            found = true;
            curve_node(
                o,
                layer,
                *channel,
                "DeformPercent",
                "DeformPercent",
                &["DeformPercent"],
                &times,
                &values,
                flags,
            );
        }
        if !found {
            report.lose(format!(
                "weight track {:?} of animation {name:?}, which drives no morph target of the scene",
                track.target
            ));
        }
    }
    Ok(Node {
        name: "Take".into(),
        properties: vec![s(name)],
        children: vec![
            leaf("FileName", s(&format!("{name}.tak"))),
            Node::new("LocalTime", vec![Property::I64(start), Property::I64(stop)]),
            Node::new("ReferenceTime", vec![Property::I64(start), Property::I64(stop)]),
        ],
    })
}

/// Records what an FBX from this writer does not hold of `scene`.
fn lose_what_fbx_cannot_hold(scene: &Scene, report: &mut ConversionReport) {
    const LABEL: &str = "animbin's FBX";
    report.lose_rig_controls(scene, LABEL);
    report.lose_hair_and_instances(scene, LABEL);
    let infinite = scene
        .cameras
        .iter()
        .filter(|c| matches!(c.projection, Projection::Perspective { zfar: None, .. }))
        .count();
    if infinite > 0 {
        report.lose(format!(
            "the infinite far plane of {infinite} cameras (FBX has none: written {INFINITE_FAR} units away)"
        ));
    }
    let orthographic = scene
        .cameras
        .iter()
        .filter(|c| matches!(c.projection, Projection::Orthographic { .. }))
        .count();
    if orthographic > 0 {
        report.lose(format!(
            "the size of {orthographic} orthographic cameras as readers other than Blender take it (FBX's \
             OrthoZoom has no agreed unit: written as Blender reads it, the larger side's whole width)"
        ));
    }
    if !scene.lights.is_empty() {
        report.lose(format!(
            "the photometric units of {} lights (FBX's Intensity has none: written as Blender reads it, \
             {WATTS_PER_CANDELA:.5} W per candela and 1 W/m^2 per lux, 100 per watt)",
            scene.lights.len()
        ));
    }
    let notes: usize = scene.animations.iter().map(|a| a.notes.len()).sum();
    if notes > 0 {
        report.lose(format!("{notes} notes (FBX has no notes)"));
    }
    let properties: usize = scene.animations.iter().map(|a| a.properties.len()).sum();
    if properties > 0 {
        report.lose(format!(
            "{properties} property tracks ({LABEL} animates transforms and morph weights)"
        ));
    }
    if scene.animations.iter().any(|a| a.looping) {
        report.lose("looping (FBX animation stacks do not loop)");
    }
    let rates: Vec<f64> = scene.animations.iter().map(|a| a.framerate).collect();
    if rates.windows(2).any(|w| w[0] != w[1]) {
        report.lose(
            "frame rates other than the first animation's (FBX has one, in GlobalSettings; key times stay exact)",
        );
    }
    let links: usize = scene.materials.iter().map(|m| m.links.len()).sum();
    if links > 0 {
        report.lose(format!(
            "{links} texture slot links ({LABEL} writes diffuse, normal and specular maps)"
        ));
    }
    if scene.materials.iter().any(|m| m.surface.is_some()) {
        report.lose("metalness, roughness and emission (FBX's phong material holds none)");
    }
    if scene
        .meshes
        .iter()
        .flat_map(|m| &m.morph_targets)
        .any(|t| t.max_weight.is_some())
    {
        report.lose("morph targets' maximum weights (FBX has none)");
    }
    let per_layer = scene.meshes.iter().filter(|m| m.materials.len() > 1).count();
    if per_layer > 0 {
        report.lose(format!(
            "materials after the first of {per_layer} meshes (one per mesh)"
        ));
    }
}

/// The top-level records: header, ids, global settings, documents, definitions, objects,
/// connections and takes.
fn document_records(scene: &Scene, options: &WriteOptions, o: Objects, takes: Vec<Node>) -> Vec<Node> {
    let framerate = scene.animations.first().map_or(30.0, |a| a.framerate);
    let mode = time_mode(framerate);
    let stop = scene
        .animations
        .first()
        .map_or(0, |a| ticks(last_frame(a), a.framerate, &String::new).unwrap_or(0));
    let (up, front, front_sign) = if options.z_up { (2, 1, -1) } else { (1, 2, 1) };
    let unit = options.unit_scale * 100.0;
    let settings = vec![
        p("UpAxis", "int", "Integer", "", vec![i(up)]),
        p("UpAxisSign", "int", "Integer", "", vec![i(1)]),
        p("FrontAxis", "int", "Integer", "", vec![i(front)]),
        p("FrontAxisSign", "int", "Integer", "", vec![i(front_sign)]),
        p("CoordAxis", "int", "Integer", "", vec![i(0)]),
        p("CoordAxisSign", "int", "Integer", "", vec![i(1)]),
        p("OriginalUpAxis", "int", "Integer", "", vec![i(up)]),
        p("OriginalUpAxisSign", "int", "Integer", "", vec![i(1)]),
        p("UnitScaleFactor", "double", "Number", "", vec![d(unit)]),
        p("OriginalUnitScaleFactor", "double", "Number", "", vec![d(unit)]),
        p("TimeMode", "enum", "", "", vec![i(mode)]),
        p("TimeSpanStart", "KTime", "Time", "", vec![Property::I64(0)]),
        p("TimeSpanStop", "KTime", "Time", "", vec![Property::I64(stop)]),
        p("CustomFrameRate", "double", "Number", "", vec![d(framerate)]),
    ];
    let creator = format!("animbin {}", env!("CARGO_PKG_VERSION"));
    let stamp = [
        ("Version", 1000),
        ("Year", 1970),
        ("Month", 1),
        ("Day", 1),
        ("Hour", 10),
        ("Minute", 0),
        ("Second", 0),
        ("Millisecond", 0),
    ];
    let header = Node {
        name: "FBXHeaderExtension".into(),
        properties: Vec::new(),
        children: vec![
            leaf("FBXHeaderVersion", i(1003)),
            leaf("FBXVersion", i(options.version as i32)),
            leaf("EncryptionType", i(0)),
            Node {
                name: "CreationTimeStamp".into(),
                properties: Vec::new(),
                children: stamp.iter().map(|(n, v)| leaf(n, i(*v))).collect(),
            },
            leaf("Creator", s(&creator)),
        ],
    };
    let active = scene.animations.first().map_or(String::new(), |a| a.name.clone());
    let documents = Node {
        name: "Documents".into(),
        properties: Vec::new(),
        children: vec![
            leaf("Count", i(1)),
            Node {
                name: "Document".into(),
                properties: vec![Property::I64(1), s("Scene"), s("Scene")],
                children: vec![
                    properties70(vec![
                        p("SourceObject", "object", "", "", vec![]),
                        p("ActiveAnimStackName", "KString", "", "", vec![s(&active)]),
                    ]),
                    leaf("RootNode", Property::I64(0)),
                ],
            },
        ],
    };
    let mut definitions = Node {
        name: "Definitions".into(),
        properties: Vec::new(),
        children: vec![
            leaf("Version", i(100)),
            leaf("Count", i(o.counts.values().sum::<usize>() as i32 + 1)),
            Node::new("ObjectType", vec![s("GlobalSettings")]).with(leaf("Count", i(1))),
        ],
    };
    for (record, count) in &o.counts {
        definitions
            .children
            .push(Node::new("ObjectType", vec![s(record)]).with(leaf("Count", i(*count as i32))));
    }
    let mut take_list = Node {
        name: "Takes".into(),
        properties: Vec::new(),
        children: vec![leaf("Current", s(&active))],
    };
    take_list.children.extend(takes);
    vec![
        header,
        leaf("FileId", Property::Raw(FILE_ID.to_vec())),
        leaf("CreationTime", s(CREATION_TIME)),
        leaf("Creator", s(&creator)),
        Node {
            name: "GlobalSettings".into(),
            properties: Vec::new(),
            children: vec![leaf("Version", i(1000)), properties70(settings)],
        },
        documents,
        Node::new("References", Vec::new()),
        definitions,
        Node {
            name: "Objects".into(),
            properties: Vec::new(),
            children: o.objects,
        },
        Node {
            name: "Connections".into(),
            properties: Vec::new(),
            children: o.connections,
        },
        take_list,
    ]
}
