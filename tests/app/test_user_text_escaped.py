"""User text is data: links, images, HTML and LaTeX typed into a label, a link parameter, a
grade, a file name, an id or a CSV header reach every notice, toast, warning, error and
caption escaped, so Markdown never turns them into a working link, a tracking image or a
formula (issues 16 and 21).

Each case feeds a payload through one place; the check reads every Markdown-bearing element
of the page and fails on link or image syntax, raw HTML or a LaTeX span left unescaped, and
on an autolink: GitHub-flavoured Markdown links a bare ``https://``, ``http://``, ``www.``
or e-mail address even after its backslashes are resolved (issue 21's
``?gain=[Sign in again](https://evil.example/login)``)."""

from __future__ import annotations

import csv
import io
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
# GitHub-flavoured Markdown's autolinks: plain text it makes a link of
HTTPS = "Sign in again at https://evil.example/login"
HTTP = "http://evil.example/login"
WWW = "www.evil.example/login"
EMAIL = "help@evil.example"
ANGLE = "<https://evil.example/login>"
PAYLOADS = [LINK, IMAGE, HTML, LATEX, HTTPS, HTTP, WWW, EMAIL, ANGLE]
# Markdown that would render: "[text](" or "![" not escaped, an unescaped "<", a "$...$" span
UNESCAPED = [re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\("), re.compile(r"(?<!\\)!(?<!\\)\["),
             re.compile(r"(?<!\\)<[a-zA-Z/]"), re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")]
# The autolink literals of remark-gfm (mdast-util-gfm-autolink-literal, as Streamlit 1.67's
# frontend bundles them; JavaScript's \w is ASCII), matched on the text once Markdown has
# resolved its backslash escapes: that is the text they are found in.
AUTOLINKS = [re.compile(r"(https?://|www(?=\.))[-.\w]+", re.I | re.A),
             re.compile(r"[-.\w+]+@[-\w]+(?:\.[-\w]+)+", re.A)]
ALERTS = ("error", "warning", "info", "success", "toast")


def resolved(markdown: str) -> str:
    """The text Markdown shows for ``markdown``: each backslash escape resolved."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def shown_markdown(at, kinds=ALERTS) -> list[str]:
    """Every notice the page renders as Markdown: alerts and toasts (the playground shows no
    other Markdown built from user text; its ranking table draws labels as plain text)."""
    return [el.value for kind in kinds for el in at.get(kind)]


def assert_all_escaped(at, payload, kinds=ALERTS):
    """No element of ``kinds`` renders the payload as a link, an image, HTML or LaTeX. Our
    own captions and lessons hold links and formulas, so in those only text that quotes the
    payload's host is checked."""
    assert not at.exception
    texts = shown_markdown(at, kinds)
    assert texts, "no notice was shown: the case tests nothing"
    for text in texts:
        if set(kinds) - set(ALERTS) and "evil" not in resolved(text):
            continue
        for pattern in UNESCAPED:
            assert not pattern.search(text), f"{payload!r} renders as Markdown in: {text!r}"
        for pattern in AUTOLINKS:
            linked = [m.group() for m in pattern.finditer(resolved(text))]
            assert not [m for m in linked if "evil" in m], \
                f"{payload!r} becomes a link ({linked}) in: {text!r}"


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
    at.text_input(key="pg_unretrieved_text").input(payload).run()
    assert_all_escaped(at, payload)


# ------------------------------------------------------------------ Evaluate your runs

CAPTIONED = ALERTS + ("caption", "markdown")


def your_data_page() -> AppTest:
    at = open_app()
    at.switch_page("pages/your_data.py").run()
    assert not at.exception
    return at


def csv_bytes(*rows) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode()


def upload(at, qrels: tuple, runs: list) -> AppTest:
    """Judgments ``(name, bytes)`` and runs ``[(name, bytes), ...]`` in the page's uploaders."""
    at.file_uploader(key="yd_upload_qrels_0").set_value((*qrels, "text/csv"))
    at.file_uploader(key="yd_upload_runs_0").set_value(
        [(name, data, "text/csv") for name, data in runs])
    return at.run()


QRELS = csv_bytes(("qid", "docid", "relevance"), ("1", "d1", "2"), ("1", "d2", "0"))
RUN = csv_bytes(("qid", "docid", "score"), ("1", "d1", "1.0"), ("1", "d2", "2.0"))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_uploaded_file_names_are_escaped(payload):
    """A judgments file and a run named with the payload: the page names both (the run in an
    error, as its file is malformed), escaped."""
    at = upload(your_data_page(), (payload + ".csv", QRELS),
                [(payload + ".run", RUN), (payload + " 2.run", b"1 Q0 d1\n")])
    assert "evil" in resolved("\n".join(el.value for el in at.caption))
    assert at.error, "the malformed run is not reported"
    assert_all_escaped(at, payload, CAPTIONED)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_uploaded_query_and_document_ids_are_escaped(payload):
    """A judged query the run lacks is listed by id, and a bad grade is quoted with its line."""
    qrels = csv_bytes(("qid", "docid", "relevance"), ("1", "d1", "2"), ("1", "d2", "0"),
                      (payload, payload, "1"))
    at = upload(your_data_page(), ("q.csv", qrels), [("r.csv", RUN)])
    assert "evil" in resolved("\n".join(el.value for el in at.caption))
    assert_all_escaped(at, payload, CAPTIONED)
    bad = csv_bytes(("qid", "docid", "relevance"), ("1", payload, payload))
    at = upload(your_data_page(), ("q.csv", bad), [("r.csv", RUN)])
    assert at.error
    assert_all_escaped(at, payload, CAPTIONED)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_csv_headers_in_the_missing_column_error_are_escaped(payload):
    """A CSV whose header names the payload instead of its grade column: the error lists the
    header. (A first line without both a query and a document column is not read as a header
    at all, as trec_eval would read it: issue 21 §11; its message quotes nothing.)"""
    for qrels in (csv_bytes(("qid", "docid", payload), ("1", "d1", "2")),
                  csv_bytes(("query_id", "doc_id", payload), ("1", "d1", "2"))):
        at = upload(your_data_page(), ("q.csv", qrels), [("r.csv", RUN)])
        assert at.error and "evil" in resolved(at.error[0].value)
        assert_all_escaped(at, payload, CAPTIONED)


# ------------------------------------------------------------------ typed answers

@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_typed_exercise_answer_in_its_error_is_escaped(payload):
    """An answer that is not a number is quoted back in the error, escaped."""
    at = open_app()
    at.switch_page("pages/practice.py").run()
    at.radio(key="px_kind").set_value("compute").run()
    at.text_input(key="px_dcg").input(payload)
    at.button(key="px_check").click().run()
    assert at.error, "the answer was not refused: the case tests nothing"
    assert "evil" in resolved(at.error[0].value)  # the answer is quoted
    assert_all_escaped(at, payload)
