//! What a scene must be for any format to be written from it: [`Scene::check`].
//!
//! Scenes read from files are whatever the file holds (a reader keeps a broken parent or an
//! unsorted key for `validate` to report). A scene a caller builds (Python's
//! `animbin.from_scene`, a tool's own exporter) is checked before a file is written from it,
//! so that no writer is handed keys out of order, a frame rate of -30, an index past its
//! array, a parent cycle or a value that is not finite. Fields are named as the Python
//! scene classes name them (`animations[0].tracks[3].rotation_frames`), which is also the
//! Rust model's shape with `tracks` for [`Animation::bones`].

use std::fmt;

use crate::math::Transform;
use crate::scene::{Animation, Hair, Instance, KeyValue, Keys, LightKind, Mesh, MorphTarget, Projection, Scene};

/// A field of a scene that no file can be written from, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct SceneError {
    /// The field, as a path: `meshes[0].faces[12]`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

/// Every number finite, or an error naming `field` and the first that is not.
fn finite_all(field: String, numbers: impl IntoIterator<Item = f64>) -> Result<(), SceneError> {
    match numbers.into_iter().find(|v| !v.is_finite()) {
        Some(v) => fail(field, format!("{v} is not finite")),
        None => Ok(()),
    }
}

fn fail(field: impl fmt::Display, message: impl Into<String>) -> Result<(), SceneError> {
    Err(SceneError {
        field: field.to_string(),
        message: message.into(),
    })
}

impl Scene {
    /// Checks what every format needs of a scene before a file is written from it: bone
    /// parents in range and without cycles; finite transforms; for each mesh, faces that
    /// index its vertices, per-vertex arrays as long as its positions, finite positions,
    /// normals and UVs, skin bones that index the skeleton (when it has one) and finite
    /// weights; for each animation, a positive finite frame rate and length, and for each
    /// channel finite keys in strictly increasing frames. A material index past the scene's
    /// materials is not an error: writers treat it as no material, as they always have (an
    /// SEModel's meshes name materials that another file may hold). Each hair has as many
    /// particles as its segments call for (the sum of `segments[i] + 1`), finite, and a
    /// material inside the scene's; each instance a finite placement.
    pub fn check(&self) -> Result<(), SceneError> {
        self.check_skeleton()?;
        for (m, mesh) in self.meshes.iter().enumerate() {
            check_mesh(mesh, &format!("meshes[{m}]"), self)?;
        }
        for (h, hair) in self.hairs.iter().enumerate() {
            check_hair(hair, &format!("hairs[{h}]"), self.materials.len())?;
        }
        for (i, instance) in self.instances.iter().enumerate() {
            check_instance(instance, &format!("instances[{i}]"))?;
        }
        for (a, animation) in self.animations.iter().enumerate() {
            check_animation(animation, &format!("animations[{a}]"))?;
        }
        self.check_graph()
    }

    /// The graph's indices: every node, mesh and skin they name exists, and a skin has one
    /// matrix per joint (or none).
    fn check_graph(&self) -> Result<(), SceneError> {
        let nodes = self.skeleton.bones.len();
        let node = |field: String, i: usize| {
            if i < nodes {
                Ok(())
            } else {
                fail(field, format!("{i} is past the {nodes} nodes"))
            }
        };
        for (k, instance) in self.mesh_instances.iter().enumerate() {
            node(format!("mesh_instances[{k}].node"), instance.node)?;
            if let Some(&m) = instance.meshes.iter().find(|&&m| m >= self.meshes.len()) {
                return fail(
                    format!("mesh_instances[{k}].meshes"),
                    format!("{m} is past the {} meshes", self.meshes.len()),
                );
            }
        }
        for (k, skin) in self.skins.iter().enumerate() {
            if let Some(&j) = skin.joints.iter().find(|&&j| j >= nodes) {
                node(format!("skins[{k}].joints"), j)?;
            }
            let matrices = skin.inverse_bind_matrices.len();
            if matrices != 0 && matrices != skin.joints.len() {
                return fail(
                    format!("skins[{k}].inverse_bind_matrices"),
                    format!("{matrices} matrices for {} joints", skin.joints.len()),
                );
            }
        }
        for (m, mesh) in self.meshes.iter().enumerate() {
            if let Some(s) = mesh
                .skin
                .as_ref()
                .and_then(|s| s.skin)
                .filter(|&s| s >= self.skins.len())
            {
                return fail(
                    format!("meshes[{m}].skin.skin"),
                    format!("{s} is past the {} skins", self.skins.len()),
                );
            }
        }
        for (k, camera) in self.cameras.iter().enumerate() {
            node(format!("cameras[{k}].node"), camera.node)?;
            let numbers = match camera.projection {
                Projection::Perspective {
                    yfov,
                    aspect_ratio,
                    znear,
                    zfar,
                } => vec![Some(yfov), aspect_ratio, Some(znear), zfar],
                Projection::Orthographic {
                    xmag,
                    ymag,
                    znear,
                    zfar,
                } => {
                    vec![Some(xmag), Some(ymag), Some(znear), Some(zfar)]
                }
            };
            finite_all(format!("cameras[{k}].projection"), numbers.into_iter().flatten())?;
        }
        for (k, light) in self.lights.iter().enumerate() {
            node(format!("lights[{k}].node"), light.node)?;
            let cone = match light.kind {
                LightKind::Spot {
                    inner_cone_angle,
                    outer_cone_angle,
                } => vec![inner_cone_angle, outer_cone_angle],
                _ => Vec::new(),
            };
            let numbers = light
                .color
                .into_iter()
                .chain([light.intensity])
                .chain(light.range)
                .chain(cone);
            finite_all(format!("lights[{k}]"), numbers)?;
        }
        // What a graph format writes as JSON numbers, which hold no NaN or infinity.
        for (m, material) in self.materials.iter().enumerate() {
            if let Some(surface) = &material.surface {
                let numbers = [surface.metallic, surface.roughness]
                    .into_iter()
                    .chain(surface.emissive);
                finite_all(format!("materials[{m}].surface"), numbers.map(f64::from))?;
            }
            for (l, link) in material.links.iter().enumerate() {
                let transform = link
                    .transform
                    .iter()
                    .flat_map(|t| t.offset.into_iter().chain([t.rotation]).chain(t.scale));
                finite_all(
                    format!("materials[{m}].links[{l}]"),
                    link.strength.into_iter().chain(transform),
                )?;
            }
        }
        for (m, mesh) in self.meshes.iter().enumerate() {
            let weights = mesh.morph_targets.iter().map(|t| f64::from(t.default_weight));
            finite_all(format!("meshes[{m}].morph_targets[].default_weight"), weights)?;
        }
        Ok(())
    }

    fn check_skeleton(&self) -> Result<(), SceneError> {
        let bones = &self.skeleton.bones;
        for (i, bone) in bones.iter().enumerate() {
            let field = format_args!("skeleton.parents[{i}]");
            match bone.parent {
                Some(p) if p >= bones.len() => return fail(field, format!("{p} is past the {} bones", bones.len())),
                Some(p) if p == i => return fail(field, "a bone is its own parent"),
                _ => {}
            }
            let t = &bone.local;
            let values = [
                t.translation.x,
                t.translation.y,
                t.translation.z,
                t.rotation.x,
                t.rotation.y,
            ]
            .into_iter()
            .chain([t.rotation.z, t.rotation.w, t.scale.x, t.scale.y, t.scale.z]);
            if let Some(bad) = values.into_iter().find(|v| !v.is_finite()) {
                return fail(
                    format_args!("skeleton[{i}] ({:?})", bone.name),
                    format!("{bad} is not finite"),
                );
            }
        }
        // Each bone's chain of parents is walked once: a walk that meets a bone of its own
        // walk is a cycle; one that meets a bone already cleared stops there (linear time).
        let mut state = vec![0u8; bones.len()]; // 0 unseen, 1 on this walk, 2 cleared
        for start in 0..bones.len() {
            let mut at = start;
            while state[at] == 0 {
                state[at] = 1;
                match bones[at].parent {
                    Some(p) => at = p,
                    None => break,
                }
            }
            if state[at] == 1 && bones[at].parent.is_some() {
                return fail(
                    format_args!("skeleton.parents[{at}]"),
                    format!("bone {at} ({:?}) is in a cycle of parents", bones[at].name),
                );
            }
            let mut at = start;
            while state[at] == 1 {
                state[at] = 2;
                match bones[at].parent {
                    Some(p) => at = p,
                    None => break,
                }
            }
        }
        Ok(())
    }
}

fn check_mesh(mesh: &Mesh, field: &str, scene: &Scene) -> Result<(), SceneError> {
    let vertices = mesh.positions.len();
    let finite3 = |name: &str, values: &mut dyn Iterator<Item = [f32; 3]>| -> Result<(), SceneError> {
        for (i, v) in values.enumerate() {
            if let Some(bad) = v.iter().find(|x| !x.is_finite()) {
                return fail(format_args!("{field}.{name}[{i}]"), format!("{bad} is not finite"));
            }
        }
        Ok(())
    };
    finite3("positions", &mut mesh.positions.iter().map(|p| [p.x, p.y, p.z]))?;
    if !mesh.normals.is_empty() && mesh.normals.len() != vertices {
        return fail(
            format_args!("{field}.normals"),
            format!("{} normals for {vertices} vertices", mesh.normals.len()),
        );
    }
    finite3("normals", &mut mesh.normals.iter().map(|n| [n.x, n.y, n.z]))?;
    for (l, layer) in mesh.uv_layers.iter().enumerate() {
        if layer.len() != vertices {
            return fail(
                format_args!("{field}.uv_layers[{l}]"),
                format!("{} coordinates for {vertices} vertices", layer.len()),
            );
        }
        finite3(
            &format!("uv_layers[{l}]"),
            &mut layer.iter().map(|uv| [uv.x, uv.y, 0.0]),
        )?;
    }
    if !mesh.colors.is_empty() && mesh.colors.len() != vertices {
        return fail(
            format_args!("{field}.color_layers[0]"),
            format!("{} colours for {vertices} vertices", mesh.colors.len()),
        );
    }
    for (l, layer) in mesh.extra_color_layers.iter().enumerate() {
        if layer.len() != vertices {
            return fail(
                format_args!("{field}.color_layers[{}]", l + 1),
                format!("{} colours for {vertices} vertices", layer.len()),
            );
        }
    }
    for (f, face) in mesh.faces.iter().enumerate() {
        if let Some(&v) = face.iter().find(|&&v| v as usize >= vertices) {
            return fail(
                format_args!("{field}.faces[{f}]"),
                format!("vertex {v} is past the {vertices} vertices"),
            );
        }
    }
    if let Some(skin) = &mesh.skin {
        let expected = vertices * skin.influences;
        if skin.bones.len() != expected || skin.weights.len() != expected {
            return fail(
                format_args!("{field}.bone_indices"),
                format!(
                    "{} indices and {} weights for {vertices} vertices of {} influences",
                    skin.bones.len(),
                    skin.weights.len(),
                    skin.influences
                ),
            );
        }
        let bones = scene.skeleton.bones.len();
        if bones > 0 {
            if let Some(at) = skin.bones.iter().position(|&b| b as usize >= bones) {
                return fail(
                    format_args!("{field}.bone_indices[{}]", at / skin.influences.max(1)),
                    format!("bone {} is past the {bones} bones", skin.bones[at]),
                );
            }
        }
        if let Some(at) = skin.weights.iter().position(|w| !w.is_finite()) {
            return fail(
                format_args!("{field}.bone_weights[{}]", at / skin.influences.max(1)),
                format!("{} is not finite", skin.weights[at]),
            );
        }
    }
    for (k, target) in mesh.morph_targets.iter().enumerate() {
        check_morph_target(target, &format!("{field}.morph_targets[{k}]"), vertices)?;
    }
    Ok(())
}

/// A morph target: one offset (and, when any, one normal offset) per index, indices inside
/// the mesh, finite offsets.
fn check_morph_target(target: &MorphTarget, field: &str, vertices: usize) -> Result<(), SceneError> {
    let k = target.indices.len();
    if target.position_deltas.len() != k {
        return fail(
            format_args!("{field}.deltas"),
            format!("{} offsets for {k} indices", target.position_deltas.len()),
        );
    }
    if !target.normal_deltas.is_empty() && target.normal_deltas.len() != k {
        return fail(
            format_args!("{field}.normal_deltas"),
            format!("{} offsets for {k} indices", target.normal_deltas.len()),
        );
    }
    if let Some(i) = target.indices.iter().position(|&v| v as usize >= vertices) {
        return fail(
            format_args!("{field}.indices[{i}]"),
            format!("vertex {} is past the {vertices} vertices", target.indices[i]),
        );
    }
    for (name, values) in [
        ("deltas", &target.position_deltas),
        ("normal_deltas", &target.normal_deltas),
    ] {
        if let Some(i) = values
            .iter()
            .position(|d| ![d.x, d.y, d.z].iter().all(|c| c.is_finite()))
        {
            return fail(format_args!("{field}.{name}[{i}]"), "not finite");
        }
    }
    Ok(())
}

/// A hair: the particles its segments call for, finite, and a material of the scene.
fn check_hair(hair: &Hair, field: &str, materials: usize) -> Result<(), SceneError> {
    let expected = hair.particle_count();
    if hair.particles.len() as u64 != expected {
        return fail(
            format_args!("{field}.particles"),
            format!(
                "{} particles for {} strands of {} segments (a strand of k segments has k + 1 particles: {expected})",
                hair.particles.len(),
                hair.segments.len(),
                expected - hair.segments.len() as u64,
            ),
        );
    }
    if let Some(i) = hair
        .particles
        .iter()
        .position(|p| ![p.x, p.y, p.z].iter().all(|c| c.is_finite()))
    {
        return fail(format_args!("{field}.particles[{i}]"), "not finite");
    }
    match hair.material {
        Some(m) if m >= materials => fail(
            format_args!("{field}.material"),
            format!("{m} is past the {materials} materials"),
        ),
        _ => Ok(()),
    }
}

/// An instance: a finite placement.
fn check_instance(instance: &Instance, field: &str) -> Result<(), SceneError> {
    let Transform {
        translation: t,
        rotation: r,
        scale: s,
    } = instance.placement;
    let values = [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z];
    match values.into_iter().find(|v| !v.is_finite()) {
        Some(bad) => fail(format_args!("{field}.placement"), format!("{bad} is not finite")),
        None => Ok(()),
    }
}

fn check_animation(animation: &Animation, field: &str) -> Result<(), SceneError> {
    if !(animation.framerate.is_finite() && animation.framerate > 0.0) {
        return fail(
            format_args!("{field}.framerate"),
            format!("{} is not a positive number of frames per second", animation.framerate),
        );
    }
    if !(animation.frame_count.is_finite() && animation.frame_count >= 0.0) {
        return fail(
            format_args!("{field}.frame_count"),
            format!("{} is not a length in frames", animation.frame_count),
        );
    }
    for (t, track) in animation.bones.iter().enumerate() {
        let track_field = format!("{field}.tracks[{t}]");
        check_keys(&track.translation, &track_field, "translation", |v| {
            [v.x, v.y, v.z, 0.0]
        })?;
        check_keys(&track.rotation, &track_field, "rotation", |q| [q.x, q.y, q.z, q.w])?;
        check_keys(&track.scale, &track_field, "scale", |v| [v.x, v.y, v.z, 0.0])?;
    }
    for (w, track) in animation.weights.iter().enumerate() {
        let mut previous = None;
        for (i, key) in track.keys.iter().enumerate() {
            if !key.frame.is_finite() || previous.is_some_and(|p| key.frame <= p) {
                return fail(
                    format_args!("{field}.weights[{w}].frames"),
                    format!("frame {} at index {i} is not finite or not increasing", key.frame),
                );
            }
            previous = Some(key.frame);
            if !key.value.is_finite() {
                return fail(
                    format_args!("{field}.weights[{w}].weights[{i}]"),
                    format!("{} is not finite", key.value),
                );
            }
        }
    }
    for (n, note) in animation.notes.iter().enumerate() {
        if !note.frame.is_finite() {
            return fail(
                format_args!("{field}.notes[{n}]"),
                format!("frame {} is not finite", note.frame),
            );
        }
    }
    Ok(())
}

/// A channel's keys: finite frames in strictly increasing order and finite values.
fn check_keys<T: KeyValue>(
    keys: &Keys<T>,
    track: &str,
    channel: &str,
    components: impl Fn(T) -> [f64; 4],
) -> Result<(), SceneError> {
    let mut previous = None;
    for (i, key) in keys.iter().enumerate() {
        if !key.frame.is_finite() {
            return fail(
                format_args!("{track}.{channel}_frames"),
                format!("frame {} at index {i} is not finite", key.frame),
            );
        }
        if previous.replace(key.frame).is_some_and(|p| key.frame <= p) {
            return fail(
                format_args!("{track}.{channel}_frames"),
                format!("not increasing at index {i}"),
            );
        }
        if let Some(bad) = components(key.value).into_iter().find(|v| !v.is_finite()) {
            return fail(format_args!("{track}.{channel}s[{i}]"), format!("{bad} is not finite"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Transform, Vec3};
    use crate::scene::{Bone, BoneTrack, Key, SkinWeights};

    fn bone(parent: Option<usize>) -> Bone {
        Bone {
            kind: Default::default(),
            scale_compensate: false,
            rest_scale: Vec3::ONE,
            name: "b".into(),
            parent,
            local: Transform::IDENTITY,
            global: Transform::IDENTITY,
            cosmetic: false,
        }
    }

    fn error(scene: &Scene) -> String {
        scene.check().unwrap_err().to_string()
    }

    #[test]
    fn a_well_made_scene_passes() {
        let mut scene = Scene::default();
        scene.skeleton.bones = vec![bone(None), bone(Some(0))];
        scene.meshes.push(Mesh {
            positions: vec![Vec3::new(0.0, 0.0, 0.0); 3],
            faces: vec![[0, 1, 2]],
            skin: Some(SkinWeights {
                skin: None,
                influences: 1,
                bones: vec![0, 1, 1],
                weights: vec![1.0; 3],
                blend: Default::default(),
            }),
            ..Mesh::default()
        });
        scene.animations.push(Animation {
            bones: vec![BoneTrack {
                rotation: vec![
                    Key::new(0.0, Quat::new(0.0, 0.0, 0.0, 1.0)),
                    Key::new(2.0, Quat::new(0.0, 0.0, 0.0, 1.0)),
                ]
                .into(),
                ..BoneTrack::default()
            }],
            ..Animation::default()
        });
        assert_eq!(scene.check(), Ok(()));
    }

    #[test]
    fn a_graph_number_that_json_cannot_hold_is_named() {
        use crate::scene::{Camera, Light, Material, Surface};
        let mut scene = Scene::default();
        scene.skeleton.bones = vec![bone(None)];
        let camera = |yfov| Camera {
            name: String::new(),
            node: 0,
            projection: Projection::Perspective {
                yfov,
                aspect_ratio: None,
                znear: 0.1,
                zfar: None,
            },
        };
        scene.cameras = vec![camera(0.8)];
        assert_eq!(scene.check(), Ok(()));
        scene.cameras = vec![camera(f64::NAN)];
        assert_eq!(error(&scene), "cameras[0].projection: NaN is not finite");
        scene.cameras.clear();
        scene.lights = vec![Light {
            name: String::new(),
            node: 0,
            kind: LightKind::Spot {
                inner_cone_angle: 0.1,
                outer_cone_angle: f64::INFINITY,
            },
            color: [1.0; 3],
            intensity: 1.0,
            range: None,
        }];
        assert_eq!(error(&scene), "lights[0]: inf is not finite");
        scene.lights.clear();
        scene.materials = vec![Material {
            surface: Some(Surface {
                metallic: 0.0,
                roughness: f32::NAN,
                emissive: [0.0; 3],
                double_sided: false,
            }),
            ..Material::default()
        }];
        assert_eq!(error(&scene), "materials[0].surface: NaN is not finite");
        scene.materials.clear();
        scene.meshes.push(Mesh {
            morph_targets: vec![MorphTarget {
                default_weight: f32::NEG_INFINITY,
                ..MorphTarget::default()
            }],
            ..Mesh::default()
        });
        assert_eq!(
            error(&scene),
            "meshes[0].morph_targets[].default_weight: -inf is not finite"
        );
    }

    #[test]
    fn each_broken_field_is_named() {
        let mut scene = Scene::default();
        scene.skeleton.bones = vec![bone(Some(1)), bone(Some(0))];
        assert_eq!(
            error(&scene),
            "skeleton.parents[0]: bone 0 (\"b\") is in a cycle of parents"
        );
        scene.skeleton.bones = vec![bone(Some(5))];
        assert_eq!(error(&scene), "skeleton.parents[0]: 5 is past the 1 bones");

        let mut scene = Scene::default();
        scene.meshes.push(Mesh {
            positions: vec![Vec3::new(0.0, 0.0, 0.0); 3],
            faces: vec![[0, 1, 2], [0, 1, 3]],
            ..Mesh::default()
        });
        assert_eq!(error(&scene), "meshes[0].faces[1]: vertex 3 is past the 3 vertices");
        scene.meshes[0].faces.pop();
        scene.meshes[0].positions[2].y = f32::INFINITY;
        assert_eq!(error(&scene), "meshes[0].positions[2]: inf is not finite");

        let mut scene = Scene::default();
        let key = |frame| Key::new(frame, Quat::new(0.0, 0.0, 0.0, 1.0));
        scene.animations.push(Animation {
            bones: vec![
                BoneTrack::default(),
                BoneTrack::default(),
                BoneTrack::default(),
                BoneTrack {
                    rotation: vec![key(5.0), key(1.0), key(3.0)].into(),
                    ..BoneTrack::default()
                },
            ],
            ..Animation::default()
        });
        assert_eq!(
            error(&scene),
            "animations[0].tracks[3].rotation_frames: not increasing at index 1"
        );
        scene.animations[0].bones[3].rotation = vec![key(1.0), key(1.0)].into();
        assert_eq!(
            error(&scene),
            "animations[0].tracks[3].rotation_frames: not increasing at index 1"
        );
        scene.animations[0].bones[3].rotation.clear();
        scene.animations[0].framerate = -30.0;
        assert_eq!(
            error(&scene),
            "animations[0].framerate: -30 is not a positive number of frames per second"
        );
    }

    #[test]
    fn hair_needs_one_more_particle_than_segments_per_strand_and_a_material_in_range() {
        let mut scene = Scene::default();
        scene.hairs.push(Hair {
            name: "fringe".into(),
            segments: vec![2, 1],
            particles: vec![Vec3::new(0.0, 0.0, 0.0); 5],
            material: None,
        });
        assert_eq!(scene.check(), Ok(()));
        scene.hairs[0].particles.pop();
        assert_eq!(
            error(&scene),
            "hairs[0].particles: 4 particles for 2 strands of 3 segments (a strand of k segments has k + 1 particles: 5)"
        );
        scene.hairs[0].segments = vec![u32::MAX; 3];
        assert_eq!(
            error(&scene),
            "hairs[0].particles: 4 particles for 3 strands of 12884901885 segments (a strand of k segments has k + 1 particles: 12884901888)"
        );
        scene.hairs[0].segments = vec![3];
        scene.hairs[0].particles[1].z = f32::NAN;
        assert_eq!(error(&scene), "hairs[0].particles[1]: not finite");
        scene.hairs[0].particles[1].z = 0.0;
        scene.hairs[0].material = Some(0);
        assert_eq!(error(&scene), "hairs[0].material: 0 is past the 0 materials");
        scene.materials.push(crate::scene::Material::default());
        assert_eq!(scene.check(), Ok(()));
    }

    #[test]
    fn an_instance_needs_a_finite_placement() {
        let mut scene = Scene::default();
        scene.instances.push(Instance {
            name: "crate".into(),
            path: "props/crate.cast".into(),
            placement: Transform::IDENTITY,
        });
        assert_eq!(scene.check(), Ok(()));
        scene.instances[0].placement.scale.y = f64::INFINITY;
        assert_eq!(error(&scene), "instances[0].placement: inf is not finite");
    }
}
