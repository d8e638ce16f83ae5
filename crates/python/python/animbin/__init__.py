"""animbin: read, inspect, validate, convert and build game animation and model files.

SEAnim, SEModel, Cast, Resonite's AnimX (and AnimJ), Shining Force III x8an battle
animations, the Dash Model Format 1.5 and glTF 2.0, through one entry point::

    import animbin

    doc = animbin.open("reload.seanim")
    print(doc.format, doc.info()["bone_count"])
    scene = doc.scene()                      # NumPy arrays
    open("reload.glb", "wb").write(doc.to_gltf(z_up=True))

Every error the library reports about an input or a scene is a ``FormatError`` (a
``ValueError``) with ``format`` and ``offset``, naming the file; a file that the system
does not let animbin read or write is the matching ``OSError`` (``FileNotFoundError``,
``PermissionError``...) with its ``filename``; what a conversion cannot carry over is a
``LossWarning``. Documents pickle (``multiprocessing``, Dask).

``animbin.pose`` holds animbin's rules for what an animation's kind means for a key
(``apply_translation``, ``remove_rotation``, ``effective_kinds`` ...), over NumPy arrays.
"""

from __future__ import annotations

import sys as _sys
from typing import Any as _Any

from ._errors import FormatError, LossWarning
from ._scene import (
    Animation,
    BoneTrack,
    Hair,
    Instance,
    Material,
    Mesh,
    MorphTarget,
    PropertyTrack,
    Scene,
    Skeleton,
    Texture,
    WeightTrack,
    transform_matrices,
)
from ._animbin import FORMATS, TARGETS, Document, __version__, file_name, find_texture, formats, undump
from ._animbin import _from_scene, _open
from ._animbin import pose

# The native submodule, importable as ``import animbin.pose`` / ``from animbin.pose import ...``
# (a submodule, so not in ``__all__``).
_sys.modules[__name__ + ".pose"] = pose

__all__ = [
    "FORMATS",
    "TARGETS",
    "Animation",
    "BoneTrack",
    "Document",
    "FormatError",
    "Hair",
    "Instance",
    "LossWarning",
    "Material",
    "Mesh",
    "MorphTarget",
    "PropertyTrack",
    "Scene",
    "Skeleton",
    "Texture",
    "WeightTrack",
    "__version__",
    "file_name",
    "find_texture",
    "formats",
    "from_scene",
    "open",
    "transform_matrices",
    "undump",
]


def open(  # noqa: A001 (the module's own open)
    source: _Any,
    format: str | None = None,
    *,
    max_input_size: int | str | None = None,
    max_accessor_values: int | str | None = None,
) -> Document:
    """Reads a file of any supported format.

    ``source`` is a path (``str`` or ``os.PathLike``) or the file's bytes (``bytes``,
    ``bytearray``, ``memoryview``). The format is detected from magic bytes (JSON inputs:
    an animbin dump, AnimJ, DMF JSON or glTF); x8an files have none and are recognised by
    the name ``x8an*.bin``, or by ``format="sf3"``. ``format`` is one of ``FORMATS``; an
    unknown name is a ``ValueError`` listing the valid ones. Input that does not read is a
    ``FormatError`` naming the file, the format and the byte offset; a path the system does
    not let animbin read, the matching ``OSError`` (``FileNotFoundError``...).

    A path is read into memory (never mapped) in chunks with the GIL released, so that
    Ctrl-C (``KeyboardInterrupt``) ends a long read (a huge file, a device, a pipe no one
    writes to), and at most ``max_input_size`` bytes of it: 4 GiB by default, else an int
    (bytes) or text with a binary unit (``"64M"``, ``"8G"``), as the command's
    ``--max-input-size`` takes it. A larger regular file is refused before it is read, a
    pipe or a device once it passes the limit (a ``FormatError`` naming the limit, its
    ``__cause__`` an ``OSError`` with ``errno.EFBIG``). The texture files the document's
    conversions read beside it count against the same limit.

    ``max_accessor_values`` bounds what a glTF's accessors give in all (16 values a byte
    of its buffers by default, at least 16,777,216; an int or text as for
    ``max_input_size``, as the command's ``--max-accessor-values``): a file past it is a
    ``FormatError`` naming the accessor and the budget. Running out of memory while a path
    is read or a document converted raises ``MemoryError``, and nothing is written.
    """
    return _open(source, format, max_input_size, max_accessor_values)


def from_scene(scene: Scene, format: str, **options: _Any) -> Document:
    """Builds a document of ``format`` (one of ``TARGETS`` except ``"json"``) from a scene,
    for export: ``animbin.from_scene(scene, "seanim").write("walk.seanim")``.

    Options (keywords): ``framerate``, ``z_up``, ``scale``, ``strict``, ``anim_type``,
    ``looped``, ``precision``, ``normalize_rotations`` (see ``Document``). What the format
    cannot hold is a ``LossWarning`` (with ``strict=True``, a ``FormatError``). Every array
    is checked for its shape and converted to its dtype; one that does not fit (or holds a
    value its dtype cannot: a negative index, 1e300 as float32) is a ``ValueError`` naming
    the field by its place (``meshes[0].faces[2]``). The library then checks what every
    format needs (frames in increasing order, finite values, positive frame rates, indices
    in range, no parent cycles), naming the field the same way in a ``FormatError``.
    """
    if not isinstance(scene, Scene):
        raise TypeError(f"from_scene: expected an animbin.Scene, got {type(scene).__name__}")
    return _from_scene(scene._to_native(), format, options)
