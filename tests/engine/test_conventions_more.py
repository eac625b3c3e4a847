"""Issue 14: the conventions practitioners check, each against the library that defines it.

* ``pytrec_eval``: scores compared as 32-bit floats (trec_eval <= 9.0.8 inside), ties by doc id
  descending; seeded random cases with 17-digit scores and near-ties against pytrec_eval.
* ``ranx``: ranx's own tie order (numba's quicksort), against ranx on heavy ties.
* ``judged_only=True``: condensed lists, against pytrec_eval's ``judged_docs_only_flag``.
* ``judged_at_k`` and ``ndcg_bounds``: worked examples and an independent recomputation.
* fractional grades, repeated run lines and ``depth`` as trec_eval reads them.
"""

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from ndcg_core import CONVENTIONS, OPTIONS, evaluate, judged_at_k, ndcg_bounds

TOL = 1e-9
D = 1 / np.log2(3)  # discount of rank 2


def frames(judged, retrieved):
    """judged: {qid: {docid: grade}}, retrieved: {qid: [(docid, score), ...]}."""
    qrels = pd.DataFrame([(q, d, g) for q, docs in judged.items() for d, g in docs.items()],
                         columns=["qid", "docid", "relevance"])
    run = pd.DataFrame([(q, d, s) for q, rows in retrieved.items() for d, s in rows],
                       columns=["qid", "docid", "score"])
    return qrels, run


def as_dicts(df, value):
    out = {}
    for qid, docid, v in df[["qid", "docid", value]].itertuples(index=False):
        out.setdefault(qid, {})[docid] = v
    return out


def pytrec(qrels, run, cuts, **flags):
    """pytrec_eval's ndcg and ndcg_cut values: {qid: {'ndcg': .., 'ndcg_cut_5': ..}}."""
    judged = {q: {d: int(g) for d, g in docs.items()}
              for q, docs in as_dicts(qrels, "relevance").items()}
    retrieved = as_dicts(run, "score")
    out = pytrec_eval.RelevanceEvaluator(judged, {"ndcg"}, **flags).evaluate(retrieved)
    measure = "ndcg_cut." + ",".join(map(str, cuts))
    cut = pytrec_eval.RelevanceEvaluator(judged, {measure}, **flags).evaluate(retrieved)
    for qid, values in cut.items():
        out[qid].update(values)
    return out


def assert_matches_pytrec(ours, expected, cuts):
    assert sorted(ours.index) == sorted(expected)
    for qid, values in expected.items():
        assert ours.loc[qid, "ndcg"] == pytest.approx(values["ndcg"], abs=TOL)
        for c in cuts:
            assert ours.loc[qid, f"ndcg@{c}"] == pytest.approx(values[f"ndcg_cut_{c}"],
                                                               abs=TOL)


# ------------------------------------------------------------------ pytrec_eval: float32

def test_scores_equal_in_32_bits_tie_under_pytrec_eval_but_not_trec_eval_10():
    """Issue 14 item 3: a 1.00000001 and b 1.0 are one float32. pytrec_eval sees a tie and
    puts b (doc id descending) first: grades [1, 0], NDCG 1. trec_eval 10 reads doubles:
    a first, grades [0, 1], NDCG = (1/log2(3)) / 1 = 0.6309."""
    qrels, run = frames({"q": {"a": 0, "b": 1}}, {"q": [("a", 1.00000001), ("b", 1.0)]})
    assert evaluate(qrels, run, k=None, convention="pytrec_eval").loc["q", "ndcg"] == 1.0
    assert evaluate(qrels, run, k=None, convention="trec_eval").loc["q", "ndcg"] == \
        pytest.approx(D, abs=1e-15)
    # the library itself
    assert pytrec(qrels, run, [1])["q"]["ndcg"] == 1.0
    # the option alone turns trec_eval 10 into trec_eval 9
    assert evaluate(qrels, run, k=None, score_precision="float32").loc["q", "ndcg"] == 1.0


DOCS = ["d1", "d2", "d10", "d9", "D5", "doc7", "a", "b", "1", "10", "2", "z-3", "Z", "d11"]
QIDS = ["1", "2", "10", "07", "q3"]
CUTS = [1, 2, 3, 5, 10]


def near_tie_collection(rng):
    """Queries whose scores tie, nearly tie (equal as float32, not as doubles) or differ,
    written with 17 significant digits as a run file would hold them."""
    qrels, run = [], []
    for qid in rng.choice(QIDS, size=int(rng.integers(1, 5)), replace=False):
        judged = rng.choice(DOCS, size=int(rng.integers(1, 9)), replace=False)
        grades = rng.integers(0, 4, judged.size)
        qrels += [(qid, d, int(g)) for d, g in zip(judged, grades)]
        retrieved = [d for d in judged if rng.random() < 0.8]
        retrieved += [d for d in DOCS if d not in judged and rng.random() < 0.3]
        retrieved = retrieved or [judged[0]]
        base = rng.choice([0.5, 1.0, 7.25, 12.0], len(retrieved))
        # below half a float32 step: equal in 32 bits, different as doubles
        tiny = rng.integers(-3, 4, len(retrieved)) * base * 1e-8
        scores = [float(f"{s:.17g}") for s in base + tiny]
        run += [(qid, d, s) for d, s in zip(rng.permutation(retrieved), scores)]
    return (pd.DataFrame(qrels, columns=["qid", "docid", "relevance"]),
            pd.DataFrame(run, columns=["qid", "docid", "score"]))


@pytest.mark.parametrize("case", range(150))
def test_pytrec_eval_convention_matches_pytrec_eval_on_near_ties(case):
    rng = np.random.default_rng(140_000 + case)
    qrels, run = near_tie_collection(rng)
    ours = evaluate(qrels, run, k=[None, *CUTS], convention="pytrec_eval")
    assert_matches_pytrec(ours, pytrec(qrels, run, CUTS), CUTS)


def test_near_ties_do_split_the_two_trec_eval_versions():
    """The cases above have teeth: many of them differ under trec_eval 10's doubles."""
    differ = 0
    for case in range(150):
        qrels, run = near_tie_collection(np.random.default_rng(140_000 + case))
        a = evaluate(qrels, run, k=[None, *CUTS], convention="pytrec_eval")
        b = evaluate(qrels, run, k=[None, *CUTS], convention="trec_eval")
        differ += not np.allclose(a.to_numpy(), b.to_numpy(), atol=TOL)
    assert differ >= 30


# ------------------------------------------------------------------ judged only (-J)

def test_judged_only_drops_unjudged_documents_before_the_cut():
    """Run x (unjudged), a (0), y (unjudged), b (1). Full list: grades [0, 0, 0, 1],
    NDCG@2 = 0. Condensed: [a, b], grades [0, 1], NDCG@2 = (1/log2(3)) / 1."""
    qrels, run = frames({"q": {"a": 0, "b": 1}},
                        {"q": [("x", 4.0), ("a", 3.0), ("y", 2.0), ("b", 1.0)]})
    assert evaluate(qrels, run, k=2).loc["q", "ndcg@2"] == 0.0
    res = evaluate(qrels, run, k=2, judged_only=True, details=True)
    assert res.loc["q", "ndcg@2"] == pytest.approx(D, abs=1e-15)
    assert res.loc["q", "n_retrieved"] == 2  # the condensed list


def test_judged_only_counts_a_negative_grade_as_unjudged_as_trec_eval_does():
    """trec_eval reads a negative grade as 'pooled, not judged' and -J drops it. Run
    d (not in qrels) 5, a (-1) 3, c (0) 2, b (1) 1 condense to [c, b]: grades [0, 1],
    NDCG = 1/log2(3) = 0.6309, as pytrec_eval(judged_docs_only_flag=True) gives
    (measured; not called here, as pytrec_eval 0.5.11 can hang on negative grades).
    With negative='keep' the -1 is a judgment: [a, c, b], NDCG = (-1 + 0 + 1/2) / 1."""
    qrels, run = frames({"q": {"a": -1, "b": 1, "c": 0}},
                        {"q": [("a", 3.0), ("b", 1.0), ("c", 2.0), ("d", 5.0)]})
    assert evaluate(qrels, run, k=None, judged_only=True).loc["q", "ndcg"] == \
        pytest.approx(D, abs=1e-15)
    assert evaluate(qrels, run, k=None, judged_only=True, negative="keep").loc["q", "ndcg"] \
        == pytest.approx(-1 + 0 + 1 / 2, abs=1e-15)


def judged_only_collection(rng):
    qrels, run = [], []
    for qid in rng.choice(QIDS, size=int(rng.integers(1, 5)), replace=False):
        judged = rng.choice(DOCS, size=int(rng.integers(1, 9)), replace=False)
        grades = rng.integers(0, 4, judged.size)
        if rng.integers(6) != 0 or qid == "1":
            qrels += [(qid, d, int(g)) for d, g in zip(judged, grades)]
        retrieved = [d for d in judged if rng.random() < 0.6]
        retrieved += [d for d in DOCS if d not in judged and rng.random() < 0.4]
        retrieved = retrieved or [DOCS[int(rng.integers(len(DOCS)))]]
        scores = rng.integers(0, 5, len(retrieved)) / 4  # ties, broken by doc id
        run += [(qid, d, float(s)) for d, s in zip(rng.permutation(retrieved), scores)]
    return (pd.DataFrame(qrels, columns=["qid", "docid", "relevance"]),
            pd.DataFrame(run, columns=["qid", "docid", "score"]))


@pytest.mark.parametrize("case", range(150))
def test_judged_only_matches_pytrec_eval_judged_docs_only_flag(case):
    rng = np.random.default_rng(150_000 + case)
    qrels, run = judged_only_collection(rng)
    expected = pytrec(qrels, run, CUTS, judged_docs_only_flag=True)
    for convention in ("trec_eval", "pytrec_eval"):
        ours = evaluate(qrels, run, k=[None, *CUTS], convention=convention, judged_only=True)
        assert_matches_pytrec(ours, expected, CUTS)


def test_judged_only_is_declared_once_in_options():
    opt = OPTIONS["judged_only"]
    assert list(opt.choices) == [False, True] and opt.default is False
    assert "trec_eval -J" in opt.help() and "judged_docs_only_flag" in opt.help()
    with pytest.raises(ValueError, match=r"judged_only must be one of False, True; got 'yes'"):
        evaluate(*frames({"q": {"a": 1}}, {"q": [("a", 1.0)]}), judged_only="yes")


# ------------------------------------------------------------------ ranx: its tie order

def ranx_ndcg(qrels, run, metrics):
    """ranx's own numbers, from Qrels and Run built from dicts in the frames' row order."""
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    ranx_run = Run(as_dicts(run, "score"))
    ranx_evaluate(Qrels(as_dicts(qrels, "relevance")), ranx_run, metrics, return_mean=False)
    return {m: dict(ranx_run.scores[m]) for m in metrics}


def test_ranx_reorders_17_documents_tied_at_zero_and_so_do_we():
    """Issue 14 item 5: x0..x16 all score 0, x0 is relevant (grade 1). With 17 items
    numba's quicksort is not stable: x0 does not come first, ranx gives NDCG@1 = 0.
    Up to 15 items the sort is an insertion sort, stable: x0 first, NDCG@1 = 1."""
    for n, at_1 in [(17, 0.0), (15, 1.0)]:
        docs = [f"x{i}" for i in range(n)]
        qrels, run = frames({"q": {"x0": 1}}, {"q": [(d, 0.0) for d in docs]})
        expected = ranx_ndcg(qrels, run, ["ndcg@1", "ndcg"])
        ours = evaluate(qrels, run, k=[1, None], convention="ranx")
        assert expected["ndcg@1"]["q"] == at_1 == ours.loc["q", "ndcg@1"]
        assert ours.loc["q", "ndcg"] == pytest.approx(expected["ndcg"]["q"], abs=TOL)
        # the stable input order keeps x0 first whatever the length
        assert evaluate(qrels, run, k=1, convention="ranx", ties="input").iloc[0, 0] == 1.0


RANX_CUTS = [1, 3, 5, 10, 20]


@pytest.fixture(scope="module")
def ranx_ties():
    """200 queries of 5 to 45 documents with scores from a handful of values (ties of every
    size), evaluated by ranx in one batch and by evaluate(convention='ranx')."""
    rng = np.random.default_rng(160_000)
    qrels, run = [], []
    for case in range(200):
        qid = f"q{case:03d}"
        n = int(rng.integers(5, 46))
        docs = [f"x{i}" for i in rng.permutation(60)[:n]]
        judged = [d for d in docs if rng.random() < 0.6] or docs[:1]
        qrels += [(qid, d, int(rng.integers(0, 4))) for d in judged]
        values = rng.choice([0.0, 0.25, 0.5, 1.0, 2.0], size=int(rng.integers(1, 4)))
        run += [(qid, d, float(rng.choice(values))) for d in docs]
    qrels = pd.DataFrame(qrels, columns=["qid", "docid", "relevance"])
    run = pd.DataFrame(run, columns=["qid", "docid", "score"])
    metrics = ["ndcg"] + [f"ndcg@{c}" for c in RANX_CUTS]
    return ranx_ndcg(qrels, run, metrics), evaluate(qrels, run, k=[None, *RANX_CUTS],
                                                    convention="ranx")


@pytest.mark.parametrize("case", range(200))
def test_ranx_convention_matches_ranx_on_heavy_ties(case, ranx_ties):
    expected, ours = ranx_ties
    qid = f"q{case:03d}"
    assert ours.loc[qid, "ndcg"] == pytest.approx(expected["ndcg"][qid], abs=TOL)
    for c in RANX_CUTS:
        assert ours.loc[qid, f"ndcg@{c}"] == pytest.approx(expected[f"ndcg@{c}"][qid],
                                                           abs=TOL)


def test_ranx_tie_rule_is_documented_with_its_limit():
    text = OPTIONS["ties"].choices["ranx"]
    assert "15 documents" in text and "reproduced exactly" in text
    assert CONVENTIONS["ranx"]["ties"] == "ranx"


# ------------------------------------------------------------------ fractional grades

def test_trec_eval_truncates_fractional_grades_as_its_atol_does():
    """qrels a 2.7, b 0.5. trec_eval reads a = 2, b = 0: run [b, a] gives grades [0, 2],
    NDCG = (2/log2(3)) / 2. Kept as given: (0.5 + 2.7/log2(3)) / (2.7 + 0.5/log2(3))."""
    qrels, run = frames({"q": {"a": 2.7, "b": 0.5}}, {"q": [("b", 2.0), ("a", 1.0)]})
    trec = evaluate(qrels, run, k=None, convention="trec_eval").loc["q", "ndcg"]
    assert trec == pytest.approx(2 * D / 2, abs=1e-15)
    kept = evaluate(qrels, run, k=None, convention="sklearn").loc["q", "ndcg"]
    assert kept == pytest.approx((0.5 + 2.7 * D) / (2.7 + 0.5 * D), abs=1e-15)
    assert evaluate(qrels, run, k=None, fractional="keep").loc["q", "ndcg"] == kept


def test_truncation_turns_a_small_negative_grade_into_a_judged_zero():
    """atol("-0.5") is 0: with -J the document stays (a judged 0), where -1 would leave."""
    qrels, run = frames({"q": {"a": -0.5, "b": 1}}, {"q": [("a", 2.0), ("b", 1.0)]})
    res = evaluate(qrels, run, k=None, judged_only=True)
    assert res.loc["q", "ndcg"] == pytest.approx(D, abs=1e-15)  # [a, b]: grades [0, 1]


def test_pytrec_eval_refuses_fractional_grades_as_pytrec_eval_does():
    qrels, run = frames({"q": {"a": 2.5}}, {"q": [("a", 1.0)]})
    with pytest.raises(ValueError, match=r"qrels row 1 \(qid 'q', docid 'a'\) has grade 2\.5, "
                                         r"not a whole number, refused by fractional='error'"):
        evaluate(qrels, run, convention="pytrec_eval")
    with pytest.raises(TypeError, match="integer"):  # the library itself
        pytrec_eval.RelevanceEvaluator({"q": {"a": 2.5}}, {"ndcg"})


def test_ranx_stores_grades_as_integers_too():
    """ranx's Qrels holds grades in an int array: 2.7 -> 2, as fractional='truncate'."""
    qrels, run = frames({"q": {"a": 2.7, "b": 1.5}}, {"q": [("b", 2.0), ("a", 1.0)]})
    expected = ranx_ndcg(qrels, run, ["ndcg"])["ndcg"]["q"]
    assert evaluate(qrels, run, k=None, convention="ranx").loc["q", "ndcg"] == \
        pytest.approx(expected, abs=TOL) == (1 + 2 * D) / (2 + 1 * D)


# ------------------------------------------------------------------ repeated lines, -M

def test_a_repeated_line_in_a_query_without_judgments_is_ignored():
    """trec_eval never evaluates a run query the qrels lack, so it never sees its repeat."""
    qrels, run = frames({"q1": {"a": 1}}, {"q1": [("a", 1.0)],
                                            "q9": [("z", 2.0), ("z", 1.0)]})
    res = evaluate(qrels, run, k=5)
    assert res["ndcg@5"].to_dict() == {"q1": 1.0}
    assert res.attrs["unjudged_queries"] == ["q9"]


def test_a_repeated_line_in_an_evaluated_query_is_still_an_error():
    """trec_eval stops there too ('duplicate docs', then "Can't calculate measure")."""
    qrels, run = frames({"q1": {"a": 1}}, {"q1": [("a", 1.0), ("b", 0.5), ("a", 0.2)]})
    with pytest.raises(ValueError, match=r"run lists docid 'a' twice for qid 'q1' \(row 3\)"):
        evaluate(qrels, run)


def test_depth_keeps_the_top_of_each_ranking_as_trec_eval_minus_M():
    """-M 2: run [x, a, b] keeps x (unjudged) and a (0); b (1) is cut: NDCG 0, where the
    whole run gives (1/2) / 1. A repeat below the depth is never looked at, as in
    trec_eval, which checks for repeats after the cut."""
    qrels, run = frames({"q": {"a": 0, "b": 1}},
                        {"q": [("x", 3.0), ("a", 2.0), ("b", 1.0), ("x", 0.5)]})
    assert evaluate(qrels, run, k=None, depth=2).loc["q", "ndcg"] == 0.0
    assert evaluate(qrels, run.iloc[:3], k=None).loc["q", "ndcg"] == 0.5
    with pytest.raises(ValueError, match="twice"):
        evaluate(qrels, run, k=None, depth=4)
    with pytest.raises(ValueError, match=r"depth must be a whole number of at least 1"):
        evaluate(qrels, run, depth=0)


# ------------------------------------------------------------------ Judged@k and bounds

def test_judged_at_k_by_hand():
    """Run a (2), b (unjudged), c (0): Judged@1 = 1/1, @2 = 1/2, @10 = 2/3 (3 retrieved)."""
    qrels, run = frames({"q": {"a": 2, "c": 0}, "r": {"a": 1}},
                        {"q": [("a", 3.0), ("b", 2.0), ("c", 1.0)], "r": [("z", 1.0)]})
    res = judged_at_k(qrels, run, k=[1, 2, 10, None])
    assert res.loc["q"].tolist() == [1 / 1, 1 / 2, 2 / 3, 2 / 3]
    assert res.loc["r"].tolist() == [0.0, 0.0, 0.0, 0.0]
    assert list(res.columns) == ["judged@1", "judged@2", "judged@10", "judged"]
    assert res["judged@2"].mean() == (1 / 2 + 0) / 2


def test_judged_at_k_of_a_missing_query_is_undefined():
    qrels, run = frames({"q": {"a": 1}, "m": {"a": 1}}, {"q": [("a", 1.0)]})
    res = judged_at_k(qrels, run, k=5, missing="zero")
    assert res.loc["q", "judged@5"] == 1.0 and np.isnan(res.loc["m", "judged@5"])


def test_judged_at_k_follows_the_convention_ranking_and_negative_rule():
    """Tied a (-1) and b (unjudged): doc id descending puts b first. A negative grade is
    unjudged for trec_eval (negative='zero'), judged under negative='keep'."""
    qrels, run = frames({"q": {"a": -1, "c": 0}}, {"q": [("a", 1.0), ("b", 1.0), ("c", 0.5)]})
    assert judged_at_k(qrels, run, k=[1, 3]).loc["q"].tolist() == [0.0, 1 / 3]
    assert judged_at_k(qrels, run, k=[1, 3], negative="keep").loc["q"].tolist() == [0.0, 2 / 3]
    assert judged_at_k(qrels, run, k=1, convention="ranx", negative="keep").iloc[0, 0] == 1.0


def test_ndcg_bounds_by_hand():
    """Run a (2), b (unjudged), c (0); top grade 2. At k=2, b as 2: DCG = 2 + 2/log2(3),
    ideal [2, 2] = the same: 1. At k=None too. With c first (run c, b, a): as 0,
    DCG = 0 + 0 + 2/2 = 1, IDCG = 2: 0.5; as 2, DCG = 0 + 2/log2(3) + 2/2, IDCG = 2 + 2/log2(3)."""
    qrels, run = frames({"q": {"a": 2, "c": 0}},
                        {"q": [("a", 3.0), ("b", 2.0), ("c", 1.0)]})
    t = ndcg_bounds(qrels, run, k=[2, None])
    assert list(t.columns) == ["ndcg@2_unjudged_0", "ndcg@2_unjudged_top", "ndcg_unjudged_0",
                               "ndcg_unjudged_top"]
    assert t.loc["q"].tolist() == pytest.approx([1.0, 1.0, 1.0, 1.0], abs=1e-15)
    run2 = run.assign(score=[1.0, 2.0, 3.0])
    t = ndcg_bounds(qrels, run2, k=None)
    assert t.loc["q"].tolist() == pytest.approx([1 / 2, (2 * D + 1) / (2 + 2 * D)], abs=1e-15)


def test_ndcg_bounds_promote_only_the_top_k_and_may_cross():
    """Run a (0), b (unjudged), c (1), d (unjudged); top grade 1.
    k=2: only b is promoted: DCG = 0 + 1/log2(3), ideal [1, 1]: (D) / (1 + D).
    As 0: DCG@2 = 0, IDCG@2 = 1: 0. The whole list, d promoted too: DCG = D + 1/2 + 1/log2(5),
    ideal [1, 1, 1] = 1 + D + 1/2. A document promoted low can lower the NDCG: with a run
    c, a, d, d promoted gives (1 + 1/2) / (1 + D) < 1 = as 0."""
    qrels, run = frames({"q": {"a": 0, "c": 1}},
                        {"q": [("a", 4.0), ("b", 3.0), ("c", 2.0), ("d", 1.0)]})
    t = ndcg_bounds(qrels, run, k=[2, None])
    assert t.loc["q", "ndcg@2_unjudged_0"] == 0.0
    assert t.loc["q", "ndcg@2_unjudged_top"] == pytest.approx(D / (1 + D), abs=1e-15)
    assert t.loc["q", "ndcg_unjudged_top"] == pytest.approx(
        (D + 1 / 2 + 1 / np.log2(5)) / (1 + D + 1 / 2), abs=1e-15)
    qrels, run = frames({"q": {"a": 0, "c": 1}}, {"q": [("c", 3.0), ("a", 2.0), ("d", 1.0)]})
    t = ndcg_bounds(qrels, run, k=None)
    assert t.loc["q", "ndcg_unjudged_0"] == 1.0
    assert t.loc["q", "ndcg_unjudged_top"] == pytest.approx((1 + 1 / 2) / (1 + D), abs=1e-15)


@pytest.mark.parametrize("seed", range(30))
def test_ndcg_bounds_equal_evaluate_on_qrels_that_judge_the_top_k(seed):
    """Independent route: write the promoted judgments into the qrels and evaluate."""
    rng = np.random.default_rng(170_000 + seed)
    qrels, run = judged_only_collection(rng)
    convention = ["trec_eval", "pytrec_eval", "sklearn", "ranx"][seed % 4]
    kw = dict(convention=convention, negative="zero")
    k = int(rng.integers(1, 6))
    got = ndcg_bounds(qrels, run, k=k, **kw)
    plain = evaluate(qrels, run, k=k, **kw)
    assert got[f"ndcg@{k}_unjudged_0"].equals(plain[f"ndcg@{k}"])
    judged = as_dicts(qrels, "relevance")
    extra = []
    for qid in got.index:
        top = max(judged[qid].values())
        ranking = run[run.qid == qid]
        # the convention's order: score descending, then doc id descending (trec_eval) or
        # the order given (sklearn ranks averaged ties in input order; ranx is stable for
        # these queries of at most 14 documents)
        if convention in ("trec_eval", "pytrec_eval"):
            ranking = ranking.sort_values(["score", "docid"], ascending=False)
        else:  # sklearn ('average') and ranx keep the given order here (<= 15 documents)
            ranking = ranking.sort_values("score", ascending=False, kind="stable")
        extra += [(qid, d, top) for d in ranking.docid[:k] if d not in judged[qid]]
    more = pd.concat([qrels, pd.DataFrame(extra, columns=qrels.columns)], ignore_index=True)
    expected = evaluate(more, run, k=k, **kw)
    assert got[f"ndcg@{k}_unjudged_top"].to_numpy() == pytest.approx(
        expected[f"ndcg@{k}"].to_numpy(), abs=1e-12, nan_ok=True)


def test_a_negative_grade_gains_nothing_even_where_a_gain_map_values_grade_0():
    """trec_eval (m_ndcg.c get_gain): a negative grade is 'unjudged' and matches no gain
    level, so -m ndcg.0=5 gives it 0, and only the judged 0 (b) joins the ideal at gain 5.
    Run a (-1), b (0), c (1), gains {0: 5, 1: 1}: DCG = 0 + 5/log2(3) + 1/2,
    IDCG = 5 + 1/log2(3)."""
    from ndcg_core import ndcg

    qrels, run = frames({"q": {"a": -1, "b": 0, "c": 1}},
                        {"q": [("a", 3.0), ("b", 2.0), ("c", 1.0)]})
    expected = (5 * D + 1 / 2) / (5 + D)
    gains = {0: 5, 1: 1}
    assert evaluate(qrels, run, k=None, gain=gains).loc["q", "ndcg"] == \
        pytest.approx(expected, abs=1e-15)
    assert ndcg([-1, 0, 1], gain=gains, negative="zero", ideal=[-1, 0, 1]) == \
        pytest.approx(expected, abs=1e-15)


# ------------------------------------------------------------------ ranking()

def test_ranking_lists_documents_in_ranx_own_order():
    """17 documents tied at 0: ranking(convention='ranx') is the order of ranx's sorted Run."""
    from ranx import Run

    from ndcg_core import ranking

    docs = [f"x{i}" for i in range(17)]
    qrels, run = frames({"q": {"x0": 1}}, {"q": [(d, 0.0) for d in docs]})
    ours = ranking(qrels, run, convention="ranx")
    assert ours["docid"].tolist() == list(Run(as_dicts(run, "score")).run["q"].keys())
    assert ours["rank"].tolist() == list(range(1, 18))
    assert ours.loc[ours.docid == "x0", ["grade", "gain", "judged"]].iloc[0].tolist() == \
        [1, 1, True]


def test_ranking_shows_scores_as_compared_grades_as_read_and_who_is_judged():
    from ndcg_core import ranking

    qrels, run = frames({"q": {"a": 0, "b": 2.7, "c": -1}, "r": {"z": 1}},
                        {"q": [("a", 1.00000001), ("b", 1.0), ("c", 0.5), ("x", 0.1)],
                         "u": [("y", 1.0)]})
    t = ranking(qrels, run, convention="pytrec_eval", fractional="truncate")
    assert t.columns.tolist() == ["qid", "rank", "docid", "score", "grade", "gain", "judged"]
    assert t["docid"].tolist() == ["b", "a", "c", "x"]  # a and b tie as float32: b > a
    assert t["score"].tolist()[:2] == [1.0, 1.0]
    assert t["grade"].tolist()[:3] == [2, 0, -1] and np.isnan(t["grade"].iloc[3])
    assert t["gain"].tolist() == [2, 0, 0, 0]
    assert t["judged"].tolist() == [True, True, False, False]  # -1: pooled, not judged
    assert ranking(qrels, run, judged_only=True, fractional="truncate")["docid"].tolist() \
        == ["a", "b"]
    assert ranking(qrels, run, depth=1, qids=["q"])["docid"].tolist() == ["a"]


@pytest.mark.parametrize("seed", range(20))
def test_ranx_ties_agree_between_evaluate_and_the_single_list_ndcg(seed):
    """Both routes order ties with the same numba quicksort, per query."""
    from ndcg_core import ndcg

    rng = np.random.default_rng(180_000 + seed)
    judged, retrieved = {}, {}
    for q in range(4):
        n = int(rng.integers(2, 40))
        docs = [f"x{i}" for i in range(n)]
        judged[f"q{q}"] = {d: int(rng.integers(0, 4)) for d in docs if rng.random() < 0.7}
        judged[f"q{q}"].setdefault(docs[0], 1)
        retrieved[f"q{q}"] = [(d, float(rng.integers(0, 3))) for d in docs]
    qrels, run = frames(judged, retrieved)
    res = evaluate(qrels, run, k=[1, 5, None], convention="ranx")
    for qid, rows in retrieved.items():
        grades = [judged[qid].get(d, 0) for d, _ in rows]
        for k in [1, 5, None]:
            expected = ndcg(grades, scores=[s for _, s in rows], ties="ranx", k=k,
                            ideal=list(judged[qid].values()), negative="zero")
            assert res.loc[qid, "ndcg" if k is None else f"ndcg@{k}"] == pytest.approx(
                expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_ndcg_bounds_with_judged_give_judged_at_k_and_the_bounds_from_one_ranking(seed):
    """``ndcg_bounds(..., judged=True)``: the judged@k columns are judged_at_k's and the
    bound columns ndcg_bounds' own, exactly, whatever the convention, the cutoffs and
    ``missing``."""
    rng = np.random.default_rng(171_000 + seed)
    qrels, run = judged_only_collection(rng)
    run = run.iloc[: max(1, len(run) - int(rng.integers(0, 4)))]  # some judged docs unretrieved
    convention = sorted(CONVENTIONS)[seed % len(CONVENTIONS)]
    kw = dict(convention=convention, negative="zero", missing=["skip", "zero"][seed % 2])
    ks = [int(rng.integers(1, 6)), None]
    both = ndcg_bounds(qrels, run, k=ks, judged=True, **kw)
    judged = judged_at_k(qrels, run, k=ks, **kw)
    bounds = ndcg_bounds(qrels, run, k=ks, **kw)
    assert list(both.columns) == list(judged.columns) + list(bounds.columns)
    pd.testing.assert_frame_equal(both[judged.columns], judged)
    pd.testing.assert_frame_equal(both[bounds.columns], bounds)
    assert both.attrs == bounds.attrs == judged.attrs
