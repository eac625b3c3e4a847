"""User text is data: links, images, HTML and LaTeX typed into a label, a link parameter or
a grade reach every notice, toast, warning and error escaped, so Markdown never turns them
into a working link, a tracking image or a formula (issue 16).

Each case feeds a payload through one place; the check reads every Markdown-bearing element
of the page and fails on link or image syntax, raw HTML or a LaTeX span left unescaped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground_events import fire, item_id, table_data

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LINK = "[Sign in](https://evil.example/login)"
IMAGE = "![p](http://evil.example/pixel.png)"
HTML = '<a href="https://evil.example">x</a><img src="http://evil.example/i.png">'
LATEX = r"$\href{https://evil.example}{x}$"
PAYLOADS = [LINK, IMAGE, HTML, LATEX]
# Markdown that would render: "[text](" or "![" not escaped, an unescaped "<", a "$...$" span
UNESCAPED = [re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\("), re.compile(r"(?<!\\)!(?<!\\)\["),
             re.compile(r"(?<!\\)<[a-zA-Z/]"), re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")]


def shown_markdown(at) -> list[str]:
    """Every notice the page renders as Markdown: alerts and toasts (the playground shows no
    other Markdown built from user text; its ranking table draws labels as plain text)."""
    kinds = ("error", "warning", "info", "success", "toast")
    return [el.value for kind in kinds for el in at.get(kind)]


def assert_all_escaped(at, payload):
    assert not at.exception
    texts = shown_markdown(at)
    assert texts, "no notice was shown: the case tests nothing"
    for text in texts:
        for pattern in UNESCAPED:
            assert not pattern.search(text), f"{payload!r} renders as Markdown in: {text!r}"


def open_app(params=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (params or {}).items():
        at.query_params[name] = value
    return at.run()


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("param", ["gain", "k", "scale", "g"])
def test_a_link_parameter_in_the_links_notice_is_escaped(param, payload):
    """?gain=[Sign in](...) and friends: the "could not be read" notice quotes it escaped."""
    params = {"g": "1,2", param: payload}
    assert_all_escaped(open_app(params), payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_labels_in_the_outside_the_scale_warning_are_escaped(payload):
    """Labels from a link, then a scale that cannot hold their grades: the warning names them."""
    at = open_app({"l": [payload, "plain"], "g": "9,9", "scale": "free"})
    at.selectbox(key="pg_scale").set_value("0-3").run()
    assert any("Outside" in w.value for w in at.warning)
    assert_all_escaped(at, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_labels_and_refusals_in_the_ranking_table_stay_data(payload):
    """A label from a link, renamed and refused a grade: the table gets it as data (JSON,
    drawn with textContent: tests/browser/test_security.py), and the page's Markdown
    notices quote it escaped."""
    at = open_app({"l": [payload, "plain"], "g": "9,1", "scale": "free"})
    at.selectbox(key="pg_scale").set_value("0-3").run()  # 9 is off the scale: a warning
    refused = fire(at, {"action": "grade", "id": item_id(at, payload), "grade": 7})
    assert refused and "The grade stays 9" in refused
    assert fire(at, {"action": "rename", "id": item_id(at, "plain"), "label": payload}) is None
    assert [r["label"] for r in table_data(at)["rows"]] == [payload, payload]
    assert_all_escaped(at, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_typed_judged_pool_in_its_error_is_escaped(payload):
    """The pool box quotes what did not parse."""
    at = open_app()
    at.text_input(key="pg_pool_text").input(payload).run()
    assert_all_escaped(at, payload)
