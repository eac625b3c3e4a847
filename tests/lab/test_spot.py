"""The exercises and the mistakes catalogue: the checker names a catalogued mistake when a
typed NDCG@k is its number (before the first wrong step), and the "spot the mistake" kind
offers only options a learner can tell apart."""

from __future__ import annotations

import itertools
from math import log2

import pytest

from lab import exercises as E
from lab import mistakes as M
from lab.text import escape_markdown

NUMBERS = range(1, 41)


def typed(ex, **override):
    sol = E.solution(ex)
    out = {s: f"{sol[s]:.3f}" for s in E.STEPS}
    out.update(override)
    return out


def test_a_typed_ndcg_with_the_discount_off_by_one_is_named():
    """[0, 1, 2] at k = 3, linear: log2(i) with rank 1 set to 1 gives
    (0/1 + 1/1 + 2/log2(3)) / (2/1 + 1/1 + 0) = 2.2619 / 3 = 0.754."""
    ex = E.Exercise("compute", "easy", 1, ("a", "b", "c"), (0, 1, 2), 3, "linear")
    assert round((1 + 2 / log2(3)) / 3, 3) == 0.754
    fb = E.check(ex, typed(ex, ndcg="0.754"))
    assert fb.status == "wrong" and fb.wrong_step == "ndcg" and fb.mistake == "discount_offset"
    lines = E.report(ex, fb)
    assert lines[0][0] == "warning" and escape_markdown(M.name("discount_offset")) in lines[0][1]
    assert lines[1][0] == "error" and lines[1][1].startswith("**NDCG@3 is off**")
    zh = E.report(ex, fb, lang="zh")
    assert zh[0][0] == "warning" and escape_markdown(M.name("discount_offset", "zh")) in zh[0][1]


@pytest.mark.parametrize("level", E.LEVELS)
def test_every_distinct_mistake_is_named_and_the_right_answer_never(level):
    for number in NUMBERS:
        ex = E.generate(number, level, "compute")
        assert E.check(ex, typed(ex)).mistake == ""
        distinct = M.distinct_mistakes(list(ex.grades), k=ex.k, gain=ex.gain)
        for key, value in distinct.items():
            fb = E.check(ex, typed(ex, ndcg=f"{value:.3f}"))
            assert fb.mistake == key, (ex, key)
            assert E.report(ex, fb)[0][0] == "warning"


def test_the_named_mistake_comes_before_the_first_wrong_step():
    """A wrong DCG too: the mistake's line first, then "DCG@k is off"."""
    ex = E.Exercise("compute", "easy", 1, ("a", "b", "c"), (0, 1, 2), 3, "linear")
    fb = E.check(ex, typed(ex, dcg="9", ndcg="0.754"))
    assert fb.wrong_step == "dcg" and fb.mistake == "discount_offset"
    levels = [level for level, _ in E.report(ex, fb)]
    assert levels[:2] == ["warning", "error"]


# ------------------------------------------------------------------ spot the mistake

@pytest.mark.parametrize("level", E.LEVELS)
def test_spot_exercises_offer_unambiguous_options(level):
    for number in NUMBERS:
        ex = E.generate(number, level, "spot")
        assert ex == E.generate.__wrapped__(number, level, "spot")   # reproducible
        assert ex.mistake in ex.options and len(set(ex.options)) == 4
        kw = dict(k=ex.k, gain=ex.gain, unretrieved=ex.unretrieved)
        right = M.right_value(list(ex.grades), **kw)
        values = M.mistaken_values(list(ex.grades), **kw)
        for key in ex.options:
            assert abs(values[key] - right) > E.TOLERANCE
        for a, b in itertools.combinations(ex.options, 2):
            assert abs(values[a] - values[b]) > E.TOLERANCE
        # the figure shown is the answer's, and only the answer's within the tolerance
        shown = round(values[ex.mistake], 3)
        assert [k for k in ex.options if abs(values[k] - shown) <= E.TOLERANCE] == [ex.mistake]


def test_spot_has_judged_documents_missed_from_medium_on():
    assert not any(E.generate(n, "easy", "spot").unretrieved for n in NUMBERS)
    assert any(E.generate(n, "hard", "spot").unretrieved for n in NUMBERS)
    assert any(E.generate(n, "medium", "spot").mistake == "retrieved_ideal"
               for n in range(1, 200))


def test_spot_check_and_report():
    ex = E.generate(3, "medium", "spot")
    right = E.check_choice(ex, ex.mistake)
    assert right.status == "correct"
    assert E.report(ex, right)[0][0] == "success"
    wrong_key = next(k for k in ex.options if k != ex.mistake)
    wrong = E.check_choice(ex, wrong_key)
    assert wrong.status == "wrong"
    line = E.report(ex, wrong)[0][1]
    assert line.startswith("Not this one") and escape_markdown(M.name(ex.mistake)) in line
    assert E.check_choice(ex, None).status == "invalid"
    assert E.report(ex, E.check_choice(ex, None))[0][0] == "error"
    assert "错误" in E.report(ex, E.check_choice(ex, None), lang="zh")[0][1]
