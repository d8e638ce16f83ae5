//! Matrix helpers that core's `Transform` does not need: a general affine inverse (for
//! inverse bind matrices with non-uniform scale). Splitting a matrix back into translation,
//! rotation and scale is core's `Transform::from_matrix`.

use animbin_core::math::{Mat4, Quat, Transform};
use animbin_core::scene::{Projection, Scene};

/// The matrix of `t`'s inverse: exact for any scale, unlike `Transform::inverse`, which
/// assumes uniform scale; falls back to it for a singular matrix.
pub fn inverse_matrix(t: &Transform) -> Mat4<f64> {
    t.to_matrix()
        .inverse_affine()
        .unwrap_or_else(|| t.inverse().to_matrix())
}

/// The rotation that turns a Z-up scene Y-up: -90 degrees about X (z becomes y, y becomes -z).
pub const Z_UP_TO_Y_UP: Quat<f64> = Quat::new(
    -std::f64::consts::FRAC_1_SQRT_2,
    0.0,
    0.0,
    std::f64::consts::FRAC_1_SQRT_2,
);

/// Multiplies every length by `s` (hair particles, the model placement's and instances'
/// translations among them). A negative `s` is a point reflection: positions and
/// translations change sign, rotations stay, and so that surfaces still face out, normals
/// change sign and every face's winding is reversed.
pub(crate) fn scale_lengths(scene: &mut Scene, s: f64) {
    for bone in &mut scene.skeleton.bones {
        bone.local.translation = bone.local.translation.scale(s);
        bone.global.translation = bone.global.translation.scale(s);
    }
    for anim in &mut scene.animations {
        for track in &mut anim.bones {
            track.translation.map_values(|value| value.scale(s));
        }
    }
    for hair in &mut scene.hairs {
        for p in &mut hair.particles {
            *p = p.map(|c| (f64::from(c) * s) as f32);
        }
    }
    for instance in &mut scene.instances {
        instance.placement.translation = instance.placement.translation.scale(s);
    }
    scene.placement.translation = scene.placement.translation.scale(s);
    // A skin's matrix takes a bound vertex into its joint's space: with every length times
    // s on both sides, its linear part stays and its translation is times s.
    for skin in &mut scene.skins {
        for m in &mut skin.inverse_bind_matrices {
            for row in &mut m.rows[..3] {
                row[3] *= s;
            }
        }
    }
    for camera in &mut scene.cameras {
        camera.projection = match camera.projection {
            Projection::Perspective {
                yfov,
                aspect_ratio,
                znear,
                zfar,
            } => Projection::Perspective {
                yfov,
                aspect_ratio,
                znear: znear * s.abs(),
                zfar: zfar.map(|z| z * s.abs()),
            },
            Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            } => Projection::Orthographic {
                xmag: xmag * s.abs(),
                ymag: ymag * s.abs(),
                znear: znear * s.abs(),
                zfar: zfar * s.abs(),
            },
        };
    }
    for light in &mut scene.lights {
        light.range = light.range.map(|r| r * s.abs());
    }
    for mesh in &mut scene.meshes {
        for p in &mut mesh.positions {
            *p = p.map(|c| (f64::from(c) * s) as f32);
        }
        for t in &mut mesh.morph_targets {
            for d in &mut t.position_deltas {
                *d = d.map(|c| (f64::from(c) * s) as f32);
            }
            if s < 0.0 {
                for n in &mut t.normal_deltas {
                    *n = n.map(|c| -c);
                }
            }
        }
        if s < 0.0 {
            for n in &mut mesh.normals {
                *n = n.map(|c| -c);
            }
            for face in &mut mesh.faces {
                face.swap(1, 2);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animbin_core::math::Vec3;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn decompose_undoes_to_matrix_and_inverse_undoes_the_matrix() {
        let t = Transform {
            translation: Vec3::new(1.0, -2.0, 3.5),
            rotation: Quat::new(0.3, -0.2, 0.5, 0.78).normalized(),
            scale: Vec3::new(2.0, 0.5, 3.0),
        };
        let m = t.to_matrix();
        let back = Transform::from_matrix(&m).unwrap();
        assert!(close(back.translation.x, 1.0) && close(back.translation.z, 3.5));
        assert!(close(back.scale.x, 2.0) && close(back.scale.y, 0.5) && close(back.scale.z, 3.0));
        let same_sign = if back.rotation.w * t.rotation.w < 0.0 {
            -1.0
        } else {
            1.0
        };
        assert!(close(back.rotation.x * same_sign, t.rotation.x));
        assert!(close(back.rotation.w * same_sign, t.rotation.w));
        let inv = m.inverse_affine().unwrap();
        for i in 0..4 {
            for j in 0..4 {
                let p: f64 = (0..4).map(|k| m.rows[i][k] * inv.rows[k][j]).sum();
                assert!(close(p, if i == j { 1.0 } else { 0.0 }), "{i} {j} {p}");
            }
        }
    }

    #[test]
    fn singular_matrices_do_not_decompose_or_invert() {
        let t = Transform {
            scale: Vec3::new(0.0, 1.0, 1.0),
            ..Transform::IDENTITY
        };
        assert!(Transform::from_matrix(&t.to_matrix()).is_none());
        assert!(t.to_matrix().inverse_affine().is_none());
    }

    #[test]
    fn z_up_to_y_up_turns_z_into_y() {
        let v = Z_UP_TO_Y_UP.rotate(Vec3::new(0.0, 0.0, 1.0));
        assert!(close(v.x, 0.0) && close(v.y, 1.0) && close(v.z, 0.0));
        let v = Z_UP_TO_Y_UP.rotate(Vec3::new(0.0, 1.0, 0.0));
        assert!(close(v.z, -1.0));
    }
}

#[cfg(test)]
mod scale_tests {
    use animbin_core::math::Vec3;
    use animbin_core::scene::{Mesh, Scene};

    #[test]
    fn a_negative_scale_reflects_positions_and_keeps_surfaces_facing_out() {
        let mut scene = Scene {
            meshes: vec![Mesh {
                positions: vec![
                    Vec3::new(0.0, 0.0, 0.0),
                    Vec3::new(1.0, 0.0, 0.0),
                    Vec3::new(0.0, 2.0, 0.0),
                ],
                normals: vec![Vec3::new(0.0, 0.0, 1.0); 3],
                faces: vec![[0, 1, 2]],
                ..Mesh::default()
            }],
            ..Scene::default()
        };
        super::scale_lengths(&mut scene, -2.0);
        let mesh = &scene.meshes[0];
        assert_eq!(
            mesh.positions,
            [
                Vec3::new(-0.0, -0.0, -0.0),
                Vec3::new(-2.0, -0.0, -0.0),
                Vec3::new(-0.0, -4.0, -0.0)
            ]
        );
        assert_eq!(mesh.normals, [Vec3::new(-0.0, -0.0, -1.0); 3]);
        assert_eq!(mesh.faces, [[0, 2, 1]]);
    }
}
