//! `animbin::batch::plan` names outputs after their input's stem, and after the input's whole
//! file name where two inputs would otherwise share an output, so a folder such as
//! `testdata/` (`sample.seanim`, `sample.semodel`, `sample.animx`...) converts as a folder.

use std::fs;
use std::path::{Path, PathBuf};

use animbin::Target;
use animbin::batch::{self, PlanError};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
}

fn copy(name: &str, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::copy(testdata(name), to).unwrap();
}

/// The plan's outputs as paths relative to `out`, sorted.
fn outputs(plan: &batch::Plan, out: &Path) -> Vec<String> {
    let mut names: Vec<String> = plan
        .jobs
        .iter()
        .map(|job| {
            job.output
                .strip_prefix(out)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    names.sort();
    names
}

#[test]
fn inputs_that_would_share_an_output_are_named_after_their_whole_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    copy("sample.seanim", &input.join("walk.seanim"));
    copy("sample.semodel", &input.join("walk.semodel"));
    copy("sample.animx", &input.join("walk.animx"));
    copy("sample_every_block.seanim", &input.join("run.seanim"));
    // One level down, the same stems again, in a folder of their own: named apart there too.
    copy("sample.seanim", &input.join("npc/walk.seanim"));
    copy("skeleton.semodel", &input.join("npc/walk.semodel"));
    // Alone in its folder, a stem keeps the short name.
    copy("sample.cast", &input.join("props/walk.cast"));
    let out = dir.path().join("out");
    let plan = batch::plan(&[&input], &out, Target::Glb, None).unwrap();
    assert_eq!(
        outputs(&plan, &out),
        [
            "npc/walk.seanim.glb",
            "npc/walk.semodel.glb",
            "props/walk.glb",
            "run.glb",
            "walk.animx.glb",
            "walk.seanim.glb",
            "walk.semodel.glb",
        ]
    );
}

#[test]
fn a_long_name_that_another_input_would_take_sends_that_input_the_long_way_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    copy("sample.dmf", &input.join("arm.dmf"));
    copy("sample.seanim", &input.join("arm.seanim"));
    // Its stem is `arm.dmf`: its short name is the long name `arm.dmf` gets.
    copy("sample.dmf.json", &input.join("arm.dmf.json"));
    let out = dir.path().join("out");
    let plan = batch::plan(&[&input], &out, Target::Cast, None).unwrap();
    assert_eq!(
        outputs(&plan, &out),
        ["arm.dmf.cast", "arm.dmf.json.cast", "arm.seanim.cast"]
    );
    // Without the file that collides first, nothing needs the long name.
    fs::remove_file(input.join("arm.seanim")).unwrap();
    let plan = batch::plan(&[&input], &out, Target::Cast, None).unwrap();
    assert_eq!(outputs(&plan, &out), ["arm.cast", "arm.dmf.cast"]);
}

#[test]
fn the_samples_folder_plans_an_output_for_every_file_a_format_reads() {
    let testdata = testdata("");
    let out = tempfile::tempdir().unwrap();
    let plan = batch::plan(&[&testdata], out.path(), Target::Glb, None).unwrap();
    let names = outputs(&plan, out.path());
    for expected in [
        "sample.animj.glb",
        "sample.animx.glb",
        "sample.cast.glb",
        "sample.dmf.glb",
        "sample.dmf.json.glb",
        "sample.seanim.glb",
        "sample.semodel.glb",
        "sample-lz4.glb",
        "sample_every_block.glb",
        "x8an00.glb",
        "poses/rig_absolute.glb",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected} not in {names:?}");
    }
    // One job per output: no two inputs share one.
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
}

#[test]
fn files_of_one_name_from_two_folders_still_share_an_output_and_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one/walk.seanim");
    let two = dir.path().join("two/walk.seanim");
    copy("sample.seanim", &one);
    copy("sample_every_block.seanim", &two);
    let out = dir.path().join("out");
    let error = batch::plan(&[&one, &two], &out, Target::Glb, None).unwrap_err();
    assert!(
        matches!(&error, PlanError::SameOutput { output, .. } if output == &out.join("walk.seanim.glb")),
        "{error}"
    );
    // The same file named twice is one input, and keeps the short name.
    let plan = batch::plan(&[&one, &one], &out, Target::Glb, None).unwrap();
    assert_eq!(outputs(&plan, &out), ["walk.glb"]);
}

#[test]
fn a_run_again_into_a_folder_inside_the_input_leaves_its_own_long_named_outputs_out() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    copy("sample.seanim", &input.join("walk.seanim"));
    copy("sample.semodel", &input.join("walk.semodel"));
    let out = input.join("converted");
    let plan = batch::plan(&[&input], &out, Target::Cast, None).unwrap();
    assert_eq!(outputs(&plan, &out), ["walk.seanim.cast", "walk.semodel.cast"]);
    // The outputs of that run, in place: the same plan again, not inputs.
    for job in &plan.jobs {
        copy("sample.cast", &job.output);
    }
    let again = batch::plan(&[&input], &out, Target::Cast, None).unwrap();
    assert_eq!(outputs(&again, &out), outputs(&plan, &out));
}
