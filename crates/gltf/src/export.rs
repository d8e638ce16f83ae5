//! Scene -> glTF 2.0.

use std::collections::{BTreeMap, HashMap, HashSet};

use animbin_core::SceneOptions;
use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::pose;
use animbin_core::scene::{AnimKind, Animation, ConversionReport, Interpolation, Mesh, Precision, Scene};

use crate::error::{Error, Result};
use crate::extras::{
    self, AnimationExtras, ImageExtras, KindOverride, MaterialExtras, MeshExtras, SceneExtras, WrapperExtras,
};
use crate::json::{self, component, short, target};
use crate::xform;
use animbin_core::images::{self, ImageFile, ImageFiles};

/// A built glTF document and its binary buffer.
pub(crate) struct Output {
    pub root: json::Root,
    pub bin: Vec<u8>,
}

/// Accessors, buffer views and the one binary buffer, built up together.
#[derive(Default)]
struct Builder {
    root: json::Root,
    bin: Vec<u8>,
    /// Animation input accessors by the bits of their f32 times, shared between channels.
    times: HashMap<Vec<u32>, usize>,
}

impl Builder {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.bin.resize(self.bin.len().div_ceil(4) * 4, 0);
        let byte_offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.buffer_views.push(json::BufferView {
            buffer: 0,
            byte_offset,
            byte_length: bytes.len(),
            target,
        });
        self.root.buffer_views.len() - 1
    }

    /// A float accessor of `dims`-component elements; `bounds` adds min and max.
    fn floats(
        &mut self,
        values: &[f32],
        kind: &'static str,
        dims: usize,
        target: Option<u32>,
        bounds: bool,
        what: &dyn Fn() -> String,
    ) -> Result<usize> {
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(Error::Unencodable(format!(
                "{} holds a value that is not finite (element {})",
                what(),
                i / dims
            )));
        }
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let buffer_view = self.view(&bytes, target);
        let (min, max) = if bounds {
            let mut min = vec![f32::INFINITY; dims];
            let mut max = vec![f32::NEG_INFINITY; dims];
            for chunk in values.chunks_exact(dims) {
                for (c, &v) in chunk.iter().enumerate() {
                    min[c] = min[c].min(v);
                    max[c] = max[c].max(v);
                }
            }
            (
                Some(min.into_iter().map(short).collect()),
                Some(max.into_iter().map(short).collect()),
            )
        } else {
            (None, None)
        };
        self.root.accessors.push(json::Accessor {
            buffer_view,
            component_type: component::F32,
            normalized: false,
            count: values.len() / dims,
            kind,
            min,
            max,
        });
        Ok(self.root.accessors.len() - 1)
    }

    /// An unsigned integer accessor; `component` picks the width.
    fn uints(
        &mut self,
        values: &[u32],
        component: u32,
        kind: &'static str,
        dims: usize,
        target: Option<u32>,
        normalized: bool,
    ) -> usize {
        let bytes: Vec<u8> = match component {
            component::U8 => values.iter().map(|&v| v as u8).collect(),
            component::U16 => values.iter().flat_map(|&v| (v as u16).to_le_bytes()).collect(),
            _ => values.iter().flat_map(|&v| v.to_le_bytes()).collect(),
        };
        let buffer_view = self.view(&bytes, target);
        self.root.accessors.push(json::Accessor {
            buffer_view,
            component_type: component,
            normalized,
            count: values.len() / dims,
            kind,
            min: None,
            max: None,
        });
        self.root.accessors.len() - 1
    }

    /// The input accessor for these times, shared when another channel has the same.
    fn times(&mut self, times: &[f32], what: &dyn Fn() -> String) -> Result<usize> {
        let bits: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
        if let Some(&index) = self.times.get(&bits) {
            return Ok(index);
        }
        let index = self.floats(times, "SCALAR", 1, None, true, what)?;
        self.times.insert(bits, index);
        Ok(index)
    }

    fn node(&mut self, node: json::Node) -> usize {
        self.root.nodes.push(node);
        self.root.nodes.len() - 1
    }
}

fn finite3(v: Vec3<f64>, what: &dyn Fn() -> String) -> Result<[f32; 3]> {
    let out = [v.x as f32, v.y as f32, v.z as f32];
    if out.iter().all(|c| c.is_finite()) {
        Ok(out)
    } else {
        Err(Error::Unencodable(format!("{} is not finite: {v:?}", what())))
    }
}

/// A unit quaternion in f32; a zero or non-finite one is an error.
fn unit_quat(q: Quat<f64>, what: &dyn Fn() -> String) -> Result<[f32; 4]> {
    let n = q.norm();
    if !(n.is_finite() && n > 0.0) {
        return Err(Error::Unencodable(format!("{} is not a rotation: {q:?}", what())));
    }
    let q = q.map(|c| c / n);
    Ok([q.x as f32, q.y as f32, q.z as f32, q.w as f32])
}

/// The node TRS of a local transform, leaving out identity parts.
fn node_trs(node: &mut json::Node, t: &Transform, what: &dyn Fn() -> String) -> Result<()> {
    let tr = finite3(t.translation, what)?;
    let rot = unit_quat(t.rotation, what)?;
    let sc = finite3(t.scale, what)?;
    node.translation = (tr != [0.0; 3]).then(|| tr.map(short));
    node.rotation = (rot != [0.0, 0.0, 0.0, 1.0]).then(|| rot.map(short));
    node.scale = (sc != [1.0; 3]).then(|| sc.map(short));
    Ok(())
}

/// A found texture file's bytes and MIME type, when glTF can embed it.
fn embeddable(file: &ImageFile) -> Option<(&[u8], &'static str)> {
    let bytes = file.bytes.as_deref()?;
    Some((bytes, images::image_mime_type(bytes)?))
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

/// Which bones have a usable parent: `Some(p)` for a parent in range whose chain reaches a
/// root; `None` for roots and for bones whose parent chain is broken or cyclic.
fn tree_parents(scene: &Scene, report: &mut ConversionReport) -> Vec<Option<usize>> {
    let bones = &scene.skeleton.bones;
    let n = bones.len();
    // 0 unknown, 1 on the current walk, 2 reaches a root, 3 cyclic
    let mut state = vec![0u8; n];
    let mut cyclic = Vec::new();
    let mut broken = Vec::new();
    for start in 0..n {
        let mut path = Vec::new();
        let mut at = start;
        let verdict = loop {
            match state[at] {
                2 => break 2,
                3 | 1 => break 3,
                _ => {}
            }
            state[at] = 1;
            path.push(at);
            match bones[at].parent {
                None => break 2,
                Some(p) if p >= n || p == at => break 2,
                Some(p) => at = p,
            }
        };
        for &i in &path {
            state[i] = verdict;
        }
    }
    let parents = (0..n)
        .map(|i| match bones[i].parent {
            Some(p) if p >= n || p == i => {
                broken.push(bones[i].name.clone());
                None
            }
            Some(_) if state[i] == 3 => {
                cyclic.push(bones[i].name.clone());
                None
            }
            other => other,
        })
        .collect();
    if !broken.is_empty() {
        report.lose(format!(
            "{} bone(s) whose parent index is out of range or the bone itself ({}): exported as roots",
            broken.len(),
            name_list(&broken)
        ));
    }
    if !cyclic.is_empty() {
        report.lose(format!(
            "{} bone(s) whose parents form a cycle ({}): exported as roots",
            cyclic.len(),
            name_list(&cyclic)
        ));
    }
    parents
}

/// Builds the glTF document for `scene`, embedding the texture files of `images`.
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
    let scaled;
    let scene = if options.unit_scale == 1.0 {
        scene
    } else {
        scaled = scaled_scene(scene, options.unit_scale, report);
        &scaled
    };
    let mut b = Builder::default();
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
    let mut bone_roots = Vec::new();
    for (i, parent) in parents.iter().enumerate() {
        match parent {
            Some(p) => b.root.nodes[*p].children.push(i),
            None => bone_roots.push(i),
        }
    }
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, bone) in bones.iter().enumerate() {
        by_name.entry(bone.name.as_str()).or_insert(i);
    }

    // Images: embedded PNGs first, in texture order.
    let mut embedded = Vec::with_capacity(scene.textures.len());
    for (i, texture) in scene.textures.iter().enumerate() {
        if texture.png.starts_with(b"\x89PNG\r\n\x1a\n") {
            let buffer_view = b.view(&texture.png, None);
            b.root.images.push(json::Image {
                name: Some(texture.name.clone()),
                uri: None,
                buffer_view: Some(buffer_view),
                mime_type: Some("image/png".into()),
                extras: None,
            });
            embedded.push(Some(b.root.images.len() - 1));
        } else {
            report.lose(format!(
                "texture {i} ({:?}) is not a PNG (no PNG signature): not embedded",
                texture.name
            ));
            embedded.push(None);
        }
    }
    let mut textures_by_image: HashMap<usize, usize> = HashMap::new();
    let mut images_by_name: HashMap<String, usize> = HashMap::new();
    let mut texture_for_image = |b: &mut Builder, image: usize| {
        *textures_by_image.entry(image).or_insert_with(|| {
            b.root.textures.push(json::Texture { source: image });
            b.root.textures.len() - 1
        })
    };
    let mut not_found: Vec<String> = Vec::new();
    let mut by_uri: Vec<String> = Vec::new();
    let mut image_for_name = |b: &mut Builder, name: &str| -> Option<usize> {
        if let Some(&image) = images_by_name.get(name) {
            return Some(image);
        }
        let found = images.found.get(name);
        let image = match found.map(|f| (f, embeddable(f))) {
            Some((_, Some((bytes, mime)))) => {
                let buffer_view = b.view(bytes, None);
                json::Image {
                    name: Some(name.to_string()),
                    uri: None,
                    buffer_view: Some(buffer_view),
                    mime_type: Some(mime.into()),
                    extras: extras::wrap(&ImageExtras { file: name.to_string() }),
                }
            }
            Some((file, None)) => {
                by_uri.push(name.to_string());
                json::Image {
                    name: Some(name.to_string()),
                    uri: Some(file.uri.clone()),
                    buffer_view: None,
                    mime_type: None,
                    extras: None,
                }
            }
            None => {
                let uri = uri_from_name(name)?;
                if images.searched {
                    not_found.push(name.to_string());
                }
                json::Image {
                    name: Some(name.to_string()),
                    uri: Some(uri),
                    buffer_view: None,
                    mime_type: None,
                    extras: None,
                }
            }
        };
        b.root.images.push(image);
        let index = b.root.images.len() - 1;
        images_by_name.insert(name.to_string(), index);
        Some(index)
    };

    // Materials.
    let mut clamped = Vec::new();
    for material in &scene.materials {
        let embedded_image = material.texture.and_then(|t| embedded.get(t).copied().flatten());
        let base_image = match embedded_image {
            Some(image) => Some(image),
            None => material.diffuse_map.as_deref().and_then(|n| image_for_name(&mut b, n)),
        };
        let base_color_texture = base_image.map(|image| json::TextureInfo {
            index: texture_for_image(&mut b, image),
        });
        let normal_texture = material
            .normal_map
            .as_deref()
            .and_then(|n| image_for_name(&mut b, n))
            .map(|image| json::TextureInfo {
                index: texture_for_image(&mut b, image),
            });
        let base_color_factor = match material.base_color {
            Some(c) => {
                let raw = [c.r, c.g, c.b, c.a];
                let fixed = raw.map(|v| if v.is_finite() { v.clamp(0.0, 1.0) } else { 1.0 });
                if fixed != raw {
                    clamped.push(material.name.clone());
                }
                Some(fixed.map(short))
            }
            None => None,
        };
        b.root.materials.push(json::Material {
            name: Some(material.name.clone()),
            pbr_metallic_roughness: json::PbrMetallicRoughness {
                base_color_factor,
                base_color_texture,
                // Game textures here are diffuse albedo: glTF's default metalness of 1 would
                // render them dark.
                metallic_factor: 0.0,
            },
            normal_texture,
            double_sided: false,
            extras: extras::wrap(&MaterialExtras {
                diffuse_map: material.diffuse_map.clone(),
                normal_map: material.normal_map.clone(),
                specular_map: material.specular_map.clone(),
                has_base_color: material.base_color.is_some(),
            }),
        });
    }
    if !not_found.is_empty() {
        report.lose(format!(
            "{} texture file(s) not found beside the input ({}): kept as URIs relative to the glTF file",
            not_found.len(),
            name_list(&not_found)
        ));
    }
    if !by_uri.is_empty() {
        report.lose(format!(
            "{} texture file(s) that are neither PNG nor JPEG ({}), the image formats glTF holds: referred to by URI, not embedded",
            by_uri.len(),
            name_list(&by_uri)
        ));
    }
    if !clamped.is_empty() {
        report.lose(format!(
            "base colours outside 0..1 clamped (glTF's range) in {} material(s) ({})",
            clamped.len(),
            name_list(&clamped)
        ));
    }

    // Meshes. The one skin (index 0) is built once the animations have added their nodes.
    let mut mesh_nodes = Vec::new();
    let mut skinned_mesh_nodes = Vec::new();
    for (index, mesh) in scene.meshes.iter().enumerate() {
        let Some(primitive) = mesh_primitive(&mut b, scene, index, mesh, report)? else {
            continue;
        };
        let skinned = primitive.attributes.contains_key("JOINTS_0");
        let materials_extra = match mesh.materials.as_slice() {
            [Some(m)] if *m < scene.materials.len() => None,
            [] => None,
            other => Some(other.to_vec()),
        };
        let extras = MeshExtras {
            influences: mesh.skin.as_ref().filter(|_| skinned).map(|s| s.influences),
            materials: materials_extra,
        };
        let has_extras = extras != MeshExtras::default();
        b.root.meshes.push(json::Mesh {
            name: Some(mesh.name.clone()),
            primitives: vec![primitive],
            extras: if has_extras { extras::wrap(&extras) } else { None },
        });
        let mesh_index = b.root.meshes.len() - 1;
        let node = b.node(json::Node {
            name: Some(mesh.name.clone()),
            mesh: Some(mesh_index),
            skin: skinned.then_some(0),
            ..json::Node::default()
        });
        if skinned {
            skinned_mesh_nodes.push(node);
        } else {
            mesh_nodes.push(node);
        }
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
            &by_name,
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

    // The skin: every bone and every node an animation added, so that a skeleton arrives
    // in Blender (and other tools) as an armature even when no mesh is bound to it.
    let skin = if bones.is_empty() && extra_nodes.is_empty() {
        None
    } else {
        Some(build_skin(&mut b, scene, &extra_nodes)?)
    };

    // The scene's roots, under a wrapper node when the axes or a skin with several roots
    // (glTF wants one common root for the joints) call for one.
    let mut roots: Vec<usize> = bone_roots.clone();
    roots.extend(&extra_nodes);
    let joint_roots = roots.len();
    roots.extend(&mesh_nodes);
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
            nodes: scene_nodes,
            extras: extras.flatten(),
        });
        b.root.scene = Some(0);
    }
    Ok(Output {
        root: b.root,
        bin: b.bin,
    })
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

/// The skin: joint `i` is bone `i` (so `JOINTS_0` holds bone indices), then the `extra`
/// nodes of tracks without a bone, bound where they rest (the identity).
fn build_skin(b: &mut Builder, scene: &Scene, extra: &[usize]) -> Result<usize> {
    let bones = &scene.skeleton.bones;
    let mut ibm = Vec::with_capacity((bones.len() + extra.len()) * 16);
    let matrices = bones
        .iter()
        .map(|bone| xform::inverse_matrix(&bone.global))
        .chain(extra.iter().map(|_| Transform::IDENTITY.to_matrix()));
    for m in matrices {
        // glTF matrices are column-major.
        for c in 0..4 {
            for r in 0..4 {
                ibm.push(m.rows[r][c] as f32);
            }
        }
    }
    let accessor = b.floats(&ibm, "MAT4", 16, None, false, &|| "the inverse bind matrices".into())?;
    b.root.skins.push(json::Skin {
        name: None,
        inverse_bind_matrices: accessor,
        skeleton: None,
        joints: (0..bones.len()).chain(extra.iter().copied()).collect(),
    });
    Ok(b.root.skins.len() - 1)
}

/// The primitive of one scene mesh, or `None` (reported) when it has no vertices.
fn mesh_primitive(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    mesh: &Mesh,
    report: &mut ConversionReport,
) -> Result<Option<json::Primitive>> {
    let label = || format!("mesh {index} ({:?})", mesh.name);
    let n = mesh.positions.len();
    if n == 0 {
        report.lose(format!(
            "{}: no vertices (glTF accessors need at least one): not exported",
            label()
        ));
        return Ok(None);
    }
    let count_check = |what: &str, len: usize| -> Result<()> {
        if len == 0 || len == n {
            Ok(())
        } else {
            Err(Error::Unencodable(format!(
                "{}: {len} {what} for {n} vertices",
                label()
            )))
        }
    };
    count_check("normals", mesh.normals.len())?;
    count_check("colours", mesh.colors.len())?;
    for layer in &mesh.uv_layers {
        if layer.len() != n {
            return Err(Error::Unencodable(format!(
                "{}: a UV layer of {} coordinates for {n} vertices",
                label(),
                layer.len()
            )));
        }
    }
    let mut attributes = BTreeMap::new();
    let positions: Vec<f32> = mesh.positions.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    let a = b.floats(&positions, "VEC3", 3, Some(target::ARRAY_BUFFER), true, &|| {
        format!("{} positions", label())
    })?;
    attributes.insert("POSITION".to_string(), a);
    if !mesh.normals.is_empty() {
        let mut fixed = 0;
        let normals: Vec<f32> = mesh
            .normals
            .iter()
            .flat_map(|v| {
                let len = (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
                if len.is_finite() && len > 1e-12 {
                    [v.x / len, v.y / len, v.z / len]
                } else {
                    fixed += 1;
                    [0.0, 0.0, 1.0]
                }
            })
            .collect();
        if fixed > 0 {
            report.lose(format!(
                "{}: {fixed} zero or non-finite normal(s) replaced by +Z (glTF normals are unit length)",
                label()
            ));
        }
        let a = b.floats(&normals, "VEC3", 3, Some(target::ARRAY_BUFFER), false, &|| {
            format!("{} normals", label())
        })?;
        attributes.insert("NORMAL".to_string(), a);
    }
    for (layer, uvs) in mesh.uv_layers.iter().enumerate() {
        let values: Vec<f32> = uvs.iter().flat_map(|uv| [uv.x, uv.y]).collect();
        let a = b.floats(&values, "VEC2", 2, Some(target::ARRAY_BUFFER), false, &|| {
            format!("{} UV layer {layer}", label())
        })?;
        attributes.insert(format!("TEXCOORD_{layer}"), a);
    }
    if !mesh.colors.is_empty() {
        let values: Vec<u32> = mesh
            .colors
            .iter()
            .flat_map(|c| [c.r, c.g, c.b, c.a].map(u32::from))
            .collect();
        let a = b.uints(&values, component::U8, "VEC4", 4, Some(target::ARRAY_BUFFER), true);
        attributes.insert("COLOR_0".to_string(), a);
    }
    if let Some(skin) = &mesh.skin {
        if scene.skeleton.bones.is_empty() {
            report.lose(format!("{}: skin weights but no skeleton: exported unskinned", label()));
        } else {
            let s = skin_attributes(scene, index, mesh, skin, report)?;
            let a = b.uints(&s.joints, s.component, "VEC4", 4, Some(target::ARRAY_BUFFER), false);
            attributes.insert("JOINTS_0".to_string(), a);
            let a = b.floats(&s.weights, "VEC4", 4, Some(target::ARRAY_BUFFER), false, &|| {
                format!("{} weights", label())
            })?;
            attributes.insert("WEIGHTS_0".to_string(), a);
        }
    }
    let (indices, mode) = if mesh.faces.is_empty() {
        report.lose(format!("{}: no faces: exported as points", label()));
        (None, Some(0))
    } else {
        let mut flat = Vec::with_capacity(mesh.faces.len() * 3);
        for (f, face) in mesh.faces.iter().enumerate() {
            for &v in face {
                if v as usize >= n {
                    return Err(Error::Unencodable(format!(
                        "{}: face {f} uses vertex {v}, but there are {n} vertices",
                        label()
                    )));
                }
                flat.push(v);
            }
        }
        // 0xFFFF and 0xFFFFFFFF are primitive restart values, which glTF forbids as indices.
        let component = if n <= 0xFFFF { component::U16 } else { component::U32 };
        let a = b.uints(&flat, component, "SCALAR", 1, Some(target::ELEMENT_ARRAY_BUFFER), false);
        (Some(a), None)
    };
    let material = mesh
        .materials
        .iter()
        .flatten()
        .copied()
        .find(|&m| m < scene.materials.len());
    let distinct: HashSet<_> = mesh.materials.iter().flatten().collect();
    if distinct.len() > 1 {
        report.lose(format!(
            "{}: {} materials (one per UV layer); a glTF primitive shows one, the first (all are kept in extras)",
            label(),
            distinct.len()
        ));
    }
    if mesh.materials.iter().flatten().any(|&m| m >= scene.materials.len()) {
        report.lose(format!(
            "{}: a material index past the material list: left out",
            label()
        ));
    }
    Ok(Some(json::Primitive {
        attributes,
        indices,
        material,
        mode,
    }))
}

/// The values of JOINTS_0 and WEIGHTS_0.
struct SkinAttributes {
    joints: Vec<u32>,
    weights: Vec<f32>,
    /// The component type of JOINTS_0: u8 for up to 256 bones, else u16.
    component: u32,
}

/// JOINTS_0 and WEIGHTS_0: per vertex the four strongest influences (duplicates merged,
/// out-of-range bones and non-positive weights dropped), in their original slot order,
/// renormalised to sum to 1.
fn skin_attributes(
    scene: &Scene,
    index: usize,
    mesh: &Mesh,
    skin: &animbin_core::scene::SkinWeights,
    report: &mut ConversionReport,
) -> Result<SkinAttributes> {
    let label = || format!("mesh {index} ({:?})", mesh.name);
    let n = mesh.positions.len();
    let bone_count = scene.skeleton.bones.len();
    if bone_count > 0x1_0000 {
        return Err(Error::Unencodable(format!(
            "a skin of {bone_count} joints (JOINTS_0 holds at most 65536)"
        )));
    }
    let k = skin.influences;
    let needed = k.checked_mul(n);
    if k == 0 || needed != Some(skin.bones.len()) || needed != Some(skin.weights.len()) {
        return Err(Error::Unencodable(format!(
            "{}: {} bone indices and {} weights for {n} vertices of {k} influences",
            label(),
            skin.bones.len(),
            skin.weights.len()
        )));
    }
    let (mut reduced, mut unweighted, mut dropped) = (0usize, 0usize, 0usize);
    let mut joints = Vec::with_capacity(n * 4);
    let mut weights = Vec::with_capacity(n * 4);
    for v in 0..n {
        let range = v * k..(v + 1) * k;
        let (vb, vw) = (&skin.bones[range.clone()], &skin.weights[range]);
        // Up to 4 clean slots are kept in place, zero-weight slots included, so that a
        // format -> glTF -> format trip gives back the same slots.
        let clean = k <= 4
            && vb.iter().all(|&b| (b as usize) < bone_count)
            && vw.iter().all(|w| w.is_finite() && *w >= 0.0)
            && vw.iter().any(|&w| w > 0.0)
            && vb
                .iter()
                .zip(vw)
                .enumerate()
                .all(|(i, (b, &w))| w == 0.0 || !vb[..i].iter().zip(vw).any(|(c, &x)| x > 0.0 && c == b));
        if clean {
            let sum: f64 = vw.iter().map(|&w| f64::from(w)).sum();
            for (&b, &w) in vb.iter().zip(vw) {
                // A joint with zero weight is 0, as the validator asks (ACCESSOR_JOINTS_USED_ZERO_WEIGHT).
                joints.push(if w > 0.0 { b } else { 0 });
                weights.push((f64::from(w) / sum) as f32);
            }
            for _ in k..4 {
                joints.push(0);
                weights.push(0.0);
            }
            continue;
        }
        let mut slots: Vec<(u32, f64)> = Vec::with_capacity(k);
        for s in v * k..(v + 1) * k {
            let (bone, w) = (skin.bones[s], f64::from(skin.weights[s]));
            if !(w.is_finite() && w > 0.0) {
                continue;
            }
            if bone as usize >= bone_count {
                dropped += 1;
                continue;
            }
            match slots.iter_mut().find(|(b, _)| *b == bone) {
                Some(slot) => slot.1 += w,
                None => slots.push((bone, w)),
            }
        }
        if slots.len() > 4 {
            reduced += 1;
            let mut order: Vec<usize> = (0..slots.len()).collect();
            order.sort_by(|&a, &b| slots[b].1.total_cmp(&slots[a].1).then(a.cmp(&b)));
            let mut keep = order[..4].to_vec();
            keep.sort_unstable();
            slots = keep.into_iter().map(|i| slots[i]).collect();
        }
        if slots.is_empty() {
            unweighted += 1;
            slots.push((0, 1.0));
        }
        let sum: f64 = slots.iter().map(|s| s.1).sum();
        for i in 0..4 {
            let (bone, w) = slots.get(i).copied().unwrap_or((0, 0.0));
            joints.push(bone);
            weights.push((w / sum) as f32);
        }
    }
    if reduced > 0 {
        report.lose(format!(
            "{}: {reduced} vertices with more than 4 influences reduced to the 4 strongest",
            label()
        ));
    }
    if dropped > 0 {
        report.lose(format!(
            "{}: {dropped} influences on bones past the skeleton dropped",
            label()
        ));
    }
    if unweighted > 0 {
        report.lose(format!(
            "{}: {unweighted} vertices without weights bound to bone 0 ({:?})",
            label(),
            scene.skeleton.bones[0].name
        ));
    }
    let component = if bone_count <= 0x100 {
        component::U8
    } else {
        component::U16
    };
    Ok(SkinAttributes {
        joints,
        weights,
        component,
    })
}

/// Keys sorted by time with the values `apply` makes, times in seconds as f32 and strictly
/// increasing (keys whose time repeats are dropped and counted).
fn channel_keys<T: Copy, const N: usize>(
    keys: &[animbin_core::scene::Key<T>],
    framerate: f64,
    apply: &dyn Fn(T) -> Result<[f32; N]>,
    what: &dyn Fn() -> String,
    dropped: &mut usize,
) -> Result<(Vec<f32>, Vec<f32>)> {
    let mut sorted: Vec<_> = keys.iter().collect();
    if let Some(k) = sorted.iter().find(|k| !(k.frame.is_finite() && k.frame >= 0.0)) {
        return Err(Error::Unencodable(format!(
            "{}: a key at frame {} (glTF times are finite and not negative)",
            what(),
            k.frame
        )));
    }
    sorted.sort_by(|a, b| a.frame.total_cmp(&b.frame));
    let mut times = Vec::with_capacity(sorted.len());
    let mut values = Vec::with_capacity(sorted.len() * N);
    for key in sorted {
        let t = (key.frame / framerate) as f32;
        if !t.is_finite() {
            return Err(Error::Unencodable(format!("{}: a key at frame {}", what(), key.frame)));
        }
        if times.last().is_some_and(|&last| t <= last) {
            *dropped += 1;
            continue;
        }
        times.push(t);
        values.extend_from_slice(&apply(key.value)?);
    }
    Ok((times, values))
}

#[allow(clippy::too_many_arguments)]
fn export_animation(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    anim: &Animation,
    precision: Precision,
    by_name: &HashMap<&str, usize>,
    extra_by_name: &mut HashMap<String, usize>,
    extra_nodes: &mut Vec<usize>,
    report: &mut ConversionReport,
) -> Result<()> {
    let label = || format!("animation {index} ({:?})", anim.name);
    if !(anim.framerate.is_finite() && anim.framerate > 0.0) {
        return Err(Error::Unencodable(format!(
            "{}: a framerate of {} (times in seconds need a positive one)",
            label(),
            anim.framerate
        )));
    }
    let has_keys = anim
        .bones
        .iter()
        .any(|t| !t.translation.is_empty() || !t.rotation.is_empty() || !t.scale.is_empty());
    if !has_keys {
        report.lose(format!(
            "{}: no bone keys (a glTF animation needs at least one channel): not exported",
            label()
        ));
        return Ok(());
    }
    let skeleton = &scene.skeleton;
    let kinds = pose::effective_kinds(anim, skeleton);
    if skeleton.bones.is_empty() && kinds.iter().any(|&k| k != AnimKind::Absolute) {
        report.lose(format!(
            "{}: {} keys with no skeleton to apply them to: played over an identity rest pose",
            label(),
            kind_name(anim.kind)
        ));
    }
    let interpolation = match anim.interpolation {
        Interpolation::Linear => "LINEAR",
        Interpolation::Step => "STEP",
    };
    let mut out = json::Animation {
        name: Some(anim.name.clone()),
        channels: Vec::new(),
        samplers: Vec::new(),
        extras: None,
    };
    let mut seen: HashSet<(usize, &'static str)> = HashSet::new();
    let mut missing = Vec::new();
    let (mut duplicates, mut dropped) = (0usize, 0usize);
    for (t, track) in anim.bones.iter().enumerate() {
        let track_keys = !track.translation.is_empty() || !track.rotation.is_empty() || !track.scale.is_empty();
        if !track_keys {
            continue;
        }
        let bone = by_name.get(track.bone.as_str()).copied();
        let node = match bone {
            Some(i) => i,
            None => {
                if !skeleton.bones.is_empty() && !missing.contains(&track.bone) {
                    missing.push(track.bone.clone());
                }
                match extra_by_name.get(&track.bone) {
                    Some(&node) => node,
                    None => {
                        let node = b.node(json::Node {
                            name: Some(track.bone.clone()),
                            ..json::Node::default()
                        });
                        extra_by_name.insert(track.bone.clone(), node);
                        extra_nodes.push(node);
                        node
                    }
                }
            }
        };
        let rest = bone.map_or(Transform::IDENTITY, |i| skeleton.bones[i].local);
        let kind = kinds[t];
        let what = |path: &str| format!("{} track {t} ({:?}) {path}", label(), track.bone);
        let mut channel =
            |b: &mut Builder, path: &'static str, times: Vec<f32>, values: Vec<f32>, kind: &'static str, dims| {
                let sampler_input = b.times(&times, &|| what(path))?;
                let output = b.floats(&values, kind, dims, None, false, &|| what(path))?;
                out.samplers.push(json::Sampler {
                    input: sampler_input,
                    interpolation,
                    output,
                });
                out.channels.push(json::Channel {
                    sampler: out.samplers.len() - 1,
                    target: json::ChannelTarget { node, path },
                });
                Ok::<(), Error>(())
            };
        if !track.translation.is_empty() {
            if seen.insert((node, "translation")) {
                let w = || what("translation");
                let (times, values) = channel_keys(
                    &track.translation,
                    anim.framerate,
                    &|v| finite3(pose::apply_translation(kind, &rest, v), &w),
                    &w,
                    &mut dropped,
                )?;
                channel(b, "translation", times, values, "VEC3", 3)?;
            } else {
                duplicates += 1;
            }
        }
        if !track.rotation.is_empty() {
            if seen.insert((node, "rotation")) {
                let w = || what("rotation");
                let (times, values) = channel_keys(
                    &track.rotation,
                    anim.framerate,
                    &|q| unit_quat(pose::apply_rotation(kind, &rest, q), &w),
                    &w,
                    &mut dropped,
                )?;
                channel(b, "rotation", times, values, "VEC4", 4)?;
            } else {
                duplicates += 1;
            }
        }
        if !track.scale.is_empty() {
            if seen.insert((node, "scale")) {
                let w = || what("scale");
                let (times, values) =
                    channel_keys(&track.scale, anim.framerate, &|v| finite3(v, &w), &w, &mut dropped)?;
                channel(b, "scale", times, values, "VEC3", 3)?;
            } else {
                duplicates += 1;
            }
        }
    }
    if !missing.is_empty() {
        report.lose(format!(
            "{}: {} track(s) name bones that are not in the skeleton ({}): exported as extra nodes that move no vertices",
            label(),
            missing.len(),
            name_list(&missing)
        ));
    }
    if duplicates > 0 {
        report.lose(format!(
            "{}: {duplicates} channel(s) on a bone that an earlier track already animates: dropped",
            label()
        ));
    }
    if dropped > 0 {
        report.lose(format!(
            "{}: {dropped} key(s) at a time an earlier key of the same channel has: dropped",
            label()
        ));
    }
    out.extras = extras::wrap(&AnimationExtras {
        framerate: anim.framerate,
        frame_count: anim.frame_count,
        looping: anim.looping,
        kind: anim.kind,
        interpolation: anim.interpolation,
        tracks: anim.bones.iter().map(|t| t.bone.clone()).collect(),
        kind_overrides: anim
            .bones
            .iter()
            .filter_map(|t| {
                t.kind_override.map(|kind| KindOverride {
                    bone: t.bone.clone(),
                    kind,
                })
            })
            .collect(),
        cosmetic: anim
            .bones
            .iter()
            .filter(|t| t.cosmetic)
            .map(|t| t.bone.clone())
            .collect(),
        notes: anim.notes.iter().map(Into::into).collect(),
        properties: anim.properties.iter().map(Into::into).collect(),
        precision: Some(precision),
    });
    b.root.animations.push(out);
    Ok(())
}

/// `Single` when every key value of `anim` is exactly an `f32`, else `Double`.
fn key_precision(anim: &Animation) -> Precision {
    let exact = |c: f64| f64::from(c as f32) == c || c.is_nan();
    let exact3 = |v: Vec3<f64>| exact(v.x) && exact(v.y) && exact(v.z);
    let single = anim.bones.iter().all(|t| {
        t.translation.iter().all(|k| exact3(k.value))
            && t.scale.iter().all(|k| exact3(k.value))
            && t.rotation
                .iter()
                .all(|k| exact(k.value.x) && exact(k.value.y) && exact(k.value.z) && exact(k.value.w))
    });
    if single { Precision::Single } else { Precision::Double }
}

fn kind_name(kind: AnimKind) -> &'static str {
    match kind {
        AnimKind::Absolute => "absolute",
        AnimKind::Additive => "additive",
        AnimKind::Relative => "relative",
        AnimKind::Delta => "delta",
    }
}
