//! Hair and instances: each scene hair as a mesh of one line primitive, each instance of
//! another scene file as a node without a mesh.

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::{ConversionReport, Hair, Instance, Scene};

use super::builder::{Builder, Floats, node_trs};
use crate::error::{Error, Result};
use crate::extras::{self, HairExtras, InstanceExtras, MeshExtras};
use crate::json::{self, component, target};

/// `LINES`: each pair of indices is a line segment.
const LINES: u32 = 1;
/// `POINTS`.
const POINTS: u32 = 0;

/// The mesh of hair `index`: one primitive whose `POSITION` is the particles and whose
/// indices join consecutive particles of each strand as `LINES` (points when no strand has a
/// segment), with the hair's material (and `TEXCOORD_0` of zeros when that material is
/// textured, as glTF asks), and the segments in `extras.animbin.hair`. `None`
/// (reported) for a hair without particles; a particle count that is not the sum of
/// `segments[i] + 1` is refused.
pub(super) fn hair_mesh(
    b: &mut Builder,
    scene: &Scene,
    index: usize,
    hair: &Hair,
    report: &mut ConversionReport,
) -> Result<Option<json::Mesh>> {
    let label = || format!("hair {index} ({:?})", hair.name);
    let n = hair.particles.len();
    if n as u64 != hair.particle_count() {
        return Err(Error::Unencodable(format!(
            "{}: {n} particles for {} strands that call for {}",
            label(),
            hair.segments.len(),
            hair.particle_count()
        )));
    }
    if n == 0 {
        report.lose(format!(
            "{}: no particles (glTF accessors need at least one): not exported",
            label()
        ));
        return Ok(None);
    }
    let positions: Vec<f32> = hair.particles.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    let position = b.floats(
        Floats::Owned(positions),
        "VEC3",
        3,
        Some(target::ARRAY_BUFFER),
        true,
        &|| format!("{} particles", label()),
    )?;
    // The count is checked above, so every index is below n (a u32: the particles fit in
    // memory, and a u32 index is refused past u32::MAX - 1 below).
    let lines: u64 = hair.segments.iter().map(|&s| u64::from(s)).sum();
    let mut indices = Vec::with_capacity(usize::try_from(lines * 2).unwrap_or(0));
    let mut start = 0u64;
    for &segments in &hair.segments {
        for j in 0..u64::from(segments) {
            for at in [start + j, start + j + 1] {
                // 0xFFFFFFFF is the primitive restart value, which glTF forbids as an index.
                let at = u32::try_from(at).ok().filter(|&i| i != u32::MAX).ok_or_else(|| {
                    Error::Unencodable(format!("{}: particle {at} is past what a u32 index holds", label()))
                })?;
                indices.push(at);
            }
        }
        start += u64::from(segments) + 1;
    }
    let (indices, mode) = if indices.is_empty() {
        (None, POINTS)
    } else {
        let width = if n <= 0xFFFF { component::U16 } else { component::U32 };
        let a = b.uints(&indices, width, "SCALAR", 1, Some(target::ELEMENT_ARRAY_BUFFER), false);
        (Some(a), LINES)
    };
    let material = hair.material.filter(|&m| m < scene.materials.len());
    if hair.material.is_some() && material.is_none() {
        report.lose(format!(
            "{}: a material index past the material list: left out",
            label()
        ));
    }
    let mut attributes: std::collections::BTreeMap<String, usize> = [("POSITION".to_string(), position)].into();
    // A textured material needs texture coordinates on every primitive it is bound to; hair
    // has none, so each particle takes (0, 0), which the reader ignores.
    let textured = material
        .and_then(|m| b.root.materials.get(m))
        .is_some_and(|m| m.pbr_metallic_roughness.base_color_texture.is_some() || m.normal_texture.is_some());
    if textured {
        let a = b.floats(
            Floats::Owned(vec![0.0; n * 2]),
            "VEC2",
            2,
            Some(target::ARRAY_BUFFER),
            false,
            &|| format!("{} texture coordinates", label()),
        )?;
        attributes.insert("TEXCOORD_0".to_string(), a);
    }
    let extras = MeshExtras {
        hair: Some(HairExtras {
            segments: hair.segments.clone(),
        }),
        ..MeshExtras::default()
    };
    Ok(Some(json::Mesh {
        weights: None,
        name: Some(hair.name.clone()),
        primitives: vec![json::Primitive {
            attributes,
            indices,
            material,
            mode: Some(mode),
            targets: Vec::new(),
        }],
        extras: extras::wrap(&extras),
    }))
}

/// The node of an instance: its name, its placement as the node's TRS, and its path in
/// `extras.animbin.instance`. Sets `lost` when the TRS (unit `f32` rotation, `f32`
/// translation and scale) does not hold the placement exactly.
pub(super) fn instance_node(index: usize, instance: &Instance, lost: &mut bool) -> Result<json::Node> {
    let mut node = json::Node {
        name: Some(instance.name.clone()),
        extras: extras::wrap(&InstanceExtras {
            instance: instance.path.clone(),
        }),
        ..json::Node::default()
    };
    node_trs(&mut node, &instance.placement, &|| {
        format!("instance {index} ({:?}) placement", instance.name)
    })?;
    // What a reader gets: the f32 of each written number, widened.
    let back = |x: f64| f64::from(x as f32);
    let v3 = |v: [f64; 3]| Vec3::new(back(v[0]), back(v[1]), back(v[2]));
    let written = Transform {
        translation: node.translation.map_or(Vec3::ZERO, v3),
        rotation: node.rotation.map_or(Quat::IDENTITY, |r| {
            Quat::new(back(r[0]), back(r[1]), back(r[2]), back(r[3]))
        }),
        scale: node.scale.map_or(Vec3::ONE, v3),
    };
    *lost |= written != instance.placement;
    Ok(node)
}
