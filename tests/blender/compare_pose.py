"""Whether two glTF files look the same in Blender: what a route through animbin must keep.

Each file is imported into an empty scene by Blender's own glTF importer, and at every frame
asked for (``scene.frame_set``, fractions allowed) this records, all in world space:

- the vertices of every mesh object as the depsgraph evaluates them (skin, shape keys and
  modifiers applied: ``obj.evaluated_get(depsgraph).to_mesh()``, ``matrix_world @ co``);
- the head of every pose bone (``armature.matrix_world @ pose_bone.head``);
- every camera (type, world matrix, vertical field of view or orthographic scale) and
  light (type, world matrix, colour, energy, spot angle);
- once, each mesh's materials: for each texture slot the importer links (base colour,
  normal, metallic, roughness, emission, alpha, occlusion) the image's format, size, mean
  colour and UV map; the factors left unlinked.

Then B is measured the same way in a fresh scene and compared with A. Names may change
between formats, so meshes are paired by shape, not name: among meshes of the same vertex
count, greedily by nearest centroid at the first frame (then, for what is left, by nearest
centroid whatever the count); a pair's distance is the symmetric nearest-vertex distance
(the Hausdorff distance of the two vertex sets), so vertex order does not matter. Bones are
paired by name, cameras and lights by type and nearest position. Every distance is divided
by the diagonal of the bounding box of A's vertices at the first frame (bone heads and
object positions when A has no mesh); rotations (the world matrices' unit axes) and camera
angles are compared as they are, in radians or unit vectors; a texture's mean colour within
2/255, its format, size and UV map exactly; factors within 1e-3. Anything of A missing in B,
or of B not in A, is a mismatch, except what B lacks of a kind named by ``--allow-missing``
(``meshes``, ``bones``, ``cameras``, ``lights``, ``textures``): for a route that reports
that loss. Bones
B has beyond A's are not compared (a route may add a root).

    python tests/blender/compare_pose.py A.glb B.glb [--frames 0,3,7] [--tolerance 1e-3]
        [--allow-missing cameras,lights] [--json OUT.json|-]

Prints the largest difference, one ``FAIL`` line per mismatch and ``N checks passed``
(with ``, M failed``); exit status 1 when any check fails. Many pairs in one Blender
process, from a driver script::

    sys.path.insert(0, "tests/blender")
    import compare_pose
    failures = compare_pose.compare("a.glb", "b.glb", [0, 3, 7], 1e-3)

Run with the Python that has the ``bpy`` module (bpy 4.5 in a Python 3.11 virtual
environment).
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

import bpy
from mathutils.kdtree import KDTree

KINDS = ("meshes", "bones", "cameras", "lights", "textures")
DEFAULT_FRAMES = (0.0, 3.0, 7.0)


# --- measuring one file -------------------------------------------------------------------


def set_frame(scene, frame):
    whole = math.floor(frame)
    scene.frame_set(int(whole), subframe=float(frame - whole))


def import_file(path, fps=24):
    """A fresh, empty scene at `fps` with `path` imported by Blender's glTF importer."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    # The importer's INFO lines drown what this prints; 1 keeps its warnings.
    debug = bpy.app.debug_value
    bpy.app.debug_value = 1
    try:
        result = bpy.ops.import_scene.gltf(filepath=str(path), disable_bone_shape=True)
    finally:
        bpy.app.debug_value = debug
    if result != {"FINISHED"}:
        raise RuntimeError(f"Blender's glTF importer returned {result} for {path}")
    return scene


def world_axes(matrix):
    """The world matrix's rotation as three unit axes (scale taken out), flattened."""
    m = np.array(matrix, dtype=float)[:3, :3]
    norms = np.linalg.norm(m, axis=0)
    norms[norms == 0] = 1
    return (m / norms).T.reshape(-1)


# The Principled BSDF inputs a glTF material maps to, and the importer's occlusion socket.
SLOTS = ("Base Color", "Normal", "Metallic", "Roughness", "Emission Color", "Alpha", "Occlusion")
FACTORS = ("Base Color", "Metallic", "Roughness", "Emission Color", "Emission Strength", "Alpha")


def upstream_images(socket, seen=None):
    """The image texture nodes feeding a socket, through any nodes between (a normal map
    node, a separate-colour node, a mix)."""
    seen = set() if seen is None else seen
    found = []
    for link in socket.links:
        node = link.from_node
        if node.name in seen:
            continue
        seen.add(node.name)
        if node.bl_idname == "ShaderNodeTexImage":
            found.append(node)
        for upstream in node.inputs:
            if upstream.is_linked:
                found += upstream_images(upstream, seen)
    return found


def uv_map_of(node, mesh):
    """The index, in `mesh`'s UV maps, of the map an image texture node reads (0: the
    active render map, when no UV Map node says otherwise)."""
    vector = node.inputs.get("Vector")
    names = [uv.name for uv in mesh.uv_layers]
    if vector is not None and vector.is_linked:
        for upstream in [
            vector.links[0].from_node,
            *[l.from_node for i in vector.links[0].from_node.inputs for l in i.links],
        ]:
            if upstream.bl_idname == "ShaderNodeUVMap":
                return names.index(upstream.uv_map) if upstream.uv_map in names else upstream.uv_map
    return 0


def material_signature(material, mesh):
    """What the importer made of a glTF material: for each slot, the image (format, size,
    mean colour) and the UV map it reads; the unlinked factors."""
    if material is None or not material.use_nodes or material.node_tree is None:
        return {"name": getattr(material, "name", None), "slots": {}, "factors": {}}
    nodes = material.node_tree.nodes
    bsdf = next((n for n in nodes if n.bl_idname == "ShaderNodeBsdfPrincipled"), None)
    sockets = {}
    if bsdf is not None:
        sockets = {name: bsdf.inputs[name] for name in SLOTS if name in bsdf.inputs}
    for group in (n for n in nodes if n.bl_idname == "ShaderNodeGroup" and n.node_tree is not None):
        if group.node_tree.name.startswith(("glTF Material Output", "glTF Settings")) and "Occlusion" in group.inputs:
            sockets["Occlusion"] = group.inputs["Occlusion"]
    slots = {}
    for name, socket in sockets.items():
        images = [n for n in upstream_images(socket) if n.image is not None]
        if not images:
            continue
        node = images[0]
        image = node.image
        pixels = np.empty(len(image.pixels), dtype=np.float32)
        image.pixels.foreach_get(pixels)
        channels = max(image.channels, 1)
        mean = pixels.reshape(-1, channels).mean(axis=0)[:3] if len(pixels) else np.zeros(3)
        slots[name] = {
            "format": image.file_format,
            "size": list(image.size),
            "mean": [float(v) for v in mean],
            "uv": uv_map_of(node, mesh),
        }
    factors = {}
    if bsdf is not None:
        for name in FACTORS:
            socket = bsdf.inputs.get(name)
            if socket is not None and not socket.is_linked:
                value = socket.default_value
                factors[name] = [float(v) for v in value] if hasattr(value, "__len__") else [float(value)]
    return {"name": material.name, "slots": slots, "factors": factors}


def measure(path, frames=DEFAULT_FRAMES, load=import_file):
    """What Blender shows of `path` at each frame: {"frames": [...], "meshes": [{"name",
    "vertices": [array (n, 3) per frame]}], "bones": {name: [head per frame]}, "cameras":
    [...], "lights": [...]}, all world space. `load(path)` makes the scene (Blender's glTF
    importer by default; another importer to compare with it)."""
    scene = load(path)
    objects = list(scene.objects)
    shapes = {
        pb.custom_shape
        for obj in objects
        if obj.type == "ARMATURE"
        for pb in obj.pose.bones
        if pb.custom_shape is not None
    }
    meshes = [o for o in objects if o.type == "MESH" and o not in shapes]
    armatures = [o for o in objects if o.type == "ARMATURE"]
    cameras = [o for o in objects if o.type == "CAMERA"]
    lights = [o for o in objects if o.type == "LIGHT"]
    result = {
        "file": str(path),
        "frames": [float(f) for f in frames],
        "meshes": [
            {
                "name": o.name,
                "vertices": [],
                "materials": [material_signature(slot.material, o.data) for slot in o.material_slots],
            }
            for o in meshes
        ],
        "bones": {},
        "cameras": [
            {"name": o.name, "type": o.data.type, "position": [], "axes": [], "angle_y": [], "ortho_scale": []}
            for o in cameras
        ],
        "lights": [
            {
                "name": o.name,
                "type": o.data.type,
                "position": [],
                "axes": [],
                "color": [],
                "energy": [],
                "spot_size": [],
            }
            for o in lights
        ],
    }
    bone_keys = {}
    for arm in armatures:
        for pb in arm.pose.bones:
            key = pb.name
            n = 2
            while key in bone_keys.values():
                key = f"{pb.name}#{n}"
                n += 1
            bone_keys[(arm.name, pb.name)] = key
            result["bones"][key] = []
    for frame in frames:
        set_frame(scene, frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for obj, record in zip(meshes, result["meshes"]):
            evaluated = obj.evaluated_get(depsgraph)
            mesh = evaluated.to_mesh()
            co = np.empty(len(mesh.vertices) * 3, dtype=np.float64)
            mesh.vertices.foreach_get("co", co)
            evaluated.to_mesh_clear()
            m = np.array(evaluated.matrix_world, dtype=np.float64)
            record["vertices"].append(co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3])
        for arm in armatures:
            evaluated = arm.evaluated_get(depsgraph)
            m = evaluated.matrix_world
            for pb in evaluated.pose.bones:
                result["bones"][bone_keys[(arm.name, pb.name)]].append(np.array(m @ pb.head, dtype=np.float64))
        for obj, record in zip(cameras, result["cameras"]):
            evaluated = obj.evaluated_get(depsgraph)
            record["position"].append(np.array(evaluated.matrix_world.translation, dtype=np.float64))
            record["axes"].append(world_axes(evaluated.matrix_world))
            record["angle_y"].append(float(evaluated.data.angle_y) if evaluated.data.type == "PERSP" else 0.0)
            record["ortho_scale"].append(float(evaluated.data.ortho_scale) if evaluated.data.type == "ORTHO" else 0.0)
        for obj, record in zip(lights, result["lights"]):
            evaluated = obj.evaluated_get(depsgraph)
            record["position"].append(np.array(evaluated.matrix_world.translation, dtype=np.float64))
            record["axes"].append(world_axes(evaluated.matrix_world))
            record["color"].append(np.array(evaluated.data.color, dtype=np.float64))
            record["energy"].append(float(evaluated.data.energy))
            record["spot_size"].append(float(evaluated.data.spot_size) if evaluated.data.type == "SPOT" else 0.0)
    return result


def diagonal(measured):
    """The diagonal of the bounding box of the vertices at the first frame (of bone heads,
    cameras and lights when there is no mesh), or 1."""
    points = [m["vertices"][0] for m in measured["meshes"] if len(m["vertices"][0])]
    if not points:
        points = [np.array([h[0] for h in measured["bones"].values()])] if measured["bones"] else []
        points += [np.array([x["position"][0]]) for kind in ("cameras", "lights") for x in measured[kind]]
    if not points:
        return 1.0
    allp = np.concatenate([p.reshape(-1, 3) for p in points])
    d = float(np.linalg.norm(allp.max(axis=0) - allp.min(axis=0)))
    return d if d > 0 else 1.0


# --- comparing two measurements -----------------------------------------------------------


def hausdorff(a, b):
    """The largest distance from a point of either set to the nearest point of the other."""
    if len(a) == 0 or len(b) == 0:
        return 0.0 if len(a) == len(b) else math.inf
    if len(a) == len(b):
        direct = float(np.linalg.norm(a - b, axis=1).max())
        if direct == 0.0:
            return 0.0
    worst = 0.0
    for src, dst in ((a, b), (b, a)):
        tree = KDTree(len(dst))
        for i, p in enumerate(dst):
            tree.insert(p.tolist(), i)
        tree.balance()
        for p in src:
            _co, _index, distance = tree.find(p.tolist())
            worst = max(worst, distance)
    return worst


def centroid(points):
    return points.mean(axis=0) if len(points) else np.zeros(3)


def pair_meshes(meshes_a, meshes_b):
    """Pairs (i, j) of A's and B's meshes: same vertex count first, each time the two
    nearest centroids at the first frame; then what is left, by nearest centroid."""
    pairs, used_a, used_b = [], set(), set()
    for same_count in (True, False):
        candidates = []
        for i, ma in enumerate(meshes_a):
            for j, mb in enumerate(meshes_b):
                if i in used_a or j in used_b:
                    continue
                if same_count and len(ma["vertices"][0]) != len(mb["vertices"][0]):
                    continue
                distance = float(np.linalg.norm(centroid(ma["vertices"][0]) - centroid(mb["vertices"][0])))
                candidates.append((distance, i, j))
        for _distance, i, j in sorted(candidates):
            if i in used_a or j in used_b:
                continue
            pairs.append((i, j))
            used_a.add(i)
            used_b.add(j)
    return (
        pairs,
        [i for i in range(len(meshes_a)) if i not in used_a],
        [j for j in range(len(meshes_b)) if j not in used_b],
    )


def pair_by_type(items_a, items_b):
    """Cameras or lights: of the same type, nearest position at the first frame first."""
    candidates = sorted(
        (float(np.linalg.norm(xa["position"][0] - xb["position"][0])), i, j)
        for i, xa in enumerate(items_a)
        for j, xb in enumerate(items_b)
        if xa["type"] == xb["type"]
    )
    pairs, used_a, used_b = [], set(), set()
    for _d, i, j in candidates:
        if i not in used_a and j not in used_b:
            pairs.append((i, j))
            used_a.add(i)
            used_b.add(j)
    return (
        pairs,
        [i for i in range(len(items_a)) if i not in used_a],
        [j for j in range(len(items_b)) if j not in used_b],
    )


def compare_measured(a, b, tolerance=1e-3, allow_missing=()):
    """Compare two measurements (of the same frames). Returns {"diagonal", "checks": [{"what",
    "frame", "difference"}...], "failures": [str], "largest": {...}}; differences are
    relative to A's diagonal (lengths) or absolute (axes, angles, relative energy)."""
    allow = set(allow_missing)
    unknown = allow - set(KINDS)
    if unknown:
        raise ValueError(f"--allow-missing knows {', '.join(KINDS)}, not {', '.join(sorted(unknown))}")
    diag = diagonal(a)
    frames = a["frames"]
    checks, failures = [], []

    def check(what, frame_index, difference):
        checks.append({"what": what, "frame": frames[frame_index], "difference": difference})

    def check_value(what, difference, limit):
        """A frame-independent check with its own limit (a colour, a count)."""
        checks.append({"what": what, "frame": None, "difference": difference, "limit": limit})
        if not difference <= limit:
            failures.append(f"{what}: off by {difference:.3g} (limit {limit:g})")

    def missing(kind, what, extra=False):
        if kind in allow and not extra:
            checks.append({"what": what + " (allowed missing)", "frame": None, "difference": 0.0})
        else:
            checks.append({"what": what, "frame": None, "difference": math.inf})
            failures.append(what)

    # Meshes.
    pairs, lost, extra = pair_meshes(a["meshes"], b["meshes"])
    for i, j in pairs:
        ma, mb = a["meshes"][i], b["meshes"][j]
        na, nb = len(ma["vertices"][0]), len(mb["vertices"][0])
        label = f"mesh {ma['name']!r} ({na} vertices) as {mb['name']!r}" + ("" if na == nb else f" ({nb} vertices)")
        for k in range(len(frames)):
            check(f"{label}: vertices", k, hausdorff(ma["vertices"][k], mb["vertices"][k]) / diag)
        compare_materials(f"mesh {ma['name']!r}", ma["materials"], mb["materials"], check_value, missing)
    for i in lost:
        m = a["meshes"][i]
        missing("meshes", f"mesh {m['name']!r} ({len(m['vertices'][0])} vertices) of A has no counterpart in B")
    for j in extra:
        m = b["meshes"][j]
        missing("meshes", f"mesh {m['name']!r} ({len(m['vertices'][0])} vertices) of B is not in A", extra=True)

    # Bones, by name.
    for name, heads in a["bones"].items():
        if name not in b["bones"]:
            missing("bones", f"bone {name!r} of A is not in B")
            continue
        for k in range(len(frames)):
            check(f"bone {name!r}: head", k, float(np.linalg.norm(heads[k] - b["bones"][name][k])) / diag)

    # Cameras and lights.
    for kind, singular in (("cameras", "camera"), ("lights", "light")):
        pairs, lost, extra = pair_by_type(a[kind], b[kind])
        for i, j in pairs:
            xa, xb = a[kind][i], b[kind][j]
            label = f"{xa['type'].lower()} {singular} {xa['name']!r} as {xb['name']!r}"
            for k in range(len(frames)):
                check(f"{label}: position", k, float(np.linalg.norm(xa["position"][k] - xb["position"][k])) / diag)
                check(f"{label}: axes", k, float(np.abs(xa["axes"][k] - xb["axes"][k]).max()))
                if kind == "cameras":
                    check(f"{label}: vertical field of view (radians)", k, abs(xa["angle_y"][k] - xb["angle_y"][k]))
                    scale = max(abs(xa["ortho_scale"][k]), 1e-9)
                    check(
                        f"{label}: orthographic scale (relative)",
                        k,
                        abs(xa["ortho_scale"][k] - xb["ortho_scale"][k]) / scale,
                    )
                else:
                    check(f"{label}: colour", k, float(np.abs(xa["color"][k] - xb["color"][k]).max()))
                    energy = max(abs(xa["energy"][k]), 1e-9)
                    check(f"{label}: energy (relative)", k, abs(xa["energy"][k] - xb["energy"][k]) / energy)
                    check(f"{label}: spot angle (radians)", k, abs(xa["spot_size"][k] - xb["spot_size"][k]))
        for i in lost:
            missing(
                kind, f"{a[kind][i]['type'].lower()} {singular} {a[kind][i]['name']!r} of A has no counterpart in B"
            )
        for j in extra:
            missing(
                kind, f"{b[kind][j]['type'].lower()} {singular} {b[kind][j]['name']!r} of B is not in A", extra=True
            )

    # One failure per thing compared, at its worst frame.
    worst = {}
    for c in checks:
        if c["frame"] is None:
            continue
        beyond = not c["difference"] <= tolerance  # NaN and inf fail too
        w = worst.setdefault(c["what"], {"check": c, "beyond": 0, "frames": 0})
        w["frames"] += 1
        w["beyond"] += beyond
        if not c["difference"] <= w["check"]["difference"]:
            w["check"] = c
    for what, w in worst.items():
        if w["beyond"]:
            c = w["check"]
            failures.append(
                f"{what}: off by {c['difference']:.3g} at frame {c['frame']:g} "
                f"({w['beyond']} of {w['frames']} frames beyond {tolerance:g})"
            )
    # The largest of the per-frame differences (lengths and angles), else of any check.
    largest = max((c for c in checks if c["frame"] is not None), key=lambda c: c["difference"], default=None)
    if largest is None:
        largest = max(checks, key=lambda c: c["difference"], default=None)
    return {"diagonal": diag, "tolerance": tolerance, "checks": checks, "failures": failures, "largest": largest}


# Mean colours of an image may move by this much (a JPEG decoded by another decoder, a PNG
# re-encoded from 8 bits), on a 0-1 scale.
COLOUR_LIMIT = 2.0 / 255


def compare_materials(label, materials_a, materials_b, check_value, missing):
    """A mesh's materials, slot by slot: each texture slot of A in B with an image of the
    same format and size, close in mean colour, on the same UV map; each unlinked factor."""
    if len(materials_a) != len(materials_b):
        check_value(
            f"{label}: material count {len(materials_a)} -> {len(materials_b)}",
            abs(len(materials_a) - len(materials_b)),
            0,
        )
    for index, (ma, mb) in enumerate(zip(materials_a, materials_b)):
        where = f"{label} material {index} ({ma['name']!r})"
        for slot, ta in ma["slots"].items():
            tb = mb["slots"].get(slot)
            if tb is None:
                missing("textures", f"{where}: the {slot} texture is not in B")
                continue
            for key in ("format", "size", "uv"):
                if ta[key] != tb[key]:
                    check_value(f"{where}: {slot} texture {key} {ta[key]} -> {tb[key]}", math.inf, 0)
            colour = (
                float(np.abs(np.array(ta["mean"]) - np.array(tb["mean"])).max()) if ta["mean"] and tb["mean"] else 0.0
            )
            check_value(f"{where}: {slot} texture mean colour", colour, COLOUR_LIMIT)
        for slot in mb["slots"]:
            if slot not in ma["slots"]:
                missing("textures", f"{where}: a {slot} texture in B that A does not have", extra=True)
        for name, fa in ma["factors"].items():
            fb = mb["factors"].get(name)
            if fb is None:
                continue  # linked in B: the slot checks judge it
            check_value(f"{where}: {name} factor", float(np.abs(np.array(fa) - np.array(fb)).max()), 1e-3)


def compare_report(path_a, path_b, frames=DEFAULT_FRAMES, tolerance=1e-3, allow_missing=(), load_b=import_file):
    """Measure both files and compare them: the report of `compare_measured`, with the files
    and the mesh, bone, camera and light counts of each side. `load_b` imports B (see
    `measure`)."""
    a = measure(path_a, frames)
    b = measure(path_b, frames, load_b)
    report = compare_measured(a, b, tolerance, allow_missing)
    report["a"] = {"file": str(path_a), **counts(a)}
    report["b"] = {"file": str(path_b), **counts(b)}
    report["frames"] = [float(f) for f in frames]
    return report


def compare(path_a, path_b, frames=DEFAULT_FRAMES, tolerance=1e-3, allow_missing=()):
    """The mismatches between what Blender shows of two files (an empty list when they
    look the same): see the module's docs."""
    return compare_report(path_a, path_b, frames, tolerance, allow_missing)["failures"]


def counts(measured):
    return {
        "meshes": len(measured["meshes"]),
        "vertices": sum(len(m["vertices"][0]) for m in measured["meshes"]) if measured["frames"] else 0,
        "bones": len(measured["bones"]),
        "cameras": len(measured["cameras"]),
        "lights": len(measured["lights"]),
    }


def parse_frames(text):
    return [float(f) for f in text.split(",") if f.strip()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="the original (.glb or .gltf)")
    parser.add_argument("b", help="what a route made of it")
    parser.add_argument(
        "--frames",
        type=parse_frames,
        default=list(DEFAULT_FRAMES),
        help="comma-separated frames, fractions allowed (default 0,3,7)",
    )
    parser.add_argument(
        "--tolerance", type=float, default=1e-3, help="of the diagonal of A's bounding box (default 1e-3)"
    )
    parser.add_argument(
        "--allow-missing", default="", help=f"kinds B may lack (a route reported the loss): {','.join(KINDS)}"
    )
    parser.add_argument("--json", help="write the measurements here (- for stdout)")
    args = parser.parse_args(argv)
    allow = [k for k in args.allow_missing.split(",") if k]
    print(f"Blender {bpy.app.version_string}")
    try:
        report = compare_report(args.a, args.b, args.frames, args.tolerance, allow)
    except Exception as error:  # noqa: BLE001 - one FAIL line, like any mismatch
        print(f"FAIL {args.a} against {args.b}: {error}")
        print("0 checks passed, 1 failed")
        return 1
    if args.json:
        text = json.dumps(report, indent=1, default=float).replace("Infinity", "null").replace("NaN", "null")
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w") as f:
                f.write(text + "\n")
    largest = report["largest"]
    print(f"A: {report['a']}")
    print(f"B: {report['b']}")
    if largest is not None:
        at = f" at frame {largest['frame']:g}" if largest["frame"] is not None else ""
        print(
            f"largest difference: {largest['difference']:.3g} ({largest['what']}{at}); diagonal {report['diagonal']:.6g}"
        )
    for failure in report["failures"]:
        print(f"FAIL {failure}")
    failed = len(report["failures"])
    print(f"{len(report['checks']) - failed} checks passed" + (f", {failed} failed" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
