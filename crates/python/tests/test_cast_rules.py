"""Cast's rules in the Python scene: bones that do not inherit their parent's scale
(``Skeleton.scale_compensate``), the model placement (``Scene.placement``) and a kind per
channel (``BoneTrack.channel_kinds`` and ``channel_overrides``, resolved by
``animbin.pose.channel_kinds``)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import animbin

from conftest import TESTDATA

POSES = TESTDATA / "poses"


def _scene(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", animbin.LossWarning)
        return animbin.open(path).scene()


def test_a_cast_rig_brings_its_ssc_flags_placement_and_curve_modes():
    scene = _scene(POSES / "rig_override.cast")
    skeleton = scene.skeleton
    # ssc is on unless a bone says 0; the rig says it per bone.
    assert skeleton.scale_compensate.dtype == np.bool_
    assert skeleton.scale_compensate.shape == (len(skeleton),)
    assert skeleton.scale_compensate.any() and not skeleton.scale_compensate.all()
    t, r, s = scene.placement
    assert t.shape == (3,) and r.shape == (4,) and s.shape == (3,)
    assert not (np.array_equal(t, [0, 0, 0]) and np.array_equal(r, [0, 0, 0, 1]) and np.array_equal(s, [1, 1, 1]))
    overridden = [track for a in scene.animations for track in a.tracks if track.channel_overrides]
    assert overridden, "the rig's CurveModeOverride"
    for track in overridden:
        assert set(track.channel_overrides) <= {"translation", "rotation", "scale"}


def test_the_fields_survive_a_trip_through_cast():
    scene = _scene(POSES / "rig_mixed.cast")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", animbin.LossWarning)
        back = animbin.open(animbin.from_scene(scene, "cast").to_bytes()).scene()
    assert np.array_equal(back.skeleton.scale_compensate, scene.skeleton.scale_compensate)
    for a, b in zip(back.placement, scene.placement):
        assert np.allclose(a, b, atol=1e-7)
    for a, b in zip(back.animations[0].tracks, scene.animations[0].tracks):
        assert (a.bone, a.channel_kinds, a.channel_overrides) == (b.bone, b.channel_kinds, b.channel_overrides)


def test_hand_built_fields_reach_the_library_and_come_back():
    skeleton = animbin.Skeleton(
        ["root", "child"],
        [-1, 0],
        translations=[[0, 0, 0], [1, 0, 0]],
        scales=[[2, 2, 2], [1, 1, 1]],
        scale_compensate=[False, True],
    )
    # The child does not inherit the root's scale, but its offset is stretched by it.
    assert np.allclose(skeleton.global_translations[1], [2, 0, 0])
    assert np.allclose(skeleton.global_scales[1], [1, 1, 1])
    half = math.sqrt(0.5)
    track = animbin.BoneTrack(
        "child",
        rotation_frames=[0],
        rotations=[[0, 0, half, half]],
        channel_kinds={"rotation": "additive"},
        channel_overrides={"translation": "relative"},
    )
    placement = ([1.0, 2.0, 3.0], [0.0, 0.0, half, half], [1.5, 1.5, 1.5])
    scene = animbin.Scene(skeleton, animations=[animbin.Animation("a", [track], framerate=30.0)], placement=placement)
    back = animbin.open(animbin.from_scene(scene, "cast").to_bytes()).scene()
    assert list(back.skeleton.scale_compensate) == [False, True]
    for got, want in zip(back.placement, placement):
        assert np.allclose(got, want, atol=1e-7)
    # The rotation curve (the only keys) is the first curve, so the animation's kind is its
    # mode; the override still rules the translation.
    kinds = animbin.pose.channel_kinds(back.animations[0], {"root": None, "child": "root"})
    assert [(k["translation"], k["rotation"]) for k in kinds] == [("relative", "additive")]


def test_channel_kinds_walk_up_to_an_ancestors_override():
    parent = animbin.BoneTrack("root", channel_overrides={"rotation": "absolute"})
    child = animbin.BoneTrack("child", channel_kinds={"rotation": "additive", "translation": "relative"})
    animation = animbin.Animation("a", [parent, child], kind="absolute")
    kinds = animbin.pose.channel_kinds(animation, {"root": None, "child": "root"})
    assert kinds[1] == {"translation": "relative", "rotation": "absolute", "scale": "absolute"}
    with pytest.raises(ValueError, match="channel"):
        animbin.BoneTrack("x", channel_kinds={"position": "absolute"})


def test_rest_scales_are_casts_s_and_absolute_scale_keys_stay_as_written():
    scene = _scene(POSES / "rig_override.cast")
    rest = scene.skeleton.rest_scale
    assert rest.dtype == np.float64 and rest.shape == (len(scene.skeleton), 3)
    # The rig scales some bones (s) and not others; the bind pose carries none of it.
    assert (rest != 1).any() and (rest == 1).all(axis=1).any()
    assert np.array_equal(scene.skeleton.scales, np.ones_like(scene.skeleton.scales))


def test_hand_built_rest_scales_go_to_cast_whole_and_fold_into_other_formats():
    skeleton = animbin.Skeleton(["root", "child"], [-1, 0], rest_scale=[[2, 2, 2], [1, 1, 0.5]])
    assert skeleton.rest_scale.dtype == np.float64
    assert np.array_equal(animbin.Skeleton(["a"], [-1]).rest_scale, [[1, 1, 1]])
    keys = np.array([[2, 2, 2], [4, 1, 3]], dtype=np.float32)
    track = animbin.BoneTrack("root", scale_frames=[0, 10], scales=keys)
    child = animbin.BoneTrack("child", scale_frames=[0], scales=np.array([[1, 1, 0.5]], dtype=np.float32))
    scene = animbin.Scene(skeleton, animations=[animbin.Animation("a", [track, child], framerate=30.0)])
    back = animbin.open(animbin.from_scene(scene, "cast").to_bytes()).scene()
    assert np.array_equal(back.skeleton.rest_scale, skeleton.rest_scale)
    assert np.array_equal(back.animations[0].tracks[0].scales, keys)
    # SEAnim has no rest scale: its keys are what plays (a key equal to s plays 1), exactly.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", animbin.LossWarning)
        seanim = animbin.open(animbin.from_scene(scene, "seanim").to_bytes()).scene()
    assert not [w for w in caught if "rest scale" in str(w.message)]
    tracks = {t.bone: t for t in seanim.animations[0].tracks}
    assert np.array_equal(tracks["root"].scales, keys / 2)
    assert np.array_equal(tracks["child"].scales, [[1, 1, 1]])
