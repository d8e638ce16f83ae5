//! # animbin-wasm
//!
//! The `animbin` library for browsers and Node, through wasm-bindgen: open any file animbin
//! reads from its bytes, and ask the document for its summary, problems, dump, targets and
//! conversions, as the command and the Python module do. Like every front end it only
//! translates: formats, targets, their names and every rule come from the library's table.
//!
//! The npm package `animbin` (built into `target/web/pkg` by `cargo xtask web`) wraps these
//! bindings in plain JavaScript objects (`web/pkg-src/index.js`), with TypeScript types.
//!
//! Errors are JavaScript `Error`s named `AnimbinError` with `format` and `offset` members
//! (the byte offset of a file that does not read). A panic (a bug) is turned into such an
//! error too ([`last_panic`]), though the WebAssembly instance must then be thrown away.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use animbin::{AnimationSource, ConvertOptions, Document, Format, Location, SceneOptions, Target};
use js_sys::{Array, Object, Reflect, Uint8Array};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The message of the last panic, for the error the caller sees.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Keeps the message of any panic for [`last_panic`]; runs when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|last| *last.borrow_mut() = Some(info.to_string()));
    }));
}

/// The message of the panic that trapped the last call, if one did (the call itself ends in
/// a `WebAssembly.RuntimeError`; the instance should then be replaced).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|last| last.borrow_mut().take())
}

/// The version of animbin.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Every format's metadata (`animbin::formats()`), as JSON text.
#[wasm_bindgen(js_name = formatsJson)]
pub fn formats_json() -> String {
    serde_json::to_string(&animbin::formats()).unwrap_or_default()
}

/// The MIME type of a texture file a glb can embed (PNG or JPEG), judged by its first bytes.
#[wasm_bindgen(js_name = imageType)]
pub fn image_type(bytes: &[u8]) -> Option<String> {
    animbin::core::images::image_mime_type(bytes).map(str::to_string)
}

/// An error as JavaScript sees it: an `Error` named `AnimbinError` with `format` (a format's
/// name or `null`) and `offset` (a byte offset or `null`).
fn js_error(message: &str, format: Option<Format>, offset: Option<u64>) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name("AnimbinError");
    let set = |key: &str, value: JsValue| Reflect::set(&error, &JsValue::from_str(key), &value);
    let _ = set("format", format.map_or(JsValue::NULL, |f| JsValue::from_str(f.name())));
    let _ = set("offset", offset.map_or(JsValue::NULL, |o| JsValue::from_f64(o as f64)));
    error.into()
}

fn library_error(error: &animbin::Error) -> JsValue {
    js_error(&error.to_string(), error.format(), error.offset())
}

fn usage_error(message: impl AsRef<str>) -> JsValue {
    js_error(message.as_ref(), None, None)
}

/// How many times the bytes of the files read the heap is made to hold, before they are read
/// or converted: opening a file and converting it to glb took 5.6 (a 52 MiB SEModel) to 5.9
/// (that SEModel with a 50 MiB SEAnim joined) times their size of WebAssembly memory.
const HEAP_PER_INPUT_BYTE: usize = 6;

/// Grows the heap to `bytes` in one step when it is smaller: a block of what it lacks,
/// allocated and freed at once, stays with the allocator as free space, and its pages, never
/// written, cost no physical memory.
///
/// std's allocator (dlmalloc) grows the WebAssembly memory by what each allocation lacks, a
/// few pages at a time, and every `memory.grow` replaces the memory's `ArrayBuffer`, which V8
/// counts as external memory and answers with a garbage collection: opening a 52 MiB SEAnim
/// and converting it to glb grew the memory a few hundred times, and the 228 collections
/// that followed took longer than the work itself (0.6 s of 1.9 s in Node).
fn grow_heap_to(bytes: usize) {
    #[cfg(target_arch = "wasm32")]
    {
        const PAGE: usize = 65_536;
        let have = core::arch::wasm32::memory_size(0).saturating_mul(PAGE);
        if let Some(lacking) = bytes.checked_sub(have).filter(|&n| n > 0) {
            let mut block = Vec::<u8>::new();
            // A heap that cannot grow so far is no error here: the allocations that need
            // the memory then fail as they would have.
            let _ = block.try_reserve_exact(lacking);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = bytes;
}

/// A file animbin read: the document and the name it was opened with.
#[wasm_bindgen]
pub struct AnimbinDocument {
    document: Document,
    name: Option<PathBuf>,
    /// The size of the file read, for [`grow_heap_to`] before a conversion.
    input_size: usize,
}

/// Reads a file of any supported format from its bytes. `name` (the file's name) is needed
/// only for x8an files, which are recognised by the name `x8an*.bin`, and names the
/// animations its format stores no name for; `format` (a format's name) forces the format.
#[wasm_bindgen]
pub fn open(bytes: &[u8], name: Option<String>, format: Option<String>) -> Result<AnimbinDocument, JsValue> {
    let format = format
        .map(|f| f.parse::<Format>().map_err(|e| usage_error(e.to_string())))
        .transpose()?;
    let name = name.filter(|n| !n.is_empty()).map(PathBuf::from);
    grow_heap_to(bytes.len().saturating_mul(HEAP_PER_INPUT_BYTE));
    let document = Document::parse_as(bytes, name.as_deref(), format).map_err(|e| library_error(&e))?;
    Ok(AnimbinDocument {
        document,
        name,
        input_size: bytes.len(),
    })
}

/// The summary of a file from its bytes, read through its format's zero-copy view where it
/// has one, as JSON text exactly as `animbin info --json` prints it.
#[wasm_bindgen(js_name = infoJsonOf)]
pub fn info_json_of(bytes: &[u8], name: Option<String>, format: Option<String>) -> Result<String, JsValue> {
    let format = format
        .map(|f| f.parse::<Format>().map_err(|e| usage_error(e.to_string())))
        .transpose()?;
    let name = name.map(PathBuf::from);
    let info = Document::info_of(bytes, name.as_deref(), format).map_err(|e| library_error(&e))?;
    info_text(&info)
}

fn info_text(info: &animbin::Info) -> Result<String, JsValue> {
    // As `animbin info --json` prints it: through a JSON value (members in name order).
    let value = serde_json::to_value(info).map_err(|e| usage_error(e.to_string()))?;
    Ok(value.to_string())
}

/// An animation file or texture given beside the document: its name and bytes.
#[derive(Deserialize)]
struct NamedBytes {
    name: String,
}

/// The options of [`AnimbinDocument::convert`], as a JavaScript object.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
struct Options {
    framerate: Option<f64>,
    z_up: bool,
    scale: Option<f64>,
    strict: bool,
    allow_empty: bool,
    animation: Option<String>,
    anim_type: Option<String>,
    looped: Option<bool>,
    precision: Option<String>,
    normalize_rotations: bool,
    // The byte arrays of `anims` and `textures` are read separately (serde_json cannot see a
    // Uint8Array); here only their names.
    anims: Vec<NamedBytes>,
    textures: Vec<NamedBytes>,
}

/// An option's keyword (`anim_type`, as the library names it) as the JavaScript options
/// object spells it (`animType`).
fn js_name(option: &str) -> String {
    let mut parts = option.split('_');
    let first = parts.next().unwrap_or_default().to_string();
    parts.fold(first, |mut name, part| {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            name.extend(c.to_uppercase());
            name.push_str(chars.as_str());
        }
        name
    })
}

/// The `bytes` member of each element of `list`.
fn byte_members(list: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
    if list.is_undefined() || list.is_null() {
        return Ok(Vec::new());
    }
    let array: &Array = list
        .dyn_ref()
        .ok_or_else(|| usage_error("expected an array of { name, bytes }"))?;
    array
        .iter()
        .map(|item| {
            let bytes = Reflect::get(&item, &JsValue::from_str("bytes"))?;
            bytes
                .dyn_ref::<Uint8Array>()
                .map(Uint8Array::to_vec)
                .ok_or_else(|| usage_error("each { name, bytes } needs bytes as a Uint8Array"))
        })
        .collect()
}

/// The library's options from the JavaScript object (see the TypeScript types), with the
/// heap grown for a conversion of a document read from `input_size` bytes and the
/// animation files given.
fn convert_options(name: Option<&Path>, input_size: usize, options: &JsValue) -> Result<ConvertOptions, JsValue> {
    if options.is_undefined() || options.is_null() {
        grow_heap_to(input_size.saturating_mul(HEAP_PER_INPUT_BYTE));
        return Ok(ConvertOptions {
            input: name.map(Path::to_path_buf),
            ..ConvertOptions::default()
        });
    }
    // Everything but the byte arrays goes through JSON; the arrays are read as they are.
    let get = |key: &str| Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    let anim_bytes = byte_members(&get("anims"))?;
    let texture_bytes = byte_members(&get("textures"))?;
    let anim_size: usize = anim_bytes.iter().map(Vec::len).sum();
    grow_heap_to(input_size.saturating_add(anim_size).saturating_mul(HEAP_PER_INPUT_BYTE));
    let json = js_sys::JSON::stringify_with_replacer(
        options,
        &js_sys::Function::new_with_args("k, v", "return v instanceof Uint8Array ? undefined : v"),
    )
    .map_err(|_| usage_error("the options are not a plain object"))?;
    let text: String = json.into();
    let parsed: Options = serde_json::from_str(&text).map_err(|e| usage_error(format!("options: {e}")))?;

    // The values are checked by the library's rules, as the command's and Python's are (a
    // negative scale mirrors and is taken); an error names the option as JavaScript spells it.
    let rule =
        |e: animbin::options::InvalidOption| usage_error(format!("options: {}: {}", js_name(e.option), e.message));
    let mut scene = SceneOptions {
        framerate: parsed
            .framerate
            .map(animbin::options::framerate)
            .transpose()
            .map_err(rule)?,
        z_up: parsed.z_up,
        normalize_rotations: parsed.normalize_rotations,
        looping: parsed.looped,
        ..SceneOptions::default()
    };
    if let Some(scale) = parsed.scale {
        scene.unit_scale = animbin::options::scale(scale).map_err(rule)?;
    }
    if let Some(kind) = &parsed.anim_type {
        scene.anim_kind = Some(animbin::options::anim_kind(kind).map_err(rule)?);
    }
    if let Some(precision) = &parsed.precision {
        scene.precision = Some(animbin::options::precision(precision).map_err(rule)?);
    }
    let mut anims = Vec::with_capacity(parsed.anims.len());
    for (named, bytes) in parsed.anims.into_iter().zip(anim_bytes) {
        let document = Document::parse(&bytes, Some(Path::new(&named.name)))
            .map_err(|e| js_error(&format!("{}: {e}", named.name), e.format(), e.offset()))?;
        anims.push(AnimationSource {
            name: named.name,
            document,
        });
    }
    let textures = parsed
        .textures
        .into_iter()
        .zip(texture_bytes)
        .map(|(named, bytes)| (named.name, bytes))
        .collect();
    Ok(ConvertOptions {
        scene,
        strict: parsed.strict,
        anims,
        input: name.map(Path::to_path_buf),
        animation: parsed.animation,
        allow_empty: parsed.allow_empty,
        textures,
        ..ConvertOptions::default()
    })
}

#[wasm_bindgen]
impl AnimbinDocument {
    /// The format's short name (`"seanim"`), as `info --json` gives it.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.document.format().name().to_string()
    }

    /// The summary, as JSON text exactly as `animbin info --json` prints it.
    #[wasm_bindgen(js_name = infoJson)]
    pub fn info_json(&self) -> Result<String, JsValue> {
        info_text(&self.document.info())
    }

    /// Every rule of the format the document breaks, and every suspicious value: an array of
    /// `{ severity, message, location, offset, text }` (`offset` is a byte offset or `null`,
    /// `text` the line `animbin validate` prints after the file name).
    pub fn validate(&self) -> Array {
        self.document
            .validate()
            .into_iter()
            .map(|problem| {
                let object = Object::new();
                let set = |key: &str, value: JsValue| {
                    let _ = Reflect::set(&object, &JsValue::from_str(key), &value);
                };
                set("severity", JsValue::from_str(&problem.severity.to_string()));
                set("message", JsValue::from_str(&problem.message));
                set("location", JsValue::from_str(&problem.location.to_string()));
                let offset = match problem.location {
                    Location::Offset(offset) => JsValue::from_f64(offset as f64),
                    _ => JsValue::NULL,
                };
                set("offset", offset);
                set("text", JsValue::from_str(&problem.to_string()));
                JsValue::from(object)
            })
            .collect()
    }

    /// The whole document as JSON text, losslessly (`animbin dump`).
    pub fn dump(&self) -> Result<String, JsValue> {
        let mut bytes = Vec::new();
        self.document.dump(&mut bytes).map_err(|e| library_error(&e))?;
        String::from_utf8(bytes).map_err(|e| usage_error(e.to_string()))
    }

    /// The names of the targets the document can be written as: its own format's, then
    /// every other that can hold part of it (`animbin convert --to`), then `"json"` (a dump).
    pub fn targets(&self) -> Array {
        animbin::writable_targets(&self.document, &SceneOptions::default())
            .into_iter()
            .map(|t| JsValue::from_str(t.name()))
            .collect()
    }

    /// The extension of the file written as `target` (`"glb"`, `"bin"` for sf3).
    #[wasm_bindgen(js_name = targetExtension)]
    pub fn target_extension(target: &str) -> Result<String, JsValue> {
        let target: Target = target
            .parse()
            .map_err(|e: animbin::UnknownName| usage_error(e.to_string()))?;
        Ok(target.output_extension().to_string())
    }

    /// Converts the document to `target` (a target's name) with `options` (see the
    /// TypeScript types: frame rate, axes, scale, strictness, animations and textures given
    /// beside it): `{ bytes, lost }`, the file's bytes and one line per kind of loss.
    pub fn convert(&self, target: &str, options: JsValue) -> Result<Object, JsValue> {
        let target: Target = target
            .parse()
            .map_err(|e: animbin::UnknownName| usage_error(e.to_string()))?;
        let options = convert_options(self.name.as_deref(), self.input_size, &options)?;
        let conversion = animbin::convert(&self.document, target, &options).map_err(|e| library_error(&e))?;
        let bytes = conversion.to_bytes().map_err(|e| library_error(&e))?;
        let lost: Array = conversion.lost_lines().iter().map(|l| JsValue::from_str(l)).collect();
        let result = Object::new();
        Reflect::set(&result, &"bytes".into(), &Uint8Array::from(bytes.as_slice()))?;
        Reflect::set(&result, &"lost".into(), &lost)?;
        Ok(result)
    }

    /// A glb of the document with the animation files and textures of `options` joined (the
    /// three.js loader's and the page's view): `convert("glb", options)`.
    pub fn glb(&self, options: JsValue) -> Result<Object, JsValue> {
        self.convert(Target::Glb.name(), options)
    }

    /// The animations as a conversion with `options` sees them (the animation files given
    /// joined): `[{ name, framerate, frameCount, looping, notes: [{ frame, time, name }] }]`,
    /// in the order of the glb's animations.
    pub fn animations(&self, options: JsValue) -> Result<Array, JsValue> {
        let options = convert_options(self.name.as_deref(), self.input_size, &options)?;
        let scene = self.document.scene_with(&options).map_err(|e| library_error(&e))?;
        let list = Array::new();
        for (animation, name) in scene.scene.animations.iter().zip(&scene.names) {
            let object = Object::new();
            Reflect::set(&object, &"name".into(), &JsValue::from_str(name))?;
            Reflect::set(&object, &"framerate".into(), &JsValue::from_f64(animation.framerate))?;
            Reflect::set(&object, &"frameCount".into(), &JsValue::from_f64(animation.frame_count))?;
            Reflect::set(&object, &"looping".into(), &JsValue::from_bool(animation.looping))?;
            let notes = Array::new();
            for note in &animation.notes {
                let n = Object::new();
                Reflect::set(&n, &"frame".into(), &JsValue::from_f64(note.frame))?;
                let time = if animation.framerate > 0.0 {
                    note.frame / animation.framerate
                } else {
                    0.0
                };
                Reflect::set(&n, &"time".into(), &JsValue::from_f64(time))?;
                Reflect::set(&n, &"name".into(), &JsValue::from_str(&note.name))?;
                notes.push(&n);
            }
            Reflect::set(&object, &"notes".into(), &notes)?;
            list.push(&object);
        }
        Ok(list)
    }

    /// The scene graph a conversion with `options` sees, which the glb of [`Self::glb`]
    /// holds, as JSON text: `{ nodes, meshes, instances, cameras, lights }`. Each node is
    /// `{ name, parent, kind, world }`, `kind` `"bone"` or `"plain"` and `world` its transform
    /// in the world at rest (the library's `Scene::node_world_matrices`: parents and the
    /// model's placement applied) as 16 numbers, column by column as glTF and three.js's
    /// `Matrix4.fromArray` take them. `meshes` are the meshes' names; an instance is
    /// `{ name, node, meshes }` (indices into `nodes` and `meshes`), a camera `{ name, node,
    /// projection }` (`{ perspective: { yfov, aspect_ratio, znear, zfar } }` or
    /// `{ orthographic: { xmag, ymag, znear, zfar } }`), a light `{ name, node, kind, color,
    /// intensity, range }`.
    pub fn graph(&self, options: JsValue) -> Result<String, JsValue> {
        let options = convert_options(self.name.as_deref(), self.input_size, &options)?;
        let scene = self.document.scene_with(&options).map_err(|e| library_error(&e))?.scene;
        let world = scene.node_world_matrices();
        let nodes: Vec<serde_json::Value> = scene
            .skeleton
            .bones
            .iter()
            .zip(&world)
            .map(|(bone, matrix)| {
                let columns: Vec<f64> = (0..4).flat_map(|c| matrix.rows.iter().map(move |row| row[c])).collect();
                serde_json::json!({
                    "name": bone.name,
                    "parent": bone.parent,
                    "kind": if bone.kind.is_bone() { "bone" } else { "plain" },
                    "world": columns,
                })
            })
            .collect();
        let meshes: Vec<&str> = scene.meshes.iter().map(|m| m.name.as_str()).collect();
        let graph = serde_json::json!({
            "nodes": nodes,
            "meshes": meshes,
            "instances": scene.mesh_instances,
            "cameras": scene.cameras,
            "lights": scene.lights,
        });
        // JSON has no infinities: a matrix entry that overflowed f64 is null.
        Ok(graph.to_string())
    }

    /// The name of the file this document is written to as `target`: the stem of the name it
    /// was opened with (or `"animbin"`) and the target's extension.
    #[wasm_bindgen(js_name = outputName)]
    pub fn output_name(&self, target: &str) -> Result<String, JsValue> {
        let target: Target = target
            .parse()
            .map_err(|e: animbin::UnknownName| usage_error(e.to_string()))?;
        let stem = self
            .name
            .as_deref()
            .and_then(Path::file_stem)
            .map(|s| animbin::file_name(&s.to_string_lossy()))
            .unwrap_or_else(|| "animbin".to_string());
        Ok(format!("{stem}.{}", target.output_extension()))
    }
}

#[cfg(test)]
mod tests {
    use super::js_name;

    #[test]
    fn option_keywords_are_spelled_as_javascript_spells_them() {
        assert_eq!(js_name("anim_type"), "animType");
        assert_eq!(js_name("scale"), "scale");
        assert_eq!(js_name("max_input_size"), "maxInputSize");
    }
}
