//! `animbin`: inspect, dump, validate and convert game animation and model files.
//!
//! A thin front end over the `animbin` library: it parses arguments, calls the library,
//! prints, and sets the exit code: 0 success, 1 bad input (the message names the byte
//! offset), 2 usage.

use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use animbin::batch::{FileOptions, Summary};
use animbin::core::scene::{AnimKind, Precision};
use animbin::options;
use animbin::{
    AnimationSource, Conversion, ConvertOptions, Document, Error, Format, ReadOptions, SaveOptions, SceneOptions,
    Severity, Target,
};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::iter::{IntoParallelRefIterator, ParallelIterator};
use serde_json::Value;

mod memory;

/// Running out of memory is exit 1 with a message, not an abort (see `memory`).
#[global_allocator]
static ALLOCATOR: animbin_alloc::ReportingAllocator = memory::ALLOCATOR;

/// Inspect, dump, validate and convert SEAnim, SEModel, Cast, AnimX/AnimJ, Shining Force
/// III x8an, Dash Model Format and glTF/glb files.
#[derive(Parser)]
#[command(name = "animbin", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most bytes read of one input (default 4G, the largest a glb can be); a larger file
    /// is refused before it is read. A whole number, or with K, M, G or T for KiB, MiB, GiB or
    /// TiB: 64M, 8G. Inputs are read whole into memory, so this also bounds what one read
    /// takes (per job with --out).
    #[arg(long, global = true, value_name = "BYTES", value_parser = max_input_size_arg)]
    max_input_size: Option<u64>,
    /// The most values a glTF input's accessors may give in all (default 16 per byte of its
    /// buffers, at least 16M): a small file whose accessors share their bytes, or have none,
    /// would otherwise expand to gigabytes. A whole number, or with K, M, G or T: 256M.
    #[arg(long, global = true, value_name = "VALUES", value_parser = max_accessor_values_arg)]
    max_accessor_values: Option<u64>,
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
    /// Convert a file to another format (chosen by OUT's extension or --to), glTF/glb
    /// included; with --out, convert many files and folders into one folder.
    #[command(override_usage = "animbin convert [OPTIONS] IN OUT\n       \
                                animbin convert [OPTIONS] --to FORMAT --out DIR [--jobs N] PATH...")]
    Convert {
        /// The input's format, when it cannot be detected.
        #[arg(long)]
        format: Option<Format>,
        /// The output format (the names come from the library's table of formats).
        #[arg(long, help = target_help())]
        to: Option<Target>,
        /// Fail instead of reporting what the output format cannot hold.
        #[arg(long)]
        strict: bool,
        /// Frames per second for formats that store none (x8an: 30, AnimX: 60 by default).
        #[arg(long, value_parser = framerate_arg)]
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
        /// values mirror): glTF/glb output has its positions, translations and bind
        /// matrices scaled; glTF input from other tools is divided by it.
        #[arg(long, value_name = "FACTOR", allow_negative_numbers = true, value_parser = scale_arg)]
        scale: Option<f64>,
        /// The anim type of an SEAnim written from a file that states none (a glTF from
        /// Blender): absolute, relative, delta or additive; the keys are rewritten against
        /// the bind pose so that what plays stays the same.
        #[arg(long, value_name = "KIND", value_parser = anim_type_arg)]
        anim_type: Option<AnimKind>,
        /// The SEAnim written loops.
        #[arg(long)]
        looped: bool,
        /// The key precision of an SEAnim written: single or double (by default single when
        /// every value fits).
        #[arg(long, value_name = "P", value_parser = precision_arg)]
        precision: Option<Precision>,
        /// Convert only the animation of this name (its own, or its file's stem).
        #[arg(long, value_name = "NAME")]
        animation: Option<String>,
        /// Write one file per animation into the folder OUT, each named after its
        /// animation (needs --to).
        #[arg(long)]
        split: bool,
        /// Write the output even when it would hold nothing of the input (a glTF without a
        /// node or an animation, an animation format from a model).
        #[arg(long)]
        allow_empty: bool,
        /// Replace an output that is read-only (it keeps its permissions); without it such an
        /// output is refused and left as it is (with --out: that file fails).
        #[arg(long)]
        force: bool,
        /// IN OUT: the file to read and the file to write (a folder with --split), replaced
        /// only when the whole output is ready. With --out: any number of files and folders
        /// (walked recursively for the files a format reads) to convert.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Convert every PATH into this folder (--to needed), in parallel: each output is
        /// named after its input with the target's extension, a folder's sub-folders are
        /// kept, existing outputs are replaced; a file that fails is reported and the
        /// others still convert; one summary line ends it (exit 1 if any failed).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// How many threads --out converts on (default: one per core), at most 1024 and never
        /// more than there are files: files convert side by side, and the parts of one file
        /// that divide (SEAnim bones, glTF channels) share them.
        #[arg(long, value_name = "N", requires = "out", value_parser = jobs_arg)]
        jobs: Option<NonZeroUsize>,
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

/// `--framerate`, `--scale`, `--anim-type` and `--precision` as the library's option rules
/// take them (`animbin::options`, which Python's keywords follow too): a value they refuse
/// is a usage error naming the option (exit 2), before anything is read.
fn framerate_arg(text: &str) -> Result<f64, String> {
    options::number(options::FRAMERATE, text, options::framerate).map_err(|e| e.message)
}

fn scale_arg(text: &str) -> Result<f64, String> {
    options::number(options::SCALE, text, options::scale).map_err(|e| e.message)
}

fn anim_type_arg(text: &str) -> Result<AnimKind, String> {
    options::anim_kind(text).map_err(|e| e.message)
}

fn precision_arg(text: &str) -> Result<Precision, String> {
    options::precision(text).map_err(|e| e.message)
}

/// `--jobs`, by the library's rule (1 to `animbin::options::MAX_JOBS`).
fn jobs_arg(text: &str) -> Result<NonZeroUsize, String> {
    options::jobs(text).map_err(|e| e.message)
}

/// `--max-input-size`, by the library's rule (`64M`, `8G`, a number of bytes).
fn max_input_size_arg(text: &str) -> Result<u64, String> {
    options::max_input_size(text).map_err(|e| e.message)
}

fn max_accessor_values_arg(text: &str) -> Result<u64, String> {
    options::max_accessor_values(text).map_err(|e| e.message)
}

/// `--to`'s help: every target's name, from the library's table.
fn target_help() -> String {
    let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
    match names.split_last() {
        Some((last, rest)) => format!("The output format: {} or {last} (a dump)", rest.join(", ")),
        None => String::new(),
    }
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

/// Library errors about `path` become input failures naming the file. A file that cannot be
/// read or written is named by the library's `Error::Io` itself, with the operating system's
/// reason (an output's, whatever the format's writer made of it) and the way past a refusal
/// ([`io_hint`]); anything else (a bad input, what a format cannot encode) is `path`'s.
fn input_error(path: &Path) -> impl Fn(Error) -> Failure + '_ {
    move |e| match e {
        // What the command writes to a writer of its own goes to stdout.
        Error::Write(io) => stdout_error(io),
        Error::Io { ref source, .. } => Failure::Input(format!("{e}{}", io_hint(source))),
        e => Failure::Input(format!("{}: {e}", path.display())),
    }
}

/// The way past a refusal of the library's that an option of the command lifts: a read-only
/// output (`--force`) or an input over the size limit (`--max-input-size`); else nothing.
fn io_hint(source: &io::Error) -> &'static str {
    match source.get_ref() {
        Some(inner) if inner.is::<animbin::core::format::ReadOnly>() => "; --force replaces it",
        Some(inner) if inner.is::<animbin::core::format::TooLarge>() => "; --max-input-size raises it",
        _ => "",
    }
}

/// The command reads regular files only: a pipe or a device (`/dev/zero`, a FIFO no one
/// writes to) is refused before it is opened, so that nothing waits forever or fills memory.
/// (The library reads them up to its size limit, `--max-input-size`.) A path that names nothing, or a
/// folder, is left to the open, which says why.
fn refuse_special(path: &Path) -> CliResult<()> {
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(());
    };
    if metadata.is_file() || metadata.is_dir() {
        return Ok(());
    }
    let kind = special_kind(&metadata.file_type());
    Err(Failure::Input(format!(
        "{}: not a regular file but {kind}; animbin reads regular files only (save the data to a file first)",
        path.display()
    )))
}

/// What a file that is neither a regular file nor a folder is, for a message.
fn special_kind(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a pipe (FIFO)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    let _ = file_type;
    "a special file"
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
        end_cleanly_on_signals();
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

/// SIGINT, SIGTERM and SIGHUP end the command as they would without a handler, with the exit
/// code 128 + the signal, after removing the temporary files of the outputs being written.
/// On Linux these have no name while they are written (`O_TMPFILE`), so that even SIGKILL
/// leaves nothing behind; on file systems without unnamed files (and other systems) they are
/// named `.NAME.XXXXXX.partial` until complete, and this removes them. A signal the command
/// was started ignoring (`nohup`, a background job) stays ignored.
#[cfg(unix)]
fn end_cleanly_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let signals: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&signal| !ignored_at_start(signal))
        .collect();
    let Ok(mut signals) = signal_hook::iterator::Signals::new(signals) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            animbin::core::format::remove_partial_files();
            std::process::exit(128 + signal);
        }
    });
}

/// Whether the process was started with `signal` ignored, from the `SigIgn` mask of
/// `/proc/self/status` (Linux); elsewhere taken as not ignored.
#[cfg(unix)]
fn ignored_at_start(signal: i32) -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| signal > 0 && mask & (1 << (signal - 1)) != 0)
}

fn run(cli: Cli) -> CliResult<ExitCode> {
    let mut read = ReadOptions::default();
    if let Some(limit) = cli.max_input_size {
        read.max_input_size = limit;
    }
    read.max_accessor_values = cli.max_accessor_values;
    match cli.command {
        Command::Info { json, format, file } => info(&file, format, json, &read)?,
        Command::Dump { format, file } => {
            let doc = open(&file, format, &read)?;
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
            anim_type,
            looped,
            precision,
            animation,
            split,
            allow_empty,
            force,
            paths,
            out,
            jobs,
        } => {
            let scene = SceneOptions {
                framerate,
                z_up,
                unit_scale: scale.unwrap_or(1.0),
                anim_kind: anim_type,
                looping: looped.then_some(true),
                precision,
                ..SceneOptions::default()
            };
            // Texture files read for a conversion count against the limit with its input.
            let limit = read.max_input_size;
            if let Some(out) = out {
                let batch = Batch {
                    inputs: &paths,
                    out: &out,
                    format,
                    to,
                    jobs,
                    anims: !anims.is_empty(),
                    split,
                    files: FileOptions {
                        read,
                        save: SaveOptions { force },
                    },
                };
                let options = ConvertOptions {
                    scene,
                    strict,
                    animation,
                    allow_empty,
                    max_input_size: Some(limit),
                    max_accessor_values: read.max_accessor_values,
                    ..ConvertOptions::default()
                };
                return convert_batch(&batch, &options);
            }
            let [input, output] = &paths[..] else {
                return Err(Failure::Usage(format!(
                    "convert takes IN OUT (got {} path(s)); to convert several files, give the folder \
                     to write them to with --out DIR",
                    paths.len()
                )));
            };
            let options = ConvertOptions {
                scene,
                strict,
                animation,
                allow_empty,
                max_input_size: Some(read.max_input_size),
                max_accessor_values: read.max_accessor_values,
                ..ConvertOptions::for_input(input)
            };
            let request = Request {
                input,
                format,
                to,
                output,
                anims: &anims,
                split,
                read,
                save: SaveOptions { force },
            };
            convert(&request, options)?;
        }
        Command::Validate { format, strict, files } => return validate(&files, format, strict, &read),
    }
    Ok(ExitCode::SUCCESS)
}

fn open(path: &Path, format: Option<Format>, read: &ReadOptions) -> CliResult<Document> {
    refuse_special(path)?;
    read.scope(|| Document::open_with(path, format, read))
        .map_err(input_error(path))
}

fn info(file: &Path, format: Option<Format>, json: bool, read: &ReadOptions) -> CliResult<()> {
    refuse_special(file)?;
    let info = read
        .scope(|| Document::info_of_file_with(file, format, read))
        .map_err(input_error(file))?;
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

/// What `animbin convert` was asked to do, besides the conversion's options.
struct Request<'a> {
    input: &'a Path,
    format: Option<Format>,
    to: Option<Target>,
    output: &'a Path,
    anims: &'a [PathBuf],
    split: bool,
    /// How inputs are read (--max-input-size).
    read: ReadOptions,
    /// How outputs are saved (--force).
    save: SaveOptions,
}

fn convert(request: &Request<'_>, mut options: ConvertOptions) -> CliResult<()> {
    let Request {
        input,
        format,
        to,
        output,
        anims,
        split,
        read,
        save,
    } = *request;
    // Everything the request alone decides is checked before any file is read.
    let target = match to.or_else(|| if split { None } else { Target::from_path(output) }) {
        Some(target) => target,
        None => {
            let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
            let what = if split {
                "--split writes into the folder OUT, so it cannot tell the output format".to_string()
            } else {
                format!("cannot tell the output format from {}", output.display())
            };
            return Err(Failure::Usage(format!(
                "{what}; use --to with one of: {}",
                names.join(", ")
            )));
        }
    };
    if split && target == Target::Dump {
        return Err(Failure::Usage(
            "--split writes animations; a dump (json) is the whole input".into(),
        ));
    }
    let inputs: Vec<&Path> = std::iter::once(input)
        .chain(anims.iter().map(PathBuf::as_path))
        .collect();
    // Before the comparison with the output, which opens the inputs (a FIFO's open waits).
    for input in &inputs {
        refuse_special(input)?;
    }
    if !split {
        refuse_overwriting_inputs(&inputs, output)?;
    }
    let doc = open(input, format, &read)?;
    options.anims = anims
        .iter()
        .map(|path| {
            Ok(AnimationSource {
                name: path.display().to_string(),
                document: open(path, None, &read)?,
            })
        })
        .collect::<CliResult<Vec<_>>>()?;
    options.output_dir = Some(if split {
        output.to_path_buf()
    } else {
        output.parent().map(Path::to_path_buf).unwrap_or_default()
    });
    if !split {
        let conversion = animbin::convert_owned(doc, target, &options).map_err(|e| conversion_error(e, input))?;
        report(&conversion);
        return animbin::save_with(output, save, |writer| conversion.write(writer)).map_err(input_error(input));
    }
    let conversions = animbin::convert_split(&doc, target, &options).map_err(|e| conversion_error(e, input))?;
    // Every name is made (unique, short enough) and checked before the first file is written.
    let names = animbin::split_file_names(
        conversions.iter().map(|(name, _)| name.as_str()),
        target.output_extension(),
    );
    let outputs: Vec<PathBuf> = names.iter().map(|name| output.join(name)).collect();
    for path in &outputs {
        refuse_overwriting_inputs(&inputs, path)?;
    }
    std::fs::create_dir_all(output).map_err(|e| Failure::Input(format!("{}: {e}", output.display())))?;
    for ((_, conversion), path) in conversions.iter().zip(&outputs) {
        report(conversion);
        animbin::save_with(path, save, |writer| conversion.write(writer)).map_err(input_error(input))?;
    }
    Ok(())
}

/// What `animbin convert --out DIR` was asked to do, besides the conversion's options.
struct Batch<'a> {
    inputs: &'a [PathBuf],
    out: &'a Path,
    format: Option<Format>,
    to: Option<Target>,
    jobs: Option<NonZeroUsize>,
    /// Whether --anim was given (refused: it joins animations to one input).
    anims: bool,
    split: bool,
    /// How each input is read and each output saved (--max-input-size, --force).
    files: FileOptions,
}

/// Converts every input into the folder `--out` on a pool of `--jobs` threads, going past
/// files that fail; a progress bar on stderr when it is a terminal; one summary line on
/// stdout. Exit 1 when any file failed, 2 when the request would collide or overwrite an
/// input (before anything is written). The library plans and converts one file at a time;
/// the threads and the bar are the command's, so the library needs neither a thread pool
/// nor a terminal, and other callers schedule its jobs their own way.
fn convert_batch(batch: &Batch<'_>, options: &ConvertOptions) -> CliResult<ExitCode> {
    let Some(target) = batch.to else {
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        return Err(Failure::Usage(format!(
            "--out writes into a folder, so it cannot tell the output format; use --to with one of: {}",
            names.join(", ")
        )));
    };
    if batch.split {
        return Err(Failure::Usage(
            "--split writes one input's animations into OUT; it does not combine with --out".into(),
        ));
    }
    if batch.anims {
        return Err(Failure::Usage(
            "--anim joins animations to one input (IN OUT); it does not combine with --out".into(),
        ));
    }
    // Pipes and devices named on the command line fail alone, before the plan opens them (the
    // open of a FIFO waits for a writer).
    let (special, inputs): (Vec<&PathBuf>, Vec<&PathBuf>) =
        batch.inputs.iter().partition(|path| refuse_special(path).is_err());
    let plan =
        animbin::batch::plan(&inputs, batch.out, target, batch.format).map_err(|e| Failure::Usage(e.to_string()))?;
    let threads = plan.threads(batch.jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Input(format!("cannot start {threads} thread(s): {e}")))?;
    let bar = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(plan.jobs.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {wide_msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    // Lines printed above the bar, so that it redraws below them.
    let say = |line: String| bar.suspend(|| warn(format_args!("animbin: {line}")));
    for error in &plan.unreadable {
        say(error.to_string());
    }
    for link in &plan.broken_links {
        say(link.to_string());
    }
    for path in &special {
        if let Err(Failure::Input(message)) = refuse_special(path) {
            say(message);
        }
    }
    let mut summary = Summary::of_plan(&plan);
    summary.failed += special.len();
    let summary = Mutex::new(summary);
    pool.install(|| {
        plan.jobs.par_iter().for_each(|job| {
            let result = animbin::batch::convert_one_with(job, target, batch.format, options, &batch.files);
            let input = job.input.display();
            match &result {
                Ok(converted) => {
                    for line in converted.report.lost.iter().map(|l| animbin::loss_line(target, l)) {
                        say(format!("{input}: {line}"));
                    }
                    for line in converted
                        .unmatched
                        .iter()
                        .map(ToString::to_string)
                        .chain(converted.report.notes.iter().cloned())
                    {
                        say(format!("{input}: {line}"));
                    }
                }
                Err(Error::Io { path, source }) if *path == job.input => {
                    say(format!("{input}: {source}{}", io_hint(source)));
                }
                // An output that cannot be written, named.
                Err(e @ Error::Io { source, .. }) => say(format!("{input}: {e}{}", io_hint(source))),
                Err(e) => say(format!("{input}: {e}{}", allow_empty_hint(e))),
            }
            summary.lock().unwrap_or_else(|e| e.into_inner()).count(&result);
            bar.set_message(job.input.file_name().unwrap_or_default().to_string_lossy().into_owned());
            bar.inc(1);
        });
    });
    bar.finish_and_clear();
    let summary = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    out!("{summary}")?;
    Ok(if summary.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// An output that is one of the inputs (the same path, a symlink or a hard link) is refused.
fn refuse_overwriting_inputs(inputs: &[&Path], output: &Path) -> CliResult<()> {
    for source in inputs {
        if animbin::is_same_file(source, output) {
            return Err(Failure::Usage(format!(
                "the output {} is the input {}: refusing to overwrite it",
                output.display(),
                source.display()
            )));
        }
    }
    Ok(())
}

/// The failure for a conversion error: --strict's losses listed, an empty output's way out said.
fn conversion_error(e: Error, input: &Path) -> Failure {
    match e {
        Error::Lossy { lost } => {
            for line in &lost {
                warn(format_args!("animbin: {line}"));
            }
            Failure::Input(format!(
                "--strict: the conversion would lose {} kind(s) of data; nothing was written",
                lost.len()
            ))
        }
        e @ Error::NothingToWrite { .. } => Failure::Input(format!("{}: {e}{}", input.display(), allow_empty_hint(&e))),
        Error::Option(e) => Failure::Usage(format!("{}: {}", e.flag(), e.message)),
        e => input_error(input)(e),
    }
}

/// The way out of a conversion that would write nothing: this command's `--allow-empty`.
fn allow_empty_hint(e: &Error) -> &'static str {
    match e {
        Error::NothingToWrite { overridable: true, .. } => " (--allow-empty writes it anyway)",
        _ => "",
    }
}

/// What a conversion lost and which tracks found no bone, on stderr.
fn report(conversion: &Conversion<'_>) {
    for line in conversion.lost_lines() {
        warn(format_args!("animbin: {line}"));
    }
}

fn validate(files: &[PathBuf], format: Option<Format>, strict: bool, read: &ReadOptions) -> CliResult<ExitCode> {
    let mut failed = false;
    for file in files {
        if let Err(Failure::Input(message)) = refuse_special(file) {
            failed = true;
            warn(format_args!("{message}"));
            continue;
        }
        match read.scope(|| Document::open_with(file, format, read)) {
            Ok(doc) => {
                for problem in read.scope(|| doc.validate()) {
                    failed |= problem.severity == Severity::Error || strict;
                    out!("{}: {problem}", file.display())?;
                }
            }
            Err(e) => {
                failed = true;
                match e {
                    Error::Io { source, .. } => warn(format_args!("{}: {source}{}", file.display(), io_hint(&source))),
                    e => warn(format_args!("{}: {e}", file.display())),
                }
            }
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
