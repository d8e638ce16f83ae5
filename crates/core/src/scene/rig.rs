//! The rig a game format holds, made from a scene graph: [`Scene::bake_to_rig`].
//!
//! A game format holds a skeleton, meshes in model space bound to its bones, and bone
//! tracks. A graph (a glTF from Blender, Maya or three.js) also has plain nodes, meshes
//! placed by nodes, skins with their own matrices, cameras and lights. Baking keeps what
//! the file looks like wherever the rig can say it, and names the rest:
//! - a node stays (as a bone) when it is a bone, is animated, carries nothing (an empty), places
//!   a mesh that must follow something that moves, or is above such a node; the nodes that
//!   only place a mesh, a camera or a light where nothing moves them are folded away;
//! - a mesh a node places without a skin is moved into model space by that node, and bound
//!   whole to it where the node stays (so it follows the node's animation); a mesh placed by
//!   several nodes is copied for each;
//! - a node's uniform scale that no animation changes is pushed down into the lengths below
//!   it (its children's translations and their translation keys), which draws the same and
//!   leaves bind poses without a scale, which the game formats cannot store;
//! - cameras, lights, texture links, surfaces and default morph weights are named as lost.

use std::collections::HashSet;

use super::{ConversionReport, NodeKind, Scene, SkinWeights};
use crate::math::{Mat4, Transform, Vec3};

impl Scene {
    /// Whether the scene holds more than a rig: plain nodes, meshes placed by nodes, skins,
    /// cameras, lights, texture links, surfaces or default morph weights (what
    /// [`Scene::bake_to_rig`] bakes or names).
    pub fn has_graph(&self) -> bool {
        !self.mesh_instances.is_empty()
            || !self.skins.is_empty()
            || !self.cameras.is_empty()
            || !self.lights.is_empty()
            || self.skeleton.bones.iter().any(|b| !b.kind.is_bone())
            || self
                .materials
                .iter()
                .any(|m| !m.links.is_empty() || m.surface.is_some())
            || self
                .meshes
                .iter()
                .any(|m| m.morph_targets.iter().any(|t| t.default_weight != 0.0))
    }

    /// Bakes the graph into the rig a game format holds (see the module docs), recording in
    /// `report` what the rig cannot say. A scene without a graph ([`Scene::has_graph`]) is
    /// left as it is.
    pub fn bake_to_rig(&mut self, report: &mut ConversionReport) {
        if !self.has_graph() {
            return;
        }
        self.name_graph_losses(report);
        let n = self.skeleton.bones.len();
        let parents: Vec<Option<usize>> = self
            .skeleton
            .parents()
            .into_iter()
            .enumerate()
            .map(|(i, p)| p.filter(|&p| p < n && p != i))
            .collect();
        let order = crate::hierarchy::parents_first(&parents);
        let animated: HashSet<&str> = self
            .animations
            .iter()
            .flat_map(|a| a.bones.iter().map(|t| t.bone.as_str()))
            .collect();
        let is_animated: Vec<bool> = self
            .skeleton
            .bones
            .iter()
            .map(|b| animated.contains(b.name.as_str()))
            .collect();
        let scale_animated: Vec<bool> = {
            let names: HashSet<&str> = self
                .animations
                .iter()
                .flat_map(|a| a.bones.iter().filter(|t| !t.scale.is_empty()).map(|t| t.bone.as_str()))
                .collect();
            self.skeleton
                .bones
                .iter()
                .map(|b| names.contains(b.name.as_str()))
                .collect()
        };
        // Which meshes a node places without a skin.
        let in_node_space = self.meshes_in_node_space();
        let mut places_rigid = vec![false; n];
        for instance in &self.mesh_instances {
            if instance.node < n
                && instance
                    .meshes
                    .iter()
                    .any(|&m| in_node_space.get(m).copied().unwrap_or(false))
            {
                places_rigid[instance.node] = true;
            }
        }
        // What moves: a bone, an animated node, or anything below one.
        let mut moves = vec![false; n];
        for &i in &order {
            let bone = self.skeleton.bones[i].kind == NodeKind::Bone;
            moves[i] = bone || is_animated[i] || parents[i].is_some_and(|p| moves[p]);
        }
        // What a node carries: the nodes that only place a mesh, a camera or a light are folded
        // away when nothing moves them; an empty stays, as the bone it would be in a rig.
        let mut carries = vec![false; n];
        for i in self
            .mesh_instances
            .iter()
            .map(|i| i.node)
            .chain(self.cameras.iter().map(|c| c.node))
        {
            if let Some(c) = carries.get_mut(i) {
                *c = true;
            }
        }
        for light in &self.lights {
            if let Some(c) = carries.get_mut(light.node) {
                *c = true;
            }
        }
        let mut kept = vec![false; n];
        for &i in &order {
            let bone = self.skeleton.bones[i].kind == NodeKind::Bone;
            kept[i] = bone || is_animated[i] || !carries[i] || (places_rigid[i] && moves[i]);
        }
        for &i in order.iter().rev() {
            if kept[i] {
                if let Some(p) = parents[i] {
                    kept[p] = true;
                }
            }
        }

        // Where each node is at rest (a node of a skin where the skin bound it), before any
        // scale is pushed down: the meshes it places go there.
        let placed_at: Vec<Transform> = self.skeleton.bones.iter().map(|b| b.global).collect();
        self.bind_where_at_rest();
        self.push_down_uniform_scales(&parents, &order, &scale_animated, &kept, report);

        // Meshes into model space, each placement its own copy.
        let mut used = vec![false; self.meshes.len()];
        let instances = std::mem::take(&mut self.mesh_instances);
        for instance in &instances {
            if instance.node >= n {
                continue;
            }
            for &m in &instance.meshes {
                if m >= self.meshes.len() || !in_node_space[m] {
                    continue;
                }
                let index = if std::mem::replace(&mut used[m], true) {
                    self.meshes.push(self.meshes[m].clone());
                    self.meshes.len() - 1
                } else {
                    m
                };
                let mesh = &mut self.meshes[index];
                transform_mesh(mesh, &placed_at[instance.node].to_matrix());
                if kept[instance.node] {
                    let count = mesh.positions.len();
                    mesh.skin = Some(SkinWeights {
                        influences: 1,
                        bones: vec![instance.node as u32; count],
                        weights: vec![1.0; count],
                        ..SkinWeights::default()
                    });
                }
            }
        }
        // The scene's skins are the bones' bind poses now.
        for mesh in &mut self.meshes {
            if let Some(skin) = &mut mesh.skin {
                skin.skin = None;
            }
        }
        self.skins.clear();
        self.cameras.clear();
        self.lights.clear();
        for material in &mut self.materials {
            material.links.clear();
            material.surface = None;
        }
        for mesh in &mut self.meshes {
            for target in &mut mesh.morph_targets {
                target.default_weight = 0.0;
            }
        }
        for bone in &mut self.skeleton.bones {
            bone.kind = NodeKind::Bone;
        }
        self.keep_nodes(&kept);
    }

    /// Moves each skinned mesh into the space its joints rest in, where its skin bound it in
    /// another (a glTF's bind matrices may leave out the nodes above the skeleton): when every
    /// joint that moves a mesh's vertices is bound by the same transform away from where it
    /// rests, the vertices take that transform and the joints' bind poses become their rest
    /// poses, which draws the same and is what a game format stores.
    fn bind_where_at_rest(&mut self) {
        let mut rest = self.skeleton.clone();
        rest.update_globals();
        let n = self.skeleton.bones.len();
        // Per joint, the transform from its bind pose to its rest pose.
        let offset: Vec<Mat4<f64>> = (0..n)
            .map(|j| {
                let bind = self.skeleton.bones[j].global.to_matrix();
                rest.bones[j]
                    .global
                    .to_matrix()
                    .multiply(&bind.inverse_affine().unwrap_or(Mat4::IDENTITY))
            })
            .collect();
        let mut rebound = vec![false; n];
        for mesh in &mut self.meshes {
            let Some(skin) = &mesh.skin else { continue };
            let mut joints: Vec<usize> = skin
                .bones
                .iter()
                .zip(&skin.weights)
                .filter(|(_, w)| **w > 0.0)
                .map(|(&b, _)| b as usize)
                .filter(|&b| b < n)
                .collect();
            joints.sort_unstable();
            joints.dedup();
            let Some(&first) = joints.first() else { continue };
            let common = &offset[first];
            if !joints.iter().all(|&j| close(&offset[j], common)) || close(common, &Mat4::IDENTITY) {
                continue;
            }
            transform_mesh(mesh, common);
            for &j in &joints {
                rebound[j] = true;
            }
        }
        for (j, bone) in self.skeleton.bones.iter_mut().enumerate() {
            if rebound[j] {
                bone.global = rest.bones[j].global;
            }
        }
    }

    /// Records what a rig has no place for, before it is taken out.
    fn name_graph_losses(&self, report: &mut ConversionReport) {
        let cameras = self.cameras.len();
        if cameras > 0 {
            report.lose(format!("{cameras} camera(s) (a rig holds no cameras)"));
        }
        let lights = self.lights.len();
        if lights > 0 {
            report.lose(format!("{lights} light(s) (a rig holds no lights)"));
        }
        let mut slots: Vec<&str> = self
            .materials
            .iter()
            .flat_map(|m| m.links.iter().map(|l| l.slot.name()))
            .collect();
        slots.sort_unstable();
        slots.dedup();
        if !slots.is_empty() {
            report.lose(format!(
                "embedded images in the texture slots {} (the rig's materials name map files)",
                slots.join(", ")
            ));
        }
        let surfaces = self.materials.iter().filter(|m| m.surface.is_some()).count();
        if surfaces > 0 {
            report.lose(format!(
                "metalness, roughness and emission of {surfaces} material(s) (the rig's materials have none)"
            ));
        }
        let weighted: usize = self
            .meshes
            .iter()
            .map(|m| m.morph_targets.iter().filter(|t| t.default_weight != 0.0).count())
            .sum();
        if weighted > 0 {
            report.lose(format!(
                "the default weights of {weighted} morph target(s) (the rig's rest shape has every target at 0)"
            ));
        }
        // A joint that two skins bind differently keeps the first skin's bind pose.
        let mut first: std::collections::HashMap<usize, &Mat4<f64>> = std::collections::HashMap::new();
        let mut differ = 0;
        let mut sheared = 0;
        for skin in &self.skins {
            for (&joint, m) in skin.joints.iter().zip(&skin.inverse_bind_matrices) {
                match first.get(&joint) {
                    Some(earlier) if *earlier != m => differ += 1,
                    Some(_) => {}
                    None => {
                        first.insert(joint, m);
                        if !is_trs(m) {
                            sheared += 1;
                        }
                    }
                }
            }
        }
        if differ > 0 {
            report.lose(format!(
                "{differ} joint(s) that several skins bind differently: the first skin's bind pose kept"
            ));
        }
        if sheared > 0 {
            report.lose(format!(
                "the shear of {sheared} inverse bind matrice(s) (a bind pose is a translation, rotation and scale)"
            ));
        }
    }

    /// Pushes every node's uniform scale that no animation changes into the lengths below it
    /// (see the module docs), parents first; a non-uniform one stays and is named when a bind
    /// pose carries it.
    fn push_down_uniform_scales(
        &mut self,
        parents: &[Option<usize>],
        order: &[usize],
        scale_animated: &[bool],
        kept: &[bool],
        report: &mut ConversionReport,
    ) {
        let n = self.skeleton.bones.len();
        // The scale pushed into each node's lengths from above, and its own that it pushes.
        let mut above = vec![1.0f64; n];
        let mut pushed_here = vec![1.0f64; n];
        for &i in order {
            let from_parent = parents[i].map_or(1.0, |p| above[p] * pushed_here[p]);
            above[i] = from_parent;
            let bone = &mut self.skeleton.bones[i];
            bone.local.translation = bone.local.translation.scale(from_parent);
            // Uniform to f32's rounding (an exporter writes 0.5 as 0.49999997 on one axis).
            let s = bone.local.scale;
            let (low, high) = (s.x.min(s.y).min(s.z), s.x.max(s.y).max(s.z));
            let uniform = low > 0.0 && high.is_finite() && (high - low) <= 1e-6 * high;
            let mean = (s.x + s.y + s.z) / 3.0;
            if uniform && (mean - 1.0).abs() > 1e-6 && !scale_animated[i] && !bone.scale_compensate {
                pushed_here[i] = mean;
                bone.local.scale = Vec3::ONE;
            }
        }
        let mut kept_scale = 0;
        for i in 0..n {
            let total = above[i] * pushed_here[i];
            let bone = &mut self.skeleton.bones[i];
            if total != 1.0 {
                bone.global.scale = bone.global.scale.scale(1.0 / total);
            }
            let g = bone.global.scale;
            if kept[i] && ((g.x - 1.0).abs() > 1e-5 || (g.y - 1.0).abs() > 1e-5 || (g.z - 1.0).abs() > 1e-5) {
                kept_scale += 1;
            }
        }
        let name_factor: std::collections::HashMap<&str, f64> = self
            .skeleton
            .bones
            .iter()
            .zip(&above)
            .filter(|(_, f)| **f != 1.0)
            .map(|(b, f)| (b.name.as_str(), *f))
            .collect();
        if !name_factor.is_empty() {
            for animation in &mut self.animations {
                for track in &mut animation.bones {
                    if let Some(&f) = name_factor.get(track.bone.as_str()) {
                        track.translation.map_values(|v| v.scale(f));
                    }
                }
            }
        }
        if kept_scale > 0 {
            report.lose(format!(
                "{kept_scale} bind pose(s) with a scale that is not uniform or is animated above them (game formats store bind poses without a scale)"
            ));
        }
    }

    /// Keeps the nodes marked `kept`, in their order, renumbering every index into them.
    fn keep_nodes(&mut self, kept: &[bool]) {
        if kept.iter().all(|&k| k) {
            return;
        }
        let mut new_index = vec![None; kept.len()];
        let mut next = 0;
        for (i, &k) in kept.iter().enumerate() {
            if k {
                new_index[i] = Some(next);
                next += 1;
            }
        }
        let bones = std::mem::take(&mut self.skeleton.bones);
        self.skeleton.bones = bones
            .into_iter()
            .zip(kept)
            .filter(|(_, k)| **k)
            .map(|(mut b, _)| {
                b.parent = b.parent.and_then(|p| new_index.get(p).copied().flatten());
                b
            })
            .collect();
        let remap = |i: usize| new_index.get(i).copied().flatten().unwrap_or(0);
        for mesh in &mut self.meshes {
            if let Some(skin) = &mut mesh.skin {
                for b in &mut skin.bones {
                    *b = remap(*b as usize) as u32;
                }
            }
        }
        for handle in &mut self.skeleton.ik_handles {
            handle.start = remap(handle.start);
            handle.end = remap(handle.end);
            handle.target = handle.target.map(remap);
            handle.pole_vector = handle.pole_vector.map(remap);
            handle.pole = handle.pole.map(remap);
        }
        for constraint in &mut self.skeleton.constraints {
            constraint.bone = remap(constraint.bone);
            constraint.target = remap(constraint.target);
        }
    }
}

/// Whether two affine matrices agree to a millionth of their size.
fn close(a: &Mat4<f64>, b: &Mat4<f64>) -> bool {
    a.close_to(b, 1e-6)
}

/// Whether an affine matrix is a translation, rotation and scale (no shear), to a
/// millionth.
fn is_trs(m: &Mat4<f64>) -> bool {
    let Some(t) = Transform::from_matrix(m) else {
        return false;
    };
    let back = t.to_matrix();
    let size = m.rows.iter().flatten().fold(1.0f64, |a, v| a.max(v.abs()));
    m.rows
        .iter()
        .flatten()
        .zip(back.rows.iter().flatten())
        .all(|(a, b)| (a - b).abs() <= 1e-6 * size)
}

/// Moves a mesh's vertices by `m` (normals and normal offsets by its inverse transpose, made
/// unit again; position offsets by its linear part).
fn transform_mesh(mesh: &mut super::Mesh, m: &Mat4<f64>) {
    let r = &m.rows;
    let point = |p: Vec3<f32>| {
        let p = p.map(f64::from);
        Vec3::new(
            (r[0][0] * p.x + r[0][1] * p.y + r[0][2] * p.z + r[0][3]) as f32,
            (r[1][0] * p.x + r[1][1] * p.y + r[1][2] * p.z + r[1][3]) as f32,
            (r[2][0] * p.x + r[2][1] * p.y + r[2][2] * p.z + r[2][3]) as f32,
        )
    };
    let vector = |p: Vec3<f32>| {
        let p = p.map(f64::from);
        Vec3::new(
            (r[0][0] * p.x + r[0][1] * p.y + r[0][2] * p.z) as f32,
            (r[1][0] * p.x + r[1][1] * p.y + r[1][2] * p.z) as f32,
            (r[2][0] * p.x + r[2][1] * p.y + r[2][2] * p.z) as f32,
        )
    };
    // Normals turn by the inverse transpose of the linear part (made unit again; their
    // offsets are not).
    let Some(inverse) = m.inverse_affine() else {
        return;
    };
    let det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
        + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
    let turned = |n: Vec3<f32>| {
        let n = n.map(f64::from);
        let q = &inverse.rows;
        [0, 1, 2].map(|i| q[0][i] * n.x + q[1][i] * n.y + q[2][i] * n.z)
    };
    let normal = |n: Vec3<f32>| {
        let v = turned(n);
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if len > 0.0 && len.is_finite() {
            Vec3::new((v[0] / len) as f32, (v[1] / len) as f32, (v[2] / len) as f32)
        } else {
            n
        }
    };
    let normal_offset = |n: Vec3<f32>| {
        let v = turned(n);
        Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32)
    };
    mesh.positions.iter_mut().for_each(|p| *p = point(*p));
    mesh.normals.iter_mut().for_each(|p| *p = normal(*p));
    for target in &mut mesh.morph_targets {
        target.position_deltas.iter_mut().for_each(|p| *p = vector(*p));
        target.normal_deltas.iter_mut().for_each(|p| *p = normal_offset(*p));
    }
    if det < 0.0 {
        // A mirror turns faces inside out: reverse their winding so they face out again.
        for face in &mut mesh.faces {
            face.swap(1, 2);
        }
    }
}
