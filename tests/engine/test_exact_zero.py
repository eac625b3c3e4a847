"""Rules that turn on a value (IDCG = 0, NDCG = 1 for the ideal order) are decided on exact
sums: the same answer on every machine, every BLAS and every log base."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ndcg_core import dcg_table, evaluate, ideal_table, ndcg, ndcg_curve, ndcg_parts
from ndcg_core._exact import ZERO_BOUND, exact_sum, prefix_sums, segment_sums, split_terms

ROOT = Path(__file__).resolve().parents[2]
# rank 1, 3, 7, 15: log2(i + 1) = 1, 2, 3, 4, so these lists cancel exactly
CANCELLING = [
    [1, 0, 0, 0, 0, 0, -3],                                  # 1/1 - 3/3
    [-3, 0, 0, 0, 0, 0, 1],                                  # ideal [1, 0, ..., -3]
    [2, 0, -4],                                              # 2/1 - 4/2
    [3, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -16],          # 3/1 + 2/2 - 16/4
    [0.5, 0, 0.5, 0, 0, 0, -3, 0, 0, 0, 0, 0, 0, 0, 0],        # 1/2 + 1/4 - ... : not 0
]


def test_an_ideal_dcg_that_cancels_to_zero_follows_the_zero_rule():
    """[-3, 0, 0, 0, 0, 0, 1]: the ideal [1, 0, ..., -3] sums 1/1 - 3/log2(8) = 0 exactly, so
    NDCG is the zero rule's value, not -4.8e16."""
    grades = [-3, 0, 0, 0, 0, 0, 1]
    parts = ndcg_parts(grades)
    assert parts.idcg == 0.0
    assert parts.dcg == -3 + 1 / 3   # -3/1 + 1/log2(8)
    assert parts.ndcg == 0.0
    assert ndcg(grades, zero_idcg="one") == 1.0
    assert np.isnan(ndcg(grades, zero_idcg="nan"))
    assert ndcg(grades, k=7) == 0.0


def test_the_ideal_order_of_a_cancelling_list_scores_the_zero_rule_not_one():
    """[1, 0, 0, 0, 0, 0, -3] is its own ideal order and sums to 0: NDCG 0, not 1.0."""
    assert ndcg([1, 0, 0, 0, 0, 0, -3]) == 0.0
    assert ndcg([1, 0, 0, 0, 0, 0, -3], zero_idcg="one") == 1.0


@pytest.mark.parametrize("grades", [[2.5, 0, -5], [1, 0, 0, 0, 0, 0, -3], [-3, 0, 0, 0, 0, 0, 1]])
def test_natural_log_and_log2_give_the_very_same_ndcg_on_cancelling_lists(grades):
    """[2.5, 0, -5]: 2.5/ln 2 - 5/ln 4 is 0 as 2.5/1 - 5/2 is, so both bases print 0."""
    assert ndcg(grades, discount="ln") == ndcg(grades) == 0.0
    assert ndcg_parts(grades, discount="ln").idcg == 0.0


def test_negative_grade_counted_as_zero_gains_nothing_in_the_ideal_table():
    """negative='zero' with a gain map giving grade 0 a gain: the ideal table gives grade -1
    gain 0 (as ndcg does), and its last row is the IDCG printed beside it."""
    kw = dict(gain={0: 2, 1: 1}, negative="zero")
    parts = ndcg_parts([-1, 1], **kw)
    table = ideal_table([-1, 1], **kw)
    assert parts.idcg == 1.0   # ideal [1, -1 as 0 with gain 0]: 1/1 + 0/log2(3)
    assert table["cumulative_dcg"].iloc[-1] == parts.idcg
    assert table["gain"].tolist() == [1.0, 0.0]


def test_playground_example_of_the_ideal_table_sums_to_the_printed_idcg():
    """The link ?l=A&l=B&l=C&g=-1,1,0&gain=linear&num=one ... k=3 (grade 0 gains 1 in a map):
    IDCG@3 = 1 + 1/log2(3) = 1.631, and the ideal table sums to it (it summed to 2.131)."""
    kw = dict(gain={0: 1, 1: 1}, negative="zero", k=3)
    parts = ndcg_parts([-1, 1, 0], **kw)
    table = ideal_table([-1, 1, 0], labels=["A", "B", "C"], **kw)
    assert parts.idcg == pytest.approx(1 + 1 / np.log2(3), abs=1e-15)
    assert table["cumulative_dcg"].iloc[-1] == parts.idcg
    assert dict(zip(table["label"], table["gain"])) == {"A": 0.0, "B": 1.0, "C": 1.0}


@pytest.mark.parametrize("grades", CANCELLING)
@pytest.mark.parametrize("discount", ["log2", "ln"])
def test_tables_and_curve_end_on_the_figures_of_a_cancelling_list(grades, discount):
    """The DCG and ideal tables' last rows and the curve's last row are ndcg_parts' figures,
    to the last bit, also where the sum is exactly 0."""
    parts = ndcg_parts(grades, discount=discount)
    assert dcg_table(grades, discount=discount)["cumulative_dcg"].iloc[-1] == parts.dcg
    assert ideal_table(grades, discount=discount)["cumulative_dcg"].iloc[-1] == parts.idcg
    last = ndcg_curve(grades, discount=discount).iloc[-1]
    assert (last["dcg"], last["idcg"]) == (parts.dcg, parts.idcg)
    assert last["ndcg"] == parts.ndcg or np.isnan(parts.ndcg)


def frames(grades):
    docs = [f"d{i}" for i in range(len(grades))]
    qrels = pd.DataFrame({"qid": "q1", "docid": docs, "relevance": grades})
    run = pd.DataFrame({"qid": "q1", "docid": docs, "score": np.arange(len(grades), 0, -1.0)})
    return qrels, run


@pytest.mark.parametrize("grades", CANCELLING)
@pytest.mark.parametrize("discount", ["log2", "ln"])
def test_evaluate_decides_the_zero_rule_as_ndcg_does(grades, discount):
    """evaluate (the vectorised path, ideal from the ranking) gives ndcg's figures."""
    qrels, run = frames(grades)
    res = evaluate(qrels, run, k=[None, 3], convention="sklearn", negative="keep",
                   discount=discount, details=True)
    for k, col in [(None, ""), (3, "@3")]:
        parts = ndcg_parts(grades, k=k, discount=discount)
        assert res.loc["q1", "idcg" + col] == pytest.approx(parts.idcg, abs=1e-15)
        assert res.loc["q1", "dcg" + col] == pytest.approx(parts.dcg, abs=1e-15)
        assert res.loc["q1", "ndcg" + col] == parts.ndcg


def test_evaluate_scores_a_ranking_in_the_ideal_order_exactly_one():
    """A ranking in the ideal order scores 1.0 exactly, ties among equal gains included
    (a mean of equal gains such as 0.1 is not recomputed)."""
    grades = [0.1, 0.1, 0.1, 0.7, 0.3, 0.3, 0.0, 0.2]
    docs = [f"d{i}" for i in range(len(grades))]
    qrels = pd.DataFrame({"qid": "q", "docid": docs, "relevance": grades})
    run = pd.DataFrame({"qid": "q", "docid": docs, "score": [5, 5, 5, 9, 7, 7, 1, 6.0]})
    for convention in ["trec_eval", "sklearn", "lightgbm", "ranx"]:
        res = evaluate(qrels, run, k=[None, 2, 5], convention=convention, fractional="keep")
        assert (res.to_numpy() == 1.0).all(), convention
    assert ndcg(grades, scores=[5, 5, 5, 9, 7, 7, 1, 6.0]) == 1.0


def test_exact_sums_are_correctly_rounded_and_cleared_within_their_bound():
    """0.1 + 0.2 - 0.3 leaves 2.8e-17, far below the bound 8u·0.6: taken as 0."""
    assert exact_sum([0.1, 0.2, -0.3]) == (0.0, pytest.approx(0.6))
    assert prefix_sums([1.0, 1e-16, 1e-16, -1.0]).tolist() == [1.0, 1.0, 1.0000000000000002,
                                                               0.0]
    assert prefix_sums([0.25, 0.5]).tolist() == [0.25, 0.75]
    q, w = np.array([0, 0, 1, 1, 1]), np.array([1e16, -1e16, 1.0, 1e-16, 1e-16])
    s, a = segment_sums(q, *split_terms(q, w, 2), np.abs(w), 2)
    assert s.tolist() == [0.0, 1.0000000000000002] and a[0] == 2e16
    assert ZERO_BOUND == 2.0 ** -50


CHILD = """
import pandas as pd
from ndcg_core import dcg_table, evaluate, ndcg, ndcg_parts
g = [-3, 0, 0, 0, 0, 0, 1]
docs = [f"d{i}" for i in range(7)]
qrels = pd.DataFrame({"qid": "q", "docid": docs, "relevance": g})
run = pd.DataFrame({"qid": "q", "docid": docs, "score": range(7, 0, -1)})
res = evaluate(qrels, run, k=None, convention="sklearn", negative="keep", details=True)
print(repr(ndcg_parts(g)), repr(ndcg([2.5, 0, -5], discount="ln")),
      repr(ndcg([1, 0, 0, 0, 0, 0, -3])), res.to_dict(),
      dcg_table(g)["cumulative_dcg"].tolist())
"""


def test_the_same_figure_whatever_openblas_kernel_numpy_runs_on():
    """OPENBLAS_CORETYPE picks the BLAS kernels (with an FMA or without): unset and set to the
    plainest x86-64 kernels, the same figures to the last bit (the dot product with rounded
    reciprocals printed -4.8e16 on one and 0 on the other)."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    outs = []
    for extra in ({}, {"OPENBLAS_CORETYPE": "Prescott"}):
        proc = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env={**env, **extra},
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert "idcg=0.0, ndcg=0.0" in outs[0]


def test_the_lesson_quotes_what_trec_eval_and_scikit_learn_answer_on_the_example():
    """The conventions lesson's section on an exact zero: trec_eval reads -3 as unjudged
    (gain 0) and scores (1/3) / 1 = 0.333; scikit-learn's ndcg_score refuses negative
    grades, its dcg_score leaves a rounding remainder (or 0) for the ideal order."""
    import pytrec_eval
    from sklearn.metrics import dcg_score, ndcg_score

    grades = [-3, 0, 0, 0, 0, 0, 1]
    scores = [[7, 6, 5, 4, 3, 2, 1]]
    docs = [f"d{i}" for i in range(7)]
    # trec_eval's gain for a negative grade is 0 (pytrec_eval is given it so: it can hang
    # on negative grades, see test_reference.py); evaluate() gets the -3 as written
    judged = {"q": {d: max(g, 0) for d, g in zip(docs, grades)}}
    run = {"q": {d: float(s) for d, s in zip(docs, scores[0])}}
    trec = pytrec_eval.RelevanceEvaluator(judged, {"ndcg", "ndcg_cut.7"}).evaluate(run)["q"]
    qrels, frame = frames(grades)
    ours = evaluate(qrels, frame, k=[None, 7], convention="trec_eval")
    assert trec["ndcg"] == trec["ndcg_cut_7"] == pytest.approx(1 / 3, abs=1e-12)
    assert ours.loc["q1"].tolist() == pytest.approx([1 / 3, 1 / 3], abs=1e-12)
    assert ndcg(grades, negative="zero") == pytest.approx(1 / 3, abs=1e-15)
    with pytest.raises(ValueError, match="should not be used on negative y_true values"):
        ndcg_score([grades], scores)
    assert dcg_score([grades], scores) == pytest.approx(-3 + 1 / 3, abs=1e-12)
    assert abs(dcg_score([sorted(grades, reverse=True)], scores)) < 1e-15  # the ideal order
    lesson = {}
    for name in ("05_conventions.md", "zh/05_conventions.md"):
        text = (ROOT / "assets" / "lessons" / name).read_text(encoding="utf-8")
        lesson[name] = text[text.index("## exact-zero"):text.index("## log-base")]
        for quoted in ("0.333", "-2.667", "$[-3, 0, 0, 0, 0, 0, 1]$",
                       "should not be used on negative y_true values"):
            assert quoted in lesson[name], (name, quoted)
    assert f"{(-3 + 1 / 3) / -4.440892098500626e-16:.0e}" == "6e+15"


def test_the_command_line_prints_the_zero_rule_where_the_ideal_cancels(tmp_path):
    """`python -m ndcg_core table -3 0 0 0 0 0 1` prints IDCG = 0.0000 and the zero rule's
    NDCG; `evaluate` on a run of that list prints trec_eval's 0.3333 (the -3 read as
    unjudged, gain 0)."""
    from cli_runner import run_cli

    done = run_cli(["table", "-3", "0", "0", "0", "0", "0", "1"], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-3:] == ["DCG = -2.6667", "IDCG = 0.0000", "NDCG = 0.0000"]
    done = run_cli(["table", "1", "0", "0", "0", "0", "0", "-3", "--zero-idcg", "one"], cwd=ROOT)
    assert done.stdout.splitlines()[-3:] == ["DCG = 0.0000", "IDCG = 0.0000", "NDCG = 1.0000"]
    (tmp_path / "qrels").write_text("".join(f"q 0 d{i} {g}\n" for i, g in
                                            enumerate([-3, 0, 0, 0, 0, 0, 1])))
    (tmp_path / "run").write_text("".join(f"q Q0 d{i} {i + 1} {7 - i} x\n" for i in range(7)))
    done = run_cli(["evaluate", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m",
                    "ndcg_cut.7"], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ndcg_cut_7", "all", "0.3333"]


# ------------------------------------------------------------------ properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

GRADE = st.sampled_from([-3, -1, -0.5, 0, 0, 0.1, 0.3, 1, 2, 2.5, 3])
OPTIONS_ST = st.fixed_dictionaries({
    "gain": st.sampled_from(["linear", "exponential", {-3: -1, -1: -0.1, -0.5: 0.2, 0: 0.5,
                                                       0.1: 0.1, 0.3: 1 / 3, 1: 1, 2: 3,
                                                       2.5: 4.5, 3: 7}]),
    "negative": st.sampled_from(["keep", "zero"]),
    "zero_idcg": st.sampled_from(["zero", "one", "nan"]),
    "ties": st.sampled_from(["average", "docid", "input", "optimistic", "pessimistic"]),
    "k": st.one_of(st.none(), st.integers(1, 16)),
})


@settings(max_examples=80, deadline=None)
@given(st.lists(GRADE, min_size=1, max_size=16), st.data(), OPTIONS_ST)
def test_every_log_base_gives_the_very_same_ndcg(grades, data, kw):
    """log2 and ln discounts: the same NDCG (the base cancels), to the last bit, also on
    lists that cancel; in ndcg, ndcg_curve and evaluate."""
    scores = data.draw(st.lists(st.integers(0, 3), min_size=len(grades), max_size=len(grades)))
    docids = [f"d{i}" for i in range(len(grades))]
    a = ndcg(grades, scores=scores, docids=docids, discount="log2", **kw)
    b = ndcg(grades, scores=scores, docids=docids, discount="ln", **kw)
    assert a == b or (np.isnan(a) and np.isnan(b))
    curve = [ndcg_curve(grades, discount=d, zero_idcg=kw["zero_idcg"])["ndcg"] for d in
             ("log2", "ln")]
    assert curve[0].equals(curve[1])
    qrels = pd.DataFrame({"qid": "q", "docid": docids, "relevance": grades})
    run = pd.DataFrame({"qid": "q", "docid": docids, "score": scores})
    opts = {key: kw[key] for key in ("gain", "negative", "zero_idcg", "ties")}
    res = [evaluate(qrels, run, k=[None, 3], discount=d, fractional="keep", **opts)
           for d in ("log2", "ln")]
    assert res[0].equals(res[1])


@settings(max_examples=80, deadline=None)
@given(st.lists(GRADE.filter(lambda g: g >= 0), min_size=1, max_size=16), st.data(),
       OPTIONS_ST, st.sampled_from(["log2", "ln", "jarvelin"]))
def test_ndcg_of_non_negative_gains_lies_in_zero_one_and_the_ideal_scores_one(grades, data,
                                                                              kw, discount):
    """Every gain >= 0: NDCG in [0, 1] in ndcg and evaluate, and the ideal order exactly 1
    (or the zero rule's value when nothing is relevant)."""
    kw = {**kw, "gain": kw["gain"] if kw["gain"] != "linear" else {g: g for g in
                                                                   [0, 0.1, 0.3, 1, 2, 2.5, 3]}}
    if isinstance(kw["gain"], dict):
        kw["gain"] = {g: abs(v) for g, v in kw["gain"].items()}
    scores = data.draw(st.lists(st.integers(0, 3), min_size=len(grades), max_size=len(grades)))
    docids = [f"d{i}" for i in range(len(grades))]
    value = ndcg(grades, scores=scores, docids=docids, discount=discount, **kw)
    assert np.isnan(value) or 0 <= value <= 1
    best = ndcg(sorted(grades, key=lambda g: -ndcg_parts([g], gain=kw["gain"]).dcg),
                discount=discount, **{**kw, "ties": "average"})
    assert best in (1.0, {"zero": 0.0, "one": 1.0}.get(kw["zero_idcg"])) or np.isnan(best)
    qrels = pd.DataFrame({"qid": "q", "docid": docids, "relevance": grades})
    run = pd.DataFrame({"qid": "q", "docid": docids, "score": scores})
    opts = {key: kw[key] for key in ("gain", "negative", "zero_idcg", "ties")}
    res = evaluate(qrels, run, k=[None, 3], discount=discount, fractional="keep", **opts)
    values = res.to_numpy()
    assert ((values >= 0) & (values <= 1) | np.isnan(values)).all()


def test_two_systems_with_the_same_gains_in_the_same_places_tie_on_every_query():
    """System B retrieves other documents than A but with A's grades at A's ranks (0.1s
    tied, 0.3, negative grades): every query scores the very same, so each query is a tie,
    the mean difference is 0 and every test's p-value is 1."""
    from ndcg_core import compare, wins_losses

    rng = np.random.default_rng(40)
    qrels, runs = [], {"A": [], "B": []}
    for q in range(12):
        grades = rng.choice([-1, 0, 0.1, 0.1, 0.3, 1, 2], size=9).tolist()
        scores = rng.integers(0, 4, size=9).astype(float).tolist()
        for system, prefix in (("A", "a"), ("B", "b")):
            for i, (g, s) in enumerate(zip(grades, scores)):
                qrels.append((f"q{q}", f"{prefix}{i}", g))
                runs[system].append((f"q{q}", f"{prefix}{i}", s))
    qrels = pd.DataFrame(qrels, columns=["qid", "docid", "relevance"])
    per_query = pd.DataFrame({
        name: evaluate(qrels, pd.DataFrame(rows, columns=["qid", "docid", "score"]), k=5,
                       convention="sklearn", negative="keep", fractional="keep",
                       ideal_pool="judged")["ndcg@5"]
        for name, rows in runs.items()})
    assert (per_query["A"].to_numpy() == per_query["B"].to_numpy()).all()
    assert wins_losses(per_query, baseline="A").loc["B"].tolist() == [0, 12, 0]
    for test in ("t", "wilcoxon", "randomization", "bootstrap"):
        row = compare(per_query, baseline="A", test=test, n_resamples=200).loc["B"]
        assert (row["p"], row["delta"]) == (1.0, 0.0), test
