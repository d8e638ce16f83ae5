//! The command under faults: signals mid-write, outputs that cannot be written, special
//! inputs, symbolic links and read-only outputs. Each leaves no temporary file, blames the
//! right file, and ends promptly.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use animbin_testing::listing;
use animbin_testing::seanim::big_seanim;
use common::{animbin, code, command, fixture, read, s, stderr, stdout, tempdir, testdata, write};

/// Waits for `child` for at most `seconds`; one still running then is killed and fails the
/// test (the command must never wait forever).
fn wait_at_most(mut child: Child, seconds: u64, what: &str) -> Output {
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("{what} still ran after {seconds} s");
}

/// Runs `animbin ARGS...` with a deadline.
fn animbin_within(args: &[&str], seconds: u64) -> Output {
    let child = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_at_most(child, seconds, &format!("animbin {}", args.join(" ")))
}

/// The files process `pid` has open (an unnamed temporary file reads `dir/#123 (deleted)`).
fn open_files(pid: u32) -> Vec<std::path::PathBuf> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    fds.filter_map(Result::ok)
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .collect()
}

/// Whether process `pid` has a file open in `dir`.
fn writes_into(pid: u32, dir: &Path) -> bool {
    open_files(pid).iter().any(|target| target.starts_with(dir))
}

/// Sends `signal` (a name such as `INT`) to `pid`.
fn send(signal: &str, pid: u32) {
    let status = Command::new("sh")
        .args(["-c", "kill -s \"$0\" \"$1\"", signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -s {signal} {pid}");
}

/// Makes the commands this process starts begin with SIGINT, SIGTERM and SIGHUP at their
/// default actions, as from a terminal, even when the tests run where they are ignored (a
/// background job ignores SIGINT, and the command rightly keeps a signal it was started
/// ignoring): an ignored signal stays ignored across `exec`, a handled one is reset.
fn default_signals_for_commands() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register(signal, std::sync::Arc::default()).unwrap();
    }
}

#[test]
fn a_signal_mid_write_leaves_no_temporary_file_and_the_old_output_or_none() {
    default_signals_for_commands();
    let dir = tempdir();
    let input = write(dir.path(), "big.seanim", &big_seanim(300, 800));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let output = out_dir.join("out.seanim");
    // (signal, its number, whether temporary files have names): unnamed ones (O_TMPFILE)
    // vanish even with SIGKILL; named ones are removed by the command's handler.
    let cases = [
        ("INT", 2, false),
        ("TERM", 15, false),
        ("HUP", 1, false),
        ("KILL", 9, false),
        ("INT", 2, true),
        ("TERM", 15, true),
        ("HUP", 1, true),
    ];
    let whole = read(&input);
    for (round, (signal, number, named)) in cases.into_iter().enumerate() {
        // Every other round replaces an existing output, which must then stay as it was.
        let old = round % 2 == 1;
        let mut attempts = 0;
        let out = loop {
            attempts += 1;
            assert!(
                attempts <= 100,
                "SIG{signal}: in 100 runs the command never had its output open when stopped"
            );
            if old {
                std::fs::write(&output, b"the old output").unwrap();
            }
            let mut run = command();
            run.args(["convert", s(&input), s(&output)])
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            if named {
                run.env("ANIMBIN_NO_TMPFILE", "1");
            }
            let mut child = run.spawn().unwrap();
            let pid = child.id();
            if signal_mid_write(&mut child, &out_dir, &output, signal) {
                break wait_at_most(child, 60, &format!("convert after SIG{signal}"));
            }
            // The command ended before it could be stopped mid-write (a fast machine writes
            // the output in a few milliseconds): it must have done so whole. Try again.
            let done = wait_at_most(child, 60, &format!("convert of pid {pid}"));
            assert_eq!(code(&done), 0, "an uninterrupted convert: {}", stderr(&done));
            assert_eq!(read(&output), whole, "an uninterrupted convert");
            assert_eq!(listing(&out_dir), ["out.seanim"], "an uninterrupted convert");
            std::fs::remove_file(&output).unwrap();
        };
        let case = format!("SIG{signal}, named temporary files: {named}: {}", stderr(&out));
        match number {
            9 => assert_eq!(out.status.signal(), Some(9), "{case}"),
            _ => assert_eq!(out.status.code(), Some(128 + number), "{case}"),
        }
        let names = listing(&out_dir);
        assert!(!names.iter().any(|n| n.ends_with(".partial")), "{case}: {names:?}");
        // A signal that comes as the finished output is put in place may lose the race to
        // it: the output is then the new one, whole. Anything else is what was there.
        let finished = names == ["out.seanim"] && read(&output) == whole;
        if old {
            assert!(finished || read(&output) == b"the old output", "{case}");
        } else {
            assert!(finished || names.is_empty(), "{case}: {names:?}");
        }
        let _ = std::fs::remove_file(&output);
    }
}

/// Sends `signal` to `child` while it writes a temporary file in `dir` for `output`, and
/// says whether it did.
///
/// The child is stopped (SIGSTOP) as soon as it is seen writing and looked at again while
/// stopped: only a child that still has a temporary file open then is mid-write, so the
/// signal reaches an unfinished write however fast the machine is. `false` when the child
/// got past its write first.
fn signal_mid_write(child: &mut Child, dir: &Path, output: &Path, signal: &str) -> bool {
    let pid = child.id();
    let until = Instant::now() + Duration::from_secs(120);
    loop {
        if writes_into(pid, dir) {
            send("STOP", pid);
            while !stopped_or_ended(pid) {
                assert!(Instant::now() < until, "pid {pid} never stopped");
                std::thread::sleep(Duration::from_millis(1));
            }
            let mid_write = open_files(pid).iter().any(|f| f.starts_with(dir) && f != output);
            if mid_write {
                send(signal, pid);
            }
            send("CONT", pid);
            return mid_write;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        assert!(Instant::now() < until, "pid {pid}: the output was never opened");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether process `pid` is stopped, has ended (a zombie) or is gone.
fn stopped_or_ended(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    // The state follows the command name, which is in parentheses and may hold spaces.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next());
    matches!(state, Some("T" | "t" | "Z" | "X"))
}

#[test]
fn a_folder_walk_skips_temporary_files() {
    let dir = tempdir();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    let sample = read(&testdata("sample.seanim"));
    write(&inputs, "walk.seanim", &sample);
    // What a save killed mid-write on a file system without unnamed files leaves.
    write(&inputs, ".walk.seanim.Ab12Cd.partial", &sample);
    let out = dir.path().join("out");
    let run = animbin(&["convert", "--to", "cast", "--out", s(&out), s(&inputs)]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    assert_eq!(stdout(&run).trim(), "converted 1, failed 0, skipped 1");
    assert_eq!(listing(&out), ["walk.cast"]);
}

#[test]
fn an_output_that_cannot_be_written_is_named_with_the_reason_not_blamed_on_the_input() {
    let dir = tempdir();
    let input = write(dir.path(), "big.seanim", &big_seanim(40, 300));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let output = out_dir.join("copy.seanim");
    let check = |out: &Output, destination: &Path, reason: &str| {
        let message = stderr(out);
        assert_eq!(code(out), 1, "{message}");
        assert!(
            message.contains(&format!("animbin: {}: {reason}", destination.display())),
            "{message}"
        );
        for wrong in ["big.seanim", "seanim at", "byte", ".partial"] {
            assert!(!message.contains(wrong), "{wrong:?} in {message}");
        }
    };
    // A file-size limit part-way through a same-format copy (the SEAnim writer's own I/O
    // error was reported as the input's, at a byte offset).
    let limited = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 64 && exec \"$0\" convert \"$1\" \"$2\"")
        .arg(env!("CARGO_BIN_EXE_animbin"))
        .arg(&input)
        .arg(&output)
        .output()
        .unwrap();
    check(&limited, &output, "File too large");
    assert_eq!(listing(&out_dir), Vec::<String>::new());
    // A device that is full: written straight into, never replaced.
    let full = animbin(&["convert", "--to", "seanim", s(&input), "/dev/full"]);
    check(&full, Path::new("/dev/full"), "No space left on device");
    assert!(!std::fs::metadata("/dev/full").unwrap().is_file());
    // A disk that fills up (a small tmpfs, where it can be mounted: as root).
    let tmpfs = out_dir.join("small");
    std::fs::create_dir(&tmpfs).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&tmpfs)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !mounted {
        animbin_testing::require("a small tmpfs for a disk that fills up (mounting one needs root)");
        return;
    }
    let on_tmpfs = tmpfs.join("copy.seanim");
    let out = animbin(&["convert", s(&input), s(&on_tmpfs)]);
    let names = listing(&tmpfs);
    let _ = Command::new("umount").arg(&tmpfs).status();
    check(&out, &on_tmpfs, "No space left on device");
    assert_eq!(names, Vec::<String>::new());
}

#[test]
fn a_pipe_or_a_device_as_input_is_refused_at_once() {
    let dir = tempdir();
    let fifo = dir.path().join("fifo.seanim");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let output = dir.path().join("out.cast");
    for input in [Path::new("/dev/zero"), fifo.as_path()] {
        let kind = if input == fifo {
            "a pipe (FIFO)"
        } else {
            "a character device"
        };
        for args in [
            vec!["info", s(input)],
            vec!["info", "--json", s(input)],
            vec!["dump", s(input)],
            vec!["validate", s(input)],
            vec!["convert", s(input), s(&output)],
            vec![
                "convert",
                s(&testdata("sample.semodel")),
                s(&output),
                "--anim",
                s(input),
            ],
        ] {
            let out = animbin_within(&args, 20);
            assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
            assert!(
                stderr(&out).contains(&format!("{}: not a regular file but {kind}", input.display())),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    assert_eq!(listing(dir.path()), ["fifo.seanim"]);
    // In a batch, a pipe named on the command line fails alone.
    let batch = dir.path().join("batch");
    let sample = testdata("sample.seanim");
    let args = ["convert", "--to", "cast", "--out", s(&batch), s(&fifo), s(&sample)];
    let out = animbin_within(&args, 20);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "converted 1, failed 1, skipped 0");
    assert!(
        stderr(&out).contains("not a regular file but a pipe"),
        "{}",
        stderr(&out)
    );
    // A regular file behind /dev/stdin is read as any file.
    let stdin = std::fs::File::open(&sample).unwrap();
    let out = command().args(["info", "/dev/stdin"]).stdin(stdin).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn an_output_through_a_symbolic_link_replaces_the_target_and_keeps_the_link() {
    let dir = tempdir();
    let targets = dir.path().join("targets");
    let links = dir.path().join("links");
    std::fs::create_dir(&targets).unwrap();
    std::fs::create_dir(&links).unwrap();
    let target = write(&targets, "real.seanim", b"an older file");
    let link = links.join("link.seanim");
    std::os::unix::fs::symlink("../targets/real.seanim", &link).unwrap();
    let input = testdata("sample.seanim");
    let out = animbin(&["convert", s(&input), s(&link)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("../targets/real.seanim"));
    assert_eq!(read(&target), read(&input));
    assert_eq!(listing(&targets), ["real.seanim"]);
    assert_eq!(listing(&links), ["link.seanim"]);
    // --split writes through links too.
    let glb_link = links.join("sample.seanim");
    std::os::unix::fs::symlink(targets.join("split.seanim"), &glb_link).unwrap();
    let out = animbin(&["convert", "--split", "--to", "seanim", s(&input), s(&links)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&glb_link).unwrap().file_type().is_symlink());
    assert_eq!(read(&targets.join("split.seanim")), read(&input));
}

#[test]
fn a_read_only_output_is_refused_unless_forced() {
    let dir = tempdir();
    let output = write(dir.path(), "out.seanim", b"keep me");
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o444)).unwrap();
    let input = testdata("sample.seanim");
    let out = animbin(&["convert", s(&input), s(&output)]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        format!(
            "animbin: {}: the file is read-only and was left as it is; --force replaces it",
            output.display()
        )
    );
    assert_eq!(read(&output), b"keep me");
    // Through a symbolic link, the target's permissions count.
    let link = dir.path().join("link.seanim");
    std::os::unix::fs::symlink(&output, &link).unwrap();
    let out = animbin(&["convert", s(&input), s(&link)]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(read(&output), b"keep me");
    let out = animbin(&["convert", "--force", s(&input), s(&link)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&output), read(&input));
    assert_eq!(std::fs::metadata(&output).unwrap().permissions().mode() & 0o777, 0o444);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(listing(dir.path()), ["link.seanim", "out.seanim"]);
}

#[test]
fn a_batch_refuses_read_only_outputs_unless_forced() {
    let dir = tempdir();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let locked = write(&out_dir, "sample.cast", b"keep me");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (input, other) = (testdata("sample.seanim"), testdata("skeleton.semodel"));
    let batch = |force: &[&str]| {
        let mut args = vec!["convert", "--to", "cast", "--out", s(&out_dir)];
        args.extend(force);
        args.extend([s(&input), s(&other)]);
        animbin(&args)
    };
    // The read-only output fails alone, named with the way past it; the other converts.
    let out = batch(&[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "converted 1, failed 1, skipped 0");
    let refusal = format!(
        "animbin: {}: {}: the file is read-only and was left as it is; --force replaces it\n",
        input.display(),
        locked.display()
    );
    assert!(stderr(&out).contains(&refusal), "{}", stderr(&out));
    assert_eq!(read(&locked), b"keep me");
    assert_eq!(listing(&out_dir), ["sample.cast", "skeleton.cast"]);
    // Forced, it is replaced by what a single conversion writes, keeping its permissions.
    let out = batch(&["--force"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "converted 2, failed 0, skipped 0");
    let single = dir.path().join("single.cast");
    let out = animbin(&["convert", s(&input), s(&single)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&locked), read(&single));
    assert_eq!(std::fs::metadata(&locked).unwrap().permissions().mode() & 0o777, 0o444);
    assert_eq!(listing(&out_dir), ["sample.cast", "skeleton.cast"]);
}

/// --max-input-size counts every byte read for one input: a `.gltf`'s `.bin` beside it and
/// a model's texture files count with the input (a `.gltf` beside a 512 MiB `.bin`, or a
/// Cast beside a 1 GiB texture, was read whole whatever the limit).
#[test]
fn the_input_size_limit_counts_the_files_read_beside_the_input() {
    let dir = tempdir();
    // A .gltf "separate": its buffer in model.bin, 1 MiB and more.
    let glb = dir.path().join("model.glb");
    let out = animbin(&["convert", s(&testdata("sample.seanim")), s(&glb)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let (mut json, bin) = animbin_gltf::split(&read(&glb)).unwrap();
    let mut bin = bin.unwrap();
    bin.resize(bin.len().max(1 << 20) + 4096, 0);
    json["buffers"][0]["uri"] = "model.bin".into();
    json["buffers"][0]["byteLength"] = bin.len().into();
    let gltf = write(dir.path(), "model.gltf", &serde_json::to_vec(&json).unwrap());
    write(dir.path(), "model.bin", &bin);
    let output = dir.path().join("out.cast");
    for args in [
        vec!["info", "--max-input-size", "1M", s(&gltf)],
        vec!["validate", "--max-input-size", "1M", s(&gltf)],
        vec!["convert", "--max-input-size", "1M", s(&gltf), s(&output)],
    ] {
        let out = animbin(&args);
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("model.bin")
                && stderr(&out).contains("larger than the limit of 1048576 bytes (1 MiB)"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = animbin(&["info", "--max-input-size", "2M", s(&gltf)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // A Cast model beside a texture larger than what the limit leaves.
    let cast = dir.path().join("sample.cast");
    std::fs::copy(testdata("sample.cast"), &cast).unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.resize(1 << 20, 0);
    write(dir.path(), "paint_c.png", &png);
    let glb_out = dir.path().join("painted.glb");
    let out = animbin(&["convert", "--max-input-size", "1M", s(&cast), s(&glb_out)]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "paint_c.png: larger than the limit of 1048576 bytes (1 MiB) for one input; --max-input-size raises it"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!glb_out.exists() && !output.exists());
    let out = animbin(&["convert", "--max-input-size", "2M", s(&cast), s(&glb_out)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// --max-accessor-values sets the glTF accessor budget for every command that reads: 8
/// primitives sharing a sparse accessor of 1,000 positions give 24,004 values (each
/// primitive's 3,000 and the substitute's 4); one fewer is refused naming the accessor and
/// the budget as set, and a value that is not a count is a usage error naming the option.
#[test]
fn the_accessor_budget_is_set_by_max_accessor_values() {
    let dir = tempdir();
    let sparse = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fuzz/regressions/parse_gltf/gltf-8-primitives-share-a-sparse-accessor-of-5000000"),
    )
    .unwrap()
    .replace("\"count\": 5000000", "\"count\": 1000");
    let gltf = write(dir.path(), "shared.gltf", sparse.as_bytes());
    let output = dir.path().join("out.cast");
    for budget in ["24004", "1M"] {
        for args in [
            vec!["info", "--max-accessor-values", budget, s(&gltf)],
            vec!["validate", "--max-accessor-values", budget, s(&gltf)],
            vec!["--max-accessor-values", budget, "convert", s(&gltf), s(&output)],
        ] {
            let out = animbin(&args);
            assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        }
        assert!(output.exists());
        std::fs::remove_file(&output).unwrap();
    }
    for args in [
        vec!["info", "--max-accessor-values", "24003", s(&gltf)],
        vec!["convert", "--max-accessor-values", "24003", s(&gltf), s(&output)],
    ] {
        let out = animbin(&args);
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("gltf: /accessors/0: expected at most 24003 accessor values in all (as set;"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert!(!output.exists());
    // Past the default budget (16,777,216 values), validate checks under the one set too.
    let large = write(dir.path(), "large.gltf", sparse.replace("1000", "1000000").as_bytes());
    let out = animbin(&["validate", "--max-accessor-values", "25M", s(&large)]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()), "{}", stderr(&out));
    for bad in ["0", "-1", "1.5G", "lots"] {
        let out = animbin(&["info", &format!("--max-accessor-values={bad}"), s(&gltf)]);
        assert_eq!(code(&out), 2, "{bad}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("--max-accessor-values"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn the_input_size_limit_is_named_with_the_option_that_raises_it() {
    let dir = tempdir();
    let input = testdata("sample.seanim");
    let size = std::fs::metadata(&input).unwrap().len();
    let below = (size - 1).to_string();
    let output = dir.path().join("out.cast");
    let refusal = format!(
        "{}: larger than the limit of {} bytes for one input; --max-input-size raises it",
        input.display(),
        size - 1
    );
    let model = testdata("skeleton.semodel");
    // Every command that reads, the option before or after the command's name.
    for args in [
        vec!["info", "--max-input-size", &below, s(&input)],
        vec!["--max-input-size", &below, "info", "--json", s(&input)],
        vec!["dump", "--max-input-size", &below, s(&input)],
        vec!["validate", "--max-input-size", &below, s(&input)],
        vec!["convert", "--max-input-size", &below, s(&input), s(&output)],
        vec![
            "convert",
            "--max-input-size",
            &below,
            s(&model),
            s(&output),
            "--anim",
            s(&input),
        ],
    ] {
        let out = animbin_within(&args, 20);
        assert_eq!(code(&out), 1, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(&refusal), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(listing(dir.path()), Vec::<String>::new());
    // A file of the limit's size reads, as with the default limit.
    let at_limit = animbin(&["info", "--json", "--max-input-size", &size.to_string(), s(&input)]);
    assert_eq!(code(&at_limit), 0, "{}", stderr(&at_limit));
    assert_eq!(at_limit.stdout, animbin(&["info", "--json", s(&input)]).stdout);
    // Units are binary: 1K is 1024 bytes, said so.
    let large = testdata("sample.cast");
    assert!(std::fs::metadata(&large).unwrap().len() > 1024);
    let out = animbin(&["info", "--max-input-size", "1K", s(&large)]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("larger than the limit of 1024 bytes (1 KiB) for one input; --max-input-size raises it"),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&animbin(&["info", "--max-input-size", "2K", s(&large)])), 0);
    // In a batch, the file over the limit fails alone.
    let small = fixture("x8an02.bin");
    assert!(std::fs::metadata(&small).unwrap().len() < size - 1);
    let batch = dir.path().join("batch");
    let args = [
        "convert",
        "--to",
        "sf3",
        "--max-input-size",
        &below,
        "--out",
        s(&batch),
        s(&input),
        s(&small),
    ];
    let out = animbin(&args);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "converted 1, failed 1, skipped 0");
    assert_eq!(stderr(&out).trim(), format!("animbin: {refusal}"));
    assert_eq!(listing(&batch), ["x8an02.bin"]);
    // A value that is not a size is a usage error naming the option.
    for bad in ["0", "-1", "1.5G", "lots"] {
        let out = animbin(&["info", &format!("--max-input-size={bad}"), s(&input)]);
        assert_eq!(code(&out), 2, "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--max-input-size"), "{bad}: {}", stderr(&out));
    }
}

/// Out of memory (`ulimit -v`: 128 MiB for a 46 MB SEAnim) is exit 1 with a line naming
/// what could not be allocated, and nothing written; it was `memory allocation of 80000
/// bytes failed`, a backtrace and SIGABRT.
#[test]
fn running_out_of_memory_is_exit_1_and_leaves_nothing() {
    let dir = tempdir();
    let input = write(dir.path(), "big.seanim", &big_seanim(600, 900));
    for to in ["out.cast", "out.glb", "out.dmf"] {
        let output = dir.path().join(to);
        let run = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 131072 && exec \"$0\" convert \"$1\" \"$2\"")
            .arg(env!("CARGO_BIN_EXE_animbin"))
            .arg(&input)
            .arg(&output)
            .output()
            .unwrap();
        assert_eq!(code(&run), 1, "{to}: {}", stderr(&run));
        let message = stderr(&run);
        // Where the limit is met depends on what else holds memory at that moment (the
        // worker threads' stacks): in the conversion, the allocator's own line; while the
        // input is read, the read's error, which names the input and the system's reason.
        let in_conversion =
            message.starts_with("animbin: out of memory: could not allocate ") && message.contains(" bytes more");
        let in_read = message.starts_with(&format!("animbin: {}: Cannot allocate memory", input.display()));
        assert!(in_conversion || in_read, "{to}: {message}");
        assert!(!message.contains("memory allocation of"), "{message}");
        assert_eq!(listing(dir.path()), ["big.seanim"], "{to}");
    }
}
