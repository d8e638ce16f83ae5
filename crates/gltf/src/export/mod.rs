//! Scene -> glTF 2.0: [`build`] makes the document and its binary buffer from a scene. It
//! runs the parts in file order, each in its own module: bone nodes and the skin in `skin`,
//! images, textures and materials in `material`, mesh primitives in `mesh`, animations in
//! `animation`, all written through the accessor and buffer builder of `builder`; the roots,
//! the unit scale and the URIs of external texture files are here.

use std::collections::HashMap;
use std::sync::Arc;

use animbin_core::SceneOptions;
use animbin_core::images::ImageFiles;
use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{ConversionReport, Precision, Scene};

use crate::error::{Error, Result};
use crate::extras::{self, CompensationExtras, MeshExtras, PlacementExtras, SceneExtras, WrapperExtras};
use crate::json::{self, short};
use crate::xform;

mod animation;
mod builder;
mod compensation;
mod graph;
mod hair;
mod material;
mod mesh;
mod morph;
mod skin;

use animation::{export_animation, key_precision};
use builder::{Builder, node_trs};
use material::materials;
use mesh::mesh_primitive;
use skin::{build_skin, tree_parents};

/// A built glTF document and its binary buffer.
pub(crate) struct Output {
    pub root: json::Root,
    pub bin: crate::glb::BinPieces,
}

/// The names in a report line: the first few, then how many more.
fn name_list(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut s = names
        .iter()
        .take(SHOWN)
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    s
}

/// Builds the glTF document for `scene`, embedding the texture files of `images`. When
/// `scene` is `kept` (the scene the encoding holds on to), its arrays that glTF stores as
/// they are are written from it ([`crate::encode_owned`]).
///
/// Of the options, `unit_scale` multiplies every length of the data (mesh positions, bone
/// and key translations, and so the inverse bind matrices), and is recorded in the scene's
/// extras so that a reader divides by it again; `z_up` goes on one extra root node (marked
/// in its extras) that turns the whole scene Y-up without touching a value, which a reader
/// that drops that node (animbin does) undoes exactly. `framerate` and the other options do
/// not apply (each animation carries its own framerate and kind).
pub(crate) fn build(
    scene: &Scene,
    options: &SceneOptions,
    images: &ImageFiles,
    report: &mut ConversionReport,
    kept: Option<Arc<Scene>>,
) -> Result<Output> {
    // A negative scale mirrors the scene (a point reflection, surfaces kept facing out);
    // zero would collapse it.
    if !(options.unit_scale.is_finite() && options.unit_scale != 0.0) {
        return Err(Error::Unencodable(format!(
            "a unit scale of {} (it must be finite and not zero)",
            options.unit_scale
        )));
    }
    // Judged before the scale, which makes most values inexact.
    let precisions: Vec<Precision> = scene.animations.iter().map(key_precision).collect();
    // Absolute scale keys play divided by their bone's rest scale (Cast's `s`), which glTF
    // has no place for: the channels (and the compensation nodes built from them) hold what
    // plays.
    let folded;
    let scene = if scene.skeleton.bones.iter().all(|b| b.rest_scale == Vec3::ONE) {
        scene
    } else {
        let mut copy = scene.clone();
        pose::fold_rest_scales(&mut copy);
        folded = copy;
        &folded
    };
    let scaled;
    let scene = if options.unit_scale == 1.0 {
        scene
    } else {
        scaled = scaled_scene(scene, options.unit_scale, report);
        &scaled
    };
    let mut b = Builder::keeping(kept);
    let bones = &scene.skeleton.bones;

    // Bones: node i is bone i.
    let parents = tree_parents(scene, report);
    for (i, bone) in bones.iter().enumerate() {
        let mut node = json::Node {
            name: Some(bone.name.clone()),
            ..json::Node::default()
        };
        node_trs(&mut node, &bone.local, &|| {
            format!("bone {i} ({:?}) bind pose", bone.name)
        })?;
        b.node(node);
    }
    // A bone that does not inherit its parent's scale, under a parent whose scale is not 1
    // (at rest or in an animation), hangs from a compensation node that holds its
    // translation and undoes the parent's scale (glTF nodes always inherit it).
    let mut compensation: Vec<Option<usize>> = vec![None; bones.len()];
    // Under a parent that may pass down a shear, a second node below it (see `compensation`).
    let mut turns: Vec<Option<usize>> = vec![None; bones.len()];
    let compensated = pose::compensated_under_scaled_parents(scene);
    let sheared = compensation::sheared(&scene.skeleton, &scene.animations, &parents, &compensated);
    for i in compensated {
        let Some(p) = parents[i] else { continue };
        let marked = || {
            extras::wrap(&CompensationExtras {
                compensates: bones[i].name.clone(),
            })
        };
        let two_nodes = if sheared[i] {
            compensation::rest_nodes(&scene.skeleton, &parents, i)
        } else {
            None
        };
        let what = || format!("bone {i} ({:?}) compensation", bones[i].name);
        let mut node = json::Node {
            name: Some(format!("{}.ssc", bones[i].name)),
            children: vec![i],
            extras: marked(),
            ..json::Node::default()
        };
        match two_nodes {
            Some((outer, inner)) => {
                let mut turn = json::Node {
                    name: Some(format!("{}.ssc.turn", bones[i].name)),
                    children: vec![i],
                    extras: marked(),
                    ..json::Node::default()
                };
                let turned = Transform {
                    rotation: inner,
                    ..Transform::IDENTITY
                };
                node_trs(&mut turn, &turned, &what)?;
                let turn = b.node(turn);
                turns[i] = Some(turn);
                node.children = vec![turn];
                node_trs(&mut node, &outer, &what)?;
            }
            None => {
                if sheared[i] {
                    report.lose(format!(
                        "bone {i} ({:?}) does not inherit its parent's scale, and its parent collapses an axis at rest: \
                         its compensation undoes the parent's scale per axis, which is close but not exact",
                        bones[i].name
                    ));
                }
                let moved = Transform {
                    translation: bones[i].local.translation,
                    rotation: Quat::IDENTITY,
                    scale: inverse_scale(
                        scale_chain(bones, &parents, p)
                            .iter()
                            .fold(Vec3::ONE, |acc, &b| acc * bones[b].local.scale),
                    ),
                };
                node_trs(&mut node, &moved, &what)?;
            }
        }
        b.root.nodes[i].translation = None;
        compensation[i] = Some(b.node(node));
    }
    let mut bone_roots = Vec::new();
    for (i, parent) in parents.iter().enumerate() {
        match parent {
            Some(p) => b.root.nodes[*p].children.push(compensation[i].unwrap_or(i)),
            None => bone_roots.push(i),
        }
    }
    let animated = AnimatedBones {
        by_name: &scene.skeleton.indices_by_name(),
        parents: &parents,
        compensation: &compensation,
        turns: &turns,
    };

    // Images, textures and materials.
    materials(&mut b, scene, images, report);

    // The scene's own skins come first; the skin over the rig, if any, after them (built
    // once the animations have added their nodes).
    let joint_maps = graph::scene_skins(&mut b, scene)?;
    let rig_skin = joint_maps.len();
    let mut rig_skin_binds = false;

    // Meshes: each scene mesh's primitive, made once however many nodes show it.
    let mut primitives: Vec<Option<json::Primitive>> = Vec::with_capacity(scene.meshes.len());
    for (index, mesh) in scene.meshes.iter().enumerate() {
        let skin = mesh.skin.as_ref().and_then(|s| s.skin);
        let joints = match skin {
            Some(s) => Some(joint_maps.get(s).ok_or_else(|| {
                Error::Unencodable(format!(
                    "mesh {index} ({:?}) is bound by skin {s}, but there are {} skins",
                    mesh.name, rig_skin
                ))
            })?),
            None => None,
        };
        primitives.push(mesh_primitive(&mut b, scene, index, mesh, joints, report)?);
    }
    // The glTF mesh of scene meshes `group` (one per group, however many nodes show it) and
    // the skin that binds it.
    let mut gltf_meshes: HashMap<Vec<usize>, (usize, Option<usize>)> = HashMap::new();
    let mut gltf_mesh = |b: &mut Builder, group: &[usize], name: Option<String>| {
        if let Some(&made) = gltf_meshes.get(group) {
            return Some(made);
        }
        let made: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&m| primitives.get(m).is_some_and(Option::is_some))
            .collect();
        let &first = made.first()?;
        let mesh = &scene.meshes[first];
        let skinned = primitives[first]
            .as_ref()
            .is_some_and(|p| p.attributes.contains_key("JOINTS_0"));
        let skin = skinned.then(|| mesh.skin.as_ref().and_then(|s| s.skin).unwrap_or(rig_skin));
        let extras = if made.len() == 1 {
            mesh_extras(scene, mesh, skinned)
        } else {
            None
        };
        let defaults: Vec<f64> = mesh.morph_targets.iter().map(|t| short(t.default_weight)).collect();
        b.root.meshes.push(json::Mesh {
            name: name.or_else(|| Some(mesh.name.clone())),
            primitives: made.iter().filter_map(|&m| primitives[m].clone()).collect(),
            weights: defaults.iter().any(|&w| w != 0.0).then_some(defaults),
            extras: morph::with_target_names(extras, mesh),
        });
        let made = (b.root.meshes.len() - 1, skin);
        gltf_meshes.insert(group.to_vec(), made);
        Some(made)
    };
    let morph_names = |group: &[usize]| -> Option<Vec<String>> {
        let mesh = scene.meshes.get(*group.first()?)?;
        (!mesh.morph_targets.is_empty()).then(|| mesh.morph_targets.iter().map(|t| t.name.clone()).collect())
    };
    // Meshes a node places.
    let mut placed = vec![false; scene.meshes.len()];
    for (index, instance) in scene.mesh_instances.iter().enumerate() {
        if instance.node >= bones.len() || instance.meshes.iter().any(|&m| m >= scene.meshes.len()) {
            return Err(Error::Unencodable(format!(
                "mesh instance {index} ({:?}) names node {} or a mesh past the scene's ({} nodes, {} meshes)",
                instance.name,
                instance.node,
                bones.len(),
                scene.meshes.len()
            )));
        }
        for &m in &instance.meshes {
            placed[m] = true;
        }
        let name = (!instance.name.is_empty()).then(|| instance.name.clone());
        let Some((mesh, skin)) = gltf_mesh(&mut b, &instance.meshes, name) else {
            continue;
        };
        rig_skin_binds |= skin == Some(rig_skin);
        let node = graph::on_node(
            &mut b,
            instance.node,
            |n| n.mesh.is_some(),
            |n| {
                n.mesh = Some(mesh);
                n.skin = skin;
            },
        );
        if let Some(names) = morph_names(&instance.meshes) {
            b.morph_nodes.push((node, names));
        }
    }
    // Meshes in model space: a node of their own at the top.
    let mut mesh_nodes = Vec::new();
    let mut skinned_mesh_nodes = Vec::new();
    for (index, mesh) in scene.meshes.iter().enumerate() {
        if placed[index] {
            continue;
        }
        let Some((mesh_index, skin)) = gltf_mesh(&mut b, &[index], None) else {
            continue;
        };
        rig_skin_binds |= skin == Some(rig_skin);
        let node = b.node(json::Node {
            name: Some(mesh.name.clone()),
            mesh: Some(mesh_index),
            skin,
            ..json::Node::default()
        });
        if let Some(names) = morph_names(&[index]) {
            b.morph_nodes.push((node, names));
        }
        if skin.is_some() {
            skinned_mesh_nodes.push(node);
        } else {
            mesh_nodes.push(node);
        }
    }
    graph::cameras(&mut b, scene)?;
    graph::lights(&mut b, scene)?;

    // Hair, beside the meshes and placed with them.
    for (index, h) in scene.hairs.iter().enumerate() {
        let Some(mesh) = hair::hair_mesh(&mut b, scene, index, h, report)? else {
            continue;
        };
        b.root.meshes.push(mesh);
        let mesh_index = b.root.meshes.len() - 1;
        mesh_nodes.push(b.node(json::Node {
            name: Some(h.name.clone()),
            mesh: Some(mesh_index),
            ..json::Node::default()
        }));
    }

    // Animations.
    let mut extra_nodes: Vec<usize> = Vec::new();
    let mut extra_by_name: HashMap<String, usize> = HashMap::new();
    for (index, anim) in scene.animations.iter().enumerate() {
        export_animation(
            &mut b,
            scene,
            index,
            anim,
            precisions[index],
            &animated,
            &mut extra_by_name,
            &mut extra_nodes,
            report,
        )?;
    }
    // One line for all of them: a file of thousands of animations (x8an segments) would
    // otherwise report thousands.
    let rounded: Vec<String> = scene
        .animations
        .iter()
        .zip(&precisions)
        .filter(|(_, p)| **p == Precision::Double)
        .map(|(a, _)| a.name.clone())
        .collect();
    if !rounded.is_empty() {
        report.lose(format!(
            "key values beyond single precision in {} animation(s) ({}): rounded to f32 (glTF holds f32)",
            rounded.len(),
            name_list(&rounded)
        ));
    }

    // The skin over the rig: every bone and every node an animation added, so that a
    // skeleton arrives in Blender (and other tools) as an armature even when no mesh is bound
    // to it. A mesh bound by it names nodes by index, so then every node is a joint; a
    // graph's plain nodes are otherwise left out (they arrive as empties).
    let rig_joints: Vec<usize> = if rig_skin_binds {
        (0..bones.len()).collect()
    } else {
        let in_scene_skins: std::collections::HashSet<usize> =
            scene.skins.iter().flat_map(|s| s.joints.iter().copied()).collect();
        (0..bones.len())
            .filter(|&i| bones[i].kind.is_bone() && !in_scene_skins.contains(&i))
            .collect()
    };
    let skin = if rig_joints.is_empty() && extra_nodes.is_empty() {
        None
    } else {
        Some(build_skin(&mut b, scene, &rig_joints, &extra_nodes)?)
    };

    // The scene's roots, under a wrapper node when the axes or a skin with several roots
    // (glTF wants one common root for the joints) call for one.
    // The rig skin's joints under the top (glTF wants a skin's joints to share one root).
    let mut roots: Vec<usize> = bone_roots.clone();
    // (`rig_joints` is in increasing order.)
    let in_rig = |r: &usize| rig_joints.binary_search(r).is_ok();
    roots.sort_by_key(|r| !in_rig(r));
    let mut joint_roots = roots.iter().filter(|r| in_rig(r)).count();
    roots.splice(joint_roots..joint_roots, extra_nodes.iter().copied());
    joint_roots += extra_nodes.len();
    roots.extend(&mesh_nodes);
    if scene.placement != Transform::IDENTITY && !roots.is_empty() {
        // The placement moves the whole model: one node above every root (a skinned mesh
        // follows its joints, which are under it).
        let mut node = json::Node {
            name: Some("animbin_placement".into()),
            children: roots,
            extras: extras::wrap(&PlacementExtras { placement: true }),
            ..json::Node::default()
        };
        node_trs(&mut node, &scene.placement, &|| "the model placement".into())?;
        joint_roots = usize::from(joint_roots > 0);
        roots = vec![b.node(node)];
    }
    // Instances of other scene files sit in the world (Cast's are under the Root, beside the
    // model), not under the model's placement.
    let mut placement_lost = false;
    for (index, instance) in scene.instances.iter().enumerate() {
        let node = hair::instance_node(index, instance, &mut placement_lost)?;
        roots.push(b.node(node));
    }
    if placement_lost {
        report.lose(
            "instance placement digits beyond f32 or rotations not of unit length (glTF nodes hold unit f32 rotations)",
        );
    }
    let needs_wrapper = options.z_up || (skin.is_some() && joint_roots > 1);
    let scene_nodes = if needs_wrapper {
        let mut wrapper = json::Node {
            name: Some("animbin_root".into()),
            children: roots,
            extras: extras::wrap(&WrapperExtras { wrapper: true }),
            ..json::Node::default()
        };
        if options.z_up {
            let q = xform::Z_UP_TO_Y_UP;
            wrapper.rotation = Some([q.x as f32, q.y as f32, q.z as f32, q.w as f32].map(short));
        }
        let w = b.node(wrapper);
        if let Some(s) = skin {
            b.root.skins[s].skeleton = Some(w);
        }
        // The scene's own skins name their roots as they did.
        let mut nodes = vec![w];
        nodes.extend(&skinned_mesh_nodes);
        nodes
    } else {
        if let (Some(s), [root]) = (skin, &roots[..joint_roots]) {
            b.root.skins[s].skeleton = Some(*root);
        }
        roots.extend(&skinned_mesh_nodes);
        roots
    };
    if !scene_nodes.is_empty() {
        let extras = (options.unit_scale != 1.0).then(|| {
            extras::wrap(&SceneExtras {
                unit_scale: options.unit_scale,
            })
        });
        b.root.scenes.push(json::Scene {
            name: (!scene.name.is_empty()).then(|| scene.name.clone()),
            nodes: scene_nodes,
            extras: extras.flatten(),
        });
        b.root.scene = Some(0);
    } else if !scene.name.is_empty() {
        report.lose("the model name of a scene without nodes (glTF names scenes of nodes)");
    }
    Ok(Output {
        root: b.root,
        bin: b.bin,
    })
}

/// What animbin keeps of a mesh in its glTF mesh's extras: its influence count, the materials
/// of its UV layers and how it blends its skin; `None` when glTF says it all.
fn mesh_extras(scene: &Scene, mesh: &animbin_core::scene::Mesh, skinned: bool) -> Option<serde_json::Value> {
    let materials = match mesh.materials.as_slice() {
        [Some(m)] if *m < scene.materials.len() => None,
        [] => None,
        other => Some(other.to_vec()),
    };
    let extras = MeshExtras {
        influences: mesh.skin.as_ref().filter(|_| skinned).map(|s| s.influences),
        materials,
        hair: None,
        skin_blend: mesh
            .skin
            .as_ref()
            .filter(|s| skinned && !s.blend.is_linear())
            .map(|s| s.blend),
    };
    (extras != MeshExtras::default())
        .then(|| extras::wrap(&extras))
        .flatten()
}

/// The bones animations can name, and where their channels go.
pub(super) struct AnimatedBones<'a> {
    /// Each bone name's first bone.
    pub(super) by_name: &'a HashMap<&'a str, usize>,
    /// Each bone's parent in the node tree ([`tree_parents`]).
    pub(super) parents: &'a [Option<usize>],
    /// The compensation node of each bone that has one: it takes the bone's translation
    /// channel, and the inverse of its parent's scale channel.
    pub(super) compensation: &'a [Option<usize>],
    /// The second compensation node of each bone under a parent that may pass down a shear:
    /// it holds a rotation, and the first node a rotation and scale besides.
    pub(super) turns: &'a [Option<usize>],
}

/// The bones whose scales make up `parent`'s scale in model space: itself, then its
/// ancestors while the bone below inherits its parent's scale ([`animbin_core::pose::compose`]).
pub(super) fn scale_chain(bones: &[animbin_core::scene::Bone], parents: &[Option<usize>], parent: usize) -> Vec<usize> {
    let mut chain = vec![parent];
    let mut at = parent;
    while let Some(p) = parents[at].filter(|_| !bones[at].scale_compensate) {
        // The tree parents have no cycles; the bound only keeps this from looping if they did.
        if chain.len() > bones.len() {
            break;
        }
        chain.push(p);
        at = p;
    }
    chain
}

/// `1 / s` per axis; a zero scale stays 0 (the parent collapses its children anyway).
pub(super) fn inverse_scale(s: Vec3<f64>) -> Vec3<f64> {
    s.map(|x| if x == 0.0 { 0.0 } else { 1.0 / x })
}

/// A copy of `scene` with every length multiplied by `s` (see [`xform::scale_lengths`]),
/// reporting the lengths that would not read back bit for bit: glTF holds `f32`, and
/// dividing a rounded product by `s` again gives the same `f32` only for most values unless
/// `s` is a power of two.
fn scaled_scene(scene: &Scene, s: f64, report: &mut ConversionReport) -> Scene {
    let mut scaled = scene.clone();
    xform::scale_lengths(&mut scaled, s);
    let back = |original: f64, scaled: f64| ((f64::from(scaled as f32) / s) as f32) == original as f32;
    let mut changed = 0usize;
    let mut count3 = |a: Vec3<f64>, b: Vec3<f64>| {
        changed += usize::from(!(back(a.x, b.x) && back(a.y, b.y) && back(a.z, b.z)));
    };
    for (a, b) in scene.skeleton.bones.iter().zip(&scaled.skeleton.bones) {
        count3(a.local.translation, b.local.translation);
    }
    for (a, b) in scene.animations.iter().zip(&scaled.animations) {
        for (ta, tb) in a.bones.iter().zip(&b.bones) {
            for (ka, kb) in ta.translation.iter().zip(&tb.translation) {
                count3(ka.value, kb.value);
            }
        }
    }
    for (a, b) in scene.meshes.iter().zip(&scaled.meshes) {
        for (pa, pb) in a.positions.iter().zip(&b.positions) {
            count3(pa.map(f64::from), pb.map(f64::from));
        }
    }
    for (a, b) in scene.hairs.iter().zip(&scaled.hairs) {
        for (pa, pb) in a.particles.iter().zip(&b.particles) {
            count3(pa.map(f64::from), pb.map(f64::from));
        }
    }
    for (a, b) in scene.instances.iter().zip(&scaled.instances) {
        count3(a.placement.translation, b.placement.translation);
    }
    if changed > 0 {
        report.lose(format!(
            "{changed} position(s) or translation(s) that do not read back bit for bit once scaled by {s} in f32 (a power of two scales exactly)"
        ));
    }
    scaled
}

/// A URI reference for an external file name: backslashes become slashes and every byte
/// outside the unreserved set (and `/`) is percent-encoded. `None` for an empty name.
pub fn uri_from_name(name: &str) -> Option<String> {
    let name = name.replace('\\', "/");
    if name.is_empty() {
        return None;
    }
    let mut uri = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    Some(uri)
}
