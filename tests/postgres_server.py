"""A real PostgreSQL server for tests: Debian's postgresql 15, started in a temporary folder.

We run as root and PostgreSQL refuses to, so initdb and pg_ctl run as the ``postgres`` user
(``runuser -u postgres --``). The server listens on 127.0.0.1 on a free port, trusts local
connections (a throwaway cluster), and is stopped by its pid at the end. A test of a
database fault stops and restarts it (:class:`Cluster`).
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


class Cluster:
    """A running test server: ``url``, and ``stop()``/``start()`` to take it down and bring it
    back on the same port and data (a database fault, as in a restart during a class)."""

    def __init__(self, root: Path, port: int):
        self.root, self.port = root, port
        self.data, self.log = root / "data", root / "server.log"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/lab"

    def start(self) -> None:
        _as_postgres(str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                     "-t", "60", "-o", f"-h 127.0.0.1 -p {self.port} -k {self.root} "
                     "-c fsync=off", "start")

    def stop(self) -> None:
        _as_postgres(str(BIN / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60", "-m",
                     "fast", "stop")

    def pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except FileNotFoundError:
            return None


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """A fresh server with an empty database ``lab`` (its URL: ``.url``), stopped at the end."""
    if not (BIN / "initdb").exists():
        raise RuntimeError("PostgreSQL 15 is not installed: apt-get install postgresql "
                           "(.ci/run does it)")
    root = Path(tempfile.mkdtemp(prefix="ndcg-pg-"))
    shutil.chown(root, "postgres", "postgres")
    cluster = Cluster(root, _free_port())
    _as_postgres(str(BIN / "initdb"), "-D", str(cluster.data), "-U", "postgres",
                 "--auth=trust", "-E", "UTF8", "--no-sync")
    cluster.start()
    try:
        import psycopg
        for _ in range(100):
            try:
                with psycopg.connect(f"host=127.0.0.1 port={cluster.port} user=postgres "
                                     "dbname=postgres", autocommit=True) as conn:
                    conn.execute("CREATE DATABASE lab")
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        yield cluster
    finally:
        pid = cluster.pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)  # "fast" shutdown of the postmaster we started
            for _ in range(100):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Yield a ``postgresql+psycopg://`` URL to an empty database ``lab`` on a fresh server."""
    with postgres_cluster() as cluster:
        yield cluster.url
