//! The parts of the node graph beside the nodes: the scene's own skins with their matrices
//! as they are, cameras, lights (`KHR_lights_punctual`), and what a node carries when it
//! already carries something of the kind.

use std::collections::HashMap;

use animbin_core::scene::{LightKind, Projection, Scene};
use serde_json::json;

use super::builder::{Builder, Floats};
use crate::error::{Error, Result};
use crate::extras::{self, SkinExtras};
use crate::json::{self, short};

/// The glTF extension that places lights.
const LIGHTS: &str = "KHR_lights_punctual";

/// An `f64` as the JSON number of its nearest `f32`, as every glTF number is read.
fn number(x: f64) -> f64 {
    short(x as f32)
}

/// The scene's own skins, in order (glTF skin `i` is scene skin `i`), their matrices as the
/// scene holds them and marked as the scene's; and for each, the joint of each node.
pub(super) fn scene_skins(b: &mut Builder, scene: &Scene) -> Result<Vec<HashMap<usize, u32>>> {
    let nodes = scene.skeleton.bones.len();
    let mut joint_maps = Vec::with_capacity(scene.skins.len());
    for (index, skin) in scene.skins.iter().enumerate() {
        let what = || format!("skin {index} ({:?})", skin.name);
        if skin.joints.is_empty() {
            return Err(Error::Unencodable(format!(
                "{}: no joints (glTF skins have at least one)",
                what()
            )));
        }
        if let Some(&j) = skin.joints.iter().find(|&&j| j >= nodes) {
            return Err(Error::Unencodable(format!(
                "{}: joint {j}, but there are {nodes} nodes",
                what()
            )));
        }
        let mut map = HashMap::with_capacity(skin.joints.len());
        for (i, &j) in skin.joints.iter().enumerate() {
            if map.insert(j, i as u32).is_some() {
                return Err(Error::Unencodable(format!(
                    "{}: node {j} listed twice as a joint",
                    what()
                )));
            }
        }
        let inverse_bind_matrices = if skin.inverse_bind_matrices.is_empty() {
            None
        } else {
            if skin.inverse_bind_matrices.len() != skin.joints.len() {
                return Err(Error::Unencodable(format!(
                    "{}: {} inverse bind matrices for {} joints",
                    what(),
                    skin.inverse_bind_matrices.len(),
                    skin.joints.len()
                )));
            }
            let mut values = Vec::with_capacity(skin.joints.len() * 16);
            for m in &skin.inverse_bind_matrices {
                // glTF matrices are column-major.
                for c in 0..4 {
                    for r in 0..4 {
                        values.push(m.rows[r][c] as f32);
                    }
                }
            }
            Some(b.floats(Floats::Owned(values), "MAT4", 16, None, false, &|| {
                format!("{} inverse bind matrices", what())
            })?)
        };
        b.root.skins.push(json::Skin {
            name: (!skin.name.is_empty()).then(|| skin.name.clone()),
            inverse_bind_matrices,
            skeleton: skin.skeleton.filter(|&s| s < nodes),
            joints: skin.joints.clone(),
            extras: extras::wrap(&SkinExtras { kept: true }),
        });
        joint_maps.push(map);
    }
    Ok(joint_maps)
}

/// Gives `node` what `set` puts on it, or a new child of it when it already holds one (a
/// glTF node carries one mesh, one camera and one light); returns the node that took it.
pub(super) fn on_node(
    b: &mut Builder,
    node: usize,
    taken: impl Fn(&json::Node) -> bool,
    set: impl FnOnce(&mut json::Node),
) -> usize {
    if !taken(&b.root.nodes[node]) {
        set(&mut b.root.nodes[node]);
        return node;
    }
    let mut child = json::Node {
        name: b.root.nodes[node].name.clone(),
        ..json::Node::default()
    };
    set(&mut child);
    let child = b.node(child);
    b.root.nodes[node].children.push(child);
    child
}

/// The scene's cameras, each on its node.
pub(super) fn cameras(b: &mut Builder, scene: &Scene) -> Result<()> {
    let nodes = scene.skeleton.bones.len();
    for (index, camera) in scene.cameras.iter().enumerate() {
        if camera.node >= nodes {
            return Err(Error::Unencodable(format!(
                "camera {index} ({:?}) on node {}, but there are {nodes} nodes",
                camera.name, camera.node
            )));
        }
        let (kind, perspective, orthographic) = match camera.projection {
            Projection::Perspective {
                yfov,
                aspect_ratio,
                znear,
                zfar,
            } => {
                let mut p = json!({ "yfov": number(yfov), "znear": number(znear) });
                if let Some(a) = aspect_ratio {
                    p["aspectRatio"] = number(a).into();
                }
                if let Some(z) = zfar {
                    p["zfar"] = number(z).into();
                }
                ("perspective", Some(p), None)
            }
            Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            } => {
                let o = json!({
                    "xmag": number(xmag),
                    "ymag": number(ymag),
                    "znear": number(znear),
                    "zfar": number(zfar),
                });
                ("orthographic", None, Some(o))
            }
        };
        b.root.cameras.push(json::Camera {
            name: (!camera.name.is_empty()).then(|| camera.name.clone()),
            kind,
            perspective,
            orthographic,
        });
        let c = b.root.cameras.len() - 1;
        on_node(b, camera.node, |n| n.camera.is_some(), |n| n.camera = Some(c));
    }
    Ok(())
}

/// The scene's lights: `KHR_lights_punctual`'s list on the root, and each on its node.
pub(super) fn lights(b: &mut Builder, scene: &Scene) -> Result<()> {
    if scene.lights.is_empty() {
        return Ok(());
    }
    let nodes = scene.skeleton.bones.len();
    let mut list = Vec::with_capacity(scene.lights.len());
    for (index, light) in scene.lights.iter().enumerate() {
        if light.node >= nodes {
            return Err(Error::Unencodable(format!(
                "light {index} ({:?}) on node {}, but there are {nodes} nodes",
                light.name, light.node
            )));
        }
        let kind = match light.kind {
            LightKind::Directional => "directional",
            LightKind::Point => "point",
            LightKind::Spot { .. } => "spot",
        };
        let mut value = json!({
            "type": kind,
            "color": light.color.map(number),
            "intensity": number(light.intensity),
        });
        if !light.name.is_empty() {
            value["name"] = light.name.clone().into();
        }
        if let Some(range) = light.range {
            value["range"] = number(range).into();
        }
        if let LightKind::Spot {
            inner_cone_angle,
            outer_cone_angle,
        } = light.kind
        {
            value["spot"] = json!({
                "innerConeAngle": number(inner_cone_angle),
                "outerConeAngle": number(outer_cone_angle),
            });
        }
        list.push(value);
        on_node(
            b,
            light.node,
            |n| n.extensions.is_some(),
            |n| n.extensions = Some(json!({ LIGHTS: { "light": index } })),
        );
    }
    b.root.use_extension(LIGHTS, false);
    b.root.extensions.insert(LIGHTS.into(), json!({ "lights": list }));
    Ok(())
}
