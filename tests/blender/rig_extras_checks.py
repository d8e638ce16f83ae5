"""IK handles, constraints, the model name and colour layers in Blender, for
tests/blender/test_addon.py: a Cast file with an IK handle, point / orient / scale
constraints and a mesh with two colour layers, imported by the extension, gives an armature
named after the model with Blender IK and copy location / rotation / scale constraints on the
right bones with the file's settings and two colour attributes, and exported again to Cast
gives the same IK handles, constraints, name and colour layers."""

from __future__ import annotations

import os

import numpy as np

import bpy

import animbin

BONES = ["shoulder", "elbow", "wrist", "hand_target", "elbow_pole"]
PARENTS = [-1, 0, 1, -1, -1]
IK = {
    "name": "arm_ik",
    "start": 0,
    "end": 2,
    "target": 3,
    "target_offset": (0.0, 0.5, 0.0),
    "pole_vector": 4,
    "pole": 1,
    "use_target_rotation": True,
}
CONSTRAINTS = [
    {
        "name": "follow",
        "kind": "point",
        "bone": 4,
        "target": 3,
        "maintain_offset": True,
        "offset": (1.0, 2.0, 3.0),
        "weight": 0.5,
        "skip": (False, True, False),
    },
    {
        "name": "",
        "kind": "orient",
        "bone": 1,
        "target": 0,
        "maintain_offset": False,
        "offset": (0.5, 0.5, 0.5, 0.5),
        "weight": None,
        "skip": (True, False, True),
    },
    {
        "name": "",
        "kind": "scale",
        "bone": 3,
        "target": 0,
        "maintain_offset": False,
        "offset": None,
        "weight": 1.0,
        "skip": (False, False, False),
    },
]


QUAD = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
COLOR_LAYERS = [
    np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]], dtype=np.uint8),
    np.array([[10, 20, 30, 40], [50, 60, 70, 80], [90, 100, 110, 120], [130, 140, 150, 160]], dtype=np.uint8),
]


def _by_position(positions, layer):
    """Each vertex's colour keyed by its position, so vertex orders may differ."""
    return {tuple(np.round(p, 5).tolist()): tuple(int(v) for v in c) for p, c in zip(positions, layer)}


def rig_scene() -> animbin.Scene:
    """An arm (shoulder, elbow, wrist) with a hand target and an elbow pole, a quad skinned
    to the shoulder by dual quaternions, one IK handle and three constraints, in a model
    named ``arm_rig``."""
    translations = np.array([[0, 0, 0], [1, 0, 0], [1, 0, 0], [2, 1, 0], [1, -1, 0]], dtype=np.float32)
    skeleton = animbin.Skeleton(BONES, PARENTS, translations, ik_handles=[IK], constraints=CONSTRAINTS)
    mesh = animbin.Mesh(
        QUAD,
        [[0, 1, 2], [0, 2, 3]],
        bone_indices=np.zeros((4, 1), dtype=np.uint32),
        bone_weights=np.ones((4, 1), dtype=np.float32),
        skin_blend="dual_quaternion",
        color_layers=COLOR_LAYERS,
    )
    return animbin.Scene(skeleton, [mesh], name="arm_rig")


def check_rig_extras(checks, out_dir):
    cast_path = os.path.join(out_dir, "rig_extras.cast")
    animbin.from_scene(rig_scene(), "cast").write(cast_path)
    source = animbin.open(cast_path).scene()
    checks.equal("rig: the Cast file holds the IK handle", source.skeleton.ik_handles, [IK])
    checks.equal("rig: the Cast file holds the constraints", source.skeleton.constraints, CONSTRAINTS)
    checks.equal("skinning: the Cast file skins by dual quaternions", source.meshes[0].skin_blend, "dual_quaternion")

    bpy.ops.wm.read_factory_settings(use_empty=True)
    checks.equal("rig: Cast import", bpy.ops.import_scene.animbin_cast(filepath=cast_path), {"FINISHED"})
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    if not checks.equal("rig: one armature and one mesh", (len(armatures), len(meshes)), (1, 1)):
        return
    arm, mesh = armatures[0], meshes[0]
    checks.equal("rig: the armature is named after the model", arm.name, "arm_rig")
    # Objects share one namespace (the armature holds "arm_rig"); mesh data has its own.
    checks.equal("rig: the unnamed mesh is named after the model", mesh.data.name, "arm_rig")
    pose = arm.pose.bones

    iks = [c for c in pose["wrist"].constraints if c.type == "IK"]
    if checks.equal("rig: one IK constraint on the end bone", len(iks), 1):
        ik = iks[0]
        checks.equal("rig: IK name", ik.name, "arm_ik")
        checks.equal("rig: IK chain from the start bone", ik.chain_count, 3)
        checks.equal("rig: IK target", (ik.target, ik.subtarget), (arm, "hand_target"))
        checks.equal("rig: IK pole", (ik.pole_target, ik.pole_subtarget), (arm, "elbow_pole"))
        checks.equal("rig: IK uses the target's rotation", ik.use_rotation, True)
        checks.equal("rig: IK reaches with the end bone's head", ik.use_tail, False)
    others = {b: [c for c in pose[b].constraints if c.type != "IK"] for b in BONES}
    checks.equal(
        "rig: constraint types by bone",
        {b: [c.type for c in cs] for b, cs in others.items() if cs},
        {"elbow_pole": ["COPY_LOCATION"], "elbow": ["COPY_ROTATION"], "hand_target": ["COPY_SCALE"]},
    )
    if others["elbow_pole"]:
        c = others["elbow_pole"][0]
        checks.equal("rig: copy location target", (c.target, c.subtarget), (arm, "hand_target"))
        checks.equal("rig: copy location axes", (c.use_x, c.use_y, c.use_z), (True, False, True))
        checks.close("rig: copy location influence", c.influence, 0.5)
        checks.equal("rig: copy location keeps the offset", c.use_offset, True)
        checks.equal("rig: copy location name", c.name, "follow")
    if others["elbow"]:
        c = others["elbow"][0]
        checks.equal("rig: copy rotation target", (c.target, c.subtarget), (arm, "shoulder"))
        checks.equal("rig: copy rotation axes", (c.use_x, c.use_y, c.use_z), (False, True, False))
        checks.close("rig: copy rotation influence", c.influence, 1.0)
        checks.equal("rig: copy rotation replaces", c.mix_mode, "REPLACE")
    if others["hand_target"]:
        c = others["hand_target"][0]
        checks.equal("rig: copy scale target", (c.target, c.subtarget), (arm, "shoulder"))
        checks.equal("rig: copy scale axes", (c.use_x, c.use_y, c.use_z), (True, True, True))

    attributes = mesh.data.color_attributes
    if checks.equal("colour layers: two colour attributes", len(attributes), 2):
        positions = np.array([v.co[:] for v in mesh.data.vertices])
        for k, attribute in enumerate(attributes):
            values = np.empty(len(attribute.data) * 4)
            attribute.data.foreach_get("color_srgb", values)
            values = np.round(values.reshape(-1, 4) * 255.0).astype(np.uint8)
            checks.equal(
                f"colour layers: attribute {k} holds layer {k}",
                _by_position(positions, values),
                _by_position(QUAD, COLOR_LAYERS[k]),
            )

    # -> the extension's Cast export: the same IK handle, constraints, name and colours.
    for o in bpy.data.objects:
        o.select_set(True)
    bpy.context.view_layer.objects.active = arm
    out = os.path.join(out_dir, "rig_extras_again.cast")
    checks.equal("rig: Cast export", bpy.ops.export_mesh.animbin_cast(filepath=out), {"FINISHED"})
    back = animbin.open(out).scene()
    checks.equal("rig: exported model name", back.name, "arm_rig")
    skinning = [m for m in mesh.modifiers if m.type == "ARMATURE"]
    if checks.equal("skinning: one Armature modifier", len(skinning), 1):
        checks.true("skinning: dual quaternions import as preserve volume", skinning[0].use_deform_preserve_volume)
        checks.equal("skinning: preserve volume exports as dual quaternions", back.meshes[0].skin_blend, "dual_quaternion")
        skinning[0].use_deform_preserve_volume = False
        linear = os.path.join(out_dir, "rig_extras_linear.cast")
        checks.equal("skinning: Cast export without preserve volume", bpy.ops.export_mesh.animbin_cast(filepath=linear), {"FINISHED"})
        checks.equal("skinning: no preserve volume exports as linear", animbin.open(linear).scene().meshes[0].skin_blend, "linear")
    checks.equal("rig: exported bone names", back.skeleton.names, BONES)
    checks.equal("rig: exported IK handles", back.skeleton.ik_handles, source.skeleton.ik_handles)
    if checks.equal("colour layers: exported layer count", len(back.meshes[0].color_layers), 2):
        for k, layer in enumerate(back.meshes[0].color_layers):
            checks.equal(
                f"colour layers: exported layer {k}",
                _by_position(back.meshes[0].positions, layer),
                _by_position(QUAD, COLOR_LAYERS[k]),
            )
    by_bone = sorted(back.skeleton.constraints, key=lambda c: c["bone"])
    checks.equal(
        "rig: exported constraints (in bone order)",
        by_bone,
        sorted(source.skeleton.constraints, key=lambda c: c["bone"]),
    )
