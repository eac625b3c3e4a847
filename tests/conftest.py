"""Make the repository importable (ndcg_core, ui) from every test; mark every test that starts
a browser ``browser`` (so ``-m "not browser"`` is the fast lane) and the files that take
minutes ``slow``; hand out the slowest files first."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import installed_packages  # noqa: E402  (tests/ is on the path: pytest put it there)


# AppTest's component scan parses every installed package's metadata for each AppTest: the
# tests read it once (tests/installed_packages.py).
installed_packages.read_once()


# The files that take minutes are marked ``slow`` and handed out first. The suite runs on three
# workers (pytest.ini: ``-n 3 --dist loadfile``, a file stays on one worker), and pytest-xdist
# would otherwise hand out the files with the most tests first: the monkey (one test, ~3 min
# then) once started last and left the other workers idle at the end.
SLOW_FIRST = ("browser/test_monkey.py", "browser/test_fit_browser.py",
              "browser/test_classroom.py", "browser/test_language_browser.py",
              "browser/test_accessibility.py")


def starts_a_browser(item) -> bool:
    """Every test of tests/browser (Playwright + Chromium, and the servers they drive), and any
    test elsewhere whose fixtures include the ``browser`` one (``page`` asks for it too)."""
    return (ROOT / "tests" / "browser") in item.path.parents or (
        "browser" in getattr(item, "fixturenames", ()))


@pytest.hookimpl(tryfirst=True)  # marked before ``-m`` deselects
def pytest_collection_modifyitems(items) -> None:
    def rank(item) -> int:
        path = item.nodeid.split("::")[0]
        return next((i for i, name in enumerate(SLOW_FIRST) if path.endswith(name)),
                    len(SLOW_FIRST))

    for item in items:
        if starts_a_browser(item):
            item.add_marker(pytest.mark.browser)
        if rank(item) < len(SLOW_FIRST):
            item.add_marker(pytest.mark.slow)
    items.sort(key=rank)  # stable: every other file keeps its order
