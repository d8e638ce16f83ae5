"""Shared fixtures: the repository's testdata samples and the `animbin` command.

The suite runs against the installed wheel (``pip install target/wheels/*.whl``), never
against the source tree, so it tests what users get.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TESTDATA = ROOT / "testdata"

# The form each sample is written back in, when it is not its format's first target
# (the JSON forms read into the same documents as their binary twins).
OWN_TARGET = {"sample.animj": "animj", "sample.dmf.json": "dmf-json"}
FIRST_TARGET = {
    "seanim": "seanim",
    "semodel": "semodel",
    "cast": "cast",
    "animx": "animx",
    "sf3": "sf3",
    "dmf": "dmf",
    "gltf": "glb",
}


def samples() -> list[Path]:
    """Every file in testdata/ (the suite fails rather than pass on none)."""
    files = sorted(p for p in TESTDATA.iterdir() if p.is_file())
    assert files, f"no samples in {TESTDATA}"
    return files


def own_target(path: Path, format: str) -> str:
    """The target that writes `path`'s document back as the file is."""
    return OWN_TARGET.get(path.name, FIRST_TARGET[format])


@pytest.fixture(scope="session")
def animbin_cli() -> str:
    """The `animbin` command: $ANIMBIN, else target/debug/animbin, else on PATH.

    Under CI=true a missing command fails the tests that need it instead of skipping them.
    """
    candidates = [os.environ.get("ANIMBIN"), str(ROOT / "target" / "debug" / "animbin"), shutil.which("animbin")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    message = "the animbin command was not found (cargo build -p animbin-cli, or set ANIMBIN)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)
