//! glTF 2.0 -> Scene: [`import`] reads a document into a scene. The parts live in their own
//! modules: the container, the JSON and the buffers in `document`, images and materials in
//! `material`, mesh primitives in `mesh`, animations in `animation`; the node tree, the
//! skeleton, the axes and the order the parts run in are here.

use std::collections::{HashMap, HashSet};

use animbin_core::SceneOptions;
use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::{Bone, ConversionReport, MeshInstance, NodeKind, Precision, Scene, Skeleton, Skin};

use crate::accessor;
use crate::error::{Error, Path, Result};
use crate::extras::{self, CompensationExtras, MeshExtras, PlacementExtras, SceneExtras, SkinExtras, WrapperExtras};
use crate::xform;

mod animation;
mod document;
mod graph;
mod hair;
mod material;
mod mesh;
mod morph;

pub use animation::DEFAULT_FRAMERATE;
pub(crate) use document::{decode_data_uri, load_buffers, parse};
pub use material::percent_decode;

use animation::import_animation;
use material::images_and_materials;
use mesh::import_primitive;

/// The nodes animbin's writer adds that are not bones, as an animation's channels meet them.
pub(super) struct StructuralNodes<'a> {
    /// Per node: animbin's root node, for the up axis and unit scale.
    pub(super) wrapper: &'a [bool],
    /// Per node: a compensation node of a bone that does not inherit its parent's scale.
    pub(super) compensation: &'a [bool],
    /// The compensation nodes that hold a bone's translation, and that bone's node.
    pub(super) translation_carriers: &'a HashMap<usize, usize>,
}

/// Each node's parent, refusing a node with two parents and cycles.
fn node_parents(document: &gltf::Document) -> Result<Vec<Option<usize>>> {
    let n = document.nodes().len();
    let mut parent = vec![None; n];
    for node in document.nodes() {
        for child in node.children() {
            let c = child.index();
            if c == node.index() || parent[c].is_some() {
                return Err(Error::invalid(
                    Path::item("nodes", node.index()).field("children"),
                    "a tree: each node the child of at most one node",
                    format!("node {c} listed again"),
                ));
            }
            parent[c] = Some(node.index());
        }
    }
    // The first node on a cycle is named (no node is its own child: refused above).
    if let Some(&start) = animbin_core::hierarchy::in_cycles(&parent).first() {
        return Err(Error::invalid(
            Path::item("nodes", start),
            "a node hierarchy without cycles",
            "a cycle",
        ));
    }
    Ok(parent)
}

fn trs(node: &gltf::Node) -> Transform {
    let (t, r, s) = node.transform().decomposed();
    let t = Vec3::new(f64::from(t[0]), f64::from(t[1]), f64::from(t[2]));
    // A rotation unit to f32's rounding is kept as the file has it, so that writing it back
    // gives the same f32s (normalising in f64 would move their last bits on every trip).
    let r = Quat::new(f64::from(r[0]), f64::from(r[1]), f64::from(r[2]), f64::from(r[3]));
    let r = if (r.norm() - 1.0).abs() <= 1e-6 {
        r
    } else {
        r.normalized()
    };
    let s = Vec3::new(f64::from(s[0]), f64::from(s[1]), f64::from(s[2]));
    let finite = |v: Vec3<f64>, fallback| {
        if [v.x, v.y, v.z].iter().all(|c| c.is_finite()) {
            v
        } else {
            fallback
        }
    };
    Transform {
        translation: finite(t, Vec3::ZERO),
        rotation: r,
        scale: finite(s, Vec3::ONE),
    }
}

/// Reads a document into a scene.
///
/// The options apply only to files that animbin did not write: a file with animbin's root
/// node already holds the source's values under that node, which the reader drops, so it is
/// read back unchanged whatever they say. `z_up` turns glTF's Y-up into Z-up (+90 degrees
/// about X on root bones, their root-level keys, and mesh vertices); `unit_scale` says what
/// glTF metres a scene length is, so lengths are divided by it (0.01 turns metres into
/// centimetres); `framerate` replaces the guess for animations without animbin's extras.
pub(crate) fn import(bytes: &[u8], options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
    if !(options.unit_scale.is_finite() && options.unit_scale != 0.0) {
        return Err(Error::invalid("/", "a finite, non-zero unit scale", options.unit_scale));
    }
    if let Some(rate) = options.framerate.filter(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(Error::invalid("/", "a finite, positive framerate", rate));
    }
    let (document, bin) = parse(bytes)?;
    let buffers = load_buffers(&document, bin)?;
    let parents = node_parents(&document)?;
    let nodes: Vec<gltf::Node> = document.nodes().collect();
    let wrapper: Vec<bool> = nodes
        .iter()
        .map(|n| extras::unwrap::<WrapperExtras>(n.extras()).is_some_and(|w| w.wrapper))
        .collect();
    // The unit scale animbin multiplied the lengths by, when it wrote the file.
    let recorded_scale = document
        .scenes()
        .find_map(|s| extras::unwrap::<SceneExtras>(s.extras()))
        .map(|e| e.unit_scale)
        .filter(|s| s.is_finite() && *s != 0.0);
    let ours = wrapper.iter().any(|&w| w) || recorded_scale.is_some();
    // The skin animbin makes over a rig's bones is unmarked; a skin of a scene's own is
    // marked, and another writer's skins are all the file's own.
    let by_animbin = ours
        || document
            .as_json()
            .asset
            .generator
            .as_deref()
            .is_some_and(|g| g.starts_with("animbin "));
    // Nodes that stand for other scene files (animbin's extras): neither bones nor meshes.
    let instances: Vec<Option<animbin_core::scene::Instance>> = nodes.iter().map(hair::instance_of).collect();
    // What animbin's writer adds around bones: the model placement above the model's roots,
    // and compensation nodes between a bone that does not inherit its parent's scale and that
    // parent. They are read back as what they stand for, not as bones.
    let placement_node = nodes
        .iter()
        .position(|n| extras::unwrap::<PlacementExtras>(n.extras()).is_some_and(|p| p.placement));
    let compensation: Vec<bool> = nodes
        .iter()
        .map(|n| extras::unwrap::<CompensationExtras>(n.extras()).is_some())
        .collect();
    let structural = |i: usize| wrapper[i] || compensation[i] || Some(i) == placement_node;

    // Skins must have joints.
    for skin in document.skins() {
        if skin.joints().len() == 0 {
            return Err(Error::invalid(
                Path::item("skins", skin.index()).field("joints"),
                "at least one joint",
                "none",
            ));
        }
    }

    // The nodes of the scene: every node but the ones that stand for something else (what
    // animbin's writer adds around bones, instances of other files) and the nodes that only
    // show a mesh where it is (a loose mesh: a leaf at the top, at rest, named as its mesh,
    // which every writer makes for a mesh in model space). Joints of a skin are bones, the
    // rest plain nodes.
    let mut joint = vec![false; nodes.len()];
    for skin in document.skins() {
        for j in skin.joints() {
            joint[j.index()] = true;
        }
    }
    let mut animated = vec![false; nodes.len()];
    for animation in document.animations() {
        for channel in animation.channels() {
            animated[channel.target().node().index()] = true;
        }
    }
    let light_of: Vec<Option<usize>> = nodes.iter().map(graph::light_of_node).collect();
    let loose_mesh = |n: &gltf::Node| {
        let i = n.index();
        n.mesh().is_some_and(|m| n.name().is_none() || n.name() == m.name())
            && n.children().len() == 0
            && n.camera().is_none()
            && light_of[i].is_none()
            && n.weights().is_none()
            && !joint[i]
            && !animated[i]
            && parents[i].is_none_or(structural)
            && graph::at_rest_exactly(n)
    };
    let mut is_node = vec![false; nodes.len()];
    let mut order = Vec::new();
    for n in &nodes {
        let i = n.index();
        if !structural(i) && instances[i].is_none() && !loose_mesh(n) {
            is_node[i] = true;
            order.push(i);
        }
    }

    // The hierarchy: each node's parent is its nearest ancestor among them.
    let mut skeleton = Skeleton::default();
    let mut bone_of_node: HashMap<usize, usize> = HashMap::new();
    for (b, &node) in order.iter().enumerate() {
        bone_of_node.insert(node, b);
    }
    // Each node's nearest ancestor among the scene's nodes, found parents first in one pass
    // (a walk up from every node would cost the depth of the tree each time).
    let tree_order = animbin_core::hierarchy::parents_first(&parents);
    let mut node_above: Vec<Option<usize>> = vec![None; nodes.len()];
    for &i in &tree_order {
        if let Some(p) = parents[i] {
            node_above[i] = if is_node[p] { Some(p) } else { node_above[p] };
        }
    }
    // A bone below compensation nodes does not inherit its parent's scale; the outermost of
    // them holds its translation, at rest and in animations (the others only undo the
    // parent's scale, which the flag says).
    let mut translation_carriers: HashMap<usize, usize> = HashMap::new();
    for &node in &order {
        let parent = node_above[node].and_then(|p| bone_of_node.get(&p).copied());
        let mut local = trs(&nodes[node]);
        let mut outer = None;
        let mut at = parents[node];
        while let Some(p) = at.filter(|&p| compensation[p]) {
            outer = Some(p);
            at = parents[p];
        }
        if let Some(outer) = outer {
            local.translation = local.translation + trs(&nodes[outer]).translation;
            translation_carriers.insert(outer, node);
        }
        skeleton.bones.push(Bone {
            scale_compensate: outer.is_some(),
            rest_scale: Vec3::ONE,
            name: nodes[node].name().map_or_else(|| format!("node{node}"), str::to_string),
            parent,
            local,
            global: Transform::IDENTITY,
            cosmetic: false,
            kind: if joint[node] { NodeKind::Bone } else { NodeKind::Plain },
        });
    }
    // Parents before children.
    let resolve = skeleton.resolve_order();
    let mut new_index = vec![0; resolve.len()];
    for (new, &old) in resolve.iter().enumerate() {
        new_index[old] = new;
    }
    let mut bones: Vec<Bone> = resolve.iter().map(|&old| skeleton.bones[old].clone()).collect();
    for bone in &mut bones {
        bone.parent = bone.parent.map(|p| new_index[p]);
    }
    for (old, &node) in order.iter().enumerate() {
        bone_of_node.insert(node, new_index[old]);
    }
    graph::unique_names(&mut bones, report);
    let mut skeleton = Skeleton {
        bones,
        ..Default::default()
    };
    skeleton.update_globals();
    // The bind pose of joints comes from the inverse bind matrices (the first skin that
    // binds a joint says it); the skins a scene keeps hold the matrices exactly.
    let mut bound = HashSet::new();
    let mut skins = Vec::new();
    let mut kept_skin_of = vec![None; document.skins().len()];
    for skin in document.skins() {
        let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
        let matrices = match skin.inverse_bind_matrices() {
            Some(ibm) => {
                let (values, _) = accessor::floats(&ibm, &buffers, &[16], "inverse bind matrices")?;
                if values.len() < joints.len() * 16 {
                    return Err(Error::invalid(
                        Path::item("skins", skin.index()).field("inverseBindMatrices"),
                        format!("{} matrices, one per joint", joints.len()),
                        values.len() / 16,
                    ));
                }
                values[..joints.len() * 16]
                    .chunks_exact(16)
                    .map(graph::column_major)
                    .collect()
            }
            None => Vec::new(),
        };
        for (j, node) in joints.iter().enumerate() {
            let Some(&b) = bone_of_node.get(node) else { continue };
            let Some(m) = matrices.get(j) else { continue };
            if !bound.insert(b) {
                continue;
            }
            if let Some(global) = m.inverse_affine().and_then(|m| Transform::from_matrix(&m)) {
                skeleton.bones[b].global = global;
            }
        }
        let kept = !by_animbin || extras::unwrap::<SkinExtras>(skin.extras()).is_some_and(|e| e.kept);
        if kept {
            kept_skin_of[skin.index()] = Some(skins.len());
            skins.push(Skin {
                name: skin.name().unwrap_or("").to_string(),
                joints: joints.iter().filter_map(|j| bone_of_node.get(j).copied()).collect(),
                inverse_bind_matrices: matrices,
                skeleton: skin.skeleton().and_then(|n| bone_of_node.get(&n.index()).copied()),
            });
        }
    }

    let mut scene = Scene {
        skeleton,
        skins,
        placement: placement_node.map_or(Transform::IDENTITY, |n| trs(&nodes[n])),
        // The model's name: the name of the scene shown (the default one, else the first).
        name: document
            .default_scene()
            .or_else(|| document.scenes().next())
            .and_then(|s| s.name().map(str::to_string))
            .unwrap_or_default(),
        ..Scene::default()
    };

    // Images and materials.
    images_and_materials(&document, &buffers, &mut scene, report)?;

    // Meshes: each primitive of each mesh, once however many nodes show it, skinned by the
    // first node that shows the mesh.
    let mut first_node_of_mesh: HashMap<usize, usize> = HashMap::new();
    for node in &nodes {
        if let Some(mesh) = node.mesh() {
            first_node_of_mesh.entry(mesh.index()).or_insert(node.index());
        }
    }
    let mut scene_meshes_of: Vec<Vec<usize>> = vec![Vec::new(); document.meshes().len()];
    for mesh in document.meshes() {
        let node = first_node_of_mesh.get(&mesh.index()).map(|&n| &nodes[n]);
        let skin = node.and_then(gltf::Node::skin);
        let extras: Option<MeshExtras> = extras::unwrap(mesh.extras());
        if let Some(marked) = extras.as_ref().and_then(|e| e.hair.clone()) {
            if let Some(h) = hair::import_hair(&mesh, marked, &buffers, report)? {
                scene.hairs.push(h);
            }
            continue;
        }
        let defaults: Vec<f32> = mesh.weights().map(<[f32]>::to_vec).unwrap_or_default();
        let primitives = mesh.primitives().len();
        for primitive in mesh.primitives() {
            let name = match (mesh.name(), primitives) {
                (Some(n), 1) => n.to_string(),
                (Some(n), _) => format!("{n}.{}", primitive.index()),
                (None, _) => format!("mesh{}.{}", mesh.index(), primitive.index()),
            };
            let path = Path::item("meshes", mesh.index())
                .field("primitives")
                .index(primitive.index());
            if let Some(mut m) = import_primitive(
                &primitive,
                name,
                &path,
                &buffers,
                skin.as_ref(),
                &bone_of_node,
                extras.as_ref(),
                report,
            )? {
                let has_normals = !m.normals.is_empty();
                m.morph_targets = morph::targets(
                    &primitive,
                    &mesh,
                    m.positions.len(),
                    has_normals,
                    &path,
                    &buffers,
                    report,
                )?;
                for (target, &weight) in m.morph_targets.iter_mut().zip(&defaults) {
                    target.default_weight = weight;
                }
                if let (Some(weights), Some(skin)) = (m.skin.as_mut(), skin.as_ref()) {
                    weights.skin = kept_skin_of[skin.index()];
                }
                scene_meshes_of[mesh.index()].push(scene.meshes.len());
                scene.meshes.push(m);
            }
        }
    }
    // Where the nodes place meshes, cameras and lights.
    let mut overridden_weights = 0;
    for &node in &order {
        let n = &nodes[node];
        let at = bone_of_node[&node];
        if let Some(mesh) = n.mesh() {
            scene.mesh_instances.push(MeshInstance {
                node: at,
                meshes: scene_meshes_of[mesh.index()].clone(),
                name: mesh.name().unwrap_or("").to_string(),
            });
            if n.weights().is_some_and(|w| Some(w) != mesh.weights()) {
                overridden_weights += 1;
            }
        }
        if let Some(camera) = n.camera() {
            scene.cameras.push(graph::camera(&camera, at));
        }
        if let Some(light) = light_of[node] {
            scene.lights.push(graph::light(&document, light, at, node)?);
        }
    }
    if overridden_weights > 0 {
        report.lose(format!(
            "{overridden_weights} node(s) with morph weights of their own (the scene keeps a mesh's): not kept"
        ));
    }

    scene.instances = instances.into_iter().flatten().collect();

    // Animations.
    let mut single = Vec::new();
    for animation in document.animations() {
        let (anim, precision) = import_animation(
            &animation,
            &buffers,
            &scene.skeleton,
            &bone_of_node,
            &StructuralNodes {
                wrapper: &wrapper,
                compensation: &compensation,
                translation_carriers: &translation_carriers,
            },
            options.framerate,
            report,
        )?;
        scene.animations.push(anim);
        // glTF holds f32: without animbin's word that the source was double, the keys are
        // single precision.
        single.push(precision != Some(Precision::Double));
    }

    if let Some(s) = recorded_scale {
        xform::scale_lengths(&mut scene, 1.0 / s);
    }
    if !ours {
        if options.z_up {
            y_up_to_z_up(&mut scene);
        }
        if options.unit_scale != 1.0 {
            // Scene lengths times unit_scale are glTF metres.
            xform::scale_lengths(&mut scene, 1.0 / options.unit_scale);
        }
    }
    // Keys that were single precision before the rest pose and the scale went on (and keys
    // of files from other tools, which are f32) come back single: the nearest f32 of each
    // value, so that rounding in the steps above does not make them look double.
    for (anim, _) in scene.animations.iter_mut().zip(&single).filter(|(_, s)| **s) {
        for track in &mut anim.bones {
            let round = |v: f64| f64::from(v as f32);
            track.translation.map_values(|value| value.map(round));
            track.rotation.map_values(|value| value.map(round));
            track.scale.map_values(|value| value.map(round));
        }
    }
    Ok(scene)
}

/// The rotation that turns a Y-up scene Z-up: +90 degrees about X (y becomes z).
const Y_UP_TO_Z_UP: Quat<f64> = Quat::new(
    std::f64::consts::FRAC_1_SQRT_2,
    0.0,
    0.0,
    std::f64::consts::FRAC_1_SQRT_2,
);

/// Rotates a Y-up scene to Z-up: root nodes (their rest pose and keys), every global bind
/// pose and skin matrix, the vertices and normals of meshes in model or bind space (a mesh a
/// node places turns with its node), hair particles and instance placements.
fn y_up_to_z_up(scene: &mut Scene) {
    let c = Transform {
        rotation: Y_UP_TO_Z_UP,
        ..Transform::IDENTITY
    };
    let roots: HashSet<String> = scene
        .skeleton
        .bones
        .iter()
        .filter(|b| b.parent.is_none())
        .map(|b| b.name.clone())
        .collect();
    for bone in &mut scene.skeleton.bones {
        if bone.parent.is_none() {
            bone.local = c.then(bone.local);
        }
        bone.global = c.then(bone.global);
    }
    for anim in &mut scene.animations {
        for track in anim.bones.iter_mut().filter(|t| roots.contains(&t.bone)) {
            track.translation.map_values(|value| Y_UP_TO_Z_UP.rotate(value));
            track.rotation.map_values(|value| (Y_UP_TO_Z_UP * value).normalized());
        }
    }
    let turn = |v: Vec3<f32>| {
        let r = Y_UP_TO_Z_UP.rotate(v.map(f64::from));
        Vec3::new(r.x as f32, r.y as f32, r.z as f32)
    };
    // A skin's matrix takes a bound vertex (turned) into its joint's space (turned with it).
    let back = Transform {
        rotation: Y_UP_TO_Z_UP.conjugate(),
        ..Transform::IDENTITY
    }
    .to_matrix();
    for skin in &mut scene.skins {
        for m in &mut skin.inverse_bind_matrices {
            *m = m.multiply(&back);
        }
    }
    // A mesh a node places without a skin is in that node's space, which turns with the
    // root above it.
    let in_node_space = scene.meshes_in_node_space();
    for hair in &mut scene.hairs {
        hair.particles.iter_mut().for_each(|p| *p = turn(*p));
    }
    for instance in &mut scene.instances {
        instance.placement = c.then(instance.placement);
    }
    for (_, mesh) in scene.meshes.iter_mut().enumerate().filter(|(i, _)| !in_node_space[*i]) {
        mesh.positions.iter_mut().for_each(|p| *p = turn(*p));
        mesh.normals.iter_mut().for_each(|p| *p = turn(*p));
        for t in &mut mesh.morph_targets {
            t.position_deltas.iter_mut().for_each(|p| *p = turn(*p));
            t.normal_deltas.iter_mut().for_each(|p| *p = turn(*p));
        }
    }
}
