//! Conversion between DMF and the neutral scene model of `animbin-core`.
//!
//! DMF keeps one vertex list (positions and skin weights) and puts colours, normals and UVs on
//! face corners; the scene keeps them per vertex. So DMF -> scene makes one mesh per material
//! used by the faces and one scene vertex per distinct (vertex, colour, normal, UV) corner; a
//! scene -> DMF conversion puts every mesh's vertices in the one list and copies each vertex's
//! attributes onto the corners that use it. Animation tracks (one record per bone and time,
//! with prs flags) become per-bone translation / rotation / scale channels, and back: keys of
//! one bone at the same frame share a record. Times: DMF seconds = scene frames / framerate.

use std::collections::{BTreeMap, HashMap, HashSet};

use animbin_core::math::{Mat4, Quat, Rgba, Transform, Vec2, Vec3};
use animbin_core::scene::{
    AnimKind, Animation as SceneAnimation, Bone as SceneBone, BoneTrack, ConversionReport, Interpolation, Key,
    Material as SceneMaterial, Mesh, Scene, Skeleton, SkinWeights, Texture as SceneTexture,
};
use animbin_core::{Error, ErrorKind, Result, SceneOptions};
use rustc_hash::FxHashMap;
use zerocopy::little_endian::I16;

use crate::FORMAT;
use crate::layout::{Bone, Bool16, Face, Name, PrsFlags, Track, Vertex, Wrap};
use crate::model::{Animation, Dmf, Material, Texture};
use crate::validate::png_size;

/// What makes a face corner a distinct scene vertex: the DMF vertex, and the bits of the
/// corner's normal, UV and colour.
type CornerKey = (u32, [u32; 3], [u32; 2], [u8; 4]);

/// The frame rate of an animation whose fps is 0, when the options give none.
pub const DEFAULT_FRAMERATE: f64 = 30.0;

/// The most records of one kind: ids are i16 and must equal positions.
const MAX_IDS: usize = 1 << 15;

/// The corner colour a scene vertex without colours gets.
const WHITE: Rgba<u8> = Rgba::new(255, 255, 255, 255);

fn unencodable(what: String) -> Error {
    Error::new(FORMAT, 0, ErrorKind::Unencodable(what))
}

fn name(text: &str, whose: &str) -> Result<Name> {
    Name::new(text).map_err(|e| unencodable(format!("{whose}: {e}")))
}

/// The bone's local matrix (column-major, as DMF stores it) split into translation, rotation
/// and scale by [`Transform::from_matrix`], and whether that transform gives the matrix back
/// (within 1e-4, relative for large values): `false` for shear or a projection, which the
/// caller reports. A matrix with a zero scale (a collapsed axis, which has no rotation) keeps
/// its translation and column lengths with no rotation, exact only when it had none.
fn decompose(m: [f32; 16]) -> (Transform, bool) {
    let m = m.map(f64::from);
    let rows = Mat4 {
        rows: std::array::from_fn(|r| std::array::from_fn(|c| m[c * 4 + r])),
    };
    let transform = Transform::from_matrix(&rows).unwrap_or_else(|| {
        let length = |c: usize| (m[c * 4].powi(2) + m[c * 4 + 1].powi(2) + m[c * 4 + 2].powi(2)).sqrt();
        Transform {
            translation: Vec3::new(m[12], m[13], m[14]),
            rotation: Quat::IDENTITY,
            scale: Vec3::new(length(0), length(1), length(2)),
        }
    });
    let back = column_major(transform.to_matrix());
    let exact = back
        .iter()
        .zip(&m)
        .all(|(a, b)| (a - b).abs() <= 1e-4 * b.abs().max(1.0));
    (transform, exact)
}

/// A row matrix in DMF's column-major order.
fn column_major(m: Mat4<f64>) -> [f64; 16] {
    std::array::from_fn(|i| m.rows[i % 4][i / 4])
}

fn lossy(name: &Name, report: &mut ConversionReport) -> String {
    if name.as_str().is_err() {
        report.lose("names that are not UTF-8 (converted with replacement characters)");
    }
    name.to_string_lossy().into_owned()
}

/// Seconds as frames. A time that a whole frame number gives (`frame / fps` rounded to f32)
/// becomes that whole number, so scene -> DMF -> scene keeps integer frames exact.
fn frames(seconds: f32, framerate: f64) -> f64 {
    let frame = f64::from(seconds) * framerate;
    let whole = frame.round();
    if (whole / framerate) as f32 == seconds {
        whole
    } else {
        frame
    }
}

impl Dmf {
    /// The model as a scene: one mesh per material the faces use, bones with their bind pose,
    /// materials, textures and animations. What the scene has no place for is recorded in
    /// `report`: texture flip and wrap modes, material render settings other than the
    /// diffuse colour and texture, bone matrices with shear, skin weights on bone -1, faces
    /// and tracks whose indices are out of range, names that are not UTF-8, and an fps of 0
    /// (converted at `options.framerate`, else 30 frames per second).
    ///
    /// Of the options only `framerate` applies (DMF stores its own fps and has no axis
    /// convention or unit); the conversion cannot fail today, and returns a `Result` like
    /// every format's.
    pub fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(self.scene(options.framerate_or(DEFAULT_FRAMERATE), report))
    }

    fn scene(&self, default_framerate: f64, report: &mut ConversionReport) -> Scene {
        let textures = self
            .textures
            .iter()
            .map(|t| {
                if t.flip_y != Bool16::FALSE || t.wrap_s != Wrap::Repeat || t.wrap_t != Wrap::Repeat {
                    report.lose("texture flip_y and wrap modes");
                }
                SceneTexture {
                    name: lossy(&t.name, report),
                    data: t.png.clone(),
                    mime_type: String::new(),
                }
            })
            .collect();
        let materials = self
            .materials
            .iter()
            .map(|m| {
                let plain = Material {
                    id: m.id,
                    name: m.name,
                    texture: m.texture,
                    diffuse: m.diffuse,
                    skinning: m.skinning,
                    ..Material::default()
                };
                if *m != plain {
                    report.lose(
                        "material render settings (blending, shader, sides, flags, alpha test, emissive, specular)",
                    );
                }
                SceneMaterial {
                    name: lossy(&m.name, report),
                    texture: usize::try_from(m.texture).ok().filter(|&t| t < self.textures.len()),
                    base_color: Some(m.diffuse),
                    ..SceneMaterial::default()
                }
            })
            .collect();
        let mut skeleton = Skeleton {
            bones: self
                .bones
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let (local, exact) = decompose(b.matrix.map(|v| v.get()));
                    if !exact {
                        report.lose("bone matrices that are not translation, rotation and scale (shear dropped)");
                    }
                    SceneBone {
                        kind: Default::default(),
                        scale_compensate: false,
                        rest_scale: Vec3::ONE,
                        name: lossy(&b.name, report),
                        parent: b.parent().filter(|&p| p < self.bones.len() && p != i),
                        local,
                        global: local,
                        cosmetic: false,
                    }
                })
                .collect(),
            ..Default::default()
        };
        skeleton.update_globals();
        let meshes = self.meshes(report);
        let animations = self
            .animations
            .iter()
            .map(|a| self.scene_animation(a, default_framerate, report))
            .collect();
        Scene {
            placement: Default::default(),
            skeleton,
            meshes,
            materials,
            textures,
            animations,
            ..Default::default()
        }
    }

    fn meshes(&self, report: &mut ConversionReport) -> Vec<Mesh> {
        let corners = || self.faces.iter().flat_map(|f| (0..3).map(move |c| (f, c)));
        let has_normals = corners().any(|(f, c)| f.normals[c].native() != Vec3::new(0.0, 0.0, 0.0));
        let has_uvs = corners().any(|(f, c)| f.uvs[c].native() != Vec2::new(0.0, 0.0));
        let has_colors = corners().any(|(f, c)| f.colors[c] != WHITE);
        let skinned = !self.bones.is_empty();
        let mut by_material: BTreeMap<u16, Vec<&Face>> = BTreeMap::new();
        for face in &self.faces {
            if face.indices.iter().any(|i| i.get() as usize >= self.vertices.len()) {
                report.lose("faces whose vertex indices are out of range");
                continue;
            }
            by_material.entry(face.mat_id.get()).or_default().push(face);
        }
        let mut meshes = Vec::with_capacity(by_material.len());
        // The scene vertex each DMF vertex's first corner in the mesh being built became:
        // corners of one vertex mostly share its normal, UV and colour, so most are matched
        // here, and only the others are looked up by their whole key. Shared by the meshes,
        // each resetting what it set.
        let mut first = vec![u32::MAX; self.vertices.len()];
        for (mat, faces) in by_material {
            let material = Some(usize::from(mat)).filter(|&m| m < self.materials.len());
            let mut mesh = Mesh {
                name: material.map_or_else(|| format!("mesh{mat}"), |m| self.materials[m].name.to_string()),
                materials: vec![material],
                uv_layers: vec![Vec::new()],
                ..Mesh::default()
            };
            let mut skin = SkinWeights {
                influences: 4,
                ..SkinWeights::default()
            };
            let mut others: FxHashMap<CornerKey, u32> = FxHashMap::default();
            for face in &faces {
                let mut triangle = [0u32; 3];
                for (corner, slot) in triangle.iter_mut().enumerate() {
                    let index = face.indices[corner].get();
                    let normal = face.normals[corner].native();
                    let uv = face.uvs[corner].native();
                    let color = face.colors[corner];
                    // Normals and UVs are kept while the mesh is built, whether or not it
                    // has them, so that a corner is matched by their bits.
                    let same = |v: u32| {
                        let v = v as usize;
                        let (n, t) = (mesh.normals[v], mesh.uv_layers[0][v]);
                        [n.x, n.y, n.z, t.x, t.y].map(f32::to_bits)
                            == [normal.x, normal.y, normal.z, uv.x, uv.y].map(f32::to_bits)
                            && mesh.colors[v] == color
                    };
                    let seen = first[index as usize];
                    if seen != u32::MAX && same(seen) {
                        *slot = seen;
                        continue;
                    }
                    let key = (
                        index,
                        [normal.x, normal.y, normal.z].map(f32::to_bits),
                        [uv.x, uv.y].map(f32::to_bits),
                        [color.r, color.g, color.b, color.a],
                    );
                    let next = mesh.positions.len() as u32;
                    let mut add = || {
                        let vertex = &self.vertices[index as usize];
                        mesh.positions.push(vertex.pos.native());
                        mesh.normals.push(normal);
                        mesh.uv_layers[0].push(uv);
                        mesh.colors.push(color);
                        if skinned {
                            for (bone, weight) in vertex.skin_index.iter().zip(&vertex.skin_weight) {
                                let (bone, weight) = (bone.get(), weight.get());
                                if bone < 0 && weight != 0.0 {
                                    report.lose("skin weights on bone -1 (the bind pose)");
                                }
                                skin.bones.push(u32::try_from(bone).unwrap_or(0));
                                skin.weights.push(if bone < 0 { 0.0 } else { weight });
                            }
                        }
                        next
                    };
                    *slot = if seen == u32::MAX {
                        first[index as usize] = next;
                        add()
                    } else {
                        *others.entry(key).or_insert_with(add)
                    };
                }
                mesh.faces.push(triangle);
            }
            for face in &faces {
                for i in face.indices {
                    first[i.get() as usize] = u32::MAX;
                }
            }
            if !has_normals {
                mesh.normals = Vec::new();
            }
            if !has_uvs {
                mesh.uv_layers = Vec::new();
            }
            if !has_colors {
                mesh.colors = Vec::new();
            }
            if skinned {
                mesh.skin = Some(skin);
            }
            meshes.push(mesh);
        }
        meshes
    }

    fn scene_animation(
        &self,
        animation: &Animation,
        default_framerate: f64,
        report: &mut ConversionReport,
    ) -> SceneAnimation {
        let framerate = if animation.fps == 0 {
            report.lose(format!(
                "an fps of 0 (converted at {default_framerate} frames per second)"
            ));
            default_framerate
        } else {
            f64::from(animation.fps)
        };
        let mut bones: Vec<BoneTrack> = Vec::new();
        let mut slot_of: HashMap<i16, usize> = HashMap::new();
        for track in &animation.tracks {
            let id = track.bone_id.get();
            let slot = *slot_of.entry(id).or_insert_with(|| {
                let bone = match usize::try_from(id).ok().and_then(|b| self.bones.get(b)) {
                    Some(b) => b.name.to_string(),
                    None => {
                        report.lose("tracks of bones that do not exist (named boneN)");
                        format!("bone{id}")
                    }
                };
                bones.push(BoneTrack {
                    bone,
                    ..BoneTrack::default()
                });
                bones.len() - 1
            });
            let frame = frames(track.time.get(), framerate);
            let channel = &mut bones[slot];
            if let Some(p) = track.position() {
                channel.translation.push(Key::new(frame, p.map(f64::from)));
            }
            if let Some(r) = track.rotation() {
                channel.rotation.push(Key::new(frame, r.map(f64::from)));
            }
            if let Some(s) = track.scale() {
                channel.scale.push(Key::new(frame, s.map(f64::from)));
            }
        }
        SceneAnimation {
            name: lossy(&animation.name, report),
            framerate,
            frame_count: frames(animation.duration, framerate),
            bones,
            ..SceneAnimation::default()
        }
    }

    /// A model from a scene. Bones are reordered so that parents come first (bones in a parent
    /// cycle become roots), bones named by animations but missing from the skeleton are added
    /// as roots with an identity bind pose, ids are set to positions. Refused: names that do
    /// not fit 31 bytes of UTF-8, more than 32768 textures, materials, bones or animations,
    /// face indices past their mesh's vertices, more vertices than a u32 counts, and a
    /// framerate that is not positive. What DMF has no place for is recorded in `report`.
    ///
    /// The options do not apply: the scene's animations carry their own framerate, and DMF
    /// has no axis convention or unit.
    pub fn from_scene(scene: &Scene, _options: &SceneOptions, report: &mut ConversionReport) -> Result<Self> {
        report.lose_morph_targets(scene, "DMF");
        report.lose_rig_controls(scene, "DMF");
        report.lose_hair_and_instances(scene, "DMF");
        report.lose_dual_quaternion_skinning(scene, "DMF");
        report.lose_model_name(scene, "DMF");
        report.lose_extra_color_layers(scene, "DMF");
        let (bones, bone_index) = dmf_bones(scene, report)?;
        let textures = scene
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| {
                // DMF embeds PNGs: another image (a glTF's JPEG) is named, not written as one.
                let png = if animbin_core::images::image_mime_type(&t.data) == Some("image/png") {
                    t.data.clone()
                } else {
                    report.lose(format!(
                        "texture {i} ({:?}) is not a PNG (DMF embeds PNGs): left empty",
                        t.name
                    ));
                    Vec::new()
                };
                let (width, height) = png_size(&png).unwrap_or((0, 0));
                let (width, height) = match (u16::try_from(width), u16::try_from(height)) {
                    (Ok(w), Ok(h)) => (w, h),
                    _ => {
                        report.lose("image sizes over 65535 pixels");
                        (0, 0)
                    }
                };
                Ok(Texture {
                    id: 0,
                    name: name(&t.name, &format!("texture {i}"))?,
                    flip_y: Bool16::FALSE,
                    width,
                    height,
                    wrap_s: Wrap::Repeat,
                    wrap_t: Wrap::Repeat,
                    nop: [0; 12],
                    png,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut materials = scene
            .materials
            .iter()
            .enumerate()
            .map(|(i, m)| {
                if m.diffuse_map.is_some() || m.normal_map.is_some() || m.specular_map.is_some() {
                    report.lose("texture maps by file name (DMF embeds its textures)");
                }
                let texture = m.texture.filter(|&t| t < textures.len()).map_or(-1, |t| t as i16);
                let skinning = scene
                    .meshes
                    .iter()
                    .any(|mesh| mesh.skin.is_some() && mesh.materials.contains(&Some(i)));
                Ok(Material {
                    name: name(&m.name, &format!("material {i}"))?,
                    texture,
                    skinning: skinning.into(),
                    diffuse: m.base_color.unwrap_or(Rgba::new(1.0, 1.0, 1.0, 1.0)),
                    ..Material::default()
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (vertices, faces) = dmf_mesh(scene, &bone_index, &mut materials, report)?;
        let animations = scene
            .animations
            .iter()
            .enumerate()
            .map(|(i, a)| dmf_animation(i, a, &bones, report))
            .collect::<Result<Vec<_>>>()?;
        for (count, what) in [
            (textures.len(), "textures"),
            (materials.len(), "materials"),
            (animations.len(), "animations"),
        ] {
            if count > MAX_IDS {
                return Err(unencodable(format!(
                    "{count} {what}: ids are i16, so at most {MAX_IDS}"
                )));
            }
        }
        let mut dmf = Dmf {
            textures,
            materials,
            vertices,
            faces,
            bones,
            animations,
        };
        dmf.renumber();
        Ok(dmf)
    }
}

/// The skeleton in parents-first order, plus bones that only animations name; and each scene
/// bone's new index.
fn dmf_bones(scene: &Scene, report: &mut ConversionReport) -> Result<(Vec<Bone>, Vec<usize>)> {
    let source = &scene.skeleton.bones;
    let order = scene.skeleton.resolve_order();
    let mut new_index = vec![0usize; source.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let mut bones = Vec::with_capacity(source.len());
    for (new, &old) in order.iter().enumerate() {
        let bone = &source[old];
        let parent = match bone.parent.filter(|&p| p < source.len() && p != old) {
            Some(p) if new_index[p] < new => new_index[p] as i16,
            Some(_) => {
                report.lose("a parent cycle (its bones became roots)");
                -1
            }
            None => -1,
        };
        if bone.cosmetic {
            report.lose("cosmetic bone flags");
        }
        let matrix = column_major(bone.local.to_matrix()).map(|v| v as f32);
        bones.push(Bone::new(name(&bone.name, &format!("bone {old}"))?, 0, parent, matrix));
    }
    // Looked up by name once per track: sets, not a search of every bone per track.
    let scene_names = scene.skeleton.indices_by_name();
    let mut names: HashSet<Vec<u8>> = bones.iter().map(|b| b.name.bytes().to_vec()).collect();
    for animation in &scene.animations {
        for track in &animation.bones {
            if !scene_names.contains_key(track.bone.as_str()) && !names.contains(track.bone.as_bytes()) {
                report.lose("a skeleton for animated bones (added as roots with an identity bind pose)");
                let identity = column_major(Transform::IDENTITY.to_matrix()).map(|v| v as f32);
                let bone = Bone::new(name(&track.bone, "an animated bone")?, 0, -1, identity);
                names.insert(bone.name.bytes().to_vec());
                bones.push(bone);
            }
        }
    }
    if bones.len() > MAX_IDS {
        return Err(unencodable(format!(
            "{} bones: ids are i16, so at most {MAX_IDS}",
            bones.len()
        )));
    }
    for (i, bone) in bones.iter_mut().enumerate() {
        bone.bone_id = I16::new(i as i16);
    }
    Ok((bones, new_index))
}

/// Every mesh's vertices in one list, and faces with the vertices' attributes on their corners.
fn dmf_mesh(
    scene: &Scene,
    bone_index: &[usize],
    materials: &mut Vec<Material>,
    report: &mut ConversionReport,
) -> Result<(Vec<Vertex>, Vec<Face>)> {
    let mut vertices = Vec::with_capacity(scene.meshes.iter().map(|m| m.positions.len()).sum());
    let mut faces = Vec::with_capacity(scene.meshes.iter().map(|m| m.faces.len()).sum());
    let mut fallback: Option<u16> = None;
    // A DMF model is one vertex list that readers split by material: meshes that share one
    // come back as one.
    let mut first_material = std::collections::HashSet::with_capacity(scene.meshes.len());
    let shared = scene
        .meshes
        .iter()
        .filter(|m| !first_material.insert(m.materials.first().copied().flatten()))
        .count();
    if shared > 0 {
        report.lose(format!(
            "the bounds of {shared} mesh(es) that share a material with another (DMF splits a model by material)"
        ));
    }
    for (m, mesh) in scene.meshes.iter().enumerate() {
        let base = u32::try_from(vertices.len()).map_err(|_| unencodable("more than 2^32 vertices".into()))?;
        if mesh.uv_layers.len() > 1 {
            report.lose("UV layers after the first");
        }
        if mesh.materials.len() > 1 {
            report.lose("materials of UV layers after the first");
        }
        let material = match mesh
            .materials
            .first()
            .copied()
            .flatten()
            .filter(|&i| i < materials.len())
        {
            Some(i) => u16::try_from(i).map_err(|_| unencodable(format!("material {i}: face mat_id is a u16")))?,
            None if materials.is_empty() => 0,
            None => *fallback.get_or_insert_with(|| {
                materials.push(Material {
                    name: Name::new("default").unwrap_or_default(),
                    ..Material::default()
                });
                (materials.len() - 1) as u16
            }),
        };
        for (v, position) in mesh.positions.iter().enumerate() {
            let mut skin_index = [0i16; 4];
            let mut skin_weight = [0f32; 4];
            if let Some(skin) = &mesh.skin {
                let n = skin.influences;
                let mut slots: Vec<(u32, f32)> = (0..n)
                    .filter_map(|k| Some((*skin.bones.get(v * n + k)?, *skin.weights.get(v * n + k)?)))
                    .filter(|&(_, w)| w != 0.0)
                    .collect();
                if slots.len() > 4 {
                    report.lose("skin influences past four per vertex (the four largest kept, renormalised)");
                    slots.sort_by(|a, b| b.1.total_cmp(&a.1));
                    slots.truncate(4);
                    let sum: f32 = slots.iter().map(|s| s.1).sum();
                    if sum > 0.0 {
                        slots.iter_mut().for_each(|s| s.1 /= sum);
                    }
                }
                for (k, (bone, weight)) in slots.into_iter().enumerate() {
                    let Some(&new) = bone_index.get(bone as usize) else {
                        report.lose("skin weights on bones that do not exist");
                        continue;
                    };
                    skin_index[k] = new as i16;
                    skin_weight[k] = weight;
                }
            }
            vertices.push(Vertex::new(*position, skin_index, skin_weight));
        }
        let uvs = mesh.uv_layers.first();
        for (f, triangle) in mesh.faces.iter().enumerate() {
            let mut indices = [0u32; 3];
            let mut colors = [WHITE; 3];
            let mut normals = [Vec3::new(0.0, 0.0, 0.0); 3];
            let mut corner_uvs = [Vec2::new(0.0, 0.0); 3];
            for (c, &index) in triangle.iter().enumerate() {
                let i = index as usize;
                if i >= mesh.positions.len() {
                    return Err(unencodable(format!(
                        "mesh {m} face {f}: vertex index {index} is past its {} vertices",
                        mesh.positions.len()
                    )));
                }
                indices[c] = base + index;
                colors[c] = mesh.colors.get(i).copied().unwrap_or(WHITE);
                normals[c] = mesh.normals.get(i).copied().unwrap_or(normals[c]);
                corner_uvs[c] = uvs.and_then(|l| l.get(i)).copied().unwrap_or(corner_uvs[c]);
            }
            faces.push(Face::new(material, indices, colors, normals, corner_uvs));
        }
    }
    Ok((vertices, faces))
}

/// Total order on frames for grouping keys of one bone by time.
fn frame_key(frame: f64) -> i64 {
    let bits = frame.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

fn dmf_animation(index: usize, a: &SceneAnimation, bones: &[Bone], report: &mut ConversionReport) -> Result<Animation> {
    if !(a.framerate > 0.0 && a.framerate.is_finite()) {
        return Err(unencodable(format!("animation {index} has framerate {}", a.framerate)));
    }
    let fps = a.framerate.round().clamp(1.0, f64::from(u16::MAX));
    if fps != a.framerate {
        report.lose("framerates that are not whole numbers of frames per second (times kept in seconds)");
    }
    if !a.notes.is_empty() {
        report.lose("notes");
    }
    if !a.properties.is_empty() {
        report.lose("property tracks");
    }
    if a.looping {
        report.lose("the looping flag");
    }
    if a.kind != AnimKind::Absolute || a.bones.iter().any(|b| b.kind_override.is_some()) {
        report.lose("animation kinds other than absolute");
    }
    if a.interpolation != Interpolation::Linear {
        report.lose("step interpolation");
    }
    let seconds = |frame: f64| (frame / a.framerate) as f32;
    // Each channel finds its bone by name in one look-up, the first bone of that name as
    // before (a search of every bone per channel made 32,000 bones cost 15 times 8,000).
    let mut bone_of: FxHashMap<&[u8], i16> = FxHashMap::default();
    for (i, b) in bones.iter().enumerate().rev() {
        bone_of.insert(b.name.bytes(), i as i16);
    }
    let mut tracks = Vec::new();
    for channel in &a.bones {
        let Some(&bone) = bone_of.get(channel.bone.as_bytes()) else {
            continue;
        };
        // Keys at the same frame share a record; a second key of one channel at one frame
        // gets a record of its own. The records holding a flag are always the first ones of
        // their frame, so the count of each flag's keys there is the slot of the next one
        // (a search of the records per key made 400,000 keys at one frame run for minutes).
        let mut at: BTreeMap<i64, (Vec<Track>, [usize; 3])> = BTreeMap::new();
        let mut place = |frame: f64, (flag, which): (PrsFlags, usize), set: &dyn Fn(&mut Track)| {
            let (records, filled) = at.entry(frame_key(frame)).or_default();
            let slot = filled[which];
            filled[which] += 1;
            if slot == records.len() {
                records.push(Track::new(bone, seconds(frame), None, None, None));
            }
            let record = &mut records[slot];
            record.set_flags(record.flags() | flag);
            set(record);
        };
        for key in &channel.translation {
            let v = key.value.map(|c| c as f32);
            place(key.frame, (PrsFlags::POSITION, 0), &|r| {
                r.pos = v.map(zerocopy::little_endian::F32::new)
            });
        }
        for key in &channel.rotation {
            let v = key.value.map(|c| c as f32);
            place(key.frame, (PrsFlags::ROTATION, 1), &|r| {
                r.rot = v.map(zerocopy::little_endian::F32::new)
            });
        }
        for key in &channel.scale {
            let v = key.value.map(|c| c as f32);
            place(key.frame, (PrsFlags::SCALE, 2), &|r| {
                r.scl = v.map(zerocopy::little_endian::F32::new)
            });
        }
        tracks.extend(at.into_values().flat_map(|(records, _)| records));
    }
    Ok(Animation {
        id: 0,
        name: name(&a.name, &format!("animation {index}"))?,
        fps: fps as u16,
        duration: seconds(a.frame_count),
        tracks,
    })
}

impl From<&Dmf> for Scene {
    /// [`Dmf::to_scene`] with the default options and without the report.
    fn from(dmf: &Dmf) -> Self {
        dmf.scene(DEFAULT_FRAMERATE, &mut ConversionReport::default())
    }
}

impl TryFrom<&Scene> for Dmf {
    type Error = Error;
    /// [`Dmf::from_scene`] with the default options and without the report.
    fn try_from(scene: &Scene) -> Result<Self> {
        Dmf::from_scene(scene, &SceneOptions::default(), &mut ConversionReport::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_decompose_into_the_transform_that_made_them() {
        let t = Transform {
            translation: Vec3::new(1.0, -2.0, 3.5),
            rotation: Quat::new(0.1, 0.7, -0.2, 0.6).normalized(),
            scale: Vec3::new(2.0, 2.0, 2.0),
        };
        let m = column_major(t.to_matrix()).map(|v| v as f32);
        let (back, exact) = decompose(m);
        assert!(exact);
        assert!((back.translation - t.translation).dot(back.translation - t.translation) < 1e-10);
        let same_rotation =
            (back.rotation.x - t.rotation.x).abs() < 1e-5 && (back.rotation.w - t.rotation.w).abs() < 1e-5;
        let opposite = (back.rotation.x + t.rotation.x).abs() < 1e-5 && (back.rotation.w + t.rotation.w).abs() < 1e-5;
        assert!(same_rotation || opposite, "{back:?}");
        assert!((back.scale.y - 2.0).abs() < 1e-5);
    }

    #[test]
    fn a_sheared_matrix_is_reported_as_inexact() {
        let mut m = column_major(Transform::IDENTITY.to_matrix()).map(|v| v as f32);
        m[4] = 0.5; // x += 0.5 y
        assert!(!decompose(m).1);
    }

    #[test]
    fn frame_keys_order_like_the_frames() {
        let frames = [-2.0, -0.5, 0.0, 0.5, 1.0, 100.0];
        let keys: Vec<i64> = frames.iter().map(|&f| frame_key(f)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}
