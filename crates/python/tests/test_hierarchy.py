"""Deep hierarchies: a chain of 100,000 bones opens, builds its scene and is written back,
in time linear in the bones and with no recursion as deep as the chain."""

from __future__ import annotations

import json

import numpy as np
import pytest

import animbin

BONES = 100_000


def gltf_chain_leaf_first(bones: int) -> bytes:
    """A glTF chain as another tool might write it, leaf first: node ``i`` is the bone at depth
    ``bones - 1 - i`` (``bone_{depth}``), one unit above its parent; the root is the last node."""
    nodes = []
    for i in range(bones):
        node = {"name": f"bone_{bones - 1 - i}", "translation": [0, 1, 0]}
        if i > 0:
            node["children"] = [i - 1]
        nodes.append(node)
    document = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [bones - 1]}], "nodes": nodes}
    return json.dumps(document, separators=(",", ":")).encode()


def assert_is_the_chain(skeleton: animbin.Skeleton) -> None:
    """Bone ``k`` is ``bone_{k}``, the child of bone ``k - 1``, ``k + 1`` units up in model space."""
    assert len(skeleton) == BONES
    assert skeleton.names == [f"bone_{k}" for k in range(BONES)]
    np.testing.assert_array_equal(skeleton.parents, np.arange(-1, BONES - 1, dtype=np.int32))
    np.testing.assert_array_equal(skeleton.translations, np.tile([0, 1, 0], (BONES, 1)))
    up = np.zeros((BONES, 3))
    up[:, 1] = np.arange(1, BONES + 1)
    np.testing.assert_array_equal(skeleton.global_translations, up)


def test_a_gltf_chain_of_100000_bones_opens_and_builds_its_scene(tmp_path):
    path = tmp_path / "chain.gltf"
    path.write_bytes(gltf_chain_leaf_first(BONES))
    doc = animbin.open(path)
    assert doc.info()["node_count"] == BONES
    assert_is_the_chain(doc.scene().skeleton)


@pytest.mark.parametrize("target", ["semodel", "cast", "glb"])
def test_a_chain_built_in_python_is_written_and_reads_back_equal(tmp_path, target):
    # Built from local transforms: the global ones are computed down the chain.
    skeleton = animbin.Skeleton(
        [f"bone_{k}" for k in range(BONES)],
        np.arange(-1, BONES - 1),
        translations=np.tile([0, 1, 0], (BONES, 1)),
    )
    assert_is_the_chain(skeleton)
    path = tmp_path / f"chain.{target}"
    animbin.from_scene(animbin.Scene(skeleton), target).write(path)
    back = animbin.open(path).scene().skeleton
    assert_is_the_chain(back)
    assert back == skeleton
