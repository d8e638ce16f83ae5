//! The keyword options of `convert`, `write`, `to_gltf`, `scene` and `from_scene`.

use std::path::PathBuf;

use animbin::{AnimationSource, ConvertOptions, InvalidOption, ReadOptions, SceneOptions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::document::Document;

/// Every option, by the keyword Python passes it.
pub(crate) const FRAMERATE: &str = "framerate";
pub(crate) const Z_UP: &str = "z_up";
pub(crate) const SCALE: &str = "scale";
pub(crate) const ANIMS: &str = "anims";
pub(crate) const STRICT: &str = "strict";
pub(crate) const ANIM_TYPE: &str = "anim_type";
pub(crate) const LOOPED: &str = "looped";
pub(crate) const PRECISION: &str = "precision";
pub(crate) const ANIMATION: &str = "animation";
pub(crate) const ALLOW_EMPTY: &str = "allow_empty";
pub(crate) const NORMALIZE_ROTATIONS: &str = "normalize_rotations";
/// `animbin.open`'s keyword: the most bytes read of one input.
pub(crate) const MAX_INPUT_SIZE: &str = animbin::options::MAX_INPUT_SIZE;
/// `animbin.open`'s keyword: the most values a glTF's accessors give.
pub(crate) const MAX_ACCESSOR_VALUES: &str = animbin::options::MAX_ACCESSOR_VALUES;

/// What `convert`, `write` and `to_gltf` take.
pub(crate) const CONVERT: &[&str] = &[
    FRAMERATE,
    Z_UP,
    SCALE,
    ANIMS,
    STRICT,
    ANIM_TYPE,
    LOOPED,
    PRECISION,
    ANIMATION,
    ALLOW_EMPTY,
    NORMALIZE_ROTATIONS,
];
/// What `to_gltf` takes: an SEAnim's header options mean nothing for glTF.
pub(crate) const GLTF: &[&str] = &[
    FRAMERATE,
    Z_UP,
    SCALE,
    ANIMS,
    STRICT,
    ANIMATION,
    ALLOW_EMPTY,
    NORMALIZE_ROTATIONS,
];
/// What `Document.scene` takes.
pub(crate) const SCENE: &[&str] = &[FRAMERATE, Z_UP, SCALE, ANIMS, STRICT, NORMALIZE_ROTATIONS];
/// What `from_scene` takes.
pub(crate) const FROM_SCENE: &[&str] = &[
    FRAMERATE,
    Z_UP,
    SCALE,
    STRICT,
    ANIM_TYPE,
    LOOPED,
    PRECISION,
    NORMALIZE_ROTATIONS,
];

/// The library's options for one call, read from its keyword arguments, refusing keywords
/// that `allowed` does not list (a `TypeError`, as Python does for an unexpected keyword)
/// and values of the wrong kind. A value of the right kind that the library's option rules
/// refuse (`animbin::options`, which the command's flags follow too: a frame rate that is not
/// positive, a scale of 0, NaN or infinity, an unknown `anim_type` or `precision`) is a
/// `ValueError` naming the keyword: `write(): scale: 0 is not a finite, non-zero factor
/// ...`. [`ConvertOptions::input`] is the caller's to set.
pub(crate) fn read(method: &str, kwargs: Option<&Bound<'_, PyDict>>, allowed: &[&str]) -> PyResult<ConvertOptions> {
    let mut scene = SceneOptions::default();
    let mut convert = ConvertOptions::default();
    for (key, value) in kwargs.into_iter().flat_map(|kwargs| kwargs.iter()) {
        let key: String = key.extract()?;
        if !allowed.contains(&key.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "{method}() got an unexpected keyword argument '{key}'; it takes {}",
                allowed.join(", ")
            )));
        }
        if value.is_none() {
            continue;
        }
        let field = |e: PyErr| PyTypeError::new_err(format!("{method}(): {key}: {e}"));
        let rule = |e: InvalidOption| PyValueError::new_err(format!("{method}(): {e}"));
        match key.as_str() {
            FRAMERATE => {
                let rate: f64 = value.extract().map_err(field)?;
                scene.framerate = Some(animbin::options::framerate(rate).map_err(rule)?);
            }
            Z_UP => scene.z_up = value.is_truthy()?,
            SCALE => {
                let scale: f64 = value.extract().map_err(field)?;
                scene.unit_scale = animbin::options::scale(scale).map_err(rule)?;
            }
            ANIMS => convert.anims = anim_sources(&value)?,
            STRICT => convert.strict = value.is_truthy()?,
            ANIM_TYPE => {
                let name: String = value.extract().map_err(field)?;
                scene.anim_kind = Some(animbin::options::anim_kind(&name).map_err(rule)?);
            }
            LOOPED => scene.looping = Some(value.is_truthy()?),
            PRECISION => {
                let name: String = value.extract().map_err(field)?;
                scene.precision = Some(animbin::options::precision(&name).map_err(rule)?);
            }
            ANIMATION => convert.animation = Some(value.extract().map_err(field)?),
            ALLOW_EMPTY => convert.allow_empty = value.is_truthy()?,
            NORMALIZE_ROTATIONS => scene.normalize_rotations = value.is_truthy()?,
            _ => {}
        }
    }
    convert.scene = scene;
    Ok(convert)
}

/// `open(..., max_input_size=..., max_accessor_values=...)` as the library's
/// [`ReadOptions`]: `None` for each default (4 GiB; 16 values a byte of a glTF's buffers),
/// else a whole number (an `int`) or text with a unit (`"64M"`, `"8G"`), by the library's
/// rules (`animbin::options::max_input_size` and `max_accessor_values`, which the command's
/// `--max-input-size` and `--max-accessor-values` follow); a value they refuse is a
/// `ValueError` naming the keyword.
pub(crate) fn read_options(
    max_input_size: Option<&Bound<'_, PyAny>>,
    max_accessor_values: Option<&Bound<'_, PyAny>>,
) -> PyResult<ReadOptions> {
    let mut read = ReadOptions::default();
    if let Some(text) = size_text(MAX_INPUT_SIZE, "bytes", max_input_size)? {
        read.max_input_size =
            animbin::options::max_input_size(&text).map_err(|e| PyValueError::new_err(format!("open(): {e}")))?;
    }
    if let Some(text) = size_text(MAX_ACCESSOR_VALUES, "values", max_accessor_values)? {
        read.max_accessor_values = Some(
            animbin::options::max_accessor_values(&text).map_err(|e| PyValueError::new_err(format!("open(): {e}")))?,
        );
    }
    Ok(read)
}

/// The text of a size keyword's value (`None` when not given): an `int` as its digits, or
/// a `str` as it is; anything else is a `TypeError` naming the keyword.
fn size_text(keyword: &str, unit: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(None);
    };
    // `bool` is an `int` in Python, but `True` is no size.
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        Ok(Some(value.str()?.to_string()))
    } else if let Ok(text) = value.cast::<PyString>() {
        Ok(Some(text.to_string()))
    } else {
        Err(PyTypeError::new_err(format!(
            "open(): {keyword}: expected an int ({unit}) or str (\"64M\"), got {}",
            value.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
        )))
    }
}

/// `anims=[...]`: each a `Document` or a path to open.
fn anim_sources(value: &Bound<'_, PyAny>) -> PyResult<Vec<AnimationSource>> {
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "anims: expected a list of paths or Documents, got a single string (write anims=[path])",
        ));
    }
    let mut sources = Vec::new();
    for item in value.try_iter()? {
        let item = item?;
        if let Ok(doc) = item.cast::<Document>() {
            let doc = doc.get();
            sources.push(AnimationSource {
                name: doc.path_text().unwrap_or_else(|| "<document>".into()),
                document: doc.inner().clone(),
            });
            continue;
        }
        let path: PathBuf = item.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "anims: expected paths or Documents, got {}",
                item.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })?;
        // Under the default limit: a larger file is opened with `max_input_size` and passed
        // as a Document.
        let document = crate::document::open_path(value.py(), &path, None, &ReadOptions::default())?;
        sources.push(AnimationSource {
            name: path.display().to_string(),
            document,
        });
    }
    Ok(sources)
}
