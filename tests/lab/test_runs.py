"""lab.runs, the analysis behind "Evaluate your runs": run names, the per-query scores handed
to ndcg_core.compare, and the stand-ins for the engine's judged-only evaluation, Judged@k and
the unjudged range (checked against pytrec_eval and by hand)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from lab import runs as R

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"
QRELS = nc.read_qrels(SAMPLES / "qrels.txt")
RUN_A = nc.read_run(SAMPLES / "system_a.run")
RUN_B = nc.read_run(SAMPLES / "system_b.run")


def frame(rows, value):
    return pd.DataFrame(rows, columns=["qid", "docid", value])


# q1 judges a (2), c (0), d (3); b and e are unjudged. The run ranks b, a, e, c.
Q = frame([("q1", "a", 2), ("q1", "c", 0), ("q1", "d", 3), ("q2", "x", 1)], "relevance")
RUN = frame([("q1", "b", 4.0), ("q1", "a", 3.0), ("q1", "e", 2.0), ("q1", "c", 1.0),
             ("q2", "u", 1.0)], "score")
LOG2 = [math.log2(i + 1) for i in range(1, 6)]


def test_run_names_are_the_file_names_numbered_when_repeated():
    assert R.run_names(["bm25.run", "dense.run", "bm25.run", "bm25.run"]) == [
        "bm25.run", "dense.run", "bm25.run (2)", "bm25.run (3)"]


def test_judged_at_k_counts_judged_documents_in_the_top_k():
    """Ranked b a e c: judged a and c. Judged@1 = 0/1, @2 = 1/2, @4 = 2/4, @10 = 2/4 (only 4
    retrieved, ir_measures' denominator); q2 retrieves only unjudged u: 0."""
    judged = R.judged_at_k(Q, RUN, [1, 2, 4, 10])
    assert judged.loc["q1"].tolist() == [0 / 1, 1 / 2, 2 / 4, 2 / 4]
    assert judged.loc["q2"].tolist() == [0.0] * 4


def test_judged_at_k_ranks_ties_as_the_convention_does():
    """b and a tie at the top: trec_eval ranks doc ids descending, so b (unjudged) is first;
    Judged@k counts the top k that NDCG@k looks at."""
    run = frame([("q1", "b", 1.0), ("q1", "a", 1.0)], "score")
    assert R.judged_at_k(Q, run, [1])["judged@1"].tolist() == [0.0]
    assert R.judged_at_k(Q, run, [1], convention="sklearn")["judged@1"].tolist() == [0.0]


def test_judged_at_k_leaves_out_unjudged_queries():
    run = pd.concat([RUN, frame([("q9", "a", 1.0)], "score")], ignore_index=True)
    assert list(R.judged_at_k(Q, run, [5]).index) == ["q1", "q2"]


def test_judged_only_ranks_the_condensed_list():
    """Judged only drops b and e: the list is a (2), c (0), against the ideal d, a, c.
    NDCG@3 = (2/log2 2) / (3/log2 2 + 2/log2 3) (grades 2, 0 vs 3, 2, 0); q2 keeps its
    place with 0, as pytrec_eval scores a query with no judged document retrieved."""
    table = R.evaluate(Q, RUN, k=3, judged_only=True)
    assert table.loc["q1", "ndcg@3"] == pytest.approx((2 / LOG2[0]) / (3 / LOG2[0] + 2 / LOG2[1]))
    assert table.loc["q2", "ndcg@3"] == 0.0
    assert table.attrs["emptied_queries"] == ["q2"]
    # without the switch, b and e count as grade 0 where they stand: a at rank 2
    plain = nc.evaluate(Q, RUN, k=3)
    assert plain.loc["q1", "ndcg@3"] == pytest.approx((2 / LOG2[1]) / (3 / LOG2[0] + 2 / LOG2[1]))


@pytest.mark.parametrize("run", [RUN_A, RUN_B], ids=["system_a", "system_b"])
@pytest.mark.parametrize("k", [5, 10, 20])
def test_judged_only_equals_pytrec_evals_judged_docs_only_flag(run, k):
    """The condensed-list NDCG@k of every query equals pytrec_eval's with
    judged_docs_only_flag=True (trec_eval -J)."""
    import pytrec_eval
    qrels, docs = {}, {}
    for q, d, g in QRELS.itertuples(index=False):
        qrels.setdefault(q, {})[d] = int(g)
    for q, d, s in run.itertuples(index=False):
        docs.setdefault(q, {})[d] = float(s)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"},
                                              judged_docs_only_flag=True).evaluate(docs)
    table = R.evaluate(QRELS, run, k=k, judged_only=True)
    assert sorted(table.index) == sorted(expected)
    for qid, value in expected.items():
        assert table.loc[qid, f"ndcg@{k}"] == pytest.approx(value[f"ndcg_cut_{k}"], abs=1e-12)


def test_judged_only_keeps_the_missing_rule_for_absent_queries():
    """q3 is judged but not retrieved: left out under "skip", 0 under "zero"."""
    q = pd.concat([Q, frame([("q3", "z", 1)], "relevance")], ignore_index=True)
    assert "q3" not in R.evaluate(q, RUN, k=3, judged_only=True).index
    assert R.evaluate(q, RUN, k=3, judged_only=True, missing="zero").loc["q3", "ndcg@3"] == 0
    assert R.evaluate(q, RUN, k=3, judged_only=True).attrs["missing_queries"] == ["q3"]


def test_unjudged_range_grades_unjudged_documents_0_and_top():
    """Ranked b a e c with b and e unjudged, q1's top grade 3. As 0: grades 0 2 0 0 against the
    ideal 3 2 0. As 3: grades 3 2 3 0 against the ideal 3 3 3 2 0 (b and e join it)."""
    bounds = R.unjudged_bounds(Q, RUN, [3])
    low = (2 / LOG2[1]) / (3 / LOG2[0] + 2 / LOG2[1])
    high = (3 / LOG2[0] + 2 / LOG2[1] + 3 / LOG2[2]) / (3 / LOG2[0] + 3 / LOG2[1] + 3 / LOG2[2])
    assert bounds.loc["q1", "ndcg@3 unjudged=0"] == pytest.approx(low)
    assert bounds.loc["q1", "ndcg@3 unjudged=top"] == pytest.approx(high)
    # q2 retrieves only the unjudged u (x, grade 1, is not retrieved): 0 as 0; as q2's own
    # top grade 1, the list is 1 against the ideal 1 1
    assert bounds.loc["q2", "ndcg@3 unjudged=0"] == 0.0
    assert bounds.loc["q2", "ndcg@3 unjudged=top"] == pytest.approx(1 / (1 + 1 / LOG2[1]))


def test_unjudged_as_0_is_the_plain_ndcg():
    """Grading unjudged documents 0 is what evaluate does anyway (trec_eval without -J)."""
    bounds = R.unjudged_bounds(QRELS, RUN_A, [10], convention="trec_eval")
    plain = nc.evaluate(QRELS, RUN_A, k=10)
    pd.testing.assert_series_equal(bounds["ndcg@10 unjudged=0"], plain["ndcg@10"],
                                   check_names=False)


def test_per_query_scores_leave_a_skipped_query_nan():
    """A query one run misses (left out by "skip") is NaN there: compare drops it."""
    a = nc.evaluate(QRELS, RUN_A, k=5)
    b = nc.evaluate(QRELS, RUN_B[RUN_B["qid"] != "q01"], k=5)
    scores = R.per_query_scores({"a": a, "b": b}, 5)
    assert math.isnan(scores.loc["q01", "b"]) and list(scores.columns) == ["a", "b"]
    assert nc.compare(scores, baseline="a").attrs["dropped_qids"] == ["q01"]


def test_deltas_sort_the_per_query_differences():
    """b − a per query, largest first: q2 +0.5, q1 +0.1, q3 −0.2 (q4 has no score for b)."""
    scores = pd.DataFrame({"a": [0.5, 0.0, 0.6, 0.3], "b": [0.6, 0.5, 0.4, np.nan]},
                          index=pd.Index(["q1", "q2", "q3", "q4"], name="qid"))
    d = R.deltas(scores, "b", "a")
    assert d["qid"].tolist() == ["q2", "q1", "q3"]
    assert d["delta"].tolist() == pytest.approx([0.5 - 0.0, 0.6 - 0.5, 0.4 - 0.6])
    moved = R.most_changed(scores, "a", 5, n=2)
    assert moved["qid"].tolist() == ["q2", "q3"] and moved["run"].tolist() == ["b", "b"]


def test_per_query_table_puts_judged_at_k_and_the_range_beside_ndcg():
    tables = {"a": nc.evaluate(Q, RUN, k=(1, 3), details=True)}
    extras = {"a": R.unjudged_summary(Q, RUN, (1, 3))}
    table = R.per_query_table(tables, (1, 3), 3, extras)
    assert table.loc[table["qid"] == "q1", "a Judged@3"].item() == 1 / 3  # b a e: only a
    assert {"a NDCG@3 unjudged=0", "a NDCG@3 unjudged=top"} <= set(table.columns)


def test_judged_at_k_equals_a_plain_loop_on_the_sample():
    """Judged@k equals a plain loop over trec_eval's ranking: sort by score descending, ties
    by doc id descending, count judged in the top k, divide by min(k, retrieved) (the
    denominator of ir_measures' Judged@k)."""
    run = RUN_B.assign(score=RUN_B["score"].round(1))  # rounded scores: many ties
    judged = set(zip(QRELS["qid"], QRELS["docid"]))
    shown = R.judged_at_k(QRELS, run, [1, 5, 20, 100])
    for qid, docs in run.groupby("qid"):
        if qid not in set(QRELS["qid"]):
            assert qid not in shown.index
            continue
        by_id = sorted(zip(docs["docid"], docs["score"]), key=lambda x: x[0], reverse=True)
        ranked = sorted(by_id, key=lambda x: -x[1])  # stable: ties keep doc id descending
        for k in (1, 5, 20, 100):
            top = ranked[:k]
            expected = sum((qid, d) in judged for d, _ in top) / len(top)
            assert shown.loc[qid, f"judged@{k}"] == pytest.approx(expected), (qid, k)


def test_docstring_examples_hold():
    import doctest
    result = doctest.testmod(R, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 1
