"""Every Cutoffs, Conventions, Beyond NDCG and Exercises page runs, and survives any list the
playground allows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import exercises as E
from lab import playground as S

APP = str(Path(__file__).resolve().parents[2] / "app.py")
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


@pytest.mark.parametrize("path", PAGES)
def test_page_runs_without_exception(path):
    """Each lesson page opens and renders."""
    at = page(path)
    assert at.title


ODD_LISTS = {
    "missing grade": S.make(["a", "b", "c"], [2, None, 1], k=2),
    "negative grades": S.make(["a", "b", "c", "d"], [-1, 2, 0, 1], k=3, scale="free"),
    "one item": S.make(["only"], [2]),
    "all zero": S.make(["a", "b", "c"], [0, 0, 0], k=2),
    "fractional grades": S.make(["a", "b", "c"], [0.5, 2.5, 1.25], k=3, scale="free"),
    "unretrieved pool": S.make(["a", "b"], [1, 0], k=2, unretrieved=(3, 2)),
}


@pytest.mark.parametrize("name", ODD_LISTS)
@pytest.mark.parametrize("path", PAGES[:3])
def test_pages_survive_odd_playground_lists(path, name):
    """Pages that read the playground list render for any list the playground allows."""
    at = page(path, ODD_LISTS[name])
    assert not at.exception
