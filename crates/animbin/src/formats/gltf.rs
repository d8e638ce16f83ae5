//! glTF 2.0 through `animbin-gltf`: `.gltf` (JSON, buffers embedded) and `.glb`. A
//! document keeps the file's bytes: writing it to its own container gives them back, and
//! to the other container moves the buffer without touching the JSON.

use std::io::Write;

use animbin_core::SceneOptions;
use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::Container;
use serde_json::Value;

use super::{Codec, unsupported, write_all};
use crate::info::GltfInfo;
use crate::{Document, Format, Info, Problem, Result, Target};

/// A glTF file: its bytes, checked to read as a scene, and its container.
#[derive(Clone, PartialEq, Eq)]
pub struct GltfFile {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// JSON (`.gltf`) or binary (`.glb`).
    pub container: Container,
}

impl std::fmt::Debug for GltfFile {
    // The bytes can be megabytes: their length says enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GltfFile")
            .field("bytes", &format_args!("[{} bytes]", self.bytes.len()))
            .field("container", &self.container)
            .finish()
    }
}

impl GltfFile {
    /// The target that writes this file's own container.
    pub fn target(&self) -> Target {
        match self.container {
            Container::Gltf => Target::Gltf,
            Container::Glb => Target::Glb,
        }
    }
}

fn container_name(container: Container) -> &'static str {
    match container {
        Container::Gltf => "gltf",
        Container::Glb => "glb",
    }
}

impl Codec for GltfFile {
    const FORMAT: Format = Format::Gltf;

    fn read(bytes: &[u8]) -> Result<Self> {
        // Reading into a scene checks the whole file, so a bad one fails here, not later.
        animbin_gltf::to_scene(bytes, &SceneOptions::default(), &mut ConversionReport::default())?;
        let container = if animbin_gltf::is_glb(bytes) {
            Container::Glb
        } else {
            Container::Gltf
        };
        Ok(Self {
            bytes: bytes.to_vec(),
            container,
        })
    }

    fn info(&self) -> Info {
        let container = container_name(self.container).to_string();
        let (json, bin) = animbin_gltf::split(&self.bytes).unwrap_or((Value::Null, None));
        let count = |member: &str| json.get(member).and_then(Value::as_array).map_or(0, Vec::len);
        let sum = |member: &str, inner: &str| {
            json.get(member)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|item| item.get(inner).and_then(Value::as_array).map_or(0, Vec::len))
                .sum::<usize>()
        };
        let asset = |field: &str| json["asset"].get(field).and_then(Value::as_str).map(str::to_string);
        Info::Gltf(GltfInfo {
            container,
            version: asset("version"),
            generator: asset("generator"),
            node_count: count("nodes"),
            mesh_count: count("meshes"),
            primitive_count: sum("meshes", "primitives"),
            skin_count: count("skins"),
            joint_count: sum("skins", "joints"),
            material_count: count("materials"),
            image_count: count("images"),
            animation_count: count("animations"),
            channel_count: sum("animations", "channels"),
            bin_bytes: bin.map_or(0, |b| b.len()),
        })
    }

    fn validate(&self) -> Vec<Problem> {
        animbin_gltf::validate(&self.bytes)
            .iter()
            .map(Problem::from_diagnostic)
            .collect()
    }

    fn to_scene(&self, options: &SceneOptions, report: &mut ConversionReport) -> Result<Scene> {
        Ok(animbin_gltf::to_scene(&self.bytes, options, report)?)
    }

    fn from_scene(
        scene: &Scene,
        target: Target,
        options: &SceneOptions,
        report: &mut ConversionReport,
    ) -> Result<Self> {
        let container = match target {
            Target::Gltf => Container::Gltf,
            _ => Container::Glb,
        };
        let bytes = animbin_gltf::to_bytes(scene, container, options, report)?;
        Ok(Self { bytes, container })
    }

    fn write(&self, target: Target, writer: &mut dyn Write, _: &mut ConversionReport) -> Result<()> {
        let container = match target {
            Target::Gltf => Container::Gltf,
            Target::Glb => Container::Glb,
            other => return Err(unsupported(Self::FORMAT, other)),
        };
        if container == self.container {
            return write_all(writer, &self.bytes);
        }
        write_all(writer, &animbin_gltf::repack(&self.bytes, container)?)
    }

    fn own_target(&self) -> Target {
        self.target()
    }

    fn into_document(self) -> Document {
        Document::Gltf(self)
    }
}
