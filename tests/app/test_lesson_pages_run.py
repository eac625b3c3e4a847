"""Every Cutoffs, Conventions, Beyond NDCG, Exercises and Common mistakes page runs, and
survives any list the playground allows."""

from __future__ import annotations


import pytest

from lab import playground as P
from page_tests import PAGES, page

@pytest.mark.parametrize("path", PAGES)
def test_page_runs_without_exception(path):
    """Each lesson page opens and renders."""
    at = page(path)
    assert at.title


ODD_LISTS = {
    "missing grade": P.make(["a", "b", "c"], [2, None, 1], k=2),
    "negative grades": P.make(["a", "b", "c", "d"], [-1, 2, 0, 1], k=3, scale="free"),
    "one item": P.make(["only"], [2]),
    "all zero": P.make(["a", "b", "c"], [0, 0, 0], k=2),
    "fractional grades": P.make(["a", "b", "c"], [0.5, 2.5, 1.25], k=3, scale="free"),
    "unretrieved pool": P.make(["a", "b"], [1, 0], k=2, unretrieved=(3, 2)),
}


@pytest.mark.parametrize("name", ODD_LISTS)
@pytest.mark.parametrize("path", PAGES[:3])
def test_pages_survive_odd_playground_lists(path, name):
    """Pages that read the playground list render for any list the playground allows."""
    at = page(path, ODD_LISTS[name])
    assert not at.exception


@pytest.mark.parametrize("name", ODD_LISTS)
@pytest.mark.parametrize("path", PAGES[:3] + ["pages/gain.py"])
def test_pages_survive_odd_playground_lists_in_chinese(path, name):
    """The same lists with ?lang=zh: the Chinese notices and tables render too."""
    from page_tests import CJK, in_language
    at = in_language(path, "zh", ODD_LISTS[name])
    assert CJK.search(at.title[0].value)
