//! Running out of memory ends the command as a bad input does: exit 1, a message naming what
//! could not be allocated, and no output left behind, instead of Rust's
//! `memory allocation of N bytes failed` and an abort (SIGABRT, a core dump) that a batch, a
//! script or `ulimit -v` would take for a crash.
//!
//! Rust lets a program choose what an allocation failure does only through its global
//! allocator (the error hook is unstable), so the command's allocator is the system's,
//! wrapped: a request the system refuses reports and ends the process there. That takes the
//! one `unsafe` of the command, the `GlobalAlloc` contract, which each method meets by
//! handing its arguments to `System` unchanged. Outputs are written to a file with no name
//! until it is complete (or a `.partial` file that [`end`] removes), so ending mid-write
//! leaves nothing.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// The system's allocator; a request it refuses ends the command ([`end`]).
pub(crate) struct ReportingAllocator;

// SAFETY: every method passes its arguments to `System`, whose contract they already meet,
// and returns its result; a null result (a refusal) does not return at all.
unsafe impl GlobalAlloc for ReportingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller meets `alloc`'s contract for `layout`.
        let block = unsafe { System.alloc(layout) };
        if block.is_null() {
            end(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        if block.is_null() {
            end(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `block` came from `System` with `layout`; the caller meets the rest.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if moved.is_null() {
            end(new_size);
        }
        moved
    }
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
