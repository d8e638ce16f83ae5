//! What the tests of summaries through a view share.

use animbin::{Document, Format, Info};

/// The view's summary of `bytes` read as `format`, and the document's: both present and
/// equal, or both absent. Where both are absent, `info` and a read have named the same
/// fault in the same words (asserted here).
pub fn summaries(bytes: &[u8], format: Format) -> (Option<Info>, Option<Info>) {
    let quick = Document::info_of(bytes, None, Some(format));
    let full = Document::parse_as(bytes, None, Some(format)).map(|d| d.info());
    if let (Err(quick), Err(full)) = (&quick, &full) {
        assert_eq!(
            quick.to_string(),
            full.to_string(),
            "info and a read word a fault alike"
        );
    }
    (quick.ok(), full.ok())
}
