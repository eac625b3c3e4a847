"""A real PostgreSQL server for tests: Debian's postgresql 15, started in a temporary folder.

We run as root and PostgreSQL refuses to, so initdb and pg_ctl run as the ``postgres`` user
(``runuser -u postgres --``). The server listens on 127.0.0.1 on a free port, trusts local
connections (a throwaway cluster), and is stopped by its pid at the end.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

BIN = Path("/usr/lib/postgresql/15/bin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True,
                          capture_output=True, text=True, **kw)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Yield a ``postgresql+psycopg://`` URL to an empty database ``lab`` on a fresh server."""
    if not (BIN / "initdb").exists():
        raise RuntimeError("PostgreSQL 15 is not installed: apt-get install postgresql "
                           "(.ci/run does it)")
    root = Path(tempfile.mkdtemp(prefix="ndcg-pg-"))
    shutil.chown(root, "postgres", "postgres")
    data, log = root / "data", root / "server.log"
    port = _free_port()
    _as_postgres(str(BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                 "-E", "UTF8", "--no-sync")
    _as_postgres(str(BIN / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
                 "-o", f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off", "start")
    pid = int((data / "postmaster.pid").read_text().split()[0])
    try:
        import psycopg
        for _ in range(100):
            try:
                with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres "
                                     "dbname=postgres", autocommit=True) as conn:
                    conn.execute("CREATE DATABASE lab")
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/lab"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)  # "fast" shutdown of the postmaster we started
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)
