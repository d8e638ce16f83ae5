//! Running out of memory in a conversion raises `MemoryError` instead of ending the
//! interpreter with Rust's `memory allocation of N bytes failed` and an abort.
//!
//! Rust lets a program choose what an allocation failure does only through its global
//! allocator (the error hook is unstable, and an allocator must not unwind), so the
//! extension's allocator is the system's, wrapped, as the command's is. A conversion runs on
//! threads of its own ([`crate::interrupt::run`]), each marked with the conversion's
//! [`Outcome`] ([`Marked`]); when the system refuses one of their requests, the allocator
//! records the size there and stops that thread for good (it sleeps: it cannot unwind, and
//! returning would abort), and the caller, which waits for the conversion with the GIL
//! released, sees the record and raises `MemoryError`. An output being written is never put
//! in place (it is written to a file with no name until complete). What the stopped thread
//! held stays held: the process keeps running with that memory spent, which is the price of
//! not aborting.
//!
//! A request refused on any other thread (Python's own, reading the input) returns null as
//! before, and Rust aborts: stopping a thread of Python's would hang the interpreter.
#![allow(unsafe_code)]

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use animbin_alloc::ReportingAllocator;

/// The system's allocator, reporting refusals to [`refused`].
#[global_allocator]
static ALLOCATOR: ReportingAllocator = ReportingAllocator::new(refused);

/// What a conversion's threads report to the caller waiting for it: the size of the first
/// request the system refused them, 0 while none was.
#[derive(Default)]
pub(crate) struct Outcome(AtomicUsize);

impl Outcome {
    /// The bytes a thread of the conversion could not get, if the system refused any.
    pub(crate) fn refused(&self) -> Option<usize> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            size => Some(size),
        }
    }
}

thread_local! {
    /// The outcome of the conversion this thread works for (null: none). A plain pointer
    /// with a constant initialiser, so that reading it in the allocator neither allocates
    /// nor registers a destructor; [`Marked`] keeps what it points to alive.
    static OUTCOME: Cell<*const Outcome> = const { Cell::new(std::ptr::null()) };
}

/// This thread, marked as working for a conversion whose [`Outcome`] it holds, until
/// dropped.
pub(crate) struct Marked(#[allow(dead_code)] Arc<Outcome>);

impl Marked {
    /// Marks this thread for `outcome`.
    pub(crate) fn new(outcome: &Arc<Outcome>) -> Self {
        OUTCOME.with(|slot| slot.set(Arc::as_ptr(outcome)));
        Self(Arc::clone(outcome))
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        OUTCOME.with(|slot| slot.set(std::ptr::null()));
    }
}

/// On a marked thread, records `size` in its conversion's outcome and stops the thread for
/// good; elsewhere returns, and the caller's null becomes Rust's abort. Allocates nothing.
fn refused(size: usize) {
    let outcome = OUTCOME.try_with(Cell::get).unwrap_or(std::ptr::null());
    if outcome.is_null() {
        return;
    }
    // SAFETY: the pointer was set by `Marked::new` from an `Arc` that the `Marked` still
    // holds: it clears the pointer before letting go of it, and this thread is inside it.
    let outcome = unsafe { &*outcome };
    let _ = outcome
        .0
        .compare_exchange(0, size.max(1), Ordering::SeqCst, Ordering::SeqCst);
    loop {
        std::thread::sleep(Duration::from_secs(1 << 20));
    }
}

thread_local! {
    /// The mark of a thread of a conversion's pool ([`pool`]), set when it starts and
    /// dropped when it ends.
    static POOL_MARK: std::cell::RefCell<Option<Marked>> = const { std::cell::RefCell::new(None) };
}

/// A thread pool for one conversion's parallel parts (the library spreads work over rayon's
/// threads), each of its threads marked for `outcome` as the conversion's own thread is:
/// the global pool's threads serve every caller and could not say whose work they were
/// doing. `None` when no pool can be started (the work then runs as it did without one).
pub(crate) fn pool(outcome: &Arc<Outcome>) -> Option<rayon::ThreadPool> {
    let marks = Arc::clone(outcome);
    rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("animbin conversion {i}"))
        .start_handler(move |_| POOL_MARK.with(|mark| *mark.borrow_mut() = Some(Marked::new(&marks))))
        .exit_handler(|_| POOL_MARK.with(|mark| drop(mark.borrow_mut().take())))
        .build()
        .ok()
}
