"""IK handles, constraints and the model name between the scene and Blender.

Import: an IK handle is an ``IK`` constraint on its end bone (``chain_count`` the bones from
the start bone down to the end bone, the end bone's head reaching the target as a Cast / Maya
joint does, so ``use_tail`` off; the pole vector bone as the pole target, ``use_rotation`` for
the target's rotation); a point / orient / scale constraint is ``COPY_LOCATION`` /
``COPY_ROTATION`` / ``COPY_SCALE`` on the constrained bone (``use_x/y/z`` off for skipped
axes, ``influence`` the weight, maintain offset as the constraint's offset mode). What Blender
has no field for (an IK target offset, a twist (pole) bone, a custom offset, whether a weight
was stated) is kept as JSON in the pose bone's ``animbin_rig`` property, by constraint name, so
an export gives it back. The model name is the armature object's ``animbin_model_name``.

Export: the same constraints, read in bone order and then stack order, back to the scene's
``ik_handles`` and ``constraints`` (other constraint types are reported as not written).
"""

from __future__ import annotations

import json

RIG_PROPERTY = "animbin_rig"
MODEL_NAME_PROPERTY = "animbin_model_name"

KINDS = {"point": "COPY_LOCATION", "orient": "COPY_ROTATION", "scale": "COPY_SCALE"}
KIND_OF = {v: k for k, v in KINDS.items()}


def _chain_length(parents, start: int, end: int) -> int:
    """Bones from ``end`` up to ``start``, both counted; 0 (Blender's whole chain) when
    ``start`` is not an ancestor of ``end``."""
    count, bone = 1, end
    seen = set()
    while bone != start:
        if bone in seen or bone < 0:
            return 0
        seen.add(bone)
        bone = int(parents[bone])
        count += 1
    return count


def add_constraints(armature_object, bone_names: list, skeleton, result) -> None:
    """The skeleton's IK handles and constraints as pose-bone constraints on
    ``armature_object`` (bones by their Blender names, index for index)."""
    handles = list(getattr(skeleton, "ik_handles", []) or [])
    constraints = list(getattr(skeleton, "constraints", []) or [])
    if not handles and not constraints:
        return
    pose = armature_object.pose
    extras: dict[str, dict] = {}

    def name_of(index):
        return None if index is None else bone_names[int(index)]

    for k, h in enumerate(handles):
        end = name_of(h["end"])
        c = pose.bones[end].constraints.new("IK")
        if h.get("name"):
            c.name = h["name"]
        c.use_tail = False
        c.chain_count = _chain_length(skeleton.parents, int(h["start"]), int(h["end"]))
        if h.get("target") is not None:
            c.target = armature_object
            c.subtarget = name_of(h["target"])
        if h.get("pole_vector") is not None:
            c.pole_target = armature_object
            c.pole_subtarget = name_of(h["pole_vector"])
        c.use_rotation = bool(h.get("use_target_rotation"))
        extra = {"handle": True, "named": bool(h.get("name")), "start": name_of(h["start"])}
        if h.get("target_offset") is not None:
            extra["target_offset"] = list(h["target_offset"])
        if h.get("pole") is not None:
            extra["pole"] = name_of(h["pole"])
        extras.setdefault(end, {})[c.name] = extra
    for c_data in constraints:
        bone = name_of(c_data["bone"])
        c = pose.bones[bone].constraints.new(KINDS[c_data["kind"]])
        if c_data.get("name"):
            c.name = c_data["name"]
        c.target = armature_object
        c.subtarget = name_of(c_data["target"])
        skip = c_data.get("skip") or (False, False, False)
        c.use_x, c.use_y, c.use_z = (not bool(s) for s in skip)
        weight = c_data.get("weight")
        c.influence = 1.0 if weight is None else float(weight)
        if c_data.get("maintain_offset"):
            if c.type == "COPY_ROTATION":
                c.mix_mode = "OFFSET"
            else:
                c.use_offset = True
        extra = {"named": bool(c_data.get("name")), "weight_given": weight is not None}
        if c_data.get("offset") is not None:
            extra["offset"] = list(c_data["offset"])
        extras.setdefault(bone, {})[c.name] = extra
    for bone, by_name in extras.items():
        pose.bones[bone][RIG_PROPERTY] = json.dumps(by_name)


def rig_of(armature_object, bone_index: dict, result) -> tuple[list, list]:
    """The armature's IK and copy constraints as ``(ik_handles, constraints)`` dicts of
    ``animbin.Skeleton``, bones by index in ``bone_index``."""
    handles, constraints = [], []
    skipped = 0
    for bone in armature_object.data.bones:
        pose_bone = armature_object.pose.bones[bone.name]
        try:
            extras = json.loads(pose_bone.get(RIG_PROPERTY, "{}"))
        except (TypeError, ValueError):
            extras = {}
        for c in pose_bone.constraints:
            extra = extras.get(c.name, {})
            own = c.target is armature_object if hasattr(c, "target") else False
            if c.type == "IK" and own and c.subtarget in bone_index:
                # The chain's top: chain_count bones up from the end bone (0: to the root).
                start = bone
                for _ in range(max(c.chain_count, 0) - 1 if c.chain_count else 10**9):
                    if start.parent is None:
                        break
                    start = start.parent
                pole = extra.get("pole")
                handles.append(
                    {
                        "name": c.name if extra.get("named", True) else "",
                        "start": bone_index[start.name],
                        "end": bone_index[bone.name],
                        "target": bone_index[c.subtarget],
                        "target_offset": tuple(extra["target_offset"]) if "target_offset" in extra else None,
                        "pole_vector": bone_index.get(c.pole_subtarget) if c.pole_target is armature_object else None,
                        "pole": bone_index.get(pole) if pole else None,
                        "use_target_rotation": bool(c.use_rotation),
                    }
                )
            elif c.type in KIND_OF and own and c.subtarget in bone_index:
                if c.type == "COPY_ROTATION":
                    maintain = c.mix_mode == "OFFSET"
                else:
                    maintain = bool(c.use_offset)
                weight = float(c.influence)
                constraints.append(
                    {
                        "name": c.name if extra.get("named", True) else "",
                        "kind": KIND_OF[c.type],
                        "bone": bone_index[bone.name],
                        "target": bone_index[c.subtarget],
                        "maintain_offset": maintain,
                        "offset": tuple(extra["offset"]) if "offset" in extra else None,
                        "weight": weight if extra.get("weight_given", weight != 1.0) else None,
                        "skip": (not c.use_x, not c.use_y, not c.use_z),
                    }
                )
            else:
                skipped += 1
    if skipped:
        result.warnings.append(
            f"not written: {skipped} bone constraints other than IK and copy location / rotation / scale on the armature's own bones"
        )
    return handles, constraints
