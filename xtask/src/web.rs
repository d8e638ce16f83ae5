//! `cargo xtask web`: the WebAssembly build of the library, the npm package `animbin` and the
//! static page, into `target/web/` (the page) and `target/web/pkg/` (the package).
//!
//! 1. `animbin-wasm` for `wasm32-unknown-unknown`, release, optimised for speed;
//! 2. `wasm-bindgen` of the crate's exact wasm-bindgen version (installed with `cargo
//!    install` when missing), ES module output, then `wasm-opt -O3` from npm's `binaryen`;
//! 3. the package's own modules (`web/pkg-src`) beside the bindings;
//! 4. the page (`web/page`) with three.js bundled by esbuild (npm), its Web Worker, the
//!    wasm and the sample its empty state offers (`testdata/sample.dmf`) beside them. The
//!    npm tools come from `web/package-lock.json` (`npm ci`).
//!
//! `cargo xtask web bench-files DIR [MIB]` writes the SEModel and SEAnim of about MIB MiB
//! (48) that the page's benchmark opens, from the criterion benchmarks' generators.
//!
//! `cargo xtask web bench [RUNS]` is the page's benchmark: the page (built when missing), the
//! release command and the 48 MiB files in `target/web-bench/` (written when missing), then
//! `web/bench.mjs`, which prints the median time from choosing the files to the first frame
//! drawn in headless Chromium beside `animbin convert` of the same files to glb.

use std::path::{Path, PathBuf};
use std::process::Command;

use animbin_benches::large;

use crate::{cargo, run};

pub(crate) fn main(root: &Path, args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        None | Some("build") => build(root),
        Some("bench") => {
            let runs = args
                .get(1)
                .map_or(Ok(5), |r| r.parse::<usize>().map_err(|e| format!("RUNS: {e}")))?;
            bench(root, runs)
        }
        Some("bench-files") => {
            let dir = args.get(1).ok_or("usage: cargo xtask web bench-files DIR [MIB]")?;
            let mib = args
                .get(2)
                .map_or(Ok(48), |m| m.parse::<usize>().map_err(|e| format!("MIB: {e}")))?;
            bench_files(Path::new(dir), mib << 20)
        }
        Some(other) => Err(format!(
            "unknown web task {other:?}: build (the default), bench [RUNS] or bench-files DIR [MIB]"
        )),
    }
}

/// The version of wasm-bindgen `crates/wasm/Cargo.toml` pins (`"=0.2.130"`).
fn wasm_bindgen_version(root: &Path) -> Result<String, String> {
    let manifest = root.join("crates/wasm/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    text.lines()
        .find_map(|line| line.strip_prefix("wasm-bindgen = \"="))
        .and_then(|rest| rest.split('"').next())
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "{} pins no wasm-bindgen version (wasm-bindgen = \"=X.Y.Z\")",
                manifest.display()
            )
        })
}

/// A `wasm-bindgen` of `version`: the one on the PATH or in cargo's bin folder, else installed.
fn wasm_bindgen(version: &str) -> Result<PathBuf, String> {
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|home| home.join("bin/wasm-bindgen"));
    let candidates: Vec<PathBuf> = std::iter::once(PathBuf::from("wasm-bindgen"))
        .chain(cargo_bin)
        .collect();
    let fits = |path: &Path| {
        Command::new(path)
            .arg("--version")
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == format!("wasm-bindgen {version}"))
    };
    if let Some(found) = candidates.iter().find(|p| fits(p)) {
        return Ok(found.clone());
    }
    eprintln!("installing wasm-bindgen-cli {version} (cargo install)");
    let install = |locked: bool| {
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args(["install", "wasm-bindgen-cli", "--version", version, "--force"]);
        if locked {
            cmd.arg("--locked");
        }
        run(&mut cmd)
    };
    // Its lock file can name a dependency version the registry no longer offers: then the
    // newest compatible ones.
    install(true).or_else(|_| install(false))?;
    candidates
        .iter()
        .find(|p| fits(p))
        .cloned()
        .ok_or_else(|| format!("wasm-bindgen {version} is not on the PATH after cargo install"))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))
}

fn build(root: &Path) -> Result<(), String> {
    let web = root.join("web");
    let out = root.join("target/web");
    let pkg = out.join("pkg");
    // The npm tools (esbuild, binaryen, three.js, playwright-core for the tests).
    if !web.join("node_modules/.bin/esbuild").exists() {
        run(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&web))?;
    }
    let version = wasm_bindgen_version(root)?;
    let bindgen = wasm_bindgen(&version)?;
    // Speed over size: opt-level "s" made the conversions of large files about twice as
    // slow, for a wasm 0.2 MB smaller in gzip (1.04 MB against 1.24 MB).
    run(cargo()
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "animbin-wasm",
        ])
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3")
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1"))?;
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&pkg).map_err(|e| e.to_string())?;
    // Where cargo put it: the workspace's target folder, or the one CARGO_TARGET_DIR names
    // (relative to where cargo runs, the workspace).
    let cargo_target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map_or_else(|| root.join("target"), |dir| root.join(dir));
    run(Command::new(&bindgen)
        .arg(cargo_target.join("wasm32-unknown-unknown/release/animbin_wasm.wasm"))
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--out-name",
            "animbin_wasm",
            "--out-dir",
        ])
        .arg(&pkg))?;
    let wasm = pkg.join("animbin_wasm_bg.wasm");
    let wasm_opt = web.join("node_modules/.bin/wasm-opt");
    if wasm_opt.exists() {
        run(Command::new(&wasm_opt)
            .arg("-O3")
            .args([
                "--enable-bulk-memory",
                "--enable-nontrapping-float-to-int",
                "--enable-sign-ext",
                "--enable-mutable-globals",
                "--enable-reference-types",
                "--enable-multivalue",
            ])
            .arg(&wasm)
            .arg("-o")
            .arg(&wasm))?;
    } else {
        eprintln!("wasm-opt (npm binaryen) is missing: the wasm is not optimised further");
    }
    for entry in std::fs::read_dir(web.join("pkg-src")).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        copy(&path, &pkg.join(path.file_name().expect("a file")))?;
    }
    // The page: the worker bundles the package, the main script bundles three.js.
    let esbuild = web.join("node_modules/.bin/esbuild");
    for (source, alias) in [("web/page/main.js", false), ("web/page/worker.js", true)] {
        let mut cmd = Command::new(&esbuild);
        cmd.current_dir(root)
            .args([
                source,
                "--bundle",
                "--format=esm",
                "--target=es2022",
                "--minify",
                "--log-level=warning",
            ])
            .arg(format!("--outdir={}", out.display()));
        if alias {
            // The package reads its wasm with node:fs under Node only.
            cmd.args(["--alias:animbin=./target/web/pkg/index.js", "--external:node:*"]);
        }
        run(&mut cmd)?;
    }
    for file in ["index.html", "style.css"] {
        copy(&web.join("page").join(file), &out.join(file))?;
    }
    copy(&wasm, &out.join("animbin_wasm_bg.wasm"))?;
    // The sample the page's empty state offers ("Try a sample").
    std::fs::create_dir_all(out.join("samples")).map_err(|e| e.to_string())?;
    copy(&root.join("testdata/sample.dmf"), &out.join("samples/sample.dmf"))?;
    let raw = std::fs::metadata(&wasm).map_err(|e| e.to_string())?.len();
    let gzip = Command::new("sh")
        .arg("-c")
        .arg(format!("gzip -9 -c '{}' | wc -c", wasm.display()))
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u64>().ok());
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    match gzip {
        Some(gz) => println!(
            "wasm: {raw} bytes ({:.2} MiB), {gz} gzip -9 ({:.2} MiB)",
            mib(raw),
            mib(gz)
        ),
        None => println!("wasm: {raw} bytes ({:.2} MiB)", mib(raw)),
    }
    println!(
        "page: {} (serve it with any static server: python3 -m http.server -d target/web)",
        out.display()
    );
    println!("npm package: {}", pkg.display());
    Ok(())
}

/// The page's benchmark, `runs` runs of each case (see the module's documentation).
fn bench(root: &Path, runs: usize) -> Result<(), String> {
    if !root.join("target/web/index.html").exists() {
        build(root)?;
    }
    run(cargo().args(["build", "--release", "-q", "-p", "animbin-cli"]))?;
    let dir = root.join("target/web-bench");
    if !(dir.join("large.semodel").exists() && dir.join("large.seanim").exists()) {
        bench_files(&dir, 48 << 20)?;
    }
    run(Command::new("node")
        .arg(root.join("web/bench.mjs"))
        .arg(&dir)
        .env("RUNS", runs.to_string())
        .env("ANIMBIN", root.join("target/release/animbin")))
}

/// Writes `large.semodel` and `large.seanim` of about `target` bytes each into `dir`.
fn bench_files(dir: &Path, target: usize) -> Result<(), String> {
    fn sized(target: usize, make: impl Fn(u32) -> Vec<u8>) -> Vec<u8> {
        let probe = make(8);
        let count = ((target as f64 / probe.len() as f64) * 8.0).max(8.0) as u32;
        make(count)
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let model = sized(target, |thousands| {
        animbin_semodel::to_bytes(&large::semodel::model(thousands * 1000)).expect("a valid SEModel")
    });
    let anim = sized(target, |frames| {
        animbin_seanim::to_bytes(&large::seanim::anim(300, frames, false)).expect("a valid SEAnim")
    });
    for (name, bytes) in [("large.semodel", model), ("large.seanim", anim)] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}: {} bytes", path.display(), bytes.len());
    }
    Ok(())
}
