//! The native half of the `animbin` Python package (`animbin._animbin`).
//!
//! `animbin` opens, inspects, validates, dumps and converts SEAnim, SEModel, Cast, AnimX,
//! Shining Force III x8an, DMF and glTF files from Python, and hands their scenes to
//! NumPy. This crate is only the translation: every decision (detection, reading, the
//! scene model, conversion, atomic writes) is the `animbin` crate's. The Python half
//! (`python/animbin/`) holds the scene classes, the exception and warning types and the
//! type stubs; it is built into one abi3 wheel with maturin (see the crate's README).
//!
//! Errors never cross as panics: a library error about an input or a scene becomes
//! `animbin.FormatError` (a `ValueError` with `format` and `offset`, naming the file), a
//! file the operating system refuses (an input or an output) the matching `OSError` naming
//! it, bad arguments a `ValueError` or `TypeError`, and what a conversion loses an
//! `animbin.LossWarning`. Files are read in chunks with the GIL released, so that Ctrl-C
//! interrupts a long read (`files`), and a conversion that runs out of memory raises
//! `MemoryError` (`memory`).

mod document;
mod errors;
mod files;
mod interrupt;
mod memory;
mod options;
mod pose;
mod scene;
mod scene_graph;
mod scene_hair;
mod scene_keys;
mod scene_morph;
mod scene_rig;
mod table;

use pyo3::prelude::*;

/// The native module, imported by the package's `__init__.py`.
#[pymodule]
fn _animbin(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let formats: Vec<&str> = animbin::Format::ALL.iter().map(|f| f.name()).collect();
    m.add("FORMATS", pyo3::types::PyTuple::new(m.py(), formats)?)?;
    let targets: Vec<&str> = animbin::Target::ALL.iter().map(|t| t.name()).collect();
    m.add("TARGETS", pyo3::types::PyTuple::new(m.py(), targets)?)?;
    m.add_class::<document::Document>()?;
    m.add_function(wrap_pyfunction!(document::open, m)?)?;
    m.add_function(wrap_pyfunction!(document::undump, m)?)?;
    m.add_function(wrap_pyfunction!(document::from_scene, m)?)?;
    m.add_function(wrap_pyfunction!(document::unpickle, m)?)?;
    m.add_function(wrap_pyfunction!(scene::other_side, m)?)?;
    m.add_function(wrap_pyfunction!(scene_graph::transform_matrices, m)?)?;
    pose::register(m)?;
    m.add_function(wrap_pyfunction!(table::formats, m)?)?;
    m.add_function(wrap_pyfunction!(table::file_name, m)?)?;
    m.add_function(wrap_pyfunction!(table::find_texture, m)?)?;
    Ok(())
}
