//! What a changing input, a special file or a failing output does to the library: an error
//! naming the file, never a crash, an unbounded read or a fault blamed on the wrong file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use animbin::core::format::{self, ReadOnly, SaveOptions, TooLarge};
use animbin::seanim::SeAnim;
use animbin::{ConvertOptions, Document, Error, FileFormat, Target};
use animbin_testing::listing;
use animbin_testing::seanim::big_seanim;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

#[test]
fn a_file_truncated_or_rewritten_while_it_is_read_is_an_error_never_a_crash() {
    // With the input memory-mapped, a truncation during the parse ended the process with
    // SIGBUS (this test binary, or Python and Blender with it).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.seanim");
    let whole = big_seanim(200, 500);
    assert!(whole.len() > 8 << 20, "{} bytes", whole.len());
    std::fs::write(&path, &whole).unwrap();
    let stop = AtomicBool::new(false);
    let (mut opened, mut failed) = (0, 0);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            let mut round = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // Shorter, empty, then whole again (written in place, so a reader may see it
                // half rewritten).
                let _ = file.set_len(whole.len() as u64 / (2 + round % 5));
                std::thread::sleep(Duration::from_micros(200));
                let _ = file.set_len(0);
                std::thread::sleep(Duration::from_micros(200));
                let _ = std::os::unix::fs::FileExt::write_all_at(&file, &whole, 0);
                round += 1;
            }
        });
        let until = Instant::now() + Duration::from_secs(3);
        while Instant::now() < until {
            for result in [
                Document::open(&path).map(drop),
                Document::info_of_file(&path, None).map(drop),
            ] {
                match result {
                    Ok(()) => opened += 1,
                    Err(e) => {
                        // A clean error: the file's reason, or the bytes it had at that moment.
                        assert!(!e.to_string().is_empty());
                        failed += 1;
                    }
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    assert!(opened + failed > 0);
}

#[test]
fn a_special_input_is_read_up_to_the_limit_and_no_further() {
    // /dev/zero never ends: it is refused once past the limit, having held no more than it.
    let error = format::read_file(Path::new("/dev/zero"), 3 << 20).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
    let inner = error.get_ref().and_then(|e| e.downcast_ref::<TooLarge>());
    assert_eq!(inner, Some(&TooLarge { limit: 3 << 20 }));
    assert_eq!(
        error.to_string(),
        "larger than the limit of 3145728 bytes (3 MiB) for one input"
    );
    // A regular file over the limit is refused before it is read.
    let sample = testdata().join("sample.seanim");
    let error = format::read_file(&sample, 100).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
    assert_eq!(
        &format::read_file(&sample, 1 << 20).unwrap()[..],
        &std::fs::read(&sample).unwrap()[..]
    );
    assert_eq!(animbin::MAX_INPUT_SIZE, 4 << 30);
}

#[test]
fn a_pipe_is_read_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let bytes = std::fs::read(testdata().join("sample.seanim")).unwrap();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            // In pieces, as a pipe delivers them.
            for piece in bytes.chunks(7) {
                writer.write_all(piece).unwrap();
            }
        });
        let document = Document::open(&fifo).unwrap();
        assert_eq!(document.to_bytes(Target::SeAnim).unwrap(), bytes);
    });
}

/// A tmpfs of `kib` KiB mounted on a new folder (root only); `None` where it cannot be.
struct SmallDisk(tempfile::TempDir);

impl SmallDisk {
    fn mount(kib: u32) -> Option<Self> {
        let dir = tempfile::tempdir().ok()?;
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .ok()?;
        status.success().then_some(Self(dir))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(self.0.path()).status();
    }
}

#[test]
fn a_full_disk_is_an_error_of_the_output_not_of_the_format() {
    let input = big_seanim(40, 300);
    let document = Document::parse(&input, None).unwrap();
    let conversion = animbin::convert(&document, Target::SeAnim, &ConvertOptions::default()).unwrap();
    // /dev/full: written straight into (a device is not replaced), and full.
    let error = conversion.save("/dev/full").unwrap_err();
    let Error::Io { path, source } = &error else {
        panic!("an output error, not {error:?}")
    };
    assert_eq!(path, Path::new("/dev/full"));
    assert_eq!(source.kind(), std::io::ErrorKind::StorageFull, "{source}");
    assert_eq!((error.format(), error.offset()), (None, None));
    // The same through a format crate's own save.
    let anim = SeAnim::read(&input).unwrap();
    let error = anim.save("/dev/full").unwrap_err();
    assert!(
        matches!(&error, format::FileError::Io { path, .. } if path == Path::new("/dev/full")),
        "{error:?}"
    );
    // A file system that fills up part-way through the temporary file.
    let Some(disk) = SmallDisk::mount(256) else {
        animbin_testing::require("a small tmpfs for a disk that fills up (mounting one needs root)");
        return;
    };
    let output = disk.path().join("out.seanim");
    let error = conversion.save(&output).unwrap_err();
    let message = error.to_string();
    let Error::Io { path, source } = &error else {
        panic!("an output error, not {error:?}")
    };
    assert_eq!(path, &output);
    assert_eq!(source.kind(), std::io::ErrorKind::StorageFull);
    assert_eq!(message, format!("{}: {source}", output.display()));
    assert!(!message.contains(".partial") && !message.contains("byte"), "{message}");
    assert_eq!(listing(disk.path()), Vec::<String>::new(), "no temporary file left");
}

#[test]
fn an_error_of_the_content_stays_the_contents() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.seanim");
    let error = animbin::save(&output, |w| {
        w.write_all(b"half").map_err(Error::Write)?;
        Err(Error::Empty)
    })
    .unwrap_err();
    assert!(matches!(error, Error::Empty), "{error:?}");
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

#[test]
fn a_symbolic_link_is_written_through_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("real.seanim");
    std::fs::write(&target, b"old").unwrap();
    // A chain of two links, the first relative.
    let absolute = dir.path().join("absolute.seanim");
    std::os::unix::fs::symlink(&target, &absolute).unwrap();
    let link = dir.path().join("link.seanim");
    std::os::unix::fs::symlink("absolute.seanim", &link).unwrap();
    animbin::save(&link, |w| w.write_all(b"new").map_err(Error::Write)).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::symlink_metadata(&absolute).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"new");
    assert_eq!(listing(dir.path()), ["absolute.seanim", "link.seanim"]);
    assert_eq!(listing(elsewhere.path()), ["real.seanim"]);
    // A dangling link makes its target.
    let dangling = dir.path().join("dangling.seanim");
    std::os::unix::fs::symlink(elsewhere.path().join("new.seanim"), &dangling).unwrap();
    animbin::save(&dangling, |w| w.write_all(b"made").map_err(Error::Write)).unwrap();
    assert_eq!(std::fs::read(elsewhere.path().join("new.seanim")).unwrap(), b"made");
    assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
}

#[test]
fn a_read_only_destination_is_refused_unless_forced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.seanim");
    std::fs::write(&output, b"keep").unwrap();
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o444)).unwrap();
    let write = |w: &mut dyn Write| w.write_all(b"new").map_err(Error::Write);
    let error = animbin::save(&output, write).unwrap_err();
    let Error::Io { path, source } = &error else {
        panic!("an output error, not {error:?}")
    };
    assert_eq!(path, &output);
    assert_eq!(source.kind(), std::io::ErrorKind::PermissionDenied);
    assert!(source.get_ref().is_some_and(|e| e.is::<ReadOnly>()));
    assert_eq!(
        error.to_string(),
        format!("{}: the file is read-only and was left as it is", output.display())
    );
    assert_eq!(std::fs::read(&output).unwrap(), b"keep");
    // Through a link, too.
    let link = dir.path().join("link.seanim");
    std::os::unix::fs::symlink(&output, &link).unwrap();
    assert!(animbin::save(&link, write).is_err());
    assert_eq!(std::fs::read(&output).unwrap(), b"keep");
    // Forced: replaced, its permissions kept.
    animbin::save_with(&link, SaveOptions { force: true }, write).unwrap();
    assert_eq!(std::fs::read(&output).unwrap(), b"new");
    assert_eq!(std::fs::metadata(&output).unwrap().permissions().mode() & 0o777, 0o444);
    assert_eq!(listing(dir.path()), ["link.seanim", "out.seanim"]);
}

#[test]
fn temporary_names_are_told_apart() {
    use std::ffi::OsStr;
    assert!(format::is_partial_name(OsStr::new(".walk.seanim.Ab12Cd.partial")));
    for name in ["walk.partial", ".partial", "..partial", ".walk.seanim", "walk.seanim"] {
        assert!(!format::is_partial_name(OsStr::new(name)), "{name}");
    }
}
