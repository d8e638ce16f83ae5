//! Ctrl-C during a conversion: the work runs on a thread of its own while the calling
//! thread waits for it with the GIL released and runs Python's signal handlers between
//! waits, so that `KeyboardInterrupt` ends the call at once however long the conversion
//! would take.
//!
//! The library's conversion is one call that nothing can interrupt, so it cannot stop in the
//! middle; on an interrupt, the call returns and the work is told through [`Cancel`]: an
//! output it is writing fails at its next write (and [`animbin::save_with`] removes what was
//! written), and its result is dropped when it ends.
//!
//! The work's threads (its own and a pool of its own for the library's parallel parts) are
//! marked for [`crate::memory`]: when the system refuses them memory, the call raises
//! `MemoryError` instead of the process aborting.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
use pyo3::prelude::*;

use crate::memory::{self, Marked, Outcome};

/// How long one wait for the work lasts before Python's signal handlers run.
const POLL: Duration = Duration::from_millis(50);

/// The stack of the thread that converts: a main thread's usual 8 MiB, as conversions had
/// when they ran on the caller's thread.
const STACK: usize = 8 << 20;

/// Whether the caller of a conversion was interrupted, shared with the thread doing it.
#[derive(Clone, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Whether the call was interrupted.
    pub(crate) fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `writer`, failing every write once the call was interrupted.
    pub(crate) fn writer<W: Write>(&self, writer: W) -> CancelWriter<W> {
        CancelWriter {
            inner: writer,
            cancel: self.clone(),
        }
    }
}

/// A writer that fails once its [`Cancel`] is set (see [`Cancel::writer`]).
pub(crate) struct CancelWriter<W> {
    inner: W,
    cancel: Cancel,
}

impl<W: Write> CancelWriter<W> {
    fn check(&self) -> io::Result<()> {
        if self.cancel.is_set() {
            // Not ErrorKind::Interrupted: write_all takes that for EINTR and tries again.
            Err(io::Error::other("the call was interrupted (KeyboardInterrupt)"))
        } else {
            Ok(())
        }
    }
}

impl<W: Write> Write for CancelWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.inner.flush()
    }
}

/// `work`'s result, computed on a thread of its own while this one waits with the GIL
/// released and runs Python's signal handlers every [`POLL`]: an exception they raise
/// (`KeyboardInterrupt`) sets `work`'s [`Cancel`] and is returned at once. When the system
/// refuses the work's threads memory, the call raises `MemoryError` ([`crate::memory`]).
pub(crate) fn run<T: Send + 'static>(py: Python<'_>, work: impl FnOnce(Cancel) -> T + Send + 'static) -> PyResult<T> {
    let cancel = Cancel::default();
    let outcome = Arc::new(Outcome::default());
    let (sender, mut receiver) = mpsc::sync_channel(1);
    let theirs = cancel.clone();
    let marks = Arc::clone(&outcome);
    std::thread::Builder::new()
        .name("animbin conversion".into())
        .stack_size(STACK)
        .spawn(move || {
            let _marked = Marked::new(&marks);
            let result = match memory::pool(&marks) {
                // The library's parallel parts run on threads marked as this one is.
                Some(pool) => pool.install(move || work(theirs)),
                None => work(theirs),
            };
            // The caller may have gone (interrupted): the result is then dropped.
            let _ = sender.send(result);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the conversion's thread: {e}")))?;
    loop {
        // A Receiver is not Sync: it goes into the wait and comes back.
        let (back, got) = py.detach(move || {
            let got = receiver.recv_timeout(POLL);
            (receiver, got)
        });
        receiver = back;
        match got {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {
                if let Some(size) = outcome.refused() {
                    cancel.0.store(true, Ordering::Relaxed);
                    return Err(out_of_memory(size));
                }
                if let Err(interrupt) = py.check_signals() {
                    cancel.0.store(true, Ordering::Relaxed);
                    return Err(interrupt);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the conversion's thread ended without a result",
                ));
            }
        }
    }
}

/// The `MemoryError` of work whose thread could not get `size` bytes.
fn out_of_memory(size: usize) -> PyErr {
    PyMemoryError::new_err(format!(
        "out of memory: could not allocate {size} bytes more for this input; nothing was written \
         (allow the process more memory)"
    ))
}
