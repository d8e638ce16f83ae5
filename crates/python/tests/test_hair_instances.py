"""Hair and instances of other scene files through the Python scene: Hair and Instance
records, written to Cast by from_scene and read back equal, checked before writing."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import animbin


def groomed_scene() -> animbin.Scene:
    """A material, two hairs (one with 300 segments, past a byte) and two instances."""
    fringe = animbin.Hair(
        "fringe",
        [2, 1, 3],
        [[0, j, 0] for j in range(3)] + [[1, j, 0] for j in range(2)] + [[2, j, 0] for j in range(4)],
        material=0,
    )
    long = animbin.Hair("", np.array([300, 0]), np.arange(302 * 3, dtype=np.float32).reshape(302, 3) * 0.5)
    hat = animbin.Instance(
        "hat",
        "props/hat.cast",
        ([0.0, 0.0, 1.5], [0.0, 0.0, 0.5, 0.75], [2.0, 2.0, 2.0]),
    )
    tree = animbin.Instance(path="C:/scenes/ëxample/tree.cast")
    return animbin.Scene(
        materials=[animbin.Material("hair_mtl")],
        hairs=[fringe, long],
        instances=[hat, tree],
        name="groomed",
    )


def test_hair_and_instance_records_hold_their_arrays_with_their_dtypes():
    scene = groomed_scene()
    fringe, long = scene.hairs
    assert fringe.segments.dtype == np.uint32 and fringe.segments.shape == (3,)
    assert fringe.particles.dtype == np.float32 and fringe.particles.shape == (9, 3)
    assert (fringe.name, fringe.material, long.material) == ("fringe", 0, None)
    hat, tree = scene.instances
    assert (hat.name, hat.path, tree.name, tree.path) == ("hat", "props/hat.cast", "", "C:/scenes/ëxample/tree.cast")
    t, r, s = tree.placement
    assert all(a.dtype == np.float64 for a in (t, r, s))
    np.testing.assert_array_equal(np.concatenate([t, r, s]), [0, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    np.testing.assert_array_equal(hat.placement[1], [0.0, 0.0, 0.5, 0.75])


def test_a_hand_made_scene_with_hair_and_instances_writes_cast_and_reads_back_equal(tmp_path):
    scene = groomed_scene()
    doc = animbin.from_scene(scene, "cast")
    assert doc.validate() == []
    doc.write(tmp_path / "groomed.cast")
    back = animbin.open(tmp_path / "groomed.cast").scene()
    assert back.lost == []
    assert back.hairs == scene.hairs
    assert back.instances == scene.instances
    assert back == scene
    # And once more: the same bytes.
    assert animbin.from_scene(back, "cast").to_bytes() == doc.to_bytes()


def test_instance_placements_beyond_float32_are_a_loss_in_cast():
    scene = animbin.Scene(instances=[animbin.Instance("a", "a.cast", ([0.1, 0, 0], [0, 0, 0, 1], [1, 1, 1]))])
    with pytest.warns(animbin.LossWarning, match="instance placement digits beyond f32"):
        back = animbin.from_scene(scene, "cast").scene()
    np.testing.assert_array_equal(back.instances[0].placement[0], np.float64(np.float32(0.1)) * np.array([1, 0, 0]))


def test_formats_without_hair_or_instances_warn_that_they_drop_them():
    scene = groomed_scene()
    scene.meshes = [animbin.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        animbin.from_scene(scene, "semodel")
    lost = "\n".join(str(w.message) for w in caught if issubclass(w.category, animbin.LossWarning))
    assert "hair (5 strands; SEModel has no hair)" in lost, lost
    assert "2 instances of other scene files (SEModel has no instances)" in lost, lost


def test_a_particle_count_that_is_not_the_sum_of_segments_plus_one_is_refused():
    scene = groomed_scene()
    scene.hairs[0].particles = scene.hairs[0].particles[:8]
    with pytest.raises(ValueError, match=r"^hairs\[0\]\.particles: 8 rows, but the segments call for 9 "):
        animbin.from_scene(scene, "cast")
    # Segments that overflow uint32 when summed are counted exactly.
    scene.hairs[0] = animbin.Hair("big", [2**32 - 1, 2**32 - 1], np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"^hairs\[0\]\.particles: 2 rows, but the segments call for 8589934592 "):
        animbin.from_scene(scene, "cast")


def test_bad_hair_and_instance_fields_are_named():
    with pytest.raises(ValueError, match=r"^Hair\.segments\[1\]: -1 does not fit in uint32"):
        animbin.Hair("h", [1, -1])
    with pytest.raises(ValueError, match=r"^Hair\.particles: expected an array of shape \(n, 3\)"):
        animbin.Hair("h", [1], [[0, 0], [1, 1]])
    with pytest.raises(ValueError, match=r"^Hair\.material: an index cannot be negative"):
        animbin.Hair("h", material=-1)
    with pytest.raises(ValueError, match=r"^Instance\.placement\[1\]: expected an array of shape \(4,\)"):
        animbin.Instance("i", "i.cast", ([0, 0, 0], [0, 0, 1], [1, 1, 1]))
    scene = groomed_scene()
    scene.hairs[1].material = 5
    with pytest.raises(animbin.FormatError, match=r"hairs\[1\]\.material: 5 is past the 1 materials"):
        animbin.from_scene(scene, "cast")
    scene = groomed_scene()
    scene.instances[0].placement = (np.zeros(3), np.zeros(4), np.full(3, np.inf))
    with pytest.raises(animbin.FormatError, match=r"instances\[0\]\.placement: inf is not finite"):
        animbin.from_scene(scene, "cast")
    scene = groomed_scene()
    scene.instances.append(scene.hairs[0])
    with pytest.raises(TypeError, match=r"^Scene\.instances\[2\]: expected a Instance, got Hair"):
        animbin.from_scene(scene, "cast")


@pytest.mark.parametrize("target", ["glb", "gltf"])
def test_hair_and_instances_come_back_from_gltf(target):
    scene = groomed_scene()
    # glTF nodes hold unit rotations: the hat's (0, 0, 0.5, 0.75) is not one.
    with pytest.warns(animbin.LossWarning, match="rotations not of unit length"):
        animbin.from_scene(scene, target)
    t, _, s = scene.instances[0].placement
    scene.instances[0].placement = (t, np.array([0.5, 0.5, 0.5, 0.5]), s)
    with warnings.catch_warnings():
        warnings.simplefilter("error", animbin.LossWarning)
        data = animbin.from_scene(scene, target).to_bytes()
    back = animbin.open(data).scene()
    assert back.hairs == scene.hairs
    assert back.instances == scene.instances
