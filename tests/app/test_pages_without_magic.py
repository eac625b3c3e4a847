"""Streamlit's "magic" is off (.streamlit/config.toml, runner.magicEnabled): a bare
expression in a page would silently draw nothing. No script Streamlit runs holds one."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bare_expressions(path: Path) -> list[int]:
    """Line numbers of statements magic would have drawn: an expression on its own that is
    not a call, a docstring, a yield or an await (streamlit.runtime.scriptrunner.magic)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            if not isinstance(stmt, ast.Expr):
                continue
            value = stmt.value
            if isinstance(value, (ast.Call, ast.Yield, ast.YieldFrom, ast.Await)):
                continue
            if i == 0 and isinstance(value, ast.Constant) and isinstance(value.value, str):
                continue  # a docstring
            lines.append(stmt.lineno)
    return lines


def test_magic_is_off_in_the_config():
    assert "magicEnabled = false" in (ROOT / ".streamlit" / "config.toml").read_text()


def test_no_page_draws_by_magic():
    scripts = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    found = {str(p.relative_to(ROOT)): _bare_expressions(p) for p in scripts}
    assert {name: lines for name, lines in found.items() if lines} == {}
