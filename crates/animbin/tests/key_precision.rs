//! A scene holds keys as the file held them: a single-precision file's channels stay `f32`
//! arrays (half the memory of `f64` keys), whether read borrowed or owned, and a
//! double-precision file's channels are `f64` wherever a value needs it.

use std::path::{Path, PathBuf};

use animbin::core::scene::{KeyValue, Keys, Precision, Scene};
use animbin::{ConversionReport, Document, SceneOptions};

/// Every testdata file and every SE, Cast and AnimX corpus file that opens.
fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut dirs = vec![root.join("testdata")];
    for corpus in ["seanim", "cast", "animx"] {
        dirs.push(root.join("../shared/corpus").join(corpus));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("{} is missing", dir.display());
        };
        files.extend(entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()));
    }
    files.retain(|p| Document::open(p).is_ok());
    files.sort();
    files
}

/// How many channels with keys of `scene` are held single and double.
fn channels(scene: &Scene) -> (usize, usize) {
    fn precision<T: KeyValue>(keys: &Keys<T>) -> Option<Precision> {
        (!keys.is_empty()).then(|| keys.precision())
    }
    let held = scene.animations.iter().flat_map(|anim| {
        let bones = anim
            .bones
            .iter()
            .flat_map(|t| [precision(&t.translation), precision(&t.rotation), precision(&t.scale)]);
        bones.chain(anim.weights.iter().map(|t| precision(&t.keys)))
    });
    let held: Vec<Precision> = held.flatten().collect();
    let single = held.iter().filter(|p| **p == Precision::Single).count();
    (single, held.len() - single)
}

#[test]
fn channels_are_held_at_the_precision_their_keys_need() {
    let mut single_files = 0;
    for path in files() {
        let what = path.display().to_string();
        let document = Document::open(&path).unwrap();
        let precision = document.key_precision();
        let mut report = ConversionReport::default();
        let Ok(borrowed) = document.to_scene(&SceneOptions::default(), &mut report) else {
            continue;
        };
        let owned = document
            .into_scene(&SceneOptions::default(), &mut ConversionReport::default())
            .unwrap();
        let (single, double) = channels(&borrowed);
        assert_eq!(channels(&owned), (single, double), "{what}: owned");
        // SEAnim and Cast frames are whole numbers and their single-precision values are f32s:
        // every channel stays f32.
        let whole_frames = ["seanim", "cast"]
            .iter()
            .any(|e| path.extension().is_some_and(|x| x == *e));
        if precision == Some(Precision::Single) && whole_frames && single > 0 {
            assert_eq!(double, 0, "{what}: a single-precision file widened {double} channels");
            single_files += 1;
        }
    }
    assert!(
        single_files >= 5,
        "only {single_files} single-precision files with keys"
    );
}
