"""lab.choices: the grid of choices, their names in both languages, the export and the
recommendation's words, from compare_choices's figures on the bundled sample."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

import ndcg_core as nc
from lab import choices as LC

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
    assert grid["exponential@10 judged"] == dict(gain="exponential", k=10, judged_only=True)
    assert LC.grid((), (5,), False) == {}


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
