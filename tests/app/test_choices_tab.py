"""AppTest checks of the data page's "Choose gain and cutoff" tab, in English and Chinese:
every figure on it is ndcg_core.compare_choices's on the sample's nine runs."""

from __future__ import annotations


from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import choices as LC
from ui import state as app_state
from ui.your_data import SAMPLE_RUNS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SAMPLES = ROOT / "assets" / "samples"
TAB = "Choose gain and cutoff"


def sample_tab(lang="en") -> AppTest:
    """The data page with the sample loaded and the tab open, in ``lang``."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/your_data.py").run()
    at.button(key="yd_sample").click().run()
    at.session_state[app_state.YD_TAB] = {"en": TAB, "zh": "选择增益和截断"}[lang]
    at.run()
    assert not at.exception, at.exception
    return at


def expected(**overrides) -> pd.DataFrame:
    """compare_choices on the sample as the tab calls it: the trec_eval preset's options,
    linear and exponential gain at 5, 10, 20 under log2(i + 1) and the steeper discount,
    the t-test at α = 0.05."""
    qrels = nc.read_qrels(SAMPLES / "qrels.txt")
    runs = {name: nc.read_run(SAMPLES / name) for name in SAMPLE_RUNS}
    base = dict(nc.CONVENTIONS["trec_eval"], convention="trec_eval", missing="skip")
    choices = {n: {**base, **spec} for n, spec in LC.grid(
        ("linear", "exponential"), (5, 10, 20), False, ("log2", "steep")).items()}
    return nc.compare_choices(qrels, runs, choices, **overrides)


def choice_table(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "kendall_tau" in d.value.columns)


@pytest.fixture(scope="module")
def english():
    return sample_tab("en")


def test_the_tab_shows_compare_choices_figures_for_every_choice(english):
    """One row per choice (linear/exponential × 5, 10, 20 × log2(i + 1)/steeper), τ,
    τ_AP, discriminative power and swap rate as the engine gives them."""
    shown = choice_table(english)
    want = expected()
    log2 = ["linear@5", "linear@10", "linear@20", "exponential@5", "exponential@10",
            "exponential@20"]
    assert shown["choice"].tolist() == log2 + [f"{n}, steeper" for n in log2]
    for column in ("kendall_tau", "tau_ap", "discriminative_power", "swap_rate"):
        assert shown[column].tolist() == pytest.approx(want[column].tolist()), column
    assert shown["pairs"].tolist() == [36] * 12  # nine runs


def test_the_choices_disagree_somewhere_on_the_sample():
    """The sample was made so that some choice orders the runs differently from another."""
    want = expected()
    assert (want["kendall_tau"] < 1).any() and (want["swapped_pairs"] > 0).any()


def test_the_recommendation_names_a_choice_and_its_caveat(english):
    """The reason and the caveat in words, every figure with the data page's 4 decimals."""
    from test_fit import stray_formats  # the number-format checks' reader of the page
    reason = english.success[0].value
    caveat = english.info[0].value
    assert "separates" in reason and "pairs of systems" in reason
    assert "Sakai 2016" in caveat and "Kanoulas & Aslam (CIKM 2009)" in caveat
    assert stray_formats(english, 4) == []


def test_the_heatmap_power_and_swap_charts_are_drawn(english):
    keys = [c.proto.id for c in english.get("plotly_chart")]
    assert len(english.get("plotly_chart")) == 4, keys


def test_the_evidence_can_be_downloaded_as_csv_and_each_chart_as_a_slide(english):
    """The CSV sits under the table (its content: tests/lab/test_choice_words.py); the Slides
    popover offers each of the four charts as PNG and SVG (drawn by Kaleido on click)."""
    labels = [b.proto.label for b in english.get("download_button")]
    assert "Download the evidence (CSV)" in labels
    assert labels.count("PNG") == labels.count("SVG") == 4


def test_choosing_the_wilcoxon_test_changes_the_power_as_the_engine_says(english):
    at = english
    at.selectbox(key=app_state.CH_TEST).set_value("wilcoxon").run()
    assert not at.exception
    want = expected(test="wilcoxon")
    assert choice_table(at)["discriminative_power"].tolist() == pytest.approx(
        want["discriminative_power"].tolist())
    at.selectbox(key=app_state.CH_TEST).set_value("t").run()


def test_another_reference_is_compared_with(english):
    at = english
    at.selectbox(key=app_state.CH_REFERENCE).set_value("exponential@10").run()
    assert not at.exception
    want = expected(reference="exponential@10")
    assert choice_table(at)["kendall_tau"].tolist() == pytest.approx(want["kendall_tau"].tolist())
    at.selectbox(key=app_state.CH_REFERENCE).set_value("linear@5").run()


def test_judged_only_doubles_the_choices_and_no_gain_asks_for_one():
    at = sample_tab()
    at.multiselect(key=app_state.CH_GAINS).set_value([]).run()
    assert not at.exception
    assert any("Choose at least one gain, one discount and one cutoff" in i.value
               for i in at.info)
    at.multiselect(key=app_state.CH_GAINS).set_value(["linear", "exponential"])
    at.multiselect(key=app_state.CH_DISCOUNTS).set_value(["log2"])
    at.toggle(key=app_state.CH_JUDGED).set_value(True).run()
    assert not at.exception
    assert len(choice_table(at)) == 12
    assert "linear@5, judged only" in choice_table(at)["choice"].tolist()
    at.multiselect(key=app_state.CH_DISCOUNTS).set_value(["log2", "steep"]).run()
    assert len(choice_table(at)) == 24
    assert "linear@5, steeper, judged only" in choice_table(at)["choice"].tolist()


def test_the_steeper_discount_is_in_the_heatmap_the_power_chart_and_the_words(english):
    """The steeper choices are rows and columns of the τ heatmap, bars of the power chart,
    and the recommendation says what the other discount does at the best's gain and k."""
    heatmap, power = english.get("plotly_chart")[:2]  # drawn first, side by side below
    for chart in (heatmap, power):
        assert "exponential@10, steeper" in chart.proto.spec
    assert "Under the other discount" in english.success[0].value


def test_open_in_playground_opens_the_most_disputed_query():
    """The button opens the playground on the query whose NDCG moves most between the
    reference and the chosen choice, with that choice's gain and k."""
    at = sample_tab()
    assert at.selectbox(key=app_state.CH_OPEN).value == "linear@10"  # not the reference
    at.selectbox(key=app_state.CH_OPEN).set_value("exponential@20").run()
    qrels = nc.read_qrels(SAMPLES / "qrels.txt")
    runs = {name: nc.read_run(SAMPLES / name) for name in SAMPLE_RUNS}
    base = dict(nc.CONVENTIONS["trec_eval"], convention="trec_eval", missing="skip")
    scores = nc.choice_scores(qrels, runs, {
        "linear@5": dict(base, gain="linear", k=5), "exponential@20": dict(base,
                                                                           gain="exponential",
                                                                           k=20)})
    spot = nc.disagreement(scores, "exponential@20", reference="linear@5")
    assert any(f"Query {spot['qid']}," in c.value for c in at.caption)
    at.button(key="ch_open_button").click().run()
    assert not at.exception
    params = dict(at.query_params)
    assert params["gain"] in (["exponential"], "exponential") and params["k"] in (["20"], "20")
    assert all(label.startswith(f"{spot['qid']}-") for label in params["l"])


def test_the_tab_speaks_chinese_with_the_same_figures():
    at = sample_tab("zh")
    shown = choice_table(at)
    assert shown["choice"].tolist()[0] == "线性@5"
    assert shown["kendall_tau"].tolist() == pytest.approx(expected()["kendall_tau"].tolist())
    assert "区分" in at.success[0].value
    assert "Kanoulas" in at.info[0].value
    assert at.multiselect(key=app_state.CH_GAINS).label == "增益"
    from test_language import untranslated  # the language checks' reader of options and cells
    assert untranslated(at) == [], untranslated(at)


def test_the_tab_is_not_offered_with_one_run():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/your_data.py").run()
    qrels = (SAMPLES / "qrels.txt").read_bytes()
    run = (SAMPLES / "system_a.run").read_bytes()
    at.session_state[app_state.YD_FILES] = {"qrels": {"name": "q.txt", "data": qrels},
                                            "runs": [{"name": "a.run", "data": run}]}
    at.run()
    assert not at.exception
    assert TAB not in [t.label for t in at.tabs]

