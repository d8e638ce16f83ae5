"""Blend shapes in Blender, for tests/blender/test_addon.py: a Cast file with blend shapes
imported by the extension gives shape keys with the file's offsets and animated values,
and exported again to Cast gives the same blend shapes and weight curves; a Cast and an
SEModel converted to glb by the library give Blender's own glTF importer the same shape
keys (and, from the Cast, their animation)."""

from __future__ import annotations

import os

import numpy as np

import bpy

import animbin

BASE = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
SMILE = ("smile", [2, 3], [[0.5, 0.25, 0.5], [-0.5, 0.0, 0.25]], 2.0)
BLINK = ("blink", [0], [[0.0, 0.0, -1.0]], None)
SMILE_KEYS = ([0.0, 10.0, 20.0], [0.0, 1.0, 0.25])
BLINK_KEYS = ([0.0, 20.0], [0.5, 0.0])


def face_scene() -> animbin.Scene:
    """One bone, a quad skinned to it with two blend shapes, and an animation of the bone
    and of both weights."""
    skeleton = animbin.Skeleton(["root"], [-1])
    targets = [animbin.MorphTarget(n, i, d, max_weight=w) for n, i, d, w in (SMILE, BLINK)]
    mesh = animbin.Mesh(
        BASE,
        [[0, 1, 2], [0, 2, 3]],
        name="face",
        bone_indices=np.zeros((4, 1), dtype=np.uint32),
        bone_weights=np.ones((4, 1), dtype=np.float32),
        morph_targets=targets,
    )
    animation = animbin.Animation(
        "talk",
        [animbin.BoneTrack("root", rotation_frames=[0, 20], rotations=[[0, 0, 0, 1], [0, 0, 0, 1]])],
        weights=[animbin.WeightTrack("smile", *SMILE_KEYS), animbin.WeightTrack("blink", *BLINK_KEYS)],
    )
    return animbin.Scene(skeleton, [mesh], animations=[animation])


def _shape_offsets(obj, name):
    """Each vertex's offset in shape key ``name`` from the basis, (V, 3)."""
    keys = obj.data.shape_keys.key_blocks
    n = len(obj.data.vertices)
    co = np.empty(n * 3)
    basis = np.empty(n * 3)
    keys[name].data.foreach_get("co", co)
    keys[0].data.foreach_get("co", basis)
    return (co - basis).reshape(-1, 3)


def _dense(indices, deltas, n):
    out = np.zeros((n, 3))
    out[np.asarray(indices)] = deltas
    return out


def _value_at(obj, name, frame):
    bpy.context.scene.frame_set(frame)
    return obj.data.shape_keys.key_blocks[name].value


def check_blend_shapes(checks, testdata, out_dir):
    cast_path = os.path.join(out_dir, "face.cast")
    animbin.from_scene(face_scene(), "cast").write(cast_path)

    # Cast -> the extension's import: shape keys with the offsets and animated values.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    checks.equal("blend shapes: Cast import", bpy.ops.import_scene.animbin_cast(filepath=cast_path), {"FINISHED"})
    (obj,) = [o for o in bpy.data.objects if o.type == "MESH"]
    keys = obj.data.shape_keys
    if not checks.true("blend shapes: the mesh has shape keys", keys is not None):
        return
    checks.equal("blend shapes: shape key names", [k.name for k in keys.key_blocks], ["Basis", "smile", "blink"])
    for name, indices, deltas, max_weight in (SMILE, BLINK):
        checks.close(f"blend shapes: {name} offsets", _shape_offsets(obj, name), _dense(indices, deltas, 4))
        checks.close(f"blend shapes: {name} slider maximum", keys.key_blocks[name].slider_max, max_weight or 1.0)
    checks.true("blend shapes: the shape keys have an action", keys.animation_data and keys.animation_data.action)
    for frame, smile, blink in ((0, 0.0, 0.5), (5, 0.5, 0.375), (10, 1.0, 0.25), (20, 0.25, 0.0)):
        checks.close(f"blend shapes: smile at frame {frame}", _value_at(obj, "smile", frame), smile)
        checks.close(f"blend shapes: blink at frame {frame}", _value_at(obj, "blink", frame), blink)

    # -> the extension's Cast export: the same blend shapes and weight curves.
    for o in bpy.data.objects:
        o.select_set(o.type in ("MESH", "ARMATURE"))
    bpy.context.view_layer.objects.active = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    out = os.path.join(out_dir, "face_again.cast")
    checks.equal("blend shapes: Cast export", bpy.ops.export_mesh.animbin_cast(filepath=out), {"FINISHED"})
    back = animbin.open(out).scene()
    (mesh,) = back.meshes
    checks.equal("blend shapes: exported names", [t.name for t in mesh.morph_targets], ["smile", "blink"])
    for target, (name, indices, deltas, max_weight) in zip(mesh.morph_targets, (SMILE, BLINK)):
        checks.close(f"blend shapes: exported {name} offsets", _dense(target.indices, target.deltas, 4), _dense(indices, deltas, 4))
        checks.equal(f"blend shapes: exported {name} maximum weight", target.max_weight, max_weight)
    weights = {t.target: t for a in back.animations for t in a.weights}
    checks.equal("blend shapes: exported weight tracks", sorted(weights), ["blink", "smile"])
    for name, (frames, values) in (("smile", SMILE_KEYS), ("blink", BLINK_KEYS)):
        if name in weights:
            checks.close(f"blend shapes: exported {name} frames", weights[name].frames, frames)
            checks.close(f"blend shapes: exported {name} weights", weights[name].weights, values)

    # Cast and SEModel -> glb (the library) -> Blender's glTF importer: the same shape keys.
    for source, expected, animated in (
        (cast_path, [SMILE, BLINK], True),
        (
            os.path.join(testdata, "sample_blend.semodel"),
            [("stretch", [2, 3], [[0.0, 0.25, 0.1], [0.0, 0.25, 0.1]], None)],
            False,
        ),
    ):
        name = os.path.basename(source)
        glb = os.path.join(out_dir, name.replace(".", "_") + ".glb")
        with open(glb, "wb") as f:
            f.write(animbin.open(source).convert("glb"))
        bpy.ops.wm.read_factory_settings(use_empty=True)
        checks.equal(f"blend shapes: {name} glb import", bpy.ops.import_scene.gltf(filepath=glb), {"FINISHED"})
        objects = [o for o in bpy.data.objects if o.type == "MESH" and o.data.shape_keys is not None]
        if not checks.equal(f"blend shapes: {name} glb meshes with shape keys", len(objects), 1):
            continue
        obj = objects[0]
        names = [k.name for k in obj.data.shape_keys.key_blocks[1:]]
        checks.equal(f"blend shapes: {name} glb shape key names", names, [e[0] for e in expected])
        # glTF is Y-up: Blender's importer turns (x, y, z) into (x, -z, y); the library wrote
        # the file's own axes (no z-up option), so the offsets come back turned.
        source_mesh = animbin.open(source).scene().meshes[0]
        n = len(source_mesh.positions)
        if len(obj.data.vertices) != n:
            checks.true(f"blend shapes: {name} glb vertex count {len(obj.data.vertices)}, expected {n}", False)
            continue
        for target_name, indices, deltas, _w in expected:
            if target_name not in names:
                continue
            offsets = _dense(indices, deltas, n)
            turned = np.stack([offsets[:, 0], -offsets[:, 2], offsets[:, 1]], axis=1)
            checks.close(f"blend shapes: {name} glb {target_name} offsets", _shape_offsets(obj, target_name), turned)
        data = obj.data.shape_keys.animation_data
        has_action = data is not None and data.action is not None
        checks.equal(f"blend shapes: {name} glb shape key animation", has_action, animated)
        if animated and has_action:
            scene = bpy.context.scene
            rate = scene.render.fps / scene.render.fps_base
            # Blender's importer keys at the file's times in the scene's rate.
            frame = 10 * rate / 30.0
            scene.frame_set(int(round(frame)))
            checks.close(f"blend shapes: {name} glb smile at 1/3 s", obj.data.shape_keys.key_blocks["smile"].value, 1.0, 1e-3)
