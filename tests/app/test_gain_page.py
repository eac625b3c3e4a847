"""AppTest checks of Linear vs exponential gain: the flip finder on the page and alone, and
the Learn pages staying thin."""

from __future__ import annotations

import itertools
import re

import pytest

import ndcg_core as nc
from lab import flips
from lab import playground as P
from page_tests import DOC000, LEARN_PAGES, ROOT, open_page

# ------------------------------------------------------------------ gain and the flip finder

def flip_pair(at):
    """(P, Q) grade orderings and the page's NDCG columns from the flip table."""
    df = next(el.value for el in at.dataframe if "grades in order" in el.value.columns)
    rows = {r["ordering"]: r for _, r in df.iterrows()}
    parse = lambda text: [float(x) for x in text.split(", ")]  # noqa: E731
    return parse(rows["P"]["grades in order"]), parse(rows["Q"]["grades in order"]), rows


def assert_flips(at, grades, k):
    a, b, rows = flip_pair(at)
    assert sorted(a) == sorted(grades) == sorted(b)
    lin = [nc.ndcg(x, k=k) for x in (a, b)]
    exp = [nc.ndcg(x, k=k, gain="exponential") for x in (a, b)]
    assert lin[0] > lin[1], "linear gain prefers A"
    assert exp[1] > exp[0], "exponential gain prefers B"
    assert rows["P"][f"NDCG@{k} linear"] == pytest.approx(lin[0], abs=1e-12)
    assert rows["Q"][f"NDCG@{k} exponential"] == pytest.approx(exp[1], abs=1e-12)


def test_flip_finder_pair_flips_for_the_default_grades():
    at = open_page("pages/gain.py")
    assert_flips(at, DOC000, 6)


@pytest.mark.parametrize("grades, k", [
    ([3, 2, 2, 0], 2),  # the lesson's example
    ([4, 3, 1, 0, 2, 2, 1], 4),
    (list(range(10)), 10),  # 10 distinct grades: a seeded sample, not every ordering
])
def test_flip_finder_pair_flips_for_grades_set_in_the_playground(grades, k):
    labels = [f"Item {i + 1}" for i in range(len(grades))]
    at = open_page("pages/gain.py", P.make(labels, grades, k=k, scale="free"))
    assert_flips(at, grades, k)
    labels_shown = {m.label for m in at.metric}
    assert f"NDCG@{k} (linear)" in labels_shown


def test_flip_finder_explains_why_binary_grades_never_flip():
    at = open_page("pages/gain.py", P.make(list("ABCDE"), [1, 0, 1, 1, 0], k=3,
                                           scale="binary"))
    assert not any("grades in order" in el.value.columns for el in at.dataframe)
    assert any(i.value == flips.FLIP_REASONS["proportional"] for i in at.info)


def test_flip_finder_cutoff_slider_changes_the_shared_cutoff():
    at = open_page("pages/gain.py")
    at.slider(key="gain_k").set_value(2).run()
    assert not at.exception and at.session_state["pg"].k == 2
    assert_flips(at, DOC000, 2)


@pytest.mark.parametrize("grades, k", [
    ([3, 2, 2, 0], 2), (DOC000, 3), ([3, 2, 2, 0], 4), ([3, 1, 1, 0, 2], 2),
    ([0.5, 2.5, 1, 0, 3], 4), ([-1, 2, 3, 1], 3),
])
def test_find_flip_returns_a_real_flip(grades, k):
    flip = flips.find_flip(grades, k)
    assert flip.a is not None, flip.reason
    lin = [nc.ndcg(list(x), k=k) for x in (flip.a, flip.b)]
    exp = [nc.ndcg(list(x), k=k, gain="exponential") for x in (flip.a, flip.b)]
    assert lin[0] > lin[1] and exp[1] > exp[0]


@pytest.mark.parametrize("grades, k, reason", [
    ([1, 0, 1, 1, 0, 0, 1], 4, "proportional"),  # binary: 2^rel - 1 = rel
    ([2, 0, 2, 0], 3, "proportional"),  # one non-zero grade: gains differ by a factor 3/2
    (DOC000, 1, "k1"),
    ([0, 0, 0], 2, "no-positive"),
    ([3, 2], 2, "none-exhaustive"),
    ([3, 2, 1], 3, "none-exhaustive"),
    ([2, 1, 0], 3, "none-exhaustive"),
])
def test_find_flip_says_why_there_is_none(grades, k, reason):
    flip = flips.find_flip(grades, k)
    assert flip.a is None and flip.reason == reason
    if reason == "none-exhaustive":  # check the claim by brute force
        orders = set(itertools.permutations(grades))
        pairs = [(nc.ndcg(list(a), k=k), nc.ndcg(list(a), k=k, gain="exponential"))
                 for a in orders]
        assert not any(x[0] > y[0] + 1e-12 and x[1] < y[1] - 1e-12 for x in pairs for y in pairs)


def test_find_flip_is_seeded():
    grades = [float(g) for g in range(12)]
    first, second = flips.find_flip(grades, 8), flips.find_flip(grades, 8)
    assert not first.exhaustive and first.a == second.a and first.b == second.b


def test_page_files_stay_thin():
    for path in LEARN_PAGES:
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        assert len(lines) <= 120, f"{path} has {len(lines)} lines"
        assert not re.search(r"unsafe_allow_html", "\n".join(lines))


# ------------------------------------------------------------------ in 中文

def test_gain_page_in_chinese_labels_its_widgets_and_finds_the_same_flip():
    """?lang=zh: the cutoff slider, the metrics and the flip finder in Chinese; the same
    metrics, the same P and Q and the same NDCG columns as the English page."""
    from page_tests import assert_chinese_labels, assert_same_figures_in_both_languages, chinese
    at = assert_same_figures_in_both_languages("pages/gain.py")
    assert_chinese_labels([at.slider(key="gain_k")])
    assert_flips(at, DOC000, 6)  # the frame keeps its columns: only the headers are shown
    shown = {m.label: m.value for m in at.metric}
    assert shown["NDCG@6（线性增益）"] == f"{nc.ndcg(DOC000, k=6):.3f}"
    assert shown["NDCG@6（指数增益）"] == f"{nc.ndcg(DOC000, k=6, gain='exponential'):.3f}"
    assert chinese(at.success[0].value) and "**P**（" in at.success[0].value


def test_flip_finder_explains_in_chinese_why_binary_grades_never_flip():
    from page_tests import in_language
    at = in_language("pages/gain.py", "zh", P.make(list("ABCDE"), [1, 0, 1, 1, 0], k=3,
                                                    scale="binary"))
    assert any(i.value == flips.flip_reasons("zh")["proportional"] for i in at.info)
    assert flips.flip_reasons("zh")["proportional"].startswith("在这些等级上，指数增益")


def test_a_playground_cutoff_past_the_list_opens_the_gain_page_at_that_cutoff():
    """The playground lets k pass the list when judged items were not retrieved (6 ranked +
    2 unretrieved: k = 8); the gain page's slider goes as far and shows k = 8, with the
    figures at k = 8 (it raised Streamlit's 'value 8 above max 6' before)."""
    state = P.make([f"Doc {c}" for c in "ABCDEF"], DOC000, k=8, unretrieved=(3, 2))
    at = open_page("pages/gain.py", state)
    assert not at.exception
    slider = next(s for s in at.slider if s.label == "Cutoff k")
    assert (slider.value, slider.max) == (8, 8)
    want = nc.ndcg(DOC000, k=8, ideal=list(DOC000) + [3, 2])
    assert any(m.value == f"{want:.3f}" for m in at.metric), [m.value for m in at.metric]
