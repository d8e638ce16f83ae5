//! Meshes: one scene mesh per glTF primitive, with its vertex attributes, its skin weights
//! mapped from joints to bones, and its faces from any triangle mode.

use std::collections::HashMap;

use animbin_core::math::{Rgba, Vec2, Vec3};
use animbin_core::scene::{ConversionReport, Mesh, SkinWeights};
use gltf::mesh::{Mode, Semantic};

use crate::accessor::{self, Buffers};
use crate::error::{Error, Path, Result};
use crate::extras::MeshExtras;

#[allow(clippy::too_many_arguments)]
pub(super) fn import_primitive(
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
    let mut color_sets: Vec<(u32, Vec<Rgba<u8>>)> = Vec::new();
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
            Semantic::Colors(set) => {
                same_count(&a, &format!("COLOR_{set}"))?;
                let (v, dims) = accessor::floats(&a, buffers, &[3, 4], "colours")?;
                let to8 = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                color_sets.push((
                    set,
                    v.chunks_exact(dims)
                        .map(|c| Rgba::new(to8(c[0]), to8(c[1]), to8(c[2]), if dims == 4 { to8(c[3]) } else { 255 }))
                        .collect(),
                ));
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
    // COLOR_0, COLOR_1, ... while the sets run on without a gap (glTF numbers them from 0).
    color_sets.sort_by_key(|(set, _)| *set);
    let whole = color_sets
        .iter()
        .enumerate()
        .take_while(|(i, (set, _))| *set as usize == *i)
        .count();
    if whole < color_sets.len() {
        report.lose("vertex colour sets after a missing COLOR_n");
    }
    let mut layers = color_sets.into_iter().take(whole).map(|(_, v)| v);
    mesh.colors = layers.next().unwrap_or_default();
    mesh.extra_color_layers = layers.collect();

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
            skin: None,
            influences,
            bones,
            weights,
            blend: extras.and_then(|e| e.skin_blend).unwrap_or_default(),
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
