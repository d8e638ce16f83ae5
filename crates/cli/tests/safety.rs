//! No command loses data: an output that is an input is refused before anything is read, a
//! failed write leaves no output and never touches an existing one, and a conversion that
//! would write nothing of the input fails instead of writing an empty file.

mod common;

use std::path::Path;

use animbin_testing::listing;
use common::{animbin, code, read, s, stderr, tempdir, testdata, write};

#[test]
fn an_output_that_is_the_input_is_refused_before_reading() {
    let dir = tempdir();
    let original = read(&testdata("sample.seanim"));
    let input = write(dir.path(), "s.seanim", &original);
    std::os::unix::fs::symlink(&input, dir.path().join("link.glb")).unwrap();
    std::fs::hard_link(&input, dir.path().join("hard.glb")).unwrap();
    let dotted = format!("{}/./s.seanim", dir.path().display());
    let (symlink, hard_link) = (dir.path().join("link.glb"), dir.path().join("hard.glb"));
    let same = [
        vec!["convert", s(&input), s(&input), "--to", "glb"],
        vec!["convert", s(&input), &dotted, "--to", "glb"],
        vec!["convert", s(&input), s(&symlink)],
        vec!["convert", s(&input), s(&hard_link)],
    ];
    for args in &same {
        let out = animbin(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
        assert_eq!(read(&input), original, "{args:?} changed the input");
    }
    // An --anim file is an input too.
    let model = write(dir.path(), "m.semodel", &read(&testdata("sample.semodel")));
    let out = animbin(&["convert", s(&model), s(&input), "--anim", s(&input), "--to", "semodel"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(read(&input), original);
    assert_eq!(listing(dir.path()), ["hard.glb", "link.glb", "m.semodel", "s.seanim"]);
}

#[test]
fn a_write_that_fails_half_way_leaves_no_output_and_the_old_file_intact() {
    let dir = tempdir();
    let input = testdata("sample.semodel");
    let output = dir.path().join("out.gltf");
    // `ulimit -f 1` lets a process write 1 KiB (512 bytes under some shells); the glTF of
    // the sample is larger, so the write fails part-way, with EFBIG.
    let run = |output: &Path| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 1 && exec \"$0\" convert \"$1\" \"$2\"")
            .arg(env!("CARGO_BIN_EXE_animbin"))
            .arg(&input)
            .arg(output)
            .output()
            .unwrap()
    };
    let out = run(&output);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("File too large"), "{}", stderr(&out));
    assert_eq!(
        listing(dir.path()),
        Vec::<String>::new(),
        "no output, no temporary file"
    );
    // An existing output is left as it was.
    write(dir.path(), "out.gltf", b"keep me");
    let out = run(&output);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(read(&output), b"keep me");
    assert_eq!(listing(dir.path()), ["out.gltf"]);
}

#[test]
fn a_target_that_can_hold_nothing_of_the_input_writes_nothing() {
    let dir = tempdir();
    let cases = [
        (
            "sample.semodel",
            "out.seanim",
            "seanim cannot hold anything of this semodel file",
        ),
        ("skeleton.semodel", "out.animx", "animx cannot hold anything"),
        (
            "sample.seanim",
            "out.semodel",
            "semodel cannot hold anything of this seanim file",
        ),
        (
            "sample.animx",
            "out.semodel",
            "semodel cannot hold anything of this animx file",
        ),
    ];
    for (input, output, message) in cases {
        let out = animbin(&["convert", s(&testdata(input)), s(&dir.path().join(output))]);
        assert_eq!(code(&out), 1, "{input} -> {output}");
        assert!(stderr(&out).contains(message), "{input} -> {output}: {}", stderr(&out));
        assert!(stderr(&out).contains("nothing was written"), "{}", stderr(&out));
        assert_eq!(listing(dir.path()), Vec::<String>::new(), "{input} -> {output}");
    }
    // An existing output stays as it was.
    let existing = write(dir.path(), "old.seanim", b"old");
    let out = animbin(&["convert", s(&testdata("sample.semodel")), s(&existing)]);
    assert_eq!(code(&out), 1);
    assert_eq!(read(&existing), b"old");
}

#[test]
fn an_empty_input_says_it_is_empty_and_writes_nothing() {
    let dir = tempdir();
    let empty = write(dir.path(), "empty.seanim", b"");
    let output = dir.path().join("out.glb");
    for args in [
        vec!["info", s(&empty)],
        vec!["dump", s(&empty)],
        vec!["validate", s(&empty)],
        vec!["convert", s(&empty), s(&output)],
    ] {
        let out = animbin(&args);
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(
            stderr(&out).contains("empty.seanim: the file is empty"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(listing(dir.path()), ["empty.seanim"]);
}

#[test]
fn a_successful_convert_replaces_the_output_whole_and_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let output = write(dir.path(), "out.seanim", b"an older file");
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = animbin(&["convert", s(&testdata("sample.seanim")), s(&output)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&output), read(&testdata("sample.seanim")));
    assert_eq!(std::fs::metadata(&output).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(listing(dir.path()), ["out.seanim"]);
}
