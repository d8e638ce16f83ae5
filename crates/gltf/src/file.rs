//! [`GltfFile`]: a glTF file as animbin's library holds it, its bytes and its container.

use crate::repack::Container;

/// A glTF file: its bytes, checked to read as a scene, and its container.
///
/// The bytes are kept as they are: writing the file in its own container gives them back,
/// and in the other container moves the buffer without touching the JSON
/// ([`repack`](crate::repack)).
/// Its [`FileFormat`](animbin_core::FileFormat) implementation is the one the `animbin`
/// library's table of formats uses.
#[derive(Clone, PartialEq, Eq)]
pub struct GltfFile {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// JSON (`.gltf`) or binary (`.glb`).
    pub container: Container,
}

impl std::fmt::Debug for GltfFile {
    // The bytes can be megabytes: their length says enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GltfFile")
            .field("bytes", &format_args!("[{} bytes]", self.bytes.len()))
            .field("container", &self.container)
            .finish()
    }
}
