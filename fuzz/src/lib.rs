//! What the fuzz targets share: the model-first targets' names, round trip, exact comparison
//! and the SE formats' trip through Cast, and the parse targets' reader-against-view checks.

use animbin_cast::CastFile;
use animbin_core::{ConversionReport, Error, ErrorKind, FileFormat, SceneOptions};
use animbin_seanim::SeAnim;
use animbin_semodel::SeModel;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use serde::Serialize;

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

/// A random model made by `model` from `data`, the bytes `to_bytes` writes of it and the
/// model `read` reads back from them; `None` when `data` makes no model or the writer
/// refuses it ([`written_or_refused`]). What the writer writes must read.
pub fn written_and_read<M>(
    data: &[u8],
    model: impl FnOnce(&mut Unstructured) -> Result<M>,
    to_bytes: impl Fn(&M) -> Result<Vec<u8>, Error>,
    read: impl Fn(&[u8]) -> Result<M, Error>,
) -> Option<(M, Vec<u8>, M)> {
    let model = model(&mut Unstructured::new(data)).ok()?;
    let bytes = written_or_refused(to_bytes(&model))?;
    let back = read(&bytes).expect("what the writer writes reads");
    Some((model, bytes, back))
}

/// Up to `max` items made by `item` (the count drawn first).
pub fn list<T>(
    u: &mut Unstructured,
    max: usize,
    mut item: impl FnMut(&mut Unstructured) -> Result<T>,
) -> Result<Vec<T>> {
    let n = u.int_in_range(0..=max)?;
    (0..n).map(|_| item(u)).collect()
}

/// A name: mostly a plain one; sometimes anything, a NUL included (which the SE writers
/// refuse).
pub fn name(u: &mut Unstructured) -> Result<String> {
    if u.ratio(1, 8)? {
        u.arbitrary()
    } else {
        let n = u.int_in_range(0..=6usize)?;
        (0..n).map(|_| Ok(char::from(u.int_in_range(b'a'..=b'z')?))).collect()
    }
}

/// Unknown trailing bytes of an SE file, which read back as what they are: not empty, and
/// not starting with `S`, with which an SEBlend trailer's magic starts.
pub fn unknown_trailer(u: &mut Unstructured) -> Result<Vec<u8>> {
    let mut bytes: Vec<u8> = u.arbitrary()?;
    if bytes.first().is_none_or(|&b| b == b'S') {
        bytes.insert(0, 0);
    }
    Ok(bytes)
}

/// The model as the dump writes it (its serde form): every float bit for bit.
pub fn exact(model: &impl Serialize) -> String {
    serde_json::to_string(model).expect("every model dumps")
}

/// The SE formats, which go into Cast and back field by field (`animbin::se_cast`).
pub trait ThroughCast: FileFormat<Error = Error> {
    /// The Cast form of the model.
    fn to_cast(&self) -> CastFile;
    /// The model of a Cast form; panics where the mapping refuses its own Cast file.
    fn from_cast(cast: &CastFile) -> Self;
}

impl ThroughCast for SeAnim {
    fn to_cast(&self) -> CastFile {
        animbin::se_cast::seanim_to_cast(self)
    }

    fn from_cast(cast: &CastFile) -> Self {
        animbin::se_cast::cast_to_seanim(cast).expect("the mapping reads back its own Cast file")
    }
}

impl ThroughCast for SeModel {
    fn to_cast(&self) -> CastFile {
        animbin::se_cast::semodel_to_cast(self)
    }

    fn from_cast(cast: &CastFile) -> Self {
        animbin::se_cast::cast_to_semodel(cast).expect("the mapping reads back its own Cast file")
    }
}

/// Asserts that `back`, the model read from `bytes`, writes the same bytes again: as it is,
/// and mapped into Cast field by field, written, read and mapped back.
pub fn assert_rewrites_through_cast<M: ThroughCast>(back: &M, bytes: &[u8]) {
    assert!(back.to_bytes().expect("and writes again") == bytes);
    let cast = animbin_cast::to_bytes(&back.to_cast()).expect("the Cast form writes");
    let cast = animbin_cast::read(&cast).expect("and reads");
    let again = M::from_cast(&cast);
    assert!(
        again.to_bytes().expect("and writes") == bytes,
        "{} -> Cast -> {} gives other bytes",
        M::LABEL,
        M::LABEL
    );
}

/// Asserts that the reader (`owned`) and the zero-copy view of the same bytes accept the
/// same files.
pub fn assert_reader_and_view_agree<T, V>(owned: &Result<T, Error>, view: &Result<V, Error>) {
    assert_eq!(
        owned.is_ok(),
        view.is_ok(),
        "the reader and the view disagree on whether the file reads"
    );
}

/// `data` read by the format's reader and parsed by its zero-copy view, which must accept
/// the same files ([`assert_reader_and_view_agree`]).
pub fn read_and_view<'a, T, V>(
    data: &'a [u8],
    read: impl FnOnce(&[u8]) -> Result<T, Error>,
    parse: impl FnOnce(&'a [u8]) -> Result<V, Error>,
) -> (Result<T, Error>, Result<V, Error>) {
    let (owned, view) = (read(data), parse(data));
    assert_reader_and_view_agree(&owned, &view);
    (owned, view)
}

/// Validates a file that read and converts it to the scene (with the default options):
/// neither may panic, whatever they return.
pub fn validate_and_convert<F: FileFormat>(file: &F) {
    let _ = file.validate();
    let _ = file.to_scene(&SceneOptions::default(), &mut ConversionReport::default());
}
