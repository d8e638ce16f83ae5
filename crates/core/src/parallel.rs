//! Work spread over the cores: rayon's pool where the target has threads, one item after
//! another where it has none (WebAssembly). Results come back in the items' order, so what
//! is made never depends on how the work was shared.
//!
//! Called inside a rayon pool (the command's `--jobs`), the work stays in that pool: a
//! caller that limits its threads limits these too. In a process forked from one that used
//! the global pool, whose threads the fork did not copy, the work runs on the calling
//! thread.
//!
//! ```
//! let squares = animbin_core::parallel::map_in_order(&[1, 2, 3], |n| n * n);
//! assert_eq!(squares, [1, 4, 9]);
//! ```

/// `f` of each of `items`, in their order.
pub fn map_in_order<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(not(target_family = "wasm"))]
    if threads_usable() {
        use rayon::prelude::*;
        return items.par_iter().map(f).collect();
    }
    items.iter().map(f).collect()
}

/// `f` of each of `items`, which it may change (free what it has taken, say), in their order.
pub fn map_mut_in_order<T: Send, R: Send>(items: &mut [T], f: impl Fn(&mut T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(not(target_family = "wasm"))]
    if threads_usable() {
        use rayon::prelude::*;
        return items.par_iter_mut().map(f).collect();
    }
    items.iter_mut().map(f).collect()
}

/// Whether rayon's threads can take the work: on a thread of a pool (the command's `--jobs`
/// pool, say), or in the process that first spread work over the global pool.
///
/// A process forked from that one (Python's `multiprocessing` and `os.fork`) inherits the
/// pool's state but none of its threads, so work handed to it would wait for ever: there
/// the work runs on the calling thread instead.
#[cfg(not(target_family = "wasm"))]
fn threads_usable() -> bool {
    static FIRST_PROCESS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    rayon::current_thread_index().is_some() || *FIRST_PROCESS.get_or_init(std::process::id) == std::process::id()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order() {
        let items: Vec<u64> = (0..10_000).collect();
        assert_eq!(
            map_in_order(&items, |n| n * 3),
            items.iter().map(|n| n * 3).collect::<Vec<_>>()
        );
        let mut taken = items.clone();
        let doubled = map_mut_in_order(&mut taken, |n| std::mem::take(n) * 2);
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(taken.iter().all(|&n| n == 0));
        assert!(map_in_order(&[] as &[u8], |_| 1).is_empty());
    }
}
