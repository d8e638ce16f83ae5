//! The formats animbin reads and the targets it writes, by name, extension and magic.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A file format that animbin reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Format {
    /// SEAnim v1 (`.seanim`), magic `SEAnim`.
    SeAnim,
    /// SEModel v1 (`.semodel`), magic `SEModel`, either layout.
    SeModel,
    /// Resonite AnimX (`.animx`, magic `\x05AnimX`) and its JSON twin AnimJ (`.animj`).
    AnimX,
    /// Shining Force III battle animations (`x8an*.bin`): no magic, recognised by name.
    Sf3,
    /// The Dash Model Format 1.5 (`.dmf`, magic `DASH`) and its JSON form.
    Dmf,
    /// glTF 2.0 (`.gltf` JSON, `.glb` binary with magic `glTF`).
    Gltf,
    /// Cast (`.cast`), magic `cast`.
    Cast,
}

impl Format {
    /// Every format, in detection order: formats with magic before the one recognised by
    /// its file name.
    pub const ALL: [Format; 7] = [
        Format::AnimX,
        Format::Gltf,
        Format::Dmf,
        Format::Cast,
        Format::SeAnim,
        Format::SeModel,
        Format::Sf3,
    ];

    /// The short name used by `--format`, `info --json` and dumps: `"seanim"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::SeAnim => "seanim",
            Self::SeModel => "semodel",
            Self::AnimX => "animx",
            Self::Sf3 => "sf3",
            Self::Dmf => "dmf",
            Self::Gltf => "gltf",
            Self::Cast => "cast",
        }
    }

    /// The format called `name` (as [`Format::name`] gives it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format's targets; the first is the one a document of the format is written as
    /// when nothing else is asked.
    pub fn targets(self) -> &'static [Target] {
        match self {
            Self::SeAnim => &[Target::SeAnim],
            Self::SeModel => &[Target::SeModel, Target::SeModelDeployed, Target::SeModelDraft],
            Self::AnimX => &[Target::AnimX, Target::AnimJ],
            Self::Sf3 => &[Target::Sf3],
            Self::Dmf => &[Target::Dmf, Target::DmfJson],
            Self::Gltf => &[Target::Glb, Target::Gltf],
            Self::Cast => &[Target::Cast],
        }
    }

    /// The format of a binary file judged by its magic bytes or, for x8an files (which have
    /// none), by `name`: `x8an*.bin` in any case. JSON inputs are told apart by
    /// [`crate::Document::parse`], which reads them.
    pub fn detect(bytes: &[u8], name: Option<&Path>) -> Option<Self> {
        if bytes.starts_with(animbin_animx::MAGIC) {
            Some(Self::AnimX)
        } else if animbin_gltf::is_glb(bytes) {
            Some(Self::Gltf)
        } else if animbin_dmf::has_magic(bytes) {
            Some(Self::Dmf)
        } else if animbin_cast::has_magic(bytes) {
            Some(Self::Cast)
        } else if bytes.starts_with(animbin_seanim::MAGIC) {
            Some(Self::SeAnim)
        } else if bytes.starts_with(&animbin_semodel::MAGIC) {
            Some(Self::SeModel)
        } else if name.is_some_and(is_x8an_name) {
            Some(Self::Sf3)
        } else {
            None
        }
    }
}

/// `x8an*.bin`, in any case: the only sign of a Shining Force III battle animation.
pub fn is_x8an_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_ascii_lowercase)
        .is_some_and(|n| n.starts_with("x8an") && n.ends_with(".bin"))
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        Self::from_name(name).ok_or_else(|| UnknownName {
            kind: "format",
            name: name.to_string(),
            known: Self::ALL.iter().map(|f| f.name()).collect(),
        })
    }
}

/// A way to write a document: a format and the form it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Target {
    /// SEAnim (`.seanim`).
    SeAnim,
    /// SEModel in the layout the document was read in, or the deployed layout for a model
    /// built from a scene (`.semodel`).
    SeModel,
    /// SEModel in the deployed layout that every tool reads.
    SeModelDeployed,
    /// SEModel in the seed's draft layout.
    SeModelDraft,
    /// AnimX binary (`.animx`).
    AnimX,
    /// AnimJ, AnimX's JSON twin (`.animj`).
    AnimJ,
    /// A Shining Force III x8an file (no extension selects it: every x8an file is a `.bin`).
    Sf3,
    /// DMF binary (`.dmf`).
    Dmf,
    /// DMF's JSON form (no extension selects it: `.json` is an animbin dump).
    DmfJson,
    /// glTF JSON with the buffer embedded (`.gltf`).
    Gltf,
    /// Binary glTF (`.glb`).
    Glb,
    /// Cast (`.cast`).
    Cast,
    /// An animbin dump (`.json`): the whole document as JSON, converted back byte for byte.
    Dump,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 13] = [
        Target::SeAnim,
        Target::SeModel,
        Target::SeModelDeployed,
        Target::SeModelDraft,
        Target::AnimX,
        Target::AnimJ,
        Target::Sf3,
        Target::Dmf,
        Target::DmfJson,
        Target::Gltf,
        Target::Glb,
        Target::Cast,
        Target::Dump,
    ];

    /// The name given to `--to`: `"seanim"`, `"semodel-draft"`, `"json"` for a dump.
    pub const fn name(self) -> &'static str {
        match self {
            Self::SeAnim => "seanim",
            Self::SeModel => "semodel",
            Self::SeModelDeployed => "semodel-deployed",
            Self::SeModelDraft => "semodel-draft",
            Self::AnimX => "animx",
            Self::AnimJ => "animj",
            Self::Sf3 => "sf3",
            Self::Dmf => "dmf",
            Self::DmfJson => "dmf-json",
            Self::Gltf => "gltf",
            Self::Glb => "glb",
            Self::Cast => "cast",
            Self::Dump => "json",
        }
    }

    /// The output file extension (without the dot) that selects this target, if any.
    pub const fn extension(self) -> Option<&'static str> {
        match self {
            Self::SeModelDeployed | Self::SeModelDraft | Self::Sf3 | Self::DmfJson => None,
            other => Some(other.name()),
        }
    }

    /// The format a document takes when written as this target; `None` for a dump, which
    /// keeps the source's format.
    pub const fn format(self) -> Option<Format> {
        Some(match self {
            Self::SeAnim => Format::SeAnim,
            Self::SeModel | Self::SeModelDeployed | Self::SeModelDraft => Format::SeModel,
            Self::AnimX | Self::AnimJ => Format::AnimX,
            Self::Sf3 => Format::Sf3,
            Self::Dmf | Self::DmfJson => Format::Dmf,
            Self::Gltf | Self::Glb => Format::Gltf,
            Self::Cast => Format::Cast,
            Self::Dump => return None,
        })
    }

    /// The target called `name` (as [`Target::name`] gives it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The target that an output file's extension selects, in any case.
    pub fn from_extension(extension: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.extension().is_some_and(|e| e.eq_ignore_ascii_case(extension)))
    }

    /// The target that `path`'s extension selects.
    pub fn from_path(path: &Path) -> Option<Self> {
        path.extension().and_then(|e| e.to_str()).and_then(Self::from_extension)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        Self::from_name(name).ok_or_else(|| UnknownName {
            kind: "output format",
            name: name.to_string(),
            known: Self::ALL.iter().map(|t| t.name()).collect(),
        })
    }
}

/// A format or target name that animbin does not know, with the names it does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} \"{name}\"; valid names: {}", known.join(", "))]
pub struct UnknownName {
    /// `"format"` or `"output format"`.
    pub kind: &'static str,
    /// The name given.
    pub name: String,
    /// Every valid name.
    pub known: Vec<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_x8an_bin_names_are_detected() {
        for name in ["x8an00.bin", "X8AN12.BIN", "dir/x8an.bin", "x8anxx.Bin"] {
            assert!(is_x8an_name(Path::new(name)), "{name}");
        }
        for name in [
            "x8pc00.bin",
            "x8an00.bin.json",
            "ax8an00.bin",
            "x8an00",
            "x8an00.seanim",
        ] {
            assert!(!is_x8an_name(Path::new(name)), "{name}");
        }
    }

    #[test]
    fn names_and_extensions_select_their_targets() {
        for target in Target::ALL {
            assert_eq!(target.name().parse::<Target>(), Ok(target));
            if let Some(ext) = target.extension() {
                assert_eq!(Target::from_extension(&ext.to_uppercase()), Some(target));
            }
        }
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
            assert!(format.targets().iter().all(|t| t.format() == Some(format)));
        }
        assert_eq!(Target::from_path(Path::new("a/b.json")), Some(Target::Dump));
        assert_eq!(Target::from_path(Path::new("x8an00.bin")), None);
    }

    #[test]
    fn an_unknown_name_lists_the_valid_ones() {
        let err = "fbx".parse::<Target>().unwrap_err().to_string();
        assert!(
            err.starts_with("unknown output format \"fbx\"; valid names: seanim, semodel"),
            "{err}"
        );
        assert!(err.contains("glb") && err.contains("gltf"), "{err}");
    }
}
