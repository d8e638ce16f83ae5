//! `animbin convert --out DIR`: an output folder inside an input folder, and symbolic links
//! that lead nowhere. The output folder's own outputs are not inputs, everything else in the
//! input converts, and a broken link is skipped, not failed; the summary counts each.

mod common;

use common::{animbin, batch, code, copy, files_below, read, s, stderr, stdout, tempdir, write};

#[test]
fn an_output_folder_inside_an_input_folder_keeps_its_inputs_and_leaves_its_outputs() {
    // The case: `convert --to cast --out in/deep in` said "converted 1" and never
    // looked at in/deep/b.semodel.
    let dir = tempdir();
    let input = dir.path().join("in");
    copy("sample.seanim", &input, "a.seanim");
    copy("skeleton.semodel", &input, "deep/b.semodel");
    write(&input.join("deep"), "notes.txt", b"not an input");
    let out = input.join("deep");
    for run in 0..2 {
        let result = batch(&[&input], &out, "cast", &[]);
        assert_eq!(code(&result), 0, "run {run}: {}", stderr(&result));
        // The same two files each time: the first run's outputs are not inputs of the second.
        assert_eq!(stdout(&result), "converted 2, failed 0, skipped 1\n", "run {run}");
        assert_eq!(
            files_below(&input),
            [
                "a.seanim",
                "deep/a.cast",
                "deep/b.semodel",
                "deep/deep/b.cast",
                "deep/notes.txt"
            ],
            "run {run}"
        );
    }
    let single = dir.path().join("b.cast");
    let one = animbin(&["convert", s(&out.join("b.semodel")), s(&single)]);
    assert_eq!(code(&one), 0, "{}", stderr(&one));
    assert_eq!(read(&out.join("deep/b.cast")), read(&single));
}

#[test]
fn outputs_no_format_recognises_are_still_this_runs_outputs() {
    // An SEAnim to x8an gives `walk.bin`: no magic, no x8an name. Found again below the
    // output folder it is neither an input nor a skipped file.
    let dir = tempdir();
    let input = dir.path().join("in");
    copy("sample.seanim", &input, "walk.seanim");
    let out = input.join("sf3");
    for run in 0..2 {
        let result = batch(&[&input], &out, "sf3", &[]);
        assert_eq!(code(&result), 0, "run {run}: {}", stderr(&result));
        assert_eq!(stdout(&result), "converted 1, failed 0, skipped 0\n", "run {run}");
        assert_eq!(files_below(&input), ["sf3/walk.bin", "walk.seanim"], "run {run}");
    }
}

#[cfg(unix)]
#[test]
fn links_that_lead_nowhere_are_skipped_not_failed() {
    use std::os::unix::fs::symlink;
    let dir = tempdir();
    let input = dir.path().join("in");
    copy("sample.seanim", &input, "walk.seanim");
    symlink("missing.seanim", input.join("gone.seanim")).unwrap();
    symlink("loop-b.seanim", input.join("loop-a.seanim")).unwrap();
    symlink("loop-a.seanim", input.join("loop-b.seanim")).unwrap();
    // A link to a file is followed, as before.
    symlink("walk.seanim", input.join("run.seanim")).unwrap();
    let out = dir.path().join("out");
    let result = batch(&[&input], &out, "glb", &[]);
    assert_eq!(code(&result), 0, "{}", stderr(&result));
    assert_eq!(stdout(&result), "converted 2, failed 0, skipped 3\n");
    assert_eq!(files_below(&out), ["run.glb", "walk.glb"]);
    // Each is reported, with where it points.
    let err = stderr(&result);
    for (name, to) in [
        ("gone.seanim", "missing.seanim"),
        ("loop-a.seanim", "loop-b.seanim"),
        ("loop-b.seanim", "loop-a.seanim"),
    ] {
        let line = format!(
            "animbin: {}: skipped: a symbolic link to {to} that cannot be followed: ",
            input.join(name).display()
        );
        assert!(err.contains(&line), "{line:?} not in {err}");
    }
    // A broken link named on the command line is a file that cannot be read: it fails.
    let result = batch(&[&input.join("gone.seanim")], &out, "glb", &[]);
    assert_eq!(code(&result), 1, "{}", stderr(&result));
    assert_eq!(stdout(&result), "converted 0, failed 1, skipped 0\n");
}
