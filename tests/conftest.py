"""Make the repository importable (ndcg_core, ui) from every test; mark every test that starts
a browser ``browser`` (so ``-m "not browser"`` is the fast lane), every test that compares
with a reference library or trec_eval's expected outputs ``conformance`` (from what it
uses, not by hand), and the files that take minutes ``slow``; hand out the slowest files
first."""

import ast
import functools
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
# Then the other files that take longest, longest first (a full run's per-file times on three
# workers): a long file handed out last kept its worker busy for minutes after the others
# (the handouts' PDFs, 224 s, started last), and short files fill the end evenly.
LONG_NEXT = ("browser/test_present_browser.py", "browser/test_class_mode_browser.py",
             "browser/test_security.py", "engine/test_choices.py", "lab/test_handouts.py",
             "browser/test_onboarding_browser.py", "browser/test_ranking_table.py",
             "browser/test_drag.py", "lab/test_onboarding_store.py",
             "browser/test_take_out_browser.py", "browser/test_playground_browser.py",
             "engine/test_reference.py", "browser/test_undo_browser.py",
             "app/test_your_data.py", "browser/test_class_lecture_browser.py",
             "browser/test_your_data_browser.py", "engine/test_conventions_more.py")


def starts_a_browser(item) -> bool:
    """Every test of tests/browser (Playwright + Chromium, and the servers they drive), and any
    test elsewhere whose fixtures include the ``browser`` one (``page`` asks for it too)."""
    return (ROOT / "tests" / "browser") in item.path.parents or (
        "browser" in getattr(item, "fixturenames", ()))


# What a conformance test compares with: the reference libraries, and trec_eval's own
# expected outputs (tests/reference_data.py's TREC_EVAL_TEST, tests/data/trec_eval-test/).
REFERENCE_LIBRARIES = ("pytrec_eval", "xgboost", "lightgbm", "sklearn", "ranx")
REFERENCE_DATA = {"reference_data": ("TREC_EVAL_TEST",)}


def _imports_reference(node) -> list[str]:
    """The names an import statement binds to a reference library or trec_eval's data."""
    if isinstance(node, ast.Import):
        return [a.asname or a.name.split(".")[0] for a in node.names
                if a.name.split(".")[0] in REFERENCE_LIBRARIES]
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module.split(".")[0] in REFERENCE_LIBRARIES:
            return [a.asname or a.name for a in node.names]
        wanted = REFERENCE_DATA.get(node.module, ())
        return [a.asname or a.name for a in node.names if a.name in wanted]
    return []


def _uses(node, names) -> bool:
    return any((isinstance(n, ast.Name) and n.id in names) or _imports_reference(n)
               for n in ast.walk(node))


@functools.cache
def _reference_users(path: Path) -> tuple[frozenset, dict]:
    """(the module-level names of ``path`` that reach a reference, its functions by name):
    names an import binds to one, then every module-level function, class or value whose
    definition uses such a name, to a fixed point (a helper that calls sklearn counts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {name for node in ast.walk(tree) for name in _imports_reference(node)}
    defined = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        defined[n.id] = node
    grew = True
    while grew:
        new = {name for name, node in defined.items() if name not in names and _uses(node, names)}
        names |= new
        grew = bool(new)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    return frozenset(names), functions


def compares_with_a_reference(item) -> bool:
    """The test's own definition (decorators and parameters included) or one of its fixtures
    uses a reference library or trec_eval's expected outputs, directly or through a helper
    of its module."""
    path = Path(str(item.path))
    if path.suffix != ".py" or not path.exists():
        return False
    names, functions = _reference_users(path)
    node = functions.get(getattr(item, "originalname", item.name))
    fixtures = set(getattr(item, "fixturenames", ()))
    return (node is not None and _uses(node, names)) or bool(fixtures & names)


@pytest.hookimpl(tryfirst=True)  # marked before ``-m`` deselects
def pytest_collection_modifyitems(items) -> None:
    order = SLOW_FIRST + LONG_NEXT

    def rank(item) -> int:
        path = item.nodeid.split("::")[0]
        return next((i for i, name in enumerate(order) if path.endswith(name)), len(order))

    for item in items:
        if starts_a_browser(item):
            item.add_marker(pytest.mark.browser)
        if compares_with_a_reference(item):
            item.add_marker(pytest.mark.conformance)
        if rank(item) < len(SLOW_FIRST):
            item.add_marker(pytest.mark.slow)
    items.sort(key=rank)  # stable: every other file keeps its order
