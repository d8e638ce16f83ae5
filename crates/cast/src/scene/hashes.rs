//! [`NodeHashes`]: the node hashes a Cast writer hands out, as the reference writer does.

use crate::layout::NodeKind;
use crate::model::{Node, Property, Value};

/// The first hash the reference writer hands out; it counts up from there.
pub const FIRST_HASH: u64 = 0x534E_4957_5254_5250;

/// Hands out node hashes as the reference writer does: counting up from [`FIRST_HASH`], one
/// per node in the order the nodes are made.
///
/// ```
/// use animbin_cast::{FIRST_HASH, NodeHashes, NodeKind, Value};
///
/// let mut hashes = NodeHashes::new();
/// assert_eq!(hashes.node(NodeKind::Root).hash, FIRST_HASH);
/// let curve = hashes.curve("tag_origin", "tx", &[0, 10], Value::Float(vec![0.0, 1.0]), "absolute");
/// assert_eq!(curve.hash, FIRST_HASH + 1);
/// ```
#[derive(Debug, Clone)]
pub struct NodeHashes(u64);

impl Default for NodeHashes {
    fn default() -> Self {
        Self::new()
    }
}

impl NodeHashes {
    /// Hashes from [`FIRST_HASH`] on.
    pub fn new() -> Self {
        Self(FIRST_HASH)
    }

    /// A new node of `kind` with the next hash.
    pub fn node(&mut self, kind: NodeKind) -> Node {
        let node = Node::new(kind, self.0);
        self.0 = self.0.wrapping_add(1);
        node
    }

    /// A curve node for channel `kp` of `bone`: the key frames (`kb`, in the narrowest
    /// integer width), the values (`kv`) and the mode (`m`).
    pub fn curve(&mut self, bone: &str, kp: &'static str, frames: &[u32], values: Value, mode: &'static str) -> Node {
        let mut curve = self.node(NodeKind::Curve);
        // Its five properties, without growing the list twice (x8an files make a curve of
        // every channel of every slot).
        curve.properties.reserve_exact(5);
        curve.push(Property::string("nn", bone.to_owned()));
        curve.push(Property::string("kp", kp));
        curve.push(Property::new("kb", Value::narrowest(frames)));
        curve.push(Property::new("kv", values));
        curve.push(Property::string("m", mode));
        curve
    }
}
