//! SEModel (either layout) to Cast and back (the table is in the module docs of `se_cast`).

use animbin_cast::{CastFile, Node, NodeKind, Property, Value};
use animbin_core::half::f16;
use animbin_core::math::Vec4;
use animbin_semodel::{
    BlendShapes, Block, Bone, BoneFlags, DataFlags, Influence, Material, MaterialMaps, MeshFlags, Pose, Quat, Rgba8,
    SeModel, Trailer, Vec2, Vec3, deployed, draft,
};

use super::{Hashes, array_of, byte, bytes, indices_of, integers, only_child, push_unless_zero, same_file};

/// The material slots an SEModel material fills, in the order the maps are stored.
const SLOTS: [&str; 3] = ["diffuse", "normal", "specular"];

/// Everything an SEModel holds, as a Cast file: one Root holding one Model (see the module
/// docs for where each field goes). [`cast_to_semodel`] gives the SEModel back.
pub fn semodel_to_cast(model: &SeModel) -> CastFile {
    let mut hashes = Hashes::new();
    let mut root = hashes.node(NodeKind::Root);
    let mut node = match model {
        SeModel::Deployed(m) => deployed_to_cast(m, &mut hashes),
        SeModel::Draft(m) => draft_to_cast(m, &mut hashes),
    };
    let positions: Vec<&[Vec3<f32>]> = match model {
        SeModel::Deployed(m) => m.meshes.items().iter().map(|mesh| &mesh.positions[..]).collect(),
        SeModel::Draft(m) => m
            .meshes
            .items()
            .iter()
            .map(|mesh| &mesh.vertices.positions[..])
            .collect(),
    };
    blend_shape_nodes(&mut node, model.trailer(), &positions, &mut hashes);
    root.children.push(node);
    CastFile {
        flags: 0,
        roots: vec![root],
    }
}

/// The SEModel that [`semodel_to_cast`] made `file` from, when it made exactly this file
/// (the same bytes); `None` for any other Cast file, which holds something an SEModel cannot
/// (convert such a file through the scene model, which reports what does not carry over).
pub fn cast_to_semodel(file: &CastFile) -> Option<SeModel> {
    let model = semodel_from_cast_unchecked(file)?;
    same_file(&semodel_to_cast(&model), file).then_some(model)
}

/// Reads the SEModel the way [`semodel_to_cast`] wrote it, without checking that the file is
/// exactly what it writes.
pub(crate) fn semodel_from_cast_unchecked(file: &CastFile) -> Option<SeModel> {
    let node = only_child(file, NodeKind::Model)?;
    match node.str_value("se.layout") {
        None => deployed_from_cast(node).map(SeModel::Deployed),
        Some("draft") => draft_from_cast(node).map(SeModel::Draft),
        Some(_) => None,
    }
}

// ---------------------------------------------------------------------------------------
// What both layouts share: the header's flags and counts, the bones and the trailer.

/// `dataFlags` as the file stores it: the block bits from the blocks, the others kept.
fn stored_data_flags(other: DataFlags, blocks: &[(DataFlags, bool)]) -> DataFlags {
    blocks
        .iter()
        .filter(|(_, present)| *present)
        .fold(other, |flags, (bit, _)| flags | *bit)
}

/// The flags of a set of parts: each flag whose part is there.
fn flags_of<F: Copy + Default + std::ops::BitOr<Output = F>>(parts: &[(F, bool)]) -> F {
    parts
        .iter()
        .filter(|(_, there)| *there)
        .fold(F::default(), |flags, (bit, _)| flags | *bit)
}

/// The bone flags that the first bone's parts call for (none without bones).
fn bone_flags_of(bones: &[Bone]) -> BoneFlags {
    bones.first().map_or(BoneFlags::empty(), |b| {
        flags_of(&[
            (BoneFlags::GLOBAL_MATRIX, b.global.is_some()),
            (BoneFlags::LOCAL_MATRIX, b.local.is_some()),
            (BoneFlags::SCALES, b.scale.is_some()),
        ])
    })
}

/// The bone flags that the first Cast bone's properties call for.
fn bone_flags_of_nodes(bones: &[&Node]) -> BoneFlags {
    bones.first().map_or(BoneFlags::empty(), |b| {
        flags_of(&[
            (BoneFlags::GLOBAL_MATRIX, b.property("wp").is_some()),
            (BoneFlags::LOCAL_MATRIX, b.property("lp").is_some()),
            (BoneFlags::SCALES, b.property("s").is_some()),
        ])
    })
}

fn quat(q: Quat<f32>) -> Vec4<f32> {
    Vec4::new(q.x, q.y, q.z, q.w)
}

fn skeleton_node(bones: &[Bone], hashes: &mut Hashes) -> Node {
    let mut skeleton = hashes.node(NodeKind::Skeleton);
    for bone in bones {
        let mut b = hashes.node(NodeKind::Bone);
        b.push(Property::string("n", bone.name.clone()));
        b.push(integers("p", &[bone.parent as u32]));
        // SEModel bones inherit their parents' scale in full; Cast's default (ssc on) does not.
        b.push(Property::boolean("ssc", false));
        if let Some(local) = bone.local {
            b.push(Property::new("lp", Value::Vec3(vec![local.position])));
            b.push(Property::new("lr", Value::Vec4(vec![quat(local.rotation)])));
        }
        if let Some(global) = bone.global {
            b.push(Property::new("wp", Value::Vec3(vec![global.position])));
            b.push(Property::new("wr", Value::Vec4(vec![quat(global.rotation)])));
        }
        if let Some(scale) = bone.scale {
            b.push(Property::new("s", Value::Vec3(vec![scale])));
        }
        if bone.flags != 0 {
            b.push(byte("se.flags", bone.flags));
        }
        skeleton.children.push(b);
    }
    skeleton
}

fn bone_from_node(node: &Node, flags: BoneFlags) -> Option<Bone> {
    let pose = |flag: BoneFlags, p: &str, r: &str| -> Option<Option<Pose>> {
        if !flags.contains(flag) {
            return Some(None);
        }
        Some(Some(Pose {
            position: node.vec3_value(p)?,
            rotation: node.quat_value(r)?,
        }))
    };
    Some(Bone {
        name: node.str_value("n")?.to_string(),
        flags: node.single::<u8>("se.flags").unwrap_or(0),
        parent: node.index_value("p")? as i32,
        global: pose(BoneFlags::GLOBAL_MATRIX, "wp", "wr")?,
        local: pose(BoneFlags::LOCAL_MATRIX, "lp", "lr")?,
        scale: if flags.contains(BoneFlags::SCALES) {
            Some(node.vec3_value("s")?)
        } else {
            None
        },
    })
}

/// A block from its presence flag, its items and the count an absent block keeps.
fn block<T>(present: bool, items: Vec<T>, stray: u32) -> Option<Block<T>> {
    match present {
        true if stray == 0 => Some(Block::Present(items)),
        false if items.is_empty() => Some(Block::Absent { count: stray }),
        _ => None,
    }
}

/// The count a block keeps when its flag is clear (0 for a present block).
fn stray_count<T>(block: &Block<T>) -> u32 {
    match block {
        Block::Absent { count } => *count,
        Block::Present(_) => 0,
    }
}

/// The trailer's bytes as the SEModel writer writes them; `None` without one (or for an
/// SEBlend trailer the writer refuses, which the round trip check then reports).
fn trailer_bytes(trailer: &Trailer<BlendShapes>) -> Option<Vec<u8>> {
    match trailer {
        Trailer::None => None,
        Trailer::SeBlend(blend) => {
            animbin_core::io::write_to_vec(animbin_semodel::FORMAT, blend, animbin_core::Endian::Little).ok()
        }
        Trailer::Unknown(bytes) => Some(bytes.clone()),
    }
}

fn trailer_of(node: &Node, vertex_counts: &[u64]) -> Trailer<BlendShapes> {
    match node.array::<u8>("se.trailer") {
        None => Trailer::None,
        Some(bytes) => BlendShapes::parse_trailer(bytes, vertex_counts),
    }
}

/// The header fields both layouts store the same way: the three flag bytes (when not what
/// the Model holds), the counts of absent blocks and the trailer.
struct Header<'a> {
    data_flags: DataFlags,
    derived_data_flags: DataFlags,
    bone_flags: BoneFlags,
    bones: &'a [Bone],
    mesh_flags: MeshFlags,
    derived_mesh_flags: MeshFlags,
    stray: &'a [u32],
    trailer: &'a Trailer<BlendShapes>,
}

impl Header<'_> {
    fn push(&self, node: &mut Node) {
        if self.data_flags != self.derived_data_flags {
            node.push(byte("se.dataFlags", self.data_flags.bits()));
        }
        if self.bone_flags != bone_flags_of(self.bones) {
            node.push(byte("se.boneFlags", self.bone_flags.bits()));
        }
        if self.mesh_flags != self.derived_mesh_flags {
            node.push(byte("se.meshFlags", self.mesh_flags.bits()));
        }
    }

    fn push_counts_and_trailer(&self, node: &mut Node) {
        if self.stray.iter().any(|&c| c != 0) {
            node.push(integers("se.strayCounts", self.stray));
        }
        if let Some(trailer) = trailer_bytes(self.trailer) {
            node.push(bytes("se.trailer", &trailer));
        }
    }
}

/// The children of a Model by type, refusing any other.
#[derive(Default)]
struct Children<'a> {
    skeleton: Option<&'a Node>,
    materials: Vec<&'a Node>,
    meshes: Vec<&'a Node>,
}

impl<'a> Children<'a> {
    fn of(model: &'a Node) -> Option<Self> {
        let mut out = Self::default();
        for child in &model.children {
            match child.kind()? {
                NodeKind::Skeleton if out.skeleton.is_none() => out.skeleton = Some(child),
                NodeKind::Material => out.materials.push(child),
                NodeKind::Mesh => out.meshes.push(child),
                // What se.trailer holds, for other Cast readers (blend_shape_nodes).
                NodeKind::BlendShape => {}
                _ => return None,
            }
        }
        Some(out)
    }

    fn bone_nodes(&self) -> Vec<&'a Node> {
        self.skeleton.map_or_else(Vec::new, |s| s.children.iter().collect())
    }

    /// The header's `dataFlags` (`se.dataFlags`, else what the Model holds) split into the
    /// block bits (`blocks`) and the others.
    fn data_flags(&self, model: &Node, blocks: DataFlags) -> (DataFlags, DataFlags) {
        let flags = model.single::<u8>("se.dataFlags").map_or_else(
            || {
                flags_of(&[
                    (DataFlags::BONE, self.skeleton.is_some()),
                    (DataFlags::MESH, !self.meshes.is_empty()),
                    (DataFlags::MATERIALS, !self.materials.is_empty()),
                ])
            },
            DataFlags::from_bits_retain,
        );
        (flags.intersection(blocks), flags.difference(blocks))
    }

    fn bones(&self, model: &Node) -> Option<(BoneFlags, Vec<Bone>)> {
        let nodes = self.bone_nodes();
        let flags = model
            .single::<u8>("se.boneFlags")
            .map_or_else(|| bone_flags_of_nodes(&nodes), BoneFlags::from_bits_retain);
        let bones = nodes
            .iter()
            .map(|b| b.is(NodeKind::Bone).then(|| bone_from_node(b, flags)).flatten())
            .collect::<Option<_>>()?;
        Some((flags, bones))
    }
}

/// The mesh flags (`se.meshFlags`, else what the meshes hold).
fn mesh_flags_of(model: &Node, meshes: &[&Node]) -> MeshFlags {
    model.single::<u8>("se.meshFlags").map_or_else(
        || {
            let any = |name: &str| meshes.iter().any(|m| m.property(name).is_some());
            flags_of(&[
                (MeshFlags::UV_SET, any("ul")),
                (MeshFlags::NORMALS, any("vn")),
                (MeshFlags::COLOR, any("c0")),
                (MeshFlags::WEIGHTS, any("mi")),
            ])
        },
        MeshFlags::from_bits_retain,
    )
}

/// The mesh flags the meshes show in Cast: a flag is set and some mesh carries its arrays
/// (UV layers: some mesh has a layer).
fn emitted_mesh_flags(flags: MeshFlags, layer_counts: impl Iterator<Item = usize> + Clone) -> MeshFlags {
    let any_mesh = layer_counts.clone().next().is_some();
    let any_layers = layer_counts.into_iter().any(|l| l > 0);
    flags_of(&[
        (MeshFlags::UV_SET, flags.contains(MeshFlags::UV_SET) && any_layers),
        (MeshFlags::NORMALS, flags.contains(MeshFlags::NORMALS) && any_mesh),
        (MeshFlags::COLOR, flags.contains(MeshFlags::COLOR) && any_mesh),
        (MeshFlags::WEIGHTS, flags.contains(MeshFlags::WEIGHTS) && any_mesh),
    ])
}

/// Pushes UV layer after UV layer (`u0`, `u1`, ... and `ul`) from vertex-major `uvs`.
fn push_uv_layers(node: &mut Node, uvs: &[Vec2<f32>], layers: usize) {
    for l in 0..layers {
        let layer = uvs.iter().skip(l).step_by(layers).copied().collect();
        node.push(Property::new(format!("u{l}"), Value::Vec2(layer)));
    }
    node.push(Property::new("ul", Value::narrowest(&[layers as u32])));
}

/// The UV layers `u0`..`u{layers-1}` joined vertex-major; each must have `vertices` entries.
fn uv_layers_of(node: &Node, layers: usize, vertices: usize) -> Option<Vec<Vec2<f32>>> {
    let all: Vec<&[Vec2<f32>]> = (0..layers)
        .map(|l| node.vec2s(&format!("u{l}")).filter(|uv| uv.len() == vertices))
        .collect::<Option<_>>()?;
    Some(
        (0..vertices)
            .flat_map(|v| all.iter().map(move |layer| layer[v]))
            .collect(),
    )
}

fn push_colors(node: &mut Node, colors: &[Rgba8]) {
    let packed = colors
        .iter()
        .map(|c| u32::from_le_bytes([c.r, c.g, c.b, c.a]))
        .collect();
    node.push(Property::new("c0", Value::Integer(packed)));
    node.push(byte("cl", 1));
}

fn colors_of(node: &Node) -> Option<Vec<Rgba8>> {
    let packed = node.integers("c0")?;
    Some(
        packed
            .iter()
            .map(|c| {
                let [r, g, b, a] = c.to_le_bytes();
                Rgba8::new(r, g, b, a)
            })
            .collect(),
    )
}

fn faces_of(node: &Node) -> Option<Vec<[u32; 3]>> {
    let flat = indices_of(node, "f")?;
    (flat.len() % 3 == 0).then(|| flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect())
}

// ---------------------------------------------------------------------------------------
// The deployed layout.

fn deployed_to_cast(m: &deployed::Model, hashes: &mut Hashes) -> Node {
    let (bones, meshes, materials) = (m.bones.items(), m.meshes.items(), m.materials.items());
    let mut node = hashes.node(NodeKind::Model);
    let uv_layers = |mesh: &deployed::Mesh| {
        if m.mesh_flags.contains(MeshFlags::UV_SET) {
            mesh.layer_count()
        } else {
            0
        }
    };
    let stray = [stray_count(&m.bones), stray_count(&m.meshes), stray_count(&m.materials)];
    let header = Header {
        data_flags: stored_data_flags(
            m.other_data_flags,
            &[
                (DataFlags::BONE, m.bones.is_present()),
                (DataFlags::MESH, m.meshes.is_present()),
                (DataFlags::MATERIALS, m.materials.is_present()),
            ],
        ),
        derived_data_flags: flags_of(&[
            (DataFlags::BONE, !bones.is_empty()),
            (DataFlags::MESH, !meshes.is_empty()),
            (DataFlags::MATERIALS, !materials.is_empty()),
        ]),
        bone_flags: m.bone_flags,
        bones,
        mesh_flags: m.mesh_flags,
        derived_mesh_flags: emitted_mesh_flags(m.mesh_flags, meshes.iter().map(uv_layers)),
        stray: &stray,
        trailer: &m.trailer,
    };
    header.push(&mut node);
    push_unless_zero(&mut node, "se.reserved", &m.reserved);
    header.push_counts_and_trailer(&mut node);

    if !bones.is_empty() {
        node.children.push(skeleton_node(bones, hashes));
    }
    let mut material_hashes = Vec::with_capacity(materials.len());
    for material in materials {
        let mat = material_node(material, hashes);
        material_hashes.push(mat.hash);
        node.children.push(mat);
    }
    for mesh in meshes {
        let mut out = hashes.node(NodeKind::Mesh);
        let flags = m.mesh_flags;
        out.push(Property::new("vp", Value::Vec3(mesh.positions.clone())));
        if flags.contains(MeshFlags::NORMALS) {
            out.push(Property::new("vn", Value::Vec3(mesh.normals.clone())));
        }
        let layers = uv_layers(mesh);
        if layers > 0 {
            push_uv_layers(&mut out, &mesh.uvs, layers);
        }
        if flags.contains(MeshFlags::COLOR) {
            push_colors(&mut out, &mesh.colors);
        }
        if flags.contains(MeshFlags::WEIGHTS) {
            let bones: Vec<u32> = mesh.weights.iter().map(|w| w.bone).collect();
            out.push(Property::new("wb", Value::narrowest(&bones)));
            out.push(Property::new(
                "wv",
                Value::Float(mesh.weights.iter().map(|w| w.weight).collect()),
            ));
            out.push(Property::new("mi", Value::narrowest(&[u32::from(mesh.max_influence)])));
        }
        let flat: Vec<u32> = mesh.faces.iter().flatten().copied().collect();
        out.push(Property::new("f", Value::narrowest(&flat)));
        let material = mesh
            .material_indices
            .first()
            .and_then(|&i| usize::try_from(i).ok())
            .filter(|&i| i < materials.len());
        if let Some(i) = material {
            out.push(Property::hash("m", material_hashes[i]));
        }
        if mesh.flags != 0 {
            out.push(byte("se.flags", mesh.flags));
        }
        if mesh.material_indices != default_material_indices(layers, material) {
            let bits: Vec<u32> = mesh.material_indices.iter().map(|&i| i as u32).collect();
            out.push(integers("se.materialIndices", &bits));
        }
        if !flags.contains(MeshFlags::WEIGHTS) && mesh.max_influence != 0 {
            out.push(byte("se.maxInfluence", mesh.max_influence));
        }
        node.children.push(out);
    }
    node
}

/// The SEBlend shapes as BlendShape nodes after everything else in the Model (so that the
/// other nodes' hashes do not depend on them), for Cast readers other than
/// [`cast_to_semodel`], which reads the trailer from `se.trailer`: per mesh, one node per
/// shape that moves any of its vertices, with the final positions (base + offset, in `f32`).
/// Offsets naming a shape past the name list (which `validate` reports) are left out.
fn blend_shape_nodes(
    model: &mut Node,
    trailer: &Trailer<BlendShapes>,
    positions: &[&[Vec3<f32>]],
    hashes: &mut Hashes,
) {
    let Some(blend) = trailer.seblend() else {
        return;
    };
    let mesh_hashes: Vec<u64> = model
        .children
        .iter()
        .filter(|c| c.is(NodeKind::Mesh))
        .map(|c| c.hash)
        .collect();
    for ((mesh, &base), &hash) in blend.meshes.iter().zip(positions).zip(&mesh_hashes) {
        let mut shapes: Vec<(Vec<u32>, Vec<Vec3<f32>>)> = vec![(Vec::new(), Vec::new()); blend.names.len()];
        for (v, vertex) in mesh.vertices.iter().enumerate() {
            for d in &vertex.deltas {
                let (Some(shape), Some(p)) = (shapes.get_mut(d.shape as usize), base.get(v)) else {
                    continue;
                };
                shape.0.push(v as u32);
                shape
                    .1
                    .push(Vec3::new(p.x + d.delta.x, p.y + d.delta.y, p.z + d.delta.z));
            }
        }
        for (name, (indices, final_positions)) in blend.names.iter().zip(shapes) {
            if indices.is_empty() {
                continue;
            }
            let mut node = hashes.node(NodeKind::BlendShape);
            node.push(Property::string("n", name.clone()));
            node.push(Property::hash("b", hash));
            node.push(Property::new("vi", Value::narrowest(&indices)));
            node.push(Property::new("vp", Value::Vec3(final_positions)));
            model.children.push(node);
        }
    }
}

/// The material indices a mesh has unless `se.materialIndices` says otherwise: the
/// material `m` names for the first UV layer, -1 for the others.
fn default_material_indices(layers: usize, material: Option<usize>) -> Vec<i32> {
    (0..layers)
        .map(|l| match material {
            Some(m) if l == 0 => m as i32,
            _ => -1,
        })
        .collect()
}

fn material_node(material: &Material, hashes: &mut Hashes) -> Node {
    let mut node = hashes.node(NodeKind::Material);
    node.push(Property::string("n", material.name.clone()));
    node.push(Property::string("t", "pbr"));
    if let Some(maps) = &material.maps {
        let paths = [&maps.diffuse, &maps.normal, &maps.specular];
        for (slot, path) in SLOTS.into_iter().zip(paths) {
            if !path.is_empty() {
                let mut file = hashes.node(NodeKind::File);
                file.push(Property::string("p", path.clone()));
                node.push(Property::hash(slot, file.hash));
                node.children.push(file);
            }
        }
        if paths.iter().all(|p| p.is_empty()) {
            node.push(byte("se.simple", 1));
        }
    }
    node
}

fn material_from_node(node: &Node) -> Option<Material> {
    let path = |slot: &str| -> Option<Option<String>> {
        let Some(hash) = node.hash_value(slot) else {
            return Some(None);
        };
        let file = node.child_by_hash(hash).filter(|c| c.is(NodeKind::File))?;
        Some(Some(file.str_value("p")?.to_string()))
    };
    let [diffuse, normal, specular] = SLOTS.map(path);
    let (diffuse, normal, specular) = (diffuse?, normal?, specular?);
    let simple = node.single::<u8>("se.simple") == Some(1);
    let maps = (simple || diffuse.is_some() || normal.is_some() || specular.is_some()).then(|| MaterialMaps {
        diffuse: diffuse.unwrap_or_default(),
        normal: normal.unwrap_or_default(),
        specular: specular.unwrap_or_default(),
    });
    Some(Material {
        name: node.str_value("n")?.to_string(),
        maps,
    })
}

fn deployed_from_cast(model: &Node) -> Option<deployed::Model> {
    let children = Children::of(model)?;
    let (blocks, other_data_flags) = children.data_flags(model, DataFlags::DEPLOYED_BLOCKS);
    let (bone_flags, bones) = children.bones(model)?;
    let mesh_flags = mesh_flags_of(model, &children.meshes);
    let stray = match indices_of(model, "se.strayCounts").as_deref() {
        None => [0; 3],
        Some(&[b, m, t]) => [b, m, t],
        Some(_) => return None,
    };
    let material_hashes: Vec<u64> = children.materials.iter().map(|m| m.hash).collect();
    let materials = children
        .materials
        .iter()
        .map(|m| material_from_node(m))
        .collect::<Option<Vec<_>>>()?;
    let mut meshes = Vec::with_capacity(children.meshes.len());
    for node in &children.meshes {
        let positions = node.vec3s("vp")?.to_vec();
        let v = positions.len();
        let material = match node.hash_value("m") {
            None => None,
            Some(hash) => Some(material_hashes.iter().position(|&h| h == hash)?),
        };
        // layerCount is a u8: a larger `ul` is no SEModel's (and would size the default
        // material indices past what the file holds).
        let layers = match node.index_value("ul") {
            Some(l) if mesh_flags.contains(MeshFlags::UV_SET) => usize::from(u8::try_from(l).ok()?),
            Some(_) => return None,
            None => 0,
        };
        let material_indices = match indices_of(node, "se.materialIndices") {
            Some(bits) => bits.into_iter().map(|b| b as i32).collect(),
            None => default_material_indices(layers, material),
        };
        let uvs = if layers > 0 {
            if material_indices.len() != layers {
                return None;
            }
            uv_layers_of(node, layers, v)?
        } else {
            Vec::new()
        };
        let (weights, max_influence) = if mesh_flags.contains(MeshFlags::WEIGHTS) {
            let (bones, values) = (indices_of(node, "wb")?, node.floats("wv")?);
            if bones.len() != values.len() {
                return None;
            }
            let weights = bones
                .iter()
                .zip(values)
                .map(|(&bone, &weight)| Influence { bone, weight })
                .collect();
            (weights, u8::try_from(node.index_value("mi")?).ok()?)
        } else {
            (Vec::new(), node.single::<u8>("se.maxInfluence").unwrap_or(0))
        };
        meshes.push(deployed::Mesh {
            flags: node.single::<u8>("se.flags").unwrap_or(0),
            max_influence,
            positions,
            uvs,
            normals: match mesh_flags.contains(MeshFlags::NORMALS) {
                true => node.vec3s("vn")?.to_vec(),
                false => Vec::new(),
            },
            colors: match mesh_flags.contains(MeshFlags::COLOR) {
                true => colors_of(node)?,
                false => Vec::new(),
            },
            weights,
            faces: faces_of(node)?,
            material_indices,
        });
    }
    let vertex_counts: Vec<u64> = meshes.iter().map(|m| m.positions.len() as u64).collect();
    Some(deployed::Model {
        other_data_flags,
        bone_flags,
        mesh_flags,
        reserved: array_of(model, "se.reserved")?,
        bones: block(blocks.contains(DataFlags::BONE), bones, stray[0])?,
        meshes: block(blocks.contains(DataFlags::MESH), meshes, stray[1])?,
        materials: block(blocks.contains(DataFlags::MATERIALS), materials, stray[2])?,
        trailer: trailer_of(model, &vertex_counts),
    })
}

// ---------------------------------------------------------------------------------------
// The draft layout.

/// Half floats as `f32`, and their bits when the `f32` does not give them back exactly.
fn widen_halves(values: &[f16]) -> (Vec<f32>, Option<Vec<u16>>) {
    let wide: Vec<f32> = values.iter().map(|h| h.to_f32()).collect();
    let exact = values
        .iter()
        .zip(&wide)
        .all(|(h, &w)| f16::from_f32(w).to_bits() == h.to_bits());
    let bits = (!exact).then(|| values.iter().map(|h| h.to_bits()).collect());
    (wide, bits)
}

/// Half floats from their bits in `bits_name`, else from the `f32` values.
fn halves_of(node: &Node, bits_name: &str, wide: &[f32]) -> Option<Vec<f16>> {
    match node.value(bits_name) {
        None => Some(wide.iter().map(|&w| f16::from_f32(w)).collect()),
        Some(Value::Short(bits)) if bits.len() == wide.len() => Some(bits.iter().map(|&b| f16::from_bits(b)).collect()),
        Some(_) => None,
    }
}

fn draft_to_cast(m: &draft::Model, hashes: &mut Hashes) -> Node {
    let (bones, meshes) = (m.bones.items(), m.meshes.items());
    let mut node = hashes.node(NodeKind::Model);
    node.push(Property::string("se.layout", "draft"));
    if m.model_type != 0 {
        node.push(byte("se.modelType", m.model_type));
    }
    if m.model_flags != 0 {
        node.push(Property::new("se.modelFlags", Value::Short(vec![m.model_flags])));
    }
    let uv_layers = |mesh: &draft::Mesh| {
        if m.mesh_flags.contains(MeshFlags::UV_SET) {
            usize::from(mesh.uv_set_count)
        } else {
            0
        }
    };
    let stray = [stray_count(&m.bones), stray_count(&m.meshes)];
    let header = Header {
        data_flags: stored_data_flags(
            m.other_data_flags,
            &[
                (DataFlags::BONE, m.bones.is_present()),
                (DataFlags::MESH, m.meshes.is_present()),
            ],
        ),
        derived_data_flags: flags_of(&[
            (DataFlags::BONE, !bones.is_empty()),
            (DataFlags::MESH, !meshes.is_empty()),
        ]),
        bone_flags: m.bone_flags,
        bones,
        mesh_flags: m.mesh_flags,
        derived_mesh_flags: emitted_mesh_flags(m.mesh_flags, meshes.iter().map(uv_layers)),
        stray: &stray,
        trailer: &m.trailer,
    };
    header.push(&mut node);
    push_unless_zero(&mut node, "se.reserved1", &m.reserved1);
    if m.collision_count != 0 {
        node.push(integers("se.collisionCount", &[m.collision_count]));
    }
    if m.material_count != 0 {
        node.push(integers("se.materialCount", &[m.material_count]));
    }
    let weighted = m.mesh_flags.contains(MeshFlags::WEIGHTS);
    let shown_influence = if weighted && !meshes.is_empty() {
        m.max_skin_influence
    } else {
        0
    };
    if m.max_skin_influence != shown_influence {
        node.push(byte("se.maxSkinInfluence", m.max_skin_influence));
    }
    push_unless_zero(&mut node, "se.reserved2", &m.reserved2);
    header.push_counts_and_trailer(&mut node);

    if !bones.is_empty() {
        node.children.push(skeleton_node(bones, hashes));
    }
    for mesh in meshes {
        let flags = m.mesh_flags;
        let v = &mesh.vertices;
        let mut out = hashes.node(NodeKind::Mesh);
        out.push(Property::new("vp", Value::Vec3(v.positions.clone())));
        let mut normal_bits = None;
        if flags.contains(MeshFlags::NORMALS) {
            let components: Vec<f16> = v.normals.iter().flat_map(|n| [n.x, n.y, n.z]).collect();
            let (wide, bits) = widen_halves(&components);
            let normals = wide.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect();
            out.push(Property::new("vn", Value::Vec3(normals)));
            normal_bits = bits;
        }
        let layers = uv_layers(mesh);
        if layers > 0 {
            push_uv_layers(&mut out, &v.uvs, layers);
        }
        if flags.contains(MeshFlags::COLOR) {
            push_colors(&mut out, &v.colors);
        }
        let mut weight_bits = None;
        if flags.contains(MeshFlags::WEIGHTS) {
            let (wide, bits) = widen_halves(&v.bone_weights);
            out.push(Property::new("wb", Value::narrowest(&v.bone_indices)));
            out.push(Property::new("wv", Value::Float(wide)));
            out.push(Property::new(
                "mi",
                Value::narrowest(&[u32::from(m.max_skin_influence)]),
            ));
            weight_bits = bits;
        }
        let flat: Vec<u32> = mesh.faces.iter().flatten().copied().collect();
        out.push(Property::new("f", Value::narrowest(&flat)));
        if mesh.flags != 0 {
            out.push(byte("se.flags", mesh.flags));
        }
        if usize::from(mesh.uv_set_count) != layers {
            out.push(byte("se.uvSetCount", mesh.uv_set_count));
        }
        if v.uv_materials.iter().any(|&i| i != 0) {
            out.push(Property::new("se.uvMaterials", Value::narrowest(&v.uv_materials)));
        }
        if let Some(bits) = normal_bits {
            out.push(Property::new("se.normals", Value::Short(bits)));
        }
        if let Some(bits) = weight_bits {
            out.push(Property::new("se.weights", Value::Short(bits)));
        }
        node.children.push(out);
    }
    node
}

fn draft_from_cast(model: &Node) -> Option<draft::Model> {
    let children = Children::of(model)?;
    if !children.materials.is_empty() {
        return None;
    }
    let (blocks, other_data_flags) = children.data_flags(model, DataFlags::DRAFT_BLOCKS);
    let (bone_flags, bones) = children.bones(model)?;
    let mesh_flags = mesh_flags_of(model, &children.meshes);
    let stray = match indices_of(model, "se.strayCounts").as_deref() {
        None => [0; 2],
        Some(&[b, m]) => [b, m],
        Some(_) => return None,
    };
    let max_skin_influence = match model.single::<u8>("se.maxSkinInfluence") {
        Some(n) => n,
        None => match children.meshes.first() {
            Some(mesh) if mesh_flags.contains(MeshFlags::WEIGHTS) => u8::try_from(mesh.index_value("mi")?).ok()?,
            _ => 0,
        },
    };
    let mut meshes = Vec::with_capacity(children.meshes.len());
    for node in &children.meshes {
        let positions = node.vec3s("vp")?.to_vec();
        let n = positions.len();
        let layers = match node.index_value("ul") {
            Some(l) if mesh_flags.contains(MeshFlags::UV_SET) => usize::from(u8::try_from(l).ok()?),
            Some(_) => return None,
            None => 0,
        };
        // With the UV flag the count is the layers' (whose arrays bound what the default
        // material indices take); without it, the header's count stands alone.
        let uv_set_count = match node.single::<u8>("se.uvSetCount") {
            Some(count) if !mesh_flags.contains(MeshFlags::UV_SET) => count,
            Some(_) => return None,
            None => layers as u8,
        };
        let uv_slots = n * layers;
        let uvs = if layers > 0 {
            uv_layers_of(node, layers, n)?
        } else {
            Vec::new()
        };
        let uv_materials = match indices_of(node, "se.uvMaterials") {
            Some(m) => m,
            None => vec![0; uv_slots],
        };
        let normals = if mesh_flags.contains(MeshFlags::NORMALS) {
            let wide: Vec<f32> = node.vec3s("vn")?.iter().flat_map(|v| [v.x, v.y, v.z]).collect();
            let halves = halves_of(node, "se.normals", &wide)?;
            halves.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect()
        } else {
            Vec::new()
        };
        let (bone_indices, bone_weights) = if mesh_flags.contains(MeshFlags::WEIGHTS) {
            let wide = node.floats("wv")?;
            (indices_of(node, "wb")?, halves_of(node, "se.weights", wide)?)
        } else {
            (Vec::new(), Vec::new())
        };
        meshes.push(draft::Mesh {
            flags: node.single::<u8>("se.flags").unwrap_or(0),
            uv_set_count,
            vertices: draft::Vertices {
                positions,
                uvs,
                uv_materials,
                normals,
                colors: match mesh_flags.contains(MeshFlags::COLOR) {
                    true => colors_of(node)?,
                    false => Vec::new(),
                },
                bone_indices,
                bone_weights,
            },
            faces: faces_of(node)?,
        });
    }
    let vertex_counts: Vec<u64> = meshes.iter().map(|m| m.vertices.positions.len() as u64).collect();
    Some(draft::Model {
        model_type: model.single::<u8>("se.modelType").unwrap_or(0),
        model_flags: match model.value("se.modelFlags") {
            None => 0,
            Some(Value::Short(v)) if v.len() == 1 => v[0],
            Some(_) => return None,
        },
        other_data_flags,
        bone_flags,
        mesh_flags,
        reserved1: array_of(model, "se.reserved1")?,
        collision_count: model.index_value("se.collisionCount").unwrap_or(0),
        material_count: model.index_value("se.materialCount").unwrap_or(0),
        max_skin_influence,
        reserved2: array_of(model, "se.reserved2")?,
        bones: block(blocks.contains(DataFlags::BONE), bones, stray[0])?,
        meshes: block(blocks.contains(DataFlags::MESH), meshes, stray[1])?,
        trailer: trailer_of(model, &vertex_counts),
    })
}
