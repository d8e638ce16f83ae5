"""An independent reader of animbin's FBX: ufbx (the PyPI bindings of the ufbx C library).

Every sample of testdata/ (and of testdata/graph/) is converted by animbin to FBX and to glb;
ufbx loads the FBX, and it must hold what the glb of the same input holds:

- no warning from ufbx (``metadata.warnings``);
- the same nodes by name (every glb node that places no mesh is a node of the FBX, bones
  as ``LimbNode``s where they are a skin's joints);
- the same number of vertices and triangles, and for skinned meshes the same weight of each
  joint at each vertex to 1e-4 (meshes paired by vertex count and order of appearance);
- the same animations by name, each stack as long as the glb's animation (to a frame);
- the same cameras (projection and vertical field of view to 1e-4 degrees) and lights (by
  type).

    python tests/fbx/check_ufbx.py --animbin target/debug/animbin --testdata testdata --testdata ../shared/corpus

Prints one ``FAIL`` line per mismatch and ``N passed, M failed``; exits 1 on any failure.
Files animbin refuses to convert to glb (nothing to write) are skipped by name.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import gc

import ufbx

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
FORMATS = {5126: "f", 5125: "I", 5123: "H", 5121: "B"}

# The ufbx bindings crash when a scene is freed while objects read from it live on: every
# scene is kept until the process ends.
KEEP: list = []
# ...and the collector crashes the process when it meets the bindings' objects of a scene with
# cameras and lights (ufbx 0.0.5): nothing here makes cycles, so it is off.
gc.disable()


def read_glb(path: Path) -> tuple[dict, bytes]:
    data = path.read_bytes()
    json_len = struct.unpack_from("<I", data, 12)[0]
    gltf = json.loads(data[20 : 20 + json_len])
    rest = 20 + json_len
    binary = data[rest + 8 :] if rest < len(data) else b""
    return gltf, binary


def accessor(gltf: dict, binary: bytes, index: int) -> list[tuple]:
    acc = gltf["accessors"][index]
    view = gltf["bufferViews"][acc["bufferView"]]
    n = COMPONENTS[acc["type"]]
    fmt = FORMATS[acc["componentType"]]
    size = struct.calcsize(fmt)
    stride = view.get("byteStride", size * n)
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    scale = 1.0
    if acc.get("normalized"):
        scale = 1.0 / {"B": 255, "H": 65535, "I": 1}[fmt]
    out = []
    for i in range(acc["count"]):
        values = struct.unpack_from("<" + fmt * n, binary, start + i * stride)
        out.append(tuple(v * scale for v in values) if scale != 1.0 else values)
    return out


def glb_facts(path: Path) -> dict:
    gltf, binary = read_glb(path)
    nodes = gltf.get("nodes", [])
    mesh_nodes = {i for i, n in enumerate(nodes) if "mesh" in n}
    meshes = []
    lines = 0
    seen = set()
    for node_index in sorted(mesh_nodes):
        node = nodes[node_index]
        # Nodes that place the same mesh (instances) share one FBX geometry.
        if node["mesh"] in seen:
            continue
        seen.add(node["mesh"])
        skin = gltf["skins"][node["skin"]] if "skin" in node else None
        for primitive in gltf["meshes"][node["mesh"]]["primitives"]:
            if primitive.get("mode", 4) != 4:
                # Lines or points (a Cast file's hair): animbin's FBX has no hair, and the
                # conversion must say so (checked in main).
                lines += 1
                continue
            attributes = primitive["attributes"]
            count = gltf["accessors"][attributes["POSITION"]]["count"]
            triangles = gltf["accessors"][primitive["indices"]]["count"] // 3 if "indices" in primitive else count // 3
            weights = None
            if skin is not None and "JOINTS_0" in attributes:
                weights = []
                sets = [(attributes[f"JOINTS_{k}"], attributes[f"WEIGHTS_{k}"]) for k in range(8) if f"JOINTS_{k}" in attributes]
                columns = [(accessor(gltf, binary, j), accessor(gltf, binary, w)) for j, w in sets]
                for v in range(count):
                    per_joint: dict[str, float] = {}
                    for joints, ws in columns:
                        for joint, weight in zip(joints[v], ws[v]):
                            if weight:
                                name = nodes[skin["joints"][joint]].get("name", "")
                                per_joint[name] = per_joint.get(name, 0.0) + weight
                    weights.append(per_joint)
            meshes.append({"vertices": count, "triangles": triangles, "weights": weights})
    durations = {}
    for animation in gltf.get("animations", []):
        end = 0.0
        for sampler in animation["samplers"]:
            end = max(end, gltf["accessors"][sampler["input"]].get("max", [0.0])[0])
        durations[animation.get("name", "")] = end
    # The nodes animbin's glTF writer adds for what glTF cannot say (a wrapper root, the
    # placement, scale compensation) are marked in their extras: FBX has no need of them.
    helpers = {i for i, n in enumerate(nodes) if "animbin" in (n.get("extras") or {})}
    names = {n.get("name", "") for i, n in enumerate(nodes) if i not in mesh_nodes | helpers}
    joints = {nodes[j].get("name", "") for skin in gltf.get("skins", []) for j in skin["joints"]}
    cameras = sorted(
        (c["type"], round(math.degrees(c["perspective"]["yfov"]), 4) if c["type"] == "perspective" else None)
        for c in gltf.get("cameras", [])
        for n in nodes
        if n.get("camera") is not None and gltf["cameras"][n["camera"]] is c
    )
    light_list = (gltf.get("extensions") or {}).get("KHR_lights_punctual", {}).get("lights", [])
    lights = sorted(
        light_list[n["extensions"]["KHR_lights_punctual"]["light"]]["type"]
        for n in nodes
        if "KHR_lights_punctual" in (n.get("extensions") or {})
    )
    return {"nodes": names, "joints": joints, "meshes": meshes, "lines": lines, "animations": durations, "cameras": cameras, "lights": lights}


def fbx_facts(path: Path) -> dict:
    # Every list the bindings hand out is held in a name while it is walked: a temporary one
    # can be freed under its iterator.
    scene = ufbx.load_file(str(path))
    KEEP.append(scene)
    warning_list = scene.metadata.warnings
    warnings = [f"{warning_list[i].type}: {warning_list[i].description}" for i in range(len(warning_list))]
    meshes = []
    mesh_list = scene.meshes
    for i in range(len(mesh_list)):
        mesh = mesh_list[i]
        weights = None
        skins = mesh.skin_deformers
        if len(skins) > 0:
            weights = [dict() for _ in range(mesh.num_vertices)]
            clusters = skins[0].clusters
            for c in range(len(clusters)):
                cluster = clusters[c]
                name = cluster.bone_node.name
                vertices, values = list(cluster.vertices), list(cluster.weights)
                for v, w in zip(vertices, values):
                    weights[v][name] = weights[v].get(name, 0.0) + w
        meshes.append({"vertices": mesh.num_vertices, "triangles": mesh.num_triangles, "weights": weights})
    # A fresh load per part: the bindings crash on a node read after a cluster's bone node.
    scene = ufbx.load_file(str(path))
    KEEP.append(scene)
    nodes = set()
    bones = set()
    node_list = scene.nodes
    for i in range(len(node_list)):
        node = node_list[i]
        if node.is_root or node.attrib_type == ufbx.ElementType.MESH:
            continue
        nodes.add(node.name)
        if node.bone is not None:
            bones.add(node.name)
    rate = scene.settings.frames_per_second
    stack_list = scene.anim_stacks
    stacks = {}
    for i in range(len(stack_list)):
        stack = stack_list[i]
        stacks[stack.name] = stack.time_end - stack.time_begin
    # Cameras (their projection and vertical field of view) and lights (their type), from a
    # fresh load too.
    scene = ufbx.load_file(str(path))
    KEEP.append(scene)
    cameras = []
    camera_list = scene.cameras
    for i in range(len(camera_list)):
        camera = camera_list[i]
        perspective = camera.projection_mode == ufbx.ProjectionMode.PERSPECTIVE
        cameras.append(("perspective" if perspective else "orthographic", round(camera.field_of_view_deg.y, 4) if perspective else None))
    light_types = {ufbx.LightType.POINT: "point", ufbx.LightType.DIRECTIONAL: "directional", ufbx.LightType.SPOT: "spot"}
    lights = []
    light_list = scene.lights
    for i in range(len(light_list)):
        light = light_list[i]
        kind = light.type
        lights.append(light_types.get(kind, str(kind)))
    return {"cameras": sorted(cameras), "lights": sorted(lights), "warnings": warnings, "nodes": nodes, "bones": bones, "meshes": meshes, "animations": stacks, "rate": rate}


def compare(name: str, glb: dict, fbx: dict, fail) -> int:
    checks = 0

    def check(ok: bool, what: str) -> None:
        nonlocal checks
        checks += 1
        if not ok:
            fail(f"{name}: {what}")

    check(not fbx["warnings"], f"ufbx warns: {fbx['warnings']}")
    check(glb["nodes"] <= fbx["nodes"], f"nodes missing from the FBX: {sorted(glb['nodes'] - fbx['nodes'])}")
    check(glb["joints"] <= fbx["bones"], f"skin joints that are no LimbNode: {sorted(glb['joints'] - fbx['bones'])}")
    check(len(glb["meshes"]) == len(fbx["meshes"]), f"{len(fbx['meshes'])} meshes, the glb {len(glb['meshes'])}")
    for k, (a, b) in enumerate(zip(glb["meshes"], fbx["meshes"])):
        check(a["vertices"] == b["vertices"], f"mesh {k}: {b['vertices']} vertices, the glb {a['vertices']}")
        check(a["triangles"] == b["triangles"], f"mesh {k}: {b['triangles']} triangles, the glb {a['triangles']}")
        check((a["weights"] is None) == (b["weights"] is None), f"mesh {k}: skinned in one and not the other")
        if a["weights"] is not None and b["weights"] is not None and a["vertices"] == b["vertices"]:
            worst = 0.0
            for va, vb in zip(a["weights"], b["weights"]):
                for joint in set(va) | set(vb):
                    worst = max(worst, abs(va.get(joint, 0.0) - vb.get(joint, 0.0)))
            check(worst <= 1e-4, f"mesh {k}: a skin weight differs by {worst}")
    check(glb["cameras"] == fbx["cameras"], f"cameras {fbx['cameras']}, the glb {glb['cameras']}")
    check(glb["lights"] == fbx["lights"], f"lights {fbx['lights']}, the glb {glb['lights']}")
    check(set(glb["animations"]) == set(fbx["animations"]), f"stacks {sorted(fbx['animations'])}, the glb {sorted(glb['animations'])}")
    for animation, duration in glb["animations"].items():
        if animation in fbx["animations"]:
            frame = 1.0 / fbx["rate"] if fbx["rate"] > 0 else 1.0
            length = fbx["animations"][animation]
            check(abs(length - duration) <= frame + 1e-6, f"stack {animation!r} lasts {length}s, the glb {duration}s")
    return checks


def samples(testdata: Path) -> list[Path]:
    suffixes = {".seanim", ".semodel", ".cast", ".dmf", ".animx", ".animj", ".glb"}
    files = [p for p in sorted(testdata.rglob("*")) if p.is_file() and (p.suffix in suffixes or p.name.startswith("x8an"))]
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--animbin", required=True)
    parser.add_argument(
        "--testdata",
        action="append",
        help="a folder of inputs, walked whole (repeatable: testdata, ../shared/corpus); testdata by default",
    )
    args = parser.parse_args()
    folders = [Path(folder) for folder in args.testdata or ["testdata"]]
    passed = failed = 0
    failures: list[str] = []

    def fail(line: str) -> None:
        failures.append(line)
        print("FAIL", line, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        inputs = [(folder, sample) for folder in folders for sample in samples(folder)]
        for k, (folder, sample) in enumerate(inputs):
            name = str(sample.relative_to(folder.parent))
            fbx, glb = Path(tmp) / f"{k}.fbx", Path(tmp) / f"{k}.glb"
            made = [subprocess.run([args.animbin, "convert", str(sample), str(out)], capture_output=True, text=True) for out in (fbx, glb)]
            if made[1].returncode != 0 and "nothing was written" in made[1].stderr:
                print(f"skipped {name}: {made[1].stderr.strip().splitlines()[-1]}")
                continue
            if made[0].returncode != 0 and "nothing was written" in made[0].stderr:
                # FBX holds nothing of it where the glb holds only what animbin's FBX has no
                # place for (a Cast file's references to other files): refused, and said so.
                facts = glb_facts(glb)
                if not (facts["meshes"] or facts["joints"] or facts["animations"] or facts["cameras"] or facts["lights"]):
                    print(f"skipped {name}: {made[0].stderr.strip().splitlines()[0]}")
                    passed += 1
                    continue
            if made[0].returncode != 0 or made[1].returncode != 0:
                fail(f"{name}: animbin convert failed: {made[0].stderr.strip()} {made[1].stderr.strip()}")
                failed += 1
                continue
            before = len(failures)
            facts = glb_facts(glb)
            if facts["lines"] and "has no hair" not in made[0].stderr:
                fail(f"{name}: the glb holds {facts['lines']} hair primitive(s), and the FBX conversion does not say it has none")
            checks = compare(name, facts, fbx_facts(fbx), fail)
            failed += len(failures) - before
            passed += checks - (len(failures) - before)
    print(f"{passed} passed, {failed} failed")
    sys.stdout.flush()
    # The ufbx bindings free their scenes at exit in an order that can crash the process
    # after everything is checked; the result is already printed.
    os._exit(1 if failed else 0)


if __name__ == "__main__":
    main()
