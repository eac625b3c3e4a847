"""AppTest checks of Worked examples: the sources' printed numbers, written here as they
print them (with the arithmetic in a comment), against what the page renders; the errata."""

from __future__ import annotations

import contextlib
import io
import math

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

import ndcg_core as nc
from lab import documents
from lab import lessons as L
from playground_events import metrics
from page_tests import DOC000, claims, dcg_table, open_page, rounds_to, worked  # noqa: F401 (fixture)

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


# ------------------------------------------------------------------ in 中文

def test_worked_examples_in_chinese_keep_every_figure_and_translate_the_claims():
    """?lang=zh: tabs, headings and the claims tables in Chinese; every number, the printed
    figures and the ✓/✗ verdicts as in English."""
    from page_tests import assert_same_figures_in_both_languages, chinese, in_language
    zh = assert_same_figures_in_both_languages("pages/worked_examples.py")
    en = in_language("pages/worked_examples.py", "en")
    assert [t.label for t in zh.tabs] == ["三步教程", "电商讲解，K = 4", "术语表词条，k = 3 和 2",
                                          "MRR 笔记（附代码）", "中文教程：从 CG 到 NDCG"]
    # the claims table: same columns (the headers are translated for display), Chinese words,
    # the source's figures and the verdicts untouched
    zh_claims, en_claims = claims(zh), claims(en)
    assert len(zh_claims) == len(en_claims)
    assert list(zh_claims)[:2] == ["2/log2 3，[3, 2, 3, 0, 1, 2] 的第 2 位",
                                    "2/log2 5，理想排序 [3, 3, 2, 2, 1, 0] 的第 4 位"]
    assert [v[1:] for v in zh_claims.values()] == [v[1:] for v in en_claims.values()]
    # CG@5 = 3 + 2 + 3 + 0 + 1 = 9; DCG@5 printed 6.15 (6.1487 exact): the source's figure stays
    assert zh_claims["[3, 2, 3, 0, 1] 的 CG@5"] == ("9", 9.0, "✓")
    assert zh_claims["[3, 2, 3, 0, 1] 的 DCG@5"][0] == "6.15"
    assert zh_claims["同一列表 [0, 0, 0, 1] 的 NDCG"][0] == "MRR 的推广"
    # the code examples run the same code and print the same figures
    # the code and what it prints; a Share link says its language (?lang=) and is left out
    assert ([c.value for c in zh.code if not c.value.startswith("http")]
            == [c.value for c in en.code if not c.value.startswith("http")])
    assert any(chinese(c.value) for c in zh.caption)


def test_the_chinese_tutorial_is_quoted_in_its_own_words_in_both_languages(worked):
    """The Chinese tutorial's example: its Chinese sentences on the English page (with an
    English translation under them) and on the Chinese page."""
    from page_tests import in_language
    quote = "则 CG@5 = 3 + 2 + 3 + 0 + 1 = 9。"
    english = "\n".join(m.value for m in worked.markdown)
    assert quote in english and "*In English:* \"For example, if the relevance labels" in english
    chinese_page = "\n".join(m.value for m in in_language("pages/worked_examples.py",
                                                          "zh").markdown)
    assert quote in chinese_page


def test_open_in_playground_after_changes_there_settles_in_one_run():
    """The playground changed (a move, a row removed), then a worked example's "Open in
    playground": the page shows the example, and runs after it change nothing (the ranking,
    the address, the settings row), so the hand-off does not loop (a monkey run once saw
    the page still running 45 s after this button)."""
    from playground_events import fire, labels
    from streamlit.testing.v1 import AppTest
    from page_tests import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.run()  # the playground, the app's root
    ids = [it.id for it in at.session_state["pg"].items]
    fire(at, {"action": "move", "id": ids[4], "from": 5, "to": 4,
              "order": ids[:3] + [ids[4], ids[3]] + ids[5:]})
    fire(at, {"action": "remove", "id": ids[2]})
    at.switch_page("pages/worked_examples.py").run()
    at.button(key="we_open_doc002k2").click().run()
    assert not at.exception
    assert labels(at) == ["Doc C", "Doc A", "Doc B"]
    settled = (at.session_state["pg"], dict(at.query_params),
               at.session_state["pg_settings_gen"])
    assert settled[0].grades == (1, 3, 2) and settled[0].k == 2
    assert settled[1]["g"] == "1,3,2" and settled[1]["k"] == "2"
    for _ in range(2):
        at.run()
        assert not at.exception
        assert (at.session_state["pg"], dict(at.query_params),
                at.session_state["pg_settings_gen"]) == settled
