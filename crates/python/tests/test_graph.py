"""The scene graph in Python: plain nodes, mesh instances, skins, cameras, lights, texture
links and default morph weights of Blender-made glTF files (testdata/graph) read into
``animbin.Scene``, and a scene carried through Python back to glTF with all of it."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

import animbin
from conftest import TESTDATA

GRAPH = TESTDATA / "graph"


def gltf_json(glb: bytes) -> dict:
    """The JSON chunk of a glb."""
    (length,) = struct.unpack_from("<I", glb, 12)
    return json.loads(glb[20 : 20 + length])


def scene_of(name: str) -> animbin.Scene:
    return animbin.open(GRAPH / name).scene()


def test_plain_nodes_are_marked_and_bones_are_not():
    scene = scene_of("armature_under_empty.glb")
    skeleton = scene.skeleton
    assert skeleton.plain.dtype == np.bool_ and skeleton.plain.shape == (len(skeleton),)
    source = gltf_json((GRAPH / "armature_under_empty.glb").read_bytes())
    joints = {source["nodes"][j]["name"] for skin in source["skins"] for j in skin["joints"]}
    for name, plain in zip(skeleton.names, skeleton.plain):
        assert plain == (name not in joints), name


def test_cameras_and_lights_name_their_nodes():
    scene = scene_of("cameras_light.glb")
    source = gltf_json((GRAPH / "cameras_light.glb").read_bytes())
    types = sorted(c["type"] for c in scene.cameras)
    assert types == sorted(c["type"] for c in source["cameras"])
    for camera in scene.cameras:
        node = scene.skeleton.names[camera["node"]]
        described = next(n for n in source["nodes"] if n.get("name") == node)
        assert source["cameras"][described["camera"]]["type"] == camera["type"]
        if camera["type"] == "perspective":
            assert camera["yfov"] == pytest.approx(source["cameras"][described["camera"]]["perspective"]["yfov"])
    lights = source["extensions"]["KHR_lights_punctual"]["lights"]
    assert [light["type"] for light in scene.lights] == [light["type"] for light in lights]
    for light, stated in zip(scene.lights, lights):
        assert light["intensity"] == pytest.approx(stated.get("intensity", 1.0))
        assert scene.skeleton.plain[light["node"]]


def test_instances_place_one_mesh_under_several_nodes():
    scene = scene_of("instanced.glb")
    source = gltf_json((GRAPH / "instanced.glb").read_bytes())
    placed = [n for n in source["nodes"] if "mesh" in n]
    assert len(scene.mesh_instances) == len(placed)
    shared = {}
    for instance in scene.mesh_instances:
        shared.setdefault(tuple(instance["meshes"]), []).append(scene.skeleton.names[instance["node"]])
    assert max(len(nodes) for nodes in shared.values()) > 1, shared


def test_a_skin_keeps_its_inverse_bind_matrices_exactly():
    scene = scene_of("bind_scale_100.glb")
    assert scene.skins, "a foreign skin is kept"
    skin = scene.skins[0]
    matrices = skin["inverse_bind_matrices"]
    assert matrices.dtype == np.float64 and matrices.shape == (len(skin["joints"]), 4, 4)
    # Blender wrote them in centimetres: a scale of 100 in every matrix.
    assert np.allclose(np.linalg.norm(matrices[:, :3, 0], axis=1), 100.0, rtol=1e-5)
    assert any(m.skin == 0 for m in scene.meshes)


def test_texture_links_and_surfaces():
    scene = scene_of("pbr_textures.glb")
    slots = {link["slot"] for m in scene.materials for link in m.links}
    # A base colour image read from the first UV layer as it is stays ``Material.texture``.
    slots |= {"base_color" for m in scene.materials if m.texture is not None}
    assert sorted(slots) == ["base_color", "emissive", "metallic_roughness", "normal", "occlusion"]
    assert all(m.surface is not None for m in scene.materials if m.links)
    for material in scene.materials:
        for link in material.links:
            assert 0 <= link["texture"] < len(scene.textures)
    kinds = {bytes(t.png[:3]) for t in scene.textures}
    assert b"\xff\xd8\xff" in kinds and b"\x89PN" in kinds, "JPEG and PNG images kept encoded"


def test_default_morph_weights():
    scene = scene_of("shape_keys.glb")
    weights = [t.default_weight for m in scene.meshes for t in m.morph_targets]
    assert any(w != 0.0 for w in weights), weights


@pytest.mark.parametrize("name", sorted(p.name for p in GRAPH.glob("*.glb")))
def test_the_graph_comes_back_through_python(name):
    """glb -> Python scene -> glb -> Python scene: every graph field equal."""
    first = scene_of(name)
    glb = animbin.from_scene(first, "glb").to_bytes()
    second = animbin.open(glb).scene()
    assert second.skeleton.names == first.skeleton.names
    np.testing.assert_array_equal(second.skeleton.plain, first.skeleton.plain)
    assert second.mesh_instances == first.mesh_instances
    assert second.cameras == first.cameras
    assert second.lights == first.lights
    assert len(second.skins) == len(first.skins)
    for a, b in zip(first.skins, second.skins):
        assert a["joints"] == b["joints"] and a["skeleton"] == b["skeleton"]
        if a["inverse_bind_matrices"] is None:
            assert b["inverse_bind_matrices"] is None
        else:
            np.testing.assert_array_equal(a["inverse_bind_matrices"], b["inverse_bind_matrices"])
    assert [m.links for m in second.materials] == [m.links for m in first.materials]
    assert [m.surface for m in second.materials] == [m.surface for m in first.materials]
    assert [m.skin for m in second.meshes] == [m.skin for m in first.meshes]
    assert [[t.default_weight for t in m.morph_targets] for m in second.meshes] == [
        [t.default_weight for t in m.morph_targets] for m in first.meshes
    ]
    assert [(t.png, t.mime_type) for t in second.textures] == [(t.png, t.mime_type) for t in first.textures]


def test_a_hand_made_graph_is_checked():
    skeleton = animbin.Skeleton(["root", "cam"], [-1, 0], plain=[True, True])
    scene = animbin.Scene(skeleton, cameras=[{"node": 5, "type": "perspective", "yfov": 0.8, "znear": 0.1}])
    with pytest.raises(animbin.FormatError, match="camera"):
        animbin.from_scene(scene, "glb")
    scene.cameras = [{"node": 1, "type": "fisheye", "znear": 0.1}]
    with pytest.raises(ValueError, match=r"cameras\[0\]\.type"):
        animbin.from_scene(scene, "glb")
    scene.cameras = [{"node": 1, "type": "orthographic", "xmag": 2.0, "ymag": 1.0, "znear": 0.1, "zfar": 50.0}]
    glb = animbin.from_scene(scene, "glb").to_bytes()
    camera = gltf_json(glb)["cameras"][0]
    assert camera["type"] == "orthographic" and camera["orthographic"]["xmag"] == 2.0


def test_step_and_cubic_channels_keep_their_own_curves():
    """A glTF's STEP channel in a LINEAR animation and a cubic spline's tangents reach
    Python as the channel's curve, and come back to glTF as the same samplers and bytes."""
    source = (GRAPH / "step_cubic.glb").read_bytes()
    described = gltf_json(source)
    samplers = sorted(s["interpolation"] for a in described["animations"] for s in a["samplers"])
    scene = animbin.open(source).scene()
    curves = [(t.bone, channel, c["type"]) for a in scene.animations for t in a.tracks for channel, c in t.curves.items()]
    assert curves, samplers
    cubic = [c for a in scene.animations for t in a.tracks for c in t.curves.values() if c["type"] == "cubic_spline"]
    assert len(cubic) == samplers.count("CUBICSPLINE")
    for c in cubic:
        assert c["incoming"].dtype == np.float64 and c["incoming"].shape == c["outgoing"].shape
    again = gltf_json(animbin.from_scene(scene, "glb").to_bytes())
    assert sorted(s["interpolation"] for a in again["animations"] for s in a["samplers"]) == samplers
    # A format of one interpolation per animation samples the spline and says so.
    with pytest.warns(animbin.LossWarning, match="cubic spline channel"):
        animbin.from_scene(scene, "cast")
