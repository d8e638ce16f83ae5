//! The library's errors as `animbin.FormatError`, and its losses as `animbin.LossWarning`.

use std::ffi::CString;

use animbin::Error;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static FORMAT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static LOSS_WARNING: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `animbin.FormatError(message, format, offset)` for any error of the library; an I/O
/// error keeps the operating system's error as the `__cause__` (an `OSError` subclass
/// such as `FileNotFoundError`).
pub(crate) fn format_error(py: Python<'_>, error: Error) -> PyErr {
    let (format, offset) = where_of(&error);
    let message = error.to_string();
    let cause = match error {
        Error::Io { source, .. } | Error::Write(source) => Some(PyErr::from(source)),
        _ => None,
    };
    raise(py, message, format, offset, cause)
}

/// A `FormatError` with the given fields (for what the module itself refuses, such as a
/// scene that cannot be built).
pub(crate) fn raise(
    py: Python<'_>,
    message: String,
    format: Option<&str>,
    offset: Option<u64>,
    cause: Option<PyErr>,
) -> PyErr {
    let ty = match FORMAT_ERROR.import(py, "animbin._errors", "FormatError") {
        Ok(ty) => ty.clone(),
        // The package is broken (the native module imported without its Python half):
        // an OSError still says what went wrong.
        Err(_) => return PyOSError::new_err(message),
    };
    let err = PyErr::from_type(ty, (message, format.map(str::to_owned), offset));
    if cause.is_some() {
        err.set_cause(py, cause);
    }
    err
}

/// The format and byte offset an error names, when it names them.
fn where_of(error: &Error) -> (Option<&'static str>, Option<u64>) {
    (error.format().map(animbin::Format::name), error.offset())
}

/// Issues `animbin.LossWarning(line)` for each line, attributed to the Python frame
/// `stacklevel` up (1: the caller of the native method); a filter that turns warnings into
/// errors makes this fail, as `warnings.warn` would.
pub(crate) fn warn_losses(py: Python<'_>, lines: impl IntoIterator<Item = String>, stacklevel: i32) -> PyResult<()> {
    let category = LOSS_WARNING.import(py, "animbin._errors", "LossWarning")?;
    for line in lines {
        // A NUL byte (from a name in the file) cannot pass through C's strings.
        let text = CString::new(line.replace('\0', "\\0")).unwrap_or_default();
        PyErr::warn(py, category, &text, stacklevel)?;
    }
    Ok(())
}
