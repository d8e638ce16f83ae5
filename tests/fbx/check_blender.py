"""Blender and animbin's FBX, both ways.

Out: Blender's own FBX importers on animbin's FBX: each sample of testdata/ looks the same as
Blender's glTF import of animbin's glb of the same input.

For every sample, ``animbin convert`` writes a glb and an FBX; the FBX is imported with each
importer asked for (``--importers``: ``import_scene.fbx``, the add-on, and
``wm.fbx_import``, the C++ importer built on ufbx; by default every one this Blender has),
with no animation offset, and the glb with the glTF importer at the frame rate the FBX
importer set; ``compare_pose.compare_measured`` compares world-space vertices, bone heads,
cameras and lights at the first, a middle and the last frame of the animation, within 1e-3
of the model's size.

    target/bpy-4.5/bin/python tests/fbx/check_blender.py --animbin target/debug/animbin \\
        --testdata testdata [--importers import_scene.fbx,wm.fbx_import] [--only NAME]

In: each Blender-made asset of testdata/graph/ with an armature or animated objects is
imported by Blender's glTF importer and exported by Blender's FBX exporter
(``bake_anim=True``, ``add_leaf_bones=False``); animbin converts that FBX to glb, which must
look like the source asset at the same frames.

Prints one ``FAIL`` line per mismatch and ``N passed, M failed``; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

import numpy as np
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "blender"))
import compare_pose  # noqa: E402


# What Blender's import of the FBX may lack beside its import of the glb.
ALLOWED_MISSING = ("textures",)


# Samples whose FBX differs from their glb by a loss the conversion names on stderr.
NAMED_LOSSES = {
    # glTF's STEP and CUBICSPLINE samplers in one animation: formats of one interpolation
    # per animation get the splines sampled at whole frames (the same route through Cast
    # differs in Blender as much, so this is the shared bake's, not FBX's).
    "graph/step_cubic.glb": "cubic spline channel(s): sampled at every whole frame",
}


# Files whose glb Blender's glTF importer does not show as the file holds it, so that its
# import is no oracle there: the FBX import is compared with the file's own vertices instead
# (as animbin's Python module reads them, turned Z-up as both importers turn a Y-up file).
SOURCE_ORACLE = {
    "semodel/ref_300verts_u16faces_2meshes.semodel": "Blender's glTF importer drops the 3 vertices no face uses",
    "semodel/ref_skinned_quad_2uv_colors.semodel": "Blender's glTF importer deforms a mesh at rest under "
    "a bone scaled unevenly (its bones hold no rest scale)",
}


def source_scene(sample: Path):
    """The file's scene as animbin's Python module reads it."""
    import animbin

    return animbin.open(str(sample)).scene()


def holds_only_references(sample: Path) -> bool:
    """Whether the file holds nothing FBX could: no bone, mesh, animation, camera or light
    (a Cast file of instances, references to other files)."""
    scene = source_scene(sample)
    bones = len(scene.skeleton.names) if scene.skeleton is not None else 0
    return not (bones or scene.meshes or scene.animations or scene.cameras or scene.lights)


def source_failures(sample: Path, measured: dict, tolerance: float) -> list[str]:
    """Where the first frame of `measured` (Blender's import of the FBX) leaves the file's own
    vertices by more than `tolerance` of their bounding box's diagonal."""
    meshes = source_scene(sample).meshes
    seen = {m["name"]: np.asarray(m["vertices"][0], dtype=np.float64) for m in measured["meshes"]}
    expected = {}
    for k, mesh in enumerate(meshes):
        p = np.asarray(mesh.positions, dtype=np.float64)
        expected[mesh.name or f"mesh{k}"] = np.stack([p[:, 0], -p[:, 2], p[:, 1]], axis=1)
    points = np.concatenate(list(expected.values())) if expected else np.zeros((1, 3))
    diagonal = max(float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))), 1e-9)
    failures = []
    for name, want in expected.items():
        got = seen.get(name)
        if got is None:
            failures.append(f"mesh {name!r} of the file is not in the FBX import ({sorted(seen)})")
        elif got.shape != want.shape:
            failures.append(f"mesh {name!r}: {len(got)} vertices, the file {len(want)}")
        elif (worst := float(np.abs(got - want).max()) / diagonal) > tolerance:
            failures.append(f"mesh {name!r}: vertices off the file's by {worst:.3g} of the diagonal")
    return failures


# Blender's FBX importers: the Python add-on (``import_scene.fbx``, every version) and, from
# 5.0, the C++ one built on ufbx (``wm.fbx_import``). Each present is checked.
IMPORTERS = {
    "import_scene.fbx": lambda path: bpy.ops.import_scene.fbx(filepath=str(path), anim_offset=0.0),
    "wm.fbx_import": lambda path: bpy.ops.wm.fbx_import(filepath=str(path), anim_offset=0.0),
}


def importer_present(name: str) -> bool:
    group, op = name.split(".")
    try:
        getattr(getattr(bpy.ops, group), op).get_rna_type()
        return True
    except (AttributeError, KeyError):
        return False


def import_fbx(path, importer="import_scene.fbx"):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    result = IMPORTERS[importer](path)
    if result != {"FINISHED"}:
        raise RuntimeError(f"Blender's FBX importer {importer} returned {result} for {path}")
    return scene


def frames_of(glb: Path, fps: float) -> list[float]:
    """The first, a middle and the last frame of the glb's first animation at `fps`."""
    data = glb.read_bytes()
    length = int.from_bytes(data[12:16], "little")
    gltf = json.loads(data[20 : 20 + length])
    end = 0.0
    for animation in gltf.get("animations", [])[:1]:
        for sampler in animation["samplers"]:
            end = max(end, gltf["accessors"][sampler["input"]].get("max", [0.0])[0])
    last = round(end * fps)
    return [0.0, float(last // 2), float(last)] if last > 0 else [0.0]


def samples(testdata: Path, walk: bool = False) -> list[Path]:
    """The samples of testdata/ and its graph/ folder; with `walk`, every file below
    `testdata` (a corpus of subfolders)."""
    suffixes = {".seanim", ".semodel", ".cast", ".dmf", ".animx"}
    if walk:
        return [p for p in sorted(testdata.rglob("*")) if p.is_file() and p.suffix in suffixes]
    return [p for p in sorted(testdata.glob("*")) if p.suffix in suffixes or p.name.startswith("x8an")] + sorted(
        (testdata / "graph").glob("*.glb")
    )


def check_out(args, importer: str, sample: Path, k: int, tmp: Path) -> bool | None:
    """animbin's FBX of `sample` through `importer` looks as its glb does; None if skipped."""
    name = str(sample.relative_to(args.testdata))
    label = f"[{importer}] {name}"
    fbx, glb = tmp / f"{k}.fbx", tmp / f"{k}.glb"
    made = [subprocess.run([args.animbin, "convert", str(sample), str(out)], capture_output=True, text=True) for out in (fbx, glb)]
    if made[1].returncode != 0 and "nothing was written" in made[1].stderr:
        print(f"skipped {label}: nothing to write")
        return None
    if made[0].returncode != 0 and "nothing was written" in made[0].stderr and holds_only_references(sample):
        print(f"skipped {label}: FBX holds nothing of it (references to other files), and says so")
        return None
    if any(m.returncode != 0 for m in made):
        print(f"FAIL {label}: animbin convert failed: {made[0].stderr.strip()} {made[1].stderr.strip()}")
        return False
    b_scene = import_fbx(fbx, importer)
    fps = b_scene.render.fps / b_scene.render.fps_base
    frames = frames_of(glb, fps)
    b = compare_pose.measure(fbx, frames, lambda path: import_fbx(path, importer))
    a = compare_pose.measure(glb, frames, lambda path: compare_pose.import_file(path, fps=round(fps)))
    report = compare_pose.compare_measured(a, b, args.tolerance, ALLOWED_MISSING)
    # Materials become FBX's phong, which Blender's importers map to other factors than the
    # glTF importer does: what is compared here is the shape.
    failures = [f for f in report["failures"] if " material " not in f]
    if "animbin's FBX has no hair" in made[0].stderr:
        # The glb's hair (line primitives) is a loss the conversion names: only its meshes
        # may be missing.
        hairs = {hair.name for hair in source_scene(sample).hairs}
        failures = [f for f in failures if not any(f.startswith(f"mesh {h!r} (") and f.endswith("of A has no counterpart in B") for h in hairs)]
    if failures and name in SOURCE_ORACLE:
        print(f"file as oracle {label}: {SOURCE_ORACLE[name]}")
        failures = source_failures(sample, b, args.tolerance)
    if failures and name in NAMED_LOSSES:
        loss = NAMED_LOSSES[name]
        if loss not in made[0].stderr:
            failures.append(f"the conversion does not name its loss ({loss!r})")
        else:
            print(f"named loss {label}: {loss}; {len(failures)} differences not counted")
            failures = []
    largest = report["largest"]
    worst = None if not largest else f"{largest['difference']:.3g} ({largest['what']})"
    if failures:
        for line in failures:
            print(f"FAIL {label}: {line}")
        return False
    print(f"ok {label} at frames {frames} ({fps} fps){'' if worst is None else f', largest difference {worst}'}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--animbin", required=True)
    parser.add_argument("--testdata", default="testdata")
    parser.add_argument("--walk", action="store_true", help="every file below --testdata (a corpus of subfolders)")
    parser.add_argument("--tolerance", type=float, default=1e-3)
    parser.add_argument("--only", default="", help="only the samples whose path contains this text")
    parser.add_argument(
        "--importers",
        default="",
        help="comma-separated importers that must be checked (import_scene.fbx, wm.fbx_import); "
        "by default every one this Blender has",
    )
    args = parser.parse_args()
    importers = [i for i in args.importers.split(",") if i] or [i for i in IMPORTERS if importer_present(i)]
    missing = [i for i in importers if i not in IMPORTERS or not importer_present(i)]
    if missing or not importers:
        print(f"FAIL Blender {bpy.app.version_string} has no importer {missing or list(IMPORTERS)}")
        return 1
    print(f"Blender {bpy.app.version_string}, FBX importers: {', '.join(importers)}")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for importer in importers:
            for k, sample in enumerate(samples(Path(args.testdata), args.walk)):
                if args.only not in str(sample.relative_to(args.testdata)):
                    continue
                try:
                    result = check_out(args, importer, sample, k, Path(tmp))
                except RuntimeError as error:  # an importer's failure is a finding for this sample
                    print(f"FAIL [{importer}] {sample.relative_to(args.testdata)}: {str(error).splitlines()[-1]}")
                    result = False
                if result is True:
                    passed += 1
                elif result is False:
                    failed += 1
        ok, bad = blender_fbx_in(args, Path(tmp))
    passed += ok
    failed += bad
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# Assets that Blender's FBX exporter cannot carry, and why.
NOT_EXPORTED = {
    # Shape key animation alone: the exporter writes no animation stack for it.
    "shape_keys.glb": "Blender's FBX exporter writes no stack for shape-key-only animation",
    # STEP and CUBICSPLINE channels are baked by Blender: compared above through animbin's FBX.
    "step_cubic.glb": "the scene holds one interpolation per animation",
}


def blender_fbx_in(args, tmp: Path) -> tuple[int, int]:
    """FBX files Blender exports, converted by animbin to glb, pose as their source."""
    passed = failed = 0
    for source in sorted((Path(args.testdata) / "graph").glob("*.glb")):
        if args.only not in f"graph/{source.name}":
            continue
        if source.name in NOT_EXPORTED:
            print(f"skipped {source.name} (in): {NOT_EXPORTED[source.name]}")
            continue
        fbx, glb = tmp / f"{source.stem}.fbx", tmp / f"{source.stem}.glb"
        bpy.ops.wm.read_factory_settings(use_empty=True)
        bpy.context.scene.render.fps = 24
        bpy.ops.import_scene.gltf(filepath=str(source), disable_bone_shape=True)
        bpy.ops.export_scene.fbx(filepath=str(fbx), bake_anim=True, add_leaf_bones=False)
        made = subprocess.run([args.animbin, "convert", str(fbx), str(glb)], capture_output=True, text=True)
        if made.returncode != 0:
            print(f"FAIL {source.name} (in): animbin convert failed: {made.stderr.strip()}")
            failed += 1
            continue
        frames = frames_of(source, 24.0)
        a = compare_pose.measure(source, frames, lambda path: compare_pose.import_file(path, fps=24))
        b = compare_pose.measure(glb, frames, lambda path: compare_pose.import_file(path, fps=24))
        report = compare_pose.compare_measured(a, b, args.tolerance, ("textures",))
        failures = [f for f in report["failures"] if " material " not in f]
        if failures:
            for line in failures:
                print(f"FAIL {source.name} (in): {line}")
            failed += 1
        else:
            largest = report["largest"]
            worst = "" if not largest else f", largest difference {largest['difference']:.3g} ({largest['what']})"
            print(f"ok {source.name} (in) at frames {frames}{worst}")
            passed += 1
    return passed, failed


if __name__ == "__main__":
    sys.exit(main())
