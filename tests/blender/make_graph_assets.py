"""Small glTF assets for the scene-graph work (issue 31, deliverable 6), made with Blender's
own glTF exporter so that they are what a user's Blender writes, not what animbin writes.

One .glb per case, each a few KB, built from fixed values (no randomness):

- armature_under_empty.glb: a 4-bone armature with a skinned column of 36 vertices (each
  weighted over 2 bones), parented under an empty turned about two axes and scaled 0.5,
  with a 10-frame bone animation;
- z_up_root.glb: the same rig under an empty named Z_UP turned -90 degrees about X,
  exported with the +Y-up conversion off: the file's root node carries the turn, as in a
  file exported from a Z-up tool;
- bind_scale_100.glb: the rig in centimetres under an armature scaled 0.01 (a Blender
  character in centimetres): the joints' bind matrices carry a scale of 100;
- unskinned_animated.glb: a cube, no armature, with location, rotation and scale keys;
- instanced.glb: one mesh used by three objects (linked duplicates, one scaled
  non-uniformly): one glTF mesh, three nodes;
- cameras_light.glb: a perspective and an orthographic camera, a point and a spot light
  (Blender lists KHR_lights_punctual as required); cameras.glb: the two cameras alone;
- shape_keys.glb: a grid with shape keys at 0.3 and 0.7 (static) and a third animated, and
  a second grid with the two static keys only (no animation: its look is its default
  weights, which the animated grid's channel would otherwise cover);
- pbr_textures.glb: a material with base colour, normal, metallic-roughness, occlusion
  and emissive textures (PNG, the emissive one JPEG), two UV maps (occlusion on the second);
- step_cubic.glb: a cube whose location keys are constant (STEP) and whose scale and
  rotation keys are Bezier, exported without sampling (CUBICSPLINE).

After writing each file, its JSON is read back and the feature it is for is asserted (a
Blender version whose exporter writes less fails here, not silently in the route tests).

    python tests/blender/make_graph_assets.py [--out testdata/graph]

Run with the Python that has the `bpy` module (bpy 4.5 in a Python 3.11 virtual
environment). Prints one line per file (name, size, what was checked), `FAIL ...` lines and
`N checks`; exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import sys
import tempfile

import bpy
from mathutils import Euler, Matrix, Quaternion, Vector
from checks import Checks  # noqa: E402  (the Blender suites' shared checks, beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The most bytes an asset may take: they are committed.
MAX_SIZE = 24 * 1024
FPS = 24
BONES = ("Root", "Spine", "Chest", "Head")


# --- building blocks ----------------------------------------------------------------------


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0
    scene.frame_start = 0
    scene.frame_end = 9
    scene.frame_set(0)
    return scene


def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def column_mesh(name, unit=1.0):
    """A square column 4 units tall along +Z, 9 rings of 4 vertices (36), its side quads and
    both caps, and the two bones each ring is weighted to: ring at height h (in units) goes
    to the bone it lies in and its neighbour."""
    half = 0.25 * unit
    verts, faces = [], []
    for ring in range(9):
        z = ring * 0.5 * unit
        verts += [(-half, -half, z), (half, -half, z), (half, half, z), (-half, half, z)]
    for ring in range(8):
        a, b = ring * 4, ring * 4 + 4
        for i in range(4):
            j = (i + 1) % 4
            faces.append((a + i, a + j, b + j, b + i))
    faces.append((3, 2, 1, 0))
    faces.append((32, 33, 34, 35))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    weights = []
    for ring in range(9):
        h = ring * 0.5
        if h == 0:
            pair = ((0, 0.8), (1, 0.2))
        elif h == 4:
            pair = ((3, 0.8), (2, 0.2))
        elif h == int(h):
            pair = ((int(h) - 1, 0.5), (int(h), 0.5))
        else:
            bone = int(h)
            other = bone + 1 if bone < 3 else bone - 1
            pair = ((bone, 0.75), (other, 0.25))
        weights += [pair] * 4
    return mesh, weights


def make_rig(name, unit=1.0, parent=None, scale=1.0):
    """A 4-bone chain along +Z (each bone `unit` long), the skinned column under it, and a
    10-frame action; the armature object parented to `parent` and scaled by `scale`."""
    data = bpy.data.armatures.new(name)
    arm = link(bpy.data.objects.new(name, data))
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    previous = None
    for i, bone_name in enumerate(BONES):
        bone = data.edit_bones.new(bone_name)
        bone.head = (0.0, 0.0, i * unit)
        bone.tail = (0.0, 0.0, (i + 1) * unit)
        if previous is not None:
            bone.parent = previous
            bone.use_connect = True
        previous = bone
    bpy.ops.object.mode_set(mode="OBJECT")
    if parent is not None:
        arm.parent = parent
    arm.scale = (scale, scale, scale)

    mesh, weights = column_mesh(name + "Skin", unit)
    skin = link(bpy.data.objects.new(name + "Skin", mesh))
    skin.parent = arm
    groups = [skin.vertex_groups.new(name=b) for b in BONES]
    for index, pair in enumerate(weights):
        for bone, weight in pair:
            groups[bone].add([index], weight, "REPLACE")
    modifier = skin.modifiers.new("Armature", "ARMATURE")
    modifier.object = arm

    # Keys at frames 0, 4 and 9: the root slides, the others bend about different axes.
    pose = arm.pose.bones
    for pb in pose:
        pb.rotation_mode = "QUATERNION"
    keys = {
        "Root": [(0, (0, 0, 0), (0, 0, 0)), (4, (0.2, 0, 0), (0, 0, 10)), (9, (0, 0.3, 0), (0, 0, -15))],
        "Spine": [(0, (0, 0, 0), (0, 0, 0)), (4, (0, 0, 0), (30, 0, 0)), (9, (0, 0, 0), (-20, 0, 0))],
        "Chest": [(0, (0, 0, 0), (0, 0, 0)), (4, (0, 0, 0), (0, 25, 0)), (9, (0, 0, 0), (10, 10, 0))],
        "Head": [(0, (0, 0, 0), (0, 0, 0)), (4, (0, 0, 0), (0, 0, 40)), (9, (0, 0, 0), (0, -30, 0))],
    }
    for bone_name, bone_keys in keys.items():
        pb = pose[bone_name]
        for frame, location, degrees in bone_keys:
            pb.location = Vector(location) * unit
            pb.rotation_quaternion = Euler([math.radians(d) for d in degrees]).to_quaternion()
            pb.keyframe_insert("location", frame=frame)
            pb.keyframe_insert("rotation_quaternion", frame=frame)
    arm.animation_data.action.name = name + "Action"
    bpy.context.scene.frame_set(0)
    return arm, skin


def make_empty(name, location=(0, 0, 0), rotation=(0, 0, 0), scale=(1, 1, 1)):
    empty = link(bpy.data.objects.new(name, None))
    empty.location = location
    empty.rotation_euler = [math.radians(d) for d in rotation]
    empty.scale = scale
    return empty


def cube_mesh(name, size=1.0):
    h = size / 2
    verts = [(x, y, z) for z in (-h, h) for y in (-h, h) for x in (-h, h)]
    faces = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return mesh


def grid_mesh(name, n=5, size=2.0):
    verts = [(-size / 2 + size * i / (n - 1), -size / 2 + size * j / (n - 1), 0.0) for j in range(n) for i in range(n)]
    faces = [
        (j * n + i, j * n + i + 1, (j + 1) * n + i + 1, (j + 1) * n + i) for j in range(n - 1) for i in range(n - 1)
    ]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return mesh


def export(path, **options):
    settings = dict(
        filepath=path,
        export_format="GLB",
        use_selection=False,
        export_animations=True,
        export_cameras=False,
        export_lights=False,
        export_extras=False,
        export_yup=True,
        export_apply=False,
    )
    settings.update(options)
    result = bpy.ops.export_scene.gltf(**settings)
    if result != {"FINISHED"}:
        raise RuntimeError(f"the exporter returned {result} for {path}")


# --- the assets ---------------------------------------------------------------------------


def armature_under_empty(path):
    empty_scene()
    placement = make_empty("Placement", (1.0, -2.0, 0.5), (20, 0, 35), (0.5, 0.5, 0.5))
    make_rig("Rig", parent=placement)
    export(path)


def z_up_root(path):
    empty_scene()
    root = make_empty("Z_UP", rotation=(-90, 0, 0))
    make_rig("Rig", parent=root)
    export(path, export_yup=False)


def bind_scale_100(path):
    empty_scene()
    make_rig("RigCm", unit=100.0, scale=0.01)
    export(path)


def unskinned_animated(path):
    empty_scene()
    crate = link(bpy.data.objects.new("Crate", cube_mesh("CrateMesh")))
    crate.rotation_mode = "QUATERNION"
    for frame, location, degrees, scale in (
        (0, (0, 0, 0), (0, 0, 0), (1, 1, 1)),
        (5, (1, 0.5, 2), (0, 45, 30), (1.5, 1, 0.5)),
        (9, (-1, 1, 0.5), (90, 0, 0), (0.5, 0.5, 2)),
    ):
        crate.location = location
        crate.rotation_quaternion = Euler([math.radians(d) for d in degrees]).to_quaternion()
        crate.scale = scale
        for channel in ("location", "rotation_quaternion", "scale"):
            crate.keyframe_insert(channel, frame=frame)
    bpy.context.scene.frame_set(0)
    export(path)


def instanced(path):
    empty_scene()
    # A pyramid: 5 vertices, 5 faces.
    mesh = bpy.data.meshes.new("Pyramid")
    mesh.from_pydata(
        [(-0.5, -0.5, 0), (0.5, -0.5, 0), (0.5, 0.5, 0), (-0.5, 0.5, 0), (0, 0, 1)],
        [],
        [(3, 2, 1, 0), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)],
    )
    mesh.update()
    for name, location, rotation, scale in (
        ("PyramidA", (0, 0, 0), (0, 0, 0), (1, 1, 1)),
        ("PyramidB", (3, 0, 1), (0, 0, 45), (2, 2, 2)),
        ("PyramidC", (-2, 2, 0), (30, 0, 60), (1, 0.5, 3)),
    ):
        obj = link(bpy.data.objects.new(name, mesh))
        obj.location = location
        obj.rotation_euler = [math.radians(d) for d in rotation]
        obj.scale = scale
    export(path)


def cameras_light(path, lights=True):
    empty_scene()
    persp = bpy.data.cameras.new("PerspLens")
    persp.type = "PERSP"
    persp.lens = 35.0
    persp.clip_start, persp.clip_end = 0.1, 100.0
    ortho = bpy.data.cameras.new("OrthoLens")
    ortho.type = "ORTHO"
    ortho.ortho_scale = 6.0
    ortho.clip_start, ortho.clip_end = 0.5, 50.0
    point = bpy.data.lights.new("PointBulb", "POINT")
    point.energy = 100.0
    point.color = (1.0, 0.8, 0.6)
    spot = bpy.data.lights.new("SpotBeam", "SPOT")
    spot.energy = 500.0
    spot.spot_size = math.radians(50)
    spot.spot_blend = 0.2
    placed = [
        ("PerspCamera", persp, (6, -6, 4), (65, 0, 45)),
        ("OrthoCamera", ortho, (0, -10, 2), (85, 0, 0)),
        ("PointLight", point, (2, 1, 5), (0, 0, 0)),
        ("SpotLight", spot, (-3, -1, 6), (20, -30, 10)),
    ]
    for name, data, location, rotation in placed if lights else placed[:2]:
        obj = link(bpy.data.objects.new(name, data))
        obj.location = location
        obj.rotation_euler = [math.radians(d) for d in rotation]
    export(path, export_cameras=True, export_lights=lights)


def cameras(path):
    """The two cameras of cameras_light.glb alone: Blender lists KHR_lights_punctual in
    extensionsRequired, so a reader that refuses lights refuses that whole file; this one
    tests the cameras apart."""
    cameras_light(path, lights=False)


def shape_keys(path):
    empty_scene()
    obj = link(bpy.data.objects.new("Sheet", grid_mesh("SheetMesh")))
    obj.shape_key_add(name="Basis")
    raise_key = obj.shape_key_add(name="Raise", from_mix=False)
    twist_key = obj.shape_key_add(name="Twist", from_mix=False)
    pulse_key = obj.shape_key_add(name="Pulse", from_mix=False)
    for i, point in enumerate(raise_key.data):
        x, y, _ = point.co
        point.co.z = 1.0 - 0.25 * (x * x + y * y)
    for point in twist_key.data:
        x, y, z = point.co
        a = 0.4 * x
        point.co.x, point.co.y = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    for point in pulse_key.data:
        point.co.x *= 1.5
        point.co.y *= 0.5
    raise_key.value = 0.3
    twist_key.value = 0.7
    for frame, value in ((0, 0.0), (4, 1.0), (9, 0.25)):
        pulse_key.value = value
        pulse_key.keyframe_insert("value", frame=frame)
    # The exporter writes every target's weight in an animated mesh's channel, so the
    # animated sheet plays 0.3 and 0.7 even where mesh.weights is lost: a second sheet,
    # not animated, shows only its default weights.
    still = link(bpy.data.objects.new("SheetStill", grid_mesh("SheetStillMesh")))
    still.location = (3.0, 0.0, 0.0)
    still.shape_key_add(name="Basis")
    for name, value, source in (("Raise", 0.3, raise_key), ("Twist", 0.7, twist_key)):
        key = still.shape_key_add(name=name, from_mix=False)
        for point, original in zip(key.data, source.data):
            point.co = original.co
        key.value = value
    bpy.context.scene.frame_set(0)
    export(path)


def tiny_image(folder, name, kind, pixel, size=4):
    """A small square image of fixed pixels saved as PNG or JPEG, loaded back from the file
    (so that the exporter keeps its type)."""
    image = bpy.data.images.new(name + "Src", size, size, alpha=False)
    pixels = []
    for y in range(size):
        for x in range(size):
            pixels += pixel(x, y) + [1.0]
    image.pixels = pixels
    extension = {"PNG": ".png", "JPEG": ".jpg"}[kind]
    file_path = os.path.join(folder, name + extension)
    image.filepath_raw = file_path
    image.file_format = kind
    image.save()
    bpy.data.images.remove(image)
    loaded = bpy.data.images.load(file_path)
    loaded.name = name
    return loaded


def pbr_textures(path):
    empty_scene()
    mesh = grid_mesh("PanelMesh", n=3)
    first = mesh.uv_layers.new(name="UVMap")
    second = mesh.uv_layers.new(name="UVMap.001")
    for loop in mesh.loops:
        x, y, _ = mesh.vertices[loop.vertex_index].co
        first.data[loop.index].uv = (x / 2 + 0.5, y / 2 + 0.5)
        second.data[loop.index].uv = (y / 4 + 0.25, x / 4 + 0.75)
    obj = link(bpy.data.objects.new("Panel", mesh))
    material = bpy.data.materials.new("Painted")
    material.use_nodes = True
    obj.data.materials.append(material)
    tree = material.node_tree
    nodes, links = tree.nodes, tree.links
    bsdf = nodes["Principled BSDF"]

    with tempfile.TemporaryDirectory(prefix="graph-images-") as folder:
        base = tiny_image(folder, "base", "PNG", lambda x, y: [x / 3, y / 3, 0.5])
        normal = tiny_image(folder, "normal", "PNG", lambda x, y: [0.5 + 0.1 * (x - 1.5) / 1.5, 0.5, 1.0])
        metal_rough = tiny_image(folder, "metal_rough", "PNG", lambda x, y: [0.0, 0.25 + y / 6, x / 3])
        # 8x8, unlike the metallic-roughness image: the exporter packs occlusion into the
        # metallic-roughness image when their sizes agree, and each slot is to keep its own.
        occlusion = tiny_image(folder, "occlusion", "PNG", lambda x, y: [1.0 - (x + y) / 28, 0.0, 0.0], size=8)
        emissive = tiny_image(folder, "emissive", "JPEG", lambda x, y: [1.0, 0.5, (x * y) / 9])
        for image in (base, normal, metal_rough, occlusion, emissive):
            image.pack()
        for image in (normal, metal_rough, occlusion):
            image.colorspace_settings.name = "Non-Color"

        def texture(image, x, y):
            node = nodes.new("ShaderNodeTexImage")
            node.image = image
            node.location = (x, y)
            return node

        base_node = texture(base, -600, 400)
        links.new(base_node.outputs["Color"], bsdf.inputs["Base Color"])

        normal_node = texture(normal, -800, -400)
        normal_map = nodes.new("ShaderNodeNormalMap")
        normal_map.uv_map = "UVMap"
        links.new(normal_node.outputs["Color"], normal_map.inputs["Color"])
        links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])

        mr_node = texture(metal_rough, -800, 100)
        separate = nodes.new("ShaderNodeSeparateColor")
        links.new(mr_node.outputs["Color"], separate.inputs["Color"])
        links.new(separate.outputs["Green"], bsdf.inputs["Roughness"])
        links.new(separate.outputs["Blue"], bsdf.inputs["Metallic"])

        # Occlusion goes to the exporter's own "glTF Material Output" group, read on the
        # second UV map.
        group = bpy.data.node_groups.new("glTF Material Output", "ShaderNodeTree")
        group.interface.new_socket("Occlusion", in_out="INPUT", socket_type="NodeSocketFloat")
        group.nodes.new("NodeGroupInput")
        group.nodes.new("NodeGroupOutput")
        settings = nodes.new("ShaderNodeGroup")
        settings.node_tree = group
        ao_node = texture(occlusion, -800, -800)
        uv2 = nodes.new("ShaderNodeUVMap")
        uv2.uv_map = "UVMap.001"
        links.new(uv2.outputs["UV"], ao_node.inputs["Vector"])
        separate_ao = nodes.new("ShaderNodeSeparateColor")
        links.new(ao_node.outputs["Color"], separate_ao.inputs["Color"])
        links.new(separate_ao.outputs["Red"], settings.inputs["Occlusion"])

        emissive_node = texture(emissive, -600, -1100)
        links.new(emissive_node.outputs["Color"], bsdf.inputs["Emission Color"])
        bsdf.inputs["Emission Strength"].default_value = 1.0

        export(path, export_image_format="AUTO")


def step_cubic(path):
    empty_scene()
    mover = link(bpy.data.objects.new("Mover", cube_mesh("MoverMesh", 0.5)))
    mover.rotation_mode = "QUATERNION"
    for frame, location in ((0, (0, 0, 0)), (4, (1, 0, 0.5)), (9, (1, 2, 0.5))):
        mover.location = location
        mover.keyframe_insert("location", frame=frame)
    for frame, scale, degrees in (
        (0, (1, 1, 1), (0, 0, 0)),
        (5, (2, 1, 0.5), (0, 0, 60)),
        (9, (1, 1.5, 1), (30, 0, 90)),
    ):
        mover.scale = scale
        mover.rotation_quaternion = Euler([math.radians(d) for d in degrees]).to_quaternion()
        mover.keyframe_insert("scale", frame=frame)
        mover.keyframe_insert("rotation_quaternion", frame=frame)
    action = mover.animation_data.action
    for curve in fcurves_of(action):
        for key in curve.keyframe_points:
            if curve.data_path == "location":
                key.interpolation = "CONSTANT"
            else:
                key.interpolation = "BEZIER"
                key.handle_left_type = key.handle_right_type = "AUTO_CLAMPED"
        curve.update()
    bpy.context.scene.frame_set(0)
    export(path, export_force_sampling=False, export_optimize_animation_size=False)


def fcurves_of(action):
    """An action's F-curves: Blender 4.4+ keeps them in layered actions (channelbags), the
    legacy `action.fcurves` still works in 4.5 for a single slot."""
    try:
        return list(action.fcurves)
    except AttributeError:
        curves = []
        for layer in action.layers:
            for strip in layer.strips:
                for bag in strip.channelbags:
                    curves += list(bag.fcurves)
        return curves


# --- reading the result back --------------------------------------------------------------


def read_glb(path):
    """The JSON chunk and the BIN chunk of a .glb."""
    with open(path, "rb") as f:
        data = f.read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF" or version != 2 or length != len(data):
        raise ValueError(f"{path}: not a glb 2.0 of its stated length")
    offset, document, binary = 12, None, b""
    while offset < len(data):
        chunk_length, kind = struct.unpack_from("<I4s", data, offset)
        chunk = data[offset + 8 : offset + 8 + chunk_length]
        if kind == b"JSON":
            document = json.loads(chunk)
        elif kind == b"BIN\0":
            binary = chunk
        offset += 8 + chunk_length
    return document, binary


def accessor_floats(document, binary, index):
    """The float values of an accessor, one tuple per element."""
    accessor = document["accessors"][index]
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[accessor["type"]]
    if accessor["componentType"] != 5126:
        raise ValueError(f"accessor {index} is not float")
    view = document["bufferViews"][accessor["bufferView"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    stride = view.get("byteStride", 4 * width)
    return [struct.unpack_from(f"<{width}f", binary, start + stride * i) for i in range(accessor["count"])]


def node_matrix(node):
    if "matrix" in node:
        m = node["matrix"]
        return Matrix([m[0:16:4], m[1:16:4], m[2:16:4], m[3:16:4]])
    t = Vector(node.get("translation", (0, 0, 0)))
    x, y, z, w = node.get("rotation", (0, 0, 0, 1))
    s = node.get("scale", (1, 1, 1))
    return Matrix.LocRotScale(t, Quaternion((w, x, y, z)), Vector(s))


def parents_of(document):
    parents = {}
    for index, node in enumerate(document.get("nodes", [])):
        for child in node.get("children", []):
            parents[child] = index
    return parents


def ancestors(document, index):
    parents = parents_of(document)
    chain = []
    while index in parents:
        index = parents[index]
        chain.append(index)
    return chain


def node_named(document, name):
    for index, node in enumerate(document.get("nodes", [])):
        if node.get("name") == name:
            return index, node
    raise AssertionError(f"no node named {name!r}")


def channels(document):
    return [(animation, channel) for animation in document.get("animations", []) for channel in animation["channels"]]


def check_rig(checks, name, document, binary, joints=4):
    skins = document.get("skins", [])
    checks.true(
        f"{name}: one skin of {joints} joints ({[len(s['joints']) for s in skins]})",
        len(skins) == 1 and len(skins[0]["joints"]) == joints,
    )
    skinned = [n for n in document["nodes"] if "skin" in n and "mesh" in n]
    checks.true(f"{name}: one skinned mesh node", len(skinned) == 1)
    if skinned:
        primitive = document["meshes"][skinned[0]["mesh"]]["primitives"][0]
        count = document["accessors"][primitive["attributes"]["POSITION"]]["count"]
        checks.true(f"{name}: the skinned mesh has a few dozen vertices ({count})", 24 <= count <= 200)
        weights = (
            accessor_floats(document, binary, primitive["attributes"]["WEIGHTS_0"])
            if document["accessors"][primitive["attributes"]["WEIGHTS_0"]]["componentType"] == 5126
            else []
        )
        two = sum(1 for w in weights if sum(1 for v in w if v > 1e-6) == 2)
        checks.true(
            f"{name}: every vertex weighted over 2 bones ({two} of {len(weights)})", weights and two == len(weights)
        )
    animated = {
        document["nodes"][c["target"]["node"]].get("name") for _a, c in channels(document) if "node" in c["target"]
    }
    checks.true(f"{name}: bones animated ({sorted(animated)})", set(BONES) <= animated)
    frames = set()
    for animation in document.get("animations", []):
        for sampler in animation["samplers"]:
            frames.add(len(accessor_floats(document, binary, sampler["input"])))
    checks.true(f"{name}: about 10 frames of keys ({sorted(frames)})", max(frames or {0}) >= 3)
    return skins[0] if skins else None


def verify(checks, name, path):
    document, binary = read_glb(path)
    size = os.path.getsize(path)
    checks.true(f"{name}: {size} bytes, at most {MAX_SIZE}", size <= MAX_SIZE)
    nodes = document.get("nodes", [])
    seen = []
    if name == "armature_under_empty.glb":
        check_rig(checks, name, document, binary)
        index, placement = node_named(document, "Placement")
        m = node_matrix(placement)
        scale = m.to_scale()
        checks.true(f"{name}: Placement scaled 0.5 ({tuple(scale)})", all(abs(s - 0.5) < 1e-5 for s in scale))
        angle = m.to_quaternion().angle
        checks.true(f"{name}: Placement turned ({math.degrees(angle):.1f} degrees)", angle > math.radians(10))
        root = node_named(document, "Root")[0]
        checks.true(f"{name}: the joints lie under Placement", index in ancestors(document, root))
        seen.append(f"Placement turned {math.degrees(angle):.1f} deg, scale 0.5, over the 4 joints")
    elif name == "z_up_root.glb":
        check_rig(checks, name, document, binary)
        index, root = node_named(document, "Z_UP")
        q = node_matrix(root).to_quaternion()
        expected = Quaternion((1, 0, 0), math.radians(-90))
        checks.true(f"{name}: Z_UP is a root node", index in document["scenes"][0]["nodes"])
        checks.true(f"{name}: Z_UP turned -90 degrees about X ({tuple(q)})", abs(abs(q.dot(expected)) - 1) < 1e-5)
        joint = node_named(document, "Root")[0]
        checks.true(f"{name}: the joints lie under Z_UP", index in ancestors(document, joint))
        # Y-up conversion off: the bones' rest offsets run along the file's +Y (Blender's
        # bones point along their local Y) and the rig's Z-up shows in the root.
        seen.append(f"root Z_UP rotation {tuple(round(v, 4) for v in q)} (wxyz), Y-up conversion off")
    elif name == "bind_scale_100.glb":
        skin = check_rig(checks, name, document, binary)
        ibms = accessor_floats(document, binary, skin["inverseBindMatrices"]) if skin else []
        scales = []
        for m in ibms:
            matrix = Matrix([m[0:16:4], m[1:16:4], m[2:16:4], m[3:16:4]])
            scales.append(tuple(matrix.to_scale()))
        checks.true(
            f"{name}: every inverse bind matrix scales by 100 ({scales})",
            scales and all(abs(s - 100) < 1e-2 for sc in scales for s in sc),
        )
        arm = node_named(document, "RigCm")[1]
        checks.true(
            f"{name}: the armature node is scaled 0.01 ({arm.get('scale')})",
            all(abs(s - 0.01) < 1e-7 for s in arm.get("scale", (1, 1, 1))),
        )
        seen.append("inverse bind matrices scale 100, armature node scale 0.01")
    elif name == "unskinned_animated.glb":
        checks.true(f"{name}: no skin", not document.get("skins"))
        index, crate = node_named(document, "Crate")
        checks.true(f"{name}: Crate has a mesh", "mesh" in crate)
        paths = {c["target"]["path"] for _a, c in channels(document) if c["target"].get("node") == index}
        checks.true(
            f"{name}: Crate's translation, rotation and scale animated ({sorted(paths)})",
            paths == {"translation", "rotation", "scale"},
        )
        seen.append(f"mesh node Crate animated: {', '.join(sorted(paths))}")
    elif name == "instanced.glb":
        users = [n for n in nodes if "mesh" in n]
        meshes = {n["mesh"] for n in users}
        checks.true(
            f"{name}: 3 nodes share one mesh ({len(users)} nodes, meshes {sorted(meshes)})",
            len(users) == 3 and len(meshes) == 1 and len(document["meshes"]) == 1,
        )
        distinct = {tuple(round(v, 4) for row in node_matrix(n) for v in row) for n in users}
        checks.true(f"{name}: the 3 nodes are placed apart", len(distinct) == 3)
        nonuniform = [n.get("scale") for n in users if n.get("scale") and max(n["scale"]) - min(n["scale"]) > 0.1]
        checks.true(f"{name}: one instance scaled non-uniformly", len(nonuniform) == 1)
        seen.append(
            f"{len(users)} nodes share mesh {sorted(meshes)[0]}, one scaled {nonuniform[0] if nonuniform else None}"
        )
    elif name == "cameras.glb":
        kinds = sorted(c["type"] for c in document.get("cameras", []))
        checks.true(
            f"{name}: a perspective and an orthographic camera ({kinds})", kinds == ["orthographic", "perspective"]
        )
        checks.true(
            f"{name}: no extension required ({document.get('extensionsRequired')})",
            not document.get("extensionsRequired"),
        )
        seen.append(f"cameras {kinds}, no lights, no extension")
    elif name == "cameras_light.glb":
        cameras = document.get("cameras", [])
        kinds = sorted(c["type"] for c in cameras)
        checks.true(
            f"{name}: a perspective and an orthographic camera ({kinds})", kinds == ["orthographic", "perspective"]
        )
        lights = document.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", [])
        light_kinds = sorted(l["type"] for l in lights)
        checks.true(f"{name}: a point and a spot light ({light_kinds})", light_kinds == ["point", "spot"])
        holders = [n for n in nodes if "camera" in n or "KHR_lights_punctual" in n.get("extensions", {})]
        checks.true(f"{name}: four nodes hold them", len(holders) == 4)
        placed = {tuple(round(v, 3) for v in node_world(document, nodes.index(n)).to_translation()) for n in holders}
        checks.true(f"{name}: at distinct places", len(placed) == 4)
        checks.true(
            f"{name}: KHR_lights_punctual declared", "KHR_lights_punctual" in document.get("extensionsUsed", [])
        )
        seen.append(f"cameras {kinds}, lights {light_kinds}, 4 holder nodes apart")
    elif name == "shape_keys.glb":
        mesh = document["meshes"][node_named(document, "Sheet")[1]["mesh"]]
        still = document["meshes"][node_named(document, "SheetStill")[1]["mesh"]]
        still_weights = still.get("weights", [])
        checks.true(
            f"{name}: SheetStill's default weights 0.3, 0.7 ({still_weights})",
            len(still_weights) == 2 and abs(still_weights[0] - 0.3) < 1e-6 and abs(still_weights[1] - 0.7) < 1e-6,
        )
        weights = mesh.get("weights", [])
        targets = len(mesh["primitives"][0].get("targets", []))
        checks.true(f"{name}: 3 morph targets ({targets})", targets == 3)
        checks.true(
            f"{name}: default weights 0.3, 0.7, 0 ({weights})",
            len(weights) == 3
            and abs(weights[0] - 0.3) < 1e-6
            and abs(weights[1] - 0.7) < 1e-6
            and abs(weights[2]) < 1e-6,
        )
        morph = [c for _a, c in channels(document) if c["target"]["path"] == "weights"]
        checks.true(
            f"{name}: one weights channel, on Sheet",
            len(morph) == 1 and document["nodes"][morph[0]["target"]["node"]].get("name") == "Sheet",
        )
        seen.append(
            f"Sheet: mesh.weights {[round(w, 6) for w in weights]}, {targets} targets, weights animated; "
            f"SheetStill: mesh.weights {[round(w, 6) for w in still_weights]}, not animated"
        )
    elif name == "pbr_textures.glb":
        material = document["materials"][0]
        pbr = material.get("pbrMetallicRoughness", {})
        slots = {
            "baseColorTexture": pbr.get("baseColorTexture"),
            "metallicRoughnessTexture": pbr.get("metallicRoughnessTexture"),
            "normalTexture": material.get("normalTexture"),
            "occlusionTexture": material.get("occlusionTexture"),
            "emissiveTexture": material.get("emissiveTexture"),
        }
        for slot, info in slots.items():
            checks.true(f"{name}: {slot} present", info is not None)
        types = {}
        for slot, info in slots.items():
            if info is None:
                continue
            image = document["images"][document["textures"][info["index"]]["source"]]
            types[slot] = image.get("mimeType")
        checks.true(
            f"{name}: the emissive image is a JPEG, the others PNG ({types})",
            types.get("emissiveTexture") == "image/jpeg"
            and all(t == "image/png" for s, t in types.items() if s != "emissiveTexture"),
        )
        sets = {slot: info.get("texCoord", 0) for slot, info in slots.items() if info}
        checks.true(f"{name}: occlusion read on the second UV map ({sets})", sets.get("occlusionTexture") == 1)
        attributes = document["meshes"][0]["primitives"][0]["attributes"]
        checks.true(
            f"{name}: two UV maps ({sorted(attributes)})", "TEXCOORD_0" in attributes and "TEXCOORD_1" in attributes
        )
        checks.true(f"{name}: five images", len(document.get("images", [])) == 5)
        seen.append(f"slots {sorted(types)}; mime {sorted(set(types.values()))}; texCoord {sets}")
    elif name == "step_cubic.glb":
        found = {}
        for animation, channel in channels(document):
            sampler = animation["samplers"][channel["sampler"]]
            found[channel["target"]["path"]] = sampler.get("interpolation", "LINEAR")
        checks.true(f"{name}: translation STEP ({found})", found.get("translation") == "STEP")
        checks.true(f"{name}: scale CUBICSPLINE ({found})", found.get("scale") == "CUBICSPLINE")
        seen.append(f"interpolations {found}")
    return size, "; ".join(seen)


def node_world(document, index):
    parents = parents_of(document)
    matrix = node_matrix(document["nodes"][index])
    while index in parents:
        index = parents[index]
        matrix = node_matrix(document["nodes"][index]) @ matrix
    return matrix


ASSETS = {
    "armature_under_empty.glb": armature_under_empty,
    "z_up_root.glb": z_up_root,
    "bind_scale_100.glb": bind_scale_100,
    "unskinned_animated.glb": unskinned_animated,
    "instanced.glb": instanced,
    "cameras_light.glb": cameras_light,
    "cameras.glb": cameras,
    "shape_keys.glb": shape_keys,
    "pbr_textures.glb": pbr_textures,
    "step_cubic.glb": step_cubic,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "testdata", "graph"))
    parser.add_argument("--only", help="comma-separated file names to make (default: all)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(f"Blender {bpy.app.version_string}")
    checks = Checks()
    wanted = args.only.split(",") if args.only else list(ASSETS)
    for name in wanted:
        path = os.path.join(args.out, name)
        try:
            ASSETS[name](path)
            size, seen = verify(checks, name, path)
            print(f"{name}: {size} bytes: {seen}")
        except Exception:  # every asset is tried
            import traceback

            checks.true(f"{name}: made without an exception:\n{traceback.format_exc()}", False)
    for failure in checks.failures:
        print(f"FAIL {failure}")
    print(f"{checks.passed} checks passed" + (f", {len(checks.failures)} failed" if checks.failures else ""))
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
