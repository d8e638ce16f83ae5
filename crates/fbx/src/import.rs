//! FBX -> scene through ufbx (the C library's bindings): nodes, meshes with their skins and
//! blend shapes, materials with their textures, and each animation stack baked into keys.
//!
//! ufbx reads the file in memory, within a memory limit that grows with the file
//! ([`memory_limit`]); its result is mapped here without any conversion of axes or units (the
//! scene keeps the file's, as every format's). A mesh's `Model` that only holds the mesh (no
//! children, no transform of its own, or a skinned mesh's) is not made a node: the mesh is in
//! model space (at the root) or placed by its parent, as [`crate::export`] writes them.

use std::collections::HashMap;

use animbin_core::math::{Mat4, Quat, Rgba, Rgba8, Transform, Vec2, Vec3};
use animbin_core::scene::{
    Animation, Bone, BoneTrack, Camera, ConversionReport, Key, Keys, Light, LightKind, Material, Mesh, MeshInstance,
    MorphTarget, NodeKind, Projection, Scene, Skin, SkinBlend, SkinWeights, Texture, WeightTrack,
};
use animbin_core::{Error, ErrorKind, SceneOptions};

use crate::error::{FORMAT, Result};

/// The most memory ufbx may use for a file of `len` bytes: 64 times the file, at least
/// 256 MiB (compressed arrays inflate, and ufbx keeps its own copies).
fn memory_limit(len: usize) -> usize {
    len.saturating_mul(64).max(256 << 20)
}

fn ufbx_error(error: &ufbx::Error) -> Error {
    let info = error.info();
    let detail = if info.is_empty() {
        error.description.to_string()
    } else {
        format!("{} ({info})", &*error.description)
    };
    Error::new(FORMAT, 0, ErrorKind::invalid("an FBX file ufbx reads", detail))
}

fn vec3(v: ufbx::Vec3) -> Vec3<f64> {
    Vec3::new(v.x, v.y, v.z)
}

fn vec3_f32(v: ufbx::Vec3) -> Vec3<f32> {
    Vec3::new(v.x as f32, v.y as f32, v.z as f32)
}

fn transform(t: &ufbx::Transform) -> Transform {
    Transform {
        translation: vec3(t.translation),
        rotation: Quat::new(t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w),
        scale: vec3(t.scale),
    }
}

fn matrix(m: &ufbx::Matrix) -> Mat4<f64> {
    Mat4 {
        rows: [
            [m.m00, m.m01, m.m02, m.m03],
            [m.m10, m.m11, m.m12, m.m13],
            [m.m20, m.m21, m.m22, m.m23],
            [0.0, 0.0, 0.0, 1.0],
        ],
    }
}

/// Whether two affine matrices agree to `tolerance` (relative to their size).
fn close(a: &Mat4<f64>, b: &Mat4<f64>, tolerance: f64) -> bool {
    let size = a.rows.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
    a.rows
        .iter()
        .flatten()
        .zip(b.rows.iter().flatten())
        .all(|(x, y)| (x - y).abs() <= tolerance * size)
}

/// Whether a node only holds a mesh: no children, and either skinned or with an identity
/// transform, so that it need not be a node of the scene.
fn only_holds_a_mesh(node: &ufbx::Node) -> bool {
    let Some(mesh) = &node.mesh else {
        return false;
    };
    if !node.children.is_empty() || node.camera.is_some() || node.light.is_some() {
        return false;
    }
    let t = &node.local_transform;
    let identity =
        vec3(t.translation) == Vec3::ZERO && (t.rotation.w.abs() - 1.0).abs() < 1e-12 && vec3(t.scale) == Vec3::ONE;
    !mesh.skin_deformers.is_empty() || (identity && !node.has_geometry_transform)
}

/// glTF's camera and light axes: right +X, up +Y, looking down -Z (front +Z).
fn view_axes() -> ufbx::CoordinateAxes {
    use ufbx::CoordinateAxis::{PositiveX, PositiveY, PositiveZ};
    ufbx::CoordinateAxes {
        right: PositiveX,
        up: PositiveY,
        front: PositiveZ,
    }
}

/// Whether a node only holds a camera or a light with no transform of its own (once ufbx
/// has turned it into the scene's axes) and has a parent: the view is then placed by the
/// parent, as [`crate::export`] writes them, and the node need not be a node of the scene.
fn only_holds_a_view(node: &ufbx::Node) -> bool {
    if node.camera.is_none() && node.light.is_none() {
        return false;
    }
    if !node.children.is_empty() || node.mesh.is_some() || node.parent.as_ref().is_none_or(|p| p.is_root) {
        return false;
    }
    let t = &node.local_transform;
    vec3(t.translation).dot(vec3(t.translation)) < 1e-24
        && (t.rotation.w.abs() - 1.0).abs() < 1e-12
        && (vec3(t.scale) - Vec3::ONE).dot(vec3(t.scale) - Vec3::ONE) < 1e-24
        && !node.has_geometry_transform
}

/// The axes `options` ask for: Y-up (glTF's: right +X, up +Y, front +Z), or Z-up (right +X,
/// up +Z, front -Y), both right-handed.
fn target_axes(options: &SceneOptions) -> ufbx::CoordinateAxes {
    use ufbx::CoordinateAxis::{NegativeY, PositiveX, PositiveY, PositiveZ};
    if options.z_up {
        ufbx::CoordinateAxes {
            right: PositiveX,
            up: PositiveZ,
            front: NegativeY,
        }
    } else {
        ufbx::CoordinateAxes {
            right: PositiveX,
            up: PositiveY,
            front: PositiveZ,
        }
    }
}

/// Reads an FBX file into a scene in the axes and unit `options` give (the ones
/// [`crate::WriteOptions::from_scene_options`] writes, so that a file animbin wrote comes back
/// unchanged), recording what the scene does not take of it.
pub fn to_scene(bytes: &[u8], scene_options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
    let limit = memory_limit(bytes.len());
    let allocator = || ufbx::AllocatorOpts {
        memory_limit: limit,
        ..Default::default()
    };
    let options = ufbx::LoadOpts {
        temp_allocator: allocator(),
        result_allocator: allocator(),
        load_external_files: false,
        ignore_missing_external_files: true,
        // Files state their up axis and unit (Blender's are often centimetres): geometry,
        // transforms and keys are converted to the scene's, not left in a root node.
        target_axes: target_axes(scene_options),
        target_unit_meters: scene_options.unit_scale,
        space_conversion: ufbx::SpaceConversion::ModifyGeometry,
        // Cameras and lights in the scene's (glTF's) axes: looking and shining down -Z.
        target_camera_axes: view_axes(),
        target_light_axes: view_axes(),
        ..Default::default()
    };
    let file = ufbx::load_memory(bytes, options).map_err(|e| ufbx_error(&e))?;
    let mut scene = Scene::default();

    // Nodes in file order (which keeps the order they were written in); a node's parent is
    // a node that stays (a node that only holds a mesh has no children), or the root.
    let mut index_of: HashMap<u32, usize> = HashMap::new();
    let clustered: std::collections::HashSet<u32> = file
        .skin_clusters
        .iter()
        .filter_map(|c| c.bone_node.as_ref().map(|n| n.element.element_id))
        .collect();
    let kept: Vec<&ufbx::Node> = file
        .nodes
        .iter()
        .map(|n| &**n)
        .filter(|n| !n.is_root && !only_holds_a_mesh(n) && !only_holds_a_view(n))
        .collect();
    for (index, node) in kept.iter().enumerate() {
        index_of.insert(node.element.element_id, index);
    }
    let parent_of = |node: &ufbx::Node| {
        node.parent
            .as_ref()
            .and_then(|p| index_of.get(&p.element.element_id).copied())
    };
    let mut placed_by: Vec<(u32, Option<usize>)> = Vec::new();
    for node in file.nodes.iter().filter(|n| !n.is_root) {
        if node.mesh.is_some() {
            let placer = index_of
                .get(&node.element.element_id)
                .copied()
                .or_else(|| parent_of(node));
            placed_by.push((node.element.element_id, placer));
        }
    }
    for node in &kept {
        let local = transform(&node.local_transform);
        let is_bone = node.bone.is_some() || clustered.contains(&node.element.element_id);
        scene.skeleton.bones.push(Bone {
            name: node.element.name.to_string(),
            parent: parent_of(node),
            local,
            global: local,
            cosmetic: false,
            scale_compensate: node.inherit_mode == ufbx::InheritMode::IgnoreParentScale,
            rest_scale: Vec3::ONE,
            kind: if is_bone { NodeKind::Bone } else { NodeKind::Plain },
        });
    }
    scene.skeleton.update_globals();
    let rest_globals: Vec<Mat4<f64>> = scene.skeleton.bones.iter().map(|b| b.global.to_matrix()).collect();

    // Materials.
    let mut material_of: HashMap<u32, usize> = HashMap::new();
    for material in file.materials.iter() {
        material_of.insert(material.element.element_id, scene.materials.len());
        scene.materials.push(read_material(material, &mut scene.textures));
    }

    // Meshes: one scene mesh per geometry, placed by each node that uses it.
    for mesh in file.meshes.iter() {
        let m = scene.meshes.len();
        let name = mesh
            .element
            .instances
            .first()
            .map_or_else(|| mesh.element.name.to_string(), |n| n.element.name.to_string());
        let mut built = read_mesh(mesh, &index_of, &rest_globals, &mut scene.skins, report)?;
        built.name = name;
        built.materials = vec![
            mesh.materials
                .first()
                .and_then(|mat| material_of.get(&mat.element.element_id).copied()),
        ];
        if mesh.materials.len() > 1 {
            report.lose(format!(
                "materials after the first of mesh {:?} (the scene's meshes have one)",
                built.name
            ));
        }
        let skinned = built.skin.is_some();
        scene.meshes.push(built);
        for instance in mesh.element.instances.iter() {
            let Some(&(_, parent)) = placed_by.iter().find(|(id, _)| *id == instance.element.element_id) else {
                continue;
            };
            if let (Some(parent), false) = (parent, skinned) {
                scene.mesh_instances.push(MeshInstance {
                    node: parent,
                    meshes: vec![m],
                    name: String::new(),
                });
            }
        }
    }

    // Cameras and lights, placed by their node (or its parent, for a node that only holds one).
    for node in file.nodes.iter().filter(|n| !n.is_root) {
        let Some(placer) = index_of
            .get(&node.element.element_id)
            .copied()
            .or_else(|| parent_of(node))
        else {
            continue;
        };
        if let Some(camera) = &node.camera {
            scene.cameras.push(read_camera(camera, placer));
        }
        if let Some(light) = &node.light {
            match read_light(light, placer) {
                Some(light) => scene.lights.push(light),
                None => report.lose(format!(
                    "light {:?}, an area or volume light (the scene's are punctual)",
                    light.element.name.to_string()
                )),
            }
        }
    }

    // Animations: each stack baked into keys at its key times (linear curves keep theirs).
    let framerate = if file.settings.frames_per_second > 0.0 {
        file.settings.frames_per_second
    } else {
        30.0
    };
    let channels: HashMap<u32, String> = file
        .blend_channels
        .iter()
        .map(|c| (c.element.element_id, c.element.name.to_string()))
        .collect();
    for stack in file.anim_stacks.iter() {
        scene.animations.push(read_stack(
            &file,
            stack,
            framerate,
            &index_of,
            &scene.skeleton.bones,
            &channels,
            limit,
        )?);
    }
    Ok(scene)
}

/// A number property of `props`, or `default`.
fn real_prop(props: &ufbx::Props, name: &str, default: f64) -> f64 {
    props.find_prop(name).map_or(default, |p| p.value_vec4.x)
}

/// A camera as the scene holds it ([`crate::export`]'s conventions read back: the vertical
/// field of view, `AspectRatioMode` 0 as no aspect ratio, `OrthoZoom` as Blender reads it).
fn read_camera(camera: &ufbx::Camera, node: usize) -> Camera {
    let aspect = camera.aspect_ratio;
    let projection = match camera.projection_mode {
        ufbx::ProjectionMode::Perspective => Projection::Perspective {
            // Blender writes a vertical field of view that its film gate fit contradicts
            // (a vertically fitted camera as `GateFit` horizontal): the stated one wins.
            yfov: Some(real_prop(&camera.element.props, "FieldOfViewY", 0.0))
                .filter(|y| *y > 0.0 && *y < 180.0)
                .unwrap_or(camera.field_of_view_deg.y)
                .to_radians(),
            aspect_ratio: (camera.aspect_mode != ufbx::AspectMode::WindowSize && aspect.is_finite() && aspect > 0.0)
                .then_some(aspect),
            znear: camera.near_plane,
            zfar: (camera.far_plane < crate::export::INFINITE_FAR).then_some(camera.far_plane),
        },
        ufbx::ProjectionMode::Orthographic => {
            let size = real_prop(&camera.element.props, "OrthoZoom", 1.0) / 2.0;
            let aspect = if aspect.is_finite() && aspect > 0.0 {
                aspect
            } else {
                1.0
            };
            let (xmag, ymag) = if aspect >= 1.0 {
                (size, size / aspect)
            } else {
                (size * aspect, size)
            };
            Projection::Orthographic {
                xmag,
                ymag,
                znear: camera.near_plane,
                zfar: camera.far_plane,
            }
        }
    };
    Camera {
        name: camera.element.name.to_string(),
        node,
        projection,
    }
}

/// A light as the scene holds it; `None` for an area or volume light.
fn read_light(light: &ufbx::Light, node: usize) -> Option<Light> {
    let kind = match light.type_ {
        ufbx::LightType::Point => LightKind::Point,
        ufbx::LightType::Directional => LightKind::Directional,
        ufbx::LightType::Spot => LightKind::Spot {
            inner_cone_angle: (light.inner_angle / 2.0).to_radians(),
            outer_cone_angle: (light.outer_angle / 2.0).to_radians(),
        },
        _ => return None,
    };
    // ufbx gives Intensity / 100: watts (or W/m^2), in the unit export::fbx_intensity writes.
    let watts = light.intensity;
    let intensity = match kind {
        LightKind::Directional => watts,
        _ => watts / crate::export::WATTS_PER_CANDELA,
    };
    let props = &light.element.props;
    let range = (real_prop(props, "EnableFarAttenuation", 0.0) != 0.0)
        .then(|| real_prop(props, "FarAttenuationEnd", 0.0))
        .filter(|r| *r > 0.0);
    Some(Light {
        name: light.element.name.to_string(),
        node,
        kind,
        color: [light.color.x, light.color.y, light.color.z],
        intensity,
        range,
    })
}

/// A frame at `framerate` of a time in seconds, whole when within 1e-6 of a whole frame.
fn frame_of(time: f64, framerate: f64) -> f64 {
    let frame = time * framerate;
    if (frame - frame.round()).abs() < 1e-6 {
        frame.round()
    } else {
        frame
    }
}

fn read_stack(
    file: &ufbx::Scene,
    stack: &ufbx::AnimStack,
    framerate: f64,
    index_of: &HashMap<u32, usize>,
    bones: &[Bone],
    channels: &HashMap<u32, String>,
    limit: usize,
) -> Result<Animation> {
    let allocator = || ufbx::AllocatorOpts {
        memory_limit: limit,
        ..Default::default()
    };
    let options = ufbx::BakeOpts {
        temp_allocator: allocator(),
        result_allocator: allocator(),
        resample_rate: framerate,
        no_resample_rotation: true,
        key_reduction_enabled: false,
        ..Default::default()
    };
    let baked = ufbx::bake_anim(file, &stack.anim, options).map_err(|e| ufbx_error(&e))?;
    let mut animation = Animation {
        name: stack.element.name.to_string(),
        framerate,
        frame_count: (stack.time_end * framerate).round().max(0.0) + 1.0,
        ..Animation::default()
    };
    let node_ids: HashMap<u32, u32> = file
        .nodes
        .iter()
        .map(|n| (n.element.typed_id, n.element.element_id))
        .collect();
    for node in baked.nodes.iter() {
        let Some(&b) = node_ids.get(&node.typed_id).and_then(|id| index_of.get(id)) else {
            continue;
        };
        let rest = bones[b].local;
        let mut track = BoneTrack {
            bone: bones[b].name.clone(),
            ..BoneTrack::default()
        };
        let unchanged = |keys: &[ufbx::BakedVec3], rest: Vec3<f64>| {
            keys.iter().all(|k| {
                let v = vec3(k.value);
                (v - rest).dot(v - rest) <= 1e-12 * (1.0 + rest.dot(rest))
            })
        };
        if !(node.constant_translation && unchanged(&node.translation_keys, rest.translation)) {
            track.translation = keys_of(&node.translation_keys, framerate);
        }
        if !(node.constant_scale && unchanged(&node.scale_keys, rest.scale)) {
            track.scale = keys_of(&node.scale_keys, framerate);
        }
        let rest_rotation = rest.rotation;
        let rotation_unchanged = node.rotation_keys.iter().all(|k| {
            let q = k.value;
            let dot = q.x * rest_rotation.x + q.y * rest_rotation.y + q.z * rest_rotation.z + q.w * rest_rotation.w;
            dot.abs() >= 1.0 - 1e-12
        });
        if !(node.constant_rotation && rotation_unchanged) {
            let mut keys = Keys::with_capacity(node.rotation_keys.len());
            for k in node.rotation_keys.iter() {
                let q = Quat::new(k.value.x, k.value.y, k.value.z, k.value.w);
                keys.push(Key::new(frame_of(k.time, framerate), q));
            }
            track.rotation = keys;
        }
        if !(track.translation.is_empty() && track.rotation.is_empty() && track.scale.is_empty()) {
            animation.bones.push(track);
        }
    }
    for element in baked.elements.iter() {
        let Some(target) = channels.get(&element.element_id) else {
            continue;
        };
        for prop in element.props.iter().filter(|p| &*p.name == "DeformPercent") {
            let mut keys = Keys::with_capacity(prop.keys.len());
            for k in prop.keys.iter() {
                keys.push(Key::new(frame_of(k.time, framerate), k.value.x / 100.0));
            }
            animation.weights.push(WeightTrack {
                target: target.clone(),
                keys,
            });
        }
    }
    Ok(animation)
}

/// Baked vector keys as scene keys at `framerate`.
fn keys_of(keys: &[ufbx::BakedVec3], framerate: f64) -> Keys<Vec3<f64>> {
    let mut out = Keys::with_capacity(keys.len());
    for k in keys {
        out.push(Key::new(frame_of(k.time, framerate), vec3(k.value)));
    }
    out
}

/// A texture's file name (its relative name where it has one) and its embedded image.
fn texture_file(texture: &ufbx::Texture) -> (Option<String>, Option<Vec<u8>>) {
    let name = [&texture.relative_filename, &texture.filename]
        .into_iter()
        .map(|s| s.to_string())
        .find(|s| !s.is_empty());
    let content = if texture.content.is_empty() {
        texture
            .video
            .as_ref()
            .map(|v| v.content.to_vec())
            .filter(|c| !c.is_empty())
    } else {
        Some(texture.content.to_vec())
    };
    (name, content)
}

fn read_material(material: &ufbx::Material, textures: &mut Vec<Texture>) -> Material {
    let maps = &material.fbx;
    let mut out = Material {
        name: material.element.name.to_string(),
        ..Material::default()
    };
    if maps.diffuse_color.has_value {
        let c = maps.diffuse_color.value_vec4;
        let opacity = if maps.transparency_factor.has_value {
            1.0 - maps.transparency_factor.value_vec4.x
        } else {
            1.0
        };
        let opacity = ufbx::find_prop(&material.element.props, "Opacity").map_or(opacity, |p| p.value_vec4.x);
        out.base_color = Some(Rgba::new(c.x as f32, c.y as f32, c.z as f32, opacity as f32));
    }
    if let Some(texture) = &maps.diffuse_color.texture {
        let (name, content) = texture_file(texture);
        if let Some(data) = content {
            out.texture = Some(textures.len());
            let stem = name.as_deref().map_or_else(String::new, |n| {
                std::path::Path::new(n)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
            textures.push(Texture {
                name: stem,
                data,
                mime_type: String::new(),
            });
        }
        out.diffuse_map = name;
    }
    if let Some(texture) = &maps.normal_map.texture {
        out.normal_map = texture_file(texture).0;
    }
    if let Some(texture) = &maps.specular_color.texture {
        out.specular_map = texture_file(texture).0;
    }
    out
}

/// The scene mesh of a ufbx mesh: its vertices (split where a vertex's corners carry
/// different normals, UVs or colours), triangles, skin and morph targets.
fn read_mesh(
    mesh: &ufbx::Mesh,
    index_of: &HashMap<u32, usize>,
    rest_globals: &[Mat4<f64>],
    skins: &mut Vec<Skin>,
    report: &mut ConversionReport,
) -> Result<Mesh> {
    let uv_sets: Vec<&ufbx::VertexVec2> = mesh.uv_sets.iter().map(|s| &s.vertex_uv).collect();
    let color_sets: Vec<&ufbx::VertexVec4> = mesh.color_sets.iter().map(|s| &s.vertex_color).collect();
    let normal = &mesh.vertex_normal;
    let per_vertex = (!normal.exists || normal.unique_per_vertex)
        && uv_sets.iter().all(|a| a.unique_per_vertex)
        && color_sets.iter().all(|a| a.unique_per_vertex);

    // Each output vertex's first corner (an index of the per-corner arrays) and source vertex.
    let mut corner_of: Vec<(usize, u32)> = Vec::new();
    let mut faces: Vec<[u32; 3]> = Vec::with_capacity(mesh.num_triangles);
    let mut by_key: HashMap<Vec<u32>, u32> = HashMap::new();
    if per_vertex {
        corner_of = (0..mesh.num_vertices)
            .map(|v| {
                (
                    mesh.vertex_first_index.get(v).copied().unwrap_or(u32::MAX) as usize,
                    v as u32,
                )
            })
            .collect();
    }
    let mut triangle = vec![0u32; mesh.max_face_triangles * 3];
    for face in mesh.faces.iter() {
        if face.num_indices < 3 {
            continue;
        }
        let count = ufbx::triangulate_face(&mut triangle, mesh, *face) as usize;
        for tri in triangle[..count * 3].chunks_exact(3) {
            let mut out = [0u32; 3];
            for (slot, &ix) in out.iter_mut().zip(tri) {
                let ix = ix as usize;
                let vertex = mesh.vertex_indices.get(ix).copied().unwrap_or(0);
                *slot = if per_vertex {
                    vertex
                } else {
                    let mut key = vec![vertex];
                    if normal.exists {
                        key.push(normal.indices.get(ix).copied().unwrap_or(0));
                    }
                    key.extend(uv_sets.iter().map(|a| a.indices.get(ix).copied().unwrap_or(0)));
                    key.extend(color_sets.iter().map(|a| a.indices.get(ix).copied().unwrap_or(0)));
                    *by_key.entry(key).or_insert_with(|| {
                        corner_of.push((ix, vertex));
                        (corner_of.len() - 1) as u32
                    })
                };
            }
            faces.push(out);
        }
    }
    let geometry = mesh.element.instances.first().map(|n| n.geometry_to_node);
    let skinned = !mesh.skin_deformers.is_empty();
    let place = |p: ufbx::Vec3| -> Vec3<f32> {
        match geometry.filter(|_| !skinned) {
            Some(m) => vec3_f32(ufbx::Vec3 {
                x: m.m00 * p.x + m.m01 * p.y + m.m02 * p.z + m.m03,
                y: m.m10 * p.x + m.m11 * p.y + m.m12 * p.z + m.m13,
                z: m.m20 * p.x + m.m21 * p.y + m.m22 * p.z + m.m23,
            }),
            None => vec3_f32(p),
        }
    };
    let positions = corner_of
        .iter()
        .map(|&(_, v)| {
            mesh.vertices
                .get(v as usize)
                .map_or(Vec3::new(0.0, 0.0, 0.0), |p| place(*p))
        })
        .collect();
    let at = |indices: &[u32], corner: usize| indices.get(corner).map(|&i| i as usize);
    let normals = if normal.exists {
        corner_of
            .iter()
            .map(|&(c, _)| {
                at(&normal.indices, c)
                    .and_then(|i| normal.values.get(i))
                    .map_or(Vec3::new(0.0, 0.0, 0.0), |n| vec3_f32(*n))
            })
            .collect()
    } else {
        Vec::new()
    };
    let uv_layers = uv_sets
        .iter()
        .map(|set| {
            corner_of
                .iter()
                .map(|&(c, _)| {
                    at(&set.indices, c)
                        .and_then(|i| set.values.get(i))
                        .map_or(Vec2::new(0.0, 0.0), |uv| Vec2::new(uv.x as f32, (1.0 - uv.y) as f32))
                })
                .collect()
        })
        .collect();
    let mut colour_layers: Vec<Vec<Rgba8>> = color_sets
        .iter()
        .map(|set| {
            corner_of
                .iter()
                .map(|&(c, _)| {
                    let channel = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
                    at(&set.indices, c)
                        .and_then(|i| set.values.get(i))
                        .map_or(Rgba::new(255, 255, 255, 255), |v| {
                            Rgba::new(channel(v.x), channel(v.y), channel(v.z), channel(v.w))
                        })
                })
                .collect()
        })
        .collect();
    let colors = if colour_layers.is_empty() {
        Vec::new()
    } else {
        colour_layers.remove(0)
    };

    // Skin weights, and the skin's bind matrices where they are not the rest pose's.
    let mut skin = None;
    if let Some(deformer) = mesh.skin_deformers.first() {
        let influences = deformer.max_weights_per_vertex.max(1);
        let cluster_bone: Vec<Option<usize>> = deformer
            .clusters
            .iter()
            .map(|c| {
                c.bone_node
                    .as_ref()
                    .and_then(|n| index_of.get(&n.element.element_id).copied())
            })
            .collect();
        let mut bones = Vec::with_capacity(corner_of.len() * influences);
        let mut weights = Vec::with_capacity(corner_of.len() * influences);
        for &(_, v) in &corner_of {
            let mut slots = 0;
            if let Some(vertex) = deformer.vertices.get(v as usize) {
                let begin = vertex.weight_begin as usize;
                let end = begin + vertex.num_weights as usize;
                for w in deformer.weights.get(begin..end).unwrap_or(&[]).iter().take(influences) {
                    if let Some(Some(bone)) = cluster_bone.get(w.cluster_index as usize) {
                        bones.push(*bone as u32);
                        weights.push(w.weight as f32);
                        slots += 1;
                    }
                }
            }
            for _ in slots..influences {
                bones.push(0);
                weights.push(0.0);
            }
        }
        let bound: Vec<(usize, Mat4<f64>)> = deformer
            .clusters
            .iter()
            .zip(&cluster_bone)
            .filter_map(|(c, b)| b.map(|b| (b, matrix(&c.geometry_to_bone))))
            .collect();
        let at_rest = bound.iter().all(|(b, ibm)| {
            rest_globals[*b]
                .inverse_affine()
                .is_some_and(|inverse| close(&inverse, ibm, 1e-5))
        });
        let skin_index = (!at_rest).then(|| {
            skins.push(Skin {
                name: deformer.element.name.to_string(),
                joints: bound.iter().map(|(b, _)| *b).collect(),
                inverse_bind_matrices: bound.iter().map(|(_, m)| *m).collect(),
                skeleton: None,
            });
            skins.len() - 1
        });
        skin = Some(SkinWeights {
            influences,
            bones,
            weights,
            blend: match deformer.skinning_method {
                ufbx::SkinningMethod::DualQuaternion => SkinBlend::DualQuaternion,
                _ => SkinBlend::Linear,
            },
            skin: skin_index,
        });
        if mesh.skin_deformers.len() > 1 {
            report.lose("skin deformers after a mesh's first");
        }
    }

    // Morph targets, at the output vertices made from each source vertex.
    let mut outputs_of: HashMap<u32, Vec<u32>> = HashMap::new();
    if !per_vertex {
        for (out, &(_, v)) in corner_of.iter().enumerate() {
            outputs_of.entry(v).or_default().push(out as u32);
        }
    }
    let mut morph_targets = Vec::new();
    for deformer in mesh.blend_deformers.iter() {
        for channel in deformer.channels.iter() {
            let Some(shape) = channel
                .target_shape
                .as_ref()
                .or(channel.keyframes.last().map(|k| &k.shape))
            else {
                continue;
            };
            let mut target = MorphTarget {
                name: channel.element.name.to_string(),
                default_weight: channel.weight as f32,
                ..MorphTarget::default()
            };
            let has_normals = shape
                .normal_offsets
                .iter()
                .any(|n| n.x != 0.0 || n.y != 0.0 || n.z != 0.0);
            for (k, &v) in shape.offset_vertices.iter().enumerate() {
                let outputs: &[u32] = if per_vertex {
                    &[v][..]
                } else {
                    outputs_of.get(&v).map_or(&[], Vec::as_slice)
                };
                for &out in outputs {
                    if out as usize >= corner_of.len() {
                        continue;
                    }
                    target.indices.push(out);
                    target.position_deltas.push(
                        shape
                            .position_offsets
                            .get(k)
                            .map_or(Vec3::new(0.0, 0.0, 0.0), |p| vec3_f32(*p)),
                    );
                    if has_normals {
                        target.normal_deltas.push(
                            shape
                                .normal_offsets
                                .get(k)
                                .map_or(Vec3::new(0.0, 0.0, 0.0), |p| vec3_f32(*p)),
                        );
                    }
                }
            }
            morph_targets.push(target);
        }
    }

    Ok(Mesh {
        name: String::new(),
        positions,
        normals,
        uv_layers,
        colors,
        extra_color_layers: colour_layers,
        skin,
        faces,
        materials: Vec::new(),
        morph_targets,
    })
}
