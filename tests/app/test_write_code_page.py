"""The "Write it yourself" page under AppTest: it draws in both languages, the first exercise
is dcg, and a mistake's link opens that mistake's screen on the Common mistakes page."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from lab import mistakes as M

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_page(path, lang="en", **params):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(path)
    for k, v in params.items():   # as a link to the page carries them
        at.query_params[k] = v
    at.run()
    assert not at.exception
    return at


def test_the_page_opens_on_dcg_in_english_and_chinese():
    at = open_page("pages/write_code.py")
    assert at.title[0].value == "Write it yourself"
    assert at.selectbox(key="cx_exercise").value == "dcg"
    assert "dcg(grades, k=None)" in at.markdown[0].value
    zh = open_page("pages/write_code.py", lang="zh")
    assert zh.title[0].value == "自己动手写"


def test_a_mistake_link_opens_that_mistakes_screen():
    at = open_page("pages/mistakes.py", mistake="short_ideal")
    assert at.session_state["mk_step"] == M.KEYS.index("short_ideal")
    assert at.header[0].value == M.name("short_ideal")
