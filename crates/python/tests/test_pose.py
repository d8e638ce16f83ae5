"""animbin.pose: the library's rules for what an animation's kind means for a key.

The reference is the NumPy implementation the Blender extension carried before the rules
moved into the library (blender/animbin_io/pose.py, issue 19), kept here verbatim as
``_numpy_reference``: the library must give the same numbers (to 1e-12) for random rest
poses and keys of every kind.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

import animbin
import animbin.pose
from animbin.pose import apply_rotation, apply_translation, effective_kinds, remove_rotation, remove_translation

KINDS = ("absolute", "relative", "delta", "additive")
TOLERANCE = 1e-12


class _numpy_reference:
    """The extension's NumPy functions as they were (pose-bone basis <-> file keys)."""

    @staticmethod
    def quat_multiply(a, b):
        ax, ay, az, aw = np.moveaxis(np.asarray(a, dtype=np.float64), -1, 0)
        bx, by, bz, bw = np.moveaxis(np.asarray(b, dtype=np.float64), -1, 0)
        return np.stack(
            [
                aw * bx + ax * bw + ay * bz - az * by,
                aw * by - ax * bz + ay * bw + az * bx,
                aw * bz + ax * by - ay * bx + az * bw,
                aw * bw - ax * bx - ay * by - az * bz,
            ],
            axis=-1,
        )

    @staticmethod
    def quat_conjugate(q):
        q = np.array(q, dtype=np.float64)
        q[..., :3] *= -1.0
        return q

    @staticmethod
    def quat_rotate(q, v):
        q = np.asarray(q, dtype=np.float64)
        v = np.asarray(v, dtype=np.float64)
        u = q[..., :3]
        w = q[..., 3:4]
        t = 2.0 * np.cross(u, v)
        return v + w * t + np.cross(u, t)

    @staticmethod
    def quat_normalize(q):
        q = np.array(q, dtype=np.float64)
        n = np.linalg.norm(q, axis=-1, keepdims=True)
        q = q / np.where(n > 0.0, n, 1.0)
        q[n[..., 0] == 0.0] = (0.0, 0.0, 0.0, 1.0)
        return q

    @classmethod
    def keys_to_basis_translation(cls, kind, tr, rr, keys):
        keys = np.asarray(keys, dtype=np.float64).reshape(-1, 3)
        inverse = cls.quat_conjugate(cls.quat_normalize(rr))
        if kind == "delta":
            return keys.copy()
        if kind in ("relative", "additive"):
            return cls.quat_rotate(inverse, keys)
        return cls.quat_rotate(inverse, keys - np.asarray(tr, dtype=np.float64))

    @classmethod
    def basis_to_keys_translation(cls, kind, tr, rr, location):
        location = np.asarray(location, dtype=np.float64).reshape(-1, 3)
        rr = cls.quat_normalize(rr)
        if kind == "delta":
            return location.copy()
        if kind in ("relative", "additive"):
            return cls.quat_rotate(rr, location)
        return cls.quat_rotate(rr, location) + np.asarray(tr, dtype=np.float64)

    @classmethod
    def keys_to_basis_rotation(cls, kind, rr, keys):
        keys = np.asarray(keys, dtype=np.float64).reshape(-1, 4)
        if kind == "additive":
            return keys.copy()
        return cls.quat_multiply(cls.quat_conjugate(cls.quat_normalize(rr)), keys)

    @classmethod
    def basis_to_keys_rotation(cls, kind, rr, rotation):
        rotation = np.asarray(rotation, dtype=np.float64).reshape(-1, 4)
        if kind == "additive":
            return rotation.copy()
        return cls.quat_multiply(cls.quat_normalize(rr), rotation)

    @staticmethod
    def effective_kinds(track_bones, overrides, parents_of, default):
        kinds = []
        for name in track_bones:
            kind = default
            at = name
            for _ in range(len(parents_of) + 1):
                if at is None:
                    break
                if at in overrides:
                    kind = overrides[at]
                    break
                at = parents_of.get(at)
            kinds.append(kind)
        return kinds

    # What plays (a parent-space key) is an absolute key: the basis of a key of `kind`
    # read back as absolute, and the other way round.
    @classmethod
    def apply_translation(cls, kind, tr, rr, keys):
        return cls.basis_to_keys_translation("absolute", tr, rr, cls.keys_to_basis_translation(kind, tr, rr, keys))

    @classmethod
    def remove_translation(cls, kind, tr, rr, values):
        return cls.basis_to_keys_translation(kind, tr, rr, cls.keys_to_basis_translation("absolute", tr, rr, values))

    @classmethod
    def apply_rotation(cls, kind, tr, rr, keys):
        return cls.basis_to_keys_rotation("absolute", rr, cls.keys_to_basis_rotation(kind, rr, keys))

    @classmethod
    def remove_rotation(cls, kind, tr, rr, values):
        return cls.basis_to_keys_rotation(kind, rr, cls.keys_to_basis_rotation("absolute", rr, values))


REF = _numpy_reference


def unit_quats(rng, n):
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def rest_poses(rng, count=8):
    """Random rest poses, some with a rotation that is not unit length (the rules
    normalise it) and one the identity."""
    poses = [(np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0]))]
    for i in range(count):
        tr = rng.normal(scale=10.0, size=3)
        rr = unit_quats(rng, 1)[0] * (1.0 if i % 2 else rng.uniform(0.5, 2.0))
        poses.append((tr, rr))
    return poses


def close(got, want, what):
    assert got.dtype == np.float64, what
    assert got.shape == want.shape, what
    err = np.max(np.abs(got - want), initial=0.0)
    assert err <= TOLERANCE, f"{what}: off by {err}"


def test_the_module_and_its_names():
    from animbin import pose

    assert sys.modules["animbin.pose"] is pose
    assert set(animbin.pose.KINDS) == set(KINDS)
    for name in ("apply_translation", "remove_translation", "apply_rotation", "remove_rotation", "effective_kinds"):
        function = getattr(animbin.pose, name)
        assert function.__doc__ and len(function.__doc__) > 40, name
    assert "pose" not in animbin.__all__  # a submodule, like the stubs say (from . import pose)


def test_the_stub_names_what_the_submodule_has():
    import ast
    import pathlib

    stub = pathlib.Path(animbin.__file__).with_name("pose.pyi")
    tree = ast.parse(stub.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
            runtime = getattr(animbin.pose, node.name)
            arguments = [a.arg for a in node.args.args]
            assert runtime.__text_signature__ == f"({', '.join(arguments)})", node.name
        elif isinstance(node, ast.AnnAssign) and node.target.id != "Kind":
            names.add(node.target.id)
    public = {n for n in dir(animbin.pose) if not n.startswith("_")}
    assert names == public


@pytest.mark.parametrize("kind", KINDS)
def test_translations_match_the_numpy_rules(kind):
    rng = np.random.default_rng(19)
    for tr, rr in rest_poses(rng):
        keys = rng.normal(scale=5.0, size=(33, 3))
        close(apply_translation(kind, tr, rr, keys), REF.apply_translation(kind, tr, rr, keys), f"apply {kind}")
        close(remove_translation(kind, tr, rr, keys), REF.remove_translation(kind, tr, rr, keys), f"remove {kind}")
        close(remove_translation(kind, tr, rr, apply_translation(kind, tr, rr, keys)), keys, f"round trip {kind}")


@pytest.mark.parametrize("kind", KINDS)
def test_rotations_match_the_numpy_rules(kind):
    rng = np.random.default_rng(1919)
    for tr, rr in rest_poses(rng):
        keys = unit_quats(rng, 33)
        close(apply_rotation(kind, tr, rr, keys), REF.apply_rotation(kind, tr, rr, keys), f"apply {kind}")
        close(remove_rotation(kind, tr, rr, keys), REF.remove_rotation(kind, tr, rr, keys), f"remove {kind}")
        close(remove_rotation(kind, tr, rr, apply_rotation(kind, tr, rr, keys)), keys, f"round trip {kind}")


def test_the_table():
    h = np.sqrt(0.5)
    tr = np.array([10.0, 0.0, 0.0])
    rr = np.array([0.0, 0.0, h, h])  # 90 degrees about Z: the rest X axis is the parent's Y
    key = np.array([[2.0, 0.0, 0.0]])
    close(apply_translation("absolute", tr, rr, key), key, "absolute")
    close(apply_translation("relative", tr, rr, key), np.array([[12.0, 0.0, 0.0]]), "relative")
    close(apply_translation("additive", tr, rr, key), np.array([[12.0, 0.0, 0.0]]), "additive")
    close(apply_translation("delta", tr, rr, key), np.array([[10.0, 2.0, 0.0]]), "delta")
    q = np.array([[0.0, 0.0, h, h]])
    close(apply_rotation("additive", tr, rr, q), np.array([[0.0, 0.0, 1.0, 0.0]]), "additive rotation")
    for kind in ("absolute", "relative", "delta"):
        close(apply_rotation(kind, tr, rr, q), q, f"{kind} rotation")


def test_rotation_keys_pass_through_unless_additive_which_is_unit():
    rng = np.random.default_rng(7)
    tr, rr = rng.normal(size=3), unit_quats(rng, 1)[0]
    keys = unit_quats(rng, 10) * rng.uniform(0.9, 1.1, size=(10, 1))
    for kind in ("absolute", "relative", "delta"):
        assert np.array_equal(apply_rotation(kind, tr, rr, keys), keys)
        assert np.array_equal(remove_rotation(kind, tr, rr, keys), keys)
    for played in (apply_rotation("additive", tr, rr, keys), remove_rotation("additive", tr, rr, keys)):
        close(np.linalg.norm(played, axis=1), np.ones(10), "additive is unit length")


def test_empty_and_large_and_strided_arrays():
    rng = np.random.default_rng(3)
    tr, rr = rng.normal(size=3), unit_quats(rng, 1)[0]
    for kind in KINDS:
        functions = ((apply_translation, 3), (remove_translation, 3), (apply_rotation, 4), (remove_rotation, 4))
        for function, width in functions:
            empty = function(kind, tr, rr, np.zeros((0, width)))
            assert empty.shape == (0, width) and empty.dtype == np.float64
    # Large enough that the GIL is released: the same numbers as row by row.
    many = rng.normal(size=(10_000, 3))
    close(apply_translation("delta", tr, rr, many), REF.apply_translation("delta", tr, rr, many), "10000 rows")
    quats = unit_quats(rng, 10_000)
    close(apply_rotation("additive", tr, rr, quats), REF.apply_rotation("additive", tr, rr, quats), "10000 rotations")
    # Views that are not C-contiguous (every other row, Fortran order, a reversed rest pose).
    strided = many[::2]
    close(apply_translation("delta", tr, rr, strided), REF.apply_translation("delta", tr, rr, strided), "strided")
    fortran = np.asfortranarray(many[:50])
    close(remove_translation("delta", tr, rr, fortran), REF.remove_translation("delta", tr, rr, fortran), "Fortran")
    tr_reversed = tr[::-1].copy()[::-1]
    close(apply_translation("relative", tr_reversed, rr, many[:5]), many[:5] + tr, "reversed rest translation")


def test_results_are_new_arrays():
    tr, rr = np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0])
    keys = np.ones((4, 3))
    out = apply_translation("absolute", tr, rr, keys)
    out[:] = 7.0
    assert np.array_equal(keys, np.ones((4, 3)))


def test_float32_keys_are_taken_as_they_widen():
    # A single-precision file's scene hands out float32 keys: the functions take them as the
    # float64 values they are exactly.
    tr, rr = np.array([0.5, -1.0, 2.0]), np.array([0.0, 0.0, 0.38268343, 0.92387953])
    keys = np.array([[0.1, 0.2, 0.3], [1.5, -2.25, 4.0]], dtype=np.float32)
    for kind in ("absolute", "relative", "additive", "delta"):
        seen = apply_translation(kind, tr.astype(np.float32), rr.astype(np.float32), keys)
        as_float64 = [a.astype(np.float32).astype(np.float64) for a in (tr, rr, keys)]
        assert seen.dtype == np.float64
        assert np.array_equal(seen, apply_translation(kind, *as_float64))


def test_shapes_dtypes_and_kinds_are_checked():
    tr, rr = np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0])
    keys3, keys4 = np.zeros((2, 3)), np.zeros((2, 4))
    with pytest.raises(ValueError, match=r"apply_translation: keys: expected dtype float64 or float32, got float16"):
        apply_translation("absolute", tr, rr, keys3.astype(np.float16))
    with pytest.raises(ValueError, match=r"apply_translation: keys: expected shape \(N, 3\), got \(2, 4\)"):
        apply_translation("absolute", tr, rr, keys4)
    with pytest.raises(ValueError, match=r"remove_rotation: keys: expected shape \(N, 4\), got \(2, 3\)"):
        remove_rotation("additive", tr, rr, keys3)
    with pytest.raises(ValueError, match=r"apply_rotation: keys: expected shape \(N, 4\), got \(4,\)"):
        apply_rotation("absolute", tr, rr, np.zeros(4))
    with pytest.raises(ValueError, match=r"remove_translation: rest_translation: expected shape \(3,\), got \(4,\)"):
        remove_translation("relative", np.zeros(4), rr, keys3)
    with pytest.raises(ValueError, match=r"apply_rotation: rest_rotation: expected shape \(4,\), got \(1, 4\)"):
        apply_rotation("additive", tr, rr.reshape(1, 4), keys4)
    with pytest.raises(ValueError, match=r"apply_translation: rest_rotation: expected dtype float64 or float32, got int64"):
        apply_translation("delta", tr, np.array([0, 0, 0, 1], dtype=np.int64), keys3)
    with pytest.raises(ValueError, match=r"apply_translation: kind: unknown animation kind \"sideways\""):
        apply_translation("sideways", tr, rr, keys3)
    with pytest.raises(TypeError, match=r"apply_translation: keys: expected a NumPy float64 array .* got list"):
        apply_translation("absolute", tr, rr, [[0.0, 0.0, 0.0]])
    with pytest.raises(TypeError, match=r"apply_rotation: rest_translation: .* got tuple"):
        apply_rotation("absolute", (0.0, 0.0, 0.0), rr, keys4)


def random_hierarchy(rng, n):
    """Bone name -> parent name, parents before children, in dict order."""
    parents = {}
    for i in range(n):
        parents[f"b{i}"] = None if i == 0 or rng.random() < 0.1 else f"b{rng.integers(0, i)}"
    return parents


def test_effective_kinds_match_the_numpy_rules():
    rng = np.random.default_rng(42)
    for _ in range(50):
        parents = random_hierarchy(rng, int(rng.integers(1, 40)))
        names = list(parents)
        overrides = {name: KINDS[int(rng.integers(0, 4))] for name in names if rng.random() < 0.2}
        tracks = [n for n in names if rng.random() < 0.8] + ["not_a_bone"]
        default = KINDS[int(rng.integers(0, 4))]
        got = effective_kinds(default, tracks, overrides, parents)
        assert got == REF.effective_kinds(tracks, overrides, parents, default)


def test_effective_kinds_reach_children_and_the_nearest_wins():
    parents = {"root": None, "gun": "root", "mag": "gun", "arm": "root"}
    tracks = ["root", "gun", "mag", "arm", "elsewhere", "own"]
    overrides = {"gun": "relative", "own": "delta", "arm": None}
    assert effective_kinds("absolute", tracks, overrides, parents) == [
        "absolute",
        "relative",
        "relative",
        "absolute",
        "absolute",
        "delta",
    ]
    # A parent cycle and a parent that is not a bone end the walk.
    parents = {"a": "b", "b": "a", "c": "nowhere"}
    assert effective_kinds("additive", ["a", "b", "c"], {}, parents) == ["additive"] * 3
    assert effective_kinds("additive", ["a", "c"], {"b": "delta"}, parents) == ["delta", "additive"]
    assert effective_kinds("delta", [], {}, {}) == []
    # Any iterable of names and any mapping with items().
    overrides = types.MappingProxyType({"y": "relative"})
    assert effective_kinds("delta", iter(("x", "z")), overrides, {"x": None, "y": "x", "z": "y"}) == [
        "delta",
        "relative",
    ]


def test_effective_kinds_arguments_are_checked():
    with pytest.raises(ValueError, match=r"effective_kinds: kind: unknown animation kind"):
        effective_kinds("sideways", [], {}, {})
    with pytest.raises(ValueError, match=r"effective_kinds: overrides\[\"a\"\]: unknown animation kind \"up\""):
        effective_kinds("absolute", ["a"], {"a": "up"}, {"a": None})
    with pytest.raises(TypeError, match=r"effective_kinds: track_bones: expected an iterable of bone names, got str"):
        effective_kinds("absolute", "a", {}, {"a": None})
    with pytest.raises(TypeError, match=r"effective_kinds: parents: expected a mapping"):
        effective_kinds("absolute", ["a"], {}, ["a"])
    with pytest.raises(TypeError, match=r"effective_kinds: overrides: expected a mapping"):
        effective_kinds("absolute", ["a"], {"a": 3}, {"a": None})
