"""Cast metadata in ``info()``: the up axis a file states (its first Metadata node's ``up``),
which the Blender extension's import takes as its default."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

import animbin

from conftest import ROOT, TESTDATA


def test_info_gives_the_up_axis_a_cast_file_states():
    y_up = TESTDATA / "poses" / "rig_y_up.cast"
    assert animbin.open(y_up).info()["up_axis"] == "y"
    # From bytes too (the summary of a view), and as the command prints it.
    assert animbin.open(y_up.read_bytes()).info()["up_axis"] == "y"
    # A file without a Metadata node states none: the key is absent, not empty.
    for path in (TESTDATA / "sample.cast", TESTDATA / "poses" / "rig_absolute.cast"):
        assert "up_axis" not in animbin.open(path).info(), path


def test_the_command_prints_the_up_axis(animbin_cli):
    done = subprocess.run(
        [animbin_cli, "info", "--json", str(TESTDATA / "poses" / "rig_y_up.cast")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["up_axis"] == "y"


def test_the_shared_corpus_metadata_file_states_z():
    path = ROOT.parent / "shared" / "corpus" / "cast" / "ref_metadata_instances.cast"
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {path} is missing")
        pytest.skip(f"{path} is missing")
    assert animbin.open(path).info()["up_axis"] == "z"
