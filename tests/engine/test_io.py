"""read_qrels / read_run on the inputs users bring: TREC files with any whitespace, runs with
trailing junk, CSV with a header, file objects and paths. Ids stay strings."""

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ndcg_core import evaluate, read_qrels, read_run

from reference_data import TREC_EVAL_TEST as TREC


def as_rows(df):
    return [tuple(row) for row in df.itertuples(index=False)]


def test_trec_qrels_with_tabs_and_runs_of_spaces():
    text = "007\t0   d01 \t 2\n\n007 0  d02\t0\n  8 0 d01 1\n"
    qrels = read_qrels(io.StringIO(text))
    assert list(qrels.columns) == ["qid", "docid", "relevance"]
    assert as_rows(qrels) == [("007", "d01", 2), ("007", "d02", 0), ("8", "d01", 1)]


def test_ids_stay_strings_with_their_leading_zeros():
    qrels = read_qrels(io.StringIO("007 0 0042 1\n"))
    run = read_run(io.StringIO("007 Q0 0042 1 3.5 tag\n"))
    assert qrels.loc[0, "qid"] == "007" and qrels.loc[0, "docid"] == "0042"
    assert run.loc[0, "qid"] == "007" and run.loc[0, "docid"] == "0042"
    csv = read_qrels(io.StringIO("qid,docid,relevance\n007,0042,1\n"))
    assert as_rows(csv) == [("007", "0042", 1)]


def test_trec_run_ignores_rank_and_tag_and_reads_scores_as_floats():
    run = read_run(io.StringIO("1 Q0 a 7 0.25 sysA\n1\tQ0\tb\t1\t-3\tsysA\n"))
    assert list(run.columns) == ["qid", "docid", "score"]
    assert as_rows(run) == [("1", "a", 0.25), ("1", "b", -3.0)]
    assert run["score"].dtype == "float64"


def test_trec_run_with_trailing_junk_fields_reads_like_trec_eval():
    """results.trunc has extra words after the tag on some lines; trec_eval ignores them."""
    run = read_run(TREC / "results.trunc")
    assert len(run) == 584
    assert as_rows(run.head(2)) == [("301", "FBIS3-27619", 2.138276),
                                    ("303", "FT941-17652", 1.857372)]
    assert sorted(run["qid"].unique()) == ["301", "303"]


def test_qrels_grades_come_back_as_numbers():
    assert read_qrels(io.StringIO("1 0 a 2\n1 0 b -1\n"))["relevance"].tolist() == [2, -1]
    assert read_qrels(io.StringIO("1 0 a 1.5\n1 0 b 0\n"))["relevance"].tolist() == [1.5, 0]


def test_csv_with_header_in_any_column_order_and_aliases():
    qrels = read_qrels(io.StringIO("doc_id,query,grade\nd1,q1,3\nd2,q1,0\n"))
    assert as_rows(qrels) == [("q1", "d1", 3), ("q1", "d2", 0)]
    run = read_run(io.StringIO("qid,docid,score\nq1, d1 ,0.5\n\nq1,d2,0.25\n"))
    assert as_rows(run) == [("q1", "d1", 0.5), ("q1", "d2", 0.25)]


def test_whitespace_separated_file_with_a_header_reads_as_a_table():
    qrels = read_qrels(io.StringIO("qid docid relevance\nq1 d1 2\n"))
    assert as_rows(qrels) == [("q1", "d1", 2)]


def test_one_combined_csv_serves_as_both_qrels_and_run():
    text = "qid,docid,relevance,score\nq1,d1,3,0.2\nq1,d2,0,0.9\nq2,d1,1,0.5\n"
    qrels, run = read_qrels(io.StringIO(text)), read_run(io.StringIO(text))
    assert as_rows(qrels) == [("q1", "d1", 3), ("q1", "d2", 0), ("q2", "d1", 1)]
    assert as_rows(run) == [("q1", "d1", 0.2), ("q1", "d2", 0.9), ("q2", "d1", 0.5)]
    res = evaluate(qrels, run, k=None)
    assert res.loc["q2", "ndcg"] == 1.0
    assert res.loc["q1", "ndcg"] == pytest.approx((0 + 3 / 1.584962500721156) / 3, abs=1e-12)


@pytest.mark.parametrize("make", [
    lambda t: io.BytesIO(t.encode()),
    lambda t: io.StringIO(t),
    lambda t: io.BytesIO(b"\xef\xbb\xbf" + t.encode()),  # a UTF-8 byte order mark
    lambda t: io.BytesIO(t.replace("\n", "\r\n").encode()),  # Windows line ends
], ids=["bytes", "text", "bom", "crlf"])
@pytest.mark.parametrize("text", ["q1 0 d1 2\nq1 0 d2 0\n",
                                  "qid,docid,relevance\nq1,d1,2\nq1,d2,0\n"],
                         ids=["trec", "csv"])
def test_file_objects_of_every_kind_read_the_same(make, text):
    assert as_rows(read_qrels(make(text))) == [("q1", "d1", 2), ("q1", "d2", 0)]


def test_a_file_object_is_read_from_its_start_again():
    """Streamlit hands the same upload to every rerun: reading twice must work."""
    upload = io.BytesIO(b"q1 Q0 d1 1 0.5 t\n")
    assert as_rows(read_run(upload)) == as_rows(read_run(upload)) == [("q1", "d1", 0.5)]


def test_paths_as_str_and_pathlib(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4 t\n", encoding="utf-8")
    assert as_rows(read_run(path)) == as_rows(read_run(str(path))) == [
        ("q1", "d1", 0.5), ("q1", "d2", 0.4)]


def test_non_ascii_ids_survive():
    run = read_run(io.BytesIO("q1 Q0 café 1 0.5 t\n".encode("utf-8")))
    assert run.loc[0, "docid"] == "café"


def test_reference_files_read_completely():
    qrels, run = read_qrels(TREC / "qrels.test"), read_run(TREC / "results.test")
    assert len(qrels) == 3681 and len(run) == 1500
    assert set(read_qrels(TREC / "qrels.rel_level")["relevance"]) == {-1, 0, 1, 2, 3, 4}
    assert isinstance(qrels, pd.DataFrame) and qrels["qid"].map(type).eq(str).all()


# A large file path goes to pandas whole (pandas splits it across threads); everything else
# is read into memory first. Both routes must give the same frame or the same message.
ROUTE_CASES = [
    ("run", "007 Q0 0042 1 3.5 tag\n007 Q0 0043 2 3 tag\n"),
    ("run", "1 Q0 a 7 0.25 sysA\n1\tQ0\tb\t1\t-3\tsysA   extra words\n"),
    ("run", "1 Q0 a 7 0.25 sysA extra\n1 Q0 b 1 -3 sysA\n"),
    ("run", "1 Q0 NA 1 0.5 t\n1 Q0 null 2 0.4 t\n"),
    ("run", "1 Q0 a 1 0.5 t\nNA Q0 b 2 0.4 t\n1 Q0 c 3 0.3 t\n"),
    ("run", "1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4\n"),
    ("run", "1 Q0 a 1 0.5 t\n1 Q0 b 2 high t\n"),
    ("run", "1 Q0 a 1 0.5 t\n1 Q0 b 2 nan t\n"),
    ("run", "1.0 Q0 1e3 1 0.5 t\n+1 Q0 -0 2 0.4 t\n"),
    ("qrels", "007\t0   d01 \t 2\n\n007 0  d02\t0\n  8 0 d01 1\n"),
    ("qrels", "1 0 a 2\n1 0 b 1 x\n"),
    ("qrels", "1 0 a 2 x\n1 0 b 1\n"),
    ("qrels", "1 0 a 2\n1 0 b\n"),
    ("qrels", "1 0 0001 1.5\n1 0 0002 -1\n"),
    ("qrels", "q 0 d 1\r\nq 0 e 0\r\n"),
]


def outcome(reader, source):
    try:
        return as_rows(reader(source))
    except ValueError as exc:
        return str(exc).replace(str(source), "FILE")


@pytest.mark.parametrize("kind, text", ROUTE_CASES)
def test_large_file_route_reads_exactly_like_the_in_memory_route(kind, text, tmp_path,
                                                                 monkeypatch):
    import ndcg_core._trec as trec
    reader = read_qrels if kind == "qrels" else read_run
    path = tmp_path / "f.txt"
    path.write_bytes(text.encode("utf-8"))
    in_memory = outcome(reader, path)
    from_buffer = outcome(reader, io.BytesIO(text.encode()))
    if isinstance(from_buffer, str):
        from_buffer = from_buffer.replace("the file", "FILE")
    assert in_memory == from_buffer
    monkeypatch.setattr(trec, "_BIG", 0)
    # the large-file route really is taken, unless the file holds what pandas' tokenizer
    # reads differently from trec_eval (# comments, VT, FF, a lone CR): those read bytes
    plain = not any(c in text for c in "#\x0b\x0c") and text.count("\r") == text.count("\r\n")
    assert trec._big_path(path)[0] == (str(path) if plain else None)
    assert outcome(reader, path) == in_memory


def big_run(tmp_path, tail=""):
    """A run over 8 MB (pandas reads it on threads) whose first half has numeric docids with
    leading zeros and whose second half has textual ones."""
    half = 160_000
    lines = [f"{q // 1000:03d} Q0 {q % 1000:05d} {q % 1000 + 1} {q % 997 / 997:.6f} sys\n"
             for q in range(half)]
    lines += [f"{q // 1000:03d} Q0 D{q % 1000} {q % 1000 + 1} {q % 991 / 991:.6f} sys\n"
              for q in range(half, 2 * half)]
    path = tmp_path / "big.txt"
    path.write_text("".join(lines) + tail, encoding="utf-8")
    return path, lines


@pytest.mark.parametrize("as_upload", [False, True], ids=["path", "upload"])
def test_a_large_run_keeps_leading_zeros_in_every_chunk(tmp_path, as_upload):
    """pandas reads a big file in chunks (threads for a path, low_memory blocks for a
    buffer) and infers each chunk's types alone: "00001" must not come back as "1"."""
    import ndcg_core._trec as trec
    path, lines = big_run(tmp_path)
    assert path.stat().st_size > trec._BIG
    run = read_run(io.BytesIO(path.read_bytes()) if as_upload else path)
    assert len(run) == len(lines)
    assert as_rows(run.iloc[[0, 1, len(lines) - 1]]) == [
        ("000", "00000", 0.0), ("000", "00001", round(1 / 997, 6)),
        ("319", "D999", round(319999 % 991 / 991, 6))]
    assert run["docid"].str.startswith("0").sum() == 160_000
    assert str(run["qid"].dtype) == str(run["docid"].dtype) == "str"


def fresh(text):
    """An equal but separate str object (Python shares only some short strings)."""
    return "".join(list(text)) if len(text) > 1 else text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["1", "007", "q12", "Tópico 9", ""]),
                          st.integers(1, 4), st.booleans()), min_size=1, max_size=30))
def test_qids_become_text_exactly_as_astype_str_whatever_objects_hold_them(runs):
    """The parser shares one str object among nearby equal ids and ``_as_text`` finds runs
    by object identity: shared objects, separate equal objects and runs broken by another
    id must all give what ``astype(str)`` gives."""
    from ndcg_core._trec import _as_text
    values = []
    for text, repeat, shared in runs:
        obj = fresh(text)
        values += [obj if shared else fresh(text) for _ in range(repeat)]
    values = np.array(values, dtype=object)
    got = _as_text(values)
    want = pd.Series(values).astype(str)
    assert got.dtype == want.dtype
    assert got.tolist() == want.tolist() == [str(v) for v in values]


@pytest.mark.parametrize("values", [[fresh("q1"), np.nan], [np.nan, np.nan],
                                    ["q1", None, "q1"]])
def test_a_missing_qid_is_found_even_inside_a_run(values):
    from ndcg_core._trec import _as_text
    shared = fresh("q7")
    assert _as_text(np.array([shared, shared] + values + [shared], dtype=object)) is None
    assert _as_text(np.array([shared, shared], dtype=object)).tolist() == ["q7", "q7"]


def test_a_bad_line_at_the_end_of_a_large_run_is_named(tmp_path):
    path, lines = big_run(tmp_path, tail="319 Q0 D5 1 oops sys\n")
    with pytest.raises(ValueError, match=rf"line {len(lines) + 1}: score is 'oops', "
                                         "expected a finite number"):
        read_run(path)


# ------------------------------------------------------------------ read as trec_eval reads
# trec_eval (get_qrels.c, get_trec_results.c) splits a line on C's isspace() and nothing
# else: no quoting, no missing-value words. pytrec_eval takes dicts, so handing it the ids
# exactly as trec_eval tokenizes them checks the figure trec_eval would print. Every file in
# this section was also run through trec_eval 10.0-rc3 (built from usnistgov/trec_eval
# f425365; `trec_eval -q -m ndcg_cut.5 qrels run`): it prints the values asserted here.

def pytrec_ndcg_cut_5(qrels, run):
    import pytrec_eval
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5"})
    return {q: v["ndcg_cut_5"] for q, v in evaluator.evaluate(run).items()}


def test_double_quotes_are_ordinary_characters_as_in_trec_eval():
    """Issue 14: pandas' quoting stripped the quotes of "d1" in the run, so it missed the
    judged "d1" and NDCG@5 read 0.0; trec_eval gives 1.0."""
    qrels = read_qrels(io.BytesIO(b'q1 0 "d1" 1\nq1 0 nan 0\n'))
    run = read_run(io.BytesIO(b'q1 Q0 "d1" 1 2.0 t\nq1 Q0 d2 2 1.0 t\n'))
    assert as_rows(qrels) == [("q1", '"d1"', 1), ("q1", "nan", 0)]
    assert as_rows(run) == [("q1", '"d1"', 2.0), ("q1", "d2", 1.0)]
    # the relevant "d1" (grade 1) ranks first: DCG@5 = 1/log2(2) = IDCG@5
    assert evaluate(qrels, run, k=5).loc["q1", "ndcg@5"] == 1.0
    assert pytrec_ndcg_cut_5({"q1": {'"d1"': 1, "nan": 0}},
                             {"q1": {'"d1"': 2.0, "d2": 1.0}}) == {"q1": 1.0}


def test_a_quoted_id_and_the_bare_id_are_two_ids():
    """"q" and q were both read as q, then refused as a duplicate run line."""
    run = read_run(io.BytesIO(b'"q" Q0 d 1 1 t\nq Q0 d 1 1 t\n'))
    assert as_rows(run) == [('"q"', "d", 1.0), ("q", "d", 1.0)]
    qrels = read_qrels(io.BytesIO(b'"q" 0 d 1\nq 0 d 0\nq 0 "d" 2\n'))
    assert as_rows(qrels) == [('"q"', "d", 1), ("q", "d", 0), ("q", '"d"', 2)]
    res = evaluate(qrels, run, k=5)  # no duplicate: one line for each of the two queries
    assert res.loc['"q"', "ndcg@5"] == 1.0  # d, grade 1, first
    # q: d (grade 0) is retrieved, "d" (grade 2) is not: DCG@5 = 0, IDCG@5 = 2/log2(2)
    assert res.loc["q", "ndcg@5"] == 0.0


def test_an_unbalanced_quote_stays_inside_its_line():
    """pandas merged the three lines into one row with a multi-line docid (NDCG 0.0)."""
    run = read_run(io.BytesIO(b'q1 Q0 "a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c" 3 1 t\n'))
    assert as_rows(run) == [("q1", '"a', 3.0), ("q1", "b", 2.0), ("q1", 'c"', 1.0)]
    qrels = read_qrels(io.BytesIO(b'q1 0 "a 1\nq1 0 b 2\nq1 0 c" 1\n'))
    # ranked "a, b, c" with grades 1, 2, 1; ideal 2, 1, 1
    dcg = 1 / np.log2(2) + 2 / np.log2(3) + 1 / np.log2(4)
    idcg = 2 / np.log2(2) + 1 / np.log2(3) + 1 / np.log2(4)
    assert evaluate(qrels, run, k=5).loc["q1", "ndcg@5"] == pytest.approx(dcg / idcg, abs=1e-12)
    assert round(dcg / idcg, 4) == 0.8821
    assert pytrec_ndcg_cut_5({"q1": {'"a': 1, "b": 2, 'c"': 1}},
                             {"q1": {'"a': 3.0, "b": 2.0, 'c"': 1.0}})["q1"] == pytest.approx(
        dcg / idcg, abs=1e-12)


def test_comment_lines_are_skipped_as_trec_eval_10_does():
    """A line whose first non-blank character is # is a comment; a # inside a field is
    part of the id."""
    run = read_run(io.BytesIO(b"# run of system A\n#\n q1 Q0 d#1 1 2.0 t\n   # indented, a b c d "
                              b"e f g\n\nq1 Q0 #d2 2 1.0 t # trailing words are ignored\n"))
    assert as_rows(run) == [("q1", "d#1", 2.0), ("q1", "#d2", 1.0)]
    qrels = read_qrels(io.BytesIO(b"#qid iter docno rel\nq1 0 d#1 1\n# two\n# in a row\n"
                                  b"q1 0 #d2 0\n#last line, no newline"))
    assert as_rows(qrels) == [("q1", "d#1", 1), ("q1", "#d2", 0)]


def test_a_bad_line_after_comments_is_named_by_its_line_in_the_file():
    with pytest.raises(ValueError, match=r"line 4: expected 4 fields \(qid iteration docid "
                                         r"relevance\), found 3: '1 0 d2'"):
        read_qrels(io.BytesIO(b"# judged by A\n1 0 d1 1\n# and B\n1 0 d2\n"))
    with pytest.raises(ValueError, match=r"line 3: score is 'x', expected a finite number"):
        read_run(io.BytesIO(b"1 Q0 d1 1 0.9 r\n# c\n1 Q0 d2 2 x r\n"))


def test_a_first_docid_with_a_comma_is_a_trec_line_not_csv():
    run = read_run(io.BytesIO(b"q1 Q0 a,b 1 2.0 t\nq1 Q0 c 2 1.0 t\n"))
    assert as_rows(run) == [("q1", "a,b", 2.0), ("q1", "c", 1.0)]
    assert as_rows(read_qrels(io.BytesIO(b"q1 0 a,b 1\n"))) == [("q1", "a,b", 1)]


@pytest.mark.parametrize("kind, text", [("qrels", "1,d1,1\n"), ("qrels", "1, 0, d1, 2\n"),
                                        ("run", "1,Q0,d1,1,0.5,t\n"),
                                        ("run", "1, Q0, d1, 1, 0.5, t\n")])
def test_headerless_csv_is_still_asked_for_a_header(kind, text):
    reader = read_qrels if kind == "qrels" else read_run
    with pytest.raises(ValueError, match=r"looks like CSV but its first line is not a header"):
        reader(io.BytesIO(text.encode()))


def test_fields_split_on_the_whitespace_trec_eval_knows_and_no_other():
    """C's isspace(): space, tab, CR, vertical tab, form feed. A no-break space (U+00A0)
    is not one of them: it stays inside the id, in trec_eval as here."""
    qrels = read_qrels(io.BytesIO(b"q1\x0b0\x0cd1 1\r\nq1 0 d\xc2\xa02 1\nq1 0 d3\r1\n"))
    assert as_rows(qrels) == [("q1", "d1", 1), ("q1", "d\u00a02", 1), ("q1", "d3", 1)]
    run = read_run(io.BytesIO(b"q1 Q0 d3 1 3 t\nq1 Q0 d\xc2\xa02 1 2 t\nq1 Q0 d1 1 1 t\n"))
    # all three relevant documents (grade 1) retrieved: trec_eval num_rel_ret 3, NDCG@5 1
    assert evaluate(qrels, run, k=5).loc["q1", "ndcg@5"] == 1.0


def test_cr_only_line_ends_are_named():
    with pytest.raises(ValueError, match=r"ends its lines with CR only .* save it with LF or "
                                         r"CRLF line ends"):
        read_run(io.BytesIO(b"1 Q0 a 1 0.5 t\r1 Q0 b 2 0.4 t\r"))


# ------------------------------------------------------------------ encodings

UTF = [("utf-8-sig", "utf-8 BOM"), ("utf-16", "utf-16 BOM (LE)"),
       ("utf-16-be", None), ("utf-16-le", None), ("utf-32", "utf-32 BOM")]


@pytest.mark.parametrize("codec, bom", UTF, ids=[c for c, _ in UTF])
@pytest.mark.parametrize("text", ["q1 0 d1 2\r\nq1 0 café 0\r\n",
                                  "qid,docid,relevance\nq1,d1,2\nq1,café,0\n"],
                         ids=["trec", "csv"])
def test_utf16_utf32_and_utf8_with_a_bom_read_like_utf8(codec, bom, text):
    data = text.encode(codec)
    if codec == "utf-16-be":
        data = b"\xfe\xff" + data  # Python writes no mark for an explicit byte order
    assert as_rows(read_qrels(io.BytesIO(data))) == [("q1", "d1", 2), ("q1", "café", 0)]


def test_utf16_without_a_byte_order_mark_is_recognised():
    for codec in ("utf-16-le", "utf-16-be"):
        data = "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t\n".encode(codec)
        assert as_rows(read_run(io.BytesIO(data))) == [("q1", "d1", 0.5), ("q1", "d2", 0.25)]


def test_undecodable_utf16_is_named_as_utf16_not_binary():
    # a high surrogate (D800) with no low one after it, on line 2; byte 2 + 2 * 10
    data = b"\xff\xfe" + "q1 0 d1 1\n".encode("utf-16-le") + b"\x00\xd8" + "x\n".encode(
        "utf-16-le")
    with pytest.raises(ValueError, match=r"the file is UTF-16 text but line 2 cannot be "
                                         r"decoded \(byte 22\): save it as UTF-8"):
        read_qrels(io.BytesIO(data))


def test_a_large_utf16_path_reads_like_its_utf8_twin(tmp_path, monkeypatch):
    import ndcg_core._trec as trec
    monkeypatch.setattr(trec, "_BIG", 0)
    text = "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t\n"
    (tmp_path / "a.txt").write_bytes(text.encode("utf-16"))
    assert as_rows(read_run(tmp_path / "a.txt")) == [("q1", "d1", 0.5), ("q1", "d2", 0.25)]


# ------------------------------------------------------------------ the two TREC paths

ROUTE_CASES += [
    ("run", 'q1 Q0 "d1" 1 2.0 t\nq1 Q0 d2 2 1.0 t\n'),
    ("run", 'q1 Q0 "a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c" 3 1 t\n'),
    ("run", '"q" Q0 d 1 1 t\nq Q0 d 1 1 t\n'),
    ("run", "# c\n q1 Q0 d#1 1 2.0 t\n  # x y\n\nq1 Q0 a,b 2 1.0 t\n"),
    ("run", "q1 Q0 a,b 1 2.0 t\n"),
    ("run", "q1\x0bQ0 a 1 2.0 t\nq1 Q0 b\x0c2 1.0 t\n"),
    ("run", "q1 Q0 a 1 2.0 t\rq1 Q0 b 2 1.0 t\n"),
    ("qrels", "q1 0 nan 0\nq1 0 NA 1\nq1 0 null 2\nq1 0 #N/A 3\n"),
    ("qrels", "# a\n1 0 d1 1\n# b\n1 0 d2\n"),
]

TOKEN = st.one_of(
    st.sampled_from(['"', '""', '"d1"', "'", "a,b", ",", "#", "d#", "nan", "NaN", "NA", "N/A",
                     "null", "None", "-nan", "#N/A", "007", "1e3", "inf", "\\", "\\\"", "é"]),
    st.text(alphabet='ab"\',#1.\\-NAn', min_size=1, max_size=6))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(TOKEN, TOKEN, st.integers(-1, 3)), min_size=1, max_size=12),
       st.booleans())
def test_the_fast_and_the_line_by_line_path_read_any_ids_alike(rows, as_run):
    """Ids with quotes, commas, #, nan, NA...: pandas' C parser (the fast path) and the
    line-by-line path give the same frame, both equal to splitting each
    line on whitespace as trec_eval does."""
    import ndcg_core._decode as dec
    import ndcg_core._trec as trec
    rows = [("q" + q, d, g) for q, d, g in rows]  # a qid never starts a comment or a header
    if as_run:
        text = "".join(f"{q} Q0 {d} {i} {g / 2} t\n" for i, (q, d, g) in enumerate(rows))
        want = [(q, d, g / 2) for q, d, g in rows]
    else:
        text = "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows)
        want = [(q, d, g) for q, d, g in rows]
    kind = "run" if as_run else "qrels"
    raw = text.encode()
    width, num = (6, 4) if as_run else (5, 3)
    assert trec._parse_trec_fast(io.BytesIO(raw), width, [0, 2], num) is not None  # not refused
    fast = read_run(io.BytesIO(raw)) if as_run else read_qrels(io.BytesIO(raw))
    lines = trec._read_trec_lines(raw, "the file", kind, trec._LAYOUTS[kind])
    if not as_run:
        lines["relevance"] = dec._tidy_numbers(lines["relevance"].to_numpy())
    assert as_rows(fast) == as_rows(lines) == want
    assert str(fast["docid"].dtype) == str(lines["docid"].dtype) == "str"


def test_utf16_without_a_mark_and_ids_in_other_scripts_is_still_utf16():
    text = "q1 0 文書一 1\nq1 0 文書二 0\nq1 0 d3 2\n"
    for codec in ("utf-16-le", "utf-16-be"):
        assert as_rows(read_qrels(io.BytesIO(text.encode(codec)))) == [
            ("q1", "文書一", 1), ("q1", "文書二", 0), ("q1", "d3", 2)]


CSV_CASES = [
    "qid,docid,relevance,score\nq1,d1,3,0.2\nq1,d2,0,0.9\n",
    "doc_id,query,grade,score\nd1,q1,3, 0.5 \n\nd2 , q1 ,0 ,1e3\n",
    'qid,docid,relevance,score\n"q,1","d ""1""",1,2\nNA,nan,2,-0.5\n',
    "qid docid relevance score\n007 0042 1 0.25\n008\t0043 2 -1\n",
    "qid,docid,relevance,score,tag\nq1,d1,1,0.5,x\nq1,d2,2,0.4,y\n",
]


@pytest.mark.parametrize("text", CSV_CASES)
def test_a_csv_reads_alike_from_its_bytes_and_from_its_text(text):
    """``_read_csv_fast`` (from the bytes, numbers by the C parser) must give what the text
    route ``_read_csv`` gives, whenever it gives anything."""
    import ndcg_core.io as nio
    first = nio._first_line(text)
    for required in (nio._QRELS, nio._RUN):
        fast = nio._read_csv_fast(text.encode(), first, required)
        assert fast is not None
        slow = nio._read_csv(text, "the file", required)
        assert as_rows(fast) == as_rows(slow)
        assert [str(t) for t in fast.dtypes] == [str(t) for t in slow.dtypes]


CSV_ID = st.text(alphabet="ab1é \t\x0b\x0c\x1c\x1f\xa0\u3000\r", min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(CSV_ID, CSV_ID, st.integers(0, 3)), min_size=1, max_size=8))
def test_csv_ids_with_or_without_white_space_read_alike_on_both_paths(rows):
    """The bytes' route skips stripping the ids when the file holds nothing ``str.strip``
    removes (ASCII, no blank, tab, CR, quote...): with white space of every kind around or
    inside the ids, or none, both routes give the ids Python's ``strip`` gives."""
    import ndcg_core.io as nio
    rows = [(q, d, g) for q, d, g in rows if q.strip() and d.strip() and "\r" not in q + d]
    assume(rows)
    text = "qid,docid,relevance,score\n" + "".join(
        f"{q},{d},{g},{g / 4}\n" for q, d, g in rows)
    first = nio._first_line(text)
    fast = nio._read_csv_fast(text.encode(), first, nio._RUN)
    slow = nio._read_csv(text, "the file", nio._RUN)
    want = [(q.strip(), d.strip(), g / 4) for q, d, g in rows]
    assert as_rows(slow) == want
    if fast is not None:
        assert as_rows(fast) == want
        assert [str(t) for t in fast.dtypes] == [str(t) for t in slow.dtypes]
    plain = all(c in "ab1" for q, d, _ in rows for c in q + d)
    assert nio._nothing_to_strip(text.encode()) == plain


def test_the_line_by_line_path_reads_in_pieces_and_still_names_the_line(monkeypatch):
    """The line-by-line path turns every ``_CHUNK`` lines into Arrow pieces (so a large file
    never becomes one list of strings): pieces join up, and a bad line in a later piece is
    named by its line in the file."""
    import ndcg_core._trec as trec
    monkeypatch.setattr(trec, "_CHUNK", 2)
    text = b"q1 Q0 a 1 3 t\n# c\nq1 Q0 b 2 2 t\n\nq2\x0bQ0 c 3 1 t\nq2 Q0 d 4 0.5 t\nq3 Q0 e 5 0 t\n"
    assert as_rows(read_run(io.BytesIO(text))) == [
        ("q1", "a", 3.0), ("q1", "b", 2.0), ("q2", "c", 1.0), ("q2", "d", 0.5), ("q3", "e", 0.0)]
    with pytest.raises(ValueError, match=r"line 7: score is 'zero', expected a finite number"):
        read_run(io.BytesIO(text.replace(b"5 0 t", b"5 zero t")))
