"""No error shows a visitor a server path (issue 26, item 8): an uncaught exception shows its
type and Streamlit's generic line, never its message or its traceback
(``client.showErrorDetails = "type"`` in .streamlit/config.toml), and the app never calls
``st.exception``, which would show both whatever the option says."""

from __future__ import annotations

import ast
from pathlib import Path

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]


def test_an_uncaught_error_shows_no_message_no_traceback_and_no_path(
        page: Page, start_app, open_app):
    """A page that raises: the visitor reads the error's type, not where the server keeps it."""
    open_app(page, start_app("tests/apps/raising_app.py"))
    error = page.locator("[data-testid='stException']")
    expect(error).to_be_visible()
    shown = page.locator("[data-testid='stMain']").inner_text()
    assert "FileNotFoundError" in shown and "has encountered an error" in shown
    for leak in (str(ROOT), "/tests/apps", "secret.toml", "Traceback", 'File "', "line 1"):
        assert leak not in shown, f"{leak!r} shown to a visitor:\n{shown}"


def test_the_app_never_calls_st_exception():
    """st.exception() shows the message and the traceback whatever showErrorDetails says."""
    files = [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py"),
             *(ROOT / "lab").glob("*.py")]
    calls = [f"{path.relative_to(ROOT)}:{node.lineno}"
             for path in files for node in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(node, ast.Attribute) and node.attr == "exception"
             and isinstance(node.value, ast.Name) and node.value.id == "st"]
    assert not calls, f"st.exception used at {calls}"
