//! The skeleton and the skin: which bones keep their parent ([`tree_parents`]), the one skin
//! over every bone and animated node ([`build_skin`]), and each mesh's `JOINTS_0` and
//! `WEIGHTS_0` ([`skin_attributes`]).

use animbin_core::math::Transform;
use animbin_core::scene::{ConversionReport, Mesh, Scene};

use super::builder::{Builder, Floats};
use super::name_list;
use crate::error::{Error, Result};
use crate::json::{self, component};
use crate::xform;

/// Which bones have a usable parent: `Some(p)` for a parent in range whose chain reaches a
/// root; `None` for roots and for bones whose parent chain is broken or cyclic.
pub(super) fn tree_parents(scene: &Scene, report: &mut ConversionReport) -> Vec<Option<usize>> {
    let bones = &scene.skeleton.bones;
    let n = bones.len();
    // 0 unknown, 1 on the current walk, 2 reaches a root, 3 cyclic
    let mut state = vec![0u8; n];
    let mut cyclic = Vec::new();
    let mut broken = Vec::new();
    for start in 0..n {
        let mut path = Vec::new();
        let mut at = start;
        let verdict = loop {
            match state[at] {
                2 => break 2,
                3 | 1 => break 3,
                _ => {}
            }
            state[at] = 1;
            path.push(at);
            match bones[at].parent {
                None => break 2,
                Some(p) if p >= n || p == at => break 2,
                Some(p) => at = p,
            }
        };
        for &i in &path {
            state[i] = verdict;
        }
    }
    let parents = (0..n)
        .map(|i| match bones[i].parent {
            Some(p) if p >= n || p == i => {
                broken.push(bones[i].name.clone());
                None
            }
            Some(_) if state[i] == 3 => {
                cyclic.push(bones[i].name.clone());
                None
            }
            other => other,
        })
        .collect();
    if !broken.is_empty() {
        report.lose(format!(
            "{} bone(s) whose parent index is out of range or the bone itself ({}): exported as roots",
            broken.len(),
            name_list(&broken)
        ));
    }
    if !cyclic.is_empty() {
        report.lose(format!(
            "{} bone(s) whose parents form a cycle ({}): exported as roots",
            cyclic.len(),
            name_list(&cyclic)
        ));
    }
    parents
}

/// The skin over the rig: the `joints` (every node, so that joint `i` is node `i` and
/// `JOINTS_0` holds node indices, or only the bones when no mesh is bound by it), then the
/// `extra` nodes of tracks without a bone, bound where they rest (the identity).
pub(super) fn build_skin(b: &mut Builder, scene: &Scene, joints: &[usize], extra: &[usize]) -> Result<usize> {
    let bones = &scene.skeleton.bones;
    let mut ibm = Vec::with_capacity((joints.len() + extra.len()) * 16);
    let matrices = joints
        .iter()
        .map(|&j| xform::inverse_matrix(&bones[j].global))
        .chain(extra.iter().map(|_| Transform::IDENTITY.to_matrix()));
    for m in matrices {
        // glTF matrices are column-major.
        for c in 0..4 {
            for r in 0..4 {
                ibm.push(m.rows[r][c] as f32);
            }
        }
    }
    let accessor = b.floats(Floats::Owned(ibm), "MAT4", 16, None, false, &|| {
        "the inverse bind matrices".into()
    })?;
    b.root.skins.push(json::Skin {
        name: None,
        inverse_bind_matrices: Some(accessor),
        skeleton: None,
        joints: joints.iter().chain(extra).copied().collect(),
        extras: None,
    });
    Ok(b.root.skins.len() - 1)
}

/// The values of JOINTS_0 and WEIGHTS_0.
pub(super) struct SkinAttributes {
    pub(super) joints: Vec<u32>,
    pub(super) weights: Vec<f32>,
    /// The component type of JOINTS_0: u8 for up to 256 bones, else u16.
    pub(super) component: u32,
}

/// JOINTS_0 and WEIGHTS_0: per vertex the four strongest influences (duplicates merged,
/// out-of-range bones and non-positive weights dropped), in their original slot order,
/// renormalised to sum to 1.
pub(super) fn skin_attributes(
    scene: &Scene,
    index: usize,
    mesh: &Mesh,
    skin: &animbin_core::scene::SkinWeights,
    report: &mut ConversionReport,
) -> Result<SkinAttributes> {
    let label = || format!("mesh {index} ({:?})", mesh.name);
    let n = mesh.positions.len();
    let bone_count = scene.skeleton.bones.len();
    if bone_count > 0x1_0000 {
        return Err(Error::Unencodable(format!(
            "a skin of {bone_count} joints (JOINTS_0 holds at most 65536)"
        )));
    }
    let k = skin.influences;
    let needed = k.checked_mul(n);
    if k == 0 || needed != Some(skin.bones.len()) || needed != Some(skin.weights.len()) {
        return Err(Error::Unencodable(format!(
            "{}: {} bone indices and {} weights for {n} vertices of {k} influences",
            label(),
            skin.bones.len(),
            skin.weights.len()
        )));
    }
    let (mut reduced, mut unweighted, mut dropped) = (0usize, 0usize, 0usize);
    let mut joints = Vec::with_capacity(n * 4);
    let mut weights = Vec::with_capacity(n * 4);
    for v in 0..n {
        let range = v * k..(v + 1) * k;
        let (vb, vw) = (&skin.bones[range.clone()], &skin.weights[range]);
        // Up to 4 clean slots are kept in place, zero-weight slots included, so that a
        // format -> glTF -> format trip gives back the same slots.
        let clean = k <= 4
            && vb.iter().all(|&b| (b as usize) < bone_count)
            && vw.iter().all(|w| w.is_finite() && *w >= 0.0)
            && vw.iter().any(|&w| w > 0.0)
            && vb
                .iter()
                .zip(vw)
                .enumerate()
                .all(|(i, (b, &w))| w == 0.0 || !vb[..i].iter().zip(vw).any(|(c, &x)| x > 0.0 && c == b));
        if clean {
            let sum: f64 = vw.iter().map(|&w| f64::from(w)).sum();
            for (&b, &w) in vb.iter().zip(vw) {
                // A joint with zero weight is 0, as the validator asks (ACCESSOR_JOINTS_USED_ZERO_WEIGHT).
                joints.push(if w > 0.0 { b } else { 0 });
                weights.push((f64::from(w) / sum) as f32);
            }
            for _ in k..4 {
                joints.push(0);
                weights.push(0.0);
            }
            continue;
        }
        let mut slots: Vec<(u32, f64)> = Vec::with_capacity(k);
        for s in v * k..(v + 1) * k {
            let (bone, w) = (skin.bones[s], f64::from(skin.weights[s]));
            if !(w.is_finite() && w > 0.0) {
                continue;
            }
            if bone as usize >= bone_count {
                dropped += 1;
                continue;
            }
            match slots.iter_mut().find(|(b, _)| *b == bone) {
                Some(slot) => slot.1 += w,
                None => slots.push((bone, w)),
            }
        }
        if slots.len() > 4 {
            reduced += 1;
            let mut order: Vec<usize> = (0..slots.len()).collect();
            order.sort_by(|&a, &b| slots[b].1.total_cmp(&slots[a].1).then(a.cmp(&b)));
            let mut keep = order[..4].to_vec();
            keep.sort_unstable();
            slots = keep.into_iter().map(|i| slots[i]).collect();
        }
        if slots.is_empty() {
            unweighted += 1;
            slots.push((0, 1.0));
        }
        let sum: f64 = slots.iter().map(|s| s.1).sum();
        for i in 0..4 {
            let (bone, w) = slots.get(i).copied().unwrap_or((0, 0.0));
            joints.push(bone);
            weights.push((w / sum) as f32);
        }
    }
    if reduced > 0 {
        report.lose(format!(
            "{}: {reduced} vertices with more than 4 influences reduced to the 4 strongest",
            label()
        ));
    }
    if dropped > 0 {
        report.lose(format!(
            "{}: {dropped} influences on bones past the skeleton dropped",
            label()
        ));
    }
    if unweighted > 0 {
        report.lose(format!(
            "{}: {unweighted} vertices without weights bound to bone 0 ({:?})",
            label(),
            scene.skeleton.bones[0].name
        ));
    }
    let component = if bone_count <= 0x100 {
        component::U8
    } else {
        component::U16
    };
    Ok(SkinAttributes {
        joints,
        weights,
        component,
    })
}
