//! `cargo xtask <task>`: the project's chores.
//!
//! | task | what it does |
//! |---|---|
//! | `ci` | runs `.ci/run` |
//! | `corpus` | rewrites `testdata/`, `tests/fixtures/` and the fuzz seed corpus from the project's own writers |
//! | `fuzz [TARGET] [SECONDS]` | fuzzes one target (or all) with `cargo +nightly fuzz` |
//! | `bench [FILTER]` | runs the criterion benchmarks and prints a table of ratios |
//! | `bench-command [MIB] [INPUT...]` | times the whole `animbin` command beside `cp` on MIB-MiB files (INPUT: a label prefix such as `sf3`) |
//! | `web [bench-files DIR [MIB]]` | builds the wasm, the npm package and the page into `target/web/` |
//! | `bench-batch [FILES] [KIB] [DIR]` | times `animbin convert --out` of FILES files with one job and two |
//! | `dist [--check] [PART...]` | builds (or checks) the release archives, wheels, Blender zip and npm package in `target/dist/` |

mod batch_bench;
mod bench_table;
mod command_bench;
mod corpus;
mod dist;
mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const TASKS: &[(&str, &str)] = &[
    ("ci", "run .ci/run (what CI runs)"),
    (
        "corpus",
        "write testdata/, tests/fixtures/ and fuzz/corpus/<target>/ from the project's own writers",
    ),
    (
        "fuzz [TARGET] [SECONDS]",
        "fuzz TARGET (default: all) for SECONDS each (default 60) with cargo +nightly fuzz",
    ),
    (
        "bench [FILTER]",
        "run the criterion benchmarks, then print each one's GiB/s and ratios to memcpy and the peer",
    ),
    (
        "bench-command [MIB] [INPUT...]",
        "time info, convert, dump and undump of MIB-MiB files (48) beside cp, with peak memory; INPUT picks files by label (seanim, semodel, cast, animx, sf3, dmf), --info times info alone; ANIMBIN_BENCH_COMMAND=PATH times another build's command",
    ),
    (
        "web [bench-files DIR [MIB]]",
        "build the wasm, the npm package and the page into target/web/ (bench-files: the 48 MiB SEModel and SEAnim the page's benchmark opens)",
    ),
    (
        "bench-batch [FILES] [KIB] [DIR]",
        "time convert --out of FILES (200) KIB-KiB files (1024) to glb with --jobs 1 and 2, in DIR",
    ),
    (
        "dist [PART...]",
        "build into target/dist/ the command for Linux x64/arm64, Windows x64 and macOS x64/arm64, their abi3 wheels, the Blender extension zip and the npm package (PART: linux-x64, command-windows-x64, wheel-macos-arm64, blender, npm...)",
    ),
    (
        "dist --check [CHECK...]",
        "check target/dist/: the commands under Wine and QEMU against the native build, glibc 2.17, DLL and dylib imports, auditwheel, the Blender zip, an s390x build (s390x) and the s390x suites (s390x-tests)",
    ),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => run(Command::new("bash").arg(root().join(".ci/run"))),
        Some("corpus") => write_corpus(),
        Some("fuzz") => fuzz(args.get(1).map(String::as_str), args.get(2).map(String::as_str)),
        Some("bench") => {
            let mut cmd = cargo();
            cmd.args(["bench", "-p", "animbin-benches"]);
            if let Some(filter) = args.get(1) {
                cmd.args(["--", filter]);
            }
            run(&mut cmd).and_then(|()| bench_table::print(&root().join("target/criterion")))
        }
        Some("bench-command") => command_bench::run(
            &root(),
            args.get(1).map(String::as_str),
            args.get(2..).unwrap_or_default(),
        ),
        Some("bench-batch") => batch_bench::run(
            &root(),
            args.get(1).map(String::as_str),
            args.get(2).map(String::as_str),
            args.get(3).map(String::as_str),
        ),
        // The measuring process of bench-command, not a task of its own.
        Some("measure") => command_bench::measure_child(&args[1..]),
        Some("web") => web::main(&root(), &args[1..]),
        Some("dist") => dist::main(&root(), &args[1..]),
        _ => {
            eprintln!("usage: cargo xtask <task>\n");
            for (task, what) in TASKS {
                eprintln!("  {task:<26} {what}");
            }
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {status}"))
    }
}

fn write_corpus() -> Result<(), String> {
    let root = root();
    let fuzz_corpus = root.join("fuzz/corpus");
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::create_dir_all(path.parent().expect("a file path")).map_err(|e| e.to_string())?;
        std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    let mut count = 0;
    for sample in corpus::samples() {
        if let Some(path) = sample.committed_path() {
            write(&root.join(path), &sample.bytes)?;
        }
        // A fuzz target's seeds lie in one folder (the pose rig is in testdata/poses/).
        let file_name = Path::new(sample.name).file_name().expect("a sample names a file");
        for target in sample.seeds() {
            write(&fuzz_corpus.join(target).join(file_name), &sample.bytes)?;
        }
        count += 1;
    }
    // Every file of `folder` into the corpus of each of `targets`; the number of files.
    let seed_from = |folder: &Path, targets: &[&str]| -> Result<usize, String> {
        let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let mut files = 0;
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).map_err(|e| e.to_string())?;
            for target in targets {
                write(&fuzz_corpus.join(target).join(entry.file_name()), &bytes)?;
            }
            files += 1;
        }
        Ok(files)
    };
    // The independent tools' files beside the project seed the fuzzers too, when present;
    // they are never copied into the repository (fuzz/corpus is ignored by git).
    let shared = root.join("../shared/corpus");
    for (folder, targets) in corpus::SHARED_CORPUS {
        if shared.join(folder).is_dir() {
            count += seed_from(&shared.join(folder), targets)?;
        }
    }
    // Inputs that once failed a fuzz target, kept in the repository so every replay
    // runs them again.
    let regressions = root.join("fuzz/regressions");
    for target_dir in std::fs::read_dir(&regressions).map_err(|e| format!("{}: {e}", regressions.display()))? {
        let target_dir = target_dir.map_err(|e| e.to_string())?.path();
        let target = target_dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a folder name in UTF-8");
        count += seed_from(&target_dir, &[target])?;
    }
    println!("xtask: wrote {count} samples to testdata/, tests/fixtures/ and fuzz/corpus/");
    Ok(())
}

/// The fuzz targets, read from `fuzz/Cargo.toml` so the list is kept in one place.
fn fuzz_targets() -> Result<Vec<String>, String> {
    let manifest = std::fs::read_to_string(root().join("fuzz/Cargo.toml")).map_err(|e| e.to_string())?;
    Ok(manifest
        .lines()
        .filter_map(|l| l.trim().strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|name| *name != "animbin-fuzz")
        .map(str::to_string)
        .collect())
}

fn fuzz(target: Option<&str>, seconds: Option<&str>) -> Result<(), String> {
    let nightly = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .output();
    if !nightly.is_ok_and(|o| o.status.success()) {
        return Err(
            "no nightly toolchain: cargo fuzz needs one (rustup toolchain install nightly); \
                    the stable CI still builds the targets and replays their corpus"
                .into(),
        );
    }
    let has_cargo_fuzz = Command::new("cargo").args(["+nightly", "fuzz", "--version"]).output();
    if !has_cargo_fuzz.is_ok_and(|o| o.status.success()) {
        return Err("cargo-fuzz is not installed: cargo install cargo-fuzz".into());
    }
    let seconds = seconds.unwrap_or("60");
    let targets = match target {
        Some("all") | None => fuzz_targets()?,
        Some(t) => vec![t.to_string()],
    };
    write_corpus()?;
    for t in targets {
        println!("xtask: fuzzing {t} for {seconds}s");
        let corpus = root().join("fuzz/corpus").join(&t);
        std::fs::create_dir_all(&corpus).map_err(|e| e.to_string())?;
        run(Command::new("cargo")
            .current_dir(root().join("fuzz"))
            .args(["+nightly", "fuzz", "run", &t])
            .arg(&corpus)
            .args([
                "--",
                &format!("-max_total_time={seconds}"),
                "-rss_limit_mb=2048",
                &format!("-max_len={}", fuzz_max_len(&t)),
            ]))?;
    }
    Ok(())
}

/// The longest input libFuzzer makes for `target`: 64 KiB, or less for a target whose every
/// check walks the whole input several times, so that a short run reaches depth rather than
/// length. CI's replay step still runs every seed whole; a fuzz run reads only the first
/// `max_len` bytes of a longer one. `parse_sf3` read and viewed the 20-60 KiB x8an files it
/// grew from the large seed at 835 runs a second; 8 KiB already holds hundreds of keys.
fn fuzz_max_len(target: &str) -> usize {
    match target {
        "parse_sf3" => 8 << 10,
        _ => 64 << 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `testdata/` and `tests/fixtures/` are committed; they must be what the writers make
    /// today, or `cargo xtask corpus` was not run after a writer changed.
    #[test]
    fn testdata_is_what_the_writers_make_today() {
        let mut checked = 0;
        for sample in corpus::samples() {
            let Some(path) = sample.committed_path() else {
                continue;
            };
            let path = root().join(path);
            let on_disk = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                on_disk == sample.bytes,
                "{} differs from what its writer makes: run `cargo xtask corpus`",
                path.display()
            );
            checked += 1;
        }
        assert!(checked > 0, "no testdata samples");
    }

    #[test]
    fn every_fuzz_target_gets_seeds() {
        let samples = corpus::samples();
        for target in fuzz_targets().expect("fuzz/Cargo.toml reads") {
            assert!(
                samples.iter().any(|s| s.seeds().any(|seed| seed == target)),
                "fuzz target {target} has no seed sample"
            );
        }
    }

    #[test]
    fn every_regression_folder_names_a_fuzz_target() {
        let targets = fuzz_targets().expect("fuzz/Cargo.toml reads");
        for entry in std::fs::read_dir(root().join("fuzz/regressions")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(targets.contains(&name), "fuzz/regressions/{name} is no fuzz target");
        }
    }
}
