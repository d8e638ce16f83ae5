//! glTF 2.0 -> Scene.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use animbin_core::SceneOptions;
use animbin_core::math::{Mat4, Quat, Rgba, Transform, Vec2, Vec3};
use animbin_core::pose;
use animbin_core::scene::{
    AnimKind, Animation, Bone, BoneTrack, ConversionReport, Interpolation, Key, Material, Mesh, Note, Precision, Scene,
    Skeleton, SkinWeights, Texture,
};
use base64::Engine;
use gltf::animation::Property;
use gltf::mesh::{Mode, Semantic};

use crate::accessor::{self, Buffers};
use crate::error::{Error, Path, Result};
use crate::extras::{self, AnimationExtras, ImageExtras, MaterialExtras, MeshExtras, SceneExtras, WrapperExtras};
use crate::glb::Glb;
use crate::xform;

/// Parses the container and the JSON, and validates the document.
pub(crate) fn parse(bytes: &[u8]) -> Result<(gltf::Document, Option<&[u8]>)> {
    let (json, bin) = if bytes.starts_with(crate::MAGIC) {
        let glb = Glb::parse(bytes)?;
        (glb.json, glb.bin)
    } else {
        (bytes, None)
    };
    let root = gltf::json::Root::from_slice(json).map_err(|e| Error::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    if !root.asset.version.starts_with("2.") {
        return Err(Error::invalid(
            "/asset/version",
            "glTF 2.x",
            format!("{:?}", root.asset.version),
        ));
    }
    if let Some(min) = &root.asset.min_version {
        if min != "2.0" {
            return Err(Error::invalid("/asset/minVersion", "2.0", format!("{min:?}")));
        }
    }
    // gltf-json's validation of an animation checks its samplers but not its channels'
    // targets (node and path), which `gltf` then unwraps: check them here.
    for (a, animation) in root.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            if channel.target.path == gltf::json::validation::Checked::Invalid {
                return Err(Error::invalid(
                    Path::item("animations", a)
                        .field("channels")
                        .index(c)
                        .field("target")
                        .field("path"),
                    "translation, rotation, scale or weights",
                    "another path",
                ));
            }
            if channel.target.node.value() >= root.nodes.len() {
                return Err(Error::invalid(
                    Path::item("animations", a)
                        .field("channels")
                        .index(c)
                        .field("target")
                        .field("node"),
                    format!("a node index below the node count {}", root.nodes.len()),
                    channel.target.node.value(),
                ));
            }
        }
    }
    // `gltf` unwraps an image's MIME type when it has a buffer view, and its URI otherwise.
    for (i, image) in root.images.iter().enumerate() {
        let missing = match (&image.buffer_view, &image.uri) {
            (Some(_), _) if image.mime_type.is_none() => Some(("mimeType", "a MIME type with a bufferView")),
            (None, None) => Some(("uri", "a uri or a bufferView")),
            _ => None,
        };
        if let Some((member, expected)) = missing {
            return Err(Error::invalid(Path::item("images", i).field(member), expected, "none"));
        }
    }
    // Its primitive hook indexes the POSITION accessor before the index is checked.
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            for (semantic, accessor) in &primitive.attributes {
                if accessor.value() >= root.accessors.len() {
                    let name = match semantic {
                        gltf::json::validation::Checked::Valid(s) => s.to_string(),
                        gltf::json::validation::Checked::Invalid => "?".into(),
                    };
                    return Err(Error::invalid(
                        Path::item("meshes", m)
                            .field("primitives")
                            .index(p)
                            .field("attributes")
                            .field(&name),
                        format!("an accessor index below the accessor count {}", root.accessors.len()),
                        accessor.value(),
                    ));
                }
            }
        }
    }
    let document = gltf::Document::from_json(root).map_err(|e| match e {
        gltf::Error::Validation(list) => {
            let (path, first) = list
                .first()
                .map(|(p, e)| (p.to_string(), e.to_string()))
                .unwrap_or_default();
            let more = if list.len() > 1 {
                format!(" (and {} more problems)", list.len() - 1)
            } else {
                String::new()
            };
            let path = if path.starts_with('/') {
                path
            } else {
                format!("/{}", path.replace('.', "/"))
            };
            Error::invalid(path, "a valid glTF 2.0 value", format!("{first}{more}"))
        }
        other => Error::invalid("/", "a valid glTF 2.0 document", other),
    })?;
    Ok((document, bin))
}

/// Decodes a `data:` URI's base64 payload.
pub(crate) fn decode_data_uri(uri: &str) -> Option<Vec<u8>> {
    let rest = uri.strip_prefix("data:")?;
    let (meta, payload) = rest.split_once(',')?;
    if !meta.ends_with(";base64") {
        return None;
    }
    base64::engine::general_purpose::STANDARD.decode(payload.trim()).ok()
}

pub(crate) fn load_buffers<'a>(document: &gltf::Document, bin: Option<&'a [u8]>) -> Result<Buffers<'a>> {
    let mut data = Vec::new();
    for buffer in document.buffers() {
        let path = Path::item("buffers", buffer.index());
        let bytes: Cow<'a, [u8]> =
            match buffer.source() {
                gltf::buffer::Source::Bin => Cow::Borrowed(bin.ok_or_else(|| {
                    Error::invalid(path.clone(), "a GLB BIN chunk for a buffer without a uri", "none")
                })?),
                gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => Cow::Owned(
                    decode_data_uri(uri)
                        .ok_or_else(|| Error::invalid(path.field("uri"), "a base64 data URI", "a malformed one"))?,
                ),
                gltf::buffer::Source::Uri(uri) => {
                    return Err(Error::invalid(
                        path.field("uri"),
                        "an embedded buffer (a .glb, or a .gltf with data: URIs)",
                        format!("the external file {uri:?}"),
                    ));
                }
            };
        if bytes.len() < buffer.length() {
            return Err(Error::invalid(
                path.field("byteLength"),
                format!("at most the {} bytes the buffer holds", bytes.len()),
                buffer.length(),
            ));
        }
        data.push(bytes);
    }
    Ok(Buffers { data })
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
    for start in 0..n {
        let mut at = parent[start];
        for _ in 0..n {
            match at {
                Some(p) if p == start => {
                    return Err(Error::invalid(
                        Path::item("nodes", start),
                        "a node hierarchy without cycles",
                        "a cycle",
                    ));
                }
                Some(p) => at = parent[p],
                None => break,
            }
        }
    }
    Ok(parent)
}

fn trs(node: &gltf::Node) -> Transform {
    let (t, r, s) = node.transform().decomposed();
    let t = Vec3::new(f64::from(t[0]), f64::from(t[1]), f64::from(t[2]));
    let r = Quat::new(f64::from(r[0]), f64::from(r[1]), f64::from(r[2]), f64::from(r[3])).normalized();
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

fn is_identity(t: &Transform) -> bool {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
    close(t.translation.x, 0.0)
        && close(t.translation.y, 0.0)
        && close(t.translation.z, 0.0)
        && close(t.rotation.w.abs(), 1.0)
        && close(t.scale.x, 1.0)
        && close(t.scale.y, 1.0)
        && close(t.scale.z, 1.0)
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

    // Which nodes are bones: skin joints and animated nodes; without skins, every node that
    // holds no mesh or camera.
    let mut is_bone = vec![false; nodes.len()];
    let mut candidates = Vec::new();
    for skin in document.skins() {
        for joint in skin.joints() {
            candidates.push(joint.index());
        }
    }
    let has_skins = !candidates.is_empty();
    for animation in document.animations() {
        for channel in animation.channels() {
            if channel.target().property() != Property::MorphTargetWeights {
                candidates.push(channel.target().node().index());
            }
        }
    }
    if !has_skins {
        candidates.extend(
            nodes
                .iter()
                .filter(|n| n.mesh().is_none() && n.camera().is_none())
                .map(gltf::Node::index),
        );
    }
    let mut order = Vec::new();
    for c in candidates {
        if !wrapper[c] && !is_bone[c] {
            is_bone[c] = true;
            order.push(c);
        }
    }

    // The bone hierarchy: each bone's parent is its nearest bone ancestor.
    let mut skeleton = Skeleton::default();
    let mut bone_of_node: HashMap<usize, usize> = HashMap::new();
    for (b, &node) in order.iter().enumerate() {
        bone_of_node.insert(node, b);
    }
    let mut skipped_between = Vec::new();
    for &node in &order {
        let mut at = parents[node];
        let mut passed = Vec::new();
        while let Some(p) = at {
            if is_bone[p] {
                break;
            }
            passed.push(p);
            at = parents[p];
        }
        let parent = at.and_then(|p| bone_of_node.get(&p).copied());
        if parent.is_some() {
            for p in passed {
                if !wrapper[p] && !is_identity(&trs(&nodes[p])) {
                    skipped_between.push(nodes[p].name().unwrap_or("").to_string());
                }
            }
        }
        skeleton.bones.push(Bone {
            name: nodes[node].name().map_or_else(|| format!("node{node}"), str::to_string),
            parent,
            local: trs(&nodes[node]),
            global: Transform::IDENTITY,
            cosmetic: false,
        });
    }
    if !skipped_between.is_empty() {
        report.lose(format!(
            "{} transform(s) of nodes between bones that are not bones themselves: not kept",
            skipped_between.len()
        ));
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
    let mut bone_nodes = vec![0; order.len()];
    for (old, &node) in order.iter().enumerate() {
        bone_nodes[new_index[old]] = node;
        bone_of_node.insert(node, new_index[old]);
    }
    let mut skeleton = Skeleton { bones };
    skeleton.update_globals();
    // The bind pose of joints comes from the inverse bind matrices.
    let mut bound = HashSet::new();
    for skin in document.skins() {
        let Some(ibm) = skin.inverse_bind_matrices() else {
            continue;
        };
        let (values, _) = accessor::floats(&ibm, &buffers, &[16], "inverse bind matrices")?;
        let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
        if values.len() < joints.len() * 16 {
            return Err(Error::invalid(
                Path::item("skins", skin.index()).field("inverseBindMatrices"),
                format!("{} matrices, one per joint", joints.len()),
                values.len() / 16,
            ));
        }
        for (j, node) in joints.iter().enumerate() {
            let Some(&b) = bone_of_node.get(node) else { continue };
            if !bound.insert(b) {
                continue;
            }
            let m = &values[j * 16..j * 16 + 16];
            let mut rows = [[0.0; 4]; 4];
            for (c, column) in m.chunks_exact(4).enumerate() {
                for (r, &v) in column.iter().enumerate() {
                    rows[r][c] = f64::from(v);
                }
            }
            if let Some(global) = xform::inverse_affine(&Mat4 { rows }).and_then(|m| Transform::from_matrix(&m)) {
                skeleton.bones[b].global = global;
            }
        }
    }

    let mut scene = Scene {
        skeleton,
        ..Scene::default()
    };

    // Images and materials.
    let mut texture_of_image: HashMap<usize, usize> = HashMap::new();
    for image in document.images() {
        let bytes: Option<Vec<u8>> = match image.source() {
            gltf::image::Source::View { view, .. } => {
                let buffer = buffers.data.get(view.buffer().index());
                let end = view.offset().checked_add(view.length());
                let bytes = end.and_then(|end| buffer.and_then(|b| b.get(view.offset()..end)));
                Some(
                    bytes
                        .ok_or_else(|| {
                            Error::invalid(
                                Path::item("bufferViews", view.index()),
                                "a range inside its buffer",
                                format!(
                                    "bytes {}..{}",
                                    view.offset(),
                                    view.offset() as u128 + view.length() as u128
                                ),
                            )
                        })?
                        .to_vec(),
                )
            }
            gltf::image::Source::Uri { uri, .. } if uri.starts_with("data:") => {
                Some(decode_data_uri(uri).ok_or_else(|| {
                    Error::invalid(
                        Path::item("images", image.index()).field("uri"),
                        "a base64 data URI",
                        "a malformed one",
                    )
                })?)
            }
            gltf::image::Source::Uri { .. } => None,
        };
        // An image animbin embedded from a texture file stands for the material's map name.
        let from_file = extras::unwrap::<ImageExtras>(image.extras()).is_some();
        if let (Some(bytes), false) = (bytes, from_file) {
            if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
                texture_of_image.insert(image.index(), scene.textures.len());
                scene.textures.push(Texture {
                    name: image
                        .name()
                        .map_or_else(|| format!("image{}", image.index()), str::to_string),
                    png: bytes,
                });
            } else {
                report.lose(format!(
                    "image {} ({:?}) is not a PNG (the scene holds PNG textures): skipped",
                    image.index(),
                    image.name().unwrap_or("")
                ));
            }
        }
    }
    let uri_name = |image: gltf::Image| match image.source() {
        gltf::image::Source::Uri { uri, .. } if !uri.starts_with("data:") => Some(percent_decode(uri)),
        _ => None,
    };
    for material in document.materials() {
        let extras: Option<MaterialExtras> = extras::unwrap(material.extras());
        let pbr = material.pbr_metallic_roughness();
        let base_image = pbr.base_color_texture().map(|info| info.texture().source());
        let texture = base_image
            .as_ref()
            .and_then(|i| texture_of_image.get(&i.index()).copied());
        let factor = pbr.base_color_factor();
        let base_color = match &extras {
            Some(e) => e.has_base_color,
            None => factor != [1.0; 4],
        }
        .then(|| Rgba::new(factor[0], factor[1], factor[2], factor[3]));
        let (diffuse_map, normal_map, specular_map) = match extras {
            Some(e) => (e.diffuse_map, e.normal_map, e.specular_map),
            None => (
                base_image.and_then(uri_name),
                material.normal_texture().and_then(|n| uri_name(n.texture().source())),
                None,
            ),
        };
        scene.materials.push(Material {
            name: material.name().unwrap_or("").to_string(),
            diffuse_map,
            normal_map,
            specular_map,
            texture,
            base_color,
        });
    }

    // Meshes: each primitive of each mesh, skinned by the first node that shows the mesh.
    let mut first_node_of_mesh: HashMap<usize, usize> = HashMap::new();
    for node in &nodes {
        if let Some(mesh) = node.mesh() {
            first_node_of_mesh.entry(mesh.index()).or_insert(node.index());
        }
    }
    let mut moved_meshes = Vec::new();
    for mesh in document.meshes() {
        let node = first_node_of_mesh.get(&mesh.index()).map(|&n| &nodes[n]);
        let skin = node.and_then(gltf::Node::skin);
        if let (Some(node), None) = (node, &skin) {
            // The node's transform up to (not including) a top-level or animbin root node.
            let mut at = Some(node.index());
            let mut moved = false;
            while let Some(i) = at {
                if wrapper[i] || (parents[i].is_none() && i != node.index()) {
                    break;
                }
                moved |= !is_identity(&trs(&nodes[i]));
                at = parents[i];
            }
            if moved {
                moved_meshes.push(mesh.name().unwrap_or("").to_string());
            }
        }
        let extras: Option<MeshExtras> = extras::unwrap(mesh.extras());
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
            if let Some(m) = import_primitive(
                &primitive,
                name,
                &path,
                &buffers,
                skin.as_ref(),
                &bone_of_node,
                extras.as_ref(),
                report,
            )? {
                scene.meshes.push(m);
            }
        }
    }
    if !moved_meshes.is_empty() {
        report.lose(format!(
            "{} unskinned mesh(es) placed by a node transform that the scene cannot hold (vertices kept in mesh space)",
            moved_meshes.len()
        ));
    }

    // Animations.
    let mut single = Vec::new();
    for animation in document.animations() {
        let (anim, precision) = import_animation(
            &animation,
            &buffers,
            &scene.skeleton,
            &bone_of_node,
            &wrapper,
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
            for key in &mut track.translation {
                key.value = key.value.map(round);
            }
            for key in &mut track.rotation {
                key.value = key.value.map(round);
            }
            for key in &mut track.scale {
                key.value = key.value.map(round);
            }
        }
    }
    Ok(scene)
}

/// The file name a relative image URI stands for, the inverse of [`crate::uri_from_name`]:
/// `%XX` escapes are decoded (malformed ones are kept as they are) and bytes that are not
/// UTF-8 become U+FFFD. A caller that loads an image from beside a `.gltf` file joins this to
/// the file's folder.
pub fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if let Some(v) = uri.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[allow(clippy::too_many_arguments)]
fn import_primitive(
    primitive: &gltf::Primitive,
    name: String,
    path: &Path,
    buffers: &Buffers,
    skin: Option<&gltf::Skin>,
    bone_of_node: &HashMap<usize, usize>,
    extras: Option<&MeshExtras>,
    report: &mut ConversionReport,
) -> Result<Option<Mesh>> {
    let Some(positions) = primitive.get(&Semantic::Positions) else {
        report.lose(format!("{path}: a primitive without positions: skipped"));
        return Ok(None);
    };
    let (pos, _) = accessor::floats(&positions, buffers, &[3], "positions")?;
    let n = pos.len() / 3;
    let mut mesh = Mesh {
        name,
        positions: pos.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])).collect(),
        ..Mesh::default()
    };
    let same_count = |a: &gltf::Accessor, what: &str| -> Result<()> {
        if a.count() == n {
            Ok(())
        } else {
            Err(Error::invalid(
                path.field("attributes").field(what),
                format!("{n} elements, as POSITION has"),
                a.count(),
            ))
        }
    };
    let mut joint_sets: Vec<(u32, Vec<u32>)> = Vec::new();
    let mut weight_sets: Vec<(u32, Vec<f32>)> = Vec::new();
    let mut uv_sets: Vec<(u32, Vec<Vec2<f32>>)> = Vec::new();
    for (semantic, a) in primitive.attributes() {
        match semantic {
            Semantic::Normals => {
                same_count(&a, "NORMAL")?;
                let (v, _) = accessor::floats(&a, buffers, &[3], "normals")?;
                mesh.normals = v.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])).collect();
            }
            Semantic::TexCoords(set) => {
                same_count(&a, &format!("TEXCOORD_{set}"))?;
                let (v, _) = accessor::floats(&a, buffers, &[2], "texture coordinates")?;
                uv_sets.push((set, v.chunks_exact(2).map(|p| Vec2::new(p[0], p[1])).collect()));
            }
            Semantic::Colors(0) => {
                same_count(&a, "COLOR_0")?;
                let (v, dims) = accessor::floats(&a, buffers, &[3, 4], "colours")?;
                let to8 = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                mesh.colors = v
                    .chunks_exact(dims)
                    .map(|c| Rgba::new(to8(c[0]), to8(c[1]), to8(c[2]), if dims == 4 { to8(c[3]) } else { 255 }))
                    .collect();
            }
            Semantic::Joints(set) => {
                same_count(&a, &format!("JOINTS_{set}"))?;
                joint_sets.push((set, accessor::uints(&a, buffers, 4, "joints")?));
            }
            Semantic::Weights(set) => {
                same_count(&a, &format!("WEIGHTS_{set}"))?;
                weight_sets.push((set, accessor::floats(&a, buffers, &[4], "weights")?.0));
            }
            Semantic::Positions => {}
            other => report.lose(format!(
                "{path}: attribute {other:?} (the scene has no place for it): skipped"
            )),
        }
    }
    uv_sets.sort_by_key(|(set, _)| *set);
    mesh.uv_layers = uv_sets.into_iter().map(|(_, v)| v).collect();

    // Skin weights: every JOINTS_n with its WEIGHTS_n, joints mapped to bones.
    joint_sets.sort_by_key(|(set, _)| *set);
    weight_sets.sort_by_key(|(set, _)| *set);
    if !joint_sets.is_empty() {
        let Some(skin) = skin else {
            return Err(Error::invalid(
                path.field("attributes"),
                "JOINTS_n only on a mesh whose node has a skin",
                "a mesh without a skinned node",
            ));
        };
        let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
        let sets = joint_sets.len();
        if weight_sets.len() != sets || joint_sets.iter().zip(&weight_sets).any(|(j, w)| j.0 != w.0) {
            return Err(Error::invalid(
                path.field("attributes"),
                "a WEIGHTS_n for every JOINTS_n",
                format!("{} joint set(s) and {} weight set(s)", sets, weight_sets.len()),
            ));
        }
        let mut bones = Vec::with_capacity(n * sets * 4);
        let mut weights = Vec::with_capacity(n * sets * 4);
        for v in 0..n {
            for ((_, j), (_, w)) in joint_sets.iter().zip(&weight_sets) {
                for s in v * 4..v * 4 + 4 {
                    let joint = j[s] as usize;
                    let node = joints.get(joint).ok_or_else(|| {
                        Error::invalid(
                            path.field("attributes"),
                            format!("joint indices below the skin's {} joints", joints.len()),
                            joint,
                        )
                    })?;
                    bones.push(bone_of_node.get(node).copied().unwrap_or(0) as u32);
                    weights.push(w[s]);
                }
            }
        }
        let mut influences = sets * 4;
        // Give back the source's influence count when animbin wrote the file.
        if let Some(k) = extras.and_then(|e| e.influences).filter(|&k| k > 0 && k < influences) {
            bones = bones.chunks_exact(influences).flat_map(|c| c[..k].to_vec()).collect();
            weights = weights.chunks_exact(influences).flat_map(|c| c[..k].to_vec()).collect();
            influences = k;
        }
        mesh.skin = Some(SkinWeights {
            influences,
            bones,
            weights,
        });
    }

    // Faces.
    let indices: Vec<u32> = match primitive.indices() {
        Some(a) => {
            let v = accessor::uints(&a, buffers, 1, "indices")?;
            if let Some(&bad) = v.iter().find(|&&i| i as usize >= n) {
                return Err(Error::invalid(
                    Path::item("accessors", a.index()),
                    format!("vertex indices below the vertex count {n}"),
                    bad,
                ));
            }
            v
        }
        None => (0..n as u32).collect(),
    };
    mesh.faces = match primitive.mode() {
        Mode::Triangles => indices.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
        Mode::TriangleStrip => indices
            .windows(3)
            .enumerate()
            .map(|(i, w)| {
                if i % 2 == 0 {
                    [w[0], w[1], w[2]]
                } else {
                    [w[1], w[0], w[2]]
                }
            })
            .collect(),
        Mode::TriangleFan => indices
            .get(1..)
            .unwrap_or(&[])
            .windows(2)
            .map(|w| [indices[0], w[0], w[1]])
            .collect(),
        Mode::Points => Vec::new(),
        other => {
            report.lose(format!(
                "{path}: a primitive of {other:?} (the scene holds triangles): skipped"
            ));
            return Ok(None);
        }
    };
    mesh.materials = match extras.and_then(|e| e.materials.clone()) {
        Some(list) => list,
        None => primitive.material().index().into_iter().map(Some).collect(),
    };
    Ok(Some(mesh))
}

/// The frame rate of animations without animbin's extras whose keys fall on the frame grid
/// of none of 30, 24, 25, 60, 50 and 120 fps, when the options give none.
pub const DEFAULT_FRAMERATE: f64 = 30.0;

/// Frame rates tried, in order, for files without animbin's extras: the first on whose
/// frame grid every key falls is used.
const COMMON_RATES: [f64; 6] = [30.0, 24.0, 25.0, 60.0, 50.0, 120.0];

/// The multiple of `step` that `frame` (computed from f32 seconds) is within float rounding of.
fn near_multiple(frame: f64, step: f64) -> Option<f64> {
    let r = (frame / step).round() * step;
    ((frame - r).abs() <= 1e-4 + 1e-7 * frame.abs()).then_some(r)
}

fn near_integer(frame: f64) -> Option<f64> {
    near_multiple(frame, 1.0)
}

/// Snaps a frame computed from f32 seconds back to the value it was written from when that
/// was a whole frame or a thousandth of one (f32 seconds carry about 7 digits).
fn snap(frame: f64) -> f64 {
    near_integer(frame)
        .or_else(|| near_multiple(frame, 0.001))
        .unwrap_or(frame)
}

struct Sampled {
    bone: usize,
    property: Property,
    times: Vec<f32>,
    values: Vec<f32>,
    dims: usize,
    interpolation: gltf::animation::Interpolation,
}

fn import_animation(
    animation: &gltf::Animation,
    buffers: &Buffers,
    skeleton: &Skeleton,
    bone_of_node: &HashMap<usize, usize>,
    wrapper: &[bool],
    framerate: Option<f64>,
    report: &mut ConversionReport,
) -> Result<(Animation, Option<Precision>)> {
    let path = Path::item("animations", animation.index());
    let label = || format!("animation {} ({:?})", animation.index(), animation.name().unwrap_or(""));
    let extras: Option<AnimationExtras> = extras::unwrap(animation.extras());
    let mut sampled = Vec::new();
    let mut seen = HashSet::new();
    for channel in animation.channels() {
        let cpath = path.field("channels").index(channel.index());
        let target = channel.target();
        let node = target.node().index();
        let property = target.property();
        if property == Property::MorphTargetWeights {
            report.lose(format!(
                "{}: morph target weights (the scene has no morph targets): skipped",
                label()
            ));
            continue;
        }
        if wrapper.get(node).copied().unwrap_or(false) {
            report.lose(format!("{}: keys on animbin's root node: skipped", label()));
            continue;
        }
        if !seen.insert((node, property as u8)) {
            return Err(Error::invalid(
                cpath,
                "one channel per node and property",
                format!("a second {property:?} channel on node {node}"),
            ));
        }
        let Some(&bone) = bone_of_node.get(&node) else {
            return Err(Error::invalid(cpath.field("target"), "a node that is a bone", node));
        };
        let sampler = channel.sampler();
        let spath = path.field("samplers").index(sampler.index());
        let (times, _) = accessor::floats(&sampler.input(), buffers, &[1], "key times")?;
        if let Some(i) = times.iter().position(|t| !t.is_finite()) {
            return Err(Error::invalid(
                spath.field("input"),
                "finite key times",
                format!("{} at key {i}", times[i]),
            ));
        }
        if let Some(i) = times.windows(2).position(|w| w[1] < w[0]) {
            return Err(Error::invalid(
                spath.field("input"),
                "key times that do not decrease",
                format!("{} after {} at key {}", times[i + 1], times[i], i + 1),
            ));
        }
        let dims = if property == Property::Rotation { 4 } else { 3 };
        let (values, _) = accessor::floats(&sampler.output(), buffers, &[dims], "key values")?;
        let interpolation = sampler.interpolation();
        let per_key = if interpolation == gltf::animation::Interpolation::CubicSpline {
            3
        } else {
            1
        };
        if values.len() != times.len() * dims * per_key {
            return Err(Error::invalid(
                spath.field("output"),
                format!("{} values, {per_key} per key time", times.len() * per_key),
                values.len() / dims,
            ));
        }
        sampled.push(Sampled {
            bone,
            property,
            times,
            values,
            dims,
            interpolation,
        });
    }

    let framerate = match (&extras, framerate) {
        (Some(e), _) if e.framerate.is_finite() && e.framerate > 0.0 => e.framerate,
        (_, Some(rate)) => rate,
        _ => COMMON_RATES
            .into_iter()
            .find(|&rate| {
                sampled
                    .iter()
                    .all(|s| s.times.iter().all(|&t| near_integer(f64::from(t) * rate).is_some()))
            })
            .unwrap_or(DEFAULT_FRAMERATE),
    };

    // Tracks in the order animbin wrote them, then in channel order.
    let mut anim = Animation {
        name: animation.name().unwrap_or("").to_string(),
        framerate,
        ..Animation::default()
    };
    let mut track_of: HashMap<String, usize> = HashMap::new();
    if let Some(e) = &extras {
        for name in &e.tracks {
            if !track_of.contains_key(name) {
                track_of.insert(name.clone(), anim.bones.len());
                anim.bones.push(BoneTrack {
                    bone: name.clone(),
                    ..BoneTrack::default()
                });
            }
        }
    }
    let mut interpolations = HashSet::new();
    let mut cubic = false;
    let mut last_frame = f64::NEG_INFINITY;
    for s in &sampled {
        let name = &skeleton.bones[s.bone].name;
        let t = match track_of.get(name) {
            Some(&t) => t,
            None => {
                track_of.insert(name.clone(), anim.bones.len());
                anim.bones.push(BoneTrack {
                    bone: name.clone(),
                    ..BoneTrack::default()
                });
                anim.bones.len() - 1
            }
        };
        interpolations.insert(match s.interpolation {
            gltf::animation::Interpolation::Step => Interpolation::Step,
            _ => Interpolation::Linear,
        });
        let cubic_spline = s.interpolation == gltf::animation::Interpolation::CubicSpline;
        cubic |= cubic_spline;
        let stride = if cubic_spline { 3 * s.dims } else { s.dims };
        // Cubic spline keys are (in-tangent, value, out-tangent): the value is the middle one.
        let skip = if cubic_spline { s.dims } else { 0 };
        let track = &mut anim.bones[t];
        for (k, &time) in s.times.iter().enumerate() {
            let frame = snap(f64::from(time) * framerate);
            last_frame = last_frame.max(frame);
            let v = &s.values[k * stride + skip..k * stride + skip + s.dims];
            let v: Vec<f64> = v.iter().map(|&c| f64::from(c)).collect();
            match s.property {
                Property::Translation => track.translation.push(Key::new(frame, Vec3::new(v[0], v[1], v[2]))),
                Property::Rotation => {
                    track
                        .rotation
                        .push(Key::new(frame, Quat::new(v[0], v[1], v[2], v[3]).normalized()));
                }
                Property::Scale => track.scale.push(Key::new(frame, Vec3::new(v[0], v[1], v[2]))),
                Property::MorphTargetWeights => {}
            }
        }
    }
    if cubic {
        report.lose(format!(
            "{}: cubic spline tangents (the scene interpolates linearly): dropped",
            label()
        ));
    }
    anim.interpolation = match &extras {
        Some(e) => e.interpolation,
        None => {
            if interpolations.len() > 1 {
                report.lose(format!(
                    "{}: both LINEAR and STEP samplers (the scene has one interpolation per animation): read as LINEAR",
                    label()
                ));
                Interpolation::Linear
            } else {
                interpolations.into_iter().next().unwrap_or_default()
            }
        }
    };
    let precision = extras.as_ref().and_then(|e| e.precision);
    match extras {
        Some(e) => {
            anim.frame_count = e.frame_count;
            anim.looping = e.looping;
            anim.kind = e.kind;
            for o in e.kind_overrides {
                if let Some(&t) = track_of.get(&o.bone) {
                    anim.bones[t].kind_override = Some(o.kind);
                }
            }
            for c in e.cosmetic {
                if let Some(&t) = track_of.get(&c) {
                    anim.bones[t].cosmetic = true;
                }
            }
            anim.notes = e.notes.into_iter().map(Note::from).collect();
            for p in &e.properties {
                match p.to_track() {
                    Some(track) => anim.properties.push(track),
                    None => report.lose(format!(
                        "{}: a property track whose data is not base64: skipped",
                        label()
                    )),
                }
            }
            // The channels hold the kinds applied against the rest pose: take it off again.
            let kinds = pose::effective_kinds(&anim, skeleton);
            for (track, kind) in anim.bones.iter_mut().zip(kinds) {
                if kind == AnimKind::Absolute {
                    continue;
                }
                let rest = skeleton
                    .find(&track.bone)
                    .map_or(Transform::IDENTITY, |b| skeleton.bones[b].local);
                for key in &mut track.translation {
                    key.value = pose::remove_translation(kind, &rest, key.value);
                }
                for key in &mut track.rotation {
                    key.value = pose::remove_rotation(kind, &rest, key.value);
                }
            }
        }
        None => {
            anim.frame_count = if last_frame.is_finite() { last_frame + 1.0 } else { 0.0 };
        }
    }
    Ok((anim, precision))
}

/// The rotation that turns a Y-up scene Z-up: +90 degrees about X (y becomes z).
const Y_UP_TO_Z_UP: Quat<f64> = Quat::new(
    std::f64::consts::FRAC_1_SQRT_2,
    0.0,
    0.0,
    std::f64::consts::FRAC_1_SQRT_2,
);

/// Rotates a Y-up scene to Z-up: root bones (their bind pose and keys), every global bind
/// pose, and mesh vertices and normals.
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
            for key in &mut track.translation {
                key.value = Y_UP_TO_Z_UP.rotate(key.value);
            }
            for key in &mut track.rotation {
                key.value = (Y_UP_TO_Z_UP * key.value).normalized();
            }
        }
    }
    let turn = |v: Vec3<f32>| {
        let r = Y_UP_TO_Z_UP.rotate(v.map(f64::from));
        Vec3::new(r.x as f32, r.y as f32, r.z as f32)
    };
    for mesh in &mut scene.meshes {
        mesh.positions.iter_mut().for_each(|p| *p = turn(*p));
        mesh.normals.iter_mut().for_each(|p| *p = turn(*p));
    }
}
