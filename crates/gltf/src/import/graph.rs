//! The parts of the node graph beside the nodes' transforms: cameras, lights
//! (`KHR_lights_punctual`), inverse bind matrices as the file holds them, and names made
//! unique so that animation tracks find their node.

use std::collections::{HashMap, HashSet};

use crate::error::{Error, Path, Result};
use animbin_core::math::Mat4;
use animbin_core::scene::{Bone, Camera, ConversionReport, Light, LightKind, Projection};

/// The index of the light a node places, if any.
pub(super) fn light_of_node(node: &gltf::Node) -> Option<usize> {
    node.light().map(|l| l.index())
}

/// Whether the node's transform is exactly the identity (a matrix or TRS that moves nothing).
pub(super) fn at_rest_exactly(node: &gltf::Node) -> bool {
    let (t, r, s) = node.transform().decomposed();
    t == [0.0; 3] && r == [0.0, 0.0, 0.0, 1.0] && s == [1.0; 3]
}

/// A glTF matrix (16 values, column after column) as the scene's rows.
pub(super) fn column_major(values: &[f32]) -> Mat4<f64> {
    let mut rows = [[0.0; 4]; 4];
    for (c, column) in values.chunks_exact(4).enumerate() {
        for (r, &v) in column.iter().enumerate() {
            rows[r][c] = f64::from(v);
        }
    }
    Mat4 { rows }
}

/// Renames the second and later nodes of a repeated name (`name.1`, `name.2`, ...): tracks
/// find their node by name, and a repeated one would animate the first node of it.
pub(super) fn unique_names(bones: &mut [Bone], report: &mut ConversionReport) {
    // Every name is taken, so that a suffix never makes a name another node already has.
    let mut taken: HashSet<String> = bones.iter().map(|b| b.name.clone()).collect();
    let mut first = HashSet::with_capacity(bones.len());
    let mut last_suffix: HashMap<String, usize> = HashMap::new();
    let mut renamed = 0;
    for bone in bones.iter_mut() {
        if first.insert(bone.name.clone()) {
            continue;
        }
        let count = last_suffix.entry(bone.name.clone()).or_insert(0);
        bone.name = loop {
            *count += 1;
            let candidate = format!("{}.{count}", bone.name);
            if taken.insert(candidate.clone()) {
                break candidate;
            }
        };
        renamed += 1;
    }
    if renamed > 0 {
        report.lose(format!(
            "{renamed} node name(s) given to an earlier node too: renamed with a numbered suffix (tracks find nodes by name)"
        ));
    }
}

/// The scene camera of a glTF camera, placed by node `node`.
pub(super) fn camera(camera: &gltf::Camera, node: usize) -> Camera {
    let projection = match camera.projection() {
        gltf::camera::Projection::Perspective(p) => Projection::Perspective {
            yfov: f64::from(p.yfov()),
            aspect_ratio: p.aspect_ratio().map(f64::from),
            znear: f64::from(p.znear()),
            zfar: p.zfar().map(f64::from),
        },
        gltf::camera::Projection::Orthographic(o) => Projection::Orthographic {
            xmag: f64::from(o.xmag()),
            ymag: f64::from(o.ymag()),
            znear: f64::from(o.znear()),
            zfar: f64::from(o.zfar()),
        },
    };
    Camera {
        name: camera.name().unwrap_or("").to_string(),
        node,
        projection,
    }
}

/// The scene light of the document's light `index` (`KHR_lights_punctual`), placed by node
/// `node`.
pub(super) fn light(document: &gltf::Document, index: usize, node: usize, at: usize) -> Result<Light> {
    let Some(light) = document.lights().and_then(|mut lights| lights.nth(index)) else {
        return Err(Error::invalid(
            Path::item("nodes", at)
                .field("extensions")
                .field("KHR_lights_punctual")
                .field("light"),
            "the index of a light in the root's KHR_lights_punctual.lights",
            index,
        ));
    };
    let kind = match light.kind() {
        gltf::khr_lights_punctual::Kind::Directional => LightKind::Directional,
        gltf::khr_lights_punctual::Kind::Point => LightKind::Point,
        gltf::khr_lights_punctual::Kind::Spot {
            inner_cone_angle,
            outer_cone_angle,
        } => LightKind::Spot {
            inner_cone_angle: f64::from(inner_cone_angle),
            outer_cone_angle: f64::from(outer_cone_angle),
        },
    };
    Ok(Light {
        name: light.name().unwrap_or("").to_string(),
        node,
        kind,
        color: light.color().map(f64::from),
        intensity: f64::from(light.intensity()),
        range: light.range().map(f64::from),
    })
}
