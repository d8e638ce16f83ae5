//! The accessor builder of the export: [`Builder`] gathers buffer views, accessors and the
//! one binary buffer as the other parts add data, and the checks that turn scene transforms
//! into the finite `f32` values glTF nodes and channels hold.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use animbin_core::math::{Quat, Transform, Vec3};
use animbin_core::scene::Scene;
use zerocopy::{FromBytes, IntoBytes};

use crate::error::{Error, Result};
use crate::glb::{BinPieces, Produce, SceneArray};
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
    /// The times the last channel used and their accessor: the channels of one track, and
    /// often every track, share their times, and comparing is far cheaper than hashing them.
    last_times: Option<(Vec<u32>, usize)>,
    /// The nodes of meshes with morph targets and their targets' names, for `weights`
    /// channels.
    pub(super) morph_nodes: Vec<(usize, Vec<String>)>,
    /// The scene the encoding keeps, whose arrays are written from it rather than copied.
    kept: Option<Arc<Scene>>,
}

/// The `f32` values of an accessor: computed for it, or an array of the kept scene.
pub(super) enum Floats<'s> {
    /// Values made for the accessor, kept in their vector.
    Owned(Vec<f32>),
    /// An array of the kept scene, written from it ([`Builder::kept`]).
    Kept(&'s [f32], SceneArray),
    /// `len` values computed from the kept scene when the file is written, which the caller
    /// has checked are finite (no bounds are taken of them).
    Produced { len: usize, produce: Produce },
}

impl Floats<'_> {
    /// The values at hand (none for produced ones).
    fn values(&self) -> &[f32] {
        match self {
            Self::Owned(values) => values,
            Self::Kept(values, _) => values,
            Self::Produced { .. } => &[],
        }
    }

    /// How many values.
    fn len(&self) -> usize {
        match self {
            Self::Produced { len, .. } => *len,
            other => other.values().len(),
        }
    }
}

impl Builder {
    /// A builder that writes the arrays of `kept` from it where glTF stores them as they
    /// are ([`Builder::kept`]).
    pub(super) fn keeping(kept: Option<Arc<Scene>>) -> Self {
        Self {
            kept,
            ..Self::default()
        }
    }

    /// `array`, whose bytes in `scene` are `bytes`, as `f32` values to write from the scene,
    /// when `scene` is the one the encoding keeps and the target is little-endian (glTF's
    /// order): `None` means the caller copies them.
    pub(super) fn kept<'s>(&self, scene: &'s Scene, array: SceneArray) -> Option<Floats<'s>> {
        let bytes = self.kept_bytes(scene, array)?;
        Some(Floats::Kept(<[f32]>::ref_from_bytes(bytes).ok()?, array))
    }

    /// The scene the encoding keeps, when it is `scene` (so values computed from it can be
    /// computed again when the file is written) and the target is little-endian.
    pub(super) fn kept_scene(&self, scene: &Scene) -> Option<Arc<Scene>> {
        self.kept
            .as_ref()
            .filter(|kept| cfg!(target_endian = "little") && std::ptr::eq(&***kept, scene))
            .cloned()
    }

    /// The bytes of `array` when it can be written from `scene` (see [`Builder::kept`]).
    pub(super) fn kept_bytes<'s>(&self, scene: &'s Scene, array: SceneArray) -> Option<&'s [u8]> {
        self.kept_scene(scene).and_then(|_| array.bytes(scene))
    }

    /// A buffer view of `bytes`, at the next 4-byte boundary of the buffer.
    pub(super) fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        let byte_offset = self.bin.push(Cow::Borrowed(bytes));
        self.add_view(byte_offset, bytes.len(), target)
    }

    /// A buffer view of bytes the caller encoded: a large view keeps its vector.
    fn owned_view(&mut self, bytes: Vec<u8>, target: Option<u32>) -> usize {
        let byte_length = bytes.len();
        let byte_offset = self.bin.push(Cow::Owned(bytes));
        self.add_view(byte_offset, byte_length, target)
    }

    /// A buffer view of `array` of the kept scene, whose bytes are `bytes`.
    pub(super) fn kept_view(&mut self, bytes: &[u8], array: SceneArray, target: Option<u32>) -> usize {
        let byte_offset = match &self.kept {
            Some(kept) => self.bin.push_scene(kept, array, bytes),
            None => self.bin.push(Cow::Borrowed(bytes)),
        };
        self.add_view(byte_offset, bytes.len(), target)
    }

    fn add_view(&mut self, byte_offset: usize, byte_length: usize, target: Option<u32>) -> usize {
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
        values: Floats<'_>,
        kind: &'static str,
        dims: usize,
        target: Option<u32>,
        bounds: bool,
        what: &dyn Fn() -> String,
    ) -> Result<usize> {
        let flat = values.values();
        if let Some(i) = flat.iter().position(|v| !v.is_finite()) {
            return Err(Error::Unencodable(format!(
                "{} holds a value that is not finite (element {})",
                what(),
                i / dims
            )));
        }
        let count = values.len() / dims;
        let (min, max) = if bounds {
            let mut min = vec![f32::INFINITY; dims];
            let mut max = vec![f32::NEG_INFINITY; dims];
            for chunk in flat.chunks_exact(dims) {
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
        let buffer_view = match values {
            Floats::Owned(values) => {
                let byte_length = values.len() * 4;
                let byte_offset = self.bin.push_floats(values);
                self.add_view(byte_offset, byte_length, target)
            }
            Floats::Kept(values, array) => self.kept_view(values.as_bytes(), array, target),
            Floats::Produced { len, produce } => {
                let byte_offset = self.bin.push_produced(len * 4, produce);
                self.add_view(byte_offset, len * 4, target)
            }
        };
        Ok(self.accessor(buffer_view, component::F32, false, count, kind, (min, max)))
    }

    /// An accessor of `count` elements of `kind` in `buffer_view`.
    pub(super) fn accessor(
        &mut self,
        buffer_view: usize,
        component_type: u32,
        normalized: bool,
        count: usize,
        kind: &'static str,
        (min, max): (Option<Vec<f64>>, Option<Vec<f64>>),
    ) -> usize {
        self.root.accessors.push(json::Accessor {
            buffer_view: Some(buffer_view),
            component_type,
            normalized,
            count,
            kind,
            min,
            max,
            sparse: None,
        });
        self.root.accessors.len() - 1
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
        let buffer_view = self.owned_view(bytes, target);
        self.accessor(
            buffer_view,
            component,
            normalized,
            values.len() / dims,
            kind,
            (None, None),
        )
    }

    /// The input accessor for these times, shared when another channel has the same.
    pub(super) fn times(&mut self, times: Vec<f32>, what: &dyn Fn() -> String) -> Result<usize> {
        // Looked up by the times' own bits: a key is made only for new times.
        let bits = <[u32]>::ref_from_bytes(times.as_bytes()).map_or_else(
            |_| Cow::Owned(times.iter().map(|t| t.to_bits()).collect()),
            Cow::Borrowed,
        );
        if let Some((_, index)) = self.last_times.as_ref().filter(|(last, _)| *last == *bits) {
            return Ok(*index);
        }
        let bits = bits.into_owned();
        let index = match self.times.get(&bits) {
            Some(&index) => index,
            None => {
                let index = self.floats(Floats::Owned(times), "SCALAR", 1, None, true, what)?;
                self.times.insert(bits.clone(), index);
                index
            }
        };
        self.last_times = Some((bits, index));
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
        (times, values): (Vec<f32>, Floats<'_>),
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
    f32x3(v).ok_or_else(|| Error::Unencodable(format!("{} is not finite: {v:?}", what())))
}

/// `v` in f32, when every component is finite there.
pub(super) fn f32x3(v: Vec3<f64>) -> Option<[f32; 3]> {
    let out = [v.x as f32, v.y as f32, v.z as f32];
    out.iter().all(|c| c.is_finite()).then_some(out)
}

/// A unit quaternion in f32; a zero or non-finite one is an error.
pub(super) fn unit_quat(q: Quat<f64>, what: &dyn Fn() -> String) -> Result<[f32; 4]> {
    unit_f32x4(q).ok_or_else(|| Error::Unencodable(format!("{} is not a rotation: {q:?}", what())))
}

/// `q` made unit length, in f32, when it has a finite length that is not zero.
pub(super) fn unit_f32x4(q: Quat<f64>) -> Option<[f32; 4]> {
    let n = q.norm();
    if !(n.is_finite() && n > 0.0) {
        return None;
    }
    // Unit to f32's rounding (as read from a glTF) is written as it is: dividing again would
    // move the last bits on every trip.
    let q = if (n - 1.0).abs() <= 1e-6 { q } else { q.map(|c| c / n) };
    Some([q.x as f32, q.y as f32, q.z as f32, q.w as f32])
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
