"""Key values in the file's precision: float32 arrays for single-precision files, float64
for double-precision ones, equal to the values the file holds, and float32 arrays written
back as single precision."""

from __future__ import annotations

import json

import numpy as np
import pytest

import animbin
from conftest import TESTDATA

SINGLE = ["sample.seanim", "sample.cast", "sample.animx", "sample-lz4.animx", "sample.animj", "sample.dmf", "sample.dmf.json"]
DOUBLE = ["sample_every_block.seanim", "x8an00.bin", "x8an01.bin"]


def key_arrays(scene):
    """Every track's value arrays."""
    for a in scene.animations:
        for t in a.tracks:
            yield from (t.rotations, t.translations, t.scales)


@pytest.mark.parametrize("name", SINGLE)
def test_single_precision_files_give_float32_values(name):
    scene = animbin.open(TESTDATA / name).scene()
    assert scene.animations, name
    arrays = list(key_arrays(scene))
    assert sum(len(a) for a in arrays) > 0, name
    for animation in scene.animations:
        assert animation.dtype == np.float32
        for t in animation.tracks:
            for name_ in ("rotation", "translation", "scale"):
                assert getattr(t, name_ + "s").dtype == np.float32, (t.bone, name_)
                assert getattr(t, name_ + "s").flags.c_contiguous
                assert getattr(t, name_ + "_frames").dtype == np.float64


@pytest.mark.parametrize("name", DOUBLE)
def test_double_precision_files_give_float64_values(name):
    scene = animbin.open(TESTDATA / name).scene()
    assert scene.animations and sum(len(a) for a in key_arrays(scene)) > 0
    for animation in scene.animations:
        assert animation.dtype == np.float64
        assert all(a.dtype == np.float64 for t in animation.tracks for a in (t.rotations, t.translations, t.scales))


def seanim_dump_values(doc, dtype):
    """Each bone's (frames, values) per channel from the SEAnim document's dump, the values
    read as ``dtype`` (the dump writes an f32 as the shortest text that reads back as it)."""
    bones = {}
    for bone in json.loads(doc.dump())["data"]["bones"]:
        channels = {}
        for channel, axes in (("location", "xyz"), ("rotation", "xyzw"), ("scale", "xyz")):
            keys = bone[channel]
            frames = np.array([k["frame"] for k in keys], dtype=np.float64)
            values = np.array([[k["value"][a] for a in axes] for k in keys], dtype=dtype).reshape(len(keys), len(axes))
            channels[channel] = (frames, values)
        bones[bone["name"]] = channels
    return bones


@pytest.mark.parametrize(
    ("source", "precision", "dtype"),
    [("sample.seanim", None, np.float32), ("sample_every_block.seanim", None, np.float64), ("sample.seanim", "double", np.float64)],
)
def test_seanim_values_are_the_files_own(source, precision, dtype):
    doc = animbin.open(TESTDATA / source)
    if precision is not None:
        doc = animbin.open(doc.convert("seanim", precision=precision))
    assert doc.info()["high_precision"] is (dtype == np.float64)
    expected = seanim_dump_values(doc, dtype)
    (animation,) = doc.scene().animations
    assert animation.dtype == dtype
    assert sorted(t.bone for t in animation.tracks) == sorted(expected)
    for t in animation.tracks:
        for channel, name in (("location", "translation"), ("rotation", "rotation"), ("scale", "scale")):
            frames, values = expected[t.bone][channel]
            got = getattr(t, name + "s")
            assert got.dtype == dtype
            np.testing.assert_array_equal(getattr(t, name + "_frames"), frames, err_msg=f"{t.bone}.{name}_frames")
            np.testing.assert_array_equal(got, values, err_msg=f"{t.bone}.{name}s")


def test_cast_curve_values_are_the_files_float32():
    doc = animbin.open(TESTDATA / "sample.cast")
    scene = doc.scene()
    # Every float curve value of the file, as the file's f32.
    stored = set()

    def walk(node):
        for p in node.get("properties", []):
            if p["name"] == "kv" and p["type"] in ("f", "4v"):
                for v in p["values"]:
                    if isinstance(v, dict):
                        stored.update(np.float32([v[a] for a in "xyzw"]).tolist())
                    else:
                        stored.add(float(np.float32(v)))
        for child in node.get("children", []):
            walk(child)

    for node in json.loads(doc.dump())["data"]["nodes"]:
        walk(node)
    assert stored
    values = [a for a in key_arrays(scene) if len(a)]
    assert values and all(a.dtype == np.float32 for a in values)
    # The keyed values are values of the file's curves (or its bind pose, for axes without
    # keys): each is exactly one of its float32 numbers or the rest pose.
    rotations = np.concatenate([t.rotations for a in scene.animations for t in a.tracks if len(t.rotations)])
    assert set(rotations.ravel().tolist()) <= stored


def test_gltf_of_a_single_precision_animation_gives_float32_and_of_a_double_one_float64():
    single = animbin.open(TESTDATA / "sample.seanim")
    double = animbin.open(TESTDATA / "sample_every_block.seanim")
    for doc, dtype in ((single, np.float32), (double, np.float64)):
        gltf = animbin.open(doc.to_gltf())
        (animation,) = gltf.scene().animations
        # glTF holds float32: without animbin's extras stating a double source, keys are
        # float32; with them, the values its import computes (rest pose taken off) stay
        # float64 where an f32 does not hold them.
        if dtype == np.float32:
            assert animation.dtype == np.float32
        else:
            arrays = [a for t in animation.tracks for a in (t.rotations, t.translations, t.scales) if len(a)]
            wide = any((a.astype(np.float32).astype(np.float64) != a).any() for a in arrays)
            assert animation.dtype == (np.float64 if wide else np.float32)


def test_joined_animations_take_the_wider_precision():
    model = TESTDATA / "sample.semodel"
    with_single = animbin.open(model).scene(anims=[TESTDATA / "sample.seanim"])
    with_double = animbin.open(model).scene(anims=[TESTDATA / "sample.seanim", TESTDATA / "sample_every_block.seanim"])
    assert [a.dtype for a in with_single.animations] == [np.float32]
    assert [a.dtype for a in with_double.animations] == [np.float64, np.float64]


def test_a_single_precision_seanim_round_trips_byte_exact_through_float32_arrays():
    path = TESTDATA / "sample.seanim"
    scene = animbin.open(path).scene()
    assert scene.animations[0].dtype == np.float32
    back = animbin.from_scene(scene, "seanim")
    assert back.info()["high_precision"] is False
    assert back.to_bytes() == path.read_bytes()


def test_a_double_precision_seanim_round_trips_byte_exact_through_float64_arrays():
    source = animbin.open(TESTDATA / "sample.seanim")
    # Values that single precision does not hold, so the writer's own choice is double.
    double = animbin.open(source.convert("seanim", precision="double"))
    scene = double.scene()
    track = scene.animations[0].tracks[0]
    track.translations = track.translations + 0.1
    wide = animbin.from_scene(scene, "seanim")
    assert wide.info()["high_precision"] is True
    scene = wide.scene()
    assert scene.animations[0].dtype == np.float64
    np.testing.assert_array_equal(scene.animations[0].tracks[0].translations, track.translations)
    assert animbin.from_scene(scene, "seanim").to_bytes() == wide.to_bytes()


def hand_made(dtype):
    frames = np.arange(4, dtype=np.float64)
    angle = frames * 0.3
    rotations = np.stack([np.zeros(4), np.sin(angle / 2), np.zeros(4), np.cos(angle / 2)], axis=1).astype(dtype)
    translations = np.stack([frames * 0.1, frames, -frames], axis=1).astype(dtype)
    track = animbin.BoneTrack(
        "arm", rotation_frames=frames, rotations=rotations, translation_frames=frames, translations=translations
    )
    return animbin.Scene(animations=[animbin.Animation("", [track], framerate=30)])


def test_float32_arrays_stay_float32_and_write_single_precision():
    scene = hand_made(np.float32)
    track = scene.animations[0].tracks[0]
    assert track.rotations.dtype == np.float32 and track.translations.dtype == np.float32
    assert scene.animations[0].dtype == np.float32
    doc = animbin.from_scene(scene, "seanim")
    assert doc.info()["high_precision"] is False
    back = doc.scene().animations[0]
    assert back.dtype == np.float32
    (got,) = back.tracks
    np.testing.assert_array_equal(got.rotations, track.rotations)
    np.testing.assert_array_equal(got.translations, track.translations)
    assert got.rotations.dtype == np.float32
    # Written again, the same bytes.
    assert animbin.from_scene(doc.scene(), "seanim").to_bytes() == doc.to_bytes()


def test_float64_arrays_leave_the_choice_to_the_writer_and_an_asked_precision_wins():
    wide = hand_made(np.float64)
    assert wide.animations[0].dtype == np.float64
    # 0.1 * k is not an f32: double precision.
    assert animbin.from_scene(wide, "seanim").info()["high_precision"] is True
    narrow = hand_made(np.float32)
    assert animbin.from_scene(narrow, "seanim", precision="double").info()["high_precision"] is True
    # float64 arrays of values an f32 holds: single, as before.
    exact = hand_made(np.float32)
    for t in exact.animations[0].tracks:
        t.rotations = t.rotations.astype(np.float64)
        t.translations = t.translations.astype(np.float64)
    assert exact.animations[0].dtype == np.float64
    assert animbin.from_scene(exact, "seanim").info()["high_precision"] is False


def test_float32_values_convert_to_cast_and_back_equal():
    scene = hand_made(np.float32)
    skeleton = animbin.Skeleton(["arm"], [-1])
    scene.skeleton = skeleton
    cast = animbin.from_scene(scene, "cast")
    (animation,) = cast.scene().animations
    assert animation.dtype == np.float32
    (track,) = animation.tracks
    np.testing.assert_array_equal(track.rotations, scene.animations[0].tracks[0].rotations)
    np.testing.assert_array_equal(track.translations, scene.animations[0].tracks[0].translations)


def test_empty_channels_of_a_single_precision_file_are_float32_and_shaped():
    (animation,) = animbin.open(TESTDATA / "sample.seanim").scene().animations
    empty = [t.scales for t in animation.tracks if len(t.scales) == 0]
    assert empty and all(a.dtype == np.float32 and a.shape == (0, 3) for a in empty)
