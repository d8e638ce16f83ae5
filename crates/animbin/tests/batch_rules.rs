//! `animbin::batch::plan`: an output folder inside an input folder is walked, its own
//! outputs left out and everything else converted; symbolic links that lead nowhere are
//! skipped and listed with their reason.

use std::fs;
use std::path::{Path, PathBuf};

use animbin::Target;
use animbin::batch::{self, Summary};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
}

fn copy(name: &str, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::copy(testdata(name), to).unwrap();
}

/// The plan's jobs as (input, output) paths relative to `base`.
fn jobs(plan: &batch::Plan, base: &Path) -> Vec<(String, String)> {
    let relative = |p: &Path| p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
    plan.jobs
        .iter()
        .map(|job| (relative(&job.input), relative(&job.output)))
        .collect()
}

#[test]
fn files_below_the_output_folder_are_inputs_unless_this_run_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    copy("sample.seanim", &input.join("a.seanim"));
    copy("skeleton.semodel", &input.join("deep/b.semodel"));
    let out = input.join("deep");
    let plan = batch::plan(&[&input], &out, Target::Cast, None).unwrap();
    assert_eq!(
        jobs(&plan, dir.path()),
        [
            ("in/a.seanim".into(), "in/deep/a.cast".into()),
            ("in/deep/b.semodel".into(), "in/deep/deep/b.cast".into()),
        ]
    );
    assert_eq!(Summary::of_plan(&plan).to_string(), "converted 0, failed 0, skipped 0");
    // Once the outputs exist, they are this run's again, not inputs; a file that lies where
    // no output of this run goes is an input, wherever it came from.
    copy("sample.cast", &out.join("a.cast"));
    copy("sample.cast", &out.join("deep/b.cast"));
    copy("sample.cast", &out.join("deep/c.cast"));
    let plan = batch::plan(&[&input], &out, Target::Cast, None).unwrap();
    assert_eq!(
        jobs(&plan, dir.path()),
        [
            ("in/a.seanim".into(), "in/deep/a.cast".into()),
            ("in/deep/b.semodel".into(), "in/deep/deep/b.cast".into()),
            ("in/deep/deep/c.cast".into(), "in/deep/deep/deep/c.cast".into()),
        ]
    );
    // The output folder named in other words is the same folder.
    let plan = batch::plan(&[&input], &input.join("./deep/"), Target::Cast, None).unwrap();
    assert_eq!(plan.jobs.len(), 3);
}

#[cfg(unix)]
#[test]
fn links_that_lead_nowhere_are_skipped_and_listed_with_their_reason() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    copy("sample.seanim", &input.join("walk.seanim"));
    symlink("missing.seanim", input.join("gone.seanim")).unwrap();
    symlink("b.seanim", input.join("a.seanim")).unwrap();
    symlink("a.seanim", input.join("b.seanim")).unwrap();
    let plan = batch::plan(&[&input], &dir.path().join("out"), Target::Glb, None).unwrap();
    assert_eq!(
        jobs(&plan, dir.path()),
        [("in/walk.seanim".into(), "out/walk.glb".into())]
    );
    assert!(plan.unreadable.is_empty(), "{:?}", plan.unreadable);
    assert_eq!(Summary::of_plan(&plan).to_string(), "converted 0, failed 0, skipped 3");
    let lines: Vec<String> = plan.broken_links.iter().map(ToString::to_string).collect();
    let at = |name: &str| input.join(name).display().to_string();
    // What the system says following each: too many levels of links, and no such file.
    let looping = fs::metadata(input.join("a.seanim")).unwrap_err();
    let not_found = fs::metadata(input.join("gone.seanim")).unwrap_err();
    assert_eq!(
        lines,
        [
            format!(
                "{}: skipped: a symbolic link to b.seanim that cannot be followed: {looping}",
                at("a.seanim")
            ),
            format!(
                "{}: skipped: a symbolic link to a.seanim that cannot be followed: {looping}",
                at("b.seanim")
            ),
            format!(
                "{}: skipped: a symbolic link to missing.seanim that cannot be followed: {not_found}",
                at("gone.seanim")
            ),
        ]
    );
}

#[test]
fn a_folders_options_that_relate_a_format_to_gltf_are_left_out_for_gltf_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    copy("character/character.glb", &input.join("character.glb"));
    copy("character/character.semodel", &input.join("character.semodel"));
    for texture in ["character_clothes.png", "character_skin.png"] {
        copy(&format!("character/{texture}"), &input.join(texture));
    }
    let out = dir.path().join("out");
    let plan = batch::plan(&[&input], &out, Target::Glb, None).unwrap();
    let mut options = animbin::ConvertOptions::default();
    options.scene.z_up = true;
    options.scene.unit_scale = 0.01;
    for job in &plan.jobs {
        let converted = batch::convert_one(job, Target::Glb, None, &options).unwrap();
        let written = fs::read(&job.output).unwrap();
        if job.input.extension().is_some_and(|e| e == "glb") {
            // Written as it was, with a note naming both options.
            assert_eq!(written, fs::read(&job.input).unwrap());
            assert_eq!(
                converted.report.notes,
                [
                    "--z-up, --scale not applied: this input is glb already (the option says how another format relates to glTF)"
                ]
            );
        } else {
            // The SEModel is turned and scaled: its glb differs from one made without them.
            assert!(converted.report.notes.is_empty(), "{:?}", converted.report.notes);
            let document = animbin::Document::open(&job.input).unwrap();
            let plain =
                animbin::convert(&document, Target::Glb, &animbin::ConvertOptions::for_input(&job.input)).unwrap();
            assert_ne!(written, plain.to_bytes().unwrap());
        }
    }
    assert_eq!(plan.jobs.len(), 2);
}
