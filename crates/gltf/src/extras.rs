//! What animbin keeps in glTF `extras` (under the member `"animbin"`) so that a scene survives
//! a trip through glTF: everything the scene model holds that glTF 2.0 has no place for.
//!
//! Other tools ignore these members (Blender shows them as custom properties); files from
//! other tools lack them, and the reader then falls back to what glTF itself says.

use animbin_core::scene::{AnimKind, Interpolation, Note, Precision, PropertyTrack};
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The member of `extras` that animbin owns (`"animbin"`).
pub const KEY: &str = "animbin";

/// Wraps `value` as `{"animbin": value}`.
pub(crate) fn wrap<T: Serialize>(value: &T) -> Option<Value> {
    let inner = serde_json::to_value(value).ok()?;
    let mut map = serde_json::Map::new();
    map.insert(KEY.into(), inner);
    Some(Value::Object(map))
}

/// Wraps `extras` as [`wrap`] does, moving each property track's base64 text into the value
/// rather than copying it: property tracks can be most of a file's bytes (AnimX's raw
/// tracks), and a copy would hold their text twice.
pub(crate) fn wrap_animation(mut extras: AnimationExtras) -> Option<Value> {
    let properties = std::mem::take(&mut extras.properties);
    let mut value = wrap(&extras)?;
    if !properties.is_empty() {
        let properties = properties
            .into_iter()
            .map(|mut property| {
                let data = std::mem::take(&mut property.data);
                let mut value = serde_json::to_value(property).ok()?;
                *value.get_mut("data")? = Value::String(data);
                Some(value)
            })
            .collect::<Option<Vec<Value>>>()?;
        let members = value.get_mut(KEY)?.as_object_mut()?;
        members.insert(PROPERTIES.into(), Value::Array(properties));
    }
    Some(value)
}

/// The member of [`AnimationExtras`] that holds the property tracks.
const PROPERTIES: &str = "properties";

/// Reads `extras.animbin` as `T`; `None` when absent or of another shape.
pub(crate) fn unwrap<T: for<'de> Deserialize<'de>>(extras: &gltf::json::Extras) -> Option<T> {
    let raw = extras.as_ref()?;
    let value: Value = serde_json::from_str(raw.get()).ok()?;
    serde_json::from_value(value.get(KEY)?.clone()).ok()
}

/// `animation.extras.animbin`: the parts of a scene animation glTF cannot hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnimationExtras {
    /// Frames per second (glTF times are seconds: `frame / framerate`).
    pub framerate: f64,
    /// The length in frames as the source states it.
    pub frame_count: f64,
    /// Whether the animation loops.
    #[serde(default)]
    pub looping: bool,
    /// The source's kind; the glTF channels hold the values applied against the rest pose
    /// (see the crate docs), and a reader that sees a kind other than absolute takes the
    /// rest pose off again.
    #[serde(default)]
    pub kind: AnimKind,
    /// The source's interpolation (the samplers say it too).
    #[serde(default)]
    pub interpolation: Interpolation,
    /// Every track's bone name in the source's order, including tracks without keys.
    #[serde(default)]
    pub tracks: Vec<String>,
    /// Per-track kind overrides (SEAnim modifier bones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kind_overrides: Vec<KindOverride>,
    /// The tracks flagged cosmetic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cosmetic: Vec<String>,
    /// Notes (notetrack events).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<NoteExtra>,
    /// Non-transform tracks, kept in their source format's encoding.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<PropertyExtra>,
    /// `single` when every key value of the scene animation was exactly an `f32` (an SEAnim
    /// of single precision), `double` otherwise: a reader rounds the keys of a `single`
    /// animation back to `f32` once the rest pose and the unit scale are taken off, so that
    /// single precision comes back single.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<Precision>,
    /// The morph target names the scene animation had weight tracks for, in its order: the
    /// `weights` channels also hold the weights of the other targets of their meshes (0),
    /// which a reader leaves out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_tracks: Option<Vec<String>>,
}

/// One kind override.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindOverride {
    /// The bone whose track carries the override.
    pub bone: String,
    /// The kind for that bone and its children.
    pub kind: AnimKind,
}

/// One note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteExtra {
    /// The frame.
    pub frame: f64,
    /// The event's name.
    pub name: String,
}

impl From<&Note> for NoteExtra {
    fn from(n: &Note) -> Self {
        Self {
            frame: n.frame,
            name: n.name.clone(),
        }
    }
}

impl From<NoteExtra> for Note {
    fn from(n: NoteExtra) -> Self {
        Self {
            frame: n.frame,
            name: n.name,
        }
    }
}

/// One property track, its data in base64.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PropertyExtra {
    /// The node the track animates.
    pub node: String,
    /// The property on that node.
    pub property: String,
    /// The source format's short name.
    pub format: String,
    /// The track in the source's encoding, base64.
    pub data: String,
}

impl From<&PropertyTrack> for PropertyExtra {
    fn from(p: &PropertyTrack) -> Self {
        Self {
            node: p.node.clone(),
            property: p.property.clone(),
            format: p.format.clone(),
            data: base64::engine::general_purpose::STANDARD.encode(&p.data),
        }
    }
}

impl PropertyExtra {
    /// The track, or `None` when its data is not valid base64.
    pub fn to_track(&self) -> Option<PropertyTrack> {
        Some(PropertyTrack {
            node: self.node.clone(),
            property: self.property.clone(),
            format: self.format.clone(),
            data: base64::engine::general_purpose::STANDARD.decode(&self.data).ok()?,
        })
    }
}

/// `material.extras.animbin`: the map names as the source wrote them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MaterialExtras {
    /// The diffuse map's file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diffuse_map: Option<String>,
    /// The normal map's file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal_map: Option<String>,
    /// The specular map's file name (glTF 2.0 has no specular slot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specular_map: Option<String>,
    /// Whether the scene material had a base colour (glTF always has a factor).
    #[serde(default)]
    pub has_base_color: bool,
    /// Whether the scene material had metalness, roughness and emission of its own
    /// ([`animbin_core::scene::Surface`]); without them the writer's factors are its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_surface: bool,
}

/// `mesh.extras.animbin`: per-mesh facts glTF cannot state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MeshExtras {
    /// Influences per vertex in the source (glTF writes sets of 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub influences: Option<usize>,
    /// The material of each UV layer, when that is more than the primitive's one material.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub materials: Option<Vec<Option<usize>>>,
    /// Present when the mesh is a scene hair ([`animbin_core::scene::Hair`]) rather than a
    /// mesh: its one primitive's `POSITION` holds the particles, strand after strand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hair: Option<HairExtras>,
    /// How the skin blends, when not linearly (glTF skins linearly; a reader gives the
    /// source's [`animbin_core::scene::SkinBlend`] back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin_blend: Option<animbin_core::scene::SkinBlend>,
}

/// `mesh.extras.animbin.hair`: what makes a glTF line mesh a scene hair again.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct HairExtras {
    /// The number of segments of each strand ([`animbin_core::scene::Hair::segments`]); the
    /// primitive's lines join consecutive particles of each strand.
    pub segments: Vec<u32>,
}

/// `scene.extras.animbin`: how the writer placed the scene's values.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SceneExtras {
    /// The unit scale every length was multiplied by (positions, translations, bind
    /// matrices); a reader divides by it again.
    pub unit_scale: f64,
}

/// `image.extras.animbin` on an image that the writer embedded from a texture file found
/// beside the input: the material's map name stands for it, so a reader does not make it a
/// scene texture.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ImageExtras {
    /// The texture name the material gives (the file's name relative to the input's folder).
    pub file: String,
}

/// `node.extras.animbin` on the node that carries the scene's model placement
/// ([`animbin_core::scene::Scene::placement`]), the parent of every root of the model.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PlacementExtras {
    /// Always true.
    pub placement: bool,
}

/// `node.extras.animbin` on a node the writer puts between a bone that does not inherit its
/// parent's scale ([`animbin_core::scene::Bone::scale_compensate`]) and that parent: it
/// holds the bone's translation and the inverse of the parent's scale (glTF nodes always
/// inherit scale).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CompensationExtras {
    /// The name of the bone it compensates for.
    pub compensates: String,
}

/// `node.extras.animbin` on a node that stands for another scene file placed in this one
/// ([`animbin_core::scene::Instance`]): the node has no mesh, its name and TRS are the
/// instance's, and this holds the path.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct InstanceExtras {
    /// The referenced scene's path ([`animbin_core::scene::Instance::path`]).
    pub instance: String,
}

/// `skin.extras.animbin` on a skin the writer took from the scene's own skins
/// ([`animbin_core::scene::Scene::skins`]), which a reader keeps as one; the skin the writer
/// makes over every bone (a game rig's) has none, and a reader reads it as the bones' bind
/// poses.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SkinExtras {
    /// Always true.
    pub kept: bool,
}

/// `node.extras.animbin` on the root node that the writer adds for the up axis and unit
/// scale; the reader drops that node again.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WrapperExtras {
    /// Always true.
    pub wrapper: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moving the property tracks' text gives the value copying it gives, with and without
    /// property tracks.
    #[test]
    fn animation_extras_wrap_the_same_when_their_text_is_moved() {
        let property = |node: &str, data: &[u8]| PropertyExtra {
            node: node.into(),
            property: "scale".into(),
            format: "animx".into(),
            data: base64::engine::general_purpose::STANDARD.encode(data),
        };
        let mut extras = AnimationExtras {
            framerate: 30.0,
            frame_count: 12.0,
            looping: true,
            kind: AnimKind::Additive,
            interpolation: Interpolation::Step,
            tracks: vec!["a".into(), "b".into()],
            kind_overrides: Vec::new(),
            cosmetic: vec!["b".into()],
            notes: Vec::new(),
            properties: vec![property("a", b"\x00\x01\x02"), property("b", &[0xff; 40])],
            precision: Some(Precision::Single),
            weight_tracks: None,
        };
        for _ in 0..2 {
            let copied = wrap(&extras).unwrap();
            assert_eq!(wrap_animation(extras.clone()).unwrap(), copied);
            assert_eq!(
                copied[KEY][PROPERTIES].as_array().map(Vec::len),
                (!extras.properties.is_empty()).then_some(2)
            );
            extras.properties.clear();
        }
    }
}
