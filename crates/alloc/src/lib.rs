//! The system allocator with a hook for the requests it refuses.
//!
//! Rust's standard library aborts when an allocation fails, and the hook that would change
//! that is unstable; a program's global allocator is the stable way. [`ReportingAllocator`]
//! passes every request to [`System`] unchanged and, when the system refuses one, calls the
//! program's `refused` function with the size asked for. That function may end the process
//! (the `animbin` command exits 1 with a message) or park the thread for a waiting caller to
//! report (the Python module raises `MemoryError`); if it returns, the refusal is given back
//! and Rust aborts as it would have.
//!
//! ```
//! use animbin_alloc::ReportingAllocator;
//!
//! fn refused(size: usize) {
//!     eprintln!("could not allocate {size} bytes");
//! }
//!
//! #[global_allocator]
//! static ALLOCATOR: ReportingAllocator = ReportingAllocator::new(refused);
//!
//! let numbers: Vec<u32> = (0..1000).collect();
//! assert_eq!(numbers.len(), 1000);
//! ```
// The one `unsafe` of the crate is the `GlobalAlloc` contract, which each method meets by
// handing its arguments to `System` unchanged.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};

/// The system's allocator, calling `refused` with the size of each request the system
/// refuses before it gives the refusal back.
#[derive(Debug)]
pub struct ReportingAllocator {
    refused: fn(usize),
}

impl ReportingAllocator {
    /// The allocator that reports refusals to `refused`. It runs where memory ran out: it
    /// should not allocate (format on the stack), and may not unwind.
    pub const fn new(refused: fn(usize)) -> Self {
        Self { refused }
    }
}

// SAFETY: every method passes its arguments to `System`, whose contract they already meet,
// and returns its result; `refused` only learns the size of a refusal.
unsafe impl GlobalAlloc for ReportingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller meets `alloc`'s contract for `layout`.
        let block = unsafe { System.alloc(layout) };
        if block.is_null() {
            (self.refused)(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        if block.is_null() {
            (self.refused)(layout.size());
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
            (self.refused)(new_size);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static REFUSED: AtomicUsize = AtomicUsize::new(0);

    fn record(size: usize) {
        REFUSED.store(size, Ordering::SeqCst);
    }

    #[test]
    fn a_refused_request_is_reported_with_its_size_and_given_back() {
        let allocator = ReportingAllocator::new(record);
        // More than any system gives: the refusal comes back as null, after the report.
        let layout = Layout::from_size_align(isize::MAX as usize - 4095, 4096).unwrap();
        // SAFETY: the layout has a non-zero size; a null result is not used.
        let block = unsafe { allocator.alloc(layout) };
        assert!(block.is_null());
        assert_eq!(REFUSED.load(Ordering::SeqCst), layout.size());
        // A request the system grants is the system's, and no report.
        REFUSED.store(0, Ordering::SeqCst);
        let small = Layout::from_size_align(64, 8).unwrap();
        // SAFETY: as above; the block is freed with the layout it was allocated with.
        unsafe {
            let block = allocator.alloc_zeroed(small);
            assert!(!block.is_null() && *block == 0);
            allocator.dealloc(block, small);
        }
        assert_eq!(REFUSED.load(Ordering::SeqCst), 0);
    }
}
