"""Export: Blender actions and meshes as an ``animbin.Scene``, written with
``animbin.from_scene(scene, format).write(path)``.

Everything is written in the armature object's space: the armature's own object transform
(which an import of a Y-up file sets) is not part of the file, so an import followed by an
export gives the file's coordinates back. Meshes without an armature are written in world
space, turned back to Y-up when asked; hair (Curves objects) as meshes. Instances (Empties
an import made, ``instances``) are written in world space, turned back to Y-up when asked:
Cast keeps them beside the models, not placed with them.

Actions: each pose bone's ``location``, ``rotation_quaternion`` (or Euler / axis-angle,
converted) and ``scale`` channels become a bone track, the keys taken at the channel's
keyframes (or every frame) and converted from pose-bone space to the file's
(``pose.basis_to_keys_*``); pose markers become notes; the frame rate, looping, kind and
per-bone kinds are the ones the action was imported with, else the scene's rate and
absolute keys.

What a format can take (its animation kinds, names, length rule, several animations per
file, a skeleton with the actions, material colours, embedded textures, precision) is read
from the library's table (``table``), never from the format's name.
"""

from __future__ import annotations

import base64
import math
import os
import re
import types
import warnings
from itertools import chain
from dataclasses import dataclass, field

import numpy as np

import bmesh
import bpy
from mathutils import Euler, Matrix, Quaternion

import animbin

from . import blend, hair, instances, pose, rig, shapes, table

Y_UP_FROM_Z_UP = Matrix.Rotation(-math.pi / 2, 4, "X")

_PATH = re.compile(r'^pose\.bones\["((?:[^"\\]|\\.)*)"\]\.(\w+)$')
_DEFAULTS = {
    "location": (0.0, 0.0, 0.0),
    "rotation_quaternion": (1.0, 0.0, 0.0, 0.0),
    "rotation_euler": (0.0, 0.0, 0.0),
    "rotation_axis_angle": (0.0, 0.0, 1.0, 0.0),
    "scale": (1.0, 1.0, 1.0),
}


@dataclass
class ActionSettings:
    """The action export options (see the operators in ``__init__``)."""

    kind: str = "ACTION"
    keys: str = "KEYFRAMES"
    scale: float = 1.0
    # The key precision of a format that chooses one: "ACTION" (as imported, else single),
    # "single" or "double".
    precision: str = "ACTION"


@dataclass
class ModelSettings:
    """The model export options."""

    scale: float = 1.0
    up_axis: str = "Z"
    apply_modifiers: bool = False


@dataclass
class Result:
    """What an export wrote, and what it could not carry over."""

    paths: list = field(default_factory=list)
    warnings: list = field(default_factory=list)


def _write(scene, path: str, format_name: str, result: Result, **options) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", animbin.LossWarning)
        animbin.from_scene(scene, format_name, **options).write(path, format_name)
    result.warnings += [f"{os.path.basename(path)}: {w.message}" for w in caught]
    result.paths.append(path)


# ---------------------------------------------------------------------------------------
# Skeleton


def skeleton_of(armature_object, scale: float):
    """The armature's bones as an ``animbin.Skeleton`` in armature space (rest pose,
    lengths times ``scale``), in Blender's bone order (parents before children)."""
    bones = list(armature_object.data.bones)
    index = {bone.name: i for i, bone in enumerate(bones)}
    rests = blend.rest_poses(armature_object.data)
    parents = np.array([index[b.parent.name] if b.parent else -1 for b in bones], dtype=np.int32)
    translations = np.array([rests[b.name][0] for b in bones], dtype=np.float64).reshape(-1, 3) * scale
    rotations = np.array([rests[b.name][1] for b in bones], dtype=np.float64).reshape(-1, 4)
    globals_t, globals_r = [], []
    for bone in bones:
        t, r, _s = bone.matrix_local.decompose()
        globals_t.append(tuple(t * scale))
        globals_r.append((r.x, r.y, r.z, r.w))
    return animbin.Skeleton(
        [b.name for b in bones],
        parents,
        translations,
        rotations,
        global_translations=np.array(globals_t, dtype=np.float64).reshape(-1, 3),
        global_rotations=np.array(globals_r, dtype=np.float64).reshape(-1, 4),
        cosmetic=np.array([bool(b.get(blend.COSMETIC_PROPERTY, False)) for b in bones], dtype=bool),
        # Blender's inherit-scale NONE is a bone that does not inherit its parent's scale
        # (Cast's ssc); every other mode is written as full inheritance.
        scale_compensate=np.array([b.inherit_scale == "NONE" for b in bones], dtype=bool),
        # Cast's `s`, kept on the bone by an import (1 where none was).
        rest_scale=np.array([blend.rest_scale(b) for b in bones], dtype=np.float64).reshape(-1, 3),
    )


def placement_of(armature_object, up_axis: str, scale: float):
    """The armature object's transform as the scene's model placement (Cast's Model p, r,
    s), in the file's axes (without the up-axis turn an import puts on it); ``None`` for the
    identity."""
    matrix = armature_object.matrix_world
    if up_axis == "Y":
        matrix = Y_UP_FROM_Z_UP @ matrix
    t, r, s = matrix.decompose()
    placement = (
        np.array(tuple(t), dtype=np.float64) * scale,
        np.array((r.x, r.y, r.z, r.w), dtype=np.float64),
        np.array(tuple(s), dtype=np.float64),
    )
    identity = (np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0]), np.ones(3))
    if all(np.allclose(a, b, atol=1e-6) for a, b in zip(placement, identity)):
        return None
    return placement


# ---------------------------------------------------------------------------------------
# Actions


def bone_channels(action, armature_object) -> dict:
    """Bone name -> property -> {array index: F-curve}, for the armature's bones."""
    channels = {}
    for curve in blend.action_fcurves(action, armature_object):
        match = _PATH.match(curve.data_path)
        if match is None:
            continue
        bone = re.sub(r"\\(.)", r"\1", match.group(1))
        channels.setdefault(bone, {}).setdefault(match.group(2), {})[curve.array_index] = curve
    return channels


def armature_actions(armature_object) -> list:
    """The actions with channels for this armature's bones, or imported onto it (an
    animation without keys has no channels), the active one first."""
    bones = armature_object.data.bones
    found = []
    for action in bpy.data.actions:
        if any(name in bones for name in bone_channels(action, armature_object)):
            found.append(action)
        elif blend.action_settings(action).get("armature") == armature_object.name:
            found.append(action)
    data = armature_object.animation_data
    if data is not None and data.action in found:
        found.remove(data.action)
        found.insert(0, data.action)
    return found


def _sample(curves: dict, width: int, default, frames) -> tuple:
    """The channel's frames (its keyframes' union unless ``frames`` is given) and its
    values there, (K, width); components without a curve hold ``default``."""
    points = {}
    for index, curve in curves.items():
        co = np.empty(len(curve.keyframe_points) * 2, dtype=np.float64)
        curve.keyframe_points.foreach_get("co", co)
        points[index] = co.reshape(-1, 2)
    if frames is None:
        times = [co[:, 0] for co in points.values()]
        frames = np.unique(np.concatenate(times)) if times else np.zeros(0)
    values = np.empty((len(frames), width), dtype=np.float64)
    for index in range(width):
        curve = curves.get(index)
        if curve is None:
            values[:, index] = default[index]
            continue
        co = points[index]
        count = len(co)
        if count == len(frames) and np.array_equal(co[:, 0].astype(np.float32), np.asarray(frames, dtype=np.float32)):
            values[:, index] = co[:, 1]
        else:
            values[:, index] = [curve.evaluate(float(f)) for f in frames]
    return np.asarray(frames, dtype=np.float64), values


def _rotation_keys(pose_bone, channels, frames):
    """Quaternion keys (x y z w) of the bone's rotation channel in its rotation mode."""
    mode = pose_bone.rotation_mode
    if mode == "QUATERNION" or (
        "rotation_quaternion" in channels and mode != "AXIS_ANGLE" and "rotation_euler" not in channels
    ):
        if "rotation_quaternion" not in channels:
            return None
        times, wxyz = _sample(channels["rotation_quaternion"], 4, _DEFAULTS["rotation_quaternion"], frames)
        xyzw = wxyz[:, [1, 2, 3, 0]]
        # Keyframes are written as they are (a file's rotations need not be unit length:
        # x8an's are rounded); values sampled between keys are made unit length.
        return times, (xyzw if frames is None else pose.quat_normalize(xyzw))
    if mode == "AXIS_ANGLE":
        if "rotation_axis_angle" not in channels:
            return None
        times, values = _sample(channels["rotation_axis_angle"], 4, _DEFAULTS["rotation_axis_angle"], frames)
        quats = [Quaternion(v[1:4], v[0]) for v in values]
    else:
        if "rotation_euler" not in channels:
            return None
        times, values = _sample(channels["rotation_euler"], 3, _DEFAULTS["rotation_euler"], frames)
        quats = [Euler(v, mode).to_quaternion() for v in values]
    return times, pose.quat_normalize(np.array([(q.x, q.y, q.z, q.w) for q in quats]).reshape(-1, 4))


def _all_constant(channels: dict) -> bool:
    points = [
        p
        for props in channels.values()
        for curves in props.values()
        for c in curves.values()
        for p in c.keyframe_points
    ]
    return bool(points) and all(p.interpolation == "CONSTANT" for p in points)


def animation_of(context, action, armature_object, format_name: str, settings: ActionSettings, result: Result):
    """The action as an ``animbin.Animation`` of keys in the file's space."""
    stored = blend.action_settings(action)
    fmt = table.info(format_name)
    supported = fmt["animation_kinds"]
    kind = stored.get("kind", "absolute") if settings.kind == "ACTION" else settings.kind
    overrides = dict(stored.get("overrides", {})) if settings.kind == "ACTION" else {}
    # Per-channel kinds and overrides an import kept (Cast's modes per curve).
    per_channel = {
        key: {bone: dict(kinds) for bone, kinds in dict(stored.get(key, {})).items()} if settings.kind == "ACTION" else {}
        for key in ("channel_kinds", "channel_overrides")
    }
    stated = [kind, *overrides.values()] + [k for d in per_channel.values() for kinds in d.values() for k in kinds.values()]
    if any(k not in supported for k in stated):
        result.warnings.append(
            f"action {action.name}: {fmt['label'] or format_name} cannot state {kind} keys; written as absolute"
        )
        kind, overrides = "absolute", {}
        per_channel = {"channel_kinds": {}, "channel_overrides": {}}
    cosmetic = set(stored.get("cosmetic", ()))

    bones = armature_object.data.bones
    rests = blend.rest_poses(armature_object.data)
    parents_of = {b.name: (b.parent.name if b.parent else None) for b in bones}
    channels = bone_channels(action, armature_object)
    skipped = [name for name in channels if name not in bones]
    if skipped:
        result.warnings.append(
            f"action {action.name}: channels for bones the armature lacks skipped: {', '.join(skipped[:10])}"
        )
    # Tracks without keys (kept on the imported action) in their bones' place: a format
    # may number its tracks by position (x8an's slots).
    empty = {n for n in stored.get("empty_tracks", ()) if n in bones and n not in channels}
    names = [b.name for b in bones if b.name in channels or b.name in empty]
    kinds = animbin.pose.channel_kinds(
        types.SimpleNamespace(
            kind=kind,
            tracks=[
                types.SimpleNamespace(
                    bone=name,
                    kind=overrides.get(name),
                    channel_kinds=per_channel["channel_kinds"].get(name, {}),
                    channel_overrides=per_channel["channel_overrides"].get(name, {}),
                )
                for name in names
            ],
        ),
        parents_of,
    )
    start, end = action.frame_range
    frames = np.arange(math.floor(start), math.floor(end) + 1, dtype=np.float64) if settings.keys == "FRAMES" else None

    tracks = []
    for name, bone_kind in zip(names, kinds):
        props = channels.get(name, {})
        tr, rr = rests[name]
        fields = {}
        if "location" in props:
            times, location = _sample(props["location"], 3, _DEFAULTS["location"], frames)
            fields["translation_frames"] = times
            fields["translations"] = (
                pose.basis_to_keys_translation(bone_kind["translation"], tr, rr, location) * settings.scale
            )
        rotation = _rotation_keys(armature_object.pose.bones[name], props, frames)
        if rotation is not None:
            fields["rotation_frames"] = rotation[0]
            fields["rotations"] = pose.basis_to_keys_rotation(bone_kind["rotation"], rr, rotation[1])
        if "scale" in props:
            times, scale = _sample(props["scale"], 3, _DEFAULTS["scale"], frames)
            fields["scale_frames"] = times
            fields["scales"] = pose.basis_to_keys_scale(bone_kind["scale"], blend.rest_scale(bones[name]), scale)
        if not fields and name not in empty:
            continue
        tracks.append(
            animbin.BoneTrack(
                name,
                kind=overrides.get(name),
                channel_kinds=per_channel["channel_kinds"].get(name),
                channel_overrides=per_channel["channel_overrides"].get(name),
                cosmetic=name in cosmetic or bool(bones[name].get(blend.COSMETIC_PROPERTY, False)),
                **fields,
            )
        )

    framerate = float(stored.get("framerate", 0.0)) or blend.scene_framerate(context.scene)
    # A length that ends on the last key, or one frame past it (frames 0 to n - 1 in n).
    ends_on_last = fmt["length_ends_on_last_key"]
    frame_count = float(end) + (0.0 if ends_on_last else 1.0)
    if (
        "frame_count" in stored
        and stored.get("frame_end") == float(end)
        and table.info(stored.get("format"))["length_ends_on_last_key"] == ends_on_last
    ):
        # The range is the imported one: the file's own length (which may fall short of
        # the range Blender needs, as for an animation without keys).
        frame_count = float(stored["frame_count"])
    notes = sorted((float(m.frame), m.name) for m in action.pose_markers)
    properties = [
        animbin.PropertyTrack(p["node"], p["property"], p["format"], base64.b64decode(p["data"]))
        for p in stored.get("properties", ())
    ]
    interpolation = "step" if _all_constant(channels) else "linear"
    if fmt["names_animations"] or fmt["several_animations"]:
        # A format that numbers its several animations (x8an's segments) takes the name to
        # tell whether it is the one the position gives, and reports it lost otherwise.
        name = action.name
    else:
        # A format with one unnamed animation per file is named by its file (SEAnim).
        name = ""
    return animbin.Animation(
        name,
        tracks,
        framerate=framerate,
        frame_count=frame_count,
        looping=bool(action.use_cyclic),
        kind=kind,
        interpolation=interpolation,
        notes=notes,
        properties=properties,
    )


def save_actions(context, armature_object, path: str, format_name: str, which: str, settings: ActionSettings) -> Result:
    """Writes the armature's active action (``which="ACTIVE"``) to ``path``, every action
    that animates it one file each beside ``path`` (``"EACH"``, named as the library names
    files), or all of them in ``path`` (``"ALL"``, for a format that holds several)."""
    result = Result()
    if which == "ACTIVE":
        data = armature_object.animation_data
        if data is None or data.action is None:
            raise ValueError(f"{armature_object.name} has no active action to export")
        actions = [data.action]
    else:
        actions = armature_actions(armature_object)
        if not actions:
            raise ValueError(f"no action animates the bones of {armature_object.name}")
        if which == "ALL":
            # In the order they had in their file (actions made in Blender after them).
            actions.sort(key=lambda a: blend.action_settings(a).get("position", math.inf))
    fmt = table.info(format_name)
    # A format that holds bones is written with the skeleton its actions animate.
    skeleton = skeleton_of(armature_object, settings.scale) if "bones" in fmt["holds"] else None
    animations = [animation_of(context, action, armature_object, format_name, settings, result) for action in actions]
    options = {}
    first = blend.action_settings(actions[0])
    read_without_rate = not table.info(first.get("format"))["stores_framerate"]
    if not fmt["stores_framerate"] and read_without_rate and first.get("framerate"):
        # Keys read from a file that stores no frame rate were read at the import's rate:
        # written back at it, they keep their times in the file's own units.
        options["framerate"] = float(first["framerate"])
    if fmt["chooses_precision"]:
        precision = settings.precision
        if precision == "ACTION":
            precision = first.get("precision") or "single"
        options["precision"] = precision
        if precision == "single":
            # Rounded here, as asked, rather than reported as a loss by the writer.
            for animation in animations:
                for track in animation.tracks:
                    track.translations = np.asarray(track.translations, dtype=np.float32)
                    track.rotations = np.asarray(track.rotations, dtype=np.float32)
                    track.scales = np.asarray(track.scales, dtype=np.float32)
    if which == "EACH":
        folder = os.path.dirname(path)
        extension = table.extension(format_name)
        for action, animation in zip(actions, animations):
            target = os.path.join(folder, animbin.file_name(action.name) + extension)
            _write(animbin.Scene(skeleton, animations=[animation]), target, format_name, result, **options)
    else:
        _write(animbin.Scene(skeleton, animations=animations), path, format_name, result, **options)
    return result


# ---------------------------------------------------------------------------------------
# Models


def _armature_for(obj):
    for modifier in obj.modifiers:
        if modifier.type == "ARMATURE" and modifier.object is not None:
            return modifier.object
    if obj.parent is not None and obj.parent.type == "ARMATURE":
        return obj.parent
    return None


def _skin_blend(obj) -> str:
    """How the mesh's Armature modifier blends: "preserve volume" is dual-quaternion
    skinning."""
    for modifier in obj.modifiers:
        if modifier.type == "ARMATURE" and modifier.object is not None:
            return "dual_quaternion" if modifier.use_deform_preserve_volume else "linear"
    return "linear"


def model_meshes(context) -> list:
    """The meshes to export: the selected ones, else those of the selected armature."""
    selected = [o for o in context.selected_objects if o.type == "MESH"]
    if selected:
        return selected
    armatures = [o for o in context.selected_objects if o.type == "ARMATURE"]
    if context.active_object is not None and context.active_object.type == "ARMATURE":
        armatures.insert(0, context.active_object)
    for armature in armatures:
        children = [o for o in armature.children if o.type == "MESH"]
        if children:
            return children
    return []


def model_extras(context) -> tuple:
    """The hair Curves objects and instance Empties (ones an import made, which name their
    file) written with the model, ``(curves, empties)``: the selected ones; with no mesh or
    hair selected, the hair of the armature whose meshes are written (an import parents
    hair to it)."""
    selected = context.selected_objects
    curves = [o for o in selected if o.type == "CURVES"]
    empties = [o for o in selected if instances.is_instance(o)]
    if not curves and not any(o.type == "MESH" for o in selected):
        armatures = [o for o in selected if o.type == "ARMATURE"]
        if context.active_object is not None and context.active_object.type == "ARMATURE":
            armatures.insert(0, context.active_object)
        # The armature model_meshes takes the meshes of, else the first with hair.
        chosen = next((a for a in armatures if any(o.type == "MESH" for o in a.children)), None)
        chosen = chosen or next((a for a in armatures if any(o.type == "CURVES" for o in a.children)), None)
        curves = [o for o in chosen.children if o.type == "CURVES"] if chosen is not None else []
    return curves, empties


def _image_path(image, folder: str) -> str:
    """How a material names its texture: relative to the written file's folder when the
    image is inside it, else by its file name alone (games look for textures by name;
    copy them beside the file)."""
    path = bpy.path.abspath(image.filepath, library=image.library) if image.filepath else ""
    if not path:
        return image.name if os.path.splitext(image.name)[1] else image.name + ".png"
    path = os.path.normpath(path)
    try:
        relative = os.path.relpath(path, folder)
    except ValueError:  # another drive (Windows)
        relative = ".."
    return os.path.basename(path) if relative.startswith("..") else relative.replace(os.sep, "/")


def _linked_image(socket):
    """The image feeding ``socket`` directly or through a Normal Map node."""
    for link in socket.links:
        node = link.from_node
        if node.type == "TEX_IMAGE" and node.image is not None:
            return node.image
        if node.type == "NORMAL_MAP":
            found = _linked_image(node.inputs["Color"])
            if found is not None:
                return found
    return None


# The first bytes of a PNG file, the one image format an ``animbin.Texture`` carries.
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_bytes(image):
    """The image's PNG file: its packed data, else the file it was loaded from; None when
    it is not a PNG."""
    data = None
    if image.packed_file is not None:
        data = bytes(image.packed_file.data)
    elif image.filepath:
        path = bpy.path.abspath(image.filepath, library=image.library)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
    return data if data is not None and data.startswith(_PNG_SIGNATURE) else None


class Materials:
    """The materials (and embedded textures) a model export writes, each once, in the
    order the meshes first use them."""

    def __init__(self, folder: str, format_name: str, result: Result):
        self.folder = folder
        self.format = table.info(format_name)
        self.result = result
        self.by_name = {}
        self.textures = []
        self.texture_of = {}

    def index(self, material):
        """The index of a Blender material (None: no material)."""
        if material is None:
            return None
        if material.name not in self.by_name:
            self.by_name[material.name] = (len(self.by_name), self.material_of(material))
        return self.by_name[material.name][0]

    def ordered(self) -> list:
        return [m for _i, m in sorted(self.by_name.values(), key=lambda pair: pair[0])]

    def embedded(self, image):
        """The index of ``image`` among the embedded textures, added once; None when it is
        no PNG (reported)."""
        if image.name not in self.texture_of:
            png = _png_bytes(image)
            if png is None:
                self.result.warnings.append(f"image {image.name}: not embedded (no PNG file or packed PNG data)")
            else:
                self.textures.append(animbin.Texture(image.name, png))
            self.texture_of[image.name] = None if png is None else len(self.textures) - 1
        return self.texture_of[image.name]

    def material_of(self, material):
        """A Blender material as an ``animbin.Material``: the images that feed the
        Principled BSDF's Base Color, Normal and Specular Tint (by file name; the Base
        Color's embedded, for a format that holds textures), and its base colour (for a
        format that holds materials)."""
        textures = {}
        texture = None
        base_color = None
        if blend.node_tree(material) is not None:
            bsdf = next((n for n in material.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
            if bsdf is not None:
                for slot, socket in (("diffuse", "Base Color"), ("normal", "Normal"), ("specular", "Specular Tint")):
                    if socket in bsdf.inputs:
                        image = _linked_image(bsdf.inputs[socket])
                        if image is None:
                            continue
                        if slot == "diffuse" and "textures" in self.format["holds"]:
                            texture = self.embedded(image)
                            if texture is not None:
                                continue
                        textures[slot] = _image_path(image, self.folder)
                # A format that holds materials holds their colour (the table lists none for
                # SEModel, whose materials are texture names only). The socket's own value is
                # the colour only while no texture feeds it: Blender ignores a linked
                # socket's value.
                if "materials" in self.format["holds"] and not bsdf.inputs["Base Color"].links:
                    base_color = tuple(bsdf.inputs["Base Color"].default_value)
        return animbin.Material(material.name, textures, texture=texture, base_color=base_color)


def _mesh_data(context, obj, settings: ModelSettings):
    """The object's mesh (modifiers applied when asked, the Armature modifier never, so
    the mesh stays in its rest pose) and a function that gives it back."""
    if not settings.apply_modifiers:
        return obj.data, lambda: None
    switched = [m for m in obj.modifiers if m.type == "ARMATURE" and m.show_viewport]
    for modifier in switched:
        modifier.show_viewport = False
    depsgraph = context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()

    def release():
        evaluated.to_mesh_clear()
        for m in switched:
            m.show_viewport = True

    return mesh, release


def meshes_of(
    context,
    obj,
    space: Matrix,
    bone_index: dict,
    materials: Materials,
    settings: ModelSettings,
    result: Result,
) -> list:
    """One ``animbin.Mesh`` per material the object's faces use (one for all when every
    face uses the first slot: further slots are then the materials of further UV layers,
    as SEModel has them). Vertices are split where their corners differ in normal, UV or
    colour, keeping the original vertex order."""
    mesh, release = _mesh_data(context, obj, settings)
    try:
        mesh.calc_loop_triangles()
        triangles = len(mesh.loop_triangles)
        if triangles == 0:
            result.warnings.append(f"{obj.name}: no faces, not written")
            return []
        tri_corners = np.empty(triangles * 3, dtype=np.int64)
        mesh.loop_triangles.foreach_get("loops", tri_corners)
        tri_corners = tri_corners.reshape(-1, 3)
        tri_material = np.empty(triangles, dtype=np.int64)
        mesh.loop_triangles.foreach_get("material_index", tri_material)

        corners = len(mesh.loops)
        corner_vertex = np.empty(corners, dtype=np.int64)
        mesh.loops.foreach_get("vertex_index", corner_vertex)
        co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
        mesh.vertices.foreach_get("co", co)
        co = co.reshape(-1, 3)
        matrix = np.array(space, dtype=np.float64)
        positions = (co @ matrix[:3, :3].T + matrix[:3, 3]) * settings.scale
        corner_normals = np.empty(corners * 3, dtype=np.float64)
        mesh.corner_normals.foreach_get("vector", corner_normals)
        corner_normals = corner_normals.reshape(-1, 3) @ np.linalg.inv(matrix[:3, :3])
        lengths = np.linalg.norm(corner_normals, axis=1, keepdims=True)
        corner_normals = np.where(lengths > 0.0, corner_normals / np.where(lengths > 0.0, lengths, 1.0), 0.0)

        uv_layers = []
        for layer in mesh.uv_layers:
            uv = np.empty(corners * 2, dtype=np.float64)
            layer.data.foreach_get("uv", uv)
            uv = uv.reshape(-1, 2)
            uv[:, 1] = 1.0 - uv[:, 1]
            uv_layers.append(uv)
        # Every colour attribute is a colour layer, the render colour first (the one formats
        # with a single layer keep), then the others in Blender's order.
        colors = []
        attributes = mesh.color_attributes
        if len(attributes):
            first = attributes.render_color_index if 0 <= attributes.render_color_index < len(attributes) else 0
            for index in [first, *(i for i in range(len(attributes)) if i != first)]:
                attribute = attributes[index]
                values = np.empty(len(attribute.data) * 4, dtype=np.float64)
                attribute.data.foreach_get("color_srgb", values)
                values = np.clip(np.round(values.reshape(-1, 4) * 255.0), 0, 255).astype(np.uint8)
                color = (
                    values[corner_vertex]
                    if attribute.domain == "POINT"
                    else values if attribute.domain == "CORNER" else None
                )
                if color is None:
                    result.warnings.append(
                        f"{obj.name}: colour attribute {attribute.name} on {attribute.domain} not written"
                    )
                else:
                    colors.append(color)

        skin = _skin(obj, mesh, bone_index) if bone_index else None

        slots = [s.material for s in obj.material_slots]
        layered = len(slots) > 1 and not tri_material.any()
        groups = [0] if layered or not slots else sorted(set(tri_material.tolist()))
        made = []
        for group in groups:
            picked = tri_corners if layered or not slots else tri_corners[tri_material == group]
            used = np.unique(picked)
            key = [corner_vertex[used][:, None].astype(np.float64), np.round(corner_normals[used] * 1e5)]
            key += [uv[used] for uv in uv_layers]
            key += [color[used].astype(np.float64) for color in colors]
            first, inverse = _unique_rows(np.hstack(key))
            corner_to_vertex = np.full(corners, -1, dtype=np.int64)
            corner_to_vertex[used] = inverse
            chosen = used[first]
            vertices = corner_vertex[chosen]
            if layered:
                mesh_materials = [materials.index(s) for s in slots]
            elif slots:
                mesh_materials = [materials.index(slots[group] if group < len(slots) else None)]
            else:
                mesh_materials = []
            # A format that stores no mesh names gets none, so that its export does not
            # report the names lost.
            name = (
                ""
                if not materials.format["names_meshes"]
                else obj.name if len(groups) == 1 else f"{obj.name}_{group}"
            )
            made.append(
                animbin.Mesh(
                    positions[vertices],
                    corner_to_vertex[picked],
                    name=name,
                    normals=corner_normals[chosen],
                    uv_layers=[uv[chosen] for uv in uv_layers],
                    color_layers=[color[chosen] for color in colors],
                    bone_indices=skin[0][vertices] if skin else None,
                    bone_weights=skin[1][vertices] if skin else None,
                    skin_blend=_skin_blend(obj) if skin else "linear",
                    materials=mesh_materials,
                    morph_targets=(
                        shapes.morph_targets(obj, vertices, matrix, settings.scale)
                        if len(mesh.vertices) == len(obj.data.vertices)
                        else []
                    ),
                )
            )
        return made
    finally:
        release()


def _unique_rows(rows: np.ndarray) -> tuple:
    """The first row of each distinct row (ordered as ``np.unique(rows, axis=0)`` orders
    them: by the first column, the vertex, first) and each row's distinct-row index. Where
    every corner of a vertex agrees (a mesh imported from a per-vertex format), the rows
    are grouped by vertex without sorting them whole."""
    order = np.argsort(rows[:, 0], kind="stable")
    ordered = rows[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:, 0] != ordered[:-1, 0]])
    group = np.cumsum(np.r_[False, ordered[1:, 0] != ordered[:-1, 0]])
    if np.array_equal(ordered, ordered[starts][group]):
        inverse = np.empty(len(rows), dtype=np.int64)
        inverse[order] = group
        return order[starts], inverse
    _distinct, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    return first, inverse.ravel()


def _skin(obj, mesh, bone_index: dict):
    """(bone indices, weights), (V, K) each, heaviest first, from the vertex groups named
    after bones (through BMesh's deform layer), or None when no vertex has a weight."""
    lut = {g.index: bone_index.get(g.name, -1) for g in obj.vertex_groups}
    bm = bmesh.new()
    try:
        bm.from_mesh(mesh)
        layer = bm.verts.layers.deform.active
        if layer is None:
            return None
        rows = [vert[layer].items() for vert in bm.verts]
    finally:
        bm.free()
    counts = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    if not counts.any():
        return None
    pairs = np.fromiter(chain.from_iterable(chain.from_iterable(rows)), dtype=np.float64, count=2 * int(counts.sum()))
    pairs = pairs.reshape(-1, 2)
    vertex = np.repeat(np.arange(len(rows)), counts)
    bone = np.array([lut.get(int(g), -1) for g in range(int(pairs[:, 0].max()) + 1)], dtype=np.int64)[
        pairs[:, 0].astype(np.int64)
    ]
    weight = pairs[:, 1]
    keep = (bone >= 0) & (weight > 0.0)
    vertex, bone, weight = vertex[keep], bone[keep], weight[keep]
    if not len(vertex):
        return None
    order = np.lexsort((-weight, vertex))
    vertex, bone, weight = vertex[order], bone[order], weight[order]
    starts = np.searchsorted(vertex, vertex, side="left")
    rank = np.arange(len(vertex)) - starts
    width = int(rank.max()) + 1
    bones = np.zeros((len(rows), width), dtype=np.uint32)
    weights = np.zeros((len(rows), width), dtype=np.float32)
    bones[vertex, rank] = bone
    weights[vertex, rank] = weight
    return bones, weights


def save_model(context, path: str, format_name: str, settings: ModelSettings) -> Result:
    """Writes the selected meshes and their armature (its bones in rest pose), hair and
    instances to ``path``; a format that holds no hair or instances reports them lost."""
    result = Result()
    objects = [o for o in model_meshes(context) if o.type == "MESH"]
    curves, empties = model_extras(context)
    # A game format holds a rig: the graph's other objects (a glTF's empties, cameras and
    # lights, as an import made them) are named, never dropped silently.
    left = [
        o
        for o in context.selected_objects
        if o.type in ("CAMERA", "LIGHT") or (o.type == "EMPTY" and not instances.is_instance(o))
    ]
    unwritten = ""
    if left:
        names = ", ".join(sorted(o.name for o in left)[:10]) + (" ..." if len(left) > 10 else "")
        unwritten = f"{len(left)} cameras, lights and empties ({names}): {table.info(format_name)['label']} holds bones and meshes"
        result.warnings.append(f"not written: {unwritten}")
    if not objects and not curves and not empties:
        raise ValueError(
            "select the meshes (or their armature), hair or instances to export" + (f"; not written: {unwritten}" if unwritten else "")
        )
    armature = next((o for o in context.selected_objects if o.type == "ARMATURE"), None)
    if armature is None:
        armature = next((a for a in map(_armature_for, objects) if a is not None), None)
    skeleton = skeleton_of(armature, settings.scale) if armature is not None else None
    bone_index = {name: i for i, name in enumerate(skeleton.names)} if skeleton is not None else {}
    if skeleton is not None:
        skeleton.ik_handles, skeleton.constraints = rig.rig_of(armature, bone_index, result)
    materials = Materials(os.path.dirname(os.path.abspath(path)), format_name, result)
    meshes = []
    for obj in objects:
        if armature is not None:
            space = armature.matrix_world.inverted_safe() @ obj.matrix_world
        else:
            space = obj.matrix_world
            if settings.up_axis == "Y":
                space = Y_UP_FROM_Z_UP @ space
        meshes += meshes_of(
            context,
            obj,
            space,
            bone_index if _armature_for(obj) is armature else {},
            materials,
            settings,
            result,
        )
    # Hair in the meshes' space (it is placed with the model); instances, which Cast keeps
    # beside the models, in world space in the file's axes.
    world = Y_UP_FROM_Z_UP if settings.up_axis == "Y" else Matrix.Identity(4)
    model_space = armature.matrix_world.inverted_safe() if armature is not None else world
    extras = {}
    if curves:
        extras["hairs"] = [
            hair.hair_of(o, np.array(model_space @ o.matrix_world), settings.scale, materials.index, result)
            for o in curves
        ]
    if empties:
        extras["instances"] = [instances.instance_of(o, world @ o.matrix_world, settings.scale) for o in empties]
    placement = placement_of(armature, settings.up_axis, settings.scale) if armature is not None else None
    scene = animbin.Scene(
        skeleton, meshes, materials.ordered(), textures=materials.textures, placement=placement, **extras
    )
    if armature is not None:
        # The model's name as imported (empty when the file had none), else the armature's.
        scene.name = str(armature.get(rig.MODEL_NAME_PROPERTY, armature.name))
    if "animations" in table.info(format_name)["holds"]:
        # The shape keys' weight animations go with the model that holds the keys.
        scene.animations = shapes.weight_animations(objects, blend.scene_framerate(context.scene))
    _write(scene, path, format_name, result)
    return result
