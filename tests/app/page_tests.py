"""Helpers of the page tests (tests/app/test_*_page.py): open a page under AppTest and read
what it shows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from lab import playground as S
from lab.text import fmt_grade

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
LEARN_PAGES = ["pages/start_here.py", "pages/worked_examples.py", "pages/gain.py"]
DOC000 = [3, 2, 3, 0, 1, 2]


def open_page(path: str, pg: S.Playground | None = None) -> AppTest:
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



PAGES = ["pages/cutoffs.py", "pages/conventions.py", "pages/beyond.py", "pages/practice.py"]


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
