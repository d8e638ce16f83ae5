//! `cargo xtask bench-command [MIB]`: the whole `animbin` command, as a user runs it, beside
//! `cp` of the same file: `info --json`, a same-format `convert`, a `convert` to glTF, `dump`
//! and the dump converted back, on generated files of about MIB MiB (48 by default) of every
//! format. Each figure is the best of three runs; peak memory is the process's maximum
//! resident set, read with `getrusage` by a small measuring process of its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use animbin_animx::Encoding;
use animbin_benches::large;

/// How often each command runs; the fastest run counts (the others met a busier machine).
const RUNS: usize = 3;

/// One generated input: its name, the file name, and the extra arguments a same-format
/// `convert` needs (x8an files are named by `--to`).
struct Input {
    label: &'static str,
    path: PathBuf,
    same_format: &'static [&'static str],
}

/// What one run of a command cost.
#[derive(Clone, Copy)]
pub(crate) struct Cost {
    pub(crate) seconds: f64,
    pub(crate) peak_mib: f64,
}

/// Builds the command in release (the measured binary) and gives its path.
pub(crate) fn release_animbin(root: &Path) -> Result<PathBuf, String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["build", "-q", "--release", "-p", "animbin-cli"])
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("building animbin in release failed".into());
    }
    Ok(root.join("target/release/animbin"))
}

/// Generates the inputs, builds the command in release and prints one table.
/// `only` names the inputs to measure by label prefix (`animx` is both AnimX files); none
/// measures every input. `--info` among them times `info --json` alone (for large files,
/// whose other commands take minutes).
pub(crate) fn run(root: &Path, mib: Option<&str>, only: &[String]) -> Result<(), String> {
    let info_alone = only.iter().any(|o| o == "--info");
    let only: Vec<&String> = only.iter().filter(|o| *o != "--info").collect();
    let mib: f64 = mib.map_or(Ok(48.0), str::parse).map_err(|e| format!("MIB: {e}"))?;
    let target = (mib * 1024.0 * 1024.0) as usize;
    let dir = root.join("target/bench-command");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let animbin = release_animbin(root)?;
    let wanted = |label: &str| only.is_empty() || only.iter().any(|o| label.starts_with(o.as_str()));
    let inputs = generate(&dir, target, &wanted)?;
    println!(
        "{:<14} {:>9} {:<22} {:>9} {:>8} {:>10} {:>8}",
        "input", "MiB", "command", "seconds", "x cp", "peak MiB", "x input"
    );
    for input in &inputs {
        let size = std::fs::metadata(&input.path).map_err(|e| e.to_string())?.len() as f64 / 1048576.0;
        let p = |name: &str| dir.join(format!("{}.{name}", input.label)).display().to_string();
        let file = input.path.display().to_string();
        let cp = best(&["cp", &file, &p("copy")], None)?;
        let own_ext = input.path.extension().and_then(|e| e.to_str()).unwrap_or("bin");
        let mut same = vec![animbin.display().to_string(), "convert".into()];
        same.extend(input.same_format.iter().map(ToString::to_string));
        same.extend([file.clone(), p(&format!("same.{own_ext}"))]);
        let dump_path = p("dump.json");
        let rows: Vec<(&str, Vec<String>, Option<&str>)> = vec![
            (
                "info --json",
                vec![
                    animbin.display().to_string(),
                    "info".into(),
                    "--json".into(),
                    file.clone(),
                ],
                None,
            ),
            ("convert (same format)", same, None),
            (
                "convert to .glb",
                vec![animbin.display().to_string(), "convert".into(), file.clone(), p("glb")],
                None,
            ),
            (
                "dump",
                vec![animbin.display().to_string(), "dump".into(), file.clone()],
                Some(&dump_path),
            ),
        ];
        let print = |command: &str, cost: Cost| {
            println!(
                "{:<14} {:>9.1} {:<22} {:>9.3} {:>8.1} {:>10.1} {:>8.2}",
                input.label,
                size,
                command,
                cost.seconds,
                cost.seconds / cp.seconds,
                cost.peak_mib,
                cost.peak_mib / size
            );
        };
        print("cp", cp);
        let rows = if info_alone { &rows[..1] } else { &rows[..] };
        for (command, args, stdout) in rows.iter().cloned() {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            match best(&args, stdout) {
                Ok(cost) => print(command, cost),
                Err(e) => println!("{:<14} {:>9.1} {command:<22} failed: {e}", input.label, size),
            }
        }
        if !info_alone && Path::new(&dump_path).exists() {
            let back = p(&format!("undumped.{own_ext}"));
            let mut args = vec![animbin.display().to_string(), "convert".into()];
            args.extend(input.same_format.iter().map(ToString::to_string));
            args.extend([dump_path.clone(), back]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            match best(&args, None) {
                Ok(cost) => print("undump (convert .json)", cost),
                Err(e) => println!("{:<14} {:>9.1} undump failed: {e}", input.label, size),
            }
            let _ = std::fs::remove_file(&dump_path);
        }
    }
    Ok(())
}

/// The fastest of [`RUNS`] runs, with its peak memory.
fn best(args: &[&str], stdout: Option<&str>) -> Result<Cost, String> {
    let mut best: Option<Cost> = None;
    for _ in 0..RUNS {
        let cost = measure(args, stdout)?;
        if best.is_none_or(|b| cost.seconds < b.seconds) {
            best = Some(cost);
        }
    }
    Ok(best.expect("RUNS > 0"))
}

/// Runs `args` in a measuring process of its own (`xtask measure`), so that the children's
/// peak resident set it reads is this command's alone.
pub(crate) fn measure(args: &[&str], stdout: Option<&str>) -> Result<Cost, String> {
    let mut cmd = Command::new(std::env::current_exe().map_err(|e| e.to_string())?);
    cmd.arg("measure").arg(stdout.unwrap_or("-")).args(args);
    let out = cmd.stderr(Stdio::inherit()).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("{args:?} failed"));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.split_whitespace().map(str::parse::<f64>);
    match (parts.next(), parts.next()) {
        (Some(Ok(seconds)), Some(Ok(peak_kib))) => Ok(Cost {
            seconds,
            peak_mib: peak_kib / 1024.0,
        }),
        _ => Err(format!("the measuring process printed {text:?}")),
    }
}

/// `xtask measure STDOUT CMD ARGS...`: runs the command (its stdout to the file STDOUT, or
/// discarded for `-`), then prints its wall time in seconds and its peak resident set in KiB.
pub(crate) fn measure_child(args: &[String]) -> Result<(), String> {
    let [stdout, program, rest @ ..] = args else {
        return Err("usage: xtask measure STDOUT PROGRAM [ARGS...]".into());
    };
    let sink = if stdout == "-" {
        Stdio::null()
    } else {
        Stdio::from(std::fs::File::create(stdout).map_err(|e| e.to_string())?)
    };
    let start = Instant::now();
    // The command's loss lines would break up the table; its exit status says enough.
    let status = Command::new(program)
        .args(rest)
        .stdout(sink)
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("{program}: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    if !status.success() {
        return Err(format!("{program} exited with {status}"));
    }
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).map_err(|e| e.to_string())?;
    // Linux reports ru_maxrss in KiB.
    println!("{seconds} {}", usage.max_rss());
    Ok(())
}

/// Writes one file of about `target` bytes per wanted format (and AnimX compressed with LZ4).
fn generate(dir: &Path, target: usize, wanted: &dyn Fn(&str) -> bool) -> Result<Vec<Input>, String> {
    // Each maker builds a file from a count; the count grows until the file is about `target`.
    fn sized(target: usize, make: impl Fn(u32) -> Vec<u8>) -> Vec<u8> {
        let probe = make(8);
        let count = ((target as f64 / probe.len() as f64) * 8.0).max(8.0) as u32;
        make(count)
    }
    let animx = |encoding| {
        sized(target, move |bones| {
            animbin_animx::to_bytes(&large::animx::animation(bones, encoding)).expect("a valid AnimX")
        })
    };
    type Maker<'a> = Box<dyn Fn() -> Vec<u8> + 'a>;
    let makers: Vec<(&'static str, &str, &'static [&'static str], Maker<'_>)> = vec![
        (
            "seanim-f32",
            "large.seanim",
            &[],
            Box::new(|| {
                sized(target, |frames| {
                    animbin_seanim::to_bytes(&large::seanim::anim(300, frames, false)).expect("a valid SEAnim")
                })
            }),
        ),
        (
            "semodel",
            "large.semodel",
            &[],
            Box::new(|| {
                sized(target, |thousands| {
                    animbin_semodel::to_bytes(&large::semodel::model(thousands * 1000)).expect("a valid SEModel")
                })
            }),
        ),
        (
            "cast",
            "large.cast",
            &[],
            Box::new(|| {
                sized(target, |thousands| {
                    let model = large::semodel::model(thousands * 1000);
                    animbin_cast::to_bytes(&animbin::se_cast::semodel_to_cast(&model)).expect("a valid Cast")
                })
            }),
        ),
        ("animx-plain", "large.animx", &[], Box::new(|| animx(Encoding::Plain))),
        ("animx-lz4", "large-lz4.animx", &[], Box::new(|| animx(Encoding::Lz4))),
        (
            "sf3",
            "x8an99.bin",
            &["--to", "sf3"],
            Box::new(|| {
                sized(target, |segments| {
                    animbin_sf3::to_bytes(&large::sf3::file(segments as i32)).expect("a valid x8an file")
                })
            }),
        ),
        (
            "dmf",
            "large.dmf",
            &[],
            Box::new(|| {
                sized(target, |thousands| {
                    let n = thousands * 1000;
                    animbin_dmf::to_bytes(&large::dmf::model(n, n / 2, n / 140)).expect("a valid DMF")
                })
            }),
        ),
    ];
    let mut inputs = Vec::new();
    for (label, name, same_format, make) in makers {
        if !wanted(label) {
            continue;
        }
        let path = dir.join(name);
        std::fs::write(&path, make()).map_err(|e| e.to_string())?;
        inputs.push(Input {
            label,
            path,
            same_format,
        });
    }
    Ok(inputs)
}
