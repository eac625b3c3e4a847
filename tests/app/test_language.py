"""The app in English and 中文 (AppTest): how the language is chosen, and every page drawn in
either language without an exception.

The language is decided on arrival: ``?lang=`` first, then the browser's language
(``st.context.locale``, which AppTest's ``context`` sets), then English; afterwards the
sidebar switch changes it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lab import lessons as L
from lab.i18n import t
from ui import state as app_state

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")
FORMULA_OR_CODE = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$|`[^`\n]+`|\]\([^)]*\)", re.S)


def arrive(*, lang: str | None = None, locale: str | None = None, page: str | None = None):
    """A new session opening the app (then ``page``) with ``?lang=`` and a browser locale."""
    at = AppTest.from_file(APP, default_timeout=60)
    if lang is not None:
        at.query_params["lang"] = lang
    if locale is not None:
        at.context["locale"] = locale
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(page).run()
        assert not at.exception, at.exception
    return at


def caption(at) -> str:
    """The sidebar's caption (the one naming the app)."""
    found = [c.value for c in at.caption if c.value.startswith("**NDCG Lab**")]
    assert len(found) == 1, [c.value for c in at.caption]
    return found[0]


def switch(at):
    """The sidebar's language switch."""
    return at.segmented_control(key=app_state.LANG_WIDGET)


def chinese_share(text: str) -> float:
    """CJK characters among the letters a reader reads (formulas, code, links left out)."""
    text = FORMULA_OR_CODE.sub(" ", text)
    cjk, latin = len(CJK.findall(text)), len(LATIN.findall(text))
    return cjk / max(cjk + latin, 1)


def lesson_text(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_the_pages_are_found():
    assert len(PAGES) == 13 and "pages/playground.py" in PAGES


def _numbers(values) -> list | None:
    """A chart axis's values when they are numbers (Plotly may send them packed as
    ``{"dtype", "bdata"}``); None for category names, which are words."""
    if isinstance(values, dict):
        return values
    if isinstance(values, list) and values and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return values
    return None


def figures(at) -> dict:
    """Every number a page shows: metric values, table cells that are numbers, the values
    along the charts' axes, and the playground's ranking table's figures (the data it
    draws). Words (headers, labels, titles) are left out."""
    tables = [[str(v) for v in df.value.to_numpy().ravel().tolist()
               if isinstance(v, (int, float)) and not isinstance(v, bool)]
              for df in at.dataframe]
    charts = [[_numbers(trace.get(axis)) for axis in ("x", "y", "z")]
              for chart in at.get("plotly_chart")
              for trace in json.loads(chart.proto.spec)["data"]]
    components = [json.loads(c.proto.json).get("figures")
                  for c in at.get("bidi_component") if c.proto.json]  # not the listener
    return {"metrics": [m.value for m in at.metric], "tables": tables, "charts": charts,
            "components": components}


@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_in_both_languages_with_the_same_figures(page):
    """Numbers are not translated: the same metrics, table cells and chart values."""
    shown = {}
    for lang in ("en", "zh"):
        at = arrive(lang=lang, page=page)
        assert at.session_state[app_state.LANG] == lang
        shown[lang] = figures(at)
    assert shown["zh"] == shown["en"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_sidebar_speaks_the_language(lang):
    at = arrive(lang=lang)
    assert caption(at) == t("**NDCG Lab** — drag a ranking, edit the grades, and watch DCG, "
                            "IDCG and NDCG answer. Every number comes from the ndcg_core "
                            "engine, checked against scikit-learn, trec_eval and ranx.", lang)


def test_a_lesson_page_with_lang_zh_shows_the_chinese_lesson():
    at = arrive(lang="zh", page="pages/cutoffs.py")
    zh = L.lesson("04_cutoffs", "zh")
    assert at.title[0].value == zh["meta"]["title"] == "截断位置"
    shown = lesson_text(at)
    assert zh["sections"]["intro"][1] in shown
    assert L.lesson("04_cutoffs")["sections"]["intro"][1] not in shown
    assert chinese_share(shown) > 0.5, shown[:400]


def test_a_lesson_page_with_lang_en_shows_the_english_lesson():
    at = arrive(lang="en", locale="zh-CN", page="pages/cutoffs.py")  # the address wins
    assert at.title[0].value == L.lesson("04_cutoffs")["meta"]["title"]
    assert chinese_share(lesson_text(at)) < 0.05


@pytest.mark.parametrize("locale, lang", [("zh-CN", "zh"), ("zh-TW", "zh"), ("zh", "zh"),
                                          ("en-US", "en"), ("de-DE", "en"), (None, "en")])
def test_the_browsers_language_decides_on_arrival(locale, lang):
    at = arrive(locale=locale)
    assert at.session_state[app_state.LANG] == lang
    assert switch(at).value == lang


def test_an_unknown_lang_in_the_address_falls_back_to_the_browsers_language():
    at = arrive(lang="klingon", locale="zh-CN")
    assert at.session_state[app_state.LANG] == "zh"


def test_the_sidebar_switch_changes_the_language_of_every_page():
    # AppTest (Streamlit 1.67) keeps what app.py draws in the sidebar around nav.run() in
    # its element tree on a session's first run only (a two-page app with one st.caption
    # shows the same), so the switch is used on the first run and the later runs are read
    # from the pages; tests/browser/test_language_browser.py sees the sidebar itself.
    at = arrive(locale="en-US")
    assert switch(at).label == "Language"
    assert switch(at).options == ["English", "中文"]
    switch(at).set_value("zh").run()
    assert not at.exception
    assert at.session_state[app_state.LANG] == "zh"
    assert at.query_params["lang"] == "zh"  # a reload or a copied address keeps it
    # other pages follow, for the rest of the session
    at.switch_page("pages/cutoffs.py").run()
    assert at.title[0].value == "截断位置"
    at.switch_page("pages/gain.py").run()
    assert at.title[0].value == "线性增益与指数增益"


def test_the_sidebar_switch_overrides_the_address_and_the_browser():
    at = arrive(lang="zh", locale="zh-CN")
    switch(at).set_value("en").run()
    assert at.query_params["lang"] == "en"
    at.switch_page("pages/gain.py").run()
    assert at.title[0].value == "Linear vs exponential gain"


def test_the_playgrounds_share_link_carries_the_language():
    at = arrive(lang="zh")  # the playground is the default page
    assert at.query_params["lang"] == "zh"
    assert at.query_params["g"]  # the ranking is in the link too
    switch(at).set_value("en").run()
    assert at.query_params["lang"] == "en"


def test_an_old_share_link_without_lang_opens_in_the_browsers_language():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"g": "3,2,0", "l": ["a", "b", "c"]})
    at.context["locale"] = "zh-CN"
    at.run()
    assert not at.exception
    assert [it.grade for it in at.session_state[app_state.PG].items] == [3, 2, 0]
    assert at.session_state[app_state.LANG] == "zh"
    assert at.query_params["lang"] == "zh"


def test_the_figures_compared_are_there():
    """The comparison above compares something: the playground's ranking table's figures,
    the gain page's chart values."""
    shown = figures(arrive(lang="zh"))
    table = next(f for f in shown["components"] if f)["linear"]
    assert table["dcg"] and table["idcg"] and table["ndcg"] and len(table["cumulative"]) == 6
    assert any(any(axes) for axes in figures(arrive(lang="zh", page="pages/gain.py"))["charts"])


# ------------------------------------------------------------------ options and cells in 中文

# Latin tokens that are names, not words, in a Chinese option or cell: the libraries and
# formats, abbreviations, function names in formulas, the labels the examples and the quoted
# sources give their items (Doc A, Product A, item A). Only whole Latin words of two letters
# or more count: ids, numbers and symbols (d1, dX, NDCG@5, log₂, s³, trec_eval) are not words.
NAMES = {"sklearn", "ranx", "pytrec", "lightgbm", "xgboost", "qrels", "run", "runs", "ndcg",
         "ln", "log", "exp", "sigmoid", "nan", "inf", "holm", "wilcoxon", "doc", "product",
         "item", "qid", "docid"}
HYPHENATED = re.compile(r"scikit-learn|TF-Ranking|Järvelin–Kekäläinen", re.I)
# the data page has its own test below; class mode's landing page has no option or table
# (its words are checked by tests/app/test_class_mode.py::test_the_class_in_chinese)
CELL_PAGES = [p for p in PAGES if p not in ("pages/your_data.py", "pages/class.py")]


def english_words(text: str) -> list[str]:
    """The English words of an option or a cell in a Chinese page: none when it holds any
    Chinese (a Chinese name with the engine's value after it, "并列取平均（average）")."""
    if CJK.search(text):
        return []
    tokens = re.split(r"[^A-Za-z'_\d@./^]+", HYPHENATED.sub(" ", text))
    return [w for w in tokens if re.fullmatch(r"[A-Za-z]{2,}", w) and not w.isupper()
            and not re.search(r"[a-z][A-Z]", w) and w.lower() not in NAMES]


def choices_and_cells(at) -> list[tuple[str, str]]:
    """(where, text) of every option of a dropdown, radio, multiselect or segmented control,
    and every text cell (and header) of a table or data frame the page shows."""
    found = []
    for kind in ("selectbox", "radio", "multiselect", "segmented_control", "select_slider"):
        for widget in at.get(kind):
            found += [(f"{kind} {widget.label!r}", str(o)) for o in widget.options]
    for kind in ("table", "dataframe"):
        for frame in at.get(kind):
            df = frame.value.data if hasattr(frame.value, "data") else frame.value
            # a data frame's header is its column's label when the page gives one
            config = json.loads(frame.proto.columns or "{}") if kind == "dataframe" else {}
            for column in df.columns:
                shown = config.get(str(column), {})
                found.append((f"{kind} header", str(shown.get("label", column))))
                # a dropdown column shows each value by its option's label
                labels = {o["value"]: o.get("label", o["value"])
                          for o in shown.get("type_config", {}).get("options", [])}
                found += [(f"{kind} cell", labels.get(v, v)) for v in df[column].tolist()
                          if isinstance(v, str)]
    return found


def untranslated(at) -> list[tuple[str, str]]:
    return [(where, text) for where, text in choices_and_cells(at) if english_words(text)]


@pytest.mark.parametrize("page", CELL_PAGES)
def test_in_chinese_no_option_or_table_cell_of_ours_is_an_english_word(page):
    """Dropdown values (linear, docid, judged, ...) and table cells that are our words are
    Chinese in 中文; library names, ids, numbers and the example's labels stay as written.
    The English page, read the same way, has English words (the check sees them)."""
    at = arrive(lang="zh", page=page)
    assert choices_and_cells(at), "the page shows no option or cell: the test tests nothing"
    assert untranslated(at) == [], "\n".join(map(repr, untranslated(at)))


def test_in_chinese_the_data_pages_options_and_cells_are_chinese():
    """Evaluate your runs with the sample: every option, preset table cell, and the result
    tables' cells; in English the same check finds the engine's values (docid, judged)."""
    shown = {}
    for lang in ("zh", "en"):
        at = arrive(lang=lang, page="pages/your_data.py")
        at.button(key="yd_sample").click().run()
        assert not at.exception
        shown[lang] = untranslated(at)
    assert shown["zh"] == []
    assert {"average", "judged"} <= {w for _, text in shown["en"] for w in english_words(text)}
