"""Every testdata sample through the module: open, info, validate, dump and write back."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

import animbin
from conftest import TESTDATA, own_target, samples

SAMPLES = samples()
IDS = [p.name for p in SAMPLES]


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_every_sample_opens_from_its_path_as_str_and_pathlike(path):
    by_str = animbin.open(str(path))
    by_path = animbin.open(pathlib.Path(path))
    assert by_str.format in animbin.FORMATS
    assert by_str.format == by_path.format
    assert by_str.path == str(path)
    assert by_str.to_bytes() == by_path.to_bytes()


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_bytes_read_as_the_file_does(path):
    data = path.read_bytes()
    from_file = animbin.open(path)
    # x8an files have no magic: bytes alone need the format named.
    format = "sf3" if from_file.format == "sf3" else None
    for source in (data, bytearray(data), memoryview(data)):
        doc = animbin.open(source, format)
        assert doc.path is None
        assert doc.format == from_file.format
        assert doc.info() == from_file.info()
        assert doc.dump() == from_file.dump()


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_info_equals_the_command_info_json(path, animbin_cli):
    out = subprocess.run([animbin_cli, "info", "--json", str(path)], check=True, capture_output=True, text=True)
    expected = json.loads(out.stdout)
    info = animbin.open(path).info()
    assert info == expected
    assert info["format"] == animbin.open(path).format


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_every_sample_validates_clean(path):
    assert animbin.open(path).validate() == []


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_dump_then_undump_writes_the_same_bytes(path):
    data = path.read_bytes()
    doc = animbin.open(path)
    target = own_target(path, doc.format)
    assert doc.convert(target) == data
    dump = doc.dump()
    assert json.loads(dump)["format"] == doc.format
    for form in (dump, dump.encode(), json.loads(dump)):
        back = animbin.undump(form)
        assert back.format == doc.format
        assert back.convert(target) == data
    # The dump is also a target, and JSON input is detected as a dump.
    assert doc.convert("json").decode() == dump
    assert animbin.open(dump.encode()).convert(target) == data


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_write_is_the_conversion_and_takes_the_format_from_the_extension(path, tmp_path):
    doc = animbin.open(path)
    target = own_target(path, doc.format)
    out = tmp_path / ("copy.json")
    doc.write(out)
    assert animbin.open(out).convert(target) == path.read_bytes()
    named = tmp_path / "copy.bin"
    doc.write(named, format=target)
    assert named.read_bytes() == path.read_bytes()
    # Nothing but the outputs is left behind (the temporary file was renamed).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.bin", "copy.json"]


def test_to_gltf_gives_glb_and_gltf_json_that_read_back():
    doc = animbin.open(TESTDATA / "sample.semodel")
    glb = doc.to_gltf()
    assert glb[:4] == b"glTF"
    gltf = doc.to_gltf(binary=False)
    assert json.loads(gltf)["asset"]["version"] == "2.0"
    for data in (glb, gltf):
        back = animbin.open(data)
        assert back.format == "gltf"
        assert back.validate() == []
        assert back.info()["skin_count"] == 1
    assert glb == doc.convert("glb")


def test_an_animation_joins_its_model_by_bone_name():
    model = animbin.open(TESTDATA / "sample.semodel")
    anim = animbin.open(TESTDATA / "sample.seanim")
    for anims in ([TESTDATA / "sample.seanim"], [str(TESTDATA / "sample.seanim")], [anim]):
        info = animbin.open(model.to_gltf(anims=anims, z_up=True)).info()
        assert info["animation_count"] == 1
        assert info["skin_count"] == 1
    scene = model.scene(anims=[anim])
    assert [t.bone for t in scene.animations[0].tracks] == ["tag_origin", "j_spine"]
    assert scene.skeleton.names == ["tag_origin", "j_spine"]


def test_options_change_what_is_written():
    anim = animbin.open(TESTDATA / "sample.seanim")
    assert anim.info()["looped"] is True
    absolute = animbin.open(anim.convert("seanim", anim_type="absolute", precision="double"))
    assert absolute.info()["anim_type"] == "absolute"
    assert absolute.info()["high_precision"] is True
    x8an = animbin.open(TESTDATA / "x8an00.bin")
    assert x8an.scene().animations[0].framerate == 30.0
    assert x8an.scene(framerate=60).animations[0].framerate == 60.0


def test_unknown_names_are_value_errors_listing_the_valid_ones():
    doc = animbin.open(TESTDATA / "sample.seanim")
    with pytest.raises(ValueError, match=r'unknown output format "obj"; valid names: seanim, semodel') as e:
        doc.convert("obj")
    assert not isinstance(e.value, animbin.FormatError)
    with pytest.raises(ValueError, match=r'unknown format "obj"; valid names: animx'):
        animbin.open(TESTDATA / "sample.seanim", format="obj")
    with pytest.raises(ValueError, match="cannot tell the output format from"):
        doc.write("out.unknown")
    with pytest.raises(ValueError, match="unknown animation kind"):
        doc.convert("seanim", anim_type="sideways")
    with pytest.raises(ValueError, match="valid names: single, double"):
        doc.convert("seanim", precision="half")


def test_bad_arguments_are_type_errors():
    doc = animbin.open(TESTDATA / "sample.seanim")
    with pytest.raises(TypeError, match="unexpected keyword argument 'frame_rate'"):
        doc.convert("glb", frame_rate=30)
    with pytest.raises(TypeError, match="unexpected keyword argument 'anim_type'"):
        doc.scene(anim_type="absolute")
    with pytest.raises(TypeError, match="single string"):
        doc.to_gltf(anims=str(TESTDATA / "sample.seanim"))
    with pytest.raises(TypeError, match="expected a path"):
        animbin.open(12)
    with pytest.raises(TypeError, match="expected str, bytes or dict"):
        animbin.undump(12)
    with pytest.raises(ValueError, match="framerate: 0 is not a positive number of frames per second"):
        doc.scene(framerate=0)


def test_documents_are_usable_from_threads():
    from concurrent.futures import ThreadPoolExecutor

    paths = [p for p in SAMPLES if p.suffix != ".json"]
    with ThreadPoolExecutor(4) as pool:
        infos = list(pool.map(lambda p: animbin.open(p).info(), paths * 3))
    assert infos == [animbin.open(p).info() for p in paths] * 3


def test_the_module_describes_itself():
    assert animbin.__version__
    assert animbin.FORMATS == ("animx", "gltf", "fbx", "dmf", "cast", "seanim", "semodel", "sf3")
    assert "json" in animbin.TARGETS and "glb" in animbin.TARGETS
    assert "sample.seanim" in repr(animbin.open(TESTDATA / "sample.seanim"))
    assert animbin.Document.__doc__ and animbin.open.__doc__ and animbin.Document.scene.__doc__
    stub = pathlib.Path(animbin.__file__).with_name("__init__.pyi")
    assert stub.is_file() and stub.with_name("py.typed").is_file()
    assert os.path.basename(animbin._animbin.__file__).startswith("_animbin")


def test_the_stub_names_what_the_module_has():
    import ast

    stub = pathlib.Path(animbin.__file__).with_name("__init__.pyi")
    tree = ast.parse(stub.read_text())
    aliases = {"AnimKind", "Interpolation", "Precision", "PathLike", "AnimSource"}
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
            runtime = getattr(animbin, node.name, None)
            assert runtime is not None, f"the stub has {node.name}, the module does not"
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                        assert hasattr(runtime, item.name), f"{node.name}.{item.name}"
        elif isinstance(node, (ast.AnnAssign, ast.Assign)):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if target.id not in aliases:
                names.add(target.id)
                assert hasattr(animbin, target.id), target.id
    assert names == set(animbin.__all__)
