//! What the tests of summaries through a view share.

use animbin::{Document, Format, Info};

/// The view's summary of `bytes` read as `format`, and the document's: both present and
/// equal, or both absent.
pub fn summaries(bytes: &[u8], format: Format) -> (Option<Info>, Option<Info>) {
    let quick = Document::info_of(bytes, None, Some(format)).ok();
    let full = Document::parse_as(bytes, None, Some(format)).ok().map(|d| d.info());
    (quick, full)
}
