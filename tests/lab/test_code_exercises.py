"""The "Write it yourself" exercises (lab/code_exercises.py, lab/code_check.py): the reference
solutions pass every test, and each faulty solution of tests/data/code_solutions/ fails with
its mistake named (the file name says which: ``<exercise>__<mistake>__<n>.py``, ``right`` for a
correct one). Every run goes through the real sandbox."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from lab import code_check as C
from lab import code_exercises as X
from lab import mistakes as M

SOLUTIONS = Path(__file__).resolve().parents[1] / "data" / "code_solutions"
FILES = sorted(SOLUTIONS.glob("*.py"))
FAULTY = [p for p in FILES if p.stem.split("__")[1] != "right"]
RIGHT = [p for p in FILES if p.stem.split("__")[1] == "right"]


def parts(path):
    exercise, mistake, _ = path.stem.split("__")
    return exercise, mistake


def test_the_path_has_at_least_eight_exercises_starting_with_dcg():
    assert len(X.EXERCISES) >= 8
    first = X.EXERCISES[0]
    assert (first.function, first.params) == ("dcg", "grades, k=None")


def test_thirty_faulty_and_ten_correct_solutions_in_different_styles():
    assert len(FAULTY) >= 30 and len(RIGHT) >= 10
    assert len({p.read_text() for p in FILES}) == len(FILES)


def test_every_mistake_named_is_catalogued_or_declared():
    for ex in X.EXERCISES:
        assert set(ex.mistakes) <= set(M.KEYS) | set(X.OTHER_MISTAKES), ex.key


def test_the_first_exercise_in_words():
    """dcg([3, 2, 3, 0, 1, 2]) = 3/1 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7)."""
    assert X.DCG.right([3, 2, 3, 0, 1, 2]) == pytest.approx(
        3 + 2 / math.log2(3) + 3 / 2 + 0 + 1 / math.log2(6) + 2 / math.log2(7))
    assert X.DCG.right([3, 2, 3, 0, 1, 2], 4) == pytest.approx(3 + 2 / math.log2(3) + 3 / 2)


def test_the_evaluate_exercise_is_trec_evals_ndcg_cut_10_on_the_bundled_sample():
    """q01 of system_a: 0.5058 as trec_eval -m ndcg_cut.10 prints it (ndcg_core's test)."""
    qrels, run, k = X.EVALUATE.visible[1]
    values = X.EVALUATE.right(qrels, run, k)
    assert k == 10 and len(values) == 49
    assert values["q01"] == pytest.approx(0.505807, abs=1e-6)


def test_hidden_cases_are_seeded_per_learner():
    a, b = X.hidden_cases(X.DCG, "ann"), X.hidden_cases(X.DCG, "bob")
    assert a == X.hidden_cases(X.DCG, "ann") and a != b


@pytest.mark.parametrize("path", RIGHT, ids=lambda p: p.stem)
def test_a_correct_solution_passes_every_test_and_is_named_nothing(path):
    exercise, _ = parts(path)
    report = C.check(exercise, path.read_text(), seed="learner-1")
    assert report.problem is None
    assert (report.passed, report.mistake) == (report.total, None)
    assert C.passes(exercise, path.read_text(), seed="learner-2")


@pytest.mark.parametrize("path", FAULTY, ids=lambda p: p.stem)
def test_a_faulty_solution_fails_with_its_mistake_named(path):
    exercise, mistake = parts(path)
    report = C.check(exercise, path.read_text(), seed="learner-1")
    assert report.problem is None and report.passed < report.total
    assert report.mistake == mistake


def test_the_result_shows_the_first_failing_visible_case_never_a_hidden_input():
    """A dcg that only fails when k is past the list: the visible cases pass, the page says
    that hidden cases failed and shows none of their inputs."""
    code = ("import math\ndef dcg(grades, k=None):\n"
            "    if k is not None and k > len(grades):\n        return -1.0\n"
            "    return sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))\n")
    report = C.check("dcg", code, seed="s")
    assert report.first_failure is None and report.hidden_failed >= 1
    report = C.check("dcg", "def dcg(grades, k=None):\n    return 1.5\n", seed="s")
    assert report.first_failure.args == X.DCG.visible[0]
    assert report.first_failure.got == {"value": 1.5}
    assert report.first_failure.expected == pytest.approx(X.DCG.right(*X.DCG.visible[0]))


def test_no_value_may_be_written_none_or_nan():
    """An all-zero query has no NDCG: None and float('nan') are both accepted."""
    assert C.same(None, {"value": None}) and C.same(math.nan, {"value": "nan"})
    assert not C.same(None, {"value": 0.0}) and not C.same(0.5, {"value": None})


def test_a_missing_function_or_a_syntax_error_is_a_problem_not_a_traceback():
    assert C.check("dcg", "def ndcg(g):\n    return 0\n").problem == "missing"
    bad = C.check("dcg", "def dcg(grades:\n    return 0\n")
    assert bad.problem == "load_error" and "SyntaxError" in bad.detail
