"""Times animbin against the format author's pure-Python readers on large SE files.

Not a test: run it by hand against a wheel built with ``--release``::

    maturin build --release -m crates/python/Cargo.toml -o target/wheels
    pip install --force-reinstall target/wheels/animbin-*.whl
    python crates/python/bench/bench_read.py            # 48 MiB files, written here first

For each of an SEModel and an SEAnim of about ``--size`` MiB (written with animbin itself
unless ``--semodel`` / ``--seanim`` name files), it times ``animbin.open`` plus reading
every array of the scene (the NumPy arrays are summed, so every byte is touched), beside
SE2Dev's ``semodel.py`` and ``seanim.py`` (the format author's readers, which the Blender
add-ons use) reading the same file, and prints the ratio. The readers are downloaded at
run time into a temporary folder (never kept in the repository); ``--readers DIR`` uses
copies already on disk instead.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

import animbin

READERS = {
    "semodel": "https://raw.githubusercontent.com/SE2Dev/io_model_semodel/master/semodel.py",
    "seanim": "https://raw.githubusercontent.com/SE2Dev/io_anim_seanim/master/seanim.py",
}


def sized(target: int, make, probes: tuple[int, int]) -> bytes:
    """The bytes of ``make(count)`` for the count that gives about ``target`` bytes, from
    two probes (a file is a fixed part plus a part proportional to the count; the probes
    are counts where index widths are those of the full file)."""
    low, high = probes
    small, large = len(make(low)), len(make(high))
    per = (large - small) / (high - low)
    count = max(low, round(low + (target - small) / per))
    return make(count)


def semodel_bytes(vertices: int) -> bytes:
    """A skinned model: 64 chained bones, one mesh of ``vertices`` vertices with a UV layer,
    normals, colours and 4 influences, and a triangle per vertex (as the criterion benches)."""
    bones = 64
    v = np.arange(vertices, dtype=np.float32)
    skeleton = animbin.Skeleton(
        [f"j_bone_{b}" for b in range(bones)],
        np.arange(bones) - 1,
        translations=np.tile([0, 1, 0], (bones, 1)),
    )
    index = np.arange(vertices, dtype=np.uint32)
    mesh = animbin.Mesh(
        positions=np.stack([v, v % 1000, -v], axis=1),
        faces=np.stack([index[:-2], index[1:-1], index[2:]], axis=1),
        normals=np.tile(np.float32([0, 0, 1]), (vertices, 1)),
        uv_layers=[np.stack([(v % 1024) / 1024, np.full(vertices, 0.5, np.float32)], axis=1)],
        color_layers=[np.full((vertices, 4), 255, np.uint8)],
        bone_indices=(index[:, None] + np.arange(4, dtype=np.uint32)) % bones,
        bone_weights=np.full((vertices, 4), 0.25, np.float32),
        material=0,
    )
    scene = animbin.Scene(skeleton, [mesh], [animbin.Material("body", {"diffuse": "body_c.png"})])
    return animbin.from_scene(scene, "semodel").to_bytes()


def seanim_bytes(frames: int) -> bytes:
    """300 bones with a location, rotation and scale key on every one of ``frames`` frames,
    single precision (as the criterion benches)."""
    f = np.arange(frames, dtype=np.float64)
    tracks = []
    for b in range(300):
        phase = b * 0.01
        angle = f * 0.001 + phase
        rotations = np.stack([np.zeros(frames), np.sin(angle / 2), np.zeros(frames), np.cos(angle / 2)], axis=1)
        tracks.append(
            animbin.BoneTrack(
                f"bone_{b:03}",
                translation_frames=f,
                translations=np.stack([f * 0.5, np.full(frames, phase), np.full(frames, -1.25)], axis=1),
                rotation_frames=f,
                # Values an f32 holds exactly, so the file is single precision.
                rotations=rotations.astype(np.float32).astype(np.float64),
                scale_frames=f,
                scales=np.stack([np.ones(frames), np.ones(frames), 1 + f % 3], axis=1).astype(np.float32).astype(np.float64),
            )
        )
    animation = animbin.Animation("", tracks, framerate=30)
    # SEAnim stores no name; an empty one loses nothing.
    return animbin.from_scene(animbin.Scene(animations=[animation]), "seanim").to_bytes()


def load_reader(name: str, folder: Path | None, scratch: Path):
    """SE2Dev's reader module ``name`` from ``folder``, else downloaded into ``scratch``."""
    if folder is not None:
        path = folder / f"{name}.py"
    else:
        path = scratch / f"{name}.py"
        with urllib.request.urlopen(READERS[name], timeout=30) as response:
            path.write_bytes(response.read())
    spec = importlib.util.spec_from_file_location(f"se2dev_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def every_array(scene: animbin.Scene):
    """Every NumPy array the scene holds."""
    if scene.skeleton is not None:
        s = scene.skeleton
        yield from (s.parents, s.translations, s.rotations, s.scales, s.global_translations)
        yield from (s.global_rotations, s.global_scales, s.cosmetic, s.bind_matrices)
    for m in scene.meshes:
        yield from (m.positions, m.faces, *m.uv_layers, *m.color_layers)
        yield from (a for a in (m.normals, m.bone_indices, m.bone_weights) if a is not None)
    for a in scene.animations:
        for t in a.tracks:
            yield from (t.rotation_frames, t.rotations, t.translation_frames, t.translations, t.scale_frames, t.scales)


def read_with_animbin(path: Path) -> tuple[int, float]:
    """Opens the file, builds its scene and sums every array; returns (values, checksum)."""
    scene = animbin.open(path).scene()
    values = 0
    checksum = 0.0
    for array in every_array(scene):
        values += array.size
        checksum += float(array.sum())
    return values, checksum


def best_of(repeat: int, run) -> tuple[float, float, object]:
    """The least wall time and the least CPU time (user + system, this process) of
    ``repeat`` runs, and the last result. CPU time is what the comparison uses: both
    readers run on one thread, and on a shared machine wall time mostly measures the load."""
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = run()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
    return wall, cpu, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=48, help="MiB of each generated file (default 48)")
    parser.add_argument("--semodel", type=Path, help="an SEModel to read instead of a generated one")
    parser.add_argument("--seanim", type=Path, help="an SEAnim to read instead of a generated one")
    parser.add_argument("--readers", type=Path, help="a folder holding semodel.py and seanim.py (else downloaded)")
    parser.add_argument("--out", type=Path, help="where to write the generated files (else a temporary folder)")
    parser.add_argument("--repeat", type=int, default=5, help="animbin runs; the best counts (default 5)")
    parser.add_argument("--reader-repeat", type=int, default=1, help="pure-Python reader runs (default 1)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="animbin-bench-") as scratch:
        scratch = Path(scratch)
        out = args.out or scratch
        out.mkdir(parents=True, exist_ok=True)
        target = int(args.size * 1024 * 1024)
        files = {}
        # Probes past 65535 vertices (u32 face indices) and 255 frames (u16 frame numbers).
        makers = (
            ("semodel", args.semodel, semodel_bytes, (70_000, 80_000)),
            ("seanim", args.seanim, seanim_bytes, (300, 400)),
        )
        for name, given, make, probes in makers:
            if given is None:
                given = out / f"large.{name}"
                print(f"writing {given} ({args.size:g} MiB) with animbin ...", file=sys.stderr, flush=True)
                given.write_bytes(sized(target, make, probes))
            files[name] = given

        print(f"animbin {animbin.__version__}, Python {sys.version.split()[0]}, NumPy {np.__version__}, {os.cpu_count()} cores")
        if hasattr(os, "getloadavg"):
            print(f"load average {os.getloadavg()[0]:.1f} (other processes slow both sides' wall times)")
        print("seconds of CPU time (wall time in brackets), best of the runs")
        print(f"{'file':<9}{'MiB':>6}{'animbin':>18}{'MiB/s':>7}{'Python reader':>20}{'MiB/s':>7}{'ratio':>7}")
        for name, path in files.items():
            mib = path.stat().st_size / (1024 * 1024)
            wall, cpu, (values, _) = best_of(args.repeat, lambda: read_with_animbin(path))
            ours = f"{cpu:.3f} ({wall:.3f})"
            try:
                reader = load_reader(name, args.readers, scratch)
            except Exception as e:  # noqa: BLE001 (a download failure only drops the comparison)
                print(f"{name:<9}{mib:>6.1f}{ours:>18}{mib / cpu:>7.0f}   (no reader: {e})")
                continue
            make = reader.Model if name == "semodel" else reader.Anim
            reader_wall, reader_cpu, loaded = best_of(args.reader_repeat, lambda: make(str(path)))
            check = (
                sum(m.vertexCount for m in loaded.meshes)
                if name == "semodel"
                else sum(len(b.posKeys) + len(b.rotKeys) + len(b.scaleKeys) for b in loaded.bones)
            )
            theirs = f"{reader_cpu:.2f} ({reader_wall:.2f})"
            print(
                f"{name:<9}{mib:>6.1f}{ours:>18}{mib / cpu:>7.0f}{theirs:>20}{mib / reader_cpu:>7.1f}"
                f"{reader_cpu / cpu:>6.0f}x"
            )
            unit = "vertices" if name == "semodel" else "keys"
            print(f"{'':<9}animbin read {values} array values; the reader found {check} {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
