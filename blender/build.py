"""Builds the Blender extension's zip: blender/dist/animbin_io-<version>.zip.

    python blender/build.py [--wheel target/wheels/animbin-*.whl ...] [--out blender/dist]

Copies the animbin wheels (by default every ``animbin-*.whl`` in target/wheels, where
``maturin build -m crates/python/Cargo.toml -o target/wheels`` puts them) into
``blender/animbin_io/wheels/``, writes their names and platforms into the manifest of the
copy that is zipped, and zips the folder. When Blender's own extension tool is at hand
(``blender_ext.py``, which ships inside Blender and inside the ``bpy`` wheel, and runs
under any Python 3.11), it builds the zip and so validates the manifest and the wheels;
otherwise the zip is made here the way that tool makes it (the folder's files at the
zip's root). The result installs with Edit > Preferences > Get Extensions > Install from
Disk.

One wheel per platform: bundle the Linux, Windows and macOS wheels together and the zip
installs on each (Blender picks the wheel that fits). Only the Python standard library is
needed.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCE = os.path.join(HERE, "animbin_io")
MANIFEST = "blender_manifest.toml"

# A wheel's platform tag -> Blender's platform name.
PLATFORMS = (
    (re.compile(r"manylinux.*_x86_64|linux_x86_64"), "linux-x64"),
    (re.compile(r"manylinux.*_aarch64|linux_aarch64"), "linux-arm64"),
    (re.compile(r"win_amd64"), "windows-x64"),
    (re.compile(r"win_arm64"), "windows-arm64"),
    (re.compile(r"macosx_.*_x86_64"), "macos-x64"),
    (re.compile(r"macosx_.*_arm64"), "macos-arm64"),
    (re.compile(r"macosx_.*_universal2"), "macos-x64 macos-arm64"),
)


def platforms_of(wheel: str) -> list:
    """Blender's platform names for a wheel file name."""
    tag = os.path.basename(wheel)[: -len(".whl")].split("-")[-1]
    for pattern, names in PLATFORMS:
        if pattern.search(tag):
            return names.split()
    raise SystemExit(f"{os.path.basename(wheel)}: no Blender platform for the wheel tag {tag!r}")


def manifest_with(text: str, wheels: list) -> str:
    """The manifest with its ``wheels`` and ``platforms`` lines naming ``wheels``."""
    platforms = sorted({p for w in wheels for p in platforms_of(w)})
    wheel_line = "wheels = [" + ", ".join(f'"./wheels/{os.path.basename(w)}"' for w in wheels) + "]"
    platform_line = "platforms = [" + ", ".join(f'"{p}"' for p in platforms) + "]"
    text, found_wheels = re.subn(r"(?m)^wheels = \[.*\]$", wheel_line, text)
    text, found_platforms = re.subn(r"(?m)^platforms = \[.*\]$", platform_line, text)
    if found_wheels != 1 or found_platforms != 1:
        raise SystemExit(f"{MANIFEST}: expected one `wheels = [...]` and one `platforms = [...]` line")
    return text


def blender_ext() -> str | None:
    """Blender's extension tool from the installed ``bpy`` wheel, if there is one (found
    without importing bpy)."""
    spec = importlib.util.find_spec("bpy")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = glob.glob(os.path.join(folder, "*", "scripts", "addons_core", "bl_pkg", "cli", "blender_ext.py"))
        if found:
            return sorted(found)[-1]
    return None


def zip_folder(folder: str, out: str) -> None:
    """The folder's files at the zip's root, as Blender's tool lays them out."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for base, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".pyc"):
                    continue
                path = os.path.join(base, name)
                archive.write(path, os.path.relpath(path, folder))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", action="append", help="an animbin wheel to bundle (repeatable)")
    parser.add_argument("--out", default=os.path.join(HERE, "dist"), help="the folder the zip goes to")
    parser.add_argument("--blender-ext", help="Blender's blender_ext.py (default: the installed bpy's)")
    parser.add_argument("--no-blender-ext", action="store_true", help="zip here even when Blender's tool is at hand")
    args = parser.parse_args()

    wheels = args.wheel or sorted(glob.glob(os.path.join(ROOT, "target", "wheels", "animbin-*.whl")))
    if not wheels:
        raise SystemExit("no animbin wheel: run `maturin build -m crates/python/Cargo.toml -o target/wheels` first")
    for wheel in wheels:
        if not os.path.isfile(wheel):
            raise SystemExit(f"{wheel}: no such wheel")
    by_platform = {}
    for wheel in wheels:
        for platform in platforms_of(wheel):
            if platform in by_platform:
                raise SystemExit(f"two wheels for {platform}: {by_platform[platform]} and {os.path.basename(wheel)}")
            by_platform[platform] = os.path.basename(wheel)

    # The wheels beside the source, where the manifest says they are (ignored by git).
    bundled = os.path.join(SOURCE, "wheels")
    shutil.rmtree(bundled, ignore_errors=True)
    os.makedirs(bundled)
    for wheel in wheels:
        shutil.copy2(wheel, bundled)

    with open(os.path.join(SOURCE, MANIFEST), "rb") as f:
        manifest = tomllib.load(f)
    with open(os.path.join(SOURCE, MANIFEST), encoding="utf-8") as f:
        manifest_text = manifest_with(f.read(), wheels)
    os.makedirs(args.out, exist_ok=True)
    out = os.path.join(os.path.abspath(args.out), f"{manifest['id']}-{manifest['version']}.zip")

    tool = None if args.no_blender_ext else (args.blender_ext or blender_ext())
    with tempfile.TemporaryDirectory() as temp:
        staging = os.path.join(temp, manifest["id"])
        shutil.copytree(SOURCE, staging, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        with open(os.path.join(staging, MANIFEST), "w", encoding="utf-8") as f:
            f.write(manifest_text)
        if os.path.exists(out):
            os.remove(out)
        if tool:
            command = [sys.executable, tool, "build", "--source-dir", staging, "--output-filepath", out]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0 or not os.path.isfile(out):
                sys.stderr.write(done.stdout + done.stderr)
                raise SystemExit("Blender's extension tool refused the package (above)")
            how = "built with Blender's extension tool (manifest and wheels validated)"
        else:
            zip_folder(staging, out)
            how = "zipped (Blender's extension tool not found: the manifest was not validated)"
    print(f"{out}: {how}; wheels: {', '.join(os.path.basename(w) for w in wheels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
