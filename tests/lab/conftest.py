"""The PostgreSQL server the class-mode store tests run against (one per test session)."""

from typing import Iterator

import pytest

from postgres_server import postgres_server


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url
