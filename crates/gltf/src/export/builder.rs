//! The accessor builder of the export: [`Builder`] gathers buffer views, accessors and the
//! one binary buffer as the other parts add data, and the checks that turn scene transforms
//! into the finite `f32` values glTF nodes and channels hold.

use std::borrow::Cow;
use std::collections::HashMap;

use animbin_core::math::{Quat, Transform, Vec3};

use crate::error::{Error, Result};
use crate::glb::BinPieces;
use crate::json::{self, component, short};

/// Accessors, buffer views and the one binary buffer, built up together.
#[derive(Default)]
pub(super) struct Builder {
    pub(super) root: json::Root,
    /// The buffer, as the pieces a GLB writer streams (a large accessor's bytes are kept in
    /// the vector they were encoded into).
    pub(super) bin: BinPieces,
    /// Animation input accessors by the bits of their f32 times, shared between channels.
    times: HashMap<Vec<u32>, usize>,
    /// The nodes of meshes with morph targets and their targets' names, for `weights`
    /// channels.
    pub(super) morph_nodes: Vec<(usize, Vec<String>)>,
}

impl Builder {
    /// A buffer view of `bytes`, at the next 4-byte boundary of the buffer.
    pub(super) fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.view_of(Cow::Borrowed(bytes), target)
    }

    /// [`Builder::view`] of bytes the caller encoded: a large view keeps its vector.
    fn view_of(&mut self, bytes: Cow<'_, [u8]>, target: Option<u32>) -> usize {
        let byte_length = bytes.len();
        let byte_offset = self.bin.push(bytes);
        self.root.buffer_views.push(json::BufferView {
            buffer: 0,
            byte_offset,
            byte_length,
            target,
        });
        self.root.buffer_views.len() - 1
    }

    /// A float accessor of `dims`-component elements; `bounds` adds min and max.
    pub(super) fn floats(
        &mut self,
        values: &[f32],
        kind: &'static str,
        dims: usize,
        target: Option<u32>,
        bounds: bool,
        what: &dyn Fn() -> String,
    ) -> Result<usize> {
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(Error::Unencodable(format!(
                "{} holds a value that is not finite (element {})",
                what(),
                i / dims
            )));
        }
        let buffer_view = self.view_of(Cow::Owned(le_bytes(values, f32::to_le_bytes)), target);
        let (min, max) = if bounds {
            let mut min = vec![f32::INFINITY; dims];
            let mut max = vec![f32::NEG_INFINITY; dims];
            for chunk in values.chunks_exact(dims) {
                for (c, &v) in chunk.iter().enumerate() {
                    min[c] = min[c].min(v);
                    max[c] = max[c].max(v);
                }
            }
            (
                Some(min.into_iter().map(short).collect()),
                Some(max.into_iter().map(short).collect()),
            )
        } else {
            (None, None)
        };
        self.root.accessors.push(json::Accessor {
            buffer_view: Some(buffer_view),
            component_type: component::F32,
            normalized: false,
            count: values.len() / dims,
            kind,
            min,
            max,
            sparse: None,
        });
        Ok(self.root.accessors.len() - 1)
    }

    /// An unsigned integer accessor; `component` picks the width.
    pub(super) fn uints(
        &mut self,
        values: &[u32],
        component: u32,
        kind: &'static str,
        dims: usize,
        target: Option<u32>,
        normalized: bool,
    ) -> usize {
        let bytes = match component {
            component::U8 => values.iter().map(|&v| v as u8).collect(),
            component::U16 => le_bytes(values, |v| (v as u16).to_le_bytes()),
            _ => le_bytes(values, u32::to_le_bytes),
        };
        let buffer_view = self.view_of(Cow::Owned(bytes), target);
        self.root.accessors.push(json::Accessor {
            buffer_view: Some(buffer_view),
            component_type: component,
            normalized,
            count: values.len() / dims,
            kind,
            min: None,
            max: None,
            sparse: None,
        });
        self.root.accessors.len() - 1
    }

    /// The input accessor for these times, shared when another channel has the same.
    pub(super) fn times(&mut self, times: &[f32], what: &dyn Fn() -> String) -> Result<usize> {
        let bits: Vec<u32> = times.iter().map(|t| t.to_bits()).collect();
        if let Some(&index) = self.times.get(&bits) {
            return Ok(index);
        }
        let index = self.floats(times, "SCALAR", 1, None, true, what)?;
        self.times.insert(bits, index);
        Ok(index)
    }

    /// Adds to `out` a channel that moves `path` of `node`, with a sampler of `times` (seconds)
    /// and `values` (`dims` floats of accessor type `kind` a key).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn channel(
        &mut self,
        out: &mut json::Animation,
        node: usize,
        path: &'static str,
        interpolation: &'static str,
        (times, values): (&[f32], &[f32]),
        (kind, dims): (&'static str, usize),
        what: &dyn Fn() -> String,
    ) -> Result<()> {
        let input = self.times(times, what)?;
        let output = self.floats(values, kind, dims, None, false, what)?;
        out.samplers.push(json::Sampler {
            input,
            interpolation,
            output,
        });
        out.channels.push(json::Channel {
            sampler: out.samplers.len() - 1,
            target: json::ChannelTarget { node, path },
        });
        Ok(())
    }

    pub(super) fn node(&mut self, node: json::Node) -> usize {
        self.root.nodes.push(node);
        self.root.nodes.len() - 1
    }
}

/// The little-endian bytes of `values`, in one allocation of the right size (collecting a
/// `flat_map` grows the vector by doubling, copying it each time).
fn le_bytes<T: Copy, const N: usize>(values: &[T], bytes: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * N);
    for &v in values {
        out.extend_from_slice(&bytes(v));
    }
    out
}

pub(super) fn finite3(v: Vec3<f64>, what: &dyn Fn() -> String) -> Result<[f32; 3]> {
    let out = [v.x as f32, v.y as f32, v.z as f32];
    if out.iter().all(|c| c.is_finite()) {
        Ok(out)
    } else {
        Err(Error::Unencodable(format!("{} is not finite: {v:?}", what())))
    }
}

/// A unit quaternion in f32; a zero or non-finite one is an error.
pub(super) fn unit_quat(q: Quat<f64>, what: &dyn Fn() -> String) -> Result<[f32; 4]> {
    let n = q.norm();
    if !(n.is_finite() && n > 0.0) {
        return Err(Error::Unencodable(format!("{} is not a rotation: {q:?}", what())));
    }
    let q = q.map(|c| c / n);
    Ok([q.x as f32, q.y as f32, q.z as f32, q.w as f32])
}

/// The node TRS of a local transform, leaving out identity parts.
pub(super) fn node_trs(node: &mut json::Node, t: &Transform, what: &dyn Fn() -> String) -> Result<()> {
    let tr = finite3(t.translation, what)?;
    let rot = unit_quat(t.rotation, what)?;
    let sc = finite3(t.scale, what)?;
    node.translation = (tr != [0.0; 3]).then(|| tr.map(short));
    node.rotation = (rot != [0.0, 0.0, 0.0, 1.0]).then(|| rot.map(short));
    node.scale = (sc != [1.0; 3]).then(|| sc.map(short));
    Ok(())
}
