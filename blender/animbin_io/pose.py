"""How file keys become Blender pose-bone channels and back, with NumPy (no bpy).

A pose bone's channels (``location``, ``rotation_quaternion``, ``scale``, the "basis") are
relative to the bone's rest pose: the bone's transform in its parent's space is
``rest @ basis``. A file's key is (after its animation kind is applied) that same
parent-space transform, so ``basis = rest^-1 @ key``. With the rest pose a translation
``tr`` and rotation ``rr`` (Blender bones carry no rest scale) this splits per channel:

- location ``= rr^-1 * (translation - tr)``
- rotation ``= rr^-1 * rotation``
- scale ``= scale``

so each channel keeps its own key frames. An animation's kind says how a key plays over
the rest pose; the rules are animbin's (``animbin_core::pose``), which follow SETools for
relative and additive and the SEAnim author's Blender add-on (io_anim_seanim) for delta,
whose translations are offsets along the bone's own rest axes:

========  =====================================  ==========================
kind      parent-space translation                parent-space rotation
========  =====================================  ==========================
absolute  key                                     key
relative  tr + key                                key
delta     tr + rr * key                           key
additive  tr + key                                rr * key
========  =====================================  ==========================

Quaternions here are arrays of x, y, z, w (animbin's order); Blender's are w, x, y, z.
"""

from __future__ import annotations

import numpy as np

KINDS = ("absolute", "relative", "delta", "additive")


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The Hamilton product ``a * b`` of (..., 4) x y z w arrays (``b`` applied first)."""
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


def quat_conjugate(q: np.ndarray) -> np.ndarray:
    """The conjugate (the inverse, for a unit quaternion) of (..., 4) x y z w arrays."""
    q = np.array(q, dtype=np.float64)
    q[..., :3] *= -1.0
    return q


def quat_rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(..., 3) vectors ``v`` turned by the unit quaternions ``q`` (broadcast)."""
    q = np.asarray(q, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    u = q[..., :3]
    w = q[..., 3:4]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def quat_normalize(q: np.ndarray) -> np.ndarray:
    """Unit quaternions (a zero quaternion becomes the identity)."""
    q = np.array(q, dtype=np.float64)
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    q = q / np.where(n > 0.0, n, 1.0)
    q[n[..., 0] == 0.0] = (0.0, 0.0, 0.0, 1.0)
    return q


def keys_to_basis_translation(kind: str, tr: np.ndarray, rr: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """(K, 3) translation keys of ``kind`` as pose-bone locations over the rest pose
    (``tr``, ``rr``)."""
    keys = np.asarray(keys, dtype=np.float64).reshape(-1, 3)
    inverse = quat_conjugate(quat_normalize(rr))
    if kind == "delta":
        return keys.copy()
    if kind in ("relative", "additive"):
        return quat_rotate(inverse, keys)
    return quat_rotate(inverse, keys - np.asarray(tr, dtype=np.float64))


def basis_to_keys_translation(kind: str, tr: np.ndarray, rr: np.ndarray, location: np.ndarray) -> np.ndarray:
    """The inverse of :func:`keys_to_basis_translation`."""
    location = np.asarray(location, dtype=np.float64).reshape(-1, 3)
    rr = quat_normalize(rr)
    if kind == "delta":
        return location.copy()
    if kind in ("relative", "additive"):
        return quat_rotate(rr, location)
    return quat_rotate(rr, location) + np.asarray(tr, dtype=np.float64)


def keys_to_basis_rotation(kind: str, rr: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """(K, 4) x y z w rotation keys of ``kind`` as pose-bone rotations (x y z w) over the
    rest rotation ``rr``."""
    keys = np.asarray(keys, dtype=np.float64).reshape(-1, 4)
    if kind == "additive":
        return keys.copy()
    return quat_multiply(quat_conjugate(quat_normalize(rr)), keys)


def basis_to_keys_rotation(kind: str, rr: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """The inverse of :func:`keys_to_basis_rotation`."""
    rotation = np.asarray(rotation, dtype=np.float64).reshape(-1, 4)
    if kind == "additive":
        return rotation.copy()
    return quat_multiply(quat_normalize(rr), rotation)


def effective_kinds(track_bones, overrides, parents_of, default: str) -> list:
    """The kind of each track: the override of the nearest bone among itself and its
    ancestors whose track carries one (SEAnim modifier bones apply to the bone and its
    children), else ``default``.

    ``track_bones``: bone names in track order; ``overrides``: bone name -> kind;
    ``parents_of``: bone name -> parent name (``None`` for a root or an unknown bone).
    """
    kinds = []
    for name in track_bones:
        kind = default
        at = name
        # A parent cycle cannot loop forever: at most one step per known bone.
        for _ in range(len(parents_of) + 1):
            if at is None:
                break
            if at in overrides:
                kind = overrides[at]
                break
            at = parents_of.get(at)
        kinds.append(kind)
    return kinds
