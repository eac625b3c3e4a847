"""AppTest checks of Conventions and edge cases: each edge case's table, and the presets panel
against scikit-learn and pytrec_eval."""

from __future__ import annotations


import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score

import ndcg_core as nc
from lab.text import escape_markdown
from lab import playground as P
from page_tests import metrics, page, table_with

# ------------------------------------------------------------------ conventions

def test_ties_table_at_k1():
    """Averaged 0.5, doc id 1.0, input order 0.0 on the tie example at k = 1."""
    table = table_with(page("pages/conventions.py"), "NDCG@1").set_index("rule")["NDCG@1"]
    assert table["average"] == pytest.approx(0.5)
    assert table["docid"] == pytest.approx(1.0)
    assert table["input"] == pytest.approx(0.0)
    assert table["optimistic"] == pytest.approx(1.0)
    assert table["pessimistic"] == pytest.approx(0.0)


def test_zero_idcg_rules_move_the_mean():
    table = table_with(page("pages/conventions.py"), "q2 (all zero)").set_index("rule")["mean"]
    assert table.round(6).to_dict() == {"zero": 0.475117, "nan": 0.950234, "one": 0.975117}


def test_negative_grades_show_the_engine_error():
    at = page("pages/conventions.py")
    with pytest.raises(ValueError) as exc:
        nc.ndcg([-1, 2, 0, 1], k=3, negative="error")
    assert escape_markdown(str(exc.value)) in at.error[0].value  # as Markdown shows it


def test_strictly_increasing_transform_keeps_ndcg_and_rounding_does_not():
    at = page("pages/conventions.py")
    for name in ("exp(s)", "10·s + 3", "round to 1 decimal"):
        at.selectbox(key="cv_transform").set_value(name).run()
        shown = metrics(at)
        same = shown["NDCG@3, original scores"] == shown[f"NDCG@3, {name}"]
        assert same == (name != "round to 1 decimal")


def presets(at):
    """The presets panel's table, indexed by preset."""
    return table_with(at, "why it differs from trec_eval")


def test_discount_weights_start_undiscounted():
    """Rank 1 weighs 1 under log2 and Järvelin–Kekäläinen, 1/ln 2 under ln."""
    from lab import conventions as C
    w = C.discount_weights(4, 2.0)
    assert w.loc[1, "log2"] == 1.0 and w.loc[2, "jarvelin"] == 1.0
    assert w.loc[3, "log2"] == pytest.approx(0.5)


def sklearn_and_trec(labels, grades, k, pool=()):
    """NDCG@k of a ranked list (score n − position) by scikit-learn and pytrec_eval, the
    judged-but-not-retrieved pool in trec_eval's qrels only."""
    n = len(grades)
    scores = [float(n - i) for i in range(n)]
    sk = ndcg_score(np.asarray([grades], float), np.asarray([scores]), k=k)
    qrels = {"q": {f"d{i}": int(g) for i, g in enumerate(grades)}}
    qrels["q"].update({f"u{i}": int(g) for i, g in enumerate(pool)})
    run = {"q": {f"d{i}": s for i, s in enumerate(scores)}}
    te = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"}).evaluate(run)
    return sk, te["q"][f"ndcg_cut_{k}"]


@pytest.mark.parametrize("grades, k, pool", [
    ([3, 2, 3, 0, 1, 2], 6, ()),
    ([3, 2, 3, 0, 1, 2], 3, ()),
    ([3, 2, 1], 3, (3,)),          # d4 never retrieved: the two libraries disagree
    ([0, 1, 0, 2, 2, 0, 3], 5, (2, 1)),
])
def test_presets_panel_matches_sklearn_and_pytrec_eval(grades, k, pool):
    """The presets table's scikit-learn and trec_eval rows are those libraries' numbers."""
    labels = [f"Doc {i}" for i in range(len(grades))]
    at = page("pages/conventions.py", P.make(labels, grades, k=k, unretrieved=pool))
    table = presets(at)[f"NDCG@{k}"]
    sk, te = sklearn_and_trec(labels, grades, k, pool)
    assert float(table["scikit-learn"]) == pytest.approx(sk, abs=5e-4)  # shown to 3 decimals
    assert float(table["trec_eval"]) == pytest.approx(te, abs=5e-4)


def test_presets_panel_with_negative_grades_shows_refusals():
    """sklearn, LightGBM and XGBoost refuse negative grades; trec_eval counts them as 0."""
    grades = [-1, 2, 0, 1]
    at = page("pages/conventions.py", P.make(list("abcd"), grades, k=3, scale="free"))
    table = presets(at)["NDCG@3"]
    for preset in ("scikit-learn", "LightGBM", "XGBoost"):
        assert table[preset].startswith("refuses: ") and "negative" in table[preset]
    with pytest.raises(ValueError, match="negative"):
        ndcg_score([[-1, 2, 0, 1]], [[4, 3, 2, 1]], k=3)
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades)}}
    run = {"q": {f"d{i}": float(4 - i) for i in range(4)}}
    te = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.3"}).evaluate(run)["q"]["ndcg_cut_3"]
    assert float(table["trec_eval"]) == pytest.approx(te, abs=5e-4) == pytest.approx(0.4796, abs=1e-4)


# ------------------------------------------------------------------ in 中文

def test_conventions_in_chinese_translates_the_tables_words_not_their_numbers():
    """?lang=zh: the widgets, the tables' headers, the rules and "what it does" in Chinese
    (each rule with the engine's value after it); library names and every number as on the
    English page."""
    from lab import conventions as C
    from page_tests import (assert_chinese_labels, assert_same_figures_in_both_languages,
                            chinese)
    at = assert_same_figures_in_both_languages("pages/conventions.py")
    assert_chinese_labels([at.slider(key="cv_ties_k"), at.slider(key="cv_base"),
                           at.selectbox(key="cv_transform")])
    ties = table_with(at, "使用者 / 作用").set_index("规则")
    assert ties.loc["并列取平均（average）", "NDCG@1"] == pytest.approx(0.5)
    assert "scikit-learn" in ties.loc["并列取平均（average）", "使用者 / 作用"]
    zero = table_with(at, "q2（全零）").set_index("规则")["平均值"]
    assert zero.round(6).to_dict() == {"记为零（zero）": 0.475117, "未定义（nan）": 0.950234,
                                       "记为一（one）": 0.975117}
    presets_zh = table_with(at, "与 trec_eval 不同的原因")
    assert list(presets_zh.index) == list(C.PRESET_NAMES.values())
    assert "分数并列" in presets_zh.columns
    assert chinese(at.error[0].value) and "`ValueError`: " in at.error[0].value


def test_every_engine_option_value_has_its_chinese_description():
    """The catalog's English msgids are the engine's own words, and each has a translation."""
    from lab import options_text as O
    from lab.i18n import catalog
    for option, spec in nc.OPTIONS.items():
        assert O.help_text(option, lang="en") == spec.help()
        assert O.label(option, lang="zh") in catalog("zh").values()
        for value, words in spec.choices.items():
            assert O.choice(option, value, lang="en") == words  # the engine's own text
            assert O.choice(option, value, lang="zh") == catalog("zh")[words]
