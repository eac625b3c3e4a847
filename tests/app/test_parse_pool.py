"""Uploads are read in another process (ui/parse_pool.py, issue 26): the same tables and
messages as ``read_qrels``/``read_run`` on the calling thread, and a worker that dies gives
a message for the file it was reading, then the next file is read by a new one."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from streamlit.testing.v1 import AppTest

from lab.runs import Upload
from ndcg_core import read_qrels, read_run
from ui import state as app_state
from ui import parse_pool

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "assets" / "samples"
FILES = [  # (kind, name, bytes): good and bad files of both kinds and formats
    ("qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes()),
    ("run", "system_a.run", (SAMPLES / "system_a.run").read_bytes()),
    ("qrels", "exp.qrels", b"q1 0 d1 1e1\nq1 0 d2 0\n"),  # attrs: trec_eval's atol grade
    ("run", "run.csv", b"qid,docid,score\nq1,d1,2.5\nq1,d2,1\n"),
    ("run", "bad.csv", b"qid,docid,score\nq1,d1,x\n"),
    ("qrels", "short.qrels", b"q1 0 d1\n"),
    ("run", "line.csv", b"qid,docid,score\n" + b"q," * 50_000),
    ("qrels", "wide.csv", b",".join(b"c%d" % i for i in range(100)) + b"\n1,2\n"),
    ("run", "empty.run", b""),
]


def engine(kind: str, name: str, data: bytes):
    """What the page read on its own thread before: the engine on the upload's file object."""
    try:
        return (read_qrels if kind == "qrels" else read_run)(Upload.of(name, data).open()), None
    except ValueError as exc:
        return None, str(exc)


def workers() -> list:
    """The pool's worker processes (forkserver children this process started)."""
    return [p for p in multiprocessing.active_children() if p.pid is not None]


def big_run() -> bytes:
    """A TREC run of 1.2 M lines (~40 MB): a parse of a second or more."""
    return "".join(f"{q} Q0 doc{q}-{d:04d}x{(q * 31 + d) % 9973} {d + 1} {1000 - d}.5 t\n"
                   for q in range(1200) for d in range(1000)).encode()


@pytest.mark.parametrize("kind,name,data", FILES, ids=[f[1] for f in FILES])
def test_a_file_read_in_a_worker_gives_the_engines_table_or_message(kind, name, data):
    """Every table (dtypes and attrs too) and every message is the engine's, word for word."""
    got, err = parse_pool.read(kind, name, data)
    want, want_err = engine(kind, name, data)
    assert err == want_err
    if want is None:
        assert got is None
    else:
        pd.testing.assert_frame_equal(got, want)
        assert got.attrs == want.attrs
    assert not parse_pool._unavailable, "read on the calling thread: no worker started"


def test_the_reading_runs_in_another_process():
    """The worker that reads is not this process, and it is kept for the next file."""
    parse_pool.read(*FILES[0])
    before = {p.pid for p in workers()}
    assert before and os.getpid() not in before
    parse_pool.read(*FILES[1])
    assert {p.pid for p in workers()} & before


# __main__ as a process may have it: neither a module name nor a file (``python -c``, as in
# pytest-xdist's workers), or a file that is gone. A worker imports __main__ again: with
# neither it imports nothing, so the pool works; a file that is gone cannot be imported, so
# the file is read on the calling thread. (A whole run failed here once: on xdist's workers
# the pool was never used, unless an earlier test on the worker had changed __main__.)
MAIN_CASES = {
    "python -c": ("", True),
    "__main__ file gone": ("import sys; sys.modules['__main__'].__file__ = '/nowhere/app.py'; ",
                           False),
}


@pytest.mark.parametrize("case", MAIN_CASES)
def test_a_process_whose_main_is_no_file_reads_in_a_worker(case):
    setup, in_worker = MAIN_CASES[case]
    code = (setup + "from ui import parse_pool as p; "
            "t, e = p.read('qrels', 'q.txt', b'q1 0 d1 2\\n'); "
            "print(t.to_dict('records'), e, p._unavailable)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[{'qid':", "'q1',", "'docid':", "'d1',", "'relevance':",
                                   "2}]", "None", str(not in_worker)]


@pytest.mark.parametrize("noticed", [True, False], ids=["noticed", "not-noticed-yet"])
def test_a_worker_killed_while_idle_is_replaced_without_a_message(noticed):
    """Its pool is replaced when the next file comes: that file is read as usual, also when
    it comes before the pool has noticed the death (queued, then sent to a new pool: 20 of
    20 such files got STOPPED before, 2026-12-03)."""
    parse_pool.read(*FILES[0])
    for p in workers():
        os.kill(p.pid, signal.SIGKILL)
        if noticed:
            p.join(10)
    got, err = parse_pool.read(*FILES[1])
    assert err is None and len(got) == len(engine(*FILES[1])[0])


def test_a_worker_killed_while_reading_gives_a_message_and_the_next_file_is_read():
    """The file being read gets STOPPED (the page words it), the next one its table."""
    data = big_run()
    out = {}
    with killing_the_reader(data):
        reader = threading.Thread(target=lambda: out.update(
            r=parse_pool.read("run", "big.run", data)))
        reader.start()
        reader.join(180)
    assert out["r"] == (None, parse_pool.STOPPED)
    got, err = parse_pool.read(*FILES[1])
    assert err is None and len(got) == len(engine(*FILES[1])[0])


def _read_bytes(pid: int) -> int:
    """Bytes a process has read so far (``rchar`` of /proc/PID/io)."""
    try:
        text = Path(f"/proc/{pid}/io").read_text()
    except OSError:
        return 0
    return int(next(line.split()[1] for line in text.splitlines()
                    if line.startswith("rchar:")))


def test_the_page_says_the_reading_stopped_and_clear_then_reads_again():
    """A run whose reader is killed: the page names it in words, no traceback; after Clear
    the same file is read."""
    data = big_run()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("pages/your_data.py").run()
    files = {"qrels": {"name": "qrels.txt", "data": FILES[0][2]},
             "runs": [{"name": "big.run", "data": data}]}
    at.session_state[app_state.YD_FILES] = files
    with killing_the_reader(data):
        at.run()
    assert not at.exception
    text = " ".join(e.value for e in at.error)
    assert "Reading big\\.run stopped before its end" in text, text
    at.button(key="yd_clear").click().run()
    at.session_state[app_state.YD_FILES] = files
    at.run()
    assert not at.exception and not at.error
    assert "big\\.run" in " ".join(c.value for c in at.caption)


class killing_the_reader:
    """While in it, a thread kills every worker once one has read ``data`` (``rchar`` of
    /proc/PID/io): the kill comes while the file is parsed."""

    def __init__(self, data: bytes):
        self.size = len(data)

    def __enter__(self):
        parse_pool.read(*FILES[0])  # a worker ready
        self.idle = {p.pid: _read_bytes(p.pid) for p in workers()}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch)
        self.thread.start()

    def _watch(self):
        deadline = time.monotonic() + 120
        while not self.done.is_set() and time.monotonic() < deadline:
            if any(_read_bytes(pid) - n >= self.size for pid, n in self.idle.items()):
                for pid in self.idle:
                    os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.005)

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
