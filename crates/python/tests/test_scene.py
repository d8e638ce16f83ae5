"""Scenes as NumPy arrays: what each sample holds, and scenes built by hand and written."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import animbin
from conftest import TESTDATA, samples

SAMPLES = samples()
IDS = [p.name for p in SAMPLES]


def key_count(animation):
    return sum(len(t.rotation_frames) + len(t.translation_frames) + len(t.scale_frames) for t in animation.tracks)


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_scene_arrays_have_the_counts_info_names(path):
    doc = animbin.open(path)
    info = doc.info()
    scene = doc.scene()
    bones = 0 if scene.skeleton is None else len(scene.skeleton)
    vertices = sum(len(m.positions) for m in scene.meshes)
    faces = sum(len(m.faces) for m in scene.meshes)
    tracks = sum(len(a.tracks) for a in scene.animations)
    fmt = info["format"]
    if fmt == "seanim":
        (animation,) = scene.animations
        assert len(animation.tracks) == info["bone_count"]
        assert len(animation.notes) == info["note_count"]
        assert animation.kind == info["anim_type"]
        assert animation.looping == info["looped"]
        assert animation.framerate == info["framerate"]
        assert animation.frame_count == info["frame_count"]
    elif fmt == "semodel":
        assert bones == info["bone_count"]
        assert len(scene.meshes) == info["mesh_count"]
        assert len(scene.materials) == info["material_count"]
        assert vertices == info["vertex_count"]
        assert faces == info["face_count"]
    elif fmt == "cast":
        assert bones == info["bone_count"]
        assert len(scene.meshes) == info["mesh_count"]
        assert len(scene.materials) == info["material_count"]
        assert len(scene.animations) == info["animation_count"]
        curves = sum(
            (len(t.rotation_frames) > 0) + 3 * (len(t.translation_frames) > 0) + 3 * (len(t.scale_frames) > 0)
            for a in scene.animations
            for t in a.tracks
        )
        assert curves == info["curve_count"]
    elif fmt == "dmf":
        assert bones == info["bone_count"]
        assert vertices == info["vertex_count"]
        assert faces == info["face_count"]
        assert len(scene.materials) == info["material_count"]
        assert len(scene.textures) == info["texture_count"]
        assert len(scene.animations) == info["animation_count"]
    elif fmt == "sf3":
        assert len(scene.animations) == info["segment_count"]
        assert tracks == info["slot_count"]
        assert sum(key_count(a) for a in scene.animations) == info["key_count"]
        assert sum(len(t.rotation_frames) for a in scene.animations for t in a.tracks) == info["rotation_key_count"]
    elif fmt == "animx":
        (animation,) = scene.animations
        assert animation.name == info["name"]
        assert len(animation.tracks) + len(animation.properties) == info["track_count"]
        assert animation.frame_count == info["duration"] * animation.framerate
    else:
        pytest.fail(f"no count check for {fmt}")
    assert all(isinstance(line, str) and line for line in scene.lost)


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_scene_arrays_have_their_dtypes_and_shapes(path):
    scene = animbin.open(path).scene()
    if scene.skeleton is not None:
        s = scene.skeleton
        n = len(s.names)
        assert s.parents.dtype == np.int32 and s.parents.shape == (n,)
        assert ((s.parents >= -1) & (s.parents < n)).all()
        for name, width in (("translations", 3), ("rotations", 4), ("scales", 3)):
            for prefix in ("", "global_"):
                a = getattr(s, prefix + name)
                assert a.dtype == np.float32 and a.shape == (n, width), prefix + name
                assert a.flags.c_contiguous
        assert s.cosmetic.dtype == np.bool_ and s.cosmetic.shape == (n,)
        assert s.bind_matrices.dtype == np.float32 and s.bind_matrices.shape == (n, 4, 4)
    for m in scene.meshes:
        v = len(m.positions)
        assert m.positions.dtype == np.float32 and m.positions.shape == (v, 3)
        assert m.normals is None or (m.normals.dtype == np.float32 and m.normals.shape == (v, 3))
        assert all(uv.dtype == np.float32 and uv.shape == (v, 2) for uv in m.uv_layers)
        assert all(c.dtype == np.uint8 and c.shape == (v, 4) for c in m.color_layers)
        assert m.faces.dtype == np.uint32 and m.faces.shape[1:] == (3,)
        assert (m.faces < v).all()
        if m.bone_indices is not None:
            assert m.bone_indices.dtype == np.uint32 and m.bone_weights.dtype == np.float32
            assert m.bone_indices.shape == m.bone_weights.shape and m.bone_indices.shape[0] == v
        assert m.material == (m.materials[0] if m.materials else None)
    for a in scene.animations:
        assert a.kind in ("absolute", "additive", "relative", "delta")
        assert a.interpolation in ("linear", "step")
        # Key values in the file's precision (test_arrays.py), one dtype per animation.
        dtypes = set()
        for t in a.tracks:
            for name, width in (("rotation", 4), ("translation", 3), ("scale", 3)):
                frames, values = getattr(t, name + "_frames"), getattr(t, name + "s")
                assert frames.dtype == np.float64 and values.dtype in (np.float32, np.float64)
                dtypes.add(values.dtype)
                assert values.shape == (len(frames), width)
                assert values.dtype == a.dtype or len(values) == 0
        assert len(dtypes) <= 1


def test_semodel_arrays_hold_the_files_values():
    scene = animbin.open(TESTDATA / "sample.semodel").scene()
    s = scene.skeleton
    assert s.names == ["tag_origin", "j_spine"]
    assert s.parents.tolist() == [-1, 0]
    (mesh,) = scene.meshes
    assert mesh.faces.tolist() == [[0, 1, 2], [0, 2, 3]]
    assert mesh.uv_layers[1].tolist() == [[0, 2], [2, 2], [2, 0], [0, 0]]
    assert mesh.color_layers[0][2].tolist() == [255, 200, 200, 255]
    assert mesh.materials == [0, 1]
    assert scene.materials[0].textures == {"diffuse": "body_c.png", "normal": "body_n.png", "specular": "body_s.png"}
    np.testing.assert_allclose(mesh.bone_weights.sum(axis=1), 1, rtol=1e-6)


def test_bind_matrices_are_rows_by_columns_for_column_vectors():
    s = animbin.open(TESTDATA / "sample.semodel").scene().skeleton
    m = s.bind_matrices
    # Translation in the last column, a last row of 0 0 0 1.
    np.testing.assert_array_equal(m[:, :3, 3], s.global_translations)
    np.testing.assert_array_equal(m[:, 3], np.tile([0, 0, 0, 1], (len(s), 1)))
    # The local transforms chain into the global ones: global = parent global @ local.
    local = animbin.Skeleton(s.names, s.parents, s.translations, s.rotations, s.scales)
    np.testing.assert_allclose(local.bind_matrices, m, atol=1e-5)
    child = 1
    local_matrix = animbin.Skeleton(["x"], [-1], s.translations[1:], s.rotations[1:], s.scales[1:]).bind_matrices[0]
    np.testing.assert_allclose(m[s.parents[child]] @ local_matrix, m[child], atol=1e-5)


def test_a_skeleton_from_globals_gets_its_locals_and_back():
    s = animbin.open(TESTDATA / "sample.semodel").scene().skeleton
    from_globals = animbin.Skeleton(
        s.names,
        s.parents,
        global_translations=s.global_translations,
        global_rotations=s.global_rotations,
        global_scales=s.global_scales,
    )
    np.testing.assert_allclose(from_globals.translations, s.translations, atol=1e-6)
    np.testing.assert_allclose(np.abs((from_globals.rotations * s.rotations).sum(axis=1)), 1, atol=1e-6)
    bare = animbin.Skeleton(["root", "child"], [-1, 0], translations=[[0, 0, 1], [0, 2, 0]])
    np.testing.assert_array_equal(bare.global_translations, [[0, 0, 1], [0, 2, 1]])
    np.testing.assert_array_equal(bare.rotations, [[0, 0, 0, 1]] * 2)
    np.testing.assert_array_equal(bare.scales, np.ones((2, 3)))


def hand_made_scene() -> animbin.Scene:
    """A skinned quad on two bones with one animation, as an exporter would build it."""
    skeleton = animbin.Skeleton(
        ["root", "arm"],
        [-1, 0],
        translations=[[0, 0, 0], [1, 0, 0]],
        rotations=[[0, 0, 0, 1], [0, 0, 0.70710677, 0.70710677]],
    )
    mesh = animbin.Mesh(
        positions=[[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
        faces=[[0, 1, 2], [0, 2, 3]],
        normals=[[0, 0, 1]] * 4,
        uv_layers=[[[0, 0], [1, 0], [1, 1], [0, 1]]],
        color_layers=[[[255, 0, 0, 255]] * 4],
        bone_indices=[[0, 1], [1, 0], [1, 0], [0, 1]],
        bone_weights=[[1, 0], [0.75, 0.25], [1, 0], [0.5, 0.5]],
        material=0,
        name="quad",
    )
    material = animbin.Material("skin", {"diffuse": "skin_c.png"})
    frames = np.arange(5, dtype=np.float64)
    angle = frames / 4 * np.pi / 2
    rotations = np.stack([np.zeros(5), np.zeros(5), np.sin(angle / 2), np.cos(angle / 2)], axis=1)
    tracks = [
        animbin.BoneTrack("root", translation_frames=[0, 4], translations=[[0, 0, 0], [0, 0, 2]]),
        animbin.BoneTrack("arm", rotation_frames=frames, rotations=rotations.astype(np.float32).astype(np.float64)),
    ]
    animation = animbin.Animation("wave", tracks, framerate=30, notes=[(0, "start"), (4, "end")], looping=True)
    return animbin.Scene(skeleton, [mesh], [material], [animation])


def same_animation(a, b, *, with_name=True):
    assert (a.name == b.name) or not with_name
    assert a.framerate == b.framerate
    assert a.looping == b.looping
    assert a.kind == b.kind
    assert a.notes == b.notes
    assert a.frame_count == b.frame_count
    assert [t.bone for t in a.tracks] == [t.bone for t in b.tracks]
    for x, y in zip(a.tracks, b.tracks):
        for name in ("rotation_frames", "rotations", "translation_frames", "translations", "scale_frames", "scales"):
            np.testing.assert_array_equal(getattr(x, name), getattr(y, name), err_msg=f"{x.bone}.{name}")


def test_a_hand_made_animation_writes_seanim_and_reads_back_equal(tmp_path):
    scene = hand_made_scene()
    doc = animbin.from_scene(animbin.Scene(animations=scene.animations), "seanim")
    assert doc.format == "seanim" and doc.validate() == []
    doc.write(tmp_path / "wave.seanim")
    back = animbin.open(tmp_path / "wave.seanim").scene()
    # SEAnim stores no animation name.
    same_animation(back.animations[0], scene.animations[0], with_name=False)
    assert animbin.open(tmp_path / "wave.seanim").info()["bone_count"] == 2


def test_a_hand_made_model_writes_semodel_and_reads_back_equal(tmp_path):
    scene = hand_made_scene()
    model = animbin.Scene(scene.skeleton, scene.meshes, scene.materials)
    doc = animbin.from_scene(model, "semodel")
    assert doc.validate() == []
    doc.write(tmp_path / "quad.semodel")
    back = animbin.open(tmp_path / "quad.semodel").scene()
    assert back.skeleton == scene.skeleton
    (mesh,) = back.meshes
    expected = scene.meshes[0]
    for name in ("positions", "normals", "faces", "bone_indices", "bone_weights"):
        np.testing.assert_array_equal(getattr(mesh, name), getattr(expected, name), err_msg=name)
    np.testing.assert_array_equal(mesh.uv_layers[0], expected.uv_layers[0])
    np.testing.assert_array_equal(mesh.color_layers[0], expected.color_layers[0])
    assert mesh.materials == [0]
    assert back.materials[0].name == "skin"
    assert back.materials[0].textures["diffuse"] == "skin_c.png"


def test_a_hand_made_scene_writes_cast_and_reads_back_equal(tmp_path):
    scene = hand_made_scene()
    doc = animbin.from_scene(scene, "cast")
    assert doc.validate() == []
    path = tmp_path / "quad.cast"
    doc.write(path)
    back = animbin.open(path).scene()
    assert back.skeleton.names == scene.skeleton.names
    np.testing.assert_array_equal(back.skeleton.parents, scene.skeleton.parents)
    np.testing.assert_array_equal(back.skeleton.translations, scene.skeleton.translations)
    np.testing.assert_array_equal(back.skeleton.rotations, scene.skeleton.rotations)
    (mesh,) = back.meshes
    assert mesh.name == "quad"
    np.testing.assert_array_equal(mesh.positions, scene.meshes[0].positions)
    np.testing.assert_array_equal(mesh.faces, scene.meshes[0].faces)
    np.testing.assert_array_equal(mesh.bone_weights, scene.meshes[0].bone_weights)
    same_animation(back.animations[0], scene.animations[0])


def dense_weights(mesh, bones):
    """(V, bones) weight matrix: the skin whatever order and padding its slots have."""
    dense = np.zeros((len(mesh.positions), bones))
    for k in range(mesh.bone_indices.shape[1]):
        np.add.at(dense, (np.arange(len(dense)), mesh.bone_indices[:, k]), mesh.bone_weights[:, k])
    return dense


def test_a_scene_read_from_a_file_builds_a_file_with_the_same_scene():
    # Textures (DMF's PNGs) and AnimX's property tracks travel as bytes.
    for name in ("sample.semodel", "sample.cast", "sample.seanim", "sample.animx"):
        doc = animbin.open(TESTDATA / name)
        scene = doc.scene()
        rebuilt = animbin.from_scene(scene, doc.format)
        assert rebuilt.scene() == scene, name
    # DMF's writer stores each vertex's weights heaviest first without empty slots: the
    # same skin in other slots.
    scene = animbin.open(TESTDATA / "sample.dmf").scene()
    back = animbin.from_scene(scene, "dmf").scene()
    assert (back.skeleton, back.materials, back.textures, back.animations) == (
        scene.skeleton,
        scene.materials,
        scene.textures,
        scene.animations,
    )
    assert back.textures[0].png.startswith(b"\x89PNG")
    bones = len(scene.skeleton)
    np.testing.assert_array_equal(dense_weights(back.meshes[0], bones), dense_weights(scene.meshes[0], bones))
    np.testing.assert_array_equal(back.meshes[0].positions, scene.meshes[0].positions)


def test_what_a_format_cannot_hold_is_a_loss_warning_or_with_strict_an_error():
    scene = hand_made_scene()
    with pytest.warns(animbin.LossWarning, match="seanim cannot hold"):
        animbin.from_scene(scene, "seanim")
    with pytest.raises(animbin.FormatError, match="strict"):
        animbin.from_scene(scene, "seanim", strict=True)
    x8an = animbin.open(TESTDATA / "x8an00.bin")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x8an.convert("seanim", animation="segment0")
    assert any(issubclass(w.category, animbin.LossWarning) for w in caught)
    with pytest.raises(animbin.FormatError, match="strict"):
        x8an.scene(strict=True)


def test_a_scene_that_does_not_fit_names_the_field():
    # Fields of a scene are named by their place in it, as the library's check names them.
    scene = hand_made_scene()
    scene.meshes[0].normals = np.zeros((3, 3))
    with pytest.raises(ValueError, match=r"^meshes\[0\]\.normals: 3 rows, but the vertex count is 4"):
        animbin.from_scene(scene, "semodel")
    scene = hand_made_scene()
    scene.animations[0].tracks[1].rotations = np.zeros((5, 3))
    with pytest.raises(ValueError, match=r"^animations\[0\]\.tracks\[1\]\.rotations: expected an array of shape \(n, 4\)"):
        animbin.from_scene(scene, "seanim")
    with pytest.raises(ValueError, match="Skeleton.parents"):
        animbin.Skeleton(["a", "b"], [-1])
    with pytest.raises(ValueError, match="bone_indices and bone_weights go together"):
        animbin.Mesh([[0, 0, 0]], [], bone_indices=[[0]])
    with pytest.raises(TypeError, match=r"Scene.meshes\[0\]: expected a Mesh"):
        animbin.from_scene(animbin.Scene(meshes=["quad"]), "semodel")
    with pytest.raises(ValueError, match="a dump"):
        animbin.from_scene(hand_made_scene(), "json")
    scene = hand_made_scene()
    scene.skeleton.parents = np.array([-1, -7], dtype=np.int32)
    with pytest.raises(ValueError, match=r"^skeleton\.parents\[1\]: -7 is neither a bone index nor -1"):
        animbin.from_scene(scene, "semodel")


def test_a_model_for_an_animation_format_writes_nothing():
    scene = hand_made_scene()
    with pytest.raises(animbin.FormatError) as e:
        model = animbin.Scene(scene.skeleton, scene.meshes, scene.materials)
        animbin.open(animbin.from_scene(model, "semodel").to_bytes()).convert(
            "seanim"
        )
    assert e.value.format == "semodel"
