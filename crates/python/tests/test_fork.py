"""A process forked after animbin has spread work over its threads (``os.fork``, and
``multiprocessing`` with the "fork" start method, Linux's default before Python 3.14)
converts as the parent does. The fork copies none of the threads, so the library runs
the work on the calling thread there instead of handing it to threads that do not exist.
"""

from __future__ import annotations

import multiprocessing
import os
import warnings

import numpy as np
import pytest

import animbin


def many_bones_seanim() -> bytes:
    """An SEAnim of 64 bones: reading it and making its scene spread the bones over threads."""
    frames = np.arange(50.0)
    tracks = [
        animbin.BoneTrack(f"bone{b}", translation_frames=frames, translations=np.full((50, 3), float(b)))
        for b in range(64)
    ]
    scene = animbin.Scene(animations=[animbin.Animation("walk", tracks)])
    return animbin.from_scene(scene, "seanim").to_bytes()


def to_glb(data: bytes) -> bytes:
    return animbin.open(data).to_gltf()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="this system has no fork")
def test_a_forked_process_converts_as_its_parent_does():
    data = many_bones_seanim()
    # The parent's threads start here.
    expected = to_glb(data)
    with warnings.catch_warnings():
        # Python 3.12 and later warn about forking a process that has threads: that is the case.
        warnings.simplefilter("ignore", DeprecationWarning)
        context = multiprocessing.get_context("fork")
        with context.Pool(1) as pool:
            # Before the fix this waited for ever; the timeout turns that into a failure.
            forked = pool.apply_async(to_glb, (data,)).get(timeout=120)
    assert forked == expected
