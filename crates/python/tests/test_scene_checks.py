"""from_scene checks what the target needs before a file is written: values that the
arrays' dtypes cannot hold are refused in Python, and the library's Scene::check (frames
in order, finite values, positive frame rates, indices in range, no parent cycles) is
reached from Python; each error is a ValueError naming the field by its place in the scene
(``animations[0].tracks[3].rotation_frames``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import animbin
from test_scene import hand_made_scene


def refused(scene, format="semodel", match=None, **options):
    """The error from_scene raises for `scene`, which must be a ValueError (FormatError is
    one) matching `match`, with no NumPy warning on the way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=animbin.LossWarning)
        with pytest.raises(ValueError, match=match) as e:
            animbin.from_scene(scene, format, **options)
    return e.value


@pytest.mark.parametrize("index", [-1, np.int64(-1), 2**32, 2**70, 1.5, float("nan")])
def test_a_face_index_that_is_no_uint32_names_the_field(index):
    scene = hand_made_scene()
    faces = scene.meshes[0].faces.tolist()
    faces[1][2] = index
    scene.meshes[0].faces = faces
    e = refused(scene, match=r"^meshes\[0\]\.faces\[1\]: .* does not fit in uint32 \(0 to 4294967295\)")
    assert not isinstance(e, OverflowError)
    # A NumPy array of another integer type is not wrapped around either.
    if isinstance(index, (int, np.integer)) and -(2**63) <= int(index) < 2**63:
        scene.meshes[0].faces = np.array(faces, dtype=np.int64)
        refused(scene, match=r"^meshes\[0\]\.faces\[1\]: .* does not fit in uint32")


def test_other_integer_fields_are_checked_too():
    scene = hand_made_scene()
    scene.meshes[0].bone_indices = np.array([[0, 1], [1, 0], [1, -2], [0, 1]])
    refused(scene, match=r"^meshes\[0\]\.bone_indices\[2\]: -2 does not fit in uint32")
    scene = hand_made_scene()
    scene.meshes[0].color_layers = [[[255, 0, 0, 256]] * 4]
    refused(scene, match=r"^meshes\[0\]\.color_layers\[0\]\[0\]: 256 does not fit in uint8 \(0 to 255\)")
    scene = hand_made_scene()
    scene.skeleton.parents = [-1, 2**31]
    refused(scene, match=r"^skeleton\.parents\[1\]: 2147483648 does not fit in int32")


def test_a_float_beyond_float32_names_the_field_without_a_numpy_warning():
    scene = hand_made_scene()
    positions = scene.meshes[0].positions.astype(np.float64)
    positions[2, 1] = 1e300
    scene.meshes[0].positions = positions
    refused(scene, match=r"^meshes\[0\]\.positions\[2\]: 1e\+300 is too large for float32")
    scene = hand_made_scene()
    scene.skeleton.translations = [[0, 0, 0], [-1e39, 0, 0]]
    refused(scene, match=r"^skeleton\.translations\[1\]: -1e\+39 is too large for float32")
    # Infinity given as such is not a cast's doing: the library's check refuses it.
    scene = hand_made_scene()
    scene.meshes[0].positions = np.array([[0, 0, 0], [1, 0, 0], [1, np.inf, 0], [0, 1, 0]])
    refused(scene, match=r"meshes\[0\]\.positions\[2\]: inf is not finite")


def test_frames_out_of_order_reach_the_library_check():
    scene = hand_made_scene()
    track = scene.animations[0].tracks[1]
    track.rotation_frames = np.array([5.0, 1.0, 3.0, 4.0, 6.0])
    e = refused(scene, "seanim", match=r"animations\[0\]\.tracks\[1\]\.rotation_frames: not increasing at index 1")
    assert isinstance(e, animbin.FormatError) and isinstance(e, ValueError)
    assert str(e) == "the scene cannot be written: animations[0].tracks[1].rotation_frames: not increasing at index 1"
    # Not for one format only.
    for format in ("cast", "glb", "animx"):
        refused(scene, format, match=r"rotation_frames: not increasing at index 1")


def test_a_negative_framerate_is_refused():
    scene = hand_made_scene()
    scene.animations[0].framerate = -30
    e = refused(scene, "seanim", match=r"animations\[0\]\.framerate: -30 is not a positive number of frames per second")
    assert isinstance(e, animbin.FormatError)
    # The option of the same name follows the option rules.
    refused(hand_made_scene(), "seanim", match=r"^from_scene\(\): framerate: -30 is not a positive", framerate=-30)


def test_a_parent_cycle_is_refused_naming_the_bone():
    scene = hand_made_scene()
    scene.skeleton.parents = np.array([1, 0], dtype=np.int32)
    e = refused(scene, match=r'skeleton\.parents\[0\]: bone 0 \("root"\) is in a cycle of parents')
    assert isinstance(e, animbin.FormatError)
    assert "semodel at byte" not in str(e)
    scene.skeleton.parents = np.array([-1, 5], dtype=np.int32)
    refused(scene, match=r"skeleton\.parents\[1\]: 5 is past the 2 bones")


def test_a_face_past_the_vertices_is_refused():
    scene = hand_made_scene()
    scene.meshes[0].faces = [[0, 1, 2], [0, 2, 4]]
    refused(scene, match=r"meshes\[0\]\.faces\[1\]: vertex 4 is past the 4 vertices")


def test_a_well_made_scene_still_writes_every_target():
    scene = hand_made_scene()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=animbin.LossWarning)
        for format in ("seanim", "semodel", "cast", "glb"):
            assert animbin.from_scene(scene, format).to_bytes()
