"""The scene classes: animbin's neutral scene model as NumPy arrays.

Instances come from ``Document.scene()`` (arrays copied once from the file, owned by
NumPy, so they outlive the document) or are built by hand for ``from_scene``. Attributes
are plain and may be replaced; ``from_scene`` checks every array's shape and converts it
to its dtype, naming the field that does not fit by its place in the scene
(``meshes[0].faces[2]: -1 does not fit in uint32 (0 to 4294967295)``): a value that its
dtype cannot hold (a negative index, a float beyond float32) is refused, never wrapped or
turned into infinity. The library then checks what every format needs (sorted frames,
finite values, indices in range, no parent cycles; ``Scene::check``), naming fields the
same way.

Conventions: times in frames (float64) at the animation's framerate; quaternions x, y, z,
w; bone transforms local to the parent except ``global_*`` and ``bind_matrices``;
matrices indexed ``[row, column]`` for column vectors (``M @ v``), translation in
``[:3, 3]``.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

__all__ = [
    "Animation",
    "BoneTrack",
    "Hair",
    "Instance",
    "Material",
    "Mesh",
    "MorphTarget",
    "PropertyTrack",
    "Scene",
    "Skeleton",
    "Texture",
    "WeightTrack",
]

_KINDS = ("absolute", "additive", "relative", "delta")
_INTERPOLATIONS = ("linear", "step")
_TEXTURE_SLOTS = ("diffuse", "normal", "specular")


def _array(value: Any, dtype: Any, shape: Sequence[int | None], field: str) -> np.ndarray:
    """``value`` as a C-contiguous array of ``dtype`` and ``shape`` (``None``: any length).

    Values that ``dtype`` cannot hold are refused with the field and row named: integers
    (or floats) outside an integer dtype's range, fractions and non-finite values for an
    integer dtype, and finite numbers that a float dtype rounds to infinity (1e300 as
    float32), instead of NumPy's wrap-around, ``OverflowError`` or cast warning."""
    dtype = np.dtype(dtype)
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            source = value if isinstance(value, np.ndarray) else np.asarray(value)
            if dtype.kind in "iu":
                _check_integers(source, dtype, field)
            array = np.ascontiguousarray(source, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as e:
        if str(e).startswith(field):
            raise
        raise ValueError(f"{field}: cannot be read as an array of {dtype.name}: {e}") from None
    if dtype.kind == "f" and array.size and source.dtype != dtype:
        _check_overflow(source, array, field)
    # An empty list stands for no rows of any width.
    if array.size == 0 and array.ndim == 1 and len(shape) > 1 and all(d is not None for d in shape[1:]):
        array = array.reshape((0, *shape[1:]))
    fits = array.ndim == len(shape) and all(want is None or got == want for got, want in zip(array.shape, shape))
    if not fits:
        wanted = "(" + ", ".join("n" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
        raise ValueError(f"{field}: expected an array of shape {wanted}, got {array.shape}")
    return array


def _first(bad: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(bad)[0])


def _show(value: Any) -> str:
    """A value for a message: ``-1``, ``1e+300`` (not ``np.int64(-1)``)."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _row(field: str, at: tuple[int, ...]) -> str:
    """The field and the row of the element at ``at``: ``meshes[0].faces[3]``."""
    return f"{field}[{at[0]}]" if at else field


def _check_integers(source: np.ndarray, dtype: np.dtype, field: str) -> None:
    """Refuses values of ``source`` that ``dtype`` (an integer type) cannot hold."""
    if source.size == 0 or source.dtype.kind not in "iufO":
        return
    if source.dtype.kind == "O":
        try:
            numbers = source.astype(np.float64)
        except (TypeError, ValueError, OverflowError):
            return  # not numbers: the conversion says so
    else:
        numbers = source
    info = np.iinfo(dtype)
    if numbers.dtype.kind == "f":
        bad = ~np.isfinite(numbers) | (numbers != np.trunc(numbers)) | (numbers < info.min) | (numbers > info.max)
    else:
        bad = (numbers < info.min) | (numbers > info.max)
    if bad.any():
        at = _first(bad)
        raise ValueError(f"{_row(field, at)}: {_show(source[at])} does not fit in {dtype.name} ({info.min} to {info.max})")


def _check_overflow(source: np.ndarray, array: np.ndarray, field: str) -> None:
    """Refuses finite values of ``source`` that became infinite in ``array`` (a narrower
    float type)."""
    infinite = np.isinf(array)
    if not infinite.any():
        return
    try:
        wide = source.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        return
    bad = infinite & ~np.isinf(wide)
    if bad.any():
        at = _first(bad)
        largest = np.finfo(array.dtype).max
        raise ValueError(f"{_row(field, at)}: {_show(source[at])} is too large for {array.dtype.name} (largest {largest})")


def _rows(array: np.ndarray, rows: int, field: str, what: str) -> None:
    if len(array) != rows:
        raise ValueError(f"{field}: {len(array)} rows, but {what} is {rows}")


def _optional_index(value: Any, field: str) -> int | None:
    if value is None:
        return None
    index = int(value)
    if index < 0:
        raise ValueError(f"{field}: an index cannot be negative ({index})")
    return index


def _same(a: Any, b: Any) -> bool:
    """Field equality where arrays compare by shape, dtype and values (NaN equal to NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return bool(a == b)


def _describe(value: Any) -> str:
    return f"array{value.shape} {value.dtype}" if isinstance(value, np.ndarray) else repr(value)


class _Record:
    """Shared behaviour: construction from the native module without checks, equality of
    every field, and a short repr."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    @classmethod
    def _from_native(cls, fields: dict[str, Any]) -> Any:
        """An instance holding ``fields`` as they are (the native module made them right)."""
        obj = cls.__new__(cls)
        for name in cls._fields:
            object.__setattr__(obj, name, fields[name])
        return obj

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(_same(getattr(self, f), getattr(other, f)) for f in self._fields)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        parts = []
        for name in self._fields:
            value = getattr(self, name)
            if isinstance(value, np.ndarray):
                text = _describe(value)
            elif isinstance(value, list) and any(isinstance(v, np.ndarray) for v in value):
                text = "[" + ", ".join(_describe(v) for v in value) + "]"
            elif isinstance(value, (list, tuple)) and len(value) > 4:
                text = f"[{len(value)} items]"
            elif isinstance(value, bytes):
                text = f"<{len(value)} bytes>"
            else:
                text = repr(value)
            parts.append(f"{name}={text}")
        return f"{type(self).__name__}({', '.join(parts)})"


class Skeleton(_Record):
    """A bone hierarchy with its bind pose: N bones, parents before children where the
    source allows it.

    Attributes: ``names`` (list of str), ``parents`` ((N,) int32, -1 for a root),
    ``translations`` / ``rotations`` / ``scales`` ((N, 3) / (N, 4) x y z w / (N, 3)
    float32, local to the parent), ``global_translations`` / ``global_rotations`` /
    ``global_scales`` (the same in model space), ``cosmetic`` ((N,) bool: SE formats'
    attachments a game may skip), ``scale_compensate`` ((N,) bool: the bone does not inherit
    its parent's scale, Cast's ``ssc`` and Blender's inherit-scale ``'NONE'``; the parent's
    scale still stretches the bone's offset), ``rest_scale`` ((N, 3) float64: the scale that
    absolute scale keys are measured against, Cast's ``s``, ones for every other format; not
    part of the bind pose: an absolute key equal to it leaves the bone as at rest) and
    ``bind_matrices`` ((N, 4, 4) float32, computed from
    the global transforms: ``[row, column]`` for column vectors, translation in
    ``[:3, 3]``; ``mathutils.Matrix(m.tolist())`` is Blender's ``bone.matrix_local``).

    ``ik_handles`` and ``constraints`` are lists of dicts naming bones by index. An IK
    handle: ``name``, ``start``, ``end`` (the chain, top to tip), ``target``, ``pole_vector``
    and ``pole`` (bone indices or ``None``), ``target_offset`` ((x, y, z) or ``None``),
    ``use_target_rotation`` (bool). A constraint: ``name``, ``kind`` (``"point"``,
    ``"orient"`` or ``"scale"``: what the bone copies from its target), ``bone``, ``target``,
    ``maintain_offset`` (bool), ``offset`` ((x, y, z) for point and scale, (x, y, z, w) for
    orient, or ``None``), ``weight`` (float or ``None`` for 1) and ``skip`` ((x, y, z) bools:
    axes left alone). Cast's IKHandle and Constraint nodes; other formats have none.

    The skeleton is the scene's node list: ``plain`` ((N,) bool) marks the nodes that are
    not bones (a glTF's empties, the object above an armature, the nodes that place a mesh,
    a camera or a light; ``Scene.mesh_instances``, ``cameras`` and ``lights`` name nodes by
    index). The game formats hold bones only (all ``False``). A plain node's global
    transform is where it is in the model; a bone's is its bind pose.
    """

    __slots__ = (
        "names",
        "parents",
        "translations",
        "rotations",
        "scales",
        "global_translations",
        "global_rotations",
        "global_scales",
        "cosmetic",
        "scale_compensate",
        "rest_scale",
        "ik_handles",
        "constraints",
        "plain",
    )
    _fields = __slots__

    def __init__(
        self,
        names: Iterable[str],
        parents: Any,
        translations: Any = None,
        rotations: Any = None,
        scales: Any = None,
        *,
        global_translations: Any = None,
        global_rotations: Any = None,
        global_scales: Any = None,
        cosmetic: Any = None,
        scale_compensate: Any = None,
        ik_handles: Iterable[dict[str, Any]] = (),
        constraints: Iterable[dict[str, Any]] = (),
        rest_scale: Any = None,
        plain: Any = None,
    ) -> None:
        """Give the local transforms, the global ones, or both; the missing side is
        computed from the other through the hierarchy (as animbin's conversions do).
        Missing rotations are identity, missing scales 1, missing translations 0;
        ``cosmetic`` and ``scale_compensate`` default to all ``False``, ``rest_scale`` to
        ones."""
        self.names = [str(n) for n in names]
        n = len(self.names)
        self.ik_handles = [dict(h) for h in ik_handles]
        self.constraints = [dict(c) for c in constraints]
        self.parents = _array(parents, np.int32, (n,), "Skeleton.parents")
        self.scale_compensate = (
            np.zeros(n, dtype=bool)
            if scale_compensate is None
            else _array(scale_compensate, np.bool_, (n,), "Skeleton.scale_compensate")
        )
        have_local = any(v is not None for v in (translations, rotations, scales))
        have_global = any(v is not None for v in (global_translations, global_rotations, global_scales))
        local = _transforms(n, translations, rotations, scales, "Skeleton.")
        world = _transforms(n, global_translations, global_rotations, global_scales, "Skeleton.global_")
        if have_global and not have_local:
            from . import _animbin

            local = _animbin._other_side(self.parents, *world, True, self.scale_compensate)
        elif not have_global:
            from . import _animbin

            world = _animbin._other_side(self.parents, *local, False, self.scale_compensate)
        self.translations, self.rotations, self.scales = local
        self.global_translations, self.global_rotations, self.global_scales = world
        self.cosmetic = (
            np.zeros(n, dtype=bool) if cosmetic is None else _array(cosmetic, np.bool_, (n,), "Skeleton.cosmetic")
        )
        self.rest_scale = (
            np.ones((n, 3), dtype=np.float64)
            if rest_scale is None
            else _array(rest_scale, np.float64, (n, 3), "Skeleton.rest_scale")
        )
        self.plain = np.zeros(n, dtype=bool) if plain is None else _array(plain, np.bool_, (n,), "Skeleton.plain")

    def __len__(self) -> int:
        return len(self.names)

    @property
    def bind_matrices(self) -> np.ndarray:
        """(N, 4, 4) float32 model-space bind matrices (see the class docs)."""
        return transform_matrices(self.global_translations, self.global_rotations, self.global_scales).astype(np.float32)

    def _to_native(self, field: str = "Skeleton") -> dict[str, Any]:
        """The fields for the native module, named in errors after ``field`` (``skeleton``
        within a scene)."""
        names = [str(n) for n in self.names]
        n = len(names)
        parents = _array(self.parents, np.int32, (n,), f"{field}.parents")
        if (parents < -1).any():
            at = _first(parents < -1)
            raise ValueError(f"{_row(field + '.parents', at)}: {parents[at]} is neither a bone index nor -1")
        out: dict[str, Any] = {"names": names, "parents": parents}
        for name, width in (("translations", 3), ("rotations", 4), ("scales", 3)):
            for prefix in ("", "global_"):
                key = prefix + name
                out[key] = _array(getattr(self, key), np.float32, (n, width), f"{field}.{key}")
        out["cosmetic"] = _array(self.cosmetic, np.bool_, (n,), f"{field}.cosmetic")
        out["scale_compensate"] = _array(self.scale_compensate, np.bool_, (n,), f"{field}.scale_compensate")
        # Records made before rest scales existed (or with it set to None) have ones.
        rest_scale = getattr(self, "rest_scale", None)
        out["rest_scale"] = (
            np.ones((n, 3), dtype=np.float64)
            if rest_scale is None
            else _array(rest_scale, np.float64, (n, 3), f"{field}.rest_scale")
        )
        plain = getattr(self, "plain", None)
        out["plain"] = np.zeros(n, dtype=bool) if plain is None else _array(plain, np.bool_, (n,), f"{field}.plain")
        out["ik_handles"] = [dict(h) for h in self.ik_handles]
        out["constraints"] = [dict(c) for c in self.constraints]
        return out


def transform_matrices(translations: Any, rotations: Any, scales: Any) -> np.ndarray:
    """(N, 4, 4) float64 matrices of N translations (N, 3), rotations (N, 4) x y z w and
    scales (N, 3): ``[row, column]`` for column vectors, translation in ``[:3, 3]``, the
    scale applied first (``Skeleton.bind_matrices`` of the global transforms)."""
    t = np.ascontiguousarray(translations, dtype=np.float64).reshape(-1, 3)
    q = np.ascontiguousarray(rotations, dtype=np.float64).reshape(-1, 4)
    s = np.ascontiguousarray(scales, dtype=np.float64).reshape(-1, 3)
    # The library's own Transform::to_matrix, so that Python's matrices are the library's.
    from . import _animbin

    return _animbin._transform_matrices(t, q, s)


def _transforms(n: int, t: Any, r: Any, s: Any, prefix: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Translations, rotations and scales of n bones, identity where not given."""
    t = np.zeros((n, 3), np.float32) if t is None else _array(t, np.float32, (n, 3), prefix + "translations")
    if r is None:
        r = np.zeros((n, 4), np.float32)
        r[:, 3] = 1
    else:
        r = _array(r, np.float32, (n, 4), prefix + "rotations")
    s = np.ones((n, 3), np.float32) if s is None else _array(s, np.float32, (n, 3), prefix + "scales")
    return t, r, s


class Mesh(_Record):
    """A triangle mesh with V vertices and F faces.

    Attributes: ``name``; ``positions`` (V, 3) float32; ``normals`` (V, 3) float32 or
    ``None``; ``uv_layers``, a list of (V, 2) float32; ``color_layers``, a list of (V, 4)
    uint8 RGBA (Cast's c0, c1, ..., glTF's COLOR_0, ...); ``faces`` (F, 3) uint32;
    ``bone_indices`` (V, K) uint32 and ``bone_weights`` (V, K) float32, K influences per
    vertex with unused slots weighted 0, or both ``None`` for an unskinned mesh;
    ``skin_blend``, how the influences blend: ``"linear"`` or ``"dual_quaternion"`` (Cast's
    ``sm`` ``quaternion``, Blender's "preserve volume");
    ``materials``, indices into ``Scene.materials`` (one per UV layer in SEModel, one for
    the whole mesh elsewhere; ``None`` for no material); ``morph_targets``, a list of
    ``MorphTarget`` (blend shapes, shape keys); ``skin``, the index into ``Scene.skins`` that
    says how the weights were bound, or ``None`` (each bone's bind pose is then its global
    transform).
    """

    __slots__ = (
        "name",
        "positions",
        "normals",
        "uv_layers",
        "color_layers",
        "faces",
        "bone_indices",
        "bone_weights",
        "skin_blend",
        "materials",
        "morph_targets",
        "skin",
    )
    _fields = __slots__

    def __init__(
        self,
        positions: Any,
        faces: Any,
        *,
        name: str = "",
        normals: Any = None,
        uv_layers: Iterable[Any] = (),
        color_layers: Iterable[Any] = (),
        bone_indices: Any = None,
        bone_weights: Any = None,
        skin_blend: str = "linear",
        materials: Iterable[int | None] = (),
        material: int | None = None,
        morph_targets: Iterable[MorphTarget] = (),
        skin: int | None = None,
    ) -> None:
        """``material`` is a shorthand for ``materials=[material]``."""
        self.name = str(name)
        self.skin = _optional_index(skin, "Mesh.skin")
        self.morph_targets = list(morph_targets)
        self.positions = _array(positions, np.float32, (None, 3), "Mesh.positions")
        self.faces = _array(faces, np.uint32, (None, 3), "Mesh.faces")
        self.normals = None if normals is None else _array(normals, np.float32, (None, 3), "Mesh.normals")
        self.uv_layers = [_array(uv, np.float32, (None, 2), "Mesh.uv_layers") for uv in uv_layers]
        self.color_layers = [_array(c, np.uint8, (None, 4), "Mesh.color_layers") for c in color_layers]
        if (bone_indices is None) != (bone_weights is None):
            raise ValueError("Mesh: bone_indices and bone_weights go together (both or neither)")
        self.bone_indices = None if bone_indices is None else _array(bone_indices, np.uint32, (None, None), "Mesh.bone_indices")
        self.bone_weights = None if bone_weights is None else _array(bone_weights, np.float32, (None, None), "Mesh.bone_weights")
        self.skin_blend = _skin_blend(skin_blend, "Mesh.skin_blend")
        self.materials = [_optional_index(m, "Mesh.materials") for m in materials]
        if material is not None:
            if self.materials:
                raise ValueError("Mesh: give material or materials, not both")
            self.materials = [_optional_index(material, "Mesh.material")]

    @property
    def material(self) -> int | None:
        """The first of ``materials`` (``None`` when there is none)."""
        return self.materials[0] if self.materials else None

    def _to_native(self, field: str = "Mesh") -> dict[str, Any]:
        """The fields for the native module, named in errors after ``field`` (``meshes[0]``
        within a scene)."""
        positions = _array(self.positions, np.float32, (None, 3), f"{field}.positions")
        v = len(positions)
        normals = None
        if self.normals is not None:
            normals = _array(self.normals, np.float32, (None, 3), f"{field}.normals")
            _rows(normals, v, f"{field}.normals", "the vertex count")
        uv_layers = []
        for i, uv in enumerate(self.uv_layers):
            uv = _array(uv, np.float32, (None, 2), f"{field}.uv_layers[{i}]")
            _rows(uv, v, f"{field}.uv_layers[{i}]", "the vertex count")
            uv_layers.append(uv)
        color_layers = []
        for i, c in enumerate(self.color_layers):
            c = _array(c, np.uint8, (None, 4), f"{field}.color_layers[{i}]")
            _rows(c, v, f"{field}.color_layers[{i}]", "the vertex count")
            color_layers.append(c)
        if (self.bone_indices is None) != (self.bone_weights is None):
            raise ValueError(f"{field}: bone_indices and bone_weights go together (both or neither)")
        bone_indices = bone_weights = None
        if self.bone_indices is not None:
            bone_indices = _array(self.bone_indices, np.uint32, (None, None), f"{field}.bone_indices")
            bone_weights = _array(self.bone_weights, np.float32, (None, None), f"{field}.bone_weights")
            _rows(bone_indices, v, f"{field}.bone_indices", "the vertex count")
            if bone_weights.shape != bone_indices.shape:
                raise ValueError(
                    f"{field}.bone_weights: shape {bone_weights.shape} differs from bone_indices' {bone_indices.shape}"
                )
        return {
            "name": str(self.name),
            "positions": positions,
            "normals": normals,
            "uv_layers": uv_layers,
            "color_layers": color_layers,
            "faces": _array(self.faces, np.uint32, (None, 3), f"{field}.faces"),
            "bone_indices": bone_indices,
            "bone_weights": bone_weights,
            "skin_blend": _skin_blend(self.skin_blend, f"{field}.skin_blend"),
            "materials": [_optional_index(m, f"{field}.materials[{i}]") for i, m in enumerate(self.materials)],
            "morph_targets": [_native_of(t, MorphTarget, f"{field}.morph_targets[{i}]") for i, t in enumerate(self.morph_targets)],
            "skin": _optional_index(getattr(self, "skin", None), f"{field}.skin"),
        }


_SKIN_BLENDS = ("linear", "dual_quaternion")


def _skin_blend(value: Any, field: str) -> str:
    """A skin blend's name, refusing one the library does not know."""
    if value not in _SKIN_BLENDS:
        raise ValueError(f"{field}: {value!r} is not a skin blend; the blends are {', '.join(_SKIN_BLENDS)}")
    return str(value)


def _native_of(item: Any, cls: type, field: str) -> dict[str, Any]:
    """``item._to_native(field)``, refusing an item of another class."""
    if not isinstance(item, cls):
        raise TypeError(f"{field}: expected a {cls.__name__}, got {type(item).__name__}")
    return item._to_native(field)


class MorphTarget(_Record):
    """A morph target of a mesh (a blend shape, a shape key): ``name``; ``indices`` (K,)
    uint32, the vertices it moves (each once; the others stay); ``deltas`` (K, 3) float32,
    their offsets from the base positions at weight 1; ``normal_deltas`` (K, 3) float32 or
    ``None``; ``max_weight``, the largest weight it is meant to reach (Cast's ``ts``), or
    ``None``; ``default_weight``, the weight it has where nothing animates it (a glTF mesh's
    ``weights``), 0 for the base shape. A target of every vertex lists them all:
    ``indices=np.arange(V)``."""

    __slots__ = ("name", "indices", "deltas", "normal_deltas", "max_weight", "default_weight")
    _fields = __slots__

    def __init__(
        self,
        name: str,
        indices: Any = (),
        deltas: Any = (),
        *,
        normal_deltas: Any = None,
        max_weight: float | None = None,
        default_weight: float = 0.0,
    ) -> None:
        self.name = str(name)
        self.default_weight = float(default_weight)
        self.indices = _array(indices, np.uint32, (None,), "MorphTarget.indices")
        self.deltas = _array(deltas, np.float32, (None, 3), "MorphTarget.deltas")
        self.normal_deltas = None if normal_deltas is None else _array(normal_deltas, np.float32, (None, 3), "MorphTarget.normal_deltas")
        self.max_weight = None if max_weight is None else float(max_weight)

    def _to_native(self, field: str = "MorphTarget") -> dict[str, Any]:
        indices = _array(self.indices, np.uint32, (None,), f"{field}.indices")
        deltas = _array(self.deltas, np.float32, (None, 3), f"{field}.deltas")
        _rows(deltas, len(indices), f"{field}.deltas", "the number of indices")
        normal_deltas = None
        if self.normal_deltas is not None:
            normal_deltas = _array(self.normal_deltas, np.float32, (None, 3), f"{field}.normal_deltas")
            _rows(normal_deltas, len(indices), f"{field}.normal_deltas", "the number of indices")
        return {
            "name": str(self.name),
            "indices": indices,
            "deltas": deltas,
            "normal_deltas": normal_deltas,
            "max_weight": None if self.max_weight is None else float(self.max_weight),
            "default_weight": float(getattr(self, "default_weight", 0.0)),
        }


class WeightTrack(_Record):
    """The weight keys of the morph targets named ``target`` (on every mesh that has one,
    as Cast's ``bs`` curves drive them): ``frames`` (K,) float64 and ``weights`` (K,)
    float64, 0 for the base shape and 1 for the whole offset."""

    __slots__ = ("target", "frames", "weights")
    _fields = __slots__

    def __init__(self, target: str, frames: Any = (), weights: Any = ()) -> None:
        self.target = str(target)
        self.frames = _array(frames, np.float64, (None,), "WeightTrack.frames")
        self.weights = _array(weights, np.float64, (None,), "WeightTrack.weights")

    def _to_native(self, field: str = "WeightTrack") -> dict[str, Any]:
        frames = _array(self.frames, np.float64, (None,), f"{field}.frames")
        weights = _array(self.weights, np.float64, (None,), f"{field}.weights")
        _rows(weights, len(frames), f"{field}.weights", "the number of frames")
        return {"target": str(self.target), "frames": frames, "weights": weights}


class Hair(_Record):
    """Hair (Cast's Hair node): strands, each a polyline through consecutive particles.

    ``name``; ``segments`` (S,) uint32, the segments of each of the S strands; ``particles``
    (P, 3) float32, strand after strand, where a strand of k segments has k + 1 particles, so
    P is ``sum(segments + 1)``; in the model's space as the file stores them (Cast says world
    space), placed by ``Scene.placement`` like the meshes; ``material``, an index into
    ``Scene.materials`` or ``None``."""

    __slots__ = ("name", "segments", "particles", "material")
    _fields = __slots__

    def __init__(self, name: str, segments: Any = (), particles: Any = (), *, material: int | None = None) -> None:
        self.name = str(name)
        self.segments = _array(segments, np.uint32, (None,), "Hair.segments")
        self.particles = _array(particles, np.float32, (None, 3), "Hair.particles")
        self.material = _optional_index(material, "Hair.material")

    def _to_native(self, field: str = "Hair") -> dict[str, Any]:
        segments = _array(self.segments, np.uint32, (None,), f"{field}.segments")
        particles = _array(self.particles, np.float32, (None, 3), f"{field}.particles")
        expected = int(segments.sum(dtype=np.uint64)) + len(segments)
        if len(particles) != expected:
            raise ValueError(
                f"{field}.particles: {len(particles)} rows, but the segments call for {expected} "
                f"(a strand of k segments has k + 1 particles)"
            )
        return {
            "name": str(self.name),
            "segments": segments,
            "particles": particles,
            "material": _optional_index(self.material, f"{field}.material"),
        }


class Instance(_Record):
    """Another scene file placed in this one (Cast's Instance node), kept as a reference:
    ``name``; ``path``, the referenced file's path as the file states it (relative paths
    unresolved); ``placement``, where it sits, a tuple of translation (3,), rotation (4,)
    x y z w and scale (3,) float64 arrays like ``Scene.placement`` (``None``: the
    identity)."""

    __slots__ = ("name", "path", "placement")
    _fields = __slots__

    def __init__(self, name: str = "", path: str = "", placement: Any = None) -> None:
        self.name = str(name)
        self.path = str(path)
        self.placement = _placement(placement, "Instance.placement")

    def _to_native(self, field: str = "Instance") -> dict[str, Any]:
        return {
            "name": str(self.name),
            "path": str(self.path),
            "placement": _placement(self.placement, f"{field}.placement"),
        }


class Material(_Record):
    """A material: ``name``; ``textures``, slot (``"diffuse"``, ``"normal"``,
    ``"specular"``) to the texture's file name as the file states it (relative to the
    file's folder); ``texture``, an embedded texture used as the diffuse map (an index into
    ``Scene.textures``) or ``None``; ``base_color``, linear RGBA or ``None``.

    ``links`` are the embedded images in each physically based slot (a glTF material's), a
    list of dicts: ``slot`` (``"base_color"``, ``"normal"``, ``"metallic_roughness"``,
    ``"occlusion"`` or ``"emissive"``), ``texture`` (an index into
    ``Scene.textures``), ``uv_layer`` (int), ``strength`` (the normal map's scale or the
    occlusion's strength, or ``None`` for 1) and ``transform`` (``None`` or a dict of
    ``offset`` (u, v), ``rotation`` (radians), ``scale`` (u, v) and ``uv_layer`` (int or
    ``None``): ``KHR_texture_transform``). ``surface`` is ``None`` or a dict of ``metallic``,
    ``roughness``, ``emissive`` (linear r, g, b) and ``double_sided`` (bool)."""

    __slots__ = ("name", "textures", "texture", "base_color", "links", "surface")
    _fields = __slots__

    def __init__(
        self,
        name: str = "",
        textures: dict[str, str] | None = None,
        *,
        texture: int | None = None,
        base_color: Iterable[float] | None = None,
        links: Iterable[dict[str, Any]] = (),
        surface: dict[str, Any] | None = None,
    ) -> None:
        self.name = str(name)
        self.links = [dict(link) for link in links]
        self.surface = None if surface is None else dict(surface)
        self.textures = dict(textures or {})
        self.texture = _optional_index(texture, "Material.texture")
        self.base_color = None if base_color is None else _color(base_color, "Material.base_color")

    def _to_native(self, field: str = "Material") -> dict[str, Any]:
        textures = {str(k): str(v) for k, v in self.textures.items()}
        unknown = sorted(set(textures) - set(_TEXTURE_SLOTS))
        if unknown:
            raise ValueError(f"{field}.textures: unknown slot {unknown[0]!r}; the slots are {', '.join(_TEXTURE_SLOTS)}")
        return {
            "name": str(self.name),
            "textures": textures,
            "texture": _optional_index(self.texture, f"{field}.texture"),
            "base_color": None if self.base_color is None else _color(self.base_color, f"{field}.base_color"),
            "links": [_dict(link, f"{field}.links[{i}]") for i, link in enumerate(getattr(self, "links", ()))],
            "surface": None if getattr(self, "surface", None) is None else _dict(self.surface, f"{field}.surface"),
        }


def _dict(value: Any, field: str) -> dict[str, Any]:
    """A copy of the dict ``value``, refusing anything else."""
    if not isinstance(value, dict):
        raise TypeError(f"{field}: expected a dict, got {type(value).__name__}")
    return dict(value)


def _color(value: Iterable[float], field: str) -> tuple[float, float, float, float]:
    rgba = tuple(float(c) for c in value)
    if len(rgba) != 4:
        raise ValueError(f"{field}: expected 4 components (RGBA), got {len(rgba)}")
    return rgba  # type: ignore[return-value]


class Texture(_Record):
    """An embedded image, kept encoded as the file holds it: ``name``; ``png``, the encoded
    bytes (PNG for DMF; PNG, JPEG or WebP from a glTF: the attribute keeps its first name);
    ``mime_type`` (``"image/webp"``), empty where the bytes say it, as a PNG's and a JPEG's
    do."""

    __slots__ = ("name", "png", "mime_type")
    _fields = __slots__

    def __init__(self, name: str, png: bytes, mime_type: str = "") -> None:
        self.name = str(name)
        self.png = bytes(png)
        self.mime_type = str(mime_type)

    def _to_native(self, field: str = "Texture") -> dict[str, Any]:
        return {"name": str(self.name), "png": bytes(self.png), "mime_type": str(getattr(self, "mime_type", ""))}


class BoneTrack(_Record):
    """The keys of one bone. Each channel has its own key frames, float64 in frames:
    ``rotation_frames`` (K,) with ``rotations`` (K, 4) x y z w, ``translation_frames`` with
    ``translations`` (K, 3), ``scale_frames`` with ``scales`` (K, 3), all local to the
    parent. The values are in the file's precision: float32 for a single-precision file
    (SEAnim without high precision, Cast, AnimX, DMF, a glTF whose keys are all float32),
    float64 for a double-precision one (SEAnim's high precision, x8an's fixed point, whose
    rotations are computed); see ``Animation.dtype``. Built by hand, float32 arrays stay
    float32 and anything else becomes float64. ``kind`` overrides the animation's kind for
    this bone and its children (SEAnim modifiers), or is ``None``; ``channel_overrides`` does so per channel
    (a dict such as ``{"rotation": "absolute"}``: Cast's CurveModeOverride flags) and wins
    over ``kind`` for the channels it names; ``channel_kinds`` is the kind of this track's
    own keys per channel where it is not the animation's (Cast keeps a mode on each curve);
    ``cosmetic`` marks a cosmetic bone. ``curves`` says how a channel's keys are joined where it
    is not the animation's ``interpolation`` (a glTF sampler of its own): channel name to
    ``{"type": "linear"}``, ``{"type": "step"}`` or ``{"type": "cubic_spline", "incoming":
    (K, n), "outgoing": (K, n)}``, the float64 tangents arriving at and leaving each key, per
    second (n is 3 for translation and scale, 4 for rotation); a conversion to a format
    without them samples or holds the keys and says so."""

    __slots__ = (
        "bone",
        "kind",
        "channel_kinds",
        "channel_overrides",
        "cosmetic",
        "rotation_frames",
        "rotations",
        "translation_frames",
        "translations",
        "scale_frames",
        "scales",
        "curves",
    )
    _fields = __slots__

    def __init__(
        self,
        bone: str,
        *,
        rotation_frames: Any = (),
        rotations: Any = (),
        translation_frames: Any = (),
        translations: Any = (),
        scale_frames: Any = (),
        scales: Any = (),
        kind: str | None = None,
        cosmetic: bool = False,
        channel_kinds: dict[str, str] | None = None,
        channel_overrides: dict[str, str] | None = None,
        curves: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.bone = str(bone)
        self.curves = {str(k): dict(v) for k, v in (curves or {}).items()}
        self.kind = None if kind is None else _kind(kind, "BoneTrack.kind")
        self.channel_kinds = _channel_kinds(channel_kinds, "BoneTrack.channel_kinds")
        self.channel_overrides = _channel_kinds(channel_overrides, "BoneTrack.channel_overrides")
        self.cosmetic = bool(cosmetic)
        self.rotation_frames, self.rotations = _channel(rotation_frames, rotations, 4, "rotation")
        self.translation_frames, self.translations = _channel(translation_frames, translations, 3, "translation")
        self.scale_frames, self.scales = _channel(scale_frames, scales, 3, "scale")

    def _to_native(self, field: str = "BoneTrack") -> dict[str, Any]:
        """The fields for the native module, named in errors after ``field``
        (``animations[0].tracks[3]`` within a scene)."""
        out: dict[str, Any] = {
            "bone": str(self.bone),
            "kind": None if self.kind is None else _kind(self.kind, f"{field}.kind"),
            "channel_kinds": _channel_kinds(self.channel_kinds, f"{field}.channel_kinds"),
            "channel_overrides": _channel_kinds(self.channel_overrides, f"{field}.channel_overrides"),
            "cosmetic": bool(self.cosmetic),
            "curves": {str(k): _dict(v, f"{field}.curves[{k!r}]") for k, v in (getattr(self, "curves", None) or {}).items()},
        }
        for name, width in (("rotation", 4), ("translation", 3), ("scale", 3)):
            frames, values = _channel(getattr(self, name + "_frames"), getattr(self, name + "s"), width, name, field)
            out[name + "_frames"] = frames
            out[name + "s"] = values
        return out


_CHANNELS = ("translation", "rotation", "scale")


def _channel_kinds(value: Any, field: str) -> dict[str, str]:
    """A dict of channel name to kind name, checked."""
    out = {}
    for channel, kind in dict(value or {}).items():
        if channel not in _CHANNELS:
            raise ValueError(f"{field}: unknown channel {channel!r}; the channels are {', '.join(_CHANNELS)}")
        out[str(channel)] = _kind(kind, f"{field}[{channel!r}]")
    return out


def _channel(frames: Any, values: Any, width: int, name: str, field: str = "BoneTrack") -> tuple[np.ndarray, np.ndarray]:
    frames = _array(frames, np.float64, (None,), f"{field}.{name}_frames")
    # float32 values stay float32 (a single-precision file's, and what from_scene then
    # writes as single); anything else becomes float64.
    dtype = np.float32 if getattr(values, "dtype", None) == np.float32 else np.float64
    values = _array(values, dtype, (None, width), f"{field}.{name}s")
    _rows(values, len(frames), f"{field}.{name}s", f"the number of {name}_frames")
    return frames, values


def _kind(value: str, field: str) -> str:
    if value not in _KINDS:
        raise ValueError(f"{field}: unknown animation kind {value!r}; valid names: {', '.join(_KINDS)}")
    return value


class PropertyTrack(_Record):
    """A track animating something other than a bone transform (``node``, ``property``),
    kept in its source format's encoding (``format``, such as ``"animx"``; ``data``, bytes)
    so a trip through the scene keeps it."""

    __slots__ = ("node", "property", "format", "data")
    _fields = __slots__

    def __init__(self, node: str, property: str, format: str, data: bytes) -> None:
        self.node = str(node)
        self.property = str(property)
        self.format = str(format)
        self.data = bytes(data)

    def _to_native(self, field: str = "PropertyTrack") -> dict[str, Any]:
        return {"node": str(self.node), "property": str(self.property), "format": str(self.format), "data": bytes(self.data)}


class Animation(_Record):
    """One animation: ``name``; ``framerate`` (frames per second); ``frame_count``, the
    length in frames as the source states it (SEAnim: last key + 1); ``looping``; ``kind``
    (``"absolute"``, ``"additive"``, ``"relative"`` or ``"delta"``); ``interpolation``
    (``"linear"`` or ``"step"``); ``notes``, (frame, name) events (SEAnim notetracks,
    Blender's pose markers); ``tracks``, one ``BoneTrack`` per animated bone;
    ``properties``, ``PropertyTrack``s for everything else; ``weights``, one
    ``WeightTrack`` per animated morph target name. ``dtype`` is the dtype of the key
    values (see ``BoneTrack``)."""

    __slots__ = ("name", "framerate", "frame_count", "looping", "kind", "interpolation", "notes", "tracks", "properties", "weights")
    _fields = __slots__

    def __init__(
        self,
        name: str = "",
        tracks: Iterable[BoneTrack] = (),
        *,
        framerate: float = 30.0,
        frame_count: float | None = None,
        looping: bool = False,
        kind: str = "absolute",
        interpolation: str = "linear",
        notes: Iterable[tuple[float, str]] = (),
        properties: Iterable[PropertyTrack] = (),
        weights: Iterable[WeightTrack] = (),
    ) -> None:
        """``frame_count`` defaults to the last key's frame + 1 (0 without keys)."""
        self.weights = list(weights)
        self.name = str(name)
        self.tracks = list(tracks)
        self.framerate = float(framerate)
        self.looping = bool(looping)
        self.kind = _kind(kind, "Animation.kind")
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(f"Animation.interpolation: unknown {interpolation!r}; valid names: linear, step")
        self.interpolation = interpolation
        self.notes = [(float(frame), str(text)) for frame, text in notes]
        self.properties = list(properties)
        if frame_count is None:
            last = [float(f.max()) for t in self.tracks for f in (t.rotation_frames, t.translation_frames, t.scale_frames) if len(f)]
            last += [float(w.frames.max()) for w in self.weights if len(w.frames)]
            frame_count = max(last) + 1 if last else 0.0
        self.frame_count = float(frame_count)

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the key values: float32 when every track's values are float32
        (``Document.scene()`` of a single-precision file; ``from_scene`` then writes single
        precision where the format chooses, SEAnim), float64 otherwise (a double-precision
        file, mixed dtypes, or no keys). Empty arrays do not count."""
        arrays = [a for t in self.tracks for a in (t.rotations, t.translations, t.scales) if len(a)]
        single = bool(arrays) and all(getattr(a, "dtype", None) == np.float32 for a in arrays)
        return np.dtype(np.float32 if single else np.float64)

    def _to_native(self, field: str = "Animation") -> dict[str, Any]:
        """The fields for the native module, named in errors after ``field``
        (``animations[0]`` within a scene)."""
        if self.interpolation not in _INTERPOLATIONS:
            raise ValueError(f"{field}.interpolation: unknown {self.interpolation!r}; valid names: linear, step")
        for i, t in enumerate(self.tracks):
            if not isinstance(t, BoneTrack):
                raise TypeError(f"{field}.tracks[{i}]: expected a BoneTrack, got {type(t).__name__}")
        for i, p in enumerate(self.properties):
            if not isinstance(p, PropertyTrack):
                raise TypeError(f"{field}.properties[{i}]: expected a PropertyTrack, got {type(p).__name__}")
        return {
            "name": str(self.name),
            "framerate": float(self.framerate),
            "frame_count": float(self.frame_count),
            "looping": bool(self.looping),
            "kind": _kind(self.kind, f"{field}.kind"),
            "interpolation": self.interpolation,
            "notes": [(float(frame), str(text)) for frame, text in self.notes],
            "tracks": [t._to_native(f"{field}.tracks[{i}]") for i, t in enumerate(self.tracks)],
            "properties": [p._to_native(f"{field}.properties[{i}]") for i, p in enumerate(self.properties)],
            "weights": [_native_of(w, WeightTrack, f"{field}.weights[{i}]") for i, w in enumerate(self.weights)],
        }


class Scene(_Record):
    """Everything a file holds in animbin's neutral scene model: ``skeleton`` (``None``
    when there are no bones), ``meshes``, ``materials``, ``textures`` and ``animations``;
    ``placement`` is where the model sits in the world (Cast: the Model node's position,
    rotation and scale), a tuple of translation (3,), rotation (4,) x y z w and scale (3,)
    float64 arrays, the identity for formats without one; ``name`` is the model's name (Cast:
    the Model node's ``n``), empty where the file has none; ``hairs`` (``Hair``) and
    ``instances`` (``Instance``, other scene files placed in this one) are Cast's;
    ``lost`` lists what the scene model could not hold of the file, one line per kind
    (empty for a scene built by hand).

    The graph beside the rig (a glTF's; see ``Skeleton.plain``), lists of dicts naming nodes
    (indices into the skeleton), meshes and images by index: ``mesh_instances`` (``node``,
    ``meshes``, ``name``: meshes drawn in a node's space; a mesh no instance places is in
    model space), ``skins`` (``name``, ``joints``, ``inverse_bind_matrices`` ((J, 4, 4)
    float64, ``[row, column]``, or ``None`` for identities), ``skeleton`` (a node or
    ``None``)), ``cameras`` (``name``, ``node``, ``type`` ``"perspective"`` with ``yfov``
    (radians), ``aspect_ratio`` (or ``None``), ``znear``, ``zfar`` (or ``None``: infinite),
    or ``"orthographic"`` with ``xmag``, ``ymag``, ``znear``, ``zfar``; looking down the
    node's -Z, +Y up) and ``lights`` (``name``, ``node``, ``type`` ``"directional"``,
    ``"point"`` or ``"spot"`` with ``inner_cone_angle`` and ``outer_cone_angle``,
    ``color`` (linear r, g, b), ``intensity`` (candela, lux for directional), ``range`` (or
    ``None``); shining down the node's -Z). The game formats hold none: a conversion to
    one bakes them into the rig or names them in ``lost``."""

    __slots__ = (
        "skeleton",
        "meshes",
        "materials",
        "textures",
        "animations",
        "placement",
        "name",
        "hairs",
        "instances",
        "mesh_instances",
        "skins",
        "cameras",
        "lights",
        "lost",
    )
    _fields = __slots__

    def __init__(
        self,
        skeleton: Skeleton | None = None,
        meshes: Iterable[Mesh] = (),
        materials: Iterable[Material] = (),
        animations: Iterable[Animation] = (),
        textures: Iterable[Texture] = (),
        placement: Any = None,
        name: str = "",
        hairs: Iterable[Hair] = (),
        instances: Iterable[Instance] = (),
        *,
        mesh_instances: Iterable[dict[str, Any]] = (),
        skins: Iterable[dict[str, Any]] = (),
        cameras: Iterable[dict[str, Any]] = (),
        lights: Iterable[dict[str, Any]] = (),
    ) -> None:
        self.placement = _placement(placement, "Scene.placement")
        self.mesh_instances = [dict(i) for i in mesh_instances]
        self.skins = [dict(s) for s in skins]
        self.cameras = [dict(c) for c in cameras]
        self.lights = [dict(light) for light in lights]
        self.name = str(name)
        self.hairs = list(hairs)
        self.instances = list(instances)
        self.skeleton = skeleton
        self.meshes = list(meshes)
        self.materials = list(materials)
        self.animations = list(animations)
        self.textures = list(textures)
        self.lost: list[str] = []

    def _to_native(self) -> dict[str, Any]:
        def each(items: Iterable[Any], cls: type, field: str) -> list[dict[str, Any]]:
            out = []
            for i, item in enumerate(items):
                if not isinstance(item, cls):
                    raise TypeError(f"Scene.{field}[{i}]: expected a {cls.__name__}, got {type(item).__name__}")
                out.append(item._to_native(f"{field}[{i}]"))
            return out

        if self.skeleton is not None and not isinstance(self.skeleton, Skeleton):
            raise TypeError(f"Scene.skeleton: expected a Skeleton or None, got {type(self.skeleton).__name__}")
        return {
            "skeleton": None if self.skeleton is None else self.skeleton._to_native("skeleton"),
            "meshes": each(self.meshes, Mesh, "meshes"),
            "materials": each(self.materials, Material, "materials"),
            "textures": each(self.textures, Texture, "textures"),
            "animations": each(self.animations, Animation, "animations"),
            "placement": _placement(self.placement, "Scene.placement"),
            "name": str(self.name),
            "hairs": each(self.hairs, Hair, "hairs"),
            "instances": each(self.instances, Instance, "instances"),
            **{
                name: [_dict(e, f"Scene.{name}[{i}]") for i, e in enumerate(getattr(self, name, ()))]
                for name in ("mesh_instances", "skins", "cameras", "lights")
            },
        }


def _placement(value: Any, field: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A placement as (translation, rotation x y z w, scale) float64 arrays; ``None`` is
    the identity."""
    if value is None:
        return (np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0]), np.ones(3))
    try:
        t, r, s = value
    except (TypeError, ValueError):
        raise ValueError(f"{field}: expected (translation, rotation, scale)") from None
    return (
        _array(t, np.float64, (3,), f"{field}[0]"),
        _array(r, np.float64, (4,), f"{field}[1]"),
        _array(s, np.float64, (3,), f"{field}[2]"),
    )
