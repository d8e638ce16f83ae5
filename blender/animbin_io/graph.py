"""Import of a scene graph (a glTF's): what a file of plain nodes, placed meshes, cameras and
lights becomes in Blender, beside the armature of its bones.

- Plain nodes (``Skeleton.plain``) are objects: an Empty, or the Camera, Light or Mesh
  object when the node places exactly that one thing (as Blender's own glTF importer makes
  them); a node that places several things is an Empty with each as a child at its origin.
- The bones are one armature. It stands where its skin bound it (the transform from each
  joint's bind pose to its rest pose, the same for every joint of a well-made skin), and it
  is the object of the plain node above the root bones when that node stands there (the
  ``Armature`` object of a file Blender wrote).
- A mesh a skin binds is a child of the armature with an Armature modifier; a mesh a node
  places without a skin is that node's object (or its child); a mesh nothing places is in
  model space, at the root.
- A plain node's keys become an action of its object, named after the animation and the
  object; the bones' keys are the armature's actions (``importer.build_actions``).
- An object whose parent is a bone hangs from that bone (Blender's bone parenting, with the
  parent inverse that cancels the bone's length, so the node's transform is kept as the file
  states it).

Root objects take the file's up-axis turn and model placement in their own transform.
"""

from __future__ import annotations

import copy
import dataclasses
import math

import numpy as np

import bpy
from mathutils import Matrix

import animbin

from . import blend, pose

# What a camera or light was in the file, kept on its object's data (the glTF values Blender
# has no exact place for: an infinite far plane, candela), so that an export can write it back.
CAMERA_PROPERTY = "animbin_camera"
LIGHT_PROPERTY = "animbin_light"
# The node a graph object stands for (its index in the file's node list), for tests and export.
NODE_PROPERTY = "animbin_node"

# Watts per lumen of the "standard" photometric conversion (683 lm/W) that glTF's light
# units and Blender's watts are converted with.
LUMENS_PER_WATT = 683.0


def has_graph(scene) -> bool:
    """Whether the scene has more than a rig: plain nodes, placed meshes, skins, cameras or
    lights."""
    skeleton = scene.skeleton
    plain = skeleton is not None and bool(np.asarray(getattr(skeleton, "plain", ()), dtype=bool).any())
    return plain or any(getattr(scene, name, None) for name in ("mesh_instances", "cameras", "lights"))


def _decompose(matrices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translations (N, 3), rotations x y z w (N, 4) and scales (N, 3) of (N, 4, 4) matrices."""
    t, r, s = [], [], []
    for m in matrices:
        translation, rotation, scale = Matrix(m.tolist()).decompose()
        t.append(tuple(translation))
        r.append((rotation.x, rotation.y, rotation.z, rotation.w))
        s.append(tuple(scale))
    return np.array(t).reshape(-1, 3), np.array(r).reshape(-1, 4), np.array(s).reshape(-1, 3)


def _parents_first(parents: list) -> list:
    """Node indices, each after its parent (``parents`` has no cycles: ``_checked_parents``)."""
    children = [[] for _ in parents]
    roots = []
    for i, p in enumerate(parents):
        (roots if p is None else children[p]).append(i)
    order, stack = [], list(reversed(roots))
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(children[i]))
    return order


class Graph:
    """The nodes of a scene as Blender sees them: which are bones, each node's rest matrix in
    the model, and the nearest bone and plain ancestor of each."""

    def __init__(self, scene, parents: list, scale: float):
        skeleton = scene.skeleton
        self.names = list(skeleton.names)
        self.parents = parents
        self.plain = np.asarray(skeleton.plain, dtype=bool)
        translations = np.asarray(skeleton.translations, dtype=np.float64) * scale
        self.local = animbin.transform_matrices(translations, pose.quat_normalize(skeleton.rotations), skeleton.scales)
        self.order = _parents_first(parents)
        self.world = self.local.copy()
        for i in self.order:
            if parents[i] is not None:
                self.world[i] = self.world[parents[i]] @ self.local[i]
        bind = np.array(skeleton.bind_matrices, dtype=np.float64)
        bind[:, :3, 3] *= scale
        self.bind = bind
        self.scale = scale

    def bones(self) -> list:
        return [i for i in range(len(self.names)) if not self.plain[i]]

    def nearest(self, i: int, plain: bool):
        """The nearest proper ancestor of node ``i`` that is plain (or a bone), or None."""
        p = self.parents[i]
        while p is not None and bool(self.plain[p]) != plain:
            p = self.parents[p]
        return p

    def bound_by(self, mesh, skins) -> np.ndarray:
        """Where a skinned mesh's vertices are in the model: the transform from the space its
        skin bound them in to the model, through the first joint that weighs on them (its
        rest matrix times its inverse bind matrix; a well-made skin gives the same through
        every joint)."""
        weights = np.asarray(mesh.bone_weights)
        indices = np.asarray(mesh.bone_indices)
        used = indices[weights > 0.0]
        if not len(used):
            return np.eye(4)
        joint = int(used[0])
        skin = skins[mesh.skin] if getattr(mesh, "skin", None) is not None and mesh.skin < len(skins) else None
        if skin is not None and skin.get("inverse_bind_matrices") is not None and joint in skin["joints"]:
            inverse_bind = np.array(skin["inverse_bind_matrices"][skin["joints"].index(joint)], dtype=np.float64)
            inverse_bind[:3, 3] *= self.scale
        elif joint < len(self.bind):
            inverse_bind = np.linalg.inv(self.bind[joint])
        else:
            return np.eye(4)
        return self.world[joint] @ inverse_bind


def build(context, scene, graph: Graph, model_name: str, materials, root_matrix: Matrix, settings, result, importer):
    """Every node, mesh, camera and light of ``scene`` as Blender objects; returns the
    armature object (or None) and the Blender name of each node's bone (None for a plain
    node). ``root_matrix`` is the up-axis turn and model placement root objects take;
    ``importer`` is the importer module (its ``build_armature``, ``build_mesh``)."""
    skeleton = scene.skeleton
    n = len(graph.names)
    objects: list = [None] * n
    bone_names: list = [None] * n

    # The armature: the bones at rest, in the space of the plain node above the root bones
    # (the armature object stands for that node), so that the root bones' keys, which are
    # local to it, are the armature's pose as they are.
    bones = graph.bones()
    armature_object = None
    holder = None
    armature_world = np.eye(4)
    if bones:
        position = {node: k for k, node in enumerate(bones)}
        parents = []
        for node in bones:
            p = graph.nearest(node, plain=False)
            parents.append(position[p] if p is not None else -1)
        above = {graph.nearest(node, plain=True) for node in bones if graph.nearest(node, plain=False) is None}
        holder = next(iter(above)) if len(above) == 1 else None
        if holder is not None:
            armature_world = graph.world[holder]
        rest = np.linalg.inv(armature_world) @ graph.world[bones]
        t, r, sc = _decompose(rest)
        pick = np.array(bones)
        sub = type(skeleton)(
            [graph.names[i] for i in bones],
            np.array(parents, dtype=np.int32),
            global_translations=t,
            global_rotations=r,
            global_scales=sc,
            cosmetic=np.asarray(skeleton.cosmetic)[pick],
            scale_compensate=np.asarray(skeleton.scale_compensate)[pick],
            rest_scale=np.asarray(skeleton.rest_scale)[pick],
        )
        name = graph.names[holder] if holder is not None else model_name
        # build_armature scales lengths itself: the rest matrices are already scaled.
        armature_object, names = importer.build_armature(context, name, sub, dataclasses.replace(settings, scale=1.0))
        for node, blender_name in zip(bones, names):
            bone_names[node] = blender_name
        if holder is not None:
            objects[holder] = armature_object
            armature_object[NODE_PROPERTY] = holder

    # What each node places.
    meshes_at: dict = {}
    for instance in getattr(scene, "mesh_instances", ()):
        if 0 <= instance["node"] < n:
            meshes_at.setdefault(instance["node"], []).extend(m for m in instance["meshes"] if 0 <= m < len(scene.meshes))
    cameras_at: dict = {}
    for camera in getattr(scene, "cameras", ()):
        if 0 <= camera["node"] < n:
            cameras_at.setdefault(camera["node"], []).append(camera)
    lights_at: dict = {}
    for light in getattr(scene, "lights", ()):
        if 0 <= light["node"] < n:
            lights_at.setdefault(light["node"], []).append(light)

    def skinned(index: int) -> bool:
        mesh = scene.meshes[index]
        return armature_object is not None and mesh.bone_indices is not None and mesh.bone_weights is not None

    made_meshes: dict = {}

    def mesh_object(index: int, name: str):
        mesh = scene.meshes[index]
        if index in made_meshes:
            # Another node places the same mesh: a linked duplicate.
            obj = made_meshes[index].copy()
            obj.name = name
            context.collection.objects.link(obj)
            return obj
        obj = importer.build_mesh(context, name, mesh, materials, armature_object if skinned(index) else None, bone_names, settings, result)
        from . import shapes

        shapes.add_shape_keys(obj, mesh, settings.scale)
        for target, key in zip(mesh.morph_targets, getattr(getattr(obj.data, "shape_keys", None), "key_blocks", [])[1:]):
            key.value = float(getattr(target, "default_weight", 0.0))
        made_meshes[index] = obj
        result.meshes.append(obj)
        return obj

    def make_camera(camera, name: str):
        data = bpy.data.cameras.new(camera.get("name") or name)
        data[CAMERA_PROPERTY] = {k: v for k, v in camera.items() if v is not None and k != "node"}
        if camera["type"] == "orthographic":
            data.type = "ORTHO"
            data.ortho_scale = 2.0 * max(float(camera["xmag"]), float(camera["ymag"])) * settings.scale
            data.clip_end = float(camera["zfar"]) * settings.scale
        else:
            data.type = "PERSP"
            data.sensor_fit = "VERTICAL"
            data.angle_y = float(camera["yfov"])
            data.clip_end = float(camera["zfar"]) * settings.scale if camera.get("zfar") else 1e6
        data.clip_start = float(camera["znear"]) * settings.scale
        obj = bpy.data.objects.new(name, data)
        context.collection.objects.link(obj)
        result.cameras.append(obj)
        return obj

    def make_light(light, name: str):
        kinds = {"directional": "SUN", "point": "POINT", "spot": "SPOT"}
        data = bpy.data.lights.new(light.get("name") or name, kinds[light["type"]])
        data[LIGHT_PROPERTY] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in light.items() if v is not None and k != "node"}
        data.color = tuple(float(c) for c in light["color"])
        intensity = float(light["intensity"])
        if light["type"] == "directional":
            data.energy = intensity  # a sun's strength is its irradiance: lux taken as W/m^2
        else:
            data.energy = intensity * 4.0 * math.pi / LUMENS_PER_WATT
        if light["type"] == "spot":
            outer = float(light["outer_cone_angle"])
            data.spot_size = 2.0 * outer
            data.spot_blend = 1.0 - float(light["inner_cone_angle"]) / outer if outer > 0.0 else 0.0
        if light.get("range") is not None and hasattr(data, "use_custom_distance"):
            data.use_custom_distance = True
            data.cutoff_distance = float(light["range"]) * settings.scale
        obj = bpy.data.objects.new(name, data)
        context.collection.objects.link(obj)
        result.lights.append(obj)
        return obj

    # Plain nodes, parents first.
    children_of: dict = {}
    for node in graph.order:
        if not graph.plain[node] or objects[node] is not None:
            continue
        name = graph.names[node] or f"node{node}"
        own_meshes = [m for m in meshes_at.get(node, []) if not skinned(m)]
        cams, lights = cameras_at.get(node, []), lights_at.get(node, [])
        things = len(own_meshes) + len(cams) + len(lights)
        if things == 1 and own_meshes:
            obj = mesh_object(own_meshes[0], name)
            own_meshes = []
        elif things == 1 and cams:
            obj = make_camera(cams[0], name)
            cams = []
        elif things == 1 and lights:
            obj = make_light(lights[0], name)
            lights = []
        else:
            obj = bpy.data.objects.new(name, None)
            obj.empty_display_size = 0.1 * settings.scale
            context.collection.objects.link(obj)
            result.empties.append(obj)
        obj[NODE_PROPERTY] = node
        objects[node] = obj
        children_of[node] = [mesh_object(m, f"{name}_mesh{k}") for k, m in enumerate(own_meshes)]
        children_of[node] += [make_camera(c, f"{name}_camera{k}") for k, c in enumerate(cams)]
        children_of[node] += [make_light(light, f"{name}_light{k}") for k, light in enumerate(lights)]

    # Unskinned meshes, cameras and lights placed by bones hang from them.
    for node in bones:
        own = [mesh_object(m, f"{graph.names[node]}_mesh{k}") for k, m in enumerate(meshes_at.get(node, [])) if not skinned(m)]
        own += [make_camera(c, f"{graph.names[node]}_camera{k}") for k, c in enumerate(cameras_at.get(node, []))]
        own += [make_light(light, f"{graph.names[node]}_light{k}") for k, light in enumerate(lights_at.get(node, []))]
        for obj in own:
            _hang_from_bone(obj, armature_object, bone_names[node], Matrix.Identity(4))

    # Each plain node's object under its parent, with the node's own transform.
    for node in graph.order:
        obj = objects[node]
        if obj is None or not graph.plain[node]:
            continue
        local = Matrix(graph.local[node].tolist())
        parent = graph.parents[node]
        if parent is None:
            obj.matrix_basis = root_matrix @ local
        elif graph.plain[parent]:
            obj.parent = objects[parent]
            obj.matrix_basis = local
        else:
            _hang_from_bone(obj, armature_object, bone_names[parent], local)
        for child in children_of.get(node, []):
            child.parent = obj
            child.matrix_basis = Matrix.Identity(4)

    if armature_object is not None and holder is None:
        armature_object.matrix_basis = root_matrix

    # Skinned meshes follow the armature; meshes nothing places stand in model space.
    placed = {m for ms in meshes_at.values() for m in ms}
    for index, mesh in enumerate(scene.meshes):
        if skinned(index):
            if index in made_meshes:
                continue
            holders = [graph.names[node] for node, ms in meshes_at.items() if index in ms]
            obj = mesh_object(index, (holders[0] if holders else "") or mesh.name or f"{model_name}_{index}")
            obj.parent = armature_object
            # Where the skin bound the vertices, in the armature's space.
            bound = graph.bound_by(mesh, scene.skins)
            obj.matrix_basis = Matrix((np.linalg.inv(armature_world) @ bound).tolist())
        elif index not in placed:
            obj = mesh_object(index, mesh.name or f"{model_name}_{index}")
            obj.matrix_basis = root_matrix
    return armature_object, bone_names, objects


def _hang_from_bone(obj, armature_object, bone_name: str, local: Matrix) -> None:
    """``obj`` parented to the bone, at ``local`` in the bone's space (Blender places a bone's
    children at its tail: the parent inverse moves them back to its head)."""
    obj.parent = armature_object
    obj.parent_type = "BONE"
    obj.parent_bone = bone_name
    length = armature_object.data.bones[bone_name].length
    obj.matrix_parent_inverse = Matrix.Translation((0.0, -length, 0.0))
    obj.matrix_basis = local


def split_tracks(animations, graph: Graph) -> tuple[list, dict]:
    """The animations with only their bones' tracks (for the armature's actions), and the
    plain nodes' tracks by node index and animation position."""
    index = {name: i for i, name in enumerate(graph.names)}
    bone_animations, node_tracks = [], {}
    for position, animation in enumerate(animations):
        kept = []
        for track in animation.tracks:
            node = index.get(track.bone)
            if node is not None and graph.plain[node]:
                node_tracks.setdefault(node, []).append((position, track))
            else:
                kept.append(track)
        copied = copy.copy(animation)
        copied.tracks = kept
        bone_animations.append(copied)
    return bone_animations, node_tracks


def build_object_actions(
    animations, node_tracks: dict, objects: list, graph: Graph, root_turn: Matrix, stem: str, settings, result
) -> None:
    """An action for each plain node that an animation moves (``node_tracks``, from
    ``split_tracks``), on the node's object: its keys are the node's local transform (a
    root's turned into Blender's axes)."""
    for node, tracks in node_tracks.items():
        obj = objects[node]
        if obj is None:
            continue
        is_root = graph.parents[node] is None
        turn_t, turn_q = _turn_of(root_turn) if is_root else (None, None)
        first_writer = None
        for position, track in tracks:
            animation = animations[position]
            action = bpy.data.actions.new(f"{animation.name or stem}_{obj.name}")
            action.use_fake_user = True
            action[blend.ACTION_PROPERTY] = {"node": graph.names[node], "animation": animation.name or stem, "position": position}
            writer = blend.ChannelWriter(action, obj)
            interpolation = blend.INTERPOLATION_CONSTANT if animation.interpolation == "step" else blend.INTERPOLATION_LINEAR

            # A channel's own way of joining its keys (a glTF sampler of its own), with a
            # cubic spline's tangents turned as its keys are.
            def joined(channel, turn=lambda t: t):
                how, tangents = pose.channel_curve(
                    track, channel, interpolation, blend.INTERPOLATION_LINEAR, blend.INTERPOLATION_CONSTANT
                )
                return how, None if tangents is None else (*(turn(t) for t in tangents), float(animation.framerate))

            if len(track.translation_frames):
                t = np.asarray(track.translations, dtype=np.float64) * settings.scale
                if turn_q is not None:
                    t = pose.quat_rotate(turn_q, t) + turn_t
                how, tangents = joined(
                    "translation", lambda v: v * settings.scale if turn_q is None else pose.quat_rotate(turn_q, v * settings.scale)
                )
                writer.curves(None, "location", track.translation_frames, t, how, tangents)
            if len(track.rotation_frames):
                q = np.asarray(track.rotations, dtype=np.float64)
                if turn_q is not None:
                    q = pose.quat_multiply(turn_q, q)
                obj.rotation_mode = "QUATERNION"
                how, tangents = joined(
                    "rotation", lambda v: (v if turn_q is None else pose.quat_multiply(turn_q, v))[:, [3, 0, 1, 2]]
                )
                writer.curves(None, "rotation_quaternion", track.rotation_frames, q[:, [3, 0, 1, 2]], how, tangents)
            if len(track.scale_frames):
                how, tangents = joined("scale")
                writer.curves(None, "scale", track.scale_frames, np.asarray(track.scales, dtype=np.float64), how, tangents)
            result.actions.append(action)
            if first_writer is None:
                first_writer = writer
        if first_writer is not None:
            first_writer.assign(obj)


def _turn_of(matrix: Matrix):
    """The translation (3,) and rotation (x y z w) of a rigid ``matrix``."""
    t, r, _s = matrix.decompose()
    return np.array(t, dtype=np.float64), np.array((r.x, r.y, r.z, r.w), dtype=np.float64)
