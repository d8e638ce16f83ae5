"""How a skin blends: ``Mesh.skin_blend`` ("linear" or "dual_quaternion") written to Cast
(``sm``) and glb by from_scene and read back, and refused when unknown."""

from __future__ import annotations

import pytest

import animbin


def skinned_scene(skin_blend: str) -> animbin.Scene:
    """One bone and a triangle bound to it."""
    skeleton = animbin.Skeleton(["root"], [-1], [[0, 0, 0]], [[0, 0, 0, 1]])
    mesh = animbin.Mesh(
        [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
        [[0, 1, 2]],
        name="tri",
        bone_indices=[[0], [0], [0]],
        bone_weights=[[1.0], [1.0], [1.0]],
        skin_blend=skin_blend,
    )
    return animbin.Scene(skeleton=skeleton, meshes=[mesh], name="model")


@pytest.mark.parametrize("blend", ["linear", "dual_quaternion"])
def test_the_blend_comes_back_from_cast_and_glb(tmp_path, blend):
    scene = skinned_scene(blend)
    for target in ("cast", "glb"):
        path = tmp_path / f"model.{target}"
        animbin.from_scene(scene, target).write(path)
        back = animbin.open(path).scene()
        assert back.meshes[0].skin_blend == blend, target
    # Cast states it only when it is not the default.
    cast = (tmp_path / "model.cast").read_bytes()
    assert (b"quaternion" in cast) == (blend == "dual_quaternion")


def test_an_unskinned_mesh_blends_linearly_and_an_unknown_blend_is_refused():
    assert animbin.Mesh([[0, 0, 0]], [[0, 0, 0]]).skin_blend == "linear"
    with pytest.raises(ValueError, match="Mesh.skin_blend"):
        animbin.Mesh([[0, 0, 0]], [[0, 0, 0]], skin_blend="quaternion")
    scene = skinned_scene("linear")
    scene.meshes[0].skin_blend = "spline"
    with pytest.raises(ValueError, match=r"meshes\[0\]\.skin_blend"):
        animbin.from_scene(scene, "cast")
