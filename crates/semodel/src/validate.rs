//! The spec's invariants that a file which reads can still break.
//!
//! Each broken rule is a [`Finding`] at a byte offset, worded through [`Diagnostic`] and
//! handed out as a core [`Problem`].

use std::fmt;

use animbin_core::seblend::Trailer;
use animbin_core::{Diagnostic, Location, Problem, Severity, non_unit_length};
use half::f16;

use crate::layout::blend::BlendShapes;
use crate::layout::block::Block;
use crate::layout::bone::{Bone, Pose};
use crate::layout::draft::VertexLayout;
use crate::layout::flags::{DataFlags, MeshFlags};
use crate::layout::{Layout, deployed, draft};
use crate::model::SeModel;
use crate::spans::{MeshSpans, Spans, spans};

/// How far a vertex's weights may sum from 1 before [`validate`] warns: the draft's
/// half-float weights carry about three decimal digits each.
pub const WEIGHT_SUM_TOLERANCE: f32 = 0.01;

/// One broken invariant (an error) or legal but suspicious value (a warning): how bad, where
/// in the file, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// [`Severity::Error`] for a broken rule of the layout; [`Severity::Warning`] for weights
    /// that do not sum to 1 and bone rotations that are not unit quaternions.
    pub severity: Severity,
    /// The byte offset of the offending field (the first one, when a message covers several).
    pub offset: u64,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {} ({:#x}): {}", self.offset, self.offset, self.message)
    }
}

impl Diagnostic for Finding {
    fn severity(&self) -> Severity {
        self.severity
    }

    /// The byte offset of the offending field: SEModel has no offsets of its own, so every
    /// place is recomputed from the flags and counts.
    fn location(&self) -> Location {
        Location::Offset(self.offset)
    }

    fn message(&self) -> String {
        self.message.clone()
    }
}

/// Reports every broken invariant of a model that reads (errors), and what is legal but
/// suspicious (warnings), one [`Problem`] per kind and place, each at the byte offset of the
/// offending field ([`Location::Offset`]; the first one, when a message covers several).
/// SEModel has no offsets of its own, so every place is recomputed from the flags and counts.
///
/// Errors:
/// - no data block at all; reserved flag bits or reserved bytes set;
/// - a header count that is non-zero while its data flag is clear;
/// - bone parents other than -1 that are out of range, the bone itself, or in a cycle;
/// - `layerCount` (`uvSetCount`) or `maxInfluence` (`maxSkinInfluence`) set while the UV or
///   WEIGHTS flag is clear;
/// - face indices at or past the mesh's `vertexCount`;
/// - weight bone indices at or past `boneCount`;
/// - material indices other than -1 (deployed) that are at or past `matCount`, and draft
///   UV material indices at or past `matCount`;
/// - SEBlend shape indices at or past the number of shapes.
///
/// Warnings: a vertex whose weights do not sum to 1 (within [`WEIGHT_SUM_TOLERANCE`]); a
/// bone whose global or local rotation is not a unit quaternion (within
/// [`UNIT_QUATERNION_TOLERANCE`](crate::UNIT_QUATERNION_TOLERANCE)).
///
/// Runs of the same problem in one mesh are reported once, with the first offset and a count.
pub fn validate(model: &SeModel) -> Vec<Problem> {
    let spans = spans(model);
    let mut out = Problems(Vec::new());
    match model {
        SeModel::Deployed(m) => deployed_problems(m, &spans, &mut out),
        SeModel::Draft(m) => draft_problems(m, &spans, &mut out),
    }
    out.0.iter().map(Problem::from_diagnostic).collect()
}

struct Problems(Vec<Finding>);

impl Problems {
    fn push(&mut self, offset: u64, message: impl Into<String>) {
        self.0.push(Finding {
            severity: Severity::Error,
            offset,
            message: message.into(),
        });
    }

    fn warn(&mut self, offset: u64, message: impl Into<String>) {
        self.0.push(Finding {
            severity: Severity::Warning,
            offset,
            message: message.into(),
        });
    }
}

/// Counts the items that fail a test and remembers the first, to report a run once.
struct Run {
    first: Option<(usize, String)>,
    count: u64,
}

impl Run {
    fn new() -> Self {
        Self { first: None, count: 0 }
    }

    fn hit(&mut self, index: usize, detail: impl FnOnce() -> String) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((index, detail()));
        }
    }

    fn report(self, out: &mut Problems, offset_of: impl Fn(usize) -> u64, what: &str) {
        self.report_as(Severity::Error, out, offset_of, what);
    }

    fn report_as(self, severity: Severity, out: &mut Problems, offset_of: impl Fn(usize) -> u64, what: &str) {
        if let Some((index, detail)) = self.first {
            let more = if self.count > 1 {
                format!(" ({} {what} in all)", self.count)
            } else {
                String::new()
            };
            match severity {
                Severity::Error => out.push(offset_of(index), format!("{detail}{more}")),
                Severity::Warning => out.warn(offset_of(index), format!("{detail}{more}")),
            }
        }
    }
}

fn count_without_flag<T>(out: &mut Problems, block: &Block<T>, offset: u64, what: &str, flag: &str) {
    if let Block::Absent { count } = block {
        if *count != 0 {
            out.push(offset, format!("{what} is {count} while the {flag} data flag is clear"));
        }
    }
}

fn bone_problems(out: &mut Problems, bones: &[Bone], spans: &Spans) {
    let n = bones.len();
    let parent_at = |i: usize| spans.bones.record(i) + 1;
    for (i, bone) in bones.iter().enumerate() {
        match bone.parent {
            -1 => {}
            p if p < -1 => out.push(
                parent_at(i),
                format!("bone {i} (\"{}\") has parent {p}; roots use -1", bone.name),
            ),
            p if p as usize >= n => out.push(
                parent_at(i),
                format!("bone {i} (\"{}\") has parent {p}, past the bone count {n}", bone.name),
            ),
            p if p as usize == i => out.push(parent_at(i), format!("bone {i} (\"{}\") is its own parent", bone.name)),
            _ => {}
        }
    }
    // Cycles: walk each chain once, colouring bones as visiting (1) or done (2).
    let mut state = vec![0u8; n];
    for start in 0..n {
        let mut path = Vec::new();
        let mut at = start;
        loop {
            if state[at] == 2 {
                break;
            }
            if state[at] == 1 {
                // `at` is on the current path: the path from `at` on is a cycle.
                let from = path.iter().position(|&b| b == at).unwrap_or(0);
                let cycle = &path[from..];
                if cycle.len() > 1 {
                    let first = cycle.iter().copied().min().unwrap_or(at);
                    let list: Vec<String> = cycle.iter().map(ToString::to_string).collect();
                    out.push(
                        parent_at(first),
                        format!("bones {} form a parent cycle", list.join(" -> ")),
                    );
                }
                break;
            }
            state[at] = 1;
            path.push(at);
            match bones[at].parent_index() {
                Some(p) if p < n && p != at => at = p,
                _ => break,
            }
        }
        for b in path {
            state[b] = 2;
        }
    }
}

fn face_problems(out: &mut Problems, i: usize, faces: &[[u32; 3]], vertex_count: usize, s: &MeshSpans) {
    let mut run = Run::new();
    for (j, face) in faces.iter().enumerate() {
        if let Some(&bad) = face.iter().find(|&&x| x as usize >= vertex_count) {
            run.hit(j, || {
                format!("mesh {i}: face {j} has index {bad}, past vertexCount {vertex_count}")
            });
        }
    }
    run.report(out, |j| s.faces + j as u64 * s.face_size, "faces");
}

fn weight_sum_problems(
    out: &mut Problems,
    i: usize,
    sums: impl Iterator<Item = f32>,
    offset_of: impl Fn(usize) -> u64,
) {
    let mut run = Run::new();
    for (v, sum) in sums.enumerate() {
        if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE || sum.is_nan() {
            run.hit(v, || format!("mesh {i}: vertex {v}'s weights sum to {sum}, not 1"));
        }
    }
    run.report_as(Severity::Warning, out, offset_of, "vertices");
}

/// Warns about global and local bone rotations that are not unit quaternions, one line per
/// kind with the first bone and a count.
fn rotation_warnings(out: &mut Problems, bones: &[Bone], spans: &Spans) {
    // After the record's flags byte and i32 parent: the global pose, then the local one;
    // each is a position (12 bytes) and then the rotation.
    let global_at = |i: usize| spans.bones.record(i) + 5 + 12;
    let local_at = |i: usize| global_at(i) + if bones[i].global.is_some() { 28 } else { 0 };
    for (kind, pose, offset_of) in [
        (
            "global",
            (|b: &Bone| b.global) as fn(&Bone) -> Option<Pose>,
            &global_at as &dyn Fn(usize) -> u64,
        ),
        ("local", |b: &Bone| b.local, &local_at),
    ] {
        let mut run = Run::new();
        for (i, bone) in bones.iter().enumerate() {
            let Some(pose) = pose(bone) else { continue };
            if let Some(length) = non_unit_length(pose.rotation.map(f64::from)) {
                run.hit(i, || {
                    format!(
                        "bone {i} (\"{}\"): the {kind} rotation has length {length:.6}, not 1, so it is no rotation",
                        bone.name
                    )
                });
            }
        }
        run.report_as(Severity::Warning, out, offset_of, "bones");
    }
}

fn blend_problems(out: &mut Problems, trailer: &Trailer<BlendShapes>, spans: &Spans) {
    let Some(blend) = trailer.seblend() else {
        return;
    };
    let shapes = blend.names.len();
    let mut at = spans.trailer + 16 + blend.names.iter().map(|n| n.len() as u64 + 1).sum::<u64>();
    let mut run = Run::new();
    let mut offsets = Vec::new();
    for (i, mesh) in blend.meshes.iter().enumerate() {
        for (v, vertex) in mesh.vertices.iter().enumerate() {
            at += 4;
            for delta in &vertex.deltas {
                if delta.shape as usize >= shapes {
                    offsets.push(at);
                    run.hit(offsets.len() - 1, || {
                        format!(
                            "SEBlend: mesh {i} vertex {v} moves shape {}, past the {shapes} shape names",
                            delta.shape
                        )
                    });
                }
                at += 16;
            }
        }
    }
    run.report(out, |k| offsets.get(k).copied().unwrap_or(spans.trailer), "deltas");
}

fn reserved(out: &mut Problems, offset: u64, what: &str, value: u64) {
    if value != 0 {
        out.push(offset, format!("{what} has reserved bits or bytes set ({value:#x})"));
    }
}

fn deployed_problems(m: &deployed::Model, spans: &Spans, out: &mut Problems) {
    if !m.bones.is_present() && !m.meshes.is_present() && !m.materials.is_present() {
        out.push(11, "no data block: dataFlags has none of BONE, MESH and MATERIALS");
    }
    reserved(
        out,
        11,
        "dataFlags",
        u64::from(m.other_data_flags.reserved_bits(Layout::Deployed)),
    );
    reserved(out, 12, "boneFlags", u64::from(m.bone_flags.reserved_bits()));
    reserved(out, 13, "meshFlags", u64::from(m.mesh_flags.reserved_bits()));
    reserved(
        out,
        26,
        "the header's reserved[3]",
        u64::from(u32::from_le_bytes([m.reserved[0], m.reserved[1], m.reserved[2], 0])),
    );
    count_without_flag(out, &m.bones, 14, "boneCount", "BONE");
    count_without_flag(out, &m.meshes, 18, "meshCount", "MESH");
    count_without_flag(out, &m.materials, 22, "matCount", "MATERIALS");
    bone_problems(out, m.bones.items(), spans);
    rotation_warnings(out, m.bones.items(), spans);

    let bone_count = m.bones.header_count();
    let material_count = m.materials.header_count();
    let has = |f| m.mesh_flags.contains(f);
    for (i, (mesh, s)) in m.meshes.items().iter().zip(&spans.meshes).enumerate() {
        let v = mesh.positions.len();
        if mesh.layer_count() > 0 && !has(MeshFlags::UV_SET) {
            out.push(
                s.start + 1,
                format!(
                    "mesh {i}: layerCount is {} while the UV_SET flag is clear",
                    mesh.layer_count()
                ),
            );
        }
        if mesh.max_influence > 0 && !has(MeshFlags::WEIGHTS) {
            out.push(
                s.start + 2,
                format!(
                    "mesh {i}: maxInfluence is {} while the WEIGHTS flag is clear",
                    mesh.max_influence
                ),
            );
        }
        face_problems(out, i, &mesh.faces, v, s);
        if has(MeshFlags::WEIGHTS) {
            let mut run = Run::new();
            for (k, w) in mesh.weights.iter().enumerate() {
                if u64::from(w.bone) >= bone_count {
                    run.hit(k, || {
                        format!(
                            "mesh {i}: weight {k} names bone {}, past boneCount {bone_count}",
                            w.bone
                        )
                    });
                }
            }
            run.report(out, |k| s.weights + k as u64 * s.stride, "weights");
            let m_inf = usize::from(mesh.max_influence);
            if m_inf > 0 {
                let sums = mesh
                    .weights
                    .chunks_exact(m_inf)
                    .map(|c| c.iter().map(|w| w.weight).sum::<f32>());
                weight_sum_problems(out, i, sums, |v| s.weights + (v * m_inf) as u64 * s.stride);
            }
        }
        for (k, &index) in mesh.material_indices.iter().enumerate() {
            if index != -1 && (index < 0 || index as u64 >= material_count) {
                out.push(
                    s.material_indices + 4 * k as u64,
                    format!("mesh {i}: UV layer {k}'s material index {index} is neither -1 nor below matCount {material_count}"),
                );
            }
        }
    }
    blend_problems(out, &m.trailer, spans);
}

fn draft_problems(m: &draft::Model, spans: &Spans, out: &mut Problems) {
    let flags = m.other_data_flags;
    let collision = flags.contains(DataFlags::DRAFT_COLLISION);
    let materials = flags.contains(DataFlags::DRAFT_MATERIALS);
    if !m.bones.is_present() && !m.meshes.is_present() && !collision && !materials {
        out.push(
            14,
            "no data block: dataPresenceFlags has none of BONE, MESH, COLLISION and MATERIALS",
        );
    }
    reserved(
        out,
        14,
        "dataPresenceFlags",
        u64::from(flags.reserved_bits(Layout::Draft)),
    );
    reserved(
        out,
        15,
        "boneDataPresenceFlags",
        u64::from(m.bone_flags.reserved_bits()),
    );
    reserved(
        out,
        16,
        "meshDataPresenceFlags",
        u64::from(m.mesh_flags.reserved_bits()),
    );
    reserved(out, 17, "reserved1", u64::from(u16::from_le_bytes(m.reserved1)));
    reserved(
        out,
        36,
        "reserved2",
        u64::from(u32::from_le_bytes([m.reserved2[0], m.reserved2[1], m.reserved2[2], 0])),
    );
    count_without_flag(out, &m.bones, 19, "boneCount", "BONE");
    count_without_flag(out, &m.meshes, 23, "meshCount", "MESH");
    if !collision && m.collision_count != 0 {
        out.push(
            27,
            format!(
                "colCount is {} while the COLLISION data flag is clear",
                m.collision_count
            ),
        );
    }
    if !materials && m.material_count != 0 {
        out.push(
            31,
            format!(
                "matCount is {} while the MATERIALS data flag is clear",
                m.material_count
            ),
        );
    }
    let args = m.mesh_args();
    if m.max_skin_influence > 0 && !args.presence.contains(MeshFlags::WEIGHTS) {
        out.push(
            35,
            format!(
                "maxSkinInfluence is {} while the WEIGHTS flag is clear",
                m.max_skin_influence
            ),
        );
    }
    bone_problems(out, m.bones.items(), spans);
    rotation_warnings(out, m.bones.items(), spans);

    let bone_count = m.bones.header_count();
    let material_count = u64::from(m.material_count);
    for (i, (mesh, s)) in m.meshes.items().iter().zip(&spans.meshes).enumerate() {
        let layout = VertexLayout {
            mesh: args,
            layers: mesh.uv_set_count,
        };
        if mesh.uv_set_count > 0 && !args.presence.contains(MeshFlags::UV_SET) {
            out.push(
                s.start + 1,
                format!(
                    "mesh {i}: uvSetCount is {} while the UV_SET flag is clear",
                    mesh.uv_set_count
                ),
            );
        }
        let vx = &mesh.vertices;
        face_problems(out, i, &mesh.faces, vx.positions.len(), s);
        let record = |v: usize| s.positions + v as u64 * s.stride;
        let layers = layout.uv_layers() as usize;
        if layers > 0 {
            let mut run = Run::new();
            for (k, &index) in vx.uv_materials.iter().enumerate() {
                if u64::from(index) >= material_count {
                    run.hit(k, || format!("mesh {i}: vertex {} UV layer {}'s material index {index} is past matCount {material_count}", k / layers, k % layers));
                }
            }
            // uvMaterialIndicies follow the layer's coordinates in each record.
            let mat_size = args.material_index.size();
            run.report(
                out,
                |k| record(k / layers) + 12 + 8 * layers as u64 + (k % layers) as u64 * mat_size,
                "material indices",
            );
        }
        let influences = layout.influences() as usize;
        if influences > 0 {
            let weights_at = 12
                + layout.uv_layers() * (8 + args.material_index.size())
                + if args.presence.contains(MeshFlags::NORMALS) {
                    6
                } else {
                    0
                }
                + if args.presence.contains(MeshFlags::COLOR) { 4 } else { 0 };
            let mut run = Run::new();
            for (k, &bone) in vx.bone_indices.iter().enumerate() {
                if u64::from(bone) >= bone_count {
                    run.hit(k, || {
                        format!(
                            "mesh {i}: vertex {} names bone {bone}, past boneCount {bone_count}",
                            k / influences
                        )
                    });
                }
            }
            let bone_size = args.bone_index.size();
            run.report(
                out,
                |k| record(k / influences) + weights_at + (k % influences) as u64 * bone_size,
                "bone indices",
            );
            let sums = vx
                .bone_weights
                .chunks_exact(influences)
                .map(|c| c.iter().map(|w| f16::to_f32(*w)).sum::<f32>());
            weight_sum_problems(out, i, sums, |v| record(v) + weights_at + influences as u64 * bone_size);
        }
    }
    blend_problems(out, &m.trailer, spans);
}
