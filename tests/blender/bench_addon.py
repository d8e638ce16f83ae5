"""Times the Blender extension on large files (a measurement, not a test).

Writes, with the animbin module, an SEModel of VERTICES vertices (four weighted bones each,
two UV layers, normals) over a chain of BONES bones, and an SEAnim with a rotation and a
translation key on every bone at each of FRAMES frames; then times, headless under bpy,
the extension's import of each, the export of the action back to SEAnim and of the model
back to SEModel.

    python tests/blender/bench_addon.py [--vertices 200000] [--bones 100] [--frames 1000]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np

import bpy

import animbin

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def model(vertices: int, bones: int):
    rng = np.random.default_rng(1)
    side = int(math.sqrt(vertices))
    ys, xs = np.divmod(np.arange(side * side), side)
    positions = np.stack([xs, ys, np.zeros_like(xs)], axis=1).astype(np.float32)
    quads = (ys[:-side] * side + xs[:-side])[xs[:-side] < side - 1]
    faces = np.concatenate(
        [np.stack([quads, quads + 1, quads + side + 1], 1), np.stack([quads, quads + side + 1, quads + side], 1)]
    )
    normals = np.tile(np.array([0.0, 0.0, 1.0], dtype=np.float32), (len(positions), 1))
    uv = positions[:, :2] / side
    indices = rng.integers(0, bones, size=(len(positions), 4)).astype(np.uint32)
    weights = rng.random((len(positions), 4)).astype(np.float32)
    weights /= weights.sum(axis=1, keepdims=True)
    skeleton = animbin.Skeleton(
        [f"bone{i}" for i in range(bones)],
        np.arange(-1, bones - 1, dtype=np.int32),
        np.tile([0.0, 1.0, 0.0], (bones, 1)),
    )
    mesh = animbin.Mesh(
        positions,
        faces,
        normals=normals,
        uv_layers=[uv, uv],
        bone_indices=indices,
        bone_weights=weights,
        materials=[0, 0],
    )
    return animbin.Scene(skeleton, [mesh], [animbin.Material("skin", {"diffuse": "skin_c.png"})])


def animation(bones: int, frames: int):
    times = np.arange(frames, dtype=np.float64)
    angles = times[:, None] * 0.01
    rotations = np.concatenate([np.sin(angles / 2), np.zeros((frames, 2)), np.cos(angles / 2)], axis=1)
    translations = np.stack([np.sin(times * 0.1), np.ones(frames), np.zeros(frames)], axis=1)
    tracks = [
        animbin.BoneTrack(
            f"bone{i}", rotation_frames=times, rotations=rotations, translation_frames=times, translations=translations
        )
        for i in range(bones)
    ]
    return animbin.Scene(animations=[animbin.Animation("", tracks, framerate=30.0)])


def timed(what, call):
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    result = call()
    print(f"{what}: {time.perf_counter() - start_wall:.2f} s wall, {time.process_time() - start_cpu:.2f} s CPU")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vertices", type=int, default=200_000)
    parser.add_argument("--bones", type=int, default=100)
    parser.add_argument("--frames", type=int, default=1000)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "blender"))
    import animbin_io

    animbin_io.register()
    try:
        with tempfile.TemporaryDirectory() as out:
            model_path = os.path.join(out, "big.semodel")
            anim_path = os.path.join(out, "big.seanim")
            animbin.from_scene(model(args.vertices, args.bones), "semodel").write(model_path)
            animbin.from_scene(animation(args.bones, args.frames), "seanim").write(anim_path)
            info = animbin.open(model_path).info()
            print(
                f"Blender {bpy.app.version_string}; load average {os.getloadavg()[0]:.1f}; "
                f"SEModel {os.path.getsize(model_path) / 2**20:.1f} MiB ({info['vertex_count']} vertices, {info['face_count']} faces), "
                f"SEAnim {os.path.getsize(anim_path) / 2**20:.1f} MiB ({args.bones} bones x {args.frames} frames)"
            )
            bpy.ops.wm.read_factory_settings(use_empty=True)
            timed("import SEModel", lambda: bpy.ops.import_scene.animbin_semodel(filepath=model_path))
            timed("import SEAnim onto it", lambda: bpy.ops.import_scene.animbin_seanim(filepath=anim_path))
            timed(
                "export SEAnim (keyframes)",
                lambda: bpy.ops.export_anim.animbin_seanim(filepath=os.path.join(out, "back.seanim")),
            )
            for obj in bpy.data.objects:
                obj.select_set(True)
            timed(
                "export SEModel",
                lambda: bpy.ops.export_mesh.animbin_semodel(filepath=os.path.join(out, "back.semodel")),
            )
    finally:
        animbin_io.unregister()


if __name__ == "__main__":
    main()
