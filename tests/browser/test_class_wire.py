"""Class mode's join limits on a live server, against clients that speak Streamlit's websocket
protocol from their own loopback addresses (127.0.0.x: Streamlit's ``st.context.ip_address``
tells them apart), as a bot would: what AppTest cannot show (it has no address)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import monkey as M  # noqa: E402
from bench_abuse import Wire  # noqa: E402
from class_wire import run_apart  # noqa: E402

from lab.classroom import db  # noqa: E402
from lab.classroom.limits import Limits  # noqa: E402
from lab.classroom.store import Store  # noqa: E402


def test_new_sessions_from_one_address_fill_no_class_and_a_real_student_joins(
        tmp_path, monkeypatch):
    """A bot opens a fresh session for every join from one address: 50 seats of the room,
    then refused; a phone on another address joins at once, and so does a client whose
    address the proxy's header (X-Real-IP, configured) gives as another one."""
    monkeypatch.setenv("NDCG_LAB_DATA", str(tmp_path))
    monkeypatch.delenv("NDCG_LAB_DB_URL", raising=False)
    monkeypatch.setenv("NDCG_LAB_CLIENT_IP_HEADER", "X-Real-IP")
    store = Store(db.open_engine(f"sqlite:///{tmp_path / 'class.sqlite3'}"))
    room, _ = store.create_room()
    limit = Limits().seats_per_address

    async def join(source: str, headers=None) -> str:
        w = Wire(server.url, room.code, 0, source)
        w.headers = headers
        await w.connect()
        try:
            return await w.try_join()
        finally:
            await w.ws.close()

    async def run() -> list[str]:
        bots = [await join("127.0.0.2") for _ in range(limit + 3)]
        return bots + [await join("127.0.0.3"),
                       await join("127.0.0.2", {"X-Real-IP": "198.51.100.7"})]

    with M.AppServer(tmp_path) as server:
        got = run_apart(run())
        assert not server.all_tracebacks()
    assert got[:limit] == ["joined"] * limit
    assert all(g.startswith("This class has taken as many") for g in got[limit:limit + 3]), \
        got[limit:]
    assert got[-2:] == ["joined", "joined"]
    assert store.room(room.code).students == limit + 2
    store.engine.dispose()
