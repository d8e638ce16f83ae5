//! Helpers shared by the criterion benchmarks in this folder.

/// The memcpy baseline: copies `bytes` into a fresh buffer, the least any reader must do.
pub fn memcpy_baseline(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(bytes);
    out
}
