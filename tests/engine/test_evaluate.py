"""evaluate(): the conventions measured in ../shared/reference/conventions.md, and the
vectorized engine checked query by query against the single-list ndcg() on random inputs
with every option."""

import importlib

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from ndcg_core import (CONVENTIONS, conventions_table, evaluate, id_codes, judged_at_k, ndcg,
                       ndcg_bounds, ranking)


def frames(judged, retrieved):
    """judged: {qid: {docid: grade}}, retrieved: {qid: [(docid, score), ...]}."""
    qrels = pd.DataFrame([(q, d, g) for q, docs in judged.items() for d, g in docs.items()],
                         columns=["qid", "docid", "relevance"])
    run = pd.DataFrame([(q, d, s) for q, rows in retrieved.items() for d, s in rows],
                       columns=["qid", "docid", "score"])
    return qrels, run


# ------------------------------------------------------------------ conventions.md

TIE = frames({"q": {"d1": 0, "d2": 2, "d3": 1}},
             {"q": [("d1", 1.0), ("d2", 1.0), ("d3", 0.5)]})


@pytest.mark.parametrize("convention, at_1, full", [
    ("sklearn", 0.5, 0.809953),  # gains averaged over the tie
    ("trec_eval", 1.0, 0.950234),  # doc id descending: d2 first
    ("ranx", 0.0, 0.669672),  # input order: d1 first
])
def test_tied_scores_as_each_library_breaks_them(convention, at_1, full):
    res = evaluate(*TIE, k=[1, None], convention=convention)
    assert res.loc["q", "ndcg@1"] == pytest.approx(at_1, abs=5e-7)
    assert res.loc["q", "ndcg"] == pytest.approx(full, abs=5e-7)


def test_tie_values_by_hand():
    idcg = 2 + 1 / np.log2(3)  # rel = 2, 1, 0
    res = evaluate(*TIE, k=None, convention="sklearn")
    assert res.loc["q", "ndcg"] == pytest.approx((1 + 1 / np.log2(3) + 1 / 2) / idcg,
                                                 abs=1e-12)  # mean gain 1 at ranks 1 and 2
    res = evaluate(*TIE, k=None, convention="trec_eval")
    assert res.loc["q", "ndcg"] == pytest.approx((2 + 0 + 1 / 2) / idcg, abs=1e-12)


def test_all_zero_query_counts_zero_in_the_mean_or_one_for_lightgbm():
    qrels, run = frames({"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"a": 0, "b": 0}},
                        {"q1": [("a", 3), ("b", 2), ("c", 1)], "q2": [("a", 2), ("b", 1)]})
    q1 = (2 + 0 + 1 / 2) / (2 + 1 / np.log2(3))  # rel = 2, 0, 1; ideal 2, 1, 0
    res = evaluate(qrels, run, k=None)
    assert res["ndcg"].tolist() == pytest.approx([q1, 0.0], abs=1e-12)
    assert res["ndcg"].mean() == pytest.approx(0.475117, abs=5e-7)
    assert evaluate(qrels, run, k=None, convention="lightgbm").loc["q2", "ndcg"] == 1.0
    assert np.isnan(evaluate(qrels, run, k=None, zero_idcg="nan").loc["q2", "ndcg"])


def test_unretrieved_relevant_document_lowers_the_ideal_only_for_a_judged_pool():
    qrels, run = frames({"q": {"d1": 3, "d2": 2, "d3": 1, "d4": 3}},
                        {"q": [("d1", 3), ("d2", 2), ("d3", 1)]})
    res = evaluate(qrels, run, k=[3, None])
    dcg = 3 + 2 / np.log2(3) + 1 / 2  # rel = 3, 2, 1
    assert res.loc["q", "ndcg@3"] == pytest.approx(dcg / (3 + 3 / np.log2(3) + 2 / 2),
                                                   abs=1e-12)  # ideal 3, 3, 2
    assert res.loc["q", "ndcg@3"] == pytest.approx(0.808082, abs=5e-7)
    assert res.loc["q", "ndcg"] == pytest.approx(0.753046, abs=5e-7)
    assert evaluate(qrels, run, k=3, convention="sklearn").loc["q", "ndcg@3"] == 1.0


def test_negative_grades_count_zero_in_trec_eval_and_are_refused_by_sklearn():
    qrels, run = frames({"q": {"a": -1, "b": 2, "c": 0, "d": 1}},
                        {"q": [("a", 4), ("b", 3), ("c", 2), ("d", 1)]})
    res = evaluate(qrels, run, k=[3, None])
    assert res.loc["q", "ndcg@3"] == pytest.approx(
        (0 + 2 / np.log2(3)) / (2 + 1 / np.log2(3)), abs=1e-12)  # rel 0, 2, 0 vs 2, 1, 0
    assert res.loc["q", "ndcg@3"] == pytest.approx(0.479625, abs=5e-7)
    assert res.loc["q", "ndcg"] == pytest.approx(0.643322, abs=5e-7)
    with pytest.raises(ValueError, match=r"negative grade -1, refused by negative='error'"):
        evaluate(qrels, run, convention="sklearn")


def test_exponential_gain_conventions():
    qrels, run = frames({"q": dict(zip("abcdef", [3, 2, 3, 0, 1, 2]))},
                        {"q": [(d, 6 - i) for i, d in enumerate("abcdef")]})
    for convention in ["lightgbm", "xgboost"]:
        res = evaluate(qrels, run, k=[3, None], convention=convention)
        assert res.loc["q", "ndcg@3"] == pytest.approx(0.959454, abs=5e-7)
        assert res.loc["q", "ndcg"] == pytest.approx(0.948811, abs=5e-7)
    res = evaluate(qrels, run, k=3, convention="trec_eval", gain="exponential")
    assert res.loc["q", "ndcg@3"] == pytest.approx(
        (7 + 3 / np.log2(3) + 7 / 2) / (7 + 7 / np.log2(3) + 3 / 2), abs=1e-12)


def test_judged_query_absent_from_the_run_is_skipped_or_zero():
    qrels, run = frames({"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"b": 2}},
                        {"q1": [("a", 1.0)], "q9": [("a", 1.0)]})
    res = evaluate(qrels, run, k=5)
    assert list(res.index) == ["q1"]
    assert res.attrs["missing_queries"] == ["q2", "q3"]
    assert res.attrs["unjudged_queries"] == ["q9"]
    res = evaluate(qrels, run, k=5, missing="zero")
    assert res["ndcg@5"].to_dict() == {"q1": 1.0, "q2": 0.0, "q3": 0.0}


def test_missing_query_with_something_to_find_scores_zero_under_every_all_zero_rule():
    """-c: a judged query the run lacks, with a relevant document, scores 0 even where the
    ideal comes from the (empty) retrieved list and the all-zero rule says 1 (LightGBM)."""
    qrels, run = frames({"q1": {"a": 1}, "q2": {"b": 2}}, {"q1": [("a", 1.0)]})
    res = evaluate(qrels, run, k=5, missing="zero", convention="lightgbm")
    assert res["ndcg@5"].to_dict() == {"q1": 1.0, "q2": 0.0}


@pytest.mark.parametrize("rule, value", [("zero", 0.0), ("one", 1.0), ("nan", None)])
def test_missing_query_without_a_relevant_document_follows_the_all_zero_rule(rule, value):
    """Issue 14 item 4: q2 is judged (grade 0 only) and not retrieved. Its empty ranking
    has nothing to find, so IDCG = 0 and the all-zero rule decides: NaN for 'nan' (left out
    of the mean), not 0."""
    qrels, run = frames({"q1": {"a": 1}, "q2": {"a": 0}}, {"q1": [("a", 1.0)]})
    res = evaluate(qrels, run, k=5, missing="zero", zero_idcg=rule)
    assert res.loc["q1", "ndcg@5"] == 1.0
    if value is None:
        assert np.isnan(res.loc["q2", "ndcg@5"])
        assert res["ndcg@5"].mean() == 1.0  # (1) / 1: q2 is left out of the mean
    else:
        assert res.loc["q2", "ndcg@5"] == value


def test_ties_are_averaged_within_each_query_only():
    """q1's last score equals q2's first: the two rows are not one tie."""
    qrels, run = frames({"q1": {"a": 3}, "q2": {"b": 0, "c": 2}},
                        {"q1": [("a", 1.0)], "q2": [("b", 1.0), ("c", 0.5)]})
    res = evaluate(qrels, run, k=None, convention="sklearn")
    assert res.loc["q1", "ndcg"] == 1.0
    assert res.loc["q2", "ndcg"] == pytest.approx((0 + 2 / np.log2(3)) / 2, abs=1e-12)


def test_queries_are_sorted_as_strings_like_trec_eval():
    qrels, run = frames({q: {"a": 1} for q in ["10", "2", "1"]},
                        {q: [("a", 1.0)] for q in ["2", "10", "1"]})
    assert list(evaluate(qrels, run).index) == ["1", "10", "2"]


def test_integer_ids_match_string_ids():
    qrels = pd.DataFrame({"qid": [301, 301], "docid": [7, 8], "relevance": [1, 0]})
    run = pd.DataFrame({"qid": ["301", "301"], "docid": ["8", "7"], "score": [2.0, 1.0]})
    res = evaluate(qrels, run, k=None)
    assert res.loc["301", "ndcg"] == pytest.approx(1 / np.log2(3), abs=1e-12)


def test_ids_are_compared_as_text_in_object_columns_too():
    """An object column mixing '1' and the integer 2 still matches the run's '2'."""
    qrels = pd.DataFrame({"qid": pd.Series(["1", 2], dtype=object), "docid": ["a", "b"],
                          "relevance": [1, 2]})
    run = pd.DataFrame({"qid": ["1", "2"], "docid": pd.Series(["a", "b"], dtype=object),
                        "score": [1.0, 1.0]})
    res = evaluate(qrels, run, k=None)
    assert list(res.index) == ["1", "2"] and res["ndcg"].tolist() == [1.0, 1.0]


def test_details_add_dcg_idcg_and_counts():
    qrels, run = frames({"q": {"a": 2, "b": 0, "c": 1, "d": 3}},
                        {"q": [("a", 3.0), ("b", 2.0), ("x", 1.0)]})
    res = evaluate(qrels, run, k=[2, None], details=True)
    assert res.loc["q", "dcg@2"] == pytest.approx(2 + 0, abs=1e-12)  # rel = 2, 0
    assert res.loc["q", "idcg@2"] == pytest.approx(3 + 2 / np.log2(3), abs=1e-12)  # 3, 2
    assert res.loc["q", "dcg"] == pytest.approx(2, abs=1e-12)
    assert res.loc["q", "idcg"] == pytest.approx(3 + 2 / np.log2(3) + 1 / 2, abs=1e-12)
    assert res.loc["q", "n_retrieved"] == 3 and res.loc["q", "n_relevant"] == 3


def test_explicit_keywords_override_the_convention():
    res = evaluate(*TIE, k=1, convention="sklearn", ties="docid")
    assert res.loc["q", "ndcg@1"] == 1.0
    assert res.attrs["settings"]["ties"] == "docid"
    assert res.attrs["settings"]["gain"] == "linear"


def test_conventions_table_lists_every_preset():
    table = conventions_table()
    assert list(table.index) == list(CONVENTIONS)
    assert table.loc["trec_eval", "ties"] == "docid"
    assert table.loc["lightgbm", "zero_idcg"] == "one"


# ------------------------------------------------------------------ evaluate == ndcg

TIES = ["average", "docid", "input", "optimistic", "pessimistic"]
GAINS = ["linear", "exponential", {0: 0, 1: 1.5, 2: 4, 3: 10, 4: 11}]
DOCS = [f"d{i}" for i in range(12)] + ["D1", "10", "9", "x"]


def random_case(rng):
    options = dict(
        gain=GAINS[rng.integers(3)],
        ties=TIES[rng.integers(5)],
        discount=["log2", "ln", "jarvelin"][rng.integers(3)],
        zero_idcg=["zero", "nan", "one"][rng.integers(3)],
        negative=["keep", "zero"][rng.integers(2)],
        ideal_pool=["judged", "retrieved"][rng.integers(2)],
        convention=list(CONVENTIONS)[rng.integers(len(CONVENTIONS))],
    )
    options["base"] = float(rng.uniform(1.2, 5)) if options["discount"] == "jarvelin" else 2
    judged, retrieved = {}, {}
    for q in range(int(rng.integers(1, 7))):
        qid = f"q{q}"
        docs = rng.choice(DOCS, size=int(rng.integers(1, 10)), replace=False)
        low = -2 if options["negative"] != "keep" or not isinstance(options["gain"], dict) \
            else 0
        judged[qid] = {d: int(g) for d, g in zip(docs, rng.integers(low, 5, docs.size))}
        if rng.integers(6):  # now and then a judged query without a run
            pool = [d for d in DOCS if d in judged[qid] or rng.random() < 0.3]
            picked = [d for d in pool if rng.random() < 0.7] or pool[:1]
            retrieved[qid] = [(d, float(rng.integers(0, 4))) for d in rng.permutation(picked)]
    return frames(judged, retrieved), judged, retrieved, options


@pytest.mark.parametrize("case", range(300))
def test_evaluate_equals_ndcg_query_by_query(case):
    """The vectorized engine and the single-list ndcg() agree for every option."""
    rng = np.random.default_rng(60_000 + case)
    (qrels, run), judged, retrieved, options = random_case(rng)
    cutoffs = [None, 1, 3, 10]
    res = evaluate(qrels, run, k=cutoffs, **options)
    assert sorted(res.index) == sorted(retrieved)
    pool_kw = {key: options[key] for key in ["gain", "discount", "base", "zero_idcg",
                                             "negative", "ties"]}
    for qid, rows in retrieved.items():
        docids = [d for d, _ in rows]
        grades = [judged[qid].get(d, 0) for d in docids]
        ideal = list(judged[qid].values()) if options["ideal_pool"] == "judged" else None
        for k in cutoffs:
            expected = ndcg(grades, scores=[s for _, s in rows], docids=docids, ideal=ideal,
                            k=k, **pool_kw)
            got = res.loc[qid, "ndcg" if k is None else f"ndcg@{k}"]
            if np.isnan(expected):
                assert np.isnan(got)
            else:
                assert got == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("case", range(20))
def test_evaluate_equals_ndcg_with_many_distinct_grades(case):
    """Fractional grades: more distinct gains than evaluate() counts level by level."""
    rng = np.random.default_rng(70_000 + case)
    judged, retrieved = {}, {}
    for q in range(8):
        docs = rng.choice(DOCS, size=12, replace=False)
        judged[f"q{q}"] = dict(zip(docs, np.round(rng.uniform(0, 4, 12), 3).tolist()))
        picked = [d for d in DOCS if rng.random() < 0.6] or [DOCS[0]]
        retrieved[f"q{q}"] = [(d, float(rng.integers(0, 5))) for d in picked]
    qrels, run = frames(judged, retrieved)
    assert qrels["relevance"].nunique() > 64
    ties = TIES[case % 5]
    res = evaluate(qrels, run, k=[None, 3, 10], ties=ties, fractional="keep")
    for qid, rows in retrieved.items():
        docids = [d for d, _ in rows]
        grades = [judged[qid].get(d, 0) for d in docids]
        for k in [None, 3, 10]:
            expected = ndcg(grades, scores=[s for _, s in rows], docids=docids, ties=ties,
                            ideal=list(judged[qid].values()), k=k)
            assert res.loc[qid, "ndcg" if k is None else f"ndcg@{k}"] == pytest.approx(
                expected, abs=1e-9)


def test_an_ideal_from_a_judged_pool_leaves_negative_grades_out():
    """negative='keep': a short ranking [3] against the judged pool {3, -1} is ideal (1.0),
    not 3 / (3 - 1/log2(3)) = 1.266, because an ideal ranker would not retrieve the -1."""
    qrels = pd.DataFrame({"qid": ["1", "1"], "docid": ["a", "b"], "relevance": [3, -1]})
    run = pd.DataFrame({"qid": ["1"], "docid": ["a"], "score": [1.0]})
    assert evaluate(qrels, run, k=2, negative="keep")["ndcg@2"].iloc[0] == 1.0
    assert ndcg([3], k=2, ideal=[3, -1], negative="keep") == 1.0
    # a ranking of its own items keeps the negative one, last: [3, -1] is ideal, [-1, 3] not
    assert ndcg([3, -1], k=2) == 1.0
    assert ndcg([-1, 3], k=2) == pytest.approx(
        (-1 / np.log2(2) + 3 / np.log2(3)) / (3 / np.log2(2) - 1 / np.log2(3)))


def random_frames(seed, nq=30, nd=40):
    """Judgments and a run with ties, unjudged retrieved documents, judged documents not
    retrieved, negative grades, a judged query not retrieved and a run query not judged."""
    rng = np.random.default_rng(seed)
    q = np.repeat([f"q{i}" for i in range(nq)], nd)
    d = np.tile([f"d{j}" for j in range(nd)], nq)
    judged = rng.random(q.size) < 0.6
    retrieved = rng.random(q.size) < 0.7
    qrels = pd.DataFrame({"qid": q[judged], "docid": d[judged],
                          "relevance": rng.choice([-1, 0, 0, 1, 2, 3], judged.sum())})
    run = pd.DataFrame({"qid": np.where(q == "q0", "q_unjudged", q)[retrieved],
                        "docid": d[retrieved],
                        "score": np.round(rng.random(retrieved.sum()), 1)})
    return qrels, run[run["qid"] != "q1"]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_key_table_and_sorted_lookup_give_the_same_figures(convention, seed, monkeypatch):
    """(query, document) pairs are looked up in a table when the input is dense enough,
    else by sorting; both routes must agree exactly, and name the same repeated row."""
    ranking_module = importlib.import_module("ndcg_core._ranking")  # holds the key table's size
    qrels, run = random_frames(seed)
    negative = "zero" if convention in ("sklearn", "xgboost", "lightgbm") else None
    kw = dict(k=(1, 3, 10, None), convention=convention, negative=negative, details=True,
              missing="zero")
    table = evaluate(qrels, run, **kw)
    monkeypatch.setattr(ranking_module, "_DENSE_SLACK", -10**12)  # never dense: the sorted route
    sorted_route = evaluate(qrels, run, **kw)
    pd.testing.assert_frame_equal(table, sorted_route)
    assert table.attrs == sorted_route.attrs
    # every judged query, the two absent from the run scored 0 (missing="zero")
    assert len(table) == 30 and table["ndcg@10"].between(0, 1).all()
    assert (table.loc[["q0", "q1"], "ndcg@10"] == 0).all()
    assert table.attrs["unjudged_queries"] == ["q_unjudged"]


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_a_repeated_pair_is_named_alike_by_both_routes(which, monkeypatch):
    ranking_module = importlib.import_module("ndcg_core._ranking")  # holds the key table's size
    qrels, run = random_frames(7)
    frame = qrels if which == "qrels" else run
    # row 50 is a line of q3, a judged query (the run opens with the unjudged q_unjudged)
    frame = pd.concat([frame, frame.iloc[[50]]], ignore_index=True)
    args = (frame, run) if which == "qrels" else (qrels, frame)
    with pytest.raises(ValueError) as dense_error:
        evaluate(*args)
    monkeypatch.setattr(ranking_module, "_DENSE_SLACK", -10**12)
    with pytest.raises(ValueError) as sorted_error:
        evaluate(*args)
    assert str(dense_error.value) == str(sorted_error.value)
    row = frame.iloc[50]
    assert f"lists docid {row['docid']!r} twice for qid {row['qid']!r}" in str(dense_error.value)


# ------------------------------------------------------------------ how ids are coded
# A large upload's ids are coded by Arrow without a Python str per id (issue 16: peak
# memory): few distinct ids are hashed, many are sorted. Every route, and every way a frame
# may hold its ids, must give the very same figures.

def all_results(qrels, run, convention):
    """evaluate, judged_at_k, ndcg_bounds and ranking of one input, for comparison."""
    negative = "zero" if convention in ("sklearn", "xgboost", "lightgbm") else None
    kw = dict(convention=convention, negative=negative)
    return (evaluate(qrels, run, k=(1, 3, 10, None), details=True, missing="zero", **kw),
            judged_at_k(qrels, run, k=(1, 10), **kw),
            ndcg_bounds(qrels, run, k=(3, None), **kw),
            ranking(qrels, run, **kw))


def assert_same(results, expected):
    for got, want in zip(results, expected):
        pd.testing.assert_frame_equal(got, want)
        assert got.attrs == want.attrs


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_ids_hashed_or_sorted_give_the_same_figures(convention, seed, monkeypatch):
    ids_module = importlib.import_module("ndcg_core._ids")  # codes the id columns
    qrels, run = random_frames(seed)
    monkeypatch.setattr(ids_module, "_SORT_ABOVE", 2.0)  # never sorted: every id column hashed
    hashed = all_results(qrels, run, convention)
    monkeypatch.setattr(ids_module, "_SORT_ABOVE", -1.0)  # always sorted
    assert_same(all_results(qrels, run, convention), hashed)


ARROW_DICTIONARY = pd.ArrowDtype(pa.dictionary(pa.int32(), pa.string()))


@pytest.mark.parametrize("dtype", ["category", ARROW_DICTIONARY, "string[python]", object],
                         ids=["category", "arrow-dictionary", "python-string", "object"])
@pytest.mark.parametrize("convention", ["trec_eval", "ranx", "sklearn"])
def test_dictionary_encoded_ids_give_the_same_figures(dtype, convention):
    """Ids held as categories (pandas or Arrow dictionaries) or as Python strings: the same
    figures as pandas' own text dtype, which the readers return."""
    qrels, run = random_frames(5)
    as_text = [f.assign(qid=f["qid"].astype(str), docid=f["docid"].astype(str))
               for f in (qrels, run)]
    coded = [f.assign(qid=f["qid"].astype(dtype), docid=f["docid"].astype(dtype))
             for f in (qrels, run)]
    assert_same(all_results(*coded, convention), all_results(*as_text, convention))


def test_ties_by_docid_follow_code_points_beyond_ascii():
    """trec_eval breaks a tie by doc id, descending, comparing bytes (strcmp): for UTF-8 that
    is code point order, which Python's str comparison follows too."""
    ids = ["a", "Z", "é", "日本", "\U0001F600", "\uffff", "z"]
    qrels, run = frames({"q": {d: 1 for d in ids}}, {"q": [(d, 1.0) for d in ids]})
    expected = sorted(ids, reverse=True)  # 😀 (U+1F600) > U+FFFF > 日 > é > z > a > Z
    assert ranking(qrels, run)["docid"].tolist() == expected


def test_ids_arrow_cannot_hold_are_coded_by_pandas_alike():
    """A lone surrogate (possible in a Python str, not in UTF-8) sends the column to pandas:
    still ranked by code point."""
    def text(*values):
        return pd.Series(values, dtype="string[python]")

    qrels = pd.DataFrame({"qid": text("q", "q"), "docid": text("a", "\ud800"),
                          "relevance": [2, 1]})
    run = pd.DataFrame({"qid": text("q", "q", "q"), "docid": text("b", "\ud800", "a"),
                        "score": [1.0, 1.0, 1.0]})
    # tied: doc ids descending, U+D800 > b > a, grades 1, 0, 2 at ranks 1-3:
    # DCG = 1 + 0 + 2/log2(4); the ideal, grades 2, 1: 2 + 1/log2(3)
    assert evaluate(qrels, run, k=None).loc["q", "ndcg"] == pytest.approx(
        2 / (2 + 1 / np.log2(3)), abs=1e-12)


# ------------------------------------------------------------------ id_codes, the public coding
# lab.runs codes ids for the data page's "What changed?" tab through id_codes: one coding for
# the engine and the page, Arrow's, never a Python str per document (issue 16).

def factorized_as_text(a, b):
    """The plain way: pandas factorizes both columns as text, sorted."""
    codes, vocabulary = pd.factorize(pd.concat([a.astype(str), b.astype(str)],
                                               ignore_index=True).to_numpy(object), sort=True)
    return codes[: len(a)], codes[len(a):], np.asarray(vocabulary, object)


@pytest.mark.parametrize("sort_above", [2.0, -1.0], ids=["hashed", "sorted"])
@pytest.mark.parametrize("seed", range(3))
def test_id_codes_equal_pandas_factorizing_the_ids_as_text(seed, sort_above, monkeypatch):
    ids_module = importlib.import_module("ndcg_core._ids")  # codes the id columns
    monkeypatch.setattr(ids_module, "_SORT_ABOVE", sort_above)
    qrels, run = random_frames(seed)
    for column in ("qid", "docid"):
        got = id_codes(qrels[column], run[column])
        for g, want in zip(got, factorized_as_text(qrels[column], run[column])):
            np.testing.assert_array_equal(g, want)
        ca, cb, n = id_codes(qrels[column], run[column], ids=False)
        np.testing.assert_array_equal(ca, got[0])
        np.testing.assert_array_equal(cb, got[1])
        assert n == len(got[2])


def test_id_codes_compare_numbers_and_strings_as_text():
    """Judgments read with integer query ids match a run's "7": evaluate's matching."""
    ca, cb, vocabulary = id_codes(pd.Series([7, 10]), pd.Series(["10", "7", "8"]))
    # as text, "10" < "7" < "8"
    assert vocabulary.tolist() == ["10", "7", "8"]
    assert ca.tolist() == [1, 0] and cb.tolist() == [0, 1, 2]


def test_id_codes_of_ids_arrow_cannot_hold_come_from_pandas_alike():
    a = pd.Series(["b", "\ud800"], dtype="string[python]")
    b = pd.Series(["\ud800", "a"], dtype="string[python]")
    ca, cb, vocabulary = id_codes(a, b)
    assert vocabulary.tolist() == ["a", "b", "\ud800"]  # code point order: U+D800 > b > a
    assert ca.tolist() == [1, 2] and cb.tolist() == [2, 0]


def test_the_engine_never_writes_to_the_frames_it_is_given():
    """The engine reads a float64 score or grade column in place (no copy of a large run's
    scores, issue 16), so it must never write to one: pandas' copy-on-write hands the
    arrays out read-only (a write raises), and with an older pandas the frames must still
    come back unchanged, each figure that of untouched copies."""
    qrels = pd.DataFrame({"qid": ["q1", "q1", "q1", "q2"], "docid": ["a", "b", "c", "a"],
                          "relevance": [2.0, 0.5, 1.0, -1.0]})
    run = pd.DataFrame({"qid": ["q1"] * 3 + ["q2"] * 2, "docid": ["c", "a", "x", "a", "b"],
                        "score": [3.0, 3.0, 1.0, 2.0, 2.0]})
    q, r = qrels.copy(deep=True), run.copy(deep=True)
    for convention in CONVENTIONS:
        options = dict(convention=convention, fractional="keep", negative="zero")
        got = [evaluate(q, r, k=(1, 2, None), **options), judged_at_k(q, r, k=(1, 2), **options),
               ndcg_bounds(q, r, k=(1, 2), **options), ranking(q, r, **options)]
        pd.testing.assert_frame_equal(q, qrels)
        pd.testing.assert_frame_equal(r, run)
        fresh = (qrels.copy(deep=True), run.copy(deep=True))
        want = [evaluate(*fresh, k=(1, 2, None), **options),
                judged_at_k(*fresh, k=(1, 2), **options),
                ndcg_bounds(*fresh, k=(1, 2), **options), ranking(*fresh, **options)]
        for a, b in zip(got, want):
            pd.testing.assert_frame_equal(a, b)
