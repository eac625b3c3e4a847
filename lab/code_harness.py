"""The sandbox's child: runs a learner's function on given inputs and hands back its outputs.

Started by :mod:`lab.code_sandbox` as ``unshare --net --mount --pid --ipc --uts --fork
--kill-child -- python -I -S code_harness.py``, with an empty environment. Standard library
only: this file is executed by path, never imported by the app. In order:

1. Read the job (JSON on stdin): the code, the function's name, the calls, the limits, the
   user id of the sandbox's slot and a nonce.
2. Keep stdout for the result; point file descriptors 0, 1 and 2 at /dev/null, so nothing the
   learner writes to them reaches the parent.
3. Build a root of its own: a small tmpfs holding only the Python standard library (read-only,
   its site-packages emptied) and a tmpfs ``/tmp``; ``chroot`` into it. The app's files, its
   secrets, ``/etc``, other processes' files and the installed packages are not there.
4. Set the resource limits (CPU, address space, file size, open files, processes: one, this
   one), a low priority, then drop root for the slot's unprivileged user id, with no groups.
5. Run the learner's module, then each call, each under a CPU-time alarm; write
   ``NDCG-RESULT <nonce> <json>`` on the kept descriptor and leave at once (``os._exit``: no
   learner ``__del__`` or ``atexit`` runs after the results).

The parent does not believe what this process says about passing: it gets only outputs and
compares them with ``ndcg_core``'s own figures, computed in the parent.
"""

import ctypes
import json
import math
import os
import resource
import signal
import sys
import traceback

# What a learner may import without the files: loaded while the standard library is at hand.
import bisect, cmath, collections, csv, dataclasses, decimal, fractions, functools  # noqa: E401,F401
import heapq, io, itertools, operator, random, re, statistics, string, typing  # noqa: E401,F401

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 32, 4096, 16384
SHOWN_OUTPUT = 4000   # characters of the learner's printing kept to show back
FILE_NAME = "your_code.py"


class CallTooLong(Exception):
    """A call ran out of its CPU time (raised by the alarm)."""


def _mount(libc, source, target, fstype, flags, data=None):
    enc = lambda s: None if s is None else s.encode()  # noqa: E731
    if libc.mount(enc(source), enc(target), enc(fstype), flags, enc(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), target)


def _bind_read_only(libc, source, target):
    os.makedirs(target, exist_ok=True)
    _mount(libc, source, target, None, MS_BIND | MS_REC)
    _mount(libc, None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def jail(stdlib, hidden, uid, tmp_kb):
    """A new root: the standard library, read-only, and a private /tmp; nothing else."""
    libc = ctypes.CDLL(None, use_errno=True)
    # unshare(1) made this mount namespace's mounts private: nothing here is seen outside
    root = "/tmp/sandbox-root"
    _mount(libc, "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=755")
    os.makedirs(root)
    _bind_read_only(libc, stdlib, root + stdlib)
    for path in hidden:  # installed packages (the engine's libraries) under the stdlib
        if os.path.isdir(root + path):
            _mount(libc, "tmpfs", root + path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV,
                   "size=4k,mode=555")
    os.makedirs(root + "/tmp")
    _mount(libc, "tmpfs", root + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={tmp_kb}k,mode=700,uid={uid},gid={uid}")
    os.chroot(root)
    os.chdir("/tmp")


def limit(limits, uid):
    """Resource limits, low priority, then no privileges: the slot's user, no groups, no
    forks (``uid`` None: a user namespace's root, whose capabilities are dropped instead)."""
    cpu = limits["cpu_s"]
    for what, value in ((resource.RLIMIT_CPU, (cpu, cpu + 1)),
                        (resource.RLIMIT_AS, (limits["memory_mb"] << 20,) * 2),
                        (resource.RLIMIT_FSIZE, (limits["file_kb"] << 10,) * 2),
                        (resource.RLIMIT_NOFILE, (limits["open_files"],) * 2),
                        (resource.RLIMIT_CORE, (0, 0)),
                        # counted per real user: the slot's user has this process only; the
                        # server's user (user-namespace mode) has the server too
                        (resource.RLIMIT_NPROC, (1, 1))):
        resource.setrlimit(what, value)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file too large: an error, not a kill
    os.nice(limits["nice"])
    if uid is None:
        drop_capabilities()
        return
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_capabilities():
    """Every capability gone, for good (bounding set, then the sets themselves; no new
    privileges through exec): the namespace's root can no longer mount, chroot out or
    change its limits. capset(2), version 3."""
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP = 38, 24
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    for cap in range(64):   # past the kernel's last capability prctl says EINVAL: done
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            break
    header, data = _CapHeader(0x20080522, 0), (_CapData * 2)()
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


class Capped(io.TextIOBase):
    """What the learner prints: the first characters kept, the rest counted and dropped."""

    def __init__(self):
        self.kept, self.dropped = [], 0

    def writable(self):
        return True

    def write(self, s):
        s = str(s)
        room = SHOWN_OUTPUT - sum(map(len, self.kept))
        self.kept.append(s[:max(room, 0)])
        self.dropped += max(len(s) - max(room, 0), 0)
        return len(s)

    def text(self):
        more = f"\n… ({self.dropped} more characters)" if self.dropped else ""
        return "".join(self.kept) + more


def describe(exc):
    """The exception as the learner would read it: its type, message and line."""
    try:
        line = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
                if f.filename == FILE_NAME]
        where = f" (line {line[-1]})" if line else ""
        message = str(exc)[:300]
    except BaseException:  # a learner's exception whose str() fails
        where, message = "", ""
    return f"{type(exc).__name__}: {message}{where}" if message else type(exc).__name__ + where


def encode(value):
    """An output as JSON: numbers as floats (NaN, ±inf as strings), None, or a dict of them."""
    if value is None:
        return None
    if isinstance(value, dict):
        return {"dict": {str(k)[:200]: encode(v) for k, v in list(value.items())[:5000]}}
    try:
        x = float(value)
    except BaseException:
        return {"type": type(value).__name__}
    return x if math.isfinite(x) else repr(x)


def _alarm(signum, frame):
    raise CallTooLong


def run(job):
    ns = {"__name__": "your_code", "__builtins__": __builtins__}
    per_call = job["limits"]["call_cpu_s"]
    signal.signal(signal.SIGPROF, _alarm)
    try:
        signal.setitimer(signal.ITIMER_PROF, job["limits"]["cpu_s"] - 0.5)
        exec(compile(job["code"], FILE_NAME, "exec"), ns)
        signal.setitimer(signal.ITIMER_PROF, 0)
    except CallTooLong:
        return {"load_error": "timeout"}
    except BaseException as exc:
        return {"load_error": describe(exc)}
    fn = ns.get(job["function"])
    if not callable(fn):
        return {"missing": job["function"]}
    outputs = []
    for call in job["calls"]:
        if outputs and "timeout" in outputs[-1]:   # one endless loop is enough to tell
            outputs.append({"timeout": per_call})
            continue
        try:
            signal.setitimer(signal.ITIMER_PROF, per_call)
            value = fn(*call)
            signal.setitimer(signal.ITIMER_PROF, 0)
            outputs.append({"value": encode(value)})
        except CallTooLong:
            outputs.append({"timeout": per_call})
        except BaseException as exc:
            signal.setitimer(signal.ITIMER_PROF, 0)
            outputs.append({"error": describe(exc)})
    return {"outputs": outputs}


def main():
    job = json.loads(sys.stdin.buffer.read())
    me = os.getpid()
    out = os.dup(1)
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    jail(job["stdlib"], job["hidden"], job["uid"] or 0, job["limits"]["tmp_kb"])
    limit(job["limits"], job["uid"])
    os.environ.clear()   # started with none; Python's locale coercion may have added LC_CTYPE
    sys.stdout = sys.stderr = printed = Capped()
    sys.stdin = io.StringIO()
    result = run(job)
    if os.getpid() != me:   # a process the learner forked (root's own test runs only)
        os._exit(0)
    result["printed"] = printed.text()
    try:
        data = json.dumps(result, allow_nan=False)
    except BaseException:
        data = json.dumps({"bad_output": True})
    frame = memoryview(b"NDCG-RESULT " + job["nonce"].encode() + b" " + data.encode() + b"\n")
    while frame:
        frame = frame[os.write(out, frame):]
    os._exit(0)


if __name__ == "__main__":
    main()
