"""Every ValueError the engine raises, with the words a user reads."""

import io

import numpy as np
import pandas as pd
import pytest

from ndcg_core import (
    average_precision,
    cg,
    dcg,
    dcg_table,
    evaluate,
    idcg,
    mean_reciprocal_rank,
    ndcg,
    ndcg_curve,
    precision_at_k,
    read_qrels,
    read_run,
    reciprocal_rank,
)

# every function that takes a relevance list first
RANKED = [dcg, idcg, ndcg, dcg_table, ndcg_curve, cg]


# ------------------------------------------------------------------ grades

@pytest.mark.parametrize("fn", RANKED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("grades, message", [
    ([3, float("nan"), 1], r"relevance at position 2 is nan: every value must be a finite"),
    ([3, 1, float("inf")], r"relevance at position 3 is inf: every value must be a finite"),
    (np.array([1.0, -np.inf]), r"relevance at position 2 is -inf"),
    ([3, "2", 1], r"relevance at position 2 is '2', not a number"),
    ("3 2 1", r"relevance must be a list of numbers; got '3 2 1'"),
    ([1, True, 0], r"relevance at position 2 is True, a boolean"),
    ([np.True_, 0], r"relevance at position 1 is np\.True_, a boolean"),
    (np.array([True, False]), r"relevance at position 1 is True, a boolean"),
    (None, r"relevance must be a list of numbers; got None"),
    ([1, None], r"relevance at position 2 is None, not a number"),
    ([], r"relevance is empty: give at least one grade"),
    (np.array([]), r"relevance is empty"),
    ([[3, 2], [1, 0]], r"relevance must be a flat list of numbers; got shape \(2, 2\)"),
    (3, r"relevance must be a list of numbers; got 3"),
    ({"a": 1}, r"relevance must be a list of numbers"),
    ([10 ** 400], r"relevance at position 1 is too large for a float"),
], ids=["nan", "inf", "minus-inf", "string-item", "string", "bool", "numpy-bool",
        "bool-array", "None", "None-item", "empty", "empty-array", "2-D", "scalar", "dict",
        "huge-int"])
def test_bad_grades_are_refused_naming_the_position(fn, grades, message):
    with pytest.raises(ValueError, match=message):
        fn(grades)


def test_negative_grade_refused_with_negative_error():
    with pytest.raises(ValueError, match=r"relevance at position 2 is -1, a negative grade, "
                                         r"refused with negative='error'"):
        ndcg([3, -1, 2], negative="error")
    assert ndcg([3, -1, 2], negative="zero") == ndcg([3, 0, 2])  # the advertised way out


def test_exponential_gain_refuses_grades_that_overflow():
    with pytest.raises(ValueError, match=r"relevance at position 2 is 2000: with exponential "
                                         r"gain 2\^2000 − 1 overflows a float"):
        ndcg([1, 2000], gain="exponential")
    assert np.isfinite(dcg([1023], gain="exponential"))  # the largest grade allowed


def test_gain_mapping_must_cover_every_grade():
    with pytest.raises(ValueError, match=r"relevance at position 3 is 2, a grade the gain "
                                         r"mapping does not cover \(it maps \[0, 1\]\)"):
        ndcg([1, 0, 2], gain={0: 0, 1: 1})
    with pytest.raises(ValueError, match=r"ideal at position 1 is 4, a grade the gain mapping"):
        ndcg([1, 0], ideal=[4, 1], gain={0: 0, 1: 1})


def test_gain_mapping_values_must_be_numbers():
    with pytest.raises(ValueError, match=r"gain mapping values at position 1 is 'x', not a "
                                         r"number"):
        ndcg([1, 0], gain={0: 0, 1: "x"})
    with pytest.raises(ValueError, match=r"gain mapping values at position 2 is None"):
        ndcg([1, 0], gain={0: None, 1: 1})


# ------------------------------------------------------------------ options

@pytest.mark.parametrize("keyword, value, message", [
    ("gain", "expo", r"gain must be one of 'linear', 'exponential' or a mapping grade -> "
                     r"gain; got 'expo'"),
    ("ties", "random", r"ties must be one of 'average', 'docid', 'input', 'ranx', "
                       r"'optimistic', 'pessimistic'; got 'random'"),
    ("zero_idcg", "maybe", r"zero_idcg must be one of 'zero', 'nan', 'one' \(or the numbers "
                           r"0\.0, 1\.0, nan\); got 'maybe'"),
    ("zero_idcg", 0.5, r"zero_idcg must be one of .*; got 0\.5"),
    ("zero_idcg", True, r"zero_idcg must be one of .*; got True"),
    ("discount", "log10", r"discount must be one of 'log2', 'ln', 'jarvelin'; got 'log10'"),
    ("negative", "clip", r"negative must be one of 'keep', 'zero', 'error'; got 'clip'"),
])
def test_bad_option_values_name_the_choices(keyword, value, message):
    kw = {keyword: value}
    if keyword == "ties":
        kw["scores"] = [1, 1, 0]
    with pytest.raises(ValueError, match=message):
        ndcg([3, 2, 1], **kw)


@pytest.mark.parametrize("k, message", [
    (0, r"k must be at least 1 \(the top k positions\); got 0"),
    (-1, r"k must be at least 1 \(the top k positions\); got -1"),
    (2.5, r"k must be a whole number of at least 1, or None; got 2\.5"),
    (True, r"k must be a whole number of at least 1, or None; got True"),
    ("3", r"k must be a whole number of at least 1, or None; got '3'"),
    (3.0, r"k must be a whole number of at least 1, or None; got 3\.0"),
])
@pytest.mark.parametrize("fn", [dcg, idcg, ndcg, dcg_table, cg, reciprocal_rank,
                                average_precision], ids=lambda f: f.__name__)
def test_bad_cutoffs_are_refused(fn, k, message):
    with pytest.raises(ValueError, match=message):
        fn([3, 2, 1], k=k)


def test_bad_cutoff_refused_by_precision_at_k():
    with pytest.raises(ValueError, match=r"k must be at least 1"):
        precision_at_k([1, 0], k=0)


def test_numpy_integer_cutoff_is_accepted():
    assert ndcg([3, 2, 1], k=np.int64(2)) == ndcg([3, 2, 1], k=2)


@pytest.mark.parametrize("base", [1, 0.5, -2, float("nan"), float("inf"), "2", True])
def test_jarvelin_base_must_be_greater_than_1(base):
    with pytest.raises(ValueError, match=r"base must be a number greater than 1; got"):
        dcg([3, 2, 1, 1], discount="jarvelin", base=base)


# ------------------------------------------------------------------ scores, ids, ideal

def test_scores_must_match_the_relevance_length():
    with pytest.raises(ValueError, match=r"scores has 2 values but relevance has 3: give one "
                                         r"score per item"):
        ndcg([3, 2, 1], scores=[0.5, 0.1])


def test_scores_are_checked_like_grades():
    with pytest.raises(ValueError, match=r"scores at position 2 is nan"):
        ndcg([3, 2, 1], scores=[0.5, float("nan"), 0.1])


def test_ties_docid_needs_docids():
    with pytest.raises(ValueError, match=r"ties='docid' needs docids=\[\.\.\.\], one id per "
                                         r"item"):
        ndcg([3, 2, 1], scores=[1, 1, 0], ties="docid")
    with pytest.raises(ValueError, match=r"docids has 2 ids but relevance has 3"):
        ndcg([3, 2, 1], scores=[1, 1, 0], ties="docid", docids=["a", "b"])


def test_ideal_pool_must_hold_every_graded_item_of_the_ranking():
    with pytest.raises(ValueError, match=r"ideal holds 0 item\(s\) of grade 3 but the ranking "
                                         r"has 1"):
        ndcg([3, 2, 0], ideal=[2, 2, 1])
    with pytest.raises(ValueError, match=r"ideal holds 1 item\(s\) of grade 2 but the ranking "
                                         r"has 2"):
        ndcg_curve([2, 2], ideal=[2, 1])


def test_labels_must_match_the_relevance_length():
    with pytest.raises(ValueError, match=r"labels has 2 entries but relevance has 3"):
        dcg_table([3, 2, 1], labels=["a", "b"])


# ------------------------------------------------------------------ other metrics

@pytest.mark.parametrize("threshold", [float("nan"), float("inf"), "1", None, True])
def test_threshold_must_be_a_finite_number(threshold):
    with pytest.raises(ValueError, match=r"threshold must be a finite number; got"):
        precision_at_k([1, 0], k=1, threshold=threshold)


@pytest.mark.parametrize("rank", [2.5, -1, "3", True, float("nan")])
def test_mrr_ranks_must_be_whole_numbers_of_at_least_1(rank):
    with pytest.raises(ValueError, match=r"ranks at position 2 is .*: a rank is a whole "
                                         r"number ≥ 1"):
        mean_reciprocal_rank(ranks=[1, rank])


def test_mrr_needs_exactly_one_of_rankings_and_ranks():
    with pytest.raises(ValueError, match=r"give either rankings=\[\.\.\.\] or ranks=\[\.\.\.\], "
                                         r"not both or neither"):
        mean_reciprocal_rank()
    with pytest.raises(ValueError, match=r"not both or neither"):
        mean_reciprocal_rank([[1]], ranks=[1])
    with pytest.raises(ValueError, match=r"no queries given: MRR needs at least one"):
        mean_reciprocal_rank(ranks=[])


def test_average_precision_n_relevant_must_cover_the_list():
    with pytest.raises(ValueError, match=r"n_relevant is 1 but the list holds 2 relevant "
                                         r"items"):
        average_precision([1, 0, 1], n_relevant=1)
    for bad in ["3", 2.5, True]:
        with pytest.raises(ValueError, match=r"n_relevant must be a whole number"):
            average_precision([1, 0, 1], n_relevant=bad)


# ------------------------------------------------------------------ files

def read_bytes(reader, data):
    return reader(io.BytesIO(data))


@pytest.mark.parametrize("reader", [read_qrels, read_run], ids=lambda f: f.__name__)
@pytest.mark.parametrize("data, message", [
    (b"", r"the file is empty: it holds no lines to read"),
    (b"  \n\n\t\n", r"the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", r"the file is not a text file \(it holds "
                                             r"binary data\)"),
    (b"1 0 caf\xe9 1\n", r"the file is not UTF-8 text \(line 1, byte 7 cannot be decoded\)"),
], ids=["0-bytes", "blank", "binary", "latin-1"])
def test_unreadable_files_are_refused(reader, data, message):
    with pytest.raises(ValueError, match=message):
        read_bytes(reader, data)


def test_empty_file_on_disk_is_named(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=rf"{path.name} is empty"):
        read_qrels(path)


def test_qrels_line_with_wrong_field_count_is_named_and_shown():
    with pytest.raises(ValueError, match=r"line 3: expected 4 fields \(qid iteration docid "
                                         r"relevance\), found 3: '1 0 d3'"):
        read_qrels(io.StringIO("1 0 d1 1\n1 0 d2 0\n1 0 d3\n"))
    with pytest.raises(ValueError, match=r"line 2: expected 4 fields .* found 5: '1 0 d2 1 x'"):
        read_qrels(io.StringIO("1 0 d1 1\n1 0 d2 1 x\n"))


def test_run_line_with_too_few_fields_is_named_and_shown():
    with pytest.raises(ValueError, match=r"line 2: expected 6 fields \(qid Q0 docid rank score "
                                         r"tag\), found 5: '1 Q0 d2 2 0.5'"):
        read_run(io.StringIO("1 Q0 d1 1 0.9 run\n1 Q0 d2 2 0.5\n"))


def test_non_numeric_grade_or_score_names_the_line():
    with pytest.raises(ValueError, match=r"line 3: relevance is 'high', expected a finite "
                                         r"number"):
        read_qrels(io.StringIO("1 0 d1 1\n\n1 0 d2 high\n"))
    with pytest.raises(ValueError, match=r"line 2: score is 'nan', expected a finite number"):
        read_run(io.StringIO("1 Q0 d1 1 0.9 run\n1 Q0 d2 2 nan run\n"))
    with pytest.raises(ValueError, match=r"line 3: relevance is 'x', expected a finite number"):
        read_qrels(io.StringIO("qid,docid,relevance\n1,d1,1\n1,d2,x\n"))


def test_csv_missing_a_column_says_which():
    with pytest.raises(ValueError, match=r"has columns \['qid', 'docid', 'score'\] but needs "
                                         r"\['qid', 'docid', 'relevance'\] \(missing "
                                         r"\['relevance'\]\)"):
        read_qrels(io.StringIO("qid,docid,score\n1,d1,0.5\n"))
    with pytest.raises(ValueError, match=r"missing \['score'\]"):
        read_run(io.StringIO("qid,docid,relevance\n1,d1,1\n"))


def test_csv_without_header_asks_for_one():
    with pytest.raises(ValueError, match=r"looks like CSV but its first line is not a header: "
                                         r"start it with 'qid,docid,relevance'"):
        read_qrels(io.StringIO("1,d1,1\n1,d2,0\n"))
    with pytest.raises(ValueError, match=r"start it with 'qid,docid,score'"):
        read_run(io.StringIO("1,d1,0.5\n"))


def test_csv_row_with_an_extra_field_is_named_not_shifted():
    """pandas would take the first column as an index and shift every column left."""
    with pytest.raises(ValueError, match=r"line 2: expected 3 fields as in the header, found 4: "
                                         r"'q1,d1,1,5'"):
        read_qrels(io.StringIO("qid,docid,relevance\nq1,d1,1,5\nq2,d2,2\n"))
    with pytest.raises(ValueError, match=r"not a well-formed CSV file: .*line 3"):
        read_qrels(io.StringIO("qid,docid,relevance\nq1,d1,1\nq2,d2,2,7\n"))


def test_csv_row_with_an_empty_id_is_named():
    with pytest.raises(ValueError, match=r"line 2: docid is empty"):
        read_run(io.StringIO("qid,docid,score\nq1,,0.5\n"))


def test_reader_refuses_something_that_is_not_a_file():
    with pytest.raises(ValueError, match=r"expected a file path or an open file; got int"):
        read_qrels(42)


# ------------------------------------------------------------------ evaluate

def qrels_frame(**columns):
    return pd.DataFrame({"qid": ["1", "1"], "docid": ["a", "b"], "relevance": [1, 0],
                         **columns})


def run_frame(**columns):
    return pd.DataFrame({"qid": ["1", "1"], "docid": ["a", "b"], "score": [0.5, 0.9],
                         **columns})


def test_evaluate_names_missing_columns():
    with pytest.raises(ValueError, match=r"qrels lacks column\(s\) \['relevance'\]: it needs "
                                         r"\['qid', 'docid', 'relevance'\]"):
        evaluate(qrels_frame().drop(columns="relevance"), run_frame())
    with pytest.raises(ValueError, match=r"run lacks column\(s\) \['score'\]"):
        evaluate(qrels_frame(), run_frame().rename(columns={"score": "rank"}))


def test_evaluate_wants_data_frames():
    with pytest.raises(ValueError, match=r"qrels must be a pandas DataFrame .*; got dict"):
        evaluate({"qid": ["1"]}, run_frame())


def test_evaluate_refuses_a_document_listed_twice_for_a_query():
    qrels = pd.DataFrame({"qid": ["1", "1", "1"], "docid": ["a", "b", "a"],
                          "relevance": [1, 0, 2]})
    with pytest.raises(ValueError, match=r"qrels lists docid 'a' twice for qid '1' \(row 3\)"):
        evaluate(qrels, run_frame())
    run = pd.DataFrame({"qid": ["1", "1"], "docid": ["b", "b"], "score": [0.5, 0.9]})
    with pytest.raises(ValueError, match=r"run lists docid 'b' twice for qid '1' \(row 2\)"):
        evaluate(qrels_frame(), run)


def test_evaluate_refuses_non_numeric_relevance_and_scores():
    with pytest.raises(ValueError, match=r"qrels row 2 \(qid '1', docid 'b'\) has relevance "
                                         r"high: it must be a finite number"):
        evaluate(qrels_frame(relevance=["1", "high"]), run_frame())
    with pytest.raises(ValueError, match=r"run row 1 \(qid '1', docid 'a'\) has score nan: it "
                                         r"must be a finite number"):
        evaluate(qrels_frame(), run_frame(score=[np.nan, 1.0]))
    with pytest.raises(ValueError, match=r"run row 2 \(qid '1', docid 'b'\) has score inf"):
        evaluate(qrels_frame(), run_frame(score=[1.0, np.inf]))


@pytest.mark.parametrize("frame, column", [("qrels", "qid"), ("qrels", "docid"),
                                           ("run", "qid"), ("run", "docid")])
@pytest.mark.parametrize("blank", [None, np.nan], ids=["None", "nan"])
def test_evaluate_refuses_a_missing_id_naming_its_row(frame, column, blank):
    """A missing id must not be coded as some other document or query."""
    frames = {"qrels": qrels_frame(), "run": run_frame()}
    frames[frame][column] = pd.Series(["1" if column == "qid" else "a", blank], dtype=object)
    with pytest.raises(ValueError, match=rf"{frame} row 2 has no {column} \(the cell is "
                                         r"empty\): every row needs a qid and a docid"):
        evaluate(frames["qrels"], frames["run"])


def test_evaluate_refuses_an_unknown_convention():
    with pytest.raises(ValueError, match=r"convention must be one of \['lightgbm', "
                                         r"'pytrec_eval', 'ranx', 'sklearn', 'trec_eval', "
                                         r"'xgboost'\]; got 'terrier'"):
        evaluate(qrels_frame(), run_frame(), convention="terrier")


def test_evaluate_refuses_an_empty_list_of_cutoffs():
    with pytest.raises(ValueError, match=r"k is empty: give at least one cutoff"):
        evaluate(qrels_frame(), run_frame(), k=[])


@pytest.mark.parametrize("k, shown", [(0, "0"), (-5, "-5"), (2.5, "2.5"), (True, "True"),
                                      ([5, 0], "0"), ("10", "'10'"), (["5", 10], "'5'")])
def test_evaluate_refuses_bad_cutoffs_naming_them_as_given(k, shown):
    with pytest.raises(ValueError, match=rf"k must be .*; got {shown}\."):
        evaluate(qrels_frame(), run_frame(), k=k)


@pytest.mark.parametrize("keyword, value", [("gain", "expo"), ("ties", "random"),
                                            ("zero_idcg", "maybe"), ("negative", "clip"),
                                            ("ideal_pool", "all"), ("missing", "drop"),
                                            ("discount", "log10")])
def test_evaluate_refuses_bad_option_values(keyword, value):
    with pytest.raises(ValueError, match=rf"{keyword} must be one of .*; got '{value}'"):
        evaluate(qrels_frame(), run_frame(), **{keyword: value})


def test_evaluate_refuses_negative_grades_with_negative_error():
    with pytest.raises(ValueError, match=r"qrels row 2 \(qid '1', docid 'b'\) has negative "
                                         r"grade -1, refused by negative='error'"):
        evaluate(qrels_frame(relevance=[1, -1]), run_frame(), negative="error")


def test_evaluate_gain_mapping_and_overflow():
    with pytest.raises(ValueError, match=r"is 1, a grade the gain mapping does not cover"):
        evaluate(qrels_frame(), run_frame(), gain={0: 0})
    with pytest.raises(ValueError,
                       match=r"is 2000: with exponential gain 2\^2000 − 1 overflows a float"):
        evaluate(qrels_frame(relevance=[2000, 0]), run_frame(), gain="exponential")


def test_non_utf8_byte_is_located_by_line():
    data = b"1 0 a 1\n1 0 b 0\n1 0 caf\xe9 1\n"  # 8 + 8 + 7 bytes before the bad one
    with pytest.raises(ValueError, match=r"not UTF-8 text \(line 3, byte 23 cannot be decoded\)"):
        read_qrels(io.BytesIO(data))
