"""Type stubs for animbin: read, inspect, validate, convert and build SEAnim, SEModel,
Cast, AnimX, Shining Force III x8an, DMF and glTF files.

Conventions of the scene arrays (the same as animbin's scene model):

- times are in frames (float64), at the animation's ``framerate``;
- quaternions are x, y, z, w (glTF's order; Blender's ``Quaternion`` takes w first);
- bone transforms are local to the parent bone, except the ``global_*`` arrays and
  ``bind_matrices``, which are in model space;
- matrices are indexed ``[row, column]`` and transform column vectors (``M @ v``), with the
  translation in ``[:3, 3]``: ``mathutils.Matrix(m.tolist())`` is Blender's
  ``bone.matrix_local`` for that bone;
- no axis change happens unless ``z_up`` asks for one (which only the glTF side uses).

The scene classes compare equal (``==``) when every field does, arrays by dtype, shape and
values (NaN equal to NaN); their attributes are plain and may be replaced, and
``from_scene`` checks them.
"""

import os
from typing import Any, Iterable, Literal, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import pose as pose

__version__: str

FORMATS: tuple[str, ...]
"""Format names, as ``Document.format`` and ``info()["format"]`` give them:
``seanim semodel animx sf3 dmf gltf cast``."""

TARGETS: tuple[str, ...]
"""Names accepted where an output format is asked for (``convert``, ``write``,
``from_scene``): ``seanim semodel semodel-deployed semodel-draft animx animj sf3 dmf
dmf-json gltf glb cast json`` (``json`` is an animbin dump)."""

AnimKind = Literal["absolute", "additive", "relative", "delta"]
Interpolation = Literal["linear", "step"]
Precision = Literal["single", "double"]
PathLike = Union[str, "os.PathLike[str]"]
AnimSource = Union[str, "os.PathLike[str]", "Document"]

class FormatError(ValueError):
    """A file (or dump, or scene) that animbin cannot read or convert.

    Raised for what is wrong with an input: bad bytes, an unknown format, a dump that does
    not parse, a scene that no file can be written from (the field named, as
    ``animations[0].tracks[3].rotation_frames: not increasing at index 1``), a conversion
    that would write nothing or (``strict=True``) lose data, and an input that cannot be
    read (the ``OSError``, with ``filename`` set, is the ``__cause__``). The message starts
    with the path of the file it concerns, when the document came from one. An output that
    cannot be written is an ``OSError`` instead (see ``Document.write``).
    """

    format: str | None
    """The format whose reader or writer failed, one of ``FORMATS`` (``"seanim"``), when
    one did."""
    offset: int | None
    """The byte offset in the input where the error was found, when there is one (for a
    compressed AnimX, the offset in its decompressed stream: the message says so)."""

    def __init__(self, message: str, format: str | None = None, offset: int | None = None) -> None: ...

class LossWarning(UserWarning):
    """Issued (``warnings.warn``) for each kind of data a conversion could not carry over,
    and for animation tracks that name bones the model lacks. ``strict=True`` makes these
    a ``FormatError`` instead."""

def open(
    source: PathLike | bytes | bytearray | memoryview,
    format: str | None = None,
    *,
    max_input_size: int | str | None = None,
    max_accessor_values: int | str | None = None,
) -> Document:
    """Reads a file of any supported format.

    ``source`` is a path or the file's bytes. The format is detected from magic bytes (JSON
    inputs: an animbin dump, AnimJ, DMF JSON or glTF); x8an files have none and are
    recognised by the name ``x8an*.bin``, or by ``format="sf3"``. ``format`` is one of
    ``FORMATS``; an unknown name is a ``ValueError`` listing the valid ones.
    Raises ``FormatError`` for input that does not read, its message starting with the path
    (bytes that spell the path of a file get a hint: bytes are the contents), and the
    matching ``OSError`` (``FileNotFoundError``, ``PermissionError``...) for a path the
    system does not let animbin read.

    A path is read into memory (never mapped) in chunks with the GIL released, so Ctrl-C
    (``KeyboardInterrupt``) ends a long read: a huge file, a device, a pipe that no one
    writes to. At most ``max_input_size`` bytes are read: 4 GiB by default (the library's
    ``MAX_INPUT_SIZE``), else an int (bytes) or text with a binary unit (``"64M"``,
    ``"8G"``), as the command's ``--max-input-size``; a value that is no size is a
    ``ValueError`` naming the keyword. A larger regular file is refused before it is read,
    a pipe or a device once it passes the limit: a ``FormatError`` naming the limit and the
    keyword, its ``__cause__`` an ``OSError`` with ``errno.EFBIG``. It bounds the reading of
    a path (bytes given are read as they are) and of the texture files its conversions read
    beside it.

    ``max_accessor_values`` bounds what a glTF's accessors give in all: 16 values a byte of
    its buffers by default (at least 16,777,216), else an int or text as for
    ``max_input_size`` (``--max-accessor-values``). A file past it is a ``FormatError``
    naming the accessor and the budget. Running out of memory while a path is read or a
    document converted raises ``MemoryError``; nothing is written.
    """

def transform_matrices(translations: ArrayLike, rotations: ArrayLike, scales: ArrayLike) -> NDArray[np.float64]:
    """(N, 4, 4) matrices of N translations, rotations (x y z w) and scales: ``[row,
    column]`` for column vectors, translation in ``[:3, 3]`` (``Skeleton.bind_matrices`` of
    the global transforms, in float64)."""

def formats() -> list[dict[str, Any]]:
    """Every format the library reads, in detection order (as ``FORMATS``), each a dict:
    ``name``, ``label``, ``extensions`` (without the dot, the usual one first),
    ``has_magic``, ``holds`` (``"bones"``, ``"meshes"``, ``"materials"``, ``"textures"``,
    ``"animations"``), ``stores_framerate``, ``animation_kinds``, ``names_animations``,
    ``names_meshes``,
    ``several_animations``, ``length_ends_on_last_key``, ``chooses_precision``,
    ``interchange`` (3D tools read and write it themselves: glTF, FBX) and ``targets`` (names for ``convert`` and ``from_scene``). Front ends build their menus
    from it."""

def file_name(name: str) -> str:
    """``name`` (an animation's, say) as a file name: characters file systems refuse become
    ``_``, leading dots and surrounding spaces go; ``"animation"`` when nothing is left."""

def find_texture(folder: PathLike, name: str) -> "os.PathLike[str] | None":
    """The texture file a material's map ``name`` refers to, looked for as conversions to
    glTF do: relative to ``folder``, by its file name, then in ``folder``'s ``_images`` and
    ``textures`` folders; ``None`` when there is none. A name never leads out of ``folder``."""

def undump(dump: str | bytes | dict[str, Any]) -> Document:
    """Reads an animbin dump (``Document.dump()``, as text, bytes or the parsed dict)."""

def from_scene(
    scene: Scene,
    format: str,
    *,
    framerate: float | None = None,
    z_up: bool = False,
    scale: float = 1.0,
    strict: bool = False,
    anim_type: AnimKind | None = None,
    looped: bool | None = None,
    precision: Precision | None = None,
    normalize_rotations: bool = False,
) -> Document:
    """Builds a document of ``format`` (one of ``TARGETS`` except ``json``) from a scene,
    for export: ``from_scene(scene, "seanim").write("walk.seanim")``.

    What the format cannot hold is reported as ``LossWarning`` (``strict=True``: a
    ``FormatError``). Arrays are checked for shape and converted to their dtype; a bad one
    (or a value its dtype cannot hold: a negative face index, 1e300 as float32) is a
    ``ValueError`` naming the field by its place in the scene (``meshes[0].faces[2]``).
    Then the library checks what every format needs (frames strictly increasing, finite
    values, positive frame rates, indices in range, no parent cycles): a ``FormatError``
    naming the field the same way.
    """

class Document:
    """A file of any supported format, read into memory (it does not keep the file open).

    Conversion options, taken as keyword arguments by ``to_gltf``, ``convert``, ``write``
    and ``scene`` (the command's flags of the same names follow the same rules; a value
    they refuse is a ``ValueError`` naming the keyword: ``scale: 0 is not ...``):

    - ``framerate``: frames per second for formats that store none (x8an, AnimX); finite
      and positive;
    - ``z_up``: the non-glTF side is Z-up (SE formats, most game data);
    - ``scale``: lengths times this are glTF metres (0.01 for centimetres); finite and not
      0 (a negative scale mirrors);
    - ``anims``: other files' animations to join by bone name (paths or Documents);
    - ``strict``: fail (``FormatError``) instead of warning about anything lost;
    - ``anim_type``, ``looped``, ``precision``: what an SEAnim output states (its keys are
      rewritten against the bind pose for a new kind);
    - ``animation``: keep only the animation of this name;
    - ``allow_empty``: write a glTF even when it would hold nothing;
    - ``normalize_rotations``: scale rounded rotations (x8an) to unit length.

    A document pickles (``multiprocessing``, Dask, ``copy``) as its bytes in its own form,
    its format and its path: the copy has the same format, summary, dump and bytes.
    """

    @property
    def format(self) -> str:
        """The format's name, one of ``FORMATS`` (as ``animbin info --json`` says it)."""
    @property
    def path(self) -> str | None:
        """The path it was opened from (``None`` for bytes or a dump); textures are looked
        for beside it and its stem names unnamed animations."""
    def info(self) -> dict[str, Any]:
        """The summary that ``animbin info --json`` prints: ``{"format": ..., counts and
        header fields}``."""
    def validate(self) -> list[dict[str, Any]]:
        """Every rule of the format the document breaks, and every legal but suspicious
        value: dicts with ``severity`` (``"error"`` or ``"warning"``), ``location`` (text:
        ``"byte 12 (0xc)"``, ``"bone 3"``, ``"file"``), ``offset`` (``int | None``) and
        ``message``. Empty for a clean file."""
    def dump(self) -> str:
        """The whole document as JSON, ``{"format": NAME, "data": ...}``, losslessly:
        ``undump(doc.dump())`` converts back to the same bytes."""
    def to_bytes(self) -> bytes:
        """The document in its own format (a file read unchanged gives its bytes back)."""
    def to_gltf(
        self,
        binary: bool = True,
        *,
        framerate: float | None = None,
        z_up: bool = False,
        scale: float = 1.0,
        anims: Sequence[AnimSource] = (),
        strict: bool = False,
        animation: str | None = None,
        allow_empty: bool = False,
        normalize_rotations: bool = False,
    ) -> bytes:
        """The document as glTF 2.0: a ``.glb`` (``binary=True``) or ``.gltf`` JSON with the
        buffer embedded. Texture files beside ``path`` are embedded."""
    def convert(
        self,
        format: str,
        *,
        framerate: float | None = None,
        z_up: bool = False,
        scale: float = 1.0,
        anims: Sequence[AnimSource] = (),
        strict: bool = False,
        anim_type: AnimKind | None = None,
        looped: bool | None = None,
        precision: Precision | None = None,
        animation: str | None = None,
        allow_empty: bool = False,
        normalize_rotations: bool = False,
    ) -> bytes:
        """The document converted to ``format`` (one of ``TARGETS``), as bytes. The
        document's own format gives its bytes back; ``"json"`` is its dump."""
    def write(
        self,
        path: PathLike,
        format: str | None = None,
        *,
        force: bool = False,
        framerate: float | None = None,
        z_up: bool = False,
        scale: float = 1.0,
        anims: Sequence[AnimSource] = (),
        strict: bool = False,
        anim_type: AnimKind | None = None,
        looped: bool | None = None,
        precision: Precision | None = None,
        animation: str | None = None,
        allow_empty: bool = False,
        normalize_rotations: bool = False,
    ) -> None:
        """Converts and writes to ``path``, whole or not at all (a temporary file renamed
        over it; a symbolic link is written through to its target). ``format`` defaults to
        what the extension says (``.seanim``, ``.glb``, ``.json`` for a dump...).

        A read-only file at ``path`` is refused (``PermissionError``) and left as it is,
        unless ``force=True``. What the output's side refuses (a missing folder, a full disk,
        a device) is an ``OSError`` (or its subclass) with ``filename`` set to ``path``, never
        a ``FormatError``; what the target cannot hold stays a ``FormatError``."""
    def __reduce__(self) -> tuple[Any, tuple[bytes, str, str | None]]:
        """Pickles as the bytes in its own form, the format and the path."""
    def scene(
        self,
        name_animations: bool = False,
        *,
        framerate: float | None = None,
        z_up: bool = False,
        scale: float = 1.0,
        anims: Sequence[AnimSource] = (),
        strict: bool = False,
        normalize_rotations: bool = False,
    ) -> Scene:
        """The document as a scene: skeleton, meshes, materials, textures and animations as
        NumPy arrays (copied once, owned by NumPy: they outlive the document). ``anims``
        appends other files' animations (names as their files store them; tracks naming bones
        the document lacks are a ``LossWarning``); with ``name_animations=True`` animations
        whose format stores no name are named after their file's stem, as conversions do;
        ``z_up`` and ``scale`` concern a glTF document only; ``strict`` makes anything the
        scene model cannot hold a ``FormatError`` (else it is listed in ``Scene.lost``)."""

class Skeleton:
    """A bone hierarchy with its bind pose: N bones, parents before children where the
    source allows it."""

    names: list[str]
    """Bone names, which animation tracks use to find their bone."""
    parents: NDArray[np.int32]
    """(N,) the parent's index, -1 for a root."""
    translations: NDArray[np.float32]
    """(N, 3) local bind translations (relative to the parent)."""
    rotations: NDArray[np.float32]
    """(N, 4) local bind rotations, x y z w."""
    scales: NDArray[np.float32]
    """(N, 3) local bind scales."""
    global_translations: NDArray[np.float32]
    """(N, 3) bind translations in model space."""
    global_rotations: NDArray[np.float32]
    """(N, 4) bind rotations in model space, x y z w."""
    global_scales: NDArray[np.float32]
    """(N, 3) bind scales in model space."""
    bind_matrices: NDArray[np.float32]
    """(N, 4, 4) model-space bind matrices from the global transforms, ``[row, column]``,
    column vectors, translation in ``[:3, 3]`` (Blender's ``bone.matrix_local``)."""
    cosmetic: NDArray[np.bool_]
    """(N,) cosmetic bones (SE formats: attachments a game may skip)."""
    scale_compensate: NDArray[np.bool_]
    """(N,) bones that do not inherit their parent's scale (Cast ``ssc``, Blender's
    inherit-scale ``'NONE'``); the parent's scale still stretches their offsets."""
    rest_scale: NDArray[np.float64]
    """(N, 3) the scales absolute scale keys are measured against (Cast's ``s``; ones for
    every other format): not part of the bind pose; an absolute key equal to it leaves the
    bone as at rest."""
    ik_handles: list[dict[str, Any]]
    constraints: list[dict[str, Any]]
    plain: NDArray[np.bool_]
    """(N,) nodes that are not bones: a glTF's empties and the nodes that place a mesh, a
    camera or a light (all ``False`` in the game formats)."""

    def __init__(
        self,
        names: Iterable[str],
        parents: ArrayLike,
        translations: ArrayLike | None = None,
        rotations: ArrayLike | None = None,
        scales: ArrayLike | None = None,
        *,
        global_translations: ArrayLike | None = None,
        global_rotations: ArrayLike | None = None,
        global_scales: ArrayLike | None = None,
        cosmetic: ArrayLike | None = None,
        scale_compensate: ArrayLike | None = None,
        ik_handles: Iterable[dict[str, Any]] = (),
        constraints: Iterable[dict[str, Any]] = (),
        rest_scale: ArrayLike | None = None,
        plain: ArrayLike | None = None,
    ) -> None:
        """Give the local transforms, the global ones, or both; the missing side is computed
        from the other through the hierarchy. Missing rotations are identity, missing
        scales 1, missing translations 0; ``cosmetic`` and ``scale_compensate`` default to
        all ``False``."""
    def __len__(self) -> int: ...

class Mesh:
    """A triangle mesh with V vertices and F faces."""

    name: str
    positions: NDArray[np.float32]
    """(V, 3)."""
    normals: NDArray[np.float32] | None
    """(V, 3), or ``None`` when the mesh has none."""
    uv_layers: list[NDArray[np.float32]]
    """Each (V, 2)."""
    color_layers: list[NDArray[np.uint8]]
    """Each (V, 4) RGBA, 0-255, one per colour layer."""
    faces: NDArray[np.uint32]
    """(F, 3) vertex indices."""
    bone_indices: NDArray[np.uint32] | None
    """(V, K) skeleton bone indices, K the influences per vertex, or ``None`` unskinned."""
    bone_weights: NDArray[np.float32] | None
    """(V, K) weights, unused slots 0, or ``None`` unskinned."""
    skin_blend: Literal["linear", "dual_quaternion"]
    """How the influences blend: linearly, or by dual quaternions (Cast's ``sm``
    ``quaternion``, Blender's "preserve volume")."""
    materials: list[int | None]
    """Material indices into ``Scene.materials``: one per UV layer (SEModel) or one for the
    whole mesh."""
    morph_targets: list[MorphTarget]
    """Blend shapes / shape keys."""
    skin: int | None
    """The index into ``Scene.skins`` saying how the weights were bound, or ``None``."""

    def __init__(
        self,
        positions: ArrayLike,
        faces: ArrayLike,
        *,
        name: str = "",
        normals: ArrayLike | None = None,
        uv_layers: Iterable[ArrayLike] = (),
        color_layers: Iterable[ArrayLike] = (),
        bone_indices: ArrayLike | None = None,
        bone_weights: ArrayLike | None = None,
        skin_blend: Literal["linear", "dual_quaternion"] = "linear",
        materials: Iterable[int | None] = (),
        material: int | None = None,
        morph_targets: Iterable[MorphTarget] = (),
        skin: int | None = None,
    ) -> None:
        """``material`` is a shorthand for ``materials=[material]``."""
    @property
    def material(self) -> int | None:
        """The first of ``materials`` (``None`` when there is none)."""

class MorphTarget:
    """A morph target (blend shape, shape key): the offsets of the vertices it moves."""

    name: str
    indices: NDArray[np.uint32]
    """(K,) the vertices it moves, each once."""
    deltas: NDArray[np.float32]
    """(K, 3) position offsets at weight 1."""
    normal_deltas: NDArray[np.float32] | None
    """(K, 3) normal offsets, or ``None``."""
    max_weight: float | None
    """The largest weight it is meant to reach (Cast's ``ts``)."""
    default_weight: float
    """The weight where nothing animates it (a glTF mesh's ``weights``); 0 by default."""

    def __init__(
        self,
        name: str,
        indices: ArrayLike = (),
        deltas: ArrayLike = (),
        *,
        normal_deltas: ArrayLike | None = None,
        max_weight: float | None = None,
        default_weight: float = 0.0,
    ) -> None: ...

class Hair:
    """Hair (Cast's Hair node): strands, each a polyline through consecutive particles."""

    name: str
    segments: NDArray[np.uint32]
    """(S,) the segments of each strand."""
    particles: NDArray[np.float32]
    """(P, 3) strand after strand, P = ``sum(segments + 1)``; in the model's space as the file
    stores them (Cast: world space), placed by ``Scene.placement`` like the meshes."""
    material: int | None
    """An index into ``Scene.materials``."""

    def __init__(
        self,
        name: str,
        segments: ArrayLike = (),
        particles: ArrayLike = (),
        *,
        material: int | None = None,
    ) -> None: ...

class Instance:
    """Another scene file placed in this one (Cast's Instance node), kept as a reference."""

    name: str
    path: str
    """The referenced file's path as the file states it (relative paths unresolved)."""
    placement: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]
    """Where it sits: translation (3,), rotation (4,) x y z w, scale (3,), like
    ``Scene.placement``."""

    def __init__(
        self,
        name: str = "",
        path: str = "",
        placement: tuple[ArrayLike, ArrayLike, ArrayLike] | None = None,
    ) -> None: ...

class WeightTrack:
    """The weight keys of the morph targets of one name, on every mesh that has one."""

    target: str
    frames: NDArray[np.float64]
    """(K,)."""
    weights: NDArray[np.float64]
    """(K,)."""

    def __init__(self, target: str, frames: ArrayLike = (), weights: ArrayLike = ()) -> None: ...

class Material:
    """A material: its name, texture file names by slot and colour."""

    name: str
    textures: dict[str, str]
    """Slot (``"diffuse"``, ``"normal"``, ``"specular"``) to the texture's file name, as the
    file states it (relative names are relative to the file's folder)."""
    texture: int | None
    """An embedded texture used as the diffuse map: an index into ``Scene.textures``."""
    base_color: tuple[float, float, float, float] | None
    """Linear RGBA."""
    links: list[dict[str, Any]]
    """The embedded images of each physically based slot: ``slot``, ``texture``,
    ``uv_layer``, ``strength``, ``transform`` (see the class in ``animbin._scene``)."""
    surface: dict[str, Any] | None
    """``metallic``, ``roughness``, ``emissive``, ``double_sided``, or ``None``."""

    def __init__(
        self,
        name: str = "",
        textures: dict[str, str] | None = None,
        *,
        texture: int | None = None,
        base_color: Iterable[float] | None = None,
        links: Iterable[dict[str, Any]] = (),
        surface: dict[str, Any] | None = None,
    ) -> None: ...

class Texture:
    """An embedded image, kept encoded (PNG, JPEG or WebP)."""

    name: str
    png: bytes
    """The encoded image (the attribute keeps its first name)."""
    mime_type: str
    """``"image/webp"``; empty where the bytes say it (PNG, JPEG)."""

    def __init__(self, name: str, png: bytes, mime_type: str = "") -> None: ...

class BoneTrack:
    """The keys of one bone; each channel has its own key frames (float64, in frames).
    Values are in the file's precision: float32 for a single-precision file (SEAnim without
    high precision, Cast, AnimX, DMF, a glTF whose keys are all float32), float64 for a
    double-precision one (SEAnim's high precision, x8an); see ``Animation.dtype``. Built by
    hand, float32 arrays stay float32 and anything else becomes float64."""

    bone: str
    kind: AnimKind | None
    """A kind overriding the animation's for this bone and its children (SEAnim modifiers)."""
    channel_kinds: dict[str, AnimKind]
    """The kind of this track's own keys per channel (``"translation"``, ``"rotation"``,
    ``"scale"``) where it is not the animation's (Cast keeps a mode on each curve)."""
    channel_overrides: dict[str, AnimKind]
    """Per-channel overrides for this bone and its children (Cast CurveModeOverride flags);
    they win over ``kind`` for the channels they name."""
    cosmetic: bool
    rotation_frames: NDArray[np.float64]
    """(K,)."""
    rotations: NDArray[np.float32] | NDArray[np.float64]
    """(K, 4) local rotations, x y z w."""
    translation_frames: NDArray[np.float64]
    translations: NDArray[np.float32] | NDArray[np.float64]
    """(K, 3) local translations."""
    scale_frames: NDArray[np.float64]
    scales: NDArray[np.float32] | NDArray[np.float64]
    """(K, 3)."""

    curves: dict[str, dict[str, Any]]
    """How a channel's keys are joined where it is not the animation's interpolation:
    ``{"type": "linear" | "step"}`` or ``{"type": "cubic_spline", "incoming": (K, n),
    "outgoing": (K, n)}`` (float64 tangents per second)."""

    def __init__(
        self,
        bone: str,
        *,
        rotation_frames: ArrayLike = (),
        rotations: ArrayLike = (),
        translation_frames: ArrayLike = (),
        translations: ArrayLike = (),
        scale_frames: ArrayLike = (),
        scales: ArrayLike = (),
        kind: AnimKind | None = None,
        cosmetic: bool = False,
        channel_kinds: dict[str, AnimKind] | None = None,
        channel_overrides: dict[str, AnimKind] | None = None,
        curves: dict[str, dict[str, Any]] | None = None,
    ) -> None: ...

class PropertyTrack:
    """A track animating something other than a bone transform, kept in its source
    format's encoding (AnimX) so a trip through the scene keeps it."""

    node: str
    property: str
    format: str
    data: bytes

    def __init__(self, node: str, property: str, format: str, data: bytes) -> None: ...

class Animation:
    """One animation."""

    name: str
    framerate: float
    """Frames per second."""
    frame_count: float
    """The length in frames as the source states it (SEAnim: last key + 1)."""
    looping: bool
    kind: AnimKind
    interpolation: Interpolation
    notes: list[tuple[float, str]]
    """(frame, name) events (SEAnim notetracks; Blender's pose markers)."""
    tracks: list[BoneTrack]
    properties: list[PropertyTrack]
    weights: list[WeightTrack]
    @property
    def dtype(self) -> np.dtype[Any]:
        """The dtype of the key values: float32 when every non-empty value array of every
        track is float32 (``Document.scene()`` of a single-precision file; ``from_scene``
        then writes single precision where the format chooses it, SEAnim), float64
        otherwise (a double-precision file, mixed dtypes, no keys)."""

    def __init__(
        self,
        name: str = "",
        tracks: Iterable[BoneTrack] = (),
        *,
        framerate: float = 30.0,
        frame_count: float | None = None,
        looping: bool = False,
        kind: AnimKind = "absolute",
        interpolation: Interpolation = "linear",
        notes: Iterable[tuple[float, str]] = (),
        properties: Iterable[PropertyTrack] = (),
        weights: Iterable[WeightTrack] = (),
    ) -> None:
        """``frame_count`` defaults to the last key's frame + 1 (0 without keys)."""

class Scene:
    """Everything a file holds in animbin's neutral scene model."""

    skeleton: Skeleton | None
    """``None`` when there are no bones."""
    meshes: list[Mesh]
    materials: list[Material]
    textures: list[Texture]
    animations: list[Animation]
    placement: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]
    """Where the model sits in the world (Cast's Model p, r, s): translation (3,), rotation
    (4,) x y z w, scale (3,); the identity for formats without one."""
    name: str
    """The model's name (Cast's Model n); empty where the file has none."""
    hairs: list[Hair]
    """Cast's Hair nodes."""
    instances: list[Instance]
    """Other scene files placed in this one (Cast's Instance nodes)."""
    mesh_instances: list[dict[str, Any]]
    """Meshes drawn in a node's space: ``node``, ``meshes``, ``name``."""
    skins: list[dict[str, Any]]
    """``name``, ``joints``, ``inverse_bind_matrices`` ((J, 4, 4) float64 or ``None``),
    ``skeleton``."""
    cameras: list[dict[str, Any]]
    """``name``, ``node``, ``type`` (``"perspective"``: ``yfov``, ``aspect_ratio``,
    ``znear``, ``zfar``; ``"orthographic"``: ``xmag``, ``ymag``, ``znear``, ``zfar``)."""
    lights: list[dict[str, Any]]
    """``name``, ``node``, ``type`` (``"directional"``, ``"point"``, ``"spot"`` with
    ``inner_cone_angle`` and ``outer_cone_angle``), ``color``, ``intensity``, ``range``."""
    lost: list[str]
    """What the scene model could not hold of the file, one line per kind (empty when it
    holds everything)."""

    def __init__(
        self,
        skeleton: Skeleton | None = None,
        meshes: Iterable[Mesh] = (),
        materials: Iterable[Material] = (),
        animations: Iterable[Animation] = (),
        textures: Iterable[Texture] = (),
        placement: tuple[ArrayLike, ArrayLike, ArrayLike] | None = None,
        name: str = "",
        hairs: Iterable[Hair] = (),
        instances: Iterable[Instance] = (),
        *,
        mesh_instances: Iterable[dict[str, Any]] = (),
        skins: Iterable[dict[str, Any]] = (),
        cameras: Iterable[dict[str, Any]] = (),
        lights: Iterable[dict[str, Any]] = (),
    ) -> None: ...
