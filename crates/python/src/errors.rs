//! The library's errors as Python exceptions: what is wrong with an input (or a scene) as
//! `animbin.FormatError`, what the operating system refused (of an input or an output) as
//! the matching `OSError`; and the library's losses as `animbin.LossWarning`.

use std::ffi::CString;
use std::io;
use std::path::Path;

use animbin::Error;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static FORMAT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static LOSS_WARNING: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `animbin.FormatError(message, format, offset)` for an error of the library about the
/// input `file` (the path the document came from, when it came from one), whose message then
/// starts with that path, as the command's do. A file that the operating system does not let
/// it read is that system's error instead, the matching `OSError` subclass
/// (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`...) with `errno`, `strerror`
/// and `filename` set, as Python's own `open` raises; a file over the size limit is the
/// library's refusal, a `FormatError` with the `OSError` as its `__cause__`.
pub(crate) fn format_error(py: Python<'_>, error: Error, file: Option<&Path>) -> PyErr {
    let (format, offset) = (error.format().map(animbin::Format::name), error.offset());
    let (message, cause) = match &error {
        Error::Io { path, source } if !is_library_refusal(source) => return os_error(py, source, Some(path)),
        // The error names its own file, first.
        Error::Io { path, source } => (
            format!("{error}{}", too_large_hint(source)),
            Some(os_error(py, source, Some(path))),
        ),
        Error::Write(source) => (named(&error, file), Some(os_error(py, source, None))),
        _ => (named(&error, file), None),
    };
    raise(py, message, format, offset, cause)
}

/// The error of writing a conversion of the input `file` to `destination`: a failure of the
/// destination (the library's [`Error::Io`] naming it, whatever the format's writer made of
/// it: a full disk, a missing folder, a read-only file) is an `OSError` naming it; anything
/// else (what the target cannot hold) is the input's [`format_error`].
pub(crate) fn output_error(py: Python<'_>, error: Error, destination: &Path, file: Option<&Path>) -> PyErr {
    match error {
        Error::Io { path, source } if path == destination => os_error(py, &source, Some(&path)),
        error => format_error(py, error, file),
    }
}

/// The message of `error`, after the path of the `file` it concerns when there is one.
fn named(error: &Error, file: Option<&Path>) -> String {
    match file {
        Some(file) => format!("{}: {error}", file.display()),
        None => error.to_string(),
    }
}

/// `OSError(errno, strerror, filename)` for `source`: Python picks the subclass from the
/// errno (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`...). An error that
/// carries no errno of the system's (a refusal of the library's, such as a read-only
/// destination or an input over the size limit) takes the errno of its kind.
pub(crate) fn os_error(py: Python<'_>, source: &io::Error, path: Option<&Path>) -> PyErr {
    let errno = errno_of(py, source);
    let mut reason = source.to_string();
    // Python says the errno itself: "[Errno 2] No such file or directory: 'x.seanim'".
    if let Some(at) = reason.rfind(" (os error ") {
        reason.truncate(at);
    }
    if is_read_only_refusal(source) {
        reason.push_str("; force=True replaces it");
    }
    let filename = path.map(|p| p.as_os_str().to_owned());
    PyOSError::new_err((errno, reason, filename))
}

/// The errno of `source`: the system's, or the one its kind stands for.
fn errno_of(py: Python<'_>, source: &io::Error) -> Option<i32> {
    #[cfg(unix)]
    if let Some(errno) = source.raw_os_error() {
        return Some(errno);
    }
    use io::ErrorKind as K;
    let name = match source.kind() {
        K::NotFound => "ENOENT",
        K::PermissionDenied => "EACCES",
        K::AlreadyExists => "EEXIST",
        K::IsADirectory => "EISDIR",
        K::NotADirectory => "ENOTDIR",
        K::StorageFull => "ENOSPC",
        K::FileTooLarge => "EFBIG",
        K::ReadOnlyFilesystem => "EROFS",
        K::OutOfMemory => "ENOMEM",
        K::Interrupted => "EINTR",
        K::WouldBlock => "EAGAIN",
        K::BrokenPipe => "EPIPE",
        K::InvalidInput => "EINVAL",
        _ => return None,
    };
    py.import("errno").and_then(|m| m.getattr(name)?.extract()).ok()
}

/// The way past the library's refusal of an input over the size limit: the keyword of
/// `animbin.open` that raises it; else nothing.
fn too_large_hint(source: &io::Error) -> &'static str {
    match source.get_ref() {
        Some(inner) if inner.is::<animbin::core::format::TooLarge>() => "; open(..., max_input_size=N) raises it",
        _ => "",
    }
}

/// Whether `source` is a refusal of the library's (an input over the size limit, a
/// read-only destination) rather than the operating system's.
fn is_library_refusal(source: &io::Error) -> bool {
    source.get_ref().is_some_and(|inner| {
        inner.is::<animbin::core::format::TooLarge>() || inner.is::<animbin::core::format::ReadOnly>()
    })
}

/// Whether a save was refused because its destination is read-only.
fn is_read_only_refusal(source: &io::Error) -> bool {
    source
        .get_ref()
        .is_some_and(|inner| inner.is::<animbin::core::format::ReadOnly>())
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
