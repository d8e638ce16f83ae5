//! What the model-first fuzz targets share.

use animbin_core::{Error, ErrorKind};

/// The bytes a writer made of a random model, or `None` after checking that its refusal is
/// the documented one (`ErrorKind::Unencodable`); any other error fails the target.
pub fn written_or_refused(written: Result<Vec<u8>, Error>) -> Option<Vec<u8>> {
    match written {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            assert!(
                matches!(e.kind, ErrorKind::Unencodable(_)),
                "not a documented refusal: {e}"
            );
            None
        }
    }
}
