//! What a node of the scene graph carries besides its transform: the meshes it places, the
//! skins that bind meshes to nodes, cameras and lights, and the texture links of materials.
//!
//! The nodes themselves are [`Skeleton::bones`](super::Skeleton::bones): a bone is a node
//! whose [`NodeKind`] is [`NodeKind::Bone`], and a graph format (glTF) adds plain nodes
//! ([`NodeKind::Plain`]) beside them, an empty, an `Armature` object or the node of a camera.
//! Everything here names nodes by their index in that list.

use serde::{Deserialize, Serialize};

use crate::math::{Mat4, Transform, Vec3};

use super::Scene;

impl Scene {
    /// Each node's transform in the world at rest, as a matrix: its local transform under its
    /// parent's, and the roots under [`Scene::placement`]. What a glTF viewer draws a node's
    /// meshes, camera or light with: matrices multiply, so a node turned under a parent scaled
    /// unevenly is sheared, as glTF says (a [`Bone::global`](super::Bone::global), a TRS,
    /// cannot say so). A node that does not inherit scale
    /// ([`Bone::scale_compensate`](super::Bone::scale_compensate)) takes its parent's position
    /// and rotation only, as [`crate::math::compose`] has it.
    ///
    /// Parents past the list, the node itself or a cycle are roots, as in
    /// [`Skeleton::update_globals`](super::Skeleton::update_globals); linear in the nodes.
    pub fn node_world_matrices(&self) -> Vec<Mat4<f64>> {
        let bones = &self.skeleton.bones;
        let placement = self.placement.to_matrix();
        let mut world = vec![placement; bones.len()];
        for i in self.skeleton.resolve_order() {
            let bone = &bones[i];
            let local = bone.local.to_matrix();
            world[i] = match bone.parent.filter(|&p| p < bones.len() && p != i) {
                Some(p) if bone.scale_compensate => {
                    let parent = &world[p];
                    let rotation = Transform::from_matrix(parent).map_or(Transform::IDENTITY.rotation, |t| t.rotation);
                    let at = parent.multiply(
                        &Transform {
                            translation: bone.local.translation,
                            ..Transform::IDENTITY
                        }
                        .to_matrix(),
                    );
                    Transform {
                        translation: Vec3::new(at.rows[0][3], at.rows[1][3], at.rows[2][3]),
                        rotation,
                        scale: Vec3::ONE,
                    }
                    .to_matrix()
                    .multiply(
                        &Transform {
                            translation: Vec3::new(0.0, 0.0, 0.0),
                            ..bone.local
                        }
                        .to_matrix(),
                    )
                }
                Some(p) => world[p].multiply(&local),
                None => placement.multiply(&local),
            };
        }
        world
    }
}

/// What a node of [`Skeleton::bones`](super::Skeleton::bones) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A bone of the skeleton: what every game format's nodes are, and a joint of a glTF
    /// skin.
    #[default]
    Bone,
    /// A node that is not a bone: an empty, the object above an armature, or the node that
    /// places a mesh, a camera or a light (glTF nodes that are no skin's joint).
    Plain,
}

impl NodeKind {
    /// Whether this is [`NodeKind::Bone`], the default.
    pub fn is_bone(&self) -> bool {
        *self == Self::Bone
    }
}

/// Meshes drawn where a node is (a glTF node's `mesh`).
///
/// A mesh that no instance places is in model space, as every game format keeps its meshes;
/// a mesh placed by an instance is in its node's space, unless it is skinned (its vertices are
/// then in the space its skin binds them in, and the node only says where it is listed).
/// Two instances of the same meshes draw them twice.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MeshInstance {
    /// The node, an index into [`Skeleton::bones`](super::Skeleton::bones).
    pub node: usize,
    /// The meshes, indices into [`Scene::meshes`](super::Scene::meshes): the primitives of
    /// one glTF mesh.
    pub meshes: Vec<usize>,
    /// The name of the group of meshes (a glTF mesh's name); empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// A skin: the nodes a mesh's weights name, and the exact inverse bind matrix of each (a glTF
/// skin).
///
/// A mesh's [`SkinWeights`](super::SkinWeights) name nodes directly; a skin says how they
/// were bound. Without one, each bone's [`Bone::global`](super::Bone::global) is its bind
/// pose, which is what the game formats store.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Skin {
    /// The skin's name; empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The joints, indices into [`Skeleton::bones`](super::Skeleton::bones).
    pub joints: Vec<usize>,
    /// One matrix per joint, as the file holds it (scale and shear included): it takes a
    /// bound vertex into the joint's space. Empty where the file gives none (each is the
    /// identity).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inverse_bind_matrices: Vec<Mat4<f64>>,
    /// The node the skin's joints hang from, where the file names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skeleton: Option<usize>,
}

/// A camera placed by a node, looking down the node's -Z with +Y up (glTF's convention).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// The camera's name; empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The node that places it, an index into [`Skeleton::bones`](super::Skeleton::bones).
    pub node: usize,
    /// How it projects.
    pub projection: Projection,
}

/// How a [`Camera`] projects the scene.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Projection {
    /// A perspective projection.
    Perspective {
        /// The vertical field of view, in radians.
        yfov: f64,
        /// Width over height; `None` leaves it to the viewport.
        aspect_ratio: Option<f64>,
        /// The near clipping distance.
        znear: f64,
        /// The far clipping distance; `None` for an infinite projection.
        zfar: Option<f64>,
    },
    /// An orthographic projection.
    Orthographic {
        /// Half the view's width.
        xmag: f64,
        /// Half the view's height.
        ymag: f64,
        /// The near clipping distance.
        znear: f64,
        /// The far clipping distance.
        zfar: f64,
    },
}

/// A light placed by a node, shining down the node's -Z (glTF's `KHR_lights_punctual`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// The light's name; empty where the source has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The node that places it, an index into [`Skeleton::bones`](super::Skeleton::bones).
    pub node: usize,
    /// What kind of light it is.
    pub kind: LightKind,
    /// Linear RGB.
    pub color: [f64; 3],
    /// Candela for point and spot lights, lux for directional ones.
    pub intensity: f64,
    /// How far the light reaches; `None` for no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<f64>,
}

/// The kinds of [`Light`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LightKind {
    /// Parallel rays, as from the sun.
    Directional,
    /// Every direction from a point.
    Point,
    /// A cone from a point.
    Spot {
        /// Where the fall-off starts, in radians from the axis.
        inner_cone_angle: f64,
        /// Where the light ends, in radians from the axis.
        outer_cone_angle: f64,
    },
}

/// The texture slots of a physically based material (glTF's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureSlot {
    /// The base (albedo) colour.
    BaseColor,
    /// The tangent-space normal map.
    Normal,
    /// Metalness in blue, roughness in green.
    MetallicRoughness,
    /// Ambient occlusion in red.
    Occlusion,
    /// Emitted light.
    Emissive,
}

impl TextureSlot {
    /// Every slot, in glTF's order.
    pub const ALL: [Self; 5] = [
        Self::BaseColor,
        Self::Normal,
        Self::MetallicRoughness,
        Self::Occlusion,
        Self::Emissive,
    ];

    /// The slot's name as reports and the Python package say it: `"base_color"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::BaseColor => "base_color",
            Self::Normal => "normal",
            Self::MetallicRoughness => "metallic_roughness",
            Self::Occlusion => "occlusion",
            Self::Emissive => "emissive",
        }
    }
}

/// An image used in a material's slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextureLink {
    /// The slot.
    pub slot: TextureSlot,
    /// The image, an index into [`Scene::textures`](super::Scene::textures).
    pub texture: usize,
    /// The UV layer it reads (glTF's `texCoord`).
    #[serde(default)]
    pub uv_layer: u32,
    /// The normal map's scale or the occlusion's strength; `None` where the source states none
    /// (1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<f64>,
    /// An offset, rotation and scale of the UVs (`KHR_texture_transform`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<UvTransform>,
}

/// How a texture's UVs are moved before it is sampled (`KHR_texture_transform`): scaled,
/// then rotated, then offset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UvTransform {
    /// Added to the UVs last.
    pub offset: [f64; 2],
    /// Counter-clockwise, in radians.
    pub rotation: f64,
    /// Multiplies the UVs first.
    pub scale: [f64; 2],
    /// The UV layer used instead of the link's, where the extension names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uv_layer: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;
    use crate::scene::{Bone, Skeleton};

    fn node(parent: Option<usize>, local: Transform) -> Bone {
        Bone {
            kind: NodeKind::Plain,
            name: String::new(),
            parent,
            local,
            global: Transform::IDENTITY,
            cosmetic: false,
            scale_compensate: false,
            rest_scale: Vec3::ONE,
        }
    }

    fn scene(bones: Vec<Bone>) -> Scene {
        Scene {
            skeleton: Skeleton {
                bones,
                ..Skeleton::default()
            },
            ..Scene::default()
        }
    }

    /// A quarter turn about Z.
    fn quarter_z() -> Quat<f64> {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        Quat::new(0.0, 0.0, h, h)
    }

    fn point(m: &Mat4<f64>, p: [f64; 3]) -> [f64; 3] {
        let r = &m.rows;
        [0, 1, 2].map(|i| r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2] + r[i][3])
    }

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn a_child_is_placed_by_its_parent_and_the_roots_by_the_placement() {
        let parent = Transform {
            translation: Vec3::new(10.0, 0.0, 0.0),
            rotation: quarter_z(),
            scale: Vec3::new(2.0, 2.0, 2.0),
        };
        let child = Transform {
            translation: Vec3::new(1.0, 0.0, 0.0),
            ..Transform::IDENTITY
        };
        let mut s = scene(vec![node(None, parent), node(Some(0), child)]);
        s.placement.translation = Vec3::new(0.0, 0.0, 5.0);
        let world = s.node_world_matrices();
        assert!(close(point(&world[0], [0.0; 3]), [10.0, 0.0, 5.0]));
        // (1, 0, 0) scaled by 2 and turned a quarter about Z: (0, 2, 0) from the parent.
        assert!(close(point(&world[1], [0.0; 3]), [10.0, 2.0, 5.0]));
        assert!(close(point(&world[1], [1.0, 0.0, 0.0]), [10.0, 4.0, 5.0]));
    }

    #[test]
    fn a_turned_child_of_an_unevenly_scaled_parent_is_sheared_as_the_matrices_multiply() {
        let parent = Transform {
            scale: Vec3::new(1.0, 3.0, 1.0),
            ..Transform::IDENTITY
        };
        let child = Transform {
            rotation: Quat::new(
                0.0,
                0.0,
                (std::f64::consts::PI / 8.0).sin(),
                (std::f64::consts::PI / 8.0).cos(),
            ),
            ..Transform::IDENTITY
        };
        let s = scene(vec![node(None, parent), node(Some(0), child)]);
        let world = s.node_world_matrices();
        let product = parent.to_matrix().multiply(&child.to_matrix());
        for p in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.3, -2.0, 4.0]] {
            assert!(close(point(&world[1], p), point(&product, p)));
        }
        // The TRS product (Bone::global) cannot hold the shear: it differs.
        let trs = parent.then(child).to_matrix();
        assert!(!close(point(&world[1], [1.0, 0.0, 0.0]), point(&trs, [1.0, 0.0, 0.0])));
    }

    #[test]
    fn a_node_that_does_not_inherit_scale_is_placed_as_compose_places_it() {
        let parent = Transform {
            translation: Vec3::new(1.0, 2.0, 3.0),
            rotation: quarter_z(),
            scale: Vec3::new(2.0, 3.0, 4.0),
        };
        let child = Transform {
            translation: Vec3::new(1.0, 2.0, 0.0),
            rotation: quarter_z(),
            scale: Vec3::new(0.5, 1.0, 1.0),
        };
        let mut compensated = node(Some(0), child);
        compensated.scale_compensate = true;
        let world = scene(vec![node(None, parent), compensated]).node_world_matrices();
        let expected = crate::math::compose(parent, child, true).to_matrix();
        for p in [[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 2.0]] {
            assert!(close(point(&world[1], p), point(&expected, p)), "{p:?}");
        }
    }

    #[test]
    fn a_parent_cycle_ends_at_roots() {
        let step = Transform {
            translation: Vec3::new(1.0, 0.0, 0.0),
            ..Transform::IDENTITY
        };
        let s = scene(vec![node(Some(1), step), node(Some(0), step), node(Some(7), step)]);
        let world = s.node_world_matrices();
        assert_eq!(world.len(), 3);
        assert!(world.iter().all(|m| m.rows.iter().flatten().all(|v| v.is_finite())));
    }
}
