"""The bad-input matrix for the command line and the engine's public functions: each case
says what the user reads (substrings of the message that say what is wrong and how to fix
it), or, for odd but valid input, what must come back. The app's entry points have their own
matrix in tests/app/test_bad_input.py; the files and the case record are shared
(tests/bad_input_data.py)."""

from __future__ import annotations

import io
import math
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

import ndcg_core as nc
from bad_input_data import FILES, OVERFLOW_BUG, Case, expected
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return list(args)


CLI = [
    Case("cli-grade-word", "cli", cli("table", "3", "abc"), "invalid float value: 'abc'"),
    Case("cli-grade-nan", "cli", cli("table", "nan", "1"),
         "position 1 is nan: every value must be a finite number"),
    Case("cli-grade-inf", "cli", cli("table", "3", "inf"), "position 2 is inf"),
    Case("cli-grade-1e400", "cli", cli("table", "1e400"), "must be a finite number"),
    Case("cli-grade-minus-inf", "cli", cli("table", "3", "-inf"), "-inf"),
    Case("cli-no-grades", "cli", cli("table"), "the following arguments are required: grades"),
    Case("cli-k-zero", "cli", cli("table", "3", "2", "--k", "0"), "k must be at least 1"),
    Case("cli-k-negative", "cli", cli("table", "3", "2", "--k", "-1"), "k must be at least 1"),
    Case("cli-k-fraction", "cli", cli("table", "3", "2", "--k", "2.5"),
         "invalid int value: '2.5'"),
    Case("cli-k-above-n", "cli", cli("table", "3", "2", "--k", "99"), None,
         keep=lambda out: f"NDCG@99 = {nc.ndcg([3, 2], k=99):.4f}" in out),
    Case("cli-gain-unknown", "cli", cli("table", "3", "--gain", "cubic"),
         "invalid choice: 'cubic'"),
    Case("cli-grade-2000-exponential", "cli", cli("table", "2000", "--gain", "exponential"),
         ("2^2000 − 1 overflows a float", "Use linear gain")),
    Case("cli-grades-1023x3-exponential-overflow", "cli",
         cli("table", "1023", "1023", "1023", "--gain", "exponential"), "overflow",
         bug=OVERFLOW_BUG),
    Case("cli-negative-grade", "cli", cli("table", "3", "-1", "2"), None,
         keep=lambda out: f"NDCG = {nc.ndcg([3, -1, 2]):.4f}" in out),
    Case("cli-200-grades", "cli", cli("table", *[str(i % 4) for i in range(200)]), None,
         keep=lambda out: f"NDCG = {nc.ndcg([i % 4 for i in range(200)]):.4f}" in out),
    Case("cli-unicode-digits", "cli", cli("table", "٣", "٢"), None,
         keep=lambda out: f"NDCG = {nc.ndcg([3, 2]):.4f}" in out),
    Case("cli-missing-file", "cli", cli("evaluate", "{dir}/nope.txt", "{dir}/run.run"),
         "No such file or directory"),
    Case("cli-directory", "cli", cli("evaluate", "{dir}", "{dir}/run.run"), "Is a directory"),
    Case("cli-binary-file", "cli", cli("evaluate", "{dir}/binary.dat", "{dir}/run.run"),
         "binary.dat is not a text file"),
    Case("cli-empty-file", "cli", cli("evaluate", "{dir}/empty.txt", "{dir}/run.run"),
         "empty.txt is empty"),
    Case("cli-truncated-file", "cli", cli("evaluate", "{dir}/truncated.txt", "{dir}/run.run"),
         "truncated.txt line 5: expected 4 fields"),
    Case("cli-duplicate-doc", "cli", cli("evaluate", "{dir}/dup.txt", "{dir}/run.run"),
         "lists docid 'd1' twice for qid '1'"),
    Case("cli-swapped-files", "cli", cli("evaluate", "{dir}/run.run", "{dir}/qrels.txt"),
         "run.run line 1: expected 4 fields"),
    Case("cli-unknown-measure", "cli",
         cli("evaluate", "{dir}/qrels.txt", "{dir}/run.run", "-m", "map"),
         "unknown measure 'map': use ndcg, ndcg.1=3,2=9, ndcg_cut or ndcg_cut.5,10"),
    Case("cli-bad-cutoff", "cli",
         cli("evaluate", "{dir}/qrels.txt", "{dir}/run.run", "-m", "ndcg_cut.abc"),
         "cutoff 'abc' in 'ndcg_cut.abc' is not a whole number"),
    Case("cli-evaluate-rtl-ids", "cli", cli("evaluate", "{dir}/rtl.txt", "{dir}/rtl.run"),
         None, keep=lambda out: "ndcg" in out and "nan" not in out),
]


def raises(fn, *args, **kwargs):
    return lambda: fn(*args, **kwargs)


Q2 = pd.DataFrame({"qid": ["1", "1"], "docid": ["a", "b"], "relevance": [2, 1]})
R2 = pd.DataFrame({"qid": ["1", "1"], "docid": ["a", "b"], "score": [2.0, 1.0]})
Q_HUGE = pd.DataFrame({"qid": ["1"] * 3, "docid": list("abc"), "relevance": [1023] * 3})
R_HUGE = pd.DataFrame({"qid": ["1"] * 3, "docid": list("abc"), "score": [3.0, 2.0, 1.0]})


def read(kind, name):
    return raises(nc.read_qrels if kind == "qrels" else nc.read_run,
                  io.BytesIO(FILES[name]))


ENGINE = [
    Case("engine-dcg-nan", "engine", raises(nc.dcg, [3, math.nan]),
         "position 2 is nan: every value must be a finite number"),
    Case("engine-dcg-inf", "engine", raises(nc.dcg, [math.inf]), "position 1 is inf"),
    Case("engine-ndcg-minus-inf", "engine", raises(nc.ndcg, [1, -math.inf]),
         "position 2 is -inf"),
    Case("engine-dcg-word", "engine", raises(nc.dcg, [3, "a"]),
         "position 2 is 'a', not a number"),
    Case("engine-dcg-boolean", "engine", raises(nc.dcg, [True, False]), "a boolean"),
    Case("engine-dcg-string", "engine", raises(nc.dcg, "321"), "must be a list of numbers"),
    Case("engine-dcg-int-beyond-float", "engine", raises(nc.dcg, [10**400]),
         "too large for a float"),
    Case("engine-dcg-empty", "engine", raises(nc.dcg, []), "is empty: give at least one grade"),
    Case("engine-ndcg-one-item", "engine", raises(nc.ndcg, [3]), None,
         keep=lambda v: v == 1.0),
    Case("engine-ndcg-one-zero-item", "engine", raises(nc.ndcg, [0]), None,
         keep=lambda v: v == 0.0),
    Case("engine-ndcg-200-items", "engine", raises(nc.ndcg, [i % 4 for i in range(200)]), None,
         keep=lambda v: 0 < v < 1),
    Case("engine-ndcg-negative-keep", "engine", raises(nc.ndcg, [-1, 2]), None,
         keep=lambda v: math.isfinite(v) and v < 1),
    Case("engine-ndcg-negative-error", "engine", raises(nc.ndcg, [-1, 2], negative="error"),
         ("position 1 is -1, a negative grade", "negative='zero'")),
    Case("engine-dcg-fractional", "engine", raises(nc.dcg, [2.5, 0.5]), None,
         keep=lambda v: v == pytest.approx(2.5 + 0.5 / math.log2(3))),
    Case("engine-dcg-k-zero", "engine", raises(nc.dcg, [3, 2], k=0), "k must be at least 1"),
    Case("engine-dcg-k-fraction", "engine", raises(nc.dcg, [3, 2], k=2.5),
         "k must be a whole number"),
    Case("engine-dcg-k-text", "engine", raises(nc.dcg, [3, 2], k="2"),
         "k must be a whole number"),
    Case("engine-ndcg-k-above-n", "engine", raises(nc.ndcg, [1, 3], k=99), None,
         keep=lambda v: v == nc.ndcg([1, 3])),
    Case("engine-dcg-1000-exponential", "engine", raises(nc.dcg, [1000], gain="exponential"),
         None, keep=lambda v: v == 2.0**1000 - 1),
    Case("engine-dcg-2000-exponential", "engine", raises(nc.dcg, [2000], gain="exponential"),
         ("2^2000 − 1 overflows a float", "Use linear gain")),
    Case("engine-dcg-1023x3-exponential-overflow", "engine",
         raises(nc.dcg, [1023] * 3, gain="exponential"), "overflow", bug=OVERFLOW_BUG),
    Case("engine-ndcg-1023x3-exponential-overflow", "engine",
         raises(nc.ndcg, [1023] * 3, gain="exponential"), "overflow", bug=OVERFLOW_BUG),
    Case("engine-ndcg-curve-1023x3-exponential-overflow", "engine",
         raises(nc.ndcg_curve, [1023] * 3, gain="exponential"), "overflow", bug=OVERFLOW_BUG),
    Case("engine-evaluate-1023x3-exponential-overflow", "engine",
         raises(nc.evaluate, Q_HUGE, R_HUGE, gain="exponential"), "overflow",
         bug=OVERFLOW_BUG),
    Case("engine-ndcg-1e308-linear-overflow", "engine",
         raises(nc.ndcg, [1e308] * 3), "overflow", bug=OVERFLOW_BUG),
    Case("engine-dcg-table-label-count", "engine",
         raises(nc.dcg_table, [3, 2], labels=["a"]), "labels has 1 entries but relevance has 2"),
    Case("engine-dcg-table-rtl-and-duplicate-labels", "engine",
         raises(nc.dcg_table, [1, 3, 2], labels=["مستند", "שלום", "שלום"]), None,
         keep=lambda t: list(t["label"]) == ["مستند", "שלום", "שלום"]),
    Case("engine-ndcg-curve-empty", "engine", raises(nc.ndcg_curve, []), "is empty"),
    Case("engine-ndcg-curve-nan", "engine", raises(nc.ndcg_curve, [1, math.nan]),
         "position 2 is nan"),
    Case("engine-ndcg-ideal-missing-items", "engine", raises(nc.ndcg, [3, 2], ideal=[2]),
         "the ideal pool must contain every graded item"),
    Case("engine-evaluate-duplicate-judgment", "engine",
         raises(nc.evaluate, Q2.assign(docid=["a", "a"]), R2),
         "qrels lists docid 'a' twice for qid '1'"),
    Case("engine-evaluate-duplicate-run-doc", "engine",
         raises(nc.evaluate, Q2, R2.assign(docid=["a", "a"])),
         "run lists docid 'a' twice for qid '1'"),
    Case("engine-evaluate-missing-column", "engine",
         raises(nc.evaluate, Q2.drop(columns="relevance"), R2),
         "qrels lacks column(s) ['relevance']"),
    Case("engine-evaluate-text-grade", "engine",
         raises(nc.evaluate, Q2.assign(relevance=["2", "high"]), R2),
         ("row 2 (qid '1', docid 'b')", "high", "must be a finite number")),
    Case("engine-evaluate-no-cutoff", "engine", raises(nc.evaluate, Q2, R2, k=[]),
         "k is empty"),
    Case("engine-evaluate-k-zero", "engine", raises(nc.evaluate, Q2, R2, k=0),
         "k must be at least 1"),
    Case("engine-evaluate-unknown-convention", "engine",
         raises(nc.evaluate, Q2, R2, convention="msmarco"), "convention must be one of"),
    Case("engine-read-qrels-0-byte", "engine", read("qrels", "empty.txt"), "is empty"),
    Case("engine-read-qrels-binary", "engine", read("qrels", "binary.dat"),
         "not a text file"),
    Case("engine-read-qrels-truncated", "engine", read("qrels", "truncated.txt"),
         "line 5: expected 4 fields"),
    Case("engine-read-qrels-wrong-columns", "engine", read("qrels", "columns.csv"),
         "missing ['relevance']"),
    Case("engine-read-qrels-semicolons", "engine", read("qrels", "semicolons.csv"),
         "line 1: expected 4 fields"),
    Case("engine-read-qrels-latin1", "engine", read("qrels", "latin1.txt"),
         "not UTF-8 text"),
    Case("engine-read-qrels-nan", "engine", read("qrels", "nan.txt"),
         "relevance is 'nan', expected a finite number"),
    Case("engine-read-qrels-rtl-ids", "engine", read("qrels", "rtl.txt"), None,
         keep=lambda df: list(df["docid"]) == ["مستند", "שלום", "🔥"]),
    Case("engine-read-run-inf-score", "engine", read("run", "inf.run"),
         "score is 'inf', expected a finite number"),
    Case("engine-read-run-qrels-file", "engine", read("run", "qrels.txt"),
         "expected 6 fields"),
    Case("engine-read-run-not-a-file", "engine", raises(nc.read_run, 123),
         "expected a file path or an open file"),
]

CASES = CLI + ENGINE
assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"


def family(name):
    return [c for c in CASES if c.entry == name]


# ------------------------------------------------------------------ CLI

@pytest.fixture(scope="module", autouse=True)
def cli_runs(request, tmp_path_factory):
    """The selected CLI cases as subprocesses, two at a time, started with the module's first
    test so that they run while the AppTest cases do: {case id: future (code, out, err)}."""
    wanted = {item.callspec.params["case"].id for item in request.session.items
              if getattr(item, "module", None) is request.module
              and item.name.startswith("test_cli[")}
    if not wanted:
        yield {}
        return
    folder = tmp_path_factory.mktemp("bad_cli")
    first = min(wanted)  # one case from a cold ``python`` (the entry point itself)
    for name, data in FILES.items():
        (folder / name).write_bytes(data)

    def run(case):
        argv = [a.replace("{dir}", str(folder)) for a in case.action]
        done = run_cli(argv, cwd=ROOT, fresh=case.id == first)
        return done.returncode, done.stdout, done.stderr

    # Every process this module starts is started from this thread: the cold one now, the
    # helper that forks the others too. Two threads starting processes at once once failed
    # here with ``OSError: [Errno 14] Bad address`` from CPython's vfork path (2026-12-03).
    cold = Future()
    cold.set_result(run(next(c for c in family("cli") if c.id == first)))
    run_cli(["--help"], cwd=ROOT)  # starts the forking helper
    pool = ThreadPoolExecutor(max_workers=2)
    yield {c.id: cold if c.id == first else pool.submit(run, c)
           for c in family("cli") if c.id in wanted}
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("case", family("cli"), ids=str)
def test_cli(case, cli_runs):
    code, out, err = cli_runs[case.id].result()
    assert "Traceback" not in err, f"{case.id}: {err[-800:]}"
    if case.expect is None:
        assert code == 0, f"{case.id}: exit {code}: {err}"
        assert case.keep(out), f"{case.id}: {out[-400:]}"
        return
    assert code == 2, f"{case.id}: exit {code}, stdout {out[-300:]!r}, stderr {err!r}. {case.bug}"
    for text in expected(case):
        assert text in err, f"{case.id}: expected {text!r} on stderr, got {err!r}"
    assert "NDCG" not in out


# ------------------------------------------------------------------ engine functions

@pytest.mark.parametrize("case", family("engine"), ids=str)
def test_engine(case):
    if case.expect is None:
        assert case.keep(case.action()), case.id
        return
    with pytest.raises(ValueError) as info:
        result = case.action()
        pytest.fail(f"{case.id}: returned {result!r} instead of refusing. {case.bug}")
    for text in expected(case):
        assert text in str(info.value), f"{case.id}: {info.value}"
