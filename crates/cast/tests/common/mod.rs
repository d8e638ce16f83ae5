//! Checks shared by the test files.

use animbin_cast::{CastFile, FileFormat};

/// The summary of the model ([`FileFormat::read`], then [`FileFormat::summary`]) and the one
/// read through the view ([`FileFormat::summary_of`]) agree on `bytes`, on every prefix of
/// them and on every change of one bit (each byte's lowest and highest): both refuse the
/// same inputs with the same error, and where they read, give the same summary.
pub fn assert_summaries_agree(bytes: &[u8]) {
    agree(bytes, "the whole file");
    for end in 0..bytes.len() {
        agree(&bytes[..end], &format!("the first {end} bytes"));
    }
    let mut changed = bytes.to_vec();
    for at in 0..bytes.len() {
        for bit in [0x01, 0x80] {
            changed[at] ^= bit;
            agree(&changed, &format!("bit {bit:#04x} of byte {at} flipped"));
            changed[at] ^= bit;
        }
    }
}

fn agree(bytes: &[u8], what: &str) {
    let model = CastFile::read(bytes).map(|file| file.summary());
    match (model, CastFile::summary_of(bytes)) {
        (Ok(model), Ok(view)) => assert_eq!(model, view, "{what}"),
        (Err(model), Err(view)) => assert_eq!(model.to_string(), view.to_string(), "{what}"),
        (model, view) => panic!("{what}: the model gives {model:?}, the view {view:?}"),
    }
}
