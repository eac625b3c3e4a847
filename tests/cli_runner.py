"""``python -m ndcg_core ARGS`` as a process of its own, without paying Python's and pandas'
start-up (about 1 s of CPU) for every call: the command-line tests make some sixty calls.

One helper process per test worker imports what ``ndcg_core/__main__.py`` imports (numpy,
pandas, the engine) and then, for each call, forks: the child runs the command line exactly as
``python -m ndcg_core`` does (``runpy`` with ``alter_sys``: its own ``sys.argv``, ``__main__``),
with stdin from /dev/null and stdout and stderr in files of its own; an uncaught exception
prints its traceback and exits 1, as the interpreter does. The caller gets what
``subprocess.run(..., capture_output=True, text=True)`` gives (returncode, stdout, stderr).

``run_cli(argv, fresh=True)`` starts a real ``python -m ndcg_core`` instead: each test file
keeps at least one such call, so the entry point itself stays tested from a cold start.
"""

from __future__ import annotations

import atexit
import json
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FORK_SERVER = r"""
import json, os, runpy, sys, tempfile, traceback
import argparse, numpy, pandas, ndcg_core, ndcg_core.options  # what __main__ imports
reply = os.fdopen(os.dup(1), "w")          # answers go here; fds 1 and 2 become the child's
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
for line in sys.stdin:
    ask = json.loads(line)
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.chdir(ask["cwd"])
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.argv = ["-m", *ask["argv"]]
            runpy.run_module("ndcg_core", run_name="__main__", alter_sys=True)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if not isinstance(stop.code, (int, type(None))):
                print(stop.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            code = 1
        try:
            sys.stdout.flush(); sys.stderr.flush()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    texts = []
    for f in (out, err):
        f.seek(0)
        texts.append(f.read().decode("utf-8", errors="replace"))
        f.close()
    reply.write(json.dumps({"code": code, "out": texts[0], "err": texts[1]}) + "\n")
    reply.flush()
"""

_lock = threading.Lock()
_server: subprocess.Popen | None = None


def _stop() -> None:
    if _server is not None and _server.poll() is None:
        _server.stdin.close()
        _server.wait(timeout=30)


def _fork_server() -> subprocess.Popen:
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen([sys.executable, "-c", FORK_SERVER], cwd=ROOT, text=True,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        atexit.register(_stop)
    return _server


def run_cli(argv, *, cwd: str | Path = ROOT, fresh: bool = False,
            timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m ndcg_core *argv`` in ``cwd``: forked from the helper process, or a cold
    ``python`` with ``fresh=True``."""
    argv = [str(a) for a in argv]
    if fresh:
        return subprocess.run([sys.executable, "-m", "ndcg_core", *argv], cwd=cwd,
                              capture_output=True, text=True, timeout=timeout)
    with _lock:
        server = _fork_server()
        server.stdin.write(json.dumps({"argv": argv, "cwd": str(cwd)}) + "\n")
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
    return subprocess.CompletedProcess([sys.executable, "-m", "ndcg_core", *argv],
                                       answer["code"], answer["out"], answer["err"])
