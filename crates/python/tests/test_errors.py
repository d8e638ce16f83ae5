"""Bad input reaches Python as FormatError with the format and the byte offset, never as a
crash; arrays handed out outlive their document."""

from __future__ import annotations

import errno
import gc
import os
import pickle
import sys

import numpy as np
import pytest

import animbin
from conftest import TESTDATA, samples

BINARY = [p for p in samples() if not p.name.endswith((".json", ".animj"))]
IDS = [p.name for p in BINARY]


def format_of(path):
    return animbin.open(path).format


@pytest.mark.parametrize("path", BINARY, ids=IDS)
def test_every_truncation_is_a_format_error_with_an_offset(path):
    data = path.read_bytes()
    format = format_of(path)
    forced = "sf3" if format == "sf3" else None
    refused = []
    for end in range(len(data)):
        try:
            animbin.open(data[:end], forced)
        except animbin.FormatError as e:
            refused.append(end)
            assert isinstance(e.offset, int), f"{path.name}[:{end}]: {e} has no offset"
            # Offsets are in the file, except in a compressed AnimX's decompressed stream.
            if "(decompressed)" not in str(e):
                assert 0 <= e.offset <= end, f"{path.name}[:{end}]: offset {e.offset}"
            if e.format is None:
                # Too short for the magic: no format recognises it.
                assert end < 8 and e.offset == 0, f"{path.name}[:{end}]: {e}"
            else:
                assert e.format == format, f"{path.name}[:{end}]: {e}"
    # Every header is refused when cut; later cuts may leave a file that reads (a trailer
    # cut to unknown trailing bytes, an x8an without its end marker).
    header = min(len(data), 8)
    assert refused[:header] == list(range(header)), f"{path.name}: prefixes {sorted(set(range(header)) - set(refused))} read"
    assert len(refused) > len(data) // 2, f"{path.name}: only {len(refused)} of {len(data)} prefixes refused"


def test_empty_and_unknown_input_fail_at_byte_zero():
    for data in (b"", b"\x00" * 64, b"garbage, not a model", bytes(range(256))):
        with pytest.raises(animbin.FormatError) as e:
            animbin.open(data)
        assert e.value.offset == 0
        assert e.value.format is None
    with pytest.raises(animbin.FormatError, match="unknown format at byte 0"):
        animbin.open(b"garbage")


def test_a_damaged_header_names_its_format_and_byte():
    data = bytearray((TESTDATA / "sample.seanim").read_bytes())
    data[6] = 2  # the version
    with pytest.raises(animbin.FormatError, match="seanim at byte 6") as e:
        animbin.open(bytes(data))
    assert (e.value.format, e.value.offset) == ("seanim", 6)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("path", BINARY, ids=IDS)
def test_random_corruption_never_crashes(path):
    rng = np.random.default_rng(1234)
    data = np.frombuffer(path.read_bytes(), dtype=np.uint8)
    forced = "sf3" if format_of(path) == "sf3" else None
    for _ in range(200):
        damaged = data.copy()
        at = rng.integers(0, len(data), size=rng.integers(1, 4))
        damaged[at] = rng.integers(0, 256, size=len(at))
        try:
            doc = animbin.open(damaged.tobytes(), forced)
        except animbin.FormatError as e:
            assert e.format in (None, *animbin.FORMATS), e
            if "(decompressed)" not in str(e):
                assert e.offset is None or 0 <= e.offset <= len(data), e
            continue
        # What reads can be asked for everything without anything but FormatError.
        doc.info()
        doc.validate()
        for call in (doc.dump, doc.scene, lambda: doc.convert("glb", allow_empty=True)):
            try:
                call()
            except animbin.FormatError:
                pass


def test_a_bad_dump_names_its_json_path():
    dump = animbin.open(TESTDATA / "sample.seanim").dump().replace('"framerate"', '"frame_rate"', 1)
    with pytest.raises(animbin.FormatError, match="does not parse at"):
        animbin.undump(dump)
    with pytest.raises(animbin.FormatError):
        animbin.undump("{not json")
    with pytest.raises(animbin.FormatError, match="neither an animbin dump"):
        animbin.open(b'{"hello": 1}')


def test_files_the_system_does_not_let_us_read_raise_its_os_error(tmp_path):
    # As Python's own open() does: the matching OSError subclass, naming the file.
    missing = tmp_path / "missing.seanim"
    with pytest.raises(FileNotFoundError) as e:
        animbin.open(missing)
    assert not isinstance(e.value, animbin.FormatError)
    assert (e.value.errno, e.value.filename) == (errno.ENOENT, str(missing))
    with pytest.raises(IsADirectoryError) as e:
        animbin.open(tmp_path)
    assert e.value.filename == str(tmp_path)
    if os.geteuid() != 0:  # root reads any file: there is no refusal to see
        locked = tmp_path / "locked.seanim"
        locked.write_bytes((TESTDATA / "sample.seanim").read_bytes())
        locked.chmod(0)
        with pytest.raises(PermissionError):
            animbin.open(locked)
    # A file an animation comes from, too.
    with pytest.raises(FileNotFoundError) as e:
        animbin.open(TESTDATA / "sample.semodel").to_gltf(anims=[missing])
    assert e.value.filename == str(missing)


def test_a_failed_write_leaves_what_was_there(tmp_path):
    out = tmp_path / "out.seanim"
    out.write_bytes(b"keep me")
    model = animbin.open(TESTDATA / "sample.semodel")
    with pytest.raises(animbin.FormatError, match="cannot hold anything") as e:
        model.write(out)
    # What the target cannot hold is the input's fault: the input is named.
    assert str(e.value).startswith(str(TESTDATA / "sample.semodel") + ": ")
    assert out.read_bytes() == b"keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["out.seanim"]


def test_format_error_is_a_value_error_that_pickles():
    e = animbin.FormatError("seanim at byte 6: bad", "seanim", 6)
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.format, back.offset) == (str(e), "seanim", 6)
    assert animbin.FormatError("plain").offset is None
    assert issubclass(animbin.FormatError, ValueError)
    assert issubclass(animbin.LossWarning, UserWarning)


def test_arrays_outlive_their_document_and_scene():
    doc = animbin.open(TESTDATA / "sample.semodel")
    scene = doc.scene()
    positions = scene.meshes[0].positions
    weights = scene.meshes[0].bone_weights
    rotations = animbin.open(TESTDATA / "sample.seanim").scene().animations[0].tracks[1].rotations
    expected = positions.copy(), weights.copy(), rotations.copy()
    refs = sys.getrefcount(positions)
    del doc, scene
    gc.collect()
    # Allocate and free a lot, so freed memory would be reused.
    for _ in range(20):
        animbin.open(TESTDATA / "sample.semodel").scene()
    gc.collect()
    np.testing.assert_array_equal(positions, expected[0])
    np.testing.assert_array_equal(weights, expected[1])
    np.testing.assert_array_equal(rotations, expected[2])
    assert positions.sum() == expected[0].sum()
    assert sys.getrefcount(positions) <= refs


def test_arrays_are_the_callers_to_change():
    doc = animbin.open(TESTDATA / "sample.semodel")
    first = doc.scene()
    first.meshes[0].positions[:] = 0
    assert doc.scene().meshes[0].positions.any()
