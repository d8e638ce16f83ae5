//! Batch conversion: many files and folders converted into one output folder.
//!
//! [`plan`] turns the inputs into [`Job`]s (one input file, one output path each) and
//! refuses, before anything is read or written, a request that would lose a file: two
//! inputs that would be written to the same output, or an output that is an input.
//! [`convert_one`] then converts one job; jobs share nothing, so a caller may run them on
//! as many threads as it likes (the `animbin` command runs them on a rayon pool with a
//! progress bar) and keep going past a job that fails. [`Summary`] counts what happened.
//!
//! ```
//! use animbin::batch::{self, Summary};
//! use animbin::{ConvertOptions, Target};
//!
//! let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let out = tempfile::tempdir()?;
//! let inputs = [testdata.join("sample.seanim"), testdata.join("x8an00.bin")];
//! let plan = batch::plan(&inputs, out.path(), Target::Glb, None)?;
//! let mut summary = Summary::default();
//! for job in &plan.jobs {
//!     let result = batch::convert_one(job, Target::Glb, None, &ConvertOptions::default());
//!     summary.count(&result);
//! }
//! assert_eq!(summary.to_string(), "converted 2, failed 0, skipped 0");
//! assert!(out.path().join("sample.glb").is_file() && out.path().join("x8an00.glb").is_file());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Rules
//!
//! - A file named as an input is always converted (and fails if no format reads it). A
//!   folder is walked recursively, in name order; symbolic links to folders are not
//!   followed (no loops). A file found in a folder is converted when its first bytes carry
//!   a known magic, or its name is `x8an*.bin`, or it is JSON text (its first character
//!   that is not whitespace is `{`) named `*.json`, `*.animj` or `*.gltf`; any other file
//!   (a texture, a text file, an empty file, a pipe) is skipped and counted in [`Plan::skipped`].
//!   With a forced format (`--format`) every file found is converted as that format.
//! - A symbolic link found in a folder that leads nowhere (to a file that does not exist, or
//!   round a loop of links) is skipped and counted too, and listed in [`Plan::broken_links`]
//!   for the caller to report: it is not a file that failed.
//! - An output is named after its input's stem with the target's extension
//!   ([`Target::output_extension`]): `walk.seanim` becomes `walk.glb`. A file named as an input is
//!   written straight into the output folder; a file found in a folder keeps its place
//!   below that folder: `anims/npc/walk.seanim`, from the input `anims`, becomes
//!   `OUT/npc/walk.glb`. Folders are made as outputs need them.
//! - Where two or more inputs would get the same output that way, each of them is named after
//!   its whole file name instead: `walk.seanim` and `walk.semodel` become `walk.seanim.glb`
//!   and `walk.semodel.glb`, while a `run.seanim` beside them stays `run.glb`. An input whose
//!   output would then be one of those longer names is named the long way too
//!   (`walk.semodel.json` as `walk.semodel.json.glb`). So an output's name depends only on
//!   the names of the inputs written into the same folder.
//! - Two inputs that still share an output (files of the same name from two folders, such as
//!   `a/walk.seanim` and `b/walk.seanim` named as inputs) are a [`PlanError::SameOutput`]; the
//!   same file reached twice is converted once. An output that already exists and is one of
//!   the files the inputs name or the walk found (the same path, a symbolic link or a hard
//!   link) is a [`PlanError::OutputIsInput`].
//! - An output folder inside an input folder is walked as any folder, but the files in it
//!   that this run writes are its outputs, not inputs: they are neither converted nor
//!   counted (and are replaced). Every other file there is an input. So
//!   `convert --to cast --out in/deep in` converts `in/a.seanim` to `in/deep/a.cast` and
//!   `in/deep/b.semodel` to `in/deep/deep/b.cast`, and the same command run again converts
//!   the same two files and leaves those outputs out. A run to another target takes the
//!   first run's outputs for inputs: give each target its own output folder.
//! - Every output is written through [`crate::save_with`]: whole or not at all, so a job that
//!   fails leaves no output. An output that exists (and is no input) is replaced, as a
//!   single conversion replaces its output; a read-only one is refused (that job fails)
//!   unless [`FileOptions::save`] forces it.
//! - Each job reads its input on its own, under the same limits as [`crate::Document::open`]
//!   (an AnimX file's decompressed size among them; the size of an input is
//!   [`FileOptions::read`]'s): a file over a limit fails alone.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use animbin_core::scene::ConversionReport;

use crate::convert::{ConvertOptions, UnmatchedTracks};
use crate::{Document, Error, Format, ReadOptions, Result, SaveOptions, Target};

/// One file to convert and where its output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The input file, as the inputs name it (a folder's path joined with the file's place
    /// below it).
    pub input: PathBuf,
    /// The output file: in the output folder, named after the input's stem, or after its
    /// whole file name where another input's output would have the same name.
    pub output: PathBuf,
}

/// What [`plan`] found: the jobs to run, the files skipped, and the inputs that could not
/// be looked at.
#[derive(Debug, Default)]
pub struct Plan {
    /// One job per file to convert, in the order of the inputs (a folder's files in name
    /// order).
    pub jobs: Vec<Job>,
    /// Files found in folders that no format reads, and symbolic links that lead nowhere
    /// (see the module's rules).
    pub skipped: Vec<PathBuf>,
    /// The symbolic links among [`Plan::skipped`] that lead nowhere (to a file that does not
    /// exist, or round a loop), with the reason, for the caller to report.
    pub broken_links: Vec<BrokenLink>,
    /// Inputs that do not exist or cannot be read, and folders that cannot be listed: each
    /// counts as a failed file (an [`Error::Io`] naming the path).
    pub unreadable: Vec<Error>,
}

impl Plan {
    /// How many threads to convert the plan's jobs on when `requested` are asked for (by
    /// default one per core): never more than there are jobs (a thread with nothing to
    /// convert still costs its start and its stack), nor more than
    /// [`crate::options::MAX_JOBS`], and at least one.
    pub fn threads(&self, requested: Option<std::num::NonZeroUsize>) -> usize {
        let requested = requested
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, std::num::NonZeroUsize::get);
        requested.min(self.jobs.len()).clamp(1, crate::options::MAX_JOBS)
    }
}

/// A symbolic link found in a folder that leads nowhere: skipped, and worth a line.
#[derive(Debug)]
pub struct BrokenLink {
    /// The link.
    pub path: PathBuf,
    /// Where it points (empty when that cannot be read either).
    pub target: PathBuf,
    /// What following it gave: not found, or too many levels of links (a loop).
    pub source: io::Error,
}

impl fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: skipped: a symbolic link to {} that cannot be followed: {}",
            self.path.display(),
            self.target.display(),
            self.source
        )
    }
}

/// A request that [`plan`] refuses before anything is read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// Two inputs would be written to the same output.
    #[error("{first} and {second} would both be written to {output}; convert them into separate folders")]
    SameOutput {
        /// The output path.
        output: PathBuf,
        /// The first input mapped to it.
        first: PathBuf,
        /// The second input mapped to it.
        second: PathBuf,
    },
    /// An output that is one of the inputs.
    #[error("the output {output} is the input {input}: refusing to overwrite it")]
    OutputIsInput {
        /// The output path.
        output: PathBuf,
        /// The input it is.
        input: PathBuf,
    },
    /// The output folder exists and is not a folder.
    #[error("the output folder {0} exists and is not a folder")]
    NotAFolder(PathBuf),
}

/// A file found by the walk, before the output checks.
struct Found {
    input: PathBuf,
    output: PathBuf,
    /// The file's size, for the output-is-an-input check.
    size: u64,
    /// Whether it is converted (a file named as an input, or one that a format reads);
    /// else it is skipped.
    convert: bool,
    /// For a file below the output folder, found in an input folder that holds it: the
    /// file's path as this run names its outputs (the output folder joined with the file's
    /// place below it).
    in_output: Option<PathBuf>,
}

/// `found` with its outputs named apart (see [`name_apart`]) and without the files below the
/// output folder that this run writes: they are its outputs (the last run's, when the same
/// command runs again), not inputs, and are neither converted nor counted. Every other file
/// there is an input like any other.
///
/// An output is written at the place of its input below the input folder, and the output
/// folder lies below that input folder, so an output of a file below the output folder
/// lies deeper below it than that file: taking those files shallowest first, one depth at a
/// time, every output that could land at a file's place is named and known when that file
/// is decided.
fn name_outputs(mut found: Vec<Found>, extension: &str) -> Vec<Found> {
    let outside: Vec<usize> = (0..found.len()).filter(|&i| found[i].in_output.is_none()).collect();
    name_apart(&mut found, &outside, extension);
    let mut outputs: HashSet<PathBuf> = outside
        .iter()
        .filter(|&&i| found[i].convert)
        .map(|&i| output_key(&found[i].output))
        .collect();
    // (depth below the output folder, index), shallowest first.
    let mut below: Vec<(usize, usize)> = (0..found.len())
        .filter_map(|i| Some((found[i].in_output.as_ref()?.components().count(), i)))
        .collect();
    below.sort_by_key(|&(depth, _)| depth);
    let mut outputs_of_this_run = HashSet::new();
    for level in below.chunk_by(|a, b| a.0 == b.0) {
        let mut inputs = Vec::new();
        for &(_, index) in level {
            let place = found[index].in_output.as_deref().map(output_key).unwrap_or_default();
            if outputs.contains(&place) {
                outputs_of_this_run.insert(index);
            } else if found[index].convert {
                inputs.push(index);
            }
        }
        name_apart(&mut found, &inputs, extension);
        outputs.extend(inputs.iter().map(|&i| output_key(&found[i].output)));
    }
    found
        .into_iter()
        .enumerate()
        .filter(|(index, _)| !outputs_of_this_run.contains(index))
        .map(|(_, file)| file)
        .collect()
}

/// Names the outputs of the files `among` (indices into `found`) apart: every file whose
/// output another file would share gets its whole file name with `extension` instead of its
/// stem's, again until no two share an output or none can change (the module's rules). The
/// same file reached twice counts once; what is still shared is left for [`plan`] to refuse.
fn name_apart(found: &mut [Found], among: &[usize], extension: &str) {
    loop {
        let mut by_output: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for &index in among.iter().filter(|&&i| found[i].convert) {
            by_output
                .entry(output_key(&found[index].output))
                .or_default()
                .push(index);
        }
        let mut renamed = false;
        for group in by_output.values() {
            let first = &found[group[0]].input;
            let shared = group[1..]
                .iter()
                .any(|&i| found[i].input != *first && !crate::is_same_file(first, &found[i].input));
            if !shared {
                continue;
            }
            for &index in group {
                let long = found[index]
                    .output
                    .with_file_name(long_output_name(&found[index].input, extension));
                if found[index].output != long {
                    found[index].output = long;
                    renamed = true;
                }
            }
        }
        if !renamed {
            return;
        }
    }
}

/// Plans the conversion of `inputs` (files and folders) into the folder `out`, as `target`,
/// following the module's rules. `format` forces the inputs' format, as
/// [`crate::Document::open_as`] does (and makes a folder's every file an input).
///
/// Only what the request decides is an error here ([`PlanError`]); inputs that cannot be
/// read are listed in [`Plan::unreadable`], so that the others still convert.
pub fn plan(
    inputs: &[impl AsRef<Path>],
    out: &Path,
    target: Target,
    format: Option<Format>,
) -> std::result::Result<Plan, PlanError> {
    if out.exists() && !out.is_dir() {
        return Err(PlanError::NotAFolder(out.to_path_buf()));
    }
    let extension = target.output_extension();
    let mut plan = Plan::default();
    let mut found = Vec::new();
    for input in inputs {
        let input = input.as_ref();
        let metadata = match fs::metadata(input) {
            Ok(metadata) => metadata,
            Err(source) => {
                plan.unreadable.push(io_error(input, source));
                continue;
            }
        };
        if !metadata.is_dir() {
            found.push(Found {
                input: input.to_path_buf(),
                output: out.join(output_name(input, extension)),
                size: metadata.len(),
                convert: true,
                in_output: None,
            });
            continue;
        }
        // The folders still to list, each with its place below `input` and, for the output
        // folder and the folders below it, its place below the output folder; a stack, not
        // recursion, so a deep tree costs memory rather than the call stack.
        let mut folders = vec![(input.to_path_buf(), PathBuf::new(), None::<PathBuf>)];
        while let Some((folder, relative, in_output)) = folders.pop() {
            let mut entries = match fs::read_dir(&folder).and_then(|entries| entries.collect::<io::Result<Vec<_>>>()) {
                Ok(entries) => entries,
                Err(source) => {
                    plan.unreadable.push(io_error(&folder, source));
                    continue;
                }
            };
            entries.sort_by_key(fs::DirEntry::file_name);
            let mut subfolders = Vec::new();
            for entry in entries {
                let path = entry.path();
                let name = entry.file_name();
                // A symbolic link is followed to a file, never to a folder.
                let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
                let metadata = match fs::metadata(&path) {
                    Ok(metadata) => metadata,
                    // A link to nothing, or to a loop of links: nothing to convert, and no
                    // reason to fail the run.
                    Err(source) if is_link => {
                        plan.broken_links.push(BrokenLink {
                            target: fs::read_link(&path).unwrap_or_default(),
                            path: path.clone(),
                            source,
                        });
                        plan.skipped.push(path);
                        continue;
                    }
                    Err(source) => {
                        plan.unreadable.push(io_error(&path, source));
                        continue;
                    }
                };
                if metadata.is_dir() {
                    if is_link {
                        plan.skipped.push(path);
                    } else {
                        let below = match &in_output {
                            Some(place) => Some(place.join(&name)),
                            None => crate::is_same_file(&path, out).then(PathBuf::new),
                        };
                        subfolders.push((path, relative.join(&name), below));
                    }
                    continue;
                }
                // Pipes, sockets and devices are skipped: reading one could wait forever. So
                // are the temporary files of saves (`.NAME.XXXXXX.partial`).
                let convert = metadata.is_file()
                    && !animbin_core::format::is_partial_name(&name)
                    && (format.is_some() || is_input(&path));
                found.push(Found {
                    output: out.join(&relative).join(output_name(&path, extension)),
                    input: path,
                    size: metadata.len(),
                    convert,
                    in_output: in_output.as_ref().map(|place| out.join(place).join(&name)),
                });
            }
            // Popped in name order, so the jobs follow the tree's order.
            folders.extend(subfolders.into_iter().rev());
        }
    }
    let found = name_outputs(found, extension);
    // Every file the inputs reach (converted or skipped), by size: an existing output is
    // compared only with the inputs of its own size.
    let mut by_size: HashMap<u64, Vec<PathBuf>> = HashMap::new();
    for file in &found {
        by_size.entry(file.size).or_default().push(file.input.clone());
    }
    let mut outputs: HashMap<PathBuf, usize> = HashMap::new();
    for file in found {
        if !file.convert {
            plan.skipped.push(file.input);
            continue;
        }
        if let Some(&earlier) = outputs.get(&output_key(&file.output)) {
            let first: &Job = &plan.jobs[earlier];
            if first.input == file.input || crate::is_same_file(&first.input, &file.input) {
                continue;
            }
            return Err(PlanError::SameOutput {
                output: file.output,
                first: first.input.clone(),
                second: file.input,
            });
        }
        if let Ok(existing) = fs::metadata(&file.output) {
            let same_size = by_size.get(&existing.len()).map_or(&[][..], Vec::as_slice);
            if let Some(input) = same_size.iter().find(|input| crate::is_same_file(input, &file.output)) {
                return Err(PlanError::OutputIsInput {
                    output: file.output,
                    input: input.clone(),
                });
            }
        }
        outputs.insert(output_key(&file.output), plan.jobs.len());
        plan.jobs.push(Job {
            input: file.input,
            output: file.output,
        });
    }
    Ok(plan)
}

/// `input`'s stem with `extension`: an output's name.
fn output_name(input: &Path, extension: &str) -> PathBuf {
    let mut name = input.file_stem().unwrap_or(input.as_os_str()).to_os_string();
    name.push(".");
    name.push(extension);
    PathBuf::from(name)
}

/// `input`'s whole file name with `extension`: the name of an output that would otherwise
/// share its name with another input's.
fn long_output_name(input: &Path, extension: &str) -> PathBuf {
    let mut name = input.file_name().unwrap_or(input.as_os_str()).to_os_string();
    name.push(".");
    name.push(extension);
    PathBuf::from(name)
}

/// How outputs are told apart: by path, ignoring case where the file systems usually do.
fn output_key(output: &Path) -> PathBuf {
    if cfg!(any(windows, target_os = "macos")) {
        PathBuf::from(output.to_string_lossy().to_lowercase())
    } else {
        output.to_path_buf()
    }
}

fn io_error(path: &Path, source: io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether a file found in a folder is one that a format reads, judged by its first bytes
/// and name (see the module's rules). A file that cannot be read is taken, so that its
/// conversion fails and says why.
fn is_input(path: &Path) -> bool {
    let mut start = [0; 64];
    let mut len = 0;
    let Ok(mut file) = fs::File::open(path) else {
        return true;
    };
    while len < start.len() {
        match file.read(&mut start[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return true,
        }
    }
    let start = &start[..len];
    if Format::detect(start, Some(path)).is_some() {
        return true;
    }
    // JSON text is read when its name says it may be a dump (`.json`) or a format's file.
    let json_name = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        e.eq_ignore_ascii_case("json")
            || Format::ALL
                .iter()
                .any(|f| f.json_extensions().iter().any(|x| x.eq_ignore_ascii_case(e)))
    });
    json_name && start.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// What a successful [`convert_one`] reports.
#[derive(Debug, Clone, Default)]
pub struct Converted {
    /// What the target (or the scene model on the way) cannot hold, one line per kind, as
    /// [`crate::Conversion::report`].
    pub report: ConversionReport,
    /// Tracks of [`ConvertOptions::anims`] that name bones the input lacks.
    pub unmatched: Vec<UnmatchedTracks>,
}

/// How [`convert_one_with`] reads each input and saves each output: the same for every job.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileOptions {
    /// How the input is read (the most bytes of one input).
    pub read: ReadOptions,
    /// How the output is saved (whether a read-only output is replaced).
    pub save: SaveOptions,
}

/// [`convert_one_with`] the default [`FileOptions`]: inputs up to [`crate::MAX_INPUT_SIZE`],
/// read-only outputs refused.
pub fn convert_one(job: &Job, target: Target, format: Option<Format>, options: &ConvertOptions) -> Result<Converted> {
    convert_one_with(job, target, format, options, &FileOptions::default())
}

/// Converts one job: opens its input (as `format` when given) as `files.read` says,
/// converts it to `target` with `options`, makes the output's folder and saves the output
/// whole or not at all as `files.save` says.
///
/// `options` is the same for every job: its [`ConvertOptions::input`] and
/// [`ConvertOptions::output_dir`] are replaced by the job's (its other fields are cloned,
/// [`ConvertOptions::anims`] with them). A failure names the byte offset for a bad input
/// and the path for a file that cannot be read or written; either way nothing is written.
pub fn convert_one_with(
    job: &Job,
    target: Target,
    format: Option<Format>,
    options: &ConvertOptions,
    files: &FileOptions,
) -> Result<Converted> {
    let document = files
        .read
        .scope(|| Document::open_with(&job.input, format, &files.read))?;
    let folder = job.output.parent().filter(|p| !p.as_os_str().is_empty());
    let mut options = ConvertOptions {
        input: Some(job.input.clone()),
        output_dir: Some(folder.unwrap_or(Path::new(".")).to_path_buf()),
        ..options.clone()
    };
    // A folder's options are for the files they apply to: `--z-up`, `--scale` and
    // `--framerate` relate a game format to glTF, so a file already in the target's format
    // (a glb among SEAnims converted to glb) is written without them, with a note, where a
    // single conversion refuses them (`options::same_format`).
    let mut left_out = Vec::new();
    if target.format() == Some(document.format()) {
        let scene = &mut options.scene;
        if std::mem::take(&mut scene.z_up) {
            left_out.push("--z-up");
        }
        if std::mem::replace(&mut scene.unit_scale, 1.0) != 1.0 {
            left_out.push("--scale");
        }
        if scene.framerate.take().is_some() {
            left_out.push("--framerate");
        }
    }
    let mut conversion = crate::convert_owned(document, target, &options)?;
    if !left_out.is_empty() {
        conversion.report.note(format!(
            "{} not applied: this input is {} already (the option says how another format relates to glTF)",
            left_out.join(", "),
            target.name()
        ));
    }
    if let Some(folder) = folder {
        fs::create_dir_all(folder).map_err(|source| io_error(folder, source))?;
    }
    crate::save_with(&job.output, files.save, |writer| conversion.write(writer))?;
    Ok(Converted {
        report: conversion.report,
        unmatched: conversion.unmatched,
    })
}

/// The counts of a batch, shown as its summary line: `converted 12, failed 1, skipped 3`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Jobs whose output was written.
    pub converted: usize,
    /// Jobs that failed, and [`Plan::unreadable`] inputs.
    pub failed: usize,
    /// [`Plan::skipped`] files (the [`Plan::broken_links`] among them).
    pub skipped: usize,
}

impl Summary {
    /// The counts of a plan before any job ran: its skipped and unreadable files.
    pub fn of_plan(plan: &Plan) -> Self {
        Self {
            converted: 0,
            failed: plan.unreadable.len(),
            skipped: plan.skipped.len(),
        }
    }

    /// Counts one job's result.
    pub fn count<T>(&mut self, result: &Result<T>) {
        match result {
            Ok(_) => self.converted += 1,
            Err(_) => self.failed += 1,
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "converted {}, failed {}, skipped {}",
            self.converted, self.failed, self.skipped
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_take_the_stem_and_the_targets_extension() {
        let name = |input: &str, target: Target| output_name(Path::new(input), target.output_extension());
        assert_eq!(name("anims/walk.seanim", Target::Glb), Path::new("walk.glb"));
        assert_eq!(name("arm.dmf.json", Target::Dmf), Path::new("arm.dmf.dmf"));
        assert_eq!(name("x8an00.bin", Target::Sf3), Path::new("x8an00.bin"));
        assert_eq!(name("rig.semodel", Target::SeModelDraft), Path::new("rig.semodel"));
        assert_eq!(name("arm.dmf", Target::DmfJson), Path::new("arm.json"));
        assert_eq!(name("walk.seanim", Target::Dump), Path::new("walk.json"));
        for target in Target::ALL {
            assert!(!target.output_extension().is_empty(), "{target}");
        }
    }

    #[test]
    fn a_plan_takes_no_more_threads_than_it_has_jobs() {
        let job = |n: usize| Job {
            input: PathBuf::from(format!("{n}.seanim")),
            output: PathBuf::from(format!("{n}.glb")),
        };
        let many = |n: usize| std::num::NonZeroUsize::new(n);
        let mut plan = Plan::default();
        assert_eq!(plan.threads(many(4000)), 1);
        plan.jobs.push(job(0));
        assert_eq!(plan.threads(many(4000)), 1);
        assert_eq!(plan.threads(None), 1);
        plan.jobs.extend((1..3000).map(job));
        assert_eq!(plan.threads(many(2)), 2);
        assert_eq!(plan.threads(many(100_000)), crate::options::MAX_JOBS);
    }

    #[test]
    fn jobs_can_run_on_any_thread() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Job>();
        send_sync::<Document>();
        send_sync::<ConvertOptions>();
        send_sync::<Converted>();
        send_sync::<Error>();
    }

    #[test]
    fn the_summary_counts_results_and_the_plans_leftovers() {
        let plan = Plan {
            skipped: vec![PathBuf::from("skin.png")],
            unreadable: vec![io_error(Path::new("gone"), io::ErrorKind::NotFound.into())],
            ..Plan::default()
        };
        let mut summary = Summary::of_plan(&plan);
        summary.count(&Ok(()));
        summary.count(&Ok(()));
        summary.count::<()>(&Err(Error::Empty));
        assert_eq!(summary.to_string(), "converted 2, failed 2, skipped 1");
    }
}
