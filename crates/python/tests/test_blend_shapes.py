"""Blend shapes through the Python scene: MorphTarget on meshes, WeightTrack on animations,
read from files and written back by from_scene."""

from __future__ import annotations

import numpy as np
import pytest

import animbin
from conftest import TESTDATA


def face_scene() -> animbin.Scene:
    """A quad with two blend shapes and an animation of their weights."""
    positions = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
    smile = animbin.MorphTarget("smile", [2, 3], [[0.5, 0.25, 0.5], [-0.5, 0.0, 0.25]], max_weight=2.0)
    blink = animbin.MorphTarget("blink", [0], [[0.0, 0.0, -1.0]])
    mesh = animbin.Mesh(positions, [[0, 1, 2], [0, 2, 3]], name="face", morph_targets=[smile, blink])
    weights = [
        animbin.WeightTrack("smile", [0, 10, 20], [0.0, 1.0, 0.25]),
        animbin.WeightTrack("blink", [5], [0.5]),
    ]
    return animbin.Scene(meshes=[mesh], animations=[animbin.Animation("talk", weights=weights)])


def test_a_hand_made_scene_with_blend_shapes_writes_cast_and_reads_back_equal(tmp_path):
    scene = face_scene()
    assert scene.animations[0].frame_count == 21.0
    doc = animbin.from_scene(scene, "cast")
    assert doc.validate() == []
    doc.write(tmp_path / "face.cast")
    back = animbin.open(tmp_path / "face.cast").scene()
    assert back.meshes[0].morph_targets == scene.meshes[0].morph_targets
    assert back.animations[0].weights == scene.animations[0].weights
    # And once more: a fixed point.
    again = animbin.from_scene(back, "cast").scene()
    assert again == back


def test_blend_shapes_read_from_a_cast_file_are_offsets_from_the_base_mesh():
    scene = animbin.from_scene(face_scene(), "cast").scene()
    smile = scene.meshes[0].morph_targets[0]
    assert smile.name == "smile" and smile.max_weight == 2.0 and smile.normal_deltas is None
    assert smile.indices.dtype == np.uint32 and smile.deltas.dtype == np.float32
    np.testing.assert_array_equal(smile.indices, [2, 3])
    np.testing.assert_array_equal(smile.deltas, [[0.5, 0.25, 0.5], [-0.5, 0.0, 0.25]])
    track = scene.animations[0].weights[0]
    assert track.frames.dtype == np.float64
    np.testing.assert_array_equal(track.frames, [0, 10, 20])
    np.testing.assert_array_equal(track.weights, [0.0, 1.0, 0.25])


def test_the_seblend_sample_comes_back_from_its_scene_with_the_same_trailer():
    doc = animbin.open(TESTDATA / "sample_blend.semodel")
    scene = doc.scene()
    (target,) = scene.meshes[0].morph_targets
    assert target.name == "stretch"
    np.testing.assert_array_equal(target.indices, [2, 3])
    np.testing.assert_array_equal(target.deltas, np.float32([[0.0, 0.25, 0.1], [0.0, 0.25, 0.1]]))
    data = doc.to_bytes()
    trailer = data[data.rindex(b"SEBlend\n") :]
    rebuilt = animbin.from_scene(scene, "semodel").to_bytes()
    assert rebuilt.endswith(trailer)
    assert animbin.from_scene(scene, "semodel").scene() == scene


def test_targets_and_weights_survive_a_glb(tmp_path):
    scene = face_scene()
    scene.meshes[0].morph_targets[0].max_weight = None  # glTF has no maximum weight
    doc = animbin.from_scene(scene, "glb")
    path = tmp_path / "face.glb"
    doc.write(path)
    back = animbin.open(path).scene()
    assert back.meshes[0].morph_targets == scene.meshes[0].morph_targets
    # One weights channel per mesh holds every target on the union of the tracks' frames:
    # smile sampled linearly at 5, blink held at its one key.
    smile, blink = back.animations[0].weights
    np.testing.assert_array_equal(smile.frames, [0, 5, 10, 20])
    np.testing.assert_array_equal(smile.weights, [0.0, 0.5, 1.0, 0.25])
    np.testing.assert_array_equal(blink.frames, [0, 5, 10, 20])
    np.testing.assert_array_equal(blink.weights, [0.5] * 4)


def test_a_morph_target_that_does_not_fit_names_the_field():
    scene = face_scene()
    scene.meshes[0].morph_targets[1].indices = np.array([7], dtype=np.uint32)
    with pytest.raises(ValueError, match=r"meshes\[0\]\.morph_targets\[1\]\.indices\[0\]: vertex 7 is past the 4 vertices"):
        animbin.from_scene(scene, "cast")
    scene = face_scene()
    scene.meshes[0].morph_targets[0].deltas = np.zeros((3, 3), dtype=np.float32)
    with pytest.raises(ValueError, match=r"meshes\[0\]\.morph_targets\[0\]\.deltas"):
        animbin.from_scene(scene, "cast")
    scene = face_scene()
    scene.animations[0].weights[0].frames = np.array([0.0, 20.0, 10.0])
    with pytest.raises(ValueError, match=r"animations\[0\]\.weights\[0\]\.frames"):
        animbin.from_scene(scene, "cast")
    with pytest.raises(TypeError, match=r"meshes\[0\]\.morph_targets\[0\]: expected a MorphTarget"):
        bad = face_scene()
        bad.meshes[0].morph_targets = ["smile"]
        animbin.from_scene(bad, "cast")
