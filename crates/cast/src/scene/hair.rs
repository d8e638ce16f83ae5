//! Hair and Instance nodes both ways: Hair <-> [`scene::Hair`], Instance <-> [`scene::Instance`].
//!
//! - A Hair (`n`, `se` segments per strand, `pt` particles strand after strand, `m` the hash of
//!   a Material of the same Model) becomes a scene hair with the same segments and particles
//!   and its material's scene index. A hair whose particle count is not the sum of
//!   `se[i] + 1` is skipped and reported; a material hash that names no material of the
//!   model is reported and read as no material.
//! - An Instance under a Root (`n`, `rf` the hash of its File child, whose `p` is the
//!   referenced scene's path, and `p`, `r`, `s` its placement) becomes a scene instance; an
//!   `rf` that names no File child gives an empty path and is reported. A missing `p`, `r` or
//!   `s` reads as the identity's.
//!
//! Written back, a Hair has `n` (when named), `se` at the narrowest width, `pt` and `m`; an
//! Instance `n` (when named), `rf`, `p`, `r` and `s`, with one File child holding the path.

use std::collections::HashMap;

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::{self, ConversionReport};
use animbin_core::{Error, ErrorKind, Result};

use super::hashes::NodeHashes;
use super::properties::lose_undocumented;
use super::properties::{narrow3, narrow4};
use crate::FORMAT;
use crate::layout::NodeKind;
use crate::model::{Node, Property, Value};
use crate::nodes;

/// The Hair node as a scene hair, or `None` (reported) when its particles are not the count
/// its segments call for. `materials` maps a Material node's hash (the first of the model's
/// of that hash) to its scene index.
pub(super) fn import_hair(
    hair: nodes::Hair<'_>,
    materials: &HashMap<u64, usize>,
    report: &mut ConversionReport,
) -> Option<scene::Hair> {
    lose_undocumented(hair.node(), NodeKind::Hair, report);
    let name = hair.name().unwrap_or_default();
    let segments = hair.segments().map(|s| s.to_vec()).unwrap_or_default();
    let particles = hair.particles().unwrap_or_default();
    let expected: u64 = segments.iter().map(|&s| u64::from(s) + 1).sum();
    if particles.len() as u64 != expected {
        report.lose(format!(
            "hair whose particle count is not the sum of se + 1 (such as {name:?}: {} particles for {expected}; skipped)",
            particles.len()
        ));
        return None;
    }
    let material = hair.material().and_then(|hash| {
        let index = materials.get(&hash).copied();
        if index.is_none() {
            report.lose("hair material hashes that name no material of their model (read as none)");
        }
        index
    });
    Some(scene::Hair {
        name: name.to_string(),
        segments,
        particles: particles.to_vec(),
        material,
    })
}

/// The Instance node as a scene instance; `unknown_nodes` counts its children that are not
/// Files.
pub(super) fn import_instance(
    instance: nodes::Instance<'_>,
    report: &mut ConversionReport,
    unknown_nodes: &mut usize,
) -> scene::Instance {
    let node = instance.node();
    lose_undocumented(node, NodeKind::Instance, report);
    let file = instance
        .reference_file()
        .and_then(|hash| node.child_by_hash(hash))
        .and_then(|child| child.as_file());
    let path = match file {
        Some(file) => {
            lose_undocumented(file.node(), NodeKind::File, report);
            file.path().unwrap_or_default().to_string()
        }
        None => {
            report.lose("instances whose rf names no File child (read with an empty path)");
            String::new()
        }
    };
    for child in &node.children {
        if !child.is(NodeKind::File) {
            *unknown_nodes += 1;
        } else if file.is_none_or(|f| !std::ptr::eq(f.node(), child)) {
            report.lose("File children of instances that rf does not name");
        }
    }
    scene::Instance {
        name: instance.name().unwrap_or_default().to_string(),
        path,
        placement: Transform {
            translation: instance.position().map_or(Vec3::ZERO, |p| p.map(f64::from)),
            rotation: instance.rotation().map_or(Quat::IDENTITY, |r| r.map(f64::from)),
            scale: instance.scale().map_or(Vec3::ONE, |s| s.map(f64::from)),
        },
    }
}

fn refuse(message: String) -> Error {
    Error::new(
        FORMAT,
        0,
        ErrorKind::invalid("hair whose particles match its segments", message),
    )
}

/// Hair `i` as a Hair node: `n` when named, `se` at the narrowest width, `pt`, and `m` the
/// hash of its material (`materials` holds the Material nodes' hashes in scene order).
/// Refuses a hair whose particle count is not the sum of `segments[i] + 1`, or whose material
/// is past the scene's.
pub(super) fn hair_node(i: usize, hair: &scene::Hair, materials: &[u64], hashes: &mut NodeHashes) -> Result<Node> {
    let expected = hair.particle_count();
    if hair.particles.len() as u64 != expected {
        return Err(refuse(format!(
            "hair {i} has {} particles for {} strands that call for {expected}",
            hair.particles.len(),
            hair.segments.len()
        )));
    }
    let mut node = hashes.node(NodeKind::Hair);
    if !hair.name.is_empty() {
        node.push(Property::string("n", hair.name.clone()));
    }
    node.push(Property::new("se", Value::narrowest(&hair.segments)));
    node.push(Property::new("pt", Value::Vec3(hair.particles.clone())));
    if let Some(m) = hair.material {
        let hash = materials
            .get(m)
            .ok_or_else(|| refuse(format!("hair {i}: material {m} of {}", materials.len())))?;
        node.push(Property::hash("m", *hash));
    }
    Ok(node)
}

/// An instance as an Instance node: `n` when named, `rf` naming its one File child (`p` the
/// path), then `p`, `r` and `s`. Sets `lost` when the placement has digits beyond `f32`.
pub(super) fn instance_node(instance: &scene::Instance, hashes: &mut NodeHashes, lost: &mut bool) -> Node {
    let mut node = hashes.node(NodeKind::Instance);
    let mut file = hashes.node(NodeKind::File);
    file.push(Property::string("p", instance.path.clone()));
    if !instance.name.is_empty() {
        node.push(Property::string("n", instance.name.clone()));
    }
    node.push(Property::hash("rf", file.hash));
    let p = instance.placement;
    node.push(Property::new("p", Value::Vec3(vec![narrow3(p.translation, lost)])));
    node.push(Property::new("r", Value::Vec4(vec![narrow4(p.rotation, lost)])));
    node.push(Property::new("s", Value::Vec3(vec![narrow3(p.scale, lost)])));
    node.children.push(file);
    node
}
