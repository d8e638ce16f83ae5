//! The summary through the zero-copy view is the model's own, for every testdata file and
//! every prefix and corruption of them.

use animbin_dmf::{Dmf, FileFormat, View};
use animbin_testing::dmf::enum_corruptions;
use animbin_testing::{assert_summary_members, assert_view_summaries};

fn dmf_files() -> Vec<(String, Vec<u8>)> {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    ["sample.dmf", "sample.dmf.json"]
        .iter()
        .map(|name| (name.to_string(), std::fs::read(testdata.join(name)).unwrap()))
        .collect()
}

#[test]
fn the_view_summary_is_the_model_s_for_every_file_prefix_and_flipped_byte() {
    for (name, bytes) in dmf_files() {
        assert_view_summaries::<Dmf>(&name, &bytes, &[0x55, 0x80]);
    }
}

#[test]
fn the_summary_refuses_the_enum_values_the_reader_refuses() {
    let (_, bytes) = &dmf_files()[0];
    let view = View::parse(bytes).unwrap();
    assert_eq!(view.summary(), animbin_dmf::read(bytes).unwrap().summary());
    for (at, broken) in enum_corruptions(bytes) {
        let full = animbin_dmf::read(&broken).unwrap_err();
        let quick = Dmf::summary_of(&broken).unwrap_err();
        assert_eq!((quick.offset, quick.to_string()), (full.offset, full.to_string()));
        assert_eq!(full.offset, at as u64, "{full}");
    }
}

#[test]
fn the_summary_is_the_one_animbin_info_prints() {
    let (_, bytes) = &dmf_files()[0];
    let summary = Dmf::summary_of(bytes).unwrap();
    // The members in the order of the fields, as `animbin info --json` has always printed them.
    assert_summary_members(
        &summary,
        &[
            "texture_count",
            "material_count",
            "vertex_count",
            "face_count",
            "bone_count",
            "animation_count",
            "track_count",
        ],
    );
}
