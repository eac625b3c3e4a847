"""Every installed package's metadata, read once per test run.

Every AppTest, on its first run, looks through the metadata of every installed package for
Streamlit components (streamlit.components.v2's manifest scan: ~170 packages here, each one's
METADATA parsed three times). Measured with cProfile on 2026-12-03: 0.4-1 s of each AppTest
test's 0.8-2 s; 12 tests of tests/app/test_your_data.py took 34-36 s, and 19-24 s with the
metadata read once (the same load). No package is installed while the tests run, so
:func:`read_once` makes ``importlib.metadata.distributions()`` (the standard library's public
function) hand out the same distributions each time, each parsing its METADATA once. The
packages and their metadata stay what the standard library finds
(tests/app/test_public_api_only.py checks it, and that AppTest still asks).
"""

from __future__ import annotations

import copy
import functools
import importlib.metadata

find_distributions = importlib.metadata.distributions


class _ParsedOnce(importlib.metadata.PathDistribution):
    """A package's distribution whose METADATA file is parsed on first use only."""

    @functools.cached_property
    def metadata(self):
        return super().metadata


@functools.cache
def installed() -> tuple:
    """Every installed package's distribution, found once."""
    found = []
    for dist in find_distributions():
        if type(dist) is importlib.metadata.PathDistribution:
            dist = copy.copy(dist)
            dist.__class__ = _ParsedOnce
        found.append(dist)
    return tuple(found)


def distributions(**search):
    """``importlib.metadata.distributions``: every installed package, read once per run (a
    search by name or path still asks the file system)."""
    return find_distributions(**search) if search else iter(installed())


def read_once() -> None:
    importlib.metadata.distributions = distributions
