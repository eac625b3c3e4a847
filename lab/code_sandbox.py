"""Run a learner's Python function outside the server's process, and get back its outputs.

Each run is a new, short-lived process (:mod:`lab.code_harness`) that sees no network (a
network namespace of its own, only an unconfigured loopback), no file of the app or the
system (a root of its own holding the Python standard library, read-only, and an empty
``/tmp`` of 256 kB), no other process (a pid namespace), no environment variable, and runs
as an unprivileged user id of its own (one per slot, so two runs cannot touch each other)
that may not start any process, under limits of CPU time, address space, file size and open
files, at a low priority, and is killed with everything it started when its wall-clock time
is up. Why this design and what each limit stops: ``docs/code-exercises.md``.

At most :data:`SLOTS` runs at once (the machine's cores are the students' too); the others
wait their turn, up to :data:`QUEUE_WAIT_S`. The result is only outputs: the parent
validates their shape and compares them with the engine's figures (``lab.code_exercises``),
so nothing the learner's code prints or writes can claim a pass.

No Streamlit here: the page calls :func:`run` from the session's thread, which waits.
"""

from __future__ import annotations

import functools
import json
import os
import queue
import secrets
import select
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["LIMITS", "SLOTS", "Outcome", "run", "available", "mode"]

HARNESS = Path(__file__).with_name("code_harness.py")
LIMITS = dict(
    cpu_s=4,            # CPU seconds for the whole run (RLIMIT_CPU; an alarm at cpu_s - 0.5)
    call_cpu_s=1.0,     # CPU seconds for one call: an endless loop is named, the run goes on
    wall_s=15,          # wall-clock seconds from the start, then the group is killed: a
                        # loaded machine stretches 4 CPU seconds at nice 15
    memory_mb=256,      # address space (RLIMIT_AS): Python alone takes about 20
    file_kb=256,        # largest file written (RLIMIT_FSIZE), and the size of /tmp
    tmp_kb=256,
    open_files=16,      # RLIMIT_NOFILE
    nice=15,            # below the server's sessions
)
OUTPUT_CAP = 4 << 20    # bytes read from the child; more is a broken run, not memory spent
SLOTS = int(os.environ.get("NDCG_LAB_SANDBOXES", "2"))
QUEUE_WAIT_S = 60
FIRST_UID = 61000       # slot i runs as user id FIRST_UID + i (no name needed in /etc/passwd)
_UNSHARE = ("--net", "--mount", "--pid", "--ipc", "--uts", "--fork", "--kill-child")

_free: queue.Queue[int] = queue.Queue()
for _slot in range(SLOTS):
    _free.put(_slot)


@dataclass(frozen=True)
class Outcome:
    """What became of a run. ``problem`` is None when the code ran and ``outputs`` holds one
    entry per call: ``{"value": ...}``, ``{"error": "TypeError: ... (line 3)"}`` or
    ``{"timeout": seconds}``. Otherwise ``problem`` is one of ``unavailable``, ``busy``,
    ``timeout``, ``killed``, ``load_error``, ``missing``, ``bad_output``; ``detail`` says more
    (the learner's exception, the function's name, the exit status)."""

    problem: str | None
    outputs: list = field(default_factory=list)
    detail: str = ""
    printed: str = ""
    seconds: float = 0.0


@functools.lru_cache(maxsize=1)
def _user_namespaces() -> bool:
    """Whether this user may create a user namespace (Debian: yes; Ubuntu 24.04's AppArmor
    and some containers say no)."""
    try:
        return subprocess.run(["unshare", "--user", "--map-root-user", *_UNSHARE, "true"],
                              env={}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def mode() -> str | None:
    """How runs are isolated here: "root" (the server runs as root: namespaces, then the
    slot's unprivileged user id), "userns" (a user namespace whose root has every
    capability dropped), or None (neither: see :func:`available`)."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return None
    if os.geteuid() == 0:
        return "root"
    return "userns" if _user_namespaces() else None


def available() -> str | None:
    """None when runs can be made here; else why not (the page shows it, naming the fix)."""
    if sys.platform != "linux":
        return "Code runs need Linux (namespaces and a chroot of their own)."
    if shutil.which("unshare") is None:
        return "Code runs need util-linux's unshare (apt-get install util-linux)."
    if mode() is None:
        return ("Code runs need user namespaces (sysctl kernel.unprivileged_userns_clone=1; on "
                "Ubuntu, kernel.apparmor_restrict_unprivileged_userns=0) or a server started "
                "as root.")
    return None


def _hidden(stdlib: str) -> list[str]:
    """Directories under the standard library to empty: the installed packages."""
    paths = sysconfig.get_paths()
    return sorted({p for p in (paths["purelib"], paths["platlib"])
                   if p.startswith(stdlib.rstrip("/") + "/")})


def _command(how: str) -> list[str]:
    user = ["--user", "--map-root-user"] if how == "userns" else []
    return ["unshare", *user, *_UNSHARE, "--", sys.executable, "-I", "-S", str(HARNESS)]


def _read_capped(proc, deadline) -> tuple[bytes, bool]:
    """The child's stdout up to OUTPUT_CAP, until it closes or the deadline; (data, in time)."""
    chunks, size, fd = [], 0, proc.stdout.fileno()
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks), False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks), True
        chunks.append(chunk)
        size += len(chunk)
        if size > OUTPUT_CAP:
            return b"".join(chunks), True


def _kill(proc):
    try:
        os.killpg(proc.pid, 9)   # its own session and group: unshare and the harness
    except ProcessLookupError:
        pass
    proc.wait()


def _parse(data: bytes, nonce: str, n_calls: int) -> Outcome | None:
    """The harness's result when it has the expected shape, else None."""
    head = b"NDCG-RESULT " + nonce.encode() + b" "
    if not data.startswith(head) or not data.endswith(b"\n"):
        return None
    try:
        result = json.loads(data[len(head):])
    except ValueError:
        return None
    if not isinstance(result, dict) or not isinstance(result.get("printed", ""), str):
        return None
    printed = result.get("printed", "")
    if "load_error" in result:
        problem = "timeout" if result["load_error"] == "timeout" else "load_error"
        return Outcome(problem, detail=str(result["load_error"]), printed=printed)
    if "missing" in result:
        return Outcome("missing", detail=str(result["missing"]), printed=printed)
    outputs = result.get("outputs")
    if not isinstance(outputs, list) or len(outputs) != n_calls:
        return None
    for out in outputs:
        if not (isinstance(out, dict) and len(out) == 1
                and next(iter(out)) in ("value", "error", "timeout")):
            return None
    return Outcome(None, outputs=outputs, printed=printed)


def run(code: str, function: str, calls: list[list], limits: dict | None = None, *,
        how: str | None = None) -> Outcome:
    """Run ``code``, then ``function(*args)`` for each ``args`` of ``calls`` (JSON values), in
    a sandbox; the outputs in the order of ``calls``. ``how``: :func:`mode`'s answer unless
    given (the tests run both)."""
    why = available()
    if why:
        return Outcome("unavailable", detail=why)
    how = how or mode()
    limits = {**LIMITS, **(limits or {})}
    started = time.monotonic()
    try:
        slot = _free.get(timeout=QUEUE_WAIT_S)
    except queue.Empty:
        return Outcome("busy", seconds=time.monotonic() - started)
    try:
        return _run_in(slot, code, function, calls, limits, started, how)
    finally:
        _free.put(slot)


def _run_in(slot, code, function, calls, limits, started, how) -> Outcome:
    stdlib = sysconfig.get_paths()["stdlib"]
    nonce = secrets.token_hex(16)
    job = json.dumps(dict(code=code, function=function, calls=calls, limits=limits,
                          uid=FIRST_UID + slot if how == "root" else None, nonce=nonce, stdlib=stdlib,
                          hidden=_hidden(stdlib))).encode()
    ran = time.monotonic()   # the wall clock counts from the slot, not the wait for it
    proc = subprocess.Popen(_command(how), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env={}, cwd="/",
                            start_new_session=True, close_fds=True)

    def feed():
        try:
            proc.stdin.write(job)
            proc.stdin.close()
        except OSError:   # the child died before reading all of it: its status says why
            pass
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    data, in_time = _read_capped(proc, ran + limits["wall_s"])
    _kill(proc)
    writer.join()
    proc.stdout.close()
    seconds = time.monotonic() - started
    if not in_time:
        return Outcome("timeout", detail=str(limits["wall_s"]), seconds=seconds)
    parsed = _parse(data, nonce, len(calls))
    if parsed is None:
        if not data:
            status = proc.returncode
            return Outcome("killed", detail=str(-status if status and status < 0 else status),
                           seconds=seconds)
        return Outcome("bad_output", seconds=seconds)
    return Outcome(parsed.problem, parsed.outputs, parsed.detail, parsed.printed, seconds)
