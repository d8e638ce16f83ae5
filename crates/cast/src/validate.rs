//! The rules a Cast file can break and still read.
//!
//! Every documented property of every node type has a listed set of types, a shape (one
//! value or an array) and may be required; documented strings with listed values must hold
//! one of them; hashes must name a node of the right type in their scope; indices must stay
//! inside the arrays they index; arrays that run per vertex must have one entry per vertex.
//! Subtrees under unknown node ids are kept but not checked (their meaning is unknown), and
//! undocumented properties of known nodes are allowed. The format calls every one of these
//! rules an error.

use std::collections::HashMap;
use std::fmt;

use animbin_core::{Diagnostic, Location, Problem, Severity};

use crate::layout::{NodeId, NodeKind, PropertyType};
use crate::model::{CastFile, Node};
use crate::nodes::{is_material_slot, layer_number};

/// One broken rule: where (the node's path, the property) and what; [`validate`] gives it
/// out as a [`Problem`] in its words ([`Problem::from_diagnostic`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// The node, as a path from the top: `root 0 > modl 0 ("body") > mesh 1 ("head")`, each
    /// step the node's id, its index among its siblings and its name when it has one.
    node: String,
    /// The property concerned, when the problem is about one.
    property: Option<String>,
    /// What is wrong.
    kind: Rule,
}

/// The rule a [`Finding`] breaks, with what the message needs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
    /// A top-level node that is not a Root.
    NotARoot {
        /// Its id.
        id: NodeId,
    },
    /// A known node under a parent type that may not hold it.
    MisplacedNode {
        /// The node's type.
        kind: NodeKind,
        /// The parent's id.
        parent: NodeId,
    },
    /// A second Skeleton in one Model.
    SecondSkeleton,
    /// Two children of one Root with the same hash.
    DuplicateHash {
        /// The hash.
        hash: u64,
        /// The earlier child with it.
        first: String,
    },
    /// Two properties of one node with the same name.
    DuplicateProperty,
    /// A documented property with a type it may not have.
    WrongType {
        /// The type in the file.
        found: PropertyType,
        /// The types allowed, as text.
        expected: String,
    },
    /// A single-valued property whose `arrayLength` is not 1.
    NotSingle {
        /// The `arrayLength`.
        length: usize,
    },
    /// A required property that is absent.
    Missing {
        /// Why it is required, when it is only required beside another property.
        because: Option<String>,
    },
    /// A documented string outside its listed values.
    NotAllowed {
        /// The value.
        value: String,
        /// The listed values.
        allowed: &'static [&'static str],
    },
    /// A hash that names no node in its scope.
    DanglingHash {
        /// The hash.
        hash: u64,
        /// Where it is looked up.
        scope: &'static str,
    },
    /// A hash that names a node of another type.
    HashToWrongNode {
        /// The hash.
        hash: u64,
        /// The type of the node it names.
        found: NodeId,
        /// The types it may name.
        expected: &'static str,
    },
    /// An array whose length disagrees with another one.
    LengthMismatch {
        /// The `arrayLength`.
        length: u64,
        /// The length it must have.
        expected: u64,
        /// Where the expected length comes from.
        of: String,
    },
    /// A layer count (`ul`, `cl`) that names a layer which is absent.
    MissingLayer {
        /// The count.
        count: u32,
    },
    /// Face indices that are not a whole number of triangles.
    NotTriangles {
        /// The number of indices.
        length: usize,
    },
    /// An index at or past the length of the array it indexes.
    IndexOutOfRange {
        /// The first offending entry's position.
        position: usize,
        /// Its value.
        index: u32,
        /// The length of the indexed array.
        limit: u64,
        /// What is indexed (`vertices`, `bones`).
        of: &'static str,
        /// How many more entries are out of range.
        more: usize,
    },
    /// A bone parent below -1 or at or past the bone count.
    ParentOutOfRange {
        /// The parent index.
        parent: i32,
        /// The number of bones.
        bone_count: usize,
    },
    /// A bone that is its own parent.
    OwnParent,
    /// A bone that is its own ancestor.
    ParentCycle,
}

impl Diagnostic for Finding {
    /// The format calls every rule that `validate` checks an error.
    fn severity(&self) -> Severity {
        Severity::Error
    }

    /// The node's path, and the property when there is one.
    fn location(&self) -> Location {
        match &self.property {
            Some(p) => Location::Item(format!("{} property {p:?}", self.node)),
            None => Location::Item(self.node.clone()),
        }
    }

    fn message(&self) -> String {
        match &self.kind {
            Rule::NotARoot { id } => format!("a top-level node must be a Root (root), not {id}"),
            Rule::MisplacedNode { kind, parent } => match parent.kind() {
                Some(p) => format!("a {kind} cannot be a child of a {p}"),
                None => format!("a {kind} cannot be a child of a {parent} node"),
            },
            Rule::SecondSkeleton => "a second Skeleton in one Model".into(),
            Rule::DuplicateHash { hash, first } => {
                format!("hash {hash:#018x} is also the hash of {first}, in the same Root")
            }
            Rule::DuplicateProperty => "a second property of this name in one node".into(),
            Rule::WrongType { found, expected } => format!("type {found} is not {expected}"),
            Rule::NotSingle { length } => format!("holds one value, not {length}"),
            Rule::Missing { because: None } => "is required and missing".into(),
            Rule::Missing { because: Some(b) } => format!("is missing, though {b}"),
            Rule::NotAllowed { value, allowed } => {
                format!("is {value:?}, not one of {}", allowed.join(", "))
            }
            Rule::DanglingHash { hash, scope } => format!("names hash {hash:#018x}, which no {scope} has"),
            Rule::HashToWrongNode { hash, found, expected } => {
                format!("names hash {hash:#018x}, a {found} node, not a {expected}")
            }
            Rule::LengthMismatch { length, expected, of } => {
                format!("has {length} elements, not {expected} ({of})")
            }
            Rule::MissingLayer { count } => format!("is missing, though the layer count is {count}"),
            Rule::NotTriangles { length } => format!("has {length} indices, not a multiple of 3"),
            Rule::IndexOutOfRange {
                position,
                index,
                limit,
                of,
                more,
            } => {
                let also = if *more > 0 {
                    format!(" (and {more} more entries)")
                } else {
                    String::new()
                };
                format!("entry {position} is {index}, not below the {limit} {of}{also}")
            }
            Rule::ParentOutOfRange { parent, bone_count } => {
                format!("parent {parent} is neither -1 nor one of the {bone_count} bones")
            }
            Rule::OwnParent => "the bone is its own parent".into(),
            Rule::ParentCycle => "the bone is its own ancestor (a parent cycle)".into(),
        }
    }
}

/// `path: property "x": message`, or `path: message`.
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message())
    }
}

use PropertyType::{Byte, Float, Integer, Long, Short, String as Str, Vec2 as V2, Vec3 as V3, Vec4 as V4};

/// `b`, `h` or `i`: an index buffer or count.
const INDEX: &[PropertyType] = &[Byte, Short, Integer];
const MODES: &[&str] = &["additive", "absolute", "relative"];

/// One documented property: its types, whether it holds one value, whether it is required,
/// and the values a string may take (empty: any).
struct Spec {
    name: &'static str,
    types: &'static [PropertyType],
    single: bool,
    required: bool,
    values: &'static [&'static str],
}

const fn one(name: &'static str, types: &'static [PropertyType]) -> Spec {
    Spec {
        name,
        types,
        single: true,
        required: false,
        values: &[],
    }
}

const fn array(name: &'static str, types: &'static [PropertyType]) -> Spec {
    Spec {
        single: false,
        ..one(name, types)
    }
}

const fn required(spec: Spec) -> Spec {
    Spec { required: true, ..spec }
}

const fn listed(spec: Spec, values: &'static [&'static str]) -> Spec {
    Spec { values, ..spec }
}

const MODEL: &[Spec] = &[one("n", &[Str]), one("p", &[V3]), one("r", &[V4]), one("s", &[V3])];
const MESH: &[Spec] = &[
    one("n", &[Str]),
    required(array("vp", &[V3])),
    array("vn", &[V3]),
    array("vt", &[V3]),
    one("ul", INDEX),
    one("cl", INDEX),
    array("vc", &[Integer]),
    array("wb", INDEX),
    array("wv", &[Float]),
    one("mi", INDEX),
    required(array("f", INDEX)),
    listed(one("sm", &[Str]), &["linear", "quaternion"]),
    one("m", &[Long]),
];
const UV_LAYER: Spec = array("u%d", &[V2]);
const COLOR_LAYER: Spec = array("c%d", &[Integer, V4]);
const HAIR: &[Spec] = &[
    one("n", &[Str]),
    required(array("se", INDEX)),
    required(array("pt", &[V3])),
    one("m", &[Long]),
];
const BLEND_SHAPE: &[Spec] = &[
    required(one("n", &[Str])),
    required(one("b", &[Long])),
    required(array("vi", INDEX)),
    required(array("vp", &[V3])),
    array("ts", &[Float]),
];
const BONE: &[Spec] = &[
    required(one("n", &[Str])),
    one("p", &[Integer]),
    one("ssc", &[Byte]),
    one("lp", &[V3]),
    one("lr", &[V4]),
    one("wp", &[V3]),
    one("wr", &[V4]),
    one("s", &[V3]),
];
const IK_HANDLE: &[Spec] = &[
    one("n", &[Str]),
    required(one("sb", &[Long])),
    required(one("eb", &[Long])),
    one("tb", &[Long]),
    one("to", &[V3]),
    one("pv", &[Long]),
    one("pb", &[Long]),
    one("tr", &[Byte]),
];
const CONSTRAINT: &[Spec] = &[
    one("n", &[Str]),
    required(listed(one("ct", &[Str]), &["pt", "or", "sc"])),
    required(one("cb", &[Long])),
    required(one("tb", &[Long])),
    one("mo", &[Byte]),
    one("co", &[V3, V4]),
    one("wt", &[Float]),
    one("sx", &[Byte]),
    one("sy", &[Byte]),
    one("sz", &[Byte]),
];
const MATERIAL: &[Spec] = &[required(one("n", &[Str])), required(one("t", &[Str]))];
const MATERIAL_SLOT: Spec = one("slot", &[Long]);
const FILE: &[Spec] = &[required(one("p", &[Str]))];
const COLOR: &[Spec] = &[
    one("n", &[Str]),
    listed(one("cs", &[Str]), &["srgb", "linear"]),
    required(one("rgba", &[V4])),
];
const ANIMATION: &[Spec] = &[one("n", &[Str]), required(one("fr", &[Float])), one("lo", &[Byte])];
const KEY_PROPERTIES: &[&str] = &["rq", "tx", "ty", "tz", "sx", "sy", "sz", "bs", "vb"];
const CURVE: &[Spec] = &[
    required(one("nn", &[Str])),
    required(listed(one("kp", &[Str]), KEY_PROPERTIES)),
    required(array("kb", INDEX)),
    required(array("kv", &[Byte, Short, Integer, Float, V4])),
    required(listed(one("m", &[Str]), MODES)),
    one("ab", &[Float]),
];
const CURVE_MODE_OVERRIDE: &[Spec] = &[
    required(one("nn", &[Str])),
    required(listed(one("m", &[Str]), MODES)),
    one("ot", &[Byte]),
    one("or", &[Byte]),
    one("os", &[Byte]),
];
const NOTIFICATION_TRACK: &[Spec] = &[required(one("n", &[Str])), required(array("kb", INDEX))];
const INSTANCE: &[Spec] = &[
    one("n", &[Str]),
    required(one("rf", &[Long])),
    required(one("p", &[V3])),
    required(one("r", &[V4])),
    required(one("s", &[V3])),
];
const METADATA: &[Spec] = &[
    one("a", &[Str]),
    one("s", &[Str]),
    listed(one("up", &[Str]), &["x", "y", "z"]),
    one("sr", &[Str]),
];

/// The documented properties of a node type with fixed names.
fn specs(kind: NodeKind) -> &'static [Spec] {
    match kind {
        NodeKind::Model => MODEL,
        NodeKind::Mesh => MESH,
        NodeKind::Hair => HAIR,
        NodeKind::BlendShape => BLEND_SHAPE,
        NodeKind::Bone => BONE,
        NodeKind::IkHandle => IK_HANDLE,
        NodeKind::Constraint => CONSTRAINT,
        NodeKind::Material => MATERIAL,
        NodeKind::File => FILE,
        NodeKind::Color => COLOR,
        NodeKind::Animation => ANIMATION,
        NodeKind::Curve => CURVE,
        NodeKind::CurveModeOverride => CURVE_MODE_OVERRIDE,
        NodeKind::NotificationTrack => NOTIFICATION_TRACK,
        NodeKind::Instance => INSTANCE,
        NodeKind::Metadata => METADATA,
        NodeKind::Root | NodeKind::Skeleton => &[],
    }
}

/// The spec of property `name` of a `kind` node, if it is documented (numbered layers and
/// material slots included).
fn spec_for(kind: NodeKind, name: &str) -> Option<&'static Spec> {
    if let Some(spec) = specs(kind).iter().find(|s| s.name == name) {
        return Some(spec);
    }
    match kind {
        NodeKind::Mesh if name.strip_prefix('u').and_then(layer_number).is_some() => Some(&UV_LAYER),
        NodeKind::Mesh if name.strip_prefix('c').and_then(layer_number).is_some() => Some(&COLOR_LAYER),
        NodeKind::Material if is_material_slot(name) => Some(&MATERIAL_SLOT),
        _ => None,
    }
}

fn type_list(types: &[PropertyType]) -> String {
    let names: Vec<&str> = types.iter().map(|t| t.name()).collect();
    match names.as_slice() {
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => String::new(),
    }
}

/// Collects problems as the walk finds them.
struct Checker {
    problems: Vec<Finding>,
    /// Each scope's children by hash (the first of each, as `Node::child_by_hash` finds
    /// them), made when a reference first looks into that scope: a Model may hold any number
    /// of Meshes that each name a Material, and searching its children for each was
    /// quadratic. Keyed by the scope's address; the tree does not change while it is checked.
    children_by_hash: HashMap<usize, HashMap<u64, usize>>,
}

/// One node and where it is.
#[derive(Clone, Copy)]
struct At<'a> {
    node: &'a Node,
    path: &'a str,
}

impl Checker {
    fn push(&mut self, at: At<'_>, property: Option<&str>, kind: Rule) {
        self.problems.push(Finding {
            node: at.path.to_string(),
            property: property.map(str::to_string),
            kind,
        });
    }

    /// Checks `node` (whose parent is `parent`, `None` at the top) and its subtree. The
    /// reader bounds the depth, so this recursion is bounded too.
    fn node(&mut self, node: &Node, path: &str, parent: Option<&Node>) {
        let at = At { node, path };
        let kind = node.kind();
        match (parent, kind) {
            (None, Some(NodeKind::Root)) => {}
            (None, _) => self.push(at, None, Rule::NotARoot { id: node.id }),
            (Some(p), Some(k)) => {
                let allowed = p.kind().is_some_and(|pk| pk.children().contains(&k));
                if !allowed {
                    self.push(at, None, Rule::MisplacedNode { kind: k, parent: p.id });
                }
            }
            (Some(_), None) => {}
        }
        // Subtrees of unknown ids are kept, not checked.
        let Some(kind) = kind else { return };
        self.properties(at, kind);
        match kind {
            NodeKind::Root => self.root(at),
            NodeKind::Model => self.model(at),
            NodeKind::Skeleton => self.skeleton(at),
            NodeKind::Material => self.references(at, is_material_slot, &[NodeKind::File, NodeKind::Color]),
            NodeKind::Instance => self.references(at, |name| name == "rf", &[NodeKind::File]),
            NodeKind::Curve => self.curve(at),
            NodeKind::Constraint => self.constraint_offset(at),
            _ => {}
        }
        for (i, child) in node.children.iter().enumerate() {
            let child_path = format!("{path} > {}", crate::write::label(i, child));
            self.node(child, &child_path, Some(node));
        }
    }

    /// Types, shapes, listed values, required and duplicated properties.
    fn properties(&mut self, at: At<'_>, kind: NodeKind) {
        for (i, p) in at.node.properties.iter().enumerate() {
            if at.node.properties[..i].iter().any(|q| q.name == p.name) {
                self.push(at, Some(&p.name), Rule::DuplicateProperty);
            }
            let Some(spec) = spec_for(kind, &p.name) else { continue };
            let found = p.value.kind();
            if !spec.types.contains(&found) {
                self.push(
                    at,
                    Some(&p.name),
                    Rule::WrongType {
                        found,
                        expected: type_list(spec.types),
                    },
                );
                continue;
            }
            if spec.single && p.value.len() != 1 {
                self.push(at, Some(&p.name), Rule::NotSingle { length: p.value.len() });
                continue;
            }
            if let (false, Some(value)) = (spec.values.is_empty(), p.value.as_str()) {
                if !spec.values.contains(&value) {
                    self.push(
                        at,
                        Some(&p.name),
                        Rule::NotAllowed {
                            value: value.to_string(),
                            allowed: spec.values,
                        },
                    );
                }
            }
        }
        for spec in specs(kind).iter().filter(|s| s.required) {
            if at.node.property(spec.name).is_none() {
                self.push(at, Some(spec.name), Rule::Missing { because: None });
            }
        }
    }

    /// The children of one Root have distinct hashes.
    fn root(&mut self, at: At<'_>) {
        let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        for (i, child) in at.node.children.iter().enumerate() {
            if let Some(&first) = seen.get(&child.hash) {
                let first = format!("{} > {}", at.path, crate::write::label(first, &at.node.children[first]));
                let child_path = format!("{} > {}", at.path, crate::write::label(i, child));
                self.push(
                    At {
                        node: child,
                        path: &child_path,
                    },
                    None,
                    Rule::DuplicateHash {
                        hash: child.hash,
                        first,
                    },
                );
            } else {
                seen.insert(child.hash, i);
            }
        }
    }

    /// A single Skeleton; each mesh, hair and blend shape against the model's other nodes.
    fn model(&mut self, at: At<'_>) {
        let model = at.node;
        let bone_count = model
            .children_of(NodeKind::Skeleton)
            .next()
            .map(|s| s.children_of(NodeKind::Bone).count());
        for (i, child) in model.children.iter().enumerate() {
            let path = format!("{} > {}", at.path, crate::write::label(i, child));
            let child_at = At {
                node: child,
                path: &path,
            };
            match child.kind() {
                Some(NodeKind::Skeleton) if model.children[..i].iter().any(|c| c.is(NodeKind::Skeleton)) => {
                    self.push(child_at, None, Rule::SecondSkeleton);
                }
                Some(NodeKind::Mesh) => {
                    self.reference(child_at, "m", model, "child of the same Model", &[NodeKind::Material]);
                    self.mesh(child_at, bone_count.unwrap_or(0));
                }
                Some(NodeKind::Hair) => {
                    self.reference(child_at, "m", model, "child of the same Model", &[NodeKind::Material]);
                    self.hair(child_at);
                }
                Some(NodeKind::BlendShape) => {
                    let base = self.reference(child_at, "b", model, "child of the same Model", &[NodeKind::Mesh]);
                    self.blend_shape(child_at, base);
                }
                _ => {}
            }
        }
    }

    /// Checks that the hash in property `name` of `at` names a child of `scope` of one of
    /// `kinds`; returns that child.
    fn reference<'a>(
        &mut self,
        at: At<'_>,
        name: &str,
        scope: &'a Node,
        scope_name: &'static str,
        kinds: &'static [NodeKind],
    ) -> Option<&'a Node> {
        let hash = at.node.hash_value(name)?;
        let children = self
            .children_by_hash
            .entry(std::ptr::from_ref(scope) as usize)
            .or_insert_with(|| scope.child_indices_by_hash());
        let Some(target) = children.get(&hash).map(|&i| &scope.children[i]) else {
            self.push(
                at,
                Some(name),
                Rule::DanglingHash {
                    hash,
                    scope: scope_name,
                },
            );
            return None;
        };
        if !kinds.iter().any(|&k| target.is(k)) {
            let expected = match kinds {
                [NodeKind::File, NodeKind::Color] => "File or Color",
                [k] => k.name(),
                _ => "node of another type",
            };
            self.push(
                at,
                Some(name),
                Rule::HashToWrongNode {
                    hash,
                    found: target.id,
                    expected,
                },
            );
            return None;
        }
        Some(target)
    }

    /// Hash properties of a node that name its own children (material slots, `rf`).
    fn references(&mut self, at: At<'_>, is_reference: fn(&str) -> bool, kinds: &'static [NodeKind]) {
        for p in at.node.properties.iter().filter(|p| is_reference(&p.name)) {
            self.reference(at, &p.name, at.node, "child of this node", kinds);
        }
    }

    fn length(&mut self, at: At<'_>, name: &str, length: usize, expected: u64, of: impl Into<String>) {
        if length as u64 != expected {
            self.push(
                at,
                Some(name),
                Rule::LengthMismatch {
                    length: length as u64,
                    expected,
                    of: of.into(),
                },
            );
        }
    }

    fn indices_below(&mut self, at: At<'_>, name: &str, limit: u64, of: &'static str) {
        let Some(values) = at.node.indices(name) else { return };
        let mut out = values.iter().enumerate().filter(|&(_, v)| u64::from(v) >= limit);
        if let Some((position, index)) = out.next() {
            let more = out.count();
            self.push(
                at,
                Some(name),
                Rule::IndexOutOfRange {
                    position,
                    index,
                    limit,
                    of,
                    more,
                },
            );
        }
    }

    fn mesh(&mut self, at: At<'_>, bone_count: usize) {
        let mesh = at.node;
        let vertices = mesh.vec3s("vp").map(|v| v.len() as u64);
        if let Some(v) = vertices {
            for name in ["vn", "vt"] {
                if let Some(values) = mesh.vec3s(name) {
                    self.length(at, name, values.len(), v, "the vertex count");
                }
            }
            if let Some(values) = mesh.integers("vc") {
                self.length(at, "vc", values.len(), v, "the vertex count");
            }
        }
        for (prefix, count_name) in [('u', "ul"), ('c', "cl")] {
            let mut first = None;
            for p in &mesh.properties {
                let Some(layer) = p.name.strip_prefix(prefix).and_then(layer_number) else {
                    continue;
                };
                let valid = spec_for(NodeKind::Mesh, &p.name).is_some_and(|s| s.types.contains(&p.value.kind()));
                if let (Some(v), true) = (vertices, valid) {
                    self.length(at, &p.name, p.value.len(), v, "the vertex count");
                }
                first.get_or_insert(layer);
            }
            let count = mesh.index_value(count_name);
            match (first, count) {
                (Some(layer), None) if mesh.property(count_name).is_none() => self.push(
                    at,
                    Some(count_name),
                    Rule::Missing {
                        because: Some(format!("{prefix}{layer} is present")),
                    },
                ),
                (_, Some(count)) => {
                    for layer in 0..count {
                        let name = format!("{prefix}{layer}");
                        if mesh.property(&name).is_none() {
                            self.push(at, Some(&name), Rule::MissingLayer { count });
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(faces) = mesh.indices("f") {
            if faces.len() % 3 != 0 {
                self.push(at, Some("f"), Rule::NotTriangles { length: faces.len() });
            }
            if let Some(v) = vertices {
                self.indices_below(at, "f", v, "vertices");
            }
        }
        let influences = mesh.index_value("mi");
        let weights = ["wb", "wv"].map(|name| mesh.property(name).map(|p| (name, p.value.len())));
        match (influences, vertices) {
            (None, _) if mesh.property("mi").is_none() => {
                if let Some((name, _)) = weights.iter().flatten().next() {
                    let because = Some(format!("{name} is present"));
                    self.push(at, Some("mi"), Rule::Missing { because });
                }
            }
            (Some(mi), Some(v)) => {
                for &(name, len) in weights.iter().flatten() {
                    let of = format!("{v} vertices times {mi} influences");
                    self.length(at, name, len, v * u64::from(mi), of);
                }
            }
            _ => {}
        }
        self.indices_below(at, "wb", bone_count as u64, "bones of the model's skeleton");
    }

    fn hair(&mut self, at: At<'_>) {
        let (Some(segments), Some(particles)) = (at.node.indices("se"), at.node.vec3s("pt")) else {
            return;
        };
        let expected: u64 = segments.iter().map(|s| u64::from(s) + 1).sum();
        self.length(
            at,
            "pt",
            particles.len(),
            expected,
            "the strands' segments plus one each",
        );
    }

    fn blend_shape(&mut self, at: At<'_>, base: Option<&Node>) {
        let (Some(indices), Some(positions)) = (at.node.indices("vi"), at.node.vec3s("vp")) else {
            return;
        };
        self.length(at, "vp", positions.len(), indices.len() as u64, "the length of vi");
        if let Some(v) = base.and_then(|b| b.vec3s("vp")) {
            self.indices_below(at, "vi", v.len() as u64, "vertices of the base mesh");
        }
    }

    /// Bone parents, and the bone hashes of IK handles and constraints.
    fn skeleton(&mut self, at: At<'_>) {
        let skeleton = at.node;
        let bones: Vec<(usize, &Node)> = skeleton
            .children
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is(NodeKind::Bone))
            .collect();
        let n = bones.len();
        let mut parents = vec![None; n];
        let paths: Vec<String> = bones
            .iter()
            .map(|&(i, b)| format!("{} > {}", at.path, crate::write::label(i, b)))
            .collect();
        for (k, &(_, bone)) in bones.iter().enumerate() {
            let bone_at = At {
                node: bone,
                path: &paths[k],
            };
            let Some(p) = bone.as_bone().and_then(|b| b.parent()) else {
                continue;
            };
            if p < -1 || i64::from(p) >= n as i64 {
                self.push(
                    bone_at,
                    Some("p"),
                    Rule::ParentOutOfRange {
                        parent: p,
                        bone_count: n,
                    },
                );
            } else if p as usize == k {
                self.push(bone_at, Some("p"), Rule::OwnParent);
            } else if p >= 0 {
                parents[k] = Some(p as usize);
            }
        }
        for k in in_cycles(&parents) {
            let bone_at = At {
                node: bones[k].1,
                path: &paths[k],
            };
            self.push(bone_at, Some("p"), Rule::ParentCycle);
        }
        for (i, child) in skeleton.children.iter().enumerate() {
            let names: &[&str] = match child.kind() {
                Some(NodeKind::IkHandle) => &["sb", "eb", "tb", "pv", "pb"],
                Some(NodeKind::Constraint) => &["cb", "tb"],
                _ => continue,
            };
            let path = format!("{} > {}", at.path, crate::write::label(i, child));
            let child_at = At {
                node: child,
                path: &path,
            };
            for name in names {
                self.reference(
                    child_at,
                    name,
                    skeleton,
                    "child of the same Skeleton",
                    &[NodeKind::Bone],
                );
            }
        }
    }

    /// `co` is a vector for point and scale constraints and a quaternion for orient ones.
    fn constraint_offset(&mut self, at: At<'_>) {
        let (Some(ct), Some(co)) = (at.node.str_value("ct"), at.node.value("co")) else {
            return;
        };
        let expected = match ct {
            "pt" | "sc" => V3,
            "or" => V4,
            _ => return,
        };
        if co.kind() != expected && matches!(co.kind(), V3 | V4) {
            self.push(
                at,
                Some("co"),
                Rule::WrongType {
                    found: co.kind(),
                    expected: format!("{expected} (for ct {ct:?})"),
                },
            );
        }
    }

    /// Key frames and values agree in length; values have the type the property needs.
    fn curve(&mut self, at: At<'_>) {
        let (Some(frames), Some(values)) = (at.node.indices("kb"), at.node.value("kv")) else {
            return;
        };
        self.length(at, "kv", values.len(), frames.len() as u64, "the length of kb");
        let expected: &[PropertyType] = match at.node.str_value("kp") {
            Some("rq") => &[V4],
            Some("tx" | "ty" | "tz" | "sx" | "sy" | "sz" | "bs") => &[Float],
            Some("vb") => INDEX,
            _ => return,
        };
        let found = values.kind();
        let listed = spec_for(NodeKind::Curve, "kv").is_some_and(|s| s.types.contains(&found));
        if listed && !expected.contains(&found) {
            let kp = at.node.str_value("kp").unwrap_or_default();
            self.push(
                at,
                Some("kv"),
                Rule::WrongType {
                    found,
                    expected: format!("{} (for kp {kp:?})", type_list(expected)),
                },
            );
        }
    }
}

/// The indices that lie on a cycle of `parents` (each entry another index or none), found
/// in one pass without recursion.
pub(crate) fn in_cycles(parents: &[Option<usize>]) -> Vec<usize> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; parents.len()];
    let mut cyclic = vec![false; parents.len()];
    let mut path = Vec::new();
    for start in 0..parents.len() {
        let mut at = Some(start);
        while let Some(i) = at.filter(|&i| i < parents.len() && state[i] == NEW) {
            state[i] = ON_PATH;
            path.push(i);
            at = parents[i];
        }
        if let Some(i) = at.filter(|&i| i < parents.len() && state[i] == ON_PATH) {
            let from = path.iter().position(|&p| p == i).unwrap_or(path.len());
            for &p in &path[from..] {
                cyclic[p] = true;
            }
        }
        for p in path.drain(..) {
            state[p] = DONE;
        }
    }
    (0..parents.len()).filter(|&i| cyclic[i]).collect()
}

/// Lists every rule `file` breaks; empty for a valid file.
///
/// Checks, for every node whose id is known: its place (Root at the top, each type under
/// the parents that may hold it, one Skeleton per Model, distinct hashes among a Root's
/// children), its properties (no name twice, documented types and shapes, required ones
/// present, listed string values), its references (hashes that name a node of the right
/// type in their scope) and its arrays (per-vertex lengths, layer counts, whole triangles,
/// face, weight and blend-shape indices in range, hair particle counts, bone parents in
/// range and without cycles, constraint offsets and curve values of the right type, as many
/// key values as key frames).
///
/// Every problem is a [`Severity::Error`] (the format calls every one of these rules an
/// error) at a [`Location::Item`]: the node's path from the top (`root 0 > modl 0 ("body") >
/// mesh 1 ("head")`, each step the node's id, its index among its siblings and its name when
/// it has one), followed by ` property "x"` when the problem is about one property.
pub fn validate(file: &CastFile) -> Vec<Problem> {
    let mut checker = Checker {
        problems: Vec::new(),
        children_by_hash: HashMap::new(),
    };
    for (i, root) in file.roots.iter().enumerate() {
        let path = crate::write::label(i, root);
        checker.node(root, &path, None);
    }
    checker.problems.iter().map(Problem::from_diagnostic).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_are_found_without_their_tails() {
        // 0 -> 1 -> 2 -> 0 is a cycle; 3 -> 0 leads into it; 4 is a root.
        let parents = [Some(1), Some(2), Some(0), Some(0), None];
        assert_eq!(in_cycles(&parents), [0, 1, 2]);
        assert_eq!(in_cycles(&[None, Some(0), Some(1)]), Vec::<usize>::new());
    }

    #[test]
    fn only_documented_names_have_specs() {
        assert!(spec_for(NodeKind::Mesh, "u12").is_some());
        assert!(spec_for(NodeKind::Mesh, "u01").is_none());
        assert!(spec_for(NodeKind::Material, "extra0").is_some());
        assert!(spec_for(NodeKind::Bone, "vp").is_none());
        assert_eq!(type_list(INDEX), "b, h or i");
    }
}
