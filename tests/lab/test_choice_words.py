"""lab.choices: the grid of choices, their names in both languages, the export and the
recommendation's words, from compare_choices's figures on the bundled sample."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pandas as pd
import pytest

import ndcg_core as nc
from lab import choices as LC
from ndcg_core._checks import denominators

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"
RUNS = ("system_a.run", "system_b.run", "top_heavy.run", "deep_recall.run", "near_tie_1.run")


@pytest.fixture(scope="module")
def evidence():
    qrels = nc.read_qrels(SAMPLES / "qrels.txt")
    runs = {n: nc.read_run(SAMPLES / n) for n in RUNS}
    choices = LC.grid(LC.GAINS, (5, 20), False)
    scores = nc.choice_scores(qrels, runs, choices)
    table = nc.compare_choices(qrels, runs, choices, scores=scores)
    sizes = nc.topic_set_size(scores, difference=0.02)
    swaps = nc.queries_for_swap_rate(nc.swap_curve(scores, difference=0.02))
    return choices, table, sizes, swaps


def test_the_grid_is_every_gain_at_every_cutoff_then_judged_only():
    grid = LC.grid(("linear", "exponential"), (10, 5), True)
    assert list(grid) == ["linear@5", "linear@10", "exponential@5", "exponential@10",
                          "linear@5 judged", "linear@10 judged", "exponential@5 judged",
                          "exponential@10 judged"]
    assert grid["exponential@10 judged"] == dict(gain="exponential", k=10, judged_only=True,
                                                 discount="log2")
    assert LC.grid((), (5,), False) == {}
    assert LC.grid(("linear",), (5,), False, ()) == {}  # no discount chosen


def test_the_steeper_discount_is_the_engines_jarvelin_discount_with_b_one_and_a_half():
    """Each steeper choice is evaluate's own discount option (no formula of its own): every
    rank's weight falls faster than under log2(i + 1), from rank 1 to rank 2 and on."""
    grid = LC.grid(("linear",), (10,), False, ("log2", "steep"))
    assert list(grid) == ["linear@10", "linear@10 steep"]
    assert grid["linear@10 steep"] == dict(gain="linear", k=10, judged_only=False,
                                           discount="jarvelin", base=1.5)
    steep = denominators(30, "jarvelin", base=1.5)
    log2 = denominators(30, "log2")
    assert steep[0] == log2[0] == 1.0                     # rank 1 undiscounted by both
    ratio_steep, ratio_log2 = steep[1:] / steep[:-1], log2[1:] / log2[:-1]
    assert (ratio_steep > ratio_log2).all()               # w(i) / w(i + 1), every i
    assert steep[1] == pytest.approx(math.log(2) / math.log(1.5))   # 1.7095: rank 2
    ranked = [0, 3, 2]
    assert nc.ndcg(ranked, discount="jarvelin", base=1.5) < nc.ndcg(ranked)
    assert LC.label("linear@10 steep", grid["linear@10 steep"], lang="en") == \
        "linear@10, steeper"
    assert LC.label("x", dict(grid["linear@10 steep"], judged_only=True), lang="zh") == \
        "线性@10，更陡折扣，只看已标注"


def test_a_choice_is_named_in_both_languages():
    spec = dict(gain="exponential", k=10, judged_only=True)
    assert LC.label("x", spec, lang="en") == "exponential@10, judged only"
    assert LC.label("x", spec, lang="zh") == "指数@10，只看已标注"


def test_the_recommendation_names_the_choice_that_separates_most(evidence):
    choices, table, sizes, _ = evidence
    labels = {n: LC.label(n, s, lang="en") for n, s in choices.items()}
    reason, caveat = LC.recommendation(table, sizes, labels, difference=0.02, test_name="t",
                                       lang="en")
    best = table.sort_values("discriminative_power", ascending=False, kind="stable").index[0]
    most = int(table["significant_pairs"].max())
    assert reason.startswith(f"{labels[best]} separates")
    assert f"{most} of 10" in reason  # five runs: 10 pairs
    n, needed = int(sizes.loc[best, "n_queries"]), int(sizes.loc[best, "queries"])
    assert f"With {n} queries" in caveat and f"about {needed}" in caveat
    assert "Sakai 2016" in caveat and "Kanoulas & Aslam (CIKM 2009)" in caveat
    zh_reason, zh_caveat = LC.recommendation(table, sizes, labels, difference=0.02,
                                             test_name="t", lang="zh")
    assert f"{most}" in zh_reason and f"{needed}" in zh_caveat


def test_the_export_holds_every_figure_with_english_names(evidence):
    choices, table, sizes, swaps = evidence
    labels = {n: LC.label(n, s, lang="en") for n, s in choices.items()}
    frame = pd.read_csv(io.StringIO(LC.export_csv(table, sizes, swaps, labels)),
                        index_col="choice")
    assert list(frame.index) == list(choices)
    assert frame["kendall_tau"].tolist() == pytest.approx(table["kendall_tau"].tolist())
    assert frame["queries_needed_t_test"].tolist() == sizes["queries"].tolist()
    assert frame["label"].tolist() == list(labels.values())


def test_a_note_is_said_in_chinese():
    note = ("every system has the same mean NDCG under this choice: no ordering to compare; "
            "no pair of systems differs on half of the queries: no swap rate")
    assert LC.note_text(note, lang="zh") == ("在这个选择下每个系统的平均 NDCG 都相同：没有排序可比；"
                                            "没有一对系统在一半查询上有差别：没有互换率")


def test_the_engines_messages_for_choices_are_said_in_chinese_with_their_values():
    """What compare_choices refuses reaches the tab in Chinese, the values kept."""
    from lab.errors import explain
    qrels = nc.read_qrels(SAMPLES / "qrels.txt")
    runs = {n: nc.read_run(SAMPLES / n) for n in RUNS[:2]}
    with pytest.raises(ValueError) as few:
        nc.choice_scores(qrels[qrels["qid"] == "q01"], runs, {"x": dict(k=5)})
    zh = explain(few.value, "zh")
    assert zh.startswith("比较各个选择需要至少 2 个") and "1 个" in zh
    with pytest.raises(ValueError) as bad:
        nc.choice_scores(qrels, runs, {"lin@5": dict(k=5, negative="error",
                                                      gain={0: 0, 1: 1, 2: 2})})
    zh = explain(bad.value, "zh")
    assert zh.startswith("run 'system_a.run' 在选择 'lin@5' 下：")


def test_the_recommendation_says_what_the_other_discount_does_at_the_same_gain_and_cutoff():
    """With both discounts weighed, the words name the best choice's twin under the other
    discount: its pairs separated and its τ with the best choice (tau_matrix's)."""
    qrels = nc.read_qrels(SAMPLES / "qrels.txt")
    runs = {n: nc.read_run(SAMPLES / n) for n in RUNS}
    choices = LC.grid(LC.GAINS, (10,), False, tuple(LC.DISCOUNTS))
    scores = nc.choice_scores(qrels, runs, choices)
    table = nc.compare_choices(qrels, runs, choices, scores=scores)
    sizes = nc.topic_set_size(scores, difference=0.02)
    tau = nc.tau_matrix(scores)
    labels = {n: LC.label(n, s, lang="en") for n, s in choices.items()}
    reason, _ = LC.recommendation(table, sizes, labels, difference=0.02, test_name="t",
                                  lang="en", choices=choices, taus=tau)
    best = next(n for n in table.index if reason.startswith(labels[n] + " "))
    twin = best[:-len(" steep")] if best.endswith(" steep") else best + " steep"
    s = int(table.loc[twin, "significant_pairs"])
    assert (f"Under the other discount, {labels[twin]} separates {s} of 10 pairs and orders "
            f"the systems as {labels[best]} does with τ = {tau.loc[best, twin]:.4f}.") in reason
    zh, _ = LC.recommendation(table, sizes, {n: LC.label(n, c, lang="zh")
                                             for n, c in choices.items()},
                              difference=0.02, test_name="t", lang="zh", choices=choices,
                              taus=tau)
    assert "换用另一种折扣时" in zh
