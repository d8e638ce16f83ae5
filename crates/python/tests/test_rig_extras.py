"""IK handles, constraints and the model name through the Python scene: built by hand,
written as Cast and read back whole; refused when they name a bone past the skeleton; and
reported lost by formats without them."""

import warnings

import numpy as np
import pytest

import animbin

IK = {
    "name": "leg_ik",
    "start": 0,
    "end": 2,
    "target": 3,
    "target_offset": (0.0, 0.5, 0.0),
    "pole_vector": None,
    "pole": 1,
    "use_target_rotation": False,
}
CONSTRAINTS = [
    {
        "name": "aim",
        "kind": "orient",
        "bone": 3,
        "target": 0,
        "maintain_offset": True,
        "offset": (0.5, 0.5, 0.5, 0.5),
        "weight": 0.25,
        "skip": (False, False, True),
    },
    {
        "name": "",
        "kind": "scale",
        "bone": 1,
        "target": 3,
        "maintain_offset": False,
        "offset": (2.0, 2.0, 2.0),
        "weight": None,
        "skip": (False, False, False),
    },
]


def leg(ik_handles=(IK,), constraints=CONSTRAINTS, name="soldier"):
    t = np.array([[0, 0, 0], [0, -1, 0], [0, -1, 0], [0, -2, 1]], dtype=np.float32)
    skeleton = animbin.Skeleton(
        ["hip", "knee", "ankle", "foot_ik"], [-1, 0, 1, -1], t, ik_handles=ik_handles, constraints=constraints
    )
    return animbin.Scene(skeleton, name=name)


def test_cast_keeps_the_rig_and_the_name_whole():
    scene = leg()
    with warnings.catch_warnings():
        warnings.simplefilter("error", animbin.LossWarning)
        data = animbin.from_scene(scene, "cast").to_bytes()
    back = animbin.open(data).scene()
    assert back.name == "soldier"
    assert back.skeleton.ik_handles == [IK]
    assert back.skeleton.constraints == CONSTRAINTS
    assert back == animbin.open(animbin.from_scene(back, "cast").to_bytes()).scene()


def test_a_bone_past_the_skeleton_is_refused():
    bad = dict(CONSTRAINTS[0], target=9)
    with pytest.raises(ValueError, match=r"constraints\[0\]\.target"):
        animbin.from_scene(leg(constraints=[bad]), "cast")


def test_a_wrong_offset_size_is_refused():
    bad = dict(CONSTRAINTS[0], offset=(1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match=r"constraints\[0\]\.offset"):
        animbin.from_scene(leg(constraints=[bad]), "cast")


def test_formats_without_rig_controls_report_them():
    with pytest.warns(animbin.LossWarning) as caught:
        animbin.from_scene(leg(), "semodel")
    lines = [str(w.message) for w in caught]
    assert any("1 IK handles (SEModel has no IK)" in line for line in lines), lines
    assert any("2 bone constraints (SEModel has no constraints)" in line for line in lines), lines
    assert any("the model name (SEModel stores none)" in line for line in lines), lines


def painted():
    quad = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
    layers = [np.arange(16, dtype=np.uint8).reshape(4, 4) * (k + 1) for k in range(3)]
    return animbin.Scene(meshes=[animbin.Mesh(quad, [[0, 1, 2], [0, 2, 3]], color_layers=layers)])


@pytest.mark.parametrize("target", ["cast", "glb"])
def test_every_colour_layer_comes_back(target):
    scene = painted()
    with warnings.catch_warnings():
        warnings.simplefilter("error", animbin.LossWarning)
        data = animbin.from_scene(scene, target).to_bytes()
    (mesh,) = animbin.open(data).scene().meshes
    assert len(mesh.color_layers) == 3
    for got, want in zip(mesh.color_layers, scene.meshes[0].color_layers):
        np.testing.assert_array_equal(got, want)


def test_a_colour_layer_of_the_wrong_length_is_refused():
    scene = painted()
    scene.meshes[0].color_layers[2] = scene.meshes[0].color_layers[2][:3]
    with pytest.raises(ValueError, match=r"color_layers\[2\]"):
        animbin.from_scene(scene, "cast")
