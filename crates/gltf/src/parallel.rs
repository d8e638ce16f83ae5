//! Work spread over the cores: rayon's pool where the target has threads, one item after
//! another where it has none (WebAssembly).

/// `f` of each of `items`, in their order.
///
/// Inside a rayon pool (the command's `--jobs`) this uses that pool, so a caller that
/// limits its threads limits these too.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn map_in_order<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(f).collect()
}

/// `f` of each of `items`, in their order.
#[cfg(target_family = "wasm")]
pub(crate) fn map_in_order<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    items.iter().map(f).collect()
}
