//! The samples that `cargo xtask corpus` writes into `testdata/` and the fuzz seed corpus.
//! Each format contributes one module; every sample is made by the project's own writer.

mod animx;
mod cast;
mod character;
mod dmf;
mod fbx;
mod gltf;
mod png;
mod poses;
mod scene;
mod seanim;
mod semodel;
mod sf3;

// The model_* fuzz targets build a model from arbitrary bytes (`arbitrary::Unstructured`),
// so any bytes seed them: each format's samples seed its model target too.

/// One sample file.
pub(crate) struct Sample {
    /// The path under `testdata/` (its last part names it in the fuzz corpus).
    pub(crate) name: &'static str,
    /// The bytes.
    pub(crate) bytes: Vec<u8>,
    /// The fuzz targets whose seed corpus gets this file.
    pub(crate) fuzz_targets: &'static [&'static str],
    /// Whether the file goes into `testdata/` (small, committed) or only into the fuzz corpus.
    pub(crate) testdata: bool,
    /// Whether the file goes into [`FIXTURES`] (committed, for the tests) instead: a file no
    /// user would take for a sample, such as an x8an file that holds nothing to convert.
    pub(crate) fixture: bool,
    /// Whether it seeds [`ANY_FORMAT_TARGET`] too: every file of a format does; the seeds of
    /// a target that reads no file ([`scene::TARGET`]) do not.
    pub(crate) any_format: bool,
}

/// The folder of files the tests read that are not samples (`testdata/` is converted whole,
/// as a user would).
pub(crate) const FIXTURES: &str = "tests/fixtures";

/// The fuzz target that reads any format through the `animbin` library: every sample seeds it.
pub(crate) const ANY_FORMAT_TARGET: &str = "parse_any";

impl Sample {
    /// The sample `name` of `bytes`, seeding `fuzz_targets`; in `testdata/` too when
    /// `testdata`.
    pub(crate) fn new(
        name: &'static str,
        bytes: Vec<u8>,
        fuzz_targets: &'static [&'static str],
        testdata: bool,
    ) -> Self {
        Self {
            name,
            bytes,
            fuzz_targets,
            testdata,
            fixture: false,
            any_format: true,
        }
    }

    /// The test fixture `name` (in [`FIXTURES`]) of `bytes`, seeding `fuzz_targets`.
    pub(crate) fn fixture(name: &'static str, bytes: Vec<u8>, fuzz_targets: &'static [&'static str]) -> Self {
        Self {
            fixture: true,
            ..Self::new(name, bytes, fuzz_targets, false)
        }
    }

    /// Where the sample is committed, under the repository's root: `testdata/NAME` or
    /// `tests/fixtures/NAME`; `None` for a fuzz seed only.
    pub(crate) fn committed_path(&self) -> Option<std::path::PathBuf> {
        let folder = if self.fixture {
            FIXTURES
        } else if self.testdata {
            "testdata"
        } else {
            return None;
        };
        Some(std::path::Path::new(folder).join(self.name))
    }

    /// A file in `testdata/` that seeds no fuzz target (a texture the samples name).
    pub(crate) fn file(name: &'static str, bytes: Vec<u8>) -> Self {
        Self {
            any_format: false,
            ..Self::new(name, bytes, &[], true)
        }
    }

    /// Bytes that seed only `fuzz_targets` (not [`ANY_FORMAT_TARGET`]), never in `testdata/`.
    pub(crate) fn seed_only(name: &'static str, bytes: Vec<u8>, fuzz_targets: &'static [&'static str]) -> Self {
        Self {
            any_format: false,
            ..Self::new(name, bytes, fuzz_targets, false)
        }
    }

    /// The fuzz targets this sample seeds: its format's, and [`ANY_FORMAT_TARGET`] (unless
    /// [`Sample::seed_only`] made it).
    pub(crate) fn seeds(&self) -> impl Iterator<Item = &'static str> + '_ {
        let any = self.any_format.then_some(ANY_FORMAT_TARGET);
        self.fuzz_targets.iter().copied().chain(any)
    }
}

/// Every sample of every format.
pub(crate) fn samples() -> Vec<Sample> {
    let mut all = Vec::new();
    let _ = &mut all;
    all.extend(animx::samples());
    all.extend(cast::samples());
    all.extend(character::samples());
    all.extend(character::sample_textures());
    all.extend(dmf::samples());
    all.extend(fbx::samples());
    all.extend(gltf::samples());
    all.extend(poses::samples());
    all.extend(scene::samples());
    all.extend(seanim::samples());
    all.extend(semodel::samples());
    all.extend(sf3::samples());
    all
}

/// The shared corpus folders whose files also seed each format's fuzz targets, when present.
pub(crate) const SHARED_CORPUS: &[(&str, &[&str])] = &[
    ("animx", &["parse_animx", ANY_FORMAT_TARGET]),
    ("cast", &["parse_cast", "roundtrip_cast", ANY_FORMAT_TARGET]),
    ("seanim", &["parse_seanim", "roundtrip_seanim", ANY_FORMAT_TARGET]),
    ("semodel", &["parse_semodel", "roundtrip_semodel", ANY_FORMAT_TARGET]),
];
