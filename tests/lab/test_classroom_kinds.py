"""Question kinds are one module each (lab/classroom/kinds/), read through one table: the
rest of class mode asks a question's kind, never compares its name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lab.classroom import kinds, questions as Q
from lab.classroom.bank import BANK

REPO = Path(__file__).resolve().parents[2]
KINDS_DIR = REPO / "lab" / "classroom" / "kinds"
# class mode outside the kinds' own modules: its logic, its pages and its renderers
CLASS_MODE = sorted(p for p in [*(REPO / "lab" / "classroom").glob("**/*.py"),
                                *(REPO / "ui").glob("class*.py"), REPO / "pages" / "class.py"]
                    if KINDS_DIR not in p.parents)


def _is_kind(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "kind") or (
        isinstance(node, ast.Attribute) and node.attr == "kind")


def kind_branches(source: str) -> list[int]:
    """Lines that branch on a kind's name: ``q.kind == "choose"``, ``kind in (...)``,
    ``{...}[q.kind]``, or a kind's name written as a string (a dispatch table's key, a
    default), except as the first argument of ``Question(...)`` (a question's data)."""
    tree = ast.parse(source)
    data = {id(call.args[0]) for call in ast.walk(tree)
            if isinstance(call, ast.Call) and call.args
            and getattr(call.func, "id", getattr(call.func, "attr", "")) == "Question"}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Compare) and any(map(_is_kind, [node.left, *node.comparators]))
                and any(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn))
                        for op in node.ops)):
            found.append(node.lineno)
        elif isinstance(node, ast.Subscript) and _is_kind(node.slice) and (
                isinstance(node.slice, ast.Attribute) or isinstance(node.value, ast.Dict)):
            found.append(node.lineno)
        elif (isinstance(node, ast.Constant) and node.value in kinds.KINDS
              and id(node) not in data):
            found.append(node.lineno)
    return sorted(found)


def test_the_counter_finds_the_branches_a_kind_module_replaces():
    old = '''
def grade(q, text):
    if q.kind == "predict":
        return 1
    letters = {"choose": "ABCD", "higher": "AB"}.get(q.kind, ())
    return kind in ("choose", "higher") or names[q.kind]
'''
    assert kind_branches(old) == [3, 3, 5, 5, 6, 6, 6, 6]
    assert kind_branches("if kind is None:\n    seen[kind] = 1") == []  # not a question's
    assert kind_branches('BANK = (Question("predict", (3, 2), 2),)') == []


def test_no_kind_branch_remains_outside_the_kinds_modules():
    assert len(CLASS_MODE) >= 10 and REPO / "ui" / "classroom.py" in CLASS_MODE
    found = {str(p.relative_to(REPO)): kind_branches(p.read_text(encoding="utf-8"))
             for p in CLASS_MODE}
    assert {p: lines for p, lines in found.items() if lines} == {}


def test_every_shipped_kind_is_one_module_in_the_table_and_in_the_bank():
    modules = {p.stem for p in KINDS_DIR.glob("*.py")} - {"__init__"}
    assert modules == set(kinds.KINDS)
    assert {q.kind for q in BANK} == set(kinds.KINDS)
    for name, kind in kinds.KINDS.items():
        assert kind.name == name and kind.style in kinds.STYLES
        assert kind.label("zh") != kind.label("en")  # its words are in the catalog


def test_an_unknown_kind_and_a_second_kind_of_one_name_are_refused():
    with pytest.raises(ValueError, match="kind must be one of predict, choose"):
        Q.Question("poll", (1, 0), 2)
    with pytest.raises(ValueError, match="a name of its own"):
        kinds.register(kinds.KINDS["predict"])
    with pytest.raises(ValueError, match="style is one of value, pick, order"):
        kinds.register(type("Odd", (kinds.Kind,), {"name": "odd", "style": "dance"})())
