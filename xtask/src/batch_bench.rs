//! `cargo xtask bench-batch [FILES] [KIB] [DIR]`: `animbin convert --out DIR --to glb` of one
//! folder of FILES generated files (200 by default) of about KIB KiB each (1024), with
//! `--jobs 1` and `--jobs 2`: the wall time of each (the best of three runs), its peak
//! memory, the ratio of the two, and the load average before and after, since other work on
//! the machine takes cores from the second job. The files go to the folder `bench-batch` in
//! DIR (`target` by default), which is made anew and removed at the end; a DIR on a tmpfs
//! (`/dev/shm`) leaves out the disk, whose flush of each output the command waits for.

use std::path::{Path, PathBuf};

use animbin_animx::Encoding;
use animbin_benches::large;

use crate::command_bench::measure;

/// How often each job count runs; the fastest run counts.
const RUNS: usize = 3;

/// Generates the folder, builds the command in release and prints the two timings.
pub(crate) fn run(root: &Path, files: Option<&str>, kib: Option<&str>, dir: Option<&str>) -> Result<(), String> {
    let files: usize = files.map_or(Ok(200), str::parse).map_err(|e| format!("FILES: {e}"))?;
    let kib: usize = kib.map_or(Ok(1024), str::parse).map_err(|e| format!("KIB: {e}"))?;
    let animbin = crate::command_bench::release_animbin(root)?;
    let dir = dir
        .map_or_else(|| root.join("target"), PathBuf::from)
        .join("bench-batch");
    let input = dir.join("in");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&input).map_err(|e| e.to_string())?;
    let bytes = generate(&input, files, kib * 1024)?;
    println!(
        "{files} files, {:.1} MiB, to glb in {}; load average before: {}",
        bytes as f64 / 1048576.0,
        dir.display(),
        load()
    );
    let out = dir.join("out");
    let mut seconds = Vec::new();
    for jobs in ["1", "2"] {
        let mut best: Option<(f64, f64)> = None;
        for _ in 0..RUNS {
            let _ = std::fs::remove_dir_all(&out);
            let args = [
                animbin.to_str().ok_or("a UTF-8 path")?,
                "convert",
                "--to",
                "glb",
                "--jobs",
                jobs,
                "--out",
                out.to_str().ok_or("a UTF-8 path")?,
                input.to_str().ok_or("a UTF-8 path")?,
            ];
            let cost = measure(&args, None)?;
            if best.is_none_or(|(s, _)| cost.seconds < s) {
                best = Some((cost.seconds, cost.peak_mib));
            }
        }
        let (s, peak) = best.expect("RUNS > 0");
        println!("--jobs {jobs}: {s:.3} s, peak {peak:.1} MiB");
        seconds.push(s);
    }
    println!(
        "--jobs 2 is {:.2}x --jobs 1; load average after: {}",
        seconds[0] / seconds[1],
        load()
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The 1, 5 and 15 minute load averages.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".into(),
        |text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

/// Writes `files` files of about `target` bytes into `dir`, taking the formats in turn
/// (SEAnim, SEModel, AnimX, DMF, x8an), each under a name of its own; returns their size.
fn generate(dir: &Path, files: usize, target: usize) -> Result<u64, String> {
    // Each maker builds a file from a count; the count grows until the file is about `target`.
    fn sized(target: usize, make: impl Fn(u32) -> Vec<u8>) -> Vec<u8> {
        let probe = make(8);
        let count = ((target as f64 / probe.len() as f64) * 8.0).max(8.0) as u32;
        make(count)
    }
    // Each kind: its bytes, and the name of its file `i` around `i`.
    let kinds: Vec<(Vec<u8>, &str, &str)> = vec![
        (
            sized(target, |frames| {
                animbin_seanim::to_bytes(&large::seanim::anim(100, frames, false)).expect("a valid SEAnim")
            }),
            "",
            "-walk.seanim",
        ),
        (
            sized(target, |hundreds| {
                animbin_semodel::to_bytes(&large::semodel::model(hundreds * 100)).expect("a valid SEModel")
            }),
            "",
            "-rig.semodel",
        ),
        (
            // An AnimX bone is about 70 KB: the file is the nearest whole number of bones.
            animbin_animx::to_bytes(&large::animx::animation(
                (target / 70_000).max(1) as u32,
                Encoding::Plain,
            ))
            .expect("a valid AnimX"),
            "",
            "-mocap.animx",
        ),
        (
            sized(target, |hundreds| {
                let n = hundreds * 100;
                animbin_dmf::to_bytes(&large::dmf::model(n, n / 2, n / 140)).expect("a valid DMF")
            }),
            "",
            "-arm.dmf",
        ),
        (
            sized(target, |segments| {
                animbin_sf3::to_bytes(&large::sf3::file(segments as i32)).expect("a valid x8an file")
            }),
            "x8an",
            ".bin",
        ),
    ];
    let mut total = 0;
    for i in 0..files {
        let (bytes, before, after) = &kinds[i % kinds.len()];
        std::fs::write(dir.join(format!("{before}{i:03}{after}")), bytes).map_err(|e| e.to_string())?;
        total += bytes.len() as u64;
    }
    Ok(total)
}
