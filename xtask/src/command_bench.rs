//! `cargo xtask bench-command [MIB]`: the whole `animbin` command, as a user runs it, beside
//! `cp` of the same file: `info --json`, a same-format `convert`, a `convert` to glb, to
//! Cast and to FBX, `dump` and the dump converted back (`undump`), on generated files of about
//! MIB MiB (48 by default) of every format.
//!
//! Every output goes to a memory file system (`/dev/shm` where there is one), so the figures
//! are the command's work and not the disk's. Each command runs [`PAIRS`] times, each run
//! right after a `cp` of its input to the same place, and its figure is the median of the
//! pairs' ratios (so a busier moment of the machine weighs on both sides of a pair). Memory
//! is the largest anonymous resident set (`RssAnon`: the heap, not the input's pages mapped
//! from the file or the page cache), sampled by a measuring process of its own in one more
//! run, as a multiple of the input's size. The table ends with the summary: each
//! command's ratio to `cp` and memory, one row per input.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use animbin_animx::Encoding;
use animbin_benches::large;

/// How many `cp` / command pairs each figure is the median of.
const PAIRS: usize = 5;

/// How often the measuring process samples the command's anonymous memory.
const SAMPLE_EVERY: Duration = Duration::from_micros(200);

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
    /// The largest resident set (`getrusage`'s `ru_maxrss`), mapped file pages included.
    pub(crate) peak_mib: f64,
    /// The largest anonymous resident set seen (`RssAnon`), when it was sampled.
    pub(crate) anon_mib: Option<f64>,
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
    // Where cargo put it: CARGO_TARGET_DIR when it is set, as for any build.
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir));
    Ok(target.join("release/animbin"))
}

/// Where outputs go: a folder on the memory file system, or under `target/` without one.
fn output_dir(root: &Path) -> PathBuf {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        root.join("target")
    };
    base.join(format!("animbin-bench-command-{}", std::process::id()))
}

/// One measured command of one input.
struct Row {
    command: &'static str,
    /// The median of the pairs' ratios to `cp`, the median seconds and the anonymous peak;
    /// or why the command failed.
    result: Result<(f64, f64, f64), String>,
    /// The size of the JSON the command wrote or read (dump, undump), for its rate.
    json_bytes: Option<u64>,
}

/// Generates the inputs, builds the command in release and prints the tables.
/// `only` names the inputs to measure by label prefix (`animx` is both AnimX files); none
/// measures every input. `--info` among them times `info --json` alone (for large files,
/// whose other commands take minutes). `ANIMBIN_BENCH_COMMAND=PATH` measures another build's
/// command; `ANIMBIN_BENCH_BEFORE=PATH` measures that one too and puts its figures before
/// this one's in each cell of the summary.
pub(crate) fn run(root: &Path, mib: Option<&str>, only: &[String]) -> Result<(), String> {
    let info_alone = only.iter().any(|o| o == "--info");
    let only: Vec<&String> = only.iter().filter(|o| *o != "--info").collect();
    let mib: f64 = mib.map_or(Ok(48.0), str::parse).map_err(|e| format!("MIB: {e}"))?;
    let target = (mib * 1024.0 * 1024.0) as usize;
    let dir = root.join("target/bench-command");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out_dir = output_dir(root);
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    // Another build's command (an earlier commit's, for a before-and-after table).
    let animbin = match std::env::var_os("ANIMBIN_BENCH_COMMAND") {
        Some(path) => PathBuf::from(path),
        None => release_animbin(root)?,
    };
    let wanted = |label: &str| only.is_empty() || only.iter().any(|o| label.starts_with(o.as_str()));
    let inputs = generate(&dir, target, &wanted)?;
    println!(
        "outputs in {}; each figure the median of {PAIRS} alternating cp / command pairs\n",
        out_dir.display()
    );
    println!("| input | MiB | command | seconds | x cp | anon MiB | x input | JSON MB/s |");
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
    let mut summary = Vec::new();
    for input in &inputs {
        let size = std::fs::metadata(&input.path).map_err(|e| e.to_string())?.len() as f64 / 1048576.0;
        let rows = measure_input(&animbin, input, &out_dir, info_alone);
        for row in &rows {
            match &row.result {
                Ok((ratio, seconds, anon)) => {
                    let rate = row
                        .json_bytes
                        .map_or(String::new(), |b| format!("{:.0}", b as f64 / seconds / 1e6));
                    println!(
                        "| {} | {size:.1} | {} | {seconds:.3} | {ratio:.2} | {anon:.1} | {:.2} | {rate} |",
                        input.label,
                        row.command,
                        anon / size
                    );
                }
                Err(e) => println!(
                    "| {} | {size:.1} | {} | failed: {e} | | | | |",
                    input.label, row.command
                ),
            }
        }
        summary.push((input.label, size, rows));
    }
    // An earlier build's command beside this one, for the before-and-after table.
    let before = std::env::var_os("ANIMBIN_BENCH_BEFORE").map(PathBuf::from);
    let mut before_rows = Vec::new();
    if let Some(before) = &before {
        println!("\nthe same with {}:", before.display());
        for input in &inputs {
            before_rows.push(measure_input(before, input, &out_dir, info_alone));
        }
    }
    println!(
        "\nx cp, anonymous memory x input (JSON MB/s for dump and undump){}:\n",
        if before.is_some() { ", before -> after" } else { "" }
    );
    let columns = ["info", "same format", "to glb", "to cast", "to fbx", "dump", "undump"];
    println!("| input | {} |", columns.join(" | "));
    println!("|---|{}", "---|".repeat(columns.len()));
    for (i, (label, size, rows)) in summary.iter().enumerate() {
        let mut line = format!("| {label} |");
        for column in columns {
            let after = cell(rows, column, *size);
            let cell = match before_rows.get(i) {
                Some(earlier) if !after.is_empty() => format!("{} -> {after}", cell(earlier, column, *size)),
                _ => after,
            };
            let _ = write!(line, " {cell} |");
        }
        println!("{line}");
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    if let Ok(copy) = measuring_exe() {
        let _ = std::fs::remove_file(copy);
    }
    Ok(())
}

/// The summary table's cell of `column`: the time as a multiple of `cp`'s, the anonymous
/// memory as a multiple of the input's `size` (MiB) and, for the JSON commands, their rate.
fn cell(rows: &[Row], column: &str, size: f64) -> String {
    rows.iter()
        .find(|r| r.command == column)
        .map_or_else(String::new, |row| match &row.result {
            Ok((ratio, seconds, anon)) => {
                let mut cell = format!("{ratio:.1}x, {:.1}x", anon / size);
                if let Some(b) = row.json_bytes {
                    let _ = write!(cell, ", {:.0} MB/s", b as f64 / seconds / 1e6);
                }
                cell
            }
            Err(_) => "fails".into(),
        })
}

/// Measures every command of one input; outputs go to `out_dir`.
fn measure_input(animbin: &Path, input: &Input, out_dir: &Path, info_alone: bool) -> Vec<Row> {
    let animbin = animbin.display().to_string();
    let out = |name: &str| out_dir.join(format!("{}.{name}", input.label)).display().to_string();
    let file = input.path.display().to_string();
    let own_ext = input.path.extension().and_then(|e| e.to_str()).unwrap_or("bin");
    let copy = out("copy");
    let cp = ["cp", file.as_str(), copy.as_str()];
    let convert = |extra: &[&str], to: String| {
        let mut args = vec![animbin.clone(), "convert".into()];
        args.extend(extra.iter().map(ToString::to_string));
        args.extend([file.clone(), to]);
        args
    };
    let dump_path = out("dump.json");
    // (column, arguments, where stdout goes)
    let mut commands: Vec<(&'static str, Vec<String>, Option<String>)> = vec![(
        "info",
        vec![animbin.clone(), "info".into(), "--json".into(), file.clone()],
        None,
    )];
    if !info_alone {
        commands.extend([
            (
                "same format",
                convert(input.same_format, out(&format!("same.{own_ext}"))),
                None,
            ),
            ("to glb", convert(&[], out("glb")), None),
        ]);
        if own_ext != "cast" {
            commands.push(("to cast", convert(&[], out("cast")), None));
        }
        commands.push(("to fbx", convert(&[], out("fbx")), None));
        commands.push((
            "dump",
            vec![animbin.clone(), "dump".into(), file.clone()],
            Some(dump_path.clone()),
        ));
    }
    let mut rows = Vec::new();
    for (command, args, stdout) in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let result = pairs(&cp, &args, stdout.as_deref());
        let json_bytes = (*command == "dump" && result.is_ok())
            .then(|| std::fs::metadata(&dump_path).map(|m| m.len()).ok())
            .flatten();
        rows.push(Row {
            command,
            result,
            json_bytes,
        });
    }
    if let Some(json) = rows.iter().find_map(|r| r.json_bytes) {
        let mut args = vec![animbin.clone(), "convert".into()];
        args.extend(input.same_format.iter().map(ToString::to_string));
        args.extend([dump_path.clone(), out(&format!("undumped.{own_ext}"))]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        rows.push(Row {
            command: "undump",
            result: pairs(&cp, &args, None),
            json_bytes: Some(json),
        });
    }
    // Leave the memory file system as it was for the next input.
    for name in [
        "copy".to_string(),
        format!("same.{own_ext}"),
        "glb".into(),
        "cast".into(),
        "fbx".into(),
        "dump.json".into(),
        format!("undumped.{own_ext}"),
    ] {
        let _ = std::fs::remove_file(out(&name));
    }
    rows
}

/// Runs `cp` then the command [`PAIRS`] times, then the command once more sampling its
/// memory: the median of the ratios, the median seconds and the anonymous peak in MiB.
fn pairs(cp: &[&str], args: &[&str], stdout: Option<&str>) -> Result<(f64, f64, f64), String> {
    let mut ratios = Vec::with_capacity(PAIRS);
    let mut seconds = Vec::with_capacity(PAIRS);
    for _ in 0..PAIRS {
        let base = measure_with(cp, None, false)?;
        let cost = measure_with(args, stdout, false)?;
        ratios.push(cost.seconds / base.seconds);
        seconds.push(cost.seconds);
    }
    let anon = measure_with(args, stdout, true)?.anon_mib.unwrap_or(f64::NAN);
    Ok((median(&mut ratios), median(&mut seconds), anon))
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Runs `args` in a measuring process of its own (`xtask measure`), so that the children's
/// peak resident set it reads is this command's alone.
pub(crate) fn measure(args: &[&str], stdout: Option<&str>) -> Result<Cost, String> {
    measure_with(args, stdout, false)
}

/// [`measure`], sampling the command's anonymous resident set while it runs when `sample`
/// is set (the sampling costs the machine a little time, so timed runs leave it out).
fn measure_with(args: &[&str], stdout: Option<&str>, sample: bool) -> Result<Cost, String> {
    let mut cmd = Command::new(measuring_exe()?);
    cmd.arg("measure")
        .arg(stdout.unwrap_or("-"))
        .arg(if sample { "sample" } else { "time" })
        .args(args);
    let out = cmd.stderr(Stdio::inherit()).output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(text.trim().to_string());
    }
    let mut parts = text.split_whitespace().map(str::parse::<f64>);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(seconds)), Some(Ok(peak_kib)), Some(Ok(anon_kib))) => Ok(Cost {
            seconds,
            peak_mib: peak_kib / 1024.0,
            anon_mib: sample.then_some(anon_kib / 1024.0),
        }),
        _ => Err(format!("the measuring process printed {text:?}")),
    }
}

/// This program, copied once to a private place: other builds in the same target folder may
/// replace `target/debug/xtask` while a long benchmark runs, and the measuring processes
/// must still start.
fn measuring_exe() -> Result<PathBuf, String> {
    static COPY: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        // /proc/self/exe opens this program's own file even after a build has unlinked it.
        let exe = Path::new("/proc/self/exe");
        let copy = std::env::temp_dir().join(format!("animbin-xtask-measure-{}", std::process::id()));
        std::fs::copy(exe, &copy).map_err(|e| format!("copying {}: {e}", exe.display()))?;
        Ok(copy)
    })
    .clone()
}

/// `xtask measure STDOUT MODE CMD ARGS...`: runs the command (its stdout to the file STDOUT,
/// or discarded for `-`), then prints its wall time in seconds, its peak resident set in KiB
/// and, with MODE `sample`, the largest anonymous resident set seen while it ran in KiB
/// (else 0). A command that fails prints the first line of its error instead.
pub(crate) fn measure_child(args: &[String]) -> Result<(), String> {
    let [stdout, mode, program, rest @ ..] = args else {
        return Err("usage: xtask measure STDOUT time|sample PROGRAM [ARGS...]".into());
    };
    let sample = mode == "sample";
    let sink = if stdout == "-" {
        Stdio::null()
    } else {
        Stdio::from(std::fs::File::create(stdout).map_err(|e| e.to_string())?)
    };
    let start = Instant::now();
    // The command's loss lines would break up the table; its first error line says enough.
    let mut child = Command::new(program)
        .args(rest)
        .stdout(sink)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program}: {e}"))?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut anon_kib = 0u64;
    // A thread drains the command's messages, so that many loss lines cannot fill the pipe.
    let messages = child.stderr.take().map(|mut err| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            text
        })
    });
    let status = if sample {
        loop {
            if let Some(kib) = rss_anon_kib(&status_path) {
                anon_kib = anon_kib.max(kib);
            }
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            std::thread::sleep(SAMPLE_EVERY);
        }
    } else {
        child.wait().map_err(|e| e.to_string())?
    };
    let seconds = start.elapsed().as_secs_f64();
    if !status.success() {
        let messages = messages.and_then(|t| t.join().ok()).unwrap_or_default();
        let first = messages.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        println!("{program} exited with {status}: {first}");
        return Err(format!("{program} exited with {status}"));
    }
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).map_err(|e| e.to_string())?;
    // Linux reports ru_maxrss in KiB.
    println!("{seconds} {} {anon_kib}", usage.max_rss());
    Ok(())
}

/// The `RssAnon` line of a `/proc/PID/status` file in KiB; `None` once the process is gone.
fn rss_anon_kib(status_path: &str) -> Option<u64> {
    let text = std::fs::read_to_string(status_path).ok()?;
    let line = text.lines().find(|l| l.starts_with("RssAnon:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
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
