"""trec_eval's own conformance data (tests/data/trec_eval-test/): every ``ndcg`` and
``ndcg_cut_K`` line of its expected outputs, per query and ``all``, reproduced by
``evaluate(convention='trec_eval')`` and by ``python -m ndcg_core``."""

import functools
from pathlib import Path

import numpy as np
import pytest

from ndcg_core import evaluate, read_qrels, read_run

from cli_runner import run_cli
from reference_data import TREC_EVAL_TEST as TREC

REPO = Path(__file__).resolve().parents[2]

# expected file -> (qrels, run, evaluate keywords), each printed by trec_eval 10.0 with -q and
#   out.test.aq           -m all_trec qrels.test results.test
#   out.test.aqc          -m all_trec -c qrels.test results.trunc
#   out.test.aql          -m all_trec -mrelstring.20 -l2 qrels.rel_level results.test
#   out.test.meas_params  ... -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 ... qrels.test results.test
RUNS = {
    "out.test.aq": ("qrels.test", "results.test", {}),
    "out.test.aqc": ("qrels.test", "results.trunc", {"missing": "zero"}),  # trec_eval -c
    "out.test.aql": ("qrels.rel_level", "results.test", {}),  # grades -1..4
    "out.test.meas_params": ("qrels.test", "results.test", {}),
}
# -mndcg.1=3,2=9,4=4.5: gains per grade for the 'ndcg' measure (grade 0 keeps gain 0)
GAIN_MAPS = {"ndcg_1=3,2=9,4=4.5": {0: 0, 1: 3, 2: 9, 4: 4.5}}


def expected_lines(name):
    """(measure, qid, value) of every ndcg / ndcg_cut_K line of an expected output file."""
    out = []
    for line in (TREC / name).read_text().splitlines():
        measure, qid, value = (part.strip() for part in line.split("\t"))
        if measure == "ndcg" or measure.startswith(("ndcg_cut_", "ndcg_1=")):
            out.append((measure, qid, float(value)))
    return out


def cutoff_of(measure):
    return int(measure[len("ndcg_cut_"):]) if measure.startswith("ndcg_cut_") else None


@functools.lru_cache(maxsize=None)
def ours(name, measure):
    """Our per-query values and the 'all' mean for one expected file and measure."""
    qrels_file, run_file, kw = RUNS[name]
    qrels, run = read_qrels(TREC / qrels_file), read_run(TREC / run_file)
    k = cutoff_of(measure)
    res = evaluate(qrels, run, k=k, convention="trec_eval", gain=GAIN_MAPS.get(measure), **kw)
    column = res["ndcg" if k is None else f"ndcg@{k}"]
    return {**column.to_dict(), "all": column.mean()}


CASES = [(name, measure, qid, value) for name in RUNS
         for measure, qid, value in expected_lines(name)]


def test_conformance_files_hold_the_expected_ndcg_lines():
    """Guard against a silently empty parametrization: 4 files, 3 queries + all each."""
    counts = {name: len(expected_lines(name)) for name in RUNS}
    assert counts == {"out.test.aq": 40, "out.test.aqc": 40, "out.test.aql": 40,
                      "out.test.meas_params": 16}


@pytest.mark.parametrize("name, measure, qid, value", CASES,
                         ids=[f"{n[9:]}-{m}-{q}" for n, m, q, _ in CASES])
def test_evaluate_reproduces_trec_eval_line(name, measure, qid, value):
    """To trec_eval's 4 printed decimals (a half-unit either way covers its rounding)."""
    assert abs(ours(name, measure)[qid] - value) <= 5e-5 + 1e-12


@pytest.mark.parametrize("name", RUNS)
def test_evaluate_reports_the_same_queries_as_trec_eval(name):
    for measure in {m for m, _, _ in expected_lines(name)}:
        qids = {q for m, q, _ in expected_lines(name) if m == measure}
        assert set(ours(name, measure)) == qids


def test_trec_eval_minus_c_counts_the_missing_query_as_zero():
    """results.trunc has no line for topic 302: skipped by default, 0 with -c."""
    qrels, run = read_qrels(TREC / "qrels.test"), read_run(TREC / "results.trunc")
    skipped = evaluate(qrels, run, k=10)
    zero = evaluate(qrels, run, k=10, missing="zero")
    assert list(skipped.index) == ["301", "303"]
    assert skipped.attrs["missing_queries"] == ["302"]
    assert zero.loc["302", "ndcg@10"] == 0
    assert zero["ndcg@10"].mean() == pytest.approx(skipped["ndcg@10"].sum() / 3, abs=1e-15)


# ------------------------------------------------------------------ command line

def cli(*args, fresh=False):
    """``python -m ndcg_core *args`` in a process of its own (tests/cli_runner.py)."""
    return run_cli(args, cwd=REPO, fresh=fresh)


def file_lines(name, measures):
    return [line for line in (TREC / name).read_text().splitlines()
            if line.split("\t")[0].strip() in measures]


def test_cli_evaluate_prints_trec_eval_lines():
    """`evaluate QRELS RUN -m ndcg_cut.5,10 -q` prints the expected file's lines verbatim."""
    done = cli("evaluate", str(TREC / "qrels.test"), str(TREC / "results.test"),
                   "-m", "ndcg_cut.5,10", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == file_lines("out.test.aq", {"ndcg_cut_5", "ndcg_cut_10"})


def test_cli_evaluate_minus_c_prints_every_default_ndcg_line():
    """Default measures (ndcg and ndcg_cut at trec_eval's cutoffs) with -c on results.trunc."""
    done = cli("evaluate", str(TREC / "qrels.test"), str(TREC / "results.trunc"),
                   "-c", "-q")
    assert done.returncode == 0, done.stderr
    measures = {"ndcg"} | {f"ndcg_cut_{k}" for k in [5, 10, 15, 20, 30, 100, 200, 500, 1000]}
    assert done.stdout.splitlines() == file_lines("out.test.aqc", measures)


def test_cli_table_prints_the_table_and_its_totals():
    done = cli("table", "3", "2", "3", "0", "1", "2", "--k", "4", "--gain", "exponential",
               fresh=True)  # one cold start in this file
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    gains = [7, 3, 7, 0, 1, 3]  # 2^rel - 1 for rel = 3, 2, 3, 0, 1, 2
    rows = [line.split() for line in lines[1:7]]
    assert lines[0].split() == ["position", "label", "relevance", "gain", "discount",
                                "contribution", "cumulative_dcg", "in_cutoff"]
    for i, (row, g) in enumerate(zip(rows, gains), 1):
        position, _, _, rel, gain, discount, contribution, _, in_cutoff = row
        assert int(position) == i and float(gain) == g
        assert float(discount) == round(np.log2(i + 1), 3)
        assert float(contribution) == round(g / np.log2(i + 1), 3)
        assert in_cutoff == str(i <= 4)
    dcg4 = 7 + 3 / np.log2(3) + 7 / 2 + 0  # gains 7, 3, 7, 0
    idcg4 = 7 + 7 / np.log2(3) + 3 / 2 + 3 / np.log2(5)  # ideal grades 3, 3, 2, 2
    assert lines[-3:] == [f"DCG@4 = {dcg4:.4f}", f"IDCG@4 = {idcg4:.4f}",
                          f"NDCG@4 = {dcg4 / idcg4:.4f}"]


def test_cli_reports_bad_input_on_stderr_with_exit_code_2():
    done = cli("table", "3", "2", "--k", "0")
    assert done.returncode == 2
    assert done.stderr.startswith("error: k must be at least 1")
    assert done.stdout == ""
