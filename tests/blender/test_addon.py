"""The animbin Blender extension (blender/animbin_io), headless.

The add-on is registered from its source folder (the ``animbin`` module must be importable:
``pip install target/wheels/animbin-*.whl`` into the bpy environment). Every testdata file
is imported through its File > Import operator (``bpy.ops.import_scene.animbin_*``) into an
empty scene, and what Blender then holds is checked against ``animbin.open(path).info()``
(what ``animbin info --json`` prints) and the file's scene arrays:

- armatures, bones (names and parents), meshes, vertices, faces, materials, embedded
  images, actions, F-curve keys, pose markers, the actions' and the scene's frame ranges and
  the scene's frame rate;
- the actions exported again (File > Export: SEAnim, Cast and AnimX; x8an and DMF
  animations go to SEAnim) read back with the same keys as the original (1e-5, relative
  to the value past 1), kinds, per-bone kinds, cosmetic flags, notes, rate, length and
  looping;
- the models exported again (SEModel, Cast) read back with the original's bones, vertices,
  normals, UVs, colours, faces, skin weights and materials;
- the entries themselves against the library's table (``animbin.formats()``): ids, labels,
  file filters, options and drag-and-drop handlers;
- x8an files written again as x8an (slots in place, ticks kept, at any import frame rate),
  and a DMF's actions (with the skeleton) and model (with its embedded texture) written
  again as DMF.

Beyond the samples: an SEAnim on a model (bones matched by name, no new armature), what a
delta, relative and additive key plays as on a bone turned at rest (animbin's rules), a
texture beside the model (loaded with its pixels), a Y-up import and a scaled one that
export back to the same keys, a glTF Separate file from Blender's own glTF exporter
(``.gltf``, ``.bin`` and image beside it) read by the extension's importer with its skinned
mesh, bones and texture, blend shapes (``blend_shape_checks``: Cast -> shape keys with
animated values -> Cast, and Cast and SEModel -> glb -> Blender's glTF importer), IK,
constraints and colour layers (``rig_extras_checks``), hair and instances
(``hair_instance_checks``: Cast hair -> Curves objects, instances -> Empties instancing a
collection of the referenced file, a missing file and a file instancing itself reported ->
Cast again; SEModel reports them lost), and, with
``--zip``, the built extension installed through
Blender's own extension installer, its bundled wheel providing ``animbin``.

CI runs it under bpy 4.2, 4.5 and 5.0 (the manifest's ``blender_version_min`` is what it
proves).

    python tests/blender/test_addon.py [--testdata testdata] [--zip blender/dist/animbin_io-*.zip]

Prints ``N checks passed``; exit status 1 when any check fails (each failure is printed).
"""

from __future__ import annotations

import argparse
import glob
import importlib.abc
import importlib.machinery
import json
import math
import random
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import traceback
import zlib

import numpy as np

import bpy
from mathutils import Euler, Matrix, Quaternion, Vector

import animbin

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blend_shape_checks  # noqa: E402
import hair_instance_checks  # noqa: E402
import rig_extras_checks  # noqa: E402
import checks  # noqa: E402  (the Blender suites' shared checks, beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOLERANCE = 1e-5

# A 1x1 RGBA PNG: a texture beside a model.
PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8dfc0f01f000680027f104c1be100000000"
    "49454e44ae426082"
)

# A 2x2 image of four different colours (RGBA rows, top row first): a texture that arrives
# with its pixels in place.
TEXTURE_2X2 = (((255, 0, 0, 255), (0, 255, 0, 255)), ((0, 0, 255, 255), (255, 255, 255, 255)))


def png_bytes(rows):
    """A PNG file (8-bit RGBA, unfiltered) of ``rows`` of RGBA pixels, top row first."""
    height, width = len(rows), len(rows[0])
    raw = b"".join(b"\0" + bytes(c for pixel in row for c in pixel) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


# The import operator of each sample, by how its name ends.
IMPORTERS = (
    (".seanim", "animbin_seanim"),
    (".semodel", "animbin_semodel"),
    (".cast", "animbin_cast"),
    (".animx", "animbin_animx"),
    (".animj", "animbin_animx"),
    (".dmf", "animbin_dmf"),
    (".dmf.json", "animbin_dmf"),
    (".bin", "animbin_x8an"),
)
# Where each sample's actions are exported to be read back.
# (DMF keys fall between frames, which only AnimX's times in seconds hold.)
ACTION_EXPORTS = {"seanim": "seanim", "cast": "cast", "animx": "animx", "sf3": "seanim", "dmf": "animx"}


class Checks(checks.Checks):
    """The shared checks, and `close` as this suite measures it."""

    def close(self, what, seen, expected, tolerance=TOLERANCE):
        seen = np.asarray(seen, dtype=np.float64)
        expected = np.asarray(expected, dtype=np.float64)
        if seen.shape != expected.shape:
            return self.true(f"{what}: shape {seen.shape}, expected {expected.shape}", False)
        error = np.abs(seen - expected) / np.maximum(1.0, np.abs(expected))
        worst = float(error.max()) if error.size else 0.0
        return self.true(
            f"{what}: off by {worst:.3g} (tolerance {tolerance}):\n  {seen.tolist()}\n  {expected.tolist()}",
            worst <= tolerance,
        )


def importer_for(path):
    name = os.path.basename(path).lower()
    for suffix, operator in sorted(IMPORTERS, key=lambda pair: -len(pair[0])):
        if name.endswith(suffix):
            return getattr(bpy.ops.import_scene, operator)
    raise ValueError(f"no importer for {path}")


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def armatures():
    return [o for o in bpy.data.objects if o.type == "ARMATURE"]


def meshes():
    return [o for o in bpy.data.objects if o.type == "MESH"]


def tracks_by_bone(animation):
    return {t.bone: t for t in animation.tracks}


def compare_animations(checks, what, seen, expected, *, names=True, fmt=None):
    """Keys, kinds, notes and header fields of an exported animation against the original."""
    checks.close(f"{what}: framerate", seen.framerate, expected.framerate)
    checks.equal(f"{what}: frame count", seen.frame_count, expected.frame_count)
    if fmt != "animx":
        checks.equal(f"{what}: looping", seen.looping, expected.looping)
        checks.equal(f"{what}: kind", seen.kind, expected.kind)
        checks.equal(f"{what}: notes", sorted(seen.notes), sorted((float(round(f)), n) for f, n in expected.notes))
    if names:
        checks.equal(f"{what}: name", seen.name, expected.name)
    checks.equal(f"{what}: interpolation", seen.interpolation, expected.interpolation)
    checks.equal(
        f"{what}: property tracks",
        [(p.node, p.property, p.format, p.data) for p in seen.properties],
        [(p.node, p.property, p.format, p.data) for p in expected.properties],
    )
    by_bone = tracks_by_bone(seen)
    checks.equal(f"{what}: tracks", sorted(by_bone), sorted(t.bone for t in expected.tracks))
    for track in expected.tracks:
        other = by_bone.get(track.bone)
        if other is None:
            continue
        if fmt != "animx":
            checks.equal(f"{what}: {track.bone} kind override", other.kind, track.kind)
            checks.equal(f"{what}: {track.bone} cosmetic", other.cosmetic, track.cosmetic)
        for channel in ("translation", "rotation", "scale"):
            frames = getattr(track, f"{channel}_frames")
            values = getattr(track, f"{channel}s")
            checks.close(f"{what}: {track.bone} {channel} frames", getattr(other, f"{channel}_frames"), frames)
            checks.close(f"{what}: {track.bone} {channel} keys", getattr(other, f"{channel}s"), values)


def first_last(animation):
    frames = [f for t in animation.tracks for f in (*t.translation_frames, *t.rotation_frames, *t.scale_frames)]
    if not frames:
        return 0.0, 0.0
    return float(min(frames)), float(max(frames))


def check_import(checks, path, out_dir):
    """Imports ``path`` and checks Blender's data against the file; exports it back."""
    name = os.path.basename(path)
    reference = animbin.open(path, "sf3" if name.endswith(".bin") else None)
    info = reference.info()
    scene = reference.scene()
    fmt = reference.format
    empty_scene()
    result = importer_for(path)(filepath=path)
    if not checks.equal(f"{name}: import", result, {"FINISHED"}):
        return

    skeleton = scene.skeleton
    bone_names = list(skeleton.names) if skeleton is not None else []
    if skeleton is None:
        for animation in scene.animations:
            for track in animation.tracks:
                if track.bone not in bone_names:
                    bone_names.append(track.bone)
    has_armature = bool(bone_names) or bool(scene.animations)
    checks.equal(f"{name}: armatures", len(armatures()), 1 if has_armature else 0)
    armature = armatures()[0] if armatures() else None
    if armature is not None:
        bones = armature.data.bones
        checks.equal(f"{name}: bone names", sorted(b.name for b in bones), sorted(bone_names))
        if "bone_count" in info:
            checks.equal(f"{name}: bones against info bone_count", len(bones), info["bone_count"])
        if skeleton is not None:
            for index, bone_name in enumerate(skeleton.names):
                parent = skeleton.parents[index]
                seen = bones[bone_name].parent.name if bones[bone_name].parent else None
                checks.equal(f"{name}: {bone_name} parent", seen, skeleton.names[parent] if parent >= 0 else None)
                checks.close(
                    f"{name}: {bone_name} head", bones[bone_name].head_local, skeleton.bind_matrices[index][:3, 3]
                )
                checks.close(
                    f"{name}: {bone_name} rest rotation",
                    bones[bone_name].matrix_local.to_3x3(),
                    skeleton.bind_matrices[index][:3, :3],
                    1e-5,
                )
    if fmt == "sf3":
        checks.equal(
            f"{name}: tracks against info slot_count", sum(len(a.tracks) for a in scene.animations), info["slot_count"]
        )
        checks.equal(f"{name}: actions against info segment_count", len(bpy.data.actions), info["segment_count"])
    if fmt == "animx":
        kept = sum(len(a.properties) for a in scene.animations)
        checks.equal(
            f"{name}: bones and kept property tracks against info track_count",
            len(bone_names) + kept,
            info["track_count"],
        )
        stored = [p for a in bpy.data.actions for p in a["animbin"]["properties"]]
        checks.equal(f"{name}: property tracks kept on the action", len(stored), kept)

    checks.equal(f"{name}: mesh objects", len(meshes()), len(scene.meshes))
    if "mesh_count" in info:
        checks.equal(f"{name}: meshes against info mesh_count", len(meshes()), info["mesh_count"])
    vertices = sum(len(o.data.vertices) for o in meshes())
    faces = sum(len(o.data.polygons) for o in meshes())
    checks.equal(f"{name}: vertices", vertices, sum(len(m.positions) for m in scene.meshes))
    if "vertex_count" in info:
        checks.equal(f"{name}: vertices against info vertex_count", vertices, info["vertex_count"])
    if "face_count" in info:
        checks.equal(f"{name}: faces against info face_count", faces, info["face_count"])
    if "material_count" in info:
        checks.equal(f"{name}: materials against info material_count", len(bpy.data.materials), info["material_count"])
    if "texture_count" in info:
        packed = [i for i in bpy.data.images if i.packed_file is not None]
        checks.equal(f"{name}: embedded images against info texture_count", len(packed), info["texture_count"])
        checks.true(f"{name}: embedded images have pixels", all(i.size[0] > 0 and i.has_data for i in packed))
    for obj, mesh in zip(sorted(meshes(), key=lambda o: o.name), sorted(scene.meshes, key=lambda m: m.name)):
        data = obj.data
        checks.equal(f"{name}: {obj.name} UV layers", len(data.uv_layers), len(mesh.uv_layers))
        checks.equal(f"{name}: {obj.name} colour attributes", len(data.color_attributes), len(mesh.color_layers))
        co = np.array([v.co for v in data.vertices])
        checks.close(f"{name}: {obj.name} positions", co, mesh.positions)
        if mesh.bone_indices is not None and armature is not None:
            checks.true(
                f"{name}: {obj.name} has an Armature modifier",
                any(m.type == "ARMATURE" and m.object == armature for m in obj.modifiers),
            )
            used = {
                skeleton.names[int(b)] for b, w in zip(mesh.bone_indices.ravel(), mesh.bone_weights.ravel()) if w > 0
            }
            checks.equal(f"{name}: {obj.name} vertex groups", sorted(g.name for g in obj.vertex_groups), sorted(used))

    actions = bpy.data.actions
    checks.equal(f"{name}: actions", len(actions), len(scene.animations))
    if "animation_count" in info:
        checks.equal(f"{name}: actions against info animation_count", len(actions), info["animation_count"])
    for index, animation in enumerate(scene.animations):
        action_name = animation.name or (
            os.path.splitext(name)[0] if len(scene.animations) == 1 else f"{os.path.splitext(name)[0]}_{index}"
        )
        action = actions.get(action_name)
        if not checks.true(f"{name}: an action named {action_name!r}", action is not None):
            continue
        first, last = first_last(animation)
        expected_end = max(last, animation.frame_count - 1.0)
        if fmt == "seanim":
            expected_end = info["frame_count"] - 1.0
        if fmt == "animx":
            expected_end = info["duration"] * animation.framerate
        checks.close(f"{name}: {action_name} frame range", tuple(action.frame_range), (first, expected_end))
        markers = sorted((m.frame, m.name) for m in action.pose_markers)
        checks.equal(
            f"{name}: {action_name} pose markers", markers, sorted((int(round(f)), n) for f, n in animation.notes)
        )
        if "note_count" in info:
            checks.equal(f"{name}: pose markers against info note_count", len(markers), info["note_count"])
        keyed = {}
        from animbin_io import blend

        for curve in blend.action_fcurves(action, armature):
            keyed[(curve.data_path, curve.array_index)] = len(curve.keyframe_points)
        for track in animation.tracks:
            base = f'pose.bones["{track.bone}"]'
            for prop, frames, width in (
                ("location", track.translation_frames, 3),
                ("rotation_quaternion", track.rotation_frames, 4),
                ("scale", track.scale_frames, 3),
            ):
                counts = [keyed.get((f"{base}.{prop}", i), 0) for i in range(width)]
                checks.equal(f"{name}: {action_name} {track.bone} {prop} keys", counts, [len(frames)] * width)
    if scene.animations:
        checks.close(
            f"{name}: scene frame rate",
            bpy.context.scene.render.fps / bpy.context.scene.render.fps_base,
            scene.animations[0].framerate,
        )
        ends = [max(first_last(a)[1], a.frame_count - 1.0) for a in scene.animations]
        checks.equal(
            f"{name}: scene frame range",
            (bpy.context.scene.frame_start, bpy.context.scene.frame_end),
            (max(0, int(math.floor(min(first_last(a)[0] for a in scene.animations)))), int(math.ceil(max(ends)))),
        )

    # The actions back out, and read again.
    if scene.animations and armature is not None:
        target = ACTION_EXPORTS[fmt]
        export = getattr(bpy.ops.export_anim, f"animbin_{target}")
        bpy.context.view_layer.objects.active = armature
        armature.select_set(True)
        stem = os.path.join(out_dir, name.replace(".", "_"))
        extension = {"seanim": ".seanim", "cast": ".cast", "animx": ".animx"}[target]
        if target == "cast":
            result = export(filepath=stem + extension, which="ALL")
            checks.equal(f"{name}: export all actions to cast", result, {"FINISHED"})
            back = animbin.open(stem + extension).scene()
            checks.equal(f"{name}: cast animations", len(back.animations), len(scene.animations))
            for seen, expected in zip(back.animations, scene.animations):
                compare_animations(checks, f"{name} -> cast {expected.name}", seen, expected, fmt=target)
            if skeleton is not None:
                checks.equal(f"{name} -> cast: bones", back.skeleton.names, skeleton.names)
                checks.close(f"{name} -> cast: bind translations", back.skeleton.translations, skeleton.translations)
        else:
            folder = os.path.join(out_dir, name.replace(".", "_"))
            os.makedirs(folder, exist_ok=True)
            result = export(filepath=os.path.join(folder, "active" + extension), which="EACH")
            checks.equal(f"{name}: export each action to {target}", result, {"FINISHED"})
            for action in actions:
                written = os.path.join(folder, action.name + extension)
                if not checks.true(f"{name}: {written} written", os.path.isfile(written)):
                    continue
                original = next(
                    a
                    for i, a in enumerate(scene.animations)
                    if action.name in (a.name, os.path.splitext(name)[0], f"{os.path.splitext(name)[0]}_{i}")
                )
                back = animbin.open(written)
                if target == "seanim":
                    original_info = info if fmt == "seanim" else None
                    if original_info is not None:
                        for key in (
                            "frame_count",
                            "framerate",
                            "anim_type",
                            "looped",
                            "high_precision",
                            "note_count",
                            "modifier_count",
                        ):
                            checks.equal(f"{name} -> seanim: info {key}", back.info()[key], original_info[key])
                # AnimX stores seconds and no rate: read it at the original's.
                back_scene = back.scene(framerate=original.framerate) if target == "animx" else back.scene()
                compare_animations(
                    checks,
                    f"{name} -> {target} {action.name}",
                    back_scene.animations[0],
                    original,
                    names=target != "seanim" and fmt != "sf3",
                    fmt=target,
                )


def check_model_export(checks, path, target, out_dir):
    """A model imported and exported again gives the same bones, vertices and skin."""
    name = os.path.basename(path)
    expected = animbin.open(path).scene()
    empty_scene()
    importer_for(path)(filepath=path)
    for obj in bpy.data.objects:
        obj.select_set(obj.type in ("MESH", "ARMATURE"))
    bpy.context.view_layer.objects.active = armatures()[0]
    out = os.path.join(out_dir, name.replace(".", "_") + "." + target)
    result = getattr(bpy.ops.export_mesh, f"animbin_{target}")(filepath=out)
    if not checks.equal(f"{name} -> {target}: export", result, {"FINISHED"}):
        return
    seen = animbin.open(out).scene()
    checks.equal(f"{name} -> {target}: bones", seen.skeleton.names, expected.skeleton.names)
    checks.equal(f"{name} -> {target}: parents", seen.skeleton.parents.tolist(), expected.skeleton.parents.tolist())
    checks.close(
        f"{name} -> {target}: bind translations",
        seen.skeleton.global_translations,
        expected.skeleton.global_translations,
    )
    checks.close(
        f"{name} -> {target}: bind rotations", seen.skeleton.global_rotations, expected.skeleton.global_rotations
    )
    checks.equal(f"{name} -> {target}: meshes", len(seen.meshes), len(expected.meshes))
    for a, b in zip(seen.meshes, expected.meshes):
        checks.close(f"{name} -> {target}: positions", a.positions, b.positions)
        checks.equal(f"{name} -> {target}: faces", a.faces.tolist(), b.faces.tolist())
        # Custom split normals are stored compressed: a few thousandths.
        checks.close(f"{name} -> {target}: normals", a.normals, b.normals, 1e-3)
        checks.equal(f"{name} -> {target}: UV layers", len(a.uv_layers), len(b.uv_layers))
        for k, (u, v) in enumerate(zip(a.uv_layers, b.uv_layers)):
            checks.close(f"{name} -> {target}: UV layer {k}", u, v)
        checks.equal(
            f"{name} -> {target}: colours", [c.tolist() for c in a.color_layers], [c.tolist() for c in b.color_layers]
        )

        def influences(mesh):
            return [
                sorted((int(i), round(float(w), 6)) for i, w in zip(bi, bw) if w > 0)
                for bi, bw in zip(mesh.bone_indices, mesh.bone_weights)
            ]

        checks.equal(f"{name} -> {target}: skin", influences(a), influences(b))
        names_a = [seen.materials[m].name if m is not None else None for m in a.materials]
        names_b = [expected.materials[m].name if m is not None else None for m in b.materials]
        if target == "cast":
            names_b = names_b[:1]  # Cast gives a mesh one material, SEModel one per UV layer
        checks.equal(f"{name} -> {target}: mesh materials", names_a, names_b)
    used = {
        expected.materials[m].name
        for b in expected.meshes
        for m in (b.materials[:1] if target == "cast" else b.materials)
        if m is not None
    }

    def named(materials):
        # SEModel names every slot; an empty name is no texture.
        return {m.name: {k: v for k, v in m.textures.items() if v} for m in materials if m.name in used}

    checks.equal(f"{name} -> {target}: material textures", named(seen.materials), named(expected.materials))


def check_animation_on_model(checks, testdata):
    """An SEAnim imported with the model's armature active animates it: no new armature,
    and the relative keys play over the rest pose."""
    empty_scene()
    bpy.ops.import_scene.animbin_semodel(filepath=os.path.join(testdata, "sample.semodel"))
    model = armatures()[0]
    bpy.ops.import_scene.animbin_seanim(filepath=os.path.join(testdata, "sample.seanim"))
    checks.equal("SEAnim on a model: armatures", len(armatures()), 1)
    checks.equal(
        "SEAnim on a model: the model's active action",
        model.animation_data.action.name if model.animation_data else None,
        "sample",
    )
    animation = animbin.open(os.path.join(testdata, "sample.seanim")).scene().animations[0]
    skeleton = animbin.open(os.path.join(testdata, "sample.semodel")).scene().skeleton
    spine = tracks_by_bone(animation)["j_spine"]
    rest = Vector(skeleton.translations[skeleton.names.index("j_spine")])
    bpy.context.scene.frame_set(int(spine.rotation_frames[1]))
    pose_bone = model.pose.bones["j_spine"]
    # Relative: translation = rest + key, rotation = key (the parent, tag_origin, at frame 5).
    origin = tracks_by_bone(animation)["tag_origin"]
    frame = int(spine.rotation_frames[1])
    origin_t = Vector(origin.translations[list(origin.translation_frames).index(frame)])
    expected_head = origin_t + rest + Vector(spine.translations[0])
    checks.close("SEAnim on a model: j_spine head at frame 5", pose_bone.head, expected_head, 1e-5)
    x, y, z, w = spine.rotations[1]
    checks.close(
        "SEAnim on a model: j_spine rotation at frame 5",
        pose_bone.matrix.to_quaternion(),
        Quaternion((w, x, y, z)),
        1e-5,
    )
    # With the model's mesh active, the animation goes to its armature too.
    bpy.context.view_layer.objects.active = meshes()[0]
    bpy.ops.import_scene.animbin_seanim(filepath=os.path.join(testdata, "sample.seanim"))
    checks.equal("SEAnim with the model's mesh active: armatures", len(armatures()), 1)
    checks.equal("SEAnim with the model's mesh active: actions", len(bpy.data.actions), 2)


def check_kinds(checks, out_dir):
    """Delta, relative and additive keys on a bone turned at rest (90 degrees about Z):
    delta translations run along the bone's rest axes, relative ones along its parent's,
    additive rotations follow the rest rotation (animbin's rules)."""
    turn = (0.0, 0.0, math.sin(math.pi / 4), math.cos(math.pi / 4))
    skeleton = animbin.Skeleton(["root", "arm"], [-1, 0], [[0, 0, 0], [1, 0, 0]], [[0, 0, 0, 1], turn])
    model = os.path.join(out_dir, "turned.semodel")
    animbin.from_scene(animbin.Scene(skeleton), "semodel").write(model)
    key_t = np.array([[0.5, 0.0, 0.0]])
    key_r = np.array([[math.sin(0.25), 0.0, 0.0, math.cos(0.25)]])  # 0.5 rad about X
    expected_translation = {
        "delta": (1.0, 0.5, 0.0),
        "relative": (1.5, 0.0, 0.0),
        "additive": (1.5, 0.0, 0.0),
        "absolute": (0.5, 0.0, 0.0),
    }
    turn_q = Quaternion((turn[3], *turn[:3]))
    key_q = Quaternion((key_r[0][3], *key_r[0][:3]))
    expected_rotation = {"delta": key_q, "relative": key_q, "additive": turn_q @ key_q, "absolute": key_q}
    for kind in ("delta", "relative", "additive", "absolute"):
        track = animbin.BoneTrack(
            "arm", translation_frames=[0.0], translations=key_t, rotation_frames=[0.0], rotations=key_r
        )
        anim_path = os.path.join(out_dir, f"turned_{kind}.seanim")
        animbin.from_scene(animbin.Scene(animations=[animbin.Animation("", [track], kind=kind)]), "seanim").write(
            anim_path
        )
        empty_scene()
        bpy.ops.import_scene.animbin_semodel(filepath=model)
        armature = armatures()[0]
        bpy.ops.import_scene.animbin_seanim(filepath=anim_path)
        bpy.context.scene.frame_set(0)
        pose_bone = armature.pose.bones["arm"]
        checks.close(f"{kind} key: arm head", pose_bone.head, expected_translation[kind], 1e-5)
        checks.close(f"{kind} key: arm rotation", pose_bone.matrix.to_quaternion(), expected_rotation[kind], 1e-5)
        out = os.path.join(out_dir, f"turned_{kind}_back.seanim")
        bpy.ops.export_anim.animbin_seanim(filepath=out)
        back = animbin.open(out).scene().animations[0]
        checks.equal(f"{kind} key: exported kind", back.kind, kind)
        checks.close(f"{kind} key: exported translation", back.tracks[0].translations, key_t)
        checks.close(f"{kind} key: exported rotation", back.tracks[0].rotations, key_r)
    # "As Absolute" ignores the kind.
    empty_scene()
    bpy.ops.import_scene.animbin_semodel(filepath=model)
    armature = armatures()[0]
    bpy.ops.import_scene.animbin_seanim(filepath=os.path.join(out_dir, "turned_delta.seanim"), kinds="ABSOLUTE")
    bpy.context.scene.frame_set(0)
    checks.close(
        "delta key read as absolute: arm head", armature.pose.bones["arm"].head, expected_translation["absolute"], 1e-5
    )


def check_textures(checks, testdata, out_dir):
    """A texture beside the model is loaded (with its pixels); one missing is kept by name."""
    folder = os.path.join(out_dir, "textured")
    os.makedirs(os.path.join(folder, "textures"), exist_ok=True)
    shutil.copy(os.path.join(testdata, "sample.semodel"), folder)
    with open(os.path.join(folder, "body_c.png"), "wb") as f:
        f.write(PNG_1X1)
    with open(os.path.join(folder, "textures", "body_n.png"), "wb") as f:
        f.write(PNG_1X1)
    empty_scene()
    bpy.ops.import_scene.animbin_semodel(filepath=os.path.join(folder, "sample.semodel"))
    body = bpy.data.materials["body"]
    images = {n.label: n.image for n in body.node_tree.nodes if n.type == "TEX_IMAGE"}
    for image in images.values():
        image.pixels[:]  # Blender loads pixels when they are first read
    checks.equal("texture beside the model: image nodes", sorted(images), ["diffuse", "normal", "specular"])
    checks.true(
        "texture beside the model: diffuse pixels",
        images["diffuse"].has_data and tuple(images["diffuse"].size) == (1, 1),
    )
    checks.true(
        "texture in textures/: normal pixels", images["normal"].has_data and tuple(images["normal"].size) == (1, 1)
    )
    checks.equal("texture in textures/: non-colour", images["normal"].colorspace_settings.name, "Non-Color")
    checks.true(
        "missing texture: kept as a missing image",
        not images["specular"].has_data and images["specular"].filepath.endswith("body_s.png"),
    )
    bsdf = next(n for n in body.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    checks.true(
        "texture beside the model: feeds Base Color",
        bsdf.inputs["Base Color"].links and bsdf.inputs["Base Color"].links[0].from_node.image == images["diffuse"],
    )
    for obj in bpy.data.objects:
        obj.select_set(True)
    out = os.path.join(folder, "again.semodel")
    bpy.ops.export_mesh.animbin_semodel(filepath=out)
    textures = animbin.open(out).scene().materials[0].textures
    checks.equal(
        "textures written relative to the file",
        textures,
        {"diffuse": "body_c.png", "normal": "textures/body_n.png", "specular": "body_s.png"},
    )


def check_axis_and_scale(checks, testdata, out_dir):
    """A Y-up import turns the armature object, not the data; a scaled import scales bone
    positions, vertices and translation keys; both export back to the file's keys."""
    path = os.path.join(testdata, "sample.cast")
    expected = animbin.open(path).scene()
    empty_scene()
    bpy.ops.import_scene.animbin_cast(filepath=path, up_axis="Y", scale=0.01)
    armature = armatures()[0]
    checks.close("Y-up: armature object turned", tuple(armature.rotation_euler), (math.pi / 2, 0.0, 0.0))
    checks.close(
        "scale 0.01: j_upper head",
        armature.data.bones["j_upper"].head_local,
        np.array(expected.skeleton.global_translations[1]) * 0.01,
    )
    checks.close(
        "scale 0.01: vertices",
        [v.co for v in meshes()[0].data.vertices],
        np.asarray(expected.meshes[0].positions) * 0.01,
    )
    bpy.context.view_layer.objects.active = armature
    out = os.path.join(out_dir, "scaled.cast")
    bpy.ops.export_anim.animbin_cast(filepath=out, scale=100.0)
    back = animbin.open(out).scene()
    compare_animations(
        checks, "Y-up, scale 0.01, exported at 100", back.animations[0], expected.animations[0], fmt="cast"
    )
    armature.select_set(True)
    out = os.path.join(out_dir, "scaled_model.cast")
    bpy.ops.export_mesh.animbin_cast(filepath=out, scale=100.0)
    checks.close(
        "Y-up, scale 0.01 model exported at 100: vertices",
        animbin.open(out).scene().meshes[0].positions,
        expected.meshes[0].positions,
    )


def check_blender_mesh(checks, out_dir):
    """A mesh made in Blender (a cube: flat faces, UV seams) exports with its vertices split
    where corners differ, in world space, turned to Y-up when asked."""
    empty_scene()
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 5.0))
    cube = bpy.context.active_object
    cube.data.shade_flat()
    for up in ("Z", "Y"):
        out = os.path.join(out_dir, f"cube_{up}.semodel")
        result = bpy.ops.export_mesh.animbin_semodel(filepath=out, up_axis=up)
        checks.equal(f"Blender cube ({up} up): export", result, {"FINISHED"})
        scene = animbin.open(out).scene()
        mesh = scene.meshes[0]
        checks.equal(f"Blender cube ({up} up): vertices, one per face corner", len(mesh.positions), 24)
        checks.equal(f"Blender cube ({up} up): triangles", len(mesh.faces), 12)
        checks.equal(f"Blender cube ({up} up): no skeleton", scene.skeleton, None)
        height = 2 if up == "Z" else 1
        checks.close(f"Blender cube ({up} up): lifted along its up axis", mesh.positions[:, height].mean(), 5.0)
        normals = np.asarray(mesh.normals)
        checks.true(
            f"Blender cube ({up} up): flat normals along the axes",
            np.allclose(np.abs(normals).max(axis=1), 1.0, atol=1e-5),
        )
        corners = mesh.positions[mesh.faces.ravel()]
        checks.true(
            f"Blender cube ({up} up): every face on the cube",
            np.allclose(np.abs(corners - [0, 5, 0] if up == "Y" else corners - [0, 0, 5]).max(axis=1), 1.0),
        )


def check_blender_action(checks, out_dir):
    """An action keyed in Blender (Euler rotations, a bone that points up its parent's Z
    axis at rest) exports as the local transforms it plays, at its keyframes or every frame."""
    empty_scene()
    bpy.ops.object.armature_add()
    armature = bpy.context.active_object
    bone = armature.pose.bones[0]
    bone.rotation_mode = "XYZ"
    for frame, euler, location in ((1, (0.3, 0.0, 0.0), (1.0, 0.0, 0.0)), (11, (0.0, 0.5, 0.0), (0.0, 2.0, 0.0))):
        bone.rotation_euler = euler
        bone.location = location
        bone.keyframe_insert("rotation_euler", frame=frame)
        bone.keyframe_insert("location", frame=frame)
    rest = armature.data.bones[0].matrix_local
    out = os.path.join(out_dir, "keyed.seanim")
    result = bpy.ops.export_anim.animbin_seanim(filepath=out, precision="double")
    checks.equal("keyed in Blender: export", result, {"FINISHED"})
    track = animbin.open(out).scene().animations[0].tracks[0]
    checks.equal("keyed in Blender: rotation frames", track.rotation_frames.tolist(), [1.0, 11.0])
    for index, (euler, location) in enumerate((((0.3, 0.0, 0.0), (1.0, 0.0, 0.0)), ((0.0, 0.5, 0.0), (0.0, 2.0, 0.0)))):
        played = rest @ Matrix.Translation(location) @ Euler(euler, "XYZ").to_matrix().to_4x4()
        q = played.to_quaternion()
        checks.close(f"keyed in Blender: rotation key {index}", track.rotations[index], (q.x, q.y, q.z, q.w), 1e-6)
        checks.close(f"keyed in Blender: translation key {index}", track.translations[index], played.translation, 1e-6)
    result = bpy.ops.export_anim.animbin_seanim(filepath=out, keys="FRAMES")
    track = animbin.open(out).scene().animations[0].tracks[0]
    checks.equal(
        "keyed in Blender, every frame: rotation frames",
        track.rotation_frames.tolist(),
        [float(f) for f in range(1, 12)],
    )
    checks.close(
        "keyed in Blender, every frame: unit rotations", np.linalg.norm(track.rotations, axis=1), np.ones(11), 1e-6
    )
    try:
        result = bpy.ops.export_anim.animbin_seanim(filepath=out, which="ALL")
    except RuntimeError:
        result = {"CANCELLED"}
    checks.equal("SEAnim refuses all actions in one file", result, {"CANCELLED"})


def gltf_separate_export(folder, testdata):
    """Run in a child process: sample.semodel, with a texture beside it, imported through
    the extension and written by Blender's own glTF exporter as glTF Separate
    (``folder/separate.gltf``, its ``.bin`` and the image beside it). A child, because after a
    glTF export bpy 4.2 crashes and bpy 4.5 hangs when the process exits."""
    sys.path.insert(0, os.path.join(ROOT, "blender"))
    import animbin_io

    animbin_io.register()
    source = os.path.join(folder, "source")
    os.makedirs(source)
    shutil.copy(os.path.join(testdata, "sample.semodel"), source)
    with open(os.path.join(source, "body_c.png"), "wb") as f:
        f.write(png_bytes(TEXTURE_2X2))
    empty_scene()
    imported = bpy.ops.import_scene.animbin_semodel(filepath=os.path.join(source, "sample.semodel"))
    exported = bpy.ops.export_scene.gltf(filepath=os.path.join(folder, "separate.gltf"), export_format="GLTF_SEPARATE")
    print(f"GLTF import {sorted(imported)}, export {sorted(exported)}")
    sys.stdout.flush()
    os._exit(0 if imported == exported == {"FINISHED"} else 1)


def check_gltf_separate(checks, testdata, out_dir):
    """A glTF Separate file as Blender's own exporter writes it (a ``.gltf`` with its ``.bin``
    and image beside it) read by the extension's importer (glTF has no entry of its own,
    Blender's add-on has one, but the importer reads whatever animbin reads): the skinned
    mesh, the bones and the texture with its pixels arrive, and the Y-up file read as Y-up
    stands where the model stood."""
    folder = os.path.join(out_dir, "gltf_separate")
    os.makedirs(folder)
    command = [sys.executable, os.path.abspath(__file__), "--gltf-separate-export", folder, "--testdata", testdata]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    path = os.path.join(folder, "separate.gltf")
    if not checks.true(
        f"glTF Separate: Blender wrote it (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}",
        done.returncode == 0 and os.path.isfile(path),
    ):
        return
    with open(path, encoding="utf-8") as f:
        gltf = json.load(f)
    uris = sorted(entry.get("uri", "") for key in ("buffers", "images") for entry in gltf.get(key, []))
    checks.equal("glTF Separate: external buffer and image", uris, ["body_c.png", "separate.bin"])
    checks.true("glTF Separate: the files beside it", all(os.path.isfile(os.path.join(folder, u)) for u in uris))

    from animbin_io import importer

    expected = animbin.open(os.path.join(testdata, "sample.semodel")).scene()
    skeleton = expected.skeleton
    empty_scene()
    result = importer.load(bpy.context, path, None, importer.Settings(up_axis="Y"))
    bpy.context.view_layer.update()  # the objects' world matrices, after the Y-up turn
    armature = result.armature
    if not checks.true("glTF Separate: an armature", armature is not None):
        return
    bones = armature.data.bones
    world = armature.matrix_world
    checks.equal("glTF Separate: bones", sorted(b.name for b in bones), sorted(skeleton.names))
    for index, name in enumerate(skeleton.names):
        if name not in bones:
            continue
        parent = skeleton.parents[index]
        checks.equal(
            f"glTF Separate: {name} parent",
            bones[name].parent.name if bones[name].parent else None,
            skeleton.names[parent] if parent >= 0 else None,
        )
        rest = world @ bones[name].matrix_local
        checks.close(f"glTF Separate: {name} head", rest.translation, skeleton.bind_matrices[index][:3, 3])
        checks.close(f"glTF Separate: {name} rest rotation", rest.to_3x3(), skeleton.bind_matrices[index][:3, :3])
    if not checks.equal("glTF Separate: meshes", len(result.meshes), len(expected.meshes)):
        return
    obj, mesh = result.meshes[0], expected.meshes[0]
    checks.close(
        "glTF Separate: vertices where the model's stood",
        [obj.matrix_world @ v.co for v in obj.data.vertices],
        mesh.positions,
    )
    checks.equal("glTF Separate: faces", [list(p.vertices) for p in obj.data.polygons], mesh.faces.tolist())
    checks.true(
        "glTF Separate: deformed by the armature",
        any(m.type == "ARMATURE" and m.object == armature for m in obj.modifiers),
    )
    weights = np.zeros((len(obj.data.vertices), len(skeleton.names)))
    for vertex in obj.data.vertices:
        for element in vertex.groups:
            weights[vertex.index, skeleton.names.index(obj.vertex_groups[element.group].name)] += element.weight
    expected_weights = np.zeros((len(mesh.positions), len(skeleton.names)))
    for row, (indices, values) in enumerate(zip(mesh.bone_indices, mesh.bone_weights)):
        for bone, weight in zip(indices, values):
            expected_weights[row, int(bone)] += weight
    checks.close("glTF Separate: skin weights", weights, expected_weights, 1e-4)

    material = bpy.data.materials.get("body")
    if not checks.true("glTF Separate: the material", material is not None and material.node_tree is not None):
        return
    bsdf = next(n for n in material.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    links = bsdf.inputs["Base Color"].links
    image = links[0].from_node.image if links and links[0].from_node.type == "TEX_IMAGE" else None
    if not checks.true("glTF Separate: a texture feeds Base Color", image is not None):
        return
    checks.true("glTF Separate: the texture is packed into the .blend", image.packed_file is not None)
    checks.equal("glTF Separate: texture size", tuple(image.size), (2, 2))
    # Blender's pixels start at the bottom row.
    pixels = [[c / 255.0 for c in pixel] for row in reversed(TEXTURE_2X2) for pixel in row]
    checks.close("glTF Separate: texture pixels", np.reshape(image.pixels[:], (-1, 4)), pixels, 1e-6)


# The labels of the import entries as published (users' scripts and presets see them).
PUBLISHED_IMPORT_LABELS = {
    "animbin_seanim": "Import SEAnim",
    "animbin_semodel": "Import SEModel",
    "animbin_cast": "Import Cast",
    "animbin_animx": "Import AnimX",
    "animbin_x8an": "Import x8an",
    "animbin_dmf": "Import DMF",
}


def check_entries(checks):
    """The entries, filters, options and drag-and-drop handlers are the library's table
    (``animbin.formats()``): an import entry per format but glTF and FBX (Blender's own),
    under its published id; an action export per format that holds animations, a mesh
    export per format that holds meshes."""
    import animbin_io

    table = [f for f in animbin.formats() if f["name"] not in animbin_io.BLENDER_OWN]
    checks.equal("entries: Blender's own formats", sorted(animbin_io.BLENDER_OWN), ["fbx", "gltf"])
    imports = {op.bl_idname: op for op, _text in animbin_io.IMPORTS}
    exports = {op.bl_idname: op for op, _text in animbin_io.EXPORTS}
    handlers = {fh.bl_import_operator: fh for fh in animbin_io.FILE_HANDLERS}
    ids = {f["name"]: "animbin_x8an" if f["name"] == "sf3" else f"animbin_{f['name']}" for f in table}
    checks.equal("entries: import ids", sorted(imports), sorted(f"import_scene.{i}" for i in ids.values()))
    checks.equal(
        "entries: action export ids",
        sorted(i for i in exports if i.startswith("export_anim.")),
        sorted(f"export_anim.animbin_{f['name']}" for f in table if "animations" in f["holds"]),
    )
    checks.equal(
        "entries: mesh export ids",
        sorted(i for i in exports if i.startswith("export_mesh.")),
        sorted(f"export_mesh.animbin_{f['name']}" for f in table if "meshes" in f["holds"]),
    )
    for fmt in table:
        name = fmt["name"]
        glob_ = ";".join(f"*.{e}" for e in fmt["extensions"])
        operator = getattr(bpy.ops.import_scene, ids[name])
        properties = operator.get_rna_type().properties
        checks.equal(f"entries: {name} import label", operator.get_rna_type().name, PUBLISHED_IMPORT_LABELS[ids[name]])
        checks.equal(f"entries: {name} import filter", properties["filter_glob"].default, glob_)
        checks.equal(
            f"entries: {name} import asks for a frame rate", "framerate" in properties, not fmt["stores_framerate"]
        )
        handler = handlers.get(f"import_scene.{ids[name]}")
        checks.equal(
            f"entries: {name} drag and drop",
            handler.bl_file_extensions if handler else None,
            ";".join(f".{e}" for e in fmt["extensions"]) if fmt["has_magic"] else None,
        )
        if "animations" in fmt["holds"]:
            properties = getattr(bpy.ops.export_anim, f"animbin_{name}").get_rna_type().properties
            checks.equal(f"entries: {name} action export filter", properties["filter_glob"].default, glob_)
            checks.equal(
                f"entries: {name} action export kinds",
                [item.identifier for item in properties["kind"].enum_items],
                ["ACTION", *fmt["animation_kinds"]],
            )
            checks.equal(
                f"entries: {name} action export precision", "precision" in properties, fmt["chooses_precision"]
            )
        if "meshes" in fmt["holds"]:
            properties = getattr(bpy.ops.export_mesh, f"animbin_{name}").get_rna_type().properties
            checks.equal(f"entries: {name} mesh export filter", properties["filter_glob"].default, glob_)


def check_x8an_export(checks, testdata, out_dir):
    """x8an files imported and written again as x8an (all segments in one file): the same
    segments in their order, slots in their places, ticks and keys; one read at 60 fps is
    written back at its own ticks."""
    # x8an02.bin, which holds no keys, is a test fixture rather than a sample.
    fixtures = os.path.join(testdata, os.pardir, "tests", "fixtures")
    for name, framerate in (("x8an00.bin", 60.0), ("x8an01.bin", 0.0), ("x8an02.bin", 0.0)):
        path = os.path.join(fixtures if name == "x8an02.bin" else testdata, name)
        expected = animbin.open(path, "sf3").scene()
        empty_scene()
        bpy.ops.import_scene.animbin_x8an(filepath=path, framerate=framerate)
        armature = armatures()[0]
        bpy.context.view_layer.objects.active = armature
        armature.select_set(True)
        # The last segment active: all segments are still written in their file's order.
        last = bpy.data.actions[expected.animations[-1].name]
        armature.animation_data.action = last
        if hasattr(last, "slots") and len(last.slots):
            armature.animation_data.action_slot = last.slots[0]
        out = os.path.join(out_dir, f"back_{name}")
        result = bpy.ops.export_anim.animbin_sf3(filepath=out, which="ALL")
        if not checks.equal(f"{name} -> x8an: export", result, {"FINISHED"}):
            continue
        back = animbin.open(out, "sf3")
        checks.equal(f"{name} -> x8an: segments", back.info()["segment_count"], len(expected.animations))
        seen = back.scene()
        checks.equal(
            f"{name} -> x8an: the active segment is {last.name}",
            armature.animation_data.action.name,
            expected.animations[-1].name,
        )
        for segment, original in zip(seen.animations, expected.animations):
            checks.equal(
                f"{name} -> x8an {original.name}: slots in order",
                [t.bone for t in segment.tracks],
                [t.bone for t in original.tracks],
            )
            compare_animations(checks, f"{name} -> x8an {original.name}", segment, original, fmt="sf3")


def check_dmf_export(checks, testdata, out_dir):
    """A DMF imported and written again as DMF: its actions with the skeleton, and its
    model with the embedded texture; a material's colour goes to formats that hold materials."""
    path = os.path.join(testdata, "sample.dmf")
    expected = animbin.open(path).scene()
    empty_scene()
    bpy.ops.import_scene.animbin_dmf(filepath=path)
    armature = armatures()[0]
    bpy.context.view_layer.objects.active = armature
    armature.select_set(True)
    out = os.path.join(out_dir, "actions_back.dmf")
    result = bpy.ops.export_anim.animbin_dmf(filepath=out, which="ALL")
    if checks.equal("sample.dmf -> dmf actions: export", result, {"FINISHED"}):
        back = animbin.open(out).scene()
        checks.equal("sample.dmf -> dmf actions: bones", back.skeleton.names, expected.skeleton.names)
        checks.close(
            "sample.dmf -> dmf actions: bind translations",
            back.skeleton.translations,
            expected.skeleton.translations,
        )
        checks.equal("sample.dmf -> dmf actions: no meshes", len(back.meshes), 0)
        checks.equal("sample.dmf -> dmf actions: animations", len(back.animations), len(expected.animations))
        for seen, original in zip(back.animations, expected.animations):
            compare_animations(checks, f"sample.dmf -> dmf {original.name}", seen, original, fmt="dmf")

    check_model_export(checks, path, "dmf", out_dir)
    back = animbin.open(os.path.join(out_dir, "sample_dmf.dmf")).scene()
    checks.equal(
        "sample.dmf -> dmf model: embedded textures",
        [(t.name, t.png) for t in back.textures],
        [(t.name, t.png) for t in expected.textures],
    )
    checks.equal(
        "sample.dmf -> dmf model: materials' textures and colours",
        [(m.name, m.texture, m.base_color) for m in back.materials],
        [(m.name, m.texture, m.base_color) for m in expected.materials],
    )

    # A material made in Blender: its colour is written where the format holds materials.
    from animbin_io import exporter

    empty_scene()
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    cube = bpy.context.active_object
    material = bpy.data.materials.new("red")
    if material.node_tree is None:  # Blender 5.0 makes it with nodes (and deprecates use_nodes)
        material.use_nodes = True
    bsdf = next(n for n in material.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    bsdf.inputs["Base Color"].default_value = (0.8, 0.1, 0.1, 1.0)
    cube.data.materials.append(material)
    out = os.path.join(out_dir, "red.dmf")
    result = bpy.ops.export_mesh.animbin_dmf(filepath=out)
    if checks.equal("Blender material -> dmf: export", result, {"FINISHED"}):
        color = animbin.open(out).scene().materials[0].base_color
        checks.close("Blender material -> dmf: base colour", color, (0.8, 0.1, 0.1, 1.0), 1e-6)
    written = exporter.save_model(
        bpy.context, os.path.join(out_dir, "red.semodel"), "semodel", exporter.ModelSettings()
    )
    checks.equal("Blender material -> semodel: nothing reported lost", written.warnings, [])


def check_parent_cycles(checks):
    """The importer's parent check cuts each cycle at its lowest-indexed bone, as a plain walk
    up the parents would, and keeps a 200,000-bone chain as it is (walked once, not per bone)."""
    from animbin_io.importer import _checked_parents

    def walked(parents):
        result = [p if 0 <= p < len(parents) and p != i else None for i, p in enumerate(parents)]
        for index in range(len(result)):
            at, steps = result[index], 0
            while at is not None and steps <= len(result):
                if at == index:
                    result[index] = None
                    break
                at, steps = result[at], steps + 1
        return result

    checks.equal("parents: a cycle is cut at its lowest bone", _checked_parents([2, 0, 1, 0]), [None, 0, 1, 0])
    checks.equal("parents: self and out of range are roots", _checked_parents([0, 7, -1, 1]), [None, None, None, 1])
    generator = random.Random(21)
    lists = [[generator.randrange(-1, size + 1) for _ in range(size)] for size in range(1, 9) for _ in range(300)]
    checks.true(
        "parents: as a walk up the parents on 2,400 random lists",
        all(_checked_parents(parents) == walked(parents) for parents in lists),
    )
    chain = list(range(-1, 199_999))
    checks.equal("parents: a 200,000-bone chain", _checked_parents(chain), [None] + chain[1:])


def check_installed_zip(checks, zip_path, testdata):
    """The built extension installs through Blender's extension installer, and its bundled
    wheel (not this environment's animbin) provides the module (in a child process)."""
    with tempfile.TemporaryDirectory() as resources:
        env = dict(os.environ, BLENDER_USER_RESOURCES=resources)
        command = [sys.executable, os.path.abspath(__file__), "--installed-check", zip_path, "--testdata", testdata]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        lines = [line for line in done.stdout.splitlines() if line.startswith("INSTALLED ")]
        checks.true(
            f"installed zip: the check ran (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}",
            done.returncode == 0 and lines,
        )
        for line in lines:
            what, _, verdict = line[len("INSTALLED ") :].rpartition(": ")
            checks.true(f"installed zip: {what}", verdict == "ok")


class _BundledOnly(importlib.abc.MetaPathFinder):
    """Finds ``animbin`` only in Blender's extension site-packages, where the extension's
    wheel is installed, hiding the copy in this environment."""

    def __init__(self, site):
        self.site = site

    def find_spec(self, name, path=None, target=None):
        if name != "animbin":
            return None
        return importlib.machinery.PathFinder.find_spec(name, [self.site]) or importlib.machinery.ModuleSpec(name, None)


def installed_check(zip_path, testdata):
    """Run in a child process with BLENDER_USER_RESOURCES set to an empty folder."""
    resources = os.environ["BLENDER_USER_RESOURCES"]
    site = os.path.join(
        resources, "extensions", ".local", "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages"
    )
    for module in [m for m in sys.modules if m == "animbin" or m.startswith("animbin.")]:
        del sys.modules[module]
    sys.meta_path.insert(0, _BundledOnly(site))
    result = bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default", enable_on_install=True)
    report = []
    report.append(("install", result == {"FINISHED"}))
    report.append(("enabled", "bl_ext.user_default.animbin_io" in bpy.context.preferences.addons))
    try:
        import animbin as bundled

        report.append(
            ("animbin from the bundled wheel", os.path.realpath(bundled.__file__).startswith(os.path.realpath(site)))
        )
        # (Factory settings would disable the extension: empty the startup scene instead.)
        for obj in list(bpy.data.objects):
            bpy.data.objects.remove(obj)
        for mesh in list(bpy.data.meshes):
            bpy.data.meshes.remove(mesh)
        done = bpy.ops.import_scene.animbin_semodel(filepath=os.path.join(testdata, "sample.semodel"))
        report.append(("import SEModel", done == {"FINISHED"} and len(bpy.data.meshes) == 1))
        done = bpy.ops.import_scene.animbin_seanim(filepath=os.path.join(testdata, "sample.seanim"))
        report.append(("import SEAnim onto it", done == {"FINISHED"} and len(bpy.data.actions) == 1))
        with tempfile.TemporaryDirectory() as out:
            done = bpy.ops.export_anim.animbin_seanim(filepath=os.path.join(out, "back.seanim"))
            report.append(("export SEAnim", done == {"FINISHED"} and os.path.isfile(os.path.join(out, "back.seanim"))))
    except Exception:
        traceback.print_exc()
        report.append(("no exception", False))
    finally:
        bpy.ops.preferences.addon_disable(module="bl_ext.user_default.animbin_io")
    for what, ok in report:
        print(f"INSTALLED {what}: {'ok' if ok else 'FAILED'}")
    sys.stdout.flush()
    os._exit(0 if all(ok for _w, ok in report) else 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--testdata", default=os.path.join(ROOT, "testdata"))
    parser.add_argument("--zip", help="the built extension (blender/build.py): also install it and use it")
    parser.add_argument("--installed-check", help=argparse.SUPPRESS)
    parser.add_argument("--gltf-separate-export", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.installed_check:
        installed_check(args.installed_check, args.testdata)
    if args.gltf_separate_export:
        gltf_separate_export(args.gltf_separate_export, os.path.abspath(args.testdata))

    print(f"Blender {bpy.app.version_string}, animbin {animbin.__version__} from {os.path.dirname(animbin.__file__)}")
    sys.path.insert(0, os.path.join(ROOT, "blender"))
    import animbin_io

    animbin_io.register()
    checks = Checks()
    samples = sorted(
        p
        for p in glob.glob(os.path.join(args.testdata, "*"))
        if os.path.isfile(p) and any(os.path.basename(p).lower().endswith(s) for s, _op in IMPORTERS)
    )
    try:
        checks.true(f"samples found in {args.testdata}", len(samples) >= 10)
        with tempfile.TemporaryDirectory() as out_dir:
            for path in samples:
                try:
                    check_import(checks, path, out_dir)
                except Exception:
                    checks.true(f"{os.path.basename(path)}: no exception:\n{traceback.format_exc()}", False)
            for path, target in (
                ("sample.semodel", "semodel"),
                ("sample.semodel", "cast"),
                ("sample_draft.semodel", "semodel"),
                ("sample.cast", "cast"),
                ("sample.cast", "semodel"),
            ):
                try:
                    check_model_export(checks, os.path.join(args.testdata, path), target, out_dir)
                except Exception:
                    checks.true(f"{path} -> {target}: no exception:\n{traceback.format_exc()}", False)
            for check in (
                lambda: check_animation_on_model(checks, args.testdata),
                lambda: check_kinds(checks, out_dir),
                lambda: check_textures(checks, args.testdata, out_dir),
                lambda: check_axis_and_scale(checks, args.testdata, out_dir),
                lambda: check_blender_mesh(checks, out_dir),
                lambda: check_blender_action(checks, out_dir),
                lambda: check_entries(checks),
                lambda: check_x8an_export(checks, args.testdata, out_dir),
                lambda: check_dmf_export(checks, args.testdata, out_dir),
                lambda: check_gltf_separate(checks, os.path.abspath(args.testdata), out_dir),
                lambda: check_parent_cycles(checks),
                lambda: blend_shape_checks.check_blend_shapes(checks, os.path.abspath(args.testdata), out_dir),
                lambda: rig_extras_checks.check_rig_extras(checks, out_dir),
                lambda: hair_instance_checks.check_hair_and_instances(checks, os.path.abspath(args.testdata), out_dir),
            ):
                try:
                    check()
                except Exception:
                    checks.true(f"no exception:\n{traceback.format_exc()}", False)
    finally:
        animbin_io.unregister()
    if args.zip:
        check_installed_zip(checks, os.path.abspath(args.zip), os.path.abspath(args.testdata))

    for failure in checks.failures:
        print(f"FAIL {failure}")
    print(f"{checks.passed} checks passed" + (f", {len(checks.failures)} failed" if checks.failures else ""))
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
