"""The option values follow the library's rules (``animbin::options``), the same as the
command's flags: a frame rate is finite and positive, a scale finite and not 0 (a negative
one mirrors); a refused value is a ValueError naming the keyword, and the command refuses
the same values with a usage error (exit 2)."""

from __future__ import annotations

import math
import subprocess

import pytest

import animbin
from conftest import TESTDATA
from test_scene import hand_made_scene

SEANIM = TESTDATA / "sample.seanim"
SEMODEL = TESTDATA / "sample.semodel"

REFUSED = [
    ("scale", 0.0),
    ("scale", -0.0),
    ("scale", math.nan),
    ("scale", math.inf),
    ("scale", -math.inf),
    ("framerate", 0.0),
    ("framerate", -30.0),
    ("framerate", math.nan),
    ("framerate", math.inf),
]


@pytest.mark.parametrize(("keyword", "value"), REFUSED, ids=[f"{k}={v}" for k, v in REFUSED])
def test_refused_values_are_value_errors_naming_the_keyword(keyword, value, tmp_path):
    doc = animbin.open(SEANIM)
    calls = {
        "convert": lambda: doc.convert("glb", **{keyword: value}),
        "to_gltf": lambda: doc.to_gltf(**{keyword: value}),
        "write": lambda: doc.write(tmp_path / "out.glb", **{keyword: value}),
        "scene": lambda: doc.scene(**{keyword: value}),
        "from_scene": lambda: animbin.from_scene(hand_made_scene(), "seanim", **{keyword: value}),
    }
    for method, call in calls.items():
        with pytest.raises(ValueError, match=rf"^{method}\(\): {keyword}: ") as e:
            call()
        assert not isinstance(e.value, animbin.FormatError), method
    assert not (tmp_path / "out.glb").exists()


def test_a_negative_scale_mirrors():
    doc = animbin.open(SEMODEL)
    plain, mirrored = doc.to_gltf(scale=1), doc.to_gltf(scale=-1)
    assert plain != mirrored
    back = animbin.open(mirrored).scene(scale=-1)
    assert back.meshes[0].positions.tolist() == doc.scene().meshes[0].positions.tolist()


def test_names_are_checked_with_the_keyword_named():
    doc = animbin.open(SEANIM)
    with pytest.raises(ValueError, match=r'^convert\(\): anim_type: unknown animation kind "sideways"'):
        doc.convert("seanim", anim_type="sideways")
    with pytest.raises(ValueError, match=r"^write\(\): precision: unknown precision \"half\"; valid names: single, double"):
        doc.write("out.seanim", precision="half")


# (option, value as the command takes it, the same as Python takes it)
AGREEMENT = [
    ("scale", "0", 0.0),
    ("scale", "nan", math.nan),
    ("scale", "inf", math.inf),
    ("scale", "-1", -1.0),
    ("scale", "0.01", 0.01),
    ("framerate", "0", 0.0),
    ("framerate", "nan", math.nan),
    ("framerate", "-30", -30.0),
    ("framerate", "24", 24.0),
]


@pytest.mark.parametrize(("option", "text", "value"), AGREEMENT, ids=[f"{o}={t}" for o, t, _ in AGREEMENT])
def test_the_command_and_python_agree(animbin_cli, tmp_path, option, text, value):
    source = TESTDATA / "x8an00.bin" if option == "framerate" else SEMODEL
    out = tmp_path / "out.glb"
    run = subprocess.run(
        [animbin_cli, "convert", f"--{option}={text}", str(source), str(out)], capture_output=True, text=True
    )
    doc = animbin.open(source)
    try:
        python = doc.to_gltf(**{option: value})
    except ValueError as e:
        assert not isinstance(e, animbin.FormatError)
        assert f"{option}: " in str(e)
        assert run.returncode == 2, run.stderr
        assert f"--{option}" in run.stderr
        assert not out.exists()
    else:
        assert run.returncode == 0, run.stderr
        assert out.read_bytes() == python
