//! glTF 2.0 (`.gltf` with embedded buffers, `.glb`), through `animbin-gltf`.
//!
//! Detected by the GLB magic `glTF`, or as JSON with an `asset` object holding a `version`.
//! The targets are `gltf` (`.gltf`) and `glb` (`.glb`). A document keeps the file's bytes:
//! writing it to its own container gives them back, and to the other container moves the
//! buffer between the BIN chunk and a `data:` URI without touching the JSON. Its dump is
//! `{"container", "json", "bin"}` (the BIN chunk in base64, or null).
//!
//! `--z-up` and `--scale` (see [`SceneOptions`]) place a Z-up, centimetre scene in glTF's
//! Y-up metres on one root node when writing, and convert a Y-up file from another tool when
//! reading; files animbin wrote come back unchanged whatever they say.

use std::path::Path;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::Container;
use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value, json};

use super::{CliResult, Document, Format, SceneOptions, Target, lines, members};

/// glTF 2.0.
pub(crate) struct Gltf;

impl Format for Gltf {
    fn name(&self) -> &'static str {
        "gltf"
    }

    fn targets(&self) -> &'static [Target] {
        const { &[Target::with_extension("gltf"), Target::with_extension("glb")] }
    }

    fn detect(&self, bytes: &[u8], _path: &Path) -> bool {
        animbin_gltf::is_glb(bytes)
    }

    fn detect_json(&self, json: &Value) -> bool {
        json.get("asset")
            .and_then(|a| a.get("version"))
            .is_some_and(Value::is_string)
    }

    fn read(&self, bytes: &[u8]) -> CliResult<Box<dyn Document>> {
        // Reading into a scene checks the whole file, so a bad one fails here, not later.
        animbin_gltf::to_scene(
            bytes,
            &animbin_gltf::SceneOptions::default(),
            &mut ConversionReport::default(),
        )?;
        let container = if animbin_gltf::is_glb(bytes) {
            Container::Glb
        } else {
            Container::Gltf
        };
        Ok(Box::new(GltfDocument {
            bytes: bytes.to_vec(),
            container,
        }))
    }

    fn undump(&self, data: Value) -> CliResult<Box<dyn Document>> {
        let container = match data.get("container").and_then(Value::as_str) {
            Some("gltf") => Container::Gltf,
            Some("glb") => Container::Glb,
            other => bail!("a glTF dump needs `container` \"gltf\" or \"glb\", found {other:?}"),
        };
        let bin = match data.get("bin") {
            None | Some(Value::Null) => None,
            Some(text) => Some(
                BASE64
                    .decode(text.as_str().context("`bin` must be a base64 string")?)
                    .context("`bin` is not valid base64")?,
            ),
        };
        // `json_text` is the JSON exactly as the file laid it out; `json` is the value,
        // written back compact (the dump uses it when that gives the same bytes).
        let bytes = match data.get("json_text") {
            Some(text) => {
                let text = text.as_str().context("`json_text` must be a string")?.as_bytes();
                match container {
                    Container::Gltf if bin.is_none() => text.to_vec(),
                    Container::Gltf => bail!("a .gltf dump with `json_text` has no separate `bin`"),
                    Container::Glb => animbin_gltf::Glb::to_vec(text, bin.as_deref())?,
                }
            }
            None => {
                let json = data
                    .get("json")
                    .cloned()
                    .context("a glTF dump needs its `json` or `json_text`")?;
                animbin_gltf::join(json, bin, container)?
            }
        };
        self.read(&bytes)
    }

    fn from_scene(
        &self,
        scene: &Scene,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> CliResult<Box<dyn Document>> {
        let export = animbin_gltf::SceneOptions {
            z_up: options.z_up,
            unit_scale: options.unit_scale.unwrap_or(1.0),
            ..animbin_gltf::SceneOptions::default()
        };
        Ok(Box::new(GltfDocument {
            bytes: animbin_gltf::from_scene(scene, &export, report)?,
            container: Container::Glb,
        }))
    }
}

/// A glTF file's bytes and its container.
struct GltfDocument {
    bytes: Vec<u8>,
    container: Container,
}

fn container_name(c: Container) -> &'static str {
    match c {
        Container::Gltf => "gltf",
        Container::Glb => "glb",
    }
}

impl Document for GltfDocument {
    fn info(&self) -> Map<String, Value> {
        let container = container_name(self.container);
        let Ok((json, bin)) = animbin_gltf::split(&self.bytes) else {
            return members(json!({ "container": container }));
        };
        let count = |member: &str| json.get(member).and_then(Value::as_array).map_or(0, Vec::len);
        let sum = |member: &str, inner: &str| {
            json.get(member)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|item| item.get(inner).and_then(Value::as_array).map_or(0, Vec::len))
                .sum::<usize>()
        };
        members(json!({
            "container": container,
            "version": json["asset"]["version"],
            "generator": json["asset"].get("generator"),
            "node_count": count("nodes"),
            "mesh_count": count("meshes"),
            "primitive_count": sum("meshes", "primitives"),
            "skin_count": count("skins"),
            "joint_count": sum("skins", "joints"),
            "material_count": count("materials"),
            "image_count": count("images"),
            "animation_count": count("animations"),
            "channel_count": sum("animations", "channels"),
            "bin_bytes": bin.map_or(0, |b| b.len()),
        }))
    }

    fn dump(&self) -> CliResult<Value> {
        let (json, bin) = animbin_gltf::split(&self.bytes)?;
        let container = container_name(self.container);
        // The JSON as a value reads best; files whose JSON text another tool laid out
        // (pretty-printed, members in another order) keep that text instead.
        if animbin_gltf::join(json.clone(), bin.clone(), self.container)? == self.bytes {
            return Ok(json!({ "container": container, "json": json, "bin": bin.map(|b| BASE64.encode(b)) }));
        }
        let (text, bin) = match self.container {
            Container::Gltf => (&self.bytes[..], None),
            Container::Glb => {
                let glb = animbin_gltf::Glb::parse(&self.bytes)?;
                (glb.json, glb.bin)
            }
        };
        let text = std::str::from_utf8(text).context("the glTF JSON is not UTF-8")?;
        Ok(json!({ "container": container, "json_text": text, "bin": bin.map(|b| BASE64.encode(b)) }))
    }

    fn validate(&self) -> Vec<String> {
        lines(animbin_gltf::validate(&self.bytes))
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> CliResult<Scene> {
        // --scale says how the other format's units become glTF's metres; the reader
        // divides by it.
        let import = animbin_gltf::SceneOptions {
            z_up: options.z_up,
            unit_scale: options.unit_scale.unwrap_or(1.0),
            ..animbin_gltf::SceneOptions::default()
        };
        Ok(animbin_gltf::to_scene(&self.bytes, &import, report)?)
    }

    fn write(&self, target: &str) -> CliResult<Vec<u8>> {
        let container = match target {
            "gltf" => Container::Gltf,
            "glb" => Container::Glb,
            other => bail!("glTF cannot be written as {other:?}"),
        };
        if container == self.container {
            return Ok(self.bytes.clone());
        }
        Ok(animbin_gltf::repack(&self.bytes, container)?)
    }

    fn own_target(&self) -> Option<&'static str> {
        Some(container_name(self.container))
    }
}
