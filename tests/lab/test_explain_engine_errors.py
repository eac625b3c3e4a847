"""lab.errors.explain: the engine's error messages in Chinese, with the bad value kept.

Every bad file of the bad-input matrix (tests/bad_input_data.py) is read as judgments and as
a run, and every pair that reads is evaluated under every preset and both gains, as the
"Evaluate your runs" page does; the playground's grade lists and the comparison add their
own. Each message the engine gives must have a pattern (none falls back to the English
lead-in), and its Chinese wording must keep every value of the English one: the file name,
the quoted values ('nan', 'qid;docid;relevance'), every number (line, byte, row, grade).
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest

import ndcg_core as nc
from bad_input_data import FILES
from lab import errors
from lab.i18n import t

CJK = re.compile(r"[\u4e00-\u9fff]")
QUOTED = re.compile(r"'[^']*'")
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _read(reader, name, data):
    f = io.BytesIO(data)
    f.name = name
    try:
        return reader(f), None
    except ValueError as exc:
        return None, str(exc)


def upload_messages() -> dict:
    """{engine message: how it arose} for the bad-input matrix's files, as the data page
    meets them: read as judgments and as a run, then evaluated under every preset."""
    found, qrels, runs = {}, {}, {}
    for name, data in FILES.items():
        for kind, reader, store in (("qrels", nc.read_qrels, qrels), ("run", nc.read_run, runs)):
            table, err = _read(reader, name, data)
            if err:
                found.setdefault(err, f"{name} read as {kind}")
            else:
                store[name] = table
    for qname, q in qrels.items():
        for rname, r in runs.items():
            for preset in nc.CONVENTIONS:
                for gain in ("linear", "exponential"):
                    try:
                        nc.evaluate(q, r, k=(5,), convention=preset, gain=gain)
                    except ValueError as exc:
                        found.setdefault(str(exc), f"{qname} + {rname}, {preset}, {gain}")
    return found


def other_messages() -> dict:
    """Messages the files above do not give but the app can show: the playground's grade
    lists, files of other encodings and line ends, a comparison over too few queries."""
    cases = {
        "grade 2000, exponential gain": lambda: nc.ndcg([2000, 1], gain="exponential"),
        "grades 1023 x 3, exponential gain": lambda: nc.ndcg([1023] * 3, gain="exponential"),
        "a negative grade, negative='error'": lambda: nc.ndcg([-1, 2], negative="error"),
        "a grade nan": lambda: nc.ndcg([float("nan"), 1]),
        "a grade 'x'": lambda: nc.ndcg([1, "x"]),
        "CR line ends": lambda: _raise(nc.read_qrels, "mac.txt",
                                       b"1 0 d1 1\r1 0 d2 0\r2 0 d3 1\r"),
        "UTF-16 that breaks": lambda: _raise(nc.read_qrels, "u16.txt",
                                             b"\xff\xfe" + "1 0 d1 1\n".encode("utf-16-le")
                                             + b"\x00\xd8"),
        "CSV without a header": lambda: _raise(nc.read_qrels, "nohead.csv", b"1,d1,2\n1,d2,0\n"),
        "CSV with an empty id": lambda: _raise(nc.read_qrels, "gap.csv",
                                               b"qid,docid,relevance\n1,,2\n"),
        "CSV row longer than its header": lambda: _raise(nc.read_qrels, "long.csv",
                                                         b"qid,docid,relevance\n1,d1,2,9\n"),
        "CSV with an unclosed quote": lambda: _raise(nc.read_qrels, "quote.csv",
                                                     b'qid,docid,relevance\n"1,d1,2\n'),
        "CSV with a later row longer than its header": lambda: _raise(
            nc.read_qrels, "later.csv", b"qid,docid,relevance\n1,d1,2\n1,d2,0,7\n"),
        "CSV of 40 columns": lambda: _raise(nc.read_qrels, "wide.csv", b",".join(
            [b"qid", b"docid", b"relevance"] + [b"c%d" % i for i in range(37)]) + b"\n"),
        "CSV that ends inside quotes": lambda: _raise(nc.read_qrels, "open.csv",
                                                      b'qid,docid,relevance\n1,"d1,2'),
        "choices over one query": lambda: nc.choice_scores(
            pd.DataFrame({"qid": ["q1"], "docid": ["d1"], "relevance": [1]}),
            {r: pd.DataFrame({"qid": ["q1"], "docid": ["d1"], "score": [1.0]}) for r in "ab"},
            {"x": dict(k=5)}),
        "a run refused under a choice": lambda: nc.choice_scores(
            pd.DataFrame({"qid": ["q1", "q2"], "docid": ["d1", "d2"], "relevance": [2000, 1]}),
            {r: pd.DataFrame({"qid": ["q1", "q2"], "docid": ["d1", "d2"], "score": [1.0, 1.0]})
             for r in "ab"}, {"exp@5": dict(k=5, gain="exponential")}),
        "a comparison over one query": lambda: nc.compare(
            pd.DataFrame({"a": [0.5, np.nan], "b": [0.4, 0.3]}, index=["q1", "q2"]), baseline="a"),
    }
    found = {}
    for how, call in cases.items():
        with pytest.raises(ValueError) as exc:
            call()
        found[str(exc.value)] = how
    return found


def _raise(reader, name, data):
    table, err = _read(reader, name, data)
    if err:
        raise ValueError(err)


MESSAGES = {**upload_messages(), **other_messages()}


def test_the_bad_inputs_give_many_different_messages():
    # the matrix's files alone: empty, binary, truncated, columns, separators, nan, latin-1,
    # duplicates, the overflow, fractional and negative grades, an infinite score
    assert len(upload_messages()) >= 25
    assert len(MESSAGES) >= 35


@pytest.mark.parametrize("message", sorted(MESSAGES), ids=lambda m: m[:60])
def test_each_engine_message_reads_in_chinese_with_its_values_kept(message):
    zh = errors.explain(message, "zh")
    assert errors.translated(message, "zh") is not None, (
        f"no pattern for {message!r} ({MESSAGES[message]}): it would fall back to English")
    assert len(CJK.findall(zh)) >= 4, zh
    for value in QUOTED.findall(message) + NUMBER.findall(message):
        assert value in zh, f"{value!r} of {message!r} is lost in {zh!r}"


@pytest.mark.parametrize("message", sorted(MESSAGES), ids=lambda m: m[:60])
def test_english_is_the_engines_own_text(message):
    assert errors.explain(message, "en") == message
    assert errors.explain(ValueError(message), "en") == message


def test_the_file_name_is_kept_as_uploaded():
    message = _read(nc.read_qrels, "我的 判断.txt", b"")[1]
    assert errors.explain(message, "zh") == "我的 判断.txt 是空文件：其中没有可读的行。"


def test_a_worked_example_line_number_and_line_kept():
    # truncated.txt: four good lines, then "2 0 d5" with 3 of the 4 fields
    message = _read(nc.read_qrels, "truncated.txt", FILES["truncated.txt"])[1]
    assert message == ("truncated.txt line 5: expected 4 fields (qid iteration docid "
                       "relevance), found 3: '2 0 d5'.")
    assert errors.explain(message, "zh") == ("truncated.txt 第 5 行：应有 4 个字段（qid "
                                             "iteration docid relevance），实际有 3 个："
                                             "'2 0 d5'。")


def test_an_unknown_message_is_shown_in_english_under_a_chinese_lead_in():
    message = "a message the engine may add one day: 42."
    assert errors.translated(message, "zh") is None
    assert errors.explain(message, "zh") == t(
        "The engine reports a problem (in English): {message}", "zh", message=message)
    assert message in errors.explain(message, "zh")


def test_every_pattern_is_exercised():
    """No pattern is dead: each matches one of the messages above."""
    used = {i for message in MESSAGES for i, (pattern, _) in enumerate(errors._PATTERNS)
            if pattern.fullmatch(message)}
    assert used == set(range(len(errors._PATTERNS)))


def test_the_modules_docstring_examples_hold():
    import doctest
    assert doctest.testmod(errors).failed == 0
