"""`python -m ndcg_core evaluate` as a trec_eval user expects it (issue 14): trec_eval's
printed lines for its own test inputs, its measure order, its refusals and its -J, -M, -c
and gain-map options (semantics read in trec_eval 10's trec_eval.c, meas_init.c,
m_ndcg.c and form_res_rels.c)."""

from pathlib import Path

import pytest
import pytrec_eval

from ndcg_core import evaluate, read_qrels, read_run

from cli_runner import run_cli
from reference_data import TREC_EVAL_TEST as TREC

REPO = Path(__file__).resolve().parents[2]
QRELS, RUN = str(TREC / "qrels.test"), str(TREC / "results.test")


def cli(*args):
    """``python -m ndcg_core evaluate *args`` in a process of its own (tests/cli_runner.py)."""
    return run_cli(["evaluate", *args], cwd=REPO)


def file_lines(name, keep):
    """The lines of a trec_eval expected output whose measure passes ``keep``."""
    return [line for line in (TREC / name).read_text().splitlines()
            if keep(line.split("\t")[0].strip())]


def ndcg_measure(m):
    return m == "ndcg" or m.startswith("ndcg_cut_")


# ------------------------------------------------------------------ trec_eval's outputs

def test_gain_map_and_cutoffs_print_trec_eval_meas_params_lines():
    """out.test.meas_params ran -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4; trec_eval reads
    23.4 with atol as 23, which we refuse, so 23 is written as 23."""
    done = cli(str(TREC / "qrels.test"), RUN, "-m", "ndcg.1=3,2=9,4=4.5",
               "-m", "ndcg_cut.10,20,23", "-q")
    assert done.returncode == 0, done.stderr
    expected = file_lines("out.test.meas_params",
                          lambda m: m.startswith(("ndcg_1=", "ndcg_cut_")))
    assert len(expected) == 16
    assert done.stdout.splitlines() == expected


def test_graded_qrels_with_negative_grades_print_trec_eval_lines():
    """out.test.aql: qrels.rel_level holds grades -1..4; every ndcg line, per query and all."""
    done = cli(str(TREC / "qrels.rel_level"), RUN, "-m", "ndcg", "-m", "ndcg_cut", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == file_lines("out.test.aql", ndcg_measure)


def test_measures_print_in_trec_eval_order_whatever_the_command_line_order():
    """ndcg first, then ndcg_cut_K by ascending K (trec_eval's measure table, sorted
    cutoffs), as the 'all' lines of out.test.aq show."""
    done = cli(QRELS, RUN, "-m", "ndcg_cut.10,5", "-m", "ndcg")
    assert done.returncode == 0, done.stderr
    wanted = {"ndcg", "ndcg_cut_5", "ndcg_cut_10"}
    expected = [line for line in file_lines("out.test.aq", wanted.__contains__)
                if line.split("\t")[1] == "all"]
    assert [line.split("\t")[0].strip() for line in expected] == ["ndcg", "ndcg_cut_5",
                                                                   "ndcg_cut_10"]
    assert done.stdout.splitlines() == expected


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("measures, message", [
    (["ndcg_cut.5,5"], "cutoff 5 appears twice in 'ndcg_cut.5,5'"),
    (["ndcg_cut.5", "ndcg_cut.10"], "ndcg_cut is asked twice ('ndcg_cut.5' and 'ndcg_cut.10')"),
    (["ndcg", "ndcg.1=3"], "ndcg is asked twice"),
    (["ndcg.1=x"], "'1=x' in 'ndcg.1=x' is not a grade=gain pair"),
    (["ndcg.-1=3"], "'-1=3' in 'ndcg.-1=3' is not a grade=gain pair"),
    (["ndcg.1=3,1=4"], "grade 1 is given two gains in 'ndcg.1=3,1=4'"),
    (["ndcg_cut.0"], "cutoff '0' in 'ndcg_cut.0' is not a whole number >= 1"),
    (["map"], "unknown measure 'map'"),
])
def test_bad_measures_are_refused_with_a_clear_message(measures, message):
    args = [a for m in measures for a in ("-m", m)]
    done = cli(QRELS, RUN, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and message in done.stderr


def test_no_overlap_fails_with_trec_eval_message(tmp_path):
    """trec_eval exits non-zero with 'No queries with both results and relevance info'."""
    run = tmp_path / "run.txt"
    run.write_text("999 Q0 doc1 1 2.0 t\n999 Q0 doc2 2 1.0 t\n")
    done = cli(QRELS, str(run))
    assert done.returncode != 0 and done.stdout == ""
    assert "No queries with both results and relevance info" in done.stderr


def test_no_overlap_with_c_scores_every_judged_query_0_as_trec_eval_10(tmp_path):
    """-c with no query in common: trec_eval 10.0 gives every judged query an empty ranking
    (trec_eval.c, average_complete_flag: a bogus ranking per missing query), so each scores
    0 and so does the mean; 9.0.8 stopped, and --help says so (issue 21)."""
    run = tmp_path / "run.txt"
    run.write_text("999 Q0 doc1 1 2.0 t\n999 Q0 doc2 2 1.0 t\n")
    done = cli(QRELS, str(run), "-c", "-q", "-m", "ndcg_cut.5")
    assert done.returncode == 0, done.stderr
    lines = [line.split("\t") for line in done.stdout.splitlines()]
    assert {q for _, q, _ in lines[:-1]} == set(read_qrels(QRELS)["qid"])
    assert all(value == "0.0000" for _, _, value in lines) and lines[-1][1] == "all"
    assert "9.0.8 stops" in " ".join(cli("--help").stdout.split())


def test_a_repeated_line_in_a_query_without_judgments_does_not_stop_the_evaluation(tmp_path):
    run = tmp_path / "run.txt"
    run.write_text((TREC / "results.test").read_text() + "999 Q0 x 1 2.0 t\n999 Q0 x 2 1.0 t\n")
    done = cli(QRELS, str(run), "-m", "ndcg")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [line for line in file_lines("out.test.aq", {"ndcg"}
                                                                    .__contains__)
                                        if "\tall\t" in line]


# ------------------------------------------------------------------ -J, -M, gain map

def printed(done):
    """{(measure, qid): value} of the printed lines."""
    out = {}
    for line in done.stdout.splitlines():
        measure, qid, value = (part.strip() for part in line.split("\t"))
        out[measure, qid] = float(value)
    return out


def test_minus_J_matches_pytrec_eval_judged_docs_only_flag():
    """results.test against qrels.test, condensed: pytrec_eval (trec_eval 9, float32 scores)
    is matched by --convention pytrec_eval, to the 4 printed decimals."""
    qrels, run = read_qrels(QRELS), read_run(RUN)
    judged = {}
    for q, d, g in qrels.itertuples(index=False):
        judged.setdefault(q, {})[d] = int(g)
    retrieved = {}
    for q, d, s in run.itertuples(index=False):
        retrieved.setdefault(q, {})[d] = float(s)
    expected = pytrec_eval.RelevanceEvaluator(judged, {"ndcg", "ndcg_cut.5,10"},
                                              judged_docs_only_flag=True).evaluate(retrieved)
    done = cli(QRELS, RUN, "-J", "-q", "-m", "ndcg", "-m", "ndcg_cut.5,10",
               "--convention", "pytrec_eval")
    assert done.returncode == 0, done.stderr
    got = printed(done)
    for qid, values in expected.items():
        for measure in ("ndcg", "ndcg_cut_5", "ndcg_cut_10"):
            assert got[measure, qid] == pytest.approx(values[measure], abs=5e-5 + 1e-12)
    plain = printed(cli(QRELS, RUN, "-q", "-m", "ndcg"))
    assert got["ndcg", "all"] != plain["ndcg", "all"]  # -J changed something here


def test_minus_M_keeps_the_top_of_each_ranking():
    """-M 20 equals the run cut to its top 20 lines per query in trec_eval's order (score
    descending, doc id descending), then evaluated whole."""
    run = read_run(RUN)
    top = (run.sort_values(["qid", "score", "docid"], ascending=[True, False, False])
              .groupby("qid").head(20))
    expected = evaluate(read_qrels(QRELS), top, k=[None, 10, 30])
    got = printed(cli(QRELS, RUN, "-M", "20", "-q", "-m", "ndcg", "-m", "ndcg_cut.10,30"))
    for qid in expected.index:
        assert got["ndcg", qid] == round(expected.loc[qid, "ndcg"], 4)
        assert got["ndcg_cut_30", qid] == round(expected.loc[qid, "ndcg@30"], 4)
    assert got["ndcg_cut_10", "all"] == round(expected["ndcg@10"].mean(), 4)
    done = cli(QRELS, RUN, "-M", "0")
    assert done.returncode == 2 and "depth must be a whole number of at least 1" in done.stderr


def test_gain_map_leaves_unlisted_grades_at_their_own_value():
    """m_ndcg.c: 'ndcg.2=5' gives grade 2 gain 5; grades 1, 3, 4 keep gains 1, 3, 4 and
    negative grades gain 0. The gains apply to ndcg only, not to ndcg_cut."""
    qrels_file = str(TREC / "qrels.rel_level")
    qrels, run = read_qrels(qrels_file), read_run(RUN)
    mapped = evaluate(qrels, run, k=None, gain={0: 0, 1: 1, 2: 5, 3: 3, 4: 4})
    plain = evaluate(qrels, run, k=10)
    got = printed(cli(qrels_file, RUN, "-q", "-m", "ndcg.2=5", "-m", "ndcg_cut.10"))
    for qid in mapped.index:
        assert got["ndcg_2=5", qid] == round(mapped.loc[qid, "ndcg"], 4)
        assert got["ndcg_cut_10", qid] == round(plain.loc[qid, "ndcg@10"], 4)
    assert set(qrels["relevance"]) >= {-1, 1, 2, 3, 4}  # the case covers every kind of grade


def test_minus_c_keeps_missing_queries_at_zero_in_the_mean():
    """results.trunc lacks topic 302: -c counts it as 0 in the mean (out.test.aqc)."""
    done = cli(QRELS, str(TREC / "results.trunc"), "-c", "-m", "ndcg_cut.10")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [line for line in file_lines(
        "out.test.aqc", {"ndcg_cut_10"}.__contains__) if "\tall\t" in line]


def test_pytrec_eval_convention_is_offered_on_the_command_line():
    """A cold ``python -m ndcg_core evaluate -h`` (the entry point itself) names -J and -M."""
    done = run_cli(["evaluate", "-h"], cwd=REPO, fresh=True)
    assert done.returncode == 0, done.stderr
    assert "pytrec_eval" in done.stdout and "-J" in done.stdout and "-M" in done.stdout
