//! `animbin`: inspect, dump, validate and convert game animation and model files.
//!
//! A thin front end over the `animbin` library: it parses arguments, calls the library,
//! prints, and sets the exit code: 0 success, 1 bad input (the message names the byte
//! offset), 2 usage.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use animbin::{
    AnimationSource, ConversionReport, ConvertOptions, Document, Error, Format, SceneOptions, Severity, Target,
};
use clap::{Parser, Subcommand};
use serde_json::Value;

/// Inspect, dump, validate and convert SEAnim, SEModel, Cast, AnimX/AnimJ, Shining Force
/// III x8an, Dash Model Format and glTF/glb files.
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
        /// The input's format, when it cannot be detected (x8an files have no magic).
        #[arg(long)]
        format: Option<Format>,
        /// The file to read (any supported format, glTF/glb included).
        file: PathBuf,
    },
    /// Print the whole file as JSON; `animbin convert DUMP OUT` turns it back into the file.
    Dump {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<Format>,
        /// The file to read.
        file: PathBuf,
    },
    /// Convert a file to another format (chosen by OUT's extension or --to), glTF/glb included.
    Convert {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<Format>,
        /// The output format: seanim, semodel, semodel-deployed, semodel-draft, animx, animj,
        /// sf3, dmf, dmf-json, gltf, glb or json (a dump).
        #[arg(long)]
        to: Option<Target>,
        /// Fail instead of reporting what the output format cannot hold.
        #[arg(long)]
        strict: bool,
        /// Frames per second for formats that store none (x8an: 30, AnimX: 60 by default).
        #[arg(long)]
        framerate: Option<f64>,
        /// An animation file whose animations join the input's (repeatable); tracks are
        /// matched to the input's bones by name, and unmatched ones are reported.
        #[arg(long = "anim", value_name = "FILE")]
        anims: Vec<PathBuf>,
        /// The non-glTF side is Z-up (SEAnim, SEModel): glTF/glb output gets a root node
        /// that turns it Y-up; glTF input from other tools is turned Z-up.
        #[arg(long)]
        z_up: bool,
        /// Lengths times this are glTF metres, both ways (0.01 for centimetres; negative
        /// values mirror).
        #[arg(long, value_name = "FACTOR", allow_negative_numbers = true)]
        scale: Option<f64>,
        /// The file to read.
        input: PathBuf,
        /// The file to write; it is replaced only when the whole output is ready.
        output: PathBuf,
    },
    /// Check every rule of the format: one line per problem on stdout; exit 1 on any error
    /// (warnings too with --strict).
    Validate {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<Format>,
        /// Warnings fail the check as errors do.
        #[arg(long)]
        strict: bool,
        /// The files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Why the command failed: the request (exit 2) or the input (exit 1).
enum Failure {
    Usage(String),
    Input(String),
    /// A closed stdout (`animbin dump x | head`): end quietly, as a C tool killed by SIGPIPE
    /// would (Rust ignores SIGPIPE, so writes fail instead).
    BrokenPipe,
}

type CliResult<T> = Result<T, Failure>;

/// Library errors about `path` become input failures naming the file.
fn input_error(path: &Path) -> impl Fn(Error) -> Failure + '_ {
    move |e| match e {
        Error::Write(io) if io.kind() == io::ErrorKind::BrokenPipe => Failure::BrokenPipe,
        Error::Io { .. } => Failure::Input(e.to_string()),
        e => Failure::Input(format!("{}: {e}", path.display())),
    }
}

fn stdout_error(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::Input(format!("cannot write to stdout: {e}"))
    }
}

/// Writes a line to stdout, returning the error (`println!` would panic on a closed pipe).
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(io::stdout().lock(), $($arg)*).map_err(stdout_error)
    };
}

/// Writes a line to stderr; a closed stderr has nowhere left to report to, so it is ignored.
fn warn(args: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

fn main() -> ExitCode {
    #[cfg(unix)]
    {
        // Without a handler, SIGXFSZ (`ulimit -f` reached) ends the process in the middle of
        // a write; with one, the write fails with EFBIG and the partial output is removed.
        let reached = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, reached);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            warn(format_args!("animbin: {message}"));
            ExitCode::from(2)
        }
        Err(Failure::Input(message)) => {
            warn(format_args!("animbin: {message}"));
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> CliResult<ExitCode> {
    match cli.command {
        Command::Info { json, format, file } => info(&file, format, json)?,
        Command::Dump { format, file } => {
            let doc = open(&file, format)?;
            doc.dump(io::stdout().lock()).map_err(input_error(&file))?;
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
            let options = SceneOptions {
                framerate,
                z_up,
                unit_scale: scale.unwrap_or(1.0),
                ..SceneOptions::default()
            };
            convert(&input, format, to, &output, &anims, options, strict)?;
        }
        Command::Validate { format, strict, files } => return validate(&files, format, strict),
    }
    Ok(ExitCode::SUCCESS)
}

fn open(path: &Path, format: Option<Format>) -> CliResult<Document> {
    Document::open_as(path, format).map_err(input_error(path))
}

fn info(file: &Path, format: Option<Format>, json: bool) -> CliResult<()> {
    let info = open(file, format)?.info();
    let value = serde_json::to_value(&info).map_err(|e| Failure::Input(e.to_string()))?;
    if json {
        return out!("{value}");
    }
    // The format first, then the fields in name order.
    let Value::Object(mut fields) = value else {
        return Ok(());
    };
    let format = fields.remove("format").unwrap_or_default();
    out!("format: {}", format.as_str().unwrap_or_default())?;
    for (key, value) in fields {
        match value {
            Value::String(s) => out!("{key}: {s}")?,
            other => out!("{key}: {other}")?,
        }
    }
    Ok(())
}

fn convert(
    input: &Path,
    format: Option<Format>,
    to: Option<Target>,
    output: &Path,
    anims: &[PathBuf],
    scene: SceneOptions,
    strict: bool,
) -> CliResult<()> {
    // Everything the request alone decides is checked before any file is read.
    let target = match to.or_else(|| Target::from_path(output)) {
        Some(target) => target,
        None => {
            let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
            return Err(Failure::Usage(format!(
                "cannot tell the output format from {}; use --to with one of: {}",
                output.display(),
                names.join(", ")
            )));
        }
    };
    for source in std::iter::once(input).chain(anims.iter().map(PathBuf::as_path)) {
        if animbin::is_same_file(source, output) {
            return Err(Failure::Usage(format!(
                "the output {} is the input {}: refusing to overwrite it",
                output.display(),
                source.display()
            )));
        }
    }
    let doc = open(input, format)?;
    let anims = anims
        .iter()
        .map(|path| {
            Ok(AnimationSource {
                name: path.display().to_string(),
                document: open(path, None)?,
            })
        })
        .collect::<CliResult<Vec<_>>>()?;
    let options = ConvertOptions { scene, strict, anims };
    let conversion = match animbin::convert(&doc, target, &options) {
        Ok(conversion) => conversion,
        Err(Error::Lossy { lost }) => {
            for line in &lost {
                warn(format_args!("animbin: {line}"));
            }
            return Err(Failure::Input(format!(
                "--strict: the conversion would lose {} kind(s) of data; nothing was written",
                lost.len()
            )));
        }
        Err(e) => return Err(input_error(input)(e)),
    };
    report_losses(&conversion.report, target);
    for unmatched in &conversion.unmatched {
        warn(format_args!("animbin: {unmatched}"));
    }
    conversion.save(output).map_err(input_error(input))
}

/// One stderr line per kind of loss, naming what cannot hold it.
fn report_losses(report: &ConversionReport, target: Target) {
    let holder = match target {
        // The layouts of one format differ in what they hold: name the layout.
        Target::SeModelDeployed | Target::SeModelDraft => target.name(),
        other => other.format().map_or("a dump", Format::name),
    };
    for line in &report.lost {
        warn(format_args!("animbin: {holder} cannot hold: {line}"));
    }
}

fn validate(files: &[PathBuf], format: Option<Format>, strict: bool) -> CliResult<ExitCode> {
    let mut failed = false;
    for file in files {
        match Document::open_as(file, format) {
            Ok(doc) => {
                for problem in doc.validate() {
                    failed |= problem.severity == Severity::Error || strict;
                    out!("{}: {problem}", file.display())?;
                }
            }
            Err(e) => {
                failed = true;
                match e {
                    Error::Io { source, .. } => warn(format_args!("{}: {source}", file.display())),
                    e => warn(format_args!("{}: {e}", file.display())),
                }
            }
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
