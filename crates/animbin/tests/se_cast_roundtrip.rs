//! Property tests of the SE <-> Cast mapping: every SEAnim and SEModel file the writers
//! make (any flag, reserved byte, width, block, trailer and float bits, both SEModel layouts)
//! comes back from Cast byte for byte.
//!
//! The generators are those of the SEAnim and SEModel crates' own round trip tests (their
//! files, included by path), with any float bits in the keys.

use animbin::cast;
use animbin::se_cast::{cast_to_seanim, cast_to_semodel, seanim_to_cast, semodel_to_cast};
use animbin_seanim::{Precision, narrow, widen};
use animbin_semodel::SeModel;
use proptest::prelude::*;

/// Any float bits a file can hold, NaN payloads included (files are compared as bytes).
fn component(precision: Precision) -> BoxedStrategy<f64> {
    match precision {
        Precision::Single => any::<u32>().prop_map(|b| widen(f32::from_bits(b))).boxed(),
        Precision::Double => prop_oneof![
            any::<u32>().prop_map(|b| widen(f32::from_bits(b))),
            any::<u64>()
                .prop_map(f64::from_bits)
                .prop_filter("within f32's range", |x| narrow(*x).is_some()),
        ]
        .boxed(),
    }
}

#[path = "../../seanim/tests/strategies/mod.rs"]
mod seanim_strategies;
#[path = "../../semodel/tests/strategies/mod.rs"]
mod semodel_strategies;

use seanim_strategies::seanim;
use semodel_strategies::{Floats, deployed_model, draft_model};

/// An SE file's bytes through Cast and back: the Cast file writes and reads, and the mapping
/// gives back the same bytes.
fn through_cast<T>(
    bytes: &[u8],
    to_cast: impl Fn(&T) -> cast::CastFile,
    from_cast: impl Fn(&cast::CastFile) -> Option<T>,
    read: impl Fn(&[u8]) -> animbin::core::Result<T>,
    write: impl Fn(&T) -> animbin::core::Result<Vec<u8>>,
) -> Result<(), TestCaseError> {
    let model = read(bytes).unwrap();
    let cast_bytes = cast::to_bytes(&to_cast(&model)).unwrap();
    let back = from_cast(&cast::read(&cast_bytes).unwrap());
    prop_assert!(back.is_some(), "the mapping reads its own Cast file");
    prop_assert!(
        write(&back.unwrap()).unwrap() == bytes,
        "SE -> Cast -> SE gives other bytes"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_seanim_comes_back_from_cast(anim in seanim()) {
        let bytes = animbin_seanim::to_bytes(&anim).unwrap();
        through_cast(&bytes, seanim_to_cast, cast_to_seanim, animbin_seanim::read, animbin_seanim::to_bytes)?;
    }

    #[test]
    fn every_deployed_semodel_comes_back_from_cast(m in deployed_model(Floats::AnyBits)) {
        let bytes = animbin_semodel::to_bytes(&SeModel::Deployed(m)).unwrap();
        through_cast(&bytes, semodel_to_cast, cast_to_semodel, animbin_semodel::read, animbin_semodel::to_bytes)?;
    }

    #[test]
    fn every_draft_semodel_comes_back_from_cast(m in draft_model(Floats::AnyBits)) {
        let bytes = animbin_semodel::to_bytes(&SeModel::Draft(m)).unwrap();
        through_cast(&bytes, semodel_to_cast, cast_to_semodel, animbin_semodel::read, animbin_semodel::to_bytes)?;
    }
}
