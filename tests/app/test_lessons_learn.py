"""AppTest checks of the first three Learn pages: Start here, Worked examples, Linear vs
exponential gain. The documents' printed numbers are written here as the documents print
them (with the arithmetic in a comment) and compared with what the pages render."""

from __future__ import annotations

import contextlib
import itertools
import io
import math
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import ndcg_score
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import documents, flips, tour
from lab import lessons as L
from lab.text import fmt_grade
from lab import playground as S
from playground_events import metrics

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
    """quantity -> (what the document says, ndcg_core's value, agrees) of every claims table."""
    out = {}
    for el in at.dataframe:
        df = el.value
        if "the document says" in df.columns:
            for _, row in df.iterrows():
                out[row["quantity"]] = (row["the document says"], row["ndcg_core (exact)"],
                                        row["agrees"])
    return out


def rounds_to(value: float, printed: str) -> bool:
    decimals = len(printed.partition(".")[2])
    return f"{value:.{decimals}f}" == printed


# ------------------------------------------------------------------ every page runs

@pytest.mark.parametrize("path", LEARN_PAGES)
def test_learn_page_runs_without_exception(path):
    """Each of the three pages renders with no exception."""
    at = open_page(path)
    assert at.title, "the page shows its lesson title"


# ------------------------------------------------------------------ start here

def test_start_here_steps_advance_from_cg_to_ndcg():
    """Next walks CG → DCG → IDCG → NDCG, each step with its lesson text and live number."""
    at = open_page("pages/start_here.py")
    sections = L.lesson(tour.START)["sections"]
    expected = [  # (section id, metric label, value as shown)
        ("step-cg", "CG@5 of [3, 2, 3, 0, 1]", "9"),  # 3 + 2 + 3 + 0 + 1
        ("step-dcg", "DCG@6",  # rel = 3, 2, 3, 0, 1, 2
         f"{3 + 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6) + 2 / math.log2(7):.3f}"),
        ("step-idcg", "IDCG@6",  # rel = 3, 3, 2, 2, 1, 0
         f"{3 + 3 / math.log2(3) + 1 + 2 / math.log2(5) + 1 / math.log2(6):.3f}"),
        ("step-ndcg", "NDCG@6 (linear)", f"{nc.ndcg(DOC000, k=6):.3f}"),
    ]
    assert expected[1][2] == "6.861" and expected[2][2] == "7.141"
    for i, (sid, label, value) in enumerate(expected):
        heading = sections[sid][0]
        progress = at.get("progress")[0]
        assert progress.proto.text == f"{i + 1} of 4 · {heading}"
        assert any(m.value.startswith(f"## {heading}") for m in at.markdown)
        shown = {m.label: m.value for m in at.metric}
        assert shown[label] == value
        assert at.button(key="sh_prev").disabled == (i == 0)
        assert at.button(key="sh_next").disabled == (i == 3)
        if i < 3:
            at.button(key="sh_next").click().run()
            assert not at.exception
    at.button(key="sh_prev").click().run()
    assert at.get("progress")[0].proto.text.startswith("3 of 4")


def test_start_here_precision_cannot_see_position_but_ndcg_can():
    """One relevant item at 1 or at 10: precision@10 is 0.1 both times, NDCG@10 1 vs 0.2891."""
    at = open_page("pages/start_here.py")
    at.slider(key="sh_hit_pos").set_value(10).run()
    metrics = [(m.label, m.value) for m in at.metric]
    assert metrics.count(("precision@10", "0.100")) == 2
    assert ("NDCG@10", "1.000") in metrics
    assert ("NDCG@10", f"{1 / math.log2(11):.3f}") in metrics  # grade 1 at position 10


def test_start_here_binary_mapping_changes_the_shop_ndcg():
    """Switching the action → grade mapping to binary rescores the shop list."""
    at = open_page("pages/start_here.py")
    actions = [a for _, a in tour.SHOP]
    for mapping in tour.MAPPINGS:
        at.radio(key="sh_mapping").set_value(mapping).run()
        grades = tour.grades_of(actions, mapping)
        shown = {m.label: m.value for m in at.metric}
        assert shown["shop list NDCG@6 (linear)"] == f"{nc.ndcg(grades, k=6):.3f}"
        assert shown["shop list NDCG@6 (exponential)"] == \
            f"{nc.ndcg(grades, k=6, gain='exponential'):.3f}"
    assert tour.grades_of(actions, "0–3: purchased 3 · cart 2 · viewed 1 · ignored 0") == \
        [1, 3, 0, 2, 0, 3]


# ------------------------------------------------------------------ worked examples

def test_doc000_tables_equal_the_printed_tables(worked):
    """Document 000's two tables, cell by cell at 3 decimals."""
    first = dcg_table(worked, DOC000, gains=DOC000)
    assert first["discount log2(i+1)"].round(3).tolist() == [1.000, 1.585, 2.000, 2.322,
                                                             2.585, 2.807]
    assert first["contribution"].round(3).tolist() == [3.000, 1.262, 1.500, 0.000, 0.387, 0.712]
    ideal = dcg_table(worked, [3, 3, 2, 2, 1, 0], gains=[3, 3, 2, 2, 1, 0])
    assert ideal["contribution"].round(3).tolist() == [3.000, 1.893, 1.000, 0.861, 0.387, 0.000]


def test_doc000_exponential_variant_uses_two_to_the_rel_minus_one(worked):
    gains = [7, 3, 7, 0, 1, 3]  # 2^rel - 1 for rel = 3, 2, 3, 0, 1, 2
    table = dcg_table(worked, DOC000, gains=gains)
    expected = [g / math.log2(i + 1) for i, g in enumerate(gains, 1)]
    np.testing.assert_allclose(table["contribution"], expected, rtol=0, atol=1e-12)
    assert f"{table['cumulative DCG'].iloc[-1]:.4f}" == "13.8483"


@pytest.mark.parametrize("quantity, printed", [
    ("DCG@4 of [3, 2, 3, 0]", "5.76"),  # 3/1 + 2/1.585 + 3/2 + 0
    ("IDCG@4 of [3, 2, 3, 0]", "5.89"),  # ideal 3, 3, 2, 0
    ("NDCG@4 of [3, 2, 3, 0]", "0.978"),
    ("DCG@3 of [1, 3, 2]", "3.8928"),  # 1/1 + 3/log2 3 + 2/2
    ("IDCG@3 of [1, 3, 2]", "4.7619"),  # 3 + 2/log2 3 + 1/2
    ("NDCG@3 of [1, 3, 2]", "0.8175"),
    ("DCG@2 of [1, 3, 2]", "2.8928"),
    ("IDCG@2 of [1, 3, 2]", "4.2619"),
    ("NDCG@2 of [1, 3, 2]", "0.6788"),
    ("MRR of first-relevant ranks [1, 4, 2, 9]", "0.465"),  # (1 + 1/4 + 1/2 + 1/9) / 4
    ("CG@5 of [3, 2, 3, 0, 1]", "9"),
    ("DCG@5 of [3, 2, 3, 0, 1]", "6.15"),
    ("IDCG@5 of [3, 2, 3, 0, 1]", "6.32"),
    ("log2 11, the discount at position 10", "3.46"),
    ("CG@5 of [0, 1, 2, 3, 3]", "9"),
])
def test_worked_example_figures_equal_the_documents_printed_numbers(worked, quantity, printed):
    """The engine's value in the page's table rounds to the document's printed number."""
    says, value, agrees = claims(worked)[quantity]
    assert rounds_to(value, printed)
    assert says == printed and agrees == "✓"


def test_doc001_ideal_from_all_six_items_gives_0853(worked):
    """001 with the ideal drawn from [3, 2, 3, 0, 1, 2]: 5.762 / 6.754 = 0.853."""
    dcg4 = 3 + 2 / math.log2(3) + 3 / 2 + 0  # rel = 3, 2, 3, 0
    idcg4 = 3 + 3 / math.log2(3) + 2 / 2 + 2 / math.log2(5)  # rel = 3, 3, 2, 2
    shown = rf"\frac{{{dcg4:.3f}}}{{{idcg4:.3f}}} = {dcg4 / idcg4:.3f}"
    assert shown == r"\frac{5.762}{6.754} = 0.853"
    assert any(shown in el.value for el in worked.latex)
    ideal = dcg_table(worked, [3, 3, 2, 2, 1, 0], k=4)
    assert f"{ideal['cumulative DCG'].iloc[3]:.3f}" == "6.754"


def test_doc002_and_doc004_tables_show_the_rankings(worked):
    assert dcg_table(worked, [1, 3, 2], k=3)["item"].tolist() == ["Doc C", "Doc A", "Doc B"]
    assert dcg_table(worked, [1, 3, 2], k=2)["in top k"].tolist()[2] != "✓"
    worst = dcg_table(worked, [0, 1, 2, 3, 3], k=5)
    assert f"{worst['cumulative DCG'].iloc[-1]:.4f}" == "4.0835"


def test_doc003_code_examples_print_what_the_page_says(worked):
    """Running each snippet shown on the page prints the value the page gives (ndcg_core)."""
    snippets = [c.value for c in worked.code if c.language == "python"]
    printed = [c.value for c in worked.code if c.language == "text"]
    assert len(snippets) == len(printed) == 3
    for code, shown in zip(snippets, printed):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, {})  # the document's own code
        name, _, value = out.getvalue().strip().partition(": ")
        shown_name, _, shown_value = shown.partition(": ")
        assert name == shown_name
        assert float(shown_value) == pytest.approx(float(value), rel=1e-11)
    assert printed == ["MRR: 0.456666666667", "NDCG@5: 0.930450919736",
                       "NDCG@5: 0.924982217857"]


def test_every_erratum_of_the_lesson_is_shown(worked):
    sections = L.lesson(documents.WORKED)["sections"]
    errata = [sid for sid in sections if sid.startswith("erratum-")]
    assert len(errata) == 10
    boxes = [w.value for w in worked.warning]
    for sid in errata:
        heading, body = sections[sid]
        assert any(b.startswith(f"**{heading}**") and body in b for b in boxes), sid


@pytest.mark.parametrize("quantity, says, exact", [
    # 004: "≈ 4.53"; 0 + 1/log2 3 + 2/2 + 3/log2 5 + 3/log2 6
    ("DCG@5 of [0, 1, 2, 3, 3]", "≈ 4.53",
     1 / math.log2(3) + 1 + 3 / math.log2(5) + 3 / math.log2(6)),
    # 004: 6.15 / 6.32 ≈ 0.973 from rounded parts; exact 6.1487 / 6.3235
    ("DCG@5 / IDCG@5 at full precision", "≈ 0.973",
     (3 + 2 / math.log2(3) + 1.5 + 1 / math.log2(6))
     / (3 + 3 / math.log2(3) + 1 + 1 / math.log2(5))),
    # 001: "position 2 counts half"; 1/log2 3
    ("weight of position 2, 1/log2 3", "half (0.5)", 1 / math.log2(3)),
])
def test_errata_show_the_exact_value_next_to_the_claim(worked, quantity, says, exact):
    shown_says, value, agrees = claims(worked)[quantity]
    assert shown_says == says and agrees == "✗"
    assert value == pytest.approx(exact, abs=1e-12)
    assert f"{value:.4f}" in ("4.0835", "0.9724", "0.6309")


def test_sklearn_erratum_shows_what_ndcg_score_returns(worked):
    """000 says scikit-learn defaults to 2^rel − 1: the page shows ndcg_score's linear value."""
    _, value, _ = claims(worked)["NDCG@3 of [3, 2, 3, 0, 1, 2], linear gain (what ndcg_score "
                                 "returns)"]
    assert value == pytest.approx(ndcg_score([DOC000], [[6, 5, 4, 3, 2, 1]], k=3), abs=1e-12)
    assert f"{value:.6f}" == "0.977781"
    _, exp_value, _ = claims(worked)["NDCG@3 of [3, 2, 3, 0, 1, 2], gain 2^rel − 1"]
    assert f"{exp_value:.6f}" == "0.959454"


def test_open_in_playground_loads_the_example():
    """The doc 002 button switches to the playground holding that ranking and cutoff."""
    at = open_page("pages/worked_examples.py")
    at.button(key="we_open_doc002k3").click().run()
    assert not at.exception
    pg = at.session_state["pg"]
    assert pg.labels == ("Doc C", "Doc A", "Doc B",) and pg.grades == (1, 3, 2,) and pg.k == 3
    shown = metrics(at)  # the playground's ranking table
    assert shown["NDCG@3"] == round(nc.ndcg([1, 3, 2], k=3), 3)


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
    at = open_page("pages/gain.py", S.make(labels, grades, k=k, scale="free"))
    assert_flips(at, grades, k)
    labels_shown = {m.label for m in at.metric}
    assert f"NDCG@{k} (linear)" in labels_shown


def test_flip_finder_explains_why_binary_grades_never_flip():
    at = open_page("pages/gain.py", S.make(list("ABCDE"), [1, 0, 1, 1, 0], k=3,
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
