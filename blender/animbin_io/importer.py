"""Import: a file read by animbin (``animbin.open(path).scene()``) as Blender data.

What a file becomes:

- a skeleton: an armature object whose bones stand at the skeleton's bind matrices, with
  their parents; each bone points along its own Y axis (Blender's convention), towards no
  particular child, so its rest rotation is the file's;
- meshes: one object each, parented to the armature with an Armature modifier, with
  vertex groups from the skin weights, custom split normals, UV layers (V flipped: the
  scene's UVs have their origin at the top left, Blender's at the bottom left) and colour
  attributes;
- materials: a Principled BSDF with the textures the file names, found by the library's
  texture search (``animbin.find_texture``), or the file's embedded images;
- hair: one hair Curves object each, a curve per strand, placed with the model as the
  meshes are (parented to the armature, without skin) (``hair``);
- instances of other files: the referenced file read once into a collection the view layer
  excludes, and one Empty per instance that instances it (linked duplicates) at the
  instance's placement (``instances``); a missing or unreadable file, one that instances
  itself (directly or through others) or instances nested past ``MAX_INSTANCE_DEPTH`` give
  an Empty without a collection and a warning;
- animations: one action each, named as the library names the animation (its own name, else
  the file's stem), with keys converted to pose-bone space (``pose.keys_to_basis_*``), notes
  as pose markers, the scene's frame rate set from the first and its frame range to cover
  them all; rotations keep the file's keys, or are slerped at every frame when asked
  (``Settings.sample_rotations``).

A file with animations and no skeleton (every file of a format that holds no bones:
``table``) animates the active armature, or the armature of the active mesh (bones matched
by name, then ignoring case); without one, or when asked, it builds a bare armature: one
bone per animated bone, parentless and at the origin, since the file stores no hierarchy or
bind pose.
"""

from __future__ import annotations

import base64
import dataclasses
import math
import os
import sys
import tempfile
import types
import warnings
from dataclasses import dataclass, field

import numpy as np

import bmesh
import bpy
from mathutils import Matrix, Quaternion, Vector

import animbin

from . import blend, graph, hair, instances, pose, rig, shapes, table


@dataclass
class Settings:
    """The import options (see the operators in ``__init__``)."""

    scale: float = 1.0
    # "X", "Y" or "Z"; "FILE": the up axis the file states (Cast metadata), else Z.
    up_axis: str = "FILE"
    # Rotations keyed at every frame between the file's keys, slerped; off: the keys as
    # they are (Blender interpolates quaternion components linearly).
    sample_rotations: bool = False
    # "REST": relative, delta and additive keys play over the rest pose (animbin's rules);
    # "ABSOLUTE": every key is a local transform, whatever the file's kind says.
    kinds: str = "REST"
    # "AUTO": animation-only files animate the active armature, else a new bare one;
    # "NEW": always a new armature.
    armature: str = "AUTO"
    # Frames per second for formats that store none (the table's ``stores_framerate``); None
    # keeps animbin's default for the format.
    framerate: float | None = None
    set_scene: bool = True


@dataclass
class Result:
    """What an import made, and what it could not do."""

    armature: object = None
    meshes: list = field(default_factory=list)
    hairs: list = field(default_factory=list)
    instances: list = field(default_factory=list)
    # A graph's objects (``graph``): Empties of plain nodes, cameras and lights.
    empties: list = field(default_factory=list)
    cameras: list = field(default_factory=list)
    lights: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    warnings: list = field(default_factory=list)


# How deep instances may nest (a file that instances a file that instances ...): past this,
# an instance is an Empty without its collection, and the import says so.
MAX_INSTANCE_DEPTH = 8


@dataclass
class _Instancing:
    """The referenced files of one import: their collections by resolved path (each file is
    read once), and the files being read, outermost first (a file met again while it is
    being read instances itself)."""

    collections: dict = field(default_factory=dict)
    reading: list = field(default_factory=list)


def load(context, path: str, format_name: str | None, settings: Settings) -> Result:
    """Imports the file at ``path`` into ``context``'s scene. ``format_name`` forces a
    format (for one without magic, whose files are otherwise recognised by their name);
    ``None`` lets the library detect it."""
    result = Result()
    document, scene, settings = _read(path, format_name, settings, result)
    _build(context, path, document, scene, settings, result, _Instancing(reading=[_path_key(path)]))

    # The view layer's objects are read only once it is in step with the collections the
    # import added and excluded (instances): before, walking them could read freed bases and
    # crash Blender (1 import in ~20 of a file with instances under bpy 4.5).
    context.view_layer.update()
    for obj in context.view_layer.objects:
        obj.select_set(False)
    made = [
        obj
        for obj in [result.armature, *result.meshes, *result.hairs, *result.instances, *result.empties, *result.cameras, *result.lights]
        if obj is not None
    ]
    for obj in made:
        obj.select_set(True)
    if made:
        context.view_layer.objects.active = made[0]
    return result


def _read(path: str, format_name: str | None, settings: Settings, result: Result):
    """The file's document and scene, and ``settings`` with the up axis the file states
    where asked; what the scene could not hold goes to ``result``'s warnings."""
    document = animbin.open(path, format_name)
    fmt = table.info(document.format)
    if settings.up_axis == "FILE":
        settings = dataclasses.replace(settings, up_axis=file_up_axis(document))
    options = {}
    if not fmt["stores_framerate"] and settings.framerate:
        options["framerate"] = settings.framerate
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", animbin.LossWarning)
        # Actions are named as conversions name animations (after the file, where its
        # format stores no name).
        scene = document.scene(name_animations=True, **options)
    result.warnings += [str(w.message) for w in caught]
    result.warnings += [f"not imported: {line}" for line in scene.lost]
    return document, scene, settings


def _build(context, path: str, document, scene, settings: Settings, result: Result, instancing: _Instancing) -> None:
    """What the file at ``path`` holds, as Blender data in ``context.collection``."""
    fmt = table.info(document.format)
    # As the library's stem (the name without its last extension), which names unnamed
    # animations.
    stem = os.path.splitext(os.path.basename(path))[0]
    # The armature and unnamed meshes are named after the model where the file names it.
    model_name = getattr(scene, "name", "") or stem

    if graph.has_graph(scene):
        _build_graph(context, path, stem, model_name, document, scene, settings, result)
        return

    armature_object = None
    bone_names = []
    if scene.skeleton is not None and len(scene.skeleton) > 0:
        armature_object, bone_names = build_armature(context, model_name, scene.skeleton, settings)
        armature_object[rig.MODEL_NAME_PROPERTY] = getattr(scene, "name", "")
        rig.add_constraints(armature_object, bone_names, scene.skeleton, result)
        _orient(armature_object, settings)
        _place(armature_object, scene.placement, settings)
    elif any(a.tracks for a in scene.animations):
        active = context.view_layer.objects.active
        if active is not None and active.type != "ARMATURE" and active.parent is not None:
            active = active.parent  # a mesh of an armature
        if settings.armature == "AUTO" and active is not None and active.type == "ARMATURE":
            armature_object = active
        else:
            armature_object = build_bare_armature(context, stem, scene.animations, settings)
            _orient(armature_object, settings)
    result.armature = armature_object

    materials = build_materials(scene, path, stem, result)
    for index, mesh in enumerate(scene.meshes):
        name = mesh.name or (model_name if len(scene.meshes) == 1 else f"{model_name}_{index}")
        obj = build_mesh(context, name, mesh, materials, armature_object, bone_names, settings, result)
        shapes.add_shape_keys(obj, mesh, settings.scale)
        if armature_object is None:
            _orient(obj, settings)
            _place(obj, scene.placement, settings)
        result.meshes.append(obj)

    # Hair is placed with the model, as the meshes are (``hair``).
    hairs = list(getattr(scene, "hairs", ()))
    for index, strands in enumerate(hairs):
        name = strands.name or (f"{model_name}_hair" if len(hairs) == 1 else f"{model_name}_hair{index}")
        obj = hair.build_hair(context, name, strands, materials, settings.scale, result)
        if obj is None:
            continue
        if armature_object is not None:
            obj.parent = armature_object
        else:
            _orient(obj, settings)
            _place(obj, scene.placement, settings)
        result.hairs.append(obj)

    folder = os.path.dirname(os.path.abspath(path))
    for instance in getattr(scene, "instances", ()):
        collection = _referenced(context, instance.path, folder, settings, result, instancing)
        obj = instances.build_empty(context, instance, collection)
        _orient(obj, settings)
        _place(obj, instance.placement, settings)
        result.instances.append(obj)

    if armature_object is not None and scene.animations:
        # A format whose writer chooses its key width says in its summary which one the file
        # has (``high_precision``), for an export to keep.
        info = document.info() if fmt["chooses_precision"] else {}
        precision = None if "high_precision" not in info else ("double" if info["high_precision"] else "single")
        build_actions(context, armature_object, scene.animations, stem, document.format, precision, settings, result)
    shapes.build_weight_actions(result.meshes, scene.animations, stem, result)


def _build_graph(context, path: str, stem: str, model_name: str, document, scene, settings: Settings, result: Result) -> None:
    """A scene graph (``graph``): objects for its plain nodes, cameras and lights, an armature
    for its bones, meshes where their nodes place them, and actions for both."""
    fmt = table.info(document.format)
    materials = build_materials(scene, path, stem, result)
    nodes = graph.Graph(scene, _checked_parents(scene.skeleton.parents), settings.scale)
    root = _root_matrix(scene.placement, settings)
    armature_object, _bone_names, objects = graph.build(
        context, scene, nodes, model_name, materials, root, settings, result, sys.modules[__name__]
    )
    result.armature = armature_object
    bone_animations, node_tracks = graph.split_tracks(scene.animations, nodes)
    if armature_object is not None and any(a.tracks for a in bone_animations):
        info = document.info() if fmt["chooses_precision"] else {}
        precision = None if "high_precision" not in info else ("double" if info["high_precision"] else "single")
        build_actions(context, armature_object, bone_animations, stem, document.format, precision, settings, result)
    graph.build_object_actions(scene.animations, node_tracks, objects, nodes, root, stem, settings, result)
    shapes.build_weight_actions(result.meshes, scene.animations, stem, result)
    if settings.set_scene and scene.animations and armature_object is None:
        _set_scene_range(context, scene.animations)


def _set_scene_range(context, animations) -> None:
    """The scene's frame rate from the first animation and its range over all of their keys."""
    first, last = _key_range(track for animation in animations for track in animation.tracks)
    if first > last:
        return
    blend.set_scene_framerate(context.scene, float(animations[0].framerate))
    context.scene.frame_start = max(0, int(math.floor(first)))
    context.scene.frame_end = int(math.ceil(last))


def _key_range(tracks) -> tuple[float, float]:
    """The first and last key frame of ``tracks`` (inf and -inf when they have no keys)."""
    first, last = math.inf, -math.inf
    for track in tracks:
        for frames in (track.translation_frames, track.rotation_frames, track.scale_frames):
            if len(frames):
                first, last = min(first, float(np.min(frames))), max(last, float(np.max(frames)))
    return first, last


def _root_matrix(placement, settings: Settings) -> Matrix:
    """What ``_orient`` and ``_place`` do to a root object, as one matrix."""
    turn = Matrix.Identity(4)
    if settings.up_axis == "Y":
        turn = Matrix.Rotation(math.pi / 2, 4, "X")
    elif settings.up_axis == "X":
        turn = Matrix.Rotation(-math.pi / 2, 4, "Y")
    t, r, s = (np.asarray(v, dtype=np.float64) for v in placement)
    return turn @ Matrix.LocRotScale(Vector((t * settings.scale).tolist()), Quaternion((r[3], r[0], r[1], r[2])), Vector(s.tolist()))


def _path_key(path: str) -> str:
    """One spelling of a file's path (two instances name one file however they write it)."""
    return os.path.normcase(os.path.realpath(path))


def _referenced(context, written: str, folder: str, settings: Settings, result: Result, instancing: _Instancing):
    """The collection holding the file an instance names (``written``, as the file writes
    it, relative to ``folder``): read once per import into a collection of its own that the
    view layer excludes; None, with a warning, when it is missing, unreadable, the file
    being read or one that reads it (a cycle), or nested too deep."""
    path = instances.resolve(written, folder)
    key = _path_key(path)
    if key in instancing.reading:
        result.warnings.append(
            f"instance of {written!r}: the file instances itself (directly or through others); not read again"
        )
        return None
    if key in instancing.collections:
        return instancing.collections[key]
    if len(instancing.reading) > MAX_INSTANCE_DEPTH:
        result.warnings.append(f"instance of {written!r}: instances nested deeper than {MAX_INSTANCE_DEPTH}; not read")
        return None
    if not os.path.isfile(path):
        result.warnings.append(f"instance of {written!r}: no file at {path}")
        return None
    # The referenced file is read in the instancing file's axes (its Empties carry the turn),
    # with bones of its own and without touching the scene's frame rate.
    nested_settings = dataclasses.replace(settings, up_axis="Z", armature="NEW", set_scene=False)
    nested = Result()
    try:
        document, scene, nested_settings = _read(path, None, nested_settings, nested)
    except (animbin.FormatError, OSError, ValueError) as error:
        result.warnings.append(f"instance of {written!r}: {path} could not be read: {error}")
        return None
    collection = bpy.data.collections.new(os.path.basename(path))
    context.scene.collection.children.link(collection)
    instancing.collections[key] = collection
    instancing.reading.append(key)
    try:
        with context.temp_override(collection=collection):
            _build(context, path, document, scene, nested_settings, nested, instancing)
    finally:
        instancing.reading.pop()
    instances.exclude(context, collection)
    result.warnings += [f"{os.path.basename(path)}: {line}" for line in nested.warnings]
    return collection


def file_up_axis(document) -> str:
    """The up axis the file states ("X", "Y" or "Z": a Cast file's first Metadata node's
    ``up``, which ``info()`` gives as ``up_axis``), else "Z"."""
    stated = str(document.info().get("up_axis") or "").upper()
    return stated if stated in ("X", "Y", "Z") else "Z"


def _orient(obj, settings: Settings) -> None:
    """A Y-up file stands up in Blender's Z-up world: +90 degrees about X on its root
    object; an X-up file -90 degrees about Y (its X becomes Blender's Z). The data stays as
    the file has it, so an export gives it back."""
    if obj is not None and settings.up_axis == "Y":
        obj.rotation_mode = "XYZ"
        obj.rotation_euler = (math.pi / 2, 0.0, 0.0)
    elif obj is not None and settings.up_axis == "X":
        obj.rotation_mode = "XYZ"
        obj.rotation_euler = (0.0, -math.pi / 2, 0.0)


def _place(obj, placement, settings: Settings) -> None:
    """The scene's model placement (a Cast Model's position, rotation and scale) on a root
    object, inside the up-axis turn (the placement is in the file's axes)."""
    if obj is None or placement is None:
        return
    t, r, s = (np.asarray(v, dtype=np.float64) for v in placement)
    if np.array_equal(t, [0.0, 0.0, 0.0]) and np.array_equal(r, [0.0, 0.0, 0.0, 1.0]) and np.array_equal(s, [1.0, 1.0, 1.0]):
        return
    matrix = Matrix.LocRotScale(
        Vector((t * settings.scale).tolist()), Quaternion((r[3], r[0], r[1], r[2])), Vector(s.tolist())
    )
    obj.matrix_basis = obj.matrix_basis @ matrix


def _link(context, obj) -> None:
    context.collection.objects.link(obj)


def _edit_mode(context, obj):
    """Enters edit mode on ``obj`` (made the active object)."""
    for other in context.view_layer.objects:
        other.select_set(False)
    obj.select_set(True)
    context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")


def _bone_lengths(heads: np.ndarray, parents: list, default: float) -> np.ndarray:
    """A display length per bone: the distance to its nearest child that stands apart,
    else its parent's length, else ``default``. Bones have no length in the files."""
    count = len(heads)
    lengths = np.zeros(count)
    for child, parent in enumerate(parents):
        if parent is None:
            continue
        distance = float(np.linalg.norm(heads[child] - heads[parent]))
        if distance > default * 1e-3 and (lengths[parent] == 0.0 or distance < lengths[parent]):
            lengths[parent] = distance
    for index in range(count):
        at, steps = index, 0
        while lengths[index] == 0.0 and steps < count:
            parent = parents[at]
            if parent is None:
                lengths[index] = default
            elif lengths[parent] > 0.0:
                lengths[index] = lengths[parent]
            at = parent if parent is not None else at
            steps += 1
        if lengths[index] == 0.0:
            lengths[index] = default
    return np.maximum(lengths, default * 1e-2)


def _checked_parents(parents) -> list:
    """Parent indices, ``None`` for roots; an index out of range becomes ``None``, and so does
    the parent of the lowest-indexed bone on each cycle (Blender's bones must form a tree).

    Linear in the bones: each bone is walked over once (a deep chain must not cost its
    depth per bone)."""
    count = len(parents)
    result = [int(p) if 0 <= int(p) < count and int(p) != i else None for i, p in enumerate(parents)]
    # 0: not seen, 1: on the path being walked, 2: known to end at a root.
    state = [0] * count
    for start in range(count):
        path = []
        at = start
        while at is not None and state[at] == 0:
            state[at] = 1
            path.append(at)
            at = result[at]
        if at is not None and state[at] == 1:
            # The walk came back to a bone on its own path: the cycle is the path from there.
            cycle = path[path.index(at):]
            result[min(cycle)] = None
        for bone in path:
            state[bone] = 2
    return result


def build_armature(context, name: str, skeleton, settings: Settings):
    """An armature object with the skeleton's bones at their bind matrices. Returns it and
    the Blender name of each bone, index for index (Blender renames duplicates and
    shortens names past 63 bytes)."""
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    _link(context, obj)
    matrices = np.array(skeleton.bind_matrices, dtype=np.float64)
    matrices[:, :3, 3] *= settings.scale
    parents = _checked_parents(skeleton.parents)
    heads = matrices[:, :3, 3]
    extent = float(np.ptp(heads, axis=0).max()) if len(heads) else 0.0
    default = extent * 0.05 if extent > 0.0 else 0.1 * settings.scale
    lengths = _bone_lengths(heads, parents, default)

    _edit_mode(context, obj)
    edit_bones = []
    for index, bone_name in enumerate(skeleton.names):
        bone = data.edit_bones.new(bone_name or f"bone{index}")
        bone.head = (0.0, 0.0, 0.0)
        bone.tail = (0.0, float(lengths[index]), 0.0)
        bone.matrix = Matrix(matrices[index].tolist())
        edit_bones.append(bone)
    for index, parent in enumerate(parents):
        if parent is not None:
            edit_bones[index].parent = edit_bones[parent]
    # A bone that does not inherit its parent's scale (Cast's ssc) is Blender's NONE, which
    # still stretches its offset by the parent's scale (animbin_core::pose::compose).
    compensate = getattr(skeleton, "scale_compensate", None)
    if compensate is not None:
        for index, flag in enumerate(compensate):
            edit_bones[index].inherit_scale = "NONE" if flag else "FULL"
    blender_names = [bone.name for bone in edit_bones]
    bpy.ops.object.mode_set(mode="OBJECT")
    for index, cosmetic in enumerate(skeleton.cosmetic):
        if cosmetic:
            data.bones[blender_names[index]][blend.COSMETIC_PROPERTY] = True
    rest_scales = getattr(skeleton, "rest_scale", None)
    if rest_scales is not None:
        for index, s in enumerate(np.asarray(rest_scales, dtype=np.float64).reshape(-1, 3).tolist()):
            if s != [1.0, 1.0, 1.0]:
                data.bones[blender_names[index]][blend.REST_SCALE_PROPERTY] = s
    return obj, blender_names


def build_bare_armature(context, name: str, animations, settings: Settings):
    """An armature with one parentless bone at the origin per animated bone name (in the
    order the tracks first name them)."""
    names = []
    seen = set()
    for animation in animations:
        for track in animation.tracks:
            if track.bone not in seen:
                seen.add(track.bone)
                names.append(track.bone)
    skeleton = animbin.Skeleton(names, np.full(len(names), -1, dtype=np.int32))
    for animation in animations:
        for track in animation.tracks:
            if track.cosmetic:
                skeleton.cosmetic[names.index(track.bone)] = True
    obj, _names = build_armature(context, name, skeleton, settings)
    return obj


def _embedded_image(texture):
    """A Blender image packed from an embedded PNG."""
    handle, temp = tempfile.mkstemp(suffix=".png")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(texture.png)
        image = bpy.data.images.load(temp, check_existing=False)
        image.pack()
        image.filepath = ""
    finally:
        os.remove(temp)
    image.name = texture.name or "texture"
    return image


def _missing_image(path: str):
    """An image that refers to a file that is not there (Blender shows it pink)."""
    for image in bpy.data.images:
        if image.source == "FILE" and image.filepath == path:
            return image
    image = bpy.data.images.new(os.path.basename(path), 1, 1)
    image.source = "FILE"
    image.filepath = path
    return image


def build_materials(scene, path: str, stem: str, result: Result) -> list:
    """One Blender material per scene material (index for index)."""
    folder = os.path.dirname(os.path.abspath(path))
    images = {}
    made = []
    for index, material in enumerate(scene.materials):
        mat = bpy.data.materials.new(material.name or f"{stem}_material{index}")
        if mat.node_tree is None:  # before Blender 5.0, which makes every material with nodes
            mat.use_nodes = True
        nodes = mat.node_tree.nodes
        links = mat.node_tree.links
        bsdf = next((n for n in nodes if n.type == "BSDF_PRINCIPLED"), None)
        if bsdf is None:
            made.append(mat)
            continue
        if material.base_color is not None:
            bsdf.inputs["Base Color"].default_value = tuple(material.base_color)
            mat.diffuse_color = tuple(material.base_color)
        row = 0

        def image_node(image, label):
            nonlocal row
            node = nodes.new("ShaderNodeTexImage")
            node.image = image
            node.label = label
            node.location = (bsdf.location.x - 600, bsdf.location.y - 300 * row)
            row += 1
            return node

        if material.texture is not None and 0 <= material.texture < len(scene.textures):
            if material.texture not in images:
                images[material.texture] = _embedded_image(scene.textures[material.texture])
            node = image_node(images[material.texture], "diffuse")
            links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
        for slot, name in material.textures.items():
            found = animbin.find_texture(folder, name) if name else None
            if found is not None:
                image = bpy.data.images.load(os.fspath(found), check_existing=True)
            else:
                # A missing image keeps the name for export and for File > External Data >
                # Find Missing Files.
                result.warnings.append(f"material {mat.name}: {slot} texture {name!r} not found beside the file")
                image = _missing_image(os.path.join(folder, name.replace("\\", "/")))
            node = image_node(image, slot)
            if slot == "diffuse":
                links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
            elif slot == "normal":
                image.colorspace_settings.name = "Non-Color"
                normal_map = nodes.new("ShaderNodeNormalMap")
                normal_map.location = (bsdf.location.x - 250, node.location.y)
                links.new(node.outputs["Color"], normal_map.inputs["Color"])
                links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])
            elif slot == "specular" and "Specular Tint" in bsdf.inputs:
                links.new(node.outputs["Color"], bsdf.inputs["Specular Tint"])

        def embedded(texture):
            if texture not in images:
                images[texture] = _embedded_image(scene.textures[texture])
            return images[texture]

        _physically_based(mat, material, len(scene.textures), embedded, image_node, result)
        made.append(mat)
    return made


# The Principled BSDF's emission colour input: "Emission Color" from Blender 4.0.
_EMISSION = ("Emission Color", "Emission")


def _physically_based(mat, material, texture_count: int, embedded, image_node, result) -> None:
    """A glTF material's factors (``Material.surface``) and images in each slot
    (``Material.links``) on the Principled BSDF, wired as Blender's glTF importer wires them:
    metalness and roughness through a Separate Color node, the normal map through a Normal
    Map node, occlusion into a ``glTF Material Output`` group (what Blender's glTF exporter
    reads it from)."""
    tree = mat.node_tree
    nodes, links = tree.nodes, tree.links
    bsdf = next(n for n in nodes if n.type == "BSDF_PRINCIPLED")
    emission = next((bsdf.inputs[name] for name in _EMISSION if name in bsdf.inputs), None)
    surface = getattr(material, "surface", None)
    if surface is not None:
        bsdf.inputs["Metallic"].default_value = float(surface["metallic"])
        bsdf.inputs["Roughness"].default_value = float(surface["roughness"])
        emissive = [float(c) for c in surface["emissive"]]
        if emission is not None and any(emissive):
            emission.default_value = (*emissive, 1.0)
            bsdf.inputs["Emission Strength"].default_value = 1.0
        mat.use_backface_culling = not surface["double_sided"]
    for link in getattr(material, "links", ()):
        slot, texture = link["slot"], link["texture"]
        if not 0 <= texture < texture_count:
            continue
        image = embedded(texture)
        node = image_node(image, slot)
        if link.get("uv_layer"):
            uv = nodes.new("ShaderNodeUVMap")
            uv.uv_map = f"UVMap.{int(link['uv_layer']):03d}"
            uv.location = (node.location.x - 250, node.location.y)
            links.new(uv.outputs["UV"], node.inputs["Vector"])
        if link.get("transform") is not None:
            result.warnings.append(f"material {mat.name}: the {slot} texture's UV transform is kept for export, not shown")
            mat[f"animbin_{slot}_transform"] = {k: v for k, v in link["transform"].items() if v is not None}
        if slot not in ("base_color", "emissive"):
            image.colorspace_settings.name = "Non-Color"  # data, not colour
        if slot == "base_color":
            links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
        elif slot == "normal":
            normal_map = nodes.new("ShaderNodeNormalMap")
            normal_map.location = (bsdf.location.x - 250, node.location.y)
            if link.get("strength") is not None:
                normal_map.inputs["Strength"].default_value = float(link["strength"])
            links.new(node.outputs["Color"], normal_map.inputs["Color"])
            links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])
        elif slot in ("metallic_roughness", "occlusion"):
            # The channels are separate values: glTF's metalness in blue, roughness in
            # green, occlusion in red.
            separate = nodes.new("ShaderNodeSeparateColor")
            separate.location = (bsdf.location.x - 250, node.location.y)
            links.new(node.outputs["Color"], separate.inputs["Color"])
        if slot == "metallic_roughness":
            links.new(separate.outputs["Blue"], bsdf.inputs["Metallic"])
            links.new(separate.outputs["Green"], bsdf.inputs["Roughness"])
        elif slot == "occlusion":
            output = nodes.new("ShaderNodeGroup")
            output.node_tree = _gltf_output_group()
            output.location = (bsdf.location.x, bsdf.location.y - 700)
            links.new(separate.outputs["Red"], output.inputs["Occlusion"])
        elif slot == "emissive" and emission is not None:
            links.new(node.outputs["Color"], emission)
            bsdf.inputs["Emission Strength"].default_value = 1.0


def _gltf_output_group():
    """The ``glTF Material Output`` node group (made once per file), whose ``Occlusion``
    input Blender's glTF exporter reads the occlusion image from."""
    name = "glTF Material Output"
    group = bpy.data.node_groups.get(name)
    if group is None:
        group = bpy.data.node_groups.new(name, "ShaderNodeTree")
        group.interface.new_socket("Occlusion", in_out="INPUT", socket_type="NodeSocketFloat")
        group.nodes.new("NodeGroupInput")
    return group


def build_mesh(context, name, mesh, materials, armature_object, bone_names, settings, result):
    """A mesh object from a scene mesh, parented to and deformed by ``armature_object``."""
    positions = np.asarray(mesh.positions, dtype=np.float64) * settings.scale
    count = len(positions)
    faces = np.asarray(mesh.faces, dtype=np.int64).reshape(-1, 3)
    usable = (
        (faces < count).all(axis=1)
        & (faces[:, 0] != faces[:, 1])
        & (faces[:, 1] != faces[:, 2])
        & (faces[:, 0] != faces[:, 2])
    )
    if not usable.all():
        result.warnings.append(f"mesh {name}: {int((~usable).sum())} faces skipped (repeated or missing vertices)")
        faces = faces[usable]

    data = bpy.data.meshes.new(name)
    data.vertices.add(count)
    data.vertices.foreach_set("co", positions.astype(np.float32).ravel())
    data.loops.add(len(faces) * 3)
    data.loops.foreach_set("vertex_index", faces.astype(np.int32).ravel())
    data.polygons.add(len(faces))
    data.polygons.foreach_set("loop_start", np.arange(0, len(faces) * 3, 3, dtype=np.int32))
    data.update(calc_edges=True)
    data.validate(clean_customdata=False)
    obj = bpy.data.objects.new(name, data)
    _link(context, obj)
    skinned = armature_object is not None and mesh.bone_indices is not None and mesh.bone_weights is not None
    if skinned:
        # Before any other layer: the weights go in through BMesh, which rebuilds the mesh.
        _vertex_groups(obj, data, mesh, bone_names, result)

    corner_vertex = np.empty(len(data.loops), dtype=np.int32)
    data.loops.foreach_get("vertex_index", corner_vertex)
    for index, layer in enumerate(mesh.uv_layers):
        uv = np.array(layer, dtype=np.float32)[corner_vertex]
        uv[:, 1] = 1.0 - uv[:, 1]
        target = data.uv_layers.new(name="UVMap" if index == 0 else f"UVMap.{index:03d}")
        target.data.foreach_set("uv", uv.ravel())
    for index, layer in enumerate(mesh.color_layers):
        colors = np.asarray(layer, dtype=np.float32) / 255.0
        attribute = data.color_attributes.new("Color" if index == 0 else f"Color.{index:03d}", "BYTE_COLOR", "POINT")
        attribute.data.foreach_set("color_srgb", colors.ravel())
    if mesh.color_layers:
        data.color_attributes.active_color_index = 0
        data.color_attributes.render_color_index = 0
    for index in mesh.materials:
        if index is not None and 0 <= index < len(materials) and materials[index].name not in data.materials:
            data.materials.append(materials[index])
    if mesh.normals is not None and len(data.polygons):
        data.shade_smooth()
        normals = np.asarray(mesh.normals, dtype=np.float64)
        lengths = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = np.where(lengths > 0.0, normals / np.where(lengths > 0.0, lengths, 1.0), 0.0)
        data.normals_split_custom_set_from_vertices(normals)

    if armature_object is not None:
        obj.parent = armature_object
    if skinned:
        modifier = obj.modifiers.new("Armature", "ARMATURE")
        modifier.object = armature_object
        # Dual-quaternion skinning (Cast's sm "quaternion") is Blender's "preserve volume".
        modifier.use_deform_preserve_volume = mesh.skin_blend == "dual_quaternion"
    return obj


def _vertex_groups(obj, data, mesh, bone_names, result) -> None:
    """One vertex group per bone the skin names, with its weights (slots of weight 0 are
    unused; a bone named twice for one vertex adds up). Written through BMesh's deform
    layer, one assignment per influence: ``VertexGroup.add`` costs a call per weight value."""
    indices = np.asarray(mesh.bone_indices, dtype=np.int64)
    weights = np.asarray(mesh.bone_weights, dtype=np.float32)
    if indices.ndim != 2 or indices.shape != weights.shape or len(indices) != len(data.vertices):
        result.warnings.append(f"mesh {obj.name}: skin arrays do not fit its vertices; no weights")
        return
    used = weights > 0.0
    if (indices[used] >= len(bone_names)).any():
        result.warnings.append(f"mesh {obj.name}: weights for bones past the skeleton's {len(bone_names)} skipped")
        used &= indices < len(bone_names)
    group_of = np.full(max(len(bone_names), 1), -1, dtype=np.int64)
    for bone in np.unique(indices[used]):
        name = bone_names[int(bone)]
        group = obj.vertex_groups.get(name) or obj.vertex_groups.new(name=name)
        group_of[int(bone)] = group.index
    slots = np.where(used, group_of[np.clip(indices, 0, len(group_of) - 1)], -1)

    bm = bmesh.new()
    try:
        bm.from_mesh(data)
        layer = bm.verts.layers.deform.verify()
        for vert, groups, values in zip(bm.verts, slots.tolist(), weights.tolist()):
            deform = vert[layer]
            for group, weight in zip(groups, values):
                if group >= 0:
                    deform[group] = deform.get(group, 0.0) + weight
        bm.to_mesh(data)
    finally:
        bm.free()


def _match_bones(armature_object, names) -> dict:
    """File bone name -> pose bone name: exact, else ignoring case."""
    bones = armature_object.data.bones
    folded = {}
    for bone in bones:
        folded.setdefault(bone.name.lower(), bone.name)
    found = {}
    for name in names:
        if name in bones:
            found[name] = name
        elif name.lower() in folded:
            found[name] = folded[name.lower()]
    return found


def build_actions(context, armature_object, animations, stem, format_name, precision, settings, result) -> None:
    """One action per animation on ``armature_object``; the first becomes its active one.
    ``precision`` is the file's key precision where its format chooses one."""
    rests = blend.rest_poses(armature_object.data)
    parents_of = {b.name: (b.parent.name if b.parent else None) for b in armature_object.data.bones}
    writers = []
    ranges = []
    for position, animation in enumerate(animations):
        # The library names every animation of a file read from a path (its own name, else
        # the file's stem); the stem stands in only for a name it left empty.
        action = bpy.data.actions.new(animation.name or stem)
        action.use_fake_user = True
        writer = blend.ChannelWriter(action, armature_object)
        interpolation = (
            blend.INTERPOLATION_CONSTANT if animation.interpolation == "step" else blend.INTERPOLATION_LINEAR
        )
        matched = _match_bones(armature_object, [t.bone for t in animation.tracks])
        # Each channel's kind, as the library decides it (Cast keeps a mode on each curve
        # and overrides select channels), over the armature's hierarchy.
        renamed = types.SimpleNamespace(
            kind=animation.kind,
            tracks=[
                types.SimpleNamespace(
                    bone=matched.get(t.bone, t.bone),
                    kind=t.kind,
                    channel_kinds=t.channel_kinds,
                    channel_overrides=t.channel_overrides,
                )
                for t in animation.tracks
            ],
        )
        kinds = animbin.pose.channel_kinds(renamed, parents_of)
        missing = []
        first, last = _key_range(animation.tracks)
        for track, kind in zip(animation.tracks, kinds):
            bone = matched.get(track.bone)
            if bone is None:
                missing.append(track.bone)
                continue
            if settings.kinds == "ABSOLUTE":
                kind = {"translation": "absolute", "rotation": "absolute", "scale": "absolute"}
            tr, rr = rests[bone]
            pose_bone = armature_object.pose.bones[bone]
            # A channel joined otherwise than its animation (a glTF sampler of its own) keeps
            # its way; a cubic spline's tangents move to pose-bone space as its keys do (the
            # absolute keys' map is linear in them).
            def joined(channel, to_basis=None):
                how, tangents = pose.channel_curve(
                    track, channel, interpolation, blend.INTERPOLATION_LINEAR, blend.INTERPOLATION_CONSTANT
                )
                if tangents is None or kind[channel] != "absolute":
                    return how, None
                return how, (*(to_basis(t) for t in tangents), float(animation.framerate))

            inverse_rest = pose.quat_conjugate(pose.quat_normalize(np.asarray(rr, dtype=np.float64)))
            if len(track.translation_frames):
                keys = np.asarray(track.translations, dtype=np.float64) * settings.scale
                location = pose.keys_to_basis_translation(kind["translation"], tr, rr, keys)
                how, tangents = joined("translation", lambda t: pose.quat_rotate(inverse_rest, t * settings.scale))
                writer.curves(bone, "location", track.translation_frames, location, how, tangents)
            if len(track.rotation_frames):
                rotation = pose.keys_to_basis_rotation(kind["rotation"], rr, track.rotations)
                frames = track.rotation_frames
                how, tangents = joined("rotation", lambda t: pose.quat_multiply(inverse_rest, t)[:, [3, 0, 1, 2]])
                if settings.sample_rotations and how != blend.INTERPOLATION_CONSTANT and tangents is None:
                    frames, rotation = pose.slerp_every_frame(frames, rotation)
                pose_bone.rotation_mode = "QUATERNION"
                writer.curves(bone, "rotation_quaternion", frames, rotation[:, [3, 0, 1, 2]], how, tangents)
            if len(track.scale_frames):
                rest_scale = blend.rest_scale(armature_object.data.bones[bone])
                scale = pose.keys_to_basis_scale(kind["scale"], rest_scale, np.asarray(track.scales, dtype=np.float64))
                how, tangents = joined("scale", lambda t: pose.keys_to_basis_scale("absolute", rest_scale, t))
                writer.curves(bone, "scale", track.scale_frames, scale, how, tangents)
        if missing:
            result.warnings.append(
                f"action {action.name}: {len(missing)} tracks name bones the armature lacks: {', '.join(missing[:10])}"
                + (" ..." if len(missing) > 10 else "")
            )
        for frame, note in animation.notes:
            marker = action.pose_markers.new(note)
            marker.frame = int(round(frame))
        if first > last:
            first = last = 0.0
        end = max(last, animation.frame_count - 1.0)
        action.use_frame_range = True
        action.frame_start = first
        action.frame_end = max(end, first)
        action.use_cyclic = bool(animation.looping)
        action[blend.ACTION_PROPERTY] = {
            "format": format_name,
            # Its place in the file, which an export of all actions in one file keeps (a
            # format may number its animations by it: x8an's segments).
            "position": position,
            "armature": armature_object.name,
            "kind": animation.kind,
            "overrides": {matched.get(t.bone, t.bone): t.kind for t in animation.tracks if t.kind},
            # Per-channel kinds and overrides (Cast), which an export gives back.
            "channel_kinds": {matched.get(t.bone, t.bone): dict(t.channel_kinds) for t in animation.tracks if t.channel_kinds},
            "channel_overrides": {
                matched.get(t.bone, t.bone): dict(t.channel_overrides) for t in animation.tracks if t.channel_overrides
            },
            "cosmetic": [matched.get(t.bone, t.bone) for t in animation.tracks if t.cosmetic],
            # Tracks without keys have no F-curves; export writes them back (x8an slots).
            "empty_tracks": [
                matched.get(t.bone, t.bone)
                for t in animation.tracks
                if not (len(t.translation_frames) or len(t.rotation_frames) or len(t.scale_frames))
            ],
            "framerate": float(animation.framerate),
            "frame_count": float(animation.frame_count),
            "frame_end": float(action.frame_end),
            "interpolation": animation.interpolation,
            "precision": precision or "",
            "properties": [
                {
                    "node": p.node,
                    "property": p.property,
                    "format": p.format,
                    "data": base64.b64encode(p.data).decode("ascii"),
                }
                for p in animation.properties
            ],
        }
        writers.append(writer)
        ranges.append((first, action.frame_end))
        result.actions.append(action)
    if writers:
        writers[0].assign(armature_object)
    if settings.set_scene and animations:
        scene = context.scene
        blend.set_scene_framerate(scene, float(animations[0].framerate))
        scene.frame_start = max(0, int(math.floor(min(r[0] for r in ranges))))
        scene.frame_end = int(math.ceil(max(r[1] for r in ranges)))
