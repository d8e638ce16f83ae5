"""Instances of other scene files between the scene and Blender: each ``animbin.Instance``
is an Empty that instances a collection (Blender's linked duplicates), and back for export.

Import (``importer``) reads each referenced file once per import into a collection of its
own, which the view layer excludes (it shows only through its instances), and gives every
instance of it an Empty with ``instance_type = 'COLLECTION'``. The referenced file is read as
it is, without an up-axis turn of its own: its coordinates are taken to be in the instancing
file's axes, and the Empty carries the instancing file's turn and the instance's placement.
The path as the file writes it rides on the Empty's ``animbin_instance_path`` property, the
instance's name as the file gives it on ``blend.NAME_PROPERTY``; export writes both back,
with the Empty's world transform (in the file's axes) as the placement.
"""

from __future__ import annotations

import os

import numpy as np

import bpy

import animbin

from . import blend

# The referenced file's path as the instancing file writes it.
PATH_PROPERTY = "animbin_instance_path"


def resolve(path: str, folder: str) -> str:
    """Where the file an instance names is: an absolute path as it is, a relative one
    against ``folder`` (the instancing file's); backslashes (Windows tools') as separators."""
    native = path.replace("\\", "/") if os.sep == "/" else path
    return os.path.normpath(native if os.path.isabs(native) else os.path.join(folder, native))


def build_empty(context, instance, collection):
    """An Empty for ``instance``, linked to ``context.collection``, instancing
    ``collection`` (None: the referenced file could not be read; the Empty keeps the path)."""
    stem = os.path.splitext(os.path.basename(instance.path.replace("\\", "/")))[0]
    obj = bpy.data.objects.new(instance.name or stem or "instance", None)
    context.collection.objects.link(obj)
    obj[PATH_PROPERTY] = instance.path
    obj[blend.NAME_PROPERTY] = instance.name
    if collection is not None:
        obj.instance_type = "COLLECTION"
        obj.instance_collection = collection
    return obj


def exclude(context, collection) -> None:
    """Leaves ``collection`` out of the view layer (its objects show only where instanced)."""

    def find(layer):
        if layer.collection == collection:
            return layer
        for child in layer.children:
            found = find(child)
            if found is not None:
                return found
        return None

    layer = find(context.view_layer.layer_collection)
    if layer is not None:
        layer.exclude = True


def is_instance(obj) -> bool:
    """Whether ``obj`` is an imported instance (an Empty with the path property)."""
    return obj.type == "EMPTY" and PATH_PROPERTY in obj


def instance_of(obj, matrix, scale: float) -> animbin.Instance:
    """The Empty ``obj`` as an ``animbin.Instance`` placed by ``matrix`` (its world transform
    in the file's axes), lengths times ``scale``."""
    t, r, s = matrix.decompose()
    placement = (
        np.array(tuple(t), dtype=np.float64) * scale,
        np.array((r.x, r.y, r.z, r.w), dtype=np.float64),
        np.array(tuple(s), dtype=np.float64),
    )
    return animbin.Instance(str(obj.get(blend.NAME_PROPERTY, obj.name)), str(obj[PATH_PROPERTY]), placement)
