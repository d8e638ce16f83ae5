//! Texture files beside the input: the map names a scene's materials give are looked up
//! relative to the input's folder, and in its `_images/` and `textures/` folders, so that a
//! glTF can embed them.

use std::path::{Component, Path, PathBuf};

use std::io;

use animbin_core::format::TooLarge;
use animbin_core::images::{ImageFile, ImageFiles};
use animbin_core::scene::Scene;

use crate::{Error, Result};

/// The folders below the input's folder where exporters put textures (`_images/` is where
/// Greyhound and similar tools write a model's images, `textures/` the usual name).
const TEXTURE_FOLDERS: [&str; 2] = ["_images", "textures"];

/// The texture file a material's map `name` refers to, looked for as [`find_textures`]
/// does (relative to `folder`, then by its file name, then in `folder`'s `_images/` and
/// `textures/`); `None` when no such file exists. A name never leads out of `folder`.
pub fn find_texture(folder: &Path, name: &str) -> Option<PathBuf> {
    candidates(folder, name).into_iter().find(|p| p.is_file())
}

/// Looks for every map name of `scene` (see [`animbin_core::images::texture_names`]) in
/// `folder` ([`find_texture`]); URIs of files that cannot be embedded are made relative to
/// `output_folder`. A conversion to glTF does this for the input's folder.
pub fn find_textures(scene: &Scene, folder: &Path, output_folder: &Path) -> ImageFiles {
    // Without a limit nothing is too large: the search cannot fail.
    search(scene, folder, output_folder, u64::MAX, u64::MAX).unwrap_or_default()
}

/// [`find_textures`] for a conversion of the file `input`: the image files read count
/// against `limit` together with the input file (its size on disk), and one that would take
/// the total past it is an [`Error::Io`] naming it, of
/// [`animbin_core::format::TooLarge`] (the error of an input over the limit), before it is
/// read. Every byte read for one input counts.
pub fn find_textures_within(
    scene: &Scene,
    folder: &Path,
    output_folder: &Path,
    input: &Path,
    limit: u64,
) -> Result<ImageFiles> {
    let left = limit.saturating_sub(std::fs::metadata(input).map_or(0, |m| m.len()));
    search(scene, folder, output_folder, left, limit)
}

/// The search of [`find_textures`]: at most `left` bytes of image files are read, and one
/// that would take them past it is an error of `limit`'s.
fn search(scene: &Scene, folder: &Path, output_folder: &Path, mut left: u64, limit: u64) -> Result<ImageFiles> {
    let mut images = ImageFiles {
        searched: true,
        ..ImageFiles::default()
    };
    for name in animbin_core::images::texture_names(scene) {
        let Some(path) = find_texture(folder, &name) else {
            continue;
        };
        // Only an image glTF can embed is read whole: a name may point at any large file.
        let Ok(start) = read_start(&path) else {
            continue;
        };
        let bytes = match animbin_core::images::image_mime_type(&start) {
            Some(_) => match read_at_most(&path, left) {
                Ok(bytes) => Some(bytes),
                Err(e) if e.get_ref().is_some_and(|inner| inner.is::<TooLarge>()) => {
                    return Err(Error::Io {
                        source: io::Error::new(io::ErrorKind::FileTooLarge, TooLarge { limit }),
                        path,
                    });
                }
                Err(_) => continue,
            },
            None => None,
        };
        left -= bytes.as_ref().map_or(0, |b| b.len() as u64);
        let uri = relative_uri(output_folder, &path).unwrap_or_else(|| path.to_string_lossy().replace('\\', "/"));
        images.found.insert(name, ImageFile { bytes, uri });
    }
    Ok(images)
}

/// The file at `path` if it holds at most `left` bytes; else an error of [`TooLarge`] (of
/// `left`), before anything is read, or as soon as a file that grows passes it.
fn read_at_most(path: &Path, left: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let too_large = || io::Error::new(io::ErrorKind::FileTooLarge, TooLarge { limit: left });
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() > left {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(left.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > left {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The texture files of `given` (`(file name, bytes)`, as a browser has them) for the map
/// names of `scene`: a map name takes the file whose name is its file name (the last part of
/// the name, after either slash), compared exactly, else ignoring ASCII case (names written
/// on Windows). Files glTF cannot embed (neither PNG nor JPEG) are referred to by their
/// name. What finds no file is reported as not found, as for [`find_textures`].
pub fn given_textures(scene: &Scene, given: &[(String, Vec<u8>)]) -> ImageFiles {
    let mut images = ImageFiles {
        searched: true,
        ..ImageFiles::default()
    };
    let file_name = |name: &str| name.rsplit(['/', '\\']).next().unwrap_or(name).to_string();
    for name in animbin_core::images::texture_names(scene) {
        let wanted = file_name(&name);
        let found = given
            .iter()
            .find(|(n, _)| file_name(n) == wanted)
            .or_else(|| given.iter().find(|(n, _)| file_name(n).eq_ignore_ascii_case(&wanted)));
        let Some((given_name, bytes)) = found else {
            continue;
        };
        let bytes = animbin_core::images::image_mime_type(bytes).map(|_| bytes.clone());
        let uri = animbin_gltf::uri_from_name(&file_name(given_name)).unwrap_or_else(|| file_name(given_name));
        images.found.insert(name, ImageFile { bytes, uri });
    }
    images
}

/// The first bytes of a file, enough to tell its image format.
fn read_start(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut start = Vec::with_capacity(8);
    std::fs::File::open(path)?.take(8).read_to_end(&mut start)?;
    Ok(start)
}

/// Where a map name may be, in the order tried: the name relative to `folder`, then its file
/// name in `folder`, then the name and its file name in each of [`TEXTURE_FOLDERS`]. Game
/// tools write names with either slash, and often as absolute paths on the machine that
/// exported them; only the name's plain parts are used (no root, drive, `.` or `..`), so a
/// name never leads out of `folder`.
fn candidates(folder: &Path, name: &str) -> Vec<PathBuf> {
    let parts: Vec<&str> = name
        .split(['/', '\\'])
        .filter(|part| !part.is_empty() && *part != "." && *part != ".." && !part.ends_with(':'))
        .collect();
    let relative: PathBuf = parts.iter().collect();
    let file_name = parts.last().map(PathBuf::from);
    let mut paths = Vec::new();
    for base in std::iter::once(folder.to_path_buf()).chain(TEXTURE_FOLDERS.iter().map(|f| folder.join(f))) {
        if parts.len() > 1 {
            paths.push(base.join(&relative));
        }
        if let Some(file_name) = &file_name {
            paths.push(base.join(file_name));
        }
    }
    paths.dedup();
    paths
}

/// A relative URI from `from_folder` to `file` (both made absolute, symlinks resolved), its
/// parts percent-encoded; `None` when either cannot be resolved or they share no root (two
/// Windows drives).
pub(crate) fn relative_uri(from_folder: &Path, file: &Path) -> Option<String> {
    let from = std::fs::canonicalize(from_folder).ok()?;
    let to = std::fs::canonicalize(file).ok()?;
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    if from.first() != to.first() {
        return None;
    }
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    for part in &to[common..] {
        parts.push(animbin_gltf::uri_from_name(&part.as_os_str().to_string_lossy())?);
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_tried_beside_the_input_then_in_the_texture_folders() {
        let folder = Path::new("/models");
        let tried = candidates(folder, "tex\\body_c.png");
        assert_eq!(
            tried,
            [
                "/models/tex/body_c.png",
                "/models/body_c.png",
                "/models/_images/tex/body_c.png",
                "/models/_images/body_c.png",
                "/models/textures/tex/body_c.png",
                "/models/textures/body_c.png",
            ]
            .map(PathBuf::from)
        );
        // A path from the machine that exported the file, or one that climbs out, is looked
        // for below the folder only.
        assert_eq!(
            candidates(folder, "C:\\game\\..\\b.tga"),
            [
                "/models/game/b.tga",
                "/models/b.tga",
                "/models/_images/game/b.tga",
                "/models/_images/b.tga",
                "/models/textures/game/b.tga",
                "/models/textures/b.tga",
            ]
            .map(PathBuf::from)
        );
        let plain = candidates(folder, "a.png");
        assert_eq!(
            plain,
            ["/models/a.png", "/models/_images/a.png", "/models/textures/a.png"].map(PathBuf::from)
        );
    }

    #[test]
    fn uris_climb_out_of_the_output_folder() {
        let dir = tempfile::tempdir().unwrap();
        let textures = dir.path().join("in/_images");
        std::fs::create_dir_all(&textures).unwrap();
        std::fs::create_dir_all(dir.path().join("out/deep")).unwrap();
        let file = textures.join("a b.dds");
        std::fs::write(&file, b"DDS ").unwrap();
        assert_eq!(
            relative_uri(&dir.path().join("out/deep"), &file).as_deref(),
            Some("../../in/_images/a%20b.dds")
        );
        assert_eq!(
            relative_uri(&dir.path().join("in"), &file).as_deref(),
            Some("_images/a%20b.dds")
        );
        assert_eq!(relative_uri(&dir.path().join("missing"), &file), None);
    }
}
