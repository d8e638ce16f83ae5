"""Hair and instances in Blender, for tests/blender/test_addon.py: a Y-up Cast file with a
placed model, two hairs (three strands, one of a single segment, with a material; one unnamed
strand without) and four instances (two of a sample model copied beside it, its path written
two ways, one of a missing file and one of a file that is no Cast), imported by the extension,
gives hair Curves objects with the strands' points where the model's placement and the Y-up
turn put them, Empties that instance one collection holding the sample's objects (left out of
the view layer) at the instances' placements, and Empties without a collection and a warning
for the missing and the unreadable file; exported again to Cast it gives the same hairs and
instances (and the hair with the armature's meshes when the armature alone is selected), and
to SEModel it reports them lost. A file that instances itself is not read
again, and a chain of files instancing each other is read down to the depth limit, each with
a warning.
"""

from __future__ import annotations

import os
import shutil

import numpy as np

import bpy

import animbin

# Strands of 2, 1 and 3 segments: 3 + 2 + 4 particles.
SEGMENTS = np.array([2, 1, 3], dtype=np.uint32)
PARTICLES = np.array(
    [
        [0.0, 0.0, 0.0],
        [0.1, 0.2, 0.3],
        [0.2, 0.5, 0.7],
        [1.0, -1.0, 0.5],
        [1.25, -0.75, 1.5],
        [-2.0, 0.5, 0.0],
        [-2.125, 0.625, 0.25],
        [-2.25, 0.875, 0.5],
        [-2.5, 1.0, 1.0],
    ],
    dtype=np.float32,
)
LONE = np.array([[3.0, 3.0, 3.0], [3.5, 3.25, 2.75]], dtype=np.float32)
# The model's placement: hair is placed with it, as meshes are. (Rotations whose components
# f32 holds exactly, so that writing the file loses nothing.)
MODEL_PLACEMENT = (
    np.array([0.5, -1.0, 2.0]),
    np.array([0.5, 0.5, -0.5, 0.5]),
    np.array([1.0, 1.0, 1.0]),
)
# Instances: (name, path as written, placement).
ROCK = (
    "rock",
    "sample.semodel",
    (np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5, 0.5, 0.5]), np.array([1.0, 2.0, 0.5])),
)
ROCK_AGAIN = (
    "rock_again",
    "./sample.semodel",
    (np.array([-4.0, 0.0, 1.5]), np.array([0.0, 0.0, 0.0, 1.0]), np.array([2.0, 2.0, 2.0])),
)
MISSING = (
    "",
    "gone/missing.cast",
    (np.array([0.0, 5.0, 0.0]), np.array([-0.5, 0.5, 0.5, 0.5]), np.array([1.0, 1.0, 1.0])),
)
BROKEN = (
    "broken",
    "broken.cast",
    (np.array([0.0, 0.0, -2.0]), np.array([0.0, 0.0, 0.0, 1.0]), np.array([0.5, 0.5, 0.5])),
)
INSTANCES = (ROCK, ROCK_AGAIN, MISSING, BROKEN)

# Blender's Z-up world from the file's Y-up: +90 degrees about X.
Y_UP = np.array([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], dtype=np.float64)


def _matrix(placement) -> np.ndarray:
    """The (4, 4) matrix of a placement: translation, then rotation (x y z w), then scale."""
    t, (x, y, z, w), s = (np.asarray(v, dtype=np.float64) for v in placement)
    rotation = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    matrix = np.eye(4)
    matrix[:3, :3] = rotation * s
    matrix[:3, 3] = t
    return matrix


def _moved(matrix, points) -> np.ndarray:
    points = np.asarray(points, dtype=np.float64)
    return points @ matrix[:3, :3].T + matrix[:3, 3]


def hair_scene() -> animbin.Scene:
    """A one-bone model named ``groom`` with a quad, a material, the hairs and instances."""
    skeleton = animbin.Skeleton(["root"], [-1])
    corners = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
    quad = animbin.Mesh(corners, [[0, 1, 2], [0, 2, 3]])
    material = animbin.Material("fur_mat", {}, base_color=(0.4, 0.3, 0.2, 1.0))
    return animbin.Scene(
        skeleton,
        [quad],
        [material],
        placement=MODEL_PLACEMENT,
        name="groom",
        hairs=[animbin.Hair("fur", SEGMENTS, PARTICLES, material=0), animbin.Hair("", [1], LONE)],
        instances=[animbin.Instance(name, path, placement) for name, path, placement in INSTANCES],
    )


def _points(obj) -> np.ndarray:
    co = np.empty(len(obj.data.points) * 3, dtype=np.float64)
    obj.data.position_data.foreach_get("vector", co)
    return co.reshape(-1, 3)


def check_hair_and_instances(checks, testdata, out_dir):
    from animbin_io import exporter, importer

    folder = os.path.join(out_dir, "instancing")
    os.makedirs(folder)
    shutil.copy(os.path.join(testdata, "sample.semodel"), os.path.join(folder, "sample.semodel"))
    with open(os.path.join(folder, "broken.cast"), "wb") as f:
        f.write(b"cast\x01\x00\x00\x00 and then nothing a Cast file holds")
    cast_path = os.path.join(folder, "groom.cast")
    animbin.from_scene(hair_scene(), "cast").write(cast_path)
    source = animbin.open(cast_path).scene()
    checks.equal("hair: the Cast file holds two hairs", len(source.hairs), 2)
    checks.equal("instances: the Cast file holds four", len(source.instances), 4)

    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = importer.load(bpy.context, cast_path, None, importer.Settings(up_axis="Y"))
    bpy.context.view_layer.update()  # world matrices after the turn and the placement
    model = Y_UP @ _matrix(MODEL_PLACEMENT)

    curves = {o.name: o for o in bpy.data.objects if o.type == "CURVES"}
    if checks.equal("hair: two Curves objects, named after the hairs", sorted(curves), ["fur", "groom_hair1"]):
        fur, lone = curves["fur"], curves["groom_hair1"]
        checks.equal("hair: a curve per strand", len(fur.data.curves), 3)
        checks.equal("hair: points per strand", [c.points_length for c in fur.data.curves], [3, 2, 4])
        checks.close(
            "hair: points where the placement and the Y-up turn put the particles",
            _moved(np.array(fur.matrix_world), _points(fur)),
            _moved(model, PARTICLES),
            1e-6,
        )
        checks.equal("hair: placed with the model (parented to the armature)", fur.parent, result.armature)
        checks.equal("hair: the material", [m.name for m in fur.data.materials], ["fur_mat"])
        checks.equal("hair: the unnamed hair's strand", [c.points_length for c in lone.data.curves], [2])
        checks.close(
            "hair: the unnamed hair's points",
            _moved(np.array(lone.matrix_world), _points(lone)),
            _moved(model, LONE),
            1e-6,
        )
        checks.equal("hair: the unnamed hair has no material", len(lone.data.materials), 0)

    empties = {o.get("animbin_instance_path"): o for o in bpy.data.objects if o.type == "EMPTY"}
    if not checks.equal(
        "instances: an Empty each, with the path as written",
        sorted(empties),
        sorted(path for _name, path, _placement in INSTANCES),
    ):
        return
    rock, again, missing, broken = (empties[path] for _name, path, _placement in INSTANCES)
    checks.equal(
        "instances: Empties named after the instances (else the file)",
        [rock.name, again.name, missing.name, broken.name],
        ["rock", "rock_again", "missing", "broken"],
    )
    for (_name, path, placement), empty in zip(INSTANCES, (rock, again, missing, broken)):
        checks.close(
            f"instances: {path} placed and turned", np.array(empty.matrix_world), Y_UP @ _matrix(placement), 1e-6
        )
    collection = rock.instance_collection
    checks.true("instances: rock instances a collection", rock.instance_type == "COLLECTION" and collection is not None)
    checks.equal(
        "instances: one collection for one file written two ways",
        (again.instance_type, again.instance_collection),
        ("COLLECTION", collection),
    )
    if collection is not None:
        expected = animbin.open(os.path.join(testdata, "sample.semodel")).scene()
        checks.equal(
            "instances: the collection holds the sample's armature and meshes",
            sorted(o.type for o in collection.all_objects),
            ["ARMATURE"] + ["MESH"] * len(expected.meshes),
        )
        armature = next((o for o in collection.all_objects if o.type == "ARMATURE"), None)
        checks.equal(
            "instances: the sample's bones",
            sorted(b.name for b in armature.data.bones) if armature else None,
            sorted(expected.skeleton.names),
        )
        shown = {o.name for o in bpy.context.view_layer.objects}
        checks.true(
            "instances: the collection is left out of the view layer",
            not any(o.name in shown for o in collection.all_objects),
        )
        checks.equal("instances: the sample read once", [c.name for c in bpy.data.collections], ["sample.semodel"])
    for what, empty in (("missing", missing), ("unreadable", broken)):
        checks.equal(
            f"instances: the {what} file's Empty instances nothing",
            (empty.instance_type, empty.instance_collection),
            ("NONE", None),
        )
    checks.equal(
        "instances: a warning for the missing file, where it was looked for",
        sum("'gone/missing.cast'" in w and os.path.join(folder, "gone", "missing.cast") in w for w in result.warnings),
        1,
    )
    checks.equal(
        "instances: a warning for the unreadable file",
        sum("'broken.cast'" in w and "could not be read" in w for w in result.warnings),
        1,
    )

    # -> the extension's Cast export: the same hairs and instances.
    for obj in bpy.context.view_layer.objects:
        obj.select_set(True)
    out = os.path.join(out_dir, "groom_again.cast")
    checks.equal("hair: Cast export", bpy.ops.export_mesh.animbin_cast(filepath=out, up_axis="Y"), {"FINISHED"})
    back = animbin.open(out).scene()
    # (Written in the order Blender lists the selected objects: compared by name and path.)
    hairs = sorted(back.hairs, key=lambda h: h.name)
    if checks.equal("hair: exported hairs", [h.name for h in hairs], ["", "fur"]):
        for seen, (segments, particles) in zip(hairs, (([1], LONE), (SEGMENTS, PARTICLES))):
            checks.equal(
                f"hair: exported {seen.name!r} segments",
                np.asarray(seen.segments).tolist(),
                np.asarray(segments).tolist(),
            )
            checks.close(f"hair: exported {seen.name!r} particles", seen.particles, particles, 1e-6)
        checks.equal(
            "hair: exported materials",
            [None if h.material is None else back.materials[h.material].name for h in hairs],
            [None, "fur_mat"],
        )
    checks.close(
        "hair: exported model placement", np.concatenate(back.placement), np.concatenate(MODEL_PLACEMENT), 1e-6
    )
    exported = sorted(back.instances, key=lambda i: i.path)
    expected_instances = sorted(INSTANCES, key=lambda i: i[1])
    if checks.equal(
        "instances: exported names and paths",
        [(i.name, i.path) for i in exported],
        [(name, path) for name, path, _placement in expected_instances],
    ):
        for seen, (_name, path, placement) in zip(exported, expected_instances):
            checks.close(
                f"instances: exported {path} placement",
                np.concatenate(seen.placement),
                np.concatenate(placement),
                1e-6,
            )

    # The armature alone selected: its meshes and its hair are written.
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj == result.armature)
    bpy.context.view_layer.objects.active = result.armature
    out = os.path.join(out_dir, "groom_armature.cast")
    checks.equal("hair: Cast export of the armature", bpy.ops.export_mesh.animbin_cast(filepath=out), {"FINISHED"})
    back = animbin.open(out).scene()
    checks.equal(
        "hair: the armature's hair written with its meshes",
        (len(back.meshes), sorted(h.name for h in back.hairs), len(back.instances)),
        (1, ["", "fur"], 0),
    )

    # -> SEModel, which holds neither: the library's report.
    for obj in bpy.context.view_layer.objects:
        obj.select_set(True)
    written = exporter.save_model(
        bpy.context, os.path.join(out_dir, "groom.semodel"), "semodel", exporter.ModelSettings(up_axis="Y")
    )
    checks.true(f"hair: reported lost to SEModel: {written.warnings}", any("hair" in w for w in written.warnings))
    checks.true(
        f"instances: reported lost to SEModel: {written.warnings}", any("instances" in w for w in written.warnings)
    )

    # A file that instances itself: not read again, its instance an Empty without a collection.
    self_path = os.path.join(folder, "self.cast")
    animbin.from_scene(animbin.Scene(instances=[animbin.Instance("me", "self.cast", ROCK[2])]), "cast").write(self_path)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = importer.load(bpy.context, self_path, None, importer.Settings())
    checks.equal(
        "instances: a file instancing itself gives one Empty",
        [(o.type, o.instance_collection) for o in bpy.data.objects],
        [("EMPTY", None)],
    )
    checks.equal("instances: ... and a warning", sum("instances itself" in w for w in result.warnings), 1)

    # A chain of files each instancing the next: read down to the depth limit, then a warning.
    depth = importer.MAX_INSTANCE_DEPTH
    for k in range(depth + 3):
        chain = [animbin.Instance(f"link{k}", f"chain{k + 1}.cast")] if k < depth + 2 else []
        animbin.from_scene(animbin.Scene(instances=chain), "cast").write(os.path.join(folder, f"chain{k}.cast"))
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = importer.load(bpy.context, os.path.join(folder, "chain0.cast"), None, importer.Settings())
    checks.equal(
        f"instances: a chain read {depth} files deep",
        sorted(c.name for c in bpy.data.collections),
        sorted(f"chain{k}.cast" for k in range(1, depth + 1)),
    )
    checks.equal(
        "instances: ... and a warning past that",
        sum(f"deeper than {depth}" in w for w in result.warnings),
        1,
    )
