"""Helpers of the page tests (tests/app/test_*_page.py): open a page under AppTest and read
what it shows."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lab import playground as P
from lab.text import fmt_grade

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
LEARN_PAGES = ["pages/start_here.py", "pages/worked_examples.py", "pages/gain.py"]
DOC000 = [3, 2, 3, 0, 1, 2]


def open_page(path: str, pg: P.Playground | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    if pg is not None:
        at.session_state["pg"] = pg
    at.switch_page(path).run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def worked() -> AppTest:
    return open_page("pages/worked_examples.py")


def dcg_table(at, grades, gains=None, k=None):
    """The rendered DCG table with these grades (and gains), as a DataFrame."""
    want = [fmt_grade(g) for g in grades]
    for el in at.dataframe:
        df = el.value
        if "contribution" not in df.columns or list(df["grade"]) != want:
            continue
        if gains is not None and not np.allclose(df["gain"], gains):
            continue
        if k is not None and list(df["in top k"] == "✓") != [i < k for i in range(len(df))]:
            continue
        return df
    raise AssertionError(f"no DCG table with grades {want} and gains {gains} is shown")


def claims(at) -> dict:
    """quantity -> (what the source says, ndcg_core's value, agrees) of every claims table."""
    out = {}
    for el in at.dataframe:
        df = el.value
        if "the source says" in df.columns:
            for _, row in df.iterrows():
                out[row["quantity"]] = (row["the source says"], row["ndcg_core (exact)"],
                                        row["agrees"])
    return out


def rounds_to(value: float, printed: str) -> bool:
    decimals = len(printed.partition(".")[2])
    return f"{value:.{decimals}f}" == printed



PAGES = ["pages/cutoffs.py", "pages/conventions.py", "pages/beyond.py", "pages/practice.py",
         "pages/mistakes.py"]


def page(path, pg=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(path).run()
    assert not at.exception
    if pg is not None:
        at.session_state["pg"] = pg
        at.run()
        assert not at.exception
    return at


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def table_with(at, column):
    """The first table (a data grid or a static lesson table) with this column."""
    return next(d.value for d in [*at.dataframe, *at.table] if column in d.value.columns)


# ------------------------------------------------------------------ the pages in 中文

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
NUMBER_TEXT = re.compile(r"^[−-]?\d+(\.\d+)?$")


def in_language(path: str, lang: str, pg: P.Playground | None = None) -> AppTest:
    """A new session opening ``path`` with ``?lang=`` (as a shared link does), the playground
    holding ``pg`` when given."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(path).run()
    assert not at.exception, at.exception
    if pg is not None:
        at.session_state["pg"] = pg
        at.run()
        assert not at.exception, at.exception
    return at


def chinese(text: str) -> bool:
    return bool(CJK.search(text))


def page_figures(at) -> dict:
    """Every figure a page shows, words left out: metric values, the numbers of its data grids
    and of its static tables (those hold numbers, or numbers written as text)."""
    grids = [[v for v in df.value.to_numpy().ravel().tolist()
              if isinstance(v, (int, float)) and not isinstance(v, bool)]
             for df in at.dataframe]
    tables = [[str(v) for v in tb.value.to_numpy().ravel().tolist()
               if isinstance(v, (int, float)) and not isinstance(v, bool)
               or NUMBER_TEXT.match(str(v))] for tb in at.table]
    return {"metrics": [m.value for m in at.metric], "grids": grids, "tables": tables}


def assert_same_figures_in_both_languages(path: str, pg: P.Playground | None = None) -> AppTest:
    """The page in English and in 中文 shows the same figures; returns the Chinese page."""
    en, zh = (in_language(path, lang, pg) for lang in ("en", "zh"))
    assert page_figures(zh) == page_figures(en)
    assert any(page_figures(zh).values()), "the page shows figures"
    return zh


def assert_chinese_labels(widgets):
    """Each widget's label is in Chinese (its number, formula and k may stay Latin)."""
    english = [w.label for w in widgets if not chinese(w.label)]
    assert not english, f"labels still in English: {english}"
