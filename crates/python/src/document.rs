//! `animbin.Document`, `animbin.open`, `animbin.undump` and `animbin.from_scene`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use animbin::{ConvertOptions, Format, ReadOptions, SaveOptions, Target};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString, PyTuple};

use crate::errors::{format_error, output_error, raise, warn_losses};
use crate::files::{self, ReadError};
use crate::interrupt::{self, Cancel};
use crate::options;
use crate::scene;
use crate::scene_keys::{self, KeyDtype};

/// A file of any supported format, read into memory (it does not keep the file open).
///
/// Conversion options, taken as keyword arguments by ``to_gltf``, ``convert``, ``write`` and
/// ``scene``: ``framerate`` (frames per second for formats that store none: x8an, AnimX),
/// ``z_up`` (the non-glTF side is Z-up), ``scale`` (lengths times this are glTF metres),
/// ``anims`` (other files' animations to join by bone name: paths or Documents),
/// ``strict`` (a ``FormatError`` instead of a ``LossWarning`` for anything lost),
/// ``anim_type``, ``looped`` and ``precision`` (what an SEAnim output states),
/// ``animation`` (keep only the animation of this name), ``allow_empty`` (write a glTF
/// that holds nothing) and ``normalize_rotations`` (scale x8an's rounded rotations to unit
/// length).
///
/// A document pickles (for ``multiprocessing``, Dask and ``copy``) as its bytes in its own
/// form, its format and its path: the copy has the same format, summary, dump and bytes.
#[pyclass(frozen, module = "animbin")]
pub(crate) struct Document {
    /// Shared with a conversion's thread, which may outlive an interrupted call.
    inner: Arc<animbin::Document>,
    /// The path it was opened from.
    path: Option<PathBuf>,
    /// How it was read (`open`'s `max_input_size` and `max_accessor_values`): its
    /// conversions read texture files beside it and its glTF accessors under the same bounds.
    read: ReadOptions,
}

impl Document {
    /// The library's document.
    pub(crate) fn inner(&self) -> &animbin::Document {
        &self.inner
    }

    /// The path it was opened from, as text.
    pub(crate) fn path_text(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }

    /// A library error about this document, naming its file when it came from one.
    fn error(&self, py: Python<'_>, error: animbin::Error) -> PyErr {
        format_error(py, error, self.path.as_deref())
    }

    /// The library's options for a conversion of this document with `kwargs`.
    fn options(&self, method: &str, kwargs: Option<&Bound<'_, PyDict>>, allowed: &[&str]) -> PyResult<ConvertOptions> {
        let mut options = options::read(method, kwargs, allowed)?;
        options.input.clone_from(&self.path);
        // Texture files read beside the input count against the limit it was opened with,
        // as the command's do.
        options.max_input_size = Some(self.read.max_input_size);
        options.max_accessor_values = self.read.max_accessor_values;
        Ok(options)
    }

    /// Converts to `target` and hands the encoded result to `finish` (which returns bytes
    /// or saves them, writing through the [`Cancel`]'s writer), on a thread of its own: Ctrl-C
    /// raises `KeyboardInterrupt` at once and the output is not written ([`interrupt`]);
    /// what was lost becomes `LossWarning`s.
    fn convert_with<T: Send + 'static>(
        &self,
        py: Python<'_>,
        target: Target,
        options: ConvertOptions,
        finish: impl FnOnce(&animbin::Conversion<'_>, &Cancel) -> animbin::Result<T> + Send + 'static,
        error: impl FnOnce(animbin::Error) -> PyErr,
    ) -> PyResult<T> {
        let document = Arc::clone(&self.inner);
        let (value, lost) = interrupt::run(py, move |cancel| {
            let conversion = animbin::convert(&document, target, &options)?;
            let value = finish(&conversion, &cancel)?;
            Ok((value, conversion.lost_lines()))
        })?
        .map_err(error)?;
        warn_losses(py, lost, 1)?;
        Ok(value)
    }
}

#[pymethods]
impl Document {
    /// The format's name, one of ``FORMATS`` (as ``animbin info --json`` says it).
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format().name()
    }

    /// The path it was opened from (``None`` for bytes or a dump); textures are looked for
    /// beside it, and its stem names the animations its format stores no name for.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path_text()
    }

    /// The summary that ``animbin info --json`` prints: ``{"format": ..., counts and header
    /// fields}``.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.inner.info())
            .map_err(|e| raise(py, format!("the summary does not serialise: {e}"), None, None, None))?;
        json_loads(py, &text)
    }

    /// Every rule of the format the document breaks, and every legal but suspicious value:
    /// dicts with ``severity`` (``"error"`` or ``"warning"``), ``location`` (text: ``"byte 12
    /// (0xc)"``, ``"bone 3"``, ``"file"``), ``offset`` (the byte offset, or ``None``) and
    /// ``message``. Empty for a clean file.
    fn validate<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let problems = py.detach(|| self.read.scope(|| self.inner.validate()));
        problems
            .iter()
            .map(|problem| {
                let d = PyDict::new(py);
                d.set_item("severity", problem.severity.to_string())?;
                d.set_item("location", problem.location.to_string())?;
                let offset = match problem.location {
                    animbin::Location::Offset(offset) => Some(offset),
                    _ => None,
                };
                d.set_item("offset", offset)?;
                d.set_item("message", &problem.message)?;
                Ok(d)
            })
            .collect()
    }

    /// The whole document as JSON, ``{"format": NAME, "data": ...}``, losslessly:
    /// ``undump(doc.dump())`` converts back to the same bytes.
    fn dump(&self, py: Python<'_>) -> PyResult<String> {
        let bytes = py
            .detach(|| {
                let mut bytes = Vec::new();
                self.inner.dump(&mut bytes).map(|()| bytes)
            })
            .map_err(|e| self.error(py, e))?;
        String::from_utf8(bytes).map_err(|e| raise(py, format!("the dump is not UTF-8: {e}"), None, None, None))
    }

    /// The document in its own format (a file read unchanged gives its bytes back).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let target = self.inner.own_target();
        let bytes = py
            .detach(|| self.inner.to_bytes(target))
            .map_err(|e| self.error(py, e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The document as glTF 2.0: a ``.glb`` (``binary=True``) or ``.gltf`` JSON with the
    /// buffer embedded. Texture files beside ``path`` are embedded. Options: see the class.
    // The keywords `options` takes, for help() and inspect.signature (the stub lists them too).
    #[pyo3(signature = (binary = true, **options), text_signature = "($self, binary=True, *, framerate=None, z_up=False, scale=1.0, anims=(), strict=False, animation=None, allow_empty=False, normalize_rotations=False)")]
    fn to_gltf<'py>(
        &self,
        py: Python<'py>,
        binary: bool,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let target = if binary { Target::Glb } else { Target::Gltf };
        let options = self.options("to_gltf", options, options::GLTF)?;
        let bytes = self.convert_with(py, target, options, |c, _| c.to_bytes(), |e| self.error(py, e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The document converted to ``format`` (one of ``TARGETS``), as bytes. The document's
    /// own format gives its bytes back; ``"json"`` is its dump. Options: see the class.
    // The keywords `options` takes, for help() and inspect.signature (the stub lists them too).
    #[pyo3(signature = (format, **options), text_signature = "($self, format, *, framerate=None, z_up=False, scale=1.0, anims=(), strict=False, anim_type=None, looped=None, precision=None, animation=None, allow_empty=False, normalize_rotations=False)")]
    fn convert<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let target = parse_target(format)?;
        let options = self.options("convert", options, options::CONVERT)?;
        let bytes = self.convert_with(py, target, options, |c, _| c.to_bytes(), |e| self.error(py, e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Converts and writes to ``path``, whole or not at all (a temporary file renamed over
    /// it; a symbolic link is written through to its target). ``format`` defaults to what the
    /// extension says (``.seanim``, ``.glb``, ``.json`` for a dump...). A read-only file at
    /// ``path`` is refused (``PermissionError``) and left as it is, unless ``force=True``.
    /// What the output's file system refuses (a missing folder, a full disk) is an
    /// ``OSError`` with ``filename`` set to ``path``. Options: see the class.
    // The keywords `options` takes, for help() and inspect.signature (the stub lists them too).
    #[pyo3(signature = (path, format = None, *, force = false, **options), text_signature = "($self, path, format=None, *, force=False, framerate=None, z_up=False, scale=1.0, anims=(), strict=False, anim_type=None, looped=None, precision=None, animation=None, allow_empty=False, normalize_rotations=False)")]
    fn write(
        &self,
        py: Python<'_>,
        path: PathBuf,
        format: Option<&str>,
        force: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let target = match format {
            Some(name) => parse_target(name)?,
            None => Target::from_path(&path).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "cannot tell the output format from {}; pass format= with one of: {}",
                    path.display(),
                    target_names().join(", ")
                ))
            })?,
        };
        let options = self.options("write", options, options::CONVERT)?.writing_to(&path);
        let save = SaveOptions { force };
        let destination = path.clone();
        self.convert_with(
            py,
            target,
            options,
            move |conversion, cancel| {
                animbin::save_with(&destination, save, |writer| conversion.write(cancel.writer(writer)))
            },
            |e| output_error(py, e, &path, self.path.as_deref()),
        )
    }

    /// The document as a scene: skeleton, meshes, materials, textures and animations as
    /// NumPy arrays (copied once; they outlive the document). ``anims`` appends other
    /// files' animations (tracks naming bones the document lacks are a ``LossWarning``);
    /// ``z_up`` and ``scale`` concern a glTF document only (the other formats are read as
    /// they are); ``strict`` makes anything the scene cannot hold a ``FormatError`` (else it
    /// is listed in ``Scene.lost``). With ``name_animations=True`` an animation whose format
    /// stores no name is named as conversions name it: after its file's stem (``_1``,
    /// ``_2``... for several), as an importer names its actions.
    // The keywords `options` takes, for help() and inspect.signature (the stub lists them too).
    #[pyo3(signature = (name_animations = false, **options), text_signature = "($self, name_animations=False, *, framerate=None, z_up=False, scale=1.0, anims=(), strict=False, normalize_rotations=False)")]
    fn scene<'py>(
        &self,
        py: Python<'py>,
        name_animations: bool,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = self.options("scene", options, options::SCENE)?;
        // On a thread of its own, as a conversion: running out of memory raises MemoryError.
        let (document, asked) = (Arc::clone(&self.inner), options.clone());
        let mut built = interrupt::run(py, move |_| document.scene_with(&asked))?.map_err(|e| self.error(py, e))?;
        if name_animations {
            for (animation, name) in built.scene.animations.iter_mut().zip(&built.names) {
                animation.name.clone_from(name);
            }
        }
        warn_losses(py, built.unmatched.iter().map(ToString::to_string), 1)?;
        // Key values at the precision of the files they came from (the joined ones too).
        let keys = options
            .anims
            .iter()
            .map(|source| KeyDtype::of_document(&source.document))
            .fold(KeyDtype::of_document(&self.inner), KeyDtype::join);
        scene::to_python(py, built.scene, &built.report, keys)
    }

    /// Pickles as ``(bytes in its own form, format, path)``.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        static UNPICKLE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let rebuild = UNPICKLE.import(py, "animbin._animbin", "_unpickle")?;
        let bytes = self.to_bytes(py)?;
        (rebuild, (bytes, self.format(), self.path.clone())).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        match &self.path {
            Some(path) => format!("<animbin.Document {} {:?}>", self.format(), path.display().to_string()),
            None => format!("<animbin.Document {}>", self.format()),
        }
    }
}

/// `json.loads(text)`.
fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    LOADS.import(py, "json", "loads")?.call1((text,))
}

/// Every target's name.
fn target_names() -> Vec<&'static str> {
    Target::ALL.iter().map(|t| t.name()).collect()
}

/// A target by name; an unknown one is a `ValueError` listing the valid names.
fn parse_target(name: &str) -> PyResult<Target> {
    name.parse::<Target>().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A format by name; an unknown one is a `ValueError` listing the valid names.
fn parse_format(name: Option<&str>) -> PyResult<Option<Format>> {
    name.map(|n| n.parse::<Format>().map_err(|e| PyValueError::new_err(e.to_string())))
        .transpose()
}

/// `animbin.open(source, format=None, max_input_size=None, max_accessor_values=None)`: a
/// path or the file's bytes. `max_input_size` (bytes as an `int`, or text such as `"64M"`,
/// by the library's rule) bounds what is read of a path, and of the files read beside it
/// then and by its conversions; bytes given are already in memory and read as they are.
/// `max_accessor_values` (likewise) bounds what a glTF's accessors give.
#[pyfunction]
#[pyo3(name = "_open", signature = (source, format = None, max_input_size = None, max_accessor_values = None))]
pub(crate) fn open(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    max_input_size: Option<&Bound<'_, PyAny>>,
    max_accessor_values: Option<&Bound<'_, PyAny>>,
) -> PyResult<Document> {
    let format = parse_format(format)?;
    let read = options::read_options(max_input_size, max_accessor_values)?;
    let parse = |bytes: &[u8]| {
        py.detach(|| read.scope(|| animbin::Document::parse_as(bytes, None, format)))
            .map(|inner| Document {
                inner: Arc::new(inner),
                path: None,
                read,
            })
    };
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let bytes = bytes.as_bytes();
        return parse(bytes).map_err(|e| match path_in_bytes(bytes) {
            Some(path) => with_path_hint(py, &e, &path),
            None => format_error(py, e, None),
        });
    }
    if source.is_instance_of::<PyByteArray>() || source.is_instance_of::<PyMemoryView>() {
        // A copy: a bytearray could change under a parse that released the GIL.
        static BYTES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let bytes = BYTES.import(py, "builtins", "bytes")?.call1((source,))?;
        return parse(bytes.cast::<PyBytes>()?.as_bytes()).map_err(|e| format_error(py, e, None));
    }
    let path: PathBuf = source.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "open: expected a path (str or os.PathLike) or bytes, got {}",
            type_name(source)
        ))
    })?;
    let inner = open_path(py, &path, format, &read)?;
    Ok(Document {
        inner: Arc::new(inner),
        path: Some(path),
        read,
    })
}

/// The document at `path`, read by [`files::read`] (interruptible, at most
/// `read.max_input_size` bytes) and parsed as the library parses it. Errors name the file
/// (and an input over the limit the keyword that raises it).
pub(crate) fn open_path(
    py: Python<'_>,
    path: &Path,
    format: Option<Format>,
    read: &ReadOptions,
) -> PyResult<animbin::Document> {
    let bytes = files::read(py, path, read.max_input_size).map_err(|e| match e {
        ReadError::Python(err) => err,
        ReadError::Io(source) => format_error(
            py,
            animbin::Error::Io {
                path: path.to_path_buf(),
                source,
            },
            None,
        ),
    })?;
    // On a thread of its own, as a conversion: running out of memory while parsing raises
    // MemoryError (crate::memory), and Ctrl-C returns at once.
    let (owned, read) = (path.to_path_buf(), *read);
    interrupt::run(py, move |_| {
        read.scope(|| animbin::Document::parse_file_with(&bytes, &owned, format, &read))
    })?
    .map_err(|e| format_error(py, e, Some(path)))
}

/// The path that `bytes` spell, when they look like one that a caller meant to open: short,
/// without NUL or line breaks, starting with `/`, `.`, `~` or a drive (`C:\`), and naming a
/// file that exists.
fn path_in_bytes(bytes: &[u8]) -> Option<String> {
    if bytes.len() > 4096 || bytes.iter().any(|&b| b == 0 || b == b'\n' || b == b'\r') {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let drive = matches!(text.as_bytes(), [letter, b':', b'\\' | b'/', ..] if letter.is_ascii_alphabetic());
    if !(text.starts_with('/') || text.starts_with('.') || drive) {
        return None;
    }
    Path::new(text).exists().then(|| text.to_owned())
}

/// The `FormatError` for `error`, with a hint that `open` took the bytes that spell `path`
/// as the file's contents.
fn with_path_hint(py: Python<'_>, error: &animbin::Error, path: &str) -> PyErr {
    let message = format!(
        "{error}; did you mean animbin.open({path:?})? bytes are read as the file's contents, \
         a path is given as str or pathlib.Path"
    );
    raise(py, message, error.format().map(Format::name), error.offset(), None)
}

/// `pickle`'s way back to a document: the bytes of its own form, as `format`, opened from
/// `path` (kept for its texture search and animation names; the file is not read again).
#[pyfunction]
#[pyo3(name = "_unpickle")]
pub(crate) fn unpickle(py: Python<'_>, bytes: &[u8], format: &str, path: Option<PathBuf>) -> PyResult<Document> {
    let parsed = parse_format(Some(format))?;
    let inner = py
        .detach(|| animbin::Document::parse_as(bytes, path.as_deref(), parsed))
        .map_err(|e| format_error(py, e, path.as_deref()))?;
    Ok(Document {
        inner: Arc::new(inner),
        path,
        read: ReadOptions::default(),
    })
}

/// Reads an animbin dump (``Document.dump()``, as text, bytes or the parsed dict).
#[pyfunction]
pub(crate) fn undump(py: Python<'_>, dump: &Bound<'_, PyAny>) -> PyResult<Document> {
    let text: Vec<u8> = if let Ok(text) = dump.cast::<PyString>() {
        text.extract::<String>()?.into_bytes()
    } else if let Ok(bytes) = dump.cast::<PyBytes>() {
        bytes.as_bytes().to_vec()
    } else if dump.is_instance_of::<PyDict>() {
        static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let text = DUMPS.import(py, "json", "dumps")?.call1((dump,))?;
        text.extract::<String>()?.into_bytes()
    } else {
        return Err(PyTypeError::new_err(format!(
            "undump: expected str, bytes or dict, got {}",
            type_name(dump)
        )));
    };
    py.detach(|| animbin::Document::undump(&text))
        .map(|inner| Document {
            inner: Arc::new(inner),
            path: None,
            read: ReadOptions::default(),
        })
        .map_err(|e| format_error(py, e, None))
}

/// `animbin.from_scene`'s native half: the scene as `Scene._to_native()` gives it.
#[pyfunction]
#[pyo3(name = "_from_scene")]
pub(crate) fn from_scene(
    py: Python<'_>,
    scene: &Bound<'_, PyDict>,
    format: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Document> {
    let target = parse_target(format)?;
    if target == Target::Dump {
        return Err(PyValueError::new_err(
            "from_scene: a dump (json) is not a format to build; build one and call dump()",
        ));
    }
    let mut options = options::read("from_scene", options, options::FROM_SCENE)?;
    // float32 key values ask a format that chooses its precision for single; float64 ones
    // leave the choice to the writer (single when every value is exactly an f32). Keys a
    // new anim type rewrites stay single without being asked (asking would report their
    // rounding as a loss).
    let chooses = target.format().is_some_and(|f| f.info().chooses_precision);
    if chooses && options.scene.precision.is_none() && options.scene.anim_kind.is_none() {
        options.scene.precision = scene_keys::implied_precision(scene)?;
    }
    let built = scene::from_python(scene)?;
    let conversion = py
        .detach(|| animbin::convert_scene(&built, target, &options))
        .map_err(|e| format_error(py, e, None))?;
    // Stack level 2: the caller of `animbin.from_scene`, the Python function calling this.
    warn_losses(py, conversion.lost_lines(), 2)?;
    Ok(Document {
        inner: Arc::new(conversion.into_document()),
        path: None,
        read: ReadOptions::default(),
    })
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
}
