"""AppTest checks of "Evaluate your runs": every number on the page is ndcg_core's."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core import evaluate, read_qrels, read_run
from lab import runs as R
from ui import state as app_state
from ui import your_data as D

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SAMPLES = ROOT / "assets" / "samples"
QRELS = read_qrels(SAMPLES / "qrels.txt")
RUN_A = read_run(SAMPLES / "system_a.run")
RUN_B = read_run(SAMPLES / "system_b.run")

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


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def shown_means(at, system="System A") -> dict:
    prefix = f"{system} · mean NDCG@"
    return {int(label[len(prefix):]): value for label, value in metrics(at).items()
            if label.startswith(prefix)}


def expected_means(run, ks=(5, 10, 20), **options) -> dict:
    table = evaluate(QRELS, run, k=ks, **options)
    return {k: f"{table[f'ndcg@{k}'].mean():.4f}" for k in ks}


def upload(at, slot, name, data):
    gen = at.session_state["yd_gen"] if "yd_gen" in at.session_state else 0
    at.file_uploader(key=f"yd_upload_{slot}_{gen}").set_value((name, data, "text/plain"))


def table_with(at, column):
    """The first table on the page with this column (AppTest does not expose table keys)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def errors(at) -> str:
    return "\n".join(e.value for e in at.error)


def test_page_without_files_asks_for_them():
    """A first visit shows the upload widgets, the size limit and no error."""
    at = page()
    assert len(at.file_uploader) == 3
    assert any("up to 160 MB" in c.value for c in at.caption)  # server.maxUploadSize
    assert not at.error and not at.metric


def test_sample_shows_the_engines_means_for_both_systems():
    """One click on the sample shows mean NDCG@5/10/20 of System A and B as ndcg_core says."""
    at = with_sample()
    assert shown_means(at, "System A") == expected_means(RUN_A)
    assert shown_means(at, "System B") == expected_means(RUN_B)


def test_sample_mean_agrees_with_pytrec_eval():
    """The trec_eval preset's mean NDCG@10 equals pytrec_eval's ndcg_cut_10 mean."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {}
    for q, d, g in QRELS.itertuples(index=False):
        qrels.setdefault(q, {})[d] = int(g)
    run = {}
    for q, d, s in RUN_A.itertuples(index=False):
        run.setdefault(q, {})[d] = float(s)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    mean = sum(v["ndcg_cut_10"] for v in per_query.values()) / len(per_query)
    assert shown_means(with_sample())[10] == f"{mean:.4f}"


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


@pytest.mark.parametrize("preset", list(ndcg_core.CONVENTIONS))
def test_choosing_a_preset_sets_its_options_and_its_numbers(preset):
    """A preset sets every option it bundles, and the means follow evaluate(convention=...)."""
    at = with_sample()
    at.selectbox(key="yd_preset").set_value(preset).run()
    for name, value in ndcg_core.CONVENTIONS[preset].items():
        assert at.selectbox(key=f"yd_{name}").value == value
    assert shown_means(at) == expected_means(RUN_A, convention=preset)
    assert shown_means(at, "System B") == expected_means(RUN_B, convention=preset)


def test_option_choices_and_help_come_from_the_engine():
    """The option widgets list exactly OPTIONS' choices, with OPTIONS' help text."""
    at = page()
    for name in R.SETTING_NAMES:
        box = at.selectbox(key=f"yd_{name}")
        assert list(box.options) == [str(c) for c in ndcg_core.OPTIONS[name].choices]
        assert box.help == ndcg_core.OPTIONS[name].help()
        assert box.label == ndcg_core.OPTIONS[name].label


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


def test_two_runs_show_wins_losses_and_the_mean_difference():
    """With two runs: wins/losses/ties and the mean difference at the chosen k."""
    at = open_tab(with_sample(), "A vs B")
    a = evaluate(QRELS, RUN_A, k=20)["ndcg@20"]
    b = evaluate(QRELS, RUN_B, k=20)["ndcg@20"]
    d = (b - a).dropna()
    m = metrics(at)
    assert m["B wins @20"] == str(int((d > 1e-12).sum()))
    assert m["B loses @20"] == str(int((d < -1e-12).sum()))
    assert m["Mean B − A @20"] == f"{d.mean():+.4f}"
    assert any("95% CI" in x.value and "p = " in x.value for x in at.markdown)


def test_paired_stats_are_seeded_and_sensible():
    """The bootstrap CI holds the mean, repeats exactly, and a zero difference has p = 1."""
    import numpy as np
    rng = np.random.default_rng(1)
    a = rng.random(40)
    s1 = R.paired_stats(a, a + 0.1)
    s2 = R.paired_stats(a, a + 0.1)
    assert s1 == s2 and s1["lo"] <= s1["mean"] <= s1["hi"]
    assert s1["wins"] == 40 and s1["p"] < 0.001
    assert R.paired_stats(a, a)["p"] == 1.0


def test_changing_the_chart_cutoff_does_not_evaluate_again(monkeypatch):
    """Switching the cutoff of the charts reuses the cached evaluation."""
    at = open_tab(with_sample(), "A vs B")
    calls = []
    monkeypatch.setattr(D, "evaluate", lambda *a, **kw: calls.append(kw) or evaluate(*a, **kw))
    at.segmented_control(key="yd_k").set_value(5).run()
    assert not at.exception and calls == []
    assert "Mean B − A @5" in metrics(at)


def test_files_in_session_state_are_used():
    """The documented session key (what the sample button fills) feeds the page."""
    at = page()
    at.session_state[app_state.YD_FILES] = {"qrels": {"name": "q.txt", "data": SMALL_QRELS},
                                     "run_a": {"name": "r.txt", "data": SMALL_RUN}}
    at.run()
    q, r = read_qrels(io.BytesIO(SMALL_QRELS)), read_run(io.BytesIO(SMALL_RUN))
    assert metrics(at)["System A · mean NDCG@5"] == f"{evaluate(q, r, k=5)['ndcg@5'].mean():.4f}"


def test_uploaded_files_are_evaluated():
    """Files put in the upload widgets are read and evaluated."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "run_a", "r.run", SMALL_RUN)
    at.run()
    assert not at.exception and not at.error
    q, r = read_qrels(io.BytesIO(SMALL_QRELS)), read_run(io.BytesIO(SMALL_RUN))
    assert metrics(at)["System A · mean NDCG@10"] == f"{evaluate(q, r)['ndcg@10'].mean():.4f}"


def test_one_csv_with_grades_and_scores_is_judgments_and_run():
    """A CSV qid,docid,relevance,score alone gives System A's numbers."""
    csv = b"qid,docid,relevance,score\n1,a,2,0.9\n1,b,0,0.8\n1,c,3,0.1\n2,d,1,0.5\n"
    at = page()
    upload(at, "qrels", "both.csv", csv)
    at.run()
    q, r = read_qrels(io.BytesIO(csv)), read_run(io.BytesIO(csv))
    assert not at.error
    assert metrics(at)["System A · mean NDCG@5"] == f"{evaluate(q, r, k=5)['ndcg@5'].mean():.4f}"


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
    upload(at, "run_a", "r.run", SMALL_RUN)
    at.run()
    assert not at.exception
    assert message in errors(at).replace("\\", "")
    assert not at.metric
    at.button(key="yd_sample").click().run()  # the rest of the page still works
    assert not at.exception and shown_means(at) == expected_means(RUN_A)


def test_a_malformed_second_run_leaves_the_first_one_evaluated():
    """A run with a duplicate document is refused by name; the other run is still shown."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "run_a", "a.run", SMALL_RUN)
    upload(at, "run_b", "b.run", SMALL_RUN + b"1 Q0 d1 9 0.5 r\n")
    at.run()
    assert not at.exception
    assert "System B" in errors(at) and "twice" in errors(at)
    assert "System A · mean NDCG@5" in metrics(at)
    assert not any(label.startswith("System B") for label in metrics(at))


def test_a_bad_run_line_is_named():
    """A run line with a missing field is reported with its line number."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "run_a", "a.run", b"1 Q0 d1 1 2.0 r\n1 Q0 d2 1\n")
    at.run()
    assert not at.exception
    assert "line 2: expected 6 fields" in errors(at).replace("\\", "")


def test_uploaded_ids_are_shown_as_text_not_markup():
    """Query ids are data: Markdown/HTML in them is escaped in the page's text."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "run_a", "a.run", SMALL_RUN + b"<b>x</b> Q0 d1 1 1.0 r\n")
    at.run()
    text = "\n".join(c.value for c in at.caption)
    assert "\\<b\\>x\\</b\\>" in text and "<b>x</b>" not in text


def test_what_changed_lists_every_preset_and_the_reasons():
    """The panel holds the mean under every preset and why the top queries differ."""
    at = open_tab(with_sample(), "What changed?")
    means = table_with(at, "preset").set_index("preset")
    assert list(means.index) == list(ndcg_core.CONVENTIONS)
    for preset in ndcg_core.CONVENTIONS:
        for system, run in [("System A", RUN_A), ("System B", RUN_B)]:
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
    """The ranking + judged pool handed to the playground give the engine's NDCG@20 for it."""
    settings = R.Settings((20,), "trec_eval", tuple(dict(
        gain="linear", ties="docid", zero_idcg="zero", negative="zero", ideal_pool="judged",
        missing="skip").items()))
    params = R.playground_link(QRELS, RUN_A, qid, settings, 20)
    grades = [float(g) for g in params["g"].split(",")]
    pool = [float(g) for g in params.get("pool", "").split(",") if g]
    value = ndcg_core.ndcg(grades, k=int(params["k"]), ideal=grades + pool)
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
    upload(at, "run_a", "r.run", SMALL_RUN + b"1 Q0 d9 4 0.5 r\n")
    at.run()
    q, r = read_qrels(io.BytesIO(qrels)), read_run(io.BytesIO(SMALL_RUN + b"1 Q0 d9 4 0.5 r\n"))
    assert metrics(at)["System A · mean NDCG@5"] == f"{evaluate(q, r, k=5)['ndcg@5'].mean():.4f}"
    open_tab(at, "What changed?")
    assert any("sklearn refuses System A" in c.value for c in at.caption)
    at.selectbox(key="yd_preset").set_value("sklearn").run()
    assert not at.exception and "refused by negative" in errors(at).replace("\\", "")
    assert not at.metric
    at.selectbox(key="yd_negative").set_value("keep").run()
    expected = evaluate(q, r, k=5, convention="sklearn", negative="keep")["ndcg@5"].mean()
    assert not at.error and metrics(at)["System A · mean NDCG@5"] == f"{expected:.4f}"


def test_clear_empties_the_page():
    """Clear forgets the files: the page asks for uploads again."""
    at = with_sample()
    at.button(key="yd_clear").click().run()
    assert not at.exception and not at.metric
    assert any("Upload judgments" in i.value for i in at.info)


def test_files_with_no_query_in_common_say_so():
    """Judgments and a run with different query ids: a warning, the run's queries named."""
    at = page()
    upload(at, "qrels", "q.txt", SMALL_QRELS)
    upload(at, "run_a", "r.run", SMALL_RUN.replace(b"1 Q0", b"7 Q0").replace(b"2 Q0", b"8 Q0"))
    at.run()
    assert not at.exception and not at.metric
    assert any("same query ids" in w.value for w in at.warning)
    assert any("7, 8" in c.value for c in at.caption)
