//! Conversion to and from the animbin scene model.
//!
//! - Bones: names, parents, local and global bind poses. A file with only one of the two
//!   matrices gets the other computed; the SE scale is the local scale, and global scales are
//!   the products down the chain.
//! - Meshes: positions, UV layers (one material per layer), normals, colours, skin weights and
//!   triangles. SEModel meshes have no names.
//! - Materials (deployed layout): name and the three map names of a simple material.
//! - The SEBlend trailer (either layout): one morph target per shape on every mesh, and back
//!   (the rules and what is known of the layout are in `scene_blend`).
//!
//! Indices that point nowhere (faces past the vertex count, weights past the bone count,
//! material indices past the material count, parents out of range or in a cycle) and meshes
//! with more than 255 UV layers are refused in both directions. What the target cannot hold
//! is recorded in the [`ConversionReport`]; `TryFrom` refuses any such loss.

use animbin_core::math::{Rgba8, Transform, Vec2, Vec3};
use animbin_core::scene::{self, ConversionReport, Scene, SkinWeights};
use animbin_core::seblend::Trailer;
use animbin_core::{Error, ErrorKind, Result, SceneOptions};
use half::f16;

use crate::FORMAT;
use crate::layout::Layout;
use crate::layout::blend::BlendShapes;
use crate::layout::block::Block;
use crate::layout::bone::{Bone, Pose};
use crate::layout::deployed::{self, MaterialMaps};
use crate::layout::draft::{self, Vertices};
use crate::layout::flags::{BoneFlags, DataFlags, MeshFlags};
use crate::layout::records::Influence;
use crate::model::SeModel;
use crate::scene_blend;
use crate::spans::BoneSpans;

fn refuse(message: String) -> Error {
    refuse_at(0, message)
}

/// [`refuse`] at the byte `offset` of the file the model was read from, where validate
/// names the same problem.
fn refuse_at(offset: u64, message: String) -> Error {
    Error::new(
        FORMAT,
        offset,
        ErrorKind::invalid("indices that point inside the model", message),
    )
}

fn unencodable(message: String) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(message))
}

fn pose_transform(pose: Pose, scale: Vec3<f64>) -> Transform {
    Transform {
        translation: pose.position.map(f64::from),
        rotation: pose.rotation.map(f64::from),
        scale,
    }
}

fn transform_pose(t: Transform) -> Pose {
    Pose {
        position: t.translation.map(|x| x as f32),
        rotation: t.rotation.map(|x| x as f32),
    }
}

/// Checks parents: each is -1 or another bone's index, and no chain loops; a refusal names
/// the byte of the bone's parent field, as validate does.
fn parents(bones: &[Bone], spans: &BoneSpans) -> Result<Vec<Option<usize>>> {
    let parent_at = |i: usize| spans.record(i) + 1;
    let n = bones.len();
    let mut out = Vec::with_capacity(n);
    for (i, bone) in bones.iter().enumerate() {
        out.push(match bone.parent {
            -1 => None,
            p if p >= 0 && (p as usize) < n && p as usize != i => Some(p as usize),
            p => {
                return Err(refuse_at(
                    parent_at(i),
                    format!("bone {i} (\"{}\") has parent {p} among {n} bones", bone.name),
                ));
            }
        });
    }
    cycle_free(&out).map_err(|(start, message)| refuse_at(parent_at(start), message))?;
    Ok(out)
}

/// Refuses a cycle of parents, naming its first bone (the lowest index on it, where
/// validate reports the cycle); parents in range and not the bone itself (both callers
/// refuse those first).
fn cycle_free(parents: &[Option<usize>]) -> std::result::Result<(), (usize, String)> {
    match animbin_core::hierarchy::in_cycles(parents).first() {
        Some(&start) => Err((start, format!("bone {start} is its own ancestor (a parent cycle)"))),
        None => Ok(()),
    }
}

fn skeleton_to_scene(
    bones: &[Bone],
    spans: &BoneSpans,
    flags: BoneFlags,
    report: &mut ConversionReport,
) -> Result<scene::Skeleton> {
    let parents = parents(bones, spans)?;
    let mut skeleton = scene::Skeleton {
        bones: bones
            .iter()
            .zip(&parents)
            .map(|(b, &parent)| scene::Bone {
                kind: Default::default(),
                scale_compensate: false,
                rest_scale: Vec3::ONE,
                name: b.name.clone(),
                parent,
                local: b
                    .local
                    .map(|p| pose_transform(p, Vec3::ONE))
                    .unwrap_or(Transform::IDENTITY),
                global: b
                    .global
                    .map(|p| pose_transform(p, Vec3::ONE))
                    .unwrap_or(Transform::IDENTITY),
                cosmetic: false,
            })
            .collect(),
        ..Default::default()
    };
    if bones.iter().any(|b| b.flags != 0) {
        report.lose("bone flags (no bit is defined; the scene keeps none)");
    }
    let has_global = flags.contains(BoneFlags::GLOBAL_MATRIX);
    let has_local = flags.contains(BoneFlags::LOCAL_MATRIX);
    match (has_global, has_local) {
        (false, true) => {}
        (true, false) => skeleton.update_locals(),
        (true, true) => {}
        (false, false) if !bones.is_empty() => {
            report.lose("bind poses (boneFlags has neither matrix; the scene uses identities)");
        }
        (false, false) => {}
    }
    // The SE scale is the local scale; a global scale is the product down the chain.
    for (bone, b) in skeleton.bones.iter_mut().zip(bones) {
        bone.local.scale = b.scale.map(|s| s.map(f64::from)).unwrap_or(Vec3::ONE);
    }
    if !has_global {
        skeleton.update_globals();
    } else {
        for i in skeleton.resolve_order() {
            let parent_scale = skeleton.bones[i]
                .parent
                .map(|p| skeleton.bones[p].global.scale)
                .unwrap_or(Vec3::ONE);
            let local = skeleton.bones[i].local.scale;
            skeleton.bones[i].global.scale = parent_scale * local;
        }
    }
    Ok(skeleton)
}

fn check_faces(i: usize, faces: &[[u32; 3]], vertices: usize) -> Result<()> {
    if let Some((j, f)) = faces
        .iter()
        .enumerate()
        .find(|(_, f)| f.iter().any(|&x| x as usize >= vertices))
    {
        return Err(refuse(format!(
            "mesh {i}: face {j} {f:?} points past its {vertices} vertices"
        )));
    }
    Ok(())
}

fn check_bones(i: usize, bones: impl Iterator<Item = u32>, bone_count: u64) -> Result<()> {
    for (k, b) in bones.enumerate() {
        if u64::from(b) >= bone_count {
            return Err(refuse(format!("mesh {i}: weight {k} names bone {b} of {bone_count}")));
        }
    }
    Ok(())
}

fn material_index(i: usize, index: i64, count: u64) -> Result<Option<usize>> {
    match index {
        -1 => Ok(None),
        k if k >= 0 && (k as u64) < count => Ok(Some(k as usize)),
        k => Err(refuse(format!("mesh {i}: material index {k} of {count} materials"))),
    }
}

/// Vertex-major UVs of `layers` layers as one vector per layer: a single layer is moved.
fn split_layers(uvs: Vec<Vec2<f32>>, layers: usize) -> Vec<Vec<Vec2<f32>>> {
    match layers {
        0 => Vec::new(),
        1 => vec![uvs],
        _ => (0..layers)
            .map(|l| uvs.iter().skip(l).step_by(layers).copied().collect())
            .collect(),
    }
}

/// The arrays of one mesh that the scene holds as the model does: moved out of a model that
/// is no longer needed ([`SeModel::into_scene`]), copied from one that stays.
#[derive(Default)]
struct MeshArrays {
    positions: Vec<Vec3<f32>>,
    /// Deployed layout only (the draft's are half precision, converted).
    normals: Vec<Vec3<f32>>,
    uvs: Vec<Vec2<f32>>,
    colors: Vec<Rgba8>,
    faces: Vec<[u32; 3]>,
    /// Draft layout only (the deployed layout's are interleaved with the weights).
    bones: Vec<u32>,
}

impl MeshArrays {
    fn of_deployed(mesh: &deployed::Mesh) -> Self {
        Self {
            positions: mesh.positions.clone(),
            normals: mesh.normals.clone(),
            uvs: mesh.uvs.clone(),
            colors: mesh.colors.clone(),
            faces: mesh.faces.clone(),
            bones: Vec::new(),
        }
    }

    fn taken_from_deployed(mesh: &mut deployed::Mesh) -> Self {
        Self {
            positions: std::mem::take(&mut mesh.positions),
            normals: std::mem::take(&mut mesh.normals),
            uvs: std::mem::take(&mut mesh.uvs),
            colors: std::mem::take(&mut mesh.colors),
            faces: std::mem::take(&mut mesh.faces),
            bones: Vec::new(),
        }
    }

    fn of_draft(mesh: &draft::Mesh) -> Self {
        let vx = &mesh.vertices;
        Self {
            positions: vx.positions.clone(),
            normals: Vec::new(),
            uvs: vx.uvs.clone(),
            colors: vx.colors.clone(),
            faces: mesh.faces.clone(),
            bones: vx.bone_indices.clone(),
        }
    }

    fn taken_from_draft(mesh: &mut draft::Mesh) -> Self {
        let vx = &mut mesh.vertices;
        Self {
            positions: std::mem::take(&mut vx.positions),
            normals: Vec::new(),
            uvs: std::mem::take(&mut vx.uvs),
            colors: std::mem::take(&mut vx.colors),
            faces: std::mem::take(&mut mesh.faces),
            bones: std::mem::take(&mut vx.bone_indices),
        }
    }
}

/// Gives the meshes the SEBlend trailer's shapes as morph targets ([`scene_blend`]).
fn attach_trailer(
    trailer: &Trailer<BlendShapes>,
    meshes: &mut [scene::Mesh],
    report: &mut ConversionReport,
) -> Result<()> {
    match trailer {
        Trailer::None => {}
        Trailer::SeBlend(blend) => {
            scene_blend::lose_empty(blend, report);
            for (i, mesh) in meshes.iter_mut().enumerate() {
                mesh.morph_targets = scene_blend::targets(blend, i)?;
            }
        }
        Trailer::Unknown(bytes) => report.lose(format!("{} unrecognised trailing bytes", bytes.len())),
    }
    Ok(())
}

/// The scene of a deployed model whose meshes' arrays are `arrays` (one per mesh, in order).
fn deployed_to_scene(m: &deployed::Model, arrays: Vec<MeshArrays>, report: &mut ConversionReport) -> Result<Scene> {
    let spans = crate::spans::deployed_spans(m).bones;
    let skeleton = skeleton_to_scene(m.bones.items(), &spans, m.bone_flags, report)?;
    let bone_count = m.bones.header_count();
    let material_count = m.materials.items().len() as u64;
    let has = |f| m.mesh_flags.contains(f);
    let mut meshes = Vec::with_capacity(m.meshes.items().len());
    for (i, (mesh, arrays)) in m.meshes.items().iter().zip(arrays).enumerate() {
        let v = arrays.positions.len();
        check_faces(i, &arrays.faces, v)?;
        let skin = if has(MeshFlags::WEIGHTS) && mesh.max_influence > 0 {
            check_bones(i, mesh.weights.iter().map(|w| w.bone), bone_count)?;
            Some(SkinWeights {
                skin: None,
                influences: usize::from(mesh.max_influence),
                bones: mesh.weights.iter().map(|w| w.bone).collect(),
                weights: mesh.weights.iter().map(|w| w.weight).collect(),
                blend: Default::default(),
            })
        } else {
            None
        };
        let materials = mesh
            .material_indices
            .iter()
            .map(|&k| material_index(i, i64::from(k), material_count))
            .collect::<Result<Vec<_>>>()?;
        meshes.push(scene::Mesh {
            name: String::new(),
            positions: arrays.positions,
            normals: arrays.normals,
            uv_layers: if has(MeshFlags::UV_SET) {
                split_layers(arrays.uvs, mesh.layer_count())
            } else {
                Vec::new()
            },
            colors: arrays.colors,
            skin,
            faces: arrays.faces,
            materials,
            morph_targets: Vec::new(),
            ..Default::default()
        });
    }
    let materials = m
        .materials
        .items()
        .iter()
        .map(|mat| {
            let maps = mat.maps.as_ref();
            scene::Material {
                name: mat.name.clone(),
                diffuse_map: maps.map(|m| m.diffuse.clone()),
                normal_map: maps.map(|m| m.normal.clone()),
                specular_map: maps.map(|m| m.specular.clone()),
                ..Default::default()
            }
        })
        .collect();
    attach_trailer(&m.trailer, &mut meshes, report)?;
    Ok(Scene {
        skeleton,
        meshes,
        materials,
        ..Default::default()
    })
}

/// The scene of a draft model whose meshes' arrays are `arrays` (one per mesh, in order).
fn draft_to_scene(m: &draft::Model, arrays: Vec<MeshArrays>, report: &mut ConversionReport) -> Result<Scene> {
    let spans = crate::spans::draft_spans(m).bones;
    let skeleton = skeleton_to_scene(m.bones.items(), &spans, m.bone_flags, report)?;
    let bone_count = m.bones.header_count();
    let material_count = u64::from(m.material_count);
    let has = |f| m.mesh_flags.contains(f);
    let mut highest_material = None::<usize>;
    let mut meshes = Vec::with_capacity(m.meshes.items().len());
    for (i, (mesh, arrays)) in m.meshes.items().iter().zip(arrays).enumerate() {
        let vx = &mesh.vertices;
        let v = arrays.positions.len();
        check_faces(i, &arrays.faces, v)?;
        let layers = if has(MeshFlags::UV_SET) {
            usize::from(mesh.uv_set_count)
        } else {
            0
        };
        let mut materials = Vec::with_capacity(layers);
        for layer in 0..layers {
            let mut per_vertex = vx.uv_materials.iter().skip(layer).step_by(layers);
            let first = per_vertex.next().copied();
            if let Some(k) = first {
                let k = material_index(i, i64::from(k), material_count)?;
                highest_material = highest_material.max(k);
                materials.push(k);
                if per_vertex.any(|&x| Some(x) != first) {
                    report.lose(format!(
                        "per-vertex UV material indices that differ within mesh {i} (the scene keeps the first vertex's)"
                    ));
                }
            } else {
                materials.push(None);
            }
        }
        for (k, &x) in vx.uv_materials.iter().enumerate() {
            if u64::from(x) >= material_count {
                return Err(refuse(format!(
                    "mesh {i}: UV material index {x} (entry {k}) of {material_count} materials"
                )));
            }
        }
        let influences = if has(MeshFlags::WEIGHTS) {
            usize::from(m.max_skin_influence)
        } else {
            0
        };
        let skin = if influences > 0 {
            check_bones(i, arrays.bones.iter().copied(), bone_count)?;
            Some(SkinWeights {
                skin: None,
                influences,
                bones: arrays.bones,
                weights: vx.bone_weights.iter().map(|w| w.to_f32()).collect(),
                blend: Default::default(),
            })
        } else {
            None
        };
        meshes.push(scene::Mesh {
            name: String::new(),
            positions: arrays.positions,
            normals: vx.normals.iter().map(|n| n.map(f16::to_f32)).collect(),
            uv_layers: split_layers(arrays.uvs, layers),
            colors: arrays.colors,
            skin,
            faces: arrays.faces,
            materials,
            morph_targets: Vec::new(),
            ..Default::default()
        });
    }
    // The draft has no material block: materials that meshes use become named placeholders.
    let materials = match highest_material {
        Some(k) => {
            report.lose("material definitions (the draft layout has none; placeholders are named materialN)");
            (0..=k)
                .map(|n| scene::Material {
                    name: format!("material{n}"),
                    ..Default::default()
                })
                .collect()
        }
        None => Vec::new(),
    };
    if m.model_type != 0 || m.model_flags != 0 {
        report.lose("modelType and modelFlags");
    }
    if m.collision_count != 0 {
        report.lose("the collision count");
    }
    attach_trailer(&m.trailer, &mut meshes, report)?;
    Ok(Scene {
        skeleton,
        meshes,
        materials,
        ..Default::default()
    })
}

/// What the scene's meshes need checked before either layout is built.
fn check_scene_mesh(i: usize, mesh: &scene::Mesh, scene: &Scene) -> Result<()> {
    let v = mesh.positions.len();
    if mesh.uv_layers.len() > 255 {
        return Err(unencodable(format!(
            "mesh {i} has {} UV layers; SEModel holds at most 255",
            mesh.uv_layers.len()
        )));
    }
    if u32::try_from(v).is_err() || u32::try_from(mesh.faces.len()).is_err() {
        return Err(unencodable(format!(
            "mesh {i} has more vertices or faces than a u32 counts"
        )));
    }
    for (what, len) in [("normals", mesh.normals.len()), ("colours", mesh.colors.len())] {
        if len != 0 && len != v {
            return Err(refuse(format!("mesh {i} has {len} {what} for {v} vertices")));
        }
    }
    if let Some((l, layer)) = mesh.uv_layers.iter().enumerate().find(|(_, l)| l.len() != v) {
        return Err(refuse(format!(
            "mesh {i}: UV layer {l} has {} coordinates for {v} vertices",
            layer.len()
        )));
    }
    check_faces(i, &mesh.faces, v)?;
    if let Some(skin) = &mesh.skin {
        let n = skin.influences.saturating_mul(v);
        if skin.influences > 255 {
            return Err(unencodable(format!(
                "mesh {i} has {} influences per vertex; SEModel holds at most 255",
                skin.influences
            )));
        }
        if skin.bones.len() != n || skin.weights.len() != n {
            return Err(refuse(format!(
                "mesh {i}: {} bone indices and {} weights for {v} vertices of {} influences",
                skin.bones.len(),
                skin.weights.len(),
                skin.influences
            )));
        }
        check_bones(i, skin.bones.iter().copied(), scene.skeleton.bones.len() as u64)?;
    }
    for m in mesh.materials.iter().flatten() {
        if *m >= scene.materials.len() {
            return Err(refuse(format!("mesh {i}: material {m} of {}", scene.materials.len())));
        }
    }
    Ok(())
}

/// What both layouts take first from a scene mesh: the mesh checked ([`check_scene_mesh`]), a
/// loss noted for materials past its UV layers, and its UV coordinates vertex-major.
fn mesh_uvs(i: usize, mesh: &scene::Mesh, scene: &Scene, report: &mut ConversionReport) -> Result<Vec<Vec2<f32>>> {
    check_scene_mesh(i, mesh, scene)?;
    if mesh.materials.len() > mesh.uv_layers.len() {
        report.lose(format!(
            "materials beyond a mesh's UV layers (SEModel gives each UV layer one; mesh {i})"
        ));
    }
    let v = mesh.positions.len();
    let mut uvs = Vec::with_capacity(v * mesh.uv_layers.len());
    for vertex in 0..v {
        uvs.extend(mesh.uv_layers.iter().map(|layer| layer[vertex]));
    }
    Ok(uvs)
}

fn bones_from_scene(scene: &Scene, report: &mut ConversionReport) -> Result<(Vec<Bone>, BoneFlags)> {
    let bones = &scene.skeleton.bones;
    let parents: Vec<Option<usize>> = bones.iter().map(|b| b.parent).collect();
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            if p >= bones.len() || p == i {
                return Err(refuse(format!("bone {i} has parent {p} among {} bones", bones.len())));
            }
        }
    }
    cycle_free(&parents).map_err(|(_, message)| refuse(message))?;
    if bones.iter().any(|b| b.cosmetic) {
        report.lose("cosmetic bone marks");
    }
    let scaled = bones.iter().any(|b| b.local.scale != Vec3::ONE);
    let mut flags = BoneFlags::GLOBAL_MATRIX | BoneFlags::LOCAL_MATRIX;
    flags.set(BoneFlags::SCALES, scaled);
    let out = bones
        .iter()
        .map(|b| {
            Ok(Bone {
                name: b.name.clone(),
                flags: 0,
                parent: match b.parent {
                    None => -1,
                    Some(p) => {
                        i32::try_from(p).map_err(|_| unencodable(format!("parent index {p} does not fit an i32")))?
                    }
                },
                global: Some(transform_pose(b.global)),
                local: Some(transform_pose(b.local)),
                scale: scaled.then(|| b.local.scale.map(|s| s as f32)),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((out, flags))
}

fn block<T>(items: Vec<T>) -> Block<T> {
    if items.is_empty() {
        Block::Absent { count: 0 }
    } else {
        Block::Present(items)
    }
}

fn lose_scene_extras(scene: &Scene, report: &mut ConversionReport) {
    if !scene.animations.is_empty() {
        report.lose(format!(
            "{} animations (SEModel holds a model only)",
            scene.animations.len()
        ));
    }
    if !scene.textures.is_empty() {
        report.lose(format!("{} embedded textures", scene.textures.len()));
    }
    if scene.meshes.iter().any(|m| !m.name.is_empty()) {
        report.lose("mesh names");
    }
    report.lose_dual_quaternion_skinning(scene, "SEModel");
    if scene
        .materials
        .iter()
        .any(|m| m.texture.is_some() || m.base_color.is_some())
    {
        report.lose("material base colours and embedded texture links");
    }
}

/// The mesh flags a set of scene meshes needs: a part that any mesh has sets its flag.
fn scene_mesh_flags(meshes: &[scene::Mesh]) -> MeshFlags {
    let mut flags = MeshFlags::empty();
    for m in meshes {
        if !m.uv_layers.is_empty() {
            flags |= MeshFlags::UV_SET;
        }
        if !m.normals.is_empty() {
            flags |= MeshFlags::NORMALS;
        }
        if !m.colors.is_empty() {
            flags |= MeshFlags::COLOR;
        }
        if m.skin.is_some() {
            flags |= MeshFlags::WEIGHTS;
        }
    }
    flags
}

/// Normals and colours for a mesh without them, in a file whose flag says every mesh has them.
fn filled<T: Copy>(i: usize, values: &[T], v: usize, fill: T, what: &str, report: &mut ConversionReport) -> Vec<T> {
    if values.is_empty() && v > 0 {
        report.lose(format!(
            "the absence of {what} on mesh {i} (SEModel flags apply to every mesh; filled in)"
        ));
        vec![fill; v]
    } else {
        values.to_vec()
    }
}

fn deployed_from_scene(scene: &Scene, report: &mut ConversionReport) -> Result<deployed::Model> {
    let (bones, bone_flags) = bones_from_scene(scene, report)?;
    let mesh_flags = scene_mesh_flags(&scene.meshes);
    let mut meshes = Vec::with_capacity(scene.meshes.len());
    for (i, mesh) in scene.meshes.iter().enumerate() {
        let uvs = mesh_uvs(i, mesh, scene, report)?;
        let v = mesh.positions.len();
        let layers = mesh.uv_layers.len();
        let material_indices = (0..layers)
            .map(|l| match mesh.materials.get(l).copied().flatten() {
                None => Ok(-1),
                Some(k) => i32::try_from(k).map_err(|_| unencodable(format!("material index {k} does not fit an i32"))),
            })
            .collect::<Result<Vec<_>>>()?;
        let (max_influence, weights) = match &mesh.skin {
            Some(skin) => (
                skin.influences as u8,
                skin.bones
                    .iter()
                    .zip(&skin.weights)
                    .map(|(&bone, &weight)| Influence { bone, weight })
                    .collect(),
            ),
            None => (0, Vec::new()),
        };
        let has = |f| mesh_flags.contains(f);
        meshes.push(deployed::Mesh {
            flags: 0,
            max_influence,
            positions: mesh.positions.clone(),
            uvs,
            normals: if has(MeshFlags::NORMALS) {
                filled(i, &mesh.normals, v, Vec3::new(0.0, 0.0, 0.0), "normals", report)
            } else {
                Vec::new()
            },
            colors: if has(MeshFlags::COLOR) {
                filled(i, &mesh.colors, v, Rgba8::new(255, 255, 255, 255), "colours", report)
            } else {
                Vec::new()
            },
            weights,
            faces: mesh.faces.clone(),
            material_indices,
        });
    }
    let materials = scene
        .materials
        .iter()
        .map(|m| deployed::Material {
            name: m.name.clone(),
            maps: (m.diffuse_map.is_some() || m.normal_map.is_some() || m.specular_map.is_some()).then(|| {
                MaterialMaps {
                    diffuse: m.diffuse_map.clone().unwrap_or_default(),
                    normal: m.normal_map.clone().unwrap_or_default(),
                    specular: m.specular_map.clone().unwrap_or_default(),
                }
            }),
        })
        .collect();
    lose_scene_extras(scene, report);
    Ok(deployed::Model {
        other_data_flags: DataFlags::empty(),
        bone_flags: if bones.is_empty() {
            BoneFlags::empty()
        } else {
            bone_flags
        },
        mesh_flags,
        reserved: [0; 3],
        bones: block(bones),
        meshes: block(meshes),
        materials: block(materials),
        trailer: scene_blend::trailer(&scene.meshes, report)?,
    })
}

fn draft_from_scene(scene: &Scene, report: &mut ConversionReport) -> Result<draft::Model> {
    let (bones, bone_flags) = bones_from_scene(scene, report)?;
    let mesh_flags = scene_mesh_flags(&scene.meshes);
    let material_count = u32::try_from(scene.materials.len())
        .map_err(|_| unencodable(format!("{} materials do not fit a u32 count", scene.materials.len())))?;
    let max_influence = scene
        .meshes
        .iter()
        .filter_map(|m| m.skin.as_ref().map(|s| s.influences))
        .max()
        .unwrap_or(0);
    if !scene.materials.is_empty() {
        report.lose("material definitions (the draft layout has no material block; only the count is kept)");
    }
    if mesh_flags.contains(MeshFlags::NORMALS) {
        report.lose("normal precision (the draft layout stores half floats)");
    }
    if mesh_flags.contains(MeshFlags::WEIGHTS) {
        report.lose("weight precision (the draft layout stores half floats)");
    }
    let mut meshes = Vec::with_capacity(scene.meshes.len());
    for (i, mesh) in scene.meshes.iter().enumerate() {
        let uvs = mesh_uvs(i, mesh, scene, report)?;
        let v = mesh.positions.len();
        let layers = mesh.uv_layers.len();
        let mut layer_materials = Vec::with_capacity(layers);
        for l in 0..layers {
            layer_materials.push(match mesh.materials.get(l).copied().flatten() {
                Some(k) => u32::try_from(k).map_err(|_| unencodable(format!("material index {k} does not fit")))?,
                None => {
                    report.lose("UV layers without a material (the draft's mat_t has no 'none'; written as 0)");
                    0
                }
            });
        }
        let mut vx = Vertices {
            positions: mesh.positions.clone(),
            uvs,
            uv_materials: layer_materials.repeat(v),
            ..Vertices::default()
        };
        let has = |f| mesh_flags.contains(f);
        if has(MeshFlags::NORMALS) {
            vx.normals = filled(i, &mesh.normals, v, Vec3::new(0.0, 0.0, 0.0), "normals", report)
                .into_iter()
                .map(|n| n.map(f16::from_f32))
                .collect();
        }
        if has(MeshFlags::COLOR) {
            vx.colors = filled(i, &mesh.colors, v, Rgba8::new(255, 255, 255, 255), "colours", report);
        }
        if has(MeshFlags::WEIGHTS) {
            let (per, bones, weights) = match &mesh.skin {
                Some(s) => (s.influences, &s.bones[..], &s.weights[..]),
                None => (0, &[][..], &[][..]),
            };
            // Every mesh carries maxSkinInfluence slots; unused ones are (0, 0.0).
            for vertex in 0..v {
                for slot in 0..max_influence {
                    let (b, w) = if slot < per {
                        (bones[vertex * per + slot], weights[vertex * per + slot])
                    } else {
                        (0, 0.0)
                    };
                    vx.bone_indices.push(b);
                    vx.bone_weights.push(f16::from_f32(w));
                }
            }
        }
        meshes.push(draft::Mesh {
            flags: 0,
            uv_set_count: layers as u8,
            vertices: vx,
            faces: mesh.faces.clone(),
        });
    }
    if u32::from(u16::MAX) < material_count
        && meshes
            .iter()
            .any(|m| m.vertices.uv_materials.iter().any(|&k| k > 0xFFFF))
    {
        return Err(unencodable(
            "a material index over 65535 (the draft's mat_t is at most u16)".into(),
        ));
    }
    lose_scene_extras(scene, report);
    let skinned = mesh_flags.contains(MeshFlags::WEIGHTS);
    Ok(draft::Model {
        model_type: u8::from(skinned),
        model_flags: 0,
        other_data_flags: if material_count > 0 {
            DataFlags::DRAFT_MATERIALS
        } else {
            DataFlags::empty()
        },
        bone_flags: if bones.is_empty() {
            BoneFlags::empty()
        } else {
            bone_flags
        },
        mesh_flags,
        reserved1: [0; 2],
        collision_count: 0,
        material_count,
        max_skin_influence: max_influence as u8,
        reserved2: [0; 3],
        bones: block(bones),
        meshes: block(meshes),
        trailer: scene_blend::trailer(&scene.meshes, report)?,
    })
}

impl SeModel {
    /// The model as a scene, recording in `report` what the scene cannot hold.
    ///
    /// SEModel defines no units or axes and stores no animation, so no option changes the
    /// result. Fails on indices that point nowhere and on parent cycles.
    pub fn to_scene(&self, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        match self {
            Self::Deployed(m) => {
                let arrays = m.meshes.items().iter().map(MeshArrays::of_deployed).collect();
                deployed_to_scene(m, arrays, report)
            }
            Self::Draft(m) => {
                let arrays = m.meshes.items().iter().map(MeshArrays::of_draft).collect();
                draft_to_scene(m, arrays, report)
            }
        }
    }

    /// [`SeModel::to_scene`] of a model no longer needed: positions, normals, UVs (of a
    /// single layer), colours, faces and the draft's bone indices move into the scene
    /// rather than being copied.
    pub fn into_scene(mut self, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        match &mut self {
            Self::Deployed(m) => {
                let arrays = m
                    .meshes
                    .items_mut()
                    .iter_mut()
                    .map(MeshArrays::taken_from_deployed)
                    .collect();
                deployed_to_scene(m, arrays, report)
            }
            Self::Draft(m) => {
                let arrays = m
                    .meshes
                    .items_mut()
                    .iter_mut()
                    .map(MeshArrays::taken_from_draft)
                    .collect();
                draft_to_scene(m, arrays, report)
            }
        }
    }

    /// A model in the deployed layout, the one every tool reads, built from a scene,
    /// recording in `report` what the layout cannot hold (see [`SeModel::from_scene_in`] for
    /// the draft).
    pub fn from_scene(scene: &Scene, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        Self::from_scene_in(scene, Layout::Deployed, options, report)
    }

    /// A model in the given layout built from a scene, recording in `report` what the layout
    /// cannot hold. Refuses meshes with more than 255 UV layers or 255 influences, and
    /// indices that point nowhere. No option changes the result.
    pub fn from_scene_in(
        scene: &Scene,
        layout: Layout,
        _options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        report.lose_rig_controls(scene, "SEModel");
        report.lose_hair_and_instances(scene, "SEModel");
        report.lose_model_name(scene, "SEModel");
        report.lose_extra_color_layers(scene, "SEModel");
        Ok(match layout {
            Layout::Deployed => Self::Deployed(deployed_from_scene(scene, report)?),
            Layout::Draft => Self::Draft(draft_from_scene(scene, report)?),
        })
    }

    /// This model in `layout`: a copy when it already is in that layout (nothing is lost, and
    /// it writes the same bytes), else the model rebuilt through the scene model, recording in
    /// `report` what the scene and then the other layout cannot hold.
    ///
    /// Fails where [`SeModel::to_scene`] or [`SeModel::from_scene_in`] fails.
    pub fn to_layout(&self, layout: Layout, options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        if layout == self.layout() {
            return Ok(self.clone());
        }
        let scene = self.to_scene(options, report)?;
        Self::from_scene_in(&scene, layout, options, report)
    }
}

fn lossless<T>(value: T, report: ConversionReport) -> Result<T> {
    if report.is_lossless() {
        Ok(value)
    } else {
        Err(unencodable(format!(
            "the conversion would lose: {}",
            report.lost.join("; ")
        )))
    }
}

impl TryFrom<&SeModel> for Scene {
    type Error = Error;

    /// Converts when nothing is lost; see [`SeModel::to_scene`] to accept losses.
    fn try_from(model: &SeModel) -> Result<Self> {
        let mut report = ConversionReport::default();
        let scene = model.to_scene(&SceneOptions::default(), &mut report)?;
        lossless(scene, report)
    }
}

impl TryFrom<&Scene> for SeModel {
    type Error = Error;

    /// Converts to the deployed layout when nothing is lost; see [`SeModel::from_scene`].
    fn try_from(scene: &Scene) -> Result<Self> {
        let mut report = ConversionReport::default();
        let model = Self::from_scene(scene, &SceneOptions::default(), &mut report)?;
        lossless(model, report)
    }
}
