"""How file keys become Blender pose-bone channels and back (no bpy).

A pose bone's channels (``location``, ``rotation_quaternion``, ``scale``, the "basis") are
relative to the bone's rest pose: the bone's transform in its parent's space is
``rest @ basis``. A file's key, once its animation kind is applied, is that same
parent-space transform, so ``basis = rest^-1 @ key``. With the rest pose a translation
``tr`` and rotation ``rr`` (Blender bones carry no rest scale) this splits per channel:

- location ``= rr^-1 * (translation - tr)``
- rotation ``= rr^-1 * rotation``
- scale ``= scale`` as it plays (an absolute key divided by the bone's rest scale, Cast's
  ``s``, as ``animbin_core::pose::apply_scale`` does)

so each channel keeps its own key frames. That split is Blender's and is all this module
computes. What a key of an animation's kind means (the parent-space transform it plays
over the rest pose, and which kind each bone's track has) is animbin's and is written
once, in the library: ``animbin.pose`` (``apply_*`` on import, ``remove_*`` on export,
``effective_kinds``).

Quaternions here are arrays of x, y, z, w (animbin's order); Blender's are w, x, y, z.
"""

from __future__ import annotations

import math

import numpy as np

import animbin

# No kind's rotation rule reads the rest translation; animbin.pose takes one anyway.
_NO_TRANSLATION = np.zeros(3)


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


def slerp_every_frame(frames: np.ndarray, rotations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rotation keys (K, 4) x y z w at ``frames`` as keys at every whole frame from the
    first key to the last (and at the keys' own frames), slerped between neighbouring keys.

    Blender interpolates a quaternion's components linearly, which between two keys turns
    neither at a steady rate nor along the arc; keys at every frame follow the arc. Each key
    is first put in the hemisphere of the one before it (the same rotation), so that every
    step takes the shorter arc and the keys run on without sign flips. Frames are sorted and
    a repeated frame keeps its last key."""
    frames = np.asarray(frames, dtype=np.float64).reshape(-1)
    keys = quat_normalize(_rows(rotations, 4))
    order = np.argsort(frames, kind="stable")
    frames, keys = frames[order], keys[order]
    last = np.r_[frames[1:] != frames[:-1], True]
    frames, keys = frames[last], keys[last]
    if len(frames) < 2:
        return frames, keys
    for k in range(1, len(keys)):
        if np.dot(keys[k - 1], keys[k]) < 0.0:
            keys[k] = -keys[k]
    every = np.arange(math.ceil(frames[0]), math.floor(frames[-1]) + 1, dtype=np.float64)
    samples = np.union1d(frames, every)
    segment = np.clip(np.searchsorted(frames, samples, side="right") - 1, 0, len(frames) - 2)
    start, end = frames[segment], frames[segment + 1]
    t = np.clip((samples - start) / (end - start), 0.0, 1.0)[:, None]
    a, b = keys[segment], keys[segment + 1]
    cos = np.clip(np.sum(a * b, axis=1, keepdims=True), -1.0, 1.0)
    angle = np.arccos(cos)
    sin = np.sin(angle)
    # Nearly equal keys: a straight line is the arc (and sin(angle) would divide by ~0).
    near = sin < 1e-6
    safe = np.where(near, 1.0, sin)
    wa = np.where(near, 1.0 - t, np.sin((1.0 - t) * angle) / safe)
    wb = np.where(near, t, np.sin(t * angle) / safe)
    return samples, quat_normalize(wa * a + wb * b)


def _rows(values, width: int) -> np.ndarray:
    """``values`` as an (N, width) float64 array, as ``animbin.pose`` takes them."""
    return np.asarray(values, dtype=np.float64).reshape(-1, width)


def keys_to_basis_translation(kind: str, tr: np.ndarray, rr: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """(K, 3) translation keys of ``kind`` as pose-bone locations over the rest pose
    (``tr``, ``rr``)."""
    tr, rr = _rows(tr, 3)[0], _rows(rr, 4)[0]
    played = animbin.pose.apply_translation(kind, tr, rr, _rows(keys, 3))
    return quat_rotate(quat_conjugate(quat_normalize(rr)), played - tr)


def basis_to_keys_translation(kind: str, tr: np.ndarray, rr: np.ndarray, location: np.ndarray) -> np.ndarray:
    """The inverse of :func:`keys_to_basis_translation`."""
    tr, rr = _rows(tr, 3)[0], _rows(rr, 4)[0]
    played = quat_rotate(quat_normalize(rr), _rows(location, 3)) + tr
    return animbin.pose.remove_translation(kind, tr, rr, played)


def keys_to_basis_scale(kind: str, rest_scale, keys: np.ndarray) -> np.ndarray:
    """(K, 3) scale keys of ``kind`` as pose-bone scales: an absolute key is measured
    against the bone's rest scale (``key / rest_scale`` per axis; an axis of rest scale 0
    keeps the key), any other kind's key is the scale (the library's ``apply_scale``)."""
    s = _rows(rest_scale, 3)[0]
    if kind != "absolute" or (s == 1.0).all():
        return np.asarray(keys)
    return _rows(keys, 3) / np.where(s == 0.0, 1.0, s)


def basis_to_keys_scale(kind: str, rest_scale, scale: np.ndarray) -> np.ndarray:
    """The inverse of :func:`keys_to_basis_scale`."""
    s = _rows(rest_scale, 3)[0]
    if kind != "absolute" or (s == 1.0).all():
        return np.asarray(scale)
    return _rows(scale, 3) * np.where(s == 0.0, 1.0, s)


def keys_to_basis_rotation(kind: str, rr: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """(K, 4) x y z w rotation keys of ``kind`` as pose-bone rotations (x y z w) over the
    rest rotation ``rr``."""
    rr = _rows(rr, 4)[0]
    played = animbin.pose.apply_rotation(kind, _NO_TRANSLATION, rr, _rows(keys, 4))
    return quat_multiply(quat_conjugate(quat_normalize(rr)), played)


def basis_to_keys_rotation(kind: str, rr: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """The inverse of :func:`keys_to_basis_rotation`."""
    rr = _rows(rr, 4)[0]
    played = quat_multiply(quat_normalize(rr), _rows(rotation, 4))
    return animbin.pose.remove_rotation(kind, _NO_TRANSLATION, rr, played)


def channel_curve(track, channel: str, interpolation: int, linear: int, constant: int):
    """How ``track``'s ``channel`` is joined: the Blender keyframe interpolation (the
    animation's ``interpolation`` unless the channel has a curve of its own, ``linear`` or
    ``constant``) and, for a cubic spline, its (incoming, outgoing) tangents ((K, n) float64,
    per second), else None."""
    curve = (getattr(track, "curves", None) or {}).get(channel)
    if curve is None:
        return interpolation, None
    if curve["type"] == "cubic_spline":
        return interpolation, (np.asarray(curve["incoming"], dtype=np.float64), np.asarray(curve["outgoing"], dtype=np.float64))
    return (constant if curve["type"] == "step" else linear), None
