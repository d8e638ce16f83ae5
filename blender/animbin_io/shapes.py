"""Shape keys: a scene mesh's morph targets as shape keys (offsets added to the basis, the
maximum weight as the key's slider maximum) and its animations' weight tracks as actions on
the mesh's shape-key datablock (``key_blocks["name"].value`` F-curves), and back for export.

A weight track names its targets as Cast's ``bs`` curves do: every mesh with a shape key of
that name gets the keys. Each imported weight action keeps the animation's name, frame rate,
length and looping on itself, so that an export writes them back.
"""

from __future__ import annotations

import re

import numpy as np

import bpy

import animbin

from . import blend

_VALUE_PATH = re.compile(r'^key_blocks\["((?:[^"\\]|\\.)*)"\]\.value$')

# What an imported weight action keeps (the scene animation it came from).
WEIGHTS_PROPERTY = "animbin_weights"


def add_shape_keys(obj, mesh, scale: float) -> None:
    """Gives ``obj`` (built from the scene ``mesh`` with positions times ``scale``) a basis
    and one shape key per morph target."""
    if not mesh.morph_targets:
        return
    basis = np.asarray(mesh.positions, dtype=np.float64) * scale
    obj.shape_key_add(name="Basis", from_mix=False)
    for target in mesh.morph_targets:
        key = obj.shape_key_add(name=target.name, from_mix=False)
        co = basis.copy()
        indices = np.asarray(target.indices, dtype=np.int64)
        co[indices] += np.asarray(target.deltas, dtype=np.float64) * scale
        key.data.foreach_set("co", co.astype(np.float32).ravel())
        if target.max_weight is not None:
            # Blender's slider runs to at most 10 (as the format author's add-on maps ts).
            key.slider_max = float(min(10.0, max(target.max_weight, key.slider_min + 0.001)))
        key.value = 0.0
    obj.data.shape_keys.use_relative = True


class _KeyCurves:
    """The F-curves of one action for one shape-key datablock (a slot of type KEY on
    Blender 4.4+)."""

    def __init__(self, action, key):
        self.action = action
        self.slot = None
        if blend.is_slotted(action):
            self.slot = action.slots.new(id_type="KEY", name=key.name)
            layer = action.layers.new("Layer") if len(action.layers) == 0 else action.layers[0]
            strip = layer.strips.new(type="KEYFRAME") if len(layer.strips) == 0 else layer.strips[0]
            self.bag = strip.channelbag(self.slot, ensure=True)
        else:
            self.bag = action

    def curve(self, name: str, frames, values, interpolation: int) -> None:
        path = f'key_blocks["{bpy.utils.escape_identifier(name)}"].value'
        curve = self.bag.fcurves.new(path, index=0)
        count = len(frames)
        curve.keyframe_points.add(count)
        co = np.empty((count, 2), dtype=np.float64)
        co[:, 0] = frames
        co[:, 1] = values
        curve.keyframe_points.foreach_set("co", co.ravel())
        curve.keyframe_points.foreach_set("interpolation", np.full(count, interpolation, dtype=np.int32))
        curve.update()

    def assign(self, key) -> None:
        data = key.animation_data or key.animation_data_create()
        data.action = self.action
        if self.slot is not None:
            data.action_slot = self.slot


def build_weight_actions(objects, animations, stem: str, result) -> list:
    """One action per animation with weight tracks per mesh object whose shape keys they
    name; the first of each object becomes its shape keys' active action. Returns the
    actions made."""
    made = []
    for obj in objects:
        key = obj.data.shape_keys if obj is not None and obj.type == "MESH" else None
        if key is None:
            continue
        first = None
        for animation in animations:
            tracks = [t for t in animation.weights if t.target in key.key_blocks and len(t.frames)]
            if not tracks:
                continue
            action = bpy.data.actions.new(f"{animation.name or stem} {obj.name}")
            action.use_fake_user = True
            curves = _KeyCurves(action, key)
            interpolation = (
                blend.INTERPOLATION_CONSTANT if animation.interpolation == "step" else blend.INTERPOLATION_LINEAR
            )
            for track in tracks:
                curves.curve(track.target, track.frames, track.weights, interpolation)
            frames = np.concatenate([t.frames for t in tracks])
            action.use_frame_range = True
            action.frame_start = float(frames.min())
            action.frame_end = float(max(frames.max(), animation.frame_count - 1.0, frames.min()))
            action.use_cyclic = bool(animation.looping)
            action[WEIGHTS_PROPERTY] = {
                "name": animation.name,
                "framerate": float(animation.framerate),
                "frame_count": float(animation.frame_count),
                "interpolation": animation.interpolation,
            }
            if first is None:
                first = curves
            made.append(action)
        if first is not None:
            first.assign(key)
    named = {t.target for a in animations for t in a.weights}
    keyed = {kb.name for o in objects if o is not None and o.type == "MESH" and o.data.shape_keys for kb in o.data.shape_keys.key_blocks}
    missing = sorted(named - keyed)
    if missing:
        result.warnings.append(f"weight tracks for shape keys no mesh has: {', '.join(missing[:10])}")
    return made


def morph_targets(obj, vertices, matrix: np.ndarray, scale: float) -> list:
    """The object's shape keys (but its reference key) as ``animbin.MorphTarget``s of an
    exported mesh whose vertex ``j`` is the object's vertex ``vertices[j]``, in the space
    ``matrix`` ((4, 4)) times ``scale``: offsets from each key's relative key, listed for the
    vertices they move."""
    key = obj.data.shape_keys
    if key is None or len(key.key_blocks) < 2:
        return []
    count = len(obj.data.vertices)
    vertices = np.asarray(vertices, dtype=np.int64)

    def co(block):
        values = np.empty(count * 3, dtype=np.float64)
        block.data.foreach_get("co", values)
        return values.reshape(-1, 3)

    targets = []
    for block in key.key_blocks:
        if block == key.reference_key:
            continue
        relative = block.relative_key if block.relative_key is not None else key.reference_key
        offsets = (co(block) - co(relative))[vertices] @ matrix[:3, :3].T * scale
        moved = np.flatnonzero(np.any(offsets != 0.0, axis=1))
        max_weight = None if block.slider_max == 1.0 else float(block.slider_max)
        targets.append(animbin.MorphTarget(block.name, moved, offsets[moved], max_weight=max_weight))
    return targets


def _key_fcurves(action, key) -> list:
    """The action's F-curves for the shape-key datablock ``key`` (its slot on 4.4+)."""
    if not blend.is_slotted(action) or getattr(action, "is_action_legacy", False):
        return list(getattr(action, "fcurves", ()))
    data = key.animation_data
    bags = [bag for layer in action.layers for strip in layer.strips for bag in strip.channelbags]
    for bag in bags:
        if data is not None and data.action == action and bag.slot == data.action_slot:
            return list(bag.fcurves)
    for bag in bags:
        if any(_VALUE_PATH.match(c.data_path) for c in bag.fcurves):
            return list(bag.fcurves)
    return []


def weight_animations(objects, scene_rate: float) -> list:
    """The active shape-key actions of ``objects`` as ``animbin.Animation``s of weight
    tracks (keys at the F-curves' keyframes), one per action; an action on several meshes
    is written once."""
    out = []
    seen = set()
    for obj in objects:
        key = obj.data.shape_keys if obj.type == "MESH" else None
        data = key.animation_data if key is not None else None
        action = data.action if data is not None else None
        if action is None or action.name in seen:
            continue
        seen.add(action.name)
        tracks = []
        constant = True
        for curve in _key_fcurves(action, key):
            match = _VALUE_PATH.match(curve.data_path)
            if match is None or not len(curve.keyframe_points):
                continue
            co = np.empty(len(curve.keyframe_points) * 2, dtype=np.float64)
            curve.keyframe_points.foreach_get("co", co)
            co = co.reshape(-1, 2)
            constant &= all(p.interpolation == "CONSTANT" for p in curve.keyframe_points)
            name = match.group(1).replace('\\"', '"').replace("\\\\", "\\")
            tracks.append(animbin.WeightTrack(name, co[:, 0], co[:, 1]))
        if not tracks:
            continue
        stored = action.get(WEIGHTS_PROPERTY)
        stored = stored.to_dict() if stored is not None and hasattr(stored, "to_dict") else {}
        start, end = action.frame_range
        out.append(
            animbin.Animation(
                stored.get("name", action.name),
                framerate=float(stored.get("framerate", 0.0)) or scene_rate,
                frame_count=float(stored.get("frame_count", float(end) + 1.0)),
                looping=bool(action.use_cyclic),
                interpolation="step" if constant else "linear",
                weights=tracks,
            )
        )
    return out
