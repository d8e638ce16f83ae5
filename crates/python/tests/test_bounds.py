"""Bounded by the input (issue 32): running out of memory raises MemoryError and the
interpreter goes on, texture files read beside an input count against the limit it was
opened with, and a glTF's accessors give at most the budget `max_accessor_values` sets."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import animbin
from conftest import TESTDATA

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/status")


# The child opens a glTF of under 1 KB whose one primitive asks for 5,000,000 positions
# (within the accessors' budget: 60 MB of f32 in the scene, more while decoded), then allows
# itself 48 MiB of address space more than it holds, which converting it needs many times
# over; each conversion, its scene, and opening the file of 8 such primitives with the
# budget raised must raise MemoryError, and the interpreter must go on to the next and to
# the end.
CHILD = textwrap.dedent(
    """
    import resource, sys
    import animbin
    one, eight, output = sys.argv[1:]
    document = animbin.open(one)
    size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize:"))
    limit = size * 1024 + (48 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for convert in (
        lambda: document.write(output),
        lambda: document.convert("semodel"),
        lambda: document.convert("dmf"),
        lambda: document.scene(),
        lambda: animbin.open(eight, max_accessor_values="1G"),
    ):
        try:
            convert()
        except MemoryError as error:
            print("MemoryError:", error, flush=True)
        else:
            print("converted", flush=True)
    print("alive", flush=True)
    """
)


@linux_only
def test_running_out_of_memory_raises_memory_error_and_writes_nothing(tmp_path):
    one, eight = tmp_path / "one.gltf", tmp_path / "eight.gltf"
    one.write_bytes(shared_sparse(1, 5_000_000))
    eight.write_bytes(shared_sparse(8, 5_000_000))
    output = tmp_path / "out.cast"
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(one), str(eight), str(output)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    # Before: "memory allocation of N bytes failed" and SIGABRT (returncode -6).
    assert child.returncode == 0, child.stderr
    lines = child.stdout.splitlines()
    assert lines[-1] == "alive", child.stdout
    assert len(lines) == 6, child.stdout
    for line in lines[:5]:
        assert line.startswith("MemoryError: out of memory: could not allocate "), child.stdout
        assert "nothing was written" in line, line
    assert "memory allocation of" not in child.stderr, child.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eight.gltf", "one.gltf"]


def test_textures_beside_an_input_count_against_the_limit_it_was_opened_with(tmp_path):
    cast = tmp_path / "sample.cast"
    shutil.copy(TESTDATA / "sample.cast", cast)
    png = b"\x89PNG\r\n\x1a\n" + bytes((1 << 20) - 8)
    (tmp_path / "paint_c.png").write_bytes(png)
    output = tmp_path / "painted.glb"
    document = animbin.open(cast, max_input_size="1M")
    with pytest.raises(animbin.FormatError, match=r"paint_c\.png: larger than the limit of 1048576 bytes \(1 MiB\)"):
        document.write(output)
    with pytest.raises(animbin.FormatError, match="larger than the limit of 1048576 bytes"):
        document.to_gltf()
    assert not output.exists()
    # Opened with room for both, the texture is embedded.
    glb = animbin.open(cast, max_input_size="2M").to_gltf()
    assert png in glb
    # The default limit (4 GiB) leaves room too.
    assert png in animbin.open(cast).to_gltf()


def shared_sparse(primitives: int, count: int) -> bytes:
    """A .gltf whose `primitives` primitives share one sparse accessor of `count` zero
    positions (one substitute): a file of under 1 KB that asks for `count` positions per
    primitive."""
    data = (0).to_bytes(4, "little") + np.array([1.0, 2.0, 3.0], dtype="<f4").tobytes()
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    return json.dumps(
        {
            "asset": {"version": "2.0"},
            "buffers": [{"uri": uri, "byteLength": 16}],
            "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}],
            "accessors": [
                {
                    "componentType": 5126,
                    "count": count,
                    "type": "VEC3",
                    "min": [0, 0, 0],
                    "max": [1, 2, 3],
                    "sparse": {
                        "count": 1,
                        "indices": {"bufferView": 0, "componentType": 5125},
                        "values": {"bufferView": 1},
                    },
                }
            ],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}] * primitives}],
            "nodes": [{"mesh": 0}],
            "scenes": [{"nodes": [0]}],
            "scene": 0,
        }
    ).encode()


def test_max_accessor_values_bounds_what_a_gltf_decodes_to(tmp_path):
    path = tmp_path / "shared.gltf"
    # 8 primitives of 5,000,000 positions: 120,000,000 values from 16 bytes of buffers.
    path.write_bytes(shared_sparse(8, 5_000_000))
    budget = r"at most 16777216 accessor values in all \(16 a byte of its 16 bytes of buffers"
    with pytest.raises(animbin.FormatError, match=r"/accessors/0: expected " + budget):
        animbin.open(path)
    with pytest.raises(animbin.FormatError, match=budget):
        animbin.open(path.read_bytes())
    # Set by the keyword, for the file and for what its conversions read.
    small = tmp_path / "small.gltf"
    small.write_bytes(shared_sparse(8, 1000))
    needed = 8 * 3000 + 4
    document = animbin.open(small, max_accessor_values=needed)
    assert [len(m.positions) for m in document.scene().meshes] == [1000] * 8
    assert document.convert("cast")
    # Past the default budget, validate checks under the one the document was opened with.
    large = tmp_path / "large.gltf"
    large.write_bytes(shared_sparse(8, 1_000_000))
    assert animbin.open(large, max_accessor_values="25M").validate() == []
    with pytest.raises(animbin.FormatError, match=rf"at most {needed - 1} accessor values in all \(as set"):
        animbin.open(small, max_accessor_values=needed - 1)
    with pytest.raises(animbin.FormatError, match=rf"at most {needed - 1} accessor values in all \(as set"):
        animbin.open(small.read_bytes(), max_accessor_values=str(needed - 1))
    for bad in (0, "lots", "1.5G"):
        with pytest.raises(ValueError, match="max_accessor_values"):
            animbin.open(small, max_accessor_values=bad)
    with pytest.raises(TypeError, match="max_accessor_values"):
        animbin.open(small, max_accessor_values=1.5)
