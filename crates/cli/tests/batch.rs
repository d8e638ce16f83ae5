//! `animbin convert --out DIR --to FORMAT PATH...`: many files and folders converted into one
//! folder, in parallel, past bad files, with one summary line.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{
    animbin, batch, code, copy, files_below, read, s, stderr, stdout, tempdir, testdata, testdata_dir, write,
};

/// A progress bar draws with carriage returns and escape codes; captured output has none.
fn assert_no_progress_bar(out: &Output) {
    let err = stderr(out);
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
}

/// An AnimX file whose LZMA container claims gigabytes: refused at its decompressedSize
/// field (byte 22) by the reader's limit, before anything is allocated.
const LZMA_BOMB: &str = "05 41 6e 69 6d 58 01 00 00 00 00 00 00 00 00 00 02 5d 00 00 20 00 00 00 00 00 02 00 00 00 \
                         05 00 00 00 00 00 00 00 00 00 00 00 00";

fn hex(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

#[test]
fn several_files_convert_into_the_folder_as_the_single_form_converts_each() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let names = [
        "sample.seanim",
        "skeleton.semodel",
        "x8an00.bin",
        "sample_blend.semodel",
    ];
    let inputs: Vec<PathBuf> = names.iter().map(|n| testdata(n)).collect();
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let run = batch(&refs, &out, "glb", &[]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 4, failed 0, skipped 0\n");
    assert_no_progress_bar(&run);
    assert_eq!(
        files_below(&out),
        ["sample.glb", "sample_blend.glb", "skeleton.glb", "x8an00.glb"]
    );
    // Each output holds the bytes that `convert IN OUT` writes for its input.
    let single = dir.path().join("single");
    fs::create_dir(&single).unwrap();
    for input in &inputs {
        let name = format!("{}.glb", input.file_stem().unwrap().to_str().unwrap());
        let one = animbin(&["convert", s(input), s(&single.join(&name))]);
        assert_eq!(code(&one), 0, "{}", stderr(&one));
        assert_eq!(read(&out.join(&name)), read(&single.join(&name)), "{}", input.display());
    }
}

#[test]
fn a_folder_is_walked_recursively_its_subfolders_kept_and_unread_files_skipped() {
    let dir = tempdir();
    let src = dir.path().join("anims");
    copy("sample.seanim", &src, "walk.seanim");
    copy("sample_every_block.seanim", &src, "npc/run.seanim");
    copy("sample.animx", &src, "npc/deep/idle.animx");
    // What no format reads: a texture, notes, JSON under another name, an empty file.
    write(&src, "skin.png", b"\x89PNG\r\n\x1a\n0000");
    write(&src, "npc/notes.txt", b"walk cycle, 30 fps");
    write(&src, "npc/config.ini", b"{\"not\": \"an input\"}");
    write(&src, "npc/deep/empty.seanim", b"");
    let out = dir.path().join("out");
    let run = batch(&[&src], &out, "seanim", &[]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 3, failed 0, skipped 4\n");
    assert_eq!(
        files_below(&out),
        ["npc/deep/idle.seanim", "npc/run.seanim", "walk.seanim"]
    );
    // Same-format conversions keep the bytes.
    assert_eq!(read(&out.join("walk.seanim")), read(&testdata("sample.seanim")));
    assert_eq!(
        read(&out.join("npc/run.seanim")),
        read(&testdata("sample_every_block.seanim"))
    );
    assert!(read(&out.join("npc/deep/idle.seanim")).starts_with(b"SEAnim"));
}

#[test]
fn files_named_as_inputs_are_converted_even_when_a_walk_would_skip_them() {
    let dir = tempdir();
    let notes = write(dir.path(), "notes.txt", b"walk cycle, 30 fps");
    let out = dir.path().join("out");
    let run = batch(&[&notes], &out, "glb", &[]);
    assert_eq!(code(&run), 1);
    assert!(
        stderr(&run).contains("notes.txt: unknown format at byte 0"),
        "{}",
        stderr(&run)
    );
    assert_eq!(stdout(&run), "converted 0, failed 1, skipped 0\n");
}

#[test]
fn json_in_a_folder_is_an_input_by_its_name_and_a_forced_format_takes_every_file() {
    let dir = tempdir();
    let src = dir.path().join("src");
    fs::create_dir(&src).unwrap();
    // A dump converts back to the file's bytes; JSON that no format reads fails, named.
    let dumped = animbin(&["dump", s(&testdata("sample.seanim"))]);
    assert_eq!(code(&dumped), 0);
    write(&src, "walk.json", &dumped.stdout);
    write(&src, "package.json", b"{\"name\": \"not an animation\"}");
    // A format's own JSON form, by its extension.
    fs::copy(testdata("sample.animj"), src.join("wave.animj")).unwrap();
    // An x8an file under another name is found only when the format is forced.
    fs::copy(testdata("x8an01.bin"), src.join("battle.dat")).unwrap();
    let out = dir.path().join("out");
    let run = batch(&[&src], &out, "seanim", &[]);
    assert_eq!(code(&run), 1);
    assert_eq!(stdout(&run), "converted 2, failed 1, skipped 1\n");
    assert!(
        stderr(&run).contains("package.json: JSON that is neither an animbin dump"),
        "{}",
        stderr(&run)
    );
    assert_eq!(read(&out.join("walk.seanim")), read(&testdata("sample.seanim")));
    let single = dir.path().join("wave.seanim");
    assert_eq!(
        code(&animbin(&["convert", s(&testdata("sample.animj")), s(&single)])),
        0
    );
    assert_eq!(read(&out.join("wave.seanim")), read(&single));

    let sf3 = dir.path().join("sf3");
    fs::create_dir(&sf3).unwrap();
    fs::copy(testdata("x8an01.bin"), sf3.join("battle.dat")).unwrap();
    let out = dir.path().join("out-sf3");
    let run = batch(&[&sf3], &out, "sf3", &["--format", "sf3"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 1, failed 0, skipped 0\n");
    // Sf3 has no extension of its own: its outputs are .bin, and keep the bytes.
    assert_eq!(read(&out.join("battle.bin")), read(&testdata("x8an01.bin")));
}

#[test]
fn inputs_that_would_share_an_output_are_named_after_their_whole_file_name() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let run = batch(
        &[
            &testdata("sample.seanim"),
            &testdata("sample.semodel"),
            &testdata("skeleton.semodel"),
        ],
        &out,
        "glb",
        &[],
    );
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 3, failed 0, skipped 0\n");
    assert_eq!(
        files_below(&out),
        ["sample.seanim.glb", "sample.semodel.glb", "skeleton.glb"]
    );
}

#[test]
fn the_samples_folder_converts_as_a_folder_with_an_output_for_every_file() {
    let dir = tempdir();
    let inputs = files_below(&testdata_dir());
    for (to, extension) in [("glb", "glb"), ("cast", "cast")] {
        let out = dir.path().join(to);
        // Every sample holds something to convert: no option is needed.
        let run = batch(&[&testdata_dir()], &out, to, &[]);
        let summary = stdout(&run);
        let counts: Vec<usize> = summary
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        let [converted, 0, skipped] = counts[..] else {
            panic!("{to}: {summary} {}", stderr(&run))
        };
        assert_eq!(code(&run), 0, "{to}: {}", stderr(&run));
        // Every file is planned (none shares an output); files no format reads (a README,
        // textures) are skipped.
        assert_eq!(converted + skipped, inputs.len(), "{to}: {summary}");
        let outputs = files_below(&out);
        assert_eq!(outputs.len(), converted, "{to}: {outputs:?}");
        for name in [
            "sample.animj",
            "sample.animx",
            "sample.cast",
            "sample.dmf",
            "sample.seanim",
            "sample.semodel",
        ] {
            let output = format!("{name}.{extension}");
            assert!(outputs.contains(&output), "{to}: no {output} in {outputs:?}");
        }
        // A stem no other input shares keeps the short name, below its folder too.
        for output in [format!("x8an00.{extension}"), format!("poses/rig_absolute.{extension}")] {
            assert!(outputs.contains(&output), "{to}: no {output} in {outputs:?}");
        }
    }
}

#[test]
fn inputs_that_still_share_an_output_are_refused_before_anything_is_written() {
    let dir = tempdir();
    let out = dir.path().join("out");
    // Two folders that both hold walk.seanim: named after the whole file name, both would
    // still be walk.seanim.glb.
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    copy("sample.seanim", &one, "walk.seanim");
    copy("sample_every_block.seanim", &two, "walk.seanim");
    let run = batch(&[&one, &two], &out, "glb", &[]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(stderr(&run).contains("would both be written to"), "{}", stderr(&run));
    assert!(!out.exists());
    // The same file reached twice is converted once.
    let run = batch(&[&one, &one.join("walk.seanim")], &out, "glb", &[]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 1, failed 0, skipped 0\n");
}

#[test]
fn an_output_that_is_an_input_is_refused_before_anything_is_written() {
    let dir = tempdir();
    let src = dir.path().join("src");
    let walk = copy("sample.seanim", &src, "walk.seanim");
    let before = fs::metadata(&walk).unwrap().modified().unwrap();
    // Into its own folder, as its own format: the output is the input.
    let run = batch(&[&src], &src, "seanim", &[]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(stderr(&run).contains("refusing to overwrite"), "{}", stderr(&run));
    // Through a symbolic link and a hard link in the output folder.
    #[cfg(unix)]
    {
        let out = dir.path().join("linked");
        fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&walk, out.join("walk.seanim")).unwrap();
        let run = batch(&[&src], &out, "seanim", &[]);
        assert_eq!(code(&run), 2, "{}", stderr(&run));
        assert!(stderr(&run).contains("is the input"), "{}", stderr(&run));
        assert!(fs::symlink_metadata(out.join("walk.seanim")).unwrap().is_symlink());
    }
    let out = dir.path().join("hard");
    fs::create_dir(&out).unwrap();
    fs::hard_link(&walk, out.join("walk.seanim")).unwrap();
    let run = batch(&[&walk], &out, "seanim", &[]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert_eq!(read(&walk), read(&testdata("sample.seanim")));
    assert_eq!(fs::metadata(&walk).unwrap().modified().unwrap(), before);
}

#[test]
fn an_output_folder_inside_an_input_folder_is_not_walked() {
    let dir = tempdir();
    let src = dir.path().join("src");
    copy("sample.seanim", &src, "walk.seanim");
    copy("skeleton.semodel", &src, "rig/skeleton.semodel");
    let out = src.join("glb");
    for _ in 0..2 {
        let run = batch(&[&src], &out, "glb", &[]);
        assert_eq!(code(&run), 0, "{}", stderr(&run));
        assert_eq!(stdout(&run), "converted 2, failed 0, skipped 0\n");
    }
    assert_eq!(files_below(&out), ["rig/skeleton.glb", "walk.glb"]);
}

#[test]
fn bad_files_are_reported_by_name_and_the_others_still_convert() {
    let dir = tempdir();
    let src = dir.path().join("src");
    copy("sample.seanim", &src, "good.seanim");
    copy("skeleton.semodel", &src, "rig.semodel");
    let sample = read(&testdata("sample.seanim"));
    write(&src, "cut.seanim", &sample[..sample.len() / 2]);
    // Over the reader's decompression limit, which holds for each file of a batch.
    write(&src, "bomb.animx", &hex(LZMA_BOMB));
    let missing = dir.path().join("missing.seanim");
    let out = dir.path().join("out");
    for jobs in ["1", "2"] {
        let run = batch(&[&src, &missing], &out, "glb", &["--jobs", jobs]);
        assert_eq!(code(&run), 1, "{}", stderr(&run));
        assert_eq!(stdout(&run), "converted 2, failed 3, skipped 0\n");
        assert_no_progress_bar(&run);
        let err = stderr(&run);
        let line = |name: &str| {
            err.lines()
                .find(|l| l.contains(name))
                .unwrap_or_else(|| panic!("no line names {name}: {err}"))
                .to_string()
        };
        assert!(line("cut.seanim").contains(" at byte "), "{err}");
        let bomb = line("bomb.animx");
        assert!(bomb.contains("exceeds the limit") && bomb.contains("22"), "{bomb}");
        assert!(line("missing.seanim").starts_with("animbin: "), "{err}");
        // Nothing of a failed file is left, not even a temporary file.
        assert_eq!(files_below(&out), ["good.glb", "rig.glb"]);
    }
}

#[test]
fn existing_outputs_are_replaced() {
    let dir = tempdir();
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    write(&out, "sample.glb", b"an older output");
    let run = batch(&[&testdata("sample.seanim")], &out, "glb", &[]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert!(read(&out.join("sample.glb")).starts_with(b"glTF"));
}

#[test]
fn losses_and_strict_failures_name_their_file() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let animx = testdata("sample.animx");
    let seanim = testdata("sample_every_block.seanim");
    // What a single conversion reports, a batch reports under the file's name.
    let single = animbin(&["convert", s(&animx), s(&dir.path().join("one.seanim"))]);
    assert_eq!(code(&single), 0, "{}", stderr(&single));
    let lost: Vec<String> = stderr(&single)
        .lines()
        .map(|l| l.replacen("animbin: ", "", 1))
        .collect();
    assert!(
        !lost.is_empty(),
        "sample.animx loses nothing as an SEAnim: pick another sample"
    );
    let run = batch(&[&animx, &seanim], &out, "seanim", &[]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    for line in &lost {
        let named = format!("animbin: {}: {line}", animx.display());
        assert!(stderr(&run).contains(&named), "{named} not in {}", stderr(&run));
    }
    // With --strict the lossy file fails alone.
    let out = dir.path().join("strict");
    let run = batch(&[&animx, &seanim], &out, "seanim", &["--strict"]);
    assert_eq!(code(&run), 1, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 1, failed 1, skipped 0\n");
    assert!(stderr(&run).contains("sample.animx: strict"), "{}", stderr(&run));
    assert_eq!(files_below(&out), ["sample_every_block.seanim"]);
}

#[test]
fn usage_mistakes_of_the_batch_form_exit_2_before_anything_is_written() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let input = testdata("sample.seanim");
    let cases: [&[&str]; 6] = [
        // No --to: a folder has no extension to tell the format.
        &["convert", "--out", s(&out), s(&input)],
        &["convert", "--out", s(&out), "--to", "glb", "--split", s(&input)],
        &[
            "convert",
            "--out",
            s(&out),
            "--to",
            "glb",
            "--anim",
            s(&input),
            s(&input),
        ],
        &["convert", "--out", s(&out), "--to", "glb", "--jobs", "0", s(&input)],
        // --jobs belongs to --out; without --out, three paths are not IN OUT.
        &["convert", "--jobs", "2", s(&input), s(&out)],
        &["convert", s(&input), s(&input), s(&out)],
    ];
    for args in cases {
        let run = animbin(args);
        assert_eq!(code(&run), 2, "{args:?}: {}", stderr(&run));
        assert!(!out.exists(), "{args:?}");
    }
    let run = animbin(&["convert", s(&input), s(&input), s(&out)]);
    assert!(stderr(&run).contains("--out DIR"), "{}", stderr(&run));
    // An output folder that is a file.
    let file = write(dir.path(), "file", b"");
    let run = batch(&[&input], &file, "glb", &[]);
    assert_eq!(code(&run), 2, "{}", stderr(&run));
    assert!(stderr(&run).contains("is not a folder"), "{}", stderr(&run));
}

#[test]
fn one_job_and_two_give_the_same_files() {
    let dir = tempdir();
    let src = dir.path().join("src");
    for (i, name) in [
        "sample.seanim",
        "skeleton.semodel",
        "sample.animx",
        "sample.dmf",
        "sample.cast",
    ]
    .iter()
    .enumerate()
    {
        for copy_index in 0..3 {
            copy(name, &src, &format!("set{copy_index}/{i}-{name}"));
        }
    }
    let mut results = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("out{jobs}"));
        let run = batch(&[&src], &out, "glb", &["--jobs", jobs]);
        assert_eq!(code(&run), 0, "{}", stderr(&run));
        assert_eq!(stdout(&run), "converted 15, failed 0, skipped 0\n");
        let files = files_below(&out);
        let bytes: Vec<Vec<u8>> = files.iter().map(|f| read(&out.join(f))).collect();
        results.push((files, bytes));
    }
    assert_eq!(results[0], results[1]);
}

/// `--jobs` beyond the documented maximum is the user's mistake, said before a thread starts.
#[test]
fn more_jobs_than_the_limit_is_a_usage_error_naming_it() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let input = testdata("sample.seanim");
    for jobs in ["1025", "100000", "99999999999999999999999"] {
        let run = batch(&[&input], &out, "glb", &["--jobs", jobs]);
        assert_eq!(code(&run), 2, "{}", stderr(&run));
        assert!(stderr(&run).contains("the limit of 1024"), "{}", stderr(&run));
        assert!(!out.exists());
    }
}

/// A batch starts no more threads than it has files: one file with `--jobs 1000` converts on
/// one thread. Under an address-space limit of 512 MiB, a thousand threads' stacks (2 MiB
/// each, reserved when the thread starts) cannot even be started, so this fails if the
/// command starts them.
#[cfg(unix)]
#[test]
fn a_batch_of_one_file_starts_one_thread_whatever_jobs_asks() {
    let dir = tempdir();
    let out = dir.path().join("out");
    let input = testdata("sample.seanim");
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 524288 && exec \"$0\" convert --to glb --jobs 1000 --out \"$1\" \"$2\"")
        .arg(env!("CARGO_BIN_EXE_animbin"))
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run), "converted 1, failed 0, skipped 0\n");
    assert_eq!(files_below(&out), ["sample.glb"]);
}
