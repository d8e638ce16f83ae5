//! What the scene modules share about Cast properties: which names each node type documents
//! (the others are reported as lost), and values narrowed to the `f32` the file stores.

use std::collections::HashSet;

use animbin_core::math::{Quat, Vec3, Vec4};
use animbin_core::scene::ConversionReport;

use crate::layout::NodeKind;
use crate::model::Node;
use crate::nodes::is_material_slot;

/// The documented property names of each node type that the scene uses or reports.
fn documented(kind: NodeKind, name: &str) -> bool {
    let fixed: &[&str] = match kind {
        NodeKind::Model => &["n", "p", "r", "s"],
        NodeKind::Mesh => &[
            "n", "vp", "vn", "vt", "ul", "cl", "vc", "wb", "wv", "mi", "f", "sm", "m",
        ],
        NodeKind::Bone => &["n", "p", "ssc", "lp", "lr", "wp", "wr", "s"],
        NodeKind::Material => &["n", "t"],
        NodeKind::File => &["p"],
        NodeKind::Color => &["n", "cs", "rgba"],
        NodeKind::Animation => &["n", "fr", "lo"],
        NodeKind::Curve => &["nn", "kp", "kb", "kv", "m", "ab"],
        NodeKind::CurveModeOverride => &["nn", "m", "ot", "or", "os"],
        NodeKind::NotificationTrack => &["n", "kb"],
        NodeKind::IkHandle => &["n", "sb", "eb", "tb", "to", "pv", "pb", "tr"],
        NodeKind::Constraint => &["n", "ct", "cb", "tb", "mo", "co", "wt", "sx", "sy", "sz"],
        NodeKind::Hair => &["n", "se", "pt", "m"],
        NodeKind::Instance => &["n", "rf", "p", "r", "s"],
        _ => return true,
    };
    let layer = |prefix: char| name.strip_prefix(prefix).and_then(crate::nodes::layer_number).is_some();
    fixed.contains(&name)
        || (kind == NodeKind::Mesh && (layer('u') || layer('c')))
        || (kind == NodeKind::Material && is_material_slot(name))
}

/// Reports undocumented properties of `node` (which the scene has no place for) and
/// repeated ones (of which the first is used).
pub(super) fn lose_undocumented(node: &Node, kind: NodeKind, report: &mut ConversionReport) {
    // Names seen so far, in a set: a node may hold any number of properties.
    let mut seen: HashSet<&str> = HashSet::with_capacity(node.properties.len());
    for p in &node.properties {
        if !seen.insert(p.name.as_ref()) {
            report.lose(format!(
                "second properties of one name in {kind} nodes (such as {:?}; the first is used)",
                p.name
            ));
        }
        if !documented(kind, &p.name) {
            report.lose(format!(
                "undocumented properties of {kind} nodes (such as {:?})",
                p.name
            ));
        }
    }
}

/// An `f64` as the `f32` the file stores, noting when digits are lost.
pub(super) fn narrow(x: f64, lost: &mut bool) -> f32 {
    let y = x as f32;
    if f64::from(y).to_bits() != x.to_bits() && !(x.is_nan() && y.is_nan()) {
        *lost = true;
    }
    y
}

pub(super) fn narrow3(v: Vec3<f64>, lost: &mut bool) -> Vec3<f32> {
    v.map(|x| narrow(x, lost))
}

pub(super) fn narrow4(q: Quat<f64>, lost: &mut bool) -> Vec4<f32> {
    Vec4::new(
        narrow(q.x, lost),
        narrow(q.y, lost),
        narrow(q.z, lost),
        narrow(q.w, lost),
    )
}
