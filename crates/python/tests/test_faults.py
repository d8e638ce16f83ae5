"""Faults around the files (issue 20): output failures are OSErrors naming the output,
input errors name their file, long reads can be interrupted and are bounded, and documents
pickle so they can go to other processes."""

from __future__ import annotations

import copy
import errno
import multiprocessing
import operator
import os
import pickle
import signal
import stat
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

import animbin
from conftest import TESTDATA, samples

SAMPLES = samples()
IDS = [p.name for p in SAMPLES]
SEANIM = TESTDATA / "sample.seanim"

unix_only = pytest.mark.skipif(not hasattr(os, "mkfifo") or sys.platform == "darwin", reason="Linux FIFOs and devices")


# Output failures: OSError naming the output, never FormatError.


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_is_an_os_error_naming_the_output():
    doc = animbin.open(SEANIM)
    with pytest.raises(OSError) as e:
        doc.write("/dev/full", format="seanim")
    assert not isinstance(e.value, animbin.FormatError)
    assert e.value.errno == errno.ENOSPC
    assert e.value.filename == "/dev/full"
    assert "/dev/full" in str(e.value)


def test_a_missing_folder_is_file_not_found_naming_the_output(tmp_path):
    out = tmp_path / "no" / "such" / "folder" / "out.seanim"
    with pytest.raises(FileNotFoundError) as e:
        animbin.open(SEANIM).write(out)
    assert not isinstance(e.value, animbin.FormatError)
    assert e.value.filename == str(out)
    assert not (tmp_path / "no").exists()


def test_a_read_only_output_is_refused_unless_forced(tmp_path):
    out = tmp_path / "out.seanim"
    out.write_bytes(b"keep me")
    out.chmod(0o444)
    doc = animbin.open(SEANIM)
    with pytest.raises(PermissionError) as e:
        doc.write(out)
    assert not isinstance(e.value, animbin.FormatError)
    assert e.value.filename == str(out)
    assert "read-only" in str(e.value) and "force=True" in str(e.value)
    assert out.read_bytes() == b"keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["out.seanim"]
    doc.write(out, force=True)
    assert out.read_bytes() == SEANIM.read_bytes()
    # The replaced file keeps the permissions it had.
    assert stat.S_IMODE(out.stat().st_mode) == 0o444


def test_force_is_a_keyword_of_write_only():
    doc = animbin.open(SEANIM)
    with pytest.raises(TypeError, match="unexpected keyword argument 'force'"):
        doc.convert("seanim", force=True)


# Input errors: FormatError naming the file; what the system refuses, its OSError.


def test_open_errors_start_with_the_path(tmp_path):
    bad = tmp_path / "bad.seanim"
    bad.write_bytes(SEANIM.read_bytes()[:20])
    with pytest.raises(animbin.FormatError) as e:
        animbin.open(bad)
    assert str(e.value).startswith(f"{bad}: seanim at byte ")
    assert (e.value.format, e.value.offset is not None) == ("seanim", True)
    with pytest.raises(IsADirectoryError) as e:
        animbin.open(tmp_path)
    assert e.value.filename == str(tmp_path)
    empty = tmp_path / "empty.cast"
    empty.write_bytes(b"")
    with pytest.raises(animbin.FormatError, match=r"empty\.cast: the file is empty"):
        animbin.open(empty)


def test_errors_about_a_document_name_its_file(tmp_path):
    model = animbin.open(TESTDATA / "sample.semodel")
    with pytest.raises(animbin.FormatError) as e:
        model.convert("seanim")
    assert str(e.value).startswith(f"{TESTDATA / 'sample.semodel'}: seanim cannot hold anything")
    # A document from bytes has no file to name.
    with pytest.raises(animbin.FormatError) as e:
        animbin.open((TESTDATA / "sample.semodel").read_bytes()).convert("seanim")
    assert str(e.value).startswith("seanim cannot hold anything")
    # An animation source that cannot be opened is named.
    missing = tmp_path / "missing.seanim"
    with pytest.raises(FileNotFoundError) as e:
        model.to_gltf(anims=[missing])
    assert e.value.filename == str(missing)


def test_bytes_that_spell_a_path_get_a_hint(tmp_path, monkeypatch):
    with pytest.raises(animbin.FormatError) as e:
        animbin.open(str(SEANIM).encode())
    message = str(e.value)
    assert message.startswith("unknown format at byte 0")
    assert f'did you mean animbin.open("{SEANIM}")? bytes are read as the file\'s contents' in message
    assert e.value.offset == 0
    # Relative paths too.
    monkeypatch.chdir(TESTDATA)
    with pytest.raises(animbin.FormatError, match=r'did you mean animbin.open\("\./sample.seanim"\)'):
        animbin.open(b"./sample.seanim")
    # No hint for a path that names nothing, or for bytes that are not a path.
    for data in (str(tmp_path / "missing.seanim").encode(), b"/\x00", b"NOTAFORMAT"):
        with pytest.raises(animbin.FormatError) as e:
            animbin.open(data)
        assert "did you mean" not in str(e.value)


# Long reads: in chunks, interruptible, bounded.


class Interrupted(Exception):
    pass


@contextmanager
def alarm(seconds: float):
    """Raises Interrupted in the main thread after `seconds`, as Ctrl-C's handler would."""

    def handler(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def unblocked_after(fifo: Path, seconds: float):
    """If the test is still reading `fifo` after `seconds`, opens and closes its writing end
    so that the read ends (with an empty file) instead of hanging the suite."""
    done = threading.Event()

    def watchdog():
        if not done.wait(seconds):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass

    thread = threading.Thread(target=watchdog, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


@unix_only
def test_a_signal_handler_interrupts_a_wait_for_a_fifo(tmp_path):
    fifo = tmp_path / "fifo.seanim"
    os.mkfifo(fifo)
    with unblocked_after(fifo, 10), pytest.raises(Interrupted), alarm(0.3):
        animbin.open(fifo)


@unix_only
def test_ctrl_c_interrupts_open_of_a_fifo_no_one_writes_to(tmp_path):
    fifo = tmp_path / "fifo.seanim"
    os.mkfifo(fifo)
    # Ctrl-C as from a terminal: Python leaves SIGINT ignored when it starts ignored (the
    # tests run as a background job, say), so the child sets the handler it would have.
    script = (
        "import signal, sys, animbin\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('ready', flush=True)\n"
        "animbin.open(sys.argv[1])\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        # Wait until the child holds the FIFO open (it is inside animbin.open), up to 5 s.
        fds = Path(f"/proc/{child.pid}/fd")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                if any(os.readlink(fd) == str(fifo) for fd in fds.iterdir()):
                    break
            except OSError:
                pass
            time.sleep(0.02)
        time.sleep(0.1)
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("animbin.open of a FIFO went on after SIGINT")
    assert "KeyboardInterrupt" in stderr, stderr
    assert child.returncode != 0


@unix_only
def test_a_signal_handler_interrupts_a_conversion_and_nothing_is_written(tmp_path):
    # Written into a FIFO, the conversion waits in the open of its output until someone
    # reads: a stage that nothing interrupts, as a long encode is. The handler's exception
    # must end the call while it waits, and what is then read of the FIFO is nothing.
    fifo = tmp_path / "out.seanim"
    os.mkfifo(fifo)
    document = animbin.open(SEANIM)
    read = []
    interrupted = threading.Event()

    def reader():
        # Reads once the call was interrupted, or after 5 s if it never is (then the
        # conversion completes into the FIFO and the test fails instead of hanging).
        interrupted.wait(5)
        with open(fifo, "rb") as pipe:
            read.append(pipe.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        with pytest.raises(Interrupted), alarm(0.3):
            document.write(fifo)
    finally:
        interrupted.set()
        thread.join()
    assert read == [b""]


@unix_only
def test_a_signal_handler_interrupts_a_long_read_of_a_device():
    # Read to its end, /dev/zero would be refused at the 4 GiB limit (a FormatError) after
    # seconds; the handler ends it first.
    with pytest.raises(Interrupted), alarm(0.2):
        animbin.open("/dev/zero")
    # Raised between chunks, not once the read ended (4 GiB: 5 s and more here).


@unix_only
def test_a_signal_handler_interrupts_a_long_read_of_a_huge_file(tmp_path):
    huge = tmp_path / "huge.seanim"
    with open(huge, "wb") as f:
        f.truncate(4 << 30)  # sparse: no disk used; 4 GiB is the most that is read
    # Read whole, it would be an unknown format (all zeros); the handler ends it first.
    with pytest.raises(Interrupted), alarm(0.2):
        animbin.open(huge)


def test_a_large_file_reads_as_the_same_bytes(tmp_path):
    # Files of 4 MiB and more are read into huge pages where the system has them; an SEAnim
    # keeps trailing bytes it does not know, so the padded file writes back as it is.
    padded = SEANIM.read_bytes() + bytes(range(256)) * (5 << 12)
    path = tmp_path / "padded.seanim"
    path.write_bytes(padded)
    document = animbin.open(path)
    assert document.to_bytes() == padded
    assert document.dump() == animbin.open(padded).dump()


@unix_only
def test_a_fifo_is_read_as_its_writer_writes(tmp_path):
    fifo = tmp_path / "fifo.seanim"
    os.mkfifo(fifo)
    data = SEANIM.read_bytes()

    def writer():
        time.sleep(0.2)  # the reader waits for its writer
        with open(fifo, "wb", buffering=0) as f:
            for i in range(0, len(data), 7):
                f.write(data[i : i + 7])
                time.sleep(0.001)

    thread = threading.Thread(target=writer)
    thread.start()
    with unblocked_after(fifo, 10):
        doc = animbin.open(fifo)
    thread.join()
    assert doc.format == "seanim" and doc.to_bytes() == data and doc.path == str(fifo)


@unix_only
def test_reads_past_max_input_size_are_refused_naming_the_limit_and_the_keyword(tmp_path):
    # A pipe, as soon as it passes the limit.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "wb") as f:
            try:
                f.write(b"x" * 100_000)
            except BrokenPipeError:
                pass

    thread = threading.Thread(target=writer)
    thread.start()
    with unblocked_after(fifo, 10), pytest.raises(animbin.FormatError) as e:
        animbin.open(fifo, max_input_size=1000)
    thread.join()
    assert str(e.value) == (
        f"{fifo}: larger than the limit of 1000 bytes for one input; open(..., max_input_size=N) raises it"
    )
    assert e.value.__cause__.errno == errno.EFBIG and e.value.__cause__.filename == str(fifo)
    # A device, the limit given with a unit as the command's --max-input-size takes it.
    with pytest.raises(animbin.FormatError, match=r"^/dev/zero: larger than the limit of 1048576 bytes \(1 MiB\)"):
        animbin.open("/dev/zero", max_input_size="1M")
    # A regular file, before it is read; one at the limit reads whole.
    size = SEANIM.stat().st_size
    with pytest.raises(animbin.FormatError, match=f"larger than the limit of {size - 1} bytes"):
        animbin.open(SEANIM, max_input_size=size - 1)
    doc = animbin.open(SEANIM, max_input_size=size)
    assert doc.to_bytes() == SEANIM.read_bytes() and doc.path == str(SEANIM)
    # Bytes are in memory already: the limit bounds reads of paths only.
    assert animbin.open(SEANIM.read_bytes(), max_input_size=1).to_bytes() == SEANIM.read_bytes()


def test_max_input_size_takes_the_commands_values_and_names_itself_otherwise():
    size = SEANIM.stat().st_size
    for value in [size, str(size), "1K", "64M", "8G", "1TiB", None]:
        assert animbin.open(SEANIM, max_input_size=value).format == "seanim"
    for value in [0, -1, "0", "1.5G", "8GB", "lots", 1 << 64]:
        with pytest.raises(ValueError, match=r"^open\(\): max_input_size: ") as e:
            animbin.open(SEANIM, max_input_size=value)
        assert not isinstance(e.value, animbin.FormatError)
    for value in [True, 1.5, b"64M"]:
        with pytest.raises(TypeError, match="max_input_size"):
            animbin.open(SEANIM, max_input_size=value)
    with pytest.raises(TypeError):
        animbin.open(SEANIM, "seanim", 1000)  # keyword only


@unix_only
def test_max_input_size_raises_the_limit_past_4_gib(tmp_path):
    huge = tmp_path / "huge.seanim"
    with open(huge, "wb") as f:
        f.truncate((4 << 30) + 1)  # sparse: no disk used
    # Refused by default before it is read; with a higher limit the read starts, and a
    # signal handler ends it after 0.2 s, long before its end.
    with pytest.raises(animbin.FormatError, match=r"\(4 GiB\)"):
        animbin.open(huge)
    with pytest.raises(Interrupted), alarm(0.2):
        animbin.open(huge, max_input_size="5G")


@unix_only
def test_open_refuses_a_file_over_4_gib_before_reading_it(tmp_path):
    huge = tmp_path / "huge.seanim"
    with open(huge, "wb") as f:
        f.truncate((4 << 30) + 1)  # sparse
    with pytest.raises(animbin.FormatError) as e:
        animbin.open(huge)
    assert str(e.value) == (
        f"{huge}: larger than the limit of 4294967296 bytes (4 GiB) for one input; open(..., max_input_size=N) raises it"
    )
    assert e.value.__cause__.errno == errno.EFBIG


# Pickling: by the bytes in the document's own form, its format and its path.


def same_document(a, b):
    assert (a.format, a.path) == (b.format, b.path)
    assert a.info() == b.info()
    assert a.dump() == b.dump()
    assert a.to_bytes() == b.to_bytes()


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_documents_pickle(path):
    doc = animbin.open(path)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        same_document(pickle.loads(pickle.dumps(doc, protocol)), doc)
    same_document(copy.deepcopy(doc), doc)
    from_bytes = animbin.open(path.read_bytes(), format=doc.format)
    back = pickle.loads(pickle.dumps(from_bytes))
    assert back.path is None
    same_document(back, from_bytes)


def test_a_pickled_document_keeps_its_path_for_conversions():
    doc = animbin.open(SEANIM)
    back = pickle.loads(pickle.dumps(doc))
    # The path names unnamed animations (an SEAnim's) after the file's stem.
    assert back.scene(name_animations=True).animations[0].name == "sample"
    assert back.to_gltf() == doc.to_gltf()


def test_documents_go_to_a_process_pool():
    docs = [animbin.open(SEANIM), animbin.open(TESTDATA / "sample.semodel")]
    expected = [doc.convert("cast") for doc in docs]
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        # Documents go to the workers, converted bytes come back...
        assert pool.map(operator.methodcaller("convert", "cast"), docs) == expected
        # ...and documents built in the workers come back.
        back = pool.map(animbin.undump, [doc.dump() for doc in docs])
    for doc, copy_ in zip(docs, back):
        assert copy_.format == doc.format and copy_.to_bytes() == doc.to_bytes()
