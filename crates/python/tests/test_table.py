"""The library's table of formats and its naming rules, as front ends see them."""

import os
import pathlib

import animbin

TESTDATA = pathlib.Path(__file__).resolve().parents[3] / "testdata"


def test_formats_lists_every_format_with_what_a_front_end_needs():
    table = animbin.formats()
    assert tuple(f["name"] for f in table) == animbin.FORMATS
    by_name = {f["name"]: f for f in table}
    assert sorted(t for f in table for t in f["targets"]) == sorted(t for t in animbin.TARGETS if t != "json")
    seanim = by_name["seanim"]
    assert seanim["label"] == "SEAnim" and seanim["extensions"] == ["seanim"] and seanim["has_magic"]
    assert seanim["holds"] == ["animations"]
    assert seanim["animation_kinds"] == ["absolute", "relative", "delta", "additive"]
    assert seanim["chooses_precision"] and not seanim["names_animations"] and seanim["stores_framerate"]
    assert by_name["semodel"]["holds"] == ["bones", "meshes"] and not by_name["semodel"]["names_meshes"]
    assert by_name["cast"]["names_meshes"]
    assert by_name["semodel"]["targets"] == ["semodel", "semodel-deployed", "semodel-draft"]
    assert by_name["animx"]["extensions"] == ["animx", "animj"] and not by_name["animx"]["stores_framerate"]
    assert not by_name["sf3"]["has_magic"] and not by_name["sf3"]["stores_framerate"]
    assert by_name["cast"]["several_animations"] and by_name["cast"]["animation_kinds"][0] == "absolute"
    assert by_name["dmf"]["length_ends_on_last_key"] and not by_name["seanim"]["length_ends_on_last_key"]
    assert [f["name"] for f in table if f["interchange"]] == ["gltf", "fbx"]
    # Every sample opens as the format whose extensions name it (x8an by its name).
    for path in sorted(TESTDATA.iterdir()):
        ext = path.name.split(".", 1)[1] if "." in path.name else ""
        owners = [f["name"] for f in table if ext.split(".")[-1] in f["extensions"]]
        if owners and ext != "dmf.json":
            assert animbin.open(path).format in owners, path


def test_file_names_never_leave_their_folder():
    assert animbin.file_name("walk") == "walk"
    assert animbin.file_name("../a/b:c") == "_a_b_c"
    assert animbin.file_name(" .. ") == "animation"
    assert animbin.file_name("tab\there") == "tab_here"


def test_find_texture_looks_beside_the_file_and_in_the_texture_folders(tmp_path):
    (tmp_path / "_images").mkdir()
    (tmp_path / "_images" / "body_c.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    found = animbin.find_texture(tmp_path, "C:\\export\\body_c.png")
    assert os.fspath(found) == os.fspath(tmp_path / "_images" / "body_c.png")
    assert animbin.find_texture(tmp_path, "../missing.png") is None
    assert animbin.find_texture(str(tmp_path), "missing.png") is None
