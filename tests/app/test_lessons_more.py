"""AppTest checks of the Cutoffs, Conventions, Beyond NDCG and Practice pages: they run, and
what they show is what scikit-learn, pytrec_eval and ndcg_core compute."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score
from streamlit.testing.v1 import AppTest

import ndcg_core as nc
from lab import exercises as E
from lab import playground as S

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = ["pages/cutoffs.py", "pages/conventions.py", "pages/beyond.py", "pages/practice.py"]


def page(path, pg=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(path).run()
    assert not at.exception
    if pg is not None:
        at.session_state["pg"] = pg
        at.run()
        assert not at.exception
    return at


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def table_with(at, column):
    """The first table (a data grid or a static lesson table) with this column."""
    return next(d.value for d in [*at.dataframe, *at.table] if column in d.value.columns)


@pytest.mark.parametrize("path", PAGES)
def test_page_runs_without_exception(path):
    """Each lesson page opens and renders."""
    at = page(path)
    assert at.title


ODD_LISTS = {
    "missing grade": S.make(["a", "b", "c"], [2, None, 1], k=2),
    "negative grades": S.make(["a", "b", "c", "d"], [-1, 2, 0, 1], k=3, scale="free"),
    "one item": S.make(["only"], [2]),
    "all zero": S.make(["a", "b", "c"], [0, 0, 0], k=2),
    "fractional grades": S.make(["a", "b", "c"], [0.5, 2.5, 1.25], k=3, scale="free"),
    "unretrieved pool": S.make(["a", "b"], [1, 0], k=2, unretrieved=(3, 2)),
}


@pytest.mark.parametrize("name", ODD_LISTS)
@pytest.mark.parametrize("path", PAGES[:3])
def test_pages_survive_odd_playground_lists(path, name):
    """Pages that read the playground list render for any list the playground allows."""
    at = page(path, ODD_LISTS[name])
    assert not at.exception


# ------------------------------------------------------------------ cutoffs

def test_cutoffs_shows_ndcg10_below_ndcg5():
    """The twelve-item example: NDCG@5 = 1.0, NDCG@10 = 0.865119."""
    shown = metrics(page("pages/cutoffs.py"))
    g = [3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2]
    assert shown["NDCG@5"] == f"{nc.ndcg(g, k=5):.3f}" == "1.000"
    assert shown["NDCG@10"] == f"{nc.ndcg(g, k=10):.3f}" == "0.865"


def test_cutoffs_ideal_pool_and_mixed_cutoffs():
    """Ideal from the list scores 1.0, from all judgments 0.808082; an IDCG cut at 1 exceeds 1."""
    at = page("pages/cutoffs.py")
    shown = metrics(at)
    assert shown["ideal from the list · NDCG@3"] == "1.000"
    assert shown["ideal from all judgments · NDCG@3"] == "0.808"
    at.slider(key="cut_k2").set_value(1).run()
    ratio = nc.dcg([3, 2, 3, 0, 1, 2], k=3) / nc.idcg([3, 2, 3, 0, 1, 2], k=1)
    assert metrics(at)["DCG@3 / IDCG@1"] == f"{ratio:.3f}"
    assert ratio > 1 and "more than 1" in at.error[0].value


def test_open_in_playground_carries_the_unretrieved_item():
    """"Open in playground" on the ideal-pool example loads d1 d2 d3 with d4 in the pool."""
    at = page("pages/cutoffs.py")
    at.button(key="cut_open_pool").click().run()
    assert not at.exception
    pg = at.session_state["pg"]
    assert pg.grades == (3, 2, 1) and pg.unretrieved == (3,) and pg.k == 3


# ------------------------------------------------------------------ conventions

def test_ties_table_at_k1():
    """Averaged 0.5, doc id 1.0, input order 0.0 on the tie example at k = 1."""
    table = table_with(page("pages/conventions.py"), "NDCG@1").set_index("rule")["NDCG@1"]
    assert table["average"] == pytest.approx(0.5)
    assert table["docid"] == pytest.approx(1.0)
    assert table["input"] == pytest.approx(0.0)
    assert table["optimistic"] == pytest.approx(1.0)
    assert table["pessimistic"] == pytest.approx(0.0)


def test_zero_idcg_rules_move_the_mean():
    table = table_with(page("pages/conventions.py"), "q2 (all zero)").set_index("rule")["mean"]
    assert table.round(6).to_dict() == {"zero": 0.475117, "nan": 0.950234, "one": 0.975117}


def test_negative_grades_show_the_engine_error():
    at = page("pages/conventions.py")
    with pytest.raises(ValueError) as exc:
        nc.ndcg([-1, 2, 0, 1], k=3, negative="error")
    assert str(exc.value) in at.error[0].value


def test_strictly_increasing_transform_keeps_ndcg_and_rounding_does_not():
    at = page("pages/conventions.py")
    for name in ("exp(s)", "10·s + 3", "round to 1 decimal"):
        at.selectbox(key="cv_transform").set_value(name).run()
        shown = metrics(at)
        same = shown["NDCG@3, original scores"] == shown[f"NDCG@3, {name}"]
        assert same == (name != "round to 1 decimal")


def presets(at):
    """The presets panel's table, indexed by preset."""
    return table_with(at, "why it differs from trec_eval")


def test_discount_weights_start_undiscounted():
    """Rank 1 weighs 1 under log2 and Järvelin–Kekäläinen, 1/ln 2 under ln."""
    from lab import conventions as C
    w = C.discount_weights(4, 2.0)
    assert w.loc[1, "log2"] == 1.0 and w.loc[2, "jarvelin"] == 1.0
    assert w.loc[3, "log2"] == pytest.approx(0.5)


def sklearn_and_trec(labels, grades, k, pool=()):
    """NDCG@k of a ranked list (score n − position) by scikit-learn and pytrec_eval, the
    judged-but-not-retrieved pool in trec_eval's qrels only."""
    n = len(grades)
    scores = [float(n - i) for i in range(n)]
    sk = ndcg_score(np.asarray([grades], float), np.asarray([scores]), k=k)
    qrels = {"q": {f"d{i}": int(g) for i, g in enumerate(grades)}}
    qrels["q"].update({f"u{i}": int(g) for i, g in enumerate(pool)})
    run = {"q": {f"d{i}": s for i, s in enumerate(scores)}}
    te = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"}).evaluate(run)
    return sk, te["q"][f"ndcg_cut_{k}"]


@pytest.mark.parametrize("grades, k, pool", [
    ([3, 2, 3, 0, 1, 2], 6, ()),
    ([3, 2, 3, 0, 1, 2], 3, ()),
    ([3, 2, 1], 3, (3,)),          # d4 never retrieved: the two libraries disagree
    ([0, 1, 0, 2, 2, 0, 3], 5, (2, 1)),
])
def test_presets_panel_matches_sklearn_and_pytrec_eval(grades, k, pool):
    """The presets table's scikit-learn and trec_eval rows are those libraries' numbers."""
    labels = [f"Doc {i}" for i in range(len(grades))]
    at = page("pages/conventions.py", S.make(labels, grades, k=k, unretrieved=pool))
    table = presets(at)[f"NDCG@{k}"]
    sk, te = sklearn_and_trec(labels, grades, k, pool)
    assert float(table["scikit-learn"]) == pytest.approx(sk, abs=5e-4)  # shown to 3 decimals
    assert float(table["trec_eval"]) == pytest.approx(te, abs=5e-4)


def test_presets_panel_with_negative_grades_shows_refusals():
    """sklearn, LightGBM and XGBoost refuse negative grades; trec_eval counts them as 0."""
    grades = [-1, 2, 0, 1]
    at = page("pages/conventions.py", S.make(list("abcd"), grades, k=3, scale="free"))
    table = presets(at)["NDCG@3"]
    for preset in ("scikit-learn", "LightGBM", "XGBoost"):
        assert table[preset].startswith("refuses: ") and "negative" in table[preset]
    with pytest.raises(ValueError, match="negative"):
        ndcg_score([[-1, 2, 0, 1]], [[4, 3, 2, 1]], k=3)
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades)}}
    run = {"q": {f"d{i}": float(4 - i) for i in range(4)}}
    te = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.3"}).evaluate(run)["q"]["ndcg_cut_3"]
    assert float(table["trec_eval"]) == pytest.approx(te, abs=5e-4) == pytest.approx(0.4796, abs=1e-4)


# ------------------------------------------------------------------ beyond

def expected_beyond(grades, k, threshold=1):
    return {f"CG@{k}": nc.cg(grades, k=k), f"Precision@{k}": nc.precision_at_k(
        grades, k=k, threshold=threshold), "Reciprocal rank": nc.reciprocal_rank(grades),
        "Average precision": nc.average_precision(grades), f"NDCG@{k}": nc.ndcg(grades, k=k)}


def test_beyond_metrics_follow_a_reorder():
    """Reordering the shared playground ranking moves every order-aware metric."""
    at = page("pages/beyond.py")
    pg = at.session_state["pg"]
    k = pg.cutoff
    before = metrics(at)
    for name, value in expected_beyond(pg.grades, k).items():
        assert before[name] == f"{value:.3f}"
    worst = S.worst_order(pg)
    at.session_state["pg"] = worst
    at.run()
    after = metrics(at)
    for name, value in expected_beyond(worst.grades, k).items():
        assert after[name] == f"{value:.3f}"
    assert after[f"NDCG@{k}"] != before[f"NDCG@{k}"]
    assert after["Reciprocal rank"] != before["Reciprocal rank"]


def test_beyond_threshold_slider_changes_binary_metrics():
    at = page("pages/beyond.py")
    grades = at.session_state["pg"].grades
    at.slider(key="beyond_threshold").set_value(3).run()
    assert metrics(at)["Precision@6"] == f"{nc.precision_at_k(grades, k=6, threshold=3):.3f}"
    assert metrics(at)["MRR of ranks [1, 4, 2, 9]"] == "0.465"


# ------------------------------------------------------------------ practice

def practice() -> tuple[AppTest, E.Exercise]:
    at = page("pages/practice.py")
    number = int(at.number_input(key="px_number").value)
    level, kind = at.radio(key="px_level").value, at.radio(key="px_kind").value
    return at, E.generate(number, level, kind)


def type_answers(at, values: dict):
    for step, text in values.items():
        at.text_input(key=f"px_{step}").input(text)
    at.button(key="px_check").click().run()
    assert not at.exception


def test_practice_accepts_a_correct_answer():
    at, ex = practice()
    g = list(ex.grades)
    right = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, k=ex.k, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    type_answers(at, {s: f"{v:.3f}" for s, v in right.items()})
    assert "within ±0.001" in at.success[0].value
    assert metrics(at)["Score"] == "1 / 1"


@pytest.mark.parametrize("wrong, named", [("idcg", "IDCG"), ("dcg", "DCG"),
                                          ("ndcg", "NDCG")])
def test_practice_names_the_first_wrong_step(wrong, named):
    """Correct DCG but a wrong IDCG is reported as "IDCG@k is off", and so on."""
    at, ex = practice()
    g = list(ex.grades)
    typed = {"dcg": nc.dcg(g, k=ex.k, gain=ex.gain), "idcg": nc.idcg(g, k=ex.k, gain=ex.gain),
             "ndcg": nc.ndcg(g, k=ex.k, gain=ex.gain)}
    typed[wrong] += 0.5
    type_answers(at, {s: f"{v:.3f}" for s, v in typed.items()})
    assert at.error[0].value.startswith(f"**{named}@{ex.k} is off**")
    assert metrics(at)["Score"] == "0 / 1"


@pytest.mark.parametrize("text", ["", "abc", "1,5"])
def test_practice_bad_input_gets_a_message_and_stays(text):
    at, _ = practice()
    type_answers(at, {"dcg": text, "idcg": "1", "ndcg": "0.5"})
    assert at.error and "Nothing was graded" in at.error[0].value
    assert at.text_input(key="px_dcg").value == text
    assert metrics(at)["Score"] == "0 / 0"


def test_practice_new_exercise_and_solution():
    at, ex = practice()
    at.button(key="px_reveal").click().run()
    assert not at.exception and metrics(at)["Score"] == "0 / 1"
    at.button(key="px_new").click().run()
    assert at.number_input(key="px_number").value == ex.number + 1


def test_practice_compare_exercise():
    at = page("pages/practice.py")
    at.radio(key="px_kind").set_value("compare").run()
    ex = E.generate(1, "medium", "compare")
    at.radio(key="px_choice").set_value(E.solution(ex)["winner"])
    at.button(key="px_check").click().run()
    assert not at.exception and at.success and metrics(at)["Score"] == "1 / 1"
