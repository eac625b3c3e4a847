"""AppTest checks of "Evaluate your runs": every number on the page is ndcg_core's."""

from __future__ import annotations

import ast
import copy
import gc
import io
from pathlib import Path

import pandas as pd
import pytest
from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from ndcg_core import evaluate, read_qrels, read_run
from lab import runs as R
from lab.text import MISSING
from lab.upload_limits import MAX_UPLOAD_RUNS
from ui import state as app_state
from ui.your_data import SAMPLE_RUNS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SAMPLES = ROOT / "assets" / "samples"
QRELS = read_qrels(SAMPLES / "qrels.txt")
RUN_A = read_run(SAMPLES / "system_a.run")
RUN_B = read_run(SAMPLES / "system_b.run")

A, B = "system_a.run", "system_b.run"  # the sample's first two runs, named by their files
SAMPLE = {name: read_run(SAMPLES / name) for name in SAMPLE_RUNS}  # all nine, in page order
SMALL_QRELS = b"1 0 d1 2\n1 0 d2 0\n1 0 d3 1\n2 0 d4 1\n2 0 d5 0\n"
SMALL_RUN = b"1 Q0 d2 1 3.0 r\n1 Q0 d1 2 2.0 r\n1 Q0 d3 3 1.0 r\n2 Q0 d4 1 5.0 r\n"


def page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/your_data.py").run()
    assert not at.exception
    return at


def with_sample() -> AppTest:
    at = page()
    at.button(key="yd_sample").click().run()
    assert not at.exception
    return at


def open_tab(at, name) -> AppTest:
    """Open one of the result tabs (only the open tab is computed), as a click does."""
    at.session_state[app_state.YD_TAB] = name
    at.run()
    assert not at.exception
    return at


def means(at) -> pd.DataFrame:
    """The headline table, one row per run (empty when the page shows none)."""
    tables = [d.value for d in at.dataframe if "queries" in d.value.columns]
    return tables[0].set_index("run") if tables else pd.DataFrame()


def shown_means(at, system=A) -> dict:
    """{k: mean NDCG@k} of one run as the page writes it (4 decimals)."""
    row = means(at).loc[system]
    return {int(c[5:]): f"{row[c]:.4f}" for c in row.index
            if c.startswith("NDCG@") and " " not in c}


def expected_means(run, ks=(5, 10, 20), **options) -> dict:
    table = evaluate(QRELS, run, k=ks, **options)
    return {k: f"{table[f'ndcg@{k}'].mean():.4f}" for k in ks}


def upload(at, slot, *files):
    """Put files in an upload widget: ``upload(at, "qrels", name, data)`` or
    ``upload(at, "runs", (name, data), (name, data), ...)``."""
    gen = at.session_state["yd_gen"] if "yd_gen" in at.session_state else 0
    widget = at.file_uploader(key=f"yd_upload_{slot}_{gen}")
    if slot == "qrels":
        widget.set_value((files[0], files[1], "text/plain"))
    else:
        widget.set_value([(name, data, "text/plain") for name, data in files])


def table_with(at, column):
    """The first table on the page with this column (AppTest does not expose table keys)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def comparison(at) -> pd.DataFrame:
    """The comparison table as shown, indexed by run."""
    return table_with(at, "p (adj.)").set_index("run")


def per_query_ndcg(runs: dict, k=20, **options) -> pd.DataFrame:
    """What the page hands to ndcg_core.compare: NDCG@k per query, one column per run."""
    return pd.concat({name: evaluate(QRELS, run, k=k, **options)[f"ndcg@{k}"]
                      for name, run in runs.items()}, axis=1)


def run_bytes(run: pd.DataFrame) -> bytes:
    return "".join(f"{q} Q0 {d} {i} {s!r} t\n" for i, (q, d, s) in
                   enumerate(run.itertuples(index=False), 1)).encode()


def ten_runs() -> dict:
    """System A and nine noisy copies of it: {file name: run frame}."""
    import numpy as np
    rng = np.random.default_rng(14)
    runs = {"a.run": RUN_A}
    for i in range(1, 10):
        runs[f"noisy{i}.run"] = RUN_A.assign(
            score=RUN_A["score"] + rng.normal(0, 0.3 * i, len(RUN_A)).round(3))
    return runs


def with_runs(runs) -> AppTest:
    """The sample judgments and these runs ({name: frame}, or (name, frame) pairs) uploaded."""
    at = page()
    upload(at, "qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes())
    pairs = runs.items() if isinstance(runs, dict) else runs
    upload(at, "runs", *[(name, run_bytes(run)) for name, run in pairs])
    at.run()
    assert not at.exception and not at.error, errors(at)
    return at


def chart_data(chart) -> list[dict]:
    """A drawn Plotly chart's traces, arrays decoded (plotly sends numbers as base64)."""
    import base64
    import json

    import numpy as np

    def decode(v):
        if isinstance(v, dict) and "bdata" in v:
            return np.frombuffer(base64.b64decode(v["bdata"]), v["dtype"]).tolist()
        return v
    return [{k: decode(v) for k, v in t.items()} for t in json.loads(chart.proto.spec)["data"]]


def errors(at) -> str:
    return "\n".join(e.value for e in at.error)


def test_page_without_files_asks_for_them():
    """A first visit shows the upload widgets, the size limit and no error."""
    at = page()
    assert len(at.file_uploader) == 2
    assert at.file_uploader(key="yd_upload_runs_0").accept_multiple_files
    assert any("up to 160 MB" in c.value for c in at.caption)
    assert not at.error and means(at).empty


def test_sample_shows_the_engines_means_for_every_run():
    """One click on the sample shows mean NDCG@5/10/20 of its nine runs, named by their
    files, as ndcg_core says."""
    at = with_sample()
    assert list(means(at).index) == list(SAMPLE_RUNS)
    for name, run in SAMPLE.items():
        assert shown_means(at, name) == expected_means(run), name


def test_sample_mean_agrees_with_pytrec_eval():
    """The trec_eval preset's mean NDCG@10 of every sample run equals pytrec_eval's
    ndcg_cut_10 mean."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {}
    for q, d, g in QRELS.itertuples(index=False):
        qrels.setdefault(q, {})[d] = int(g)
    at = with_sample()
    for name, frame in SAMPLE.items():
        run = {}
        for q, d, s in frame.itertuples(index=False):
            run.setdefault(q, {})[d] = float(s)
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
        mean = sum(v["ndcg_cut_10"] for v in per_query.values()) / len(per_query)
        assert shown_means(at, name)[10] == f"{mean:.4f}", name


@pytest.mark.parametrize("key, value, options", [
    ("yd_gain", "exponential", dict(gain="exponential")),
    ("yd_ties", "average", dict(ties="average")),
    ("yd_zero_idcg", "one", dict(zero_idcg="one")),
    ("yd_zero_idcg", "nan", dict(zero_idcg="nan")),
    ("yd_ideal_pool", "retrieved", dict(ideal_pool="retrieved")),
    ("yd_missing", "zero", dict(missing="zero")),
])
def test_changing_an_option_changes_the_means_as_the_engine_says(key, value, options):
    """Each option widget moves the means exactly as evaluate(...) with that option does."""
    at = with_sample()
    before = shown_means(at)
    at.selectbox(key=key).set_value(value).run()
    assert not at.exception
    assert shown_means(at) == expected_means(RUN_A, **options) != before


@pytest.mark.parametrize("preset", list(nc.CONVENTIONS))
def test_choosing_a_preset_sets_its_options_and_its_numbers(preset):
    """A preset sets every option it bundles, and the means follow evaluate(convention=...)."""
    at = with_sample()
    at.selectbox(key="yd_preset").set_value(preset).run()
    for name, value in nc.CONVENTIONS[preset].items():
        assert at.selectbox(key=f"yd_{name}").value == value
    assert shown_means(at) == expected_means(RUN_A, convention=preset)
    assert shown_means(at, B) == expected_means(RUN_B, convention=preset)


def test_option_choices_and_help_come_from_the_engine():
    """The option widgets list exactly OPTIONS' choices, with OPTIONS' help text."""
    at = page()
    for name in R.SETTING_NAMES:
        box = at.selectbox(key=f"yd_{name}")
        assert list(box.options) == [str(c) for c in nc.OPTIONS[name].choices]
        assert box.help == nc.OPTIONS[name].help()
        assert box.label == nc.OPTIONS[name].label


def test_other_cutoffs_show_other_means():
    """Choosing cutoffs 1 and 3 shows NDCG@1 and NDCG@3 as the engine computes them."""
    at = with_sample()
    at.multiselect(key="yd_ks").set_value([3, 1]).run()
    assert shown_means(at) == expected_means(RUN_A, ks=(1, 3))


def test_unjudged_and_missing_queries_are_reported():
    """The run-only query q51 and the judged-only query q50 are named, with how they count."""
    at = with_sample()
    text = "\n".join(c.value for c in at.caption)
    assert "q51" in text and "q50" in text and "left out of the mean" in text
    at.selectbox(key="yd_missing").set_value("zero").run()
    text = "\n".join(c.value for c in at.caption)
    assert "scored 0 and counted in the mean" in text


def test_changing_the_cutoff_does_not_evaluate_again(monkeypatch):
    """Switching the cutoff of the comparison and charts reuses the cached evaluation."""
    at = open_tab(with_sample(), "Wins and losses")
    calls = []
    real = nc.evaluate
    monkeypatch.setattr(nc, "evaluate", lambda *a, **kw: calls.append(kw) or real(*a, **kw))
    at.segmented_control(key="yd_k").set_value(5).run()
    assert not at.exception and calls == []
    assert "NDCG@5" in comparison(at).columns


def test_files_in_session_state_are_used():
    """The documented session key (what the sample button fills) feeds the page."""
    at = page()
    at.session_state[app_state.YD_FILES] = {"qrels": {"name": "q.txt", "data": SMALL_QRELS},
                                            "runs": [{"name": "r.txt", "data": SMALL_RUN}]}
    at.run()
    q, r = read_qrels(io.BytesIO(SMALL_QRELS)), read_run(io.BytesIO(SMALL_RUN))
    assert shown_means(at, "r.txt")[5] == f"{evaluate(q, r, k=5)['ndcg@5'].mean():.4f}"


def test_uploaded_files_are_evaluated():
    """Files put in the upload widgets are read and evaluated."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "runs", ("r.run", SMALL_RUN))
    at.run()
    assert not at.exception and not at.error
    q, r = read_qrels(io.BytesIO(SMALL_QRELS)), read_run(io.BytesIO(SMALL_RUN))
    assert shown_means(at, "r.run")[10] == f"{evaluate(q, r)['ndcg@10'].mean():.4f}"


def test_one_csv_with_grades_and_scores_is_judgments_and_run():
    """A CSV qid,docid,relevance,score alone is judgments and a run (named by the file)."""
    csv = b"qid,docid,relevance,score\n1,a,2,0.9\n1,b,0,0.8\n1,c,3,0.1\n2,d,1,0.5\n"
    at = page()
    upload(at, "qrels", "both.csv", csv)
    at.run()
    q, r = read_qrels(io.BytesIO(csv)), read_run(io.BytesIO(csv))
    assert not at.error
    assert shown_means(at, "both.csv")[5] == f"{evaluate(q, r, k=5)['ndcg@5'].mean():.4f}"


@pytest.mark.parametrize("name, data, message", [
    ("empty.txt", b"", "is empty"),
    ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    ("cols.csv", b"query,document,stars\n1,a,2\n", "but needs ['qid', 'docid', 'relevance']"),
    ("grades.txt", b"1 0 d1 2\n1 0 d2 high\n", "line 2: relevance is 'high'"),
    ("short.txt", b"1 0 d1 2\n1 0 d2\n", "line 2: expected 4 fields"),
    ("dupes.txt", b"1 0 d1 2\n1 0 d1 0\n", "lists docid 'd1' twice for qid '1'"),
    ("header.csv", b"qid,docid,relevance\n", "has a header but no data lines"),
    ("latin1.txt", "1 0 caf\xe9 1\n".encode("latin-1"), "is not UTF-8 text"),
])
def test_a_malformed_judgments_file_shows_its_message(name, data, message):
    """A bad judgments file shows what is wrong (and where); the page keeps working."""
    at = page()
    upload(at, "qrels", name, data)
    upload(at, "runs", ("r.run", SMALL_RUN))
    at.run()
    assert not at.exception
    assert message in errors(at).replace("\\", "")
    assert means(at).empty
    at.button(key="yd_sample").click().run()  # the rest of the page still works
    assert not at.exception and shown_means(at) == expected_means(RUN_A)


def test_a_malformed_second_run_leaves_the_first_one_evaluated():
    """A run with a duplicate document is refused by name; the other run is still shown."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "runs", ("a.run", SMALL_RUN), ("b.run", SMALL_RUN + b"1 Q0 d1 9 0.5 r\n"))
    at.run()
    assert not at.exception
    assert "b\\.run" in errors(at) and "twice" in errors(at)
    assert list(means(at).index) == ["a.run"]


def test_a_bad_run_line_is_named():
    """A run line with a missing field is reported with its line number."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "runs", ("a.run", b"1 Q0 d1 1 2.0 r\n1 Q0 d2 1\n"))
    at.run()
    assert not at.exception
    assert "line 2: expected 6 fields" in errors(at).replace("\\", "")


def test_uploaded_ids_are_shown_as_text_not_markup():
    """Query ids are data: Markdown/HTML in them is escaped in the page's text."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "runs", ("a.run", SMALL_RUN + b"<b>x</b> Q0 d1 1 1.0 r\n"))
    at.run()
    text = "\n".join(c.value for c in at.caption)
    assert "\\<b\\>x\\</b\\>" in text and "<b>x</b>" not in text


def test_what_changed_lists_every_preset_and_the_reasons():
    """The panel holds the mean under every preset and why the top queries differ."""
    at = open_tab(with_sample(), "What changed?")
    means = table_with(at, "preset").set_index("preset")
    assert list(means.index) == list(nc.CONVENTIONS)
    for preset in nc.CONVENTIONS:
        for system, run in [(A, RUN_A), (B, RUN_B)]:
            assert means.loc[preset, f"{system} NDCG@20"] == pytest.approx(
                evaluate(QRELS, run, k=20, convention=preset)["ndcg@20"].mean())
    spread = table_with(at, "spread")
    q07 = spread[spread["qid"] == "q07"]
    assert not q07.empty and "all judgments 0" in q07["why"].iloc[0]
    assert spread["spread"].is_monotonic_decreasing


def test_open_in_playground_carries_the_querys_ranking():
    """The button opens the playground with the query's top documents and grades."""
    at = with_sample()
    at.selectbox(key="yd_open_qid").set_value("q03").run()
    at.button(key="yd_open").click().run()
    assert not at.exception
    params = at.query_params
    labels = params["l"]
    top = RUN_A[RUN_A["qid"] == "q03"].sort_values(["score", "docid"], ascending=False)
    assert labels == top["docid"].head(50).tolist()
    grade = QRELS[QRELS["qid"] == "q03"].set_index("docid")["relevance"]
    expected = [int(grade.get(d, 0)) for d in labels]
    assert params["g"] == ",".join(str(g) for g in expected)
    assert params["k"] == "20" and params["gain"] == "linear"


@pytest.mark.parametrize("qid", ["q03", "q12", "q07"])
def test_the_playground_link_reproduces_the_querys_ndcg(qid):
    """The ranking + unretrieved grades handed to the playground give the engine's NDCG@20
    for it."""
    settings = R.Settings((20,), "trec_eval", tuple(dict(
        gain="linear", ties="docid", zero_idcg="zero", negative="zero", ideal_pool="judged",
        missing="skip").items()))
    params = R.playground_link(QRELS, RUN_A, qid, settings, 20)
    grades = [float(g) for g in params["g"].split(",")]
    unretrieved = [float(g) for g in params.get("unretrieved", "").split(",") if g]
    value = nc.ndcg(grades, k=int(params["k"]), ideal=grades + unretrieved)
    assert value == pytest.approx(evaluate(QRELS, RUN_A, k=20).loc[qid, "ndcg@20"])


def test_only_the_open_tab_is_drawn():
    """Closed tabs cost nothing: the preset comparison appears only once its tab is open."""
    at = with_sample()
    assert not any("preset" in d.value.columns for d in at.dataframe)
    assert not at.get("plotly_chart")
    open_tab(at, "Charts")
    assert len(at.get("plotly_chart")) == 2
    open_tab(at, "What changed?")
    assert any("preset" in d.value.columns for d in at.dataframe)


def test_uploads_keep_only_their_digests_between_runs(monkeypatch):
    """The session keeps an uploaded file's digest, never bytes of an earlier run (a deep
    copy was a second copy of a 150 MB file between runs and a third during the next, issue
    16), and hashes each file once; an Upload shares the bytes of the file it is given."""
    session = {}
    monkeypatch.setattr(app_state.data, "ss", session)  # the data page's state (ui/state/data.py)
    rec = UploadedFileRec(file_id="f1", name="a.run", type="text/plain",
                          data=b"q1 Q0 d1 1 2.0 t\n")
    run1 = copy.deepcopy(UploadedFile(rec, None))
    (first,) = app_state.uploaded([run1])
    assert session[app_state.YD_UPLOADS] == {"f1": first.digest}  # a str, not the bytes

    def hashed_again(cls, name, data):
        raise AssertionError("hashed again")

    monkeypatch.setattr(R.Upload, "of", classmethod(hashed_again))
    run2 = copy.deepcopy(UploadedFile(rec, None))
    (second,) = app_state.uploaded([run2])
    assert second == first and second.data is run2.getvalue()  # this run's copy, shared
    assert app_state.uploaded([]) == [] and session[app_state.YD_UPLOADS] == {}  # removed


def test_a_run_is_evaluated_with_no_second_copy_of_its_upload(monkeypatch):
    """st.file_uploader returns a deep copy of every file (Streamlit's guard against scripts
    changing a widget's value): kept for the run, it was a second copy of a 150 MB upload
    through the parse and the evaluation, the peak's 4.5x the file (issue 16). The page
    reads the widget's own value from st.session_state instead: while the run is evaluated,
    every file object and Upload of the run holds one and the same bytes object, the one
    Streamlit stores for the upload."""
    held = []

    def watched(q, r, **options):
        # what holds the run's bytes at this moment: Streamlit's file objects and the page's
        # Uploads (a bytes object is not tracked by the collector; its holders are)
        holders = [o for o in gc.get_objects() if isinstance(o, (R.Upload, io.BytesIO))
                   and getattr(o, "name", None) == "mine.run"]
        held.append({type(o).__name__: id(o.data if isinstance(o, R.Upload)
                                           else o.getvalue()) for o in holders})
        return evaluate_(q, r, **options)

    evaluate_ = R.evaluate
    monkeypatch.setattr(R, "evaluate", watched)
    at = page()
    upload(at, "qrels", "judged.txt", SMALL_QRELS)
    upload(at, "runs", ("mine.run", SMALL_RUN))
    at.run()
    assert not at.exception and not at.error
    assert held, "the run was not evaluated"
    for bytes_of in held:
        assert set(bytes_of) == {"UploadedFile", "Upload"}
        assert len(set(bytes_of.values())) == 1, bytes_of  # one bytes object, not two
    assert list(means(at).index) == ["mine.run"]


def test_the_page_defines_no_function_that_would_keep_its_uploads():
    """Streamlit keeps a widget's format_func and a download's data callable until the next
    run; a function defined in the page keeps the page's globals with it, and those hold the
    uploads' bytes (a 150 MB run held twice between runs, issue 16)."""
    tree = ast.parse((ROOT / "pages" / "your_data.py").read_text(encoding="utf-8"))
    defined = [type(node).__name__ for node in ast.walk(tree)
               if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef))]
    assert defined == []


def test_query_facts_name_what_makes_presets_disagree():
    """The reasons come from the data: q07 all zero, q12 loses its best document, ties."""
    facts = R.query_facts(QRELS, RUN_A)
    assert len(facts) == 50 and "q51" not in facts.index
    why = R.reasons(facts, 10)
    assert "all judgments 0" in why["q07"]
    assert "relevant documents not retrieved" in why["q12"]
    # System A ties its top score between two documents of different grades on every query
    assert (facts["first_tie"].drop(["q07", "q50"]) == 1).all()
    assert facts.loc["q50", "first_tie"] == float("inf")  # not retrieved at all
    assert "tied scores in the top 10" in why["q01"]
    assert "negative grades" not in "".join(why)


def test_query_facts_and_judged_run_same_as_with_pandas_own_codes(monkeypatch):
    """The page codes ids through the engine's id_codes (Arrow, issue 16); the facts and the
    condensed run equal those of pandas factorizing the ids as objects, as it did before."""
    def factorized(a, b, *, ids=True):
        codes, uniques = pd.concat([a, b], ignore_index=True).factorize()
        return codes[: len(a)], codes[len(a):], uniques if ids else len(uniques)

    arrow = {name: (R.query_facts(QRELS, run).sort_index(), R.judged_run(QRELS, run))
             for name, run in (("A", RUN_A), ("B", RUN_B))}
    monkeypatch.setattr(R.nc, "id_codes", factorized)
    for name, run in (("A", RUN_A), ("B", RUN_B)):
        pd.testing.assert_frame_equal(arrow[name][0], R.query_facts(QRELS, run).sort_index())
        pd.testing.assert_frame_equal(arrow[name][1], R.judged_run(QRELS, run))


def test_query_facts_agree_with_a_plain_loop():
    """The vectorised facts equal a per-query loop over System B (rounded scores tie)."""
    facts = R.query_facts(QRELS, RUN_B)
    grade = QRELS.set_index(["qid", "docid"])["relevance"].to_dict()
    for qid, judged in QRELS.groupby("qid"):
        docs = RUN_B[RUN_B["qid"] == qid].sort_values("score", ascending=False, kind="stable")
        ranks = {}
        for rank, (doc, score) in enumerate(zip(docs["docid"], docs["score"]), 1):
            ranks.setdefault(score, []).append((rank, grade.get((qid, doc), 0)))
        mixed = [min(r for r, _ in group) for group in ranks.values()
                 if len({g for _, g in group}) > 1]
        assert facts.loc[qid, "first_tie"] == min(mixed, default=float("inf")), qid
        relevant = set(judged.loc[judged["relevance"] > 0, "docid"])
        assert facts.loc[qid, "unretrieved"] == len(relevant - set(docs["docid"])), qid
        assert facts.loc[qid, "max_grade"] == judged["relevance"].max()


def test_negative_grades_follow_the_negative_rule():
    """A negative grade: refused under sklearn's rule (said so), counted 0 under trec_eval's."""
    qrels = SMALL_QRELS + b"1 0 d9 -1\n"
    at = page()
    upload(at, "qrels", "q.txt", qrels)
    upload(at, "runs", ("r.run", SMALL_RUN + b"1 Q0 d9 4 0.5 r\n"))
    at.run()
    q, r = read_qrels(io.BytesIO(qrels)), read_run(io.BytesIO(SMALL_RUN + b"1 Q0 d9 4 0.5 r\n"))
    assert shown_means(at, "r.run")[5] == f"{evaluate(q, r, k=5)['ndcg@5'].mean():.4f}"
    open_tab(at, "What changed?")
    assert any("sklearn refuses r\\.run" in c.value for c in at.caption)
    at.selectbox(key="yd_preset").set_value("sklearn").run()
    assert not at.exception and "refused by negative" in errors(at).replace("\\", "")
    assert means(at).empty
    at.selectbox(key="yd_negative").set_value("keep").run()
    expected = evaluate(q, r, k=5, convention="sklearn", negative="keep")["ndcg@5"].mean()
    assert not at.error and shown_means(at, "r.run")[5] == f"{expected:.4f}"


def test_clear_empties_the_page():
    """Clear forgets the files: the page asks for uploads again."""
    at = with_sample()
    at.button(key="yd_clear").click().run()
    assert not at.exception and means(at).empty
    assert any("Upload judgments" in i.value for i in at.info)


def test_files_with_no_query_in_common_say_so():
    """Judgments and a run with different query ids: a warning, the run's queries named."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "runs", ("r.run", SMALL_RUN.replace(b"1 Q0", b"7 Q0").replace(b"2 Q0", b"8 Q0")))
    at.run()
    assert not at.exception and means(at).empty
    assert any("same query ids" in w.value for w in at.warning)
    assert any("7, 8" in c.value for c in at.caption)


# ------------------------------------------------------------------ many runs, statistics

def test_ten_runs_are_evaluated_and_compared_with_the_first():
    """Ten runs: a row each, in upload order, and compare()'s numbers against the first."""
    runs = ten_runs()
    at = with_runs(runs)
    assert list(means(at).index) == list(runs)
    for name, run in runs.items():
        assert shown_means(at, name) == expected_means(run)
    expected = nc.compare(per_query_ndcg(runs), baseline="a.run")
    shown = comparison(at)
    assert list(shown.index) == list(runs)  # the baseline first
    for column, engine in [("NDCG@20", "mean"), ("Δ", "delta"), ("p", "p"),
                           ("p (adj.)", "p_adj"), ("CI low", "ci_low"), ("d_z", "effect_size")]:
        pd.testing.assert_series_equal(shown[column], expected[engine], check_names=False,
                                       check_index_type=False)
    marks = shown["sig."] == "†"
    assert (marks == expected["significant"]).all() and marks.any() and not marks.all()
    counts = nc.wins_losses(per_query_ndcg(runs), baseline="a.run")
    assert (shown.loc[counts.index, ["wins", "ties", "losses"]].astype(int) == counts).all().all()


def test_an_eleventh_run_is_weighed_by_choose_gain_and_cutoff_only():
    """More than ten runs: the tables and the comparison show the first ten and say so;
    "Choose gain and cutoff" weighs all eleven (55 pairs of runs)."""
    runs = ten_runs() | {"eleventh.run": RUN_B}
    at = page()
    upload(at, "qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes())
    upload(at, "runs", *[(name, run_bytes(run)) for name, run in runs.items()])
    at.run()
    assert not at.exception
    assert not at.warning
    assert any("11 runs: the tables, charts and the comparison show the first 10; Choose "
               "gain and cutoff weighs all 11." in c.value for c in at.caption)
    assert len(means(at)) == 10 and "eleventh.run" not in means(at).index
    at.session_state["yd_tab"] = "Choose gain and cutoff"
    at.run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "kendall_tau" in d.value.columns)
    assert (table["pairs"] == 55).all()


def test_a_thirty_first_run_is_left_out_and_named():
    """More than thirty runs: the first thirty are kept; the others are named, not dropped
    silently."""
    runs = {f"r{i:02d}.run": SMALL_RUN for i in range(31)}
    at = page()
    upload(at, "qrels", "qrels.txt", SMALL_QRELS)
    upload(at, "runs", *runs.items())
    at.run()
    assert not at.exception
    assert any("31 runs uploaded" in w.value and "r30\\.run" in w.value for w in at.warning)
    assert any("30 runs: the tables" in c.value for c in at.caption)


def test_runs_with_the_same_file_name_get_a_number():
    """Two files called run.txt (from two folders) are two runs: run.txt and run.txt (2)."""
    at = with_runs([("run.txt", RUN_A), ("run.txt", RUN_B)])
    assert list(means(at).index) == ["run.txt", "run.txt (2)"]


@pytest.mark.parametrize("test", list(nc.COMPARE_OPTIONS["test"].choices))
def test_the_same_run_uploaded_twice_compares_as_no_difference(test):
    """The same file twice (issue 26): under every test, p = 1 and Δ = 0 in the table, a
    note saying the scores are equal on every query, and no exception or error."""
    at = page()
    upload(at, "qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes())
    data = (SAMPLES / "system_a.run").read_bytes()
    upload(at, "runs", ("a.run", data), ("a.run", data))
    at.run()
    at.selectbox(key="yd_test").set_value(test).run()
    assert not at.exception and not at.error, errors(at)
    shown = comparison(at)
    twin = "a.run (2)"
    assert shown.loc[twin, "p"] == 1 and shown.loc[twin, "p (adj.)"] == 1
    assert shown.loc[twin, "Δ"] == 0 and shown.loc[twin, "sig."] == ""
    assert shown.loc[twin, "CI low"] == shown.loc[twin, "CI high"] == 0
    assert shown.loc[twin, ["wins", "losses"]].tolist() == [0, 0]
    assert any("a\\.run \\(2\\): the same NDCG@20 as the baseline on every query" in c.value
               and "p = 1" in c.value for c in at.caption)
    for tab in ("Wins and losses", "Charts", "What changed?"):
        open_tab(at, tab)
        assert not at.error, errors(at)


def test_choosing_the_baseline_compares_the_others_with_it():
    """The first run is the baseline by default; choosing System B reorders and retests."""
    at = with_sample()
    assert at.selectbox(key="yd_baseline").value == A
    at.selectbox(key="yd_baseline").set_value(B).run()
    assert not at.exception
    expected = nc.compare(per_query_ndcg(SAMPLE), baseline=B)
    shown = comparison(at)
    assert list(shown.index) == [B, A] + list(SAMPLE_RUNS[2:])
    assert shown["Δ"].tolist() == pytest.approx(expected["delta"].tolist())
    assert shown.loc[A, "Δ"] == expected.loc[A, "delta"] < 0
    assert any(f"against **{B.replace('_', chr(92) + '_').replace('.', chr(92) + '.')}**"
               in c.value for c in at.caption)


def test_test_and_correction_choices_and_help_come_from_the_engine():
    """The widgets list COMPARE_OPTIONS' choices with its help text."""
    at = with_sample()
    for name in ("test", "correction"):
        box, opt = at.selectbox(key=f"yd_{name}"), nc.COMPARE_OPTIONS[name]
        assert box.label == opt.label and box.help == opt.help()
        assert [None if o == "none" else o for o in box.options] == list(opt.choices)
        assert box.value == (opt.default or "none")


@pytest.mark.parametrize("test", list(nc.COMPARE_OPTIONS["test"].choices))
@pytest.mark.parametrize("correction", ["holm", "bh", "none"])
def test_each_test_and_correction_shows_the_engines_numbers(test, correction):
    """Every test × correction: p, adjusted p, the interval and the marks are compare()'s."""
    runs = {name: run for name, run in ten_runs().items() if name in
            ("a.run", "noisy1.run", "noisy2.run", "noisy5.run")}
    at = with_runs(runs)
    at.selectbox(key="yd_test").set_value(test)
    at.selectbox(key="yd_correction").set_value(correction).run()
    assert not at.exception
    expected = nc.compare(per_query_ndcg(runs), baseline="a.run", test=test,
                                 correction=None if correction == "none" else correction)
    shown = comparison(at)
    for column, engine in [("p", "p"), ("p (adj.)", "p_adj"), ("CI low", "ci_low"),
                           ("CI high", "ci_high")]:
        pd.testing.assert_series_equal(shown[column], expected[engine], check_names=False,
                                       check_index_type=False)
    assert ((shown["sig."] == "†") == expected["significant"]).all()


def test_alpha_moves_the_significance_marks():
    """Alpha moves the marks: exactly the runs whose adjusted p is below it are marked."""
    at = with_runs(ten_runs())
    p_adj = comparison(at)["p (adj.)"]
    counts = {}
    for alpha in (0.01, 0.1):  # noisy3's p_adj is 0.0069, noisy2's 0.053 (Holm)
        at.number_input(key="yd_alpha").set_value(alpha).run()
        marks = comparison(at)["sig."] == "†"
        assert (marks == (p_adj < alpha)).all()
        counts[alpha] = int(marks.sum())
    assert counts == {0.01: 7, 0.1: 8}


def shown_number(widget) -> float:
    """What a number box shows in the browser: the value the script sent, or else (when the
    server sent none) the box's default."""
    return widget.proto.value if widget.proto.set_value else widget.proto.default


def test_alpha_is_the_same_in_its_box_the_caption_and_the_marks_after_clear_and_upload():
    """Sample, α 0.1, Clear, upload: the α box shows 0.1 (not its minimum, 0.001), as the
    caption and the comparison use."""
    at = with_sample()
    at.number_input(key="yd_alpha").set_value(0.1).run()
    at.button(key="yd_clear").click().run()
    assert not at.exception and means(at).empty
    upload(at, "qrels", "qrels.txt", (SAMPLES / "qrels.txt").read_bytes())
    upload(at, "runs", (A, run_bytes(RUN_A)), (B, run_bytes(RUN_B)))
    at.run()
    assert not at.exception
    assert shown_number(at.number_input(key="yd_alpha")) == 0.1
    assert any("adjusted p < 0.1 against" in c.value for c in at.caption)
    p_adj = comparison(at)["p (adj.)"]
    assert ((comparison(at)["sig."] == "†") == (p_adj < 0.1)).all()


def test_the_baseline_row_shows_a_dash_where_it_has_no_test():
    """The baseline is not tested: its p, adjusted p, interval, effect size and counts are
    empty cells, drawn as "—" (the grid's own word for them is "None")."""
    at = with_sample()
    frame = next(d for d in at.dataframe if "p (adj.)" in d.value.columns)
    row = frame.value.set_index("run").loc[A]
    assert sorted(row.index[row.isna()]) == sorted(
        ["p", "p (adj.)", "CI low", "CI high", "d_z", "wins", "ties", "losses"])
    assert frame.proto.placeholder == MISSING == "—"
    for d in at.dataframe:  # every table of results draws a missing value the same way
        if {"run", "qid"} & set(d.value.columns):
            assert d.proto.placeholder == "—", list(d.value.columns)


def test_exports_hold_the_engines_table():
    """CSV, Markdown and LaTeX buttons; their text is compare()'s table, as written by
    to_markdown / to_latex with 4 decimals, the p-values exact in the CSV."""
    at = with_sample()
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    assert {"CSV", "Markdown", "LaTeX"} <= set(buttons)
    assert all(buttons[b].ignore_rerun for b in ("CSV", "Markdown", "LaTeX"))
    table = nc.compare(per_query_ndcg({A: RUN_A, B: RUN_B}), baseline=A)
    files = R.export_files(table, 20)
    assert files["Markdown"][2] == nc.to_markdown(table, digits=4)
    assert files["LaTeX"][2] == nc.to_latex(table, digits=4)
    csv = pd.read_csv(io.StringIO(files["CSV"][2]), index_col="system")
    assert csv.loc[B, "p"] == table.loc[B, "p"] and list(csv.index) == [A, B]
    assert "system\\_b.run" in files["Markdown"][2].replace("\\.", ".")
    assert [f[0] for f in files.values()] == ["ndcg20_comparison.csv", "ndcg20_comparison.md",
                                              "ndcg20_comparison.tex"]


def test_wins_and_losses_chart_shows_each_run_against_the_baseline():
    """The tab draws wins/ties/losses per run and the sorted per-query differences."""
    at = open_tab(with_sample(), "Wins and losses")
    charts = at.get("plotly_chart")
    assert len(charts) == 2
    bars = chart_data(charts[0])
    counts = nc.wins_losses(per_query_ndcg(SAMPLE), baseline=A)
    assert [t["x"] for t in bars] == [[int(counts.loc[s, c]) for s in SAMPLE_RUNS[1:]]
                                      for c in ("wins", "ties", "losses")]
    deltas = chart_data(charts[1])[0]
    d = (per_query_ndcg({A: RUN_A, B: RUN_B}).eval(f"`{B}` - `{A}`")).dropna()
    assert sorted(deltas["y"], reverse=True) == deltas["y"]
    assert deltas["y"] == pytest.approx(sorted(d, reverse=True))


def test_hover_labels_show_query_ids_as_text():
    """A query id holding HTML reaches the hover labels escaped (plotly reads a few tags)."""
    qrels = SMALL_QRELS + b"<b>x</b> 0 d1 1\n"
    run = SMALL_RUN + b"<b>x</b> Q0 d1 1 1.0 r\n"
    at = page()
    upload(at, "qrels", "q.txt", qrels)
    upload(at, "runs", ("a.run", run), ("b.run", run.replace(b"3.0", b"0.1")))
    at.run()
    open_tab(at, "Wins and losses")
    labels = chart_data(at.get("plotly_chart")[1])[0]["text"]
    assert "&lt;b&gt;x&lt;/b&gt;" in labels and "<b>x</b>" not in labels


# ------------------------------------------------------------------ unjudged documents

def test_judged_only_switch_changes_ndcg_as_pytrec_eval_does():
    """Condensed lists: the means follow evaluate(judged_only=True) and equal pytrec_eval's
    judged_docs_only_flag=True (trec_eval -J)."""
    import pytrec_eval
    at = with_sample()
    before = shown_means(at, B)
    at.toggle(key="yd_judged_only").set_value(True).run()
    assert not at.exception
    after = shown_means(at, B)
    assert after == {k: f"{R.evaluate(QRELS, RUN_B, k=k, judged_only=True)[f'ndcg@{k}'].mean():.4f}"
                     for k in (5, 10, 20)} and after != before
    qrels, run = {}, {}
    for q, d, g in QRELS.itertuples(index=False):
        qrels.setdefault(q, {})[d] = int(g)
    for q, d, s in RUN_B.itertuples(index=False):
        run.setdefault(q, {})[d] = float(s)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"},
                                               judged_docs_only_flag=True).evaluate(run)
    mean = sum(v["ndcg_cut_10"] for v in per_query.values()) / len(per_query)
    assert after[10] == f"{mean:.4f}"
    # the comparison follows the switch too
    expected = nc.compare(pd.concat(
        {n: R.evaluate(QRELS, r, k=20, judged_only=True)["ndcg@20"]
         for n, r in ((A, RUN_A), (B, RUN_B))}, axis=1), baseline=A)
    assert comparison(at).loc[B, "Δ"] == expected.loc[B, "delta"]


def test_judged_at_k_and_the_unjudged_range_sit_next_to_ndcg():
    """Per run and k: mean Judged@k and mean NDCG@k with unjudged graded 0 / the top grade;
    per query the same at the chosen k."""
    at = with_sample()
    shown = means(at)
    extra = R.unjudged_summary(QRELS, RUN_A, (5, 10, 20), convention="trec_eval")
    for k in (5, 10, 20):
        assert shown.loc[A, f"Judged@{k}"] == extra[f"judged@{k}"].mean() < 1
        assert shown.loc[A, f"NDCG@{k} unjudged=0"] == extra[f"ndcg@{k} unjudged=0"].mean()
        assert shown.loc[A, f"NDCG@{k} unjudged=top"] == extra[f"ndcg@{k} unjudged=top"].mean()
    # unjudged counted as 0 is what trec_eval does: the plain NDCG
    assert f"{shown.loc[A, 'NDCG@10 unjudged=0']:.4f}" == shown_means(at)[10]
    per_query = table_with(at, f"{A} Judged@20").set_index("qid")
    assert per_query[f"{A} Judged@20"].tolist() == extra["judged@20"].tolist()
    assert any("scroll the table sideways" in c.value for c in at.caption)


def test_a_bad_run_file_name_is_shown_as_text():
    """A run's file name is user text: Markdown in it is escaped in the error."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "runs", ("[click](http://x.example) **b**.run", b"1 Q0 d1 1 2.0 r\n1 Q0 d2\n"))
    at.run()
    assert not at.exception
    text = errors(at)
    # backslashes before Markdown's characters, a word joiner inside "http://" (no autolink)
    assert "\\[click\\]\\(http\\:\u2060//x\\.example\\) \\*\\*b\\*\\*\\.run" in text
    assert "[click](" not in text


def test_tables_pin_the_run_and_show_4_decimals():
    """The headline and comparison tables pin their first column and write numbers with
    DATA_DECIMALS (4) decimals, the comparison's p-values included."""
    import json
    at = with_sample()
    configs = {}
    for d in at.dataframe:
        columns = set(d.value.columns)
        if {"queries", "p (adj.)"} & columns:
            configs["means" if "queries" in columns else "compare"] = json.loads(d.proto.columns)
    assert set(configs) == {"means", "compare"}
    for name, config in configs.items():
        assert config["run"]["pinned"] is True, name
    for column in ("NDCG@20", "Δ", "p", "p (adj.)", "CI low", "d_z"):
        assert configs["compare"][column]["type_config"]["format"] == "%.4f", column
    assert configs["means"]["Judged@10"]["type_config"]["format"] == "%.4f"


# ------------------------------------------------------------------ in Chinese

def page_in(lang: str) -> AppTest:
    """The page opened with ?lang=<lang> (a new session)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/your_data.py").run()
    assert not at.exception
    return at


def sample_in(lang: str) -> AppTest:
    at = page_in(lang)
    at.button(key="yd_sample").click().run()
    assert not at.exception
    return at


def headers(at, column) -> dict:
    """{column: header drawn} of the first table holding ``column``."""
    import json
    frame = next(d for d in at.dataframe if column in d.value.columns)
    config = json.loads(frame.proto.columns or "{}")
    return {c: config.get(c, {}).get("label", c) for c in frame.value.columns}


def test_the_page_speaks_chinese_with_lang_zh():
    at = page_in("zh")
    assert at.title[0].value == "评估你的运行结果"
    assert at.file_uploader(key="yd_upload_qrels_0").label == "相关性判断（qrels）"
    assert at.file_uploader(key="yd_upload_runs_0").label == f"run（最多 {MAX_UPLOAD_RUNS} 个）"
    assert at.button(key="yd_sample").label == "载入示例数据"
    assert at.selectbox(key="yd_preset").label == "预设"
    assert at.multiselect(key="yd_ks").label == "截断位置 k"
    assert at.toggle(key="yd_judged_only").label == "只看已标注文档"
    assert at.selectbox(key="yd_gain").label == "增益"
    # a Chinese name, then the engine's value (code), which the widget keeps as its value
    assert at.selectbox(key="yd_gain").options == ["线性（linear）", "指数（exponential）"]
    assert at.selectbox(key="yd_ties").options[:2] == ["并列取平均（average）",
                                                       "按文档 ID 降序（docid）"]
    assert at.selectbox(key="yd_ties").value == "docid"
    assert at.selectbox(key="yd_gain").help.startswith("相关性等级如何变成")
    assert any("每个最大 160 MB" in c.value for c in at.caption)
    assert at.info[0].value.startswith("上传相关性判断和一个 run")


def test_the_sample_gives_the_same_means_in_chinese():
    """The headline means (4 decimals) are the engine's in both languages."""
    zh = sample_in("zh")
    assert shown_means(zh, A) == shown_means(sample_in("en"), A) == expected_means(RUN_A)
    assert shown_means(zh, B) == expected_means(RUN_B)
    drawn = headers(zh, "queries")
    assert drawn["queries"] == "查询数" and drawn["NDCG@10"] == "NDCG@10"
    assert drawn["NDCG@10 unjudged=0"] == "NDCG@10（未标注计为 0）"
    assert zh.header[0].value == "查询平均值"


def test_the_comparison_in_chinese_has_the_english_figures():
    en, zh = sample_in("en"), sample_in("zh")
    shown = {"en": comparison(en), "zh": comparison(zh)}
    # every number is the same; only the baseline's mark is a word ("baseline" / "基线")
    assert shown["zh"].drop(columns="sig.").equals(shown["en"].drop(columns="sig."))
    assert shown["zh"].loc[A, "sig."] == "基线" and shown["en"].loc[A, "sig."] == "baseline"
    drawn = headers(zh, "p (adj.)")
    assert drawn["p (adj.)"] == "p（校正后）" and drawn["CI low"] == "置信区间下限"
    assert zh.selectbox(key="yd_test").label == "显著性检验"
    assert zh.selectbox(key="yd_correction").label == "多重比较校正"
    footnote = next(c.value for c in zh.caption if c.value.startswith("† 表示相对于"))
    assert "Holm（1979）逐步向下法" in footnote and "95% 置信区间" in footnote


def test_the_notices_about_left_out_queries_in_chinese():
    at = sample_in("zh")
    text = "\n".join(c.value for c in at.caption)
    assert "q51" in text and "q50" in text and "不计入平均值" in text


@pytest.mark.parametrize("tab, label", [("Per query", "逐个查询"), ("Charts", "图表"),
                                        ("What changed?", "哪里不同？"),
                                        ("Wins and losses", "胜负")])
def test_every_tab_runs_in_chinese(tab, label):
    at = open_tab(sample_in("zh"), label)
    if tab == "Per query":
        per_query = table_with(at, "qid")
        english = table_with(open_tab(sample_in("en"), tab), "qid")
        assert per_query.equals(english)  # the same cells; headers translated when drawn
        assert headers(at, "qid")[f"{A} retrieved"] == f"{A} 检索到的文档"
        assert at.text_input(key="yd_find").label == "查找查询"
    if tab == "What changed?":
        spread = table_with(at, "spread")
        q07 = spread[spread["qid"] == "q07"]
        assert "全部标注为 0（理想 DCG = 0）" in q07["why"].iloc[0]


def test_the_open_tab_is_kept_when_the_language_changes():
    at = open_tab(sample_in("en"), "Charts")
    at.session_state["lang"] = "zh"
    at.run()
    assert not at.exception
    assert at.session_state[app_state.YD_TAB] == "图表"
    assert at.get("plotly_chart")  # the charts tab is still the one drawn


@pytest.mark.parametrize("name, data, message", [
    ("nan.txt", b"1 0 d1 nan\n1 0 d2 1\n", "nan.txt 第 1 行：relevance 是 'nan'，应为有限的数字。"),
    ("empty.txt", b"", "empty.txt 是空文件：其中没有可读的行。"),
    ("header.csv", b"qid,docid,relevance\n", "header.csv 只有表头，没有数据行。"),
])
def test_a_bad_judgments_file_is_explained_in_chinese(name, data, message):
    from lab.text import escape_markdown
    at = page_in("zh")
    upload(at, "qrels", name, data)
    upload(at, "runs", ("r.run", SMALL_RUN))
    at.run()
    assert not at.exception
    assert errors(at) == f"**相关性判断**无法读取。{escape_markdown(message)}"


def test_a_run_the_preset_refuses_is_explained_in_chinese():
    """sklearn refuses a negative grade: the engine's message, in Chinese, names the row."""
    at = page_in("zh")
    upload(at, "qrels", "q.txt", b"1 0 d1 -1\n1 0 d2 2\n")
    upload(at, "runs", ("r.run", SMALL_RUN))
    at.run()
    at.selectbox(key="yd_preset").set_value("sklearn").run()
    assert not at.exception
    text = errors(at)
    assert text.startswith("**r\\.run** 无法评估。")
    assert "qrels 第 1 行（qid '1'，docid 'd1'）有负等级 \\-1，被 negative='error' 拒绝" in text


@pytest.mark.parametrize("lang, qrels_caption, run_caption", [
    ("en", "1 query, 1 line, grade 2", "1 query, 2 lines"),
    ("zh", "1 个查询，1 行，等级 2", "1 个查询，2 行")])
def test_a_one_query_file_is_one_query_not_1_queries(lang, qrels_caption, run_caption):
    """The captions under the uploaders count in the singular when there is one (issue 26)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/your_data.py").run()
    at.session_state[app_state.YD_FILES] = {
        "qrels": {"name": "q.txt", "data": b"1 0 d1 2\n"},
        "runs": [{"name": "r.txt", "data": b"1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n"}]}
    at.run()
    assert not at.exception
    captions = " ".join(c.value for c in at.caption)
    assert qrels_caption in captions and run_caption in captions, captions
    assert "1 queries" not in captions and "1 lines" not in captions
