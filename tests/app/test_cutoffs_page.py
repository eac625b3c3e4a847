"""AppTest checks of Cutoffs: NDCG@k curves, a longer cutoff scoring lower, the same-cutoff
ideal and where the ideal comes from."""

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


# ------------------------------------------------------------------ cutoffs

def test_cutoffs_shows_ndcg10_below_ndcg5():
    """The twelve-item example: NDCG@5 = 1.0, NDCG@10 = 0.865119."""
    shown = metrics(page("pages/cutoffs.py"))
    g = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]
    assert shown["NDCG@5"] == f"{nc.ndcg(g, k=5):.3f}" == "1.000"
    assert shown["NDCG@10"] == f"{nc.ndcg(g, k=10):.3f}" == "0.865"


def test_cutoffs_ideal_pool_and_mixed_cutoffs():
    """Ideal from the list scores 1.0, from all judgments 0.808082; an IDCG cut at 1 exceeds 1."""
    at = page("pages/cutoffs.py")
    shown = metrics(at)
    assert shown["ideal from the list · NDCG@3"] == "1.000"
    assert shown["ideal from all judgments · NDCG@3"] == "0.808"
    at.slider(key="cut_k2").set_value(1).run()
    ratio = nc.dcg([3, 2, 3, 0, 1, 2], k=3) / nc.idcg([3, 2, 3, 0, 1, 2], k=1)
    assert metrics(at)["DCG@3 / IDCG@1"] == f"{ratio:.3f}"
    assert ratio > 1 and "more than 1" in at.error[0].value


def test_open_in_playground_carries_the_unretrieved_item():
    """"Open in playground" on the ideal-pool example loads d1 d2 d3 with d4 in the pool."""
    at = page("pages/cutoffs.py")
    at.button(key="cut_open_pool").click().run()
    assert not at.exception
    pg = at.session_state["pg"]
    assert pg.grades == (3, 2, 1) and pg.unretrieved == (3,) and pg.k == 3
