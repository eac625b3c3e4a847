"""The stores' tests run each case on SQLite and on a real PostgreSQL server
(tests/postgres_server.py), at a clock the test sets."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from postgres_server import postgres_server


class Clock:
    """Time that moves only when a test moves it (``clock.now += 60``)."""

    def __init__(self):
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def postgres_url():
    """One real PostgreSQL server for a test file."""
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path) -> str:
    """A database that holds no table yet: a new SQLite file, or the file's PostgreSQL
    server emptied of every table an earlier test made (class mode's, onboarding's)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'class.sqlite3'}"
    url = request.getfixturevalue("postgres_url")
    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()
    return url
