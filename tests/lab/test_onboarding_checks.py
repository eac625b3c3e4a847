"""Each onboarding step's evidence, checked right and wrong, with the figures from the engine.

What a member sees: a right answer finishes the step, a wrong one records a try with a
sentence saying what was off, an unreadable one records nothing and names the fix."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import ndcg_core as nc
from lab import exercises as X
from lab.onboarding import checks as C

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_predicting_ndcg_within_a_thousandth_finishes_step_one(lang):
    ex = C.ndcg_question(3)
    exact = nc.ndcg(list(ex.grades), k=ex.k, gain=ex.gain)
    assert C.check_ndcg(3, f"{exact + 0.0009:.4f}", lang).right
    wrong = C.check_ndcg(3, f"{exact + 0.002:.4f}", lang)
    assert wrong.status == C.WRONG and wrong.evidence["expected"] == round(exact, 6)
    assert C.check_ndcg(3, "0,5", lang).status == C.INVALID


def test_an_order_reaching_the_target_ndcg_finishes_the_drag_step():
    q = C.drag_question(2)
    by_value = {}
    for order in itertools.permutations(range(len(q.grades))):
        grades = [q.grades[i] for i in order]
        by_value.setdefault(round(nc.ndcg(grades, k=q.k, gain=q.gain), 9), order)
    hit = next(o for v, o in by_value.items() if abs(v - q.target) < 1e-9)
    miss = next(o for v, o in by_value.items() if abs(v - q.target) > 0.01)
    assert C.check_drag(2, [q.labels[i] for i in hit], "en").right
    verdict = C.check_drag(2, [q.labels[i] for i in miss], "en")
    assert verdict.status == C.WRONG and "target" in verdict.message
    assert C.check_drag(2, list(q.labels)[:-1], "en").status == C.INVALID


def test_two_orderings_whose_winner_changes_with_the_gain_are_a_flip():
    ex = C.flip_question(1)  # a compare exercise: its two rankings flip at k
    a, b = " ".join(map(str, ex.grades)), " ".join(map(str, ex.other))
    assert C.check_flip(1, a, b, "en").right
    assert C.check_flip(1, a, a, "en").status == C.WRONG  # the same ordering: no winner
    assert C.check_flip(1, a, "9 9 9", "en").status == C.INVALID
    assert C.check_flip(1, "three two", b, "en").status == C.INVALID


def test_a_k_where_ndcg_falls_and_the_right_reason_finish_the_cutoff_step():
    ex = C.cutoff_question(1)
    curve = nc.ndcg_curve(list(ex.grades), gain=ex.gain)["ndcg"].tolist()
    fall = next(k for k in range(2, len(curve) + 1) if curve[k - 1] < curve[k - 2])
    rise = next(k for k in range(2, len(curve) + 1) if curve[k - 1] >= curve[k - 2])
    assert C.check_cutoff(1, str(fall), "ideal", "en").right
    assert C.check_cutoff(1, str(fall), "dcg_falls", "en").status == C.WRONG
    assert C.check_cutoff(1, str(rise), "ideal", "en").status == C.WRONG
    assert C.check_cutoff(1, "1", "ideal", "en").status == C.INVALID
    assert C.check_cutoff(1, "four", "ideal", "en").status == C.INVALID


@pytest.mark.parametrize("n", [1, 2])  # odd: tied scores; even: a query with nothing relevant
def test_the_value_the_named_library_gives_finishes_the_conventions_step(n):
    q = C.conventions_question(n)
    p = nc.CONVENTIONS[q.library]
    value = nc.ndcg(list(q.grades), scores=list(q.scores), ties=p["ties"], gain=p["gain"],
                    zero_idcg=p["zero_idcg"], k=q.k,
                    docids=[f"d{i + 1}" for i in range(len(q.grades))])
    assert q.options[C.LETTERS.index(q.answer)] == pytest.approx(value)
    assert C.check_conventions(n, q.answer, "en").right
    other = next(x for x in C.LETTERS[:len(q.options)] if x != q.answer)
    assert C.check_conventions(n, other, "en").status == C.WRONG
    assert C.check_conventions(n, None, "en").status == C.INVALID


def test_three_mistakes_spotted_in_a_row_finish_the_mistakes_step():
    streak = 0
    for n in (1, 2, 3):
        ex = C.spot_question(n)
        verdict = C.check_spot(n, ex.mistake, streak, "en")
        streak = verdict.evidence["streak"]
        assert verdict.status == (C.RIGHT if n == 3 else C.STREAK)
    ex = C.spot_question(4)
    wrong = next(o for o in ex.options if o != ex.mistake)
    assert C.check_spot(4, wrong, 2, "en").evidence["streak"] == 0  # the streak starts again
    assert C.check_spot(4, "no such mistake", 2, "en").status == C.INVALID


def test_the_review_quiz_is_done_only_with_all_three_right():
    ex, cut, conv = C.review_questions(5)
    value = f"{X.solution(ex)['ndcg']:.3f}"
    k = str(C.falls(cut.grades, cut.gain)[0])
    assert C.check_review(5, value, k, conv.answer, "en").right
    other = next(x for x in C.LETTERS[:len(conv.options)] if x != conv.answer)
    verdict = C.check_review(5, value, k, other, "en")
    assert verdict.status == C.WRONG and verdict.evidence["right"] == [True, True, False]
    assert C.check_review(5, "", k, conv.answer, "en").status == C.INVALID


@pytest.mark.parametrize("convention", ["trec_eval", "lightgbm"])
def test_the_teams_mean_under_its_convention_is_reproduced(convention):
    qrels = nc.read_qrels(f"{SAMPLES}/qrels.txt")
    run = nc.read_run(f"{SAMPLES}/system_a.run")
    mean = nc.evaluate(qrels, run, k=10, convention=convention)["ndcg@10"].mean()
    sums = {"qrels_sha256": "q", "run_sha256": "r"}
    assert C.check_reproduce(qrels, run, f"{mean:.4f}", convention, sums, "en").right
    verdict = C.check_reproduce(qrels, run, f"{mean + 0.001:.4f}", convention, sums, "en")
    assert verdict.status == C.WRONG and verdict.evidence["run_sha256"] == "r"
    assert C.check_reproduce(qrels, run, "", convention, sums, "en").status == C.INVALID


def test_the_mean_under_another_convention_is_not_the_teams_number():
    """trec_eval's mean typed for a team that uses LightGBM's convention is refused."""
    qrels = nc.read_qrels(f"{SAMPLES}/qrels.txt")
    run = nc.read_run(f"{SAMPLES}/system_a.run")
    trec = nc.evaluate(qrels, run, k=10, convention="trec_eval")["ndcg@10"].mean()
    assert not C.check_reproduce(qrels, run, f"{trec:.4f}", "lightgbm", {}, "en").right


DCG_AND_NDCG = """
import math

def dcg(grades, k=None):
    g = grades if k is None else grades[:k]
    return sum(x / math.log2(i + 2) for i, x in enumerate(g))

def ndcg(grades, k=None, unretrieved=()):
    best = dcg(sorted(list(grades) + list(unretrieved), reverse=True), k)
    return dcg(grades, k) / best if best > 0 else 0.0
"""


def test_dcg_and_ndcg_that_pass_the_code_exercises_finish_the_code_step():
    """Run in the code exercises' sandbox; a discount off by one fails with its counts."""
    right = C.check_code(DCG_AND_NDCG, "m1", "en")
    assert right.right and right.evidence["ndcg"]["passed"] == right.evidence["ndcg"]["total"]
    assert right.evidence["code"] == DCG_AND_NDCG
    wrong = C.check_code(DCG_AND_NDCG.replace("log2(i + 2)", "log2(i + 1 + 0.5)"), "m1", "en")
    assert wrong.status == C.WRONG and wrong.evidence["dcg"]["passed"] < wrong.evidence["dcg"]["total"]
    assert C.check_code("   ", "m1", "en").status == C.INVALID


def test_the_code_step_is_coming_until_a_code_exercises_module_exists(monkeypatch):
    """A server without the code exercises offers eight steps; with them, nine."""
    from lab.onboarding import steps as S
    assert "code" in S.available()  # lab/code_exercises.py is part of the app
    monkeypatch.setattr(S, "CODE_MODULES", ("lab.no_such_module",))
    S.code_module.cache_clear()
    try:
        assert "code" not in S.available() and len(S.available()) == 8
    finally:
        monkeypatch.undo()
        S.code_module.cache_clear()
