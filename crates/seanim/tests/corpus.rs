//! The reference-writer files in `../shared/corpus/seanim` (SOURCES-se.md): each is read,
//! checked against its description, walked by the view and written back byte for byte.
//! Skipped when the folder is absent.

use std::path::{Path, PathBuf};

use animbin_core::IndexWidth;
use animbin_seanim::{
    AnimType, Channel, Modifier, Precision, PresenceFlags, SeAnim, Trailer, View, read, to_bytes, validate,
};
use animbin_testing::{corpus_files, shared_corpus};

fn corpus() -> Option<PathBuf> {
    shared_corpus(env!("CARGO_MANIFEST_DIR"), "seanim")
}

fn open(dir: &Path, name: &str) -> SeAnim {
    let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn frames(anim: &SeAnim, bone: usize, channel: Channel) -> Vec<u32> {
    let b = &anim.bones[bone];
    match channel {
        Channel::Location => b.location.iter().map(|k| k.frame).collect(),
        Channel::Rotation => b.rotation.iter().map(|k| k.frame).collect(),
        Channel::Scale => b.scale.iter().map(|k| k.frame).collect(),
    }
}

#[test]
fn every_corpus_file_reads_validates_and_writes_back_byte_for_byte() {
    let Some(dir) = corpus() else {
        return;
    };
    let files = corpus_files(&dir, "seanim");
    assert!(!files.is_empty(), "no .seanim files in {}", dir.display());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let anim = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            to_bytes(&anim).unwrap(),
            bytes,
            "{name} is not written back identically"
        );
        assert_eq!(validate(&anim), vec![], "{name}");
        assert_eq!(anim.trailer, Trailer::None, "{name}");
        assert_eq!(anim.fixed_frame_count, None, "{name}: frameCount is the derived one");
        let view = View::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(view.bone_count() as usize, anim.bones.len());
        for (v, b) in view.bones().zip(&anim.bones) {
            assert_eq!((v.name, v.flags), (b.name.as_str(), b.flags));
            assert_eq!(v.location.to_vec(), b.location.to_double());
            assert_eq!(v.rotation.to_vec(), b.rotation.to_double());
            assert_eq!(v.scale.to_vec(), b.scale.to_double());
        }
        assert_eq!(view.notes().count(), anim.notes.len());
    }
}

#[test]
fn ref_300bones_has_u16_modifier_bones() {
    let Some(dir) = corpus() else { return };
    let anim = open(&dir, "ref_300bones_u16bone_t.seanim");
    assert_eq!(anim.bones.len(), 300);
    assert_eq!(anim.data_presence_flags, PresenceFlags::ROT);
    assert_eq!(anim.bone_width().unwrap(), IndexWidth::U16);
    assert_eq!(
        anim.modifiers,
        [
            Modifier {
                bone: 256,
                anim_type: AnimType::Absolute
            },
            Modifier {
                bone: 299,
                anim_type: AnimType::Additive
            },
        ]
    );
    assert_eq!(anim.frame_count().unwrap(), 1);
    assert!(anim.bones.iter().all(|b| b.location.is_empty() && b.scale.is_empty()));
}

#[test]
fn ref_basic_is_a_looping_relative_anim_with_two_notes() {
    let Some(dir) = corpus() else { return };
    let anim = open(&dir, "ref_basic_u8frames.seanim");
    assert_eq!(anim.anim_type, AnimType::Relative);
    assert!(anim.looped());
    assert_eq!(anim.framerate, 30.0);
    assert_eq!(anim.bones.len(), 2);
    assert_eq!(
        anim.data_presence_flags,
        PresenceFlags::LOC | PresenceFlags::ROT | PresenceFlags::NOTE
    );
    let last = anim.bones.iter().flat_map(|b| b.location.iter().map(|k| k.frame)).max();
    assert_eq!(last, Some(10));
    assert_eq!(anim.notes.iter().map(|n| n.frame).collect::<Vec<_>>(), [0, 10]);
    assert_eq!(anim.frame_count().unwrap(), 11);
    assert_eq!(anim.frame_width().unwrap(), IndexWidth::U8);
}

#[test]
fn ref_delta_carries_the_delta_on_tag_origin() {
    let Some(dir) = corpus() else { return };
    let anim = open(&dir, "ref_delta.seanim");
    assert_eq!(anim.anim_type, AnimType::Delta);
    assert_eq!(anim.bones[0].name, "tag_origin");
    assert!(!anim.bones[0].location.is_empty() && !anim.bones[0].rotation.is_empty());
    assert!(anim.bones[1].location.is_empty() && !anim.bones[1].rotation.is_empty());
}

#[test]
fn ref_framecount_255_and_256_sit_on_the_frame_width_boundary() {
    let Some(dir) = corpus() else { return };
    let a = open(&dir, "ref_framecount_255.seanim");
    assert_eq!(frames(&a, 0, Channel::Location), [0, 254]);
    assert_eq!(
        (a.frame_count().unwrap(), a.frame_width().unwrap()),
        (255, IndexWidth::U8)
    );
    let b = open(&dir, "ref_framecount_256.seanim");
    assert_eq!(frames(&b, 0, Channel::Location), [0, 255]);
    assert_eq!(
        (b.frame_count().unwrap(), b.frame_width().unwrap()),
        (256, IndexWidth::U16)
    );
}

#[test]
fn ref_framecount_u32_has_a_key_and_a_note_at_70000() {
    let Some(dir) = corpus() else { return };
    let anim = open(&dir, "ref_framecount_u32.seanim");
    assert_eq!(frames(&anim, 0, Channel::Rotation), [0, 70000]);
    assert_eq!(anim.notes.iter().map(|n| n.frame).collect::<Vec<_>>(), [70000]);
    assert_eq!(
        (anim.frame_count().unwrap(), anim.frame_width().unwrap()),
        (70001, IndexWidth::U32)
    );
}

#[test]
fn ref_highprec_has_double_keys_scale_and_one_modifier() {
    let Some(dir) = corpus() else { return };
    let anim = open(&dir, "ref_highprec_scale_mods.seanim");
    assert_eq!(anim.anim_type, AnimType::Absolute);
    assert_eq!(anim.framerate, 60.0);
    assert_eq!(anim.precision(), Precision::Double);
    assert_eq!(
        anim.data_presence_flags,
        PresenceFlags::LOC | PresenceFlags::ROT | PresenceFlags::SCALE
    );
    assert_eq!(
        anim.modifiers,
        [Modifier {
            bone: 1,
            anim_type: AnimType::Additive
        }]
    );
    assert_eq!(anim.bone_anim_type(1), AnimType::Additive);
    assert!(anim.bones.iter().any(|b| !b.scale.is_empty()));
}
