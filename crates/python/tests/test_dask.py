"""The Dask recipe of docs/dask.md (issue 22): a folder converted through the Python package on
`dask.distributed.LocalCluster(n_workers=2, processes=True)` gives, file for file, the bytes
that `animbin convert --out` writes for the same folder.

The recipe's code is taken from the document itself, so the two cannot drift apart. Dask is
installed from pip by CI (.ci/run); under CI=true a missing Dask fails the test.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from conftest import ROOT, samples

RECIPE = ROOT / "docs" / "dask.md"


def recipe(folder: Path) -> tuple[Path, types.ModuleType]:
    """The recipe's Python block, saved in `folder` as a module and imported from there."""
    text = RECIPE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1, f"{RECIPE}: expected one python block, found {len(blocks)}"
    path = folder / "animbin_dask_recipe.py"
    path.write_text(blocks[0], encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return path, module


@pytest.fixture(scope="module")
def dask():
    """The `dask` package with `dask.distributed`."""
    try:
        import dask.distributed  # noqa: F401 (the fixture's value is the module)
    except ImportError as e:
        message = f"dask.distributed is not installed ({e}): pip install 'dask[distributed]'"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return dask


ANIMATIONS = {".seanim", ".animx", ".animj", ".bin"}


def sample_folder(folder: Path) -> list[Path]:
    """Every testdata sample copied into `folder` (the animation formats' in a sub-folder),
    each under a stem of its own so that no two outputs share a name (`sample.seanim` as
    `sample_seanim.seanim`; x8an files keep the `x8an*.bin` form they are recognised by)."""
    copies = []
    for path in samples():
        place = folder / "anims" if path.suffix in ANIMATIONS else folder
        place.mkdir(parents=True, exist_ok=True)
        copies.append(Path(shutil.copyfile(path, place / f"{path.name.replace('.', '_')}{path.suffix}")))
    return copies


def files_below(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_folder_converted_on_a_local_cluster_matches_the_command(tmp_path, dask, animbin_cli):
    path, module = recipe(tmp_path)
    inputs = tmp_path / "in"
    copies = sample_folder(inputs)
    assert (inputs / "anims").is_dir() and len(copies) == len(samples())
    targets = ["glb", "cast"]
    # A task whose worker dies fails at once instead of being retried on the next worker.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), dask.distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, dask.distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        # The workers import the recipe's functions as a cluster started elsewhere would.
        client.upload_file(str(path))
        outcomes = {target: module.convert_folder(client, inputs, tmp_path / f"dask-{target}", target) for target in targets}
        # Both workers took part: each job ran in a process other than this one.
        pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids

    for target in targets:
        by_command = tmp_path / f"command-{target}"
        run = subprocess.run(
            [animbin_cli, "convert", "--to", target, "--out", str(by_command), str(inputs)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        converted = sum(outcome == "converted" for outcome, _ in outcomes[target].values())
        failed = len(outcomes[target]) - converted
        # The same files convert and the same fail.
        assert run.stdout.strip() == f"converted {converted}, failed {failed}, skipped 0", run.stderr
        assert run.returncode == (1 if failed else 0), run.stderr
        assert converted > 0 and len(outcomes[target]) == len(copies)
        by_dask = files_below(tmp_path / f"dask-{target}")
        assert sorted(by_dask) == sorted(files_below(by_command))
        for name, data in files_below(by_command).items():
            assert by_dask[name] == data, f"{target}: {name} differs from the command's output"
        # Each failure is named on the command's stderr too, with the same reason.
        for source, (outcome, lines) in outcomes[target].items():
            if outcome == "failed":
                assert lines and lines[0] in run.stderr, (lines, run.stderr)


def test_the_recipe_names_outputs_apart_as_the_command_does(tmp_path, animbin_cli):
    # No cluster needed: the plan is the client's.
    _, module = recipe(tmp_path)
    inputs = tmp_path / "in"
    for name in ["walk.seanim", "walk.semodel", "npc/walk.seanim", "run.seanim"]:
        (inputs / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / "testdata" / "sample.seanim", inputs / name)
    jobs = module.plan(inputs, tmp_path / "out", "cast")
    planned = sorted(str(Path(output).relative_to(tmp_path / "out")) for _, output in jobs)
    assert planned == sorted(["walk.seanim.cast", "walk.semodel.cast", str(Path("npc/walk.cast")), "run.cast"])
    by_command = tmp_path / "command"
    run = subprocess.run(
        [animbin_cli, "convert", "--to", "cast", "--out", str(by_command), str(inputs)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert sorted(files_below(by_command)) == planned, run.stderr
