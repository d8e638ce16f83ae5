//! Hair and instances that animbin wrote: a mesh marked as hair in its extras becomes a scene
//! hair, a node marked as an instance a scene instance. Line meshes of other tools stay
//! skipped (reported), as the scene holds triangles.

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::{ConversionReport, Hair, Instance};
use gltf::mesh::{Mode, Semantic};

use crate::accessor::{self, Buffers};
use crate::error::{Path, Result};
use crate::extras::{self, HairExtras, InstanceExtras};

/// The hair that `mesh` (marked with `hair`) holds: the particles from its one `LINES` or
/// `POINTS` primitive's `POSITION`, the segments from the extras, the primitive's material.
/// `None` (reported) when the mesh is not shaped so, or its particles are not the count the
/// segments call for.
pub(super) fn import_hair(
    mesh: &gltf::Mesh,
    hair: HairExtras,
    buffers: &Buffers,
    report: &mut ConversionReport,
) -> Result<Option<Hair>> {
    let path = Path::item("meshes", mesh.index());
    let mut skip = |why: &str| {
        report.lose(format!("{path}: hair meshes {why}: skipped"));
        Ok(None)
    };
    let mut primitives = mesh.primitives();
    let (Some(primitive), None) = (primitives.next(), primitives.next()) else {
        return skip("of other than one primitive");
    };
    if !matches!(primitive.mode(), Mode::Lines | Mode::Points) {
        return skip("whose primitive is not lines or points");
    }
    let Some(positions) = primitive.get(&Semantic::Positions) else {
        return skip("without positions");
    };
    let expected: u64 = hair.segments.iter().map(|&s| u64::from(s) + 1).sum();
    if positions.count() as u64 != expected {
        return skip("whose particle count is not the sum of their segments + 1");
    }
    let (values, _) = accessor::floats(&positions, buffers, &[3], "hair particles")?;
    Ok(Some(Hair {
        name: mesh.name().unwrap_or_default().to_string(),
        segments: hair.segments,
        particles: values.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])).collect(),
        material: primitive.material().index(),
    }))
}

/// The instance a node marked as one stands for: its name, its TRS as written (no
/// normalisation, so the `f32` values come back as they are) and the path.
pub(super) fn instance_of(node: &gltf::Node) -> Option<Instance> {
    let marked: InstanceExtras = extras::unwrap(node.extras())?;
    let (t, r, s) = node.transform().decomposed();
    let v3 = |v: [f32; 3]| Vec3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2]));
    Some(Instance {
        name: node.name().unwrap_or_default().to_string(),
        path: marked.instance,
        placement: Transform {
            translation: v3(t),
            rotation: Quat::new(f64::from(r[0]), f64::from(r[1]), f64::from(r[2]), f64::from(r[3])),
            scale: v3(s),
        },
    })
}
