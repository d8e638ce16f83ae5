"""Every route through animbin, on the scene-graph assets (issue 31, deliverable 6): does
what comes back look like what went in?

For each asset (``testdata/graph/*.glb``, made by Blender's exporter with
``make_graph_assets.py``) and each route (a list of ``animbin`` command lines ending in a
glb), the route is run and ``compare_pose`` compares the original with the result in
Blender (world-space vertices and bone heads at several frames, cameras, lights; within the
tolerance of the original's bounding-box diagonal). A cell of the table is:

- ``pass``: they look the same (``pass (byte copy)`` when the route's glb is the input's
  bytes, ``pass (same document)`` when its JSON is the input's but for where the data
  lies: either way the scene was not gone through);
- ``loss named``: they differ, and the route said something on stderr that may account
  for it (each line is listed below the table: whether it names the loss that was seen is
  for the reader to judge);
- ``FAIL``: they differ and stderr is silent, or says only what cannot account for a
  difference in what is compared (``NOT_A_LOSS``: names, what a split route's other file
  carries, e.g. "seanim cannot hold: meshes" when the SEModel holds them, and digits beyond
  f32, a millionth where the tolerance is a thousandth);
- ``refused``: a step exited non-zero (its first stderr line is listed); ``loss named
  (refused)`` when the step refused to write a file that would hold nothing and an earlier
  step named what it could not hold (cameras alone into Cast, say);
- ``n/a``: the route needs an animation and the asset has none.

Routes (``{A}`` the asset, ``{W}`` a scratch folder):

- ``glb``: ``convert {A} {W}/out.glb`` (today a byte copy);
- ``glb-scene``: ``convert --animation NAME {A} {W}/out.glb`` with the asset's first
  animation: choosing an animation makes today's build go through the scene (assets
  without an animation: n/a);
- ``gltf``: ``convert {A} {W}/x.gltf``, ``convert {W}/x.gltf {W}/out.glb`` (today the same
  document re-encoded, not the scene);
- ``cast``: to ``x.cast`` and back;
- ``se``: ``x.semodel`` and ``x.seanim``, then ``convert x.semodel out.glb --anim
  x.seanim`` (an asset without animation: the model alone, at rest);
- ``dmf``: to ``x.dmf`` and back;
- ``animx``: ``x.semodel`` and ``x.animx``, then ``--anim x.animx`` (likewise).

Before the routes, the harness checks itself: every asset compared with itself passes, and
``armature_under_empty.glb`` with one node's scale changed in its JSON (Placement's Z scale
0.5 -> 0.505) does not.

    python tests/blender/test_graph_routes.py --animbin target/debug/animbin
        [--assets testdata/graph] [--routes glb,cast] [--only a.glb,b.glb]
        [--frames 0,2.5,5,7,9] [--tolerance 1e-3] [--json OUT.json] [--keep DIR]

Prints the table, the details of each cell that is not a plain pass, ``FAIL`` lines (the
harness's own failures, and each route x asset that is FAIL or refused) and
``N checks passed``; exit status 1 when any of those failed.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import compare_pose  # noqa: E402
from make_graph_assets import accessor_floats, read_glb  # noqa: E402
from checks import Checks  # noqa: E402  (the Blender suites' shared checks, beside this file)

# A step starting with "?anim" runs only when the asset has an animation; "--anim FILE" is
# dropped from a step when it has none; "{ANIM}" is the name of its first animation (a
# route that needs one is "n/a" without).
ROUTES = {
    "glb": [["convert", "{A}", "{W}/out.glb"]],
    "glb-scene": [["convert", "--animation", "{ANIM}", "{A}", "{W}/out.glb"]],
    "gltf": [["convert", "{A}", "{W}/x.gltf"], ["convert", "{W}/x.gltf", "{W}/out.glb"]],
    "cast": [["convert", "{A}", "{W}/x.cast"], ["convert", "{W}/x.cast", "{W}/out.glb"]],
    "se": [
        ["convert", "{A}", "{W}/x.semodel"],
        ["?anim", "convert", "{A}", "{W}/x.seanim"],
        ["convert", "{W}/x.semodel", "{W}/out.glb", "--anim", "{W}/x.seanim"],
    ],
    "dmf": [["convert", "{A}", "{W}/x.dmf"], ["convert", "{W}/x.dmf", "{W}/out.glb"]],
    "animx": [
        ["convert", "{A}", "{W}/x.semodel"],
        ["?anim", "convert", "{A}", "{W}/x.animx"],
        ["convert", "{W}/x.semodel", "{W}/out.glb", "--anim", "{W}/x.animx"],
    ],
}
# Lines on stderr that cannot account for a difference compare_pose sees: names (not
# compared), what a split route's other file carries (the model of an animation file, the
# animation of a model file), and digits beyond f32 (a millionth, far below the tolerance).
NOT_A_LOSS = (
    re.compile(r"cannot hold: bind pose digits beyond f32$"),
    re.compile(r"cannot hold: precision of times or values that f32 cannot hold exactly$"),
    re.compile(r"cannot hold: the model name"),
    re.compile(r"cannot hold: mesh names"),
    re.compile(r"cannot hold: the animation's name"),
    re.compile(r"semodel cannot hold: \d+ animations \(SEModel holds a model only\)"),
    re.compile(r"seanim cannot hold: the skeleton \(SEAnim names bones but stores no hierarchy or bind pose\)"),
    re.compile(r"seanim cannot hold: meshes, materials and textures"),
    re.compile(r"animx cannot hold: skeleton and meshes \(AnimX holds animation tracks only\)"),
)
DEFAULT_FRAMES = "0,2.5,5,7,9"


# --- glb files ----------------------------------------------------------------------------


def write_glb(path, document, binary):
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary = binary + b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text
    if binary:
        chunks += struct.pack("<I4s", len(binary), b"BIN\0") + binary
    with open(path, "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks)


def with_node_scale(source, target, node_name, scale):
    """A copy of a glb with one node's scale replaced in its JSON."""
    document, binary = read_glb(source)
    found = [n for n in document["nodes"] if n.get("name") == node_name]
    if len(found) != 1:
        raise ValueError(f"{source}: {len(found)} nodes named {node_name!r}")
    found[0]["scale"] = list(scale)
    write_glb(target, document, binary)


# --- the harness and the routes -----------------------------------------------------------


def check_harness(checks, assets, frames, tolerance, work):
    """compare_pose passes each asset against itself and fails a changed copy."""
    for path in assets:
        name = os.path.basename(path)
        failures = compare_pose.compare(path, path, frames, tolerance)
        checks.true(f"harness: {name} against itself: {failures}", not failures)
    original = next((p for p in assets if os.path.basename(p) == "armature_under_empty.glb"), None)
    checks.true("harness: armature_under_empty.glb is among the assets", original is not None)
    if original is None:
        return
    same = os.path.join(work, "rewritten.glb")
    with_node_scale(original, same, "Placement", (0.5, 0.5, 0.5))
    failures = compare_pose.compare(original, same, frames, tolerance)
    checks.true(f"harness: armature_under_empty.glb against its JSON rewritten unchanged: {failures}", not failures)
    changed = os.path.join(work, "rescaled.glb")
    with_node_scale(original, changed, "Placement", (0.5, 0.5, 0.505))
    failures = compare_pose.compare(original, changed, frames, tolerance)
    checks.true("harness: armature_under_empty.glb against a copy with Placement's Z scale 0.505 fails", bool(failures))


def extension_import(path):
    """A fresh scene at 24 frames per second with ``path`` imported by animbin's Blender
    extension (glTF is Y-up; its keys in seconds become frames at the scene's rate, as
    Blender's importer makes them)."""
    sys.path.insert(0, os.path.join(ROOT, "blender"))
    from animbin_io import importer

    import bpy

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    result = importer.load(bpy.context, path, None, importer.Settings(up_axis="Y", framerate=24.0))
    extension_import.losses = [w for w in result.warnings if w.startswith("not imported:")]
    # The extension sets the scene's rate from the file; Blender's importer keeps 24.
    scene.render.fps, scene.render.fps_base = 24, 1.0
    return scene


def spline_samplers(document):
    """Whether any animation sampler of the glTF is a cubic spline."""
    return any(s.get("interpolation") == "CUBICSPLINE" for a in document.get("animations", ()) for s in a["samplers"])


def sample_by_spec(document, binary, node, path, seconds):
    """Channel ``path`` of ``node`` at ``seconds`` as the glTF specification interpolates it
    (LINEAR, STEP, or CUBICSPLINE's Hermite spline), or None where no channel drives it."""
    import numpy as np

    for animation in document.get("animations", ()):
        for channel in animation["channels"]:
            if channel["target"].get("node") != node or channel["target"]["path"] != path:
                continue
            sampler = animation["samplers"][channel["sampler"]]
            times = [t[0] for t in accessor_floats(document, binary, sampler["input"])]
            values = np.array(accessor_floats(document, binary, sampler["output"]), dtype=np.float64)
            how = sampler.get("interpolation", "LINEAR")
            if how == "CUBICSPLINE":
                incoming, points, outgoing = values[0::3], values[1::3], values[2::3]
            else:
                points = values
            if seconds <= times[0]:
                return points[0]
            if seconds >= times[-1]:
                return points[-1]
            k = max(i for i, t in enumerate(times) if t <= seconds)
            span = times[k + 1] - times[k]
            u = (seconds - times[k]) / span
            if how == "STEP":
                return points[k]
            if how == "CUBICSPLINE":
                u2, u3 = u * u, u * u * u
                value = (
                    (2 * u3 - 3 * u2 + 1) * points[k]
                    + span * (u3 - 2 * u2 + u) * outgoing[k]
                    + (-2 * u3 + 3 * u2) * points[k + 1]
                    + span * (u3 - u2) * incoming[k + 1]
                )
            else:
                value = (1 - u) * points[k] + u * points[k + 1]  # near enough to slerp for a check's keys
            return value / np.linalg.norm(value) if path == "rotation" else value
    return None


def check_splines_by_spec(checks, path, frames, tolerance):
    """The extension's import of an asset with cubic splines (the scene imported last) moves
    each root node as the glTF specification says at every frame: Blender's own importer is
    no oracle there (its handles leave the Hermite spline: a scale key with zero tangents
    overshoots)."""
    import bpy
    import numpy as np
    from mathutils import Matrix, Quaternion, Vector

    document, binary = read_glb(path)
    name = os.path.basename(path)
    turn = Matrix.Rotation(-np.pi / 2, 4, "X")  # the extension's Y-up turn, undone
    roots = document["scenes"][document.get("scene", 0)]["nodes"]
    scene = bpy.context.scene
    for node in roots:
        stated = document["nodes"][node]
        obj = next((o for o in bpy.data.objects if o.get("animbin_node") == node), None)
        if not checks.true(f"{name}: node {stated.get('name')!r} has an object", obj is not None):
            continue
        for frame in frames:
            compare_pose.set_frame(scene, frame)
            t = sample_by_spec(document, binary, node, "translation", frame / 24.0)
            r = sample_by_spec(document, binary, node, "rotation", frame / 24.0)
            s = sample_by_spec(document, binary, node, "scale", frame / 24.0)
            t = stated.get("translation", [0, 0, 0]) if t is None else t
            r = stated.get("rotation", [0, 0, 0, 1]) if r is None else r
            s = stated.get("scale", [1, 1, 1]) if s is None else s
            expected = np.array(Matrix.LocRotScale(Vector(t), Quaternion((r[3], r[0], r[1], r[2])), Vector(s)))
            shown = np.array(turn @ obj.matrix_world)
            worst = float(np.abs(shown - expected).max())
            checks.true(
                f"{name}: node {stated.get('name')!r} at frame {frame} as the spec interpolates (off by {worst:.2e})",
                worst <= tolerance,
            )


def check_extension(checks, assets, frames, tolerance):
    """Each asset imported by the extension looks as Blender's own glTF importer shows it:
    the graph (empties, cameras, lights, instances, node animation) is built, not baked. Where
    they differ, the import must have named what the scene could not hold (its "not
    imported:" warnings, listed), as a route must on stderr. An asset with cubic splines is
    compared with Blender's importer at its keys' frames and with the specification at every
    frame (``check_splines_by_spec``)."""
    for path in assets:
        name = os.path.basename(path)
        document, _binary = read_glb(path)
        at = frames
        if spline_samplers(document):
            # The frames (at Blender's 24 per second) where a key of every channel falls.
            key_frames = [
                {round(t[0] * 24.0, 6) for t in accessor_floats(document, _binary, s["input"])}
                for a in document["animations"]
                for s in a["samplers"]
            ]
            at = [f for f in frames if all(round(f, 6) in k for k in key_frames)] or frames[:1]
        report = compare_pose.compare_report(path, path, at, tolerance, load_b=extension_import)
        if spline_samplers(document):
            check_splines_by_spec(checks, path, frames, tolerance)
        losses = extension_import.losses
        if report["failures"] and losses:
            print(f"extension import of {name}: loss named: {losses}; differences: {report['failures']}")
        checks.true(
            f"extension import of {name} looks as Blender's, or names its loss: {report['failures']}",
            not report["failures"] or bool(losses),
        )
        if name == "armature_under_empty.glb":
            check_export_names_the_graph(checks)
        checks.true(
            f"extension import of {name}: the same meshes, cameras and lights ({report['a']} against {report['b']})",
            all(report["a"][k] == report["b"][k] for k in ("meshes", "cameras", "lights") if k in report["a"]),
        )


def check_export_names_the_graph(checks):
    """An export to a game format of everything the extension imported names the objects a
    rig cannot hold (the empty above the armature) instead of dropping them silently."""
    import bpy
    from animbin_io import exporter

    for obj in bpy.context.view_layer.objects:
        obj.select_set(True)
    with tempfile.TemporaryDirectory() as folder:
        result = exporter.save_model(bpy.context, os.path.join(folder, "x.semodel"), "semodel", exporter.ModelSettings())
        written = os.path.isfile(os.path.join(folder, "x.semodel"))
    named = [w for w in result.warnings if w.startswith("not written:") and "Placement" in w]
    checks.true(f"export of the imported graph to SEModel writes it and names the empty: {result.warnings}", written and bool(named))


def animation_names(asset):
    document, _binary = read_glb(asset)
    return [a.get("name", f"animation {i}") for i, a in enumerate(document.get("animations", []))]


def route_commands(route, asset, work):
    """The command lines of a route for an asset, or None when it does not apply."""
    names = animation_names(asset)
    commands = []
    for template in ROUTES[route]:
        if template[0] == "?anim":
            if not names:
                continue
            template = template[1:]
        if "{ANIM}" in template and not names:
            return None
        if "--anim" in template and not names:
            at = template.index("--anim")
            template = template[:at] + template[at + 2 :]
        commands.append(
            [
                a.replace("{A}", asset).replace("{W}", work).replace("{ANIM}", names[0] if names else "")
                for a in template
            ]
        )
    return commands


def run_route(animbin, route, asset, work):
    """Run a route's commands; returns (out.glb or None, [(command, exit code, stderr)])."""
    steps = []
    for args in route_commands(route, asset, work):
        try:
            done = subprocess.run([animbin, *args], capture_output=True, text=True, timeout=120)
            code, stderr = done.returncode, done.stderr
        except subprocess.TimeoutExpired:
            code, stderr = "timeout", "timed out after 120 s\n"
        shown = " ".join(os.path.basename(a) if os.path.isabs(a) else a for a in args)
        steps.append((shown, code, stderr))
        if code != 0:
            return None, steps
    return os.path.join(work, "out.glb"), steps


def cell(animbin, route, asset, frames, tolerance, work):
    """One route on one asset: {"status", "largest", "failures", "stderr", "steps"}."""
    if route_commands(route, asset, work) is None:
        return {
            "route": route,
            "asset": os.path.basename(asset),
            "status": "n/a",
            "detail": "the route needs an animation",
            "steps": [],
            "stderr": [],
            "failures": [],
            "largest": None,
        }
    out, steps = run_route(animbin, route, asset, work)
    stderr = [line for _c, _code, text in steps for line in text.splitlines() if line.strip()]
    losses = [line for line in stderr if not any(p.search(line) for p in NOT_A_LOSS)]
    result = {
        "route": route,
        "asset": os.path.basename(asset),
        "steps": [{"command": c, "exit": code} for c, code, _t in steps],
        "stderr": stderr,
        "losses": losses,
    }
    if out is None:
        command, code, text = steps[-1]
        # A step that refuses to write a file that would hold nothing, after an earlier step
        # named what it could not hold (a Cast has no cameras), has named its loss.
        named_before = [line for _c, _code, t in steps[:-1] for line in t.splitlines() if line in losses]
        nothing = "cannot hold anything of this" in text
        result.update(
            status="loss named (refused)" if nothing and named_before else "refused",
            detail=f"`animbin {command}` exited {code}: {(text.strip().splitlines() or [''])[0]}",
            failures=[],
            largest=None,
        )
        return result
    report = compare_pose.compare_report(asset, out, frames, tolerance)
    result["largest"] = report["largest"]
    result["failures"] = report["failures"]
    result["a"], result["b"] = report["a"], report["b"]
    copy = same_document(asset, out)
    result["copy"] = copy
    if not report["failures"]:
        result["status"] = f"pass ({copy})" if copy else "pass"
    elif losses:
        result["status"] = "loss named"
    else:
        result["status"] = "FAIL"
    return result


def same_document(a, b):
    """ "byte copy" when two glb files are the same bytes, "same document" when their JSON is
    the same but for where the data lies (the scene was not gone through), else None."""
    with open(a, "rb") as fa, open(b, "rb") as fb:
        if fa.read() == fb.read():
            return "byte copy"

    def layout_free(document):
        document = json.loads(json.dumps(document))
        for key in ("buffers", "bufferViews"):
            document.pop(key, None)
        for item in document.get("accessors", []) + document.get("images", []):
            for key in ("bufferView", "byteOffset", "uri"):
                item.pop(key, None)
        return document

    return "same document" if layout_free(read_glb(a)[0]) == layout_free(read_glb(b)[0]) else None


def print_table(results, assets, routes):
    names = [os.path.basename(a) for a in assets]
    by = {(r["route"], r["asset"]): r for r in results}
    width = max(len(n) for n in names)
    column = max(16, *(len(r) for r in routes), *(len(r["status"]) for r in results))
    print()
    print(f"{'asset':<{width}} | " + " | ".join(f"{r:<{column}}" for r in routes))
    print("-" * width + "-+-" + "-+-".join("-" * column for _ in routes))
    for name in names:
        cells = [by.get((r, name), {}).get("status", "-") for r in routes]
        print(f"{name:<{width}} | " + " | ".join(f"{c:<{column}}" for c in cells))
    print()


def print_details(results):
    for r in results:
        if r["status"] == "pass" or (r["status"].startswith("pass") and not r["stderr"]):
            continue
        print(f"{r['route']} x {r['asset']}: {r['status']}")
        if r.get("detail"):
            print(f"    {r['detail']}")
        if r.get("largest"):
            largest = r["largest"]
            at = f" at frame {largest['frame']:g}" if largest.get("frame") is not None else ""
            print(f"    largest difference {largest['difference']:.3g}: {largest['what']}{at}")
        if r.get("a"):
            a, b = r["a"], r["b"]
            keys = ("meshes", "vertices", "bones", "cameras", "lights")
            print("    A " + ", ".join(f"{k} {a[k]}" for k in keys) + "; B " + ", ".join(f"{k} {b[k]}" for k in keys))
        for failure in r["failures"][:6]:
            print(f"    mismatch: {failure}")
        if len(r["failures"]) > 6:
            print(f"    ... and {len(r['failures']) - 6} more mismatches")
        losses = set(r.get("losses", []))
        for line in dict.fromkeys(r["stderr"]):
            print(f"    stderr{'' if line in losses else ' (not a loss of what is compared)'}: {line}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--animbin", required=True, help="the animbin command")
    parser.add_argument("--assets", default=os.path.join(ROOT, "testdata", "graph"))
    parser.add_argument("--routes", default=",".join(ROUTES), help=f"comma-separated, of {', '.join(ROUTES)}")
    parser.add_argument("--only", help="comma-separated asset file names (default: every .glb in --assets)")
    parser.add_argument("--frames", type=compare_pose.parse_frames, default=compare_pose.parse_frames(DEFAULT_FRAMES))
    parser.add_argument("--tolerance", type=float, default=1e-3)
    parser.add_argument("--json", help="write every cell's measurements here")
    parser.add_argument("--keep", help="keep each route's files in this folder (route/asset/)")
    parser.add_argument("--no-harness", action="store_true", help="skip the harness's checks of itself")
    args = parser.parse_args()
    animbin = os.path.abspath(args.animbin)
    routes = [r for r in args.routes.split(",") if r]
    unknown = [r for r in routes if r not in ROUTES]
    if unknown:
        parser.error(f"unknown routes {unknown}; known: {', '.join(ROUTES)}")
    assets = sorted(glob.glob(os.path.join(os.path.abspath(args.assets), "*.glb")))
    if args.only:
        wanted = set(args.only.split(","))
        assets = [a for a in assets if os.path.basename(a) in wanted]
    version = subprocess.run([animbin, "--version"], capture_output=True, text=True).stdout.strip()
    import bpy

    print(f"Blender {bpy.app.version_string}, {version}, {len(assets)} assets, routes {', '.join(routes)}")
    checks = Checks()
    checks.true(f"assets found in {args.assets}", len(assets) > 0)
    results = []
    with tempfile.TemporaryDirectory(prefix="animbin-graph-") as scratch:
        if not args.no_harness:
            try:
                check_harness(checks, assets, args.frames, args.tolerance, scratch)
            except Exception:
                checks.true(f"harness: no exception:\n{traceback.format_exc()}", False)
        try:
            check_extension(checks, assets, args.frames, args.tolerance)
        except Exception:
            checks.true(f"extension import: no exception:\n{traceback.format_exc()}", False)
        for route in routes:
            for asset in assets:
                name = os.path.basename(asset)
                work = os.path.join(args.keep or scratch, route, os.path.splitext(name)[0])
                shutil.rmtree(work, ignore_errors=True)
                os.makedirs(work)
                try:
                    r = cell(animbin, route, asset, args.frames, args.tolerance, work)
                except Exception:
                    r = {
                        "route": route,
                        "asset": name,
                        "status": "FAIL",
                        "detail": f"exception:\n{traceback.format_exc()}",
                        "failures": [],
                        "stderr": [],
                        "largest": None,
                    }
                results.append(r)
                checks.true(
                    f"{route} x {name}: {r['status']}",
                    r["status"].startswith("pass") or r["status"] in ("loss named", "loss named (refused)", "n/a"),
                )
    print_table(results, assets, routes)
    print_details(results)
    if args.json:
        with open(args.json, "w") as f:
            text = json.dumps(
                {"frames": args.frames, "tolerance": args.tolerance, "cells": results}, indent=1, default=float
            )
            f.write(text.replace("Infinity", "null").replace("NaN", "null") + "\n")
    for failure in checks.failures:
        print(f"FAIL {failure}")
    print(f"{checks.passed} checks passed" + (f", {len(checks.failures)} failed" if checks.failures else ""))
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
