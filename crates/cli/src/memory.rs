//! Running out of memory ends the command as a bad input does: exit 1, a message naming what
//! could not be allocated, and no output left behind, instead of Rust's
//! `memory allocation of N bytes failed` and an abort (SIGABRT, a core dump) that a batch, a
//! script or `ulimit -v` would take for a crash.
//!
//! Rust lets a program choose what an allocation failure does only through its global
//! allocator (the error hook is unstable), so the command's allocator is the system's,
//! wrapped ([`animbin_alloc::ReportingAllocator`]): a request the system refuses reports and
//! ends the process there. Outputs are written to a file with no name
//! until it is complete (or a `.partial` file that [`end`] removes), so ending mid-write
//! leaves nothing.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use animbin_alloc::ReportingAllocator;

/// The system's allocator; a request it refuses ends the command ([`end`]).
pub(crate) const ALLOCATOR: ReportingAllocator = ReportingAllocator::new(refused);

/// What the allocator calls with the size of a refused request.
fn refused(size: usize) {
    end(size)
}

/// Whether [`end`] has begun: what it does may allocate, and a second refusal then ends the
/// process without the cleanup.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Says that `size` bytes could not be allocated, removes any `.partial` output and exits 1.
/// The message is formatted on the stack: the heap is what ran out.
fn end(size: usize) -> ! {
    if !ENDING.swap(true, Ordering::SeqCst) {
        let mut line = [0u8; 256];
        let mut free = &mut line[..];
        let _ = writeln!(
            free,
            "animbin: out of memory: could not allocate {size} bytes more for this input; \
             nothing was written (allow the process more memory, or lower --jobs)"
        );
        let used = 256 - free.len();
        let _ = std::io::stderr().write_all(&line[..used]);
        animbin::core::format::remove_partial_files();
    }
    std::process::exit(1)
}
