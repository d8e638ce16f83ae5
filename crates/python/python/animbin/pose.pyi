"""Type stubs for ``animbin.pose``: what an animation's kind means for a key, animbin's
rules (``animbin_core::pose``) over NumPy arrays.

A file's translation and rotation keys are local to the parent bone; the animation's
kind (SEAnim's anim type) says how they play over the bone's rest pose (its local bind
transform, a translation ``tr`` and an x y z w rotation ``rr``):

========  ==================================  ====================================
kind      parent-space translation            parent-space rotation
========  ==================================  ====================================
absolute  key                                 key
relative  tr + key                            key
delta     tr + rr * key (along rest axes)     key
additive  tr + key                            rr * key (key applied first), unit
========  ==================================  ====================================

Relative and additive follow SETools; delta follows the SEAnim author's Blender add-on
(io_anim_seanim). ``apply_*`` gives what plays, ``remove_*`` the keys back.

Arrays are NumPy float64 (float32 ones, which a single-precision file's scene hands out,
are widened exactly): ``rest_translation`` (3,), ``rest_rotation`` (4,) x y z w,
``keys`` (N, 3) translations or (N, 4) x y z w rotations (N may be 0); the result is a
new float64 array of the keys' shape. A wrong dtype or shape is a ``ValueError`` naming the
argument, something other than a NumPy array a ``TypeError``, an unknown kind a
``ValueError`` listing the valid ones. The GIL is released while large arrays are
computed.
"""

from typing import Any, Iterable, Literal, Mapping, Optional

import numpy as np
from numpy.typing import NDArray

Kind = Literal["absolute", "additive", "relative", "delta"]

KINDS: tuple[Kind, ...]
"""The kind names: ``("absolute", "additive", "relative", "delta")``."""

def apply_translation(
    kind: Kind, rest_translation: NDArray[np.float64], rest_rotation: NDArray[np.float64], keys: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The parent-space translations (N, 3) that play for translation keys (N, 3) of
    ``kind`` over the rest pose: the key (absolute), ``tr + key`` (relative, additive) or
    ``tr + rr * key`` (delta, with ``rr`` normalised)."""

def remove_translation(
    kind: Kind, rest_translation: NDArray[np.float64], rest_rotation: NDArray[np.float64], keys: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The inverse of ``apply_translation``: translation keys (N, 3) of ``kind`` for the
    parent-space translations ``keys`` (N, 3)."""

def apply_rotation(
    kind: Kind, rest_translation: NDArray[np.float64], rest_rotation: NDArray[np.float64], keys: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The parent-space rotations (N, 4) x y z w that play for rotation keys (N, 4) of
    ``kind``: the key, except ``additive``: ``rr * key``, normalised. ``rest_translation``
    is checked but no kind's rotation uses it."""

def remove_rotation(
    kind: Kind, rest_translation: NDArray[np.float64], rest_rotation: NDArray[np.float64], keys: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The inverse of ``apply_rotation``: rotation keys (N, 4) of ``kind`` for the
    parent-space rotations ``keys`` (for ``additive``, ``rr^-1 * key``, normalised)."""

def effective_kinds(
    kind: Kind,
    track_bones: Iterable[str],
    overrides: Mapping[str, Optional[Kind]],
    parents: Mapping[str, Optional[str]],
) -> list[Kind]:
    """The kind of each track (in ``track_bones`` order): the override of the nearest bone
    among the track's own and its ancestors that has one (SEAnim modifier bones apply to
    the bone and its children), else ``kind``, the animation's.

    ``overrides``: bone name -> kind or ``None``, the tracks' overrides; ``parents``: every
    bone of the skeleton, name -> parent name (``None`` for a root). A track's own
    override wins even for a bone not in ``parents``; any other track whose bone is not in
    ``parents`` plays ``kind``. Parent cycles do not loop.
    """

def channel_kinds(animation: Any, parents: Mapping[str, Optional[str]]) -> list[dict[str, Kind]]:
    """The kind of each track's ``translation``, ``rotation`` and ``scale`` keys (one dict
    per track of ``animation``, an ``animbin.Animation``): per channel, the override of the
    nearest bone among the track's own and its ancestors (``channel_overrides``, else
    ``kind``), else the track's ``channel_kinds``, else the animation's kind. ``parents``:
    every bone of the skeleton, name -> parent name (``None`` for a root)."""
