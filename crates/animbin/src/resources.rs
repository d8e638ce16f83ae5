//! The files a glTF names beside itself: a `.gltf` exported "separate" (Blender's *glTF
//! Separate*) keeps its buffers in `name.bin` and its images in image files, by URIs
//! relative to its folder. [`with_external_files`] reads them from the folder of the file
//! opened and embeds them ([`animbin_gltf::embed_external_files`]), so that the document
//! holds the self-contained glTF the files stand for: its scene, summary, dump and outputs
//! are the embedded file's (writing it as `.gltf` writes one file, not the files beside it).
//!
//! Embedding rather than keeping the files beside the document is what keeps one glTF
//! document one byte string (the format's reader, summary, dump and repacking take bytes);
//! the cost is a base64 copy of the files in memory, a third larger than they are, and one
//! more pass over the JSON when the file names external files.
//!
//! Only files in the glTF file's folder (or below it) are read: a URI with `..`, an
//! absolute path or a scheme other than `data:` is refused ([`animbin_gltf::external_file_name`]),
//! and so is anything that is not a regular file (a pipe could block the read).

use std::borrow::Cow;
use std::fs;
use std::io;
use std::path::Path;

use animbin_core::format::{TooLarge, read_file};

use crate::document::looks_like_json;
use crate::{Format, Result};

/// `bytes`, read from the file at `path`, with the external files of a glTF embedded when
/// it is one that names them: a GLB, or JSON read as glTF (`format` forces it, else the
/// name `*.gltf` says so). Every other input is given back as it is, borrowed, and so is a
/// glTF that names no external file.
///
/// An external buffer that cannot be read is an error naming its URI
/// ([`animbin_gltf::Error::External`]); an image that cannot be read stays a reference by
/// name (see [`animbin_gltf::embed_external_files`]). The files beside it count against
/// `limit` with the input itself: one that would take the total past it is not read, an
/// error of the limit's ([`animbin_core::format::TooLarge`]) as for a larger input.
pub(crate) fn with_external_files<'a>(
    bytes: &'a [u8],
    path: &Path,
    format: Option<Format>,
    limit: u64,
) -> Result<Cow<'a, [u8]>> {
    let gltf_name = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    let is_gltf = match format {
        Some(format) => format == Format::Gltf,
        None => animbin_gltf::is_glb(bytes) || (gltf_name && looks_like_json(bytes)),
    };
    if !is_gltf {
        return Ok(Cow::Borrowed(bytes));
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut left = limit.saturating_sub(bytes.len() as u64);
    Ok(animbin_gltf::embed_external_files(bytes, |name| {
        let file = read_beside(folder, name, left).map_err(|e| over_limit(e, limit))?;
        left -= file.len() as u64;
        Ok(file)
    })?)
}

/// `error`, with the whole `limit` in the message when it is a file over what was left of it.
pub(crate) fn over_limit(error: io::Error, limit: u64) -> io::Error {
    if error.get_ref().is_some_and(|inner| inner.is::<TooLarge>()) {
        io::Error::new(io::ErrorKind::FileTooLarge, TooLarge { limit })
    } else {
        error
    }
}

/// The file `name` (`/`-separated, already checked to stay below the folder) in `folder`.
/// The name cannot leave the folder, but a symbolic link on the way can: where the path
/// lands, every link resolved, is what is read, and it must be below the folder too. At most
/// `left` bytes are read: a larger file is an error of [`TooLarge`] before it is read.
fn read_beside(folder: &Path, name: &str, left: u64) -> io::Result<Vec<u8>> {
    let path = name.split('/').fold(folder.to_path_buf(), |path, part| path.join(part));
    let real = fs::canonicalize(&path)?;
    if !real.starts_with(fs::canonicalize(folder)?) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "a symbolic link leads it to {}, outside the glTF file's folder; only files in that folder are read",
                real.display()
            ),
        ));
    }
    if !fs::metadata(&real)?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(read_file(&real, left)?.into_vec())
}

#[cfg(test)]
mod tests {
    //! A `.gltf` exported "separate" (Blender's *glTF Separate*: `model.gltf`, its buffer in
    //! `model.bin`, its images in files beside it) opens from its path as the embedded file it
    //! stands for; URIs that leave its folder or name a scheme other than `data:` are refused,
    //! named, even when the file they name exists.

    use std::path::PathBuf;

    use serde_json::{Value, json};

    use super::*;
    use crate::{ConvertOptions, Document, SceneOptions, Target};

    #[test]
    fn files_are_read_below_the_folder_and_only_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("tex")).unwrap();
        fs::write(dir.path().join("tex/a b.png"), b"png").unwrap();
        assert_eq!(read_beside(dir.path(), "tex/a b.png", u64::MAX).unwrap(), b"png");
        assert_eq!(
            read_beside(dir.path(), "tex", u64::MAX).unwrap_err().to_string(),
            "not a regular file"
        );
        assert_eq!(
            read_beside(dir.path(), "none.bin", u64::MAX).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    /// A link in the folder to a file outside it (`model.bin -> /secret`) is refused; a link
    /// that stays inside is followed.
    #[cfg(unix)]
    #[test]
    fn links_that_lead_out_of_the_folder_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.bin"), b"secret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("real.bin"), b"mine").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.bin"), dir.path().join("model.bin")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink("real.bin", dir.path().join("alias.bin")).unwrap();
        for name in ["model.bin", "elsewhere/secret.bin"] {
            let error = read_beside(dir.path(), name, u64::MAX).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::PermissionDenied, "{name}");
            assert!(error.to_string().contains("outside the glTF file's folder"), "{error}");
        }
        assert_eq!(read_beside(dir.path(), "alias.bin", u64::MAX).unwrap(), b"mine");
        // Through a glTF: the buffer is named, and its bytes go nowhere.
        let gltf = br#"{"asset": {"version": "2.0"}, "buffers": [{"uri": "model.bin", "byteLength": 6}]}"#;
        let error = with_external_files(gltf, &dir.path().join("a.gltf"), None, u64::MAX)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("gltf: /buffers/0/uri: cannot read \"model.bin\": "),
            "{error}"
        );
        assert!(error.contains("outside the glTF file's folder"), "{error}");
    }

    /// A `.bin` longer than its buffer's byteLength reads (the bytes past it are in no view)
    /// and validate says so.
    #[test]
    fn a_bin_longer_than_its_byte_length_is_reported_by_validate() {
        let dir = tempfile::tempdir().unwrap();
        let gltf = write_separate(&sample_glb(), dir.path());
        assert!(Document::open(&gltf).unwrap().validate().is_empty());
        let mut bin = fs::read(dir.path().join("model.bin")).unwrap();
        let length = bin.len();
        bin.extend_from_slice(&[7; 100]);
        fs::write(dir.path().join("model.bin"), &bin).unwrap();
        let problems = Document::open(&gltf).unwrap().validate();
        assert_eq!(problems.len(), 1, "{problems:?}");
        let line = problems[0].to_string();
        assert!(line.contains("/buffers/0/byteLength"), "{line}");
        assert!(
            line.contains(&format!("byteLength {length} but the buffer holds {}", length + 100)),
            "{line}"
        );
    }

    #[test]
    fn inputs_that_are_not_gltf_are_given_back_untouched() {
        let json = br#"{"asset": {"version": "2.0"}, "buffers": [{"uri": "gone.bin", "byteLength": 4}]}"#;
        let at = |name: &str, format| with_external_files(json, Path::new(name), format, u64::MAX);
        // A dump or another format's JSON named otherwise is not looked into.
        assert!(matches!(at("a.json", None), Ok(Cow::Borrowed(_))));
        assert!(matches!(at("a.gltf", Some(Format::AnimX)), Ok(Cow::Borrowed(_))));
        // As glTF, by its name or by force, the missing buffer is named.
        for (name, format) in [("a.gltf", None), ("a.GLTF", None), ("a.json", Some(Format::Gltf))] {
            let error = at(name, format).unwrap_err().to_string();
            assert!(
                error.starts_with("gltf: /buffers/0/uri: cannot read \"gone.bin\": "),
                "{error}"
            );
        }
    }

    fn testdata(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
    }

    fn scene(doc: &Document) -> crate::Scene {
        doc.to_scene(&SceneOptions::default(), &mut Default::default()).unwrap()
    }

    /// The library's GLB of the DMF sample (a model with embedded PNG textures and an
    /// animation).
    fn sample_glb() -> Vec<u8> {
        let doc = Document::open(testdata("sample.dmf")).unwrap();
        let glb = crate::convert(&doc, Target::Glb, &ConvertOptions::default()).unwrap();
        let bytes = glb.to_bytes().unwrap();
        assert!(!scene(&Document::parse(&bytes, None).unwrap()).textures.is_empty());
        bytes
    }

    /// Writes `glb` split apart into `dir` as a separate exporter does: `model.gltf` (pretty
    /// JSON), `model.bin` and each image in `textures/<name>.png`, named by relative URIs.
    fn write_separate(glb: &[u8], dir: &Path) -> PathBuf {
        let (mut json, bin) = animbin_gltf::split(glb).unwrap();
        let bin = bin.unwrap();
        fs::create_dir_all(dir.join("textures")).unwrap();
        let views = json["bufferViews"].clone();
        for (i, image) in json["images"].as_array_mut().unwrap().iter_mut().enumerate() {
            let view = &views[image["bufferView"].as_u64().unwrap() as usize];
            let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            let end = start + view["byteLength"].as_u64().unwrap() as usize;
            let name = format!("tex {i}.png");
            fs::write(dir.join("textures").join(&name), &bin[start..end]).unwrap();
            let image = image.as_object_mut().unwrap();
            image.remove("bufferView");
            image.remove("mimeType");
            image.insert("uri".into(), json!(format!("textures/tex%20{i}.png")));
        }
        json["buffers"][0]["uri"] = json!("model.bin");
        fs::write(dir.join("model.bin"), &bin).unwrap();
        let path = dir.join("model.gltf");
        fs::write(&path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
        path
    }

    #[test]
    fn a_separate_gltf_opens_as_its_embedded_file() {
        let dir = tempfile::tempdir().unwrap();
        let glb = sample_glb();
        let path = write_separate(&glb, dir.path());
        let embedded = Document::parse(&glb, None).unwrap();

        let doc = Document::open(&path).unwrap();
        assert_eq!(doc.format(), Format::Gltf);
        assert_eq!(scene(&doc), scene(&embedded));
        // Written back it is one file, whole: its own form holds the files as data: URIs.
        let own = doc.to_bytes(Target::Gltf).unwrap();
        let (json, _) = animbin_gltf::split(&own).unwrap();
        for resource in json["buffers"]
            .as_array()
            .unwrap()
            .iter()
            .chain(json["images"].as_array().unwrap())
        {
            assert!(resource["uri"].as_str().unwrap().starts_with("data:"), "{resource}");
        }
        assert_eq!(scene(&Document::parse(&own, None).unwrap()), scene(&embedded));
        // A conversion and the summary see the same file.
        let converted = crate::convert(&doc, Target::Glb, &ConvertOptions::for_input(&path)).unwrap();
        assert_eq!(scene(converted.document()), scene(&embedded));
        let info = serde_json::to_value(Document::info_of_file(&path, None).unwrap()).unwrap();
        let embedded_info = serde_json::to_value(embedded.info()).unwrap();
        for count in ["mesh_count", "image_count", "animation_count", "node_count"] {
            assert!(info[count].as_u64().unwrap() > 0, "{count}");
            assert_eq!(info[count], embedded_info[count], "{count}");
        }

        // The same bytes without their path cannot reach their files: named, not guessed.
        let error = Document::parse(&fs::read(&path).unwrap(), None).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("gltf: /buffers/0/uri: expected an embedded buffer"),
            "{error}"
        );
        assert!(
            error.to_string().ends_with("found the external file \"model.bin\""),
            "{error}"
        );
    }

    #[test]
    fn a_missing_buffer_file_is_an_error_naming_its_uri() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_separate(&sample_glb(), dir.path());
        fs::remove_file(dir.path().join("model.bin")).unwrap();
        let error = Document::open(&path).unwrap_err();
        assert_eq!(error.format(), Some(Format::Gltf));
        let message = error.to_string();
        assert!(
            message.starts_with("gltf: /buffers/0/uri: cannot read \"model.bin\": No such file"),
            "{message}"
        );
        // A missing image is a texture file not found: the file still opens, its material
        // naming the image.
        let path = write_separate(&sample_glb(), dir.path());
        fs::remove_file(dir.path().join("textures/tex 0.png")).unwrap();
        let doc = Document::open(&path).unwrap();
        assert_eq!(
            scene(&doc).textures.len(),
            scene(&Document::parse(&sample_glb(), None).unwrap()).textures.len() - 1
        );
    }

    #[test]
    fn uris_that_leave_the_folder_or_name_a_scheme_are_refused_with_their_uri() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("model");
        let path = write_separate(&sample_glb(), &inner);
        // The file the URI climbs to exists: it is still not read.
        fs::copy(inner.join("model.bin"), dir.path().join("x.bin")).unwrap();
        let mut json: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        for (uri, reason) in [
            (
                "../x.bin",
                "it leaves the glTF file's folder (a .. part); only files in that folder are read",
            ),
            (
                "/etc/passwd",
                "an absolute path; only files in the glTF file's folder are read",
            ),
            (
                "http://example.com/model.bin",
                "the scheme http: is not read; only data: URIs and files in the glTF file's folder are",
            ),
        ] {
            json["buffers"][0]["uri"] = json!(uri);
            fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
            let error = Document::open(&path).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("gltf: /buffers/0/uri: cannot read {uri:?}: {reason}")
            );
        }
    }
}
