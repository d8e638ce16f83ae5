"""An independent reader of animbin's FBX: Assimp (Debian's libassimp5 through the ``impasse``
bindings from PyPI; pyassimp 5.2.5 fails on bones against that library).

Every sample of testdata/ (and its folders) is converted by animbin to FBX and to glb; Assimp
imports the FBX, and it must hold what the glb holds:

- the same meshes: as many as the glb's (mesh, primitive) pairs, with the same triangle
  counts in order;
- every glb node that places no mesh among Assimp's nodes by name, and every bone Assimp
  gives a mesh a skin joint of the glb (skinned meshes have bones, others none);
- the same animations by name (those of one pose may be missing: Assimp drops an animation
  that does not move), each as long as the glb's (to a frame: the glb's length is its last
  key, the FBX stack's the source's length).

    target/assimp-venv/bin/python tests/fbx/check_assimp.py --animbin target/debug/animbin \\
        --testdata testdata

Prints one ``FAIL`` line per mismatch and ``N passed, M failed``; exits 1 on any failure.
Files animbin refuses to convert to glb (nothing to write) are skipped by name.
"""

from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import impasse


def glb_facts(path: Path) -> dict:
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    gltf = json.loads(data[20 : 20 + length])
    nodes = gltf.get("nodes", [])
    triangles = []
    lines = 0
    seen = set()
    for node in nodes:
        # Nodes that place the same mesh (instances) share one FBX geometry and one aiMesh.
        if "mesh" not in node or node["mesh"] in seen:
            continue
        seen.add(node["mesh"])
        for primitive in gltf["meshes"][node["mesh"]]["primitives"]:
            if primitive.get("mode", 4) != 4:
                # Lines or points (a Cast file's hair): animbin's FBX has no hair, and says so.
                lines += 1
                continue
            count = gltf["accessors"][primitive.get("indices", primitive["attributes"]["POSITION"])]["count"]
            triangles.append({"triangles": count // 3, "skinned": "skin" in node and "JOINTS_0" in primitive["attributes"]})
    # The nodes animbin's glTF writer adds for what glTF cannot say are marked in their extras.
    names = {n.get("name", "") for n in nodes if "mesh" not in n and "animbin" not in (n.get("extras") or {})}
    joints = {nodes[j].get("name", "") for skin in gltf.get("skins", []) for j in skin["joints"]}
    durations = {}
    for animation in gltf.get("animations", []):
        end = max((gltf["accessors"][s["input"]].get("max", [0.0])[0] for s in animation["samplers"]), default=0.0)
        durations[animation.get("name", "")] = end
    return {"meshes": triangles, "lines": lines, "nodes": names, "joints": joints, "animations": durations}


def fbx_facts(path: Path) -> dict:
    scene = impasse.load(str(path))
    meshes = [{"triangles": len(m.faces), "bones": {b.name for b in m.bones}} for m in scene.meshes]
    names = set()
    stack = [scene.root_node]
    while stack:
        node = stack.pop()
        names.add(node.name)
        stack.extend(node.children)
    animations = {}
    for animation in scene.animations:
        rate = animation.ticks_per_second or 1.0
        animations[animation.name] = (animation.duration / rate, animation.ticks_per_second)
    return {"meshes": meshes, "nodes": names, "animations": animations}


def compare(name: str, glb: dict, fbx: dict, fail) -> int:
    checks = 0

    def check(ok: bool, what: str) -> None:
        nonlocal checks
        checks += 1
        if not ok:
            fail(f"{name}: {what}")

    check(len(glb["meshes"]) == len(fbx["meshes"]), f"{len(fbx['meshes'])} meshes, the glb {len(glb['meshes'])}")
    for k, (a, b) in enumerate(zip(glb["meshes"], fbx["meshes"])):
        check(a["triangles"] == b["triangles"], f"mesh {k}: {b['triangles']} triangles, the glb {a['triangles']}")
        check(a["skinned"] == bool(b["bones"]), f"mesh {k}: skinned in one and not the other")
        check(b["bones"] <= glb["joints"], f"mesh {k}: bones that are no skin joint: {sorted(b['bones'] - glb['joints'])}")
    check(glb["nodes"] <= fbx["nodes"], f"nodes missing: {sorted(glb['nodes'] - fbx['nodes'])}")
    # Assimp drops an animation that does not move (a single pose: every curve one key);
    # the glb's of length 0 are those.
    moving = {a for a, d in glb["animations"].items() if d > 0}
    check(moving <= set(fbx["animations"]) <= set(glb["animations"]), f"animations {sorted(fbx['animations'])}, the glb {sorted(glb['animations'])}")
    for animation, duration in glb["animations"].items():
        if animation in fbx["animations"]:
            length, rate = fbx["animations"][animation]
            # The glb's length is its last key; the stack's is the source's length, which
            # can end a frame after the last key (AnimX).
            frame = 1.0 / rate if rate > 0 else 1.0
            check(abs(length - duration) <= frame + 1e-6, f"animation {animation!r} lasts {length} s, the glb {duration} s")
    return checks


def samples(testdata: Path) -> list[Path]:
    suffixes = {".seanim", ".semodel", ".cast", ".dmf", ".animx", ".animj", ".glb"}
    return [p for p in sorted(testdata.rglob("*")) if p.is_file() and (p.suffix in suffixes or p.name.startswith("x8an"))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--animbin", required=True)
    parser.add_argument("--testdata", default="testdata")
    args = parser.parse_args()
    passed = failed = 0

    def fail(line: str) -> None:
        print("FAIL", line, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        for k, sample in enumerate(samples(Path(args.testdata))):
            name = str(sample.relative_to(args.testdata))
            fbx, glb = Path(tmp) / f"{k}.fbx", Path(tmp) / f"{k}.glb"
            made = [subprocess.run([args.animbin, "convert", str(sample), str(out)], capture_output=True, text=True) for out in (fbx, glb)]
            if made[1].returncode != 0 and "nothing was written" in made[1].stderr:
                print(f"skipped {name}: nothing to write")
                continue
            if made[0].returncode != 0 and "nothing was written" in made[0].stderr:
                # Only what animbin's FBX has no place for (a Cast file's references to other
                # files): FBX refuses it, and says so.
                glb_only = glb_facts(glb)
                if not (glb_only["meshes"] or glb_only["joints"] or glb_only["animations"]):
                    print(f"skipped {name}: FBX holds nothing of it")
                    passed += 1
                    continue
            if made[0].returncode != 0 or made[1].returncode != 0:
                fail(f"{name}: animbin convert failed: {made[0].stderr.strip()} {made[1].stderr.strip()}")
                failed += 1
                continue
            failures: list[str] = []
            try:
                facts = fbx_facts(fbx)
            except Exception as error:  # an import failure is a finding, not a crash of the check
                fail(f"{name}: Assimp cannot import it: {error}")
                failed += 1
                continue
            expected = glb_facts(glb)
            if expected["lines"] and "has no hair" not in made[0].stderr:
                failures.append(f"{name}: hair in the glb, and the FBX conversion does not say it has none")
                fail(failures[-1])
            checks = compare(name, expected, facts, lambda line: (failures.append(line), fail(line)))
            failed += len(failures)
            passed += checks - len(failures)
            clips = ", ".join(f"{n} {d:.3f} s" for n, (d, _) in facts["animations"].items())
            print(f"checked {name}: {len(facts['meshes'])} meshes, animations [{clips}]")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
