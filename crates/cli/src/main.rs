//! `animbin`: inspect, dump, validate and convert game animation and model files.
//!
//! Exit codes: 0 success, 1 bad input (the message names the byte offset), 2 usage.

mod formats;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use animbin_core::scene::{ConversionReport, Scene};
use anyhow::{Context, anyhow, bail};
use clap::{Parser, Subcommand};
use serde_json::{Map, Value};

use formats::{CliResult, Document, FORMATS, Format, SceneOptions};

/// Inspect, dump, validate and convert SEAnim, SEModel, AnimX/AnimJ, Shining Force III
/// x8an and Dash Model Format files.
#[derive(Parser)]
#[command(name = "animbin", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a summary of a file.
    Info {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// The input's format, when it cannot be detected (sf3 has no magic).
        #[arg(long)]
        format: Option<String>,
        /// The file to read.
        file: PathBuf,
    },
    /// Print the whole file as JSON; `animbin convert` turns the dump back into the file
    /// (a file whose dump would not give back the same bytes is refused).
    Dump {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<String>,
        /// The file to read.
        file: PathBuf,
    },
    /// Convert a file to another format (chosen by OUT's extension or --to).
    Convert {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<String>,
        /// The output format: seanim, semodel, animx, animj, sf3, dmf, dmf-json or json (a dump).
        #[arg(long)]
        to: Option<String>,
        /// Fail instead of reporting what the output format cannot hold.
        #[arg(long)]
        strict: bool,
        /// Frames per second for formats that store none (sf3); default 30.
        #[arg(long)]
        framerate: Option<f64>,
        /// An animation file whose animations join the input's (repeatable); tracks are
        /// matched to the input's bones by name, and unmatched ones are reported.
        #[arg(long = "anim", value_name = "FILE")]
        anims: Vec<PathBuf>,
        /// The non-glTF side is Z-up (SEAnim, SEModel): glTF output gets a root node that
        /// turns it Y-up; glTF input from other tools is turned Z-up.
        #[arg(long)]
        z_up: bool,
        /// Lengths times this are glTF metres, both ways (0.01 for centimetres).
        #[arg(long, value_name = "FACTOR")]
        scale: Option<f64>,
        /// The file to read.
        input: PathBuf,
        /// The file to write.
        output: PathBuf,
    },
    /// Check every spec invariant; one line per problem, exit 1 if any.
    Validate {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<String>,
        /// The files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// A usage mistake (exit 2) as opposed to bad input (exit 1).
#[derive(Debug)]
struct UsageError(String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(code) => code,
        // A closed stdout (`animbin dump x | head`) ends the command quietly, as it would a
        // C tool killed by SIGPIPE; Rust ignores SIGPIPE, so without this it would be an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            warn(format_args!("animbin: {e:#}"));
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Writes a line to stdout, returning the error (`println!` would panic on a closed pipe).
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)
    };
}

/// Writes a line to stderr; a closed stderr has nowhere left to report to, so it is ignored.
fn warn(args: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{args}");
}

fn run(cli: Cli) -> CliResult<ExitCode> {
    match cli.command {
        Command::Info { json, format, file } => {
            let (fmt, doc) = open(&file, format.as_deref())?;
            let fields = doc.info();
            if json {
                let mut info = Map::new();
                info.insert("format".into(), fmt.name().into());
                info.extend(fields);
                out!("{}", Value::Object(info))?;
            } else {
                // The format first, then the fields in name order.
                out!("format: {}", fmt.name())?;
                for (key, value) in fields {
                    match value {
                        Value::String(s) => out!("{key}: {s}")?,
                        other => out!("{key}: {other}")?,
                    }
                }
            }
        }
        Command::Dump { format, file } => {
            let (fmt, doc) = open(&file, format.as_deref())?;
            out!("{}", serde_json::to_string_pretty(&formats::dump(fmt, doc.as_ref())?)?)?;
        }
        Command::Convert {
            format,
            to,
            strict,
            framerate,
            anims,
            z_up,
            scale,
            input,
            output,
        } => {
            let (fmt, doc) = open(&input, format.as_deref())?;
            let options = SceneOptions {
                framerate,
                z_up,
                unit_scale: scale,
            };
            let bytes = convert(fmt, doc.as_ref(), to.as_deref(), &output, strict, &options, &anims)?;
            std::fs::write(&output, bytes).with_context(|| format!("cannot write {}", output.display()))?;
        }
        Command::Validate { format, files } => {
            let mut clean = true;
            for file in &files {
                match open(file, format.as_deref()) {
                    Ok((_, doc)) => {
                        for problem in doc.validate() {
                            clean = false;
                            out!("{}: {problem}", file.display())?;
                        }
                    }
                    Err(e) if e.downcast_ref::<UsageError>().is_some() => return Err(e),
                    Err(e) => {
                        clean = false;
                        out!("{}: {e:#}", file.display())?;
                    }
                }
            }
            return Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads `path` and finds its format: `--format` first, then an animbin dump, a format's
/// own JSON form, magic bytes, and finally the file name.
fn open(path: &Path, format: Option<&str>) -> CliResult<(&'static dyn Format, Box<dyn Document>)> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let forced = match format {
        Some(name) => Some(
            formats::by_name(name)
                .ok_or_else(|| usage(format!("unknown format {name:?}; known: {}", known_formats())))?,
        ),
        None => None,
    };
    let context = || format!("{}", path.display());
    if looks_like_json(&bytes) {
        let json: Value = serde_json::from_slice(&bytes).with_context(context)?;
        if let Some((name, data)) = as_dump(&json) {
            let fmt = formats::by_name(name)
                .ok_or_else(|| anyhow!("{}: a dump of unknown format {name:?}", path.display()))?;
            let doc = fmt.undump(data.clone()).with_context(context)?;
            return Ok((fmt, doc));
        }
        let fmt = forced
            .or_else(|| FORMATS.iter().copied().find(|f| f.detect_json(&json)))
            .ok_or_else(|| {
                anyhow!(
                    "{}: JSON that is neither an animbin dump nor a known format's JSON form",
                    path.display()
                )
            })?;
        return Ok((fmt, fmt.read(&bytes).with_context(context)?));
    }
    let fmt = forced
        .or_else(|| FORMATS.iter().copied().find(|f| f.detect(&bytes, path)))
        .ok_or_else(|| {
            anyhow!(
                "{}: unknown format at byte 0 (no known magic; use --format with one of {})",
                path.display(),
                known_formats()
            )
        })?;
    Ok((fmt, fmt.read(&bytes).with_context(context)?))
}

fn known_formats() -> String {
    FORMATS.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

fn looks_like_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// An animbin dump is `{"format": NAME, "data": ...}`.
fn as_dump(json: &Value) -> Option<(&str, &Value)> {
    let obj = json.as_object()?;
    let name = obj.get("format")?.as_str()?;
    let data = obj.get("data")?;
    (obj.len() == 2 && formats::by_name(name).is_some()).then_some((name, data))
}

fn convert(
    source: &'static dyn Format,
    doc: &dyn Document,
    to: Option<&str>,
    output: &Path,
    strict: bool,
    options: &SceneOptions,
    anims: &[PathBuf],
) -> CliResult<Vec<u8>> {
    let extension = output.extension().and_then(|e| e.to_str());
    if to == Some("json") || (to.is_none() && extension.is_some_and(|e| e.eq_ignore_ascii_case("json"))) {
        return Ok(serde_json::to_vec_pretty(&formats::dump(source, doc)?)?);
    }
    let (target, target_name) = formats::target_by_name_or_extension(to, extension).ok_or_else(|| match to {
        Some(name) => usage(format!("unknown output format {name:?}")),
        None => usage(format!(
            "cannot tell the output format from {}; use --to",
            output.display()
        )),
    })?;
    if target.name() == source.name() && anims.is_empty() {
        return doc.write(target_name);
    }
    let mut report = ConversionReport::default();
    let mut scene = doc.to_scene(options, &mut report)?;
    let unmatched = merge_animations(&mut scene, anims, options, &mut report)?;
    if strict && unmatched > 0 {
        bail!("--strict: {unmatched} --anim track(s) name bones that the input does not have");
    }
    let converted = target.from_scene(&scene, options, &mut report)?;
    for line in &report.lost {
        warn(format_args!("animbin: {} cannot hold: {line}", target.name()));
    }
    if strict && !report.is_lossless() {
        bail!(
            "--strict: the conversion would lose {} kind(s) of data",
            report.lost.len()
        );
    }
    converted.write(target_name)
}

/// Adds the animations of each `--anim` file to `scene`. Tracks are matched to the scene's
/// bones by name; each animation with tracks for bones the scene lacks is reported on
/// stderr (the tracks are kept: the output format says what it does with them). Returns
/// how many tracks did not match.
fn merge_animations(
    scene: &mut Scene,
    anims: &[PathBuf],
    options: &SceneOptions,
    report: &mut ConversionReport,
) -> CliResult<usize> {
    let mut unmatched = 0;
    for path in anims {
        let (_, doc) = open(path, None)?;
        let extra = doc
            .to_scene(options, report)
            .with_context(|| format!("{}", path.display()))?;
        if extra.animations.is_empty() {
            bail!("{}: --anim file holds no animation", path.display());
        }
        for anim in extra.animations {
            if !scene.skeleton.bones.is_empty() {
                let missing: Vec<&str> = anim
                    .bones
                    .iter()
                    .filter(|t| scene.skeleton.find(&t.bone).is_none())
                    .map(|t| t.bone.as_str())
                    .collect();
                if !missing.is_empty() {
                    unmatched += missing.len();
                    warn(format_args!(
                        "animbin: {}: animation {:?}: {} track(s) name bones the input does not have: {}",
                        path.display(),
                        anim.name,
                        missing.len(),
                        missing.join(", ")
                    ));
                }
            }
            scene.animations.push(anim);
        }
    }
    Ok(unmatched)
}
