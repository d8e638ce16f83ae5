"""Hair between the scene and Blender: each ``animbin.Hair`` is a hair Curves object
(``bpy.data.hair_curves``), one curve per strand with the strand's particles as its points,
and back for export.

Hair is placed as the meshes are: animbin's scene model places the particles with the model
(``Scene.placement``), as the Cast author's own Blender and Maya importers do (the spec's
"world space" is the model's world, where its meshes are too). So a hair object is parented
to the armature (without an Armature modifier: hair has no skin weights), or, without one,
turned for the up axis and placed like a mesh; its points are the particles as the file has
them (times the import's scale), and an export writes them back in the space it writes the
meshes in. Its material is the hair's (an index into the scene's materials). The object is
named after the hair; the name as the file gives it rides on ``blend.NAME_PROPERTY``.
"""

from __future__ import annotations

import numpy as np

import bpy

import animbin

from . import blend


def build_hair(context, name: str, hair, materials: list, scale: float, result):
    """A Curves object for ``hair`` named ``name``, linked to ``context.collection``; None
    (reported) when its particles do not fill its strands."""
    segments = np.asarray(hair.segments, dtype=np.int64).reshape(-1)
    particles = np.asarray(hair.particles, dtype=np.float64).reshape(-1, 3)
    sizes = segments + 1
    if int(sizes.sum()) != len(particles):
        result.warnings.append(f"hair {name}: {len(particles)} particles for strands of {int(sizes.sum())}; not imported")
        return None
    data = bpy.data.hair_curves.new(name)
    # (An empty list crashes Blender 4.2 to 5.0: a hair without strands adds none.)
    if len(sizes):
        data.add_curves(sizes.tolist())
        data.position_data.foreach_set("vector", (particles * scale).astype(np.float32).ravel())
    index = hair.material
    if index is not None:
        if 0 <= index < len(materials):
            data.materials.append(materials[index])
        else:
            result.warnings.append(f"hair {name}: material {index} is past the file's {len(materials)}")
    obj = bpy.data.objects.new(name, data)
    context.collection.objects.link(obj)
    obj[blend.NAME_PROPERTY] = hair.name
    return obj


def hair_of(obj, matrix: np.ndarray, scale: float, material_index, result):
    """The Curves object ``obj`` as an ``animbin.Hair``: each curve a strand, its points in
    the space ``matrix`` ((4, 4)) times ``scale``; its first material slot's material through
    ``material_index`` (a Blender material, or None, to an index into the written scene's
    materials)."""
    data = obj.data
    count = len(data.curves)
    offsets = np.empty(count + 1, dtype=np.int64)
    data.curve_offset_data.foreach_get("value", offsets)
    co = np.empty(len(data.points) * 3, dtype=np.float64)
    if len(data.points):
        data.position_data.foreach_get("vector", co)
    co = co.reshape(-1, 3)
    particles = (co @ matrix[:3, :3].T + matrix[:3, 3]) * scale
    slots = [s.material for s in obj.material_slots]
    if len(slots) > 1:
        result.warnings.append(f"{obj.name}: hair holds one material; only the first slot's written")
    return animbin.Hair(
        str(obj.get(blend.NAME_PROPERTY, obj.name)),
        (np.diff(offsets) - 1).astype(np.uint32),
        particles.astype(np.float32),
        material=material_index(slots[0]) if slots else None,
    )
