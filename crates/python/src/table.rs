//! `animbin.formats()`, `animbin.file_name()` and `animbin.find_texture()`: the library's
//! table of formats and its naming rules, for front ends (the Blender extension builds its
//! menus from them) that must not know formats themselves.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// Every format the library reads, in detection order, each a dict: ``name``, ``label``,
/// ``extensions``, ``has_magic``, ``holds`` (``"bones"``, ``"meshes"``, ``"materials"``,
/// ``"textures"``, ``"animations"``), ``stores_framerate``, ``animation_kinds``,
/// ``names_animations``, ``names_meshes``, ``several_animations``, ``length_ends_on_last_key``,
/// ``chooses_precision``, ``interchange`` (3D tools read and write it themselves: glTF, FBX)
/// and ``targets`` (names for ``convert`` and ``from_scene``).
#[pyfunction]
pub(crate) fn formats(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let text = serde_json::to_string(&animbin::formats())
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("the format table does not serialise: {e}")))?;
    LOADS.import(py, "json", "loads")?.call1((text,))
}

/// ``name`` (an animation's, say) as a file name: characters file systems refuse become
/// ``_``, leading dots and surrounding spaces go; ``"animation"`` when nothing is left.
#[pyfunction]
pub(crate) fn file_name(name: &str) -> String {
    animbin::file_name(name)
}

/// The texture file a material's map ``name`` refers to, looked for as conversions to glTF
/// do: relative to ``folder``, by its file name, then in ``folder``'s ``_images`` and
/// ``textures`` folders. ``None`` when there is none; a name never leads out of ``folder``.
#[pyfunction]
pub(crate) fn find_texture(folder: PathBuf, name: &str) -> Option<PathBuf> {
    animbin::find_texture(&folder, name)
}
