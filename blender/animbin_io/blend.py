"""Small pieces of Blender that import and export share: F-curves across the action APIs of
Blender 4.2 to 4.5 and later, materials' node trees across 4.2 to 5.0, rest poses, and the
action's stored animbin settings."""

from __future__ import annotations

import numpy as np

import bpy

# Enum values of Keyframe.interpolation, for foreach_set.
INTERPOLATION_CONSTANT = 0
INTERPOLATION_LINEAR = 1
INTERPOLATION_BEZIER = 2
# Keyframe.handle_left_type / handle_right_type "FREE": handles kept where they are set.
HANDLE_FREE = 0

# Where an imported action keeps what Blender has no place for (the file's animation kind
# and per-bone kind overrides, looping, frame rate and length), so that export writes it back.
ACTION_PROPERTY = "animbin"
# A bone's cosmetic flag (SE formats), kept on the armature's bone.
COSMETIC_PROPERTY = "animbin_cosmetic"
# A bone's rest scale (Cast's `s`: not part of the rest pose, the scale absolute scale keys
# are measured against), kept on the armature's bone when it is not (1, 1, 1), so that an
# animation imported later onto the armature is read against it and export writes it back.
REST_SCALE_PROPERTY = "animbin_rest_scale"
# The name a file gives a hair or an instance, kept on its object (empty, or one Blender
# suffixed to keep object names unique), so that export writes it back.
NAME_PROPERTY = "animbin_name"


def rest_scale(bone) -> tuple[float, float, float]:
    """The rest scale kept on an armature ``bone`` (:data:`REST_SCALE_PROPERTY`), else 1."""
    value = bone.get(REST_SCALE_PROPERTY)
    if value is None or len(value) != 3:
        return (1.0, 1.0, 1.0)
    return tuple(float(v) for v in value)


def is_slotted(action: bpy.types.Action) -> bool:
    """Blender 4.4 and later keep F-curves in layers, strips and channelbags per slot;
    Blender 5.0 removes the flat ``action.fcurves``."""
    return hasattr(action, "slots") and hasattr(action, "layers")


class ChannelWriter:
    """Creates the F-curves of one action for one object: an armature's pose bones, or the
    object's own transform."""

    def __init__(self, action: bpy.types.Action, armature_object: bpy.types.Object):
        self.action = action
        self.slot = None
        if is_slotted(action):
            self.slot = action.slots.new(id_type="OBJECT", name=armature_object.name)
            layer = action.layers.new("Layer") if len(action.layers) == 0 else action.layers[0]
            strip = layer.strips.new(type="KEYFRAME") if len(layer.strips) == 0 else layer.strips[0]
            self.bag = strip.channelbag(self.slot, ensure=True)
        else:
            self.bag = action
        self.groups = {}

    def _group(self, name: str):
        group = self.groups.get(name)
        if group is None:
            group = self.bag.groups.get(name) or self.bag.groups.new(name)
            self.groups[name] = group
        return group

    def curves(
        self,
        bone: str | None,
        prop: str,
        frames: np.ndarray,
        values: np.ndarray,
        interpolation: int,
        tangents: tuple[np.ndarray, np.ndarray, float] | None = None,
    ) -> None:
        """One F-curve per column of ``values`` ((K, n)) for ``pose.bones[bone].prop``, or
        for the object's own ``prop`` where ``bone`` is None. ``tangents`` (incoming and
        outgoing (K, n), per second, and the frame rate) make the keys a cubic spline:
        Bezier keys whose handles stand a third of the way to the neighbouring keys, which
        is the same curve as glTF's cubic Hermite spline."""
        if bone is None:
            path, group = prop, self._group("Object Transforms")
        else:
            path, group = f'pose.bones["{bpy.utils.escape_identifier(bone)}"].{prop}', self._group(bone)
        frames = np.asarray(frames, dtype=np.float64)
        count = len(frames)
        for index in range(values.shape[1]):
            curve = self.bag.fcurves.new(path, index=index)
            curve.group = group
            points = curve.keyframe_points
            points.add(count)
            co = np.empty((count, 2), dtype=np.float64)
            co[:, 0] = frames
            co[:, 1] = values[:, index]
            points.foreach_set("co", co.ravel())
            if tangents is not None:
                incoming, outgoing, rate = tangents
                gaps = np.diff(frames)
                before = np.concatenate([gaps[:1], gaps]) if count > 1 else np.ones(count)
                after = np.concatenate([gaps, gaps[-1:]]) if count > 1 else np.ones(count)
                left = np.stack([frames - before / 3.0, values[:, index] - incoming[:, index] * before / rate / 3.0], axis=1)
                right = np.stack([frames + after / 3.0, values[:, index] + outgoing[:, index] * after / rate / 3.0], axis=1)
                points.foreach_set("interpolation", np.full(count, INTERPOLATION_BEZIER, dtype=np.int32))
                points.foreach_set("handle_left_type", np.full(count, HANDLE_FREE, dtype=np.int32))
                points.foreach_set("handle_right_type", np.full(count, HANDLE_FREE, dtype=np.int32))
                points.foreach_set("handle_left", left.ravel())
                points.foreach_set("handle_right", right.ravel())
            else:
                points.foreach_set("interpolation", np.full(count, interpolation, dtype=np.int32))
            curve.update()

    def assign(self, armature_object: bpy.types.Object) -> None:
        """Makes the action the object's active one (with its slot)."""
        data = armature_object.animation_data or armature_object.animation_data_create()
        data.action = self.action
        if self.slot is not None:
            data.action_slot = self.slot


def node_tree(material: bpy.types.Material):
    """The material's node tree when it draws with nodes, else None. Blender 5.0 draws
    every material with nodes and deprecates ``Material.use_nodes`` (gone in 6.0)."""
    if material.node_tree is None:
        return None
    return material.node_tree if bpy.app.version >= (5, 0, 0) or material.use_nodes else None


def action_fcurves(action: bpy.types.Action, armature_object: bpy.types.Object | None = None) -> list:
    """The action's F-curves that animate an armature: those of the slot assigned to
    ``armature_object`` when the action is its active one, else of the first slot that has
    pose-bone curves (Blender 4.4+), or the flat list (4.2, 4.3)."""
    if not is_slotted(action) or getattr(action, "is_action_legacy", False):
        return list(getattr(action, "fcurves", ()))
    bags = [bag for layer in action.layers for strip in layer.strips for bag in strip.channelbags]
    data = armature_object.animation_data if armature_object is not None else None
    if data is not None and data.action == action and data.action_slot is not None:
        for bag in bags:
            if bag.slot == data.action_slot:
                return list(bag.fcurves)
    for bag in bags:
        if any(c.data_path.startswith("pose.bones[") for c in bag.fcurves):
            return list(bag.fcurves)
    return []


def rest_poses(armature: bpy.types.Armature) -> dict:
    """Bone name -> (translation (3,), rotation x y z w (4,)): each bone's rest transform
    in its parent's space (in armature space for a root), from ``matrix_local``."""
    rests = {}
    for bone in armature.bones:
        local = bone.matrix_local
        if bone.parent is not None:
            local = bone.parent.matrix_local.inverted_safe() @ local
        translation, rotation, _scale = local.decompose()
        rests[bone.name] = (
            np.array(translation, dtype=np.float64),
            np.array((rotation.x, rotation.y, rotation.z, rotation.w), dtype=np.float64),
        )
    return rests


def action_settings(action: bpy.types.Action) -> dict:
    """What an import stored on the action (empty for an action made in Blender)."""
    stored = action.get(ACTION_PROPERTY)
    return stored.to_dict() if stored is not None and hasattr(stored, "to_dict") else {}


def scene_framerate(scene: bpy.types.Scene) -> float:
    """The scene's frames per second."""
    return scene.render.fps / scene.render.fps_base


def set_scene_framerate(scene: bpy.types.Scene, rate: float) -> None:
    """Sets the scene's rate: a whole ``fps`` and the ``fps_base`` that makes it ``rate``."""
    if not rate > 0.0:
        return
    fps = max(1, min(32767, int(round(rate))))
    scene.render.fps = fps
    scene.render.fps_base = fps / rate
