//! IK handles and constraints: Cast's IKHandle and Constraint nodes (children of a Skeleton,
//! naming bones by hash) <-> [`scene::Skeleton::ik_handles`] and
//! [`scene::Skeleton::constraints`] (naming bones by index).

use std::collections::HashMap;

use animbin_core::Result;
use animbin_core::math::{Quat, Vec3, Vec4};
use animbin_core::scene::{self, ConstraintKind, ConstraintOffset, ConversionReport, IkHandle};

use super::hashes::NodeHashes;
use super::properties::lose_undocumented;
use super::refuse;
use crate::layout::NodeKind;
use crate::model::{Node, Property, Value};
use crate::nodes;

fn widen3(v: Vec3<f32>) -> Vec3<f64> {
    Vec3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

/// Adds the IK handles and constraints of `skeleton` to `out`, its bones being those of `out`
/// from `offset` on.
pub(super) fn import_rig(
    skeleton: nodes::Skeleton<'_>,
    offset: usize,
    out: &mut scene::Skeleton,
    report: &mut ConversionReport,
) {
    // A reference resolves to the first bone of that hash (CAST.md section 8).
    let mut by_hash: HashMap<u64, usize> = HashMap::new();
    for (i, bone) in skeleton.bones().enumerate() {
        by_hash.entry(bone.node().hash).or_insert(offset + i);
    }
    let bone = |hash: Option<u64>| -> Result<Option<usize>, ()> {
        match hash {
            None => Ok(None),
            Some(h) => by_hash.get(&h).copied().map(Some).ok_or(()),
        }
    };
    for handle in skeleton.ik_handles() {
        lose_undocumented(handle.node(), NodeKind::IkHandle, report);
        let resolved = (|| {
            Ok::<_, ()>(IkHandle {
                name: handle.name().unwrap_or_default().to_string(),
                start: bone(handle.start_bone())?.ok_or(())?,
                end: bone(handle.end_bone())?.ok_or(())?,
                target: bone(handle.target_bone())?,
                target_offset: handle.target_offset().map(widen3),
                pole_vector: bone(handle.pole_vector_bone())?,
                pole: bone(handle.pole_bone())?,
                use_target_rotation: handle.use_target_rotation().unwrap_or(false),
            })
        })();
        match resolved {
            Ok(h) => out.ik_handles.push(h),
            Err(()) => report.lose("IK handles without start and end bones of their skeleton (skipped)"),
        }
    }
    for constraint in skeleton.constraints() {
        lose_undocumented(constraint.node(), NodeKind::Constraint, report);
        let Some(kind) = constraint.constraint_type().and_then(ConstraintKind::from_cast_name) else {
            report.lose("constraints of a type other than pt, or and sc (skipped)");
            continue;
        };
        let (Ok(Some(bone_index)), Ok(Some(target))) =
            (bone(constraint.constraint_bone()), bone(constraint.target_bone()))
        else {
            report.lose("constraints without constrained and target bones of their skeleton (skipped)");
            continue;
        };
        let offset = match (kind, constraint.custom_offset()) {
            (_, None) => None,
            (ConstraintKind::Orient, Some(nodes::ConstraintOffset::Rotation(q))) => Some(ConstraintOffset::Rotation(
                Quat::new(f64::from(q.x), f64::from(q.y), f64::from(q.z), f64::from(q.w)),
            )),
            (ConstraintKind::Point | ConstraintKind::Scale, Some(nodes::ConstraintOffset::Vector(v))) => {
                Some(ConstraintOffset::Vector(widen3(v)))
            }
            _ => {
                report.lose("constraint offsets (co) of the wrong size for their type");
                None
            }
        };
        out.constraints.push(scene::Constraint {
            name: constraint.name().unwrap_or_default().to_string(),
            kind,
            bone: bone_index,
            target,
            maintain_offset: constraint.maintain_offset().unwrap_or(false),
            offset,
            weight: constraint.weight().map(f64::from),
            skip: [
                constraint.skip_x().unwrap_or(false),
                constraint.skip_y().unwrap_or(false),
                constraint.skip_z().unwrap_or(false),
            ],
        });
    }
}

/// The IKHandle and Constraint nodes of `skeleton`, whose bones have the node hashes
/// `bone_hashes`, in the reference writer's property order (`n` first, then as CAST.md
/// lists them; flags only when set).
pub(super) fn rig_nodes(
    skeleton: &scene::Skeleton,
    bone_hashes: &[u64],
    hashes: &mut NodeHashes,
    report: &mut ConversionReport,
) -> Result<Vec<Node>> {
    let hash = |what: &str, i: usize| {
        bone_hashes
            .get(i)
            .copied()
            .ok_or_else(|| refuse(format!("{what} names bone {i} of {}", bone_hashes.len())))
    };
    let mut lost = false;
    let mut narrow = |x: f64| {
        let y = x as f32;
        if f64::from(y).to_bits() != x.to_bits() {
            lost = true;
        }
        y
    };
    let mut nodes = Vec::with_capacity(skeleton.ik_handles.len() + skeleton.constraints.len());
    for (k, handle) in skeleton.ik_handles.iter().enumerate() {
        let what = format!("IK handle {k}");
        let mut node = hashes.node(NodeKind::IkHandle);
        if !handle.name.is_empty() {
            node.push(Property::string("n", handle.name.clone()));
        }
        node.push(Property::hash("sb", hash(&what, handle.start)?));
        node.push(Property::hash("eb", hash(&what, handle.end)?));
        if let Some(t) = handle.target {
            node.push(Property::hash("tb", hash(&what, t)?));
        }
        if let Some(o) = handle.target_offset {
            node.push(Property::new(
                "to",
                Value::Vec3(vec![Vec3::new(narrow(o.x), narrow(o.y), narrow(o.z))]),
            ));
        }
        if let Some(p) = handle.pole_vector {
            node.push(Property::hash("pv", hash(&what, p)?));
        }
        if let Some(p) = handle.pole {
            node.push(Property::hash("pb", hash(&what, p)?));
        }
        if handle.use_target_rotation {
            node.push(Property::boolean("tr", true));
        }
        nodes.push(node);
    }
    for (k, constraint) in skeleton.constraints.iter().enumerate() {
        let what = format!("constraint {k}");
        let mut node = hashes.node(NodeKind::Constraint);
        if !constraint.name.is_empty() {
            node.push(Property::string("n", constraint.name.clone()));
        }
        node.push(Property::string("ct", constraint.kind.cast_name()));
        node.push(Property::hash("cb", hash(&what, constraint.bone)?));
        node.push(Property::hash("tb", hash(&what, constraint.target)?));
        if constraint.maintain_offset {
            node.push(Property::boolean("mo", true));
        }
        match (constraint.kind, constraint.offset) {
            (_, None) => {}
            (ConstraintKind::Orient, Some(ConstraintOffset::Rotation(q))) => node.push(Property::new(
                "co",
                Value::Vec4(vec![Vec4::new(narrow(q.x), narrow(q.y), narrow(q.z), narrow(q.w))]),
            )),
            (ConstraintKind::Point | ConstraintKind::Scale, Some(ConstraintOffset::Vector(v))) => {
                node.push(Property::new(
                    "co",
                    Value::Vec3(vec![Vec3::new(narrow(v.x), narrow(v.y), narrow(v.z))]),
                ))
            }
            _ => report.lose("constraint offsets of the wrong kind for their type (Cast ties co's size to ct)"),
        }
        if let Some(w) = constraint.weight {
            node.push(Property::new("wt", Value::Float(vec![narrow(w)])));
        }
        for (axis, skip) in ["sx", "sy", "sz"].into_iter().zip(constraint.skip) {
            if skip {
                node.push(Property::boolean(axis, true));
            }
        }
        nodes.push(node);
    }
    if lost {
        report.lose("IK and constraint offset digits beyond f32");
    }
    Ok(nodes)
}
